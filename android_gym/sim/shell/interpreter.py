"""The interpreter: executes parsed trees (lists, pipelines, compound commands), redirections, builtins and
device commands; ``Shell`` is its public face."""

from __future__ import annotations

import errno
import functools
import os
import posixpath
import re
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from android_gym.sim.shell.commands import (
    activity,
    content,
    dumpsys,
    files,
    find,
    log,
    package,
    service,
    settings,
    sqlite,
    system,
)
from android_gym.sim.shell.commands import input as input_commands
from android_gym.sim.shell.commands import text as text_commands
from android_gym.sim.shell.commands.base import (
    Command,
    CommandContext,
    UnknownOptionError,
    strerror,
    unknown_option,
)
from android_gym.sim.shell.device import ShellDevice
from android_gym.sim.shell.environment import ENVIRONMENT, SHELL
from android_gym.sim.shell.errors import ShellSyntaxError, _Abort, _Exit, _Fatal, _OutOfMemory, check_size
from android_gym.sim.shell.expansion import _Expander
from android_gym.sim.shell.parser import (
    _AndOr,
    _For,
    _Group,
    _If,
    _Loop,
    _parse,
    _Pipeline,
    _Redir,
    _Seq,
    _Simple,
)
from android_gym.sim.shell.streams import _IO, LiveOutput, Output, StdinSource, _FileSink, _Input, _NullSink
from android_gym.sim.system.fs import normalize, read_host

#: Simple commands one ``run`` may execute (a runaway ``while true`` ends instead of hanging the env).
MAX_COMMANDS = 50_000
#: Nesting of ``$(...)``, ``sh -c`` and ``eval``.
MAX_DEPTH = 32
_BIN_DIRS = frozenset({"/bin", "/system/bin", "/system/xbin", "/vendor/bin", "/product/bin", "/system_ext/bin",
                       "/apex/com.android.runtime/bin", "/odm/bin"})

_COMMANDS: dict[str, Command] = {}
for _module in (files, find, text_commands, system, settings, activity, package, service, dumpsys, input_commands,
                sqlite, content, log):
    _COMMANDS.update(_module.COMMANDS)


#: Commands that only read the device, and the subcommands that only read for commands that also write. A
#: command line made only of these (and no redirection into a file) leaves the phone's state as it was. ``sleep``
#: only lets device time pass: what the screen shows of the time is redrawn by the frame's own clock check.
_READ_ONLY = frozenset({
    "basename", "cat", "cut", "dirname", "dumpsys", "echo", "getprop", "grep", "head", "id", "logcat", "ls",
    "md5sum", "printf",
    "pwd", "readlink", "realpath", "sha1sum", "sha256sum", "sleep", "sort", "stat", "tail", "test", "[", "true",
    "false", "uname", "uniq", "wc", "whoami", "which",
})
_READ_ONLY_SUBCOMMANDS = {"settings": frozenset({"get", "list"}), "content": frozenset({"query"}),
                          "pm": frozenset({"list", "path", "dump", "resolve-activity"})}
#: Commands that write only what apps keep (files and databases: through the file system, ``sqlite3`` or a content
#: provider), and the subcommands that do for other commands; and commands that redraw the screen themselves for
#: whatever else they change (a setting, the app in front stopped; the device time, which the frame checks on its
#: own; a broadcast's receivers: the media scan, Clipper's clipboard, the accessibility forwarder's flags; a runtime
#: permission, which no screen of the launcher shows, and whose revoking stops the app as ``force-stop`` does). After
#: them the shell leaves the screen to ``data_changed``, which keeps the home screen's frame.
_DATA_ONLY = frozenset({
    "chgrp", "chmod", "chown", "content", "cp", "date", "find", "mkdir", "mv", "restorecon", "rm", "rmdir",
    "sqlite3", "tee", "touch",
})
_DATA_ONLY_SUBCOMMANDS = {"am": frozenset({"force-stop", "broadcast"}), "pm": frozenset({"clear", "grant", "revoke"}),
                          "settings": frozenset({"put", "delete"})}


