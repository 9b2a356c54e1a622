"""Pillow renderer: draws laid-out view trees into read-only frames, redrawing only windows that changed.

Views are laid out in design pixels (pixels of a 420 dpi screen); the renderer draws them natively at the
screen's size, every coordinate, length, corner radius, stroke, shadow, icon and font size times ``scale`` (the
screen's density / 420): the same dp layout a phone of that density draws (Android's ``DisplayMetrics.density``).
Text and icons are rasterized at the scaled size, so a small screen is as crisp as a real low-density phone, and
cheaper to draw than a full-size frame. A coordinate maps to
``round(x * scale)``, as the uiautomator dump's bounds do, so a view's pixels lie inside its dumped bounds.

Text runs are rasterized once into masks and pasted afterwards, so a frame with unchanged text costs little; a mask
is cut to its ink (``Stencil``) and painted through an image of its colour (``Renderer._stamp``), or, a line of text
or an icon over one colour, copied from a tile of it on that colour kept for the process (``_ink_tile``): what the
views drawn so far may paint is noted as they are drawn (``Renderer._below``; a launcher icon's glyph lies on its
disc's colour). Pictures (``View.image``) are scaled once per key and size and kept (one already at its drawn size kept
as it is, its owner's, not a copy), so redrawing a window with a photo costs a paste; one with alpha blends only the
part that is not clear. Shadows are blurred once per shape and size, and a filled shape's shadow is pasted only where
the shape does not cover it, copied from tiles where the canvas under it is one colour (``_shadow_tiles``); a disc over
one colour (a launcher icon, a FAB: its shadow, circle and glyph) is pasted whole from a sprite of it kept for the
process (``Renderer._disc``, ``_SPRITES``); what a window redraws (the boxes its changed views may paint) is packed
straight into a new NumPy frame from the canvas's own memory, a NumPy array (``rgb_canvas``, ``pack_into``), which
takes the other pixels from the last one: a frame once handed out
never changes (the memory of one the renderer alone still holds is used again, and only where it differs from the last
one is it copied: ``_recycled``; so is the frame shown, made again in other memory for whoever holds it: ``twin``).
A window is drawn in strips of ``_STRIP_ROWS`` rows on one scratch canvas kept from
frame to frame (a new window-sized image per frame cost more in page faults than in drawing; a strip-sized one takes a
fifth of the memory and stays in the CPU's cache); rows no view reaches are written into the frame in the ground's
colour, not drawn (``_row_runs``), and so are the rows of a strip drawn that nothing drawn on it painted, not packed
(nor filled again for the next strip on that colour); a plain box filling its bounds with the colour the canvas shows
there already is not drawn. A whole window comes from an earlier frame where one shows it as it is now: the frame
kept, in rows no other window shares (``Renderer._kept_shows``), or the pixels of a window once drawn whole (a bar, the
keyboard, an app's screen) kept by what it shows, for the process (``_WINDOW_LOOKS``), pasted whole or in the boxes
that changed.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from android_gym.sim.ui.compact_pixels import CompactPixels, RowPixels, compacted, rowed
from android_gym.sim.ui.glyph_masks import line_box, line_picture
from android_gym.sim.ui.icons import icon_mask
from android_gym.sim.ui.laid_out import Kept as KeptTree
from android_gym.sim.ui.laid_out import made_once
from android_gym.sim.ui.layout import font, font_runs, line_height, run_font, text_end, text_lines, text_start
from android_gym.sim.ui.picture_cache import Identical, KeptPictures, picture_cache
from android_gym.sim.ui.selection import HIGHLIGHT, caret_point, highlight_boxes, text_top
from android_gym.sim.ui.views import (
    ALL_CORNERS,
    CHECK_BUTTON_WIDTH,
    DIVIDER,
    FIELD_LABEL,
    FIELD_STROKE,
    OUTLINED_CORNER,
    OUTLINED_CUTOUT,
    OUTLINED_STROKE,
    OUTLINED_STROKE_FOCUSED,
    PRIMARY,
    TEXT_SECONDARY,
    WHITE,
    Color,
    Corners,
    View,
)

_PLAIN_BOXES = frozenset({"view", "frame", "row", "column", "flow"})  # kinds that draw no more than their background
# kinds that paint nothing but masks (``Renderer._stamp``: text, icons) when without background, picture or elevation
_INKED = frozenset({"text", "label", "letter", "icon", "check"})
_LAUNCHER_ICONS = frozenset({"app_icon", "dock_icon"})  # kinds that note what they paint (``_inks_only``)
_HOLDERS = _PLAIN_BOXES | {"list"}  # kinds that draw no more than their background, shadow and picture
# Scaled pictures kept per renderer, in Pillow's bytes (4 a pixel): a gallery grid's thumbnails and the open photo,
# or the camera's preview (3.5 MB at 1080x2400, 16-27 ms to scale again); a picture larger than the budget (a whole
# tablet screen's) is not kept. Pictures drawn at their own size are kept apart, as their owners' objects (often kept
# by their owners too: the maps' cache, a web page), so they push no scaled picture out: within ``_OWN_SIZE_SCREENS``
# screens' worth of Pillow's bytes, so the last full-screen one (a map, a web page, a drawing, or the activity under
# the share sheet, which is drawn again when asked: ~9 MB each at 1080x2400) is kept, and never more than that, and
# only while a frame shows them (the renderer would otherwise keep alive a picture its owner let go of: a map pushed
# out of the maps' cache).
# A picture handed to the view as it is, not as a function that makes it (the camera's preview, Chrome's logo, a
# video's frame), is scaled once for all the process's renderers: kept by the picture itself with its key and size,
# within ``_SHARED_SCALED_BYTES`` (a key alone names pixels on one phone only: a gallery file's path and version).
_SCALED_CACHE_BYTES, _OWN_SIZE_SCREENS, _SHARED_SCALED_BYTES = 12 * 2**20, 1, 8 * 2**20
# Tiles of masks stamped over one colour (``Renderer._stamp``), kept for the process (``_ink_tile``: the phones of a
# process show the same apps' text): a few screens' text lines and icons (one renderer's random walk looked up
# 80 % of them kept at 4 MB, 72 % at 2 MB, 83 % at 8 MB)
_INK_TILE_BYTES = 8 * 2**20
# Lines of text rasterized (``_text_stencil``, ~0.2 ms each), kept for the process by the bytes their masks take (was
# 2,048 lines, whatever their size): 2 envs' 300 random-valid SendSms steps each drew 434 lines, 3.9 MB of masks, 8
# envs' 1,500 steps 1,068 lines; lines shown over and over (an app's labels, the home screen's) stay among the most
# recently used.
_TEXT_STENCIL_BYTES = 8 * 2**20
_STRIP_ROWS = 480  # rows drawn at a time on the scratch canvas: 2 MB at 1080 px wide, not a window-sized one
# rows that no view reaches, at least, written straight into the frame in the ground's colour rather than drawn on
# the canvas and packed (a strip more costs about as much as drawing that many rows)
_BARE_ROWS = 48
# rows of a strip drawn that nothing drawn on it painted, at least, written into the frame in the ground's colour
# rather than packed (a run shorter costs about as much to pack as to cut out)
_INKLESS_ROWS = 16
# Windows drawn whole that take at most this share of a frame (the status and navigation bars, the keyboard: not an
# app's window) are kept by what they show and the renderer's size and scale, in a store per window name that the
# process's renderers share (``_WINDOW_LOOKS``: its phones show the same bars and keyboard), as ``CompactPixels`` (a
# bar's ground colour and its columns of ink: a tenth to a fifth of its pixels' bytes), and pasted when shown again,
# not drawn: per window name, the last ``_KEPT_LOOKS`` looks within ``_KEPT_LOOKS_BYTES`` (the keyboard: 2.3 MB at
# 1080x2400). A random walk shows a few bars' colours (an app's, the home screen's, a dialog's scrim; its clock's
# minutes) and its keyboard over and over (SendSms, 300 random-valid steps at 1080x2400: the status bar drawn 13
# times keeping 16 looks, 54 keeping 2, the navigation bar 5 and 79 times); a window of its own, the keyboard (5 ms
# to draw at full size) is not pushed out by the bars (0.3 ms). A window that shows a picture is not kept: a
# picture's key names its pixels on one phone only (a gallery file's path and version).
_KEPT_WINDOW_SHARE, _KEPT_LOOKS_BYTES, _KEPT_LOOKS = 1 / 3, 4 * 2**20, 32
# A larger window drawn whole (an app's screen) is kept so too, as ``RowPixels`` (one row per run of equal rows: 1.0-1.5
# MB of an app's 6.7 MB window at 1080x2400; 0.6 ms to paste, 1.2 ms to make), within ``_SCREEN_LOOKS_BYTES`` per
# window name, and pasted whole or in the boxes that changed when it comes back. A random walk comes back to a look
# it showed before in 50-70 % of the app's redraws, most of them past the frame kept (SendSms, 600 random-valid steps:
# 144 app windows pasted at 12 MB, 112 at 8, 157 at 16; ExpenseDeleteMultiple2 62 at 8, 85 at 16; keeping the looks
# drawn in part too pushed out more than it brought). The store is the process's: 8 envs' steady memory (300 steps
# each) grew by under 1 MB each (SendSms 27.9 -> 28.1 MB, ExpenseDeleteMultiple2 32.4 -> 32.8), one env's alone by
# 2.2 and 0.5 MB (27.1 -> 29.3, 36.4 -> 36.9); never more than 12 MB.
_SCREEN_LOOKS_BYTES = 12 * 2**20
# Discs drawn over one colour (a launcher icon's, a FAB's: the shadow, the filled circle and its glyph: six pastes and
# an ellipse) kept for the process as sprites by what they show (``Renderer._disc``) and pasted whole: a home screen's
# 24 icons take about 2.4 MB at 1080x2400 (SendSms's 300-step random-valid walk kept 27 sprites, 3.0 MB; 0.8 MB at
# 540x1200, 0.2 MB at 270x600).
_SPRITE_BYTES = 4 * 2**20
_KEPT_FRAMES = 1  # frames kept to show again (back from a dialog, home again): 7.8 MB each at 1080x2400
_CHANGES_KEPT = 8  # frames shown whose changed rows are remembered (``rows_changed_since``)
#: Numbers of the frames shown, unique in the process (across renderers: one made for a new screen size too).
_frame_numbers = itertools.count(1)
#: The kept looks of windows drawn whole, per window name, for every renderer of the process.
_WINDOW_LOOKS: dict[str, KeptPictures[Hashable, CompactPixels | RowPixels]] = {}
#: Sprites (``Renderer._sprite``) for every renderer of the process, by what they show.
_SPRITES: KeptPictures[Hashable, Sprite] = KeptPictures(_SPRITE_BYTES)
#: Pictures handed as they are, scaled, for every renderer of the process: by the picture, its key and size.
_SHARED_SCALED: KeptPictures[tuple[Identical, str, int, int], Image.Image] = KeptPictures(_SHARED_SCALED_BYTES)
ICON_SIZE = 63  # a Material icon: 24 dp at 420 dpi
_SHADOW_ALPHA = 70  # darkest point of an elevation shadow (of 255)
_SCRIM_ALPHA = 82  # a dialog's or drawer's scrim: black at 32 % (Material's scrim)
_SWITCH_TRACK_ON, _SWITCH_TRACK_OFF, _SWITCH_THUMB_OFF = (187, 222, 251), (224, 224, 224), (117, 117, 117)
_FAB_ELEVATION, _LAUNCHER_ICON_ELEVATION = 16, 8  # 6 dp; a launcher icon's soft shadow
_TRACK_HALF = 33  # half a switch track's height, centred on its view whatever the view's height
# Kinds that may paint past their bounds' left or right edge by more than a shadow: a line of text not cut at the
# view's width (a label, a button's title, a switch's), a caret or selection on a line longer than its field, a
# toggle's track in a narrow view. A change to one of them redraws its rows across the window.
_OVERFLOWING = frozenset({"button", "label", "letter", "switch", "toggle", "edit"})
Box = tuple[int, int, int, int]  # a rectangle in screen px: left, top, right, bottom (end exclusive)


class Work(NamedTuple):
    """A box of a window to draw: the window's views that paint (each with the box it may paint), its background, and
    its theme's colours for the widgets' own (``Renderer._palette``); for a whole window without pictures, its key in
    ``_WINDOW_LOOKS`` (kept there once drawn); or, when the window's pixels are kept there from an earlier frame,
    those pixels and the window's top left corner (screen px): the box is then pasted from them, not drawn."""

    box: Box
    painted: list[tuple[View, Box]]
    background: Color
    palette: Mapping[Color, Color]
    key: Hashable = None
    kept: CompactPixels | RowPixels | None = None
    origin: tuple[int, int] = (0, 0)


