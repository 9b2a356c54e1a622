"""AppAgent's second way to learn an app: documentation written from watching a demonstration. Here a
demonstration is replayed on the phone, so each step's screens before and after are observed exactly as in
exploration: a task's oracle (``document_oracle``) or an episode recorded by ``RecordTrajectory`` (``android-gym
run --record``, ``android-gym eval``), replayed from its task, seed and actions (``document_recording``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from android_gym.actions import Action
from android_gym.appdocs.changes import DocWriter
from android_gym.appdocs.explorer import Documenter
from android_gym.appdocs.store import DocStore
from android_gym.env import AndroidEnv
from android_gym.errors import AppDocsError, InvalidActionError
from android_gym.metrics.episode import EPISODE_FILE, TRAJECTORY_FILE
from android_gym.tasks.oracle import OraclePolicy


def _stores(env: AndroidEnv) -> dict[str, DocStore]:
    return {package: DocStore(package) for package in env.task_class.app_packages}


def document_oracle(task: str, seeds: Iterable[int], *, device: Any = "sim",
                    writer: DocWriter | None = None) -> dict[str, DocStore]:
    """Docs of the task's apps from its oracle's demonstrations, one episode per seed."""
    env = AndroidEnv(task, device=device, pixels=False)
    stores = _stores(env)
    documenter = Documenter(env, stores, writer)
    try:
        for seed in seeds:
            observation, info = env.reset(seed=seed)
            documenter.observe(observation, info)
            policy = OraclePolicy(env.task.oracle())
            ended = False
            while not ended and not policy.done:
                observation, info, ended = documenter.step(policy.act(info["ui_elements"]))
    finally:
        env.close()
    return stores


def recorded_episodes(path: str | Path) -> list[Path]:
    """The episode folders (holding ``episode.json`` and ``trajectory.jsonl``) at or under ``path``."""
    path = Path(path)
    found = [path] if (path / EPISODE_FILE).is_file() else sorted(file.parent for file in path.rglob(EPISODE_FILE))
    found = [folder for folder in found if (folder / TRAJECTORY_FILE).is_file()]
    if not found:
        raise AppDocsError(f"{path} holds no recorded episode ({EPISODE_FILE} with {TRAJECTORY_FILE}); record one "
                           "with `android-gym run TASK --record DIR`")
    return found


def document_recording(episode: str | Path, *, device: Any = "sim",
                       writer: DocWriter | None = None) -> dict[str, DocStore]:
    """Docs of the task's apps from a recorded episode, replayed from its task, seed and options.
    ``AppDocsError`` when the replay does not meet the screens recorded (an element that differs)."""
    episode = Path(episode)
    about = json.loads((episode / EPISODE_FILE).read_text(encoding="utf-8"))
    env = AndroidEnv(about["task"], device=device, pixels=False)
    stores = _stores(env)
    documenter = Documenter(env, stores, writer)
    try:
        observation, info = env.reset(seed=about.get("seed"), options=about.get("options"))
        documenter.observe(observation, info)
        for line in (episode / TRAJECTORY_FILE).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            try:
                action = Action.parse(record["action"])
            except InvalidActionError:
                continue  # nothing happened on the phone at this step
            _check_element(record, action, info, episode)
            observation, info, ended = documenter.step(action)
            if ended:
                break
    finally:
        env.close()
    return stores


def _check_element(record: dict[str, Any], action: Action, info: dict[str, Any], episode: Path) -> None:
    """``AppDocsError`` unless the element the recorded step named is the replay's element at that index."""
    recorded = record.get("element")
    if recorded is None or action.index is None:
        return
    elements = info["ui_elements"]
    here = elements[action.index] if action.index < len(elements) else None
    if here is None or (here.resource_name, here.class_name) != (recorded["resource_id"], recorded["class"]):
        raise AppDocsError(f"{episode}: step {record.get('step')} acted on {recorded['class']} "
                           f"{recorded['resource_id']!r}, but the replay shows another element at index "
                           f"{action.index}; the recording does not replay on this device")
