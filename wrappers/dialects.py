"""LLM action dialects: the text a language model writes, read into an ``Action`` and written back from one.

Three published formats:

* ``AndroidWorldJSON`` (``"androidworld"``): AndroidWorld's agents, ``Reason: … Action: {"action_type": "click",
  "index": 3}``; ``index`` is the element's position in ``info["ui_elements"]``.
* ``AndroidArenaDialect`` (``"androidarena"``): AndroidArena's agent, ``#click [n51d6]#``; IDs are those of the
  compressed UI text (``android_gym.wrappers.compression``).
* ``AppAgentDialect`` (``"appagent"``): AppAgent, ``Action: tap(5)``; numbers are the Set-of-Mark labels, which
  are element indices; in grid mode ``tap(12, "top-left")`` names a cell of the numbered grid and a sub-area.

``parse`` takes the model's whole reply: prose, code fences and ``Action:`` prefixes are fine. It reads the first
action after the last ``Action:`` marker when there is one there, else the last action of the reply. A reply it
cannot read raises ``InvalidFormatError``; a well-formed action naming nothing on screen (an unknown Arena ID)
raises ``InvalidActionError``. Both say what was expected and what was found. ``format`` writes an ``Action`` in
the dialect (few-shot prompts from oracle demonstrations), or returns ``None`` when the dialect cannot say exactly
that action: whenever it returns a string, ``parse(format(action)) == action``.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from android_gym.actions import MAX_TEXT_LENGTH, Action, ActionType
from android_gym.errors import InvalidActionError
from android_gym.ui import UIElement
from android_gym.wrappers.compression import CompressedUI, UINode, compress_ui
from android_gym.wrappers.grid import SUBAREAS, Grid

#: Longer replies are refused unread (a step's reply is a few thousand characters at most).
MAX_OUTPUT_CHARS = 100_000
_SNIPPET_CHARS = 80
#: "Action:" as models write it: ``Action:``, ``**Action:**``, ``action :``; not ``"action":`` or ``action_type``.
_MARKER = re.compile(r"(?i)\baction\b[\s*_`]*:")
_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


class InvalidFormatError(InvalidActionError):
    """LLM output in which the dialect finds no well-formed action (AndroidArena's "invalid format")."""


def _snippet(text: str) -> str:
    """``text`` quoted for an error message, shortened, control characters escaped."""
    return repr(text if len(text) <= _SNIPPET_CHARS else text[:_SNIPPET_CHARS] + "...")


def _has_only(action: Action, *names: str) -> bool:
    """Whether ``action`` sets exactly the fields ``names`` (besides its type)."""
    values = {name: getattr(action, name) for name in names}
    return None not in values.values() and action == Action(action.action_type, **values)


@dataclass
class Screen:
    """The step an LLM acted on: ``info["ui_elements"]``, the observation's ``a11y_tree`` (compressed on first use,
    for AndroidArena's IDs, unless the step's compression is given) and the screen size in pixels (for dialects
    that point at pixels)."""

    elements: Sequence[UIElement]
    xml: str = ""
    screen_size: tuple[int, int] = (0, 0)
    compressed: CompressedUI | None = None

    @cached_property
    def nodes(self) -> dict[str, UINode]:
        """Compression ID → kept node; ``node.index`` is the element's index."""
        if self.compressed is not None:
            return self.compressed.nodes
        return compress_ui(self.xml).nodes if self.xml else {}

    @cached_property
    def ids(self) -> dict[int, str]:
        """Element index → compression ID, for the elements the compression keeps."""
        return {node.index: node_id for node_id, node in self.nodes.items()}


class Dialect(ABC):
    """One way for an LLM to write actions: prompt text, a parser and a formatter."""

    #: The name ``ParseLLMActions(dialect=...)`` and ``DIALECTS`` use.
    name: ClassVar[str]
    #: One well-formed reply, quoted in error messages.
    example: ClassVar[str]
    #: What ``parse`` looks for, in words (for "the reply has no ..." messages).
    looks_for: ClassVar[str]

    @abstractmethod
    def describe(self) -> str:
        """The action syntax with short examples, ready to paste into an LLM prompt."""

    @abstractmethod
    def format(self, action: Action, screen: Screen) -> str | None:
        """``action`` written in this dialect for ``screen``, or ``None`` if the dialect cannot say exactly it."""

    def parse(self, output: str, screen: Screen) -> Action:
        """The action of a model's reply: the first after its last ``Action:`` marker, else its last one.

        Raises ``InvalidFormatError`` (or ``InvalidActionError`` for a well-formed action naming nothing on
        ``screen``) saying what was expected and what was found.
        """
        if not isinstance(output, str):
            raise InvalidFormatError(f"expected the model's reply as text, got {type(output).__name__}")
        if not output.strip():
            raise InvalidFormatError(f"the reply is empty; expected e.g. {self.example}")
        if len(output) > MAX_OUTPUT_CHARS:
            raise InvalidFormatError(f"the reply is {len(output):,} characters long; at most {MAX_OUTPUT_CHARS:,} "
                                     "are read")
        markers = list(_MARKER.finditer(output))
        declared = self._scan(output[markers[-1].end():]) if markers else []
        if declared:
            return self._read(declared[0], screen)
        found = self._scan(output)
        if not found:
            raise InvalidFormatError(f"the reply has no {self.looks_for}: {_snippet(output)}; "
                                     f"expected e.g. {self.example}")
        return self._read(found[-1], screen)

    @abstractmethod
    def _scan(self, text: str) -> list[Any]:
        """What each action-like span of ``text`` reads as, in order: an ``Action``, an error message, or (for
        dialects that need the screen) what ``_read`` resolves."""

    def _read(self, found: Any, screen: Screen) -> Action:
        """The ``Action`` of one scanned span (an error message raises ``InvalidFormatError``)."""
        if isinstance(found, str):
            raise InvalidFormatError(found)
        return found


# ----- AndroidWorld ------------------------------------------------------------------------------------------------
_JSON_SPECIAL = re.compile(r'[{}"\\]')
#: Objects nested deeper than this are not candidates (an action inside a wrapper inside another is found).
_MAX_OBJECT_DEPTH = 3
#: A brace pair with no braces inside: a Python dict literal (``{'action_type': 'click'}``) AndroidWorld also reads.
_FLAT_OBJECT = re.compile(r"\{[^{}]{0," + str(4 * MAX_TEXT_LENGTH) + r"}\}")


def _object_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the brace pairs of ``text`` nested less than ``_MAX_OBJECT_DEPTH`` deep, in order;
    braces inside JSON strings do not count. One pass, so a hostile reply costs linear time."""
    spans: list[tuple[int, int]] = []
    opened: list[int] = []
    in_string, escaped_at = False, -1
    for special in _JSON_SPECIAL.finditer(text):
        at, char = special.start(), special.group()
        if at == escaped_at:
            continue
        if in_string:
            if char == "\\":
                escaped_at = at + 1
            in_string = char != '"'
        elif char == '"':
            in_string = bool(opened)
        elif char == "{":
            opened.append(at)
        elif char == "}" and opened:
            start = opened.pop()
            if len(opened) < _MAX_OBJECT_DEPTH:
                spans.append((start, at + 1))
    return sorted(spans)


class AndroidWorldJSON(Dialect):
    """AndroidWorld's JSON actions (``json_action.JSONAction``), as its M3A/T3A agents write them.

    The reply's JSON objects with an ``"action_type"`` are the candidates, wherever they are (after ``Action:``,
    in a code fence, inside a wrapper object); a Python dict literal with single quotes is read too, as
    AndroidWorld's ``extract_json`` does. Fields follow ``Action``; an unknown field is an error.
    """

    name = "androidworld"
    example = 'Action: {"action_type": "click", "index": 3}'
    looks_for = 'JSON object with an "action_type"'

    def describe(self) -> str:
        """AndroidWorld's action list, in its JSON form."""
        return """\
Reply with a short reason, then exactly one action as a JSON object:
Reason: <why this action moves the task forward>
Action: {"action_type": ..., ...}

<index> is the number of a UI element on the current screen.
- Tap an element: {"action_type": "click", "index": <index>}
- Double-tap an element: {"action_type": "double_tap", "index": <index>}
- Long-press an element: {"action_type": "long_press", "index": <index>}
  (click, double_tap and long_press also take "x" and "y" in screen pixels instead of "index")
- Type into a field (it is tapped first; Enter is pressed after the text):
  {"action_type": "input_text", "text": "<text>", "index": <index>}
  add "clear_text": true to replace what the field holds; leave out "index" to type into the focused field
- Press Enter: {"action_type": "keyboard_enter"}
- Go to the home screen: {"action_type": "navigate_home"}
- Go back: {"action_type": "navigate_back"}
- Scroll an element (or, without "index", the screen) to reveal what lies in a direction:
  {"action_type": "scroll", "direction": "up" | "down" | "left" | "right", "index": <index>}
- Swipe the finger edge to edge across the screen: {"action_type": "swipe", "direction": <direction>}
  ("up": bottom to top; "down": top to bottom, opens the notifications; "left": left edge to right edge;
  "right": right edge to left edge)
- Open an app: {"action_type": "open_app", "app_name": "<name>"}
- Wait for the screen to change: {"action_type": "wait"}
- Answer the user's question: {"action_type": "answer", "text": "<answer>"}
- Stop: {"action_type": "status", "goal_status": "complete"} when the task is done,
  {"action_type": "status", "goal_status": "infeasible"} when it cannot be done.

Example:
Reason: The message is typed; element 12 is the Send button.
Action: {"action_type": "click", "index": 12}"""

    def format(self, action: Action, screen: Screen) -> str | None:
        """AndroidWorld's JSON of ``action`` (every ``Action`` has one)."""
        return action.to_json()

    def _scan(self, text: str) -> list[Any]:
        found: list[tuple[int, int, Any]] = []
        covered = 0
        for start, end in _object_spans(text):
            if start < covered:
                continue
            try:
                value = json.loads(text[start:end])
            except (ValueError, RecursionError):
                continue
            if isinstance(value, dict) and "action_type" in value:
                found.append((start, end, self._action(value)))
                covered = end
        for flat in _FLAT_OBJECT.finditer(text):
            if any(start <= flat.start() < end for start, end, _ in found):
                continue
            try:
                value = ast.literal_eval(flat.group())
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if isinstance(value, dict) and "action_type" in value:
                found.append((flat.start(), flat.end(), self._action(value)))
        return [action for _, _, action in sorted(found, key=lambda span: span[0])]

    @staticmethod
    def _action(value: dict[Any, Any]) -> Action | str:
        """The ``Action`` of a decoded object, or why it is not one."""
        try:
            return Action.parse(value)
        except InvalidActionError as error:
            return f"the action {_snippet(repr(value))} is malformed: {error}"


