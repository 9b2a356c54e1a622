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

and it is used again only while the database and its side files hold the bytes it left them with: their write
versions (``FileSystem.versions``, which move with every write, removal or rename by anyone) are the ones taken
when it was kept. A file written meanwhile by anyone else (a provider, a push, ``rm``, ``mv``) closes the kept
connection and the next run opens a new one. At most ``LIMIT`` are kept (the least recently used goes first);
the phone closes them with itself.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
from collections import OrderedDict
from typing import Protocol

#: SQL that sets or reads what belongs to a connection rather than to the database file (the words as SQL names,
#: anywhere in the text: a string that merely contains one only costs a new connection).
CONNECTION_STATE = re.compile(r"\b(pragma|temp|temporary|changes|total_changes|last_insert_rowid)\b", re.IGNORECASE)
LIMIT = 4
_SIDE_FILES = ("-journal", "-wal", "-shm")


class _Versions(Protocol):
    def versions(self, *paths: str) -> tuple[int, ...]:
        ...


class KeptDatabases:
    """The connections kept for ``sqlite3`` runs, by the Android path of their database; ``files`` tells the write
    versions of the phone's files."""

    def __init__(self, files: _Versions) -> None:
        self._files = files
        self._kept: OrderedDict[str, tuple[sqlite3.Connection, tuple[int, ...]]] = OrderedDict()
        self._lock = threading.Lock()  # a served phone's shells run in threads of their own
        self._pid = os.getpid()  # a forked child does not use its parent's connections

    def take(self, path: str) -> sqlite3.Connection | None:
        """The connection kept for the database at ``path`` if its files still hold the bytes it left them with
        (it is no longer kept: hand it back with ``keep``); else ``None``, and a stale one is closed."""
        with self._lock:
            if self._pid != os.getpid():
                self._kept, self._pid = OrderedDict(), os.getpid()
            kept = self._kept.pop(path, None)
        if kept is None:
            return None
        connection, versions = kept
        if self._versions(path) == versions:
            return connection
        connection.close()
        return None

    def keep(self, path: str, connection: sqlite3.Connection) -> None:
        """Keep ``connection`` (whose last SQL had nothing of ``CONNECTION_STATE``) for the next run on ``path``
        when that changes nothing anyone can see; else close it. Called after the run's writes are all done."""
        if connection.in_transaction or _wal(connection):
            connection.close()
            return
        with self._lock:
            self._kept[path] = connection, self._versions(path)
            evicted = self._kept.popitem(last=False)[1][0] if len(self._kept) > LIMIT else None
        if evicted is not None:
            evicted.close()

    def close(self) -> None:
        """Close every kept connection."""
        with self._lock:
            kept, self._kept = self._kept, OrderedDict()
        for connection, _ in kept.values():
            connection.close()

    def _versions(self, path: str) -> tuple[int, ...]:
        return self._files.versions(path, *(path + suffix for suffix in _SIDE_FILES))


def _wal(connection: sqlite3.Connection) -> bool:
    """Whether the connection's database is in WAL mode (it then keeps side files while open)."""
    return connection.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
