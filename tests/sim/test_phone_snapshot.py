"""Whole-phone snapshots: everything a phone keeps comes back on load, nothing done since survives."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing

import pytest

from android_gym.errors import SnapshotError
from android_gym.sim.snapshot import SnapshotStore, load_phone, save_phone

LAUNCHER = "com.google.android.apps.nexuslauncher"


def test_files_and_their_device_times_come_back(phone, tmp_path):
    phone.run("echo kept > /sdcard/Download/kept.txt")
    kept_mtime = phone.fs.host_path("/sdcard/Download/kept.txt").stat().st_mtime_ns
    save_phone(phone, tmp_path / "snap")
    phone.clock.advance(60_000)
    phone.run("echo changed > /sdcard/Download/kept.txt; echo new > /sdcard/new.txt; rm -r /sdcard/Music")
    load_phone(phone, tmp_path / "snap")
    assert phone.fs.read_bytes("/sdcard/Download/kept.txt") == b"kept\n"
    assert phone.fs.host_path("/sdcard/Download/kept.txt").stat().st_mtime_ns == kept_mtime
    assert not phone.fs.exists("/sdcard/new.txt") and phone.fs.is_dir("/sdcard/Music")


def test_a_snapshot_with_a_symbolic_link_is_refused_and_the_phone_kept(phone, tmp_path):
    """A link in a snapshot's files would lead the phone's paths to the host (``cat`` would follow it)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    phone.run("echo kept > /sdcard/kept.txt")
    save_phone(phone, tmp_path / "snap")
    os.symlink(secret, tmp_path / "snap" / "files" / "storage" / "emulated" / "0" / "link.txt")
    with pytest.raises(SnapshotError, match=r"symbolic link, files/storage/emulated/0/link.txt"):
        load_phone(phone, tmp_path / "snap")
    assert phone.run("cat /sdcard/kept.txt /sdcard/link.txt").stdout == b"kept\n"


def test_state_outside_files_comes_back(phone, tmp_path):
    phone.settings.put("system", "time_12_24", "24")
    phone.clipboard.set_text("copied", "label")
    now = phone.clock.now_ms()
    save_phone(phone, tmp_path / "snap")
    phone.settings.put("global", "wifi_on", "0")
    phone.settings.delete("system", "time_12_24")
    phone.settings.put("secure", "added_later", "1")
    phone.run("setprop persist.sys.timezone Europe/Paris")
    phone.clipboard.set_text("other")
    phone.clock.advance(3_600_000)
    load_phone(phone, tmp_path / "snap")
    assert phone.settings.get("global", "wifi_on") == "1" and phone.settings.get("system", "time_12_24") == "24"
    assert phone.settings.get("secure", "added_later") is None
    assert phone.props["persist.sys.timezone"] == "UTC"
    assert (phone.clipboard.primary.text, phone.clipboard.primary.label) == ("copied", "label")
    assert phone.clock.now_ms() == now


def test_databases_come_back_with_their_write_ahead_log(phone, tmp_path):
    host = phone.fs.host_path("/data/local/tmp/wal.db")
    writer = sqlite3.connect(host)  # a connection left open keeps its commits in the -wal file
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    with writer:
        writer.execute("CREATE TABLE t (x TEXT)")
        writer.execute("INSERT INTO t VALUES ('saved')")
    assert os.path.getsize(f"{host}-wal") > 0
    save_phone(phone, tmp_path / "snap")
    with writer:
        writer.execute("DELETE FROM t")
    writer.close()
    phone.run("content insert --uri content://sms/inbox --bind address:s:555 --bind body:s:later")
    load_phone(phone, tmp_path / "snap")
    with closing(sqlite3.connect(host)) as db:
        assert db.execute("SELECT x FROM t").fetchall() == [("saved",)]
    assert "later" not in phone.run("content query --uri content://sms").stdout.decode()


def test_load_stops_every_app_and_goes_home(phone, tmp_path):
    save_phone(phone, tmp_path / "snap")
    phone.run("am start -n com.google.android.deskclock/com.android.deskclock.DeskClock")
    clock = phone.packages.get("com.google.android.deskclock")
    clock.model.select_tab(3)  # held in the running app's memory and in its preferences file
    phone.window.shade.expand()
    assert phone.activities.foreground()[0] == "com.google.android.deskclock"
    load_phone(phone, tmp_path / "snap")
    assert phone.activities.foreground()[0] == LAUNCHER and not phone.window.shade.expanded
    assert clock.model.selected_tab() == 1  # the restarted app reads the restored (absent) preferences


def test_store_keeps_named_snapshots(phone, tmp_path):
    store = SnapshotStore(tmp_path / "snapshots")
    store.save(phone, "b")
    phone.run("echo 1 > /sdcard/one")
    store.save(phone, "a")
    assert store.names() == ["a", "b"] and store.size("a") > store.size("b") > 0
    phone.run("echo 2 > /sdcard/one")
    store.save(phone, "a")  # replaces
    store.load(phone, "b")
    assert not phone.fs.exists("/sdcard/one") and store.loaded == "b"
    store.load(phone, "a")
    assert phone.fs.read_bytes("/sdcard/one") == b"2\n"
    store.delete("a")
    assert store.names() == ["b"] and store.loaded is None


@pytest.mark.parametrize("name", ["", ".hidden", "a/b", "..", "x\\y"])
def test_store_refuses_names_that_are_not_file_names(phone, tmp_path, name):
    with pytest.raises(SnapshotError, match="invalid snapshot name"):
        SnapshotStore(tmp_path).save(phone, name)


def test_store_names_what_exists_when_a_snapshot_is_missing(phone, tmp_path):
    store = SnapshotStore(tmp_path)
    store.save(phone, "clean")
    with pytest.raises(SnapshotError, match=r"no snapshot named 'gone' \(saved: clean\)"):
        store.load(phone, "gone")
