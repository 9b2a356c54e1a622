"""The layout's shortcuts give what the long way gives: text widths summed from characters' advances, and the rows a
list of fixed-height rows can show."""

from __future__ import annotations

import random

import pytest

from android_gym.sim.ui.layout import font_runs, layout, rows_shown, run_font, text_width
from android_gym.sim.ui.views import View, column, scroll_list

LINES = ["", "Groceries", "Pro Expense . DESC", "a  b\tc", "Wi-Fi «Café» naïve – 12,50 €", "first\nsecond",
         "日本語のテキスト and Latin", "★ Favourites ♪", "한국어 😀 mixed", "\u0301 combining", "x" * 120]


def _measured(line: str, size: int, bold: bool) -> float:
    """The width the faces measure of each run of ``line``, as a whole."""
    return sum((run_font(size, bold, fallback).getlength(run) for run, fallback in font_runs(line)), 0.0)


@pytest.mark.parametrize("size", [28, 37, 42, 54])
@pytest.mark.parametrize("bold", [False, True])
def test_text_width_is_what_the_faces_measure_of_each_run(size, bold):
    text_width.cache_clear()
    for line in LINES:
        assert text_width(line, size, bold) == _measured(line, size, bold), line


def test_text_width_of_random_lines_is_what_the_faces_measure():
    chars = [chr(code) for code in range(32, 0x250)] + list("–—…’“”•°€£¥©®™★♪日本語한국어")
    rng = random.Random(7)
    for _ in range(500):
        line = "".join(rng.choice(chars) for _ in range(rng.randint(1, 40)))
        assert text_width(line, 42) == _measured(line, 42, False), line


def _kept_rows(count: int, row_height: int, spacing: int, offset: int, height: int) -> list[int]:
    rows = [View(key=str(index), height=row_height) for index in range(count)]
    listed = scroll_list(*rows, key="list", spacing=spacing, scroll_offset=offset, weight=1)
    root = column(View(height=0), listed)
    layout(root, 0, 0, 1080, height)
    return [int(row.key) for row in listed.children]


def test_the_rows_a_list_keeps_are_among_those_it_can_show():
    rng = random.Random(3)
    for _ in range(3000):
        count, row_height, spacing = rng.randint(0, 60), rng.randint(1, 300), rng.randint(0, 20)
        bound = rng.randint(1, 2400)
        height, offset = rng.randint(1, bound), rng.randint(-500, count * (row_height + spacing) + 500)
        shown = rows_shown(count, row_height, spacing, offset, bound)
        kept = _kept_rows(count, row_height, spacing, offset, height)
        assert set(kept) <= set(shown), (count, row_height, spacing, offset, height, bound)
        assert len(shown) <= bound // (row_height + spacing) + 2  # few beyond what the tallest list can show


def test_rows_shown_counts_partly_shown_rows_and_the_clamped_end():
    assert rows_shown(100, 100, 0, 0, 250) == range(0, 3)  # the third is cut at 250
    assert rows_shown(100, 100, 0, 10_000, 250) == range(97, 100)  # past the end: clamped to the last rows
    assert rows_shown(0, 100, 0, 0, 250) == range(0)
