"""The pixels view (``make_pixel_env``): spaces, taps through the grid, determinism, SB3's checker and CnnPolicy."""

from __future__ import annotations

import gc
import importlib.util
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from gymnasium.wrappers import PassiveEnvChecker
from PIL import Image
from stable_baselines3.common.env_checker import check_env

from android_gym.ui import UIElement
from android_gym.wrappers.rl_actions import AdapterConfigError
from android_gym.wrappers.rl_observations import PixelObservation
from android_gym.wrappers.rl_pixels import make_pixel_env

STOPWATCH = "AndroidWorld/ClockStopWatchRunning-v0"
DESKCLOCK = "com.google.android.deskclock"


@pytest.fixture
def make_pixels():
    """``make_pixels(env_id, **kwargs)``; every env made is closed after the test."""
    envs = []

    def make(env_id: str = STOPWATCH, **kwargs):
        env = make_pixel_env(env_id, **kwargs)
        envs.append(env)
        return env

    yield make
    for env in envs:
        env.close()


def cell_over(env, element: UIElement) -> int:
    """The first tap id whose cell centre lies on ``element``."""
    box, point = element.bbox_pixels, env.get_wrapper_attr("point")
    return next(cell for cell in env.get_wrapper_attr("layout")["tap"]
                if box.x_min <= point(cell)[0] < box.x_max and box.y_min <= point(cell)[1] < box.y_max)


def find(info, label: str) -> UIElement:
    """The clickable element whose text or description is ``label``."""
    return next(element for element in info["ui_elements"]
                if element.is_clickable and label in (element.text, element.content_description))


def test_spaces_default_and_stacked(make_pixels):
    env = make_pixels()
    assert env.action_space.n == 20 * 9 + 2 + 4
    assert (env.observation_space.shape, env.observation_space.dtype) == ((120, 54, 1), np.uint8)
    observation, _ = env.reset(seed=0)
    assert env.observation_space.contains(observation) and observation.std() > 0
    stacked = make_pixels(shape=(84, 84), grayscale=False, frame_stack=3, grid=(12, 5), long_press=True)
    assert stacked.action_space.n == 2 * 60 + 6 and stacked.observation_space.shape == (84, 84, 9)
    first, info = stacked.reset(seed=0)
    assert all(np.array_equal(first[..., :3], first[..., 3 * k:3 * k + 3]) for k in (1, 2))  # padded with frame 0
    after, *_ = stacked.step(cell_over(stacked, find(info, "Clock")))
    assert stacked.observation_space.contains(after)
    assert np.array_equal(after[..., :6], first[..., 3:]) and not np.array_equal(after[..., 6:], first[..., 6:])


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"shape": (120, 20)}, "at least 36"),
    ({"shape": 84}, r"\(height, width\)"),
    ({"frame_stack": 0}, "frame_stack"),
    ({"grayscale": False, "frame_stack": 12, "shape": (36, 40)}, "36 channels"),
    ({"grid": (0, 9)}, "grid_rows"),
    ({"pixels": False}, "pixels=True"),
])
def test_bad_configuration_says_what_is_wrong(kwargs, message):
    with pytest.raises(AdapterConfigError, match=message):
        make_pixel_env(STOPWATCH, **kwargs)


def test_tap_on_the_cell_over_an_icon_opens_the_app(make_pixels):
    env = make_pixels()
    home, info = env.reset(seed=0)
    assert DESKCLOCK not in {element.package_name for element in info["ui_elements"]}
    clock, *_, info = env.step(cell_over(env, find(info, "Clock")))
    assert info["invalid_action"] is None
    assert {element.package_name for element in info["ui_elements"]} == {DESKCLOCK}
    assert not np.array_equal(home, clock)


