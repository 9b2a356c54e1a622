"""A stable-baselines3 features extractor and a MaskablePPO policy shaped like the RL view
(``ElementFeatureObservation``): one small encoder shared by every element slot and one by every text slot, instead
of ``MultiInputPolicy``'s flattening of all ~9,200 numbers into the first layers; and (``RLViewPolicy``) one scorer
shared by every slot for the ids that act on a slot, so that what it learns of one slot holds for all. Needs the
``rl`` extra (PyTorch); the rest of android_gym does not import it.

    MaskablePPO("MultiInputPolicy", make_rl_env(env_id), policy_kwargs={"features_extractor_class": RLViewExtractor})
    MaskablePPO(RLViewPolicy, make_rl_env(env_id))
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor
from stable_baselines3.common.type_aliases import Schedule
from torch import nn

from android_gym.wrappers.rl_actions import SLOT_KINDS


class RLViewExtractor(BaseFeaturesExtractor):
    """Features of the RL view's ``Dict``: each element row through one shared ``Linear`` + tanh of
    ``element_width`` units and each text row through another of ``text_width`` (an empty slot's encoding is zero),
    kept per slot (the ids of slot ``i`` act on what row ``i`` describes); the elements' encodings max-pooled and
    averaged over the slots (what the screen holds, and how much of it; empty slots count as zeros), the texts'
    max-pooled; the goal's hashed words through a ``Linear`` + tanh of ``goal_width``; the status as it is. tanh, as
    SB3's policy layers: with ReLU (8 units a row, 4 a text), cloning SendSms's demonstrations left one seed's
    policy unable to finish a held-out episode.

    Its output has ``(K + 2) · element_width + (T + 1) · text_width + goal_width + len(status)`` features: 952 for
    the view's defaults (K = 64 elements, T = 96 texts), where flattening gives 11,300; the per-slot element
    encodings come first (``slot_features`` of them).
    """

    def __init__(self, observation_space: spaces.Dict, element_width: int = 8, text_width: int = 4,
                 goal_width: int = 32) -> None:
        slots, element_columns = observation_space["elements"].shape
        texts, text_columns = observation_space["texts"].shape
        status = observation_space["status"].shape[0]
        super().__init__(observation_space, (slots + 2) * element_width + (texts + 1) * text_width + goal_width
                         + status)
        self.slots, self.element_width = slots, element_width
        self.slot_features = slots * element_width
        self.elements = nn.Sequential(nn.Linear(element_columns, element_width), nn.Tanh())
        self.texts = nn.Sequential(nn.Linear(text_columns, text_width), nn.Tanh())
        self.goal = nn.Sequential(nn.Linear(observation_space["goal"].shape[0], goal_width), nn.Tanh())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        """The features of a batch of observations (SB3 has made the masks float)."""
        elements = self.elements(observations["elements"]) * observations["element_mask"].unsqueeze(-1)
        texts = self.texts(observations["texts"]) * observations["text_mask"].unsqueeze(-1)
        return torch.cat([elements.flatten(1), elements.amax(1), elements.mean(1), texts.flatten(1), texts.amax(1),
                          self.goal(observations["goal"]), observations["status"]], dim=1)


class _ActorSeesFeatures(MlpExtractor):
    """SB3's ``MlpExtractor`` over the features less their first ``slot_features`` (each slot's own encoding), whose
    actor latent is its layers' output followed by all the features, so that the action head finds each slot's
    encoding there. The actor's and the critic's layers read the slots pooled, not slot by slot: a phone that
    shows more rows than training's (a tablet) would fill slots whose weights training never moved from their
    random start, and a row that sits one slot lower would reach other weights."""

    def __init__(self, features_dim: int, slot_features: int, **kwargs: Any) -> None:
        super().__init__(features_dim - slot_features, **kwargs)
        self.slot_features = slot_features
        self.context_dim = self.latent_dim_pi
        self.latent_dim_pi += features_dim

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        """The actor's layers' output, then the features."""
        return torch.cat([self.policy_net(features[:, self.slot_features:]), features], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        """The critic's layers' output (they read the features less the slots' own)."""
        return self.value_net(features[:, self.slot_features:])

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The actor's and the critic's latents."""
        return self.forward_actor(features), self.forward_critic(features)


class SlotPointerHead(nn.Module):
    """The logits of every id: those of the ids that act on a slot (``SLOT_KINDS``, the layout's first) from one
    small network shared by the slots, reading the slot's encoding next to the context (the actor's layers' output),
    so that a slot is picked for what it is — the key to press next, the row the goal names — wherever it sits;
    the other ids' (keys, texts, apps, answers) from the context through a ``Linear``, as SB3's action net."""

    def __init__(self, context_dim: int, slots: int, element_width: int, actions: int, hidden: int = 32) -> None:
        super().__init__()
        self.context_dim, self.slots, self.element_width = context_dim, slots, element_width
        per_slot = sum(count for _, count in SLOT_KINDS)
        self.scorer = nn.Sequential(nn.Linear(element_width + context_dim, hidden), nn.Tanh(),
                                    nn.Linear(hidden, per_slot))
        self.others = nn.Linear(context_dim, actions - per_slot * slots)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        """Logits of a batch of actor latents (context, then ``RLViewExtractor``'s features)."""
        context = latent[:, :self.context_dim]
        encoded = latent[:, self.context_dim:self.context_dim + self.slots * self.element_width]
        encoded = encoded.reshape(len(latent), self.slots, self.element_width)
        scores = self.scorer(torch.cat([encoded, context.unsqueeze(1).expand(-1, self.slots, -1)], dim=2))
        kinds, start = [], 0
        for _, count in SLOT_KINDS:  # slot i's ids of a kind: start + count · i + j
            kinds.append(scores[:, :, start:start + count].flatten(1))
            start += count
        return torch.cat([*kinds, self.others(context)], dim=1)


class RLViewPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO's policy for the RL view: ``RLViewExtractor``'s features, SB3's actor and critic layers, and
    ``SlotPointerHead`` as the action net — the ids that act on a slot scored by one network shared by the slots.
    The view's ``ElementActions`` layout puts those ids first (``SLOT_KINDS``)."""

    def __init__(self, observation_space: spaces.Dict, action_space: spaces.Discrete, lr_schedule: Schedule,
                 **kwargs: Any) -> None:
        kwargs.setdefault("features_extractor_class", RLViewExtractor)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _ActorSeesFeatures(self.features_dim, self.features_extractor.slot_features,
                                                net_arch=self.net_arch,
                                                activation_fn=self.activation_fn, device=self.device)

    def _build(self, lr_schedule: Schedule) -> None:
        super()._build(lr_schedule)  # SB3's action net, replaced here: the optimizer is made again below
        extractor = self.features_extractor
        self.action_net = SlotPointerHead(self.mlp_extractor.context_dim, extractor.slots, extractor.element_width,
                                          int(self.action_space.n))
        if self.ortho_init:  # as SB3's: hidden layers sqrt(2), the output layers 0.01
            self.action_net.scorer[0].apply(partial(self.init_weights, gain=np.sqrt(2)))
            for layer in (self.action_net.scorer[2], self.action_net.others):
                layer.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
