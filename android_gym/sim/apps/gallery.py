"""Simple Gallery Pro 6.28.1 (versionCode 396, the build AndroidWorld installs): folders of pictures found on the
device, a folder's thumbnails, a full-screen viewer, and the file operations (copy to, move to, rename, delete,
properties).

Facts come from github.com/SimpleMobileTools/Simple-Gallery at ``8b9d05043`` ("update version to 6.28.1",
``app-version-versionCode = "396"``) and the Simple-Commons commit it pins (``9e60e24790``): layouts
``activity_main.xml``, ``activity_media.xml``, ``directory_item_grid_square.xml``, ``photo_item_grid.xml``,
``activity_medium.xml``, ``bottom_actions.xml``, ``pager_photo_item.xml``, ``dialog_directory_picker.xml``,
``dialog_delete_with_remember.xml`` and Commons' ``menu_search.xml``, ``dialog_filepicker.xml``,
``item_filepicker_list.xml``, ``dialog_rename_item.xml``, ``dialog_file_conflict.xml``,
``dialog_create_new_folder.xml``; menus ``menu_media.xml``, ``menu_viewpager.xml``, ``cab_media.xml``; strings from
both ``values/strings.xml``; behaviour from ``MainActivity``, ``MediaActivity``, ``ViewPagerActivity``,
``MediaAdapter``, ``PickDirectoryDialog``, ``DeleteWithRememberDialog``, ``extensions/Activity.kt``
(``tryCopyMoveFilesTo``, ``movePathsInRecycleBin``) and Commons' ``BaseSimpleActivity.copyMoveFilesTo``,
``FilePickerDialog``, ``Breadcrumbs``, ``RenameItemDialog``, ``FileConflictDialog``, ``CreateNewFolderDialog`` and
``PropertiesDialog``. Defaults are ``Config``'s: folders sorted by last modified, newest first, in 2 columns; a
folder's files newest first in 3 columns without names; the bottom actions favorite, edit, share and delete; the
Recycle Bin on (a deleted file goes to ``files/.trash`` in the app's data).

The app finds pictures the way ``MediaFetcher`` sees them through the MediaStore: every non-hidden folder of
external storage (``Android/data`` and ``Android/obb`` aside, folders with ``.nomedia`` skipped) that holds photo,
video, GIF, RAW or SVG files. Every screen lists the folders on each build, so files pushed over adb show up at
once. Pictures are decoded once per file version (host path, size, modification time, write version) and drawn
scaled down.

Not simulated: the first-run permission prompts, the main screen's and a folder's toolbar actions other than
"Toggle filename visibility" (camera, show all, sorting, filters, view types, column counts, settings, about,
the overflow menus), folder selection on the main screen, search of files, grouping, the favorites, edit, share,
rotate, hide, set as, print, resize, slideshow and show-on-map actions, zooming (pictures are shown fit to the
screen), playing videos and GIFs (their first frame is not decoded: the tile stays blank), the Recycle Bin folder
and restoring from it, renaming several files at once, the conflict dialog's "Apply to all", and toasts. A
dialog opened over another (the file picker over "Select destination") hides it while it is open.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from zoneinfo import ZoneInfo

from PIL import ExifTags, Image, ImageOps

from android_gym.sim.apps.commons import (
    DAY_COLORS,
    DIALOG_BACKGROUND,
    NAVIGATION_BAR_COLOR,
    NIGHT_COLORS,
    PRIMARY,
    UNCHECKED,
    Release,
    SearchMenuScreen,
    contextual_bar_color,
    default_date_format,
    search_menu,
    start_up_dialogs,
    valid_name,
)
from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import DIALOG_WIDTH, alert_dialog, dialog_over, popup_menu
from android_gym.sim.ui.picture_cache import picture_cache
from android_gym.sim.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    Color,
    View,
    check_box,
    column,
    edit_text,
    fab,
    frame,
    image_view,
    outlined_field,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "com.simplemobiletools.gallery.pro"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/Prefs.xml"  # Commons BaseConfig: PREFS_KEY = "Prefs"
#: The newest of ``MainActivity.checkWhatsNewDialog``'s releases (``res/values/strings.xml`` ``release_327``,
#: ``release_369``).
RELEASES = (Release(327, "Adding some folder thumbnail customization at the app settings\n"
                         "Allow setting a default folder to be opened at app launch"),
            Release(369, "Allow temporarily showing excluded folders on Android 11+"))
RECYCLE_BIN_PATH = f"/data/data/{PACKAGE}/files/.trash"  # Commons Context.recycleBinPath: filesDir/.trash
EXTRA_DIRECTORY, EXTRA_PATH = "directory", "path"  # intent extras (Constants.kt: DIRECTORY, PATH)

# res/values/strings.xml (the app's, then Commons')
APP_NAME, APP_LAUNCHER_NAME = "Simple Gallery", "Gallery"
NO_MEDIA = "No media files have been found with the selected filters."
OTHER_FOLDER = "Other folder"
SEARCH, SEARCH_FOLDERS, SEARCH_IN, BACK = "Search", "Search folders", "Search in {}", "Back"
TOGGLE_FILENAME, MORE_OPTIONS, DONE = "Toggle filename visibility", "More options", "Done"
PROPERTIES, RENAME, COPY_TO, MOVE_TO, DELETE, SELECT_ALL = (
    "Properties", "Rename", "Copy to", "Move to", "Delete", "Select all")
SELECT_DESTINATION, SELECT_FOLDER, INTERNAL = "Select destination", "Select a folder", "Internal"
OK, CANCEL, YES, NO = "OK", "Cancel", "Yes", "No"
MOVE_TO_RECYCLE_BIN_CONFIRMATION = "Are you sure you want to move {} into the Recycle Bin?"
DELETION_CONFIRMATION = "Are you sure you want to delete {}?"
DO_NOT_ASK_AGAIN = "Do not ask again in this session"
SKIP_THE_RECYCLE_BIN = "Skip the Recycle Bin, delete files directly"
FILE_ALREADY_EXISTS, SKIP, OVERWRITE, KEEP_BOTH = 'File "{}" already exists', "Skip", "Overwrite", "Keep both"
CREATE_NEW_FOLDER, FOLDER, TITLE, EXTENSION = "Create new folder", "Folder", "Title", "Extension"
NAME, PATH, SIZE, RESOLUTION, LAST_MODIFIED = "Name", "Path", "Size", "Resolution", "Last modified"

# Commons helpers/Constants.kt: the extensions String.isMediaFile() accepts (photos, videos, GIFs, RAWs, SVGs).
PHOTO_EXTENSIONS = (".jpg", ".png", ".jpeg", ".bmp", ".webp", ".heic", ".heif", ".apng", ".avif")
MEDIA_EXTENSIONS = (*PHOTO_EXTENSIONS, ".mp4", ".mkv", ".webm", ".avi", ".3gp", ".mov", ".m4v", ".3gpp", ".gif",
                    ".dng", ".orf", ".nef", ".arw", ".rw2", ".cr2", ".cr3", ".svg")
_UNINDEXED = (f"{EXTERNAL_STORAGE}/Android/data", f"{EXTERNAL_STORAGE}/Android/obb")  # not in the MediaStore

_SMALLER, _NORMAL, _BIGGER, _BIG = 31, 37, 42, 47  # Commons text sizes 12/14/16/18 sp at 420 dpi
_BAR, _ICON = 147, 126  # actionBarSize 56 dp; normal_icon_size 48 dp
_SHADE: Color = (48, 48, 48)  # the viewer's top and bottom gradients, drawn solid
_THUMBNAIL = 540  # decoded thumbnails: the largest grid cell (two folder columns)
_TMB_SHADOW = 184  # tmb_shadow_height 70 dp
#: EXIF orientations that turn a picture a quarter (its width and height swap when shown).
_TURNED = frozenset({5, 6, 7, 8})
_DECODE_LIMIT = 2400  # long edge a full picture is decoded to at most (the screen's height)


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- files ----------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Medium:
    """A media file as the MediaStore lists it: path, name, modification time (ns) and size; ``version`` is the
    file's write version (``FileSystem.versions``), which differs whenever the file is rewritten even at the same
    device time and size (a reset puts the clock back), so a stale picture is never shown. Not the host file's
    change time and inode: those come from the host's wall clock and the CPU the process ran on."""

    path: str
    modified_ns: int
    size: int
    version: int = 0

    @property
    def name(self) -> str:
        """The file name."""
        return posixpath.basename(self.path)

    @property
    def key(self) -> str:
        """Names this version of the file's pixels (for the renderer and the decode cache)."""
        return f"{self.path}:{self.modified_ns}:{self.size}:{self.version}"


