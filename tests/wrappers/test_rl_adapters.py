"""The RL adapters: discrete element / touch-grid actions and fixed-size observations, checked with SB3."""

from __future__ import annotations

import html
import inspect
import re
import warnings

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env

import android_gym
from android_gym.actions import DIRECTIONS, Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.errors import AndroidGymError
from android_gym.testing import replay_oracle_ids
from android_gym.ui import parse_ui_dump
from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_actions import (
    DEFAULT_APPS,
    NUMBERS,
    ActionLayout,
    AdapterConfigError,
    ElementActions,
    TouchGridActions,
)
from android_gym.wrappers.rl_observations import (
    ELEMENT_FEATURES,
    GOAL_BUCKETS,
    ID_BUCKETS,
    LABEL_BUCKETS,
    STATUS_FEATURES,
    TEXT_FEATURES,
    ElementFeatureObservation,
    PixelObservation,
    hashed,
    hashed_words,
    id_words,
)
from android_gym.wrappers.rl_screen import ScreenReader, action_slots, asks_question, composed_pieces, number_value
from android_gym.wrappers.rl_texts import quantity_pieces, typeable

SMALL = "sim:540x1200"
PIXELS = (80, 40)  # NatureCNN (CnnPolicy) needs at least 36 x 36
SMS = "com.simplemobiletools.smsmessenger"
#: SB3 asks for 1-D or image Boxes; the (K, F) and (T, F) tables keep one row per slot on purpose (a set or
#: attention encoder wants rows), and SB3's MultiInputPolicy flattens them itself
#: (see test_maskable_ppo_learns_on_the_rl_env).
TABLE_WARNING = re.compile(r"Your observation (elements|texts) has an unconventional shape")
OBSERVATION_KEYS = {"elements", "element_mask", "texts", "text_mask", "goal", "status"}


def element_actions(make_env, task="SendSms", max_elements=32, text_slots=48, **kwargs) -> ElementActions:
    """ElementActions over the task's env, without pixels."""
    return ElementActions(make_env(f"AndroidWorld/{task}-v0", pixels=False), max_elements, text_slots, **kwargs)


def rl_stack(make_env, task="SendSms", max_elements=32, text_slots=48, pixels_shape=None, **kwargs):
    """ElementFeatureObservation over ElementActions, as make_rl_env stacks them (smaller, and through make_env)."""
    base = make_env(f"AndroidWorld/{task}-v0", pixels=pixels_shape is not None)
    return ElementFeatureObservation(ElementActions(base, max_elements, text_slots, **kwargs),
                                     pixels_shape=pixels_shape)


def foreground(info) -> set[str]:
    return {element.package_name for element in info["ui_elements"]}


def texts_of(env) -> list[str]:
    return [piece.text for piece in env.get_wrapper_attr("rl_screen").texts]


def play_oracle(env, seed=0, steps=None):
    """Reset and play the oracle through the discrete ids (``steps`` oracle actions, each one or more ids, read
    one by one with ``encode_next``; every oracle action must be encodable and every id accepted)."""
    encode_next = env.get_wrapper_attr("encode_next")
    observation, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env)
    done, played = False, 0
    while not done and (steps is None or played < steps):
        pending = [Action.parse(agent.act(observation, info))]
        while pending and not done:
            action = pending.pop(0)
            encoded = encode_next(action, info["ui_elements"])
            assert encoded is not None, f"not encodable: {action.to_json()}"
            number, rest = encoded
            pending[:0] = rest
            observation, _, terminated, truncated, info = env.step(number)
            assert info["invalid_action"] is None, (action.to_json(), info["invalid_action"])
            done = terminated or truncated
        played += 1
    return observation, info


def column(features, name):
    return features.index(name)


# ----- spaces, SB3 ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("combo", ["elements", "elements+pixels", "pixels", "grid"])
def test_sb3_check_env_passes(make_env, combo):
    if combo == "elements":
        env = make_rl_env("AndroidWorld/SendSms-v0")
    else:
        base = make_env("AndroidWorld/SendSms-v0", pixels=True)
        env = {"elements+pixels": lambda: ElementFeatureObservation(ElementActions(base), pixels_shape=PIXELS),
               "pixels": lambda: ElementActions(PixelObservation(base, shape=PIXELS)),
               "grid": lambda: TouchGridActions(PixelObservation(base, shape=PIXELS, grayscale=True))}[combo]()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env, warn=True)
    finally:
        env.close()
    messages = [str(warning.message) for warning in caught]
    tables = sorted(TABLE_WARNING.search(message).group(1) for message in messages if TABLE_WARNING.search(message))
    assert tables == (["elements", "texts"] if combo.startswith("elements") else [])
    assert [message for message in messages if not TABLE_WARNING.search(message)] == []


def test_action_layout_ranges_and_size(make_env):
    k, t, apps = 8, 3, ("com.android.settings", SMS)
    env = element_actions(make_env, max_elements=k, text_slots=t, apps=apps)
    sizes = [("tap", k), ("long_press", k), ("long_press_start", k), ("drag", 4 * k), ("scroll", 4), ("swipe", 4),
             ("back", 1), ("home", 1), ("enter", 1), ("type", t), ("replace", t), ("open_app", 2), ("answer_yes", 1),
             ("answer_no", 1), ("answer_number", NUMBERS), ("answer_text", t), ("collect", t),
             ("answer_collected", 1), ("answer_sum", 1), ("answer_date_time", 1), ("complete", 1)]
    assert [(kind, len(ids)) for kind, ids in env.layout.ranges.items()] == sizes
    assert env.action_space.n == env.layout.n == 7 * k + 4 * t + len(apps) + 38 == sum(size for _, size in sizes)
    ranges = list(env.layout.ranges.values())
    assert ranges[0].start == 0 and all(a.stop == b.start for a, b in zip(ranges, ranges[1:]))
    assert ranges[-1].stop == env.action_space.n
    default = element_actions(make_env, max_elements=64, text_slots=96)
    assert default.apps == DEFAULT_APPS and default.action_space.n == 7 * 64 + 4 * 96 + len(DEFAULT_APPS) + 38
    defaults = {name: parameter.default for name, parameter in inspect.signature(make_rl_env).parameters.items()}
    assert {name: defaults[name] for name in ("max_elements", "text_slots", "end_penalty", "answers")} == \
        {"max_elements": 64, "text_slots": 96, "end_penalty": 0.1, "answers": None}


