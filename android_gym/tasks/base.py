"""The Task contract (AndroidWorld's TaskEval semantics, Gymnasium-friendly seeding)."""

from __future__ import annotations

import datetime as dt
import functools
import shlex
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.device.app_snapshots import restore_command
from android_gym.device.base import Device
from android_gym.errors import TaskSetupError
from android_gym.sim import keycodes
from android_gym.tasks.oracle import OracleStep

#: AndroidWorld's device time for every task: 2023-10-15 15:34:00 UTC.
DEVICE_TIME = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)
#: AndroidWorld's clock settings ``(namespace, key, value)``: no network time or zone, 24-hour format.
FIXED_TIME_SETTINGS = (("global", "auto_time", "0"), ("global", "auto_time_zone", "0"), ("system", "time_12_24", "24"))


def fixed_time_commands(when: dt.datetime = DEVICE_TIME) -> list[str]:
    """The shell commands that fix the device clock at ``when`` as AndroidWorld does: ``FIXED_TIME_SETTINGS``,
    then toybox ``date MMDDhhmmCCYY.ss`` (UTC; setting the date needs root)."""
    stamp = when.astimezone(dt.timezone.utc).strftime("%m%d%H%M%Y.%S")
    return [f"settings put {namespace} {key} {value}" for namespace, key, value in FIXED_TIME_SETTINGS] + [
        f"date {stamp}"]


def _stop_commands(packages: Sequence[str]) -> list[str]:
    """``am force-stop`` of each package."""
    return [f"am force-stop {shlex.quote(package)}" for package in packages]


@functools.lru_cache(maxsize=1024)
def _prepare_line(packages: tuple[str, ...], when: dt.datetime, stopped: bool) -> str:
    """``prepare``'s shell line for ``packages``, made once per task class and kept (every reset sends the same line):
    the base teardown (stop them, go home; not when ``stopped``) while the clock still runs on from the last episode,
    their snapshots restored, the clock fixed at ``when``, then home again (at home already: the key's time passes,
    as before)."""
    home = f"input keyevent {keycodes.HOME}"
    commands = [] if stopped else [*_stop_commands(packages), home]
    if packages:
        commands.append(restore_command(packages, missing_ok=True))
    return " && ".join([*commands, *fixed_time_commands(when), home])


