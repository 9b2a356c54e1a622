"""Text selection in EditTexts as Android 13 does it (AOSP ``TextView``, ``Editor``, ``WordIterator``,
``FloatingToolbar``): the selection, word boundaries, text geometry and the floating toolbar's views. The
framework's ``text_editor`` applies the rules below to the front activity's focused field.

* A long press on a field's text selects the word under the finger (``Editor.selectCurrentWord``: the word at
  the offset, else the word ending there, else one character); on empty space or an empty field it puts the
  caret there (insertion mode). Either way the floating toolbar opens with what
  ``Editor.TextActionModeCallback.populateMenuWithItems`` adds, in menu order: "Cut" and "Copy" (with a
  selection), "Paste" (when the clipboard holds a clip), "Select all" (unless all is selected). Nothing to
  show, nothing opens. "Share", "Autofill" and text-classifier items are not offered.
* The items and Ctrl+A/C/X/V act as ``TextView.onTextContextMenuItem``: Copy, Cut and Paste end the action
  mode (the selection collapses to its end); Select all keeps the toolbar open. Typing and Paste replace the
  selection; DEL deletes it. BACK or a tap outside the toolbar closes it (``handleBackInTextActionModeIfNeeded``,
  ``stopTextActionMode``). When the activity loses window focus an insertion toolbar closes for good, while a
  selection's comes back with the focus (``Editor.onWindowFocusChanged``).
* The caret: a tap on a field puts it at the end of the text (the simulator does not place it under the
  finger); an edit of a selection leaves it after the edit, and typing goes there, as on Android.
* Where the toolbar lives: on Android it is a separate ``PopupWindow`` of the app that a ``uiautomator dump`` of
  the active window leaves out, while AndroidWorld's accessibility forwarder reports every window. Here its
  nodes go into the app window's tree, as the last child of ``android:id/content``, drawn next to the
  selection, so an agent reading only that tree can use it. Its nodes follow AOSP ``floating_popup_container.xml``
  and ``floating_popup_menu_button.xml`` (Android 8+): a LinearLayout described ``floating_toolbar`` holding one
  clickable LinearLayout per item, described by its title, around a TextView
  ``android:id/floating_toolbar_menu_item_text`` showing the title, as real dumps show it. The popup's own
  holder is drawn as its border.
"""

from __future__ import annotations

from dataclasses import dataclass

from android_gym.sim.ui.layout import layout, line_height, measure_width, text_end, text_start, text_width, wrap
from android_gym.sim.ui.views import DIVIDER, TEXT, WHITE, Callback, View, text_view

# AOSP core/res/res/values/strings.xml: cut, copy, paste, selectAll.
CUT, COPY, PASTE, SELECT_ALL = "Cut", "Copy", "Paste", "Select all"
TOOLBAR_TAG = "floating_toolbar"  # FloatingToolbar.FLOATING_TOOLBAR_TAG, the container's content description
ITEM_TEXT_ID = "android:id/floating_toolbar_menu_item_text"
TOOLBAR_HEIGHT = 126  # floating_toolbar_height: 48dp at 420 dpi
_TEXT_SIZE, _SIDE_PADDING, _MIN_ITEM_WIDTH = 37, 29, 126  # 14sp text; ~11dp side padding; 48dp minimum width
_EDGE_MARGIN, _GAP, _HANDLE = 42, 24, 64  # 16dp from the window edges; room for the selection handles below
HIGHLIGHT = (187, 222, 251)
# ICU word-break MidNumLet characters: they join letters and digits on both sides into one word (UAX #29).
_JOINERS = ".'\u2019"


@dataclass
class TextSelection:
    """The focused field's selection (``start == end``: a caret) and whether its floating toolbar is open."""

    start: int
    end: int
    toolbar: bool = False


# ----- words and geometry ----------------------------------------------------------------------------------
def _in_word(text: str, i: int) -> bool:
    char = text[i]
    if char.isalnum() or char == "_":
        return True
    return char in _JOINERS and 0 < i < len(text) - 1 and _in_word(text, i - 1) and _in_word(text, i + 1)


def word_at(text: str, offset: int) -> tuple[int, int]:
    """``Editor.selectCurrentWord``: the word at ``offset``, else the word ending there, else one character."""
    if offset < len(text) and _in_word(text, offset):
        start = end = offset
    elif 0 < offset <= len(text) and _in_word(text, offset - 1):
        start = end = offset - 1
    else:
        return max(min(offset, len(text) - 1), 0), min(offset + 1, len(text))
    while start > 0 and _in_word(text, start - 1):
        start -= 1
    while end < len(text) and _in_word(text, end):
        end += 1
    return start, end


