"""The Device protocol's state helpers, on the simulated phone."""

from __future__ import annotations

import sqlite3

import pytest

from android_gym.device import state
from android_gym.errors import RemoteFileNotFoundError

DB = "/data/data/com.example.notes/databases/notes.db"


def _make_wal_db(device) -> None:
    """A WAL database on the device whose newest row lives only in the -wal file."""
    host = device.phone.fs.host_path(DB)
    host.parent.mkdir(parents=True)
    connection = sqlite3.connect(host)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    connection.execute("INSERT INTO notes(title) VALUES ('first')")
    connection.commit()
    connection.execute("INSERT INTO notes(title) VALUES ('only in the wal')")
    connection.commit()
    return connection  # keep it open so the WAL is not checkpointed


def test_sqlite_query_reads_db_with_wal(device):
    connection = _make_wal_db(device)
    assert device.pull(DB + "-wal")
    rows = state.sqlite_query(device, DB, "SELECT title FROM notes WHERE id >= ? ORDER BY id", (1,))
    assert rows == [{"title": "first"}, {"title": "only in the wal"}]
    connection.close()


def test_sqlite_query_binds_parameters(device):
    _make_wal_db(device).close()
    hostile = "x' OR '1'='1"
    assert state.sqlite_query(device, DB, "SELECT * FROM notes WHERE title = ?", (hostile,)) == []


def test_sqlite_execute_pushes_changes_back(device):
    _make_wal_db(device).close()
    assert state.sqlite_execute(device, DB, "UPDATE notes SET title = ? WHERE id = ?", ("renamed", 1)) == 1
    assert device.shell(f"sqlite3 {DB} 'SELECT title FROM notes ORDER BY id'").output.splitlines()[0] == "renamed"


def test_files(device):
    state.write_file(device, "/sdcard/Documents/a/b.txt", "héllo")
    assert state.read_file(device, "/storage/emulated/0/Documents/a/b.txt") == "héllo".encode()
    assert state.list_dir(device, "/sdcard/Documents/a") == ["b.txt"]
    with pytest.raises(RemoteFileNotFoundError):
        state.read_file(device, "/sdcard/missing.txt")
    with pytest.raises(RemoteFileNotFoundError):
        state.list_dir(device, "/sdcard/missing")


def test_settings(device):
    assert state.settings_get(device, "global", "wifi_on") == "1"
    assert state.settings_get(device, "system", "no_such_key") is None
    state.settings_put(device, "system", "screen_brightness", "255")
    assert state.settings_get(device, "system", "screen_brightness") == "255"
    state.settings_put(device, "secure", "odd key", "va'l ue")
    assert state.settings_get(device, "secure", "odd key") == "va'l ue"


def test_foreground_package(device):
    assert state.foreground_package(device) == "com.google.android.apps.nexuslauncher"
    assert device.shell("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1").ok
    assert state.foreground_package(device) == "com.simplemobiletools.smsmessenger"
