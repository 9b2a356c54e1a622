"""Properties: no action, however malformed, makes ``step`` raise (bad ones are reported as invalid and change
nothing); bad reset arguments raise ``ConfigError`` and nothing else; after any of it the task can still be solved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import android_gym
from android_gym.actions import ACTION_TYPES, DIRECTIONS, KNOWN_APPS, Action, InvalidAction
from android_gym.errors import ConfigError
from android_gym.testing import play_steps

#: Text with a lone surrogate, as ``json.loads`` makes of ``"\ud800"`` (``st.text()`` never draws one).
unencodable = st.builds(lambda head, surrogate, tail: head + surrogate + tail, st.text(max_size=5),
                        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"]),
                        st.text(max_size=5))
numpy_values = st.one_of(st.integers(-2**63, 2**63 - 1).map(np.int64), st.floats(width=32).map(np.float32),
                         st.booleans().map(np.bool_), st.text(max_size=10).map(np.str_),
                         st.lists(st.floats(), max_size=3).map(np.asarray))
#: Field values that survive ``json.dumps`` (``default=repr`` writes NumPy values as strings).
json_values = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                        st.integers(min_value=-5, max_value=3000), st.sampled_from([float("nan"), float("inf"), -0.0]),
                        st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40), unencodable,
                        numpy_values, st.lists(st.integers(), max_size=3))
#: ... and an int too long to print (``repr`` raises ``ValueError``).
values = json_values | st.just(10**5000)
FIELDS = ("index", "x", "y", "text", "direction", "goal_status", "app_name", "keycode", "clear_text")


def action_dicts(field_values: st.SearchStrategy) -> st.SearchStrategy:
    """Mappings shaped like JSON actions: an action type (valid or not), some fields, unknown and non-str keys."""
    return st.fixed_dictionaries(
        {"action_type": st.one_of(st.sampled_from([t.value for t in ACTION_TYPES]), field_values)},
        optional={name: field_values for name in (*FIELDS, "bogus", 1)},
    )


#: Samples of ``action_space()`` and near misses: out-of-range integers, NumPy types, a bad ``touch_position``.
space_samples = st.fixed_dictionaries(
    {"action_type": st.one_of(st.integers(-2, len(ACTION_TYPES) + 1),
                              st.integers(0, len(ACTION_TYPES) - 1).map(np.int64))},
    optional={"index": st.one_of(st.integers(-3, 600), st.integers(-3, 600).map(np.int32), values),
              "touch_position": st.one_of(st.lists(st.floats(-0.5, 1.5), min_size=2, max_size=2).map(np.asarray),
                                          values),
              "direction": st.one_of(st.integers(-1, 4), values), "text": values, "app_name": values},
)
#: Actions built by hand with fields of any type.
hand_built = st.builds(Action, st.one_of(st.sampled_from(ACTION_TYPES), values),
                       **{name: values for name in FIELDS})
#: JSON an agent might write, and JSON no parser should choke on.
json_texts = st.one_of(
    action_dicts(json_values).map(lambda action: json.dumps(action, default=repr)),
    st.integers(1, 100_000).map(lambda depth: "[" * depth),
    st.integers(1, 10_000).map(lambda depth: '{"action_type": ' * depth),
    st.integers(90, 20_000).map(lambda digits: '{"action_type": "click", "x": ' + "9" * digits + ', "y": 1}'),
    st.sampled_from(['{"action_type": "input_text", "text": "\\ud800"}', '{"action_type": 1e999}', "NaN", "[]",
                     "null", '{"action_type": "click", "x": -Infinity, "y": 0}', '{"action_type": "click", 1: 2}']),
    st.text(max_size=60), unencodable,
)
#: Actions that mostly act on the phone: taps by element index, keys, scrolls, typing, opening an app, ending.
plausible = st.one_of(
    st.builds(lambda kind, index: {"action_type": kind, "index": index},
              st.sampled_from(["click", "long_press", "double_tap"]), st.integers(0, 40)),
    st.builds(lambda index, text: {"action_type": "input_text", "index": index, "text": text},
              st.integers(0, 40), st.text(min_size=1, max_size=12)),
    st.builds(lambda direction: {"action_type": "scroll", "direction": direction}, st.sampled_from(DIRECTIONS)),
    st.sampled_from([{"action_type": kind} for kind in ("navigate_back", "navigate_home", "keyboard_enter", "wait")]),
    st.sampled_from(sorted(KNOWN_APPS)).map(lambda app: {"action_type": "open_app", "app_name": app}),
    st.sampled_from([{"action_type": "status", "goal_status": "infeasible"}, {"action_type": "answer", "text": "42"}]),
)
any_action = st.one_of(plausible, action_dicts(values), json_texts, space_samples, hand_built, values,
                       st.binary(max_size=20), st.text(max_size=20).map(InvalidAction))


@pytest.fixture(scope="module")
def env():
    environment = gym.make("AndroidWorld/SendSms-v0", pixels=False)
    environment.reset(seed=0)
    yield environment
    environment.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=any_action)
def test_step_never_raises(env, action):
    obs, reward, terminated, truncated, info = env.step(action)
    assert info["invalid_action"] is None or isinstance(info["invalid_action"], str)
    assert obs in env.observation_space and info["backend_error"] is None
    if terminated or truncated:
        env.reset()


#: Cheap tasks over different apps: SMS, Markor's files, contacts, settings, Pro Expense's SQLite.
FUZZED_TASKS = ("SendSms", "MarkorCreateNote", "ContactsAddContact", "SystemWifiTurnOff", "ExpenseAddSingle")
#: Stands for ``{"params": <every parameter, drawn from another seed>}`` (options that pin and are valid).
PIN = object()
#: Mostly valid seeds (Gymnasium's: None or an int >= 0; None is left out to keep examples reproducible).
seeds = st.one_of(st.integers(0, 2**32 - 1), st.integers(0, 9),
                  st.one_of(st.integers(max_value=-1), st.sampled_from([np.int64(3), 1.5, "7", [1]])))
#: Mostly valid options; the bad ones are not a dict, or have "params" that are not a dict of parameter names.
reset_options = st.one_of(
    st.none(), st.just(PIN), st.fixed_dictionaries({}, optional={"params": st.just({}), "task": values}),
    st.one_of(values.filter(lambda value: value is not None),
              st.fixed_dictionaries({"params": st.one_of(
                  values, st.dictionaries(st.one_of(st.text(max_size=8).map("?".__add__), st.integers()), values,
                                          min_size=1, max_size=3))})),  # "?": in no parameter name
)


def _accepted(seed: Any, options: Any, names: set[str]) -> bool:
    """Whether ``reset(seed=seed, options=options)`` is valid for a task with parameters ``names``."""
    pinned = options.get("params", {}) if isinstance(options, Mapping) else None
    return (isinstance(seed, int) and seed >= 0
            and (options is None or (isinstance(pinned, Mapping) and set(pinned) <= names)))


@pytest.fixture(scope="module")
def envs():
    """``envs[task]``: one env per fuzzed task (gym.make's stack: checker, order enforcing, the step budget)."""
    made = {task: gym.make(android_gym.env_id(task), pixels=False) for task in FUZZED_TASKS}
    yield made
    for environment in made.values():
        environment.close()


@pytest.mark.parametrize("task", FUZZED_TASKS)
@pytest.mark.filterwarnings("ignore:.*step\\(\\) was called after the episode ended")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=seeds, options=reset_options, pin_seed=st.integers(0, 2**32 - 1),
       garbage=st.lists(any_action, max_size=6))
