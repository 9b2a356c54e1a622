"""What the SQLite-backed content providers share (telephony's ``mmssms.db``, contacts' ``contacts2.db``).

A provider owns one database file under its package's data directory. The file is created with the provider's
schema when it is missing or empty (the provider's ``onCreate``), so ``pm clear`` or a deleted file brings back
an empty database; writes run in transactions whose file changes carry device time, as on the phone. A connection
closes after its work, unless the provider is ``holding`` (one shell command line): then the first one stays open
until the end, as the provider's process keeps its database open between calls, and in WAL mode the line's writes
share one transaction, committed before anything else may look at the files (``settle``). In rollback-journal mode
it stays open after the line too, for the next, while the database is the same file: opening one parses the whole
schema, which costs more than most writes. Holding is per thread: a
shell served over adb that waits for input lets another service's command run meanwhile, with a connection of its
own.
Reads outside that, and a line's reads before it holds a connection, go to one reader of the database file's committed
bytes, opened ``immutable`` and kept while the bytes stay the same: it takes no locks and makes no side files, so no
app or pull sees a trace of it. A batch of writes outside a line (``write_batch``: a task's contacts, a media scan)
goes, in the same way, to a kept writable copy of the committed bytes, whose result is written back as the WAL commit
and checkpoint of a connection of the provider's own would leave the file.
"""

from __future__ import annotations

import functools
import os
import pickle
import posixpath
import sqlite3
import stat
import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import ClassVar, TypeVar

from android_gym.sim.system.fs import host_times
from android_gym.sim.system.services import SystemServices
from android_gym.tempdirs import OwnedDir

# Per provider class, journal mode, schema and ``created_alike``: the bytes of a new database file (``_new_image``).
_NEW_IMAGES: dict[tuple[type, str, tuple[str, ...], bool], bytes] = {}
T = TypeVar("T")


