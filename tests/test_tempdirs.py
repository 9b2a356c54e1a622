"""Directories in /dev/shm outlive no owner: a killed process's are removed by the next one made, a live one's never."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from android_gym.sim.phone import Phone
from android_gym.tempdirs import OWNER_LOCK, TMPDIR_VAR, OwnedDir, sweep

#: A child that makes a phone, prints its storage directory, and waits for a line before closing it.
CHILD = """
import sys
from android_gym.sim.phone import Phone
phone = Phone()
print(phone.fs.root.parent, flush=True)
sys.stdin.readline()
phone.close()
"""


@pytest.fixture(name="tmp")
def own_tmp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory of this test's own as android_gym's place for short-lived files (shared with its children)."""
    monkeypatch.setenv(TMPDIR_VAR, str(tmp_path))
    return tmp_path


def start_child() -> tuple[subprocess.Popen[str], Path]:
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = child.stdout.readline() if child.stdout else ""
    assert line, "the child made no phone"
    return child, Path(line.strip())


def test_a_killed_phones_directory_is_removed_by_the_next_phone(tmp):
    child, storage = start_child()
    child.send_signal(signal.SIGKILL)
    child.communicate()  # (its pipes closed)
    assert storage.is_dir() and storage.parent == tmp  # nothing ran to remove it
    phone = Phone()
    try:
        assert not storage.exists()
        assert [path.name[:-8] for path in tmp.iterdir()] == ["android-gym-phone-"]  # the new phone's own
    finally:
        phone.close()
    assert list(tmp.iterdir()) == []


def test_a_live_phones_directory_in_another_process_is_never_removed(tmp):
    child, storage = start_child()
    try:
        phone = Phone()
        phone.close()
        assert sweep(str(tmp)) == []
        assert storage.is_dir()
    finally:
        child.communicate("close\n", timeout=60)
    assert child.returncode == 0 and not storage.exists()  # it removed its own


def test_a_directory_without_the_lock_file_is_left_alone(tmp):
    """A directory being made (not locked yet) or made by an older version: nothing says its owner is gone."""
    unlocked = tmp / "android-gym-phone-unlocked"
    unlocked.mkdir()
    with OwnedDir("android-gym-db-") as made:
        assert made.path.is_dir() and (made.path / OWNER_LOCK).is_file()
        assert unlocked.is_dir()
    assert not made.path.exists()


def test_only_android_gym_directories_are_swept(tmp):
    other = tmp / "someone-else"
    other.mkdir()
    (other / OWNER_LOCK).touch()  # unlocked, but not ours
    assert sweep(str(tmp)) == [] and other.is_dir()


def test_a_forked_child_leaves_its_parents_directory_alone(tmp):
    made = OwnedDir("android-gym-phone-")
    child = os.fork()
    if child == 0:
        code = 1
        try:
            made.remove()
            code = 0 if made.path.is_dir() and sweep(str(tmp)) == [] else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and made.path.is_dir()
    made.remove()
    assert not made.path.exists()
