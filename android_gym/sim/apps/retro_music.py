"""Retro Music 6.0.3 (``code.name.monkey.retromusic``, versionCode 10603, as AndroidWorld installs it): the library
tabs (For you, Songs, Albums, Artists, Playlists) over the MediaStore's songs, a song's and a playlist's menus, the
add-to-playlist, new/rename/delete playlist dialogs, a playlist's songs, "Save as file", the mini player, the now
playing screen, the playing queue, and the library's multi-selection.

For you is v6.0.4's ``HomeFragment`` (``fragment_home.xml``, ``user_image_layout.xml``, ``home_content.xml``,
``abs_playlists.xml``, ``item_suggestions.xml``, ``section_recycler_view.xml``): "Welcome," and the user name, the
History, Last added, Most played and Shuffle buttons (``DetailListFragment``'s lists; ``openAndShuffleQueue``),
Suggestions (``RealRepository.suggestions``) and the recent artists and albums. Material You is on by default from
Android 12 (``PreferenceUtil.materialYou``), so the accent is the wallpaper palette's (``ThemeStore.accentColor``),
and the theme follows the system's (``GENERAL_THEME`` "auto").

Facts from github.com/RetroMusicPlayer/RetroMusicPlayer: ``db/PlaylistEntity.kt`` and ``db/SongEntity.kt`` (Room
entities of ``playlist.db``: ``PlaylistEntity(playlist_id, playlist_name)``, ``SongEntity`` with ``song_key`` and a
unique index on ``(playlist_creator_id, id)``; a playlist's order is ``song_key``), ``providers/
MusicPlaybackQueueStore.java`` (``music_playback_state.db``: ``playing_queue`` and ``original_playing_queue``, the
whole queue rewritten on every change), ``helper/MusicPlayerRemote`` (a tap on a song opens the list as the queue at
that song; ``enqueue``/``playNext`` on an empty queue start a queue of those songs, otherwise append / insert after
the current song), ``util/PlaylistsUtil.savePlaylistWithSongs`` with ``helper/M3UWriter.writeIO`` ("Save as file"
writes ``<external storage>/Playlists/<name>.m3u``: ``#EXTM3U``, then per song ``#EXTINF:<duration ms>,<artist> -
<title>`` and its path), the menus ``menu_item_song.xml``/``menu_item_playlist.xml``, and the strings of
``res/values/strings.xml`` ("Add to playing queue", "Play next", "Add to playlist", "New playlist", "Playlist name",
"Create", "Rename playlist", "Delete playlist", "Save as file", "Playing Queue", "You have no songs", …). Songs come
from the MediaStore (``system.media_store``), sorted by title (``SongSortOrder.SONG_A_Z``).

Multi-selection (v6.0.4 ``adapter/base/AbsMultiSelectAdapter.kt``, ``adapter/song/SongAdapter.kt``): a long press on
a song checks it and starts the action mode (AppCompat's ``action_mode_bar`` over the toolbar: "Done", the count in
``NumberRollView`` ``selection_mode_number``, the items of ``menu_media_selection.xml``); while it lasts a tap checks
or unchecks a song, in the order tapped (``checked`` is a list), a checked row is activated and hides its menu button,
and BACK or "Done" ends it. An item acts on the checked songs in that order (``SongsMenuHelper.handleMenuClick``)
and ends the mode, but "Select all". The items are ``showAsAction="ifRoom"``: as many as ``ActionBarPolicy.
getMaxActionButtons`` allows for the screen's width (2 under 360 dp, 3 from 360, 4 from 500, 5 from 600 dp), one of
them the overflow when they do not all fit.

Not simulated: the first-run intro and permission screens (AndroidWorld's setup passes them), album art, search,
settings and the user's profile (their buttons do nothing), sort orders, the selection mode's "Share" and "Delete
from device" (so on a tablet every item fits), a playlist's selection menu, favourites, the history and play counts
(their lists are empty, and For you has no top artists, top albums or favourites), the shuffle mode's button and
setting, the list headers' shuffle buttons, Last added's cutoff (every song counts), opening an album, an artist or
a recent section's list, the other song menu items (go to album, share, tag editor, details, ringtone, blacklist,
delete), reordering a playlist by dragging, sound and the playback clock (the position stays at 0:00),
toasts, and the ``room_master_table`` Room keeps in ``playlist.db``.
"""

from __future__ import annotations