# ----- AndroidArena ------------------------------------------------------------------------------------------------
_ARENA_VERB = re.compile(r"#\s*\[?\s*(set_text|long_click|click|start|finish|press_back|press_enter|press_home|"
                         r"swipe_up|swipe_down|swipe_left|swipe_right|scroll_down)\b\s*\]?", re.IGNORECASE)
_ARENA_ID = re.compile(r"\s*(?:\[\s*([^\[\]\s#]+)\s*\]|([^\[\]\s#]+))")
#: ``[text]`` up to the first ``]`` that closes the action (``]#``, or ``]`` at the end of the reply).
_ARENA_TEXT_CHARS = 2 * MAX_TEXT_LENGTH
_ARENA_TEXT = re.compile(rf"\s*\[(.{{0,{_ARENA_TEXT_CHARS}}}?)\]\s*(?:#|\Z)", re.DOTALL)
#: ``#start Clock#``, ``#finish Paris#``: an app or answer without brackets, as AndroidArena's parser allows.
_ARENA_BARE = re.compile(rf"\s*([^\[\]#]{{1,{_ARENA_TEXT_CHARS}}}?)\s*#")
_ARENA_CLOSER = re.compile(r"\]\s*#")
_ARENA_SIGNATURES = {"click": "#click [id]#", "long_click": "#long_click [id]#", "set_text": "#set_text [id] [text]#",
                     "start": "#start [app name]#", "finish": "#finish [answer]#"}
