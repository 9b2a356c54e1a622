"""Files: AOSP DocumentsUI as Google ships it on the Android 13 emulator (``com.google.android.documentsui``).

Facts come from AOSP ``platform/packages/apps/DocumentsUI`` at Android 13 (read from LineageOS' mirror, branch
``lineage-20.0``, which merges ``android-13.0.0_r52``; its Lineage-only "Add launcher shortcut" item is left out):
layouts ``drawer_layout.xml``, ``directory_app_bar.xml``, ``directory_header.xml``, ``navigation_breadcrumb_item.xml``,
``fragment_directory.xml``, ``item_doc_list.xml``, ``item_dir_grid.xml``, ``item_doc_grid.xml``, ``item_root.xml``,
``fragment_pick.xml``, ``dialog_file_name.xml``, ``dialog_delete_confirmation.xml``, ``dialog_sorting.xml``,
``item_doc_inflated_message_content.xml``; menus ``activity.xml``, ``action_mode_menu.xml``, ``sub_menu.xml``;
``res/values/strings.xml``, ``config.xml`` and ``dimens.xml``; and the code: ``FilesActivity`` and
``files/ActionHandler`` (the app opens on ``default_root_uri``, the Downloads root), ``BaseActivity`` (per-root view
mode from ``LocalPreferences``, grid by default; the header title; BACK pops the folder stack), ``SharedInputHandler``
(BACK closes the drawer, then clears the selection), ``NavigationViewManager`` and ``HorizontalBreadcrumb`` (toolbar
title, hamburger "Show roots", breadcrumb), ``sidebar/RootsFragment`` and ``RootInfo`` (roots by type: Recent,
Images, Videos, Audio, Documents, Downloads, a spacer, then the device's storage; the picker keeps only roots that
support create, ``ProvidersAccess.getMatchingRoots``), ``DirectoryFragment`` (item clicks, "Move to…"/"Copy to…"
start ``PickActivity`` with ``PICK_COPY_DESTINATION``), ``ActionModeController`` ("N selected", close button
"Cancel"), ``MenuManager``/``files.MenuManager``/``picker.MenuManager``/``SelectionMetadata`` (which items show),
``DeleteDocumentFragment``/``MessageBuilder.generateDeleteMessage``, ``RenameDocumentFragment`` (name selected
without its extension; "A file with this name already exists."), ``CreateDirectoryFragment``,
``sorting/SortModel``/``SortListFragment``/``SortingCursorWrapper`` (folders first; names by a case-insensitive
collator; the Downloads root, Recent and media roots default to newest first, other folders to A to Z),
``ListDocumentHolder``/``GridDocumentHolder`` with ``Shared.formatTime`` and ``Formatter.formatFileSize`` (SI units)
and ``FileTypeMap`` → ``MimeIconUtils`` (the type label, "MP3 audio"), ``picker/PickFragment`` (the "Move"/"Copy"
button) and the file operation jobs (``MoveJob``: a move onto an existing name falls back to a copy under a unique
name; ``CopyJob``: no copy into itself). The storage provider is frameworks ``ExternalStorageProvider``: the
internal storage root is titled by ``Settings.Global.DEVICE_NAME`` ("sdk_gphone_x86_64" on AndroidWorld's
emulator), ``Android/data``, ``Android/obb`` and ``Android/sandbox`` are hidden (``shouldHideDocument``), and
``FileSystemProvider`` renames to a valid FAT name made unique ("name (1).ext"). Buttons are not upper-cased:
Google's build overlays ``config_button_all_caps`` (an assumption: the overlay is not public).

Every screen lists the file system on every build, so files a task pushes over adb show at once; deletes, moves,
copies and renames go through ``phone.fs`` (device times).

Not simulated: opening or previewing a file, sharing, "Open with", "Compress", "Get info", "New window", search
(and Recent's search bar and chips), drag and drop, cut/copy/paste, the selection hotspot on an item's icon, the
storage root's free space, progress notifications and failure dialogs of file operations, other providers (Drive,
...), and the media roots' own structure: Images, Videos, Audio and Documents list their files flat (the real ones
group images and videos by folder and audio by artist); Recent lists media files and downloads changed in the last
45 days. The header does not collapse as the list scrolls, a long breadcrumb shows only its last items, grid
rows are wrapped in a LinearLayout each, and an open folder deleted from outside falls back to the nearest folder
that still exists (the app would show its loading error).
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import ClassVar

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.system.clock import DAY_MS, VirtualClock
from android_gym.sim.system.fs import EXTERNAL_STORAGE, FileSystem
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import alert_dialog, dialog_over, popup_menu, scrim_over
from android_gym.sim.ui.layout import bound_rows, measure_width
from android_gym.sim.ui.selection import TextSelection
from android_gym.sim.ui.views import (
    DIVIDER,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    TOP_CORNERS,
    WHITE,
    Callback,
    View,
    column,
    edit_text,
    group,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "com.google.android.documentsui"
FILES_ACTIVITY = "com.android.documentsui.files.FilesActivity"
PICK_ACTIVITY = "com.android.documentsui.picker.PickActivity"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"  # PreferenceManager's default file
DOWNLOADS_DIR = f"{EXTERNAL_STORAGE}/Download"
#: ``Settings.Global.DEVICE_NAME`` on AndroidWorld's emulator, the storage root's title when the setting is unset.
DEVICE_NAME = "sdk_gphone_x86_64"
# Shared.ACTION_PICK_COPY_DESTINATION, FileOperationService.EXTRA_OPERATION_TYPE and its values.
ACTION_PICK_COPY_DESTINATION = "com.android.documentsui.PICK_COPY_DESTINATION"
EXTRA_OPERATION_TYPE = "com.android.documentsui.OPERATION_TYPE"
#: ``ACTION_CREATE_DOCUMENT``'s suggested name (``Intent.EXTRA_TITLE``).
EXTRA_TITLE = "android.intent.extra.TITLE"
OPERATION_COPY, OPERATION_MOVE = "1", "4"
MODE_LIST, MODE_GRID = 1, 2  # State.MODE_*
VIEW_MODE_PREFIX, SHOW_HIDDEN_FILES = "rootViewMode-", "showHiddenFiles"  # LocalPreferences keys
RECENT_DAYS = 45  # RecentsLoader: documents older than this are left out
MAX_NAME_LENGTH, MAX_NAME_BYTES = 255, 255  # dialog_file_name's maxLength; FileUtils' file name limit

# res/values/strings.xml (and the framework's "OK", "Cancel", "More options").
APP_LABEL = "Files"
SHOW_ROOTS, MORE_OPTIONS, OK, CANCEL = "Show roots", "More options", "OK", "Cancel"
NEW_FOLDER, SORT_BY, SELECT_ALL, DESELECT_ALL = "New folder", "Sort by...", "Select all", "Deselect all"
COPY_TO, MOVE_TO, RENAME, DELETE = "Copy to\u2026", "Move to\u2026", "Rename", "Delete"
SHOW_HIDDEN, HIDE_HIDDEN = "Show hidden files", "Don\u2019t show hidden files"
GRID_VIEW, LIST_VIEW = "Grid view", "List view"
MOVE, COPY, SAVE = "Move", "Copy", "Save"
NO_ITEMS = "No items"
# BaseActivity.updateHeaderTitle's root_info_header_recent, _downloads, _storage, _folder and _app
HEADER_RECENT, HEADER_DOWNLOADS = "Recent files", "Files in Downloads"
HEADER_STORAGE, HEADER_FOLDER, HEADER_APP = "Files on {}", "Files in {}", "Files from {}"
NEW_NAME_HINT, FOLDER_NAME_HINT = "New name", "Folder name"
NAME_CONFLICT, MISSING_RENAME, MISSING_FOLDER_NAME = (
    "A file with this name already exists.", "You need to rename this", "You need to add a folder name")
SORT_TITLE = "SORT BY"  # sort_dimension_dialog_title under textAllCaps
#: ``SortListFragment``'s list: (dimension, ascending, label), in its order.
SORT_ITEMS = (
    ("name", True, "File name (A to Z)"), ("name", False, "File name (Z to A)"),
    ("size", False, "Size (largest first)"), ("size", True, "Size (smallest first)"),
    ("type", True, "Type (A to Z)"), ("type", False, "Type (Z to A)"),
    ("date", False, "Modified (newest first)"), ("date", True, "Modified (oldest first)"),
)

# Sizes in px at 420 dpi (1 dp = 2.625 px) and sp text sizes.
_BAR, _ITEM, _ROOT_ITEM, _CRUMB, _HEADER = 147, 189, 137, 126, 158  # actionBarSize, list_item_height, 52dp, 48dp, 60dp
_DRAWER_WIDTH, _GRID_PAD, _CARD_MARGIN, _ICON = 672, 52, 10, 79  # 256dp, grid_container_padding, 4dp, 30dp
_TITLE, _BODY, _LIST_TITLE, _CAPTION, _SMALL = 52, 37, 42, 32, 29  # 20, 14, 16, 12 and 11 sp
_SELECTED = (210, 227, 252)  # list_item_selected_background_color
_PANEL = (248, 249, 250)
_SAVE_ICON = 126  # the save bar's document icon, 48dp
_SHEET_CORNER = 5  # grid_item_radius, 2dp: bottom_sheet_dialog_background's top corners (BottomSheet style)

_RESTRICTED = re.compile(r"^Android/(?:data|obb|sandbox)(?:/.+)?", re.IGNORECASE)  # ExternalStorageProvider
_FAT_INVALID = re.compile(r'[\x00-\x1f\x7f"*/:<>?\\|]')  # FileUtils.isValidFatFilenameChar


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- documents -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Root:
    """A root of the drawer: ``kind`` is ``storage`` or ``downloads`` (a folder tree at ``path``), ``media``
    (files of one media class, flat) or ``recent``."""

    key: str  # authority + root id, as LocalPreferences keys the view mode
    title: str
    kind: str
    path: str = ""
    media: str = ""  # for media roots: image, video, audio or document

    @property
    def supports_create(self) -> bool:
        """``Root.FLAG_SUPPORTS_CREATE``: the picker offers it and its folders take new documents."""
        return self.kind in ("storage", "downloads")


# The roots' titles (Root.COLUMN_TITLE), each its provider's resource string: DocumentsUI's root_recent,
# MediaProvider's root_images, root_videos, root_audio and root_documents, DownloadProvider's root_downloads.
RECENT_TITLE, IMAGES_TITLE, VIDEOS_TITLE = "Recent", "Images", "Videos"
AUDIO_TITLE, DOCUMENTS_TITLE, DOWNLOADS_TITLE = "Audio", "Documents", "Downloads"
RECENT = Root("nullnull", RECENT_TITLE, "recent")
IMAGES = Root("com.android.providers.media.documentsimages_root", IMAGES_TITLE, "media", media="image")
VIDEOS = Root("com.android.providers.media.documentsvideos_root", VIDEOS_TITLE, "media", media="video")
AUDIO = Root("com.android.providers.media.documentsaudio_root", AUDIO_TITLE, "media", media="audio")
DOCUMENTS = Root("com.android.providers.media.documentsdocuments_root", DOCUMENTS_TITLE, "media", media="document")
DOWNLOADS = Root("com.android.providers.downloads.documentsdownloads", DOWNLOADS_TITLE, "downloads", DOWNLOADS_DIR)


def storage_root(phone: Context) -> Root:
    """``ExternalStorageProvider``'s primary root, titled by the device name."""
    title = phone.settings.get("global", "device_name") or DEVICE_NAME
    return Root("com.android.externalstorage.documentsprimary", title, "storage", EXTERNAL_STORAGE)


