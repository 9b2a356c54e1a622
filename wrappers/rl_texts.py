"""The RL view's typing vocabulary: pieces of the texts the agent can see — the goal, the current screen, and the
screens seen earlier in the episode — as a person would copy them from one place to another.

A text is cut into pieces at several grains, coarse first: its lines, ``|`` fields, ``key: value`` values,
quoted strings, lists of numbers ("47.1, 9.5"), sentences, comma-separated items, the rest of a sentence from a
capitalised word on ("… the note Don't forget …") and its names ("… to Victor Schmidt in …"), then its words (with a
price's number, a file name's stem and extension). A ``|`` table whose lines a dump joined is read cell by cell (a
price cell also as its number). A text listing many records (``rl_records``) gives the pieces of the records the
goal describes first.
Quantities are also read as a person converts them to answer "in minutes" or "in meters": an elapsed time
("1:30:00", "45:00") as its whole minutes, a distance ("7.46 mi", "1,318.90 ft", "2.5 km") as whole metres.
Every piece is folded to the printable ASCII that ``adb shell input text`` can type ("Sauté" → "Saute").
Nothing here reads the task's hidden parameters.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from android_gym.actions import MAX_TEXT_LENGTH
from android_gym.wrappers.rl_records import (
    HEADER_NAME,
    SENTENCE_END,
    by_goal,
    next_row_start,
    record_spans,
    table_names,
)

#: Where a piece comes from ("composed": the sum or product of collected numbers, ``rl_screen.composed_pieces``).
SOURCES = ("goal", "screen", "memory", "composed")
_QUOTED = re.compile(r"[\"“]([^\"”]+)[\"”]")
_SINGLE_QUOTED = re.compile(r"(?:^|(?<=\s))'(.+?)'(?=[\s.,;:!?]|$)")
_WORD_KEY = re.compile(r"(?:^|(?<=\s))[A-Za-z_]\w*:\s+")
_KEY_VALUE = re.compile(r"^\s*([\w .'-]{1,40}?)\s*:\s+(\S.*)$")
_TRIM = " \t.,;:!?()[]{}\"'“”‘’"
_FILE = re.compile(r"^([\w-]+)(\.[A-Za-z0-9]{1,5})$")
_NUMBER = re.compile(r"^[$€£]?([+-]?\d+(?:[.,:]\d+)*)$")
#: A list of two or more numbers joined by ", " (coordinates "47.1026191, 9.6083057").
_NUMBER_LIST = re.compile(r"[+-]?\d+(?:\.\d+)?(?:, [+-]?\d+(?:\.\d+)?)+")
_WORD_GAP = re.compile(r"[\s|]+")
#: A quantity inside a text: a whole, decimal or fractional number and the lower-case word after it ("45
#: participants", "1/2 cup"); a number without a word after it (a date's day, a count badge) is none.
_QUANTITY = re.compile(r"(?<![\w/.,])(\d+(?:\.\d+)?(?:/\d+)?) ([a-z]+)\b")
_SPACES = re.compile(r"[ \t]+")
#: An elapsed time "H:MM:SS" or "MM:SS" of whole minutes (not a clock time: no AM/PM after it).
_ELAPSED = re.compile(r"(?<![\d:.])(?:(\d+):)?(\d{1,2}):00(?![\d:])(?!\s?[AaPp]\.?[Mm])")
#: A distance with its unit, and the unit in metres.
_DISTANCE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})*(?:\.\d+)?|\d+(?:\.\d+)?)\s?(mi|km|ft|m)\b")
_METRES = {"mi": 1609.344, "km": 1000.0, "ft": 0.3048, "m": 1.0}
#: Longest screen text cut into pieces.
_MAX_SCREEN_TEXT = 20000


class Piece(NamedTuple):
    """One typeable text: ``text`` as typed, the ``key`` that introduced it ("amount_dollars" for
    "amount_dollars: $160.83", else ""), where it came from (``SOURCES``) and where it starts in its source text
    (0..1). A named tuple: made by the thousand and hashed at every step, which a tuple does fastest."""

    text: str
    key: str
    source: str
    position: float


def typeable(text: str) -> str:
    """``text`` as printable ASCII: accents dropped (NFKD), other characters removed, runs of spaces single."""
    if text.isascii() and text.isprintable():  # most texts: nothing to fold or remove
        return _SPACES.sub(" ", text).strip()
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    kept = "".join(char for char in folded if char.isprintable() or char == "\n")
    return _SPACES.sub(" ", kept).strip()


def _lines(text: str) -> Iterator[tuple[str, int]]:
    offset = 0
    for line in text.split("\n"):
        if line.strip():
            yield line, offset + len(line) - len(line.lstrip())
        offset += len(line) + 1


def _split(text: str, separator: re.Pattern[str] | str, offset: int) -> Iterator[tuple[str, int]]:
    parts = separator.split(text) if isinstance(separator, re.Pattern) else text.split(separator)
    position = 0
    for part in parts:
        start = text.find(part, position)
        position = start + len(part)
        if part.strip():
            yield part.strip(), offset + start + len(part) - len(part.lstrip())


def _structure(line: str, offset: int, suffixes: bool) -> Iterator[tuple[str, str, int]]:
    """The coarse pieces of one line: ``(text, key, offset)``."""
    yield line.strip(), "", offset
    fields = list(_split(line, "|", offset)) if "|" in line else [(line.strip(), offset)]
    yield from _joined_cells(fields)
    for field, at in fields:
        yield field, "", at
        price = _NUMBER.match(field)
        if price:
            yield price.group(1), "", at
        for pattern in (_QUOTED, _SINGLE_QUOTED):
            for match in pattern.finditer(field):
                yield match.group(1), _last_words(field[:match.start()]), at + match.start(1)
        yield from _values(field, at, sentences=suffixes)
        for match in _NUMBER_LIST.finditer(field):
            yield match.group(), "", at + match.start()
        for sentence, start in _split(field, SENTENCE_END, at):
            yield from _clause(sentence, start, suffixes)


def _joined_cells(fields: Sequence[tuple[str, int]]) -> Iterator[tuple[str, str, int]]:
    """The cells a dump joined: the lines of a ``|`` table, joined with spaces, put each row's last cell and the next
    row's first in one field ("title|…|directions Quinoa Salad with Vegetables|…|… for extra flavor. Raspberry
    Almond Smoothie|…"). The header's one-word names tell the columns: the first row's first cell follows the
    last name; a row's last cell ends where the next row's first starts (``next_row_start``: after a sentence end,
    else at a run of capitalised words that ends the field, "I may repeat this Theater Show", which may also start
    later: "Show") — each read as a person reads it on its own line."""
    names = table_names([field for field, _ in fields])
    for number in range(names, len(fields) - 1, names) if names else []:
        field, at = fields[number]
        if number == names:
            name, _, cell = field.partition(" ")
            if HEADER_NAME.match(name) and cell:
                yield cell, "", at + len(name) + 1
            continue
        start = next_row_start(field)
        yield field[:start].rstrip(), "", at
        words = field[start:].split(" ")
        for skip in range(len(words) if SENTENCE_END.search(field) is None else 1):
            cell = " ".join(words[skip:])
            yield cell, "", at + len(field) - len(cell)


def _last_words(text: str, count: int = 3) -> str:
    return " ".join(text.strip(" :").split(" ")[-count:])


def _values(text: str, offset: int, sentences: bool = False) -> Iterator[tuple[str, str, int]]:
    """What follows a ``key: `` in ``text``: everything after the first and after the last one, the value of each
    one-word key up to the next (a dump joins a note's "key: value" lines with spaces), and their comma items;
    with ``sentences``, a value's first sentences too ("…: Happy birthday! Hope you have a great day. Then add…"
    gives "Happy birthday! Hope you have a great day.")."""
    colons = [match.end() for match in re.finditer(r":\s+", text)]
    spans = [(end, len(text)) for end in dict.fromkeys(colons[:1] + colons[-1:])]
    keys = list(_WORD_KEY.finditer(text))
    spans += [(key.end(), following.start()) for key, following in zip(keys, keys[1:])]
    for start, end in dict.fromkeys(spans):
        value = text[start:end].strip()
        yield value, _last_words(text[:start]), offset + start
        yield value.rstrip("."), _last_words(text[:start]), offset + start
        yield from _items(value, offset + start)
        for end in [match.start() for match in SENTENCE_END.finditer(value)] if sentences else []:
            yield value[:end], _last_words(text[:start]), offset + start


def _items(text: str, offset: int) -> Iterator[tuple[str, str, int]]:
    """The comma-separated items of ``text`` (when there are several), each maybe a ``key: value`` pair. An item
    reaching back over a key that is no pair's ("Reply to +1555… with message: The train is delayed") is none:
    what follows the key is a value, whose items ``_values`` gives; the item would take an id that comes and goes
    with the value's commas, moving the ids of the texts after it."""
    items = list(_split(text, ", ", offset))
    for item, at in items if len(items) > 1 else []:
        pair = _KEY_VALUE.match(item)
        if pair:
            yield pair.group(2).rstrip("."), pair.group(1), at + pair.start(2)
        elif ": " not in item:
            yield item, "", at
            yield item.rstrip("."), "", at


