"""The telephony provider: AOSP mmssms.db schema and triggers, SMS delivery/sending, content://sms queries."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.telephony import DEFAULT_SUB_ID, SMS_APP_PACKAGE, _digits_glob, phone_numbers_equal

METACHARACTERS = "'; rm -rf /sdcard; \"$(reboot)\""



def raw(phone: Phone) -> sqlite3.Connection:
    """A plain sqlite3 connection, as the on-device ``sqlite3`` or a pulled copy would open the file."""
    return sqlite3.connect(phone.fs.host_path(phone.telephony.db_path))


def table_info(db: sqlite3.Connection, table: str) -> list[tuple[str, str, str | None]]:
    return [(name, kind, default) for _, name, kind, _, default, _ in db.execute(f"PRAGMA table_info({table})")]


def test_schema_matches_aosp(phone):
    # MmsSmsDatabaseHelper.CREATE_SMS_TABLE_STRING / createCommonTables, DATABASE_VERSION 69.
    assert phone.fs.exists("/data/data/com.android.providers.telephony/databases/mmssms.db")
    with closing(raw(phone)) as db:
        assert table_info(db, "sms") == [
            ("_id", "INTEGER", None), ("thread_id", "INTEGER", None), ("address", "TEXT", None),
            ("person", "INTEGER", None), ("date", "INTEGER", None), ("date_sent", "INTEGER", "0"),
            ("protocol", "INTEGER", None), ("read", "INTEGER", "0"), ("status", "INTEGER", "-1"),
            ("type", "INTEGER", None), ("reply_path_present", "INTEGER", None), ("subject", "TEXT", None),
            ("body", "TEXT", None), ("service_center", "TEXT", None), ("locked", "INTEGER", "0"),
            ("sub_id", "INTEGER", "-1"), ("error_code", "INTEGER", "-1"), ("creator", "TEXT", None),
            ("seen", "INTEGER", "0")]
        assert table_info(db, "threads") == [
            ("_id", "INTEGER", None), ("date", "INTEGER", "0"), ("message_count", "INTEGER", "0"),
            ("recipient_ids", "TEXT", None), ("snippet", "TEXT", None), ("snippet_cs", "INTEGER", "0"),
            ("read", "INTEGER", "1"), ("archived", "INTEGER", "0"), ("type", "INTEGER", "0"),
            ("error", "INTEGER", "0"), ("has_attachment", "INTEGER", "0"), ("sub_id", "INTEGER", "-1")]
        assert table_info(db, "canonical_addresses") == [
            ("_id", "INTEGER", None), ("address", "TEXT", None), ("sub_id", "INTEGER", "-1")]
        triggers = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
        assert {"sms_update_thread_on_insert", "sms_update_thread_date_subject_on_update",
                "sms_update_thread_read_on_update", "update_threads_error_on_update_sms"} <= triggers
        assert db.execute("PRAGMA user_version").fetchone() == (69,)
        autoincrement = db.execute("SELECT sql FROM sqlite_master WHERE name='threads'").fetchone()[0]
        assert "AUTOINCREMENT" in autoincrement


def test_triggers_keep_threads_in_step_for_raw_sqlite_writers(phone):
    with closing(raw(phone)) as db, db:
        db.execute("INSERT INTO canonical_addresses (address) VALUES ('5550001')")
        db.execute("INSERT INTO threads (recipient_ids) VALUES ('1')")
        db.execute("INSERT INTO sms (thread_id, address, date, type, body) VALUES (1, '5550001', 1000, 1, 'a')")
        db.execute("INSERT INTO sms (thread_id, address, date, type, read, body) "
                   "VALUES (1, '5550001', 2000, 2, 1, 'b')")
        assert db.execute("SELECT message_count, snippet, date, read FROM threads").fetchone() == (2, "b", 2000, 0)
        db.execute("UPDATE sms SET type = 3 WHERE body = 'b'")  # a draft is not counted
        assert db.execute("SELECT message_count FROM threads").fetchone() == (1,)
        db.execute("UPDATE sms SET read = 1")
        assert db.execute("SELECT read FROM threads").fetchone() == (1,)
        db.execute("UPDATE sms SET type = 5 WHERE body = 'a'")
        assert db.execute("SELECT error FROM threads").fetchone() == (1,)


def test_deliver_sms_is_an_unread_inbox_row_in_its_thread(phone):
    now = phone.clock.now_ms()
    message_id = phone.telephony.deliver_sms("+15551234567", "hi there")
    [row] = phone.telephony.query("content://sms/inbox")
    assert row["_id"] == message_id
    assert (row["type"], row["read"], row["seen"], row["date"], row["address"], row["body"]) == (
        1, 0, 0, now, "+15551234567", "hi there")
    assert row["sub_id"] == DEFAULT_SUB_ID and row["creator"] == SMS_APP_PACKAGE
    with closing(raw(phone)) as db:
        thread = db.execute("SELECT _id, message_count, snippet, read, recipient_ids FROM threads").fetchone()
        assert thread == (row["thread_id"], 1, "hi there", 0, "1")
        assert db.execute("SELECT address FROM canonical_addresses").fetchall() == [("+15551234567",)]
    # PhoneNumberUtils-style loose matching: the same number without the country code is the same thread.
    assert phone.telephony.thread_id_for("5551234567") == row["thread_id"]
    assert phone.telephony.thread_id_for("5551234568") != row["thread_id"]


def test_send_sms_ends_as_a_sent_row_with_the_body_verbatim(phone):
    message_id = phone.telephony.send_sms("5550100", METACHARACTERS)
    [row] = phone.telephony.query("content://sms/sent")
    assert row["_id"] == message_id and row["body"] == METACHARACTERS
    assert (row["type"], row["read"], row["seen"], row["address"]) == (2, 1, 1, "5550100")
    assert phone.telephony.query("content://sms/outbox") == []
    assert phone.telephony.conversations()[0]["snippet"] == METACHARACTERS


def test_query_uris_filters_and_sort(phone):
    tel = phone.telephony
    tel.deliver_sms("5550001", "first")
    phone.clock.advance(60_000)
    tel.send_sms("5550001", "second")
    phone.clock.advance(60_000)
    tel.deliver_sms("5550002", "third")
    assert [r["body"] for r in tel.query("content://sms")] == ["third", "second", "first"]  # date DESC
    assert [r["body"] for r in tel.query("content://sms", sort="date ASC")] == ["first", "second", "third"]
    assert [r["body"] for r in tel.query("content://sms/inbox")] == ["third", "first"]
    assert [r["body"] for r in tel.query("content://sms/sent", ["body"])] == ["second"]
    assert tel.query("content://sms", ["address", "body"], where="body='first'") == [
        {"address": "5550001", "body": "first"}]
    first_id = tel.query("content://sms", ["_id"], where="body='first'")[0]["_id"]
    assert tel.query(f"content://sms/{first_id}", ["body"]) == [{"body": "first"}]
    assert tel.query("content://sms/draft") == [] and tel.query("content://sms/failed") == []
    conversations = tel.query("content://sms/conversations")
    assert list(conversations[0]) == ["snippet", "thread_id", "null", "msg_count"]  # AOSP HashMap order
    assert sorted((c["snippet"], c["msg_count"]) for c in conversations) == [("second", 2), ("third", 1)]
    with pytest.raises(ValueError, match="Unknown URI"):
        tel.query("content://mms")
    with pytest.raises(ValueError, match="Invalid column"):
        tel.query("content://sms", ["body; DROP TABLE sms"])


def test_query_where_cannot_write(phone):
    phone.telephony.deliver_sms("5550001", "x")
    with pytest.raises(sqlite3.Error):
        phone.telephony.query("content://sms", where="1); DELETE FROM sms; --")
    assert len(phone.telephony.query("content://sms")) == 1


def test_provider_delete_fixes_threads_like_aosp(phone):
    tel = phone.telephony
    tel.deliver_sms("5550001", "old")
    phone.clock.advance(1000)
    newest = tel.deliver_sms("5550001", "new")
    assert tel.delete(f"content://sms/{newest}") == 1
    assert tel.conversations()[0]["snippet"] == "old"
    assert tel.delete("content://sms", "address='5550001'") == 1
    with closing(raw(phone)) as db:  # the emptied thread and its canonical address are gone
        assert db.execute("SELECT COUNT(*) FROM threads").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM canonical_addresses").fetchone() == (0,)


def test_db_recreated_when_deleted_but_not_when_emptied(phone):
    tel = phone.telephony
    tel.deliver_sms("5550001", "x")
    with closing(raw(phone)) as db, db:  # AndroidWorld's clear: DELETE FROM sms; DELETE FROM threads;
        db.execute("DELETE FROM sms")
        db.execute("DELETE FROM threads")
    second = tel.thread_id_for("5550002")
    assert second == 2  # AUTOINCREMENT survives: the file was kept
    phone.fs.remove_tree(tel.db_path)
    assert tel.query("content://sms") == []
    assert tel.thread_id_for("5550002") == 1
    with closing(raw(phone)) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (69,)


def test_rollback_journal_not_wal(phone):
    # MmsSmsDatabaseHelper calls setWriteAheadLoggingEnabled(false): the db file alone is complete.
    phone.telephony.send_sms("5550001", "x")
    assert not phone.fs.exists(phone.telephony.db_path + "-wal")


def test_the_provider_keeps_its_connection_while_the_file_is_the_same(phone):
    """A rollback-journal provider's connection outlives its command line: the next line's writes go through it,
    after other connections' writes (seen by the change counter) and not after the file is made again."""
    tel = phone.telephony
    tel.deliver_sms("5550001", "first")
    kept = tel._thread.held[1]
    assert phone.run(f"sqlite3 {tel.db_path} 'DELETE FROM sms; DELETE FROM threads;'").exit_code == 0
    tel.deliver_sms("5550002", "second")  # the kept connection sees the other one's deletes
    assert tel._thread.held[1] is kept
    assert [(row["address"], row["body"]) for row in tel.query("content://sms")] == [("5550002", "second")]
    assert sorted(path.name for path in phone.fs.host_path(tel.db_path).parent.iterdir()) == [
        "mmssms.db", "mmssms.db-journal"]  # what a connection per line leaves too: TRUNCATE keeps the journal
    phone.run("pm clear com.android.providers.telephony")
    tel.deliver_sms("5550003", "third")  # a new file: a new connection, nothing of the old one's
    assert tel._thread.held[1] is not kept
    assert [(row["address"], row["thread_id"]) for row in tel.query("content://sms")] == [("5550003", 1)]


