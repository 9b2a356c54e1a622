"""Markor on the simulated phone, driven only through taps, typed text and keys; its notes are plain files that
the tests write and read from outside, as task setups and checks do."""

from __future__ import annotations

import re

from ui_nodes import center, colours, find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.markor import NOTEBOOK, PACKAGE
from android_gym.sim.apps.markor_editor import ACCENT, PREFS_PATH
from android_gym.sim.phone import Phone
from android_gym.sim.system.telephony import SENT
from android_gym.sim.ui.views import TEXT, TEXT_SECONDARY, WHITE

MAIN = f"{PACKAGE}.activity.MainActivity"
EDITOR = f"{PACKAGE}.activity.DocumentActivity"
SMS = "com.simplemobiletools.smsmessenger"


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def write(phone: Phone, name: str, content: str) -> None:
    """A note pushed from outside (``echo 'content' > …`` as AndroidWorld writes one)."""
    phone.run(f"mkdir -p {NOTEBOOK} && echo '{content}' > '{NOTEBOOK}/{name}'")


def read(phone: Phone, name: str) -> bytes:
    return phone.fs.read_bytes(f"{NOTEBOOK}/{name}")


def titles(phone: Phone) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid("opoc_filesystem_item__title")]


def open_markor(phone: Phone) -> None:
    tap(phone, text="Markor")
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def editor_text(phone: Phone) -> str:
    return phone.activities.top.document.text


def long_press(phone: Phone, **attrs: str) -> None:
    node = find(phone, **attrs)
    assert node is not None, attrs
    phone.long_press(*center(node))


def new_file(phone: Phone, name: str, ext: str | None = None) -> None:
    """The "+" button, a name (and an extension), OK."""
    tap(phone, content_desc="Create a new file or folder")
    phone.input_text(name)
    if ext is not None:
        tap(phone, resource_id=rid("new_file_dialog__ext"))
        phone.key(keycodes.A, frozenset({keycodes.CTRL_LEFT}))
        phone.input_text(ext)
    tap(phone, text="OK")


def test_the_notebook_lists_folders_first_then_files_by_name_and_is_made_if_missing(phone):
    assert not phone.fs.exists(NOTEBOOK)
    open_markor(phone)
    assert phone.fs.is_dir(NOTEBOOK)
    assert find(phone, resource_id=rid("empty_hint")) is not None  # only the ".." row
    write(phone, "beta.md", "b")
    write(phone, "Alpha.txt", "a")
    phone.run(f"mkdir {NOTEBOOK}/zoo {NOTEBOOK}/Books")
    phone.invalidate()
    assert titles(phone) == ["..", "Books", "zoo", "Alpha.txt", "beta.md"]
    assert find(phone, resource_id=rid("empty_hint")) is None
    row = find(phone, content_desc="File beta.md 10/15/2023, 3:34 PM")
    assert row is not None and row.get("long-clickable") == "true"
    assert find(phone, content_desc="Folder .. /storage/emulated/0/Documents") is not None
    assert find(phone, text="Markor") is not None


def test_sort_by_date_and_reverse_order_are_kept_in_the_settings(phone):
    write(phone, "a.md", "1")
    phone.clock.advance(60_000)
    write(phone, "b.md", "2")
    phone.run(f"touch -d '2023-10-01 10:00' {NOTEBOOK}/b.md")
    open_markor(phone)
    tap(phone, content_desc="Sort by")
    tap(phone, text="Date")
    assert titles(phone) == ["..", "b.md", "a.md"]
    tap(phone, content_desc="Sort by")
    tap(phone, text="Reverse order")
    assert titles(phone) == ["..", "a.md", "b.md"]
    assert b"pref_key__file_browser__sort_by_type\">MTIME<" in phone.fs.read_bytes(PREFS_PATH)