def _clause(sentence: str, offset: int, suffixes: bool) -> Iterator[tuple[str, str, int]]:
    """A sentence, its comma items and (``suffixes``) its endings from a capitalised word on and its names. A
    sentence reaching over a key ("… with message: Happy birthday!" in "…: Happy birthday! Hope you …") is none, as
    such an item: it comes and goes with the value's sentences (a sentence that is its whole field is the field)."""
    if ": " not in sentence:
        yield sentence, "", offset
    yield from _items(sentence, offset)
    words = sentence.split(" ")
    for number, word in enumerate(words[1:] if suffixes else [], start=1):
        if word[:1].isupper():
            suffix = " ".join(words[number:])
            yield suffix, "", offset + sentence.find(suffix)
    if suffixes:
        yield from _names(sentence, offset)


def _names(sentence: str, offset: int) -> Iterator[tuple[str, str, int]]:
    """Runs of two or more capitalised words, as a person picks a name out of a sentence ("… to Carmen Evans and
    to Victor Schmidt in Simple SMS Messenger."); a run that opens the sentence also without its first word (the
    verb of "Text Victor Schmidt …"). Punctuation after a word ends its run."""
    run: list[re.Match[str]] = []
    for word in [*re.finditer(r"\S+", sentence), None]:
        if word is not None and word.group()[:1].isupper():
            run.append(word)
            if word.group()[-1] not in ",.;:!?":
                continue
        for first in [0, 1] if run and run[0].start() == 0 else [0]:
            if len(run) - first >= 2:
                start = run[first].start()
                yield sentence[start:run[-1].end()].rstrip(_TRIM), "", offset + start
        run = []


