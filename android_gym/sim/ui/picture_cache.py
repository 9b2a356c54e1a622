"""Pictures kept by the bytes they take rather than by their count (``functools.lru_cache`` counts entries: sixteen
9 MB maps are 150 MB a process): a store (``KeptPictures``, the renderer's scaled pictures and windows' pixels) and a
memo for functions that make big pictures (``picture_cache``)."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, Protocol, TypeVar

from PIL import Image


class Measured(Protocol):
    """Pixels that tell the bytes they take: a NumPy array, ``CompactPixels``, the renderer's ``Stencil``."""

    @property
    def nbytes(self) -> int:
        """The bytes the pixels take."""
        ...


P = ParamSpec("P")
K = TypeVar("K", bound=Hashable)
R = TypeVar("R", bound=Image.Image | Measured | None)


def image_bytes(image: Image.Image | Measured | None) -> int:
    """The memory an image's pixels take: what pixels that tell it say (an array's bytes), or what Pillow keeps an
    image in, 4 bytes a pixel (``RGB``, ``RGBA``; an upper bound for the rest)."""
    if image is None:
        return 0
    if isinstance(image, Image.Image):
        return 4 * image.width * image.height
    return image.nbytes


class Identical:
    """An object as a key by its identity (a picture: Pillow's images compare by their pixels and do not hash), held
    while the key is, so no other object takes its ``id``."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Identical) and other.value is self.value


class KeptPictures(Generic[K, R]):
    """Pictures by key, the least recently used going once those kept take more than ``budget`` bytes or number
    more than ``maxsize`` when given (no picture takes no bytes): the pictures kept never take more than the budget,
    and one larger than it is not kept at all. Safe to use from several threads (phones served in one process draw
    on their own threads, and share the stores kept per process): each look-up and each put is locked."""

    def __init__(self, budget: int, maxsize: int | None = None) -> None:
        self.budget, self.maxsize = budget, maxsize
        self.kept: OrderedDict[K, R] = OrderedDict()
        self.bytes = 0  # what the pictures in ``kept`` take
        self._lock = threading.Lock()

    def __contains__(self, key: K) -> bool:
        return key in self.kept

    def __getitem__(self, key: K) -> R:
        """The picture kept under ``key``, now the most recently used."""
        with self._lock:
            self.kept.move_to_end(key)
            return self.kept[key]

    def get(self, key: K, default: R | None = None) -> R | None:
        """The picture kept under ``key``, now the most recently used, or ``default`` when none is."""
        with self._lock:
            if key not in self.kept:
                return default
            self.kept.move_to_end(key)
            return self.kept[key]

    def put(self, key: K, picture: R) -> None:
        """Keep ``picture`` under ``key`` (unless one is kept under it already, or it alone takes more than the
        budget), dropping the least recently used over the bounds."""
        size = image_bytes(picture)
        with self._lock:
            if key in self.kept or size > self.budget:
                return
            self.kept[key] = picture
            self.bytes += size
            while self.bytes > self.budget or len(self.kept) > (self.maxsize or len(self.kept)):
                self.bytes -= image_bytes(self.kept.popitem(last=False)[1])

    def keep_only(self, wanted: Callable[[K], bool]) -> None:
        """Forget the pictures whose keys are not ``wanted``."""
        with self._lock:
            for key in [key for key in self.kept if not wanted(key)]:
                self.bytes -= image_bytes(self.kept.pop(key))

    def cache_clear(self) -> None:
        """Forget every picture."""
        with self._lock:
            self.kept.clear()
            self.bytes = 0


_MISSING = object()


class PictureCache(KeptPictures[Hashable, R], Generic[P, R]):
    """``function`` memoized in a ``KeptPictures`` store, safe to call from several threads as ``lru_cache`` is: the
    store is locked, the function is not (two threads may make the same picture at once; one is kept). Its key is
    the arguments, or what ``key`` makes of them."""

    def __init__(self, function: Callable[P, R], budget: int, maxsize: int | None = 256,
                 key: Callable[P, Hashable] | None = None) -> None:
        super().__init__(budget, maxsize)
        self.function, self._key = function, key
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(kwargs.items())) if self._key is None else self._key(*args, **kwargs)
        picture = self.get(key, _MISSING)
        if picture is _MISSING:
            picture = self.function(*args, **kwargs)
            self.put(key, picture)
        return picture


def picture_cache(budget: int, maxsize: int | None = 256,
                  key: Callable[..., Hashable] | None = None) -> Callable[[Callable[P, R]], PictureCache[P, R]]:
    """Decorator: memoize a function that returns a picture (or ``None``) in a ``PictureCache`` of ``budget``
    bytes and at most ``maxsize`` entries, by its arguments or by what ``key`` makes of them."""
    return lambda function: PictureCache(function, budget, maxsize, key)
