"""ScreenLeases: observation pixels over the screen's own memory, copies only where the caller holds a hand-out."""

from __future__ import annotations

import weakref

import numpy as np
import pytest

from android_gym.screen_leases import ScreenLeases


def _screen(value: int) -> np.ndarray:
    screen = np.full((4, 3, 3), value, np.uint8)
    screen.flags.writeable = False
    return screen


def test_a_screen_that_stays_the_same_is_copied_once_and_handed_in_turn_with_its_copy():
    leases, screen = ScreenLeases(), _screen(7)
    first = leases.handed(screen)
    second = leases.handed(screen)  # the caller holds the first: a copy
    assert np.shares_memory(first, screen) and not np.shares_memory(second, screen)
    copied = weakref.ref(second.base.screen)
    del first
    third = leases.handed(screen)  # the caller holds the copy, not the screen: the screen again
    assert np.shares_memory(third, screen)
    del second
    fourth = leases.handed(screen)  # the caller holds the screen: the copy made before, not a new one
    assert copied() is not None and fourth.base.screen is copied()
    assert np.array_equal(fourth, screen) and not np.shares_memory(fourth, third)
    with pytest.raises(ValueError):
        fourth.flags.writeable = True


def test_a_copy_the_caller_holds_is_not_handed_again():
    leases, screen = ScreenLeases(), _screen(7)
    held = [leases.handed(screen) for _ in range(4)]  # the caller keeps them all
    assert not any(np.shares_memory(a, b) for i, a in enumerate(held) for b in held[i + 1:])
    assert all(np.array_equal(pixels, screen) for pixels in held)


def test_the_copy_of_a_screen_is_let_go_once_another_is_shown():
    leases, screen, other = ScreenLeases(), _screen(7), _screen(9)
    held = leases.handed(screen)
    copy = leases.handed(screen)
    copied = weakref.ref(copy.base.screen)
    del held, copy
    shown = leases.handed(other)
    assert copied() is None and np.array_equal(shown, other) and np.shares_memory(shown, other)