@dataclass(frozen=True)
class Directory:
    """A folder with media (``models/Directory``): its path, display name and media, newest first."""

    path: str
    media: tuple[Medium, ...]

    @property
    def name(self) -> str:
        """``getFolderNameFromPath``: "Internal" for the storage root, else the folder's name."""
        return INTERNAL if self.path == EXTERNAL_STORAGE else posixpath.basename(self.path)


def is_media(name: str) -> bool:
    """``String.isMediaFile`` for a visible file (hidden files are not shown)."""
    return not name.startswith(".") and name.lower().endswith(MEDIA_EXTENSIONS)


def _sorted_media(media: list[Medium]) -> tuple[Medium, ...]:
    """The default file sorting: last modified, newest first (ties by name, for a stable order)."""
    return tuple(sorted(media, key=lambda m: (-m.modified_ns, m.name.lower())))


def media_in(phone: Context, path: str) -> tuple[Medium, ...]:
    """The media files directly in the folder ``path`` (Android path), newest first."""
    host = phone.fs.host_path(path)
    found = []
    try:
        entries = list(os.scandir(host))
    except OSError:
        return ()
    for entry in entries:
        if entry.is_file(follow_symlinks=False) and is_media(entry.name):
            info = entry.stat(follow_symlinks=False)
            found.append((posixpath.join(path, entry.name), info.st_mtime_ns, info.st_size))
    versions = phone.fs.versions(*(medium_path for medium_path, _, _ in found))
    return _sorted_media([Medium(*medium, version) for medium, version in zip(found, versions)])


def directories(phone: Context) -> list[Directory]:
    """Every folder of external storage with media, by its newest file, newest first (``directorySorting``)."""
    root = phone.fs.host_path(EXTERNAL_STORAGE)
    found = []
    for host, dirnames, filenames in os.walk(root):
        path = EXTERNAL_STORAGE + host[len(str(root)):]
        if ".nomedia" in filenames or path in _UNINDEXED:
            dirnames[:] = []
            continue
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        if any(is_media(name) for name in filenames):
            media = media_in(phone, path)
            if media:
                found.append(Directory(path, media))
    return sorted(found, key=lambda d: (-d.media[0].modified_ns, d.path.lower()))


# Full pictures kept (the viewer shows one a step): three screen-sized ones (10 MB each at 2400x1080), the one shown
# and its neighbours a swipe back and forth returns to; 16 of them took up to 280 MB.
_DECODED_BYTES = 32 * 2**20


@picture_cache(_DECODED_BYTES)
def _decoded(host: str, key: str) -> Image.Image | None:
    """The picture in the file (``key`` names its version), decoded once and at most screen-sized; ``None`` for
    what Pillow cannot read (videos, SVGs, broken files)."""
    try:
        with Image.open(host) as image:
            image.draft("RGB", (_DECODE_LIMIT, _DECODE_LIMIT))  # JPEG: decode at a reduced scale when big
            picture = ImageOps.exif_transpose(image)
            picture.thumbnail((_DECODE_LIMIT, _DECODE_LIMIT))
            return picture
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


# Thumbnails kept (540 px squares, 1.1 MB each): 28, more than a folder's screenful of cells (the renderer keeps
# them scaled to their cells as well); made only when a cell is drawn. 256 of them took up to 300 MB.
_THUMBNAILS_BYTES = 32 * 2**20


@picture_cache(_THUMBNAILS_BYTES)
def _cropped(host: str, key: str) -> Image.Image | None:
    """A square centre crop of the picture, thumbnail-sized (``MySquareImageView`` with Glide's ``centerCrop``)."""
    picture = _decoded(host, key)
    return None if picture is None else ImageOps.fit(picture, (_THUMBNAIL, _THUMBNAIL))


def picture(phone: Context, medium: Medium) -> Image.Image | None:
    """The medium's decoded picture."""
    return _decoded(str(phone.fs.host_path(medium.path)), medium.key)


def _when_drawn(made: Callable[[str, str], Image.Image | None], phone: Context,
                medium: Medium) -> Callable[[], Image.Image | None]:
    """``made``'s picture of the medium (``_decoded``'s or ``_cropped``'s), asked for only when the renderer draws
    it: a step that reads no pixels decodes no file."""
    return partial(made, str(phone.fs.host_path(medium.path)), medium.key)


def format_size(size: int) -> str:
    """Commons ``Long.formatSize``: 1024-based units, ``#,##0.#``."""
    if size <= 0:
        return "0 B"
    units, group = ("B", "kB", "MB", "GB", "TB"), 0
    while size >= 1024 ** (group + 1) and group < len(units) - 1:
        group += 1
    value = round(size / 1024 ** group, 1)
    return f"{value:,.1f}".removesuffix(".0") + f" {units[group]}"