def test_garbage_never_breaks_the_env(envs, task, seed, options, pin_seed, garbage):
    """Reset with any seed and options (bad ones raise ``ConfigError``), act garbage (each invalid action changes
    nothing), then the task's oracle still solves the episode: at once if all the garbage was invalid, after a
    reset if some of it acted on the phone."""
    env = envs[task]
    task_class = android_gym.get_task(task)
    if options is PIN:
        options = {"params": task_class.generate_params(np.random.default_rng(pin_seed))}
    if _accepted(seed, options, set(task_class.generate_params(np.random.default_rng(0)))):
        obs, info = env.reset(seed=seed, options=options)
    else:
        with pytest.raises(ConfigError):
            env.reset(seed=seed, options=options)
        seed, options = pin_seed, None
        obs, info = env.reset(seed=seed)
    acted = False
    for action in garbage[:env.spec.max_episode_steps - len(env.unwrapped.task.oracle())]:
        before = obs["a11y_tree"]
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs in env.observation_space and info["backend_error"] is None
        invalid = info["invalid_action"]
        if invalid is not None:
            assert isinstance(invalid, str) and reward == 0.0 and obs["a11y_tree"] == before
        acted |= invalid is None or terminated or truncated
    if acted:
        obs, info = env.reset(seed=seed, options=options)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert info["score"] == 1.0 and not invalid
