"""An unchanged screen is not built, dumped or rendered again, and the cache never shows a stale screen: the same
episode looks the same, step by step, with and without it."""

from __future__ import annotations

import hashlib
import sqlite3
import weakref
from collections.abc import Iterator

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image
from walks import AwayFromChrome

from android_gym.agents import OracleAgent, RandomValidAgent
from android_gym.device.sim import SimDevice
from android_gym.sim import keycodes
from android_gym.sim.phone import Phone
from android_gym.sim.ui import render
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.render import _SCREEN_LOOKS_BYTES, Renderer
from android_gym.sim.ui.views import (
    PRIMARY,
    TOP_CORNERS,
    WHITE,
    View,
    button,
    column,
    frame,
    image_view,
    row,
    text_view,
    toggle,
)
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump


@pytest.fixture(autouse=True)
def large_windows_kept(monkeypatch, large_windows_drawn) -> None:
    """Each test starts with no window's looks kept (the process's renderers share them), and renderers keep large
    windows' looks as they do outside tests."""
    monkeypatch.setattr(render, "_SCREEN_LOOKS_BYTES", _SCREEN_LOOKS_BYTES)


def _drawn_afresh(windows: dict, width: int = 300, height: int = 400, scale: float = 1.0,
                  palettes: dict | None = None) -> np.ndarray:
    """``windows`` drawn on a blank screen by a new renderer that finds no window's look kept: every window drawn."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(render, "_WINDOW_LOOKS", {})
        return Renderer(width, height, scale).render(windows, palettes)


def test_an_unchanged_screen_is_dumped_once(phone: Phone) -> None:
    first, rgba = phone.ui_dump(), phone.screenshot_rgba()
    phone.clock.advance(1000)  # the launcher shows no time that moves with it
    phone.run("dumpsys activity activities; settings get global wifi_on; ls /sdcard")  # reads only
    assert phone.ui_dump() is first and phone.screenshot_rgba() is rgba


def test_an_unchanged_screen_is_the_same_read_only_array_and_a_change_leaves_it_as_it_was(phone: Phone) -> None:
    first = phone.screenshot()
    shown = first.copy()
    with pytest.raises(ValueError, match="read-only"):
        first[0, 0] = 0
    phone.invalidate()  # the frame is built again and shows the same
    assert phone.screenshot() is first
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    second = phone.screenshot()
    assert second is not first and not second.flags.writeable and not np.array_equal(second, shown)
    assert np.array_equal(first, shown)  # the screen handed out before is still what it showed


def test_a_command_that_writes_redraws(phone: Phone) -> None:
    """A changed setting redraws the home screen; a written file redraws an app's screen (the home screen shows no
    app's data: tests/sim/test_shell.py)."""
    first = phone.window.frame()
    phone.run("settings put global wifi_on 0")
    assert phone.window.frame() is not first
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    second, rgba = phone.window.frame(), phone.screenshot_rgba()
    phone.run("echo note > /sdcard/note.txt")
    assert phone.window.frame() is not second and phone.screenshot_rgba() is not rgba


def test_launching_the_app_in_front_again_keeps_its_frame_and_another_app_redraws(phone: Phone) -> None:
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    phone.tap(*_center(phone, "Stopwatch"))
    shown = phone.window.frame()
    result = phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    assert result.exit_code == 0 and phone.window.frame() is shown  # monkey's launch of the front app: no change
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    assert phone.activities.top.app.package == "com.simplemobiletools.smsmessenger"
    assert 'package="com.simplemobiletools.smsmessenger"' in phone.ui_dump()
    phone.key(keycodes.HOME)
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    assert 'text="Stopwatch"' in phone.ui_dump() and phone.window.frame() is not shown  # its task back in front


