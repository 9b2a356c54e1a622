"""Retro Music (``code.name.monkey.retromusic``): AndroidWorld's four tasks (``task_evals/single/retro_music.py``) and
two of ours.

Setup is AndroidWorld's: the shared storage's files are deleted (``clear_internal_storage``), every
``PlaylistEntity`` and ``SongEntity`` row too, then each song is written to ``/sdcard/Music/<title>.mp3``
(``write_mp3_file_to_device``: silence of the song's length, ID3 title = the file's stem, artist a random given
name; ``sim.system.mp3`` builds the file), the MediaStore scans the folder (``am broadcast -a
android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///storage/emulated/0/Music``) and the app is stopped. The
parameters: 15 distinct titles of ``SONGS``, the first 2–5 (9–11 for ``RetroPlaylistDuration``) the targets, the
rest noise; songs last 3–5 min; a playlist is named "<theme> <1–999>" from ``THEMES``. AndroidWorld draws the
artists and lengths with Python's ``random`` at setup; here they are parameters drawn from the seeded generator,
so a seed fixes the files.

The playlist check (``sqlite_validators.verify_playlist`` on ``_get_playlist_info_query``): the rows of
``PlaylistEntity`` joined to ``SongEntity`` whose playlist name fuzzily matches must be exactly the targets, the
i-th (by ``song_key``) with the i-th title. ``RetroSavePlaylist`` adds half a point for
``/storage/emulated/0/Download/<name>.m3u``; the app's "Save as file" writes ``/storage/emulated/0/Playlists/
<name>.m3u`` (``PlaylistsUtil``), so its oracle moves the file with the Files app, as a person must.

Ours: ``RetroDeletePlaylist``, ``RetroRenamePlaylist`` and ``RetroRemoveSongFromPlaylist`` seed playlists (their
``SongEntity`` rows copy the MediaStore's rows, read from ``external.db``, as the app does) and check that exactly the
wanted change happened.
"""

from __future__ import annotations

import itertools
import posixpath
import shlex
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.device.state import push_parts, sqlite_execute_many, sqlite_query
from android_gym.envs.files import open_in_storage, select_file
from android_gym.sim.apps import files as files_app
from android_gym.sim.apps import retro_music as retro
from android_gym.sim.system import media_store
from android_gym.sim.system.mp3 import mp3_parts
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import DOWNLOAD_DATA, EXTERNAL_STORAGE, clear_device_storage, path_exists
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    complete,
    long_press,
    open_app,
    replace_text,
    scroll_until,
    tap,
    type_into,
)
from android_gym.tasks.user_data import COMMON_GIVEN_NAMES, pick
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

