"""Device configurations: the phone an episode runs on (screen and density, font scale, theme, language, navigation).

B-MoCA's finding is that agents trained on one phone fail on another; a study of generalization trains on some
configurations and tests on others. A ``DeviceConfig`` is applied through the Device protocol with the shell
commands that make the change on a real emulator, so the simulated phone and a real one are configured alike:

* screen: ``wm size WxH`` and ``wm density D`` (WindowManagerShellCommand), at the device's pixel scale
  (``DeviceConfig.screen_at``: 1 on AndroidWorld's 1080 px wide phone);
* font scale: ``settings put system font_scale F`` (``Settings.System.FONT_SCALE``);
* dark theme: ``cmd uimode night yes|no`` (UiModeManagerService's shell command);
* navigation mode: ``cmd overlay enable-exclusive --category <overlay>`` with the navigation-bar overlays
  SystemUI ships (``com.android.internal.systemui.navbar.threebutton`` / ``.gestural``);
* language: ``setprop persist.sys.locale <tag>`` then ``setprop ctl.restart zygote`` (what the system reads at
  start, ``AndroidRuntime::readLocale``; a restart of the Java framework applies it; needs root, as the emulator
  images have).

Named distributions (``CONFIG_DISTRIBUTIONS``) draw a configuration from an rng: ``"train"`` uses only the train
values of every dimension, ``"heldout"`` at least one value never seen in training (a phone, a font scale or a
language), so a policy trained on one split can be tested on the other.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from android_gym.device.base import Device
from android_gym.errors import ConfigError, DeviceError, short_repr

#: The smallest side ``wm size`` accepts (AOSP ``DisplayContent.setForcedSize`` raises a smaller one to it).
MIN_FORCED_SIZE = 200
#: Screens ``(width, height, density)`` of Android Studio's device definitions (``devices.xml`` of the SDK's
#: ``sdklib``): phones of several sizes and densities, and one tablet (held upright).
PHONES: dict[str, tuple[int, int, int]] = {
    "pixel_6": (1080, 2400, 420),  # AndroidWorld's phone
    "pixel_7_pro": (1440, 3120, 560),
    "pixel_4a": (1080, 2340, 440),
    "small_phone": (720, 1280, 320),
    "pixel_tablet": (1600, 2560, 320),
}
#: The width of AndroidWorld's phone, the Pixel 6, in pixels: a device of this width draws configurations at scale 1.
DESIGN_WIDTH = 1080
FONT_SCALES = (0.85, 1.0, 1.15, 1.3)  # Settings > Display > Font size: Small, Default, Large, Largest
LANGUAGES = ("en-US", "de-DE", "fr-FR")
NAVIGATION_MODES = ("3-button", "gestures")
#: The navigation-bar overlays SystemUI enables per mode (frameworks/base packages/overlays/NavigationBarMode*).
NAVIGATION_OVERLAYS = {"3-button": "com.android.internal.systemui.navbar.threebutton",
                       "gestures": "com.android.internal.systemui.navbar.gestural"}
NAVIGATION_CATEGORY = "android.theme.customization.navbar"
#: The settings ``(namespace, key)`` a configuration sets (font scale, ``cmd uimode night``'s and the navigation
#: overlay's): a device's rewind leaves them to the env, which configures each episode.
CONFIGURED_SETTINGS = (("system", "font_scale"), ("secure", "ui_night_mode"), ("secure", "navigation_mode"))


@dataclass(frozen=True)
class DeviceConfig:
    """One phone configuration: its screen (``phone``: a name of ``PHONES``), ``font_scale``, ``dark_theme``,
    system ``language`` (a BCP 47 tag of ``LANGUAGES``) and ``navigation`` mode. The default is AndroidWorld's
    phone: a Pixel 6 in English, light theme, default font size, 3-button navigation."""

    phone: str = "pixel_6"
    font_scale: float = 1.0
    dark_theme: bool = False
    language: str = "en-US"
    navigation: str = "3-button"

    def __post_init__(self) -> None:
        for field, value, allowed in (("phone", self.phone, tuple(PHONES)),
                                      ("font_scale", self.font_scale, FONT_SCALES),
                                      ("language", self.language, LANGUAGES),
                                      ("navigation", self.navigation, NAVIGATION_MODES),
                                      ("dark_theme", self.dark_theme, (False, True))):
            if value not in allowed or (field == "dark_theme" and not isinstance(value, bool)):
                raise ConfigError(f"device config {field}={short_repr(value)} is not one of "
                                  f"{', '.join(map(repr, allowed))}")

    @property
    def screen(self) -> tuple[int, int, int]:
        """``(width, height, density)`` of the phone."""
        return PHONES[self.phone]

    def screen_at(self, scale: float = 1.0) -> tuple[int, int, int]:
        """``(width, height, density)`` of the phone drawn ``scale`` times as finely: the same dp geometry (what
        apps lay out) at ``scale`` times the pixels and density. A device whose physical screen is narrower than
        AndroidWorld's 1080 px (``sim:270x600``, scale 1/4) shows each phone at its own pixel scale, so a small
        fast screen still varies the phone, not only its size. A scale that would take a side below the 200 px
        Android accepts for ``wm size`` (``DisplayContent.setForcedSize`` raises it, changing the dp geometry) is
        raised so that side is 200 px."""
        width, height, density = self.screen
        scale = max(scale, MIN_FORCED_SIZE / min(width, height))
        return round(width * scale), round(height * scale), round(density * scale)

    @property
    def name(self) -> str:
        """A short label, e.g. ``pixel_6/1.0/light/en-US/3-button``."""
        return "/".join((self.phone, f"{self.font_scale:g}", "dark" if self.dark_theme else "light",
                         self.language, self.navigation))

    def as_dict(self) -> dict[str, Any]:
        """The fields as a dict (what ``info["device_config"]`` carries)."""
        return dataclasses.asdict(self)

    def commands(self, current: DeviceConfig | None = None, scale: float = 1.0) -> list[str]:
        """The shell commands that take a device in configuration ``current`` (``None``: unknown) to this one,
        the language first (its restart of the framework resets the apps); the screen at ``scale``
        (``screen_at``)."""
        width, height, density = self.screen_at(scale)
        changes = {
            "language": [f"setprop persist.sys.locale {shlex.quote(self.language)}", "setprop ctl.restart zygote"],
            "phone": [f"wm size {width}x{height}", f"wm density {density}"],
            "font_scale": [f"settings put system font_scale {self.font_scale:g}"],
            "dark_theme": [f"cmd uimode night {'yes' if self.dark_theme else 'no'}"],
            "navigation": [f"cmd overlay enable-exclusive --category {NAVIGATION_OVERLAYS[self.navigation]}"],
        }
        return [command for field, commands in changes.items()
                if current is None or getattr(current, field) != getattr(self, field) for command in commands]

    def apply(self, device: Device, current: DeviceConfig | None = None, scale: float = 1.0) -> None:
        """Configure ``device`` (known to be in ``current``, or unknown) as this configuration, its screen at
        ``scale``, in one shell round trip; ``DeviceError`` with the device's message when a command fails (e.g.
        ``setprop`` without root)."""
        commands = self.commands(current, scale)
        if not commands:
            return
        result = device.shell(" && ".join(commands))
        if not result.ok:
            raise DeviceError(f"configuring the device as {self.name} failed (exit {result.exit_code}): "
                              f"{result.output.strip()}")


def pixel_scale(device: Device) -> float:
    """The device's pixel scale for ``DeviceConfig.screen_at``: its physical width (``wm size``'s "Physical size",
    whatever override is set) over AndroidWorld's 1080 px."""
    match = re.search(r"Physical size: (\d+)x\d+", device.shell("wm size").output)
    width = int(match.group(1)) if match else device.screen_size[0]
    return width / DESIGN_WIDTH


