"""The shell's ``sqlite3`` keeps its connection from one run to the next (``sim/shell/kept_databases.py``) only
where nobody can tell: each run sees the database as it is on disk, whoever wrote, replaced or removed it
meanwhile; no side file and no lock is left between runs; SQL about the connection itself gets a new one."""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.shell import kept_databases

DB = "/data/local/tmp/kept.db"


def run(phone: Phone, sql: str, db: str = DB) -> str:
    """What ``sqlite3 db sql`` prints; it must succeed."""
    result = phone.run(f"sqlite3 {db} \"{sql}\"")
    assert result.exit_code == 0, result.stderr
    return result.stdout.decode()


def open_handles(path: Path) -> int:
    """How many of this process's file descriptors are open on ``path`` (also once it is removed)."""
    fds = Path("/proc/self/fd")
    targets = []
    for fd in os.listdir(fds):
        try:
            targets.append(os.readlink(fds / fd).removesuffix(" (deleted)"))
        except FileNotFoundError:  # the descriptor listdir itself had open
            pass
    return targets.count(os.fspath(path))


def another_database(tmp_path: Path, create: str, insert: str, rows: int, schema_version: int | None = None) -> bytes:
    """The bytes of a new database made with ``create``, then ``insert`` of 0, 1, ... ``rows - 1`` in a transaction
    each (every one moves the change counter), its schema cookie set to ``schema_version`` if given."""
    path = tmp_path / "other.db"
    with closing(sqlite3.connect(path)) as other:
        with other:
            other.execute(create)
        for value in range(rows):
            with other:
                other.execute(insert, (value,))
        if schema_version is not None:
            other.execute(f"PRAGMA schema_version = {schema_version}")
    return path.read_bytes()


@pytest.fixture(name="db")
def database(phone: Phone) -> Path:
    """A rollback-journal database with one row, written by the shell: its connection is kept."""
    run(phone, "CREATE TABLE t(x); INSERT INTO t VALUES (1);")
    host = phone.fs.host_path(DB)
    assert open_handles(host) == 1
    return host


def test_a_run_uses_the_connection_kept_from_the_last(phone, db, opened):
    assert run(phone, "INSERT INTO t VALUES (2); SELECT x FROM t;") == "1\n2\n"
    assert run(phone, "DELETE FROM t; SELECT count(*) FROM t;") == "0\n"
    assert opened == []


@pytest.fixture(name="opened")
def count_opens(monkeypatch) -> list[tuple]:
    """The arguments of every ``sqlite3.connect`` from now on."""
    opened: list[tuple] = []
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *args, **kwargs: opened.append(args) or connect(*args, **kwargs))
    return opened


def test_rows_another_connection_wrote_are_read_on_the_kept_connection(phone, db, opened):
    """A provider writing the database moves its change counter: SQLite reads the file again, no new open."""
    with sqlite3.connect(db) as other:
        other.execute("UPDATE t SET x = 2")
    other.close()
    opened.clear()
    assert run(phone, "SELECT x FROM t;") == "2\n"
    assert opened == []


def test_between_runs_no_side_file_and_no_lock_is_left(phone, db):
    assert sorted(os.listdir(db.parent)) == ["kept.db"]
    with sqlite3.connect(db, timeout=0, isolation_level=None) as other:
        other.execute("BEGIN EXCLUSIVE")  # no lock of the kept connection stands in the way
        other.execute("INSERT INTO t VALUES (5)")
        other.execute("COMMIT")
    other.close()
    assert run(phone, "SELECT x FROM t;") == "1\n5\n"


def test_a_schema_changed_by_another_connection_is_seen(phone, db):
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE u(y)")
        other.execute("INSERT INTO u VALUES ('new')")
    other.close()
    assert run(phone, ".tables") == "t  u\n"
    assert run(phone, "SELECT y FROM u;") == "new\n"


def test_a_file_rewritten_in_place_with_the_same_change_counter_is_seen(phone, db, tmp_path):
    """Bytes pushed over the file that SQLite's own check (the change counter) cannot tell from the old ones."""
    twin = tmp_path / "twin.db"
    with sqlite3.connect(twin) as other:
        other.execute("CREATE TABLE t(x)")
    with other:
        other.execute("INSERT INTO t VALUES (9)")
    other.close()
    assert twin.read_bytes()[24:28] == db.read_bytes()[24:28]
    phone.fs.write_bytes(DB, twin.read_bytes())
    assert run(phone, "SELECT x FROM t;") == "9\n"


def test_its_own_bytes_written_back_over_the_file_keep_the_connection(phone, db, opened):
    """Another connection's row, then the bytes the kept connection left written back over the file (a rewind's):
    the counter it had and the bytes it had, so its cache is right and no new connection is opened."""
    kept = db.read_bytes()
    with sqlite3.connect(db) as other:
        other.execute("INSERT INTO t VALUES (2)")
    other.close()
    opened.clear()
    phone.fs.write_bytes(DB, kept)
    assert run(phone, "SELECT x FROM t;") == "1\n"
    assert opened == []


