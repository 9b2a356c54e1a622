"""Word expansion: ``~``, parameters, command substitution (through the interpreter), arithmetic, field
splitting, pathname globbing against the phone's file system, and quote removal."""

from __future__ import annotations

import fnmatch
import os
import re

from android_gym.sim.shell.arith import _Arith
from android_gym.sim.shell.device import ShellDevice
from android_gym.sim.shell.environment import SHELL
from android_gym.sim.shell.errors import _Fatal, check_size
from android_gym.sim.shell.lexer import _skip_ansi, _skip_backquote, _skip_dollar, _skip_double, _skip_single
from android_gym.sim.shell.parser import _NAME, has_glob_magic

_PLAIN = re.compile(r"[^\\'\"$`*?\[~]*")
_LITERAL = re.compile(r"[^\\'\"$`]+")  # a run of characters that stand for themselves in ``_pieces``
_GLOB = re.compile(r"[*?\[]")
#: What makes a path segment a pattern (``fnmatch``): ``*``, ``?``, or a bracket expression, a ``[`` closed by a ``]``
#: after at least one character; any other ``[`` matches itself, so the segment names one path (``[`` of ``[ -d x ]``).
_IFS = re.compile(r"([ \t\n]+)")
Piece = tuple[str, bool, bool]  # (text, quoted, from an unquoted expansion: split it)


def _split_fields(pieces: list[Piece]) -> list[list[tuple[str, bool]]]:
    """POSIX field splitting: only unquoted expansion results split, on blanks and newlines."""
    fields: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    started = False
    for text, quoted, split in pieces:
        if not split:
            current.append((text, quoted))
            started = True
            continue
        for part in _IFS.split(text):
            if not part:
                continue
            if part[0] in " \t\n":
                if started:
                    fields.append(current)
                    current, started = [], False
            else:
                current.append((part, False))
                started = True
    if started:
        fields.append(current)
    return fields


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else f"{prefix}/{name}"


_ANSI_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                 "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_c(text: str) -> str:
    """The value of mksh's ``$'...'`` (C escapes: ``\\n``, ``\\t``, ``\\xHH``, ``\\NNN`` octal, ...)."""

    def escape(match: re.Match) -> str:
        code = match.group(1)
        if code in _ANSI_ESCAPES:
            return _ANSI_ESCAPES[code]
        if code[0] == "x" and len(code) > 1:
            return chr(int(code[1:], 16))
        if code[0] in "01234567":
            return chr(int(code, 8))
        return "\\" + code

    return re.sub(r"\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)", escape, text, flags=re.S)