class Task:
    """A parameterized task: goal template, seeded parameters, setup, success check, teardown and oracle.

    Subclasses set the class attributes and implement ``generate_params``, ``is_successful`` and ``oracle``.
    Setup comes in two phases so composed tasks never clobber each other's state: ``clear_state`` wipes what
    the task's apps hold (destructive), ``seed_state`` adds the task's own data (additive). ``initialize`` runs
    ``prepare``, then both (``reset_state``); a composite runs every part's ``clear_state`` before any part's
    ``seed_state``.
    ``teardown`` may be extended (calling ``super()``); ``hand_over`` is the teardown before the next episode of
    the same task. Everything goes through the ``Device`` protocol, so a task runs unchanged on the simulator and a
    real phone.
    """

    name: ClassVar[str] = ""
    app_packages: ClassVar[tuple[str, ...]] = ()
    template: ClassVar[str] = ""
    complexity: ClassVar[float] = 1.0
    device_time: ClassVar[dt.datetime] = DEVICE_TIME
    #: True for AndroidWorld tasks whose setup already leaves the goal state (the ``*Verify`` tasks): they score
    #: 1.0 before the agent acts, as in AndroidWorld; kept for compatibility, ``check_task`` expects exactly that.
    succeeds_without_action: ClassVar[bool] = False
    #: True when checking success disturbs the device (reading the clipboard brings Clipper to the front), so
    #: the env checks only when the episode ends: the agent declares it done or answers, or the budget runs out.
    scored_at_end: ClassVar[bool] = False
    #: True when ``clear_state`` empties everything ``teardown`` does beyond stopping the apps and going home: a
    #: reset's ``hand_over`` then does nothing, leaving the stop and HOME to ``prepare`` (which does them before it
    #: sets the clock, at the episode's end time) and the rest to the next ``clear_state`` (what an episode left there
    #: is emptied at the set-up's device time, not the previous episode's end).
    setup_clears_teardown: ClassVar[bool] = False

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = dict(params)
        self.answer: str | None = None

    def __init_subclass__(cls, **kwargs: object) -> None:
        """A subclass's own ``initialize`` would be skipped by the env's reset, which runs ``prepare`` and
        ``reset_state`` itself (keeping the device's baseline between them), and by a composite: refused."""
        super().__init_subclass__(**kwargs)
        if "initialize" in vars(cls):
            raise TypeError(f"{cls.__name__} overrides initialize: a reset runs prepare and reset_state itself, not "
                            "it; put the set-up in clear_state and seed_state (or reset_state)")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Draw the task's parameters from ``rng`` (the env's ``np_random``)."""
        raise NotImplementedError

    @classmethod
    def max_steps(cls) -> int:
        """Step budget: 10 × complexity, as AndroidWorld."""
        return int(10 * cls.complexity)

    @property
    def goal(self) -> str:
        """The instruction shown to the agent."""
        return self.template.format(**self.params)

    def initialize(self, device: Device) -> None:
        """Set the task up outside an env (tests, tools): ``prepare``, then ``reset_state``, as the env's reset runs
        them. Override the phases, not this (refused)."""
        self.prepare(device)
        self.reset_state(device)

    def prepare(self, device: Device, stopped: bool = False) -> None:
        """Bring the task's apps' data back to their snapshots on a device ``android-gym setup-device`` provisioned
        (AndroidWorld's ``restore_snapshot``; nothing where there are none), fix the device clock at
        ``device_time``, with the task's apps stopped and the home screen in front: one shell round trip, which
        begins with the base ``teardown``, so a reset's ``hand_over`` need not stop and go home first; ``stopped``:
        the apps are stopped and home is in front already (a device's full rewind did it), the line begins with the
        snapshots."""
        self.run(device, _prepare_line(self.app_packages, self.device_time, stopped))

    def clear_state(self, device: Device) -> None:
        """Wipe the state of the task's apps that the task depends on (default: nothing)."""

    def seed_state(self, device: Device) -> None:
        """Write the task's initial data, adding to what is there (default: nothing)."""

    def reset_state(self, device: Device) -> None:
        """``clear_state``, then ``seed_state``; a task may override this to leave the device as the two phases do
        in fewer writes (a composite runs its parts' phases, never this)."""
        self.clear_state(device)
        self.seed_state(device)

    def is_successful(self, device: Device) -> float:
        """Score in [0, 1] for the current device state."""
        raise NotImplementedError

    def teardown(self, device: Device) -> None:
        """Leave the device clean for the next task (default: stop the task's apps, go home)."""
        if self.app_packages:
            self.run(device, " && ".join(_stop_commands(self.app_packages)))
        device.key(keycodes.HOME)

    def hand_over(self, device: Device, rewound: bool = False) -> None:
        """``teardown`` when the next thing done to ``device`` is ``initialize`` of another episode of this task
        (the env's reset): what that ``initialize`` does first anyway, a task may leave to it. Default: ``teardown``,
        or with ``setup_clears_teardown`` nothing (``prepare`` stops the apps and goes home before it changes the
        clock, as the base teardown would, and ``clear_state`` empties the rest); ``rewound``: a full rewind of the
        device follows (``full_rewind``), which stops every app and goes home, so the base teardown, which does only
        that, is left to it."""
        if not (self.setup_clears_teardown or (rewound and type(self).teardown is Task.teardown)):
            self.teardown(device)

    def oracle(self) -> Sequence[OracleStep]:
        """The UI steps a competent user takes to solve the task (see ``android_gym.tasks.oracle``)."""
        raise NotImplementedError

    @staticmethod
    def run(device: Device, command: str) -> str:
        """Run a setup command; a non-zero exit raises ``TaskSetupError`` with the device's message."""
        result = device.shell(command)
        if not result.ok:
            raise TaskSetupError(f"`{command}` failed (exit {result.exit_code}): {result.output.strip()}")
        return result.output
