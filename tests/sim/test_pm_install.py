"""The simulated package manager: the APK manifest reader, ``pm install``/``uninstall``/``grant``/``revoke`` with
the real output strings, and what ``dumpsys package`` then shows."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from apk_builder import build_apk, manifest_axml

from android_gym.sim.phone import Phone
from android_gym.sim.system.apk import ApkError, parse_manifest, read_apk

TMP = "/data/local/tmp"
CAMERA, NOTIFY, INTERNET = ("android.permission.CAMERA", "android.permission.POST_NOTIFICATIONS",
                            "android.permission.INTERNET")


def run(phone: Phone, command: str) -> tuple[int, str]:
    result = phone.run(command)
    return result.exit_code, (result.stdout + result.stderr).decode()


def push_apk(phone: Phone, name: str, *args, **kwargs) -> str:
    path = f"{TMP}/{name}"
    phone.fs.write_bytes(path, build_apk(*args, **kwargs))
    return path


def dump(phone: Phone, package: str) -> str:
    return run(phone, f"dumpsys package {package}")[1]


# ----- the manifest reader ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("utf8", [False, True], ids=["utf16-pool", "utf8-pool"])
def test_the_reader_gets_package_version_sdk_and_permissions_from_binary_xml(utf8):
    info = parse_manifest(manifest_axml("org.example.app", 4021, "4.2.1-beta", [CAMERA, INTERNET], min_sdk=23,
                                        target_sdk=31, utf8=utf8))
    assert (info.package, info.version_code, info.version_name) == ("org.example.app", 4021, "4.2.1-beta")
    assert (info.min_sdk, info.target_sdk, info.permissions) == (23, 31, (CAMERA, INTERNET))


def test_the_reader_refuses_what_is_not_an_apk():
    with pytest.raises(ApkError) as not_zip:
        read_apk(b"PK not really a zip")
    assert not_zip.value.code == "INSTALL_PARSE_FAILED_NOT_APK"
    empty = io.BytesIO()
    with zipfile.ZipFile(empty, "w") as archive:
        archive.writestr("classes.dex", b"dex\n035\0")
    with pytest.raises(ApkError) as no_manifest:
        read_apk(empty.getvalue())
    assert (no_manifest.value.code, no_manifest.value.detail) == ("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION",
                                                                  "AndroidManifest.xml")
    with pytest.raises(ApkError, match="not binary XML"):
        parse_manifest(b"<manifest package='x'/>")
    truncated = manifest_axml("org.example.app", 1, "1")
    with pytest.raises(ApkError):
        parse_manifest(truncated[:8] + truncated[8:200])


# ----- pm install ------------------------------------------------------------------------------------------------
def test_an_unknown_package_installs_lists_and_has_a_data_dir_but_nothing_to_launch(phone):
    path = push_apk(phone, "foo.apk", "com.example.foo", 3, "0.3")
    assert run(phone, f"pm install -r -t {path}") == (0, "Success\n")
    assert run(phone, "pm list packages com.example")[1] == "package:com.example.foo\n"
    assert phone.fs.is_dir("/data/data/com.example.foo")
    assert "versionCode=3 minSdk=21 targetSdk=33" in dump(phone, "com.example.foo")
    status, output = run(phone, "monkey -p com.example.foo 1")
    assert status == 252 and "No activities found to run" in output
    assert "Error: Activity not started, unable to resolve" in run(phone, "am start -p com.example.foo")[1]


def test_installd_makes_the_cache_directories_with_the_data_directory_and_a_start_makes_them_again(phone):
    """installd's ``createAppData`` makes ``cache`` and ``code_cache`` with the data directory, before the app ever
    runs; after ``pm clear`` emptied it, the app's next start (``getCacheDir``) makes them again."""
    path = push_apk(phone, "foo.apk", "com.example.foo", 3, "0.3")
    assert run(phone, f"pm install -r -t {path}") == (0, "Success\n")
    assert run(phone, "ls /data/data/com.example.foo") == (0, "cache\ncode_cache\n")
    sms = "com.simplemobiletools.smsmessenger"
    assert run(phone, f"ls /data/data/{sms}") == (0, "cache\ncode_cache\n")  # installed at boot, never started
    assert run(phone, f"pm clear {sms}") == (0, "Success\n")
    assert run(phone, f"ls /data/data/{sms}") == (0, "")
    assert run(phone, f"monkey -p {sms} 1")[0] == 0
    assert run(phone, f"ls /data/data/{sms}") == (0, "cache\ncode_cache\n")


