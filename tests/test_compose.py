"""Task composition: parameters, links, setup order, scoring, goal, oracle, registration and errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.device import state
from android_gym.env import AndroidEnv
from android_gym.errors import UnknownTaskError
from android_gym.tasks.compose import CompositeTask, CompositionError, compose
from android_gym.tasks.validators import SMS_DB
from android_gym.testing import check_task, run_episode


def _env(task: type[CompositeTask]) -> AndroidEnv:
    return AndroidEnv(task, pixels=False)


def test_params_are_drawn_per_part_from_one_rng_and_links_copy_values():
    task = compose("SimpleSmsReply", "SimpleSmsSend", name="T1", register=False,
                   links={"SimpleSmsSend.number": "SimpleSmsReply.number"})
    params = task.generate_params(np.random.default_rng(7))
    assert set(params) == {"SimpleSmsReply", "SimpleSmsSend"}
    assert params["SimpleSmsSend"]["number"] == params["SimpleSmsReply"]["number"]
    assert task.generate_params(np.random.default_rng(7)) == params
    assert task.generate_params(np.random.default_rng(8)) != params


def test_a_repeated_part_gets_a_numbered_key():
    task = compose("SimpleSmsSend", "SimpleSmsSend", name="T2", register=False)
    assert [key for key, _ in task.parts] == ["SimpleSmsSend", "SimpleSmsSend_2"]
    assert task.max_steps() == 2 * android_gym.get_task("SimpleSmsSend").max_steps()


def test_goal_joins_the_parts_goals_or_fills_a_template():
    joined = compose("SimpleSmsReply", "SimpleSmsSend", name="T3", register=False)
    params = joined.generate_params(np.random.default_rng(0))
    reply, send = params["SimpleSmsReply"], params["SimpleSmsSend"]
    assert joined(params).goal == (f"Reply to {reply['number']} with message: {reply['message']} in Simple SMS "
                                   f"Messenger, then send a text message using Simple SMS Messenger to "
                                   f"{send['number']} with message: {send['message']}")
    assert send["message"].endswith((".", "!", "?"))  # so the joined goal adds no period of its own
    templated = compose("SimpleSmsReply", "SimpleSmsSend", name="T4", register=False,
                        template="Answer {SimpleSmsReply[number]} and text {SimpleSmsSend[number]}")
    assert templated(params).goal == f"Answer {reply['number']} and text {send['number']}"


def test_setup_clears_every_part_before_seeding_any():
    """SimpleSmsSend wipes the SMS store; composed after SimpleSmsReply it must not wipe Reply's messages."""
    env = _env(compose("SimpleSmsReply", "SimpleSmsSend", name="T5", register=False))
    try:
        _, info = env.reset(seed=1)
        received = len(info["params"]["SimpleSmsReply"]["received"])
        rows = state.sqlite_query(env.device, SMS_DB, "SELECT COUNT(*) AS n FROM sms WHERE type = 1")
        assert rows[0]["n"] == received
    finally:
        env.close()


def test_oracle_earns_partial_reward_part_by_part():
    env = _env(compose("SimpleSmsReply", "SimpleSmsSend", name="T6", register=False))
    try:
        env.reset(seed=2)
        agent = OracleAgent()
        agent.reset(env)
        info: dict = {"ui_elements": env.unwrapped._elements}
        rewards, done = [], False
        while not done:
            _, reward, terminated, truncated, info = env.step(agent.act({}, info))
            rewards.append(reward)
            done = terminated or truncated
        assert [r for r in rewards if r] == [0.5, 0.5]
        assert info["score"] == 1.0
    finally:
        env.close()


