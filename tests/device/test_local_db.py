"""The open local copies behind ``state.sqlite_query``/``sqlite_execute``: they follow every change on the device,
however it was made, and push back what a fresh copy would."""

from __future__ import annotations

import hashlib
import shlex
import sqlite3
from pathlib import Path

import pytest

from android_gym.device import local_db, state
from android_gym.device.base import ShellResult
from android_gym.device.local_db import LocalDatabase
from android_gym.errors import RemoteFileNotFoundError

DB = "/data/data/org.example/databases/notes.db"


class FileDevice:
    """Just the file half of the Device protocol, over a dict (and ``rm -f``), counting pushes."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.pushes = 0

    def pull(self, path: str) -> bytes:
        if path not in self.files:
            raise RemoteFileNotFoundError(path)
        return self.files[path]

    def push(self, data: bytes, path: str) -> None:
        self.files[path] = data
        self.pushes += 1

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        words = shlex.split(cmd)
        assert words[:2] == ["rm", "-f"], cmd
        for path in words[2:]:
            self.files.pop(path, None)
        return ShellResult("", 0)


class DigestDevice(FileDevice):
    """A ``FileDevice`` that also tells file digests without sending the files, as ``AdbDevice.md5sums`` does;
    counts the pulls."""

    def __init__(self) -> None:
        super().__init__()
        self.pulls = 0

    def pull(self, path: str) -> bytes:
        self.pulls += 1
        return super().pull(path)

    def md5sums(self, paths: list[str]) -> dict[str, str]:
        return {path: hashlib.md5(self.files[path]).hexdigest() for path in paths if path in self.files}


def database(tmp_path: Path, name: str, wal: bool, rows: int = 2, frames_in_wal: bool = False) -> dict[str, bytes]:
    """Files of a notes database made on the host: the database and, with ``frames_in_wal``, its ``-wal``."""
    path = tmp_path / name
    connection = sqlite3.connect(path)
    if wal:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT)")
    connection.executemany("INSERT INTO notes(title) VALUES (?)", [(f"note {i}",) for i in range(rows)])
    connection.commit()
    files = {}
    if frames_in_wal:
        connection.execute("INSERT INTO notes(title) VALUES ('in the wal')")
        connection.commit()
        files["-wal"] = Path(f"{path}-wal").read_bytes()
    else:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)" if wal else "SELECT 1")
    files[""] = path.read_bytes()
    connection.close()
    return files


def put(device: FileDevice, files: dict[str, bytes]) -> None:
    for suffix, data in files.items():
        device.files[DB + suffix] = data


def titles(device: FileDevice) -> list[str]:
    return [row["title"] for row in state.sqlite_query(device, DB, "SELECT title FROM notes ORDER BY id")]


@pytest.mark.parametrize("device_class", [FileDevice, DigestDevice])
@pytest.mark.parametrize("wal", [False, True])
def test_follows_changes_made_behind_its_back(tmp_path, wal, device_class):
    device = device_class()
    put(device, database(tmp_path, "a.db", wal, rows=2))
    assert titles(device) == ["note 0", "note 1"]
    # Another database with the same change counter, schema and size: only the pages differ.
    other = database(tmp_path, "b.db", wal, rows=2)
    other[""] = other[""].replace(b"note 1", b"note X")
    put(device, other)
    assert titles(device) == ["note 0", "note X"]
    put(device, database(tmp_path, "c.db", wal, rows=300))
    assert len(titles(device)) == 300


def test_a_query_asked_again_of_unchanged_bytes_gives_fresh_rows_and_sees_writes(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False))
    first = state.sqlite_query(device, DB, "SELECT title FROM notes WHERE id > ?", (0,))
    first[0]["title"] = "changed by the caller"
    assert state.sqlite_query(device, DB, "SELECT title FROM notes WHERE id > ?", (0,)) == [
        {"title": "note 0"}, {"title": "note 1"}]
    assert state.sqlite_query(device, DB, "SELECT title FROM notes WHERE id > ?", (1,)) == [{"title": "note 1"}]
    state.sqlite_execute(device, DB, "UPDATE notes SET title = 'new' WHERE id = 1")
    assert state.sqlite_query(device, DB, "SELECT title FROM notes WHERE id > ?", (0,)) == [
        {"title": "new"}, {"title": "note 1"}]


@pytest.mark.parametrize("wal", [False, True])
def test_writes_push_the_device_format_and_a_counter_that_depends_only_on_the_input(tmp_path, wal):
    files = database(tmp_path, "a.db", wal)
    pushed = []
    for warm in (False, True):
        device = FileDevice()
        put(device, files)
        if warm:  # a copy that has seen other changes before
            state.sqlite_execute(device, DB, "INSERT INTO notes(title) VALUES ('x')")
            put(device, files)
        assert state.sqlite_execute(device, DB, "UPDATE notes SET title = ? WHERE id = ?", ("it's", 1)) == 1
        pushed.append(device.files[DB])
    assert pushed[0] == pushed[1]
    header = pushed[0][:100]
    assert header[18:20] == files[""][18:20]  # WAL stays WAL
    counter = int.from_bytes(files[""][24:28], "big") + 1
    assert int.from_bytes(header[24:28], "big") == int.from_bytes(header[92:96], "big") == counter
    with sqlite3.connect(":memory:") as check:  # a valid database as pushed
        check.deserialize(pushed[0][:18] + b"\x01\x01" + pushed[0][20:])
        assert check.execute("SELECT title FROM notes ORDER BY id").fetchall() == [("it's",), ("note 1",)]


def test_a_device_that_tells_digests_is_pulled_from_only_when_its_files_changed(tmp_path):
    device = DigestDevice()
    put(device, database(tmp_path, "a.db", wal=True))
    assert titles(device) == ["note 0", "note 1"] and device.pulls == 1  # no -wal to pull: the digests said so
    assert titles(device) == ["note 0", "note 1"] and device.pulls == 1
    device.files[DB + "-wal"] = b""  # an empty WAL holds no frames
    assert titles(device) == ["note 0", "note 1"] and device.pulls == 1
    put(device, database(tmp_path, "b.db", wal=True, frames_in_wal=True))
    assert titles(device) == ["note 0", "note 1", "in the wal"] and device.pulls == 3
    assert titles(device) == ["note 0", "note 1", "in the wal"] and device.pulls == 5  # frames: always pulled
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 1")  # checkpointed, pushed without a -wal
    assert titles(device) == ["note 1", "in the wal"]
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 2")
    pulls = device.pulls
    assert titles(device) == ["in the wal"] and device.pulls == pulls  # what it pushed is what the device holds


class VersionDevice(DigestDevice):
    """A ``FileDevice`` that keeps write versions of its files, as ``SimDevice.file_versions`` does (here: the
    number of the last write, removal or ``put`` of each path); counts the pulls."""

    def __init__(self) -> None:
        super().__init__()
        self.versions: dict[str, int] = {}
        self.writes = 0

    def written(self, path: str) -> None:
        self.writes += 1
        self.versions[path] = self.writes

    def push(self, data: bytes, path: str) -> None:
        super().push(data, path)
        self.written(path)

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        result = super().shell(cmd, timeout)
        for path in shlex.split(cmd)[2:]:
            self.written(path)
        return result

    def file_versions(self, paths: list[str]) -> tuple[int, ...]:
        return tuple(self.versions.get(path, 0) for path in paths)

    md5sums = None  # versions, not digests


def test_a_write_asks_for_no_side_file_known_to_be_missing_and_removes_one_that_appeared(tmp_path):
    device = VersionDevice()
    put(device, database(tmp_path, "a.db", wal=True))
    device.written(DB)
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 1")
    assert device.pulls == 3  # the database, its -wal and -shm: none seen yet
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 2")
    assert device.pulls == 3  # all as pushed: no side file since
    device.files[DB + "-shm"] = b"\0" * 32  # the app opened the database
    device.written(DB + "-shm")
    state.sqlite_execute(device, DB, "INSERT INTO notes(title) VALUES ('new')")
    assert device.pulls == 6 and DB + "-shm" not in device.files  # all three pulled again, the -shm removed
    assert titles(device) == ["new"]


def test_a_write_after_the_database_alone_was_written_back_asks_for_no_side_file(tmp_path):
    """A rewind writes the database's bytes back and leaves its side files missing: a write pulls the database only."""
    device = VersionDevice()
    first = database(tmp_path, "a.db", wal=False)
    put(device, first)
    device.written(DB)
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 1")
    assert device.pulls == 3  # the database, its -wal and -shm: none seen yet
    put(device, first)  # the bytes before the write, written back behind the copy's back
    device.written(DB)
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 2")
    assert device.pulls == 4  # the database alone: its side files' versions say they are missing still
    assert titles(device) == ["note 0"]


