"""Write versions of the files in a directory tree, told by the kernel (Linux inotify), so a reader knows whether a
file changed without reading it again.

Every writer counts, whoever it is: the phone's own code, ``sqlite3`` on the host, a test writing the phone's host
files: the kernel queues an event on the file's directory with every write, creation, removal and rename (``inotify``
(7): the event is queued before the writing call returns, so whoever asks afterwards sees it). File times cannot
tell: the phone sets them to its virtual clock, and two writes in one millisecond look alike.

A path's version is the number of the latest event on it or on a directory above it (a directory removed, renamed or
made counts for everything beneath it); so while a path's version stays the same, the file holds the same bytes (or
is still missing). A directory's tree version (``tree_version``) is also moved by every event beneath it, and by a
change of times or mode there too (``ATTRIB``: ``touch``): while it stays the same, a walk of the tree that stats
its files finds the same. Every directory of the tree is watched; a directory made is watched as soon as its event
is read and counts as written then, after the watch is in place, which covers whatever was written in it before.
When the kernel's queue overflowed, every path counts as written once; where inotify is not to be had (not Linux,
the per-user limit of instances or of watches reached), every path counts as written at every question, which is
always right and costs the reader a read.
"""

from __future__ import annotations

import itertools
import os
import select
import struct
import sys
import threading
import weakref
from pathlib import Path

from inotify_simple import INotify, flags

#: What changes a file's bytes or which file a path names (not ``ATTRIB``: times and modes are not bytes).
_BYTES = (flags.MODIFY | flags.CREATE | flags.DELETE | flags.MOVED_FROM | flags.MOVED_TO | flags.DELETE_SELF
          | flags.MOVE_SELF)
#: What is watched: the above, and times and modes for the tree versions.
_MASK = _BYTES | flags.ATTRIB | flags.ONLYDIR | flags.DONT_FOLLOW
_NEW_DIRECTORY = flags.CREATE | flags.MOVED_TO
# The flags each event is tested for, as plain numbers (a member of the ``IntEnum`` costs a look-up each time).
_OVERFLOW, _IGNORED, _DIRECTORY = int(flags.Q_OVERFLOW), int(flags.IGNORED), int(flags.ISDIR)
#: How many paths' chains of directories a tree keeps.
_CHAINS_KEPT = 1024
#: How many directories' tree versions are kept (each event is matched against every one).
_TREES_KEPT = 32
_ZEROS = itertools.repeat(0)  # the version of a path no event was seen on
_READ_SIZE = 1 << 16
#: ``struct inotify_event`` (inotify(7)): watch descriptor, mask, cookie and the length of the name that follows.
_EVENT = struct.Struct("iIII")
_NAMES = sys.getfilesystemencoding()  # how the kernel's names are decoded (``os.fsdecode``)
_TREES: weakref.WeakSet[FileVersions] = weakref.WeakSet()  # every tree watched in this process


def _forked() -> None:
    """In a forked child: each tree gets an inotify instance of its own (the parent's would lose it events)."""
    for tree in _TREES:
        tree.inherited = True


os.register_at_fork(after_in_child=_forked)


