"""The RL view of a task in one call: the stack ``examples/train_ppo.py`` trains on and a saved model expects."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from android_gym.wrappers.distractors import Distractors
from android_gym.wrappers.rl_actions import ElementActions
from android_gym.wrappers.rl_observations import ElementFeatureObservation


def make_rl_env(env_id: str, device: str | None = None, *, max_elements: int = 64, text_slots: int = 96,
                end_penalty: float = 0.1, answers: bool | None = None, distractors: float = 0.0,
                **make_kwargs: Any) -> gym.Env:
    """``ElementFeatureObservation(ElementActions(gym.make(env_id, pixels=False, device=device)))``.

    A ``Discrete`` action for every step a person takes (with ``action_masks()`` for MaskablePPO; layout in
    ``ElementActions``) and a ``Dict`` of ``Box`` features (``ElementFeatureObservation``), the spaces
    stable-baselines3 takes. ``make_kwargs`` go to ``gym.make`` (e.g. ``max_episode_steps``). A trained model must
    be run with the same ``max_elements`` and ``text_slots``. ``distractors`` above 0 puts ``Distractors`` (every
    kind, at that rate per step) under the view.
    """
    env = gym.make(env_id, pixels=False, device=device, **make_kwargs)
    if distractors:
        env = Distractors(env, rate=distractors)
    return ElementFeatureObservation(ElementActions(env, max_elements, text_slots, answers=answers,
                                                    end_penalty=end_penalty))
