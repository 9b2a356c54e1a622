"""KeptTree hands out copies of the tree built for what is shown, and builds it again when that changes."""

from __future__ import annotations

from android_gym.sim.ui.kept_tree import KeptTree
from android_gym.sim.ui.views import column, text_view


def test_a_tree_is_built_once_per_shown_and_each_caller_gets_its_own_copy():
    made = []

    def make(text: str):
        made.append(text)
        return column(text_view(text))

    kept = KeptTree()
    first = kept.get(("a", 1), lambda: make("a"))
    first.children[0].bounds = (1, 2, 3, 4)  # laid out, restyled: the kept tree stays as built
    first.children.append(text_view("extra"))
    second = kept.get(("a", 1), lambda: make("a"))
    assert made == ["a"] and second is not first and len(second.children) == 1
    assert second.children[0].bounds == (0, 0, 0, 0) and second.children[0].text == "a"
    assert kept.get(("b", 1), lambda: make("b")).children[0].text == "b"
    assert kept.get(("a", 1), lambda: make("a")).children[0].text == "a"  # only the last is kept
    assert made == ["a", "b", "a"]