class FileVersions:
    """The write versions of the files under ``root`` (host paths)."""

    def __init__(self, root: Path) -> None:
        self._top = os.fspath(root)
        self._events = 0  # how many events were read: the latest one's number
        self._versions: dict[str, int] = {}  # host path -> the number of the latest event on it
        self._trees: dict[str, int] = {}  # a directory asked about -> the number of the latest event beneath it
        self._over: dict[str, tuple[str, ...]] = {}  # a directory -> the trees that hold it (``_trees_over``)
        self._chains: dict[str, tuple[str, ...]] = {}  # host path -> it and the directories above it, up to root
        self._directories: dict[int, str] = {}  # watch descriptor -> the directory it watches
        self._noted: dict[str, bool] | None = None  # every path an event touched since ``noted`` was last called
        self._inotify: INotify | None = None
        self._lock = threading.Lock()  # events are read and counted by one thread at a time (a served phone's)
        self._ready = select.poll()  # whether the inotify instance has events: one system call
        self.inherited = False  # set in a forked child, which must not read its parent's events
        self._start()
        _TREES.add(self)

    def _start(self) -> None:
        """A new inotify instance, watching every directory of the tree; whatever happened before counts as
        written now."""
        self.close()
        self.inherited = False
        try:
            self._inotify = INotify(nonblocking=True)
        except (OSError, AttributeError):  # too many instances, or not Linux (no inotify_init1 in the C library)
            self._inotify = None
        else:
            self._ready = select.poll()
            self._ready.register(self._inotify.fileno(), select.POLLIN)
        self._directories = {}
        self._watch_tree(self._top)
        self._changed(self._top, tree=True)

    def close(self) -> None:
        """Stop watching (the tree is about to be removed). Idempotent."""
        if self._inotify is not None:
            self._inotify.close()
            self._inotify = None

    def versions(self, *hosts: str) -> tuple[int, ...]:
        """The version of each host path: the same number while the file holds the same bytes (or is still
        missing)."""
        with self._lock:
            self._read_events()
            return tuple(self._version(host) for host in hosts)

    def tree_version(self, host: str) -> int:
        """The version of the directory tree at host path ``host``: the same number while no file or directory in
        it, nor it or a directory above it, was written, made, removed, renamed or given other times or mode. The
        first question about a tree counts as a change (events before it were not told apart by tree)."""
        with self._lock:
            self._read_events()
            if host not in self._trees:
                if len(self._trees) >= _TREES_KEPT:  # the trees forgotten count as changed when asked again
                    self._trees.clear()
                self._events += 1
                self._trees[host] = self._events
                self._over = {}
            return max(self._trees[host], self._version(host))

    def noted(self) -> dict[str, bool]:
        """The host paths written, made, removed, renamed or given other times or mode since the last call (the first
        call starts the noting and returns nothing), each with whether what is beneath it may have been written
        unseen (a directory made or moved in: what was written in it before its watch was in place; ``root`` when
        the kernel could not tell which paths)."""
        with self._lock:
            self._read_events()
            noted, self._noted = self._noted or {}, {}
            return noted

    def _version(self, host: str) -> int:
        chain = self._chains.get(host)
        if chain is None:
            if len(self._chains) >= _CHAINS_KEPT:
                self._chains.clear()
            chain = self._chains[host] = _chain(host, self._top)
        return max(map(self._versions.get, chain, _ZEROS))

    def _changed(self, path: str, attributes_only: bool = False, tree: bool = False) -> None:
        self._events += 1
        if self._noted is not None:
            self._noted[path] = tree or self._noted.get(path, False)
        if not attributes_only:
            self._versions[path] = self._events
        trees = self._trees
        if trees:  # those holding ``path``: it, or a directory above it (found once per directory it is in, not by
            # comparing every event's path with every tree: a burst of events in one folder shares them)
            directory = path.rpartition("/")[0]
            over = self._over.get(directory)
            if over is None:
                over = self._trees_over(directory)
            for holder in over:
                trees[holder] = self._events
            if path in trees:
                trees[path] = self._events

    def _trees_over(self, directory: str) -> tuple[str, ...]:
        """The trees asked about that are ``directory`` or above it (kept until a tree is first asked about)."""
        if len(self._over) >= _CHAINS_KEPT:
            self._over.clear()
        over = self._over[directory] = tuple(tree for tree in self._trees
                                             if directory == tree or directory.startswith(tree + "/"))
        return over

    def _read_events(self) -> None:
        """Count every event the kernel queued since the last look (one ``poll`` when there is none)."""
        if self.inherited:
            self._start()
        if self._inotify is None:
            self._changed(self._top, tree=True)
            return
        while self._ready.poll(0):  # until the queue is empty: a read takes at most _READ_SIZE bytes of it
            self._count(os.read(self._inotify.fileno(), _READ_SIZE))

    def _count(self, data: bytes) -> None:
        """Count the events in ``data`` (what a read of the inotify instance gave: whole events), read straight from
        the bytes (inotify_simple's ``parse_events`` makes an object of each, which costs more than the counting)."""
        position, end = 0, len(data)
        while position < end:
            wd, mask, _, size = _EVENT.unpack_from(data, position)
            position += _EVENT.size + size
            if mask & _OVERFLOW:
                self._watch_tree(self._top)
                self._changed(self._top, tree=True)
                continue
            directory = self._directories.get(wd)
            if directory is None:
                continue
            if mask & _IGNORED:  # the directory went: so did its watch
                del self._directories[wd]
                continue
            name = data[position - size:position].split(b"\0", 1)[0]  # padded with NULs
            # (a watched directory never ends in /; the name as ``os.fsdecode`` makes it)
            path = f"{directory}/{name.decode(_NAMES, 'surrogateescape')}" if name else directory
            made = bool(mask & _DIRECTORY and mask & _NEW_DIRECTORY)
            if made:
                self._watch_tree(path)  # first the watches, then the count: nothing written in it goes unseen
            self._changed(path, not mask & _BYTES, made)

    def _watch_tree(self, top: str) -> None:
        """Watch ``top`` and every directory beneath it (a directory watched already keeps its watch, now under
        this path: a renamed one)."""
        if self._inotify is None:
            return
        for directory, _, _ in os.walk(top):
            try:
                self._directories[self._inotify.add_watch(directory, _MASK)] = directory
            except FileNotFoundError:  # removed meanwhile: its removal is an event of its own
                continue
            except OSError:  # out of watches: no version can be trusted
                self.close()
                return


def _chain(host: str, top: str) -> tuple[str, ...]:
    """``host`` and the directories above it, up to ``top``."""
    chain = [host]
    while host != top and len(host) > len(top):
        host = os.path.dirname(host)
        chain.append(host)
    return tuple(chain)
