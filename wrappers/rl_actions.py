"""Discrete action adapters for RL: one action per on-screen element (``ElementActions``, with an action mask for
sb3-contrib's MaskablePPO) and AndroidEnv's discretised touch grid (``TouchGridActions``).

Both turn an integer into an env ``Action``; an integer that names nothing (out of range, or masked out: an empty
element slot, a text the agent has not seen) becomes an ``InvalidAction`` the env reports in
``info["invalid_action"]``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from android_gym.actions import (
    DIRECTIONS,
    KNOWN_APPS,
    Action,
    ActionType,
    InvalidAction,
    resolve_package,
)
from android_gym.errors import AndroidGymError, InvalidActionError
from android_gym.ui import UIElement
from android_gym.wrappers.rl_dates import date_time_answer, read_date, read_time
from android_gym.wrappers.rl_screen import RLScreen, ScreenReader, format_number, is_slider, number_value
from android_gym.wrappers.rl_texts import Piece

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


def can_tap(element: UIElement) -> bool:
    """Whether a tap on the element does something: clickable, checkable or a text field."""
    return element.is_clickable or element.is_checkable or element.is_editable


def can_long_press(element: UIElement) -> bool:
    """Whether a long press on the element may do something: long-clickable, a text field, or clickable (lists
    that select an item on a long press, as DocumentsUI's, often do not mark it long-clickable)."""
    return element.is_long_clickable or element.is_editable or element.is_clickable


def can_drag(element: UIElement) -> bool:
    """Whether a drag on the element does something: a list scrolls, a slider seeks, a clickable row follows it."""
    return element.is_scrollable or element.is_clickable or is_slider(element)


def _hit(point: tuple[int, int], elements: Sequence[UIElement],
         accepts: Callable[[UIElement], bool]) -> UIElement | None:
    """The element a touch at ``point`` reaches: the last (top-most) in document order that contains it and accepts
    the gesture, as Android hands a touch to the deepest view under the finger that handles it."""
    found = None
    for element in elements:
        if accepts(element) and element.bbox_pixels.contains(*point):
            found = element
    return found


#: The kinds of ids that act on an element slot, first in ``ElementActions``' layout, and each one's ids per slot
#: (slot ``i``'s ids of a kind are ``start + per_slot · i + j``).
SLOT_KINDS = (("tap", 1), ("long_press", 1), ("long_press_start", 1), ("drag", len(DIRECTIONS)))


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

    def span(self, kind: str, count: int | None = None) -> slice:
        """The ids of ``kind`` (its first ``count``) as a slice, to index an array of all ids with."""
        ids = self.ranges[kind]
        return slice(ids.start, ids.stop if count is None else ids.start + min(count, len(ids)))

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


#: Answer pieces a composed answer can gather; integers ``answer_number`` can give (0 … ``NUMBERS - 1``).
NUMBERS = 21


def _press_start(element: UIElement) -> tuple[int, int]:
    """The point just inside the element's top-left corner (in a text field: before the first character)."""
    box = element.bbox_pixels
    return max(box.x_min, 0) + 1, max(box.y_min, 0) + 1


class ElementActions(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """A ``Discrete`` action space in which every step a person takes on the phone has an id, with an action mask.

    ## Action Space
    ``Discrete(n)``; ``self.layout[kind]`` is each kind's range of ids, in this order (K = ``max_elements``,
    T = ``text_slots``, A = ``len(apps)``, N = ``NUMBERS``):

    =====================  =====  ===============================================================================
    kind                   ids    does
    =====================  =====  ===============================================================================
    ``tap``                K      tap slot i (its centre)
    ``long_press``         K      long-press slot i (its centre)
    ``long_press_start``   K      long-press just inside slot i's top-left corner (a text field's caret → start)
    ``drag``               4K     drag slot i: id ``start + 4·i + d``, d = up/down/left/right (AndroidWorld's
                                  ``scroll`` on an element: a list scrolls, a slider or a row follows the finger)
    ``scroll``             4      scroll the whole screen up/down/left/right
    ``swipe``              4      swipe edge to edge up/down/left/right (``down`` pulls the notification shade)
    ``back/home/enter``    1 each the keys
    ``type``               T      type text j, then ENTER: at the caret of the focused field, else into the first
                                  text field on screen (tapped first)
    ``replace``            T      the same, clearing the field first
    ``open_app``           A      open app j
    ``answer_yes/no``      1 each answer "yes" / "no"
    ``answer_number``      N      answer the integer n
    ``answer_text``        T      answer with text j
    ``collect``            T      add text j to the answer being composed (the phone waits one step)
    ``answer_collected``   1      answer with the collected texts joined by ", "
    ``answer_sum``         1      answer with the sum of the collected numbers
    ``answer_date_time``   1      answer with the collected date and time of day as "October 24 2023 20:00"
                                  (``rl_dates``: a date shown without its year is this year's)
    ``complete``           1      declare the task done
    =====================  =====  ===============================================================================

    Slots are ``action_slots(info["ui_elements"], screen, K)``: actionable elements and sliders in document order.
    Texts come only from what the agent sees (``rl_screen.ScreenReader``): pieces of the goal, of the current
    screen's texts and of the texts on earlier screens of the episode — never the task's hidden parameters.

    ``action_masks()`` (what MaskablePPO calls) and ``info["action_mask"]`` say which ids do something now: a tap on
    a clickable, checkable or editable slot; a long press on a long-clickable, clickable or editable one; a drag on a
    scrollable, clickable or slider slot; typing an existing text while a text field is on screen; answers only
    when the goal asks a question (``answers=None``; ``True``/``False`` force them), composing ones only with
    something collected (numbers only for the sum); keys, screen scrolls and swipes, apps and ``complete`` always.
    A masked-out or out-of-range id is passed on as an ``InvalidAction`` and lands in ``info["invalid_action"]``.

    ## Rewards
    The env's (the increase of the task score), minus ``end_penalty`` when the agent ends the episode itself
    (``complete`` or an answer) without success: giving up early is never free, so a fresh policy does not learn
    to end every episode at once. ``end_penalty=0`` gives AndroidWorld's reward.

    ``describe(id)`` names an action for logs; ``encode(action, elements)`` maps an env ``Action`` (an oracle's) to
    the ids that do the same — usually one, two for typing into a field without focus (tap, type; one when no field
    has focus and it is the first text field, which a type id taps itself) or for a text ending in newlines (type,
    ENTER…), several for a composed answer (collect…, answer). A drag on a surface that is no slot but covers the
    screen's centre (a canvas, a camera preview) is the whole-screen ``scroll``.
    """

    def __init__(self, env: gym.Env, max_elements: int = 64, text_slots: int = 96,
                 apps: Sequence[str] | None = None, answers: bool | None = None, end_penalty: float = 0.1) -> None:
        apps = DEFAULT_APPS if apps is None else tuple(apps)
        require_sizes(1, max_elements=max_elements)
        require_sizes(0, text_slots=text_slots)
        if not (isinstance(end_penalty, (int, float)) and np.isfinite(end_penalty) and end_penalty >= 0):
            raise AdapterConfigError(f"end_penalty must be a number of at least 0, got {end_penalty!r}")
        gym.utils.RecordConstructorArgs.__init__(self, max_elements=max_elements, text_slots=text_slots, apps=apps,
                                                 answers=answers, end_penalty=end_penalty)
        gym.Wrapper.__init__(self, env)
        self.max_elements, self.text_slots, self.apps = max_elements, text_slots, apps
        self.end_penalty = float(end_penalty)
        k, t = max_elements, text_slots
        self.layout = ActionLayout([
            *((kind, per_slot * k) for kind, per_slot in SLOT_KINDS), ("scroll", 4), ("swipe", 4),
            ("back", 1), ("home", 1), ("enter", 1), ("type", t), ("replace", t), ("open_app", len(apps)),
            ("answer_yes", 1), ("answer_no", 1), ("answer_number", NUMBERS), ("answer_text", t), ("collect", t),
            ("answer_collected", 1), ("answer_sum", 1), ("answer_date_time", 1), ("complete", 1)])
        self.action_space = spaces.Discrete(self.layout.n)
        width, height = screen_size(env)
        self._centre = (width // 2, height // 2)
        self._reader = ScreenReader((width, height), max_elements, text_slots, answers)
        self.rl_screen = RLScreen()
        self._mask = np.zeros(self.layout.n, dtype=bool)
        self._always = np.zeros(self.layout.n, dtype=bool)  # the ids that do something on any screen
        for kind in ("scroll", "swipe", "back", "home", "enter", "open_app", "complete"):
            self._always[self.layout.span(kind)] = True
        self._year: int | None = None

    # ----- gymnasium ---------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset; read the goal's texts and the first screen."""
        observation, info = self.env.reset(seed=seed, options=options)
        width, height = self._reader.size = screen_size(self.env)  # a device configuration may change it
        self._centre = (width // 2, height // 2)
        self._reader.start(observation.get("goal", "") if isinstance(observation, Mapping) else "")
        self._year = None
        return observation, self._update(info, [])

    def step(self, action: Any):
        """Step the env with the ``Action`` the id stands for (an ``InvalidAction`` if it stands for none)."""
        located = self.layout.locate(action)
        inner = self.layout.invalid(action) if located is None else self._decode(*located, self.rl_screen)
        collected = list(self.rl_screen.collected)
        if located is not None and located[0] == "collect" and isinstance(inner, Action):
            collected.append(self.rl_screen.texts[located[1]].text)
        observation, reward, terminated, truncated, info = self.env.step(inner)
        if isinstance(inner, Action) and inner.ends_episode and info.get("invalid_action") is None \
                and info.get("score", 0.0) < 1.0:
            reward = float(reward) - self.end_penalty
        return observation, reward, terminated, truncated, self._update(info, collected)

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
        screen = self.rl_screen
        if kind in ("tap", "long_press", "long_press_start"):
            return f"{kind.replace('_', '-')} {self._slot_name(arg)}"
        if kind == "drag":
            return f"drag {self._slot_name(arg // 4)} {DIRECTIONS[arg % 4]}"
        if kind in ("scroll", "swipe"):
            return f"{kind} {DIRECTIONS[arg]}"
        if kind in ("type", "replace", "answer_text", "collect"):
            text = repr(screen.texts[arg].text) if arg < len(screen.texts) else "(no such text)"
            return f"{kind.replace('_', ' ')} {text}"
        if kind == "open_app":
            return f"open app {self.apps[arg]}"
        if kind == "answer_number":
            return f"answer {arg}"
        return kind.replace("_", " ")

    def encode(self, action: Action | str | Mapping[str, Any],
               elements: Sequence[UIElement]) -> tuple[int, ...] | None:
        """The ids that perform ``action`` on the screen ``elements`` (the current step's), or ``None``.

        A tap or long press (by index or point) maps to the slot the touch reaches, when a touch at that slot's
        centre reaches it too (a long press at an element's top-left corner to ``long_press_start``); a scroll of an
        element to ``drag``; typing to ``type``/``replace`` of the same text (after a ``tap`` when the field has no
        focus and is not the one the type id taps, before an ``enter`` per trailing newline); an answer to yes/no, a
        number, one text, the texts it lists, or numbers on screen that sum to it; keys, screen scrolls, swipes,
        apps, ``complete``.
        """
        try:
            action = Action.parse(action)
        except InvalidActionError:
            return None
        screen = self._reader.peek(elements, self.rl_screen.collected)
        kind, layout = action.action_type, self.layout
        if kind in (ActionType.CLICK, ActionType.LONG_PRESS):
            return self._encode_touch(action, screen, elements)
        if kind is ActionType.SCROLL and action.direction in DIRECTIONS:
            direction = DIRECTIONS.index(action.direction)
            if action.index is None:
                return (layout["scroll"][direction],)
            element = _element_at(elements, action.index)
            slot = self._touched_slot(element, None, screen, elements, can_drag)
            if slot is None and element is not None and element.bbox_pixels.contains(*self._centre):
                return (layout["scroll"][direction],)  # a surface that is no slot (a canvas, a camera preview)
            return None if slot is None else (layout["drag"][4 * slot + direction],)
        if kind is ActionType.SWIPE and action.direction in DIRECTIONS:
            return (layout["swipe"][DIRECTIONS.index(action.direction)],)
        if kind is ActionType.INPUT_TEXT:
            return self._encode_typing(action, screen, elements)
        if kind is ActionType.ANSWER:
            return self._encode_answer(action.text or "", screen)
        if kind is ActionType.OPEN_APP:
            try:
                package = resolve_package(action.app_name or "")
            except InvalidActionError:
                return None
            return (layout["open_app"][self.apps.index(package)],) if package in self.apps else None
        simple = {ActionType.NAVIGATE_BACK: "back", ActionType.NAVIGATE_HOME: "home",
                  ActionType.KEYBOARD_ENTER: "enter"}
        if kind in simple:
            return (layout[simple[kind]][0],)
        if kind is ActionType.STATUS and action.goal_status == "complete":
            return (layout["complete"][0],)
        return None

    def encode_next(self, action: Action | str | Mapping[str, Any],
                    elements: Sequence[UIElement]) -> tuple[int, list[Action]] | None:
        """The first id that performs ``action`` on the screen ``elements`` and the actions that remain after it
        (to encode on the screen that id leads to), or ``None`` when no id does. Play an action with it:
        ``encode``'s later ids are only right if the screen does not change (a tap focuses a field and the texts
        on screen change, so the text's id must be read after the tap)."""
        ids = self.encode(action, elements)
        if ids is None:
            return None
        first, kind = ids[0], self.layout.locate(ids[0])[0]
        if len(ids) == 1:
            return first, []
        action = Action.parse(action)
        if kind == "tap":  # typing into a field that had no focus: now it has, type at its caret
            return first, [replace(action, index=None)]
        if kind in ("type", "replace"):
            return first, [_KEYS["enter"]] * (len(ids) - 1)
        return first, [action]  # a composed answer: the collected pieces are part of the next screen's state

    # ----- internals ---------------------------------------------------------------------------------------
    def _update(self, info: dict[str, Any], collected: list[str]) -> dict[str, Any]:
        screen = self._reader.read(info.get("ui_elements", []), collected)
        if screen is not self.rl_screen:  # else the screen is read as before: the same mask
            self.rl_screen, self._mask = screen, self._allowed(screen)
        return {**info, "action_mask": self._mask.copy()}

    def _allowed(self, screen: RLScreen) -> np.ndarray:
        """The action mask of ``screen``: exactly the ids ``_decode`` turns into an ``Action`` (computed per kind,
        not id by id: this runs every step)."""
        layout, mask = self.layout, self._always.copy()
        slots = len(screen.slots)
        if slots:
            taps, long_presses, drags = zip(*[(can_tap(slot), can_long_press(slot), can_drag(slot))
                                              for slot in screen.slots])
            mask[layout.span("tap", slots)] = taps
            mask[layout.span("long_press", slots)] = mask[layout.span("long_press_start", slots)] = long_presses
            mask[layout.span("drag", 4 * slots)] = np.repeat(drags, 4)
        count = len(screen.texts)
        mask[layout.span("type", count)] = mask[layout.span("replace", count)] = screen.can_type
        if screen.answers or screen.computes:  # else nothing is collectable
            mask[layout.span("collect", count)] = [_collectable(piece.text, screen) for piece in screen.texts]
        if screen.answers:
            for kind in ("answer_yes", "answer_no", "answer_number"):
                mask[layout.span(kind)] = True
            mask[layout.span("answer_text", count)] = True
            mask[layout.span("answer_collected")] = bool(screen.collected)
            mask[layout.span("answer_sum")] = bool(screen.collected) and all(
                number_value(text) is not None for text in screen.collected)
            mask[layout.span("answer_date_time")] = bool(screen.collected) and \
                date_time_answer(screen.collected, self._this_year()) is not None
        return mask

    def _slot_name(self, position: int) -> str:
        screen = self.rl_screen
        if position >= len(screen.slots):
            return f"[{position}] (empty)"
        return f"[{position}] {screen.slots[position].class_name.rsplit('.', 1)[-1]} {screen.labels[position]!r}"

    def _decode(self, kind: str, arg: int, screen: RLScreen) -> Action | InvalidAction:
        if kind in ("tap", "long_press", "long_press_start", "drag"):
            return self._decode_slot(kind, arg, screen)
        if kind in ("scroll", "swipe"):
            return Action(ActionType.SCROLL if kind == "scroll" else ActionType.SWIPE, direction=DIRECTIONS[arg])
        if kind in ("type", "replace", "answer_text", "collect"):
            return self._decode_text(kind, arg, screen)
        if kind == "open_app":
            return Action(ActionType.OPEN_APP, app_name=self.apps[arg])
        if kind.startswith("answer"):
            return self._decode_answer(kind, arg, screen)
        return _KEYS[kind]

    def _decode_slot(self, kind: str, arg: int, screen: RLScreen) -> Action | InvalidAction:
        position = arg // 4 if kind == "drag" else arg
        if position >= len(screen.slots):
            return InvalidAction(f"{kind} slot {position} is empty: the screen has {len(screen.slots)} actionable "
                                 "element(s)")
        slot = screen.slots[position]
        accepts = {"tap": can_tap, "drag": can_drag}.get(kind, can_long_press)
        if not accepts(slot):
            return InvalidAction(f"slot {position} ({screen.labels[position]!r}) does not take a {kind}")
        if kind == "tap":
            return Action(ActionType.CLICK, index=slot.index)
        if kind == "drag":
            return Action(ActionType.SCROLL, index=slot.index, direction=DIRECTIONS[arg % 4])
        if kind == "long_press_start":
            x, y = _press_start(slot)
            return Action(ActionType.LONG_PRESS, x=x, y=y)
        return Action(ActionType.LONG_PRESS, index=slot.index)

    def _decode_text(self, kind: str, arg: int, screen: RLScreen) -> Action | InvalidAction:
        if arg >= len(screen.texts):
            return InvalidAction(f"there is no text {arg}: the agent has seen {len(screen.texts)} text(s)")
        text = screen.texts[arg].text
        if kind == "collect":
            if _collectable(text, screen):
                return Action(ActionType.WAIT)
            if screen.answers:
                return InvalidAction(f"{text!r} is collected already")
            return InvalidAction("the goal asks no question to answer" + (
                f", and {text!r} is no number to compute with" if screen.computes else ""))
        if kind == "answer_text":
            return Action(ActionType.ANSWER, text=text) if screen.answers \
                else InvalidAction("the goal asks no question to answer")
        if not screen.can_type:
            return InvalidAction("there is no text field on screen to type into")
        index = None if screen.focused_field else screen.slots[screen.typing_slot].index
        return Action(ActionType.INPUT_TEXT, index=index, text=text, clear_text=True if kind == "replace" else None)

    def _decode_answer(self, kind: str, arg: int, screen: RLScreen) -> Action | InvalidAction:
        if not screen.answers:
            return InvalidAction("the goal asks no question to answer")
        if kind in ("answer_yes", "answer_no"):
            return Action(ActionType.ANSWER, text=kind[len("answer_"):])
        if kind == "answer_number":
            return Action(ActionType.ANSWER, text=str(arg))
        if not screen.collected:
            return InvalidAction("nothing is collected to answer with")
        if kind == "answer_collected":
            return Action(ActionType.ANSWER, text=", ".join(screen.collected))
        if kind == "answer_date_time":
            answer = date_time_answer(screen.collected, self._this_year())
            return InvalidAction("the collected texts give no date and time of day") if answer is None \
                else Action(ActionType.ANSWER, text=answer)
        numbers = [number_value(text) for text in screen.collected]
        if None in numbers:
            return InvalidAction("a collected text is not a number: there is no sum")
        return Action(ActionType.ANSWER, text=format_number(sum(numbers)))

    def _touched_slot(self, element: UIElement | None, point: tuple[int, int] | None, screen: RLScreen,
                      elements: Sequence[UIElement], accepts: Callable[[UIElement], bool]) -> int | None:
        """The slot a gesture on ``element`` (or at ``point``) reaches, when a gesture at that slot's centre
        reaches it too."""
        if element is not None and accepts(element) and screen.slot_of(element) is not None:
            return screen.slot_of(element)
        if point is None:
            if element is None:
                return None
            point = element.bbox_pixels.center
        # a slider takes a touch too (it seeks to the finger), so a touch on one reaches no element under it
        target = _hit(point, elements, lambda element: accepts(element) or is_slider(element))
        if target is None or not accepts(target):
            return None
        position = screen.slot_of(target)
        if position is None or _hit(target.bbox_pixels.center, elements, accepts) is not target:
            return None
        return position

    def _encode_touch(self, action: Action, screen: RLScreen,
                      elements: Sequence[UIElement]) -> tuple[int, ...] | None:
        long = action.action_type is ActionType.LONG_PRESS
        accepts = can_long_press if long else can_tap
        point = None if action.x is None or action.y is None else (action.x, action.y)
        element = _element_at(elements, action.index)
        if element is None and point is None:
            return None
        slot = self._touched_slot(element, point, screen, elements, accepts)
        if slot is None:
            return None
        if long and point is not None and point == _press_start(screen.slots[slot]):
            return (self.layout["long_press_start"][slot],)
        return (self.layout["long_press" if long else "tap"][slot],)

    def _encode_typing(self, action: Action, screen: RLScreen,
                       elements: Sequence[UIElement]) -> tuple[int, ...] | None:
        raw = action.text or ""
        text = raw.rstrip("\n")
        composing, position = self._composed(text, screen, elements)
        if position is None:
            return None
        ids: list[int] = []
        field = _element_at(elements, action.index)
        # a field without focus is tapped first, unless it is the one a type id taps itself (no field has focus)
        if field is not None and not field.is_focused and (
                screen.focused_field or screen.slot_of(field) != screen.typing_slot):
            slot = self._touched_slot(field, None, screen, elements, can_tap)
            if slot is None:
                return None
            ids.append(self.layout["tap"][slot])
        elif field is None and not screen.focused_field:
            return None
        ids.extend(composing)
        ids.append(self.layout["replace" if action.clear_text else "type"][position])
        ids.extend([self.layout["enter"][0]] * (len(raw) - len(text)))
        return tuple(ids)

    def _encode_answer(self, answer: str, screen: RLScreen) -> tuple[int, ...] | None:
        layout, collected = self.layout, screen.collected
        if not screen.answers:
            return None
        if answer.strip().lower() in ("yes", "no"):
            return (layout[f"answer_{answer.strip().lower()}"][0],)
        if answer.isdigit() and int(answer) < NUMBERS:
            return (layout["answer_number"][int(answer)],)
        if screen.text_index(answer) is not None:
            return (layout["answer_text"][screen.text_index(answer)],)
        parts = answer.split(", ")
        rest = parts[len(collected):]
        if len(parts) > 1 and parts[:len(collected)] == collected \
                and all(screen.text_index(part) is not None for part in rest):
            return (*(layout["collect"][screen.text_index(part)] for part in rest), layout["answer_collected"][0])
        total, numbers = number_value(answer), [number_value(text) for text in collected]
        if total is None or None in numbers:
            return self._encode_date_time(answer, screen)
        addends = _operands(total, numbers, screen.texts, collected, sum)
        if addends is not None and (addends or collected):
            return (*(layout["collect"][position] for position in addends), layout["answer_sum"][0])
        return None

    def _composed(self, text: str, screen: RLScreen,
                  elements: Sequence[UIElement]) -> tuple[tuple[int, ...], int | None]:
        """``(collect ids, position)``: the position of ``text`` in the vocabulary — at once, or after collecting
        the numbers whose sum or product it is (``collect`` ids, when the goal asks for one) — else ``None``."""
        position = screen.text_index(text)
        value, numbers = number_value(text), [number_value(piece) for piece in screen.collected]
        if position is not None or value is None or None in numbers or not (screen.answers or screen.computes):
            return (), position
        for combine in (sum, math.prod):
            chosen = _operands(value, numbers, screen.texts, screen.collected, combine)
            if chosen:
                collected = [*screen.collected, *(screen.texts[place].text for place in chosen)]
                after = self._reader.peek(elements, collected)
                return tuple(self.layout["collect"][place] for place in chosen), after.text_index(text)
        return (), None

    def _encode_date_time(self, answer: str, screen: RLScreen) -> tuple[int, ...] | None:
        """``collect`` of one or two texts that, with those collected, write the date and time ``answer`` gives,
        then ``answer_date_time``."""
        year = self._this_year()
        candidates = [position for position, piece in enumerate(screen.texts) if piece.text not in screen.collected
                      and (read_date(piece.text, year) or read_time(piece.text))]
        for size in range(3):
            for extra in itertools.permutations(candidates, size):
                texts = [*screen.collected, *(screen.texts[position].text for position in extra)]
                if date_time_answer(texts, year) == answer:
                    return (*(self.layout["collect"][position] for position in extra),
                            self.layout["answer_date_time"][0])
        return None

    def _this_year(self) -> int:
        """The phone's current year (its clock, ``date +%Y``), read once an episode: what a person knows a date
        shown without its year is in."""
        if self._year is None:
            self._year = int(self.env.unwrapped.device.shell("date +%Y").output.strip())
        return self._year


def _element_at(elements: Sequence[UIElement], index: int | None) -> UIElement | None:
    return elements[index] if index is not None and 0 <= index < len(elements) else None


#: Most numbers a composed sum or product repeats some of.
_REPEATED = 6


def _collectable(text: str, screen: RLScreen) -> bool:
    """Whether ``collect`` takes ``text``: any text for an answer, a number for a sum or a product the goal asks
    for; a text once, a number as often as it was seen (two amounts of 8, the numbers 8, 4, 8 to multiply)."""
    number = number_value(text) is not None
    return (screen.answers or (screen.computes and number)) and (number or text not in screen.collected)


def _operands(target: float, given: Sequence[float], texts: Sequence[Piece], given_texts: Sequence[str],
              combine: Callable[[list[float]], float], most: int = 14) -> tuple[int, ...] | None:
    """Positions of numeric texts (not composed ones) that ``combine`` (``sum``, ``math.prod``) with the ``given``
    numbers (``given_texts``) into ``target`` to the cent, fewest first: one or two of all of them not given, or
    up to ``most`` of the first ``most`` — the goal's last (a number seen on screen that the goal writes too keeps
    the goal's piece); of each size, after those, up to ``_REPEATED`` of the first ``most`` with repeats (a number
    seen more than once)."""
    numbers = sorted([(position, number_value(piece.text)) for position, piece in enumerate(texts)
                      if piece.source != "composed" and number_value(piece.text) is not None],
                     key=lambda number: texts[number[0]].source == "goal")
    fresh = [number for number in numbers if texts[number[0]].text not in given_texts]
    choices = (chosen for size in range(max(len(fresh[:most]), _REPEATED) + 1) for chosen in itertools.chain(
        itertools.combinations(fresh if size <= 2 else fresh[:most], size),
        itertools.combinations_with_replacement(numbers[:most], size) if 0 < size <= _REPEATED else ()))
    for chosen in choices:
        if abs(combine([*given, *(value for _, value in chosen)]) - target) < 0.005:
            return tuple(position for position, _ in chosen)
    return None


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

    def point(self, cell: int) -> tuple[int, int]:
        """The device pixel at the centre of ``cell`` (row-major) on the screen as it is now."""
        rows, columns = self.grid
        row, column = divmod(cell, columns)
        width, height = screen_size(self.env)
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
