"""VLC for Android 3.5.4 (``org.videolan.vlc``, versionCode 13050408: the x86_64 build AndroidWorld installs as
``org.videolan.vlc_13050408.apk``): the Video tab, the Browse tab and its file browser, the Playlists tab and a
playlist's screen, "Add to playlist" from a video's or a file's More Actions, and the video player, which shows the
frames of the file it plays. The videos and playlists live in the media library (``vlc_library``), which the app
brings in line with storage whenever its main screen shows.

Facts come from code.videolan.org/videolan/vlc-android (its GitHub mirror) at tag ``3.5.4``: ``build.gradle``
(versionName 3.5.4, versionCode 3050400; ``application/app/build.gradle`` adds 10000000 and the ABI code, 8 for
x86_64), ``AndroidManifest.xml`` (``StartActivity`` opens ``gui.MainActivity``; ``gui.SecondaryActivity``,
``gui.video.VideoPlayerActivity``), the layouts ``main.xml``, ``menu/bottom_navigation.xml``, ``toolbar.xml``,
``video_grid.xml``, ``video_grid_card.xml``, ``main_browser_fragment.xml``, ``card_browser_item.xml``,
``directory_browser.xml``, ``browser_item.xml``, ``browser_path_item.xml``, ``player.xml``, ``player_hud.xml`` and
``player_hud_right.xml``, ``playlists_fragment.xml``, ``audio_browser_card_item.xml``, ``audio_browser_item.xml``,
``header_media_list_activity.xml``, ``contextual_sheet.xml``, ``context_item.xml``, ``dialog_playlist.xml``,
``simple_item.xml`` and ``dialog_confirm_delete.xml``, strings from
``application/resources/src/main/res/values/strings.xml``, and behaviour from ``Navigator`` (the Video tab first),
``VideoListAdapter`` (a card's title and ``Tools.millisToString`` duration), ``TalkbackUtil`` (``getVideo``,
``getDir``), ``MainBrowserFragment`` and ``FileBrowserProvider.browseRootImpl`` (Storages: "Internal memory", opened
in ``SecondaryActivity``), ``BrowserProvider`` (every file is listed: ``browser_show_all_files`` defaults to true),
``getFilenameAscComp`` with ``sanitizeStringForAlphaCompare`` (folders first, then lower-case names with leading
numbers zero-padded to the longest), the browser's sort (``activity_option.xml``'s ``ml_menu_sortby``,
``ic_menu_sort``, shown in a folder: its submenu's Name and File name, the current one marked ▲ or ▼ by
``UiTools.updateSortTitles``; ``MediaBrowserFragment.onOptionsItemSelected``, ``BrowserModel.sort``: a choice flips
the direction, saved under ``BrowserModel`` and ``BrowserModel_desc`` in the default settings;
``ascComp``/``descComp`` by title, ``getFilenameDescComp``), ``BaseBrowserAdapter`` (a file row shows the file name
while sorted by file name, else its title), ``FileBrowserFragment.getTitle``, ``BaseBrowserFragment.onClick`` (a
folder opens in place, BACK returns; a video plays alone, ``FORCE_PLAY_ALL_VIDEO`` being off),
``MediaWrapper.getTitle`` (the file name without its extension), ``VideoPlayerActivity`` (``seekListener``,
``doPlayPause``: pausing keeps the controls up, resuming hides them after 800 ms), ``VideoPlayerOverlayDelegate``
(``showOverlayTimeout``: while playing the controls hide after ``Settings.videoHudDelay``, 4 s by default;
``updateOverlayPausePlay``: "Pause" or "Play"), ``ContextSheet`` (the options in its order; ``CTX_VIDEO_FLAGS``,
``CTX_PLAYLIST_ALBUM_FLAGS``, ``CTX_PLAYLIST_ITEM_FLAGS``, ``BaseBrowserFragment.onCtxClick`` for a file),
``SavePlaylistDialog`` (a new playlist's name, saved by Save or ENTER, refused when a playlist has it:
``playlist_existing``; a tap on an existing playlist appends the media), ``PlaylistFragment`` (cards by name; its
empty text is ``nomedia``), ``HeaderMediaListActivity``, ``ConfirmDeleteDialog`` (``confirm_delete_playlist``) and
``PlaylistManager`` (``EndReached`` → ``next()`` → ``stop()`` → ``EXIT_PLAYER``: the player closes when the video
ends).

The player decodes its pictures from the file (``media.video_track``): the frame at the playing position, which
moves with the device clock while playing. Files are listed on every build, and the library rescanned whenever the
main screen is built after storage or the library changed, so videos pushed over adb show up at once. With the
system's dark theme the library's screens take ``Theme.VLC.Black``'s colours (``NIGHT_COLORS``); the player keeps
its own dark ``Theme.VLC.Player``.

Not simulated: the first-run screens and permission prompts (AndroidWorld's setup answers them), the media library's
grouping of videos by name (the Video tab lists every video, by title), thumbnails, resolution badges, the Audio and
More tabs (Audio shows its empty text, More nothing), favorites and the Local Network section's discovery, folder
descriptions (their sub-folder and media counts), file sizes, the toolbars' search and overflow menus and the
Video and Playlists tabs' sort, the sort items' content descriptions ("Name. Descending"),
multi-selection, the context sheets' other options (they only close the sheet: only Play, Add to playlist and a
playlist's Delete act), the duplication warning (media already in a playlist are added again), renaming, reordering
or removing a playlist's items, playing a playlist in order (its Play and its items play one video), playing files
that are not videos, audio tracks and the audio player, the player's gestures (double-tap seeking, swipes for
volume, brightness and seeking), its other controls (lock, tracks, aspect ratio, playlist, options), the tips shown
on first playback, the time labels' switch to remaining time, resuming from the last position, and toasts. The
system bars stay visible over the player. A file without a video track (sound only) or that cannot be read closes
the player at once (VLC would play the sound, or show an error).
"""

from __future__ import annotations

import os
import posixpath
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from android_gym import locales
from android_gym.sim.apps.vlc_library import MediaItem, MediaLibrary, PlaylistItem
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.formats import Plural, quantity_string, system_tag
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.media import VideoTrack, video_track
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import popup_menu, scrim_over
from android_gym.sim.ui.layout import bound_rows
from android_gym.sim.ui.picture_cache import picture_cache
from android_gym.sim.ui.views import (
    DIVIDER,
    TEXT,
    TEXT_SECONDARY,
    TOP_CORNERS,
    WHITE,
    Callback,
    Color,
    View,
    button,
    column,
    edit_text,
    row,
    scroll_list,
    seek_bar,
    text_view,
)