def test_sort_by_mime_type_orders_by_the_apps_type_then_the_platforms(phone):
    """``makeSortKey``'s MIMETYPE: the type (the app's own for its extensions, Android's MimeMap for the others,
    ``*/*`` for an unknown one) then the name; folders still first."""
    for name in ("b.txt", "a.md", "c.png", "d.json", "e.pdf", "f.xyz"):
        write(phone, name, "x")
    phone.run(f"mkdir {NOTEBOOK}/zoo")
    open_markor(phone)
    tap(phone, content_desc="Sort by")
    radios = [node for node in nodes(phone) if node.get("class") == "android.widget.RadioButton"]
    assert [node.get("checked") for node in radios] == ["true", "false", "false", "false"]
    assert all(node.get("resource-id") == rid("radio") for node in radios)
    assert [find(phone, text=kind) is not None for kind in ("Name", "Date", "Size", "MIME type")] == [True] * 4
    tap(phone, text="MIME type")
    assert titles(phone) == ["..", "zoo", "f.xyz", "e.pdf", "c.png", "d.json", "a.md", "b.txt"]
    assert b"pref_key__file_browser__sort_by_type\">MIMETYPE<" in phone.fs.read_bytes(PREFS_PATH)


def test_the_toolbar_shows_go_to_sort_by_and_search_then_the_overflow(phone):
    """filesystem__menu.xml: Go to, Sort by and Search always show as icons (described by their titles), Import from
    device never does, nor MainActivity's Settings: both in the overflow. Go to's submenu lists its folders (the
    SD cards' items hide without an SD card); Internal storage and Notebook open theirs."""
    write(phone, "a.md", "a")
    open_markor(phone)
    toolbar = find(phone, resource_id=rid("toolbar"))
    actions = [node.get("content-desc") for node in toolbar.iter("node") if node.get("clickable") == "true"]
    assert actions == ["Go to", "Sort by", "Search", "More options"]
    assert find(phone, resource_id=rid("action_go_to")).get("class") == "android.widget.Button"
    tap(phone, content_desc="More options")
    assert [n.get("text") for n in nodes(phone) if n.get("resource-id") == rid("title")] == [
        "Import from device", "Settings"]
    phone.key(keycodes.BACK)
    tap(phone, content_desc="Go to")
    assert [n.get("text") for n in nodes(phone) if n.get("resource-id") == rid("title")] == [
        "AppData (private)", "AppData (public)", "Internal storage", "Recently viewed documents",
        "Popular documents", "Favourites", "Notebook"]
    tap(phone, text="Internal storage")
    assert "Documents" in titles(phone) and find(phone, text="> 0") is not None
    tap(phone, content_desc="Go to")
    tap(phone, text="Notebook")
    assert titles(phone) == ["..", "a.md"] and find(phone, text="Markor") is not None


def test_a_rows_icon_texts_and_margins_follow_opoc_filesystem_item(phone):
    """opoc_filesystem_item.xml: the root padded 16 dp at its sides only (itemSidePadding), its 28 dp image 16 dp
    before the texts and centred on them, the title and description unpadded, and 8 dp below the root."""
    write(phone, "a.md", "a")
    open_markor(phone)

    def bounds(name: str) -> list[tuple[int, ...]]:  # the ".." row's, then a.md's
        return [tuple(map(int, re.findall(r"\d+", n.get("bounds")))) for n in nodes(phone)
                if n.get("resource-id") == rid(name)]

    (_, _, _, up_bottom), root = bounds("opoc_filesystem_item__root")
    image, title = bounds("opoc_filesystem_item__image")[1], bounds("opoc_filesystem_item__title")[1]
    assert image[0] - root[0] == 42 and image[2] - image[0] == image[3] - image[1] == 74  # 16 dp in, 28 dp
    assert title[0] - image[2] == 42 and title[1] == root[1]  # 16 dp after the image, no padding
    assert abs((image[1] + image[3]) - (root[1] + root[3])) <= 1  # centred
    assert root[1] - up_bottom == 21 + 3  # the margin, then the divider


