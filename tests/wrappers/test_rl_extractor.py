"""``RLViewExtractor``: its features' size, weights shared across the slots, each slot's encoding kept where the
slot's ids can find it, and MaskablePPO training, saving and loading with it; ``RLViewPolicy``: each slot's ids
scored from that slot's encoding by one scorer, at the ids the view's layout gives the slot."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO

from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_extractor import RLViewExtractor, RLViewPolicy, SlotPointerHead
from android_gym.wrappers.rl_observations import ELEMENT_FEATURES, STATUS_FEATURES

SEND_SMS = "AndroidWorld/SimpleSmsSend-v0"
SLOTS, TEXTS = 32, 6  # SendSms's home screen fills 21 of 32 element slots


@pytest.fixture(scope="module")
def view():
    """A small RL view on SendSms and its first observation."""
    env = make_rl_env(SEND_SMS, max_elements=SLOTS, text_slots=TEXTS)
    observation, _ = env.reset(seed=0)
    yield env, observation
    env.close()


def batch(observation: dict[str, np.ndarray]) -> dict[str, torch.Tensor]:
    """One observation as SB3 hands it to the extractor: a batch of one, float."""
    return {key: torch.as_tensor(value, dtype=torch.float32).unsqueeze(0) for key, value in observation.items()}


def test_features_keep_each_slot_and_pool_them_with_weights_shared_across_slots(view):
    env, observation = view
    extractor = RLViewExtractor(env.observation_space, element_width=8, text_width=4, goal_width=32)
    assert extractor.features_dim == (SLOTS + 2) * 8 + (TEXTS + 1) * 4 + 32 + len(STATUS_FEATURES)
    assert extractor.slot_features == SLOTS * 8
    with torch.no_grad():
        features = extractor(batch(observation))
    assert features.shape == (1, extractor.features_dim)
    slots = int(observation["element_mask"].sum())
    assert 1 < slots < SLOTS  # the home screen: some slots filled, the rest empty
    encoded = features[0, :SLOTS * 8].reshape(SLOTS, 8)
    assert not encoded[slots:].any()  # an empty slot's encoding is zero, whatever the bias
    assert torch.equal(features[0, SLOTS * 8:(SLOTS + 1) * 8], encoded.amax(0))  # then the slots max-pooled
    assert torch.allclose(features[0, (SLOTS + 1) * 8:(SLOTS + 2) * 8], encoded.sum(0) / SLOTS)  # and averaged

    # the same weights read every slot: slot 1 given slot 0's row encodes as slot 0 did, in slot 1's place
    moved = {key: value.copy() for key, value in observation.items()}
    moved["elements"][1] = observation["elements"][0]
    with torch.no_grad():
        changed = extractor(batch(moved))[0, :SLOTS * 8].reshape(SLOTS, 8)
    assert torch.equal(changed[1], encoded[0]) and torch.equal(changed[2:], encoded[2:])
    assert not torch.equal(encoded[1], encoded[0])  # two apps' icons: their slots tell them apart

    wider = make_rl_env(SEND_SMS, max_elements=2 * SLOTS, text_slots=2 * TEXTS)
    parameters = [sum(parameter.numel() for parameter in RLViewExtractor(space).parameters())
                  for space in (env.observation_space, wider.observation_space)]
    wider.close()
    assert parameters[0] == parameters[1]  # more slots, no more weights
    assert RLViewExtractor(env.observation_space).elements[0].in_features == len(ELEMENT_FEATURES)


def test_maskable_ppo_trains_saves_and_loads_with_it(view, tmp_path):
    env, observation = view
    model = MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=8, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"features_extractor_class": RLViewExtractor})
    before = [parameter.detach().clone() for parameter in model.policy.features_extractor.parameters()]
    model.learn(32)
    after = list(model.policy.features_extractor.parameters())
    assert any(not torch.equal(old, new) for old, new in zip(before, after))  # the update reaches the encoders
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip")
    assert isinstance(loaded.policy.features_extractor, RLViewExtractor)
    masks = env.get_wrapper_attr("action_masks")()
    action, _ = loaded.predict(observation, deterministic=True, action_masks=masks)
    assert masks[int(action)]
    assert action == model.predict(observation, deterministic=True, action_masks=masks)[0]


def slot_ids(layout, slot: int) -> list[int]:
    """Every id that acts on ``slot`` in the view's layout."""
    return [layout["tap"][slot], layout["long_press"][slot], layout["long_press_start"][slot],
            *layout["drag"][4 * slot:4 * slot + 4]]


