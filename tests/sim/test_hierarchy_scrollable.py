"""A list's ``scrollable`` attribute as Android sets it (``AccessibilityNodeInfo.isScrollable()``): only when it can
scroll one way or the other, its content longer than itself — at its top, in the middle and at its end alike (at an
end it can still scroll back). RecyclerView's ``LayoutManager`` asks ``canScrollVertically(±1)`` whether it is
enabled or not; ScrollView (and NestedScrollView) and ListView say so only while enabled. The dump, the accessibility
tree the env reads and the accessibility forwarder's nodes agree."""

from __future__ import annotations

import pytest

from android_gym.device.sim import elements_of
from android_gym.sim import a11y_forwarder
from android_gym.sim.framework.window import ScreenWindow
from android_gym.sim.ui.hierarchy import written
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.views import RECYCLER_VIEW, WHITE, View, column, scroll_list, text_view
from android_gym.ui import parse_ui_dump

WIDTH, HEIGHT, LIST_HEIGHT, ROW = 1080, 1500, 1000, 200
PACKAGE = "com.example.lists"
SCROLL_VIEW, LIST_VIEW = "android.widget.ScrollView", "android.widget.ListView"


def _rows(count: int) -> list[View]:
    return [text_view(f"Row {index}", height=ROW, clickable=True) for index in range(count)]


def _screen(listed: View) -> View:
    """``listed`` ``LIST_HEIGHT`` px tall under a header, laid out on the screen."""
    listed.height = LIST_HEIGHT
    root = column(View(height=HEIGHT - LIST_HEIGHT), listed, background=WHITE)
    layout(root, 0, 0, WIDTH, HEIGHT)
    return root


def _list(rows: int, offset: int = 0, class_name: str = RECYCLER_VIEW, **props) -> View:
    """A list of ``rows`` rows scrolled ``offset`` px: a RecyclerView, or another list class."""
    listed = scroll_list(*_rows(rows), key="rows", scroll_offset=offset, resource_id=f"{PACKAGE}:id/rows", **props)
    listed.class_name = class_name
    return listed


def _scrollable(root: View) -> bool:
    """The list's ``scrollable`` as the dump writes it, checked against the env's elements of the same nodes."""
    xml, nodes = written(root, PACKAGE)
    dumped = next(e for e in parse_ui_dump(xml) if e.resource_name == f"{PACKAGE}:id/rows")
    element = next(e for e in elements_of(nodes, PACKAGE) if e.resource_name == f"{PACKAGE}:id/rows")
    assert element.is_scrollable == dumped.is_scrollable
    return dumped.is_scrollable


def test_a_list_whose_rows_all_fit_is_not_scrollable():
    assert not _scrollable(_screen(_list(3)))
    assert not _scrollable(_screen(_list(LIST_HEIGHT // ROW)))  # filled to the pixel: nothing to scroll


@pytest.mark.parametrize("offset", [0, 700, 1000, 10_000])  # the top, the middle, the end, past the end (clamped)
def test_a_long_list_is_scrollable_wherever_it_is_scrolled_to(offset):
    root = _screen(_list(10, offset))
    assert _scrollable(root)
    assert root.children[1].scroll_offset == min(offset, 10 * ROW - LIST_HEIGHT)


def test_a_list_a_pixel_longer_than_itself_is_scrollable():
    listed = _list(5)
    listed.children.append(View(height=1))
    assert _scrollable(_screen(listed))


@pytest.mark.parametrize("class_name", [SCROLL_VIEW, LIST_VIEW, RECYCLER_VIEW])
def test_a_scroll_view_or_list_view_scrolls_as_far_as_its_content_goes(class_name):
    short = View(kind="list", class_name=class_name, key="form", resource_id=f"{PACKAGE}:id/rows", scrollable=True,
                 children=[column(*_rows(2))])
    tall = View(kind="list", class_name=class_name, key="form", resource_id=f"{PACKAGE}:id/rows", scrollable=True,
                children=[column(*_rows(8))])
    assert not _scrollable(_screen(short)) and _scrollable(_screen(tall))


@pytest.mark.parametrize(("class_name", "scrollable"), [(SCROLL_VIEW, False), (LIST_VIEW, False),
                                                        (RECYCLER_VIEW, True)])
def test_a_disabled_list_is_scrollable_only_as_a_recycler_view(class_name, scrollable):
    assert _scrollable(_screen(_list(10, class_name=class_name, enabled=False))) is scrollable


def test_a_list_as_tall_as_its_rows_is_not_scrollable():
    popup = scroll_list(*_rows(4), key="menu", resource_id=f"{PACKAGE}:id/rows")  # wrap_content: no height
    root = column(popup, View(weight=1), background=WHITE)
    layout(root, 0, 0, WIDTH, HEIGHT)
    assert not _scrollable(root)


def test_a_view_pager_says_itself_whether_it_scrolls():
    for pages in (1, 3):
        pager = View(kind="frame", class_name="androidx.viewpager.widget.ViewPager", resource_id=f"{PACKAGE}:id/rows",
                     scrollable=pages > 1, gravity="fill", children=[text_view("Page")])
        root = column(pager, background=WHITE)
        layout(root, 0, 0, WIDTH, HEIGHT)
        assert _scrollable(root) is (pages > 1)


def _forwarded(root: View) -> tuple[bool, set[int]]:
    """The list's node as the accessibility forwarder sends it: whether scrollable, and its scroll actions."""
    window = ScreenWindow(root=root, package=PACKAGE, kind="application", title="Lists", layer=1, focused=True)
    node = next(node for node in a11y_forwarder.forest([window]).windows[0].tree.nodes
                if node.view_id_resource_name == f"{PACKAGE}:id/rows")
    ways = {a11y_forwarder.ACTION_SCROLL_FORWARD, a11y_forwarder.ACTION_SCROLL_BACKWARD}
    return node.is_scrollable, {action.id for action in node.actions} & ways


def test_the_forwarded_node_scrolls_only_the_ways_the_list_can_go():
    forward, backward = a11y_forwarder.ACTION_SCROLL_FORWARD, a11y_forwarder.ACTION_SCROLL_BACKWARD
    assert _forwarded(_screen(_list(3))) == (False, set())
    assert _forwarded(_screen(_list(10, 0))) == (True, {forward})
    assert _forwarded(_screen(_list(10, 500))) == (True, {forward, backward})
    assert _forwarded(_screen(_list(10, 1000))) == (True, {backward})
