"""Activity transitions on a phone with animations on: the incoming window slides in over the next looks."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim import keycodes
from android_gym.sim.framework.window import TRANSITION_FRAMES
from android_gym.sim.phone import Phone
from android_gym.ui import parse_ui_dump


def _open(phone: Phone, label: str = "Contacts") -> None:
    """Tap a launcher icon where the settled screen shows it."""
    icon = next(e for e in parse_ui_dump(phone.ui_dump()) if e.text == label).bbox_pixels
    phone.tap((icon.x_min + icon.x_max) / 2, (icon.y_min + icon.y_max) / 2)


def _content_left(xml: str) -> int:
    """Left edge of the activity's content view (``android:id/content``) in a dump."""
    return next(e for e in parse_ui_dump(xml) if e.resource_name == "android:id/content").bbox_pixels.x_min


def _frames_until_still(look, settled) -> int:
    """How many looks differ from ``settled`` before one equals it (at most 200)."""
    for count in range(200):
        if look() == settled:
            return count
    raise AssertionError("the screen never settled")


@pytest.fixture
def phones():
    """An animating phone and a still one, both with Contacts just opened."""
    moving, still = Phone(animations=True), Phone()
    for phone in (moving, still):
        _open(phone)
    yield moving, still
    moving.close()
    still.close()


def test_opening_an_app_slides_its_window_in_until_it_shows_what_a_still_phone_shows(phones):
    moving, still = phones
    settled = still.ui_dump()
    dumps = [moving.ui_dump() for _ in range(TRANSITION_FRAMES + 2)]
    lefts = [_content_left(xml) for xml in dumps]
    assert lefts == [864, 648, 432, 216, 0, 0]  # 1080 * 4/5, 3/5, 2/5, 1/5, then in place
    assert len(set(dumps[:TRANSITION_FRAMES + 1])) == TRANSITION_FRAMES + 1  # every frame differs
    assert dumps[TRANSITION_FRAMES] == dumps[-1] == settled
    assert 'package="com.google.android.contacts"' in dumps[0]


def test_a_window_sliding_in_shows_in_the_pixels_over_a_dark_backdrop(phones):
    moving, still = phones
    settled = still.screenshot()
    shots = [moving.screenshot() for _ in range(TRANSITION_FRAMES + 1)]
    first = shots[0]
    assert not np.array_equal(first, settled)
    assert (first[1000, :864] == 0).all()  # uncovered by the window, 4/5 of the width in
    assert np.array_equal(first[1000, 864:], settled[1000, :1080 - 864])  # the window's left part, moved
    assert np.array_equal(first[:118], settled[:118])  # the status bar stays
    assert np.array_equal(shots[-1], settled)


def test_dumps_and_screenshots_both_advance_the_transition(phones):
    moving, still = phones
    for _ in range(TRANSITION_FRAMES // 2):
        moving.screenshot()
        moving.ui_dump()
    assert moving.ui_dump() == still.ui_dump()


def test_going_back_animates_too():
    phone = Phone(animations=True)
    _open(phone)
    launcher = Phone()
    home = launcher.ui_dump()
    for _ in range(TRANSITION_FRAMES):
        phone.ui_dump()
    phone.key(keycodes.BACK)
    assert phone.ui_dump() != home
    assert _frames_until_still(phone.ui_dump, home) == TRANSITION_FRAMES - 1
    phone.close()
    launcher.close()


@pytest.mark.parametrize(("scale", "frames"), [("0.5", 2), ("1.0", 4), ("1.1", 5), ("3", 12),
                                               ("100", 80), ("bogus", 4)])
def test_a_transition_lasts_the_frames_the_scale_asks_for(scale, frames):
    """ceil(4 x scale) frames; the scale is bounded to 20 as WindowManagerService.fixScale does, and a value that
    is no number counts as the default 1.0."""
    moving, still = Phone(animations=True), Phone()
    moving.run(f"settings put global transition_animation_scale {scale}")
    for phone in (moving, still):
        _open(phone)
    assert _frames_until_still(moving.ui_dump, still.ui_dump()) == frames
    moving.close()
    still.close()


@pytest.mark.parametrize("scale", ["0", "0.0", "-1"])
def test_a_scale_of_zero_or_less_turns_transitions_off(scale):
    moving, still = Phone(animations=True), Phone()
    moving.run(f"settings put global transition_animation_scale {scale}")
    for phone in (moving, still):
        _open(phone)
    assert moving.ui_dump() == still.ui_dump()
    assert np.array_equal(moving.screenshot(), still.screenshot())
    moving.close()
    still.close()


def test_without_animations_a_default_phone_never_animates(phones):
    _, still = phones
    assert still.settings.get("global", "transition_animation_scale") == "1.0"  # a fresh emulator's value
    assert still.ui_dump() == still.ui_dump()
    still.key(keycodes.BACK)
    assert _content_left(still.ui_dump()) == 0


def test_a_tap_during_a_transition_reaches_the_view_where_it_will_be():
    """The animation moves the window's surface, not its frame: input goes to where the views settle."""
    phone = Phone(animations=True)
    _open(phone)
    dump = phone.ui_dump()
    assert _content_left(dump) == 864 and "Create new contact" not in dump  # the FAB is still off screen
    phone.tap(948, 2142)  # where Contacts' FAB settles
    assert phone.activities.foreground()[1] == "com.android.contacts.activities.ContactEditorActivity"
    phone.close()


def test_a_smaller_screen_slides_in_screen_pixels():
    phone = Phone(540, 1200, animations=True)
    _open(phone)
    assert [_content_left(phone.ui_dump()) for _ in range(TRANSITION_FRAMES + 1)] == [432, 324, 216, 108, 0]
    assert phone.screenshot().shape == (1200, 540, 3)
    phone.close()
