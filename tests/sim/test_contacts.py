"""The contacts provider (contacts2.db, content URIs, pm clear) and the Contacts app, driven by taps and keys."""

from __future__ import annotations

import re
import sqlite3
import threading
from contextlib import closing

import pytest
from lxml import etree

from android_gym.device import state
from android_gym.errors import UnencodableTextError
from android_gym.sim import keycodes
from android_gym.sim.apps.contacts import PACKAGE
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import Phone
from android_gym.sim.system.contacts import format_e164, join_name, min_match
from android_gym.tasks import get_task
from android_gym.tasks.validators import add_contact, add_contacts, add_contacts_command, contact_phones

PEOPLE = "com.android.contacts.activities.PeopleActivity"
EDITOR = "com.android.contacts.activities.ContactEditorActivity"
QUICK_CONTACT = "com.android.contacts.quickcontact.QuickContactActivity"
PHONES = "content query --uri content://contacts/phones/ --projection display_name:number"
METACHARACTERS = "O'Brien; rm -rf /sdcard \"$(reboot)\""



def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def nodes(phone: Phone, **attrs: str) -> list[etree._Element]:
    """Dump nodes whose attributes (``resource_id`` means ``resource-id``, ``class_`` ``class``) all match."""
    return [node for node in etree.fromstring(phone.ui_dump().encode()).iter("node")
            if all(node.get(key.rstrip("_").replace("_", "-")) == value for key, value in attrs.items())]


def tap(phone: Phone, **attrs: str) -> None:
    """Tap the top-most node matching ``attrs``."""
    found = nodes(phone, **attrs)
    assert found, f"no node with {attrs}"
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", found[-1].get("bounds")))
    phone.tap((x1 + x2) / 2, (y1 + y2) / 2)


def texts(phone: Phone, **attrs: str) -> list[str]:
    return [node.get("text") for node in nodes(phone, **attrs)]


def shell(phone: Phone, command: str) -> str:
    result = phone.run(command)
    return (result.stdout + result.stderr).decode()


def raw(phone: Phone) -> sqlite3.Connection:
    """A plain connection to the file, as a pulled copy would be opened."""
    return sqlite3.connect(phone.fs.host_path(phone.contacts.db_path))


def insert_contact(phone: Phone, name: str, number: str, phone_type: int = 2) -> int:
    raw_id = phone.contacts.insert("content://com.android.contacts/raw_contacts",
                                   {"account_name": None, "account_type": None})
    phone.contacts.insert("content://com.android.contacts/data",
                          {"raw_contact_id": raw_id, "mimetype": "vnd.android.cursor.item/name", "data1": name})
    phone.contacts.insert("content://com.android.contacts/data",
                          {"raw_contact_id": raw_id, "mimetype": "vnd.android.cursor.item/phone_v2",
                           "data1": number, "data2": phone_type})
    return raw_id


def open_editor(phone: Phone) -> None:
    tap(phone, text="Contacts")
    tap(phone, content_desc="Create new contact")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)


