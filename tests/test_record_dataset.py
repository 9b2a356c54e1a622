"""``android-gym record``: oracle demonstrations into a Minari dataset, loaded back and replayed exactly."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium as gym
import minari
import numpy as np
import pytest

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.cli import main
from android_gym.tasks.oracle import Selector, act, expect
from android_gym.wrappers import make_rl_env

#: (dataset id, env id, seeds) recorded once for the module, rl view.
RECORDED = [("androidworld/SendSms/oracle-v1", "AndroidWorld/SendSms-v0", [5, 6, 7]),
            ("androidworld/SystemWifiTurnOn/demo-v3", "AndroidWorld/SystemWifiTurnOn-v0", [0, 1])]
RAW_ID = "androidworld/SystemWifiTurnOn/oracle-raw-v0"
SMALL = "sim:270x600"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A datasets folder with the ``RECORDED`` datasets (through the CLI, a bare task name for SendSms) and a raw
    one with pixels."""
    path = tmp_path_factory.mktemp("minari")
    assert main(["record", "SendSms", "--episodes", "3", "--seed", "5", "--data-path", str(path)]) == 0
    assert main(["record", "AndroidWorld/SystemWifiTurnOn-v0", "--episodes", "2", "--data-path", str(path),
                 "--dataset-id", RECORDED[1][0]]) == 0
    assert main(["record", "SystemWifiTurnOn", "--episodes", "2", "--seed", "3", "--view", "raw", "--pixels",
                 "--device", SMALL, "--data-path", str(path)]) == 0
    return path


@pytest.fixture
def load(root, monkeypatch):
    """``minari.load_dataset`` reading the module's datasets folder."""
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(root))
    return minari.load_dataset


def seeds_of(dataset) -> list[int]:
    return [meta["seed"] for meta in dataset.storage.get_episode_metadata(range(dataset.total_episodes))]


@pytest.mark.parametrize(("dataset_id", "env_id", "seeds"), RECORDED)
def test_episodes_are_oracle_successes_in_the_rl_spaces(load, dataset_id, env_id, seeds):
    dataset = load(dataset_id)
    reference = make_rl_env(env_id)
    assert dataset.observation_space == reference.observation_space
    assert dataset.action_space == reference.action_space
    assert dataset.total_episodes == len(seeds) and seeds_of(dataset) == seeds
    metadata = list(dataset.storage.get_episode_metadata(range(len(seeds))))
    steps = 0
    for episode, meta in zip(dataset.iterate_episodes(), metadata):
        n = len(episode.actions)
        steps += n
        assert n >= 2 and episode.rewards.sum() == pytest.approx(1.0) and meta["rewards_sum"] == pytest.approx(1.0)
        assert episode.terminations[-1] and not episode.terminations[:-1].any() and not episode.truncations.any()
        for key, rows in episode.observations.items():
            assert len(rows) == n + 1
            assert all(reference.observation_space[key].contains(row) for row in rows)
        assert all(reference.action_space.contains(action) for action in episode.actions)
        masks = episode.infos["action_mask"]
        assert masks.shape == (n + 1, reference.action_space.n) and masks.dtype == bool
        assert all(masks[t, action] for t, action in enumerate(episode.actions))  # allowed where it was chosen
        assert episode.infos["score"][-1] == 1.0 and episode.infos["score"][0] == 0.0
        assert json.loads(meta["params"]) and meta["goal"]
    assert dataset.total_steps == steps
    extra = dataset.storage.metadata["android_gym"]
    assert extra["env_id"] == env_id and extra["view"] == "rl" and extra["skipped"] == []
    last = reference.action_space.n
    assert extra["seeds"] == [seeds[0], seeds[-1]] and extra["action_layout"]["complete"] == [last - 1, last]
    reference.close()