def test_spaces_contain_the_observations_and_the_spec_rebuilds_the_stack(make_env):
    env = rl_stack(make_env, max_elements=8, text_slots=5, pixels_shape=PIXELS)
    space = env.observation_space
    assert set(space.spaces) == OBSERVATION_KEYS | {"pixels"}
    assert space["elements"].shape == (8, len(ELEMENT_FEATURES)) and space["element_mask"].n == 8
    assert space["texts"].shape == (5, len(TEXT_FEATURES)) and space["text_mask"].n == 5
    assert space["goal"].shape == (GOAL_BUCKETS,) and space["status"].shape == (len(STATUS_FEATURES),)
    assert space["pixels"].shape == (*PIXELS, 3)
    observation, info = env.reset(seed=0)
    for _ in range(3):
        assert space.contains(observation)
        assert np.array_equal(info["action_mask"], env.get_wrapper_attr("action_masks")())
        observation, *_, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    rebuilt = make_env(env.spec)  # the constructor arguments are recorded in the spec
    assert rebuilt.action_space == env.action_space and rebuilt.observation_space == env.observation_space
    default = make_rl_env("AndroidWorld/SendSms-v0")
    assert set(default.observation_space.spaces) == OBSERVATION_KEYS  # no pixels unless asked for
    default.close()


def test_maskable_ppo_learns_on_the_rl_env():
    env = make_rl_env("AndroidWorld/SendSms-v0", max_elements=16, text_slots=16)
    try:
        model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu")
        model.learn(256)
        assert model.num_timesteps == 256
        observation, _ = env.reset(seed=0)
        for _ in range(5):
            masks = env.get_wrapper_attr("action_masks")()
            action, _ = model.predict(observation, action_masks=masks)
            assert masks[action]
            observation, _, terminated, truncated, info = env.step(action)
            assert info["invalid_action"] is None
            if terminated or truncated:  # the policy may end the episode (an answer, a status)
                observation, _ = env.reset()
    finally:
        env.close()


def test_ppo_cnn_learns_on_pixels(make_env):
    env = TouchGridActions(PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=PIXELS))
    model = PPO("CnnPolicy", env, n_steps=64, batch_size=32, n_epochs=2, seed=0, device="cpu")
    model.learn(128)
    assert model.num_timesteps == 128


# ----- the action mask ------------------------------------------------------------------------------------------
MASK_SCREENS = [("SendSms", 0), ("SendSms", 1), ("SendSms", 2), ("SendSms", 3),  # home, app, number field, typed
                ("ExpenseCountInCategory", 0)]  # a question to answer


@pytest.mark.parametrize(("task", "prefix"), MASK_SCREENS)
def test_mask_says_exactly_what_the_env_accepts(make_env, task, prefix):
    env = element_actions(make_env, task=task, max_elements=16, text_slots=48 if task == "SendSms" else 16)
    _, info = play_oracle(env, steps=prefix)
    mask, before = env.action_masks(), info["ui_elements"]
    assert np.array_equal(mask, info["action_mask"]) and mask.any() and not mask.all()
    for action in range(env.action_space.n):
        _, reward, terminated, _, after = env.step(action)
        assert (after["invalid_action"] is None) == mask[action], (env.describe(action), after["invalid_action"])
        if mask[action]:
            play_oracle(env, steps=prefix)  # back to the screen under test
        else:  # a refused id changes nothing
            assert after["ui_elements"] == before and not terminated and reward == 0.0
            assert np.array_equal(after["action_mask"], mask) and np.array_equal(env.action_masks(), mask)


def test_masked_out_and_malformed_ids_are_reported(make_env):
    env = element_actions(make_env, text_slots=64)  # room for the goal's and the home screen's 49 texts and more
    _, info = env.reset(seed=0)  # the home screen: no text field, no question
    filled = len(env.rl_screen.slots)
    empty_tap = env.layout["tap"][filled]
    assert not info["action_mask"][empty_tap] and env.describe(empty_tap) == f"tap [{filled}] (empty)"
    seen = len(env.rl_screen.texts)
    assert seen < env.text_slots
    refused = [(empty_tap, "is empty"), (env.layout["type"][0], "no text field"),
               (env.layout["replace"][seen], f"the agent has seen {seen} text(s)"),
               (env.layout["answer_yes"][0], "asks no question"), (env.layout["collect"][0], "asks no question"),
               (env.layout["answer_sum"][0], "asks no question"),
               *((action, "must be an integer") for action in (-1, env.action_space.n, 2.5, "tap", np.array([1, 2])))]
    for action, reason in refused:
        *_, info = env.step(action)
        assert reason in info["invalid_action"], (action, info["invalid_action"])
    assert env.step(np.int64(env.layout["home"][0]))[-1]["invalid_action"] is None  # a numpy integer is an id


def test_describe_names_every_kind_of_id(make_env):
    env = element_actions(make_env, task="ExpenseCountInCategory", text_slots=200, apps=("com.android.settings",))
    env.reset(seed=0)
    layout, screen = env.layout, env.rl_screen
    first = f"[0] {screen.slots[0].class_name.rsplit('.', 1)[-1]} {screen.labels[0]!r}"
    assert env.describe(layout["tap"][0]) == f"tap {first}"
    assert env.describe(layout["long_press"][0]) == f"long-press {first}"
    assert env.describe(layout["long_press_start"][0]) == f"long-press-start {first}"
    assert [env.describe(layout["drag"][d]) for d in range(4)] == [f"drag {first} {d}" for d in DIRECTIONS]
    assert [env.describe(i) for i in (*layout["scroll"], *layout["swipe"])] == \
        [f"scroll {d}" for d in DIRECTIONS] + [f"swipe {d}" for d in DIRECTIONS]
    assert [env.describe(layout[kind][0]) for kind in ("back", "home", "enter", "complete")] == \
        ["back", "home", "enter", "complete"]
    text = screen.texts[0].text
    assert [env.describe(layout[kind][0]) for kind in ("type", "replace", "answer_text", "collect")] == \
        [f"type {text!r}", f"replace {text!r}", f"answer text {text!r}", f"collect {text!r}"]
    assert env.describe(layout["type"][env.text_slots - 1]) == "type (no such text)"
    assert env.describe(layout["open_app"][0]) == "open app com.android.settings"
    assert [env.describe(layout[kind][0]) for kind in ("answer_yes", "answer_no", "answer_collected", "answer_sum")] \
        == ["answer yes", "answer no", "answer collected", "answer sum"]
    assert env.describe(layout["answer_number"][7]) == "answer 7"
    assert env.describe(-1) == "not an action: -1" and env.describe("tap").startswith("not an action")
    assert env.describe(layout["tap"][env.max_elements - 1]) == f"tap [{env.max_elements - 1}] (empty)"


# ----- texts: what the agent sees, nothing hidden --------------------------------------------------------------
def test_the_typing_vocabulary_has_the_goals_values(make_env):
    env = element_actions(make_env)
    _, info = env.reset(seed=0)
    goal = env.unwrapped.task.goal
    number, message = info["params"]["number"], info["params"]["message"]
    assert number in goal and message in goal
    sources = {piece.text: piece.source for piece in env.rl_screen.texts}
    assert sources[number] == sources[message] == sources[goal] == "goal"
    assert sources["SMS Messenger"] == "screen"  # the launcher's icon


