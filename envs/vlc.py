"""VLC playlist tasks: AndroidWorld's ``VlcCreatePlaylist`` and ``VlcCreateTwoPlaylists``
(``task_evals/single/vlc.py``), and our ``VlcAddToExistingPlaylist`` and ``VlcDeletePlaylist``.

Setup is AndroidWorld's (``_VLC.initialize_task``): every file of the shared storage is deleted
(``clear_internal_storage``), ``VLCVideos`` emptied, and every row of ``Playlist``, ``Media`` and
``PlaylistMediaRelation`` deleted from VLC's media library (``vlc_media.db``, app stopped), which VLC fills again
by scanning storage when it starts. Then each target and noise file is written to ``VLCVideos``
(``write_video_file_to_device``: a 320×240 video showing one random 10-character string on random noise, 1 fps,
for 20–180 s; here a Motion-JPEG MP4 from ``media.message_videos``, the string and duration drawn in
``generate_params``, one frame held for the whole time). Teardown repeats the clearing.

The check is AndroidWorld's ``verify_playlist`` on the join of ``PlaylistMediaRelation``, ``Playlist`` and
``Media``: the rows of the playlists whose name fuzzily matches (case ignored) are exactly the files
(``Media.filename``, with its extension) at positions 0, 1, … (No two of the 112 names match fuzzily.)

Ours: ``VlcAddToExistingPlaylist`` is ``VlcCreatePlaylist`` with the playlist among 2–3 empty ones setup adds
(rows of ``Playlist``, as "Add to new playlist" leaves them); it fails if a playlist is added or removed.
``VlcDeletePlaylist`` adds 2–4 empty playlists and wants exactly the named one gone (Playlists tab → its More
Actions → Delete → "Delete forever"). (VLC 3.5.4 cannot rename a playlist: ``CTX_PLAYLIST_ALBUM_FLAGS`` has no
``CTX_RENAME``.)

The oracles work where the goal says the files are, Browse → Internal memory → VLCVideos: for each file in order,
its row's More Actions, "Add to playlist", then the playlist's name typed into the new-playlist field (ENTER saves
it) for the first, or the playlist picked under "Add to existing playlist" for the others. (The Video tab's cards
work too, but two columns of tall cards take more scrolling than the step budget leaves for ten files.)
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.sim.apps import vlc
from android_gym.sim.apps.vlc_library import DB_PATH
from android_gym.sim.system.media import MessageVideo, message_videos
from android_gym.tasks import register_task
from android_gym.tasks.base import Task
from android_gym.tasks.draws import Rng, exact_draws
from android_gym.tasks.files import CLEAR_STORAGE, empty_directory_command
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    complete,
    open_app,
    scroll_to,
    scroll_until,
    tap,
    type_into,
)
from android_gym.tasks.user_data import pick, random_string
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

from .markor_video import (
    BROWSE_TAB,
    FILE_LIST,
    INTERNAL_MEMORY,
    NOISE_DISPLAY_S,
    NOISE_LENGTH,
    VLC_APP,
    video_file_name,
    vlc_id,
)

VIDEOS_PATH = "/storage/emulated/0/VLCVideos"  # apps.VlcApp.videos_path
#: ``_generate_playlist_name``: "<theme> <qualifier>".
THEMES = ("Adventure", "Comedy", "Daily Routines", "Documentary Insights", "Epic Moments", "Family Gatherings",
          "Fitness Challenges", "Gaming Sessions", "How To", "Mystery and Thrills", "Recipe Collection",
          "Road Trips", "Summer Highlights", "Tech Reviews", "Travel Guide", "Ultimate Fails")
QUALIFIERS = ("Essentials", "Favorites", "Marathon", "Playlist", "Series", "Specials", "Ultimate Collection")
PLAYLIST_QUERY = (
    "SELECT Playlist.name AS playlist_name, Media.filename AS media_file_name, "
    "PlaylistMediaRelation.position AS order_in_playlist FROM PlaylistMediaRelation "
    "INNER JOIN Playlist ON Playlist.id_playlist = PlaylistMediaRelation.playlist_id "
    "INNER JOIN Media ON Media.id_media = PlaylistMediaRelation.media_id "
    "ORDER BY Playlist.name, PlaylistMediaRelation.position")


NAME_FIELD = Selector(class_suffix="EditText")
ADD_TO_PLAYLIST = Selector(text=vlc.ADD_TO_PLAYLIST, resource_id=vlc_id("context_option_title"))
PLAYLISTS_TAB = Selector(content_desc=vlc.PLAYLISTS, resource_id=vlc_id("nav_playlists"))
PLAYLIST_GRID = Selector(resource_id=vlc_id("playlist_list"))


def playlist_name(rng: Rng) -> str:
    """``_generate_playlist_name``."""
    return f"{pick(rng, THEMES)} {pick(rng, QUALIFIERS)}"


def distinct_names(rng: Rng, count: int, taken: Sequence[str] = ()) -> list[str]:
    """``count`` video file names (``generate_file_name``), none equal to another or to ``taken``."""
    names: list[str] = []
    while len(names) < count:
        name = video_file_name(rng)
        if name not in names and name not in taken:
            names.append(name)
    return names


def playlist_rows(device: Device) -> list[dict[str, Any]]:
    """``_get_playlist_file_info``: every playlist entry with its playlist's name, file name and position."""
    return state.sqlite_query(device, DB_PATH, PLAYLIST_QUERY)


