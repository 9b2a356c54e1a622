"""The Device backends the contract suite runs on: one fresh phone per test and backend."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass

import pytest

from android_gym.device.adb import AdbDevice
from android_gym.device.base import Device
from android_gym.device.sim import SimDevice
from android_gym.sim.phone import Phone


@dataclass(frozen=True)
class Backend:
    """A device under test and the simulated phone behind it."""

    device: Device
    phone: Phone


@contextmanager
def _sim() -> Iterator[Backend]:
    device = SimDevice()
    try:
        yield Backend(device, device.phone)
    finally:
        device.close()


@contextmanager
def _adb(request: pytest.FixtureRequest, grpc: bool = False) -> Iterator[Backend]:
    """AdbDevice → Debian's adb server (private port, temp HOME) → the simulator's adbd, on a fresh phone; with
    ``grpc``, screenshots and touches go to the simulator's emulator gRPC service instead."""
    server = request.getfixturevalue("fresh_served_phone")
    device = AdbDevice(server.serial, grpc=f"127.0.0.1:{server.grpc.port}" if grpc else None)
    try:
        yield Backend(device, server.phone)
    finally:
        device.close()


#: Backend name → context manager giving a fresh ``Backend`` and releasing it afterwards.
BACKENDS: dict[str, Callable[[pytest.FixtureRequest], AbstractContextManager[Backend]]] = {
    "sim": lambda _request: _sim(),
    "adb": _adb,
    "adb+grpc": lambda request: _adb(request, grpc=True),
}


@pytest.fixture(params=list(BACKENDS), ids=list(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """A fresh backend, released after the test."""
    with BACKENDS[request.param](request) as made:
        yield made


@pytest.fixture
def backend_device(backend: Backend) -> Device:
    """The device under test; contract tests act only through it and ``android_gym.device.state``."""
    return backend.device


@pytest.fixture
def backend_phone(backend: Backend) -> Phone:
    """The simulated phone behind ``backend_device``, for arranging state the protocol cannot reach.

    Prefer the protocol (``shell``, ``push``): on the adb backend the phone lives behind a socket.
    """
    return backend.phone