class Kept(NamedTuple):
    """An earlier frame kept to show again: the signatures of the windows it shows (in drawing order), its pixels,
    and the boxes outside which it shows what the current frame shows (``stale``)."""

    shown: tuple
    frame: np.ndarray
    stale: list[Box]


class Sprite(NamedTuple):
    """Pixels drawn apart over one colour (``Renderer._sprite``): its ``tile``, and the boxes drawing it noted for
    ``Renderer._plain_ground`` (their fill colours or ``None``), relative to the tile's top left."""

    tile: Image.Image
    notes: tuple[tuple[Box, Color | None], ...]

    @property
    def nbytes(self) -> int:
        """The bytes its tile takes (an ``RGB`` image: four a pixel)."""
        return 4 * self.tile.width * self.tile.height


class Stencil(NamedTuple):
    """A mask cut to the part of it that paints (its non-zero pixels: a zero leaves a pixel as it is), ``left`` and
    ``top`` px into the whole mask, which is ``width`` px wide; ``key`` names what it shows (a line of text, an icon)
    for the tiles of it kept (``Renderer._stamp``), or is ``None``."""

    mask: Image.Image
    left: int
    top: int
    width: int
    key: Hashable = None

    @property
    def nbytes(self) -> int:
        """The bytes its mask takes (an ``L`` image: one a pixel)."""
        return self.mask.width * self.mask.height


def stencil(mask: Image.Image, left: int = 0, top: int = 0, key: Hashable = None) -> Stencil:
    """``mask`` (lying ``left``, ``top`` px into a larger one) cut to its non-zero pixels."""
    box = mask.getbbox() or (0, 0, 0, 0)
    return Stencil(mask.crop(box), left + box[0], top + box[1], mask.width, key)


@picture_cache(_TEXT_STENCIL_BYTES, maxsize=None)
def _text_stencil(text: str, size: int, bold: bool) -> Stencil:
    """``_text_mask`` cut to its ink."""
    return stencil(_text_mask(text, size, bold), key=("text", text, size, bold))


@lru_cache(maxsize=1024)
def _icon_stencil(name: str, size: int) -> Stencil:
    """``icon_mask`` cut to its ink."""
    return stencil(icon_mask(name, size), key=("icon", name, size))


def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """An ``L`` mask of one line of text, the line's height tall."""
    face = font(size, bold)
    text = text.replace("\u200e", "")  # LEFT-TO-RIGHT MARK: zero-width (DeskClock's lap times carry it)
    runs, top = font_runs(text), (line_height(size) - size) // 4
    if not any(fallback for _, fallback in runs):  # Pillow's mask, from the characters' (``line_picture``)
        mask = Image.new("L", (max(line_box(text, size, bold)[2], 1), line_height(size)), 0)
        line, (left, below) = line_picture(text, size, bold=bold)
        if line.width and line.height:  # cut at the mask's edges, as drawn there
            mask.paste(line, (left, top + face.getmetrics()[0] + below))
        return mask
    # Runs in different fonts share Roboto's baseline, each starting where the one before it advanced to.
    baseline, x, placed = top + face.getmetrics()[0], 0.0, []
    for run, fallback in runs:
        run_face = run_font(size, bold, fallback)
        placed.append((x, run, run_face))
        x += run_face.getlength(run)
    right = max([x] + [left + run_face.getbbox(run, anchor="ls")[2] for left, run, run_face in placed])
    mask = Image.new("L", (max(int(right), 1), line_height(size)), 0)
    draw = ImageDraw.Draw(mask)
    for left, run, run_face in placed:
        draw.text((left, baseline), run, font=run_face, fill=255, anchor="ls")
    return mask


def _icon_size(width: int, height: int) -> int:
    """The glyph size of an icon drawn in a ``width`` x ``height`` view: 24 dp in a touch target (a 48 dp
    ImageButton, a 40 dp row icon), the whole view when smaller, about half a larger view (an empty state's
    picture, a FAB)."""
    side = min(width, height)
    return max(min(side, ICON_SIZE), round(side * 0.48))


def _shadow_mask(width: int, height: int, radius: int, blur: int, corners: Corners = ALL_CORNERS) -> Image.Image:
    """The soft shadow a ``width`` x ``height`` shape rounded at its ``corners`` (by ``radius``) casts, blurred by
    ``blur`` px, with a margin of twice that around it (not kept: ``_shadow_stencils`` keeps what it cuts from it,
    and asks for a mask only when it makes new stencils). A side longer than its corners and the blur's reach at both
    ends (a dialog, a drawer: 10-40 ms to blur at full size) is blurred at that length and its middle line repeated:
    the blur of a line reads only the lines within ``_blur_reach``, and those in the middle are all alike."""
    core = radius + _blur_reach(blur)  # lines from an end that its corner or the image's edge may reach
    short = (min(width, 2 * core + 1), min(height, 2 * core + 1))
    mask = Image.new("L", (short[0] + 4 * blur, short[1] + 4 * blur), 0)
    ImageDraw.Draw(mask).rounded_rectangle((2 * blur, 2 * blur, 2 * blur + short[0] - 1, 2 * blur + short[1] - 1),
                                           radius=radius, fill=_SHADOW_ALPHA, corners=corners)
    mask = mask.filter(ImageFilter.GaussianBlur(blur))
    if short == (width, height):
        return mask
    pixels = np.asarray(mask)
    for axis, (length, made) in enumerate(((height, short[1]), (width, short[0]))):
        if made < length:
            repeats = np.ones(made + 4 * blur, np.intp)
            repeats[2 * blur + core] += length - made  # the middle line, as many times more as the side is longer
            pixels = np.repeat(pixels, repeats, axis)
    return Image.fromarray(pixels)


def _blur_reach(blur: int) -> int:
    """How far (px) a pixel of Pillow's ``GaussianBlur(blur)`` may read, with room to spare: three box blurs of a
    radius about ``blur`` (``_gaussian_blur_radius`` in Pillow's BoxBlur.c), each reading one pixel more."""
    return 4 * blur + 8


@lru_cache(maxsize=64)
def _shadow_stencils(width: int, height: int, radius: int, blur: int, drop: int,
                     cover: str | None, corners: Corners = ALL_CORNERS) -> tuple[Stencil, ...]:
    """``_shadow_mask`` (of a shape rounded at its ``corners``) cut to its ink, the shadow lying ``drop`` px lower
    than its shape; less what the shape
    covers when it is filled next (it would be painted over), ``cover`` naming the shape: ``"rounded"``, a rounded
    rectangle of ``radius``, covers the band of its rows clear of the corners edge to edge; ``"ellipse"``, the
    ellipse in its bounds, covers its inscribed rectangle. Each a pixel or two in from the edge; what is left are
    the pieces above, below, left and right of the covered part."""
    mask = _shadow_mask(width, height, radius, blur, corners)
    inset_x, inset_y = (0, radius + 1) if cover == "rounded" else (_inscribed_inset(width), _inscribed_inset(height))
    left, right = 2 * blur + inset_x, 2 * blur + width - inset_x  # the covered part, in the mask
    top, bottom = 2 * blur - drop + inset_y, 2 * blur - drop + height - inset_y
    if cover is None or left >= right or top >= bottom:
        return (stencil(mask),)
    boxes = ((0, 0, mask.width, top), (0, bottom, mask.width, mask.height),
             (0, top, left, bottom), (right, top, mask.width, bottom))
    return tuple(stencil(mask.crop(box), box[0], box[1]) for box in boxes if box[0] < box[2] and box[1] < box[3])


