"""Audio Recorder tasks: AndroidWorld's parameters and goals, a first run of the app at every start, and strict
checks (one complete recording; under the requested name: a wrong name, a second recording or an unfinished
one score 0)."""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.envs.audio_recorder import BASE_NAMES, record_steps
from android_gym.sim.apps.audio_recorder import PACKAGE, WELCOME_ACTIVITY
from android_gym.tasks.files import AUDIORECORDER_DATA, list_files
from android_gym.tasks.oracle import OraclePolicy, OracleStep, Selector, open_app, replace_text, tap

NAME_FIELD = Selector(resource_id=f"{PACKAGE}:id/input_name")
SAVE, CANCEL = Selector(text="Save"), Selector(text="Cancel")
RECORD = Selector(content_desc="Recording: %s")
STOP = Selector(resource_id=f"{PACKAGE}:id/btn_record_stop")
WITH_NAME = "AudioRecorderRecordAudioWithFileName"
PINNED = {"file_name": "2023_05_17_memo.m4a", "text": ""}


@pytest.fixture
def make():
    """``make(task, params=None)`` → (env, info) after a reset with seed 0; envs are closed after the test."""
    envs = []

    def reset(task: str, params: dict | None = None):
        env = gym.make(android_gym.env_id(task), pixels=False)
        envs.append(env)
        _, info = env.reset(seed=0, options={"params": params} if params else None)
        return env, info

    yield reset
    for env in envs:
        env.close()


def play(env: gym.Env, info: dict, steps: Sequence[OracleStep]) -> dict:
    """Play ``steps`` (no invalid action allowed); the last info with the number of actions taken."""
    policy, actions = OraclePolicy(steps), 0
    while not policy.done:
        _, _, _, _, info = env.step(policy.act(info["ui_elements"]))
        actions += 1
        assert not info["invalid_action"], info["invalid_action"]
    return {**info, "actions": actions}


def names(env: gym.Env) -> list[str]:
    return sorted(found.name for found in list_files(env.unwrapped.device, AUDIORECORDER_DATA))


@pytest.mark.parametrize("seed", range(6))
def test_file_names_follow_androidworld(seed):
    params = android_gym.get_task(WITH_NAME).generate_params(np.random.default_rng(seed))
    assert params["text"] == "" and params["file_name"].endswith(".m4a")
    stem = params["file_name"].removesuffix(".m4a")
    assert any(stem.startswith(base + "_") or stem.endswith("_" + base) for base in BASE_NAMES)


def test_goals_and_budgets(make):
    env, info = make(WITH_NAME, PINNED)
    assert env.unwrapped.task.goal == ('Record an audio clip and save it with name "2023_05_17_memo.m4a" using '
                                       "Audio Recorder app.")
    assert android_gym.get_task(WITH_NAME).max_steps() == 20
    assert android_gym.get_task("AudioRecorderRecordAudio").max_steps() == 12
    assert android_gym.get_task("AudioRecorderRecordAudio").template == \
        "Record an audio clip using Audio Recorder app and save it."


def test_every_episode_starts_at_the_first_run_with_an_empty_records_folder(make):
    env, info = make("AudioRecorderRecordAudio")
    info = play(env, info, env.unwrapped.task.oracle())
    assert info["score"] == 1.0 and info["actions"] <= 12 and names(env) == ["Record-1.m4a"]
    _, info = env.reset(seed=0)
    assert names(env) == []
    play(env, info, [open_app("audio recorder")])
    assert env.unwrapped.device.shell("dumpsys window").output.count(WELCOME_ACTIVITY) >= 1


def test_a_recording_counts_under_any_name_but_not_unfinished_or_twice(make):
    env, info = make("AudioRecorderRecordAudio")
    info = play(env, info, [*record_steps(), replace_text(NAME_FIELD, "my clip"), tap(SAVE)])
    assert names(env) == ["my clip.m4a"] and info["score"] == 1.0
    _, info = env.reset(seed=0)
    info = play(env, info, record_steps()[:4])  # recording, never stopped: the file is still empty
    assert names(env) == ["Record-1.m4a"] and info["score"] == 0.0
    _, info = env.reset(seed=0)
    info = play(env, info, [*record_steps(), tap(CANCEL), tap(RECORD), tap(STOP), tap(CANCEL)])
    assert names(env) == ["Record-1.m4a", "Record-2.m4a"] and info["score"] == 0.0


def test_the_requested_name_with_the_apps_extension_succeeds(make):
    env, info = make(WITH_NAME, PINNED)
    info = play(env, info, env.unwrapped.task.oracle())
    assert names(env) == ["2023_05_17_memo.m4a.m4a"]
    assert info["score"] == 1.0 and info["actions"] <= 20


@pytest.mark.parametrize("typed", ["2023_05_17_memo", "2023_05_17_note.m4a"])
def test_a_wrong_name_scores_zero(make, typed):
    env, info = make(WITH_NAME, PINNED)
    info = play(env, info, [*record_steps(), replace_text(NAME_FIELD, typed), tap(SAVE)])
    assert names(env) == [f"{typed}.m4a"] and info["score"] == 0.0


def test_the_right_name_with_another_recording_beside_it_or_unfinished_scores_zero(make):
    env, info = make(WITH_NAME, PINNED)
    extra = [tap(RECORD), tap(STOP), tap(CANCEL)]
    info = play(env, info, [*record_steps(), replace_text(NAME_FIELD, PINNED["file_name"]), tap(SAVE), *extra])
    assert names(env) == ["2023_05_17_memo.m4a.m4a", "Record-2.m4a"] and info["score"] == 0.0
    env.unwrapped.device.shell(f"rm {AUDIORECORDER_DATA}/Record-2.m4a")
    assert env.unwrapped.task.is_successful(env.unwrapped.device) == 1.0
    env.unwrapped.device.shell(f"echo unfinished > {AUDIORECORDER_DATA}/2023_05_17_memo.m4a.m4a")
    assert env.unwrapped.task.is_successful(env.unwrapped.device) == 0.0


def test_the_file_name_task_clears_the_device_storage_as_androidworld(make):
    env, _ = make(WITH_NAME, PINNED)
    device = env.unwrapped.device
    device.shell("echo keep > /sdcard/Download/notes.txt")
    env.reset(seed=0, options={"params": PINNED})
    assert device.shell("ls /sdcard/Download").output.strip() == ""
    assert device.shell(f"[ -d {AUDIORECORDER_DATA} ]").ok
