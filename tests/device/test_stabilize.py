"""Waiting for a still screen: polling rules, bounds, configuration, and an animating phone in process and
through Debian's adb."""

from __future__ import annotations

from collections.abc import Iterator

import adbutils
import pytest

from android_gym.device.adb import AdbDevice
from android_gym.device.stabilize import Stabilization, StableDump, wait_until_stable
from android_gym.errors import AndroidGymError, ConfigError
from android_gym.sim.adb_harness import free_emulator_port
from android_gym.sim.phone import Phone
from android_gym.sim.server import SimServer
from android_gym.ui import parse_ui_dump

NO_WAIT = Stabilization(interval_s=0.0)


class Script:
    """A dump function returning the given dumps in order (the last one forever), recording the sleeps."""

    def __init__(self, *dumps: str) -> None:
        self._dumps = list(dumps)
        self.calls = 0
        self.sleeps: list[float] = []

    def dump(self) -> str:
        self.calls += 1
        return self._dumps[min(self.calls, len(self._dumps)) - 1]

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


def _counting() -> Iterator[str]:
    """Dumps that never repeat (a running stopwatch)."""
    n = 0
    while True:
        n += 1
        yield f"<frame {n}/>"


# ----- the polling rule --------------------------------------------------------------------------------------
def test_a_still_screen_takes_quiet_polls_dumps_and_sleeps_between_them_only():
    script = Script("<a/>")
    result = wait_until_stable(script.dump, Stabilization(interval_s=0.25), sleep=script.sleep)
    assert result == StableDump("<a/>", 2, True)
    assert script.sleeps == [0.25]


def test_polling_goes_on_until_the_same_dump_comes_back_quiet_polls_times_in_a_row():
    script = Script("<a/>", "<b/>", "<b/>", "<c/>", "<c/>", "<c/>", "<d/>")
    result = wait_until_stable(script.dump, Stabilization(interval_s=0.1, quiet_polls=3), sleep=script.sleep)
    assert result == StableDump("<c/>", 6, True)  # b, b is only two in a row
    assert script.sleeps == [0.1] * 5


def test_a_screen_that_never_settles_costs_max_polls_dumps_and_says_so():
    frames = _counting()
    sleeps: list[float] = []
    result = wait_until_stable(lambda: next(frames), Stabilization(interval_s=0.05, max_polls=7), sleep=sleeps.append)
    assert result == StableDump("<frame 7/>", 7, False)
    assert len(sleeps) == 6


def test_settling_on_the_last_allowed_poll_counts_as_settled():
    script = Script("<a/>", "<b/>", "<b/>")
    assert wait_until_stable(script.dump, Stabilization(max_polls=3), sleep=script.sleep) == StableDump("<b/>", 3, True)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"interval_s": -0.1}, "interval_s=-0.1"),
    ({"interval_s": float("nan")}, "finite number >= 0"),
    ({"interval_s": "0.05"}, "interval_s='0.05'"),
    ({"quiet_polls": 1}, "integer >= 2"),
    ({"quiet_polls": 2.5}, "quiet_polls=2.5"),
    ({"max_polls": 1}, "at least quiet_polls=2"),
    ({"quiet_polls": 5, "max_polls": 4}, "at least quiet_polls=5"),
])
def test_bad_configuration_is_refused_with_what_to_give_instead(kwargs, words):
    with pytest.raises(ConfigError, match="Stabilization") as raised:
        Stabilization(**kwargs)
    assert words in str(raised.value)
    assert isinstance(raised.value, AndroidGymError)


def test_the_defaults_are_valid_and_short():
    config = Stabilization()
    assert (config.interval_s, config.quiet_polls, config.max_polls) == (0.05, 2, 40)


# ----- an animating simulated phone ---------------------------------------------------------------------------
def _tap_icon(tap, xml: str, label: str) -> None:
    """Tap the launcher icon ``label`` where ``xml`` shows it."""
    icon = next(e for e in parse_ui_dump(xml) if e.text == label).bbox_pixels
    tap((icon.x_min + icon.x_max) // 2, (icon.y_min + icon.y_max) // 2)


@pytest.fixture
def still_contacts() -> str:
    """What a phone without animations shows right after opening Contacts."""
    phone = Phone()
    _tap_icon(phone.tap, phone.ui_dump(), "Contacts")
    yield phone.ui_dump()
    phone.close()


def test_waiting_on_an_animating_phone_returns_what_a_still_phone_shows(still_contacts):
    phone = Phone(animations=True)
    _tap_icon(phone.tap, phone.ui_dump(), "Contacts")
    first = phone.ui_dump()
    assert first != still_contacts
    result = wait_until_stable(phone.ui_dump, NO_WAIT, sleep=lambda _: None)
    assert result.settled and result.polls > 2
    assert result.xml == still_contacts
    phone.close()


def test_with_the_scale_at_zero_the_first_dump_is_already_still(still_contacts):
    phone = Phone(animations=True)
    phone.run("settings put global transition_animation_scale 0")
    _tap_icon(phone.tap, phone.ui_dump(), "Contacts")
    assert wait_until_stable(phone.ui_dump, NO_WAIT, sleep=lambda _: None) == StableDump(still_contacts, 2, True)
    phone.close()


def test_a_huge_scale_is_cut_off_at_max_polls(still_contacts):
    phone = Phone(animations=True)
    phone.run("settings put global transition_animation_scale 100")
    _tap_icon(phone.tap, phone.ui_dump(), "Contacts")
    result = wait_until_stable(phone.ui_dump, Stabilization(interval_s=0, max_polls=5), sleep=lambda _: None)
    assert (result.polls, result.settled) == (5, False)
    assert result.xml != still_contacts
    phone.close()


# ----- the same over Debian's adb -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def animating_server(adb_server_port) -> Iterator[SimServer]:
    """An animating simulated phone served like an emulator behind the private adb server."""
    with SimServer(Phone(animations=True), adb_port=free_emulator_port()) as server:
        adbutils.AdbClient("127.0.0.1", adb_server_port).wait_for(server.serial, timeout=60)
        yield server


@pytest.fixture
def animating_device(animating_server) -> Iterator[AdbDevice]:
    """``AdbDevice`` on a fresh animating phone (no waiting of its own)."""
    animating_server.phone_host.replace(Phone(animations=True)).close()
    device = AdbDevice(animating_server.serial)
    yield device
    device.close()


def test_polling_uiautomator_dumps_over_adb_finds_the_settled_screen(animating_device, still_contacts):
    device = animating_device
    _tap_icon(device.tap, device.ui_dump(), "Contacts")
    result = wait_until_stable(device.ui_dump, NO_WAIT, sleep=lambda _: None)
    assert result.settled and result.polls > 2
    assert result.xml == still_contacts


def test_an_adb_device_with_stabilization_serves_the_settled_dump_after_each_input(animating_server,
                                                                                    still_contacts):
    animating_server.phone_host.replace(Phone(animations=True)).close()
    device = AdbDevice(animating_server.serial, stabilize=NO_WAIT)
    try:
        _tap_icon(device.tap, device.ui_dump(), "Contacts")
        assert device.ui_dump() == still_contacts
    finally:
        device.close()
