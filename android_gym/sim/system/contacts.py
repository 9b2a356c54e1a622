"""The contacts provider (``com.android.providers.contacts``): ``contacts2.db`` and ``content://com.android.contacts``.

Facts from AOSP ``packages/providers/ContactsProvider`` at ``android-13.0.0_r1`` (DB version 1604):
``ContactsDatabaseHelper.java`` (tables, columns, indices, triggers, ``COMMON_MIME_TYPES``),
``ContactsProvider2.java`` (URIs, immediate delete of local raw contacts), ``DataRowHandlerForStructuredName``
/ ``NameSplitter.join`` (display names, ``display_name_alt``), ``DataRowHandlerForPhoneNumber`` (``data4``
normalized number, ``phone_lookup`` rows), ``ContactLookupKey`` (``0r<id>-<name>`` lookup keys) and
``LegacyApiSupport.java`` (``content://contacts/phones`` = ``view_v1_phones``: local-account phones joined with
``phone_lookup``); column names from ``ContactsContract``.

Deliberate differences, all behavioural:

* Aggregation is one ``contacts`` row per raw contact, created with it (AOSP's aggregator may join raw
  contacts with matching names or numbers into one contact); so a contact's ``has_phone_number`` is its raw
  contact's.
* Only the tables that hold contacts are created (``accounts``, ``contacts``, ``raw_contacts``, ``packages``,
  ``mimetypes``, ``data``, ``phone_lookup``, ``name_lookup``); ``name_lookup`` stays empty (its keys are ICU
  collation keys), as does the search index. The name part of lookup keys spells the letters and digits of the
  name in upper-case hex instead of ICU collation-key bytes.
* ``data4`` (E.164) is filled for North American numbers only (libphonenumber validates every region); names
  split as first word = given name, last word = family name, the rest middle (``NameSplitter`` also knows
  prefixes, suffixes and CJK names); ``phonebook_label`` is the upper-case first letter (bucket 1–26) or ``#``.
* Queries of ``raw_contacts``, ``data``, ``contacts`` and ``phone_lookup`` offer the commonly used columns of
  AOSP's views (listed in ``_VIEWS``), in that order, not every column of ``view_*``.
* Like AOSP the database uses WAL; every connection closes after its work, so SQLite checkpoints and removes
  the ``-wal`` file at once (Android does so after 30 s idle).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.system.telephony import phone_numbers_equal

T = TypeVar("T")

PROVIDER_PACKAGE = "com.android.providers.contacts"
DATABASE_VERSION = 1604
AUTHORITY, LEGACY_AUTHORITY = "com.android.contacts", "contacts"

# ContactsContract.CommonDataKinds.*.CONTENT_ITEM_TYPE
NAME = "vnd.android.cursor.item/name"
PHONE = "vnd.android.cursor.item/phone_v2"
EMAIL = "vnd.android.cursor.item/email_v2"
ORGANIZATION = "vnd.android.cursor.item/organization"
#: ``ContactsDatabaseHelper.COMMON_MIME_TYPES``, inserted in this order when the database opens.
COMMON_MIME_TYPES = (EMAIL, "vnd.android.cursor.item/im", "vnd.android.cursor.item/nickname", ORGANIZATION, PHONE,
                     "vnd.android.cursor.item/sip_address", NAME, "vnd.android.cursor.item/postal-address_v2",
                     "vnd.android.cursor.item/identity", "vnd.android.cursor.item/photo",
                     "vnd.android.cursor.item/group_membership", "vnd.android.cursor.item/note",
                     "vnd.android.cursor.item/contact_event", "vnd.android.cursor.item/website",
                     "vnd.android.cursor.item/relation", "vnd.com.google.cursor.item/contact_misc")

#: ``Phone.TYPE_*`` and their labels (``Phone.getTypeLabelResource``, frameworks/base core strings), in the order
#: the editor lists them (``BaseAccountType.addDataKindPhone``).
PHONE_TYPES = {2: "Mobile", 1: "Home", 3: "Work", 4: "Work Fax", 5: "Home Fax", 6: "Pager", 7: "Other", 0: "Custom",
               8: "Callback", 9: "Car", 10: "Company Main", 11: "ISDN", 12: "Main", 13: "Other Fax", 14: "Radio",
               15: "Telex", 16: "TTY TDD", 17: "Work Mobile", 18: "Work Pager", 19: "Assistant", 20: "MMS"}
TYPE_CUSTOM, TYPE_MOBILE = 0, 2
# DisplayNameSources
SOURCE_UNDEFINED, SOURCE_EMAIL, SOURCE_PHONE, SOURCE_ORGANIZATION, SOURCE_STRUCTURED_NAME = 0, 10, 20, 30, 40
FULL_NAME_STYLE_UNDEFINED, FULL_NAME_STYLE_WESTERN = 0, 1
PHONE_MIN_MATCH = 7  # PhoneNumberUtils.MIN_MATCH

_TIMES = ("x_times_contacted INTEGER NOT NULL DEFAULT 0, x_last_time_contacted INTEGER, "
          "times_contacted INTEGER NOT NULL DEFAULT 0, last_time_contacted INTEGER, ")
_DATA_COLUMNS = ", ".join(f"data{i} TEXT" for i in range(1, 16))

SCHEMA: tuple[str, ...] = (
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    """CREATE TABLE accounts (_id INTEGER PRIMARY KEY AUTOINCREMENT, account_name TEXT, account_type TEXT,
        data_set TEXT, sim_slot_index INTEGER, sim_ef_type INTEGER,
        ungrouped_visible INTEGER NOT NULL DEFAULT 0, should_sync INTEGER NOT NULL DEFAULT 1,
        x_is_default INTEGER NOT NULL DEFAULT 0)""",
    f"""CREATE TABLE contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
        name_raw_contact_id INTEGER REFERENCES raw_contacts(_id), photo_id INTEGER REFERENCES data(_id),
        photo_file_id INTEGER REFERENCES photo_files(_id), custom_ringtone TEXT,
        send_to_voicemail INTEGER NOT NULL DEFAULT 0, {_TIMES}starred INTEGER NOT NULL DEFAULT 0,
        pinned INTEGER NOT NULL DEFAULT 0, has_phone_number INTEGER NOT NULL DEFAULT 0, lookup TEXT,
        status_update_id INTEGER REFERENCES data(_id), contact_last_updated_timestamp INTEGER)""",
    "CREATE INDEX contacts_has_phone_index ON contacts (has_phone_number)",
    "CREATE INDEX contacts_name_raw_contact_id_index ON contacts (name_raw_contact_id)",
    "CREATE INDEX contacts_contact_last_updated_timestamp_index ON contacts(contact_last_updated_timestamp)",
    f"""CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id INTEGER REFERENCES accounts(_id), sourceid TEXT, backup_id TEXT,
        raw_contact_is_read_only INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 1,
        dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0,
        metadata_dirty INTEGER NOT NULL DEFAULT 0, contact_id INTEGER REFERENCES contacts(_id),
        aggregation_mode INTEGER NOT NULL DEFAULT 0, aggregation_needed INTEGER NOT NULL DEFAULT 1,
        custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0, {_TIMES}
        starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0, display_name TEXT,
        display_name_alt TEXT, display_name_source INTEGER NOT NULL DEFAULT 0, phonetic_name TEXT,
        phonetic_name_style TEXT, sort_key TEXT COLLATE PHONEBOOK, phonebook_label TEXT,
        phonebook_bucket INTEGER, sort_key_alt TEXT COLLATE PHONEBOOK, phonebook_label_alt TEXT,
        phonebook_bucket_alt INTEGER, name_verified INTEGER NOT NULL DEFAULT 0, sync1 TEXT, sync2 TEXT,
        sync3 TEXT, sync4 TEXT )""",
    "CREATE INDEX raw_contacts_contact_id_index ON raw_contacts (contact_id)",
    "CREATE INDEX raw_contacts_source_id_account_id_index ON raw_contacts (sourceid, account_id)",
    "CREATE UNIQUE INDEX raw_contacts_backup_id_account_id_index ON raw_contacts (backup_id, account_id)",
    "CREATE TABLE packages (_id INTEGER PRIMARY KEY AUTOINCREMENT, package TEXT NOT NULL)",
    "CREATE TABLE mimetypes (_id INTEGER PRIMARY KEY AUTOINCREMENT, mimetype TEXT NOT NULL)",
    "CREATE UNIQUE INDEX mime_type ON mimetypes (mimetype)",
    f"""CREATE TABLE data (_id INTEGER PRIMARY KEY AUTOINCREMENT, package_id INTEGER REFERENCES package(_id),
        mimetype_id INTEGER REFERENCES mimetype(_id) NOT NULL,
        raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, hash_id TEXT,
        is_read_only INTEGER NOT NULL DEFAULT 0, is_primary INTEGER NOT NULL DEFAULT 0,
        is_super_primary INTEGER NOT NULL DEFAULT 0, data_version INTEGER NOT NULL DEFAULT 0, {_DATA_COLUMNS},
        data_sync1 TEXT, data_sync2 TEXT, data_sync3 TEXT, data_sync4 TEXT,
        carrier_presence INTEGER NOT NULL DEFAULT 0,
        is_preferred_phone_account_migration_pending INTEGER NOT NULL DEFAULT 0,
        preferred_phone_account_component_name TEXT, preferred_phone_account_id TEXT )""",
    "CREATE INDEX data_raw_contact_id ON data (raw_contact_id)",
    "CREATE INDEX data_mimetype_data1_index ON data (mimetype_id,data1)",
    "CREATE INDEX data_hash_id_index ON data (hash_id)",
    """CREATE TABLE phone_lookup (data_id INTEGER REFERENCES data(_id) NOT NULL,
        raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, normalized_number TEXT NOT NULL,
        min_match TEXT NOT NULL)""",
    "CREATE INDEX phone_lookup_index ON phone_lookup (normalized_number,raw_contact_id,data_id)",
    "CREATE INDEX phone_lookup_min_match_index ON phone_lookup (min_match,raw_contact_id,data_id)",
    "CREATE INDEX phone_lookup_data_id_min_match_index ON phone_lookup (data_id, min_match)",
    """CREATE TABLE name_lookup (data_id INTEGER REFERENCES data(_id) NOT NULL,
        raw_contact_id INTEGER REFERENCES raw_contacts(_id) NOT NULL, normalized_name TEXT NOT NULL,
        name_type INTEGER NOT NULL, PRIMARY KEY (data_id, normalized_name, name_type))""",
    "CREATE INDEX name_lookup_raw_contact_id_index ON name_lookup (raw_contact_id)",
    # createContactsTriggers (the parts touching the tables above)
    """CREATE TRIGGER raw_contacts_deleted BEFORE DELETE ON raw_contacts BEGIN
        DELETE FROM data WHERE raw_contact_id=OLD._id;
        DELETE FROM contacts WHERE _id=OLD.contact_id
          AND (SELECT COUNT(*) FROM raw_contacts WHERE contact_id=OLD.contact_id)=1; END""",
    """CREATE TRIGGER raw_contacts_marked_deleted AFTER UPDATE ON raw_contacts BEGIN
        UPDATE raw_contacts SET version=OLD.version+1 WHERE _id=OLD._id AND NEW.deleted!= OLD.deleted; END""",
    """CREATE TRIGGER data_updated AFTER UPDATE ON data BEGIN
        UPDATE data SET data_version=OLD.data_version+1 WHERE _id=OLD._id;
        UPDATE raw_contacts SET version=version+1 WHERE _id=OLD.raw_contact_id; END""",
    """CREATE TRIGGER data_deleted BEFORE DELETE ON data BEGIN
        UPDATE raw_contacts SET version=version+1 WHERE _id=OLD.raw_contact_id;
        DELETE FROM phone_lookup WHERE data_id=OLD._id;
        DELETE FROM name_lookup WHERE data_id=OLD._id; END""",
    f"PRAGMA user_version = {DATABASE_VERSION}",
)

RAW_CONTACT_INSERT_COLUMNS = ("account_name", "account_type", "data_set", "sourceid", "backup_id", "starred",
                              "pinned", "custom_ringtone", "send_to_voicemail", "aggregation_mode", "dirty",
                              "sync1", "sync2", "sync3", "sync4")
DATA_INSERT_COLUMNS = ("raw_contact_id", "mimetype", "is_primary", "is_super_primary", "is_read_only",
                       *(f"data{i}" for i in range(1, 16)), "data_sync1", "data_sync2", "data_sync3",
                       "data_sync4")

_ACCOUNT = "a.account_name AS account_name, a.account_type AS account_type, a.data_set AS data_set"
_NAMES = ("display_name, display_name_alt, display_name_source, phonetic_name, phonetic_name_style, sort_key, "
          "sort_key_alt, phonebook_label, phonebook_bucket, phonebook_label_alt, phonebook_bucket_alt")

_VIEWS = {
    "raw_contacts": f"""SELECT r._id AS _id, r.contact_id AS contact_id, r.aggregation_mode AS aggregation_mode,
        r.raw_contact_is_read_only AS raw_contact_is_read_only, r.deleted AS deleted, {_NAMES},
        r.starred AS starred, r.pinned AS pinned, r.custom_ringtone AS custom_ringtone,
        r.send_to_voicemail AS send_to_voicemail, {_ACCOUNT}, r.sourceid AS sourceid, r.backup_id AS backup_id,
        r.version AS version, r.dirty AS dirty, r.sync1 AS sync1, r.sync2 AS sync2, r.sync3 AS sync3,
        r.sync4 AS sync4 FROM raw_contacts r JOIN accounts a ON r.account_id = a._id""",
    "contacts": f"""SELECT c._id AS _id, {_NAMES}, c.name_raw_contact_id AS name_raw_contact_id,
        c.photo_id AS photo_id, c.custom_ringtone AS custom_ringtone, c.send_to_voicemail AS send_to_voicemail,
        c.starred AS starred, c.pinned AS pinned, c.has_phone_number AS has_phone_number, c.lookup AS lookup,
        c.contact_last_updated_timestamp AS contact_last_updated_timestamp
        FROM contacts c JOIN raw_contacts r ON c.name_raw_contact_id = r._id""",
    "data": f"""SELECT d._id AS _id, m.mimetype AS mimetype, d.raw_contact_id AS raw_contact_id,
        d.is_read_only AS is_read_only, d.is_primary AS is_primary, d.is_super_primary AS is_super_primary,
        d.data_version AS data_version, {", ".join(f"d.data{i} AS data{i}" for i in range(1, 16))},
        d.data_sync1 AS data_sync1, d.data_sync2 AS data_sync2, d.data_sync3 AS data_sync3,
        d.data_sync4 AS data_sync4, r.contact_id AS contact_id, {_ACCOUNT},
        (SELECT display_name FROM raw_contacts WHERE _id = c.name_raw_contact_id) AS display_name,
        (SELECT display_name_alt FROM raw_contacts WHERE _id = c.name_raw_contact_id) AS display_name_alt,
        c.starred AS starred, c.has_phone_number AS has_phone_number, c.lookup AS lookup
        FROM data d JOIN mimetypes m ON d.mimetype_id = m._id JOIN raw_contacts r ON d.raw_contact_id = r._id
        JOIN accounts a ON r.account_id = a._id JOIN contacts c ON r.contact_id = c._id""",
    # LegacyApiSupport view_v1_phones (with PEOPLE_JOINS), local account only (no default account is set).
    "phones": f"""SELECT DISTINCT d._id AS _id, d.raw_contact_id AS person, d.is_primary AS isprimary,
        d.data1 AS number, d.data2 AS type, d.data3 AS label, _PHONE_NUMBER_STRIPPED_REVERSED(d.data1) AS number_key,
        name.data1 AS name, r.display_name AS display_name,
        trim(trim(ifnull(name.data7,' ')||' '||ifnull(name.data8,' '))||' '||ifnull(name.data9,' ')) AS phonetic_name,
        NULL AS notes, a.account_name AS account_name, a.account_type AS account_type,
        cast(0 as int) AS times_contacted, cast(0 as int) AS last_time_contacted,
        r.custom_ringtone AS custom_ringtone, r.send_to_voicemail AS send_to_voicemail, r.starred AS starred,
        NULL AS primary_organization, NULL AS primary_email,
        (SELECT _id FROM data WHERE raw_contact_id = r._id AND mimetype_id = d.mimetype_id AND is_primary)
          AS primary_phone
        FROM data d JOIN phone_lookup ON (d._id = phone_lookup.data_id)
        JOIN mimetypes m ON (m._id = d.mimetype_id) JOIN raw_contacts r ON (r._id = d.raw_contact_id)
        JOIN accounts a ON (r.account_id = a._id)
        LEFT OUTER JOIN data name ON (r._id = name.raw_contact_id
          AND (SELECT mimetype FROM mimetypes WHERE mimetypes._id = name.mimetype_id)='{NAME}')
        WHERE m.mimetype='{PHONE}' AND r.deleted=0 AND a.account_name IS NULL AND a.account_type IS NULL""",
}
_PHONE_LOOKUP_VIEW = """SELECT DISTINCT c._id AS _id, r.display_name AS display_name, c.lookup AS lookup,
    c.has_phone_number AS has_phone_number, c.starred AS starred, d.data1 AS number, d.data2 AS type,
    d.data3 AS label, d.data4 AS normalized_number, d._id AS data_id
    FROM phone_lookup p JOIN data d ON p.data_id = d._id JOIN raw_contacts r ON d.raw_contact_id = r._id
    JOIN contacts c ON r.contact_id = c._id
    WHERE p.min_match = ? AND PHONE_NUMBERS_EQUAL(d.data1, ?, 0) AND r.deleted = 0"""
#: The display name's sources (``DisplayNameSources``) by data kind.
_NAME_SOURCES = {NAME: SOURCE_STRUCTURED_NAME, ORGANIZATION: SOURCE_ORGANIZATION, PHONE: SOURCE_PHONE,
                 EMAIL: SOURCE_EMAIL}
#: Structured-name parts: given, family, prefix, middle, suffix.
_NAME_PARTS = ("data2", "data3", "data4", "data5", "data6")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEYPAD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "22233344455566677778889999")


# ----- PhoneNumberUtils and NameSplitter, as far as the provider needs them -----------------------------------
def normalize_number(number: str) -> str:
    """``PhoneNumberUtils.normalizeNumber``: digits (keypad letters converted) and a leading ``+``."""
    out = ""
    for char in number.upper().translate(_KEYPAD):
        if char.isdigit():
            out += char
        elif char == "+" and not out:
            out += char
    return out


def min_match(number: str) -> str:
    """``PhoneNumberUtils.toCallerIDMinMatch``: the last seven dialable characters, reversed."""
    dialable = [char for char in number if char.isdigit() or char in "*#+"]
    return "".join(reversed(dialable[-PHONE_MIN_MATCH:]))


def format_e164(number: str) -> str | None:
    """``PhoneNumberUtils.formatNumberToE164(number, "US")`` for North American Numbering Plan numbers (area
    code and exchange start with 2–9); ``None`` for anything libphonenumber would not call valid here."""
    digits = normalize_number(number)
    national = digits.removeprefix("+1") if digits.startswith("+") else digits
    if not digits.startswith("+") and len(national) == 11 and national.startswith("1"):
        national = national[1:]
    if len(national) == 10 and national.isdigit() and national[0] in "23456789" and national[3] in "23456789":
        return "+1" + national
    return None


def split_name(display_name: str) -> dict[str, str | None]:
    """Structured-name columns for a full name: given (``data2``), middle (``data5``) and family (``data3``)."""
    words = display_name.split()
    if not words:
        return {"data2": None, "data5": None, "data3": None}
    return {"data2": words[0], "data5": " ".join(words[1:-1]) or None,
            "data3": words[-1] if len(words) > 1 else None}


def join_name(prefix: str | None, part1: str | None, part2: str | None, part3: str | None, suffix: str | None,
              comma_after_part1: bool) -> str | None:
    """``NameSplitter.join`` for Western names: spaces between the non-empty parts, an optional comma after
    the first part, a comma before the suffix; a lone part is returned as is."""
    parts = [(p or "").strip() for p in (prefix, part1, part2, part3)]
    suffix = (suffix or "").strip()
    present = [p for p in parts if p] + ([suffix] if suffix else [])
    if len(present) <= 1:
        return present[0] if present else None
    text = ""
    for index, part in enumerate(parts):
        if part:
            separator = "," if index == 2 and comma_after_part1 and (parts[0] or parts[1]) else ""
            text += (separator + " " if text else "") + part
    return f"{text}, {suffix}" if suffix else text


def phonebook_label(sort_key: str | None) -> tuple[str, int]:
    """``ContactLocaleUtils`` label and bucket for an English locale: ``A``–``Z`` are buckets 1–26."""
    first = (sort_key or "").strip()[:1].upper()
    if "A" <= first <= "Z":
        return first, ord(first) - ord("A") + 1
    return "#", 27


def lookup_key(raw_contact_id: int, display_name: str | None) -> str:
    """``ContactLookupKey.appendToLookupKey`` for a local raw contact without a source id."""
    letters = "".join(filter(str.isalnum, display_name or "")).upper()
    return f"0r{raw_contact_id}-" + "".join(map("{:X}".format, map(ord, letters)))


def phone_type_label(phone_type: int | str | None, label: str | None) -> str:
    """``Phone.getTypeLabel``: the custom label for ``TYPE_CUSTOM`` (when given), else the type's label."""
    kind = int(phone_type) if phone_type not in (None, "") else TYPE_CUSTOM
    if kind == TYPE_CUSTOM and label:
        return label
    return PHONE_TYPES.get(kind, PHONE_TYPES[TYPE_CUSTOM])


