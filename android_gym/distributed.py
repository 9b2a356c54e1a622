"""Env workers as Ray actors: rollouts of one task over a pool of devices, on one machine or a Ray cluster.

    from android_gym.distributed import rollouts
    summary = rollouts("SendSms", episodes=40, devices=["sim", "sim", "adb:emulator-5554"], policy="oracle")
    print(summary.format())

Each actor (``RolloutWorker`` made remote) owns one env on one device: its own simulated phone (``sim``,
``sim:540x1200``) or one adb device (``adb:emulator-5554``, ``adb:10.0.0.7:5555``) or AVD (``emulator:<AVD>``).
A device is never shared: a non-``sim`` entry may appear only once in the list. Episode ``k`` resets with seed
``seed + k`` (fresh task parameters each), whichever actor runs it, so a record depends on its seed only.

**Pinning an actor to the host that has its device.** An adb serial such as ``emulator-5554`` names a device of
the adb server on the actor's own host, so on a multi-host cluster a device entry takes ``@PLACE``:

* ``adb:emulator-5554@10.0.0.7`` — a node's IP: the actor asks for a sliver of Ray's built-in ``node:10.0.0.7``
  resource, which only that node has;
* ``adb:emulator-5554@farm-a`` — any other word is a custom resource, of which the actor asks one unit: start
  each emulator host with ``ray start --address=HEAD:6379 --resources='{"farm-a": 4}'`` (4 = the emulators it
  runs), and up to 4 actors go there, whichever node of the group has room.

Without ``@`` an actor goes wherever Ray has a free CPU (right for ``sim`` and for network serials such as
``adb:10.0.0.7:5555``, which any host can reach). A place no node of the cluster offers is an error before any
actor starts. Every host needs android_gym installed (``pip install -e ".[distributed]"``, plus ``.[rl]`` for a
model policy); a model zip is read by the driver and shipped through Ray's object store, so it need not exist on
the workers.

**Policies**: ``oracle`` (the task's oracle through the UI, as ``android-gym run --agent oracle``), ``random``
(uniform among the ids the ``ElementActions`` mask allows, on ``android_gym.wrappers.make_rl_env``'s stack,
seeded with the episode's seed) or the path of a stable-baselines3 ``PPO`` / sb3-contrib ``MaskablePPO`` zip saved
on ``make_rl_env`` (``examples/train_ppo.py``), run deterministically (with the action masks for MaskablePPO).

**Failures.** An episode whose device fails (an exception in the actor, or the env's ``info["backend_error"]``)
or whose actor dies is run again on another actor, up to ``retries`` times; after that it is reported as failed
with its last error, and the run goes on. An oracle that finds no element to act on (``OracleError``) would fail
the same way anywhere: that episode is reported as failed at once. Failed episodes are not counted in the
success rate. An actor whose episodes fail on their device twice in a row is retired; an actor that cannot start
(an unreachable device) is reported and the others carry on; if none starts, ``WorkerStartError`` says why.

**Records.** Each episode returns a ``RolloutRecord`` (seed, goal, parameters, steps, reward, success, wall time,
actor, device, node), not observations. To collect transitions, have ``RolloutWorker.rollout`` keep
``(observation, action, reward)`` per step (a small agent wrapper around ``self.agent``) and return them in the
record; for long runs, write them from each actor to shared storage (e.g. one Minari dataset per actor) and
return only the path, so bulk data never crosses the driver.
"""

from __future__ import annotations

import ipaddress
import json
import platform
import time
import zipfile
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium as gym
import numpy as np

import android_gym
from android_gym.agents import Agent, MaskedRandomAgent, ModelAgent, OracleAgent
from android_gym.device import parse_device_spec
from android_gym.errors import AndroidGymError, DeviceSpecError
from android_gym.tasks.oracle import OracleError
from android_gym.testing import run_episode
from android_gym.wrappers import make_rl_env

#: Of Ray's built-in ``node:<ip>`` resource (1.0 per node), what a pinned actor asks for.
NODE_SLIVER = 0.01
#: An actor whose episodes fail this many times in a row is retired.
MAX_CONSECUTIVE_ERRORS = 2
#: The policy names besides a model path.
POLICIES = ("oracle", "random")


