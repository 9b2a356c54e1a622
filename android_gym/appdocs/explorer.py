"""AppAgent's exploration phase: an explorer acts in one app for N steps and every action on an element becomes
documentation of that element (``DocStore``), written from the screens before and after it.

``VisitCountExplorer`` picks, on each screen, among the actions on the app's elements the one tried least often
there (ties broken by its seeded generator), goes back when the screen stopped changing, and reopens the app
when it left it. ``explore`` plays it (or any ``Explorer``) on an ``AndroidEnv`` of one of the app's tasks, whose
setup fills the app with data worth exploring.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

import android_gym
from android_gym.actions import DIRECTIONS, KNOWN_APPS, Action, ActionType
from android_gym.appdocs.changes import DocWriter, RuleWriter, Snapshot
from android_gym.appdocs.store import DocStore, element_key, verb_of
from android_gym.env import AndroidEnv
from android_gym.errors import AppDocsError
from android_gym.ui import UIElement
from android_gym.wrappers.compression import compress_ui
from android_gym.wrappers.exploration import state_key

#: Text the explorer types into fields.
TYPED_TEXT = "test"
#: Steps without a change of screen after which the explorer goes back.
STUCK_STEPS = 3


def app_package(app: str) -> str:
    """The package of an app name (``markor``, ``pro expense``) or package; ``AppDocsError`` for an unknown app."""
    name = app.strip().lower()
    if name in KNOWN_APPS:
        return KNOWN_APPS[name]
    if app.strip() in KNOWN_APPS.values():
        return app.strip()
    names = sorted(set(KNOWN_APPS))
    raise AppDocsError(f"unknown app {app!r}; use an app name ({', '.join(names)}) or one of their packages")


def app_task(package: str) -> str:
    """The first registered task (by name) that works in ``package`` alone: the env ``explore`` runs in."""
    for name in android_gym.task_names():
        if tuple(android_gym.get_task(name).app_packages) == (package,):
            return name
    raise AppDocsError(f"no registered task uses only {package}, so no env sets it up for exploration")


class Documenter:
    """Steps an env and documents each action on an element of the apps of ``stores`` (package → store) with
    ``writer``; counts the distinct screens of those apps seen (``screens``: state keys of
    ``android_gym.wrappers.exploration``)."""

    def __init__(self, env: AndroidEnv, stores: dict[str, DocStore], writer: DocWriter | None = None) -> None:
        self.env, self.stores, self.writer = env, stores, writer or RuleWriter()
        self.screens: set[str] = set()
        self.activities: set[str] = set()
        self.learned = 0
        self.snapshot: Snapshot | None = None

    def observe(self, observation: dict[str, Any], info: dict[str, Any]) -> Snapshot:
        """Take the screen of ``observation`` as the one the next action acts on."""
        self.snapshot = Snapshot.take(self.env.device, info["ui_elements"])
        if self.snapshot.package in self.stores:
            self.activities.add(self.snapshot.activity)
            self.screens.add(state_key(compress_ui(observation["a11y_tree"]), self.snapshot.activity))
        return self.snapshot

    def step(self, action: Action) -> tuple[dict[str, Any], dict[str, Any], bool]:
        """Step the env with ``action`` and document it; returns the observation, info and whether the episode
        ended."""
        before = self.snapshot
        assert before is not None, "observe() first"
        observation, _, terminated, truncated, info = self.env.step(action)
        after = self.observe(observation, info)
        verb = verb_of(action)
        if verb and not info["invalid_action"] and before.package in self.stores:
            description = self.writer.describe(verb, before.elements[action.index], before, after)
            self.learned += self.stores[before.package].record(before.activity, before.elements, action.index, verb,
                                                               description)
        return observation, info, terminated or truncated


class Explorer(Protocol):
    """Chooses the next exploration action on a screen of the app being explored."""

    def act(self, snapshot: Snapshot, screen: str) -> Action:
        """The next action on ``snapshot`` (``screen``: its state key)."""


def element_actions(elements: Sequence[UIElement], package: str, screen_size: tuple[int, int]) -> list[Action]:
    """What an explorer can do to the app's on-screen elements: tap, long-press, type into, scroll."""
    width, height = screen_size
    actions: list[Action] = []
    for element in elements:
        x, y = element.bbox_pixels.center
        if (element.package_name != package or not element.is_enabled or element.bbox_pixels.area == 0
                or not (0 <= x < width and 0 <= y < height)):
            continue
        if element.is_editable:
            actions.append(Action(ActionType.INPUT_TEXT, index=element.index, text=TYPED_TEXT, clear_text=True))
        elif element.is_clickable or element.is_checkable:
            actions.append(Action(ActionType.CLICK, index=element.index))
        if element.is_long_clickable and not element.is_editable:
            actions.append(Action(ActionType.LONG_PRESS, index=element.index))
        if element.is_scrollable:
            actions += [Action(ActionType.SCROLL, index=element.index, direction=direction)
                        for direction in DIRECTIONS[:2]]
    return actions


