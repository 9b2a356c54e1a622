"""Laid-out view trees kept by their shape: a screen rebuilt as it was shown a few frames ago is not laid out or
dumped afresh.

A screen builds a fresh tree at every frame, and about half the trees a run of steps builds equal one of the last
few (the home screen again, a list after its dialog closed, a screen after BACK from the one it opened). A tree's
shape is everything layout, drawing and the dump read of it: every field of every view, children in order, but
the callbacks and pictures (``BEHAVIOUR``), which count only by being set or not. Two trees of one shape laid out in
one rectangle get the same bounds, pixels and dump; ``LaidOutTrees`` keeps the last few laid-out trees by shape and
rectangle, and a tree of a shape it kept is answered with the kept tree, its views given the new tree's callbacks and
pictures (a touch acts on what the new build captured).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from android_gym.sim.ui.views import View

T = TypeVar("T")
#: The fields a tree's shape counts only by being set: callbacks and pictures, new objects at every build.
BEHAVIOUR = frozenset({"on_click", "on_long_click", "on_text", "on_submit", "on_seek", "on_fling", "on_drag", "image"})
#: The memory a kept tree takes per item of its shape (``Shaped.key``): its views and their fields, the shape, and
#: what is made of it (a dump, its elements). A ``sys.getsizeof`` walk of the trees kept in random walks of SendSms
#: and a Markor task found 90-190 bytes per item, 13-120 KB a tree.
BYTES_PER_SHAPE_ITEM = 150


class Shaped:
    """A tree as built, before layout: ``key`` its shape with what else it is kept by (hashed once; ``None`` when a
    field holds an unhashable value: such a tree is not kept), ``views`` its views in pre-order, ``behaving`` the
    indices of those with callbacks or pictures and those fields' names; where each view's part of ``key`` begins
    (``subtree``)."""

    __slots__ = ("key", "views", "behaving", "_starts", "_hash", "_index")

    def __init__(self, root: View, *context: Hashable) -> None:
        self.views: list[View] = []
        self.behaving: list[tuple[int, frozenset[str]]] = []
        self._starts: list[int] = []  # by view: where its part of the shape begins
        self._index: dict[View, int] | None = None
        # One flat tuple, view after view in pre-order: its number of fields, their names and values (its children
        # by their number): a tree kept holds one object for its shape, and so gives the garbage collector no work.
        shape: list[Any] = []
        stack = [root]
        while stack:
            view = stack.pop()
            fields = view.__dict__  # a view holds only the fields it was given (or set) in its dict
            children = fields["children"]
            if not BEHAVIOUR.isdisjoint(fields):  # few views have any: no set made for the others
                names = BEHAVIOUR.intersection(fields)  # a frozenset, as BEHAVIOUR is
                self.behaving.append((len(self.views), names))
                fields = fields.copy()
                for name in names:
                    fields[name] = fields[name] is not None
            # its children by their number, put in place of the list for as long as the shape reads the values
            # (no copy of the dict for it: setting a key it has keeps the order)
            fields["children"] = len(children)
            self._starts.append(len(shape))
            shape.append(len(fields))
            shape.extend(fields)
            shape.extend(fields.values())
            fields["children"] = children
            self.views.append(view)
            if children:
                stack.extend(reversed(children))
        self._starts.append(len(shape))  # where the context begins: the end of the last view's part
        self.key: tuple | None = (*shape, *context)
        try:
            self._hash = hash(self.key)
        except TypeError:
            self.key, self._hash = None, 0

    def subtree(self, view: View, size: int) -> tuple | None:
        """The shape of the subtree of ``size`` views that ``view`` roots (a slice of ``key``: subtrees of one shape
        are laid out alike in rectangles of one size); ``None`` when the tree has no key or ``view`` is not one of
        ``views``."""
        if self.key is None:
            return None
        if self._index is None:
            self._index = {view: index for index, view in enumerate(self.views)}
        index = self._index.get(view)
        return None if index is None else self.key[self._starts[index]:self._starts[index + size]]

    def __hash__(self) -> int:
        return self._hash

    @property
    def nbytes(self) -> int:
        """About the memory the tree takes once laid out and kept (``BYTES_PER_SHAPE_ITEM``)."""
        return len(self.key or ()) * BYTES_PER_SHAPE_ITEM

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Shaped) and self._hash == other._hash and self.key == other.key


@dataclass
class Kept:
    """A laid-out tree: ``built``, its tree as built (its views are the laid-out ones, a list's rows the layout left
    out among them), and ``made``, what callers made of it once laid out (a dump, by what else it depends on)."""

    root: View
    built: Shaped
    made: dict[Hashable, Any] = field(default_factory=dict)
    #: The tree as built whose callbacks and pictures the views hold now (``behave_as``).
    acting_as: Shaped = field(init=False)
    #: ``built``'s own callbacks and pictures by view index, kept when another build's first replace them.
    _own: list[tuple[int, dict[str, Any]]] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.acting_as = self.built

    def behave_as(self, built: Shaped) -> None:
        """Give the views the callbacks and pictures of ``built``'s, a tree of the same shape (a touch acts on what
        that build captured); nothing to do when they hold them already (a screen shown again as it was)."""
        if built is self.acting_as:
            return
        views = self.built.views
        if built is self.built:  # its own views: their callbacks as built, which another build's replaced since
            for index, own in self._own or ():
                views[index].__dict__.update(own)
        else:
            if self._own is None:
                self._own = [(index, {name: views[index].__dict__[name] for name in names})
                             for index, names in self.built.behaving]
            new_views = built.views
            for index, names in built.behaving:
                old, new = views[index].__dict__, new_views[index].__dict__
                for name in names:
                    old[name] = new[name]
        self.acting_as = built


def made_once(kept: Kept | None, key: Hashable, make: Callable[[], T]) -> T:
    """``make()`` of a laid-out tree, made once for ``kept`` and kept with it under ``key`` (a kept tree is unchanged
    once laid out); made every time for a tree that is not kept (``None``)."""
    if kept is None:
        return make()
    if key not in kept.made:
        kept.made[key] = make()
    return kept.made[key]


class LaidOutTrees:
    """At most ``size`` laid-out trees by shape and rectangle, kept as a 2Q cache does (Johnson and Shasha, 1994): up to
    ``new`` trees laid out once, first in first out, and the others trees built again after they went out (the
    hashes of the last ``remembered`` shapes that went tell them), least recently used first out. A walk builds
    many trees once (a form with a text typed, a new selection) between the screens it comes back to, which would
    push those out of one LRU of the same size. A hash remembered only chooses where a tree is kept: a tree is
    answered only for an equal shape. The trees kept take at most ``budget`` bytes (``Shaped.nbytes``), the trees
    built again going first, the least recently used first (a long list's tree takes ten times a dialog's)."""

    def __init__(self, size: int, new: int, remembered: int, budget: int) -> None:
        self._size, self._new_size, self._remembered, self.budget = size, new, remembered, budget
        self.nbytes = 0  # what the trees kept take (``Shaped.nbytes``)
        self._kept: OrderedDict[Shaped, Kept] = OrderedDict()  # trees built again (least recently used first)
        self._new: OrderedDict[Shaped, Kept] = OrderedDict()  # trees laid out once (first in first)
        self._gone: OrderedDict[int, None] = OrderedDict()  # the hashes of the last shapes that went out of ``_new``
        self._held: set[View] = set()  # the kept trees' views (no view is in two: ``get``; a view hashes by identity)

    def clear(self) -> None:
        """Forget every tree."""
        self._kept.clear()
        self._new.clear()
        self._gone.clear()
        self._held = set()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._kept) + len(self._new)

    def get(self, built: Shaped) -> Kept | None:
        """The kept tree of ``built``'s shape and rectangle, given the callbacks and pictures of ``built``'s views;
        ``None`` when none is kept or a view of ``built`` is one of a kept tree (an app that hands out a view twice:
        then every tree is forgotten, as laying it out would move a kept one)."""
        if built.key is None:
            return None
        if not self._held.isdisjoint(built.views):
            self.clear()
            return None
        kept = self._kept.get(built)
        if kept is not None:
            self._kept.move_to_end(built)
        else:
            kept = self._new.get(built)  # stays where it is: a tree is kept longer only once it went and came back
            if kept is None:
                return None
        kept.behave_as(built)
        return kept

    def keep(self, built: Shaped, root: View) -> Kept | None:
        """Keep ``root``, ``built`` laid out (``None`` when it cannot be kept): with the trees built again when its
        shape went out lately, else with the new ones."""
        if built.key is None:
            return None
        if built.nbytes > self.budget:
            return None
        kept = Kept(root, built)
        self._held.update(built.views)
        self.nbytes += built.nbytes
        if hash(built) in self._gone:  # back after it went: kept with the trees built again
            del self._gone[hash(built)]
            self._kept[built] = kept
            if len(self._kept) > self._size - self._new_size:
                self._forget(self._kept.popitem(last=False)[0])
        else:
            self._new[built] = kept
            if len(self._new) > self._new_size:
                self._drop_new()
        while self.nbytes > self.budget:
            if self._kept:
                self._forget(self._kept.popitem(last=False)[0])
            else:
                self._drop_new()
        return kept

    def _forget(self, built: Shaped) -> None:
        """Let go of the views and bytes of ``built``'s tree, out of the cache."""
        self._held.difference_update(built.views)
        self.nbytes -= built.nbytes

    def _drop_new(self) -> None:
        """Let the first tree laid out once go, remembering its shape's hash."""
        gone = self._new.popitem(last=False)[0]
        self._forget(gone)
        self._gone[hash(gone)] = None
        if len(self._gone) > self._remembered:
            self._gone.popitem(last=False)
