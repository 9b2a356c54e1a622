"""``Distractors``: what real phones throw at an agent, seeded and off unless wrapped — a notification arriving,
the low-battery warning, and the notification-permission prompt when the task's app starts.

Each is caused the way it is on a real device, only through the Device protocol's ``shell``, so the same wrapper
works on the simulated phone and on an emulator:

* ``notification``: ``cmd notification post -t <title> <tag> <text>`` (NotificationManagerService's shell command);
* ``low_battery``: ``dumpsys battery unplug`` and ``dumpsys battery set level 15`` (BatteryService's shell), which
  makes SystemUI's PowerUI show its "Turn on Battery Saver?" heads-up;
* ``permission``: at reset, ``pm revoke <app> android.permission.POST_NOTIFICATIONS`` for the task's first
  third-party app (``pm list packages -3``), which asks for it again when it starts;
* ``rating`` and ``whats_new``: at reset, for the task's first Simple Mobile Tools app (SMS Messenger, Calendar,
  Gallery, Draw), the app is stopped and its ``shared_prefs/Prefs.xml`` edited (``app_run_count`` 39 and
  ``was_app_rated`` false; ``last_version`` just below its newest release), so that its own start-up code
  (Simple-Commons ``appLaunched``, ``checkWhatsNew``) opens ``RateStarsDialog`` or "What's new" when it starts.
  On a real device the file is the app's private data (root or ``run-as`` needed to write it), and the F-Droid
  builds AndroidWorld installs never show the rating dialog (``hide_google_relations``); "What's new" shows.

After each step (not the last), with probability ``rate`` from a generator seeded by the env's seed, one of the
step-time kinds fires; at reset, with the same probability, one of the start kinds is armed. ``info["distractor"]``
names what fired at that step (``None`` otherwise). None of them touches what tasks check (databases, files,
settings). At reset, what was fired is undone: ``dumpsys battery reset``, ``am force-stop com.android.shell``
(which cancels the shell's notifications), ``pm grant`` of the revoked permission and the edited preferences
restored (the app stopped first).

Wrap the env ``gym.make`` returns directly (below observation-changing wrappers): the observation after a distractor
is taken again from the env (``AndroidEnv.look``).
"""

from __future__ import annotations

import copy
import shlex
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from android_gym.device.state import edit_shared_prefs
from android_gym.errors import ConfigError
from android_gym.sim.apps import calendar, draw, gallery, sms
from android_gym.sim.apps.commons import APP_RUN_COUNT, LAST_VERSION, RATE_EVERY, WAS_APP_RATED
from android_gym.sim.system.prefs import PrefValue

STEP_KINDS = ("notification", "low_battery")
START_KINDS = ("permission", "rating", "whats_new")
KINDS = STEP_KINDS + START_KINDS
POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"
SHELL_PACKAGE = "com.android.shell"  # NotificationShellCmd.NOTIFICATION_PACKAGE
LOW_LEVEL = 15  # below config_lowBatteryWarningLevel (20)
#: The Simple Mobile Tools apps: their prefs file (Simple-Commons ``PREFS_KEY``) and newest "What's new" release.
SIMPLE_APPS = {app.PACKAGE: (app.PREFS_PATH, app.RELEASES[-1].id) for app in (sms, calendar, gallery, draw)}
#: Texts of the notifications posted: (title, text), everyday messages that ask nothing of the task.
MESSAGES = (("Weekly summary", "Your screen time was down 8% last week"),
            ("Storage", "Back up your photos to free up space"),
            ("Weather", "Light rain expected this afternoon"),
            ("Updates", "Some of your apps were updated"))


