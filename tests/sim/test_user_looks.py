"""The looks a user sets on the simulated phone: font scale, dark theme and navigation mode, through the shell
commands a real phone takes, reported alike by the shell, the Configuration string, the dump and the pixels."""

from __future__ import annotations

import numpy as np
import pytest
from lxml import etree

from android_gym.sim import keycodes
from android_gym.sim.framework.looks import SYSTEM_NIGHT
from android_gym.sim.framework.window import GESTURE_NAV_BAR_HEIGHT, NAV_BAR_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.phone import Phone

SETTINGS = "com.android.settings"
MARKOR = "net.gsantner.markor"
GESTURAL = "com.android.internal.systemui.navbar.gestural"
THREE_BUTTON = "com.android.internal.systemui.navbar.threebutton"


def _out(phone: Phone, command: str) -> str:
    result = phone.run(command)
    assert result.exit_code == 0, result
    return result.stdout.decode()


def _launch(phone: Phone, package: str) -> None:
    _out(phone, f"monkey -p {package} -c android.intent.category.LAUNCHER 1")


def _bounds(phone: Phone, text: str) -> tuple[int, int, int, int]:
    node = etree.fromstring(phone.ui_dump().encode()).xpath(f"//node[@text={text!r}]")[0]
    x1, y1, x2, y2 = (int(v) for v in node.get("bounds").replace("][", ",").strip("[]").split(","))
    return x1, y1, x2, y2


def test_uimode_prints_sets_and_records_the_night_mode(phone):
    assert _out(phone, "cmd uimode night") == "Night mode: no\n"
    assert _out(phone, "cmd uimode night yes") == "Night mode: yes\n"
    assert _out(phone, "settings get secure ui_night_mode") == "2\n"
    assert " port night finger " in _out(phone, "dumpsys window")
    bad = phone.run("cmd uimode night sometimes")
    assert bad.exit_code == 255 and bad.stderr.startswith(b"Error: mode must be 'yes', 'no', or 'auto'")
    assert _out(phone, "cmd uimode night auto") == "Night mode: auto\n"
    assert " night " not in _out(phone, "dumpsys window")  # auto: no twilight on an emulator, stays light


def test_font_scale_is_the_configurations_first_field():
    phone = Phone(270, 600)
    assert "mGlobalConfiguration={1.0 " in _out(phone, "dumpsys window")
    _out(phone, "settings put system font_scale 1.15")
    assert "mGlobalConfiguration={1.15 " in _out(phone, "dumpsys window")


def test_overlay_enable_exclusive_switches_the_navigation_mode_and_list_shows_it(phone):
    assert _out(phone, "cmd overlay list") == f"android\n[ ] {GESTURAL}\n[x] {THREE_BUTTON}\n\n"
    assert _out(phone, f"cmd overlay enable-exclusive --category {GESTURAL}") == ""
    assert _out(phone, "settings get secure navigation_mode") == "2\n"
    assert _out(phone, "cmd overlay list android") == f"android\n[x] {GESTURAL}\n[ ] {THREE_BUTTON}\n"
    assert _out(phone, f"cmd overlay list {THREE_BUTTON}") == f"[ ] {THREE_BUTTON}\n"
    assert phone.run("cmd overlay enable-exclusive --category com.example.none").exit_code == 1
    unknown = phone.run(f"cmd overlay enable-exclusive --force {THREE_BUTTON}")
    assert unknown.exit_code == 1 and unknown.stderr == b"Error: Unknown option: --force\n"
    _out(phone, f"cmd overlay enable-exclusive --category {THREE_BUTTON}")
    assert _out(phone, "settings get secure navigation_mode") == "0\n"


