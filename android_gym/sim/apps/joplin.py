"""Joplin android-v3.0.1 (versionCode 2097740, the build AndroidWorld installs): Markdown notes and to-dos in
notebooks, on SQLite.

Facts: the database is ``/data/data/net.cozic.joplin/databases/joplin.sqlite`` (schema v46; the ``notes``,
``folders`` and ``notes_normalized`` tables below are its final forms, from ``packages/lib/JoplinDatabase.ts``
replayed to v46; shared/reference/app-schemas.md). Ids are uuid4 hex without dashes, times epoch ms, ``is_todo``
0/1, ``todo_completed`` the completion time in ms (0: not done), a note's ``parent_id`` its notebook's id,
``markup_language`` 1 (Markdown). The search engine reads ``notes_normalized`` (title and body lowercased), which
the app keeps in step with ``notes`` whenever it saves one (``SearchEngine.syncTables``). The mobile app is one
React Native activity (``.MainActivity``) whose screens follow ``packages/app-mobile``: ``screens/Notes`` (the
header's "Sidebar" and "Search" buttons, the note list, the "+" action button that unfolds "New to-do" and
"New note", shown only when a notebook exists), ``components/side-menu-content`` (the notebooks, sorted by title,
under "All notes"), ``components/note-item`` (a to-do's checkbox before its title; a completed one ticked and
greyed), ``screens/Note`` (the title, a to-do's checkbox, the body rendered from Markdown with clickable
checkboxes, the "Edit" button that opens the editor, which saves as one types) and ``screens/search``. Strings
are Joplin's (``_('All notes')``, ``_('New note')``, ``_('New to-do')``, ``_('Add title')``, …).

Simplified: the body is rendered line by line (headings, "- item" bullets, "1." items, "- [ ]"/"- [x]"
checkboxes, paragraphs; no inline formatting, links, images or HTML) in native views rather than a WebView;
the editor is the plain-text one (not CodeMirror); search matches the lowercased term as a substring of
``notes_normalized``'s title or body (Joplin queries its FTS4 table ``notes_fts``, which is not created here);
notes of equal update time are ordered by title; the app starts on "All notes" (the real one reopens the last
notebook it showed). Not simulated: the other tables of schema v46 (tags, resources, settings, sync, revisions,
…), sync, encryption, tags, attachments, sorting options, moving and deleting notes, creating notebooks, the
configuration screen and the side menu's other entries (they only close it), and Joplin's welcome notes.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Callable
from typing import Any

from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import scrim_over
from android_gym.sim.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    edit_text,
    image_button,
    row,
    text_view,
)

PACKAGE = "net.cozic.joplin"
DB_PATH = f"/data/data/{PACKAGE}/databases/joplin.sqlite"
#: AndroidWorld's notes and notebooks (and the app's own) are Markdown (``markup_language`` 1).
MARKDOWN = 1

# Joplin's strings (packages/lib/locales, as the mobile screens use them).
APP_NAME = "Joplin"
ALL_NOTES, NEW_NOTE, NEW_TODO = "All notes", "New note", "New to-do"
SIDEBAR, SEARCH, BACK, EDIT, ADD_TITLE, ADD_BODY = "Sidebar", "Search", "Back", "Edit", "Add title", "Add body"
ADD_NEW, UNTITLED, TAGS, CONFIGURATION = "Add new", "Untitled", "Tags", "Configuration"
NO_NOTES = "There are currently no notes. Create one by clicking on the (+) button."
NO_RESULTS = "No results"

# The columns of schema v46 (shared/reference/app-schemas.md).
SCHEMA = (
    'CREATE TABLE `notes`(`id` TEXT PRIMARY KEY,`parent_id` TEXT NOT NULL DEFAULT "",`title` TEXT NOT NULL DEFAULT '
    '"",`body` TEXT NOT NULL DEFAULT "",`created_time` INT NOT NULL,`updated_time` INT NOT NULL,`is_conflict` INT '
    'NOT NULL DEFAULT 0,`latitude` NUMERIC NOT NULL DEFAULT 0,`longitude` NUMERIC NOT NULL DEFAULT 0,`altitude` '
    'NUMERIC NOT NULL DEFAULT 0,`author` TEXT NOT NULL DEFAULT "",`source_url` TEXT NOT NULL DEFAULT "",`is_todo` '
    'INT NOT NULL DEFAULT 0,`todo_due` INT NOT NULL DEFAULT 0,`todo_completed` INT NOT NULL DEFAULT 0,`source` TEXT '
    'NOT NULL DEFAULT "",`source_application` TEXT NOT NULL DEFAULT "",`application_data` TEXT NOT NULL DEFAULT "",'
    '`order` NUMERIC NOT NULL DEFAULT 0,`user_created_time` INT NOT NULL DEFAULT 0,`user_updated_time` INT NOT NULL '
    'DEFAULT 0,`encryption_cipher_text` TEXT NOT NULL DEFAULT "",`encryption_applied` INT NOT NULL DEFAULT 0,'
    '`markup_language` INT NOT NULL DEFAULT 1,`is_shared` INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT "",'
    ' conflict_original_id TEXT NOT NULL DEFAULT "", master_key_id TEXT NOT NULL DEFAULT "", `user_data` TEXT NOT '
    'NULL DEFAULT "", `deleted_time` INT NOT NULL DEFAULT 0)',
    'CREATE TABLE folders (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT "", created_time INT NOT NULL, '
    'updated_time INT NOT NULL, user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, '
    'encryption_cipher_text TEXT NOT NULL DEFAULT "", encryption_applied INT NOT NULL DEFAULT 0, parent_id TEXT NOT '
    'NULL DEFAULT "", is_shared INT NOT NULL DEFAULT 0, share_id TEXT NOT NULL DEFAULT "", master_key_id TEXT NOT '
    'NULL DEFAULT "", icon TEXT NOT NULL DEFAULT "", `user_data` TEXT NOT NULL DEFAULT "", `deleted_time` INT NOT '
    'NULL DEFAULT 0)',
    'CREATE TABLE notes_normalized (id TEXT NOT NULL, title TEXT NOT NULL DEFAULT "", body TEXT NOT NULL DEFAULT "", '
    'user_created_time INT NOT NULL DEFAULT 0, user_updated_time INT NOT NULL DEFAULT 0, is_todo INT NOT NULL '
    'DEFAULT 0, todo_completed INT NOT NULL DEFAULT 0, parent_id TEXT NOT NULL DEFAULT "", latitude NUMERIC NOT '
    'NULL DEFAULT 0, longitude NUMERIC NOT NULL DEFAULT 0, altitude NUMERIC NOT NULL DEFAULT 0, source_url TEXT NOT '
    'NULL DEFAULT "", todo_due INT NOT NULL DEFAULT 0)',
    "CREATE INDEX notes_title ON notes (title)",
    "CREATE INDEX notes_updated_time ON notes (updated_time)",
    "CREATE INDEX folders_title ON folders (title)",
    "CREATE INDEX notes_normalized_id ON notes_normalized (id)",
)
#: The ``notes_normalized`` columns copied from ``notes`` (title and body are lowercased).
NORMALIZED_COLUMNS = ("id", "title", "body", "user_created_time", "user_updated_time", "is_todo", "todo_completed",
                      "parent_id", "latitude", "longitude", "altitude", "source_url", "todo_due")

_HEADER, _ACCENT, _FADED = (49, 54, 64), (43, 107, 196), (160, 160, 160)  # theme "Light": header, accent, done
_BAR, _ROW, _TEXT, _SMALL, _H1 = 147, 110, 42, 37, 58  # 56 dp header, 42 dp note rows; 16/14/22 sp at 420 dpi
_CHECKBOX = re.compile(r"^\s*[-*+]\s+\[([ xX])\]\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^\s*(#{1,6})\s+(.*)$")


def new_id(seed: str) -> str:
    """A uuid4 as Joplin writes ids (32 hex digits, no dashes), drawn from ``seed`` so the phone stays
    deterministic."""
    digest = bytearray(hashlib.sha256(seed.encode()).digest()[:16])
    digest[6] = digest[6] & 0x0F | 0x40  # version 4 (RFC 4122 §4.4), what ``uuid.UUID(version=4)`` sets
    digest[8] = digest[8] & 0x3F | 0x80  # the RFC 4122 variant
    return digest.hex()


def normalized_row(note: dict[str, Any]) -> dict[str, Any]:
    """The ``notes_normalized`` row of a ``notes`` row: its search columns, title and body lowercased."""
    row_ = {column: note.get(column, 0 if column not in ("id", "title", "body", "parent_id", "source_url") else "")
            for column in NORMALIZED_COLUMNS}
    row_["title"], row_["body"] = str(row_["title"]).lower(), str(row_["body"]).lower()
    return row_


def toggle_checkbox(body: str, index: int) -> str:
    """``body`` with its ``index``-th Markdown checkbox ("- [ ] …" / "- [x] …") ticked or unticked."""
    lines, seen = body.split("\n"), -1
    for number, line in enumerate(lines):
        match = _CHECKBOX.match(line)
        if match:
            seen += 1
            if seen == index:
                mark = " " if match.group(1).lower() == "x" else "x"
                start = line.index("[") + 1
                lines[number] = line[:start] + mark + line[start + 1:]
                break
    return "\n".join(lines)


class JoplinStore(SqliteProvider):
    """The app's database: created on first start with the tables it uses; every screen reads it on every build,
    so rows written from outside show up at once."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "DELETE"  # react-native-sqlite-storage keeps SQLite's default rollback journal

    def on_create(self, db: sqlite3.Connection) -> None:
        """Schema version 46."""
        db.execute("PRAGMA user_version = 46")

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        with self.reading() as db:
            return [dict(found) for found in db.execute(sql, params)]

    def folders(self) -> list[dict[str, Any]]:
        """The notebooks by title (the side menu's order)."""
        return self._read("SELECT * FROM folders WHERE deleted_time = 0 ORDER BY title COLLATE NOCASE, id")

    def folder(self, folder_id: str) -> dict[str, Any] | None:
        """One notebook, or ``None``."""
        found = self._read("SELECT * FROM folders WHERE id = ?", (folder_id,))
        return found[0] if found else None

    def notes(self, folder_id: str = "") -> list[dict[str, Any]]:
        """``Note.previews``: a notebook's notes (all notes for ``""``), unfinished to-dos first, then by
        ``user_updated_time``, newest first."""
        where, params = ("AND parent_id = ?", (folder_id,)) if folder_id else ("", ())
        return self._read(
            f"SELECT * FROM notes WHERE deleted_time = 0 AND is_conflict = 0 {where} ORDER BY "
            "(is_todo = 1 AND todo_completed = 0) DESC, user_updated_time DESC, title COLLATE NOCASE, id", params)

    def search(self, term: str) -> list[dict[str, Any]]:
        """Notes whose normalized title or body holds ``term`` (lowercased)."""
        if not term.strip():
            return []
        pattern = f"%{term.strip().lower()}%"
        return self._read(
            "SELECT notes.* FROM notes JOIN notes_normalized USING (id) WHERE notes.deleted_time = 0 AND "
            "(notes_normalized.title LIKE ? OR notes_normalized.body LIKE ?) ORDER BY notes.user_updated_time DESC, "
            "notes.title COLLATE NOCASE, notes.id", (pattern, pattern))

    def note(self, note_id: str) -> dict[str, Any] | None:
        """One note, or ``None`` once it is gone."""
        found = self._read("SELECT * FROM notes WHERE id = ?", (note_id,))
        return found[0] if found else None

    def save(self, note_id: str, values: dict[str, Any], now_ms: int) -> None:
        """``Note.save``: insert the note ``note_id`` with ``values`` or update them; the times move to
        ``now_ms`` and the ``notes_normalized`` row follows."""
        with self._transaction() as db:
            db.row_factory = sqlite3.Row
            exists = db.execute("SELECT 1 FROM notes WHERE id = ?", (note_id,)).fetchone() is not None
            changes = {**values, "updated_time": now_ms, "user_updated_time": now_ms}
            if exists:
                assignments = ", ".join(f"`{column}` = ?" for column in changes)
                db.execute(f"UPDATE notes SET {assignments} WHERE id = ?", (*changes.values(), note_id))
            else:
                changes |= {"id": note_id, "created_time": now_ms, "user_created_time": now_ms,
                            "markup_language": MARKDOWN}
                db.execute(f"INSERT INTO notes ({', '.join(f'`{c}`' for c in changes)}) VALUES "
                           f"({', '.join('?' for _ in changes)})", tuple(changes.values()))
            note = dict(db.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone())
            normalized = normalized_row(note)
            db.execute("DELETE FROM notes_normalized WHERE id = ?", (note_id,))
            db.execute(f"INSERT INTO notes_normalized ({', '.join(normalized)}) VALUES "
                       f"({', '.join('?' for _ in normalized)})", tuple(normalized.values()))


