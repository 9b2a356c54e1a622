"""Lines put together from per-character masks are the lines Pillow draws, pixel for pixel."""

from __future__ import annotations

import string

import numpy as np
import pytest
from PIL import Image, ImageDraw

from android_gym.sim.ui.glyph_masks import draw_line, line_box, line_mask
from android_gym.sim.ui.layout import font, font_runs, line_height
from android_gym.sim.ui.render import _text_mask

CHARS = string.ascii_letters + string.digits + " .,;:'\"$-!?()/&%"


def random_lines(seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(list(CHARS), size=int(rng.integers(1, 40)))) for _ in range(count)]


@pytest.mark.parametrize("size", [12, 16, 24])
def test_a_drawn_line_is_what_pillow_draws(size):
    # "ry", "fi" and "rv" overlap at these sizes: their coverage adds as Pillow adds it
    for line in ["ffi Wave AVAT 'quoted' $12.99", "pan-fry for 5 min", "curvy", *random_lines(size, 40)]:
        expected = Image.new("RGB", (900, 60), (255, 255, 255))
        ImageDraw.Draw(expected).text((10, 10), line, fill=(0, 0, 0), font=font(size))
        drawn = Image.new("RGB", (900, 60), (255, 255, 255))
        draw_line(drawn, (10, 10), line, size, (0, 0, 0))
        assert drawn.tobytes() == expected.tobytes(), line


# An outline of 1 px makes neighbours overlap (blended as two layers); "fjj" and "f,f" outlined 3 px put three glyphs
# over one column (blended one after the other)
@pytest.mark.parametrize(("message", "stroke"), [("aB3dE5fG7h", 1), ("Alejandro", 1), ("jqgy WAV", 1),
                                                 ("ffirvy", 1), ("fjj", 3), ("f,f", 3), ("Traffic jam, fjord", 3)])
def test_an_outlined_line_is_what_pillow_draws_with_a_stroke(message, stroke):
    expected = Image.new("L", (320, 240))
    ImageDraw.Draw(expected).text((50, 120), message, fill=255, font=font(32), anchor="ls", stroke_width=stroke,
                                  stroke_fill=255)
    mask, (left, top) = line_mask(message, 32, stroke=stroke)
    drawn = Image.new("L", (320, 240))
    drawn.paste(mask, (50 + left, 120 + top))
    assert drawn.tobytes() == expected.tobytes()


def test_blank_text_has_an_empty_mask():
    mask, offset = line_mask("   ", 24)
    assert mask.size == (0, 0) and offset == (0, 0)
    picture = Image.new("RGB", (40, 40), (255, 255, 255))
    draw_line(picture, (5, 5), "", 24, (0, 0, 0))
    assert picture.getextrema() == ((255, 255),) * 3


@pytest.mark.parametrize("size", [12, 16, 24, 32])
def test_a_line_s_box_is_the_one_pillow_gives(size):
    # blank characters count: a leading or trailing space widens the box, a line of them has one
    lines = ["", " ", "   ", " - ", "'", "_", " amount: $12.50", "pan-fry for 5 min ", "jqgy WAV", "ffirvy"]
    for line in [*lines, *random_lines(100 + size, 300)]:
        assert line_box(line, size) == font(size).getbbox(line), repr(line)


@pytest.mark.parametrize("size", [9, 11, 21, 37, 42, 63])
def test_the_renderer_s_lines_are_what_pillow_draws(size):
    # Regular and Medium (bold), Latin letters beyond ASCII, a glyph reaching left of the pen ("j"), spaces at the
    # ends, and no characters at all
    lines = ["", " ", "jqgy WAV", " Café – 3 × 4 = 12 … ", "Ünïcödé ñ © 20°C €5 £3 • ·", "ffirvy", "  Settings"]
    for bold in (False, True):
        for line in [*lines, *random_lines(size + bold, 60)]:
            assert not any(fallback for _, fallback in font_runs(line))  # all Roboto's
            face, height = font(size, bold), line_height(size)
            expected = Image.new("L", (max(face.getbbox(line)[2], 1), height))
            ImageDraw.Draw(expected).text((0, (height - size) // 4), line, font=face, fill=255)
            assert _text_mask(line, size, bold).tobytes() == expected.tobytes(), (line, bold)
