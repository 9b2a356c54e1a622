"""What the phone's content providers answer to ``ContentResolver.getType``: the MIME type of a ``content:`` URI,
which the activity manager adds to an intent that names data but no type before resolving it (``am start``:
``ActivityManagerShellCommand`` asks ``getProviderMimeType``).

Types from the providers' ``getType`` (AOSP ``packages/providers``): ContactsProvider2 and its legacy ``contacts``
authority (``LegacyApiSupport``), CalendarProvider2, MediaProvider and TelephonyProvider's SMS provider. A URI
the provider does not know makes ``getType`` throw, which the activity manager reads as no type (``None``).
"""

from __future__ import annotations

import re

#: ``(authority, path pattern) → type``; a segment of digits is matched by ``#``, any segment by ``*``.
_TYPES: dict[tuple[str, str], str] = {
    ("contacts", "people"): "vnd.android.cursor.dir/person",
    ("contacts", "people/#"): "vnd.android.cursor.item/person",
    ("contacts", "phones"): "vnd.android.cursor.dir/phone",
    ("contacts", "phones/#"): "vnd.android.cursor.item/phone",
    ("com.android.contacts", "contacts"): "vnd.android.cursor.dir/contact",
    ("com.android.contacts", "contacts/#"): "vnd.android.cursor.item/contact",
    ("com.android.contacts", "contacts/lookup/*"): "vnd.android.cursor.item/contact",
    ("com.android.contacts", "contacts/lookup/*/#"): "vnd.android.cursor.item/contact",
    ("com.android.contacts", "raw_contacts"): "vnd.android.cursor.dir/raw_contact",
    ("com.android.contacts", "raw_contacts/#"): "vnd.android.cursor.item/raw_contact",
    ("com.android.contacts", "data/phones"): "vnd.android.cursor.dir/phone_v2",
    ("com.android.calendar", "events"): "vnd.android.cursor.dir/event",
    ("com.android.calendar", "events/#"): "vnd.android.cursor.item/event",
    ("com.android.calendar", "time/#"): "time/epoch",
    ("media", "external/images/media"): "vnd.android.cursor.dir/image",
    ("media", "external/video/media"): "vnd.android.cursor.dir/video",
    ("media", "external/audio/media"): "vnd.android.cursor.dir/audio",
    ("sms", ""): "vnd.android-dir/mms-sms",
    ("sms", "#"): "vnd.android.cursor.item/sms",
}
_URI = re.compile(r"content://([^/?#]*)(/[^?#]*)?")


def provider_type(uri: str) -> str | None:
    """The type the provider of ``uri`` gives it, or ``None`` (no provider, or a URI it does not know).
    ``UriMatcher`` matches path segments, so an empty trailing segment (``people/``) is ignored."""
    match = _URI.fullmatch(uri)
    if match is None:
        return None
    segments = [segment for segment in (match.group(2) or "").split("/") if segment]
    return next((mime_type for (authority, pattern), mime_type in _TYPES.items()
                 if authority == match.group(1) and _path_matches(pattern, segments)), None)


def _path_matches(pattern: str, segments: list[str]) -> bool:
    """``UriMatcher``'s test of a path's segments against a pattern's (``#`` digits, ``*`` any segment)."""
    parts = pattern.split("/") if pattern else []
    return len(parts) == len(segments) and all(
        part == segment or part == "*" or (part == "#" and segment.isdigit()) for part, segment in zip(parts, segments))
