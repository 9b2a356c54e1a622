"""A file tree's baseline: a copy of it at one moment, and the undoing of what was written in it since, path by path.

The tree's writers are many (the phone's code, ``sqlite3`` on the host, the apps), so nothing can keep a file's
bytes before they change; instead the whole tree is copied once (a fresh phone's is a few files), and the kernel's
journal of the paths written since (``FileVersions.noted``) says which to bring back. Bringing a path back copies
its baseline bytes, times and mode only where they differ, so a file the episode left as it was keeps its write
version (readers keep what they read of it). The copy changes only when trees are added to it, so what a restore
reads of it, a path's ``lstat`` and a file's bytes, is read once and kept until then (the files of a baseline are
the few a fresh phone and its apps write at boot: databases of tens of kB).
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

#: How many bytes ``_holds`` compares first (a database's first page, which holds its change counter), then at
#: a time.
_FIRST_BLOCK, _BLOCK = 4096, 1 << 16


class FileBaseline:
    """A copy of the tree at host path ``root``, kept at ``copy``, which ``restore`` brings paths back to."""

    def __init__(self, root: Path, copy: Path) -> None:
        self._root, self._copy = os.fspath(root), os.fspath(copy)
        shutil.rmtree(self._copy, ignore_errors=True)
        shutil.copytree(self._root, self._copy, symlinks=True)
        self._stats: dict[str, os.stat_result | None] = {}  # host path -> the copy's ``lstat`` of it (``_then``)
        self._bytes: dict[str, bytes] = {}  # host path -> the copy's bytes of the file (``_data``)

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
        self._stats.clear()
        self._bytes.clear()

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

    def _then(self, host: str) -> os.stat_result | None:
        """The copy's ``lstat`` of host path ``host`` (``None``: the baseline has no such path)."""
        if host not in self._stats:
            self._stats[host] = _lstat(self._baseline(host))
        return self._stats[host]

    def _data(self, host: str) -> bytes:
        """The copy's bytes of the file at host path ``host``."""
        data = self._bytes.get(host)
        if data is None:
            with open(self._baseline(host), "rb") as file:
                data = self._bytes[host] = file.read()
        return data

    def _restore(self, host: str) -> bool:
        """Bring the bytes or entries of ``host`` back; whether anything was written."""
        then, now = self._then(host), _lstat(host)
        if then is None:
            return _remove(host, now)
        if stat.S_ISDIR(then.st_mode):
            saved = self._baseline(host)
            if now is not None and stat.S_ISDIR(now.st_mode):
                return self._restore_entries(host, saved)
            _remove(host, now)
            if os.listdir(saved):
                shutil.copytree(saved, host, symlinks=True)
            else:  # (an app's cache directory after ``pm clear``): its times and mode come after, with the others'
                os.mkdir(host)
            return True
        data = self._data(host)
        if now is not None and stat.S_ISREG(now.st_mode) and _holds(host, now.st_size, data):
            return False
        in_place = now is not None and stat.S_ISREG(now.st_mode) and stat.S_ISREG(then.st_mode) and not _has_wal(host)
        if not in_place:
            _remove(host, now)  # a new file (another inode): a connection still open on the old one can tell
        _write(host, data, then, in_place)
        return True

    def _restore_entries(self, host: str, saved: str) -> bool:
        """A directory the baseline has: remove the entries it lacks, copy back those missing."""
        present, kept = set(os.listdir(host)), set(os.listdir(saved))
        for name in present - kept:
            target = os.path.join(host, name)
            _remove(target, _lstat(target))
        for name in kept - present:
            target = os.path.join(host, name)
            info = self._then(target)
            assert info is not None  # listed in the copy
            if stat.S_ISDIR(info.st_mode):
                shutil.copytree(os.path.join(saved, name), target, symlinks=True)
            else:
                _write(target, self._data(target), info)
        return present != kept

    def _restore_stat(self, host: str) -> bool:
        """Give ``host`` its baseline times and mode, where both have it and they differ."""
        then = self._then(host)
        now = None if then is None else _lstat(host)
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


def _write(target: str, data: bytes, info: os.stat_result, in_place: bool = False) -> None:
    """Write ``data`` to the file ``target`` with the times and mode of ``info`` (the phone makes no links, and its
    files have no extended attributes). ``in_place``: written over the regular file ``target``, its inode kept, as
    another process's write would leave it (a connection the shell keeps on a database goes on reading it, SQLite
    dropping its cache when the header's change counter moved, ``KeptDatabases``)."""
    with open(target, "r+b" if in_place else "wb") as file:
        file.write(data)
        file.truncate()
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


def _holds(host: str, size: int, data: bytes) -> bool:
    """Whether the file at ``host`` (of ``size`` bytes) holds ``data``, read a block at a time up to the first that
    differs (a database's first page: its change counter); file times cannot tell, the phone's clock gives the same
    times again."""
    if size != len(data):
        return False
    with open(host, "rb", buffering=0) as file:  # (unbuffered: read block by block as asked, no terminal test)
        start, end = 0, _FIRST_BLOCK
        while start < size:
            if file.read(end - start) != data[start:end]:
                return False
            start, end = end, end + _BLOCK
        return not file.read(1)


def _walk(top: str, root: str) -> set[str]:
    """Every path in the tree at ``top``, as the path under ``root`` it stands for."""
    found = set()
    for directory, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            found.add(root + os.path.join(directory, name)[len(top):])
    return found