def drawer_roots(phone: Context) -> list[Root | None]:
    """The drawer's roots in ``RootsFragment.sortLoadResult`` order; ``None`` is the spacer before storage."""
    return [RECENT, IMAGES, VIDEOS, AUDIO, DOCUMENTS, DOWNLOADS, None, storage_root(phone)]


@dataclass(frozen=True)
class Doc:
    """One document of a listing: a file or folder on external storage."""

    path: str
    name: str
    is_dir: bool
    size: int
    modified_ms: int
    mime: str


# libcore MimeMap (the extensions AndroidWorld's files use, and common others).
_MIME_TYPES = {
    "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/x-wav", "ogg": "audio/ogg", "flac": "audio/flac",
    "aac": "audio/aac", "amr": "audio/amr", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
    "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp", "heic": "image/heic", "svg": "image/svg+xml",
    "mp4": "video/mp4",
    "3gp": "video/3gpp", "mkv": "video/x-matroska", "webm": "video/webm", "pdf": "application/pdf",
    "zip": "application/zip", "apk": "application/vnd.android.package-archive", "exe": "application/x-msdos-program",
    "txt": "text/plain", "md": "text/markdown", "csv": "text/comma-separated-values", "html": "text/html",
    "xml": "text/xml", "json": "application/json", "doc": "application/msword",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "ppt": "application/vnd.ms-powerpoint",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}
#: ``MimeUtils.guessExtensionFromMimeType`` for the types above.
_EXTENSIONS = {mime: ext for ext, mime in reversed(list(_MIME_TYPES.items()))}
DIR_MIME = "vnd.android.document/directory"
UNKNOWN_MIME = "application/octet-stream"  # getTypeForName's type for an extension it does not know
_OFFICE = {"application/msword": "document",
           "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "document",
           "application/vnd.ms-excel": "spreadsheet",
           "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "spreadsheet",
           "application/vnd.ms-powerpoint": "presentation",
           "application/vnd.openxmlformats-officedocument.presentationml.presentation": "presentation"}


def mime_type(name: str) -> str:
    """``FileSystemProvider.getTypeForName``: by extension, ``application/octet-stream`` when unknown."""
    ext = name.rpartition(".")[2].lower() if "." in name else ""
    return _MIME_TYPES.get(ext, UNKNOWN_MIME)


def type_label(mime: str) -> str:
    """``MimeIconUtils.getTypeInfo(mime).getLabel()``: "Folder", "Android app", or "<EXT> audio|video|image|
    document|spreadsheet|presentation|archive|file" (the extension the type maps back to; "File" without one)."""
    if mime == DIR_MIME:
        return "Folder"
    if mime == "application/vnd.android.package-archive":
        return "Android app"
    ext = _EXTENSIONS.get(mime, "").upper()
    if mime.split("/")[0] in ("audio", "video", "image"):
        kind = mime.split("/")[0]
    elif mime == "application/zip":
        kind = "archive"
    elif mime in _OFFICE:
        kind = _OFFICE[mime]
    elif mime.startswith("text/") or mime in ("application/pdf", "application/json"):
        kind = "document"
    else:
        return f"{ext} file" if ext else "File"
    return f"{ext} {kind}" if ext else kind.capitalize()


