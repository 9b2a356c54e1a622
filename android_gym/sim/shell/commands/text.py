"""Text commands: echo (mksh's builtin: escapes on by default), printf, grep, head, tail, wc, sort, uniq, cut, tr,
tee, seq (toybox ``toys/posix``). Files are read through the sandbox; ``-`` or no file reads stdin.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from android_gym.sim.shell.commands.base import CommandContext, parse_flags, strerror, unknown_option
from android_gym.sim.shell.errors import check_size
from android_gym.sim.system.fs import read_host

_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\"}


def _unescape(text: str, printf_style: bool = False) -> tuple[str, bool]:
    """Backslash escapes as mksh ``echo``/``print`` (``\\0NNN`` octal) or ``printf`` (``\\NNN``, ``\\xHH``);
    returns ``(text, stop)`` where ``stop`` means ``\\c`` ended the output."""
    if "\\" not in text:  # most text (a task's file contents): nothing to replace, not walked character by character
        return text, False
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt == "c":
            return "".join(out), True
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
            continue
        octal = re.match(r"0[0-7]{0,3}" if not printf_style else r"[0-7]{1,3}", text[i + 1:])
        if octal:
            digits = octal.group()
            out.append(chr(int(digits, 8) & 0xFF))
            i += 1 + len(digits)
            continue
        hexa = re.match(r"x[0-9a-fA-F]{1,2}", text[i + 1:]) if printf_style else None
        if hexa:
            out.append(chr(int(hexa.group()[1:], 16)))
            i += 1 + len(hexa.group())
            continue
        out.append(c)
        i += 1
    return "".join(out), False


def echo(ctx: CommandContext, argv: list[str]) -> int:
    """mksh ``echo [-neE] ARG...``: backslash escapes are interpreted unless ``-E``."""
    ctx.out(echo_text(argv[1:]))
    return 0


def echo_text(args: Sequence[str]) -> str:
    """What ``echo ARGS`` prints (``echo``)."""
    args = list(args)
    newline, escapes = True, True
    while args and re.fullmatch(r"-[neE]+", args[0]):
        for flag in args.pop(0)[1:]:
            if flag == "n":
                newline = False
            else:
                escapes = flag == "e"
    text = " ".join(args)
    if escapes:
        text, stop = _unescape(text)
        if stop:
            newline = False
    return text + ("\n" if newline else "")


# ----- printf ----------------------------------------------------------------------------------------------
_CONVERSION = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXeEfgGcsb%])")


def _number(ctx: CommandContext, text: str, integer: bool) -> int | float:
    if text[:1] in ("'", '"'):
        return ord(text[1]) if len(text) > 1 else 0
    try:
        return int(text, 0) if integer else float(text)
    except ValueError:
        try:
            return int(float(text)) if integer else float(int(text, 0))
        except ValueError:
            ctx.err(f"printf: invalid number '{text}'\n")
            return 0


def printf(ctx: CommandContext, argv: list[str]) -> int:
    """``printf FORMAT [ARG...]`` (the format is reused while arguments remain)."""
    if len(argv) < 2:
        return ctx.fail("printf", "Needs 1 argument")
    fmt, args = argv[1], argv[2:]
    errors_before = len(ctx.stderr)
    while True:
        consumed = 0
        pos = 0
        for match in _CONVERSION.finditer(fmt):
            text, stop = _unescape(fmt[pos:match.start()], printf_style=True)
            ctx.out(text)
            if stop:
                return 0
            pos = match.end()
            flags, width, precision, conv = match.groups()
            if conv == "%":
                ctx.out("%")
                continue
            if width == "*":
                width = str(_number(ctx, args[consumed], True)) if consumed < len(args) else "0"
                consumed += 1
            if precision == "*":
                precision = str(_number(ctx, args[consumed], True)) if consumed < len(args) else "0"
                consumed += 1
            arg = args[consumed] if consumed < len(args) else None
            consumed += 1
            check_size(abs(int(width or 0)) + abs(int(precision or 0)))  # a padding no device has memory for
            spec = "%" + flags + (width or "") + (f".{precision}" if precision is not None else "")
            if conv in "sb":
                value = arg or ""
                if conv == "b":
                    value, stop = _unescape(value)
                ctx.out((spec + "s") % value)
            elif conv == "c":
                ctx.out((spec + "s") % (arg or "")[:1])
            elif conv in "diouxX":
                number = _number(ctx, arg, True) if arg else 0
                ctx.out((spec + ("d" if conv in "iu" else conv)) % int(number))
            else:
                ctx.out((spec + conv) % float(_number(ctx, arg, False) if arg else 0.0))
        text, stop = _unescape(fmt[pos:], printf_style=True)
        ctx.out(text)
        if stop or consumed == 0 or consumed >= len(args):
            break
        args = args[consumed:]
    return 1 if len(ctx.stderr) > errors_before else 0


# ----- reading inputs ---------------------------------------------------------------------------------------
def _inputs(ctx: CommandContext, name: str, operands: list[str]) -> list[tuple[str, bytes | None]]:
    """``(name, data)`` per operand (stdin for none or ``-``); ``None`` data after an error was printed."""
    result: list[tuple[str, bytes | None]] = []
    for operand in operands or ["-"]:
        if operand == "-":
            result.append(("(standard input)" if name == "grep" else "-", ctx.stdin))
            continue
        try:
            result.append((operand, b"" if ctx.path(operand) == "/dev/null" else read_host(ctx.host(operand))))
        except OSError as error:
            ctx.err(f"{name}: {operand}: {strerror(error)}\n")
            result.append((operand, None))
    return result


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


# ----- grep --------------------------------------------------------------------------------------------------
def _bre(pattern: str) -> str:
    """POSIX basic regular expression -> Python regex (``\\(``, ``\\{``, ``\\|`` are the operators)."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in "(){}|+?" else c + nxt)
            i += 2
            continue
        out.append("\\" + c if c in "(){}|+?" else c)
        i += 1
    return "".join(out)


def grep(ctx: CommandContext, argv: list[str]) -> int:
    """``grep [-EFHchilnoqsvwx] [-e PATTERN]... [PATTERN] [FILE...]``: 0 on a match, 1 none, 2 error."""
    flags, values, operands = parse_flags(argv, "EFGHchilnoqsvwxrRZz", "em")
    flags |= {"egrep": {"E"}, "fgrep": {"F"}}.get(argv[0], set())
    patterns = [values["e"]] if "e" in values else []
    if not patterns:
        if not operands:
            return ctx.fail("grep", "no pattern", 2)
        patterns = [operands.pop(0)]
    patterns = [p for pattern in patterns for p in pattern.split("\n")]
    sources = []
    for pattern in patterns:
        if "F" in flags:
            sources.append(re.escape(pattern))
        else:
            sources.append(pattern if "E" in flags else _bre(pattern))
    if "w" in flags:
        sources = [rf"(?<!\w)(?:{s})(?!\w)" for s in sources]
    if "x" in flags:
        sources = [rf"(?:{s})\Z" for s in sources]
    try:
        regex = re.compile("|".join(f"(?:{s})" for s in sources), re.IGNORECASE if "i" in flags else 0)
    except re.error as error:
        return ctx.fail("grep", f"bad regex '{patterns[0]}': {error}", 2)
    limit = int(values["m"]) if "m" in values else None
    inputs = _inputs(ctx, "grep", operands)
    show_names = ("H" in flags or len(inputs) > 1) and "h" not in flags
    found = False
    failed = False
    for name, data in inputs:
        if data is None:
            failed = True
            continue
        count = 0
        for number, line in enumerate(_lines(data), 1):
            matched = (regex.match(line) if "x" in flags else regex.search(line)) is not None
            if matched == ("v" in flags):
                continue
            count += 1
            found = True
            if "q" in flags:
                return 0
            if "l" in flags or "c" in flags:
                if limit is not None and count >= limit:
                    break
                continue
            prefix = (f"{name}:" if show_names else "") + (f"{number}:" if "n" in flags else "")
            if "o" in flags and "v" not in flags:
                ctx.out("".join(f"{prefix}{m.group()}\n" for m in regex.finditer(line) if m.group()))
            else:
                ctx.out(f"{prefix}{line}\n")
            if limit is not None and count >= limit:
                break
        if "c" in flags:
            ctx.out((f"{name}:" if show_names else "") + f"{count}\n")
        elif "l" in flags and count:
            ctx.out(f"{name}\n")
    if failed and "s" in flags:
        ctx.stderr.clear()
    return 0 if found else (2 if failed else 1)


# ----- head, tail --------------------------------------------------------------------------------------------
def _count_option(argv: list[str]) -> list[str]:
    """``head -5`` means ``head -n 5``."""
    return [f"-n{arg[1:]}" if re.fullmatch(r"-\d+", arg) else arg for arg in argv]


def _per_input(ctx: CommandContext, command: str, operands: list[str], flags: set[str],
               part: Callable[[bytes], bytes]) -> int:
    """Write ``part(data)`` of each input, with ``==> name <==`` headers for several files (or ``-v``)."""
    inputs = _inputs(ctx, command, operands)
    status = 0
    for index, (name, data) in enumerate(inputs):
        if data is None:
            status = 1
            continue
        if len(inputs) > 1 and "q" not in flags or "v" in flags:
            ctx.out(("\n" if index else "") + f"==> {name} <==\n")
        ctx.out(part(data))
    return status


def head(ctx: CommandContext, argv: list[str]) -> int:
    """``head [-n N] [-c N] [FILE...]``."""
    try:
        flags, values, operands = parse_flags(_count_option(argv), "qv", "nc")
        lines, chars = int(values.get("n", 10)), int(values["c"]) if "c" in values else None
    except ValueError as error:
        return unknown_option(ctx, "head", str(error))
    if chars is not None:
        return _per_input(ctx, "head", operands, flags, lambda data: data[:chars])
    return _per_input(ctx, "head", operands, flags,
                      lambda data: b"".join(data.splitlines(keepends=True)[:lines]))


def tail(ctx: CommandContext, argv: list[str]) -> int:
    """``tail [-n [+]N] [-c N] [FILE...]`` (``-f`` is accepted and ignored: the shell cannot block)."""
    flags, values, operands = parse_flags(_count_option(argv), "fFqv", "nc")
    spec = values.get("n", values.get("c", "10"))
    from_start = spec.startswith("+")
    try:
        count = abs(int(spec))
    except ValueError:
        return ctx.fail("tail", f"bad number '{spec}'")
    def kept(items):  # bytes or a list of lines
        return items[max(count - 1, 0):] if from_start else (items[-count:] if count else items[:0])

    if "c" in values:
        return _per_input(ctx, "tail", operands, flags, kept)
    return _per_input(ctx, "tail", operands, flags, lambda data: b"".join(kept(data.splitlines(keepends=True))))


# ----- wc ----------------------------------------------------------------------------------------------------
def wc(ctx: CommandContext, argv: list[str]) -> int:
    """``wc [-lwcm] [FILE...]`` with toybox's column rules."""
    flags, _, operands = parse_flags(argv, "lwcmL")
    order = [f for f in "lwmc" if f in flags] or ["l", "w", "c"]
    space = 7 if not ((not operands and len(order) == 1) or len(operands) == 1) else 0
    totals = dict.fromkeys(order, 0)
    status = 0
    for name, data in _inputs(ctx, "wc", operands):
        if data is None:
            status = 1
            continue
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data),
                  "m": len(data.decode("utf-8", "replace"))}
        fields = [f"{counts[f]:{space}d}" for f in order]
        for f in order:
            totals[f] += counts[f]
        ctx.out(" ".join(fields) + (f" {name}" if operands else "") + "\n")
    if len(operands) > 1:
        ctx.out(" ".join(f"{totals[f]:{space}d}" for f in order) + " total\n")
    return status


