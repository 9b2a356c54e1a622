"""The MediaStore: MediaProvider's external volume database and the media scan that fills it with audio files.

Facts from AOSP ``packages/providers/MediaProvider`` (Android 13): the database is ``external.db`` of the MediaProvider
module, which Google's system images ship as ``com.google.android.providers.media.module`` (the ``sdk_gphone`` image
AndroidWorld runs); its ``files`` table holds every indexed file and ``audio`` is a view of its ``media_type`` 2
(``MEDIA_TYPE_AUDIO``) rows (``DatabaseHelper.createLatestSchema``/``createLatestViews``). ``ModernMediaScanner``
fills a row from the file: ``_data`` (the path), ``_display_name``, ``_size``, ``date_added``/``date_modified`` (in
seconds), ``mime_type``, and from the tags ``title`` (the display name without its extension when there is none),
``artist`` (``MediaStore.UNKNOWN_STRING`` "<unknown>" when there is none), ``album`` (the parent folder's name when
there is none), ``duration`` (ms); ``relative_path``, ``bucket_display_name`` (the folder), ``volume_name``
"external_primary" and ``is_music`` 1 for files outside the ringtone/alarm/notification folders. A scan of a folder
(``MediaProvider.scanFile`` → ``ModernMediaScanner.scanDirectory``) indexes what is under it and drops rows of files
that are gone.

Simplified: only MP3 audio is indexed (images, videos and other audio formats are not); the table keeps the columns
above (the real one has about 80); ``artist_id``/``album_id`` are CRC-32s of the lower-cased names (the real ones are
hashes of the keys too, ``MediaProvider.hashKey``, computed differently); ``title_key`` and the ``audio_artists``/
``audio_albums`` tables are left out; a file deleted without a scan keeps its row until the next scan (the real
provider hears of it through FUSE), and readers skip rows whose file is gone.
"""

from __future__ import annotations

import functools
import os
import posixpath
import re
import sqlite3
import zlib
from dataclasses import dataclass
from typing import Any

from android_gym.sim.system.fs import EXTERNAL_STORAGE, normalize
from android_gym.sim.system.mp3 import MIME_TYPE, read_mp3
from android_gym.sim.system.provider import SqliteProvider

PROVIDER_PACKAGE = "com.google.android.providers.media.module"
DB_PATH = f"/data/data/{PROVIDER_PACKAGE}/databases/external.db"
#: ``Intent.ACTION_MEDIA_SCANNER_SCAN_FILE`` (deprecated in API 29, still handled by ``MediaReceiver``).
ACTION_SCAN_FILE = "android.intent.action.MEDIA_SCANNER_SCAN_FILE"
MEDIA_TYPE_AUDIO = 2
UNKNOWN_STRING = "<unknown>"
VOLUME_EXTERNAL_PRIMARY = "external_primary"
AUTHORITY = "media"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NOT_MUSIC = ("Ringtones", "Alarms", "Notifications", "Podcasts", "Audiobooks", "Recordings")

SCHEMA = (
    "CREATE TABLE files (_id INTEGER PRIMARY KEY AUTOINCREMENT, _data TEXT UNIQUE COLLATE NOCASE, _size INTEGER, "
    "format INTEGER, parent INTEGER, date_added INTEGER, date_modified INTEGER, mime_type TEXT, title TEXT, "
    "description TEXT, _display_name TEXT, media_type INTEGER, duration INTEGER, artist TEXT, artist_id INTEGER, "
    "album TEXT, album_id INTEGER, album_artist TEXT, composer TEXT, track INTEGER, year INTEGER, is_music INTEGER, "
    "bucket_display_name TEXT, relative_path TEXT, volume_name TEXT, is_pending INTEGER DEFAULT 0, "
    "is_trashed INTEGER DEFAULT 0)",
    "CREATE VIEW audio AS SELECT * FROM files WHERE media_type=2 AND is_pending=0 AND is_trashed=0",
)


@dataclass(frozen=True)
class AudioRow:
    """An ``audio`` row as players read it (``MediaStore.Audio.AudioColumns``)."""

    id: int
    data: str
    title: str
    artist: str
    artist_id: int
    album: str
    album_id: int
    duration: int
    date_modified: int
    track: int
    year: int
    album_artist: str | None
    composer: str | None


def _hash_id(name: str) -> int:
    return zlib.crc32(name.lower().encode())


def _mp3s_in(host: str, path: str) -> list[tuple[str, str]]:
    """The MP3 files under the folder ``path`` (at ``host``) in name order, as (device path, host path): symbolic
    links followed, as ``stat`` does, and dangling ones left out."""
    found = []
    with os.scandir(host) as scan:
        entries = sorted(scan, key=lambda entry: entry.name)
    for entry in entries:
        device = posixpath.join(path, entry.name)
        if entry.is_dir():
            found.extend(_mp3s_in(entry.path, device))
        elif entry.name.lower().endswith(".mp3") and os.path.exists(entry.path):
            found.append((device, entry.path))
    return found


def _relative_path(folder: str) -> str | None:
    """``relative_path`` of a file in ``folder``: the folder relative to external storage, with a trailing slash
    (``None`` outside it)."""
    if folder.startswith(EXTERNAL_STORAGE + "/"):
        return folder[len(EXTERNAL_STORAGE) + 1:] + "/"
    return posixpath.relpath(folder, EXTERNAL_STORAGE) + "/" if folder.startswith(EXTERNAL_STORAGE) else None


@functools.lru_cache(maxsize=64)
def _folder_columns(folder: str) -> tuple[str, str | None, int]:
    """What every file in ``folder`` shares: the folder's name (``bucket_display_name``, and ``album`` when the tags
    have none), ``relative_path`` and ``is_music`` (worked out once per folder, not once per file)."""
    relative = _relative_path(folder)
    top = (relative or "").split("/", 1)[0]
    return posixpath.basename(folder), relative, int(top not in _NOT_MUSIC)


