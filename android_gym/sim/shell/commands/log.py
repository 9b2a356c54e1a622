"""``logcat`` (AOSP ``system/logging/logcat/logcat.cpp`` with ``liblog/logprint.cpp``'s formats and filters) and
``log`` (toybox ``toys/android/log.c``), over the phone's log buffers (``system.logd``).

``logcat`` takes ``-b``, ``-c``, ``-d``, ``-s``, ``-t``/``-T`` (a line count), ``-v`` (every format and the
``epoch``/``monotonic``/``usec``/``nsec``/``year``/``zone``/``UTC`` modifiers), ``-e``, ``-m``, ``-D``, ``--pid``,
``--uid`` and filter specs (or ``$ANDROID_LOG_TAGS``). Without ``-d``/``-t`` it keeps running, printing entries
as they are written, for as long as its reader is there (adbd's stream); where nobody takes output as it comes
(the in-process shell, a pipe) it ends after the entries already buffered. File output (``-f``), logd control
(``-g``/``-G``/``-p``/``-P``/``-S``), binary formats and pstore (``-L``) are refused as not simulated.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
import zoneinfo
from dataclasses import dataclass, field

from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.system.logd import BUFFERS, PRIORITIES, LogEntry

_PRIORITY_LETTERS = {value: letter for letter, value in PRIORITIES.items()}
_VERBOSE, _DEBUG, _SILENT = PRIORITIES["V"], PRIORITIES["D"], PRIORITIES["S"]
#: ``logcat``'s buffers when none is named, and ``-b default``.
_DEFAULT_BUFFERS = ("main", "system", "crash", "kernel")
_DEFAULT_ALIAS = ("main", "system", "crash")
_FORMATS = ("brief", "process", "tag", "thread", "raw", "time", "threadtime", "long")
_MODIFIERS = ("color", "descriptive", "epoch", "monotonic", "printable", "uid", "usec", "nsec", "UTC", "year",
              "zone")
#: ``logcat``'s ``Split`` delimiters for ``-b``/``-v`` values, and ``android_log_addFilterString``'s.
_LIST_DELIMITERS = r"[,:; \t\n\r\f]+"
_FILTER_DELIMITERS = r"[ \t,]+"
#: Options taking a value (``getopt_long`` string ``":cdDhLt:T:gG:sQf:r:n:v:b:BSpP:m:e:"``), with long aliases.
_VALUE_OPTIONS = {"-t", "-T", "-f", "-r", "-n", "-v", "-b", "-m", "-e", "-G", "-P", "--pid", "--uid", "--id",
                  "--buffer", "--format", "--regex", "--grep", "--max-count", "--head", "--tail", "--file",
                  "--rotate-count", "--rotate-kbytes"}
_LONG = {"--buffer": "-b", "--format": "-v", "--regex": "-e", "--grep": "-e", "--max-count": "-m", "--head": "-m",
         "--tail": "-t", "--clear": "-c", "--dividers": "-D", "--file": "-f", "--rotate-count": "-n",
         "--rotate-kbytes": "-r", "--binary": "-B", "--last": "-L", "--statistics": "-S", "--help": "-h"}
_NOT_SIMULATED = {"-f", "-r", "-n", "-g", "-G", "-p", "-P", "-S", "-B", "-L", "--proto", "--buffer-size",
                  "--prune", "--id", "--wrap"}


class _Exit(Exception):
    """``error(EXIT_FAILURE, 0, ...)``: ``logcat: <message>`` on stderr, exit 1."""


@dataclass
class _Filter:
    """``AndroidLogFormat``'s filter part: the global priority and the tag rules, newest first."""

    global_priority: int = _VERBOSE
    rules: list[tuple[str, int]] = field(default_factory=list)

    def add(self, expression: str) -> bool:
        """``android_log_addFilterString``; ``False`` for a malformed rule."""
        for rule in filter(None, re.split(_FILTER_DELIMITERS, expression)):
            tag, colon, letter = rule.partition(":")
            if not tag:
                return False
            priority = 1  # ANDROID_LOG_DEFAULT
            if colon:
                priority = _priority_of(letter[:1])
                if priority is None:
                    return False
            if tag == "*":
                self.global_priority = _DEBUG if priority == 1 else priority
            else:
                self.rules.insert(0, (tag, _VERBOSE if priority == 1 else priority))
        return True

    def passes(self, entry: LogEntry) -> bool:
        """``android_log_shouldPrintLine``."""
        minimum = next((priority for tag, priority in self.rules if tag == entry.tag), self.global_priority)
        return entry.priority >= minimum