# ----- sort, uniq, cut, tr, tee, seq ------------------------------------------------------------------------
def _numeric_key(text: str) -> float:
    match = re.match(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)", text)
    return float(match.group()) if match else 0.0


def sort(ctx: CommandContext, argv: list[str]) -> int:
    """``sort [-fnru] [-t SEP] [-k N[,M]] [FILE...]``."""
    flags, values, operands = parse_flags(argv, "bfnrusd", "tko")
    lines: list[str] = []
    status = 0
    for _, data in _inputs(ctx, "sort", operands):
        if data is None:
            status = 2
            continue
        lines.extend(_lines(data))
    separator = values.get("t")

    def field(line: str) -> str:
        if "k" not in values:
            return line
        start, _, end = values["k"].partition(",")
        parts = line.split(separator) if separator else line.split()
        first = int(re.match(r"\d+", start).group()) - 1 if re.match(r"\d+", start) else 0
        last = int(re.match(r"\d+", end).group()) if end and re.match(r"\d+", end) else len(parts)
        return (separator or " ").join(parts[first:last])

    def key(line: str) -> tuple:
        text = field(line)
        if "n" in flags:
            return (_numeric_key(text), line)
        return ((text.lower() if "f" in flags else text), line)

    result = sorted(lines, key=key, reverse="r" in flags)
    if "u" in flags:
        seen: set = set()
        unique = []
        for line in result:
            marker = key(line)[0]
            if marker not in seen:
                seen.add(marker)
                unique.append(line)
        result = unique
    ctx.out("".join(line + "\n" for line in result))
    return status