class _Expander:
    """Word expansion for ``_Interp``: parameters, ``$'...'``, ``$((...))``, field splitting, globbing, quote removal.

    A mixin: the interpreter provides the attributes below and runs command substitutions (``_substitute``).
    """

    phone: ShellDevice
    vars: dict[str, str]
    cwd: str
    status: int

    def _substitute(self, script: str) -> str:
        """``$(...)``: the output of ``script`` run in a subshell (provided by the interpreter)."""
        raise NotImplementedError

    # ----- word expansion -----------------------------------------------------------------------------------
    def expand(self, raw: str) -> list[str]:
        """A word's fields after expansion, field splitting, pathname globbing and quote removal."""
        if _PLAIN.fullmatch(raw):
            return [raw]
        fields = _split_fields(self._pieces(raw))
        result: list[str] = []
        for field in fields:
            text = "".join(part for part, _ in field)
            check_size(len(text))
            if any(not quoted and _GLOB.search(part) for part, quoted in field):
                result.extend(self._glob(field) or [text])
            else:
                result.append(text)
        return result

    def expand_one(self, raw: str) -> str:
        """Expansion without field splitting or globbing (assignments, redirection targets)."""
        if _PLAIN.fullmatch(raw):
            return raw
        value = "".join(text for text, _, _ in self._pieces(raw))
        check_size(len(value))
        return value

    def _pieces(self, raw: str) -> list[Piece]:
        pieces: list[Piece] = []
        literal: list[str] = []

        def flush() -> None:
            if literal:
                pieces.append(("".join(literal), False, False))
                literal.clear()

        i, n = 0, len(raw)
        if raw.startswith("~") and (n == 1 or raw[1] == "/"):
            pieces.append((self.vars.get("HOME", "/"), True, False))
            i = 1
        while i < n:
            c = raw[i]
            if c == "\\":
                flush()
                if i + 1 < n:
                    pieces.append((raw[i + 1], True, False))
                else:
                    pieces.append(("\\", True, False))
                i += 2
            elif c == "'":
                flush()
                j = _skip_single(raw, i + 1)
                pieces.append((raw[i + 1:j - 1], True, False))
                i = j
            elif c == '"':
                flush()
                j = _skip_double(raw, i + 1)
                pieces.append((self._double_quoted(raw[i + 1:j - 1]), True, False))
                i = j
            elif raw.startswith("$'", i):
                flush()
                j = _skip_ansi(raw, i + 2)
                pieces.append((_ansi_c(raw[i + 2:j - 1]), True, False))
                i = j
            elif c in "$`":
                value, j = self._dollar(raw, i)
                if value is None:
                    literal.append(c)
                    i += 1
                else:
                    flush()
                    pieces.append((value, False, True))
                    i = j
            else:
                j = _LITERAL.match(raw, i).end()
                literal.append(raw[i:j])
                i = j
        flush()
        return pieces

    def _double_quoted(self, content: str) -> str:
        out: list[str] = []
        i, n = 0, len(content)
        while i < n:
            c = content[i]
            if c == "\\" and i + 1 < n:
                nxt = content[i + 1]
                if nxt in '$`"\\':
                    out.append(nxt)
                elif nxt != "\n":
                    out.append(c + nxt)
                i += 2
            elif c in "$`":
                value, j = self._dollar(content, i)
                if value is None:
                    out.append(c)
                    i += 1
                else:
                    out.append(value)
                    i = j
            else:
                out.append(c)
                i += 1
        value = "".join(out)
        check_size(len(value))
        return value

    def _heredoc_text(self, body: str) -> str:
        """An unquoted here-document: ``$`` expansions and ``\\$ \\` \\\\`` escapes, quotes kept."""
        return self._double_quoted(body.replace('"', "\\\x00")).replace("\\\x00", '"')

    def _dollar(self, s: str, i: int) -> tuple[str | None, int]:
        """Expand the ``$...`` or backquote at ``i``; ``(None, i)`` when it is a literal ``$``."""
        n = len(s)
        if s[i] == "`":
            j = _skip_backquote(s, i + 1)
            inner = re.sub(r"\\([$`\\])", r"\1", s[i + 1:j - 1])
            return self._substitute(inner), j
        if i + 1 >= n:
            return None, i
        c = s[i + 1]
        if c == "(":
            j = _skip_dollar(s, i)
            if s.startswith("((", i + 1) and s[j - 2:j] == "))":
                return str(self._arith(self.expand_one(f'"{s[i + 3:j - 2]}"'))), j
            return self._substitute(s[i + 2:j - 1]), j
        if c == "{":
            j = _skip_dollar(s, i)
            return self._braced(s[i + 2:j - 1]), j
        match = _NAME.match(s, i + 1)
        if match:
            return self.vars.get(match.group(), ""), match.end()
        if c in "?$!#-*@0123456789":
            return self._special_param(c), i + 2
        return None, i

    def _special_param(self, name: str) -> str:
        if name == "?":
            return str(self.status)
        if name == "$":
            return "4242"
        if name == "#":
            return "0"
        if name == "0":
            return SHELL
        if name == "-":
            return "hc"
        return ""

    def _braced(self, body: str) -> str:
        if body.startswith("#") and len(body) > 1:
            value = self._param(body[1:])
            return str(len(value or ""))
        match = re.match(r"([A-Za-z_][A-Za-z0-9_]*|[0-9?$!#@*-])(.*)", body, re.S)
        if not match:
            raise _Fatal(f"${{{body}}}: bad substitution")
        name, rest = match.groups()
        value = self._param(name)
        if not rest:
            return value or ""
        op = re.match(r":?[-=+?]|##?|%%?", rest)
        if not op:
            raise _Fatal(f"${{{body}}}: bad substitution")
        op_text, word = op.group(), rest[op.end():]
        if op_text in ("#", "##", "%", "%%"):
            return self._trim(value or "", op_text, self.expand_one(word))
        unset = value is None or (op_text.startswith(":") and value == "")
        kind = op_text[-1]
        if kind == "-":
            return self.expand_one(word) if unset else value or ""
        if kind == "=":
            if unset:
                self.vars[name] = self.expand_one(word)
            return self.vars.get(name, "")
        if kind == "+":
            return "" if unset else self.expand_one(word)
        if unset:
            raise _Fatal(f"{name}: {self.expand_one(word) or 'parameter null or not set'}")
        return value or ""

    def _param(self, name: str) -> str | None:
        if _NAME.fullmatch(name):
            return self.vars.get(name)
        return self._special_param(name)

    @staticmethod
    def _trim(value: str, op: str, pattern: str) -> str:
        spans = range(len(value) + 1)
        if op.startswith("#"):
            order = reversed(spans) if op == "##" else spans
            for k in order:
                if fnmatch.fnmatchcase(value[:k], pattern):
                    return value[k:]
        else:
            order = spans if op == "%%" else reversed(spans)
            for k in order:
                if fnmatch.fnmatchcase(value[k:], pattern):
                    return value[:k]
        return value

    # ----- arithmetic (mksh: 32-bit signed, C semantics) ----------------------------------------------------
    def _arith(self, expr: str) -> int:
        return _Arith(expr, self.vars).evaluate()

    # ----- globbing -----------------------------------------------------------------------------------------
    def _glob(self, field: list[tuple[str, bool]]) -> list[str]:
        """Pathname expansion of one field against the phone's file system (sorted; empty if no match)."""
        pattern = "".join(part if not quoted else _glob_escape(part) for part, quoted in field)
        if not has_glob_magic(pattern):  # no pattern (the test command ``[``): the word stays, nothing looked up
            return []
        dirs_only = pattern.endswith("/")
        segments = [segment for segment in pattern.split("/") if segment]
        results = ["/" if pattern.startswith("/") else ""]
        for segment in segments:
            found = []
            for prefix in results:
                if not has_glob_magic(segment):
                    found.append(_join(prefix, segment))
                    continue
                try:
                    names = sorted(os.listdir(self.phone.fs.host_path(prefix or ".", self.cwd)))
                except OSError:
                    continue
                hidden = segment.startswith(".")
                found.extend(_join(prefix, name) for name in names
                             if (hidden or not name.startswith(".")) and fnmatch.fnmatchcase(name, segment))
            results = found
        matches = []
        for path in results:
            host = self.phone.fs.host_path(path, self.cwd)
            if host.is_dir() if dirs_only else (host.exists() or host.is_symlink()):
                matches.append(path + "/" if dirs_only else path)
        return sorted(matches)
