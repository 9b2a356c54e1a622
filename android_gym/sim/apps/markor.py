"""Markor 2.10.9 (versionCode 146, the build AndroidWorld installs): plain-text notes in a folder of the shared
storage, ``/storage/emulated/0/Documents/Markor``. Its file browser is here; the editor is ``markor_editor``.

Facts come from github.com/gsantner/markor at ``ab2175460`` ("Markor v2.10.9"): ``activity/MainActivity.java``,
``opoc/frontend/filebrowser/GsFileBrowserFragment.java``, ``GsFileBrowserListAdapter.java``,
``GsFileBrowserOptions.java``, ``GsFileBrowserDialog.java``, ``frontend/filebrowser/MarkorFileBrowserFactory.java``,
``frontend/NewFileDialog.java``, ``opoc/util/GsFileUtils.java`` (sorting, filename filtering),
``thirdparty/.../WrRenameDialog.java``, ``WrConfirmDialog.java``, ``WrMarkorSingleton.java`` (delete, move, copy),
``res/layout/main__activity.xml``, ``opoc_filesystem_fragment.xml``, ``opoc_filesystem_item.xml``,
``opoc_filesystem_dialog.xml``, ``new_file_dialog.xml``, ``rename__dialog.xml``, ``res/menu/filesystem__menu.xml``,
``main__menu.xml``, ``model/AppSettings.java`` (``getFolderToLoadByMenuId``),
``main__bottom_nav.xml``, ``res/values/strings.xml``, ``arrays.xml`` and ``string-not_translatable.xml``.

* The notebook lists its folder on every build (files a task pushes show up at once): a ".." row to the parent,
  then folders, then files, each group by lower-cased name (``GsFileUtils.sortFiles``; Sort by also offers date
  and size, reverse order, folders first and dotfiles). Rows show the name and the modification time
  ("10/15/2023, 15:34"); a row's description is "File"/"Folder"/"Selected", name and that time.
* This version has no action mode: a long press selects a row and the toolbar itself changes (empty title;
  Rename and Delete for one item, Delete for several; the overflow has Move, Copy and, for one text file,
  Clipboard). Taps then toggle rows. BACK in a subfolder goes up (clearing the selection); at the notebook's top
  BACK asks for a second BACK within 2 s to leave. Delete asks "Confirm Delete" listing the paths; Move/Copy
  open a folder picker ("Move → Markor", SELECT THIS FOLDER); Rename refuses a name that exists.
* The "+" button opens the new-file dialog: name, extension field (last used, ".md" at first), Type spinner
  (sets the extension), OK creates ``name + extension`` (so "x.md" with ".md" makes "x.md.md", as the app does)
  as an empty file (0 bytes) and opens it; an existing file is opened, never overwritten. FOLDER creates a folder
  named as typed. Typed names lose the characters the app's input filter refuses.
* While nothing is selected the toolbar shows Go to, Sort by and Search, and its overflow Import from device and
  Settings. Go to's Internal storage and Notebook open their folder. Search searches the current folder and below
  for files by name or content and shows the results: a tap opens one, a long press shows it in the list
  (``markor_search``).
* The bottom bar switches between the notebook, To-Do (``todo.txt``) and QuickNote (``QuickNote.md``), both
  editors on files of the notebook, and More.

Deviations and gaps: the notebook folder is created when the app starts if it is missing (the real app expects
it to exist); browsing stops at ``/storage/emulated/0``; a move or copy onto an existing name skips that item
(the app asks); Go to's app data folders and its recent, popular and favourite lists, Import, Settings (those
menu items only close the menu), Favourite, Details, Share files, Create shortcut, the template
spinner's templates (it shows "Empty file"), the intro, the rate dialog, swipe-to-refresh and toasts are not
simulated; the More page shows its entries without opening them.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass

from android_gym.sim.apps.markor_editor import (
    ACCENT,
    BACKGROUND,
    BAR,
    EXTRA_PATH,
    MENU_SIZE,
    MIN_LENGTH,
    PACKAGE,
    PRIMARY,
    Document,
    DocumentScreen,
    MarkorBase,
    action,
    bar,
    bar_title,
    editor_field,
    overflow,
    read_text,
    res_id,
    settings_of,
    viewport,
)
from android_gym.sim.apps.markor_search import (
    SEARCH,
    FileSearch,
    mime_type,
    results_dialog,
    search_dialog,
    search_files,
)
from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.ui.dialogs import (
    MenuItem,
    alert_dialog,
    dialog_message,
    dialog_over,
    dialog_scroll_view,
    popup_menu,
    scrim_over,
)
from android_gym.sim.ui.layout import measure_height
from android_gym.sim.ui.views import (
    LAYOUT_ONLY,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    divided,
    does_nothing,
    edit_text,
    fab,
    over,
    row,
    scroll_list,
    text_view,
)

NOTEBOOK = f"{EXTERNAL_STORAGE}/Documents/Markor"
TODO_FILE, QUICKNOTE_FILE = "todo.txt", "QuickNote.md"  # todo_default_filename, quicknote_default_filename

# res/values/strings.xml (AppCompat buttons show their text in capitals)
APP_NAME, FILES, TODO, QUICKNOTE, MORE = "Markor", "Files", "To-Do", "QuickNote", "More"
CREATE_NEW = "Create a new file or folder"
FOLDER, FILE, SELECTED = "Folder", "File", "Selected"
RENAME, DELETE, MOVE, COPY, CLIPBOARD, SORT_BY = "Rename", "Delete", "Move", "Copy", "Clipboard", "Sort by"
GO_TO, IMPORT, SETTINGS = "Go to", "Import from device", "Settings"
APPDATA_PRIVATE, APPDATA_PUBLIC, INTERNAL_STORAGE = "AppData (private)", "AppData (public)", "Internal storage"
RECENT, POPULAR, FAVOURITES, NOTEBOOK_ITEM = "Recently viewed documents", "Popular documents", "Favourites", "Notebook"
CONFIRM_DELETE, DELETE_QUESTION = "Confirm Delete", "Do you really want to delete this {}?"
NAME, MY_NOTE, TYPE, TEMPLATE, EMPTY_FILE = "Name", "my_note", "Type", "Template", "Empty file"
FOLDER_NOTE = "- Folder is created without file extension"
KEEP_NOTE = "- Files and folders are not overwritten"
OK, CANCEL, FOLDER_BUTTON, SELECT_THIS_FOLDER = "OK", "CANCEL", "FOLDER", "SELECT THIS FOLDER"
ENTER_FOLDER_NAME = "Enter the name of your folder"
NAME_EXISTS = "File/folder already exists! Please use a different name"
PRESS_BACK_AGAIN, EXIT = "Press 'Back' again to exit", "EXIT"
EMPTY_HINT = "¯\\_(ツ)_/¯"
#: The theme's ``listDivider`` (Theme.Material.Light's ``list_divider_material``: black at 12 %) over the window.
_LIST_DIVIDER = over((0, 0, 0), 0.12, BACKGROUND)
MORE_ENTRIES = ("Markor", "Rate this app", "Settings", "Help")  # xml/prefactions__more_information.xml
#: Type spinner (arrays.xml new_file_types and new_file_types__file_extension).
NEW_FILE_TYPES = (("Markdown", ".md"), ("Plain Text", ".txt"), ("todo.txt", ".todo.txt"), ("Wikitext", ".txt"),
                  ("AsciiDoc", ".adoc"), ("CSV", ".csv"), ("None", ""))
#: Sort by (filesystem__menu.xml) → GsFileUtils.SORT_BY_*.
SORT_KINDS = (("Name", "NAME"), ("Date", "MTIME"), ("Size", "FILESIZE"), ("MIME type", "MIMETYPE"))
FOLDER_FIRST, REVERSE_ORDER, DOTFILES = "Folder first", "Reverse order", ".dotfiles"
# AppSettings / string-not_translatable.xml preference keys.
KEY_EXTENSION, KEY_TYPE = "pref_key__new_file_dialog_lastused_extension", "pref_key__new_file_dialog_lastused_type"
KEY_SORT, KEY_REVERSE = "pref_key__file_browser__sort_by_type", "pref_key__sort_reverse"
KEY_FOLDER_FIRST, KEY_DOTFILES = "pref_key__filesystem_folder_first", "pref_key__show_dot_files_v2"
#: GsFileUtils.getFilteredFilenameWithoutDisallowedChars (the input filter and normalizeFilename).
DISALLOWED = '<|[\\?*:"\n\r\t\0]/>`$%;=&#@'
DOUBLE_BACK_MS = 2000

_TITLE, _DESCRIPTION, _CAPTION = 50, 39, 32  # 19sp, 15sp, caption 12sp at 420 dpi
_ICON, _NAV = 74, 147  # 28 dp item image; bottom bar ?attr/actionBarSize
_ITEM_SIDE, _ITEM_MARGIN = 42, 21  # an item's 16 dp side padding (and its image's end margin); its 8 dp bottom margin
_DROPDOWN_WIDTH, _DROPDOWN_MARGIN = 800, 21  # the Type dropdown, and its 8 dp off the window's edges


def filename_filtered(text: str) -> str:
    """``makeFilenameInputFilter`` as keys arrive one by one: the characters it refuses are dropped."""
    return "".join(char for char in text if char not in DISALLOWED)


@dataclass(frozen=True)
class Entry:
    """A row of the file list."""

    name: str
    path: str
    is_dir: bool
    mtime_ms: int
    size: int


#: ``GsFileUtils.makeSortKey`` by sort kind: the kind's value as text, then the lower-cased name.
_SORT_KEYS: dict[str, Callable[[Entry], str]] = {
    "NAME": lambda e: e.name.lower(),
    "MTIME": lambda e: str(e.mtime_ms) + e.name.lower(),
    "FILESIZE": lambda e: str(e.size) + e.name.lower(),
    "MIMETYPE": lambda e: mime_type(e.name, e.is_dir).lower() + e.name.lower(),
}


class Notebook:
    """The files the browser shows and the file operations it runs (``WrMarkorSingleton``), on the phone's
    storage, with device times on everything they change."""

    def __init__(self, screen: Screen) -> None:
        self.fs = screen.phone.fs
        self.settings = settings_of(screen)

    def entries(self, folder: str, folders_only: bool = False) -> list[Entry]:
        """The folder's entries as ``loadFolder`` sorts them (``GsFileUtils.sortFiles`` with the settings)."""
        if not self.fs.is_dir(folder):
            return []
        dotfiles = bool(self.settings.get(KEY_DOTFILES, True))
        entries = []
        for name in self.fs.listdir(folder):
            path = posixpath.join(folder, name)
            info = os.stat(self.fs.host_path(path))
            is_dir = stat.S_ISDIR(info.st_mode)
            if (folders_only and not is_dir) or (not dotfiles and (name.startswith(".") or self._accessory(
                    folder, name, is_dir))):
                continue
            entries.append(Entry(name, path, is_dir, info.st_mtime_ns // 1_000_000, info.st_size))
        entries.sort(key=_SORT_KEYS.get(str(self.settings.get(KEY_SORT, "NAME")), _SORT_KEYS["NAME"]))
        if self.settings.get(KEY_REVERSE, False):
            entries.reverse()
        if self.settings.get(KEY_FOLDER_FIRST, True):
            entries.sort(key=lambda e: not e.is_dir)
        return entries

    def _accessory(self, folder: str, name: str, is_dir: bool) -> bool:
        """``isAccessoryFolder``: ``x_files`` next to a file ``x.html``, ``x.assets`` next to a file ``x.md``."""
        for suffix, sibling in (("_files", ".html"), (".assets", ".md")):
            other = posixpath.join(folder, name[:-len(suffix)] + sibling)
            if is_dir and name.endswith(suffix) and self.fs.exists(other) and not self.fs.is_dir(other):
                return True
        return False

    def delete(self, path: str) -> None:
        """``deleteFile``: a file, or a folder with everything in it."""
        self.fs.remove_tree(path)

    def rename(self, path: str, name: str) -> bool:
        """``renameFileInSameFolder``; ``False`` when the name is empty or taken (the dialog's clash check)."""
        target = posixpath.join(posixpath.dirname(path), name)
        if not name or target == path or self.fs.exists(target):
            return target == path
        self._replace(path, target)
        return True

    def move_or_copy(self, paths: list[str], folder: str, move: bool) -> None:
        """``moveOrCopySelected`` into ``folder``: nothing at all when an item would land on itself or inside
        itself; an item whose name is taken there is skipped (the app asks); a copy onto itself gets a free
        ``name_1.ext`` (``findNonConflictingDest``)."""
        targets = [posixpath.join(folder, posixpath.basename(path)) for path in paths]
        if any(folder == path or folder.startswith(path + "/") or (move and target == path)
               for path, target in zip(paths, targets)):
            return
        for path, target in zip(paths, targets):
            if not move and target == path:
                target = self._free_name(path)
            if self.fs.exists(target):
                continue
            if move:
                self._replace(path, target)
            else:
                self._copy(path, target)

    def _free_name(self, path: str) -> str:
        folder, name = posixpath.split(path)
        stem, _, extension = name.partition(".")
        i, target = 1, path
        while self.fs.exists(target):
            target = posixpath.join(folder, f"{stem}_{i}" + (f".{extension}" if extension else ""))
            i += 1
        return target

    def _replace(self, path: str, target: str) -> None:
        """``File.renameTo``: the entry keeps its times; both folders change."""
        source, dest = self.fs.host_path(path), self.fs.host_path(target)
        with self.fs.device_writes(source.parent, dest.parent):
            os.replace(source, dest)

    def _copy(self, path: str, target: str) -> None:
        """``copyFile``: new files with device time, folders copied recursively."""
        source, dest = self.fs.host_path(path), self.fs.host_path(target)
        with self.fs.device_writes(dest.parent):
            if source.is_dir():
                shutil.copytree(source, dest, copy_function=shutil.copyfile)
            else:
                shutil.copyfile(source, dest)
        for host in (dest, *(dest.rglob("*") if dest.is_dir() else ())):
            self.fs.stamp(host)

    def create_file(self, path: str) -> None:
        """``NewFileDialog``'s OK: an empty file; an existing one shorter than 2 bytes is emptied, a longer one
        is kept (``writeFile`` opens no stream for it)."""
        if not self.fs.exists(path) or os.path.getsize(self.fs.host_path(path)) < MIN_LENGTH:
            self.fs.write_bytes(path, b"")


def _row(entry: Entry, title: str, description: str, selected: bool, on_click: Callback,
         on_long_click: Callback | None) -> View:
    """``opoc_filesystem_item``: icon, name and description; the root's description joins the three. The root is
    padded 16 dp at its sides only (``itemSidePadding``), the 28 dp icon 16 dp before the texts and centred on
    them, and 8 dp of the list below the root (its bottom margin)."""
    kind = SELECTED if selected else FOLDER if entry.is_dir else FILE
    icon = View(kind="icon", class_name="android.widget.ImageView", resource_id=res_id("opoc_filesystem_item__image"),
                hint="check" if selected else "folder_filled" if entry.is_dir else "file_filled", width=_ICON,
                height=_ICON, text_color=PRIMARY if selected else TEXT_SECONDARY)
    texts = column(text_view(title, resource_id=res_id("opoc_filesystem_item__title"), text_size=_TITLE, padding=0,
                             bold=True),  # TextAppearance.AppCompat.Body2: sans-serif-medium
                   text_view(description, resource_id=res_id("opoc_filesystem_item__description"),
                             text_size=_DESCRIPTION, text_color=TEXT_SECONDARY, padding=0), weight=1)
    root = View(kind="row", class_name="android.widget.LinearLayout", resource_id=res_id("opoc_filesystem_item__root"),
                content_desc=f"{kind} {title} {description}", clickable=True, focusable=True,
                long_clickable=on_long_click is not None, on_click=on_click, on_long_click=on_long_click,
                children=[View(class_name=LAYOUT_ONLY, width=_ITEM_SIDE), icon,
                          View(class_name=LAYOUT_ONLY, width=_ITEM_SIDE), texts,
                          View(class_name=LAYOUT_ONLY, width=_ITEM_SIDE)])
    return View(kind="column", class_name=LAYOUT_ONLY, children=[
        root, View(class_name=LAYOUT_ONLY, height=_ITEM_MARGIN)])


def _caption(text: str) -> View:
    return text_view(text, text_size=_CAPTION, text_color=TEXT_SECONDARY, padding=8)


class MainScreen(Screen):
    """``MainActivity``: the notebook (``GsFileBrowserFragment``) and the other tabs of the bottom bar."""

    activity = f"{PACKAGE}.activity.MainActivity"
    NAME_FIELD, EXT_FIELD, RENAME_FIELD = "new_file_dialog__name", "new_file_dialog__ext", "new_name"
    TABS = (("nav_notebook", FILES), ("nav_todo", TODO), ("nav_quicknote", QUICKNOTE), ("nav_more", MORE))
    TAB_ICONS = {"nav_notebook": "folder_filled", "nav_todo": "todo_done", "nav_quicknote": "lightning",
                 "nav_more": "favorite"}  # main__bottom_nav.xml

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.folder = NOTEBOOK
        self.marked: list[str] = []
        self.tab = "nav_notebook"
        self.popup = ""  # menu, sort, new, type, rename, delete, move, copy, search, results
        self.search = FileSearch()
        self.new_name, self.new_ext, self.new_type = "", "", 0
        self.rename_text, self.rename_clash = "", False
        self.picker = ""  # the folder the move/copy picker shows
        self.back_at: int | None = None
        self._resumed_once = False
        self.notes = {"nav_todo": Document(self.phone, posixpath.join(NOTEBOOK, TODO_FILE)),
                      "nav_quicknote": Document(self.phone, posixpath.join(NOTEBOOK, QUICKNOTE_FILE))}

    @property
    def notebook(self) -> Notebook:
        """The browser's view of the storage."""
        return Notebook(self)

    # ----- lifecycle and navigation ------------------------------------------------------------------------
    def on_resume(self) -> None:
        """The notebook folder exists (made if missing); a returning browser reloads, which clears the
        selection; the shown note reloads its file."""
        self.phone.fs.makedirs(NOTEBOOK)
        if self._resumed_once:
            self.marked = []
        self._resumed_once = True
        if self.tab in self.notes:
            self.notes[self.tab].load()

    def on_pause(self) -> None:
        """``onStop`` clears the selection and closes menus and dialogs, but the search results, which a tap on a
        matching line leaves open under the editor; the shown note saves."""
        self.marked = []
        if self.popup != "results":
            self.popup = ""
        if self.tab in self.notes:
            self.notes[self.tab].save()

    def on_back(self) -> bool:
        """A dialog or menu closes; in a subfolder the browser goes up; else a second BACK within 2 s exits."""
        if self.popup == "type":
            self.popup = "new"
            return True
        if self.popup:
            self._close_dialog()
            return True
        if self.tab == "nav_notebook" and self.folder != NOTEBOOK and self.folder != EXTERNAL_STORAGE:
            self._open_folder(posixpath.dirname(self.folder))
            return True
        now = self.phone.clock.now_ms()
        if self.back_at is not None and now - self.back_at <= DOUBLE_BACK_MS:
            return False
        self.back_at = now
        return True

    def _open_folder(self, folder: str) -> None:
        """``loadFolder``: show another folder, nothing selected."""
        self.folder, self.marked = folder, []
        self.scroll.pop("ui__filesystem_dialog__list", None)

    def _switch_tab(self, tab: str) -> None:
        """A bottom-bar item: the pages' ``onPause``/``onResume`` save and load their notes."""
        if tab == self.tab:
            return
        if self.tab in self.notes:
            self.notes[self.tab].save()
        self.tab, self.marked, self.focus_key, self.keyboard_shown = tab, [], "", False
        if tab in self.notes:
            self.notes[tab].load()

    def _set_popup(self, popup: str) -> None:
        self.popup = popup

    def _close_popup(self) -> None:
        self.popup = ""

    # ----- rows ----------------------------------------------------------------------------------------------
    def _tap(self, entry: Entry) -> None:
        """``onClick``: with a selection a tap toggles the row; otherwise a folder opens, a file opens in the
        editor."""
        if self.marked:
            self._toggle(entry)
        elif entry.is_dir:
            self._open_folder(entry.path)
        else:
            self.start(DocumentScreen, Intent(extras={EXTRA_PATH: entry.path}))

    def _toggle(self, entry: Entry) -> None:
        """``toggleSelection`` (also what a long press does)."""
        if entry.path in self.marked:
            self.marked.remove(entry.path)
        else:
            self.marked.append(entry.path)

    def _description(self, entry: Entry) -> str:
        """``formatFileDescription``: ``DateUtils`` numeric date with the year and the time (skeleton "yMd"), 24- or
        12-hour as the device is set, in the system locale."""
        when = dt.datetime.fromtimestamp(entry.mtime_ms / 1000, dt.timezone.utc)
        return formats.format_date_time(when, "yMd", formats.phone_is_24_hour(self.phone),
                                        formats.system_tag(self.phone))

    def _rows(self) -> list[View]:
        rows = []
        if self.folder != EXTERNAL_STORAGE:
            parent = posixpath.dirname(self.folder)
            up = Entry("..", parent, True, 0, 0)
            rows.append(_row(up, "..", parent, False, lambda: None if self.marked else self._open_folder(parent),
                             does_nothing))
        for entry in self.notebook.entries(self.folder):
            rows.append(_row(entry, entry.name, self._description(entry), entry.path in self.marked,
                             lambda entry=entry: self._tap(entry), lambda entry=entry: self._toggle(entry)))
        return [divided(item, _LIST_DIVIDER) for item in rows]  # GsFileBrowserFragment's DividerItemDecoration

    # ----- toolbar -------------------------------------------------------------------------------------------
    def _toolbar(self) -> View:
        if self.tab != "nav_notebook":
            return bar(bar_title(dict(self.TABS)[self.tab]), resource_id=res_id("toolbar"))
        self.marked = [path for path in self.marked if self.phone.fs.exists(path)]
        if not self.marked:
            title = APP_NAME if self.folder == NOTEBOOK else "> " + posixpath.basename(self.folder)
            return bar(bar_title(title), action("action_go_to", GO_TO, "folder_filled", lambda: self._set_popup("go")),
                       action("action_sort", SORT_BY, "sort", lambda: self._set_popup("sort")),
                       action("action_search", SEARCH, "search", self._open_search),
                       overflow(lambda: self._set_popup("more")), resource_id=res_id("toolbar"))
        items = [bar_title("")]
        if len(self.marked) == 1:
            items.append(action("action_rename_selected_item", RENAME, "rename", self._open_rename))
        items += [action("action_delete_selected_items", DELETE, "delete_filled", lambda: self._set_popup("delete")),
                  overflow(lambda: self._set_popup("menu"))]
        return bar(*items, resource_id=res_id("toolbar"))

    def _go_to_items(self) -> list[MenuItem]:
        """The Go to submenu (the SD cards' items hide without an SD card): Internal storage and Notebook open
        their folder (``getFolderToLoadByMenuId``); the app data folders and the virtual lists of recent, popular
        and favourite files are not simulated (the menu closes)."""
        close = self._close_popup
        return [(APPDATA_PRIVATE, close), (APPDATA_PUBLIC, close),
                (INTERNAL_STORAGE, lambda: self._go_to(EXTERNAL_STORAGE)), (RECENT, close), (POPULAR, close),
                (FAVOURITES, close), (NOTEBOOK_ITEM, lambda: self._go_to(NOTEBOOK))]

    def _go_to(self, folder: str) -> None:
        """A Go to item with a folder: the menu closes and the folder shows."""
        self._close_popup()
        self._open_folder(folder)

    def _menu_items(self) -> list[MenuItem]:
        """The overflow with a selection: Move, Copy and, for one text file, Clipboard."""
        items = [(MOVE, lambda: self._open_picker("move")), (COPY, lambda: self._open_picker("copy"))]
        if len(self.marked) == 1 and not self.phone.fs.is_dir(self.marked[0]):
            items.insert(0, (CLIPBOARD, self._to_clipboard))
        return items

    def _sort_items(self) -> list[MenuItem]:
        """The Sort by submenu: the kinds as radio buttons (the current one checked), then three check boxes."""
        settings = settings_of(self)
        current = settings.get(KEY_SORT, "NAME")

        def choose(kind: str) -> Callback:
            return lambda: self._sort_setting(KEY_SORT, kind)

        def flip(key: str, default: bool) -> Callback:
            return lambda: self._sort_setting(key, not settings.get(key, default))

        items: list[MenuItem] = [(label, choose(kind), kind == current, True) for label, kind in SORT_KINDS]
        for label, key, default in ((FOLDER_FIRST, KEY_FOLDER_FIRST, True), (REVERSE_ORDER, KEY_REVERSE, False),
                                    (DOTFILES, KEY_DOTFILES, True)):
            items.append((label, flip(key, default), bool(settings.get(key, default))))
        return items

    def _sort_setting(self, key: str, value: str | bool) -> None:
        settings_of(self).put(key, value)
        self.popup, self.marked = "", []

    def _to_clipboard(self) -> None:
        """``action_fs_copy_to_clipboard``: the file's text becomes the clip; the selection is dropped."""
        self.phone.clipboard.set_text(read_text(self.phone, self.marked[0]))
        self.popup, self.marked = "", []

    # ----- search ---------------------------------------------------------------------------------------------
    def _open_search(self) -> None:
        """Search: ``FileSearchDialog`` with an empty query. Nothing has focus and the keyboard stays down until the
        field is tapped: a window of an app targeting API 28+ gets no initial focus in touch mode
        (``ViewRootImpl.sAlwaysAssignFocus``), and ``SOFT_INPUT_STATE_ALWAYS_VISIBLE`` then shows no keyboard."""
        self.search = FileSearch()
        self.popup = "search"

    def _submit_search(self) -> None:
        """ENTER or OK: the dialog closes (the keyboard with it); a query that is not empty searches the current
        folder and its results show, nothing focused (as in ``_open_search``)."""
        self._close_dialog()
        query = self.search.query
        results = search_files(self.phone.fs.host_path(self.folder), query, settings_of(self)) if query else None
        if results is not None:
            self.search = FileSearch(query, results)
            self.popup = "results"

    def _open_result(self, relative: str) -> None:
        """A tap on a result without lines: the dialog closes, the file opens (a folder would be browsed)."""
        self._close_dialog()
        self._open_path(posixpath.join(self.folder, relative))

    def _open_result_line(self, relative: str) -> None:
        """A tap on a matching line: the file opens, the results stay open under it."""
        self._open_path(posixpath.join(self.folder, relative))

    def _open_path(self, path: str) -> None:
        if self.phone.fs.is_dir(path):
            self._open_folder(path)
        else:
            self.start(DocumentScreen, Intent(extras={EXTRA_PATH: path}))

    def _show_result(self, relative: str) -> None:
        """A long press on a result (``showFile``): the dialog closes, the browser opens the file's folder and
        scrolls its row to the top, 1 px below it (``scrollToPositionWithOffset(pos, 1)``)."""
        self._close_dialog()
        path = posixpath.join(self.folder, relative)
        if not self.phone.fs.exists(path):
            return
        folder = posixpath.dirname(path)
        if folder != self.folder:
            self._open_folder(folder)
        paths = [entry.path for entry in self.notebook.entries(folder)]
        up = 1 if folder != EXTERNAL_STORAGE else 0  # the ".." row
        if path in paths:
            self.scroll_to_position("ui__filesystem_dialog__list", paths.index(path) + up, 1)

    # ----- the new-file dialog ---------------------------------------------------------------------------------
    def _open_new(self) -> None:
        """The "+" button: ``NewFileDialog`` with the name field focused and the keyboard up."""
        settings = settings_of(self)
        self.new_name = ""
        self.new_ext = str(settings.get(KEY_EXTENSION, ".md"))
        self.new_type = int(settings.get(KEY_TYPE, 0))
        self.popup, self.focus_key, self.keyboard_shown = "new", self.NAME_FIELD, True

    def _close_dialog(self) -> None:
        self.popup, self.focus_key, self.keyboard_shown = "", "", False

    def _set_new_name(self, text: str) -> None:
        self.new_name = filename_filtered(text)

    def _set_new_ext(self, text: str) -> None:
        self.new_ext = filename_filtered(text)

    def _choose_type(self, index: int) -> None:
        """A Type item: a different type sets its extension (``onItemSelected`` fires on changes only)."""
        if index != self.new_type:
            self.new_type, self.new_ext = index, NEW_FILE_TYPES[index][1]
            settings_of(self).put(KEY_TYPE, index)
        self.popup = "new"

    def _create_file(self) -> None:
        """OK: ``name + extension`` in the current folder, opened in the editor, which keeps the keyboard as the
        dialog had it; the dialog closes in any case."""
        name = self.new_name.strip()
        if name:
            settings_of(self).put(KEY_EXTENSION, self.new_ext.strip())
            path = posixpath.join(self.folder, filename_filtered(name).strip() + self.new_ext.strip())
            self.notebook.create_file(path)
            self.start(DocumentScreen, Intent(extras={EXTRA_PATH: path}))
        self._close_dialog()

    def _create_folder(self) -> None:
        """FOLDER: ``mkdirs`` with the name as typed (no extension)."""
        self._close_dialog()
        name = self.new_name.strip()
        if name:
            self.phone.fs.makedirs(posixpath.join(self.folder, name))

    def _new_dialog(self) -> View:
        name = edit_text(self.new_name, MY_NOTE, self.NAME_FIELD, self._set_new_name, weight=7, text_size=_DESCRIPTION,
                         resource_id=res_id(self.NAME_FIELD))
        ext = edit_text(self.new_ext, ".md", self.EXT_FIELD, self._set_new_ext, weight=3, text_size=_DESCRIPTION,
                        resource_id=res_id(self.EXT_FIELD))
        spinner = View(kind="row", class_name="android.widget.Spinner", resource_id=res_id("new_file_dialog__type"),
                       clickable=True, focusable=True, on_click=lambda: self._set_popup("type"), children=[
                           text_view(NEW_FILE_TYPES[self.new_type][0], resource_id="android:id/text1",
                                     text_size=MENU_SIZE, padding=24, weight=1)])
        template = View(kind="row", class_name="android.widget.Spinner",
                        resource_id=res_id("new_file_dialog__template"), children=[
                            text_view(EMPTY_FILE, resource_id="android:id/text1", text_size=MENU_SIZE, padding=24,
                                      weight=1)])
        form = column(_caption(NAME), row(name, ext), _caption(TYPE), spinner, _caption(TEMPLATE), template,
                      _caption(FOLDER_NOTE), _caption(KEEP_NOTE))
        # new_file_dialog.xml: the form in a ScrollView, which gives way when the keyboard shortens the dialog
        body = [dialog_scroll_view(form, "new_file_dialog", padding=42, resource_id=res_id("new_file_dialog__root"))]
        return alert_dialog(body, [("button3", FOLDER_BUTTON, self._create_folder),
                                   ("button2", CANCEL, self._close_dialog), ("button1", OK, self._create_file)])

    def _type_dropdown(self) -> View:
        """The Type spinner's dropdown (``simple_spinner_dropdown_item``: the chosen type checked): a
        ``ListPopupWindow`` as tall as its items, at most the height the window leaves it (above the keyboard when
        it is up: ``getMaxAvailableHeight``), its list scrolling then."""
        items = [View(kind="text", class_name="android.widget.CheckedTextView", resource_id="android:id/text1",
                      text=label, checkable=True, checked=i == self.new_type, clickable=True, focusable=True,
                      on_click=lambda i=i: self._choose_type(i), text_size=MENU_SIZE, padding=36)
                 for i, (label, _) in enumerate(NEW_FILE_TYPES)]
        height = min(sum(measure_height(item, _DROPDOWN_WIDTH) for item in items),
                     viewport(self, 2 * _DROPDOWN_MARGIN))
        dropdown = scroll_list(*items, key="type_dropdown", scroll_offset=self.scroll.get("type_dropdown", 0),
                               width=_DROPDOWN_WIDTH, height=height, background=WHITE, gravity="center")
        dropdown.class_name = "android.widget.ListView"
        return dropdown

    # ----- rename and delete ---------------------------------------------------------------------------------
    def _open_rename(self) -> None:
        """``WrRenameDialog`` with the name filled in, focused, the keyboard up."""
        self.rename_text, self.rename_clash = posixpath.basename(self.marked[0]), False
        self.popup, self.focus_key, self.keyboard_shown = "rename", self.RENAME_FIELD, True

    def _set_rename(self, text: str) -> None:
        self.rename_text, self.rename_clash = filename_filtered(text), False

    def _rename(self) -> None:
        """OK: rename and close, or show the clash message and disable OK until the name changes."""
        if not self.notebook.rename(self.marked[0], self.rename_text):
            self.rename_clash = True
            return
        self._close_dialog()
        self.marked = []

    def _rename_dialog(self) -> View:
        message = text_view(NAME_EXISTS if self.rename_clash else "", resource_id=res_id("dialog_message"),
                            text_size=_DESCRIPTION, text_color=PRIMARY)
        field = edit_text(self.rename_text, ENTER_FOLDER_NAME, self.RENAME_FIELD, self._set_rename,
                          resource_id=res_id(self.RENAME_FIELD), text_size=_TITLE - 8)
        dialog = alert_dialog([column(message, field, padding=42)],
                              [("button2", CANCEL, self._close_dialog), ("button1", OK, self._rename)],
                              title=RENAME, package=PACKAGE)
        for view in dialog.walk():
            if view.resource_id == "android:id/button1":
                view.enabled = not self.rename_clash
        return dialog

    def _delete(self) -> None:
        for path in self.marked:
            self.notebook.delete(path)
        self.popup, self.marked = "", []

    def _delete_dialog(self) -> View:
        noun = "Document" if len(self.marked) == 1 else "Documents"  # plurals documents
        message = DELETE_QUESTION.format(noun) + "\n\n" + "".join("\n" + path for path in self.marked)
        return alert_dialog([dialog_message(message, _DESCRIPTION + 3)],
                            [("button2", CANCEL, lambda: self._set_popup("")), ("button1", OK, self._delete)],
                            title=CONFIRM_DELETE, package=PACKAGE)

    # ----- move and copy -------------------------------------------------------------------------------------
    def _open_picker(self, popup: str) -> None:
        """``askForMoveOrCopy``: the folder picker, starting in the current folder."""
        self.popup, self.picker = popup, self.folder
        self.scroll.pop("picker_list", None)

    def _picker_go(self, folder: str) -> None:
        self.picker = folder
        self.scroll.pop("picker_list", None)

    def _picked(self) -> None:
        """SELECT THIS FOLDER: move or copy the selection there; the list reloads with nothing selected."""
        self.notebook.move_or_copy(list(self.marked), self.picker, self.popup == "move")
        self.popup, self.marked = "", []

    def _picker(self) -> View:
        """``GsFileBrowserDialog`` for folders: title "Move → <folder>", home button, folder list, buttons."""
        verb = MOVE if self.popup == "move" else COPY
        rows = []
        if self.picker != EXTERNAL_STORAGE:
            parent = posixpath.dirname(self.picker)
            rows.append(_row(Entry("..", parent, True, 0, 0), "..", parent, False,
                             lambda: self._picker_go(parent), None))
        for entry in self.notebook.entries(self.picker, folders_only=True):
            rows.append(_row(entry, entry.name, self.picker, False, lambda e=entry: self._picker_go(e.path), None))
        home = View(kind="icon", class_name="android.widget.ImageView", hint="home_filled",
                    resource_id=res_id("ui__filesystem_dialog__home"), clickable=True, focusable=True,
                    on_click=lambda: self._picker_go(NOTEBOOK),
                    width=84, height=84, text_color=TEXT_SECONDARY)
        buttons = row(View(weight=1), *(text_view(label, resource_id=res_id(name), clickable=True, focusable=True,
                                                  on_click=callback, text_color=ACCENT, text_size=MENU_SIZE,
                                                  padding=36)
                                        for name, label, callback in (
                                            ("ui__filesystem_dialog__button_cancel", CANCEL,
                                             lambda: self._set_popup("")),
                                            ("ui__filesystem_dialog__button_ok", SELECT_THIS_FOLDER, self._picked))),
                      resource_id=res_id("ui__filesystem_dialog__buttons"), padding=24)
        return column(
            text_view(f"{verb} → {posixpath.basename(self.picker)}", resource_id=res_id("ui__filesystem_dialog__title"),
                      text_size=_TITLE, text_color=WHITE, background=PRIMARY, padding=42),
            row(home, resource_id=res_id("ui__filesystem_dialog__utilbar"), padding=21),
            scroll_list(*rows, key="picker_list", resource_id=res_id("ui__filesystem_dialog__list"), weight=1),
            buttons, resource_id=res_id("ui__filesystem_dialog__root"), background=WHITE, gravity="fill")

    # ----- the screen ----------------------------------------------------------------------------------------
    def _page(self) -> View:
        """The current tab's page (``main__view_pager_container``)."""
        if self.tab in self.notes:
            return editor_field(self.notes[self.tab], self.tab, self.phone.window.design_width,
                                viewport(self, 2 * BAR))
        if self.tab == "nav_more":
            return column(*(text_view(entry, text_size=_TITLE, padding=42) for entry in MORE_ENTRIES), weight=1)
        rows = self._rows()
        children = [scroll_list(*rows, key="ui__filesystem_dialog__list", weight=1,
                                resource_id=res_id("ui__filesystem_dialog__list"))]
        if len(rows) < 2:  # isCurrentFolderEmpty
            children.insert(0, text_view(EMPTY_HINT, resource_id=res_id("empty_hint"), text_size=126, bold=True,
                                         padding=168, gravity="center_horizontal"))
        return View(kind="column", class_name="android.widget.FrameLayout", weight=1,
                    resource_id=res_id("ui__filesystem_dialog__root"), children=children)

    def _bottom_bar(self) -> View:
        items = [View(kind="column", class_name="android.widget.FrameLayout", resource_id=res_id(tab),
                      content_desc=title, selected=tab == self.tab, clickable=True, focusable=True, weight=1,
                      on_click=lambda tab=tab: self._switch_tab(tab), children=[
                          View(kind="icon", class_name="android.widget.ImageView", hint=self.TAB_ICONS[tab], height=63,
                               resource_id=res_id("navigation_bar_item_icon_view"),
                               text_color=ACCENT if tab == self.tab else WHITE),  # bottomnav_color_selector
                          text_view(title, resource_id=res_id("navigation_bar_item_small_label_view"),
                                    text_size=_CAPTION, text_color=ACCENT if tab == self.tab else WHITE, padding=4,
                                    gravity="center_horizontal")])
                 for tab, title in self.TABS]
        return View(kind="row", class_name="android.widget.FrameLayout", resource_id=res_id("bottom_navigation_bar"),
                    height=_NAV, background=PRIMARY, children=items)

    def build(self) -> View:
        main = column(self._toolbar(), self._page(), self._bottom_bar(), gravity="fill", background=BACKGROUND)
        layers = [main]
        if self.tab == "nav_notebook":  # bottom|end, 16 dp from the end, 72 dp from the bottom
            button = fab(CREATE_NEW, "plus", self._open_new, resource_id=res_id("fab_add_new_item"),
                         background=ACCENT, width=147, height=147)
            layers.append(column(View(weight=1), row(View(weight=1), button, View(width=42)), View(height=189),
                                 gravity="fill"))
        if self.back_at is not None and self.phone.clock.before(self.back_at + DOUBLE_BACK_MS + 1):
            layers.append(row(text_view(PRESS_BACK_AGAIN, text_color=WHITE, text_size=_DESCRIPTION, padding=42,
                                        weight=1, resource_id=res_id("snackbar_text")),
                              text_view(EXIT, text_color=(255, 193, 7), text_size=_DESCRIPTION, padding=42,
                                        clickable=True, on_click=self.finish, resource_id=res_id("snackbar_action")),
                              background=(50, 50, 50), gravity="bottom"))
        content = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=res_id("main_content"),
                       children=layers)
        return self._with_popup(content)

    def _with_popup(self, content: View) -> View:
        dismiss = self._close_dialog
        if self.popup == "menu":
            return popup_menu(content, self._menu_items(), lambda: self._set_popup(""), PACKAGE, text_size=MENU_SIZE)
        if self.popup == "sort":
            return popup_menu(content, self._sort_items(), lambda: self._set_popup(""), PACKAGE, text_size=MENU_SIZE)
        if self.popup == "go":
            return popup_menu(content, self._go_to_items(), lambda: self._set_popup(""), PACKAGE, text_size=MENU_SIZE)
        if self.popup == "more":  # Import from device and MainActivity's Settings: not simulated (the menu closes)
            close = self._close_popup
            return popup_menu(content, [(IMPORT, close), (SETTINGS, close)], close, PACKAGE, text_size=MENU_SIZE)
        if self.popup in ("new", "type"):
            layer = dialog_over(content, self._new_dialog(), dismiss)
            if self.popup == "type":
                return scrim_over(layer, self._type_dropdown(), lambda: self._set_popup("new"))
            return layer
        if self.popup == "rename":
            return dialog_over(content, self._rename_dialog(), dismiss)
        if self.popup == "delete":
            return dialog_over(content, self._delete_dialog(), lambda: self._set_popup(""))
        if self.popup in ("move", "copy"):  # a dialog window as large as the screen: nothing else shows
            return self._picker()
        if self.popup == "search":
            return dialog_over(content, search_dialog(self.search, settings_of(self), self._submit_search,
                                                      self._close_dialog), dismiss)
        if self.popup == "results":
            return dialog_over(content, results_dialog(self.search, self._open_result, self._show_result,
                                                       self._open_result_line, self._close_dialog), dismiss)
        return content


class Markor(MarkorBase):
    """``net.gsantner.markor``: the notebook's folder lives in shared storage, the settings in
    ``shared_prefs/app.xml``."""

    screens = (MainScreen, DocumentScreen)
    version_name, version_code = "2.10.9", 146  # android_gym/device/apps.toml