def humanize_path(path: str) -> str:
    """Commons ``humanizePath``: the storage root shown as "Internal"."""
    return INTERNAL + path[len(EXTERNAL_STORAGE):] if path.startswith(EXTERNAL_STORAGE) else path


def alternative_name(phone: Context, folder: str, name: str) -> str:
    """``getAlternativeFile``: ``name(1).ext``, ``name(2).ext``, ... the first that does not exist."""
    stem, dot, extension = name.rpartition(".")
    stem, extension = (stem, extension) if dot else (name, "")
    index = 1
    while phone.fs.exists(posixpath.join(folder, f"{stem}({index}).{extension}")):
        index += 1
    return f"{stem}({index}).{extension}"


def copy_file(phone: Context, source: str, target: str) -> None:
    """``CopyMoveTask.copyFile``: the same bytes, keeping the source's modification time (``keepLastModified``);
    the target's folder gets device time."""
    fs = phone.fs
    source_host, target_host = fs.host_path(source), fs.host_path(target)
    shutil.copyfile(source_host, target_host)
    mtime = os.stat(source_host).st_mtime_ns
    os.utime(target_host, ns=(mtime, mtime))
    fs.stamp(target_host.parent)


def move_file(phone: Context, source: str, target: str) -> None:
    """``File.renameTo`` (a move or rename on internal storage): the file keeps its times, both folders get
    device time."""
    fs = phone.fs
    source_host, target_host = fs.host_path(source), fs.host_path(target)
    fs.makedirs(posixpath.dirname(target))
    os.replace(source_host, target_host)
    fs.stamp(source_host.parent)
    fs.stamp(target_host.parent)


# ----- shared widgets -------------------------------------------------------------------------------------------
def _icon(name: str, content_desc: str, icon: str, on_click: Callback | None, color: Color = TEXT, **props) -> View:
    """An ``ImageView`` (clickable when it has a listener), as the layouts declare them."""
    props.setdefault("width", _ICON)
    props.setdefault("height", _ICON)
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name) if name else "",
                content_desc=content_desc, hint=icon, clickable=on_click is not None,
                focusable=on_click is not None, on_click=on_click, text_color=color, **props)


def _menu_item(name: str, title: str, icon: str, on_click: Callback, color: Color = TEXT) -> View:
    """A menu item shown as an action (``ActionMenuItemView``: a Button described by its title)."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=_id(name), content_desc=title, hint=icon,
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_ICON, height=_ICON,
                text_color=color)


def _overflow(on_click: Callback, color: Color = TEXT) -> View:
    """The overflow button (``ActionMenuPresenter.OverflowMenuButton``)."""
    return View(kind="icon", class_name="android.widget.ImageView", content_desc=MORE_OPTIONS, hint="more",
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_ICON, height=_ICON,
                text_color=color)


def _search_menu(screen: GalleryScreen, hint: str, arrow: bool, items: list[View]) -> View:
    """Commons ``MySearchMenu``: the search (or back-arrow) icon, the search field and the toolbar's items."""
    def icon_clicked() -> None:
        if screen.search_open:
            screen.close_search()
        elif arrow:
            screen.finish()
        else:
            screen.focus_key, screen.keyboard_shown = screen.SEARCH_KEY, True

    shows_arrow = arrow or screen.search_open
    icon = _icon("top_toolbar_search_icon", BACK if shows_arrow else SEARCH, "arrow_back" if shows_arrow else "search",
                 icon_clicked, width=110)
    field = edit_text(screen.search_text, hint, screen.SEARCH_KEY, screen.set_search, weight=1, text_size=_BIG,
                      resource_id=_id(screen.SEARCH_KEY))
    return search_menu(PACKAGE, icon, field, items)


def _grid(cells: list[View], columns: int, key: str, name: str, **props) -> View:
    """A ``MyRecyclerView`` with a grid layout manager: rows of ``columns`` cells."""
    rows = [row(*cells[i:i + columns], *[View(weight=1) for _ in range(columns - len(cells[i:i + columns]))])
            for i in range(0, len(cells), columns)]
    return scroll_list(*rows, key=key, resource_id=_id(name), **props)