def _priority_of(letter: str) -> int | None:
    """``filterCharToPri``: a priority letter, ``*`` (default) or a digit; ``None`` when unknown."""
    if letter.isdigit():
        return _VERBOSE if int(letter) >= _SILENT else int(letter)
    if letter == "*":
        return 1
    return PRIORITIES.get(letter.upper()) if letter else None


@dataclass
class _Format:
    """``AndroidLogFormat``'s print part."""

    verb: str = ""
    modifiers: set[str] = field(default_factory=set)

    def set(self, name: str) -> bool:
        """``android_log_setPrintFormat``; ``False`` for an unknown name."""
        if name in _FORMATS:
            self.verb = name
        elif name in _MODIFIERS:
            self.modifiers.add(name)
        else:
            try:
                zoneinfo.ZoneInfo(name)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                return False
            self.modifiers.add(f"zone:{name}")
        return True

    def line(self, entry: LogEntry, boot_ms: int, zone: dt.tzinfo) -> str:
        """``android_log_formatLogLine``: one prefixed line per line of the message."""
        stamp = self._time(entry, boot_ms, zone)
        letter = _PRIORITY_LETTERS.get(entry.priority, "?")
        tag, pid, tid = entry.tag, entry.pid, entry.tid
        uid = f"{entry.uid:>5} " if "uid" in self.modifiers else ""
        prefix, suffix = {
            "brief": (f"{letter}/{tag:<8}({uid}{pid:>5}): ", ""),
            "process": (f"{letter}({uid}{pid:>5}) ", f"  ({tag})"),
            "tag": (f"{letter}/{tag:<8}: ", ""),
            "thread": (f"{letter}({uid}{pid:>5}:{tid:>5}) ", ""),
            "raw": ("", ""),
            "time": (f"{stamp} {letter}/{tag:<8}({uid}{pid:>5}): ", ""),
            "threadtime": (f"{stamp} {uid}{pid:>5} {tid:>5} {letter} {tag:<8}: ", ""),
        }.get(self.verb, ("", ""))
        if self.verb == "long":
            return f"[ {stamp} {uid}{pid:>5}:{tid:>5} {letter}/{tag:<8} ]\n{entry.message}\n\n"
        return "".join(f"{prefix}{text}{suffix}\n" for text in entry.message.split("\n"))

    def _time(self, entry: LogEntry, boot_ms: int, zone: dt.tzinfo) -> str:
        if "monotonic" in self.modifiers:
            ms = max(0, entry.time_ms - boot_ms)
            head = f"{ms // 1000:>6}"
        else:
            ms = entry.time_ms
            if "epoch" in self.modifiers:
                head = f"{ms // 1000:>19}"
            else:
                named = next((m[5:] for m in self.modifiers if m.startswith("zone:")), None)
                tz = dt.timezone.utc if "UTC" in self.modifiers else zoneinfo.ZoneInfo(named) if named else zone
                when = dt.datetime.fromtimestamp(ms / 1000, tz)
                head = when.strftime("%Y-%m-%d %H:%M:%S" if "year" in self.modifiers else "%m-%d %H:%M:%S")
        fraction = ms % 1000
        if "nsec" in self.modifiers:
            head += f".{fraction * 1_000_000:09d}"
        elif "usec" in self.modifiers:
            head += f".{fraction * 1000:06d}"
        else:
            head += f".{fraction:03d}"
        if "zone" in self.modifiers and "epoch" not in self.modifiers and "monotonic" not in self.modifiers:
            head += " " + dt.datetime.fromtimestamp(ms / 1000, zone).strftime("%z")
        return head


