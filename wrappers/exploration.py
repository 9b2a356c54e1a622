"""Visit-count exploration hints (AndroidArena §7.2): how often the agent has been on this screen and done that.

AndroidArena put "You have already been in the current state M times, and taken action A for N times" into
the prompt at every step (M(s) = visits of the state, N(s, a) = times action a was issued there; +27% success
on the Camera app for GPT-4). Counting needs keys that ignore what changes while nothing happens:

* a **state** is the foreground activity plus the sorted signatures of the kept nodes of the compressed UI
  (``android_gym.wrappers.compression``): class, resource-id, text, actions and the stable states
  checked/unchecked/selected. No bounds (scrolling by a pixel or another screen size changes nothing), no IDs,
  no focus (tapping into a field is not a new screen), no contents of text fields (typing is not a new
  screen), no "disabled" (a Send button enables as soon as text is typed). Times of day (``15:34``,
  ``3:34 PM``, a running stopwatch's ``00:05.32``) are masked by default, so the clock's minute changing is no
  new state; ``ignore_digits`` masks every number (relative times such as "5 min ago", counters), at the
  price of merging screens that differ only in a number (a timer being set, one phone number or another).
* an **action** is its type plus the signature of the kept node it targets (by index, or the top-most kept
  node under its x/y point), its direction, or the app's package (``"sms"`` and ``"messages"`` are one
  action). Text typed counts by field, not content: typing anything into the search field is one action. An
  action the env rejects is the action ``"invalid"``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import gymnasium as gym
from gymnasium import spaces

from android_gym.actions import DIRECTIONS, Action, ActionType, resolve_package, to_action
from android_gym.device.state import foreground_activity
from android_gym.env import to_ascii_xml
from android_gym.errors import AndroidGymError, DeviceError, InvalidActionError
from android_gym.spaces import SharedText
from android_gym.ui import UIElement
from android_gym.wrappers.compression import MAX_TEXT_CHARS, CompressedUI, UINode, step_compression

INVALID = "invalid"
#: States of a node that only change when the agent changes something (focus and "disabled" are left out).
STABLE_STATES = frozenset({"checked", "unchecked", "selected"})
#: A time of day or a stopwatch reading: 15:34, 3:34 PM, 3:34\u202fp.m., 00:05.32, 1:02:03.
TIME_OF_DAY = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:\s?[AaPp]\.?[Mm]\b\.?)?")
DIGITS = re.compile(r"\d+")
#: Longest element text quoted in a hint.
LABEL_CHARS = 48
_POINTING = (ActionType.CLICK, ActionType.DOUBLE_TAP, ActionType.LONG_PRESS)
#: Candidate verbs of a kept node, by the node's actions (checking a switch is a click).
_CANDIDATE_VERBS = (("click", ActionType.CLICK), ("check", ActionType.CLICK), ("long-click", ActionType.LONG_PRESS),
                    ("edit", ActionType.INPUT_TEXT), ("scroll", ActionType.SCROLL))


def _mask(text: str, ignore_times: bool, ignore_digits: bool) -> str:
    if ignore_times:
        text = TIME_OF_DAY.sub("<time>", text)
    return DIGITS.sub("#", text) if ignore_digits else text


def node_signature(node: UINode, *, ignore_times: bool = True, ignore_digits: bool = False) -> str:
    """The node as its compressed-UI line without the ID and volatile detail (field contents, focus, times)."""
    text = "" if "edit" in node.actions else _mask(node.text, ignore_times, ignore_digits)
    stable = tuple(state for state in node.states if state in STABLE_STATES)
    return replace(node, text=text, states=stable, children=[]).line(label="")


def state_key(compressed: CompressedUI, activity: str | None, *, ignore_times: bool = True,
              ignore_digits: bool = False) -> str:
    """A 16-hex-digit digest of the activity, the package and the sorted kept-node signatures (see the module
    docstring); the same screen gives the same key in every process."""
    signatures = sorted(node_signature(node, ignore_times=ignore_times, ignore_digits=ignore_digits)
                        for node in compressed.nodes.values())
    payload = json.dumps([activity or "", compressed.package, signatures]).encode("utf-8")
    return hashlib.blake2b(payload, digest_size=8).hexdigest()


@dataclass(frozen=True)
class _Target:
    """What an action did, resolved on the screen it was taken on."""

    verb: str                   # the action type, or "invalid"
    detail: str = ""            # scroll/swipe direction, goal status, or the package opened
    node: UINode | None = None  # the kept node acted on
    missed: bool = False        # pointed at a spot with no kept node under it

    def _phrase(self, name: Callable[[UINode], str], nowhere: str) -> str:
        head = " ".join(part for part in (self.verb, self.detail) if part)
        if self.node is not None:
            return f"{head} on {name(self.node)}"
        return f"{head} on {nowhere}" if self.missed else head

    def key(self, ignore_times: bool, ignore_digits: bool) -> str:
        """The counting key: the verb, its detail and the target's signature."""
        return self._phrase(lambda node: node_signature(node, ignore_times=ignore_times,
                                                        ignore_digits=ignore_digits), "nothing")

    def description(self) -> str:
        """Prompt text naming the target by its compressed-UI ID."""
        return "an invalid action" if self.verb == INVALID else self._phrase(_label, "an empty spot")