class DistributedError(AndroidGymError):
    """Ray is missing, or a rollout run is configured wrongly (device list, policy, cluster placement)."""


class WorkerStartError(DistributedError):
    """No actor of the pool could start (every device unreachable, or the cluster cannot place them)."""


def require_ray() -> ModuleType:
    """The ``ray`` module; ``DistributedError`` with the install command when it is missing."""
    try:
        import ray
    except ImportError as error:
        raise DistributedError('Ray is not installed: pip install -e ".[distributed]"') from error
    return ray


# ----- configuration -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DeviceSlot:
    """One ``--devices`` entry: the ``device=`` spec of one actor and where that actor must run."""

    spec: str
    place: str | None = None

    @classmethod
    def parse(cls, entry: str) -> DeviceSlot:
        """``SPEC[@PLACE]``; ``DeviceSpecError`` for a spec ``open_device`` would refuse (checked without opening)."""
        spec, at, place = entry.partition("@") if "@" in entry else (entry, "", "")
        spec, place = spec.strip(), place.strip()
        if at and not place:
            raise DeviceSpecError(f"device {entry!r}: nothing after '@'; give a node IP or a custom resource name")
        try:
            parse_device_spec(spec)
        except DeviceSpecError as error:
            raise DeviceSpecError(f"{error} (in the device list, each optionally followed by '@<node IP>' or "
                                  "'@<custom resource>' to pin its actor)") from None
        return cls(spec, place or None)

    @property
    def is_sim(self) -> bool:
        """Whether the actor makes its own simulated phone (so the entry may repeat)."""
        return parse_device_spec(self.spec).kind == "sim"

    def resources(self) -> dict[str, float]:
        """The Ray resources that put the actor on its place (none when unpinned)."""
        if self.place is None:
            return {}
        return {f"node:{self.place}": NODE_SLIVER} if _is_ip(self.place) else {self.place: 1.0}

    def __str__(self) -> str:
        return self.spec if self.place is None else f"{self.spec}@{self.place}"


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def parse_devices(devices: str | Sequence[str] | None, workers: int | None) -> list[DeviceSlot]:
    """The actors' device slots: ``devices`` (a comma-separated string or a list), or ``workers`` × ``sim``.

    ``DeviceSpecError`` for a malformed entry, a non-sim device listed twice, or a ``workers`` count that
    disagrees with the list.
    """
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise DistributedError(f"workers must be a positive integer, got {workers!r}")
    if devices is None:
        return [DeviceSlot("sim")] * (workers or 1)
    entries = devices.split(",") if isinstance(devices, str) else list(devices)
    if not entries or any(not entry.strip() for entry in entries):
        raise DeviceSpecError(f"empty entry in the device list {devices!r}; separate devices with single commas")
    slots = [DeviceSlot.parse(entry) for entry in entries]
    seen: set[DeviceSlot] = set()
    for slot in slots:
        if not slot.is_sim and slot in seen:
            raise DeviceSpecError(f"device {slot} is listed twice; each actor needs a device of its own")
        seen.add(slot)
    if workers is not None and workers != len(slots):
        raise DeviceSpecError(f"{workers} workers but {len(slots)} devices; list one device per worker, or leave "
                              "out the worker count")
    return slots


@dataclass(frozen=True)
class PolicySpec:
    """What the actors play: ``oracle``, ``random``, or a saved model (its zip's bytes and algorithm)."""

    name: str
    model: bytes | None = None
    algorithm: str | None = None  # "MaskablePPO" or "PPO"

    @classmethod
    def parse(cls, policy: str | Path) -> PolicySpec:
        """``oracle``, ``random`` or the path of a stable-baselines3 PPO / sb3-contrib MaskablePPO zip."""
        if str(policy) in POLICIES:
            return cls(str(policy))
        path = Path(policy)
        if not path.is_file():
            raise DistributedError(f"policy {str(policy)!r} is neither {' nor '.join(POLICIES)} nor a model file; "
                                   "give the path of a model.zip saved by stable-baselines3 (examples/train_ppo.py)")
        if not zipfile.is_zipfile(path):
            raise DistributedError(f"policy {str(path)!r} is not a zip; stable-baselines3 saves models as .zip")
        with zipfile.ZipFile(path) as archive:
            try:
                data = json.loads(archive.read("data"))
            except (KeyError, ValueError) as error:
                raise DistributedError(f"{path} is not a stable-baselines3 model zip (no readable 'data' entry)") \
                    from error
        module = data.get("policy_class", {}).get("__module__", "")
        algorithm = "MaskablePPO" if module.startswith("sb3_contrib.common.maskable") else "PPO"
        return cls(str(path), path.read_bytes(), algorithm)


