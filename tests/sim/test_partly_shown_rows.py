"""Rows half scrolled in at a list's edge, as Android shows them: drawn clipped to the list (the whole row's pixels
cut at the edge), dumped with the part on screen (``getBoundsInScreen``), their descendants with nothing on screen
left out (``isVisibleToUser``), and touched on their visible part only."""

from __future__ import annotations

from functools import cached_property

import numpy as np
import pytest

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.window import STATUS_BAR_HEIGHT
from android_gym.sim.ui.layout import layout, measure_height
from android_gym.sim.ui.render import Renderer
from android_gym.sim.ui.views import TEXT_SECONDARY, WHITE, View, column, row, scroll_list, text_view
from android_gym.ui import parse_ui_dump

WIDTH, HEADER, LIST_HEIGHT, FOOTER = 1080, 150, 700, 120


def _row(index: int, on_click=None) -> View:
    """A list row: an icon beside a title over a subtitle, on a colour of its own."""
    return row(View(kind="icon", class_name="android.widget.ImageView", hint="alarm", width=126, height=126),
               column(text_view(f"Title {index}", resource_id="title"),
                      text_view(f"Subtitle {index}", resource_id="subtitle", text_color=TEXT_SECONDARY, text_size=37),
                      weight=1),
               resource_id="com.example.rows:id/item", padding=20, clickable=on_click is not None,
               on_click=on_click, background=(255, 250 - 12 * index, 230 + 2 * index))


def _list(offset: int, tall: bool = False) -> View:
    """Twelve rows, or (``tall``) a row, a text taller than the list and a row."""
    items = ([_row(0), text_view("\n".join(f"line {i}" for i in range(30)), background=(240, 240, 200)), _row(1)]
             if tall else [_row(index) for index in range(12)])
    return scroll_list(*items, key="rows", scroll_offset=offset, spacing=6)


def _screen(offset: int, tall: bool = False) -> View:
    """A header, the list ``LIST_HEIGHT`` px tall scrolled ``offset`` px, a footer; laid out."""
    root = column(View(height=HEADER, background=(30, 90, 200)), _list(offset, tall),
                  View(height=FOOTER, background=(200, 60, 30)), background=WHITE)
    root.children[1].height = LIST_HEIGHT
    layout(root, 0, 0, WIDTH, HEADER + LIST_HEIGHT + FOOTER)
    return root


def _drawn(root: View, renderer: Renderer | None = None) -> np.ndarray:
    x1, y1, x2, y2 = root.bounds
    renderer = renderer or Renderer(x2 - x1, y2 - y1)
    return renderer.render({"app": (root, WHITE)})


def _unscrolled(tall: bool = False) -> np.ndarray:
    """All the list's rows drawn one under the other, nothing cut."""
    listed = _list(0, tall)
    layout(listed, 0, 0, WIDTH, measure_height(listed, WIDTH))
    return _drawn(listed)


@pytest.mark.parametrize(("offset", "tall"), [(0, False), (37, False), (95, False), (200, False), (333, False),
                                              (512, False), (150, True), (400, True), (700, True)])
def test_a_list_shows_its_rows_cut_at_its_edges_as_the_whole_rows_drawn_then_cut(offset, tall):
    whole = _unscrolled(tall)
    frame = _drawn(_screen(offset, tall))
    assert np.array_equal(frame[HEADER:HEADER + LIST_HEIGHT], whole[offset:offset + LIST_HEIGHT])
    assert (frame[:HEADER] == (30, 90, 200)).all() and (frame[HEADER + LIST_HEIGHT:] == (200, 60, 30)).all()


def test_a_scrolled_list_is_redrawn_right_where_its_cut_rows_change():
    renderer = Renderer(WIDTH, HEADER + LIST_HEIGHT + FOOTER)
    for offset in (0, 37, 40, 95, 200, 190, 333, 512, 3):
        assert np.array_equal(_drawn(_screen(offset), renderer), _drawn(_screen(offset))), offset
    for offset in (300, 310, 500, 700, 200):  # the text taller than the list: only where it lies moves
        assert np.array_equal(_drawn(_screen(offset, True), renderer), _drawn(_screen(offset, True))), offset


def test_cut_rows_keep_the_views_with_a_part_in_the_list_and_their_whole_bounds():
    root = _screen(110)
    rows = root.children[1].children
    first, last = rows[0], rows[-1]
    assert first.bounds[1] == HEADER == first.whole[1] + 110 and first.whole[3] == first.bounds[3]
    assert [child.text for child in first.walk() if child.text] == ["Subtitle 0"]  # the title scrolled off
    subtitle = next(child for child in first.walk() if child.text)
    assert subtitle.bounds[1] == HEADER < subtitle.whole[3] == subtitle.bounds[3]  # a leaf cut in turn
    assert last.bounds[3] == HEADER + LIST_HEIGHT < last.whole[3]
    assert all(view.whole is None for item in rows[1:-1] for view in item.walk())  # rows inside: as they are
    assert all(HEADER <= view.bounds[1] <= view.bounds[3] <= HEADER + LIST_HEIGHT for item in rows
               for view in item.walk())


class ListScreen(Screen):
    """A clickable header over a list scrolled to show its first row's bottom part."""

    activity = "com.example.rows.MainActivity"

    @cached_property
    def clicked(self) -> list[str]:
        """What was tapped, in order."""
        return []

    def build(self) -> View:
        header = text_view("Header", clickable=True, on_click=lambda: self.clicked.append("header"), height=HEADER)
        rows = [_row(index, lambda index=index: self.clicked.append(f"row {index}")) for index in range(30)]
        return column(header, scroll_list(*rows, key="rows", scroll_offset=self.scroll.get("rows", 0), weight=1,
                                          spacing=6, resource_id="com.example.rows:id/rows"))


class Rows(App):
    package = "com.example.rows"
    label = "Rows"
    screens = (ListScreen,)


def test_a_cut_row_is_dumped_with_its_visible_part_and_taken_there_not_over_its_neighbours(phone):
    phone.packages.install(Rows)
    screen = phone.activities.launch(phone.packages.get("com.example.rows"))
    screen.scroll["rows"] = 110
    phone.window.invalidate()
    elements = parse_ui_dump(phone.ui_dump())
    listed = next(e for e in elements if e.resource_name == "com.example.rows:id/rows").bbox_pixels
    top = STATUS_BAR_HEIGHT + HEADER
    assert listed.y_min == top
    texts = [e.text for e in elements if e.text]
    assert "Title 0" not in texts and "Subtitle 0" in texts  # the title scrolled off, the subtitle is cut
    items = [e.bbox_pixels for e in elements if e.resource_name == "com.example.rows:id/item"]
    first, last = items[0], items[-1]
    assert first.y_min == top and 0 < first.y_max - top < 110
    assert last.y_max == listed.y_max
    inside = elements[next(i for i, e in enumerate(elements) if e.bbox_pixels == listed) + 1:]
    assert all(listed.y_min <= e.bbox_pixels.y_min and e.bbox_pixels.y_max <= listed.y_max for e in inside)
    phone.tap(500, top - 20)  # on the header, where the first row would lie uncut
    phone.tap(*first.center)
    phone.tap(*last.center)
    assert screen.clicked[:2] == ["header", "row 0"] and screen.clicked[2].startswith("row ")
