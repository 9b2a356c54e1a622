"""``setup-device`` and app data snapshots, on the simulated phone in process and over Debian's adb: the app
manifest against the tasks and the simulated apps, installing from ``--apks``/the cache/a loopback mirror,
idempotence, clear errors, and a byte-for-byte restore of app data."""

from __future__ import annotations

import functools
import http.server
import shlex
import threading
from pathlib import Path

import gymnasium as gym
import pytest
from apk_builder import build_apk, write_apk

import android_gym
from android_gym import cli
from android_gym.agents import OracleAgent
from android_gym.device import provision
from android_gym.device.base import Device
from android_gym.device.provision import (
    ANIMATION_SETTINGS,
    SNAPSHOT_DIR,
    AppSpec,
    has_app_snapshot,
    installed_version,
    load_manifest,
    package_state,
    restore_app_data,
    setup_device,
    snapshot_app_data,
)
from android_gym.device.state import sqlite_execute
from android_gym.errors import ProvisionError
from android_gym.sim.adb_harness import free_port
from android_gym.sim.phone import Phone
from android_gym.tasks.base import DEVICE_TIME
from android_gym.testing import run_episode

TASKS = next(spec for spec in load_manifest() if spec.package == "org.tasks")
EXPENSE_DB = "/data/data/com.arduia.expense/databases/accounting.db"
CLOCK = "com.google.android.deskclock"


def quiet(_line: str) -> None:
    """A ``log`` that drops the step lines."""


def apk_dir(tmp_path: Path, spec: AppSpec = TASKS, version_code: int | None = None) -> Path:
    """A folder holding the builder's APK of ``spec`` (named as F-Droid names it)."""
    folder = tmp_path / "apks"
    folder.mkdir(exist_ok=True)
    write_apk(folder, spec.package, version_code or spec.version_code, spec.version_name, spec.permissions)
    return folder


def files_of(device: Device, directory: str) -> dict[str, bytes]:
    """Every file under ``directory`` with its bytes, read through the Device protocol."""
    names = device.shell(f"find {shlex.quote(directory)} -type f").output.split()
    return {name: device.pull(name) for name in names}


# ----- the manifest ------------------------------------------------------------------------------------------------
def test_the_manifest_covers_every_tasks_apps():
    needed = {package for name in android_gym.task_names() for package in android_gym.get_task(name).app_packages}
    assert needed <= {spec.package for spec in load_manifest()}


def test_the_manifest_and_the_simulated_apps_agree():
    phone = Phone()
    try:
        for spec in load_manifest():
            app = phone.packages.get(spec.package)
            assert app is not None, f"{spec.package} is not simulated"
            assert app.label == spec.label, spec.package
            assert (app.version_name, app.version_code) == (spec.version_name, spec.version_code), spec.package
            if not spec.is_system:
                assert spec.apk_urls() and all(url.startswith("https://") for url in spec.apk_urls())
    finally:
        phone.close()


def test_a_malformed_manifest_and_unknown_packages_are_errors(tmp_path, device):
    bad = tmp_path / "apps.toml"
    bad.write_text('[[app]]\npackage = "org.x"\nlabel = "X"\nsource = "f-droid"\n')
    with pytest.raises(ProvisionError, match=r"app #1 \(org.x\): an installable app needs version_code"):
        load_manifest(bad)
    bad.write_text('[[app]]\npackage = "org.x"\nlabel = "X"\nsource = "ftp://x"\n')
    with pytest.raises(ProvisionError, match="source must be 'f-droid', 'system' or an https:// URL"):
        load_manifest(bad)
    with pytest.raises(ProvisionError, match="not in the app manifest: org.nope"):
        setup_device(device, packages=["org.tasks", "org.nope"], log=quiet)