# ----- the provider ----------------------------------------------------------------------------------------------
def test_schema_matches_aosp(phone):
    # ContactsDatabaseHelper at android-13.0.0_r1 (DATABASE_VERSION 1604), WAL like the real provider.
    assert phone.fs.exists("/data/data/com.android.providers.contacts/databases/contacts2.db")
    with closing(raw(phone)) as db:
        def columns(table: str) -> list[tuple[str, str]]:
            return [(name, kind) for _, name, kind, *_ in db.execute(f"PRAGMA table_info({table})")]

        assert columns("accounts") == [
            ("_id", "INTEGER"), ("account_name", "TEXT"), ("account_type", "TEXT"), ("data_set", "TEXT"),
            ("sim_slot_index", "INTEGER"), ("sim_ef_type", "INTEGER"), ("ungrouped_visible", "INTEGER"),
            ("should_sync", "INTEGER"), ("x_is_default", "INTEGER")]
        assert [name for name, _ in columns("raw_contacts")][:12] == [
            "_id", "account_id", "sourceid", "backup_id", "raw_contact_is_read_only", "version", "dirty",
            "deleted", "metadata_dirty", "contact_id", "aggregation_mode", "aggregation_needed"]
        assert {"display_name", "display_name_alt", "display_name_source", "sort_key", "phonebook_label",
                "phonebook_bucket"} <= {name for name, _ in columns("raw_contacts")}
        assert [name for name, _ in columns("contacts")] == [
            "_id", "name_raw_contact_id", "photo_id", "photo_file_id", "custom_ringtone", "send_to_voicemail",
            "x_times_contacted", "x_last_time_contacted", "times_contacted", "last_time_contacted", "starred",
            "pinned", "has_phone_number", "lookup", "status_update_id", "contact_last_updated_timestamp"]
        data = columns("data")
        assert data[:9] == [("_id", "INTEGER"), ("package_id", "INTEGER"), ("mimetype_id", "INTEGER"),
                            ("raw_contact_id", "INTEGER"), ("hash_id", "TEXT"), ("is_read_only", "INTEGER"),
                            ("is_primary", "INTEGER"), ("is_super_primary", "INTEGER"), ("data_version", "INTEGER")]
        assert data[9:24] == [(f"data{i}", "TEXT") for i in range(1, 16)]
        assert columns("phone_lookup") == [("data_id", "INTEGER"), ("raw_contact_id", "INTEGER"),
                                           ("normalized_number", "TEXT"), ("min_match", "TEXT")]
        mimetypes = [m for (m,) in db.execute("SELECT mimetype FROM mimetypes ORDER BY _id")]
        assert mimetypes[:7] == ["vnd.android.cursor.item/email_v2", "vnd.android.cursor.item/im",
                                 "vnd.android.cursor.item/nickname", "vnd.android.cursor.item/organization",
                                 "vnd.android.cursor.item/phone_v2", "vnd.android.cursor.item/sip_address",
                                 "vnd.android.cursor.item/name"]
        assert db.execute("PRAGMA user_version").fetchone() == (1604,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_content_query_prints_legacy_phones_as_a_device_does(phone):
    assert shell(phone, PHONES) == "No result found.\n"
    insert_contact(phone, "Alice Brown", "+12025550123")
    insert_contact(phone, "Bob Chen", "(415) 555-0188", phone_type=1)
    # one row per phone (the view is DISTINCT over its phone_lookup join); no ORDER BY, as on the device
    rows = shell(phone, PHONES).splitlines()
    assert [line[:7] for line in rows] == ["Row: 0 ", "Row: 1 "]
    assert sorted(line[7:] for line in rows) == ["display_name=Alice Brown, number=+12025550123",
                                                 "display_name=Bob Chen, number=(415) 555-0188"]
    assert shell(phone, "content query --uri content://contacts/phones --projection name:type:label:person "
                        "--sort person") == ("Row: 0 name=Alice Brown, type=2, label=NULL, person=1\n"
                                             "Row: 1 name=Bob Chen, type=1, label=NULL, person=2\n")


def test_provider_fills_names_numbers_lookups_and_aggregates(phone):
    raw_id = insert_contact(phone, "Alice Brown", "(202) 555-0123")
    rows = phone.contacts.query("content://com.android.contacts/data", ["mimetype", "data1", "data2", "data3", "data4"],
                                sort="_id")
    assert rows == [
        {"mimetype": "vnd.android.cursor.item/name", "data1": "Alice Brown", "data2": "Alice", "data3": "Brown",
         "data4": None},
        {"mimetype": "vnd.android.cursor.item/phone_v2", "data1": "(202) 555-0123", "data2": "2", "data3": None,
         "data4": "+12025550123"}]
    [raw_contact] = phone.contacts.query(f"content://com.android.contacts/raw_contacts/{raw_id}")
    assert (raw_contact["display_name"], raw_contact["display_name_alt"], raw_contact["display_name_source"],
            raw_contact["phonebook_label"], raw_contact["dirty"]) == ("Alice Brown", "Brown, Alice", 40, "A", 1)
    [contact] = phone.contacts.query("content://com.android.contacts/contacts")
    assert contact["_id"] == raw_contact["contact_id"] and contact["has_phone_number"] == 1
    assert contact["lookup"].startswith(f"0r{raw_id}-")
    with closing(raw(phone)) as db:
        assert db.execute("SELECT normalized_number, min_match FROM phone_lookup ORDER BY rowid").fetchall() == [
            ("2025550123", "3210555"), ("+12025550123", "3210555")]
    assert phone.contacts.lookup_names(["+1 202-555-0123", "2025550124"]) == {"+1 202-555-0123": "Alice Brown"}


def test_display_name_falls_back_to_the_number_and_deletes_cascade(phone):
    raw_id = phone.contacts.insert_raw_contact()
    phone.contacts.insert_data(raw_id, "vnd.android.cursor.item/phone_v2", {"data1": "5550100"})
    [raw_contact] = phone.contacts.query("content://com.android.contacts/raw_contacts",
                                         ["display_name", "display_name_source"])
    assert raw_contact == {"display_name": "5550100", "display_name_source": 20}
    assert phone.contacts.delete("content://com.android.contacts/contacts") == 1
    with closing(raw(phone)) as db:
        counts = [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("raw_contacts", "contacts", "data", "phone_lookup")]
    assert counts == [0, 0, 0, 0]


def test_provider_helpers():
    assert format_e164("(202) 555-0123") == "+12025550123" == format_e164("1 202 555 0123")
    assert format_e164("123-456-7890") is None  # area codes start with 2-9
    assert min_match("+12025550123") == "3210555"
    assert join_name(None, "Alice", "Ann", "Brown", None, False) == "Alice Ann Brown"
    assert join_name(None, "Brown", "Alice", "Ann", "Jr", True) == "Brown, Alice Ann, Jr"
    assert join_name(None, None, "Alice", None, None, True) == "Alice"


def test_content_insert_and_errors_over_the_shell(phone):
    shell(phone, "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: "
                 "--bind account_type:n:")
    name = METACHARACTERS.replace("'", "'\\''")
    assert shell(phone, "content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:1 "
                        f"--bind mimetype:s:vnd.android.cursor.item/name --bind 'data1:s:{name}'") == ""
    assert shell(phone, "content query --uri content://com.android.contacts/raw_contacts --projection "
                        "_id:display_name") == f"Row: 0 _id=1, display_name={METACHARACTERS}\n"
    assert shell(phone, "content query --uri content://com.android.contacts/nothing") == (
        "Error while accessing provider:com.android.contacts\n"
        "java.lang.IllegalArgumentException: Unknown URI content://com.android.contacts/nothing\n")
    assert "raw_contact_id is required" in shell(
        phone, "content insert --uri content://com.android.contacts/data --bind mimetype:s:x")


def test_a_query_keeps_to_the_uris_limit(phone):
    """ContactsProvider2's ``limit`` parameter caps the rows; one that is not a non-negative integer is ignored."""
    for name, number in (("Ann", "5550100"), ("Bob", "5550101"), ("Cy", "5550102")):
        insert_contact(phone, name, number)
    query = ("content query --uri 'content://com.android.contacts/raw_contacts?limit={}' --projection _id "
             "--sort '_id DESC'")
    assert shell(phone, query.format(1)) == "Row: 0 _id=3\n"
    assert shell(phone, query.format(2)) == "Row: 0 _id=3\nRow: 1 _id=2\n"
    assert shell(phone, query.format(0)) == "No result found.\n"
    for ignored in ("-1", "x", ""):
        assert shell(phone, query.format(ignored)).count("Row:") == 3


def test_device_helpers_add_list_and_parse(device):
    add_contact(device, "Alice Brown", "+1 202-555-0123")
    add_contact(device, "Bob, Jr", "4155550188")
    assert sorted(contact_phones(device)) == [("Alice Brown", "12025550123"), ("Bob, Jr", "4155550188")]
    rows = state.content_query(device, "content://com.android.contacts/data", ("data1", "mimetype"),
                               where="mimetype = 'vnd.android.cursor.item/name'", sort="_id")
    assert [row["data1"] for row in rows] == ["Alice Brown", "Bob, Jr"]
    assert state.content_query(device, "content://contacts/phones", ("label",))[0] == {"label": None}


def test_contacts_added_together_keep_their_order_and_numbers(device):
    add_contacts(device, [("Carol Diaz", "+1 202-555-0111"), ("Alice Brown", "4155550188"), ("Bob Chen", "5550100")])
    rows = state.content_query(device, "content://com.android.contacts/data/phones", ("display_name", "data1"),
                               sort="_id")
    assert [(row["display_name"], row["data1"]) for row in rows] == [
        ("Carol Diaz", "+1 202-555-0111"), ("Alice Brown", "4155550188"), ("Bob Chen", "5550100")]


def tables(phone: Phone) -> dict[str, list[tuple]]:
    """Every row of every table of contacts2.db."""
    with closing(raw(phone)) as db:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: db.execute(f"SELECT * FROM {name} ORDER BY rowid").fetchall() for name in names}