class Distractors(gym.Wrapper):
    """Fires distractors (``kinds``, a subset of ``KINDS``) after a step with probability ``rate``."""

    def __init__(self, env: gym.Env, rate: float = 0.1, kinds: Sequence[str] = KINDS) -> None:
        super().__init__(env)
        if not 0.0 <= rate <= 1.0:
            raise ConfigError(f"Distractors(rate={rate!r}): the rate is a probability per step, from 0 to 1")
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown or not kinds:
            raise ConfigError(f"Distractors(kinds={list(kinds)!r}): choose one or more of {', '.join(KINDS)}")
        self.rate = rate
        self.kinds = tuple(kind for kind in KINDS if kind in kinds)
        self._rng = np.random.default_rng(0)
        self._fired: set[str] = set()
        self._revoked: str | None = None
        self._prefs: tuple[str, str, dict[str, PrefValue | None]] | None = None  # (package, path, previous values)
        self._posted = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Undo what was fired, reset the env, draw this episode's distractors from its seed, and maybe arm the
        permission prompt."""
        self._clean_up()
        observation, info = self.env.reset(seed=seed, options=options)
        self._rng = np.random.default_rng(int(copy.deepcopy(self.env.unwrapped.np_random).integers(2**63)))
        fired = None
        start_kinds = [kind for kind in self.kinds if kind in START_KINDS]
        if start_kinds and self._rng.random() < self.rate:
            kind = start_kinds[int(self._rng.integers(len(start_kinds)))]
            fired = self._revoke_permission() if kind == "permission" else self._arm_dialog(kind)
        return observation, {**info, "distractor": fired}

    def step(self, action: Any):
        """Step the env; then, unless the episode ended, maybe fire a distractor and look at the screen again."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        fired = None
        step_kinds = [kind for kind in self.kinds if kind in STEP_KINDS]
        if step_kinds and not (terminated or truncated) and self._rng.random() < self.rate:
            fired = step_kinds[int(self._rng.integers(len(step_kinds)))]
            self._fire(fired)
            observation, fresh = self.env.unwrapped.look()
            info = {**info, "ui_elements": fresh["ui_elements"]}
        return observation, reward, terminated, truncated, {**info, "distractor": fired}

    # ----- the distractors ------------------------------------------------------------------------------------
    def _shell(self, command: str) -> str:
        return self.env.unwrapped.device.shell(command).output

    def _fire(self, kind: str) -> None:
        if kind == "notification":
            title, text = MESSAGES[int(self._rng.integers(len(MESSAGES)))]
            self._posted += 1
            self._shell(f"cmd notification post -t {shlex.quote(title)} distractor{self._posted} {shlex.quote(text)}")
        else:
            self._shell(f"dumpsys battery unplug; dumpsys battery set level {LOW_LEVEL}")
        self._fired.add(kind)

    def _revoke_permission(self) -> str | None:
        """Revoke the notification permission of the task's first third-party app; ``None`` when it has none."""
        third_party = {line.removeprefix("package:").strip() for line in
                       self._shell("pm list packages -3").splitlines()}
        app = next((package for package in self.env.unwrapped.task_class.app_packages if package in third_party),
                   None)
        if app is None:
            return None
        result = self.env.unwrapped.device.shell(f"pm revoke {shlex.quote(app)} {POST_NOTIFICATIONS}")
        if result.exit_code != 0:
            return None
        self._revoked = app
        return "permission"

    def _arm_dialog(self, kind: str) -> str | None:
        """Make the task's first Simple app open with the rating or "What's new" dialog; ``None`` when it has
        none."""
        package = next((p for p in self.env.unwrapped.task_class.app_packages if p in SIMPLE_APPS), None)
        if package is None:
            return None
        path, newest = SIMPLE_APPS[package]
        puts: dict[str, PrefValue | None] = (
            {APP_RUN_COUNT: ("int", RATE_EVERY - 1), WAS_APP_RATED: ("boolean", False)} if kind == "rating"
            else {LAST_VERSION: ("int", newest - 1)})
        self._shell(f"am force-stop {shlex.quote(package)}")
        self._prefs = (package, path, edit_shared_prefs(self.env.unwrapped.device, path, puts))
        return kind

    def _clean_up(self) -> None:
        """Undo what this wrapper fired since the last reset."""
        if self.env.unwrapped.task is None:
            return
        if "low_battery" in self._fired:
            self._shell("dumpsys battery reset")
        if "notification" in self._fired:
            self._shell(f"am force-stop {SHELL_PACKAGE}")
        if self._revoked is not None:
            self._shell(f"pm grant {shlex.quote(self._revoked)} {POST_NOTIFICATIONS}")
        if self._prefs is not None:
            package, path, previous = self._prefs
            self._shell(f"am force-stop {shlex.quote(package)}")
            edit_shared_prefs(self.env.unwrapped.device, path, previous)
        self._fired, self._revoked, self._prefs = set(), None, None
