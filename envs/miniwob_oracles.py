"""Oracles for MiniWoB++ tasks in the phone's Chrome: each reads the task's utterance (its goal) and the page's
accessibility nodes, and acts through the UI only (taps on page nodes by text, typing into the page's fields).
``ORACLES`` maps a MiniWoB task name to a function of the utterance returning the steps."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import chrome
from android_gym.tasks.oracle import OracleError, OracleStep, complete
from android_gym.ui import UIElement

_TOOLBAR = f"{chrome.PACKAGE}:id/"


def _page(elements: Sequence[UIElement]) -> list[UIElement]:
    """The page's nodes: Chrome's, not its toolbar's."""
    return [e for e in elements if e.package_name == chrome.PACKAGE and not e.resource_name.startswith(_TOOLBAR)
            and not e.class_name.endswith("WebView")]


def quoted(utterance: str) -> list[str]:
    """The ``"…"`` parts of an utterance."""
    return re.findall(r'"([^"]*)"', utterance)


def tap_text(text: str, kind: str = "") -> OracleStep:
    """Tap the page's clickable node whose text is ``text`` (of class ending in ``kind``)."""
    def step(elements: Sequence[UIElement]) -> Action:
        for element in _page(elements):
            if element.text == text and element.is_clickable and element.class_name.endswith(kind):
                return Action(ActionType.CLICK, index=element.index)
        raise OracleError(f"no clickable {kind or 'node'} {text!r} on the page")
    return step


def _field(number: int, elements: Sequence[UIElement]) -> UIElement:
    fields = [e for e in _page(elements) if e.class_name.endswith("EditText")]
    if len(fields) <= number:
        raise OracleError(f"the page has no text field #{number + 1}")
    return fields[number]


def type_field(number: int, text: str | Callable[[Sequence[UIElement]], str]) -> OracleStep:
    """Type into the page's text field ``number`` (0-based, in page order); ``text`` may read the screen."""
    def step(elements: Sequence[UIElement]) -> Action:
        value = text(elements) if callable(text) else text
        return Action(ActionType.INPUT_TEXT, index=_field(number, elements).index, text=value)
    return step


def tap_field(number: int) -> OracleStep:
    """Tap the page's text field ``number``."""
    return lambda elements: Action(ActionType.CLICK, index=_field(number, elements).index)


def _screen_text(pattern: str, elements: Sequence[UIElement]) -> re.Match[str]:
    for element in _page(elements):
        found = re.fullmatch(pattern, element.text.strip())
        if found:
            return found
    raise OracleError(f"no page text matches {pattern}")


def _arithmetic(elements: Sequence[UIElement]) -> str:
    """``a op b =`` on the page, solved."""
    a, op, b = _screen_text(r"(-?\d+) ([-+x]) (-?\d+) =", elements).groups()
    x, y = int(a), int(b)
    return str(x + y if op == "+" else x - y if op == "-" else x * y)


def _algebra(elements: Sequence[UIElement]) -> str:
    """``x op d = r`` or ``d op x = r`` on the page, solved for x."""
    found = _screen_text(r"(x|\d+) ([-+]) (x|\d+) = (-?\d+)", elements)
    left, op, right, result = found.groups()
    r = int(result)
    if left == "x":
        d = int(right)
        return str(r - d if op == "+" else r + d)
    d = int(left)
    return str(r - d if op == "+" else d - r)


def _checkboxes(utterance: str) -> list[OracleStep]:
    names = re.fullmatch(r"Select (.*) and click Submit\.", utterance)
    wanted = [] if names is None or names.group(1) == "nothing" else names.group(1).split(", ")
    return [*(tap_text(name, "CheckBox") for name in wanted), tap_text("Submit", "Button"), complete()]


def _dialog_2(utterance: str) -> list[OracleStep]:
    label = quoted(utterance)[0]
    return [tap_text("Close" if label == "x" else label, "Button"), complete()]


def _sequence(utterance: str) -> list[OracleStep]:
    return [*(tap_text(name, "Button") for name in re.findall(r"button (\w+)", utterance)), complete()]


def _enter_text_2(utterance: str) -> list[OracleStep]:
    text = quoted(utterance)[0]
    text = text.upper() if "upper case" in utterance else text.lower()
    return [type_field(0, text), tap_text("Submit", "Button"), complete()]


def _focus_2(utterance: str) -> list[OracleStep]:
    position = re.search(r"(\d)(st|nd|rd|th) input", utterance)
    return [tap_field(int(position.group(1)) - 1 if position else 0), complete()]


def _collapsible(utterance: str) -> list[OracleStep]:
    def open_section(elements: Sequence[UIElement]) -> Action:
        return tap_text(_screen_text(r"Section #\d+", elements).group(0), "TabWidget")(elements)
    return [open_section, tap_text("Submit", "Button"), complete()]


def _click_quoted(kind: str) -> Callable[[str], list[OracleStep]]:
    return lambda utterance: [tap_text(quoted(utterance)[0], kind), complete()]


def _enter_quoted(utterance: str) -> list[OracleStep]:
    return [type_field(0, quoted(utterance)[0]), tap_text("Submit", "Button"), complete()]


ORACLES: dict[str, Callable[[str], list[OracleStep]]] = {
    "click-button": _click_quoted("Button"),
    "unicode-test": _click_quoted("Button"),
    "click-link": _click_quoted("View"),
    "click-dialog": lambda utterance: [tap_text("Close", "Button"), complete()],
    "click-dialog-2": _dialog_2,
    "click-test": lambda utterance: [tap_text("Click Me!", "Button"), complete()],
    "click-test-2": _sequence,
    "click-test-transfer": _sequence,
    "click-button-sequence": _sequence,
    "click-tab": lambda utterance: [tap_text(re.search(r"Tab #\d+", utterance).group(0), "TabWidget"), complete()],
    "click-collapsible": _collapsible,
    "click-checkboxes": _checkboxes,
    "click-checkboxes-transfer": _checkboxes,
    "click-option": lambda utterance: [tap_text(re.fullmatch(r"Select (.*) and click Submit\.", utterance).group(1),
                                                "RadioButton"), tap_text("Submit", "Button"), complete()],
    "enter-text": _enter_quoted,
    "enter-text-dynamic": _enter_quoted,
    "enter-text-2": _enter_text_2,
    "enter-password": lambda utterance: [type_field(0, quoted(utterance)[0]), type_field(1, quoted(utterance)[0]),
                                         tap_text("Submit", "Button"), complete()],
    "login-user": lambda utterance: [type_field(0, quoted(utterance)[0]), type_field(1, quoted(utterance)[1]),
                                     tap_text("Login", "Button"), complete()],
    "focus-text": lambda utterance: [tap_field(0), complete()],
    "focus-text-2": _focus_2,
    "simple-arithmetic": lambda utterance: [type_field(0, _arithmetic), tap_text("Submit", "Button"), complete()],
    "simple-algebra": lambda utterance: [type_field(0, _algebra), tap_text("Submit", "Button"), complete()],
}
