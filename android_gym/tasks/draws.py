"""The integers a NumPy ``Generator`` would draw one call at a time, drawn in blocks.

A call of ``rng.integers(low, high)`` costs a few microseconds of argument handling for one number; a task that
draws tens of rows makes hundreds. ``exact_draws(rng)`` gives an object whose ``integers(low, high)`` returns, call
for call, what ``rng.integers(low, high)`` would have (a seed keeps drawing the same parameters), and leaves
``rng`` exactly where those calls would have left it.

How NumPy draws a bounded integer (``random_bounded_uint64`` in ``numpy/random/src/distributions``): for a range
``r`` = high - low of at most 2**32 it takes the generator's next 32-bit output ``u`` (``next_uint32``) and returns
``low + (u * r >> 32)`` (Lemire's method), drawing ``u`` again while the low 32 bits of ``u * r`` fall below
``2**32 % r``; a range of 1 draws nothing, a range of exactly 2**32 returns ``low + u``. Here the 32-bit outputs
come from ``rng.integers(0, 2**32, size=n)``, which returns ``next_uint32`` outputs in order; on leaving, the
generator's state is put back and advanced by just the outputs used.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

import numpy as np

_SPAN = 1 << 32
_BLOCK = 256  # 32-bit outputs drawn at a time


class Integers(Protocol):
    """What a row generator draws from: a ``Generator`` or an ``ExactDraws``."""

    def integers(self, low: int, high: int | None = None) -> Any:
        """A number from ``low`` to ``high`` - 1 (``integers(n)``: 0 to n - 1)."""
        ...


class ExactDraws:
    """``integers`` as ``Generator.integers`` for ranges of at most 2**32, from blocks of 32-bit outputs."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._outputs: list[int] = []
        self._used = 0

    def integers(self, low: int, high: int | None = None) -> int:
        """What ``rng.integers(low, high)`` returns (``integers(n)``: 0 to n - 1), as a Python ``int``."""
        if high is None:
            low, high = 0, low
        span = high - low
        if not 0 < span <= _SPAN:
            raise ValueError(f"integers({low}, {high}): the range must hold 1 to 2**32 values")
        if span == 1:
            return low
        if span == _SPAN:
            return low + self._next()
        product = self._next() * span
        if (product & 0xFFFFFFFF) < span:
            threshold = (_SPAN - span) % span
            while (product & 0xFFFFFFFF) < threshold:
                product = self._next() * span
        return low + (product >> 32)

    def _next(self) -> int:
        if self._used == len(self._outputs):
            self._outputs += self._rng.integers(0, _SPAN, size=_BLOCK).tolist()
        self._used += 1
        return self._outputs[self._used - 1]

    @property
    def used(self) -> int:
        """How many 32-bit outputs the draws so far took."""
        return self._used


@contextmanager
def exact_draws(rng: np.random.Generator) -> Iterator[ExactDraws]:
    """Draws as ``rng.integers`` makes them; afterwards ``rng`` is where those calls would have left it. Draw from
    ``rng`` itself only after the block."""
    start = rng.bit_generator.state
    draws = ExactDraws(rng)
    try:
        yield draws
    finally:
        rng.bit_generator.state = start
        if draws.used:
            rng.integers(0, _SPAN, size=draws.used)