def test_folders_open_and_back_goes_up_then_a_second_back_leaves(phone):
    phone.run(f"mkdir -p {NOTEBOOK}/Trips && echo x > {NOTEBOOK}/Trips/plan.md")
    open_markor(phone)
    tap(phone, text="Trips")
    assert titles(phone) == ["..", "plan.md"] and find(phone, text="> Trips") is not None
    phone.key(keycodes.BACK)
    assert "Trips" in titles(phone) and find(phone, text="Markor") is not None
    phone.key(keycodes.BACK)
    assert find(phone, text="Press 'Back' again to exit") is not None
    assert phone.activities.foreground()[0] == PACKAGE
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def test_a_new_note_is_an_empty_file_opened_in_the_editor(phone):
    open_markor(phone)
    tap(phone, content_desc="Create a new file or folder")
    field = find(phone, resource_id=rid("new_file_dialog__name"))
    assert field.get("focused") == "true" and field.get("text") == "my_note"
    assert find(phone, resource_id=rid("new_file_dialog__ext")).get("text") == ".md"
    phone.input_text("shop/ping:list")  # the name filter drops "/" and ":"
    tap(phone, text="OK")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    assert read(phone, "shoppinglist.md") == b""
    assert find(phone, resource_id=rid("note__activity__text_note_title")).get("text") == "shoppinglist"
    editor = find(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    assert editor.get("focused") == "true" and phone.activities.top.keyboard_shown  # stateUnchanged
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert read(phone, "shoppinglist.md") == b""  # nothing typed: nothing written


def test_a_typed_extension_doubles_and_the_type_spinner_sets_it(phone):
    open_markor(phone)
    new_file(phone, "a.md")
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert phone.fs.exists(f"{NOTEBOOK}/a.md.md")
    tap(phone, content_desc="Create a new file or folder")
    phone.input_text("plain")
    tap(phone, resource_id=rid("new_file_dialog__type"))
    tap(phone, text="Plain Text")
    assert find(phone, resource_id=rid("new_file_dialog__ext")).get("text") == ".txt"
    tap(phone, text="OK")
    assert read(phone, "plain.txt") == b""
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    tap(phone, content_desc="Create a new file or folder")  # the last used extension comes back
    assert find(phone, resource_id=rid("new_file_dialog__ext")).get("text") == ".txt"
    assert find(phone, resource_id="android:id/text1", text="Plain Text") is not None


def test_no_extension_from_the_none_type(phone):
    open_markor(phone)
    tap(phone, content_desc="Create a new file or folder")
    phone.input_text("bare")
    tap(phone, resource_id=rid("new_file_dialog__type"))
    tap(phone, text="None")
    tap(phone, text="OK")
    assert phone.fs.exists(f"{NOTEBOOK}/bare") and not phone.fs.exists(f"{NOTEBOOK}/bare.md")


def test_an_existing_note_is_opened_not_overwritten_and_folder_makes_a_folder(phone):
    write(phone, "keep.md", "precious")
    open_markor(phone)
    new_file(phone, "keep")
    assert editor_text(phone) == "precious\n" and read(phone, "keep.md") == b"precious\n"
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    tap(phone, content_desc="Create a new file or folder")
    phone.input_text("Projects")
    tap(phone, text="FOLDER")
    assert phone.fs.is_dir(f"{NOTEBOOK}/Projects") and "Projects" in titles(phone)


def test_the_editor_saves_exactly_its_text_on_leaving(phone):
    write(phone, "n.md", "first")
    open_markor(phone)
    tap(phone, text="n.md")
    assert find(phone, content_desc="Save").get("enabled") == "false"
    tap(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))  # caret at the end
    phone.input_text("second")
    assert find(phone, content_desc="Save").get("enabled") == "true"
    assert read(phone, "n.md") == b"first\n"  # nothing written while typing
    phone.key(keycodes.BACK)  # the keyboard
    phone.key(keycodes.BACK)  # the editor: onPause saves
    assert read(phone, "n.md") == b"first\nsecond"
    info = phone.run(f"stat -c %Y {NOTEBOOK}/n.md").stdout.decode().strip()
    assert int(info) == phone.clock.now_ms() // 1000