def test_a_line_leaves_the_rows_a_commit_per_write_leaves(device, phone):
    """A command line's data writes leave the raw contacts' names and their aggregates to the line's end or its
    next read: the tables end as when each write was committed with them."""
    people = [("Carol Diaz", "+1 202-555-0111"), ("Alice Brown", "4155550188"), (METACHARACTERS, "5550100")]
    for name, number in people:
        insert_contact(phone, name, number)
    assert shell(device.phone, add_contacts_command(people)) == ""
    assert device.phone.clock.now_ms() == phone.clock.now_ms()
    assert tables(device.phone) == tables(phone)
    # within a line, a read or a selection sees each raw contact's name as written so far
    raw_contact = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
                  "--bind account_type:n:"

    def name(raw_id: int, value: str) -> str:
        return (f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
                f"--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:{value}")

    assert shell(device.phone, f"{raw_contact} && {name(4, 'Zoe')} && content query --uri "
                               "content://com.android.contacts/raw_contacts --projection display_name --where _id=4"
                 ) == "Row: 0 display_name=Zoe\n"
    assert shell(device.phone, f"{raw_contact} && {name(5, 'Ann')} && content delete --uri "
                               "content://com.android.contacts/raw_contacts --where \"display_name = 'Ann'\"") == ""
    assert [row[0] for row in tables(device.phone)["raw_contacts"]] == [1, 2, 3, 4]


