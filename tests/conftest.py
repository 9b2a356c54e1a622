"""Shared fixtures: fresh simulated phones and envs, closed after each test; a simulated phone served over adb."""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import adbutils
import gymnasium as gym
import pytest
from ray_start import start_local_ray

import android_gym  # registers the envs
from android_gym.device.sim import SimDevice
from android_gym.sim.adb_harness import private_adb_server
from android_gym.sim.phone import Phone
from android_gym.sim.server import SimServer
from android_gym.sim.system.chromium import keep_browser
from android_gym.sim.ui import render


def pytest_configure(config: pytest.Config) -> None:
    """One OpenMP thread for torch (and the BLAS under numpy), set before any test module imports torch and
    inherited by every worker the tests start (SB3's SubprocVecEnv workers, Ray actors, spawned interpreters), as
    train_ppo.py's ``--torch-threads 1`` default sets it: the suite's networks are small and its 2 cores are shared
    with Chromium, the adb server, Ray and the env workers, so a second thread only spins (train_ppo's
    behaviour-cloning test run alone on a busy machine: ~110 s of CPU with two threads, ~30 s with one). Before, a
    test ran with two threads or one depending on whether a train_ppo run had come before it in the process. A
    value already set is kept."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # SB3's SubprocVecEnv starts its workers from the forkserver (its default start method). The session's
    # forkserver imports SB3 (and so torch), the RL view and the simulated phone once, and each worker forks from it
    # with them imported instead of importing them itself (~5 s of CPU per worker on a busy machine); the env
    # functions still reach the workers pickled, in processes that never ran a test (a worker imports its task's
    # module itself).
    multiprocessing.set_forkserver_preload(["__main__", "stable_baselines3.common.vec_env.subproc_vec_env",
                                            "android_gym.wrappers.rl_env", "android_gym.sim.phone"])
    # The suite's compiled modules are cached (``__pycache__``, git-ignored) even where PYTHONDONTWRITEBYTECODE is
    # set: else every run compiles every module it imports, in this process and in each of the interpreters it
    # starts (CLI and script runs, Ray workers, the forkserver), and pytest rewrites the asserts of every test module
    # again (collecting the suite: ~30 s of CPU instead of ~13). Children inherit the change through the
    # environment; a module changed since is compiled again, as always.
    sys.dont_write_bytecode = False
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # Python's cycle collector looks at its youngest objects every 700 net allocations and, after every tenth pass
    # over the middle generation once the heap grew by a quarter, at every tracked object. A test process's heap is
    # large and long-lived (the apps, wrappers and libraries it imported), so those whole-heap passes cost: running
    # tests/sim, 47 of them and 15.1 s of 152 s of CPU in the collector. Young objects looked at every 10,000
    # allocations: 13 whole-heap passes (some explicit gc.collect()), 8.9 s; the same peak memory (1.23 GB vs 1.22;
    # 50,000 took 0.3 GB more for the same time).
    gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The test modules that use the session's local Ray (``local_ray``) run last, in their order: Ray's processes
    (its GCS, raylet, agents and idle workers: ~4% of a core while idle) live from its first test to the session's
    end, and so no longer idle through the several minutes of tests collected after them (``tests/test_t*.py`` to
    ``tests/wrappers/``).

    Under ``pytest -n 2 --dist loadgroup`` (README's test command) each module is a group that one worker runs
    whole, in its order, as a serial run does: its module-scoped fixtures are made once (such as
    ``tests/sim/test_chrome_app.py``'s phone, brought back to a fixed start before each test: its tests pass in any
    order). The Ray modules are one group: one local Ray (~25 s of CPU to start) for the session, not one per
    worker."""
    on_ray = {item.path for item in items if "local_ray" in getattr(item, "fixturenames", ())}
    items.sort(key=lambda item: item.path in on_ray)  # stable: each part keeps its order
    if not config.pluginmanager.hasplugin("xdist"):
        return  # (its mark is unknown without it)
    for item in items:
        group = "local_ray" if item.path in on_ray else str(item.path.relative_to(config.rootpath))
        item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture(scope="session", autouse=True)
