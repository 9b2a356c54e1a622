"""Pillow renderer: draws laid-out view trees into one persistent frame, redrawing only windows that changed.

Text runs are rasterized once into masks and pasted afterwards, so a frame with unchanged text costs little.
Pictures (``View.image``) are scaled once per key and size and kept, so redrawing a window with a photo costs a
paste.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw

from android_gym.sim.ui.layout import font, line_height, wrap
from android_gym.sim.ui.selection import HIGHLIGHT, caret_point, highlight_boxes, text_top
from android_gym.sim.ui.views import DIVIDER, PRIMARY, TEXT_SECONDARY, WHITE, Color, View

_SINGLE_LINE = {"button", "switch"}
_SCALED_CACHE_SIZE = 64  # scaled pictures kept per renderer (a gallery grid's thumbnails, the open photo)


@lru_cache(maxsize=2048)
def _text_mask(text: str, size: int, bold: bool) -> Image.Image:
    """An ``L`` mask of one line of text (bold is drawn with a 1 px stroke)."""
    face = font(size)
    text = text.replace("\u2011", "-")  # the bundled font has no non-breaking hyphen (AOSP's "Wi\u2011Fi")
    text = text.replace("\u2212", "-")  # nor a minus sign (DeskClock's expired timers)
    text = text.replace("\u200e", "")  # LEFT-TO-RIGHT MARK: zero-width (DeskClock's lap times carry it)
    left, top, right, bottom = face.getbbox(text, stroke_width=1 if bold else 0)
    mask = Image.new("L", (max(right, 1), line_height(size)), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=face, fill=255, stroke_width=1 if bold else 0)
    return mask


def signature(root: View) -> tuple:
    """Everything about a laid-out tree that affects its pixels."""
    return tuple(
        (v.kind, v.bounds, v.text, v.hint, v.content_desc, v.checked, v.focused, v.enabled, v.background,
         v.text_color, v.text_size, v.bold, v.padding, v.multiline, v.selection, v.progress, v.key, v.clipped_top)
        for v in root.walk()
    )


class Renderer:
    """Keeps the last frame and the signature of each window drawn into it.

    A changed window is drawn on a canvas of its own size and pasted into the frame, so nothing it draws can
    spill over a neighbouring window (a caret below the last line, a glyph wider than its view).
    """

    def __init__(self, width: int, height: int) -> None:
        self.image = Image.new("RGB", (width, height), WHITE)
        self._canvas = self.image
        self._draw = ImageDraw.Draw(self.image)
        self._origin = (0, 0)
        self._signatures: dict[str, tuple] = {}
        self._array: np.ndarray | None = None
        #: Counts the changes of ``image``: equal versions, equal pixels.
        self.version = 0
        self._scaled: OrderedDict[tuple[str, int, int], Image.Image] = OrderedDict()

    def render(self, windows: dict[str, tuple[View, Color]]) -> np.ndarray:
        """Draw ``{name: (laid-out root, background)}``; returns the frame (shared; callers copy it).

        A window missing from ``windows`` is forgotten, so it is drawn afresh when it comes back over whatever
        was drawn in its place meanwhile.
        """
        for name in self._signatures.keys() - windows.keys():
            del self._signatures[name]
        for name, (root, background) in windows.items():
            sig = (signature(root), background)
            if self._signatures.get(name) == sig:
                continue
            self._signatures[name] = sig
            x1, y1, x2, y2 = root.bounds
            self._canvas = Image.new("RGB", (x2 - x1, y2 - y1), background)
            self._draw, self._origin = ImageDraw.Draw(self._canvas), (x1, y1)
            for view in root.walk():
                self._draw_view(view)
            self.image.paste(self._canvas, (x1, y1))
            self._array = None
            self.version += 1
        if self._array is None:
            self._array = np.asarray(self.image)
        return self._array

    def _local(self, view: View) -> tuple[int, int, int, int]:
        """The view's bounds on the current window's canvas."""
        x1, y1, x2, y2 = view.bounds
        ox, oy = self._origin
        return x1 - ox, y1 - oy, x2 - ox, y2 - oy

    def _draw_view(self, view: View) -> None:
        bounds = x1, y1, x2, y2 = self._local(view)
        if x2 <= x1 or y2 <= y1:
            return
        draw = self._draw
        if view.kind == "fab":
            draw.ellipse(_box(bounds), fill=view.background)
            _draw_icon(draw, view.hint, bounds, view.text_color)
            return
        if view.kind == "app_icon":
            cx, r = (x1 + x2) // 2, min(x2 - x1, y2 - y1) // 3
            draw.ellipse((cx - r, y1 + 20, cx + r, y1 + 20 + 2 * r), fill=view.background)
            self._text_line(view.text[:1].upper(), view, cx, y1 + 20 + r - line_height(view.text_size) // 2,
                            centered=True, color=WHITE)
            self._text_line(view.text, view, cx, y1 + 40 + 2 * r, centered=True, max_width=x2 - x1)
            return
        if view.kind == "button":
            draw.rounded_rectangle(_box(bounds), radius=24, fill=view.background if view.enabled else DIVIDER)
            self._text_line(view.text, view, (x1 + x2) // 2, (y1 + y2 - line_height(view.text_size)) // 2,
                            centered=True)
            return
        if view.background is not None:
            draw.rectangle(_box(bounds), fill=view.background)
        if view.image is not None:
            self._draw_image(view)
        if view.kind == "icon":
            _draw_icon(draw, view.hint, bounds, view.text_color)
        elif view.kind == "edit":
            self._draw_edit(view)
        elif view.kind == "switch":
            self._text_line(view.content_desc, view, x1 + view.padding, (y1 + y2 - line_height(view.text_size)) // 2)
            _draw_switch_track(draw, x2 - view.padding, (y1 + y2) // 2, view.checked)
        elif view.kind == "toggle":
            _draw_switch_track(draw, (x1 + x2) // 2 + 60, (y1 + y2) // 2, view.checked)
        elif view.kind == "text":
            self._text_block(view, view.text_color)
        elif view.kind == "label":  # text a custom view draws itself (no TextView): in pixels only, from ``hint``
            self._text_line(view.hint, view, x1 + view.padding, y2 - view.padding - line_height(view.text_size))
        elif view.kind == "seekbar":  # the track lies between the horizontal paddings
            x1, x2 = x1 + view.padding, x2 - view.padding
            cy, r = (y1 + y2) // 2, (y2 - y1) // 4
            filled = x1 + round((x2 - x1) * view.progress)
            draw.rounded_rectangle((x1, cy - r, x2 - 1, cy + r), radius=r, fill=DIVIDER)
            if filled > x1:
                draw.rounded_rectangle((x1, cy - r, max(filled - 1, x1 + 2 * r), cy + r), radius=r, fill=PRIMARY)

    def _draw_image(self, view: View) -> None:
        """The view's picture scaled to fit its bounds with its aspect ratio kept, centred (``fitCenter``)."""
        x1, y1, x2, y2 = self._local(view)
        scaled = self._fit(view, x2 - x1, y2 - y1)
        left, top = x1 + (x2 - x1 - scaled.width) // 2, y1 + (y2 - y1 - scaled.height) // 2
        if scaled.mode == "RGBA":
            self._canvas.paste(scaled, (left, top), scaled)
        else:
            self._canvas.paste(scaled, (left, top))

    def _fit(self, view: View, width: int, height: int) -> Image.Image:
        """``view.image`` scaled to fit ``width`` x ``height``, from the cache when its key was scaled to that size
        before (the least recently used entry goes when the cache is full)."""
        cache_key = (view.key, width, height)
        scaled = self._scaled.get(cache_key)
        if scaled is not None:
            self._scaled.move_to_end(cache_key)
            return scaled
        image = view.image
        assert image is not None
        image = image.convert("RGBA" if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info else "RGB")
        scale = min(width / image.width, height / image.height)
        size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        scaled = image if size == image.size else image.resize(size, Image.LANCZOS)
        self._scaled[cache_key] = scaled
        if len(self._scaled) > _SCALED_CACHE_SIZE:
            self._scaled.popitem(last=False)
        return scaled

    def _draw_edit(self, view: View) -> None:
        """An EditText: underline, selection highlight, text (or hint), and the caret when it has no selection."""
        x1, y1, x2, y2 = self._local(view)
        ox, oy = self._origin
        self._draw.line((x1 + 12, y2 - 12, x2 - 12, y2 - 12), fill=PRIMARY if view.focused else TEXT_SECONDARY,
                        width=4 if view.focused else 2)
        start, end = view.selection or (len(view.value), len(view.value))
        if view.focused and start < end:
            for bx1, by1, bx2, by2 in highlight_boxes(view, start, end):
                self._draw.rectangle((bx1 - ox, by1 - oy, bx2 - ox - 1, by2 - oy - 1), fill=HIGHLIGHT)
        self._text_block(view, TEXT_SECONDARY if view.text == view.hint else view.text_color)
        if view.focused and start == end:
            cx, cy = caret_point(view, end)
            cx, cy = cx - ox + 2, cy - oy
            self._draw.line((cx, cy, cx, cy + line_height(view.text_size)), fill=PRIMARY, width=3)

    def _text_block(self, view: View, color: Color) -> None:
        x1, y1, x2, y2 = self._local(view)
        width = x2 - x1 - 2 * view.padding
        lines = wrap(view.text, view.text_size, width) if view.multiline or view.kind == "text" else (view.text,)
        step = line_height(view.text_size)
        first = text_top(view) - self._origin[1]
        for i, line in enumerate(lines):
            top = first + i * step
            if top < y1:
                continue  # scrolled off above the list
            if top + step > y2:
                break
            self._text_line(line, view, x1 + view.padding, top, color=color, max_width=width)

    def _text_line(self, text: str, view: View, x: int, y: int, *, centered: bool = False,
                   color: Color | None = None, max_width: int | None = None) -> None:
        if not text:
            return
        mask = _text_mask(text, view.text_size, view.bold)
        if max_width is not None and mask.width > max_width:
            mask = mask.crop((0, 0, max_width, mask.height))
        if centered:
            x -= mask.width // 2
        self._canvas.paste(color or view.text_color, (x, y, x + mask.width, y + mask.height), mask)


