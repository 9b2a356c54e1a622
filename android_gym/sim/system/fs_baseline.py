"""A file tree's baseline: a copy of it at one moment, and the undoing of what was written in it since, path by path.

The tree's writers are many (the phone's code, ``sqlite3`` on the host, the apps), so nothing can keep a file's
bytes before they change; instead the whole tree is copied once (a fresh phone's is a few files), and the kernel's
journal of the paths written since (``FileVersions.noted``) says which to bring back. Bringing a path back copies
its baseline bytes, times and mode only where they differ, so a file the episode left as it was keeps its write
version (readers keep what they read of it).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

#: How many bytes ``_same_bytes`` compares first (a database's first page, which holds its change counter), then at
#: a time.
_FIRST_BLOCK, _BLOCK = 4096, 1 << 16


class FileBaseline:
    """A copy of the tree at host path ``root``, kept at ``copy``, which ``restore`` brings paths back to."""

    def __init__(self, root: Path, copy: Path) -> None:
        self._root, self._copy = os.fspath(root), os.fspath(copy)
        shutil.rmtree(self._copy, ignore_errors=True)
        shutil.copytree(self._root, self._copy, symlinks=True)

    def add(self, hosts: Iterable[str]) -> None:
        """Take the trees at host paths ``hosts`` (those missing left out) into the baseline as they are now."""
        for host in hosts:
            if not os.path.isdir(host):
                continue
            saved = self._baseline(host)
            _remove(saved, _lstat(saved))
            missing = []
            parent = os.path.dirname(host)
            while not os.path.isdir(self._baseline(parent)):
                missing.append(parent)
                parent = os.path.dirname(parent)
            for directory in reversed(missing):
                os.mkdir(self._baseline(directory))
            shutil.copytree(host, saved, symlinks=True)
            for directory in (*missing, parent):  # their entries and times, as they are now
                shutil.copystat(directory, self._baseline(directory))

    def restore(self, hosts: Mapping[str, bool]) -> bool:
        """Bring each of the host paths ``hosts`` (in the tree) back to the baseline: a path it lacks removed, one it
        has as a file copied back unless it holds the same bytes, a directory copied back whole unless there is one
        (whose entries the baseline lacks are removed, those missing copied back); then the times and modes of
        those paths and of the directories holding them. A path mapped to True brings back every path beneath it
        too (``FileVersions.noted``: a directory made, whose first entries no event told). Whether anything was
        written."""
        paths = set(hosts)
        for host in [host for host, tree in hosts.items() if tree]:
            paths |= _walk(host, host) | _walk(self._baseline(host), host)
        paths = sorted(paths)
        changed = False
        for host in paths:
            changed |= self._restore(host)
        for host in sorted({*paths, *map(os.path.dirname, paths)}, reverse=True):  # times last, children first
            changed |= self._restore_stat(host)
        return changed

    def _baseline(self, host: str) -> str:
        return self._copy + host[len(self._root):]

    def _restore(self, host: str) -> bool:
        """Bring the bytes or entries of ``host`` back; whether anything was written."""
        saved = self._baseline(host)
        then, now = _lstat(saved), _lstat(host)
        if then is None:
            return _remove(host, now)
        if stat.S_ISDIR(then.st_mode):
            if now is not None and stat.S_ISDIR(now.st_mode):
                return self._restore_entries(host, saved)
            _remove(host, now)
            shutil.copytree(saved, host, symlinks=True)
            return True
        if now is not None and stat.S_ISREG(now.st_mode) and _same_bytes(saved, host, then.st_size, now.st_size):
            return False
        in_place = now is not None and stat.S_ISREG(now.st_mode) and stat.S_ISREG(then.st_mode) and not _has_wal(host)
        if not in_place:
            _remove(host, now)  # a new file (another inode): a connection still open on the old one can tell
        _copy(saved, host, then, in_place)
        return True

    def _restore_entries(self, host: str, saved: str) -> bool:
        """A directory the baseline has: remove the entries it lacks, copy back those missing."""
        present, kept = set(os.listdir(host)), set(os.listdir(saved))
        for name in present - kept:
            target = os.path.join(host, name)
            _remove(target, _lstat(target))
        for name in kept - present:
            source, target = os.path.join(saved, name), os.path.join(host, name)
            info = os.lstat(source)
            if stat.S_ISDIR(info.st_mode):
                shutil.copytree(source, target, symlinks=True)
            else:
                _copy(source, target, info)
        return present != kept

    def _restore_stat(self, host: str) -> bool:
        """Give ``host`` its baseline times and mode, where both have it and they differ."""
        then, now = _lstat(self._baseline(host)), _lstat(host)
        if then is None or now is None:
            return False
        changed = False
        if (now.st_mtime_ns, now.st_atime_ns) != (then.st_mtime_ns, then.st_atime_ns):
            os.utime(host, ns=(then.st_atime_ns, then.st_mtime_ns), follow_symlinks=False)
            changed = True
        if now.st_mode != then.st_mode:
            os.chmod(host, stat.S_IMODE(then.st_mode))
            changed = True
        return changed


def _lstat(path: str) -> os.stat_result | None:
    """``os.lstat``, or ``None`` for a missing path."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _copy(source: str, target: str, info: os.stat_result, in_place: bool = False) -> None:
    """Copy the file ``source`` (whose ``lstat`` is ``info``) to ``target`` with its times and mode (the phone makes
    no links, and its files have no extended attributes for ``copy2`` to look for). ``in_place``: written over the
    regular file ``target``, its inode kept, as another process's write would leave it (a connection the shell keeps
    on a database goes on reading it, SQLite dropping its cache when the header's change counter moved,
    ``KeptDatabases``)."""
    if in_place:
        with open(source, "rb") as reader, open(target, "r+b") as writer:
            shutil.copyfileobj(reader, writer)
            writer.truncate()
    else:
        shutil.copyfile(source, target)
    os.chmod(target, stat.S_IMODE(info.st_mode))
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


def _has_wal(host: str) -> bool:
    """Whether ``host`` is a database in write-ahead-log mode now (its ``-wal`` or ``-shm`` beside it): one written
    over in place could disagree with the log a connection still holds, so it is replaced by a new file instead."""
    return os.path.lexists(host + "-wal") or os.path.lexists(host + "-shm")


def _remove(host: str, info: os.stat_result | None) -> bool:
    """Remove the file or directory tree at ``host``, whose ``lstat`` is ``info`` (``None``: there is none); whether
    there was one."""
    if info is None:
        return False
    if stat.S_ISDIR(info.st_mode):
        shutil.rmtree(host)
    else:
        os.unlink(host)
    return True


def _same_bytes(one: str, other: str, one_size: int, other_size: int) -> bool:
    """Whether two files (of those sizes) hold the same bytes, read a block at a time up to the first that differs (a
    database's first page: its change counter); ``filecmp``'s cache would take two files of one size and time for the
    pair it compared before, and the phone's clock gives the same times again."""
    if one_size != other_size:
        return False
    with open(one, "rb") as first, open(other, "rb") as second:
        size = _FIRST_BLOCK
        while True:
            block = first.read(size)
            if block != second.read(size):
                return False
            if not block:
                return True
            size = _BLOCK


def _walk(top: str, root: str) -> set[str]:
    """Every path in the tree at ``top``, as the path under ``root`` it stands for."""
    found = set()
    for directory, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            found.add(root + os.path.join(directory, name)[len(top):])
    return found