import posixpath
import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.media_store import AudioRow, MediaStore
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import DIALOG_WIDTH, alert_dialog, confirm_dialog, dialog_over, popup_menu
from android_gym.sim.ui.layout import SCROLL_VIEW, measure_height
from android_gym.sim.ui.views import (
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    does_nothing,
    edit_text,
    over,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "code.name.monkey.retromusic"
MAIN_ACTIVITY = f"{PACKAGE}.activities.MainActivity"
APP_NAME = "Retro Music"
PLAYLIST_DB = f"/data/data/{PACKAGE}/databases/playlist.db"
PLAYBACK_DB = f"/data/data/{PACKAGE}/databases/music_playback_state.db"
PLAYLISTS_DIR = f"{EXTERNAL_STORAGE}/Playlists"  # PlaylistsUtil: File(getExternalStorageDirectory(), "Playlists")

# res/values/strings.xml
PLAY, PLAY_NEXT, ADD_TO_QUEUE = "Play", "Play next", "Add to playing queue"
ADD_TO_PLAYLIST, NEW_PLAYLIST, PLAYLIST_NAME = "Add to playlist", "New playlist", "Playlist name"
CREATE, CANCEL, RENAME, DELETE = "Create", "Cancel", "Rename", "Delete"
RENAME_PLAYLIST, DELETE_PLAYLIST, SAVE_AS_FILE = "Rename playlist", "Delete playlist", "Save as file"
REMOVE_FROM_PLAYLIST, REMOVE_FROM_QUEUE = "Remove from playlist", "Remove from playing queue"
REMOVE, REMOVE_SONG = "Remove", "Remove song from playlist"
QUEUE, CLEAR_QUEUE, NOW_PLAYING = "Playing Queue", "Clear queue", "Now playing"
NO_SONGS, NO_PLAYLISTS, EMPTY_PLAYLIST = "You have no songs", "You have no playlists", "Playlist is empty"
NO_QUEUE, LAST_ADDED, MORE_OPTIONS = "No songs playing", "Last added", "More options"
SELECT_ALL, DONE = "Select all", "Done"  # and AppCompat's abc_action_mode_done
HISTORY, MOST_PLAYED, SHUFFLE, SETTINGS = "History", "Most played", "Shuffle", "Settings"
WELCOME, USER_NAME = "Welcome,", "User Name"  # the user name's default (PreferenceUtil.userName)
SUGGESTIONS, NEW_MUSIC_MIX = "Suggestions", "New Music Mix"
RECENT_ARTISTS, RECENT_ALBUMS = "Recent artists", "Recent albums"
#: ``DetailListFragment``'s lists the home's buttons open, with their titles.
DETAIL_LISTS = {"history": HISTORY, "last_added": LAST_ADDED, "top_played": MOST_PLAYED}
#: The bottom navigation (``bottom_navigation_main.xml``: ic_home, ic_audiotrack, ic_album, ic_artist, ic_queue_music,
#: all filled).
TABS = (("action_home", "For you", "home_filled"), ("action_song", "Songs", "audio"),
        ("action_album", "Albums", "album"), ("action_artist", "Artists", "artist"),
        ("action_playlist", "Playlists", "queue_music"))

#: ``ThemeStore.accentColor``: with Material You (``PreferenceUtil.materialYou``, on by default from Android 12) the
#: theme's ``m3_accent_color``, ``system_accent1_600`` (``values-night-v31``: ``system_accent1_200``) of the
#: wallpaper's palette, the Pixel's default blue (tones 40 and 80).
_ACCENT, _NIGHT_ACCENT = (11, 87, 208), MATERIAL_YOU_NIGHT[PRIMARY]
#: ``Widget.Material3.Button.ElevatedButton``'s surface at 1 dp: ``colorSurface`` tinted 5 % with the primary colour
#: (Material's elevation overlay), and ``card6``'s background behind "New Music Mix" (the accent at 12 %).
_BUTTON, _MIX = over(_ACCENT, 0.05), over(_ACCENT, 0.12)
_BODY, _SMALL, _TITLE = 42, 36, 54
_ROW = 168
_CHECKED = (232, 222, 248)  # an activated (checked) row's background
#: The bottom navigation's, the mini player's and the now playing art's backgrounds.
_NAVIGATION, _MINI_PLAYER, _PLAYER_ART = (247, 242, 250), (250, 250, 250), (237, 231, 246)
#: ``RetroGlideExtension``'s placeholder art (``default_audio_art``, ``default_album_art``, ``default_artist_art``: a
#: dark grey glyph on light grey) in ``item_list``'s 45 dp image card, rounded 10 dp and 16 dp from the row's start;
#: the title starts 16 dp after the card.
_ART, _ART_INK, _ART_SIZE, _ART_CORNER, _ART_START, _ART_GAP = (226, 226, 226), (69, 69, 69), 118, 26, 26, 30
#: ``item_queue``'s drag handle (a 24 dp drawable), its 40 dp image rounded 6 dp, and the alpha of a played row.
_QUEUE_HANDLE, _QUEUE_ART, _QUEUE_CORNER, _PLAYED_ALPHA = 63, 105, 16, 0.5
#: ``ActionBarPolicy.getMaxActionButtons``: (smallest width in dp, action buttons) from the widest.
_MAX_ACTION_BUTTONS = ((600, 5), (500, 4), (360, 3))
_DP_PER_PX = 160 / 420  # dp per design px
_HEADLINE6, _MIX_TEXT, _TOOLBAR_TITLE = 53, 84, 58  # TextViewHeadline6 20 sp, the mix's 32 sp, M3's title 22 sp
#: How many songs Suggestions shows (``image1``..``image8``) and how many more the library needs for it to show
#: (``RealRepository.suggestions``: over 9 songs); how many artists and albums a recent section shows.
_SUGGESTED, _SUGGESTIONS_FROM, _RECENT = 8, 10, 5


def _dp(dp: float) -> int:
    """``dp`` in design px."""
    return round(dp / _DP_PER_PX)

PLAYLIST_SCHEMA = (  # Room's CREATE statements for the entities
    "CREATE TABLE IF NOT EXISTS `PlaylistEntity` (`playlist_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "
    "`playlist_name` TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `SongEntity` (`song_key` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "
    "`playlist_creator_id` INTEGER NOT NULL, `id` INTEGER NOT NULL, `title` TEXT NOT NULL, `track_number` INTEGER "
    "NOT NULL, `year` INTEGER NOT NULL, `duration` INTEGER NOT NULL, `data` TEXT NOT NULL, `date_modified` INTEGER "
    "NOT NULL, `album_id` INTEGER NOT NULL, `album_name` TEXT NOT NULL, `artist_id` INTEGER NOT NULL, "
    "`artist_name` TEXT NOT NULL, `composer` TEXT, `album_artist` TEXT)",
    "CREATE UNIQUE INDEX IF NOT EXISTS `index_SongEntity_playlist_creator_id_id` ON `SongEntity` "
    "(`playlist_creator_id`, `id`)",
)
_QUEUE_COLUMNS = ("_id INT NOT NULL, title STRING NOT NULL, track INT NOT NULL, year INT NOT NULL, duration LONG NOT "
                  "NULL, _data STRING NOT NULL, date_modified LONG NOT NULL, album_id INT NOT NULL, album STRING NOT "
                  "NULL, artist_id INT NOT NULL, artist STRING NOT NULL, composer STRING, album_artist STRING")
QUEUE_SCHEMA = tuple(f"CREATE TABLE IF NOT EXISTS {table}({_QUEUE_COLUMNS});"
                     for table in ("playing_queue", "original_playing_queue"))


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def duration_text(ms: int) -> str:
    """``MusicUtil.getReadableDurationString``: m:ss, or h:mm:ss from an hour."""
    seconds = ms // 1000
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}:{seconds:02d}"
    return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}"


def m3u(songs: Sequence[AudioRow]) -> str:
    """``M3UWriter.writeIO``'s file: the header, then each song's ``#EXTINF`` line and path."""
    lines = ["#EXTM3U"]
    for song in songs:
        lines += [f"#EXTINF:{song.duration},{song.artist} - {song.title}", song.data]
    return "\n".join(lines)


@dataclass(frozen=True)
class Playlist:
    """A ``PlaylistEntity`` and how many songs it has."""

    id: int
    name: str
    count: int