def _box(bounds: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    x1, y1, x2, y2 = bounds
    return (x1, y1, x2 - 1, y2 - 1)


def _draw_switch_track(draw: ImageDraw.ImageDraw, right: int, cy: int, checked: bool) -> None:
    """A switch's track ending at ``right`` and its knob (at the end when checked)."""
    track = (right - 120, cy - 24, right, cy + 24)
    draw.rounded_rectangle(track, radius=24, fill=(144, 202, 249) if checked else (189, 189, 189))
    knob_x = track[2] - 30 if checked else track[0] + 30
    draw.ellipse((knob_x - 30, track[1] - 6, knob_x + 30, track[3] + 6), fill=PRIMARY if checked else (245, 245, 245),
                 outline=DIVIDER)


def _draw_icon(draw: ImageDraw.ImageDraw, icon: str, bounds: tuple[int, int, int, int], color: Color) -> None:
    """Material-style glyphs drawn with primitives (plus, send, back, home, recents, search, check, ...)."""
    x1, y1, x2, y2 = bounds
    cx, cy, r = (x1 + x2) // 2, (y1 + y2) // 2, min(x2 - x1, y2 - y1) // 4
    if icon == "plus":
        draw.line((cx - r, cy, cx + r, cy), fill=color, width=8)
        draw.line((cx, cy - r, cx, cy + r), fill=color, width=8)
    elif icon == "send":
        draw.polygon([(cx - r, cy - r), (cx + r, cy), (cx - r, cy + r), (cx - r // 2, cy)], fill=color)
    elif icon == "back":
        draw.polygon([(cx + r // 2, cy - r), (cx - r // 2, cy), (cx + r // 2, cy + r)], outline=color, width=6)
    elif icon == "arrow_back":
        draw.line((cx - r, cy, cx + r, cy), fill=color, width=6)
        draw.line((cx - r, cy, cx, cy - r), fill=color, width=6)
        draw.line((cx - r, cy, cx, cy + r), fill=color, width=6)
    elif icon == "home":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=color, width=6)
    elif icon == "recents":
        draw.rectangle((cx - r, cy - r, cx + r, cy + r), outline=color, width=6)
    elif icon == "search":
        draw.ellipse((cx - r, cy - r, cx + r // 2, cy + r // 2), outline=color, width=6)
        draw.line((cx + r // 3, cy + r // 3, cx + r, cy + r), fill=color, width=8)
    elif icon == "delete":
        draw.rectangle((cx - r // 2 - 4, cy - r // 2, cx + r // 2 + 4, cy + r), outline=color, width=5)
        draw.line((cx - r, cy - r // 2 - 8, cx + r, cy - r // 2 - 8), fill=color, width=5)
    elif icon == "more":
        for dy in (-r, 0, r):
            draw.ellipse((cx - 6, cy + dy - 6, cx + 6, cy + dy + 6), fill=color)
    elif icon == "check":
        draw.line((cx - r, cy, cx - r // 3, cy + r * 2 // 3, cx + r, cy - r * 2 // 3), fill=color, width=8)
    elif icon == "backspace":
        draw.polygon([(cx - r, cy), (cx - r // 2, cy - r // 2), (cx + r, cy - r // 2), (cx + r, cy + r // 2),
                      (cx - r // 2, cy + r // 2)], outline=color, width=4)
    elif icon == "enter":
        draw.line((cx + r, cy - r, cx + r, cy), fill=color, width=6)
        draw.line((cx - r, cy, cx + r, cy), fill=color, width=6)
        draw.line((cx - r, cy, cx - r // 2, cy - r // 2), fill=color, width=6)
        draw.line((cx - r, cy, cx - r // 2, cy + r // 2), fill=color, width=6)
    elif icon == "play":
        draw.polygon([(cx - r * 2 // 3, cy - r), (cx + r, cy), (cx - r * 2 // 3, cy + r)], fill=color)
    elif icon == "pause":
        for dx in (-r // 2, r // 2):
            draw.rectangle((cx + dx - r // 5, cy - r, cx + dx + r // 5, cy + r), fill=color)
    elif icon == "stop":
        draw.rectangle((cx - r * 3 // 4, cy - r * 3 // 4, cx + r * 3 // 4, cy + r * 3 // 4), fill=color)
    elif icon:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
