"""The phone's file system: what the device writes carries device time, directories included."""

from __future__ import annotations

import os

import pytest

from android_gym.sim.phone import Phone

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