def holds_exactly(rows: Sequence[dict[str, Any]], name: str, files: Sequence[str]) -> bool:
    """``verify_playlist``: the entries of the playlists whose name fuzzily matches ``name`` are ``files`` (exact
    file names) at positions 0, 1, …"""
    entries = sorted((row["order_in_playlist"], row["media_file_name"]) for row in rows
                     if fuzzy_match(row["playlist_name"] or "", name))
    return entries == list(enumerate(files))


def clear_vlc(device: Device) -> None:
    """The ``_VLC`` set-up's clearing: ``clear_internal_storage``, ``VLCVideos`` left there and empty and VLC stopped in
    one shell line, then ``_clear_playlist_dbs``: every row of ``Playlist``, ``Media`` and ``PlaylistMediaRelation``
    deleted."""
    Task.run(device, f"{CLEAR_STORAGE} && {empty_directory_command(VIDEOS_PATH)} "
                     f"&& am force-stop {shlex.quote(vlc.PACKAGE)}")
    state.sqlite_execute_many(device, DB_PATH, [(f"DELETE FROM {table}", ()) for table in
                                                ("Playlist", "Media", "PlaylistMediaRelation")])


def video_specs(rng: Rng, names: Sequence[str]) -> list[list[Any]]:
    """For each file: the string it shows and for how many seconds."""
    low, high = NOISE_DISPLAY_S
    return [[random_string(rng, NOISE_LENGTH), int(rng.integers(low, high + 1))] for _ in names]


def _more_beside(title: Selector, elements: Sequence[UIElement]) -> UIElement | None:
    """The More Actions button in the row of the element ``title`` finds (after it, at the same height)."""
    if not title.present(elements):
        return None
    box = title.find(elements).bbox_pixels
    return next((element for element in elements if element.resource_name == vlc_id("item_more")
                 and element.bbox_pixels.area > 0 and element.bbox_pixels.y_min < box.y_max
                 and element.bbox_pixels.y_max > box.y_min and element.bbox_pixels.x_min >= box.x_min), None)


def tap_more(title: Selector) -> OracleStep:
    """Tap the More Actions button in the row of the element ``title`` finds."""
    def step(elements: Sequence[UIElement]) -> Action:
        button = _more_beside(title, elements)
        if button is None:
            raise OracleError(f"no More Actions button beside {title}")
        return Action(ActionType.CLICK, index=button.index)
    return step


def file_row(name: str) -> Selector:
    """A file of VLC's browser, by its name."""
    return Selector(text=name, resource_id=vlc_id("title"))


def open_videos_folder() -> list[OracleStep]:
    """Browse → Internal memory → VLCVideos."""
    folder = file_row(posixpath.basename(VIDEOS_PATH))
    return [open_app(VLC_APP), tap(BROWSE_TAB), tap(INTERNAL_MEMORY), *scroll_to(folder, FILE_LIST), tap(folder)]


def add_files(plan: Sequence[tuple[str, Sequence[str], bool]], order: Sequence[str]) -> list[OracleStep]:
    """In the ``VLCVideos`` folder (files in ``order``, scrolled to the top), for each ``(playlist, files, new)``
    add each file to the playlist: the first through the new-playlist field when ``new``, the others (all when not
    ``new``) by picking the playlist; the list scrolls towards each file from the last one."""
    steps: list[OracleStep] = []
    position = 0
    for playlist, files, new in plan:
        for index, name in enumerate(files):
            target = order.index(name)
            direction = "up" if target < position else "down"
            position = target
            row = file_row(name)
            steps += scroll_until(lambda elements, row=row: _more_beside(row, elements),
                                  FILE_LIST, f"the row of {name}", direction, max_scrolls=8)
            steps += [tap_more(row), tap(ADD_TO_PLAYLIST)]
            if new and index == 0:
                steps.append(type_into(NAME_FIELD, playlist))
            else:
                steps.append(tap(Selector(text=playlist, resource_id=vlc_id("textView16"))))
    return steps


