"""Long-horizon tasks scored per sub-goal: partial credit as an agent gets part of the way.

A ``SubgoalTask`` names its sub-goals (``subgoals()``: what must hold on the device, each checked through the
Device protocol) and scores the mean of their scores. A sub-goal once met stays met (``latch``), so "write the
address in a note, then text it" stays half done after the agent leaves the note. Cross-app tasks where
information flows between apps (AndroidArena's model: one app supplies what another needs) are built this way
and form the ``long_horizon`` suite (``android_gym.evaluation.suite``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from android_gym.device.base import Device
from android_gym.device.reads import one_look
from android_gym.tasks.base import Task


@dataclass(frozen=True)
class Subgoal:
    """One part of a task's goal: ``description`` says it in words; ``check`` scores it in [0, 1] on a device."""

    description: str
    check: Callable[[Device], float]


class SubgoalTask(Task):
    """A task whose score is the mean of its sub-goals' scores (latched: a sub-goal that once scored 1.0 keeps it).

    Subclasses implement ``subgoals()`` instead of ``is_successful``; ``subgoal_scores`` holds the last scores,
    one per sub-goal, for reports and partial-credit metrics.
    """

    latch: ClassVar[bool] = True

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self._subgoals: Sequence[Subgoal] | None = None
        self.subgoal_scores: list[float] = []

    def subgoals(self) -> Sequence[Subgoal]:
        """The sub-goals, in the order a person would reach them."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """The mean of the sub-goals' scores; a latched sub-goal that reached 1.0 counts 1.0 from then on. The checks
        share one look at the phone (``one_look``): what two of them read is read once."""
        if self._subgoals is None:
            self._subgoals = tuple(self.subgoals())
            self.subgoal_scores = [0.0] * len(self._subgoals)
        with one_look():
            for index, subgoal in enumerate(self._subgoals):
                if not (self.latch and self.subgoal_scores[index] >= 1.0):
                    self.subgoal_scores[index] = min(1.0, max(0.0, float(subgoal.check(device))))
        return sum(self.subgoal_scores) / len(self.subgoal_scores)
