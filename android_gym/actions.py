"""Actions: AndroidWorld's JSONAction vocabulary, parsing, the Gymnasium ``Dict`` space, and execution.

An action arrives as an ``Action``, a JSON string (what LLM agents write), a plain dict, or a sample of
``action_space()``. Anything that cannot be executed raises ``InvalidActionError`` with a reason the env
puts in ``info["invalid_action"]``.
"""

from __future__ import annotations

import json
import math
import operator
import shlex
import string
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Any, get_type_hints

import numpy as np
from gymnasium import spaces

from android_gym.device.base import Device, encode_utf8
from android_gym.errors import InvalidActionError, UnencodableTextError, short_repr
from android_gym.sim import keycodes
from android_gym.ui import UIElement, frozen
from android_gym.vector_actions import ActionSpace

MAX_UI_ELEMENTS = 512
MAX_TEXT_LENGTH = 1000
#: Longest integer (in characters) read from a JSON action.
MAX_JSON_DIGITS = 100
DIRECTIONS = ("up", "down", "left", "right")
GOAL_STATUSES = ("complete", "infeasible")
#: The printable ASCII an RL policy may type through the ``Dict`` space (JSON actions may type any text).
TYPEABLE = string.digits + string.ascii_letters + string.punctuation + " "
SWIPE_MS = 500
LONG_PRESS_MS = 1000  # AndroidWorld: `input swipe x y x y 1000`

#: Names an agent may use in ``open_app`` (lower case) → package. A package name works too.
KNOWN_APPS = {
    "simple sms messenger": "com.simplemobiletools.smsmessenger",
    "sms messenger": "com.simplemobiletools.smsmessenger",
    "messages": "com.simplemobiletools.smsmessenger",
    "sms": "com.simplemobiletools.smsmessenger",
    "settings": "com.android.settings",
    "clock": "com.google.android.deskclock",
    "contacts": "com.google.android.contacts",
    "clipper": "ca.zgrs.clipper",
    # AndroidWorld's adb_utils app-name patterns for the productivity apps
    "simple calendar pro": "com.simplemobiletools.calendar.pro",
    "simple calendar": "com.simplemobiletools.calendar.pro",
    "calendar": "com.simplemobiletools.calendar.pro",
    "tasks": "org.tasks",
    "tasks app": "org.tasks",
    "pro expense": "com.arduia.expense",
    "pro expense app": "com.arduia.expense",
    "expense": "com.arduia.expense",
    "broccoli": "com.flauschcode.broccoli",
    "broccoli app": "com.flauschcode.broccoli",
    "broccoli recipe app": "com.flauschcode.broccoli",
    "recipe app": "com.flauschcode.broccoli",
    "markor": "net.gsantner.markor",
    "files": "com.google.android.documentsui",
    "files app": "com.google.android.documentsui",
    "simple gallery pro": "com.simplemobiletools.gallery.pro",
    "simple gallery": "com.simplemobiletools.gallery.pro",
    "gallery": "com.simplemobiletools.gallery.pro",
    "simple draw pro": "com.simplemobiletools.draw.pro",
    "camera": "com.android.camera2",
    "audio recorder": "com.dimowner.audiorecorder",
    "vlc": "org.videolan.vlc",
    "vlc app": "org.videolan.vlc",
    "vlc player": "org.videolan.vlc",
    "retro music": "code.name.monkey.retromusic",
    "joplin": "net.cozic.joplin",
    "osmand": "net.osmand",
    "osmand maps": "net.osmand",
    "open tracks sports tracker": "de.dennisguse.opentracks",
    "activity tracker": "de.dennisguse.opentracks",
    "open tracks": "de.dennisguse.opentracks",
    "opentracks": "de.dennisguse.opentracks",
}


class ActionType(str, Enum):
    """AndroidWorld's action types (``json_action.py``)."""

    CLICK = "click"
    DOUBLE_TAP = "double_tap"
    LONG_PRESS = "long_press"
    SCROLL = "scroll"
    SWIPE = "swipe"
    INPUT_TEXT = "input_text"
    NAVIGATE_HOME = "navigate_home"
    NAVIGATE_BACK = "navigate_back"
    KEYBOARD_ENTER = "keyboard_enter"
    OPEN_APP = "open_app"
    STATUS = "status"
    WAIT = "wait"
    ANSWER = "answer"
    UNKNOWN = "unknown"


