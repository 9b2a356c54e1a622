"""``PhoneHost``: one simulated phone shared by network services (adbd, emulator console).

The phone is not thread-safe, so every access from a service goes through ``run`` (or ``locked``), which
serializes them with one lock. Services are asyncio coroutines; the phone work runs in the host's own worker
threads so a command that waits (for its standard input, or for log entries: ``holding_released``) never stalls
the event loop, and long-lived ones (a following ``logcat`` per client) never starve the others.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

from android_gym.sim.phone import Phone

T = TypeVar("T")
#: Worker threads: each running shell command holds one, a following ``logcat`` for as long as its reader stays.
WORKERS = 64


class PhoneHost:
    """A phone plus the lock that serializes every service's access to it."""

    def __init__(self, phone: Phone, avd_name: str = "android_gym_sim") -> None:
        self.phone = phone
        self.avd_name = avd_name
        self._lock = threading.Lock()
        self._workers: ThreadPoolExecutor | None = None

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
        if self._workers is None:
            self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="phone")
        return await asyncio.get_running_loop().run_in_executor(self._workers, functools.partial(self.locked, fn,
                                                                                                  *args))

    def close(self) -> None:
        """Let the worker threads go once their calls return (the phone itself stays usable). Idempotent."""
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            self._workers = None

    @contextmanager
    def holding_released(self) -> Iterator[None]:
        """Let other services use the phone while this worker blocks (e.g. on a remote standard input); what its
        command line wrote through the providers is committed first, so their commands see it and can write."""
        self.phone.settle_providers()
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
