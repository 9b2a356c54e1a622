"""What a step observes does not depend on the caches behind it: over seeded random-valid runs, an env on the
simulated phone as it is (frames kept until they go stale, touches and commands that change nothing building
nothing, elements read from the dumped views, database reads kept while the bytes stay, the foreground app told
without ``dumpsys``, a task's check not run again while what it read reads the same) sees the same dumps,
elements, scores and flags as one whose every look builds the frame afresh and parses the dump."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest
from walks import AwayFromChrome

from android_gym.agents import RandomValidAgent
from android_gym.device import sim, state
from android_gym.device.sim import SimDevice, elements_of
from android_gym.sim import keycodes
from android_gym.sim.framework.window import WindowManager
from android_gym.sim.phone import Phone
from android_gym.sim.ui.hierarchy import written
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.views import View, column, text_view
from android_gym.ui import parse_ui_dump


class _FreshDevice(SimDevice):
    """Every look at the screen builds the frame afresh; the env parses the dump (no elements from the views), the
    foreground app is read from ``dumpsys window``, settings and folders through the shell, and the task's check runs
    after every step that reached the phone (nothing notes what it read)."""

    ui_elements = None
    focused_activity = None
    setting = None
    tree_read = None
    noting = None

    def ui_dump(self) -> str:
        self.phone.invalidate()
        self.phone.window._navs.clear()  # and the navigation bars kept by what they show
        self.phone.window._app_trees.clear()  # and the apps' laid-out trees kept by shape
        self.phone.window._stamped.clear()  # and those kept by what their screens tell they show
        return super().ui_dump()


class _ShellOnly:
    """A device's shell alone: what ``state`` reads from a phone that tells nothing without it."""

    def __init__(self, device: SimDevice) -> None:
        self.shell = device.shell


def _run(device: SimDevice, task: str, steps: int, seed: int, chrome: bool = False) -> list[tuple[Any, ...]]:
    """Per step of the seeded random-valid policy: the tree, the elements, the reward and the flags. The policy
    opens Chrome only if ``chrome`` (``AwayFromChrome``)."""
    env = gym.make(f"AndroidWorld/{task}-v0", device=device, pixels=False)
    agent = RandomValidAgent(seed=seed) if chrome else AwayFromChrome(RandomValidAgent(seed=seed))
    observation, info = env.reset(seed=seed)
    agent.reset(env)
    seen = []
    for _ in range(steps):
        observation, reward, terminated, truncated, info = env.step(agent.act(observation, info))
        seen.append((observation["a11y_tree"], info["ui_elements"], reward, terminated, truncated))
        if terminated or truncated:
            observation, info = env.reset()
            agent.reset(env)
    env.close()
    return seen


# The walk in Pro Expense goes to Chrome too (in the others it would cost most of their time).
@pytest.mark.parametrize(("task", "chrome"), [("SendSms", False), ("ExpenseDeleteMultiple2", True),
                                              ("MarkorCreateNote", False), ("SystemWifiTurnOffVerifyReport", False),
                                              ("ContactsAddContact", False)])
def test_cached_and_fresh_steps_see_the_same(task: str, chrome: bool) -> None:
    cached = _run(SimDevice(), task, steps=250, seed=5, chrome=chrome)
    assert len({tree for tree, *_ in cached}) > 10  # the run went through many screens
    assert cached == _run(_FreshDevice(), task, steps=250, seed=5, chrome=chrome)


@pytest.mark.parametrize(("task", "size"), [("SendSms", (1080, 2400)), ("ExpenseDeleteMultiple2", (540, 1200)),
                                            ("MarkorCreateNote", (1080, 2400)), ("SimpleCalendarAddOneEvent",
                                                                                  (720, 1280))])
def test_elements_and_focus_read_from_the_views_are_the_parsed_dumps(task: str, size: tuple[int, int],
                                                                    monkeypatch) -> None:
    monkeypatch.setattr(sim, "_KNOWN_DUMP_CHARS", 30_000)  # a few screens' dumps: elements kept, others made again
    device = SimDevice(*size)
    env = gym.make(f"AndroidWorld/{task}-v0", device=device, pixels=False)
    agent = AwayFromChrome(RandomValidAgent(seed=2))
    observation, info = env.reset(seed=2)
    agent.reset(env)
    screens = set()
    for _ in range(150):
        observation, _, terminated, truncated, info = env.step(agent.act(observation, info))
        xml = device.ui_dump()
        assert list(device.ui_elements(xml)) == parse_ui_dump(xml) == info["ui_elements"]
        assert state.foreground_activity(device) == state.foreground_activity(_ShellOnly(device))
        assert sum(map(len, device._known)) == device._known_chars <= 30_000  # the dumps kept stay within budget
        screens.add(xml)
        if terminated or truncated:
            observation, info = env.reset()
            agent.reset(env)
    env.close()
    assert len(screens) > 10 and sum(map(len, screens)) > 60_000  # more than the budget holds


def test_a_setting_read_without_the_shell_is_what_the_command_prints() -> None:
    device = SimDevice()
    try:
        state.settings_put(device, "secure", "odd key", " va'l ue; $HOME ")
        for namespace, key in [("global", "wifi_on"), ("System", "screen_brightness"), ("secure", "odd key"),
                               ("system", "no_such_key"), ("nowhere", "wifi_on"), ("global", "--user"), ("global", "")]:
            assert state.settings_get(device, namespace, key) == state.settings_get(_ShellOnly(device), namespace, key)
        assert state.settings_get(device, "secure", "odd key") == "va'l ue; $HOME"
    finally:
        device.close()