def test_a_big_database_written_back_gets_a_new_connection(phone, db, opened, monkeypatch):
    """Past ``CONTENT_BYTES`` no copy of the bytes is kept: the same bytes written back cannot be told from others
    with the same counter, and the run opens a new connection."""
    monkeypatch.setattr(kept_databases, "CONTENT_BYTES", 0)
    run(phone, "INSERT INTO t VALUES (2);")  # kept again, now without its bytes
    kept = db.read_bytes()
    phone.fs.write_bytes(DB, kept)
    assert run(phone, "SELECT x FROM t;") == "1\n2\n"
    assert len(opened) == 1


def test_another_schema_written_in_place_with_the_same_schema_cookie_is_seen(phone, db, tmp_path):
    """Another database's bytes over the file (the same inode): its counter moved but its schema cookie did not,
    which SQLite alone would take for the schema it knows."""
    data = another_database(tmp_path, "CREATE TABLE t(x, y)", "INSERT INTO t VALUES (?, 8)", 3)
    assert data[40:44] == db.read_bytes()[40:44] and data[24:28] != db.read_bytes()[24:28]
    phone.fs.write_bytes(DB, data)
    assert run(phone, "SELECT * FROM t WHERE x = 2;") == "2|8\n"


def test_a_schema_the_kept_connection_changed_itself_is_kept_with_it(phone, db, tmp_path, opened):
    """The kept connection's own ``CREATE TABLE`` moves the schema cookie: it is kept with its new schema (not the
    one it was taken with), so another database's bytes over the file with that cookie but other tables are seen."""
    run(phone, "CREATE TABLE u(y);")
    assert opened == []
    cookie = int.from_bytes(db.read_bytes()[40:44], "big")
    data = another_database(tmp_path, "CREATE TABLE t(x)", "INSERT INTO t VALUES (?)", 4, schema_version=cookie)
    assert data[40:44] == db.read_bytes()[40:44] and data[24:28] != db.read_bytes()[24:28]
    phone.fs.write_bytes(DB, data)
    result = phone.run(f"sqlite3 {DB} 'SELECT y FROM u;'")  # the connection's parsed schema still has u
    assert result.exit_code == 1 and result.stderr == b"Error: no such table: u\n"
    assert run(phone, "SELECT count(*) FROM t;") == "4\n"


def test_a_file_replaced_or_removed_is_seen(phone, db, tmp_path):
    shutil.copy(db, tmp_path / "copy.db")
    run(phone, "INSERT INTO t VALUES (2);")
    assert phone.run(f"cp {DB} {DB}.new").exit_code == 0
    with sqlite3.connect(phone.fs.host_path(f"{DB}.new")) as other:  # a new file, its change counter moved
        other.execute("INSERT INTO t VALUES (3)")
    other.close()
    assert phone.run(f"mv {DB}.new {DB}").exit_code == 0
    assert run(phone, "SELECT x FROM t;") == "1\n2\n3\n"
    phone.fs.write_bytes("/data/local/tmp/copy.db", (tmp_path / "copy.db").read_bytes())
    assert phone.run(f"mv /data/local/tmp/copy.db {DB}").exit_code == 0
    assert run(phone, "SELECT x FROM t;") == "1\n"
    assert phone.run(f"rm {DB}").exit_code == 0
    assert run(phone, "SELECT count(*) FROM sqlite_master;") == "0\n"


def test_sql_about_the_connection_itself_gets_a_new_one(phone, db):
    run(phone, "INSERT INTO t VALUES (2), (3);")
    assert run(phone, "SELECT changes(), total_changes(), last_insert_rowid();") == "0|0|0\n"
    run(phone, "CREATE TEMP TABLE scratch(z); PRAGMA foreign_keys = ON;")
    assert phone.run(f"sqlite3 {DB} 'SELECT * FROM scratch'").stderr == b"Error: no such table: scratch\n"
    assert run(phone, "SELECT x FROM t;") == "1\n2\n3\n"


def test_an_unfinished_transaction_is_rolled_back_as_the_real_shell_exits(phone, db):
    run(phone, "BEGIN; INSERT INTO t VALUES (2);")
    assert open_handles(db) == 0
    assert sorted(os.listdir(db.parent)) == ["kept.db"]
    assert run(phone, "SELECT x FROM t;") == "1\n"


def test_a_wal_database_keeps_no_connection_and_no_side_files(phone):
    run(phone, "PRAGMA journal_mode=WAL; CREATE TABLE t(x);")
    run(phone, "INSERT INTO t VALUES (1);")
    host = phone.fs.host_path(DB)
    assert open_handles(host) == 0
    assert sorted(os.listdir(host.parent)) == ["kept.db"]


def test_a_few_connections_are_kept_and_the_phone_closes_them(phone):
    paths = [f"/data/local/tmp/{number}.db" for number in range(kept_databases.LIMIT + 2)]
    for path in paths:
        run(phone, "CREATE TABLE t(x);", db=path)
    hosts = [phone.fs.host_path(path) for path in paths]
    assert [open_handles(host) for host in hosts] == [0, 0] + [1] * kept_databases.LIMIT
    phone.close()
    assert sum(open_handles(host) for host in hosts) == 0


def test_a_database_turned_into_a_directory_cannot_be_opened(phone, db):
    assert phone.run(f"rm {DB} && mkdir {DB}").exit_code == 0
    result = phone.run(f"sqlite3 {DB} 'SELECT 1'")
    assert (result.exit_code, result.stderr) == (1, f'Error: unable to open database "{DB}": unable to open database '
                                                    'file\n'.encode())