def file_state(phone: Phone, path: str) -> tuple[int, int] | None:
    """A file's device time and size, ``None`` when there is no such file."""
    if not phone.fs.exists(path):
        return None
    info = phone.fs.device_stat(phone.fs.host_path(path))
    return info.st_mtime_ns, info.st_size


def test_the_short_cut_leaves_what_the_line_leaves(device, phone):
    """``SimDevice.add_contacts`` (``add_contacts``' short cut) writes what ``add_contacts_command``'s line of
    ``content insert`` commands writes: the same database file, byte for byte, with the same device times, so the
    same rows in every table and the same answers to the provider's queries."""
    people = [("Carol Diaz", "+1 202-555-0111"), ("Alice Brown", "4155550188"), (METACHARACTERS, "5550100"),
              ("Ünal Çelik", "(650) 555-0199"), ("Carol Diaz", "+1 202-555-0111")]
    insert_contact(device.phone, "Zoe Adams", "2025550100")  # ids go on from an earlier contact's
    insert_contact(phone, "Zoe Adams", "2025550100")
    add_contacts(device, people)
    assert shell(phone, add_contacts_command(people)) == ""
    assert tables(device.phone) == tables(phone)
    database = device.phone.contacts.db_path
    assert device.phone.fs.read_bytes(database) == phone.fs.read_bytes(database)
    for path in device.phone.fs.sqlite_files(database):  # the side files (none: checkpointed) and the folder too
        assert [file_state(device.phone, path)] == [file_state(phone, path)], path
    for uri in ("content://contacts/phones", "content://com.android.contacts/contacts",
                "content://com.android.contacts/raw_contacts", "content://com.android.contacts/data",
                "content://com.android.contacts/phone_lookup/4155550188"):
        assert device.phone.contacts.query(uri) == phone.contacts.query(uri), uri
    numbers = [number for _, number in people]
    assert device.phone.contacts.lookup_names(numbers) == phone.contacts.lookup_names(numbers)


