"""Vector envs as users write them: gymnasium's ``make_vec`` (sync and async, fork and spawn) and
stable-baselines3's ``SubprocVecEnv`` (its default start method), each compared field by field with single envs
given the same seeds and actions."""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector.utils import create_shared_memory, iterate, read_from_shared_memory, write_to_shared_memory

import android_gym
from android_gym.actions import ACTION_TYPES, ActionType
from android_gym.spaces import SharedStrings, SharedText
from android_gym.wrappers import CompressUITree, make_rl_env

ENV_ID = android_gym.env_id("SendSms")
NUM_ENVS = 2
STEPS = 12
OPEN_APPS = {"action_type": np.full(NUM_ENVS, ACTION_TYPES.index(ActionType.OPEN_APP)),
             "app_name": ("Simple SMS Messenger", "Contacts")}


def assert_same(vector_value, single_value, where: str) -> None:
    """One env's slice of a vector field equals the single env's value."""
    if isinstance(single_value, np.ndarray):
        assert np.array_equal(vector_value, single_value), where
    else:
        assert vector_value == single_value, where


def assert_env_matches(i: int, vector: tuple, single: tuple) -> None:
    """Env ``i`` of a vector step (observation, reward, terminated, truncated, info) equals a single env's."""
    (vec_obs, vec_reward, vec_term, vec_trunc, vec_info), (obs, reward, term, trunc, info) = vector, single
    assert set(vec_obs) == set(obs)
    for key, value in obs.items():
        assert_same(vec_obs[key][i], value, f"observation[{key!r}] of env {i}")
    assert (vec_reward[i], vec_term[i], vec_trunc[i]) == (reward, term, trunc)
    assert_info_matches(i, vec_info, info, "info")


def assert_info_matches(i: int, vec_info: dict, info: dict, where: str) -> None:
    """Env ``i``'s entries of a vector info (a dict nests as a dict of arrays) equal a single env's info."""
    for key, value in info.items():
        assert vec_info[f"_{key}"][i], f"{where}[{key!r}] of env {i} missing"
        if isinstance(value, dict):
            assert_info_matches(i, vec_info[key], value, f"{where}[{key!r}]")
        else:
            assert_same(vec_info[key][i], value, f"{where}[{key!r}] of env {i}")


def run_side_by_side(vector: gym.vector.VectorEnv, singles: list[gym.Env], seed: int) -> set[str]:
    """Reset and step the vector env and the single envs alike (random actions, NEXT_STEP autoreset), asserting
    every field matches; returns the distinct trees env 0 showed, so a caller can tell the screens changed."""
    obs, info = vector.reset(seed=seed)
    not_done = [False] * NUM_ENVS
    for i, env in enumerate(singles):
        assert_env_matches(i, (obs, np.zeros(NUM_ENVS), not_done, not_done, info),
                           (*env.reset(seed=seed + i)[:1], 0.0, False, False, env.reset(seed=seed + i)[1]))
    vector.action_space.seed(seed)
    done = [False] * NUM_ENVS
    trees = {obs["a11y_tree"][0]}
    for step in range(STEPS):
        actions = {**vector.action_space.sample(), "index": np.full(NUM_ENVS, -1)}  # touches by position
        if step == 0:
            actions.update(OPEN_APPS)
        result = vector.step(actions)
        for i, (env, action) in enumerate(zip(singles, iterate(vector.action_space, actions))):
            if done[i]:  # NEXT_STEP autoreset: the vector env resets this env and ignores its action
                single_obs, single_info = env.reset()
                single = (single_obs, 0.0, False, False, single_info)
            else:
                single = env.step(action)
            assert_env_matches(i, result, single)
            done[i] = single[2] or single[3]
        trees.add(result[0]["a11y_tree"][0])
    return trees


@pytest.mark.parametrize("mode, context", [("sync", None), ("async", None), ("async", "spawn")])
def test_make_vec_matches_single_envs_field_by_field(mode, context):
    vector_kwargs = {} if context is None else {"context": context}
    vector = gym.make_vec(ENV_ID, num_envs=NUM_ENVS, vectorization_mode=mode, vector_kwargs=vector_kwargs)
    singles = [gym.make(ENV_ID) for _ in range(NUM_ENVS)]
    try:
        if mode == "async":
            assert vector.shared_memory, "make_vec's default (shared memory) is the path under test"
        trees = run_side_by_side(vector, singles, seed=5)
    finally:
        vector.close()
        for env in singles:
            env.close()
    assert len(trees) > 1, "the random actions never changed the screen; the comparison proved little"


