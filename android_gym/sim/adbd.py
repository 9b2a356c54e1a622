"""adbd for the simulated phone: the adb device protocol over TCP, as an emulator's adbd serves it.

Layout and semantics follow AOSP ``packages/modules/adb`` (``protocol.txt``, ``SERVICES.TXT``, ``SYNC.TXT``,
``adb.h``, ``file_sync_protocol.h``, ``shell_protocol.h``): 24-byte little-endian packet headers, CNXN with the
device banner (after RSA key authentication when the daemon is given keys: ``adb_auth``), streams with OKAY flow
control (one unacknowledged WRTE per stream), and the services ``shell:``, ``shell,v2,...:``, ``exec:``,
``sync:``, ``root:`` and ``reboot:``. Anything else is refused with CLSE, which the adb client reports as
``error: closed``.

Every command runs through the phone's own shell interpreter, so ``adb shell`` and the in-process ``SimDevice``
see the same phone. Written by hand: no maintained Python library implements the *device* side of adb.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import socket
import stat
import struct
import threading
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from android_gym.device.adb_services import SYNC_DATA_MAX, sync_data
from android_gym.sim.adb_auth import AUTH_SIGNATURE, AUTH_TOKEN, TOKEN_SIZE, AdbPublicKey
from android_gym.sim.host import PhoneHost

# Packet commands (adb.h), little-endian ASCII.
A_SYNC, A_CNXN, A_AUTH, A_OPEN = 0x434E5953, 0x4E584E43, 0x48545541, 0x4E45504F
A_OKAY, A_CLSE, A_WRTE, A_STLS = 0x59414B4F, 0x45534C43, 0x45545257, 0x534C5453
A_VERSION = 0x01000001  # skips the payload checksum
MAX_PAYLOAD = 1 << 20
MAX_CNXN_PAYLOAD = 4096
FEATURES = ("shell_v2", "cmd", "stat_v2", "ls_v2", "fixed_push_mkdir")

_HEADER = struct.Struct("<6I")
#: Payload parts up to this size are joined to their header and sent with one ``send``; larger ones go out as they are.
_JOIN_MAX = 64 * 1024
#: A send buffer that takes a whole WRTE of ``MAX_PAYLOAD`` at once: asyncio copies what ``send`` leaves into its
#: own buffer and moves the rest down after each later ``send`` (a 10 MB screenshot: ~1 ms of CPU more). Set only
#: where the system lets a socket have it (``net.core.wmem_max``); elsewhere TCP's own sizing beats a small cap.
_SEND_BUFFER = 2 * MAX_PAYLOAD


def _send_buffer_cap() -> int:
    """The largest send buffer a socket may ask for (Linux ``net.core.wmem_max``; 0 where it cannot be read)."""
    try:
        return int(Path("/proc/sys/net/core/wmem_max").read_text())
    except (OSError, ValueError):
        return 0


_SEND_BUFFER_CAP = _send_buffer_cap()
Bytes = bytes | bytearray | memoryview
# Shell protocol v2 packet ids (shell_protocol.h).
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = range(6)
# Sync (file_sync_protocol.h).
SYNC_PATH_MAX = 1024
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")  # id, error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime


class ProtocolError(Exception):
    """The host sent something that is not the adb protocol; the connection is dropped."""


@dataclass(frozen=True)
class Packet:
    """One adb packet."""

    command: int
    arg0: int
    arg1: int
    data: bytes = b""

    def encode(self) -> bytes:
        """Header plus payload."""
        return packet_header(self.command, self.arg0, self.arg1, [self.data]) + self.data


def packet_header(command: int, arg0: int, arg1: int, payload: Sequence[Bytes]) -> bytes:
    """The 24-byte header of a packet whose payload is the ``payload`` pieces one after the other; the checksum is
    sent only on CNXN (later versions ignore it)."""
    check = sum(b"".join(payload)) & 0xFFFFFFFF if command == A_CNXN else 0
    return _HEADER.pack(command, arg0, arg1, sum(len(part) for part in payload), check, command ^ 0xFFFFFFFF)


def take_packet(received: bytearray) -> Packet | None:
    """The first packet in ``received`` once all of it has arrived, taken out of it (else ``None``); raises
    ``ProtocolError`` on a bad magic or an oversized payload."""
    if len(received) < _HEADER.size:
        return None
    command, arg0, arg1, length, _check, magic = _HEADER.unpack_from(received)
    if magic != command ^ 0xFFFFFFFF:
        raise ProtocolError(f"bad magic {magic:#x} for command {command:#x}")
    if length > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {length} bytes exceeds {MAX_PAYLOAD}")
    end = _HEADER.size + length
    if len(received) < end:
        return None
    with memoryview(received) as view:
        data = bytes(view[_HEADER.size:end])
    del received[:end]
    return Packet(command, arg0, arg1, data)


def wrte_payloads(pieces: Sequence[Bytes], limit: int) -> Iterator[list[memoryview]]:
    """The bytes of ``pieces``, in order, cut into WRTE payloads of at most ``limit`` bytes (each a list of
    memoryviews: a piece may end in one payload and go on in the next)."""
    payload: list[memoryview] = []
    room = limit
    for piece in pieces:
        view = memoryview(piece).cast("B")
        while view:
            part, view = view[:room], view[room:]
            payload.append(part)
            room -= len(part)
            if not room:
                yield payload
                payload, room = [], limit
    if payload:
        yield payload


def banner(props: dict[str, str]) -> bytes:
    """The device's CNXN payload: the three product properties the host reads, then the features."""
    fields = ";".join(f"{key}={props.get(key, '')}" for key in
                      ("ro.product.name", "ro.product.model", "ro.product.device"))
    return f"device::{fields};features={','.join(FEATURES)}".encode()