# ----- setup_device --------------------------------------------------------------------------------------------------
def test_setup_device_provisions_a_fresh_phone_and_a_second_run_does_nothing(device):
    first = setup_device(device, download=False, log=quiet)
    assert first.changed and first.time_fixed and first.animations_disabled and not first.installed
    specs = load_manifest()
    assert sorted(first.snapshots) == sorted(spec.package for spec in specs)
    for spec in specs:
        state = package_state(device, spec.package)
        assert state is not None and set(spec.permissions) <= state.granted, spec.package
        if not spec.is_system:
            assert installed_version(device, spec.package) == (spec.version_code, spec.version_name)
        assert has_app_snapshot(device, spec.package)
    assert "android.permission.READ_CALENDAR: granted=true" in device.shell(
        "dumpsys package com.simplemobiletools.calendar.pro").output
    settings = "; ".join(["settings get global auto_time", "settings get global auto_time_zone",
                          "settings get system time_12_24", "date +%s"]
                         + [f"settings get global {name}" for name in ANIMATION_SETTINGS])
    assert device.shell(settings).output.split() == ["0", "0", "24", str(int(DEVICE_TIME.timestamp())), "0", "0",
                                                     "0"]
    lines: list[str] = []
    second = setup_device(device, download=False, log=lines.append)
    assert not second.changed
    assert lines == [f"[apps] all {len(specs)} apps present at the manifest versions", "[permissions] all granted",
                     "[time] already fixed at 2023-10-15 15:34 UTC", "[animations] already off",
                     "[snapshots] every app's data snapshot is up to date"]


def test_an_uninstalled_app_comes_back_from_apks_and_its_task_still_runs(device, tmp_path):
    setup_device(device, download=False, log=quiet)
    assert device.shell("pm uninstall org.tasks").ok
    assert installed_version(device, "org.tasks") is None
    report = setup_device(device, apks=apk_dir(tmp_path), download=False, log=quiet)
    assert (report.installed, report.snapshots, report.granted) == (["org.tasks"], ["org.tasks"], [])
    assert installed_version(device, "org.tasks") == (130605, "13.6.3")
    assert not device.shell("ls /data/local/tmp/android_gym/org.tasks_130605.apk").ok  # the pushed copy is gone
    env = gym.make(android_gym.env_id("TasksCompleteTask"), device=device, pixels=False)
    try:
        assert run_episode(env, OracleAgent(), seed=0).score == 1.0
    finally:
        env.close()


def test_an_app_at_another_version_is_reinstalled_at_the_manifest_version(device, tmp_path):
    device.push(build_apk("org.tasks", 140000, "14.0"), "/data/local/tmp/new.apk")
    assert device.shell("pm install /data/local/tmp/new.apk").ok
    report = setup_device(device, apks=apk_dir(tmp_path), download=False, packages=["org.tasks"], log=quiet)
    assert report.installed == ["org.tasks"]
    assert installed_version(device, "org.tasks") == (130605, "13.6.3")


def test_a_missing_apk_without_downloads_is_a_clear_error(device, tmp_path):
    device.shell("pm uninstall org.tasks")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ProvisionError, match=rf"no APK for org.tasks 13.6.3 \(versionCode 130605\): put it in "
                                             rf"{empty}/org.tasks_130605.apk, or allow downloads to fetch it from "
                                             r"https://f-droid.org/repo/org.tasks_130605.apk"):
        setup_device(device, apks=empty, download=False, cache_dir=tmp_path / "cache", log=quiet)
    with pytest.raises(ProvisionError, match=r"a folder given with --apks DIR \(as org.tasks_130605.apk\)"):
        setup_device(device, download=False, cache_dir=tmp_path / "cache", log=quiet)


def test_an_apk_of_another_version_is_refused(device, tmp_path):
    device.shell("pm uninstall org.tasks")
    folder = apk_dir(tmp_path, version_code=130000)
    (folder / "org.tasks_130000.apk").rename(folder / "org.tasks.apk")
    with pytest.raises(ProvisionError, match=r"org.tasks.apk is org.tasks versionCode 130000, but the manifest pins "
                                             r"org.tasks versionCode 130605 \(13.6.3\)"):
        setup_device(device, apks=folder, download=False, packages=["org.tasks"], log=quiet)


