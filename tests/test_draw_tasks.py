"""SimpleDrawProCreateDrawing: AndroidWorld's parameters and goal, and a check that wants a real picture of the named
type, with a stroke on it, under that name in Pictures."""

from __future__ import annotations

import io
import re

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

from android_gym.envs.draw import SimpleDrawProCreateDrawing, has_stroke
from android_gym.sim.apps import draw
from android_gym.tasks.oracle import OracleStep, Selector, complete, replace_text
from android_gym.testing import play_steps

TASK = "SimpleDrawProCreateDrawing"


def oracle(env: gym.Env) -> list[OracleStep]:
    return list(env.unwrapped.task.oracle())


def picture(color: tuple[int, int, int] | None, fmt: str = "PNG") -> bytes:
    """A white 400 x 400 picture, with a square of ``color`` in it unless ``None``."""
    image = Image.new("RGB", (400, 400), (255, 255, 255))
    if color is not None:
        image.paste(color, (100, 100, 140, 140))
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


@pytest.mark.parametrize("seed", range(3))
def test_parameters_and_goal_follow_androidworld(seed):
    params = SimpleDrawProCreateDrawing.generate_params(np.random.default_rng(seed))
    assert re.fullmatch(r"(lorem|ipsum|dolor|sit|amet|consectetur|adipiscing|elit)_[A-Za-z0-9_]+\.(png|svg|jpg)",
                        params["file_name"])
    assert SimpleDrawProCreateDrawing(params).goal == (
        f"Create a new drawing in Simple Draw Pro. Name it {params['file_name']}. Save it in the Pictures folder "
        "within the sdk_gphone_x86_64 storage area.")


@pytest.mark.parametrize("extension", [".png", ".svg", ".jpg"])
def test_the_oracle_draws_and_saves_each_type_within_the_budget(reset_task, extension):
    env, info = reset_task(TASK, params={"file_name": f"lorem_happy_fox{extension}", "text": ""})
    steps = oracle(env)
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 1.0
    assert env.unwrapped.device.shell("ls /sdcard/Pictures").output.split() == [f"lorem_happy_fox{extension}"]


def test_an_empty_drawing_scores_zero(reset_task):
    env, info = reset_task(TASK, params={"file_name": "sit_blank.png", "text": ""})
    steps = oracle(env)
    del steps[1]  # no stroke
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 0.0
    assert env.unwrapped.device.pull("/sdcard/Pictures/sit_blank.png")[:4] == b"\x89PNG"


def test_a_wrong_name_or_folder_scores_zero(reset_task):
    env, info = reset_task(TASK, params={"file_name": "amet_fox.png", "text": ""})
    steps = oracle(env)
    steps[3] = replace_text(Selector(resource_id=f"{draw.PACKAGE}:id/save_image_filename"), "amet_fox.png")
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 0.0  # the .png radio adds the extension again
    assert env.unwrapped.device.shell("ls /sdcard/Pictures").output.split() == ["amet_fox.png.png"]
    env, info = reset_task(TASK, params={"file_name": "amet_fox.png", "text": ""})
    steps = oracle(env)
    del steps[7:-2]  # after OK, Save at once: the picker opens on Downloads
    info, invalid = play_steps(env, info, steps)
    assert not invalid and info["score"] == 0.0
    assert env.unwrapped.device.shell("ls /sdcard/Download").output.split() == ["amet_fox.png"]


def test_the_check_wants_a_picture_of_the_named_type_with_a_stroke(reset_task):
    env, _ = reset_task(TASK, params={"file_name": "elit_fox.png", "text": ""})
    dev, task = env.unwrapped.device, env.unwrapped.task
    path = "/sdcard/Pictures/elit_fox.png"
    for data in (b"not a picture", picture(None), picture((255, 0, 0), "JPEG")):
        dev.push(data, path)
        assert task.is_successful(dev) == 0.0
    dev.push(picture((245, 124, 0)), path)
    assert task.is_successful(dev) == 1.0
    assert has_stroke(picture((0, 0, 0), "JPEG"), ".jpg") and not has_stroke(picture(None, "JPEG"), ".jpg")
    empty_svg = draw.svg_document([], (100, 100)).encode()
    stroke = draw.Stroke((10, 10), (60, 60), draw.BRUSH_COLOR, 42.0)
    assert not has_stroke(empty_svg, ".svg") and not has_stroke(b"<svg", ".svg")
    assert has_stroke(draw.svg_document([stroke], (100, 100)).encode(), ".svg")
    erased = draw.Stroke((10, 10), (60, 60), draw.BRUSH_COLOR, 42.0, eraser=True)
    assert not has_stroke(draw.svg_document([erased], (100, 100)).encode(), ".svg")


def test_doing_nothing_scores_zero(reset_task):
    env, info = reset_task(TASK, seed=1)
    info, invalid = play_steps(env, info, [complete()])
    assert not invalid and info["score"] == 0.0
