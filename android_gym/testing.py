"""Helpers for checking tasks the way our own tests do: play one episode with an agent, collect the outcome.

Task authors can use them in their own test suites: ``run_episode(env, OracleAgent(), seed=0).score == 1.0``,
or ``play_steps(env, info, steps)`` to play a few oracle steps into an episode and look at the state they leave;
``play_on_device(env, steps)`` goes on past the episode's end (a second photo after the first one succeeded).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from android_gym.agents import Agent, OracleAgent, explain
from android_gym.tasks.oracle import OracleError, OraclePolicy, OracleStep


@dataclass
class EpisodeResult:
    """What one episode came to."""

    score: float
    total_reward: float
    steps: int
    terminated: bool
    truncated: bool
    invalid_actions: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)
    #: Token counts the agent reported (``explain()``'s ``*_tokens``), summed over the episode.
    tokens: dict[str, int] = field(default_factory=dict)


def run_episode(env: gym.Env, agent: Agent, *, seed: int | None = None,
                options: dict[str, Any] | None = None) -> EpisodeResult:
    """Reset ``env`` (with ``seed``/``options``) and let ``agent`` act until the episode ends. What the agent says
    about each action (``explain()``) goes to a recorder in ``env``'s wrappers (``RecordTrajectory.annotate``)."""
    observation, info = env.reset(seed=seed, options=options)
    agent.reset(env)
    annotate = env.get_wrapper_attr("annotate") if env.has_wrapper_attr("annotate") else None
    result = EpisodeResult(score=info["score"], total_reward=0.0, steps=0, terminated=False, truncated=False,
                           info=info)
    while not (result.terminated or result.truncated):
        action = agent.act(observation, info)
        notes = explain(agent)
        if notes and annotate is not None:
            annotate(notes)
        for key, value in notes.items():
            if key.endswith("_tokens"):
                result.tokens[key] = result.tokens.get(key, 0) + int(value)
        observation, reward, result.terminated, result.truncated, info = env.step(action)
        result.steps += 1
        result.total_reward += float(reward)
        if info["invalid_action"]:
            result.invalid_actions.append(info["invalid_action"])
    result.score, result.info = info["score"], info
    return result


def play_steps(env: gym.Env, info: dict[str, Any],
               steps: Sequence[OracleStep]) -> tuple[dict[str, Any], list[str]]:
    """Play oracle ``steps``, one action per env step, from the screen in ``info["ui_elements"]``.

    Returns the last info, with the number of actions taken under ``"actions"``, and the invalid actions met on
    the way (the caller decides whether they are allowed). It does not reset the env first, and stops where the
    episode ends (the env acts no more then).
    """
    policy, invalid, actions, ended = OraclePolicy(steps), [], 0, False
    while not (policy.done or ended):
        _, _, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
        actions, ended = actions + 1, terminated or truncated
        if info["invalid_action"]:
            invalid.append(info["invalid_action"])
    return {**info, "actions": actions}, invalid


def play_on_device(env: gym.Env, steps: Sequence[OracleStep]) -> float:
    """Play oracle ``steps`` straight on the env's device, outside the episode (also after it ended), and return
    the task's score then: for checking a task on states an episode cannot reach, such as a second photo after
    the first one succeeded. An invalid step raises ``InvalidActionError``."""
    from android_gym.actions import execute, to_action
    from android_gym.ui import parse_ui_dump

    device, policy = env.unwrapped.device, OraclePolicy(steps)
    while not policy.done:
        elements = parse_ui_dump(device.ui_dump())
        execute(to_action(policy.act(elements), device.screen_size), device, elements)
    return env.unwrapped.task.is_successful(device)


