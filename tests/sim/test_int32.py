"""The one 32-bit cast the shell, the apps and the view toolkit share."""

import pytest

from android_gym.sim.int32 import to_int32


@pytest.mark.parametrize(("value", "cast"), [
    (0, 0), (2**31 - 1, 2**31 - 1), (2**31, -2**31), (-2**31 - 1, 2**31 - 1), (0xFFFFFFFF, -1),
    (31536000000000, -1944854528),  # Calendar's repeat interval of a million years, as CursorWindow.getInt reads it
])
def test_to_int32_keeps_the_low_32_bits_signed(value, cast):
    assert to_int32(value) == cast