#: Actions without arguments. AndroidArena runs ``swipe_*`` with uiautomator2's ``swipe_ext``, whose direction is
#: the finger's; our ``swipe`` follows AndroidWorld, where ``left``/``right`` name the opposite finger motion.
#: ``scroll_down`` is AndroidArena's parser's alias of ``swipe_up``; ``press_home`` is ours.
_ARENA_PLAIN = {
    "press_back": Action(ActionType.NAVIGATE_BACK),
    "press_enter": Action(ActionType.KEYBOARD_ENTER),
    "press_home": Action(ActionType.NAVIGATE_HOME),
    "swipe_up": Action(ActionType.SWIPE, direction="up"),
    "swipe_down": Action(ActionType.SWIPE, direction="down"),
    "swipe_left": Action(ActionType.SWIPE, direction="right"),
    "swipe_right": Action(ActionType.SWIPE, direction="left"),
    "scroll_down": Action(ActionType.SWIPE, direction="up"),
}
_ARENA_PLAIN_VERB = {action: verb for verb, action in _ARENA_PLAIN.items() if verb != "scroll_down"}
_NOT_AVAILABLE = "N/A"


@dataclass(frozen=True)
class _ArenaCall:
    """A well-formed AndroidArena action before its node ID is looked up on the screen."""

    verb: str
    node_id: str | None = None
    text: str | None = None