PACKAGE = "org.videolan.vlc"
MAIN_ACTIVITY = f"{PACKAGE}.gui.MainActivity"
SECONDARY_ACTIVITY = f"{PACKAGE}.gui.SecondaryActivity"
PLAYER_ACTIVITY = f"{PACKAGE}.gui.video.VideoPlayerActivity"
PLAYLIST_ACTIVITY = f"{PACKAGE}.gui.HeaderMediaListActivity"

# strings.xml
APP_NAME = "VLC"
VIDEO, AUDIO, BROWSE, PLAYLISTS, MORE = "Video", "Audio", "Browse", "Playlists", "More"
STORAGES, LOCAL_NETWORK, INTERNAL_MEMORY = "Storages", "Local Network", "Internal memory"
PLAY, PAUSE = "Play", "Pause"
NO_MEDIA = "No media files found, please transfer some files to your device or adjust your preferences."
NO_PLAYLIST = "No playlist found."
MORE_ACTIONS, ADD_TO_PLAYLIST, DELETE, CANCEL = "More Actions", "Add to playlist", "Delete", "Cancel"
ADD_TO_NEW_PLAYLIST, ADD_TO_EXISTING_PLAYLIST = "Add to new playlist", "Add to existing playlist"
PLAYLIST_NAME_HINT, SAVE, DELETE_FOREVER = "Playlist name", "Save", "Delete forever"
CONFIRM_DELETE_MESSAGE = "This is permanent and cannot be undone."
MEDIA_QUANTITY = Plural("media_quantity", "1 media", "{} media")
#: ``ContextSheet``'s options in its order for ``CTX_VIDEO_FLAGS`` (with "Mark as played" and "Browse parent",
#: which ``VideoGridFragment`` adds for an unseen video in a folder) and ``CTX_PLAYLIST_ALBUM_FLAGS``.
VIDEO_OPTIONS = ("Play", "Play all", "Play as audio", "Append", "Insert next", "Download subtitles", "Information",
                 ADD_TO_PLAYLIST, DELETE, "Share", "Create a launcher shortcut", "Mark as played", "Browse parent")
PLAYLIST_ITEM_OPTIONS = ("Append", "Insert next", "Information", ADD_TO_PLAYLIST, "Set as ringtone", DELETE, "Share",
                         "Create a launcher shortcut")  # CTX_PLAYLIST_ITEM_FLAGS with CTX_SHARE for a file
#: A video file's options in the browser (``BaseBrowserFragment.onCtxClick``: ``CTX_PLAY_ALL``, ``CTX_APPEND``,
#: ``CTX_INFORMATION``, ``CTX_ADD_TO_PLAYLIST``, ``CTX_PLAY_AS_AUDIO``, ``CTX_DOWNLOAD_SUBTITLES``).
FILE_OPTIONS = ("Play all", "Play as audio", "Append", "Download subtitles", "Information", ADD_TO_PLAYLIST)
PLAYLIST_OPTIONS = ("Play", "Append", "Insert next", "Information", ADD_TO_PLAYLIST, DELETE,
                    "Create a launcher shortcut")
SORT_BY, SORT_BY_NAME, SORT_BY_FILENAME = "Sort by…", "Name", "File name"
ASCENDING, DESCENDING = "Ascending", "Descending"
NAVIGATE_UP = "Navigate up"  # appcompat's abc_action_bar_up_description
VIDEO_PLAYER = "Video player. Tap to show controls. Tap the back button to hide them"  # talkback_video_player
TAB_IDS = ("nav_video", "nav_audio", "nav_directories", "nav_playlists", "nav_more")
TAB_TITLES = (VIDEO, AUDIO, BROWSE, PLAYLISTS, MORE)
#: The bottom menu's drawables (ic_menu_video: a filled clapperboard; ic_menu_audio: two beamed notes;
#: ic_menu_folder: Material's filled folder; ic_menu_playlist: three lines and a play triangle; ic_nav_more).
_TAB_ICONS = ("movie", "music", "folder_filled", "playlist", "more_horiz")
#: Extensions of the files the media library takes for videos (a common subset of libvlc's demuxers).
VIDEO_EXTENSIONS = (".3gp", ".avi", ".flv", ".m4v", ".mkv", ".mov", ".mp4", ".mpeg", ".mpg", ".ts", ".webm", ".wmv")
HUD_DELAY_MS = 4000  # Settings.videoHudDelay (4 s) × 1000
RESUME_FADE_MS = 800  # doPlayPause: FADE_OUT 800 ms after resuming
#: ``Settings.getInstance``: the default SharedPreferences file.
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"
#: ``BrowserModel``'s ``sortKey`` (its class's simple name) and ``"${sortKey}_desc"``: the browser's sort, for every
#: folder.
SORT_KEY, DESC_KEY = "BrowserModel", "BrowserModel_desc"
SORT_DEFAULT, SORT_ALPHA, SORT_FILENAME = 0, 1, 10  # Medialibrary.SORT_*
_UNINDEXED = (f"{EXTERNAL_STORAGE}/Android/data", f"{EXTERNAL_STORAGE}/Android/obb")

_ORANGE = (255, 136, 0)  # @color/orange500 (#FF8800), VLC orange
_BLACK, _HUD = (0, 0, 0), (24, 24, 24)
_NAV_COLOR, _NAV_BACKGROUND = (97, 97, 97), (250, 250, 250)  # ?bottom_navigation_color (grey700), the bar
_PANEL, _ERROR = (238, 238, 238), (176, 0, 32)  # ?background_default_darker (grey200): covers, cards; error red
#: ``@color/white`` on the orange buttons and the video thumbnails, which stays white in the dark theme: a unit off
#: ``WHITE`` so that ``NIGHT_COLORS`` (keyed by colour) leaves it as it is.
_ON_COLOR: Color = (255, 255, 254)
#: ``?attr/bottom_sheet_background`` (``bottom_sheet_background.xml``'s fill): ``@color/white``, but grey875 in
#: ``Theme.VLC.Black``, not its window's dark_background; a unit off ``WHITE`` so that ``NIGHT_COLORS`` tells them
#: apart.
_SHEET: Color = (254, 255, 255)
#: ``values-night/styles.xml``: ``Theme.VLC`` is ``Theme.VLC.Black`` at night, and the app follows the system's
#: theme by default (``UiTools.setDefaultTheme``: ``app_theme`` defaults to -1, ``MODE_NIGHT_FOLLOW_SYSTEM``).
#: Its colours (``Theme.VLC.Apearance.Black``, ``colors.xml``) for the light ones of ``Theme.VLC.Apearance``.
NIGHT_COLORS: dict[Color, Color] = {
    WHITE: (19, 19, 19),  # windowBackground, background_actionbar: dark_background #131313
    TEXT: (250, 250, 250),  # font_default grey50 (list_title_dark: white)
    TEXT_SECONDARY: (189, 189, 189),  # list_subtitle_dark grey400
    DIVIDER: (97, 97, 97),  # default_separator grey700
    _NAV_COLOR: (158, 158, 158),  # bottom_navigation_color grey500
    _NAV_BACKGROUND: (42, 42, 42),  # bottom_navigation_background_dark: grey875
    _PANEL: (42, 42, 42),  # background_default_darker grey875
    _SHEET: (42, 42, 42),  # bottom_sheet_background grey875
    _ERROR: (207, 102, 121),  # Material's dark error colour #CF6679
}
_BAR, _NAV, _ROW, _ICON = 147, 147, 147, 126  # 56 dp bars and rows, 48 dp icons at 420 dpi
_SHEET_CORNER = 42  # ?attr/bottom_sheet_radius of Theme.VLC: 16 dp (bottom_sheet_background's top corners)
_TITLE_SP, _BODY_SP, _SMALL_SP = 42, 37, 32  # 16, 14 and 12 sp


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def is_video(name: str) -> bool:
    """Whether a file name has a video extension."""
    return name.lower().endswith(VIDEO_EXTENSIONS)