ACTION_TYPES = tuple(ActionType)
# Tuples, not sets: a set's lookup calls Enum.__hash__, a Python function; a tuple compares identities first.
_POINTING = (ActionType.CLICK, ActionType.DOUBLE_TAP, ActionType.LONG_PRESS)
_ON_ELEMENT = (*_POINTING, ActionType.SCROLL, ActionType.INPUT_TEXT)


@dataclass(frozen=True)
class Action:
    """One agent action, field for field AndroidWorld's JSONAction (``index`` and ``x``/``y`` exclude each other)."""

    action_type: ActionType
    index: int | None = None
    x: int | None = None
    y: int | None = None
    text: str | None = None
    direction: str | None = None
    goal_status: str | None = None
    app_name: str | None = None
    keycode: str | None = None
    clear_text: bool | None = None

    @classmethod
    def parse(cls, value: Action | str | Mapping[str, Any]) -> Action:
        """A checked ``Action`` from an Action, a JSON object string, or a mapping; ``InvalidActionError`` if
        malformed (also an ``Action`` built by hand with fields of the wrong types). An Action whose fields already
        hold what the checks make of them (plain ints and strs: an agent's or the action space's) is returned as
        it is: a check hands back the very value it was given when that is already of the type it makes."""
        if isinstance(value, Action):
            given = vars(value)
            for name, field in given.items():
                if field is not None and _CHECKS[name](name, field) is not field:
                    return cls(**_checked(given))
            return value if value.action_type is not None else cls(**_checked(given))
        if isinstance(value, str):
            value = _load_json(value)
        if not isinstance(value, Mapping):
            raise InvalidActionError(f"an action must be a JSON object or mapping, not {type(value).__name__}")
        unknown = set(value) - set(_CHECKS)
        if unknown:
            raise InvalidActionError(f"unknown action field(s) [{', '.join(sorted(map(short_repr, unknown)))}]; "
                                     f"known: {sorted(_CHECKS)}")
        return cls(**_checked(value))

    def to_json(self) -> str:
        """AndroidWorld's JSON form (``None`` fields left out)."""
        data = {key: val for key, val in asdict(self).items() if val is not None}
        data["action_type"] = self.action_type.value
        return json.dumps(data, ensure_ascii=False)

    @property
    def ends_episode(self) -> bool:
        """Whether the agent declares itself done (``status`` or ``answer``)."""
        return self.action_type in (ActionType.STATUS, ActionType.ANSWER)


def _json_int(digits: str) -> int:
    """A JSON integer, refused past ``MAX_JSON_DIGITS`` digits (``int`` of a long digit string is slow, and raises
    ``ValueError`` past ``sys.get_int_max_str_digits()``)."""
    count = len(digits.lstrip("-"))
    if count > MAX_JSON_DIGITS:
        raise InvalidActionError(f"the action JSON has a number of {count} digits; numbers in actions are "
                                 f"pixels and element indices (at most {MAX_JSON_DIGITS} digits are read)")
    return int(digits)


def _load_json(text: str) -> Any:
    """``json.loads`` of agent output; ``InvalidActionError`` for malformed JSON, too deep nesting, too long
    numbers."""
    try:
        return json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise InvalidActionError(f"action is not valid JSON: {error}") from error
    except RecursionError:
        raise InvalidActionError("the action JSON is nested too deeply: an action is one flat JSON object") from None


def _action_type(name: str, value: Any) -> ActionType:
    if type(value) is ActionType:  # a member is itself (and Enum's call, which would say so, is slow)
        return value
    try:
        return ActionType(value)
    except (ValueError, TypeError):
        raise InvalidActionError(f"{name} must be one of {[t.value for t in ACTION_TYPES]}, "
                                 f"got {short_repr(value)}") from None