@dataclass
class _Options:
    buffers: set[str] = field(default_factory=set)
    clear: bool = False
    dump: bool = False
    tail: int = 0
    regex: re.Pattern[str] | None = None
    max_count: int = 0
    dividers: bool = False
    pid: int = 0
    uids: set[int] = field(default_factory=set)
    format: _Format = field(default_factory=_Format)
    filters: _Filter = field(default_factory=_Filter)


def _parse(ctx: CommandContext, args: list[str]) -> _Options:
    """``Logcat::Run``'s option loop; raises ``_Exit``."""
    options = _Options()
    operands: list[str] = []
    queue = list(args)
    while queue:
        arg = queue.pop(0)
        if arg == "--":
            operands += queue
            break
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
            continue
        name, equals, inline = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
        if not arg.startswith("--") and inline and name not in _VALUE_OPTIONS:
            queue.insert(0, "-" + inline)  # bundled flags: -dv → -d -v
            inline = ""
        value = inline or None
        if name in _VALUE_OPTIONS and value is None:
            if not queue:
                raise _Exit(f"Option '{arg}' needs an argument.")
            value = queue.pop(0)
        name = _LONG.get(name, name)
        if name in _NOT_SIMULATED:
            raise _Exit(f"'{arg}' is not simulated by android_gym's phone.")
        if name == "-s":
            options.filters.add("*:s")
        elif name == "-c":
            options.clear = True
        elif name == "-d":
            options.dump = True
        elif name in ("-t", "-T"):
            options.dump |= name == "-t"
            if not value.isdigit():
                raise _Exit(f"{name} '{value}' is not simulated: give a line count.")
            if int(value) < 1:
                ctx.err(f"WARNING: {name} {value} invalid, setting to 1\n")
            options.tail = max(1, int(value))
        elif name == "-D":
            options.dividers = True
        elif name == "-e":
            try:
                options.regex = re.compile(value)
            except re.error as error:
                raise _Exit(f"bad regex '{value}': {error}") from error
        elif name == "-m":
            if not value.isdigit() or int(value) < 1:
                raise _Exit(f"-m '{value}' isn't an integer greater than zero.")
            options.max_count = int(value)
        elif name == "-b":
            for buffer in filter(None, re.split(_LIST_DELIMITERS, value)):
                if buffer == "default":
                    options.buffers.update(_DEFAULT_ALIAS)
                elif buffer == "all":
                    options.buffers.update(BUFFERS)
                elif buffer in BUFFERS:
                    options.buffers.add(buffer)
                else:
                    raise _Exit(f"Unknown -b buffer '{buffer}'.")
        elif name == "-v":
            for verb in filter(None, re.split(_LIST_DELIMITERS, value)):
                if not options.format.set(verb):
                    raise _Exit(f"Invalid -v '{verb}'.")
        elif name == "--pid":
            if not value.isdigit() or int(value) < 1:
                raise _Exit(f"pid '{value}' out of range.")
            options.pid = int(value)
        elif name == "--uid":
            for uid in filter(None, re.split(_LIST_DELIMITERS, value)):
                if not uid.isdigit():
                    raise _Exit(f"Unable to parse UID '{uid}'")
                options.uids.add(int(uid))
        elif name == "--print":
            continue
        else:
            raise _Exit(f"Unknown option '{arg}'.")
    if not options.format.verb:
        options.format.verb = "threadtime"
    if operands:
        for spec in operands:
            if not options.filters.add(spec):
                raise _Exit(f"Invalid filter expression '{spec}'.")
    elif "ANDROID_LOG_TAGS" in ctx.env and not options.filters.add(ctx.env["ANDROID_LOG_TAGS"]):
        raise _Exit(f"Invalid filter expression '{ctx.env['ANDROID_LOG_TAGS']}' in ANDROID_LOG_TAGS.")
    options.buffers = options.buffers or set(_DEFAULT_BUFFERS)
    return options