def title_of(name: str) -> str:
    """``MediaWrapper.getTitle`` of a file without metadata: its name up to the last dot (a leading dot kept)."""
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def millis_to_string(ms: int) -> str:
    """``Tools.millisToString``: ``m:ss``, or ``h:mm:ss`` from an hour."""
    seconds = max(ms, 0) // 1000
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _talkback_seconds(ms: int) -> str:
    """``TalkbackUtil.millisToString``: "1 hours 2 minutes 3 seconds", leaving out zero parts."""
    seconds = ms // 1000
    parts = [(seconds // 3600, "hours"), (seconds // 60 % 60, "minutes"), (seconds % 60, "seconds")]
    return " ".join(f"{value} {unit}" for value, unit in parts if value)


# ----- files --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """A file or folder as the browser lists it."""

    path: str
    is_dir: bool

    @property
    def name(self) -> str:
        """The file or folder name."""
        return posixpath.basename(self.path)


def _leading_number_digits(name: str) -> int:
    """``getStartingNumber().numberOfDigits()``: digits of the number a name starts with, leading zeros dropped (0
    when there is none, or only zeros)."""
    digits = len(name) - len(name.lstrip("0123456789"))
    return len(name[:digits].lstrip("0"))


def _padded_name(name: str, width: int) -> str:
    """``sanitizeStringForAlphaCompare`` for ``getFilenameAscComp``: the lower-case name with its leading number
    padded with zeros to ``width`` digits."""
    name = name.lower()
    if name[:1].isdigit():
        zeros = len(name) - len(name.lstrip("0"))
        name = "0" * max(width - zeros - _leading_number_digits(name), 0) + name
    return name


def _listed(phone: Context, path: str) -> list[os.DirEntry]:
    """Every entry of a folder (none if it is gone)."""
    try:
        return list(os.scandir(phone.fs.host_path(path)))
    except OSError:
        return []


def _visible(path: str, found: list[os.DirEntry]) -> list[Entry]:
    """The visible entries of the folder ``path`` among ``found`` (``_listed``): hidden ones are left out, as
    ``Settings.showHiddenFiles`` is off."""
    return [Entry(posixpath.join(path, item.name), item.is_dir()) for item in found if not item.name.startswith(".")]


def _scan(phone: Context, path: str) -> list[Entry]:
    """The visible entries of a folder (none if it is gone)."""
    return _visible(path, _listed(phone, path))


def row_title(entry: Entry, sort: int = SORT_DEFAULT) -> str:
    """What a ``browser_item`` shows (``filename ?? item.title``): a file's name while the browser sorts by file
    name (``BaseBrowserAdapter``: ``SORT_FILENAME`` or ``SORT_DEFAULT``), else its title; a folder's name."""
    return entry.name if entry.is_dir or sort in (SORT_DEFAULT, SORT_FILENAME) else title_of(entry.name)


def browser_order(entries: list[Entry], sort: int = SORT_DEFAULT, desc: bool = False) -> list[Entry]:
    """Entries of one folder in the browser's order (``BrowserProvider.getComparator``), folders first either way:
    by name (``SORT_ALPHA``: ``ascComp``/``descComp`` on the lower-case titles), else by file name
    (``getFilenameAscComp``/``getFilenameDescComp``)."""
    if sort == SORT_ALPHA:
        def key(entry: Entry) -> str:
            return row_title(entry, sort).lower()
    else:
        width = max((_leading_number_digits(entry.name) for entry in entries), default=0)  # determineMaxNbOfDigits

        def key(entry: Entry) -> str:
            return _padded_name(entry.name, width)
    groups = ([entry for entry in entries if entry.is_dir], [entry for entry in entries if not entry.is_dir])
    return [entry for group in groups for entry in sorted(group, key=key, reverse=desc)]


def list_folder(phone: Context, path: str, sort: int = SORT_DEFAULT, desc: bool = False) -> list[Entry]:
    """The folder's files and sub-folders in the browser's order."""
    return browser_order(_scan(phone, path), sort, desc)


def library_videos(phone: Context) -> list[str]:
    """The videos the media library finds in external storage (no hidden folders, none with ``.nomedia``, nothing in
    ``Android/data`` or ``Android/obb``), by title."""
    found, pending = [], [EXTERNAL_STORAGE]
    while pending:
        folder = pending.pop()
        if folder in _UNINDEXED:
            continue
        found_here = _listed(phone, folder)
        if any(item.name == ".nomedia" for item in found_here) and phone.fs.exists(posixpath.join(folder, ".nomedia")):
            continue
        for entry in _visible(folder, found_here):
            if entry.is_dir:
                pending.append(entry.path)
            elif is_video(entry.name):
                found.append(entry.path)
    return sorted(found, key=lambda path: (title_of(posixpath.basename(path)).lower(), path))


Version = int  # the file's write version (``FileSystem.versions``)


@lru_cache(maxsize=64)
def _track(host: str, version: Version) -> VideoTrack | None:
    """A video file's track; ``version`` (its write version) names the file's state."""
    with open(host, "rb") as file:
        return video_track(file.read())


# Video frames kept (one is shown a step): sixteen MB, 54 frames of the tasks' 320x240 videos or two of a full-HD
# one pushed to the phone (eight of those took 66 MB).
_FRAMES_BYTES = 16 * 2**20


@picture_cache(_FRAMES_BYTES)
def _decoded(host: str, version: Version, index: int) -> Image.Image | None:
    """Sample ``index`` of the file's track, decoded."""
    track = _track(host, version)
    if track is None:
        return None
    with open(host, "rb") as file:
        return track.frame(file.read(), index)


class Video:
    """A video file as the player opens it: its track (``None`` when it has no video track or cannot be read)."""

    def __init__(self, phone: Context, path: str) -> None:
        self.path = path
        self._host = str(phone.fs.host_path(path))
        self._version: Version = phone.fs.versions(path)[0]  # taken before the file is read
        try:
            self.track = _track(self._host, self._version)
        except OSError:
            self.track = None

    @property
    def duration_ms(self) -> int:
        """The track's duration (0 without one)."""
        return self.track.duration_ms if self.track is not None else 0

    def frame(self, position_ms: int) -> tuple[Image.Image | None, str]:
        """The picture shown at ``position_ms`` and a key naming it (file version and sample index); no picture
        when there is no track or the file is gone."""
        if self.track is None:
            return None, f"{self.path}:none"
        index = self.track.sample_at(position_ms)
        try:
            picture = _decoded(self._host, self._version, index)
        except OSError:
            picture = None
        return picture, f"{self.path}:{self._version}:{index}:{picture is not None}"


# ----- shared widgets -----------------------------------------------------------------------------------------------
def _icon(name: str, content_desc: str, icon: str, on_click: Callback | None, color: Color = TEXT,
          **props) -> View:
    """An ``ImageView`` drawn as a glyph, clickable when it has a listener."""
    props.setdefault("width", _ICON)
    props.setdefault("height", _ICON)
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name) if name else "",
                content_desc=content_desc, hint=icon, clickable=on_click is not None, focusable=on_click is not None,
                on_click=on_click, text_color=color, **props)