def test_a_long_press_left_of_the_text_puts_the_caret_at_the_start(phone):
    write(phone, "n.md", "body")
    open_markor(phone)
    tap(phone, text="n.md")
    editor = find(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    x1, y1, *_ = map(int, re.findall(r"\d+", editor.get("bounds")))
    phone.long_press(x1 + 1, y1 + 1)
    phone.input_text("Title")
    phone.key(keycodes.ENTER)
    assert editor_text(phone) == "Title\nbody\n"
    tap(phone, content_desc="Undo")
    assert editor_text(phone) == "Titlebody\n"
    tap(phone, content_desc="Redo")
    tap(phone, content_desc="Save")
    assert read(phone, "n.md") == b"Title\nbody\n"


def test_short_texts_are_not_saved_automatically_but_save_writes_them(phone):
    open_markor(phone)
    new_file(phone, "tiny")
    phone.input_text("x")
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert read(phone, "tiny.md") == b""
    tap(phone, text="tiny.md")
    tap(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    phone.input_text("y")
    tap(phone, content_desc="Save")
    assert read(phone, "tiny.md") == b"y"


def test_paste_from_the_clipboard_into_a_new_note(phone):
    phone.clipboard.set_text("from clipboard")
    open_markor(phone)
    new_file(phone, "pasted")
    long_press(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    tap(phone, text="Paste")
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    assert read(phone, "pasted.md") == b"from clipboard"


def test_returning_to_the_editor_reloads_a_file_changed_on_disk(phone):
    write(phone, "n.md", "old")
    open_markor(phone)
    tap(phone, text="n.md")
    phone.key(keycodes.HOME)
    write(phone, "n.md", "new")
    open_markor_again = find(phone, text="Markor")
    phone.tap(*center(open_markor_again))
    assert editor_text(phone) == "new\n"


def test_long_press_selects_and_delete_asks_first(phone):
    for name in ("a.md", "b.md", "c.md"):
        write(phone, name, name)
    open_markor(phone)
    long_press(phone, text="a.md")
    assert find(phone, content_desc="Selected a.md 10/15/2023, 3:34 PM") is not None
    assert find(phone, text="Markor") is None  # the title is emptied
    assert find(phone, content_desc="Rename") is not None
    tap(phone, text="c.md")  # a tap adds to the selection
    assert find(phone, content_desc="Rename") is None and find(phone, content_desc="Delete") is not None
    tap(phone, content_desc="Delete")
    message = find(phone, resource_id="android:id/message").get("text")
    assert message.startswith("Do you really want to delete this Documents?")
    assert f"{NOTEBOOK}/a.md" in message and f"{NOTEBOOK}/c.md" in message
    assert find(phone, resource_id=rid("alertTitle")).get("text") == "Confirm Delete"
    tap(phone, text="CANCEL")
    assert phone.fs.exists(f"{NOTEBOOK}/a.md")
    tap(phone, content_desc="Delete")
    tap(phone, text="OK")
    assert titles(phone) == ["..", "b.md"]
    assert find(phone, text="Markor") is not None


def test_rename_refuses_a_taken_name_and_keeps_the_content(phone):
    write(phone, "old.md", "text")
    write(phone, "other.md", "o")
    open_markor(phone)
    long_press(phone, text="old.md")
    tap(phone, content_desc="Rename")
    field = find(phone, resource_id=rid("new_name"))
    assert field.get("text") == "old.md" and field.get("focused") == "true"
    tap(phone, resource_id=rid("new_name"))
    phone.key(keycodes.A, frozenset({keycodes.CTRL_LEFT}))
    phone.input_text("other.md")
    tap(phone, text="OK")
    assert find(phone, text="File/folder already exists! Please use a different name") is not None
    assert find(phone, resource_id="android:id/button1").get("enabled") == "false"
    phone.key(keycodes.A, frozenset({keycodes.CTRL_LEFT}))
    phone.input_text("new.md")
    tap(phone, text="OK")
    assert not phone.fs.exists(f"{NOTEBOOK}/old.md") and read(phone, "new.md") == b"text\n"
    assert read(phone, "other.md") == b"o\n"


def test_move_and_copy_through_the_folder_picker(phone):
    phone.run(f"mkdir -p {NOTEBOOK}/From {NOTEBOOK}/To")
    phone.run(f"echo note > {NOTEBOOK}/From/n.md; echo stay > {NOTEBOOK}/From/s.md")
    open_markor(phone)
    tap(phone, text="From")
    long_press(phone, text="n.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Move")
    assert find(phone, resource_id=rid("ui__filesystem_dialog__title")).get("text") == "Move → From"
    assert find(phone, text="s.md") is None  # folders only
    tap(phone, text="..")
    tap(phone, text="To")
    assert find(phone, resource_id=rid("ui__filesystem_dialog__title")).get("text") == "Move → To"
    tap(phone, text="SELECT THIS FOLDER")
    assert phone.fs.read_bytes(f"{NOTEBOOK}/To/n.md") == b"note\n"
    assert not phone.fs.exists(f"{NOTEBOOK}/From/n.md") and phone.fs.exists(f"{NOTEBOOK}/From/s.md")
    assert titles(phone) == ["..", "s.md"]
    long_press(phone, text="s.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Copy")
    tap(phone, text="SELECT THIS FOLDER")  # a copy onto itself gets a free name
    assert phone.fs.read_bytes(f"{NOTEBOOK}/From/s_1.md") == b"stay\n"


def test_clipboard_copies_a_notes_text(phone):
    write(phone, "c.md", "copy me")
    open_markor(phone)
    long_press(phone, text="c.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Clipboard")
    assert phone.clipboard.primary.text == "copy me\n"


def test_share_plain_text_to_sms_messenger(phone):
    write(phone, "s.md", "Meet at noon")
    open_markor(phone)
    tap(phone, text="s.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Share")
    tap(phone, text="Plain Text")
    assert phone.activities.foreground() == ("com.android.intentresolver",
                                             "com.android.intentresolver.ChooserActivity")
    assert find(phone, resource_id="com.android.intentresolver:id/content_preview_text").get("text") == \
        "Meet at noon "
    assert [node.get("text") for node in nodes(phone) if node.get("resource-id") == "android:id/text1"] == \
        ["SMS Messenger"]
    tap(phone, text="SMS Messenger")
    assert phone.activities.foreground() == (SMS, f"{SMS}.activities.NewConversationActivity")
    phone.input_text("+12025550123")
    tap(phone, resource_id=f"{SMS}:id/new_conversation_confirm")
    assert find(phone, resource_id=f"{SMS}:id/thread_type_message").get("text") == "Meet at noon "
    tap(phone, resource_id=f"{SMS}:id/thread_send_message")
    sent = [m for m in phone.telephony.messages(phone.telephony.thread_id_for("+12025550123"))
            if m["type"] == SENT]
    assert [m["body"] for m in sent] == ["Meet at noon"]
    for _ in range(5):  # keyboards, the thread, the new conversation
        if phone.activities.foreground()[0] == SMS:
            phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, EDITOR)  # back in the note, not in the chooser


def test_sms_messenger_takes_shared_text_from_am_start(phone):
    phone.run("am start -a android.intent.action.SEND -t text/plain --es android.intent.extra.TEXT hello")
    assert phone.activities.foreground() == (SMS, f"{SMS}.activities.NewConversationActivity")
    phone.input_text("5551234")
    tap(phone, resource_id=f"{SMS}:id/new_conversation_confirm")
    assert find(phone, resource_id=f"{SMS}:id/thread_type_message").get("text") == "hello"


def test_the_chooser_copy_button_and_back(phone):
    write(phone, "s.md", "words")
    open_markor(phone)
    tap(phone, text="s.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Share")
    tap(phone, text="Plain Text")
    tap(phone, content_desc="Copy")
    assert phone.clipboard.primary.text == "words\n"
    assert phone.activities.foreground() == (PACKAGE, EDITOR)


def test_quicknote_and_todo_tabs_edit_their_files(phone):
    open_markor(phone)
    tap(phone, content_desc="QuickNote")
    assert find(phone, content_desc="Create a new file or folder") is None
    tap(phone, resource_id=rid("document__fragment__edit__highlighting_editor"))
    phone.input_text("remember milk")
    tap(phone, content_desc="To-Do")
    assert read(phone, "QuickNote.md") == b"remember milk"
    assert not phone.fs.exists(f"{NOTEBOOK}/todo.txt")
    tap(phone, content_desc="Files")
    assert "QuickNote.md" in titles(phone)


def test_force_stop_starts_over_in_the_notebook(phone):
    phone.run(f"mkdir -p {NOTEBOOK}/Deep")
    open_markor(phone)
    tap(phone, text="Deep")
    phone.run(f"am force-stop {PACKAGE}")
    open_markor(phone)
    assert find(phone, text="Markor") is not None and "Deep" in titles(phone)


def test_force_stop_in_the_editor_saves_nothing(phone):
    """``forceStopPackageLocked`` kills the process before it removes the activities: no ``onPause``, so the
    editor's unsaved text is lost and no caret position is kept; a HOME press would have saved both."""
    open_markor(phone)
    new_file(phone, "kept")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    phone.input_text("typed, never saved")
    phone.run(f"am force-stop {PACKAGE}")
    assert read(phone, "kept.md") == b""
    assert b"kept.md" not in phone.fs.read_bytes(PREFS_PATH)
    open_markor(phone)
    tap(phone, text="kept.md")
    phone.input_text("saved")
    phone.key(keycodes.HOME)
    assert read(phone, "kept.md") == b"saved"


# ----- search ------------------------------------------------------------------------------------------------------
def search(phone: Phone, query: str) -> None:
    """The toolbar's Search, the query typed into its field, ENTER."""
    tap(phone, content_desc="Search", resource_id=rid("action_search"))
    tap(phone, text="Search", class_name="android.widget.EditText")
    phone.input_text(query)
    phone.key(keycodes.ENTER)


def results(phone: Phone) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == "android:id/text1"]


def test_search_opens_a_dialog_and_finds_files_below_by_name(phone):
    write(phone, "Frog_notes.md", "x")
    write(phone, "toad.md", "frog inside")
    phone.run(f"mkdir -p {NOTEBOOK}/Pond/.git && echo y > {NOTEBOOK}/Pond/green_frog.txt "
              f"&& echo z > {NOTEBOOK}/Pond/.git/frog && mkdir {NOTEBOOK}/frogs")
    open_markor(phone)
    tap(phone, content_desc="Search", resource_id=rid("action_search"))
    assert find(phone, text="Recursive search in current directory.") is not None
    # an app targeting API 28+ gets no initial focus in touch mode: no keyboard until the field is tapped
    assert find(phone, text="Search", class_name="android.widget.EditText").get("focused") == "false"
    assert not phone.activities.top.keyboard_shown
    tap(phone, text="Search", class_name="android.widget.EditText")
    assert phone.activities.top.keyboard_shown
    assert [find(phone, text=label).get("checked") for label in ("Regex search", "Case sensitive",
                                                                 "Search in content")] == ["false"] * 3
    assert find(phone, text="Stop search after first match") is None  # invisible until content is searched
    phone.input_text("FROG")
    phone.key(keycodes.ENTER)
    # files only (not the folder "frogs", nor in .git), by path ignoring case; not by content
    assert find(phone, text="Select") is not None
    assert results(phone) == ["Frog_notes.md", "Pond/green_frog.txt"]
    assert find(phone, text="Search", class_name="android.widget.EditText") is not None  # the filter
    assert not phone.activities.top.keyboard_shown
    tap(phone, text="Pond/green_frog.txt")
    assert phone.activities.foreground() == (PACKAGE, EDITOR) and editor_text(phone) == "y\n"
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, MAIN) and find(phone, text="Select") is None


