"""The telephony provider: ``mmssms.db`` with AOSP's schema and triggers, and the ``content://sms`` provider.

Facts from AOSP ``packages/providers/TelephonyProvider`` (DB version 69):
``MmsSmsDatabaseHelper.java`` (tables, triggers, indices, ``updateThreads``), ``SmsProvider.java`` (URIs,
insert defaults, query and delete semantics) and ``MmsSmsProvider.java`` (``getOrCreateThreadId``:
``canonical_addresses`` lookup with ``PHONE_NUMBERS_EQUAL``, ``insertThread``).

Deliberate differences, all behavioural:

* AOSP's triggers stamp ``threads.date`` with ``strftime('%s','now') * 1000`` (the wall clock). Ours take
  the later of the thread's date and the message's ``date``, so the phone stays deterministic under its
  virtual clock; for messages written "now" (every provider write) the result is the same.
* Like AOSP there is no trigger on ``DELETE FROM sms``: the provider's ``delete`` fixes threads up, a raw
  ``sqlite3`` delete leaves them stale (a real device does the same).
* The ``words`` full-text table and the MMS (``pdu``) triggers are left out; ``pdu`` exists because the
  thread triggers count its rows.
* The helper calls ``setWriteAheadLoggingEnabled(false)``, so the real file uses a rollback journal
  (Android's default ``TRUNCATE``), not WAL: the db file alone is complete after every write.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from typing import Any

from android_gym.sim.system.provider import SqliteProvider

SMS_APP_PACKAGE = "com.simplemobiletools.smsmessenger"
SHELL_PACKAGE = "com.android.shell"
DATABASE_VERSION = 69
#: ``SmsManager.getDefaultSmsSubscriptionId()`` on the emulator's single SIM.
DEFAULT_SUB_ID = 1
#: ``config_phonenumber_compare_min_match`` (frameworks/base core/res config.xml).
MIN_MATCH = 7

# Telephony.TextBasedSmsColumns message types.
MESSAGE_TYPE_ALL, INBOX, SENT, DRAFT, OUTBOX, FAILED, QUEUED = range(7)
_BOXES = {"inbox": INBOX, "sent": SENT, "draft": DRAFT, "outbox": OUTBOX, "failed": FAILED, "queued": QUEUED}

_COUNT_NEW = """UPDATE threads SET message_count =
      (SELECT COUNT(sms._id) FROM sms LEFT JOIN threads ON threads._id = thread_id
        WHERE thread_id = new.thread_id AND sms.type != 3)
    + (SELECT COUNT(pdu._id) FROM pdu LEFT JOIN threads ON threads._id = thread_id
        WHERE thread_id = new.thread_id AND (m_type=132 OR m_type=130 OR m_type=128) AND msg_box != 3)
    WHERE threads._id = new.thread_id;"""
_READ_NEW = """UPDATE threads SET read =
      CASE (SELECT COUNT(*) FROM sms WHERE read = 0 AND thread_id = threads._id) WHEN 0 THEN 1 ELSE 0 END
    WHERE threads._id = new.thread_id;"""
_DATE_SNIPPET_COUNT = f"""BEGIN
  UPDATE threads SET date = MAX(IFNULL(date, 0), IFNULL(new.date, 0)), snippet = new.body, snippet_cs = 0
    WHERE threads._id = new.thread_id;
  {_COUNT_NEW}
  {_READ_NEW}