def test_a_hidden_parameter_enters_the_vocabulary_only_once_seen(make_env):
    env = element_actions(make_env, task="ExpenseTotalForCategory", text_slots=96)
    _, info = env.reset(seed=0)
    hidden = ["Concert tickets", "Online course", "9.99"]  # expenses of the category: in params, not in the goal
    assert hidden[0] in info["params"]["name"] and hidden[2] in info["params"]["amount"]
    goal = env.unwrapped.task.goal
    assert not any(value in goal for value in hidden) and not set(hidden) & set(texts_of(env))
    play_oracle(env, steps=3)  # the expense log shows them
    assert {piece.text: piece.source for piece in env.rl_screen.texts if piece.text in hidden} == \
        dict.fromkeys(hidden, "screen")
    env.step(env.layout["home"][0])  # left behind: remembered
    assert {piece.text: piece.source for piece in env.rl_screen.texts if piece.text in hidden} == \
        dict.fromkeys(hidden, "memory")


def test_the_vocabulary_does_not_depend_on_hidden_parameters(make_env):
    env = element_actions(make_env, task="ExpenseCountInCategory", text_slots=96)
    seen = []
    for names, amounts in ((["Water bill", "Pharmacy"], ["12.5", "8"]), (["Dentist", "Eye exam"], ["99.5", "40"])):
        _, info = env.reset(seed=0, options={"params": {"category": "Health Care", "name": names,
                                                         "amount": amounts}})
        assert info["params"]["name"] == names and env.unwrapped.task.goal.startswith("How many Health Care")
        assert not set(names + amounts) & set(texts_of(env))
        seen.append(texts_of(env))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("task", ["SendSms", "ExpenseTotalForCategory", "SystemWifiTurnOffVerifyReport"])
def test_every_text_is_a_piece_of_the_goal_or_of_a_screen_seen(make_env, task):
    """Every text of the vocabulary is a piece of the goal or of a screen seen, or the sum or the product of the
    numbers collected."""
    env = element_actions(make_env, task=task, text_slots=96)
    observation, info = env.reset(seed=1)
    agent = OracleAgent()
    agent.reset(env)
    seen = [typeable(html.unescape(observation["goal"]))]
    pending, done = [], False
    while not done:
        seen.extend(typeable(html.unescape(element.label)) for element in info["ui_elements"])
        corpus = "\n".join(seen)
        screen = env.rl_screen
        assert screen.texts and all(piece.text in corpus for piece in screen.texts if piece.source != "composed")
        assert [piece for piece in screen.texts if piece.source == "composed"] == composed_pieces(screen.collected)
        number, rest = env.encode_next(pending.pop(0) if pending else agent.act(observation, info),
                                       info["ui_elements"])
        pending[:0] = rest
        observation, _, terminated, truncated, info = env.step(number)
        done = terminated or truncated
    assert info["score"] == 1.0


# ----- typing ---------------------------------------------------------------------------------------------------
def fields(info):
    return [(element.text, element.is_focused) for element in info["ui_elements"] if element.is_editable]


def test_typing_into_the_first_field_without_focus_is_the_type_id_alone(make_env):
    env = element_actions(make_env)
    env.reset(seed=0)
    *_, info = env.step(env.layout["open_app"][env.apps.index(SMS)])
    screen = env.rl_screen
    search = screen.slots[screen.typing_slot]
    assert search.is_editable and not search.is_focused and not screen.focused_field
    plants = env.layout["type"][screen.text_index("plants")]
    assert info["action_mask"][plants] and env.describe(plants) == "type 'plants'"
    typing = Action(ActionType.INPUT_TEXT, index=search.index, text="plants")
    assert env.encode(typing, info["ui_elements"]) == (plants,)  # no tap first: it costs no step
    *_, info = env.step(plants)  # the id alone taps the field first
    assert info["invalid_action"] is None and fields(info) == [("plants", True)] and env.rl_screen.focused_field


def test_type_appends_at_the_caret_replace_clears_and_a_newline_is_enter(make_env):
    env = element_actions(make_env)
    env.reset(seed=0)
    env.step(env.layout["open_app"][env.apps.index(SMS)])
    *_, info = env.step(env.layout["tap"][env.rl_screen.typing_slot])
    assert fields(info) == [("Search", True)] and env.rl_screen.focused_field  # the hint, focused
    elements, vocabulary = info["ui_elements"], env.rl_screen
    field = next(element for element in elements if element.is_editable)
    water, plants = (env.layout[kind][vocabulary.text_index(text)]
                     for kind, text in (("replace", "water"), ("type", "plants")))
    assert env.encode(Action(ActionType.INPUT_TEXT, index=field.index, text="water", clear_text=True),
                      elements) == (water,)
    assert env.encode(Action(ActionType.INPUT_TEXT, text="plants\n\n"), elements) == \
        (plants, env.layout["enter"][0], env.layout["enter"][0])
    assert env.encode(Action(ActionType.INPUT_TEXT, text="not seen anywhere"), elements) is None

    def text_id(kind, text):  # a text's id on the current screen: the vocabulary changes with the screen
        return env.layout[kind][env.rl_screen.text_index(text)]

    *_, info = env.step(water)
    assert fields(info) == [("water", True)]
    *_, info = env.step(text_id("type", "plants"))
    assert fields(info) == [("waterplants", True)]
    *_, info = env.step(text_id("replace", "plants"))
    assert fields(info) == [("plants", True)]


# ----- answers --------------------------------------------------------------------------------------------------
ANSWER_KINDS = ("answer_yes", "answer_no", "answer_number", "answer_text", "collect", "answer_collected",
                "answer_sum")


def mask_of(env, kind):
    return env.action_masks()[list(env.layout[kind])]


def test_answers_are_masked_out_when_the_goal_asks_no_question(make_env):
    env = element_actions(make_env)
    play_oracle(env, steps=4)  # the message field: texts and a field, still no question
    assert not asks_question(env.unwrapped.task.goal) and not env.rl_screen.answers
    assert not any(mask_of(env, kind).any() for kind in ANSWER_KINDS)
    forced = element_actions(make_env, answers=True)
    forced.reset(seed=0)
    assert mask_of(forced, "answer_yes").all() and mask_of(forced, "answer_number").all()
    assert mask_of(forced, "answer_text")[:len(forced.rl_screen.texts)].all()


