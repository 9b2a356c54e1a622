"""The RL adapters: discrete element / touch-grid actions and fixed-size observations, checked with SB3."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.errors import AndroidGymError
from android_gym.ui import parse_ui_dump
from android_gym.wrappers.rl_actions import (
    ActionLayout,
    AdapterConfigError,
    ElementActions,
    TouchGridActions,
    action_slots,
    task_texts,
)
from android_gym.wrappers.rl_observations import (
    FEATURES,
    LABEL_BUCKETS,
    ElementFeatureObservation,
    PixelObservation,
    hashed_words,
)

SMALL = "sim:540x1200"
PIXELS = (80, 40)  # NatureCNN (CnnPolicy) needs at least 36 x 36
SMS = "com.simplemobiletools.smsmessenger"
#: SB3 asks for 1-D or image Boxes; the (K, F) table keeps one row per element on purpose (a set or attention
#: encoder wants rows), and SB3's MultiInputPolicy flattens it itself (see test_maskable_ppo_learns).
TABLE_WARNING = "Your observation elements has an unconventional shape"


def element_env(make_env, task="SendSms", max_elements=32, text_slots=4, **kwargs):
    """ElementActions over ElementFeatureObservation with the same slots and texts."""
    observation = ElementFeatureObservation(make_env(f"AndroidWorld/{task}-v0", pixels=False), max_elements,
                                            text_slots)
    return ElementActions(observation, max_elements, text_slots, **kwargs)


def foreground(info) -> set[str]:
    return {element.package_name for element in info["ui_elements"]}


def play_oracle(env, seed=0, steps=None):
    """Reset and play the oracle through the discrete actions (every oracle action must be encodable)."""
    observation, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env)
    done, played = False, 0
    while not done and (steps is None or played < steps):
        action = env.encode(agent.act(observation, info), info["ui_elements"])
        assert action is not None, f"not encodable: {agent.act(observation, info)}"
        observation, _, terminated, truncated, info = env.step(action)
        assert info["invalid_action"] is None, info["invalid_action"]
        done, played = terminated or truncated, played + 1
    return observation, info


@pytest.mark.parametrize("combo", ["elements", "elements+pixels", "pixels", "grid"])
def test_sb3_check_env_passes(make_env, combo):
    pixels = combo != "elements"
    base = make_env("AndroidWorld/SendSms-v0", pixels=pixels)
    env = {"elements": lambda: ElementActions(ElementFeatureObservation(base)),
           "elements+pixels": lambda: ElementActions(ElementFeatureObservation(base, pixels_shape=PIXELS)),
           "pixels": lambda: ElementActions(PixelObservation(base, shape=PIXELS)),
           "grid": lambda: TouchGridActions(PixelObservation(base, shape=PIXELS, grayscale=True))}[combo]()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, warn=True)
    messages = [str(warning.message) for warning in caught]
    expected = 1 if combo.startswith("elements") else 0
    assert sum(TABLE_WARNING in message for message in messages) == expected
    assert [message for message in messages if TABLE_WARNING not in message] == []


def test_spaces_and_layout(make_env):
    env = element_env(make_env, max_elements=8, text_slots=3, apps=("com.android.settings",))
    assert env.action_space.n == 2 * 8 + 3 + 4 + 3 + 1 + 1
    assert [(kind, len(ids)) for kind, ids in env.layout.ranges.items()] == [
        ("tap", 8), ("long_press", 8), ("back", 1), ("home", 1), ("enter", 1), ("scroll", 4), ("type", 3),
        ("open_app", 1), ("complete", 1)]
    observation, info = env.reset(seed=0)
    assert env.observation_space.contains(observation)
    features = env.get_wrapper_attr("features")
    assert observation["elements"].shape == (8, len(FEATURES) + 2 * 3) == (8, len(features))
    assert features[-2:] == ("text_2_equals", "text_2_contains")
    assert np.array_equal(info["action_mask"], env.action_masks())
    rebuilt = make_env(env.spec)  # the constructor arguments are recorded in the spec
    assert rebuilt.action_space == env.action_space and rebuilt.observation_space == env.observation_space


MASK_SCREENS = [0, 1, 2, 3]  # oracle steps played first: home screen, SMS app, new conversation, message field


@pytest.mark.parametrize("prefix", MASK_SCREENS)
def test_mask_says_exactly_what_the_env_accepts(make_env, prefix):
    env = element_env(make_env)
    _, info = play_oracle(env, steps=prefix)
    mask, before = env.action_masks(), info["ui_elements"]
    assert mask.any() and not mask.all()
    for action in range(env.action_space.n):
        _, _, _, _, after = env.step(action)
        assert (after["invalid_action"] is None) == mask[action], (env.describe(action), after["invalid_action"])
        if mask[action]:
            play_oracle(env, steps=prefix)  # back to the screen under test
        else:
            assert after["ui_elements"] == before  # a refused action changes nothing


def test_masked_out_and_malformed_actions_are_reported(make_env):
    env = element_env(make_env)
    observation, info = env.reset(seed=0)
    filled = int(observation["element_mask"].sum())
    empty_tap = env.layout["tap"][filled]
    assert not info["action_mask"][empty_tap] and env.describe(empty_tap) == f"tap [{filled}] (empty)"
    for action in (empty_tap, env.layout["type"][0], -1, env.action_space.n, 2.5, "tap", np.array([1, 2])):
        *_, info = env.step(action)
        assert info["invalid_action"], action
    assert "empty" in env.step(empty_tap)[-1]["invalid_action"]
    assert "no text field" in env.step(env.layout["type"][0])[-1]["invalid_action"]


def test_type_text_goes_to_the_focused_field_and_is_seen_in_the_table(make_env):
    env = element_env(make_env)
    observation, info = play_oracle(env, steps=2)  # the new conversation screen: the number field has focus
    texts = task_texts(info["params"], env.text_slots)
    number = texts.index(info["params"]["number"])
    action = env.layout["type"][number]
    assert info["action_mask"][action] and env.describe(action).startswith(f"type {texts[number]!r} into [")
    equals = env.get_wrapper_attr("features").index(f"text_{number}_equals")
    assert observation["elements"][:, equals].sum() == 0
    observation, _, _, _, info = env.step(action)
    assert info["invalid_action"] is None
    typed = [element for element in info["ui_elements"] if element.text == info["params"]["number"]]
    assert typed and typed[0].is_editable
    row = env.encode(Action(ActionType.CLICK, index=typed[0].index), info["ui_elements"])
    assert observation["elements"][row, equals] == 1.0


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_element_rows_describe_the_elements_the_actions_use(make_env, steps):
    env = element_env(make_env, task="SystemWifiTurnOn")
    observation, info = play_oracle(env, steps=steps)
    width, height = env.unwrapped.device.screen_size
    clickable = FEATURES.index("clickable")
    checked = 0
    for element in info["ui_elements"]:
        action = env.encode(Action(ActionType.CLICK, index=element.index), info["ui_elements"])
        if not element.is_clickable or action is None:
            continue
        box, row = element.bbox_pixels, observation["elements"][action]
        assert np.allclose(row[:4], [box.x_min / width, box.y_min / height, box.x_max / width, box.y_max / height])
        assert row[clickable] == 1.0 and observation["element_mask"][action] == 1
        checked += 1
    assert checked >= 3
    filled = [action for action in env.layout["tap"] if not env.describe(action).endswith("(empty)")]
    assert observation["element_mask"].tolist() == [1] * len(filled) + [0] * (env.max_elements - len(filled))


def test_a_list_row_is_labelled_by_its_texts(make_env):
    env = element_env(make_env, task="SystemWifiTurnOn")
    observation, info = play_oracle(env, steps=1)  # the Settings list: clickable rows of two TextViews
    title = next(element for element in info["ui_elements"] if element.text == "Network & internet")
    assert not title.is_actionable
    action = env.encode(Action(ActionType.CLICK, index=title.index), info["ui_elements"])
    assert env.describe(action) == f"tap [{action}] LinearLayout 'Network & internet Mobile, Wi\u2011Fi, hotspot'"
    words = [FEATURES.index(f"label_word_{bucket}") for bucket in range(LABEL_BUCKETS)]
    assert np.array_equal(observation["elements"][action, words],
                          hashed_words("network & internet mobile, wi\u2011fi, hotspot", LABEL_BUCKETS))
    assert observation["elements"][action, words].sum() >= 2


@pytest.mark.parametrize("task", ["SendSms", "SimpleSmsReply", "SystemWifiTurnOff", "ClockTimerEntry",
                                  "TurnOffWifiAndTurnOnBluetooth"])
def test_oracle_replayed_through_encoded_actions_succeeds(make_env, task):
    env = element_env(make_env, task=task)
    for seed in (0, 1):
        _, info = play_oracle(env, seed=seed)
        assert info["score"] == 1.0


def test_encode_matches_only_equal_actions(make_env):
    env = element_env(make_env)
    _, info = env.reset(seed=0)
    elements = info["ui_elements"]
    icon = next(element for element in elements if element.text == "SMS Messenger")
    assert env.encode(Action(ActionType.CLICK, index=icon.index), elements) in env.layout["tap"]
    assert env.encode(Action(ActionType.LONG_PRESS, index=icon.index), elements) in env.layout["long_press"]
    assert env.encode('{"action_type": "open_app", "app_name": "Simple SMS Messenger"}', elements) == \
        env.layout["open_app"][env.apps.index(SMS)]
    assert env.encode(Action(ActionType.SCROLL, direction="left"), elements) == env.layout["scroll"][2]
    assert env.encode(Action(ActionType.STATUS, goal_status="complete"), elements) == env.layout["complete"][0]
    for unmatched in (Action(ActionType.ANSWER, text="x"), Action(ActionType.SWIPE, direction="up"),
                      Action(ActionType.CLICK, x=10, y=10), Action(ActionType.CLICK, index=len(elements)),
                      Action(ActionType.SCROLL, index=icon.index, direction="up"),
                      Action(ActionType.INPUT_TEXT, text=info["params"]["number"]),  # no field on the home screen
                      Action(ActionType.OPEN_APP, app_name="no such app"), "not json"):
        assert env.encode(unmatched, elements) is None, unmatched


def test_task_texts_flatten_composites_and_skip_booleans(make_env):
    _, info = make_env("AndroidWorld/AddContactThenText-v0", pixels=False).reset(seed=3)
    contact, sms = info["params"]["ContactsAddContact"], info["params"]["SimpleSmsSend"]
    assert contact["number"] == sms["number"]
    assert task_texts(info["params"], 4) == [contact["name"], contact["number"], sms["message"]]
    assert task_texts(info["params"], 2) == [contact["name"], contact["number"]]
    _, info = make_env("AndroidWorld/ClockTimerEntry-v0", pixels=False).reset(seed=0)
    assert task_texts(info["params"], 4) == [str(info["params"][key]) for key in ("hours", "minutes", "seconds")]
    _, info = make_env("AndroidWorld/SystemWifiTurnOffVerifyReport-v0", pixels=False).reset(seed=0)
    assert info["params"]["initially_on"] in (True, False)
    assert task_texts(info["params"], 4) == [info["params"]["on_or_off"]]


def test_element_features_are_deterministic(make_env):
    first, _ = play_oracle(element_env(make_env), seed=5, steps=2)
    second, _ = play_oracle(element_env(make_env), seed=5, steps=2)
    other, _ = element_env(make_env).reset(seed=5)
    assert all(np.array_equal(first[key], second[key]) for key in first)
    assert not np.array_equal(first["elements"], other["elements"])
    assert np.array_equal(first["goal"], other["goal"]) and first["goal"].sum() > 5


def test_maskable_ppo_learns_on_element_adapters(make_env):
    env = element_env(make_env)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps == 128
    observation, _ = env.reset(seed=0)
    for _ in range(5):
        action, _ = model.predict(observation, action_masks=env.action_masks())
        assert env.action_masks()[action]
        observation, *_ = env.step(action)


def test_ppo_cnn_learns_on_pixels(make_env):
    env = TouchGridActions(PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=PIXELS))
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=32, n_epochs=2, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps == 128


def test_pixel_observation(make_env):
    env = PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=(60, 30), grayscale=True)
    home, _ = env.reset(seed=0)
    assert home.shape == (60, 30, 1) and home.dtype == np.uint8 and home.std() > 0
    app, *_ = env.step(Action(ActionType.OPEN_APP, app_name="sms"))
    assert not np.array_equal(home, app)
    colour = PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=(60, 30))
    assert colour.reset(seed=0)[0].shape == (60, 30, 3)


def test_configuration_errors_say_what_to_do(make_env):
    no_pixels = make_env("AndroidWorld/SendSms-v0", pixels=False)
    with pytest.raises(AndroidGymError, match="pixels=True"):
        PixelObservation(no_pixels)
    with pytest.raises(AdapterConfigError, match="pixels=True"):
        ElementFeatureObservation(no_pixels, pixels_shape=(64, 32))
    with pytest.raises(AdapterConfigError, match="observation keys"):
        ElementFeatureObservation(PixelObservation(make_env("AndroidWorld/SendSms-v0")))
    for bad in ({"max_elements": 0}, {"text_slots": -1}):
        with pytest.raises(AdapterConfigError):
            ElementActions(no_pixels, **bad)
    for grid in ((0, 10), (10,), "big"):
        with pytest.raises(AdapterConfigError):
            TouchGridActions(no_pixels, grid=grid)
    with pytest.raises(AdapterConfigError):
        PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=(64, -1))


@pytest.mark.parametrize("device", [SMALL, "sim"])
def test_touch_grid_tap_opens_the_app_under_the_cell(make_env, device):
    env = TouchGridActions(make_env("AndroidWorld/SendSms-v0", pixels=False, device=device))
    assert env.action_space.n == 2 * 100 + 2 + 4
    _, info = env.reset(seed=0)
    width, height = env.unwrapped.device.screen_size
    icon = next(element for element in info["ui_elements"] if element.text == "SMS Messenger")
    x, y = icon.bbox_pixels.center
    cell = (y * 10 // height) * 10 + x * 10 // width
    tap_x, tap_y = env.point(cell)
    assert icon.bbox_pixels.x_min <= tap_x < icon.bbox_pixels.x_max
    assert icon.bbox_pixels.y_min <= tap_y < icon.bbox_pixels.y_max
    assert SMS not in foreground(info)
    *_, info = env.step(cell)
    assert info["invalid_action"] is None and foreground(info) == {SMS}
    *_, info = env.step(env.layout["home"][0])
    assert SMS not in foreground(info)
    for action in (env.layout["long_press"][cell], *env.layout["swipe"], env.layout["back"][0]):
        assert env.step(action)[-1]["invalid_action"] is None
    assert env.step(env.action_space.n)[-1]["invalid_action"]


def test_action_layout_and_grid_without_long_press(make_env):
    env = TouchGridActions(make_env("AndroidWorld/SendSms-v0", pixels=False), grid=(4, 3), long_press=False)
    assert env.action_space.n == 12 + 2 + 4 and len(env.layout["long_press"]) == 0
    assert env.point(11) == tuple(int(size * fraction) for size, fraction in
                                  zip(env.unwrapped.device.screen_size, (2.5 / 3, 3.5 / 4)))
    layout = ActionLayout([("tap", 4), ("long_press", 0), ("back", 1)])
    assert layout.n == 5 and layout.locate(4) == ("back", 0) and layout.locate(np.int64(3)) == ("tap", 3)
    assert layout.locate(5) is None and layout.locate(True) is None


def test_encode_leaves_a_tap_beyond_the_slots_unmatched_rather_than_tapping_its_container(make_env):
    """A clickable list row beyond the K slots is not the clickable container around it: tapping the container's
    slot would touch whatever is at the container's centre (AndroidWorld's calendar events, element 121 of 140)."""
    env = element_env(make_env)
    env.reset(seed=0)
    node = ('<node index="0" text="{text}" resource-id="" class="{cls}" package="p" content-desc="" checkable="false" '
            'checked="false" clickable="{click}" enabled="true" focusable="false" focused="false" scrollable="false" '
            'long-clickable="false" password="false" selected="false" bounds="{bounds}">{children}</node>')
    rows = "".join(node.format(text=f"row {i}", cls="android.widget.Button", click="true", children="",
                               bounds=f"[0,{1250 + 25 * i}][1080,{1270 + 25 * i}]") for i in range(40))
    label = node.format(text="label", cls="android.widget.TextView", click="false", children="",
                        bounds="[0,100][540,200]")
    labelled = node.format(text="", cls="android.widget.LinearLayout", click="true", children=label,
                           bounds="[0,100][1080,300]")
    container = node.format(text="", cls="android.widget.FrameLayout", click="true", children=labelled + rows,
                            bounds="[0,0][1080,2400]")
    elements = parse_ui_dump(f'<hierarchy rotation="0">{container}</hierarchy>')
    slots = action_slots(elements, (1080, 2400), env.max_elements)
    assert len(slots) == env.max_elements and slots[1].text == "" and slots[-1].text == "row 29"
    beyond = next(element for element in elements if element.text == "row 35")
    assert env.encode(Action(ActionType.CLICK, index=beyond.index), elements) is None
    inside = next(element for element in elements if element.text == "label")  # a label inside a slot: that slot
    assert env.encode(Action(ActionType.CLICK, index=inside.index), elements) == env.layout["tap"][1]