def media_class(mime: str) -> str:
    """The MediaStore collection a file is in: image, video, audio, document (``MediaFile.isDocumentMimeType``:
    text, PDF and office files) or ""."""
    top = mime.split("/")[0]
    if top in ("image", "video", "audio"):
        return top
    if top == "text" or mime == "application/pdf" or mime in _OFFICE:
        return "document"
    return ""


def format_size(size: int) -> str:
    """``Formatter.formatFileSize``: SI units over 900 of the lower one, two decimals under 100 (half up)."""
    value, units = float(size), ("B", "kB", "MB", "GB", "TB", "PB")
    unit = 0
    while value > 900 and unit < len(units) - 1:
        value /= 1000
        unit += 1
    digits = 0 if unit == 0 or value >= 100 else 2
    text = Decimal(repr(value)).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{text} {units[unit]}"


def format_time(ms: int, now: dt.datetime, hour24: bool, tag: str) -> str:
    """``Shared.formatTime`` (``DateUtils.formatDateTime`` with ``FORMAT_ABBREV_ALL``) in the locale ``tag``: the
    time today, the date earlier this year ("Oct 14", skeleton "MMMd"), with the year before that ("Oct 14, 2022",
    "yMMMd")."""
    then = dt.datetime.fromtimestamp(ms / 1000, tz=now.tzinfo)
    if then.year != now.year:
        return formats.format_skeleton(then, "yMMMd", tag)
    if then.timetuple().tm_yday != now.timetuple().tm_yday:
        return formats.format_skeleton(then, "MMMd", tag)
    return formats.format_time(then, hour24, tag)


# The collator's primary order for ASCII: spaces and punctuation, then digits, then letters (case ignored).
_PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"