def test_the_status_bar_clock_turns_with_the_minute(phone: Phone) -> None:
    phone.clock.set(phone.clock.now_ms() // 60_000 * 60_000)  # the start of a minute
    before = phone.screenshot()
    phone.clock.advance(59_000)
    assert np.array_equal(phone.screenshot(), before)
    phone.clock.advance(1_000)
    assert not np.array_equal(phone.screenshot(), before)


def test_a_screen_that_shows_time_is_redrawn_as_time_passes(phone: Phone) -> None:
    phone.run("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
    phone.tap(*_center(phone, "Stopwatch"))
    phone.tap(*_center(phone, "Start"))  # the stopwatch runs
    running = phone.ui_dump()
    phone.clock.advance(1000)
    assert phone.ui_dump() != running


def test_an_app_reads_its_database_again_only_after_it_changed(phone: Phone, monkeypatch) -> None:
    telephony = phone.telephony
    telephony.deliver_sms("+14155550123", "first")
    opened = []
    reading = telephony.reading
    monkeypatch.setattr(telephony, "reading", lambda rows: opened.append(1) or reading(rows))
    first = telephony.conversations()
    assert first[0]["snippet"] == "first" and opened
    opened.clear()
    first[0]["snippet"] = "changed by the caller"  # a caller's copy: the next read is unchanged
    assert telephony.conversations()[0]["snippet"] == "first" and not opened  # same bytes: nothing read
    phone.run(f"sqlite3 {telephony.db_path} \"UPDATE threads SET snippet = 'edited'\"")  # a write by another
    assert telephony.conversations()[0]["snippet"] == "edited" and opened
    telephony.deliver_sms("+14155550123", "second")  # the provider's own write
    assert sorted(m["body"] for m in telephony.messages(first[0]["thread_id"])) == ["first", "second"]
    phone.run(f"rm {telephony.db_path}")  # gone: the provider makes an empty one
    assert telephony.conversations() == []


def test_a_database_s_bytes_are_read_again_only_when_its_write_versions_moved(phone: Phone, monkeypatch) -> None:
    telephony = phone.telephony
    telephony.deliver_sms("+14155550123", "first")
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    looks, content = [], telephony._content
    monkeypatch.setattr(telephony, "_content", lambda: looks.append(1) or content())
    cached = telephony.cached
    calls = []
    monkeypatch.setattr(telephony, "cached", lambda key, read: calls.append(key) or cached(key, read))
    phone.invalidate()
    phone.window.frame()
    thread = telephony.conversations()[0]["thread_id"]
    assert len(calls) > 2 and len(looks) <= 1  # several reads of the database, its bytes compared at most once
    looks.clear()
    telephony.deliver_sms("+14155550123", "second")  # the provider's own write
    assert sorted(m["body"] for m in telephony.messages(thread)) == ["first", "second"] and len(looks) == 1
    with sqlite3.connect(phone.fs.host_path(telephony.db_path)) as db:  # host code, behind the phone's back
        db.execute("UPDATE sms SET body = 'changed' WHERE body = 'first'")
    db.close()
    assert sorted(m["body"] for m in telephony.messages(thread)) == ["changed", "second"] and len(looks) == 2
    phone.invalidate()
    phone.window.frame()
    telephony.conversations()
    assert len(looks) == 2  # nothing written since: nothing read


class _UncachedDevice(SimDevice):
    """A simulated phone whose every look at the screen builds the frame afresh and draws it on a blank screen (a
    new renderer: no window and no rows of the last frame are kept, and no window's look kept by the process's
    renderers is pasted); the env parses its dumps (no elements read from the views)."""

    ui_elements = None

    def screenshot(self) -> np.ndarray:
        self.phone.invalidate()
        self.phone.window._renderer = None
        kept, render._WINDOW_LOOKS = render._WINDOW_LOOKS, {}
        try:
            return super().screenshot()
        finally:
            render._WINDOW_LOOKS = kept

    def ui_dump(self) -> str:
        self.phone.invalidate()
        return super().ui_dump()


def _look_per_step(device: SimDevice, task: str, seed: int) -> list[str]:
    """Hashes of the pixels and tree after every step of the task's oracle on ``device``."""
    env = gym.make(f"AndroidWorld/{task}-v0", device=device)
    looks = []
    original_step = env.unwrapped.step

    def step(action):
        observation, *rest = original_step(action)
        looks.append(hashlib.sha256(observation["pixels"].tobytes() + observation["a11y_tree"].encode()).hexdigest())
        return (observation, *rest)

    env.unwrapped.step = step
    result = run_episode(env, OracleAgent(), seed=seed)
    env.close()
    assert result.score == 1.0
    return looks


@pytest.mark.parametrize("task", ["SimpleSmsReply", "ExpenseDeleteMultiple2", "ClockStopWatchRunning",
                                  "MarkorCreateNote", "SystemBrightnessMax"])
def test_cached_and_uncached_frames_are_the_same(task: str) -> None:
    cached = _look_per_step(SimDevice(), task, seed=1)
    assert cached == _look_per_step(_UncachedDevice(), task, seed=1)
    assert cached == _look_per_step(SimDevice(), task, seed=1)  # and the same pixels run after run


def _random_valid_screens(devices: list[SimDevice], task: str, steps: int,
                          chrome: bool = False) -> Iterator[list[np.ndarray]]:
    """The pixels each device shows after each of ``steps`` steps of the seeded random-valid policy (taps, long
    presses, typing, scrolls, back and home: screens that change in part as well as whole), played on all of them
    in step: the policy acts on the first device's screen and every env takes its action. It opens Chrome only if
    ``chrome`` (``AwayFromChrome``)."""
    envs = [gym.make(f"AndroidWorld/{task}-v0", device=device) for device in devices]
    agent = RandomValidAgent(seed=3) if chrome else AwayFromChrome(RandomValidAgent(seed=3))
    try:
        observation, info = [env.reset(seed=3) for env in envs][0]
        agent.reset(envs[0])
        for _ in range(steps):
            action = agent.act(observation, info)
            stepped = [env.step(action) for env in envs]
            yield [seen["pixels"] for seen, *_ in stepped]
            observation, _, terminated, truncated, info = stepped[0]
            assert all(other[2:4] == (terminated, truncated) for other in stepped)  # the same episodes
            if terminated or truncated:
                observation, info = [env.reset() for env in envs][0]
                agent.reset(envs[0])
    finally:
        for env in envs:
            env.close()


def _look_alike(devices: list[SimDevice], task: str, steps: int, chrome: bool = False) -> None:
    """Every device shows the first one's pixels after each step of ``_random_valid_screens`` (compared as they
    come rather than hashed: hashing a 1080x2400 frame costs several milliseconds, comparing it a fraction of one)."""
    for step, (first, *others) in enumerate(_random_valid_screens(devices, task, steps, chrome)):
        assert all(np.array_equal(first, other) for other in others), f"step {step}"


# Three apps at three scales (boxes rounded to pixels at 1/2 and 1/4 too); the walk on the smallest screen goes to
# Chrome too (its pages cost least there). ExpenseDeleteMultiple2's full-size frames are redrawn in part in
# test_drawing_in_strips_looks_like_drawing_each_window_whole and test_cached_and_uncached_frames_are_the_same.
@pytest.mark.parametrize(("task", "size", "chrome"), [("SendSms", (1080, 2400), False),
                                                      ("ExpenseDeleteMultiple2", (270, 600), True),
                                                      ("MarkorCreateNote", (540, 1200), False)])
def test_redrawing_only_the_changed_rows_looks_like_drawing_the_whole_screen(task: str, size: tuple[int, int],
                                                                             chrome: bool) -> None:
    _look_alike([SimDevice(*size), _UncachedDevice(*size)], task, 300, chrome)


class _StripsDevice(SimDevice):
    """A 1080x2400 simulated phone whose renderer draws in strips of ``rows`` rows (the renderer's module setting,
    set while this phone draws)."""

    def __init__(self, rows: int) -> None:
        super().__init__(1080, 2400)
        self.rows = rows

    def screenshot(self) -> np.ndarray:
        kept, render._STRIP_ROWS = render._STRIP_ROWS, self.rows
        try:
            return super().screenshot()
        finally:
            render._STRIP_ROWS = kept


def test_drawing_in_strips_looks_like_drawing_each_window_whole() -> None:
    """Strips of an odd height (cutting views, text lines and shadows anywhere) draw what one strip per window does."""
    _look_alike([_StripsDevice(10_000), _StripsDevice(37)], "ExpenseDeleteMultiple2", 60)


class _SignedAfreshDevice(SimDevice):
    """A simulated phone whose renderer works out the signature of every window from its views, none made once per
    kept laid-out tree (``render.made_once`` makes it anew while this phone draws)."""

    def screenshot(self) -> np.ndarray:
        kept, render.made_once = render.made_once, lambda tree, key, make: make()
        try:
            return super().screenshot()
        finally:
            render.made_once = kept


def test_signatures_made_once_per_kept_tree_look_like_signatures_worked_out_anew(monkeypatch) -> None:
    """The app window's signature, its kept tree's views' part made once (a screen shown again is not walked),
    draws what one worked out from the views at every step does: the same frames, redrawn in the same boxes."""
    found = []
    made_once = render.made_once

    def counted(tree, key, make):
        found.append(key in tree.made)
        return made_once(tree, key, make)

    monkeypatch.setattr(render, "made_once", counted)
    _look_alike([SimDevice(), _SignedAfreshDevice()], "SendSms", 150)
    assert sum(found) > 10 and not all(found)  # trees shown again and new ones


def _drawn_after(before: View, after: View) -> tuple[np.ndarray, np.ndarray]:
    """``after`` drawn over ``before`` (the rows that changed), and drawn on a blank screen."""
    for tree in (before, after):
        layout(tree, 0, 0, 1080, 600)
    incremental = Renderer(1080, 600)
    incremental.render({"window": (before, WHITE)})
    return incremental.render({"window": (after, WHITE)}).copy(), Renderer(1080, 600).render(
        {"window": (after, WHITE)}).copy()


def test_a_frame_drawn_over_the_last_keeps_what_did_not_change_and_leaves_the_last_as_it_was() -> None:
    """A bar across the screen over two windows side by side (neither across the whole width): when one of them
    changes, the new frame is the one drawn on a blank screen, and the frame before is as it was."""
    def windows(label: str) -> dict[str, tuple[View, tuple[int, int, int]]]:
        trees = {"bar": (text_view("Bar", background=(30, 30, 90)), (0, 0, 1080, 100)),
                 "left": (column(text_view("Left"), background=(200, 230, 255)), (0, 100, 500, 600)),
                 "right": (column(text_view(label), View(height=50, background=(90, 0, 0))), (500, 100, 1080, 600))}
        for tree, (x1, y1, x2, y2) in trees.values():
            layout(tree, x1, y1, x2 - x1, y2 - y1)
        return {name: (tree, WHITE) for name, (tree, _) in trees.items()}

    renderer = Renderer(1080, 600)
    before = renderer.render(windows("before"))
    shown = before.copy()
    after = renderer.render(windows("after"))
    assert after is not before and np.array_equal(before, shown) and not after.flags.writeable
    assert np.array_equal(after, Renderer(1080, 600).render(windows("after")))
    assert renderer.render(windows("after")) is after  # nothing changed: the same frame
    assert renderer.render(windows("before")) is before  # the frame before, kept: shown again, not drawn
    assert np.array_equal(before, shown)
    assert np.array_equal(renderer.render(windows("again")), Renderer(1080, 600).render(windows("again")))



def test_the_frame_pushed_out_is_drawn_over_only_when_nothing_else_holds_it() -> None:
    """The kept frame that a new one pushes out becomes the new one when only the renderer holds it (its memory is
    written again); one held elsewhere (a view of it, an observation) keeps its pixels and a new frame is made."""
    def windows(label: str) -> dict[str, tuple[View, tuple[int, int, int]]]:
        tree = column(text_view(label), View(height=40, background=(90, 0, 0)), background=(200, 230, 255))
        layout(tree, 0, 0, 300, 200)
        return {"window": (tree, WHITE)}

    renderer = Renderer(300, 200)
    first = weakref.ref(renderer.render(windows("first")))
    renderer.render(windows("second"))
    third = renderer.render(windows("third"))
    assert third is first() and not third.flags.writeable
    assert np.array_equal(third, Renderer(300, 200).render(windows("third")))
    held = renderer.render(windows("fourth"))[50:]  # a view of the fourth frame
    shown = held.copy()
    for label in ("fifth", "sixth", "seventh"):
        frame = renderer.render(windows(label))
        assert np.array_equal(frame, Renderer(300, 200).render(windows(label)))
        assert frame is not held.base and np.array_equal(held, shown)


def _halves(left: str, right: str) -> dict[str, tuple[View, tuple[int, int, int]]]:
    """Two windows side by side on a 300x200 screen, each showing its label (none across the whole width)."""
    trees = {"left": (column(text_view(left), View(height=30, background=(0, 90, 0))), (0, 0, 150, 200)),
             "right": (column(View(height=60), text_view(right), background=(200, 230, 255)), (150, 0, 300, 200))}
    for tree, (x1, y1, x2, y2) in trees.values():
        layout(tree, x1, y1, x2 - x1, y2 - y1)
    return {name: (tree, WHITE) for name, (tree, _) in trees.items()}


def test_a_frame_pushed_out_and_drawn_over_is_brought_up_to_date_where_it_was_stale() -> None:
    """Recycled frames are copied from the current one only where they differ from it: after changes in one half of
    the screen or the other (none across the whole width), a kept frame shown again, and frames recycled before and
    after it, each frame is the one drawn on a blank screen."""
    renderer = Renderer(300, 200)
    drawn = set()
    for labels in [("a", "b"), ("c", "b"), ("c", "d"), ("c", "b"), ("e", "b"), ("e", "f"), ("g", "f"), ("e", "f"),
                   ("e", "h"), ("i", "j")]:
        frame = renderer.render(_halves(*labels))
        drawn.add(id(frame))
        assert np.array_equal(frame, Renderer(300, 200).render(_halves(*labels))), labels
    assert len(drawn) == 2  # the same two arrays, each drawn over in turn


def test_the_frame_shown_is_twinned_in_the_kept_frame_nothing_else_holds() -> None:
    """``twin`` shows the same screen in the kept frame, brought up to date where it was stale (in a new frame when
    none is kept, or the kept one is held elsewhere), and keeps the one it replaces: the two take turns, and what is
    drawn next is as drawn on a blank screen. A frame no longer shown is not twinned."""
    renderer = Renderer(300, 200)
    first = renderer.render(_halves("a", "b"))
    twin = renderer.twin(first)  # no kept frame yet: a new one
    assert np.array_equal(twin, first) and not np.shares_memory(twin, first) and not twin.flags.writeable
    renderer.render(_halves("c", "b"))
    shown = renderer.render(_halves("c", "d"))
    pixels = shown.copy()
    twin = renderer.twin(shown)
    assert not np.shares_memory(twin, shown) and not twin.flags.writeable
    assert np.array_equal(twin, pixels) and np.array_equal(shown, pixels)
    assert renderer.render(_halves("c", "d")) is twin and renderer.twin(shown) is None  # no longer the one shown
    kept = weakref.ref(shown)
    again = renderer.twin(twin)  # the kept frame, ``shown``, is held here: a new one
    assert again is not kept() and np.array_equal(again, pixels) and not np.shares_memory(again, twin)
    del shown, first
    kept = weakref.ref(twin)
    del twin
    again = renderer.twin(again)
    assert again is kept() and np.array_equal(again, pixels)  # taking turns, nothing stale
    for labels in [("e", "d"), ("c", "d"), ("e", "f")]:
        frame = renderer.render(_halves(*labels))
        assert np.array_equal(frame, Renderer(300, 200).render(_halves(*labels))), labels
        del again
        again = renderer.twin(frame)
        assert again is not None and np.array_equal(again, frame) and not np.shares_memory(again, frame)


def _stacked(**trees: View) -> dict[str, tuple[View, tuple[int, int, int]]]:
    """Windows 300 px wide stacked top down in the order given, each laid out at its own height (its ``height``)."""
    top = 0
    for tree in trees.values():
        layout(tree, 0, top, 300, tree.height)
        top += tree.height
    return {name: (tree, WHITE) for name, tree in trees.items()}


def _drawn_boxes(renderer: Renderer, monkeypatch) -> list[tuple[int, int, int, int]]:
    """The boxes ``renderer`` draws from now on (``Renderer._draw_box``), in order."""
    boxes: list[tuple[int, int, int, int]] = []
    draw_box = renderer._draw_box

    def noted(frame: np.ndarray, painted: list, ground: tuple[int, int, int], box: tuple[int, int, int, int]) -> None:
        boxes.append(box)
        draw_box(frame, painted, ground, box)

    monkeypatch.setattr(renderer, "_draw_box", noted)
    return boxes


def test_a_small_window_drawn_whole_again_is_pasted_from_its_kept_pixels(monkeypatch) -> None:
    """A keyboard that comes back under other screens is not drawn again but pasted as it was drawn, and so are the
    bar's colours (a window is kept by what it shows, per window; the bar's many looks push out only its own); every
    frame is the one drawn on a blank screen."""
    def windows(label: str, keys: bool, bar: tuple[int, int, int] = (30, 30, 90)) -> dict:
        trees = {"bar": column(text_view("12:00"), height=20, background=bar),
                 "app": column(text_view(label), View(height=50, background=(90, 0, 0)), height=280 if keys else 380)}
        if keys:
            trees["keys"] = column(row(button("q", lambda: None), button("w", lambda: None)), height=100,
                                   background=(220, 220, 220))
        return _stacked(**trees)

    renderer = Renderer(300, 400)
    boxes = _drawn_boxes(renderer, monkeypatch)
    bar, keys = (0, 0, 300, 20), (0, 300, 300, 400)
    green, blue = (0, 90, 0), (30, 30, 90)
    for label, shows_keys, color, drawn in [("a", True, blue, [bar, keys]), ("b", False, green, [bar]),
                                            ("c", False, blue, []), ("d", True, green, []), ("e", False, green, []),
                                            ("f", True, blue, [])]:
        boxes.clear()
        frame = renderer.render(windows(label, shows_keys, color))
        assert np.array_equal(frame, _drawn_afresh(windows(label, shows_keys, color))), label
        # (without the keyboard, its box is the app's rows it showed: drawn as the app's window grows there)
        assert [box for box in boxes if box == bar or shows_keys and box == keys] == drawn, label
        assert any(top == 20 for _, top, _, _ in boxes), label  # the app window is drawn, whole or in part
    # the app's window drawn whole once, first (kept), then in part (its label, the rows the keyboard leaves)
    assert {name: len(looks.kept) for name, looks in render._WINDOW_LOOKS.items()} == {"bar": 2, "app": 1, "keys": 1}
    for red in range(100):  # the bar's looks, many, push out its own (kept small: many fit), not the keyboard's
        renderer.render(windows("f", True, (red, 0, 0)))
    looks = render._WINDOW_LOOKS
    assert len(looks["keys"].kept) == 1 and len(looks["bar"].kept) == render._KEPT_LOOKS
    assert looks["bar"].bytes < render._KEPT_LOOKS * 18_000 / 3  # a third of the bars' pixels (300 x 20)


def test_small_windows_looks_are_shared_by_the_renderers_of_a_process_of_the_same_size(monkeypatch) -> None:
    """A second phone's renderer of the same size pastes the bar, app window and keyboard the first one drew; one of
    another size draws its own; a window that shows a picture is not kept (its key names its pixels on one phone
    only)."""
    def windows(picture: bool = False) -> dict:
        bar = column(text_view("12:00"), height=20, background=(30, 30, 90))
        if picture:
            bar.children.append(image_view(Image.new("RGB", (4, 4), (9, 0, 0)), "photo", height=4))
        return _stacked(bar=bar, app=column(text_view("a"), height=280),
                        keys=column(row(button("q", lambda: None)), height=100, background=(220, 220, 220)))

    def drawn(size: tuple, picture: bool = False) -> list[tuple[int, int, int, int]]:
        """The boxes a new renderer of ``size`` draws, its frame checked against another's."""
        renderer = Renderer(*size)
        boxes = _drawn_boxes(renderer, monkeypatch)
        assert np.array_equal(renderer.render(windows(picture)), _drawn_afresh(windows(picture), *size))
        return boxes

    bar, keys = (0, 0, 300, 20), (0, 300, 300, 400)
    assert drawn((300, 400)) == [bar, (0, 20, 300, 300), keys]
    assert drawn((300, 400)) == []  # every window pasted
    assert len(drawn((600, 800, 2.0))) == 3
    looks = len(render._WINDOW_LOOKS["bar"].kept)
    assert drawn((300, 400), picture=True) == [bar] and len(render._WINDOW_LOOKS["bar"].kept) == looks


def _listed(ground: tuple[int, int, int], selected: int | None = None) -> dict:
    """A bar over an app's window of ``ground`` listing four rows, each with a switch, ``selected``'s on."""
    rows = [row(text_view(f"Row {i}"), View(weight=1), toggle(i == selected, height=60), height=80) for i in range(4)]
    return _stacked(bar=column(text_view("12:00"), height=20, background=(30, 30, 90)),
                    app=column(*rows, height=380, background=ground))


def test_a_large_window_shown_again_is_pasted_from_its_kept_rows_whole_or_in_part(monkeypatch) -> None:
    """An app's window drawn whole and shown again past the frame kept is pasted from its kept rows, not drawn; and
    back to it from a look that differs from it in part (a switch turned), only the boxes that changed are pasted
    from them; every frame is the one drawn afresh."""
    renderer = Renderer(300, 400)
    boxes = _drawn_boxes(renderer, monkeypatch)
    bar, app = (0, 0, 300, 20), (0, 20, 300, 400)
    grey, blue, green = (250, 250, 250), (200, 220, 255), (210, 255, 210)
    for ground, selected, drawn in [(grey, None, [bar, app]), (blue, None, [app]), (green, None, [app]),
                                    (grey, None, []),  # pasted whole (the frame kept shows the blue one)
                                    (grey, 1, None), (grey, 2, None),  # drawn in part: the rows of the switches
                                    (grey, None, [])]:  # the second and third rows pasted
        boxes.clear()
        frame = renderer.render(_listed(ground, selected))
        assert np.array_equal(frame, _drawn_afresh(_listed(ground, selected))), (ground, selected)
        if drawn is None:
            assert boxes and app not in boxes, (ground, selected)
        else:
            assert boxes == drawn, (ground, selected)
    looks = render._WINDOW_LOOKS["app"]
    assert len(looks.kept) == 3 and looks.bytes < 3 * 300 * 380 * 3 * 0.8  # the rows alike kept once


def test_a_large_window_is_pasted_only_for_the_same_views_background_theme_and_screen(monkeypatch) -> None:
    """A window's kept look is pasted by a renderer showing the same views over the same background in the same
    theme on a screen of the same size and density; any of them other draws it (and its frame is the one drawn
    afresh)."""
    grey, night = (250, 250, 250), {"app": {PRIMARY: (255, 0, 0)}}
    Renderer(300, 400).render(_listed(grey, 1))
    for windows, screen, palettes, drawn in [
            (_listed(grey, 1), (300, 400, 1.0), None, False),
            (_listed(grey, 2), (300, 400, 1.0), None, True),  # other views
            (_listed((255, 250, 250), 1), (300, 400, 1.0), None, True),  # another background
            (_listed(grey, 1), (300, 400, 1.0), night, True),  # another theme's widget colours (the switch's)
            (_listed(grey, 1), (600, 800, 2.0), None, True),  # another size
            (_listed(grey, 1), (300, 400, 1.5), None, True)]:  # another density
        renderer = Renderer(*screen)
        boxes = _drawn_boxes(renderer, monkeypatch)
        frame = renderer.render(windows, palettes)
        assert np.array_equal(frame, _drawn_afresh(windows, *screen, palettes)), (screen, palettes)
        assert any(top == round(20 * screen[2]) for _, top, _, _ in boxes) == drawn, (screen, palettes)


def test_a_window_the_kept_frame_shows_as_it_is_now_is_taken_from_it(monkeypatch) -> None:
    """Back to the screen before with another status bar: the app's window is copied from the frame kept (or, when
    that frame is the one drawn over, left as it is there), only the bar is drawn; each frame is the one drawn on a
    blank screen, and a frame held elsewhere stays as it was."""
    def windows(label: str, clock: str) -> dict:
        return _stacked(bar=column(text_view(clock), height=40, background=(30, 30, 90)),
                        app=column(text_view(label), View(height=50, background=(90, 0, 0)), height=360))

    renderer = Renderer(300, 400)
    boxes = _drawn_boxes(renderer, monkeypatch)
    bar, held = (0, 0, 300, 40), None
    for i, (label, clock) in enumerate([("a", "12:00"), ("b", "12:00"), ("a", "12:01"), ("b", "12:02"),
                                        ("a", "12:03"), ("b", "12:04")]):
        boxes.clear()
        frame = renderer.render(windows(label, clock))
        assert np.array_equal(frame, Renderer(300, 400).render(windows(label, clock))), (label, clock)
        if i == 1:  # the app's text changed: drawn in part, the bar as it was
            assert boxes and bar not in boxes
        else:  # from the third on, the app's window is the kept frame's, the bar is drawn
            assert boxes == ([bar, (0, 40, 300, 400)] if i == 0 else [bar]), (label, clock)
        if i == 3:  # the frame kept next is held: not drawn over, the one after it copies from it
            held, shown = frame, frame.copy()
    assert held is not None and np.array_equal(held, shown)


def test_each_window_draws_its_widgets_in_its_own_theme() -> None:
    """Windows drawn in one frame each take their own palette: a switch's thumb in the top window's accent colour,
    the one below it in the light theme's, each as the window drawn on its own."""
    def windows(names: tuple[str, ...]) -> dict[str, tuple[View, tuple[int, int, int]]]:
        shown = {}
        for top, name in enumerate(names):
            tree = column(toggle(True, height=100))
            layout(tree, 0, 100 * top, 300, 100)
            shown[name] = (tree, WHITE)
        return shown

    palettes = {"night": {PRIMARY: (255, 0, 0)}}
    both = Renderer(300, 200).render(windows(("night", "day")), palettes)
    assert np.array_equal(both[:100], Renderer(300, 200).render(windows(("night",)), palettes)[:100])
    assert np.array_equal(both[100:], Renderer(300, 200).render(windows(("morning", "day")))[100:])
    assert not np.array_equal(both[:100], both[100:])


def _side_by_side(view: View) -> View:
    """``view`` near the left of a row between boxes of other colours, a box and a label far to its right."""
    return column(View(height=150, background=(0, 90, 0)),
                  row(View(width=60), view, View(weight=1), View(width=100, height=80, background=(200, 230, 255)),
                      text_view("right"), height=200),
                  View(height=150, background=(90, 0, 0)))


def _overlapping(first: View, second: View, label: str) -> View:
    return column(frame(first, second, height=200), View(height=200), text_view(label))


@pytest.mark.parametrize(("before", "after"), [
    # a switch track is taller than its short row: it paints the rows around it
    (lambda: column(View(height=300), toggle(False, height=20, text_size=10)),
     lambda: column(View(height=300), toggle(True, height=20, text_size=10))),
    # two stacked views trade places while a label far below changes: the stack is drawn again too
    (lambda: _overlapping(View(background=(255, 0, 0), height=150), View(background=(0, 0, 255), height=80), "a"),
     lambda: _overlapping(View(background=(0, 0, 255), height=80), View(background=(255, 0, 0), height=150), "b")),
    # a dialog that shrinks: its shadow (24 dp) reaches further below it than a line of its small text
    (lambda: column(View(height=100), View(height=100, elevation=63, background=(200, 200, 200), text_size=20)),
     lambda: column(View(height=100), View(height=60, elevation=63, background=(200, 200, 200), text_size=20))),
    # a card that becomes a bottom sheet: only which corners it rounds changes
    (lambda: column(View(height=100), View(height=200, background=(90, 90, 90), corner=42)),
     lambda: column(View(height=100), View(height=200, background=(90, 90, 90), corner=42, corners=TOP_CORNERS))),
    # a narrow label whose text runs far past its right edge, over a box beside it, is shortened
    (lambda: _side_by_side(View(kind="label", hint="A label far too long for its view", width=120, height=80)),
     lambda: _side_by_side(View(kind="label", hint="Short", width=120, height=80))),
    # a button whose title is wider than it changes its title
    (lambda: _side_by_side(button("A title far too long for it", lambda: None, width=200, text_color=(0, 0, 0))),
     lambda: _side_by_side(button("Another title too long", lambda: None, width=200, text_color=(0, 0, 0)))),
    # a card with a deep shadow rounds its corners: its shadow beside it changes too
    (lambda: _side_by_side(View(width=400, height=80, elevation=63, background=(230, 230, 230))),
     lambda: _side_by_side(View(width=400, height=80, elevation=63, background=(230, 230, 230), corner=40))),
    # two views far apart change, one in the top left corner, one in the bottom right
    (lambda: column(row(text_view("a"), View(weight=1)), View(height=300), row(View(weight=1), text_view("b"))),
     lambda: column(row(text_view("c"), View(weight=1)), View(height=300), row(View(weight=1), text_view("d")))),
])
def test_a_window_redrawn_in_part_looks_as_drawn_whole(before, after) -> None:
    incremental, whole = _drawn_after(before(), after())
    assert np.array_equal(incremental, whole)


@pytest.mark.parametrize("root", [None, (250, 250, 250), (200, 0, 0)])
def test_a_window_that_grows_where_another_was_fills_it_with_its_background(monkeypatch, root) -> None:
    """A keyboard goes and the app's window grows over where it was: the app's views are the same, its root (which
    paints nothing itself, or its background) is taller, and the rows the keyboard showed are the app's background;
    only they are drawn. A keyboard comes back: the app's window shrinks and draws nothing, the keyboard is drawn."""
    def windows(keyboard: bool, key: str = "q") -> dict[str, tuple[View, tuple[int, int, int]]]:
        app = column(text_view("Note"), View(height=100, background=(200, 230, 255)), background=root)
        layout(app, 0, 0, 1080, 400 if keyboard else 600)
        shown = {"app": (app, (250, 250, 250))}
        if keyboard:
            keys = row(text_view(key), text_view("w"), background=(90, 90, 90))
            layout(keys, 0, 400, 1080, 200)
            shown["keyboard"] = (keys, (90, 90, 90))
        return shown

    renderer = Renderer(1080, 600)
    renderer.render(windows(True))
    boxes = _drawn_boxes(renderer, monkeypatch)
    for keyboard, key in ((False, ""), (True, "e")):
        boxes.clear()
        frame = renderer.render(windows(keyboard, key))
        assert np.array_equal(frame, Renderer(1080, 600).render(windows(keyboard, key)))
        assert boxes == [(0, 400, 1080, 600)], keyboard  # the app's rows the keyboard showed, or the keyboard


def test_a_change_to_a_box_that_paints_nothing_draws_nothing() -> None:
    """A row without a background, elevation or picture changes its description (a selection state that shows only in
    the dump): the frame is the one before; the same change to a row with a background draws a new one."""
    def window(description: str, background: tuple[int, int, int] | None) -> dict[str, tuple[View, tuple]]:
        tree = column(row(text_view("Groceries"), content_desc=description, background=background), View(height=90))
        layout(tree, 0, 0, 1080, 600)
        return {"window": (tree, WHITE)}

    for background, drawn in ((None, False), ((230, 230, 230), True)):
        renderer = Renderer(1080, 600)
        before = renderer.render(window("Groceries", background))
        assert (renderer.render(window("Groceries, selected", background)) is not before) == drawn


def test_views_changed_far_apart_are_redrawn_in_a_box_each(monkeypatch) -> None:
    """Two labels change, one at each end of a row: two boxes around them are drawn, not the rows across."""
    def labels(left: str, right: str) -> View:
        return column(View(height=100, background=(0, 90, 0)),
                      row(text_view(left, width=150), View(weight=1), text_view(right, width=150)),
                      View(height=100, background=(90, 0, 0)))

    drawn = []
    draw = Renderer._draw_box
    monkeypatch.setattr(Renderer, "_draw_box", lambda self, frame, painted, background, box: drawn.append(box) or draw(
        self, frame, painted, background, box))
    incremental, whole = _drawn_after(labels("a", "b"), labels("c", "d"))
    assert np.array_equal(incremental, whole)
    assert len(drawn) == 4 and drawn[0] == drawn[3] == (0, 0, 1080, 600)  # the first frame and the one drawn whole
    assert all(right - left < 300 for left, _, right, _ in drawn[1:3])


def _center(phone: Phone, label: str) -> tuple[float, float]:
    element = next(e for e in parse_ui_dump(phone.ui_dump()) if label in (e.text, e.content_description))
    return element.bbox_pixels.center


@pytest.mark.parametrize("size", [(1080, 2400), (540, 1200)])
def test_rgba_frames_are_the_screen_and_opaque_at_every_size(size: tuple[int, int]) -> None:
    phone = Phone(*size)
    try:
        rgba = np.frombuffer(phone.screenshot_rgba(), np.uint8).reshape(size[1], size[0], 4)
        assert np.array_equal(rgba[..., :3], phone.screenshot()) and (rgba[..., 3] == 255).all()
    finally:
        phone.close()


def test_rgba_frames_follow_the_screen_change_after_change_and_one_held_stays_as_it_was(phone: Phone) -> None:
    """Each RGBA frame is the screen widened, whether its buffer is new, rewritten only in the rows the renderer
    changed since the frame it held (a tab's content below a toolbar), or rewritten whole (a frame shown again,
    back): one held meanwhile (being sent) is left as it was."""
    width, height = phone.screen_size
    held = []
    for number, command in enumerate(["monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1",
                                      *(f"input tap {x} 2170" for x in (135, 675, 945, 405, 135)),
                                      "input keyevent 4", "input keyevent 3", "input tap 540 1200"]):
        phone.run(command)
        rgba = phone.screenshot_rgba()
        widened = np.frombuffer(rgba, np.uint8).reshape(height, width, 4)
        assert np.array_equal(widened[..., :3], phone.screenshot()) and (widened[..., 3] == 255).all(), command
        if number % 3 == 0:
            held.append((rgba, bytes(rgba)))
    assert all(view == shown for view, shown in held)


@pytest.mark.parametrize(("task", "size"), [("SimpleSmsReply", (540, 1200)), ("ExpenseDeleteMultiple2", (270, 600))])
def test_a_small_screen_looks_the_same_cached_and_uncached_and_run_after_run(task: str, size: tuple[int, int]) -> None:
    cached = _look_per_step(SimDevice(*size), task, seed=1)
    assert cached == _look_per_step(_UncachedDevice(*size), task, seed=1)
    assert cached == _look_per_step(SimDevice(*size), task, seed=1)