def uniq(ctx: CommandContext, argv: list[str]) -> int:
    """``uniq [-cdu] [FILE]``."""
    flags, _, operands = parse_flags(argv, "cdui")
    (_, data), = _inputs(ctx, "uniq", operands[:1])
    if data is None:
        return 1
    groups: list[list[str]] = []
    for line in _lines(data):
        same = groups and (groups[-1][0].lower() == line.lower() if "i" in flags else groups[-1][0] == line)
        if same:
            groups[-1].append(line)
        else:
            groups.append([line])
    for group in groups:
        if ("d" in flags and len(group) < 2) or ("u" in flags and len(group) > 1):
            continue
        ctx.out((f"{len(group):7d} " if "c" in flags else "") + group[0] + "\n")
    return 0


def _ranges(spec: str) -> list[tuple[int, int]]:
    ranges = []
    for part in spec.split(","):
        start, dash, end = part.partition("-")
        first = int(start) if start else 1
        last = int(end) if end else (10**9 if dash else first)
        ranges.append((first, last))
    return ranges


def cut(ctx: CommandContext, argv: list[str]) -> int:
    """``cut -f LIST [-d DELIM] [-s] | -c LIST [FILE...]``."""
    try:
        flags, values, operands = parse_flags(argv, "sn", "dfcb")
        ranges = _ranges(values.get("f") or values.get("c") or values.get("b") or "")
    except ValueError:
        return ctx.fail("cut", "bad list")
    if not ({"f", "c", "b"} & set(values)):
        return ctx.fail("cut", "no selections")
    delimiter = values.get("d", "\t")
    status = 0
    for _, data in _inputs(ctx, "cut", operands):
        if data is None:
            status = 1
            continue
        for line in _lines(data):
            if "f" in values:
                if delimiter not in line:
                    if "s" not in flags:
                        ctx.out(line + "\n")
                    continue
                parts = line.split(delimiter)
                picked = [p for i, p in enumerate(parts, 1) if any(a <= i <= b for a, b in ranges)]
                ctx.out(delimiter.join(picked) + "\n")
            else:
                ctx.out("".join(ch for i, ch in enumerate(line, 1) if any(a <= i <= b for a, b in ranges)) + "\n")
    return status