def test_an_apps_first_start_writes_no_folder_so_a_rewind_has_nothing_to_take_back(phone):
    """The cache directories are there from install: an app that writes nothing as it starts (Simple SMS
    Messenger) leaves the files as they were, and the phone's rewind writes nothing back."""
    phone.keep_baseline()
    phone.checkpoint()
    assert run(phone, "monkey -p com.simplemobiletools.smsmessenger 1")[0] == 0
    assert not phone.fs.rewind()


def test_an_update_keeps_the_apps_data_and_uid_and_shows_the_new_version(phone):
    uid_before = re.search(r"userId=(\d+)", dump(phone, "org.tasks")).group(1)
    phone.fs.write_bytes("/data/data/org.tasks/kept.txt", b"still here")
    path = push_apk(phone, "tasks.apk", "org.tasks", 130700, "13.7")
    assert run(phone, f"pm install -r {path}") == (0, "Success\n")
    package = dump(phone, "org.tasks")
    assert "versionCode=130700 " in package and "versionName=13.7\n" in package
    assert f"userId={uid_before}\n" in package
    assert "lastUpdateTime=" in package and "installerPackageName=com.android.shell" in package
    assert phone.fs.read_bytes("/data/data/org.tasks/kept.txt") == b"still here"


def test_a_downgrade_fails_with_the_platform_message_unless_allowed(phone):
    path = push_apk(phone, "old.apk", "org.tasks", 130000, "13.0")
    assert run(phone, f"pm install {path}") == (
        1, "Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 130000 is older "
           "than current 130605]\n")
    assert "versionCode=130605 " in dump(phone, "org.tasks")
    assert run(phone, f"pm install -r -d {path}") == (0, "Success\n")
    assert "versionCode=130000 " in dump(phone, "org.tasks")


def test_parse_failures_use_the_platform_failure_strings(phone):
    phone.fs.write_bytes(f"{TMP}/notes.txt", b"just text")
    status, output = run(phone, f"pm install {TMP}/notes.txt")
    staged = re.fullmatch(r"Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed to parse (/data/app/vmdl\d+\.tmp/base\.apk):"
                          r" Failed to load asset path (\S+)\]\n", output)
    assert status == 1 and staged and staged.group(1) == staged.group(2)
    status, output = run(phone, f"pm install {TMP}/missing.apk")
    assert status == 255
    assert output.startswith(f"Error: Can't open file: {TMP}/missing.apk\n")
    assert f"java.lang.IllegalArgumentException: Error: Can't open file: {TMP}/missing.apk" in output
    assert run(phone, "pm install") == (1, "Error: must either specify a package size or an APK file\n")


def test_install_g_grants_every_requested_runtime_permission_and_not_g_grants_none(phone):
    granted = push_apk(phone, "a.apk", "com.example.granted", 1, "1", [CAMERA, NOTIFY, INTERNET])
    plain = push_apk(phone, "b.apk", "com.example.plain", 1, "1", [CAMERA, INTERNET])
    assert run(phone, f"pm install -g {granted}")[0] == run(phone, f"pm install {plain}")[0] == 0
    package = dump(phone, "com.example.granted")
    assert f"        {CAMERA}: granted=true," in package and f"        {NOTIFY}: granted=true," in package
    assert f"    install permissions:\n      {INTERNET}: granted=true\n" in package
    assert f"    requested permissions:\n      {CAMERA}\n      {NOTIFY}\n      {INTERNET}\n" in package
    assert f"        {CAMERA}: granted=false," in dump(phone, "com.example.plain")