APP_NAME = "Retro Music"
MUSIC_DATA = f"{EXTERNAL_STORAGE}/Music"  # device_constants.MUSIC_DATA
DURATION_TOTAL_MS = 2_850_000  # 47.5 min: the Duration task's targets add up to this
DURATION_RANGE_MS = (45 * 60_000, 50 * 60_000)
SONG_MS = (3 * 60_000, 5 * 60_000)
#: ``retro_music._SONGS``.
SONGS = (
    "My Heart is Yours", "Endless Summer", "Whispering Wind", "Lost in the Echo", "Chasing Shadows", "Night Drive",
    "Echoes of Silence", "Bright Lights", "Moments", "Forever Young", "Rising Sun", "Silent Dreams", "City of Stars",
    "Moonlight Sonata", "Through the Storm", "Return to Paradise", "Voices in the Hall", "Under the Sky",
    "Dreamer's Awake", "Serenity Now", "Falling Feathers", "Orbiting Stars", "Reflections", "Beyond the Horizon",
    "Golden Days", "Twilight Calling", "Heartbeat Away", "Mystic Journey", "Hidden Paths", "Distant Memories",
    "Path to Zenith", "Eternal Flame", "Shadows of Time", "Whispers of the Past", "Waves of Change",
)
#: ``retro_music._generate_playlist_name``'s themes.
THEMES = (
    "Chill Beats", "Morning Vibes", "Workout Energy", "Study Sessions", "Golden Oldies", "Indie Gems", "Rock Anthems",
    "Electronic Waves", "Jazz Classics", "Hip Hop Hits", "Country Roads", "Classical Moods", "Pop Essentials",
    "Latin Grooves", "Reggae Rhythms", "Soulful Sounds", "Blues Vibes", "Metal Mayhem", "Party Mix", "Tranquil Tunes",
    "R&B Favorites", "Folk Inspirations", "Disco Nights", "Global Beats", "Sleepytime Songs", "Acoustic Sessions",
    "Vintage Vinyl", "Instrumental Study", "Coffeehouse Jazz", "Rainy Day Relax", "Gym Pump Up", "Retro Pop Hits",
    "Indie Rock Roadtrip", "Electronic Chillout", "Classical Concentration", "Jazz Lounge", "Hip Hop Bangers",
    "Country Classics", "Classical Opera Highlights", "Pop Punk Power", "Latin Dance Party", "Reggae Sunsplash",
    "Soul Classics", "Blues Break", "Party Starters", "Tranquil Ambient", "R&B Grooves", "Folk Favourites",
    "Disco Fever", "World Music Tour",
)
#: ``_get_playlist_info_query``.
PLAYLIST_QUERY = (
    "SELECT pe.playlist_name AS playlist_name, se.title AS media_file_name, se.duration AS duration_ms, "
    "ROW_NUMBER() OVER (PARTITION BY pe.playlist_name ORDER BY se.song_key) - 1 AS order_in_playlist "
    "FROM PlaylistEntity pe JOIN SongEntity se ON pe.playlist_id = se.playlist_creator_id "
    "ORDER BY pe.playlist_name, order_in_playlist")


def _rid(name: str) -> str:
    return f"{retro.PACKAGE}:id/{name}"


SONGS_TAB = Selector(content_desc="Songs", resource_id=_rid("action_song"))
PLAYLISTS_TAB = Selector(content_desc="Playlists", resource_id=_rid("action_playlist"))
SONG_LIST = Selector(resource_id=_rid("recycler_view"))
NAME_FIELD = Selector(resource_id=_rid("actionNewPlaylist"))
POSITIVE = Selector(resource_id="android:id/button1")


# ----- parameters ---------------------------------------------------------------------------------------------------
def playlist_name(rng: np.random.Generator) -> str:
    """``_generate_playlist_name``: a theme and a number from 1 to 999."""
    theme = pick(rng, THEMES)
    return f"{theme} {int(rng.integers(1, 1000))}"


def split_sum(rng: np.random.Generator, total: int, parts: int) -> list[int]:
    """``_generate_list_with_sum``: ``parts`` non-negative integers adding up to ``total`` (sorted random cuts)."""
    cuts = sorted(int(rng.integers(0, total + 1)) for _ in range(parts - 1))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def song_params(rng: np.random.Generator, targets: tuple[int, int]) -> dict[str, Any]:
    """15 distinct titles, the first ``targets`` (inclusive range) of them the targets, each with an artist and a
    length of 3–5 min."""
    titles = [str(title) for title in rng.choice(SONGS, size=15, replace=False)]
    count = int(rng.integers(targets[0], targets[1] + 1))
    return {"files": [f"{title}.mp3" for title in titles[:count]],
            "noise_files": [f"{title}.mp3" for title in titles[count:]],
            "artists": [pick(rng, COMMON_GIVEN_NAMES) for _ in titles],
            "durations_ms": [int(rng.integers(SONG_MS[0], SONG_MS[1] + 1)) for _ in titles]}


def stem(file_name: str) -> str:
    """A song's title: the file name up to its first dot (``f.split('.')[0]``)."""
    return file_name.split(".")[0]


