"""``find`` with toybox's expression language (``toys/posix/find.c``): ``-name -iname -path -ipath -type
-maxdepth -mindepth -mtime -mmin -atime -ctime -newer -size -empty -print -print0 -delete -exec -prune -true
-false ! -not -a -and -o -or ( )``. Traversal is sorted (a real directory is read in disk order).

toybox's ``-mtime N`` compares ``now - mtime`` with ``N`` days exactly (``-N`` less, ``+N`` more), with the
phone's clock as "now".
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import stat as st_mode
from collections.abc import Callable
from dataclasses import dataclass, field

from android_gym.sim.shell.commands.base import CommandContext, blocks_1k, strerror


class _FindError(Exception):
    """A malformed expression (toybox ``error_exit``)."""


@dataclass
class _Node:
    """One file being tested: its file type (``S_IFMT`` bits) and, when the expression reads more of it
    (``_READS_STAT``), its ``stat``, taken when its directory was read, as toybox does."""

    path: str
    host: str
    kind: int
    depth: int
    st: os.stat_result | None = None

    @property
    def info(self) -> os.stat_result:
        """The ``stat`` a test reads (taken for every node when the expression has such a test)."""
        if self.st is None:
            raise AssertionError("stat of a node read by a test not in _READS_STAT")
        return self.st


@dataclass
class _Expr:
    kind: str  # "test", "not", "and", "or"
    name: str = ""
    arg: object = None
    children: list[_Expr] = field(default_factory=list)


_TESTS_WITH_ARG = {"-name", "-iname", "-path", "-ipath", "-wholename", "-type", "-mtime", "-mmin", "-atime",
                   "-amin", "-ctime", "-cmin", "-newer", "-size", "-perm", "-user", "-group", "-links",
                   "-inum", "-context", "-samefile"}
_TESTS_PLAIN = {"-print", "-print0", "-delete", "-prune", "-true", "-false", "-empty", "-quit", "-depth",
                "-xdev", "-nouser", "-nogroup", "-executable", "-readable", "-writable"}
#: ``-type`` letters and the mode test of each.
_KINDS = {"f": st_mode.S_ISREG, "d": st_mode.S_ISDIR, "l": st_mode.S_ISLNK, "p": st_mode.S_ISFIFO,
          "s": st_mode.S_ISSOCK, "b": st_mode.S_ISBLK, "c": st_mode.S_ISCHR}
#: The file types (``S_IFMT`` bits) a node can have.
_FILE_TYPES = (st_mode.S_IFREG, st_mode.S_IFDIR, st_mode.S_IFLNK, st_mode.S_IFIFO, st_mode.S_IFSOCK, st_mode.S_IFBLK,
               st_mode.S_IFCHR)
_ACTIONS = {"-print", "-print0", "-delete", "-exec", "-execdir", "-ok", "-okdir", "-quit"}
#: Tests that read more of a file than its name and type.
_READS_STAT = {"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer", "-size", "-empty", "-executable"}


class _Parser:
    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.pos = 0
        self.has_action = False
        self.reads_stat = False  # whether a test reads more than the name and type (``_READS_STAT``)
        self.options: dict[str, int] = {}

    def parse(self) -> _Expr:
        if not self.args:
            return _Expr("test", "-true")
        expr = self.or_expr()
        if self.pos < len(self.args):
            raise _FindError(f"bad arg '{self.args[self.pos]}'")
        return expr

    def or_expr(self) -> _Expr:
        left = self.and_expr()
        while self.pos < len(self.args) and self.args[self.pos] in ("-o", "-or"):
            self.pos += 1
            left = _Expr("or", children=[left, self.and_expr()])
        return left

    def and_expr(self) -> _Expr:
        left = self.unary()
        while self.pos < len(self.args) and self.args[self.pos] not in ("-o", "-or", ")"):
            if self.args[self.pos] in ("-a", "-and"):
                self.pos += 1
            left = _Expr("and", children=[left, self.unary()])
        return left

    def unary(self) -> _Expr:
        if self.pos >= len(self.args):
            raise _FindError("missing expression")
        arg = self.args[self.pos]
        self.pos += 1
        if arg in ("!", "-not"):
            return _Expr("not", children=[self.unary()])
        if arg == "(":
            inner = self.or_expr()
            if self.pos >= len(self.args) or self.args[self.pos] != ")":
                raise _FindError("missing ')'")
            self.pos += 1
            return inner
        if arg in ("-maxdepth", "-mindepth"):
            value = self.value(arg)
            if not value.isdigit():
                raise _FindError(f"{value} not [+-]N")
            self.options[arg] = int(value)
            return _Expr("test", "-true")
        if arg in _ACTIONS:
            self.has_action = True
        if arg in ("-exec", "-execdir", "-ok", "-okdir"):
            command = []
            while self.pos < len(self.args) and self.args[self.pos] not in (";", "+"):
                command.append(self.args[self.pos])
                self.pos += 1
            if self.pos >= len(self.args) or not command:
                raise _FindError(f"'{arg}' needs 1 arg")
            batch = self.args[self.pos] == "+"
            self.pos += 1
            return _Expr("test", "-exec", (command, batch))
        self.reads_stat |= arg in _READS_STAT
        if arg in _TESTS_WITH_ARG:
            return _Expr("test", arg, self.value(arg))
        if arg in _TESTS_PLAIN:
            if arg == "-delete":
                self.options["-depth"] = 1
            elif arg == "-depth":
                self.options["-depth"] = 1
            return _Expr("test", arg)
        raise _FindError(f"bad arg '{arg}'")

    def value(self, name: str) -> str:
        if self.pos >= len(self.args):
            raise _FindError(f"'{name}' needs 1 arg")
        self.pos += 1
        return self.args[self.pos - 1]


@functools.cache
def _file_types(letters: str) -> frozenset[int] | None:
    """The file types a ``-type`` of ``letters`` (comma-separated or not) matches; ``None`` for no letters or a bad
    one (told as the walk tests it, by ``test``)."""
    letters = letters.replace(",", "")
    if not letters or not all(letter in _KINDS for letter in letters):
        return None
    return frozenset(kind for kind in _FILE_TYPES if any(_KINDS[letter](kind) for letter in letters))


def _is_true(expr: _Expr) -> bool:
    """Whether ``expr`` is the test ``-true`` (as ``-mindepth`` and ``-maxdepth`` leave in the expression)."""
    return expr.kind == "test" and expr.name == "-true"


def _compare(value: float, spec: str, unit: float) -> bool:
    """toybox ``compare_numsign``: ``+N`` more than, ``-N`` less than, ``N`` exactly ``N`` units."""
    sign = spec[:1] if spec[:1] in "+-" else ""
    number = spec[len(sign):]
    if not re.fullmatch(r"\d+", number):
        raise _FindError(f"{spec} not [+-]N")
    limit = int(number) * unit
    return value > limit if sign == "+" else value < limit if sign == "-" else value == limit


class _Finder:
    def __init__(self, ctx: CommandContext, expr: _Expr, options: dict[str, int]) -> None:
        self.ctx = ctx
        self.matches = self._compiled(expr)
        self.max_depth = options.get("-maxdepth")
        self.min_depth = options.get("-mindepth", 0)
        self.depth_first = bool(options.get("-depth"))
        self.now = ctx.now_ms() / 1000
        self.pending_exec: dict[int, list[str]] = {}
        self.status = 0
        self.quit = False
        self.pruned = False
        self.has_action = False
        self.reads_stat = False
        self._batches: dict[int, list[str]] = {}
        # The folders ``-delete`` removed entries from, given device time once each (``_stamp_emptied``) rather than
        # at every removal: the clock stands still meanwhile, and nothing looks at their times in between.
        self._emptied: dict[str, None] = {}

    def _compiled(self, expr: _Expr) -> Callable[[_Node], bool]:
        """``expr`` as a function of a node, made once for the whole walk: the operators as calls of their operands'
        functions (a ``-true``, which ``-mindepth``/``-maxdepth`` leave, dropped from an ``-a``), a ``-type`` of
        known letters as a set of file types, every other test as ``test`` of it."""
        if expr.kind == "not":
            operand = self._compiled(expr.children[0])
            return lambda node: not operand(node)
        if expr.kind in ("and", "or"):
            first, second = expr.children
            if expr.kind == "and" and (_is_true(first) or _is_true(second)):
                return self._compiled(second if _is_true(first) else first)
            left, right = self._compiled(first), self._compiled(second)
            if expr.kind == "or":
                return lambda node: left(node) or right(node)
            return lambda node: left(node) and right(node)
        if _is_true(expr):
            return lambda node: True
        kinds = _file_types(str(expr.arg)) if expr.name == "-type" else None
        if kinds is not None:
            return lambda node: node.kind in kinds
        return functools.partial(self.test, expr)

    def test(self, expr: _Expr, node: _Node) -> bool:
        name, arg, ctx = expr.name, expr.arg, self.ctx
        if name in ("-true", "-depth", "-xdev", "-readable", "-writable"):
            return True
        if name in ("-false", "-nouser", "-nogroup"):
            return False
        if name in ("-name", "-iname"):
            fold, base = name == "-iname", os.path.basename(node.path.rstrip("/")) or node.path
            return fnmatch.fnmatchcase(base.lower() if fold else base, arg.lower() if fold else arg)
        if name in ("-path", "-ipath", "-wholename"):
            fold = name == "-ipath"
            return fnmatch.fnmatchcase(node.path.lower() if fold else node.path, arg.lower() if fold else arg)
        if name == "-type":
            letters = [c for c in arg if c != ","]
            for letter in letters:
                if letter not in _KINDS:
                    raise _FindError(f"bad -type '{letter}'")
            return any(_KINDS[letter](node.kind) for letter in letters)
        if name in ("-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin"):
            spec, unit = arg, 60 if name.endswith("min") else 86400
            if spec[-1:].lower() in "dhms" and spec[-1:].isalpha():
                unit = {"d": 86400, "h": 3600, "m": 60, "s": 1}[spec[-1].lower()]
                spec = spec[:-1]
            return _compare(self.now - node.info.st_mtime, spec, unit)
        if name == "-newer":
            try:
                return node.info.st_mtime_ns > ctx.host(arg).stat().st_mtime_ns
            except OSError as error:
                raise _FindError(f"'{arg}': {strerror(error)}") from None
        if name == "-size":
            match = re.fullmatch(r"([+-]?\d+)([bckMG]?)", arg)
            if not match:
                raise _FindError(f"bad -size '{arg}'")
            unit = {"": 512, "b": 512, "c": 1, "k": 1024, "M": 1024**2, "G": 1024**3}[match.group(2)]
            size = node.info.st_size if not st_mode.S_ISDIR(node.info.st_mode) else blocks_1k(node.info) * 1024
            return _compare(-(-size // unit), match.group(1), 1)
        if name == "-empty":
            if st_mode.S_ISDIR(node.info.st_mode):
                return not any(os.scandir(node.host))
            return st_mode.S_ISREG(node.info.st_mode) and node.info.st_size == 0
        if name == "-executable":
            return bool(node.info.st_mode & 0o111)
        if name in ("-perm", "-user", "-group", "-links", "-inum", "-context", "-samefile"):
            return name == "-user" and arg == "root"
        if name in ("-print", "-print0"):
            ctx.out(node.path + ("\0" if name == "-print0" else "\n"))
            return True
        if name == "-delete":
            try:
                if st_mode.S_ISDIR(node.kind):
                    os.rmdir(node.host)
                else:
                    os.unlink(node.host)
                self._emptied[os.path.dirname(node.host)] = None  # it shows device time, not the host's
                if self.reads_stat:  # a test reads times: at once
                    self._stamp_emptied()
            except OSError as error:
                ctx.err(f"find: '{node.path}': {strerror(error)}\n")
                self.status = 1
                return False
            return True
        if name == "-prune":
            self.pruned = True
            return True
        if name == "-quit":
            self.quit = True
            return True
        if name == "-exec":
            command, batch = arg
            if batch:
                self.pending_exec.setdefault(id(expr), [])
                self.pending_exec[id(expr)].append(node.path)
                self._batches[id(expr)] = command
                return True
            self._stamp_emptied()  # before the command looks
            return ctx.run_argv([part.replace("{}", node.path) for part in command]) == 0
        raise _FindError(f"bad arg '{name}'")

    def walk(self, start: str) -> None:
        host = os.fspath(self.ctx.host(start))
        try:
            info = self.ctx.stat(host, follow_symlinks=False)
        except OSError as error:
            self.ctx.err(f"find: '{start}': {strerror(error)}\n")
            self.status = 1
            return
        try:
            self._visit(_Node(start, host, st_mode.S_IFMT(info.st_mode), 0, info))
        finally:
            self._stamp_emptied()
        for key, paths in self.pending_exec.items():
            command = self._batches[key]
            at = command.index("{}") if "{}" in command else len(command)
            self.ctx.run_argv(command[:at] + paths + command[at + 1:])
        self.pending_exec.clear()

    def _stamp_emptied(self) -> None:
        """Device time on the folders ``-delete`` removed entries from since the last call (those still there)."""
        for directory in self._emptied:
            self.ctx.stamp(directory)
        self._emptied.clear()

    def _visit(self, node: _Node) -> None:
        if self.quit:
            return
        max_depth, min_depth, depth_first = self.max_depth, self.min_depth, self.depth_first
        is_dir = st_mode.S_ISDIR(node.kind)
        self.pruned = False
        if not depth_first and node.depth >= min_depth:
            self._match(node)
        pruned = self.pruned
        if is_dir and not pruned and (max_depth is None or node.depth < max_depth):
            try:
                with os.scandir(node.host) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError as error:
                self.ctx.err(f"find: '{node.path}': {strerror(error)}\n")
                self.status = 1
                entries = []
            for entry in entries:
                try:
                    child = self._node(entry, node)
                except OSError:
                    continue
                self._visit(child)
                if self.quit:
                    return
        if depth_first and node.depth >= min_depth:
            self._match(node)

    def _node(self, entry: os.DirEntry[str], parent: _Node) -> _Node:
        """The node of a directory entry: its type from the directory read (no ``stat``), unless a test reads
        more of it."""
        path = parent.path + entry.name if parent.path.endswith("/") else f"{parent.path}/{entry.name}"
        if self.reads_stat:
            info = self.ctx.stat(entry.path, follow_symlinks=False)
            return _Node(path, entry.path, st_mode.S_IFMT(info.st_mode), parent.depth + 1, info)
        return _Node(path, entry.path, _entry_kind(entry), parent.depth + 1)

    def _match(self, node: _Node) -> None:
        matched = self.matches(node)
        if matched and not self.has_action:
            self.ctx.out(node.path + "\n")


def _entry_kind(entry: os.DirEntry[str]) -> int:
    """The file type bits of a directory entry, from the directory read where it tells them."""
    if entry.is_symlink():
        return st_mode.S_IFLNK
    if entry.is_dir(follow_symlinks=False):
        return st_mode.S_IFDIR
    if entry.is_file(follow_symlinks=False):
        return st_mode.S_IFREG
    return st_mode.S_IFMT(entry.stat(follow_symlinks=False).st_mode)


def find(ctx: CommandContext, argv: list[str]) -> int:
    """``find [-HL] [PATH...] [EXPRESSION]`` (default path ``.``, default action ``-print``)."""
    args = [a for a in argv[1:]]
    while args and args[0] in ("-H", "-L", "-P"):
        args.pop(0)
    split = next((i for i, a in enumerate(args) if a and a[0] in "-!("), len(args))
    paths, expression = args[:split] or ["."], args[split:]
    parser = _Parser(expression)
    try:
        expr = parser.parse()
    except _FindError as error:
        return ctx.fail("find", str(error))
    finder = _Finder(ctx, expr, parser.options)
    finder.has_action, finder.reads_stat = parser.has_action, parser.reads_stat
    try:
        for path in paths:
            finder.walk(path)
            if finder.quit:
                break
    except _FindError as error:
        return ctx.fail("find", str(error))
    return finder.status


COMMANDS = {"find": find}
