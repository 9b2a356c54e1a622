"""Parser: tokens -> immutable tree (cached per command string)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from android_gym.sim.shell.errors import ShellSyntaxError
from android_gym.sim.shell.lexer import Token, _HereDoc, _lex


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
    #: The command's fields when expansion leaves every word as it is (``stands_for_itself``), made once with the
    #: tree rather than at every run; ``None`` when a word has something to expand.
    fields: tuple[str, ...] | None = None


_QUOTE_OR_EXPANSION = re.compile(r"[\\'\"$`]")


def has_glob_magic(segment: str) -> bool:
    """Whether ``segment`` matches other names than itself under ``fnmatch``: it holds ``*`` or ``?``, or a ``[``
    that a ``]`` closes (an unclosed one is a literal ``[``: the test command ``[`` is no pattern)."""
    if "*" in segment or "?" in segment:
        return True
    start = segment.find("[")
    while start >= 0:
        end = start + 1
        end += segment.startswith("!", end)
        end += segment.startswith("]", end)  # a ``]`` first in the set is one of its characters
        if segment.find("]", end) >= 0:
            return True
        start = segment.find("[", start + 1)
    return False


def stands_for_itself(word: str) -> bool:
    """Whether expansion leaves ``word`` as it is, one field: no quote, backslash, ``$`` or backquote, no ``~`` in
    front and no glob pattern (``has_glob_magic``)."""
    return not (_QUOTE_OR_EXPANSION.search(word) or word.startswith("~") or has_glob_magic(word))


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
        tokens = self.tokens
        while True:
            kind, text, _ = tokens[self.pos]
            if kind == "W":  # the most frequent token, taken without ``peek`` and ``advance``
                self.pos += 1
                if not words and _ASSIGNMENT.match(text):
                    assigns.append(text)
                else:
                    words.append(text)
            elif kind in ("R", "H"):
                redirs.append(self.redirection())
            else:
                break
        if not (assigns or words or redirs):
            raise self.unexpected()
        literal = all(map(stands_for_itself, words))
        return _Simple(tuple(assigns), tuple(words), tuple(redirs), tuple(words) if literal else None)


def _parse_uncached(command: str) -> object:
    try:
        return _Parser(_lex(command)).program()
    except RecursionError:
        raise ShellSyntaxError("syntax error: expression too deeply nested") from None


_parse_cached = functools.lru_cache(maxsize=1024)(_parse_uncached)
# Long scripts that come back (a task's setup, ``restore_app_data``'s) get a few places of their own.
_parse_long_cached = functools.lru_cache(maxsize=64)(_parse_uncached)


def _parse(command: str) -> object:
    """The tree of a command line; short ones (the per-step commands) and the last long scripts up to 16 KiB
    are parsed once and cached."""
    if len(command) <= 1024:
        return _parse_cached(command)
    return _parse_long_cached(command) if len(command) <= 16384 else _parse_uncached(command)