@pytest.mark.parametrize("task", ["ExpenseCountInCategory", "SystemWifiTurnOffVerifyReport"])
def test_answers_are_on_for_a_question(make_env, task):
    env = element_actions(make_env, task=task)
    env.reset(seed=0)
    assert asks_question(env.unwrapped.task.goal) and env.rl_screen.answers
    present = len(env.rl_screen.texts)
    for kind in ("answer_yes", "answer_no", "answer_number"):
        assert mask_of(env, kind).all(), kind
    for kind in ("answer_text", "collect"):
        assert mask_of(env, kind).tolist() == [True] * present + [False] * (env.text_slots - present), kind
    assert not mask_of(env, "answer_collected").any() and not mask_of(env, "answer_sum").any()  # nothing collected
    off = element_actions(make_env, task=task, answers=False)
    off.reset(seed=0)
    assert not any(mask_of(off, kind).any() for kind in ANSWER_KINDS)


def test_collect_then_answer_collected_answers_the_joined_texts(make_env):
    env = rl_stack(make_env, task="ExpenseCountInCategory")
    actions = env.env
    play_oracle(env, steps=3)  # the expense log: "Water bill", "Pharmacy"
    collected, status = column(TEXT_FEATURES, "collected"), column(STATUS_FEATURES, "collected")
    for number, text in enumerate(["Water bill", "Pharmacy"], start=1):
        before, collect = actions.rl_screen.slots, actions.layout["collect"][actions.rl_screen.text_index(text)]
        observation, reward, terminated, _, info = env.step(collect)
        assert info["invalid_action"] is None and reward == 0.0 and not terminated  # the phone just waits
        assert actions.rl_screen.slots == before and actions.rl_screen.collected[-1] == text
        position = actions.rl_screen.text_index(text)
        assert not info["action_mask"][actions.layout["collect"][position]]  # not twice
        assert info["action_mask"][actions.layout["answer_collected"][0]]
        assert not info["action_mask"][actions.layout["answer_sum"][0]]  # "Water bill" is not a number
        assert observation["texts"][position, collected] == 1.0 and observation["status"][status] == number / 8
    numeric = observation["texts"][:, column(TEXT_FEATURES, "number")]
    index_of = actions.rl_screen.text_index
    assert numeric[index_of("12.5")] == 1.0 and numeric[index_of("Pharmacy")] == 0.0
    _, reward, terminated, _, info = env.step(actions.layout["answer_collected"][0])
    assert env.unwrapped.task.answer == "Water bill, Pharmacy" and terminated
    assert info["score"] == 0.0 and reward == pytest.approx(-0.1)  # a wrong answer: the end penalty


def test_collect_then_answer_sum_answers_the_sum(make_env):
    # 64 texts: the goal's 30 pieces and the log's first rows, down to the third amount
    env = element_actions(make_env, task="ExpenseTotalForCategory", text_slots=64)
    _, info = play_oracle(env, steps=3)  # the expense log; the category's amounts are 8, 12.5 and 9.99
    amounts = info["params"]["amount"]
    assert sorted(amounts) == ["12.5", "8", "9.99"]
    assert env.encode(Action(ActionType.ANSWER, text="30.49"), info["ui_elements"]) == \
        (*(env.layout["collect"][env.rl_screen.text_index(a)] for a in ("8", "12.5", "9.99")),
         env.layout["answer_sum"][0])
    for amount in amounts:
        *_, info = env.step(env.layout["collect"][env.rl_screen.text_index(amount)])
        assert info["invalid_action"] is None and info["action_mask"][env.layout["answer_sum"][0]]
    _, reward, terminated, _, info = env.step(env.layout["answer_sum"][0])
    assert env.unwrapped.task.answer == "30.49" and terminated and info["score"] == 1.0
    assert reward == 1.0  # a success is not penalised


def test_answer_number_text_yes_and_no(make_env):
    env = element_actions(make_env, task="ExpenseCountInCategory")
    _, info = play_oracle(env, steps=3)
    elements, layout, screen = info["ui_elements"], env.layout, env.rl_screen
    encode = env.encode
    assert encode(Action(ActionType.ANSWER, text="2"), elements) == (layout["answer_number"][2],)
    assert encode(Action(ActionType.ANSWER, text=" Yes"), elements) == (layout["answer_yes"][0],)
    assert encode(Action(ActionType.ANSWER, text="no"), elements) == (layout["answer_no"][0],)
    assert encode(Action(ActionType.ANSWER, text="Pharmacy"), elements) == \
        (layout["answer_text"][screen.text_index("Pharmacy")],)
    assert encode(Action(ActionType.ANSWER, text="Pharmacy, Water bill"), elements) == \
        (layout["collect"][screen.text_index("Pharmacy")], layout["collect"][screen.text_index("Water bill")],
         layout["answer_collected"][0])
    assert encode(Action(ActionType.ANSWER, text="Nothing like it"), elements) is None
    _, reward, terminated, _, info = env.step(layout["answer_number"][2])
    assert env.unwrapped.task.answer == "2" and terminated and info["score"] == 1.0 and reward == 1.0
    play_oracle(env, steps=3)
    _, reward, terminated, _, info = env.step(layout["answer_text"][env.rl_screen.text_index("Pharmacy")])
    assert env.unwrapped.task.answer == "Pharmacy" and terminated and reward == pytest.approx(-0.1)


def test_quantities_inside_a_notes_texts_answer_what_quantity(make_env):
    labels = ["Attended by 45 participants", "1/2 cup almond flour", "Oct 15, 2023", "Bake 20-25 minutes"]
    assert [piece.text for piece in quantity_pieces(labels)] == ["45", "45 participants", "1/2", "1/2 cup", "25",
                                                                 "25 minutes"]
    env = element_actions(make_env, task="NotesRecipeIngredientCount", max_elements=64, text_slots=96)
    observation, info = env.reset(seed=0)
    agent = OracleAgent()
    agent.reset(env)
    pending: list = []
    while not any(element.class_name.endswith("WebView") for element in info["ui_elements"]):
        number, rest = env.encode_next(pending.pop(0) if pending else agent.act(observation, info),
                                       info["ui_elements"])
        pending[:0] = rest
        observation, _, _, _, info = env.step(number)
    assert info["params"]["ingredient_quantity"] in {piece.text for piece in env.rl_screen.texts}


def test_number_value_reads_prices():
    assert [number_value(text) for text in ("12.5", "$1,234.50", "-3", "8 USD", "Pharmacy", "")] == \
        [12.5, 1234.5, -3.0, None, None, None]


# ----- rewards: the end penalty -------------------------------------------------------------------------------
@pytest.mark.parametrize(("penalty", "expected"), [(None, -0.1), (0.0, 0.0), (0.25, -0.25)])
def test_complete_on_an_unsolved_task_costs_the_end_penalty(make_env, penalty, expected):
    env = element_actions(make_env, **({} if penalty is None else {"end_penalty": penalty}))
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(env.layout["home"][0])  # not ending: no penalty
    assert reward == 0.0 and not terminated
    _, reward, terminated, truncated, info = env.step(env.layout["complete"][0])
    assert terminated and not truncated and info["score"] == 0.0 and info["invalid_action"] is None
    assert reward == pytest.approx(expected)


