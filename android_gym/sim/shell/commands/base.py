"""What every device command gets: a ``CommandContext`` (phone, streams, cwd, environment) and small helpers.

A command is a plain function ``(ctx, argv) -> exit status``; ``argv[0]`` is the name it was called by. It
writes bytes to ``ctx.stdout``/``ctx.stderr`` and reads ``ctx.stdin``. Every path goes through
``ctx.host`` (the phone's ``FileSystem.host_path``), so no command can reach outside the phone's sandbox.
"""

from __future__ import annotations

import functools
import math
import os
import posixpath
import stat as stat_module
import threading
import zlib
from collections.abc import Callable
from pathlib import Path

from android_gym.sim.framework.packages import FIRST_APPLICATION_UID
from android_gym.sim.shell.device import ShellDevice
from android_gym.sim.shell.streams import Output, _Input
from android_gym.sim.system.fs import EXTERNAL_STORAGE, normalize

Command = Callable[["CommandContext", list[str]], int]
#: Hands a command's output so far to a live reader and waits for an event (``CommandContext.follow``).
Deliver = Callable[[Output, Output, threading.Event], bool]


class CommandContext:
    """One command's view of the device: the phone, its streams, the shell's cwd and environment.

    ``stdin`` is read lazily so the shell knows whether a command consumed its input (``read`` in a loop
    must not lose the lines a non-reading command left alone). ``run_script`` runs a script in a child
    shell (``sh -c``, ``su``); ``run_argv`` runs one command without word expansion (``find -exec``, ``xargs``).
    Both write to this context's streams. ``deliver`` is set when a reader takes the output as it comes
    (``follow``).
    """

    def __init__(self, phone: ShellDevice, stdin: _Input, cwd: str, env: dict[str, str],
                 run_script: Callable[[CommandContext, str], int],
                 run_argv: Callable[[CommandContext, list[str]], int], deliver: Deliver | None = None) -> None:
        self.phone = phone
        self._deliver = deliver
        self._stdin = stdin
        self.stdout = Output()
        self.stderr = Output()
        self.cwd = cwd
        self.env = env
        self._run_script = run_script
        self._run_argv = run_argv

    @property
    def stdin(self) -> bytes:
        """Everything on standard input (reading it consumes it)."""
        return self._stdin.take_all()

    def read_stdin(self, size: int) -> bytes:
        """The next ``size`` bytes of standard input (fewer at its end), without waiting for its end."""
        return self._stdin.take(size)

    # ----- output -----------------------------------------------------------------------------------------
    def out(self, text: str | bytes | memoryview) -> None:
        """Write to stdout (past ``MAX_BYTES`` the shell ends the script, out of memory)."""
        self.stdout.write(text.encode() if isinstance(text, str) else text)

    def err(self, text: str | bytes) -> None:
        """Write to stderr (past ``MAX_BYTES`` the shell ends the script, out of memory)."""
        self.stderr.write(text.encode() if isinstance(text, str) else text)

    def follow(self, event: threading.Event) -> bool:
        """For a command that runs until its reader goes away (``logcat`` without ``-d``): deliver what it wrote
        so far and wait for ``event``. ``False`` means stop: nobody takes output as it comes (the in-process
        shell, a pipe, a redirection), or the reader has gone."""
        return self._deliver is not None and self._deliver(self.stdout, self.stderr, event)

    def fail(self, name: str, message: str, status: int = 1) -> int:
        """Print ``name: message`` to stderr (toybox's ``error_msg``) and return ``status``."""
        self.err(f"{name}: {message}\n")
        return status

    # ----- paths ------------------------------------------------------------------------------------------
    def path(self, android_path: str) -> str:
        """The absolute, normalized Android path of ``android_path`` (relative to the cwd)."""
        return normalize(android_path, self.cwd)

    def host(self, android_path: str) -> Path:
        """The sandbox file behind an Android path."""
        return self.phone.fs.host_path(android_path, self.cwd)

    def stat(self, host: str | Path, follow_symlinks: bool = True) -> os.stat_result:
        """The device's ``stat`` of a sandbox file (no host inode or host-only mode; ``FileSystem.device_stat``)."""
        return self.phone.fs.device_stat(host, follow_symlinks)

    # ----- time and children ------------------------------------------------------------------------------
    def now_ms(self) -> int:
        """Device time in epoch milliseconds."""
        return self.phone.clock.now_ms()

    def stamp(self, host: str | Path) -> None:
        """Set a file's times to device time (files the device writes carry device time, not host time)."""
        self.phone.fs.stamp(host)

    def run_script(self, script: str) -> int:
        """Run ``script`` in a child shell writing to this context's streams."""
        return self._run_script(self, script)

    def run_argv(self, argv: list[str]) -> int:
        """Run one already-split command (no expansion) writing to this context's streams."""
        return self._run_argv(self, argv)


# ----- errors -------------------------------------------------------------------------------------------------
def strerror(error: OSError) -> str:
    """The C library's message for an ``OSError`` (bionic and glibc agree on the common ones)."""
    return os.strerror(error.errno) if error.errno else str(error)


def shell_command_exception(ctx: CommandContext, command: str, exception: str) -> int:
    """How a framework shell command (``cmd``/``am``/``input``: ``BasicShellCommandHandler.exec``) reports an
    exception its ``onCommand`` threw: an empty line, ``Exception occurred while executing '<first arg>':``
    and ``printStackTrace`` (here only its first line, ``exception``) on stderr; the status stays -1 (255)."""
    ctx.err(f"\nException occurred while executing '{command}':\n{exception}\n")
    return 255


