"""The Device protocol: everything task code and the env may do with a phone.

Two backends implement it: ``SimDevice`` (the simulated phone, in process) and ``AdbDevice`` (a real emulator
or phone over adb). Task code never asks which one it has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from android_gym.errors import UnencodableTextError, short_repr

#: The settings provider's namespaces, its tables (``settings list NAMESPACE``; AOSP ``SettingsProvider``).
SETTINGS_NAMESPACES = ("global", "system", "secure")


@dataclass(frozen=True)
class ShellResult:
    """What a shell command printed (stdout then stderr) and its exit code."""

    output: str
    exit_code: int

    @property
    def ok(self) -> bool:
        """Whether the command exited with 0."""
        return self.exit_code == 0


def encode_utf8(text: str, what: str) -> bytes:
    """``text`` as UTF-8, the encoding of everything sent to a device; ``UnencodableTextError`` naming ``what``
    if ``text`` holds a lone surrogate (e.g. from ``json.loads('"\\ud800"')``), which UTF-8 cannot encode."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise UnencodableTextError(f"{what} {short_repr(text, 60)} is not valid Unicode text: the character at "
                                   f"position {error.start} is a lone surrogate ({text[error.start]!r}), which UTF-8 "
                                   "cannot encode") from None


@runtime_checkable
class Device(Protocol):
    """A phone: shell, files, screen, UI hierarchy and input.

    A backend may also offer short cuts that answer what these methods already tell, more cheaply; callers look for
    them with ``getattr`` and fall back to the protocol: ``ui_elements(xml)`` (the parsed elements of the dump just
    returned, else None) and ``focused_activity()`` (what ``dumpsys window`` names as focused). ``SimDevice`` has
    both. ``AdbDevice`` has ``known_focus()``: the ``mCurrentFocus`` line of ``dumpsys window`` it read along with
    its last UI dump, if nothing ran since, else None.
    """

    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` of the display in pixels."""

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        """Run ``cmd`` with the device's ``/system/bin/sh``; quote every value with ``shlex.quote``."""

    def push(self, data: bytes, path: str) -> None:
        """Write ``data`` to ``path`` on the device, creating parent directories."""

    def pull(self, path: str) -> bytes:
        """Read a file; raises ``RemoteFileNotFoundError`` if it does not exist."""

    def screenshot(self) -> np.ndarray:
        """The screen as ``(H, W, 3)`` uint8; possibly read-only (then it never changes)."""

    def ui_dump(self) -> str:
        """The uiautomator XML of the foreground window."""

    def tap(self, x: int, y: int) -> None:
        """Tap at pixel coordinates."""

    def long_press(self, x: int, y: int) -> None:
        """Touch and hold at pixel coordinates."""

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Drag between two points."""

    def input_text(self, text: str) -> None:
        """Type ``text`` into the focused field."""

    def key(self, code: int) -> None:
        """Press a key by Android key code."""

    def receive_sms(self, sender: str, text: str) -> None:
        """Deliver an incoming SMS, as the emulator console's ``sms send`` does (emulators only)."""

    def close(self) -> None:
        """Release the device. Idempotent."""
