"""Device configurations: parsing, the commands each dimension sends, and the train/heldout distributions."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.device.config import (
    CONFIG_DISTRIBUTIONS,
    FONT_SCALES,
    LANGUAGES,
    PHONES,
    DeviceConfig,
    parse_device_config,
)
from android_gym.errors import ConfigError


def test_default_is_androidworlds_phone_and_sends_every_command_once_when_the_state_is_unknown():
    config = DeviceConfig()
    assert config.screen == (1080, 2400, 420) and config.name == "pixel_6/1/light/en-US/3-button"
    assert config.commands() == [
        "setprop persist.sys.locale en-US", "setprop ctl.restart zygote", "wm size 1080x2400", "wm density 420",
        "settings put system font_scale 1", "cmd uimode night no",
        "cmd overlay enable-exclusive --category com.android.internal.systemui.navbar.threebutton"]


def test_only_what_differs_is_sent():
    base = DeviceConfig()
    assert base.commands(base) == []
    assert DeviceConfig(dark_theme=True, navigation="gestures").commands(base) == [
        "cmd uimode night yes",
        "cmd overlay enable-exclusive --category com.android.internal.systemui.navbar.gestural"]
    assert DeviceConfig(phone="pixel_tablet").commands(base) == ["wm size 1600x2560", "wm density 320"]
    assert DeviceConfig(language="de-DE", font_scale=1.3).commands(base)[:3] == [
        "setprop persist.sys.locale de-DE", "setprop ctl.restart zygote", "settings put system font_scale 1.3"]


def test_a_narrower_device_shows_each_phone_at_its_own_pixel_scale():
    tablet = DeviceConfig(phone="pixel_tablet")
    assert tablet.screen_at(0.25) == (400, 640, 80)  # 800 dp wide at either scale
    assert tablet.commands(DeviceConfig(), scale=0.5) == ["wm size 800x1280", "wm density 160"]


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_every_phone_keeps_its_dp_geometry_on_a_quarter_size_device(phone):
    """Android raises a forced side below 200 px to 200, which would widen the small phone from 360 to 400 dp:
    such a phone is drawn at the smallest scale its sides allow instead."""
    width, height, density = PHONES[phone]
    scaled_width, scaled_height, scaled_density = DeviceConfig(phone=phone).screen_at(0.25)
    assert min(scaled_width, scaled_height) >= 200
    assert abs(scaled_width * 160 / scaled_density - width * 160 / density) < 2  # dp width within rounding
    assert abs(scaled_height * 160 / scaled_density - height * 160 / density) < 4


@pytest.mark.parametrize("fields, wrong", [
    ({"phone": "nexus_1"}, "phone"), ({"font_scale": 2.0}, "font_scale"), ({"language": "xx-XX"}, "language"),
    ({"navigation": "2-button"}, "navigation"), ({"dark_theme": 1}, "dark_theme")])
def test_values_outside_the_choices_are_refused_with_the_choices(fields, wrong):
    with pytest.raises(ConfigError, match=wrong):
        DeviceConfig(**fields)


def test_parse_accepts_none_configs_dicts_and_distribution_names():
    assert parse_device_config(None) is None
    assert parse_device_config({"dark_theme": True}) == DeviceConfig(dark_theme=True)
    assert parse_device_config("heldout") is CONFIG_DISTRIBUTIONS["heldout"]
    config = DeviceConfig(language="fr-FR")
    assert parse_device_config(config) is config
    for bad, match in (("test", "not a distribution"), ({"colour": "red"}, "unknown field"), (3, "give None")):
        with pytest.raises(ConfigError, match=match):
            parse_device_config(bad)


def test_train_never_shows_a_heldout_value_and_heldout_always_shows_one():
    rng = np.random.default_rng(7)
    train = [CONFIG_DISTRIBUTIONS["train"].sample(rng) for _ in range(200)]
    heldout = [CONFIG_DISTRIBUTIONS["heldout"].sample(rng) for _ in range(200)]
    novel = {("phone", "pixel_4a"), ("phone", "pixel_tablet"), ("font_scale", 1.3), ("language", "fr-FR")}
    assert not any(item in novel for config in train for item in config.as_dict().items())
    assert all(any(item in novel for item in config.as_dict().items()) for config in heldout)
    # Both splits vary every dimension, and together they cover every value.
    seen = {(field, value) for config in train + heldout for field, value in config.as_dict().items()}
    assert {value for field, value in seen if field == "phone"} == set(PHONES)
    assert {value for field, value in seen if field == "font_scale"} == set(FONT_SCALES)
    assert {value for field, value in seen if field == "language"} == set(LANGUAGES)
    assert len({config.name for config in train}) > 40


def test_sampling_is_deterministic_per_seed():
    draw = [CONFIG_DISTRIBUTIONS["heldout"].sample(np.random.default_rng(3)) for _ in range(2)]
    assert draw[0] == draw[1]
