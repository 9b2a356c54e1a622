"""The simulated phone's file system: Android paths mapped into a private host directory.

Every Android path is resolved under the phone's own root, so nothing the device does can touch the host
outside it. ``/sdcard`` and ``/storage/self/primary`` are the aliases of ``/storage/emulated/0`` that Android
itself exposes (AOSP ``system/core/rootdir/init.rc`` symlinks).
"""

from __future__ import annotations

import functools
import os
import posixpath
import shutil
import stat as stat_module
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.file_versions import FileVersions
from android_gym.sim.system.fs_baseline import FileBaseline

EXTERNAL_STORAGE = "/storage/emulated/0"
_ALIASES = {"/sdcard": EXTERNAL_STORAGE, "/storage/self/primary": EXTERNAL_STORAGE, "/mnt/sdcard": EXTERNAL_STORAGE}

#: Directories every booted Android 13 image has (AOSP init.rc / vold, and MediaProvider's default folders:
#: ``Environment.STANDARD_DIRECTORIES``, with Audiobooks since Android 10 and Recordings since 12), created on a
#: fresh phone.
_BOOT_DIRS = (
    "/data/data",
    "/data/local/tmp",
    "/data/system",
    "/system/bin",
    "/proc",
    "/dev",
    EXTERNAL_STORAGE + "/Alarms",
    EXTERNAL_STORAGE + "/Audiobooks",
    EXTERNAL_STORAGE + "/DCIM",
    EXTERNAL_STORAGE + "/Documents",
    EXTERNAL_STORAGE + "/Download",
    EXTERNAL_STORAGE + "/Movies",
    EXTERNAL_STORAGE + "/Music",
    EXTERNAL_STORAGE + "/Notifications",
    EXTERNAL_STORAGE + "/Pictures",
    EXTERNAL_STORAGE + "/Podcasts",
    EXTERNAL_STORAGE + "/Recordings",
    EXTERNAL_STORAGE + "/Ringtones",
    EXTERNAL_STORAGE + "/Android/data",
)


@functools.lru_cache(maxsize=4096)
def normalize(path: str, cwd: str = "/") -> str:
    """Absolute, normalized Android path with aliases of external storage replaced by the real path (worked out once
    per path and directory while kept: commands name the same paths again and again, ``md5sum`` of a folder's files
    each)."""
    path = posixpath.normpath(posixpath.join(cwd, path))
    if path.startswith("//"):
        path = path[1:]
    for alias, target in _ALIASES.items():
        if path == alias or path.startswith(alias + "/"):
            return target + path[len(alias):]
    return path


#: ``os.stat_result`` fields beyond its ten tuple items that ``device_stat`` carries over from the host (those this
#: host's ``stat`` has).
_STAT_EXTRAS = tuple(name for name in ("st_atime", "st_mtime", "st_ctime", "st_atime_ns", "st_mtime_ns",
                                       "st_ctime_ns", "st_blksize", "st_blocks", "st_rdev")
                     if hasattr(os.stat(os.curdir), name))


#: How many ``host_path`` answers a file system keeps (the paths tasks and apps use again and again).
_HOST_PATHS_KEPT = 1024


#: The device number every file shows: ``/dev/block/dm-5``, userdata on the emulator.
USERDATA_DEVICE = 0xFD05


def _and_above(path: str) -> Iterator[str]:
    """A normalised absolute path, then each directory above it up to ``/``."""
    yield path
    while path != "/":
        path = posixpath.dirname(path)
        yield path


def inode_of(path: str) -> int:
    """A stable inode number for an Android path: ext4's root is inode 2 and the first ordinary one is 11; the
    others are derived from the path, so listings never show the host's inode numbers and do not change
    between runs (simplified: a file keeps its number only while it keeps its path)."""
    return 2 if path == "/" else 11 + zlib.crc32(path.encode()) % 10_000_000


def _mtime_ns(host: str | Path) -> int | None:
    try:
        return os.stat(host, follow_symlinks=False).st_mtime_ns
    except OSError:
        return None


#: The first bytes of an SQLite database file (https://www.sqlite.org/fileformat2.html#the_database_header).
_SQLITE_HEADER = b"SQLite format 3\0"
#: The side files of an SQLite database, which go with it (the suffixes of their names).
SQLITE_SIDE_FILES = ("-journal", "-wal", "-shm")