# ----- device state -------------------------------------------------------------------------------------------------
def write_songs(device: Device, songs: Sequence[tuple[str, str, int]]) -> None:
    """``write_mp3_file_to_device`` for each ``(file name, artist, length in ms)`` into ``Music`` (which the first push
    makes, as ``mkdir -p`` would)."""
    for name, artist, duration in songs:
        push_parts(device, mp3_parts(duration, stem(name), artist), posixpath.join(MUSIC_DATA, name))


def scan_music(device: Device) -> None:
    """``_scan_music_directory``: the MediaStore scans ``Music``, then the app is stopped."""
    Task.run(device, f"am broadcast -a {media_store.ACTION_SCAN_FILE} -d {shlex.quote('file://' + MUSIC_DATA)} "
                     f"&& am force-stop {retro.PACKAGE}")


def clear_playlists(device: Device) -> None:
    """``_clear_playlist_dbs``: every ``PlaylistEntity`` and ``SongEntity`` row deleted."""
    sqlite_execute_many(device, retro.PLAYLIST_DB, [("DELETE FROM PlaylistEntity", ()), ("DELETE FROM SongEntity", ())])


def clear_queue(device: Device) -> None:
    """The saved playing queue emptied: every row of ``playing_queue`` and ``original_playing_queue`` deleted."""
    sqlite_execute_many(device, retro.PLAYBACK_DB, [("DELETE FROM playing_queue", ()),
                                                    ("DELETE FROM original_playing_queue", ())])


def playlist_rows(device: Device) -> list[dict[str, Any]]:
    """``_get_playlist_data``."""
    return sqlite_query(device, retro.PLAYLIST_DB, PLAYLIST_QUERY)


def playing_queue(device: Device) -> list[str]:
    """``_get_playing_queue``: the titles of ``playing_queue``."""
    return [row["title"] for row in sqlite_query(device, retro.PLAYBACK_DB, "SELECT title FROM playing_queue")]


def verify_playlist(rows: Sequence[dict[str, Any]], name: str, titles: Sequence[str]) -> bool:
    """``sqlite_validators.verify_playlist``: the rows of the playlist fuzzily named ``name`` are exactly
    ``titles``, in order."""
    matched = [row for row in rows if fuzzy_match(row["playlist_name"], name)]
    return len(matched) == len(titles) and all(
        row["media_file_name"] == title and row["order_in_playlist"] == i
        for i, (row, title) in enumerate(zip(matched, titles)))


def media_songs(device: Device) -> dict[str, dict[str, Any]]:
    """The MediaStore's ``audio`` rows under ``Music`` by title."""
    rows = sqlite_query(device, media_store.DB_PATH,
                        "SELECT _id, _data, title, artist, artist_id, album, album_id, duration, date_modified, "
                        "track, year, album_artist, composer FROM audio WHERE _data LIKE ?", (MUSIC_DATA + "/%",))
    return {row["title"]: row for row in rows}


def seed_playlists(device: Device, playlists: dict[str, Sequence[str]]) -> None:
    """Playlists named as the keys, with the songs of those titles in order: ``PlaylistEntity`` and ``SongEntity``
    rows as the app writes them (``songEntity`` copies the MediaStore's row), into the database of the app
    ``scan_music`` just stopped (a stopped app gets no broadcast: nothing starts it again); none: nothing to do."""
    if not playlists:
        return
    songs = media_songs(device)
    last = sqlite_query(device, retro.PLAYLIST_DB, "SELECT MAX(playlist_id) AS last FROM PlaylistEntity")[0]["last"]
    statements: list[tuple[str, Sequence[Any]]] = []
    for playlist_id, (name, titles) in enumerate(playlists.items(), start=(last or 0) + 1):
        statements.append(("INSERT INTO PlaylistEntity (playlist_id, playlist_name) VALUES (?, ?)",
                           (playlist_id, name)))
        for title in titles:
            s = songs[title]
            statements.append((
                "INSERT INTO SongEntity (playlist_creator_id, id, title, track_number, year, duration, data, "
                "date_modified, album_id, album_name, artist_id, artist_name, composer, album_artist) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (playlist_id, s["_id"], s["title"], s["track"], s["year"], s["duration"], s["_data"],
                 s["date_modified"], s["album_id"], s["album"], s["artist_id"], s["artist"], s["composer"],
                 s["album_artist"])))
    sqlite_execute_many(device, retro.PLAYLIST_DB, statements)