def _phonebook(a: str, b: str) -> int:
    """The ``PHONEBOOK`` collation (an ICU collator on the device): case-insensitive order."""
    return (a.lower() > b.lower()) - (a.lower() < b.lower())


def _stripped_reversed(number: str | None) -> str | None:
    """``_PHONE_NUMBER_STRIPPED_REVERSED``: the dialable characters of the number, reversed."""
    return None if number is None else "".join(reversed([c for c in number if c.isdigit() or c in "*#+"]))


def _display_name(rows: Iterable[tuple]) -> tuple[int, str | None, str | None]:
    """``(display_name_source, display_name, display_name_alt)`` of a raw contact from its data rows ``(mimetype,
    data1 … data6)`` (super-primary, then primary rows first, then by id): the first row with a ``data1`` of the best
    source among structured name, organization, phone and email."""
    best: tuple[int, str | None, str | None] = (SOURCE_UNDEFINED, None, None)
    for mimetype, data1, data2, data3, prefix, middle, suffix in rows:
        source = _NAME_SOURCES.get(mimetype, SOURCE_UNDEFINED)
        if source <= best[0] or not data1:
            continue
        if mimetype == NAME:
            best = (source, join_name(prefix, data2, middle, data3, suffix, False) or data1,
                    join_name(prefix, data3, data2, middle, suffix, True) or data1)
        else:
            best = (source, data1, data1)
    return best


