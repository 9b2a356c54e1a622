"""The layout's shortcuts give what the long way gives: text widths summed from characters' advances."""

from __future__ import annotations

import random

import pytest

from android_gym.sim.ui.layout import font_runs, run_font, text_width

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
