"""Fixtures of the simulator's tests: a fresh phone per test, closed afterwards."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from android_gym.sim.phone import Phone


@pytest.fixture
def phone() -> Iterator[Phone]:
    """A new simulated phone; modules that need one set up differently override this fixture."""
    device = Phone()
    yield device
    device.close()
