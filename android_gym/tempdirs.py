"""Where android_gym keeps short-lived files: in memory when the host can, in directories that outlive no owner.

A process that is killed (a Ray actor, a vector-env worker, a test's child) runs no clean-up, and what it kept in
``/dev/shm`` stays there, in RAM. So each ``OwnedDir`` holds an advisory lock (``flock``) on a file inside it for
its whole life; the kernel drops the lock when the owner closes it or dies, in whatever PID namespace it ran
(containers started with ``--ipc=host`` share ``/dev/shm`` but not PIDs, so a PID that looks dead proves nothing).
Making a new ``OwnedDir`` first removes every ``android-gym-*`` directory beside it whose lock it can take: its
owner is certainly gone. A directory without the lock file (one being made, or an older version's) is left alone;
a forked child shares its parent's locks, so a directory stays while either lives (only the parent removes it).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import weakref
from pathlib import Path

#: Environment variable naming the directory for short-lived files instead (a test's own directory).
TMPDIR_VAR = "ANDROID_GYM_TMPDIR"
#: What the names of android_gym's directories there start with.
PREFIX = "android-gym-"
#: The file in an ``OwnedDir`` its owner keeps locked.
OWNER_LOCK = ".owner.lock"


def fast_tmp_dir() -> str | None:
    """``$ANDROID_GYM_TMPDIR`` if set, else a memory-backed directory when the host has one (``/dev/shm``), else
    ``None`` (the system's temporary directory): SQLite's fsyncs and the creation and removal of files cost nothing
    there."""
    if os.environ.get(TMPDIR_VAR):
        return os.environ[TMPDIR_VAR]
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


class OwnedDir:
    """A new private directory ``<prefix>XXXXXXXX`` in ``fast_tmp_dir()``, locked while this object lives and removed
    by ``remove``, on garbage collection or at interpreter exit (by the process that made it, not a forked child).
    Made after ``sweep`` of the directories whose owners died."""

    def __init__(self, prefix: str) -> None:
        parent = fast_tmp_dir() or tempfile.gettempdir()
        sweep(parent)
        self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
        # Locked before it has the name a sweep looks for: a sweep never sees the lock file unlocked in a live dir.
        unnamed = self.path / (OWNER_LOCK + ".new")
        fd = os.open(unnamed, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.rename(unnamed, self.path / OWNER_LOCK)
        self._remove = weakref.finalize(self, _remove, self.path, fd, os.getpid())

    def remove(self) -> None:
        """Delete the directory and release its lock. Idempotent."""
        self._remove()

    def __enter__(self) -> OwnedDir:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def _remove(path: Path, fd: int, pid: int) -> None:
    if os.getpid() == pid:  # a forked child's copy: the directory is still its parent's
        shutil.rmtree(path, ignore_errors=True)
    os.close(fd)  # after the removal: a sweep cannot take the lock of a directory still being deleted


def sweep(parent: str) -> list[str]:
    """Remove the ``android-gym-*`` directories in ``parent`` whose ``OWNER_LOCK`` nobody holds (their owner died);
    the paths removed."""
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            fd = os.open(os.path.join(entry.path, OWNER_LOCK), os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue  # no lock file (being made, or an older version's), or another user's
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # held: its owner lives
        else:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
        finally:
            os.close(fd)
    return removed
