"""Measuring and placing views: wraps text with the real font metrics and assigns every view its bounds."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache

import fontpkg.pil
import noto_cjk_sans_otc
from PIL import ImageFont

from android_gym.sim.ui.laid_out import Shaped
from android_gym.sim.ui.views import CHECK_BUTTON_WIDTH, View

#: The class a ScrollView (or NestedScrollView) dumps as: its items are blocks of one content view.
SCROLL_VIEW = "android.widget.ScrollView"
_TEXT_KINDS = {"text", "button", "edit", "switch", "check"}


#: Roboto's weights for regular and for bold text: Material's titles, tabs and buttons are Roboto Medium.
REGULAR, MEDIUM = 400, 500


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Roboto (Android's system font, from ``fontpkg-roboto``) at ``size`` px, Medium when ``bold``. Opened once per
    size and weight; laid out without libraqm (``Layout.BASIC``), which not every Pillow build has, so text measures
    and draws the same everywhere."""
    return fontpkg.pil.truetype("roboto", size, weight=MEDIUM if bold else REGULAR,
                                layout_engine=ImageFont.Layout.BASIC)


#: Noto Sans CJK's face for Simplified Chinese in its collection: Android 13's fonts.xml lists it first of the CJK
#: fallbacks (``NotoSansCJK-Regular.ttc`` index 2), so an en-US phone draws kana, hangul and Han in it.
_CJK_SC_INDEX = 2
_NOTDEF = "\U0010ffff"  # a code point no font maps: what a font draws for it is its .notdef box


