"""Checks shared by tasks: AndroidWorld's fuzzy text match, phone-number equality, SMS store lookups."""

from __future__ import annotations

import difflib
from typing import Any

from android_gym.device import state
from android_gym.device.base import Device

SMS_DB = "/data/data/com.android.providers.telephony/databases/mmssms.db"
SMS_TYPE_INBOX, SMS_TYPE_SENT = 1, 2
#: AndroidWorld accepts a sent message whose date is within 5 minutes of the device time.
SMS_TIME_WINDOW_MS = 5 * 60 * 1000


def fuzzy_match(a: str, b: str, threshold: float = 0.9) -> bool:
    """AndroidWorld's text match: case-insensitive difflib ratio of the stripped texts ≥ ``threshold``."""
    a, b = a.strip().lower(), b.strip().lower()
    return a == b or difflib.SequenceMatcher(None, a, b).ratio() >= threshold


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


def was_sent(device: Device, number: str, body: str, now_ms: int) -> bool:
    """Whether a sent SMS to ``number`` with a body matching ``body`` exists, at most 5 min older than now."""
    return any(
        same_number(row["address"] or "", number) and fuzzy_match(row["body"] or "", body)
        and now_ms - int(row["date"]) <= SMS_TIME_WINDOW_MS
        for row in sms_messages(device, SMS_TYPE_SENT)
    )


def device_time_ms(device: Device) -> int:
    """The device's current time (``date +%s``) in epoch milliseconds."""
    return int(device.shell("date +%s").output.strip()) * 1000
