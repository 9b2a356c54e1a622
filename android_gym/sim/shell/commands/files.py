"""File commands with toybox's syntax, output and messages (toybox ``toys/posix/{ls,cat,rm,mkdir,cp,touch}.c``,
``toys/other/stat.c``): ls, cat, rm, rmdir, mkdir, cp, mv, touch, stat, chmod, chown, chgrp, restorecon,
md5sum/sha1sum/sha256sum, realpath.

Simplifications: owners and groups are derived from the path (app data belongs to its app), ``chmod`` keeps
the owner's read/write bits on the host, and a file's change and access times read as its modification time.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import posixpath
import shutil
import stat as st_mode
from collections.abc import Callable
from pathlib import Path

from android_gym.sim.shell.commands.base import (
    CommandContext,
    blocks_1k,
    display_size,
    expand_percent,
    group_of,
    mode_string,
    owner_of,
    parse_flags,
    strerror,
    unknown_option,
)
from android_gym.sim.shell.commands.system import parse_date
from android_gym.sim.system.fs import EXTERNAL_STORAGE, read_host

#: Directories that are mount points or system roots on a device: ``rm -r`` empties them but keeps them.
_KEEP = frozenset({"/", "/data", "/data/data", "/data/local/tmp", "/system", "/storage", "/storage/emulated",
                   EXTERNAL_STORAGE, "/dev", "/proc"})


def _time(seconds: float, fmt: str = "%Y-%m-%d %H:%M") -> str:
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime(fmt)


def _full_time(ns: int) -> str:
    """``ls -ll`` (``--full-time``): seconds with nanoseconds and the zone, ``2023-10-15 15:34:00.000000000 +0000``."""
    return f"{_time(ns // 1_000_000_000, '%Y-%m-%d %H:%M:%S')}.{ns % 1_000_000_000:09d} +0000"


# ----- ls ------------------------------------------------------------------------------------------------------
class _Entry:
    __slots__ = ("name", "path", "st", "host")

    def __init__(self, name: str, path: str, st: os.stat_result, host: Path) -> None:
        self.name, self.path, self.st, self.host = name, path, st, host


def _human(size: int) -> str:
    value, units = float(size), "KMGTPE"
    if size < 1024:
        return str(size)
    for unit in units:
        value /= 1024
        if value < 1024 or unit == units[-1]:
            return f"{value:.1f}{unit}" if value < 10 else f"{round(value)}{unit}"
    return str(size)


def _sorted(entries: list[_Entry], flags: set[str]) -> list[_Entry]:
    if "t" in flags:
        entries = sorted(entries, key=lambda e: (-e.st.st_mtime_ns, e.name))
    elif "S" in flags:
        entries = sorted(entries, key=lambda e: (-display_size(e.st), e.name))
    else:
        entries = sorted(entries, key=lambda e: e.name)
    return entries[::-1] if "r" in flags else entries


def _suffix(entry: _Entry, flags: set[str]) -> str:
    mode = entry.st.st_mode
    if ("F" in flags or "p" in flags) and st_mode.S_ISDIR(mode):
        return "/"
    if "F" in flags:
        if st_mode.S_ISLNK(mode):
            return "@"
        if st_mode.S_ISREG(mode) and mode & 0o111:
            return "*"
    return ""


def _print_entries(ctx: CommandContext, entries: list[_Entry], flags: set[str]) -> None:
    if not ("l" in flags or "n" in flags):
        ctx.out("".join(e.name + _suffix(e, flags) + "\n" for e in entries))
        return
    numeric = "n" in flags
    rows = []
    for e in entries:
        uid, user = owner_of(ctx.phone, e.path)
        gid, group = group_of(ctx.phone, e.path)
        size = display_size(e.st)
        rows.append((mode_string(e.st.st_mode), str(e.st.st_nlink), str(uid) if numeric else user,
                     str(gid) if numeric else group, _human(size) if "h" in flags else str(size),
                     _full_time(e.st.st_mtime_ns) if "ll" in flags else _time(e.st.st_mtime), e))
    widths = [max((len(row[k]) for row in rows), default=0) for k in range(5)]
    for mode, links, user, group, size, when, e in rows:
        name = e.name
        if st_mode.S_ISLNK(e.st.st_mode):
            name += " -> " + os.readlink(e.host)
        ctx.out(f"{mode} {links:>{widths[1]}} {user:<{widths[2]}} {group:<{widths[3]}} "
                f"{size:>{widths[4]}} {when} {name}{_suffix(e, flags)}\n")


def _read_dir(ctx: CommandContext, path: str, host: Path, flags: set[str]) -> list[_Entry]:
    entries = []
    names = os.listdir(host)
    if "a" in flags:
        names += [".", ".."]
    for name in names:
        if name.startswith(".") and not ("a" in flags or "A" in flags):
            continue
        child_path = posixpath.join(path, name)
        if name in (".", ".."):  # the directory itself and its parent; ``..`` of ``/`` is ``/``, as on Android
            child_path = ctx.path(child_path)
            child = ctx.host(child_path)
        else:
            child = host / name
        try:
            info = ctx.stat(child, follow_symlinks=False)
        except OSError:
            continue
        entries.append(_Entry(name, child_path, info, child))
    return entries


def ls(ctx: CommandContext, argv: list[str]) -> int:
    """``ls [-1AaCcdFhlnpRrStu] [FILE...]`` (one name per line: stdout is not a tty); ``-ll`` shows full times.
    ``-c``/``-u`` (change/access time) show the modification time, which the phone gives all three."""
    flags, _, operands = parse_flags(argv, "1AaCcdFhlnpRrStu")
    if sum(arg.count("l") for arg in argv if arg.startswith("-") and not arg.startswith("--")) > 1:
        flags.add("ll")
    if "d" in flags:
        flags.discard("R")
    status = 0
    files: list[_Entry] = []
    dirs: list[_Entry] = []
    for arg in operands or ["."]:
        host = ctx.host(arg)
        try:
            info = ctx.stat(host)
        except OSError as error:
            ctx.err(f"ls: {arg}: {strerror(error)}\n")
            status = 1
            continue
        entry = _Entry(arg, ctx.path(arg), info, host)
        (dirs if st_mode.S_ISDIR(info.st_mode) and "d" not in flags else files).append(entry)
    printed = False
    if files:
        _print_entries(ctx, _sorted(files, flags), flags)
        printed = True
    headers = len(operands) > 1 or "R" in flags
    pending = [(entry.name, entry) for entry in _sorted(dirs, flags)]
    while pending:
        label, entry = pending.pop(0)
        if headers:
            ctx.out(("\n" if printed else "") + f"{label}:\n")
            printed = True
        try:
            entries = _sorted(_read_dir(ctx, entry.path, entry.host, flags), flags)
        except OSError as error:
            ctx.err(f"ls: {label}: {strerror(error)}\n")
            status = 1
            continue
        if "l" in flags or "n" in flags:
            ctx.out(f"total {sum(blocks_1k(e.st) for e in entries)}\n")
        _print_entries(ctx, entries, flags)
        printed = printed or bool(entries)
        if "R" in flags:
            subdirs = [(label.rstrip("/") + "/" + e.name if label != "/" else "/" + e.name, e) for e in entries
                       if st_mode.S_ISDIR(e.st.st_mode) and e.name not in (".", "..")]
            pending[:0] = subdirs
    return status


# ----- cat, checksums --------------------------------------------------------------------------------------
def _read_input(ctx: CommandContext, name: str) -> bytes:
    if name == "-":
        return ctx.stdin
    if ctx.path(name) in ("/dev/null", "/dev/zero"):
        return b""
    return read_host(ctx.host(name))


def _each_input(ctx: CommandContext, command: str, names: list[str], use: Callable[[str, bytes], None]) -> int:
    """Read each operand (``-`` or none: stdin) and pass it to ``use``; an unreadable one is reported as
    ``command: NAME: reason`` and makes the status 1."""
    status = 0
    for name in names or ["-"]:
        try:
            data = _read_input(ctx, name)
        except OSError as error:
            ctx.err(f"{command}: {name}: {strerror(error)}\n")
            status = 1
            continue
        use(name, data)
    return status


def cat(ctx: CommandContext, argv: list[str]) -> int:
    """``cat [-nu] [FILE...]``; ``-`` or no file reads stdin."""
    flags, _, operands = parse_flags(argv, "nuv")
    line_number = 0

    def write(name: str, data: bytes) -> None:
        nonlocal line_number
        if "n" in flags:
            numbered = []
            for line in data.splitlines(keepends=True):
                line_number += 1
                numbered.append(f"{line_number:6d}\t".encode() + line)
            data = b"".join(numbered)
        ctx.out(data)

    return _each_input(ctx, "cat", operands, write)


def checksum(ctx: CommandContext, argv: list[str]) -> int:
    """``md5sum``/``sha1sum``/``sha256sum [FILE...]``: ``HASH  NAME`` lines."""
    algorithm = argv[0].removesuffix("sum")
    return _each_input(ctx, argv[0], argv[1:],
                       lambda name, data: ctx.out(f"{hashlib.new(algorithm, data).hexdigest()}  {name}\n"))


# ----- rm, rmdir, mkdir ----------------------------------------------------------------------------------------
def _remove(host: Path) -> None:
    if host.is_dir() and not host.is_symlink():
        shutil.rmtree(host)
    else:
        host.unlink()


def rm(ctx: CommandContext, argv: list[str]) -> int:
    """``rm [-fiRrv] FILE...``."""
    flags, _, operands = parse_flags(argv, "fiRrvd")
    if not operands and "f" not in flags:
        return ctx.fail("rm", "Needs 1 argument")
    recursive = bool(flags & {"r", "R"})
    status = 0
    for arg in operands:
        path = ctx.path(arg)
        if path == "/":
            status = ctx.fail("rm", "rm /. if you mean it")
            continue
        if posixpath.basename(arg.rstrip("/")) == "..":
            status = ctx.fail("rm", f"bad path {arg}")
            continue
        host = ctx.host(arg)
        if not (host.exists() or host.is_symlink()):
            if "f" not in flags:
                status = ctx.fail("rm", f"{arg}: No such file or directory")
            continue
        is_dir = host.is_dir() and not host.is_symlink()
        if is_dir and not recursive:
            if "d" in flags and not any(host.iterdir()):
                host.rmdir()
                ctx.stamp(host.parent)  # the directory that lost an entry shows device time
                continue
            status = ctx.fail("rm", f"{arg}: Is a directory")
            continue
        try:
            if is_dir and path in _KEEP:
                ctx.phone.fs.clear_dir(path)
            else:
                _remove(host)
        except OSError as error:
            status = ctx.fail("rm", f"{arg}: {strerror(error)}")
            continue
        ctx.stamp(host.parent)  # the directory that lost an entry shows device time, not the host's
        if "v" in flags:
            ctx.out(f"rm{'dir' if is_dir else ''} '{arg}'\n")
    return status


def rmdir(ctx: CommandContext, argv: list[str]) -> int:
    """``rmdir [-p] DIR...``."""
    status = 0
    for arg in [a for a in argv[1:] if not a.startswith("-")]:
        try:
            if ctx.path(arg) in _KEEP:
                raise OSError(16, os.strerror(16))
            host = ctx.host(arg)
            host.rmdir()
            ctx.stamp(host.parent)
        except OSError as error:
            status = ctx.fail("rmdir", f"'{arg}': {strerror(error)}")
    return status


def mkdir(ctx: CommandContext, argv: list[str]) -> int:
    """``mkdir [-pv] [-m MODE] DIR...``."""
    flags, values, operands = parse_flags(argv, "pv", "mZ")
    if not operands:
        return ctx.fail("mkdir", "Needs 1 argument")
    status = 0
    for arg in operands:
        host = ctx.host(arg)
        try:
            if "p" in flags:
                if host.exists() and not host.is_dir():
                    raise FileExistsError(17, os.strerror(17))
                ctx.phone.fs.makedirs(ctx.path(arg))  # the new directories and the one they went into: device time
            else:
                host.mkdir()
                ctx.stamp(host)
                ctx.stamp(host.parent)
        except OSError as error:
            status = ctx.fail("mkdir", f"'{arg}': {strerror(error)}")
            continue
        if "m" in values:
            _chmod_host(host, values["m"])
        if "v" in flags:
            ctx.out(f"mkdir: created directory '{arg}'\n")
    return status


# ----- cp, mv ------------------------------------------------------------------------------------------------
def _stamp_tree(ctx: CommandContext, host: Path) -> None:
    ctx.stamp(host)
    if host.is_dir():
        for root, dirnames, filenames in os.walk(host):
            for name in dirnames + filenames:
                ctx.stamp(Path(root) / name)


def _copy_or_move(ctx: CommandContext, argv: list[str], move: bool) -> int:
    name = "mv" if move else "cp"
    try:
        flags, _, operands = parse_flags(argv, "fFinpvrRaduHLPT" if not move else "fintvT")
    except ValueError as error:
        return unknown_option(ctx, name, str(error))
    if len(operands) < 2:
        return ctx.fail(name, "Needs 2 arguments")
    *sources, dest = operands
    dest_host = ctx.host(dest)
    dest_is_dir = dest_host.is_dir() and "T" not in flags
    if len(sources) > 1 and not dest_is_dir:
        return ctx.fail(name, f"'{dest}' not directory")
    recursive = move or bool(flags & {"r", "R", "a"})
    preserve = move or bool(flags & {"a", "p"})
    status = 0
    for src in sources:
        src_host = ctx.host(src)
        if not (src_host.exists() or src_host.is_symlink()):
            status = ctx.fail(name, f"bad '{src}': No such file or directory")
            continue
        base = posixpath.basename(src.rstrip("/")) or src
        target = dest_host / base if dest_is_dir else dest_host
        target_name = f"{dest.rstrip('/')}/{base}" if dest_is_dir else dest
        if target.exists() and os.path.samefile(src_host, target):
            status = ctx.fail(name, f"'{target_name}' is '{src}'")
            continue
        if src_host.is_dir() and (target == src_host or src_host in target.parents):
            status = ctx.fail(name, f"'{target_name}' is under '{src}'")
            continue
        if target.exists() and "n" in flags:
            continue
        try:
            if src_host.is_dir() and not src_host.is_symlink():
                if not recursive:
                    status = ctx.fail(name, f"Skipped dir '{src}'")
                    continue
                if target.exists() and not target.is_dir():
                    raise FileExistsError(17, os.strerror(17))
                if move:
                    if target.is_dir():
                        target.rmdir()
                    os.replace(src_host, target)
                else:
                    shutil.copytree(src_host, target, symlinks=True, dirs_exist_ok=True,
                                    copy_function=shutil.copy2 if preserve else shutil.copyfile)
            else:
                if target.is_dir():
                    raise IsADirectoryError(21, os.strerror(21))
                if move:
                    os.replace(src_host, target)
                else:
                    shutil.copyfile(src_host, target, follow_symlinks=False)
                    if preserve:
                        shutil.copystat(src_host, target, follow_symlinks=False)
        except OSError as error:
            status = ctx.fail(name, f"'{target_name}': {strerror(error)}")
            continue
        if not preserve:
            _stamp_tree(ctx, target)
        ctx.stamp(target.parent)  # the directories whose entries changed show device time
        if move:
            ctx.stamp(src_host.parent)
        if "v" in flags:
            ctx.out(f"{name} '{src}' -> '{target_name}'\n")
    return status


def cp(ctx: CommandContext, argv: list[str]) -> int:
    """``cp [-afinprRv] SOURCE... DEST``."""
    return _copy_or_move(ctx, argv, move=False)


def mv(ctx: CommandContext, argv: list[str]) -> int:
    """``mv [-finv] SOURCE... DEST``."""
    return _copy_or_move(ctx, argv, move=True)


# ----- touch, stat ---------------------------------------------------------------------------------------------
def touch(ctx: CommandContext, argv: list[str]) -> int:
    """``touch [-acm] [-d DATE] [-t [[CC]YY]MMDDhhmm[.ss]] [-r FILE] FILE...``."""
    flags, values, operands = parse_flags(argv, "acmh", "dtr")
    now_s = ctx.now_ms() / 1000
    try:
        if "r" in values:
            when = ctx.host(values["r"]).stat().st_mtime
        elif "d" in values:
            when = parse_date(values["d"], now_s, endian=True)
        elif "t" in values:
            when = parse_date(values["t"], now_s, endian=False)
        else:
            when = now_s
    except OSError as error:
        return ctx.fail("touch", f"'{values['r']}': {strerror(error)}")
    except ValueError:
        return ctx.fail("touch", f"bad date {values.get('d') or values.get('t')}")
    status = 0
    for arg in operands:
        host = ctx.host(arg)
        try:
            if not host.exists():
                if "c" in flags:
                    continue
                host.touch()
            current = host.stat()
            ns = int(when * 1e9)
            atime = current.st_atime_ns if "m" in flags and "a" not in flags else ns
            mtime = current.st_mtime_ns if "a" in flags and "m" not in flags else ns
            os.utime(host, ns=(atime, mtime))
        except OSError as error:
            status = ctx.fail("touch", f"'{arg}': {strerror(error)}")
    return status


_FILE_TYPES = {st_mode.S_IFDIR: "directory", st_mode.S_IFCHR: "character device", st_mode.S_IFBLK: "block device",
               st_mode.S_IFREG: "regular file", st_mode.S_IFLNK: "symbolic link", st_mode.S_IFSOCK: "socket",
               st_mode.S_IFIFO: "FIFO (named pipe)"}
_STAT_DEFAULT = ("  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t %F\n"
                 "Device: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n"
                 "Access: (%04a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\n"
                 "Access: %x\nModify: %y\nChange: %z")
_STAT_TERSE = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %o"


def _mount_point(path: str) -> str:
    for mount in (EXTERNAL_STORAGE, "/storage/emulated", "/data", "/system", "/proc", "/dev"):
        if path == mount or path.startswith(mount + "/"):
            return "/storage/emulated" if mount == EXTERNAL_STORAGE else mount
    return "/"


def _stat_field(ctx: CommandContext, letter: str, name: str, info: os.stat_result) -> tuple[str, object]:
    """``(printf conversion, value)`` of one ``stat -c`` escape (toybox ``print_stat``)."""
    path = ctx.path(name)
    mtime = f"{_time(info.st_mtime, '%Y-%m-%d %H:%M:%S')}.{info.st_mtime_ns % 1_000_000_000:09d} +0000"
    seconds = int(info.st_mtime)
    table: dict[str, tuple[str, object]] = {
        "a": ("o", info.st_mode & 0o7777), "A": ("s", mode_string(info.st_mode)),
        "b": ("d", blocks_1k(info) * 2), "B": ("d", 512), "C": ("s", "u:object_r:media_rw_data_file:s0"),
        "d": ("d", info.st_dev), "D": ("x", info.st_dev), "f": ("x", info.st_mode),
        "F": ("s", "regular empty file" if st_mode.S_ISREG(info.st_mode) and not info.st_size
              else _FILE_TYPES.get(st_mode.S_IFMT(info.st_mode), "unknown")),
        "g": ("d", group_of(ctx.phone, path)[0]), "G": ("s", group_of(ctx.phone, path)[1]),
        "h": ("d", info.st_nlink), "i": ("d", info.st_ino), "m": ("s", _mount_point(path)), "n": ("s", name),
        "N": ("s", name + (f" -> '{os.readlink(ctx.host(name))}'" if st_mode.S_ISLNK(info.st_mode) else "")),
        "o": ("d", 4096), "s": ("d", display_size(info)), "t": ("x", 0), "T": ("x", 0),
        "u": ("d", owner_of(ctx.phone, path)[0]), "U": ("s", owner_of(ctx.phone, path)[1]),
        "x": ("s", mtime), "X": ("d", seconds), "y": ("s", mtime), "Y": ("d", seconds), "z": ("s", mtime),
        "Z": ("d", seconds),
    }
    return table.get(letter, ("s", "?"))


def _format_stat(ctx: CommandContext, fmt: str, name: str, info: os.stat_result) -> str:
    def directive(fmt: str, i: int) -> tuple[str, int]:
        j = i
        while j < len(fmt) and fmt[j] in "-+ #0'123456789.":
            j += 1
        if j >= len(fmt):
            raise ValueError(fmt[i - 1:])
        spec, letter = fmt[i:j].replace("'", ""), fmt[j]
        conversion, value = _stat_field(ctx, letter, name, info)
        return ("%" + spec + conversion) % value if conversion != "s" or spec else str(value), j + 1

    return expand_percent(fmt, directive)


def stat(ctx: CommandContext, argv: list[str]) -> int:
    """``stat [-tL] [-c FORMAT] FILE...``."""
    flags, values, operands = parse_flags(argv, "tLf", "c")
    if not operands:
        return ctx.fail("stat", "Needs 1 argument")
    fmt = values.get("c") or (_STAT_TERSE if "t" in flags else _STAT_DEFAULT)
    status = 0
    for name in operands:
        host = ctx.host(name)
        try:
            info = ctx.stat(host, follow_symlinks="L" in flags)
        except OSError as error:
            status = ctx.fail("stat", f"'{name}': {strerror(error)}")
            continue
        try:
            ctx.out(_format_stat(ctx, fmt, name, info) + "\n")
        except (ValueError, TypeError):
            return ctx.fail("stat", f"bad {fmt}")
    return status


# ----- chmod, chown, restorecon --------------------------------------------------------------------------------
def _parse_mode(spec: str, current: int, is_dir: bool) -> int:
    """Octal or symbolic (``u+x,go-w``) mode, as toybox ``string_to_mode``; raises ``ValueError``."""
    if spec and all(c in "01234567" for c in spec):
        return int(spec, 8)
    mode = current & 0o7777
    for clause in spec.split(","):
        i = 0
        who = 0
        while i < len(clause) and clause[i] in "ugoa":
            who |= {"u": 0o4700, "g": 0o2070, "o": 0o1007, "a": 0o7777}[clause[i]]
            i += 1
        if i >= len(clause) or clause[i] not in "+-=":
            raise ValueError(spec)
        while i < len(clause) and clause[i] in "+-=":
            op = clause[i]
            i += 1
            bits = 0
            while i < len(clause) and clause[i] in "rwxXst":
                bits |= {"r": 0o444, "w": 0o222, "x": 0o111, "X": 0o111 if is_dir or mode & 0o111 else 0,
                         "s": 0o6000, "t": 0o1000}[clause[i]]
                i += 1
            mask = who or 0o7777
            bits &= mask
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                mode = (mode & ~mask) | bits
        if i != len(clause):
            raise ValueError(spec)
    return mode


def _chmod_host(host: Path, spec: str) -> None:
    is_dir = host.is_dir()
    mode = _parse_mode(spec, host.stat().st_mode, is_dir)
    os.chmod(host, mode | (0o700 if is_dir else 0o600))


def chmod(ctx: CommandContext, argv: list[str]) -> int:
    """``chmod [-Rfv] MODE FILE...`` (the owner keeps read/write so the sandbox stays manageable)."""
    args = [a for a in argv[1:] if not (a.startswith("-") and len(a) > 1 and set(a[1:]) <= set("Rfv"))]
    recursive = any(a.startswith("-") and "R" in a for a in argv[1:] if a not in args)
    if len(args) < 2:
        return ctx.fail("chmod", "Needs 2 arguments")
    spec, *names = args
    status = 0
    for name in names:
        host = ctx.host(name)
        if not host.exists():
            status = ctx.fail("chmod", f"{name}: No such file or directory")
            continue
        targets = [host]
        if recursive and host.is_dir():
            targets += [Path(root) / item for root, ds, fs in os.walk(host) for item in ds + fs]
        try:
            for target in targets:
                _chmod_host(target, spec)
        except ValueError:
            return ctx.fail("chmod", f"bad mode '{spec}'")
        except OSError as error:
            status = ctx.fail("chmod", f"{name}: {strerror(error)}")
    return status


def _existing(ctx: CommandContext, command: str, names: list[str]) -> tuple[list[str], int]:
    """The ``names`` that exist, and the exit status after reporting each missing one."""
    found, status = [], 0
    for name in names:
        if ctx.host(name).exists():
            found.append(name)
        else:
            status = ctx.fail(command, f"{name}: No such file or directory")
    return found, status


def chown(ctx: CommandContext, argv: list[str]) -> int:
    """``chown``/``chgrp [-hRfv] OWNER[:GROUP] FILE...``: checks the files exist (ownership is simulated)."""
    args = [a for a in argv[1:] if not a.startswith("-")]
    if len(args) < 2:
        return ctx.fail(argv[0], "Needs 2 arguments")
    return _existing(ctx, argv[0], args[1:])[1]


def restorecon(ctx: CommandContext, argv: list[str]) -> int:
    """``restorecon [-DFnRrv] FILE...``: SELinux labels are not simulated; missing files are reported."""
    return _existing(ctx, "restorecon", [a for a in argv[1:] if not a.startswith("-")])[1]


def realpath(ctx: CommandContext, argv: list[str]) -> int:
    """``realpath FILE...`` (shared-storage aliases resolve to ``/storage/emulated/0``)."""
    found, status = _existing(ctx, "realpath", [a for a in argv[1:] if not a.startswith("-")])
    for name in found:
        ctx.out(ctx.path(name) + "\n")
    return status


COMMANDS = {
    "ls": ls, "cat": cat, "rm": rm, "rmdir": rmdir, "mkdir": mkdir, "cp": cp, "mv": mv, "touch": touch,
    "stat": stat, "chmod": chmod, "chown": chown, "chgrp": chown, "restorecon": restorecon,
    "md5sum": checksum, "sha1sum": checksum, "sha256sum": checksum, "realpath": realpath,
}