@pytest.mark.parametrize(("count", "counter_moves"), [(2, 0), (60, 1)])
def test_the_short_cut_on_the_new_database_leaves_what_the_line_leaves(device, phone, count, counter_moves):
    """On the new database ``pm clear`` leaves, the short cut (its writes made on a copy of the file, written back
    as a WAL commit leaves it: ``SqliteProvider.write_batch``) leaves the bytes and times the line leaves: a few
    contacts change no page but their tables', so the change counter stays; sixty grow the file, page 1 with it,
    and it moves one on."""
    people = [(f"Person {index}", f"202555{index:04d}") for index in range(count)]
    database = phone.contacts.db_path
    for target in (device.phone, phone):
        assert shell(target, "pm clear com.android.providers.contacts") == "Success\n"
    new = phone.fs.read_bytes(database)
    add_contacts(device, people)
    assert shell(phone, add_contacts_command(people)) == ""
    written = device.phone.fs.read_bytes(database)
    assert written == phone.fs.read_bytes(database)
    assert int.from_bytes(written[24:28], "big") == int.from_bytes(new[24:28], "big") + counter_moves
    for path in device.phone.fs.sqlite_files(database):
        assert [file_state(device.phone, path)] == [file_state(phone, path)], path


def test_the_short_cut_refuses_what_the_line_could_not_say(device):
    with pytest.raises(UnencodableTextError, match="contact number"):
        add_contacts(device, [("Alice Brown", "4155550188"), ("Bob Chen", "555\udc00")])
    assert device.phone.contacts.query("content://com.android.contacts/raw_contacts") == []


def test_a_command_line_holds_one_connection_and_leaves_no_wal(phone):
    insert = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
             "--bind account_type:n:"
    folder = phone.fs.host_path(phone.contacts.db_path).parent
    assert shell(phone, f"{insert} && {insert}") == ""
    assert sorted(path.name for path in folder.iterdir()) == ["contacts2.db"]  # checkpointed when the line ended
    with closing(raw(phone)) as db:
        assert db.execute("SELECT COUNT(*) FROM raw_contacts").fetchone() == (2,)
    # the provider's files go within the line: the held connection goes with them, the next write starts afresh
    assert shell(phone, f"{insert} && pm clear com.android.providers.contacts && {insert}") == "Success\n"
    assert phone.contacts.query("content://com.android.contacts/raw_contacts", ["_id"]) == [{"_id": 1}]


def test_holding_is_per_thread(phone):
    """A served shell waiting for input lets another thread's command line run (``PhoneHost.holding_released``,
    which first commits what the waiting line wrote): it uses its own connection."""
    insert = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
             "--bind account_type:n:"
    host = PhoneHost(phone)

    def waiting_line() -> list[dict]:
        with phone.contacts.holding():
            phone.contacts.insert_raw_contact()  # this thread's held connection is open, the write in its transaction
            with host.holding_released():  # as a served shell waiting for its standard input
                other = threading.Thread(target=host.locked, args=(shell, phone, insert))
                other.start()
                other.join()
            return phone.contacts.query("content://com.android.contacts/raw_contacts", ["_id"])

    assert host.locked(waiting_line) == [{"_id": 1}, {"_id": 2}]
    folder = phone.fs.host_path(phone.contacts.db_path).parent
    assert sorted(path.name for path in folder.iterdir()) == ["contacts2.db"]


def test_pm_clear_empties_the_provider(phone):
    insert_contact(phone, "Alice Brown", "+12025550123")
    assert shell(phone, "pm clear com.android.providers.contacts") == "Success\n"
    assert shell(phone, PHONES) == "No result found.\n"
    insert_contact(phone, "Bob Chen", "+14155550188")
    assert phone.contacts.query("content://com.android.contacts/raw_contacts", ["_id"]) == [{"_id": 1}]


