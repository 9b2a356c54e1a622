"""Pieces of Simple Mobile Tools' shared library, Simple-Commons, that several simulated apps use (Simple SMS
Messenger, Simple Calendar Pro, Simple Gallery Pro, Simple Draw Pro): ``MySearchMenu``
(``views/MySearchMenu.kt``, ``layout/menu_search.xml``), ``String.isAValidFilename`` (``extensions/String.kt``),
and the dialogs their ``MainActivity`` may open with at start: ``RateStarsDialog`` and ``WhatsNewDialog``.
"""

from __future__ import annotations

from dataclasses import dataclass

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import ActivityDialog, Screen
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import alert_dialog
from android_gym.sim.ui.views import (
    DIVIDER,
    FIELD_LABEL,
    FIELD_STROKE,
    LAYOUT_ONLY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Color,
    View,
    column,
    over,
    row,
    text_view,
)
from android_gym.sim.ui.views import PRIMARY as MATERIAL_PRIMARY

#: Simple-Commons ``res/values/colors.xml``: ``color_primary`` #F57C00 (``color_accent`` is the same): the colour the
#: apps store where they keep one (the default event type's, the brush's) and their launcher icons' orange.
COLOR_PRIMARY: Color = (0xF5, 0x7C, 0x00)
#: ``getProperPrimaryColor``, which their FABs, highlights and links use: on Android 12+ the apps follow the system
#: theme by default (``BaseConfig.isUsingSystemTheme`` defaults to ``isSPlus()``), so it is ``you_primary_color``,
#: ``system_accent1_400`` by day and by night (``values-v31``, ``values-night-v31``): tone 60 of the phone's accent
#: palette, the Pixel's default blue the system UI draws in (``looks.MATERIAL_YOU_NIGHT``), not ``color_primary``.
PRIMARY: Color = (0x4C, 0x8D, 0xF6)
#: ``MySearchMenu.updateColors``: its holder filled with the primary colour at ``LOWER_ALPHA`` (0.25) over the window.
SEARCH_BACKGROUND: Color = over(PRIMARY, 0.25)
#: ``getColoredMaterialStatusBarColor``, a toolbar's and the status bar's colour over a screen without a scrolling
#: list (``setupToolbar``): the system theme's ``you_status_bar_color``, ``system_accent1_50`` (tone 95); what goes on
#: it in ``getContrastColor``'s ``DARK_GREY``.
TOP_BAR: Color = (0xEC, 0xF3, 0xFE)
#: ``you_contextual_status_bar_color`` by night, ``system_accent1_700`` (tone 30), where ``PRIMARY`` keeps the day's.
_CONTEXTUAL_BAR_NIGHT: Color = (0x08, 0x42, 0xA0)


def contextual_bar_color(night: bool) -> Color:
    """The background of an action mode's bar (``AppTheme.ActionMode``): ``you_contextual_status_bar_color``,
    ``system_accent1_400`` (``PRIMARY``, the FABs' colour) by day and ``system_accent1_700`` by night; a screen gives
    it its night colour itself, as the night palette keeps ``PRIMARY``. White goes on it (``getContrastColor``)."""
    return _CONTEXTUAL_BAR_NIGHT if night else PRIMARY
DARK_GREY: Color = (0x33, 0x33, 0x33)
#: ``activated_item_foreground`` (#44888888) over the window: a selected item's overlay, a received message's bubble.
_ACTIVATED, _ACTIVATED_ALPHA = (0x88, 0x88, 0x88), 0x44 / 255
ACTIVATED_ITEM: Color = over(_ACTIVATED, _ACTIVATED_ALPHA)
#: ``getProperTextColor`` in the system theme: ``you_neutral_text_color``, ``system_accent1_900`` (tone 10 of the
#: phone's accent) by day and ``system_accent1_10`` (tone 99) by night, for the text and the icons the apps tint with
#: it, not Material's near-black (and light grey by night).
TEXT_COLOR, NIGHT_TEXT_COLOR = (0x04, 0x1E, 0x49), (0xFA, 0xFB, 0xFF)
#: The alphas at which the apps draw text in their text colour made translucent (``android:alpha`` in a layout,
#: ``View.setAlpha``, ``adjustAlpha``): ``LOWER_ALPHA``, 0.4, ``MEDIUM_ALPHA``, 0.6, 0.7 and 0.8.
FADED_ALPHAS = (0.25, 0.4, 0.5, 0.6, 0.7, 0.8)
MEDIUM_ALPHA = 0.5


def faded(alpha: float) -> Color:
    """``getProperTextColor`` at ``alpha`` (one of ``FADED_ALPHAS``) over the window by day; ``NIGHT_COLORS`` gives
    its night colour, over the dark window."""
    return over(TEXT_COLOR, alpha)


