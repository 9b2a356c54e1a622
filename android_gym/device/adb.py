"""``AdbDevice``: the Device protocol on a real emulator or phone (or the simulator's adbd) through an adb server.

adbutils talks to the adb server (devices, connect, wait-for, features, root); the per-call services live in
``adb_services``. Shell commands use the shell v2 protocol when the device offers it (real exit codes, stdin
closed), else adbutils' exit-code marker. Files move with the sync protocol. Screenshots are ``screencap``'s raw
pixels over ``exec:``, read into one buffer (``-p`` PNG for formats it does not read); the UI hierarchy is
``uiautomator dump`` to a file in /data/local/tmp that ``cat`` prints in the same command line (pulled after it on
devices without shell v2). Once the caller reads a dump, or a screenshot, after each input, the input's own command
line prints it too: a step that looks at both is one round trip.
Incoming SMS go through the emulator console (``sms send``), so ``receive_sms`` needs an ``emulator-N`` serial.

Given the emulator's gRPC address (``grpc="localhost:8554"``), screenshots and taps and swipes go through the
``EmulatorController`` service instead (a frame without a PNG round trip); long presses and keys stay on
``input``, which holds and maps keys the way the platform does. With ``stabilize``, every input waits until the
UI dump stops changing (bounded polling, see ``stabilize``) and the settled dump serves the next ``ui_dump``.

On a broken transport the device reconnects (``adb connect`` again for ``host:port`` serials, then
``wait-for-device``) and retries once, unless the call may already have run: a shell command that started is
never repeated. Opening a device the adb server still lists as offline (for some seconds after the device
restarted) waits for it the same way, up to ``timeout``.
"""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

import adbutils
import numpy as np
from PIL import Image

from android_gym.errors import (
    AdbServerError,
    AndroidGymError,
    DeviceError,
    DeviceNotFoundError,
    DeviceOfflineError,
    InvalidActionError,
    NotRootedError,
    RemoteFileNotFoundError,
)

from . import adb_rewind
from . import adb_services as services
from .adb_services import ServiceNotStarted
from .base import ShellResult, encode_utf8
from .config import CONFIGURED_SETTINGS
from .console import send_console_commands, sms_send_command
from .emulator_grpc import EmulatorGrpc
from .malloc import keep_frames_in_the_heap
from .stabilize import Stabilization, wait_until_stable

T = TypeVar("T")

DEFAULT_SERVER_PORT = 5037
#: Where the UI dump goes: the shell's own directory (adbutils and uiautomator2 use it too), not uiautomator's
#: default /sdcard/window_dump.xml, which apps can see (a file manager would list it).
UI_DUMP_PATH = "/data/local/tmp/window_dump.xml"
#: The UI dump and its file in one round trip. Not ``uiautomator dump /dev/tty``: without a terminal (``exec:``,
#: ``shell,v2,raw:``) adbd's child has none, and opening /dev/tty fails.
_DUMP_AND_READ = f"uiautomator dump {UI_DUMP_PATH} >&2 && cat {UI_DUMP_PATH}"
#: What follows the dump once the focused window is wanted with it (``known_focus``): its ``dumpsys window`` line,
#: on standard error after the dump's message; a window without that line does not fail the command.
_FOCUS_LINE = "mCurrentFocus="
_AND_REPORT_FOCUS = f" && {{ dumpsys window | grep {_FOCUS_LINE} >&2 || true; }}"
#: The exit status of an ``input`` command line whose UI dump failed (``input`` itself exits 0, 1 or 255).
_DUMP_FAILED = 99
#: The screenshot an input's command line prints after what else it reads (last on standard output, where its
#: header finds it: ``raw_screencap_start``). One that fails is taken again on its own, whose errors say why.
_SCREENCAP_LAST = "screencap 2>/dev/null || true"
#: Room for what an input's command line prints before its screenshot (digests, the UI dump) in the screen buffer.
_READS_ROOM = 1 << 20
_SIZE = re.compile(r"(Physical|Override) size: (\d+)x(\d+)")
_MD5_LINE = re.compile(r"^([0-9a-f]{32})  (.+)$", re.MULTILINE)  # toybox md5sum: HASH, two spaces, the name
_MD5_LINES = re.compile(r"(?:[0-9a-f]{32}  [^\n]*\n)*")  # md5sum's lines at the start of a longer output
#: A command line that may set the display size (``wm size WxH``/``reset``, also as ``cmd window size``).
_SETS_SIZE = re.compile(r"\b(wm|cmd\s+window)\s+size\b")
_EMULATOR = re.compile(r"emulator-(\d+)")
_TRANSPORT_ERRORS = (adbutils.AdbError, OSError)
# What the adb server answers when the transport, not the request, failed.
_TRANSPORT_FAILURES = ("offline", "not found", "closed", "no devices", "connection")