def _inscribed_inset(side: int) -> int:
    """How far in from its bounds' edges (px) the rectangle lies that an ellipse ``side`` px across (or high) covers
    whole, with a pixel or two to spare: the inscribed rectangle's."""
    return math.ceil(side / 2 * (1 - math.sqrt(0.5))) + 2


@lru_cache(maxsize=32)
def _shadow_tiles(width: int, height: int, radius: int, blur: int, drop: int, cover: str | None,
                  corners: Corners, ground: Color) -> tuple[tuple[Image.Image, int, int], ...]:
    """``_shadow_stencils`` stamped in black on ``ground``: per piece, an image of its ink's box and where it lies in
    the mask. Copied where the canvas is ``ground`` all over, a tile makes the pixels its piece's stamp makes there,
    without blending (a launcher icon's shadow, whatever the icon's colour, is one tile set per size)."""
    tiles = []
    for piece in _shadow_stencils(width, height, radius, blur, drop, cover, corners):
        tile = Image.new("RGB", piece.mask.size, ground)
        tile.paste(Image.new("RGB", piece.mask.size, (0, 0, 0)), (0, 0), piece.mask)  # as ``Renderer._stamp``
        tiles.append((tile, piece.left, piece.top))
    return tuple(tiles)


@picture_cache(_INK_TILE_BYTES, maxsize=None, key=lambda ink, color, ground: (ink.key, color, ground))
def _ink_tile(ink: Stencil, color: Color, ground: Color) -> Image.Image:
    """``ink`` (a named mask: ``Stencil.key``) stamped in ``color`` on an image of ``ground`` the size of its mask,
    kept by name and colours (the least recently used go once the tiles take more than ``_INK_TILE_BYTES``)."""
    tile = Image.new("RGB", ink.mask.size, ground)
    tile.im.paste(Image.core.fill("RGB", ink.mask.size, color), (0, 0, *ink.mask.size), ink.mask.im)
    return tile


@lru_cache(maxsize=1)
def _scrim_table() -> list[int]:
    """What a scrim makes of each value of a channel, for the three bands of an ``RGB`` image (``Image.point``'s
    table): worked out by Pillow pasting black through the scrim's even mask, so dimming by the table makes the
    pixels that paste makes (at a fraction of its cost)."""
    ramp = Image.frombytes("L", (256, 1), bytes(range(256)))
    dimmed = Image.merge("RGB", (ramp, ramp, ramp))
    dimmed.paste((0, 0, 0), None, Image.new("L", dimmed.size, _SCRIM_ALPHA))
    return list(dimmed.getchannel(0).tobytes()) * 3


def dimmed(color: Color) -> Color:
    """``color`` under a scrim, as the renderer dims it (``_scrim_table``)."""
    table = _scrim_table()
    return table[color[0]], table[color[1]], table[color[2]]


#: The fields of a view the drawing reads besides those ``signature`` names first: here, or through the layout's and
#: the selection's text measures (a field's outline, label and start icon's room, how a text wraps and lines up).
_DRAWN_FIELDS = ("text", "hint", "content_desc", "checked", "focused", "enabled", "text_color", "button_tint",
                 "button_tint_off", "box_at_end", "bold", "padding", "corner", "corners", "multiline", "selection",
                 "progress", "key", "whole", "outlined", "underline", "label_size", "value", "indent", "gravity",
                 "single_line", "max_lines")
_DRAWN = attrgetter(*_DRAWN_FIELDS)
_CORNER, _KEY = _DRAWN_FIELDS.index("corner"), _DRAWN_FIELDS.index("key")
_SIGNATURE = "signature"  # the views' part of a window's ``signature``, made once per kept tree (``Kept.made``)


def signature(root: View, kept: KeptTree | None = None) -> tuple:
    """Everything about a laid-out tree that affects its pixels: per view, in drawing order, a tuple starting with
    its kind, bounds, text size and elevation (what ``Renderer._reach`` reads), background and whether it has a
    picture (what ``paints`` reads), then the other fields drawing reads (``_DRAWN``) and whether its height is its
    content's (an outlined field's lines are then centred in it). ``kept``: the kept laid-out tree that is the
    root's one child, whose views' part is made once and kept with it (``made_once``: unchanged once laid out)."""
    if kept is not None:
        return (*_drawn_items((root,)), *made_once(kept, _SIGNATURE, lambda: _drawn_items(kept.root.walk())))
    return _drawn_items(root.walk())


def _drawn_items(views: Iterable[View]) -> tuple:
    """The ``signature`` items of ``views``."""
    return tuple(
        (v.kind, v.bounds, v.text_size, v.elevation, v.background, v.image is not None, _DRAWN(v), v.height is None)
        for v in views
    )


def paints(item: tuple) -> bool:
    """Whether a view (its ``signature`` item) paints anything itself: not a box or list without a background,
    elevation or picture, which only holds the views drawn after it."""
    kind, _, _, elevation, background, pictured = item[:6]
    return kind not in _HOLDERS or background is not None or bool(elevation) or pictured


def only_resized(old: tuple, new: tuple) -> bool:
    """Whether a view (its ``signature`` items before and after) changed nothing but its bounds and is a plain box
    that paints nothing but its background over them (no elevation, picture or rounded corners): a window's root
    the keyboard shrinks, or that gets its rows back."""
    kind, _, _, elevation, _, pictured, drawn, _ = new
    return (old[:1] + old[2:] == new[:1] + new[2:] and kind in _PLAIN_BOXES and not elevation and not pictured
            and not drawn[_CORNER])


def changed_views(old: tuple, new: tuple) -> list[tuple] | None:
    """The views (``signature`` items) of ``old`` and ``new`` that are not in both, or ``None`` when the views in
    both are not drawn in the same order (a change of z-order: then everything counts as changed). Each item is
    hashed once, to a number standing for it (items are long tuples: hashing them again cost more than the rest)."""
    numbers: dict[tuple, int] = {}
    old_numbers = [numbers.setdefault(item, len(numbers)) for item in old]
    new_numbers = [numbers.setdefault(item, len(numbers)) for item in new]
    common = Counter(old_numbers) & Counter(new_numbers)
    kept_old, kept_new, changed = [], [], []
    for items, numbered, kept in ((old, old_numbers, kept_old), (new, new_numbers, kept_new)):
        budget = common.copy()
        for item, number in zip(items, numbered):
            if budget[number] > 0:
                budget[number] -= 1
                kept.append(number)
            else:
                changed.append(item)
    return changed if kept_old == kept_new else None


