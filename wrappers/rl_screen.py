"""What the RL view's ids refer to on the current screen: the element slots, the texts that can be typed or
answered, where typing goes, and the answer being composed.

``ScreenReader`` keeps the episode's memory (pieces of the texts on earlier screens) and turns each step's
``info["ui_elements"]`` and the goal into an ``RLScreen``; the action and the observation wrappers both read it.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from android_gym.tasks.oracle import LAUNCHER_PACKAGE
from android_gym.ui import UIElement, descendants
from android_gym.wrappers.rl_keys import goal_digits, next_key
from android_gym.wrappers.rl_texts import Piece, quantity_pieces, screen_pieces, text_pieces, unique_pieces

SYSTEM_UI = "com.android.systemui"
_QUESTION = re.compile(r"\?|\banswer\b", re.IGNORECASE)
_COMPUTATION = re.compile(r"\b(?:sum|total|product)\b", re.IGNORECASE)
_NUMERIC = re.compile(r"^[$€£]?\s*([+-]?\d[\d,]*(?:\.\d+)?)$")


def is_slider(element: UIElement) -> bool:
    """Whether the element is a SeekBar (a slider takes drags even when it is not clickable)."""
    return element.class_name.endswith("SeekBar")


def action_slots(elements: Sequence[UIElement], size: tuple[int, int], k: int) -> list[UIElement]:
    """The first ``k`` actionable elements and sliders (document order) with a non-empty box whose centre is on
    screen. Slot ``i`` is ``action_slots(...)[i]``; the action and the observation adapters both use this."""
    width, height = size

    def on_screen(element: UIElement) -> bool:
        x, y = element.bbox_pixels.center
        return element.bbox_pixels.area > 0 and 0 <= x < width and 0 <= y < height

    return [element for element in elements
            if (element.is_actionable or is_slider(element)) and on_screen(element)][:k]


def element_label(element: UIElement, elements: Sequence[UIElement]) -> str:
    """The element's text or content description, else its descendants' labels joined (a list row's title and
    summary); ``elements`` is the whole ``info["ui_elements"]`` list the element comes from."""
    if element.label:
        return element.label
    return " ".join(other.label for other in descendants(element, elements) if other.label)


def own_texts(element: UIElement, elements: Sequence[UIElement]) -> tuple[str, ...]:
    """The texts the element shows as its own: its text or content description, else those of its descendants
    that are not inside an actionable descendant (a row's title, summary or date; not the rows of a list)."""
    if element.label:
        return (element.label,)
    texts, inside = [], None  # inside: the depth of the actionable descendant being skipped
    for other in descendants(element, elements):
        if inside is not None and other.depth > inside:
            continue
        inside = other.depth if other.is_actionable else None
        if inside is None and other.label:
            texts.append(other.label)
    return tuple(texts)


@functools.lru_cache(maxsize=8192)
def number_value(text: str) -> float | None:
    """The number a text shows ("$1,234.50" → 1234.5), or ``None``. Cached: the mask asks of every text at every
    step."""
    match = _NUMERIC.match(text.strip())
    return None if match is None else float(match.group(1).replace(",", ""))


def _front_package(elements: Sequence[UIElement]) -> str:
    """The package of the window in front: that of the first element outside the system UI."""
    return next((element.package_name for element in elements if element.package_name != SYSTEM_UI), SYSTEM_UI)


def _shown_texts(elements: Sequence[UIElement]) -> Iterator[str]:
    """The labels of the app's elements that only show something (not actionable, not the system UI's): where a
    keypad's digits appear as they are typed. Lazy: read only when a keypad is on screen."""
    return (element.label for element in elements
            if element.label and not element.is_actionable and element.package_name != SYSTEM_UI)


def _in_goal_order(pieces: list[Piece]) -> list[Piece]:
    """Pieces in the order they start in the goal, longer first."""
    return sorted(pieces, key=lambda piece: (piece.position, -len(piece.text)))


def asks_question(goal: str) -> bool:
    """Whether the goal asks for an answer (a question mark, or the word "answer")."""
    return bool(_QUESTION.search(goal))


def asks_computation(goal: str) -> bool:
    """Whether the goal asks for a number computed from others (the words "sum", "total" or "product")."""
    return bool(_COMPUTATION.search(goal))


def format_number(value: float) -> str:
    """A number as answers write it: at most two decimals, no trailing zeros ("30.49", "12")."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def composed_pieces(collected: Sequence[str]) -> list[Piece]:
    """The sum and the product of the collected texts when they are two or more numbers (source "composed"):
    what a person computes from numbers they noted down, to type or answer it."""
    numbers = [number_value(text) for text in collected]
    if len(numbers) < 2 or None in numbers:
        return []
    return unique_pieces(Piece(format_number(value), "", "composed", 0.0)
                         for value in (sum(numbers), math.prod(numbers)))


@dataclass
class RLScreen:
    """One step's referents: ``slots`` (elements), their ``labels`` and the texts each shows as its own (``parts``,
    ``own_texts``: a row's title, summary, …); ``texts``, the typing vocabulary (the
    goal's pieces in goal order, this screen's texts, remembered texts, the sum and product of collected numbers);
    ``typing_slot``, the slot a ``type`` id taps first when no field has focus (the first text field);
    ``focused_field``, whether a text field has focus (typing then goes to its caret); ``collected``, the texts
    gathered so far for an answer or a computation; ``answers``, whether answer ids are on; ``computes``, whether
    numbers can be collected for a sum or a product to type though the goal asks no question; ``next_key``, the
    keypad key that types the goal's next digit (``rl_keys``), if a keypad is on screen."""

    slots: list[UIElement] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    parts: list[tuple[str, ...]] = field(default_factory=list)
    texts: list[Piece] = field(default_factory=list)
    typing_slot: int | None = None
    focused_field: bool = False
    collected: list[str] = field(default_factory=list)
    answers: bool = False
    computes: bool = False
    next_key: str | None = None

    @property
    def can_type(self) -> bool:
        """Whether a ``type`` id has a field to type into."""
        return self.focused_field or self.typing_slot is not None

    def slot_of(self, element: UIElement | None) -> int | None:
        """The slot position of ``element``, or ``None``."""
        for position, slot in enumerate(self.slots):
            if element is not None and slot.index == element.index:
                return position
        return None

    def text_index(self, text: str) -> int | None:
        """The position of ``text`` in the typing vocabulary, or ``None``."""
        return next((position for position, piece in enumerate(self.texts) if piece.text == text), None)