def _endings(text: str) -> Iterator[tuple[str, str, int]]:
    """The rest of a text of several lines from each capitalised word on (a goal's multi-line note text)."""
    if "\n" in text.strip():
        for match in re.finditer(r"(?:^|(?<=\s))[A-Z]", text):
            yield text[match.start():].strip(), "", match.start()


def _words(line: str, offset: int) -> Iterator[tuple[str, str, int]]:
    """The words of a line; a price's number, a file name's stem and extension."""
    for word, at in _split(line, _WORD_GAP, offset):
        word = word.strip(_TRIM)
        if not word:
            continue
        yield word, "", at
        number, file = _NUMBER.match(word), _FILE.match(word)
        if number:
            yield number.group(1), "", at
        if file:
            yield file.group(1), "", at
            yield file.group(2), "", at + len(file.group(1))


def _quantities(line: str, offset: int) -> Iterator[tuple[str, str, int]]:
    """The whole minutes of each elapsed time in ``line`` and the whole metres of each distance."""
    for match in _ELAPSED.finditer(line):
        hours, minutes = int(match.group(1) or 0), int(match.group(2))
        yield str(hours * 60 + minutes), "", offset + match.start()
    for match in _DISTANCE.finditer(line):
        metres = float(match.group(1).replace(",", "")) * _METRES[match.group(2)]
        yield str(round(metres)), "", offset + match.start()


def text_pieces(text: str, source: str, words: bool = True, goal: str = "") -> list[Piece]:
    """The pieces of ``text`` (HTML entities decoded), coarse ones first, then (``words``: a goal's) sentence
    endings from a capitalised word on and single words; each once, typeable, non-empty and at most
    ``MAX_TEXT_LENGTH`` long. In a text listing records (``rl_records``), those of the records that match
    ``goal`` most come first. Cached: a screen shows mostly the texts it showed a step before."""
    return list(_text_pieces(text, source, words, goal))


