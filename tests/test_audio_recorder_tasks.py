"""Audio Recorder tasks: AndroidWorld's parameters and goals, a first run of the app at every start, and strict
checks (one complete recording; under the requested name: a wrong name, a second recording or an unfinished
one score 0)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.envs.audio_recorder import BASE_NAMES, record_steps
from android_gym.sim.apps.audio_recorder import PACKAGE, WELCOME_ACTIVITY
from android_gym.tasks.files import AUDIORECORDER_DATA, list_files
from android_gym.tasks.oracle import Selector, open_app, replace_text, tap
from android_gym.testing import play_on_device, play_steps

NAME_FIELD = Selector(resource_id=f"{PACKAGE}:id/input_name")
SAVE, CANCEL = Selector(text="Save"), Selector(text="Cancel")
RECORD = Selector(content_desc="Recording: %s")
STOP = Selector(resource_id=f"{PACKAGE}:id/btn_record_stop")
WITH_NAME = "AudioRecorderRecordAudioWithFileName"
PINNED = {"file_name": "2023_05_17_memo.m4a", "text": ""}


def names(env: gym.Env) -> list[str]:
    return sorted(found.name for found in list_files(env.unwrapped.device, AUDIORECORDER_DATA))


@pytest.mark.parametrize("seed", range(6))
def test_file_names_follow_androidworld(seed):
    params = android_gym.get_task(WITH_NAME).generate_params(np.random.default_rng(seed))
    assert params["text"] == "" and params["file_name"].endswith(".m4a")
    stem = params["file_name"].removesuffix(".m4a")
    assert any(stem.startswith(base + "_") or stem.endswith("_" + base) for base in BASE_NAMES)


def test_goals_and_budgets(reset_task):
    env, info = reset_task(WITH_NAME, params=PINNED)
    assert env.unwrapped.task.goal == ('Record an audio clip and save it with name "2023_05_17_memo.m4a" using '
                                       "Audio Recorder app.")
    assert android_gym.get_task(WITH_NAME).max_steps() == 20
    assert android_gym.get_task("AudioRecorderRecordAudio").max_steps() == 12
    assert android_gym.get_task("AudioRecorderRecordAudio").template == \
        "Record an audio clip using Audio Recorder app and save it."


def test_every_episode_starts_at_the_first_run_with_an_empty_records_folder(reset_task):
    env, info = reset_task("AudioRecorderRecordAudio")
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert not invalid and info["score"] == 1.0 and info["actions"] <= 12 and names(env) == ["Record-1.m4a"]
    _, info = env.reset(seed=0)
    assert names(env) == []
    _, invalid = play_steps(env, info, [open_app("audio recorder")])
    assert not invalid and env.unwrapped.device.shell("dumpsys window").output.count(WELCOME_ACTIVITY) >= 1


def test_a_recording_counts_under_any_name_but_not_unfinished_or_twice(reset_task):
    env, info = reset_task("AudioRecorderRecordAudio")
    info, invalid = play_steps(env, info, record_steps())
    assert not invalid and names(env) == ["Record-1.m4a"] and info["score"] == 1.0  # the episode ends here
    assert play_on_device(env, [replace_text(NAME_FIELD, "my clip"), tap(SAVE)]) == 1.0  # past it, renamed
    assert names(env) == ["my clip.m4a"]
    _, info = env.reset(seed=0)
    info, invalid = play_steps(env, info, record_steps()[:4])  # recording, never stopped: the file is still empty
    assert not invalid and names(env) == ["Record-1.m4a"] and info["score"] == 0.0
    _, info = env.reset(seed=0)
    info, invalid = play_steps(env, info, record_steps())
    assert not invalid and info["score"] == 1.0  # the episode ends here
    assert play_on_device(env, [tap(CANCEL), tap(RECORD), tap(STOP), tap(CANCEL)]) == 0.0  # a second one, past it
    assert names(env) == ["Record-1.m4a", "Record-2.m4a"]


def test_the_requested_name_with_the_apps_extension_succeeds(reset_task):
    env, info = reset_task(WITH_NAME, params=PINNED)
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert not invalid and names(env) == ["2023_05_17_memo.m4a.m4a"]
    assert info["score"] == 1.0 and info["actions"] <= 20


@pytest.mark.parametrize("typed", ["2023_05_17_memo", "2023_05_17_note.m4a"])
def test_a_wrong_name_scores_zero(reset_task, typed):
    env, info = reset_task(WITH_NAME, params=PINNED)
    info, invalid = play_steps(env, info, [*record_steps(), replace_text(NAME_FIELD, typed), tap(SAVE)])
    assert not invalid and names(env) == [f"{typed}.m4a"] and info["score"] == 0.0


def test_the_right_name_with_another_recording_beside_it_or_unfinished_scores_zero(reset_task):
    env, info = reset_task(WITH_NAME, params=PINNED)
    info, invalid = play_steps(env, info, [*record_steps(), replace_text(NAME_FIELD, PINNED["file_name"]), tap(SAVE)])
    assert not invalid and info["score"] == 1.0  # the episode ends here
    assert play_on_device(env, [tap(RECORD), tap(STOP), tap(CANCEL)]) == 0.0  # a second recording, past the end
    assert names(env) == ["2023_05_17_memo.m4a.m4a", "Record-2.m4a"]
    env.unwrapped.device.shell(f"rm {AUDIORECORDER_DATA}/Record-2.m4a")
    assert env.unwrapped.task.is_successful(env.unwrapped.device) == 1.0
    env.unwrapped.device.shell(f"echo unfinished > {AUDIORECORDER_DATA}/2023_05_17_memo.m4a.m4a")
    assert env.unwrapped.task.is_successful(env.unwrapped.device) == 0.0


def test_the_file_name_task_clears_the_device_storage_as_androidworld(reset_task):
    env, _ = reset_task(WITH_NAME, params=PINNED)
    device = env.unwrapped.device
    device.shell("echo keep > /sdcard/Download/notes.txt")
    env.reset(seed=0, options={"params": PINNED})
    assert device.shell("ls /sdcard/Download").output.strip() == ""
    assert device.shell(f"[ -d {AUDIORECORDER_DATA} ]").ok