#: ``MyAppCompatCheckbox.setColors``' tint of an unchecked box: the text colour at 0.6 (over the window; its night
#: colour in ``NIGHT_COLORS``), where Material's ``?colorControlNormal`` is the secondary grey.
UNCHECKED: Color = faded(0.6)
#: The apps' colours by day: their text colour for Material's, the same at ``MEDIUM_ALPHA`` for Material's secondary
#: grey (the apps tint their faint text with their text colour: ``MyEditText``'s hint is it at ``MEDIUM_ALPHA``), and
#: their primary colour for Material's in the toolkit's widgets, which Simple-Commons tints with it
#: (``setupDialogStuff``'s dialog buttons, ``MyEditText``, ``MyCompatRadioButton``, ``MyAppCompatCheckbox``:
#: ``setColors(textColor, getProperPrimaryColor(), ...)``); ``MyTextInputLayout`` tints an outlined field's outline
#: and label with the hint colour.
DAY_COLORS: dict[Color, Color] = {TEXT: TEXT_COLOR, MATERIAL_PRIMARY: PRIMARY,
                                  **dict.fromkeys((TEXT_SECONDARY, FIELD_STROKE, FIELD_LABEL), faded(MEDIUM_ALPHA))}
#: Their dialogs' surface: ``getAlertDialogBuilder`` gives a ``MaterialAlertDialogBuilder`` in the system theme, on
#: ``ThemeOverlay.App.MaterialAlertDialog``'s ``colorSurface``, ``you_dialog_background_color``: ``system_accent2_50``
#: by day (tone 95 of the accent's hue at chroma 16, as ``TOP_BAR``'s night colour is its tone 20) and
#: ``system_accent2_800`` by night (``values-v31``, ``values-night-v31``), not the window's white.
DIALOG_BACKGROUND: Color = (237, 240, 255)
#: The apps' colours in the dark theme: the system theme's ``you_background_color`` and text colours have
#: ``values-night`` variants (Material You's dark surfaces: ``system_neutral1_900``, the phone's neutral 10, the same
#: as the system's own night background), and so the faded text (over the dark window; Material's secondary grey as
#: by day, which makes the fields' hints and the renderer's faint ink the text colour at ``MEDIUM_ALPHA`` too); the
#: primary colour is the same; the search bar is it at low alpha over the dark window; a top bar is
#: ``system_accent2_800`` (tone 20 of the accent's hue at chroma 16, Android 13's ``TONAL_SPOT`` accent2), with white
#: on it.
NIGHT_COLORS: dict[Color, Color] = {**MATERIAL_YOU_NIGHT, TEXT: NIGHT_TEXT_COLOR, MATERIAL_PRIMARY: PRIMARY,
                                    **{faded(alpha): over(NIGHT_TEXT_COLOR, alpha, MATERIAL_YOU_NIGHT[WHITE])
                                       for alpha in FADED_ALPHAS},
                                    **dict.fromkeys((TEXT_SECONDARY, FIELD_STROKE, FIELD_LABEL),
                                                    over(NIGHT_TEXT_COLOR, MEDIUM_ALPHA, MATERIAL_YOU_NIGHT[WHITE])),
                                    SEARCH_BACKGROUND: over(PRIMARY, 0.25, MATERIAL_YOU_NIGHT[WHITE]),
                                    TOP_BAR: (40, 48, 65), DIALOG_BACKGROUND: (40, 48, 65), DARK_GREY: WHITE,
                                    ACTIVATED_ITEM: over(_ACTIVATED, _ACTIVATED_ALPHA, MATERIAL_YOU_NIGHT[WHITE])}
#: ``BaseSimpleActivity.onResume``: ``updateNavigationBarColor(getProperBackgroundColor())``, the navigation bar in
#: the window's background colour (its buttons dark over it: ``SYSTEM_UI_FLAG_LIGHT_NAVIGATION_BAR``).
NAVIGATION_BAR_COLOR: Color = WHITE


def my_edit_text(field: View, focused: bool) -> View:
    """A ``MyEditText`` (``field``, ``focused`` or not): ``setColors`` puts a colour filter of the primary colour on
    its background, so its underline is the primary colour with or without the focus, where the toolkit draws
    Material's grey line when it has none; the field over its line, a grouping the dump leaves out."""
    field.underline = False
    line = View(class_name=LAYOUT_ONLY, height=4 if focused else 2, background=PRIMARY, gravity="bottom", margin=12)
    return View(kind="frame", class_name=LAYOUT_ONLY, children=[field, line])


def valid_name(name: str) -> bool:
    """``String.isAValidFilename``: none of ``/\\n\\r\\t\\0\\f`?*\\<>|":``, and not "." or ".."."""
    return bool(name) and name not in (".", "..") and not any(char in name for char in '/\n\r\t\0\f`?*\\<>|":')