def _column(name: str) -> str:
    if name != "*" and not _IDENTIFIER.fullmatch(name):
        raise ValueError(f"Invalid column {name}")
    return name


class ContactsProvider(SqliteProvider):
    """``com.android.providers.contacts``: owns ``contacts2.db`` (WAL) and answers ``content://com.android.contacts``
    and legacy ``content://contacts`` requests."""

    db_path = "/data/data/com.android.providers.contacts/databases/contacts2.db"
    schema = SCHEMA
    journal_mode = "WAL"

    def on_create(self, db: sqlite3.Connection) -> None:
        """The common MIME types in place (``onOpen``)."""
        db.executemany("INSERT INTO mimetypes (mimetype) VALUES (?)", [(m,) for m in COMMON_MIME_TYPES])

    def on_connect(self, db: sqlite3.Connection) -> None:
        """The provider's collation and SQL functions."""
        db.create_collation("PHONEBOOK", _phonebook)
        db.create_function("PHONE_NUMBERS_EQUAL", -1, phone_numbers_equal, deterministic=True)
        db.create_function("_PHONE_NUMBER_STRIPPED_REVERSED", 1, _stripped_reversed, deterministic=True)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """The base transaction on a database that exists; apps redraw afterwards."""
        self.ensure_db()
        with super()._transaction() as db:
            yield db
        self._phone.data_changed()

    def write_batch(self, write: Callable[[sqlite3.Connection], T]) -> T:
        """The base's batch of writes on a database that exists; apps redraw afterwards (as ``_transaction``)."""
        self.ensure_db()
        result = super().write_batch(write)
        self._phone.data_changed()
        return result

    @contextmanager
    def reading(self, rows: type | None = sqlite3.Row) -> Iterator[sqlite3.Connection]:
        """The base's query-only connection, once the bookkeeping this thread's line put off is written
        (``_data_changed``): a read sees the rows as if every write had done its own."""
        self._write_changes()
        with super().reading(rows) as db:
            yield db

    def _write_changes(self) -> None:
        """The bookkeeping put off by this thread's line, written into its held transaction."""
        if getattr(self._thread, "changed", None) and self._in_held_transaction():
            self.before_commit(self._thread.held[1])

    def before_commit(self, db: sqlite3.Connection) -> None:
        """The bookkeeping the line's data writes put off (``_data_changed``), once per raw contact, in the order of
        their last writes."""
        changed, self._thread.changed = getattr(self._thread, "changed", {}), {}
        if changed:
            self._update_aggregates(db, changed)

    # ----- writes -----------------------------------------------------------------------------------------
    def insert(self, uri: str, values: dict[str, Any]) -> int:
        """``ContactsProvider2.insert`` into ``raw_contacts`` or ``data``; returns the new row's ``_id``."""
        path = _path(uri, AUTHORITY)
        if path == ["raw_contacts"]:
            return self.insert_raw_contact(values)
        if path == ["data"]:
            values = dict(values)
            if values.get("raw_contact_id") is None:
                raise ValueError("raw_contact_id is required")
            if not values.get("mimetype"):
                raise ValueError("mimetype is required")
            return self.insert_data(int(values.pop("raw_contact_id")), str(values.pop("mimetype")), values)
        raise ValueError(f"Unknown URI {uri}")

    def insert_raw_contact(self, values: dict[str, Any] | None = None) -> int:
        """A raw contact in the given account (the local account when both account fields are null), marked
        dirty, with its own aggregate ``contacts`` row."""
        values = dict(values or {})
        _check_columns(values, RAW_CONTACT_INSERT_COLUMNS, "raw_contacts")
        account = (values.pop("account_name", None), values.pop("account_type", None), values.pop("data_set", None))
        if (account[0] is None) != (account[1] is None):
            raise ValueError("Must specify both or neither of ACCOUNT_NAME and ACCOUNT_TYPE")
        values.setdefault("dirty", 1)
        with self._transaction() as db:
            return self._insert_raw_contact(db, account, values)

    def _insert_raw_contact(self, db: sqlite3.Connection, account: tuple[str | None, str | None, str | None],
                            values: dict[str, Any]) -> int:
        """``insert_raw_contact``'s rows, in ``db``'s transaction, of checked ``values`` in ``account`` (name, type,
        data set); the new raw contact's ``_id``."""
        values = {**values, "account_id": self._account_id(db, *account)}
        columns = list(values)
        raw_id = db.execute(f"INSERT INTO raw_contacts ({', '.join(columns)}) VALUES "
                            f"({', '.join('?' * len(columns))})", [values[c] for c in columns]).lastrowid
        contact_id = db.execute("INSERT INTO contacts (name_raw_contact_id, starred, lookup, "
                                "contact_last_updated_timestamp) VALUES (?, ?, ?, ?)",
                                (raw_id, int(values.get("starred") or 0), lookup_key(raw_id, None),
                                 self._phone.clock.now_ms())).lastrowid
        db.execute("UPDATE raw_contacts SET contact_id=?, aggregation_needed=0 WHERE _id=?", (contact_id, raw_id))
        return raw_id

    def insert_data(self, raw_contact_id: int, mimetype: str, values: dict[str, Any]) -> int:
        """A data row of ``mimetype`` (the data row handlers' work included: name components, normalized
        number and ``phone_lookup``, the raw contact's display name, ``has_phone_number``)."""
        _check_columns(values, DATA_INSERT_COLUMNS, "data")
        with self._transaction() as db:
            return self._insert_data(db, raw_contact_id, mimetype, values)

    def _insert_data(self, db: sqlite3.Connection, raw_contact_id: int, mimetype: str, values: dict[str, Any]) -> int:
        """``insert_data``'s rows, in ``db``'s transaction, of checked ``values``; the new row's ``_id``."""
        raw = db.execute("SELECT r.contact_id, m._id FROM raw_contacts r LEFT JOIN mimetypes m ON m.mimetype = ? "
                         "WHERE r._id = ?", (mimetype, raw_contact_id)).fetchone()
        if raw is None:
            raise ValueError(f"Raw contact {raw_contact_id} does not exist")
        contact_id, mimetype_id = raw
        if mimetype_id is None:
            mimetype_id = db.execute("INSERT INTO mimetypes (mimetype) VALUES (?)", (mimetype,)).lastrowid
        values = _handle(mimetype, values)
        values.update(raw_contact_id=raw_contact_id, mimetype_id=mimetype_id)
        columns = list(values)
        [(data_id, number, e164)] = db.execute(
            f"INSERT INTO data ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}) "
            "RETURNING _id, data1, data4", [values[c] for c in columns]).fetchall()
        if mimetype == PHONE:  # a new row (ids are never reused): no lookup rows to replace
            self._add_phone_lookup(db, raw_contact_id, data_id, number, e164)
        self._data_changed(db, raw_contact_id, contact_id)
        return data_id

    def add_contacts(self, contacts: Sequence[tuple[str, str]]) -> list[int]:
        """Device-local contacts ``(name, mobile number)``, in order, as ``validators.add_contacts``' line of ``content
        insert`` commands writes them (a local raw contact each, then each one's structured name and mobile phone,
        ``insert_raw_contact`` and ``insert_data``'s rows, ids and aggregates), in one transaction, as that line's
        (``write_batch``); returns the raw contacts' ``_id``s."""
        def insert(db: sqlite3.Connection) -> list[int]:
            raw_ids = [self._insert_raw_contact(db, (None, None, None), {"dirty": 1}) for _ in contacts]
            for raw_id, (name, number) in zip(raw_ids, contacts):
                self._insert_data(db, raw_id, NAME, {"data1": name})
                self._insert_data(db, raw_id, PHONE, {"data1": number, "data2": TYPE_MOBILE})
            return raw_ids

        return self.write_batch(insert)

    def update_data(self, data_id: int, values: dict[str, Any]) -> int:
        """Change columns of one data row (``content update`` of ``data/<id>``); returns the rows changed."""
        values = dict(values)
        _check_columns(values, DATA_INSERT_COLUMNS[2:], "data")
        with self._transaction() as db:
            row = db.execute("SELECT d.raw_contact_id, m.mimetype FROM data d JOIN mimetypes m ON "
                             "d.mimetype_id = m._id WHERE d._id=?", (data_id,)).fetchone()
            if row is None:
                return 0
            raw_contact_id, mimetype = row
            if mimetype == NAME and set(values) & set(_NAME_PARTS) and "data1" not in values:
                # structured parts changed: the full name is rebuilt from the stored and the new parts
                current = db.execute(f"SELECT {', '.join(_NAME_PARTS)} FROM data WHERE _id=?", (data_id,)).fetchone()
                values = {**dict(zip(_NAME_PARTS, current)), **values, "data1": None}
            values = _handle(mimetype, values)
            [(number, e164)] = db.execute(f"UPDATE data SET {', '.join(f'{c}=?' for c in values)} WHERE _id=? "
                                          "RETURNING data1, data4", [*values.values(), data_id]).fetchall()
            if mimetype == PHONE:
                db.execute("DELETE FROM phone_lookup WHERE data_id=?", (data_id,))
                self._add_phone_lookup(db, raw_contact_id, data_id, number, e164)
            self._data_changed(db, raw_contact_id)
        return 1

    def delete(self, uri: str, where: str | None = None) -> int:
        """``ContactsProvider2.delete`` of ``raw_contacts[/<id>]``, ``contacts[/<id>]`` or ``data[/<id>]``:
        local raw contacts go at once (with their data and, when it was their only one, their contact)."""
        self._write_changes()  # the caller's selection may name the display names
        with self._transaction() as db:
            table, ids = self._selected(db, uri, ("raw_contacts", "contacts", "data"), where)
            if table == "data":
                for data_id in ids:
                    raw_contact_id = db.execute("SELECT raw_contact_id FROM data WHERE _id=?", (data_id,)).fetchone()[0]
                    db.execute("DELETE FROM data WHERE _id=?", (data_id,))
                    self._data_changed(db, raw_contact_id)
                return len(ids)
            if table == "contacts":
                ids = [row[0] for contact_id in ids
                       for row in db.execute("SELECT _id FROM raw_contacts WHERE contact_id=?", (contact_id,))]
            for raw_contact_id in ids:
                db.execute("DELETE FROM raw_contacts WHERE _id=?", (raw_contact_id,))
            return len(ids)

    def update(self, uri: str, values: dict[str, Any], where: str | None = None) -> int:
        """``ContactsProvider2.update`` of ``data[/<id>]`` rows; returns how many changed."""
        with self.reading(rows=None) as db:
            _, ids = self._selected(db, uri, ("data",), where)
        return sum(self.update_data(data_id, values) for data_id in ids)

    @staticmethod
    def _selected(db: sqlite3.Connection, uri: str, tables: tuple[str, ...],
                  where: str | None) -> tuple[str, list[int]]:
        """The table a ``<table>[/<id>]`` URI names (one of ``tables``) and the ids of its rows that match the
        URI's id and the caller's ``where``."""
        path = _path(uri, AUTHORITY)
        if not path or path[0] not in tables or len(path) > 2 or (len(path) == 2 and not path[1].isdigit()):
            raise ValueError(f"Unknown URI {uri}")
        clause = f"_id = {int(path[1])}" if len(path) == 2 else "1"
        if where:
            clause = f"({clause}) AND ({where})"
        return path[0], [row[0] for row in db.execute(f"SELECT _id FROM ({_VIEWS[path[0]]}) WHERE {clause}")]

    def _account_id(self, db: sqlite3.Connection, name: str | None, kind: str | None, data_set: str | None) -> int:
        """``getOrCreateAccountIdInTransaction``."""
        row = db.execute("SELECT _id FROM accounts WHERE account_name IS ? AND account_type IS ? AND data_set IS ?",
                         (name, kind, data_set)).fetchone()
        if row:
            return row[0]
        return db.execute("INSERT INTO accounts (account_name, account_type, data_set) VALUES (?, ?, ?)",
                          (name, kind, data_set)).lastrowid

    @staticmethod
    def _add_phone_lookup(db: sqlite3.Connection, raw_contact_id: int, data_id: int, number: str | None,
                          e164: str | None) -> None:
        """The ``phone_lookup`` rows of the phone data row ``data_id`` (``data1`` the ``number``, ``data4`` its
        ``e164`` form as stored): its normalized number and E.164 form."""
        normalized = normalize_number(number or "")
        if normalized:
            db.executemany("INSERT INTO phone_lookup (data_id, raw_contact_id, normalized_number, min_match) "
                           "VALUES (?, ?, ?, ?)", [(data_id, raw_contact_id, lookup, min_match(lookup))
                                                   for lookup in dict.fromkeys(n for n in (normalized, e164) if n)])

    def _data_changed(self, db: sqlite3.Connection, raw_contact_id: int, contact_id: int | None = None) -> None:
        """After a data row of ``raw_contact_id`` (whose aggregate is ``contact_id``, looked up if not given)
        changed: ``_update_aggregates`` now, or, while this thread's line holds one transaction (``holding``), before
        its next read or its commit (``before_commit``), once for each raw contact the line wrote rows of, with
        the time of its last, as ContactsProvider2 leaves display names and aggregation to the end of its
        transaction (``beforeTransactionCommit``): no reader can tell the difference, and a raw contact's name and
        phone cost its four statements once instead of twice."""
        if contact_id is None:
            contact_id = db.execute("SELECT contact_id FROM raw_contacts WHERE _id=?", (raw_contact_id,)).fetchone()[0]
        changed = {raw_contact_id: (contact_id, self._phone.clock.now_ms())}
        if not self._batching():
            self._update_aggregates(db, changed)
            return
        pending = self._thread.__dict__.setdefault("changed", {})
        pending.pop(raw_contact_id, None)  # moved last: of raw contacts sharing an aggregate, the last written wins
        pending.update(changed)

    @staticmethod
    def _update_aggregates(db: sqlite3.Connection, changed: dict[int, tuple[int, int]]) -> None:
        """For each raw contact in ``changed`` (to its aggregate and the time it changed), in order:
        ``updateRawContactDisplayName`` (the best source among structured name, organization, phone and email; the
        sort keys and phonebook labels follow, and the raw contact is marked dirty in the same update), then its
        aggregate's ``has_phone_number`` (whether a phone row has a number: the aggregate's only raw contact's rows,
        read once for both), lookup key and update time."""
        for raw_contact_id, (contact_id, time) in changed.items():
            rows = db.execute("SELECT m.mimetype, d.data1, d.data2, d.data3, d.data4, d.data5, d.data6 FROM data d "
                              "JOIN mimetypes m ON d.mimetype_id = m._id WHERE d.raw_contact_id=? ORDER BY "
                              "d.is_super_primary DESC, d.is_primary DESC, d._id", (raw_contact_id,)).fetchall()
            source, name, alt = _display_name(rows)
            db.execute("UPDATE raw_contacts SET display_name=?, display_name_alt=?, display_name_source=?, sort_key=?, "
                       "sort_key_alt=?, phonebook_label=?, phonebook_bucket=?, phonebook_label_alt=?, "
                       "phonebook_bucket_alt=?, dirty=1 WHERE _id=?",
                       (name, alt, source, name, alt, *(phonebook_label(name) if name else (None, None)),
                        *(phonebook_label(alt) if alt else (None, None)), raw_contact_id))
            has_phone = int(any(mimetype == PHONE and data1 not in (None, "") for mimetype, data1, *_ in rows))
            db.execute("UPDATE contacts SET has_phone_number=?, lookup=?, contact_last_updated_timestamp=? WHERE _id=?",
                       (has_phone, lookup_key(raw_contact_id, name), time, contact_id))

    # ----- reads ------------------------------------------------------------------------------------------
    def query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
              sort: str | None = None) -> list[dict]:
        """``ContactsProvider2.query`` / ``LegacyApiSupport.query``; ``where`` and ``sort`` are the caller's
        SQL, run on a query-only connection, and the URI's ``limit`` parameter (a non-negative integer, else
        ignored: ``getLimit``) caps the rows. Without them the SQL is fixed by the URI and the projection's column
        names, and the rows are read once per change of the committed database (``cached``: a task's check asks
        the same after every step), unless this thread's command line holds writes not yet committed."""
        authority = uri.removeprefix("content://").split("/", 1)[0]
        path = _path(uri, authority)
        args: tuple = ()
        if authority == LEGACY_AUTHORITY:
            if path != ["phones"] and not (len(path) == 2 and path[0] == "phones" and path[1].isdigit()):
                raise ValueError(f"Unknown URI {uri}")
            view, clause = _VIEWS["phones"], f"_id = {int(path[1])}" if len(path) == 2 else ""
        elif path and path[0] == "phone_lookup" and len(path) == 2:
            number = unquote(path[1])
            view, clause, args = _PHONE_LOOKUP_VIEW, "", (min_match(normalize_number(number)), number)
        elif path[:2] == ["data", "phones"] and len(path) == 2:
            view, clause = _VIEWS["data"], f"mimetype = '{PHONE}'"
        elif path and path[0] in ("raw_contacts", "contacts", "data") and len(path) <= 2:
            if len(path) == 2 and not path[1].isdigit():
                raise ValueError(f"Unknown URI {uri}")
            view, clause = _VIEWS[path[0]], f"_id = {int(path[1])}" if len(path) == 2 else ""
        else:
            raise ValueError(f"Unknown URI {uri}")
        if where:
            clause = f"({clause}) AND ({where})" if clause else where
        columns = ", ".join(_column(c) for c in projection) if projection else "*"
        limit = _limit(uri)
        sql = f"SELECT {columns} FROM ({view})" + (f" WHERE {clause}" if clause else "") + (
            f" ORDER BY {sort}" if sort else "") + (f" LIMIT {limit}" if limit is not None else "")
        if where is None and sort is None and self._reads_snapshot():  # fixed SQL on the committed bytes
            return self.cached(("query", sql, args), lambda: self._rows(sql, args))
        return self._rows(sql, args)

    def _rows(self, sql: str, args: tuple) -> list[dict]:
        """The rows of ``sql`` as dicts."""
        with self.reading(rows=None) as db:
            cursor = db.execute(sql, args)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row)) for row in cursor.fetchall()]

    def lookup_names(self, numbers: Iterable[str]) -> dict[str, str]:
        """Display names of the contacts matching each number (``PhoneLookup.CONTENT_FILTER_URI``, first
        match); numbers without a contact are left out. Read once per change of the database (``cached``)."""
        wanted = tuple(dict.fromkeys(filter(None, numbers)))
        return self.cached(("names", wanted), lambda: self._lookup_names(wanted))

    def _lookup_names(self, numbers: tuple[str, ...]) -> dict[str, str]:
        names: dict[str, str] = {}
        with self.reading(rows=None) as db:
            for number in numbers:
                row = db.execute(f"SELECT display_name FROM ({_PHONE_LOOKUP_VIEW})",
                                 (min_match(normalize_number(number)), number)).fetchone()
                if row and row[0]:
                    names[number] = row[0]
        return names


