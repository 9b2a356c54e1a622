"""System commands: getprop/setprop (AOSP ``toolbox``/``init``), date, id, whoami, uname, sleep, true/false,
env/printenv, basename/dirname, test/[, sh, su, nohup/timeout, xargs (toybox).

``date`` reads and sets the phone's virtual clock; ``sleep`` advances it instantly (device time passes, host
time does not). The phone's zone is UTC (``persist.sys.timezone``).
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import posixpath
import re
import shlex
import stat
from collections.abc import Callable

from android_gym.sim.shell.commands.base import CommandContext, expand_percent, parse_flags, unknown_option

# ----- date parsing and formatting (toybox lib/xwrap.c xparsedate, toys/posix/date.c) ---------------------------
_UTC = dt.timezone.utc
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_TZ = r"\s*(Z|[+-]\d{1,2}(?::?\d{2})?)?\s*$"
_FRACTION = r"(?:\.(\d{1,2})(\d*))?"
_UNIX_TIME = re.compile(r"@(-?\d+)(?:\.(\d+))?")


def _year2(yy: str) -> int:
    """``%y``: 69-99 are the 1900s, 00-68 the 2000s (bionic/glibc strptime)."""
    value = int(yy)
    return 1900 + value if value >= 69 else 2000 + value


def _offset(text: str | None) -> int:
    """Seconds east of UTC of ``Z``, ``+HH``, ``+HHMM`` or ``+HH:MM``."""
    if not text or text == "Z":
        return 0
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = (int(digits[:-2]), int(digits[-2:])) if len(digits) > 2 else (int(digits), 0)
    return sign * (hours * 3600 + minutes * 60)


@functools.cache
def _date_patterns(endian: bool) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The date forms ``parse_date`` tries, in order, compiled (with an optional zone): each with the fields its
    groups hold."""
    return tuple((re.compile(pattern + _TZ), fields) for pattern, fields in (
        (r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{1,2}):(\d{1,2})" + r"(?:\.(\d+))?", "YmdHMS"),
        (r"[A-Za-z]{3} ([A-Za-z]{3}) +(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2}) [A-Za-z]+ (\d{4})", "bdHMSY"),
        (r"(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d+))?", "HMS"),
        (r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{1,2})" + _FRACTION, "YmdHM"),
        (r"(\d{4})-(\d{1,2})-(\d{1,2})", "Ymd"),
        (r"(\d{1,2}):(\d{1,2})" + _FRACTION, "HM"),
        (r"(\d{2})(\d{2})(\d{2})(\d{2})" + _FRACTION, "mdHM"),
        ((r"(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})" if endian else r"(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})") + _FRACTION,
         "mdHMy" if endian else "ymdHM"),
        ((r"(\d{2})(\d{2})(\d{2})(\d{2})(\d{4})" if endian else r"(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})") + _FRACTION,
         "mdHMY" if endian else "YmdHM"),
    ))


def parse_date(text: str, now_s: float, endian: bool = True) -> float:
    """Epoch seconds of a toybox date string: ``@UNIXTIME``, ``YYYY-MM-DD[ T]hh:mm[:ss]``, ``hh:mm[:ss]``,
    the ``date`` output format, and ``MMDDhhmm[[CC]YY][.ss]`` (``endian``, as ``date``) or
    ``[[CC]YY]MMDDhhmm[.ss]`` (as ``touch -t``). Missing date parts come from ``now``; raises ``ValueError``."""
    text = text.strip()
    match = _UNIX_TIME.fullmatch(text)
    if match:
        return int(match.group(1)) + float("0." + (match.group(2) or "0"))
    fields, second, fraction, offset = _date_fields(text, endian)
    today = dt.datetime.fromtimestamp(now_s, _UTC)
    values = {"Y": today.year, "m": today.month, "d": today.day, "H": 0, "M": 0, **fields}
    try:
        when = dt.datetime(values["Y"], values["m"], values["d"], values["H"], values["M"], min(second, 59),
                           tzinfo=_UTC)
    except ValueError:
        raise ValueError(text) from None
    if not (0 <= values["H"] <= 23 and 0 <= values["M"] <= 59 and 0 <= second <= 60):
        raise ValueError(text)
    return when.timestamp() - offset + float("0." + (fraction or "0"))