@dataclass(frozen=True)
class _Parts:
    """What a screen's elements alone give its ``RLScreen`` (with the episode's goal): the slots, their labels and
    own texts, the first text field's slot, whether a field has focus, the front package, the screen's
    pieces (as this screen's and as remembered ones, and their texts), the quantities inside its texts and the
    keypad key to press next."""

    slots: list[UIElement]
    labels: list[str]
    parts: list[tuple[str, ...]]
    typing_slot: int | None
    focused: bool
    front: str
    here: list[Piece]
    remembered: list[Piece]
    texts: frozenset[str]
    quantities: list[Piece]
    next_key: str | None


_NOTHING = _Parts([], [], [], None, False, "", [], [], frozenset(), [], None)
#: Most screens whose parts a ``ScreenReader`` keeps.
_KEPT_SCREENS = 64


class ScreenReader:
    """Reads each screen into an ``RLScreen`` with ``max_elements`` slots and ``text_slots`` texts; remembers the
    pieces of the texts seen since ``start``, app by app (the newest screen first), as a person remembers what
    they read. Texts remembered from other apps than the one in front come before the front app's own: they are
    what one copies from one app into another. The launcher's (app names, the date) are not remembered."""

    def __init__(self, size: tuple[int, int], max_elements: int, text_slots: int,
                 answers: bool | None = None) -> None:
        self.size, self.max_elements, self.text_slots, self.answers = size, max_elements, text_slots, answers
        self._goal: list[Piece] = []
        self._goal_text = ""
        self._digits = ""  # what the goal asks to type on a keypad
        self._memory: dict[str, list[Piece]] = {}  # package → its remembered pieces; the last updated app last
        self._screens: dict[str, dict[frozenset[str], None]] = {}  # package → the texts of each screen of it seen
        self._last = _NOTHING
        # the parts of the screens read lately, by their elements (the env gives the same element objects for a
        # screen that comes back); each entry holds its elements, so their ids in the key stay theirs
        self._parts: dict[tuple[int, ...], tuple[tuple[UIElement, ...], _Parts]] = {}
        self._screen: RLScreen | None = None  # the last one read
        self._answers = self._computes = False

    def start(self, goal: str) -> None:
        """Begin an episode with ``goal``: its pieces, an empty memory."""
        # a text's id depends only on the goal before it, so goals of one template give their values the same
        # ids; a goal too long for that (several recipes) keeps its sentences and values first, its words after
        pieces = _in_goal_order(text_pieces(goal, "goal"))
        if len(pieces) > self.text_slots * 3 // 4:
            coarse = _in_goal_order(text_pieces(goal, "goal", words=False))
            pieces = coarse + [piece for piece in pieces if piece not in set(coarse)]
        self._goal, self._goal_text, self._digits = pieces, goal, goal_digits(goal)
        self._memory, self._screens, self._last, self._parts, self._screen = {}, {}, _NOTHING, {}, None
        self._answers = asks_question(goal) if self.answers is None else self.answers
        self._computes = asks_computation(goal)

    def read(self, elements: Sequence[UIElement], collected: Sequence[str] = ()) -> RLScreen:
        """The ``RLScreen`` of the new screen ``elements``; the previous screen's pieces join the memory. The same
        ``RLScreen`` object as the last one when nothing it is read from changed (the screen, the memory and the
        collected texts)."""
        last, changed = self._last, self._remember(self._last)
        self._last = parts = self._parts_of(elements)
        if changed or parts is not last or self._screen is None or self._screen.collected != list(collected):
            self._screen = self._compose(parts, collected)
        return self._screen

    def peek(self, elements: Sequence[UIElement], collected: Sequence[str] = ()) -> RLScreen:
        """The ``RLScreen`` of ``elements`` as the current screen, remembering nothing."""
        return self._compose(self._parts_of(elements), collected)

    def _parts_of(self, elements: Sequence[UIElement]) -> _Parts:
        """The parts of the screen ``elements``: kept ones when it is a screen read lately."""
        key = tuple(map(id, elements))
        kept = self._parts.get(key)
        if kept is not None:
            return kept[1]
        slots = action_slots(elements, self.size, self.max_elements)
        fields = [position for position, slot in enumerate(slots) if slot.is_editable]
        labels = [element.label for element in elements]
        here = screen_pieces(labels, goal=self._goal_text)
        slot_labels = [element_label(slot, elements) for slot in slots]
        parts = _Parts(
            slots, slot_labels, [own_texts(slot, elements) for slot in slots], fields[0] if fields else None,
            any(element.is_editable and element.is_focused for element in elements), _front_package(elements),
            here, [Piece(piece.text, piece.key, "memory", piece.position) for piece in here],
            frozenset(piece.text for piece in here),
            # a question is answered with what the screen says: the quantities inside its texts count as texts too
            quantity_pieces(labels) if self._answers else [],
            next_key(self._digits, slot_labels, _shown_texts(elements)))
        if len(self._parts) >= _KEPT_SCREENS:
            del self._parts[next(iter(self._parts))]
        self._parts[key] = (tuple(elements), parts)
        return parts

    def _remember(self, parts: _Parts) -> bool:
        """Let the pieces of the screen read last (``parts``) join the memory; whether the memory changed."""
        if parts.front == LAUNCHER_PACKAGE:  # app names and the date: nothing one copies
            return False
        # the newest screen's texts first, less those it shares with an earlier screen of the app showing most of
        # them (the same screen again): a list one comes back to does not push back the note read in between, and
        # another item's details bring forward that item's texts, not the labels all details show
        texts, earlier = parts.texts, self._screens.setdefault(parts.front, {})
        first = []  # a screen seen before adds nothing: it shares all its texts with itself
        if texts not in earlier:  # each distinct screen once: the list grows with the screens, not the steps
            like = max(earlier, key=lambda screen: len(screen & texts), default=frozenset())
            like = like if 2 * len(like & texts) > len(texts) else frozenset()
            earlier[texts] = None
            first = [piece for piece in parts.remembered if piece.text not in like]
        moved = next(reversed(self._memory), None) != parts.front  # the app remembered last comes last
        remembered = self._memory.pop(parts.front, [])
        self._memory[parts.front] = unique_pieces(first + remembered, 4 * self.text_slots) if first else remembered
        return bool(first) or moved

    def _compose(self, parts: _Parts, collected: Sequence[str]) -> RLScreen:
        front = parts.front
        others = [piece for package in reversed(self._memory) if package != front for piece in self._memory[package]]
        memory = others + self._memory.get(front, [])
        texts = unique_pieces(self._goal + parts.here + parts.quantities + memory, self.text_slots)
        # the sum and product last: collecting moves no other text's id (the last ones make room when all are taken)
        composed = [piece for piece in composed_pieces(collected) if piece.text not in {text.text for text in texts}]
        texts = texts[:self.text_slots - len(composed)] + composed
        return RLScreen(list(parts.slots), list(parts.labels), list(parts.parts), texts, parts.typing_slot,
                        parts.focused, list(collected), self._answers, self._computes, parts.next_key)
