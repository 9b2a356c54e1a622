"""Properties: no action, however malformed, makes ``step`` raise (bad ones are reported as invalid and change
nothing); bad reset arguments raise ``ConfigError`` and nothing else; after any of it the task can still be solved.
"""

from __future__ import annotations

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import android_gym
from android_gym.fuzzing import any_action, garbage_episode, reset_options, seeds


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
    garbage_episode(envs[task], seed, options, pin_seed, garbage)


@pytest.mark.parametrize("task", android_gym.task_names(include_aliases=False))
@pytest.mark.filterwarnings("ignore:.*step\\(\\) was called after the episode ended")
@settings(max_examples=1, deadline=None, database=None)
@given(seed=seeds, options=reset_options, pin_seed=st.integers(0, 2**32 - 1),
       garbage=st.lists(any_action, min_size=1, max_size=4))
def test_every_task_takes_garbage(task, seed, options, pin_seed, garbage):
    """Over the whole catalogue, one short example per task: reset and step never raise (the oracle's replay is
    left to the tasks above and to ``benchmarks/fuzz.py``)."""
    env = gym.make(android_gym.env_id(task), pixels=False)
    try:
        garbage_episode(env, seed, options, pin_seed, garbage, solve=False)
    finally:
        env.close()