def _transport_failed(error: Exception) -> bool:
    """Whether ``error`` means the device link broke (worth a reconnect), not that the request was refused."""
    return not isinstance(error, adbutils.AdbError) or any(word in str(error) for word in _TRANSPORT_FAILURES)


def server_address() -> tuple[str, int]:
    """The adb server adb itself would use: ``ANDROID_ADB_SERVER_ADDRESS``/``ANDROID_ADB_SERVER_PORT``."""
    host = os.environ.get("ANDROID_ADB_SERVER_ADDRESS") or os.environ.get("ANDROID_ADB_SERVER_HOST") or "127.0.0.1"
    port = os.environ.get("ANDROID_ADB_SERVER_PORT", str(DEFAULT_SERVER_PORT))
    if not port.isdigit():
        raise AdbServerError(f"ANDROID_ADB_SERVER_PORT={port!r} is not a port number")
    return host, int(port)


def ensure_server(host: str, port: int, timeout: float = 20.0) -> bool:
    """Make sure an adb server answers on ``host:port``, starting a local one with ``adb -P port`` if needed;
    ``True`` when it started one (``stop_server`` stops it again).

    adbutils would run ``adb start-server`` without ``-P`` (so on the wrong port): we start it ourselves.
    """
    if server_answers(host, port):
        return False
    adb = shutil.which("adb")
    if host not in ("127.0.0.1", "localhost") or adb is None:
        raise AdbServerError(f"no adb server answers on {host}:{port}; start one with `adb -P {port} start-server`"
                             + ("" if adb else " (install adb first: `apt-get install -y adb`)"))
    try:
        subprocess.run([adb, "-P", str(port), "start-server"], check=True, timeout=timeout, capture_output=True)
    except (subprocess.SubprocessError, OSError) as error:
        raise AdbServerError(f"could not start an adb server on port {port}: {error}") from error
    if not server_answers(host, port):
        raise AdbServerError(f"`adb -P {port} start-server` ran but nothing answers on {host}:{port}")
    return True


def stop_server(port: int, timeout: float = 20.0) -> None:
    """Stop the local adb server on ``port`` (``adb -P port kill-server``) and wait, up to ``timeout`` seconds, until
    it no longer answers: Debian's adb 29 returns once the server has acknowledged the kill, while the server may
    still be closing its socket. One already gone is no error."""
    adb = shutil.which("adb")
    if adb is None:
        return
    deadline = time.monotonic() + timeout
    try:
        subprocess.run([adb, "-P", str(port), "kill-server"], timeout=timeout, capture_output=True)
    except (subprocess.SubprocessError, OSError):
        return
    while server_answers("127.0.0.1", port) and time.monotonic() < deadline:
        time.sleep(0.01)


def server_answers(host: str, port: int) -> bool:
    """Whether something accepts TCP connections on ``host:port`` (the adb server's address, a console port)."""
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def _md5sum_command(paths: Sequence[str]) -> str:
    """toybox ``md5sum`` of ``paths``: a line for each readable file, nothing for the others."""
    return "md5sum " + " ".join(shlex.quote(path) for path in paths) + " 2>/dev/null"


def escape_input_text(text: str) -> list[str]:
    """Arguments for successive ``input text`` calls that type ``text`` exactly.

    ``input text`` turns ``%s`` into a space and cannot escape it (AOSP ``InputShellCommand.sendText``), so
    spaces are sent as ``%s`` and a literal ``%`` followed by ``s`` is split across two calls. Each argument is
    shell-quoted for the device's ``sh``.
    """
    pieces = text.split("%s")
    chunks = [piece + "%" if i < len(pieces) - 1 else piece for i, piece in enumerate(pieces)]
    chunks = [chunk if i == 0 else "s" + chunk for i, chunk in enumerate(chunks)]
    return [shlex.quote(chunk.replace(" ", "%s")) for chunk in chunks if chunk]


