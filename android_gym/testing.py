"""Helpers for checking tasks the way our own tests do: play one episode with an agent, collect the outcome.

Task authors can use them in their own test suites: ``run_episode(env, OracleAgent(), seed=0).score == 1.0``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from android_gym.agents import Agent


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


def run_episode(env: gym.Env, agent: Agent, *, seed: int | None = None,
                options: dict[str, Any] | None = None) -> EpisodeResult:
    """Reset ``env`` (with ``seed``/``options``) and let ``agent`` act until the episode ends."""
    observation, info = env.reset(seed=seed, options=options)
    agent.reset(env)
    result = EpisodeResult(score=info["score"], total_reward=0.0, steps=0, terminated=False, truncated=False,
                           info=info)
    while not (result.terminated or result.truncated):
        observation, reward, result.terminated, result.truncated, info = env.step(agent.act(observation, info))
        result.steps += 1
        result.total_reward += float(reward)
        if info["invalid_action"]:
            result.invalid_actions.append(info["invalid_action"])
    result.score, result.info = info["score"], info
    return result
