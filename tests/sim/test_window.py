"""The view toolkit and window manager: layout, focus and keyboard, scrolling, BACK/HOME, scaling."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim import keycodes
from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.window import NAV_BAR_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.phone import Phone
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.selection import caret_point
from android_gym.sim.ui.views import (
    View,
    button,
    column,
    edit_text,
    frame,
    scroll_list,
    seek_bar,
    text_view,
    toolbar,
)
from android_gym.ui import parse_ui_dump


class NoteScreen(Screen):
    """A toolkit exercise: a title field, a long list, a save button, and a details screen."""

    activity = "com.example.notes.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.title = ""
        self.saved: list[str] = []

    def build(self) -> View:
        rows = [text_view(f"Row {i}", clickable=True, on_click=lambda i=i: self.saved.append(f"row{i}"))
                for i in range(40)]
        return column(
            toolbar("Notes"),
            edit_text(self.title, "Title", "title", lambda value: setattr(self, "title", value),
                      resource_id="com.example.notes:id/title"),
            button("Save", lambda: self.saved.append(self.title)),
            button("Details", lambda: self.start(DetailScreen)),
            scroll_list(*rows, key="rows", weight=1, resource_id="com.example.notes:id/rows"),
        )


class DetailScreen(Screen):
    activity = "com.example.notes.DetailActivity"

    def build(self) -> View:
        return column(toolbar("Details"), text_view("Nothing here"))


class Notes(App):
    package = "com.example.notes"
    label = "Notes"
    screens = (NoteScreen, DetailScreen)


@pytest.fixture
def phone():
    ph = Phone()
    ph.packages.install(Notes)
    yield ph
    ph.close()


def element(phone, **wanted):
    for e in parse_ui_dump(phone.ui_dump()):
        if all(getattr(e, key) == value for key, value in wanted.items()):
            return e
    raise AssertionError(f"no element {wanted}")


def tap(phone, **wanted):
    phone.tap(*element(phone, **wanted).bbox_pixels.center)


def open_notes(phone):
    tap(phone, text="Notes", class_name="android.widget.TextView")
    assert phone.activities.foreground() == ("com.example.notes", NoteScreen.activity)
    return phone.activities.top


def test_launcher_lists_launchable_apps(phone):
    labels = {e.text for e in parse_ui_dump(phone.ui_dump()) if e.is_clickable}
    assert {"Notes", "SMS Messenger"} <= labels or "Notes" in labels
    assert "com.android.providers.telephony" not in labels


def test_long_press_on_a_launcher_icon_is_consumed_a_tap_opens_the_app(phone):
    icon = element(phone, text="Notes", class_name="android.widget.TextView")
    assert icon.is_long_clickable and icon.is_clickable
    home = phone.activities.foreground()
    phone.long_press(*icon.bbox_pixels.center)
    assert phone.activities.foreground() == home
    phone.swipe(*icon.bbox_pixels.center, *icon.bbox_pixels.center, 1000)  # how `input` long-presses
    assert phone.activities.foreground() == home
    phone.tap(*icon.bbox_pixels.center)
    assert phone.activities.foreground() == ("com.example.notes", NoteScreen.activity)


def test_typing_goes_to_the_focused_field_and_the_keyboard_shows(phone):
    screen = open_notes(phone)
    phone.input_text("ignored")  # nothing focused yet: dropped, as on Android
    assert screen.title == ""
    before = phone.screenshot()
    tap(phone, resource_name="com.example.notes:id/title")
    field = element(phone, resource_name="com.example.notes:id/title")
    assert field.is_focused and field.text == "Title"
    assert field.bbox_pixels.y_max < 2400 - 126 - 700  # the window shrank above the keyboard
    phone.input_text("Groceries")
    assert screen.title == "Groceries"
    assert element(phone, resource_name="com.example.notes:id/title").text == "Groceries"
    assert not np.array_equal(before, phone.screenshot())
    phone.key(keycodes.DEL)
    assert screen.title == "Grocerie"
    phone.key(keycodes.A, frozenset({keycodes.CTRL_LEFT}))
    phone.key(keycodes.DEL)
    assert screen.title == ""


def test_tapping_keyboard_keys_types(phone):
    screen = open_notes(phone)
    tap(phone, resource_name="com.example.notes:id/title")
    frame = phone.window.frame()
    keys = {v.text: v for v in frame.keyboard.walk() if v.kind == "button"}
    for char in "hi":
        x1, y1, x2, y2 = keys[char].bounds
        phone.tap((x1 + x2) / 2, (y1 + y2) / 2)
    assert screen.title == "hi"


def test_back_hides_keyboard_then_closes_activity(phone):
    screen = open_notes(phone)
    tap(phone, text="Details")
    assert phone.activities.foreground()[1] == DetailScreen.activity
    phone.key(keycodes.BACK)
    assert phone.activities.top is screen
    tap(phone, resource_name="com.example.notes:id/title")
    assert phone.window.frame().keyboard is not None
    phone.key(keycodes.BACK)
    assert phone.window.frame().keyboard is None and phone.activities.top is screen
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"


def test_home_keeps_the_task_and_the_launcher_resumes_it(phone):
    open_notes(phone)
    tap(phone, text="Details")
    phone.key(keycodes.HOME)
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"
    tap(phone, text="Notes", class_name="android.widget.TextView")
    assert phone.activities.foreground()[1] == DetailScreen.activity


def test_lists_scroll_and_keep_only_visible_rows(phone):
    screen = open_notes(phone)
    rows = element(phone, resource_name="com.example.notes:id/rows")
    assert rows.is_scrollable
    visible = [e.text for e in parse_ui_dump(phone.ui_dump()) if e.text.startswith("Row ")]
    assert visible[0] == "Row 0" and "Row 39" not in visible
    cx, cy = rows.bbox_pixels.center
    phone.swipe(cx, cy + 400, cx, cy - 400, 300)
    after = [e.text for e in parse_ui_dump(phone.ui_dump()) if e.text.startswith("Row ")]
    assert after[0] != "Row 0"
    for _ in range(10):
        phone.swipe(cx, cy + 400, cx, cy - 400, 300)
    assert [e.text for e in parse_ui_dump(phone.ui_dump()) if e.text.startswith("Row ")][-1] == "Row 39"
    tap(phone, text="Row 39")
    assert screen.saved == ["row39"]


def test_navigation_bar_buttons(phone):
    open_notes(phone)
    tap(phone, text="Details")
    phone.tap(540 - 280, 2400 - 63)  # Back button of the navigation bar
    assert phone.activities.foreground()[1] == NoteScreen.activity
    phone.tap(540, 2400 - 63)  # Home
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"


class OverflowScreen(Screen):
    """A button laid out 400 px tall in a frame 200 px tall, over a text that takes no touch."""

    activity = "com.example.notes.OverflowActivity"
    clicks: list[str] = []

    def build(self) -> View:
        inner = button("Inside", lambda: self.clicks.append("inside"), height=400)
        return column(View(kind="frame", class_name="android.widget.FrameLayout", height=200, children=[inner]),
                      text_view("Below", height=300))


def test_a_view_takes_touches_only_inside_its_parent(phone):
    """``ViewGroup.dispatchTouchEvent`` hands a touch only to the children that contain it: the button takes a tap
    inside its frame, not one below the frame on the part of it that overflows, where the dump does not show it."""
    open_notes(phone).start(OverflowScreen)
    OverflowScreen.clicks = []
    button_node = element(phone, text="Inside")
    assert button_node.bbox_pixels.y_max == STATUS_BAR_HEIGHT + 200  # cut to its frame
    phone.tap(540, STATUS_BAR_HEIGHT + 300)
    assert OverflowScreen.clicks == []
    phone.tap(*button_node.bbox_pixels.center)
    assert OverflowScreen.clicks == ["inside"]


def test_every_input_event_advances_the_virtual_clock(phone):
    start = phone.clock.now_ms()
    phone.tap(10, 1000)
    phone.key(keycodes.HOME)
    assert phone.clock.now_ms() > start


def test_scaled_screen_keeps_dump_and_pixels_consistent():
    phone = Phone(540, 1200)
    try:
        phone.packages.install(Notes)
        assert phone.screenshot().shape == (1200, 540, 3)
        notes = element(phone, text="Notes", class_name="android.widget.TextView")
        assert notes.bbox_pixels.x_max <= 540
        phone.tap(*notes.bbox_pixels.center)
        assert phone.activities.foreground()[0] == "com.example.notes"
    finally:
        phone.close()


def test_long_press_selects_the_word_under_the_finger_on_a_scaled_screen():
    phone = Phone(540, 1200)
    try:
        phone.packages.install(Notes)
        screen = open_notes(phone)
        tap(phone, resource_name="com.example.notes:id/title")
        phone.input_text("hello world")
        field = next(v for v in phone.window.frame().app.walk() if v.key == "title")
        x, y = caret_point(field, 8)  # design point inside "world"
        phone.long_press(x * phone.window.scale, (y + 10) * phone.window.scale)
        assert (screen.selection.start, screen.selection.end) == (6, 11)
        item = element(phone, text="Copy", resource_name="android:id/floating_toolbar_menu_item_text")
        assert item.bbox_pixels.x_max <= 540
        phone.tap(*item.bbox_pixels.center)
        assert phone.clipboard.primary.text == "world" and screen.title == "hello world"
        phone.key(keycodes.KEYCODES["V"], frozenset({keycodes.CTRL_LEFT}))  # pasted at the caret: the end
        assert screen.title == "hello worldworld"
    finally:
        phone.close()


def test_keyboard_pixels_are_redrawn_when_it_comes_back(phone):
    open_notes(phone)
    tap(phone, resource_name="com.example.notes:id/title")
    first = phone.screenshot()
    phone.key(keycodes.BACK)  # hide the keyboard: the app window is drawn over its area
    assert not np.array_equal(first, phone.screenshot())
    tap(phone, resource_name="com.example.notes:id/title")
    assert np.array_equal(first, phone.screenshot())


class SliderScreen(Screen):
    """A SeekBar (0..100, with track padding) above a scrolling list."""

    activity = "com.example.slider.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.level = 50

    def build(self) -> View:
        return column(seek_bar(self.level, 100, lambda level: setattr(self, "level", level), padding=40,
                               resource_id="com.example.slider:id/level"),
                      scroll_list(*[text_view(f"Item {i}") for i in range(40)], key="items", weight=1,
                                  resource_id="com.example.slider:id/items"))


class Slider(App):
    package = "com.example.slider"
    label = "Slider"
    screens = (SliderScreen,)


def test_seek_bar_follows_taps_and_horizontal_drags_and_lists_still_scroll():
    phone = Phone()
    try:
        phone.packages.install(Slider)
        screen = phone.activities.launch(phone.packages.get("com.example.slider"))
        bar = element(phone, resource_name="com.example.slider:id/level")
        assert bar.class_name == "android.widget.SeekBar" and bar.is_focusable and not bar.is_clickable
        x1, x2, y = bar.bbox_pixels.x_min, bar.bbox_pixels.x_max, bar.bbox_pixels.center[1]
        track = x2 - x1 - 80  # AbsSeekBar: the track lies between the paddings
        half = phone.screenshot()
        phone.tap(x1 + 40 + track * 0.25, y)
        assert screen.level == 25
        assert not np.array_equal(half, phone.screenshot())
        phone.swipe(x1 + 40 + track * 0.25, y, x1 + 40 + track * 0.75, y, 300)  # ends inside: proportional
        assert screen.level == 75
        phone.swipe((x1 + x2) / 2, y, x2 - 1, y, 300)  # into the end padding, past the track: the maximum
        assert screen.level == 100
        phone.swipe((x1 + x2) / 2, y, 0, y, 300)
        assert screen.level == 0
        phone.swipe((x1 + x2) / 2, y, (x1 + x2) / 2 + 30, y + 600, 300)  # mostly vertical: not a seek
        assert screen.level == 0
        items = element(phone, resource_name="com.example.slider:id/items").bbox_pixels
        phone.swipe(540, items.center[1] + 300, 540, items.center[1] - 300, 300)
        assert screen.scroll["items"] > 0 and screen.level == 0
        phone.swipe(540, items.center[1], 100, items.center[1], 300)  # horizontal drag on a list: nothing
        assert screen.level == 0
    finally:
        phone.close()


def test_a_drag_down_from_the_status_bar_pulls_the_shade_over_the_app(phone):
    open_notes(phone)
    before = phone.screenshot()
    phone.swipe(540, 50, 540, 1200, 300)
    assert phone.window.frame().shade is not None
    assert [e.package_name for e in parse_ui_dump(phone.ui_dump())][0] == "com.android.systemui"
    assert phone.activities.foreground() == ("com.example.notes", NoteScreen.activity)
    assert not np.array_equal(before, phone.screenshot())
    phone.tap(540, 2400 - 63)  # the navigation bar stays on top: Home
    assert phone.window.frame().shade is None
    assert phone.activities.foreground()[0] == "com.google.android.apps.nexuslauncher"
    tap(phone, text="Notes", class_name="android.widget.TextView")
    assert np.array_equal(before, phone.screenshot())  # the app is drawn again where the shade was


def test_status_bar_clock_follows_the_12_24_hour_setting(phone):
    def status_clock() -> str:
        bar = phone.window.frame().status_bar
        return next(v.text for v in bar.walk() if v.resource_id == "com.android.systemui:id/clock")

    assert status_clock() == "3:34"  # a fresh en-US phone: 12-hour
    phone.run("settings put system time_12_24 24")
    assert status_clock() == "15:34"


class PagerScreen(Screen):
    """A page that flings, a list, and a dialog whose scrim covers both while it is open."""

    activity = "com.example.pager.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.page, self.dialog_open = 0, False

    def _fling(self, finger: str) -> None:
        self.page += 1 if finger == "left" else -1

    def build(self) -> View:
        pager = View(kind="column", class_name="androidx.viewpager.widget.ViewPager", scrollable=True,
                     on_fling=self._fling, height=600, children=[text_view(f"Page {self.page}")])
        rows = scroll_list(*(text_view(f"Item {i}") for i in range(40)), key="items", weight=1)
        content = column(toolbar("Pager"), button("Open dialog", lambda: setattr(self, "dialog_open", True)),
                         pager, rows, gravity="fill")
        if not self.dialog_open:
            return content
        scrim = View(gravity="fill", clickable=True, on_click=lambda: setattr(self, "dialog_open", False))
        return frame(content, scrim, column(text_view("A dialog"), width=600, gravity="center"))


class Pager(App):
    package = "com.example.pager"
    label = "Pager"
    screens = (PagerScreen,)


def test_flings_turn_pages_but_not_through_a_dialog_scrim():
    phone = Phone()
    try:
        phone.packages.install(Pager)
        phone.run("am start -n com.example.pager/.MainActivity")
        screen = phone.activities.top
        pager = element(phone, class_name="androidx.viewpager.widget.ViewPager")
        x, y = pager.bbox_pixels.center
        phone.swipe(x + 300, y, x - 300, y, 300)
        assert screen.page == 1 and element(phone, text="Page 1")
        phone.swipe(x - 300, y, x + 300, y, 300)
        phone.swipe(x - 300, y, x + 300, y, 300)
        assert screen.page == -1
        phone.swipe(x, y + 200, x, y - 200, 300)  # mostly vertical: not a page turn
        assert screen.page == -1
        items = element(phone, text="Item 0")
        ix, iy = items.bbox_pixels.center
        tap(phone, text="Open dialog")
        phone.swipe(x + 300, y, x - 300, y, 300)
        phone.swipe(ix, iy + 300, ix, iy - 300, 300)
        assert screen.page == -1 and screen.scroll.get("items", 0) == 0, "the scrim takes the drags"
        phone.tap(40, 1200)  # the scrim closes the dialog
        assert not screen.dialog_open
        phone.swipe(ix, iy + 300, ix, iy - 300, 300)
        assert screen.scroll.get("items", 0) > 0
    finally:
        phone.close()


class TallScreen(Screen):
    """A column taller than the window: a row showing only its top 10 px above the navigation bar, one below."""

    activity = "com.example.tall.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.clicked: list[str] = []

    def build(self) -> View:
        room = 2400 - STATUS_BAR_HEIGHT - NAV_BAR_HEIGHT
        return column(View(height=room - 10),
                      *[text_view(name, clickable=True, on_click=lambda name=name: self.clicked.append(name),
                                  height=200) for name in ("Peeking", "Hidden")])


class Tall(App):
    package = "com.example.tall"
    label = "Tall"
    screens = (TallScreen,)


def test_dumped_bounds_are_the_part_on_screen_and_a_sliver_is_still_tapped_at_its_centre():
    """``AccessibilityNodeInfo.getBoundsInScreen``: a view's bounds cut to its parents', so to its window; a view
    with nothing on screen is left out."""
    phone = Phone()
    try:
        phone.packages.install(Tall)
        screen = phone.activities.launch(phone.packages.get("com.example.tall"))
        peeking = element(phone, text="Peeking").bbox_pixels
        bottom = 2400 - NAV_BAR_HEIGHT
        assert (peeking.y_min, peeking.y_max) == (bottom - 10, bottom)
        assert not [e for e in parse_ui_dump(phone.ui_dump()) if e.text == "Hidden"]
        assert all(e.bbox_pixels.y_max <= bottom for e in parse_ui_dump(phone.ui_dump())[1:])
        tap(phone, text="Peeking")
        assert screen.clicked == ["Peeking"]
    finally:
        phone.close()


def test_a_centred_child_with_a_margin_keeps_it_on_both_sides():
    """A frame's child centred without a width of its own (a dialog with layout margins) is inset by its margin at
    both sides, not shifted to the start."""
    dialog = View(kind="column", gravity="center", margin=48, height=300)
    sized = View(kind="column", gravity="center", margin=48, width=200, height=100)
    layout(frame(dialog), 0, 0, 1080, 1000)
    layout(frame(sized), 0, 0, 1080, 1000)
    assert dialog.bounds == (48, 350, 1032, 650)
    assert sized.bounds == (440, 450, 640, 550)  # centred by its own width
