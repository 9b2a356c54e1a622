"""Task composition: registered tasks joined into one cross-app task (AndroidWorld's composite tasks, generalized).

``compose("ContactsAddContact", "SimpleSmsSend", name="AddContactThenText",
links={"SimpleSmsSend.number": "ContactsAddContact.number"})`` builds and registers a task whose

* parameters are each part's parameters, drawn in order from the one env rng, keyed by part name (a part used
  twice gets ``_2``); ``links`` copy a parameter of one part into another, so the parts talk about the same
  person or text;
* setup runs every part's ``clear_state`` before any part's ``seed_state``, so no part wipes what another wrote;
* score is the mean of the parts' scores, so the agent earns partial reward as parts complete. With
  ``latch=True`` (the default) a part that once scored 1.0 stays done: "do A, then B" is solved even when B
  leaves the app A's check looks at. ``latch=False`` is AndroidWorld's rule (every part must hold at the end);
* goal joins the parts' goals ("…, then …") unless a ``template`` is given (``{Part[param]}`` fields);
* oracle plays the parts' oracles in order, leaving each part's app with BACK before the next, and declares
  completion once, at the end.

The composite registers like any task: ``gym.make("AndroidWorld/AddContactThenText-v0")``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.device.base import Device
from android_gym.errors import AndroidGymError
from android_gym.tasks.base import Task
from android_gym.tasks.oracle import OracleStep, back_to_home, complete, declares_completion
from android_gym.tasks.registry import get_task, register_task


class CompositionError(AndroidGymError):
    """A composition names no parts, links a parameter that does not exist, or reuses another task's name."""


class CompositeTask(Task):
    """Several tasks as one; built by ``compose``, which sets ``parts``, ``links`` and ``latch``."""

    #: ``(key, task class)`` per part, in order.
    parts: ClassVar[tuple[tuple[str, type[Task]], ...]] = ()
    #: ``((to_part, to_param), (from_part, from_param))`` per link.
    links: ClassVar[tuple[tuple[tuple[str, str], tuple[str, str]], ...]] = ()
    latch: ClassVar[bool] = True
    goal_template: ClassVar[str | None] = None

    def __init__(self, params: dict[str, Any]) -> None:
        self.tasks: list[Task] = [part(params[key]) for key, part in self.parts]
        super().__init__(params)
        self._done = [False] * len(self.tasks)

    @property
    def answer(self) -> str | None:
        """The agent's answer, shared with every part (a part may be a question)."""
        return self._answer

    @answer.setter
    def answer(self, value: str | None) -> None:
        self._answer = value
        for task in self.tasks:
            task.answer = value

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Each part's parameters from the same rng, in order, then the links applied."""
        params = {key: part.generate_params(rng) for key, part in cls.parts}
        for (to_part, to_param), (from_part, from_param) in cls.links:
            params[to_part][to_param] = params[from_part][from_param]
        return params

    @classmethod
    def max_steps(cls) -> int:
        """The parts' step budgets added up."""
        return sum(part.max_steps() for _, part in cls.parts)

    @property
    def goal(self) -> str:
        """The given template filled in, else the parts' goals joined: "A, then b, then c."."""
        if self.goal_template is not None:
            return self.goal_template.format(**self.params)
        goals = [task.goal.strip().rstrip(".") for task in self.tasks[:-1]] + [self.tasks[-1].goal.strip()]
        joined = ", then ".join([goals[0], *map(_lower_first, goals[1:])])
        return joined if joined.endswith((".", "!", "?")) else joined + "."

    def clear_state(self, device: Device) -> None:
        """Every part's ``clear_state``, before any part seeds (``initialize`` runs this phase first)."""
        for task in self.tasks:
            task.clear_state(device)

    def seed_state(self, device: Device) -> None:
        """Every part's ``seed_state``, in order."""
        for task in self.tasks:
            task.seed_state(device)

    def is_successful(self, device: Device) -> float:
        """The mean of the parts' scores (a latched part that reached 1.0 counts as 1.0 from then on)."""
        scores = []
        for index, task in enumerate(self.tasks):
            score = 1.0 if self.latch and self._done[index] else task.is_successful(device)
            self._done[index] = self._done[index] or score >= 1.0
            scores.append(score)
        return sum(scores) / len(scores)

    def teardown(self, device: Device) -> None:
        """Every part's teardown, last part first."""
        for task in reversed(self.tasks):
            task.teardown(device)

    def hand_over(self, device: Device, rewound: bool = False) -> None:
        """Every part's ``hand_over``, last part first: the next episode's ``initialize`` runs every part's
        ``clear_state`` before any seeding, as each part's own set-up would."""
        for task in reversed(self.tasks):
            task.hand_over(device, rewound)

    def oracle(self) -> Sequence[OracleStep]:
        """The parts' oracles in order, completion declared once at the end."""
        steps: list[OracleStep] = []
        for index, task in enumerate(self.tasks):
            if index:
                steps += back_to_home()  # the next part starts from the home screen with its app afresh
            steps += [step for step in task.oracle() if not declares_completion(step)]
        return [*steps, complete()]


