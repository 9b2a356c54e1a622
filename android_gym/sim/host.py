"""``PhoneHost``: one simulated phone shared by network services (adbd, emulator console).

The phone is not thread-safe, so every access from a service goes through ``run`` (or ``locked``), which
serializes them with one lock. Services are asyncio coroutines; the phone work runs in worker threads so a
command that waits for its standard input (``holding_released``) never stalls the event loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from android_gym.sim.phone import Phone

T = TypeVar("T")


class PhoneHost:
    """A phone plus the lock that serializes every service's access to it."""

    def __init__(self, phone: Phone, avd_name: str = "android_gym_sim") -> None:
        self.phone = phone
        self.avd_name = avd_name
        self._lock = threading.Lock()

    def replace(self, phone: Phone) -> Phone:
        """Serve ``phone`` from now on (like loading a fresh snapshot); returns the previous phone."""
        with self._lock:
            previous, self.phone = self.phone, phone
        return previous

    def locked(self, fn: Callable[..., T], *args: object) -> T:
        """Call ``fn(*args)`` holding the phone lock (from any thread but the event loop's)."""
        with self._lock:
            return fn(*args)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """Call ``fn(*args)`` under the phone lock in a worker thread and await its result."""
        return await asyncio.to_thread(self.locked, fn, *args)

    @contextmanager
    def holding_released(self) -> Iterator[None]:
        """Let other services use the phone while this worker blocks (e.g. on a remote standard input)."""
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