def test_texts_delivered_together_leave_the_rows_of_texts_delivered_one_by_one():
    """``deliver_texts`` writes in one transaction what the SMS app writes per text (``getThreadId``, then the insert):
    the same messages, threads (snippet, date, count, read), canonical addresses and ids, the same senders' threads
    (numbers ``PHONE_NUMBERS_EQUAL`` share one); only the file's change counter may differ."""
    texts = [("5550001", "a"), ("+1 (650) 555-0123", "b"), ("5550001", "c"), ("6505550123", "d"), ("5550002", "e")]
    dumps, counters = [], []
    for together in (False, True):
        device = Phone()
        try:
            tel, now = device.telephony, device.clock.now_ms()
            if together:
                ids = tel.deliver_texts(texts)
            else:
                ids = [tel.insert("content://sms", {"address": address, "subject": "", "body": body, "read": 0,
                                                    "thread_id": tel.thread_id_for(address)}, creator=SMS_APP_PACKAGE)
                       for address, body in texts]
            assert ids == [1, 2, 3, 4, 5]
            with closing(raw(device)) as db:
                dumps.append(list(db.iterdump()))
            counters.append(phone_header(device))
        finally:
            device.close()
    assert dumps[0] == dumps[1]
    assert counters[1] < counters[0]  # one commit, not two per text
    assert f"INSERT INTO \"threads\" VALUES(2,{now},2,'2','d',0,0,0,0,0,0,1);" in dumps[1]  # b and d: one thread


