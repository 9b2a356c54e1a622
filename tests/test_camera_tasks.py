"""Camera tasks: AndroidWorld's goals and budgets, exactly one new file of the right kind in the right folder (two
photos, a video for a photo, a recording left running: 0), and an oracle that copes with the mode the camera
was left in."""

from __future__ import annotations

import io

import gymnasium as gym
import pytest
from PIL import Image

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.envs.camera import SHUTTER_BUTTON, choose_mode, is_jpeg
from android_gym.sim.apps.camera import PHOTO_MODE, VIDEO_MODE
from android_gym.sim.system.media import is_mp4, mp4_file
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.files import PHOTOS_DATA, VIDEOS_DATA, list_files
from android_gym.tasks.oracle import act, complete, open_app, tap
from android_gym.testing import play_on_device, play_steps


def names(env: gym.Env, folder: str) -> list[str]:
    return sorted(found.name for found in list_files(env.unwrapped.device, folder))


PHOTO = [open_app("camera"), *choose_mode(PHOTO_MODE), tap(SHUTTER_BUTTON)]
VIDEO = [open_app("camera"), *choose_mode(VIDEO_MODE), tap(SHUTTER_BUTTON), tap(SHUTTER_BUTTON)]


@pytest.mark.parametrize("task, goal", [("CameraTakePhoto", "Take one photo."),
                                        ("CameraTakeVideo", "Take one video.")])
def test_goals_params_and_budget_follow_androidworld(reset_task, task, goal):
    env, info = reset_task(task)
    assert info["params"] == {} and env.unwrapped.task.goal == goal
    assert android_gym.get_task(task).max_steps() == 10


def test_one_photo_succeeds_with_a_jpeg_named_as_camera2_names_it(reset_task):
    env, info = reset_task("CameraTakePhoto")
    info, invalid = play_steps(env, info, [*PHOTO, complete()])
    assert not invalid and info["score"] == 1.0 and info["actions"] <= 10
    [photo] = list_files(env.unwrapped.device, PHOTOS_DATA)
    assert photo.name.startswith("IMG_" + DEVICE_TIME.strftime("%Y%m%d_")) and photo.name.endswith(".jpg")
    assert Image.open(io.BytesIO(env.unwrapped.device.pull(photo.path))).format == "JPEG"
    assert names(env, VIDEOS_DATA) == []


def test_two_photos_or_a_video_instead_of_a_photo_score_zero(reset_task):
    env, info = reset_task("CameraTakePhoto")
    info, invalid = play_steps(env, info, PHOTO)
    assert not invalid and info["score"] == 1.0  # the episode ends here: a second photo is taken past it
    assert play_on_device(env, [tap(SHUTTER_BUTTON)]) == 0.0 and len(names(env, PHOTOS_DATA)) == 2
    _, info = env.reset(seed=0)
    assert names(env, PHOTOS_DATA) == [] and names(env, VIDEOS_DATA) == []  # teardown and setup emptied both
    info, invalid = play_steps(env, info, VIDEO)
    assert not invalid and len(names(env, VIDEOS_DATA)) == 1 and info["score"] == 0.0


def test_one_video_succeeds_and_a_photo_two_videos_or_a_running_recording_do_not(reset_task):
    env, info = reset_task("CameraTakeVideo")
    info, invalid = play_steps(env, info, VIDEO)
    [video] = list_files(env.unwrapped.device, VIDEOS_DATA)
    assert not invalid and info["score"] == 1.0 and video.name.startswith("VID_") and video.name.endswith(".mp4")
    _, info = env.reset(seed=0)
    info, invalid = play_steps(env, info, VIDEO)
    assert not invalid and info["score"] == 1.0  # the episode ends here: a second video is taken past it
    assert play_on_device(env, [tap(SHUTTER_BUTTON), tap(SHUTTER_BUTTON)]) == 0.0
    assert len(names(env, VIDEOS_DATA)) == 2
    _, info = env.reset(seed=0)
    info, invalid = play_steps(env, info, PHOTO)
    assert not invalid and info["score"] == 0.0
    _, info = env.reset(seed=0)
    # started, never stopped: only MediaProvider's hidden pending file
    info, invalid = play_steps(env, info, VIDEO[:-1])
    assert not invalid and [name[:9] for name in names(env, VIDEOS_DATA)] == [".pending-"] and info["score"] == 0.0


def test_the_photo_oracle_copes_with_a_camera_left_in_video_mode(reset_task):
    """The camera keeps its mode while its process lives (a reset brings back a fresh env's camera, in photo mode)."""
    env, info = reset_task("CameraTakePhoto")
    info, invalid = play_steps(env, info, [open_app("camera"), *choose_mode(VIDEO_MODE),
                                           act(Action(ActionType.NAVIGATE_HOME))])
    assert not invalid and info["score"] == 0.0
    info, invalid = play_steps(env, info, env.unwrapped.task.oracle())
    assert not invalid and names(env, VIDEOS_DATA) == [] and info["score"] == 1.0


def test_a_reset_brings_the_camera_back_in_photo_mode(reset_task):
    """What an episode left in the camera (video mode) is rewound: the next episode's shutter takes a photo."""
    env, info = reset_task("CameraTakePhoto")
    _, invalid = play_steps(env, info, [open_app("camera"), *choose_mode(VIDEO_MODE)])
    assert not invalid
    _, info = env.reset(seed=0)
    info, invalid = play_steps(env, info, [open_app("camera"), tap(SHUTTER_BUTTON)])
    assert not invalid and len(names(env, PHOTOS_DATA)) == 1 and names(env, VIDEOS_DATA) == []


def test_only_real_jpegs_and_finished_mp4s_count():
    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, "PNG")
    assert not is_jpeg(out.getvalue()) and not is_jpeg(b"\xff\xd8\xff not really") and not is_jpeg(b"")
    movie = mp4_file(1000, DEVICE_TIME)
    assert is_mp4(movie) and not is_mp4(mp4_file(0, DEVICE_TIME)) and not is_mp4(movie[:-1]) and not is_mp4(b"")
