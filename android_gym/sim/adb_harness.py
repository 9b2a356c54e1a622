"""A private adb setup for tests and benchmarks: Debian's adb server on a free port, free emulator ports, and a
simulated phone served in a process of its own.

``private_adb_server`` runs the real ``adb`` server with its own ``HOME`` (its key, log and the emulator console
token stay there) and points this process at it through ``ANDROID_ADB_SERVER_PORT``, so nothing touches the
user's adb server on 5037. ``served_phone_process`` runs ``android-gym sim serve`` on ports it takes itself.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from android_gym.errors import AdbServerError, ServerError

#: Odd adb ports an adb server scans for emulators (console port = adb port - 1).
EMULATOR_ADB_PORTS = range(5555, 5586, 2)


def port_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether nothing listens on ``port`` of ``host`` right now (nor on every address, which holds it on each)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _ephemeral_ports() -> range:
    """The kernel's range for ports it hands out itself (outgoing connections, ``bind`` to port 0)."""
    try:
        low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    except (OSError, ValueError):
        low, high = 32768, 60999  # Linux's default
    return range(low, high + 1)


#: Ports picked for servers come from below the kernel's ephemeral range: between the check and the server's
#: own ``bind``, no outgoing connection of any process can take them.
_PICKABLE_PORTS = range(10000, max(10100, _ephemeral_ports().start))
_picker = random.Random()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now on ``host``, outside the range the kernel gives to outgoing
    connections."""
    for _ in range(1000):
        port = _picker.choice(_PICKABLE_PORTS)
        if port_free(port, host):
            return port
    raise AdbServerError(f"found no free port in {_PICKABLE_PORTS.start}-{_PICKABLE_PORTS.stop - 1} on {host}")


def free_port_pair(host: str = "127.0.0.1") -> int:
    """A free port whose neighbour below is free too: an adb port for a phone whose console takes port - 1."""
    for _ in range(100):
        port = free_port(host)
        if port_free(port - 1, host):
            return port
    raise AdbServerError(f"found no two free neighbouring ports on {host}")


def free_emulator_port(host: str = "127.0.0.1") -> int:
    """The first emulator adb port of ``host`` that is free with its console port (one below)."""
    for port in EMULATOR_ADB_PORTS:
        if port_free(port, host) and port_free(port - 1, host):
            return port
    raise AdbServerError("all emulator ports 5554-5585 are taken; stop some emulators or simulated phones")


@contextmanager
def private_adb_server(home: Path) -> Iterator[int]:
    """Start ``adb -P <free port> start-server`` with ``HOME=home``; yields the port; kills the server after.

    While it runs, this process's ``HOME`` and ``ANDROID_ADB_SERVER_PORT`` point at it.
    """
    adb = shutil.which("adb")
    if adb is None:
        raise AdbServerError("the adb command is missing: `apt-get install -y adb`")
    home.mkdir(parents=True, exist_ok=True)
    port = free_port()
    saved = {key: os.environ.get(key) for key in ("HOME", "ANDROID_ADB_SERVER_PORT")}
    os.environ.update(HOME=str(home), ANDROID_ADB_SERVER_PORT=str(port))
    try:
        subprocess.run([adb, "-P", str(port), "start-server"], check=True, capture_output=True, timeout=30)
        yield port
    finally:
        subprocess.run([adb, "-P", str(port), "kill-server"], capture_output=True, timeout=30)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@dataclass(frozen=True)
class ServedPhone:
    """A phone ``android-gym sim serve`` serves in a process of its own: its serial, adb and gRPC ports."""

    process: subprocess.Popen
    serial: str
    adb_port: int
    grpc_port: int


@contextmanager
def served_phone_process(*options: str) -> Iterator[ServedPhone]:
    """``android-gym sim serve *options`` on the first emulator ports it can listen on and a gRPC port the system
    picks, for the duration; yields once it listens on them all (as its first line reports), before an adb server
    has listed it. No port is picked ahead of the server's own ``bind``, so no other process can take it between.
    Its errors go to this process's standard error."""
    with subprocess.Popen([sys.executable, "-m", "android_gym.cli", "sim", "serve", "--grpc-port", "0", *options],
                          stdout=subprocess.PIPE, text=True) as process:  # on leaving: its pipe closed, waited for
        try:
            report = process.stdout.readline()
            served = re.match(r"(emulator-\d+): adb on \S+:(\d+), .*gRPC on \S+:(\d+)", report)
            if served is None:
                raise ServerError(f"sim serve {' '.join(options)} did not start; it printed {report!r}")
            yield ServedPhone(process, served[1], int(served[2]), int(served[3]))
        finally:
            process.terminate()
