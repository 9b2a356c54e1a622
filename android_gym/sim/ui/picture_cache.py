"""A memo for functions that make big pictures, bounded by the bytes of the pictures it keeps rather than by their
count (``functools.lru_cache`` counts entries: sixteen 9 MB maps are 150 MB a process)."""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

from PIL import Image

P = ParamSpec("P")
R = TypeVar("R", bound=Image.Image | None)


def image_bytes(image: Image.Image | None) -> int:
    """The memory Pillow keeps an image's pixels in: 4 bytes a pixel (``RGB``, ``RGBA``; an upper bound for the
    rest)."""
    return 0 if image is None else 4 * image.width * image.height


class PictureCache(Generic[P, R]):
    """``function`` memoized: the least recently used pictures go once those kept take more than ``budget`` bytes
    or number more than ``maxsize`` (answers of no picture take no bytes); the picture just made is kept whatever
    its size."""

    def __init__(self, function: Callable[P, R], budget: int, maxsize: int = 256) -> None:
        self.function, self.budget, self.maxsize = function, budget, maxsize
        self.kept: OrderedDict[Hashable, R] = OrderedDict()
        self.bytes = 0  # what the pictures in ``kept`` take
        functools.update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key = (args, tuple(kwargs.items()))
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        picture = self.function(*args, **kwargs)
        self.kept[key] = picture
        self.bytes += image_bytes(picture)
        while (self.bytes > self.budget or len(self.kept) > self.maxsize) and len(self.kept) > 1:
            self.bytes -= image_bytes(self.kept.popitem(last=False)[1])
        return picture

    def cache_clear(self) -> None:
        """Forget every picture."""
        self.kept.clear()
        self.bytes = 0


def picture_cache(budget: int, maxsize: int = 256) -> Callable[[Callable[P, R]], PictureCache[P, R]]:
    """Decorator: memoize a function that returns a picture (or ``None``) in a ``PictureCache`` of ``budget``
    bytes and at most ``maxsize`` entries."""
    return lambda function: PictureCache(function, budget, maxsize)