@lru_cache(maxsize=4)
def _bottom_shadow(width: int) -> Image.Image:
    """``gradient_background`` (``angle="90"``): ``gradient_grey_start`` (#CC000000) at the bottom of a ``width`` px
    wide band ``tmb_shadow_height`` tall, fading to transparent at its top."""
    alpha = Image.linear_gradient("L").resize((1, _TMB_SHADOW)).point(lambda value: value * 0xCC // 255)
    shadow = Image.new("RGBA", (width, _TMB_SHADOW))
    shadow.putalpha(alpha.resize((width, _TMB_SHADOW)))
    return shadow


def _directory_tile(phone: Context, directory: Directory, side: int, on_click: Callback) -> View:
    """``directory_item_grid_square``: the cover picture, and at its bottom the folder's name and media count in
    white over ``dir_shadow_holder``'s dark gradient."""
    cover = directory.media[0]
    texts = column(
        text_view(directory.name, resource_id=_id("dir_name"), text_color=WHITE, text_size=_NORMAL, padding=4),
        text_view(str(len(directory.media)), resource_id=_id("photo_cnt"), text_color=WHITE, text_size=_NORMAL,
                  padding=4),
        resource_id=_id("dir_bottom_holder"), gravity="bottom", padding=10)
    inner = side - 2  # inside the holder's 1 px padding
    shadow = image_view(_bottom_shadow(inner), f"gallery:shadow:{inner}", resource_id=_id("dir_shadow_holder"),
                        gravity="bottom", height=_TMB_SHADOW)
    return View(kind="frame", class_name="android.widget.RelativeLayout", resource_id=_id("dir_holder"),
                clickable=True, focusable=True, on_click=on_click, height=side, weight=1, padding=1,
                background=(238, 238, 238), children=[
                    image_view(_when_drawn(_cropped, phone, cover), cover.key, resource_id=_id("dir_thumbnail"),
                               gravity="fill"),
                    shadow, texts])


def _picked_directories(phone: Context, query: str) -> list[Directory]:
    """The folders whose name contains ``query`` (any case), as the search filters them."""
    return [d for d in directories(phone) if query.lower() in d.name.lower()]


# ----- dialogs --------------------------------------------------------------------------------------------------
class Dialog:
    """A dialog window over a screen: ``view`` builds its panel; it closes through the screen."""

    def __init__(self, screen: GalleryScreen) -> None:
        self.screen = screen

    def view(self) -> View:
        """The dialog's panel."""
        raise NotImplementedError

    def over(self, content: View) -> View:
        """``content`` with this dialog's window over it; a touch outside dismisses it."""
        return dialog_over(content, self.view(), self.close)

    def close(self) -> None:
        """Dismiss this dialog (and any opened over it)."""
        self.screen.close_dialog(self)

    def on_back(self) -> None:
        """BACK while this dialog is on top: dismiss it."""
        self.close()


class PopupMenu(Dialog):
    """The overflow menu's items; picking one dismisses the menu first."""

    def __init__(self, screen: GalleryScreen, items: list[tuple[str, Callback]]) -> None:
        super().__init__(screen)
        self.items = [(label, self._picked(action)) for label, action in items]

    def _picked(self, action: Callback) -> Callback:
        def pick() -> None:
            self.close()
            action()
        return pick

    def over(self, content: View) -> View:
        """The popup at the toolbar's end over ``content``."""
        return popup_menu(content, self.items, self.close, "android", text_size=_BIGGER, width=560)


class PickDirectoryDialog(Dialog):
    """``PickDirectoryDialog``: "Select destination" with the folders that hold media (searchable), and "Other
    folder" for any folder through the file picker. Picking the source folder does nothing (a toast)."""

    SEARCH_KEY = "folder_search"

    def __init__(self, screen: GalleryScreen, source: str, on_pick: Callable[[str], None]) -> None:
        super().__init__(screen)
        self.source, self.on_pick, self.query = source, on_pick, ""

    def _set_query(self, text: str) -> None:
        self.query = text

    def _picked(self, path: str) -> None:
        if path == self.source:
            return  # toast: source_and_destination_same
        self.close()
        self.on_pick(path)

    def _other_folder(self) -> None:
        self.screen.keyboard_shown = False
        self.screen.open_dialog(FilePickerDialog(self.screen, self.source, self._from_file_picker))

    def _from_file_picker(self, path: str) -> None:
        """``showOtherFolder``'s callback: the destination is used, and this dialog stays open."""
        self.on_pick(path)

    def _search_menu(self) -> View:
        """``folder_search_view``: Commons' ``MySearchMenu`` with its toolbar hidden (``updateSearchViewUi``), the
        search icon turned into a cross while the search is open (``updateSearchViewLeftIcon``), which closes it."""
        screen = self.screen
        searching = screen.focus_key == self.SEARCH_KEY

        def icon_clicked() -> None:
            if searching:  # closeSearch
                self.query, screen.focus_key, screen.keyboard_shown = "", "", False
            else:
                screen.focus_key, screen.keyboard_shown = self.SEARCH_KEY, True

        icon = _icon("top_toolbar_search_icon", SEARCH, "close" if searching else "search", icon_clicked, width=110)
        field = edit_text(self.query, SEARCH_FOLDERS, self.SEARCH_KEY, self._set_query, weight=1, text_size=_BIG,
                          resource_id=_id("top_toolbar_search"))
        return search_menu(PACKAGE, icon, field, [])

    def view(self) -> View:
        phone = self.screen.phone
        side = (DIALOG_WIDTH - 48) // 2
        tiles = [_directory_tile(phone, d, side, lambda path=d.path: self._picked(path))
                 for d in _picked_directories(phone, self.query)]
        search = self._search_menu()
        rows = min(3, (len(tiles) + 1) // 2)  # the dialog shows at most three rows; the grid scrolls
        body = [search, _grid(tiles, 2, "picker_grid", "directories_grid", height=rows * side + 24, padding=12)]
        if not tiles:
            body[1] = text_view(NO_MEDIA, resource_id=_id("directories_empty_placeholder"), text_size=_BIGGER,
                                padding=42, text_color=TEXT_SECONDARY)
        buttons = [("button3", OTHER_FOLDER, self._other_folder), ("button2", CANCEL, self.close),
                   ("button1", OK, self.close)]
        return alert_dialog(body, buttons, title=SELECT_DESTINATION, package=PACKAGE, background=DIALOG_BACKGROUND)


class FilePickerDialog(Dialog):
    """Commons ``FilePickerDialog`` picking a folder: breadcrumbs ("Internal > DCIM"), the folder's entries
    (folders first, by name), Cancel and OK (OK picks the shown folder), a FAB creating a folder (which is then
    picked). BACK goes up a folder, then closes."""

    def __init__(self, screen: GalleryScreen, start: str, on_pick: Callable[[str], None]) -> None:
        super().__init__(screen)
        self.path = start if screen.phone.fs.is_dir(start) else EXTERNAL_STORAGE
        self.on_pick = on_pick

    def _open(self, path: str) -> None:
        self.path = path

    def _ok(self) -> None:
        self.close()
        self.on_pick(self.path)

    def on_back(self) -> None:
        if self.path != EXTERNAL_STORAGE and self.path.startswith(EXTERNAL_STORAGE):
            self.path = posixpath.dirname(self.path)
        else:
            self.close()

    def _created(self, path: str) -> None:
        self.close()
        self.on_pick(path)

    def _breadcrumbs(self) -> View:
        crumbs, path = [], EXTERNAL_STORAGE
        parts = [INTERNAL, *self.path[len(EXTERNAL_STORAGE):].strip("/").split("/")]
        for index, part in enumerate(p for p in parts if p):
            path = path if index == 0 else f"{path}/{part}"
            current = path == self.path
            crumbs.append(text_view(part if index == 0 else f"> {part}", resource_id=_id("breadcrumb_text"),
                                    text_size=_BIGGER, padding=24, clickable=not current, focusable=not current,
                                    on_click=lambda path=path: self._open(path),
                                    text_color=TEXT if current else TEXT_SECONDARY))
        return View(kind="row", class_name="android.widget.HorizontalScrollView",
                    resource_id=_id("filepicker_breadcrumbs"), children=crumbs, padding=12)

    def _entry(self, name: str) -> View:
        path = posixpath.join(self.path, name)
        host = self.screen.phone.fs.host_path(path)
        if host.is_dir():
            children = sum(1 for child in os.listdir(host) if not child.startswith("."))
            details, action = f"{children} item" + ("" if children == 1 else "s"), lambda: self._open(path)
        else:
            details, action = format_size(host.stat().st_size), None
        texts = column(text_view(name, resource_id=_id("list_item_name"), text_size=_BIGGER, padding=6),
                       text_view(details, resource_id=_id("list_item_details"), text_size=_NORMAL, padding=6,
                                 text_color=TEXT_SECONDARY), weight=1, padding=10)
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("list_item_holder"),
                    clickable=True, focusable=True, on_click=action, children=[
                        _icon("list_item_icon", "", "recents" if host.is_dir() else "", None, color=PRIMARY), texts])

    def view(self) -> View:
        fs = self.screen.phone.fs
        names = [name for name in fs.listdir(self.path) if not name.startswith(".")]
        names.sort(key=lambda name: (not fs.is_dir(posixpath.join(self.path, name)), name.lower()))
        entries = scroll_list(*(self._entry(name) for name in names), key="filepicker_list",
                              resource_id=_id("filepicker_list"), height=1000)
        new_folder = fab("", "plus", lambda: self.screen.open_dialog(CreateFolderDialog(self.screen, self.path,
                                                                                       self._created)),
                         resource_id=_id("filepicker_fab"), margin=36, background=PRIMARY)
        body = [self._breadcrumbs(), frame(entries, new_folder, height=1000)]
        return alert_dialog(body, [("button2", CANCEL, self.close), ("button1", OK, self._ok)], title=SELECT_FOLDER,
                            package=PACKAGE, background=DIALOG_BACKGROUND)


class CreateFolderDialog(Dialog):
    """Commons ``CreateNewFolderDialog``: the parent folder (read only) and the new folder's title."""

    NAME_KEY = "folder_name"

    def __init__(self, screen: GalleryScreen, parent: str, on_created: Callable[[str], None]) -> None:
        super().__init__(screen)
        self.parent, self.on_created, self.name = parent, on_created, ""
        screen.focus_key, screen.keyboard_shown = self.NAME_KEY, True

    def _set_name(self, text: str) -> None:
        self.name = text

    def _ok(self) -> None:
        name, fs = self.name.strip(), self.screen.phone.fs
        path = posixpath.join(self.parent, name)
        if not valid_name(name) or fs.exists(path):
            return  # toasts: empty_name, invalid_name, name_taken
        fs.makedirs(path)
        self.close()
        self.on_created(path)

    def view(self) -> View:
        path = humanize_path(self.parent) + "/"
        folder = View(kind="edit", class_name="android.widget.EditText", resource_id=_id("folder_path"), text=path,
                      value=path, hint=FOLDER, multiline=True, text_size=_BIGGER)  # style UnclickableEditText
        name = edit_text(self.name, TITLE, self.NAME_KEY, self._set_name, resource_id=_id(self.NAME_KEY),
                         text_size=_BIGGER)
        body = [column(outlined_field(folder, resource_id=_id("folder_path_hint")),
                       outlined_field(name, resource_id=_id("folder_name_hint")),
                       resource_id=_id("dialog_holder"), padding=42, spacing=42)]
        return alert_dialog(body, [("button2", CANCEL, self.close), ("button1", OK, self._ok)],
                            title=CREATE_NEW_FOLDER, package=PACKAGE, background=DIALOG_BACKGROUND)


class ConflictDialog(Dialog):
    """Commons ``FileConflictDialog`` for a file: Skip, Overwrite or Keep both (Skip checked first)."""

    def __init__(self, screen: GalleryScreen, name: str, on_resolved: Callable[[str], None]) -> None:
        super().__init__(screen)
        self.name, self.on_resolved, self.choice = name, on_resolved, SKIP

    def _choose(self, choice: str) -> None:
        self.choice = choice

    def _ok(self) -> None:
        self.close()
        self.on_resolved(self.choice)

    def view(self) -> View:
        names = {SKIP: "skip", OVERWRITE: "overwrite", KEEP_BOTH: "keep_both"}
        radios = [View(kind="text", class_name="android.widget.RadioButton", text=choice, checkable=True,
                       checked=choice == self.choice, clickable=True, focusable=True,
                       resource_id=_id(f"conflict_dialog_radio_{name}"), on_click=lambda c=choice: self._choose(c),
                       text_size=_BIGGER, padding=36, text_color=PRIMARY if choice == self.choice else TEXT)
                  for choice, name in names.items()]
        body = [text_view(FILE_ALREADY_EXISTS.format(self.name), resource_id=_id("conflict_dialog_title"),
                          text_size=_BIGGER, padding=48),
                column(*radios, resource_id=_id("conflict_dialog_radio_group"), padding=24)]
        return alert_dialog(body, [("button2", CANCEL, self.close), ("button1", OK, self._ok)], package=PACKAGE,
                            background=DIALOG_BACKGROUND)


class DeleteDialog(Dialog):
    """``DeleteWithRememberDialog``: the question, "Do not ask again in this session" and (with the Recycle Bin)
    "Skip the Recycle Bin"; Yes calls ``on_yes(remember, skip_recycle_bin)``."""

    def __init__(self, screen: GalleryScreen, message: str, on_yes: Callable[[bool, bool], None]) -> None:
        super().__init__(screen)
        self.message, self.on_yes = message, on_yes
        self.remember = self.skip_recycle_bin = False

    def _toggle(self, name: str) -> None:
        setattr(self, name, not getattr(self, name))

    def _yes(self) -> None:
        self.close()
        self.on_yes(self.remember, self.skip_recycle_bin)

    def view(self) -> View:
        # MyAppCompatCheckbox.setColors: the box in the primary colour when checked
        boxes = [check_box(text, getattr(self, name), lambda name=name: self._toggle(name), resource_id=_id(res),
                           text_size=_BIGGER, padding=30, button_tint=PRIMARY, button_tint_off=UNCHECKED)
                 for name, text, res in (("remember", DO_NOT_ASK_AGAIN, "delete_remember_checkbox"),
                                         ("skip_recycle_bin", SKIP_THE_RECYCLE_BIN, "skip_the_recycle_bin_checkbox"))]
        body = [column(text_view(self.message, resource_id=_id("delete_remember_title"), text_size=_BIGGER,
                                 padding=18), *boxes, resource_id=_id("delete_remember_holder"), padding=48)]
        return alert_dialog(body, [("button2", NO, self.close), ("button1", YES, self._yes)], package=PACKAGE,
                            background=DIALOG_BACKGROUND)


class RenameDialog(Dialog):
    """Commons ``RenameItemDialog``: the name without its extension and the extension, in two fields. A name that
    is empty, invalid or taken keeps the dialog open (the app toasts)."""

    NAME_KEY, EXTENSION_KEY = "rename_item_name", "rename_item_extension"

    def __init__(self, screen: GalleryScreen, path: str, on_renamed: Callable[[str], None]) -> None:
        super().__init__(screen)
        self.path, self.on_renamed = path, on_renamed
        name = posixpath.basename(path)
        dot = name.rfind(".")
        self.name, self.extension = (name[:dot], name[dot + 1:]) if dot > 0 else (name, "")
        screen.focus_key, screen.keyboard_shown = self.NAME_KEY, True

    def _set(self, field: str) -> Callable[[str], None]:
        return lambda text: setattr(self, field, text)

    def _ok(self) -> None:
        fs = self.screen.phone.fs
        name = self.name + (f".{self.extension}" if self.extension else "")
        target = posixpath.join(posixpath.dirname(self.path), name)
        if not self.name or not valid_name(self.name) or not fs.exists(self.path) or target == self.path:
            return
        if target.lower() != self.path.lower() and fs.exists(target):
            return
        move_file(self.screen.phone, self.path, target)
        self.close()
        self.on_renamed(target)

    def view(self) -> View:
        fields = [outlined_field(edit_text(self.name, TITLE, self.NAME_KEY, self._set("name"),
                                           resource_id=_id(self.NAME_KEY), text_size=_NORMAL),
                                 resource_id=_id("rename_item_title_hint"))]
        if self.extension or "." in posixpath.basename(self.path)[1:]:
            fields.append(outlined_field(edit_text(self.extension, EXTENSION, self.EXTENSION_KEY,
                                                   self._set("extension"), resource_id=_id(self.EXTENSION_KEY),
                                                   text_size=_NORMAL),
                                         resource_id=_id("rename_item_extension_hint")))
        body = [column(*fields, resource_id=_id("rename_item_holder"), padding=42, spacing=42)]
        return alert_dialog(body, [("button2", CANCEL, self.close), ("button1", OK, self._ok)], title=RENAME,
                            package=PACKAGE, background=DIALOG_BACKGROUND)


class PropertiesDialog(Dialog):
    """Commons ``PropertiesDialog`` for a file: name, path, size, resolution (pictures) and last modified."""

    def __init__(self, screen: GalleryScreen, medium: Medium) -> None:
        super().__init__(screen)
        self.medium = medium

    def view(self) -> View:
        medium, phone = self.medium, self.screen.phone
        rows = [(NAME, medium.name), (PATH, posixpath.dirname(medium.path)), (SIZE, format_size(medium.size))]
        resolution = _file_resolution(phone, medium)
        if resolution is not None:
            width, height = resolution
            rows.append((RESOLUTION, f"{width} x {height} ({round(width * height / 1_000_000, 1)}MP)"))
        zone = ZoneInfo(phone.props.get("persist.sys.timezone") or "UTC")
        when = dt.datetime.fromtimestamp(medium.modified_ns / 1e9, zone)
        date_format = default_date_format(formats.system_tag(phone))  # Commons formatDate: "<date>, HH:mm"
        rows.append((LAST_MODIFIED, formats.format_pattern(when, f"{date_format}, HH:mm", formats.system_tag(phone))))
        items = [column(text_view(label, resource_id=_id("property_label"), text_size=_NORMAL, bold=True, padding=6),
                        text_view(value, resource_id=_id("property_value"), text_size=_NORMAL, padding=6),
                        resource_id=_id("property_holder"), padding=18)
                 for label, value in rows]
        return alert_dialog([column(*items, resource_id=_id("properties_holder"), padding=30)],
                            [("button1", OK, self.close)], title=PROPERTIES, package=PACKAGE,
                            background=DIALOG_BACKGROUND)



def _file_resolution(phone: Context, medium: Medium) -> tuple[int, int] | None:
    """The picture's size as shown (turned by its EXIF orientation), read from the file's header as Commons'
    ``getResolution`` does (``inJustDecodeBounds``: nothing decoded); ``None`` for what Pillow cannot read."""
    try:
        with Image.open(phone.fs.host_path(medium.path)) as image:
            width, height = image.size
            turned = image.getexif().get(ExifTags.Base.Orientation, 1) in _TURNED
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return (height, width) if turned else (width, height)


# ----- screens --------------------------------------------------------------------------------------------------
class GalleryScreen(SearchMenuScreen):
    """What the app's activities share: the search menu's state, a stack of dialogs and the file operations they
    start (delete, rename, copy or move to a picked folder)."""

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.dialogs: list[Dialog] = []

    @property
    def gallery(self) -> SimpleGallery:
        """The app."""
        assert isinstance(self.app, SimpleGallery)
        return self.app

    def open_dialog(self, dialog: Dialog) -> None:
        """Show ``dialog`` over the screen (and over any dialog already open)."""
        self.dialogs.append(dialog)

    def close_dialog(self, dialog: Dialog) -> None:
        """Dismiss ``dialog`` and whatever was opened over it."""
        if dialog in self.dialogs:
            del self.dialogs[self.dialogs.index(dialog):]
        self.focus_key, self.keyboard_shown = "", False

    def on_back(self) -> bool:
        if self.dialogs:
            self.dialogs[-1].on_back()
            return True
        if self.search_open:
            self.close_search()
            return True
        return False

    def with_dialogs(self, content: View) -> View:
        """``content`` under the topmost open dialog (one opened over another hides it here: the dump shows one
        dialog's controls, as uiautomator shows the active window's)."""
        return self.dialogs[-1].over(content) if self.dialogs else content

    # ----- file operations -------------------------------------------------------------------------------------
    def ask_delete(self, media: list[Medium], done: Callback) -> None:
        """``checkDeleteConfirmation``: ask (unless told not to in this session), then delete or recycle."""
        app = self.gallery
        if app.skip_delete_confirmation:
            self.delete_media(media, app.skip_recycle_bin, done)
            return
        size = format_size(sum(m.size for m in media))
        items = f'"{media[0].name}" ({size})' if len(media) == 1 else f"{len(media)} items ({size})"
        template = DELETION_CONFIRMATION if app.skip_recycle_bin else MOVE_TO_RECYCLE_BIN_CONFIRMATION

        def confirmed(remember: bool, skip_recycle_bin: bool) -> None:
            app.skip_delete_confirmation = remember
            if remember:
                app.skip_recycle_bin = skip_recycle_bin
            self.delete_media(media, skip_recycle_bin, done)

        self.open_dialog(DeleteDialog(self, template.format(items), confirmed))

    def delete_media(self, media: list[Medium], skip_recycle_bin: bool, done: Callback) -> None:
        """``deleteConfirmed`` / ``deleteFiles``: into the Recycle Bin (``movePathsInRecycleBin``) or gone."""
        for medium in media:
            if not self.phone.fs.exists(medium.path):
                continue
            if skip_recycle_bin:
                self.phone.fs.remove_tree(medium.path)
            else:
                move_file(self.phone, medium.path, RECYCLE_BIN_PATH + medium.path)
        done()

    def copy_move(self, paths: list[str], is_copy: bool, done: Callback) -> None:
        """``tryCopyMoveFilesTo``: pick the destination, then copy or move each file there, asking about each one
        whose name is taken; ``done`` runs once the files are through."""
        source = posixpath.dirname(paths[0])

        def picked(destination: str) -> None:
            if destination == source or not self.phone.fs.is_dir(destination):
                return  # toasts: source_and_destination_same, invalid_destination
            self._transfer(list(paths), destination, is_copy, done)

        self.open_dialog(PickDirectoryDialog(self, source, picked))

    def _transfer(self, pending: list[str], destination: str, is_copy: bool, done: Callback) -> None:
        """Copy or move the files one by one (``checkConflicts`` asks first about each taken name)."""
        while pending:
            path = pending.pop(0)
            if not self.phone.fs.exists(path):
                continue
            name = posixpath.basename(path)
            if self.phone.fs.exists(posixpath.join(destination, name)):
                def resolved(choice: str, path: str = path, name: str = name) -> None:
                    if choice == OVERWRITE:
                        self._put(path, posixpath.join(destination, name), is_copy)
                    elif choice == KEEP_BOTH:
                        self._put(path, posixpath.join(destination, alternative_name(self.phone, destination, name)),
                                  is_copy)
                    self._transfer(pending, destination, is_copy, done)

                self.open_dialog(ConflictDialog(self, name, resolved))
                return
            self._put(path, posixpath.join(destination, name), is_copy)
        done()

    def _put(self, source: str, target: str, is_copy: bool) -> None:
        if source == target:
            return
        if is_copy:
            copy_file(self.phone, source, target)
        else:
            move_file(self.phone, source, target)


class MainScreen(GalleryScreen):
    """``MainActivity``: the search menu and the folders with media, two per row."""

    activity = f"{PACKAGE}.activities.MainActivity"

    def __init__(self, app: SimpleGallery, intent: Intent) -> None:
        super().__init__(app, intent)
        start_up_dialogs(self, app.prefs, RELEASES)  # onCreate's appLaunched and checkWhatsNewDialog

    def _open(self, path: str) -> None:
        self.keyboard_shown = False
        self.start(MediaScreen, Intent(extras={EXTRA_DIRECTORY: path}))

    def build(self) -> View:
        found = _picked_directories(self.phone, self.search_text)
        side = self.phone.window.design_width // 2
        tiles = [_directory_tile(self.phone, d, side, lambda path=d.path: self._open(path)) for d in found]
        body = _grid(tiles, 2, "directories_grid", "directories_grid", weight=1) if tiles else text_view(
            NO_MEDIA, resource_id=_id("directories_empty_placeholder"), text_size=_BIGGER, padding=42,
            text_color=TEXT_SECONDARY)
        content = View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                       resource_id=_id("directories_coordinator"), gravity="fill",
                       children=[_search_menu(self, SEARCH_FOLDERS, False, []), body])
        return self.with_dialogs(content)