def _store(screen: Screen) -> JoplinStore:
    app = screen.app
    assert isinstance(app, Joplin)
    return app.store


def _checkbox(checked: bool, on_click: Callback) -> View:
    """A checkbox (a to-do's, or one of a body's "- [ ]" items)."""
    return View(kind="icon", class_name="android.widget.CheckBox", hint="checkbox_on" if checked else "checkbox_off",
                checkable=True, checked=checked, clickable=True, focusable=True, on_click=on_click, width=96,
                height=96, text_color=_ACCENT, padding=12)


def _header(title: str, *buttons: View, navigation: View) -> View:
    """``ScreenHeader``: the navigation button, the title and the action buttons on the dark bar."""
    return View(kind="row", class_name="android.view.ViewGroup", height=_BAR, background=_HEADER, elevation=11,
                children=[navigation, text_view(title, weight=1, text_color=WHITE, text_size=_TEXT + 8, bold=True,
                                                padding=24), *buttons])


def _icon(content_desc: str, icon: str, on_click: Callback) -> View:
    """A header button (a ``TouchableOpacity`` with an icon, described by its accessibility label)."""
    button = image_button(content_desc, icon, on_click, text_color=WHITE, width=_BAR, height=_BAR)
    button.class_name = "android.widget.Button"
    return button


