"""The shell commands AndroidEnv and AndroidWorld run against a device, in their Android 13 formats: ``dumpsys
input``/``window`` (orientation, frames), ``am stack``, ``dumpsys activity recents``, ``service call``, implicit
``am start`` intents, and the accessibility forwarder app's receiver."""

from __future__ import annotations

import re

import pytest

from android_gym.sim.apps.accessibility_forwarder import PACKAGE as FORWARDER
from android_gym.sim.apps.accessibility_forwarder import AccessibilityForwarder
from android_gym.sim.system.apk import ApkInfo

SMS = "com.simplemobiletools.smsmessenger"
SMS_MAIN = f"{SMS}/{SMS}.activities.MainActivity"
LAUNCHER = "com.google.android.apps.nexuslauncher"


def out(phone, command: str) -> str:
    result = phone.run(command)
    assert result.exit_code == 0, result
    return result.stdout.decode()


@pytest.mark.parametrize("rotation", [0, 1])
def test_dumpsys_input_and_window_give_the_frames_and_rotation_androidenv_and_androidworld_parse(phone, rotation):
    phone.run(f"settings put system user_rotation {rotation}")
    dump = out(phone, "dumpsys input")
    width, height = (1080, 2400) if rotation == 0 else (2400, 1080)
    # AndroidEnv's get_orientation (adb_call_parser.py) and AndroidWorld's get_logical_screen_size.
    assert re.search(r"\s+PhysicalWidth:\s+(-?\d+)px", dump).group(1) == str(width)
    assert re.search(r"\s+(SurfaceOrientation|InputDeviceOrientation):\s+.*(\d)", dump).group(2) == str(rotation)
    assert re.findall(r"logicalFrame=\[0, 0, (\d+), (\d+)\]", dump)[0] == (str(width), str(height))
    assert out(phone, "dumpsys window | grep mCurrentRotation").strip() == f"mCurrentRotation=ROTATION_{90 * rotation}"


def test_auto_rotation_keeps_the_phone_upright(phone):
    phone.run("settings put system user_rotation 1; settings put system accelerometer_rotation 1")
    assert "SurfaceOrientation: 0" in out(phone, "dumpsys input")


def test_am_stack_list_is_what_androidenv_finds_the_visible_activity_in(phone):
    phone.run(f"am start -n {SMS_MAIN}")
    listed = out(phone, "am stack list")
    visible = out(phone, "am stack list | grep -E visible=true")
    assert visible.count("\n") == 1
    assert re.search(r".*\{(.*)\}", visible).group(1) == SMS_MAIN  # _get_current_activity
    line = re.compile(r"^\ *taskId=(?P<id>[0-9]*): (?P<base_activity>[^\s]*) .*visible=true"
                      r".*topActivity=ComponentInfo{(?P<top_activity>[^\s]*)}$")  # _fetch_current_task_id
    match = next(m for m in map(line.search, listed.splitlines()) if m)
    assert match.group("base_activity") == match.group("top_activity") == SMS_MAIN
    assert out(phone, f"am task lock {match.group('id')}") == ""
    assert listed.startswith(f"RootTask id={match.group('id')} bounds=[0,0][1080,2400] displayId=0 userId=0\n"
                             " configuration={1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi")


def test_androidworld_closes_recent_apps_with_the_ids_of_dumpsys_activity_recents(phone):
    phone.run(f"am start -n {SMS_MAIN}; am start -n com.android.settings/.Settings")
    recents = out(phone, "dumpsys activity recents")
    assert recents.startswith("ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)\n")
    assert "  Visible recent tasks (most recent first):\n  * RecentTaskInfo #0: \n    id=" in recents
    for task in re.findall(r"id=(\d+)", recents):  # adb_utils.close_recents
        phone.run(f"am stack remove {task}")
    assert phone.activities.foreground()[0] == LAUNCHER
    assert [t[0].app.package for t in phone.activities.task_stacks()] == [LAUNCHER]
    warnings = out(phone, "logcat -d -b system -v brief ActivityTaskManager:W '*:S'")
    assert "W/ActivityTaskManager(  522): removeTask: No task remove with id=2000\n" in warnings
    assert out(phone, "dumpsys activity recents").endswith("  (nothing)\n")


def test_service_call_alarm_sets_the_time_zone_as_androidworld_does(phone):
    assert out(phone, "service call alarm 3 s16 UTC") == "Result: Parcel(00000000    '....')\n"
    assert out(phone, "getprop persist.sys.timezone") == "UTC\n"
    assert out(phone, "service call alarm 2 i64 1700000000000") == "Result: Parcel(00000000 00000001   '........')\n"
    assert out(phone, "date +%s") == "1700000000\n"
    refused = phone.run("service call alarm 3 s16 Europe/Paris")
    assert refused.exit_code == 1 and b"keeps UTC" in refused.stderr
    assert phone.run("service call nothing 1").stderr == b"service: Service nothing does not exist\n"


@pytest.mark.parametrize(("uri", "foreground"), [
    ("content://contacts/people/", ("com.google.android.contacts", "com.android.contacts.activities.PeopleActivity")),
    ("content://com.android.calendar/time/1697384040000",
     ("com.simplemobiletools.calendar.pro", "com.simplemobiletools.calendar.pro.activities.MainActivity")),
])
def test_view_intents_resolve_with_the_type_their_provider_gives(phone, uri, foreground):
    result = phone.run(f"am start -a android.intent.action.VIEW -d {uri}")
    assert result.stderr == b""
    assert phone.activities.foreground() == foreground


def test_a_typeless_calendar_uri_matches_no_filter_of_simple_calendar(phone):
    """``content://com.android.calendar`` has no type (CalendarProvider2.getType throws for it) and Simple
    Calendar Pro's filters all name a type: as on a phone whose only calendar is that app, nothing starts."""
    result = phone.run("am start -a android.intent.action.VIEW -d content://com.android.calendar")
    assert b"Error: Activity not started, unable to resolve Intent" in result.stderr


def test_the_forwarder_installs_from_its_apk_and_takes_its_flags(phone):
    assert phone.packages.get(FORWARDER) is None
    phone.packages.install_apk(ApkInfo(FORWARDER, 1, "1.0", 28, 34, ()))
    app = phone.packages.get(FORWARDER)
    assert isinstance(app, AccessibilityForwarder) and not app.service_enabled
    component = f"{FORWARDER}/{FORWARDER}.FlagsBroadcastReceiver"
    out(phone, "settings put secure enabled_accessibility_services "
               f"{FORWARDER}/{FORWARDER}.AccessibilityForwarder")
    out(phone, f"am broadcast -a accessibility_forwarder.intent.action.ENABLE_ACCESSIBILITY_TREE_LOGS -n {component}")
    out(phone, f'am broadcast -a accessibility_forwarder.intent.action.SET_GRPC --ei "port" 4321 --es "host" '
               f"10.0.2.2 -n {component}")
    assert (app.service_enabled, app.log_tree, app.grpc_host, app.grpc_port) == (True, True, "10.0.2.2", 4321)
    phone.run(f"am force-stop {FORWARDER}")
    assert (app.log_tree, app.grpc_port) == (False, 0)  # a new process starts from LogFlags' defaults