def test_a_text_that_cannot_be_delivered_undoes_the_batch(phone):
    with pytest.raises(ValueError, match="empty address"):
        phone.telephony.deliver_texts([("5550001", "a"), ("", "b")])
    assert phone.telephony.query("content://sms") == []


def phone_header(phone: Phone) -> int:
    """The database file's change counter (SQLite file format, header offset 24)."""
    return int.from_bytes(phone.fs.host_path(phone.telephony.db_path).read_bytes()[24:28], "big")


def test_same_actions_same_database():
    dumps = []
    for _ in range(2):
        device = Phone()
        try:
            device.telephony.deliver_sms("5550001", "a")
            device.clock.advance(5000)
            device.telephony.send_sms("5550001", "b")
            with closing(raw(device)) as db:
                dumps.append(list(db.iterdump()))
        finally:
            device.close()
    assert dumps[0] == dumps[1]


@pytest.mark.parametrize(("a", "b", "equal"), [
    ("+15551234567", "5551234567", True), ("555-123-4567", "(555) 1234567", True),
    ("4155551234", "6505551234", False), ("12345", "12345", True), ("12345", "2345", False)])
def test_loose_phone_number_compare(a, b, equal):
    assert bool(phone_numbers_equal(a, b)) is equal


def test_the_thread_lookups_glob_lets_every_equal_number_through():
    # Numbers in every form a sender or a canonical address takes (country codes, separators, short codes), and
    # their digit strings cut at the front: every pair PHONE_NUMBERS_EQUAL calls equal matches the GLOB pattern.
    bases = ["+15551234567", "555-123-4567", "(555) 123 4567", "+44 20 7946 0958", "02079460958", "12345", "2345",
             "+1 (650) 555-0100", "6505550100", "911", "+49.30.1234567", "301234567", "1234567", "01234567"]
    numbers = bases + [digits[cut:] for digits in ("".join(filter(str.isdigit, n)) for n in bases)
                       for cut in range(1, 6) if len(digits) > cut]
    with closing(sqlite3.connect(":memory:")) as db:
        pairs = [(a, b) for a in numbers for b in numbers if phone_numbers_equal(a, b)]
        assert len(pairs) > len(numbers)  # not only each number with itself
        for a, b in pairs:
            assert db.execute("SELECT ? GLOB ?", (a, _digits_glob(b))).fetchone() == (1,), (a, b)


def test_a_text_finds_the_canonical_address_of_its_number_in_another_form_among_many(phone):
    for index in range(300):  # the addresses earlier episodes left (an SMS task's clear keeps them), one of them ours
        phone.telephony.deliver_sms(f"+1650555{index:04d}", "earlier")
    with closing(raw(phone)) as db:
        db.executescript("DELETE FROM sms; DELETE FROM threads;")
    first = phone.telephony.deliver_sms("+1 (650) 555-0123", "first")
    second = phone.telephony.deliver_sms("6505550123", "second")
    with closing(raw(phone)) as db:
        threads = [db.execute("SELECT thread_id FROM sms WHERE _id=?", (row,)).fetchone()[0] for row in (first, second)]
        assert threads[0] == threads[1]
        assert db.execute("SELECT address FROM canonical_addresses WHERE _id = (SELECT recipient_ids FROM threads "
                          "WHERE _id=?)", (threads[0],)).fetchone() == ("+16505550123",)