def test_the_pointer_head_scores_each_slot_at_its_own_ids_with_one_scorer(view):
    env, _ = view
    layout = env.get_wrapper_attr("layout")
    torch.manual_seed(0)
    head = SlotPointerHead(context_dim=5, slots=SLOTS, element_width=3, actions=layout.n)
    context, encoded = torch.randn(1, 5), torch.zeros(1, SLOTS, 3)
    row = torch.tensor([0.5, -0.2, 0.9])
    logits = []
    for slot in (2, 7):  # one slot's encoding, put in slot 2, then in slot 7
        placed = encoded.clone()
        placed[0, slot] = row
        with torch.no_grad():
            logits.append(head(torch.cat([context, placed.flatten(1)], dim=1))[0])
    with torch.no_grad():
        empty = head(torch.cat([context, encoded.flatten(1)], dim=1))[0]
    for slot, scored in zip((2, 7), logits):
        changed = torch.nonzero(scored != empty).flatten().tolist()
        assert changed == sorted(slot_ids(layout, slot))  # only that slot's seven ids move
    assert torch.equal(logits[0][slot_ids(layout, 2)], logits[1][slot_ids(layout, 7)])  # and score the same there
    others = slice(layout["drag"].stop, layout.n)  # keys, texts, apps, answers: from the context alone
    assert torch.equal(logits[0][others], empty[others])


def test_maskable_ppo_trains_saves_and_loads_the_pointer_policy(view, tmp_path):
    env, observation = view
    model = MaskablePPO(RLViewPolicy, env, n_steps=16, batch_size=8, n_epochs=1, seed=0, device="cpu")
    assert isinstance(model.policy.features_extractor, RLViewExtractor)
    before = [parameter.detach().clone() for parameter in model.policy.action_net.scorer.parameters()]
    model.learn(32)
    assert any(not torch.equal(old, new) for old, new in zip(before, model.policy.action_net.scorer.parameters()))
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip")
    assert isinstance(loaded.policy, RLViewPolicy) and isinstance(loaded.policy.action_net, SlotPointerHead)
    masks = env.get_wrapper_attr("action_masks")()
    action, _ = loaded.predict(observation, deterministic=True, action_masks=masks)
    assert masks[int(action)]
    assert action == model.predict(observation, deterministic=True, action_masks=masks)[0]


def test_the_pointer_policys_context_reads_the_slots_pooled_not_slot_by_slot(view):
    """The actor's and the critic's layers see the same screen the same wherever its rows sit: rows moved to other
    slots (a tablet's list starting lower, a row more above) change only which ids score what."""
    env, observation = view
    model = MaskablePPO(RLViewPolicy, env, n_steps=16, batch_size=8, seed=0, device="cpu")
    policy = model.policy
    slots = int(observation["element_mask"].sum())
    moved = {key: value.copy() for key, value in observation.items()}
    moved["elements"] = np.roll(observation["elements"], 3, axis=0)  # every row three slots lower
    moved["element_mask"] = np.roll(observation["element_mask"], 3)
    assert slots + 3 <= SLOTS and not np.array_equal(moved["elements"], observation["elements"])
    with torch.no_grad():
        (features, moved_features) = (policy.extract_features(batch(one), policy.pi_features_extractor)
                                      for one in (observation, moved))
        (actor, critic), (moved_actor, moved_critic) = (policy.mlp_extractor(one)
                                                        for one in (features, moved_features))
        logits, moved_logits = policy.action_net(actor)[0], policy.action_net(moved_actor)[0]
    context = policy.mlp_extractor.context_dim
    assert torch.allclose(actor[:, :context], moved_actor[:, :context], atol=1e-6)
    assert torch.allclose(critic, moved_critic, atol=1e-6), (critic - moved_critic).abs().max()
    layout = env.get_wrapper_attr("layout")
    taps = layout["tap"]
    assert torch.allclose(logits[taps.start:taps.start + slots], moved_logits[taps.start + 3:taps.start + 3 + slots])
    assert torch.allclose(logits[layout["drag"].stop:], moved_logits[layout["drag"].stop:])  # keys, texts, apps