END"""

SCHEMA: tuple[str, ...] = (
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    """CREATE TABLE pdu (_id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER, date INTEGER,
        date_sent INTEGER DEFAULT 0, msg_box INTEGER, read INTEGER DEFAULT 0, m_id TEXT, sub TEXT,
        sub_cs INTEGER, ct_t TEXT, ct_l TEXT, exp INTEGER, m_cls TEXT, m_type INTEGER, v INTEGER,
        m_size INTEGER, pri INTEGER, rr INTEGER, rpt_a INTEGER, resp_st INTEGER, st INTEGER, tr_id TEXT,
        retr_st INTEGER, retr_txt TEXT, retr_txt_cs INTEGER, read_status INTEGER, ct_cls INTEGER,
        resp_txt TEXT, d_tm INTEGER, d_rpt INTEGER, locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1,
        seen INTEGER DEFAULT 0, creator TEXT, text_only INTEGER DEFAULT 0)""",
    """CREATE TABLE addr (_id INTEGER PRIMARY KEY, msg_id INTEGER, contact_id INTEGER, address TEXT,
        type INTEGER, charset INTEGER, sub_id INTEGER DEFAULT -1)""",
    """CREATE TABLE part (_id INTEGER PRIMARY KEY AUTOINCREMENT, mid INTEGER, seq INTEGER DEFAULT 0,
        ct TEXT, name TEXT, chset INTEGER, cd TEXT, fn TEXT, cid TEXT, cl TEXT, ctt_s INTEGER, ctt_t TEXT,
        _data TEXT, text TEXT, sub_id INTEGER DEFAULT -1)""",
    "CREATE TABLE rate (sent_time INTEGER, sub_id INTEGER DEFAULT -1)",
    "CREATE TABLE drm (_id INTEGER PRIMARY KEY, _data TEXT, sub_id INTEGER DEFAULT -1)",
    """CREATE VIEW pdu_restricted AS SELECT * FROM pdu WHERE (msg_box=1 OR msg_box=2) AND (m_type!=130)""",
    """CREATE TABLE sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT, person INTEGER,
        date INTEGER, date_sent INTEGER DEFAULT 0, protocol INTEGER, read INTEGER DEFAULT 0,
        status INTEGER DEFAULT -1, type INTEGER, reply_path_present INTEGER, subject TEXT, body TEXT,
        service_center TEXT, locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1,
        error_code INTEGER DEFAULT -1, creator TEXT, seen INTEGER DEFAULT 0)""",
    """CREATE TABLE raw (_id INTEGER PRIMARY KEY, date INTEGER, reference_number INTEGER, count INTEGER,
        sequence INTEGER, destination_port INTEGER, address TEXT, sub_id INTEGER DEFAULT -1, pdu TEXT,
        deleted INTEGER DEFAULT 0, message_body TEXT, display_originating_addr TEXT)""",
    "CREATE TABLE attachments (sms_id INTEGER, content_url TEXT, offset INTEGER, sub_id INTEGER DEFAULT -1)",
    "CREATE TABLE sr_pending (reference_number INTEGER, action TEXT, data TEXT, sub_id INTEGER DEFAULT -1)",
    "CREATE VIEW sms_restricted AS SELECT * FROM sms WHERE type=1 OR type=2",
    """CREATE TABLE canonical_addresses (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT,
        sub_id INTEGER DEFAULT -1)""",
    """CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, date INTEGER DEFAULT 0,
        message_count INTEGER DEFAULT 0, recipient_ids TEXT, snippet TEXT, snippet_cs INTEGER DEFAULT 0,
        read INTEGER DEFAULT 1, archived INTEGER DEFAULT 0, type INTEGER DEFAULT 0, error INTEGER DEFAULT 0,
        has_attachment INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1)""",
    """CREATE TABLE pending_msgs (_id INTEGER PRIMARY KEY, proto_type INTEGER, msg_id INTEGER,
        msg_type INTEGER, err_type INTEGER, err_code INTEGER, retry_index INTEGER NOT NULL DEFAULT 0,
        due_time INTEGER, pending_sub_id INTEGER DEFAULT -1, last_try INTEGER)""",
    f"CREATE TRIGGER sms_update_thread_on_insert AFTER INSERT ON sms {_DATE_SNIPPET_COUNT}",
    f"""CREATE TRIGGER sms_update_thread_date_subject_on_update AFTER UPDATE OF date, body, type ON sms
        {_DATE_SNIPPET_COUNT}""",
    f"CREATE TRIGGER sms_update_thread_read_on_update AFTER UPDATE OF read ON sms BEGIN {_READ_NEW} END",
    """CREATE TRIGGER update_threads_error_on_update_mms AFTER UPDATE OF err_type ON pending_msgs
        WHEN (OLD.err_type < 10 AND NEW.err_type >= 10) OR (OLD.err_type >= 10 AND NEW.err_type < 10)
        BEGIN UPDATE threads SET error = CASE WHEN NEW.err_type >= 10 THEN error + 1 ELSE error - 1 END
          WHERE _id = (SELECT DISTINCT thread_id FROM pdu WHERE _id = NEW.msg_id); END""",
    """CREATE TRIGGER update_threads_error_on_update_sms AFTER UPDATE OF type ON sms
        WHEN (OLD.type != 5 AND NEW.type = 5) OR (OLD.type = 5 AND NEW.type != 5)
        BEGIN UPDATE threads SET error = CASE WHEN NEW.type = 5 THEN error + 1 ELSE error - 1 END
          WHERE _id = NEW.thread_id; END""",
    "CREATE INDEX typeThreadIdIndex ON sms (type, thread_id)",
    "CREATE INDEX threadIdDateIndex ON sms (thread_id, date)",
    "CREATE INDEX partMidIndex ON part (mid)",
    "CREATE INDEX addrMsgIdIndex ON addr (msg_id)",
    f"PRAGMA user_version = {DATABASE_VERSION}",
)

SMS_COLUMNS = ("_id", "thread_id", "address", "person", "date", "date_sent", "protocol", "read", "status",
               "type", "reply_path_present", "subject", "body", "service_center", "locked", "sub_id",
               "error_code", "creator", "seen")

# android.util.Patterns.PHONE and EMAIL_ADDRESS; Telephony.Mms NAME_ADDR_EMAIL_PATTERN.
_PHONE = re.compile(r"(\+[0-9]+[\- .]*)?(\([0-9]+\)[\- .]*)?([0-9][0-9\- .]+[0-9])")
_EMAIL = re.compile(r"[a-zA-Z0-9+._%\-]{1,256}@[a-zA-Z0-9][a-zA-Z0-9\-]{0,64}(\.[a-zA-Z0-9][a-zA-Z0-9\-]{0,25})+")
_NAME_ADDR = re.compile(r"\s*(\"[^\"]*\"|[^<>\"]+)\s*<([^<>]+)>\s*")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NON_DIGIT = re.compile(r"\D")


def _addr_spec(address: str) -> str:
    match = _NAME_ADDR.fullmatch(address)
    return match.group(2) if match else address


def is_email_address(address: str) -> bool:
    """``Telephony.Mms.isEmailAddress``."""
    return bool(address) and _EMAIL.fullmatch(_addr_spec(address)) is not None


def is_phone_number(address: str) -> bool:
    """``Telephony.Mms.isPhoneNumber``."""
    return bool(address) and _PHONE.fullmatch(address) is not None


def phone_numbers_equal(a: str | None, b: str | None, *_flags: Any) -> int:
    """A loose ``PhoneNumberUtils.compare``: equal when the last ``MIN_MATCH`` digits agree and one number
    is a suffix of the other; shorter numbers must be identical digit strings."""
    da, db = _NON_DIGIT.sub("", a or ""), _NON_DIGIT.sub("", b or "")
    if not da or not db:
        return int((a or "") == (b or ""))
    if min(len(da), len(db)) < MIN_MATCH:
        return int(da == db)
    return int(da.endswith(db) or db.endswith(da))


def _digits_glob(number: str) -> str:
    """A GLOB pattern every address ``phone_numbers_equal`` to ``number`` (which has digits) matches: its last
    ``MIN_MATCH`` digits (all of them when it has fewer) in order, anything around them. SQLite tells it without a
    call into Python, so a lookup asks ``PHONE_NUMBERS_EQUAL`` only of the few addresses that match: the canonical
    addresses are never deleted by the SMS tasks' clear (``DELETE FROM sms; DELETE FROM threads``, as AndroidWorld),
    so they pile up over the episodes, and a call per address made each text cost more than the one before."""
    return "*" + "*".join(_NON_DIGIT.sub("", number)[-MIN_MATCH:]) + "*"


class Telephony(SqliteProvider):
    """``com.android.providers.telephony``: owns ``mmssms.db`` (rollback journal, ``PHONE_NUMBERS_EQUAL``
    registered) and answers ``content://sms`` requests."""

    db_path = "/data/data/com.android.providers.telephony/databases/mmssms.db"
    schema = SCHEMA

    def on_connect(self, db: sqlite3.Connection) -> None:
        """``PHONE_NUMBERS_EQUAL``, which the thread lookups use."""
        db.create_function("PHONE_NUMBERS_EQUAL", -1, phone_numbers_equal, deterministic=True)

    def _now(self) -> int:
        return self._phone.clock.now_ms()

    def _changed(self) -> None:
        """Messages changed: apps showing them redraw (their observers of ``content://sms`` fire)."""
        self._phone.data_changed()

    # ----- threads ----------------------------------------------------------------------------------------
    def thread_id_for(self, address: str) -> int:
        """``Threads.getOrCreateThreadId`` for one recipient: canonical address, then the thread."""
        self.ensure_db()
        with self._transaction() as db:
            return self._thread_id(db, address)

    def _thread_id(self, db: sqlite3.Connection, address: str) -> int:
        if not address:
            raise ValueError("Unable to find or allocate a thread ID: empty address")
        if is_email_address(address):
            address = _addr_spec(address).lower()
        if is_phone_number(address):
            row = db.execute("SELECT _id FROM canonical_addresses WHERE address=? OR (address GLOB ? AND "
                             f"PHONE_NUMBERS_EQUAL(address, ?, 0, {MIN_MATCH})) ORDER BY _id LIMIT 1",
                             (address, _digits_glob(address), address)).fetchone()
        else:
            row = db.execute("SELECT _id FROM canonical_addresses WHERE address=? ORDER BY _id LIMIT 1",
                             (address,)).fetchone()
        address_id = row[0] if row else db.execute(
            "INSERT INTO canonical_addresses (address, sub_id) VALUES (?, ?)",
            (address, DEFAULT_SUB_ID)).lastrowid
        recipient_ids = str(address_id)
        row = db.execute("SELECT _id FROM threads WHERE recipient_ids=?", (recipient_ids,)).fetchone()
        if row:
            return row[0]
        now = self._now()
        return db.execute("INSERT INTO threads (date, recipient_ids, sub_id, message_count) VALUES (?, ?, ?, 0)",
                          (now - now % 1000, recipient_ids, DEFAULT_SUB_ID)).lastrowid

    def thread_addresses(self, thread_id: int) -> list[str]:
        """The thread's recipients, from ``recipient_ids`` via ``canonical_addresses`` (read once per change of the
        database: ``cached``)."""
        return self.cached(("thread addresses", thread_id), lambda: self._thread_addresses(thread_id))

    def _thread_addresses(self, thread_id: int) -> list[str]:
        with self.reading(rows=None) as db:
            row = db.execute("SELECT recipient_ids FROM threads WHERE _id=?", (thread_id,)).fetchone()
            addresses = []
            for token in (row[0] or "").split(" ") if row else []:
                if token.isdigit():
                    found = db.execute("SELECT address FROM canonical_addresses WHERE _id=?", (int(token),))
                    addresses += [r[0] for r in found if r[0]]
            return addresses

    # ----- writes -----------------------------------------------------------------------------------------
    def deliver_sms(self, address: str, body: str) -> int:
        """An incoming text (``sms send`` on the emulator console): ``deliver_texts`` of one; returns its ``_id``."""
        return self.deliver_texts([(address, body)])[0]

    def deliver_texts(self, texts: Sequence[tuple[str, str]]) -> list[int]:
        """Incoming texts ``(address, body)`` in order, each written as the default SMS app's ``SmsReceiver`` writes
        one (Simple SMS Messenger ``insertNewSMS``: ``getThreadId``, then an inbox row, unread, unseen, now); returns
        their ``_id``s. The rows, threads (snippet, date, message count, read) and their ids are those of one text
        after another: the triggers run per row and a sender's thread is made where its first text comes. Unlike a
        phone, which commits each lookup and each insert on its own, it all goes in one transaction with one thread
        lookup per address, so the database file's change counter moves once, and apps hear of the change once
        (content observers are told after the commit); a text that cannot be written (an empty address) undoes them
        all. One held connection (``holding``)."""
        self.ensure_db()
        threads: dict[str, int] = {}
        ids = []
        with self.holding(), self._transaction() as db:
            for address, body in texts:
                if address not in threads:
                    threads[address] = self._thread_id(db, address)
                ids.append(self._insert_row(db, {
                    "address": address, "subject": "", "body": body, "date": self._now(), "read": 0, "type": INBOX,
                    "thread_id": threads[address], "sub_id": DEFAULT_SUB_ID, "creator": SMS_APP_PACKAGE}))
        self._changed()
        return ids

    def send_sms(self, address: str, body: str) -> int:
        """What the SMS app does on send (``MessagingUtils.insertSmsMessage``): an outbox row, read and
        seen, which becomes ``sent`` when the radio confirms (``SmsStatusSentReceiver``); one connection for it all."""
        with self.holding():
            thread_id = self.thread_id_for(address)
            message_id = self.insert("content://sms", {
                "address": address, "date": self._now(), "read": 1, "seen": 1, "body": body,
                "sub_id": DEFAULT_SUB_ID, "type": OUTBOX, "thread_id": thread_id}, creator=SMS_APP_PACKAGE)
            with self._transaction() as db:
                db.execute("UPDATE sms SET type=? WHERE _id=?", (SENT, message_id))
        self._changed()
        return message_id

    def insert(self, uri: str, values: dict[str, Any], creator: str = SHELL_PACKAGE) -> int:
        """``SmsProvider.insert`` into ``content://sms[/box]``; returns the new ``_id``."""
        self.ensure_db()
        box = self._box(uri)
        unknown = set(values) - set(SMS_COLUMNS)
        if box is None or unknown:
            raise ValueError(f"Unknown URI {uri}" if box is None else f"table sms has no column named "
                             f"{sorted(unknown)[0]}")
        values = dict(values)
        msg_type = values.get("type") if box == MESSAGE_TYPE_ALL else box
        msg_type = int(msg_type) if msg_type is not None else INBOX
        values.setdefault("date", self._now())
        values.setdefault("type", msg_type)
        values.setdefault("sub_id", DEFAULT_SUB_ID)
        values["creator"] = creator
        if msg_type != INBOX:
            values["read"] = 1
        with self._transaction() as db:
            if not values.get("thread_id") and values.get("address"):
                values["thread_id"] = self._thread_id(db, str(values["address"]))
            if int(values["type"]) == DRAFT:
                db.execute("DELETE FROM sms WHERE thread_id=? AND type=?", (values.get("thread_id"), DRAFT))
            row_id = self._insert_row(db, values)
        self._changed()
        return row_id

    @staticmethod
    def _insert_row(db: sqlite3.Connection, values: dict[str, Any]) -> int:
        """``INSERT INTO sms`` of ``values`` (column: value); the new ``_id``."""
        columns = list(values)
        return db.execute(f"INSERT INTO sms ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                          [values[c] for c in columns]).lastrowid

    def delete(self, uri: str, where: str | None = None) -> int:
        """``SmsProvider.delete`` for ``content://sms``, ``content://sms/<id>`` and
        ``content://sms/conversations/<thread>``; fixes up threads as ``MmsSmsDatabaseHelper.updateThreads``.
        ``where`` is the caller's SQL selection, as the real provider takes it."""
        self.ensure_db()
        path = _path(uri)
        with self._transaction() as db:
            if path == []:
                count = db.execute(f"DELETE FROM sms WHERE {where or '1'}").rowcount
                if count:
                    self._update_threads(db, where or "1", ())
            elif len(path) == 1 and path[0].isdigit():
                row = db.execute("SELECT thread_id FROM sms WHERE _id=?", (int(path[0]),)).fetchone()
                count = db.execute("DELETE FROM sms WHERE _id=?", (int(path[0]),)).rowcount
                if row:
                    self._update_threads(db, "(thread_id = ?)", (row[0],))
            elif len(path) == 2 and path[0] == "conversations" and path[1].isdigit():
                extra = f" AND ({where})" if where else ""
                count = db.execute(f"DELETE FROM sms WHERE thread_id=?{extra}", (int(path[1]),)).rowcount
                self._update_threads(db, "(thread_id = ?)", (int(path[1]),))
            else:
                raise ValueError(f"Unknown URI {uri}")
        self._changed()
        return count

    @staticmethod
    def _update_threads(db: sqlite3.Connection, where: str, args: tuple) -> None:
        """``MmsSmsDatabaseHelper.updateThreads``: drop empty threads, recount and re-snippet the threads
        that still have messages matching ``where``."""
        dropped = db.execute("DELETE FROM threads WHERE _id NOT IN (SELECT DISTINCT thread_id FROM sms WHERE "
                             "thread_id IS NOT NULL UNION SELECT DISTINCT thread_id FROM pdu WHERE thread_id "
                             "IS NOT NULL)").rowcount
        if dropped:
            used = {int(t) for (ids,) in db.execute("SELECT recipient_ids FROM threads")
                    for t in (ids or "").split(" ") if t.isdigit()}
            for (address_id,) in db.execute("SELECT _id FROM canonical_addresses").fetchall():
                if address_id not in used:
                    db.execute("DELETE FROM canonical_addresses WHERE _id=?", (address_id,))
        touched = f"EXISTS (SELECT _id FROM sms WHERE thread_id = threads._id AND ({where}) LIMIT 1)"
        db.execute("UPDATE threads SET message_count = (SELECT COUNT(sms._id) FROM sms WHERE thread_id = "
                   "threads._id AND sms.type != 3) + (SELECT COUNT(pdu._id) FROM pdu WHERE thread_id = "
                   "threads._id AND (m_type=132 OR m_type=130 OR m_type=128) AND msg_box != 3) "
                   f"WHERE {touched}", args)
        latest = ("(SELECT {0} FROM (SELECT date * 1000 AS date, sub AS snippet, sub_cs AS snippet_cs, "
                  "thread_id FROM pdu WHERE thread_id = threads._id UNION SELECT date, body AS snippet, "
                  "0 AS snippet_cs, thread_id FROM sms WHERE thread_id = threads._id ORDER BY date DESC "
                  "LIMIT 1))")
        db.execute(f"UPDATE threads SET date = {latest.format('date')}, snippet = {latest.format('snippet')}, "
                   f"snippet_cs = {latest.format('snippet_cs')} WHERE {touched}", args)
        db.execute(f"UPDATE threads SET error = EXISTS (SELECT type FROM sms WHERE type={FAILED} AND "
                   f"thread_id = threads._id) WHERE {touched}", args)

    def mark_thread_read(self, thread_id: int) -> None:
        """Mark the thread's unread messages read and seen (``ThreadActivity`` → ``markMessageRead``)."""
        self.ensure_db()
        with self._transaction() as db:
            db.execute("UPDATE sms SET read=1, seen=1 WHERE thread_id=? AND read=0", (thread_id,))
        self._changed()

    # ----- reads ------------------------------------------------------------------------------------------
    def query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
              sort: str | None = None) -> list[dict]:
        """``SmsProvider.query``. ``where`` and ``sort`` are the caller's SQL selection and order, passed as
        the real provider passes them (run on a read-only connection); projection items must be columns."""
        self.ensure_db()
        path = _path(uri)
        if path == ["conversations"]:
            return self._query_conversations(projection, where, sort)
        box = self._box(uri)
        if box == MESSAGE_TYPE_ALL:
            clause, args = "", ()
        elif box is not None:
            clause, args = "type=?", (box,)
        elif path == ["undelivered"]:
            clause, args = "(type=? OR type=? OR type=?)", (OUTBOX, FAILED, QUEUED)
        elif len(path) == 1 and path[0].isdigit():
            clause, args = "(_id = ?)", (int(path[0]),)
        elif len(path) == 2 and path[0] in _BOXES and path[0] != "queued" and path[1].isdigit():
            clause, args = "(_id = ?)", (int(path[1]),)
        elif len(path) == 2 and path[0] == "conversations" and path[1].isdigit():
            clause, args = "thread_id = ?", (int(path[1]),)
        else:
            raise ValueError(f"Unknown URI {uri}")
        columns = ", ".join(_column(c) for c in projection) if projection else "*"
        return self._select(f"SELECT {columns} FROM sms", clause, args, where, sort or "date DESC")

    def _query_conversations(self, projection: list[str] | None, where: str | None,
                             sort: str | None) -> list[dict]:
        # SmsProvider's projection map; with no projection, SQLiteQueryBuilder returns the map's values in
        # Java HashMap order (snippet, thread_id, delta, msg_count), the null "delta" included.
        mapping = {"snippet": "sms.body AS snippet", "thread_id": "sms.thread_id AS thread_id",
                   "msg_count": "groups.msg_count AS msg_count"}
        if projection:
            unknown = [c for c in projection if c not in mapping]
            if unknown:
                raise ValueError(f"Invalid column {unknown[0]}")
            columns = ", ".join(mapping[c] for c in projection)
        else:
            columns = f"{mapping['snippet']}, {mapping['thread_id']}, null, {mapping['msg_count']}"
        tables = ("sms, (SELECT thread_id AS group_thread_id, MAX(date) AS group_date, COUNT(*) AS msg_count "
                  "FROM sms GROUP BY thread_id) AS groups")
        clause = "sms.thread_id=groups.group_thread_id AND sms.date=groups.group_date"
        return self._select(f"SELECT {columns} FROM {tables}", clause, (), where, sort)

    def _select(self, head: str, clause: str, args: tuple, where: str | None, sort: str | None) -> list[dict]:
        """Run ``head WHERE (clause) AND (where) ORDER BY sort`` as SQLiteQueryBuilder builds it."""
        if where:
            clause = f"({clause}) AND ({where})" if clause else where
        sql = head + (f" WHERE {clause}" if clause else "") + (f" ORDER BY {sort}" if sort else "")
        uri = self._phone.fs.host_path(self.db_path).as_uri() + "?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=5)) as db:
            db.create_function("PHONE_NUMBERS_EQUAL", -1, phone_numbers_equal, deterministic=True)
            cursor = db.execute(sql, args)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]

    @staticmethod
    def _box(uri: str) -> int | None:
        path = _path(uri)
        if path == []:
            return MESSAGE_TYPE_ALL
        if len(path) == 1 and path[0] in _BOXES:
            return _BOXES[path[0]]
        return None

    def messages(self, thread_id: int) -> list[dict]:
        """The thread's messages as the app lists them: by date (seconds) ascending, same-second messages in
        the provider's ``date DESC`` order (``getMessages`` then ``sortBy { it.date }``); read once per change of
        the database (``cached``)."""
        return self.cached(("messages", thread_id), lambda: self._messages(thread_id))

    def _messages(self, thread_id: int) -> list[dict]:
        with self.reading(rows=None) as db:
            cursor = db.execute("SELECT _id, body, type, address, date, read, thread_id, sub_id, status FROM sms "
                                "WHERE thread_id = ? AND address IS NOT NULL ORDER BY date DESC, _id DESC",
                                (thread_id,))
            names = [d[0] for d in cursor.description]
            rows = [dict(zip(names, row)) for row in cursor.fetchall()]
        return sorted(rows, key=lambda row: (row["date"] or 0) // 1000)

    def conversations(self) -> list[dict]:
        """Threads with messages, newest first, as ``getConversations`` builds them: ``thread_id``,
        ``snippet`` (the newest body when the thread has none), ``date`` (ms), ``read``, ``addresses``; read once
        per change of the database (``cached``)."""
        return self.cached("conversations", self._conversations)

    def _conversations(self) -> list[dict]:
        with self.reading(rows=None) as db:
            rows = db.execute("SELECT _id, snippet, date, read FROM threads WHERE message_count > ? "
                              "ORDER BY date DESC", (0,)).fetchall()
            latest = dict(db.execute("SELECT thread_id, body FROM sms AS s WHERE _id = (SELECT _id FROM sms "
                                     "WHERE thread_id = s.thread_id ORDER BY date DESC LIMIT 1)").fetchall())
        result = []
        for thread_id, snippet, date, read in rows:
            addresses = self.thread_addresses(thread_id)
            if addresses:
                result.append({"thread_id": thread_id, "snippet": snippet or latest.get(thread_id) or "",
                               "date": date or 0, "read": read == 1, "addresses": addresses})
        return result


def _path(uri: str) -> list[str]:
    """Path segments of a ``content://sms/...`` URI; raises ``ValueError`` for another authority."""
    if not uri.startswith("content://sms") or uri[len("content://sms"):][:1] not in ("", "/"):
        raise ValueError(f"Unknown URI {uri}")
    return [segment for segment in uri[len("content://sms"):].split("?")[0].split("/") if segment]


def _column(name: str) -> str:
    if name != "*" and not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"Invalid column {name}")
    return name