#: Commands after which the shell leaves the screen as it is: the phone redraws on its own whatever they change
#: (``monkey`` starts an activity through the activity manager, which redraws when the tasks change; launching the
#: app already in front changes nothing), and the subcommands that do for other commands (``input keyevent`` presses
#: keys as ``Phone.key`` does, which redraws after a key that changed something: HOME at home does not).
_REDRAWS_ITSELF = frozenset({"monkey"})
_REDRAWS_ITSELF_SUBCOMMANDS = {"input": frozenset({"keyevent"})}


#: Commands whose arguments tell whether they only read the device.
_READS_ONLY_WHEN = {**input_commands.READS_ONLY, **system.READS_ONLY}


def _listed(argv: list[str], commands: frozenset[str], subcommands: dict[str, frozenset[str]]) -> bool:
    """Whether ``argv`` runs one of ``commands`` (a bare name or a path) or one of a command's ``subcommands``."""
    name = argv[0].rpartition("/")[2]
    return name in commands or (len(argv) > 1 and argv[1] in subcommands.get(name, ()))


#: The errors of ``stat`` that ``Path.exists`` and ``Path.is_dir`` read as "no such file" (pathlib's ignored ones).
_MISSING = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


def _mode(host: os.PathLike[str]) -> int | None:
    """The mode of the file ``host`` leads to (symbolic links followed), ``None`` when there is none: what
    ``is_dir`` and ``exists`` tell, from one ``stat``."""
    try:
        return os.stat(host).st_mode
    except OSError as error:
        if error.errno in _MISSING:
            return None
        raise


def _reads_only(argv: list[str]) -> bool:
    """Whether ``argv`` is known to only read the device, or to change only what the phone redraws on its own
    (``_REDRAWS_ITSELF``): nothing is left for the shell to redraw (unknown commands may write)."""
    name = argv[0].rpartition("/")[2]
    if name in _READS_ONLY_WHEN:
        return _READS_ONLY_WHEN[name](argv)
    return (_listed(argv, _REDRAWS_ITSELF, _REDRAWS_ITSELF_SUBCOMMANDS)
            or _listed(argv, _READ_ONLY, _READ_ONLY_SUBCOMMANDS))


def _writes_data_only(argv: list[str]) -> bool:
    """Whether ``argv`` writes at most what apps keep (``_DATA_ONLY``)."""
    return _listed(argv, _DATA_ONLY, _DATA_ONLY_SUBCOMMANDS)


class _Effects(NamedTuple):
    """What running a device command may change, told by its arguments alone."""

    writes: bool  #: it may change what the shell redraws after it (not ``_reads_only``)
    data_only: bool  #: it writes at most what apps keep (``_writes_data_only``)
    settles: bool  #: the line's provider writes are committed before it (all but ``content``, which joins them)


def _effects(argv: Sequence[str]) -> _Effects:
    """The ``_Effects`` of the device command ``argv``."""
    args = list(argv)
    writes = not _reads_only(args)
    return _Effects(writes, writes and _writes_data_only(args), args[0].rpartition("/")[2] != "content")


#: ``_effects`` of a command with nothing to expand, by its parsed fields (``_Simple.fields``): told once, as the
#: trees are parsed once.
_literal_effects = functools.lru_cache(maxsize=1024)(_effects)


class ShellOutput:
    """What a command line printed and how it exited; ``read_only`` when every command it ran only read the
    device or changed only what the phone redraws on its own (so nothing is left to redraw: ``_REDRAWS_ITSELF``),
    ``data_only`` when the commands that wrote wrote only what apps keep (``Phone.data_changed``).

    The standard output may be given in pieces, as the commands wrote it (``Output.parts``): adbd sends
    ``stdout_parts`` as they are, so a screenshot's frame is not copied into one buffer; ``stdout`` joins them
    when first read.
    """

    __slots__ = ("stdout_parts", "stderr", "exit_code", "read_only", "data_only", "_stdout")

    def __init__(self, stdout: bytes | Sequence[bytes | bytearray], stderr: bytes, exit_code: int,
                 read_only: bool = False, data_only: bool = False) -> None:
        self.stdout_parts = (stdout,) if isinstance(stdout, bytes) else tuple(stdout)
        self.stderr = stderr
        self.exit_code = exit_code
        self.read_only = read_only
        self.data_only = data_only
        self._stdout: bytes | None = None

    @property
    def stdout(self) -> bytes:
        """All of the standard output."""
        if self._stdout is None:
            self._stdout = b"".join(self.stdout_parts)
        return self._stdout

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShellOutput):
            return NotImplemented
        return (self.stdout, self.stderr, self.exit_code) == (other.stdout, other.stderr, other.exit_code)

    def __repr__(self) -> str:
        return (f"ShellOutput(stdout={self.stdout!r}, stderr={self.stderr!r}, exit_code={self.exit_code}, "
                f"read_only={self.read_only}, data_only={self.data_only})")


