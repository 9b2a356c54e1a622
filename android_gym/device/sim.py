"""``SimDevice``: the Device protocol on the in-process simulated phone."""

from __future__ import annotations

import posixpath

import numpy as np

from android_gym.errors import DeviceError, RemoteFileNotFoundError
from android_gym.sim.phone import Phone

from .base import ShellResult, encode_utf8


class SimDevice:
    """A simulated phone owned by this device object (closing the device deletes the phone)."""

    def __init__(self, width: int = 1080, height: int = 2400) -> None:
        self.phone = Phone(width, height)
        self._closed = False

    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` in pixels."""
        return self.phone.screen_size

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceError("the simulated phone was closed; create a new env or device")

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        """Run a command line in the phone's shell (``timeout`` is moot: nothing blocks)."""
        self._check_open()
        encode_utf8(cmd, "shell command")
        result = self.phone.run(cmd)
        return ShellResult((result.stdout + result.stderr).decode("utf-8", "replace"), result.exit_code)

    def push(self, data: bytes, path: str) -> None:
        """Write a file, creating its parent directories (adb's ``fixed_push_mkdir``)."""
        self._check_open()
        encode_utf8(path, "device path")
        self.phone.fs.makedirs(posixpath.dirname(path))
        self.phone.fs.write_bytes(path, data)
        self.phone.invalidate()

    def pull(self, path: str) -> bytes:
        """Read a file from the phone."""
        self._check_open()
        encode_utf8(path, "device path")
        try:
            return self.phone.fs.read_bytes(path)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise RemoteFileNotFoundError(f"{path}: no such file on the device") from error

    def screenshot(self) -> np.ndarray:
        """The screen, ``(H, W, 3)`` uint8."""
        self._check_open()
        return self.phone.screenshot()

    def ui_dump(self) -> str:
        """The uiautomator XML of the foreground window."""
        self._check_open()
        return self.phone.ui_dump()

    def tap(self, x: int, y: int) -> None:
        """Tap at pixel coordinates."""
        self._check_open()
        self.phone.tap(x, y)

    def long_press(self, x: int, y: int) -> None:
        """Touch and hold."""
        self._check_open()
        self.phone.long_press(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Drag between two points."""
        self._check_open()
        self.phone.swipe(x1, y1, x2, y2, duration_ms)

    def input_text(self, text: str) -> None:
        """Type into the focused field."""
        self._check_open()
        encode_utf8(text, "text to type")
        self.phone.input_text(text)

    def key(self, code: int) -> None:
        """Press a key."""
        self._check_open()
        self.phone.key(code)

    def receive_sms(self, sender: str, text: str) -> None:
        """An incoming text through the simulated modem."""
        self._check_open()
        encode_utf8(sender, "SMS sender")
        encode_utf8(text, "SMS text")
        self.phone.telephony.deliver_sms(sender, text)
        self.phone.invalidate()

    def close(self) -> None:
        """Delete the simulated phone. Idempotent."""
        if not self._closed:
            self._closed = True
            self.phone.close()