def replay(env: gym.Env, episode, seed: int) -> None:
    """Reset ``env`` with the episode's seed, step its stored actions; observations, masks, rewards and ends must
    be the stored ones exactly."""
    observation, info = env.reset(seed=seed)
    for t in range(len(episode.actions) + 1):
        if t:
            observation, reward, terminated, truncated, info = env.step(episode.actions[t - 1])
            assert reward == episode.rewards[t - 1]
            assert (terminated, truncated) == (episode.terminations[t - 1], episode.truncations[t - 1])
        for key, rows in episode.observations.items():
            assert np.array_equal(observation[key], rows[t]), (t, key)
        assert np.array_equal(info["action_mask"], episode.infos["action_mask"][t])


@pytest.mark.parametrize(("dataset_id", "env_id", "seeds"), RECORDED)
def test_replaying_the_stored_actions_reproduces_each_episode(load, dataset_id, env_id, seeds):
    dataset = load(dataset_id)
    env = make_rl_env(env_id)
    for episode, seed in zip(dataset.iterate_episodes(), seeds):
        replay(env, episode, seed)
    env.close()
    recovered = dataset.recover_environment()  # the spec carries make_rl_env's wrappers
    assert recovered.observation_space == dataset.observation_space
    assert recovered.action_space == dataset.action_space
    replay(recovered, dataset[len(seeds) - 1], seeds[-1])
    recovered.close()


def test_raw_view_keeps_text_json_actions_and_pixels(load):
    dataset = load(RAW_ID)
    env = gym.make("AndroidWorld/SystemWifiTurnOn-v0", device=SMALL, pixels=True)
    assert dataset.observation_space == env.observation_space  # Text spaces survive Minari's serialization
    assert isinstance(dataset.action_space, gym.spaces.Text)
    assert seeds_of(dataset) == [3, 4]
    for episode, seed in zip(dataset.iterate_episodes(), [3, 4]):
        assert [Action.parse(action).action_type for action in episode.actions][0] is ActionType.OPEN_APP
        observation, _ = env.reset(seed=seed)
        for t in range(len(episode.actions) + 1):
            if t:
                observation, reward, terminated, _, info = env.step(episode.actions[t - 1])
                assert reward == episode.rewards[t - 1] and terminated == episode.terminations[t - 1]
                assert info["invalid_action"] is None
            assert observation["a11y_tree"] == episode.observations["a11y_tree"][t]
            assert observation["goal"] == episode.observations["goal"][t] == "Turn wifi on."
            stored = episode.observations["pixels"][t]  # JPEG on disk: close, not equal
            assert stored.shape == observation["pixels"].shape == (600, 270, 3)
            assert np.abs(stored.astype(int) - observation["pixels"]).mean() < 4
        assert sum(episode.rewards) == 1.0
    env.close()


def test_bad_input_writes_nothing_and_existing_ids_need_overwrite(tmp_path, capsys, monkeypatch):
    data = tmp_path / "data"
    common = ["--data-path", str(data), "--episodes", "1"]
    assert main(["record", "SendSmz", *common]) == 2
    assert "Did you mean" in capsys.readouterr().err and not data.exists()
    assert main(["record", "SendSms", "--dataset-id", "androidworld/no-version", *common]) == 2
    assert "malformed dataset id" in capsys.readouterr().err
    assert main(["record", "SendSms", "--pixels", *common]) == 2
    assert "--view raw" in capsys.readouterr().err

    dataset_id = "tests/wifi-v0"
    assert main(["record", "SystemWifiTurnOn", "--dataset-id", dataset_id, *common]) == 0
    first = capsys.readouterr().out
    assert "recorded 1/1 episodes" in first and str(data / "tests" / "wifi-v0") in first and "on disk" in first
    assert main(["record", "SystemWifiTurnOn", "--dataset-id", dataset_id, *common]) == 2
    assert "already exists" in capsys.readouterr().err
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(data))
    assert minari.load_dataset(dataset_id).total_episodes == 1
    assert main(["record", "SystemWifiTurnOn", "--dataset-id", dataset_id, "--overwrite", "--data-path", str(data),
                 "--episodes", "2", "--seed", "7"]) == 0
    replaced = minari.load_dataset(dataset_id)
    assert replaced.total_episodes == 2 and seeds_of(replaced) == [7, 8]
    assert sorted(path.name for path in (data / "tests").iterdir()) == ["namespace_metadata.json", "wifi-v0"]