def test_a_system_app_the_image_lacks_is_an_error(device):
    assert device.shell("pm uninstall --user 0 com.android.camera2").ok
    with pytest.raises(ProvisionError, match=r"lacks the system app\(s\) com.android.camera2 \(Camera\): run an API "
                                             r"33 google_apis emulator image"):
        setup_device(device, log=quiet)


@pytest.fixture
def mirror(tmp_path):
    """An HTTP server on loopback serving ``<tmp_path>/mirror/``; yields its base URL."""
    root = tmp_path / "mirror"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", root
    server.shutdown()
    server.server_close()


def test_downloads_come_from_the_first_mirror_that_has_the_apk_and_are_cached(device, tmp_path, mirror,
                                                                             monkeypatch):
    base, root = mirror
    write_apk(root, "org.tasks", 130605, "13.6.3")
    monkeypatch.setattr(provision, "FDROID_MIRRORS", (f"http://127.0.0.1:{free_port()}/repo/", base))
    device.shell("pm uninstall org.tasks")
    lines: list[str] = []
    report = setup_device(device, packages=["org.tasks"], cache_dir=tmp_path / "cache", log=lines.append)
    assert report.installed == ["org.tasks"]
    assert f"[apps] downloading {base}org.tasks_130605.apk" in lines
    assert (tmp_path / "cache" / "org.tasks_130605.apk").read_bytes() == (root / "org.tasks_130605.apk").read_bytes()
    device.shell("pm uninstall org.tasks")
    (root / "org.tasks_130605.apk").unlink()
    assert setup_device(device, download=False, packages=["org.tasks"], cache_dir=tmp_path / "cache",
                        log=quiet).installed == ["org.tasks"]


def test_unreachable_mirrors_name_each_url_and_the_apks_option(device, tmp_path, mirror, monkeypatch):
    base, root = mirror
    (root / "org.tasks_130605.apk").write_text("<html>not found</html>")  # a captive portal's answer
    closed = f"http://127.0.0.1:{free_port()}/repo/"
    monkeypatch.setattr(provision, "FDROID_MIRRORS", (closed,))
    device.shell("pm uninstall org.tasks")
    with pytest.raises(ProvisionError, match=rf"could not download org.tasks 13.6.3 \({closed}org.tasks_130605.apk: "
                                             r".*\); download org.tasks_130605.apk on a machine that can and pass "
                                             r"its folder with --apks DIR"):
        setup_device(device, packages=["org.tasks"], cache_dir=tmp_path / "cache", log=quiet)
    monkeypatch.setattr(provision, "FDROID_MIRRORS", (base,))
    with pytest.raises(ProvisionError, match=rf"{base}org.tasks_130605.apk is not a readable APK"):
        setup_device(device, packages=["org.tasks"], cache_dir=tmp_path / "cache", log=quiet)
    assert not (tmp_path / "cache" / "org.tasks_130605.apk").exists()


# ----- app data snapshots ---------------------------------------------------------------------------------------
def test_restore_brings_app_data_back_byte_for_byte(backend_device):
    packages = ["com.arduia.expense", CLOCK]
    data_dirs = ["/data/data/com.arduia.expense", f"/data/data/{CLOCK}", f"/data/user_de/0/{CLOCK}"]
    sqlite_execute(backend_device, EXPENSE_DB, "INSERT INTO expense (name, amount, category, note, created_date, "
                   "modified_date) VALUES ('Lunch', 1250, 3, '', 1697384040000, 1697384040000)")
    clock_prefs = f"/data/user_de/0/{CLOCK}/shared_prefs/{CLOCK}_preferences.xml"
    backend_device.push(b"<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map />\n", clock_prefs)
    snapshot_app_data(backend_device, packages)
    before = {directory: files_of(backend_device, directory) for directory in data_dirs}
    assert before[data_dirs[0]][EXPENSE_DB] and before[data_dirs[2]]
    sqlite_execute(backend_device, EXPENSE_DB, "UPDATE expense SET amount = 99, name = 'Changed'")
    sqlite_execute(backend_device, EXPENSE_DB, "INSERT INTO expense (name, amount, category, note, created_date, "
                   "modified_date) VALUES ('Extra', 1, 1, '', 0, 0)")
    backend_device.push(b"left behind", f"/data/data/{CLOCK}/files/new.txt")
    backend_device.push(b"<map><int name='tab' value='2' /></map>", clock_prefs)
    backend_device.push(b"new", f"/data/user_de/0/{CLOCK}/shared_prefs/extra.xml")
    assert files_of(backend_device, data_dirs[0]) != before[data_dirs[0]]
    restore_app_data(backend_device, packages)
    assert {directory: files_of(backend_device, directory) for directory in data_dirs} == before