def test_the_filter_narrows_the_results_and_nothing_found_shows_the_shrug(phone):
    for name in ("plan_a.md", "plan_b.md", "other.md"):
        write(phone, name, "x")
    open_markor(phone)
    search(phone, "plan")
    assert results(phone) == ["plan_a.md", "plan_b.md"]
    tap(phone, text="Search", class_name="android.widget.EditText")
    phone.input_text("_b")
    assert results(phone) == ["plan_b.md"]
    tap(phone, text="CANCEL")
    search(phone, "nothing")
    assert find(phone, text="     ¯\\_(ツ)_/¯     ") is not None and results(phone) == []
    assert find(phone, class_name="android.widget.EditText") is None and not phone.activities.top.keyboard_shown
    phone.key(keycodes.BACK)
    assert find(phone, text="Select") is None


def test_the_search_dialogs_check_boxes_draw_their_boxes_before_their_labels(phone):
    """A CheckBox's 18 dp box lies left of its label: outlined grey when unchecked, filled with Markor's accent
    (a white tick cut out of it) when checked; the label stays in the text colour."""
    open_markor(phone)
    tap(phone, content_desc="Search", resource_id=rid("action_search"))
    tap(phone, text="Case sensitive")
    pixels = phone.screenshot()

    def drawn(label: str, box: bool) -> set[tuple[int, int, int]]:
        x1, y1, x2, y2 = map(int, re.findall(r"\d+", find(phone, text=label).get("bounds")))
        x1 += 30  # the check box's padding; its 32 dp button comes first, then the label
        area = pixels[y1:y2, x1:x1 + 84] if box else pixels[y1:y2, x1 + 84:x2]
        return colours(area)

    checked, unchecked = drawn("Case sensitive", box=True), drawn("Regex search", box=True)
    assert ACCENT in checked and WHITE in checked
    assert ACCENT not in unchecked and TEXT_SECONDARY in unchecked
    assert ACCENT not in drawn("Case sensitive", box=False) and TEXT in drawn("Case sensitive", box=False)
    assert find(phone, text="Case sensitive").get("class") == "android.widget.CheckBox"
    assert find(phone, text="Case sensitive").get("checked") == "true"