def text_lines(view: View) -> list[tuple[int, str]]:
    """The lines a laid-out EditText draws its value in, each with the offset of its first character."""
    if not view.multiline:
        return [(0, view.value)]
    x1, _, x2, _ = view.bounds
    lines, offset = [], 0
    for line in wrap(view.value, view.text_size, x2 - x1 - text_start(view) - text_end(view)):
        if lines and view.value[offset:offset + 1] == "\n":
            offset += 1  # a paragraph break: the next line (even an empty one) starts after it
        found = view.value.find(line, offset)
        start = offset if found < 0 else found
        lines.append((start, line))
        offset = start + len(line)
    return lines


def text_top(view: View) -> int:
    """Design y of the top of a laid-out text view's first line (above its bounds when it is scrolled off); an
    outlined field's lines are centred in it (an EditText's ``gravity`` is ``center_vertical``) when its least
    height makes it taller than they need; a field of fixed height keeps them at its top (Pro Expense's note,
    ``android:gravity="top"``)."""
    _, y1, _, y2 = view.whole or view.bounds
    top = y1 + view.padding
    if view.outlined and view.height is None:
        spare = y2 - y1 - 2 * view.padding - len(text_lines(view)) * line_height(view.text_size)
        top += max(spare, 0) // 2
    return top


def offset_at(view: View, x: float, y: float) -> tuple[int, bool]:
    """``TextView.getOffsetForPosition`` at a design point, and whether the point is on the text
    (``Editor.isPositionOnText``: inside its line's horizontal extent)."""
    lines = text_lines(view)
    row = int((y - text_top(view)) // line_height(view.text_size))
    start, line = lines[min(max(row, 0), len(lines) - 1)]
    size = view.text_size
    local = x - view.bounds[0] - text_start(view)
    nearest = min(range(len(line) + 1), key=lambda i: abs(text_width(line[:i], size) - local))
    return start + nearest, bool(line) and 0 <= local <= text_width(line, size)


def caret_point(view: View, offset: int) -> tuple[int, int]:
    """Design coordinates of the top of the caret placed before ``offset``."""
    lines = text_lines(view)
    row = max(i for i, (start, _) in enumerate(lines) if start <= offset or i == 0)
    start, line = lines[row]
    return (view.bounds[0] + text_start(view) + int(text_width(line[:offset - start], view.text_size)),
            text_top(view) + row * line_height(view.text_size))


def highlight_boxes(view: View, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """Design rectangles that cover the characters ``start:end`` line by line."""
    size, step = view.text_size, line_height(view.text_size)
    boxes = []
    for row, (first, line) in enumerate(text_lines(view)):
        a, b = max(start, first) - first, min(end, first + len(line)) - first
        if a < b:
            x, y = view.bounds[0] + text_start(view), text_top(view) + row * step
            boxes.append((x + int(text_width(line[:a], size)), y, x + int(text_width(line[:b], size)), y + step))
    return boxes


# ----- the floating toolbar --------------------------------------------------------------------------------
def _item(title: str, on_click: Callback) -> View:
    label = text_view(title, resource_id=ITEM_TEXT_ID, text_size=_TEXT_SIZE, padding=0, text_color=TEXT)
    return View(kind="row", class_name="android.widget.LinearLayout", content_desc=title, clickable=True,
                on_click=on_click, height=TOOLBAR_HEIGHT, padding=_SIDE_PADDING, children=[label],
                width=max(measure_width(label) + 2 * _SIDE_PADDING, _MIN_ITEM_WIDTH))


def floating_toolbar(items: list[tuple[str, Callback]], anchor: tuple[int, int, int, int],
                     area: tuple[int, int, int, int]) -> View:
    """The laid-out toolbar: centred above ``anchor`` (below it, past the handles, when there is no room),
    kept inside ``area``."""
    buttons = [_item(title, on_click) for title, on_click in items]
    container = View(kind="row", class_name="android.widget.LinearLayout", content_desc=TOOLBAR_TAG,
                     focusable=True, background=WHITE, children=buttons)
    holder = View(kind="row", class_name="android.widget.LinearLayout", background=DIVIDER, padding=2,
                  children=[container])
    width, height = sum(button.width or 0 for button in buttons) + 4, TOOLBAR_HEIGHT + 4
    ax1, ay1, ax2, ay2 = anchor
    x1, y1, x2, y2 = area
    x = max(min((ax1 + ax2 - width) // 2, x2 - _EDGE_MARGIN - width), x1 + _EDGE_MARGIN)
    y = ay1 - _GAP - height if ay1 - _GAP - height >= y1 else min(ay2 + _HANDLE, y2 - height)
    layout(holder, x, y, width, height)
    return holder
