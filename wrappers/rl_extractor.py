"""A stable-baselines3 features extractor shaped like the RL view (``ElementFeatureObservation``): one small encoder
shared by every element slot and one by every text slot, instead of ``MultiInputPolicy``'s flattening of all ~9,200
numbers into the first layers. Needs the ``rl`` extra (PyTorch); the rest of android_gym does not import it.

    MaskablePPO("MultiInputPolicy", make_rl_env(env_id), policy_kwargs={"features_extractor_class": RLViewExtractor})
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class RLViewExtractor(BaseFeaturesExtractor):
    """Features of the RL view's ``Dict``: each element row through one shared ``Linear`` + tanh of
    ``element_width`` units and each text row through another of ``text_width`` (an empty slot's encoding is zero),
    kept per slot (the ids of slot ``i`` act on what row ``i`` describes) and max-pooled over the slots (what the
    screen holds; empty slots count as zeros); the goal's hashed words through a ``Linear`` + tanh of
    ``goal_width``; the status as it is. tanh, as SB3's policy layers: with ReLU (8 units a row, 4 a text),
    cloning SendSms's demonstrations left one seed's policy unable to finish a held-out episode.

    Its output has ``(K + 1) · element_width + (T + 1) · text_width + goal_width + len(status)`` features: 944 for
    the view's defaults (K = 64 elements, T = 96 texts), where flattening gives 9,188.
    """

    def __init__(self, observation_space: spaces.Dict, element_width: int = 8, text_width: int = 4,
                 goal_width: int = 32) -> None:
        slots, element_columns = observation_space["elements"].shape
        texts, text_columns = observation_space["texts"].shape
        status = observation_space["status"].shape[0]
        super().__init__(observation_space, (slots + 1) * element_width + (texts + 1) * text_width + goal_width
                         + status)
        self.elements = nn.Sequential(nn.Linear(element_columns, element_width), nn.Tanh())
        self.texts = nn.Sequential(nn.Linear(text_columns, text_width), nn.Tanh())
        self.goal = nn.Sequential(nn.Linear(observation_space["goal"].shape[0], goal_width), nn.Tanh())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        """The features of a batch of observations (SB3 has made the masks float)."""
        elements = self.elements(observations["elements"]) * observations["element_mask"].unsqueeze(-1)
        texts = self.texts(observations["texts"]) * observations["text_mask"].unsqueeze(-1)
        return torch.cat([elements.flatten(1), elements.amax(1), texts.flatten(1), texts.amax(1),
                          self.goal(observations["goal"]), observations["status"]], dim=1)
