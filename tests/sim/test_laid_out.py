"""Laid-out trees kept by shape (``sim/ui/laid_out.py``): a tree built as one kept is answered with the kept tree,
carrying the new build's callbacks; anything the layout, the pixels or the dump read tells trees apart."""

from __future__ import annotations

import pytest

from android_gym.sim import keycodes
from android_gym.sim.apps.launcher import LauncherScreen
from android_gym.sim.apps.settings import SettingsHomepage
from android_gym.sim.framework import window
from android_gym.sim.phone import Phone
from android_gym.sim.ui.laid_out import LaidOutTrees, Shaped
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.views import View, button, column, copied, text_view
from android_gym.ui import parse_ui_dump

_RECT = (1080, 2000)


def _screen(pressed: list[int], number: int, label: str = "OK", **props) -> View:
    """A screen whose button's callback holds ``number``, which the tree does not show."""
    return column(text_view("Title", **props), button(label, lambda: pressed.append(number)))


def _kept(trees: LaidOutTrees, root: View) -> None:
    built = Shaped(root, *_RECT)
    assert trees.get(built) is None
    layout(root, 0, 0, *_RECT)
    trees.keep(built, root)


def test_a_tree_built_again_is_the_kept_tree_with_the_new_build_s_callbacks() -> None:
    pressed: list[int] = []
    trees = LaidOutTrees(4, 2, 8, 2**20)
    first = _screen(pressed, 1)
    _kept(trees, first)
    kept = trees.get(Shaped(_screen(pressed, 2), *_RECT))
    assert kept is not None and kept.root is first
    first.children[1].on_click()
    assert pressed == [2]  # the callback of the tree built last


def test_the_kept_tree_shown_again_for_its_own_build_gets_that_build_s_callbacks_back() -> None:
    pressed: list[int] = []
    trees = LaidOutTrees(4, 2, 8, 2**20)
    first = _screen(pressed, 1)
    built = Shaped(first, *_RECT)
    layout(first, 0, 0, *_RECT)
    kept = trees.keep(built, first)
    assert kept is not None and trees.get(Shaped(_screen(pressed, 2), *_RECT)) is kept
    kept.behave_as(built)  # the first build's screen in front again (the window keeps its build with its tree)
    first.children[1].on_click()
    assert pressed == [1]


@pytest.mark.parametrize("other", [
    lambda pressed: _screen(pressed, 1, label="Cancel"),  # a text
    lambda pressed: _screen(pressed, 1, text_size=50),  # a size
    lambda pressed: column(text_view("Title"), button("OK", None)),  # a callback there or not
    lambda pressed: column(_screen(pressed, 1)),  # the nesting
])
def test_trees_that_differ_in_what_is_laid_out_drawn_or_dumped_are_not_taken_for_each_other(other) -> None:
    pressed: list[int] = []
    trees = LaidOutTrees(4, 2, 8, 2**20)
    _kept(trees, _screen(pressed, 1))
    assert trees.get(Shaped(other(pressed), *_RECT)) is None
    assert trees.get(Shaped(_screen(pressed, 1), 1080, 1000)) is None  # another rectangle


def test_reading_a_tree_s_shape_leaves_its_views_as_they_were() -> None:
    root = _screen([], 1)  # its button has a callback, its column and text do not
    before = [(view, list(view.__dict__.items())) for view in root.walk()]
    Shaped(root, *_RECT)
    for view, items in before:
        assert list(view.__dict__.items()) == items  # the same fields in the same order, each the same object
        assert all(view.__dict__[name] is value for name, value in items)


def test_a_view_handed_out_twice_forgets_the_kept_trees() -> None:
    pressed: list[int] = []
    trees = LaidOutTrees(4, 2, 8, 2**20)
    first = _screen(pressed, 1)
    _kept(trees, first)
    assert trees.get(Shaped(column(first.children[0]), *_RECT)) is None  # laying it out would move the kept one
    assert trees.get(Shaped(_screen(pressed, 1), *_RECT)) is None


def _has(trees: LaidOutTrees, label: str) -> bool:
    return trees.get(Shaped(_screen([], 1, label=label), *_RECT)) is not None


def test_trees_laid_out_once_go_first_in_first_out() -> None:
    trees = LaidOutTrees(3, 2, 8, 2**20)
    for label in ("A", "B", "C"):
        _kept(trees, _screen([], 1, label=label))
    assert not _has(trees, "A") and _has(trees, "B") and _has(trees, "C")


def test_a_tree_built_again_after_it_went_outlives_the_trees_laid_out_once() -> None:
    trees = LaidOutTrees(3, 1, 8, 2**20)
    for label in ("A", "B", "A", "C", "D", "E"):  # A went when B came, and came back: it is kept with the returning
        _kept(trees, _screen([], 1, label=label))
    assert _has(trees, "A") and not _has(trees, "D") and _has(trees, "E")
    for label in ("B", "C"):  # back too: with A, two trees built again fit, the least recently used goes
        _kept(trees, _screen([], 1, label=label))
    assert not _has(trees, "A") and _has(trees, "B") and _has(trees, "C")


def test_only_the_last_few_shapes_that_went_are_remembered() -> None:
    trees = LaidOutTrees(3, 1, 1, 2**20)
    for label in ("A", "B", "C", "A", "D"):  # A was forgotten when B went: back, it is new again, and goes with D
        _kept(trees, _screen([], 1, label=label))
    assert not _has(trees, "A") and _has(trees, "D")


