"""Typing a goal's number on an on-screen keypad, one key at a time, as a person does: which digits the goal asks
for, and which key comes next given what the screen already shows.

A duration in words ("20 hours, 5 minutes, and 30 seconds") is typed as its clock digits, two to a unit
("200530"), and a keypad that fills from the right (Android's timer) ignores leading zeros, so they are dropped;
any other goal's number is typed as the digits of its longest number ("+1 555-0100" → "15550100"). What is typed
so far is the longest start of those digits that a text on screen shows (its digits, leading zeros dropped:
"00h 02m 03s" shows "203").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: One unit of a duration in words, and its share of the clock digits (hours, minutes, seconds).
_DURATION_UNIT = re.compile(r"\b(\d{1,2}) (hour|minute|second)s?\b", re.IGNORECASE)
_UNITS = ("hour", "minute", "second")
#: A number as a goal writes it: digits with the signs and separators of amounts, times and phone numbers.
_GOAL_NUMBER = re.compile(r"\+?\d(?:[\d.,:()-]|(?<=\d) (?=\d))*")
_NOT_DIGIT = re.compile(r"\D")
#: The labels of a keypad's keys: a screen with a slot for each is showing a keypad.
DIGIT_KEYS = frozenset("0123456789")


def goal_digits(goal: str) -> str:
    """The digits the goal asks to type on a keypad: a duration in words as its clock digits without leading zeros
    ("5 minutes and 30 seconds" → "530"), else the digits of its longest number (the first of the longest), else
    ""."""
    units = {match.group(2).lower(): int(match.group(1)) for match in _DURATION_UNIT.finditer(goal)}
    if units:
        return "".join(f"{units.get(unit, 0):02d}" for unit in _UNITS).lstrip("0")
    numbers = [_NOT_DIGIT.sub("", match.group()) for match in _GOAL_NUMBER.finditer(goal)]
    return max(numbers, key=len, default="")


def typed_count(digits: str, shown: Iterable[str]) -> int:
    """How many of ``digits`` a screen showing the texts ``shown`` has typed: the longest start of ``digits`` that
    a text's digits are (as they are, or without leading zeros)."""
    count = 0
    for text in shown:
        text_digits = _NOT_DIGIT.sub("", text)
        for typed in {text_digits, text_digits.lstrip("0")}:
            if len(typed) > count and digits.startswith(typed):
                count = len(typed)
    return count


def next_key(digits: str, keys: Sequence[str], shown: Iterable[str]) -> str | None:
    """The key to press next: the digit after those the screen shows typed, when the screen's slots (``keys``,
    their labels) include a keypad's ten digit keys and digits remain; else ``None``."""
    if not digits or not DIGIT_KEYS <= set(keys):
        return None
    count = typed_count(digits, shown)
    return digits[count] if count < len(digits) else None