def test_async_wrapped_text_fields_and_uncopied_views():
    """A wrapper's own Text field (CompressUITree's ui_text) arrives too; with copy=False the observation holds
    live views of the shared strings that read as the same tuple."""
    vector = gym.make_vec(ENV_ID, num_envs=NUM_ENVS, vectorization_mode="async", wrappers=[CompressUITree],
                          vector_kwargs={"copy": False}, pixels=False)
    single = CompressUITree(gym.make(ENV_ID, pixels=False))
    try:
        obs, _ = vector.reset(seed=3)
        assert isinstance(obs["ui_text"], SharedStrings)
        expected, _ = single.reset(seed=3)
        assert obs["ui_text"][0] == expected["ui_text"] and obs["goal"][0] == expected["goal"]
        actions = {**vector.action_space.sample(), **OPEN_APPS}
        before = tuple(obs["ui_text"])
        obs, *_ = vector.step(actions)
        expected, *_ = single.step(next(iter(iterate(vector.action_space, actions))))
        assert obs["ui_text"][0] == expected["ui_text"] and tuple(obs["ui_text"]) != before
    finally:
        vector.close()
        single.close()


def test_shared_text_round_trips_any_charset_through_shared_memory():
    space = SharedText(6, min_length=0, charset="abcé😀 ")
    buffer = create_shared_memory(space, n=3)
    view = read_from_shared_memory(space, buffer, n=3)
    for index, text in enumerate(["😀😀😀😀😀😀", "", "é a"]):
        write_to_shared_memory(space, index, text, buffer)
    assert list(view) == ["😀😀😀😀😀😀", "", "é a"] and view[-1] == "é a" and view[1:] == ("", "é a")
    assert copy.deepcopy({"text": view}) == {"text": ("😀😀😀😀😀😀", "", "é a")}
    write_to_shared_memory(space, 1, "abc", buffer)
    assert view[1] == "abc", "a view reads the current strings, not those of when it was made"
    with pytest.raises(IndexError):
        view[3]


def masked_random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One allowed action id per env, uniformly among each mask's allowed ids."""
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def test_sb3_subproc_vec_env_matches_single_rl_envs():
    """SB3's default start method (forkserver on Linux): the env functions are pickled to fresh interpreters, as
    under spawn (which ``make_vec``'s async-spawn case runs)."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vector = SubprocVecEnv([lambda: make_rl_env(ENV_ID) for _ in range(NUM_ENVS)])
    singles = [make_rl_env(ENV_ID) for _ in range(NUM_ENVS)]
    rng = np.random.default_rng(0)
    try:
        vector.seed(11)
        obs = vector.reset()
        expected = [env.reset(seed=11 + i)[0] for i, env in enumerate(singles)]
        for step in range(STEPS):
            for i, single_obs in enumerate(expected):
                for key, value in single_obs.items():
                    assert np.array_equal(obs[key][i], value), f"step {step}: obs[{key!r}] of env {i}"
            masks = get_action_masks(vector)
            assert np.array_equal(masks, np.stack([env.get_wrapper_attr("action_masks")() for env in singles]))
            actions = masked_random_actions(masks, rng)
            obs, rewards, dones, infos = vector.step(actions)
            expected = []
            for i, (env, action) in enumerate(zip(singles, actions)):
                single_obs, reward, terminated, truncated, _ = env.step(action)
                assert (rewards[i], dones[i]) == (reward, terminated or truncated)
                if terminated or truncated:  # SB3 resets at once; the last observation goes to the info
                    assert np.array_equal(infos[i]["terminal_observation"]["elements"], single_obs["elements"])
                    single_obs, _ = env.reset()
                expected.append(single_obs)
    finally:
        vector.close()
        for env in singles:
            env.close()


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_envs_take_per_env_actions_in_every_single_env_form(mode):
    """A list with one action per env, each a JSON string, an Action, a dict or a space sample; a batched dict
    with only some fields; a malformed action is that env's invalid action while the other env acts."""
    from android_gym.actions import Action

    vector = gym.make_vec(ENV_ID, num_envs=NUM_ENVS, vectorization_mode=mode)
    try:
        vector.reset(seed=3)
        open_sms = '{"action_type": "open_app", "app_name": "Simple SMS Messenger"}'
        obs, _, _, _, info = vector.step([open_sms, Action.parse({"action_type": "open_app", "app_name": "Contacts"})])
        assert list(info["invalid_action"]) == [None, None]
        assert "com.simplemobiletools.smsmessenger" in obs["a11y_tree"][0]
        assert "com.google.android.contacts" in obs["a11y_tree"][1]
        home = ACTION_TYPES.index(ActionType.NAVIGATE_HOME)
        obs, _, _, _, info = vector.step({"action_type": np.full(NUM_ENVS, home)})  # the other fields: defaults
        assert list(info["invalid_action"]) == [None, None]
        assert all("com.google.android.apps.nexuslauncher" in tree for tree in obs["a11y_tree"])
        sample = {key: value[0] for key, value in vector.action_space.sample().items()}
        _, _, _, _, info = vector.step([{"action_type": "no_such_action"}, sample])
        assert "action_type must be one of" in info["invalid_action"][0]
        with pytest.raises(ValueError, match="one action per env"):
            vector.step([open_sms])
        with pytest.raises(TypeError, match="one action per env"):
            vector.step(open_sms)
    finally:
        vector.close()
