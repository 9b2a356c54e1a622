"""Clock tasks (AndroidWorld ``task_evals/single/clock.py`` semantics), plus an honest paused-stopwatch variant.

As in AndroidWorld, success is read from the screen: the focused activity must be the Clock's ``DeskClock``
and the UI tree must show the timer keypad's display (or its description), or the stopwatch's buttons. Every
task starts from a cleared Clock app (``pm clear``, where AndroidWorld restores its snapshot of the app data):
Clock tab selected, stopwatch reset, no timers.

``ClockStopWatchPausedVerify`` asks to pause a stopwatch that is already stopped at zero, so opening the
Stopwatch tab is enough (AndroidWorld's known complaint about its *Verify tasks). Doing nothing at all still
scores 0, here as in AndroidWorld, because the check wants the Clock's activity in front and the task starts on
the home screen; so the task is not marked ``succeeds_without_action``. ``ClockStopWatchPausedVerifyReport`` is
the variant that needs the agent to look: the stopwatch is left paused at a random time, with laps, and the agent
has to answer the time it shows.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.sim.apps.deskclock import PACKAGE, PREFS_PATH, SW_PAUSED, UNUSED
from android_gym.sim.system.prefs import shared_prefs_xml
from android_gym.tasks import Task, register_task
from android_gym.tasks.oracle import OracleStep, Selector, act, complete, open_app, tap
from android_gym.ui import UIElement

APP_NAME = "Clock"
FAB = Selector(resource_id=f"{PACKAGE}:id/fab", content_desc="Start")
# `mCurrentFocus=Window{48b4735 u0 pkg/full.Activity}` in `dumpsys window`.
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ ([^\s/}]+/[^\s}]+)\}")
_MINUTES_SECONDS = re.compile(r"(\d+)\s*:\s*(\d{1,2})")


def _tab(label: str) -> OracleStep:
    """Tap a tab of the bottom navigation (its item is described by the tab's title)."""
    return tap(Selector(content_desc=label, class_suffix="FrameLayout"))


def deskclock_elements(device: Device) -> list[UIElement]:
    """The UI elements when the Clock's ``DeskClock`` activity has focus, else none (AndroidWorld requires
    "DeskClock" in the current activity)."""
    match = _FOCUS.search(device.shell("dumpsys window").output)
    if match is None or "DeskClock" not in match.group(1):
        return []
    return state.ui_elements(device)


class _ClockTask(Task):
    """Starts from a cleared Clock app."""

    app_packages = (PACKAGE,)
    complexity = 1.0

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """No parameters."""
        return {}

    def clear_state(self, device: Device) -> None:
        """``pm clear`` the Clock: no timers, stopwatch reset, Clock tab selected, default alarms."""
        self.run(device, f"pm clear {shlex.quote(PACKAGE)}")


@register_task
class ClockTimerEntry(_ClockTask):
    """Type a duration on the timer keypad without starting the timer."""

    name = "ClockTimerEntry"
    template = "Create a timer with {hours} hours, {minutes} minutes, and {seconds} seconds. Do not start the timer."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """0–23 hours, 0–59 minutes, 0–59 seconds."""
        return {"hours": int(rng.integers(0, 24)), "minutes": int(rng.integers(0, 60)),
                "seconds": int(rng.integers(0, 60))}

    def is_successful(self, device: Device) -> float:
        """1.0 when an element shows "HHh MMm SSs" or is described as "H hours, M minutes, S seconds"."""
        hours, minutes, seconds = self.params["hours"], self.params["minutes"], self.params["seconds"]
        text = f"{hours:02d}h {minutes:02d}m {seconds:02d}s"
        description = f"{hours} hours, {minutes} minutes, {seconds} seconds"
        return 1.0 if any(element.text == text or element.content_description == description
                          for element in deskclock_elements(device)) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the Timer tab and type the digits (the keypad fills from the right; leading zeros are moot)."""
        digits = str(int(f"{self.params['hours']:02d}{self.params['minutes']:02d}{self.params['seconds']:02d}"))
        keys = [tap(Selector(resource_id=f"{PACKAGE}:id/timer_setup_digit_{digit}")) for digit in digits]
        return [open_app(APP_NAME), _tab("Timer"), *keys, complete()]


@register_task
class ClockStopWatchRunning(_ClockTask):
    """Start the stopwatch."""

    name = "ClockStopWatchRunning"
    template = "Run the stopwatch."

    def is_successful(self, device: Device) -> float:
        """1.0 when elements described "Pause" and "Lap" (in the phone's language) are on screen (the running
        stopwatch's buttons)."""
        elements = deskclock_elements(device)
        return 1.0 if all(any(Selector(content_desc=description).matches(element) for element in elements)
                          for description in ("Pause", "Lap")) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the Stopwatch tab and press Start."""
        return [open_app(APP_NAME), _tab("Stopwatch"), tap(FAB), complete()]


def stopwatch_shown_stopped(elements: Sequence[UIElement]) -> bool:
    """AndroidWorld's ``_is_stopwatch_paused``: a "Start" button and exactly two "Stopwatch" nodes (the tab's
    item and its label), in the phone's language."""
    stopwatch = (Selector(content_desc="Stopwatch"), Selector(text="Stopwatch"))
    stopwatch_nodes = sum(1 for element in elements if any(selector.matches(element) for selector in stopwatch))
    return any(Selector(content_desc="Start").matches(element) for element in elements) and stopwatch_nodes == 2


@register_task
class ClockStopWatchPausedVerify(_ClockTask):
    """Pause the stopwatch, which the setup leaves stopped at zero: showing the Stopwatch tab is enough."""

    name = "ClockStopWatchPausedVerify"
    template = "Pause the stopwatch."

    def is_successful(self, device: Device) -> float:
        """1.0 when the Stopwatch tab shows a stopped stopwatch."""
        return 1.0 if stopwatch_shown_stopped(deskclock_elements(device)) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the Stopwatch tab."""
        return [open_app(APP_NAME), _tab("Stopwatch"), complete()]


@register_task
class ClockStopWatchPausedVerifyReport(_ClockTask):
    """Read the time of a stopwatch left paused (with laps recorded) and answer it."""

    name = "ClockStopWatchPausedVerifyReport"
    template = ("The stopwatch in the Clock app is paused. What time does it show? Answer with the minutes and "
                "seconds, as M:SS.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A total between 1 and 60 minutes (to the hundredth) and 0–3 laps recorded before it."""
        total = int(rng.integers(6_000, 360_000)) * 10
        count = int(rng.integers(0, 4))
        laps = sorted(int(value) * 10 for value in rng.choice(np.arange(100, total // 10), size=count, replace=False))
        return {"elapsed_ms": total, "lap_ms": laps}

    @property
    def shown_time(self) -> str:
        """The time the stopwatch shows, as M:SS (``StopwatchTextController``'s main text)."""
        seconds = self.params["elapsed_ms"] // 1000
        return f"{seconds // 60}:{seconds % 60:02d}"

    def seed_state(self, device: Device) -> None:
        """Write the paused stopwatch and its laps with ``StopwatchDAO``'s keys, then stop the app so that it
        reads them (it loads its preferences once per process)."""
        values = {"sw_state": ("int", SW_PAUSED), "sw_start_time": ("long", UNUSED),
                  "sw_wall_clock_time": ("long", UNUSED), "sw_accum_time": ("long", self.params["elapsed_ms"])}
        laps = self.params["lap_ms"]
        if laps:
            values["sw_lap_num"] = ("int", len(laps))
            values.update({f"sw_lap_time_{n}": ("long", ms) for n, ms in enumerate(laps, start=1)})
        state.write_file(device, PREFS_PATH, shared_prefs_xml(values))
        self.run(device, f"am force-stop {shlex.quote(PACKAGE)}")

    def is_successful(self, device: Device) -> float:
        """1.0 when the answer names the stopwatch's minutes and seconds (hundredths may follow)."""
        match = _MINUTES_SECONDS.search(self.answer or "")
        return 1.0 if match and f"{int(match[1])}:{int(match[2]):02d}" == self.shown_time else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the Stopwatch tab, read the time, answer it."""
        return [open_app(APP_NAME), _tab("Stopwatch"), act(Action(ActionType.ANSWER, text=self.shown_time))]

