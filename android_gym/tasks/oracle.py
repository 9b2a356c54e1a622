"""Oracle steps: UI actions described by what a person looks for on screen, resolved at each step.

An oracle is a list of steps; each step turns the current ``ui_elements`` into one env ``Action`` (a tap on
the element whose text is "Send", typing into the field whose hint is "Type a message…", a key press).
Nothing here touches the device: an oracle acts only through the env's actions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from android_gym.actions import Action, ActionType
from android_gym.errors import AndroidGymError
from android_gym.ui import UIElement

OracleStep = Callable[[Sequence[UIElement]], Action]


class OracleError(AndroidGymError):
    """An oracle step found no element matching what it looks for (the task's UI assumption broke)."""


@dataclass(frozen=True)
class Selector:
    """Matches an element by exact text, content description, resource id and/or class suffix."""

    text: str | None = None
    content_desc: str | None = None
    resource_id: str | None = None
    class_suffix: str | None = None

    def matches(self, element: UIElement) -> bool:
        """Whether ``element`` has every property this selector names."""
        return ((self.text is None or element.text == self.text)
                and (self.content_desc is None or element.content_description == self.content_desc)
                and (self.resource_id is None or element.resource_name == self.resource_id)
                and (self.class_suffix is None or element.class_name.endswith(self.class_suffix)))

    def find(self, elements: Sequence[UIElement]) -> UIElement:
        """The last (top-most) matching element; ``OracleError`` when there is none."""
        found = [element for element in elements if self.matches(element) and element.bbox_pixels.area > 0]
        if not found:
            raise OracleError(f"no element on screen matches {self}")
        return found[-1]


def tap(selector: Selector) -> OracleStep:
    """Click the element ``selector`` finds."""
    return lambda elements: Action(ActionType.CLICK, index=selector.find(elements).index)


def type_into(selector: Selector, text: str) -> OracleStep:
    """Focus the field ``selector`` finds, type ``text`` and press ENTER (AndroidWorld's input_text)."""
    return lambda elements: Action(ActionType.INPUT_TEXT, index=selector.find(elements).index, text=text)


def act(action: Action) -> OracleStep:
    """A step that needs nothing from the screen (open an app, go back, answer, ...)."""
    return lambda elements: action


def open_app(name: str) -> OracleStep:
    """Open an app by name."""
    return act(Action(ActionType.OPEN_APP, app_name=name))


def complete() -> OracleStep:
    """Declare the task done."""
    return act(Action(ActionType.STATUS, goal_status="complete"))


class OraclePolicy:
    """Plays a task's oracle steps one per env step; ``act`` takes the step's ``info["ui_elements"]``."""

    def __init__(self, steps: Sequence[OracleStep]) -> None:
        self._steps = list(steps)
        self._next = 0

    @property
    def done(self) -> bool:
        """Whether every step has been played."""
        return self._next >= len(self._steps)

    def act(self, elements: Sequence[UIElement]) -> Action:
        """The next action; after the last step it keeps declaring the task complete."""
        if self.done:
            return Action(ActionType.STATUS, goal_status="complete")
        step = self._steps[self._next]
        self._next += 1
        return step(elements)