def _toolbar(*children: View) -> View:
    """``main_toolbar`` (a MaterialToolbar) in the ``appbar``."""
    bar = View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("main_toolbar"), height=_BAR,
               padding=8, children=list(children))
    return View(kind="column", class_name="android.widget.LinearLayout", resource_id=_id("appbar"), children=[bar],
                background=WHITE)


def media_quantity(count: int, tag: str) -> str:
    """``plurals/media_quantity`` in the locale ``tag``."""
    return quantity_string(MEDIA_QUANTITY, count, PACKAGE, tag)


def _bottom_sheet(*children: View, resource_id: str = "design_bottom_sheet") -> View:
    """A ``VLCBottomSheetDialogFragment``'s sheet at the bottom of the window, its top corners rounded
    (``AppModalStyle``'s ``bottom_sheet_background``)."""
    return View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id(resource_id),
                gravity="bottom", background=_SHEET, corner=_SHEET_CORNER, corners=TOP_CORNERS, padding=24,
                children=list(children))


class LibraryOverlays:
    """What opens over a media library screen: the ``ContextSheet`` of a video or a playlist, the
    ``SavePlaylistDialog`` ("Add to playlist") and the ``ConfirmDeleteDialog`` of a playlist; BACK or a touch
    outside closes them."""

    NAME_KEY = "dialog_playlist_name"

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.menu: tuple[str, list[tuple[str, Callback]]] | None = None  # the sheet's title and options
        self.tracks: list[int] | None = None  # the media the save dialog adds
        self.name, self.error = "", ""
        self.deleting: PlaylistItem | None = None

    @property
    def library(self) -> MediaLibrary:
        """The app's media library."""
        assert isinstance(self.screen.app, Vlc)
        return self.screen.app.library

    def close(self) -> None:
        """Dismiss whatever is open (and the keyboard the save dialog raised)."""
        self.menu, self.tracks, self.deleting, self.name, self.error = None, None, None, "", ""
        if self.screen.focus_key == self.NAME_KEY:
            self.screen.focus_key, self.screen.keyboard_shown = "", False

    def back(self) -> bool:
        """BACK closes an open sheet or dialog."""
        if self.menu is None and self.tracks is None and self.deleting is None:
            return False
        self.close()
        return True

    def video_menu(self, item: MediaItem, options: tuple[str, ...] = VIDEO_OPTIONS) -> None:
        """A video's options (``VideoCtxClick``, or a playlist's item); Play and Add to playlist act, the others
        only close the sheet."""
        actions = {"Play": lambda: self._then(lambda: self.screen.app.play(item.path)),
                   ADD_TO_PLAYLIST: lambda: self.add_to_playlist([item.id])}
        self.menu = (item.title, [(title, actions.get(title, self.close)) for title in options])

    def file_menu(self, path: str) -> None:
        """A video file's options in the browser; Add to playlist acts (``savePlaylist`` takes the library's media
        of the file, adding it when the library does not have it)."""
        actions = {ADD_TO_PLAYLIST: lambda: self.add_to_playlist([self.library.media_id(path)])}
        self.menu = (posixpath.basename(path), [(title, actions.get(title, self.close)) for title in FILE_OPTIONS])

    def playlist_menu(self, item: PlaylistItem) -> None:
        """A playlist's options (``CTX_PLAYLIST_ALBUM_FLAGS``); Add to playlist and Delete act."""
        actions = {ADD_TO_PLAYLIST: lambda: self.add_to_playlist([media.id for media in self.library.tracks(item.id)]),
                   DELETE: lambda: self._confirm_delete(item)}
        self.menu = (item.name, [(title, actions.get(title, self.close)) for title in PLAYLIST_OPTIONS])

    def _then(self, action: Callback) -> None:
        self.close()
        action()

    def add_to_playlist(self, media_ids: list[int]) -> None:
        """``addToPlaylist``: the save dialog for these media."""
        self.close()
        self.tracks = media_ids

    def _confirm_delete(self, item: PlaylistItem) -> None:
        self.close()
        self.deleting = item

    def _delete(self) -> None:
        if self.deleting is not None:
            self.library.delete_playlist(self.deleting.id)
        self.close()

    def _set_name(self, text: str) -> None:
        self.name = text

    def _save_new(self) -> None:
        """``addToNewPlaylist``: a name taken shows the error, else a new playlist gets the media."""
        name = self.name.strip()
        if any(playlist.name == name for playlist in self.library.playlists()):
            self.error = f"Playlist {name} already exists"  # playlist_existing
            return
        tracks = self.tracks or []
        playlist_id = self.library.create_playlist(name)
        self.library.append(playlist_id, tracks)
        self.close()

    def _save_to(self, playlist: PlaylistItem) -> None:
        """``onClick`` on an existing playlist: the media are appended."""
        self.library.append(playlist.id, self.tracks or [])
        self.close()

    def over(self, content: View) -> View:
        """``content`` with the open sheet or dialog over it."""
        if self.deleting is not None:
            return scrim_over(content, self._delete_sheet(self.deleting), self.close)
        if self.tracks is not None:
            return scrim_over(content, self._save_sheet(self.tracks), self.close)
        if self.menu is not None:
            return scrim_over(content, self._context_sheet(*self.menu), self.close)
        return content

    def _context_sheet(self, title: str, options: list[tuple[str, Callback]]) -> View:
        """``contextual_sheet``: the item's title (``ctx_title``) and a ``context_item`` per option."""
        rows = [View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                     on_click=action, height=_ROW, padding=8, children=[
                         text_view(option, resource_id=_id("context_option_title"), text_size=_BODY_SP, padding=40,
                                   weight=1)])
                for option, action in options]
        items = View(kind="column", class_name="androidx.recyclerview.widget.RecyclerView",
                     resource_id=_id("ctx_list"), children=rows)
        return _bottom_sheet(text_view(title, resource_id=_id("ctx_title"), text_size=_TITLE_SP, bold=True,
                                       padding=40), items)

    def _save_sheet(self, tracks: list[int]) -> View:
        """``dialog_playlist``: a new playlist's name and Save, then the existing playlists (or "No playlist
        found.")."""
        tag = system_tag(self.screen.phone)
        count = media_quantity(len(tracks), tag)
        focused = self.screen.focus_key == self.NAME_KEY
        field = edit_text(self.name, PLAYLIST_NAME_HINT, self.NAME_KEY, self._set_name, focused=focused,
                          on_submit=self._save_new, text_size=_BODY_SP, weight=1)
        name = View(kind="column", class_name="android.widget.LinearLayout", resource_id=_id(self.NAME_KEY),
                    weight=1, children=[field])
        if self.error:
            name.children.append(text_view(self.error, resource_id=_id("textinput_error"), text_size=_SMALL_SP,
                                           text_color=_ERROR))
        save = button(SAVE if tracks else "Add", self._save_new, resource_id=_id("dialog_playlist_save"),
                      background=_SHEET, text_color=_ORANGE, text_size=_BODY_SP)
        playlists = self.library.playlists()
        listed = [View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                       on_click=lambda item=item: self._save_to(item), padding=8, children=[
                           _icon("imageView8", "", "playlist", None, color=_ORANGE),
                           column(text_view(item.name, resource_id=_id("textView16"), text_size=_BODY_SP, padding=6),
                                  text_view(media_quantity(item.tracks, tag), resource_id=_id("subtitle"),
                                            text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=6),
                                  weight=1, padding=16)])
                  for item in playlists]
        body = (View(kind="column", class_name="androidx.recyclerview.widget.RecyclerView",
                     resource_id="android:id/list", children=listed) if listed else
                text_view(NO_PLAYLIST, resource_id="android:id/empty", text_color=TEXT_SECONDARY, padding=24))
        return _bottom_sheet(
            text_view(ADD_TO_NEW_PLAYLIST, resource_id=_id("textView9"), text_size=_TITLE_SP, bold=True, padding=16),
            text_view(count, resource_id=_id("medias2"), text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=16),
            row(name, save, padding=8),
            text_view(ADD_TO_EXISTING_PLAYLIST, resource_id=_id("textView8"), text_size=_TITLE_SP, bold=True,
                      padding=16),
            text_view(count, resource_id=_id("medias"), text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=16),
            View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("dialog_list_container"),
                 children=[body]))

    def _delete_sheet(self, playlist: PlaylistItem) -> View:
        """``dialog_confirm_delete`` for a playlist: the question, the warning, Delete forever and Cancel."""
        buttons = row(View(weight=1),
                      button(CANCEL, self.close, resource_id=_id("cancel_button"), background=_SHEET,
                             text_color=_ORANGE, text_size=_BODY_SP),
                      button(DELETE_FOREVER, self._delete, resource_id=_id("delete_button"), background=_ORANGE,
                             text_color=_ON_COLOR, text_size=_BODY_SP), spacing=24, padding=16)
        return _bottom_sheet(
            text_view(f"Delete playlist '{playlist.name}'?", resource_id=_id("title"), text_size=_TITLE_SP,
                      bold=True, padding=32),
            text_view(CONFIRM_DELETE_MESSAGE, resource_id=_id("message"), text_size=_BODY_SP,
                      text_color=TEXT_SECONDARY, padding=32),
            buttons)