class PlaylistDatabase(SqliteProvider):
    """``playlist.db`` (Room, WAL)."""

    db_path = PLAYLIST_DB
    schema = PLAYLIST_SCHEMA
    journal_mode = "WAL"

    def playlists(self) -> list[Playlist]:
        """Every playlist with its song count, by name (``PlaylistSortOrder.PLAYLIST_A_Z``)."""
        with self.reading() as db:
            rows = db.execute("SELECT p.playlist_id, p.playlist_name, COUNT(s.song_key) FROM PlaylistEntity p "
                              "LEFT JOIN SongEntity s ON s.playlist_creator_id = p.playlist_id "
                              "GROUP BY p.playlist_id ORDER BY p.playlist_name COLLATE NOCASE").fetchall()
        return [Playlist(*r) for r in rows]

    def playlist(self, playlist_id: int) -> Playlist | None:
        """The playlist with that id, if it still exists."""
        return next((p for p in self.playlists() if p.id == playlist_id), None)

    def songs(self, playlist_id: int) -> list[tuple[int, AudioRow]]:
        """``(song_key, song)`` of a playlist in ``song_key`` order."""
        with self.reading() as db:
            rows = db.execute("SELECT song_key, id, data, title, artist_name, artist_id, album_name, album_id, "
                              "duration, date_modified, track_number, year, album_artist, composer FROM SongEntity "
                              "WHERE playlist_creator_id = ? ORDER BY song_key", (playlist_id,)).fetchall()
        return [(r[0], AudioRow(*tuple(r)[1:])) for r in rows]

    def create(self, name: str) -> int:
        """``createPlaylist``: a new ``PlaylistEntity``; returns its id."""
        with self._transaction() as db:
            return int(db.execute("INSERT INTO PlaylistEntity (playlist_name) VALUES (?)", (name,)).lastrowid)

    def add(self, playlist_id: int, songs: Sequence[AudioRow]) -> None:
        """``insertSongs``: a ``SongEntity`` per song not in the playlist yet, in order."""
        with self._transaction() as db:
            db.executemany(
                "INSERT OR IGNORE INTO SongEntity (playlist_creator_id, id, title, track_number, year, duration, data, "
                "date_modified, album_id, album_name, artist_id, artist_name, composer, album_artist) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(playlist_id, s.id, s.title, s.track, s.year, s.duration, s.data, s.date_modified, s.album_id,
                  s.album, s.artist_id, s.artist, s.composer, s.album_artist) for s in songs])

    def rename(self, playlist_id: int, name: str) -> None:
        """``renamePlaylistEntity``."""
        with self._transaction() as db:
            db.execute("UPDATE PlaylistEntity SET playlist_name = ? WHERE playlist_id = ?", (name, playlist_id))

    def delete(self, playlist_id: int) -> None:
        """``deletePlaylistEntities`` and ``deletePlaylistSongs``."""
        with self._transaction() as db:
            db.execute("DELETE FROM SongEntity WHERE playlist_creator_id = ?", (playlist_id,))
            db.execute("DELETE FROM PlaylistEntity WHERE playlist_id = ?", (playlist_id,))

    def remove_song(self, song_key: int) -> None:
        """``deleteSongFromPlaylist``."""
        with self._transaction() as db:
            db.execute("DELETE FROM SongEntity WHERE song_key = ?", (song_key,))


class PlaybackQueue(SqliteProvider):
    """``music_playback_state.db`` (``MusicPlaybackQueueStore``, a plain SQLiteOpenHelper)."""

    db_path = PLAYBACK_DB
    schema = QUEUE_SCHEMA

    def load(self) -> list[AudioRow]:
        """``getSavedPlayingQueue`` (read again only after the database changed: ``cached``)."""
        return [AudioRow(*row) for row in self.cached("queue", self._queue_rows)]

    def _queue_rows(self) -> list[tuple[Any, ...]]:
        with self.reading(rows=None) as db:
            return db.execute("SELECT _id, _data, title, artist, artist_id, album, album_id, duration, "
                              "date_modified, track, year, album_artist, composer FROM playing_queue "
                              "ORDER BY rowid").fetchall()

    def save(self, queue: Sequence[AudioRow], original: Sequence[AudioRow] | None = None) -> None:
        """``saveQueues``: both tables emptied and written again, ``original_playing_queue`` with the order before
        a shuffle (``None``: not shuffled, the same list)."""
        with self._transaction() as db:
            for table, songs in (("playing_queue", queue), ("original_playing_queue", original or queue)):
                db.execute(f"DELETE FROM {table}")
                db.executemany(f"INSERT INTO {table} (_id, title, track, year, duration, _data, date_modified, "
                               "album_id, album, artist_id, artist, composer, album_artist) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               [(s.id, s.title, s.track, s.year, s.duration, s.data, s.date_modified, s.album_id,
                                 s.album, s.artist_id, s.artist, s.composer, s.album_artist) for s in songs])


# ----- small views ------------------------------------------------------------------------------------------------
def _icon(name: str, description: str, glyph: str, on_click: Callback | None, color=TEXT, size: int = 126,
          **props) -> View:
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name) if name else "",
                content_desc=description, hint=glyph, clickable=on_click is not None,
                focusable=on_click is not None, on_click=on_click, text_color=color, width=size, height=size, **props)


def _two_lines(title: str, subtitle: str) -> View:
    lines = [text_view(title, resource_id=_id("title"), text_size=_BODY, padding=4)]
    if subtitle:
        lines.append(text_view(subtitle, resource_id=_id("text"), text_size=_SMALL, text_color=TEXT_SECONDARY,
                               padding=4))
    return column(*lines, weight=1, padding=8, gravity="center")


def _art(glyph: str) -> list[View]:
    """``item_list``'s image card showing a song's, album's or artist's placeholder art (no album art is
    simulated), with its margins."""
    return [View(width=_ART_START),
            _icon("image", "", glyph, None, color=_ART_INK, size=_ART_SIZE, background=_ART, corner=_ART_CORNER),
            View(width=_ART_GAP)]


def _glyph(glyph: str) -> list[View]:
    """``item_list``'s image showing a drawable (a playlist's ``ic_playlist_play``)."""
    return [_icon("image", "", glyph, None, color=_ACCENT)]


def _list_row(title: str, subtitle: str, image: list[View], on_click: Callback | None, menu: Callback | None,
              on_long_click: Callback | None = None, activated: bool = False) -> View:
    """``item_list.xml``: the ``image`` (``_art`` or ``_glyph``), title and text, and the overflow ``menu`` button;
    an ``activated`` (checked) row is tinted and hides its menu button."""
    children = [*image, _two_lines(title, subtitle)]
    if menu is not None and not activated:
        children.append(_icon("menu", MORE_OPTIONS, "more", menu, color=TEXT_SECONDARY))
    return View(kind="row", class_name="android.widget.FrameLayout", clickable=on_click is not None,
                focusable=on_click is not None, on_click=on_click, long_clickable=on_long_click is not None,
                on_long_click=on_long_click, children=children, padding=16, background=_CHECKED if activated else None)


def _queue_row(song: AudioRow, on_click: Callback, menu: Callback, played: bool) -> View:
    """``item_queue.xml``: the drag handle (``ic_drag_vertical``), the song's 40 dp art rounded 6 dp 16 dp after
    it, title and artist, the overflow button. ``PlayingQueueAdapter`` draws the songs played so far and the
    playing one (``HISTORY``, ``CURRENT``) at half alpha: image, texts, handle and button."""
    art = _icon("image", "", "audio", None, color=_ART_INK, size=_QUEUE_ART, background=_ART, corner=_QUEUE_CORNER)
    handle = _icon("drag_view", "", "drag", None, color=TEXT_SECONDARY, size=_QUEUE_HANDLE)
    item = _list_row(song.title, song.artist, [handle, View(width=_ART_START), art, View(width=_ART_START)],
                     on_click, menu)
    if played:
        for view in item.walk():
            view.text_color = over(view.text_color, _PLAYED_ALPHA)
            view.background = over(view.background, _PLAYED_ALPHA) if view.background else None
    return item


def _toolbar(title: str, *actions: View, navigation: View | None = None) -> View:
    children = ([navigation] if navigation else []) + [
        text_view(title, resource_id=_id("toolbar_title"), text_size=_TITLE, bold=True, padding=36, weight=1),
        *actions]
    return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("toolbar"), height=168,
                children=children, background=WHITE, padding=8)