class Stream:
    """One adb stream on a connection: buffered host input, flow-controlled output."""

    def __init__(self, connection: _Connection, local_id: int, remote_id: int) -> None:
        self.connection = connection
        self.local_id = local_id
        self.remote_id = remote_id
        self._input = bytearray()
        self._input_changed = asyncio.Event()
        self._unsent: deque[list[memoryview]] = deque()  # WRTE payloads waiting for the host's OKAY of the last
        self._unacknowledged = False  # whether a WRTE went out that the host has not acknowledged yet
        self._all_sent = asyncio.Event()  # set while nothing waits to be sent
        self._all_sent.set()
        self.closed = False
        # Set (thread-safely) when the host can send no more input: CLSE, or a dropped connection.
        self.input_done = threading.Event()
        #: Events of device-side waiters (a following ``logcat``) to set when the host hangs up.
        self.hangup_events: set[threading.Event] = set()

    # ----- host → device
    def feed(self, data: bytes) -> None:
        """Data from a host WRTE (already acknowledged by the connection)."""
        self._input += data
        self._input_changed.set()

    def acknowledge(self) -> None:
        """The host sent OKAY for our last WRTE: the next one goes out at once."""
        self._unacknowledged = False
        self._send_next()

    def host_closed(self) -> None:
        """The host closed the stream (or the connection went away)."""
        self.closed = True
        self.input_done.set()
        self._input_changed.set()
        self._unsent.clear()
        self._all_sent.set()
        for event in list(self.hangup_events):
            event.set()

    async def read_some(self) -> bytes:
        """Whatever input is buffered, waiting for some; ``b""`` once the host has closed the stream."""
        while not self._input and not self.closed:
            self._input_changed.clear()
            await self._input_changed.wait()
        data = bytes(self._input)
        self._input.clear()
        return data

    async def read_exactly(self, size: int) -> bytes:
        """Exactly ``size`` bytes of input; raises ``EOFError`` if the host closes first."""
        while len(self._input) < size:
            if self.closed:
                raise EOFError
            self._input_changed.clear()
            await self._input_changed.wait()
        data = bytes(self._input[:size])
        del self._input[:size]
        return data

    # ----- device → host
    async def write(self, *pieces: Bytes) -> None:
        """Send ``pieces`` one after the other in WRTE packets of at most the host's payload size, each next one
        as the host's OKAY for the last comes in (``acknowledge`` sends it, without waking this task); returns once
        the last has gone out. Nothing is copied: the packets are memoryviews of ``pieces``, which must not change
        until they are sent (bytes)."""
        self._unsent.extend(wrte_payloads(pieces, self.connection.max_payload))
        self._all_sent.clear()
        self._send_next()
        await self._all_sent.wait()

    def _send_next(self) -> None:
        """Send the next WRTE waiting, unless the host has yet to acknowledge the last or has closed the stream."""
        if self._unsent and not self._unacknowledged and not self.closed:
            self._unacknowledged = True
            self.connection.send_parts(A_WRTE, self.local_id, self.remote_id, self._unsent.popleft())
        if not self._unsent:
            self._all_sent.set()

    async def close(self) -> None:
        """Close from the device side (CLSE) right after the last write, in the same send when it is small: the
        host delivers what it received before it closes its end (adb ``local_socket_close`` flushes its queue
        first), and an OKAY that comes for the forgotten stream afterwards is ignored."""
        if not self.closed:
            self.closed = True
            self.connection.send(Packet(A_CLSE, self.local_id, self.remote_id))
        self.input_done.set()
        self.connection.forget(self)