def _path(uri: str, authority: str) -> list[str]:
    """Path segments of ``content://<authority>/...`` (query string dropped); ``ValueError`` otherwise."""
    prefix = f"content://{authority}"
    if not uri.startswith(prefix) or uri[len(prefix):][:1] not in ("", "/", "?"):
        raise ValueError(f"Unknown URI {uri}")
    return [segment for segment in uri[len(prefix):].split("?")[0].split("/") if segment]


def _limit(uri: str) -> int | None:
    """``ContactsProvider2.getLimit``: the URI's ``limit`` query parameter if it is a non-negative integer."""
    if "?" not in uri:
        return None
    value = parse_qs(urlsplit(uri).query).get("limit", [None])[0]
    return int(value) if value is not None and value.isascii() and value.isdigit() else None


def _check_columns(values: dict[str, Any], allowed: tuple[str, ...], table: str) -> None:
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise sqlite3.OperationalError(f"table {table} has no column named {unknown[0]}")


def _handle(mimetype: str, values: dict[str, Any]) -> dict[str, Any]:
    """The data row handlers' fix-ups of inserted/updated values: structured-name parts from the full name (or
    the full name from the parts) and the name style; the E.164 form of a phone number in ``data4``."""
    values = dict(values)
    if mimetype == NAME:
        if values.get("data1") and not any(values.get(p) for p in _NAME_PARTS):
            values.update(split_name(str(values["data1"])))
        elif not values.get("data1") and any(values.get(p) for p in _NAME_PARTS):
            values["data1"] = join_name(values.get("data4"), values.get("data2"), values.get("data5"),
                                        values.get("data3"), values.get("data6"), False)
        latin = str(values.get("data1") or "").isascii()
        values["data10"] = FULL_NAME_STYLE_WESTERN if values.get("data1") and latin else FULL_NAME_STYLE_UNDEFINED
        values["data11"] = 0
    elif mimetype == PHONE and "data1" in values and "data4" not in values:
        values["data4"] = format_e164(str(values["data1"])) if values["data1"] is not None else None
    return values
