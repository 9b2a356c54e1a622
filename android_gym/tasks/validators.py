"""Checks shared by tasks: AndroidWorld's fuzzy text match, phone-number equality, SMS store lookups, and the
contacts helpers of AndroidWorld's ``contacts_utils`` (list, add, clear)."""

from __future__ import annotations

import difflib
import re
import shlex
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from android_gym.device import state
from android_gym.device.base import Device
from android_gym.errors import TaskSetupError

SMS_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"
SMS_TYPE_INBOX, SMS_TYPE_SENT = 1, 2
#: AndroidWorld accepts a sent message whose date is within 5 minutes of the device time.
SMS_TIME_WINDOW_MS = 5 * 60 * 1000
CONTACTS_PROVIDER = "com.android.providers.contacts"
#: Where the contacts provider keeps ``contacts2.db`` (``ContactsDatabaseHelper``), all its rows come from.
CONTACTS_DATABASES = f"/data/data/{CONTACTS_PROVIDER}/databases"
#: The legacy ``Contacts.Phones`` URI AndroidWorld lists contacts with.
CONTACTS_PHONES_URI = "content://contacts/phones/"
RAW_CONTACTS_URI, DATA_URI = "content://com.android.contacts/raw_contacts", "content://com.android.contacts/data"
NAME_MIMETYPE, PHONE_MIMETYPE = "vnd.android.cursor.item/name", "vnd.android.cursor.item/phone_v2"
PHONE_TYPE_MOBILE = 2


def fuzzy_match(a: str, b: str, threshold: float = 0.9) -> bool:
    """AndroidWorld's text match: case-insensitive difflib ratio of the stripped texts ≥ ``threshold``."""
    a, b = a.strip().lower(), b.strip().lower()
    if a == b:
        return True
    # The ratio's cheaper upper bounds first, as difflib.get_close_matches does: most texts fail on them.
    matcher = difflib.SequenceMatcher(None, a, b)
    return (matcher.real_quick_ratio() >= threshold and matcher.quick_ratio() >= threshold
            and matcher.ratio() >= threshold)


def wrapped(text: str, width: int | None) -> str:
    """``text`` broken into lines of at most ``width`` characters (``textwrap.wrap``, as AndroidWorld's text
    representations do); unchanged when ``width`` is ``None``."""
    return text if width is None else "\n".join(textwrap.wrap(text, width))


def one_to_one(candidates: Sequence[Any], expected: Sequence[Any], matches: Callable[[Any, Any], bool]) -> bool:
    """Whether every expected item pairs with its own candidate and no candidate is left over: a perfect
    bipartite matching (Kuhn's method; greedy pairing fails when two expected items both fit one candidate)."""
    if len(candidates) != len(expected):
        return False
    fits = [[c for c, candidate in enumerate(candidates) if matches(candidate, wanted)] for wanted in expected]
    owner: dict[int, int] = {}

    def assign(e: int, seen: set[int]) -> bool:
        for c in fits[e]:
            if c not in seen:
                seen.add(c)
                if c not in owner or assign(owner[c], seen):
                    owner[c] = e
                    return True
        return False

    return all(assign(e, set()) for e in range(len(expected)))


def same_number(a: str, b: str) -> bool:
    """AndroidWorld's address check: equal once spaces and dashes are removed (so "+1" must be typed too)."""
    def normalize(number: str) -> str:
        return number.replace("-", "").replace(" ", "")

    return bool(a) and normalize(a) == normalize(b)


def sms_messages(device: Device, sms_type: int | None = None) -> list[dict[str, Any]]:
    """Rows of the device's ``sms`` table (optionally of one type), newest first."""
    if sms_type is None:
        return state.sqlite_query(device, SMS_DB, "SELECT * FROM sms ORDER BY date DESC, _id DESC")
    return state.sqlite_query(device, SMS_DB, "SELECT * FROM sms WHERE type = ? ORDER BY date DESC, _id DESC",
                              (sms_type,))


def was_sent(device: Device, number: str, body: str) -> bool:
    """Whether a sent SMS to ``number`` with a body matching ``body`` exists, at most 5 min older than the device's
    time (asked only when such a message exists)."""
    dates = [int(row["date"]) for row in sms_messages(device, SMS_TYPE_SENT)
             if same_number(row["address"] or "", number) and fuzzy_match(row["body"] or "", body)]
    return bool(dates) and device_time_ms(device) - max(dates) <= SMS_TIME_WINDOW_MS


