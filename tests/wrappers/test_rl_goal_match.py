"""The RL view's goal features that let a policy pick a slot by what it is, wherever it sits: ``in_goal`` of a row
whose own text (a file's name, a conversation's number) is a piece of the goal, and ``next_key``, the keypad key
that types the goal's next digit (``rl_keys``)."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_keys import goal_digits, next_key, typed_count
from android_gym.wrappers.rl_observations import ELEMENT_FEATURES, match_key

IN_GOAL, POSITION, NEXT_KEY = (ELEMENT_FEATURES.index(name) for name in ("in_goal", "goal_position", "next_key"))
KEYPAD = [str(digit) for digit in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]


def oracle_steps(env, seed):
    """Each id the oracle's actions encode to, with the observation and the RL screen it is chosen on."""
    encode_next, observation, info = env.get_wrapper_attr("encode_next"), *env.reset(seed=seed)
    agent, done, pending = OracleAgent(), False, []
    agent.reset(env)
    while not done:
        pending = pending or [Action.parse(agent.act(observation, info))]
        number, rest = encode_next(pending.pop(0), info["ui_elements"])
        pending[:0] = rest
        yield observation, number, env.get_wrapper_attr("rl_screen")
        observation, _, terminated, truncated, info = env.step(number)
        assert info["invalid_action"] is None
        done = terminated or truncated
    assert info["score"] == 1.0


@pytest.mark.parametrize(("goal", "digits"), [
    ("Create a timer with 20 hours, 38 minutes, and 30 seconds. Do not start the timer.", "203830"),
    ("Create a timer with 20 hours, 5 minutes, and 3 seconds.", "200503"),  # two digits a unit
    ("Create a timer with 0 hours, 5 minutes, and 30 seconds.", "530"),  # leading zeros are moot
    ("Set a timer for 1 minute", "100"),
    ("Call +1 555-0100 about the 3 tickets", "15550100"),  # else the longest number
    ("Open the Clock app.", ""),
])
def test_goal_digits_are_what_one_types_on_a_keypad(goal, digits):
    assert goal_digits(goal) == digits


def test_the_next_key_follows_what_the_screen_shows_typed():
    assert typed_count("203830", ["Timer", "00h 00m 00s"]) == 0
    assert typed_count("203830", ["00h 02m 03s"]) == 3  # a keypad that fills from the right
    assert typed_count("203830", ["00h 00m 21s"]) == 0  # a wrong digit typed: nothing of the goal's
    assert typed_count("15550100", ["+1 555"]) == 4  # one that fills from the left
    assert next_key("203830", KEYPAD, ["00h 02m 03s"]) == "8"
    assert next_key("203830", KEYPAD, ["20h 38m 30s"]) is None  # all typed
    assert next_key("203830", KEYPAD[:-1], ["00h 00m 00s"]) is None  # no keypad (no "0" key) on screen
    assert next_key("", KEYPAD, ["00h 00m 00s"]) is None


def test_match_key_compares_letters_and_digits_alone():
    assert match_key("+1 872-703-5111") == match_key("+18727035111") == "18727035111"
    assert match_key("Café_Notes.MD") == match_key("cafe notes md")
    assert match_key("…") == ""


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_next_key_marks_the_key_the_oracle_presses_on_the_timer_keypad(seed):
    env = make_rl_env("AndroidWorld/ClockTimerEntry-v0")
    tap = env.get_wrapper_attr("layout")["tap"]
    pressed = 0
    for observation, number, screen in oracle_steps(env, seed):
        marked = np.flatnonzero(observation["elements"][:, NEXT_KEY]).tolist()
        if number in tap and screen.labels[number - tap.start] in KEYPAD:
            assert marked == [number - tap.start]  # exactly the key pressed next
            pressed += 1
        else:
            assert marked == [] or set(KEYPAD) <= set(screen.labels)  # only ever on a keypad
    assert pressed == len(goal_digits(env.unwrapped.task.goal)) > 0
    env.close()


@pytest.mark.parametrize(("task", "kind", "param"), [
    ("FilesDeleteFile", ActionType.LONG_PRESS, "file_name"),  # a grid item or list row: name, size, date
    ("SimpleSmsReply", ActionType.CLICK, "number"),  # a conversation: its number and last message
])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_in_goal_marks_the_row_the_goal_names_by_its_own_text(task, kind, param, seed):
    # seed 2: another conversation's last message is the one to send; a row is named by its title, not by that
    env = make_rl_env(f"AndroidWorld/{task}-v0")
    layout = env.get_wrapper_attr("layout")
    ids = layout["long_press" if kind == ActionType.LONG_PRESS else "tap"]
    for observation, number, screen in oracle_steps(env, seed):
        params, goal = env.unwrapped.task.params, env.unwrapped.task.goal
        name = str(params[param])
        rows = [slot for slot, texts in enumerate(screen.parts) if len(texts) > 1]  # rows of several texts
        if number in ids and any(name in text for text in screen.parts[number - ids.start]):
            target = number - ids.start
            assert target in rows and screen.labels[target] != name  # the label alone is no piece of the goal
            marked = [slot for slot in rows if observation["elements"][slot, IN_GOAL]]
            assert marked == [target]  # of all the rows, only the one the goal names
            assert observation["elements"][target, POSITION] == pytest.approx(goal.index(name) / len(goal), abs=0.02)
            break
    else:
        pytest.fail(f"the oracle never acted on the row of {name!r}")
    env.close()
