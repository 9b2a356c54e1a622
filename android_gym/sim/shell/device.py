"""``ShellDevice``: the phone as the shell and its commands drive it.

Commands reach every part of the phone: what apps see (``Context``), the framework services' full interfaces
(``am``, ``pm``, ``dumpsys`` and ``wm`` read tasks, package records and the display), input injection (``input``)
and the screen (``screencap``, ``uiautomator dump``). The concrete ``Phone`` satisfies this protocol; the shell
never imports it.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from android_gym.sim.framework.activities import ActivityManager
from android_gym.sim.framework.app import Context
from android_gym.sim.framework.packages import PackageManager
from android_gym.sim.framework.window import WindowManager
from android_gym.sim.shell.kept_databases import KeptDatabases


class ShellDevice(Context, Protocol):
    """The phone's services, input and screen."""

    packages: PackageManager
    activities: ActivityManager
    window: WindowManager
    kept_databases: KeptDatabases

    def settle_providers(self) -> None:
        """Commit what the command line's ``content`` writes left in the providers' open transactions."""
        ...

    def restart_framework(self) -> None:
        """Restart the Java framework (``ctl.restart zygote``): apps die, the system locale is read again."""
        ...

    def tap(self, x: float, y: float) -> None:
        """Touch and release at screen coordinates."""
        ...

    def long_press(self, x: float, y: float) -> None:
        """Touch and hold at screen coordinates."""
        ...

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """Drag from one point to another."""
        ...

    def input_text(self, text: str) -> None:
        """Commit text into the focused field."""
        ...

    def key(self, code: int, meta: frozenset[int] = frozenset()) -> None:
        """Press a key, optionally with meta keys held."""
        ...

    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` in pixels."""
        ...

    def screenshot(self) -> np.ndarray:
        """The screen, ``(H, W, 3)`` uint8."""
        ...

    def screenshot_rgba(self) -> memoryview:
        """The screen as opaque RGBA8888 bytes, rows from the top (read-only, unchanged while held)."""
        ...

    def ui_dump(self) -> str:
        """The uiautomator XML of the foreground window."""
        ...