@pytest.mark.parametrize("latch, score_after_leaving", [(True, 0.5), (False, 0.0)])
def test_a_latched_part_stays_done_when_the_agent_moves_on(latch, score_after_leaving):
    """SMS tasks also need the SMS app in front: leaving it undoes the part unless parts latch."""
    task = compose("SimpleSmsReply", "SimpleSmsSend", name="T7", register=False, latch=latch)
    env = _env(task)
    try:
        env.reset(seed=3)
        steps = env.unwrapped.task.tasks[0].oracle()[:-1]  # the reply, without declaring completion
        info: dict = {"ui_elements": env.unwrapped._elements}
        for step in steps:
            _, _, _, _, info = env.step(step(info["ui_elements"]))
        assert info["score"] == 0.5
        _, _, _, _, info = env.step(Action(ActionType.NAVIGATE_HOME))
        assert info["score"] == score_after_leaving
    finally:
        env.close()


def test_composites_nest():
    inner = compose("SimpleSmsReply", "SimpleSmsSend", name="TestInner")
    outer = compose("TestInner", "SimpleSmsReplyMostRecent", name="T14", register=False)
    env = _env(outer)
    try:
        _, info = env.reset(seed=0)
        expected = len(info["params"]["TestInner"]["SimpleSmsReply"]["received"]) + len(
            info["params"]["SimpleSmsReplyMostRecent"]["received"])
        rows = state.sqlite_query(env.device, SMS_DB, "SELECT COUNT(*) AS n FROM sms WHERE type = 1")
        assert rows[0]["n"] == expected
        assert run_episode(env, OracleAgent(), seed=0).score == 1.0
    finally:
        env.close()
    assert issubclass(inner, CompositeTask)


def test_the_answer_reaches_every_part():
    task = compose("SimpleSmsSend", "SimpleSmsReply", name="T8", register=False)
    instance = task(task.generate_params(np.random.default_rng(0)))
    instance.answer = "42"
    assert [part.answer for part in instance.tasks] == ["42", "42"]


def test_compose_registers_a_gym_env_that_passes_the_task_checks():
    compose("SimpleSmsReplyMostRecent", "SimpleSmsSend", name="TestReplyThenSend",
            links={"SimpleSmsSend.message": "SimpleSmsReplyMostRecent.message"})
    assert "AndroidWorld/TestReplyThenSend-v0" in gym.registry
    assert android_gym.get_task("TestReplyThenSend").app_packages == ("com.simplemobiletools.smsmessenger",)
    check_task("TestReplyThenSend", seeds=(0, 1), pixels=False)


def test_do_nothing_scores_zero_and_the_oracle_one_across_seeds():
    env = _env(compose("SimpleSmsResend", "SimpleSmsSendReceivedAddress", name="T9", register=False))
    try:
        for seed in (4, 5):
            assert run_episode(env, OracleAgent(), seed=seed).score == 1.0
        _, info = env.reset(seed=4)
        assert info["score"] == 0.0
    finally:
        env.close()


@pytest.mark.parametrize("kwargs, message", [
    ({"links": {"SimpleSmsSend.nope": "SimpleSmsReply.number"}}, "is not Part.param"),
    ({"links": {"SimpleSmsSend.number": "Other.number"}}, "is not Part.param"),
    ({"template": "Text {SimpleSmsSend[who]}"}, "does not fit"),
    ({"name": "SimpleSmsSend"}, "already the name of task"),
])
def test_bad_compositions_are_clear_errors(kwargs, message):
    kwargs = {"name": "T10", "register": False, **kwargs}
    with pytest.raises(CompositionError, match=message):
        compose("SimpleSmsReply", "SimpleSmsSend", **kwargs)


def test_a_task_with_its_own_initialize_is_refused():
    """A reset (and a composite) runs the phases, never ``initialize``: defining an override fails, naming them."""
    with pytest.raises(TypeError, match="overrides initialize.*clear_state and seed_state"):
        class Legacy(android_gym.get_task("SimpleSmsSend")):  # noqa: F841  (the class statement is what is refused)
            name = "LegacySend"

            def initialize(self, device):
                super().initialize(device)


def test_unknown_parts_and_empty_compositions_are_errors():
    with pytest.raises(UnknownTaskError, match="Did you mean"):
        compose("SimpleSmsSnd", name="T11", register=False)
    with pytest.raises(CompositionError, match="at least one"):
        compose(name="T12", register=False)
