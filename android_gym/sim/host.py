"""``PhoneHost``: one simulated phone shared by network services (adbd, emulator console).

The phone is not thread-safe, so every access from a service goes through ``run`` (or ``locked``), which
serializes them with one lock. Services are asyncio coroutines; the phone work runs in the host's own worker
threads so a command that waits (for its standard input, or for log entries: ``holding_released``) never stalls
the event loop, and long-lived ones (a following ``logcat`` per client) never starve the others. The event loop
waits for a call without turning until it returns or comes to wait like that: most calls take a millisecond or two,
and handing their result back through the loop (a wake-up through its self-pipe, futures chained across threads)
cost the served phone more CPU than the call's own thread switch.
"""

from __future__ import annotations

import asyncio
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
        self._waiting: set[threading.Event] = set()  # calls that came to wait (``holding_released``), not yet over
        self._call = threading.local()  # a worker's ``settled`` event while it runs a call of ``run``

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
        """Call ``fn(*args)`` under the phone lock in a worker thread and return its result. The event loop blocks
        until the call returns or waits (``holding_released``), and awaits it only then; or from the start when
        every worker but one is taken by calls that wait, as a new call might find none free."""
        if self._workers is None:
            self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="phone")
        settled = threading.Event()
        call = self._workers.submit(self._settling, settled, fn, *args)
        call.add_done_callback(lambda _: settled.set())  # returned, raised, or cancelled with the workers
        if len(self._waiting) < WORKERS - 1:
            settled.wait()
        if call.done():
            return call.result()
        return await asyncio.wrap_future(call)

    def _settling(self, settled: threading.Event, fn: Callable[..., T], *args: object) -> T:
        """``locked(fn, *args)`` in a worker of ``run``, whose ``settled`` event ``holding_released`` sets."""
        self._call.settled = settled
        try:
            return self.locked(fn, *args)
        finally:
            self._call.settled = None
            self._waiting.discard(settled)

    def close(self) -> None:
        """Let the worker threads go once their calls return (the phone itself stays usable). Idempotent."""
        if self._workers is not None:
            self._workers.shutdown(wait=False, cancel_futures=True)
            self._workers = None

    @contextmanager
    def holding_released(self) -> Iterator[None]:
        """Let other services use the phone while this worker blocks (e.g. on a remote standard input); what its
        command line wrote through the providers is committed first, so their commands see it and can write. The
        event loop, which may be waiting for this call (``run``), goes on: it may be what this worker waits for."""
        settled = getattr(self._call, "settled", None)
        if settled is not None and not settled.is_set():
            self._waiting.add(settled)
            settled.set()
        self.phone.settle_providers()
        self._lock.release()
        try:
            yield
        finally:
            self._lock.acquire()