def _broken(how: str):
    """An oracle that cannot succeed: it does nothing, takes a step the rl view has no id for, or looks for an
    element that is not there."""
    return {"unsolved": lambda steps: [],
            "unencodable": lambda steps: [act(Action(ActionType.WAIT)), *steps],
            "oracle error": lambda steps: [expect(Selector(text="No such button")), *steps]}[how]


@pytest.mark.parametrize(("how", "reason"), [
    ("unsolved", "the oracle did not solve the task: score 0.00 after 1 step(s) (ended)"),
    ("unencodable", """the oracle's action {"action_type": "wait"} has no id in the rl view's action space"""),
    ("oracle error", "the oracle's step 0 found nothing to act on: no element on screen matches")])
def test_failed_seeds_are_skipped_and_reported(tmp_path, capsys, monkeypatch, how, reason):
    task = android_gym.get_task("SystemWifiTurnOn")
    original, calls, broken = task.oracle, [], {2}  # the second episode: seed 1

    def oracle(self):
        calls.append(1)
        steps = original(self)
        return _broken(how)(steps) if len(calls) in broken else steps

    monkeypatch.setattr(task, "oracle", oracle)
    assert main(["record", "SystemWifiTurnOn", "--episodes", "3", "--data-path", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "recorded 2/3 episodes" in out and "skipped 1 episode(s)" in out and f"seed 1: {reason}" in out
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    dataset = minari.load_dataset("androidworld/SystemWifiTurnOn/oracle-v1")
    assert seeds_of(dataset) == [0, 2]
    assert [skip["seed"] for skip in dataset.storage.metadata["android_gym"]["skipped"]] == [1]

    calls.clear()
    broken.add(1)
    assert main(["record", "SystemWifiTurnOn", "--episodes", "1", "--seed", "1", "--dataset-id", "none/wifi-v0",
                 "--data-path", str(tmp_path)]) == 2
    assert "solved none of the 1 episode(s), no dataset written" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()  # nor the namespace it would have made
    calls.clear()  # a failed --overwrite keeps the dataset it was to replace
    assert main(["record", "SystemWifiTurnOn", "--episodes", "1", "--seed", "1", "--overwrite",
                 "--data-path", str(tmp_path)]) == 2
    assert seeds_of(minari.load_dataset("androidworld/SystemWifiTurnOn/oracle-v1")) == [0, 2]
    assert sorted(path.name for path in (tmp_path / "androidworld" / "SystemWifiTurnOn").iterdir()) == \
        ["namespace_metadata.json", "oracle-v1"]  # and no backup left


def test_records_over_adb_the_same_demonstrations(fresh_served_phone, tmp_path, monkeypatch):
    device = f"adb:{fresh_served_phone.serial}"
    for name in ("sim", "adb"):
        assert main(["record", "SystemWifiTurnOn", "--episodes", "2", "--seed", "4", "--dataset-id", f"{name}/wifi-v0",
                     "--data-path", str(tmp_path), "--device", "sim" if name == "sim" else device]) == 0
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    local, remote = (minari.load_dataset(f"{name}/wifi-v0") for name in ("sim", "adb"))
    assert remote.spec.env_spec.kwargs["device"] == device
    for ours, theirs in zip(local.iterate_episodes(), remote.iterate_episodes()):
        assert np.array_equal(ours.actions, theirs.actions) and np.array_equal(ours.rewards, theirs.rewards)
        for key, rows in ours.observations.items():
            assert np.array_equal(rows, theirs.observations[key]), key


def test_missing_minari_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "minari", None)  # import minari → ImportError
    assert main(["record", "SendSms", "--episodes", "1", "--data-path", str(tmp_path)]) == 2
    assert 'pip install -e ".[rl]"' in capsys.readouterr().err


def test_core_and_cli_do_not_import_minari():
    code = ("import sys, android_gym, android_gym.cli, android_gym.datasets; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('minari', 'h5py')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