class VisitCountExplorer:
    """The least-tried action on this screen (seeded ties), back when stuck, the app reopened when left."""

    def __init__(self, package: str, screen_size: tuple[int, int], seed: int | None = 0) -> None:
        self.package, self.screen_size = package, screen_size
        self.rng = np.random.default_rng(seed)
        self.tried: Counter[tuple[str, str]] = Counter()
        self._last: tuple[str, int] = ("", 0)

    def _key(self, action: Action, elements: Sequence[UIElement]) -> str:
        target = element_key(elements[action.index], elements) if action.index is not None else ""
        return f"{action.action_type.value} {action.direction or ''} {target}"

    def act(self, snapshot: Snapshot, screen: str) -> Action:
        """Reopen the app if it is not in front; go back after ``STUCK_STEPS`` steps on an unchanged screen;
        else the least-tried element action (or back, which counts as one)."""
        if snapshot.package != self.package:
            self._last = ("", 0)
            return Action(ActionType.OPEN_APP, app_name=self.package)
        same = self._last[1] + 1 if self._last[0] == screen else 1
        self._last = (screen, same)
        back = Action(ActionType.NAVIGATE_BACK)
        if same > STUCK_STEPS:
            self._last = ("", 0)
            return back
        candidates = [*element_actions(snapshot.elements, self.package, self.screen_size), back]
        counts = [self.tried[screen, self._key(action, snapshot.elements)] for action in candidates]
        fewest = [action for action, count in zip(candidates, counts) if count == min(counts)]
        choice = fewest[int(self.rng.integers(len(fewest)))]
        self.tried[screen, self._key(choice, snapshot.elements)] += 1
        return choice


@dataclass
class ExploreReport:
    """What an exploration did: steps, distinct screens and activities of the app, elements documented."""

    package: str
    steps: int
    screens: int
    activities: list[str] = field(default_factory=list)
    elements: int = 0
    entries: int = 0

    def summary(self) -> str:
        """One line for the command line."""
        return (f"{self.package}: {self.steps} steps, {self.screens} screens ({len(self.activities)} activities), "
                f"{self.elements} elements documented ({self.entries} entries)")


def explore(app: str, steps: int, *, seed: int = 0, device: Any = "sim", writer: DocWriter | None = None,
            explorer: Explorer | None = None) -> tuple[DocStore, ExploreReport]:
    """Explore ``app`` for ``steps`` steps from the state its first task sets up (seed ``seed``); the explorer
    defaults to a ``VisitCountExplorer`` seeded with ``seed``. Returns the documents and the coverage."""
    package = app_package(app)
    env = AndroidEnv(app_task(package), device=device, pixels=False)
    store = DocStore(package)
    try:
        documenter = Documenter(env, {package: store}, writer)
        explorer = explorer or VisitCountExplorer(package, env.device.screen_size, seed)
        observation, info = env.reset(seed=seed)
        snapshot = documenter.observe(observation, info)
        episode = 0
        for _ in range(steps):
            screen = state_key(compress_ui(observation["a11y_tree"]), snapshot.activity)
            observation, info, ended = documenter.step(explorer.act(snapshot, screen))
            if ended:  # the explorer happened to finish the task: start over from a fresh setup
                episode += 1
                observation, info = env.reset(seed=seed + episode)
                documenter.observe(observation, info)
            snapshot = documenter.snapshot
    finally:
        env.close()
    entries = sum(len(doc.docs) for docs in store.screens.values() for doc in docs.values())
    return store, ExploreReport(package, steps, len(documenter.screens), sorted(documenter.activities), len(store),
                                entries)
