"""What a NumPy ``Generator`` would draw one call at a time, drawn in blocks.

A call of ``rng.integers(low, high)`` costs a few microseconds of argument handling for one number; a task that
draws tens of rows makes hundreds. ``exact_draws(rng)`` gives an object whose ``integers``, ``random`` and
``bytes`` return, call for call, what the generator's would have (a seed keeps drawing the same parameters), and
leaves ``rng`` exactly where those calls would have left it. A task that draws hundreds of rows of small integers
(a recipe is six, drawn again until one passes a filter) takes them from ``integer_rows``, which works them out a
block at a time with NumPy.

How NumPy draws (``numpy/random/src/distributions`` and ``pcg64.h``, the default bit generator's): the bit
generator gives 64-bit outputs; a 32-bit output is the low half of a new one, whose high half is kept for the next
32-bit request (the state's ``has_uint32``/``uinteger``). A bounded integer in a range of ``r`` = high - low values
uses Lemire's method: for ``r`` up to 2**32, the next 32-bit output ``u`` gives ``low + (u * r >> 32)``, drawn again
while the low 32 bits of ``u * r`` fall below ``2**32 % r``; a larger range does the same with 64-bit outputs; a
range of 1 draws nothing, a range of exactly 2**32 or 2**64 returns ``low`` plus the output. ``random()`` is the top
53 bits of a 64-bit output over 2**53; ``bytes(n)`` the little-endian bytes of ⌈n/4⌉ 32-bit outputs. The 64-bit
outputs come from ``random_raw`` in blocks, which leaves the kept half alone; on leaving, the generator steps back
over the outputs drawn but not used, and keeps the half the draws left.
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeAlias

import numpy as np

_FIRST_BLOCK = 32  # 64-bit outputs drawn at first; each further block doubles what was drawn
# ``integer_rows``: the rows drawn call by call at first, then blocks of 32, 64, ... up to 1,024 rows.
_CALLED_ROWS, _FIRST_ROWS, _MAX_ROWS = 8, 32, 1024
_MASK32, _MASK64 = (1 << 32) - 1, (1 << 64) - 1


class ExactDraws:
    """``integers``, ``random`` and ``bytes`` as a PCG64 ``Generator``'s, from blocks of its 64-bit outputs."""

    def __init__(self, rng: np.random.Generator) -> None:
        self._bit_generator = rng.bit_generator
        state = self._bit_generator.state
        # The high half of the last 64-bit output split for 32-bit draws, and whether it is still to be used.
        self._half, self._has_half = state["uinteger"], bool(state["has_uint32"])
        self._outputs: list[int] = []  # 64-bit outputs drawn from the bit generator
        self.used = 0  # of which the draws took this many

    def integers(self, low: int, high: int | None = None) -> int:
        """What ``rng.integers(low, high)`` returns (``integers(n)``: 0 to n - 1), as a Python ``int``."""
        if high is None:
            low, high = 0, low
        span = high - low
        if 1 < span < 1 << 32:  # the common case, with ``_next32`` and ``_next64`` written out
            if self._has_half:
                self._has_half = False
                product = self._half * span
            else:
                used = self.used
                if used == len(self._outputs):
                    self._draw_block()
                output = self._outputs[used]
                self.used = used + 1
                self._half, self._has_half = output >> 32, True
                product = (output & _MASK32) * span
            if product & _MASK32 < span:
                product = self._redraw(product, span, 32, _MASK32, self._next32)
            return low + (product >> 32)
        if span == 1:
            return low
        if not 1 < span <= 1 << 64:
            raise ValueError(f"integers({low}, {high}): the range must hold 1 to 2**64 values")
        if span == 1 << 32:
            return low + self._next32()
        if span == 1 << 64:
            return low + self._next64()
        product = self._next64() * span
        if product & _MASK64 < span:
            product = self._redraw(product, span, 64, _MASK64, self._next64)
        return low + (product >> 64)

    @staticmethod
    def _redraw(product: int, span: int, bits: int, mask: int, output: Callable[[], int]) -> int:
        """Lemire's rejection: ``product`` (an output times ``span``, its low ``bits`` below ``span``: the callers
        test that first) drawn again while its low ``bits`` fall below ``2**bits % span``."""
        threshold = (mask + 1 - span) % span
        while product & mask < threshold:
            product = output() * span
        return product

    def random(self) -> float:
        """What ``rng.random()`` returns: a float in [0, 1)."""
        return (self._next64() >> 11) * (1.0 / 9007199254740992.0)

    def bytes(self, length: int) -> bytes:
        """What ``rng.bytes(length)`` returns: its ⌈length/4⌉ 32-bit outputs, a kept half first, then whole 64-bit
        outputs (a little-endian output is its low half, then its high half), then a last half if one is left."""
        count = (length + 3) // 4
        head = [self._next32()] if count and self._has_half else []
        pairs, odd = divmod(count - len(head), 2)
        while len(self._outputs) < self.used + pairs:
            self._draw_block()
        whole = self._outputs[self.used:self.used + pairs]
        if whole:  # each was split and both halves used: the state keeps the last high half
            self.used += pairs
            self._half = whole[-1] >> 32
        tail = [self._next32()] if odd else []
        return struct.pack(f"<{len(head)}I{pairs}Q{odd}I", *head, *whole, *tail)[:length]

    def integer_rows(self, highs: Sequence[int]) -> Iterator[list[int]]:
        """Endless rows of what ``integers(high)`` returns for each of ``highs`` (each 2 to 2**32 - 1) in turn,
        worked out in blocks with NumPy (``_integer_block``); a row's draws are made when it is taken (``next``), so
        rows left untaken leave the generator where the rows taken would, and a draw made in between is seen."""
        spans = np.array(highs, dtype=np.uint64)
        if not all(1 < high < 1 << 32 for high in highs):
            raise ValueError(f"integer_rows({list(highs)}): each range must hold 2 to 2**32 - 1 values")
        yield from self._called_rows(highs, _CALLED_ROWS)  # a block costs more than a few rows call by call
        rows = _FIRST_ROWS
        while True:
            block = self._integer_block(spans, rows)
            if block is None:  # some value may be drawn again
                yield from self._called_rows(highs, rows)
            else:
                for row, after in zip(*block):
                    self.used, self._has_half, self._half = after
                    yield row
                    if (self.used, self._has_half, self._half) != after:  # drawn from in between: anew from here
                        break
            rows = min(2 * rows, _MAX_ROWS)

    def _called_rows(self, highs: Sequence[int], rows: int) -> Iterator[list[int]]:
        """``rows`` rows of ``integers(high)`` for each of ``highs``, call by call."""
        return ([self.integers(high) for high in highs] for _ in range(rows))

    def _integer_block(self, spans: np.ndarray, rows: int) -> tuple[list[list[int]], list[tuple]] | None:
        """The next ``rows`` rows of ``integers(span)`` for each of ``spans``, and the state (``used``, whether a
        half is kept, the half the state holds) after each, without drawing them; ``None`` when Lemire's method
        might draw some value again (its product's low 32 bits below the span: about once in 2**32 / span)."""
        width, has_half, start = len(spans), self._has_half, self.used
        values = rows * width
        outputs = (values - has_half + 1) // 2  # the 64-bit outputs the rows' 32-bit values take
        while len(self._outputs) < start + outputs:
            self._draw_block()
        raw = np.array(self._outputs[start:start + outputs], dtype=np.uint64)
        halves = np.empty(has_half + 2 * outputs, dtype=np.uint64)  # the 32-bit values in the order taken
        halves[:has_half] = self._half
        halves[has_half::2], halves[has_half + 1::2] = raw & np.uint64(_MASK32), raw >> np.uint64(32)
        products = halves[:values].reshape(rows, width) * spans
        if ((products & np.uint64(_MASK32)) < spans).any():
            return None
        taken = np.arange(1, rows + 1) * width - has_half  # after each row: 32-bit values taken from new outputs
        used = start + (taken + 1) // 2
        # The state holds the high half of the last output split (kept or used), the old half until one is.
        half = np.where(taken > 0, raw[np.maximum(used - start - 1, 0)] >> np.uint64(32), self._half)
        after = list(zip(used.tolist(), (taken % 2).astype(bool).tolist(), half.tolist()))
        return (products >> np.uint64(32)).tolist(), after

    def _draw_block(self) -> None:
        """More 64-bit outputs from the bit generator: blocks of 32, 64, 128, ..."""
        self._outputs += self._bit_generator.random_raw(max(_FIRST_BLOCK, len(self._outputs))).tolist()

    def _next64(self) -> int:
        if self.used == len(self._outputs):
            self._draw_block()
        self.used += 1
        return self._outputs[self.used - 1]

    def _next32(self) -> int:
        if self._has_half:
            self._has_half = False
            return self._half
        output = self._next64()
        self._half, self._has_half = output >> 32, True
        return output & _MASK32

    def leave(self) -> None:
        """Put the generator where the draws so far would have left it: back over the outputs drawn but not used
        (PCG64 steps backwards by advancing 2**128 - n), the 32-bit half kept as the draws left it."""
        if not self._outputs and not self._has_half_changed():
            return
        unused = len(self._outputs) - self.used
        if unused:
            self._bit_generator.advance((1 << 128) - unused)
        state = self._bit_generator.state  # advancing forgot the kept half
        state["has_uint32"], state["uinteger"] = int(self._has_half), self._half
        self._bit_generator.state = state

    def _has_half_changed(self) -> bool:
        state = self._bit_generator.state
        return (bool(state["has_uint32"]), state["uinteger"]) != (self._has_half, self._half)


