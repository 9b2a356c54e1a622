"""List items placed as an item of their shape was (``layout.PLACED``): a tree laid out with its shape as built gets
the bounds, list positions and shown items the layout without it gives, whatever items of which shapes were laid out
before, and an item that changed is measured and laid out anew."""

from __future__ import annotations

import random

import pytest

from android_gym.sim.ui.laid_out import Shaped
from android_gym.sim.ui.layout import PLACED, layout
from android_gym.sim.ui.views import View, column, copied, frame, row, scroll_list, text_view

_WIDTH, _HEIGHT = 1080, 1600


def _row(title: str, detail: str, **props) -> View:
    """A list row: a title and a detail that wraps, beside an icon."""
    return row(View(kind="icon", class_name="android.widget.ImageView", width=96, height=96),
               column(text_view(title, bold=True), text_view(detail), weight=1), padding=16, **props)


def _screen(rows: list[View], offset: int = 0) -> View:
    return column(text_view("Title", height=160), scroll_list(*rows, key="list", scroll_offset=offset, weight=1))


def _laid_out(root: View, placed: bool) -> list[tuple]:
    """What the layout gives ``root`` (with ``PLACED`` or without): every view's bounds and cut bounds, each list's
    position and end, and which views are shown, in pre-order."""
    shaped = Shaped(root, _WIDTH, _HEIGHT) if placed else None
    layout(root, 0, 0, _WIDTH, _HEIGHT, shaped)
    return [(view.bounds, view.whole, view.scroll_offset, view.scroll_max, len(view.children)) for view in root.walk()]


def _both(root: View) -> tuple[list[tuple], list[tuple]]:
    """``root`` laid out with ``PLACED`` and a copy of it without."""
    plain = copied(root)
    return _laid_out(root, True), _laid_out(plain, False)


def test_items_of_a_shape_laid_out_before_get_the_bounds_the_layout_gives_them_wherever_they_lie() -> None:
    rows = [_row(f"Expense {index % 3}", "Food " * (index % 4 + 1)) for index in range(12)]
    first, plain = _both(_screen([copied(item) for item in rows]))
    assert first == plain
    kept = len(PLACED)
    # the same rows in another order and another list position: placed as kept, at their new places
    again, plain = _both(_screen([copied(item) for item in reversed(rows)], offset=170))
    assert again == plain
    assert len(PLACED) == kept  # no item was measured anew


@pytest.mark.parametrize("change", [
    lambda item: item.children[1].children[1].__dict__.update(text="Groceries and more " * 6),  # wraps on more lines
    lambda item: item.children[1].children[0].__dict__.update(text_size=60),  # a larger title
    lambda item: item.__dict__.update(padding=40),
    lambda item: item.children[1].children.append(text_view("A third line")),  # another view
    lambda item: item.children[0].__dict__.update(width=200),  # a wider icon: the texts get less room
])
def test_an_item_that_changed_is_measured_and_laid_out_anew(change) -> None:
    rows = [_row("Rent", "Monthly") for _ in range(4)]
    _both(_screen([copied(item) for item in rows]))  # the item's shape laid out
    changed = [copied(item) for item in rows]
    change(changed[1])
    placed, plain = _both(_screen(changed))
    assert placed == plain
    assert placed != _laid_out(_screen([copied(item) for item in rows]), False)  # the change shows


def test_an_item_at_another_width_is_laid_out_at_that_width() -> None:
    item = _row("Rent", "Monthly payment for the flat " * 3)
    narrow = row(View(width=400), scroll_list(copied(item), key="narrow", weight=1))
    wide = row(View(width=40), scroll_list(copied(item), key="wide", weight=1))
    for root in (narrow, wide, copied(narrow)):
        placed, plain = _both(root)
        assert placed == plain


def test_an_item_holding_a_list_is_laid_out_each_time() -> None:
    inner = [text_view(f"Line {index}") for index in range(20)]

    def item(offset: int) -> View:
        return frame(scroll_list(*[copied(line) for line in inner], key="inner", scroll_offset=offset, height=300))

    for offset in (0, 90, 0):  # the inner list's position is a field of the item: each position laid out anew
        placed, plain = _both(_screen([item(offset), _row("Rent", "Monthly")]))
        assert placed == plain


def test_random_lists_laid_out_with_placed_items_match_the_layout_without() -> None:
    rng = random.Random(11)
    words = ["Rent", "Food", "Bus", "Groceries for the week", "Cinema", "Gift"]
    for _ in range(60):
        rows = [_row(rng.choice(words), " ".join(rng.choices(words, k=rng.randint(1, 8))),
                     background=rng.choice([None, (255, 255, 255), (240, 240, 240)]))
                for _ in range(rng.randint(0, 25))]
        placed, plain = _both(_screen(rows, offset=rng.randint(-50, 3000)))
        assert placed == plain
