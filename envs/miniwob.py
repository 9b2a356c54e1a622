"""MobileMiniWoB++ in the phone's Chrome: ``MiniWoB/<task>-v0`` for the 92 MiniWoB++ tasks AndroidWorld runs
(``android_world/task_evals/miniwob/miniwob_registry.py``; ../shared/reference/androidworld-remaining.md §8).

The pages are MiniWoB++'s own (the ``miniwob`` package's ``html/``, MIT), run by the phone's Chromium; reward and
success come from MiniWoB's own JavaScript. Setup, over the Device protocol only:

1. MiniWoB's ``core/`` and ``common/`` folders are pushed to ``/sdcard/miniwob/`` when missing.
2. The task's page is written there with two additions, as AndroidWorld's MiniWoB app does with its own hooks:
   MiniWoB's seed (``Math.seedrandom``, from the env's seed) right after ``core.js``, and at ``load`` the episode
   started at once (``core.startEpisodeReal``: no START cover) with no time limit (``EPISODE_MAX_TIME`` at
   setTimeout's maximum), the reward display hidden, the utterance logged to the console (``utterance: …``, as
   the app's hook logs it) and the 160 px task area fitted to the screen's width (a viewport ``width=160``, where
   the app sets a 500 % initial scale).
3. Chrome opens the page (``am start -a VIEW -d file://…``); the goal is ``Follow the instructions shown on the top
   of the screen: {utterance}``, the utterance read from logcat.

Success is MiniWoB's own: Chrome on Android logs console messages to logcat (tag ``chromium``), and
``core.endEpisode`` logs ``reward: X (raw: Y)``; the score is 1.0 when the last such line has raw reward 1
(AndroidWorld: ``int(Y) == 1``), else 0. Oracles (``envs/miniwob_oracles.py``) cover a subset of the tasks.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from android_gym.device.base import Device
from android_gym.env import AndroidEnv
from android_gym.errors import AndroidGymError
from android_gym.sim.apps import chrome
from android_gym.tasks import Task
from android_gym.tasks.oracle import OracleStep

NAMESPACE = "MiniWoB"
PHONE_ROOT = "/storage/emulated/0/miniwob"
GOAL = "Follow the instructions shown on the top of the screen: {utterance}"
#: AndroidWorld's ``miniwob`` family (92 tasks).
TASKS = (
    "bisect-angle", "book-flight", "choose-date", "choose-date-easy", "choose-date-medium", "choose-list",
    "circle-center", "click-button", "click-button-sequence", "click-checkboxes", "click-checkboxes-large",
    "click-checkboxes-soft", "click-checkboxes-transfer", "click-collapsible", "click-collapsible-2", "click-color",
    "click-dialog", "click-dialog-2", "click-link", "click-menu-2", "click-option", "click-pie", "click-scroll-list",
    "click-shades", "click-shape", "click-tab", "click-tab-2", "click-tab-2-easy", "click-tab-2-hard",
    "click-tab-2-medium", "click-test", "click-test-2", "click-test-transfer", "click-widget", "copy-paste",
    "copy-paste-2", "count-shape", "count-sides", "drag-box", "drag-item", "email-inbox", "email-inbox-delete",
    "email-inbox-forward", "email-inbox-forward-nl", "email-inbox-forward-nl-turk", "email-inbox-important",
    "email-inbox-nl-turk", "email-inbox-noscroll", "email-inbox-reply", "email-inbox-star-reply", "enter-date",
    "enter-password", "enter-text", "enter-text-2", "enter-text-dynamic", "enter-time", "find-midpoint", "find-word",
    "focus-text", "focus-text-2", "grid-coordinate", "guess-number", "highlight-text", "highlight-text-2",
    "identify-shape", "login-user", "login-user-popup", "multi-layouts", "multi-orderings", "navigate-tree",
    "read-table", "read-table-2", "resize-textarea", "right-angle", "scroll-text", "scroll-text-2", "search-engine",
    "simon-says", "simple-algebra", "simple-arithmetic", "social-media", "social-media-all", "social-media-some",
    "terminal", "text-transform", "tic-tac-toe", "unicode-test", "use-autocomplete", "use-colorwheel",
    "use-colorwheel-2", "use-slider", "visual-addition",
)
_SEED_HOOK = "<script>Math.seedrandom('{seed}');</script>"
_START_HOOK = r"""<style>#reward-display, #click-canvas { display: none !important; }</style>
<script>core.EPISODE_MAX_TIME = 2147483647;
window.addEventListener('load', function () {
  core.startEpisodeReal();
  console.log('utterance: ' + document.getElementById('query').textContent.replace(/\s+/g, ' ').trim());
});</script>"""
_VIEWPORT = '<meta name="viewport" content="width=160">'
_UTTERANCE = re.compile(r'"utterance: (.*)", source: ')
_REWARD = re.compile(r'"reward: ([^ ]*) \(raw: ([^)]*)\)", source: ')


def html_root() -> Path:
    """The MiniWoB++ pages of the ``miniwob`` package (the ``web`` extra)."""
    try:
        return Path(str(resources.files("miniwob") / "html"))
    except ModuleNotFoundError as error:
        raise AndroidGymError("MiniWoB++ needs the miniwob package: pip install 'android-gym[web]'") from error


def seeded_page(html: str, seed: int) -> str:
    """The task's page with MiniWoB's seed after ``core.js`` and the start hook before ``</body>``."""
    core = '<script src="../core/core.js"></script>'
    html = html.replace(core, core + _SEED_HOOK.format(seed=seed), 1).replace("<head>", "<head>" + _VIEWPORT, 1)
    return html.replace("</body>", _START_HOOK + "</body>", 1)


def last_reward(log: str) -> float | None:
    """The raw reward of the last ``reward: X (raw: Y)`` console line in ``log``; ``None`` when there is none."""
    found = _REWARD.findall(log)
    if not found:
        return None
    try:
        return float(found[-1][1])
    except ValueError:
        return None


def _class_name(task: str) -> str:
    return "MiniWob" + "".join(part.capitalize() for part in task.split("-"))


class MiniWobTask(Task):
    """One MiniWoB++ task in Chrome; ``miniwob_task`` names its page."""

    miniwob_task: ClassVar[str] = ""
    app_packages = (chrome.PACKAGE,)
    template = GOAL
    complexity = 3  # AndroidWorld: complexity 3 (30 steps)

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """MiniWoB's seed; the utterance is what the seeded page generates."""
        return {"seed": int(rng.integers(0, 2**31)), "utterance": ""}

    def clear_state(self, device: Device) -> None:
        """The log cleared, so only this episode's reward counts."""
        self.run(device, "logcat -c")

    def seed_state(self, device: Device) -> None:
        """Pages on the phone, the seeded task page opened in Chrome, the utterance read back."""
        root = html_root()
        if "core.js" not in device.shell(f"ls {PHONE_ROOT}/core").output:
            for folder in ("core", "common"):
                for path in sorted((root / folder).rglob("*")):
                    if path.is_file():
                        device.push(path.read_bytes(), f"{PHONE_ROOT}/{path.relative_to(root).as_posix()}")
        page = f"{PHONE_ROOT}/miniwob/{self.miniwob_task}.html"
        source = root / "miniwob" / f"{self.miniwob_task}.html"
        if not source.is_file():  # drag-item: AndroidWorld's MiniWoB++ build has it, the miniwob package does not
            raise AndroidGymError(f"the miniwob package has no page {source.name} (MiniWoB/{self.miniwob_task}-v0 "
                                  "cannot run)")
        html = source.read_text(encoding="utf-8")
        device.push(seeded_page(html, self.params["seed"]).encode(), page)
        self.run(device, f"am start -a android.intent.action.VIEW -d {shlex.quote('file://' + page)} "
                         f"-n {chrome.PACKAGE}/{chrome.MAIN_ACTIVITY}")
        for _ in range(_UTTERANCE_TRIES):
            found = _UTTERANCE.findall(self.run(device, "logcat -d -s chromium"))
            if found:
                self.params["utterance"] = found[-1]
                return
        raise AndroidGymError(f"the MiniWoB page {self.miniwob_task} logged no utterance")

    def is_successful(self, device: Device) -> float:
        """1.0 when MiniWoB's last reward in the log is raw 1."""
        return 1.0 if last_reward(device.shell("logcat -d -s chromium").output) == 1.0 else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """The task's oracle from ``miniwob_oracles`` (``NotImplementedError`` for tasks without one)."""
        from android_gym.envs.miniwob_oracles import ORACLES

        if self.miniwob_task not in ORACLES:
            raise NotImplementedError(f"no oracle for MiniWoB {self.miniwob_task}")
        return ORACLES[self.miniwob_task](self.params["utterance"])


_UTTERANCE_TRIES = 3
#: Task class by MiniWoB name.
MINIWOB_TASKS: dict[str, type[MiniWobTask]] = {}


def env_id(task: str) -> str:
    """``MiniWoB/<task>-v0``."""
    return f"{NAMESPACE}/{task}-v0"


def make_env(task: str, **env_kwargs: Any) -> AndroidEnv:
    """The env of the MiniWoB task ``task`` (``env_kwargs``: ``AndroidEnv``'s ``device``, ``pixels``, …)."""
    return AndroidEnv(MINIWOB_TASKS[task], **env_kwargs)


for _task in TASKS:
    MINIWOB_TASKS[_task] = type(_class_name(_task), (MiniWobTask,), {"name": _class_name(_task),
                                                                    "miniwob_task": _task})
    gym.registry.pop(env_id(_task), None)  # registered already from the catalogue's index: replaced silently
    gym.register(id=env_id(_task), entry_point=f"{__name__}:make_env", kwargs={"task": _task},
                 max_episode_steps=MiniWobTask.max_steps())