@functools.lru_cache(maxsize=64)
def _date_fields(text: str, endian: bool) -> tuple[dict[str, int], int, str, int]:
    """What the stripped date string ``text`` (not ``@UNIXTIME``) gives, worked out once per text (a reset sets the
    same time each time): the fields it names (``Y`` year, ``m`` month, ``d`` day, ``H`` hour, ``M`` minute; a
    mapping not to be changed), the seconds, their fraction's digits and the zone's offset; ``ValueError`` when it
    is no date."""
    for pattern, names in _date_patterns(endian):
        match = pattern.fullmatch(text)
        if not match:
            continue
        groups = match.groups()
        fields: dict[str, int] = {}
        second = 0
        for name, value in zip(names, groups):
            if name == "y":
                fields["Y"] = _year2(value)
            elif name == "b":
                if value.lower() not in _MONTHS:
                    raise ValueError(text)
                fields["m"] = _MONTHS.index(value.lower()) + 1
            elif name == "S":
                second = int(value)
            else:
                fields[name] = int(value)
        extra = [g for g in groups[len(names):-1]]
        fraction = ""
        if "S" in names:
            fraction = extra[0] or "" if extra else ""
        elif len(extra) >= 2 and extra[0] is not None:
            second, fraction = int(extra[0]), extra[1] or ""
        return fields, second, fraction, _offset(groups[-1])
    raise ValueError(text)