_INVALID = _Target(INVALID)


def _label(node: UINode) -> str:
    """``[id] class resource-id "text"``, the text shortened to ``LABEL_CHARS``."""
    text = node.text if len(node.text) <= LABEL_CHARS else node.text[:LABEL_CHARS - 3] + "..."
    return replace(node, text=text, actions=(), states=(), children=[]).line()


def _node_at(point: tuple[int, int], elements: Sequence[UIElement], compressed: CompressedUI) -> UINode | None:
    """The top-most kept node under ``point`` (the last in document order, as later nodes draw on top) that acts
    on touch, else the top-most of any: as on Android, a view that takes no touch lets it through."""
    hits = [node for node in compressed.nodes.values()
            if node.index < len(elements) and elements[node.index].bbox_pixels.contains(*point)]
    return max(hits, key=lambda node: (bool(node.actions), node.index), default=None)


def _point(action: Action, elements: Sequence[UIElement], screen_size: tuple[int, int]) -> tuple[int, int] | None:
    """Where the action lands (its element's centre or its x/y); ``None`` when it names neither."""
    if action.index is not None:
        if not 0 <= action.index < len(elements):
            raise InvalidActionError(f"index {action.index} is out of range")
        return elements[action.index].bbox_pixels.center
    if action.x is None or action.y is None:
        return None
    if not (0 <= action.x < screen_size[0] and 0 <= action.y < screen_size[1]):
        raise InvalidActionError(f"point ({action.x}, {action.y}) is off the screen")
    return action.x, action.y


def _target(action: Action, elements: Sequence[UIElement], compressed: CompressedUI,
            screen_size: tuple[int, int]) -> _Target:
    """The parsed action resolved on the screen; ``InvalidActionError`` when the env would reject it."""
    kind = action.action_type
    if kind is ActionType.UNKNOWN:
        raise InvalidActionError("action_type 'unknown' does nothing")
    if kind is ActionType.OPEN_APP:
        return _Target(kind.value, resolve_package(action.app_name or ""))
    detail = {ActionType.SCROLL: action.direction, ActionType.SWIPE: action.direction,
              ActionType.STATUS: action.goal_status}.get(kind) or ""
    if kind not in (*_POINTING, ActionType.SCROLL, ActionType.INPUT_TEXT):
        return _Target(kind.value, detail)
    by_index = {node.index: node for node in compressed.nodes.values()}
    point = _point(action, elements, screen_size)
    if point is not None:
        node = by_index.get(action.index) if action.index is not None else None
        node = node or _node_at(point, elements, compressed)
        return _Target(kind.value, detail, node, missed=node is None)
    if kind in _POINTING:
        raise InvalidActionError(f"{kind.value} needs an element index or both x and y")
    if kind is ActionType.INPUT_TEXT:  # typed into the focused field
        focused = next((by_index[element.index] for element in elements
                        if element.is_focused and element.index in by_index), None)
        return _Target(kind.value, detail, focused)
    return _Target(kind.value, detail)


def _resolve(action: Any, elements: Sequence[UIElement], compressed: CompressedUI,
             screen_size: tuple[int, int]) -> _Target:
    """The action in any form resolved on the screen; ``_INVALID`` when it cannot be carried out."""
    try:
        return _target(to_action(action, screen_size), elements, compressed, screen_size)
    except InvalidActionError:
        return _INVALID