class SearchMenuScreen(Screen):
    """A screen with a ``MySearchMenu``: its field's text, and whether search is open (the field has focus)."""

    SEARCH_KEY = "top_toolbar_search"
    search_text = ""

    @property
    def search_open(self) -> bool:
        """``MySearchMenu.isSearchOpen``: the search field has focus."""
        return self.focus_key == self.SEARCH_KEY

    def set_search(self, text: str) -> None:
        """The search field's text changed."""
        self.search_text = text

    def close_search(self) -> None:
        """``closeSearch``: the text is cleared and the keyboard goes."""
        self.search_text, self.focus_key, self.keyboard_shown = "", "", False


#: ``BaseConfig.getDefaultDateFormat``: the date format chosen for the locale's SHORT date pattern (lower-cased,
#: without spaces); any other pattern gets ``DATE_FORMAT_ONE``.
_DATE_FORMATS = {"d.m.y": "dd.MM.yyyy", "dd/mm/y": "dd/MM/yyyy", "mm/dd/y": "MM/dd/yyyy", "y-mm-dd": "yyyy-MM-dd",
                 "dmmmmy": "d MMMM yyyy", "mmmmdy": "MMMM d yyyy", "mm-dd-y": "MM-dd-yyyy", "dd-mm-y": "dd-MM-yyyy"}


def default_date_format(tag: str) -> str:
    """``BaseConfig.dateFormat`` by default in the locale ``tag``: "dd.MM.yyyy" for en-US ("M/d/yy" matches no
    choice) and de-DE, "dd/MM/yyyy" for fr-FR ("dd/MM/y")."""
    return _DATE_FORMATS.get(formats.date_pattern("short", tag).lower().replace(" ", ""), "dd.MM.yyyy")


#: ``menu_search.xml``: ``top_app_bar_layout`` is ``?actionBarSize`` (56 dp) tall with ``activity_margin`` (16 dp)
#: at its sides, and ``top_toolbar_holder`` has ``medium_margin`` (8 dp) above and below it: 40 dp tall.
_SEARCH_BAR_HEIGHT, _SEARCH_SIDE_MARGIN, _SEARCH_HOLDER_HEIGHT = 147, 42, 105


def search_menu(package: str, icon: View, field: View, items: list[View]) -> View:
    """``menu_search.xml``: ``top_app_bar_layout`` holding ``top_toolbar_holder`` with the search (or back-arrow)
    ``icon``, the search ``field`` and the ``top_toolbar`` with the screen's menu ``items``. The holder's
    ``search_menu_background`` is rounded by ``material_dialog_corner_radius`` (28 dp, more than half its height:
    a pill) and the field has no background of its own (``android:background="@null"``: no underline).

    Simplified: the bar's side margins are its holder's, so the bar's node spans the screen's width."""
    def rid(name: str) -> str:
        return f"{package}:id/{name}"

    field.underline = False
    for view in (icon, field):  # android:layout_height="match_parent"
        view.height, view.gravity = None, "fill"
    toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=rid("top_toolbar"), children=items)
    holder = View(kind="row", class_name="android.widget.RelativeLayout", resource_id=rid("top_toolbar_holder"),
                  background=SEARCH_BACKGROUND, corner=_SEARCH_HOLDER_HEIGHT // 2, height=_SEARCH_HOLDER_HEIGHT,
                  gravity="center", margin=_SEARCH_SIDE_MARGIN, children=[icon, field, toolbar])
    return View(kind="frame", class_name="android.widget.LinearLayout", resource_id=rid("top_app_bar_layout"),
                height=_SEARCH_BAR_HEIGHT, children=[holder])


# ----- start-up dialogs: RateStarsDialog (Activity.appLaunched) and WhatsNewDialog (checkWhatsNew) -----------------
# Simple-Commons at b72ded2a75 (the SMS Messenger 5.19.3 build's; the other apps' pins have the same logic):
# helpers/Constants.kt (PREFS_KEY "Prefs", APP_RUN_COUNT "app_run_count", LAST_VERSION "last_version",
# WAS_APP_RATED "was_app_rated"), extensions/Activity.kt (appLaunched, checkWhatsNew, setupDialogStuff),
# dialogs/RateStarsDialog.kt, dialogs/WhatsNewDialog.kt, layout/dialog_rate_stars.xml, layout/dialog_whats_new.xml
# and res/values/strings.xml.
APP_RUN_COUNT, WAS_APP_RATED, LAST_VERSION = "app_run_count", "was_app_rated", "last_version"
RATE_EVERY = 40  # appLaunched: appRunCount % 40 == 0 && !wasAppRated
RATE_OUR_APP, LATER = "Rate our app please :)", "Later"
WHATS_NEW, OK = "What's new", "OK"
WHATS_NEW_DISCLAIMER = "* only the bigger updates are listed here, there are always some smaller improvements too"
_STAR_SIZE = 134  # @dimen/normal_icon_size 48dp at 420 dpi (less @dimen/tiny_margin around it)