class AndroidArenaDialect(Dialect):
    """AndroidArena's actions, ``#verb [argument]#``, on the IDs of the compressed UI text.

    ``#set_text [id] [text]#`` replaces the field's text, as AndroidArena's uiautomator2 ``set_text`` does (tap,
    clear, type): it reads as ``input_text`` with ``clear_text``, which also presses Enter after typing.
    ``#finish#`` declares the task complete, ``#finish [N/A]#`` infeasible (AndroidArena's convention), and
    ``#finish [answer]#`` answers. An ID that is not on the screen is an invalid action ("Invalid node id"),
    not a format error, as in AndroidArena.
    """

    name = "androidarena"
    example = "#click [n51d6]#"
    looks_for = "action between a pair of # (such as #click [id]#)"

    def describe(self) -> str:
        """AndroidArena's action list."""
        return """\
Think step by step, then end your reply with exactly ONE action written between a pair of #.
[id] is the ID in brackets at the start of a line of the UI text, e.g. [n51d6].

App actions:
#start [app name]#: open an app, e.g. #start [Clock]#
UI element actions:
#click [id]#: tap the element, e.g. #click [n51d6]#
#long_click [id]#: long-press the element
#set_text [id] [text]#: replace the text of a text field with text (Enter is pressed after it),
  e.g. #set_text [n0c2f] [Hello]#
Phone actions:
#swipe_up#: move the finger up across the screen (shows what lies further down)
#swipe_down#: move the finger down across the screen (shows what lies above; opens the notifications)
#swipe_left#: move the finger from right to left across the screen
#swipe_right#: move the finger from left to right across the screen
#press_back#: go back to the previous page
#press_enter#: press Enter
#press_home#: go to the home screen
Task completion:
#finish#: the task is complete
#finish [answer]#: the task is complete and [answer] answers the user's question
#finish [N/A]#: the task is impossible

Example: The Wi-Fi row has the ID n0c2f, so the next action is #click [n0c2f]#"""

    def format(self, action: Action, screen: Screen) -> str | None:
        """``#verb [argument]#`` for ``action``; ``None`` for targets without an ID (a point, an element merged
        into another by the compression), element scrolls, typing without clearing, waiting, double taps."""
        if action in _ARENA_PLAIN_VERB:
            return f"#{_ARENA_PLAIN_VERB[action]}#"
        kind = action.action_type
        node_id = screen.ids.get(action.index) if action.index is not None else None
        if kind in (ActionType.CLICK, ActionType.LONG_PRESS) and node_id and _has_only(action, "index"):
            return f"#{'click' if kind is ActionType.CLICK else 'long_click'} [{node_id}]#"
        if (kind is ActionType.INPUT_TEXT and node_id and action.clear_text is True
                and _has_only(action, "index", "text", "clear_text") and self._bracketable(action.text)):
            return f"#set_text [{node_id}] [{action.text}]#"
        if kind is ActionType.OPEN_APP and _has_only(action, "app_name") and self._bracketable(action.app_name):
            return f"#start [{action.app_name}]#"
        if (kind is ActionType.ANSWER and _has_only(action, "text") and self._bracketable(action.text)
                and action.text.strip().upper() not in ("", _NOT_AVAILABLE)):
            return f"#finish [{action.text}]#"
        if kind is ActionType.STATUS and _has_only(action, "goal_status"):
            return {"complete": "#finish#", "infeasible": f"#finish [{_NOT_AVAILABLE}]#"}.get(action.goal_status)
        return None

    @staticmethod
    def _bracketable(text: str | None) -> bool:
        """Whether ``[text]#`` reads back as ``text``."""
        return text is not None and len(text) <= _ARENA_TEXT_CHARS and not _ARENA_CLOSER.search(text)

    def _scan(self, text: str) -> list[Any]:
        found: list[Any] = []
        covered = 0
        for verb in _ARENA_VERB.finditer(text):
            if verb.start() >= covered:
                call, covered = self._arguments(verb, text)
                found.append(call)
        return found

    @staticmethod
    def _arguments(verb: re.Match[str], text: str) -> tuple[_ArenaCall | str, int]:
        """The action ``verb`` starts, or why it is malformed; and where it ends."""
        name, at = verb.group(1).lower(), verb.end()
        node_id = None
        if name in ("click", "long_click", "set_text"):
            match = _ARENA_ID.match(text, at)
            if not match:
                return (f"{name} needs a node id: expected {_ARENA_SIGNATURES[name]}, found "
                        f"{_snippet(text[verb.start():verb.end() + 40])}"), at
            node_id, at = (match.group(1) or match.group(2)).lower(), match.end()
        if name not in ("set_text", "start", "finish"):
            return _ArenaCall(name, node_id), at
        match = _ARENA_TEXT.match(text, at) or (_ARENA_BARE.match(text, at) if name != "set_text" else None)
        if match:
            return _ArenaCall(name, node_id, match.group(1)), match.end()
        if name == "finish":
            return _ArenaCall(name), at
        return (f"{name} needs its text in brackets closed by ]#: expected {_ARENA_SIGNATURES[name]} "
                f"(at most {_ARENA_TEXT_CHARS} characters), found {_snippet(text[verb.start():verb.end() + 60])}"), at

    def _read(self, found: Any, screen: Screen) -> Action:
        call: _ArenaCall = super()._read(found, screen)
        if call.verb in _ARENA_PLAIN:
            return _ARENA_PLAIN[call.verb]
        if call.verb == "start":
            return Action(ActionType.OPEN_APP, app_name=call.text)
        if call.verb == "finish":
            answer = (call.text or "").strip()
            if not answer:
                return Action(ActionType.STATUS, goal_status="complete")
            if answer.upper() == _NOT_AVAILABLE:
                return Action(ActionType.STATUS, goal_status="infeasible")
            return Action(ActionType.ANSWER, text=call.text)
        node = screen.nodes.get(call.node_id)
        if node is None:
            raise InvalidActionError(f"Invalid node id {call.node_id}. No element of the current screen has this ID; "
                                     "use an ID in brackets from the latest UI text, e.g. [n51d6].")
        if call.verb == "set_text":
            return Action(ActionType.INPUT_TEXT, index=node.index, text=call.text, clear_text=True)
        return Action(ActionType.CLICK if call.verb == "click" else ActionType.LONG_PRESS, index=node.index)


