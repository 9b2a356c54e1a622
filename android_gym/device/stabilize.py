"""Waiting for the screen to settle: poll the UI dump until it stops changing, instead of sleeping a fixed time.

After an input, a real device animates (activity transitions, list scrolling, ripples) and loads content for a
while; a dump taken too early shows a half-drawn screen. ``wait_until_stable`` polls the dump until the same XML
comes back ``quiet_polls`` times in a row, bounded by ``max_polls`` so a screen that never stops changing (a
running stopwatch, an endless animation) costs a known, small delay.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from android_gym.errors import ConfigError


@dataclass(frozen=True)
class Stabilization:
    """How to wait for a still screen: ``interval_s`` between polls, ``quiet_polls`` identical dumps in a row
    mean settled, at most ``max_polls`` dumps in all."""

    interval_s: float = 0.05
    quiet_polls: int = 2
    max_polls: int = 40

    def __post_init__(self) -> None:
        if not isinstance(self.interval_s, (int, float)) or not math.isfinite(self.interval_s) \
                or self.interval_s < 0:
            raise ConfigError(f"Stabilization.interval_s={self.interval_s!r}: give the pause between UI dumps in "
                              "seconds, a finite number >= 0 (e.g. 0.05)")
        if not isinstance(self.quiet_polls, int) or self.quiet_polls < 2:
            raise ConfigError(f"Stabilization.quiet_polls={self.quiet_polls!r}: give how many identical UI dumps "
                              "in a row mean the screen is still, an integer >= 2 (one dump alone proves nothing)")
        if not isinstance(self.max_polls, int) or self.max_polls < self.quiet_polls:
            raise ConfigError(f"Stabilization.max_polls={self.max_polls!r}: give an integer bound on the UI dumps "
                              f"per wait that is at least quiet_polls={self.quiet_polls}")


@dataclass(frozen=True)
class StableDump:
    """The last dump taken, how many dumps the wait took, and whether the screen settled within the bound."""

    xml: str
    polls: int
    settled: bool


def wait_until_stable(dump: Callable[[], str], config: Stabilization,
                      sleep: Callable[[float], None] = time.sleep) -> StableDump:
    """Call ``dump`` until it returns the same XML ``config.quiet_polls`` times in a row, sleeping
    ``config.interval_s`` between calls; give up after ``config.max_polls`` calls (``settled=False``)."""
    xml = dump()
    polls, same = 1, 1
    while same < config.quiet_polls and polls < config.max_polls:
        sleep(config.interval_s)
        previous, xml = xml, dump()
        polls += 1
        same = same + 1 if xml == previous else 1
    return StableDump(xml, polls, same >= config.quiet_polls)