def test_a_success_is_not_penalised(make_env):
    env = element_actions(make_env, task="SystemWifiTurnOffVerifyReport", end_penalty=0.5)
    _, info = play_oracle(env, seed=0, steps=4)  # wifi turned off; the oracle answers "yes" next
    _, reward, terminated, _, info = env.step(env.layout["answer_yes"][0])
    assert terminated and info["score"] == 1.0 and reward == 1.0
    rl = make_rl_env("AndroidWorld/SendSms-v0", end_penalty=0)
    try:
        result, missing = replay_oracle_ids(rl, seed=0)
        assert missing is None and result.score == 1.0 and result.total_reward == 1.0
        assert rl.get_wrapper_attr("end_penalty") == 0.0
    finally:
        rl.close()


# ----- gestures -------------------------------------------------------------------------------------------------
def test_drag_on_a_scrollable_slot_scrolls_it(make_env):
    env = element_actions(make_env, task="SystemWifiTurnOn", text_slots=4)
    env.reset(seed=0)
    *_, info = env.step(env.layout["open_app"][env.apps.index("com.android.settings")])
    slot = next(position for position, element in enumerate(env.rl_screen.slots) if element.is_scrollable)
    scroller = env.rl_screen.slots[slot]
    drags = list(env.layout["drag"][4 * slot:4 * slot + 4])
    assert info["action_mask"][drags].all()
    down = Action(ActionType.SCROLL, index=scroller.index, direction="down")
    assert env.encode(down, info["ui_elements"]) == (drags[DIRECTIONS.index("down")],)
    labels = {element.label for element in info["ui_elements"]}
    assert "Network & internet" in labels and "System" not in labels
    *_, info = env.step(drags[DIRECTIONS.index("down")])
    labels = {element.label for element in info["ui_elements"]}
    assert info["invalid_action"] is None and "System" in labels and "Network & internet" not in labels
    *_, info = env.step(env.layout["drag"][4 * env.rl_screen.slot_of(scroller) + DIRECTIONS.index("up")])
    assert "Network & internet" in {element.label for element in info["ui_elements"]}


def test_a_list_that_cannot_scroll_is_no_slot_and_has_no_drag(make_env):
    env = element_actions(make_env, task="SystemWifiTurnOn", text_slots=4)
    env.reset(seed=0)
    *_, info = env.step(env.layout["open_app"][env.apps.index("com.google.android.documentsui")])
    listed = next(e for e in info["ui_elements"] if e.resource_name == "com.google.android.documentsui:id/dir_list")
    assert not listed.is_scrollable  # a few folders: Android's node is not scrollable, nor is a slot made of it
    assert listed not in env.rl_screen.slots and not any(slot.is_scrollable for slot in env.rl_screen.slots)
    masked = [env.layout.locate(i)[0] for i in np.flatnonzero(info["action_mask"])]
    dragged = {position for position, slot in enumerate(env.rl_screen.slots) if slot.is_clickable}
    assert masked.count("drag") == 4 * len(dragged)  # only rows that follow the finger


def test_long_press_start_presses_inside_the_top_left_corner(make_env):
    env = element_actions(make_env)
    env.reset(seed=0)
    *_, info = env.step(env.layout["open_app"][env.apps.index(SMS)])
    slot = env.rl_screen.typing_slot
    box = env.rl_screen.slots[slot].bbox_pixels
    corner = Action(ActionType.LONG_PRESS, x=box.x_min + 1, y=box.y_min + 1)
    assert env.encode(corner, info["ui_elements"]) == (env.layout["long_press_start"][slot],)
    centre = Action(ActionType.LONG_PRESS, x=box.center[0], y=box.center[1])
    assert env.encode(centre, info["ui_elements"]) == (env.layout["long_press"][slot],)
    assert env.describe(env.layout["long_press_start"][slot]) == f"long-press-start [{slot}] EditText 'Search'"
    assert env.step(env.layout["long_press_start"][slot])[-1]["invalid_action"] is None


# ----- encode ---------------------------------------------------------------------------------------------------
def test_encode_returns_tuples_of_equal_ids_or_none(make_env):
    env = element_actions(make_env)
    _, info = env.reset(seed=0)
    elements, layout = info["ui_elements"], env.layout
    icon = next(element for element in elements if element.text == "SMS Messenger")
    slot = env.rl_screen.slot_of(icon)
    assert env.encode(Action(ActionType.CLICK, index=icon.index), elements) == (layout["tap"][slot],)
    assert env.encode(Action(ActionType.CLICK, x=icon.bbox_pixels.center[0], y=icon.bbox_pixels.center[1]),
                      elements) == (layout["tap"][slot],)
    assert env.encode(Action(ActionType.LONG_PRESS, index=icon.index), elements) == (layout["long_press"][slot],)
    assert env.encode('{"action_type": "open_app", "app_name": "Simple SMS Messenger"}', elements) == \
        (layout["open_app"][env.apps.index(SMS)],)
    assert env.encode({"action_type": "scroll", "direction": "left"}, elements) == (layout["scroll"][2],)
    assert env.encode(Action(ActionType.SCROLL, index=icon.index, direction="up"), elements) == \
        (layout["drag"][4 * slot + DIRECTIONS.index("up")],)  # a clickable element follows a drag
    assert env.encode(Action(ActionType.SWIPE, direction="down"), elements) == (layout["swipe"][1],)
    for kind, key in (("back", ActionType.NAVIGATE_BACK), ("home", ActionType.NAVIGATE_HOME),
                      ("enter", ActionType.KEYBOARD_ENTER)):
        assert env.encode(Action(key), elements) == (layout[kind][0],)
    assert env.encode(Action(ActionType.STATUS, goal_status="complete"), elements) == (layout["complete"][0],)
    for unmatched in (Action(ActionType.ANSWER, text="x"), Action(ActionType.CLICK, x=10, y=10),
                      Action(ActionType.CLICK, index=len(elements)),
                      Action(ActionType.INPUT_TEXT, text=info["params"]["number"]),  # no field on the home screen
                      Action(ActionType.STATUS, goal_status="infeasible"), Action(ActionType.WAIT),
                      Action(ActionType.OPEN_APP, app_name="no such app"), "not json"):
        assert env.encode(unmatched, elements) is None, unmatched


