"""Constraints on how a task may be solved (AndroidArena's constrained tasks): forbidden apps, pages and elements.

AndroidArena (``tasks/constrain.yaml``) adds a user's constraint to an instruction at three levels: app ("Do NOT use
the Weather APP."), page ("Do NOT enter the label list page in my Gmail.") and component ("Do not click the
"Send"-like button"), and measures how often agents break them. Here each level is a declarative, frozen
dataclass, also writable as a plain mapping with a ``kind`` (``{"kind": "app", "package": ..., "app_name": ...}``)
for configuration files:

* ``ForbiddenApp``: the app's package shows up on screen, or ``open_app`` names it;
* ``ForbiddenPage``: an activity (``package/class``, as ``dumpsys`` reports the focused one), a screen showing a
  text (an element whose text or content description equals it), or both at once;
* ``ForbiddenElement``: a touch (click, double tap, long press, typing into a field) lands on a matching element
  (``android_gym.tasks.oracle.Selector`` matching: exact text, content description, resource id) or inside one.

``ApplyConstraints`` tells the agent the constraints in the goal and reports violations in ``info``.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar

import gymnasium as gym
from gymnasium import spaces

from android_gym.actions import Action, ActionType, resolve_package, to_action
from android_gym.device import state
from android_gym.env import to_ascii_xml
from android_gym.errors import AndroidGymError, DeviceError, InvalidActionError
from android_gym.spaces import SharedText
from android_gym.tasks.oracle import Selector
from android_gym.ui import UIElement

#: Actions that touch the screen at an element or a point (``input_text`` taps its target before typing).
_TOUCHES = {ActionType.CLICK, ActionType.DOUBLE_TAP, ActionType.LONG_PRESS, ActionType.INPUT_TEXT}


class ConstraintError(AndroidGymError, ValueError):
    """A constraint or an ``ApplyConstraints`` configuration that cannot work."""


@dataclass(frozen=True)
class Screen:
    """What was on screen after a step: its UI elements and, when a page constraint needs it, the focused
    activity as ``package/class`` (``None`` when not read)."""

    elements: Sequence[UIElement]
    activity: str | None = None


@dataclass(frozen=True)
class Transition:
    """One env step as constraints see it: the screen before, the action (``None`` if it was invalid), the
    screen after."""

    before: Screen
    action: Action | None
    after: Screen


class Constraint:
    """Base of the constraint dataclasses: a sentence for the agent and a violation check."""

    kind: ClassVar[str] = ""

    @property
    def needs_activity(self) -> bool:
        """Whether checking needs the focused activity (one ``dumpsys`` per step)."""
        return False

    def describe(self) -> str:
        """The sentence appended to the goal, e.g. "Do not open the Contacts app."."""
        raise NotImplementedError

    def violation(self, step: Transition) -> str | None:
        """What broke the constraint in ``step`` (a short detail), or ``None``."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The declarative form: ``{"kind": ..., <fields that are set>}`` (``parse_constraint`` reads it back)."""
        return {"kind": self.kind, **{name: value for name, value in asdict(self).items() if value is not None}}


def _check(constraint: Constraint, *required: str) -> None:
    """``ConstraintError`` unless every field is a string or ``None`` and one of ``required`` is non-empty."""
    owner = type(constraint).__name__
    for field in fields(constraint):
        value = getattr(constraint, field.name)
        if value is not None and not isinstance(value, str):
            raise ConstraintError(f"{owner}.{field.name} must be a string, got {value!r}")
    if not any(getattr(constraint, name) for name in required):
        raise ConstraintError(f"{owner} needs {' or '.join(required)} (a non-empty string)")