#: ``screencap``'s raw pixel formats (``PixelFormat`` of AOSP ``libui``) this reads: bytes per pixel.
_RAW_FORMATS = {1: 4, 2: 4, 3: 3}  # RGBA_8888, RGBX_8888, RGB_888
#: The header ``screencap`` writes before the pixels since Android 9 (with the data space).
RAW_HEADER_SIZE = 16


def raw_screencap_pixels(data: bytes | memoryview) -> np.ndarray | None:
    """``(H, W, 3)`` uint8 from ``screencap`` without ``-p`` (AOSP ``cmds/screencap``): little-endian u32 width,
    height and pixel format, and since Android 9 a data space, then the rows; ``None`` for a format or size this
    does not read. No copy: a view of ``data``'s rows (of the first three bytes of each RGBA pixel: strided, not
    C-contiguous), writable where ``data`` is, and only as lasting as ``data``."""
    if len(data) < 12:
        return None
    width, height, pixel_format = struct.unpack_from("<3I", data)
    bpp = _RAW_FORMATS.get(pixel_format)
    if bpp is None:
        return None
    header = len(data) - width * height * bpp
    if header not in (12, RAW_HEADER_SIZE):
        return None
    return np.frombuffer(data, np.uint8, offset=header).reshape(height, width, bpp)[:, :, :3]


def raw_screencap_start(data: bytes | memoryview, width: int, height: int) -> int | None:
    """Where raw ``screencap`` output of a ``width`` x ``height`` screen (either way round) that ends ``data``
    begins: the offset at which its header names that size and a pixel format whose rows fill the rest exactly;
    ``None`` if none does."""
    for header in (RAW_HEADER_SIZE, 12):
        for pixel_format, bpp in _RAW_FORMATS.items():
            start = len(data) - header - width * height * bpp
            if start >= 0 and struct.unpack_from("<3I", data, start) in ((width, height, pixel_format),
                                                                          (height, width, pixel_format)):
                return start
    return None