def one_browser() -> Iterator[None]:
    """The session's phones share one Chromium, started by the first page shown and stopped at the end."""
    with keep_browser():
        yield


@pytest.fixture(autouse=True)
def large_windows_drawn(monkeypatch) -> None:
    """Each test starts with no window's look kept (the process's renderers share them), and renderers keep no
    large window's look (``render._SCREEN_LOOKS_BYTES``): frames two renderers draw (a shortcut on and off, a phone
    and another) are compared as drawn, not one pasted from the other's. tests/sim/test_frame_cache.py keeps them."""
    monkeypatch.setattr(render, "_WINDOW_LOOKS", {})
    monkeypatch.setattr(render, "_SCREEN_LOOKS_BYTES", 0)


@pytest.fixture
def device():
    """A fresh simulated phone behind the Device protocol."""
    dev = SimDevice()
    yield dev
    dev.close()


@pytest.fixture
def phone() -> Iterator[Phone]:
    """A new simulated phone; modules that need one set up differently override this fixture."""
    made = Phone()
    yield made
    made.close()


@pytest.fixture
def make_env():
    """``make_env(id, **kwargs)``; every env made is closed after the test."""
    envs = []

    def make(env_id: str = "AndroidWorld/SendSms-v0", **kwargs):
        env = gym.make(env_id, **kwargs)
        envs.append(env)
        return env

    yield make
    for env in envs:
        env.close()


@pytest.fixture(scope="session")
def adb_server_port(tmp_path_factory) -> int:
    """Debian's adb server on a private port, with a private HOME (set for this process while it runs)."""
    with private_adb_server(tmp_path_factory.mktemp("adb-home")) as port:
        yield port


@pytest.fixture(scope="session")
def served_phone(adb_server_port) -> SimServer:
    """A simulated phone served like an emulator (adb, console and gRPC); the adb server lists it as
    ``server.serial``, its gRPC service is on ``server.grpc.port``."""
    with SimServer(grpc_port=0) as server:
        adbutils.AdbClient("127.0.0.1", adb_server_port).wait_for(server.serial, timeout=60)
        yield server
    server.phone.close()  # the last one served (a stopped server leaves its phone usable, and open)


@pytest.fixture
def fresh_served_phone(served_phone) -> SimServer:
    """``served_phone`` with a brand-new phone behind it, its gRPC VM reset (running, no input queued from a test
    before); the adb transport stays up."""
    served_phone.grpc.reset(Phone())
    return served_phone


@pytest.fixture
def reset_task(make_env):
    """``reset_task(task, seed=0, params=None, **env_kwargs)`` → (env, info): the task's env (``pixels=False``
    unless ``env_kwargs`` say otherwise) reset with ``seed`` and, if given, its parameters pinned to ``params``."""

    def reset(task: str, seed: int = 0, params: dict | None = None, **env_kwargs) -> tuple[gym.Env, dict]:
        env = make_env(android_gym.env_id(task), **{"pixels": False, **env_kwargs})
        _, info = env.reset(seed=seed, options=None if params is None else {"params": params})
        return env, info

    return reset


@pytest.fixture(scope="session")
def local_ray(adb_server_port):
    """A local Ray with 2 CPUs, one for the session (a start is ~25 s on this 2-core machine: its test modules share
    it); started after the private adb server, so its workers inherit its address. It is shut down, and its session
    files removed, at the end whatever the tests did."""
    import logging

    import ray

    temp_dir = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    try:
        start_local_ray(ray, temp_dir, num_cpus=2, include_dashboard=False, log_to_driver=False,
                        logging_level=logging.ERROR)
        yield ray
    finally:
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def load_script():
    """Import a script of the repository (``load_script("examples/train_ppo.py")``) as a module, registered in
    ``sys.modules`` under its file name while the test module runs (its dataclasses and pickles look it up)."""
    import importlib.util
    import sys

    loaded = []

    def load(relative_path: str):
        path = Path(__file__).parent.parent / relative_path
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        loaded.append(path.stem)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in loaded:
        sys.modules.pop(name, None)
