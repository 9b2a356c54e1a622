"""The window manager: status bar, the foreground activity's window, the soft keyboard, the navigation bar and
the notification shade.

It builds and lays out every window once per change of state, hands the same trees to the renderer and the
uiautomator dump, and routes touches and keys: the shade (when pulled down) first, then the keyboard, the
navigation bar and the app. A drag starting on a SeekBar moves it; one starting on a drawing surface draws on it;
a drag down from the status bar pulls the shade down and a drag up on it (or BACK/HOME) closes it; other drags
scroll the list under their start.
Apps are laid out in design pixels (of a 420 dpi screen) at the display's design size (``framework.display``: 1080 px
wide, 411 dp, unless ``wm size``/``wm density`` override the screen); the screen is drawn natively at its density
(``ui.render``), and the dump, the accessibility windows and touches map design pixels to screen pixels by the same
factor. Editing text fields,
text selection and the floating text-selection toolbar (which is put into the app window's tree) are in
``text_editor`` (the rules) and ``ui.selection`` (geometry and views).

Part of the app framework (``sim/framework``): it builds the front ``Screen``'s views with the toolkit
(``sim/ui``) and draws the system UI around them.

With animations on, a change of the foreground activity starts a transition: the incoming window slides in from
the right over a dark backdrop, one frame per look at the screen (dump or screenshot), for ``TRANSITION_FRAMES``
frames times the ``transition_animation_scale`` setting. Input goes to the windows' final places (the animation
moves the window's surface, not its frame).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import numpy as np
from PIL import Image

from android_gym.locales import FRAMEWORK_PACKAGE
from android_gym.sim import keycodes
from android_gym.sim.framework import systemui
from android_gym.sim.framework.app import Context, Screen
from android_gym.sim.framework.display import Display
from android_gym.sim.framework.locale import SystemLocale
from android_gym.sim.framework.looks import KEYBOARD_NIGHT, SYSTEM_NIGHT, Looks, recolor, retint, scale_text
from android_gym.sim.framework.notifications import NotificationManager
from android_gym.sim.framework.power_warnings import PowerWarnings
from android_gym.sim.framework.text_editor import TextEditor
from android_gym.sim.system.clock import UNREAD
from android_gym.sim.ui import hierarchy
from android_gym.sim.ui.dialogs import dialog_over
from android_gym.sim.ui.laid_out import Kept, LaidOutTrees, Shaped, made_once
from android_gym.sim.ui.layout import layout, measure_height
from android_gym.sim.ui.render import Renderer, dimmed, signature
from android_gym.sim.ui.rgba import RgbaFrames
from android_gym.sim.ui.views import (
    TEXT,
    WHITE,
    Color,
    View,
    button,
    column,
    copied,
    does_nothing,
    frame,
    over,
    row,
    text_view,
)

STATUS_BAR_HEIGHT = 118  # Pixel 6: 24 dp + display cutout at 420 dpi
NAV_BAR_HEIGHT = 126  # 48 dp at 420 dpi (three-button navigation)
# Gesture navigation (frameworks/base packages/overlays/NavigationBarModeGesturalOverlay): navigation_bar_height
# 16 dp, navigation_bar_frame_height 48 dp (the bottom area a swipe up from goes home), config_backGestureInset
# 30 dp (the side edges a swipe inwards from goes back).
GESTURE_NAV_BAR_HEIGHT, GESTURE_AREA_HEIGHT, BACK_GESTURE_INSET = 42, 126, 79
# SystemUI's NavigationHandle: navigation_home_handle_width 108 dp, 2 * navigation_handle_radius (2 dp) tall, its
# colours navigation_bar_home_handle_dark_color #99000000 / _light_color #EBFFFFFF over the bar.
_HANDLE_WIDTH, _HANDLE_HEIGHT = 284, 10
_EDGE_SWIPE_MIN = 42  # navigation_edge_action_drag_threshold: 16 dp a back swipe must travel
KEYBOARD_HEIGHT = 760
_KEY_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")
_KEYBOARD_BG = (232, 234, 237)
_KEY_FUNCTION_BG = (214, 218, 224)
# LatinIME's key_styles_common.xml: the shift, delete and enter keys are icons (!icon/shift_key, delete_key,
# enter_key), and the space bar has no label (the language shows on it only beside another enabled subtype,
# LanguageOnSpacebarUtils); TalkBack reads the keys by strings-talkback-descriptions.xml's spoken_description_shift,
# _delete, _return and _space.
_SHIFT, _DELETE, _RETURN, _SPACE = "Shift", "Delete", "Return", "Space"
_KEY_ICONS = {_SHIFT: "shift", _DELETE: "backspace", _RETURN: "enter"}
_KEY_HEIGHT = 136  # in a 150 px row: the gap between rows
_NAV_BG = (243, 243, 243)
_NAV_INK = (66, 66, 66)
_HANDLE_DARK, _HANDLE_LIGHT = ((0, 0, 0), 0.6), (WHITE, 0.92)  # #99000000 and #EBFFFFFF: colour and opacity
LONG_PRESS_MS = 500  # ViewConfiguration.getLongPressTimeout()
TRANSITION_FRAMES = 4  # frames of an activity transition at animation scale 1.0
# Settings.Global.TRANSITION_ANIMATION_SCALE scales activity transitions; WindowManagerService.fixScale bounds
# it to [0, 20] (AOSP frameworks/base commit 43ca1914b234).
TRANSITION_SCALE_SETTING = "transition_animation_scale"
MAX_ANIMATION_SCALE = 20.0
_BACKDROP = (0, 0, 0)  # what a sliding window uncovers
_HEADS_UP_MARGIN = 21  # notification_side_paddings / heads_up_status_bar_padding: 8 dp
_STATUS_BARS_KEPT = 16  # laid-out status bars kept (each a colour, clock minute, icons and language)
_NAV_BARS_KEPT = 8  # laid-out navigation bars kept (each a colour, the keyboard up or not, looks)
_APP_TREES_KEPT = 64  # laid-out app windows kept by shape (in random walks half the trees built are one of them),
_NEW_APP_TREES_KEPT = 8  # of which laid out once (``LaidOutTrees``: many a walk builds once, a form with a text typed)
_GONE_APP_TREES = 256  # the shapes remembered after they went: a tree built again within 256 new ones is kept longer
# ... within 3 MB (``Shaped.nbytes``): 64 trees took 4.3 MB in SendSms's random walks, 5.4 MB in a Markor task's, and
# growing as the trees built again filled; calls per step over 1,200 random-valid steps, 3 MB against no bound:
# SendSms +2 %, ExpenseDeleteMultiple2 +2 %, MarkorEditNote +1.6 % (+6 %, +4 %, +2.6 % at 2 MB)
_APP_TREES_BYTES = 3 << 20
_STAMPS_KEPT = 16  # laid-out app windows kept by what their screens tell they show (``Screen.shown``)
_LISTS_AND_FIELD = "lists and field"  # what ``_lists_and_field`` found in a kept tree (``Kept.made``)
_TOP_COLOR = "top colour"  # what ``_top_color`` found in a kept tree over a ground (``Kept.made``)
_C, _V, _X = (keycodes.KEYCODES[name] for name in "CVX")
T = TypeVar("T")


@dataclass
class Frame:
    """Laid-out windows of one state of the screen (design coordinates)."""

    status_bar: View
    app: View
    keyboard: View | None
    nav_bar: View
    shade: View | None = None
    #: The app window's theme colours for the toolkit's (``Screen.colors``): its dark theme's by night, its own by day.
    colors: Mapping[Color, Color] | None = None
    kept: Kept | None = None  # the app's kept laid-out tree, when its window holds nothing else (``dumped``)

    def windows(self) -> Iterator[View]:
        """Windows from top of the z-order (first to receive touches) to bottom."""
        if self.shade is not None:
            yield self.shade
        if self.keyboard is not None:
            yield self.keyboard
        yield self.nav_bar
        yield self.status_bar
        yield self.app


@dataclass(frozen=True)
class ScreenWindow:
    """A window on screen as accessibility services see it (``AccessibilityWindowInfo``): its laid-out root view in
    screen pixels, the package that owns it, its type (``application``, ``input_method`` or ``system``), title,
    z-order layer and whether it has input focus."""

    root: View
    package: str
    kind: str
    title: str
    layer: int
    focused: bool = False


#: The keyboard's package (the emulator image's Gboard).
IME_PACKAGE = "com.google.android.inputmethod.latin"
_BATTERY_LEVEL = "Battery {} percent."  # SystemUI accessibility_battery_level: the status bar's battery icon


class WindowManager:
    """Builds frames from the phone's state and dispatches input to them."""

    def __init__(self, phone: Context, width: int, height: int, animations: bool = False) -> None:
        self._phone = phone
        self.animations = animations
        self._shown: Screen | None = None  # the foreground activity of the last frame built
        self._transition_frames = 0  # length of the running activity transition
        self._transition_left = 0  # its frames not shown yet
        self._frame: Frame | None = None
        self._per_state: dict[Hashable, Any] = {}  # what ``per_state`` made since the last invalidate
        self._status_bars: dict[tuple, View] = {}  # the laid-out status bars by what they show (``_status_bar``)
        self._navs: dict[tuple, View] = {}  # the laid-out navigation bars by what they show (``_build``)
        # the apps' laid-out trees by shape (``_build``)
        self._app_trees = LaidOutTrees(_APP_TREES_KEPT, _NEW_APP_TREES_KEPT, _GONE_APP_TREES, _APP_TREES_BYTES)
        # the laid-out trees of screens that tell what they show, by ``_stamp``, with the build giving their callbacks
        self._stamped: OrderedDict[Hashable, tuple[Kept, Shaped]] = OrderedDict()
        self._ime: tuple[tuple, View] | None = None  # what the keyboard was built for, and its laid-out views
        self._frame_time = 0
        self._frame_time_unit = UNREAD  # the finest unit of time the frame shows
        self._frame_expires = UNREAD  # the device time a message the frame shows goes (VirtualClock.before)
        # The current frame's uiautomator dump, screen pixels and RGBA bytes, made on the first look at each.
        self._dump: tuple[str, list[hierarchy.Node], str] | None = None  # ``dumped``
        self._pixels: np.ndarray | None = None
        self._rgba: memoryview | None = None
        self._rgba_frames = RgbaFrames()
        self._shift = False
        self.locale = SystemLocale()
        self.notifications = NotificationManager(phone.clock, self.invalidate, self.locale)
        self.power_warnings = PowerWarnings(phone.battery, self.notifications, phone.settings, systemui.PACKAGE,
                                            self.locale)
        self.shade = systemui.NotificationShade(phone, self.notifications)
        phone.battery.listen(lambda state: self.invalidate())  # the status bar's battery icon
        self._editor = TextEditor(phone, self._focused_field)
        self._text_toolbar: View | None = None  # the floating text-selection toolbar of the current frame
        self._touched: tuple[Frame, tuple[float, float], list[View]] | None = None  # ``_touchable_at``'s last answer
        self._focused_screen: Screen | None = None
        self._reveal_focus = False  # a field took focus: its list scrolls it into view at the next frame
        # TextView.onKeyShortcut: Ctrl+A/C/X/V.
        self._shortcuts = {keycodes.A: self._editor.select_all, _C: self._editor.copy, _X: self._editor.cut,
                           _V: self._editor.paste}
        self.set_display(Display(width, height))

    def set_display(self, display: Display) -> None:
        """Show the screen on ``display`` (a new size or density: ``wm size``, ``wm density``) from the next frame:
        apps are laid out again at its design size and drawn at its scale."""
        self.display = display
        self.width, self.height = display.size
        self.density = display.density  # DisplayMetrics.densityDpi
        self.scale = display.scale
        self.design_width, self.design_height = display.design_size
        self._renderer: Renderer | None = None  # made at the first look at the pixels (a frame costs ms)
        self._ime = None
        self._navs = {}
        self._status_bars = {}
        self._app_trees.clear()
        self._stamped.clear()
        self.invalidate()

    @property
    def looks(self) -> Looks:
        """The font scale, dark theme and navigation mode the settings hold now."""
        return Looks.of(self._phone.settings)

    @property
    def nav_bar_height(self) -> int:
        """Height of the navigation bar in design px: 48 dp with three buttons, 16 dp with gestures."""
        return _nav_bar_height(self.looks)

    @property
    def rotation(self) -> int:
        """The display's rotation (``Surface.ROTATION_0`` … ``ROTATION_270`` as 0–3): ``user_rotation`` while
        auto-rotate (``accelerometer_rotation``) is off, as ``DisplayRotation.rotationForOrientation`` takes it,
        else what the sensor proposes, which is upright on a phone nobody turns."""
        settings = self._phone.settings
        if settings.get("system", "accelerometer_rotation") == "1":
            return 0
        value = settings.get("system", "user_rotation") or "0"
        return int(value) % 4 if value.lstrip("-").isdigit() else 0

    # ----- frames -------------------------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Drop the cached frame (and its dump and pixels) and what ``per_state`` made: state changed."""
        self._frame = None
        self.drop_reports()

    def drop_reports(self) -> None:
        """Drop what ``per_state`` made (the windows and tasks changed) but keep the frame: what it shows did not."""
        if self._per_state:
            self._per_state = {}

    def set_locale(self, tag: str) -> None:
        """The framework (re)started in the locale ``tag``: the system bars and every window show its strings."""
        self.locale.tag = tag
        self._ime = None
        self._navs = {}
        self._status_bars = {}
        self._app_trees.clear()
        self._stamped.clear()
        self.invalidate()

    def per_state(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, made once per state of the phone (until the next ``invalidate``): for what the shell reports
        of the windows and tasks (``dumpsys window`` is asked after every step and changes only with the state)."""
        if key not in self._per_state:
            self._per_state[key] = make()
        return self._per_state[key]

    def frame(self) -> Frame:
        """The current laid-out frame, built once per state: again after ``invalidate``, when the status-bar
        clock's minute turns, at every change of device time while the frame shows the time (a running
        stopwatch, timer or recording read the clock while they were built), and when a message it shows times out
        (``VirtualClock.before``)."""
        clock = self._phone.clock
        now = clock.record_ms()
        unit = self._frame_time_unit
        if self._frame is None or now // unit != self._frame_time // unit or now >= self._frame_expires:
            clock.finest_read = clock.expires = UNREAD
            self._frame = self._build()
            self._frame_time, self._frame_time_unit, self._frame_expires = now, clock.finest_read, clock.expires
            self._dump = self._pixels = self._rgba = None
        return self._frame

    def _build(self) -> Frame:
        self._track_focus()
        screen = self._phone.activities.top
        if self.animations and self._shown is not None and self._shown is not screen:
            self._transition_frames = self._transition_left = self._transition_length()
        self._shown = screen
        keyboard_shown = bool(screen.focus_key) and screen.keyboard_shown
        looks = self.looks
        bottom = self.design_height - _nav_bar_height(looks)
        content_bottom = bottom - (KEYBOARD_HEIGHT if keyboard_shown else 0)

        width = self.design_width
        shown = self._shown_value(screen)
        stamp = None if shown is None else self._stamp(screen, shown, looks, content_bottom)
        known = self._stamped.get(stamp) if stamp is not None else None
        if known is not None and self._reveal_focus and not _focus_outside_lists(known[0]):
            known = None  # a field to scroll into view: the tree as built is measured
        if known is not None:  # the screen shows what it showed: its tree then, not built again
            self._stamped.move_to_end(stamp)
            kept, built = known
            kept.behave_as(built)
            content, unlaid, reveal = kept.root, None, False
        else:
            content = self._content(screen, looks)
            # The tree as built, for a list to measure the rows layout leaves out (a field to reveal, a position
            # asked); a focused field in no list has nothing to scroll it into view
            reveal = self._reveal_focus and _list_holds_focus(content)
            unlaid = copied(content) if reveal or screen.scroll_requests else None
            built = Shaped(content, width, content_bottom)
            kept = self._app_trees.get(built)
            if kept is not None:  # laid out before: the same bounds
                content = kept.root
        window = frame(content, resource_id="android:id/content")
        decor = frame(window, bounds=(0, 0, width, self.design_height))  # the full-screen DecorView
        if kept is None:
            layout(window, 0, STATUS_BAR_HEIGHT, width, content_bottom - STATUS_BAR_HEIGHT, built)
            kept = self._app_trees.keep(built, content)
        else:  # as ``layout`` places the window; the content in it is laid out
            window.bounds = (0, STATUS_BAR_HEIGHT, width, content_bottom)
        colors = screen.colors(looks.night)
        # The lists' positions kept and the focused field: found once per laid-out tree (a kept one is unchanged)
        positions, field = made_once(kept, _LISTS_AND_FIELD, lambda: _lists_and_field(content))
        scroll = screen.scroll
        scroll.update(positions)
        if shown is not None and known is None and kept is not None:  # kept by its lists' positions as laid out
            if len(self._stamped) >= _STAMPS_KEPT:
                self._stamped.popitem(last=False)
            self._stamped[self._stamp(screen, shown, looks, content_bottom)] = kept, built
        if unlaid is not None:
            for view in unlaid.walk():  # at the positions the layout kept, as ``_content`` would build it now
                if view.kind == "list":
                    view.scroll_offset = scroll.get(view.key, 0)
        if self._reveal_focus:  # it may lay out a row of its tree: a copy of it when a position is asked too
            self._reveal_focus = False
            if reveal and self._scroll_focus_into_view(screen, content,
                                                       copied(unlaid) if screen.scroll_requests else unlaid):
                return self._build()
        if screen.scroll_requests and self._scroll_to_positions(screen, content, unlaid):
            return self._build()
        self._add_text_toolbar(screen, field, window)
        self._add_heads_up(window)
        ground = colors.get(WHITE, WHITE) if colors else WHITE
        top, dims = made_once(kept, (_TOP_COLOR, ground), lambda: _top_color(content, width // 2, ground))
        status = self._status_bar(_status_color(top, dims, _themed(screen.status_bar_color, screen, looks)))
        keyboard = None
        if keyboard_shown:
            shown = (self._shift, looks, self.locale.tag, content_bottom, width)
            if self._ime is None or self._ime[0] != shown:  # it changes only with these
                keyboard = self._keyboard()
                self.locale.translate(keyboard, IME_PACKAGE)
                if looks.night:  # Gboard follows the system theme
                    recolor(keyboard, KEYBOARD_NIGHT)
                layout(keyboard, 0, content_bottom, width, KEYBOARD_HEIGHT)
                self._ime = shown, keyboard
            keyboard = self._ime[1]
        nav_color = self._nav_color(screen, looks, keyboard is not None)
        shown_nav = looks, nav_color, keyboard is not None
        nav = self._navs.get(shown_nav)
        if nav is None:  # it changes only with these (and the language); the last few are kept (apps' colours differ)
            if len(self._navs) >= _NAV_BARS_KEPT:
                self._navs.clear()
            nav = self._navs[shown_nav] = self._nav_bar(looks.gestural, nav_color or _NAV_BG, keyboard is not None)
            self.locale.translate(nav, systemui.PACKAGE)
            if looks.night and nav_color is None:
                recolor(nav, SYSTEM_NIGHT)
            layout(nav, 0, bottom, width, self.design_height - bottom)
        shade = self.shade.window()
        if shade is not None:
            self._lay_out_shade(shade, looks)
        return Frame(status, decor, keyboard, nav, shade, colors, kept if len(window.children) == 1 else None)

    def _lay_out_shade(self, shade: View, looks: Looks) -> None:
        """Put a window of the notification shade into the system language, ``looks``' font scale and theme, and lay
        it out over the screen above the navigation bar."""
        self.locale.translate(shade, systemui.PACKAGE)
        scale_text(shade, looks.font_scale)
        if looks.night:
            recolor(shade, SYSTEM_NIGHT)
        layout(shade, 0, 0, self.design_width, self.design_height - _nav_bar_height(looks))

    def shade_snapshot(self, panel: View) -> tuple[str, Callable[[], Image.Image]]:
        """The notification shade's ``panel`` as it would show now on its own: what a dialog the shade opens (the
        Internet dialog) dims under it. A key naming its pixels (``View.key``: equal keys, equal pixels), and its
        picture at the screen's scale, drawn when it is called."""
        looks = self.looks
        self._lay_out_shade(panel, looks)
        ground = SYSTEM_NIGHT[WHITE] if looks.night else WHITE
        palettes = {"shade": SYSTEM_NIGHT if looks.night else {}}

        def picture() -> Image.Image:
            renderer = Renderer(self.width, round(panel.bounds[3] * self.scale), self.scale)
            return Image.fromarray(renderer.render({"shade": (panel, ground)}, palettes))

        return f"shade:{hash((signature(panel), looks.night))}", picture

    def _shown_value(self, screen: Screen) -> Hashable | None:
        """What ``screen`` tells it shows (``Screen.shown``); ``None`` when it does not tell, or shows a dialog window
        or a text selection, or the window has a list position to set at this frame."""
        if screen.dialog_windows or screen.selection is not None or screen.scroll_requests:
            return None
        return screen.shown()

    def _stamp(self, screen: Screen, shown: Hashable, looks: Looks, content_bottom: int) -> Hashable:
        """Everything ``screen``'s laid-out tree is made from when it shows ``shown``: the screen, what it shows, the
        looks, the language, its focus, keyboard and list positions, and the window's size."""
        return (screen, shown, looks, self.locale.tag, screen.focus_key, screen.keyboard_shown,
                tuple(screen.scroll.items()), self.design_width, content_bottom)

    def _content(self, screen: Screen, looks: Looks) -> View:
        """A fresh view tree of ``screen`` (its dialog windows over it, in the system language and ``looks``' font
        scale and theme) with its focus, selection and list positions, to lay out."""
        content = screen.build()
        for dialog in screen.dialog_windows:  # each dialog window over the activity and the dialogs before it
            content = dialog_over(content, dialog.panel(), None)
        self.locale.translate(content, screen.app.package)
        content.gravity = "fill"  # the activity's root view is match_parent in its window
        scale_text(content, looks.font_scale)
        colors = screen.colors(looks.night)
        if colors:  # a dark theme turns the surfaces dark; a theme by day gives the toolkit's text its own colour
            (recolor if looks.night else retint)(content, colors)
        focus_key, scroll = screen.focus_key, screen.scroll
        stack = [content]  # every view (in any order: each is set on its own), without a generator's cost per view
        while stack:
            view = stack.pop()
            if view.on_text is not None:  # editable
                view.focused = view.key == focus_key
                view.selection = self._editor.span(screen, view) if view.focused else None
            elif view.kind == "list":
                view.scroll_offset = scroll.get(view.key, 0)
            if view.children:
                stack += view.children
        return content

    def snapshot(self, screen: Screen) -> tuple[str, Color, Callable[[], Image.Image]]:
        """What ``screen``'s window shows now, on its own without the system bars and the keyboard: what a
        translucent activity over it (the share sheet) lets through, the paused activity below drawing as it does.
        A key naming its pixels (``View.key``: equal keys, equal pixels), the colour at the window's top (what the
        status bar takes over it, before ``_status_color``), and its picture at the screen's scale, drawn when it is
        called."""
        looks = self.looks
        content = self._content(screen, looks)
        bottom = self.design_height - _nav_bar_height(looks)
        layout(content, 0, STATUS_BAR_HEIGHT, self.design_width, bottom - STATUS_BAR_HEIGHT)
        palette = screen.colors(looks.night) or {}
        ground = palette.get(WHITE, WHITE)

        def picture() -> Image.Image:
            renderer = Renderer(self.width, round(bottom * self.scale), self.scale)  # down to the window's end
            pixels = renderer.render({"app": (content, ground)}, {"app": palette})
            return Image.fromarray(pixels[renderer.px(STATUS_BAR_HEIGHT):])

        key = f"snapshot:{hash((signature(content), tuple(palette.items()), ground))}"
        return key, _top_color(content, self.design_width // 2, ground)[0], picture

    def _scroll_focus_into_view(self, screen: Screen, content: View, unlaid: View) -> bool:
        """``ScrollView.scrollToChild`` as a list does it for a field that took focus, once the keyboard resized
        the window: scroll as little as puts the field's row (the field, in a row taller than the list) wholly
        inside the list. ``content`` is laid out (the lists' sizes); the rows are measured in ``unlaid``, the same
        tree before layout (a row taller than the list is laid out in it), as layout keeps only the rows a list
        shows. Whether a list moved (its position is in ``screen.scroll``)."""
        laid_out = {view.key: view for view in content.walk() if view.kind == "list" and view.key}
        moved = False
        for view in unlaid.walk():
            shown = laid_out.get(view.key) if view.kind == "list" else None
            rows = view.children if shown is not None else []
            index = next((i for i, row_view in enumerate(rows) if any(v.focused for v in row_view.walk())), None)
            if shown is None or index is None:
                continue
            x1, y1, x2, y2 = shown.bounds
            width, height = x2 - x1 - 2 * shown.padding, y2 - y1 - 2 * shown.padding
            heights = [measure_height(row_view, width) for row_view in rows[:index + 1]]
            top, extent = sum(heights[:index]) + view.spacing * index, heights[index]
            if extent > height:  # where the field lies in its row, laid out on its own
                layout(rows[index], 0, 0, width, extent)
                field = next(v for v in rows[index].walk() if v.focused)
                top, extent = top + field.bounds[1], field.bounds[3] - field.bounds[1]
            offset = min(max(shown.scroll_offset, top + extent - height), top)
            if extent <= height and offset != shown.scroll_offset:
                screen.scroll[view.key], moved = offset, True
        return moved

    def _scroll_to_positions(self, screen: Screen, content: View, unlaid: View) -> bool:
        """Scroll each list ``screen`` asked for (``Screen.scroll_to_position``) so that its item lies the asked px
        below its top; the items are measured in ``unlaid``, the tree before layout, at the width ``content`` gave
        the list (layout keeps only the items a list shows). Whether a list moved (its position is in
        ``screen.scroll``)."""
        requests, screen.scroll_requests = screen.scroll_requests, {}
        laid_out = {view.key: view for view in content.walk() if view.kind == "list" and view.key in requests}
        moved = False
        for view in unlaid.walk():
            shown = laid_out.get(view.key) if view.kind == "list" else None
            if shown is None:
                continue
            index, offset = requests[view.key]
            width = shown.bounds[2] - shown.bounds[0] - 2 * shown.padding
            top = sum(measure_height(item, width) for item in view.children[:index]) + view.spacing * index
            if max(0, top - offset) != shown.scroll_offset:
                screen.scroll[view.key], moved = max(0, top - offset), True
        return moved

    def _add_text_toolbar(self, screen: Screen, field: View | None, window: View) -> None:
        """Lay the focused ``field``'s floating toolbar (if open) over the app window, as its last child."""
        self._text_toolbar = None if field is None else self._editor.toolbar(screen, field, window.bounds)
        if self._text_toolbar is not None:
            self.locale.translate(self._text_toolbar, FRAMEWORK_PACKAGE)  # the platform's floating toolbar
            window.children.append(self._text_toolbar)

    def _add_heads_up(self, window: View) -> None:
        """Lay the heads-up notification (if one peeks and the shade is closed) over the top of the app window, as
        its last child: it takes the touches it covers, and the app is drawn again when it goes."""
        notification = None if self.shade.expanded else self.notifications.heads_up()
        if notification is None:
            return
        card = self.notifications.row_view(notification, heads_up=True)
        self.locale.translate(card, systemui.PACKAGE)  # SystemUI draws it, over the app's window
        width = self.design_width - 2 * _HEADS_UP_MARGIN
        layout(card, _HEADS_UP_MARGIN, STATUS_BAR_HEIGHT + _HEADS_UP_MARGIN, width, measure_height(card, width))
        window.children.append(card)

    def _track_focus(self) -> None:
        """Window focus moved to another activity: tell the text editor about the one that lost it."""
        top = self._phone.activities.top
        if self._focused_screen is not None and self._focused_screen is not top:
            self._editor.focus_lost(self._focused_screen)
        self._focused_screen = top

    def _transition_length(self) -> int:
        """Frames of an activity transition under the current ``transition_animation_scale`` (a value that is no
        number reads as 1.0, as ``Settings.Global.getFloat`` with WindowManagerService's default does)."""
        try:
            scale = float(self._phone.settings.get("global", TRANSITION_SCALE_SETTING) or "1.0")
        except ValueError:
            scale = 1.0
        scale = min(scale, MAX_ANIMATION_SCALE) if scale > 0 else 0.0  # fixScale; NaN counts as 0
        return math.ceil(TRANSITION_FRAMES * scale)

    def _next_slide(self) -> int:
        """How far right (design px) the app window is drawn in this look at the screen; each look shows the next
        frame of a running transition, 0 when none runs."""
        if not self._transition_left:
            return 0
        slide = round(self.design_width * self._transition_left / (self._transition_frames + 1))
        self._transition_left -= 1
        return slide

    def _status_bar(self, color: Color) -> View:
        """SystemUI's status bar in ``color`` (the app's colour under it), laid out: the clock at the start;
        Bluetooth, airplane mode or Wi-Fi, the cellular signal and the battery at the end, in dark icons over a light
        colour and light ones over a dark colour (``APPEARANCE_LIGHT_STATUS_BARS``). Built once for what it shows
        (the last few kept: the colour changes from app to app)."""
        settings = self._phone.settings
        names = []
        if settings.get("global", "bluetooth_on") == "1":
            names.append(("bt", "Bluetooth on"))
        if settings.get("global", "airplane_mode_on") == "1":
            names.append(("airplane", "Airplane mode"))
        elif settings.get("global", "wifi_on") in ("1", "2"):
            names.append(("wifi", "Wifi signal full."))
        level = self._phone.battery.state.level
        battery = "battery_full" if level > 80 else "battery_half" if level > 20 else "battery_low"
        names += [("signal", "Phone signal full."),
                  (battery, self.locale.string(_BATTERY_LEVEL, systemui.PACKAGE).format(level))]
        notes = tuple((n.icon, self.notifications.description(n)) for n in self.notifications.active)
        shown = (color, tuple(names), systemui.clock_text(self._phone), notes, self.locale.tag)
        bar = self._status_bars.get(shown)
        if bar is None:
            if len(self._status_bars) >= _STATUS_BARS_KEPT:
                self._status_bars.clear()
            bar = self._status_bars[shown] = self._status_bar_view(*shown)
        return bar

    def _status_bar_view(self, color: Color, names: tuple[tuple[str, str], ...], time: str,
                         notes: tuple[tuple[str, str], ...], language: str) -> View:
        """The status bar's views for ``_status_bar`` in ``language``, laid out: the clock, the notification icons
        (``notes``), then the system icons."""
        ink = TEXT if _luminance(color) > 140 else WHITE

        def icon_view(icon: str, desc: str, width: int) -> View:
            return View(kind="icon", class_name="android.widget.ImageView", hint=icon, content_desc=desc,
                        width=width, height=48, text_color=ink)

        clock = text_view(time, text_size=40, padding=0, text_color=ink, bold=True,
                          resource_id="com.android.systemui:id/clock")
        status = row(View(width=40), clock, *[icon_view(icon, desc, 48) for icon, desc in notes], View(weight=1),
                     *[icon_view(icon, desc, 54) for icon, desc in names], View(width=40), background=color,
                     spacing=6)
        self.locale.translate(status, systemui.PACKAGE)
        layout(status, 0, 0, self.design_width, STATUS_BAR_HEIGHT)
        return status

    def _nav_color(self, screen: Screen, looks: Looks, keyboard_shown: bool) -> Color | None:
        """What shows behind the navigation bar: the keyboard's background while it is up (the IME window goes on
        behind the bar), else the colour the activity gives it (``Screen.navigation_bar_color``, in its dark theme's
        colours by night); ``None``, the system's own bar, under the notification shade."""
        if self.shade.expanded:
            return None
        if keyboard_shown:
            return KEYBOARD_NIGHT[_KEYBOARD_BG] if looks.night else _KEYBOARD_BG
        return _themed(screen.navigation_bar_color, screen, looks)

    def _nav_bar(self, gestural: bool, background: Color, ime_shown: bool = False) -> View:
        """SystemUI's navigation bar on ``background``: Back, Home and Overview buttons, or with gestures only the home
        handle, dark over a light colour and light over a dark one (``APPEARANCE_LIGHT_NAVIGATION_BARS``). While the
        keyboard is up, Back is drawn as the arrow that hides it (``ic_sysbar_back_ime``)."""
        light = _luminance(background) > 140
        if gestural:
            handle = View(class_name="android.view.View", resource_id=f"{systemui.PACKAGE}:id/home_handle",
                          content_desc="Home", width=_HANDLE_WIDTH, height=_HANDLE_HEIGHT, gravity="center",
                          background=over(*_HANDLE_DARK, background) if light else over(*_HANDLE_LIGHT, background),
                          corner=_HANDLE_HEIGHT // 2)
            return frame(handle, background=background)

        def key(code: int):
            return lambda: self.key(code)

        def nav_button(description: str, icon: str, on_click) -> View:
            return View(kind="icon", class_name="android.widget.ImageView", content_desc=description, hint=icon,
                        clickable=True, focusable=True, on_click=on_click, width=200, height=NAV_BAR_HEIGHT,
                        text_color=_NAV_INK if light else SYSTEM_NIGHT[_NAV_INK])

        return row(
            View(weight=1), nav_button("Back", "nav_back_ime" if ime_shown else "nav_back", key(keycodes.BACK)),
            View(width=80),
            nav_button("Home", "nav_home", key(keycodes.HOME)), View(width=80),
            nav_button("Overview", "nav_recents", does_nothing), View(weight=1), background=background)

    def _keyboard(self) -> View:
        def typer(char: str):
            def type_char() -> None:
                self.type_text(char.upper() if self._shift else char)
                self._shift = False
            return type_char

        def key_button(label: str, action, width: int | None = None, weight: float = 1.0,
                       description: str = "") -> View:
            """A key showing ``label`` and described by ``description`` (its label unless told), or a function key
            whose icon ``label`` names."""
            if label in _KEY_ICONS:
                return View(kind="icon", class_name="android.widget.Button", content_desc=label,
                            hint=_KEY_ICONS[label], clickable=True, focusable=True, on_click=action, width=width,
                            height=_KEY_HEIGHT, background=_KEY_FUNCTION_BG, corner=18, text_color=TEXT)
            return button(label, action, width=width, weight=0 if width else weight, height=_KEY_HEIGHT, padding=0,
                          background=WHITE, text_color=TEXT, text_size=44, content_desc=description or label)

        def toggle_shift() -> None:
            self._shift = not self._shift
            self.invalidate()

        rows = [row(*[key_button(c.upper() if self._shift and c.isalpha() else c, typer(c)) for c in keys],
                    spacing=12, height=150) for keys in _KEY_ROWS]
        rows[3].children.insert(0, key_button(_SHIFT, toggle_shift, width=140))
        rows[3].children.append(key_button(_DELETE, lambda: self.key(keycodes.DEL), width=140))
        space = key_button("", typer(" "), weight=1, description=_SPACE)
        rows.append(row(key_button(",", typer(","), width=110), key_button("@", typer("@"), width=110),
                        key_button("+", typer("+"), width=110), space, key_button(".", typer("."), width=110),
                        key_button(_RETURN, lambda: self.key(keycodes.ENTER), width=180), spacing=12, height=150))
        return column(*rows, padding=12, spacing=0, background=_KEYBOARD_BG)

    # ----- output ------------------------------------------------------------------------------------------
    def _draw(self, f: Frame, slide: int) -> tuple[np.ndarray, bool]:
        """Draw frame ``f``: its pixels (read-only: the renderer's frame, or a fresh array), and whether a running
        transition moved the app window ``slide`` design px right (then they are not the renderer's frame)."""
        app_colors = f.colors or {}
        windows = {"status": (f.status_bar, WHITE), "app": (f.app.children[0], app_colors.get(WHITE, WHITE)),
                   "nav": (f.nav_bar, f.nav_bar.background or _NAV_BG)}
        palettes = {"app": app_colors}
        if f.keyboard is not None:
            windows["keyboard"] = (f.keyboard, f.keyboard.background or _KEYBOARD_BG)
        if f.shade is not None:  # it covers everything but the navigation bar
            night = self.looks.night
            windows = {"shade": (f.shade, SYSTEM_NIGHT[WHITE] if night else WHITE), "nav": windows["nav"]}
            palettes = {"shade": SYSTEM_NIGHT if night else {}}
        if self._renderer is None:
            self._renderer = Renderer(self.width, self.height, self.scale)
        renderer = self._renderer
        pixels = renderer.render(windows, palettes, {"app": f.kept} if f.kept is not None and f.shade is None else {})
        if slide and f.shade is None:
            return _slid(pixels, tuple(map(renderer.px, f.app.children[0].bounds)), renderer.px(slide)), True
        return pixels, False

    def screenshot(self) -> np.ndarray:
        """The screen as an ``(H, W, 3)`` uint8 array, read-only: an unchanged screen is neither drawn nor copied
        again, it is the same array as last time (one that never changes: copy it to draw on it)."""
        f = self.frame()
        slide = self._next_slide()
        if slide or self._pixels is None:
            pixels, slid = self._draw(f, slide)
            if slid:
                return pixels
            self._pixels = pixels
        return self._pixels

    def screenshot_again(self) -> np.ndarray | None:
        """The screen ``screenshot`` gave last, again in memory nothing else holds, given from now on
        (``Renderer.twin``), or None when that screen is no longer the renderer's frame."""
        if self._pixels is None or self._renderer is None:
            return None
        twin = self._renderer.twin(self._pixels)
        if twin is not None:
            self._pixels = twin
        return twin

    def screenshot_rgba(self) -> memoryview:
        """The screen as RGBA8888 bytes, rows from the top, opaque (the emulator's gRPC ``RGBA8888`` image), read-only
        and unchanged for as long as it is held (``RgbaFrames``)."""
        f = self.frame()
        slide = self._next_slide()
        if slide or self._rgba is None:
            pixels, slid = self._draw(f, slide)
            rgba = self._rgba_frames.widened(pixels, None if slid else self._renderer)
            if slid:
                return rgba
            self._rgba = rgba
        return self._rgba

    def ui_dump(self) -> str:
        """The uiautomator XML of the active window, in screen coordinates: the notification shade while it is
        pulled down (uiautomator dumps the active window), else the foreground activity's window."""
        return self.dumped()[0]

    def dumped(self) -> tuple[str, list[hierarchy.Node], str]:
        """``ui_dump``'s XML with the nodes it writes (views in screen coordinates, ``hierarchy.written``) and the
        package the window belongs to: one look at the screen."""
        f = self.frame()
        slide = self._next_slide()
        if slide or self._dump is None:
            window, package = (f.app, self._phone.activities.top.app.package) if f.shade is None else (
                f.shade, systemui.PACKAGE)
            if slide and f.shade is None:
                window = _shifted(window, slide, self.design_width)
            # a kept app tree is dumped once per package and screen (its window laid out as the first time)
            made = f.kept.made if f.kept is not None and f.shade is None and not slide else {}
            shown = package, self.design_height, self.scale, self.width, self.height
            dumped = made.get(shown)
            if dumped is None:
                if self.scale != 1:
                    window = _scaled(window, self.scale, self.width, self.height)
                dumped = made[shown] = *hierarchy.written(window, package), package
            if slide:
                return dumped
            self._dump = dumped
        return self._dump

    def screen_windows(self) -> list[ScreenWindow]:
        """The windows on screen, top of the z-order first (``AccessibilityService.getWindows``): the shade or else
        the keyboard, the navigation and status bars, and the foreground activity's window, in screen pixels."""
        f = self.frame()
        top = self._phone.activities.top
        windows = []
        if f.shade is not None:
            windows.append(ScreenWindow(f.shade, systemui.PACKAGE, "system", "Notification Shade", 4, True))
        elif f.keyboard is not None:
            windows.append(ScreenWindow(f.keyboard, IME_PACKAGE, "input_method", "InputMethod", 3))
        windows += [ScreenWindow(f.nav_bar, systemui.PACKAGE, "system", "NavigationBar0", 2),
                    ScreenWindow(f.status_bar, systemui.PACKAGE, "system", "StatusBar", 1)]
        if f.shade is None:
            windows.append(ScreenWindow(f.app, top.app.package, "application", top.activity.rsplit(".", 1)[-1], 0,
                                        True))
        if self.scale == 1:
            return windows
        return [replace(window, root=_scaled(window.root, self.scale, self.width, self.height)) for window in windows]

    # ----- input -------------------------------------------------------------------------------------------
    def _to_design(self, x: float, y: float) -> tuple[float, float]:
        return x / self.scale, y / self.scale

    def _window_at(self, x: float, y: float) -> View | None:
        """The topmost window at ``(x, y)`` (design coords)."""
        return next((window for window in self.frame().windows() if _contains(window.bounds, x, y)), None)

    def _touchable_at(self, x: float, y: float) -> list[View]:
        """The enabled views (not virtual ones) of the topmost window at ``(x, y)`` (design coords) that contain the
        point, in drawing order; found once per frame and point (a drag asks for up to eight kinds of view). As
        ``ViewGroup.dispatchTouchEvent`` hands a touch only to the children that contain it, the children of a view
        that does not are not looked at: a view reaches touches only where it lies inside every view above it, where
        the dump's bounds (cut to the parents') put it."""
        f = self.frame()
        if self._touched is not None and self._touched[0] is f and self._touched[1] == (x, y):
            return self._touched[2]
        window = self._window_at(x, y)
        views = []
        stack = [window] if window is not None else []  # pre-order, without a generator's cost per view
        while stack:
            view = stack.pop()
            x1, y1, x2, y2 = view.bounds  # _contains, inlined
            if x1 <= x < x2 and y1 <= y < y2:
                if view.enabled and not view.virtual:
                    views.append(view)
                if view.children:
                    stack.extend(reversed(view.children))
        self._touched = f, (x, y), views
        return views

    def _hit(self, x: float, y: float, wanted) -> View | None:
        """The topmost enabled view at ``(x, y)`` (design coords) for which ``wanted(view)`` holds."""
        return next((view for view in reversed(self._touchable_at(x, y)) if wanted(view)), None)

    def _drag_target(self, x: float, y: float, wanted) -> View | None:
        """The view ``_hit`` finds for ``wanted``, unless a view that takes touches and lies outside it is on top at
        ``(x, y)`` (a dialog's scrim, a FAB): Android gives the drag to the top-most view, so nothing under it
        moves."""
        found = self._hit(x, y, wanted)
        top = self._hit(x, y, _takes_touches)
        if found is None or top is None or any(view is top for view in found.walk()):
            return found
        return None

    def tap(self, x: float, y: float) -> None:
        """A short touch at screen coordinates; in the app window but off the text-selection toolbar it closes the
        toolbar (touches on the keyboard or the system bars do not reach the app). A click on a view whose callback
        is ``does_nothing`` changes nothing, nor one on the field that has the focus (``_has_focus``): the frame
        stays."""
        x, y = self._to_design(x, y)
        target = self._hit(x, y, lambda v: v.clickable or v.editable or v.on_seek is not None or v.on_drag is not None)
        on_toolbar = self._text_toolbar is not None and any(v is target for v in self._text_toolbar.walk())
        if self._window_at(x, y) is self.frame().app and not on_toolbar and self._editor.end_action_mode():
            self.invalidate()
        if target is None:
            return
        if target.on_seek is not None:
            target.on_seek(_seek_fraction(target, x))
            self.invalidate()
        if target.on_drag is not None:  # a touch that does not move: a dot on a canvas
            target.on_drag(*_local(target, x, y), *_local(target, x, y))
            self.invalidate()
        if target.editable and not self._has_focus(target):
            screen = self._phone.activities.top
            screen.focus_key = target.key
            screen.keyboard_shown = True
            self._reveal_focus = True
            screen.selection = None  # the caret goes to the end of the text
            self.invalidate()
        if target.on_click is not None:
            target.on_click()
            if target.on_click is not does_nothing:
                self.invalidate()

    def _has_focus(self, field: View) -> bool:
        """Whether ``field`` has the focus with the keyboard up and the caret at its end, outside every list: a tap
        on it changes nothing (it is focused, the keyboard shown, the caret put at the end, and no list scrolls it into
        view), so the frame stays. Told from the frame the tap found it in, while nothing invalidated it."""
        screen, shown = self._phone.activities.top, self._frame
        return (screen.focus_key == field.key and screen.keyboard_shown and screen.selection is None
                and shown is not None and shown.kept is not None and _focus_outside_lists(shown.kept))

    def long_press(self, x: float, y: float) -> None:
        """A touch held for at least the long-press timeout; on a text field it starts text selection."""
        x, y = self._to_design(x, y)
        target = self._hit(x, y, lambda v: v.long_clickable or v.clickable)
        if target is not None and target.editable:
            self._editor.long_press(target, x, y)
            self.invalidate()
        elif target is not None and target.on_long_click is not None:
            target.on_long_click()
            if target.on_long_click is not does_nothing:
                self.invalidate()
        elif target is not None:
            self.tap(x * self.scale, y * self.scale)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int) -> None:
        """A drag, or a long press/tap if it does not move. A mostly horizontal drag that starts on a SeekBar
        moves it to where the finger ends (``AbsSeekBar`` tracks the finger even off the bar), one that starts
        on a view with ``on_fling`` (a pager, a swipeable row) goes to it; one in any direction that starts on a
        drawing surface (``on_drag``) goes to it in its own coordinates (the end may lie outside it: the view that
        took the touch keeps the finger); one down from the status bar pulls the shade down, one up on the shade
        closes it; others scroll the list under the start point (a list at the end it is dragged towards stays as it
        is, and the screen is not built again). With gesture navigation a swipe up from the bottom
        edge goes home and one inwards from a side edge goes back, before any view sees it."""
        if abs(x2 - x1) < 10 and abs(y2 - y1) < 10:
            if duration_ms >= LONG_PRESS_MS:
                self.long_press(x1, y1)
            else:
                self.tap(x1, y1)
            return
        (sx, sy), (ex, ey) = self._to_design(x1, y1), self._to_design(x2, y2)
        gesture = self._navigation_gesture(sx, sy, ex, ey)
        if gesture is not None:
            self.key(gesture)
            return
        seek_bar = self._drag_target(sx, sy, lambda v: v.on_seek is not None)
        flung = self._drag_target(sx, sy, lambda v: v.on_fling is not None)
        canvas = self._drag_target(sx, sy, lambda v: v.on_drag is not None)
        window = self._window_at(sx, sy)
        horizontal = abs(ex - sx) >= abs(ey - sy)
        if seek_bar is not None and seek_bar.on_seek is not None and horizontal:
            seek_bar.on_seek(_seek_fraction(seek_bar, ex))
        elif flung is not None and flung.on_fling is not None and horizontal:
            flung.on_fling("right" if ex > sx else "left")
        elif canvas is not None and canvas.on_drag is not None:
            canvas.on_drag(*_local(canvas, sx, sy), *_local(canvas, ex, ey))
        elif window is not None and window is self.frame().shade and sy - ey > abs(ex - sx):
            self.shade.collapse()
        elif window is not None and window is self.frame().status_bar and ey - sy > abs(ex - sx):
            self.shade.expand()
        else:
            target = self._drag_target(sx, sy, lambda v: v.scrollable and v.kind == "list")
            if target is None:
                return
            screen = self._phone.activities.top
            shown = screen.scroll.get(target.key, 0)
            offset = max(0, shown + round(sy - ey))
            if shown == target.scroll_offset and min(offset, target.scroll_max) == shown:
                return  # at the end it was dragged towards: the list does not move, nothing is built again
            screen.scroll[target.key] = offset
        self.invalidate()

    def _navigation_gesture(self, sx: float, sy: float, ex: float, ey: float) -> int | None:
        """The key a drag from ``(sx, sy)`` to ``(ex, ey)`` (design px) stands for in gesture navigation: HOME for a
        swipe up that starts in the bottom gesture area (SystemUI's home gesture), BACK for one inwards from within
        the back-gesture inset of a side edge (``EdgeBackGestureHandler``); ``None`` for any other drag, or with
        three-button navigation."""
        if not self.looks.gestural:
            return None
        dx, dy = ex - sx, ey - sy
        if sy >= self.design_height - GESTURE_AREA_HEIGHT and -dy > abs(dx):
            return keycodes.HOME
        inwards = dx if sx < BACK_GESTURE_INSET else -dx if sx >= self.design_width - BACK_GESTURE_INSET else 0
        if inwards >= _EDGE_SWIPE_MIN and inwards > abs(dy):
            return keycodes.BACK
        return None

    def _focused_field(self) -> View | None:
        screen = self._phone.activities.top
        if not screen.focus_key:
            return None
        return next((v for v in self.frame().app.walk() if v.editable and v.key == screen.focus_key), None)

    def type_text(self, text: str) -> None:
        """Commit ``text`` into the focused field over its selection (dropped when nothing has focus, as on
        Android)."""
        self._editor.type(text)
        self.invalidate()

    def key(self, code: int, meta: frozenset[int] = frozenset()) -> None:
        """A key press: HOME, BACK, ENTER, DEL, Ctrl+A/C/X/V, or a character key typed into the focused field. A key
        that changes nothing (HOME on the home screen, BACK on the launcher, ENTER with nothing to submit) leaves
        the frame as it was."""
        self._track_focus()
        activities = self._phone.activities
        screen = activities.top
        changed = True
        if code == keycodes.HOME:
            if self.shade.expanded:
                self.shade.collapse()
            changed = screen.keyboard_shown or not activities.at_home()
            screen.keyboard_shown = False
            if changed:
                activities.home()
        elif code == keycodes.BACK and self.shade.expanded:
            self.shade.back()
        elif code == keycodes.BACK and self._editor.end_action_mode():
            pass  # TextView.onKeyPreIme: an open text-selection toolbar takes BACK before the keyboard does
        elif code == keycodes.BACK:
            if screen.focus_key and screen.keyboard_shown:
                screen.keyboard_shown = False
            else:
                changed = activities.back()
        elif keycodes.CTRL_LEFT in meta and code in self._shortcuts:
            self._shortcuts[code]()
        elif code == keycodes.DEL:
            self._editor.delete()
        elif code == keycodes.ENTER:
            field = self._focused_field()
            if field is not None and field.multiline:
                self.type_text("\n")
            elif field is not None and field.on_submit is not None:
                focused = screen.focus_key
                field.on_submit()
                if screen.focus_key != focused:  # View.requestFocus: the list scrolls to the field
                    self._reveal_focus = True
            else:
                changed = False
        elif code in keycodes.CHARS:
            self.type_text(keycodes.CHARS[code].upper() if keycodes.SHIFT_LEFT in meta else keycodes.CHARS[code])
        if changed:
            self.invalidate()


def _lists_and_field(content: View) -> tuple[dict[str, int], View | None]:
    """The positions of the laid-out tree ``content``'s lists by key, and its focused text field (if any)."""
    positions: dict[str, int] = {}
    field = None
    for view in content.walk():
        if view.kind == "list":
            positions[view.key] = view.scroll_offset
        if field is None and view.focused and view.on_text is not None:  # the focused editable
            field = view
    return positions, field


def _focus_outside_lists(kept: Kept) -> bool:
    """Whether the laid-out tree ``kept`` shows its focused field outside every list: a field taking focus there
    scrolls nothing into view (``_scroll_focus_into_view``)."""
    field = made_once(kept, _LISTS_AND_FIELD, lambda: _lists_and_field(kept.root))[1]
    return field is not None and not _list_holds_focus(kept.root)


def _list_holds_focus(content: View) -> bool:
    """Whether a list of ``content`` (a tree as built) holds a focused view: a field ``_scroll_focus_into_view`` may
    scroll to (it scrolls nothing else)."""
    stack = [content]
    while stack:
        view = stack.pop()
        if view.kind == "list":  # the lists inside it hold no focus unless it does
            if any(inner.focused for inner in view.walk()):
                return True
        elif view.children:
            stack += view.children
    return False


def _luminance(color: Color) -> float:
    """Perceived brightness of ``color``, 0..255 (ITU-R BT.601 weights)."""
    r, g, b = color
    return 0.299 * r + 0.587 * g + 0.114 * b


def _nav_bar_height(looks: Looks) -> int:
    """The navigation bar's height in design px under ``looks``."""
    return GESTURE_NAV_BAR_HEIGHT if looks.gestural else NAV_BAR_HEIGHT


def _top_color(view: View, x: int, color: Color, dims: int = 0) -> tuple[Color, int]:
    """The background of the top-most view drawn at ``x`` on the top edge of the app window in the laid-out tree
    ``view`` (``color``, the window's own, where none is), and how many scrims lie over it: the dim of a dialog or a
    sheet goes on under the status bar. Only views that hold the point are visited (a view lies in its parent)."""
    if view.background is not None:
        color, dims = view.background, 0
    elif view.kind == "scrim":
        dims += 1
    for child in view.children:
        if _contains(child.bounds, x, STATUS_BAR_HEIGHT):
            color, dims = _top_color(child, x, color, dims)
    return color, dims


def _status_color(color: Color, dims: int = 0, themed: Color | None = None) -> Color:
    """The colour the status bar takes over an activity whose window shows ``color`` at its top centre under
    ``dims`` scrims (``_top_color``): the one its theme gives (``themed``, ``App.status_bar_color``), or else as apps
    colour the bar like their app bar (``statusBarColor``), a saturated colour a shade darker, as
    ``colorPrimaryDark`` is to ``colorPrimary``; then dimmed as the window is."""
    if themed is not None:
        color = themed
    elif max(color) - min(color) > 60:  # saturated: a brand colour, not a surface
        color = (color[0] * 17 // 20, color[1] * 17 // 20, color[2] * 17 // 20)
    for _ in range(dims):
        color = dimmed(color)
    return color


def _themed(color: Color | None, screen: Screen, looks: Looks) -> Color | None:
    """``color``, one of the colours ``screen``'s theme gives a system bar, as ``looks`` shows it: its
    ``values-night`` one by night."""
    night_colors = screen.night_colors
    return night_colors.get(color, color) if color is not None and looks.night and night_colors else color


def _contains(bounds: tuple[int, int, int, int], x: float, y: float) -> bool:
    x1, y1, x2, y2 = bounds
    return x1 <= x < x2 and y1 <= y < y2


def _takes_touches(view: View) -> bool:
    """Whether a view consumes touches that land on it (clicks, typing, scrolling, seeking, flinging or drawing)."""
    return (view.clickable or view.editable or view.scrollable or view.on_seek is not None
            or view.on_fling is not None or view.on_drag is not None)


def _local(view: View, x: float, y: float) -> tuple[float, float]:
    """Design coordinates relative to the view's top left corner (above its bounds when a list cuts it)."""
    x1, y1, _, _ = view.whole or view.bounds
    return x - x1, y - y1


def _seek_fraction(seek_bar: View, x: float) -> float:
    """``AbsSeekBar.trackTouchEvent``: where ``x`` falls on the track between the paddings, clamped to 0..1."""
    x1, _, x2, _ = seek_bar.bounds
    available = x2 - x1 - 2 * seek_bar.padding
    return min(max((x - x1 - seek_bar.padding) / available, 0.0), 1.0) if available > 0 else 0.0


def _shifted(view: View, dx: int, right: int) -> View:
    """A copy of a laid-out tree moved ``dx`` design px right, bounds cut at the screen's right edge ``right``
    (uiautomator reports visible bounds and leaves out nodes with none; a cut view's ``whole`` moved, not cut)."""
    x1, y1, x2, y2 = view.bounds
    whole = None if view.whole is None else (view.whole[0] + dx, view.whole[1], view.whole[2] + dx, view.whole[3])
    copy = view.with_bounds((min(x1 + dx, right), y1, min(x2 + dx, right), y2), whole)
    copy.children = [_shifted(child, dx, right) for child in view.children]
    return copy


def _slid(pixels: np.ndarray, bounds: tuple[int, int, int, int], dx: int) -> np.ndarray:
    """A read-only copy of ``pixels`` with the window at ``bounds`` moved ``dx`` px right over the backdrop."""
    x1, y1, x2, y2 = bounds
    out = pixels.copy()
    out[y1:y2, x1:x1 + dx] = np.full((dx, 3), _BACKDROP, np.uint8)  # a row broadcast: a colour is filled pixel by pixel
    out[y1:y2, x1 + dx:x2] = pixels[y1:y2, x1:x2 - dx]
    out.flags.writeable = False
    return out


def _scaled(view: View, scale: float, width: int, height: int) -> View:
    """A copy of a laid-out tree with bounds in screen pixels (the renderer's ``px``: a view's pixels lie inside
    them), cut at the ``width`` x ``height`` screen's edges (a cut view's ``whole`` scaled too, not cut): node by
    node with ``View.with_bounds``, as a small screen copies the tree at every new frame."""
    x1, y1, x2, y2 = view.bounds
    whole = view.whole  # a view a list cuts: where all of it lies, in screen pixels too
    copy = view.with_bounds(
        (round(x1 * scale), round(y1 * scale), min(round(x2 * scale), width), min(round(y2 * scale), height)),
        None if whole is None else tuple(round(edge * scale) for edge in whole))
    copy.children = [_scaled(child, scale, width, height) for child in view.children]
    return copy
