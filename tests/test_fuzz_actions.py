"""Property: no action, however malformed, makes ``step`` raise; bad ones are reported as invalid."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import android_gym  # noqa: F401
from android_gym.actions import ACTION_TYPES

values = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                   st.integers(min_value=-5, max_value=3000),
                   st.sampled_from([float("nan"), float("inf"), -0.0, 1e300]),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40),
                   st.lists(st.integers(), max_size=3))
action_dicts = st.fixed_dictionaries(
    {"action_type": st.one_of(st.sampled_from([t.value for t in ACTION_TYPES]), values)},
    optional={name: values for name in ("index", "x", "y", "text", "direction", "goal_status", "app_name",
                                        "keycode", "clear_text", "bogus")},
)


@pytest.fixture(scope="module")
def env():
    environment = gym.make("AndroidWorld/SendSms-v0", pixels=False)
    environment.reset(seed=0)
    yield environment
    environment.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=action_dicts, as_json=st.booleans())
def test_step_never_raises(env, action, as_json):
    payload = json.dumps(action) if as_json else action
    obs, reward, terminated, truncated, info = env.step(payload)
    assert info["invalid_action"] is None or isinstance(info["invalid_action"], str)
    assert obs in env.observation_space and info["backend_error"] is None
    if terminated or truncated:
        env.reset()