# ----- AppAgent ----------------------------------------------------------------------------------------------------
#: A function name followed by "(", or AppAgent's bare FINISH.
_APPAGENT_TOKEN = re.compile(r"(?<![\w.])(?:(?i:(tap|text|long_press|swipe|back|home|enter|open_app|answer|grid|"
                             r"exit))\s*\(|(FINISH)\b)")
#: A whole call: arguments with quoted strings (which may hold parentheses and escaped quotes).
_APPAGENT_CALL = re.compile(r"""\w+\s*\((?:[^()"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*\)""", re.DOTALL)
_APPAGENT_PARAMETERS = {
    "tap": ("element",), "long_press": ("element",), "swipe": ("element", "direction", "dist"),
    "text": ("text_input",), "open_app": ("app_name",), "answer": ("text",),
    "back": (), "home": (), "enter": (), "exit": (), "grid": (),
}
#: Grid mode's forms of the element actions: a cell of the grid and one of its sub-areas.
_GRID_PARAMETERS = {"tap": ("area", "subarea"), "long_press": ("area", "subarea"),
                    "swipe": ("area", "subarea", "direction", "dist")}
_APPAGENT_EXAMPLES = {"tap": "tap(5)", "long_press": "long_press(5)", "swipe": 'swipe(21, "up", "medium")',
                      "text": 'text("Hello, world!")', "open_app": 'open_app("Clock")', "answer": 'answer("42")'}