Service = Callable[[Stream], Awaitable[None]]


class AdbDaemon:
    """The device side of adb for one ``PhoneHost``; ``handle`` serves one TCP connection from an adb host.

    With ``authorized_keys`` (possibly empty), a host must prove it holds one of those keys before it gets the
    device (adb's RSA authentication); with ``None``, every host does, as an emulator's adbd lets it.
    """

    def __init__(self, host: PhoneHost, authorized_keys: Sequence[AdbPublicKey] | None = None) -> None:
        self.host = host
        self.authorized_keys = None if authorized_keys is None else tuple(authorized_keys)
        self._connections: set[_Connection] = set()

    def connection(self) -> asyncio.Protocol:
        """The protocol serving one TCP connection from an adb host (``loop.create_server``'s factory)."""
        return _Connection(self)

    async def close(self) -> None:
        """Drop every host connection and return once each has ended (its streams closed, their tasks cancelled)."""
        connections = list(self._connections)
        for connection in connections:
            connection.drop()
        await asyncio.gather(*(connection.ended.wait() for connection in connections))

    @property
    def connected(self) -> bool:
        """Whether any adb host is connected."""
        return bool(self._connections)

    def disconnect_all(self) -> None:
        """Drop every host connection (what a reboot or ``kill`` does to adbd)."""
        for connection in list(self._connections):
            connection.drop()

    def service(self, name: str) -> Service | None:
        """The handler of an OPEN service string, or ``None`` to refuse it."""
        kind, _, argument = name.partition(":")
        base, _, options = kind.partition(",")
        if base == "shell":
            flags = options.split(",") if options else []
            protocol = "v2" in flags
            pty = "pty" in flags or ("raw" not in flags and not argument)
            return lambda stream: self._shell(stream, argument, protocol, pty)
        if kind == "exec":
            return lambda stream: self._shell(stream, argument, protocol=False, pty=False)
        if name == "sync:":
            return self._sync
        if name == "root:":
            return lambda stream: _reply(stream, b"adbd is already running as root\n")
        if kind == "reboot":
            return self._reboot
        return None

    # ----- shell ---------------------------------------------------------------------------------------------
    async def _shell(self, stream: Stream, command: str, protocol: bool, pty: bool) -> None:
        if not command and pty:
            await _InteractiveShell(self.host, stream, protocol).run()
            return
        command = command or "sh"  # no terminal: the shell reads its script from standard input
        stdin = bytearray()
        arrived = threading.Event()
        pump = asyncio.create_task(_pump_stdin(stream, protocol, stdin, arrived))

        def remote_stdin(size: int | None) -> bytes:
            """The shell's ``StdinSource``: wait (phone lock released) for ``size`` bytes or the end of input."""
            with self.host.holding_released():
                while not stream.input_done.is_set() and (size is None or len(stdin) < size):
                    arrived.wait()
                    arrived.clear()
            return bytes(stdin)

        live = _StreamOutput(self.host, stream, protocol, pty, asyncio.get_running_loop())
        merged = pty or not protocol  # one socket or terminal carries both outputs, in the order written
        try:
            result = await self.host.run(self.host.phone.run, command, remote_stdin, live, merged)
        finally:
            pump.cancel()
        exit_packet = _v2_packet(ID_EXIT, bytes([result.exit_code & 0xFF])) if protocol else b""
        await stream.write(*live.encode(result.stdout_parts, result.stderr), exit_packet)
        await stream.close()

    # ----- reboot --------------------------------------------------------------------------------------------
    async def _reboot(self, stream: Stream) -> None:
        await stream.close()
        await self.host.run(self.host.phone.activities.home)
        self.disconnect_all()

    # ----- sync ----------------------------------------------------------------------------------------------
    async def _sync(self, stream: Stream) -> None:
        sync = _SyncSession(self.host, stream)
        with contextlib.suppress(EOFError):
            await sync.run()
        await stream.close()