# ----- a saved model as an agent ------------------------------------------------------------------------------
def load_model_agent(policy: PolicySpec, env: gym.Env) -> ModelAgent:
    """A ``ModelAgent`` of ``policy``'s zip (PPO or MaskablePPO), its spaces checked against ``env``'s."""
    import io

    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError as error:
        raise DistributedError('a model policy needs stable-baselines3: pip install -e ".[rl]" on every '
                               "host") from error
    algorithm = MaskablePPO if policy.algorithm == "MaskablePPO" else PPO
    model = algorithm.load(io.BytesIO(policy.model), device="cpu")
    for what in ("observation_space", "action_space"):
        if getattr(model, what) != getattr(env, what):
            raise DistributedError(f"model {policy.name} was trained on another {what.replace('_', ' ')} "
                                   f"({getattr(model, what)}) than make_rl_env's ({getattr(env, what)}); "
                                   "train it on make_rl_env(task) with its default sizes")
    return ModelAgent(model)


# ----- the actor ---------------------------------------------------------------------------------------------
@dataclass
class RolloutRecord:
    """What one episode came to (no observations; see the module docstring for transitions)."""

    seed: int
    goal: str = ""
    params: dict[str, str] = field(default_factory=dict)
    steps: int = 0
    total_reward: float = 0.0
    score: float = 0.0
    success: bool = False
    invalid_actions: int = 0
    wall_seconds: float = 0.0
    actor: int = -1
    device: str = ""
    node: str = ""
    error: str | None = None
    retryable: bool = True  # False for a policy's own failure (the oracle found no element), which would recur
    attempts: int = 1


