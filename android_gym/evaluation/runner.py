"""``evaluate``: an agent over tasks × seeds on a pool of devices, resumable: an episode already in the run
folder's ``results.jsonl`` is not played again, and a killed run goes on where it stopped."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from tqdm import tqdm

from android_gym.agents import BUILTIN_AGENTS, agent_factory
from android_gym.device import parse_device_spec
from android_gym.distributed import parse_devices
from android_gym.errors import DeviceSpecError
from android_gym.evaluation.pool import open_pool
from android_gym.evaluation.results import RunFolder, episode_key, latest
from android_gym.evaluation.worker import STAGING, WorkerConfig


def worker_devices(device: str = "sim", workers: int = 1, devices: str | None = None) -> list[str]:
    """The device of each worker: the entries of ``devices`` (comma-separated, one worker each, each optionally
    pinned to a Ray node with ``@PLACE``; see ``android_gym.distributed``), else ``workers`` times ``device``, which
    only a simulated phone allows (each worker makes its own). ``DeviceSpecError`` otherwise."""
    if devices is not None:
        return [str(slot) for slot in parse_devices(devices, None)]
    if workers < 1:
        raise DeviceSpecError(f"--workers must be at least 1, got {workers}")
    if workers > 1 and parse_device_spec(device).kind != "sim":
        raise DeviceSpecError(f"--workers {workers} on --device {device}: a device serves one worker; list one "
                              "device per worker with --devices")
    return [device] * workers


def evaluate(tasks: Sequence[str], seeds: Sequence[int], agent: str, out: str | Path,
             devices: Sequence[str] = ("sim",), *, agent_seed: int | None = 0, frames: bool = False,
             oracle_metrics: bool = True, limit: int | None = None, retry_errors: bool = False,
             ray_address: str | None = None, progress: bool = True) -> list[dict[str, Any]]:
    """Play ``agent`` (``--agent``: a built-in name or ``module:callable``) on every ``(task, seed)`` that the run
    folder ``out`` has no record of yet, with one worker per entry of ``devices`` (at most one per episode), and
    append each finished episode's record to ``out/results.jsonl``; returns the folder's records of these tasks
    and seeds (one per episode). Workers are Ray actors when an entry is pinned to a place (``SPEC@PLACE``) or
    ``ray_address`` names a cluster (the run folder must then be on storage every host shares).

    ``limit`` plays at most that many new episodes; ``retry_errors`` plays again the episodes whose record has
    an error (the newer record then counts). ``frames`` keeps every step's full-size screen and UI tree;
    ``oracle_metrics`` plays each task's oracle with the episode's seed for AndroidArena's metrics (an extra
    episode each). ``AgentSpecError``/``RunDirError``/``DeviceSpecError`` before anything is played.
    """
    slots = parse_devices(list(devices), None)
    if agent not in BUILTIN_AGENTS:
        agent_factory(agent)  # an import error shows before any worker starts
    config = WorkerConfig(Path(out).resolve(), agent, agent_seed, frames, oracle_metrics)
    with RunFolder(out, agent) as folder:
        shutil.rmtree(folder.path / STAGING, ignore_errors=True)  # episodes a killed run left unfinished
        done = {episode_key(record) for record in folder.records if not (retry_errors and record["error"])}
        jobs = [(task, seed) for task in tasks for seed in seeds if (task, seed) not in done][:limit]
        if jobs:
            with closing(open_pool(slots[:len(jobs)], config, ray_address)) as pool, \
                    tqdm(total=len(jobs), desc="eval", unit="episode", disable=not progress) as bar:
                successes = 0
                for record in pool.play(jobs):
                    folder.append(record)
                    successes += record["success"]
                    bar.update()
                    bar.set_postfix(success=f"{successes}/{bar.n}")
            shutil.rmtree(folder.path / STAGING, ignore_errors=True)
        wanted = {(task, seed) for task in tasks for seed in seeds}
        return [record for record in latest(folder.records) if episode_key(record) in wanted]