def action_key(action: Any, elements: Sequence[UIElement], compressed: CompressedUI, *,
               screen_size: tuple[int, int], ignore_times: bool = True, ignore_digits: bool = False) -> str:
    """What taking ``action`` (any form ``AndroidEnv.step`` accepts) on this screen means, without volatile
    detail: e.g. ``click on TextView "SMS Messenger" <click,long-click>``, ``scroll down``, ``input_text on
    EditText top_toolbar_search <click,long-click,edit>`` (whatever the text), ``open_app
    com.android.settings``, ``navigate_back``; ``"invalid"`` when it cannot be carried out.

    ``elements`` are the screen's ``info["ui_elements"]`` and ``compressed`` its ``compress_ui``; ``screen_size``
    (width, height) turns a sample of the action space into pixels."""
    return _resolve(action, elements, compressed, screen_size).key(ignore_times, ignore_digits)


def _times(count: int) -> str:
    return "1 time" if count == 1 else f"{count} times"


@dataclass(frozen=True)
class _Screen:
    """One observed screen: its state key and what actions on it resolve against."""

    key: str
    compressed: CompressedUI
    elements: list[UIElement]


class VisitCountHintsError(AndroidGymError):
    """A ``VisitCountHints`` configuration that cannot work (a negative bonus, a key already in use, no device)."""