def _newest_first(songs: list[AudioRow]) -> list[AudioRow]:
    """Songs by ``DATE_ADDED`` descending: the MediaStore's ids grow as files are added."""
    return sorted(songs, key=lambda s: -s.id)


def _home_app_bar() -> View:
    """``TopAppBarLayout``'s simple ``MaterialToolbar``: the search icon as navigation, "Retro Music" centred in the
    accent (``HomeFragment.setupTitle``), and ``menu_main``'s Settings as an action (the other items are removed;
    the cast button shows only with a route). Search and settings are not simulated: a tap does nothing."""
    return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("toolbar"), height=_ROW, padding=8,
                background=WHITE, children=[
                    View(kind="icon", class_name="android.widget.ImageButton", hint="search", clickable=True,
                         focusable=True, on_click=does_nothing, text_color=TEXT, width=126, height=126),
                    text_view(APP_NAME, text_size=_TOOLBAR_TITLE, text_color=_ACCENT, padding=0, weight=1,
                              gravity="center"),
                    _icon("action_settings", SETTINGS, "settings", does_nothing)])


def _home_button(name: str, title: str, glyph: str, on_click: Callback) -> View:
    """A ``HomeActionButton`` (``Widget.Material3.Button.ElevatedButton.Icon``): the 18 dp icon in the accent, the
    label in ``colorOnSurface`` 16 dp after it, on the raised surface, rounded 16 dp; padded 16 dp."""
    label = View(kind="label", hint=title, text_size=_SMALL, height=_dp(20), padding=0, weight=1)
    return View(kind="row", class_name="android.widget.Button", resource_id=_id(name), text=title, clickable=True,
                focusable=True, on_click=on_click, weight=1, padding=_dp(16), background=_BUTTON, corner=_dp(16),
                elevation=_dp(1), children=[
                    View(kind="icon", class_name="", hint=glyph, text_color=_ACCENT, width=_dp(18), height=_dp(18)),
                    View(width=_dp(16)), label])


def _home_section(title: str, items: list[View]) -> View:
    """``section_recycler_view``: the title and the accent arrow over a horizontal list. Opening the section's
    full list (artists, albums) is not simulated."""
    head = View(kind="row", class_name="android.widget.LinearLayout", resource_id=_id("clickable_area"),
                clickable=True, focusable=True, on_click=does_nothing, children=[
                    text_view(title, resource_id=_id("title"), text_size=_HEADLINE6, bold=True, padding=_dp(16),
                              weight=1),
                    _icon("arrow", "", "arrow_forward", None, color=_ACCENT, size=_dp(56))])
    return column(head, row(*items, resource_id=_id("recyclerView")))


def _artist_item(name: str) -> View:
    """``item_artist``: the artist's art (the placeholder) in a 156 dp circle, the name centred under it."""
    return _recent_item(name, "artist", corner=_dp(78), gravity="center")


def _album_item(name: str) -> View:
    """``item_image``: the album's art (the placeholder) in a 156 dp card rounded 16 dp, the title under it."""
    return _recent_item(name, "album", corner=_dp(16))


def _recent_item(name: str, glyph: str, corner: int, **title: Any) -> View:
    """A recent section's item: the placeholder art (``glyph``) 156 dp square, rounded ``corner``, ``name`` under
    it (``title``: the title's further properties)."""
    return column(_icon("image", "", glyph, None, color=_ART_INK, size=_dp(156), background=_ART, corner=corner),
                  text_view(name, resource_id=_id("title"), text_size=_BODY, padding=_dp(6), **title),
                  width=_dp(172), padding=_dp(8))


