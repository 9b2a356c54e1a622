"""An evaluation's worker: it owns one device and one agent, plays ``(task, seed)`` jobs, records each episode
into the run folder (as ``run --record`` does) and returns the episode's line of ``results.jsonl``."""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym

from android_gym.agents import load_agent
from android_gym.device import open_device, parse_device_spec
from android_gym.evaluation.suite import task_info
from android_gym.metrics import EPISODE_METRICS, Episode, from_jsonl, oracle_actions, save_oracle
from android_gym.metrics.episode import EPISODE_FILE
from android_gym.testing import run_episode
from android_gym.wrappers import RecordTrajectory

#: Where the run folder keeps each episode's recording: ``episodes/<task>/seed_<seed>/``.
EPISODES = "episodes"
#: Where workers record an episode until it is finished (then moved into ``episodes/``).
STAGING = ".staging"


@dataclass(frozen=True)
class WorkerConfig:
    """What every worker of a run shares: the run folder, the agent (``--agent`` and its seed), whether to keep
    full-size frames and UI trees, whether to play the oracle for AndroidArena's metrics."""

    run_dir: Path
    agent: str
    agent_seed: int | None = 0
    frames: bool = False
    oracle_metrics: bool = True


def episode_dir(run_dir: Path, task: str, seed: int) -> Path:
    """Where the episode of ``task`` and ``seed`` is recorded."""
    return run_dir / EPISODES / task / f"seed_{seed}"


def episode_record(config: WorkerConfig, task: str, seed: int, *, folder: Path | None, wall_seconds: float,
                   error: str | None, tokens: dict[str, int] | None, worker: int, device: str) -> dict[str, Any]:
    """One line of ``results.jsonl``: the episode's task, seed, parameters and goal, outcome, cost, error, the
    per-episode metrics of ``android_gym.metrics`` (``None`` where not defined), the task's apps and AndroidWorld
    difficulty, tags and human optimal step count, and where it is recorded (``None``: it never started)."""
    about = json.loads((folder / EPISODE_FILE).read_text(encoding="utf-8")) if folder else {}
    episode = from_jsonl(folder, task=task) if folder else Episode(task, ())
    info = task_info(task)
    return {
        "task": task, "seed": seed, "params": about.get("params"), "goal": about.get("goal"),
        "score": episode.score, "success": episode.success, "steps": len(episode.steps),
        "invalid_actions": sum(step.invalid for step in episode.steps), "wall_seconds": round(wall_seconds, 3),
        "tokens": tokens or None, "error": error,
        "metrics": {name: metric(episode) for name, metric in EPISODE_METRICS.items() if name != "score"},
        "apps": list(info.apps), "difficulty": info.difficulty, "tags": list(info.tags),
        "optimal_steps": info.optimal_steps,
        "episode_dir": folder.relative_to(config.run_dir).as_posix() if folder else None,
        "agent": config.agent, "worker": worker, "device": device,
    }


class EpisodeWorker:
    """Plays episodes on one device with one agent (made from ``config.agent``). An env is made per task and kept
    while the jobs stay on that task; each on a simulated phone of its own, or all on the one real device."""

    def __init__(self, index: int, device: str, config: WorkerConfig) -> None:
        self.index, self.device, self.config = index, device, config
        self.agent = load_agent(config.agent, config.agent_seed)
        self._device = device if parse_device_spec(device).kind == "sim" else open_device(device)
        self._staging = config.run_dir / STAGING / f"worker_{index}"
        self._task: str | None = None
        self._recorder: RecordTrajectory | None = None

    def _recorder_for(self, task: str) -> RecordTrajectory:
        if self._task != task or self._recorder is None:
            self._close_env()
            env = gym.make(task_info(task).env_id, device=self._device, pixels=True)
            self._recorder = RecordTrajectory(env, self._staging, frames=self.config.frames)
            self._task = task
        return self._recorder

    def play(self, task: str, seed: int) -> dict[str, Any]:
        """Play, record and score the episode of ``task`` reset with ``seed``; a failure (the agent raising, the
        device failing) becomes the record's ``error``."""
        error, tokens, folder, recorder, started = None, None, None, None, 0
        start = time.perf_counter()
        try:
            recorder = self._recorder_for(task)
            started = recorder.episode
            result = run_episode(recorder, self.agent, seed=seed)
            tokens = result.tokens
            if result.info.get("backend_error"):
                error = f"device failed: {result.info['backend_error']}"
        except Exception as exception:  # the agent's or the device's failure is this episode's outcome
            error = f"{type(exception).__name__}: {exception}"
        wall_seconds = time.perf_counter() - start
        if recorder is not None and recorder.episode > started:  # the reset got as far as recording
            recorder.end_episode()
            if self.config.oracle_metrics:
                self._save_oracle(recorder, seed)
            folder = self._keep(recorder.episode_dir, task, seed)
        if error is not None:
            self._close_env()  # the next episode starts on a fresh env
        return episode_record(self.config, task, seed, folder=folder, wall_seconds=wall_seconds, error=error,
                              tokens=tokens, worker=self.index, device=self.device)

    @staticmethod
    def _save_oracle(recorder: RecordTrajectory, seed: int) -> None:
        """Play the task's oracle with the episode's seed (same parameters) beside the recording, for AndroidArena's
        metrics; where the oracle cannot be played those metrics stay undefined, and the episode's record stands."""
        try:
            save_oracle(recorder.episode_dir, oracle_actions(recorder.env, seed))
        except Exception:
            pass

    def _keep(self, folder: Path, task: str, seed: int) -> Path:
        """Move a finished recording to its place in the run folder (replacing a leftover of a killed run)."""
        final = episode_dir(self.config.run_dir, task, seed)
        if final.exists():
            shutil.rmtree(final)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.replace(folder, final)
        return final

    def _close_env(self) -> None:
        if self._recorder is not None:
            self._recorder.close()
        self._recorder, self._task = None, None

    def close(self) -> None:
        """Close the env and the device."""
        self._close_env()
        if not isinstance(self._device, str):
            self._device.close()
