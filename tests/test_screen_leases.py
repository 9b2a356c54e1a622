"""ScreenLeases: observation pixels over the screen's own memory, copies only where the caller holds a hand-out."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.screen_leases import ScreenLeases


def test_a_screen_is_copied_only_while_the_caller_holds_a_hand_out_of_it():
    leases, screen = ScreenLeases(), np.full((4, 3, 3), 7, np.uint8)
    screen.flags.writeable = False
    assert not leases.held(screen)
    first = leases.handed(screen)
    assert leases.held(screen) and np.shares_memory(first, screen)
    held = [first, *(leases.handed(screen) for _ in range(3))]  # the caller keeps them all: copies
    assert not any(np.shares_memory(a, b) for i, a in enumerate(held) for b in held[i + 1:])
    assert all(np.array_equal(pixels, screen) for pixels in held)
    with pytest.raises(ValueError):
        held[1].flags.writeable = True
    del first, held
    assert not leases.held(screen) and np.shares_memory(leases.handed(screen), screen)
