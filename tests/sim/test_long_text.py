"""A text taller than its ScrollView (a long note): laid out clipped to the list and scrolled line by line, with
the caret and the text lines where the drawn text is; a single-line text wider than its row, or a text longer
than its ``max_lines``: cut to fit."""

from __future__ import annotations

from android_gym.sim.ui.layout import layout, line_height, measure_height
from android_gym.sim.ui.layout import text_lines as layout_text_lines
from android_gym.sim.ui.selection import caret_point, offset_at, text_lines, text_top
from android_gym.sim.ui.views import View, edit_text, row, scroll_list, text_view

TEXT = "\n".join(f"line {i}" for i in range(100))


def _laid_out(scroll: int):
    field = edit_text(TEXT, "", "note", lambda value: None, multiline=True, padding=20)
    root = scroll_list(text_view("title"), field, key="scroll", scroll_offset=scroll)
    layout(root, 0, 100, 1080, 800)
    return root


def test_a_tall_text_stays_in_its_list_clipped_and_scrolled():
    root = _laid_out(0)
    field = root.children[-1]
    assert field.value == TEXT and field.whole[1] == field.bounds[1]  # the whole text, starting below the title
    assert field.bounds[1] > 100 and field.bounds[3] == 900 < field.whole[3]  # cut at the list's bottom
    root = _laid_out(1000)
    field = root.children[-1]
    assert [child.text for child in root.children] == [TEXT]  # the title scrolled away, the text is kept
    assert field.bounds[1::2] == (100, 900) and field.whole[1] < 100 - 900  # scrolled more than a list's height
    assert text_top(field) == field.whole[1] + 20
    row = (100 - text_top(field)) // line_height(field.text_size) + 1  # the first whole line on screen
    offset, on_text = offset_at(field, 40, text_top(field) + row * line_height(field.text_size) + 5)
    start = TEXT.index(f"line {row}\n")
    assert on_text and start < offset < start + len(f"line {row}")  # a touch on a line finds that line
    assert caret_point(field, offset)[1] == text_top(field) + row * line_height(field.text_size)


def test_empty_lines_start_after_their_newline():
    field = edit_text("ab\n\ncd", "", "k", lambda value: None, multiline=True)
    layout(field, 0, 0, 1080, 400)
    assert text_lines(field) == [(0, "ab"), (3, ""), (4, "cd")]


def test_a_single_line_text_in_a_row_keeps_to_the_room_left_and_is_cut_with_an_ellipsis():
    long = "Wiedergabelisten " * 4
    icon, label, tail = View(width=100), text_view(long, single_line=True), View(width=100)
    row_view = row(icon, label, tail)
    layout(row_view, 0, 0, 600, 200)
    assert label.bounds[0] == 100 and label.bounds[2] == tail.bounds[0] == 500 and tail.bounds[2] == 600
    (line,) = layout_text_lines(label, label.bounds[2] - label.bounds[0])
    assert line.endswith("…") and long.startswith(line[:-1]) and label.text == long  # the dump keeps the text
    first, second = text_view("Mehr", single_line=True), text_view(long, single_line=True)
    layout(row(first, second), 0, 0, 600, 200)
    assert first.bounds[2] - first.bounds[0] < 200 and second.bounds[2] == 600  # the later one gives way


def test_a_text_with_max_lines_wraps_to_them_and_cuts_the_last_with_an_ellipsis():
    long = "Grilled Cheese with Tomato and Basil " * 3
    clamped = text_view(long, max_lines=2)
    first, last = layout_text_lines(clamped, 400)
    assert last.endswith("…") and long.startswith(f"{first} {last[:-1]}") and clamped.text == long
    assert measure_height(clamped, 400) == 2 * line_height(clamped.text_size) + 2 * clamped.padding
    assert layout_text_lines(text_view("Basil", max_lines=2), 400) == ("Basil",)  # a short text as it is