# ----- MainActivity -------------------------------------------------------------------------------------------------
class MainScreen(Screen):
    """``MainActivity``: the VLC toolbar, the selected tab's fragment and the bottom navigation."""

    activity = MAIN_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.tab = TAB_IDS[0]
        self.overlays = LibraryOverlays(self)

    @property
    def library(self) -> MediaLibrary:
        """The app's media library."""
        return self.overlays.library

    def on_back(self) -> bool:
        """BACK closes an open sheet or dialog first."""
        return self.overlays.back()

    def build(self) -> View:
        assert isinstance(self.app, Vlc)
        self.app.rescan()
        pages = {"nav_video": self._videos, "nav_directories": self._browse, "nav_playlists": self._playlists}
        page = pages.get(self.tab, self._empty)()
        header = _toolbar(_icon("toolbar_icon", "", "app_vlc", None, color=_ORANGE, width=84),
                          text_view(APP_NAME, resource_id=_id("toolbar_vlc_title"), text_size=50, bold=True,
                                    padding=40, weight=1))
        placeholder = View(kind="frame", class_name="android.widget.FrameLayout", weight=1,
                           resource_id=_id("fragment_placeholder"), children=[page])
        return self.overlays.over(View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                                       resource_id=_id("coordinator"), background=WHITE,
                                       children=[header, placeholder, self._navigation()]))

    def _navigation(self) -> View:
        """``navigation``: the BottomNavigationView of ``menu/bottom_navigation.xml``, labels always shown."""
        items = []
        for tab, title, glyph in zip(TAB_IDS, TAB_TITLES, _TAB_ICONS):
            chosen = tab == self.tab
            color = _ORANGE if chosen else _NAV_COLOR
            # Material's navigation_bar_item_labels_group: one line each, cut with "…" (maxLines 1, ellipsize end)
            label = text_view(title, text_size=_SMALL_SP, padding=2, text_color=color, bold=chosen, single_line=True,
                              resource_id=_id("navigation_bar_item_large_label_view" if chosen
                                              else "navigation_bar_item_small_label_view"))
            items.append(View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id(tab),
                              content_desc=title, selected=chosen, clickable=True, focusable=True, weight=1,
                              on_click=lambda tab=tab: self._select(tab), children=[
                                  _icon("navigation_bar_item_icon_view", "", glyph, None, color=color, height=70,
                                        width=None),
                                  row(View(weight=1), label, View(weight=1))]))
        return View(kind="row", class_name="android.widget.FrameLayout", resource_id=_id("navigation"), height=_NAV,
                    background=_NAV_BACKGROUND, children=items)

    def _select(self, tab: str) -> None:
        self.tab = tab

    def _empty(self) -> View:
        """A tab not simulated: its empty text (``nomedia``), or nothing for More."""
        return _empty_text(NO_MEDIA if self.tab == "nav_audio" else "")

    def _videos(self) -> View:
        """``VideoGridFragment``: a card per video of the library, by title, two columns."""
        videos = sorted(self.library.videos(), key=lambda item: (item.title.lower(), item.path))
        if not videos:
            return _empty_text(NO_MEDIA)
        return _grid([self._video_card(item) for item in videos], "video_grid")

    def _playlists(self) -> View:
        """``PlaylistFragment``: a card per playlist, by name, two columns (``display_mode_playlists`` defaults to
        the grid); "nomedia" when there is none (``updateEmptyView``)."""
        playlists = self.library.playlists()
        if not playlists:
            return _empty_text(NO_MEDIA)
        return _grid([self._playlist_card(item) for item in playlists], "playlist_list")

    def _playlist_card(self, item: PlaylistItem) -> View:
        """``audio_browser_card_item``: the cover, the name and the More Actions button; a tap opens the playlist
        (``HeaderMediaListActivity``)."""
        cover = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("media_cover_container"),
                     height=360, background=_PANEL, children=[
                         _icon("media_cover", "", "playlist", None, color=_ORANGE, gravity="center", width=200,
                               height=200)])
        more = _icon("item_more", MORE_ACTIONS, "more", lambda: self.overlays.playlist_menu(item))
        title = text_view(item.name, resource_id=_id("title"), text_size=_BODY_SP, padding=8, weight=1)
        return View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("container"),
                    content_desc=f"Playlist: {item.name}", clickable=True, focusable=True, long_clickable=True,
                    on_click=lambda: self.start(PlaylistScreen, Intent(data=str(item.id))), weight=1, padding=21,
                    children=[cover, row(title, more)])

    def _video_card(self, item: MediaItem) -> View:
        """``video_grid_card``: the 16:10 thumbnail card with its More Actions button, the title and the
        duration."""
        path, title, duration = item.path, item.title, item.duration_ms
        description = f"Video: {title}" + (f", Duration: {_talkback_seconds(duration)}" if duration >= 1000 else "")
        more = _icon("item_more", MORE_ACTIONS, "more", lambda: self.overlays.video_menu(item), color=_ON_COLOR,
                     gravity="bottom_end")
        thumbnail = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("container"),
                         height=300, background=(66, 66, 66), clickable=True, focusable=True,
                         on_click=lambda: self.app.play(path), children=[more])
        texts = [text_view(title, resource_id=_id("ml_item_title"), text_size=_TITLE_SP, padding=8)]
        if duration > 0:
            texts.append(text_view(millis_to_string(duration), resource_id=_id("ml_item_time"),
                                   text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=8))
        return View(kind="column", class_name="android.view.ViewGroup", content_desc=description, clickable=True,
                    focusable=True, long_clickable=True, on_click=lambda: self.app.play(path), weight=1, padding=21,
                    gravity="fill", children=[thumbnail, *texts])

    def _browse(self) -> View:
        """``MainBrowserFragment``: Favorites (gone while there are none), Storages with the internal memory card,
        Local Network."""
        card = View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id("browser_container"),
                    content_desc=f"Folder: {INTERNAL_MEMORY}", clickable=True, focusable=True, long_clickable=True,
                    on_click=lambda: self.start(BrowserScreen, Intent(data=EXTERNAL_STORAGE)), width=400,
                    padding=24, background=_PANEL, children=[
                        View(kind="frame", class_name="android.widget.FrameLayout", height=180),
                        text_view(INTERNAL_MEMORY, resource_id=_id("title"), text_size=_BODY_SP, padding=8)])
        sections = [
            text_view(STORAGES, resource_id=_id("title"), text_size=_TITLE_SP, bold=True, padding=40),
            row(card, resource_id=_id("list"), padding=24),
            text_view(LOCAL_NETWORK, resource_id=_id("title"), text_size=_TITLE_SP, bold=True, padding=40),
        ]
        return View(kind="column", class_name="androidx.core.widget.NestedScrollView", gravity="fill",
                    children=sections)