# ----- pm grant / revoke -------------------------------------------------------------------------------------------
def test_grant_and_revoke_record_the_state_dumpsys_shows(phone):
    path = push_apk(phone, "c.apk", "com.example.cam", 1, "1", [CAMERA, INTERNET])
    run(phone, f"pm install {path}")
    assert run(phone, f"pm grant com.example.cam {CAMERA}") == (0, "")
    assert "runtime permissions:\n        android.permission.CAMERA: granted=true, flags=[" in dump(
        phone, "com.example.cam")
    assert run(phone, f"pm revoke com.example.cam {CAMERA}") == (0, "")
    assert f"{CAMERA}: granted=false" in dump(phone, "com.example.cam")
    # A simulated app whose manifest is not modelled may be granted any runtime permission.
    assert run(phone, f"pm grant com.android.camera2 {CAMERA}")[0] == 0
    assert f"{CAMERA}: granted=true" in dump(phone, "com.android.camera2")


@pytest.mark.parametrize("command, exception", [
    ("pm grant com.nothing.here android.permission.CAMERA",
     "java.lang.IllegalArgumentException: Unknown package: com.nothing.here"),
    ("pm grant com.example.cam com.example.permission.MADE_UP",
     "java.lang.IllegalArgumentException: Unknown permission: com.example.permission.MADE_UP"),
    ("pm grant com.example.cam android.permission.RECORD_AUDIO",
     "java.lang.SecurityException: Package com.example.cam has not requested permission "
     "android.permission.RECORD_AUDIO"),
    ("pm revoke com.example.cam android.permission.INTERNET",
     "java.lang.SecurityException: Permission android.permission.INTERNET requested by com.example.cam is not a "
     "changeable permission type"),
])
def test_refused_grants_print_the_platform_exception(phone, command, exception):
    run(phone, f"pm install {push_apk(phone, 'c.apk', 'com.example.cam', 1, '1', [CAMERA, INTERNET])}")
    verb = command.split()[1]
    assert run(phone, command) == (255, f"\nException occurred while executing '{verb}':\n{exception}\n")


# ----- pm uninstall ------------------------------------------------------------------------------------------------
def test_uninstall_removes_the_package_its_data_and_its_launcher_icon(phone):
    phone.fs.makedirs("/storage/emulated/0/Android/data/org.tasks/files")
    uid_of_vlc = re.search(r"userId=(\d+)", dump(phone, "org.videolan.vlc")).group(1)
    assert run(phone, "pm uninstall org.tasks") == (0, "Success\n")
    assert run(phone, "pm list packages org.tasks") == (0, "")
    assert not phone.fs.exists("/data/data/org.tasks")
    assert not phone.fs.exists("/storage/emulated/0/Android/data/org.tasks")
    assert dump(phone, "org.tasks") == "Unable to find package: org.tasks\n"
    assert 'text="Tasks"' not in phone.ui_dump() and 'text="VLC"' in phone.ui_dump()
    assert f"userId={uid_of_vlc}\n" in dump(phone, "org.videolan.vlc")  # other packages keep their uids
    assert run(phone, "pm uninstall org.tasks") == (1, "Failure [DELETE_FAILED_INTERNAL_ERROR]\n")


def test_a_simulated_app_installed_again_from_its_apk_is_back_on_the_launcher_at_that_version(phone):
    run(phone, "pm uninstall org.tasks")
    path = push_apk(phone, "tasks.apk", "org.tasks", 130605, "13.6.3", [NOTIFY])
    assert run(phone, f"pm install -r -t -g {path}") == (0, "Success\n")
    assert 'text="Tasks"' in phone.ui_dump()
    assert run(phone, "monkey -p org.tasks 1")[0] == 0
    assert phone.activities.foreground()[0] == "org.tasks"
    assert f"{NOTIFY}: granted=true" in dump(phone, "org.tasks")


def test_a_system_app_is_only_removed_for_a_user(phone):
    assert run(phone, "pm uninstall com.android.camera2") == (1, "Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
    assert run(phone, "pm uninstall --user 0 com.android.camera2") == (0, "Success\n")
    assert run(phone, "pm list packages camera2") == (0, "")
