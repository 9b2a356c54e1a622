"""The phone's file system: what the device writes carries device time, directories included."""

from __future__ import annotations

import os

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.clock import DEFAULT_DEVICE_TIME_MS

LATER_MS = 1_800_000_000_000  # a device time far from both the default clock and the host's


@pytest.fixture
def phone():
    device = Phone()
    device.clock.set(LATER_MS)
    yield device
    device.close()


def mtime_ms(phone: Phone, path: str) -> int:
    return os.stat(phone.fs.host_path(path), follow_symlinks=False).st_mtime_ns // 1_000_000


def test_new_directories_files_and_their_parents_get_device_time(phone):
    fs = phone.fs
    fs.makedirs("/sdcard/Download/a/b")
    for path in ("/sdcard/Download", "/sdcard/Download/a", "/sdcard/Download/a/b"):
        assert mtime_ms(phone, path) == LATER_MS, path
    phone.clock.advance(1000)
    fs.write_bytes("/sdcard/Download/a/b/new.txt", b"x")
    assert mtime_ms(phone, "/sdcard/Download/a/b/new.txt") == LATER_MS + 1000
    assert mtime_ms(phone, "/sdcard/Download/a/b") == LATER_MS + 1000
    assert mtime_ms(phone, "/sdcard/Download/a") == LATER_MS  # only the directory that gained an entry
    phone.clock.advance(1000)
    fs.write_bytes("/sdcard/Download/a/b/new.txt", b"y", append=True)  # no new entry: the directory keeps its time
    assert mtime_ms(phone, "/sdcard/Download/a/b") == LATER_MS + 1000
    phone.clock.advance(1000)
    fs.remove_tree("/sdcard/Download/a/b")
    assert mtime_ms(phone, "/sdcard/Download/a") == LATER_MS + 3000
    phone.clock.advance(1000)
    fs.write_bytes("/sdcard/Download/a/c.txt", b"")
    phone.clock.advance(1000)
    fs.clear_dir("/sdcard/Download/a")
    assert fs.listdir("/sdcard/Download/a") == [] and mtime_ms(phone, "/sdcard/Download/a") == LATER_MS + 5000


def test_a_file_written_again_holds_the_new_bytes_alone_with_a_new_version(phone):
    fs, path = phone.fs, "/sdcard/Download/over.bin"
    fs.write_parts(path, (b"a" * 10_000, b"b" * 10_000))
    inode, version = os.stat(fs.host_path(path)).st_ino, fs.versions(path)
    phone.clock.advance(1000)
    assert not fs.write_parts(path, (b"short", memoryview(b" one")))  # not new: written over, cut to its length
    assert fs.read_bytes(path) == b"short one"
    assert os.stat(fs.host_path(path)).st_ino == inode and fs.versions(path) != version
    assert mtime_ms(phone, path) == LATER_MS + 1000
    fs.write_bytes(path, b"!", append=True)
    assert fs.read_bytes(path) == b"short one!"


@pytest.mark.parametrize("command", ["rm /sdcard/Download/d/f.txt", "rm -r /sdcard/Download/d/sub",
                                     "rmdir /sdcard/Download/d/sub", "find /sdcard/Download/d -mindepth 1 -delete"])
def test_removals_leave_device_time_on_the_directory(phone, command):
    phone.run("mkdir -p /sdcard/Download/d/sub && echo x > /sdcard/Download/d/f.txt")
    phone.clock.advance(1000)
    assert phone.run(command).exit_code == 0
    assert mtime_ms(phone, "/sdcard/Download/d") == LATER_MS + 1000


def test_telephony_writes_carry_device_time(phone):
    db = phone.telephony.db_path
    directory = os.path.dirname(db)
    for suffix in ("", "-journal"):
        phone.fs.remove_tree(db + suffix)
    phone.clock.advance(1000)
    phone.telephony.deliver_sms("5550001", "hi")  # the provider recreates the database
    for path in (db, db + "-journal", directory):
        assert mtime_ms(phone, path) == LATER_MS + 1000, path
    phone.clock.advance(1000)
    phone.telephony.query("content://sms")  # a read changes nothing
    phone.telephony.mark_thread_read(1)
    assert mtime_ms(phone, db) == LATER_MS + 2000
    assert mtime_ms(phone, directory) == LATER_MS + 1000  # the journal is kept (TRUNCATE): no new entry


def device_times_ms(phone: Phone) -> dict[str, int]:
    """Every file's and directory's modification time on the host, in ms, by Android path."""
    root = phone.fs.root
    times = {}
    for directory, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames]:
            host = os.path.join(directory, name)
            times["/" + os.path.relpath(host, root).strip(".")] = os.lstat(host).st_mtime_ns // 1_000_000
    return times


def test_listings_show_the_phone_not_the_host(phone):
    """``..`` of ``/`` is ``/`` itself (mode, links, device time), ``/`` is ``drwxr-xr-x`` whatever the host's
    temporary directory is, and inode numbers are the phone's own: the same on every run and every host."""
    listing = phone.run("ls -la /").stdout.decode().splitlines()
    dot, dotdot = (line for line in listing if line.endswith((" .", " ..")))
    assert dotdot == dot + "."
    assert dot.startswith("drwxr-xr-x ") and dot.endswith(" root root 4096 2023-10-15 15:34 .")
    assert phone.run("stat -c '%i %a %A %h' / /..").stdout.decode().splitlines() == [
        f"2 755 drwxr-xr-x {os.stat(phone.fs.root).st_nlink}"] * 2
    assert phone.run("ls -lad /data/..").stdout == phone.run("ls -lad /").stdout.replace(b" /\n", b" /data/..\n")
    host_inode = os.stat(phone.fs.host_path("/sdcard/Download")).st_ino
    inode = phone.run("stat -c %i /sdcard/Download").stdout
    other = Phone()
    try:
        assert other.run("stat -c %i /sdcard/Download").stdout == inode != f"{host_inode}\n".encode()
    finally:
        other.close()
    assert phone.run("find /sdcard/Download -maxdepth 0 -inum 1 -o -print").stdout == b"/sdcard/Download\n"


def test_sqlite_reads_and_writes_leave_device_time_on_every_file(phone):
    """WAL databases gain and lose ``-wal``/``-shm`` files on every connection, so their directory changes even
    on a read: the apps' queries and the ``sqlite3`` command leave device time on it, never the host clock."""
    start = phone.clock.now_ms()
    phone.run("mkdir /data/local/tmp/db && sqlite3 /data/local/tmp/db/x.db 'PRAGMA journal_mode=WAL; "
              "CREATE TABLE t(a); INSERT INTO t VALUES (1)'")
    phone.run("sqlite3 /data/local/tmp/db/x.db 'SELECT * FROM t'")
    for package in ("com.simplemobiletools.calendar.pro", "org.tasks", "com.flauschcode.broccoli",
                    "com.dimowner.audiorecorder", "com.arduia.expense"):
        assert phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1").exit_code == 0, package
        phone.screenshot()
    end = phone.clock.now_ms()
    assert {path: ms for path, ms in device_times_ms(phone).items()
            if not (ms <= DEFAULT_DEVICE_TIME_MS or start <= ms <= end)} == {}