# ----- oracle steps -------------------------------------------------------------------------------------------------
def _titles(elements: Sequence[UIElement]) -> list[UIElement]:
    return [e for e in elements if e.resource_name == _rid("title") and e.bbox_pixels.area > 0]


def reveal(title: str, max_scrolls: int = 8) -> list[OracleStep]:
    """Scroll the list (up or down, by where ``title`` sorts among the titles shown first) until its row shows
    (``scroll_until``)."""
    def direction(elements: Sequence[UIElement]) -> str:
        shown = [(e.text or "").lower() for e in _titles(elements)]
        return "up" if shown and title.lower() < min(shown) else "down"

    return scroll_until(Selector(text=title, resource_id=_rid("title")).lookup, SONG_LIST, f"song {title!r}",
                        direction, max_scrolls)


def row_menu(title: str) -> OracleStep:
    """Tap the overflow button of the list row titled ``title``."""
    def step(elements: Sequence[UIElement]) -> Action:
        row = Selector(text=title, resource_id=_rid("title")).find(elements).bbox_pixels
        menus = [e for e in elements if e.resource_name == _rid("menu") and e.bbox_pixels.area > 0]
        if not menus:
            raise OracleError("no row menu on screen")
        best = min(menus, key=lambda e: abs(e.bbox_pixels.center[1] - row.center[1]))
        return Action(ActionType.CLICK, index=best.index)
    return step


def song_action(title: str, item: str) -> list[OracleStep]:
    """A song's menu item, from the Songs tab."""
    return [*reveal(title), row_menu(title), tap(Selector(text=item, resource_id=_rid("title")))]


def selection_item(item: str, name: str) -> list[OracleStep]:
    """Tap the selection mode's item ``item`` (its menu id ``name``): its action button, or, when it did not fit,
    the mode's overflow button (the "More options" inside ``action_mode_bar``) and then the item in the menu."""
    button = Selector(content_desc=item, resource_id=_rid(name))
    menu_item = Selector(text=item, resource_id=_rid("title"))

    def open_item(elements: Sequence[UIElement]) -> Action:
        if button.present(elements):
            return tap(button)(elements)
        bar = Selector(resource_id=_rid("action_mode_bar")).find(elements).bbox_pixels
        overflow = [e for e in elements if Selector(content_desc=retro.MORE_OPTIONS).matches(e)
                    and bar.y_min <= e.bbox_pixels.center[1] <= bar.y_max]
        if not overflow:
            raise OracleError("no selection mode overflow on screen")
        return Action(ActionType.CLICK, index=overflow[-1].index)

    def tap_in_menu(elements: Sequence[UIElement]) -> Action | None:
        return tap(menu_item)(elements) if menu_item.present(elements) else None

    return [open_item, tap_in_menu]


def create_playlist(name: str, titles: Sequence[str]) -> list[OracleStep]:
    """From the Songs tab, in the selection mode (``AbsMultiSelectAdapter``, which keeps the order checked): a long
    press on the first song, a tap on each other song, then "Add to playlist" → "New playlist" → the name → Create."""
    steps: list[OracleStep] = []
    for i, title in enumerate(titles):
        row = Selector(text=title, resource_id=_rid("title"))
        steps += [*reveal(title), long_press(row) if i == 0 else tap(row)]
    return [*steps, *selection_item(retro.ADD_TO_PLAYLIST, "action_add_to_playlist"),
            tap(Selector(text=retro.NEW_PLAYLIST, resource_id=_rid("title"))), type_into(NAME_FIELD, name),
            tap(POSITIVE)]


