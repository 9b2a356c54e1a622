"""``SqliteProvider``: a new database copied from the image made once per process is byte for byte the one the
provider's ``onCreate`` makes on a connection to it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.provider import SqliteProvider


def providers(phone: Phone) -> list[SqliteProvider]:
    """The phone's own providers and those its apps keep."""
    found = [phone.contacts, phone.telephony]
    for name in phone.packages.names():
        app = phone.packages.get(name)
        found += [value for value in vars(app).values() if isinstance(value, SqliteProvider)]
    return found


@pytest.fixture
def phone():
    """A new phone for each test (~10 ms), so no test sees another's writes."""
    phone = Phone()
    yield phone
    phone.close()


def test_the_phone_has_its_providers(phone):
    assert {type(provider).__name__ for provider in providers(phone)} >= {
        "ContactsProvider", "Telephony", "EventsDatabase", "TasksDatabase", "ExpenseDatabase", "JoplinStore"}


def test_a_new_database_from_the_image_is_the_one_on_create_makes(phone):
    for provider in providers(phone):
        host = phone.fs.host_path(provider.db_path)
        host.unlink()
        provider.ensure_db()
        made = host.read_bytes()
        provider.created_alike = not provider.created_alike  # the other way round
        try:
            host.unlink()
            provider.ensure_db()
            assert host.read_bytes() == made, type(provider).__name__
        finally:
            del provider.created_alike


def _files(phone: Phone, provider: SqliteProvider) -> dict[str, int]:
    """The provider's directory: each entry's modification time, and the directory's own."""
    folder = phone.fs.host_path(provider.db_path).parent
    return {entry.name: entry.stat().st_mtime_ns for entry in [folder, *folder.iterdir()]}


def _count(provider: SqliteProvider) -> int:
    with provider.reading(rows=None) as db:
        return db.execute("SELECT COUNT(*) FROM raw_contacts").fetchone()[0]


def test_reads_see_every_committed_write_and_leave_no_trace(phone):
    """Reads go to one reader of a private copy of the file's bytes, copied again when they change: it makes no
    ``-wal``/``-shm`` and touches no file; a write by another connection, still in its ``-wal`` or checkpointed, is
    read, and the reader keeps its connection (and the schema it parsed) while the schema stays the same."""
    contacts = phone.contacts
    before, files = _count(contacts), _files(phone, contacts)
    with contacts.reading() as first:
        pass
    assert _count(contacts) == before and _files(phone, contacts) == files
    with contacts.reading() as again:
        assert again is first  # the same bytes: the same reader
    host = phone.fs.host_path(contacts.db_path)
    other = sqlite3.connect(host)  # another process's connection, in the file's WAL mode
    try:
        other.execute("INSERT INTO raw_contacts (display_name) VALUES ('Other')")
        other.commit()
        assert host.with_name(host.name + "-wal").exists()
        assert _count(contacts) == before + 1  # in the -wal only: read through a connection that sees it
    finally:
        other.close()  # the last connection checkpoints the -wal into the file
    assert _count(contacts) == before + 1
    with contacts.reading() as later:
        assert later is first  # new bytes, the same schema: the same reader, reading them


def _database(path: Path, statements: str) -> bytes:
    """The bytes of a database file at ``path`` that ``statements`` made."""
    made = sqlite3.connect(path)
    made.executescript(statements)
    made.close()
    return path.read_bytes()


def test_the_reader_of_a_file_replaced_by_one_of_another_schema_reads_the_new_one(phone, tmp_path):
    """A file replaced by a database whose schema differs but whose schema cookie is the same (each made by one
    ``CREATE``): SQLite would keep the schema it parsed, so the reader gets a new connection, which reads the new
    tables."""
    telephony = phone.telephony
    host = phone.fs.host_path(telephony.db_path)
    host.write_bytes(_database(tmp_path / "first.db", "CREATE TABLE first (a); INSERT INTO first VALUES (1);"))
    with telephony.reading(rows=None) as db:
        assert db.execute("SELECT * FROM first").fetchall() == [(1,)]
    host.write_bytes(_database(tmp_path / "second.db", "CREATE TABLE second (b); INSERT INTO second VALUES (2), (3);"))
    with telephony.reading(rows=None) as db:
        assert db.execute("SELECT * FROM second").fetchall() == [(2,), (3,)]
        with pytest.raises(sqlite3.OperationalError, match="no such table: first"):
            db.execute("SELECT * FROM first")
    host.unlink()
    telephony.ensure_db()  # the provider's own database again


def _raw_contact_ids(phone: Phone) -> list[int]:
    return [row["_id"] for row in phone.contacts.query("content://com.android.contacts/raw_contacts", ["_id"])]


def test_a_line_s_content_writes_are_committed_before_another_command_reads_the_database(phone):
    """``content`` writes of one command line share a transaction (WAL mode), which is committed before any other
    command runs: ``sqlite3`` in the same line sees them, and the line ends with them committed and checkpointed."""
    phone.run("pm clear com.android.providers.contacts")
    insert = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
             "--bind account_type:n:"
    count = f"sqlite3 {phone.contacts.db_path} 'SELECT COUNT(*) FROM raw_contacts'"
    result = phone.run(f"{insert} && {insert} && {count} && {insert} && {count}")
    assert (result.stdout, result.exit_code) == (b"2\n3\n", 0)
    folder = phone.fs.host_path(phone.contacts.db_path).parent
    assert sorted(path.name for path in folder.iterdir()) == ["contacts2.db"]
    assert _raw_contact_ids(phone) == [1, 2, 3]