def _short(value: Any, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _node_address() -> str:
    try:
        import ray
    except ImportError:
        return platform.node()
    return ray.util.get_node_ip_address()


class RolloutWorker:
    """One env on one device, playing one policy; ``rollouts`` runs it as a Ray actor (it also works in-process).

    ``env_id`` is a registered id, ``device`` a ``device=`` spec, ``max_steps`` an optional step budget below the
    task's own.
    """

    def __init__(self, actor: int, env_id: str, device: str, policy: PolicySpec,
                 max_steps: int | None = None) -> None:
        self.actor, self.device, self.policy = actor, device, policy
        self.node = _node_address()
        make_kwargs = {} if max_steps is None else {"max_episode_steps": max_steps}
        if policy.name == "oracle":
            self.env = gym.make(env_id, device=device, pixels=False, **make_kwargs)
        else:
            self.env = make_rl_env(env_id, device=device, **make_kwargs)
        try:
            self._agent = load_model_agent(policy, self.env) if policy.model is not None else None
        except Exception:
            self.env.close()
            raise

    def describe(self) -> dict[str, Any]:
        """The actor's id, device and node (calling it also tells the driver the actor is up)."""
        return {"actor": self.actor, "device": self.device, "node": self.node}

    def agent(self, seed: int) -> Agent:
        """The agent for the episode of ``seed``."""
        if self.policy.name == "oracle":
            return OracleAgent()
        if self.policy.name == "random":
            return MaskedRandomAgent(seed)
        assert self._agent is not None
        return self._agent

    def rollout(self, seed: int) -> RolloutRecord:
        """Play the episode of ``seed``; a failure becomes the record's ``error`` instead of an exception."""
        record = RolloutRecord(seed=seed, actor=self.actor, device=self.device, node=self.node)
        start = time.perf_counter()
        try:
            result = run_episode(self.env, self.agent(seed), seed=seed)
        except OracleError as error:
            record.error, record.retryable = f"OracleError: {error}", False
        except Exception as error:  # a broken device: report it, do not die
            record.error = f"{type(error).__name__}: {error}"
        else:
            info = result.info
            record.goal = self.env.unwrapped.task.goal
            record.params = {key: _short(value) for key, value in info.get("params", {}).items()}
            record.steps, record.total_reward, record.score = result.steps, result.total_reward, result.score
            record.success = result.score >= 1.0
            record.invalid_actions = len(result.invalid_actions)
            if info.get("backend_error"):
                record.error = f"backend error: {info['backend_error']}"
        record.wall_seconds = time.perf_counter() - start
        return record

    def close(self) -> None:
        """Close the env (and the device it opened)."""
        self.env.close()


# ----- the driver --------------------------------------------------------------------------------------------
@dataclass
class ActorReport:
    """How one actor fared: its episodes, and whether it ran to the end."""

    actor: int
    device: str
    node: str = ""
    episodes: int = 0
    successes: int = 0
    errors: int = 0
    status: str = "starting"
    last_error: str | None = None


@dataclass
class RolloutSummary:
    """Every episode's record, the failed ones apart, per-actor reports and the run's wall time."""

    records: list[RolloutRecord]
    failed: list[RolloutRecord]
    actors: list[ActorReport]
    wall_seconds: float
    policy: str = ""

    @property
    def success_rate(self) -> float:
        """Successes over the episodes that completed (failed ones excluded); 0 when none completed."""
        return sum(record.success for record in self.records) / len(self.records) if self.records else 0.0

    @property
    def mean_steps(self) -> float:
        """Mean length of the completed episodes."""
        return float(np.mean([record.steps for record in self.records])) if self.records else 0.0

    @property
    def steps_per_second(self) -> float:
        """Env steps of all episodes (failed ones included) over the run's wall time, startup excluded."""
        steps = sum(record.steps for record in self.records + self.failed)
        return steps / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def format(self) -> str:
        """A readable summary: totals, then one line per actor, then the failed episodes."""
        done = len(self.records)
        lines = [f"policy {self.policy}: {done} episodes completed, {len(self.failed)} failed",
                 f"success rate {self.success_rate:.2f} ({sum(r.success for r in self.records)}/{done}), "
                 f"mean steps {self.mean_steps:.1f}, {self.steps_per_second:.0f} steps/s over "
                 f"{self.wall_seconds:.1f} s"]
        for report in self.actors:
            lines.append(f"  actor {report.actor} {report.device:28s} node {report.node or '?':15s} "
                         f"episodes {report.episodes:4d}  successes {report.successes:4d}  errors {report.errors}"
                         f"  {report.status}")
            if report.errors:
                lines.append(f"    last error: {report.last_error}")
        lines += [f"  failed: seed {record.seed} after {record.attempts} attempt(s): {record.error}"
                  for record in self.failed]
        return "\n".join(lines)


def init_ray(address: str | None = None, workers: int = 1, cpus_per_worker: float = 1.0, quiet: bool = True,
             **kwargs: Any) -> None:
    """Connect to the Ray cluster at ``address`` (``auto``, ``HOST:6379``, ``ray://HOST:10001``), or start a
    local one with enough logical CPUs for ``workers`` actors; ``quiet`` keeps Ray's logs and the workers'
    output off the console. No-op when Ray is already up."""
    import logging
    import math
    import os

    ray = require_ray()
    if ray.is_initialized():
        return
    options: dict[str, Any] = {"logging_level": logging.ERROR if quiet else logging.INFO, "log_to_driver": not quiet}
    if address is None:
        options.update(include_dashboard=False,
                       num_cpus=max(os.cpu_count() or 1, math.ceil(workers * cpus_per_worker)))
    try:
        ray.init(address=address, **{**options, **kwargs})
    except (ConnectionError, TimeoutError) as error:
        raise DistributedError(f"cannot reach a Ray cluster at {address!r}: {error}; start one with "
                               "`ray start --head` (then `ray start --address=HEAD:6379` on each emulator host) or "
                               "leave out the address for a local Ray") from error


def check_places(ray: ModuleType, slots: Sequence[DeviceSlot]) -> None:
    """``DistributedError`` for a pinned slot whose resource no node of the cluster has."""
    available = ray.cluster_resources()
    nodes = sorted(key.removeprefix("node:") for key in available
                   if key.startswith("node:") and key != "node:__internal_head__")
    for slot in slots:
        for resource in slot.resources():
            if resource not in available:
                hint = (f"the cluster's nodes are {', '.join(nodes)}" if resource.startswith("node:") else
                        f"start its host with `ray start --resources='{{\"{slot.place}\": N}}'`")
                raise DistributedError(f"device {slot}: no node of the Ray cluster offers {resource!r}; {hint}")


@dataclass
class _Job:
    seed: int
    attempts: int = 0
    tried: set[int] = field(default_factory=set)
    last: RolloutRecord | None = None


class WorkerPool:
    """Ray actors, one per device slot, ready to play episodes; ``run(seeds)`` as often as wanted, ``close()``
    (or a ``with`` block) kills them.

    The task, device list, policy and ``max_steps`` are checked before Ray is touched; then Ray is joined at
    ``address`` or started locally (``init_ray``; nothing happens if it is up already), the pinned places are
    checked, the actors started and awaited (all together, up to ``start_timeout`` seconds).
    """

    def __init__(self, task: str, devices: str | Sequence[str] | None = None, workers: int | None = None,
                 policy: str | Path = "oracle", max_steps: int | None = None, cpus_per_worker: float = 1.0,
                 start_timeout: float = 120.0, address: str | None = None, quiet: bool = True) -> None:
        env_id = task if "/" in task else android_gym.env_id(task.removesuffix("-v0"))
        android_gym.get_task(env_id.split("/")[-1].removesuffix("-v0"))  # UnknownTaskError with suggestions
        if max_steps is not None and (isinstance(max_steps, bool) or not isinstance(max_steps, int)
                                      or max_steps < 1):
            raise DistributedError(f"max_steps must be a positive integer, got {max_steps!r}")
        self.slots = parse_devices(devices, workers)
        self.policy = PolicySpec.parse(policy)
        self.env_id = env_id
        ray = self._ray = require_ray()
        init_ray(address, workers=len(self.slots), cpus_per_worker=cpus_per_worker, quiet=quiet)
        check_places(ray, self.slots)
        remote = ray.remote(RolloutWorker)
        policy_spec = ray.put(self.policy)
        self.reports = [ActorReport(index, str(slot)) for index, slot in enumerate(self.slots)]
        self.actors: dict[int, Any] = {}
        for index, slot in enumerate(self.slots):
            actor = remote.options(num_cpus=cpus_per_worker, resources=slot.resources())
            self.actors[index] = actor.remote(index, env_id, slot.spec, policy_spec, max_steps)
        self._await_start(start_timeout)

    def _await_start(self, timeout: float) -> None:
        ray = self._ray
        waiting = {self.actors[index].describe.remote(): index for index in self.actors}
        ready, _ = ray.wait(list(waiting), num_returns=len(waiting), timeout=timeout)
        for ref, index in waiting.items():
            report = self.reports[index]
            if ref not in ready:
                self._drop(index, f"not started within {timeout:.0f} s (no room on the cluster?)")
                continue
            try:
                report.node = ray.get(ref)["node"]
                report.status = "ok"
            except ray.exceptions.RayError as error:
                self._drop(index, f"failed to start: {ray_error_reason(error)}")
        if not self.actors:
            self.close()
            raise WorkerStartError("no worker could start: " + "; ".join(
                f"actor {report.actor} ({report.device}) {report.status}" for report in self.reports))

    def _drop(self, index: int, status: str) -> None:
        actor = self.actors.pop(index, None)
        if actor is not None:
            self._ray.kill(actor)
        self.reports[index].status = status

    def run(self, seeds: Sequence[int], retries: int = 1, progress: bool = True) -> RolloutSummary:
        """One episode per seed, spread over the actors as they come free (``ray.wait``); an episode that fails
        is tried again on another actor up to ``retries`` times. Returns the records sorted by seed."""
        from tqdm import tqdm

        ray = self._ray
        queue = deque(_Job(int(seed)) for seed in seeds)
        records: list[RolloutRecord] = []
        failed: list[RolloutRecord] = []
        running: dict[Any, tuple[int, _Job]] = {}
        idle = deque(self.actors)
        streak = dict.fromkeys(self.actors, 0)
        start = time.perf_counter()
        with tqdm(total=len(queue), desc=self.env_id.split("/")[-1], unit="episode", disable=not progress,
                  dynamic_ncols=True) as bar:

            def finish(record: RolloutRecord, ok: bool) -> None:
                (records if ok else failed).append(record)
                bar.update()
                bar.set_postfix(success=f"{sum(r.success for r in records)}/{len(records)}", failed=len(failed))

            def give_up(job: _Job, error: str) -> None:
                record = job.last or RolloutRecord(seed=job.seed)
                record.error, record.attempts = record.error or error, job.attempts
                finish(record, ok=False)

            while queue or running:
                for _ in range(len(idle)):
                    index = idle.popleft()
                    if index not in self.actors:
                        continue
                    job = next((job for job in queue if index not in job.tried), None)
                    if job is None:
                        idle.append(index)
                        continue
                    queue.remove(job)
                    job.attempts += 1
                    running[self.actors[index].rollout.remote(job.seed)] = (index, job)
                for job in [job for job in queue if set(self.actors) <= job.tried]:
                    queue.remove(job)
                    give_up(job, "no other worker left to retry on")
                if not running:
                    continue
                [ref], _ = ray.wait(list(running), num_returns=1)
                index, job = running.pop(ref)
                try:
                    record: RolloutRecord = ray.get(ref)
                except ray.exceptions.RayActorError as error:
                    record = RolloutRecord(seed=job.seed, actor=index, device=self.reports[index].device,
                                           error=f"worker died: {ray_error_reason(error)}")
                    self._drop(index, record.error)
                except ray.exceptions.RayError as error:
                    record = RolloutRecord(seed=job.seed, actor=index, device=self.reports[index].device,
                                           error=ray_error_reason(error))
                record.attempts = job.attempts
                report = self.reports[index]
                report.episodes += 1
                if record.error is None:
                    report.successes += record.success
                    streak[index] = 0
                    finish(record, ok=True)
                elif not record.retryable:
                    report.errors += 1
                    report.last_error = record.error
                    finish(record, ok=False)
                else:
                    report.errors += 1
                    report.last_error = record.error
                    streak[index] += 1
                    job.tried.add(index)
                    job.last = record
                    if job.attempts <= retries:
                        queue.appendleft(job)
                    else:
                        give_up(job, record.error)
                    if index in self.actors and streak[index] >= MAX_CONSECUTIVE_ERRORS:
                        self._drop(index, f"retired after {streak[index]} failed episodes in a row")
                if index in self.actors:
                    idle.append(index)
        records.sort(key=lambda record: record.seed)
        failed.sort(key=lambda record: record.seed)
        return RolloutSummary(records, failed, [ActorReport(**vars(report)) for report in self.reports],
                              time.perf_counter() - start, self.policy.name)

    def close(self) -> None:
        """Kill the actors (their envs and simulated phones go with them)."""
        for index in list(self.actors):
            self._drop(index, self.reports[index].status)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def ray_error_reason(error: BaseException) -> str:
    """The last line of a Ray error (the remote exception's type and message), not its whole traceback."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def rollouts(task: str, episodes: int, seed: int = 0, devices: str | Sequence[str] | None = None,
             workers: int | None = None, policy: str | Path = "oracle", max_steps: int | None = None,
             retries: int = 1, progress: bool = True, cpus_per_worker: float = 1.0,
             start_timeout: float = 120.0, address: str | None = None, quiet: bool = True) -> RolloutSummary:
    """Play ``episodes`` episodes of ``task`` (seeds ``seed`` … ``seed + episodes - 1``) on a pool of Ray actors
    (one per ``devices`` entry, or ``workers`` simulated phones) and summarize them; see the module docstring.

    Everything that can be checked before an actor starts is: the task, the device list and the policy before
    Ray is touched, the pinned places before the actors start. Ray is joined at ``address`` or started locally,
    unless it is up already (``ray.init``/``init_ray`` first).
    """
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise DistributedError(f"episodes must be a positive integer, got {episodes!r}")
    with WorkerPool(task, devices, workers, policy, max_steps, cpus_per_worker, start_timeout, address,
                    quiet) as pool:
        return pool.run(range(seed, seed + episodes), retries=retries, progress=progress)