def test_a_content_search_lists_matching_lines_and_keeps_its_options(phone):
    write(phone, "list.md", "Milk\\nbread and MILK")
    write(phone, "milk.txt", "none here")
    open_markor(phone)
    tap(phone, content_desc="Search", resource_id=rid("action_search"))
    tap(phone, text="Search in content")
    assert find(phone, text="Search in content").get("checked") == "true"
    assert find(phone, text="Stop search after first match") is not None
    tap(phone, text="Case sensitive")
    tap(phone, text="Search", class_name="android.widget.EditText")
    phone.input_text("MILK")
    tap(phone, text="OK")
    assert results(phone) == ["(1) list.md"]  # "milk.txt" differs in case
    assert b'pref_key__is_search_in_content" value="true"' in phone.fs.read_bytes(PREFS_PATH)
    tap(phone, text="(1) list.md")  # the lines show
    assert results(phone) == ["(1) list.md", "+1: bread and MILK"]
    tap(phone, text="+1: bread and MILK")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    phone.key(keycodes.BACK)
    assert results(phone) == ["(1) list.md", "+1: bread and MILK"]  # the results stayed open


def test_a_long_press_on_a_result_shows_its_row_at_the_top_of_the_list(phone):
    names = [f"note_{i:02d}.md" for i in range(50)]
    for name in names:
        write(phone, name, "x")
    phone.run(f"mkdir -p {NOTEBOOK}/Sub && echo x > {NOTEBOOK}/Sub/deep.md")
    open_markor(phone)
    assert "note_25.md" not in titles(phone)
    search(phone, "note_25")
    long_press(phone, text="note_25.md")
    assert find(phone, text="Select") is None and titles(phone)[0] == "note_25.md"
    tap(phone, text="note_25.md")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    phone.key(keycodes.BACK)
    assert titles(phone)[0] == "note_25.md"  # the list kept its place
    search(phone, "note_49")  # near the end: the list scrolls as far as it can
    long_press(phone, text="note_49.md")
    assert titles(phone)[-1] == "note_49.md"
    search(phone, "deep")
    long_press(phone, text="Sub/deep.md")
    assert find(phone, text="> Sub") is not None and titles(phone) == ["..", "deep.md"]