# ----- MainActivity -----------------------------------------------------------------------------------------------
class MainScreen(Screen):
    """``MainActivity``: the library tabs, a playlist's songs, the now playing screen and the queue in one
    activity (they are fragments of its navigation graph), the mini player and the bottom navigation."""

    activity = MAIN_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.tab = "action_home"
        self.pages: list[tuple[str, int]] = []  # the fragments over the library: ("playlist", id), ("player", 0), …
        self.menu: list[tuple[str, Callback]] | None = None
        self.dialog = ""  # "add", "create", "rename", "delete"
        self.dialog_songs: list[AudioRow] = []
        self.song_key = 0  # the SongEntity a "remove" dialog is about
        self.dialog_playlist: Playlist | None = None
        self.name = ""
        self.checked: list[AudioRow] = []  # the selection mode's songs, in the order checked
        self.suggestion_draw = 0  # how many times Suggestions were drawn again (the seed of their shuffle)

    @property
    def retro(self) -> RetroMusic:
        """The app."""
        assert isinstance(self.app, RetroMusic)
        return self.app

    # ----- navigation -----
    def on_back(self) -> bool:
        if self.menu is not None or self.dialog:
            self._close()
            return True
        if self.checked:
            self._finish_selection()
            return True
        if self.pages:
            self.pages.pop()
            return True
        return False

    def _close(self) -> None:
        self.menu, self.dialog, self.dialog_songs, self.dialog_playlist = None, "", [], None
        self.focus_key, self.keyboard_shown = "", False

    def _select(self, tab: str) -> None:
        self.tab, self.pages, self.checked = tab, [], []

    @property
    def page(self) -> str:
        """The fragment in front: "" (the library), "playlist", "player" or "queue"."""
        return self.pages[-1][0] if self.pages else ""

    @property
    def playlist_id(self) -> int:
        """The playlist a "playlist" page shows."""
        return self.pages[-1][1] if self.pages else 0

    def _open(self, page: str, playlist_id: int = 0) -> None:
        self.pages.append((page, playlist_id))
        self.checked = []

    def _drop_page(self) -> View:
        """The page's subject is gone (a deleted playlist, an emptied queue): back to what is under it."""
        self.pages.pop()
        return self.build()

    # ----- build -----
    def build(self) -> View:
        pages: dict[str, Callable[[], View]] = {"playlist": self._playlist_page, "player": self._player_page,
                                                "queue": self._queue_page, **{page: self._detail_page
                                                                              for page in DETAIL_LISTS}}
        if self.page in pages:
            body = pages[self.page]()
        else:
            tabs = {"action_home": self._home, "action_song": self._songs, "action_album": self._albums,
                    "action_artist": self._artists, "action_playlist": self._playlists}
            actions = [_icon("action_new_playlist", NEW_PLAYLIST, "plus", lambda: self._ask_create([]))] \
                if self.tab == "action_playlist" else []
            top = self._action_mode_bar() if self.checked else \
                _home_app_bar() if self.tab == "action_home" else _toolbar(APP_NAME, *actions)
            body = column(top, tabs[self.tab](), *self._mini_player(), self._navigation(), gravity="fill")
        screen = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("mainContent"),
                      background=WHITE, children=[body])
        if self.menu is not None:
            return popup_menu(screen, list(self.menu), self._close, PACKAGE)
        dialogs = {"add": self._add_dialog, "create": self._create_dialog, "rename": self._rename_dialog,
                   "remove": self._remove_dialog,
                   "delete": self._delete_dialog}
        if self.dialog in dialogs:
            return dialog_over(screen, dialogs[self.dialog](), self._close)
        return screen

    def _navigation(self) -> View:
        """``bottomNavigationView`` with the library categories shown by default."""
        items = []
        for tab, title, glyph in TABS:
            chosen = tab == self.tab
            color = _ACCENT if chosen else TEXT_SECONDARY
            items.append(View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id(tab),
                              content_desc=title, selected=chosen, clickable=True, focusable=True, weight=1,
                              on_click=lambda tab=tab: self._select(tab), children=[
                                  _icon("", "", glyph, None, color=color, size=72, gravity="center_horizontal"),
                                  text_view(title, text_size=_SMALL - 4, padding=2, text_color=color, bold=chosen,
                                            gravity="center_horizontal")]))
        return View(kind="row", class_name="android.widget.FrameLayout", resource_id=_id("bottomNavigationView"),
                    height=190, background=_NAVIGATION, children=items)

    def _mini_player(self) -> list[View]:
        """``MiniPlayerFragment``: the current song; a tap opens the now playing screen."""
        current = self.retro.current()
        if current is None:
            return []
        playing = self.retro.playing
        return [View(kind="row", class_name="android.widget.FrameLayout", resource_id=_id("miniPlayerFragment"),
                     clickable=True, focusable=True, on_click=lambda: self._open("player"), height=150, padding=16,
                     background=_MINI_PLAYER, children=[
                         text_view(f"{current.title} • {current.artist}", resource_id=_id("miniPlayerTitle"),
                                   text_size=_SMALL, weight=1, padding=20),
                         _icon("actionPlayPause", "Pause" if playing else PLAY, "pause" if playing else "play",
                               self.retro.toggle_play)])]

    def _song_rows(self, songs: Sequence[AudioRow], key: str, extra: Callable[[AudioRow], list] | None = None,
                   selectable: bool = True) -> View:
        """A ``SongAdapter``'s list; ``selectable``: its songs can be checked (a long press starts the selection
        mode, in which a tap checks or unchecks)."""
        if not songs:
            return column(text_view(NO_SONGS, resource_id=_id("emptyText"), text_color=TEXT_SECONDARY, padding=48),
                          weight=1)
        selecting = selectable and bool(self.checked)
        rows = [_list_row(song.title, song.artist, _art("audio"),
                          (lambda song=song: self._toggle(song)) if selecting
                          else lambda i=i: self.retro.open_queue(songs, i),
                          lambda song=song: self._song_menu(song, extra(song) if extra else []),
                          on_long_click=(lambda song=song: self._toggle(song)) if selectable else None,
                          activated=selecting and song in self.checked)
                for i, song in enumerate(songs)]
        return scroll_list(*rows, key=key, resource_id=_id("recycler_view"), scroll_offset=self.scroll.get(key, 0),
                           weight=1)

    # ----- selection mode -----
    def _toggle(self, song: AudioRow) -> None:
        """``toggleChecked``: unchecked if checked, else checked last; the mode ends with no song checked."""
        if song in self.checked:
            self.checked.remove(song)
        else:
            self.checked.append(song)

    def _selection_action(self, action: Callable[[list[AudioRow]], None]) -> Callback:
        """``onActionItemClicked``: the item acts on the checked songs, then the mode ends."""
        def run() -> None:
            songs, self.checked = self.checked, []
            action(songs)
        return run

    def _select_all(self) -> None:
        """``checkAll``: every song of the tab's list, in its order."""
        self.checked = self._last_added() if self.page == "last_added" else self.retro.library()

    def _finish_selection(self) -> None:
        """``ActionMode.finish``: nothing checked."""
        self.checked = []

    def _action_mode_bar(self) -> View:
        """The action mode over the toolbar: "Done", the count, then ``menu_media_selection.xml``'s items that fit
        as action buttons and the overflow with the rest."""
        items: list[tuple[str, str, str, Callback]] = [
            ("action_play_next", PLAY_NEXT, "redo", self._selection_action(self.retro.play_next)),
            ("action_add_to_current_playing", ADD_TO_QUEUE, "library_add",
             self._selection_action(self.retro.enqueue)),
            ("action_add_to_playlist", ADD_TO_PLAYLIST, "playlist_add", self._selection_action(self._ask_add)),
            ("action_multi_select_adapter_check_all", SELECT_ALL, "select_all", self._select_all)]
        width_dp = self.phone.window.design_width * _DP_PER_PX
        slots = next((count for least, count in _MAX_ACTION_BUTTONS if width_dp >= least), 2)
        shown = items if len(items) <= slots else items[:slots - 1]
        buttons = [_icon(name, title, glyph, action, size=_ROW - 24) for name, title, glyph, action in shown]
        if len(shown) < len(items):
            rest = [(title, action) for _, title, _, action in items[len(shown):]]
            buttons.append(_icon("", MORE_OPTIONS, "more", lambda: self._open_menu(rest), size=_ROW - 24))
        count = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("selection_mode_number"),
                     focusable=True, weight=1, children=[
                         text_view(str(len(self.checked)), resource_id=_id("up"), text_size=_TITLE, padding=24)])
        close = _icon("action_mode_close_button", DONE, "arrow_back", self._finish_selection, size=_ROW - 24)
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("action_mode_bar"), height=168,
                    children=[close, count, *buttons], background=_CHECKED, padding=8)

    def _last_added(self) -> list[AudioRow]:
        """``LastAddedRepository.recentSongs``: the songs, newest first."""
        return _newest_first(self.retro.library())

    def _suggestions(self, library: list[AudioRow]) -> list[AudioRow]:
        """``RealRepository.suggestions``: the songs never played (no play counts are kept: all of them) shuffled,
        when there are over 9; the shuffle is drawn again on "refresh" (its count is the seed)."""
        if len(library) < _SUGGESTIONS_FROM:
            return []
        songs = list(library)
        random.Random(self.suggestion_draw).shuffle(songs)
        return songs[:_SUGGESTED]

    def _refresh_suggestions(self) -> None:
        self.suggestion_draw += 1

    def _home(self) -> View:
        """``HomeFragment`` under its app bar: the user's welcome (``user_image_layout``), ``abs_playlists``'s four
        buttons, Suggestions (``item_suggestions``), then ``HomeAdapter``'s sections that have items: the recent
        artists and albums (``LastAddedRepository``: of the last added songs, 5 each); the top played and the
        favourites need play counts and favourites this phone does not keep."""
        welcome = row(View(width=_dp(16)),
                      _icon("userImage", "", "account_circle", does_nothing, color=_ACCENT, size=_dp(42)),
                      View(width=_dp(16)),
                      column(text_view(WELCOME, resource_id=_id("text"), text_size=_SMALL,
                                       text_color=TEXT_SECONDARY, padding=0),
                             text_view(USER_NAME, resource_id=_id("titleWelcome"), text_size=_HEADLINE6, bold=True,
                                       padding=0), weight=1),
                      padding=_dp(16))
        buttons = [(("history", HISTORY, "recents", lambda: self._open("history")),
                    ("lastAdded", LAST_ADDED, "library_add", lambda: self._open("last_added"))),
                   (("topPlayed", MOST_PLAYED, "trending_up", lambda: self._open("top_played")),
                    ("actionShuffle", SHUFFLE, "shuffle", self.retro.shuffle_all))]
        grid = [row(_home_button(*left), View(width=_dp(16)), _home_button(*right), padding=0)
                for left, right in buttons]
        playlists = column(grid[0], View(height=_dp(8)), grid[1], padding=_dp(16), resource_id=_id("abs_playlists"))
        library = self.retro.library()
        sections = [self._suggestion_cards(self._suggestions(library))]
        albums: dict[int, AudioRow] = {}  # splitIntoAlbums: an album by its newest song
        for song in _newest_first(library):
            albums.setdefault(song.album_id, song)
        artists: dict[int, AudioRow] = {}  # splitIntoArtists: the albums by their newest song's artist
        for first in albums.values():
            artists.setdefault(first.artist_id, first)
        sections += [_home_section(RECENT_ARTISTS, [_artist_item(song.artist)
                                                    for song in list(artists.values())[:_RECENT]]) if artists else None,
                     _home_section(RECENT_ALBUMS, [_album_item(song.album)
                                                   for song in list(albums.values())[:_RECENT]]) if albums else None]
        return View(kind="list", class_name=SCROLL_VIEW, resource_id=_id("container"), key="home", scrollable=True,
                    focusable=True, scroll_offset=self.scroll.get("home", 0), weight=1,
                    children=[welcome, playlists, *(section for section in sections if section is not None)])

    def _suggestion_cards(self, songs: list[AudioRow]) -> View | None:
        """``item_suggestions``: the title and the accent "refresh", then "New Music Mix" (4 of 10 columns, square)
        beside two small songs stacked (2 columns) and a large one (4), and five small ones (2 each) under them; a
        tap on a song plays it next (now, unless playing), on the mix the eight songs."""
        if not songs:
            return None
        unit = (self.phone.window.design_width - 2 * _dp(4)) // 10

        def card(number: int, span: int, content: View) -> View:
            """A ``MaterialCardView`` ``span`` columns square, its compat padding (4 dp) around ``content``."""
            return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id(f"card{number}"),
                        width=span * unit, height=span * unit, padding=_dp(4), children=[content])

        def song(index: int, span: int) -> View:
            """``image<index + 1>``, in ``card7``..``card9`` (the first three), then ``card1``..``card5``."""
            picked = songs[index]
            return card(index + 7 if index < 3 else index - 2, span, _icon(
                f"image{index + 1}", "", "audio", lambda: self.retro.play_soon([picked]), color=_ART_INK,
                size=span * unit - 2 * _dp(4), background=_ART, corner=_dp(16)))
        mix = card(6, 4, text_view(NEW_MUSIC_MIX, resource_id=_id("message"), text_size=_MIX_TEXT, bold=True,
                                   text_color=_ACCENT, padding=_dp(8), background=_MIX, corner=_dp(16), weight=1,
                                   clickable=True, focusable=True, on_click=lambda: self.retro.play_soon(songs)))
        title = row(text_view(SUGGESTIONS, resource_id=_id("title"), text_size=_HEADLINE6, bold=True, padding=_dp(16),
                              weight=1),
                    _icon("refresh_button", "", "refresh", self._refresh_suggestions, color=_ACCENT, size=_dp(56)))
        return column(title, row(mix, column(song(0, 2), song(2, 2)), song(1, 4)),
                      row(*(song(index, 2) for index in range(3, _SUGGESTED))),
                      padding=_dp(4), resource_id=_id("suggestions"))

    def _songs(self) -> View:
        return self._song_rows(self.retro.library(), "songs_list")

    def _grouped(self, label: Callable[[AudioRow], str], glyph: str, key: str) -> View:
        groups: dict[str, int] = {}
        for song in self.retro.library():
            groups[label(song)] = groups.get(label(song), 0) + 1
        rows = [_list_row(name, f"{count} {'Song' if count == 1 else 'Songs'}", _art(glyph), None, None)
                for name, count in sorted(groups.items(), key=lambda item: item[0].lower())]
        return scroll_list(*rows, key=key, resource_id=_id("recycler_view"), weight=1) if rows else \
            column(text_view(NO_SONGS, resource_id=_id("emptyText"), text_color=TEXT_SECONDARY, padding=48), weight=1)

    def _albums(self) -> View:
        return self._grouped(lambda s: s.album, "album", "albums_list")

    def _artists(self) -> View:
        return self._grouped(lambda s: s.artist, "artist", "artists_list")

    def _playlists(self) -> View:
        playlists = self.retro.playlists.playlists()
        if not playlists:
            return column(text_view(NO_PLAYLISTS, resource_id=_id("emptyText"), text_color=TEXT_SECONDARY,
                                    padding=48), weight=1)
        rows = [_list_row(p.name, f"{p.count} {'Song' if p.count == 1 else 'Songs'}", _glyph("playlist"),
                          lambda p=p: self._open("playlist", p.id), lambda p=p: self._playlist_menu(p))
                for p in playlists]
        return scroll_list(*rows, key="playlists_list", resource_id=_id("recycler_view"),
                           scroll_offset=self.scroll.get("playlists_list", 0), weight=1)

    def _back_button(self) -> View:
        return _icon("", "Navigate up", "arrow_back", self.on_back)

    def _playlist_page(self) -> View:
        """``PlaylistDetailsFragment``: the playlist's songs in order, its menu in the toolbar."""
        playlist = self.retro.playlists.playlist(self.playlist_id)
        if playlist is None:
            return self._drop_page()
        entries = self.retro.playlists.songs(playlist.id)
        songs = [song for _, song in entries]
        keys = {id(song): key for key, song in entries}
        body = self._song_rows(songs, "playlist_songs", lambda song: [
            (REMOVE_FROM_PLAYLIST, lambda: self._ask_remove(keys[id(song)], song))], selectable=False) if songs else \
            column(text_view(EMPTY_PLAYLIST, resource_id=_id("emptyText"), text_color=TEXT_SECONDARY, padding=48),
                   weight=1)
        header = text_view(f"{len(songs)} {'Song' if len(songs) == 1 else 'Songs'} • "
                           f"{duration_text(sum(s.duration for s in songs))}", resource_id=_id("subtitle"),
                           text_size=_SMALL, text_color=TEXT_SECONDARY, padding=24)
        toolbar = _toolbar(playlist.name, _icon("", MORE_OPTIONS, "more", lambda: self._playlist_menu(playlist)),
                           navigation=self._back_button())
        return column(toolbar, header, body, *self._mini_player(), gravity="fill")

    def _detail_page(self) -> View:
        """``DetailListFragment``: the last added songs, or the history and the most played, empty here (no
        history or play counts are kept; the history says so, as its ``empty`` view does)."""
        title = DETAIL_LISTS[self.page]
        songs = self._last_added() if self.page == "last_added" else []
        body = self._song_rows(songs, self.page) if songs or self.page == "history" else View(weight=1)
        top = self._action_mode_bar() if self.checked else _toolbar(title, navigation=self._back_button())
        return column(top, body, *self._mini_player(), gravity="fill")

    def _player_page(self) -> View:
        """The now playing screen (``PlayerFragment``): the song, its time and the controls."""
        current = self.retro.current()
        if current is None:
            return self._drop_page()
        playing = self.retro.playing
        controls = row(View(weight=1), _icon("previousButton", "Previous", "chevron_left", self.retro.previous),
                       _icon("playPauseButton", "Pause" if playing else PLAY, "pause" if playing else "play",
                             self.retro.toggle_play, color=_ACCENT, size=168),
                       _icon("nextButton", "Next", "chevron_right", self.retro.next), View(weight=1))
        return column(_toolbar(NOW_PLAYING, _icon("action_queue", QUEUE, "playlist", lambda: self._open("queue")),
                               navigation=self._back_button()),
                      View(height=700, background=_PLAYER_ART),
                      text_view(current.title, resource_id=_id("title"), text_size=_TITLE, bold=True, padding=36),
                      text_view(current.artist, resource_id=_id("text"), text_size=_BODY, text_color=TEXT_SECONDARY,
                                padding=36),
                      row(text_view("0:00", resource_id=_id("songCurrentProgress"), text_size=_SMALL, weight=1,
                                    padding=36),
                          text_view(duration_text(current.duration), resource_id=_id("songTotalTime"),
                                    text_size=_SMALL, padding=36)),
                      controls, View(weight=1), gravity="fill")

    def _queue_page(self) -> View:
        """``PlayingQueueFragment``: the queue in ``item_queue`` rows; a tap plays that position."""
        queue = self.retro.queue()
        rows = [_queue_row(song, lambda i=i: self.retro.play_at(i),
                           lambda i=i: self._open_menu([(REMOVE_FROM_QUEUE, lambda: self.retro.remove_at(i))]),
                           played=i <= self.retro.position) for i, song in enumerate(queue)]
        body = scroll_list(*rows, key="queue_list", resource_id=_id("recyclerView"),
                           scroll_offset=self.scroll.get("queue_list", 0), weight=1) if rows else \
            column(text_view(NO_QUEUE, resource_id=_id("emptyText"), text_color=TEXT_SECONDARY, padding=48), weight=1)
        return column(_toolbar(QUEUE, _icon("action_clear_playing_queue", CLEAR_QUEUE, "clear",
                                            self.retro.clear_queue), navigation=self._back_button()),
                      body, gravity="fill")

    # ----- menus -----
    def _open_menu(self, items: list[tuple[str, Callback]]) -> None:
        def wrap(action: Callback) -> Callback:
            def run() -> None:
                self.menu = None
                action()
            return run
        self.menu = [(title, wrap(action)) for title, action in items]

    def _song_menu(self, song: AudioRow, extra: list[tuple[str, Callback]]) -> None:
        """``menu_item_song.xml`` (and, in a playlist, "Remove from playlist")."""
        self._open_menu([(PLAY_NEXT, lambda: self.retro.play_next([song])),
                         (ADD_TO_QUEUE, lambda: self.retro.enqueue([song])),
                         (ADD_TO_PLAYLIST, lambda: self._ask_add([song])), *extra])

    def _playlist_menu(self, playlist: Playlist) -> None:
        """``menu_item_playlist.xml``."""
        def songs() -> list[AudioRow]:
            return [song for _, song in self.retro.playlists.songs(playlist.id)]
        self._open_menu([(PLAY, lambda: self.retro.open_queue(songs(), 0)),
                         (PLAY_NEXT, lambda: self.retro.play_next(songs())),
                         (ADD_TO_QUEUE, lambda: self.retro.enqueue(songs())),
                         (ADD_TO_PLAYLIST, lambda: self._ask_add(songs())),
                         (RENAME, lambda: self._ask("rename", playlist, playlist.name)),
                         (DELETE, lambda: self._ask("delete", playlist, "")),
                         (SAVE_AS_FILE, lambda: self.retro.save_as_file(playlist))])

    # ----- dialogs -----
    def _ask(self, dialog: str, playlist: Playlist | None, name: str, songs: Sequence[AudioRow] = ()) -> None:
        self.dialog, self.dialog_playlist, self.name, self.dialog_songs = dialog, playlist, name, list(songs)
        if dialog in ("create", "rename"):
            self.focus_key, self.keyboard_shown = "playlist_name", True

    def _ask_add(self, songs: list[AudioRow]) -> None:
        self._ask("add", None, "", songs)

    def _ask_create(self, songs: list[AudioRow]) -> None:
        self._ask("create", None, "", songs)

    def _add_to(self, playlist: Playlist) -> None:
        self.retro.playlists.add(playlist.id, self.dialog_songs)
        self._close()

    def _add_dialog(self) -> View:
        """``AddToPlaylistDialog``: "New playlist", then the playlists."""
        songs = list(self.dialog_songs)
        rows = [_list_row(NEW_PLAYLIST, "", _glyph("plus"), lambda: self._ask_create(songs), None)]
        rows += [_list_row(p.name, "", _glyph("playlist"), lambda p=p: self._add_to(p), None)
                 for p in self.retro.playlists.playlists()]
        body = scroll_list(*rows, key="add_playlist_list", resource_id=_id("playlists"),
                           scroll_offset=self.scroll.get("add_playlist_list", 0),
                           height=sum(measure_height(r, DIALOG_WIDTH) for r in rows[:6]))
        return alert_dialog([body], [("button2", CANCEL, self._close)], title=ADD_TO_PLAYLIST, package=PACKAGE)

    def _name_field(self) -> View:
        def set_name(text: str) -> None:
            self.name = text
        return edit_text(self.name, PLAYLIST_NAME, "playlist_name", set_name, resource_id=_id("actionNewPlaylist"),
                         focused=self.focus_key == "playlist_name", margin=36)

    def _create(self) -> None:
        """``CreatePlaylistDialog``: a playlist of the dialog's songs; an empty name does nothing."""
        name = self.name.strip()
        if not name:
            return
        playlist_id = self.retro.playlists.create(name)
        self.retro.playlists.add(playlist_id, self.dialog_songs)
        self._close()

    def _create_dialog(self) -> View:
        return alert_dialog([self._name_field()], [("button2", CANCEL, self._close), ("button1", CREATE, self._create)],
                            title=NEW_PLAYLIST, package=PACKAGE)

    def _rename(self) -> None:
        name = self.name.strip()
        if name and self.dialog_playlist is not None:
            self.retro.playlists.rename(self.dialog_playlist.id, name)
        self._close()

    def _rename_dialog(self) -> View:
        return alert_dialog([self._name_field()], [("button2", CANCEL, self._close), ("button1", RENAME, self._rename)],
                            title=RENAME_PLAYLIST, package=PACKAGE)

    def _delete(self) -> None:
        if self.dialog_playlist is not None:
            self.retro.playlists.delete(self.dialog_playlist.id)
        self._close()

    def _delete_dialog(self) -> View:
        """``DeletePlaylistDialog``."""
        name = self.dialog_playlist.name if self.dialog_playlist else ""
        return self._confirm(DELETE_PLAYLIST, f"Delete the playlist {name}?", DELETE, self._delete)

    def _ask_remove(self, song_key: int, song: AudioRow) -> None:
        self._ask("remove", None, "", [song])
        self.song_key = song_key

    def _remove(self) -> None:
        self.retro.playlists.remove_song(self.song_key)
        self._close()

    def _remove_dialog(self) -> View:
        """``RemoveSongFromPlaylistDialog``."""
        title = self.dialog_songs[0].title if self.dialog_songs else ""
        return self._confirm(REMOVE_SONG, f"Remove the song {title} from the playlist?", REMOVE, self._remove)

    def _confirm(self, title: str, message: str, positive: str, action: Callback) -> View:
        """A titled AlertDialog with Cancel and ``positive``."""
        panel = confirm_dialog(message, CANCEL, self._close, positive, action)
        panel.children.insert(0, text_view(title, resource_id=_id("alertTitle"), text_size=_TITLE, padding=52,
                                           bold=True))
        return panel


