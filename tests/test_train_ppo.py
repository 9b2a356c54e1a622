"""examples/train_ppo.py: a short run writes a loadable model, a curve, a summary and a TensorBoard log; behaviour
cloning on oracle demonstrations solves held-out SendSms seeds that an untrained policy never solves."""

from __future__ import annotations

import csv
import json
import multiprocessing.util
import re
import tempfile

import pytest
from PIL import Image
from sb3_contrib import MaskablePPO

import android_gym
from android_gym.datasets import record_dataset
from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_extractor import RLViewExtractor, RLViewPolicy


@pytest.fixture(scope="module")
def train_ppo(load_script):
    return load_script("examples/train_ppo.py")


DEFAULT_VIEW = {"max_elements": 64, "text_slots": 96, "end_penalty": 0.1}


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """The process's temporary folder (``tempfile.gettempdir()``, where SB3 puts a default log), empty.
    multiprocessing's own folder (the forkserver's socket) is made first, in the real one: the process keeps it, and
    a socket path in ``tmp_path`` can pass Unix's 107-byte limit (under ``pytest -n``'s ``popen-gw<N>`` folders it
    does)."""
    multiprocessing.util.get_temp_dir()
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_short_run_with_recorded_demonstrations_writes_model_curve_and_summary(train_ppo, tmp_path, temp_dir):
    # Wiring, not learning (the cloning tests below learn): two PPO updates of 2 workers × 32 steps, two evaluations.
    summary = train_ppo.main(["--task", "OpenAppTaskEval", "--steps", "128", "--n-steps", "32", "--workers", "2",
                              "--eval-episodes", "2", "--eval-every", "64", "--bc-episodes", "2", "--bc-epochs", "5",
                              "--out", str(tmp_path)])
    assert summary["env_steps"] == 128 and summary["workers"] == 2
    assert summary["bc_dataset"] == "androidworld/OpenAppTaskEval/oracle-v1"
    assert (tmp_path / "demos" / "androidworld" / "OpenAppTaskEval" / "oracle-v1").is_dir()
    assert summary == json.loads((tmp_path / "summary.json").read_text())
    with open(tmp_path / "curve.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["env_steps"]) for row in rows] == [0, 64, 128]
    assert float(rows[-1]["eval_success"]) == summary["final_held_out_success"]
    with Image.open(tmp_path / "curve.png") as image:
        assert image.format == "PNG" and image.size == (640, 400)
    assert list((tmp_path / "tb").glob("events.out.tfevents.*")) and (tmp_path / "tb" / "progress.csv").is_file()
    assert not list(temp_dir.glob("SB3-*"))  # no stray default log folder

    assert summary["view_kwargs"] == DEFAULT_VIEW and summary["policy_net"] == "pointer"  # MaskablePPO's default
    assert summary["ppo_kwargs"]["target_kl"] == train_ppo.TARGET_KL
    model = MaskablePPO.load(tmp_path / "model.zip")  # runs on the RL view, as the docstring says
    assert isinstance(model.policy, RLViewPolicy)
    env = make_rl_env(android_gym.env_id("OpenAppTaskEval"), **summary["view_kwargs"])
    observation, _ = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    action, _ = model.predict(observation, deterministic=True, action_masks=masks)
    assert masks[int(action)]
    env.close()


def test_without_tensorboard_the_log_is_csv_and_the_view_and_ppo_options_reach_the_envs_and_model(
        train_ppo, tmp_path, temp_dir, monkeypatch):
    monkeypatch.setattr(train_ppo.sb3_logger, "SummaryWriter", None)  # as SB3 sets it when tensorboard is missing
    view = {"max_elements": 16, "text_slots": 8, "end_penalty": 0.25}
    summary = train_ppo.main(["--task", "OpenAppTaskEval", "--steps", "32", "--n-steps", "16", "--workers", "1",
                              "--eval-episodes", "1", "--eval-every", "32", "--max-elements", "16", "--text-slots",
                              "8", "--end-penalty", "0.25", "--batch-size", "8", "--n-epochs", "2", "--in-process",
                              "--policy-net", "elements", "--out", str(tmp_path)])
    assert summary["view_kwargs"] == view == json.loads((tmp_path / "summary.json").read_text())["view_kwargs"]
    assert summary["ppo_kwargs"] == {"n_steps": 16, "batch_size": 8, "n_epochs": 2, "ent_coef": 0.01,
                                     "target_kl": train_ppo.TARGET_KL}
    assert summary["in_process"] is True and summary["policy_net"] == "elements"
    with open(tmp_path / "tb" / "progress.csv") as handle:
        assert [int(row["time/total_timesteps"]) for row in csv.DictReader(handle)] == [16, 32]
    assert not list((tmp_path / "tb").glob("events.out.tfevents.*")) and not list(temp_dir.glob("SB3-*"))
    model = MaskablePPO.load(tmp_path / "model.zip")
    assert (model.batch_size, model.n_epochs) == (8, 2)
    assert isinstance(model.policy.features_extractor, RLViewExtractor)
    assert summary["policy_parameters"] == sum(parameter.numel() for parameter in model.policy.parameters())
    env = make_rl_env(android_gym.env_id("OpenAppTaskEval"), **view)
    assert (model.observation_space, model.action_space) == (env.observation_space, env.action_space)
    env.close()


def test_the_pointer_policy_is_maskable_ppos(train_ppo, tmp_path):
    with pytest.raises(android_gym.AndroidGymError, match="--algo maskable"):
        train_ppo.main(["--task", "OpenAppTaskEval", "--algo", "ppo", "--policy-net", "pointer", "--steps", "16",
                        "--out", str(tmp_path)])
    assert train_ppo.parse_args(["--algo", "ppo"]).policy_net == "mlp"  # PPO's default: SB3's own policy
    assert train_ppo.parse_args([]).policy_net == "pointer"


def test_help_shows_every_option_with_its_default(train_ppo, capsys):
    with pytest.raises(SystemExit):
        train_ppo.parse_args(["--help"])
    text = capsys.readouterr().out
    options = re.findall(r"^  (--[a-z-]+)", text, re.MULTILINE)
    assert {"--max-elements", "--text-slots", "--end-penalty", "--out"} <= set(options)
    assert text.count("(default:") == len(options)  # a help string on each, with its default
    assert ("--end-penalty END_PENALTY reward for ending an episode unsuccessfully is minus this "
            "(make_rl_env's end_penalty) (default: 0.1)") in " ".join(text.split())


def test_behaviour_cloning_of_recorded_demonstrations_solves_held_out_sendsms(train_ppo, tmp_path):
    env_id = android_gym.env_id("SendSms")
    record_dataset(env_id, 10, seed=20_000, dataset_id="test/SendSms/oracle-v0", data_path=tmp_path, progress=False)
    demonstrations = train_ppo.load_demonstrations("test/SendSms/oracle-v0", tmp_path)
    assert len(demonstrations) == 60  # six UI steps an episode: open, compose, number, next, message, send
    assert [sample.value for sample in demonstrations[:6]] == pytest.approx([0.99 ** k for k in range(5, -1, -1)])
    assert all(sample.mask[sample.action] for sample in demonstrations)

    smaller = make_rl_env(env_id, max_elements=16, text_slots=8)
    with pytest.raises(android_gym.AndroidGymError, match="recorded on another RL view"):
        train_ppo.check_demonstrations(demonstrations, MaskablePPO("MultiInputPolicy", smaller, device="cpu"), "test")
    smaller.close()

    env = make_rl_env(env_id)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=64, seed=0, device="cpu")
    train_ppo.check_demonstrations(demonstrations, model, "test/SendSms/oracle-v0")
    held_out = range(10_000, 10_010)
    assert train_ppo.evaluate(model, env, held_out)[0] == 0.0
    assert train_ppo.behaviour_clone(model, demonstrations, epochs=400) == 1.0
    success, mean_steps = train_ppo.evaluate(model, env, held_out)
    assert success >= 0.9 and mean_steps == pytest.approx(6, abs=0.5)
    env.close()