def test_texts_the_dump_rewrites_read_back_as_parsed() -> None:
    texts = ["two\r\nlines\rand\na\ttab", "a & b < c > \"d\" 'e'", "bell\x07 and \ufffe", "naïve ☕ 日本 😀", "", " "]
    root = column(*[text_view(text, content_desc=text[::-1], resource_id=f"id/{i}") for i, text in enumerate(texts)],
                  checkable=1, scrollable=True)
    root.children.append(View(width=0))  # empty bounds: not dumped
    layout(root, 0, 0, 1080, 2400)
    xml, nodes = written(root, "org.example")
    assert list(elements_of(nodes, "org.example")) == parse_ui_dump(xml)


def test_nodes_alike_share_their_immutable_element_and_others_do_not() -> None:
    """Elements are made once per node's attributes (kept in an LRU): the same node in the next dump is the same
    object, a node that differs in anything (its bounds, even by the type of a number) gets its own."""
    root = column(text_view("same"), text_view("same"), checkable=True)
    layout(root, 0, 0, 1080, 2400)
    first = list(elements_of(written(root, "org.example")[1], "org.example"))
    again = list(elements_of(written(root, "org.example")[1], "org.example"))
    assert all(a is b for a, b in zip(first, again)) and first[1] is not first[2]
    assert first == parse_ui_dump(written(root, "org.example")[0])
    view = text_view("x")
    node = written(view, "org.example")[1][0]
    ints, floats = (list(elements_of([(view, 0, box, node[3])], "org.example"))
                    for box in ((0, 0, 9, 9), (0.0, 0.0, 9.0, 9.0)))
    assert type(ints[0].bbox_pixels.x_max) is int and type(floats[0].bbox_pixels.x_max) is float


def _center(phone: Phone, label: str) -> tuple[float, float]:
    element = next(e for e in parse_ui_dump(phone.ui_dump()) if label in (e.text, e.content_description))
    return element.bbox_pixels.center


def _fresh_dump(phone: Phone) -> str:
    phone.invalidate()
    return phone.ui_dump()


def test_a_touch_that_changes_nothing_builds_nothing(phone: Phone) -> None:
    icon = next(e for e in parse_ui_dump(phone.ui_dump()) if e.is_long_clickable)
    x1, y1, x2, y2 = next(v for v in phone.window.frame().nav_bar.walk() if v.content_desc == "Overview").bounds
    built = phone.window.frame()
    phone.long_press(*icon.bbox_pixels.center)  # the launcher takes the long press and does nothing
    phone.tap((x1 + x2) / 2, (y1 + y2) / 2)  # nor does this navigation button
    assert phone.window.frame() is built
    phone.tap(*icon.bbox_pixels.center)  # a click that opens the app: built again
    assert phone.window.frame() is not built


def test_a_tap_on_the_field_that_has_the_focus_builds_nothing(phone: Phone) -> None:
    """Focused with the keyboard up and the caret at the end, outside any list: a tap on the field again changes
    nothing; once the keyboard is down (BACK), a tap on it shows the keyboard again."""
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    field = next(e for e in parse_ui_dump(phone.ui_dump()) if e.class_name == "android.widget.EditText")
    phone.tap(*field.bbox_pixels.center)
    built, dump = phone.window.frame(), phone.ui_dump()
    assert 'focused="true"' in dump and phone.window.frame().keyboard is not None
    phone.tap(*field.bbox_pixels.center)
    assert phone.window.frame() is built and phone.ui_dump() is dump == _fresh_dump(phone)
    phone.key(keycodes.BACK)  # the keyboard goes down, the field keeps the focus
    assert phone.window.frame().keyboard is None
    phone.tap(*field.bbox_pixels.center)
    assert phone.window.frame().keyboard is not None and phone.ui_dump() == dump


def test_a_list_dragged_past_its_end_is_not_built_again(phone: Phone) -> None:
    phone.run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    x, y = _center(phone, "Network & internet")
    built = phone.window.frame()
    phone.swipe(x, y, x, y + 600)  # down at the top
    assert phone.window.frame() is built
    for _ in range(20):
        phone.swipe(x, 1800, x, 600)  # to the end, and on
    built, dump = phone.window.frame(), phone.ui_dump()
    phone.swipe(x, 1800, x, 600)
    assert phone.window.frame() is built and phone.ui_dump() is dump == _fresh_dump(phone)
    phone.swipe(x, 600, x, 1800)  # back up: it moves
    assert phone.ui_dump() != dump


def test_a_focused_field_is_revealed_as_in_a_tree_built_afresh(monkeypatch) -> None:
    """The rows a field is scrolled into view by are measured in a copy of the frame's tree taken before layout; a
    tree built again from the app (as before) scrolls the lists to the same positions, whether they move or not."""
    reveal = WindowManager._scroll_focus_into_view
    moves = []

    def both(self: WindowManager, screen, content, unlaid) -> bool:
        kept = dict(screen.scroll)
        afresh = reveal(self, screen, content, self._content(screen, self.looks)), dict(screen.scroll)
        screen.scroll.clear()
        screen.scroll.update(kept)
        moved = reveal(self, screen, content, unlaid)
        assert (moved, screen.scroll) == afresh
        moves.append(moved)
        return moved

    monkeypatch.setattr(WindowManager, "_scroll_focus_into_view", both)
    _run(SimDevice(540, 960), "ExpenseDeleteMultiple2", steps=250, seed=2)  # a small screen: a form scrolls
    assert True in moves and False in moves
