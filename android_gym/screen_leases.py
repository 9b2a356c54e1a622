"""Observation pixels handed out without copying the screen: each hand-out is a read-only array over the screen
itself, and a screen the caller still holds from an earlier hand-out is copied instead, so no two observations the
caller holds share memory (what Gymnasium's ``check_env`` asks: ``check_returned_data_not_reused``).

This rests on the device's contract: a read-only screen never changes (the simulated phone's renderer draws only
into a frame nothing else holds, ``Renderer._recycled``). A lease holds its screen, so while the caller holds the
observation, or any view of it, the renderer sees that frame held and does not draw into it.
"""

from __future__ import annotations

import weakref

import numpy as np


class _Lease:
    """One hand-out of a read-only screen: the base of the observation's array and of every view made of it, so it
    lives exactly as long as the caller holds any of them. Its ``__array_interface__`` is the screen's own (its
    memory, marked read-only), so the array made of it can never be made writable."""

    __slots__ = ("__array_interface__", "__weakref__", "screen")

    def __init__(self, screen: np.ndarray) -> None:
        self.screen = screen
        self.__array_interface__ = screen.__array_interface__


class ScreenLeases:
    """Hands out read-only screens as observation pixels: the screen's own memory when the caller holds no earlier
    hand-out of it (a screen that changed since the last observation, or one whose last observation was let go),
    else a copy of it (handed out as read-only)."""

    def __init__(self) -> None:
        self._leases: weakref.WeakValueDictionary[int, _Lease] = weakref.WeakValueDictionary()  # by id(screen)

    def held(self, screen: np.ndarray) -> bool:
        """Whether the caller holds an array handed out over ``screen``'s memory (``handed`` would copy it)."""
        return id(screen) in self._leases  # a live lease holds its screen, so the id is that screen's

    def handed(self, screen: np.ndarray) -> np.ndarray:
        """``screen`` (read-only, never to change) as an array the caller may keep: it shares no memory with an
        array handed out earlier that the caller still holds."""
        if self.held(screen):
            screen = screen.copy()
            screen.flags.writeable = False
        lease = self._leases[id(screen)] = _Lease(screen)
        return np.asarray(lease)  # read-only for good: its base is the lease, which offers the memory read-only
