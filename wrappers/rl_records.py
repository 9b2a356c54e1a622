"""The records of a text that lists many of them — a ``|`` table's rows, blocks that each open with the same key
("Recipe: …") — ranked by what of the goal each holds, as a person scanning a long list reads first the rows the
goal describes ("… the reimbursable transactions", "… recipes that take 3 hrs to prepare").

A record scores its most telling goal phrase: of the phrases of one to three words that the goal and the record
share (within one cell or clause), the one with the most ``words × log(records / records holding it)`` — a long
phrase few records hold ("3 hrs") tells more than a word many hold ("the") or a rare short one ("from").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_WORD = re.compile(r"\w+")
#: What ends a phrase: a cell, a clause or a sentence.
_PHRASE_END = re.compile(r"[|.,;:!?]")
_CELL_GAP = re.compile(r"\s*\|\s*")
#: The gap after a sentence's end.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
#: A table header's column name, as a program spells it ("preparationTime", "amount_dollars").
HEADER_NAME = re.compile(r"^[a-z_]\w*$")
#: A one-word key opening a ``key: value`` ("Recipe: ").
_KEY = re.compile(r"(?:^|(?<=\s))([A-Za-z_]\w*):\s")
#: Longest goal phrase, in words.
_PHRASE_WORDS = 3


def _phrases(text: str) -> set[tuple[str, ...]]:
    """The case-folded phrases of one to ``_PHRASE_WORDS`` words within each cell or clause of ``text``."""
    found: set[tuple[str, ...]] = set()
    for part in _PHRASE_END.split(text.casefold()):
        words = _WORD.findall(part)
        found.update(tuple(words[start:start + size]) for size in range(1, _PHRASE_WORDS + 1)
                     for start in range(len(words) - size + 1))
    return found


def next_row_start(field: str) -> int:
    """Where, in a ``|`` field that joins a row's last cell and the next row's first (a dump joins a table's lines
    with spaces), the next row's first cell starts: after the last sentence end, else at the run of capitalised
    words that ends the field ("I may repeat this Theater Show"), never at its first word."""
    ends = [match.end() for match in SENTENCE_END.finditer(field)]
    if ends:
        return ends[-1]
    words = list(re.finditer(r"\S+", field))
    lower = [place for place, word in enumerate(words) if not word.group()[:1].isupper()]
    first = lower[-1] + 1 if lower else 1
    return words[first].start() if first < len(words) else len(field)


def table_names(cells: Sequence[str]) -> int:
    """How many header names open a ``|`` table's cells (before the cell joining the last name and the first row's
    first cell): 0 when fewer than two, and so no table."""
    names = 0
    while names < len(cells) and HEADER_NAME.match(cells[names]):
        names += 1
    return names if names >= 2 else 0


def record_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each record ``text`` lists, in order, each ending where the next starts; none when it
    lists fewer than two.

    A ``|`` table whose lines a dump joined has a row every ``names`` fields (the header's names before the field
    joining the last name and the first cell): each row starts in such a joined field (``next_row_start``).
    Otherwise, when the text's first ``key: `` recurs, each occurrence opens a record."""
    bounds = [0, *(place for gap in _CELL_GAP.finditer(text) for place in gap.span()), len(text)]
    cells = list(zip(bounds[::2], bounds[1::2], strict=True))
    names = table_names([text[start:end] for start, end in cells])
    if names:
        joined = cells[names:-1:names]  # the last cell ends the last row: it joins nothing
        header = text[slice(*joined[0])].split(" ", 1)[0] if joined else ""
        starts = [start + len(header) + 1 for start, _ in joined[:1]] + \
            [start + next_row_start(text[start:end]) for start, end in joined[1:]]
    else:
        key = _KEY.search(text)
        starts = [] if key is None else \
            [match.start() for match in _KEY.finditer(text) if match.group(1) == key.group(1)]
    return list(zip(starts, [*starts[1:], len(text)], strict=True)) if len(starts) >= 2 else []


def ranked_records(text: str, goal: str) -> list[tuple[int, int]]:
    """The records of ``text`` that share a phrase with ``goal``, the most telling first (ties in text order)."""
    spans = record_spans(text)
    wanted = _phrases(goal)
    held = [_phrases(text[start:end]) & wanted for start, end in spans]
    counts = Counter(phrase for phrases in held for phrase in phrases)
    scores = [max((len(phrase) * math.log(len(spans) / counts[phrase]) for phrase in phrases), default=0.0)
              for phrases in held]
    order = sorted(range(len(spans)), key=lambda number: -scores[number])
    return [spans[number] for number in order if scores[number] > 0]


def by_goal(offsets: Sequence[int], text: str, goal: str) -> list[int]:
    """The indices of ``offsets`` (where pieces start in ``text``) in reading order for ``goal``: the pieces of the
    records ``ranked_records`` gives first, record by record, then the others; each group in its given order."""
    records = ranked_records(text, goal) if goal else []

    def rank(number: int) -> int:
        return next((place for place, (start, end) in enumerate(records) if start <= offsets[number] < end),
                    len(records))

    return sorted(range(len(offsets)), key=rank)