def test_encode_next_reads_each_id_on_the_screen_it_acts_on(make_env):
    env = element_actions(make_env, task="ExpenseCountInCategory")
    _, info = play_oracle(env, steps=3)  # the expense log: "Water bill", "Pharmacy"
    layout = env.layout
    answer = Action(ActionType.ANSWER, text="Water bill, Pharmacy")
    first, rest = env.encode_next(answer, info["ui_elements"])
    assert first == layout["collect"][env.rl_screen.text_index("Water bill")] and rest == [answer]
    *_, info = env.step(first)
    assert env.rl_screen.collected == ["Water bill"]  # the rest of the answer, knowing what is collected
    assert env.encode(answer, info["ui_elements"]) == \
        (layout["collect"][env.rl_screen.text_index("Pharmacy")], layout["answer_collected"][0])
    assert env.encode(Action(ActionType.ANSWER, text="Pharmacy, Water bill"), info["ui_elements"]) is None

    sms = element_actions(make_env)
    sms.reset(seed=0)
    *_, info = sms.step(sms.layout["open_app"][sms.apps.index(SMS)])
    search = sms.rl_screen.slots[sms.rl_screen.typing_slot]
    typing = Action(ActionType.INPUT_TEXT, index=search.index, text="plants\n")
    first, enter = sms.encode_next(typing, info["ui_elements"])  # the type id taps the first field itself
    assert first == sms.layout["type"][sms.rl_screen.text_index("plants")]
    assert enter == [Action(ActionType.KEYBOARD_ENTER)]
    *_, info = sms.step(first)
    assert fields(info) == [("plants", True)]
    assert sms.encode_next(enter[0], info["ui_elements"]) == (sms.layout["enter"][0], [])
    # a field that is not the first: tapped first, the text then typed at the caret of the field the tap focuses
    node, _ = synthetic_screen("")
    boxes = "".join(node.format(text=hint, cls="android.widget.EditText", click="true", children="",
                                bounds=f"[0,{top}][1080,{top + 200}]") for hint, top in (("To", 300), ("Body", 600)))
    _, screen = synthetic_screen(boxes, container_class="android.widget.LinearLayout", click="false")
    elements = parse_ui_dump(f'<hierarchy rotation="0">{screen}</hierarchy>')
    body = next(element for element in elements if element.text == "Body")
    first, rest = sms.encode_next(Action(ActionType.INPUT_TEXT, index=body.index, text="plants"), elements)
    assert first == sms.layout["tap"][1] and rest == [Action(ActionType.INPUT_TEXT, text="plants")]


def synthetic_screen(container_children: str, container_class="android.widget.FrameLayout", click="true"):
    node = ('<node index="0" text="{text}" resource-id="" class="{cls}" package="p" content-desc="" checkable="false" '
            'checked="false" clickable="{click}" enabled="true" focusable="false" focused="false" scrollable="false" '
            'long-clickable="false" password="false" selected="false" bounds="{bounds}">{children}</node>')
    return node, node.format(text="", cls=container_class, click=click, children=container_children,
                             bounds="[0,0][1080,2400]")


def test_encode_leaves_a_tap_beyond_the_slots_unmatched_rather_than_tapping_its_container(make_env):
    """A clickable list row beyond the K slots is not the clickable container around it: tapping the container's
    slot would touch whatever is at the container's centre (AndroidWorld's calendar events, element 121 of 140)."""
    env = element_actions(make_env)
    env.reset(seed=0)
    node, _ = synthetic_screen("")
    rows = "".join(node.format(text=f"row {i}", cls="android.widget.Button", click="true", children="",
                               bounds=f"[0,{1250 + 25 * i}][1080,{1270 + 25 * i}]") for i in range(40))
    label = node.format(text="label", cls="android.widget.TextView", click="false", children="",
                        bounds="[0,100][540,200]")
    labelled = node.format(text="", cls="android.widget.LinearLayout", click="true", children=label,
                           bounds="[0,100][1080,300]")
    _, container = synthetic_screen(labelled + rows)
    elements = parse_ui_dump(f'<hierarchy rotation="0">{container}</hierarchy>')
    slots = action_slots(elements, (1080, 2400), env.max_elements)
    assert len(slots) == env.max_elements and slots[1].text == "" and slots[-1].text == "row 29"
    beyond = next(element for element in elements if element.text == "row 35")
    assert env.encode(Action(ActionType.CLICK, index=beyond.index), elements) is None
    inside = next(element for element in elements if element.text == "label")  # a label inside a slot: that slot
    assert env.encode(Action(ActionType.CLICK, index=inside.index), elements) == (env.layout["tap"][1],)


def test_encode_a_drag_on_a_surface_that_is_no_slot_as_the_screen_scroll(make_env):
    env = element_actions(make_env)
    env.reset(seed=0)
    node, _ = synthetic_screen("")
    canvas = node.format(text="", cls="android.view.View", click="false", children="", bounds="[0,300][1080,2000]")
    corner = node.format(text="", cls="android.view.View", click="false", children="", bounds="[0,0][200,200]")
    button = node.format(text="OK", cls="android.widget.Button", click="true", children="",
                         bounds="[0,2100][1080,2300]")
    _, screen = synthetic_screen(canvas + corner + button, container_class="android.widget.LinearLayout",
                                 click="false")
    elements = parse_ui_dump(f'<hierarchy rotation="0">{screen}</hierarchy>')
    by_bottom = {element.bbox_pixels.y_max: element for element in elements}
    for direction in DIRECTIONS:
        scroll = Action(ActionType.SCROLL, index=by_bottom[2000].index, direction=direction)
        assert env.encode(scroll, elements) == (env.layout["scroll"][DIRECTIONS.index(direction)],)
    assert env.encode(Action(ActionType.SCROLL, index=by_bottom[200].index, direction="up"), elements) is None
    ok = Action(ActionType.SCROLL, index=by_bottom[2300].index, direction="up")  # a clickable row follows a drag
    assert env.encode(ok, elements) == (env.layout["drag"][0],)


def test_a_tap_on_a_slider_off_its_centre_has_no_id(make_env):
    """A touch on a SeekBar goes to it (it seeks where the finger is), not to a clickable surface under it: a tap
    id taps the surface's centre (VLC's player, where it hides the controls) and the slider's tap its centre, so
    neither does what a tap low on the seek bar does."""
    env = element_actions(make_env)
    env.reset(seed=0)
    node, _ = synthetic_screen("")
    surface = node.format(text="", cls="android.widget.FrameLayout", click="true", children="",
                          bounds="[0,0][1080,2000]")
    seek_bar = node.format(text="", cls="android.widget.SeekBar", click="false", children="",
                           bounds="[100,1800][980,1900]")
    _, screen = synthetic_screen(surface + seek_bar, container_class="android.widget.LinearLayout", click="false")
    elements = parse_ui_dump(f'<hierarchy rotation="0">{screen}</hierarchy>')
    assert env.encode(Action(ActionType.CLICK, x=300, y=1850), elements) is None
    assert env.encode(Action(ActionType.CLICK, x=540, y=500), elements) == (env.layout["tap"][0],)  # the surface


