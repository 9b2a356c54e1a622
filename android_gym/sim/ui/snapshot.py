"""What a fresh, not yet laid-out view tree looks like, to tell a rebuild that changed nothing.

An app builds a new tree at every change of the phone's state, but often the new tree equals the last one (a tap on
a row that does nothing, a scroll at the end of a list, a write the screen does not show). ``Snapshot.of`` records
every property of every view but its callbacks (closures of the build that made them); two trees with equal
snapshots lay out, dump and draw alike, so the window keeps the last laid-out tree with its dump and pixels, and gives
its views the callbacks of the new build (``adopt_callbacks``), which act on the state as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter

from android_gym.sim.ui.views import View

#: The fields of a view that hold callbacks: whether a view has one counts, which function it is does not.
CALLBACKS = ("on_click", "on_long_click", "on_text", "on_submit", "on_seek", "on_fling", "on_drag")
_NAMES = [f.name for f in fields(View)]
# A view's ``__dict__`` holds its fields in the order the dataclass declares them: the children, then the callbacks.
_CHILDREN = _NAMES.index("children")
_FIRST, _END = _NAMES.index(CALLBACKS[0]), _NAMES.index(CALLBACKS[-1]) + 1
assert _NAMES[_FIRST:_END] == list(CALLBACKS) and _CHILDREN == _FIRST - 1
_callbacks = attrgetter(*CALLBACKS)
_NO_CALLBACKS = (type(None),) * len(CALLBACKS)


@dataclass(eq=False)
class Snapshot:
    """What a tree's views show, in pre-order (``looks``: equal looks, equal trees but for the callbacks), and
    those of its views that have callbacks (``views``)."""

    looks: list[tuple]
    views: list[View]

    @classmethod
    def of(cls, root: View) -> Snapshot:
        """The snapshot of ``root``'s tree as it is now (before ``layout``, which sets bounds and drops the rows a
        list does not show)."""
        looks, views = [], []
        look, keep = looks.append, views.append
        for view in root.walk():
            values = tuple(view.__dict__.values())
            callbacks = tuple(map(type, values[_FIRST:_END]))  # NoneType where a view has no such callback
            look((values[:_CHILDREN], values[_END:], len(values), len(view.children), callbacks))
            if callbacks != _NO_CALLBACKS:
                keep(view)
        return cls(looks, views)

    def adopt_callbacks(self, fresh: Snapshot) -> None:
        """Give this snapshot's views (laid out since) the callbacks of ``fresh``'s views, a tree with equal looks."""
        for view, new in zip(self.views, fresh.views):
            view.__dict__.update(zip(CALLBACKS, _callbacks(new)))
