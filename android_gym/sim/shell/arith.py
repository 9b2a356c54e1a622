"""``$((...))`` arithmetic: mksh's 32-bit signed integers with C operators and semantics."""

from __future__ import annotations

import re
from collections.abc import Callable

from android_gym.sim.int32 import to_int32
from android_gym.sim.shell.errors import _Fatal


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
            left = to_int32(self._apply(op, left, right))

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
            return to_int32(int(text, 16) if text[:2].lower() == "0x" else int(text, 8) if len(text) > 1
                         and text[0] == "0" else int(text))
        if kind == "v":
            value = self.vars.get(text, "").strip() or "0"
            try:
                return to_int32(int(value, 0))
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
            return to_int32({"+": value, "-": -value, "!": int(not value), "~": ~value}[text])
        raise _Fatal(f"{self.expr.strip()}: unexpected '{text}'")
