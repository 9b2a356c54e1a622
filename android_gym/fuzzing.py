"""Hypothesis strategies for what an agent (or a careless user) may pass to ``step`` and ``reset``: plausible
actions, malformed JSON actions, pathological JSON texts, samples of the action space and near misses, hand-built
``Action``s with fields of any type, and reset seeds and options.

Used by the fuzz tests (``tests/test_fuzz_actions.py``) and the long fuzz run (``benchmarks/fuzz.py``). Needs
Hypothesis (the ``dev`` extra); the env itself never imports this module.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from android_gym.actions import ACTION_TYPES, DIRECTIONS, KNOWN_APPS, Action, InvalidAction
from android_gym.errors import ConfigError
from android_gym.testing import play_steps

try:
    from hypothesis import strategies as st
except ImportError as error:  # pragma: no cover - the dev extra is installed wherever this runs
    raise ConfigError("android_gym.fuzzing needs Hypothesis: pip install -e '.[dev]'") from error

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


def reset_accepted(seed: Any, options: Any, names: set[str]) -> bool:
    """Whether ``reset(seed=seed, options=options)`` is valid for a task with parameters ``names``."""
    pinned = options.get("params", {}) if isinstance(options, Mapping) else None
    return (isinstance(seed, int) and seed >= 0
            and (options is None or (isinstance(pinned, Mapping) and set(pinned) <= names)))


def garbage_episode(env: gym.Env, seed: Any, options: Any, pin_seed: int, garbage: Sequence[Any],
                    solve: bool = True) -> Counter:
    """Reset ``env`` with any ``seed`` and ``options`` (bad ones must raise ``ConfigError``; the episode then
    starts from ``pin_seed``) and step the actions of ``garbage``, resetting whenever an episode ends. With
    ``solve``, only as many as leave the oracle room in the step budget, then check the task's oracle still solves
    the episode (after a reset if some garbage acted on the phone).

    Raises ``AssertionError`` when a property fails: a bad reset that does not raise ``ConfigError``, an
    observation outside the space, a backend error, an invalid action that rewarded or changed the screen, or an
    oracle that no longer scores 1.0. Returns what happened: ``resets_refused``, ``actions``, ``invalid``,
    ``acted``, ``episodes_ended`` and ``oracle_out_of_budget``.
    """
    counts: Counter = Counter()
    task_class = env.unwrapped.task_class
    if options is PIN:
        options = {"params": task_class.generate_params(np.random.default_rng(pin_seed))}
    if reset_accepted(seed, options, set(task_class.generate_params(np.random.default_rng(0)))):
        obs, info = env.reset(seed=seed, options=options)
    else:
        try:
            env.reset(seed=seed, options=options)
        except ConfigError:
            counts["resets_refused"] += 1
        else:
            raise AssertionError(f"reset(seed={seed!r}, options={options!r}) did not raise ConfigError")
        seed, options = pin_seed, None
        obs, info = env.reset(seed=seed)
    acted = False
    room = max(0, env.spec.max_episode_steps - len(env.unwrapped.task.oracle())) if solve else len(garbage)
    for action in garbage[:room]:
        before = obs["a11y_tree"]
        obs, reward, terminated, truncated, info = env.step(action)
        counts["actions"] += 1
        assert obs in env.observation_space, "observation outside the space"
        assert info["backend_error"] is None, info["backend_error"]
        invalid = info["invalid_action"]
        if invalid is not None:
            counts["invalid"] += 1
            assert isinstance(invalid, str) and reward == 0.0 and obs["a11y_tree"] == before, invalid
        else:
            counts["acted"] += 1
        acted |= invalid is None or terminated or truncated
        if terminated or truncated:
            counts["episodes_ended"] += 1
            obs, info = env.reset(seed=seed, options=options)
    if not solve:
        return counts
    if acted:
        obs, info = env.reset(seed=seed, options=options)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    if not acted and info["score"] < 1.0 and counts["actions"] + info["actions"] >= env.spec.max_episode_steps:
        # the room left is counted in oracle steps, and a step may take several actions (scrolling until a row
        # shows): the budget the garbage left was too short, which says nothing of the env; replay afresh
        counts["oracle_out_of_budget"] += 1
        obs, info = env.reset(seed=seed, options=options)
        info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert info["score"] == 1.0 and not invalid, f"the oracle scored {info['score']} (invalid: {invalid})"
    return counts