def test_the_trees_kept_never_take_more_than_the_budget() -> None:
    one = Shaped(_screen([], 1, label="A"), *_RECT).nbytes
    trees = LaidOutTrees(8, 1, 8, 2 * one + one // 2)  # room for two trees of this shape, not three
    for label in ("A", "B", "A", "C", "B", "D"):  # B back: A, least recently used of those built again, goes
        _kept(trees, _screen([], 1, label=label))
        assert trees.nbytes <= trees.budget and len(trees) <= 2
    assert trees.nbytes == 2 * one and _has(trees, "B") and _has(trees, "D") and not _has(trees, "A")
    assert trees.keep(Shaped(_screen([], 1, label="E"), *_RECT), _screen([], 1)) is not None  # a new one fits


def test_a_tree_larger_than_the_budget_is_not_kept() -> None:
    big = _screen([], 1, label="A")
    trees = LaidOutTrees(8, 4, 8, Shaped(big, *_RECT).nbytes - 1)
    assert trees.keep(Shaped(big, *_RECT), big) is None and len(trees) == 0 and trees.nbytes == 0


def test_the_home_screen_shown_again_is_neither_laid_out_nor_dumped_again(phone: Phone, monkeypatch) -> None:
    home, dump = phone.window.frame().app, phone.ui_dump()
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    phone.ui_dump()
    laid_out = []
    monkeypatch.setattr(window, "layout", lambda view, *rect: laid_out.append(view))
    phone.key(keycodes.HOME)
    again = phone.window.frame().app
    assert again is not home and again.children[0].children == home.children[0].children  # the kept content
    assert phone.ui_dump() is dump and not laid_out


def test_a_tap_on_the_focused_field_finds_its_screen_kept(phone: Phone, monkeypatch) -> None:
    """A tap on a text field reveals it (its list may scroll it into view), which measures the rows of a copy of the
    tree as built; the screen, built again as it was, is still answered with its kept laid-out tree and dump."""
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    search = next(e for e in parse_ui_dump(phone.ui_dump()) if e.is_editable).bbox_pixels.center
    phone.tap(*search)
    focused, dump = phone.window.frame().app, phone.ui_dump()
    phone.key(keycodes.BACK)  # the keyboard goes down: the field has the focus, the window a new size
    phone.ui_dump()
    laid_out = []
    monkeypatch.setattr(window, "layout", lambda view, *rect: laid_out.append(view))
    phone.tap(*search)  # the keyboard comes up again
    again = phone.window.frame().app
    assert again is not focused and again.children[0].children == focused.children[0].children  # the kept content
    assert phone.ui_dump() is dump and not laid_out


def test_a_field_in_no_list_takes_focus_without_a_copy_of_its_tree(phone: Phone, monkeypatch) -> None:
    """A list scrolls into view only a field it holds: a tap on a field in none (SMS's search bar) focuses it without
    copying the tree as built for a list's rows to be measured in."""
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    search = next(e for e in parse_ui_dump(phone.ui_dump()) if e.is_editable).bbox_pixels.center
    copies: list[View] = []
    monkeypatch.setattr(window, "copied", lambda view: copies.append(view) or copied(view))
    phone.tap(*search)
    assert next(e for e in parse_ui_dump(phone.ui_dump()) if e.is_editable).is_focused and not copies


def test_a_kept_tree_puts_its_lists_where_its_layout_left_them(phone: Phone, monkeypatch) -> None:
    """A list asked to stand past its end is laid out at its end, where it then stands; the same ask again is
    answered with the kept tree, whose lists' positions (and focused field) were found once, when it was laid out."""
    phone.run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    screen = phone.activities.top
    key = next(view.key for view in phone.window.frame().app.walk() if view.kind == "list")
    found = []
    lists_and_field = window._lists_and_field
    monkeypatch.setattr(window, "_lists_and_field", lambda content: found.append(content) or lists_and_field(content))
    ends = []
    for _ in range(2):
        screen.scroll[key] = 100_000
        phone.invalidate()
        dump = phone.ui_dump()
        ends.append(screen.scroll[key])
    assert len(found) == 1 and 0 < ends[0] == ends[1] < 100_000
    screen.scroll[key] = 0  # as first shown: that tree is kept too
    phone.invalidate()
    assert phone.ui_dump() != dump and len(found) == 1 and screen.scroll[key] == 0


def test_the_home_screen_shown_again_is_not_built_again(phone: Phone, monkeypatch) -> None:
    """The launcher tells what it shows (``Screen.shown``): back home as it was, it is not built again, and its
    shortcuts act; the date turning builds it again."""
    built: list[object] = []
    build = LauncherScreen.build
    monkeypatch.setattr(LauncherScreen, "build", lambda screen: built.append(screen) or build(screen))
    home = phone.window.frame().app
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    phone.window.frame()
    phone.key(keycodes.HOME)
    again = phone.window.frame().app
    assert len(built) == 1 and again.children[0].children == home.children[0].children
    contacts = next(e for e in parse_ui_dump(phone.ui_dump()) if e.text == "Contacts").bbox_pixels.center
    phone.tap(*contacts)
    assert phone.activities.top.app.package == "com.google.android.contacts"
    phone.key(keycodes.HOME)
    phone.clock.advance(24 * 3600 * 1000)
    phone.window.frame()
    assert len(built) == 2


def test_the_settings_homepage_is_not_built_again_after_a_page_it_opened(phone: Phone, monkeypatch) -> None:
    """The Settings homepage tells what it shows: back from a page it opened, it is the tree it was."""
    phone.run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    homepage = phone.window.frame().app
    built: list[object] = []
    build = SettingsHomepage.build
    monkeypatch.setattr(SettingsHomepage, "build", lambda screen: built.append(screen) or build(screen))
    display = next(e for e in parse_ui_dump(phone.ui_dump()) if e.text == "Display").bbox_pixels.center
    phone.tap(*display)
    assert type(phone.activities.top).__name__ == "SubSettings"
    phone.key(keycodes.BACK)
    assert phone.window.frame().app.children[0].children == homepage.children[0].children and not built
