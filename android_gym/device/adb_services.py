"""Device services through an adb server, on plain sockets: shell v2, exec, and sync push/pull.

adbutils stays in charge of the server (``host:`` requests: devices, connect, wait-for, features, root). The
per-call services are written here because adbutils' versions cost ~20 ms each on this machine: every transport
open first asks the server its version on a second connection, and every close sleeps 10 ms. Measured with
``benchmarks/adb_latency.py``: ``shell true`` 21.6 ms through adbutils, against 3.8 ms for the ``adb`` command.
Layouts follow AOSP ``packages/modules/adb`` (``SERVICES.TXT``, ``shell_protocol.h``, ``file_sync_protocol.h``).
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import adbutils
import numpy as np

from .base import encode_utf8

SYNC_DATA_MAX = 64 * 1024
_ID_STDOUT, _ID_STDERR, _ID_EXIT = 1, 2, 3
#: A caller's writable buffer for output (a bytearray, or a 1-D uint8 array).
Buffer = bytearray | np.ndarray


class ServiceNotStarted(ConnectionError):
    """The device or the server refused or dropped the request before the service started (safe to retry)."""


class SyncFailure(Exception):
    """The device answered a sync request with FAIL (its message is the exception's text)."""


@dataclass(frozen=True)
class ShellOutput:
    """What a shell-v2 command wrote, and its exit code (``stdout`` a view of the caller's buffer if it gave one)."""

    stdout: bytes | memoryview
    stderr: bytes
    exit_code: int


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise ConnectionError(f"the device closed the stream after {len(data)} of {size} bytes")
        data += chunk
    return bytes(data)


def _read_into(sock: socket.socket, view: memoryview) -> None:
    """Fill ``view`` from the stream."""
    size = 0
    while size < len(view):
        received = sock.recv_into(view[size:])
        if not received:
            raise ConnectionError(f"the device closed the stream after {size} of {len(view)} bytes")
        size += received


def _read_to_end(sock: socket.socket, buffer: Buffer) -> memoryview:
    """Everything until the device closes the stream, read straight into ``buffer`` (a larger copy of it once it is
    full, the caller's left as it is): a 10 MB screenshot is neither gathered from pieces nor joined, and a buffer
    kept for the next one is not even allocated again."""
    size = 0
    while True:
        if size == len(buffer):  # full: the stream ends here, or goes on into a larger buffer
            more = sock.recv(1 << 16)
            if not more:
                break
            buffer = bytearray(buffer[:size]) + more + bytes(max(size, 1 << 16))
            size += len(more)
        with memoryview(buffer) as view:
            received = sock.recv_into(view[size:])
        if not received:
            break
        size += received
    return memoryview(buffer)[:size]


def _check_okay(sock: socket.socket) -> None:
    """The server's reply to a request: ``OKAY``, or ``FAIL`` with a hex-length message."""
    status = _read_exactly(sock, 4)
    if status == b"OKAY":
        return
    if status == b"FAIL":
        length = int(_read_exactly(sock, 4), 16)
        raise adbutils.AdbError(_read_exactly(sock, length).decode("utf-8", "replace"))
    raise adbutils.AdbError(f"unexpected reply from the adb server: {status!r}")


def _request(sock: socket.socket, text: str) -> None:
    data = encode_utf8(text, "adb service request")
    sock.sendall(b"%04x" % len(data) + data)
    _check_okay(sock)


@contextmanager
def open_service(client: adbutils.AdbClient, serial: str, service: str, timeout: float) -> Iterator[socket.socket]:
    """A socket connected to ``service`` on device ``serial``; closed (without lingering) afterwards."""
    try:
        sock = client.make_connection(timeout=timeout).conn
    except adbutils.AdbError as error:
        raise ServiceNotStarted(f"cannot reach the adb server: {error}") from error
    # Requests go out in several writes before a read (sync SEND, its data, DONE): with Nagle's algorithm the
    # later writes wait for the server's delayed ACK, 40 ms each on Linux. adb's own client disables it too.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        try:
            _request(sock, f"host:transport:{serial}")
            _request(sock, service)
        except (adbutils.AdbError, OSError) as error:
            raise ServiceNotStarted(str(error)) from error
        yield sock
    finally:
        sock.close()


def shell_v2(client: adbutils.AdbClient, serial: str, command: str, timeout: float,
             buffer: Buffer | None = None) -> ShellOutput:
    """Run ``command`` with the shell protocol (``shell,v2,raw:``); standard input is closed at once. Standard output
    is read straight into ``buffer`` if it is given (then ``stdout`` is a view of it, valid until the buffer is used
    again; of a larger copy if it does not fit): a screenshot in it is not gathered from packets and joined."""
    stdout, size, stderr = bytearray() if buffer is None else buffer, 0, bytearray()
    with open_service(client, serial, f"shell,v2,raw:{command}", timeout) as sock:
        sock.sendall(struct.pack("<BI", 4, 0))  # CLOSE_STDIN: the command reads end of file, as with adb -n
        while True:
            packet_id, length = struct.unpack("<BI", _read_exactly(sock, 5))
            if packet_id == _ID_STDOUT:
                if size + length > len(stdout):  # more room: the caller's buffer stays as it is
                    stdout = stdout if stdout is not buffer else bytearray(stdout[:size])
                    stdout += bytes(size + length - len(stdout))
                with memoryview(stdout) as view:
                    _read_into(sock, view[size:size + length])
                size += length
                continue
            payload = _read_exactly(sock, length)
            if packet_id == _ID_STDERR:
                stderr += payload
            elif packet_id == _ID_EXIT:
                printed = bytes(stdout[:size]) if buffer is None else memoryview(stdout)[:size]
                return ShellOutput(printed, bytes(stderr), payload[0] if payload else 255)


def exec_out(client: adbutils.AdbClient, serial: str, command: str, timeout: float,
             buffer: Buffer | None = None) -> memoryview:
    """Raw standard output of ``command`` (``adb exec-out``: no terminal, no line-ending translation), read into
    ``buffer`` if it is given and large enough (a view of it, valid until the buffer is used again)."""
    with open_service(client, serial, f"exec:{command}", timeout) as sock:
        return _read_to_end(sock, bytearray(1 << 16) if buffer is None else buffer)


def sync_data(data: bytes) -> bytes:
    """``data`` as sync ``DATA`` records of at most ``SYNC_DATA_MAX`` bytes each (both directions use them)."""
    chunks = (data[i:i + SYNC_DATA_MAX] for i in range(0, len(data), SYNC_DATA_MAX))
    return b"".join(struct.pack("<4sI", b"DATA", len(chunk)) + chunk for chunk in chunks)


def _sync_request(sock: socket.socket, request: bytes, argument: str) -> None:
    data = encode_utf8(argument, "device path")
    sock.sendall(struct.pack("<4sI", request, len(data)) + data)


def _sync_fail(sock: socket.socket, length: int) -> SyncFailure:
    return SyncFailure(_read_exactly(sock, length).decode("utf-8", "replace"))


def pull(client: adbutils.AdbClient, serial: str, path: str, timeout: float) -> bytes:
    """A device file's contents (sync RECV); raises ``SyncFailure`` with the device's reason."""
    data = bytearray()
    with open_service(client, serial, "sync:", timeout) as sock:
        _sync_request(sock, b"RECV", path)
        while True:
            reply, length = struct.unpack("<4sI", _read_exactly(sock, 8))
            if reply == b"DATA":
                data += _read_exactly(sock, length)
            elif reply == b"DONE":
                break
            elif reply == b"FAIL":
                raise _sync_fail(sock, length)
            else:
                raise ConnectionError(f"unexpected sync reply {reply!r}")
        _sync_request(sock, b"QUIT", "")
    return bytes(data)


def push(client: adbutils.AdbClient, serial: str, data: bytes, path: str, mode: int, timeout: float) -> None:
    """Write a device file (sync SEND; the device creates missing directories with ``fixed_push_mkdir``)."""
    with open_service(client, serial, "sync:", timeout) as sock:
        request = encode_utf8(f"{path},{0o100000 | mode}", "device path")
        sock.sendall(struct.pack("<4sI", b"SEND", len(request)) + request + sync_data(data)
                     + struct.pack("<4sI", b"DONE", int(time.time())))
        reply, length = struct.unpack("<4sI", _read_exactly(sock, 8))
        if reply == b"FAIL":
            raise _sync_fail(sock, length)
        if reply != b"OKAY":
            raise ConnectionError(f"unexpected sync reply {reply!r}")
        _sync_request(sock, b"QUIT", "")
