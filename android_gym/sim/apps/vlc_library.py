"""VLC's media library (``libmedialibrary``, database model 36, as VLC for Android 3.5.4 ships it):
``/data/data/org.videolan.vlc/app_db/vlc_media.db``, its discovery of the videos in storage and its playlists.

The tables are the medialibrary's own, read from github.com/videolan/medialibrary (mirror chouquette/medialibrary)
at the commit before "Settings: Bump Db Model to 37" (``Settings::DbModelVersion = 36``): ``Settings.cpp``
(``Settings``: model version, ``MaxTaskAttempts`` 2, ``MaxLinkTaskAttempts`` 6), ``Folder::schema``,
``File::schema``, ``Media::schema`` and ``Playlist::schema`` (``Playlist`` and ``PlaylistMediaRelation``). Facts
of behaviour: ``Media::create`` (``filename`` is the URL-decoded last part of the file's mrl, ``import_type``
Internal = 0), ``IMedia::Type`` (Video = 1), ``IFile::Type`` (Main = 1), ``Playlist::append`` (positions from 0 in
insertion order) and ``Playlist::destroy`` (its relations go with it: ``ON DELETE CASCADE``).

Discovery (``FsDiscoverer``) is run by the app when its main screen shows: every video found in storage without a
``File`` row (or whose ``Media`` row is gone, as after AndroidWorld deletes all ``Media`` rows) gets a ``Folder``
(its directory, once), a ``Media`` and a ``File`` row, its duration read from the MP4's track; a changed file
(modification time or size) gets its duration again; the rows of a file that is gone are deleted, with its places
in playlists.

Simplified: the ``Device``, ``MediaGroup``, ``Artist``, ``Genre``, ``Album`` and thumbnail tables, the FTS tables
and the triggers are left out, so the connection does not turn ``foreign_keys`` on (``SqliteConnection`` does: the
parents the keys name are missing) and the app does the cascades itself; it also keeps ``Playlist``'s counters
(``nb_video``, ``nb_present_video``, ``duration``) and ``Folder.nb_video`` itself. Positions are packed again (0,
1, …) when a playlist loses a media. A file added to a playlist from the browser that the library lacks is added
as a discovered one (``addMedia`` would mark it External).
"""

from __future__ import annotations

import posixpath
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

from android_gym.sim.system.media import video_track
from android_gym.sim.system.provider import SqliteProvider