@pytest.mark.parametrize("device", [None, "sim:540x1200"])
def test_three_grid_taps_solve_the_stopwatch_task(make_pixels, device):
    """Clock icon, Stopwatch tab, Start: the task is solvable on the default grid, on any screen size."""
    env = make_pixels(device=device)
    _, info = env.reset(seed=0)
    for step, label in enumerate(("Clock", "Stopwatch", "Start")):
        _, reward, terminated, truncated, info = env.step(cell_over(env, find(info, label)))
        assert (reward, terminated, truncated) == ((1.0, True, False) if step == 2 else (0.0, False, False))


def test_same_seed_same_frames(make_pixels):
    actions = [41, 185, 180, 123, 181, 5, 183]  # taps, swipes, back (180), home (181)
    runs = []
    for _ in range(2):
        env = make_pixels(frame_stack=2)
        frames = [env.reset(seed=7)[0]] + [env.step(action)[0] for action in actions]
        runs.append(np.stack(frames))
    assert np.array_equal(*runs) and len({frame.tobytes() for frame in runs[0]}) > 2


def test_the_task_env_hands_its_screen_over_uncopied_and_the_view_new_arrays(make_pixels, monkeypatch):
    """PixelObservation scales a new image every step, so the task env under it shares its read-only screen (the
    same array while the screen does not change: no 7.8 MB copy a step); the view's own observations are new every
    call, and Gymnasium's checkers, which now wrap the view, find nothing to say."""
    seen = []
    scale = PixelObservation.observation
    monkeypatch.setattr(PixelObservation, "observation", lambda self, observation: (
        seen.append(observation["pixels"]), scale(self, observation))[1])
    env = make_pixels()
    assert isinstance(env, PassiveEnvChecker)
    gc.collect()  # earlier tests' garbage, lest a collector pass in the block report what it left unclosed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first, _ = env.reset(seed=0)
        kept = first.copy()
        second = env.step(env.get_wrapper_attr("layout")["back"][0])[0]  # Back on the home screen changes nothing
    assert [str(warning.message) for warning in caught] == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it says the view is not the unwrapped env: it is meant to be
        gymnasium_check_env(env, skip_render_check=True)  # new observation data on every call, among others
    assert seen[1] is seen[0] and not seen[0].flags.writeable
    assert not np.shares_memory(first, second) and np.array_equal(first, kept)


@pytest.mark.parametrize("kwargs", [{}, {"grayscale": False, "frame_stack": 4}])
def test_sb3_check_env_passes(make_pixels, kwargs):
    gc.collect()  # as above
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make_pixels(**kwargs), warn=True)
    assert [str(warning.message) for warning in caught] == []


def test_learning_script_writes_its_figures(tmp_path, monkeypatch):
    """benchmarks/learning_pixels.py end to end on a tiny budget: one worker, 64 steps, one held-out seed; PPO's
    CnnPolicy learns on two stacked frames (``test_rl_adapters.py`` trains it on single frames)."""
    benchmarks = Path(__file__).parents[2] / "benchmarks"
    monkeypatch.syspath_prepend(str(benchmarks))  # it imports its sibling throughput.py, as when run from there
    spec = importlib.util.spec_from_file_location("learning_pixels", benchmarks / "learning_pixels.py")
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "learning_pixels", script)  # its dataclass looks its module up
    spec.loader.exec_module(script)
    summary = script.main(["--steps", "64", "--workers", "1", "--n-steps", "32", "--batch-size", "32", "--n-epochs",
                           "1", "--eval-every", "64", "--eval-episodes", "1", "--frame-stack", "2", "--out",
                           str(tmp_path),
                           "--torch-threads", str(torch.get_num_threads())])  # leaves this process's setting
    assert summary["env_steps"] == 64 and [point["env_steps"] for point in summary["curve"]] == [0, 64]
    assert summary["view"]["frame_stack"] == 2
    assert summary["held_out_seeds"] == [10_000, 10_000] and summary["train_env_steps_per_second"] > 0
    assert json.loads((tmp_path / "summary.json").read_text())["env_id"] == STOPWATCH
    assert Image.open(tmp_path / "curve.png").format == "PNG" and (tmp_path / "model.zip").exists()