def _number(name: str, value: Any) -> int:
    if (isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating))
            or abs(value) > 2**31 or not math.isfinite(value)):
        raise InvalidActionError(f"{name} must be a finite number (a pixel or an element index), "
                                 f"got {short_repr(value)}")
    return value if type(value) is int else int(value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidActionError(f"{name} must be true or false, got {short_repr(value)}")
    return bool(value)  # True or False themselves


def _text(name: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InvalidActionError(f"{name} must be a string, got {short_repr(value)}")
    try:
        encode_utf8(value, name)  # a lone surrogate would break every app and device protocol
    except UnencodableTextError as error:
        raise InvalidActionError(str(error)) from None
    return value if type(value) is str else str.__str__(value)  # a plain str (a subclass's __str__ may be itself)


#: Each field's check, by the type ``Action`` declares for it: the value ``Action.parse`` makes of a field's value
#: (the very value it was given when that is already of the type made, and only then), or ``InvalidActionError``.
_CHECKS: dict[str, Callable[[str, Any], Any]] = {
    name: {ActionType: _action_type, int | None: _number, bool | None: _flag, str | None: _text}[hint]
    for name, hint in get_type_hints(Action).items()}


def _checked(value: Mapping[str, Any]) -> dict[str, Any]:
    """The checked fields of an action given as a mapping of known field names (``None`` fields left out), its
    ``action_type`` checked first."""
    checked = {"action_type": _action_type("action_type", value.get("action_type"))}
    checked.update((name, _CHECKS[name](name, field)) for name, field in value.items()
                   if field is not None and name != "action_type")
    return checked


@dataclass(frozen=True)
class InvalidAction:
    """What a wrapper passes on for agent output it could not translate (an unparseable LLM reply, an empty
    element slot): the env reports ``reason`` in ``info["invalid_action"]``, counts the step and changes nothing."""

    reason: str


def to_action(value: Any, screen_size: tuple[int, int]) -> Action:
    """Whatever ``AndroidEnv.step`` accepts (an Action, JSON, a mapping, a sample of ``action_space()``, an
    ``InvalidAction``) as an ``Action``; ``InvalidActionError`` if it is not a valid one."""
    if isinstance(value, InvalidAction):
        raise InvalidActionError(value.reason)
    if isinstance(value, Mapping) and "action_type" in value and not isinstance(value["action_type"], str):
        value = from_space(value, screen_size)
    return Action.parse(value)


def action_space(max_elements: int = MAX_UI_ELEMENTS) -> ActionSpace:
    """The Gymnasium space mirroring JSONAction (its vector batch also takes per-env actions in any form).

    ``index`` −1 means "no element": pointing actions then use ``touch_position`` (normalized x, y),
    ``scroll`` scrolls the whole screen and ``input_text`` types into the focused field.
    """
    return ActionSpace({
        "action_type": spaces.Discrete(len(ACTION_TYPES)),
        "index": spaces.Discrete(max_elements + 1, start=-1),
        "touch_position": spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32),
        "direction": spaces.Discrete(len(DIRECTIONS)),
        "text": spaces.Text(MAX_TEXT_LENGTH, min_length=0, charset=TYPEABLE),
        "app_name": spaces.Text(64, min_length=0, charset=TYPEABLE),
    })


def _discrete(sample: Mapping[str, Any], key: str, size: int, start: int = 0) -> int:
    """The integer ``sample[key]`` of a Discrete(size, start) field; ``InvalidActionError`` if outside it."""
    value = sample.get(key, start)
    try:  # an int or a NumPy integer (the space's samples); operator.index refuses floats and NumPy's bools
        number = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        number = None
    if number is None:
        raise InvalidActionError(f"{key} must be an integer of the action space, got {short_repr(value)}")
    if not start <= number < start + size:
        raise InvalidActionError(f"{key} must lie in [{start}, {start + size}), got {short_repr(value)}")
    return number


def _touch_position(value: Any) -> tuple[float, float]:
    """The normalized ``(x, y)`` of a ``touch_position`` (two numbers in [0, 1], any array shape holding two);
    ``InvalidActionError`` otherwise."""
    try:
        array = value if isinstance(value, np.ndarray) else np.asarray(value, dtype=np.float64)
        px, py = map(float, array.ravel().tolist())
    except (TypeError, ValueError, OverflowError) as error:
        raise InvalidActionError(f"touch_position must be two numbers in [0, 1]: {error}") from error
    if not (0 <= px <= 1 and 0 <= py <= 1):  # NaN fails too
        raise InvalidActionError(f"touch_position must lie in [0, 1]², got {[px, py]}")
    return px, py


def from_space(sample: Mapping[str, Any], screen_size: tuple[int, int]) -> Action:
    """An ``Action`` from a sample of ``action_space()`` (its text fields unchecked: ``to_action`` parses it)."""
    action_type = ACTION_TYPES[_discrete(sample, "action_type", len(ACTION_TYPES))]
    index = _discrete(sample, "index", MAX_UI_ELEMENTS + 1, start=-1)
    direction = DIRECTIONS[_discrete(sample, "direction", len(DIRECTIONS))]
    px, py = _touch_position(sample.get("touch_position", (0.5, 0.5)))
    width, height = screen_size
    x, y = min(int(px * width), width - 1), min(int(py * height), height - 1)
    use_point = action_type in _POINTING and index < 0
    return frozen(Action, {  # every field, without the frozen dataclass's __init__: one action a step
        "action_type": action_type,
        "index": index if index >= 0 and action_type in _ON_ELEMENT else None,
        "x": x if use_point else None,
        "y": y if use_point else None,
        "text": sample.get("text", "") if action_type in (ActionType.INPUT_TEXT, ActionType.ANSWER) else None,
        "direction": direction if action_type in (ActionType.SCROLL, ActionType.SWIPE) else None,
        "goal_status": "complete" if action_type is ActionType.STATUS else None,
        "app_name": sample.get("app_name", "") if action_type is ActionType.OPEN_APP else None,
        "keycode": None,
        "clear_text": None,
    })


def _target(action: Action, elements: Sequence[UIElement], screen_size: tuple[int, int]) -> tuple[int, int]:
    if action.index is not None:
        if not 0 <= action.index < len(elements):
            raise InvalidActionError(f"index {action.index} is out of range: the screen has {len(elements)} "
                                     "elements (info['ui_elements'])")
        return elements[action.index].bbox_pixels.center
    if action.x is None or action.y is None:
        raise InvalidActionError(f"{action.action_type.value} needs an element index or both x and y")
    width, height = screen_size
    if not (0 <= action.x < width and 0 <= action.y < height):
        raise InvalidActionError(f"point ({action.x}, {action.y}) is off the {width}x{height} screen")
    return action.x, action.y


def resolve_package(app_name: str) -> str:
    """The package ``open_app`` starts for an app name (or a package name)."""
    name = app_name.strip().lower()
    if name in KNOWN_APPS:
        return KNOWN_APPS[name]
    if "." in name and all(part.isidentifier() for part in name.split(".")):
        return app_name.strip()
    raise InvalidActionError(f"unknown app {app_name!r}; known apps: {sorted(KNOWN_APPS)}")


def execute(action: Action, device: Device, elements: Sequence[UIElement]) -> None:
    """Perform ``action`` on ``device`` the way AndroidWorld's actuation does (``status``/``answer`` do nothing)."""
    kind, size = action.action_type, device.screen_size
    if kind in (ActionType.CLICK, ActionType.DOUBLE_TAP):
        x, y = _target(action, elements, size)
        if kind is ActionType.DOUBLE_TAP:
            with _leading_inputs(device):
                device.tap(x, y)
        device.tap(x, y)
    elif kind is ActionType.LONG_PRESS:
        device.long_press(*_target(action, elements, size))
    elif kind is ActionType.SCROLL:
        device.swipe(*_scroll_points(action, elements, size), SWIPE_MS)
    elif kind is ActionType.SWIPE:
        device.swipe(*_swipe_points(action, size), SWIPE_MS)
    elif kind is ActionType.INPUT_TEXT:
        _input_text(action, device, elements)
    elif kind is ActionType.NAVIGATE_HOME:
        device.key(keycodes.HOME)
    elif kind is ActionType.NAVIGATE_BACK:
        device.key(keycodes.BACK)
    elif kind is ActionType.KEYBOARD_ENTER:
        device.key(keycodes.ENTER)
    elif kind is ActionType.OPEN_APP:
        package = resolve_package(action.app_name or "")
        result = device.shell(f"monkey -p {shlex.quote(package)} -c android.intent.category.LAUNCHER 1")
        if not result.ok:
            raise InvalidActionError(f"cannot open {action.app_name!r}: {package} is not installed")
    elif kind is ActionType.WAIT:
        device.shell("sleep 1")
    elif kind is ActionType.STATUS:
        if action.goal_status not in GOAL_STATUSES:
            raise InvalidActionError(f"goal_status must be one of {GOAL_STATUSES}, got {action.goal_status!r}")
    elif kind is ActionType.UNKNOWN:
        raise InvalidActionError("action_type 'unknown' does nothing")


def _leading_inputs(device: Device) -> AbstractContextManager[object]:
    """Where an action makes the inputs that lead to its last one: a device that brings along with an input what the
    caller reads after it (``AdbDevice.leading_inputs``) brings nothing with these, as nothing is read before the
    next."""
    return getattr(device, "leading_inputs", nullcontext)()


def _direction(action: Action) -> str:
    if action.direction not in DIRECTIONS:
        raise InvalidActionError(f"direction must be one of {DIRECTIONS}, got {action.direction!r}")
    return action.direction


def touch_points(action: Action, elements: Sequence[UIElement],
                 screen_size: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """Where ``execute`` touches the screen for ``action``: the point of a tap, double tap, long press or of the
    field typing focuses, the start and end of a scroll or swipe, nothing for the other actions and for typing
    into the focused field. ``InvalidActionError`` as ``execute`` would raise it."""
    kind = action.action_type
    if kind in _POINTING or (kind is ActionType.INPUT_TEXT
                             and (action.index is not None or (action.x is not None and action.y is not None))):
        return (_target(action, elements, screen_size),)
    if kind in (ActionType.SCROLL, ActionType.SWIPE):
        x1, y1, x2, y2 = (_scroll_points(action, elements, screen_size) if kind is ActionType.SCROLL else
                          _swipe_points(action, screen_size))
        return (x1, y1), (x2, y2)
    return ()


def _scroll_points(action: Action, elements: Sequence[UIElement],
                   screen_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """A drag from the element's (or screen's) centre toward the edge opposite to the content wanted."""
    width, height = screen_size
    if action.index is not None:
        _target(action, elements, (width, height))
        box = elements[action.index].bbox_pixels
        x1, y1, x2, y2 = max(box.x_min, 0), max(box.y_min, 0), min(box.x_max, width), min(box.y_max, height)
    else:
        x1, y1, x2, y2 = 0, 0, width, height
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    end = {"down": (cx, y1), "up": (cx, y2 - 1), "right": (x1, cy), "left": (x2 - 1, cy)}[_direction(action)]
    return cx, cy, *end


def _swipe_points(action: Action, screen_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """An edge-to-edge drag, mapped as AndroidWorld's actuation does ("the inverse of scroll"): ``down`` and
    ``up`` move the finger down/up, ``left`` moves it from the left edge to the right, ``right`` the reverse."""
    width, height = screen_size
    cx, cy = width // 2, height // 2
    start, end = {
        "up": ((cx, height - 1), (cx, 0)), "down": ((cx, 0), (cx, height - 1)),
        "left": ((0, cy), (width - 1, cy)), "right": ((width - 1, cy), (0, cy)),
    }[_direction(action)]
    return *start, *end


def _input_text(action: Action, device: Device, elements: Sequence[UIElement]) -> None:
    """Focus the target (if given), optionally clear it, type the text, press ENTER."""
    text = action.text or ""
    if not text:
        raise InvalidActionError("input_text needs a non-empty text")
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidActionError(f"text is {len(text)} characters long; the limit is {MAX_TEXT_LENGTH}")
    with _leading_inputs(device):
        if action.index is not None or (action.x is not None and action.y is not None):
            device.tap(*_target(action, elements, device.screen_size))
        if action.clear_text:
            device.shell(f"input keycombination {keycodes.CTRL_LEFT} {keycodes.A}")
            device.key(keycodes.DEL)
        device.input_text(text)
    device.key(keycodes.ENTER)
