"""SaveCopyOfReceiptTaskEval: AndroidWorld's parameters and goal, the receipt rendered from pinned parameters, and a
check that wants a byte-identical copy in Download with the original left in DCIM."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

from android_gym.envs.gallery import SaveCopyOfReceiptTaskEval
from android_gym.tasks.oracle import Selector, complete, tap
from android_gym.testing import play_steps

TASK = "SaveCopyOfReceiptTaskEval"


def device(env: gym.Env):
    return env.unwrapped.device


def task(env: gym.Env) -> SaveCopyOfReceiptTaskEval:
    return env.unwrapped.task


@pytest.mark.parametrize("seed", range(3))
def test_parameters_and_goal_follow_androidworld(seed):
    params = SaveCopyOfReceiptTaskEval.generate_params(np.random.default_rng(seed))
    assert re.fullmatch(r"receipt_[A-Za-z0-9_]+\.jpg", params["file_name"])
    assert len(params["receipt"]["transactions"]) == 1
    goal = SaveCopyOfReceiptTaskEval(params).goal
    assert goal == (f"In Simple Gallery Pro, copy {params['file_name']} in DCIM and save a copy with the same name in "
                    "Download")


def test_pinned_parameters_pin_the_pictures_bytes(reset_task):
    env, info = reset_task(TASK, seed=3)
    first = device(env).pull(f"/sdcard/DCIM/{info['params']['file_name']}")
    assert first[:3] == b"\xff\xd8\xff"  # a JPEG
    other, _ = reset_task(TASK, seed=9, params=info["params"])
    assert device(other).pull(f"/sdcard/DCIM/{info['params']['file_name']}") == first


def test_the_oracle_copies_within_the_budget_and_the_original_stays(reset_task):
    env, info = reset_task(TASK, seed=1)
    steps = task(env).oracle()
    assert len(steps) <= SaveCopyOfReceiptTaskEval.max_steps()
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 1.0
    name = info["params"]["file_name"]
    assert device(env).pull(f"/sdcard/Download/{name}") == device(env).pull(f"/sdcard/DCIM/{name}")


def test_moving_instead_of_copying_scores_zero(reset_task):
    env, info = reset_task(TASK, seed=2)
    steps = list(task(env).oracle())
    steps[4] = tap(Selector(text="Move to"))
    info, invalid = play_steps(env, info, steps)
    name = info["params"]["file_name"]
    assert not invalid and device(env).pull(f"/sdcard/Download/{name}")  # it is in Download ...
    assert info["score"] == 0.0  # ... but DCIM lost it


def test_a_wrong_name_or_changed_bytes_score_zero_and_a_plain_copy_scores_one(reset_task):
    env, info = reset_task(TASK, seed=4)
    name = info["params"]["file_name"]
    dev = device(env)
    dev.shell(f"cp /sdcard/DCIM/{name} /sdcard/Download/copy_{name}")
    assert task(env).is_successful(dev) == 0.0
    dev.push(b"not the receipt", f"/sdcard/Download/{name}")
    assert task(env).is_successful(dev) == 0.0
    dev.shell(f"cp /sdcard/DCIM/{name} /sdcard/Download/{name}")
    assert task(env).is_successful(dev) == 1.0
    dev.shell(f"rm /sdcard/DCIM/{name}")
    assert task(env).is_successful(dev) == 0.0


def test_doing_nothing_or_only_declaring_completion_scores_zero(reset_task):
    env, info = reset_task(TASK, seed=5)
    info, invalid = play_steps(env, info, [complete()])
    assert not invalid and info["score"] == 0.0
