"""Visit-count exploration hints: state and action keys without volatile detail, the counts, the hint, the bonus."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys

import pytest
from gymnasium.wrappers import FilterObservation
from lxml import etree

from android_gym.actions import Action, ActionType, InvalidAction
from android_gym.agents import OracleAgent
from android_gym.errors import AndroidGymError
from android_gym.testing import run_episode
from android_gym.ui import parse_ui_dump
from android_gym.wrappers.compression import compress_ui
from android_gym.wrappers.exploration import VisitCountHints, VisitCountHintsError, action_key, state_key

ACTIVITY = "com.example/.Main"
CLICK_SMS = 'click on TextView "SMS Messenger" <click,long-click>'


def _wrap(make_env, task: str = "SendSms", **kwargs) -> VisitCountHints:
    return VisitCountHints(make_env(f"AndroidWorld/{task}-v0", pixels=False), **kwargs)


def _tap(info, text: str) -> Action:
    """A click on the top-most element whose text or content description is ``text``."""
    return Action(ActionType.CLICK, index=[element.index for element in info["ui_elements"]
                                           if element.label == text and element.bbox_pixels.area > 0][-1])


def _row(observation, prefix: str) -> Action:
    """A click on the clickable kept node whose text starts with ``prefix``."""
    node = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values()
                if node.text.startswith(prefix) and "click" in node.actions)
    return Action(ActionType.CLICK, index=node.index)


def _step(env, action):
    observation, reward, terminated, truncated, info = env.step(action)
    assert env.observation_space.contains(observation)
    return observation, reward, info


def _key(xml: str, **options) -> str:
    return state_key(compress_ui(xml), ACTIVITY, **options)


def _edited(xml: str, edit) -> str:
    """``xml`` after ``edit(root)``."""
    root = etree.fromstring(xml.encode())
    edit(root)
    return etree.tostring(root, encoding="unicode")


def _set(xpath: str, **attributes):
    """An edit setting ``attributes`` on every node ``xpath`` matches (at least one)."""
    def edit(root):
        nodes = root.xpath(xpath)
        assert nodes, f"nothing matches {xpath}"
        for node in nodes:
            for name, value in attributes.items():
                node.set(name, value)
    return edit


def _move(root) -> None:
    """Every node 9 px further right and down."""
    for node in root.iter("node"):
        x1, y1, x2, y2 = (int(value) + 9 for value in re.findall(r"-?\d+", node.get("bounds")))
        node.set("bounds", f"[{x1},{y1}][{x2},{y2}]")


# ----- state keys ---------------------------------------------------------------------------------------------
def test_the_same_screen_reached_twice_has_the_same_key_and_is_counted(make_env):
    env = _wrap(make_env)
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    assert observation["exploration_hint"] == "You have already been in the current state 1 time (counting this visit)."
    icon = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values() if node.text == "SMS Messenger")
    states, visits = [info["visit_counts"]["state"]], [info["visit_counts"]["state_visits"]]
    for action in (_tap(info, "SMS Messenger"), Action(ActionType.NAVIGATE_BACK), _tap(info, "SMS Messenger")):
        observation, _, info = _step(env, action)
        states.append(info["visit_counts"]["state"])
        visits.append(info["visit_counts"]["state_visits"])
    home, sms = states[0], states[1]
    assert home != sms and states == [home, sms, home, sms]
    assert visits == [1, 1, 2, 2]
    assert observation["exploration_hint"].startswith("You have already been in the current state 2 times")
    assert observation["exploration_hint"].endswith(f'and taken your last action (click on [{icon.id}] TextView '
                                                    '"SMS Messenger") 2 times in the state where you took it.')


def test_the_same_screen_in_other_episodes_and_seeds_has_the_same_key_and_new_content_another(make_env):
    env = _wrap(make_env, "SimpleSmsReply")
    keys = {}
    for seed in (0, 1):
        observation, info = env.reset(seed=seed)
        keys[seed, "home"] = info["visit_counts"]["state"]
        for app in ("Settings", "SMS Messenger"):
            env.step(Action(ActionType.NAVIGATE_HOME))
            observation, _, info = _step(env, Action(ActionType.OPEN_APP, app_name=app))
            keys[seed, app] = info["visit_counts"]["state"]
    assert keys[0, "home"] == keys[1, "home"] and keys[0, "Settings"] == keys[1, "Settings"]
    assert keys[0, "SMS Messenger"] != keys[1, "SMS Messenger"]  # the seeds' conversations differ
    assert env.state_visits(keys[0, "home"]) == 2 + 4  # two resets, two HOME presses per episode
    assert env.state_visits(keys[0, "Settings"]) == 2


def test_flipping_a_switch_is_a_new_state_and_flipping_it_back_the_old_one(make_env):
    env = _wrap(make_env, per_candidate=True)  # not a Wi-Fi task: turning it off would end the episode
    observation, info = env.reset(seed=0)
    observation, _, info = _step(env, Action(ActionType.OPEN_APP, app_name="Settings"))
    for row in ("Network & internet", "Internet"):
        observation, _, info = _step(env, _row(observation, row))
    wifi_on = info["visit_counts"]["state"]
    switch = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values()
                  if node.class_name == "Switch")
    assert switch.actions == ("check",)
    observation, _, info = _step(env, Action(ActionType.CLICK, index=switch.index))
    wifi_off = info["visit_counts"]["state"]
    assert wifi_off != wifi_on
    observation, _, info = _step(env, _row(observation, "Wi-Fi"))
    assert info["visit_counts"]["state"] == wifi_on and info["visit_counts"]["state_visits"] == 2
    # a check-only switch is a click candidate, and the click on it was counted in the Wi-Fi-on state
    switch_line = next(line for line in observation["exploration_hint"].splitlines()
                       if line.startswith(f"[{switch.id}]"))
    assert switch_line.endswith(": click 1 time")


def test_the_key_ignores_bounds_focus_and_field_contents(make_env, launcher_dump):
    assert _key(launcher_dump) == _key(launcher_dump)
    moved = _edited(launcher_dump, _move)
    assert moved != launcher_dump and _key(moved) == _key(launcher_dump)
    focused = _edited(launcher_dump, _set("//node[@clickable='true']", focused="true"))
    assert _key(focused) == _key(launcher_dump)
    # a text field: what is typed into it is no new state; the SMS app's search field
    env = make_env("AndroidWorld/SendSms-v0", pixels=False)
    env.reset(seed=0)
    observation, *_ = env.step(Action(ActionType.OPEN_APP, app_name="sms"))
    sms = observation["a11y_tree"]
    typed = _edited(sms, _set("//node[contains(@class,'EditText')]", text="pizza", focused="true"))
    assert compress_ui(typed).to_text() != compress_ui(sms).to_text()
    assert _key(typed) == _key(sms)
    # but a changed label, a checked box, another activity are new states
    assert _key(_edited(launcher_dump, _set("//node[@text='Chrome']", text="Firefox"))) != _key(launcher_dump)
    unchecked = _edited(launcher_dump, _set("//node[@text='Chrome']", checkable="true", checked="false"))
    checked = _edited(launcher_dump, _set("//node[@text='Chrome']", checkable="true", checked="true"))
    assert len({_key(unchecked), _key(checked), _key(launcher_dump)}) == 3
    assert state_key(compress_ui(launcher_dump), "other/.Activity") != _key(launcher_dump)


def test_times_of_day_are_masked_by_default_and_every_number_on_request(launcher_dump):
    def saying(text):
        return _edited(launcher_dump, _set("//node[@text='Fri, Apr 21']", text=text))

    for earlier, later in (("15:34", "15:35"), ("3:34 PM", "3:35\u202fPM"), ("00:05.32", "00:07.91")):
        assert _key(saying(earlier)) == _key(saying(later))
        assert _key(saying(earlier), ignore_times=False) != _key(saying(later), ignore_times=False)
    assert _key(saying("Battery 99%")) != _key(saying("Battery 100%"))
    assert _key(saying("Battery 99%"), ignore_digits=True) == _key(saying("Battery 100%"), ignore_digits=True)
    assert _key(saying("15:34")) != _key(saying("Battery 15"))


def test_the_clock_minute_changing_on_the_phone_is_no_new_state(make_env):
    env = _wrap(make_env, "ClockStopWatchRunning")
    env.reset(seed=0)
    observation, _, info = _step(env, Action(ActionType.OPEN_APP, app_name="clock"))
    clock = info["visit_counts"]["state"]
    shown = [element.text for element in info["ui_elements"] if element.resource_name.endswith("digital_clock")]
    for visits in range(2, 200):
        observation, _, info = _step(env, Action(ActionType.WAIT))
        assert info["visit_counts"] == {"state": clock, "state_visits": visits, "action": "wait",
                                        "action_count": visits - 1}
        now = [element.text for element in info["ui_elements"] if element.resource_name.endswith("digital_clock")]
        if now != shown:
            break
    assert now != shown, "the clock never moved on"


def test_the_key_is_the_same_in_another_process(launcher_dump, tmp_path):
    dump = tmp_path / "dump.xml"
    dump.write_text(launcher_dump, encoding="utf-8")
    code = ("import sys; from android_gym.wrappers.compression import compress_ui; "
            "from android_gym.wrappers.exploration import state_key; "
            f"print(state_key(compress_ui(open(sys.argv[1]).read()), {ACTIVITY!r}))")
    output = subprocess.run([sys.executable, "-c", code, str(dump)], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": "12345"}).stdout.strip()
    assert output == _key(launcher_dump)


# ----- action keys --------------------------------------------------------------------------------------------
def test_an_action_key_does_not_depend_on_how_the_action_is_written(make_env):
    env = make_env("AndroidWorld/SendSms-v0", pixels=False)
    observation, info = env.reset(seed=0)
    size = env.unwrapped.device.screen_size
    elements, compressed = info["ui_elements"], compress_ui(observation["a11y_tree"])

    def key(action):
        return action_key(action, elements, compressed, screen_size=size)

    icon = _tap(info, "SMS Messenger")
    x, y = elements[icon.index].bbox_pixels.center
    assert {key(icon), key(icon.to_json()), key({"action_type": "click", "index": icon.index}),
            key(Action(ActionType.CLICK, x=x, y=y)),
            key({"action_type": 0, "index": -1, "touch_position": [x / size[0], y / size[1]]})} == {CLICK_SMS}
    assert key(Action(ActionType.LONG_PRESS, index=icon.index)) == CLICK_SMS.replace("click on", "long_press on")
    assert key(_tap(info, "Clock")) != CLICK_SMS
    assert {key(Action(ActionType.OPEN_APP, app_name=name)) for name in
            ("sms", "Messages", "com.simplemobiletools.smsmessenger")} == {
        "open_app com.simplemobiletools.smsmessenger"}
    assert key(Action(ActionType.SCROLL, direction="down")) == "scroll down" != key(
        Action(ActionType.SCROLL, direction="up"))
    assert key(Action(ActionType.CLICK, x=5, y=5)) == "click on nothing"  # no kept node up there
    for invalid in ("{not json", {"action_type": "click", "index": 999}, InvalidAction("no such mark"),
                    Action(ActionType.CLICK), Action(ActionType.OPEN_APP, app_name="Nope"),
                    Action(ActionType.UNKNOWN), Action(ActionType.CLICK, x=-1, y=3)):
        assert key(invalid) == "invalid"


def test_a_point_or_a_passive_element_acts_on_the_top_most_kept_node_that_takes_touch(launcher_dump):
    elements, compressed = parse_ui_dump(launcher_dump), compress_ui(launcher_dump)

    def key(action):
        return action_key(action, elements, compressed, screen_size=(1080, 1794))

    def at(resource_id):
        return next(element for element in elements if element.resource_name.endswith(f"/{resource_id}"))

    mic_x, mic_y = at("mic_icon").bbox_pixels.center
    assert key(Action(ActionType.CLICK, x=mic_x, y=mic_y)) == 'click on ImageView mic_icon "Voice search" <click>'
    assert key(Action(ActionType.CLICK, x=mic_x - 300, y=mic_y)) == 'click on "Search" <click,long-click>'
    # the G logo and the date text are not kept: a tap on them is a tap on the row they belong to, not on the
    # full-screen "Home" description that lies on top of everything but takes no touch
    assert key(Action(ActionType.CLICK, index=at("g_icon").index)) == 'click on "Search" <click,long-click>'
    assert key(Action(ActionType.LONG_PRESS, index=at("clock").index)) == 'long_press on "Fri, Apr 21" <click>'
    # a kept element named by index is itself the target, even with a kept child under its centre
    assert key(Action(ActionType.LONG_PRESS, index=at("smartspace_card_pager").index)) == \
        "long_press on ViewPager smartspace_card_pager <long-click>"


def test_typed_text_counts_by_field_not_content(make_env):
    env = make_env("AndroidWorld/SendSms-v0", pixels=False)
    env.reset(seed=0)
    observation, *_, info = env.step(Action(ActionType.OPEN_APP, app_name="sms"))
    size, elements = env.unwrapped.device.screen_size, info["ui_elements"]
    compressed = compress_ui(observation["a11y_tree"])
    field = next(node for node in compressed.nodes.values() if "edit" in node.actions)
    keys = {action_key(Action(ActionType.INPUT_TEXT, index=field.index, text=text), elements, compressed,
                       screen_size=size) for text in ("pizza", "Tom", "+1 555 0100")}
    assert keys == {"input_text on EditText top_toolbar_search <click,long-click,edit>"}
    # typing with no target goes to the focused field: the same action
    focused = parse_ui_dump(_edited(observation["a11y_tree"], _set("//node[contains(@class,'EditText')]",
                                                                    focused="true")))
    assert action_key(Action(ActionType.INPUT_TEXT, text="x"), focused, compressed, screen_size=size) in keys


# ----- counts, bonus, hint ------------------------------------------------------------------------------------
def test_counts_over_a_scripted_path_persist_across_episodes_until_reset_counts(make_env):
    env = _wrap(make_env)
    _, info = env.reset(seed=0)
    home = info["visit_counts"]["state"]
    back = Action(ActionType.NAVIGATE_BACK)
    counts, states = [], []
    for action in (_tap(info, "SMS Messenger"), back, _tap(info, "SMS Messenger"), back, back):
        _, _, step_info = _step(env, action)
        counts.append(step_info["visit_counts"]["action_count"])
        states.append(step_info["visit_counts"]["state"])
    sms = states[0]
    assert states == [sms, home, sms, home, home]
    assert counts == [1, 1, 2, 2, 1]  # the last BACK is the first on the home screen
    assert env.state_visits(home) == 4 and env.state_visits(sms) == 2
    assert env.action_count(home, CLICK_SMS) == 2 and env.action_count(sms, "navigate_back") == 2
    assert env.action_count(home, "navigate_back") == 1 and env.action_count(sms, CLICK_SMS) == 0

    _, info = env.reset(seed=1)  # another episode: the counts go on
    assert info["visit_counts"] == {"state": home, "state_visits": 5, "action": None, "action_count": 0}
    _, _, info = _step(env, _tap(info, "SMS Messenger"))
    assert info["visit_counts"]["action_count"] == 3 and info["visit_counts"]["state_visits"] == 3

    env.reset_counts()
    assert env.state_visits(home) == 0 and env.action_count(home, CLICK_SMS) == 0
    _, info = env.reset(seed=0)
    assert info["visit_counts"]["state_visits"] == 1


@pytest.mark.parametrize("bonus", [0.0, 0.5])
def test_the_bonus_is_beta_over_root_n_and_reaches_the_reward_only_when_on(make_env, bonus):
    env = _wrap(make_env, "AddContactThenText", bonus=bonus)  # a step budget of 20
    twin = make_env("AndroidWorld/AddContactThenText-v0", pixels=False)
    agent = OracleAgent()
    observation, info = env.reset(seed=3)
    twin.reset(seed=3)
    assert info["intrinsic_reward"] == 0.0
    agent.reset(env)
    actions = [Action(ActionType.WAIT)] * 3 + [InvalidAction("a bad mark")] * 2
    total = 0.0
    while True:
        action = actions.pop(0) if actions else agent.act(observation, info)
        observation, reward, terminated, truncated, info = env.step(action)
        twin_reward = twin.step(action)[1]
        count = info["visit_counts"]["action_count"]
        expected = 0.0 if bonus == 0 or info["invalid_action"] else bonus / math.sqrt(count)
        assert info["intrinsic_reward"] == expected
        assert reward == (twin_reward + expected if bonus else twin_reward)
        total += reward
        if terminated or truncated:
            break
    assert info["score"] == 1.0
    if bonus:  # three WAITs on the home screen: β, β/√2, β/√3
        assert total > 1.0 + bonus * (1 + 1 / math.sqrt(2) + 1 / math.sqrt(3))
    else:
        assert total == pytest.approx(1.0)


def test_the_per_candidate_hint_lists_every_actionable_kept_node(make_env):
    env = _wrap(make_env, per_candidate=True)
    observation, info = env.reset(seed=0)
    for action in (None, _tap(info, "SMS Messenger"), Action(ActionType.SCROLL, direction="down"), "{x"):
        if action is not None:
            observation, _, info = _step(env, action)
        lines = observation["exploration_hint"].splitlines()
        compressed = compress_ui(observation["a11y_tree"])
        actionable = [node for _, node in compressed.walk() if node.actions]
        assert actionable
        assert lines[1].startswith("How many times") and lines[-1].startswith("navigate_back: ")
        assert [line.split("]")[0] + "]" for line in lines[2:-1]] == [f"[{node.id}]" for node in actionable]
        for node, line in zip(actionable, lines[2:-1], strict=True):
            assert ("click " in line) == bool({"click", "check"} & set(node.actions))
            assert ("long_press " in line) == ("long-click" in node.actions)
            assert ("input_text " in line) == ("edit" in node.actions)
            assert ("scroll " in line) == ("scroll" in node.actions)
    # the app's screen was seen 3 times: after the tap on its icon, the scroll and the bad JSON
    assert observation["exploration_hint"].startswith("You have already been in the current state 3 times")
    assert "(an invalid action) 1 time" in lines[0]


def test_a_scroll_candidate_counts_scrolls_in_every_direction(make_env):
    env = _wrap(make_env, "SimpleSmsReply", per_candidate=True)
    env.reset(seed=0)
    observation, _, info = _step(env, Action(ActionType.OPEN_APP, app_name="settings"))  # a list longer than the screen
    listed = next(node for node in compress_ui(observation["a11y_tree"]).nodes.values() if "scroll" in node.actions)
    for direction in ("up", "down", "up", "up"):  # at its top: up leaves it there, down and up come back to it
        observation, _, info = _step(env, Action(ActionType.SCROLL, index=listed.index, direction=direction))
    assert info["visit_counts"]["action_count"] == 2  # scroll up at the top, the second time
    line = next(line for line in observation["exploration_hint"].splitlines() if line.startswith(f"[{listed.id}]"))
    assert line.endswith(": scroll 3 times")


def test_invalid_actions_are_counted_as_invalid_and_change_nothing(make_env):
    env = _wrap(make_env, bonus=1.0)
    _, info = env.reset(seed=0)
    home = info["visit_counts"]["state"]
    bad = ["{not json", {"action_type": "click", "index": 999}, InvalidAction("no such mark"),
           Action(ActionType.OPEN_APP, app_name="Nope"), Action(ActionType.UNKNOWN), {"action_type": 99},
           Action(ActionType.INPUT_TEXT, text="")]
    for count, action in enumerate(bad, start=1):
        observation, reward, info = _step(env, action)
        assert info["invalid_action"]
        assert info["visit_counts"] == {"state": home, "state_visits": count + 1, "action": "invalid",
                                        "action_count": count}
        assert info["intrinsic_reward"] == 0.0 and reward == 0.0
        assert f"(an invalid action) {count} time" in observation["exploration_hint"]
    assert env.action_count(home, "invalid") == len(bad)


@pytest.mark.parametrize("task", ["SendSms", "AddContactThenText", "SystemWifiTurnOff"])
def test_the_oracle_still_solves_the_task_through_the_wrapper(make_env, task):
    env = _wrap(make_env, task, per_candidate=True, bonus=0.1)
    result = run_episode(env, OracleAgent(), seed=0)
    assert result.score == 1.0 and not result.invalid_actions
    assert result.total_reward > 1.0  # the bonus came on top
    assert env.observation_space.contains(env.reset(seed=1)[0])


def test_bad_configuration_raises_a_clear_error(make_env):
    for bonus in (-1.0, math.nan, math.inf):
        with pytest.raises(VisitCountHintsError, match="bonus"):
            _wrap(make_env, bonus=bonus)
    with pytest.raises(VisitCountHintsError, match="already has 'goal'"):
        _wrap(make_env, key="goal")
    with pytest.raises(VisitCountHintsError, match="a11y_tree"):
        VisitCountHints(FilterObservation(make_env("AndroidWorld/SendSms-v0", pixels=False), ["goal"]))
    env = _wrap(make_env)
    with pytest.raises(AndroidGymError, match="reset"):
        env.step(Action(ActionType.WAIT))
