"""``logd``: the phone's log buffers, which ``log`` and the framework write and ``logcat`` reads.

As on Android (AOSP ``system/logging/logd``), entries live in per-buffer rings (``main``, ``system``, ``crash``,
...), each with its time, pid, tid, uid, priority, tag and message; ``logcat -c`` clears them and a following
``logcat`` is woken by every new entry. Times are device time (the virtual clock), so logs are deterministic.
Simplified: a ring holds a fixed number of entries rather than a number of bytes.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from android_gym.sim.system.clock import VirtualClock

#: Buffer names by ``log_id_t`` (``system/logging/liblog/include/android/log.h``).
BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
#: ``android_LogPriority`` values (``log.h``) by their ``logcat`` letter.
PRIORITIES = {"V": 2, "D": 3, "I": 4, "W": 5, "E": 6, "F": 7, "S": 8}
#: Entries one buffer keeps before the oldest are pruned.
RING_ENTRIES = 8192
#: pid of ``system_server`` and uid ``AID_SYSTEM`` (the framework's own log lines).
SYSTEM_SERVER_PID = 522
AID_SYSTEM = 1000


@dataclass(frozen=True)
class LogEntry:
    """One log record (``logger_entry`` plus its payload)."""

    seq: int
    buffer: str
    time_ms: int
    pid: int
    tid: int
    uid: int
    priority: int
    tag: str
    message: str


class LogBuffer:
    """The log buffers of one phone. Not thread-safe by itself: callers hold the phone's lock; ``watch`` events
    are set (from the writing thread) on every new entry."""

    def __init__(self, clock: VirtualClock) -> None:
        self._clock = clock
        self.boot_ms = clock.now_ms()
        self._rings: dict[str, deque[LogEntry]] = {name: deque(maxlen=RING_ENTRIES) for name in BUFFERS}
        self._seq = 0
        self._next_pid = 4000
        self._watchers: set[threading.Event] = set()

    def write(self, priority: int, tag: str, message: str, *, buffer: str = "main", pid: int = SYSTEM_SERVER_PID,
              tid: int | None = None, uid: int = AID_SYSTEM) -> None:
        """Append an entry at the current device time and wake the readers."""
        self._seq += 1
        entry = LogEntry(self._seq, buffer, self._clock.record_ms(), pid, pid if tid is None else tid, uid, priority,
                         tag, message)
        self._rings[buffer].append(entry)
        for event in self._watchers:
            event.set()

    def clear(self, buffers: Iterable[str]) -> None:
        """``logcat -c``: drop every entry of ``buffers``."""
        for name in buffers:
            self._rings[name].clear()

    def entries(self, buffers: Iterable[str], after: int = 0) -> list[LogEntry]:
        """The entries of ``buffers`` newer than sequence number ``after``, oldest first (buffers interleaved)."""
        found = [entry for name in buffers for entry in self._rings[name] if entry.seq > after]
        return sorted(found, key=lambda entry: entry.seq)

    def new_pid(self) -> int:
        """A process id for a short-lived process that logs (``log`` run from the shell)."""
        self._next_pid += 1
        return self._next_pid

    def watch(self, event: threading.Event) -> None:
        """Set ``event`` whenever an entry is written, until ``unwatch``."""
        self._watchers.add(event)

    def unwatch(self, event: threading.Event) -> None:
        """Stop setting ``event``."""
        self._watchers.discard(event)