def test_a_write_that_changes_nothing_pushes_nothing(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=True))
    assert state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id > 99") == 0
    assert device.pushes == 0
    assert state.sqlite_execute_many(device, DB, [("DELETE FROM notes", ()), ("INSERT INTO notes(title) VALUES "
                                                                             "(?)", ("new",))]) == 3
    assert device.pushes == 1 and titles(device) == ["new"]


def test_a_delete_of_an_empty_table_pushes_nothing_but_a_schema_change_is_pushed(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False, rows=0))
    before = device.files[DB]
    assert state.sqlite_execute(device, DB, "DELETE FROM notes") == 0  # SQLite would move the change counter only
    assert device.pushes == 0 and device.files[DB] == before
    state.sqlite_execute(device, DB, "CREATE TABLE tags(name TEXT)")  # no row changed, yet the file did
    assert device.pushes == 1
    assert state.sqlite_query(device, DB, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") == [
        {"name": "notes"}, {"name": "tags"}]


def test_runs_of_the_same_statement_count_every_row(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=True))
    insert = "INSERT INTO notes(title) VALUES (?)"
    statements = [(insert, ("a",)), (insert, ("b",)), ("UPDATE notes SET title = ? WHERE title = ?", ("c", "a")),
                  (insert, ("d",))]
    assert state.sqlite_execute_many(device, DB, statements) == 4
    assert titles(device) == ["note 0", "note 1", "c", "b", "d"]