class MediaScreen(GalleryScreen):
    """``MediaActivity`` for one folder: its files as square thumbnails, three per row; a tap opens the viewer, a
    long press starts selecting (the contextual bar offers Delete and, in its overflow, Properties, Rename, Copy
    to, Move to and Select all)."""

    activity = f"{PACKAGE}.activities.MediaActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.path = intent.extras.get(EXTRA_DIRECTORY, EXTERNAL_STORAGE)
        self.selected: set[str] = set()

    def on_back(self) -> bool:
        if not self.dialogs and self.selected:
            self.selected.clear()
            return True
        return super().on_back()

    def _media(self) -> tuple[Medium, ...]:
        query = self.search_text.lower()
        return tuple(m for m in media_in(self.phone, self.path) if query in m.name.lower())

    def _tapped(self, medium: Medium) -> None:
        if self.selected:
            self.selected ^= {medium.path}
            return
        self.keyboard_shown = False
        self.start(ViewerScreen, Intent(extras={EXTRA_PATH: medium.path}))

    def _long_pressed(self, medium: Medium) -> None:
        self.selected.add(medium.path)

    def _toggle_filenames(self) -> None:
        self.gallery.set_display_file_names(not self.gallery.display_file_names)

    def build(self) -> View:
        media = self._media()
        self.selected &= {m.path for m in media}
        cells = [self._tile(m) for m in media]
        body = _grid(cells, 3, "media_grid", "media_grid", weight=1) if cells else text_view(
            NO_MEDIA, resource_id=_id("media_empty_text_placeholder"), text_size=_BIGGER, padding=42,
            text_color=TEXT_SECONDARY)
        bar = self._action_bar(media) if self.selected else _search_menu(
            self, SEARCH_IN.format(posixpath.basename(self.path) if self.path != EXTERNAL_STORAGE else INTERNAL),
            True, [_menu_item("toggle_filename", TOGGLE_FILENAME, "label", self._toggle_filenames)])
        content = View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                       resource_id=_id("media_coordinator"), gravity="fill", children=[bar, body])
        return self.with_dialogs(content)

    def _tile(self, medium: Medium) -> View:
        """``photo_item_grid``: the thumbnail, the check mark when selected, the name when names are shown."""
        children = [image_view(_when_drawn(_cropped, self.phone, medium), medium.key,
                               resource_id=_id("medium_thumbnail"), gravity="fill")]
        chosen = medium.path in self.selected
        if chosen:
            children.append(_icon("medium_check", "", "check", None, color=WHITE, background=PRIMARY, width=68,
                                  height=68, margin=21, gravity="top"))
        if self.gallery.display_file_names:
            children.append(text_view(medium.name, resource_id=_id("medium_name"), text_color=WHITE,
                                      text_size=_SMALLER, padding=10, gravity="bottom", background=(40, 40, 40)))
        side = self.phone.window.design_width // 3
        return View(kind="frame", class_name="android.widget.RelativeLayout", resource_id=_id("media_item_holder"),
                    clickable=True, focusable=True, long_clickable=True, selected=chosen, height=side,
                    weight=1, padding=1, background=(238, 238, 238), on_click=lambda: self._tapped(medium),
                    on_long_click=lambda: self._long_pressed(medium), children=children)

    def _action_bar(self, media: tuple[Medium, ...]) -> View:
        """The contextual action bar: close, "selected / all", Delete and the overflow, white on Commons'
        ``AppTheme.ActionMode`` background (``contextual_bar_color``), as ``MyRecyclerViewAdapter`` tints them."""
        close = _icon("action_mode_close_button", DONE, "arrow_back", self.selected.clear, WHITE)
        title = text_view(f"{len(self.selected)} / {len(media)}", resource_id=_id("actionbar_title"), weight=1,
                          text_size=_BIG, padding=36, text_color=WHITE)
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("action_mode_bar"), height=_BAR,
                    background=contextual_bar_color(self.phone.window.looks.night), children=[
                        close, title, _menu_item("cab_delete", DELETE, "delete", self._delete_selected, WHITE),
                        _overflow(self._open_menu, WHITE)])

    def _chosen(self) -> list[Medium]:
        return [m for m in media_in(self.phone, self.path) if m.path in self.selected]

    def _open_menu(self) -> None:
        items: list[tuple[str, Callback]] = []
        if len(self.selected) == 1:
            medium = self._chosen()[0]
            items += [(PROPERTIES, lambda: self.open_dialog(PropertiesDialog(self, medium))),
                      (RENAME, lambda: self.open_dialog(RenameDialog(self, medium.path, self._done)))]
        items += [(COPY_TO, lambda: self._copy_move(True)), (MOVE_TO, lambda: self._copy_move(False)),
                  (SELECT_ALL, self._select_all)]
        self.open_dialog(PopupMenu(self, items))

    def on_resume(self) -> None:
        """A folder left without media closes (``isDirEmpty``)."""
        if not media_in(self.phone, self.path):
            self.finish()

    def _done(self, *_: object) -> None:
        """``finishActMode``; a folder the operation emptied closes."""
        self.selected.clear()
        self.on_resume()

    def _select_all(self) -> None:
        self.selected = {m.path for m in self._media()}

    def _delete_selected(self) -> None:
        self.ask_delete(self._chosen(), self._done)

    def _copy_move(self, is_copy: bool) -> None:
        self.copy_move([m.path for m in self._chosen()], is_copy, self._done)


