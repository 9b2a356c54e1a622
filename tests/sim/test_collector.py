"""A simulated phone has Python's cycle collector pass over young objects less often in a process at CPython's
default, and leaves a threshold the process chose alone (``phone.collect_young_less_often``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from android_gym.sim.phone import CPYTHON_YOUNG_THRESHOLD, YOUNG_THRESHOLD, Phone


@pytest.fixture
def threshold() -> Iterator[None]:
    """The process's collector thresholds, put back after the test (the suite sets its own: ``conftest.py``)."""
    kept = gc.get_threshold()
    yield
    gc.set_threshold(*kept)


@pytest.mark.usefixtures("threshold")
def test_a_phone_raises_cpythons_young_threshold_and_keeps_the_older_ones():
    gc.set_threshold(CPYTHON_YOUNG_THRESHOLD, 7, 13)
    Phone().close()
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 7, 13)


@pytest.mark.usefixtures("threshold")
def test_a_phone_leaves_a_threshold_the_process_chose():
    gc.set_threshold(2_000, 10, 10)
    Phone().close()
    assert gc.get_threshold() == (2_000, 10, 10)