@functools.lru_cache(maxsize=256)
def format_time(fmt: str, seconds: float) -> str:
    """strftime in UTC plus toybox's ``%N`` (nanoseconds, ``%3N`` for fewer digits), ``%:z`` and ``%s``. Remembered
    per format and time (a reset sets the same device time each time, and ``date`` prints it)."""
    when = dt.datetime.fromtimestamp(seconds, _UTC)
    special = {"N": lambda: f"{round(seconds % 1 * 1e9):09d}", "s": lambda: str(int(seconds // 1)),
               "e": lambda: f"{when.day:2d}", "k": lambda: f"{when.hour:2d}",
               "l": lambda: f"{(when.hour % 12) or 12:2d}", "Z": lambda: "UTC", "z": lambda: "+0000",
               "P": lambda: when.strftime("%p").lower(), "n": lambda: "\n", "t": lambda: "\t"}

    def directive(fmt: str, i: int) -> tuple[str, int]:
        nxt = fmt[i]
        if nxt.isdigit() and fmt[i + 1:i + 2] == "N":
            return f"{round(seconds % 1 * 1e9):09d}"[:int(nxt)], i + 2
        if fmt.startswith(":z", i):
            return "+00:00", i + 2
        if nxt in special:
            return special[nxt](), i + 1
        if nxt.isalpha():
            return when.strftime("%" + nxt), i + 1
        return "%" + nxt, i + 1

    return expand_percent(fmt, directive)


DATE_FORMAT = "%a %b %e %H:%M:%S %Z %Y"


def date(ctx: CommandContext, argv: list[str]) -> int:
    """``date [-u] [-I RES] [-r FILE] [-d DATE] [-s DATE] [+FORMAT] [MMDDhhmm[[CC]YY][.ss]]``."""
    args = argv[1:]
    fmt = DATE_FORMAT
    show: str | None = None
    setting: str | None = None
    reference: str | None = None
    positional: list[str] = []
    while args:
        arg = args.pop(0)
        if arg in ("-u", "--utc"):
            continue
        if arg in ("-d", "-s", "-r", "-D") and args:
            value = args.pop(0)
            if arg == "-d":
                show = value
            elif arg == "-s":
                setting = value
            elif arg == "-r":
                reference = value
            continue
        if arg.startswith("-I"):
            res = arg[2:] or "d"
            formats = {"d": "%F", "h": "%FT%H%:z", "m": "%FT%R%:z", "s": "%FT%T%:z", "n": "%FT%T,%N%:z"}
            if res not in formats:
                return ctx.fail("date", f"bad -I: {res}")
            fmt = formats[res]
            continue
        if arg.startswith("-") and len(arg) > 1 and not arg[1].isdigit():
            return unknown_option(ctx, "date", arg[1])
        positional.append(arg)
    now_s = ctx.now_ms() / 1000
    for arg in positional:
        if arg.startswith("+"):
            fmt = arg[1:]
        elif setting is None:
            setting = arg
        else:
            return ctx.fail("date", "can't set two dates at once")
    try:
        if show is not None:
            when = parse_date(show, now_s)
        elif reference is not None:
            when = ctx.host(reference).stat().st_mtime
        else:
            when = now_s
        if setting is not None:
            when = parse_date(setting, now_s)
            ctx.phone.clock.set(round(when * 1000))  # a frame showing the time redraws itself (WindowManager.frame)
    except ValueError:
        return ctx.fail("date", f"bad date {setting if setting is not None else show}")
    except OSError as error:
        return ctx.fail("date", f"{reference}: {error.strerror}")
    ctx.out(format_time(fmt, when) + "\n")
    return 0


def _date_only_shows(argv: list[str]) -> bool:
    """Whether ``date`` with ``argv`` only prints a time: no ``-s DATE`` and no ``MMDDhhmm[[CC]YY][.ss]`` to set the
    clock to (``date +%s`` and the like, which tasks ask after every step)."""
    args = iter(argv[1:])
    for arg in args:
        if arg == "-s":
            return False
        if arg in ("-d", "-r", "-D"):
            next(args, None)
        elif not (arg.startswith("+") or (arg.startswith("-") and len(arg) > 1 and not arg[1].isdigit())):
            return False
    return True


# ----- properties --------------------------------------------------------------------------------------------
def getprop(ctx: CommandContext, argv: list[str]) -> int:
    """``getprop [KEY [DEFAULT]]``: all properties as ``[key]: [value]`` lines, or one value."""
    props = ctx.phone.props
    args = [a for a in argv[1:] if not a.startswith("-")]
    if not args:
        ctx.out("".join(f"[{key}]: [{props[key]}]\n" for key in sorted(props)))
        return 0
    ctx.out(props.get(args[0], args[1] if len(args) > 1 else "") + "\n")
    return 0


#: init's services whose restart restarts the Java framework (``init.zygote64_32.rc``: zygote, zygote_secondary).
_FRAMEWORK_SERVICES = ("zygote", "zygote_secondary")


def setprop(ctx: CommandContext, argv: list[str]) -> int:
    """``setprop KEY VALUE``; read-only (``ro.``) properties can be set once. ``ctl.`` properties are init's
    controls and are not stored: ``ctl.restart zygote`` restarts the Java framework (other services' controls are
    accepted and change nothing)."""
    if len(argv) != 3:
        return ctx.fail("setprop", "Need 2 arguments")
    key, value = argv[1], argv[2]
    if key.startswith("ctl."):
        if key == "ctl.restart" and value in _FRAMEWORK_SERVICES:
            ctx.phone.restart_framework()
        return 0
    if key.startswith("ro.") and key in ctx.phone.props:
        ctx.err(f"Failed to set property '{key}' to '{value}'.\nSee dmesg for error reason.\n")
        return 1
    ctx.phone.props[key] = value
    return 0


# ----- identity --------------------------------------------------------------------------------------------
# AID values from AOSP system/core/libcutils/include/private/android_filesystem_config.h.
_ROOT_GROUPS = ("0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),"
                "1079(ext_obb_rw),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
                "3011(uhid),3012(readtracefs)")


def id_command(ctx: CommandContext, argv: list[str]) -> int:
    """``id [-Ggnu]`` of adbd running as root."""
    flags, _, _ = parse_flags(argv, "GgnuZ")
    if "u" in flags or "g" in flags:
        ctx.out("root\n" if "n" in flags else "0\n")
    elif "G" in flags:
        groups = [g.split("(") for g in _ROOT_GROUPS.split(",")]
        ctx.out(" ".join(name.rstrip(")") if "n" in flags else number for number, name in groups) + "\n")
    elif "Z" in flags:
        ctx.out("u:r:su:s0\n")
    else:
        ctx.out(f"uid=0(root) gid=0(root) groups={_ROOT_GROUPS} context=u:r:su:s0\n")
    return 0


def whoami(ctx: CommandContext, argv: list[str]) -> int:
    """``whoami``."""
    ctx.out("root\n")
    return 0


def uname(ctx: CommandContext, argv: list[str]) -> int:
    """``uname [-amnorsv]`` of the API-33 x86_64 emulator kernel."""
    fields = {"s": "Linux", "n": "localhost", "r": "5.15.41-android13-8-00055-g4f5025129fe8-ab8949913",
              "v": "#1 SMP PREEMPT Mon Aug 15 18:33:14 UTC 2022", "m": "x86_64", "o": "Toybox"}
    flags, _, _ = parse_flags(argv, "asnrvmpo")
    order = "snrvmo" if "a" in flags else "".join(k for k in "snrvmo" if k in flags) or "s"
    ctx.out(" ".join(fields[k] for k in order) + "\n")
    return 0


def true(ctx: CommandContext, argv: list[str]) -> int:
    """``true``."""
    return 0


def false(ctx: CommandContext, argv: list[str]) -> int:
    """``false``."""
    return 1


def sleep(ctx: CommandContext, argv: list[str]) -> int:
    """``sleep DURATION...`` (``[.0-9]+[smhd]``): advances the virtual clock; never blocks. Nothing is redrawn
    for it: a frame that shows the time is rebuilt when its unit of time turns (``WindowManager.frame``)."""
    if len(argv) < 2:
        return ctx.fail("sleep", "Needs 1 argument")
    total = 0.0
    for arg in argv[1:]:
        match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", arg)
        if not match:
            return ctx.fail("sleep", f"bad duration '{arg}'")
        total += float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
    ctx.phone.clock.advance(round(total * 1000))
    return 0


def env(ctx: CommandContext, argv: list[str]) -> int:
    """``env``/``printenv [NAME...]``."""
    names = argv[1:]
    if argv[0] == "env" and names:
        assignments = {}
        while names and "=" in names[0]:
            key, _, value = names.pop(0).partition("=")
            assignments[key] = value
        if names:
            return ctx.run_argv(names)
        ctx.out("".join(f"{k}={v}\n" for k, v in sorted({**ctx.env, **assignments}.items())))
        return 0
    if not names:
        ctx.out("".join(f"{k}={v}\n" for k, v in sorted(ctx.env.items())))
        return 0
    found = [ctx.env[name] for name in names if name in ctx.env]
    ctx.out("".join(value + "\n" for value in found))
    return 0 if len(found) == len(names) else 1


def basename(ctx: CommandContext, argv: list[str]) -> int:
    """``basename PATH [SUFFIX]``."""
    if len(argv) < 2:
        return ctx.fail("basename", "Needs 1 argument")
    name = posixpath.basename(argv[1].rstrip("/")) or ("/" if argv[1].startswith("/") else "")
    if len(argv) > 2 and name != argv[2] and name.endswith(argv[2]):
        name = name[:-len(argv[2])]
    ctx.out(name + "\n")
    return 0


def dirname(ctx: CommandContext, argv: list[str]) -> int:
    """``dirname PATH``."""
    if len(argv) < 2:
        return ctx.fail("dirname", "Needs 1 argument")
    path = argv[1].rstrip("/") or "/"
    ctx.out((posixpath.dirname(path).rstrip("/") or ("/" if path.startswith("/") else ".")) + "\n")
    return 0


# ----- test ------------------------------------------------------------------------------------------------
#: ``test``'s file operators that read the file's ``stat`` (following links), each as a test of it; a missing file
#: fails them all. ``-r`` and ``-w`` hold for every file (the shell runs as root).
_STAT_TESTS: dict[str, Callable[[os.stat_result], bool]] = {
    "-e": lambda info: True, "-r": lambda info: True, "-w": lambda info: True,
    "-f": lambda info: stat.S_ISREG(info.st_mode), "-d": lambda info: stat.S_ISDIR(info.st_mode),
    "-s": lambda info: stat.S_ISREG(info.st_mode) and info.st_size > 0,
    "-x": lambda info: stat.S_ISDIR(info.st_mode) or (stat.S_ISREG(info.st_mode) and bool(info.st_mode & 0o111)),
    "-p": lambda info: False, "-S": lambda info: False, "-b": lambda info: False, "-c": lambda info: False}


def _test_unary(ctx: CommandContext, op: str, arg: str) -> bool:
    if op == "-n":
        return arg != ""
    if op == "-z":
        return arg == ""
    host = os.fspath(ctx.host(arg))
    if op in ("-L", "-h"):
        return os.path.islink(host)
    try:
        info = os.stat(host)
    except (OSError, ValueError):  # missing, or a path no file can have
        return False
    return _STAT_TESTS[op](info)


_UNARY = frozenset({"-n", "-z", "-e", "-f", "-d", "-L", "-h", "-s", "-r", "-w", "-x", "-p", "-S", "-b", "-c"})
_BINARY = frozenset({"=", "==", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "<", ">"})


class _TestError(Exception):
    """A malformed ``test`` expression."""


def _test_binary(left: str, op: str, right: str) -> bool:
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in ("<", ">"):
        return left < right if op == "<" else left > right
    numbers = []
    for value in (left, right):
        if not re.fullmatch(r"\s*[-+]?\d+\s*", value):
            raise _TestError(f"bad int '{value}'")
        numbers.append(int(value))
    a, b = numbers
    return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]


def _test_expr(ctx: CommandContext, args: list[str]) -> bool:
    """POSIX ``test`` with ``!``, ``-a``, ``-o`` and parentheses."""
    if len(args) > 3:
        for op in ("-o", "-a"):
            depth = 0
            for index, arg in enumerate(args):
                depth += (arg == "(") - (arg == ")")
                if arg == op and depth == 0 and 0 < index < len(args) - 1:
                    left, right = _test_expr(ctx, args[:index]), _test_expr(ctx, args[index + 1:])
                    return (left or right) if op == "-o" else (left and right)
    if not args:
        return False
    if len(args) == 1:
        return args[0] != ""
    if len(args) == 3 and args[1] in _BINARY:
        return _test_binary(args[0], args[1], args[2])
    if len(args) == 3 and args[1] in ("-a", "-o"):
        left, right = args[0] != "", args[2] != ""
        return (left or right) if args[1] == "-o" else (left and right)
    if args[0] == "!":
        return not _test_expr(ctx, args[1:])
    if args[0] == "(" and args[-1] == ")":
        return _test_expr(ctx, args[1:-1])
    if len(args) == 2 and args[0] in _UNARY:
        return _test_unary(ctx, args[0], args[1])
    raise _TestError(f"unknown operand '{args[1] if len(args) > 1 else args[0]}'")


def test(ctx: CommandContext, argv: list[str]) -> int:
    """``test EXPR`` / ``[ EXPR ]``: status 0 true, 1 false, 2 error."""
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            return ctx.fail("[", "missing ]", 2)
        args = args[:-1]
    try:
        return 0 if _test_expr(ctx, args) else 1
    except _TestError as error:
        return ctx.fail(argv[0], str(error), 2)


# ----- running other commands ---------------------------------------------------------------------------------
def sh(ctx: CommandContext, argv: list[str]) -> int:
    """``sh -c SCRIPT`` / ``sh FILE`` / ``sh`` (script on stdin): a child shell."""
    args = argv[1:]
    if args and args[0] == "-c":
        return ctx.run_script(args[1]) if len(args) > 1 else ctx.fail(argv[0], "-c: option requires an argument")
    if args:
        try:
            script = ctx.host(args[0]).read_text()
        except OSError:
            return ctx.fail(f"{argv[0]}: {args[0]}", "No such file or directory", 127)
        return ctx.run_script(script)
    return ctx.run_script(ctx.stdin.decode("utf-8", "replace"))


def su(ctx: CommandContext, argv: list[str]) -> int:
    """``su [UID [COMMAND...]]`` (AOSP ``system/extras/su``) and ``su -c SCRIPT``: adbd is already root."""
    args = argv[1:]
    if args and args[0] == "-c":
        return ctx.run_script(" ".join(args[1:]))
    if args and (args[0].isdigit() or args[0] in ("root", "shell", "system")):
        args = args[1:]
        if args and args[0].isdigit():
            args = args[1:]
    if not args:
        return ctx.run_script(ctx.stdin.decode("utf-8", "replace"))
    return ctx.run_argv(args)


def nohup(ctx: CommandContext, argv: list[str]) -> int:
    """``nohup COMMAND...``, ``timeout [-s SIG] DURATION COMMAND...``, ``time COMMAND...``: run the command."""
    args = argv[1:]
    if argv[0] == "timeout":
        while args and args[0].startswith("-"):
            args = args[2:] if args[0] in ("-s", "-k") else args[1:]
        args = args[1:]
    return ctx.run_argv(args) if args else ctx.fail(argv[0], "Needs 1 argument")


def xargs(ctx: CommandContext, argv: list[str]) -> int:
    """``xargs [-0r] [-n N] [-I STR] [COMMAND [ARG...]]``."""
    args = argv[1:]
    null, per_call, replace = False, 0, None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        opt = args.pop(0)
        if opt == "-0":
            null = True
        elif opt in ("-n", "-I") and args:
            if opt == "-n":
                count = args.pop(0)
                if not count.isdigit():
                    return ctx.fail("xargs", f"bad -n '{count}'")
                per_call = int(count)
            else:
                replace = args.pop(0)
        elif opt.startswith("-n") and opt[2:].isdigit():
            per_call = int(opt[2:])
        elif opt not in ("-r", "-t"):
            return unknown_option(ctx, "xargs", opt[1:])
    command = args or ["echo"]
    data = ctx.stdin.decode("utf-8", "replace")
    try:
        items = ([item for item in data.split("\0") if item] if null else
                 [line for line in data.splitlines() if line] if replace else shlex.split(data))
    except ValueError:
        return ctx.fail("xargs", "unmatched quote")
    if not items:
        return 0
    status = 0
    if replace is not None:
        batches = [[part.replace(replace, item) for part in command] for item in items]
    else:
        size = per_call or len(items)
        batches = [command + items[i:i + size] for i in range(0, len(items), size)]
    for batch in batches:
        if ctx.run_argv(batch) != 0:
            status = 123
    return status


#: Command lines of these commands that only read the device (the screen stays as it was after them).
READS_ONLY = {"date": _date_only_shows}

COMMANDS = {
    "date": date, "getprop": getprop, "setprop": setprop, "id": id_command, "whoami": whoami, "uname": uname,
    "true": true, "false": false, "sleep": sleep, "env": env, "printenv": env, "basename": basename,
    "dirname": dirname, "test": test, "[": test, "sh": sh, "mksh": sh, "su": su, "nohup": nohup,
    "timeout": nohup, "time": nohup, "xargs": xargs,
}