def _text_pieces(text: str, source: str, words: bool, goal: str) -> tuple[Piece, ...]:
    """``text_pieces``, cached by what they depend on: the goal only for a text that lists records (other texts'
    pieces stay cached from one episode's goal to the next)."""
    return _pieces(text, source, words, goal if goal and _lists_records(text) else "")


@functools.lru_cache(maxsize=8192)
def _lists_records(text: str) -> bool:
    return bool(record_spans(html.unescape(text)))


@functools.lru_cache(maxsize=8192)
def _pieces(text: str, source: str, words: bool, goal: str) -> tuple[Piece, ...]:
    text = html.unescape(text)
    size = max(len(text), 1)
    found: list[tuple[str, str, int]] = []
    lines = list(_lines(text))
    for line, offset in lines:
        found.extend(_structure(line, offset, suffixes=words))
        found.extend(_quantities(line, offset))
    if words:
        found.extend(_endings(text))
        for line, offset in lines:
            found.extend(_words(line, offset))
    found = [found[number] for number in by_goal([offset for *_, offset in found], text, goal)]
    return tuple(unique_pieces(Piece(typeable(piece), typeable(key), source, min(offset / size, 1.0))
                               for piece, key, offset in found))


def unique_pieces(pieces: Iterable[Piece], limit: int | None = None) -> list[Piece]:
    """``pieces`` without empty, over-long or repeated texts (the first of each text kept), the first ``limit`` of
    them; a piece that ends in doubled punctuation ("never..", a template's full stop after the text's own) comes
    with one mark less too."""
    seen: dict[str, Piece] = {}
    for piece in pieces:
        text = piece.text
        if text and len(text) <= MAX_TEXT_LENGTH and text not in seen:
            seen[text] = piece
        if text[-2:] in ("..", "!!", "??") and text[-3:-2] != text[-1:] and len(text) <= MAX_TEXT_LENGTH + 1 \
                and text[:-1] not in seen:
            seen[text[:-1]] = Piece(text[:-1], piece.key, piece.source, piece.position)
        if limit is not None and len(seen) >= limit:
            break
    return list(seen.values())[:limit]


def screen_pieces(labels: Sequence[str], source: str = "screen", goal: str = "") -> list[Piece]:
    """The pieces of a screen's texts (its elements' labels, in document order), coarse grains only: a screen's
    words would crowd out everything else; a text listing records gives those that match ``goal`` most first."""
    labels = tuple(dict.fromkeys(label for label in labels if label and len(label) <= _MAX_SCREEN_TEXT))
    return list(_screen_pieces(labels, source, goal if goal and any(map(_lists_records, labels)) else ""))


def quantity_pieces(labels: Sequence[str], source: str = "screen") -> list[Piece]:
    """The quantities inside a screen's texts, each as its number and as its number with the word after it
    ("Attended by 45 participants" → "45", "45 participants"; "1/2 cup almond flour" → "1/2", "1/2 cup"): what a
    person reads off a note to answer "how many" or "what quantity"."""
    return list(_quantity_pieces(tuple(labels), source))


@functools.lru_cache(maxsize=1024)
def _quantity_pieces(labels: tuple[str, ...], source: str) -> tuple[Piece, ...]:
    pieces: list[Piece] = []
    for label in dict.fromkeys(labels):
        if not label or len(label) > _MAX_SCREEN_TEXT:
            continue
        size = max(len(label), 1)
        for match in _QUANTITY.finditer(label):
            position = min(match.start() / size, 1.0)
            pieces += [Piece(match.group(1), "", source, position), Piece(match.group(0), "", source, position)]
    return tuple(unique_pieces(pieces))


@functools.lru_cache(maxsize=1024)
def _screen_pieces(labels: tuple[str, ...], source: str, goal: str) -> tuple[Piece, ...]:
    """``screen_pieces`` of distinct labels short enough to read, cached by what they depend on (the goal only
    when one of them lists records)."""
    return tuple(unique_pieces(piece for label in labels for piece in _text_pieces(label, source, False, goal)))