# ----- the app ---------------------------------------------------------------------------------------------------
def test_list_is_sorted_and_opens_quick_contact(phone):
    tap(phone, text="Contacts")
    assert phone.activities.foreground() == (PACKAGE, PEOPLE)
    assert texts(phone, resource_id=rid("message")) == ["Your contacts list is empty"]
    for name in ("zoe Walker", "Bob Chen", "alice Brown"):
        insert_contact(phone, name, "+12025550123")
    assert texts(phone, resource_id=rid("cliv_name_textview")) == ["alice Brown", "Bob Chen", "zoe Walker"]
    tap(phone, text="Bob Chen")
    assert phone.activities.foreground() == (PACKAGE, QUICK_CONTACT)
    assert texts(phone, resource_id=rid("large_title")) == ["Bob Chen"]
    assert texts(phone, resource_id=rid("header")) == ["+12025550123"]
    assert texts(phone, resource_id=rid("text")) == ["Mobile"]


def test_creating_a_contact_in_the_editor_writes_the_provider(phone):
    open_editor(phone)
    assert phone.activities.top.keyboard_shown  # a new contact opens with the first name focused
    assert texts(phone, text="First name") == ["First name"]
    phone.input_text("Alice")
    phone.key(keycodes.ENTER)  # the IME's "next": on to the last name
    phone.input_text("Brown")
    tap(phone, text="Phone", class_="android.widget.EditText")
    phone.input_text("+12025550123")
    # typing into the only empty phone field adds another one, of the first type not in use
    assert texts(phone, resource_id="android:id/text1") == ["Mobile", "Home"]
    tap(phone, text="Mobile", resource_id="android:id/text1")
    labels = texts(phone, class_="android.widget.CheckedTextView")
    assert labels[:4] == ["Mobile", "Home", "Work", "Work Fax"] and "Custom" not in labels
    tap(phone, text="Work", class_="android.widget.CheckedTextView")
    assert texts(phone, resource_id="android:id/text1") == ["Work", "Home"]
    tap(phone, text="Save")
    assert phone.activities.foreground() == (PACKAGE, QUICK_CONTACT)
    assert texts(phone, resource_id=rid("large_title")) == ["Alice Brown"]
    assert shell(phone, "content query --uri content://com.android.contacts/data --projection "
                        "raw_contact_id:mimetype:data1:data2:data3") == (
        "Row: 0 raw_contact_id=1, mimetype=vnd.android.cursor.item/name, data1=Alice Brown, data2=Alice, "
        "data3=Brown\n"
        "Row: 1 raw_contact_id=1, mimetype=vnd.android.cursor.item/phone_v2, data1=+12025550123, data2=3, "
        "data3=NULL\n")
    assert phone.contacts.query("content://com.android.contacts/contacts", ["_id", "name_raw_contact_id"]) == [
        {"_id": 1, "name_raw_contact_id": 1}]
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, PEOPLE)
    assert texts(phone, resource_id=rid("cliv_name_textview")) == ["Alice Brown"]


def test_insert_intent_opens_a_prefilled_editor_and_save_stores_it(phone):
    out = shell(phone, "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact "
                       "-e name 'Mary Ann Lee' -e phone +14155550188 --ei phone_type 3")
    assert out.startswith("Starting: Intent { act=android.intent.action.INSERT typ=vnd.android.cursor.dir/contact")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    assert texts(phone, class_="android.widget.EditText") == ["Mary", "Lee", "+14155550188", "Phone"]
    assert texts(phone, resource_id="android:id/text1") == ["Work", "Mobile"]
    tap(phone, text="Save")  # prefilled extras are changes: saved without touching a field
    assert shell(phone, PHONES) == "Row: 0 display_name=Mary Ann Lee, number=+14155550188\n"
    assert phone.activities.foreground() == (PACKAGE, QUICK_CONTACT)


def test_back_with_changes_asks_to_discard(phone):
    open_editor(phone)
    phone.key(keycodes.BACK)  # hides the keyboard
    phone.key(keycodes.BACK)  # nothing typed: the editor closes
    assert phone.activities.foreground() == (PACKAGE, PEOPLE)
    tap(phone, content_desc="Create new contact")
    phone.input_text("Alice")
    tap(phone, content_desc="Cancel")
    assert texts(phone, resource_id="android:id/message") == ["Discard changes?"]
    tap(phone, text="Cancel", resource_id="android:id/button2")
    assert phone.activities.foreground() == (PACKAGE, EDITOR) and texts(phone, text="Alice") == ["Alice"]
    phone.key(keycodes.BACK)  # the dialog hid the keyboard: BACK asks again
    tap(phone, text="Discard")
    assert phone.activities.foreground() == (PACKAGE, PEOPLE)
    assert shell(phone, PHONES) == "No result found.\n"