class ViewerScreen(GalleryScreen):
    """``ViewPagerActivity``: one picture fit to the screen, paged through its folder by horizontal swipes; a tap
    hides or shows the bars. The toolbar has the file's name, Properties and an overflow (Rename, Copy to, Move
    to); the bottom actions end with Delete."""

    activity = f"{PACKAGE}.activities.ViewPagerActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.path = intent.extras.get(EXTRA_PATH, "")
        self.folder = posixpath.dirname(self.path)
        self.fullscreen = False
        self._position = 0

    def _current(self) -> tuple[tuple[Medium, ...], Medium | None]:
        """The folder's media and the one shown: the opened path, else (it went away) the one now at its place."""
        media = media_in(self.phone, self.folder)
        paths = [m.path for m in media]
        if self.path in paths:
            self._position = paths.index(self.path)
        elif media:
            self._position = min(self._position, len(media) - 1)
            self.path = paths[self._position]
        return media, (media[self._position] if media else None)

    def on_resume(self) -> None:
        """A folder left without media closes the viewer (``isDirEmpty``)."""
        if self._current()[1] is None:
            self.finish()

    def _turn(self, direction: str) -> None:
        media, _ = self._current()
        position = self._position + (1 if direction == "left" else -1)
        if 0 <= position < len(media):
            self._position, self.path = position, media[position].path

    def _toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen

    def _after_removal(self) -> None:
        """The shown file left the folder: the next one shows, or the viewer closes with the folder empty."""
        if self._current()[1] is None:
            self.finish()

    def _renamed(self, path: str) -> None:
        self.path = path

    def build(self) -> View:
        media, medium = self._current()
        shown = None if medium is None else _when_drawn(_decoded, self.phone, medium)
        photo = image_view(shown, medium.key if medium else "", resource_id=_id("gestures_view"), gravity="fill",
                           clickable=True, focusable=True, on_click=self._toggle_fullscreen)
        pager = View(kind="frame", class_name="androidx.viewpager.widget.ViewPager", resource_id=_id("view_pager"),
                     gravity="fill", scrollable=len(media) > 1, focusable=True, on_fling=self._turn,
                     children=[View(kind="frame", class_name="android.widget.RelativeLayout",
                                    resource_id=_id("photo_holder"), gravity="fill", children=[photo])])
        children = [pager]
        if not self.fullscreen and medium is not None:
            children += [self._toolbar(medium), self._bottom_actions(medium)]
        content = View(kind="frame", class_name="android.widget.RelativeLayout", resource_id=_id("fragment_holder"),
                       gravity="fill", background=WHITE, children=children)
        return self.with_dialogs(content)

    def _toolbar(self, medium: Medium) -> View:
        up = View(kind="icon", class_name="android.widget.ImageButton", hint="arrow_back", clickable=True,
                  focusable=True, on_click=self.finish, width=_ICON, height=_ICON, text_color=WHITE)
        title = text_view(medium.name, text_size=_BIG + 6, text_color=WHITE, weight=1, padding=30)
        items = [up, title, _menu_item("menu_properties", PROPERTIES, "info", self._properties, WHITE),
                 _overflow(self._open_menu, WHITE)]
        return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("medium_viewer_toolbar"),
                    height=_BAR, background=_SHADE, gravity="top", children=items)

    def _bottom_actions(self, medium: Medium) -> View:
        """``bottom_actions`` with the default actions (favorite, edit, share, delete): only Delete here."""
        slots = [View(weight=1) for _ in range(3)]
        delete = _icon("bottom_delete", DELETE, "delete", self._delete, color=WHITE, weight=1, width=None)
        return View(kind="row", class_name="androidx.constraintlayout.widget.ConstraintLayout",
                    resource_id=_id("bottom_actions_wrapper"), height=168, background=_SHADE, gravity="bottom",
                    children=[*slots, delete])

    def _properties(self) -> None:
        medium = self._current()[1]
        if medium is not None:
            self.open_dialog(PropertiesDialog(self, medium))

    def _open_menu(self) -> None:
        self.open_dialog(PopupMenu(self, [
            (RENAME, lambda: self.open_dialog(RenameDialog(self, self.path, self._renamed))),
            (COPY_TO, lambda: self.copy_move([self.path], True, lambda: None)),
            (MOVE_TO, lambda: self.copy_move([self.path], False, self._after_removal)),
        ]))

    def _delete(self) -> None:
        medium = self._current()[1]
        if medium is not None:
            self.ask_delete([medium], self._after_removal)