@lru_cache(maxsize=3)
def fallback_font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Sans CJK (``noto-cjk-sans-otc``, the collection Android ships) at ``size`` px: characters Roboto lacks
    (kana, hangul, Han, ★ ♪ ☆) are drawn in it, as Android's font fallback does. Only Regular is shipped, so it
    stands for bold too. Opened on first use (in well under a millisecond); only the last few sizes are kept open,
    as each open face of this 65,535-glyph font maps about 7 MB."""
    return ImageFont.truetype(str(noto_cjk_sans_otc.FONT_PATH), size, index=_CJK_SC_INDEX,
                              layout_engine=ImageFont.Layout.BASIC)


def _glyph(face: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = face.getmask(char)
    return mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def _needs_fallback(char: str) -> bool:
    """Whether Roboto lacks ``char`` (draws its .notdef box for it) while Noto Sans CJK has it."""
    roboto, cjk = font(42), fallback_font(42)  # any size tells; 42 px is the default text size
    return _glyph(roboto, char) == _glyph(roboto, _NOTDEF) and _glyph(cjk, char) != _glyph(cjk, _NOTDEF)


@lru_cache(maxsize=4096)
def font_runs(text: str) -> tuple[tuple[str, bool], ...]:
    """``text`` split into runs of one font each: ``(run, in_fallback)``; ASCII is all Roboto."""
    if text.isascii():
        return ((text, False),) if text else ()
    runs: list[tuple[str, bool]] = []
    for char in text:
        fallback = _needs_fallback(char)
        if runs and runs[-1][1] == fallback:
            runs[-1] = (runs[-1][0] + char, fallback)
        else:
            runs.append((char, fallback))
    return tuple(runs)


def run_font(size: int, bold: bool, fallback: bool) -> ImageFont.FreeTypeFont:
    """The face a run of ``font_runs`` is drawn in."""
    return fallback_font(size) if fallback else font(size, bold)


class _Advances(dict[str, float]):
    """The advance widths in px of the characters of one face (``run_font``'s), each measured on first use; the face
    is not held (a fallback face maps megabytes: ``fallback_font`` keeps only the last few open)."""

    def __init__(self, size: int, bold: bool, fallback: bool) -> None:
        super().__init__()
        self.face = size, bold, fallback

    def __missing__(self, char: str) -> float:
        advance = self[char] = run_font(*self.face).getlength(char)
        return advance


@lru_cache(maxsize=256)
def _advances(size: int, bold: bool, fallback: bool) -> _Advances:
    return _Advances(size, bold, fallback)


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of one line of ``text`` in px, each run in the font it is drawn in (measured once per text, size
    and weight: the same labels are laid out at every frame). Text is laid out without shaping or kerning
    (``Layout.BASIC``; Roboto has no ``kern`` table), so a run's width is the sum of its characters' advances, each
    measured once per face: what ``getlength`` returns for the run, at a fraction of its cost."""
    if text.isascii():
        return sum(map(_advances(size, bold, False).__getitem__, text), 0.0)
    return sum((sum(map(_advances(size, bold, fallback).__getitem__, run), 0.0) for run, fallback in font_runs(text)),
               0.0)


def line_height(size: int) -> int:
    """Height of one line of text of ``size`` px."""
    return int(size * 1.3)


@lru_cache(maxsize=4096)
def wrap(text: str, size: int, max_width: int, bold: bool = False) -> tuple[str, ...]:
    """Lines of ``text`` broken at spaces (and inside over-long words) to fit ``max_width`` px."""
    def measure(line: str) -> float:
        return text_width(line, size, bold)

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


@lru_cache(maxsize=1024)
def ellipsize(text: str, size: int, max_width: int, bold: bool = False) -> str:
    """``text`` on one line cut to ``max_width`` px with a trailing "…" when it does not fit
    (``TextUtils.TruncateAt.END``)."""
    line = text.split("\n", 1)[0]
    if text_width(line, size, bold) <= max_width:
        return line
    while line and text_width(line + "…", size, bold) > max_width:
        line = line[:-1]
    return line + "…"


def text_lines(view: View, width: int) -> tuple[str, ...]:
    """The lines a text view shows ``width`` px wide: one line cut with "…" (``single_line``, as
    ``android:singleLine`` ellipsizes a TextView at the end), its text wrapped (a multi-line field, a text; at most
    ``max_lines``, the last cut with "…"), or its one line as it is (a button, a switch, a one-line field)."""
    if view.single_line:
        return (ellipsize(view.text, view.text_size, width, view.bold),)
    if view.multiline or view.kind in ("text", "check"):
        lines = wrap(view.text, view.text_size, width, view.bold)
        if 0 < view.max_lines < len(lines):  # the last line shown takes the rest of the text, cut with "…"
            rest = " ".join(lines[view.max_lines - 1:])
            lines = (*lines[:view.max_lines - 1], ellipsize(rest, view.text_size, width, view.bold))
        return lines
    return (view.text,)


def text_start(view: View) -> int:
    """How far a text view's text starts from its left edge: its padding and indent, and a CheckBox's box before
    it."""
    return view.padding + view.indent + (CHECK_BUTTON_WIDTH if view.kind == "check" and not view.box_at_end else 0)


def text_end(view: View) -> int:
    """How far a text view's text ends from its right edge: its padding, and a CheckBox's box after it."""
    return view.padding + (CHECK_BUTTON_WIDTH if view.kind == "check" and view.box_at_end else 0)


def measure_width(view: View) -> int:
    """Natural width of a view that sits in a Row without a fixed width or weight."""
    if view.width is not None:
        return view.width
    if view.kind in _TEXT_KINDS:
        return int(text_width(view.text, view.text_size, view.bold)) + text_start(view) + text_end(view)
    if view.kind == "row":
        return sum(measure_width(child) for child in view.children) + 2 * view.padding
    if view.kind == "flow":  # all on one line
        gaps = view.spacing * max(len(view.children) - 1, 0)
        return sum(measure_width(child) for child in view.children) + gaps + 2 * view.padding
    return max((measure_width(child) for child in view.children), default=0) + 2 * view.padding


@dataclass
class Memo:
    """What one layout pass measured, by view (the view itself in the key, held while the pass lasts, so that no other
    view can take its ``id``): heights by width, a Row's children's widths and a flow's lines by the inner width
    (measured, then laid out)."""

    heights: dict[tuple[View, int], int] = field(default_factory=dict)
    widths: dict[tuple[View, int], list[int]] = field(default_factory=dict)
    lines: dict[tuple[View, int], list[tuple[int, list[tuple[View, int]]]]] = field(default_factory=dict)
    #: The tree laid out, as built (``laid_out.Shaped``): its lists' items are looked up in ``PLACED`` by their shape.
    shaped: Shaped | None = None
    #: A list item's views in pre-order and its key in ``PLACED`` (``None``: no item of ``shaped``), by item and width.
    items: dict[tuple[View, int], tuple[list[View], Hashable] | None] = field(default_factory=dict)


#: The kinds of view whose layout sets only bounds (their children's, if they have any), as an item kept in
#: ``PlacedItems`` has: a list sets its position and its shown children, web content its nodes' bounds and children.
_PLACING = frozenset({"column", "row", "frame", "flow"})


class PlacedItems:
    """List items laid out before, by shape and width: the height an item measures and, once it has been laid out,
    where each of its views lies from the item's top-left corner. An item of one shape at one width measures and is
    laid out alike wherever its list stacks it, and a list's rows are mostly the same from one build of its screen to
    the next (a field typed into, a row selected or scrolled in: the other rows are as they were), so a new tree's
    items are mostly placed as one kept here was, not measured again. At most ``size`` items, the least recently used
    going first; an item whose layout does more than set bounds (it holds a list or web content) is only measured
    once, and laid out each time."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[Hashable, list] = OrderedDict()  # key -> [height, offsets of its views]
        self._lock = threading.Lock()  # the phones of one process may be laid out side by side (served ones)

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> list | None:
        """The kept ``[height, offsets]`` of the item of ``key`` (offsets ``None`` until it is laid out, ``False`` when
        its layout does more than place its views), or ``None``."""
        with self._lock:
            placed = self._items.get(key)
            if placed is not None:
                self._items.move_to_end(key)
            return placed

    def add(self, key: Hashable, height: int) -> list:
        """Keep the item of ``key``, measured ``height`` px tall and not laid out yet."""
        with self._lock:
            placed = self._items[key] = [height, None]
            if len(self._items) > self._size:
                self._items.popitem(last=False)
            return placed


#: The list items of the trees laid out in this process (``PlacedItems``): keys are whole shapes, so any tree's
#: items may be placed as another's were.
PLACED = PlacedItems(1024)


def measure_height(view: View, width: int, memo: Memo | None = None) -> int:
    """Height a view wants when ``width`` px wide (its fixed height if it has one); ``memo`` keeps what one layout
    pass measured, so nested layouts measure each view once per width."""
    if view.height is not None:
        return view.height
    if memo is None:
        height = _natural_height(view, width, None)
    else:
        key = view, width
        height = memo.heights.get(key)
        if height is not None:
            return height
        height = memo.heights[key] = max(_natural_height(view, width, memo), view.min_height)
        return height
    return max(height, view.min_height)


def _natural_height(view: View, width: int, memo: Memo | None) -> int:
    kind, padding = view.kind, view.padding
    if kind in _TEXT_KINDS:
        lines = text_lines(view, max(width - text_start(view) - text_end(view), 1))
        return len(lines) * line_height(view.text_size) + 2 * padding
    children = view.children
    if not children:  # an outlined field's room for its floating label: half the label's line
        return 2 * padding + line_height(view.label_size) // 2
    inner = max(width - 2 * padding, 1)
    if kind == "column":
        total = view.spacing * (len(children) - 1) + 2 * padding
        for child in children:
            total += measure_height(child, inner, memo)
        return total
    if kind == "list":
        return sum(_item_height(child, inner, memo) for child in children) + view.spacing * (len(children) - 1) \
            + 2 * padding
    if kind == "row":
        tallest = 0
        for child, child_w in zip(children, _row_widths(view, inner, memo)):
            child_h = measure_height(child, child_w, memo)
            if child_h > tallest:
                tallest = child_h
        return tallest + 2 * padding
    if kind == "frame":
        tallest = 0
        for child in children:
            child_h = measure_height(child, inner, memo)
            if child_h > tallest:
                tallest = child_h
        return tallest + 2 * padding
    if kind == "flow":
        lines = _flow_lines(view, inner, memo)
        return sum(height for height, _ in lines) + view.spacing * (len(lines) - 1) + 2 * padding
    return 2 * padding


def _flow_lines(view: View, inner: int, memo: Memo | None) -> list[tuple[int, list[tuple[View, int]]]]:
    """A flow's children in lines ``inner`` px wide (``_break_flow``), once per layout pass (``memo``)."""
    if memo is None:
        return _break_flow(view, inner, None)
    key = view, inner
    lines = memo.lines.get(key)
    if lines is None:
        lines = memo.lines[key] = _break_flow(view, inner, memo)
    return lines


def _break_flow(view: View, inner: int, memo: Memo | None) -> list[tuple[int, list[tuple[View, int]]]]:
    """A flow's children in lines ``inner`` px wide, as a ChipGroup (a ``FlowLayout``) places them: each as wide as
    it measures (at most a line), ``spacing`` apart, a new line begun where a child does not fit on this one; each
    line with its height, its tallest child's."""
    lines: list[list[tuple[View, int]]] = []
    used = 0
    for child in view.children:
        child_w = min(measure_width(child), inner)
        if not lines or used + view.spacing + child_w > inner:
            lines.append([])
            used = -view.spacing
        lines[-1].append((child, child_w))
        used += view.spacing + child_w
    return [(max(measure_height(child, child_w, memo) for child, child_w in line), line) for line in lines]


def _row_widths(view: View, inner: int, memo: Memo | None) -> list[int]:
    """The widths of a Row's children (``inner`` px wide inside its padding), once per layout pass (``memo``)."""
    if memo is None:
        return _share_row(view, inner)
    key = view, inner
    widths = memo.widths.get(key)
    if widths is None:
        widths = memo.widths[key] = _share_row(view, inner)
    return widths


def _share_row(view: View, inner: int) -> list[int]:
    """The widths of a Row's children: their own, and shares of what is left by weight. A single-line text gets at
    most the room the children before it leave (its line is then cut with "…"), as a LinearLayout measures it."""
    children = view.children
    fixed = [0 if child.weight else measure_width(child) for child in children]
    room = inner - sum(fixed) - view.spacing * max(len(fixed) - 1, 0)
    index = len(fixed)
    while room < 0 and index:
        index -= 1
        if children[index].single_line:
            cut = min(fixed[index], -room)
            fixed[index] -= cut
            room += cut
    total_weight = sum(child.weight for child in children)
    if not total_weight:
        return fixed
    spare = max(room, 0)
    return [int(spare * child.weight / total_weight) if child.weight else width
            for child, width in zip(children, fixed)]


def layout(view: View, x: int, y: int, width: int, height: int, shaped: Shaped | None = None) -> None:
    """Give ``view`` the rectangle ``(x, y, width, height)`` and lay out its children inside it; the items of its
    lists as items of their shape were before (``PLACED``) when ``shaped`` is the tree as built (``view`` or a view
    around it)."""
    _layout(view, x, y, width, height, Memo(shaped=shaped))


def _layout(view: View, x: int, y: int, width: int, height: int, memo: Memo) -> None:
    view.bounds = (x, y, x + width, y + height)
    kind = view.kind
    if not view.children and kind != "list":  # a leaf (most views): nothing inside to place
        return
    padding = view.padding
    px, py = x + padding, y + padding
    inner_w, inner_h = max(width - 2 * padding, 0), max(height - 2 * padding, 0)
    if kind == "column":
        _layout_column(view, px, py, inner_w, inner_h, memo)
    elif kind == "row":
        spacing = view.spacing
        for child, child_w in zip(view.children, _row_widths(view, inner_w, memo)):
            child_h = child.height
            if child.gravity == "fill":  # as tall as the row (a grid's cards, top-aligned)
                child_h = inner_h
            elif child_h is None:
                child_h = min(measure_height(child, child_w, memo), inner_h)
            _layout(child, px, py + (inner_h - child_h) // 2, child_w, child_h, memo)
            px += child_w + spacing
    elif kind == "frame":
        for child in view.children:
            _layout_in_frame(child, px, py, inner_w, inner_h, memo)
    elif kind == "flow":
        for line_h, line in _flow_lines(view, inner_w, memo):
            left = px
            for child, child_w in line:  # top-aligned in their line
                _layout(child, left, py, child_w, measure_height(child, child_w, memo), memo)
                left += child_w + view.spacing
            py += line_h + view.spacing
    elif kind == "list":
        _layout_list(view, px, py, inner_w, inner_h, memo)
    elif kind == "web":
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


def _layout_column(view: View, x: int, y: int, width: int, height: int, memo: Memo) -> None:
    children, spacing = view.children, view.spacing
    heights = [0 if child.weight else measure_height(child, width, memo) for child in children]
    total_weight = sum(child.weight for child in children)
    spare = max(height - sum(heights) - spacing * max(len(heights) - 1, 0), 0)
    for child, child_h in zip(children, heights):
        if child.weight:
            child_h = int(spare * child.weight / total_weight)
        child_w, child_x = width if child.width is None else child.width, x
        # centred: center_horizontal wraps its content unless sized (a tab's icon and label); a sized child with
        # layout_gravity="center" is centred across the column, as a vertical LinearLayout does
        if child.gravity == "center_horizontal" or (child.gravity == "center" and child.width is not None):
            if child.width is None:
                child_w = min(measure_width(child) + 1, width)  # + 1: measure_width rounds the text's width down
            child_x = x + (width - child_w) // 2
        _layout(child, child_x, y, child_w, child_h, memo)
        y += child_h + spacing


def _layout_in_frame(child: View, x: int, y: int, width: int, height: int, memo: Memo) -> None:
    child_w = width if child.width is None else child.width
    child_h = height if child.weight or child.gravity == "fill" else measure_height(child, child_w, memo)
    if child.gravity == "center" and child.kind == "frame":  # a dialog window (``dialogs.dialog_over``) is no taller
        child_h = min(child_h, height)  # than the room the keyboard leaves it (adjustResize): its scroll view gives way
    m, gravity = child.margin, child.gravity
    # where its gravity places it (only that position worked out: most children of a frame are laid out each frame)
    if gravity == "top":
        cx, cy = x + m, y + m
    elif gravity == "fill":
        cx, cy = x, y
    elif gravity == "bottom":
        cx, cy = x + m, y + height - child_h - m
    elif gravity == "bottom_end":
        cx, cy = x + width - child_w - m, y + height - child_h - m
    elif gravity == "center_vertical_end":
        cx, cy = x + width - child_w - m, y + (height - child_h) // 2
    elif gravity == "center":
        cx, cy = x + (width - child_w) // 2 + (m if child.width is None else 0), y + (height - child_h) // 2
    else:
        raise KeyError(gravity)
    _layout(child, cx, cy, child_w - (2 * m if child.width is None else 0), child_h, memo)


def _cut(view: View, top: int, bottom: int) -> None:
    """A laid-out view crossing the edge of the rows ``top`` to ``bottom`` a list shows, cut to them as the list
    shows it: drawn where it lies (``whole``) but clipped to the list (ViewGroup's ``clipChildren`` and
    ``clipToPadding``), its ``bounds`` the part inside (``View.getBoundsOnScreen`` with ``clipToParent``, what
    uiautomator's ``AccessibilityNodeInfoHelper.getVisibleBoundsInScreen`` dumps); its descendants wholly inside
    kept as they are, those crossing the edge cut in turn, those wholly outside dropped (``View.isVisibleToUser``
    is false for them: ``AccessibilityNodeInfoDumper.dumpNodeRec`` skips them)."""
    x1, y1, x2, y2 = view.bounds
    if view.whole is None:  # cut by an inner list already: it keeps where all of it lies
        view.whole = view.bounds
    view.bounds = (x1, max(y1, top), x2, min(y2, bottom))
    if not view.children:
        return
    kept = []
    for child in view.children:
        child_top, child_bottom = child.bounds[1], child.bounds[3]
        if top <= child_top and child_bottom <= bottom:
            kept.append(child)
        elif child_top < bottom and child_bottom > top:
            _cut(child, top, bottom)
            kept.append(child)
    view.children = kept


def rows_shown(count: int, row_height: int, spacing: int, offset: int, bound: int) -> range:
    """The rows a list of ``count`` rows ``row_height`` px tall and ``spacing`` apart can show, wholly or in part,
    when its ``scroll_offset`` is ``offset`` and it is at most ``bound`` px tall, whatever its height (``_layout_list``
    clamps the offset to the content's end and keeps the rows with a part inside the list). The other rows are
    neither drawn nor dumped: an empty view of their height may stand in for each, as a RecyclerView binds only the
    items it shows."""
    pitch = row_height + spacing
    top = max(offset, 0)
    lowest = min(top, max(count * pitch - spacing - bound, 0))  # the least the offset can be clamped to
    return range(lowest // pitch, min((top + bound) // pitch + 1, count))


def bound_rows(make: Callable[[int], View], count: int, row_height: int, spacing: int, offset: int, bound: int,
               font_scale: float) -> list[View]:
    """The items of a list of ``count`` fixed-height rows as a RecyclerView binds them: ``make(index)`` for the rows
    it can show at ``offset``, at most ``bound`` px tall (``rows_shown``), an empty view of the row's height for each
    other; every row is made when the font is enlarged, as a row then grows with its text (``looks.scale_text``)."""
    if font_scale > 1:
        return [make(index) for index in range(count)]
    shown = rows_shown(count, row_height, spacing, offset, bound)
    return [make(index) if index in shown else View(height=row_height) for index in range(count)]


def _layout_list(view: View, x: int, y: int, width: int, height: int, memo: Memo) -> None:
    """Stack items, scroll by ``scroll_offset`` (clamped) and keep the items with a part inside the list, as a
    RecyclerView, a ListView or a ScrollView draws every child that intersects it, clipped to it: an item wholly
    inside as it is, one crossing the list's top or bottom edge (a row half scrolled in, a long text or a form
    taller than the list) cut to the list (``_cut``); the items wholly outside are neither laid out, drawn nor
    dumped."""
    heights = [_item_height(child, width, memo) for child in view.children]
    content = sum(heights) + view.spacing * max(len(heights) - 1, 0)
    view.scroll_max = max(0, content - height)
    view.scroll_offset = min(max(0, view.scroll_offset), view.scroll_max)
    top, bottom, visible = y - view.scroll_offset, y + height, []
    for child, child_h in zip(view.children, heights):
        inside = y <= top and top + child_h <= bottom
        if inside or top < bottom and top + child_h > y:
            _lay_out_item(child, x, top, width, child_h, memo)
            if not inside:
                _cut(child, y, bottom)
            visible.append(child)
        top += child_h + view.spacing
    view.children = visible


def _item(item: View, width: int, memo: Memo | None) -> tuple[list[View], Hashable] | None:
    """``item``'s views in pre-order (as built: the item is not laid out yet) and its key in ``PLACED`` at
    ``width``, found once per layout pass; ``None`` outside a pass over a tree as built (``Memo.shaped``)."""
    if memo is None or memo.shaped is None:
        return None
    known = memo.items.get((item, width), False)
    if known is False:
        views = list(item.walk())
        shape = memo.shaped.subtree(item, len(views))
        known = memo.items[item, width] = None if shape is None else (views, (shape, width))
    return known


def _item_height(item: View, width: int, memo: Memo | None) -> int:
    """``measure_height`` of a list's ``item``, kept in ``PLACED`` for the next trees that hold an item of its
    shape."""
    known = None if item.height is not None or not item.children else _item(item, width, memo)
    if known is None:
        return measure_height(item, width, memo)
    placed = PLACED.get(known[1])
    if placed is None:
        placed = PLACED.add(known[1], measure_height(item, width, memo))
    return placed[0]


def _lay_out_item(item: View, x: int, y: int, width: int, height: int, memo: Memo) -> None:
    """``_layout`` of a list's ``item`` measured ``height`` px tall: its views placed as ``PLACED`` keeps an item of
    its shape laid out (``False``: one whose layout does more than place its views), else laid out and kept so."""
    known = _item(item, width, memo) if item.children else None
    if known is None:
        _layout(item, x, y, width, height, memo)
        return
    views, key = known
    placed = PLACED.get(key) or PLACED.add(key, height)
    offsets = placed[1]
    if offsets:
        for view, (x1, y1, x2, y2) in zip(views, offsets):
            view.bounds = (x + x1, y + y1, x + x2, y + y2)
        return
    _layout(item, x, y, width, height, memo)
    if offsets is None:
        placed[1] = _offsets(views, x, y)


def _offsets(views: list[View], x: int, y: int) -> tuple[tuple[int, int, int, int], ...] | bool:
    """Where each of ``views``, an item's laid out at ``(x, y)``, lies from there; ``False`` when the layout did more
    than place them (``_PLACING``)."""
    for view in views:
        if view.kind not in _PLACING if view.children else view.kind == "list" or view.kind == "web":
            return False
    return tuple((x1 - x, y1 - y, x2 - x, y2 - y) for x1, y1, x2, y2 in (view.bounds for view in views))