@dataclass
class _Run:
    """What the shells of one command line share: the commands left to run, whether one may have written, and
    whether one may have written more than what apps keep."""

    budget: int = MAX_COMMANDS
    wrote: bool = False
    wrote_more: bool = False


class _Interp(_Expander):
    """Executes trees for one shell process; ``$(...)`` and ``sh -c`` get children."""

    def __init__(self, phone: ShellDevice, variables: dict[str, str], cwd: str, depth: int, shared: _Run,
                 live: _Live | None = None) -> None:
        if depth > MAX_DEPTH:
            raise _Abort("too deeply nested")
        self.phone = phone
        #: The script's own output buffers and the reader taking them live, if any.
        self.live = live
        self.vars = variables
        self.cwd = cwd
        self.depth = depth
        self.shared = shared
        self.status = 0
        self.subst_status: int | None = None
        self.err: Output = Output()

    # ----- entry points --------------------------------------------------------------------------------------
    def run_script(self, script: str, io: _IO) -> int:
        """Parse and run ``script``; syntax errors and ``exit`` end only this shell."""
        try:
            tree = _parse(script)
        except ShellSyntaxError as error:
            io.err.write(f"{SHELL}: {error}\n".encode())
            return 1
        try:
            return self.execute(tree, io)
        except _Exit as done:
            return done.status & 0xFF
        except _Fatal as error:
            io.err.write(f"{SHELL}: {error}\n".encode())
            return 1

    def child(self, cwd: str | None = None) -> _Interp:
        """A subshell: a copy of the variables and cwd, sharing the command budget."""
        child = _Interp(self.phone, dict(self.vars), self.cwd if cwd is None else cwd, self.depth + 1, self.shared,
                        self.live)
        child.status = self.status
        return child

    # ----- tree walking -------------------------------------------------------------------------------------
    def execute(self, node: object, io: _IO) -> int:
        self.err = io.err
        kind = type(node)
        if kind is _Simple:
            status = self._simple(node, io)  # type: ignore[arg-type]
        elif kind is _Seq:
            status = 0
            for item in node.items:  # type: ignore[attr-defined]
                status = self.execute(item, io)
        elif kind is _AndOr:
            status = self.execute(node.first, io)  # type: ignore[attr-defined]
            for op, right in node.rest:  # type: ignore[attr-defined]
                if (op == "&&") == (status == 0):
                    status = self.execute(right, io)
        elif kind is _Pipeline:
            status = self._pipeline(node, io)  # type: ignore[arg-type]
        elif not node.redirs:  # type: ignore[attr-defined]  (most compound commands: nothing to redirect)
            status = self._compound(node, io)
        else:
            status = self._redirected(node.redirs, io, lambda inner: self._compound(node, inner))  # type: ignore
        self.status = status
        return status

    def _pipeline(self, node: _Pipeline, io: _IO) -> int:
        inp = io.inp
        status = 0
        for index, command in enumerate(node.commands):
            last = index == len(node.commands) - 1
            out = io.out if last else Output()
            status = self.execute(command, _IO(inp, out, io.err))
            if not last:
                inp = _Input(out.getvalue())
        return (0 if status else 1) if node.negate else status

    def _compound(self, node: object, io: _IO) -> int:
        if isinstance(node, _Group):
            if node.subshell:
                child = self.child()
                try:
                    return child.execute(node.body, io)
                except _Exit as done:
                    return done.status & 0xFF
            return self.execute(node.body, io)
        if isinstance(node, _If):
            for cond, body in node.branches:
                if self.execute(cond, io) == 0:
                    return self.execute(body, io)
            return self.execute(node.orelse, io) if node.orelse is not None else 0
        if isinstance(node, _Loop):
            status = 0
            while (self.execute(node.cond, io) == 0) != node.until:
                self._tick()
                status = self.execute(node.body, io)
            return status
        if isinstance(node, _For):
            values: list[str] = []
            for word in node.words or ():
                values.extend(self.expand(word))
            status = 0
            for value in values:
                self.vars[node.name] = value
                status = self.execute(node.body, io)
            return status
        raise TypeError(f"unknown node {node!r}")

    def _tick(self) -> None:
        self.shared.budget -= 1
        if self.shared.budget < 0:
            raise _Abort("too many commands")

    # ----- simple commands ----------------------------------------------------------------------------------
    def _simple(self, node: _Simple, io: _IO) -> int:
        self._tick()
        self.err = io.err
        self.subst_status = None
        fields = node.fields
        if fields is not None:  # nothing to expand (most commands a task's set-up sends)
            argv = list(fields)
        else:
            argv = []
            for word in node.words:
                argv.extend(self.expand(word))
        if not argv:
            for assignment in node.assigns:
                name, _, value = assignment.partition("=")
                self.vars[name] = self.expand_one(value)
            status = self.subst_status or 0
            if node.redirs:
                return self._redirected(node.redirs, io, lambda inner: status)
            return status
        if not node.redirs:  # most commands: no redirection to set up
            return self.invoke(argv, io, fields)
        return self._redirected(node.redirs, io, lambda inner: self.invoke(argv, inner, fields))

    def invoke(self, argv: list[str], io: _IO, fields: tuple[str, ...] | None = None) -> int:
        """Run one command: a shell builtin, else a device command; ``fields``: the parsed ``argv``, when it had
        nothing to expand."""
        name = argv[0]
        builtin = _BUILTINS.get(name)
        if builtin is not None:
            return builtin(self, argv, io)
        command = self.lookup(name)
        if command is None:
            io.err.write(f"{SHELL}: {name}: inaccessible or not found\n".encode())
            return 127
        writes, data_only, settles = _literal_effects(fields) if fields is not None else _effects(argv)
        if writes:
            self.shared.wrote = True
            self.shared.wrote_more |= not data_only
        if settles:  # the line's content writes are committed before others look
            self.phone.settle_providers()
        live = self.live if self.live is not None and self.live.owns(io) else None
        ctx = CommandContext(self.phone, io.inp, self.cwd, self.vars, self._ctx_script, self._ctx_argv,
                             live and live.deliver)
        try:
            status = command(ctx, argv)
        except UnknownOptionError as error:
            status = unknown_option(ctx, error.command, error.option)
        except Exception as error:  # a broken command must not take the shell down
            ctx.err(f"{name}: {type(error).__name__}: {error}\n")
            status = 1
        if data_only:  # what later commands of the line report of the phone is made afresh
            self.phone.data_changed()
        elif writes:
            self.phone.window.invalidate()
        io.out.write(ctx.stdout)
        io.err.write(ctx.stderr)
        return status & 0xFF

    def lookup(self, name: str) -> Command | None:
        """The device command ``name`` (a bare name or a path in one of the bin directories)."""
        if "/" in name:
            directory, _, name = name.rpartition("/")
            if normalize(directory or "/", self.cwd) not in _BIN_DIRS:
                return None
        return _COMMANDS.get(name)

    def _ctx_script(self, ctx: CommandContext, script: str) -> int:
        child = _Interp(self.phone, {**ENVIRONMENT, **self.vars}, ctx.cwd, self.depth + 1, self.shared)
        io = _IO(_Input(ctx.stdin), ctx.stdout, ctx.stderr)
        return child.run_script(script, io)

    def _ctx_argv(self, ctx: CommandContext, argv: list[str]) -> int:
        return self.invoke(argv, _IO(_Input(b""), ctx.stdout, ctx.stderr)) if argv else 0

    # ----- redirections -------------------------------------------------------------------------------------
    def _redirected(self, redirs: tuple[_Redir, ...], io: _IO, body: Callable[[_IO], int]) -> int:
        if not redirs:
            return body(io)
        sinks: dict[int, object] = {1: io.out, 2: io.err}
        inp = io.inp
        files: list[_FileSink] = []
        for redir in redirs:
            fd = redir.fd
            if redir.heredoc is not None:
                doc = redir.heredoc
                body_text = doc.body if doc.quoted else self._heredoc_text(doc.body)
                inp = _Input(body_text.encode())
                continue
            target = self.expand_one(redir.target)
            op = redir.op
            if op in (">&", "<&") and (target.isdigit() or target == "-"):
                source = 1 if op == ">&" and fd is None else (0 if fd is None else fd)
                if target == "-":
                    sinks[source] = _NullSink()
                elif op == ">&":
                    sinks[source] = sinks.get(int(target), _NullSink())
                continue
            if op in ("<", "<>", "<&"):
                data = self._read_redirect(target, io)
                if data is None:
                    return 1
                if fd in (None, 0):
                    inp = _Input(data)
                continue
            sink = self._open_sink(target, append=op == ">>", io=io, sinks=sinks)
            if sink is None:
                return 1
            if isinstance(sink, _FileSink):
                files.append(sink)
            if op in ("&>", ">&"):
                sinks[1] = sinks[2] = sink
            else:
                sinks[1 if fd is None else fd] = sink
        out, err = Output(), Output()
        try:
            status = body(_IO(inp, out, err))
        finally:
            self._flush(sinks, out, err, files)
        return status

    def _flush(self, sinks: dict[int, object], out: Output, err: Output, files: list[_FileSink]) -> None:
        """Deliver what a redirected command printed to its sinks and write the files; a file would outgrow
        ``MAX_BYTES``: out of memory. The files carry device time whatever happens."""
        try:
            for fd, data in ((1, out), (2, err)):
                sink = sinks.get(fd)
                if isinstance(sink, Output):
                    sink.write(data)
                elif isinstance(sink, _FileSink):
                    sink.data.write(data)
            for sink in files:
                if sink.data:
                    check_size(os.path.getsize(sink.host) + len(sink.data))
                    with open(sink.host, "ab") as handle:
                        handle.writelines(sink.data.parts)
                    sink.data.clear()
        finally:
            for sink in files:
                self.phone.fs.stamp(sink.host)
            if files:  # written files are what apps keep: redrawn as a data-only command's writes are
                self.phone.data_changed()

    def _special(self, target: str) -> str | None:
        path = normalize(target, self.cwd)
        return path if path in ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero") else None

    def _open_sink(self, target: str, append: bool, io: _IO, sinks: dict[int, object]) -> object | None:
        special = self._special(target)
        if special in ("/dev/null", "/dev/zero"):
            return _NullSink()
        if special in ("/dev/stdout", "/dev/tty"):
            return sinks.get(1)
        if special == "/dev/stderr":
            return sinks.get(2)
        host = self.phone.fs.host_path(target, self.cwd)
        self.shared.wrote = True
        try:
            mode = _mode(host)
            if mode is not None and stat.S_ISDIR(mode):
                raise IsADirectoryError(21, "Is a directory")
            new = mode is None
            with open(host, "ab" if append else "wb"):
                pass
            if new:
                self.phone.fs.stamp(host.parent)  # a new entry changes its directory (device time)
        except OSError as error:
            io.err.write(f"{SHELL}: can't create {target}: {strerror(error)}\n".encode())
            return None
        for sink in sinks.values():
            if isinstance(sink, _FileSink) and sink.host == host:
                return sink
        return _FileSink(host, Output())

    def _read_redirect(self, target: str, io: _IO) -> bytes | None:
        special = self._special(target)
        if special is not None:
            return b""
        try:
            return read_host(self.phone.fs.host_path(target, self.cwd))
        except OSError as error:
            io.err.write(f"{SHELL}: can't open {target}: {strerror(error)}\n".encode())
            return None

    # ----- command substitution (the hook word expansion calls) ---------------------------------------------
    def _substitute(self, script: str) -> str:
        """``$(...)``: run ``script`` in a subshell and return its output minus trailing newlines."""
        out = Output()
        child = self.child()
        status = child.run_script(script, _IO(_Input(b""), out, self.err))
        self.subst_status = status
        self.status = status
        return out.getvalue().decode("utf-8", "replace").rstrip("\n")

    # ----- builtins -----------------------------------------------------------------------------------------
    def _colon(self, argv: list[str], io: _IO) -> int:
        return 0

    def _cd(self, argv: list[str], io: _IO) -> int:
        target = argv[1] if len(argv) > 1 else self.vars.get("HOME", "/")
        if target == "-":
            target = self.vars.get("OLDPWD", self.cwd)
        path = posixpath.normpath(posixpath.join(self.cwd, target)).replace("//", "/")
        host = self.phone.fs.host_path(path)
        if not host.is_dir():
            reason = "Not a directory" if host.exists() else "No such file or directory"
            io.err.write(f"{SHELL}: cd: {target}: {reason}\n".encode())
            return 1
        self.vars["OLDPWD"], self.cwd = self.cwd, path
        self.vars["PWD"] = path
        return 0

    def _pwd(self, argv: list[str], io: _IO) -> int:
        io.out.write((self.cwd + "\n").encode())
        return 0

    def _exit(self, argv: list[str], io: _IO) -> int:
        raise _Exit(int(argv[1]) if len(argv) > 1 and argv[1].lstrip("-").isdigit() else self.status)

    def _export(self, argv: list[str], io: _IO) -> int:
        for arg in argv[1:]:
            name, eq, value = arg.partition("=")
            if eq:
                self.vars[name] = value
        return 0

    def _unset(self, argv: list[str], io: _IO) -> int:
        for name in argv[1:]:
            self.vars.pop(name, None)
        return 0

    def _eval(self, argv: list[str], io: _IO) -> int:
        script = " ".join(argv[1:])
        if not script.strip():
            return 0
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Abort("too deeply nested")
            return self.execute(_parse(script), io)
        except ShellSyntaxError as error:
            io.err.write(f"{SHELL}: eval: {error}\n".encode())
            return 1
        finally:
            self.depth -= 1

    def _exec(self, argv: list[str], io: _IO) -> int:
        if len(argv) == 1:
            return 0
        raise _Exit(self.invoke(argv[1:], io))

    def _read(self, argv: list[str], io: _IO) -> int:
        names = [arg for arg in argv[1:] if not arg.startswith("-")] or ["REPLY"]
        raw_mode = "-r" in argv
        line = io.inp.take_line()
        if line is None:
            for name in names:
                self.vars[name] = ""
            return 1
        text = line.decode("utf-8", "replace").rstrip("\n")
        if not raw_mode:
            text = re.sub(r"\\(.)", r"\1", text)
        parts = text.split(None, len(names) - 1) if text.strip() else []
        for index, name in enumerate(names):
            self.vars[name] = parts[index] if index < len(parts) else ""
        return 0

    def _path_of(self, name: str) -> str | None:
        """Where the device command ``name`` lives (every one in ``/system/bin``), None if there is no such command."""
        return f"/system/bin/{name.rpartition('/')[2]}" if self.lookup(name) is not None else None

    def _which(self, argv: list[str], io: _IO) -> int:
        status = 0
        for name in argv[1:]:
            if (path := self._path_of(name)) is not None:
                io.out.write(f"{path}\n".encode())
            else:
                status = 1
        return status

    def _type(self, argv: list[str], io: _IO) -> int:
        status = 0
        for name in argv[1:]:
            if name in _BUILTINS:
                io.out.write(f"{name} is a shell builtin\n".encode())
            elif (path := self._path_of(name)) is not None:
                io.out.write(f"{name} is {path}\n".encode())
            else:
                io.out.write(f"{name} not found\n".encode())
                status = 1
        return status

    def _command(self, argv: list[str], io: _IO) -> int:
        if len(argv) > 2 and argv[1] in ("-v", "-V"):
            status = 0
            for name in argv[2:]:
                if name in _BUILTINS:
                    io.out.write(f"{name}\n".encode())
                elif (path := self._path_of(name)) is not None:
                    io.out.write(f"{path}\n".encode())
                else:
                    status = 1
            return status
        return self.invoke(argv[1:], io) if len(argv) > 1 else 0