def test_a_line_reads_the_committed_bytes_until_it_writes_then_its_own_writes(phone):
    """A line's ``content query`` before any write of the line goes to the reader of the committed bytes (no
    connection, no side files); after the line's first write, it reads through the held connection, which sees the
    write not yet settled."""
    phone.run("pm clear com.android.providers.contacts")
    insert = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
             "--bind account_type:n:"
    query = "content query --uri content://com.android.contacts/raw_contacts --projection _id"
    phone.run(insert)
    with phone.contacts.reading():
        pass
    result = phone.run(f"{query} && {insert} && {query}")
    assert result.stdout.decode().splitlines() == ["Row: 0 _id=1", "Row: 0 _id=1", "Row: 1 _id=2"]
    with phone.contacts.reading() as later:
        assert later.execute("SELECT COUNT(*) FROM raw_contacts").fetchone()[0] == 2  # the line's write is read
    with phone.contacts.holding():
        with phone.contacts.reading() as first_read:
            assert first_read is later and phone.contacts._thread.held is None  # no connection opened for it


def test_a_held_write_that_fails_is_undone_alone(phone):
    """Each write in the held transaction is a savepoint: one that raises leaves the others, before and after."""
    phone.run("pm clear com.android.providers.contacts")
    contacts = phone.contacts
    with contacts.holding():
        contacts.insert_raw_contact()
        with pytest.raises(RuntimeError), contacts._transaction() as db:
            db.execute("INSERT INTO raw_contacts (display_name) VALUES ('half done')")
            raise RuntimeError("the write fails after a statement")
        contacts.insert_raw_contact()
    assert _raw_contact_ids(phone) == [1, 2]  # the failed write's row and its AUTOINCREMENT step are gone


def test_a_batch_in_a_line_that_holds_a_connection_joins_its_transaction(phone):
    """``write_batch`` where this thread holds a connection in its transaction (a line's earlier write) writes there,
    not on the kept copy of the committed bytes (which lack the line's writes): its rows follow the line's, and the
    line's commit carries both."""
    phone.run("pm clear com.android.providers.contacts")
    contacts = phone.contacts
    with contacts.holding():
        contacts.insert_raw_contact()
        assert contacts.add_contacts([("Ann Lee", "5550100")]) == [2]
        assert contacts._in_held_transaction()
    assert _raw_contact_ids(phone) == [1, 2]
    assert contacts.lookup_names(["5550100"]) == {"5550100": "Ann Lee"}


def test_the_files_a_line_s_held_writes_change_carry_device_time(phone):
    """The held transaction notes its files' times at its first write; what changed by its commit (the ``-wal``, the
    ``-shm``, the folder that gained them) carries device time, what it left alone (the database) keeps its own."""
    insert = "content insert --uri content://com.android.contacts/raw_contacts --bind account_name:n: " \
             "--bind account_type:n:"
    path = phone.contacts.db_path
    phone.run("pm clear com.android.providers.contacts")
    cleared = phone.run(f"stat -c %Y {path}").stdout
    phone.clock.set(1_600_000_000_000)
    line = phone.run(f"{insert} && {insert} && stat -c %Y {path} {path}-wal {path}-shm $(dirname {path}) && {insert}")
    assert line.stdout == cleared + b"1600000000\n" * 3
    assert phone.run(f"stat -c %Y {path} $(dirname {path})").stdout == b"1600000000\n" * 2  # checkpointed at the end


def test_cached_reads_outlive_a_write_that_moves_only_the_header_s_counters(phone):
    """A ``DELETE`` of a table already empty moves the file change counter (and the version-valid-for number) alone:
    the reads ``cached`` kept still hold and are not read again, and the data version stays; a write of a row drops
    them and moves it."""
    telephony = phone.telephony
    delete = f"sqlite3 {telephony.db_path} 'DELETE FROM sms'"
    phone.run(delete)
    version = telephony.data_version()
    reads = []

    def count() -> int:
        reads.append(1)
        with telephony.reading(rows=None) as db:
            return db.execute("SELECT COUNT(*) FROM sms").fetchone()[0]

    assert (telephony.cached("count", count), telephony.cached("count", count), len(reads)) == (0, 0, 1)
    host = phone.fs.host_path(telephony.db_path)
    before = host.read_bytes()
    phone.run(delete)
    after = host.read_bytes()
    assert after != before and after[:24] + after[28:92] + after[96:] == before[:24] + before[28:92] + before[96:]
    assert (telephony.cached("count", count), len(reads), telephony.data_version()) == (0, 1, version)
    phone.run(f"sqlite3 {telephony.db_path} \"INSERT INTO sms (address, body) VALUES ('5551234', 'hi')\"")
    assert (telephony.cached("count", count), len(reads), telephony.data_version()) == (1, 2, version + 1)