def compose(*parts: str, name: str, links: Mapping[str, str] | None = None, template: str | None = None,
            latch: bool = True, register: bool = True) -> type[CompositeTask]:
    """Build (and by default register) a task made of the registered tasks ``parts``, done in that order.

    ``links`` maps ``"Part.param"`` to the ``"OtherPart.param"`` whose value it takes (parts are named as
    given; a repeated part is ``Name_2``). ``template`` replaces the joined goal; its fields are
    ``{Part[param]}``. See the module docstring for setup, scoring and the oracle.
    """
    if not parts:
        raise CompositionError("compose() needs at least one task name")
    classes = [get_task(part) for part in parts]
    keys = _part_keys(parts)
    sample = {key: part.generate_params(np.random.default_rng(0)) for key, part in zip(keys, classes)}
    parsed_links = tuple((_param_ref(to, sample), _param_ref(source, sample))
                         for to, source in (links or {}).items())
    if template is not None:
        _check_template(template, sample)
    existing = _registered(name)
    if existing is not None and not issubclass(existing, CompositeTask):
        raise CompositionError(f"{name!r} is already the name of task {existing.__qualname__}; pick another")
    packages = tuple(dict.fromkeys(package for part in classes for package in part.app_packages))
    attributes = {
        "name": name, "parts": tuple(zip(keys, classes)), "links": parsed_links, "latch": latch,
        "goal_template": template, "app_packages": packages,
        "complexity": sum(part.complexity for part in classes),
        "template": template or ", then ".join(_scoped_template(key, part) for key, part in zip(keys, classes)),
        "succeeds_without_action": all(part.succeeds_without_action for part in classes),
        "scored_at_end": any(part.scored_at_end for part in classes),
        "__doc__": f"Composite of {', '.join(parts)} (built by ``android_gym.compose``).",
        "__module__": __name__,
    }
    composite = type(name, (CompositeTask,), attributes)
    return register_task(composite) if register else composite


def _part_keys(parts: Sequence[str]) -> list[str]:
    """Each part's key: its name, with ``_2``, ``_3``… for repeats."""
    return [part if parts[:i].count(part) == 0 else f"{part}_{parts[:i].count(part) + 1}"
            for i, part in enumerate(parts)]


def _param_ref(reference: str, sample: dict[str, dict[str, Any]]) -> tuple[str, str]:
    part, dot, param = reference.partition(".")
    if not dot or part not in sample or param not in sample[part]:
        known = {key: sorted(values) for key, values in sample.items()}
        raise CompositionError(f"link end {reference!r} is not Part.param of this composition; "
                               f"the parts and their parameters are {known}")
    return part, param


def _check_template(template: str, sample: dict[str, dict[str, Any]]) -> None:
    try:
        template.format(**sample)
    except (KeyError, IndexError, ValueError) as error:
        raise CompositionError(f"template {template!r} does not fit the parts' parameters ({error!r}); "
                               f"write fields as {{Part[param]}}") from None


def _registered(name: str) -> type[Task] | None:
    try:
        return get_task(name)
    except AndroidGymError:
        return None


def _scoped_template(key: str, part: type[Task]) -> str:
    """A part's template with its fields rewritten to ``{key[field]}`` (for listings)."""
    pieces = []
    for literal, field, spec, conversion in string.Formatter().parse(part.template.rstrip(".")):
        pieces.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            pieces.append("{" + f"{key}[{field}]" + (f"!{conversion}" if conversion else "")
                          + (f":{spec}" if spec else "") + "}")
    return "".join(pieces)


def _lower_first(text: str) -> str:
    """``"Send a text"`` → ``"send a text"``; acronyms and names in capitals (``"SMS"``) stay as they are."""
    return text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text
