"""The simulated phone's virtual clock: fixed at task start, advanced by actions, never by the wall clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

#: AndroidWorld's device time for every task: 2023-10-15 15:34:00 UTC.
DEFAULT_DEVICE_TIME_MS = int(dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc).timestamp() * 1000)


MINUTE_MS = 60_000
DAY_MS = 86_400_000
#: ``finest_read`` when nobody looked at the time.
UNREAD = 2**62


class VirtualClock:
    """Milliseconds since the Unix epoch, moved only by ``set``/``advance``.

    ``finest_read`` is the finest unit anyone read the time in since it was last reset to ``UNREAD``: the window
    manager resets it before building a frame, so it knows when that frame goes out of date as time passes (a
    date on screen when the day turns, hours and minutes when the minute turns, a running stopwatch at once).
    ``expires`` is the earliest deadline anyone asked about with ``before`` since it was last reset to ``UNREAD`` (a
    message shown until then): such a frame goes out of date when device time reaches it.
    """

    def __init__(self, now_ms: int = DEFAULT_DEVICE_TIME_MS) -> None:
        self._now_ms = now_ms
        self.finest_read = UNREAD
        self.expires = UNREAD

    def now_ms(self) -> int:
        """Current device time in epoch milliseconds."""
        self.finest_read = 1
        return self._now_ms

    def before(self, deadline_ms: int) -> bool:
        """Whether device time is still before ``deadline_ms`` (a snackbar, a heads-up notification shown until then);
        while it is, ``expires`` keeps the deadline, so what was built on the answer changes then and not before."""
        if self._now_ms < deadline_ms:
            self.expires = min(self.expires, deadline_ms)
            return True
        return False

    def record_ms(self) -> int:
        """Current device time in epoch milliseconds for a record the screen does not show as it is made (a file's
        times, a log entry): unlike ``now_ms`` it leaves ``finest_read`` alone, so a frame whose build reads a
        database (which stamps the side files SQLite touched) does not go out of date at every millisecond. The
        window manager reads it too, to tell how old its frame is without counting as a read by the screen."""
        return self._now_ms

    def now(self, resolution_ms: int = 1) -> dt.datetime:
        """Current device time as an aware UTC datetime (the simulated phone's zone is UTC); ``resolution_ms`` is
        the unit the caller uses it in (``MINUTE_MS`` to show hours and minutes, ``DAY_MS`` for a date)."""
        self.finest_read = min(self.finest_read, resolution_ms)
        return dt.datetime.fromtimestamp(self._now_ms / 1000, tz=dt.timezone.utc)

    def units(self, unit_ms: int) -> int:
        """How many whole ``unit_ms`` (a minute, a day) of device time have passed since the epoch, read in that unit
        (``finest_read``): for a caller that shows only which minute or day it is, and so makes what it shows once
        per unit (from ``unit_start``)."""
        self.finest_read = min(self.finest_read, unit_ms)
        return self._now_ms // unit_ms

    def set(self, now_ms: int) -> None:
        """Set the device time (what ``date`` does as root)."""
        self._now_ms = int(now_ms)

    @contextmanager
    def at(self, now_ms: int) -> Iterator[None]:
        """Inside, device time is ``now_ms``: work that belongs to that moment, done later (an app's start at boot, run
        when the app is first needed). Afterwards the time, ``finest_read`` and ``expires`` are what they were."""
        saved = self._now_ms, self.finest_read, self.expires
        self._now_ms = int(now_ms)
        try:
            yield
        finally:
            self._now_ms, self.finest_read, self.expires = saved

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds of device time pass."""
        self._now_ms += int(ms)


def unit_start(units: int, unit_ms: int) -> dt.datetime:
    """The device time, an aware UTC datetime as ``VirtualClock.now`` gives (the simulated phone's zone is UTC), at
    which the ``units``-th ``unit_ms`` since the epoch began (``VirtualClock.units``)."""
    return dt.datetime.fromtimestamp(units * unit_ms / 1000, tz=dt.timezone.utc)