# ----- SecondaryActivity with FileBrowserFragment ------------------------------------------------------------------
class BrowserScreen(Screen):
    """``SecondaryActivity`` showing ``FileBrowserFragment``: the folder's title, the path bar (``ariane``) and the
    entries; opening a folder adds to the fragment back stack, which BACK pops, while "Navigate up" closes the browser
    (``AudioPlayerContainerActivity``: ``android.R.id.home`` → ``finish()``)."""

    activity = SECONDARY_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.stack = [intent.data or EXTERNAL_STORAGE]
        self.overlays = LibraryOverlays(self)
        self.sorting = False  # the sort submenu is open

    @property
    def settings(self) -> SharedPreferences:
        """The app's settings."""
        assert isinstance(self.app, Vlc)
        return self.app.settings

    @property
    def sort(self) -> tuple[int, bool]:
        """The browser's sort and whether it is descending, as ``BrowserModel`` reads them from the settings."""
        return self.settings.get(SORT_KEY, SORT_DEFAULT), self.settings.get(DESC_KEY, False)

    @property
    def folder(self) -> str:
        """The folder shown."""
        return self.stack[-1]

    def on_back(self) -> bool:
        """BACK closes the sort menu or an open sheet or dialog, else pops the fragment back stack; on its first
        folder the activity finishes."""
        if self.sorting:
            self.sorting = False
            return True
        if self.overlays.back():
            return True
        if len(self.stack) == 1:
            return False
        self.stack.pop()
        self.scroll.pop("network_list", None)
        return True

    def _open(self, entry: Entry) -> None:
        if entry.is_dir:
            self.stack.append(entry.path)
            self.scroll.pop("network_list", None)
        elif is_video(entry.name):
            self.app.play(entry.path)

    def _back_to(self, path: str) -> None:
        """A path bar segment: back to that folder if it is on the back stack, else browse it."""
        self.stack = self.stack[:self.stack.index(path) + 1] if path in self.stack else [*self.stack, path]
        self.scroll.pop("network_list", None)

    def build(self) -> View:
        up = _icon("", NAVIGATE_UP, "arrow_back", self.finish, width=_BAR)
        sort_by = _icon("ml_menu_sortby", SORT_BY, "sort", self._open_sort_menu, width=_BAR)
        header = _toolbar(up, text_view(_folder_title(self.folder), text_size=50, bold=True, padding=24, weight=1),
                          sort_by)
        sort, desc = self.sort
        entries = list_folder(self.phone, self.folder, sort, desc)
        window = self.phone.window
        rows = bound_rows(lambda index: self._row(entries[index], sort), len(entries), _ROW, 0,
                          self.scroll.get("network_list", 0), window.design_height, window.looks.font_scale)
        body = (scroll_list(*rows, key="network_list", resource_id=_id("network_list"), weight=1) if rows else
                text_view(NO_MEDIA, resource_id=_id("empty_text"), text_color=TEXT_SECONDARY, padding=48, weight=1))
        content = self.overlays.over(column(header, self._path_bar(), body, background=WHITE))
        if self.sorting:
            return popup_menu(content, self._sort_items(sort, desc), self._close_sort_menu, PACKAGE,
                              text_size=_TITLE_SP)
        return content

    def _open_sort_menu(self) -> None:
        self.sorting = True

    def _close_sort_menu(self) -> None:
        self.sorting = False

    def _sort_items(self, sort: int, desc: bool) -> list[tuple[str, Callback]]:
        """The ``ml_menu_sortby`` submenu's visible items (``activity_option.xml``: Name and File name; the browser
        hides ``ml_menu_sortby_media_number``), the current one marked ▲ or ▼ (``UiTools.updateSortTitles``)."""
        tag = system_tag(self.phone)
        items = ((SORT_BY_NAME, SORT_ALPHA, sort == SORT_ALPHA),
                 (SORT_BY_FILENAME, SORT_FILENAME, sort in (SORT_FILENAME, SORT_DEFAULT)))
        return [(locales.resource(tag, PACKAGE, title) + (f" {'▼' if desc else '▲'}" if current else ""),
                 lambda choice=choice: self._sort_by(choice)) for title, choice, current in items]

    def _sort_by(self, sort: int) -> None:
        """``BrowserModel.sort``: any choice but the default flips the direction (the default one is ascending),
        the list is sorted again and the choice saved in the settings."""
        desc = False if sort == SORT_DEFAULT else not self.sort[1]
        self.settings.apply({SORT_KEY: ("int", sort), DESC_KEY: ("boolean", desc)})
        self.sorting = False

    def _path_bar(self) -> View:
        """``ariane``: one ``browser_path_item`` per folder from the storage root down to this one."""
        paths, path = [], self.folder
        while path.startswith(EXTERNAL_STORAGE):
            paths.insert(0, path)
            path = posixpath.dirname(path)
        items = [text_view(_folder_title(path), text_size=_BODY_SP, text_color=_ORANGE, padding=16, clickable=True,
                           focusable=True, on_click=lambda path=path: self._back_to(path)) for path in paths]
        return View(kind="row", class_name="androidx.recyclerview.widget.RecyclerView", resource_id=_id("ariane"),
                    padding=8, children=items)

    def _row(self, entry: Entry, sort: int) -> View:
        """``browser_item``: the icon and the title (``row_title``), described as TalkBack reads it."""
        title = entry.name if entry.is_dir else title_of(entry.name)
        description = f"{'Folder' if entry.is_dir else 'File'}: {title}"
        icon = _icon("item_icon", "", "folder" if entry.is_dir else "video", None, color=_ORANGE)
        label = text_view(row_title(entry, sort), resource_id=_id("title"), text_size=_TITLE_SP, padding=32,
                          weight=1)
        children = [icon, label]
        if is_video(entry.name):
            children.append(_icon("item_more", MORE_ACTIONS, "more", lambda: self.overlays.file_menu(entry.path)))
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("browser_container"),
                    content_desc=description, clickable=True, focusable=True, long_clickable=True, height=_ROW,
                    padding=8, on_click=lambda: self._open(entry), children=children)