class _Printer:
    """Prints entries as ``Logcat::ProcessBuffer`` does: filters, regex, dividers, ``-m``."""

    def __init__(self, ctx: CommandContext, options: _Options) -> None:
        self.ctx = ctx
        self.options = options
        self.printed = 0
        self.last_buffer = ""
        self.started: set[str] = set()
        zone_name = ctx.phone.props.get("persist.sys.timezone") or "UTC"
        try:
            self.zone: dt.tzinfo = zoneinfo.ZoneInfo(zone_name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            self.zone = dt.timezone.utc

    @property
    def done(self) -> bool:
        return bool(self.options.max_count) and self.printed >= self.options.max_count

    def print(self, entries: list[LogEntry]) -> None:
        options = self.options
        for entry in entries:
            if self.done:
                return
            if options.uids and entry.uid not in options.uids:
                continue
            if not options.filters.passes(entry):
                continue
            if options.regex is not None and not options.regex.search(entry.message):
                continue
            self.printed += 1
            if entry.buffer != self.last_buffer:
                if entry.buffer not in self.started or options.dividers:
                    verb = "switch to" if entry.buffer in self.started else "beginning of"
                    self.ctx.out(f"--------- {verb} {entry.buffer}\n")
                self.last_buffer = entry.buffer
                self.started.add(entry.buffer)
            self.ctx.out(options.format.line(entry, self.ctx.phone.logs.boot_ms, self.zone))


def logcat(ctx: CommandContext, argv: list[str]) -> int:
    """``logcat [OPTION]... [FILTERSPEC]...``."""
    if argv[1:] in (["--help"], ["-h"]):
        ctx.out("Usage: logcat [OPTION]... [FILTERSPEC]...\n")
        return 0
    try:
        options = _parse(ctx, argv[1:])
    except _Exit as error:
        return ctx.fail("logcat", str(error))
    logs = ctx.phone.logs
    buffers = [name for name in BUFFERS if name in options.buffers]
    if options.clear:
        logs.clear(buffers)
        return 0
    printer = _Printer(ctx, options)
    entries = [e for e in logs.entries(buffers) if not options.pid or e.pid == options.pid]
    last = entries[-1].seq if entries else 0
    if options.tail:
        entries = entries[-options.tail:]
    printer.print(entries)
    if options.dump or printer.done:
        return 0
    event = threading.Event()
    logs.watch(event)
    try:
        while ctx.follow(event):
            event.clear()
            fresh = [e for e in logs.entries(buffers, after=last) if not options.pid or e.pid == options.pid]
            if fresh:
                last = fresh[-1].seq
                printer.print(fresh)
            if printer.done:
                break
    finally:
        logs.unwatch(event)
    return 0


def log(ctx: CommandContext, argv: list[str]) -> int:
    """``log [-p PRI] [-t TAG] [MESSAGE...]``: one entry of the words joined by spaces (cut at 1024 bytes), or one
    per line of standard input followed by an empty one, as toybox's ``log_main`` writes them."""
    tag, priority_text, words = "log", None, []
    queue = list(argv[1:])
    while queue:
        arg = queue.pop(0)
        if arg == "--":
            words += queue
            break
        if arg in ("-p", "-t") or (arg[:2] in ("-p", "-t") and len(arg) > 2):
            value = arg[2:] or (queue.pop(0) if queue else None)
            if value is None:
                return ctx.fail("log", f"Missing argument to -{arg[1]}")
            if arg[1] == "t":
                tag = value
            else:
                priority_text = value
        elif arg.startswith("-") and len(arg) > 1:
            return ctx.fail("log", f"Unknown option '{arg[1:]}' (see \"log --help\")")
        else:
            words.append(arg)
    priority = PRIORITIES["I"]
    if priority_text is not None:
        if len(priority_text) != 1 or priority_text.lower() not in "defisvw":
            return ctx.fail("log", f"bad -p '{priority_text}'")
        priority = PRIORITIES[priority_text.upper()]
    logs = ctx.phone.logs
    pid = logs.new_pid()
    if words:
        message = " ".join(words)
        if len(message.encode()) >= 1024:
            message = message.encode()[:1024].decode("utf-8", "ignore")
            ctx.err("log: log cut at 1024 bytes\n")
        logs.write(priority, tag, message, pid=pid, uid=0)
        return 0
    for line in ctx.stdin.decode("utf-8", "replace").splitlines():
        logs.write(priority, tag, line, pid=pid, uid=0)
    logs.write(priority, tag, "", pid=pid, uid=0)
    return 0


COMMANDS = {"logcat": logcat, "log": log}