def test_edit_and_delete_from_quick_contact(phone):
    insert_contact(phone, "Alice Brown", "+12025550123")
    shell(phone, "am start -a android.intent.action.VIEW -d content://com.android.contacts/contacts/1")
    assert phone.activities.foreground() == (PACKAGE, QUICK_CONTACT)
    tap(phone, content_desc="Edit")
    assert "Edit contact" in texts(phone, class_="android.widget.TextView")
    tap(phone, text="Brown")
    phone.input_text("e")
    tap(phone, content_desc="Delete Mobile Phone")
    tap(phone, text="Save")
    assert phone.activities.foreground() == (PACKAGE, QUICK_CONTACT)
    assert texts(phone, resource_id=rid("large_title")) == ["Alice Browne"]
    assert phone.contacts.query("content://com.android.contacts/data/phones", ["_id"]) == []
    tap(phone, content_desc="More options")
    tap(phone, text="Delete")
    assert texts(phone, resource_id="android:id/message") == ["Delete this contact?"]
    tap(phone, text="Delete", resource_id="android:id/button1")
    assert phone.contacts.query("content://com.android.contacts/raw_contacts", ["_id"]) == []


def test_task_checks_read_the_provider_and_the_editor(device):
    phone = device.phone
    draft = get_task("ContactsNewContactDraft")({"first": "Alice", "last": "Brown", "phone": "123-456-7890",
                                                 "phone_label": "Work"})
    swapped = get_task("ContactsNewContactDraft")({**draft.params, "first": "Brown", "last": "Alice"})
    added = get_task("ContactsAddContact")({"name": "Alice Brown", "number": "(123) 456-7890"})
    open_editor(phone)
    for text in ("Alice", "Brown", "123-456-7890"):
        phone.input_text(text)
        phone.key(keycodes.ENTER)
    assert draft.is_successful(device) == 0.0  # the label is still Mobile
    tap(phone, text="Mobile", resource_id="android:id/text1")
    tap(phone, text="Work", class_="android.widget.CheckedTextView")
    assert draft.is_successful(device) == 1.0
    assert swapped.is_successful(device) == 0.0  # the first name must be the upper field
    assert added.is_successful(device) == 0.0
    tap(phone, text="Save")
    assert draft.is_successful(device) == 0.0  # the editor is gone
    assert added.is_successful(device) == 1.0  # same name, same digits


def test_saving_a_contact_deleted_meanwhile_does_not_crash(phone):
    insert_contact(phone, "Alice Brown", "+12025550123")
    shell(phone, "am start -a android.intent.action.EDIT -d content://com.android.contacts/contacts/1")
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    shell(phone, "pm clear com.android.providers.contacts")
    tap(phone, text="Phone", class_="android.widget.EditText")
    phone.input_text("5550100")
    tap(phone, text="Save")
    assert phone.activities.top.app.package == "com.google.android.apps.nexuslauncher"  # the editor closed
    assert shell(phone, PHONES) == "No result found.\n"


@pytest.mark.parametrize("language, button, title", [
    ("en-US", "Create new contact", "Create new contact"), ("de-DE", "Neuen Kontakt erstellen", "Neuer Kontakt"),
    ("fr-FR", "Créer un contact", "Créer un contact")])
def test_the_new_contact_button_and_the_editor_title_are_two_resources(phone, language, button, title):
    """One English text, two strings (action_menu_add_new_contact_button, contact_editor_title_new_contact) that
    German translates apart."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc=button)
    assert phone.activities.foreground() == (PACKAGE, EDITOR)
    [bar] = nodes(phone, resource_id=rid("toolbar"))
    assert title in [node.get("text") for node in bar.iter("node")]