def _empty_text(text: str) -> View:
    """``EmptyLoadingStateView`` showing its empty text (nothing for an empty string)."""
    if not text:
        return column(View(), gravity="fill")
    return column(text_view(text, resource_id=_id("empty_text"), text_color=TEXT_SECONDARY, padding=48),
                  resource_id=_id("empty_loading"), gravity="fill")


def _grid(cards: list[View], name: str) -> View:
    """A RecyclerView of cards in two columns."""
    rows = [row(*cards[i:i + 2], *([View(weight=1)] if len(cards[i:i + 2]) == 1 else []))
            for i in range(0, len(cards), 2)]
    return scroll_list(*rows, key=name, resource_id=_id(name), gravity="fill", padding=16)


def _folder_title(path: str) -> str:
    """``FileBrowserFragment.getTitle``: "Internal memory" for the storage root, else the folder's name."""
    return INTERNAL_MEMORY if path == EXTERNAL_STORAGE else posixpath.basename(path)


# ----- VideoPlayerActivity ------------------------------------------------------------------------------------------
class PlayerScreen(Screen):
    """``VideoPlayerActivity`` playing ``intent.data``: the video surface and, while shown, the controls (title,
    time, length, seek bar, play/pause)."""

    activity = PLAYER_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.video = Video(self.phone, intent.data)
        now = self.phone.clock.now_ms()
        self.playing, self._position, self._since = True, 0, now
        self._hud_until: int | None = now + HUD_DELAY_MS  # None: shown until hidden (OVERLAY_INFINITE)
        self._hud_hidden = False

    @property
    def night_colors(self) -> None:
        """None: the manifest gives the player ``Theme.VLC.Player``, which has no night variant (it is dark)."""
        return None

    def position_ms(self) -> int:
        """Where playback is: the position at the last play, pause or seek, plus the device time since while
        playing, at most the duration."""
        moved = self.phone.clock.now_ms() - self._since if self.playing else 0
        return min(self._position + moved, self.video.duration_ms)

    def ended(self) -> bool:
        """Whether playback reached the end (``EndReached``)."""
        return self.playing and self.position_ms() >= self.video.duration_ms

    def hud_shown(self) -> bool:
        """Whether the controls are up: shown and not yet faded out."""
        return not self._hud_hidden and (self._hud_until is None or self.phone.clock.before(self._hud_until))

    def _show_hud(self, timeout_ms: int = 0) -> None:
        """``showOverlayTimeout``: up for ``timeout_ms``, or while paused until hidden, or 4 s while playing."""
        now, self._hud_hidden = self.phone.clock.now_ms(), False
        if timeout_ms:
            self._hud_until = now + timeout_ms
        else:
            self._hud_until = now + HUD_DELAY_MS if self.playing else None

    def _toggle_hud(self) -> None:
        """A tap on the video: hide the controls if they are up, else show them."""
        if self.hud_shown():
            self._hud_hidden = True
        else:
            self._show_hud()

    def play_pause(self) -> None:
        """``doPlayPause``: pause (the controls stay up) or resume (they fade 800 ms later)."""
        self._position, self._since = self.position_ms(), self.phone.clock.now_ms()
        self.playing = not self.playing
        self._show_hud(0 if not self.playing else RESUME_FADE_MS)

    def seek(self, position_ms: int) -> None:
        """``seekListener``: go on (playing, or paused) from ``position_ms``; the controls stay up for another 4 s
        while playing, until hidden while paused."""
        self._position = min(max(position_ms, 0), self.video.duration_ms)
        self._since = self.phone.clock.now_ms()
        self._show_hud()

    def build(self) -> View:
        if self.ended():
            return self._exit()
        image, key = self.video.frame(self.position_ms())
        surface = View(kind="image", class_name="android.view.SurfaceView", image=image, key=key, gravity="fill")
        layout = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("video_layout"),
                      gravity="fill", children=[surface])
        children = [layout, *self._hud()] if self.hud_shown() else [layout]
        return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("player_root"),
                    content_desc=VIDEO_PLAYER, clickable=True, focusable=True, on_click=self._toggle_hud,
                    background=_BLACK, children=children)

    def _exit(self) -> View:
        """``EXIT_PLAYER`` at the end of the video: the player finishes and the activity below it shows (this frame
        is built from it, with its scroll positions)."""
        self.finish()
        below = self.phone.activities.top
        self.scroll = below.scroll
        return below.build()

    def _hud(self) -> list[View]:
        """``player_hud_right`` (the title) at the top and ``player_hud`` (times, seek bar, play/pause) at the
        bottom."""
        title = text_view(title_of(posixpath.basename(self.video.path)), resource_id=_id("player_overlay_title"),
                          text_color=WHITE, text_size=_TITLE_SP, padding=42)
        top = View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("hud_right_overlay"),
                   background=_HUD, children=[title])
        position, duration = self.position_ms(), self.video.duration_ms
        times = row(text_view(millis_to_string(position), resource_id=_id("player_overlay_time"), text_color=WHITE,
                              text_size=_BODY_SP, padding=24, clickable=True, focusable=True, weight=1),
                    text_view(millis_to_string(duration), resource_id=_id("player_overlay_length"), text_color=WHITE,
                              text_size=_BODY_SP, padding=24, clickable=True, focusable=True))
        bar = seek_bar(position, duration, self.seek, resource_id=_id("player_overlay_seekbar"), height=84)
        button = _icon("player_overlay_play", PAUSE if self.playing else PLAY, "pause" if self.playing else "play",
                       self.play_pause, color=WHITE, width=168, height=168)
        bottom = View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("progress_overlay"),
                      gravity="bottom", background=_HUD, padding=16,
                      children=[times, bar, row(View(weight=1), button, View(weight=1))])
        return [top, bottom]