#: The shell's builtins, by name (made once, not per shell).
_BUILTINS: dict[str, Callable[[_Interp, list[str], _IO], int]] = {
    "cd": _Interp._cd, "exit": _Interp._exit, "export": _Interp._export, "unset": _Interp._unset,
    ":": _Interp._colon, "eval": _Interp._eval, "exec": _Interp._exec, "read": _Interp._read, "set": _Interp._colon,
    "which": _Interp._which, "type": _Interp._type, "command": _Interp._command, "pwd": _Interp._pwd,
}


class Shell:
    """``/system/bin/sh`` of one phone. ``run`` never raises: errors become stderr and an exit code."""

    def __init__(self, phone: ShellDevice) -> None:
        self._phone = phone

    @property
    def commands(self) -> list[str]:
        """Names of the device commands (``/system/bin``)."""
        return sorted(_COMMANDS)

    def run(self, command: str, stdin: bytes | StdinSource = b"", live: LiveOutput | None = None,
            merged: bool = False) -> ShellOutput:
        """Run ``command`` as ``sh -c`` would, from ``/``, with ``stdin`` (bytes, or a ``StdinSource`` asked when a
        command first reads its input) on standard input. With ``live``, a command writing straight to the
        script's output may deliver it there as it runs; the result holds what was not delivered. ``merged``:
        standard error goes where standard output goes, in the order the commands wrote them (a terminal, or
        adbd's socket without the shell protocol), and the result's ``stderr`` is empty."""
        out = Output()
        err = out if merged else Output()
        session = None if live is None else _Live(live, out, err)
        return _run_guarded(_Interp(self._phone, dict(ENVIRONMENT), "/", 0, _Run(), session), command, stdin, out,
                            err)

    def session(self) -> ShellSession:
        """An interactive shell (``adb shell`` with no command) whose variables and directory persist."""
        return ShellSession(self._phone)