def test_gesture_navigation_shows_the_handle_gives_the_app_the_space_and_routes_gestures(phone):
    _launch(phone, SETTINGS)
    frame = phone.window.frame()
    assert frame.nav_bar.bounds[3] - frame.nav_bar.bounds[1] == NAV_BAR_HEIGHT
    _out(phone, f"cmd overlay enable-exclusive --category {GESTURAL}")
    frame = phone.window.frame()
    assert frame.app.children[0].bounds[3] == 2400 - GESTURE_NAV_BAR_HEIGHT
    handle = frame.nav_bar.children[0]
    assert handle.content_desc == "Home" and frame.nav_bar.bounds[1] == 2400 - GESTURE_NAV_BAR_HEIGHT
    x1, y1, x2, y2 = handle.bounds
    pixels = phone.screenshot()
    assert tuple(pixels[(y1 + y2) // 2, 540]) != tuple(pixels[2400 - 2, 540])  # the pill on the bar
    assert [n.get("text") for n in etree.fromstring(phone.ui_dump().encode()).iter("node")
            if n.get("content-desc") in ("Back", "Home")] == []  # the app's window holds no navigation buttons

    phone.swipe(540, 1200, 540, 600)  # a swipe in the middle scrolls, it does not navigate
    assert phone.activities.top.app.package == SETTINGS
    phone.swipe(2, 1200, 600, 1200)  # inwards from the left edge: back
    assert phone.activities.at_home()
    _launch(phone, SETTINGS)
    phone.swipe(1078, 1200, 500, 1200)  # from the right edge too
    assert phone.activities.at_home()
    _launch(phone, SETTINGS)
    phone.swipe(540, 2395, 540, 1400)  # up from the bottom edge: home
    assert phone.activities.at_home()
    _launch(phone, SETTINGS)
    phone.key(keycodes.BACK)  # keys work in every mode
    assert phone.activities.at_home()


def test_with_three_buttons_edge_swipes_are_ordinary_drags(phone):
    _launch(phone, SETTINGS)
    phone.swipe(540, 2395, 540, 1400)
    phone.swipe(2, 1200, 600, 1200)
    assert phone.activities.top.app.package == SETTINGS


def test_font_scale_scales_text_not_icons_and_rows_grow_to_fit():
    phone = Phone()
    _launch(phone, SETTINGS)
    title = _bounds(phone, "Network & internet")
    rows = [_bounds(phone, text) for text in ("Network & internet", "Connected devices")]
    icons = [v.whole or v.bounds for v in phone.window.frame().app.walk() if v.kind == "icon"]
    _out(phone, "settings put system font_scale 1.3")
    big_title = _bounds(phone, "Network & internet")
    assert big_title[3] - big_title[1] > title[3] - title[1]  # taller text
    big_rows = [_bounds(phone, text) for text in ("Network & internet", "Connected devices")]
    assert big_rows[1][1] - big_rows[0][1] > rows[1][1] - rows[0][1]  # the rows grew apart
    sizes = {(b[2] - b[0], b[3] - b[1]) for b in icons}
    big_icons = [v.whole or v.bounds for v in phone.window.frame().app.walk() if v.kind == "icon"]
    assert {(b[2] - b[0], b[3] - b[1]) for b in big_icons} == sizes  # icons are sized in dp
    _out(phone, "settings put system font_scale 0.85")
    small = _bounds(phone, "Network & internet")
    assert small[3] - small[1] < title[3] - title[1]


def test_dark_theme_darkens_the_system_and_apps_that_follow_it_only(phone):
    _launch(phone, SETTINGS)
    _out(phone, "cmd uimode night yes")
    pixels = phone.screenshot()
    background = SYSTEM_NIGHT[(255, 255, 255)]
    assert tuple(pixels[2400 - NAV_BAR_HEIGHT - 20, 1000]) == background
    assert tuple(pixels[STATUS_BAR_HEIGHT // 2, 700]) == background  # the status bar over it
    phone.key(keycodes.HOME)
    _launch(phone, MARKOR)  # Markor's default theme is its own light one: its window @color/background
    assert tuple(phone.screenshot()[1500, 540]) == (0xEE, 0xEE, 0xEE)


def test_the_keyboard_turns_dark_with_the_system(phone):
    _launch(phone, "com.simplemobiletools.smsmessenger")
    _out(phone, "cmd uimode night yes")
    phone.tap(540, STATUS_BAR_HEIGHT + 60)  # the search field
    keyboard = phone.window.frame().keyboard
    assert keyboard is not None and keyboard.background == (32, 33, 36)


@pytest.mark.parametrize("package", [None, SETTINGS, "com.simplemobiletools.smsmessenger"])
def test_returning_to_the_default_looks_gives_the_default_pixels(package):
    fresh, changed = Phone(270, 600), Phone(270, 600)
    for phone in (fresh, changed):
        if package:
            _launch(phone, package)
    _out(changed, "settings put system font_scale 1.3 && cmd uimode night yes && "
                  f"cmd overlay enable-exclusive --category {GESTURAL}")
    changed.screenshot()
    _out(changed, "settings put system font_scale 1 && cmd uimode night no && "
                  f"cmd overlay enable-exclusive --category {THREE_BUTTON}")
    assert np.array_equal(changed.screenshot(), fresh.screenshot())
    assert changed.ui_dump() == fresh.ui_dump()


def test_widgets_draw_their_own_parts_in_the_dark_theme_too(phone):
    _out(phone, "am start -a android.settings.DISPLAY_SETTINGS")
    toggle = next(v for v in phone.window.frame().app.walk() if v.kind == "toggle" and not v.checked)
    x1, y1, x2, y2 = toggle.bounds
    track = ((y1 + y2) // 2, (x1 + x2) // 2 + 30)  # the off track, right of the thumb
    assert tuple(phone.screenshot()[track]) == (224, 224, 224)
    _out(phone, "cmd uimode night yes")
    assert tuple(phone.screenshot()[track]) == SYSTEM_NIGHT[(224, 224, 224)]
