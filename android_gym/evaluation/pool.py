"""Workers for an evaluation's device pool: one in this process for a single device, one process per device on this
machine (spawned: each imports android_gym afresh and owns its phone or device), or one Ray actor per device when
devices are pinned to hosts of a Ray cluster; jobs go to whichever worker is free."""

from __future__ import annotations

import multiprocessing
import queue
import signal
from collections.abc import Iterator, Sequence
from typing import Any

from android_gym.distributed import DeviceSlot, check_places, init_ray, ray_error_reason, require_ray
from android_gym.errors import EvalWorkerError
from android_gym.evaluation.worker import EpisodeWorker, WorkerConfig, episode_record

#: How often the driver looks for workers that died, while it waits for records.
POLL_SECONDS = 1.0


class InProcessPool:
    """One worker, in this process (a Ctrl-C stops it at once)."""

    def __init__(self, device: str, config: WorkerConfig) -> None:
        self._worker = EpisodeWorker(0, device, config)

    def play(self, jobs: Sequence[tuple[str, int]]) -> Iterator[dict[str, Any]]:
        """Each job's record, in order."""
        for task, seed in jobs:
            yield self._worker.play(task, seed)

    def close(self) -> None:
        """Close the worker."""
        self._worker.close()


def _serve(index: int, device: str, config: WorkerConfig, jobs: Any, results: Any) -> None:
    """A worker process: report ready (or why not), then play jobs until told to stop (``None``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle: it stops the workers
    try:
        worker = EpisodeWorker(index, device, config)
    except Exception as error:
        results.put(("failed", index, error))
        return
    results.put(("ready", index, None))
    try:
        while (job := jobs.get()) is not None:
            results.put(("started", index, job))
            results.put(("done", index, worker.play(*job)))
    finally:
        worker.close()


class ProcessPool:
    """One worker process per device (spawned, so each imports android_gym afresh and owns its phone); jobs go to
    whichever worker is free. A worker that dies costs its current episode (an error record); the others go on."""

    def __init__(self, devices: Sequence[str], config: WorkerConfig) -> None:
        context = multiprocessing.get_context("spawn")
        self.config, self.devices = config, list(devices)
        self._jobs, self._results = context.Queue(), context.Queue()
        self._processes = [context.Process(target=_serve, args=(index, device, config, self._jobs, self._results),
                                           daemon=True, name=f"android-gym-eval-{index}")
                           for index, device in enumerate(devices)]
        for process in self._processes:
            process.start()
        self._await_ready()

    def _await_ready(self) -> None:
        """Wait until every worker made its agent and opened its device; the first failure is raised."""
        waiting = set(range(len(self._processes)))
        while waiting:
            message = self._receive()
            if message is None:
                dead = [index for index in waiting if not self._processes[index].is_alive()]
                if dead:
                    self.close()
                    raise EvalWorkerError(f"worker {dead[0]} exited while starting (exit code "
                                          f"{self._processes[dead[0]].exitcode})")
                continue
            kind, index, error = message
            waiting.discard(index)
            if kind == "failed":
                self.close()
                raise error

    def _receive(self) -> tuple[str, int, Any] | None:
        """The next message of a worker, ``None`` after ``POLL_SECONDS`` without one; ``EvalWorkerError`` when
        every worker has exited."""
        try:
            return self._results.get(timeout=POLL_SECONDS)
        except queue.Empty:
            if not any(process.is_alive() for process in self._processes):
                codes = ", ".join(str(process.exitcode) for process in self._processes)
                raise EvalWorkerError(f"every worker process exited (exit codes {codes})") from None
            return None

    def play(self, jobs: Sequence[tuple[str, int]]) -> Iterator[dict[str, Any]]:
        """Each job's record, as the workers finish them."""
        for job in jobs:
            self._jobs.put(job)
        for _ in self._processes:
            self._jobs.put(None)
        running: dict[int, tuple[str, int]] = {}
        left = len(jobs)
        while left:
            message = self._receive()
            if message is None:
                for record in self._lost(running):
                    left -= 1
                    yield record
                continue
            kind, index, payload = message
            if kind == "started":
                running[index] = payload
            elif kind == "done":
                running.pop(index, None)
                left -= 1
                yield payload

    def _lost(self, running: dict[int, tuple[str, int]]) -> Iterator[dict[str, Any]]:
        """The records of the episodes whose worker died while playing them."""
        for index in [index for index in running if not self._processes[index].is_alive()]:
            task, seed = running.pop(index)
            error = f"worker {index} died during the episode (exit code {self._processes[index].exitcode})"
            yield episode_record(self.config, task, seed, folder=None, wall_seconds=0.0, error=error, tokens=None,
                                 worker=index, device=self.devices[index])

    def close(self) -> None:
        """Stop the workers at once (an episode under way is lost; its recording stays in the staging folder)."""
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join()