# ----- the body's Markdown ---------------------------------------------------------------------------------------
def _list_item(marker: View, text: str) -> View:
    """A list item: its marker (a bullet, "1.", a checkbox) and its text."""
    return row(marker, text_view(text.strip(), text_size=_TEXT, weight=1, padding=6), padding=6)


def render_markdown(body: str, on_toggle: Callable[[int], None]) -> list[View]:
    """The rendered note body, one view per block: headings, bullets, numbered items, checkboxes (ticking one
    calls ``on_toggle`` with its position among the body's checkboxes) and paragraph lines."""
    views: list[View] = []
    boxes = 0
    for line in body.split("\n"):
        if not line.strip():
            continue
        checkbox, heading = _CHECKBOX.match(line), _HEADING.match(line)
        bullet, numbered = _BULLET.match(line), _NUMBERED.match(line)
        if checkbox:
            index = boxes
            boxes += 1
            views.append(_list_item(_checkbox(checkbox.group(1).lower() == "x", lambda index=index: on_toggle(index)),
                                    checkbox.group(2)))
        elif heading:
            size = max(_H1 - 6 * (len(heading.group(1)) - 1), _TEXT)
            views.append(text_view(heading.group(2).strip(), text_size=size, bold=True, padding=12))
        elif bullet:
            views.append(_list_item(View(kind="icon", hint="dot", width=60, height=60, text_color=TEXT),
                                    bullet.group(1)))
        elif numbered:
            views.append(_list_item(View(kind="label", hint=numbered.group(1), text_size=_TEXT, width=70, height=60),
                                    numbered.group(2)))
        else:
            views.append(text_view(line.strip(), text_size=_TEXT, padding=12))
    return views