def test_search_hides_while_rows_are_selected(phone):
    write(phone, "a.md", "x")
    open_markor(phone)
    long_press(phone, text="a.md")
    assert find(phone, resource_id=rid("action_search")) is None
    tap(phone, text="a.md")
    assert find(phone, resource_id=rid("action_search")) is not None


def test_the_file_list_is_on_the_window_colour_with_a_divider_below_each_row() -> None:
    """AppTheme.Unified's window is @color/background (#EEEEEE) and GsFileBrowserFragment's DividerItemDecoration
    draws the theme's listDivider (black at 12 %, 1 dp) below each row, after the row's 8 dp bottom margin, outside
    the rows' bounds; titles are Body2 (medium)."""
    phone = Phone()
    write(phone, "a.md", "a")
    write(phone, "b.md", "b")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    rows = [node for node in nodes(phone) if node.get("resource-id") == rid("opoc_filesystem_item__root")]
    assert len(rows) == 3  # "..", a.md, b.md
    bounds = [tuple(map(int, re.findall(r"\d+", node.get("bounds")))) for node in rows]
    pixels = phone.screenshot()
    divider = (209, 209, 209)
    for (x1, _, x2, bottom), (_, top, _, _) in zip(bounds, bounds[1:]):
        assert top - bottom == 21 + 3 and colours(pixels[top - 3:top, x1:x2]) == {divider}  # between two rows
        assert colours(pixels[bottom:top - 3, x1:x2]) == {(0xEE, 0xEE, 0xEE)}  # the margin shows the window
    x1, y1, x2, y2 = bounds[-1]
    assert tuple(pixels[y2 - 2, x2 - 5]) == (0xEE, 0xEE, 0xEE)  # the row shows the window through
    title = next(view for view in phone.window.frame().app.walk()
                 if view.resource_id == rid("opoc_filesystem_item__title"))
    assert title.bold