def test_unknown_task_is_a_clear_error(train_ppo, tmp_path):
    with pytest.raises(android_gym.AndroidGymError, match="SendSms"):
        train_ppo.main(["--task", "SendSmss", "--out", str(tmp_path)])
    assert not any(tmp_path.iterdir())


def test_several_tasks_train_one_policy_evaluated_on_each(train_ppo, tmp_path):
    summary = train_ppo.main(["--task", "SendSms,ClockStopWatchRunning", "--steps", "32", "--n-steps", "16",
                              "--workers", "1", "--eval-episodes", "2", "--eval-every", "32", "--bc-episodes", "2",
                              "--bc-epochs", "400", "--out", str(tmp_path)])  # 300 already fit seeds 0-3, 200 not
    tasks = ["AndroidWorld/SimpleSmsSend-v0", "AndroidWorld/ClockStopWatchRunning-v0"]  # SendSms: an alias
    assert summary["env_id"] == tasks and list(summary["per_task"]) == tasks
    assert summary["bc_accuracy"] == 1.0  # both tasks' demonstrations, one policy
    assert all(set(result) == {"greedy", "sampled"} for result in summary["per_task"].values())
    assert summary["per_task"][tasks[1]]["greedy"] == 1.0  # the cloned policy starts the stopwatch on its own