def file_order(names: Sequence[str]) -> list[str]:
    """The files in the browser's order."""
    return [entry.name for entry in vlc.browser_order([vlc.Entry(name, False) for name in names])]


def playlist_table(device: Device) -> list[tuple[int, str]]:
    """Every playlist's id and name, by id."""
    return [(row["id_playlist"], row["name"]) for row in
            state.sqlite_query(device, DB_PATH, "SELECT id_playlist, name FROM Playlist ORDER BY id_playlist")]


def distinct_playlist_names(rng: np.random.Generator, count: int) -> list[str]:
    """``count`` different playlist names."""
    names: list[str] = []
    while len(names) < count:
        name = playlist_name(rng)
        if name not in names:
            names.append(name)
    return names


class _VlcTask(Task):
    """AndroidWorld's ``_VLC`` setup and teardown around the files of ``videos``; the empty playlists the
    parameter ``playlists`` names (ours) are added after, as "Add to new playlist" leaves them, created at the device
    time."""

    app_packages = (vlc.PACKAGE,)
    setup_clears_teardown = True  # the storage, the videos folder and the library are emptied by clear_state

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.playlists_before: list[tuple[int, str]] = []

    def videos(self) -> dict[str, list[Any]]:
        """Every file the task writes, with its string and duration."""
        raise NotImplementedError

    def clear_state(self, device: Device) -> None:
        """Storage and ``VLCVideos`` cleared, the library's rows deleted (``clear_vlc``)."""
        clear_vlc(device)

    def seed_state(self, device: Device) -> None:
        """The videos in ``VLCVideos`` (each frame's noise from ``[frame_seed, its index]``), then the playlists;
        the playlist table as setup leaves it is kept for the check (without playlists: empty, as ``clear_state``
        left it)."""
        videos = self.videos()
        data = message_videos([MessageVideo([message], seconds, [self.params["frame_seed"], index], frame_s=seconds)
                               for index, (message, seconds) in enumerate(videos.values())], self.device_time)
        for name, video in zip(videos, data):
            device.push(video, posixpath.join(VIDEOS_PATH, name))
        created, playlists = int(self.device_time.timestamp()), self.params.get("playlists", [])
        state.sqlite_execute_many(device, DB_PATH, [("INSERT INTO Playlist (name, creation_date) VALUES (?, ?)",
                                                     (name, created)) for name in playlists])
        self.playlists_before = playlist_table(device) if playlists else []

    def teardown(self, device: Device) -> None:
        """The clearing again, then the apps stopped."""
        clear_vlc(device)
        super().teardown(device)


def _playlist_params(rng: np.random.Generator, taken: Sequence[str] = ()) -> dict[str, Any]:
    """``VlcCreatePlaylist.generate_random_params``: a name, 2–5 files and as many noise files (all distinct and
    none in ``taken``), with each file's string and duration (drawn in blocks: hundreds of draws)."""
    with exact_draws(rng) as draws:
        count = int(draws.integers(2, 6))
        names = distinct_names(draws, 2 * count, taken)
        return {"playlist_name": playlist_name(draws), "files": names[:count], "noise_files": names[count:],
                "specs": video_specs(draws, names)}


class _OnePlaylistTask(_VlcTask):
    """Files into one playlist: a new one (``new``) or one setup made."""

    new: bool = True

    def videos(self) -> dict[str, list[Any]]:
        return dict(zip([*self.params["files"], *self.params["noise_files"]], self.params["specs"]))

    def is_successful(self, device: Device) -> float:
        return 1.0 if holds_exactly(playlist_rows(device), self.params["playlist_name"], self.params["files"]) \
            else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        plan = [(self.params["playlist_name"], self.params["files"], self.new)]
        return [*open_videos_folder(), *add_files(plan, file_order(list(self.videos()))), complete()]


@register_task
class VlcCreatePlaylist(_OnePlaylistTask):
    """Create a playlist holding the given files in order."""

    name = "VlcCreatePlaylist"
    complexity = 2.8
    template = ('Create a playlist titled "{playlist_name}" with the following files in VLC (located in Internal '
                "Memory/VLCVideos), in order: {files_text}")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        params = _playlist_params(rng)
        return {**params, "files_text": ", ".join(params["files"]), "frame_seed": int(rng.integers(2**31))}


