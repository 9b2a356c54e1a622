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

import numpy as np
from PIL import Image, ImageDraw

from android_gym.sim.ui.layout import font


@lru_cache(maxsize=4096)
def _glyph(char: str, size: int, stroke: int, bold: bool = False) -> tuple[np.ndarray, int, int, float]:
    """``char``'s mask in Roboto (Medium when ``bold``) at ``size`` px with a ``stroke`` px outline, the offset of its
    top left from the pen on the baseline, and the pen's advance."""
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(char, stroke_width=stroke, anchor="ls")
    mask = Image.new("L", (max(right - left, 0), max(bottom - top, 0)), 0)
    if mask.width and mask.height:
        ImageDraw.Draw(mask).text((-left, -top), char, fill=255, font=face, anchor="ls", stroke_width=stroke,
                                  stroke_fill=255)
    return np.asarray(mask), left, top, face.getlength(char)


@lru_cache(maxsize=256)
def line_mask(text: str, size: int, stroke: int = 0) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask (``L``) of ``text`` on one line in Roboto at ``size`` px, outlined ``stroke`` px, and the
    offset of its top left from the start of the pen on the baseline (Pillow's anchor ``ls``). Kept for the lines
    drawn again (a picture's row labels, ``category_name: Food``): the mask is shared, to read, not to change."""
    coverage, offset = line_coverage(text, size, stroke)
    return Image.fromarray(coverage, "L"), offset


def line_coverage(text: str, size: int, stroke: int = 0, bold: bool = False) -> tuple[np.ndarray, tuple[int, int]]:
    """``line_mask``'s coverage as an array (rows, columns), made anew, in Roboto Medium when ``bold``: for a caller
    that reads it in NumPy, or keeps it itself (the renderer's text masks)."""
    placed, pen = [], 0.0
    for char in text:
        mask, left, top, advance = _glyph(char, size, stroke, bold)
        if mask.size:
            placed.append((mask, round(pen) + left, top))
        pen += advance
    if not placed:
        return np.zeros((0, 0), dtype=np.uint8), (0, 0)
    x0, y0 = min(x for _, x, _ in placed), min(y for _, _, y in placed)
    x1 = max(x + mask.shape[1] for mask, x, _ in placed)
    y1 = max(y + mask.shape[0] for mask, _, y in placed)
    # Outlined glyphs overlap their neighbours' ink: they go through two layers, blended a few times instead of once
    # per glyph. Plain ones seldom touch: they are copied in turn, looking for ink only where boxes overlap.
    canvas = _in_two_layers(placed, (x0, y0), (y1 - y0, x1 - x0)) if stroke else None
    if canvas is None:
        canvas = _in_turn(placed, (x0, y0), (y1 - y0, x1 - x0))
    return canvas, (x0, y0)


def _screen(under: np.ndarray, over: np.ndarray) -> np.ndarray:
    """Coverage ``over`` added to ``under`` as Pillow adds overlapping glyphs: ``a + b - a * b / 255``, rounded."""
    wide = under.astype(np.uint16)  # 255 * 255 + 127 fits
    return (wide + over - (wide * over + 127) // 255).astype(np.uint8)


def _in_turn(placed: list[tuple[np.ndarray, int, int]], origin: tuple[int, int],
             shape: tuple[int, int]) -> np.ndarray:
    """The glyphs (mask, left, top) blended one after the other into a canvas of ``shape`` whose top left is at
    ``origin``."""
    (x0, y0), canvas = origin, np.zeros(shape, dtype=np.uint8)
    inked_to = x0  # the glyphs so far ink nothing right of this column
    for mask, x, y in placed:
        height, width = mask.shape
        region = canvas[y - y0:y - y0 + height, x - x0:x - x0 + width]
        if x < inked_to and region.any():  # over the glyphs before it: screen blend
            region[...] = _screen(region, mask)
        else:
            region[...] = mask
        if x + width > inked_to:
            inked_to = x + width
    return canvas


#: Columns between two glyphs of ``_in_two_layers``' second layer below which they are blended in one go (one blend
#: costs about as much as blending that many more columns of a line).
_BLEND_GAP = 32


def _in_two_layers(placed: list[tuple[np.ndarray, int, int]], origin: tuple[int, int],
                   shape: tuple[int, int]) -> np.ndarray | None:
    """``_in_turn``'s canvas made with a few blends instead of one per overlap, or ``None`` when that cannot be: each
    glyph is copied into the first of two layers whose glyphs all end left of it, then the columns of the second
    layer's glyphs (runs of them less than ``_BLEND_GAP`` apart) are blended into the first. No pixel is then under
    more than two glyphs, and blending two coverages gives the same in either order, so it is the canvas
    ``_in_turn`` makes; a glyph that fits neither layer (three glyphs over one column) gives ``None``."""
    (x0, y0), canvas, over = origin, np.zeros(shape, dtype=np.uint8), None
    inked_to, runs = x0, []  # where the first layer's glyphs end; the second layer's runs of columns [start, end)
    for mask, x, y in placed:
        height, width = mask.shape
        if x >= inked_to:
            canvas[y - y0:y - y0 + height, x - x0:x - x0 + width] = mask
            inked_to = x + width  # (the glyphs before it end left of it)
            continue
        if runs and x < runs[-1][1]:
            return None
        if over is None:
            over = np.zeros(shape, dtype=np.uint8)
        over[y - y0:y - y0 + height, x - x0:x - x0 + width] = mask
        if runs and x - runs[-1][1] < _BLEND_GAP:
            runs[-1][1] = x + width
        else:
            runs.append([x, x + width])
    for start, end in runs:
        columns = slice(start - x0, end - x0)
        canvas[:, columns] = _screen(canvas[:, columns], over[:, columns])
    return canvas


@lru_cache(maxsize=4096)
def line_box(text: str, size: int, bold: bool = False) -> tuple[int, int, int, int]:
    """``font(size, bold).getbbox(text)`` (anchor ``la``) from the characters' boxes, blank ones such as a space's
    too (zero high, they still count): their union, the pen placed as ``line_coverage`` places it. Pillow lays the
    whole line out to tell, at two to three times the cost; kept, as lines drawn again ask again."""
    if not text:
        return 0, 0, 0, 0
    lefts, tops, rights, bottoms, pen = [], [], [], [], 0.0
    for char in text:
        mask, left, top, advance = _glyph(char, size, 0, bold)
        x = round(pen) + left
        lefts.append(x)
        tops.append(top)
        rights.append(x + mask.shape[1])
        bottoms.append(top + mask.shape[0])
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
