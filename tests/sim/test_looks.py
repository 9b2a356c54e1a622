"""The simulated phone's Material look: Roboto text, icons from the icon font by name, a status bar that follows
the app under it, and pixels that stay the same for the same state."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.sim.framework.window import Frame
from android_gym.sim.phone import Phone
from android_gym.sim.ui.icons import NAMES, icon_mask
from android_gym.sim.ui.layout import font
from android_gym.sim.ui.views import TEXT, WHITE, View

PACKAGES = [app.package for app in Phone().packages.launchable()]


def opened(package: str) -> Phone:
    """A fresh phone with ``package`` opened as AndroidWorld opens apps."""
    phone = Phone()
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    return phone


def views(frame: Frame) -> list[View]:
    """Every view of the frame's windows."""
    return [view for window in frame.windows() for view in window.walk()]


def test_text_is_roboto_and_bold_text_is_wider() -> None:
    assert font(42).getname()[0] == "Roboto"
    assert font(42, bold=True).getlength("Settings") > font(42).getlength("Settings")  # Medium, not Regular
    assert font(42) is font(42)  # opened once per size


@pytest.mark.parametrize("package", [None, *PACKAGES])
def test_every_icon_on_a_main_screen_has_a_glyph(package: str | None) -> None:
    phone = Phone() if package is None else opened(package)
    icons = [view for view in views(phone.window.frame()) if view.kind in ("icon", "fab", "app_icon") and view.hint]
    assert icons
    assert {view.hint for view in icons} <= NAMES


def test_icons_are_distinct_glyphs() -> None:
    masks = {name: icon_mask(name, 63).tobytes() for name in ("wifi", "bt", "signal", "battery_full", "plus",
                                                               "search", "more", "arrow_back", "nav_back")}
    assert len(set(masks.values())) == len(masks)
    assert all(any(mask) for mask in masks.values())


def test_status_bar_icons_say_what_they_show_and_follow_the_app_under_them() -> None:
    home = Phone().window.frame().status_bar
    descriptions = [view.content_desc for view in home.walk() if view.kind == "icon"]
    assert descriptions == ["Bluetooth on", "Wifi signal full.", "Phone signal full.", "Battery 100 percent."]
    assert {view.text_color for view in home.walk() if view.kind == "icon"} == {TEXT}  # dark on a light app
    dark = opened("com.arduia.expense").window.frame().status_bar
    assert {view.text_color for view in dark.walk() if view.kind == "icon"} == {WHITE}  # light on a dark one
    assert dark.background != home.background


def test_navigation_buttons_keep_their_descriptions() -> None:
    nav = Phone().window.frame().nav_bar
    assert [view.content_desc for view in nav.walk() if view.clickable] == ["Back", "Home", "Overview"]


def test_the_same_state_gives_the_same_pixels() -> None:
    package = "com.simplemobiletools.smsmessenger"
    assert np.array_equal(opened(package).screenshot(), opened(package).screenshot())
