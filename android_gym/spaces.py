"""``SharedText``: gymnasium's ``Text`` space, made safe for ``AsyncVectorEnv``'s shared memory.

gymnasium 1.4's ``AsyncVectorEnv`` (what ``gym.make_vec(..., vectorization_mode="async")`` builds, shared memory
on by default) reads a ``Text`` field out of its shared buffer once, when it is built, into a tuple of strings that
never changes again: every later observation silently shows that first, blank text. The three functions
gymnasium dispatches on the space's type are registered here for ``SharedText``: each worker writes its env's
string (UTF-8) and length into the buffer, and the vector observation holds a ``SharedStrings`` view that decodes
the current strings when read. ``AsyncVectorEnv`` returns a deep copy of its observations (``copy=True``, the
default), and a ``SharedStrings`` deep-copies to a plain tuple of ``str`` — exactly what ``SyncVectorEnv`` gives.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory


class SharedText(spaces.Text):
    """A ``gymnasium.spaces.Text`` whose values reach ``AsyncVectorEnv``'s caller intact through shared memory.

    Same arguments and behaviour as ``Text``; the vector env's shared-memory transport differs, and ``contains``
    checks the characters in one set operation (gymnasium's loops over them in Python: a 40,000-character tree took
    about 3 ms, checked at every step by Gymnasium's env checker and by wrappers' tests).
    """

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of an allowed length made only of the space's characters."""
        return (isinstance(x, str) and self.min_length <= len(x) <= self.max_length
                and self.character_set.issuperset(x))


class _TextBuffer(NamedTuple):
    """The shared memory of one ``SharedText`` field for ``n`` envs: ``n`` slots of ``slot`` bytes, and lengths."""

    data: Any  # multiprocessing Array of unsigned bytes, n * slot
    lengths: Any  # multiprocessing Array of int64, n
    slot: int


def _slot_bytes(space: SharedText) -> int:
    """The UTF-8 size of the longest string ``space`` holds."""
    widest = max((len(char.encode()) for char in space.character_set), default=1)
    return space.max_length * widest


class SharedStrings(Sequence):
    """The live strings of a ``SharedText`` field of a vector env, decoded from shared memory when read."""

    def __init__(self, buffer: _TextBuffer, n: int) -> None:
        self._buffer, self._n = buffer, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        if not -self._n <= index < self._n:
            raise IndexError(f"env index {index} out of range for {self._n} envs")
        index %= self._n
        data = np.frombuffer(self._buffer.data.get_obj(), dtype=np.uint8)
        start = index * self._buffer.slot
        return data[start:start + self._buffer.lengths[index]].tobytes().decode()

    def __iter__(self) -> Iterator[str]:
        return (self[index] for index in range(self._n))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # mutable view, like a list

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[str, ...]:
        return tuple(self)

    def __repr__(self) -> str:
        return f"SharedStrings({tuple(self)!r})"


@create_shared_memory.register(SharedText)
def _create_shared_text(space: SharedText, n: int = 1, ctx: Any = multiprocessing) -> _TextBuffer:
    slot = _slot_bytes(space)
    return _TextBuffer(ctx.Array("B", n * slot), ctx.Array("q", n), slot)


@read_from_shared_memory.register(SharedText)
def _read_shared_text(space: SharedText, shared_memory: _TextBuffer, n: int = 1) -> SharedStrings:
    return SharedStrings(shared_memory, n)


@write_to_shared_memory.register(SharedText)
def _write_shared_text(space: SharedText, index: int, value: str, shared_memory: _TextBuffer) -> None:
    encoded = value.encode()
    if len(encoded) > shared_memory.slot:
        raise ValueError(f"a {len(value)}-character text does not fit the space's {space.max_length}")
    data = np.frombuffer(shared_memory.data.get_obj(), dtype=np.uint8)
    start = index * shared_memory.slot
    data[start:start + len(encoded)] = np.frombuffer(encoded, dtype=np.uint8)
    shared_memory.lengths[index] = len(encoded)
