"""Discrete action adapters for RL: one action per on-screen element (``ElementActions``, with an action mask for
sb3-contrib's MaskablePPO) and AndroidEnv's discretised touch grid (``TouchGridActions``).

Both turn an integer into an env ``Action``; an integer that names nothing (out of range, or masked out: an empty
element slot, a text the task does not have) becomes an ``InvalidAction`` the env reports in
``info["invalid_action"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from android_gym.actions import (
    DIRECTIONS,
    KNOWN_APPS,
    MAX_TEXT_LENGTH,
    Action,
    ActionType,
    InvalidAction,
    resolve_package,
)
from android_gym.errors import AndroidGymError, InvalidActionError
from android_gym.ui import UIElement

#: The apps ``ElementActions`` can open by default: every package ``open_app`` knows by name.
DEFAULT_APPS = tuple(dict.fromkeys(KNOWN_APPS.values()))
_KEYS = {"back": Action(ActionType.NAVIGATE_BACK), "home": Action(ActionType.NAVIGATE_HOME),
         "enter": Action(ActionType.KEYBOARD_ENTER), "complete": Action(ActionType.STATUS, goal_status="complete")}


class AdapterConfigError(AndroidGymError):
    """An RL adapter given a configuration it cannot work with (a non-positive size, an env without pixels)."""


def require_sizes(minimum: int, **sizes: Any) -> None:
    """Raise ``AdapterConfigError`` unless every size is an integer of at least ``minimum``."""
    for name, size in sizes.items():
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < minimum:
            raise AdapterConfigError(f"{name} must be an integer of at least {minimum}, got {size!r}")


def screen_size(env: gym.Env) -> tuple[int, int]:
    """``(width, height)`` of the device under ``env``."""
    return env.unwrapped.device.screen_size


def action_slots(elements: Sequence[UIElement], size: tuple[int, int], k: int) -> list[UIElement]:
    """The first ``k`` actionable elements (document order) with a non-empty box whose centre is on screen.

    Slot ``i`` is ``action_slots(...)[i]``; the action and the observation adapters both use this.
    """
    width, height = size

    def on_screen(element: UIElement) -> bool:
        x, y = element.bbox_pixels.center
        return element.bbox_pixels.area > 0 and 0 <= x < width and 0 <= y < height

    return [element for element in elements if element.is_actionable and on_screen(element)][:k]


def element_label(element: UIElement, elements: Sequence[UIElement]) -> str:
    """The element's text or content description, else its descendants' labels joined (a list row's title and
    summary); ``elements`` is the whole ``info["ui_elements"]`` list the element comes from."""
    if element.label:
        return element.label
    labels = []
    for other in elements[element.index + 1:]:
        if other.depth <= element.depth:
            break
        if other.label:
            labels.append(other.label)
    return " ".join(labels)


def _typeable(value: Any) -> Iterator[str]:
    """The strings and integers (not booleans) in a parameter value, nested mappings by sorted key."""
    if isinstance(value, Mapping):
        for key in sorted(value, key=str):
            yield from _typeable(value[key])
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _typeable(item)
    elif isinstance(value, str):
        yield value
    elif isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        yield str(value)


def task_texts(params: Mapping[str, Any], slots: int) -> list[str]:
    """The task's typeable parameter values (``info["params"]``): strings and integers, in sorted key-path order
    (a composite's parts flattened), without empty or over-long ones and without repeats; the first ``slots``."""
    texts = (text for text in _typeable(params) if 0 < len(text) <= MAX_TEXT_LENGTH)
    return list(dict.fromkeys(texts))[:slots]


def can_tap(element: UIElement) -> bool:
    """Whether a tap on the element does something: clickable, checkable or a text field."""
    return element.is_clickable or element.is_checkable or element.is_editable


def can_long_press(element: UIElement) -> bool:
    """Whether a long press on the element does something: long-clickable or a text field."""
    return element.is_long_clickable or element.is_editable


def _hit(point: tuple[int, int], elements: Sequence[UIElement],
         accepts: Callable[[UIElement], bool]) -> UIElement | None:
    """The element a touch at ``point`` reaches: the last (top-most) in document order that contains it and accepts
    the gesture, as Android hands a touch to the deepest view under the finger that handles it."""
    found = None
    for element in elements:
        if accepts(element) and element.bbox_pixels.contains(*point):
            found = element
    return found


class ActionLayout:
    """Consecutive ranges of discrete action ids, one range per kind of action (``layout["tap"][3]``)."""

    def __init__(self, sizes: Sequence[tuple[str, int]]) -> None:
        self.ranges: dict[str, range] = {}
        start = 0
        for kind, size in sizes:
            self.ranges[kind] = range(start, start + size)
            start += size
        self.n = start

    def __getitem__(self, kind: str) -> range:
        return self.ranges[kind]

    def locate(self, action: Any) -> tuple[str, int] | None:
        """``(kind, position within the kind)`` of an action id (an int or integer array of one element), or
        ``None`` when ``action`` is not an id of this layout."""
        value = np.asarray(action)
        if value.size != 1 or not np.issubdtype(value.dtype, np.integer):
            return None
        number = int(value.reshape(()))
        for kind, ids in self.ranges.items():
            if number in ids:
                return kind, number - ids.start
        return None

    def invalid(self, action: Any) -> InvalidAction:
        """The report for something that is not an action id."""
        return InvalidAction(f"the action must be an integer in [0, {self.n}), got {str(action)[:40]}")


class _Screen(NamedTuple):
    """What the element actions refer to on the current screen."""

    slots: list[UIElement]
    labels: list[str]
    texts: list[str]
    typing_slot: int | None  # the slot typed into: the focused text field, else the first one


class ElementActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """A ``Discrete`` action space over the screen's actionable elements, with an action mask.

    ## Action Space
    ``Discrete(2K + 7 + P + A + 1)``, in this order (``self.layout[kind]`` is each kind's range of ids):
    ``tap`` slot 0..K-1, ``long_press`` slot 0..K-1, ``back``, ``home``, ``enter``, ``scroll`` up/down/left/right
    (the whole screen, AndroidWorld's scroll), ``type`` text 0..P-1, ``open_app`` 0..A-1, ``complete``.
    Slots are ``action_slots(info["ui_elements"], screen, K)``. Text k is ``task_texts(info["params"], P)[k]``,
    typed (AndroidWorld's ``input_text``: tap, type, ENTER) into the focused text field, else the first one on
    screen. App j is ``apps[j]`` (default: the apps ``open_app`` knows).

    ``action_masks()`` (what MaskablePPO calls) and ``info["action_mask"]`` say which ids do something now: a
    tap on a clickable, checkable or editable slot, a long press on a long-clickable or editable one, typing a
    text the task has while a text field is on screen, and every key, scroll, app and ``complete``. A masked-out
    or out-of-range id is passed on as an ``InvalidAction`` and lands in ``info["invalid_action"]``.

    ``describe(id)`` names an action for logs; ``encode(action, elements)`` maps an env ``Action`` (an oracle's)
    to the id that does the same, for behaviour cloning.
    """

    def __init__(self, env: gym.Env, max_elements: int = 32, text_slots: int = 4,
                 apps: Sequence[str] | None = None) -> None:
        apps = DEFAULT_APPS if apps is None else tuple(apps)
        require_sizes(1, max_elements=max_elements)
        require_sizes(0, text_slots=text_slots)
        gym.utils.RecordConstructorArgs.__init__(self, max_elements=max_elements, text_slots=text_slots, apps=apps)
        gym.Wrapper.__init__(self, env)
        self.max_elements, self.text_slots, self.apps = max_elements, text_slots, apps
        self.layout = ActionLayout([("tap", max_elements), ("long_press", max_elements), ("back", 1), ("home", 1),
                                    ("enter", 1), ("scroll", len(DIRECTIONS)), ("type", text_slots),
                                    ("open_app", len(apps)), ("complete", 1)])
        self.action_space = spaces.Discrete(self.layout.n)
        self._size = screen_size(env)
        self._screen = _Screen([], [], [], None)
        self._mask = np.zeros(self.layout.n, dtype=bool)

    # ----- gymnasium ---------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset and read the new screen's slots and the task's texts."""
        observation, info = self.env.reset(seed=seed, options=options)
        return observation, self._update(info)

    def step(self, action: Any):
        """Step the env with the ``Action`` the id stands for (an ``InvalidAction`` if it stands for none)."""
        located = self.layout.locate(action)
        inner = self.layout.invalid(action) if located is None else self._decode(*located, self._screen)
        observation, reward, terminated, truncated, info = self.env.step(inner)
        return observation, reward, terminated, truncated, self._update(info)

    def action_masks(self) -> np.ndarray:
        """Which action ids do something on the current screen (bool array of ``action_space.n``)."""
        return self._mask.copy()

    # ----- for people and demonstrations ---------------------------------------------------------------------
    def describe(self, action: int) -> str:
        """The action an id stands for on the current screen, e.g. ``"tap [3] Button 'Send'"``."""
        located = self.layout.locate(action)
        if located is None:
            return f"not an action: {str(action)[:40]}"
        kind, arg = located
        screen = self._screen
        if kind in ("tap", "long_press"):
            return f"{kind.replace('_', '-')} {self._slot_name(arg)}"
        if kind == "scroll":
            return f"scroll {DIRECTIONS[arg]}"
        if kind == "type":
            text = repr(screen.texts[arg]) if arg < len(screen.texts) else "(no such text)"
            into = "" if screen.typing_slot is None else f" into {self._slot_name(screen.typing_slot)}"
            return f"type {text}{into}"
        if kind == "open_app":
            return f"open app {self.apps[arg]}"
        return "status complete" if kind == "complete" else kind

    def encode(self, action: Action | str | Mapping[str, Any], elements: Sequence[UIElement]) -> int | None:
        """The id that performs ``action`` on the screen ``elements``, or ``None`` when no id does.

        Matched: a click / long press by index on a slot (or on an element inside one, when the touch at its
        centre and at the slot's centre both reach that slot), back, home, enter, a whole-screen scroll, typing
        one of the task's texts into the field typing goes to, opening one of ``apps``, ``status complete``.
        Texts are those of the current task (the last reset or step).
        """
        screen = self._read_screen(elements, self._screen.texts)
        try:
            target = self._canonical(Action.parse(action), screen, elements)
        except InvalidActionError:
            return None
        return next((index for index in range(self.layout.n)
                     if self._decode(*self.layout.locate(index), screen) == target), None)

    # ----- internals ---------------------------------------------------------------------------------------
    def _update(self, info: dict[str, Any]) -> dict[str, Any]:
        self._screen = self._read_screen(info.get("ui_elements", []),
                                         task_texts(info.get("params", {}), self.text_slots))
        self._mask = np.array([isinstance(self._decode(*self.layout.locate(index), self._screen), Action)
                               for index in range(self.layout.n)], dtype=bool)
        return {**info, "action_mask": self._mask.copy()}

    def _read_screen(self, elements: Sequence[UIElement], texts: list[str]) -> _Screen:
        slots = action_slots(elements, self._size, self.max_elements)
        fields = [i for i, slot in enumerate(slots) if slot.is_editable]
        focused = [i for i in fields if slots[i].is_focused]
        return _Screen(slots, [element_label(slot, elements) for slot in slots], texts,
                       (focused or fields or [None])[0])

    def _slot_name(self, position: int) -> str:
        screen = self._screen
        if position >= len(screen.slots):
            return f"[{position}] (empty)"
        return f"[{position}] {screen.slots[position].class_name.rsplit('.', 1)[-1]} {screen.labels[position]!r}"

    def _decode(self, kind: str, arg: int, screen: _Screen) -> Action | InvalidAction:
        if kind in ("tap", "long_press"):
            if arg >= len(screen.slots):
                return InvalidAction(f"{kind} slot {arg} is empty: the screen has {len(screen.slots)} actionable "
                                     "element(s)")
            slot = screen.slots[arg]
            if not (can_tap if kind == "tap" else can_long_press)(slot):
                return InvalidAction(f"{kind} slot {arg} ({screen.labels[arg]!r}) does not take a {kind}")
            return Action(ActionType.CLICK if kind == "tap" else ActionType.LONG_PRESS, index=slot.index)
        if kind == "scroll":
            return Action(ActionType.SCROLL, direction=DIRECTIONS[arg])
        if kind == "type":
            if arg >= len(screen.texts):
                return InvalidAction(f"the task has {len(screen.texts)} text(s) to type; there is no text {arg}")
            if screen.typing_slot is None:
                return InvalidAction("there is no text field on screen to type into")
            return Action(ActionType.INPUT_TEXT, index=screen.slots[screen.typing_slot].index, text=screen.texts[arg])
        if kind == "open_app":
            return Action(ActionType.OPEN_APP, app_name=self.apps[arg])
        return _KEYS[kind]

    def _canonical(self, action: Action, screen: _Screen, elements: Sequence[UIElement]) -> Action:
        """``action`` written the way ``_decode`` writes the same action, where there is one."""
        action = replace(action, clear_text=action.clear_text or None)
        kind = action.action_type
        if kind is ActionType.OPEN_APP:
            return replace(action, app_name=resolve_package(action.app_name or ""))
        if kind in (ActionType.CLICK, ActionType.LONG_PRESS) and action.index is not None \
                and 0 <= action.index < len(elements):
            accepts = can_tap if kind is ActionType.CLICK else can_long_press
            element = elements[action.index]
            if element in screen.slots and accepts(element):
                return action
            # the element the touch reaches among *all* elements: an accepting element beyond the K slots must not
            # pass for the slot around it (tapping that slot's centre would touch something else)
            slot = _hit(element.bbox_pixels.center, elements, accepts)
            if slot in screen.slots and _hit(slot.bbox_pixels.center, elements, accepts) is slot:
                return replace(action, index=slot.index)
        if kind is ActionType.INPUT_TEXT and action.index is None and action.x is None \
                and screen.typing_slot is not None and screen.slots[screen.typing_slot].is_focused:
            return replace(action, index=screen.slots[screen.typing_slot].index)
        return action


class TouchGridActions(gym.ActionWrapper, gym.utils.RecordConstructorArgs):
    """AndroidEnv's discretised touch (its ``DiscreteActionWrapper``, default grid 10 × 10): the screen cut into
    ``grid = (rows, columns)`` cells, numbered row by row.

    ## Action Space
    ``Discrete(R·C [+ R·C] + 2 + 4)``: ``tap`` at each cell's centre, ``long_press`` at each (if ``long_press``),
    ``back``, ``home``, and ``swipe`` up/down/left/right (AndroidWorld's edge-to-edge swipe). Cell centres are
    normalized positions scaled to the device's screen, so the same id means the same place on any resolution.
    Unlike AndroidEnv, the touch point is the exact centre (no random jitter: episodes stay deterministic).
    """

    def __init__(self, env: gym.Env, grid: tuple[int, int] = (10, 10), long_press: bool = True) -> None:
        try:
            rows, columns = grid
        except (TypeError, ValueError):
            raise AdapterConfigError(f"grid must be (rows, columns), got {grid!r}") from None
        require_sizes(1, grid_rows=rows, grid_columns=columns)
        gym.utils.RecordConstructorArgs.__init__(self, grid=(rows, columns), long_press=long_press)
        gym.ActionWrapper.__init__(self, env)
        self.grid = (rows, columns)
        cells = rows * columns
        self.layout = ActionLayout([("tap", cells), ("long_press", cells if long_press else 0), ("back", 1),
                                    ("home", 1), ("swipe", len(DIRECTIONS))])
        self.action_space = spaces.Discrete(self.layout.n)
        self._size = screen_size(env)

    def point(self, cell: int) -> tuple[int, int]:
        """The device pixel at the centre of ``cell`` (row-major)."""
        rows, columns = self.grid
        row, column = divmod(cell, columns)
        width, height = self._size
        return min(int((column + 0.5) / columns * width), width - 1), min(int((row + 0.5) / rows * height),
                                                                           height - 1)

    def action(self, action: Any) -> Action | InvalidAction:
        """The env action an id stands for."""
        located = self.layout.locate(action)
        if located is None:
            return self.layout.invalid(action)
        kind, arg = located
        if kind in ("tap", "long_press"):
            x, y = self.point(arg)
            return Action(ActionType.CLICK if kind == "tap" else ActionType.LONG_PRESS, x=x, y=y)
        if kind == "swipe":
            return Action(ActionType.SWIPE, direction=DIRECTIONS[arg])
        return _KEYS[kind]