@dataclass(frozen=True)
class ConfigDistribution:
    """Configurations drawn dimension by dimension from ``values`` (field name → choices); with ``novel``, a
    draw must hold at least one of those (field, value) pairs (rejection sampling)."""

    values: Mapping[str, tuple]
    novel: frozenset[tuple[str, Any]] = frozenset()

    def sample(self, rng: np.random.Generator) -> DeviceConfig:
        """One configuration drawn from ``rng``."""
        while True:
            fields = {field: choices[int(rng.integers(len(choices)))] for field, choices in self.values.items()}
            if not self.novel or any(item in self.novel for item in fields.items()):
                return DeviceConfig(**fields)


_TRAIN = {"phone": ("pixel_6", "pixel_7_pro", "small_phone"), "font_scale": (0.85, 1.0, 1.15),
          "dark_theme": (False, True), "language": ("en-US", "de-DE"), "navigation": NAVIGATION_MODES}
_HELDOUT = {"phone": ("pixel_4a", "pixel_tablet"), "font_scale": (1.3,), "language": ("fr-FR",)}

#: The named distributions ``device_config=`` accepts: ``train`` never shows a held-out value; ``heldout`` always
#: shows at least one (a phone, font scale or language the train split lacks).
CONFIG_DISTRIBUTIONS: dict[str, ConfigDistribution] = {
    "train": ConfigDistribution(_TRAIN),
    "heldout": ConfigDistribution({field: choices + _HELDOUT.get(field, ()) for field, choices in _TRAIN.items()},
                                  frozenset((field, value) for field, values in _HELDOUT.items() for value in values)),
}


def parse_device_config(value: Any) -> DeviceConfig | ConfigDistribution | None:
    """What ``device_config=`` accepts: ``None`` (leave the device as it is), a ``DeviceConfig``, a dict of its
    fields, a distribution name of ``CONFIG_DISTRIBUTIONS`` or a ``ConfigDistribution``; ``ConfigError`` otherwise."""
    if value is None or isinstance(value, DeviceConfig | ConfigDistribution):
        return value
    if isinstance(value, str):
        if value not in CONFIG_DISTRIBUTIONS:
            raise ConfigError(f"device_config={value!r} is not a distribution; use one of "
                              f"{sorted(CONFIG_DISTRIBUTIONS)}, a DeviceConfig or a dict of its fields")
        return CONFIG_DISTRIBUTIONS[value]
    if isinstance(value, Mapping):
        unknown = set(value) - {field.name for field in dataclasses.fields(DeviceConfig)}
        if unknown:
            raise ConfigError(f"device_config has unknown field(s) {sorted(map(str, unknown))}; its fields are "
                              f"{[field.name for field in dataclasses.fields(DeviceConfig)]}")
        return DeviceConfig(**value)
    raise ConfigError(f"device_config={short_repr(value)}: give None, a DeviceConfig, a dict of its fields or one "
                      f"of {sorted(CONFIG_DISTRIBUTIONS)}")