def _check_env_per_task(env: gym.Env, seed: int, task_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The part of Gymnasium's ``check_env`` whose outcome can differ from task to task, on ``env`` (unwrapped):
    what ``reset`` and ``step`` return (in the observation space, of the right types: Gymnasium's passive
    checkers), a seeded reset and a step after it give the same observations, reward and info again after another
    episode, and a reset without a seed after them repeats too (the task draws only from the env's generator).
    Four resets instead of ``check_env``'s twelve, compared exactly (same seed, same pixels).

    What is left out is the same for every task of ``AndroidEnv`` (its spaces, ``reset``'s signature and options,
    fresh objects per call, ``render``, ``close`` twice): Gymnasium's whole ``check_env`` proves it on
    representative ids in ``tests/test_env.py``. Returns the first seeded reset's observation and info."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.utils.passive_env_checker import env_reset_passive_checker, env_step_passive_checker

    env.action_space.seed(seed)
    action = env.action_space.sample()
    runs = []
    for _ in range(2):
        observation, info = env_reset_passive_checker(env, seed=seed)
        step = env_step_passive_checker(env, action)
        unseeded, _ = env_reset_passive_checker(env)
        for name, value in (("reset(seed)", observation), ("step", step[0]), ("reset()", unseeded)):
            assert value in env.observation_space, f"{task_name}: {name} observation outside the space"
        runs.append((observation, info, step, unseeded))
    (obs_a, info_a, step_a, next_a), (obs_b, info_b, step_b, next_b) = runs
    assert data_equivalence((obs_a, info_a["params"]), (obs_b, info_b["params"]), exact=True), \
        f"{task_name}: reset(seed={seed}) gives another observation after an episode"
    assert data_equivalence(step_a, step_b, exact=True), f"{task_name}: the same step after reset(seed={seed}) " \
                                                         "gives another outcome"
    assert data_equivalence(next_a, next_b, exact=True), f"{task_name}: reset() after reset(seed={seed}) is " \
                                                         "not repeatable"
    return obs_a, info_a


def assert_oracle_solved(env: gym.Env, seed: int, result: EpisodeResult) -> None:
    """``result``, the oracle's episode of ``env``'s task at ``seed``, solved it: score 1.0, rewards summing to 1
    (to 0 for a task that ``succeeds_without_action``), no invalid action."""
    task_class = env.unwrapped.task_class
    reward = 0.0 if task_class.succeeds_without_action else 1.0
    assert not result.invalid_actions, f"{task_class.name} seed {seed}: oracle made invalid actions " \
                                       f"{result.invalid_actions}"
    assert result.score == 1.0 and abs(result.total_reward - reward) < 1e-9, \
        f"{task_class.name} seed {seed}: oracle scored {result.score} (reward {result.total_reward})"


def check_task(task_name: str, seeds: tuple[int, ...] = (0, 1, 2), *, oracle: bool = True,
               **env_kwargs: Any) -> None:
    """The checks every task must pass, as our tests run them; raises ``AssertionError`` naming what failed.

    * the checks of Gymnasium's ``check_env`` that can differ per task (``_check_env_per_task``), at ``seeds[0]``;
    * the same seed gives the same goal, parameters, screen and UI tree in two fresh envs;
    * the task's oracle solves it (score 1.0, rewards summing to 1, no invalid action) for every seed — unless
      ``oracle`` is false, for a caller that replays the oracle itself (through an agent's wrappers, say);
    * a policy that only waits and then declares itself done scores 0.

    A task marked ``succeeds_without_action`` (AndroidWorld's ``*Verify`` tasks) must instead score 1.0 from the
    start: its oracle's rewards sum to 0 and doing nothing scores 1.0.
    """
    from android_gym import env_id
    from android_gym.actions import Action, ActionType
    from android_gym.tasks import get_task

    def make() -> gym.Env:
        return gym.make(env_id(task_name), **env_kwargs)

    free = get_task(task_name).succeeds_without_action
    env = make()
    try:
        obs_a, info_a = _check_env_per_task(env.unwrapped, seeds[0], task_name)
        twin = make()
        try:
            obs_b, info_b = twin.reset(seed=seeds[0])
            assert info_a["params"] == info_b["params"], f"{task_name}: same seed, different parameters"
            for key in obs_a:
                same = (obs_a[key] == obs_b[key]).all() if key == "pixels" else obs_a[key] == obs_b[key]
                assert same, f"{task_name}: same seed, different initial {key}"
        finally:
            twin.close()
        # Doing nothing, in the episode the checks above left (a reset without a seed, of the unwrapped env).
        for action in (*[Action(ActionType.WAIT)] * 3, Action(ActionType.STATUS, goal_status="complete")):
            *_, terminated, truncated, info = env.unwrapped.step(action)
            if terminated or truncated:  # a task that succeeds without action ends at the first step
                break
        assert info["score"] == (1.0 if free else 0.0), f"{task_name}: doing nothing scored {info['score']}"
        for seed in seeds if oracle else ():
            assert_oracle_solved(env, seed, run_episode(env, OracleAgent(), seed=seed))
    finally:
        env.close()


def replay_oracle_ids(env: gym.Env, seed: int = 0) -> tuple[EpisodeResult, str | None]:
    """Play the task's oracle through the RL view's ids (``make_rl_env``'s ``encode_next``); the outcome, and why
    the replay stopped early (the first oracle action with no id, or an oracle step that found nothing to act on:
    an earlier id did not do what the oracle's action did), ``None`` when it played to the end."""
    from android_gym.actions import Action

    encode_next = env.get_wrapper_attr("encode_next")
    observation, info = env.reset(seed=seed)
    agent = OracleAgent()
    agent.reset(env)
    result = EpisodeResult(score=info["score"], total_reward=0.0, steps=0, terminated=False, truncated=False,
                           info=info)
    while not (result.terminated or result.truncated):
        try:
            pending = [agent.act(observation, info)]
        except OracleError as error:
            return result, f"the oracle is stuck: {error}"
        while pending and not (result.terminated or result.truncated):
            action = pending.pop(0)
            encoded = encode_next(action, info["ui_elements"])
            if encoded is None:
                return result, f"no id for {Action.parse(action).to_json()}"
            number, rest = encoded
            pending[:0] = rest
            observation, reward, result.terminated, result.truncated, info = env.step(number)
            result.steps += 1
            result.total_reward += float(reward)
            result.score, result.info = info["score"], info
            if info["invalid_action"]:
                result.invalid_actions.append(info["invalid_action"])
    return result, None