def _is_database(host: str) -> bool:
    """Whether the host file is an SQLite database or one of its side files (or was one: it is gone)."""
    if host.endswith(SQLITE_SIDE_FILES):
        return True
    try:  # (os.open and os.read: a third of the cost of a file object, and a checkpoint asks of every path written)
        handle = os.open(host, os.O_RDONLY)
    except OSError:  # removed: it may have been one
        return True
    try:
        return os.read(handle, len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except IsADirectoryError:
        return False
    finally:
        os.close(handle)


def read_host(host: str | Path) -> bytes:
    """The bytes of the host file ``host``, read unbuffered (a buffered file asks whether it is a terminal and where it
    stands first: two system calls more, and a third of the cost of reading a note). Raises ``OSError`` as ``open``
    does."""
    with open(host, "rb", buffering=0) as file:
        return file.read()


def host_times(hosts: Sequence[str | Path]) -> list[int | None]:
    """The host modification times of ``hosts`` (``None``: no such file), to hand to ``FileSystem.stamp_changed``."""
    return [_mtime_ns(host) for host in hosts]


class FileSystem:
    """Android paths backed by files under ``root`` on the host; files carry device (virtual clock) times.

    The host kernel stamps what it writes with the host's wall clock, including a directory an entry is added
    to or removed from; the methods here restamp those with device time, so ``stat`` on the device never
    shows host time.
    """

    def __init__(self, root: Path, clock: VirtualClock) -> None:
        self.root = Path(root)
        self._clock = clock
        self._hosts: dict[tuple[str, str], Path] = {}  # host_path's answers (paths are immutable)
        self._before_use: dict[str, Callable[[], object]] = {}  # see ``before_first_use``
        self._leading: set[str] | None = None  # those directories and every one above them, made when asked
        self._inside: tuple[str, ...] = ()  # with them, what the paths inside those directories start with
        self.root.mkdir(parents=True, exist_ok=True)  # so every directory stamped below lies inside it
        for directory in _BOOT_DIRS:
            self.makedirs(directory)
        for host in (self.root, *self.root.rglob("*")):
            self.stamp(host)
        self._versions = FileVersions(self.root)
        self._version_keys: dict[tuple[str, ...], tuple[str, ...]] = {}  # ``versions``' paths -> their host paths
        self._baseline: FileBaseline | None = None  # see ``keep_baseline``
        self._databases: dict[str, bool] = {}  # the databases written before the last checkpoint (``rewind``)

    def versions(self, *paths: str) -> tuple[int, ...]:
        """The write version of the file at each Android path: the same number while it holds the same bytes (or
        is still missing), whoever writes it (``FileVersions``); reading a file to find out costs far more."""
        hosts = self._version_keys.get(paths)
        if hosts is None:
            if len(self._version_keys) >= _HOST_PATHS_KEPT:
                self._version_keys.clear()
            hosts = self._version_keys[paths] = tuple(os.fspath(self.host_path(path)) for path in paths)
        return self._versions.versions(*hosts)

    def tree_version(self, directory: str) -> int:
        """The version of the directory tree at the Android path ``directory``: the same number while nothing in it
        was written, made, removed, renamed, or given other times or mode (``FileVersions.tree_version``), so a walk
        of it that stats its files would find the same."""
        return self._versions.tree_version(os.fspath(self.host_path(directory)))

    def keep_baseline(self) -> None:
        """Copy the tree as it is now, the baseline ``rewind`` brings paths back to, and note the paths written from
        now on (the first call; later ones do nothing)."""
        if self._baseline is None:
            self._baseline = FileBaseline(self.root, self.root.with_name(self.root.name + "-baseline"))
            self._versions.noted()

    def add_to_baseline(self, paths: Sequence[str]) -> None:
        """Take the trees at ``paths`` (Android paths, those missing left out) into the baseline as they are now (an
        app started since wrote them as it would have at boot); nothing before a baseline is kept."""
        if self._baseline is not None:
            self._baseline.add([os.fspath(self.root / normalize(path).lstrip("/")) for path in paths])

    def checkpoint(self) -> None:
        """Note the paths written from now on, which ``rewind`` brings back; of those written before, only the SQLite
        databases are brought back too (their bytes keep their history: a table emptied and filled again numbers its
        rows on from the last, ``sqlite_sequence``), the other files stay as they are."""
        self._databases.update((host, tree) for host, tree in self._versions.noted().items() if _is_database(host))

    def rewind(self) -> bool:
        """Bring every path written since the last ``checkpoint`` (bytes, entries, times, modes) back to the baseline;
        whether anything changed (nothing without a baseline). Host paths only: no app is started. The rewind's own
        writes are not noted."""
        if self._baseline is None:
            return False
        noted = self._versions.noted()
        noted.update((host, tree or noted.get(host, False)) for host, tree in self._databases.items())
        self._databases = {}
        changed = self._baseline.restore(noted)
        self._versions.noted()
        return changed

    def close(self) -> None:
        """Stop watching the files (the phone's storage is about to go)."""
        self._versions.close()

    def stamp(self, host: str | Path) -> None:
        """Set a host file's access and modification times to the device time (it was written)."""
        self._set_device_time(host)

    def _set_device_time(self, host: str | Path) -> None:
        ns = self._clock.record_ms() * 1_000_000
        try:
            os.utime(host, ns=(ns, ns), follow_symlinks=False)
        except (OSError, NotImplementedError):
            pass

    def before_first_use(self, directory: str, action: Callable[[], object] | None) -> None:
        """Run ``action`` once, before ``host_path`` first resolves ``directory``, a path inside it or a directory
        above it (where a listing or a walk would reach it): what an app started on first need puts in its data
        directory is there before anything can look. ``None`` forgets the directory's action."""
        self._leading = None
        if action is None:
            self._before_use.pop(normalize(directory), None)
            return
        self._before_use[normalize(directory)] = action
        self._hosts.clear()  # a path resolved before may lead to the directory: check it again

    def _use(self, path: str) -> None:
        """Run the ``before_first_use`` actions of the directories ``path`` leads to (it, one inside it or above)."""
        if self._leading is None:
            self._leading = {up for directory in self._before_use for up in _and_above(directory)}
            self._inside = tuple(directory.rstrip("/") + "/" for directory in self._before_use)
        if path not in self._leading and not path.startswith(self._inside):
            return  # (most paths: told by a set look-up and a prefix test, not by comparing with every directory)
        for directory in [d for d in self._before_use if path == d or d.startswith(path.rstrip("/") + "/")
                          or path.startswith(d + "/")]:
            action = self._before_use.pop(directory, None)
            if action is not None:  # an earlier action may have run it
                action()
        self._leading = None

    def host_path(self, path: str, cwd: str = "/") -> Path:
        """Host path of an Android path (never outside ``root``: ``..`` stops at ``/``)."""
        key = (path, cwd)
        found = self._hosts.get(key)
        if found is None:
            device = normalize(path, cwd)
            if self._before_use:  # a path kept above never leads to one added since: adding clears what is kept
                self._use(device)
            if len(self._hosts) >= _HOST_PATHS_KEPT:
                self._hosts.clear()
            found = self._hosts[key] = self.root / device.lstrip("/")
        return found

    def device_stat(self, host: str | Path, follow_symlinks: bool = True) -> os.stat_result:
        """``stat`` of a sandbox file as the phone shows it: the host's own facts are replaced, the inode by
        ``inode_of``, the device by ``USERDATA_DEVICE`` and the mode of ``/`` by Android's ``drwxr-xr-x`` (the
        host directory is private, 0700). Raises ``OSError`` as ``os.stat`` does."""
        info = os.stat(host, follow_symlinks=follow_symlinks)
        path = "/" + os.fspath(host)[len(os.fspath(self.root)):].strip("/")
        mode = stat_module.S_IFDIR | 0o755 if path == "/" else info.st_mode
        items = (mode, inode_of(path), USERDATA_DEVICE, *tuple(info)[3:])
        return os.stat_result(items, {name: getattr(info, name) for name in _STAT_EXTRAS})

    def exists(self, path: str) -> bool:
        """Whether the Android path exists."""
        return self.host_path(path).exists()

    def is_dir(self, path: str) -> bool:
        """Whether the Android path is a directory."""
        return self.host_path(path).is_dir()

    def read_bytes(self, path: str) -> bytes:
        """Contents of a file (``read_host``); raises ``FileNotFoundError``/``IsADirectoryError`` as the host does."""
        return read_host(self.host_path(path))

    @contextmanager
    def device_writes(self, *hosts: str | Path) -> Iterator[None]:
        """Around a write done with host file APIs (``sqlite3``): afterwards each of ``hosts`` the write
        created or modified carries device time; the ones it left alone keep their times."""
        before = host_times(hosts)
        try:
            yield
        finally:
            self.stamp_changed(hosts, before)

    def stamp_changed(self, hosts: Sequence[str | Path], before: Sequence[int | None]) -> None:
        """Give device time to each of ``hosts`` whose modification time is no longer the one in ``before``
        (``host_times`` taken before a write: the second half of ``device_writes``)."""
        for host, mtime in zip(hosts, before):
            after = _mtime_ns(host)
            if after is not None and after != mtime:
                self._set_device_time(host)

    def sqlite_files(self, path: str) -> tuple[str, ...]:
        """What a write to the SQLite database at ``path`` can change on the host (for ``device_writes``): the
        database, its ``-journal``/``-wal``/``-shm`` side files and its directory, which gains and loses them (host
        paths as strings, which the system calls take as they are)."""
        host = os.fspath(self.host_path(path))
        return (host, *(host + suffix for suffix in SQLITE_SIDE_FILES), os.path.dirname(host))

    def write_bytes(self, path: str, data: bytes, append: bool = False) -> None:
        """Write (or append to) a file; the parent directory must exist, as on Android. A new file changes
        its directory too (both get device time)."""
        self.write_parts(path, (data,), append)

    def write_parts(self, path: str, parts: Iterable[bytes | memoryview], append: bool = False,
                    directory_time: bool = True) -> bool:
        """``write_bytes`` of ``parts`` joined, written one after the other without joining them (a big part is
        copied once, into the file); whether the file is new. ``directory_time`` False: a new file's directory is
        left for the caller to give device time (once after several writes in it: the clock stands still).

        A file that is there is written over in place and then cut to its new length, not emptied first: the same
        bytes and inode, without the pages an emptied file gives back and takes again (a pushed database of 150 kB
        costs half)."""
        host = self.host_path(path)
        new = not os.path.lexists(host)
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else 0)
        with open(os.open(host, flags, 0o666), "ab" if append else "wb") as handle:
            handle.writelines(parts)
            if not (append or new):
                handle.truncate()
        self.stamp(host)
        if new and directory_time:
            self.stamp(host.parent)
        return new

    def makedirs(self, path: str) -> None:
        """``mkdir -p``: new directories, and the existing one the first of them was made in, get device time."""
        missing = []
        host = os.fspath(self.host_path(path))  # (strings and os.path: apps make their folders at every start)
        while not os.path.exists(host):  # up to the first that exists (the root at the latest)
            missing.append(host)
            host = os.path.dirname(host)
        if missing:
            os.makedirs(missing[0], exist_ok=True)
            for directory in (*missing, host):
                self.stamp(directory)

    def listdir(self, path: str) -> list[str]:
        """Sorted entry names of a directory."""
        return sorted(os.listdir(self.host_path(path)))

    def remove_tree(self, path: str) -> None:
        """Remove a file or a directory tree (its directory gets device time); missing paths are ignored."""
        host = self.host_path(path)
        if host.is_dir() and not host.is_symlink():
            shutil.rmtree(host)
        elif host.exists() or host.is_symlink():
            host.unlink()
        else:
            return
        if host != self.root:
            self.stamp(host.parent)

    def clear_dir(self, path: str) -> None:
        """Remove everything inside a directory but keep the directory (device time, if anything went)."""
        host = self.host_path(path)
        if not host.is_dir():
            return
        removed = False
        with os.scandir(host) as children:  # (an entry tells its kind without a stat: the phone's storage has it)
            for child in children:
                if child.is_dir(follow_symlinks=False):
                    shutil.rmtree(child.path)
                else:
                    os.unlink(child.path)
                removed = True
        if removed:
            self.stamp(host)
