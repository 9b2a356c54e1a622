"""The uiautomator parser on real device dumps and on the simulator's own dumps."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import numpy as np
import pytest
from lxml import etree

from android_gym.actions import Action, ActionType
from android_gym.ui import UIElement, parse_ui_dump

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "uiautomator").glob("*.xml"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_parses_real_device_dumps(path):
    elements = parse_ui_dump(path.read_bytes())
    assert len(elements) == len(etree.parse(str(path)).findall(".//node"))
    assert elements[0].depth == 0
    assert [element.index for element in elements] == list(range(len(elements)))


def test_parses_the_real_launcher_dump():
    elements = parse_ui_dump((FIXTURES[0].parent / "pixel_launcher_home_1080x1794.xml").read_bytes())
    labels = {e.label for e in elements}
    assert {"Messages", "Chrome"} <= labels
    chrome = next(e for e in elements if e.text == "Chrome")
    assert (chrome.bbox_pixels.x_min, chrome.bbox_pixels.y_min) == (641, 1382)
    assert chrome.is_clickable and chrome.package_name == "com.google.android.apps.nexuslauncher"
    assert elements[0].bbox_pixels.x_max == 1080 and elements[0].depth == 0


def test_parsed_elements_are_the_ones_their_constructor_makes():
    """Elements are made without the dataclass's ``__init__`` (``ui.frozen``): each has every field and is what
    ``UIElement(...)`` makes of them: equal, with the same hash and repr, and frozen."""
    for element in parse_ui_dump(FIXTURES[0].read_bytes()):
        fields = {field.name: getattr(element, field.name) for field in dataclasses.fields(UIElement)}
        made = UIElement(**fields)
        assert vars(element) == vars(made) and element == made
        assert hash(element) == hash(made) and repr(element) == repr(made)
        assert vars(element.bbox_pixels) == vars(made.bbox_pixels)
        with pytest.raises(dataclasses.FrozenInstanceError):
            element.text = "changed"


def test_a_deep_copy_of_an_info_shares_its_elements():
    """Elements are immutable: ``copy.deepcopy`` (stable-baselines3's ``DummyVecEnv`` copies every step's infos)
    hands back the same elements in a new list."""
    elements = parse_ui_dump(FIXTURES[0].read_bytes())
    info = {"ui_elements": elements, "score": 0.0}
    copied = copy.deepcopy(info)
    assert copied == info and copied["ui_elements"] is not elements
    assert all(mine is theirs for mine, theirs in zip(copied["ui_elements"], elements, strict=True))


def test_rejects_non_dumps():
    with pytest.raises(ValueError, match="not a uiautomator dump"):
        parse_ui_dump("<html/>")
    with pytest.raises(ValueError):
        parse_ui_dump("not xml at all")


def test_sim_dump_is_aosp_format(device):
    xml = device.ui_dump()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">")
    assert "\n" not in xml and xml.endswith("</hierarchy>")
    first = etree.fromstring(xml.encode())[0]
    real_device = etree.parse(str(FIXTURES[0])).getroot()[0]
    assert list(first.attrib) == list(real_device.attrib)  # same attributes in the same order
    assert first.get("bounds") == "[0,0][1080,2400]"
    assert xml.count(" />") == sum(1 for node in etree.fromstring(xml.encode()).iter("node") if len(node) == 0)


def test_dump_bounds_match_rendered_pixels(device):
    """Every labelled element of the home screen has ink inside its bounds; blank screen areas have none."""
    pixels = device.screenshot()
    elements = parse_ui_dump(device.ui_dump())
    labelled = [e for e in elements if e.text and e.bbox_pixels.area]
    assert labelled
    for element in labelled:
        box = element.bbox_pixels
        crop = pixels[box.y_min:box.y_max, box.x_min:box.x_max]
        assert (crop != crop[0, 0]).any(), f"nothing drawn inside {element.text!r} at {box}"
    covered = np.zeros(pixels.shape[:2], bool)
    for element in elements[1:]:
        box = element.bbox_pixels
        if element.text or element.content_description:
            covered[box.y_min:box.y_max, box.x_min:box.x_max] = True
    # Below the status bar and above the navigation bar, nothing but the wallpaper lies outside labelled elements.
    body = (slice(130, 2250), slice(0, 1080))
    outside = pixels[body][~covered[body]]
    assert (outside == outside[0]).all()


def test_every_labelled_element_is_drawn_on_sms_screens(make_env):
    """Along the SendSms oracle, every element with text or a description has ink inside its bounds."""
    from android_gym.tasks.oracle import OraclePolicy

    env = make_env()
    obs, info = env.reset(seed=4)
    policy = OraclePolicy(env.unwrapped.task.oracle())
    checked = 0
    while not policy.done:
        for element in info["ui_elements"]:
            box = element.bbox_pixels
            if (element.text or element.content_description) and box.area:
                crop = obs["pixels"][box.y_min:box.y_max, box.x_min:box.x_max]
                assert (crop != crop[0, 0]).any(), f"{element.label!r} at {box} is not drawn"
                checked += 1
        obs, reward, terminated, truncated, info = env.step(policy.act(info["ui_elements"]))
        if terminated:
            break
    assert checked > 20


def test_incremental_rendering_equals_a_fresh_render(make_env):
    """After every step of an episode, the cached, partly redrawn frame equals a from-scratch render."""
    from android_gym.sim.framework.window import WindowManager
    from android_gym.tasks.oracle import OraclePolicy

    env = make_env("AndroidWorld/SimpleSmsReply-v0")
    obs, info = env.reset(seed=1)
    phone = env.unwrapped.device.phone
    policy = OraclePolicy(env.unwrapped.task.oracle())
    steps = [*[policy.act] * 3, lambda _: Action(ActionType.NAVIGATE_BACK), lambda _: Action(ActionType.NAVIGATE_HOME)]
    for step in steps:
        obs, *_, info = env.step(step(info["ui_elements"]))
        assert np.array_equal(obs["pixels"], WindowManager(phone, 1080, 2400).screenshot())
