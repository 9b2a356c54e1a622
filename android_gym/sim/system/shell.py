"""The device shell: what ``adb shell`` runs as ``/system/bin/sh -c <command>`` on the simulated phone.

Android's shell is mksh. This module implements the part of its language that device automation uses:
words and POSIX quoting (``'...'`` literal, ``"..."`` with ``\\`` escapes and ``$`` expansion, backslash),
``;`` ``&`` ``&&`` ``||`` ``|`` and newlines, redirections (``>`` ``>>`` ``<`` ``2>`` ``2>&1`` ``>&2``
``&>`` ``<<EOF`` here-documents), ``$VAR`` ``${VAR}`` ``${VAR:-x}`` ``$?`` ``$'...'`` ``$(...)`` and backquotes
(run by this same interpreter), ``$((...))`` (mksh's 32-bit arithmetic), ``~``, field splitting, pathname
globbing against the phone's file system, ``if``/``for``/``while``/``until``, ``{ }`` and ``( )``.
Commands are Python functions (``commands/``); nothing typed here ever reaches a host shell.

The tokenizer is hand-written rather than ``shlex``: ``shlex`` cannot keep ``$(...)`` with nested quotes
as one word, forgets which characters were quoted (globbing and field splitting need that), splits
``2>&1`` inconsistently in ``punctuation_chars`` mode and has no here-documents.

Error messages follow mksh R59c (``external/mksh``): ``/system/bin/sh: NAME: inaccessible or not found``
(127), ``/system/bin/sh: no closing quote`` and ``/system/bin/sh: syntax error: unexpected 'x'`` (1),
``/system/bin/sh: can't create FILE: <strerror>`` (1).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from android_gym.sim.system.commands import activity, content, dumpsys, files, find, settings, sqlite, system
from android_gym.sim.system.commands import input as input_commands
from android_gym.sim.system.commands import text as text_commands
from android_gym.sim.system.commands.base import Command, CommandContext, strerror
from android_gym.sim.system.fs import normalize

if TYPE_CHECKING:
    from android_gym.sim.phone import Phone

SHELL = "/system/bin/sh"
#: Simple commands one ``run`` may execute (a runaway ``while true`` ends instead of hanging the env).
MAX_COMMANDS = 50_000
#: Nesting of ``$(...)``, ``sh -c`` and ``eval``.
MAX_DEPTH = 32

#: The environment ``adb shell`` gets as root on an API-33 emulator (init.environ.rc + adbd).
ENVIRONMENT = {
    "ANDROID_ASSETS": "/system/app",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
    "ANDROID_STORAGE": "/storage",
    "ANDROID_ART_ROOT": "/apex/com.android.art",
    "ANDROID_I18N_ROOT": "/apex/com.android.i18n",
    "ANDROID_TZDATA_ROOT": "/apex/com.android.tzdata",
    "ASEC_MOUNTPOINT": "/mnt/asec",
    "DOWNLOAD_CACHE": "/data/cache",
    "EXTERNAL_STORAGE": "/sdcard",
    "HOME": "/",
    "HOSTNAME": "emu64xa",
    "LOGNAME": "root",
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:"
            "/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    "SHELL": "/bin/sh",
    "TERM": "dumb",
    "TMPDIR": "/data/local/tmp",
    "USER": "root",
}
_BIN_DIRS = frozenset({"/bin", "/system/bin", "/system/xbin", "/vendor/bin", "/product/bin", "/system_ext/bin",
                       "/apex/com.android.runtime/bin", "/odm/bin"})

_COMMANDS: dict[str, Command] = {}
for _module in (files, find, text_commands, system, settings, activity, dumpsys, input_commands, sqlite,
                content):
    _COMMANDS.update(_module.COMMANDS)


@dataclass(frozen=True)
class ShellOutput:
    """What a command line printed and how it exited."""

    stdout: bytes
    stderr: bytes
    exit_code: int


class ShellSyntaxError(Exception):
    """The command line does not parse (mksh's ``yyerror``)."""


class _Fatal(Exception):
    """An error that ends the whole script with status 1 (bad substitution, division by zero, ...)."""


class _Exit(BaseException):
    """``exit N``; a ``BaseException`` so no command's ``except Exception`` swallows it."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class _Abort(BaseException):
    """The script exceeded ``MAX_COMMANDS`` or ``MAX_DEPTH``."""


# =============================================================================================================
# Lexer
# =============================================================================================================
_OPERATORS = ("&&", "||", ";;", ">>", "<<-", "<<", "&>", ">&", "<&", ">|", "<>", ";", "&", "|", "(", ")", "<",
              ">")
_REDIRECTS = frozenset({">>", "<<-", "<<", "&>", ">&", "<&", ">|", "<>", "<", ">"})
_WORD_END = frozenset(" \t\n;&|()<>")


@dataclass
class _HereDoc:
    """A here-document; its body is filled in when the lexer reaches the end of the line."""

    delimiter: str
    quoted: bool
    strip_tabs: bool
    body: str = ""


def _skip_single(s: str, i: int) -> int:
    """Index after the ``'`` closing a single-quoted string that starts at ``i``."""
    j = s.find("'", i)
    if j < 0:
        raise ShellSyntaxError("no closing quote")
    return j + 1


def _skip_double(s: str, i: int) -> int:
    """Index after the ``"`` closing a double-quoted string whose content starts at ``i``."""
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            i += 2
        elif c == '"':
            return i + 1
        elif c == "`":
            i = _skip_backquote(s, i + 1)
        elif c == "$" and i + 1 < n and s[i + 1] in "({":
            i = _skip_dollar(s, i)
        else:
            i += 1
    raise ShellSyntaxError("no closing quote")


def _skip_backquote(s: str, i: int) -> int:
    """Index after the closing backquote of a command substitution whose content starts at ``i``."""
    n = len(s)
    while i < n:
        if s[i] == "\\":
            i += 2
        elif s[i] == "`":
            return i + 1
        else:
            i += 1
    raise ShellSyntaxError("no closing quote")


def _skip_dollar(s: str, i: int) -> int:
    """Index after a ``$(...)``, ``$((...))`` or ``${...}`` starting at ``i`` (nested quotes respected)."""
    close = ")" if s[i + 1] == "(" else "}"
    opener = s[i + 1]
    depth = 0
    j = i + 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "'" and close == ")":
            j = _skip_single(s, j + 1)
            continue
        if c == '"':
            j = _skip_double(s, j + 1)
            continue
        if c == "`":
            j = _skip_backquote(s, j + 1)
            continue
        if c == "$" and j + 1 < n and s[j + 1] in "({":
            j = _skip_dollar(s, j)
            continue
        if c == opener:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    raise ShellSyntaxError("no closing quote")


def _read_word(s: str, i: int) -> tuple[str, int]:
    """The raw text (quotes kept) of the word starting at ``i``, and the index after it."""
    start, n = i, len(s)
    while i < n:
        c = s[i]
        if c in _WORD_END:
            break
        if c == "\\":
            i += 2
        elif c == "'":
            i = _skip_single(s, i + 1)
        elif c == '"':
            i = _skip_double(s, i + 1)
        elif c == "`":
            i = _skip_backquote(s, i + 1)
        elif c == "$" and i + 1 < n and s[i + 1] in "({":
            i = _skip_dollar(s, i)
        elif c == "$" and i + 1 < n and s[i + 1] == "'":
            i = _skip_ansi(s, i + 2)
        else:
            i += 1
    return s[start:min(i, n)], min(i, n)


def _skip_ansi(s: str, i: int) -> int:
    """Index after the ``'`` closing a ``$'...'`` string whose content starts at ``i``."""
    n = len(s)
    while i < n:
        if s[i] == "\\":
            i += 2
        elif s[i] == "'":
            return i + 1
        else:
            i += 1
    raise ShellSyntaxError("no closing quote")


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


def _unquote(raw: str) -> str:
    """Quote removal without expansion (here-document delimiters)."""
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
        elif c in "'\"":
            j = raw.find(c, i + 1)
            j = len(raw) if j < 0 else j
            out.append(raw[i + 1:j])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


Token = tuple[str, str, object]  # (kind, text, extra): W word, O operator, R redirect, H here-doc, N newline, E end


def _lex(s: str) -> list[Token]:
    """Split a command line into tokens; here-document bodies are read after their line."""
    tokens: list[Token] = []
    pending: list[_HereDoc] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c in " \t\r":
            i += 1
        elif c == "\\" and s.startswith("\\\n", i):
            i += 2
        elif c == "\n":
            tokens.append(("N", "\n", None))
            i = _read_heredocs(s, i + 1, pending)
            pending = []
        elif c == "#":
            j = s.find("\n", i)
            i = n if j < 0 else j
        else:
            fd: int | None = None
            op = next((o for o in _OPERATORS if s.startswith(o, i)), None)
            if op is None:
                raw, j = _read_word(s, i)
                if raw.isdigit() and j < n and s[j] in "<>":
                    fd, i = int(raw), j
                    op = next(o for o in _OPERATORS if s.startswith(o, i) and o in _REDIRECTS and o != "&>")
                else:
                    tokens.append(("W", raw, None))
                    i = j
                    continue
            i += len(op)
            if op in ("<<", "<<-"):
                while i < n and s[i] in " \t":
                    i += 1
                raw, i = _read_word(s, i)
                if not raw:
                    raise ShellSyntaxError("syntax error: unexpected EOF" if i >= n else
                                           f"syntax error: unexpected '{s[i]}'")
                doc = _HereDoc(_unquote(raw), any(q in raw for q in "'\"\\"), op == "<<-")
                pending.append(doc)
                tokens.append(("H", op, (fd, doc)))
            elif op in _REDIRECTS:
                tokens.append(("R", op, fd))
            else:
                tokens.append(("O", op, None))
    if pending:
        _read_heredocs(s, n, pending)
    tokens.append(("E", "", None))
    return tokens


def _read_heredocs(s: str, i: int, docs: list[_HereDoc]) -> int:
    """Read the bodies of ``docs`` from the lines starting at ``i``; returns the index after them."""
    n = len(s)
    for doc in docs:
        lines = []
        while True:
            if i >= n:
                raise ShellSyntaxError(f"here document '{doc.delimiter}' unclosed")
            j = s.find("\n", i)
            line, i = (s[i:], n) if j < 0 else (s[i:j], j + 1)
            if doc.strip_tabs:
                line = line.lstrip("\t")
            if line == doc.delimiter:
                break
            lines.append(line + "\n")
        doc.body = "".join(lines)
    return i


# =============================================================================================================
# Parser: tokens -> immutable tree (cached per command string)
# =============================================================================================================
@dataclass(frozen=True)
class _Redir:
    op: str
    fd: int | None
    target: str
    heredoc: _HereDoc | None = None


@dataclass(frozen=True)
class _Simple:
    assigns: tuple[str, ...]
    words: tuple[str, ...]
    redirs: tuple[_Redir, ...]


@dataclass(frozen=True)
class _Pipeline:
    commands: tuple[object, ...]
    negate: bool


@dataclass(frozen=True)
class _AndOr:
    first: object
    rest: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class _Seq:
    items: tuple[object, ...]


@dataclass(frozen=True)
class _Group:
    body: object
    subshell: bool
    redirs: tuple[_Redir, ...] = ()


@dataclass(frozen=True)
class _If:
    branches: tuple[tuple[object, object], ...]
    orelse: object | None
    redirs: tuple[_Redir, ...] = ()


@dataclass(frozen=True)
class _Loop:
    cond: object
    body: object
    until: bool
    redirs: tuple[_Redir, ...] = ()


@dataclass(frozen=True)
class _For:
    name: str
    words: tuple[str, ...] | None
    body: object
    redirs: tuple[_Redir, ...] = ()


_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYWORD_ENDS = frozenset({"then", "else", "elif", "fi", "do", "done", "}", "esac", "in"})


class _Parser:
    """Recursive descent over the token list (a subset of the POSIX shell grammar)."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.opened: list[str] = []

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def advance(self) -> Token:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def unexpected(self) -> ShellSyntaxError:
        kind, text, _ = self.peek()
        if kind == "E":
            if self.opened:
                return ShellSyntaxError(f"syntax error: unmatched '{self.opened[-1]}'")
            return ShellSyntaxError("syntax error: unexpected EOF")
        return ShellSyntaxError(f"syntax error: unexpected '{'newline' if kind == 'N' else text}'")

    def is_word(self, *values: str) -> bool:
        kind, text, _ = self.peek()
        return kind == "W" and text in values

    def expect_word(self, value: str) -> None:
        if not self.is_word(value):
            raise self.unexpected()
        self.advance()

    def skip_newlines(self) -> None:
        while self.peek()[0] == "N":
            self.advance()

    def program(self) -> object:
        self.skip_newlines()
        if self.peek()[0] == "E":
            return _Seq(())
        node = self.list(frozenset())
        if self.peek()[0] != "E":
            raise self.unexpected()
        return node

    def list(self, ends: frozenset[str]) -> object:
        items = []
        while True:
            self.skip_newlines()
            kind, text, _ = self.peek()
            if kind == "E" or (kind == "W" and text in ends) or (kind == "O" and text in ends):
                break
            items.append(self.and_or())
            kind, text, _ = self.peek()
            if (kind == "O" and text in (";", "&")) or kind == "N":
                self.advance()
                continue
            break
        if not items:
            raise self.unexpected()
        return items[0] if len(items) == 1 else _Seq(tuple(items))

    def and_or(self) -> object:
        first = self.pipeline()
        rest = []
        while self.peek()[0] == "O" and self.peek()[1] in ("&&", "||"):
            op = self.advance()[1]
            self.skip_newlines()
            rest.append((op, self.pipeline()))
        return _AndOr(first, tuple(rest)) if rest else first

    def pipeline(self) -> object:
        negate = False
        if self.is_word("!"):
            self.advance()
            negate = True
        commands = [self.command()]
        while self.peek()[0] == "O" and self.peek()[1] == "|":
            self.advance()
            self.skip_newlines()
            commands.append(self.command())
        if len(commands) == 1 and not negate:
            return commands[0]
        return _Pipeline(tuple(commands), negate)

    def command(self) -> object:
        kind, text, _ = self.peek()
        if kind == "W":
            if text in ("if", "while", "until", "for", "{"):
                self.opened.append(text)
                node = {"if": self.if_clause, "while": self.loop, "until": self.loop, "for": self.for_clause,
                        "{": self.brace_group}[text]()
                self.opened.pop()
                return node
            if text in _KEYWORD_ENDS or text == "case":
                raise self.unexpected()
        elif kind == "O" and text == "(":
            self.advance()
            self.opened.append("(")
            body = self.list(frozenset({")"}))
            if not (self.peek()[0] == "O" and self.peek()[1] == ")"):
                raise self.unexpected()
            self.advance()
            self.opened.pop()
            return _Group(body, True, self.redirections())
        return self.simple()

    def if_clause(self) -> object:
        self.advance()
        branches = []
        while True:
            cond = self.list(frozenset({"then"}))
            self.expect_word("then")
            body = self.list(frozenset({"elif", "else", "fi"}))
            branches.append((cond, body))
            if self.is_word("elif"):
                self.advance()
                continue
            break
        orelse = None
        if self.is_word("else"):
            self.advance()
            orelse = self.list(frozenset({"fi"}))
        self.expect_word("fi")
        return _If(tuple(branches), orelse, self.redirections())

    def loop(self) -> object:
        until = self.advance()[1] == "until"
        cond = self.list(frozenset({"do"}))
        self.expect_word("do")
        body = self.list(frozenset({"done"}))
        self.expect_word("done")
        return _Loop(cond, body, until, self.redirections())

    def for_clause(self) -> object:
        self.advance()
        kind, name, _ = self.advance()
        if kind != "W" or not _NAME.fullmatch(name):
            self.pos -= 1
            raise self.unexpected()
        self.skip_newlines()
        words: tuple[str, ...] | None = None
        if self.is_word("in"):
            self.advance()
            collected = []
            while self.peek()[0] == "W":
                collected.append(self.advance()[1])
            words = tuple(collected)
            if not (self.peek()[0] == "N" or (self.peek()[0] == "O" and self.peek()[1] == ";")):
                raise self.unexpected()
            self.advance()
        elif self.peek()[0] == "O" and self.peek()[1] == ";":
            self.advance()
        self.skip_newlines()
        self.expect_word("do")
        body = self.list(frozenset({"done"}))
        self.expect_word("done")
        return _For(name, words, body, self.redirections())

    def brace_group(self) -> object:
        self.advance()
        body = self.list(frozenset({"}"}))
        self.expect_word("}")
        return _Group(body, False, self.redirections())

    def redirection(self) -> _Redir:
        kind, op, extra = self.advance()
        if kind == "H":
            fd, doc = extra  # type: ignore[misc]
            return _Redir(op, fd, "", doc)
        target_kind, target, _ = self.peek()
        if target_kind != "W":
            raise self.unexpected()
        self.advance()
        return _Redir(op, extra, target)  # type: ignore[arg-type]

    def redirections(self) -> tuple[_Redir, ...]:
        redirs = []
        while self.peek()[0] in ("R", "H"):
            redirs.append(self.redirection())
        return tuple(redirs)

    def simple(self) -> object:
        assigns: list[str] = []
        words: list[str] = []
        redirs: list[_Redir] = []
        while True:
            kind, text, _ = self.peek()
            if kind in ("R", "H"):
                redirs.append(self.redirection())
            elif kind == "W":
                self.advance()
                if not words and _ASSIGNMENT.match(text):
                    assigns.append(text)
                else:
                    words.append(text)
            else:
                break
        if not (assigns or words or redirs):
            raise self.unexpected()
        return _Simple(tuple(assigns), tuple(words), tuple(redirs))


def _parse_uncached(command: str) -> object:
    try:
        return _Parser(_lex(command)).program()
    except RecursionError:
        raise ShellSyntaxError("syntax error: expression too deeply nested") from None


_parse_cached = functools.lru_cache(maxsize=1024)(_parse_uncached)


def _parse(command: str) -> object:
    """The tree of a command line; short ones (the per-step commands) are parsed once and cached."""
    return _parse_cached(command) if len(command) <= 1024 else _parse_uncached(command)


# =============================================================================================================
# Expansion helpers
# =============================================================================================================
_PLAIN = re.compile(r"[^\\'\"$`*?\[~]*")
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


class _Input:
    """Standard input shared by the commands of one stream (``read`` takes a line, ``cat`` takes all)."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take_all(self) -> bytes:
        rest = self.data[self.pos:]
        self.pos = len(self.data)
        return rest

    def take_line(self) -> bytes | None:
        if self.pos >= len(self.data):
            return None
        end = self.data.find(b"\n", self.pos)
        end = len(self.data) if end < 0 else end + 1
        line = self.data[self.pos:end]
        self.pos = end
        return line


@dataclass
class _IO:
    inp: _Input
    out: bytearray
    err: bytearray


class _NullSink:
    """``/dev/null``."""


@dataclass
class _FileSink:
    """An output redirection to a sandbox file (created or truncated when the redirection is set up)."""

    host: os.PathLike
    data: bytearray


# =============================================================================================================
# Interpreter
# =============================================================================================================
class _Interp:
    """Executes trees for one shell process; ``$(...)`` and ``sh -c`` get children."""

    def __init__(self, phone: Phone, variables: dict[str, str], cwd: str, depth: int, budget: list[int]) -> None:
        if depth > MAX_DEPTH:
            raise _Abort("too deeply nested")
        self.phone = phone
        self.vars = variables
        self.cwd = cwd
        self.depth = depth
        self.budget = budget
        self.status = 0
        self.subst_status: int | None = None
        self.err: bytearray = bytearray()
        self.builtins: dict[str, Callable[[list[str], _IO], int]] = {
            "cd": self._cd, "exit": self._exit, "export": self._export, "unset": self._unset, ":": self._colon,
            "eval": self._eval, "exec": self._exec, "read": self._read, "set": self._colon, "which": self._which,
            "type": self._type, "command": self._command, "pwd": self._pwd,
        }

    # ----- entry points --------------------------------------------------------------------------------------
    def run_script(self, script: str, io: _IO) -> int:
        """Parse and run ``script``; syntax errors and ``exit`` end only this shell."""
        try:
            tree = _parse(script)
        except ShellSyntaxError as error:
            io.err += f"{SHELL}: {error}\n".encode()
            return 1
        try:
            return self.execute(tree, io)
        except _Exit as done:
            return done.status & 0xFF
        except _Fatal as error:
            io.err += f"{SHELL}: {error}\n".encode()
            return 1

    def child(self, cwd: str | None = None) -> _Interp:
        """A subshell: a copy of the variables and cwd, sharing the command budget."""
        child = _Interp(self.phone, dict(self.vars), self.cwd if cwd is None else cwd, self.depth + 1, self.budget)
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
        else:
            status = self._redirected(node.redirs, io, lambda inner: self._compound(node, inner))  # type: ignore
        self.status = status
        return status

    def _pipeline(self, node: _Pipeline, io: _IO) -> int:
        inp = io.inp
        status = 0
        for index, command in enumerate(node.commands):
            last = index == len(node.commands) - 1
            out = io.out if last else bytearray()
            status = self.execute(command, _IO(inp, out, io.err))
            if not last:
                inp = _Input(bytes(out))
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
        self.budget[0] -= 1
        if self.budget[0] < 0:
            raise _Abort("too many commands")

    # ----- simple commands ----------------------------------------------------------------------------------
    def _simple(self, node: _Simple, io: _IO) -> int:
        self._tick()
        self.err = io.err
        self.subst_status = None
        argv: list[str] = []
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
        return self._redirected(node.redirs, io, lambda inner: self.invoke(argv, inner))

    def invoke(self, argv: list[str], io: _IO) -> int:
        """Run one command: a shell builtin, else a device command."""
        name = argv[0]
        builtin = self.builtins.get(name)
        if builtin is not None:
            return builtin(argv, io)
        command = self.lookup(name)
        if command is None:
            io.err += f"{SHELL}: {name}: inaccessible or not found\n".encode()
            return 127
        ctx = CommandContext(self.phone, io.inp.take_all, self.cwd, self.vars, self._ctx_script, self._ctx_argv)
        try:
            status = command(ctx, argv)
        except Exception as error:  # a broken command must not take the shell down
            ctx.err(f"{name}: {type(error).__name__}: {error}\n")
            status = 1
        io.out += ctx.stdout
        io.err += ctx.stderr
        return status & 0xFF

    def lookup(self, name: str) -> Command | None:
        """The device command ``name`` (a bare name or a path in one of the bin directories)."""
        if "/" in name:
            directory, _, name = name.rpartition("/")
            if normalize(directory or "/", self.cwd) not in _BIN_DIRS:
                return None
        return _COMMANDS.get(name)

    def _ctx_script(self, ctx: CommandContext, script: str) -> int:
        child = _Interp(self.phone, {**ENVIRONMENT, **self.vars}, ctx.cwd, self.depth + 1, self.budget)
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
        out, err = bytearray(), bytearray()
        try:
            status = body(_IO(inp, out, err))
        finally:
            for fd, data in ((1, out), (2, err)):
                sink = sinks.get(fd)
                if isinstance(sink, bytearray):
                    sink += data
                elif isinstance(sink, _FileSink):
                    sink.data += data
            for sink in files:
                if sink.data:
                    with open(sink.host, "ab") as handle:
                        handle.write(sink.data)
                    sink.data.clear()
                self.phone.fs.stamp(sink.host)
        return status

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
        try:
            if host.is_dir():
                raise IsADirectoryError(21, "Is a directory")
            with open(host, "ab" if append else "wb"):
                pass
        except OSError as error:
            io.err += f"{SHELL}: can't create {target}: {strerror(error)}\n".encode()
            return None
        for sink in sinks.values():
            if isinstance(sink, _FileSink) and sink.host == host:
                return sink
        return _FileSink(host, bytearray())

    def _read_redirect(self, target: str, io: _IO) -> bytes | None:
        special = self._special(target)
        if special is not None:
            return b""
        try:
            return self.phone.fs.host_path(target, self.cwd).read_bytes()
        except OSError as error:
            io.err += f"{SHELL}: can't open {target}: {strerror(error)}\n".encode()
            return None

    # ----- word expansion -----------------------------------------------------------------------------------
    def expand(self, raw: str) -> list[str]:
        """A word's fields after expansion, field splitting, pathname globbing and quote removal."""
        if _PLAIN.fullmatch(raw):
            return [raw]
        fields = _split_fields(self._pieces(raw))
        result: list[str] = []
        for field in fields:
            text = "".join(part for part, _ in field)
            if any(not quoted and any(c in part for c in "*?[") for part, quoted in field):
                result.extend(self._glob(field) or [text])
            else:
                result.append(text)
        return result

    def expand_one(self, raw: str) -> str:
        """Expansion without field splitting or globbing (assignments, redirection targets)."""
        if _PLAIN.fullmatch(raw):
            return raw
        return "".join(text for text, _, _ in self._pieces(raw))

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
                literal.append(c)
                i += 1
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
        return "".join(out)

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

    def _substitute(self, script: str) -> str:
        """``$(...)``: run ``script`` in a subshell and return its output minus trailing newlines."""
        out = bytearray()
        child = self.child()
        status = child.run_script(script, _IO(_Input(b""), out, self.err))
        self.subst_status = status
        self.status = status
        return out.decode("utf-8", "replace").rstrip("\n")

    # ----- arithmetic (mksh: 32-bit signed, C semantics) ----------------------------------------------------
    def _arith(self, expr: str) -> int:
        return _Arith(expr, self.vars).evaluate()

    # ----- globbing -----------------------------------------------------------------------------------------
    def _glob(self, field: list[tuple[str, bool]]) -> list[str]:
        """Pathname expansion of one field against the phone's file system (sorted; empty if no match)."""
        pattern = "".join(part if not quoted else _glob_escape(part) for part, quoted in field)
        dirs_only = pattern.endswith("/")
        segments = [segment for segment in pattern.split("/") if segment]
        results = ["/" if pattern.startswith("/") else ""]
        for segment in segments:
            found = []
            for prefix in results:
                if not any(c in segment for c in "*?["):
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
            io.err += f"{SHELL}: cd: {target}: {reason}\n".encode()
            return 1
        self.vars["OLDPWD"], self.cwd = self.cwd, path
        self.vars["PWD"] = path
        return 0

    def _pwd(self, argv: list[str], io: _IO) -> int:
        io.out += (self.cwd + "\n").encode()
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
            io.err += f"{SHELL}: eval: {error}\n".encode()
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

    def _which(self, argv: list[str], io: _IO) -> int:
        status = 0
        for name in argv[1:]:
            if self.lookup(name) is not None:
                io.out += f"/system/bin/{name.rpartition('/')[2]}\n".encode()
            else:
                status = 1
        return status

    def _type(self, argv: list[str], io: _IO) -> int:
        status = 0
        for name in argv[1:]:
            if name in self.builtins:
                io.out += f"{name} is a shell builtin\n".encode()
            elif self.lookup(name) is not None:
                io.out += f"{name} is /system/bin/{name.rpartition('/')[2]}\n".encode()
            else:
                io.out += f"{name} not found\n".encode()
                status = 1
        return status

    def _command(self, argv: list[str], io: _IO) -> int:
        if len(argv) > 2 and argv[1] in ("-v", "-V"):
            status = 0
            for name in argv[2:]:
                if name in self.builtins:
                    io.out += f"{name}\n".encode()
                elif self.lookup(name) is not None:
                    io.out += f"/system/bin/{name.rpartition('/')[2]}\n".encode()
                else:
                    status = 1
            return status
        return self.invoke(argv[1:], io) if len(argv) > 1 else 0


def _join(prefix: str, name: str) -> str:
    if not prefix:
        return name
    return prefix + name if prefix.endswith("/") else f"{prefix}/{name}"


class _Arith:
    """``$((...))``: integers, variables, C operators and ``?:``; wraps to 32 bits as mksh does."""

    _TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)|([A-Za-z_]\w*)|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%()<>!~&|^?:]))")
    _BINARY = {"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7,
               "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

    def __init__(self, expr: str, variables: dict[str, str]) -> None:
        self.expr = expr
        self.vars = variables
        self.tokens: list[tuple[str, str]] = []
        pos = 0
        while pos < len(expr):
            if expr[pos:].strip() == "":
                break
            match = self._TOKEN.match(expr, pos)
            if not match:
                raise _Fatal(f"{expr.strip()}: unexpected '{expr[pos:].strip()[:1]}'")
            number, name, op = match.groups()
            self.tokens.append(("n", number) if number else ("v", name) if name else ("o", op))
            pos = match.end()
        self.pos = 0

    def evaluate(self) -> int:
        if not self.tokens:
            return 0
        value = self.ternary()
        if self.pos != len(self.tokens):
            raise _Fatal(f"{self.expr.strip()}: unexpected '{self.tokens[self.pos][1]}'")
        return value

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def ternary(self) -> int:
        cond = self.binary(1)
        if self._peek() == ("o", "?"):
            self.pos += 1
            yes = self.ternary()
            if self._peek() != ("o", ":"):
                raise _Fatal(f"{self.expr.strip()}: missing ':'")
            self.pos += 1
            no = self.ternary()
            return yes if cond else no
        return cond

    def binary(self, level: int) -> int:
        left = self.unary()
        while True:
            token = self._peek()
            if token is None or token[0] != "o" or self._BINARY.get(token[1], 0) < level:
                return left
            op = token[1]
            self.pos += 1
            right = self.binary(self._BINARY[op] + 1)
            left = _wrap(self._apply(op, left, right))

    def _apply(self, op: str, a: int, b: int) -> int:
        if op in ("/", "%"):
            if b == 0:
                raise _Fatal(f"{self.expr.strip()}: divisor by zero")
            quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            return quotient if op == "/" else a - b * quotient
        table: dict[str, Callable[[int, int], int]] = {
            "||": lambda x, y: int(bool(x) or bool(y)), "&&": lambda x, y: int(bool(x) and bool(y)),
            "|": lambda x, y: x | y, "^": lambda x, y: x ^ y, "&": lambda x, y: x & y,
            "==": lambda x, y: int(x == y), "!=": lambda x, y: int(x != y), "<": lambda x, y: int(x < y),
            ">": lambda x, y: int(x > y), "<=": lambda x, y: int(x <= y), ">=": lambda x, y: int(x >= y),
            "<<": lambda x, y: x << (y & 31), ">>": lambda x, y: x >> (y & 31), "+": lambda x, y: x + y,
            "-": lambda x, y: x - y, "*": lambda x, y: x * y}
        return table[op](a, b)

    def unary(self) -> int:
        token = self._peek()
        if token is None:
            raise _Fatal(f"{self.expr.strip()}: unexpected end of expression")
        self.pos += 1
        kind, text = token
        if kind == "n":
            return _wrap(int(text, 16) if text[:2].lower() == "0x" else int(text, 8) if len(text) > 1
                         and text[0] == "0" else int(text))
        if kind == "v":
            value = self.vars.get(text, "").strip() or "0"
            try:
                return _wrap(int(value, 0))
            except ValueError:
                return _Arith(value, self.vars).evaluate() if value != text else 0
        if text == "(":
            value = self.ternary()
            if self._peek() != ("o", ")"):
                raise _Fatal(f"{self.expr.strip()}: missing ')'")
            self.pos += 1
            return value
        if text in "+-!~":
            value = self.unary()
            return _wrap({"+": value, "-": -value, "!": int(not value), "~": ~value}[text])
        raise _Fatal(f"{self.expr.strip()}: unexpected '{text}'")


def _wrap(value: int) -> int:
    return (value + 2**31) % 2**32 - 2**31


# =============================================================================================================
# Public API
# =============================================================================================================
class Shell:
    """``/system/bin/sh`` of one phone. ``run`` never raises: errors become stderr and an exit code."""

    def __init__(self, phone: Phone) -> None:
        self._phone = phone

    @property
    def commands(self) -> list[str]:
        """Names of the device commands (``/system/bin``)."""
        return sorted(_COMMANDS)

    def run(self, command: str, stdin: bytes = b"") -> ShellOutput:
        """Run ``command`` as ``sh -c`` would, from ``/``, with ``stdin`` on standard input."""
        out, err = bytearray(), bytearray()
        try:
            interp = _Interp(self._phone, dict(ENVIRONMENT), "/", 0, [MAX_COMMANDS])
            status = interp.run_script(command, _IO(_Input(stdin), out, err))
        except _Exit as done:
            status = done.status & 0xFF
        except _Abort as error:
            err += f"{SHELL}: {error}\n".encode()
            status = 1
        except RecursionError:
            err += f"{SHELL}: expression too deeply nested\n".encode()
            status = 1
        except Exception as error:  # never let a simulator bug escape to the caller
            err += f"{SHELL}: internal error: {type(error).__name__}: {error}\n".encode()
            status = 1
        return ShellOutput(bytes(out), bytes(err), status)
