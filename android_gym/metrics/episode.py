"""What the metrics read: one episode as a typed record, built from a ``RecordTrajectory`` log or from actions."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym

from android_gym.actions import Action, ActionType
from android_gym.errors import InvalidActionError

#: The name of the log ``RecordTrajectory`` writes in each episode directory.
TRAJECTORY_FILE = "trajectory.jsonl"
#: The task, seed, options and parameters of the episode, which ``RecordTrajectory`` writes beside its log.
EPISODE_FILE = "episode.json"
#: The oracle's actions for the episode's parameters (``save_oracle``; ``android-gym eval`` writes it).
ORACLE_FILE = "oracle.jsonl"


def action_key(action: Any) -> str:
    """The canonical, comparable form of an action: ``Action.to_json()`` of whatever ``Action.parse`` reads
    (an Action, its JSON, a mapping); anything else (an ``{"invalid_action": ...}`` record, a raw sample) as
    ``"raw:"`` + its sorted-key JSON, so the same unreadable output repeated gives the same key."""
    try:
        return Action.parse(action).to_json()
    except InvalidActionError:
        return "raw:" + json.dumps(action, sort_keys=True, ensure_ascii=False, default=repr)


def _parsed(action: Any) -> Action | None:
    try:
        return Action.parse(action)
    except InvalidActionError:
        return None


def is_operation(action: Action | None) -> bool:
    """Whether a step counts as an operation on the phone: every step but ``status`` (the agent declaring itself
    done, AndroidArena's ``FINISH``, which their evaluator leaves out of both action sequences). An ``answer``
    counts: it carries the task's result and an oracle of a question ends with it."""
    return action is None or action.action_type is not ActionType.STATUS


@dataclass(frozen=True)
class StepRecord:
    """One env step: the action (``None`` when it was not a readable ``Action``), its ``action_key``, whether
    the env reported it invalid, the task score after it, and whether the screen changed (``None``: not known)."""

    key: str
    action: Action | None
    invalid: bool
    score: float
    screen_changed: bool | None = None

    @classmethod
    def of(
        cls, action: Any, *, invalid: bool = False, score: float = 0.0, screen_changed: bool | None = None
    ) -> StepRecord:
        """A record of ``action`` (anything ``action_key`` takes)."""
        return cls(action_key(action), _parsed(action), invalid, float(score), screen_changed)


@dataclass(frozen=True)
class Episode:
    """One episode of ``task``: its steps, the oracle's actions for the same parameters (``None``: not known;
    see ``oracle_actions``) and, where known, which of the task's sub-goals were met at the end."""

    task: str
    steps: tuple[StepRecord, ...]
    oracle: tuple[Action, ...] | None = None
    subgoals: tuple[bool, ...] | None = None

    @property
    def score(self) -> float:
        """The task score after the last step (0.0 for an episode without steps)."""
        return self.steps[-1].score if self.steps else 0.0

    @property
    def success(self) -> bool:
        """Whether the task was solved: the score reached 1.0, the env's own rule for ``terminated``."""
        return self.score >= 1.0

    @property
    def operations(self) -> tuple[StepRecord, ...]:
        """The steps that are operations (``is_operation``)."""
        return tuple(step for step in self.steps if is_operation(step.action))

    @property
    def oracle_operations(self) -> tuple[Action, ...] | None:
        """The oracle's actions that are operations, ``None`` when the oracle is not known."""
        return None if self.oracle is None else tuple(action for action in self.oracle if is_operation(action))


def from_actions(
    task: str,
    actions: Sequence[Any],
    scores: Sequence[float],
    oracle: Sequence[Any] | None = None,
    *,
    invalid: Sequence[bool] | None = None,
    screen_changed: Sequence[bool | None] | None = None,
    subgoals: Sequence[bool] | None = None,
) -> Episode:
    """An ``Episode`` from the agent's ``actions`` (anything ``action_key`` takes), the score after each, the
    oracle's actions, and optionally per-step invalid flags (default: the actions that are not readable
    ``Action``s, as the env reports them) and screen changes (default: not known). ``ValueError`` when a
    per-step sequence is not as long as ``actions`` or an oracle action is not a readable ``Action``."""
    count = len(actions)
    invalid = [_parsed(action) is None for action in actions] if invalid is None else list(invalid)
    changed = [None] * count if screen_changed is None else list(screen_changed)
    for name, values in (("scores", scores), ("invalid", invalid), ("screen_changed", changed)):
        if len(values) != count:
            raise ValueError(f"{name} has {len(values)} entries for {count} actions")
    try:
        reference = None if oracle is None else tuple(Action.parse(action) for action in oracle)
    except InvalidActionError as error:
        raise ValueError(f"an oracle action is not an Action: {error}") from error
    steps = tuple(
        StepRecord.of(action, invalid=bad, score=score, screen_changed=change)
        for action, bad, score, change in zip(actions, invalid, scores, changed)
    )
    return Episode(task, steps, reference, None if subgoals is None else tuple(bool(s) for s in subgoals))


def from_jsonl(
    path: str | Path,
    task: str | None = None,
    oracle: Sequence[Any] | None = None,
    subgoals: Sequence[bool] | None = None,
) -> Episode:
    """An ``Episode`` from the ``trajectory.jsonl`` that ``RecordTrajectory`` writes (``path`` is the file or its
    ``episode_NNN`` directory). Each line gives the action (as AndroidWorld JSON, or as passed when unreadable),
    ``invalid_action``, ``score`` and, when the screen was recorded, ``screen_changed``.

    ``task`` defaults to the one named in the directory's ``episode.json``, ``oracle`` to the actions in its
    ``oracle.jsonl`` when there is one (``save_oracle``); ``ValueError`` when no task is given or recorded.
    Logs written before the recorder kept the screen change leave it ``None``, and the reasonable operation ratio
    is then not defined.
    """
    path = Path(path)
    if path.is_dir():
        path = path / TRAJECTORY_FILE
    about = path.parent / EPISODE_FILE
    if task is None:
        if not about.is_file():
            raise ValueError(f"{path}: no task given and no {EPISODE_FILE} beside it naming one")
        task = json.loads(about.read_text(encoding="utf-8"))["task"]
    if oracle is None and (path.parent / ORACLE_FILE).is_file():
        oracle = _read_jsonl(path.parent / ORACLE_FILE)
    records = _read_jsonl(path)
    return from_actions(
        task,
        [record["action"] for record in records],
        [record["score"] for record in records],
        oracle,
        invalid=[record["invalid_action"] is not None for record in records],
        screen_changed=[record.get("screen_changed") for record in records],
        subgoals=subgoals,
    )


def _read_jsonl(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def save_oracle(directory: str | Path, oracle: Sequence[Action]) -> None:
    """Write the oracle's actions for an episode into its directory (``oracle.jsonl``), where ``from_jsonl``
    finds them."""
    lines = "".join(action.to_json() + "\n" for action in oracle)
    (Path(directory) / ORACLE_FILE).write_text(lines, encoding="utf-8")


def oracle_actions(env: gym.Env, seed: int | None = None, options: Mapping[str, Any] | None = None) -> list[Action]:
    """The actions the task's oracle plays in ``env`` reset with ``seed`` and ``options`` (the same seed and
    options as the agent's episode give the same task parameters, so the same demonstration): the reference
    sequence of AndroidArena's task reward. The oracle acts on the screens it meets, so its actions (element
    indices included) exist only by playing it."""
    from android_gym.agents import OracleAgent

    observation, info = env.reset(seed=seed, options=dict(options) if options is not None else None)
    agent, played, ended = OracleAgent(), [], False
    agent.reset(env)
    while not ended:
        action = Action.parse(agent.act(observation, info))
        observation, _, terminated, truncated, info = env.step(action)
        played.append(action)
        ended = terminated or truncated
    return played