@dataclass(frozen=True)
class ForbiddenApp(Constraint):
    """Do not use an app: violated when the app comes on screen or ``open_app`` names it.

    ``package`` identifies the app, ``app_name`` names it in the sentence ("Do not open the Contacts app."),
    ``name`` replaces that whole noun phrase when the package is not an app to a person (``com.android.systemui``:
    "the quick settings panel").
    """

    kind: ClassVar[str] = "app"
    package: str
    app_name: str
    name: str | None = None

    def __post_init__(self) -> None:
        _check(self, "package")
        _check(self, "app_name")

    def describe(self) -> str:
        """The sentence: "Do not open the <app_name> app." (or ``name``)."""
        return f"Do not open {self.name or f'the {self.app_name} app'}."

    def _shown(self, screen: Screen) -> bool:
        return any(element.package_name == self.package for element in screen.elements)

    def violation(self, step: Transition) -> str | None:
        """An ``open_app`` of the package, or the package newly on screen."""
        action = step.action
        if action is not None and action.action_type is ActionType.OPEN_APP:
            try:
                if resolve_package(action.app_name or "") == self.package:
                    return f"open_app {action.app_name!r}"
            except InvalidActionError:
                pass
        if self._shown(step.after) and not self._shown(step.before):
            return f"{self.package} came on screen"
        return None


def _component(activity: str) -> str:
    """``package/class`` with a ``.Short`` class name expanded (``dumpsys`` writes both forms)."""
    package, _, name = activity.partition("/")
    return f"{package}/{package}{name}" if name.startswith(".") else activity


@dataclass(frozen=True)
class ForbiddenPage(Constraint):
    """Do not enter a page: an activity (``package/class``), a screen showing ``text`` (an element whose text or
    content description equals it), or that activity showing that text; violated when the page comes on screen.

    ``name`` names the page in the sentence ("Do not open the new conversation screen.").
    """

    kind: ClassVar[str] = "page"
    activity: str | None = None
    text: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        _check(self, "activity", "text")
        if self.activity is not None and "/" not in self.activity:
            raise ConstraintError(f"ForbiddenPage.activity must be 'package/class' (as dumpsys shows the focused "
                                  f"activity), got {self.activity!r}")

    @property
    def needs_activity(self) -> bool:
        """Whether the page is identified by its activity."""
        return self.activity is not None

    def describe(self) -> str:
        """The sentence: "Do not open <name>." (by default the page is named by its activity and/or text)."""
        if self.name:
            return f"Do not open {self.name}."
        showing = f' showing "{self.text}"' if self.text is not None else ""
        return f"Do not open {f'the {self.activity} screen' if self.activity else 'any screen'}{showing}."

    def _shown(self, screen: Screen) -> bool:
        if self.activity is not None and (screen.activity is None
                                          or _component(screen.activity) != _component(self.activity)):
            return False
        return self.text is None or any(self.text in (element.text, element.content_description)
                                        for element in screen.elements)

    def violation(self, step: Transition) -> str | None:
        """The page newly on screen."""
        if not self._shown(step.after) or self._shown(step.before):
            return None
        return f"entered {self.activity or 'a screen'}" + (f' showing "{self.text}"' if self.text is not None else "")


@dataclass(frozen=True)
class ForbiddenElement(Constraint):
    """Do not touch an element: violated when a click, double tap, long press or ``input_text`` lands on an
    element matching ``text`` / ``content_desc`` / ``resource_id`` (all given ones, exactly) or on anything inside
    one (its label, its icon).

    ``name`` names it in the sentence ("Do not tap the Stopwatch tab.").
    """

    kind: ClassVar[str] = "element"
    text: str | None = None
    content_desc: str | None = None
    resource_id: str | None = None
    name: str | None = None

    def __post_init__(self) -> None:
        _check(self, "text", "content_desc", "resource_id")

    @property
    def selector(self) -> Selector:
        """The oracle selector matching the forbidden element."""
        return Selector(text=self.text, content_desc=self.content_desc, resource_id=self.resource_id)

    def describe(self) -> str:
        """The sentence: "Do not tap <name>." (by default the element is named by its properties)."""
        if self.name:
            return f"Do not tap {self.name}."
        parts = [f'{label} "{value}"' for label, value in (("text", self.text), ("description", self.content_desc),
                                                            ("id", self.resource_id)) if value is not None]
        return f"Do not tap any element with {' and '.join(parts)}."

    def violation(self, step: Transition) -> str | None:
        """A touch on a matching element (or inside one) of the screen the action was chosen on."""
        matching = next((element for element in touched(step.action, step.before.elements)
                         if self.selector.matches(element)), None)
        if matching is None:
            return None
        return f"{step.action.action_type.value} on element {matching.index} ({matching.label or matching.class_name})"