@pytest.mark.parametrize("task", ["SendSms", "SimpleSmsReply", "SystemWifiTurnOff", "ClockTimerEntry",
                                  "TurnOffWifiAndTurnOnBluetooth", "ExpenseTotalForCategory",
                                  "SystemWifiTurnOffVerifyReport"])
def test_oracle_replayed_through_encoded_ids_succeeds(make_env, task):
    env = rl_stack(make_env, task=task, max_elements=64, text_slots=96)
    for seed in (0, 1):
        result, missing = replay_oracle_ids(env, seed=seed)
        assert missing is None and result.invalid_actions == []
        assert result.score == 1.0 and result.terminated


# ----- ElementFeatureObservation --------------------------------------------------------------------------------
def test_element_feature_observation_needs_element_actions(make_env):
    base = make_env("AndroidWorld/SendSms-v0", pixels=False)
    for inner in (base, TouchGridActions(base)):
        with pytest.raises(AdapterConfigError, match="ElementActions"):
            ElementFeatureObservation(inner)


@pytest.mark.parametrize("steps", [0, 1, 3])
def test_element_rows_describe_the_slots_the_ids_act_on(make_env, steps):
    env = rl_stack(make_env, task="SystemWifiTurnOn")
    observation, info = play_oracle(env, steps=steps)
    actions = env.env
    width, height = env.unwrapped.device.screen_size
    clickable, present = column(ELEMENT_FEATURES, "clickable"), column(ELEMENT_FEATURES, "present")
    checked = 0
    for element in info["ui_elements"]:
        ids = actions.encode(Action(ActionType.CLICK, index=element.index), info["ui_elements"])
        if not element.is_clickable or ids is None:
            continue
        slot = ids[0] - actions.layout["tap"].start
        box, row = element.bbox_pixels, observation["elements"][slot]
        assert np.allclose(row[:4], [box.x_min / width, box.y_min / height, box.x_max / width, box.y_max / height])
        assert row[clickable] == row[present] == 1.0 and observation["element_mask"][slot] == 1
        checked += 1
    assert checked >= 3
    filled = len(actions.rl_screen.slots)
    assert observation["element_mask"].tolist() == [1] * filled + [0] * (env.max_elements - filled)
    assert not observation["elements"][filled:].any()


def test_a_list_row_is_labelled_by_its_texts(make_env):
    env = rl_stack(make_env, task="SystemBluetoothTurnOn")
    observation, info = play_oracle(env, steps=1)  # the Settings list: clickable rows of two TextViews
    actions = env.env
    title = next(element for element in info["ui_elements"] if element.text == "Connected devices")
    assert not title.is_actionable
    (action,) = actions.encode(Action(ActionType.CLICK, index=title.index), info["ui_elements"])
    assert actions.describe(action) == f"tap [{action}] LinearLayout 'Connected devices Bluetooth, pairing'"
    goal_words = [column(ELEMENT_FEATURES, f"goal_word_{bucket}") for bucket in range(LABEL_BUCKETS)]
    # the row's words that the goal ("Turn Bluetooth on.") has too, no others
    assert np.array_equal(observation["elements"][action, goal_words], hashed(["bluetooth"], LABEL_BUCKETS))
    network = actions.rl_screen.labels.index("Network & internet Mobile, Wi\u2011Fi, hotspot")
    assert not observation["elements"][network, goal_words].any()
    row = actions.rl_screen.slots[action]
    assert (row.resource_name, row.class_name) == ("", "android.widget.LinearLayout")
    id_columns = [column(ELEMENT_FEATURES, f"id_word_{bucket}") for bucket in range(ID_BUCKETS)]
    assert np.array_equal(observation["elements"][action, id_columns], hashed(["linearlayout"], ID_BUCKETS))


def test_id_words_name_what_an_element_is():
    assert id_words("com.google.android.contacts:id/floating_action_button", "android.widget.ImageButton") == \
        ["floating", "action", "button", "imagebutton"]
    assert id_words("", "android.widget.LinearLayout") == ["linearlayout"]


def test_the_word_columns_are_the_same_in_every_language(make_env):
    """The Bluetooth path in English, German and French: the labels differ ("Connected devices", "Verbundene
    Geräte", "Appareils connectés"), the id words of every slot and the goal words of each slot tapped do not."""
    goal_words, id_words_start = column(ELEMENT_FEATURES, "goal_word_0"), column(ELEMENT_FEATURES, "id_word_0")
    paths = {}
    for language in ("en-US", "de-DE", "fr-FR"):
        env = ElementFeatureObservation(ElementActions(make_env(
            "AndroidWorld/SystemBluetoothTurnOn-v0", pixels=False, device_config={"language": language}), 32, 48))
        encode_next, (observation, info), path = env.get_wrapper_attr("encode_next"), env.reset(seed=0), []
        agent, done = OracleAgent(), False
        agent.reset(env)
        while not done:
            number, rest = encode_next(agent.act(observation, info), info["ui_elements"])
            assert not rest
            screen = env.get_wrapper_attr("rl_screen")
            tapped = env.get_wrapper_attr("layout").locate(number)
            path.append((number, screen.labels[tapped[1]] if tapped[0] == "tap" else None,
                         observation["elements"][tapped[1], goal_words:id_words_start] if tapped[0] == "tap" else None,
                         observation["elements"][:len(screen.slots), id_words_start:]))
            observation, _, terminated, truncated, info = env.step(number)
            done = terminated or truncated
        assert info["score"] == 1.0
        paths[language] = path
    assert paths["fr-FR"][1][1] == "Appareils connectés Bluetooth, association"
    assert paths["de-DE"][1][1] != paths["en-US"][1][1] != paths["fr-FR"][1][1]
    for language in ("de-DE", "fr-FR"):
        assert [step[0] for step in paths[language]] == [step[0] for step in paths["en-US"]]
        for (_, _, tapped, ids), (_, _, english_tapped, english_ids) in zip(paths[language], paths["en-US"]):
            assert np.array_equal(ids, english_ids)
            assert (tapped is None and english_tapped is None) or np.array_equal(tapped, english_tapped)