class ShellSession:
    """One interactive shell: each ``run`` is a command line typed at its prompt."""

    def __init__(self, phone: ShellDevice) -> None:
        self._interp = _Interp(phone, dict(ENVIRONMENT), "/", 0, _Run())

    @property
    def cwd(self) -> str:
        """The working directory (``cd`` persists)."""
        return self._interp.cwd

    def run(self, line: str) -> ShellOutput:
        """Run one command line; standard input is the terminal, so commands that read it see end of file, and
        both outputs go to it in the order written (the result's ``stdout``; its ``stderr`` is empty)."""
        self._interp.shared = _Run()
        out = Output()
        return _run_guarded(self._interp, line, b"", out, out)


class _Live:
    """A script's own output buffers and the ``LiveOutput`` that takes them as they fill."""

    def __init__(self, output: LiveOutput, out: Output, err: Output) -> None:
        self.output = output
        self.out = out
        self.err = err

    def owns(self, io: _IO) -> bool:
        """Whether ``io`` writes straight to the script's output (no pipe, redirection or substitution)."""
        return io.out is self.out and io.err is self.err

    def deliver(self, stdout: Output, stderr: Output, event: threading.Event) -> bool:
        """Hand over what the script and then the running command wrote so far (emptying the buffers) and wait
        for ``event``; ``False`` once the reader has gone."""
        self.out.write(stdout)
        self.err.write(stderr)
        out, err = self.out.getvalue(), b"" if self.err is self.out else self.err.getvalue()
        for buffer in (self.out, self.err, stdout, stderr):
            buffer.clear()
        if (out or err) and not self.output.write(out, err):
            return False
        return self.output.wait(event)


def _run_guarded(interp: _Interp, command: str, stdin: bytes | StdinSource, out: Output,
                 err: Output) -> ShellOutput:
    """Run a script writing into ``out`` and ``err`` (which may be one output); never raises: errors become stderr
    and an exit code."""
    failure = ""  # what ended the script, after its own stderr (which may be full)
    try:
        status = interp.run_script(command, _IO(_Input(stdin), out, err))
    except _Exit as done:
        status = done.status & 0xFF
    except _OutOfMemory as error:
        failure, status = f"{error}\n", 1
    except _Abort as error:
        failure, status = f"{SHELL}: {error}\n", 1
    except RecursionError:
        failure, status = f"{SHELL}: expression too deeply nested\n", 1
    except Exception as error:  # never let a simulator bug escape to the caller
        failure, status = f"{SHELL}: internal error: {type(error).__name__}: {error}\n", 1
    shared, tail = interp.shared, failure.encode()
    if err is out:  # one output for both, as on a terminal
        stdout, stderr = (*out.parts, tail) if tail else out.parts, b""
    else:
        stdout, stderr = out.parts, err.getvalue() + tail
    return ShellOutput(stdout, stderr, status, read_only=not shared.wrote,
                       data_only=shared.wrote and not shared.wrote_more)
