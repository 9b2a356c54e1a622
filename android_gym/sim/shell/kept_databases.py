"""Connections the shell's ``sqlite3`` keeps open from one command line to the next.

The real command-line shell opens its database at every run, and opening one parses its whole schema: for the
telephony provider's ``mmssms.db`` (tens of tables and triggers) that costs three times the two ``DELETE``s a reset
runs on it. A connection kept between runs is invisible from outside only while nothing it keeps differs from a
new one's, so one is kept only

* on a database with a rollback journal, which leaves no side files behind between transactions (a ``WAL``
  database keeps its ``-wal`` and ``-shm`` while a connection is open);
* outside a transaction, so it holds no lock between command lines (an unfinished ``BEGIN`` is rolled back by
  closing it, as the real shell's exit does);
* after SQL that cannot leave or read anything of a connection's own (``CONNECTION_STATE``: pragmas, temporary
  tables, ``changes()`` and ``last_insert_rowid()``): such SQL gets a new connection, closed after it;

and it is used again only while it reads the same file as SQLite would on a new connection: while the database
and its side files hold the bytes it left them with (their write versions, ``FileSystem.versions``, which move with
every write, removal or rename by anyone, are the ones taken when it was kept), or, when someone wrote meanwhile
(the provider behind the database, a push over it), while the path still names the file the connection has open
(same device and inode), its header's change counter moved and its schema (the ``sqlite_master`` rows) is the one
the connection knows. SQLite checks that counter (``dbFileVers``, header bytes 24-39) at the start of every
transaction and drops its page cache when it moved, as it does for another process's write; a schema changed
meanwhile moves the schema cookie, and SQLite then reads the schema again itself. A file written with the counter it
had is the same file to SQLite: the connection is used again only if it holds the very bytes it held when it was kept
(a reset's rewind writes them back after a provider's rows: then a new connection would parse the schema again for
nothing), told by a copy of them kept with the connection (``CONTENT_BYTES``). Anything else (a file replaced,
removed, or written with other bytes and the counter it had) closes the kept connection, and the run opens a new
one. At most ``LIMIT`` are kept (the least recently used goes first); the phone closes them with itself.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from android_gym.sim.system.fs import SQLITE_SIDE_FILES

#: SQL that sets or reads what belongs to a connection rather than to the database file (the words as SQL names,
#: anywhere in the text: a string that merely contains one only costs a new connection).
CONNECTION_STATE = re.compile(r"\b(pragma|temp|temporary|changes|total_changes|last_insert_rowid)\b", re.IGNORECASE)
LIMIT = 4
#: The largest database file whose bytes a kept connection keeps (``_Kept.content``): at most ``LIMIT`` times this
#: much is held (the telephony provider's ``mmssms.db`` starts at 84 KiB).
CONTENT_BYTES = 1 << 20
_HEADER = slice(24, 44)  # dbFileVers (change counter, size, freelist) and the schema cookie
_SCHEMA = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid"


class _Files(Protocol):
    def versions(self, *paths: str) -> tuple[int, ...]:
        ...

    def host_path(self, path: str) -> Path:
        ...


@dataclass
class _Kept:
    """A kept connection and what its database was when it was kept."""

    connection: sqlite3.Connection
    versions: tuple[int, ...]  # of the database and its side files
    file: tuple[int, int]  # the database file's device and inode
    header: bytes  # its header's bytes 24-43
    schema: list[tuple]  # its sqlite_master rows
    content: bytes | None  # its bytes, if at most CONTENT_BYTES


class KeptDatabases:
    """The connections kept for ``sqlite3`` runs, by the Android path of their database; ``files`` tells the write
    versions of the phone's files."""

    def __init__(self, files: _Files) -> None:
        self._files = files
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._taken: dict[str, _Kept] = {}  # the connections handed out by ``take``, as they were then
        self._lock = threading.Lock()  # a served phone's shells run in threads of their own
        self._pid = os.getpid()  # a forked child does not use its parent's connections

    def take(self, path: str) -> sqlite3.Connection | None:
        """The connection kept for the database at ``path`` if it reads that file as a new one would (it is no
        longer kept: hand it back with ``keep``); else ``None``, and a stale one is closed."""
        with self._lock:
            if self._pid != os.getpid():
                self._kept, self._taken, self._pid = OrderedDict(), {}, os.getpid()
            kept = self._kept.pop(path, None)
        if kept is None:
            return None
        taken = kept if self._versions(path) == kept.versions else self._changed_by_sqlite(path, kept)
        if taken is None:
            kept.connection.close()
            return None
        with self._lock:
            self._taken[path] = taken
        return kept.connection

    def keep(self, path: str, connection: sqlite3.Connection) -> None:
        """Keep ``connection`` (whose last SQL had nothing of ``CONNECTION_STATE``) for the next run on ``path``
        when that changes nothing anyone can see; else close it. Called after the run's writes are all done."""
        header = _header(self._files.host_path(path), whole=True)
        with self._lock:
            taken = self._taken.pop(path, None)
        if taken is not None and taken.connection is not connection:
            taken = None  # (another thread's run on the same database took the kept one)
        # A connection taken was kept outside WAL mode and ran no pragma since (``CONNECTION_STATE``).
        if connection.in_transaction or header is None or (taken is None and _wal(connection)):
            connection.close()
            return
        # Its schema is the one it was taken with while the schema cookie (header bytes 40-43) is, in the same file:
        # only its own SQL ran since, and SQL that changes the schema moves the cookie.
        same = taken is not None and taken.file == header[0] and taken.header[16:] == header[1][16:]
        kept = _Kept(connection, self._versions(path), header[0], header[1],
                     taken.schema if same else _schema(connection), header[2])
        with self._lock:
            self._kept[path] = kept
            evicted = self._kept.popitem(last=False)[1].connection if len(self._kept) > LIMIT else None
        if evicted is not None:
            evicted.close()

    def close(self) -> None:
        """Close every kept connection."""
        with self._lock:
            kept, self._kept, self._taken = self._kept, OrderedDict(), {}
        for each in kept.values():
            each.connection.close()

    def _versions(self, path: str) -> tuple[int, ...]:
        return self._files.versions(path, *(path + suffix for suffix in SQLITE_SIDE_FILES))

    def _changed_by_sqlite(self, path: str, kept: _Kept) -> _Kept | None:
        """``kept`` with the header the database at ``path`` has now, when, written since ``kept`` was kept, it is the
        same file with a moved change counter (which makes SQLite drop its page cache) and the same schema, or with
        the counter it had and the bytes it had (SQLite's cache is right); else ``None``."""
        header = _header(self._files.host_path(path), whole=kept.content is not None)
        if header is None or header[0] != kept.file:
            return None
        if header[1][:4] == kept.header[:4]:
            return kept if header[2] is not None and header[2] == kept.content else None
        try:
            same = _schema(kept.connection) == kept.schema
        except sqlite3.Error:  # not a database any more
            return None
        return dataclasses.replace(kept, header=header[1]) if same else None