DB_PATH = "/data/data/org.videolan.vlc/app_db/vlc_media.db"
DB_MODEL_VERSION = 36
TYPE_VIDEO = 1  # IMedia::Type::Video
FILE_MAIN = 1  # IFile::Type::Main
IMPORT_INTERNAL = 0  # Media::ImportType::Internal

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS Settings(db_model_version UNSIGNED INTEGER NOT NULL,"
    "max_task_attempts UNSIGNED INTEGER NOT NULL,max_link_task_attempts UNSIGNED INTEGER NOT NULL)",
    "CREATE TABLE Folder(id_folder INTEGER PRIMARY KEY AUTOINCREMENT,path TEXT,name TEXT COLLATE NOCASE,"
    "parent_id UNSIGNED INTEGER,is_banned BOOLEAN NOT NULL DEFAULT 0,device_id UNSIGNED INTEGER,"
    "is_removable BOOLEAN NOT NULL,nb_audio UNSIGNED INTEGER NOT NULL DEFAULT 0,"
    "nb_video UNSIGNED INTEGER NOT NULL DEFAULT 0,"
    "FOREIGN KEY(parent_id) REFERENCES Folder(id_folder) ON DELETE CASCADE,"
    "FOREIGN KEY(device_id) REFERENCES Device(id_device) ON DELETE CASCADE,"
    "UNIQUE(path,device_id) ON CONFLICT FAIL)",
    "CREATE TABLE Media(id_media INTEGER PRIMARY KEY AUTOINCREMENT,type INTEGER,"
    "subtype INTEGER NOT NULL DEFAULT 0,duration INTEGER DEFAULT -1,last_position REAL DEFAULT -1,"
    "last_time INTEGER DEFAULT -1,play_count UNSIGNED INTEGER NOT NULL DEFAULT 0,"
    "last_played_date UNSIGNED INTEGER,insertion_date UNSIGNED INTEGER,release_date UNSIGNED INTEGER,"
    "title TEXT COLLATE NOCASE,filename TEXT COLLATE NOCASE,is_favorite BOOLEAN NOT NULL DEFAULT 0,"
    "is_present BOOLEAN NOT NULL DEFAULT 1,device_id INTEGER,nb_playlists UNSIGNED INTEGER NOT NULL DEFAULT 0,"
    "folder_id UNSIGNED INTEGER,import_type UNSIGNED INTEGER NOT NULL,group_id UNSIGNED INTEGER,"
    "forced_title BOOLEAN NOT NULL DEFAULT 0,artist_id UNSIGNED INTEGER,genre_id UNSIGNED INTEGER,"
    "track_number UNSIGEND INTEGER,album_id UNSIGNED INTEGER,disc_number UNSIGNED INTEGER,lyrics TEXT,"
    "FOREIGN KEY(group_id) REFERENCES MediaGroup(id_group) ON DELETE RESTRICT,"
    "FOREIGN KEY(folder_id) REFERENCES Folder(id_folder)"
    "FOREIGN KEY(artist_id) REFERENCES Artist(id_artist) ON DELETE SET NULL,"
    "FOREIGN KEY(genre_id) REFERENCES Genre(id_genre),"
    "FOREIGN KEY(album_id) REFERENCES Album(id_album)  ON DELETE SET NULL)",
    "CREATE TABLE File(id_file INTEGER PRIMARY KEY AUTOINCREMENT,media_id UNSIGNED INT DEFAULT NULL,"
    "playlist_id UNSIGNED INT DEFAULT NULL,mrl TEXT,type UNSIGNED INTEGER,last_modification_date UNSIGNED INT,"
    "size UNSIGNED INT,folder_id UNSIGNED INTEGER,is_removable BOOLEAN NOT NULL,is_external BOOLEAN NOT NULL,"
    "is_network BOOLEAN NOT NULL,FOREIGN KEY(media_id) REFERENCES Media(id_media) ON DELETE CASCADE,"
    "FOREIGN KEY(playlist_id) REFERENCES Playlist(id_playlist) ON DELETE CASCADE,"
    "FOREIGN KEY(folder_id) REFERENCES Folder(id_folder) ON DELETE CASCADE,"
    "UNIQUE(mrl,folder_id) ON CONFLICT FAIL)",
    "CREATE TABLE Playlist(id_playlist INTEGER PRIMARY KEY AUTOINCREMENT,name TEXT COLLATE NOCASE,"
    "creation_date UNSIGNED INT NOT NULL,artwork_mrl TEXT,nb_video UNSIGNED INT NOT NULL DEFAULT 0,"
    "nb_audio UNSIGNED INT NOT NULL DEFAULT 0,nb_unknown UNSIGNED INT NOT NULL DEFAULT 0,"
    "nb_present_video UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_video <= nb_video),"
    "nb_present_audio UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_audio <= nb_audio),"
    "nb_present_unknown UNSIGNED INT NOT NULL DEFAULT 0 CHECK(nb_present_unknown <= nb_unknown),"
    "duration UNSIGNED INT NOT NULL DEFAULT 0,nb_duration_unknown UNSIGNED INT NOT NULL DEFAULT 0)",
    "CREATE TABLE PlaylistMediaRelation(media_id INTEGER,playlist_id INTEGER,position INTEGER,"
    "FOREIGN KEY(media_id) REFERENCES Media(id_media) ON DELETE NO ACTION,"
    "FOREIGN KEY(playlist_id) REFERENCES Playlist(id_playlist) ON DELETE CASCADE)",
)