def playlist_menu(name: str, item: str) -> list[OracleStep]:
    """A playlist's menu item, from the Playlists tab."""
    return [tap(PLAYLISTS_TAB), *reveal(name), row_menu(name), tap(Selector(text=item, resource_id=_rid("title")))]


# ----- tasks --------------------------------------------------------------------------------------------------------
class _RetroTask(Task):
    """Songs in ``Music``, scanned; playlists emptied. ``files``/``noise_files`` with ``artists``/``durations_ms``
    in the same order (targets first)."""

    app_packages: ClassVar[tuple[str, ...]] = (retro.PACKAGE,)
    target_count: ClassVar[tuple[int, int]] = (2, 5)
    setup_clears_teardown = True  # the storage and the playlists teardown empties, clear_state empties too

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A playlist name and the songs (see the module)."""
        name = playlist_name(rng)
        return {"playlist_name": name, **song_params(rng, cls.target_count)}

    @property
    def titles(self) -> list[str]:
        """The target songs' titles."""
        return [stem(name) for name in self.params["files"]]

    def songs(self) -> list[tuple[str, str, int]]:
        """``(file name, artist, length)`` of every song, targets first."""
        return list(zip(self.params["files"] + self.params["noise_files"], self.params["artists"],
                        self.params["durations_ms"]))

    def clear_state(self, device: Device) -> None:
        """``clear_internal_storage`` and ``_clear_playlist_dbs``."""
        clear_device_storage(device)
        clear_playlists(device)

    def seed_state(self, device: Device) -> None:
        """The songs, then the scan."""
        write_songs(device, self.songs())
        scan_music(device)

    def teardown(self, device: Device) -> None:
        """``tear_down``: storage and playlists cleared."""
        super().teardown(device)
        clear_device_storage(device)
        clear_playlists(device)


@register_task
class RetroCreatePlaylist(_RetroTask):
    """Create a playlist of the given songs, in order."""

    name = "RetroCreatePlaylist"
    complexity = 2.4

    @property
    def goal(self) -> str:
        return (f'Create a playlist in Retro Music titled "{self.params["playlist_name"]}" with the following songs, '
                f'in order: {", ".join(self.titles)}')

    def is_successful(self, device: Device) -> float:
        """The playlist check."""
        return float(verify_playlist(playlist_rows(device), self.params["playlist_name"], self.titles))

    def oracle(self) -> Sequence[OracleStep]:
        return [open_app(APP_NAME), tap(SONGS_TAB), *create_playlist(self.params["playlist_name"], self.titles),
                complete()]


@register_task
class RetroPlayingQueue(RetroCreatePlaylist):
    """Add the given songs, in order, to the playing queue."""

    name = "RetroPlayingQueue"
    complexity = 3.2

    @property
    def goal(self) -> str:
        return f'Add the following songs, in order, {", ".join(self.titles)} to my playing queue in Retro music.'

    def clear_state(self, device: Device) -> None:
        """As the others, and the saved queue emptied (AndroidWorld's setup leaves it; a queue left by an earlier
        episode would otherwise be extended)."""
        super().clear_state(device)
        clear_queue(device)

    def is_successful(self, device: Device) -> float:
        """``playing_queue``'s titles are exactly the targets."""
        return float(playing_queue(device) == self.titles)

    def oracle(self) -> Sequence[OracleStep]:
        steps = [open_app(APP_NAME), tap(SONGS_TAB)]
        for title in self.titles:
            steps += song_action(title, retro.ADD_TO_QUEUE)
        return [*steps, complete()]