def collation_key(text: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key following ``Collator.getInstance()`` at ``SECONDARY`` strength for the names files have."""
    key = []
    for char in text:
        if char in _PUNCTUATION:
            key.append((0, _PUNCTUATION.index(char), ""))
        elif char.isdigit():
            key.append((1, 0, char))
        else:
            key.append((2, 0, char.casefold()))
    return tuple(key)


def sort_docs(docs: Iterable[Doc], dimension: str, ascending: bool) -> list[Doc]:
    """``SortingCursorWrapper``: folders first, then by ``dimension`` (name, size, type or date) in the
    direction given, ties by document id."""
    keys: dict[str, Callable[[Doc], object]] = {
        "name": lambda doc: collation_key(doc.name), "size": lambda doc: doc.size,
        "type": lambda doc: collation_key(type_label(doc.mime)), "date": lambda doc: doc.modified_ms}
    ordered = sorted(sorted(docs, key=lambda doc: doc.path), key=keys[dimension], reverse=not ascending)
    return [doc for doc in ordered if doc.is_dir] + [doc for doc in ordered if not doc.is_dir]


def _doc(fs: FileSystem, path: str) -> Doc | None:
    """The document at ``path``, or ``None`` when it is gone."""
    try:
        info = os.stat(fs.host_path(path))
    except OSError:
        return None
    return _doc_of(path, posixpath.basename(path), info)


def _doc_of(path: str, name: str, info: os.stat_result) -> Doc:
    """The document at ``path`` (named ``name``) whose file has the status ``info``."""
    is_dir = stat.S_ISDIR(info.st_mode)
    return Doc(path, name, is_dir, 0 if is_dir else info.st_size, info.st_mtime_ns // 1_000_000,
               DIR_MIME if is_dir else mime_type(name))


_STORAGE_PREFIX = EXTERNAL_STORAGE + "/"


def _hidden(path: str, show_hidden: bool) -> bool:
    """Whether a listing leaves ``path`` out: the restricted ``Android/`` subtrees always, dot files unless
    hidden files are shown (``FilteringCursorWrapper.filterHiddenFiles``)."""
    relative = (path[len(_STORAGE_PREFIX):] if path.startswith(_STORAGE_PREFIX)
                else posixpath.relpath(path, EXTERNAL_STORAGE))
    return bool(_RESTRICTED.match(relative)) or (not show_hidden and posixpath.basename(path).startswith("."))


def list_folder(fs: FileSystem, folder: str, show_hidden: bool) -> list[Doc]:
    """The children of ``folder`` a storage root shows (unsorted)."""
    try:
        names = fs.listdir(folder)
    except OSError:
        return []
    paths = (posixpath.join(folder, name) for name in names)
    return [doc for path in paths if not _hidden(path, show_hidden) and (doc := _doc(fs, path)) is not None]


def list_media(fs: FileSystem, root: Root, clock: VirtualClock) -> list[Doc]:
    """The files a media root or Recent lists: every file of the root's media class on external storage; for
    Recent, media files and downloads changed in the last ``RECENT_DAYS`` days (each listed until ``clock`` reaches
    the moment it leaves, ``VirtualClock.before``, so the list goes out of date then, not at every millisecond). One
    ``scandir`` per directory (as ``os.walk``, not into links to directories) and one ``stat`` per file."""
    found = []
    pending = [(os.fspath(fs.host_path(EXTERNAL_STORAGE)), EXTERNAL_STORAGE)]
    while pending:
        host, directory = pending.pop()
        try:
            entries = list(os.scandir(host))
        except OSError:
            continue
        for entry in entries:
            path = f"{directory}/{entry.name}"
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if _hidden(path, False):
                continue
            if is_dir:
                if not entry.is_symlink():
                    pending.append((entry.path, path))
                continue
            try:
                doc = _doc_of(path, entry.name, entry.stat())
            except OSError:
                continue
            if root.kind == "media" and media_class(doc.mime) == root.media:
                found.append(doc)
            elif root.kind == "recent" and (media_class(doc.mime) or path.startswith(DOWNLOADS_DIR + "/")) and (
                    clock.before(doc.modified_ms + RECENT_DAYS * DAY_MS + 1)):
                found.append(doc)
    return found


# ----- file operations (the providers and FileOperationService's jobs) ------------------------------------------
def valid_fat_name(name: str) -> str:
    """``FileUtils.buildValidFatFilename``: "", "." and ".." are "(invalid)", characters FAT forbids become ``_``,
    and the name is cut to ``MAX_NAME_BYTES`` (the real one cuts in the middle)."""
    if name in ("", ".", ".."):
        return "(invalid)"
    name = _FAT_INVALID.sub("_", name)
    while len(name.encode()) > MAX_NAME_BYTES:
        name = name[:-1]
    return name


def unique_name(fs: FileSystem, folder: str, name: str, is_dir: bool) -> str:
    """``FileUtils.buildUniqueFile``: ``name``, else "name (1).ext", "name (2).ext", ..."""
    stem, dot, ext = (name, "", "") if is_dir or "." not in name else name.rpartition(".")
    candidate, n = name, 0
    while os.path.lexists(fs.host_path(posixpath.join(folder, candidate))):
        n += 1
        candidate = f"{stem} ({n}){dot}{ext}"
    return candidate


def _move_entry(fs: FileSystem, source: str, target: str) -> None:
    """``File.renameTo``: the entry keeps its times; both folders change (device time)."""
    os.replace(fs.host_path(source), fs.host_path(target))
    fs.stamp(fs.host_path(posixpath.dirname(source)))
    fs.stamp(fs.host_path(posixpath.dirname(target)))


def _copy_tree(fs: FileSystem, source: str, target: str) -> None:
    """A byte copy (``CopyJob.byteCopyDocument``): new documents with device times."""
    if fs.is_dir(source):
        fs.makedirs(target)
        for name in fs.listdir(source):
            _copy_tree(fs, posixpath.join(source, name), posixpath.join(target, name))
    else:
        fs.write_bytes(target, fs.read_bytes(source))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def transfer(fs: FileSystem, sources: Iterable[str], destination: str, move: bool) -> None:
    """``MoveJob``/``CopyJob`` into ``destination``: a move renames the entry, or (when the name is taken there)
    copies it under a unique name and deletes it; a copy always makes a new document under a unique name. A
    folder never goes into itself or a descendant."""
    for source in sources:
        if not fs.exists(source) or _inside(destination, source):
            continue
        name, is_dir = posixpath.basename(source), fs.is_dir(source)
        target = posixpath.join(destination, name)
        if move and not os.path.lexists(fs.host_path(target)):
            _move_entry(fs, source, target)
            continue
        _copy_tree(fs, source, posixpath.join(destination, unique_name(fs, destination, name, is_dir)))
        if move:
            fs.remove_tree(source)


def delete(fs: FileSystem, paths: Iterable[str]) -> None:
    """``DeleteJob``: each document and, for a folder, everything in it."""
    for path in paths:
        fs.remove_tree(path)


def rename(fs: FileSystem, path: str, new_name: str) -> str:
    """``FileSystemProvider.renameDocument``: a valid FAT name made unique in the folder; the new path."""
    folder = posixpath.dirname(path)
    target = posixpath.join(folder, unique_name(fs, folder, valid_fat_name(new_name), fs.is_dir(path)))
    _move_entry(fs, path, target)
    return target


def create_folder(fs: FileSystem, folder: str, name: str) -> str:
    """``FileSystemProvider.createDocument`` for a directory: a valid, unique name."""
    path = posixpath.join(folder, unique_name(fs, folder, valid_fat_name(name), True))
    fs.makedirs(path)
    return path


def _quietly(operation: Callable[[], str | None]) -> str | None:
    """Run a file operation from the UI and return its result; one the file system refuses (a name too long once
    made unique) fails quietly with ``None`` (the app's failure snackbar or notification is not simulated)."""
    try:
        return operation()
    except OSError:
        return None


# ----- widgets -------------------------------------------------------------------------------------------------
def _text(text: str, name: str = "", size: int = _BODY, color: tuple[int, int, int] = TEXT, **props) -> View:
    props.setdefault("padding", 6)
    resource_id = name if name.startswith("android:") else _id(name) if name else ""
    return text_view(text, resource_id=resource_id, text_size=size, text_color=color, **props)


def _image(name: str, icon: str, size: int = _ICON, **props) -> View:
    """An ``ImageView`` (a drawable; no description unless given)."""
    resource_id = name if name.startswith("android:") else _id(name) if name else ""
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=resource_id, hint=icon,
                width=size, height=size, text_color=TEXT_SECONDARY, **props)


def _icon_button(description: str, icon: str, on_click: Callback, class_name: str = "android.widget.ImageButton",
                 name: str = "") -> View:
    """A toolbar button drawn as an icon and described by its title (``ActionMenuItemView`` reports a Button,
    the overflow an ImageView)."""
    return View(kind="icon", class_name=class_name, resource_id=_id(name) if name else "", content_desc=description,
                hint=icon, clickable=True, focusable=True, on_click=on_click, width=_BAR, height=_BAR,
                text_color=TEXT)


# ----- the browsing activities ---------------------------------------------------------------------------------
class _Browser(Screen):
    """What ``FilesActivity`` and ``PickActivity`` share (``BaseActivity`` with a ``DirectoryFragment``): the
    current root and folder stack, the roots drawer, the breadcrumb, the header, the listing in list or grid
    mode, sorting, and the name dialog."""

    LIST_KEY: ClassVar[str] = "dir_list"
    NAME_KEY: ClassVar[str] = "text1"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.root = DOWNLOADS  # default_root_uri
        self.stack: list[str] = [DOWNLOADS_DIR]
        self.overlay = ""  # drawer, menu, mode_menu, sort, delete, rename, new_folder
        self.sort: tuple[str, bool] | None = None  # SortModel: set once the user picks an order
        self.selected: set[str] = set()
        self.name_text, self.name_error, self.renaming = "", "", ""

    # ----- state ---------------------------------------------------------------------------------------------
    @property
    def files_app(self) -> DocumentsUI:
        """The app (its preferences)."""
        app = self.app
        assert isinstance(app, DocumentsUI)
        return app

    @property
    def folder(self) -> str:
        """The folder on top of the stack (``""`` in Recent and the media roots)."""
        return self.stack[-1]

    @property
    def view_mode(self) -> int:
        """``LocalPreferences.getViewMode(root, MODE_GRID)``."""
        return self.files_app.prefs.get(VIEW_MODE_PREFIX + self.root.key, MODE_GRID)

    @property
    def show_hidden(self) -> bool:
        """``LocalPreferences.getShowHiddenFiles`` (``show_hidden_files_by_default``: false)."""
        return self.files_app.prefs.get(SHOW_HIDDEN_FILES, False)

    def sort_order(self) -> tuple[str, bool]:
        """The user's order, else the folder's default: newest first where the document prefers it (the
        Downloads root, Recent and media roots), else A to Z."""
        if self.sort is not None:
            return self.sort
        prefers_date = self.root.kind in ("recent", "media") or (self.root.kind == "downloads"
                                                                 and len(self.stack) == 1)
        return ("date", False) if prefers_date else ("name", True)

    def docs(self) -> list[Doc]:
        """The current listing, sorted (read from the file system on every call)."""
        fs = self.phone.fs
        if self.root.kind in ("media", "recent"):
            found = list_media(fs, self.root, self.phone.clock)
        else:
            found = list_folder(fs, self.folder, self.show_hidden)
        return sort_docs(found, *self.sort_order())

    def can_create(self) -> bool:
        """``DirectoryDetails.canCreateDirectory``: the folder is on a root that supports create."""
        return self.root.supports_create and self.phone.fs.is_dir(self.folder)

    # ----- navigation ----------------------------------------------------------------------------------------
    def _reset_folder_state(self) -> None:
        self.selected.clear()
        self.scroll.pop(self.LIST_KEY, None)
        self.overlay = ""

    def open_root(self, root: Root) -> None:
        """``loadRoot``: the root's top folder, alone on the stack; the drawer closes."""
        self.root, self.stack = root, [root.path]
        self._reset_folder_state()

    def open_folder(self, doc: Doc) -> None:
        """``openContainerDocument``: push the folder."""
        self.stack.append(doc.path)
        self._reset_folder_state()

    def pop_to(self, depth: int) -> None:
        """A breadcrumb tap: back to the folder at ``depth`` (0: the root)."""
        del self.stack[depth + 1:]
        self._reset_folder_state()

    def _drop_missing_folders(self) -> None:
        """A folder deleted or moved from outside: the listing falls back to the nearest folder that exists."""
        while len(self.stack) > 1 and not self.phone.fs.is_dir(self.folder):
            self.stack.pop()
            self.scroll.pop(self.LIST_KEY, None)

    def on_back(self) -> bool:
        """A dialog or menu closes, then the drawer, then the selection clears, then the folder stack pops; at the
        root the activity finishes."""
        if self.overlay:
            self.close_overlay()
        elif self.selected:
            self.selected.clear()
        elif len(self.stack) > 1:
            self.pop_to(len(self.stack) - 2)
        else:
            return False
        return True

    def close_overlay(self) -> None:
        """Dismiss the drawer, menu, sheet or dialog; the keyboard goes with a name field."""
        self.overlay = ""
        self.focus_key, self.keyboard_shown, self.selection = "", False, None

    def show(self, overlay: str) -> Callback:
        """A callback that opens ``overlay``."""
        def open_overlay() -> None:
            self.overlay = overlay
        return open_overlay

    # ----- sorting and view mode --------------------------------------------------------------------------
    def _sort_by(self, dimension: str, ascending: bool) -> None:
        self.sort = (dimension, ascending)
        self.overlay = ""

    def set_view_mode(self, mode: int) -> None:
        """``BaseActivity.setViewMode``: saved for the root."""
        self.files_app.prefs.apply({VIEW_MODE_PREFIX + self.root.key: ("int", mode)})

    def toggle_hidden(self) -> None:
        """``onClickedShowHiddenFiles``: flip and save the preference."""
        self.files_app.prefs.apply({SHOW_HIDDEN_FILES: ("boolean", not self.show_hidden)})
        self.overlay = ""

    # ----- the name dialog (rename, new folder) ----------------------------------------------------------
    def ask_name(self, overlay: str, text: str, selected_to: int) -> None:
        """Open a name dialog with ``text`` in its field, ``[0, selected_to)`` selected and the keyboard up
        (``Shared.ensureKeyboardPresent``)."""
        self.overlay, self.name_text, self.name_error = overlay, text, ""
        self.focus_key, self.keyboard_shown = self.NAME_KEY, True
        self.selection = TextSelection(0, selected_to)

    def new_folder(self) -> None:
        """``CreateDirectoryFragment``."""
        self.ask_name("new_folder", "", 0)

    def _set_name(self, text: str) -> None:
        self.name_text = text[:MAX_NAME_LENGTH]  # android:maxLength

    def _submit_name(self) -> None:
        """The dialog's OK (or ENTER)."""
        if self.overlay == "new_folder":
            if not self.name_text:
                self.name_error = MISSING_FOLDER_NAME
                return
            created = _quietly(lambda: create_folder(self.phone.fs, self.folder, self.name_text))
            self.close_overlay()
            if created is not None:
                self.on_folder_created(created)
        else:
            self.submit_rename()

    def submit_rename(self) -> None:
        """Overridden where renaming is possible."""

    def on_folder_created(self, path: str) -> None:
        """``onDirectoryCreated`` (Files only focuses the new folder)."""

    # ----- building ------------------------------------------------------------------------------------------
    def build(self) -> View:
        self._drop_missing_folders()
        docs = self.docs()
        self.selected &= {doc.path for doc in docs}  # the selection follows the model
        if not self.selected and self.overlay in ("mode_menu", "delete"):
            self.overlay = ""  # the action mode ended under its menu or dialog
        content = column(self.top_bar(docs), self._breadcrumb(), self._header(),
                         self._listing(docs), *self.bottom_bar(), gravity="fill")
        return self.with_overlay(content, docs)

    def top_bar(self, docs: list[Doc]) -> View:
        """The toolbar: hamburger, title (root or folder name) and the options."""
        title = self.root.title if len(self.stack) <= 1 else posixpath.basename(self.folder)
        return group("row", "android.view.ViewGroup",
                     _icon_button(SHOW_ROOTS, "menu", self.show("drawer")),
                     _text(title, size=_TITLE, weight=1, padding=24),
                     *self.toolbar_actions(docs), resource_id=_id("toolbar"), height=_BAR, background=WHITE)

    def toolbar_actions(self, docs: list[Doc]) -> list[View]:
        """Action buttons after the title."""
        return [_icon_button(MORE_OPTIONS, "more", self.show("menu"), "android.widget.ImageView")]

    def bottom_bar(self) -> list[View]:
        """Views under the listing (the picker's buttons)."""
        return []

    def _breadcrumb(self) -> View:
        """``HorizontalBreadcrumb``: the root's title, then each folder; all but the last go back there. Only the
        items that fit are kept, ending with the last (the bar scrolls to its end)."""
        titles = [self.root.title] + [posixpath.basename(path) for path in self.stack[1:]]
        items = []
        for depth, title in enumerate(titles):
            last = depth == len(titles) - 1
            parts = [_text(title, "breadcrumb_text", _BODY, TEXT if last else TEXT_SECONDARY, padding=21)]
            if not last:
                parts.append(_image("breadcrumb_arrow", "chevron_right", 48))  # ic_breadcrumb_arrow
            items.append(group("row", "android.widget.LinearLayout", *parts, clickable=True, focusable=True,
                               on_click=(lambda depth=depth: self.pop_to(depth)) if not last else None,
                               height=_CRUMB))
        while len(items) > 1 and sum(measure_width(item) for item in items) > self.phone.window.design_width - 42:
            items.pop(0)
        return group("row", "androidx.recyclerview.widget.RecyclerView", *items, View(weight=1),
                     resource_id=_id("horizontal_breadcrumb"), padding=21)

    def header_title(self) -> str:
        """``BaseActivity.updateHeaderTitle`` in the system language (``SectionHeader`` is all caps)."""
        locale = self.phone.window.locale
        root_title = locale.string(self.root.title, PACKAGE)
        if self.root.kind == "recent":
            title = locale.string(HEADER_RECENT, PACKAGE)
        elif self.root.kind == "downloads":
            title = locale.string(HEADER_DOWNLOADS, PACKAGE)
        elif self.root.kind == "storage" and len(self.stack) > 1:
            title = locale.string(HEADER_FOLDER, PACKAGE).format(posixpath.basename(self.folder))
        elif self.root.kind == "storage":
            title = locale.string(HEADER_STORAGE, PACKAGE).format(root_title)
        elif self.root is DOCUMENTS:
            title = locale.string(HEADER_APP, PACKAGE).format(root_title)
        else:
            title = root_title
        return title.upper()

    def _header(self) -> View:
        """``header_container``: the title and the grid/list switch (``sub_menu``)."""
        grid = self.view_mode == MODE_GRID
        switch = _icon_button(LIST_VIEW if grid else GRID_VIEW, "list" if grid else "grid",
                              lambda: self.set_view_mode(MODE_LIST if grid else MODE_GRID),
                              "android.widget.Button", "sub_menu_list" if grid else "sub_menu_grid")
        menu = group("row", "androidx.appcompat.widget.ActionMenuView", switch, resource_id=_id("sub_menu"))
        return group("row", "android.widget.LinearLayout",
                     _text(self.header_title(), "header_title", _CAPTION, weight=1, padding=12), menu,
                     resource_id=_id("header_container"), height=_HEADER, padding=42)

    def _listing(self, docs: list[Doc]) -> View:
        """``dir_list``: the documents as rows or cards, or the empty message."""
        if not docs:
            message = column(_image("artwork", "folder", 300, gravity="center"),
                             _text(NO_ITEMS, "message", _LIST_TITLE, padding=24, gravity="center_horizontal"),
                             resource_id=_id("content"), padding=120)
            items = [group("frame", "android.widget.FrameLayout", message, resource_id="android:id/empty")]
        elif self.view_mode == MODE_LIST:
            window = self.phone.window
            items = bound_rows(lambda index: self._list_item(docs[index]), len(docs), _ITEM, 0,
                               self.scroll.get(self.LIST_KEY, 0), window.design_height, window.looks.font_scale)
        else:
            items = self._grid_rows(docs)
        padding = _GRID_PAD if docs and self.view_mode == MODE_GRID else 0
        return scroll_list(*items, key=self.LIST_KEY, resource_id=_id("dir_list"), weight=1, padding=padding)

    def item_enabled(self, doc: Doc) -> bool:
        """Whether the item takes touches (``DocumentsAdapter.isEnabled``)."""
        return True

    def _item(self, doc: Doc, kind: str, class_name: str, children: list[View], **props) -> View:
        """``item_root``: a click opens a folder or (with a selection) toggles the item; a long press selects."""
        item = View(kind=kind, class_name=class_name, resource_id=_id("item_root"), children=children,
                    clickable=True, focusable=True, selected=doc.path in self.selected,
                    background=_SELECTED if doc.path in self.selected else WHITE,
                    on_click=lambda: self.on_item_click(doc), on_long_click=lambda: self.on_item_long_press(doc),
                    **props)
        if not self.item_enabled(doc):  # DocumentHolder.setEnabled: the whole item, recursively
            for view in item.walk():
                view.enabled = False
        return item

    def _metadata(self, doc: Doc) -> tuple[str, str]:
        now = self.phone.clock.now(DAY_MS)  # format_time reads only its year and day
        hour24 = formats.phone_is_24_hour(self.phone)
        return format_time(doc.modified_ms, now, hour24, formats.system_tag(self.phone)), format_size(doc.size)

    def _icon(self, doc: Doc, name: str) -> View:
        """The item's icon: the check mark when selected, else the type's glyph."""
        selected = doc.path in self.selected
        glyph = "check" if selected else "folder" if doc.is_dir else "file"
        return group("frame", "android.widget.FrameLayout", _image(name, glyph, gravity="center"),
                     resource_id=_id("icon"), width=_ITEM if name == "icon_mime" else 126,
                     height=_ITEM if name == "icon_mime" else 126)

    def _list_item(self, doc: Doc) -> View:
        """``item_doc_list``: icon, name and, for a file, "time, size, type"."""
        texts = [_text(doc.name, "android:id/title", _LIST_TITLE)]
        if not doc.is_dir:
            when, size = self._metadata(doc)
            texts.append(_text(f"{when}, {size}, {type_label(doc.mime)}", "metadata", _CAPTION, TEXT_SECONDARY))
        return self._item(doc, "row", "android.widget.LinearLayout",
                          [self._icon(doc, "icon_mime"), column(*texts, weight=1)], height=_ITEM)

    def _grid_rows(self, docs: list[Doc]) -> list[View]:
        """Grid mode: two columns, folders (``item_dir_grid``) before files (``item_doc_grid``), each group
        starting a new row."""
        folders, files = [d for d in docs if d.is_dir], [d for d in docs if not d.is_dir]
        cards = [[self._dir_card(doc) for doc in folders], [self._doc_card(doc) for doc in files]]
        rows = []
        for group_cards in cards:
            for i in range(0, len(group_cards), 2):
                pair = group_cards[i:i + 2]
                pair += [View(weight=1)] * (2 - len(pair))
                rows.append(row(*pair, spacing=2 * _CARD_MARGIN))
        return rows

    def _dir_card(self, doc: Doc) -> View:
        inner = row(self._icon(doc, "icon_mime_sm"), _text(doc.name, "android:id/title", _BODY, weight=1))
        return self._item(doc, "frame", "androidx.cardview.widget.CardView", [inner], weight=1, margin=0)

    def _doc_card(self, doc: Doc) -> View:
        when, size = self._metadata(doc)
        thumbnail = group("frame", "android.widget.FrameLayout", _image("icon_mime_lg", "file", 105, gravity="center"),
                          resource_id=_id("thumbnail"), height=450, background=_PANEL)
        texts = column(_text(doc.name, "android:id/title", _BODY),
                       row(_text(size, "details", _CAPTION, TEXT_SECONDARY), _text(when, "date", _CAPTION,
                                                                                    TEXT_SECONDARY), View(weight=1)),
                       weight=1)
        nameplate = group("row", "android.widget.LinearLayout", self._icon(doc, "icon_mime_sm"), texts,
                          resource_id=_id("nameplate"))
        return self._item(doc, "column", "androidx.cardview.widget.CardView", [thumbnail, nameplate], weight=1)

    def on_item_click(self, doc: Doc) -> None:
        """A tap on an item."""
        if doc.is_dir:
            self.open_folder(doc)

    def on_item_long_press(self, doc: Doc) -> None:
        """A long press on an item (nothing where there is no selection)."""

    # ----- overlays --------------------------------------------------------------------------------------
    def with_overlay(self, content: View, docs: list[Doc]) -> View:
        """``content`` under the open drawer, menu, sheet or dialog."""
        if self.overlay == "drawer":
            return scrim_over(content, self._drawer(), self.close_overlay)
        if self.overlay in ("menu", "mode_menu"):
            return popup_menu(content, self.menu_items(docs), self.close_overlay, PACKAGE, text_size=_LIST_TITLE,
                              width=620)
        if self.overlay == "sort":
            return scrim_over(content, self._sort_sheet(), self.close_overlay)
        if self.overlay in ("rename", "new_folder"):
            return dialog_over(content, self._name_dialog(), self.close_overlay)
        return self.extra_overlay(content, docs)

    def extra_overlay(self, content: View, docs: list[Doc]) -> View:
        """Overlays only one activity has."""
        return content

    def menu_items(self, docs: list[Doc]) -> list[tuple[str, Callback]]:
        """The open popup menu's items."""
        return []

    def drawer_title(self) -> str:
        """``getDrawerTitle``."""
        return APP_LABEL

    def roots(self) -> list[Root | None]:
        """The drawer's roots (``None``: the spacer)."""
        return drawer_roots(self.phone)

    def _drawer(self) -> View:
        """``drawer_roots``: the title bar and ``roots_list`` (scrolling), the current root checked."""
        items = []
        for root in self.roots():
            if root is None:
                items.append(View(kind="view", class_name="android.widget.FrameLayout", height=2 * 21,
                                  children=[View(height=2, background=DIVIDER, margin=21, gravity="center")]))
                continue
            current = root == self.root
            items.append(group("row", "android.widget.LinearLayout",
                               _image("android:id/icon", "folder", 63),
                               _text(root.title, "android:id/title", _BODY, padding=42, weight=1),
                               clickable=True, focusable=True, checkable=True, checked=current,
                               background=_SELECTED if current else WHITE, height=_ROOT_ITEM, padding=21,
                               on_click=lambda root=root: self.open_root(root)))
        title = group("row", "android.view.ViewGroup", _text(self.drawer_title(), size=63, color=PRIMARY, padding=42),
                      resource_id=_id("roots_toolbar"), height=_BAR)
        # fragment_roots.xml: a ListView (RootsList) filling drawer_layout.xml's container_roots below the toolbar
        # (layout_weight 1), so it scrolls when the roots do not fit (a short screen, large text)
        roots_list = View(kind="list", class_name="android.widget.ListView", key="roots_list", children=items,
                          scrollable=True, focusable=True, resource_id=_id("roots_list"), weight=1)
        return group("column", "android.widget.LinearLayout", title, roots_list, resource_id=_id("drawer_roots"),
                     width=_DRAWER_WIDTH, gravity="fill", background=WHITE)

    def _sort_sheet(self) -> View:
        """``SortListFragment``'s bottom sheet, the current order checked."""
        current = self.sort_order()
        items = [View(kind="text", class_name="android.widget.CheckedTextView", resource_id="android:id/text1",
                      text=label, text_size=_LIST_TITLE, padding=42, checkable=True,
                      checked=(dimension, ascending) == current, clickable=True, focusable=True,
                      on_click=lambda d=dimension, a=ascending: self._sort_by(d, a))
                 for dimension, ascending, label in SORT_ITEMS]
        sheet = column(_text(SORT_TITLE, size=_SMALL, padding=42),
                       group("column", "android.widget.ListView", *items, resource_id=_id("sorting_dialog_list")),
                       background=WHITE, corner=_SHEET_CORNER, corners=TOP_CORNERS)
        return group("column", "android.widget.FrameLayout", sheet, resource_id=_id("design_bottom_sheet"),
                     gravity="bottom")

    def _name_dialog(self) -> View:
        """``dialog_file_name`` in an AlertDialog: "Rename" or "New folder"."""
        renaming = self.overlay == "rename"
        field = edit_text(self.name_text, NEW_NAME_HINT if renaming else FOLDER_NAME_HINT, self.NAME_KEY,
                          self._set_name, resource_id="android:id/text1", on_submit=self._submit_name,
                          text_size=_LIST_TITLE)
        wrapper = [field] + ([_text(self.name_error, "textinput_error", _CAPTION, (179, 38, 30))]
                             if self.name_error else [])
        body = group("column", "android.widget.LinearLayout", *wrapper, resource_id=_id("input_wrapper"),
                     padding=42)
        return alert_dialog([body], [("button2", CANCEL, self.close_overlay), ("button1", OK, self._submit_name)],
                            title=RENAME if renaming else NEW_FOLDER, package=PACKAGE)


class FilesActivity(_Browser):
    """``files.FilesActivity``: browse, select (long press, then taps), and act on the selection: delete, move
    or copy (through the picker), rename, select all; sort and switch list/grid at any time."""

    activity = FILES_ACTIVITY

    # ----- selection -------------------------------------------------------------------------------------
    def on_item_click(self, doc: Doc) -> None:
        """With a selection a tap toggles the item; otherwise a folder opens and a file is viewed in the app that
        handles its type (``ACTION_VIEW``; simplified: the data is the file's ``file:`` URI, not DocumentsUI's
        ``content:`` URI, and the first app that resolves it opens without the "Open with" chooser)."""
        if self.selected:
            self.selected ^= {doc.path}
        elif doc.is_dir:
            self.open_folder(doc)
        else:
            self.view_file(doc)

    def view_file(self, doc: Doc) -> None:
        """``startActivity(ACTION_VIEW)`` of the file with its MIME type, in the handling app's task."""
        intent = Intent(action="android.intent.action.VIEW", data="file://" + doc.path, mime_type=doc.mime)
        packages = self.phone.packages
        for name in packages.names():
            app = packages.get(name)
            screen = app.resolve(intent) if app is not None and name != self.app.package else None
            if app is not None and screen is not None:
                self.phone.activities.launch(app, screen, intent, new_task=True)
                return

    def on_item_long_press(self, doc: Doc) -> None:
        """A long press adds the item to the selection (action mode starts)."""
        self.selected.add(doc.path)

    def select_all(self, docs: list[Doc]) -> None:
        """``selectAllFiles``."""
        self.selected = {doc.path for doc in docs}
        self.overlay = ""

    def clear_selection(self) -> None:
        """The action mode's close button, "Deselect all"."""
        self.selected.clear()
        self.overlay = ""

    def _selected_docs(self, docs: list[Doc]) -> list[Doc]:
        return [doc for doc in docs if doc.path in self.selected]

    # ----- bars and menus --------------------------------------------------------------------------------
    def top_bar(self, docs: list[Doc]) -> View:
        """The toolbar, or the action mode bar while items are selected."""
        if not self.selected:
            return super().top_bar(docs)
        count = len(self.selected)
        return group("row", "android.view.ViewGroup",
                     _icon_button(CANCEL, "close", self.clear_selection, "android.widget.ImageView",
                                  "action_mode_close_button"),
                     _text(f"{count} selected", "action_bar_title", 47, weight=1, padding=24),
                     _icon_button(DELETE, "delete", self.show("delete"), "android.widget.Button",
                                  "action_menu_delete"),
                     _icon_button(MORE_OPTIONS, "more", self.show("mode_menu"), "android.widget.ImageView"),
                     resource_id=_id("action_mode_bar"), height=_BAR, background=_SELECTED)

    def menu_items(self, docs: list[Doc]) -> list[tuple[str, Callback]]:
        """The toolbar's overflow (``activity.xml``) or the action mode's (``action_mode_menu.xml``)."""
        if self.overlay == "menu":
            items = [(NEW_FOLDER, self.new_folder)] if self.can_create() else []
            return items + [(SORT_BY, self.show("sort")), (SELECT_ALL, lambda: self.select_all(docs)),
                            (HIDE_HIDDEN if self.show_hidden else SHOW_HIDDEN, self.toggle_hidden)]
        selected = self._selected_docs(docs)
        items = [(SORT_BY, self.show("sort"))]
        if len(selected) < len(docs):
            items.append((SELECT_ALL, lambda: self.select_all(docs)))
        else:
            items.append((DESELECT_ALL, self.clear_selection))
        items += [(COPY_TO, lambda: self.pick_destination(OPERATION_COPY)),
                  (MOVE_TO, lambda: self.pick_destination(OPERATION_MOVE))]
        if len(selected) == 1 and self.root.supports_create:
            items.append((RENAME, lambda: self.start_rename(selected[0])))
        return items

    # ----- actions ---------------------------------------------------------------------------------------
    def pick_destination(self, operation: str) -> None:
        """"Copy to…"/"Move to…": the action mode ends and ``PickActivity`` asks for the destination; its
        answer runs the job on the selection."""
        sources = sorted(self.selected)
        self.selected.clear()
        self.overlay = ""
        prompt = COPY_TO if operation == OPERATION_COPY else MOVE_TO
        picker = self.start(PickActivity, Intent(action=ACTION_PICK_COPY_DESTINATION, extras={
            EXTRA_OPERATION_TYPE: operation, "android.provider.extra.PROMPT": prompt}))
        assert isinstance(picker, PickActivity)
        picker.on_picked = lambda destination: _quietly(
            lambda: transfer(self.phone.fs, sources, destination, operation == OPERATION_MOVE))

    def _delete_selected(self) -> None:
        """The dialog's OK: ``deleteSelectedDocuments`` (the action mode ends)."""
        delete(self.phone.fs, sorted(self.selected))
        self.selected.clear()
        self.overlay = ""

    def start_rename(self, doc: Doc) -> None:
        """``RenameDocumentFragment``: the name, selected up to its extension (all of a folder's)."""
        dot = doc.name.rfind(".")
        self.renaming = doc.path
        self.ask_name("rename", doc.name, len(doc.name) if dot == -1 or doc.is_dir else dot)

    def submit_rename(self) -> None:
        """``renameDocuments``: the same name closes the dialog, an empty one or one the listing already has is
        refused, otherwise the document is renamed and the selection cleared."""
        names = {doc.name for doc in self.docs()}
        if self.name_text == posixpath.basename(self.renaming):
            self.close_overlay()
        elif not self.name_text:
            self.name_error = MISSING_RENAME
        elif self.name_text in names:
            self.name_error = NAME_CONFLICT
            dot = self.name_text.rfind(".")
            self.selection = TextSelection(0, len(self.name_text) if dot == -1 else dot)
        else:
            if self.phone.fs.exists(self.renaming):
                _quietly(lambda: rename(self.phone.fs, self.renaming, self.name_text))
            self.selected.clear()
            self.close_overlay()

    def extra_overlay(self, content: View, docs: list[Doc]) -> View:
        """The delete confirmation."""
        if self.overlay != "delete" or not self.selected:
            return content
        message = delete_message(self._selected_docs(docs))
        body = [_text(message, size=_LIST_TITLE, padding=63)]
        dialog = alert_dialog(body, [("button2", CANCEL, self.close_overlay), ("button1", OK, self._delete_selected)],
                              package=PACKAGE)
        return dialog_over(content, dialog, self.close_overlay)


def delete_message(docs: list[Doc]) -> str:
    """``MessageBuilder.generateDeleteMessage``."""
    folders = sum(doc.is_dir for doc in docs)
    if len(docs) == 1:
        name = docs[0].name
        return f'Delete folder "{name}" and its contents?' if folders else f'Delete "{name}"?'
    if not folders:
        return f"Delete {len(docs)} files?"
    if folders == len(docs):
        return f"Delete {len(docs)} folders and their contents?"
    return f"Delete {len(docs)} items?"


class PickActivity(_Browser):
    """``picker.PickActivity`` for ``PICK_COPY_DESTINATION``: browse the roots that take new documents (files
    are shown disabled) and pick the current folder with "Move" or "Copy"; "Cancel" or BACK at the root gives
    up. The starting activity sets ``on_picked``."""

    activity = PICK_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.operation = intent.extras.get(EXTRA_OPERATION_TYPE, OPERATION_COPY)
        self.on_picked: Callable[[str], None] | None = None

    def drawer_title(self) -> str:
        """The prompt the caller passed ("Move to…", "Copy to…"), else "Save to"."""
        return self.intent.extras.get("android.provider.extra.PROMPT", "Save to")

    def roots(self) -> list[Root | None]:
        """Only roots that support create (no spacer is left to separate)."""
        return [root for root in drawer_roots(self.phone) if root is not None and root.supports_create]

    def item_enabled(self, doc: Doc) -> bool:
        """Only folders can be opened."""
        return doc.is_dir

    def toolbar_actions(self, docs: list[Doc]) -> list[View]:
        """"New folder" shows as an action while picking."""
        actions = [_icon_button(NEW_FOLDER, "plus", self.new_folder, "android.widget.Button",
                                "option_menu_create_dir")] if self.can_create() else []
        return actions + super().toolbar_actions(docs)

    def menu_items(self, docs: list[Doc]) -> list[tuple[str, Callback]]:
        """Sort and hidden files (select all needs multiple selection, which picking a folder has not)."""
        return [(SORT_BY, self.show("sort")), (HIDE_HIDDEN if self.show_hidden else SHOW_HIDDEN, self.toggle_hidden)]

    def bottom_bar(self) -> list[View]:
        """``fragment_pick``: "Cancel" and "Move"/"Copy", shown where the folder takes new documents."""
        if not self.can_create():
            return []
        label = MOVE if self.operation == OPERATION_MOVE else COPY
        cancel = View(kind="button", class_name="android.widget.Button", resource_id="android:id/button2",
                      text=CANCEL, clickable=True, focusable=True, on_click=self.finish, background=WHITE,
                      text_color=PRIMARY, text_size=_BODY, width=260, height=_BAR)
        pick = View(kind="button", class_name="android.widget.Button", resource_id="android:id/button1", text=label,
                    clickable=True, focusable=True, on_click=self._pick, background=PRIMARY, text_color=WHITE,
                    text_size=_BODY, width=260, height=_BAR)
        return [group("row", "androidx.coordinatorlayout.widget.CoordinatorLayout", View(weight=1), cancel, pick,
                      resource_id=_id("container_save"), padding=26, spacing=21, background=_PANEL)]

    def on_folder_created(self, path: str) -> None:
        """The picker opens the folder it just created."""
        self.stack.append(path)
        self._reset_folder_state()

    def _pick(self) -> None:
        """``pickDocument``: hand the folder to the caller and finish."""
        destination = self.folder
        self.finish()
        if self.on_picked is not None:
            self.on_picked(destination)


class CreateDocumentActivity(PickActivity):
    """``PickActivity`` for ``ACTION_CREATE_DOCUMENT``: browse the roots that take new documents and create one in
    the shown folder with ``SaveFragment`` (the name from ``EXTRA_TITLE`` and Save). The starting activity sets
    ``on_created``, which gets the new document's path from ``created``."""

    NAME_KEY = "title"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.display_name = intent.extras.get(EXTRA_TITLE, "")
        self.on_created: Callback | None = None
        self.created = ""

    def _set_display_name(self, text: str) -> None:
        self.display_name = text

    def bottom_bar(self) -> list[View]:
        """``fragment_save``: the document's icon, its name and Save (enabled where the folder takes new
        documents)."""
        field = edit_text(self.display_name, "", self.NAME_KEY, self._set_display_name, resource_id="android:id/title",
                          weight=1, text_size=_LIST_TITLE)
        field.on_submit = self._save
        save = View(kind="button", class_name="android.widget.Button", resource_id="android:id/button1", text=SAVE,
                    clickable=True, focusable=True, enabled=self.can_create(), on_click=self._save,
                    background=PRIMARY, text_color=WHITE, text_size=_LIST_TITLE - 5, width=260, height=_BAR - 21)
        icon = View(kind="icon", class_name="android.widget.ImageView", resource_id="android:id/icon", hint="recents",
                    width=_SAVE_ICON, height=_SAVE_ICON, text_color=TEXT)
        return [row(icon, field, save, resource_id=_id("container_save"), padding=26, spacing=21, background=_PANEL)]

    def _save(self) -> None:
        """``saveDocument``: create the document in the shown folder (a valid FAT name made unique) and hand it to
        the caller."""
        if not self.can_create() or not self.display_name:
            return
        name = valid_fat_name(document_name(self.display_name, self.intent.mime_type or "application/octet-stream"))
        self.created = posixpath.join(self.folder, unique_name(self.phone.fs, self.folder, name, is_dir=False))
        self.phone.fs.write_bytes(self.created, b"")
        self.finish()
        if self.on_created is not None:
            self.on_created()


def document_name(display_name: str, mime: str) -> str:
    """``FileUtils.splitFileName``: the display name's extension stays if it maps to the MIME type or is the
    type's own extension; otherwise the type's extension (if it has one) is appended."""
    _, dot, extension = display_name.rpartition(".")
    type_extension = _EXTENSIONS.get(mime, "")
    if dot and (_MIME_TYPES.get(extension.lower()) == mime or extension == type_extension):
        return display_name
    return f"{display_name}.{type_extension}" if type_extension else display_name


class DocumentsUI(App):
    """``com.google.android.documentsui``, the "Files" app."""

    package = PACKAGE
    night_colors = MATERIAL_YOU_NIGHT  # DocumentsUI's theme is DayNight (res/values-night)
    label = APP_LABEL
    icon, icon_color = "app_files", (26, 115, 232)
    screens = (FilesActivity, PickActivity)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    def on_force_stop(self) -> None:
        """The process dies: its in-memory preferences go (the file stays)."""
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear`` deleted the preferences file."""
        self.prefs.forget()