class Renderer:
    """Keeps the last frame (and the one before it) and the signature of each window drawn into it.

    A changed window is redrawn in the boxes its changed views may paint (``_dirty_boxes``: a list row, a toolbar,
    a field and its caret), each strip by strip in the scratch's top left corner, as on a canvas of its own, and
    copied into the frame, so nothing it draws can spill over a neighbouring window or pixels it kept (a caret below
    the last line, a glyph wider than its view). Views come in design pixels and are drawn ``scale`` times as large
    (see the module docstring).
    """

    def __init__(self, width: int, height: int, scale: float = 1.0) -> None:
        self.width, self.height = width, height
        self.scale = scale
        self._frame = np.empty((height, width, 3), np.uint8)  # the screen: each canvas is copied into it
        self._frame[:] = np.full((width, 3), WHITE, np.uint8)  # row by row: filling with a colour is 50x slower
        self._frame.flags.writeable = False  # handed out as it is: a change makes a new frame (``_fresh``)
        # the canvas every strip is drawn on, kept from strip to strip, and its pixels (``rgb_canvas``)
        self._scratch: Image.Image | None = None
        self._scratch_pixels = np.empty((0, 0, 4), np.uint8)
        # rows (from, to) of the scratch known to be one colour (which, and across how many columns) as the last strip
        # left them, nothing drawn on it having painted there: not filled again for a strip on that colour
        self._clean: tuple[Color | None, int, list[tuple[int, int]]] = (None, 0, [])
        self._canvas: Image.Image  # the canvas being drawn on (the scratch, or its dimmed copy), and its context
        self._draw: ImageDraw.ImageDraw
        self._origin = (0, 0)  # the current canvas's top left corner in screen pixels
        self._band = (0, 0)  # the canvas's rows being drawn (from, to)
        self._canvas_ground: Color = WHITE  # the colour the canvas started in
        # per view drawn on the canvas so far that paints: the box it may paint (screen px), and for a plain box the
        # one colour it fills that box with (else None)
        self._below: list[tuple[Box, Color | None]] = []
        self._signatures: dict[str, tuple] = {}  # per window, the signature of what the frame shows of it
        self._kept: list[Kept] = []  # earlier frames, oldest first
        self.frame_number = 0  # the number of the frame shown (0: the blank one it starts from)
        # per frame shown lately (oldest first): its number and the spans of rows (from, to) in which it differs
        # from the frame before it (a kept frame shown again: where it was stale)
        self._changes: deque[tuple[int, list[tuple[int, int]]]] = deque(maxlen=_CHANGES_KEPT)
        self._scaled: KeptPictures[tuple[str, int, int], Image.Image] = KeptPictures(_SCALED_CACHE_BYTES)
        self._own_size: KeptPictures[tuple[str, int, int], Image.Image] = KeptPictures(
            int(_OWN_SIZE_SCREENS * 4 * width * height))
        self._inking = False  # the view being drawn notes in ``_below`` what it paints as it goes (``_inks_only``)
        self._palette: Mapping[Color, Color] = {}  # the current window's theme colours for the widgets' own
        self._reaches: dict[tuple[str, int, int], tuple[int | None, int]] = {}  # _reach per kind, text size, elevation

    def px(self, value: float) -> int:
        """A design coordinate or length in screen pixels."""
        return round(value * self.scale)

    def _length(self, value: float) -> int:
        """A design length that must not vanish (a stroke, a glyph) in screen pixels: at least 1."""
        return max(1, round(value * self.scale))

    def render(self, windows: dict[str, tuple[View, Color]],
               palettes: Mapping[str, Mapping[Color, Color]] | None = None,
               kept: Mapping[str, KeptTree] | None = None) -> np.ndarray:
        """Draw ``{name: (laid-out root, background)}``; returns the frame, ``(H, W, 3)`` uint8 and read-only: the
        same array as last time when nothing in it changed, else a new one (an array once returned never changes,
        so callers need not copy it). ``palettes`` names a window's theme colours (a dark theme's) for the light
        ones the widgets draw themselves (switch tracks, SeekBar tracks, a field's underline and hint). ``kept``
        names a window whose root holds one child, a kept laid-out tree (its ``signature`` made once).

        A window missing from ``windows`` is forgotten, so it is drawn afresh when it comes back over whatever
        was drawn in its place meanwhile. Windows whose signatures are those of an earlier frame kept
        (``_KEPT_FRAMES``) show that frame again.
        """
        palettes, kept = palettes or {}, kept or {}
        signatures = {name: (signature(root, kept.get(name)), background, palettes.get(name, {}))
                      for name, (root, background) in windows.items()}
        shown = tuple(signatures.items())  # in drawing order
        if shown == tuple(self._signatures.items()):
            return self._frame
        again = next((i for i, entry in enumerate(self._kept) if entry.shown == shown), None)
        if again is not None:
            _, frame, stale = self._kept.pop(again)
            self._show(frame, signatures, stale)
            return self._frame
        work: list[Work] = []  # what to draw, in drawing order
        reused: list[Box] = []  # windows the last frame kept shows as they are now (``_kept_shows``)
        for name, (root, background) in windows.items():
            sig = signatures[name]
            views, _, palette = sig
            before = self._signatures.get(name)
            if before == sig:
                continue
            window = self._window_box(sig)
            if self._kept_shows(name, signatures):
                reused.append(window)
                continue
            boxes = (self._dirty_boxes(before[0], views, window, self._window_box(before))
                     if before is not None and before[1:] == sig[1:] else [window])
            key = (None if any(item[5] for item in views)
                   else (name, self.width, self.height, self.scale, views, background, tuple(palette.items())))
            looks = _WINDOW_LOOKS.get(name)
            kept_look = looks.get(key) if key is not None and looks is not None else None
            if kept_look is not None:
                work += [Work(box, [], background, palette, kept=kept_look, origin=window[:2]) for box in boxes]
                continue
            key = key if boxes == [window] else None  # kept once drawn whole
            painted = [(view, self._painted_box(*item[:4])) for view, item in zip(root.walk(), views)
                       if paints(item)] if boxes else []  # a view that paints nothing itself is not drawn
            work += [Work(box, painted, background, palette, key) for box in boxes]
        if not work and not reused:  # what changed lies outside the windows: the frame shows them as they are
            self._signatures = signatures
            return self._frame
        drawn = [item.box for item in work] + reused
        frame = self._fresh(drawn, reused)
        for item in work:
            self._draw_work(frame, item)
        frame.flags.writeable = False
        self._show(frame, signatures, drawn)
        return self._frame

    def _window_box(self, sig: tuple) -> Box:
        """The box (screen px) of a window of signature ``sig`` (its root's bounds, cut to the screen)."""
        x1, y1, x2, y2 = map(self.px, sig[0][0][1])
        return x1, y1, min(x2, self.width), min(y2, self.height)  # a design edge may round 1 px past it

    def _kept_shows(self, name: str, signatures: dict[str, tuple]) -> bool:
        """Whether the last frame kept shows window ``name`` as ``signatures`` has it, in rows of its own: across
        the screen's width, and clear of every other window it or ``signatures`` shows (a window its box does not
        hold alone may show what another drew over it). Its pixels there are then those drawing it would make (back
        from a screen with another status bar: the app's window as it was), and they are taken, not drawn."""
        if not self._kept:
            return False
        shown = dict(self._kept[-1].shown)
        sig = signatures[name]
        window = self._window_box(sig)
        if window[0] != 0 or window[2] != self.width or shown.get(name) != sig:
            return False
        others = [other for names in (shown, signatures) for key, other in names.items() if key != name]
        return all(box[1] >= window[3] or box[3] <= window[1] for box in map(self._window_box, others))

    def _show(self, frame: np.ndarray, signatures: dict[str, tuple], changed: list[Box]) -> None:
        """Show ``frame``, of windows of ``signatures``, which shows what the current frame does outside the
        ``changed`` boxes, and keep the current one to show again."""
        if self._signatures:  # not the blank screen the renderer starts from
            for entry in self._kept:  # where it differs from the current frame, or the current frame from ``frame``
                entry.stale[:] = _merged(entry.stale + changed)
            self._kept.append(Kept(tuple(self._signatures.items()), self._frame, list(changed)))
            del self._kept[:max(len(self._kept) - _KEPT_FRAMES, 0)]
        self._frame, self._signatures = frame, signatures
        self.frame_number = next(_frame_numbers)
        self._changes.append((self.frame_number, [(y1, y2) for _, y1, _, y2 in changed]))
        if self._own_size.kept:  # its owner's pictures kept while shown (an owner that dropped one makes it again)
            shown = {item[6][_KEY] for views, _, _ in signatures.values() for item in views if item[5]}
            self._own_size.keep_only(lambda key: key[0] in shown)

    def twin(self, frame: np.ndarray) -> np.ndarray | None:
        """The frame shown, ``frame``, again in other memory, which is shown from now on (``frame`` kept in its
        stead), so a caller holding ``frame`` gets the same screen without its memory: the kept frame when nothing
        else holds it (``_recycled``), copied from ``frame`` only where the two differ, else a new copy. None when
        ``frame`` is not the one shown (``_fresh`` with nothing to draw)."""
        if frame is not self._frame:
            return None
        twin = self._fresh([], [])
        twin.flags.writeable = False
        self._show(twin, self._signatures, [])
        return twin

    def rows_changed_since(self, number: int) -> list[tuple[int, int]] | None:
        """The spans of rows (from, to; they may overlap) in which the frame shown differs from frame ``number`` of
        this renderer, or None when that is not known (not one of its last few frames)."""
        if number == self.frame_number:
            return []
        spans: list[tuple[int, int]] = []
        found = False
        for shown, rows in self._changes:
            if found:
                spans += rows
            found = found or shown == number
        return spans if found else None

    def _fresh(self, drawn: list[Box], reused: list[Box]) -> np.ndarray:
        """A writable frame to draw the ``drawn`` boxes in, showing what the current frame shows outside them and what
        the last frame kept shows in the ``reused`` ones (across the width; among ``drawn``): the kept frame that
        showing it pushes out (``_recycled``), copied from the current one only where the two differ, or a new copy.
        Rows that a box across the whole width replaces are not copied, so a changed row is written once (and a
        reused box is not written at all when the frame is the kept one that shows it)."""
        old = self._frame
        frame, stale = self._recycled() or (np.empty_like(old), [(0, 0, self.width, self.height)])
        replaced = np.zeros(self.height, bool)  # the rows a full-width box writes
        for x1, y1, x2, y2 in drawn:
            if x1 == 0 and x2 == self.width:
                replaced[y1:y2] = True
        for x1, y1, x2, y2 in stale:
            marks = np.concatenate(([True], replaced[y1:y2], [True]))
            edges = (np.flatnonzero(np.diff(marks)) + y1).tolist()  # where runs of rows to copy start and end
            for top, bottom in zip(edges[::2], edges[1::2]):
                frame[top:bottom, x1:x2] = old[top:bottom, x1:x2]
        if self._kept:  # the frame kept last is not the one recycled
            for _, y1, _, y2 in reused:
                frame[y1:y2] = self._kept[-1].frame[y1:y2]
        return frame

    def _recycled(self) -> tuple[np.ndarray, list[Box]] | None:
        """The kept frame that showing the next one pushes out (``_show``), made writable to draw the next in, and
        the boxes where it differs from the current frame, when nothing but the renderer holds it (no observation,
        view, buffer or image of it does, so no one sees it change): its memory is written again instead of new
        memory faulted in (and zeroed by the kernel), and only where it is stale."""
        if len(self._kept) < _KEPT_FRAMES:
            return None
        frame = self._kept[0].frame
        if sys.getrefcount(frame) > 3:  # held by the kept entry, ``frame`` and getrefcount's argument
            return None
        stale = self._kept.pop(0).stale
        frame.flags.writeable = True
        return frame, stale

    def _draw_work(self, frame: np.ndarray, work: Work) -> None:
        """Draw ``work`` into ``frame``: paste its box from the window's kept pixels, or draw it and keep the pixels of
        a whole window (``Work.key``)."""
        x1, y1, x2, y2 = work.box
        if work.kept is not None:
            work.kept.paste(frame[y1:y2, x1:x2], y1 - work.origin[1], x1 - work.origin[0])
            return
        self._palette = work.palette
        self._draw_box(frame, work.painted, work.background, work.box)
        if work.key is not None:
            _keep_look(work.key, frame[y1:y2, x1:x2], self._frame.nbytes)

    def _draw_box(self, frame: np.ndarray, painted: list[tuple[View, Box]], background: Color, box: Box) -> None:
        """Draw the window's pixels at ``box`` into ``frame``, strip by strip: the ``painted`` views (each with the box
        it may paint, in drawing order) that reach into it, over ``background``. Runs of at least ``_BARE_ROWS`` rows
        that no view reaches are the ground's colour alone, written straight into the frame (``_row_runs``)."""
        x1, y1, x2, y2 = box
        painting = [(view, reach) for view, reach in painted
                    if reach[0] < x2 and reach[2] > x1 and reach[1] < y2 and reach[3] > y1]
        ground, grounded = self._ground([view for view, _ in painting], background, box)
        strips = []
        for top, bottom, bare in _row_runs([reach for _, reach in painting[grounded:]], y1, y2, _BARE_ROWS):
            if bare:
                frame[top:bottom, x1:x2] = np.full((x2 - x1, 3), ground, np.uint8)  # row by row, as in ``__init__``
            else:
                strips += [(row, min(row + _STRIP_ROWS, bottom)) for row in range(top, bottom, _STRIP_ROWS)]
        for strip_top, strip_bottom in strips:
            self._start_canvas((x2 - x1, strip_bottom - strip_top), ground)
            self._origin = (x1, strip_top)
            for view, reach in painting[grounded:]:
                if reach[1] < strip_bottom and reach[3] > strip_top and not self._fills_its_ground(view):
                    self._inking = _inks_only(view)
                    if view.whole is None:
                        self._draw_view(view)
                    else:
                        self._draw_cut(view)
                    self._note_below(view, reach)
            self._inking = False
            # rows nothing drawn may have painted (``_below``) are the ground's colour: written, not packed
            runs = _row_runs([box for box, _ in self._below], strip_top, strip_bottom, _INKLESS_ROWS)
            for top, bottom, bare in runs:
                if bare:
                    frame[top:bottom, x1:x2] = np.full((x2 - x1, 3), ground, np.uint8)
                else:
                    pack_into(self._scratch_pixels[top - strip_top:bottom - strip_top, :x2 - x1], frame,
                              (x1, top, x2, bottom))
            self._clean = ground, x2 - x1, [(top - strip_top, bottom - strip_top) for top, bottom, bare in runs if bare]

    def _draw_cut(self, view: View) -> None:
        """Draw a view a list cuts (``View.whole``): all of it where it lies, then the canvas outside its ``bounds``
        at the edges they were cut at put back as it was (Canvas ``clipRect`` to the list, as ViewGroup's
        ``clipChildren`` draws a child half scrolled out)."""
        whole = view.with_bounds(view.whole)
        across, down = self._reach(view.kind, view.text_size, view.elevation)
        left, top, right, bottom = self._local(whole)
        x1, y1, x2, y2 = self._local(view)
        width, height = self._canvas.width, self._band[1]
        left, right = (0, width) if across is None else (max(left - across, 0), min(right + across, width))
        outside = [(left, max(top - down, 0), right, min(y1, height)) if y1 > top else None,
                   (left, max(y2, 0), right, min(bottom + down, height)) if y2 < bottom else None]
        kept = [(box, self._canvas.crop(box)) for box in outside if box and box[1] < box[3] and left < right]
        self._draw_view(whole)
        for box, pixels in kept:
            self._canvas.paste(pixels, box)
            if self._inking:  # what it noted there (a colour it filled) no longer shows
                self._note(box)

    def _start_canvas(self, size: tuple[int, int], ground: Color) -> None:
        """Start drawing a strip of ``size`` px (at most ``_STRIP_ROWS`` tall, at most the screen's width) on the
        scratch canvas, filled with ``ground``: the strip is the canvas's top left corner, so a view crossing its
        edges is cut there as on a canvas of its own; the scratch is kept from strip to strip (no new image per
        strip), and rows the last strip left in ``ground`` across the width are not filled again (``_clean``)."""
        width, rows = size
        canvas = self._scratch
        if canvas is None:
            self._scratch_pixels = np.empty((_STRIP_ROWS, self.width, 4), np.uint8)
            canvas = self._scratch = rgb_canvas(self._scratch_pixels)
            canvas.im.paste(ground, (0, 0, *canvas.size))
        else:
            color, across, clean = self._clean
            filled = 0  # the rows above are the ground's colour
            for top, bottom in (clean if color == ground and across >= width else []) + [(rows, rows)]:
                if filled < min(top, rows):
                    canvas.im.paste(ground, (0, filled, width, min(top, rows)))
                filled = max(filled, bottom)
        self._clean = (None, 0, [])
        self._canvas, self._draw, self._band = canvas, ImageDraw.Draw(canvas), (0, rows)
        self._canvas_ground, self._below = ground, []

    def _plain_ground(self, box: Box) -> Color | None:
        """The one colour the canvas shows all over ``box`` (canvas px; the part of it on the canvas), or ``None``:
        the colour the canvas started in, unless something drawn on it so far may paint there: then the last that
        may must be a box filled with one colour over all of the box (its colour is then the box's)."""
        ox, oy = self._origin
        x1, y1 = max(box[0], 0) + ox, max(box[1], self._band[0]) + oy  # in screen px, as the views' boxes
        x2, y2 = min(box[2], self._canvas.width) + ox, min(box[3], self._band[1]) + oy
        for (left, top, right, bottom), fill in reversed(self._below):
            if left >= x2 or right <= x1 or top >= y2 or bottom <= y1:
                continue
            return None if fill is None or left > x1 or top > y1 or right < x2 or bottom < y2 else fill
        return self._canvas_ground

    def _fills_its_ground(self, view: View) -> bool:
        """Whether ``view`` is a plain box (no picture, elevation or corners) that fills its bounds with the one colour
        the canvas shows all over them already (``_plain_ground``: a list row's white on a white screen): it paints
        nothing new, so it is neither drawn nor noted, and the rows it spans may be written, not packed."""
        return (view.background is not None and view.kind in _HOLDERS and view.whole is None and view.image is None
                and not view.elevation and not view.corner and self._plain_ground(self._local(view)) == view.background)

    def _note(self, box: Box, fill: Color | None = None) -> None:
        """Note for ``_plain_ground`` that the view being drawn may paint ``box`` (canvas px), or fills it with
        ``fill``."""
        ox, oy = self._origin
        self._below.append(((box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy), fill))

    def _note_below(self, view: View, reach: Box) -> None:
        """Note a view just drawn on the canvas for ``_plain_ground``: the box it may paint (``reach``), or for a
        plain box (no picture, elevation or corners) the one it fills with its background; a plain box without a
        background painted nothing, nor did a view that notes what it paints (``_inking``) outside what it noted."""
        if self._inking:
            return
        if view.kind not in _HOLDERS or view.image is not None or view.elevation or view.corner:
            self._below.append((reach, None))
        elif view.background is not None:
            x1, y1, x2, y2 = view.bounds
            self._below.append(((self.px(x1), self.px(y1), self.px(x2), self.px(y2)), view.background))

    def _painted_box(self, kind: str, bounds: Box, text_size: int, elevation: int) -> Box:
        """The box (screen px) a view of ``kind`` at design ``bounds`` may paint: its bounds and its ``_reach``
        (across the screen when it may overflow sideways, ``_OVERFLOWING``)."""
        across, down = self._reach(kind, text_size, elevation)
        x1, y1, x2, y2 = bounds
        scale = self.scale  # ``px`` inlined: a box per view per changed frame
        top, bottom = round(y1 * scale) - down, round(y2 * scale) + down
        if across is None:
            return 0, top, self.width, bottom
        return round(x1 * scale) - across, top, round(x2 * scale) + across, bottom

    def _ground(self, views: list[View], background: Color, box: tuple[int, int, int, int]) -> tuple[Color, int]:
        """The colour a canvas at ``box`` (screen px) starts in, and how many of the ``views`` drawn on it first that
        colour makes needless: plain boxes (a window's root, a screen's content frame) that each fill the whole
        canvas or draw nothing, the last background of them over the window's ``background``."""
        x1, y1, x2, y2 = box
        grounded = 0
        for view in views:
            if view.kind not in _PLAIN_BOXES or view.image is not None or view.elevation:
                break
            if view.background is not None:
                left, top, right, bottom = map(self.px, view.bounds)
                if view.corner or left > x1 or top > y1 or right < x2 or bottom < y2:
                    break
                background = view.background
            grounded += 1
        return background, grounded

    def _dirty_boxes(self, old: tuple, new: tuple, window: Box, was: Box) -> list[Box]:
        """The boxes (screen px, within the ``window``) that change when a window drawn from the views ``old``
        (``signature`` items) in the box ``was`` is drawn from ``new``: every box a changed view may paint
        (``_painted_box``), those that overlap merged; the whole window when the views' order changed or its root
        did, but for a root ``only_resized`` (its background fills its box as before), of which only the part of the
        window outside ``was`` (a window that grows where another was). Outside them only views in both are drawn, in
        the same order, so the pixels there stay as they are (a changed view that ``paints`` nothing is left out:
        the views in both are drawn there as before)."""
        changed = changed_views(old, new)
        if changed is None:
            return [window]
        boxes = []
        if old[0] != new[0]:
            if not only_resized(old[0], new[0]):  # the root changed: it grounds the window's whole box
                return [window]
            changed = [item for item in changed if item is not old[0] and item is not new[0]]
            boxes = _outside(window, was)
        x1, y1, x2, y2 = window
        for kind, bounds, text_size, elevation, *_ in filter(paints, changed):
            left, top, right, bottom = self._painted_box(kind, bounds, text_size, elevation)
            box = max(left, x1), max(top, y1), min(right, x2), min(bottom, y2)
            if box[0] < box[2] and box[1] < box[3]:
                boxes.append(box)
        return _merged(boxes)

    def _reach(self, kind: str, text_size: int, elevation: int) -> tuple[int | None, int]:
        """How far (screen px) a view may paint left or right of its bounds (``None``: anywhere across, for the
        ``_OVERFLOWING`` kinds), and above or below them: a line of its text (a label taller than its view, a
        centred button title), half a switch track, or its shadow (``_shadow``: blurred twice the blur around the
        shape and a third of the elevation lower), with a pixel of rounding on each side; worked out once per kind,
        text size and elevation."""
        key = (kind, text_size, elevation)
        reach = self._reaches.get(key)
        if reach is None:
            reach = self._reaches[key] = self._measure_reach(kind, text_size, elevation)
        return reach

    def _measure_reach(self, kind: str, text_size: int, elevation: int) -> tuple[int | None, int]:
        """``_reach``, worked out."""
        lift = self.px(max(elevation, _FAB_ELEVATION if kind == "fab" else _LAUNCHER_ICON_ELEVATION
                           if kind in ("app_icon", "dock_icon") else 0))
        shadow = 2 * self._blur(lift) + lift // 3 if lift else 0
        track = self._length(_TRACK_HALF) if kind in ("switch", "toggle") else 0
        return (None if kind in _OVERFLOWING else shadow + 2,
                max(self._length(line_height(text_size)), track, shadow) + 2)

    def _point(self, x: float, y: float) -> tuple[int, int]:
        """A design point on the current window's canvas."""
        return self.px(x) - self._origin[0], self.px(y) - self._origin[1]

    def _rect(self, x1: float, y1: float, x2: float, y2: float) -> tuple[int, int, int, int]:
        """A design rectangle (end exclusive) on the current window's canvas."""
        return (*self._point(x1, y1), *self._point(x2, y2))

    def _local(self, view: View) -> tuple[int, int, int, int]:
        """The view's bounds on the current window's canvas."""
        return self._rect(*view.bounds)

    def _draw_view(self, view: View) -> None:
        """Draw one view (not its children)."""
        bounds = x1, y1, x2, y2 = self._local(view)
        if x2 <= x1 or y2 <= y1:
            return
        dx1, dy1, dx2, dy2 = view.bounds
        if view.elevation:
            filled = view.background is not None and view.kind not in ("fab", "button", "app_icon", "dock_icon")
            self._shadow(bounds, self.px(view.corner), self.px(view.elevation), "rounded" if filled else None,
                         view.corners, first=True)
        if view.kind == "fab":
            self._disc(view.bounds, (x2 - x1) // 2, self.px(_FAB_ELEVATION), view.background, view.hint,
                       view.text_color, first=not view.elevation)
            return
        if view.kind in ("app_icon", "dock_icon"):
            self._draw_app_icon(view)
            return
        if view.kind == "button":
            self._rounded(_box(bounds), self.px(24), view.background if view.enabled else self._ink(DIVIDER))
            self._text_line(view.text, view, (dx1 + dx2) // 2, (dy1 + dy2 - line_height(view.text_size)) // 2,
                            centered=True)
            return
        if view.kind == "scrim":
            self._dim(bounds)  # dimming the whole canvas replaces it (and its ``_draw``)
        if view.background is not None and view.corner:
            self._rounded(_box(bounds), self.px(view.corner), view.background, view.corners)
        elif view.background is not None:
            self._fill(view.background, bounds)
        if view.image is not None:
            self._draw_image(view)
        if view.kind == "icon":
            self._icon(view.hint, view.bounds, view.text_color)
        elif view.kind == "edit":
            self._draw_edit(view)
        elif view.kind == "switch":
            self._text_line(view.content_desc, view, dx1 + view.padding,
                            (dy1 + dy2 - line_height(view.text_size)) // 2)
            self._switch_track(dx2 - view.padding, (dy1 + dy2) // 2, view.checked)
        elif view.kind == "toggle":
            self._switch_track((dx1 + dx2) // 2 + 60, (dy1 + dy2) // 2, view.checked)
        elif view.kind == "text":
            self._text_block(view, view.text_color)
        elif view.kind == "check":
            self._check_box(view)
        elif view.kind == "label" and view.gravity == "center":  # its canvas's Paint.Align.CENTER
            self._text_line(view.hint, view, (dx1 + dx2) // 2, (dy1 + dy2 - line_height(view.text_size)) // 2,
                            centered=True)
        elif view.kind == "label":  # text a custom view draws itself (no TextView): in pixels only, from ``hint``
            self._text_line(view.hint, view, dx1 + view.padding, dy2 - view.padding - line_height(view.text_size))
        elif view.kind == "letter":  # a letter a drawable draws centred on its view (a letter tile), from ``hint``
            self._text_line(view.hint, view, (dx1 + dx2) // 2, (dy1 + dy2 - line_height(view.text_size)) // 2,
                            centered=True)
        elif view.kind == "seekbar":  # the track lies between the horizontal paddings
            dx1, dx2 = dx1 + view.padding, dx2 - view.padding
            cy, r = (dy1 + dy2) // 2, (dy2 - dy1) // 4
            filled = dx1 + round((dx2 - dx1) * view.progress)
            left, top, right, bottom = self._rect(dx1, cy - r, dx2, cy + r)
            radius = self.px(r)
            self._rounded((left, top, right - 1, bottom), radius, self._ink(DIVIDER))
            if filled > dx1:
                end = self._point(max(filled - 1, dx1 + 2 * r), 0)[0]
                self._rounded((left, top, end, bottom), radius, self._ink(PRIMARY))

    def _dim(self, bounds: tuple[int, int, int, int]) -> None:
        """Dim the canvas at ``bounds`` as a scrim does (black at ``_SCRIM_ALPHA``)."""
        x1, y1, x2, y2 = bounds
        box = (max(x1, 0), max(y1, self._band[0]), min(x2, self._canvas.width), min(y2, self._band[1]))
        if box[0] < box[2] and box[1] < box[3]:  # the whole canvas (a dialog's scrim) dimmed without a crop
            dimmed = (self._canvas if box == (0, 0, *self._canvas.size) else self._canvas.crop(box)).point(
                _scrim_table())
            self._canvas.im.paste(dimmed.im, box)

    def _fill(self, color: Color, bounds: Box) -> None:
        """Fill the canvas at ``bounds`` (end exclusive) with ``color``: the pixels of Pillow's filled ``rectangle``,
        by its core's fill (a fifth of the time: Pillow 13, measured)."""
        self._canvas.im.paste(color, bounds)

    def _rounded(self, box: Box, radius: int, color: Color | None, corners: Corners = ALL_CORNERS) -> None:
        """Pillow's ``rounded_rectangle`` filled with ``color`` at ``box`` (Pillow's, end inclusive), drawn as Pillow
        draws it, its corners' pie slices and the rectangles between them, these by ``_fill``; a shape whose corners
        meet (or lack) is left to Pillow. No colour draws nothing (Pillow would outline the shape in its default
        ink, white)."""
        if color is None:
            return
        x0, y0, x1, y1 = box
        d = min(x1 - x0, y1 - y0, radius * 2)  # a corner's diameter
        if not d or not any(corners) or x1 - x0 <= d + 1 or y1 - y0 <= d + 1:
            self._draw.rounded_rectangle(box, radius=radius, fill=color, corners=corners)
            return
        r, core = d // 2, self._draw.draw
        ink = core.draw_ink(color)
        for (left, top), start, rounded in zip(((x0, y0), (x1 - d, y0), (x1 - d, y1 - d), (x0, y1 - d)),
                                               (180, 270, 0, 90), corners):
            if rounded:
                core.draw_pieslice((left, top, left + d, top + d), start, start + 90, ink, 1)
        top_left, top_right, bottom_right, bottom_left = (r + 1 if rounded else 0 for rounded in corners)
        self._fill(color, (x0 + r + 1, y0, x1 - r, y1 + 1))
        self._fill(color, (x0, y0 + top_left, x0 + r + 1, y1 + 1 - bottom_left))
        self._fill(color, (x1 - r, y0 + top_right, x1 + 1, y1 + 1 - bottom_right))

    def _ink(self, color: Color) -> Color:
        """A colour a widget draws itself, in the current window's theme."""
        return self._palette.get(color, color)

    def _icon(self, name: str, bounds: tuple[int, int, int, int], color: Color) -> None:
        """Icon ``name`` centred in ``bounds`` (design coordinates) in ``color``; no name draws nothing (an
        unchecked CheckBox)."""
        if not name:
            return
        x1, y1, x2, y2 = bounds
        size = self._length(_icon_size(x2 - x1, y2 - y1))
        x1, y1, x2, y2 = self._rect(*bounds)
        self._stamp(color, (x1 + x2 - size) // 2, (y1 + y2 - size) // 2, _icon_stencil(name, size))

    def _disc(self, circle: Box, radius: int, elevation: int, fill: Color | None, glyph: str, color: Color, *,
              first: bool) -> None:
        """A circle at design ``circle`` filled with ``fill`` (no colour: none, as Pillow would outline it in white)
        over its shadow (``_shadow``: ``elevation`` px high, round by ``radius`` px), with icon ``glyph`` in ``color``
        centred in it (a FAB, a launcher icon). Noted as drawn (``_inking``): the shadow's box, then the square the
        disc fills (its inscribed one, a pixel or two in), so a glyph over the disc and a label below it are copied
        from tiles (``_stamp``). A filled one drawn ``first`` (nothing of its view drawn yet) over one colour all over
        its shadow and glyph (``_plain_ground``) is pasted from a sprite of it (``_sprite``): the same pixels, as
        drawing is the same at any whole pixel."""
        bounds = self._rect(*circle)
        if fill is not None and first:
            x1, y1, x2, y2 = bounds
            size = self._length(_icon_size(circle[2] - circle[0], circle[3] - circle[1]))
            glyph_left, glyph_top = (x1 + x2 - size) // 2, (y1 + y2 - size) // 2
            shade = self._shadow_box(bounds, elevation)
            box = (min(shade[0], glyph_left), min(shade[1], glyph_top), max(shade[2], glyph_left + size),
                   max(shade[3], glyph_top + size))
            ground = self._plain_ground(box)
            if ground is not None:
                key = ("disc", x2 - x1, y2 - y1, radius, elevation, fill, glyph, size, color, ground, self._inking)
                self._sprite(key, box, ground, lambda: self._draw_disc(circle, radius, elevation, fill, glyph, color,
                                                                       first=first))
                return
        self._draw_disc(circle, radius, elevation, fill, glyph, color, first=first)

    def _draw_disc(self, circle: Box, radius: int, elevation: int, fill: Color | None, glyph: str, color: Color, *,
                   first: bool) -> None:
        """``_disc``, drawn."""
        bounds = left, upper, right, lower = self._rect(*circle)
        self._note(self._shadow(bounds, radius, elevation, "ellipse" if fill is not None else None, first=first))
        if fill is not None:
            self._draw.ellipse(_box(bounds), fill=fill)
            inset_x, inset_y = _inscribed_inset(right - left), _inscribed_inset(lower - upper)
            self._note((left + inset_x, upper + inset_y, right - inset_x, lower - inset_y), fill)
        self._icon(glyph, circle, color)

    def _sprite(self, key: Hashable, box: Box, ground: Color, draw: Callable[[], None]) -> None:
        """Paint at ``box`` (canvas px, over ``ground`` all over) what ``draw`` paints there, from a sprite kept for
        the process under ``key`` (``_SPRITES``), drawn apart when not kept (``_drawn_apart``): ``key`` names all
        that the pixels drawn, relative to ``box``, depend on. What drawing noted is noted again (``_note``)."""
        sprite = _SPRITES.get(key)
        if sprite is None:
            sprite = self._drawn_apart(box, ground, draw)
            _SPRITES.put(key, sprite)
        left, top = box[:2]
        self._canvas.im.paste(sprite.tile.im, box)
        for (x1, y1, x2, y2), fill in sprite.notes:
            self._note((x1 + left, y1 + top, x2 + left, y2 + top), fill)

    def _drawn_apart(self, box: Box, ground: Color, draw: Callable[[], None]) -> Sprite:
        """What ``draw`` paints at ``box`` (canvas px), drawn on a canvas of its own of ``ground`` lying there, and
        the boxes it noted."""
        left, top, right, bottom = box
        saved = self._canvas, self._draw, self._origin, self._band, self._below, self._canvas_ground
        ox, oy = self._origin
        tile = Image.new("RGB", (right - left, bottom - top), ground)
        self._canvas, self._draw, self._origin = tile, ImageDraw.Draw(tile), (ox + left, oy + top)
        self._band, self._below, self._canvas_ground = (0, tile.height), [], ground
        try:
            draw()
            ox, oy = self._origin
            notes = tuple(((x1 - ox, y1 - oy, x2 - ox, y2 - oy), fill) for (x1, y1, x2, y2), fill in self._below)
        finally:
            self._canvas, self._draw, self._origin, self._band, self._below, self._canvas_ground = saved
        return Sprite(tile, notes)

    def _shadow_box(self, bounds: Box, elevation: int) -> Box:
        """The box (canvas px) the shadow of a shape at ``bounds`` floating ``elevation`` px high may paint
        (``_shadow``): blurred twice the blur around it and a third of the elevation lower."""
        x1, y1, x2, y2 = bounds
        blur, drop = self._blur(elevation), elevation // 3
        return x1 - 2 * blur, y1 - 2 * blur + drop, x2 + 2 * blur, y2 + 2 * blur + drop

    def _blur(self, elevation: int) -> int:
        """The blur (px) of the shadow of a shape ``elevation`` px high: half the elevation, at least 2 dp."""
        return max(elevation // 2, self._length(2))

    def _shadow(self, bounds: tuple[int, int, int, int], radius: int, elevation: int,
                cover: str | None = None, corners: Corners = ALL_CORNERS, first: bool = False) -> Box:
        """The shadow of a shape at ``bounds`` (canvas coordinates, as ``radius`` and ``elevation``) rounded at its
        ``corners``, floating ``elevation`` px high, drawn before the shape: Material's key light, below the shape
        and blurred by half its elevation. ``cover``: the shape filled next, ``"rounded"`` (a rounded rectangle of
        ``radius``) or ``"ellipse"``, whose inside is left out (``_shadow_stencils``). ``first``: nothing of the
        view is drawn yet, so where the canvas under the whole shadow is one colour (``_plain_ground``) the shadow
        is copied from tiles of that colour (``_shadow_tiles``). Returns the box (canvas px) the shadow may paint."""
        x1, y1, x2, y2 = bounds
        box = left, top, _, _ = self._shadow_box(bounds, elevation)
        shape = (x2 - x1, y2 - y1, radius, self._blur(elevation), elevation // 3, cover, corners)
        ground = self._plain_ground(box) if first else None
        if ground is None:
            for piece in _shadow_stencils(*shape):
                self._stamp((0, 0, 0), left, top, piece)
            return box
        for tile, dx, dy in _shadow_tiles(*shape, ground):
            self._canvas.im.paste(tile.im, (left + dx, top + dy, left + dx + tile.width, top + dy + tile.height))
        return box

    def _stamp(self, color: Color, x: int, y: int, ink: Stencil) -> None:
        """Paint ``color`` through ``ink``, its whole mask's top left at canvas point ``(x, y)``: an image of the
        colour pasted through the mask: the pixels Pillow's fill of a colour through a mask makes, in about half the
        time (Pillow 13, measured). For a view that notes what it paints (``_inking``) its box is noted for
        ``_plain_ground``, and a named mask (``Stencil.key``) over one colour is copied from a tile of it in ``color``
        on that colour, kept for the process (``_ink_tile``): the pixels stamping makes there, without blending."""
        mask = ink.mask
        width, height = mask.size
        if not width or not height:
            return
        left, top = x + ink.left, y + ink.top
        box = (left, top, left + width, top + height)
        if self._inking:
            ground = self._plain_ground(box) if ink.key is not None else None
            self._note(box)
            if ground is not None:
                self._canvas.im.paste(_ink_tile(ink, color, ground).im, box)
                return
        # only the part on the canvas's band is painted: the image of the colour is made no larger (a shadow's mask
        # crosses the strips its view spans, each drawn on its own)
        x1, y1 = max(left, 0), max(top, self._band[0])
        x2, y2 = min(box[2], self._canvas.width), min(box[3], self._band[1])
        if x1 >= x2 or y1 >= y2:
            return
        if (x1, y1, x2, y2) != box:
            mask, box = mask.crop((x1 - left, y1 - top, x2 - left, y2 - top)), (x1, y1, x2, y2)
        # Image.new and Image.paste, at Pillow's core (their Python halves cost as much here)
        self._canvas.im.paste(Image.core.fill("RGB", mask.size, color), box, mask.im)

    def _draw_app_icon(self, view: View) -> None:
        """A launcher shortcut: the app's round icon (its glyph in white on its brand colour) over its label; a
        dock's icon is centred, without its label."""
        x1, y1, x2, y2 = view.bounds
        # A cell shorter than the icon with its label shrinks both gaps and the icon (Launcher3's icon scale).
        gap = min(24, (y2 - y1) * 24 // 260)
        label = line_height(view.text_size) if view.kind == "app_icon" else 0
        r = max(1, min(min(x2 - x1, 260) * 10 // 37, (y2 - y1 - 2 * gap - label) // 2))
        cx = (x1 + x2) // 2
        top = y1 + gap if view.kind == "app_icon" else (y1 + y2) // 2 - r
        self._disc((cx - r, top, cx + r, top + 2 * r), self.px(r), self.px(_LAUNCHER_ICON_ELEVATION), view.background,
                   view.hint, WHITE, first=not view.elevation)
        if view.kind == "app_icon":
            self._text_line(view.text, view, cx, top + 2 * r + gap, centered=True, max_width=x2 - x1)

    def _draw_image(self, view: View) -> None:
        """The view's picture scaled to fit its bounds with its aspect ratio kept, centred (``fitCenter``)."""
        x1, y1, x2, y2 = self._local(view)
        scaled = self._fit(view, x2 - x1, y2 - y1)
        if scaled is None:  # a picture made when drawn that failed to decode
            return
        left, top = x1 + (x2 - x1 - scaled.width) // 2, y1 + (y2 - y1 - scaled.height) // 2
        if scaled.mode != "RGBA":
            self._canvas.paste(scaled, (left, top))
        elif ink := scaled.getbbox(alpha_only=True):  # a clear pixel leaves the canvas as it is: only the rest is
            piece = scaled.crop(ink)  # blended (a graph's few lines on a clear picture: a hundredth of its pixels)
            self._canvas.paste(piece, (left + ink[0], top + ink[1]), piece)

    def _fit(self, view: View, width: int, height: int) -> Image.Image | None:
        """``view.image`` scaled to fit ``width`` x ``height``, from the cache when its key was scaled to that size
        before (the least recently used entries go when the cache holds more than ``_SCALED_CACHE_BYTES``; a picture
        handed as it is, from the process's, ``_SHARED_SCALED``), or from the pictures drawn at their own size
        lately; ``None`` when a function that makes the picture makes none."""
        image = view.image
        cache_key = (view.key, width, height)
        scaled_in, scaled_key = ((self._scaled, cache_key) if callable(image) else
                                 (_SHARED_SCALED, (Identical(image), *cache_key)))
        for kept, key in ((scaled_in, scaled_key), (self._own_size, cache_key)):
            picture = kept.get(key)
            if picture is not None:
                return picture
        if callable(image):
            image = image()
        if image is None:
            return None
        mode = "RGBA" if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info else "RGB"
        if image.mode != mode:  # convert copies even to the same mode: a picture drawn as it is stays its owner's
            image = image.convert(mode)
        scale = min(width / image.width, height / image.height)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        # Shrunk 4 times or more (a full-size picture on a quarter-size screen), the picture is first halved with
        # a box filter (Pillow's reducing_gap): a third of the time, and Pillow finds it indistinguishable.
        if size == image.size:
            self._own_size.put(cache_key, image)
            return image
        scaled = image.resize(size, Image.LANCZOS, reducing_gap=2.0)
        scaled_in.put(scaled_key, scaled)
        return scaled

    def _draw_edit(self, view: View) -> None:
        """An EditText: underline (unless its background is replaced), selection highlight, text (or hint), and the
        caret when it has no selection."""
        x1, _, x2, y2 = view.bounds
        if view.outlined:
            self._outline(view)
        elif view.underline:
            self._draw.line(self._rect(x1 + 12, y2 - 12, x2 - 12, y2 - 12),
                            fill=self._ink(PRIMARY if view.focused else TEXT_SECONDARY),
                            width=self._length(4 if view.focused else 2))
        start, end = view.selection or (len(view.value), len(view.value))
        if view.focused and start < end:
            for box in highlight_boxes(view, start, end):
                self._fill(HIGHLIGHT, self._rect(*box))
        if not (view.outlined and view.focused and not view.value):  # an outlined field's label floats then
            hint = self._ink(FIELD_LABEL if view.outlined else TEXT_SECONDARY)
            self._text_block(view, hint if view.text == view.hint else view.text_color)
        if view.focused and start == end:
            cx, cy = caret_point(view, end)
            self._draw.line(self._rect(cx + 2, cy, cx + 2, cy + line_height(view.text_size)), fill=self._ink(PRIMARY),
                            width=self._length(3))

    def _outline(self, view: View) -> None:
        """An outlined field's box (``views.outlined_field``): a rounded outline at its bounds, 1 dp in
        ``FIELD_STROKE``, 2 dp in the primary colour when focused; with text or the focus, its label (the hint) 12 sp
        in ``FIELD_LABEL`` (the primary colour when focused), centred on the top edge at the text's start, in a gap
        cut into the edge (the canvas under the gap is kept as it was). Empty and unfocused, the label is the hint
        ``_text_block`` draws inside."""
        x1, y1, _, _ = view.bounds
        color = self._ink(PRIMARY if view.focused else FIELD_STROKE)
        floating = view.focused or bool(view.value)
        if floating:
            label = _text_stencil(view.hint, self._length(view.label_size), False)
            left, top = self._point(x1 + view.padding, y1 - line_height(view.label_size) // 2)
            cut = self.px(OUTLINED_CUTOUT)
            gap = (left - cut, top, left + label.width + cut, top + self._length(line_height(view.label_size)))
            under = self._canvas.crop(gap)
        self._draw.rounded_rectangle(_box(self._local(view)), radius=self.px(OUTLINED_CORNER), outline=color,
                                     width=self._length(OUTLINED_STROKE_FOCUSED if view.focused else OUTLINED_STROKE))
        if floating:
            self._canvas.paste(under, gap[:2])
            self._stamp(self._ink(PRIMARY if view.focused else FIELD_LABEL), left, top, label)

    def _text_block(self, view: View, color: Color) -> None:
        """The view's text (or one line of it), wrapped as layout measured it, less the lines scrolled off; each line
        centred in a TextView whose gravity is ``"center"`` (``android:gravity="center"``)."""
        x1, y1, x2, y2 = view.bounds
        left = x1 + text_start(view)
        width = x2 - left - text_end(view)
        lines = text_lines(view, width)
        step = line_height(view.text_size)
        first = text_top(view)
        centered = view.kind == "text" and view.gravity == "center"
        for i, line in enumerate(lines):
            top = first + i * step
            if top < y1:
                continue  # scrolled off above the list
            if top + step > y2:
                break
            self._text_line(line, view, left + width // 2 if centered else left, top, centered=centered, color=color,
                            max_width=width)

    def _check_box(self, view: View) -> None:
        """A CheckBox (``btn_checkbox_checked_mtrl`` / ``_unchecked_mtrl``): an 18 dp square with 2 dp rounded
        corners centred in its 32 dp button before the label, outlined in ``button_tint_off`` (by default
        ``?colorControlNormal``, the secondary text colour) when unchecked, filled in ``button_tint`` with the tick cut
        out of it when checked; at the view's end when ``box_at_end``."""
        x1, y1, x2, y2 = view.bounds
        half_button = view.padding + CHECK_BUTTON_WIDTH // 2
        cx, cy = x2 - half_button if view.box_at_end else x1 + half_button, (y1 + y2) // 2
        half = ICON_SIZE // 2 + 1  # MDI's checkbox glyphs: the 18 dp box with its stroke in a 24 dp icon
        self._icon("checkbox_on" if view.checked else "checkbox_off", (cx - half, cy - half, cx + half, cy + half),
                   view.button_tint if view.checked else view.button_tint_off or self._ink(TEXT_SECONDARY))
        self._text_block(view, view.text_color)

    def _text_line(self, text: str, view: View, x: int, y: int, *, centered: bool = False,
                   color: Color | None = None, max_width: int | None = None) -> None:
        """One line of ``text`` in the view's font at design point ``(x, y)`` (its top left, or its top centre),
        rasterized at the screen's font size and cut at ``max_width`` design px."""
        if not text:
            return
        ink = _text_stencil(text, self._length(view.text_size), view.bold)
        shown = ink.width if max_width is None else min(ink.width, self.px(max_width))
        if shown - ink.left < ink.mask.width:
            ink = ink._replace(mask=ink.mask.crop((0, 0, max(shown - ink.left, 0), ink.mask.height)),
                               key=(ink.key, shown))
        x, y = self._point(x, y)
        self._stamp(color or view.text_color, x - shown // 2 if centered else x, y, ink)

    def _switch_track(self, right: int, cy: int, checked: bool) -> None:
        """A switch ending at design ``right``, centred on ``cy``, as SettingsLib draws it on Android 13: a
        pill-shaped track with the thumb inside it, at the end and in the accent colour on a light accent track
        when checked, grey when not."""
        track = _box(self._rect(right - 126, cy - _TRACK_HALF, right, cy + _TRACK_HALF))
        self._rounded(track, self.px(_TRACK_HALF), self._ink(_SWITCH_TRACK_ON if checked else _SWITCH_TRACK_OFF))
        thumb_x = right - 34 if checked else right - 93
        self._draw.ellipse(_box(self._rect(thumb_x - 24, cy - 24, thumb_x + 24, cy + 24)),
                           fill=self._ink(PRIMARY if checked else _SWITCH_THUMB_OFF))


def _keep_look(key: tuple, pixels: np.ndarray, screen_bytes: int) -> None:
    """Keep ``pixels`` as the look of the window of ``key`` (its name first) in ``_WINDOW_LOOKS``, unless one is kept
    already: a small window's (of at most ``_KEPT_WINDOW_SHARE`` of the ``screen_bytes``) as ``CompactPixels``, a
    larger one's as ``RowPixels``."""
    small = pixels.nbytes <= _KEPT_WINDOW_SHARE * screen_bytes
    looks = _WINDOW_LOOKS.setdefault(key[0], KeptPictures(_KEPT_LOOKS_BYTES if small else _SCREEN_LOOKS_BYTES,
                                                          _KEPT_LOOKS))
    if key not in looks:
        looks.put(key, (compacted if small else rowed)(pixels))


def _row_runs(reaches: list[Box], top: int, bottom: int, least: int) -> list[tuple[int, int, bool]]:
    """The rows from ``top`` to ``bottom`` in runs (from, to, bare), top down: a bare run, at least ``least`` rows
    long, lies clear of all the boxes ``reaches``; the others are the rows between them."""
    runs: list[tuple[int, int, bool]] = []
    start = row = top  # the run of rows to draw starts at ``start``; the boxes so far reach down to ``row``
    for reach_top, reach_bottom in sorted([(reach[1], reach[3]) for reach in reaches]) + [(bottom, bottom)]:
        clear_to = min(reach_top, bottom)
        if clear_to - row >= least:
            runs += [(start, row, False), (row, clear_to, True)] if start < row else [(row, clear_to, True)]
            start = clear_to
        row = max(row, reach_bottom)
    return runs + [(start, bottom, False)] if start < bottom else runs


def _inks_only(view: View) -> bool:
    """Whether a view notes all it paints as it paints it (``Renderer._inking``): text or icons without a background,
    picture or elevation, which paint nothing but masks (``Renderer._stamp``), and launcher icons without elevation
    (``Renderer._draw_app_icon``)."""
    if view.elevation:
        return False
    return view.kind in _LAUNCHER_ICONS or (view.kind in _INKED and view.background is None and view.image is None)


def rgb_canvas(pixels: np.ndarray) -> Image.Image:
    """An ``RGB`` image drawn in ``pixels``, ``(H, W, 4)`` uint8 and C-contiguous: Pillow keeps an ``RGB`` pixel in
    four bytes (red, green, blue and one unused), so its memory can be an array's, read without Pillow's encoder
    (``pack_into``)."""
    height, width, _ = pixels.shape
    return Image.new("RGB", (0, 0))._new(Image.core.map_buffer(pixels, (width, height), "raw", 0, ("RGB", 0, 1)))


def pack_into(pixels: np.ndarray, frame: np.ndarray, box: Box) -> None:
    """Write the colours of ``pixels`` (``(H, W, 4)`` uint8, an ``rgb_canvas``'s or a box of them, the box's size)
    into ``box`` of ``frame`` (``(H, W, 3)`` uint8, C-contiguous): each pixel's four bytes as one word, the words
    three bytes apart, left to right, so the next pixel's red overwrites each one's unused byte; the box's last column,
    whose unused byte would fall past it, on its own. A strip of a full-size screen took two thirds of the time of
    Pillow's encoder and a copy of what it made (``tobytes`` too: 2.5 times as long)."""
    x1, y1, x2, y2 = box
    if x1 >= x2 or y1 >= y2:
        return
    words = np.ndarray((y2 - y1, x2 - x1 - 1), np.uint32, frame, frame.strides[0] * y1 + 3 * x1,
                       (frame.strides[0], 3))
    words[...] = pixels[:, :-1].view(np.uint32)[..., 0]
    frame[y1:y2, x2 - 1] = pixels[:, -1, :3]


def _outside(box: Box, inner: Box) -> list[Box]:
    """The parts of ``box`` outside ``inner``: its rows above and below ``inner``, and left and right of it between
    those."""
    x1, y1, x2, y2 = box
    left, top, right, bottom = inner
    top, bottom = max(y1, min(top, y2)), min(y2, max(bottom, y1))  # the rows of ``box`` that ``inner`` spans
    parts = [(x1, y1, x2, top), (x1, bottom, x2, y2),
             (x1, top, min(left, x2), bottom), (max(right, x1), top, x2, bottom)]
    return [part for part in parts if part[0] < part[2] and part[1] < part[3]]


def _merged(boxes: list[Box]) -> list[Box]:
    """``boxes`` with each group that overlaps replaced by the box around it."""
    merged: list[Box] = []
    for box in boxes:
        while (hit := next((m for m in merged if m[0] < box[2] and box[0] < m[2] and m[1] < box[3] and box[1] < m[3]),
                           None)) is not None:
            merged.remove(hit)
            box = min(box[0], hit[0]), min(box[1], hit[1]), max(box[2], hit[2]), max(box[3], hit[3])
        merged.append(box)
    return merged


def _box(bounds: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Pillow's inclusive box of a rectangle whose end is exclusive."""
    x1, y1, x2, y2 = bounds
    return (x1, y1, x2 - 1, y2 - 1)