@register_task
class RetroSavePlaylist(RetroCreatePlaylist):
    """Create the playlist, then export it to Download."""

    name = "RetroSavePlaylist"
    complexity = 5

    @property
    def goal(self) -> str:
        return super().goal + ". Then export the playlist to the Downloads directory on the device."

    def is_successful(self, device: Device) -> float:
        """Half for the playlist check, half for ``Download/<name>.m3u``."""
        exported = path_exists(device, DOWNLOAD_DATA, f"{self.params['playlist_name']}.m3u")
        return (super().is_successful(device) + float(exported)) / 2

    def oracle(self) -> Sequence[OracleStep]:
        """Create it, "Save as file" (to ``Playlists``), then move the file to ``Download`` in Files."""
        name = self.params["playlist_name"]
        return [open_app(APP_NAME), tap(SONGS_TAB), *create_playlist(name, self.titles),
                *playlist_menu(name, retro.SAVE_AS_FILE), *select_file("Playlists", f"{name}.m3u"),
                tap(Selector(content_desc=files_app.MORE_OPTIONS)), tap(Selector(text=files_app.MOVE_TO)),
                *open_in_storage("Download"), tap(Selector(text=files_app.MOVE, resource_id="android:id/button1")),
                complete()]


def shortest_selection(durations: Sequence[int], low: int, high: int) -> list[int]:
    """The fewest songs (by index, in index order) whose lengths add up to ``low``..``high``; ties go to the first
    found."""
    for size in range(1, len(durations) + 1):
        for chosen in itertools.combinations(range(len(durations)), size):
            if low <= sum(durations[i] for i in chosen) <= high:
                return list(chosen)
    raise OracleError("no selection of songs fits the duration")


@register_task
class RetroPlaylistDuration(_RetroTask):
    """Create a playlist lasting 45 to 50 minutes from the songs."""

    name = "RetroPlaylistDuration"
    complexity = 3
    target_count = (9, 11)
    setup_clears_teardown = False  # its clear_state leaves the storage teardown empties

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """As the others, the targets' lengths a random split of 2 850 000 ms."""
        params = super().generate_params(rng)
        count = len(params["files"])
        params["durations_ms"][:count] = split_sum(rng, DURATION_TOTAL_MS, count)
        return params

    @property
    def goal(self) -> str:
        return (f'Create a playlist in Retro Music titled "{self.params["playlist_name"]}" with a duration between 45 '
                "and 50 minutes using the provided songs.")

    def clear_state(self, device: Device) -> None:
        """Only ``_clear_playlist_dbs``: AndroidWorld's setup skips the base setup (no storage clear)."""
        clear_playlists(device)

    def hand_over(self, device: Device, rewound: bool = False) -> None:
        """``teardown``; before a full rewind only its storage clearing: the rewind stops the app, goes home and
        brings the playlists' database back to what ``clear_state`` empties again."""
        if rewound:
            clear_device_storage(device)
        else:
            self.teardown(device)

    def is_successful(self, device: Device) -> float:
        """Every song in a playlist is in one named exactly so, and they last 45 to 50 minutes together."""
        rows = playlist_rows(device)
        if any(row["playlist_name"] != self.params["playlist_name"] for row in rows):
            return 0.0
        total = sum(row["duration_ms"] for row in rows)
        return float(DURATION_RANGE_MS[0] <= total <= DURATION_RANGE_MS[1])

    def oracle(self) -> Sequence[OracleStep]:
        """The fewest songs that fit (their lengths are the parameters), added as in ``RetroCreatePlaylist`` in the
        list's (title) order, which scrolls least."""
        songs = self.songs()
        chosen = shortest_selection([duration for _, _, duration in songs], *DURATION_RANGE_MS)
        titles = sorted((stem(songs[i][0]) for i in chosen), key=str.lower)
        return [open_app(APP_NAME), tap(SONGS_TAB), *create_playlist(self.params["playlist_name"], titles),
                complete()]


