"""Google Chrome (``com.android.chrome``, the emulator image's browser): a toolbar with the URL bar over a page
area that is a real web page, rendered and run by the phone's headless Chromium (``system.chromium``).

The page area is the page's own pixels (Chromium's screenshots at the screen's own pixels, composited into the
frame unscaled: a CSS px is a dp, so ``devicePixelRatio`` is the density / 160, 2.625 at the Pixel's 420 dpi), its
accessibility nodes are Chromium's accessibility tree exposed as Chrome on Android exposes web content (an
``android.webkit.WebView`` whose virtual children carry text, content-desc, bounds and the
clickable/editable/checked/focused flags), and every touch on it reaches the page as CDP touch events at the same
spot; typing goes to the page's focused field as an IME's commits. Android resizes the page when the keyboard shows,
and so does this, once: an address typed in the omnibox loads at the size the page has when the keyboard is gone.

Activity ``com.google.android.apps.chrome.Main`` (AndroidWorld's ``adb_utils``) takes ``VIEW`` of ``http(s):``,
``file:`` and ``content:`` data and of ``text/html``; a ``file:///sdcard/...`` address is read from the phone's
storage. Ids follow Chrome's ``toolbar`` layouts (``url_bar``, ``home_button``, ``tab_switcher_button``,
``menu_button``) and labels its ``android_chrome_strings.grd`` ("Search or type web address", "Open the home
page", "Switch or close tabs", "Customize and control Google Chrome").

The home page is the new-tab page (``chrome_new_tab``), drawn natively over the tab's ``about:blank`` (its
stand-in for ``chrome-native://newtab/``), as Chrome draws its NTP natively rather than as a web page.

Not simulated: the first-run screens (AndroidWorld's setup taps through them once), more than one tab and the tab
switcher, a profile and tabs kept across the process's death (``Chrome.on_force_stop``), the menu and search
suggestions (typed text that is not an address is a search on Google, and an address without a scheme gets
``https://``: the phone's network blocks both), downloads, and long presses inside pages (they reach the page as
taps). The page runs on Chromium's real clock, not the phone's virtual clock.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from urllib.parse import quote_plus, unquote, urlparse

from android_gym.sim.apps.chrome_new_tab import PACKAGE, URL_HINT, new_tab_page
from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.display import DESIGN_DP
from android_gym.sim.framework.intent import CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.framework.window import KEYBOARD_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.chromium import WebPage
from android_gym.sim.system.fs import normalize
from android_gym.sim.system.web_accessibility import WebNode, android_class
from android_gym.sim.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    View,
    does_nothing,
    edit_text,
    image_button,
    row,
    web_view,
)

MAIN_ACTIVITY = "com.google.android.apps.chrome.Main"
ACTION_VIEW = "android.intent.action.VIEW"
HOME_URL = "about:blank"
#: What the tab loads for ``about:blank`` typed in the omnibox: the same empty document as an entry of its own (an
#: empty fragment), which the URL bar shows as "about:blank" over a blank page, as Chrome does; the tab's plain
#: ``about:blank`` stays the new-tab page's stand-in.
_TYPED_BLANK = HOME_URL + "#"
HOME = "Open the home page"
TABS = "Switch or close tabs"
MENU = "Customize and control Google Chrome"
TOOLBAR_HEIGHT = 147  # 56 dp at 420 dpi
_TOOLBAR_PADDING = 12
_TOOLBAR_BG = (255, 255, 255)
#: The default search engine's results page (Google's TemplateURL): where typed text that is not an address goes.
SEARCH_URL = "https://www.google.com/search?q="
#: The schemes the tab loads as they are given (``file:`` and a path load the phone's storage instead).
_LOADED_AS_GIVEN = ("http", "https", "about", "data")
#: What the omnibox takes for an address: a URL with a scheme Chrome loads, a path, or a host (a dotted name,
#: localhost or an IPv4 address, with a port) and what follows it.
_ADDRESS = re.compile(rf"(?i)(({'|'.join((*_LOADED_AS_GIVEN, 'file'))}):|/|"
                      r"(localhost|[a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)?([/?#]|$))")
_URL_BG = (241, 243, 244)
_WEB_FIELD = "web-field"  # the focus key of the page's focused text field


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


#: Serial numbers of tabs opened in this process: a tab's pictures are kept under its serial, which no later tab
#: shares (an ``id()`` can be a closed tab's, whose picture would then be shown for the new page).
_TAB_SERIALS = itertools.count(1)


class Tab:
    """The one tab: its page in Chromium, and the serial its page's pictures are kept under."""

    def __init__(self, page: WebPage) -> None:
        self.page = page
        self.serial = next(_TAB_SERIALS)