@register_task
class VlcCreateTwoPlaylists(_VlcTask):
    """Create two playlists, each holding its files in order; half the score for each."""

    name = "VlcCreateTwoPlaylists"
    complexity = 4.8
    template = ('Create a playlist titled "{playlist_name1}" with the following files in VLC (located in Internal '
                "Memory/VLCVideos), in order: {files_text1}. And then, create a playlist titled "
                '"{playlist_name2}" with the following files in VLC, in order: {files_text2}.')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two draws of ``VlcCreatePlaylist``'s parameters (different names, no file in both)."""
        first = _playlist_params(rng)
        second = _playlist_params(rng, [*first["files"], *first["noise_files"]])
        while second["playlist_name"] == first["playlist_name"]:
            second["playlist_name"] = playlist_name(rng)
        params: dict[str, Any] = {}
        for suffix, part in (("1", first), ("2", second)):
            params.update({f"playlist_name{suffix}": part["playlist_name"], f"files{suffix}": part["files"],
                           f"noise_files{suffix}": part["noise_files"], f"specs{suffix}": part["specs"],
                           f"files_text{suffix}": ", ".join(part["files"])})
        return {**params, "frame_seed": int(rng.integers(2**31))}

    def videos(self) -> dict[str, list[Any]]:
        names = [*self.params["files1"], *self.params["noise_files1"], *self.params["files2"],
                 *self.params["noise_files2"]]
        return dict(zip(names, [*self.params["specs1"], *self.params["specs2"]]))

    def is_successful(self, device: Device) -> float:
        rows = playlist_rows(device)
        return sum(holds_exactly(rows, self.params[f"playlist_name{k}"], self.params[f"files{k}"])
                   for k in ("1", "2")) / 2

    def oracle(self) -> Sequence[OracleStep]:
        plan = [(self.params[f"playlist_name{k}"], self.params[f"files{k}"], True) for k in ("1", "2")]
        return [*open_videos_folder(), *add_files(plan, file_order(list(self.videos()))), complete()]


# ----- our own ------------------------------------------------------------------------------------------------------
@register_task
class VlcAddToExistingPlaylist(_OnePlaylistTask):
    """Add files, in order, to a playlist that exists (no new playlist, none removed)."""

    name = "VlcAddToExistingPlaylist"
    complexity = 2.8
    template = ('Add the following files to the existing playlist "{playlist_name}" in VLC (located in Internal '
                "Memory/VLCVideos), in order: {files_text}")
    new = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``VlcCreatePlaylist``'s parameters, with the playlist among 2–3 existing (empty) ones."""
        params = _playlist_params(rng)
        playlists = distinct_playlist_names(rng, int(rng.integers(2, 4)))
        return {**params, "playlist_name": playlists[int(rng.integers(len(playlists)))], "playlists": playlists,
                "files_text": ", ".join(params["files"]), "frame_seed": int(rng.integers(2**31))}

    def is_successful(self, device: Device) -> float:
        """The files in the playlist, and the playlists as setup left them."""
        return super().is_successful(device) if playlist_table(device) == self.playlists_before else 0.0


@register_task
class VlcDeletePlaylist(_VlcTask):
    """Delete one of 2–4 (empty) playlists; the others stay."""

    name = "VlcDeletePlaylist"
    complexity = 1.2
    template = 'Delete the playlist "{playlist_name}" in VLC.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        playlists = distinct_playlist_names(rng, int(rng.integers(2, 5)))
        return {"playlist_name": playlists[int(rng.integers(len(playlists)))], "playlists": playlists,
                "frame_seed": int(rng.integers(2**31))}

    def videos(self) -> dict[str, list[Any]]:
        return {}

    def is_successful(self, device: Device) -> float:
        expected = [row for row in self.playlists_before if row[1] != self.params["playlist_name"]]
        return 1.0 if playlist_table(device) == expected else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        card = Selector(text=self.params["playlist_name"], resource_id=vlc_id("title"))
        return [open_app(VLC_APP), tap(PLAYLISTS_TAB), *scroll_to(card, PLAYLIST_GRID), tap_more(card),
                tap(Selector(text=vlc.DELETE, resource_id=vlc_id("context_option_title"))),
                tap(Selector(text=vlc.DELETE_FOREVER, resource_id=vlc_id("delete_button"))), complete()]
