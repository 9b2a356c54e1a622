"""Lines of text put together from masks of single characters, each rendered once per process, font size, weight
and stroke.

Pillow's basic layout (``font``: no libraqm, no kerning in Roboto's legacy tables) puts each glyph at the rounded
pen position and where glyphs overlap adds the coverage as a screen blend (``a + b - a * b / 255``, rounded), so a
line made of its characters' masks is the mask Pillow renders for the whole line, pixel for pixel
(``tests/sim/test_glyph_masks.py``), at a fraction of the cost: rendering, the stroke above all, is what drawing
text costs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from android_gym.sim.ui.layout import font


@lru_cache(maxsize=4096)
def _glyph(char: str, size: int, stroke: int, bold: bool = False) -> tuple[Any, int, int, int, int, float]:
    """``char``'s mask in Roboto (Medium when ``bold``) at ``size`` px with a ``stroke`` px outline, as Pillow's core
    picture (``Image.im``: what a paste takes; no pixels when it inks nothing) with its width and height, the offset of
    its top left from the pen on the baseline, and the pen's advance."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(char, stroke_width=stroke, anchor="ls")
    mask = Image.new("L", (max(right - left, 0), max(bottom - top, 0)), 0)
    if mask.width and mask.height:
        ImageDraw.Draw(mask).text((-left, -top), char, fill=255, font=face, anchor="ls", stroke_width=stroke,
                                  stroke_fill=255)
    return mask.im, mask.width, mask.height, left, top, face.getlength(char)


@lru_cache(maxsize=256)
def line_mask(text: str, size: int, stroke: int = 0) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask (``L``) of ``text`` on one line in Roboto at ``size`` px, outlined ``stroke`` px, and the
    offset of its top left from the start of the pen on the baseline (Pillow's anchor ``ls``). Kept for the lines
    drawn again (a picture's row labels, ``category_name: Food``): the mask is shared, to read, not to change."""
    return line_picture(text, size, stroke)


def line_picture(text: str, size: int, stroke: int = 0, bold: bool = False) -> tuple[Image.Image, tuple[int, int]]:
    """``line_mask``'s mask made anew, in Roboto Medium when ``bold``: for a line drawn once (a video's random string)
    or kept by its caller (the renderer's text masks). Each glyph's mask is pasted in turn as white through itself,
    which adds its coverage to the glyphs' before it as Pillow does (``a + b * (255 - a) / 255``, rounded: the
    screen blend), and copies it where they have none."""
    placed, pen = [], 0.0  # each inked glyph's mask and box (left, top, right, bottom) from the pen
    for char in text:
        mask, width, height, left, top, advance = _glyph(char, size, stroke, bold)
        if width and height:
            x = round(pen) + left
            placed.append((mask, x, top, x + width, top + height))
        pen += advance
    if not placed:
        return Image.new("L", (0, 0)), (0, 0)
    _, lefts, tops, rights, bottoms = zip(*placed)
    x0, y0 = min(lefts), min(tops)
    canvas = Image.new("L", (max(rights) - x0, max(bottoms) - y0))
    core = canvas.im
    for mask, left, top, right, bottom in placed:
        core.paste(255, (left - x0, top - y0, right - x0, bottom - y0), mask)
    return canvas, (x0, y0)


@lru_cache(maxsize=4096)
def line_box(text: str, size: int, bold: bool = False) -> tuple[int, int, int, int]:
    """``font(size, bold).getbbox(text)`` (anchor ``la``) from the characters' boxes, blank ones such as a space's
    too (zero high, they still count): their union, the pen placed as ``line_picture`` places it. Pillow lays the
    whole line out to tell, at two to three times the cost; kept, as lines drawn again ask again."""
    if not text:
        return 0, 0, 0, 0
    lefts, tops, rights, bottoms, pen = [], [], [], [], 0.0
    for char in text:
        _, width, height, left, top, advance = _glyph(char, size, 0, bold)
        x = round(pen) + left
        lefts.append(x)
        tops.append(top)
        rights.append(x + width)
        bottoms.append(top + height)
        pen += advance
    ascent = font(size, bold).getmetrics()[0]
    return min(lefts), ascent + min(tops), max(rights), ascent + max(bottoms)


def draw_line(image: Image.Image, xy: tuple[int, int], text: str, size: int, fill: tuple[int, ...]) -> None:
    """``ImageDraw.Draw(image).text(xy, text, fill, font(size))`` for one line (anchor ``la``: ``xy`` is the left
    end of the ascender line), from the characters' masks."""
    mask, (left, top) = line_mask(text, size)
    if mask.width and mask.height:
        x, y = xy[0] + left, xy[1] + font(size).getmetrics()[0] + top
        image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
