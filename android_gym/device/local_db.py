"""Host-side copies of device SQLite databases that stay open between uses (``state.sqlite_query``/``_execute``).

Reading a device database means pulling it and querying it on the host, and opening a database parses its
schema: for an app's database (tens of tables, indexes and triggers) that costs ~0.5 ms, more than the pull,
the query and the push together, and a task's reset reads and writes its app's database several times. A
``LocalDatabase`` keeps one connection per device and database path open on a private host file and, before
each use, brings that file up to date with the bytes just pulled from the device:

* bytes equal to the last ones seen (pulled, or pushed by us) leave the file as it is;
* other bytes overwrite the file in place. SQLite notices a change made by someone else by the file change
  counter at the start of each read transaction (``dbFileVers``, header bytes 24-39, as for another process's
  write; https://www.sqlite.org/fileformat2.html#file_change_counter), drops its page cache and reparses the
  schema only if the schema cookie (bytes 40-43) changed. The counter written is one more than the one the
  connection last saw, so the change is noticed even when the device's counter did not move (WAL-mode writes
  leave it alone unless page 1 changes).

A device that keeps write versions of its files (``SimDevice.file_versions``: numbers that move with every write,
read without reading a file) is asked for those of the database and its side files first: while they are the ones
seen when the bytes were last pulled (or pushed by us), the device still holds those bytes, so a query pulls
nothing and a write pulls only the side files it may have to remove, none if they were missing then (as after a
push of ours, which removes them); side files missing then whose versions stayed are not asked for either when the
database's own versions moved (a rewind wrote its bytes back). A device that tells file digests without
sending the files (``AdbDevice.md5sums``: one ``md5sum`` of the database and its ``-wal``) is asked instead before a
query: when the database still holds the bytes last seen, with no WAL frames beside it, nothing is pulled (a task's
check after a step that wrote nothing costs one small round trip, not two pulls); when it changed, only the
database is pulled unless the ``-wal`` holds frames.

Change-counter detection needs a rollback journal: a WAL database (header bytes 18-19 = 2) finds other writers
through its ``-shm`` index instead. The copy is therefore kept in rollback mode (bytes 18-19 = 1, journal in
memory) and the device's format bytes are restored in what is pushed back, with the device's counter plus one
as any write leaves it (one per transaction, when several are pushed at once); so what is pushed depends only
on the device's bytes and the SQL. A database whose ``-wal`` holds frames is copied with it into a temporary
directory and opened there instead (checkpointed before a write is pushed back). Queries run with ``query_only``
on, so only writes change the copy; nothing is pushed when a write changed nothing (or changed no row, only the
change counter); stale ``-wal``/``-shm`` files are removed only when the device has them.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import os
import shlex
import sqlite3
import threading
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from android_gym.errors import RemoteFileNotFoundError
from android_gym.tempdirs import OwnedDir

from .base import Device

T = TypeVar("T")
_SIDE_FILES = ("-wal", "-shm")
_FORMAT = slice(18, 20)  # file format write and read versions: 1 rollback journal, 2 WAL
_COUNTER = slice(24, 28)  # file change counter
_VALID_FOR = slice(92, 96)  # version-valid-for: the in-header database size is valid when it equals the counter
_HEADER = 100
_EMPTY_MD5 = hashlib.md5(b"").hexdigest()

# Open copies per device (weakly: a device that goes away takes its copies along) and database path.
_COPIES: weakref.WeakKeyDictionary[Any, dict[str, LocalDatabase]] = weakref.WeakKeyDictionary()
_COPIES_LOCK = threading.Lock()


def _with_counter(data: bytes, counter: int, format_bytes: bytes | None = None) -> bytes:
    """``data`` (a database file) with its change counter set to ``counter`` (and version-valid-for with it, if it
    matched the old counter) and, if given, its format bytes replaced."""
    if len(data) < _HEADER:
        return data
    header = bytearray(data[:_HEADER])
    if header[_VALID_FOR] == header[_COUNTER]:
        header[_VALID_FOR] = (counter & 0xFFFFFFFF).to_bytes(4, "big")
    header[_COUNTER] = (counter & 0xFFFFFFFF).to_bytes(4, "big")
    if format_bytes is not None:
        header[_FORMAT] = format_bytes
    return b"".join((header, memoryview(data)[_HEADER:]))  # one copy of the pages, not two


def _counter(data: bytes) -> int:
    return int.from_bytes(data[_COUNTER], "big") if len(data) >= _HEADER else 0


def _pull_optional(device: Device, path: str) -> bytes | None:
    try:
        return device.pull(path)
    except RemoteFileNotFoundError:
        return None


class LocalDatabase:
    """A host copy of the database at ``db_path`` on ``device``, with a connection kept open on it."""

    def __init__(self, db_path: str) -> None:
        self.db_path = db_path
        self._dir = OwnedDir("android-gym-db-")
        self._file = self._dir.path / "copy.db"
        self._file.touch()
        self._connection = sqlite3.connect(self._file, isolation_level=None, check_same_thread=False)
        self._connection.execute("PRAGMA journal_mode=MEMORY")  # a scratch copy: nothing to keep safe
        self._connection.execute("PRAGMA synchronous=OFF")
        self._connection.execute("PRAGMA query_only=ON")  # a query cannot change the copy behind the device's back
        self.pid = os.getpid()  # a forked child makes its own copies
        self._close = weakref.finalize(self, _dispose, self._connection, self._dir)
        self._lock = threading.Lock()
        self._paths = (db_path, db_path + "-wal")  # what ``_digests`` asks about
        self._versioned = (*self._paths, db_path + "-shm")  # what ``_versions`` asks about: every side file too
        self._device_bytes: bytes | None = None  # the device's file as last pulled or pushed
        self._device_md5: str | None = None  # its digest, made when first compared with the device's
        self._device_versions: tuple[int, ...] | None = None  # the files' versions when they held those bytes
        self._sideless = False  # whether the device had no -wal and no -shm then either
        self._local_counter = 0  # the change counter in the copy's file, as the connection last saw it
        self._results: dict[tuple[str, tuple[Any, ...]], list[dict[str, Any]]] = {}  # queries of the copy as it is

    def query(self, device: Device, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        """Rows of ``sql`` on the device database as it is now, as fresh dicts. A query asked again of unchanged
        bytes is answered from the rows it gave (tasks check their app's table after every step, and most steps
        write nothing); the cache is dropped whenever the copy is brought up to date with other bytes."""
        key = (sql, tuple(params))

        def rows(db: sqlite3.Connection) -> list[dict[str, Any]]:
            if db is not self._connection:  # a database with WAL frames, copied for this query alone
                return _dicts(db.execute(sql, key[1]))
            if key not in self._results:
                self._results[key] = _dicts(db.execute(sql, key[1]))
            return [dict(row) for row in self._results[key]]

        return self._use(device, rows, write=False)

    def execute_many(self, device: Device, statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
        """Run ``statements`` in one transaction on the device database and push the result back (stale
        ``-wal``/``-shm`` files removed first); returns the total changed row count. Nothing is pushed when the
        statements changed nothing, nor when ``INSERT``/``UPDATE``/``DELETE`` statements changed no row (a
        ``DELETE`` of an empty table, which would move the file's change counter and nothing else)."""
        return self.execute_transactions(device, [statements])[0]

    def execute_transactions(self, device: Device,
                             transactions: Sequence[Sequence[tuple[str, Sequence[Any]]]]) -> list[int]:
        """``execute_many`` of each of ``transactions`` in order, pushed back once: the device's file ends as a push
        after each would have left it (the same pages, its change counter moved once per transaction that changed
        it), with one pull and push instead of one per transaction. Returns each transaction's changed row
        count."""
        return self._use(device, lambda db: _commit_each(db, transactions), write=True)

    def _digests(self, device: Device) -> dict[str, str] | None:
        """MD5 digests of the database and its ``-wal`` (of those that exist) from a device that tells them without
        sending the files (``md5sums``); ``None`` for one that cannot."""
        md5sums = getattr(device, "md5sums", None)
        return None if md5sums is None else md5sums(self._paths)

    def _versions(self, device: Device) -> tuple[int, ...] | None:
        """Write versions of the database and its side files from a device that keeps them (``file_versions``);
        ``None`` for one that does not."""
        file_versions = getattr(device, "file_versions", None)
        return None if file_versions is None else file_versions(self._versioned)

    def _sides_missing(self, versions: tuple[int, ...] | None) -> bool:
        """Whether the side files, which had none when the device's bytes were last seen (``_sideless``), have none
        still: their ``versions`` (``_versions``) are the ones they had then."""
        seen = self._device_versions
        return self._sideless and versions is not None and seen is not None and versions[1:] == seen[1:]

    def _holds(self, digest: str | None) -> bool:
        """Whether the bytes last seen on the device have ``digest``."""
        if self._device_bytes is None:
            return False
        if self._device_md5 is None:
            self._device_md5 = hashlib.md5(self._device_bytes).hexdigest()
        return digest == self._device_md5

    def _seen(self, data: bytes | None, versions: tuple[int, ...] | None = None, sideless: bool = False) -> None:
        """The device's file now holds ``data`` (``None``: bytes this copy does not hold), with no WAL frames beside
        it, while its files have ``versions`` (``_versions``, taken before they were read); ``sideless``: it has
        no ``-wal`` or ``-shm`` file either."""
        self._device_bytes, self._device_md5, self._device_versions = data, None, versions
        self._sideless = sideless

    def _copy(self, data: bytes, versions: tuple[int, ...] | None, sideless: bool) -> None:
        """The device's database holds ``data`` (with no WAL frames, nor any side file if ``sideless``), its files
        ``versions``: the copy is brought up to date with it."""
        if data == self._device_bytes:
            self._device_versions, self._sideless = versions, sideless
            return
        self._local_counter += 1
        local = _with_counter(data, self._local_counter, b"\x01\x01") if len(data) >= _HEADER else data
        with open(self._file, "r+b") as handle:  # in place: the connection keeps its file
            handle.write(local)
            handle.truncate()
        self._results = {}
        self._seen(data, versions, sideless)

    def _use(self, device: Device, action: Callable[[sqlite3.Connection], T], write: bool) -> T:
        """``action`` on the copy brought up to date with the device; a ``write`` (an action that commits its own
        transactions, ``_commit_each``) is pushed back when it changed the file."""
        with self._lock:
            versions = self._versions(device)
            known = versions is not None and versions == self._device_versions  # nothing written since seen
            if known and not write:
                return action(self._connection)
            digests = None if write or versions is not None else self._digests(device)
            no_frames = digests is not None and digests.get(self.db_path + "-wal", _EMPTY_MD5) == _EMPTY_MD5
            if no_frames and self._holds(digests.get(self.db_path)):
                return action(self._connection)
            data = self._device_bytes if known else device.pull(self.db_path)
            assert data is not None  # versions are kept only with the bytes
            # A -shm without a -wal holds nothing to read (SQLite rebuilds it); it matters only as a file to remove.
            # Side files missing when last seen, with the same versions now, are missing still: not asked for (though
            # the database's own bytes may have moved, as a rewind writes them back).
            unasked = no_frames or self._sides_missing(versions)
            sides = {suffix: None if unasked else _pull_optional(device, self.db_path + suffix)
                     for suffix in _SIDE_FILES if write or suffix == "-wal"}
            if sides["-wal"]:  # frames not yet checkpointed: open the files as they are
                self._seen(None)
                return _use_with_wal(device, self.db_path, data, sides, action, write)
            self._copy(data, versions, sideless=versions is not None and len(sides) == len(_SIDE_FILES)
                       and all(side is None for side in sides.values()))
            headed = len(data) >= _HEADER
            if not write:
                return action(self._connection)
            self._results = {}
            self._connection.execute("PRAGMA query_only=OFF")
            try:
                result = action(self._connection)
            except BaseException:  # an earlier transaction may have committed: the copy is rewritten at next use
                self._local_counter = max(self._local_counter, _counter(self._file.read_bytes()))
                self._seen(None)
                raise
            finally:
                self._connection.execute("PRAGMA query_only=ON")
            with open(self._file, "rb", buffering=0) as file:  # (unbuffered: no terminal test, no seek)
                local = file.read()
            if (_counter(local) == self._local_counter) if headed else local == data:
                return result  # the statements changed nothing (a commit moves the counter): nothing to push
            commits, self._local_counter = _counter(local) - self._local_counter, _counter(local)
            pushed = _with_counter(local, _counter(data) + commits, data[_FORMAT]) if headed else local
            present = [self.db_path + suffix for suffix, side in sides.items() if side is not None]
            removed = not present or device.shell("rm -f " + " ".join(map(shlex.quote, present))).ok
            device.push(pushed, self.db_path)
            self._seen(pushed, self._versions(device), sideless=removed)
            return result


def _execute_many(db: sqlite3.Connection, statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """Run ``statements`` in order (a run of the same SQL as one ``executemany``); the changed row count."""
    changed = 0
    for sql, run in itertools.groupby(statements, key=operator.itemgetter(0)):
        values = [tuple(params) for _, params in run]
        cursor = db.execute(sql, values[0]) if len(values) == 1 else db.executemany(sql, values)
        changed += cursor.rowcount
    return changed


def _commit_each(db: sqlite3.Connection, transactions: Sequence[Sequence[tuple[str, Sequence[Any]]]]) -> list[int]:
    """Each of ``transactions`` run (``_execute_many``) and committed in order; one whose ``INSERT``/``UPDATE``/
    ``DELETE`` statements changed no row is rolled back instead (a commit would move the file's change counter and
    nothing else). Each one's changed row count."""
    counts = []
    for statements in transactions:
        changes = db.total_changes
        db.execute("BEGIN IMMEDIATE")
        try:
            counts.append(_execute_many(db, statements))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        rows_only = all(map(_changes_rows_only, {sql for sql, _ in statements}))
        db.execute("ROLLBACK" if rows_only and db.total_changes == changes else "COMMIT")
    return counts


def _changes_rows_only(sql: str) -> bool:
    """Whether ``sql`` is an ``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE``: what it changes, SQLite counts in
    ``total_changes`` (schema statements and pragmas it does not)."""
    return sql.lstrip()[:7].upper().startswith(("INSERT", "UPDATE", "DELETE", "REPLACE"))


def _dicts(cursor: sqlite3.Cursor) -> list[dict[str, Any]]:
    """The rows of ``cursor`` as dicts, as ``dict(sqlite3.Row)`` makes them; zipped with the column names, which is
    several times faster, unless names repeat (a ``Row`` then gives each the first of its columns)."""
    names = [column[0] for column in cursor.description or ()]
    if len(set(map(str.lower, names))) == len(names):
        return [dict(zip(names, values)) for values in cursor]
    return [dict(sqlite3.Row(cursor, values)) for values in cursor]


def _dispose(connection: sqlite3.Connection, directory: OwnedDir) -> None:
    connection.close()
    directory.remove()  # only in the process that made it, not a forked child


def _use_with_wal(device: Device, db_path: str, data: bytes, sides: dict[str, bytes | None],
                  action: Callable[[sqlite3.Connection], T], write: bool) -> T:
    """``action`` on a fresh copy of the database with its side files (a WAL with frames), pushed back if
    ``write`` (checkpointed, the device's side files removed)."""
    with OwnedDir("android-gym-db-") as directory:
        local = directory.path / "copy.db"
        local.write_bytes(data)
        for suffix, side in sides.items():
            if side is not None:
                Path(f"{local}{suffix}").write_bytes(side)
        connection = sqlite3.connect(local, isolation_level=None)
        try:
            if not write:
                return action(connection)
            connection.execute("PRAGMA synchronous=OFF")
            result = action(connection)
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            connection.close()
        device.shell("rm -f " + " ".join(shlex.quote(db_path + suffix) for suffix in _SIDE_FILES))
        device.push(local.read_bytes(), db_path)
        return result


def local_database(device: Device, db_path: str) -> LocalDatabase:
    """The open copy of ``db_path`` on ``device`` (made on first use; a device that cannot be weakly referenced
    gets a new copy each time)."""
    with _COPIES_LOCK:
        try:
            copies = _COPIES.setdefault(device, {})
        except TypeError:
            return LocalDatabase(db_path)
        if db_path not in copies or copies[db_path].pid != os.getpid():
            copies[db_path] = LocalDatabase(db_path)
        return copies[db_path]