class SqliteProvider:
    """Base of a provider backed by ``db_path``; subclasses set ``db_path``, ``schema`` and ``journal_mode`` and
    may extend ``on_create`` (rows the provider puts in a new database) and ``on_connect`` (SQL functions)."""

    db_path: ClassVar[str] = ""
    schema: ClassVar[tuple[str, ...]] = ()
    #: ``TRUNCATE`` (a rollback journal) or ``WAL``, as the provider's ``SQLiteOpenHelper`` opens it.
    journal_mode: ClassVar[str] = "TRUNCATE"
    #: Whether ``on_create`` puts the same rows in every new database, whatever the phone's state (its clock): then
    #: they are part of the file made once per process (``_new_image``), and a new database needs no connection.
    created_alike: ClassVar[bool] = True

    def __init__(self, phone: SystemServices) -> None:
        self._phone = phone
        self._thread = threading.local()  # holding (bool) and held (the connection and the file it opened)
        self._reads: dict[Hashable, bytes] = {}  # what ``cached`` read, pickled, for the files' bytes below
        self._read_from: tuple[bytes | None, bytes | None] | None = None
        self._read_versions: tuple[int, ...] | None = None  # the files' versions when ``_read_from`` was read
        self._data_version = 0  # moves whenever ``_read_from`` holds other data (``data_version``)
        self._reader: _Snapshot | None = None  # ``_snapshot``'s, made at the first read
        self._bench: _Bench | None = None  # ``write_batch``'s, made at the first write on a copy
        self.ensure_db()

    def ensure_db(self) -> None:
        """Create the database with the schema if its file is missing or empty; a database whose tables were
        merely emptied is kept."""
        if self._in_held_transaction():  # the file a transaction is open on stays until it ends
            return
        host = self._phone.fs.host_path(self.db_path)
        try:
            info = os.stat(host)
        except OSError:
            info = None
        if info is not None and stat.S_ISREG(info.st_mode) and info.st_size > 0:  # one stat, not two
            return
        self._release()  # a connection held to the file that is gone
        self._phone.fs.makedirs(posixpath.dirname(self.db_path))
        image = self._new_image()
        with self._phone.fs.device_writes(*self._files):
            for file in self._files[:-1]:  # the database and its side files, not their directory
                _unlink(file)
            host.write_bytes(image)
            if not self.created_alike:
                self._create(host)

    def _create(self, host: Path) -> None:
        """Run ``on_create`` on the new database at ``host`` in one transaction."""
        with closing(self._open(host)) as db, db:
            self.on_create(db)

    def _new_image(self) -> bytes:
        """The file of a new database: the schema's, with ``on_create``'s rows if ``created_alike``. Made once per
        provider class and process in the same steps as on the phone, then copied, which costs a fraction of
        running the schema's statements (each its own commit) again, or of a connection that parses them."""
        key = (type(self), self.journal_mode, self.schema, self.created_alike)
        if key not in _NEW_IMAGES:
            with OwnedDir("android-gym-schema-") as scratch:
                path = scratch.path / "schema.db"
                with closing(self._open(path)) as db, db:
                    db.execute("PRAGMA synchronous=OFF")  # a scratch file
                    for statement in self.schema:
                        db.execute(statement)
                if self.created_alike:
                    self._create(path)
                _NEW_IMAGES[key] = path.read_bytes()
        return _NEW_IMAGES[key]

    def on_create(self, db: sqlite3.Connection) -> None:
        """Fill a database just created (default: nothing); set ``created_alike`` False if what it writes depends
        on the phone."""

    def cached(self, key: Hashable, read: Callable[[], T]) -> T:
        """What ``read()`` returns (a read of the database by fixed SQL with deterministic functions, named by
        ``key``), read again only after the database changed: kept while the database file and its ``-wal`` hold
        the same bytes, or the same but the header's counters (``_same_data``), so any write that changes data (the
        provider's own, the shell's ``sqlite3``, a push, ``pm clear``) drops it, and an app that redraws without
        writing reads nothing. The bytes are read only when a write
        was recorded to the files (``FileSystem.versions``). Each call returns a fresh copy."""
        self._bytes()
        if key not in self._reads:
            self._reads[key] = pickle.dumps(read(), protocol=pickle.HIGHEST_PROTOCOL)
        return pickle.loads(self._reads[key])

    def data_version(self) -> int:
        """A number that moves whenever the database's data changes (when what ``cached`` kept is dropped) and
        only then: equal numbers, equal reads, and no query made to tell (a screen that shows the database tells
        what it shows by it, ``Screen.shown``)."""
        self._bytes()
        return self._data_version

    def _bytes(self) -> tuple[bytes | None, bytes | None]:
        """The bytes of the database file and its ``-wal`` as they are now (the same objects while they stay the
        same), read again only when their versions moved; bytes that hold other data drop what ``cached`` kept."""
        if self.versions() != self._read_versions:
            self.ensure_db()
            versions = self.versions()  # ensure_db may have written; taken before the bytes are read
            content = self._content()
            if content != self._read_from:
                if not _same_data(content, self._read_from):
                    self._reads = {}
                    self._data_version += 1
                self._read_from = content
            self._read_versions = versions
        return self._read_from

    def versions(self) -> tuple[int, ...]:
        """The write versions of the database file and its ``-wal`` (``FileSystem.versions``): the same while they
        hold the same bytes."""
        return self._phone.fs.versions(self.db_path, self.db_path + "-wal")

    def _content(self) -> tuple[bytes | None, bytes | None]:
        """The bytes of the database file and of its ``-wal`` (``None``: no such file)."""
        database = self._phone.fs.host_path(self.db_path)
        return _bytes_or_none(database), _bytes_or_none(database.with_name(database.name + "-wal"))

    def connect(self) -> sqlite3.Connection:
        """A new connection to the host file in the provider's journal mode; the caller closes it. Reads go through
        ``reading``, writes through the provider's transactions, which ``cached`` counts."""
        return self._open(self._phone.fs.host_path(self.db_path))

    def _open(self, host: Path) -> sqlite3.Connection:
        db = sqlite3.connect(host, timeout=5)
        db.execute(f"PRAGMA journal_mode={self.journal_mode}")
        self.on_connect(db)
        return db

    def on_connect(self, db: sqlite3.Connection) -> None:
        """Register the SQL functions the provider's queries use (default: none)."""

    @functools.cached_property
    def _files(self) -> tuple[str, ...]:
        """The database, every side file it may have and their directory."""
        return self._phone.fs.sqlite_files(self.db_path)

    @functools.cached_property
    def _written(self) -> tuple[str, ...]:
        """What the provider's connections can change on the host: the database, the side files of its journal mode
        (``-wal`` and ``-shm`` in WAL mode, which never makes a ``-journal``; else the ``-journal``) and their
        directory."""
        database, journal, wal, shm, folder = self._files
        return (database, wal, shm, folder) if self._wal else (database, journal, folder)

    @functools.cached_property
    def _wal(self) -> bool:
        """Whether the provider's database is in WAL mode."""
        return self.journal_mode.upper() == "WAL"

    def holding(self) -> _Holding:
        """Inside, the provider's reads and writes share one connection, closed on the way out, so SQLite
        checkpoints the WAL (and removes the side files) once instead of after every call. In WAL mode the writes
        share one transaction as well, each in a savepoint of its own (a write that fails is undone alone), which
        ``settle`` commits, and the way out: the WAL gets each page the writes changed once, not once per write
        (seeding contacts costs a fifth to a third less). The database ends as it would with a commit per write: a WAL
        commit leaves the pages as they are and moves the file change counter only when it changes page 1 (the
        file grew or shrank), so the counter alone can differ, and only where a write grew the file."""
        return _Holding(self)

    def _batching(self) -> bool:
        """Whether writes go into the held transaction (``holding`` in WAL mode) rather than commit each."""
        return self._wal and getattr(self._thread, "holding", False)

    def _in_held_transaction(self) -> bool:
        """Whether this thread's held connection is in the transaction ``holding`` keeps for its writes (nothing but
        the provider's own writes and reads can come between its first write and ``settle``)."""
        held = getattr(self._thread, "held", None)
        return held is not None and held[1].in_transaction

    def settle(self) -> None:
        """Commit the writes this thread's ``holding`` keeps in its transaction, so that anything else reading the
        database (another connection, a command reading its files) sees them; the files changed since the
        transaction began (the connection opened, the writes, the commit) then carry device time."""
        if self._in_held_transaction():
            db = self._thread.held[1]
            self.before_commit(db)
            db.commit()
            self._phone.fs.stamp_changed(self._written, self._thread.times)

    def before_commit(self, db: sqlite3.Connection) -> None:
        """Write, on the held connection ``db`` just before ``settle`` commits it, what the provider's writes put off
        until the line's transaction ends (default: nothing)."""

    def _release(self, keep: bool = False) -> None:
        """Commit this thread's held connection, if there is one, and close it (the files its closing changes carry
        device time), unless asked to ``keep`` it and the database has a rollback journal: closing a WAL database's
        last connection checkpoints it and removes its side files, as the provider's process does between calls."""
        self.settle()
        held = getattr(self._thread, "held", None)
        if held is not None and not (keep and not self._wal):
            self._thread.held = None
            with self._phone.fs.device_writes(*self._written):
                held[1].close()

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """``_connected``'s connection, closed afterwards when it is a new one."""
        db, new = self._connected()
        try:
            yield db
        finally:
            if new:
                db.close()

    def _connected(self) -> tuple[sqlite3.Connection, bool]:
        """The held connection while ``holding`` (opened on first use, or kept from an earlier line while the
        database is the same file: same device and inode), else a new one, which the caller closes (the second
        value says which). SQLite notices what other connections wrote meanwhile by the file's change counter, as
        it does for another process's writes."""
        if not getattr(self._thread, "holding", False):
            return self.connect(), True
        file = _file_id(self._phone.fs.host_path(self.db_path))
        held = getattr(self._thread, "held", None)
        if held is not None and held[0] != file:
            self._release()  # the file was replaced (removed and made again): its connection goes with it
            held = None
        if held is None:
            held = self._thread.held = file, self.connect()
        return held[1], False

    @contextmanager
    def reading(self, rows: type | None = sqlite3.Row) -> Iterator[sqlite3.Connection]:
        """A query-only connection (rows as ``rows``) to a database that exists: the reader of its committed bytes
        (``_snapshot``) when there is one and no connection is held (a line's writes are only in the held one until
        they are settled, and a rollback-journal database's connection kept from line to line costs nothing to
        read with), else the held or a new connection. A read in WAL mode on a connection creates and removes side
        files, which changes their directory: it carries device time, not the host's."""
        found = self._snapshot() if self._reads_snapshot() else None
        if found is not None:
            snapshot, database = found
            with snapshot.reading(database, rows) as reader:
                yield reader
            return
        self.ensure_db()
        with self._phone.fs.device_writes(*self._written), self._connection() as db:
            db.execute("PRAGMA query_only=ON")
            db.row_factory = rows
            try:
                yield db
            finally:
                db.execute("PRAGMA query_only=OFF")
                db.row_factory = None

    def _reads_snapshot(self) -> bool:
        """Whether ``reading`` may read the committed bytes (``_snapshot``): this thread holds no connection."""
        return not getattr(self._thread, "holding", False) or getattr(self._thread, "held", None) is None

    def _snapshot(self) -> tuple[_Snapshot, bytes] | None:
        """The reader of the committed bytes (``_Snapshot``: a private copy, so what a real app or a pull would see of
        the files is untouched) and the database file's bytes now (``_committed``)."""
        database = self._committed()
        if database is None:
            return None
        if self._reader is None:
            self._reader = _Snapshot(self.on_connect)
        return self._reader, database

    def _committed(self) -> bytes | None:
        """The database file's bytes now; ``None`` while the file alone is not the committed database: a ``-wal``
        holds changes, or a ``-journal`` with content may be hot."""
        database, wal = self._bytes()
        if database is None or wal is not None or _size(self._files[1]):
            return None
        return database

    def write_batch(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """``write(db)``, the provider's writes, in one transaction, as a line that holds a connection (``holding``)
        makes them, put-off work included (``before_commit``). In WAL mode, with no connection held by this thread
        and the file alone holding the committed database, they are made on a private copy of its bytes whose
        schema stays parsed from write to write (``_Bench``), and the file is written as the commit and the
        checkpoint of a connection of its own would leave it (``_as_wal_commit``; its directory, which would gain
        and lose the side files, carries device time too): a connection to the file parses the whole schema, and
        opening and closing it in WAL mode costs as much again, more than a few rows' writes (seeding contacts
        into the new database ``pm clear`` leaves costs a third less)."""
        with self.holding():
            database = self._committed() if self._wal and getattr(self._thread, "held", None) is None else None
            if database is None or len(database) < _HEADER:
                with self._transaction() as db:
                    return write(db)

            def batch(db: sqlite3.Connection) -> T:
                result = write(db)
                self.before_commit(db)
                return result

            if self._bench is None:
                self._bench = _Bench(self.on_connect)
            after, result = self._bench.write(database, batch)
            host, *_, folder = self._files
            with self._phone.fs.device_writes(host), open(host, "r+b") as handle:  # in place, as a checkpoint writes
                handle.write(_as_wal_commit(database, after))
                handle.truncate()
            self._phone.fs.stamp(folder)
            return result

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection in a transaction committed on exit (while ``holding`` in WAL mode: a savepoint in the held
        transaction, committed by ``settle``); the files the write changed then carry device time, as the
        provider's writes do on the phone (sqlite3 on the host stamps them with the wall clock)."""
        if not self._batching():  # (``device_writes`` around ``_connection``, spelt out: a write costs less)
            before = host_times(self._written)
            db, new = self._connected()
            try:
                with db:
                    yield db
            finally:
                if new:
                    db.close()
                self._phone.fs.stamp_changed(self._written, before)
            return
        if not self._in_held_transaction():  # the line's first write: the files' times before it, for ``settle``
            times = host_times(self._written)
            with self._connection() as db:
                db.execute("BEGIN")
            self._thread.times = times
        db = self._thread.held[1]
        db.execute("SAVEPOINT provider_write")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK TO provider_write")
            raise
        finally:
            db.execute("RELEASE provider_write")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """An app's write from its own screens: ``_transaction`` on a database that exists (``ensure_db``: made again
        if it was deleted), then the screen redraws."""
        self.ensure_db()
        with self._transaction() as db:
            yield db
        self._phone.invalidate()


class _Holding:
    """The context of ``SqliteProvider.holding``: the way in makes the provider hold for this thread unless an outer
    context does, the way out of that context releases what it held (``_release``, keeping a rollback-journal
    connection). A class rather than a generator: every shell line enters two."""

    __slots__ = ("_provider", "_outer")

    def __init__(self, provider: SqliteProvider) -> None:
        self._provider = provider
        self._outer = False

    def __enter__(self) -> None:
        thread = self._provider._thread
        if not getattr(thread, "holding", False):
            thread.holding = self._outer = True

    def __exit__(self, *exc_info: object) -> None:
        if self._outer:
            self._provider._thread.holding = False
            self._provider._release(keep=True)


class _Snapshot:
    """A query-only connection to a private copy of a database file's bytes, written over in place when they change,
    with a change counter of its own that moves each time (so SQLite drops the pages it read) and the rollback-journal
    format (the copy has no ``-wal``): the schema SQLite parsed stays parsed while the copy's ``sqlite_master`` rows
    (root pages included) stay the same, where a new connection for new bytes would parse it again, which costs more
    than most reads (a reset's first read of the contacts ten times the query). A copy whose schema differs gets a
    new connection. One thread reads at a time (a shell served over adb runs on a thread of its own): the copy is not
    written over under another's read."""

    def __init__(self, on_connect: Callable[[sqlite3.Connection], None]) -> None:
        self._on_connect = on_connect
        self._dir = OwnedDir("android-gym-snapshot-")  # removed with this object
        self._file = self._dir.path / "copy.db"
        self._data: bytes | None = None  # the bytes copied last
        self._writes = 0  # how many times the copy was written: its change counter
        self._connection: sqlite3.Connection | None = None
        self._schema: list[tuple] = []  # the ``sqlite_master`` rows the connection parsed
        self._lock = threading.RLock()

    @contextmanager
    def reading(self, data: bytes, rows: type | None) -> Iterator[sqlite3.Connection]:
        """The connection (rows as ``rows``), reading a copy of ``data`` (a database file's bytes), to this thread
        alone in the block."""
        with self._lock:
            connection = self._copy(data)
            connection.row_factory = rows
            try:
                yield connection
            finally:
                connection.row_factory = None

    def _copy(self, data: bytes) -> sqlite3.Connection:
        """The connection, once the copy holds ``data``."""
        if data is not self._data or self._connection is None:
            self._writes += 1
            with open(self._file, "wb" if self._connection is None else "r+b") as handle:  # the connection keeps it
                handle.write(_copied(data, self._writes))
                handle.truncate()
            self._data = data
            if self._connection is None or self._connection.execute(_SCHEMA).fetchall() != self._schema:
                if self._connection is not None:
                    self._connection.close()
                self._connection = self._open()
                self._on_connect(self._connection)
                self._schema = self._connection.execute(_SCHEMA).fetchall()
        return self._connection

    def _open(self) -> sqlite3.Connection:
        """A new connection to the copy."""
        return sqlite3.connect(f"{self._file.as_uri()}?mode=ro", uri=True, check_same_thread=False)


class _Bench(_Snapshot):
    """A ``_Snapshot`` that writes: a transaction on a copy of a database file's bytes (the journal in memory: the
    copy is scratch), after which ``write`` gives the copy's bytes."""

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self._file, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=MEMORY")
        connection.execute("PRAGMA synchronous=OFF")
        # The pages it read go with the next copy (its change counter moves): a page cache for one transaction's
        # pages, not SQLite's 2 MB, so the kept connection costs an env its schema and little more.
        connection.execute(f"PRAGMA cache_size=-{_BENCH_CACHE_KIB}")
        return connection

    def write(self, data: bytes, action: Callable[[sqlite3.Connection], T]) -> tuple[bytes, T]:
        """``action(connection)`` in one transaction on a copy of ``data``; the copy's bytes after the commit (in the
        rollback-journal format, the copy's own change counter in them) and what ``action`` returned."""
        with self._lock:
            connection = self._copy(data)
            self._data = None  # the copy is about to hold other bytes: the next is written in
            self._writes += 1  # with a counter past the one this commit leaves, so SQLite drops the pages it read
            connection.execute("BEGIN")
            try:
                result = action(connection)
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")
            return self._file.read_bytes(), result


#: The page cache of ``_Bench``'s connection, in KiB (SQLite's ``cache_size`` when negative).
_BENCH_CACHE_KIB = 64
#: What a connection's parsed schema is made of: every ``sqlite_master`` row (page 1, read as it is in the file).
_SCHEMA = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid"
#: The database header (SQLite's file format, 1.3): its size, the file format bytes (1: rollback journal, 2: WAL),
#: and the fields a write transaction moves even when it changes no page, the file change counter and the
#: version-valid-for number, four bytes each.
_HEADER, _FORMAT, _CHANGE_COUNTER, _VALID_FOR = 100, slice(18, 20), slice(24, 28), slice(92, 96)
_COUNTERS = (_CHANGE_COUNTER, _VALID_FOR)
_PAGE_SIZE, _VERSION = slice(16, 18), slice(96, 100)  # the page size (1: 65536); the SQLite that last wrote page 1


def _as_wal_commit(before: bytes, after: bytes) -> bytes:
    """The file a WAL database's commit leaves, checkpointed, that turned its file's bytes ``before`` (no frames
    beside them) into the pages ``after`` (the bytes a rollback-journal copy of ``before`` had after the same
    commit): ``after`` in ``before``'s format, whose change counter (and version-valid-for and SQLite's version
    with it) moved one on from ``before``'s only if the commit changed page 1 otherwise. A rollback-journal commit
    always writes the counter; in WAL mode it is written as page 1 goes to the log (``pager_write_changecounter``),
    which only a change to page 1 sends (the file grew, a table was made)."""
    header = bytearray(after[:_HEADER])
    header[_FORMAT] = before[_FORMAT]
    page = int.from_bytes(before[_PAGE_SIZE], "big")
    page = 65536 if page == 1 else page
    if _page_one(after, page) == _page_one(before, page):
        for field in (_CHANGE_COUNTER, _VALID_FOR, _VERSION):
            header[field] = before[field]
    else:
        header[_CHANGE_COUNTER] = header[_VALID_FOR] = ((int.from_bytes(before[_CHANGE_COUNTER], "big") + 1)
                                                       & 0xFFFFFFFF).to_bytes(4, "big")
    return bytes(header) + after[_HEADER:]


def _page_one(data: bytes, size: int) -> bytes:
    """A database file's first page but for what a commit writes to it alone: the format bytes, the counters and
    the version."""
    header = bytearray(data[:_HEADER])
    for field in (_FORMAT, _CHANGE_COUNTER, _VALID_FOR, _VERSION):
        header[field] = bytes(field.stop - field.start)
    return bytes(header) + data[_HEADER:size]


def _copied(data: bytes, counter: int) -> bytes:
    """A database file's bytes ``data`` in the rollback-journal format, its change counter ``counter`` (and
    version-valid-for with it, when it matched)."""
    if len(data) < _HEADER:
        return data
    header = bytearray(data[:_HEADER])
    header[_FORMAT] = b"\x01\x01"
    number = (counter & 0xFFFFFFFF).to_bytes(4, "big")
    if header[_VALID_FOR] == header[_CHANGE_COUNTER]:
        header[_VALID_FOR] = number
    header[_CHANGE_COUNTER] = number
    return bytes(header) + data[_HEADER:]


def _same_data(content: tuple[bytes | None, bytes | None], before: tuple[bytes | None, bytes | None] | None) -> bool:
    """Whether the database file and ``-wal`` bytes ``content`` hold the data ``before`` held: the same ``-wal`` and
    the same file but for the header's counters (``_COUNTERS``), so every query reads the same rows (a reset's
    ``DELETE`` of a table already empty moves only the change counter)."""
    if before is None or content[1] != before[1]:
        return False
    database, old = content[0], before[0]
    if database is None or old is None or len(database) != len(old):
        return database == old
    start = 0
    for field in _COUNTERS:
        if database[start:field.start] != old[start:field.start]:
            return False
        start = field.stop
    return database[start:] == old[start:]


def _file_id(path: Path) -> tuple[int, int] | None:
    """Which file ``path`` is (its device and inode), ``None`` when there is none."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def _unlink(path: str) -> None:
    """Remove a file if there is one."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _size(path: str) -> int:
    """A file's size, 0 when there is no such file."""
    try:
        return os.stat(path).st_size
    except FileNotFoundError:
        return 0


def _bytes_or_none(path: Path) -> bytes | None:
    """A file's bytes, ``None`` when there is no such file."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
