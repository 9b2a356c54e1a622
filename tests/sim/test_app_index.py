"""The apps' index (``sim/apps/index.json``) and apps started on first need: a new phone installs every app from the
index without importing the apps' modules, and starts an app (imports its module, makes its ``App``) only when
something needs it; what the phone shows and keeps is what it would be had every app started at boot."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from android_gym.sim.apps import indexed_apps
from android_gym.sim.apps.launcher import Launcher
from android_gym.sim.framework.packages import app_class
from android_gym.sim.phone import Phone
from android_gym.sim.shell.commands.activity import parse_intent
from android_gym.sim.snapshot import save_phone
from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.content_types import provider_type
from android_gym.sim.system.fs import EXTERNAL_STORAGE, FileSystem

EXPENSE, TASKS = "com.arduia.expense", "org.tasks"


@pytest.fixture
def phones():
    """A phone whose apps start when first needed (the default) and one whose apps all started at boot."""
    lazy, eager = Phone(), Phone(apps=[app_class(info) for info in indexed_apps()["installed"]])
    yield lazy, eager
    lazy.close()
    eager.close()


def file_tree(phone: Phone, top: os.PathLike | None = None) -> dict[str, tuple[int, int, str]]:
    """Every path under the phone's root (or ``top``): modification time, size and a digest of the bytes of a
    file."""
    tree = {}
    for directory, dirnames, filenames in os.walk(top or phone.fs.root):
        for name in dirnames + filenames:
            host = os.path.join(directory, name)
            info = os.lstat(host)
            digest = hashlib.sha256(open(host, "rb").read()).hexdigest() if name in filenames else "directory"
            tree[os.path.relpath(host, phone.fs.root)] = (info.st_mtime_ns, info.st_size if name in filenames else 0,
                                                          digest)
    return tree


def test_the_index_is_what_the_app_lists_define():
    result = subprocess.run([sys.executable, "-m", "android_gym.sim.apps.index", "--check"], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_new_phone_imports_the_home_app_only():
    code = """
        import json, sys
        from android_gym.sim.phone import Phone
        phone = Phone()
        phone.screenshot()
        listed = phone.run("pm list packages").stdout.decode().split()
        print(json.dumps({"apps": sorted(m for m in sys.modules if m.startswith("android_gym.sim.apps")),
                          "started": phone.packages.started(), "listed": len(listed)}))
        """
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen["apps"] == ["android_gym.sim.apps", "android_gym.sim.apps.launcher"]
    assert seen["started"] == ["com.google.android.apps.nexuslauncher"]
    assert seen["listed"] == len(indexed_apps()["installed"])


def test_a_phone_shows_and_keeps_what_it_would_had_every_app_started_at_boot(phones):
    lazy, eager = phones
    assert np.array_equal(lazy.screenshot(), eager.screenshot()) and lazy.ui_dump() == eager.ui_dump()
    for command in ("pm list packages -U", f"dumpsys package {EXPENSE}", "dumpsys activity activities",
                    "date 102016002023.00",
                    f"sqlite3 /data/data/{EXPENSE}/databases/accounting.db 'SELECT count(*) FROM expense'",
                    f"ls -l /data/data/{EXPENSE}/databases",
                    "am start -a android.intent.action.VIEW -d sms:5551234",
                    "am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/Music",
                    "ls -lR /data/user_de", "ls -l /data/data", "logcat -d"):
        assert lazy.run(command) == eager.run(command), command
    assert np.array_equal(lazy.screenshot(), eager.screenshot()) and lazy.ui_dump() == eager.ui_dump()
    for package in lazy.packages.names():
        lazy.packages.get(package)
    assert file_tree(lazy) == file_tree(eager)


#: Implicit intents (``am``/``pm`` arguments) and the app that takes each (``None``: no app does).
INTENTS = [
    ("-a android.intent.action.SENDTO -d sms:5551234", "com.simplemobiletools.smsmessenger"),
    ("-a android.intent.action.SEND -t text/plain", "com.simplemobiletools.smsmessenger"),
    ("-a android.intent.action.VIEW -d https://example.com/", "com.android.chrome"),
    ("-a android.intent.action.VIEW -t text/html -d file:///sdcard/Download/page.html", "com.android.chrome"),
    ("-a android.settings.WIFI_SETTINGS", "com.android.settings"),
    ("-a android.intent.action.INSERT -t vnd.android.cursor.dir/contact", "com.google.android.contacts"),
    ("-a android.intent.action.VIEW -d content://com.android.contacts/contacts/1", "com.google.android.contacts"),
    ("-a android.intent.action.EDIT -d content://com.android.contacts/contacts/lookup/0r1-2B3D/1",
     "com.google.android.contacts"),
    ("-a android.intent.action.VIEW -d content://com.android.calendar/time/1700000000000",
     "com.simplemobiletools.calendar.pro"),
    ("-a android.intent.action.EDIT -t vnd.android.cursor.item/event", "com.simplemobiletools.calendar.pro"),
    ("-a com.android.intent.action.SHOW_BRIGHTNESS_DIALOG", "com.android.systemui"),
    ("-a android.intent.action.MAIN -c android.intent.category.HOME", Launcher.package),
    ("-a android.intent.action.VIEW -d tel:5551234", None),
]


def test_an_implicit_intent_starts_only_the_app_that_takes_it():
    """The index holds the apps' intent filters, so resolving an intent starts the app that takes it and no other;
    the activity is the one the eager phone resolves, and the one the first app (in install order) to take the
    intent names when every app is asked: the filters hide no app that takes it."""
    eager = Phone(apps=[app_class(info) for info in indexed_apps()["installed"]])
    try:
        for arguments, handler in INTENTS:
            lazy = Phone()
            try:
                command = f"pm resolve-activity --brief {arguments}"
                resolved = lazy.run(command).stdout.decode()
                assert resolved == eager.run(command).stdout.decode(), arguments
                started = [Launcher.package] + ([handler] if handler not in (None, Launcher.package) else [])
                assert lazy.packages.started() == started, arguments
                intent = parse_intent(arguments.split()).to_intent()
                if intent.data.startswith("content:"):
                    intent.mime_type = provider_type(intent.data) or ""
                asked = (f"{app.package}/{screen.activity}" for app in map(eager.packages.get, eager.packages.names())
                         if (screen := app.resolve(intent)) is not None)
                assert resolved.splitlines()[-1] == next(asked, "No activity found"), arguments
            finally:
                lazy.close()
    finally:
        eager.close()


def test_an_app_starts_before_its_data_is_first_used_and_only_it():
    phone = Phone()
    try:
        listing = phone.run(f"ls /data/data/{EXPENSE}/databases").stdout.decode()
        assert listing == "accounting.db\n"
        assert EXPENSE in phone.packages.started() and TASKS not in phone.packages.started()
        assert phone.run("[ -d /data/local/tmp ] && echo a[b").stdout == b"a[b\n"
        assert TASKS not in phone.packages.started()
        assert phone.run("ls /data/data").stdout.decode().split() == sorted(phone.packages.names())
        assert TASKS in phone.packages.started()
    finally:
        phone.close()


def test_no_app_writes_shared_storage_when_it_starts_so_a_look_there_starts_none():
    phone = Phone()
    try:
        shared = phone.fs.host_path(EXTERNAL_STORAGE)
        assert phone.run("ls /sdcard/Android/data").exit_code == 0
        assert phone.packages.started() == [Launcher.package]
        before = file_tree(phone, shared)
        for package in phone.packages.names():
            phone.packages.get(package)
        assert file_tree(phone, shared) == before
    finally:
        phone.close()


def test_a_snapshot_holds_the_data_of_apps_not_started_yet(tmp_path):
    phone = Phone()
    try:
        save_phone(phone, tmp_path / "snapshot")
    finally:
        phone.close()
    assert (tmp_path / "snapshot" / "files" / "data" / "data" / TASKS / "databases" / "database").is_file()


def test_a_directory_s_action_runs_once_before_it_or_a_path_inside_or_above_it_is_first_resolved(tmp_path):
    fs = FileSystem(tmp_path, VirtualClock())
    runs = []
    fs.before_first_use("/data/data/a", lambda: runs.append("a"))
    fs.before_first_use("/data/data/b", lambda: runs.append("b"))
    fs.before_first_use("/data/data/c", lambda: runs.append("c"))
    fs.host_path("/data/data/ab")
    fs.host_path("/data/local")
    assert runs == []
    fs.host_path("databases/x.db", cwd="/data/data/a")
    fs.host_path("/data/data/a")
    assert runs == ["a"]
    fs.before_first_use("/data/data/c", None)
    fs.host_path("/data")
    assert runs == ["a", "b"]
    fs.before_first_use("/data/user_de/0/d/sub", lambda: runs.append("d/sub"))
    fs.before_first_use("/data/user_de/0/d", lambda: runs.append("d"))
    fs.before_first_use("/data/user_de/0/e", lambda: runs.append("e"))
    fs.host_path("/data/user_de/0/d")  # the directory itself, above another: both, in the order given
    assert runs == ["a", "b", "d/sub", "d"]
    fs.host_path("/")
    assert runs == ["a", "b", "d/sub", "d", "e"]


def test_the_clock_can_do_work_of_an_earlier_moment():
    clock = VirtualClock(1_000)
    clock.advance(500)
    with clock.at(1_000):
        assert clock.now_ms() == 1_000
    assert clock.now_ms() == 1_500 and clock.record_ms() == 1_500
    clock.finest_read = 60_000
    with clock.at(10):
        clock.now_ms()
    assert clock.finest_read == 60_000
