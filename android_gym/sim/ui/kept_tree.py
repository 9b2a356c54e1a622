"""Views built once per state of what they show and handed out as copies: a screen whose part shows the same data
step after step copies it (``views.copied``, a fraction of the cost of building it) instead of building it again."""

from __future__ import annotations

from collections.abc import Callable

from android_gym.sim.ui.views import View, copied


class KeptTree:
    """The tree ``make()`` built for the last ``shown`` (everything it is made from), built again when ``shown``
    changes; each caller gets a copy, as the window styles and lays out the tree it is given."""

    def __init__(self) -> None:
        self._kept: tuple[object, View] | None = None

    def get(self, shown: object, make: Callable[[], View]) -> View:
        """A copy of the tree for ``shown``, made by ``make()`` unless it was made for an equal ``shown`` last."""
        if self._kept is None or self._kept[0] != shown:
            self._kept = shown, make()
        return copied(self._kept[1])