@dataclass(frozen=True)
class Release:
    """``models/Release``: an app version code and the text (``release_<id>`` string) of what it brought."""

    id: int
    text: str


def app_launched(screen: Screen, prefs: SharedPreferences) -> None:
    """``Activity.appLaunched`` as the Google Play build runs it: one more run counted, and at every 40th run
    of an app not rated yet, the ``RateStarsDialog``.

    Not as the real apps: the F-Droid builds AndroidWorld installs set ``hide_google_relations`` (their
    ``src/fdroid/res/values/bools.xml``) and never show it; and the simulator stores the count only when the dialog
    shows, so that launching the app never brings it by itself (an ``app_run_count`` of 39, written while the app
    is stopped, does)."""
    count = prefs.get(APP_RUN_COUNT, 0) + 1
    if count % RATE_EVERY or prefs.get(WAS_APP_RATED, False):
        return
    prefs.apply({APP_RUN_COUNT: ("int", count)})

    def rated() -> None:
        """A star tapped (``dialogCancelled(true)``): rated, never asked again (five stars also open the app's store
        page, which the simulated phone does not have)."""
        screen.dismiss(dialog)
        prefs.apply({WAS_APP_RATED: ("boolean", True)})

    def rid(name: str) -> str:
        return f"{screen.app.package}:id/{name}"

    def panel() -> View:
        stars = [View(kind="icon", class_name="android.widget.ImageView", hint="star",
                      resource_id=rid(f"rate_star_{n}"),
                      clickable=True, on_click=rated, width=_STAR_SIZE, height=_STAR_SIZE,
                      text_color=PRIMARY) for n in range(1, 6)]
        text = text_view(RATE_OUR_APP, resource_id=rid("rate_stars_text"), text_size=50)  # center_horizontal
        body = column(row(View(weight=1), text, View(weight=1)),
                      row(View(weight=1), *stars, View(weight=1), resource_id=rid("rate_stars_holder"), padding=42),
                      resource_id=rid("dialog_holder"), padding=42)
        return alert_dialog([body], [("button2", LATER, lambda: screen.dismiss(dialog))], background=DIALOG_BACKGROUND)

    dialog = ActivityDialog(panel, cancelable=False)  # setupDialogStuff(cancelOnTouchOutside = false)
    screen.dialog_windows.append(dialog)


def check_whats_new(screen: Screen, prefs: SharedPreferences, releases: tuple[Release, ...]) -> None:
    """``checkWhatsNew``: the releases newer than the stored ``last_version`` in a ``WhatsNewDialog``, then the
    installed version (the app's ``version_code``) stored. Simplified: a fresh install (no ``last_version``)
    stores nothing (the real app stores its version; either way nothing shows)."""
    last = prefs.get(LAST_VERSION, 0)
    news = [release for release in releases if release.id > last]
    if last == 0 or not news:
        return
    prefs.apply({LAST_VERSION: ("int", screen.app.version_code or 0)})
    lines = "".join(f"- {part.strip()}\n" for release in news for part in release.text.split("\n"))

    def rid(name: str) -> str:
        return f"{screen.app.package}:id/{name}"

    def panel() -> View:
        body = column(text_view(lines.rstrip("\n"), resource_id=rid("whats_new_content"), text_size=42),
                      View(height=3, background=DIVIDER),
                      text_view(WHATS_NEW_DISCLAIMER, resource_id=rid("whats_new_disclaimer"), text_size=36,
                                text_color=TEXT_SECONDARY),
                      resource_id=rid("whats_new_holder"), padding=42, spacing=21)
        return alert_dialog([body], [("button1", OK, lambda: screen.dismiss(dialog))], title=WHATS_NEW,
                            package=screen.app.package, background=DIALOG_BACKGROUND)

    dialog = ActivityDialog(panel, cancelable=False)  # setupDialogStuff(cancelOnTouchOutside = false)
    screen.dialog_windows.append(dialog)


def start_up_dialogs(screen: Screen, prefs: SharedPreferences, releases: tuple[Release, ...]) -> None:
    """What a Simple app's ``MainActivity.onCreate`` opens with: ``appLaunched`` (maybe the rating dialog), then its
    ``checkWhatsNewDialog`` (maybe "What's new", over it)."""
    app_launched(screen, prefs)
    check_whats_new(screen, prefs, releases)
