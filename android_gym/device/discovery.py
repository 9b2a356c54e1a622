"""The emulator's discovery files: how a running emulator tells clients its ports and its gRPC token.

The Android emulator writes ``pid_<pid>.ini`` (``key=value`` lines such as ``port.serial``, ``port.adb``,
``avd.name``, ``grpc.port`` and, with ``-grpc-use-token``, ``grpc.token``) into ``$XDG_RUNTIME_DIR/avd/running`` on
Linux, or ``/tmp/android-$USER/avd/running`` without one, and removes it when it exits; clients such as Android
Studio and the emulator's own Python tools (``aemu.discovery``) read the token there and send it with every call as
``authorization: Bearer <token>``. ``android-gym sim serve`` writes the same file, and ``EmulatorGrpc`` reads it.
"""

from __future__ import annotations

import contextlib
import getpass
import os
from collections.abc import Mapping
from pathlib import Path


def discovery_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where running emulators describe themselves on this machine."""
    environ = os.environ if environ is None else environ
    runtime = environ.get("XDG_RUNTIME_DIR")
    root = Path(runtime) if runtime else Path("/tmp") / f"android-{environ.get('USER') or getpass.getuser()}"
    return root / "avd" / "running"


def read_ini(path: Path) -> dict[str, str]:
    """The ``key=value`` lines of one discovery file (others ignored)."""
    entries = {}
    for line in path.read_text(errors="replace").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep:
            entries[key] = value
    return entries


def grpc_token(port: int, environ: Mapping[str, str] | None = None) -> str | None:
    """The token a running emulator (or served phone) with gRPC on ``port`` expects, if it published one."""
    folder = discovery_dir(environ)
    for path in sorted(folder.glob("pid_*.ini")) if folder.is_dir() else []:
        with contextlib.suppress(OSError):
            entries = read_ini(path)
            if entries.get("grpc.port") == str(port) and entries.get("grpc.token"):
                return entries["grpc.token"]
    return None


def write_discovery_file(entries: Mapping[str, str], environ: Mapping[str, str] | None = None) -> Path:
    """Write this process's ``pid_<pid>.ini`` (readable by its user only, as it may hold a token); returns it."""
    folder = discovery_dir(environ)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"pid_{os.getpid()}.ini"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.writelines(f"{key}={value}\n" for key, value in entries.items())
    return path