def device_time_ms(device: Device) -> int:
    """The device's current time (``date +%s``) in epoch milliseconds."""
    return int(device.shell("date +%s").output.strip()) * 1000


def digits(number: str) -> str:
    """AndroidWorld's ``clean_phone_number``: the digits only."""
    return re.sub(r"\D", "", number)


def contact_phones(device: Device) -> list[tuple[str, str]]:
    """AndroidWorld's ``list_contacts``: ``(display name, digits of the number)`` for every contact phone."""
    rows = state.content_query(device, CONTACTS_PHONES_URI, ("display_name", "number"), tree=CONTACTS_DATABASES)
    return [(row["display_name"] or "", digits(row["number"] or "")) for row in rows]


def clear_contacts(device: Device, *then: str) -> None:
    """Delete every contact (``pm clear`` of the contacts provider, as AndroidWorld does), then run the setup
    commands ``then`` in the same shell line (one round trip)."""
    _checked(device, " && ".join([f"pm clear {CONTACTS_PROVIDER}", *then]))


def add_contact(device: Device, name: str, number: str) -> None:
    """A device-local contact ``name`` with the mobile ``number`` (``add_contacts`` of one)."""
    add_contacts(device, [(name, number)])


def add_contacts(device: Device, contacts: Iterable[tuple[str, str]]) -> None:
    """Device-local contacts ``(name, mobile number)``, in order, written through the contacts provider in one round
    trip: ``add_contacts_command``'s line, or the device's short cut where it has one (``SimDevice.add_contacts``:
    the rows the line leaves, without parsing and running it)."""
    contacts = list(contacts)
    if not contacts:
        return
    short_cut = getattr(device, "add_contacts", None)
    if short_cut is not None:
        short_cut(contacts)
    else:
        _checked(device, add_contacts_command(contacts))


def add_contacts_command(contacts: Sequence[tuple[str, str]]) -> str:
    """The shell line that adds ``contacts`` (``(name, mobile number)``, at least one) with ``content insert`` (a
    raw contact each, then its structured name and its phone): the raw contacts, then the newest raw contact's id
    read into a shell variable (the one row of ``content query`` sorted by id downwards with ``?limit=1``,
    ContactsProvider2's row limit, cut out by the shell's ``${newest##*=}``, so the line runs nothing but ``content``
    and the provider keeps one transaction for it; the ids of raw contacts inserted one after another count up from
    the first, ``AUTOINCREMENT``), then each contact's data rows with its raw contact's id worked out from it by the
    shell."""
    raw = f"content insert --uri {RAW_CONTACTS_URI} --bind account_name:n: --bind account_type:n:"
    query = state.content_query_command(f"{RAW_CONTACTS_URI}?limit=1", ("_id",), sort="_id DESC")
    commands = [raw] * len(contacts) + [f"newest=$({query})", "newest=${newest##*=}"]
    for back, (name, number) in zip(range(len(contacts) - 1, -1, -1), contacts):
        commands.append(f"raw=$((newest - {back}))")
        for mimetype, values in ((NAME_MIMETYPE, {"data1": ("s", name)}),
                                 (PHONE_MIMETYPE, {"data1": ("s", number), "data2": ("i", str(PHONE_TYPE_MOBILE))})):
            binds = [f"mimetype:s:{mimetype}",
                     *(f"{column}:{kind}:{value}" for column, (kind, value) in values.items())]
            commands.append(f"content insert --uri {DATA_URI} --bind raw_contact_id:i:$raw "
                            + " ".join(f"--bind {shlex.quote(b)}" for b in binds))
    return " && ".join(commands)


def _checked(device: Device, command: str) -> str:
    """Run a setup command and return its output; a failure (``content`` reports provider errors with exit code 0)
    raises."""
    result = device.shell(command)
    if not result.ok or "Error" in result.output or "Failed" in result.output:
        raise TaskSetupError(f"`{command}` failed (exit {result.exit_code}): {result.output.strip()}")
    return result.output