def touched(action: Action | None, elements: Sequence[UIElement]) -> list[UIElement]:
    """The element a touching ``action`` lands on (by ``index``, else the topmost one containing its x/y point)
    followed by the elements it is nested in, innermost first; empty for other actions or no such element."""
    if action is None or action.action_type not in _TOUCHES:
        return []
    if action.index is not None:
        position = action.index if 0 <= action.index < len(elements) else None
    elif action.x is not None and action.y is not None:
        position = next((position for position in reversed(range(len(elements)))
                         if elements[position].bbox_pixels.contains(action.x, action.y)), None)
    else:
        position = None
    if position is None:
        return []
    chain = [elements[position]]
    for element in reversed(elements[:position]):
        if element.depth < chain[-1].depth:
            chain.append(element)
    return chain


KINDS: dict[str, type[Constraint]] = {cls.kind: cls for cls in (ForbiddenApp, ForbiddenPage, ForbiddenElement)}


def parse_constraint(value: Constraint | Mapping[str, Any]) -> Constraint:
    """A constraint from a constraint or its declarative form (``{"kind": "app"|"page"|"element", ...}``)."""
    if isinstance(value, Constraint):
        return value
    if not isinstance(value, Mapping):
        raise ConstraintError(f"a constraint is a ForbiddenApp/ForbiddenPage/ForbiddenElement or a mapping with a "
                              f"'kind', got {type(value).__name__}")
    data = dict(value)
    kind = data.pop("kind", None)
    if kind not in KINDS:
        raise ConstraintError(f"constraint kind must be one of {sorted(KINDS)}, got {kind!r}")
    cls = KINDS[kind]
    known = [field.name for field in fields(cls)]
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConstraintError(f"unknown field {key!r} for a {kind} constraint{hint}; its fields: {known}")
    try:
        return cls(**data)
    except TypeError as error:
        raise ConstraintError(f"bad {kind} constraint {dict(value)}: {error}") from error


