"""Measuring and placing views: wraps text with the real font metrics and assigns every view its bounds."""

from __future__ import annotations

from functools import lru_cache

import fontpkg.pil
from PIL import ImageFont

from android_gym.sim.ui.views import View

_TEXT_KINDS = {"text", "button", "edit", "switch"}


#: Roboto's weights for regular and for bold text: Material's titles, tabs and buttons are Roboto Medium.
REGULAR, MEDIUM = 400, 500


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto (Android's system font, from ``fontpkg-roboto``) at ``size`` px, Medium when ``bold``. Opened once per
    size and weight; laid out without libraqm (``Layout.BASIC``), which not every Pillow build has, so text measures
    and draws the same everywhere."""
    return fontpkg.pil.truetype("roboto", size, weight=MEDIUM if bold else REGULAR,
                                layout_engine=ImageFont.Layout.BASIC)


def line_height(size: int) -> int:
    """Height of one line of text of ``size`` px."""
    return int(size * 1.3)


@lru_cache(maxsize=4096)
def wrap(text: str, size: int, max_width: int, bold: bool = False) -> tuple[str, ...]:
    """Lines of ``text`` broken at spaces (and inside over-long words) to fit ``max_width`` px."""
    measure = font(size, bold).getlength
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            candidate = f"{current} {word}" if current else word
            if measure(candidate) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = ""
            for char in word:
                if current and measure(current + char) > max_width:
                    lines.append(current)
                    current = ""
                current += char
        lines.append(current)
    return tuple(lines)


def measure_width(view: View) -> int:
    """Natural width of a view that sits in a Row without a fixed width or weight."""
    if view.width is not None:
        return view.width
    if view.kind in _TEXT_KINDS:
        return int(font(view.text_size, view.bold).getlength(view.text)) + 2 * view.padding
    if view.kind == "row":
        return sum(measure_width(child) for child in view.children) + 2 * view.padding
    return max((measure_width(child) for child in view.children), default=0) + 2 * view.padding


def measure_height(view: View, width: int) -> int:
    """Height a view wants when ``width`` px wide (its fixed height if it has one)."""
    if view.height is not None:
        return view.height
    inner = max(width - 2 * view.padding, 1)
    if view.kind in _TEXT_KINDS:
        lines = wrap(view.text, view.text_size, inner, view.bold) if view.multiline or view.kind == "text" else ("",)
        return len(lines) * line_height(view.text_size) + 2 * view.padding
    if view.kind == "column" or view.kind == "list":
        heights = [measure_height(child, inner) for child in view.children]
        return sum(heights) + view.spacing * max(len(heights) - 1, 0) + 2 * view.padding
    if view.kind == "row":
        widths = _row_widths(view, inner)
        return max((measure_height(c, w) for c, w in zip(view.children, widths)), default=0) + 2 * view.padding
    if view.kind == "frame":
        return max((measure_height(child, inner) for child in view.children), default=0) + 2 * view.padding
    return 2 * view.padding


def _row_widths(view: View, inner: int) -> list[int]:
    fixed = [0 if child.weight else measure_width(child) for child in view.children]
    total_weight = sum(child.weight for child in view.children)
    spare = max(inner - sum(fixed) - view.spacing * max(len(fixed) - 1, 0), 0)
    return [int(spare * child.weight / total_weight) if child.weight else width
            for child, width in zip(view.children, fixed)]


def layout(view: View, x: int, y: int, width: int, height: int) -> None:
    """Give ``view`` the rectangle ``(x, y, width, height)`` and lay out its children inside it."""
    view.bounds = (x, y, x + width, y + height)
    px, py = x + view.padding, y + view.padding
    inner_w, inner_h = max(width - 2 * view.padding, 0), max(height - 2 * view.padding, 0)
    if view.kind == "column":
        _layout_column(view, px, py, inner_w, inner_h)
    elif view.kind == "row":
        for child, child_w in zip(view.children, _row_widths(view, inner_w)):
            child_h = min(measure_height(child, child_w), inner_h) if child.height is None else child.height
            layout(child, px, py + (inner_h - child_h) // 2, child_w, child_h)
            px += child_w + view.spacing
    elif view.kind == "frame":
        for child in view.children:
            _layout_in_frame(child, px, py, inner_w, inner_h)
    elif view.kind == "list":
        _layout_list(view, px, py, inner_w, inner_h)
    elif view.kind == "web":
        view.children = _place_virtual(view.children, x, y, x + width, y + height)


def _place_virtual(nodes: list[View], x: int, y: int, right: int, bottom: int) -> list[View]:
    """Move virtual nodes (bounds relative to their web view at ``(x, y)``) onto the screen, clipped to the web
    view; nodes with nothing left on screen go, their visible descendants taking their place."""
    placed: list[View] = []
    for node in nodes:
        x1, y1, x2, y2 = node.bounds
        node.bounds = (max(x + x1, x), max(y + y1, y), min(x + x2, right), min(y + y2, bottom))
        node.children = _place_virtual(node.children, x, y, right, bottom)
        if node.bounds[2] > node.bounds[0] and node.bounds[3] > node.bounds[1]:
            placed.append(node)
        else:
            placed += node.children
    return placed


def _layout_column(view: View, x: int, y: int, width: int, height: int) -> None:
    heights = [0 if child.weight else measure_height(child, width) for child in view.children]
    total_weight = sum(child.weight for child in view.children)
    spare = max(height - sum(heights) - view.spacing * max(len(heights) - 1, 0), 0)
    for child, child_h in zip(view.children, heights):
        if child.weight:
            child_h = int(spare * child.weight / total_weight)
        child_w = width if child.width is None else child.width
        layout(child, x, y, child_w, child_h)
        y += child_h + view.spacing


def _layout_in_frame(child: View, x: int, y: int, width: int, height: int) -> None:
    child_w = width if child.width is None else child.width
    child_h = height if child.weight or child.gravity == "fill" else measure_height(child, child_w)
    m = child.margin
    positions = {
        "top": (x + m, y + m),
        "fill": (x, y),
        "bottom": (x + m, y + height - child_h - m),
        "bottom_end": (x + width - child_w - m, y + height - child_h - m),
        "center": (x + (width - child_w) // 2, y + (height - child_h) // 2),
    }
    cx, cy = positions[child.gravity]
    layout(child, cx, cy, child_w - (2 * m if child.width is None else 0), child_h)


def _layout_list(view: View, x: int, y: int, width: int, height: int) -> None:
    """Stack items, scroll by ``scroll_offset`` (clamped) and keep only the items wholly inside the list; an item
    taller than the list that has no children of its own (a long text in a ScrollView) is kept while it shows,
    clipped to the list (``View.clipped_top``)."""
    heights = [measure_height(child, width) for child in view.children]
    content = sum(heights) + view.spacing * max(len(heights) - 1, 0)
    view.scroll_offset = max(0, min(view.scroll_offset, content - height))
    top, visible = y - view.scroll_offset, []
    for child, child_h in zip(view.children, heights):
        if top >= y and top + child_h <= y + height:
            layout(child, x, top, width, child_h)
            visible.append(child)
        elif child_h > height and not child.children and top < y + height and top + child_h > y:
            layout(child, x, top, width, child_h)
            x1, y1, x2, y2 = child.bounds
            child.clipped_top, child.bounds = y - y1 if y1 < y else 0, (x1, max(y1, y), x2, min(y2, y + height))
            visible.append(child)
        top += child_h + view.spacing
    view.children = visible