# ----- the one activity ------------------------------------------------------------------------------------------
class MainScreen(Screen):
    """``MainActivity``: the React Native app's stack of screens — the note list ("Notes"), a note ("Note"),
    the search ("Search") — with the side menu over the list."""

    activity = f"{PACKAGE}.MainActivity"
    LIST, BODY, RESULTS, MENU = "notes_list", "note_body", "search_results", "side_menu"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.folder_id = ""  # "" = All notes
        self.route = "notes"  # "notes", "note" or "search"
        self.side_menu = self.fab_open = False
        self.note_id, self.editing, self.query = "", False, ""
        self.draft: dict[str, Any] = {}  # the note being edited, until its first save

    def on_back(self) -> bool:
        """BACK closes the side menu or the unfolded button, leaves the editor for the note, the note or the
        search for the list; on the list it leaves the app."""
        if self.side_menu or self.fab_open:
            self.side_menu = self.fab_open = False
        elif self.route == "note" and self.editing and _store(self).note(self.note_id) is not None:
            self._view_mode()
        elif self.route in ("note", "search"):
            self._to_list()
        else:
            return False
        return True

    def build(self) -> View:
        if self.route == "note":
            return self._note_screen()
        if self.route == "search":
            return self._search_screen()
        content = self._notes_screen()
        if self.side_menu:
            return scrim_over(content, self._side_menu(), self._close_menu)
        return content

    # ----- navigation ---------------------------------------------------------------------------------------
    def _close_menu(self) -> None:
        self.side_menu = False

    def _open_menu(self) -> None:
        self.side_menu, self.fab_open = True, False

    def _show_folder(self, folder_id: str) -> None:
        self.folder_id, self.side_menu = folder_id, False
        self.scroll.pop(self.LIST, None)

    def _to_list(self) -> None:
        self.route, self.editing, self.note_id, self.draft, self.query = "notes", False, "", {}, ""
        self.focus_key, self.keyboard_shown = "", False

    def _open_note(self, note_id: str) -> None:
        self.route, self.note_id, self.editing = "note", note_id, False
        self.focus_key, self.keyboard_shown = "", False
        self.scroll.pop(self.BODY, None)

    def _new_note(self, is_todo: bool) -> None:
        """The unfolded button's "New note"/"New to-do": an empty note in the shown notebook (or the first one)
        opens in the editor, title focused; it is saved once something is typed."""
        folders = _store(self).folders()
        parent = self.folder_id if any(f["id"] == self.folder_id for f in folders) else folders[0]["id"]
        now = self.phone.clock.now_ms()
        self.fab_open = False
        self.route, self.editing = "note", True
        self.note_id = new_id(f"{now}:{parent}:{len(_store(self).notes())}:{int(is_todo)}")
        self.draft = {"parent_id": parent, "title": "", "body": "", "is_todo": int(is_todo), "todo_completed": 0}
        self.focus_key, self.keyboard_shown = "title", True

    def _edit_mode(self) -> None:
        self.editing, self.focus_key, self.keyboard_shown = True, "body", True

    def _view_mode(self) -> None:
        self.editing, self.focus_key, self.keyboard_shown = False, "", False

    def _open_search(self) -> None:
        self.route, self.query, self.fab_open = "search", "", False
        self.focus_key, self.keyboard_shown = "query", True

    # ----- writes ---------------------------------------------------------------------------------------------
    def _save(self, values: dict[str, Any]) -> None:
        """Autosave: write ``values`` of the open note (a new note's first save inserts it with its draft)."""
        store = _store(self)
        if store.note(self.note_id) is None:
            values = {**self.draft, **values}
        store.save(self.note_id, values, self.phone.clock.now_ms())

    def _set_field(self, column: str) -> Callable[[str], None]:
        return lambda text: self._save({column: text})

    def _toggle_todo(self, note: dict[str, Any]) -> None:
        """A to-do's checkbox: ``todo_completed`` becomes now (or 0)."""
        done = 0 if note["todo_completed"] else self.phone.clock.now_ms()
        _store(self).save(note["id"], {"todo_completed": done}, self.phone.clock.now_ms())

    def _toggle_box(self, note: dict[str, Any], index: int) -> None:
        """A body checkbox clicked in the viewer: the Markdown is rewritten and saved."""
        _store(self).save(note["id"], {"body": toggle_checkbox(note["body"], index)}, self.phone.clock.now_ms())

    # ----- Notes ----------------------------------------------------------------------------------------------
    def _notes_screen(self) -> View:
        store = _store(self)
        folders = store.folders()
        folder = next((f for f in folders if f["id"] == self.folder_id), None)
        if folder is None:
            self.folder_id = ""
        notes = store.notes(self.folder_id)
        header = _header(folder["title"] if folder else ALL_NOTES, _icon(SEARCH, "search", self._open_search),
                         navigation=_icon(SIDEBAR, "menu", self._open_menu))
        if notes:
            body = View(kind="list", class_name="android.widget.ScrollView", key=self.LIST, scrollable=True,
                        focusable=True, weight=1, children=[self._note_item(note) for note in notes])
        else:
            body = column(text_view(NO_NOTES, text_size=_TEXT, text_color=TEXT_SECONDARY, padding=48), weight=1)
        children = [column(header, body, gravity="fill", background=WHITE)]
        if folders:
            children.append(self._action_button())
        return View(kind="frame", class_name="android.view.ViewGroup", children=children)

    def _note_item(self, note: dict[str, Any]) -> View:
        """``NoteItem``: a to-do's checkbox, then the title (a completed to-do's greyed)."""
        done = bool(note["is_todo"] and note["todo_completed"])
        children = []
        if note["is_todo"]:
            children.append(_checkbox(done, lambda: self._toggle_todo(note)))
        children.append(text_view(note["title"] or UNTITLED, weight=1, text_size=_TEXT, padding=24,
                                  text_color=_FADED if done else TEXT))
        return View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                    height=_ROW, padding=6, children=children, on_click=lambda: self._open_note(note["id"]),
                    background=WHITE)

    def _action_button(self) -> View:
        """``ActionButton``: "+" unfolds "New to-do" and "New note" above it."""
        def toggle() -> None:
            self.fab_open = not self.fab_open

        main = View(kind="fab", class_name="android.widget.Button", content_desc=ADD_NEW, hint="close" if
                    self.fab_open else "plus", clickable=True, focusable=True, on_click=toggle, width=168,
                    height=168, background=_ACCENT, text_color=WHITE, gravity="bottom_end", margin=48)
        if not self.fab_open:
            return main
        items = [self._action_item(NEW_TODO, "todo", lambda: self._new_note(True)),
                 self._action_item(NEW_NOTE, "edit", lambda: self._new_note(False))]
        return View(kind="column", class_name="android.view.ViewGroup", gravity="bottom_end", margin=48, width=560,
                    spacing=24, children=[*items, row(View(weight=1), main)])

    @staticmethod
    def _action_item(label: str, icon: str, on_click: Callback) -> View:
        return View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                    on_click=on_click, height=132, spacing=24, content_desc=label, children=[
                        View(weight=1), text_view(label, text_size=_SMALL, background=WHITE, padding=18, elevation=6),
                        View(kind="icon", hint=icon, width=132, height=132, background=_ACCENT, text_color=WHITE,
                             corner=66)])

    def _side_menu(self) -> View:
        """``SideMenuContent``: "All notes", the notebooks, then the other entries."""
        def entry(text: str, icon: str, on_click: Callback, selected: bool = False) -> View:
            return View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                        selected=selected, on_click=on_click, height=_ROW, padding=12,
                        background=(75, 82, 96) if selected else None, children=[
                            View(kind="icon", hint=icon, width=90, height=90, text_color=WHITE),
                            text_view(text, weight=1, text_size=_TEXT, text_color=WHITE, padding=18)])

        items = [entry(ALL_NOTES, "list", lambda: self._show_folder(""), not self.folder_id)]
        items += [entry(f["title"] or UNTITLED, "folder", lambda f=f: self._show_folder(f["id"]),
                        f["id"] == self.folder_id) for f in _store(self).folders()]
        items += [entry(TAGS, "label", self._close_menu), entry(CONFIGURATION, "app_settings", self._close_menu)]
        menu = View(kind="list", class_name="android.widget.ScrollView", key=self.MENU, scrollable=True,
                    focusable=True, weight=1, children=items, padding=12)
        return View(kind="column", class_name="android.view.ViewGroup", width=860, weight=1, gravity="top",
                    background=_HEADER, children=[menu])

    # ----- Note -----------------------------------------------------------------------------------------------
    def _note_screen(self) -> View:
        note = _store(self).note(self.note_id) or ({**self.draft, "id": self.note_id} if self.draft else None)
        if note is None:
            self._to_list()
            return self._notes_screen()
        header = _header("", navigation=_icon(BACK, "arrow_back", self._back_from_note))
        title_row: list[View] = []
        if note["is_todo"]:
            title_row.append(_checkbox(bool(note["todo_completed"]), lambda: self._toggle_todo(note)))
        if self.editing:
            title_row.append(edit_text(note["title"], ADD_TITLE, "title", self._set_field("title"), weight=1,
                                       text_size=_TEXT + 8))
            body = edit_text(note["body"], ADD_BODY, "body", self._set_field("body"), multiline=True, weight=1,
                             text_size=_TEXT, gravity="top")
            return column(header, row(*title_row, padding=12), body, gravity="fill", background=WHITE)
        title_row.append(text_view(note["title"], weight=1, text_size=_TEXT + 8, bold=True, padding=24))
        rendered = View(kind="list", class_name="android.webkit.WebView", key=self.BODY, scrollable=True,
                        focusable=True, weight=1, padding=24, children=render_markdown(
                            note["body"], lambda index: self._toggle_box(note, index)))
        content = column(header, row(*title_row, padding=12), rendered, gravity="fill", background=WHITE)
        edit = View(kind="fab", class_name="android.widget.Button", content_desc=EDIT, hint="edit", clickable=True,
                    focusable=True, on_click=self._edit_mode, width=168, height=168, background=_ACCENT,
                    text_color=WHITE, gravity="bottom_end", margin=48)
        return View(kind="frame", class_name="android.view.ViewGroup", children=[content, edit])

    def _back_from_note(self) -> None:
        self._to_list()

    # ----- Search ---------------------------------------------------------------------------------------------
    def _search_screen(self) -> View:
        def set_query(text: str) -> None:
            self.query = text

        field = edit_text(self.query, SEARCH, "query", set_query, weight=1, text_size=_TEXT, text_color=WHITE)
        header = View(kind="row", class_name="android.view.ViewGroup", height=_BAR, background=_HEADER,
                      children=[_icon(BACK, "arrow_back", self._to_list), field])
        found = _store(self).search(self.query)
        if found:
            body = View(kind="list", class_name="android.widget.ScrollView", key=self.RESULTS, scrollable=True,
                        focusable=True, weight=1, children=[self._note_item(note) for note in found])
        else:
            body = column(text_view(NO_RESULTS if self.query.strip() else "", text_size=_TEXT,
                                    text_color=TEXT_SECONDARY, padding=48), weight=1)
        return column(header, body, gravity="fill", background=WHITE)


class Joplin(App):
    """``net.cozic.joplin``; its database is created on first start (and after ``pm clear``)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_joplin", (19, 87, 180)
    version_name, version_code = "3.0.1", 2097740  # android_gym/device/apps.toml
    screens = (MainScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.store = JoplinStore(phone)

    def on_clear(self) -> None:
        """``pm clear`` deleted the database: the next start creates it again."""
        self.store.ensure_db()

