"""Devices: the protocol, its backends, and ``open_device`` for ``device=`` strings."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from android_gym.errors import DeviceSpecError

from .base import Device, ShellResult

__all__ = ["Device", "DeviceSpec", "ShellResult", "open_device", "parse_device_spec"]

_SIM_SPEC = re.compile(r"sim(?::(\d+)x(\d+))?")


@dataclass(frozen=True)
class DeviceSpec:
    """A ``device=`` string read without opening anything: its ``kind`` (``sim``, ``adb`` or ``emulator``), the
    ``target`` (serial or AVD), the screen ``size`` of ``sim:WIDTHxHEIGHT`` and the ``AdbDevice`` keyword
    ``options`` of its ``?…`` part."""

    kind: str
    target: str = ""
    size: tuple[int, int] | None = None
    options: dict = field(default_factory=dict)


def parse_device_spec(spec: str | None) -> DeviceSpec:
    """Read a ``device=`` string (``None`` is ``"sim"``); ``DeviceSpecError`` for one ``open_device`` refuses."""
    match = _SIM_SPEC.fullmatch(spec or "sim")
    if match:
        width, height = match.groups()
        return DeviceSpec("sim", size=(int(width), int(height)) if width else None)
    for kind in ("adb", "emulator"):
        if not spec.startswith(f"{kind}:"):
            continue
        target, _, query = spec.removeprefix(f"{kind}:").partition("?")
        if target:
            options = _adb_options(spec, query)
            if kind == "emulator" and options["grpc"]:
                raise DeviceSpecError(f"device {spec!r}: the emulator's gRPC port is picked when it starts; drop grpc=")
            return DeviceSpec(kind, target, options=options)
    raise DeviceSpecError(f"unknown device {spec!r}; use 'sim', 'sim:WIDTHxHEIGHT' (e.g. 'sim:540x1200'), "
                          "'adb:<serial>' (e.g. 'adb:emulator-5554'), 'adb:<host>:<port>' or 'emulator:<AVD>'")


def open_device(spec: str | Device | None = None) -> Device:
    """A device from a spec: ``None``/``"sim"`` (simulated Pixel 6), ``"sim:WIDTHxHEIGHT"``, ``"adb:<serial>"``
    (an emulator or phone the adb server lists), ``"adb:<host>:<port>"`` (``adb connect`` first),
    ``"emulator:<AVD>"`` (starts that AVD's emulator with gRPC; closing the device stops it), or a Device.

    An adb spec takes options after ``?``: ``grpc=HOST:PORT`` (the emulator's gRPC service for screenshots and
    touches) and ``stabilize=off`` (do not wait for the UI to settle after inputs), e.g.
    ``"adb:emulator-5554?grpc=localhost:8554"``; an emulator spec takes ``stabilize=off``.
    """
    if spec is not None and not isinstance(spec, str):
        if isinstance(spec, Device):
            return spec
        raise DeviceSpecError(f"device must be a string like 'sim' or a Device object, not {type(spec).__name__}")
    parsed = parse_device_spec(spec)
    if parsed.kind == "sim":
        from .sim import SimDevice

        return SimDevice(*parsed.size) if parsed.size else SimDevice()
    if parsed.kind == "adb":
        from .adb import AdbDevice

        return AdbDevice(parsed.target, **parsed.options)
    from android_gym.emulator import open_emulator_device

    return open_emulator_device(parsed.target, stabilize=parsed.options["stabilize"])


def _adb_options(spec: str, query: str) -> dict:
    """``AdbDevice`` keyword arguments from a spec's ``?grpc=…&stabilize=…`` part."""
    from .stabilize import Stabilization

    options = {key: values[-1] for key, values in parse_qs(query, keep_blank_values=True).items()}
    unknown = set(options) - {"grpc", "stabilize"}
    if unknown:
        raise DeviceSpecError(f"device {spec!r}: unknown option(s) {', '.join(sorted(unknown))}; "
                              "adb devices take grpc=HOST:PORT and stabilize=on|off")
    stabilize = options.get("stabilize", "on")
    if stabilize not in ("on", "off"):
        raise DeviceSpecError(f"device {spec!r}: stabilize must be 'on' or 'off', not {stabilize!r}")
    return {"grpc": options.get("grpc") or None, "stabilize": Stabilization() if stabilize == "on" else None}