# ----- HeaderMediaListActivity -------------------------------------------------------------------------------------
class PlaylistScreen(Screen):
    """``HeaderMediaListActivity`` showing the playlist ``intent.data`` (its id): the header with its name and
    Play, then its media in position order (``songs``); a tap on one plays it. It closes once the playlist is
    gone."""

    activity = PLAYLIST_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.overlays = LibraryOverlays(self)
        self.playlist_id = int(intent.data) if (intent.data or "").isdigit() else 0

    def on_back(self) -> bool:
        """BACK closes an open sheet or dialog first."""
        return self.overlays.back()

    def build(self) -> View:
        library = self.overlays.library
        playlist = library.playlist(self.playlist_id)
        if playlist is None:
            self.finish()
            return self.phone.activities.top.build()
        tracks = library.tracks(self.playlist_id)
        up = _icon("", NAVIGATE_UP, "arrow_back", self.finish, width=_BAR)
        play = button(PLAY, lambda: self.app.play(tracks[0].path) if tracks else None, resource_id=_id("play_btn"),
                      background=_ORANGE, text_color=_ON_COLOR, text_size=_BODY_SP)
        header = View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("header_layout"),
                      background=_PANEL, padding=32, children=[
                          text_view(playlist.name, resource_id=_id("header_list_title"), text_size=50, bold=True,
                                    padding=16),
                          text_view(media_quantity(playlist.tracks, system_tag(self.phone)),
                                    resource_id=_id("header_list_artist"),
                                    text_size=_BODY_SP, text_color=TEXT_SECONDARY, padding=16),
                          row(play, View(weight=1), padding=8)])
        rows = [self._row(item) for item in tracks]
        songs = scroll_list(*rows, key="songs", resource_id=_id("songs"), weight=1)
        return self.overlays.over(column(_toolbar(up, View(weight=1)), header, songs, background=WHITE))

    def _row(self, item: MediaItem) -> View:
        """``audio_browser_item``: the title, the duration and More Actions."""
        texts = column(text_view(item.title, resource_id=_id("title"), text_size=_BODY_SP, padding=6),
                       text_view(millis_to_string(item.duration_ms), resource_id=_id("subtitle"),
                                 text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=6), weight=1, padding=16)
        more = _icon("item_more", MORE_ACTIONS, "more",
                     lambda: self.overlays.video_menu(item, PLAYLIST_ITEM_OPTIONS))
        return View(kind="row", class_name="android.view.ViewGroup", content_desc=item.title, clickable=True,
                    focusable=True, long_clickable=True, on_click=lambda: self.app.play(item.path), padding=8,
                    children=[_icon("media_cover", "", "video", None, color=_ORANGE), texts, more])


class Vlc(App):
    """``org.videolan.vlc``: the launcher opens ``MainActivity`` (through ``StartActivity``)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_vlc", (255, 136, 0)
    version_name, version_code = "3.5.4", 13050408  # android_gym/device/apps.toml
    night_colors = NIGHT_COLORS
    screens = (MainScreen, BrowserScreen, PlayerScreen, PlaylistScreen)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.library = MediaLibrary(phone)
        self.settings = SharedPreferences(phone, PREFS_PATH)
        self._rescanned: tuple[int, tuple[int, ...]] | None = None  # storage's and the library's versions then

    def rescan(self) -> None:
        """Bring the library in line with the videos in storage (``MediaLibrary.discover``), as the main screen does
        when it shows; not again while neither storage (``FileSystem.tree_version``: files written, made, removed,
        renamed or touched) nor the library's database changed since the last rescan, which left the two in line."""
        storage = self.phone.fs.tree_version(EXTERNAL_STORAGE)
        if (storage, self.library.versions()) != self._rescanned:
            self.library.discover(library_videos(self.phone))
            self._rescanned = storage, self.library.versions()

    def on_clear(self) -> None:
        """``pm clear``: an empty media library (VLC creates it again as it starts) and default settings."""
        self.settings.forget()
        self.library.ensure_db()

    def play(self, path: str) -> None:
        """``MediaUtils.openMedia`` for a video: start the player on it."""
        self.phone.activities.push(self, PlayerScreen, Intent(action="android.intent.action.VIEW", data=path))

    def screen_class(self, activity: str) -> type[Screen] | None:
        """``StartActivity`` forwards to ``MainActivity``."""
        return super().screen_class(MAIN_ACTIVITY if activity in (f"{PACKAGE}.StartActivity", ".StartActivity")
                                    else activity)
