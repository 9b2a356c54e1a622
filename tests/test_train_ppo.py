"""examples/train_ppo.py: a short run writes a loadable model, a curve and a summary; behaviour cloning on oracle
demonstrations solves held-out SendSms seeds that an untrained policy never solves."""

from __future__ import annotations

import csv
import json

import pytest
from PIL import Image
from sb3_contrib import MaskablePPO

import android_gym
from android_gym.datasets import record_dataset
from android_gym.wrappers import make_rl_env


@pytest.fixture(scope="module")
def train_ppo(load_script):
    return load_script("examples/train_ppo.py")


def test_short_run_with_recorded_demonstrations_writes_model_curve_and_summary(train_ppo, tmp_path):
    summary = train_ppo.main(["--task", "OpenAppTaskEval", "--steps", "256", "--n-steps", "64", "--workers", "2",
                              "--eval-episodes", "3", "--eval-every", "128", "--bc-episodes", "2", "--bc-epochs", "5",
                              "--out", str(tmp_path)])
    assert summary["env_steps"] == 256 and summary["workers"] == 2
    assert summary["bc_dataset"] == "androidworld/OpenAppTaskEval/oracle-v0"
    assert (tmp_path / "demos" / "androidworld" / "OpenAppTaskEval" / "oracle-v0").is_dir()
    assert summary == json.loads((tmp_path / "summary.json").read_text())
    with open(tmp_path / "curve.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["env_steps"]) for row in rows] == [0, 128, 256]
    assert float(rows[-1]["eval_success"]) == summary["final_held_out_success"]
    with Image.open(tmp_path / "curve.png") as image:
        assert image.format == "PNG" and image.size == (640, 400)

    model = MaskablePPO.load(tmp_path / "model.zip")  # runs on the RL view, as the docstring says
    env = make_rl_env(android_gym.env_id("OpenAppTaskEval"))
    observation, _ = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    action, _ = model.predict(observation, deterministic=True, action_masks=masks)
    assert masks[int(action)]
    env.close()


def test_behaviour_cloning_of_recorded_demonstrations_solves_held_out_sendsms(train_ppo, tmp_path):
    env_id = android_gym.env_id("SendSms")
    record_dataset(env_id, 10, seed=20_000, dataset_id="test/SendSms/oracle-v0", data_path=tmp_path, progress=False)
    demonstrations = train_ppo.load_demonstrations("test/SendSms/oracle-v0", tmp_path)
    assert len(demonstrations) == 60  # six UI steps an episode: open, compose, number, next, message, send
    assert [sample.value for sample in demonstrations[:6]] == pytest.approx([0.99 ** k for k in range(5, -1, -1)])
    assert all(sample.mask[sample.action] for sample in demonstrations)

    env = make_rl_env(env_id)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, seed=0, device="cpu")
    held_out = range(10_000, 10_010)
    assert train_ppo.evaluate(model, env, held_out)[0] == 0.0
    assert train_ppo.behaviour_clone(model, demonstrations, epochs=100) == 1.0
    success, mean_steps = train_ppo.evaluate(model, env, held_out)
    assert success >= 0.9 and mean_steps == pytest.approx(6, abs=0.5)
    env.close()


def test_unknown_task_is_a_clear_error(train_ppo, tmp_path):
    with pytest.raises(android_gym.AndroidGymError, match="SendSms"):
        train_ppo.main(["--task", "SendSmss", "--out", str(tmp_path)])
    assert not any(tmp_path.iterdir())
