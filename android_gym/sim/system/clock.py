"""The simulated phone's virtual clock: fixed at task start, advanced by actions, never by the wall clock."""

from __future__ import annotations

import datetime as dt

#: AndroidWorld's device time for every task: 2023-10-15 15:34:00 UTC.
DEFAULT_DEVICE_TIME_MS = int(dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc).timestamp() * 1000)


class VirtualClock:
    """Milliseconds since the Unix epoch, moved only by ``set``/``advance``."""

    def __init__(self, now_ms: int = DEFAULT_DEVICE_TIME_MS) -> None:
        self._now_ms = now_ms

    def now_ms(self) -> int:
        """Current device time in epoch milliseconds."""
        return self._now_ms

    def now(self) -> dt.datetime:
        """Current device time as an aware UTC datetime (the simulated phone's zone is UTC)."""
        return dt.datetime.fromtimestamp(self._now_ms / 1000, tz=dt.timezone.utc)

    def set(self, now_ms: int) -> None:
        """Set the device time (what ``date`` does as root)."""
        self._now_ms = int(now_ms)

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds of device time pass."""
        self._now_ms += int(ms)
