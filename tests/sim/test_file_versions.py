"""Write versions of the phone's files (``FileSystem.versions``): every kind of writer moves the version of what it
wrote, whoever it is (the device's push, shell commands, providers, apps, a snapshot, host code writing the files
behind the phone's back), and reading leaves it alone. Readers trust an unmoved version instead of reading the file
again (``local_db``, the providers), so a writer missed here would be a change nobody sees."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing

import pytest

from android_gym.device import local_db
from android_gym.device.sim import SimDevice
from android_gym.sim import snapshot
from android_gym.sim.apps.expense import DB_PATH as EXPENSES
from android_gym.sim.phone import Phone
from android_gym.sim.system import file_versions
from android_gym.sim.system.prefs import SharedPreferences

NOTE = "/sdcard/Documents/note.txt"
INSERT = ("INSERT INTO expense (name, amount, category, note, created_date, modified_date) "
          "VALUES ('host', 1, 1, '', 0, 0)")
SMS = "/data/data/com.android.providers.telephony/databases/mmssms.db"
CONTACTS = "/data/data/com.android.providers.contacts/databases/contacts2.db"


@pytest.fixture
def device():
    device = SimDevice()
    device.push(b"first", NOTE)
    yield device
    device.close()


def moves(phone: Phone, path: str, write: Callable[[], object]) -> bool:
    """Whether ``write()`` moved the version of ``path`` or, for a database, of its ``-wal`` (where a write in WAL
    mode goes until a checkpoint)."""
    before = phone.fs.versions(path, path + "-wal")
    write()
    return phone.fs.versions(path, path + "-wal") != before


def shell(phone: Phone, line: str) -> Callable[[], None]:
    def run() -> None:
        result = phone.run(line)
        assert result.exit_code == 0, result.stderr
    return run


@pytest.mark.parametrize("line", [
    "echo second > /sdcard/Documents/note.txt",  # a redirection that truncates
    "echo more >> /sdcard/Documents/note.txt",  # one that appends
    "rm /sdcard/Documents/note.txt",
    "mv /sdcard/Documents/note.txt /sdcard/Documents/moved.txt",
    "cp /sdcard/Documents/other.txt /sdcard/Documents/note.txt",  # overwritten by a copy
    "mv /sdcard/Documents/other.txt /sdcard/Documents/note.txt",  # replaced by a rename
    "rm -r /sdcard/Documents",  # a directory above it removed
    "mv /sdcard/Documents /sdcard/Moved",
    "find /sdcard/Documents -name note.txt -delete",
    "echo teed | tee /sdcard/Documents/note.txt",
])
def test_shell_commands_move_the_version_of_the_file_they_write(device, line):
    device.push(b"other", "/sdcard/Documents/other.txt")
    assert moves(device.phone, NOTE, shell(device.phone, line))


def test_a_file_made_again_where_one_was_removed_moves_it(device):
    phone = device.phone
    assert moves(phone, "/sdcard/Documents/new.txt", shell(phone, "touch /sdcard/Documents/new.txt"))
    assert moves(phone, "/sdcard/New/a/b.txt", shell(phone, "mkdir -p /sdcard/New/a && echo x > /sdcard/New/a/b.txt"))


def test_a_file_written_in_a_directory_made_since_the_last_look_moves_it(device):
    """A new directory is watched only once its event is read: what was written in it before counts too."""
    phone, path = device.phone, "/sdcard/Fresh/deeper/file.txt"
    before = phone.fs.versions(path)
    phone.fs.makedirs("/sdcard/Fresh/deeper")
    phone.fs.write_bytes(path, b"one")
    middle = phone.fs.versions(path)
    phone.fs.write_bytes(path, b"two")  # now watched: seen as a write of its own
    assert len({before, middle, phone.fs.versions(path)}) == 3


def test_push_and_the_sqlite3_command_move_a_database_s_version(device):
    phone = device.phone
    assert moves(phone, NOTE, lambda: device.push(b"pushed", NOTE))
    assert moves(phone, EXPENSES, shell(phone, f"sqlite3 {EXPENSES} \"DELETE FROM expense\""))


def test_providers_and_apps_move_the_versions_of_their_files(device):
    phone = device.phone
    assert moves(phone, SMS, lambda: device.receive_sms("+15551234567", "hello"))
    assert moves(phone, CONTACTS, shell(phone, "content insert --uri content://com.android.contacts/raw_contacts "
                                               "--bind account_name:n: --bind account_type:n:"))
    assert moves(phone, CONTACTS, shell(phone, "pm clear com.android.providers.contacts"))
    prefs = SharedPreferences(phone, "/data/data/com.example/shared_prefs/example.xml")
    assert moves(phone, prefs.path, lambda: prefs.apply({"key": ("string", "value")}))


def test_restoring_a_snapshot_moves_every_version(device, tmp_path):
    phone = device.phone
    snapshot.save_phone(phone, tmp_path / "saved")
    phone.fs.write_bytes(NOTE, b"after")
    assert moves(phone, NOTE, lambda: snapshot.load_phone(phone, tmp_path / "saved"))
    assert phone.fs.read_bytes(NOTE) == b"first"


def test_host_code_writing_behind_the_phone_s_back_moves_the_version(device):
    """Same size, same inode, twice in one millisecond: file times and sizes could not tell."""
    phone = device.phone
    host = phone.fs.host_path(NOTE)
    assert moves(phone, NOTE, lambda: host.write_bytes(b"third"))
    with open(host, "r+b") as handle:
        before = phone.fs.versions(NOTE)
        handle.write(b"T")
        handle.flush()
        assert phone.fs.versions(NOTE) != before
    host_db = phone.fs.host_path(EXPENSES)

    def insert() -> None:
        with closing(sqlite3.connect(host_db)) as db, db:
            db.execute(INSERT)
    assert moves(phone, EXPENSES, insert)
    assert moves(phone, NOTE, lambda: shutil.rmtree(host.parent))


def test_reading_leaves_versions_alone(device):
    phone = device.phone
    phone.telephony.conversations()
    paths = (NOTE, EXPENSES, SMS)
    before = phone.fs.versions(*paths)
    for line in (f"cat {NOTE}", "ls -la /sdcard/Documents", f"sqlite3 {EXPENSES} 'SELECT COUNT(*) FROM expense'",
                 f"md5sum {NOTE} {SMS}", "content query --uri content://sms"):
        shell(phone, line)()
    device.pull(SMS)
    phone.telephony.conversations()
    assert phone.fs.versions(*paths) == before


def test_without_inotify_every_file_counts_as_written_at_every_look(monkeypatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(24, "Too many open files")
    monkeypatch.setattr(file_versions, "INotify", refuse)
    device = SimDevice()
    try:
        assert device.phone.fs.versions(NOTE) != device.phone.fs.versions(NOTE)
        assert [row["n"] for row in _count_expenses(device)] == [0]
        device.shell(f"sqlite3 {EXPENSES} \"{INSERT}\"")
        assert [row["n"] for row in _count_expenses(device)] == [1]
    finally:
        device.close()


def _count_expenses(device: SimDevice) -> list[dict]:
    return local_db.local_database(device, EXPENSES).query(device, "SELECT COUNT(*) AS n FROM expense", ())


def test_local_db_reads_no_file_while_the_versions_stay_and_sees_every_writer(device, monkeypatch):
    phone, pulled = device.phone, []
    pull = SimDevice.pull
    monkeypatch.setattr(SimDevice, "pull", lambda self, path: pulled.append(path) or pull(self, path))
    assert _count_expenses(device) == [{"n": 0}]
    pulled.clear()
    phone.tap(540, 1200)  # the home screen: nothing written
    assert _count_expenses(device) == [{"n": 0}] and pulled == []
    with closing(sqlite3.connect(phone.fs.host_path(EXPENSES))) as db, db:  # host code, behind the phone's back
        db.execute(INSERT)
    assert _count_expenses(device) == [{"n": 1}] and pulled == [EXPENSES, EXPENSES + "-wal"]
    local_db.local_database(device, EXPENSES).execute_many(device, [("DELETE FROM expense", ())])
    pulled.clear()
    assert _count_expenses(device) == [{"n": 0}] and pulled == []  # its own push: known bytes
    os.utime(phone.fs.host_path(EXPENSES), ns=(0, 0))  # times are not bytes
    assert _count_expenses(device) == [{"n": 0}] and pulled == []


def test_a_write_after_more_events_than_one_read_takes_is_seen(device):
    phone = device.phone
    phone.fs.makedirs("/sdcard/Many")
    phone.fs.versions(NOTE)  # the new directory watched

    def many_then_note() -> None:
        for number in range(3000):  # ~100 KB of events
            phone.fs.write_bytes(f"/sdcard/Many/file-{number:05}.txt", b"x")
        phone.fs.host_path(NOTE).write_bytes(b"last!")
    assert moves(phone, NOTE, many_then_note)


def test_a_forked_child_sees_writes_with_an_instance_of_its_own(device):
    phone = device.phone
    before = phone.fs.versions(NOTE)
    child = os.fork()
    if child == 0:  # the child: its versions move with its writes, read from its own inotify instance
        seen = phone.fs.versions(NOTE)
        phone.fs.host_path(NOTE).write_bytes(b"child")
        os._exit(0 if phone.fs.versions(NOTE) != seen else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert phone.fs.versions(NOTE) != before  # the parent sees the child's write on its own instance


@pytest.mark.parametrize("line", [
    "mkdir -p /sdcard/Documents/a/b && echo deep > /sdcard/Documents/a/b/new.txt",
    "echo more >> /sdcard/Documents/note.txt",
    "touch -d 2023-10-20T10:00:00 /sdcard/Documents/note.txt",  # its times only: no byte changes
    "chmod 600 /sdcard/Documents/note.txt",
    "rm /sdcard/Documents/note.txt",
    "mv /sdcard/Documents/note.txt /sdcard/Documents/moved.txt",
    "mv /sdcard/Documents /sdcard/Moved",
    "rm -r /sdcard",
])
def test_a_tree_version_moves_with_whatever_changes_beneath_it_or_above(device, line):
    phone = device.phone
    phone.run("mkdir -p /sdcard/Documents/a/b")
    before = phone.fs.tree_version("/sdcard/Documents")
    shell(phone, line)()
    assert phone.fs.tree_version("/sdcard/Documents") != before


def test_a_tree_version_stays_while_the_tree_is_read_and_others_are_written(device):
    phone = device.phone
    phone.run("mkdir -p /sdcard/Documents/a/b && echo deep > /sdcard/Documents/a/b/new.txt")
    before = phone.fs.tree_version("/sdcard/Documents")
    for line in ("cat /sdcard/Documents/note.txt", "ls -laR /sdcard/Documents", "find /sdcard/Documents -type f",
                 "stat /sdcard/Documents/a/b/new.txt", "echo other > /sdcard/Download/other.txt",
                 f"sqlite3 {EXPENSES} \"{INSERT}\""):
        shell(phone, line)()
    assert phone.fs.tree_version("/sdcard/Documents") == before


def test_a_tree_forgotten_among_many_counts_as_changed_once(device):
    phone = device.phone
    first = phone.fs.tree_version("/sdcard/Documents")
    assert phone.fs.tree_version("/sdcard/Documents") == first
    for index in range(file_versions._TREES_KEPT):
        phone.fs.tree_version(f"/sdcard/Tree{index}")
    again = phone.fs.tree_version("/sdcard/Documents")
    assert again != first and phone.fs.tree_version("/sdcard/Documents") == again


def test_a_write_moves_the_trees_that_hold_it_and_no_other(device):
    """Nested trees both move; a sibling whose name shares their prefix does not; a tree first asked about after
    events in its directory were counted moves with the writes in it."""
    phone = device.phone
    phone.run("mkdir -p /sdcard/Documents/a /sdcard/DocumentsOld")
    trees = ("/sdcard/Documents", "/sdcard/Documents/a", "/sdcard/DocumentsOld")

    def versions() -> list[int]:
        return [phone.fs.tree_version(tree) for tree in trees]

    for line, moved in (("echo x > /sdcard/Documents/a/x.txt", [True, True, False]),
                        ("echo y > /sdcard/DocumentsOld/y.txt", [False, False, True]),
                        ("echo z > /sdcard/Documents/z.txt", [True, False, False]),
                        ("touch /sdcard/Documents/a", [True, True, False])):
        before = versions()
        phone.run(line)
        assert [a != b for a, b in zip(before, versions())] == moved, line
    phone.run("mkdir /sdcard/Documents/b && echo w > /sdcard/Documents/b/w.txt")
    before = phone.fs.tree_version("/sdcard/Documents/b")
    phone.run("echo v > /sdcard/Documents/b/v.txt")
    assert phone.fs.tree_version("/sdcard/Documents/b") != before