def test_restoring_without_a_snapshot_is_an_error(device):
    with pytest.raises(ProvisionError, match=rf"no app data snapshot at {SNAPSHOT_DIR}/org.tasks: run "
                                             r"`android-gym setup-device` first"):
        restore_app_data(device, ["org.tasks"])


def test_missing_ok_restores_the_apps_that_have_a_snapshot_and_skips_the_others(device):
    snapshot_app_data(device, ["com.arduia.expense"])
    before = files_of(device, "/data/data/com.arduia.expense")
    device.push(b"left behind", "/data/data/com.arduia.expense/files/new.txt")
    device.push(b"kept", "/data/data/org.tasks/files/mine.txt")
    restore_app_data(device, ["com.arduia.expense", "org.tasks"], missing_ok=True)
    assert files_of(device, "/data/data/com.arduia.expense") == before
    assert device.pull("/data/data/org.tasks/files/mine.txt") == b"kept"


def test_env_reset_restores_the_task_apps_snapshot_before_the_task_sets_up(device):
    setup_device(device, log=quiet)
    env = gym.make("AndroidWorld/ExpenseDeleteSingle-v0", device=device, pixels=False)
    try:
        env.reset(seed=0)
        stray = "/data/data/com.arduia.expense/files/stray.txt"
        device.push(b"from the last episode", stray)
        env.reset(seed=1)
        assert not device.shell(f"[ -e {stray} ]").ok
    finally:
        env.close()


def test_with_grpc_setup_device_saves_the_ready_emulator_snapshot_once(device):
    from android_gym.device.emulator_grpc import EmulatorGrpc
    from android_gym.sim.grpc_server import SimGrpcServer
    from android_gym.sim.host import PhoneHost

    server = SimGrpcServer(PhoneHost(device.phone)).start()
    try:
        with EmulatorGrpc(f"127.0.0.1:{server.port}") as grpc:
            assert setup_device(device, log=quiet, grpc=grpc).emulator_snapshot == provision.READY_SNAPSHOT
            assert grpc.list_snapshots() == [provision.READY_SNAPSHOT]
            assert setup_device(device, log=quiet, grpc=grpc).emulator_snapshot is None
    finally:
        server.stop()


def test_setup_device_over_adb_from_the_command_line(fresh_served_phone, tmp_path, capsys):
    spec = f"adb:{fresh_served_phone.serial}"
    phone = fresh_served_phone.phone
    assert phone.run("pm uninstall org.tasks").exit_code == 0
    argv = ["setup-device", "--device", spec, "--apks", str(apk_dir(tmp_path)), "--no-download"]
    assert cli.main(argv) == 0
    output = capsys.readouterr().out
    assert "[apps] installed org.tasks 13.6.3 (130605)" in output and output.endswith(f"{spec}: set up\n")
    assert phone.packages.record("org.tasks").version_code == 130605
    assert phone.settings.get("global", "window_animation_scale") == "0"
    assert cli.main(argv) == 0
    assert capsys.readouterr().out.endswith(f"{spec}: already set up, nothing to do\n")