def test_a_failed_statement_rolls_back_and_pushes_nothing(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False))
    with pytest.raises(sqlite3.OperationalError):
        state.sqlite_execute_many(device, DB, [("DELETE FROM notes", ()), ("DELETE FROM nope", ())])
    assert device.pushes == 0 and titles(device) == ["note 0", "note 1"]


@pytest.mark.parametrize("wal", [False, True])
def test_transactions_pushed_at_once_leave_the_bytes_a_push_of_each_leaves(tmp_path, wal):
    one_by_one, at_once = FileDevice(), FileDevice()
    files = database(tmp_path, "a.db", wal=wal)
    put(one_by_one, files)
    put(at_once, files)
    insert = "INSERT INTO notes(title) VALUES (?)"
    transactions = [[("DELETE FROM notes", ())], [("DELETE FROM notes", ())], [(insert, ("a",)), (insert, ("b",))]]
    counts = [state.sqlite_execute_many(one_by_one, DB, statements) for statements in transactions]
    assert state.sqlite_execute_transactions(at_once, DB, transactions) == counts == [2, 0, 2]
    assert (one_by_one.pushes, at_once.pushes) == (2, 1)
    assert at_once.files == one_by_one.files
    assert local_db._counter(at_once.files[DB]) == local_db._counter(files[""]) + 2  # the empty DELETE moved nothing


def test_a_failed_later_transaction_pushes_nothing_and_the_copy_still_follows_the_device(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False))
    with pytest.raises(sqlite3.OperationalError):
        state.sqlite_execute_transactions(device, DB, [[("DELETE FROM notes", ())], [("DELETE FROM nope", ())]])
    assert device.pushes == 0 and titles(device) == ["note 0", "note 1"]
    state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 1")
    assert titles(device) == ["note 1"]


def test_frames_in_the_wal_are_read_and_checkpointed_on_write(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=True, frames_in_wal=True))
    device.files[DB + "-shm"] = b"\0" * 32768
    assert titles(device) == ["note 0", "note 1", "in the wal"]
    assert state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = 1") == 1
    assert sorted(device.files) == [DB]  # stale side files removed
    assert titles(device) == ["note 1", "in the wal"]


def test_a_query_cannot_change_the_copy(tmp_path):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False))
    with pytest.raises(sqlite3.OperationalError):
        state.sqlite_query(device, DB, "DELETE FROM notes")
    assert titles(device) == ["note 0", "note 1"]
    assert state.sqlite_execute(device, DB, "DELETE FROM notes WHERE id = ?", (1,)) == 1  # writes still write
    assert titles(device) == ["note 1"]


def test_a_forked_child_makes_its_own_copy(tmp_path, monkeypatch):
    device = FileDevice()
    put(device, database(tmp_path, "a.db", wal=False))
    parent = local_db.local_database(device, DB)
    assert local_db.local_database(device, DB) is parent
    monkeypatch.setattr(local_db.os, "getpid", lambda: parent.pid + 1)
    child = local_db.local_database(device, DB)
    assert child is not parent and titles(device) == ["note 0", "note 1"]


def test_a_missing_database_raises():
    with pytest.raises(RemoteFileNotFoundError):
        LocalDatabase(DB).query(FileDevice(), "SELECT 1", ())


@pytest.mark.parametrize("sql", ["SELECT id, title FROM notes ORDER BY id",
                                 "SELECT id, title, title AS Title, id AS ID, 'x' AS id FROM notes ORDER BY id",
                                 "SELECT * FROM notes WHERE id < 0"])
def test_query_rows_are_what_dict_of_a_sqlite_row_gives(tmp_path, sql):
    """Rows come as ``dict(sqlite3.Row)`` makes them, also when column names repeat (the first such column wins,
    names compared without case) and when there are none."""
    device = FileDevice()
    device.files[DB] = database(tmp_path, "notes.db", wal=False)[""]
    expected_db = sqlite3.connect(tmp_path / "notes.db")
    expected_db.row_factory = sqlite3.Row
    expected = [dict(row) for row in expected_db.execute(sql)]
    rows = state.sqlite_query(device, DB, sql)
    assert rows == expected and [list(row) for row in rows] == [list(row) for row in expected]
