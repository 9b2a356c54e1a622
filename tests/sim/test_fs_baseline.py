"""``FileSystem.rewind``: every path written since the checkpoint comes back to the baseline (bytes, entries, times,
modes), told by the kernel's events alone; what was written before the checkpoint stays, but SQLite databases."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.fs import FileSystem


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock()


@pytest.fixture
def fs(tmp_path: Path, clock: VirtualClock) -> FileSystem:
    made = FileSystem(tmp_path / "fs", clock)
    made.makedirs("/sdcard/Download/old")
    made.write_bytes("/sdcard/Download/old/a.txt", b"a")
    made.write_bytes("/sdcard/Download/b.txt", b"b")
    yield made
    made.close()


def tree(fs: FileSystem) -> dict[str, tuple]:
    """Every path under the root with its mode, modification time and bytes."""
    found = {}
    for folder, dirnames, filenames in os.walk(fs.root):
        for name in dirnames + filenames:
            host = Path(folder, name)
            info = os.lstat(host)
            found[str(host.relative_to(fs.root))] = (info.st_mode, info.st_mtime_ns,
                                                     None if host.is_dir() else host.read_bytes())
    return found


def test_a_rewind_brings_back_every_path_written_since_the_checkpoint(fs, clock):
    fs.keep_baseline()
    fs.checkpoint()
    before = tree(fs)
    clock.advance(60_000)
    fs.write_bytes("/sdcard/Download/b.txt", b"changed")
    fs.write_bytes("/sdcard/Download/new.txt", b"new")
    fs.remove_tree("/sdcard/Alarms")
    # Made again in a burst no watch follows: its entries are told by no event, the baseline has one of them.
    os.rename(fs.host_path("/sdcard/Download/old"), fs.host_path("/sdcard/Download/older"))
    os.makedirs(fs.host_path("/sdcard/Download/old/deep/er"))
    Path(fs.host_path("/sdcard/Download/old/a.txt")).write_bytes(b"another a")
    Path(fs.host_path("/sdcard/Download/old/deep/er/x")).write_bytes(b"x")
    os.rename(fs.host_path("/sdcard/Music"), fs.host_path("/sdcard/Moved"))
    os.chmod(fs.host_path("/sdcard/DCIM"), 0o700)
    fs.stamp(fs.host_path("/sdcard/Pictures"))
    assert tree(fs) != before
    assert fs.rewind()
    assert tree(fs) == before
    assert not fs.rewind()  # nothing written since: nothing to bring back


def test_an_empty_directory_removed_comes_back_with_its_times_and_mode(fs, clock):
    """An app's cache directory after ``pm clear`` (installd's mode 2771) is made again as it was."""
    fs.makedirs("/data/data/org.example/cache")
    os.chmod(fs.host_path("/data/data/org.example/cache"), 0o2771)
    fs.keep_baseline()
    fs.checkpoint()
    before = tree(fs)
    clock.advance(60_000)
    fs.remove_tree("/data/data/org.example/cache")
    assert tree(fs) != before
    assert fs.rewind()
    assert tree(fs) == before


def test_what_the_set_up_wrote_stays_but_its_databases(fs):
    fs.keep_baseline()
    fs.write_bytes("/sdcard/Download/set_up.txt", b"the task's")
    host = fs.host_path("/sdcard/Download/rows.db")
    with sqlite3.connect(host) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT)")
        db.execute("INSERT INTO t DEFAULT VALUES")
    db.close()
    fs.checkpoint()
    assert fs.rewind()
    assert fs.read_bytes("/sdcard/Download/set_up.txt") == b"the task's"
    assert not fs.exists("/sdcard/Download/rows.db")


def test_nothing_comes_back_without_a_baseline(fs):
    fs.checkpoint()
    fs.write_bytes("/sdcard/Download/b.txt", b"changed")
    assert not fs.rewind()
    assert fs.read_bytes("/sdcard/Download/b.txt") == b"changed"


def test_a_file_comes_back_in_place_and_a_kept_connection_reads_it_back(fs):
    """A file is written back over itself (its inode kept), so a connection kept on a database (``KeptDatabases``)
    reads the baseline's rows, SQLite seeing the header's change counter move; one in WAL mode is a new file."""
    journal, wal = fs.host_path("/data/data/app/databases/j.db"), fs.host_path("/data/data/app/databases/w.db")
    journal.parent.mkdir(parents=True)
    for host, mode in ((journal, "delete"), (wal, "wal")):
        with sqlite3.connect(host) as db:
            db.execute(f"PRAGMA journal_mode={mode}")
            db.execute("CREATE TABLE t (x)")
            db.execute("INSERT INTO t VALUES (1)")
    fs.keep_baseline()
    fs.checkpoint()
    kept = sqlite3.connect(journal, isolation_level=None)
    open_wal = sqlite3.connect(wal, isolation_level=None)  # keeps -wal and -shm beside its file
    kept.execute("INSERT INTO t VALUES (2)")
    open_wal.execute("INSERT INTO t VALUES (2)")
    open_wal.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the row in the file itself, its -wal kept
    inodes = os.stat(journal).st_ino, os.stat(wal).st_ino
    assert fs.rewind()
    assert os.stat(journal).st_ino == inodes[0] and os.stat(wal).st_ino != inodes[1]
    assert kept.execute("SELECT x FROM t").fetchall() == [(1,)]
    kept.close()
    open_wal.close()


def test_a_tree_added_to_the_baseline_comes_back_as_added(fs):
    """The baseline's bytes and stats, kept once a rewind read them, are read again once a tree was added."""
    fs.keep_baseline()
    fs.checkpoint()
    fs.write_bytes("/sdcard/Download/b.txt", b"episode")
    assert fs.rewind()
    assert fs.read_bytes("/sdcard/Download/b.txt") == b"b"
    fs.write_bytes("/sdcard/Download/b.txt", b"added")
    fs.write_bytes("/sdcard/Download/c.txt", b"c")
    fs.add_to_baseline(["/sdcard/Download"])
    fs.checkpoint()
    fs.write_bytes("/sdcard/Download/b.txt", b"episode")
    fs.remove_tree("/sdcard/Download/c.txt")
    assert fs.rewind()
    assert (fs.read_bytes("/sdcard/Download/b.txt"), fs.read_bytes("/sdcard/Download/c.txt")) == (b"added", b"c")