_GRID_EXAMPLES = {"tap": 'tap(12, "top-left")', "long_press": 'long_press(12, "center")',
                  "swipe": 'swipe(21, "center", "up", "medium")'}
_DISTANCES = ("short", "medium", "long")
#: ``grid()`` as an ``Action``: a wait (the AppAgent dialect has no other), after which the agent shows the grid.
GRID = Action(ActionType.WAIT)
#: Functions without arguments; ``exit()`` (AppAgent's paper) ends the task like ``FINISH``. ``home()`` and
#: ``enter()`` are ours.
_APPAGENT_PLAIN = {
    "back": Action(ActionType.NAVIGATE_BACK),
    "home": Action(ActionType.NAVIGATE_HOME),
    "enter": Action(ActionType.KEYBOARD_ENTER),
    "finish": Action(ActionType.STATUS, goal_status="complete"),
    "exit": Action(ActionType.STATUS, goal_status="complete"),
    "grid": GRID,
}
_APPAGENT_PLAIN_CALL = {_APPAGENT_PLAIN["back"]: "back()", _APPAGENT_PLAIN["home"]: "home()",
                        _APPAGENT_PLAIN["enter"]: "enter()", _APPAGENT_PLAIN["finish"]: "FINISH", GRID: "grid()"}


@dataclass(frozen=True)
class _GridCall:
    """A well-formed grid-mode action before its cell is turned into a point of the screen."""

    verb: str
    area: int
    subarea: str
    direction: str | None = None

    def resolve(self, screen: Screen) -> Action:
        """The action at the cell's sub-area: a tap or long press there; a swipe scrolls the innermost scrollable
        element under the point (the screen when there is none) toward the side opposite to ``direction``."""
        if min(screen.screen_size) <= 0:
            raise InvalidActionError("grid actions need the screen's size: read replies with a Screen that has it")
        x, y = Grid(*screen.screen_size).point(self.area, self.subarea)
        if self.verb != "swipe":
            return Action(ActionType.CLICK if self.verb == "tap" else ActionType.LONG_PRESS, x=x, y=y)
        under = [element for element in screen.elements
                 if element.is_scrollable and element.bbox_pixels.contains(x, y)]
        target = max(under, key=lambda element: element.depth, default=None)
        return Action(ActionType.SCROLL, index=target.index if target else None, direction=_OPPOSITE[self.direction])


