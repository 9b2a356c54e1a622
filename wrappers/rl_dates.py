"""Dates and times read off the texts of a screen, as a person copies them into an answer in the form AndroidWorld's
date-and-time questions ask for: "<month name> <day> <year> <hour in 24-hour format>:<minutes>" ("October 24 2023
20:00", its ``DATE_FORMAT + ' %H:%M'``).

Apps write a date of the current year without its year (Simple Calendar's "October 24 (Tue)"): such a date is read
in ``this_year``. Month names are read in English and in the phone's other system languages ("Oktober 24 (Di.)",
"Octobre 23 (lun.)": CLDR's names, as the phone shows them), and answered in English. A time may be a 12-hour one
("8:00 PM"); the answer gives it in 24 hours.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Sequence

from babel import Locale

from android_gym.locales import ENGLISH, TRANSLATED
from android_gym.wrappers.rl_texts import typeable


def _month_names() -> dict[str, int]:
    """Each month's wide and abbreviated names (as ASCII, lower case, without a full stop) in the phone's system
    languages → its number."""
    names = {}
    for tag in (ENGLISH, *TRANSLATED):
        months = Locale.parse(tag, sep="-").months
        for context in ("format", "stand-alone"):
            for width in ("wide", "abbreviated"):
                names.update({typeable(name).rstrip(".").casefold(): number
                              for number, name in months[context][width].items()})
    return names


_MONTHS = _month_names()
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
#: "October 24", "Oct 24, 2023", "24 Oct 2023" or "24. Okt." (the day and the month either way round).
_DATE = re.compile(rf"\b(?:(?P<month>{_MONTH})\.? (?P<day>\d{{1,2}})\b(?:,? (?P<year>\d{{4}})\b)?"
                   rf"|(?P<day2>\d{{1,2}})\.? (?P<month2>{_MONTH})\.?(?: (?P<year2>\d{{4}}))?\b)", re.IGNORECASE)
#: "20:00", "8:00 PM", "8:00pm" (not the minutes of an elapsed "1:30:00").
_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])(?:\s?([AaPp])\.?[Mm]\b\.?)?")


def read_date(text: str, this_year: int) -> dt.date | None:
    """The first date ``text`` writes (in ``this_year`` when it gives none), or ``None``."""
    for match in _DATE.finditer(typeable(text)):
        month = _MONTHS[(match.group("month") or match.group("month2")).casefold()]
        day, year = match.group("day") or match.group("day2"), match.group("year") or match.group("year2")
        try:
            return dt.date(int(year) if year else this_year, month, int(day))
        except ValueError:
            continue
    return None


def read_time(text: str) -> dt.time | None:
    """The first time of day ``text`` writes, or ``None``."""
    for match in _TIME.finditer(text):
        hour, minute, half = int(match.group(1)), int(match.group(2)), (match.group(3) or "").lower()
        if half and 1 <= hour <= 12:
            hour = hour % 12 + (12 if half == "p" else 0)
        elif half:
            continue
        if hour < 24 and minute < 60:
            return dt.time(hour, minute)
    return None


def date_time_answer(texts: Sequence[str], this_year: int) -> str | None:
    """The first date and the first time of day ``texts`` write, as "October 24 2023 20:00"; ``None`` without
    both."""
    date = next((found for text in texts if (found := read_date(text, this_year)) is not None), None)
    time = next((found for text in texts if (found := read_time(text)) is not None), None)
    if date is None or time is None:
        return None
    return f"{calendar.month_name[date.month]} {date.day} {date.year} {time:%H:%M}"