def test_text_rows_and_status_describe_the_vocabulary_and_typing(make_env):
    env = rl_stack(make_env)
    observation, _ = env.reset(seed=0)
    actions = env.env
    goal = env.unwrapped.task.goal
    assert np.array_equal(observation["goal"], hashed_words(goal, GOAL_BUCKETS))
    screen = actions.rl_screen
    assert observation["text_mask"].tolist() == [1] * len(screen.texts) + [0] * (env.text_slots - len(screen.texts))
    for source in ("goal", "screen", "memory"):
        assert observation["texts"][:len(screen.texts), column(TEXT_FEATURES, f"from_{source}")].tolist() == \
            [float(piece.source == source) for piece in screen.texts]
    on_screen = observation["texts"][:, column(TEXT_FEATURES, "on_screen")]
    assert on_screen[screen.text_index("SMS Messenger")] == 1.0 and on_screen[screen.text_index(goal)] == 0.0
    status = dict(zip(STATUS_FEATURES, observation["status"]))
    assert status == {"collected": 0.0, "answers": 0.0, "field_on_screen": 0.0, "field_focused": 0.0}

    observation, *_ = env.step(actions.layout["open_app"][actions.apps.index(SMS)])  # the Search field
    target = observation["elements"][:, column(ELEMENT_FEATURES, "typing_target")]
    assert target.tolist() == [float(slot == actions.rl_screen.typing_slot) for slot in range(env.max_elements)]
    assert dict(zip(STATUS_FEATURES, observation["status"]))["field_on_screen"] == 1.0
    observation, *_ = env.step(actions.layout["tap"][actions.rl_screen.typing_slot])  # focused: typing goes there
    assert not observation["elements"][:, column(ELEMENT_FEATURES, "typing_target")].any()
    assert dict(zip(STATUS_FEATURES, observation["status"]))["field_focused"] == 1.0
    assert actions.rl_screen.text_index("Audio Recorder") is None  # the launcher's labels are not remembered


def test_in_goal_and_fits_field_point_at_the_goals_values(make_env):
    env = rl_stack(make_env)
    actions = env.env
    in_goal, position = column(ELEMENT_FEATURES, "in_goal"), column(ELEMENT_FEATURES, "goal_position")
    fits = column(TEXT_FEATURES, "fits_field")
    observation, info = play_oracle(env, steps=3)  # the number typed into the recipient field
    number, message = info["params"]["number"], info["params"]["message"]
    screen = actions.rl_screen
    typed = next(slot for slot, element in enumerate(screen.slots) if element.is_editable)
    assert screen.labels[typed] == number
    assert observation["elements"][:len(screen.slots), in_goal].tolist() == \
        [float(slot == typed) for slot in range(len(screen.slots))]
    goal = env.unwrapped.task.goal
    assert observation["elements"][typed, position] == pytest.approx(goal.index(number) / len(goal), abs=0.01)

    observation, *_ = play_oracle(env, steps=4)  # the message field, focused: the message fits it
    screen = actions.rl_screen
    assert screen.focused_field and "message" in screen.labels[screen.typing_slot].lower()
    fitting = {screen.texts[row].text for row in np.flatnonzero(observation["texts"][:, fits])}
    assert message in fitting and all(message.startswith(text) for text in fitting)  # maybe without its "."
    assert observation["texts"][screen.text_index(message), fits] == observation["texts"][:, fits].max() > 0


def test_a_values_commas_and_sentences_move_no_texts_id():
    reader, ids = ScreenReader((1080, 2400), max_elements=64, text_slots=96), []
    messages = ("I found your umbrella in my car.", "The train is delayed, I will take the bus.",
                "Happy birthday! Hope you have a great day.")
    for message in messages:
        reader.start(f"Send a text message using Simple SMS Messenger to +18016168048 with message: {message}")
        screen = reader.read([])
        ids.append((screen.text_index("+18016168048"), screen.text_index(message)))
        assert not any(piece.text.startswith("Send a text message") and piece.text.endswith(("delayed", "birthday!"))
                       for piece in screen.texts)  # no item or sentence reaching back over the key
    assert ids == [ids[0]] * len(messages) and None not in ids[0]


def test_element_features_are_deterministic(make_env):
    first, _ = play_oracle(rl_stack(make_env), seed=5, steps=2)
    second, _ = play_oracle(rl_stack(make_env), seed=5, steps=2)
    other, _ = rl_stack(make_env).reset(seed=5)
    assert first.keys() == second.keys() == OBSERVATION_KEYS
    assert all(np.array_equal(first[key], second[key]) for key in first)
    assert not np.array_equal(first["elements"], other["elements"])
    assert np.array_equal(first["goal"], other["goal"]) and first["goal"].sum() > 5


# ----- pixels, configuration ------------------------------------------------------------------------------------
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
        ElementFeatureObservation(ElementActions(no_pixels), pixels_shape=(64, 32))
    with pytest.raises(AdapterConfigError, match="observation keys"):
        ElementFeatureObservation(ElementActions(PixelObservation(make_env("AndroidWorld/SendSms-v0"))))
    with pytest.raises(AdapterConfigError, match="pixels shape"):
        ElementFeatureObservation(ElementActions(make_env("AndroidWorld/SendSms-v0")), pixels_shape=(64,))
    for bad in ({"max_elements": 0}, {"text_slots": -1}, {"max_elements": 2.0}, {"end_penalty": -0.1},
                {"end_penalty": float("nan")}, {"end_penalty": "0.1"}):
        with pytest.raises(AdapterConfigError):
            ElementActions(no_pixels, **bad)
    assert ElementActions(no_pixels, text_slots=0).layout["type"] == range(0)  # no typing at all is allowed
    for grid in ((0, 10), (10,), "big"):
        with pytest.raises(AdapterConfigError):
            TouchGridActions(no_pixels, grid=grid)
    with pytest.raises(AdapterConfigError):
        PixelObservation(make_env("AndroidWorld/SendSms-v0"), shape=(64, -1))
    with pytest.raises(AdapterConfigError, match="end_penalty"):
        make_rl_env(android_gym.env_id("SendSms"), end_penalty=-1)


# ----- the touch grid -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("device", [SMALL, "sim"])
def test_touch_grid_tap_opens_the_app_under_the_cell(make_env, device):
    env = TouchGridActions(make_env("AndroidWorld/SendSms-v0", pixels=False, device=device))
    assert env.action_space.n == 2 * 100 + 2 + 4
    _, info = env.reset(seed=0)
    apps = {app.label: app.package for app in env.unwrapped.device.phone.packages.launchable()}
    icons = [element for element in info["ui_elements"] if element.text in apps]
    tapped = [(cell, icon) for cell in range(100) for icon in icons
              if icon.bbox_pixels.x_min <= env.point(cell)[0] < icon.bbox_pixels.x_max
              and icon.bbox_pixels.y_min <= env.point(cell)[1] < icon.bbox_pixels.y_max]
    assert len({icon.text for _, icon in tapped}) >= 4, "the 10 x 10 grid's cells tap too few launcher icons"
    cell, icon = tapped[0]
    package = apps[icon.text]
    assert package not in foreground(info)
    *_, info = env.step(cell)
    assert info["invalid_action"] is None and foreground(info) == {package}
    *_, info = env.step(env.layout["home"][0])
    assert package not in foreground(info)
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
    assert layout.locate(np.array([3])) == ("tap", 3)
    assert layout.locate(5) is None and layout.locate(True) is None and layout.locate(-1) is None