def _header(host: Path, whole: bool = False) -> tuple[tuple[int, int], bytes, bytes | None] | None:
    """The device and inode of the database file at ``host``, its header's bytes 24-43 and, if ``whole``, its bytes
    when they are at most ``CONTENT_BYTES`` (else ``None``); ``None`` when there is no such file or it has no header
    (a new, empty database)."""
    try:
        fd = os.open(host, os.O_RDONLY)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        content = os.pread(fd, info.st_size, 0) if whole and info.st_size <= CONTENT_BYTES else None
        header = content[_HEADER] if content is not None else os.pread(fd, _HEADER.stop - _HEADER.start, _HEADER.start)
    except OSError:  # a directory
        return None
    finally:
        os.close(fd)
    return ((info.st_dev, info.st_ino), header, content) if len(header) == _HEADER.stop - _HEADER.start else None


def _schema(connection: sqlite3.Connection) -> list[tuple]:
    """The ``sqlite_master`` rows of the connection's database, its texts as bytes (only compared: not decoded by
    the shell's text factory, a Python call per text)."""
    decode, connection.text_factory = connection.text_factory, bytes
    try:
        return connection.execute(_SCHEMA).fetchall()
    finally:
        connection.text_factory = decode


def _wal(connection: sqlite3.Connection) -> bool:
    """Whether the connection's database is in WAL mode (it then keeps side files while open)."""
    return connection.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
