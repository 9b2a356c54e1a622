"""Devices: the protocol, its backends, and ``open_device`` for ``device=`` strings."""

from __future__ import annotations

import re

from android_gym.errors import DeviceSpecError

from .base import Device, ShellResult

__all__ = ["Device", "ShellResult", "open_device"]

_SIM_SPEC = re.compile(r"sim(?::(\d+)x(\d+))?")


def open_device(spec: str | Device | None = None) -> Device:
    """A device from a spec: ``None``/``"sim"`` (simulated Pixel 6), ``"sim:WIDTHxHEIGHT"``, ``"adb:<serial>"``
    (an emulator or phone the adb server lists), ``"adb:<host>:<port>"`` (``adb connect`` first), or a Device."""
    if spec is not None and not isinstance(spec, str):
        if isinstance(spec, Device):
            return spec
        raise DeviceSpecError(f"device must be a string like 'sim' or a Device object, not {type(spec).__name__}")
    match = _SIM_SPEC.fullmatch(spec or "sim")
    if match:
        from .sim import SimDevice

        width, height = match.groups()
        return SimDevice(int(width), int(height)) if width else SimDevice()
    if spec.startswith("adb:") and len(spec) > len("adb:"):
        from .adb import AdbDevice

        return AdbDevice(spec.removeprefix("adb:"))
    if spec.startswith("emulator:"):
        raise DeviceSpecError(
            f"device {spec!r}: the emulator gRPC backend is not part of this release yet; use 'adb:emulator-5554'")
    raise DeviceSpecError(f"unknown device {spec!r}; use 'sim', 'sim:WIDTHxHEIGHT' (e.g. 'sim:540x1200'), "
                          "'adb:<serial>' (e.g. 'adb:emulator-5554') or 'adb:<host>:<port>'")