class VisitCountHints(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Counts visits of each state and actions taken in it, and tells the agent (AndroidArena's §7.2 hint).

    M(s) counts every observation of state s (the reset screen included); N(s, a) counts the times action a
    was issued in s. States and actions are keyed without volatile detail (see the module docstring). Counts
    persist across episodes until ``reset_counts()``.

    ## Observation Space
    The wrapped env's ``Dict`` plus ``key`` (default ``"exploration_hint"``): ``Text`` with the a11y tree's
    charset, e.g. ``You have already been in the current state 2 times (counting this visit), and taken your
    last action (click on [n5ba5] TextView "SMS Messenger") 1 time in the state where you took it.`` (after a
    reset only the first part). With ``per_candidate`` it goes on with one line per kept actionable node, by its
    compressed-UI ID, with the count of each of its actions in this state (``click``, ``long_press``,
    ``input_text``, ``scroll`` in any direction), and a last line for ``navigate_back``.

    ## Rewards
    With ``bonus`` β > 0, the count-based bonus β/√N(s, a) is added to the env's reward (N counting this step);
    an invalid action earns none (an RL policy would otherwise be paid for producing them in new states).

    ## Info
    ``info["visit_counts"] = {"state": key, "state_visits": M, "action": action key, "action_count": N}``
    (``action`` is ``None`` after a reset) and ``info["intrinsic_reward"]`` (0.0 with no bonus or after a reset).

    ## Arguments
    ``per_candidate``: list every candidate action's count. ``bonus``: β, 0 (default) for none. ``key``: the
    observation key. ``ignore_times``: mask times of day in texts (default on). ``ignore_digits``: mask every
    number (default off).
    """

    def __init__(self, env: gym.Env, per_candidate: bool = False, bonus: float = 0.0, key: str = "exploration_hint",
                 ignore_times: bool = True, ignore_digits: bool = False) -> None:
        gym.utils.RecordConstructorArgs.__init__(self, per_candidate=per_candidate, bonus=bonus, key=key,
                                                 ignore_times=ignore_times, ignore_digits=ignore_digits)
        super().__init__(env)
        if not isinstance(bonus, (int, float)) or not math.isfinite(bonus) or bonus < 0:
            raise VisitCountHintsError(f"bonus must be a finite number >= 0 (0 turns it off), got {bonus!r}")
        if not isinstance(env.observation_space, spaces.Dict) or "a11y_tree" not in env.observation_space.spaces \
                or not hasattr(env.unwrapped, "device"):
            raise VisitCountHintsError("VisitCountHints needs an android_gym env (an observation with 'a11y_tree' "
                                       "and a device)")
        if key in env.observation_space.spaces:
            raise VisitCountHintsError(f"the observation already has {key!r}; pass another key=")
        self.per_candidate, self.bonus, self.key = per_candidate, float(bonus), key
        self.ignore_times, self.ignore_digits = ignore_times, ignore_digits
        self.observation_space = spaces.Dict({
            **env.observation_space.spaces,
            key: SharedText(MAX_TEXT_CHARS, min_length=0, charset=env.observation_space["a11y_tree"].character_set),
        })
        self._visits: Counter[str] = Counter()
        self._taken: Counter[tuple[str, str]] = Counter()
        self._screen: _Screen | None = None
        self._screen_size = (0, 0)

    def state_visits(self, state: str) -> int:
        """M(s): how often state key ``state`` was observed."""
        return self._visits[state]

    def action_count(self, state: str, action: str) -> int:
        """N(s, a): how often action key ``action`` was issued in state key ``state``."""
        return self._taken[(state, action)]

    def reset_counts(self) -> None:
        """Forget every count (the next observation is a first visit)."""
        self._visits.clear()
        self._taken.clear()

    def reset(self, **kwargs: Any):
        """Reset the env, count the first screen and add the hint."""
        observation, info = self.env.reset(**kwargs)
        self._screen_size = self.env.unwrapped.device.screen_size
        screen = self._observe(observation, info)
        info["visit_counts"] = {"state": screen.key, "state_visits": self._visits[screen.key], "action": None,
                                "action_count": 0}
        info["intrinsic_reward"] = 0.0
        return self._with_hint(observation, screen, None, 0), info

    def step(self, action: Any):
        """Step the env, count the action in the state it was taken in and the state reached, add the hint."""
        before = self._screen
        if before is None:
            raise VisitCountHintsError("call reset() on the VisitCountHints wrapper before step()")
        observation, reward, terminated, truncated, info = self.env.step(action)
        target = _INVALID if info.get("invalid_action") else _resolve(action, before.elements, before.compressed,
                                                                      self._screen_size)
        taken_key = target.key(self.ignore_times, self.ignore_digits)
        self._taken[(before.key, taken_key)] += 1
        count = self._taken[(before.key, taken_key)]
        intrinsic = self.bonus / math.sqrt(count) if self.bonus > 0 and target is not _INVALID else 0.0
        screen = self._observe(observation, info)
        info["visit_counts"] = {"state": screen.key, "state_visits": self._visits[screen.key],
                                "action": taken_key, "action_count": count}
        info["intrinsic_reward"] = intrinsic
        if self.bonus > 0:
            reward = float(reward) + intrinsic
        return self._with_hint(observation, screen, target, count), reward, terminated, truncated, info

    def _activity(self, info: dict[str, Any]) -> str | None:
        """The foreground activity; ``None`` when the device failed (it is not asked again then)."""
        if info.get("backend_error"):
            return None
        try:
            return foreground_activity(self.env.unwrapped.device)
        except DeviceError:
            return None

    def _observe(self, observation: dict[str, Any], info: dict[str, Any]) -> _Screen:
        """Key the observed screen and count the visit."""
        compressed = step_compression(observation, info)
        key = state_key(compressed, self._activity(info), ignore_times=self.ignore_times,
                        ignore_digits=self.ignore_digits)
        self._visits[key] += 1
        self._screen = _Screen(key, compressed, list(info.get("ui_elements", [])))
        return self._screen

    def _count(self, state: str, verb: ActionType, node: UINode) -> int:
        """N(s, verb on node); a scroll in any direction."""
        details = DIRECTIONS if verb is ActionType.SCROLL else ("",)
        return sum(self.action_count(state, _Target(verb.value, detail, node).key(self.ignore_times,
                                                                                  self.ignore_digits))
                   for detail in details)

    def _candidates(self, screen: _Screen) -> list[str]:
        """One line per kept actionable node and one for BACK, with the counts in this state."""
        lines = ["How many times you have already taken each action available in the current state:"]
        for _, node in screen.compressed.walk():
            verbs = dict.fromkeys(verb for name, verb in _CANDIDATE_VERBS if name in node.actions)
            if verbs:
                counts = ", ".join(f"{verb.value} {_times(self._count(screen.key, verb, node))}" for verb in verbs)
                lines.append(f"{_label(node)}: {counts}")
        back = self.action_count(screen.key, ActionType.NAVIGATE_BACK.value)
        lines.append(f"{ActionType.NAVIGATE_BACK.value}: {_times(back)}")
        return lines

    def _with_hint(self, observation: dict[str, Any], screen: _Screen, target: _Target | None,
                   count: int) -> dict[str, Any]:
        """The observation with the hint text (ASCII: other characters as numeric character references)."""
        text = f"You have already been in the current state {_times(self._visits[screen.key])} (counting this visit)"
        if target is None:
            text += "."
        else:
            text += f", and taken your last action ({target.description()}) {_times(count)} in the state where " \
                    "you took it."
        if self.per_candidate:
            text = "\n".join([text, *self._candidates(screen)])
        return {**observation, self.key: to_ascii_xml(text)}