class AdbDevice:
    """A device behind an adb server: ``serial`` as ``adb devices`` shows it, or ``host:port`` to connect to.

    ``grpc``: the emulator's gRPC address for screenshots and touches. ``stabilize``: how to wait after each
    input until the UI stops changing (``None``: do not wait).
    """

    def __init__(self, serial: str, timeout: float = 30.0, server: tuple[str, int] | None = None,
                 grpc: str | None = None, stabilize: Stabilization | None = None) -> None:
        keep_frames_in_the_heap()
        self.serial = serial
        self.timeout = timeout
        self.stabilize = stabilize
        self._settled_dump: str | None = None
        self._report_focus = False  # whether UI dumps also print the focused window (``known_focus``)
        self._focus_line: str | None = None  # the one printed with the last dump, while nothing ran since
        self._dump_with_inputs = False  # whether an input's command line also dumps the UI (``_input``)
        self._shot_with_inputs = False  # whether it also takes a screenshot (and so does a dump after a shell command)
        self._brought_shot: memoryview | None = None  # the raw one the last input brought, while nothing ran since
        self._shot_current = False  # whether one was taken or brought since anything ran that may change the screen
        self._leading = False  # whether inputs now lead to another before anything is read (``leading_inputs``)
        self._input_ran_last = False  # whether the last thing run was an input (only reads since)
        self._digests_asked: set[str] = set()  # files whose digests were asked since the last observed input
        self._digests: tuple[frozenset[str], dict[str, str]] | None = None  # brought by the last input: of which
        # files, and theirs, while nothing ran since
        self._server = server or server_address()
        ensure_server(*self._server)
        self._client = adbutils.AdbClient(*self._server, socket_timeout=timeout)
        self._closed = False
        self._connect_if_network()
        self._device = self._client.device(serial)
        self._check_state()
        self._shell_v2 = "shell_v2" in self._call(self._device.get_features).split(",")
        self._ensure_root()
        self._size: tuple[int, int] | None = self._read_screen_size()
        # Where the next ``screencap`` output lands (with what an input's command line reads before it): a
        # screenshot's pixels are a view of it, so each is read into a new one (``_buffer``).
        self._screen_buffer: np.ndarray | None = None
        self._grpc = EmulatorGrpc(grpc, timeout=timeout) if grpc else None
        self._baseline: tuple[adb_rewind.Settings, str | None] | None = None  # settings and home app (``rewind``)

    # ----- connection management -----------------------------------------------------------------------------
    def _connect_if_network(self) -> None:
        if ":" not in self.serial:
            return
        try:
            reply = self._client.connect(self.serial, timeout=self.timeout)
        except _TRANSPORT_ERRORS as error:
            raise DeviceNotFoundError(f"adb connect {self.serial} failed: {error}") from error
        if "connected to" not in reply:
            raise DeviceNotFoundError(f"adb connect {self.serial}: {reply.strip()}")

    def _check_state(self) -> None:
        """Fail unless the adb server lists the device; one it lists but cannot use yet (``offline`` for a while
        after the device restarted, ``authorizing``) gets ``timeout`` seconds to come online, as on a reconnect."""
        try:
            states = {info.serial: info.state for info in self._client.list()}
        except _TRANSPORT_ERRORS as error:
            raise AdbServerError(f"the adb server on {self._server[0]}:{self._server[1]} did not list its devices "
                                 f"({error or type(error).__name__})") from error
        if self.serial not in states:
            known = ", ".join(f"{serial} ({state})" for serial, state in states.items()) or "none"
            raise DeviceNotFoundError(f"adb device {self.serial!r} not found on the adb server "
                                      f"{self._server[0]}:{self._server[1]}; devices: {known}")
        if states[self.serial] != "device":
            self._wait_online(f"is {states[self.serial]}")

    def _reconnect(self) -> None:
        if ":" in self.serial:
            self._client.disconnect(self.serial)
            self._connect_if_network()
        self._wait_online("went away")

    def _wait_online(self, what: str) -> None:
        """Wait up to ``timeout`` seconds for the device to be usable; ``DeviceOfflineError`` saying it ``what``
        and what to do if it is not."""
        try:
            self._client.wait_for(self.serial, state="device", timeout=self.timeout)
        except _TRANSPORT_ERRORS as error:
            raise DeviceOfflineError(f"adb device {self.serial} {what} and did not come online within "
                                     f"{self.timeout:g} s ({error or type(error).__name__}); wait for it to boot, "
                                     "accept the debugging prompt, or reconnect it") from error

    def _call(self, operation: Callable[[], T], idempotent: bool = True) -> T:
        """Run an adb operation. On a broken transport, reconnect and try once more if that cannot run anything
        twice: the operation is idempotent, or the service never started."""
        if self._closed:
            raise DeviceError(f"adb device {self.serial} was closed; create a new env or device")
        for attempt in (1, 2):
            try:
                return operation()
            except AndroidGymError:
                raise
            except (TimeoutError, adbutils.AdbTimeout) as error:
                raise DeviceError(f"adb device {self.serial}: timed out after {self.timeout} s") from error
            except _TRANSPORT_ERRORS as error:
                retry = _transport_failed(error) and (idempotent or isinstance(error, ServiceNotStarted))
                if attempt == 2 or not retry:
                    raise DeviceError(f"adb device {self.serial}: {error}") from error
                self._reconnect()
        raise AssertionError("unreachable")

    def _ensure_root(self) -> None:
        if self.shell("id -u").output.strip() == "0":
            return
        reply = self._call(self._device.root)
        reply = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
        if "cannot run as root" in reply:
            raise NotRootedError(f"adb device {self.serial}: {reply.strip()}. Tasks read app databases under "
                                 "/data: use an emulator image without Google Play (google_apis) or a userdebug "
                                 "build")
        self._reconnect()
        if self.shell("id -u").output.strip() != "0":
            raise NotRootedError(f"adb device {self.serial}: adbd still not root after `adb root` ({reply.strip()})")

    def _read_screen_size(self) -> tuple[int, int]:
        sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE.findall(self.shell("wm size").output)}
        size = sizes.get("Override") or sizes.get("Physical")
        if size is None:
            raise DeviceError(f"adb device {self.serial}: `wm size` printed no display size")
        return size

    # ----- the Device protocol ---------------------------------------------------------------------------------
    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` in pixels (``wm size``, the override when one is set), read again after a ``shell``
        command that may have set the size."""
        if self._size is None:
            self._size = self._read_screen_size()
        return self._size

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        """Run ``cmd`` with the device's ``sh``; output is stdout then stderr."""
        encode_utf8(cmd, "shell command")  # checked here for both paths below (adbutils' raises UnicodeEncodeError)
        self._screen_may_change()
        if _SETS_SIZE.search(cmd):
            self._size = None
            self._screen_buffer = None
        seconds = timeout or self.timeout
        if not self._shell_v2:  # old devices: adbutils appends `; echo X4EXIT:$?` and parses it
            result = self._call(lambda: self._device.shell2(cmd, timeout=seconds, rstrip=False), idempotent=False)
            return ShellResult(result.output, result.returncode)
        output = self._call(lambda: services.shell_v2(self._client, self.serial, cmd, seconds), idempotent=False)
        return ShellResult((output.stdout + output.stderr).decode("utf-8", "replace"), output.exit_code)

    def push(self, data: bytes, path: str) -> None:
        """Write a file with the sync protocol (the device creates missing directories)."""
        self._digests = None
        try:
            self._call(lambda: services.push(self._client, self.serial, data, path, 0o644, self.timeout))
        except services.SyncFailure as error:
            raise DeviceError(f"adb device {self.serial}: push to {path} failed: {error}") from None

    def pull(self, path: str) -> bytes:
        """Read a file with the sync protocol."""
        try:
            return self._call(lambda: services.pull(self._client, self.serial, path, self.timeout))
        except services.SyncFailure as error:  # "open failed: ..." / "read failed: ..."
            raise RemoteFileNotFoundError(f"{path}: no such file on {self.serial} ({error})") from None

    def md5sums(self, paths: Sequence[str]) -> dict[str, str]:
        """The MD5 digest (hex) of each of ``paths`` that is a readable file, from toybox ``md5sum`` in one round trip
        that sends no file: what a host holding a copy checks before pulling it again (``local_db``). Reads only, so
        the last UI dump stays current. Once asked, they come with the next input the caller observes (``_input``):
        a caller that checks them after each action (a task's score) has them from there while nothing ran since."""
        self._digests_asked.update(paths)
        if self._digests is not None and self._digests[0].issuperset(paths):
            return {path: digest for path, digest in self._digests[1].items() if path in paths}
        command = _md5sum_command(paths)
        if self._shell_v2:
            output = self._call(lambda: services.shell_v2(self._client, self.serial, command, self.timeout))
            printed = output.stdout.decode("utf-8", "replace")
        else:  # not through ``shell``, which takes any command to change the screen
            printed = self._call(lambda: self._device.shell2(command, timeout=self.timeout, rstrip=False)).output
        return {name: digest for digest, name in _MD5_LINE.findall(printed)}

    def screenshot(self) -> np.ndarray:
        """The screen as ``(H, W, 3)`` uint8: the emulator's gRPC frame, else ``screencap``'s raw pixels (no PNG to
        encode on the device and decode here; the caller's own array, a strided view of the RGBA rows as they came:
        ``raw_screencap_pixels``), else ``screencap -p`` for a pixel format the raw path does not read."""
        if self._grpc is not None:
            return self._grpc.screenshot()
        brought, self._brought_shot = self._brought_shot, None
        self._shot_current = True
        if brought is not None:
            return self._handed_out(raw_screencap_pixels(brought))
        raw = self._call(lambda: services.exec_out(self._client, self.serial, "screencap", self.timeout,
                                                   self._buffer()))
        pixels = raw_screencap_pixels(raw)
        if pixels is not None:
            self._shot_with_inputs = self._shell_v2 and self.stabilize is None  # not the first poll's screen
            return self._handed_out(pixels)
        png = self._call(lambda: services.exec_out(self._client, self.serial, "screencap -p", self.timeout))
        try:
            with Image.open(io.BytesIO(png)) as image:
                return np.asarray(image.convert("RGB"))
        except OSError as error:
            raise DeviceError(f"adb device {self.serial}: screencap returned no PNG ({bytes(png[:80])!r})") from error

    def _handed_out(self, pixels: np.ndarray) -> np.ndarray:
        """``pixels``, a view of the screen buffer, now the caller's: the next screenshot goes into a new buffer. A
        screen of another size than the one known (set by another client's ``wm size``) has it read again, or every
        input would bring a screenshot ``_take_reads`` cannot find, and each step take three round trips."""
        self._screen_buffer = None
        height, width, _ = pixels.shape
        if self._size not in ((width, height), (height, width)):
            self._size = None
        return pixels

    def _buffer(self) -> np.ndarray:
        """The buffer for the next screenshot and what an input's command line prints before it: not filled in
        first (``np.empty``), and from the heap (``keep_frames_in_the_heap``), so neither cleared nor faulted in."""
        if self._screen_buffer is None:
            width, height = self.screen_size
            self._screen_buffer = np.empty(RAW_HEADER_SIZE + width * height * 4 + _READS_ROOM, np.uint8)
        return self._screen_buffer

    def ui_dump(self) -> str:
        """The UI dump the last input settled on or was sent with (if nothing ran since), else a fresh one; a caller
        that reads one after what it ran (an input, or the shell commands of a reset) has later inputs bring theirs
        along, until one that came goes unread."""
        settled, self._settled_dump = self._settled_dump, None
        if settled is not None:
            return settled
        self._dump_with_inputs = True
        return self._fresh_ui_dump(with_focus=self._report_focus)

    def known_focus(self) -> str | None:
        """The ``mCurrentFocus`` line of ``dumpsys window`` (empty if it had none) printed with the last UI dump, if
        nothing ran since; else ``None``. The first call makes every later dump ``ui_dump`` makes print it, so a task
        that checks the foreground app after each step needs no round trip of its own (``state.foreground_package``'s
        short cut). The dumps ``stabilize`` polls leave it out: a ``dumpsys`` in each poll would cost a real device
        more than one query after them."""
        self._report_focus = True
        return self._focus_line

    def _screen_may_change(self) -> None:
        """Something ran that may change what is on screen: the last dump and its focus are no longer current."""
        if self._settled_dump is not None and self.stabilize is None:
            self._dump_with_inputs = False  # the dump the last input brought along went unread
        if self._brought_shot is not None:
            self._shot_with_inputs = False  # and so did its screenshot
        self._settled_dump = self._focus_line = self._digests = self._brought_shot = None
        self._shot_current = False
        self._input_ran_last = False

    def _fresh_ui_dump(self, with_focus: bool = False) -> str:
        """``uiautomator dump`` into a file, read back: with the shell protocol in one command line (the dump's
        message on stderr, the file's XML on stdout, then the focused window's line ``with_focus``), else dumped,
        then pulled. The digests asked since the last came along with it too, and, once screenshots come with
        inputs, one comes with a dump of a screen that may have changed since the last (after a reset's shell
        commands, or ``open_app``'s ``monkey``)."""
        if not self._shell_v2:
            result = self.shell(f"uiautomator dump {UI_DUMP_PATH}")
            if not result.ok or "ERROR" in result.output:
                raise DeviceError(f"adb device {self.serial}: uiautomator dump failed: {result.output.strip()}")
            return self.pull(UI_DUMP_PATH).decode("utf-8", "replace")
        digests = self._digests_to_bring() if self._digests is None else []  # after a gRPC touch or a reset, say
        with_shot = self._shot_with_inputs and not self._shot_current
        command = self._reads(digests, True, with_focus, with_shot)
        buffer = self._buffer() if with_shot else None
        output = self._call(lambda: services.shell_v2(self._client, self.serial, command, self.timeout, buffer))
        dumped = self._take_reads(output, digests, True, with_focus, with_shot)
        return dumped if dumped is not None else self._fresh_ui_dump(with_focus)  # without the screenshot now

    def _digests_to_bring(self) -> list[str]:
        """The files whose digests were asked after the last input, to bring along with what reads after it
        (none with ``stabilize``: they are asked once the screen settled, not as soon as it is dumped)."""
        digests, self._digests_asked = sorted(self._digests_asked), set()
        return digests if self.stabilize is None else []

    @staticmethod
    def _reads(digests: Sequence[str], with_dump: bool, with_focus: bool, with_shot: bool = False) -> str:
        """A command group that prints the ``digests`` (``md5sum``'s lines first on standard output), the UI dump
        ``with_dump`` (the XML after them; its message, and the focus line ``with_focus``, on standard error) and
        the screen's raw pixels ``with_shot`` (last). A dump that failed exits with ``_DUMP_FAILED``."""
        reads = [_md5sum_command(digests)] if digests else []
        if with_dump:
            reads.append(f"{_DUMP_AND_READ}{_AND_REPORT_FOCUS if with_focus else ''} || exit {_DUMP_FAILED}")
        if with_shot or not with_dump:
            reads.append(_SCREENCAP_LAST if with_shot else "true")
        return f"{{ {'; '.join(reads)}; }}"

    def _take_reads(self, output: services.ShellOutput, digests: Sequence[str], with_dump: bool,
                    with_focus: bool, with_shot: bool = False) -> str | None:
        """What a ``_reads`` group printed: keeps the digests (``md5sums`` answers from them while nothing ran
        since) and the screenshot (``screenshot`` returns it then), returns the dump. ``None`` without one, or when
        the screenshot is not found at the end (``screencap`` failed, or wrote what the raw path does not read):
        then nothing is told apart from what it printed, and everything is read again on its own."""
        end = raw_screencap_start(output.stdout, *self.screen_size) if with_shot else len(output.stdout)
        if end is None:
            self._shot_with_inputs = False
            return None
        if with_shot:
            self._brought_shot, self._shot_current = output.stdout[end:], True
        printed = bytes(output.stdout[:end]).decode("utf-8", "replace")
        digests_end = _MD5_LINES.match(printed).end() if digests else 0
        if digests:
            self._digests = frozenset(digests), {name: digest for digest, name
                                                 in _MD5_LINE.findall(printed[:digests_end])}
        return self._read_dump(printed[digests_end:], output, with_focus) if with_dump else None

    def _read_dump(self, xml: str, output: services.ShellOutput, with_focus: bool) -> str:
        """``xml``, the part of a command line's standard output that ``_DUMP_AND_READ`` printed, once its exit
        status and standard error say the dump worked; keeps the focus line it printed."""
        message, focus, focus_line = output.stderr.decode("utf-8", "replace").partition(_FOCUS_LINE)
        if output.exit_code != 0 or "ERROR" in message:  # the file may be an older dump's
            raise DeviceError(f"adb device {self.serial}: uiautomator dump failed: {(message + xml).strip()}")
        self._focus_line = focus + focus_line if with_focus else None
        return xml

    @contextmanager
    def leading_inputs(self) -> Iterator[None]:
        """Inputs made inside lead to another input before the caller reads anything (an action's focusing tap and
        typing before its ENTER, the first tap of a double tap): they bring nothing along (``_input``)."""
        self._leading = True
        try:
            yield
        finally:
            self._leading = False

    def _input(self, *args: object, observed: bool = True) -> str | None:
        """``input args``. An input the caller will look at (``observed``) brings along in its command line what
        the caller reads after each: the UI dump, once the caller has shown it reads one after each input (and for
        as long as it does) or when the dumps are polled anyway (``stabilize``), and the digests it asked after the
        last input (``md5sums``; not with ``stabilize``, where they are asked once the screen settled). Each is one
        round trip fewer a step. So does the screenshot, once the caller takes one after each (not with
        ``stabilize``, where the screen it shows is the one polls settle on). Inputs that lead to another
        (``leading_inputs``) bring nothing, but with ``stabilize`` the first poll. Returns the dump it brought."""
        command = "input " + " ".join(str(arg) for arg in args)
        self._screen_may_change()
        observed = observed and not (self._leading and self.stabilize is None)  # polls settle every input's screen
        digests = self._digests_to_bring() if observed else []
        with_dump = observed and (self._dump_with_inputs or self.stabilize is not None)
        with_shot = observed and self._shot_with_inputs
        if not (self._shell_v2 and (with_dump or digests or with_shot)):
            result = self.shell(command)
            if not result.ok:
                raise DeviceError(f"adb device {self.serial}: input {args[0]} failed: {result.output.strip()}")
            self._input_ran_last = True
            return None
        with_focus = with_dump and self._report_focus and self.stabilize is None  # polls leave it out
        command += " && " + self._reads(digests, with_dump, with_focus, with_shot)
        buffer = self._buffer() if with_shot else None
        output = self._call(lambda: services.shell_v2(self._client, self.serial, command, self.timeout, buffer),
                            idempotent=False)
        if output.exit_code not in (0, _DUMP_FAILED):
            printed = (bytes(output.stdout) + output.stderr).decode("utf-8", "replace").strip()
            raise DeviceError(f"adb device {self.serial}: input {args[0]} failed: {printed}")
        self._input_ran_last = True
        return self._take_reads(output, digests, with_dump, with_focus, with_shot)

    def _settle(self, dumped: str | None = None) -> None:
        """Keep the UI dump for ``ui_dump``: with ``stabilize``, the one the screen settled on after an input
        (``dumped``, taken with it, is the first poll), else ``dumped``."""
        if self.stabilize is None:
            self._settled_dump = dumped
            return
        polls = iter([dumped] if dumped is not None else [])
        self._settled_dump = wait_until_stable(lambda: next(polls, None) or self._fresh_ui_dump(), self.stabilize).xml

    def tap(self, x: int, y: int) -> None:
        """A touch through gRPC, else ``input tap``."""
        if self._grpc is not None:
            self._grpc_input(lambda grpc: grpc.tap(int(x), int(y)))
        else:
            self._settle(self._input("tap", int(x), int(y)))

    def long_press(self, x: int, y: int) -> None:
        """A swipe that does not move for one second (how ``input`` long-presses)."""
        self._settle(self._input("swipe", int(x), int(y), int(x), int(y), 1000))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Touches moving through gRPC, else ``input swipe``."""
        if self._grpc is not None:
            self._grpc_input(lambda grpc: grpc.swipe(int(x1), int(y1), int(x2), int(y2), int(duration_ms)))
        else:
            self._settle(self._input("swipe", int(x1), int(y1), int(x2), int(y2), int(duration_ms)))

    def _grpc_input(self, send: Callable[[EmulatorGrpc], None]) -> None:
        """An input through the emulator's gRPC (``send`` it): an input like ``_input``'s, whose dump and digests
        come with the next read (``_fresh_ui_dump``) instead of its own command line."""
        self._screen_may_change()
        send(self._grpc)
        self._input_ran_last = True
        self._settle()

    def input_text(self, text: str) -> None:
        """Type ``text`` into the focused field (see ``escape_input_text``).

        ``input text`` can only type what the virtual keyboard has keys for (AOSP ``Virtual.kcm``: ASCII and a
        few more); for anything else it throws, which is reported as an invalid action, not a device failure.
        Text that is not valid Unicode raises ``UnencodableTextError`` before anything is typed.
        """
        encode_utf8(text, "text to type")
        arguments = escape_input_text(text)
        dumped = None
        for number, argument in enumerate(arguments, 1):
            try:
                dumped = self._input("text", argument, observed=number == len(arguments))
            except DeviceError as error:
                if "NullPointerException" not in str(error):
                    raise
                raise InvalidActionError(f"cannot type {text!r} with `input text` on {self.serial}: its virtual "
                                         "keyboard has no key for some of these characters") from None
        self._settle(dumped)

    def key(self, code: int) -> None:
        """``input keyevent``."""
        self._settle(self._input("keyevent", int(code)))

    def receive_sms(self, sender: str, text: str) -> None:
        """An incoming SMS through the emulator console's ``sms send`` (emulators only)."""
        self.receive_texts([(sender, text)])

    def receive_texts(self, texts: Sequence[tuple[str, str]]) -> None:
        """Incoming SMS ``(sender, text)`` in order, each an ``sms send`` of one emulator console session (emulators
        only): ``receive_sms`` of each, over one connection."""
        match = _EMULATOR.fullmatch(self.serial)
        if match is None:
            raise DeviceError(f"adb device {self.serial} is not an emulator-N serial, so it has no console to "
                              "deliver an incoming SMS; use the emulator's serial (adb devices)")
        commands = [sms_send_command(sender, text) for sender, text in texts]
        if commands:
            self._digests = None  # the SMS database changes
            send_console_commands(int(match.group(1)), commands, host=self._server[0], timeout=self.timeout)

    def keep_baseline(self) -> None:
        """Note the settings and the home app as they are now, the baseline ``rewind`` brings the device back to (the
        first call, one round trip; later ones do nothing)."""
        if self._baseline is None:
            output = self.shell(adb_rewind.baseline_line()).output
            self._baseline = adb_rewind.read_settings(output), adb_rewind.read_home(output)

    def rewind(self, shown: Collection[str] = ()) -> None:
        """What adb can bring back of the baseline ``keep_baseline`` noted (``adb_rewind``): stop the apps of
        ``shown`` (the packages the episode showed) but the home app, their data back to their snapshots where the
        device was provisioned, and the settings that changed put back (but ``CONFIGURED_SETTINGS``, the env's): one
        round trip, two when a setting changed. Shared storage, the clip, apps without a snapshot and settings added
        since are not brought back."""
        if self._baseline is None:
            return
        settings, home = self._baseline
        now = adb_rewind.read_settings(self.shell(adb_rewind.rewind_line(shown, home)).output)
        restore = adb_rewind.restore_settings_line(settings, now, CONFIGURED_SETTINGS)
        if restore:
            self.shell(restore)

    def close(self) -> None:
        """Forget the device (the adb server keeps its transport) and close the gRPC channel. Idempotent."""
        self._closed = True
        if self._grpc is not None:
            self._grpc.close()