def mrl(path: str) -> str:
    """A local file's mrl: ``file://`` and the URL-encoded path (``utils::url::encode``)."""
    return "file://" + quote(path, safe="/")


def path_of(file_mrl: str) -> str:
    """The path a ``file://`` mrl names."""
    return unquote(file_mrl.removeprefix("file://"))


@dataclass(frozen=True)
class MediaItem:
    """A video of the library: its ``Media`` row and the path of its main file."""

    id: int
    title: str
    filename: str
    duration_ms: int
    path: str


@dataclass(frozen=True)
class PlaylistItem:
    """A ``Playlist`` row and how many media it holds."""

    id: int
    name: str
    tracks: int


class MediaLibrary(SqliteProvider):
    """``vlc_media.db``: created with the medialibrary's tables and its ``Settings`` row."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"

    def on_create(self, db: sqlite3.Connection) -> None:
        """``Settings::load`` on an empty table: the model version and the task attempt limits."""
        db.execute("INSERT INTO Settings VALUES(?, ?, ?)", (DB_MODEL_VERSION, 2, 6))

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        with self.reading() as db:
            return list(db.execute(sql, tuple(params)))

    def _media(self, sql: str, params: tuple[Any, ...]) -> list[MediaItem]:
        """The media the fixed ``sql`` selects (``Media.*`` and the main file's ``mrl``), read again only after the
        database changed (``cached``)."""
        return self.cached((sql, *params), lambda: [_media_item(row) for row in self._rows(sql, params)])

    # ----- discovery ------------------------------------------------------------------------------------------------
    def discover(self, videos: Sequence[str]) -> None:
        """Bring the library in line with the video files found in storage (see the module)."""
        known = {path_of(row["mrl"]): row for row in self._rows(
            "SELECT File.id_file, File.mrl, File.media_id, File.last_modification_date, File.size, Media.id_media "
            "FROM File LEFT JOIN Media ON Media.id_media = File.media_id WHERE File.type = ?", (FILE_MAIN,))}
        states = {path: self._state(path) for path in videos}
        found = {path: state for path, state in states.items() if state is not None}
        stale = [row for path, row in known.items() if path not in found or row["id_media"] is None]
        new = [path for path in found if path not in known or known[path]["id_media"] is None]
        changed = [path for path in found if path in known and known[path]["id_media"] is not None
                   and (known[path]["last_modification_date"], known[path]["size"]) != found[path]]
        if not (stale or new or changed):
            return
        with self._transaction() as db:
            for row in stale:
                self._forget(db, row["id_file"], row["media_id"])
            for path in new:
                self._add(db, path, *found[path])
            for path in changed:
                mtime, size = found[path]
                db.execute("UPDATE File SET last_modification_date = ?, size = ? WHERE id_file = ?",
                           (mtime, size, known[path]["id_file"]))
                db.execute("UPDATE Media SET duration = ? WHERE id_media = ?",
                           (self._duration(path), known[path]["media_id"]))
            for (playlist_id,) in db.execute("SELECT id_playlist FROM Playlist").fetchall():
                _update_counters(db, playlist_id)

    def _state(self, path: str) -> tuple[int, int] | None:
        """A file's modification time (device seconds) and size, ``None`` when it is gone."""
        try:
            info = self._phone.fs.device_stat(self._phone.fs.host_path(path))
        except OSError:
            return None
        return int(info.st_mtime), info.st_size

    def _duration(self, path: str) -> int:
        """The duration of the file's video track in ms (-1, unknown, when it cannot be read)."""
        try:
            track = video_track(self._phone.fs.read_bytes(path))
        except OSError:
            return -1
        return track.duration_ms if track is not None else -1

    def _folder(self, db: sqlite3.Connection, directory: str) -> int:
        """The ``Folder`` row of ``directory``, added when missing."""
        folder_mrl = mrl(directory.rstrip("/") + "/")
        found = db.execute("SELECT id_folder FROM Folder WHERE path = ?", (folder_mrl,)).fetchone()
        if found:
            return found[0]
        return db.execute("INSERT INTO Folder (path, name, is_removable) VALUES (?, ?, 0)",
                          (folder_mrl, posixpath.basename(directory))).lastrowid or 0

    def _add(self, db: sqlite3.Connection, path: str, mtime: int, size: int) -> int:
        """``Media::create`` and ``Media::addFile`` for a video found in storage; returns the media's id."""
        name = posixpath.basename(path)
        stem, dot, _ = name.rpartition(".")
        folder_id = self._folder(db, posixpath.dirname(path))
        media_id = db.execute(
            "INSERT INTO Media (type, duration, insertion_date, title, filename, folder_id, import_type) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (TYPE_VIDEO, self._duration(path), self._phone.clock.now_ms() // 1000, stem if dot and stem else name,
             name, folder_id, IMPORT_INTERNAL)).lastrowid
        db.execute("INSERT INTO File (media_id, mrl, type, last_modification_date, size, folder_id, is_removable, "
                   "is_external, is_network) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0)",
                   (media_id, mrl(path), FILE_MAIN, mtime, size, folder_id))
        db.execute("UPDATE Folder SET nb_video = nb_video + 1 WHERE id_folder = ?", (folder_id,))
        return media_id or 0

    def _forget(self, db: sqlite3.Connection, file_id: int, media_id: int | None) -> None:
        """A file that is gone (or whose media is): its ``File`` row, ``Media`` row and places in playlists."""
        db.execute("UPDATE Folder SET nb_video = MAX(nb_video - 1, 0) WHERE id_folder = "
                   "(SELECT folder_id FROM File WHERE id_file = ?)", (file_id,))
        db.execute("DELETE FROM File WHERE id_file = ?", (file_id,))
        if media_id is None:
            return
        playlists = [row[0] for row in db.execute(
            "SELECT DISTINCT playlist_id FROM PlaylistMediaRelation WHERE media_id = ?", (media_id,))]
        db.execute("DELETE FROM PlaylistMediaRelation WHERE media_id = ?", (media_id,))
        db.execute("DELETE FROM Media WHERE id_media = ?", (media_id,))
        for playlist_id in playlists:
            _pack_positions(db, playlist_id)

    def media_id(self, path: str) -> int:
        """The id of the library's media of a file, added (``addMedia``) when the library does not have it; 0
        when the file is gone."""
        found = self._rows("SELECT media_id FROM File JOIN Media ON id_media = media_id WHERE mrl = ?", (mrl(path),))
        if found:
            return found[0][0]
        info = self._state(path)
        if info is None:
            return 0
        with self._transaction() as db:
            db.execute("DELETE FROM File WHERE mrl = ?", (mrl(path),))
            return self._add(db, path, *info)

    # ----- reading --------------------------------------------------------------------------------------------------
    def videos(self) -> list[MediaItem]:
        """The library's videos with their main file."""
        return self._media(
            "SELECT Media.*, File.mrl FROM Media JOIN File ON File.media_id = Media.id_media AND File.type = ? "
            "WHERE Media.type = ?", (FILE_MAIN, TYPE_VIDEO))

    def playlists(self) -> list[PlaylistItem]:
        """The playlists by name (``PlaylistsProvider``'s default sort), with their track counts (read again only
        after the database changed: ``cached``)."""
        return self.cached("playlists", lambda: [PlaylistItem(row["id_playlist"], row["name"], row["tracks"])
                                                 for row in self._rows(
            "SELECT Playlist.id_playlist, Playlist.name, COUNT(PlaylistMediaRelation.media_id) AS tracks "
            "FROM Playlist LEFT JOIN PlaylistMediaRelation ON PlaylistMediaRelation.playlist_id = "
            "Playlist.id_playlist GROUP BY Playlist.id_playlist ORDER BY Playlist.name, Playlist.id_playlist")])

    def playlist(self, playlist_id: int) -> PlaylistItem | None:
        """One playlist, ``None`` once deleted."""
        return next((item for item in self.playlists() if item.id == playlist_id), None)

    def tracks(self, playlist_id: int) -> list[MediaItem]:
        """A playlist's media in position order."""
        return self._media(
            "SELECT Media.*, File.mrl FROM PlaylistMediaRelation JOIN Media ON Media.id_media = "
            "PlaylistMediaRelation.media_id LEFT JOIN File ON File.media_id = Media.id_media AND File.type = ? "
            "WHERE PlaylistMediaRelation.playlist_id = ? ORDER BY PlaylistMediaRelation.position",
            (FILE_MAIN, playlist_id))

    # ----- playlists ------------------------------------------------------------------------------------------------
    def create_playlist(self, name: str) -> int:
        """``MediaLibrary::createPlaylist``: a new empty playlist created now; returns its id."""
        with self._transaction() as db:
            return db.execute("INSERT INTO Playlist (name, creation_date) VALUES (?, ?)",
                              (name, self._phone.clock.now_ms() // 1000)).lastrowid or 0

    def append(self, playlist_id: int, media_ids: Sequence[int]) -> None:
        """``Playlist::append``: the media after the playlist's last position."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM Playlist WHERE id_playlist = ?", (playlist_id,)).fetchone() is None:
                return
            (count,) = db.execute("SELECT COUNT(*) FROM PlaylistMediaRelation WHERE playlist_id = ?",
                                  (playlist_id,)).fetchone()
            for offset, media_id in enumerate(media_ids):
                db.execute("INSERT INTO PlaylistMediaRelation (media_id, playlist_id, position) VALUES (?, ?, ?)",
                           (media_id, playlist_id, count + offset))
                db.execute("UPDATE Media SET nb_playlists = nb_playlists + 1 WHERE id_media = ?", (media_id,))
            _update_counters(db, playlist_id)

    def delete_playlist(self, playlist_id: int) -> None:
        """``Playlist::destroy``: the playlist and its relations."""
        with self._transaction() as db:
            db.execute("UPDATE Media SET nb_playlists = MAX(nb_playlists - 1, 0) WHERE id_media IN "
                       "(SELECT media_id FROM PlaylistMediaRelation WHERE playlist_id = ?)", (playlist_id,))
            db.execute("DELETE FROM PlaylistMediaRelation WHERE playlist_id = ?", (playlist_id,))
            db.execute("DELETE FROM Playlist WHERE id_playlist = ?", (playlist_id,))


def _media_item(row: sqlite3.Row) -> MediaItem:
    return MediaItem(row["id_media"], row["title"] or "", row["filename"] or "", row["duration"] or 0,
                     path_of(row["mrl"] or ""))


def _pack_positions(db: sqlite3.Connection, playlist_id: int) -> None:
    """Number a playlist's relations 0, 1, … in their order."""
    rows = db.execute("SELECT rowid FROM PlaylistMediaRelation WHERE playlist_id = ? ORDER BY position, rowid",
                      (playlist_id,)).fetchall()
    for position, (rowid,) in enumerate(rows):
        db.execute("UPDATE PlaylistMediaRelation SET position = ? WHERE rowid = ?", (position, rowid))


def _update_counters(db: sqlite3.Connection, playlist_id: int) -> None:
    """The playlist's video counts and known duration, as the medialibrary's triggers keep them."""
    db.execute(
        "UPDATE Playlist SET nb_video = (SELECT COUNT(*) FROM PlaylistMediaRelation r JOIN Media m ON "
        "m.id_media = r.media_id WHERE r.playlist_id = :id AND m.type = 1), nb_present_video = (SELECT COUNT(*) "
        "FROM PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = :id AND "
        "m.type = 1 AND m.is_present), duration = (SELECT COALESCE(SUM(MAX(m.duration, 0)), 0) FROM "
        "PlaylistMediaRelation r JOIN Media m ON m.id_media = r.media_id WHERE r.playlist_id = :id) "
        "WHERE id_playlist = :id", {"id": playlist_id})
