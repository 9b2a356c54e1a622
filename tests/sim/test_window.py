"""The view toolkit and window manager: layout, focus and keyboard, scrolling, BACK/HOME, scaling."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim import keycodes
from android_gym.sim.apps.base import App, Screen
from android_gym.sim.phone import Phone
from android_gym.sim.ui.views import View, button, column, edit_text, scroll_list, text_view, toolbar
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


def test_keyboard_pixels_are_redrawn_when_it_comes_back(phone):
    open_notes(phone)
    tap(phone, resource_name="com.example.notes:id/title")
    first = phone.screenshot()
    phone.key(keycodes.BACK)  # hide the keyboard: the app window is drawn over its area
    assert not np.array_equal(first, phone.screenshot())
    tap(phone, resource_name="com.example.notes:id/title")
    assert np.array_equal(first, phone.screenshot())