class SimpleGallery(App):
    """``com.simplemobiletools.gallery.pro``; the launcher's ``SplashActivity`` hands over to ``MainActivity``."""

    package = PACKAGE
    night_colors = NIGHT_COLORS  # Simple-Commons' system theme (see commons.NIGHT_COLORS)
    day_colors = DAY_COLORS  # the system theme's text colour
    navigation_bar_color = NAVIGATION_BAR_COLOR
    label = APP_LAUNCHER_NAME
    icon, icon_color = "app_gallery", (245, 124, 0)
    version_name, version_code = "6.28.1", 396  # android_gym/device/apps.toml
    screens = (MainScreen, MediaScreen, ViewerScreen)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)
        self.skip_delete_confirmation = False  # Config.tempSkipDeleteConfirmation: this session only
        self.skip_recycle_bin = False  # Config.tempSkipRecycleBin

    @property
    def display_file_names(self) -> bool:
        """``Config.displayFileNames`` (key ``display_file_names``), off by default."""
        return self.prefs.get("display_file_names", False)

    def set_display_file_names(self, shown: bool) -> None:
        """Show or hide the names under the thumbnails."""
        self.prefs.apply({"display_file_names": ("boolean", shown)})

    def on_force_stop(self) -> None:
        """The process dies: the session's choices and the in-memory preferences go."""
        self.skip_delete_confirmation = self.skip_recycle_bin = False
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: default preferences."""
        self.on_force_stop()
