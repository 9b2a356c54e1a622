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
from collections.abc import Iterable, Mapping
from pathlib import Path

#: How many bytes ``_same_bytes`` compares at a time.
_BLOCK = 1 << 16


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
            _remove(saved)
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
        if not os.path.lexists(saved):
            return _remove(host)
        if os.path.isdir(saved) and not os.path.islink(saved):
            if os.path.isdir(host) and not os.path.islink(host):
                return self._restore_entries(host, saved)
            _remove(host)
            shutil.copytree(saved, host, symlinks=True)
            return True
        if os.path.isfile(host) and not os.path.islink(host) and _same_bytes(saved, host):
            return False
        _remove(host)  # a new file (another inode): a connection still open on the old one can tell
        shutil.copy2(saved, host, follow_symlinks=False)
        return True

    def _restore_entries(self, host: str, saved: str) -> bool:
        """A directory the baseline has: remove the entries it lacks, copy back those missing."""
        present, kept = set(os.listdir(host)), set(os.listdir(saved))
        for name in present - kept:
            _remove(os.path.join(host, name))
        for name in kept - present:
            source, target = os.path.join(saved, name), os.path.join(host, name)
            if os.path.isdir(source) and not os.path.islink(source):
                shutil.copytree(source, target, symlinks=True)
            else:
                shutil.copy2(source, target, follow_symlinks=False)
        return present != kept

    def _restore_stat(self, host: str) -> bool:
        """Give ``host`` its baseline times and mode, where both have it and they differ."""
        saved = self._baseline(host)
        try:
            now, then = os.lstat(host), os.lstat(saved)
        except FileNotFoundError:
            return False
        if (now.st_mtime_ns, now.st_atime_ns, now.st_mode) == (then.st_mtime_ns, then.st_atime_ns, then.st_mode):
            return False
        shutil.copystat(saved, host, follow_symlinks=False)
        return True


def _remove(host: str) -> bool:
    """Remove a file or a directory tree; whether there was one."""
    if os.path.isdir(host) and not os.path.islink(host):
        shutil.rmtree(host)
    elif os.path.lexists(host):
        os.unlink(host)
    else:
        return False
    return True


def _same_bytes(one: str, other: str) -> bool:
    """Whether two files hold the same bytes, read a block at a time up to the first that differs (a database's
    first: its change counter); ``filecmp``'s cache would take two files of one size and time for the pair it
    compared before, and the phone's clock gives the same times again."""
    if os.path.getsize(one) != os.path.getsize(other):
        return False
    with open(one, "rb") as first, open(other, "rb") as second:
        while True:
            block = first.read(_BLOCK)
            if block != second.read(_BLOCK):
                return False
            if not block:
                return True


def _walk(top: str, root: str) -> set[str]:
    """Every path in the tree at ``top``, as the path under ``root`` it stands for."""
    found = set()
    for directory, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            found.add(root + os.path.join(directory, name)[len(top):])
    return found