class RayPool:
    """One Ray actor per device slot, placed where the slot says (``adb:emulator-5554@10.0.0.7``: on that node; see
    ``android_gym.distributed``), joining the cluster at ``address`` or starting a local Ray. The actors write the
    recordings into the run folder themselves, so on several hosts it must be on storage they all share. An actor
    that dies costs its current episode (an error record); the others go on."""

    def __init__(self, slots: Sequence[DeviceSlot], config: WorkerConfig, address: str | None = None) -> None:
        ray = self._ray = require_ray()
        init_ray(address, workers=len(slots))
        check_places(ray, slots)
        self.config, self.devices = config, [slot.spec for slot in slots]
        remote = ray.remote(EpisodeWorker)
        self._actors = {index: remote.options(num_cpus=1, resources=slot.resources()).remote(index, slot.spec,
                                                                                             config)
                        for index, slot in enumerate(slots)}
        try:
            ray.get([actor.__ray_ready__.remote() for actor in self._actors.values()])
        except ray.exceptions.RayActorError as error:  # its device or agent could not be opened or made
            self.close()
            raise EvalWorkerError(f"a worker could not start: {ray_error_reason(error)}") from None

    def play(self, jobs: Sequence[tuple[str, int]]) -> Iterator[dict[str, Any]]:
        """Each job's record, as the actors finish them."""
        ray, waiting, idle = self._ray, list(jobs), list(self._actors)
        running: dict[Any, tuple[int, tuple[str, int]]] = {}
        while waiting or running:
            while idle and waiting:
                index, job = idle.pop(0), waiting.pop(0)
                running[self._actors[index].play.remote(*job)] = (index, job)
            if not running:
                raise EvalWorkerError(f"every worker died with {len(waiting)} episodes left to play")
            [ref], _ = ray.wait(list(running), num_returns=1)
            index, (task, seed) = running.pop(ref)
            try:
                record = ray.get(ref)
            except ray.exceptions.RayActorError as error:
                del self._actors[index]
                record = episode_record(self.config, task, seed, folder=None, wall_seconds=0.0, tokens=None,
                                        error=f"worker {index} died during the episode: {ray_error_reason(error)}",
                                        worker=index, device=self.devices[index])
            else:
                idle.append(index)
            yield record

    def close(self) -> None:
        """Kill the actors (an episode under way is lost; its recording stays in the staging folder)."""
        for actor in self._actors.values():
            self._ray.kill(actor)
        self._actors = {}


def open_pool(slots: Sequence[DeviceSlot], config: WorkerConfig,
              ray_address: str | None = None) -> InProcessPool | ProcessPool | RayPool:
    """Workers for the device ``slots``: Ray actors when a slot is pinned to a place or ``ray_address`` is given,
    else in this process for one device, else a process per device."""
    if ray_address is not None or any(slot.place for slot in slots):
        return RayPool(slots, config, ray_address)
    specs = [slot.spec for slot in slots]
    return InProcessPool(specs[0], config) if len(specs) == 1 else ProcessPool(specs, config)