class RetroMusic(App):
    """``code.name.monkey.retromusic``: the library from the MediaStore, playlists in ``playlist.db``, the queue in
    ``music_playback_state.db``. The playing position and state live in the process (lost on force-stop)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "audio", (255, 87, 34)
    version_name, version_code = "6.0.3", 10603  # android_gym/device/apps.toml
    #: ``GENERAL_THEME`` defaults to "auto" (the system's): ``Theme.Material3.DynamicColors.DayNight``'s dark
    #: surfaces and text, the accent ``system_accent1_200``, the raised surfaces tinted with it, and the
    #: placeholder art of ``drawable-night`` (a grey glyph on near black).
    night_colors = {**MATERIAL_YOU_NIGHT, _ACCENT: _NIGHT_ACCENT, _ART: (17, 17, 17), _ART_INK: (124, 124, 124),
                    _BUTTON: over(_NIGHT_ACCENT, 0.05, MATERIAL_YOU_NIGHT[WHITE]),
                    _MIX: over(_NIGHT_ACCENT, 0.12, MATERIAL_YOU_NIGHT[WHITE]),
                    _CHECKED: over(_NIGHT_ACCENT, 0.24, MATERIAL_YOU_NIGHT[WHITE]),
                    **dict.fromkeys((_NAVIGATION, _MINI_PLAYER, _PLAYER_ART), MATERIAL_YOU_NIGHT[(232, 234, 237)])}
    screens = (MainScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.playlists = PlaylistDatabase(phone)
        self.queue_store = PlaybackQueue(phone)
        self.media_store = MediaStore(phone)  # one reader of the library, which keeps what it read (``cached``)
        self.position = 0
        self.playing = False
        self.shuffles = 0  # how many times Shuffle has drawn (the seed of the next draw)

    def on_force_stop(self) -> None:
        self.position, self.playing = 0, False

    def on_clear(self) -> None:
        """``pm clear``: empty databases."""
        self.on_force_stop()
        self.playlists.ensure_db()
        self.queue_store.ensure_db()

    def library(self) -> list[AudioRow]:
        """``SongRepository.songs()``: the MediaStore's music, by title."""
        return sorted(self.media_store.songs(), key=lambda song: song.title.lower())

    def queue(self) -> list[AudioRow]:
        """The playing queue as saved."""
        try:
            return self.queue_store.load()
        except sqlite3.DatabaseError:
            return []

    def current(self) -> AudioRow | None:
        """The song at the playing position."""
        queue = self.queue()
        return queue[min(self.position, len(queue) - 1)] if queue else None

    def _set_queue(self, queue: Sequence[AudioRow], position: int, play: bool | None = None,
                   original: Sequence[AudioRow] | None = None) -> None:
        self.queue_store.save(queue, original)
        self.position = max(min(position, len(queue) - 1), 0)
        if play is not None:
            self.playing = play and bool(queue)

    def open_queue(self, songs: Sequence[AudioRow], position: int) -> None:
        """``openQueue(songs, position, startPlaying=true)``."""
        if songs:
            self._set_queue(songs, position, True)

    def enqueue(self, songs: Sequence[AudioRow]) -> None:
        """``enqueue``: appended, or a new queue (not playing) when there is none."""
        queue = self.queue()
        if not queue:
            self._set_queue(songs, 0, False)
        else:
            self._set_queue([*queue, *songs], self.position)

    def play_next(self, songs: Sequence[AudioRow]) -> None:
        """``playNext``: after the current song, or a new queue (not playing) when there is none."""
        queue = self.queue()
        if not queue:
            self._set_queue(songs, 0, False)
        else:
            at = self.position + 1
            self._set_queue([*queue[:at], *songs, *queue[at:]], self.position)

    def shuffle_all(self) -> None:
        """``LibraryViewModel.shuffleSongs``: ``openAndShuffleQueue(songs, startPlaying=true)``, every song with a
        random one first, then the rest shuffled (``ShuffleHelper.makeShuffleList``), the library's order kept as
        the original queue. The phone's random numbers are a count of shuffles, so a run is repeatable."""
        songs = self.library()
        if not songs:
            return
        picker = random.Random(self.shuffles)
        self.shuffles += 1
        rest = list(songs)
        first = rest.pop(picker.randrange(len(rest)))
        picker.shuffle(rest)
        self._set_queue([first, *rest], 0, True, original=songs)

    def play_soon(self, songs: Sequence[AudioRow]) -> None:
        """A suggestion's tap: ``playNext`` the songs, then, unless playing, ``playNextSong`` (the first of them)."""
        had_queue = bool(self.queue())
        self.play_next(songs)
        if not self.playing:
            self.play_at(self.position + 1 if had_queue else 0)

    def play_at(self, position: int) -> None:
        self.position, self.playing = position, True

    def remove_at(self, position: int) -> None:
        queue = self.queue()
        if 0 <= position < len(queue):
            del queue[position]
            self._set_queue(queue, self.position - (position < self.position))

    def clear_queue(self) -> None:
        self._set_queue([], 0, False)

    def toggle_play(self) -> None:
        self.playing = not self.playing

    def next(self) -> None:
        if self.position + 1 < len(self.queue()):
            self.position += 1

    def previous(self) -> None:
        self.position = max(self.position - 1, 0)

    def save_as_file(self, playlist: Playlist) -> None:
        """``SavePlaylistDialog``: ``<external storage>/Playlists/<name>.m3u`` (written only when the playlist has
        songs, as ``M3UWriter.writeIO`` does)."""
        songs = [song for _, song in self.playlists.songs(playlist.id)]
        if not songs:
            return
        fs = self.phone.fs
        fs.makedirs(PLAYLISTS_DIR)
        try:
            fs.write_bytes(posixpath.join(PLAYLISTS_DIR, f"{playlist.name}.m3u"), m3u(songs).encode())
        except OSError:  # a name with a "/" in it: the file cannot be made ("Failed to save playlist")
            pass