def unknown_option(ctx: CommandContext, name: str, option: str) -> int:
    """toybox's ``help_exit("Unknown option ...")``."""
    return ctx.fail(name, f"Unknown option '{option}' (see \"{name} --help\")")


class UnknownOptionError(ValueError):
    """An option the command does not take; the shell reports it as toybox's ``help_exit`` does."""

    def __init__(self, command: str, option: str) -> None:
        super().__init__(option)
        self.command, self.option = command, option


def parse_flags(argv: list[str], flags: str, with_value: str = "") -> tuple[set[str], dict[str, str], list[str]]:
    """toybox-style option parsing: ``-abc`` bundles, options anywhere until ``--``.

    ``flags`` are boolean letters, ``with_value`` letters take a value (``-n 5`` or ``-n5``). Returns
    ``(set flags, values, operands)``; raises ``UnknownOptionError`` for an unknown option (or a missing
    value), which the shell reports for the command.
    """
    seen: set[str] = set()
    values: dict[str, str] = {}
    operands: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg == "--":
            operands.extend(args)
            break
        if len(arg) < 2 or arg[0] != "-":
            operands.append(arg)
            continue
        i = 1
        while i < len(arg):
            letter = arg[i]
            if letter in with_value:
                value = arg[i + 1:] or next(args, None)
                if value is None:
                    raise UnknownOptionError(posixpath.basename(argv[0]), letter)
                values[letter] = value
                break
            if letter not in flags:
                raise UnknownOptionError(posixpath.basename(argv[0]), letter)
            seen.add(letter)
            i += 1
    return seen, values, operands


# ----- format strings -----------------------------------------------------------------------------------------
def expand_percent(fmt: str, directive: Callable[[str, int], tuple[str, int]]) -> str:
    """Expand the ``%`` directives of a ``stat -c`` or ``date +`` style format.

    Text is copied, ``%%`` is ``%`` and a ``%`` that ends ``fmt`` stays as it is. For any other ``%``,
    ``directive(fmt, i)`` gets the index ``i`` after it and returns ``(text, index after the directive)``.
    """
    out = []
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c != "%" or i + 1 >= len(fmt):
            out.append(c)
            i += 1
            continue
        if fmt[i + 1] == "%":
            out.append("%")
            i += 2
            continue
        text, i = directive(fmt, i + 1)
        out.append(text)
    return "".join(out)


# ----- users and files ----------------------------------------------------------------------------------------
def app_uid(phone: ShellDevice, package: str) -> int:
    """The package's uid: packages get consecutive uids from 10000 as they are installed, kept across updates."""
    return phone.packages.uid(package)


@functools.lru_cache(maxsize=4096)
def short_hash(*parts: object) -> str:
    """A stable object id for dumps (what ``Integer.toHexString(System.identityHashCode(o))`` prints)."""
    return format(zlib.crc32("/".join(map(str, parts)).encode()) & 0x7FFFFFF | 0x1000000, "x")


def owner_of(phone: ShellDevice, android_path: str) -> tuple[int, str]:
    """``(uid, user name)`` that a path shows on a device: app data belongs to its app, shared storage to
    ``sdcard_rw``'s owner root, everything else to root (simplified: the sandbox has one host owner)."""
    parts = android_path.strip("/").split("/")
    if len(parts) >= 3 and parts[0] == "data" and parts[1] == "data" and phone.packages.get(parts[2]):
        uid = app_uid(phone, parts[2])
        return uid, f"u0_a{uid - FIRST_APPLICATION_UID}"
    return 0, "root"


def group_of(phone: ShellDevice, android_path: str) -> tuple[int, str]:
    """``(gid, group name)`` shown for a path (``sdcard_rw`` is AID 1015 in AOSP ``android_filesystem_config.h``)."""
    if android_path == EXTERNAL_STORAGE or android_path.startswith(EXTERNAL_STORAGE + "/"):
        return 1015, "sdcard_rw"
    return owner_of(phone, android_path)


def display_size(st: os.stat_result) -> int:
    """Size as listed: directories show ext4's 4096 rather than the host file system's value."""
    return 4096 if stat_module.S_ISDIR(st.st_mode) else st.st_size


def blocks_1k(st: os.stat_result) -> int:
    """1 KiB blocks used, as on a 4 KiB-block ext4 volume."""
    return 4 * math.ceil(display_size(st) / 4096)


def mode_string(mode: int) -> str:
    """``ls -l``'s ``drwxr-xr-x`` (toybox ``mode_to_string``)."""
    kinds = ((stat_module.S_ISDIR, "d"), (stat_module.S_ISLNK, "l"), (stat_module.S_ISCHR, "c"),
             (stat_module.S_ISBLK, "b"), (stat_module.S_ISFIFO, "p"), (stat_module.S_ISSOCK, "s"))
    out = [next((letter for test, letter in kinds if test(mode)), "-")]
    for who in range(3):
        bits = (mode >> (6 - 3 * who)) & 7
        special = mode & (0o4000 >> who)
        out.append("r" if bits & 4 else "-")
        out.append("w" if bits & 2 else "-")
        if special:
            out.append(("s", "s", "t")[who] if bits & 1 else ("S", "S", "T")[who])
        else:
            out.append("x" if bits & 1 else "-")
    return "".join(out)
