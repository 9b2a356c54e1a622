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
