"""Joplin on the simulated phone, driven only through taps, typed text and keys; its database is read and written
from outside as AndroidWorld's setup does."""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from contextlib import closing

from ui_nodes import find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.joplin import DB_PATH, PACKAGE, new_id, toggle_checkbox
from android_gym.sim.phone import Phone

MAIN = f"{PACKAGE}.MainActivity"
T0 = 1697297640000


def connect(phone: Phone) -> sqlite3.Connection:
    db = sqlite3.connect(phone.fs.host_path(DB_PATH))
    db.row_factory = sqlite3.Row
    return db


def folder(phone: Phone, title: str) -> str:
    folder_id = new_id(title)
    with closing(connect(phone)) as db, db:
        db.execute("INSERT INTO folders (id, title, created_time, updated_time) VALUES (?, ?, ?, ?)",
                   (folder_id, title, T0, T0))
    phone.invalidate()
    return folder_id


def note(phone: Phone, parent: str, title: str, body: str = "", is_todo: int = 0, done: int = 0,
         updated: int = T0) -> str:
    note_id = new_id(f"{parent}{title}")
    with closing(connect(phone)) as db, db:
        db.execute("INSERT INTO notes (id, parent_id, title, body, created_time, updated_time, user_updated_time, "
                   "is_todo, todo_completed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (note_id, parent, title, body, T0, updated, updated, is_todo, done))
        db.execute("INSERT INTO notes_normalized (id, title, body, parent_id) VALUES (?, ?, ?, ?)",
                   (note_id, title.lower(), body.lower(), parent))
    phone.invalidate()
    return note_id


def row(phone: Phone, table: str, note_id: str) -> dict:
    with closing(connect(phone)) as db:
        return dict(db.execute(f"SELECT * FROM {table} WHERE id = ?", (note_id,)).fetchone())


def texts(phone: Phone) -> list[str]:
    return [n.get("text") for n in nodes(phone) if n.get("text")]


def open_app(phone: Phone) -> None:
    tap(phone, text="Joplin")
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def test_ids_are_uuid4_hex_drawn_from_their_seed():
    for seed in ("folder:Work", "note:a:b:c:0:1", "ünï"):
        digest = hashlib.sha256(seed.encode()).digest()[:16]
        assert new_id(seed) == uuid.UUID(bytes=digest, version=4).hex


def test_the_database_has_schema_v46_from_install_and_after_pm_clear(phone):
    with closing(connect(phone)) as db:
        tables = {r["name"] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"notes", "folders", "notes_normalized"} <= tables
        assert db.execute("PRAGMA user_version").fetchone()[0] == 46
        columns = [r["name"] for r in db.execute("PRAGMA table_info(notes)")]
    assert columns[:6] == ["id", "parent_id", "title", "body", "created_time", "updated_time"]
    assert columns[-1] == "deleted_time" and "todo_completed" in columns
    folder(phone, "Work")
    phone.run("pm clear net.cozic.joplin")
    with closing(connect(phone)) as db:
        assert db.execute("SELECT COUNT(*) FROM folders").fetchone()[0] == 0


def test_side_menu_lists_notebooks_under_all_notes_and_filters_the_list(phone):
    work, home = folder(phone, "Work"), folder(phone, "Home")
    note(phone, work, "Quarterly Report")
    note(phone, home, "Garden Plan")
    open_app(phone)
    assert {"All notes", "Quarterly Report", "Garden Plan"} <= set(texts(phone))
    tap(phone, content_desc="Sidebar")
    menu = texts(phone)
    assert menu.index("All notes") < menu.index("Home") < menu.index("Work")  # notebooks by title
    tap(phone, text="Work")
    shown = texts(phone)
    assert "Quarterly Report" in shown and "Garden Plan" not in shown and shown[0] == "Work"
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE  # BACK on the list leaves the app


def test_todos_show_checkboxes_unfinished_first_and_ticking_one_completes_it(phone):
    work = folder(phone, "Work")
    plain = note(phone, work, "Plain note", updated=T0 + 10)
    done = note(phone, work, "Done todo", is_todo=1, done=1, updated=T0 + 5)
    open_todo = note(phone, work, "Open todo", is_todo=1)
    open_app(phone)
    assert [t for t in texts(phone) if t.endswith(("note", "todo"))] == ["Open todo", "Plain note", "Done todo"]
    boxes = [n for n in nodes(phone) if n.get("class") == "android.widget.CheckBox"]
    assert [b.get("checked") for b in boxes] == ["false", "true"]
    before = row(phone, "notes", plain)
    tap(phone, class_name="android.widget.CheckBox", checked="false")
    now = row(phone, "notes", open_todo)
    assert now["todo_completed"] == phone.clock.now_ms() and now["user_updated_time"] == phone.clock.now_ms()
    assert row(phone, "notes_normalized", open_todo)["todo_completed"] == now["todo_completed"]
    assert row(phone, "notes", plain) == before and row(phone, "notes", done)["todo_completed"] == 1


def test_a_note_renders_its_markdown_and_its_checkboxes_rewrite_the_body(phone):
    work = folder(phone, "Work")
    body = "# Plan\nIntro line\n- first bullet\n1. step one\n- [ ] buy milk\n- [x] call Sam"
    note_id = note(phone, work, "Checklist", body)
    open_app(phone)
    tap(phone, text="Checklist")
    shown = texts(phone)
    assert {"Checklist", "Plan", "Intro line", "first bullet", "step one", "buy milk", "call Sam"} <= set(shown)
    assert not any(t.startswith(("#", "- ")) for t in shown)
    boxes = [n for n in nodes(phone) if n.get("class") == "android.widget.CheckBox"]
    assert [b.get("checked") for b in boxes] == ["false", "true"]
    tap(phone, class_name="android.widget.CheckBox", checked="false")
    assert row(phone, "notes", note_id)["body"].endswith("- [x] buy milk\n- [x] call Sam")
    phone.key(keycodes.BACK)
    assert "Checklist" in texts(phone) and find(phone, content_desc="Sidebar") is not None


def test_editing_a_note_saves_it_and_its_search_mirror(phone):
    work = folder(phone, "Work")
    note_id = note(phone, work, "Draft", "old body")
    open_app(phone)
    tap(phone, text="Draft")
    tap(phone, content_desc="Edit")
    tap(phone, text="old body")
    phone.input_text(" and more")
    assert row(phone, "notes", note_id)["body"] == "old body and more"
    assert row(phone, "notes_normalized", note_id)["body"] == "old body and more"
    phone.key(keycodes.BACK)  # keyboard
    phone.key(keycodes.BACK)  # the editor: back to the rendered note
    assert find(phone, content_desc="Edit") is not None and "old body and more" in texts(phone)


def test_new_note_and_new_todo_go_into_the_shown_notebook(phone):
    open_app(phone)
    assert find(phone, content_desc="Add new") is None  # no notebook yet: no "+" button
    phone.key(keycodes.BACK)
    home, work = folder(phone, "Home"), folder(phone, "Work")
    open_app(phone)
    tap(phone, content_desc="Sidebar")
    tap(phone, text="Work")
    tap(phone, content_desc="Add new")
    tap(phone, text="New to-do")
    tap(phone, text="Add title")
    phone.input_text("Call Plumber")
    with closing(connect(phone)) as db:
        saved = dict(db.execute("SELECT * FROM notes").fetchone())
        mirror = dict(db.execute("SELECT * FROM notes_normalized").fetchone())
    assert (saved["title"], saved["parent_id"], saved["is_todo"], saved["todo_completed"]) == (
        "Call Plumber", work, 1, 0)
    assert len(saved["id"]) == 32 and saved["created_time"] == phone.clock.now_ms() != 0
    assert (mirror["id"], mirror["title"], mirror["parent_id"]) == (saved["id"], "call plumber", work)
    assert home != work


def test_search_reads_notes_normalized(phone):
    work = folder(phone, "Work")
    note(phone, work, "Budget Review", "Numbers for Q4")
    note(phone, work, "Team Lunch", "Pizza on Friday")
    open_app(phone)
    tap(phone, content_desc="Search")
    phone.input_text("BUDGET")
    shown = texts(phone)
    assert "Budget Review" in shown and "Team Lunch" not in shown
    phone.input_text("xyz")
    assert "No results" in texts(phone)


def test_toggle_checkbox_flips_only_the_indexed_box():
    body = "- [ ] a\ntext\n* [X] b\n- [ ] c"
    assert toggle_checkbox(body, 1) == "- [ ] a\ntext\n* [ ] b\n- [ ] c"
    assert toggle_checkbox(body, 2) == "- [ ] a\ntext\n* [X] b\n- [x] c"
    assert toggle_checkbox(body, 5) == body