class MainScreen(Screen):
    """``ChromeTabbedActivity`` (started as ``.Main``): the toolbar and the current page."""

    activity = MAIN_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.address = ""  # what the URL bar holds while it is being edited
        if intent.data:
            self._open(intent.data)

    @property
    def chrome(self) -> Chrome:
        """The app."""
        assert isinstance(self.app, Chrome)
        return self.app

    # ----- page geometry ----------------------------------------------------------------------------------
    def _page_size(self) -> tuple[int, int]:
        """The page area in design px: below the toolbar, above the keyboard when it shows."""
        keyboard = KEYBOARD_HEIGHT if self.focus_key and self.keyboard_shown else 0
        window = self.phone.window
        bars = STATUS_BAR_HEIGHT + window.nav_bar_height + TOOLBAR_HEIGHT
        return window.design_width, window.design_height - bars - keyboard

    def _fit_page(self, settle: bool = True) -> tuple[int, int]:
        """Give the tab's page the page area (``WebPage.resize``): a viewport of as many whole CSS px (dp) as it
        holds, at the screen's px per dp; its size in design px."""
        width, height = self._page_size()
        scale = DESIGN_DP * self.phone.window.scale
        self.chrome.tab().page.resize(round(width / DESIGN_DP), round(height / DESIGN_DP), scale, settle)
        return width, height

    def _screen_size(self, width: int, height: int) -> tuple[int, int]:
        """The page area's size in screen px, as the renderer draws the web view (``width`` x ``height`` design px
        below the toolbar): the size the page's pixels are captured at."""
        top, scale = STATUS_BAR_HEIGHT + TOOLBAR_HEIGHT, self.phone.window.scale
        return round(width * scale), round((top + height) * scale) - round(top * scale)

    def _open(self, address: str) -> None:
        """Load ``address`` in the tab at the size the page area has now (a page loaded at the last frame's size
        would be resized at the next one)."""
        self._fit_page(settle=False)
        self.chrome.open(address)

    # ----- input --------------------------------------------------------------------------------------------
    def _touch(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A touch on the page area (view px): a tap or a drag through evenly spaced points, in CSS px."""
        tab = self.chrome.tab()
        width, _ = self._page_size()
        css = width / round(width / DESIGN_DP)
        steps = max(1, min(20, round(max(abs(x2 - x1), abs(y2 - y1)) / 30)))
        points = [(x1 / css, y1 / css)] if (x1, y1) == (x2, y2) else [
            ((x1 + (x2 - x1) * i / steps) / css, (y1 + (y2 - y1) * i / steps) / css) for i in range(steps + 1)]
        tab.page.touch(points)
        self._follow_focus(tapped=len(points) == 1)

    def _follow_focus(self, tapped: bool) -> None:
        """A tap that leaves a text field of the page focused shows the keyboard (as Chrome's IME adapter does);
        the keyboard goes when the page's focus leaves its text fields."""
        if self.chrome.tab().page.focused_value() is None:
            if self.focus_key == _WEB_FIELD:
                self.focus_key, self.keyboard_shown = "", False
        elif tapped:
            self.focus_key, self.keyboard_shown = _WEB_FIELD, True

    def _type(self, old: str, new: str) -> None:
        """Commit an edit of the page's focused field: delete back to the common prefix, insert the rest."""
        page = self.chrome.tab().page
        common = 0
        while common < min(len(old), len(new)) and old[common] == new[common]:
            common += 1
        for _ in range(len(old) - common):
            page.press("Backspace")
        if new[common:]:
            page.insert_text(new[common:])
        self.selection = None

    def _submit_address(self) -> None:
        """The typed address loads with the keyboard gone: at the page's full size."""
        address = self.address
        self.focus_key, self.keyboard_shown, self.address = "", False, ""
        self._open(omnibox_url(address))

    def on_back(self) -> bool:
        """BACK goes back in the tab's history; with none left the activity finishes."""
        return self.chrome.tab().page.back()

    # ----- views --------------------------------------------------------------------------------------------
    def build(self) -> View:
        tab = self.chrome.tab()
        width, height = self._fit_page()
        if self.focus_key == _WEB_FIELD and tab.page.focused_value() is None:
            self.focus_key, self.keyboard_shown = "", False
        # The new-tab page is drawn natively over the tab's blank page, whose accessibility nodes nobody reads
        state = None if tab.page.url == HOME_URL else tab.page.state()
        url = "" if state is None else display_url(self.phone.fs.host_path("/"), state.url)
        if state is not None and url:
            css = width / round(width / DESIGN_DP)
            nodes = [self._node(node, css) for node in state.nodes]
            pixels = self._screen_size(width, height)
            page = web_view(state.title, nodes, self._touch, lambda: tab.page.screenshot(*pixels),
                            f"chrome-page:{tab.serial}:{state.version}", resource_id="", weight=1)
        else:
            page = new_tab_page(self.phone.window.looks.night, self._focus_omnibox, weight=1)
        return View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id("coordinator"),
                    children=[self._toolbar(url), page])

    def _focus_omnibox(self) -> None:
        """The new-tab page's search box tapped: the URL bar takes the focus, empty, with the keyboard."""
        self.focus_key, self.keyboard_shown, self.address = "url", True, ""

    def _toolbar(self, url: str) -> View:
        editing = self.focus_key == "url"

        def edited(text: str) -> None:
            self.address = text

        # The toolbar stays 56 dp tall at every font scale (the page's viewport is the rest of the window): the URL
        # text (16 sp) grows inside the location bar, whose field has little vertical padding
        field = edit_text(self.address if editing else url, URL_HINT, "url", edited, resource_id=_id("url_bar"),
                          text_size=42, padding=8, weight=1)
        field.on_submit = self._submit_address
        field.underline = False  # url_bar's android:background="@null": the location bar's pill is its background
        if not editing:
            field.on_click = lambda: setattr(self, "address", "")
        home = _toolbar_button(HOME, "home", lambda: self._open(HOME_URL), "home_button")
        tabs = _toolbar_button(TABS, "tabs", does_nothing, "tab_switcher_button")
        menu = _toolbar_button(MENU, "more", does_nothing, "menu_button")
        bar = row(field, background=_URL_BG, corner=60, height=110, padding=8, resource_id=_id("location_bar"),
                  weight=1)
        return row(home, bar, tabs, menu, resource_id=_id("toolbar"), height=TOOLBAR_HEIGHT, background=_TOOLBAR_BG,
                   padding=_TOOLBAR_PADDING, spacing=8, elevation=3)

    def _node(self, node: WebNode, css: float) -> View:
        """A virtual view for one accessibility node, bounds in design px relative to the page area."""
        x1, y1, x2, y2 = node.bounds
        view = View(kind="virtual", class_name=android_class(node.role), text=node.text, content_desc=node.content_desc,
                    hint=node.hint, clickable=node.clickable, focusable=node.focusable, focused=node.focused,
                    checkable=node.checkable, checked=node.checked, virtual=True,
                    bounds=(round(x1 * css), round(y1 * css), round(x2 * css), round(y2 * css)),
                    children=[self._node(child, css) for child in node.children], text_color=TEXT_SECONDARY)
        if node.editable and node.focused and self.focus_key == _WEB_FIELD:
            focused = self.chrome.tab().page.focused_value()
            if focused is not None:
                value, multiline, password = focused
                view.key, view.value, view.multiline, view.password = _WEB_FIELD, value, multiline, password
                view.on_text = lambda new, old=value: self._type(old, new)
                view.on_submit = lambda: self.chrome.tab().page.press("Enter")
        return view


def _toolbar_button(content_desc: str, icon: str, on_click: Callable[[], None], name: str) -> View:
    """A toolbar button: 48 dp wide and as tall as the toolbar holds (inside its padding)."""
    return image_button(content_desc, icon, on_click, resource_id=_id(name), text_color=TEXT, width=126,
                        height=TOOLBAR_HEIGHT - 2 * _TOOLBAR_PADDING)


def omnibox_url(typed: str) -> str:
    """What the omnibox loads for ``typed`` (``AutocompleteInput``'s classification, simplified): an address as it
    is (``Chrome.open`` completes it), anything else, words or a sentence, a Google search for it."""
    typed = typed.strip()
    if typed.lower() == HOME_URL:
        return _TYPED_BLANK
    if _ADDRESS.match(typed) and not any(char.isspace() for char in typed):
        return typed
    return SEARCH_URL + quote_plus(typed)


def display_url(root: object, url: str) -> str:
    """The address the URL bar shows: a page on the phone's storage as its Android path (``file:///storage/...``),
    the new-tab page's ``about:blank`` as nothing, a typed one as itself."""
    if url in ("", HOME_URL):
        return ""
    if url == _TYPED_BLANK:
        return HOME_URL
    parsed = urlparse(url)
    prefix = str(root).rstrip("/")
    path = unquote(parsed.path)
    if parsed.scheme == "file" and path.startswith(prefix + "/"):
        return "file://" + path[len(prefix):]
    return url


class Chrome(App):
    """``com.android.chrome``: one tab on the phone's Chromium, created when Chrome first shows a page."""

    package = PACKAGE
    night_colors = MATERIAL_YOU_NIGHT  # Chrome's theme setting defaults to "System default"; pages keep theirs
    label = "Chrome"
    icon, icon_color = "app_chrome", (66, 133, 244)
    screens = (MainScreen,)
    # Main's VIEW filters (the web and local pages ``resolve`` opens).
    intent_filters = (*App.intent_filters,
                      IntentFilter((ACTION_VIEW,), (CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
                                   schemes=("http", "https", "file")),
                      IntentFilter((ACTION_VIEW,), (CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
                                   mime_types=("text/html", "application/xhtml+xml")))

    def __init__(self, phone) -> None:
        super().__init__(phone)
        self._tab: Tab | None = None

    def tab(self) -> Tab:
        """The tab, its page opened (and the browser started) on first use, again after Chrome's process died or the
        browser crashed."""
        if self._tab is None or self._tab.page.closed:
            self._tab = Tab(self.phone.chromium.page(DESIGN_DP * self.phone.window.scale))
        return self._tab

    def open(self, address: str) -> None:
        """Load ``address`` in the tab: a path or ``file:`` URL on the phone's storage becomes the file in the
        phone's private root; an address without a scheme gets ``https://``."""
        address = address.strip()
        parsed = urlparse(address)
        if address.startswith("/") or parsed.scheme == "file":
            path = normalize(unquote(parsed.path if parsed.scheme else address))
            url = self.phone.fs.host_path(path).as_uri()
        elif parsed.scheme in _LOADED_AS_GIVEN:
            url = address
        else:
            url = "https://" + address
        self.tab().page.goto(url)
        self.phone.invalidate()

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """``VIEW`` of web and local pages (the manifest's ``http``/``https``/``file``/``content`` and
        ``text/html`` filters)."""
        if intent.action == ACTION_VIEW and (intent.mime_type in ("text/html", "application/xhtml+xml")
                                             or intent.data.startswith(("http:", "https:", "file:"))):
            return MainScreen
        return super().resolve(intent)

    def on_force_stop(self) -> None:
        """The process dies, and Chrome's tab and profile with it (the phone's browser context: the tab's history, the
        pages' timers, cookies, storage and cache, ``Chromium.clear``): it starts again as on a phone that never ran it,
        its tab opened on the new-tab page when it next shows one. ``pm clear`` stops it first, which leaves it so.

        Real Chrome keeps its profile in its data folder and, started after a kill, restores its tabs and their
        history from the state it saved there. This one keeps them in Chromium's memory, never in the phone's files:
        what it would find again is what a rewound phone (whose files, Chrome's data among them, are put back) or
        ``pm clear`` leaves, nothing; so a reset's stopped Chrome is a fresh env's. AndroidWorld's Chrome tasks clear
        Chrome before and after each episode, so none counts on what it keeps."""
        self._tab = None
        self.phone.chromium.clear()
