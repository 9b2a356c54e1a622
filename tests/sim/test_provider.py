"""``SqliteProvider``: a new database copied from the image made once per process is byte for byte the one the
provider's ``onCreate`` makes on a connection to it."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def phone():
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