def _call_arguments(source: str) -> tuple[list[Any], dict[str, Any]]:
    """The literal positional and keyword arguments of the call ``source`` (``ValueError`` and friends if it is
    not one with literal arguments). Parsed with ``ast``, never evaluated."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes such as "C:\path" in the model's text
        tree = ast.parse(source.strip(), mode="eval")
    call = tree.body
    if not isinstance(call, ast.Call) or any(keyword.arg is None for keyword in call.keywords):
        raise ValueError("not a plain call")
    return ([ast.literal_eval(arg) for arg in call.args],
            {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords})


class AppAgentDialect(Dialect):
    """AppAgent's function calls on the numbered elements of the Set-of-Mark screenshot: ``Action: tap(5)``.

    The numbers are element indices (``info["ui_elements"]``). ``text("...")`` types into the focused field (and
    presses Enter, as our ``input_text`` does). ``swipe(element, direction, dist)`` moves the finger across the
    element in ``direction``, which reads as a ``scroll`` of that element toward the opposite side: AppAgent drags
    by a fraction of the screen width chosen by ``dist``, our ``scroll`` from the element's centre to its edge,
    so ``dist`` (``short``/``medium``/``long``) is checked but has no effect. ``FINISH`` or ``exit()`` completes
    the task. Additions: ``back()`` (AppAgent's paper), ``home()``, ``enter()``, ``open_app("...")`` and
    ``answer("...")``.

    Grid mode (``android_gym.wrappers.grid``): ``grid()`` reads as ``GRID`` (a wait), after which the LLM agent
    shows the numbered grid instead of the marks; ``tap(area, subarea)`` and ``long_press(area, subarea)`` act at
    the sub-area's point of the cell (AppAgent's nine sub-areas, ``"top-left"`` … ``"bottom-right"``);
    ``swipe(area, subarea, direction, dist)`` scrolls the innermost scrollable element under that point (AppAgent's
    grid swipe drags from one cell to another, which our actions cannot say). They need the ``Screen``'s size.
    """

    name = "appagent"
    example = "Action: tap(5)"
    looks_for = "function call (such as tap(5)) or FINISH"

    def describe(self) -> str:
        """AppAgent's function list and reply format."""
        return """\
The interactive elements of the screenshot are labeled with numbers. Control the phone with these functions:
tap(element: int): tap the element labeled with that number, e.g. tap(5)
long_press(element: int): long-press the element, e.g. long_press(5)
text(text_input: str): type text_input, in double quotes, into the focused input field (tap the field first;
  Enter is pressed after the text), e.g. text("Hello, world!")
swipe(element: int, direction: str, dist: str): move the finger across the element (a list, a slider) in
  direction "up", "down", "left" or "right"; dist is "short", "medium" or "long", e.g. swipe(21, "up", "medium")
  (here the drag always runs from the element's centre to its edge, whatever dist says)
back(): go back
home(): go to the home screen
enter(): press Enter
open_app(app_name: str): open an app, e.g. open_app("Clock")
answer(text: str): answer the user's question, e.g. answer("3 messages")
FINISH: the task is complete
grid(): at the next step, show a numbered grid over the screenshot instead of the labels, to reach a spot no
  label marks; then these functions act in a grid cell, at one of its sub-areas "top-left", "top", "top-right",
  "left", "center", "right", "bottom-left", "bottom" or "bottom-right":
  tap(area: int, subarea: str), e.g. tap(12, "top-left")
  long_press(area: int, subarea: str), e.g. long_press(12, "center")
  swipe(area: int, subarea: str, direction: str, dist: str), e.g. swipe(21, "center", "up", "medium")

Reply in this format:
Observation: <what you see on the screenshot>
Thought: <what the next step toward the task is>
Action: <one function call, or FINISH>
Summary: <your past actions and this one, in one or two sentences, without element numbers>"""

    def format(self, action: Action, screen: Screen) -> str | None:
        """The call for ``action`` (``GRID``, a wait, is ``grid()``); ``None`` for points, typing into a given
        element (AppAgent taps first, then types), swipes of the whole screen, double taps and ``infeasible``."""
        if action in _APPAGENT_PLAIN_CALL:
            return _APPAGENT_PLAIN_CALL[action]
        kind = action.action_type
        if kind in (ActionType.CLICK, ActionType.LONG_PRESS) and _has_only(action, "index"):
            return f"{'tap' if kind is ActionType.CLICK else 'long_press'}({action.index})"
        if kind is ActionType.SCROLL and _has_only(action, "index", "direction") and action.direction in _OPPOSITE:
            return f'swipe({action.index}, "{_OPPOSITE[action.direction]}", "medium")'
        quoted = {ActionType.INPUT_TEXT: ("text", "text"), ActionType.OPEN_APP: ("open_app", "app_name"),
                  ActionType.ANSWER: ("answer", "text")}.get(kind)
        if quoted and _has_only(action, quoted[1]):
            return f"{quoted[0]}({json.dumps(getattr(action, quoted[1]), ensure_ascii=False)})"
        return None

    def _scan(self, text: str) -> list[Any]:
        found: list[Any] = []
        covered = 0
        for token in _APPAGENT_TOKEN.finditer(text):
            if token.start() < covered:
                continue
            if token.group(2):
                found.append(_APPAGENT_PLAIN["finish"])
                covered = token.end()
                continue
            name = token.group(1).lower()
            call = _APPAGENT_CALL.match(text, token.start())
            if call is None:
                found.append(f"cannot read the arguments of {name}(: expected literal arguments, e.g. "
                             f"{_APPAGENT_EXAMPLES.get(name, name + '()')}, with balanced parentheses and quotes; "
                             f"found {_snippet(text[token.start():])}")
                covered = token.end()
                continue
            found.append(self._action(name, call.group()))
            covered = call.end()
        return found

    def _read(self, found: Any, screen: Screen) -> Action:
        found = super()._read(found, screen)
        return found.resolve(screen) if isinstance(found, _GridCall) else found

    @staticmethod
    def _action(name: str, source: str) -> Action | _GridCall | str:
        """The ``Action`` (``_GridCall`` in grid mode) of the call ``source`` to ``name``, or why it is not one."""
        usage = _APPAGENT_EXAMPLES.get(name, f"{name}()")
        try:
            args, kwargs = _call_arguments(source)
        except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
            return f"{_snippet(source)} is not a call with literal arguments: expected e.g. {usage}"
        if name in _GRID_PARAMETERS and len(args) + len(kwargs) == len(_GRID_PARAMETERS[name]):
            return AppAgentDialect._grid_call(name, source, args, kwargs)
        parameters = _APPAGENT_PARAMETERS[name]
        bound = dict(zip(parameters, args))
        if (len(args) > len(parameters) or set(kwargs) - set(parameters[len(args):])
                or len(bound) + len(kwargs) != len(parameters)):
            return f"{name} takes ({', '.join(parameters)}): expected e.g. {usage}, found {_snippet(source)}"
        bound.update(kwargs)
        element = bound.get("element")
        if "element" in bound and (isinstance(element, bool) or not isinstance(element, int)):
            return f"{name}'s element must be a number: expected e.g. {usage}, found {_snippet(source)}"
        for key in ("text_input", "app_name", "text"):
            if key in bound and not isinstance(bound[key], str):
                return f"{name}'s {key} must be a quoted string: expected e.g. {usage}, found {_snippet(source)}"
        if name == "swipe":
            direction, dist = bound["direction"], bound["dist"]
            if direction not in _OPPOSITE or dist not in _DISTANCES:
                return (f"swipe's direction must be up, down, left or right and its dist short, medium or long: "
                        f"expected e.g. {usage}, found {_snippet(source)}")
            return Action(ActionType.SCROLL, index=element, direction=_OPPOSITE[direction])
        if name in _APPAGENT_PLAIN:
            return _APPAGENT_PLAIN[name]
        if name in ("tap", "long_press"):
            return Action(ActionType.CLICK if name == "tap" else ActionType.LONG_PRESS, index=element)
        if name == "text":
            return Action(ActionType.INPUT_TEXT, text=bound["text_input"])
        if name == "open_app":
            return Action(ActionType.OPEN_APP, app_name=bound["app_name"])
        return Action(ActionType.ANSWER, text=bound["text"])

    @staticmethod
    def _grid_call(name: str, source: str, args: list[Any], kwargs: dict[str, Any]) -> _GridCall | str:
        """The grid-mode call ``name(area, subarea[, direction, dist])``, or why it is not one."""
        parameters, usage = _GRID_PARAMETERS[name], _GRID_EXAMPLES[name]
        bound = {**dict(zip(parameters, args)), **kwargs}
        if set(bound) != set(parameters):
            return (f"{name} takes ({', '.join(parameters)}) in grid mode: expected e.g. {usage}, "
                    f"found {_snippet(source)}")
        area, subarea = bound["area"], bound["subarea"]
        if isinstance(area, bool) or not isinstance(area, int) or not isinstance(subarea, str) \
                or subarea not in SUBAREAS:
            return (f"{name}'s area must be a grid cell's number and its subarea one of {', '.join(SUBAREAS)}: "
                    f"expected e.g. {usage}, found {_snippet(source)}")
        if name == "swipe" and (bound["direction"] not in _OPPOSITE or bound["dist"] not in _DISTANCES):
            return (f"swipe's direction must be up, down, left or right and its dist short, medium or long: "
                    f"expected e.g. {usage}, found {_snippet(source)}")
        return _GridCall(name, area, subarea, bound.get("direction"))


#: Every dialect by name.
DIALECTS: dict[str, type[Dialect]] = {dialect.name: dialect for dialect in
                                      (AndroidWorldJSON, AndroidArenaDialect, AppAgentDialect)}
