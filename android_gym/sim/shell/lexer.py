"""Lexer: a command line to tokens (words keep their quotes), here-document bodies, and the quote scanners.

Scanning rules for ``'...'``, ``"..."``, backquotes, ``$(...)``, ``${...}`` and ``$'...'`` live here; word
expansion reuses them to find where a quoted part ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from android_gym.sim.shell.errors import ShellSyntaxError

_OPERATORS = ("&&", "||", ";;", ">>", "<<-", "<<", "&>", ">&", "<&", ">|", "<>", ";", "&", "|", "(", ")", "<",
              ">")
_REDIRECTS = frozenset({">>", "<<-", "<<", "&>", ">&", "<&", ">|", "<>", "<", ">"})
_WORD_END = frozenset(" \t\n;&|()<>")
_PLAIN_RUN = re.compile(r"[^ \t\n;&|()<>\\'\"`$]*")  # characters that stand for themselves in a word
_OPERATOR_START = frozenset(operator[0] for operator in _OPERATORS)  # the characters an operator starts with
#: Blanks, then a word of characters that stand for themselves ending where an operator, a blank or the line does
#: (not a redirection, which a word of digits before it would make a file descriptor): most of a line's tokens, read
#: in one match. A comment's ``#`` does not start one.
_BLANKS_PLAIN_WORD = re.compile(r"[ \t\r]*([^ \t\r\n;&|()<>\\'\"`$#][^ \t\n;&|()<>\\'\"`$]*)(?=[ \t\n;&|()]|\Z)")


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
    while True:
        i = _PLAIN_RUN.match(s, i).end()
        if i >= n or s[i] in _WORD_END:
            break
        c = s[i]
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
    end = min(i, n)  # a backslash ending the line steps past it
    return s[start:end], end


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
        plain = _BLANKS_PLAIN_WORD.match(s, i)
        if plain:
            tokens.append(("W", plain.group(1), None))
            i = plain.end()
            continue
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
            op = next((o for o in _OPERATORS if s.startswith(o, i)), None) if c in _OPERATOR_START else None
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
