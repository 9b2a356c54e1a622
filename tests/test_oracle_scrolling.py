"""``scroll_until``/``scroll_to`` on a list of rows as uiautomator dumps it (the rows crossing its edges cut to it):
an oracle taps a row only once it keeps off the list's edge it came in at, is as tall as the rows inside, or the
list will not scroll on; a list that cannot scroll is not scrolled."""

from __future__ import annotations

import pytest

from android_gym.actions import Action, ActionType
from android_gym.tasks.oracle import OracleError, OraclePolicy, Selector, scroll_to, tap
from android_gym.ui import UIElement, parse_ui_dump

LIST_TOP, LIST_BOTTOM, ROW = 400, 1400, 300  # the list shows 1000 px; a scroll moves it half of that
LIST = Selector(resource_id="app:id/list")


def _node(bounds: tuple[int, int], inner: str = "", **flags: str) -> str:
    attributes = "".join(f' {name.replace("_", "-")}="{value}"' for name, value in flags.items())
    return f'<node bounds="[0,{bounds[0]}][1080,{bounds[1]}]"{attributes}>{inner}</node>'


class _List:
    """A screen with a list of rows ``ROW`` px tall (or as ``heights`` says), scrolled ``offset`` px, that a SCROLL
    action moves by half its height (clamped to its ends), as the simulated phone's lists do; with ``padding``, its
    rows lie that far inside its edges and are cut there (``clipToPadding``)."""

    def __init__(self, rows: int, offset: int = 0, heights: dict[int, int] | None = None, padding: int = 0) -> None:
        self.heights = [(heights or {}).get(row, ROW) for row in range(rows)]
        self.offset, self.padding = offset, padding

    def elements(self) -> list[UIElement]:
        shown, top = [], LIST_TOP + self.padding - self.offset
        for row, height in enumerate(self.heights):
            cut = (max(top, LIST_TOP + self.padding), min(top + height, LIST_BOTTOM - self.padding))
            if cut[0] < cut[1]:
                shown.append(_node(cut, _node(cut, text=f"Row {row}"), clickable="true"))
            top += height
        scrollable = "true" if self.end > 0 else "false"  # as Android says it
        screen = _node((LIST_TOP, LIST_BOTTOM), "".join(shown), resource_id=LIST.resource_id, scrollable=scrollable)
        return parse_ui_dump(f'<hierarchy rotation="0">{_node((0, 2400), screen)}</hierarchy>')

    def play(self, row: int) -> list[Action]:
        """The oracle's actions: ``scroll_to`` row ``row``, then tap it; each scroll played on the list."""
        target = Selector(text=f"Row {row}")
        policy, actions = OraclePolicy([*scroll_to(target, LIST), tap(target)]), []
        while not policy.done:
            action = policy.act(self.elements())
            actions.append(action)
            if action.action_type == ActionType.SCROLL:
                half = (LIST_BOTTOM - LIST_TOP) // 2
                self.offset = max(0, min(self.end, self.offset + (half if action.direction == "down" else -half)))
        return actions

    @property
    def end(self) -> int:
        """The furthest the list scrolls."""
        return max(0, sum(self.heights) + 2 * self.padding - (LIST_BOTTOM - LIST_TOP))


def _tapped(screen: _List, action: Action) -> UIElement:
    assert action.action_type == ActionType.CLICK
    return screen.elements()[action.index]


def test_a_row_cut_at_the_bottom_costs_one_more_scroll():
    screen = _List(rows=10)  # row 3 shows its top 100 px at the list's bottom
    *scrolls, click = screen.play(3)
    assert [action.direction for action in scrolls] == ["down"]
    assert _tapped(screen, click).bbox_pixels.y_max < LIST_BOTTOM


def test_a_row_cut_at_the_padding_of_a_padded_list_costs_one_more_scroll():
    screen = _List(rows=10, padding=40)  # row 3 shows its top 20 px above the padding at the list's bottom
    *scrolls, click = screen.play(3)
    assert [action.direction for action in scrolls] == ["down"]
    box = _tapped(screen, click).bbox_pixels
    assert box.y_max - box.y_min == ROW


def test_a_row_wholly_shown_inside_is_tapped_at_once():
    screen = _List(rows=10)
    assert [action.action_type for action in screen.play(2)] == [ActionType.CLICK]


def test_the_last_row_at_the_list_end_as_tall_as_the_others_is_tapped_at_once():
    screen = _List(rows=10, offset=10 * ROW - (LIST_BOTTOM - LIST_TOP))  # scrolled to the end: row 9 touches it
    click, = screen.play(9)
    assert _tapped(screen, click).bbox_pixels.y_max == LIST_BOTTOM


def test_the_last_row_of_a_list_just_filled_by_two_rows_is_tapped_at_once():
    screen = _List(rows=2, heights={0: 500, 1: 500})  # the first row, at the list's top, is its like
    click, = screen.play(1)
    assert _tapped(screen, click).bbox_pixels.y_max == LIST_BOTTOM


def test_a_last_row_a_pixel_taller_than_its_like_is_tapped_at_once():
    screen = _List(rows=3, heights={0: 333, 1: 333, 2: 334})  # bounds rounded to the screen's pixels
    click, = screen.play(2)
    assert _tapped(screen, click).bbox_pixels.y_max == LIST_BOTTOM


def test_a_last_row_unlike_the_others_is_tapped_after_the_scroll_that_changes_nothing():
    screen = _List(rows=10, offset=9 * ROW + 400 - (LIST_BOTTOM - LIST_TOP), heights={9: 400})  # at the end
    *scrolls, click = screen.play(9)
    assert [action.direction for action in scrolls] == ["down"]  # no further scroll, no turning back
    assert _tapped(screen, click).bbox_pixels.y_max == LIST_BOTTOM


def test_a_row_cut_at_the_top_costs_one_more_scroll_when_scrolling_up():
    screen = _List(rows=10, offset=1000)  # row 3 shows its bottom 200 px at the top, row 6 its top 200 px below
    policy = OraclePolicy(scroll_to(Selector(text="Row 3"), LIST, direction="up"))
    assert policy.act(screen.elements()).direction == "up"


def test_a_row_found_only_after_turning_back_is_cleared_of_the_top_edge():
    screen = _List(rows=5, offset=500)  # at the end; row 0 lies above, wanted while scrolling down
    *scrolls, click = screen.play(0)
    assert [action.direction for action in scrolls] == ["down", "up"]
    assert _tapped(screen, click).bbox_pixels.y_min == LIST_TOP and screen.offset == 0


def test_a_row_of_a_list_that_cannot_scroll_is_tapped_at_once_though_it_touches_the_edge():
    screen = _List(rows=3, heights={0: 250, 1: 250, 2: 500})  # all inside; the last row, unlike, fills it to the end
    click, = screen.play(2)
    assert _tapped(screen, click).bbox_pixels.y_max == LIST_BOTTOM


def test_a_list_that_cannot_scroll_is_not_scrolled_for_a_row_it_does_not_have():
    policy = OraclePolicy(scroll_to(Selector(text="Row 7"), LIST))
    with pytest.raises(OracleError, match="Row 7"):  # the first action asked for: no scroll, the check fails
        policy.act(_List(rows=3).elements())