class MediaStore(SqliteProvider):
    """``external.db``; ``scan`` is ``MediaProvider.scanFile``."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"

    def _files_under(self, path: str) -> list[tuple[str, str]]:
        """The MP3 files at or under ``path`` in name order, as (device path, host path). Resolving ``path`` runs
        the start-up actions of the folders under it (``FileSystem.before_first_use``), so its host folders are
        walked as they are."""
        host = self._phone.fs.host_path(path)
        if not host.is_dir():
            return [(path, os.fspath(host))] if host.exists() and path.lower().endswith(".mp3") else []
        return _mp3s_in(os.fspath(host), path)

    def _row(self, path: str, host: str) -> dict[str, object] | None:
        """The ``files`` values ``ModernMediaScanner`` gives the audio file ``path`` (at ``host``), or ``None`` if it
        is not one. Its size and modification time are the host file's, as ``FileSystem.device_stat`` keeps them. The
        file is read unbuffered: the scanner reads a few hundred bytes of its head and tail, which a buffer would
        fill with 8 KiB each (a third of a read of a song)."""
        try:
            with open(host, "rb", buffering=0) as file:
                stat = os.fstat(file.fileno())
                info = read_mp3(file)
        except OSError:
            return None
        if info is None:
            return None
        folder, name = posixpath.split(path)
        bucket, relative, is_music = _folder_columns(folder)
        artist = info.artist or UNKNOWN_STRING
        album = info.album or bucket
        return {"_data": path, "_size": stat.st_size, "format": 0x3009,
                "date_added": self._phone.clock.now_ms() // 1000, "date_modified": stat.st_mtime_ns // 1_000_000_000,
                "mime_type": MIME_TYPE,
                "title": info.title or posixpath.splitext(name)[0], "_display_name": name,
                "media_type": MEDIA_TYPE_AUDIO, "duration": info.duration_ms, "artist": artist,
                "artist_id": _hash_id(artist), "album": album, "album_id": _hash_id(album), "album_artist": None,
                "composer": None, "track": 0, "year": 0, "is_music": is_music,
                "bucket_display_name": bucket, "relative_path": relative,
                "volume_name": VOLUME_EXTERNAL_PRIMARY}

    def scan(self, path: str) -> int:
        """Index the audio at or under ``path`` and drop the rows of files under it that are gone; returns how many
        files were indexed."""
        path = normalize(path, "/")
        if path.startswith("/sdcard"):
            path = EXTERNAL_STORAGE + path[len("/sdcard"):]
        rows = [row for row in (self._row(*file) for file in self._files_under(path)) if row is not None]

        def index(db: sqlite3.Connection) -> None:
            stale = [(data,) for (data,) in db.execute("SELECT _data FROM files WHERE _data = ? OR _data LIKE ?",
                                                       (path, path.rstrip("/") + "/%"))
                     if not self._phone.fs.exists(data)]
            if stale:
                db.executemany("DELETE FROM files WHERE _data = ?", stale)
            if rows:  # every row has the same columns
                columns = ", ".join(rows[0])
                updates = ", ".join(f"{column}=excluded.{column}" for column in rows[0] if column != "date_added")
                db.executemany(f"INSERT INTO files ({columns}) VALUES ({', '.join('?' * len(rows[0]))}) "
                               f"ON CONFLICT(_data) DO UPDATE SET {updates}", [tuple(row.values()) for row in rows])

        self.write_batch(index)  # one transaction, on a kept copy where it can (a scan per reset of the music tasks)
        return len(rows)

    def songs(self) -> list[AudioRow]:
        """``MediaStore.Audio.Media`` rows with ``is_music`` whose file still exists, by ``_id`` (the rows read
        again only after the database changed: ``cached``; whether each file exists, every time)."""
        rows = self.cached("songs", self._music_rows)
        return [AudioRow(*row) for row in rows if self._phone.fs.exists(row[1])]

    def _music_rows(self) -> list[tuple[Any, ...]]:
        """The ``audio`` rows with ``is_music``, by ``_id``, as ``AudioRow``'s fields."""
        with self.reading(rows=None) as db:
            return db.execute("SELECT _id, _data, title, artist, artist_id, album, album_id, duration, "
                              "date_modified, track, year, album_artist, composer FROM audio WHERE is_music=1 "
                              "ORDER BY _id").fetchall()

    def query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
              sort: str | None = None) -> list[dict[str, object]]:
        """``content query`` of ``content://media/<external|external_primary>/audio/media[/<id>]`` (the ``audio``
        view); ``where`` and ``sort`` are the caller's SQL, run on a query-only connection. ``ValueError`` for
        another URI or a bad column name."""
        path = uri.removeprefix(f"content://{AUTHORITY}/").strip("/").split("/")
        if path[:3] not in (["external", "audio", "media"], ["external_primary", "audio", "media"]) or len(path) > 4 \
                or (len(path) == 4 and not path[3].isdigit()):
            raise ValueError(f"Unknown URI: {uri}")
        clauses = ([f"_id = {int(path[3])}"] if len(path) == 4 else []) + ([f"({where})"] if where else [])
        if projection and not all(_IDENTIFIER.fullmatch(column) for column in projection):
            raise ValueError(f"Invalid column {projection}")
        sql = (f"SELECT {', '.join(projection) if projection else '*'} FROM audio"
               + (f" WHERE {' AND '.join(clauses)}" if clauses else "") + (f" ORDER BY {sort}" if sort else ""))
        with self.reading() as db:
            cursor = db.execute(sql)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]