class ApplyConstraints(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Adds constraints to the task: the agent reads them in the goal, the wrapper reports (and can punish)
    violations, as AndroidArena's constrained tasks.

    ## Observation Space
    The env's, with one constraint sentence per line appended to ``goal`` (its ``Text`` space grows by their
    length; the sentences are ASCII, like the goal, with other characters as XML character references).

    ## Rewards
    The env's reward minus ``penalty`` on every step with at least one violation.

    ## Episode End
    As the env's; with ``terminate_on_violation`` also ``terminated`` on the first violating step.

    ## Info
    ``info["constraint_violations"]``: the violations of this step (``[]`` at reset and on clean steps), each
    ``{"constraint": <sentence>, "kind": "app"|"page"|"element", "step": <step of the episode, from 1>,
    "detail": <what happened>}``; ``info["constraint_violation_count"]``: violations so far in the episode.

    ## When a constraint is violated
    An app or page constraint is violated on the step that brings the app or page on screen (or, for an app,
    whose ``open_app`` names it): staying there is the same violation, leaving and coming back a new one. An
    element constraint is violated by each touch on the element, judged on the screen the action was chosen on
    (``info["ui_elements"]`` of the previous step). An action the env reports invalid violates nothing. Page
    constraints with an activity read it once per step and at reset (``state.foreground_activity``, a
    ``dumpsys``); other checks use only the step's UI elements.

    ## Arguments
    ``env``: an env with ``Dict`` observations holding a ``Text`` ``goal`` and ``info["ui_elements"]`` (an
    ``AndroidEnv``, possibly wrapped). ``constraints``: ``ForbiddenApp``/``ForbiddenPage``/``ForbiddenElement``
    objects or their mappings. ``penalty``: subtracted from the reward per violating step (≥ 0).
    ``terminate_on_violation``: end the episode at the first violation.
    """

    def __init__(self, env: gym.Env, constraints: Sequence[Constraint | Mapping[str, Any]], penalty: float = 0.0,
                 terminate_on_violation: bool = False) -> None:
        if isinstance(constraints, (str, bytes, Mapping)) or not isinstance(constraints, Sequence):
            raise ConstraintError("constraints must be a list of constraints (ForbiddenApp, ForbiddenPage, "
                                  "ForbiddenElement or their mappings)")
        parsed = tuple(parse_constraint(constraint) for constraint in constraints)
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not math.isfinite(penalty) \
                or penalty < 0:
            raise ConstraintError(f"penalty must be a finite number >= 0 (it is subtracted from the reward of a "
                                  f"violating step), got {penalty!r}")
        gym.utils.RecordConstructorArgs.__init__(self, constraints=[constraint.to_dict() for constraint in parsed],
                                                 penalty=penalty, terminate_on_violation=terminate_on_violation)
        gym.Wrapper.__init__(self, env)
        self.constraints = parsed
        self.penalty = float(penalty)
        self.terminate_on_violation = bool(terminate_on_violation)
        self._suffix = "".join("\n" + to_ascii_xml(constraint.describe()) for constraint in parsed)
        self.observation_space = self._goal_space(env.observation_space)
        self._needs_activity = any(constraint.needs_activity for constraint in parsed)
        self._before = Screen(())
        self._steps = 0
        self._count = 0

    def _goal_space(self, space: gym.Space) -> spaces.Dict:
        """``space`` with the goal's ``Text`` long enough for the constraint sentences."""
        goal = space.spaces.get("goal") if isinstance(space, spaces.Dict) else None
        if not isinstance(goal, spaces.Text):
            raise ConstraintError("ApplyConstraints needs an env whose observation space is a Dict with a Text "
                                  "'goal' (an AndroidEnv); apply it before wrappers that change the goal")
        missing = sorted(set(self._suffix) - goal.character_set)
        if missing:
            raise ConstraintError(f"the goal's charset lacks {missing}, used by the constraint sentences; reword "
                                  "the constraints' names")
        text = SharedText(goal.max_length + len(self._suffix), min_length=goal.min_length,
                          charset=goal.characters)
        return spaces.Dict({**space.spaces, "goal": text})

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset the env and the episode's violation count."""
        observation, info = self.env.reset(seed=seed, options=options)
        self._steps = self._count = 0
        self._before = self._screen(info)
        info["constraint_violations"] = []
        info["constraint_violation_count"] = 0
        return self._with_goal(observation), info

    def step(self, action: Any):
        """Step the env, check every constraint on the step, apply the penalty and termination."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        after = self._screen(info)
        transition = Transition(self._before, self._action(action, info), after)
        self._before = after
        violations = [{"constraint": constraint.describe(), "kind": constraint.kind, "step": self._steps,
                       "detail": detail}
                      for constraint in self.constraints if (detail := constraint.violation(transition)) is not None]
        self._count += len(violations)
        if violations:
            reward = float(reward) - self.penalty
            terminated = terminated or self.terminate_on_violation
        info["constraint_violations"] = violations
        info["constraint_violation_count"] = self._count
        return self._with_goal(observation), reward, terminated, truncated, info

    def _with_goal(self, observation: dict[str, Any]) -> dict[str, Any]:
        return {**observation, "goal": observation["goal"] + self._suffix}

    def _screen(self, info: dict[str, Any]) -> Screen:
        """The step's screen; the activity only when a constraint needs it and the device answers."""
        activity = None
        if self._needs_activity and not info.get("backend_error"):
            try:
                activity = state.foreground_activity(self.env.unwrapped.device)
            except DeviceError:
                activity = None  # the env meets the failure itself at its next step and reports it
        return Screen(tuple(info.get("ui_elements", ())), activity)

    def _action(self, action: Any, info: dict[str, Any]) -> Action | None:
        """The action as executed, or ``None`` when the env reported it invalid (or the device failed)."""
        if info.get("invalid_action") or info.get("backend_error"):
            return None
        try:
            return to_action(action, self.env.unwrapped.device.screen_size)
        except InvalidActionError:
            return None
