"""Devices: the protocol, its backends, and ``open_device`` for ``device=`` strings."""

from __future__ import annotations

import re

from android_gym.errors import DeviceSpecError

from .base import Device, ShellResult

__all__ = ["Device", "ShellResult", "open_device"]

_SIM_SPEC = re.compile(r"sim(?::(\d+)x(\d+))?")


def open_device(spec: str | Device | None = None) -> Device:
    """A device from a spec: ``None``/``"sim"`` (simulated Pixel 6), ``"sim:WIDTHxHEIGHT"``, or a Device."""
    if spec is not None and not isinstance(spec, str):
        if isinstance(spec, Device):
            return spec
        raise DeviceSpecError(f"device must be a string like 'sim' or a Device object, not {type(spec).__name__}")
    match = _SIM_SPEC.fullmatch(spec or "sim")
    if match:
        from .sim import SimDevice

        width, height = match.groups()
        return SimDevice(int(width), int(height)) if width else SimDevice()
    if spec.startswith(("adb:", "emulator:")):
        raise DeviceSpecError(
            f"device {spec!r}: the adb backend for real emulators and phones is not part of this release yet; "
            "use device='sim' (the simulated phone)")
    raise DeviceSpecError(f"unknown device {spec!r}; use 'sim' or 'sim:WIDTHxHEIGHT' (e.g. 'sim:540x1200')")