class _SeededPlaylistsTask(_RetroTask):
    """Two or three playlists (distinct names) of 2–4 of the 15 songs each; ``playlist_name`` is the one the goal
    is about."""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params = super().generate_params(rng)
        titles = [stem(name) for name in params["files"] + params["noise_files"]]
        names = [params["playlist_name"]]
        while len(names) < int(rng.integers(2, 4)):
            name = playlist_name(rng)
            if name not in names:
                names.append(name)
        params["playlists"] = {name: [str(t) for t in rng.choice(titles, size=int(rng.integers(2, 5)), replace=False)]
                               for name in names}
        return params

    def seed_state(self, device: Device) -> None:
        """The songs, the scan, then the playlists."""
        super().seed_state(device)
        seed_playlists(device, self.params["playlists"])

    def contents(self, device: Device) -> dict[str, list[str]]:
        """Every playlist's titles in order, by name."""
        found: dict[str, list[str]] = {}
        for row in playlist_rows(device):
            found.setdefault(row["playlist_name"], []).append(row["media_file_name"])
        return found

    def others(self) -> dict[str, list[str]]:
        """The playlists the goal is not about."""
        return {name: list(titles) for name, titles in self.params["playlists"].items()
                if name != self.params["playlist_name"]}


@register_task
class RetroDeletePlaylist(_SeededPlaylistsTask):
    """Delete one playlist (ours)."""

    name = "RetroDeletePlaylist"
    complexity = 1.2
    template = 'Delete the playlist "{playlist_name}" in Retro Music.'

    def is_successful(self, device: Device) -> float:
        """The playlist and its songs are gone; the others are as they were."""
        named = sqlite_query(device, retro.PLAYLIST_DB,
                             "SELECT playlist_id FROM PlaylistEntity WHERE playlist_name = ?",
                             (self.params["playlist_name"],))
        return float(not named and self.contents(device) == self.others())

    def oracle(self) -> Sequence[OracleStep]:
        return [open_app(APP_NAME), *playlist_menu(self.params["playlist_name"], retro.DELETE), tap(POSITIVE),
                complete()]


@register_task
class RetroRenamePlaylist(_SeededPlaylistsTask):
    """Rename one playlist (ours)."""

    name = "RetroRenamePlaylist"
    complexity = 1.4
    template = 'Rename the playlist "{playlist_name}" in Retro Music to "{new_name}".'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """As the others, and a new name no playlist has."""
        params = super().generate_params(rng)
        new_name = playlist_name(rng)
        while new_name in params["playlists"]:
            new_name = playlist_name(rng)
        return {**params, "new_name": new_name}

    def is_successful(self, device: Device) -> float:
        """The playlist has the new name (exactly) and its songs; the others are as they were."""
        renamed = self.params["playlists"][self.params["playlist_name"]]
        expected = {**self.others(), self.params["new_name"]: list(renamed)}
        return float(self.contents(device) == expected)

    def oracle(self) -> Sequence[OracleStep]:
        return [open_app(APP_NAME), *playlist_menu(self.params["playlist_name"], retro.RENAME),
                replace_text(NAME_FIELD, self.params["new_name"]), tap(POSITIVE), complete()]


@register_task
class RetroRemoveSongFromPlaylist(_SeededPlaylistsTask):
    """Remove one song from a playlist (ours)."""

    name = "RetroRemoveSongFromPlaylist"
    complexity = 1.6
    template = 'Remove the song "{song}" from the playlist "{playlist_name}" in Retro Music.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """As the others, and one song of the playlist."""
        params = super().generate_params(rng)
        return {**params, "song": pick(rng, params["playlists"][params["playlist_name"]])}

    def is_successful(self, device: Device) -> float:
        """The playlist holds its other songs in their order; the other playlists are as they were."""
        kept = [t for t in self.params["playlists"][self.params["playlist_name"]] if t != self.params["song"]]
        return float(self.contents(device) == {**self.others(), self.params["playlist_name"]: kept})

    def oracle(self) -> Sequence[OracleStep]:
        """Open the playlist, the song's menu, "Remove from playlist", Remove."""
        name = self.params["playlist_name"]
        return [open_app(APP_NAME), tap(PLAYLISTS_TAB), *reveal(name),
                tap(Selector(text=name, resource_id=_rid("title"))),
                *song_action(self.params["song"], retro.REMOVE_FROM_PLAYLIST), tap(POSITIVE), complete()]
