"""The value language of declarative task specs: dates, times and durations as people write them, relative
rewording of dates, exclusion conditions, and checking an agent's answer against the expected one.

Formats follow AndroidWorld's information-retrieval tasks (``datetime_utils``, ``calendar_utils.parse_duration``,
``proto_utils.check_agent_answer``): dates "October 16 2023", times "14:40" / "2:40pm" / "2pm", durations
"30 m" / "45min" / "2 hours" / "1.5 h", answers a comma-separated list checked without regard to order.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Sequence
from typing import Any

from android_gym.tasks.draws import Rng
from android_gym.tasks.validators import fuzzy_match, one_to_one

DATE_FORMAT = "%B %d %Y"
TIME_FORMAT = "%H:%M"
_TIME_FORMATS = ("%H:%M", "%I:%M%p", "%I%p")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(h|hours?|m|min|mins|minutes?)\s*$", re.IGNORECASE)
DEFAULT_DURATION = dt.timedelta(minutes=30)

#: Condition operators by their names in ``task_spec.proto``.
OPERATORS = {
    "EQUAL_TO": lambda a, b: a == b,
    "CONTAINS": lambda a, b: str(b).lower() in str(a).lower(),
    "GREATER_THAN": lambda a, b: a > b,
    "LESS_THAN": lambda a, b: a < b,
    "GREATER_THAN_OR_EQUAL_TO": lambda a, b: a >= b,
    "LESS_THAN_OR_EQUAL_TO": lambda a, b: a <= b,
}


def parse_number(text: str) -> float:
    """"12.5", "$12.50" or "1,234.5" → float; ``ValueError`` otherwise."""
    return float(text.strip().lstrip("$").replace(",", ""))


def parse_bool(text: str) -> bool:
    """"True"/"False" (any case; also "1"/"0", "yes"/"no") → bool; ``ValueError`` otherwise."""
    word = text.strip().lower()
    if word in ("true", "1", "yes"):
        return True
    if word in ("false", "0", "no"):
        return False
    raise ValueError(f"not a truth value: {text!r} (use True or False)")


@functools.lru_cache(maxsize=4096)
def parse_date(text: str) -> dt.date:
    """"October 16 2023" (a comma after the day is accepted) → date; ``ValueError`` otherwise. Remembered per text
    (``strptime`` is slow, a reset reads its dates several times and dates are immutable)."""
    return dt.datetime.strptime(" ".join(text.replace(",", " ").split()), DATE_FORMAT).date()


def format_date(date: dt.date) -> str:
    """date → "October 16 2023" (the day without a leading zero, as people write it)."""
    return f"{date:%B} {date.day} {date.year}"


@functools.lru_cache(maxsize=4096)
def parse_time(text: str) -> dt.time:
    """"14:40", "2:40pm" or "2pm" (any case, spaces ignored) → time; ``ValueError`` otherwise. Remembered per text,
    as ``parse_date``."""
    compact = text.replace(" ", "").upper()
    for pattern in _TIME_FORMATS:
        try:
            parsed = dt.datetime.strptime(compact, pattern)
        except ValueError:
            continue
        return dt.time(parsed.hour, parsed.minute)
    raise ValueError(f"not a time: {text!r} (use 14:40, 2:40pm or 2pm)")


def parse_duration(text: str) -> dt.timedelta:
    """"30 m", "45min", "2 hours", "1.5 h" → timedelta; ``ValueError`` otherwise."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (use 30 m, 45min, 2 hours or 1.5 h)")
    amount, unit = float(match.group(1)), match.group(2).lower()
    return dt.timedelta(hours=amount) if unit.startswith("h") else dt.timedelta(minutes=amount)


def reworded_dates(date: dt.date, today: dt.date) -> list[str]:
    """The ways a person names ``date`` on ``today`` (AndroidWorld's ``_generate_nl_date_options``): always
    "October 16" and "October 16 2023"; "today", "tomorrow", "yesterday"; the weekday (and "this <weekday>")
    within a week ahead or the weekday within a week back; "the <weekday> after next" in the week after."""
    options = [f"{date:%B} {date.day}", format_date(date)]
    days = (date - today).days
    options += {0: ["today"], 1: ["tomorrow"], -1: ["yesterday"]}.get(days, [])
    weekday = f"{date:%A}"
    if 0 < days <= 7:
        options += [weekday, f"this {weekday}"]
    elif 7 < days <= 14:
        options.append(f"the {weekday} after next")
    elif -7 <= days < 0:
        options.append(weekday)
    return options


def reword_date(text: str, today: dt.date, rng: Rng) -> str:
    """One of ``reworded_dates`` for the date ``text``, drawn from ``rng``."""
    options = reworded_dates(parse_date(text), today)
    return options[int(rng.integers(len(options)))]


def satisfies(value: Any, operator: str, reference: Any) -> bool:
    """Whether ``value <operator> reference`` holds; a missing value (``None``) only equals a missing one."""
    if value is None or reference is None:
        return operator == "EQUAL_TO" and value is reference
    return OPERATORS[operator](value, reference)


def _cast(text: str, match: str) -> Any:
    """One answer item as the match type reads it; ``ValueError`` when it cannot."""
    text = text.strip()
    if match == "NUMBER":
        return parse_number(text)
    if match == "DATE":
        return parse_date(text)
    if match == "TIME":
        return parse_time(text)
    if match == "DATETIME":
        *date_part, time_part = text.split()
        return dt.datetime.combine(parse_date(" ".join(date_part)), parse_time(time_part))
    return text


def answer_matches(answer: str, expected: Sequence[Any], match: str, tolerance: float = 0.0) -> bool:
    """Whether the agent's ``answer`` (comma-separated items) pairs one to one with ``expected``: fuzzy text for
    STRING, within ``tolerance`` for NUMBER, equal for DATE / TIME / DATETIME. An unreadable item fails."""
    try:
        given = [_cast(item, match) for item in answer.split(",")]
    except ValueError:
        return False
    if match == "STRING":
        given = [item for item in given if item]

    def same(a: Any, b: Any) -> bool:
        if match == "STRING":
            return fuzzy_match(a, str(b))
        if match == "NUMBER":
            return abs(a - float(b)) <= tolerance + 1e-9
        return a == b

    return one_to_one(given, list(expected), same)


def format_answer(expected: Sequence[Any], match: str) -> str:
    """The answer a correct agent gives for ``expected`` (what the oracle answers)."""
    def text(value: Any) -> str:
        if match == "DATE":
            return format_date(value)
        if match == "TIME":
            return value.strftime(TIME_FORMAT)
        if match == "DATETIME":
            return f"{format_date(value.date())} {value:%H:%M}"
        if match == "NUMBER":
            return f"{float(value):.2f}".rstrip("0").rstrip(".")
        return str(value)
    return ", ".join(text(value) for value in expected)