def _charset(spec: str) -> str:
    text, _ = _unescape(spec, printf_style=True)
    out = []
    i = 0
    while i < len(text):
        if i + 2 < len(text) and text[i + 1] == "-":
            out.extend(chr(c) for c in range(ord(text[i]), ord(text[i + 2]) + 1))
            i += 3
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tr(ctx: CommandContext, argv: list[str]) -> int:
    """``tr [-d] SET1 [SET2]``."""
    flags, _, operands = parse_flags(argv, "dsc")
    if not operands or ("d" not in flags and len(operands) < 2):
        return ctx.fail("tr", "Needs 2 arguments")
    text = ctx.stdin.decode("utf-8", "replace")
    first = _charset(operands[0])
    if "d" in flags:
        ctx.out(text.translate({ord(c): None for c in first}))
        return 0
    second = _charset(operands[1])
    second = second + second[-1:] * (len(first) - len(second)) if second else ""
    ctx.out(text.translate({ord(a): b for a, b in zip(first, second)}))
    return 0


def tee(ctx: CommandContext, argv: list[str]) -> int:
    """``tee [-a] [FILE...]``."""
    flags, _, operands = parse_flags(argv, "ai")
    data = ctx.stdin
    ctx.out(data)
    status = 0
    for name in operands:
        host = ctx.host(name)
        try:
            with open(host, "ab" if "a" in flags else "wb") as handle:
                handle.write(data)
            ctx.stamp(host)
        except OSError as error:
            status = ctx.fail("tee", f"{name}: {strerror(error)}")
    return status


def seq(ctx: CommandContext, argv: list[str]) -> int:
    """``seq [-s SEP] [-w] [FIRST [INCREMENT]] LAST``."""
    args = argv[1:]
    separator, pad = "\n", False
    while args and args[0] in ("-s", "-w") or (args and args[0].startswith("-s") and len(args[0]) > 2):
        opt = args.pop(0)
        if opt == "-w":
            pad = True
        else:
            separator = opt[2:] if len(opt) > 2 else (args.pop(0) if args else "\n")
    try:
        numbers = [float(a) for a in args]
    except ValueError:
        return ctx.fail("seq", f"not a number: '{args[0] if args else ''}'")
    if not 1 <= len(numbers) <= 3:
        return ctx.fail("seq", "Needs 1 to 3 arguments")
    first, step, last = (1.0, 1.0, numbers[0]) if len(numbers) == 1 else \
        (numbers[0], 1.0, numbers[1]) if len(numbers) == 2 else tuple(numbers)
    if step == 0:
        return ctx.fail("seq", "increment is 0")
    integral = all(float(n).is_integer() for n in (first, step, last))
    values = []
    value = first
    while (value <= last if step > 0 else value >= last) and len(values) < 1_000_000:
        values.append(str(int(value)) if integral else f"{value:g}")
        value = first + step * len(values)
    if pad and values:
        width = max(len(v) for v in values)
        values = [v.zfill(width) for v in values]
    if values:
        ctx.out(separator.join(values) + "\n")
    return 0


COMMANDS = {
    "echo": echo, "printf": printf, "grep": grep, "egrep": grep, "fgrep": grep, "head": head, "tail": tail,
    "wc": wc, "sort": sort, "uniq": uniq, "cut": cut, "tr": tr, "tee": tee, "seq": seq,
}