#: What a row generator draws from.
Rng: TypeAlias = "np.random.Generator | ExactDraws"


def integer_rows(rng: Rng, highs: Sequence[int]) -> Iterator[list[int]]:
    """Endless rows of ``rng.integers(high)`` for each of ``highs`` in turn: ``ExactDraws.integer_rows`` when ``rng``
    is one, else call by call."""
    if isinstance(rng, ExactDraws):
        return rng.integer_rows(highs)
    return ([int(rng.integers(high)) for high in highs] for _ in itertools.repeat(None))


def integer_list(rng: Rng, high: int, count: int) -> list[int]:
    """What ``rng.integers(high, size=count).tolist()`` gives: NumPy draws an array's values one after another as it
    draws one (``random_bounded_uint64_fill``), so an ``ExactDraws`` draws them call by call."""
    if isinstance(rng, ExactDraws):
        return [rng.integers(high) for _ in range(count)]
    return rng.integers(high, size=count).tolist()


def sample_indices(rng: Rng, n: int, k: int) -> list[int]:
    """What ``Generator.choice(n, size=k, replace=False)`` returns, as ``int``s, drawn as it draws them
    (``numpy/random/_generator.pyx``): Floyd's algorithm (for each ``j`` from ``n - k`` to ``n - 1``, ``integers(j +
    1)``, or ``j`` when that was taken), then a Fisher-Yates shuffle of the picks (``integers(i + 1)`` for each ``i``
    from ``k - 1`` down to 1); from more than 10,000 values, more than a fiftieth of them, the last ``k`` of the
    range shuffled from its end instead. From an ``ExactDraws``, a task's few picks cost a tenth of ``choice``'s."""
    if not 0 <= k <= n:
        raise ValueError(f"sample_indices({n}, {k}): cannot take {k} of {n} values without replacement")
    if n > 10_000 and k > n // 50:
        values = list(range(n))
        _shuffle(rng, values, max(n - k, 1))
        return values[n - k:]
    picks: list[int] = []
    taken: set[int] = set()
    for j in range(n - k, n):
        value = int(rng.integers(j + 1))
        if value in taken:
            value = j
        taken.add(value)
        picks.append(value)
    _shuffle(rng, picks, 1)
    return picks


def _shuffle(rng: Rng, values: list[int], first: int) -> None:
    """NumPy's ``_shuffle_int``: for ``i`` from the last index down to ``first``, swap ``values[i]`` with
    ``values[integers(i + 1)]``."""
    for i in range(len(values) - 1, first - 1, -1):
        j = int(rng.integers(i + 1))
        values[i], values[j] = values[j], values[i]


@contextmanager
def exact_draws(rng: Rng) -> Iterator[Rng]:
    """Draws as ``rng`` makes them (``rng`` itself unless it is a ``Generator`` on PCG64, such as an
    ``ExactDraws`` already); afterwards ``rng`` is where those calls would have left it. Draw from ``rng`` itself
    only after the block."""
    if not isinstance(rng, np.random.Generator) or type(rng.bit_generator) is not np.random.PCG64:
        yield rng
        return
    draws = ExactDraws(rng)
    try:
        yield draws
    finally:
        draws.leave()