async def _reply(stream: Stream, text: bytes) -> None:
    await stream.write(text)
    await stream.close()


def _v2_packet(packet_id: int, data: bytes) -> bytes:
    return struct.pack("<BI", packet_id, len(data)) + data


def _v2_packets(packet_id: int, parts: Sequence[Bytes], max_payload: int) -> list[Bytes]:
    """The bytes of ``parts``, one after the other, as shell-protocol packets that each fill one WRTE (the last may
    be shorter): their headers and memoryviews of ``parts``. Cut across the parts, so a screenshot's WRTEs stay
    whole packets after the small outputs before it, each sent as its header and its rows (``send_parts``)."""
    pieces: list[Bytes] = []
    for payload in wrte_payloads(parts, max_payload - 5):
        pieces += (struct.pack("<BI", packet_id, sum(len(piece) for piece in payload)), *payload)
    return pieces


class _StreamOutput:
    """A shell command's output as adbd sends it: shell-v2 STDOUT/STDERR packets or raw bytes (``\\r\\n`` line ends
    on a terminal). As the shell's ``LiveOutput`` it lets a command that never ends on its own (``logcat``) send
    as it goes, from the worker thread running it."""

    def __init__(self, host: PhoneHost, stream: Stream, protocol: bool, pty: bool,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.host = host
        self.stream = stream
        self.protocol = protocol
        self.pty = pty
        self.loop = loop

    def encode(self, stdout: Sequence[Bytes], stderr: Bytes) -> list[Bytes]:
        """The pieces of bytes that carry ``stdout`` (in pieces) and ``stderr`` on the stream (views of them where
        possible)."""
        if self.pty:
            stdout, stderr = [bytes(part).replace(b"\n", b"\r\n") for part in stdout], stderr.replace(b"\n", b"\r\n")
        if not self.protocol:
            return [*stdout, stderr]
        limit = self.stream.connection.max_payload
        return [*_v2_packets(ID_STDOUT, stdout, limit), *_v2_packets(ID_STDERR, [stderr], limit)]

    def write(self, stdout: bytes, stderr: bytes) -> bool:
        """Send now (the phone lock is released while the host takes it); ``False`` once the host hung up."""
        pieces = self.encode([stdout], stderr)
        with self.host.holding_released():
            if not self.stream.closed:
                sent = asyncio.run_coroutine_threadsafe(self.stream.write(*pieces), self.loop)
                while not self.stream.closed:  # a stopped server never runs it: give up once the stream is gone
                    with contextlib.suppress(concurrent.futures.TimeoutError):
                        sent.result(timeout=1.0)
                        break
        return not self.stream.closed

    def wait(self, event: threading.Event) -> bool:
        """Block, phone lock released, until ``event`` is set or the host hangs up; ``False`` on a hang-up."""
        self.stream.hangup_events.add(event)
        try:
            with self.host.holding_released():
                if not self.stream.closed:
                    event.wait()
        finally:
            self.stream.hangup_events.discard(event)
        return not self.stream.closed


class _ShellInput:
    """Decodes what the host sends a shell stream: raw bytes, or shell-v2 STDIN/CLOSE_STDIN packets."""

    def __init__(self, protocol: bool) -> None:
        self.protocol = protocol
        self.closed = False
        self._pending = bytearray()

    def feed(self, data: bytes) -> bytes:
        """The standard input carried by ``data``; sets ``closed`` on CLOSE_STDIN (later input is dropped)."""
        if not self.protocol:
            return data
        self._pending += data
        stdin = bytearray()
        while len(self._pending) >= 5 and not self.closed:
            packet_id, length = struct.unpack_from("<BI", self._pending)
            if len(self._pending) < 5 + length:
                break
            if packet_id == ID_STDIN:
                stdin += self._pending[5:5 + length]
            elif packet_id == ID_CLOSE_STDIN:
                self.closed = True
            del self._pending[:5 + length]
        return bytes(stdin)


async def _pump_stdin(stream: Stream, protocol: bool, stdin: bytearray, arrived: threading.Event) -> None:
    """Collect the host's standard input until it is closed (shell v2 CLOSE_STDIN, or the stream), setting
    ``arrived`` after each piece and at the end."""
    decoder = _ShellInput(protocol)
    try:
        while not decoder.closed:
            data = await stream.read_some()
            if not data:
                return
            stdin += decoder.feed(data)
            arrived.set()
    finally:
        stream.input_done.set()
        arrived.set()


class _InteractiveShell:
    """``adb shell`` with no command: a prompt, line editing with echo, one command line at a time."""

    def __init__(self, host: PhoneHost, stream: Stream, protocol: bool) -> None:
        self.host = host
        self.stream = stream
        self.protocol = protocol
        self.session = host.phone.shell.session()
        self.device_name = host.phone.props.get("ro.product.device", "android")

    async def send(self, data: bytes) -> None:
        data = data.replace(b"\n", b"\r\n")
        await self.stream.write(_v2_packet(ID_STDOUT, data) if self.protocol else data)

    async def run(self) -> None:
        line = bytearray()
        decoder = _ShellInput(self.protocol)
        status = 0
        await self.send(self._prompt())
        while True:
            data = await self.stream.read_some()
            if not data:
                break
            typed = decoder.feed(data) + (b"\x04" if decoder.closed else b"")  # closed stdin reads as Ctrl-D
            for char in (c.encode() for c in typed.decode("utf-8", "replace")):
                if char in (b"\r", b"\n"):
                    await self.send(b"\n")
                    text = line.decode("utf-8", "replace")
                    line.clear()
                    words = text.split()
                    if words[:1] == ["exit"]:
                        status = int(words[1]) & 0xFF if len(words) > 1 and words[1].isdigit() else 0
                        return await self._finish(status)
                    result = await self.host.run(self.session.run, text)  # a command that writes redraws as it returns
                    await self.send(result.stdout + self._prompt())
                elif char in (b"\x7f", b"\x08"):
                    if line:
                        line[:] = line.decode("utf-8", "replace")[:-1].encode()
                        await self.send(b"\x08 \x08")
                elif char == b"\x03":
                    line.clear()
                    await self.send(b"^C\n" + self._prompt())
                elif char == b"\x04" and not line:
                    return await self._finish(status)
                elif char >= b" ":
                    line += char
                    await self.send(char)
        await self._finish(status)

    def _prompt(self) -> bytes:
        return f"{self.device_name}:{self.session.cwd} # ".encode()

    async def _finish(self, status: int) -> None:
        if self.protocol:
            await self.stream.write(_v2_packet(ID_EXIT, bytes([status])))
        await self.stream.close()


class _SyncSession:
    """The ``sync:`` service: STAT/STA2/LST2, LIST/LIS2, SEND, RECV and QUIT on the phone's file system."""

    def __init__(self, host: PhoneHost, stream: Stream) -> None:
        self.host = host
        self.stream = stream

    async def run(self) -> None:
        while True:
            request, length = struct.unpack("<4sI", await self.stream.read_exactly(8))
            if request == b"QUIT":
                return
            if length > SYNC_PATH_MAX:
                await self._fail(f"path too long: {length}")
                return
            # adbd reads the path into a C string (file_sync_service.cpp): it ends at the first NUL.
            path = (await self.stream.read_exactly(length)).split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            handler = {
                b"STAT": self._stat_v1, b"STA2": self._stat_v2, b"LST2": self._stat_v2,
                b"LIST": self._list, b"LIS2": self._list, b"SEND": self._send, b"RECV": self._recv,
            }.get(request)
            if handler is None:
                await self._fail(f"unknown command {request.hex()}")
                return
            if not await handler(request, path):
                return

    async def _fail(self, message: str) -> None:
        data = message.encode()
        await self.stream.write(struct.pack("<4sI", b"FAIL", len(data)) + data)

    def _stat(self, path: str, follow: bool) -> os.stat_result:
        fs = self.host.phone.fs
        return fs.device_stat(fs.host_path(path), follow_symlinks=follow)

    async def _try_stat(self, path: str, follow: bool) -> os.stat_result | OSError:
        try:
            return await self.host.run(self._stat, path, follow)
        except OSError as error:
            return error

    async def _stat_v1(self, _request: bytes, path: str) -> bool:
        result = await self._try_stat(path, follow=False)
        if isinstance(result, OSError):
            reply = struct.pack("<4sIII", b"STAT", 0, 0, 0)
        else:
            reply = struct.pack("<4sIII", b"STAT", result.st_mode, result.st_size & 0xFFFFFFFF,
                                int(result.st_mtime))
        await self.stream.write(reply)
        return True

    async def _stat_v2(self, request: bytes, path: str) -> bool:
        result = await self._try_stat(path, follow=request == b"STA2")
        if isinstance(result, OSError):
            reply = _STAT_V2.pack(request, result.errno or 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        else:
            reply = _stat_v2(request, result)
        await self.stream.write(reply)
        return True

    def _entries(self, path: str) -> list[tuple[str, os.stat_result]]:
        fs = self.host.phone.fs
        directory = fs.host_path(path)
        names = [".", "..", *sorted(os.listdir(directory))]
        return [(name, fs.device_stat(directory / name, follow_symlinks=False)) for name in names]

    async def _list(self, request: bytes, path: str) -> bool:
        try:
            entries = await self.host.run(self._entries, path)
        except OSError:
            entries = []
        chunks = []
        for name, info in entries:
            encoded = name.encode("utf-8", "surrogateescape")
            if request == b"LIST":
                chunks.append(struct.pack("<4sIIII", b"DENT", info.st_mode, info.st_size & 0xFFFFFFFF,
                                          int(info.st_mtime), len(encoded)) + encoded)
            else:
                chunks.append(_stat_v2(b"DNT2", info) + struct.pack("<I", len(encoded)) + encoded)
        done = struct.pack("<4s16x", b"DONE") if request == b"LIST" else struct.pack("<4s72x", b"DONE")
        await self.stream.write(b"".join(chunks) + done)
        return True

    async def _send(self, _request: bytes, spec: str) -> bool:
        path, comma, mode_text = spec.rpartition(",")
        if not comma:
            await self._fail("missing , in ID_SEND")
            return False
        data = bytearray()
        while True:
            chunk_id, length = struct.unpack("<4sI", await self.stream.read_exactly(8))
            if chunk_id == b"DONE":
                mtime = length
                break
            if chunk_id != b"DATA" or length > SYNC_DATA_MAX:
                await self._fail(f"invalid data message: expected DATA, got {chunk_id!r} of {length} bytes")
                return False
            data += await self.stream.read_exactly(length)
        mode = int(mode_text) if mode_text.isdigit() else 0o644
        if stat.S_ISLNK(mode):
            await self._fail("symlinks are not supported by the simulated device")
            return True
        error = await self.host.run(self._write_file, path, bytes(data), mode, mtime)
        if error:
            await self._fail(error)
        else:
            await self.stream.write(struct.pack("<4sI", b"OKAY", 0))
        return True

    def _write_file(self, path: str, data: bytes, mode: int, mtime: int) -> str | None:
        fs = self.host.phone.fs
        try:
            fs.makedirs(os.path.dirname(path) or "/")
            fs.write_bytes(path, data)
            host_path = fs.host_path(path)
            os.chmod(host_path, stat.S_IMODE(mode) | 0o600)
            os.utime(host_path, (mtime, mtime))
        except OSError as error:
            return f"couldn't create file: {os.strerror(error.errno or 5)}"
        self.host.phone.invalidate()
        return None

    def _read_file(self, path: str) -> bytes | str:
        try:
            return self.host.phone.fs.read_bytes(path)
        except IsADirectoryError:
            return "read failed: Is a directory"
        except OSError as error:
            return f"open failed: {os.strerror(error.errno or 2)}"

    async def _recv(self, _request: bytes, path: str) -> bool:
        data = await self.host.run(self._read_file, path)
        if isinstance(data, str):
            await self._fail(data)
            return True
        await self.stream.write(sync_data(data) + struct.pack("<4sI", b"DONE", 0))
        return True


def _stat_v2(record_id: bytes, info: os.stat_result) -> bytes:
    """A ``sync_stat_v2``-layout record (owner shown as root, as adbd on an emulator reports /data); every time is
    the modification time, which the phone keeps in device time (as its ``stat`` shows them): the host stamps
    access and change times with its wall clock."""
    mtime = int(info.st_mtime)
    return _STAT_V2.pack(record_id, 0, info.st_dev, info.st_ino, info.st_mode, info.st_nlink, 0, 0, info.st_size,
                         mtime, mtime, mtime)


class _Connection(asyncio.Protocol):
    """One TCP connection from an adb host: handshake, then packets dispatched to streams. An asyncio protocol:
    the packets in what arrives are taken apart and dispatched at once, with no task woken for each (a screenshot's
    stream has an OKAY for each of its ten WRTEs)."""

    def __init__(self, daemon: AdbDaemon) -> None:
        self.daemon = daemon
        self.transport: asyncio.Transport | None = None
        self._received = bytearray()  # what arrived after the last whole packet
        self.ended = asyncio.Event()  # set once the connection is lost
        self.max_payload = MAX_CNXN_PAYLOAD
        self.online = False
        self._token = b""
        self.streams: dict[int, Stream] = {}
        self._next_id = 1
        self._tasks: set[asyncio.Task] = set()
        self._pending = bytearray()  # small packets queued in this turn of the event loop, sent together
        self._flush_due = False  # whether a ``_flush`` is to come at the end of this turn

    def send(self, packet: Packet) -> None:
        """Queue a packet on the socket (never blocks; asyncio buffers)."""
        self.send_parts(packet.command, packet.arg0, packet.arg1, [packet.data])

    def send_parts(self, command: int, arg0: int, arg1: int, parts: Sequence[Bytes]) -> None:
        """Queue a packet whose payload is ``parts`` one after the other. Small packets made in one turn of the
        event loop (an OKAY, a command's output and the CLSE after it) leave in one ``send`` at its end: each
        ``send`` wakes the host's adb server. A packet with a large part sends what was queued before it joined to
        its header and its small parts, and each large part as it is (asyncio sends what the kernel takes at once
        and copies only the rest): a screenshot's WRTE of 1 MB is two sends, its headers, and its rows."""
        if self.transport.is_closing():
            return
        header = packet_header(command, arg0, arg1, parts)
        if sum(len(part) for part in parts) <= _JOIN_MAX:
            if not self._flush_due:
                self._flush_due = True
                asyncio.get_running_loop().call_soon(self._turn_ended)
            self._pending += header
            for part in parts:
                self._pending += part
            return
        self._pending += header
        for part in parts:
            if len(part) <= _JOIN_MAX:
                self._pending += part
            else:
                self._flush()
                self.transport.write(part)
        self._flush()

    def _turn_ended(self) -> None:
        """Send the small packets queued in this turn of the event loop."""
        self._flush_due = False
        self._flush()

    def _flush(self) -> None:
        """Send what was queued so far."""
        if self._pending and not self.transport.is_closing():
            self.transport.write(bytes(self._pending))
        self._pending.clear()

    def forget(self, stream: Stream) -> None:
        """The stream is closed on both sides."""
        self.streams.pop(stream.local_id, None)

    def drop(self) -> None:
        """Close the socket (the host sees the device go offline)."""
        self.transport.close()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms stall per OKAY round trip
                if _SEND_BUFFER_CAP >= _SEND_BUFFER:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _SEND_BUFFER)
        self.daemon._connections.add(self)

    def data_received(self, data: bytes) -> None:
        """Dispatch each whole packet that has arrived; drop the connection on one that is not the adb protocol."""
        self._received += data
        try:
            while (packet := take_packet(self._received)) is not None:
                self._dispatch(packet)
                if self.transport.is_closing():
                    return
        except ProtocolError:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        for stream in list(self.streams.values()):
            stream.host_closed()
        for task in list(self._tasks):
            task.cancel()
        self.daemon._connections.discard(self)
        self.ended.set()

    def _dispatch(self, packet: Packet) -> None:
        if packet.command == A_CNXN:
            self.max_payload = max(MAX_CNXN_PAYLOAD, min(packet.arg1, MAX_PAYLOAD))
            if self.daemon.authorized_keys is None:
                self._go_online()
            else:
                self._ask_for_signature()
        elif packet.command == A_AUTH:
            self._authenticate(packet)
        elif not self.online:
            return  # adb.cpp: streams need an online transport; anything else before CNXN is dropped
        elif packet.command == A_OPEN:
            self._open(packet)
        elif packet.command == A_WRTE:
            stream = self.streams.get(packet.arg1)
            if stream is not None:
                stream.feed(packet.data)
                self.send(Packet(A_OKAY, stream.local_id, stream.remote_id))
        elif packet.command == A_OKAY:
            stream = self.streams.get(packet.arg1)
            if stream is not None:
                stream.acknowledge()
        elif packet.command == A_CLSE:
            stream = self.streams.pop(packet.arg1, None)
            if stream is not None:
                stream.host_closed()
        # STLS is not offered (no TLS); SYNC is obsolete: both ignored like unknown ids.

    def _go_online(self) -> None:
        self.online = True
        self.send(Packet(A_CNXN, A_VERSION, MAX_PAYLOAD, banner(self.daemon.host.phone.props)))

    def _ask_for_signature(self) -> None:
        """Send a fresh random token for the host to sign (adbd_auth.cpp ``send_auth_request``)."""
        self._token = os.urandom(TOKEN_SIZE)
        self.send(Packet(A_AUTH, AUTH_TOKEN, 0, self._token))

    def _authenticate(self, packet: Packet) -> None:
        """A host's AUTH: a signature of our token by an authorized key puts the device online; a wrong one gets a
        new token; an offered public key (RSAPUBLICKEY) would ask the phone's user, and a served phone has none,
        so the host stays unauthorized."""
        keys = self.daemon.authorized_keys
        if self.online or keys is None or not self._token or packet.arg0 != AUTH_SIGNATURE:
            return
        if any(key.verifies(self._token, packet.data) for key in keys):
            self._go_online()
        else:
            self._ask_for_signature()

    def _open(self, packet: Packet) -> None:
        name = packet.data.rstrip(b"\0").decode("utf-8", "surrogateescape")
        service = self.daemon.service(name)
        if service is None:
            self.send(Packet(A_CLSE, 0, packet.arg0))
            return
        stream = Stream(self, self._next_id, packet.arg0)
        self._next_id += 1
        self.streams[stream.local_id] = stream
        self.send(Packet(A_OKAY, stream.local_id, stream.remote_id))
        task = asyncio.create_task(self._run(service, stream))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, service: Service, stream: Stream) -> None:
        try:
            await service(stream)
        except (ConnectionError, EOFError):
            pass
        finally:
            if not stream.closed:
                await stream.close()
