"""Fixed-size observations for RL (stable-baselines3 takes them as they are): the screen scaled down
(``PixelObservation``, for ``CnnPolicy``) and tables of the screen's element slots and typeable texts plus the
goal (``ElementFeatureObservation``, a flat ``Dict`` of ``Box``/``MultiBinary`` for ``MultiInputPolicy``).
"""

from __future__ import annotations

import functools
import html
import re
import zlib
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from android_gym.wrappers.rl_actions import AdapterConfigError, require_sizes, screen_size
from android_gym.wrappers.rl_screen import RLScreen, is_slider, number_value
from android_gym.wrappers.rl_texts import Piece, text_pieces, typeable

LABEL_BUCKETS = 32
ID_BUCKETS = 32
TEXT_BUCKETS = 32
KEY_BUCKETS = 16
GOAL_BUCKETS = 128
#: The version of the view's columns, in the default dataset ids (``oracle-v1``): datasets and models recorded on
#: an older version must be recorded again. 1: the label's words hashed gave way to those it shares with the goal
#: and to its resource id's and class's words, the same in every language.
RL_VIEW_VERSION = 1
_FLAGS = ("clickable", "long_clickable", "checkable", "checked", "editable", "scrollable", "focused", "selected",
          "enabled", "password", "slider", "present")
#: The columns of ``elements``: the box in screen fractions; the element's flags (``present`` is 1 for a filled
#: slot); ``typing_target``, 1 for the field a ``type`` id types into; ``in_goal``, 1 when the label or the first
#: of the texts it joins (a row's title: a file's name, a conversation's number, not its last message) is a piece
#: of the goal, compared by their letters and digits alone (``match_key``), ``goal_words``, the share of the
#: label's words the goal has, ``goal_position``, where in the goal the matching piece appears (0..1; the longer
#: when both match); ``next_key``, 1 for the keypad key that types the goal's next digit (``rl_keys``); the
#: label's words that the goal has too, hashed (CRC-32) into ``LABEL_BUCKETS`` bits; the words of what the element
#: is (``id_words``: its resource id's name and its class) into ``ID_BUCKETS`` bits. No column holds the label's
#: other words: they change with the phone's language (a French "Appareils connectés" is a German "Verbundene
#: Geräte"), so a policy that read them would not carry over to a language it was not trained on.
ELEMENT_FEATURES = ("x_min", "y_min", "x_max", "y_max", *_FLAGS, "typing_target", "in_goal", "goal_words",
                    "goal_position", "next_key", *(f"goal_word_{b}" for b in range(LABEL_BUCKETS)),
                    *(f"id_word_{b}" for b in range(ID_BUCKETS)))
_WORD_COLUMNS, _ID_COLUMNS = ELEMENT_FEATURES.index("goal_word_0"), ELEMENT_FEATURES.index("id_word_0")
#: Most rows of each kind ``ElementFeatureObservation`` keeps (labels' and typeable texts').
_KEPT_ROWS = 4096
#: The columns of ``texts`` (row j: the typing vocabulary's text j, ``ElementActions``' ``type``/``answer`` ids):
#: ``present``; its source (goal, screen, memory; none for the sum or the product of collected numbers);
#: ``number``, 1 if it is a number; ``length``, log-scaled; ``position``, where it starts in its source text;
#: ``on_screen``, 1 when an element shows exactly it; ``fits_field``, the share of the typing field's label words
#: found in the text's key ("Amount" ↔ "amount_dollars"); ``collected``, 1 once collected (for an answer or a
#: computation); its words and its key's words that the goal has too, hashed (the goal's own pieces: all their
#: words): a screen's other words change with the phone's language, as a label's do.
TEXT_FEATURES = ("present", "from_goal", "from_screen", "from_memory", "number", "length", "position", "on_screen",
                 "fits_field", "collected", *(f"text_word_{b}" for b in range(TEXT_BUCKETS)),
                 *(f"key_word_{b}" for b in range(KEY_BUCKETS)))
#: ``status``: collected answer pieces (/8, at most 1), answers on, a text field on screen, a field focused.
STATUS_FEATURES = ("collected", "answers", "field_on_screen", "field_focused")
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """The case-folded words of ``text`` (letters and digits; "amount_dollars" is two words)."""
    return _WORD.findall(text.casefold())


@functools.lru_cache(maxsize=8192)
def match_key(text: str) -> str:
    """What a label and a piece of the goal are compared by: the text's letters and digits, case-folded, accents
    dropped ("+1 872-703-5111" and "+18727035111" both give "18727035111"). Cached: a screen's labels come back."""
    return "".join(words(typeable(text)))


def hashed_words(text: str, buckets: int) -> np.ndarray:
    """A float32 vector of ``buckets`` bits: bit ``crc32(word) % buckets`` is set for each of ``words(text)``;
    deterministic across processes, unlike ``hash()``."""
    return hashed(words(text), buckets)


def hashed(word_list: Sequence[str], buckets: int) -> np.ndarray:
    """``hashed_words`` of words already split."""
    vector = np.zeros(buckets, dtype=np.float32)
    for word in word_list:
        vector[zlib.crc32(word.encode("utf-8")) % buckets] = 1.0
    return vector


def id_words(resource_name: str, class_name: str) -> list[str]:
    """The words of what an element is, which no translation changes: its resource id's name and its class's
    ("com.google.android.contacts:id/floating_action_button", "android.widget.ImageButton" → floating, action,
    button, imagebutton)."""
    return words(resource_name.rpartition("/")[2]) + words(class_name.rpartition(".")[2])


def _image_shape(shape: Any) -> tuple[int, int]:
    try:
        height, width = shape
    except (TypeError, ValueError):
        raise AdapterConfigError(f"the pixels shape must be (height, width), got {shape!r}") from None
    require_sizes(1, pixels_height=height, pixels_width=width)
    return height, width


def _require_keys(env: gym.Env, keys: Sequence[str], wrapper: str) -> None:
    """``AdapterConfigError`` unless ``env``'s observations carry ``keys``."""
    space = env.observation_space
    missing = [key for key in keys if not isinstance(space, spaces.Dict) or key not in space.spaces]
    if missing == ["pixels"]:
        raise AdapterConfigError(f"{wrapper} needs the screen in the observation: make the env with pixels=True, "
                                 "e.g. gym.make('AndroidWorld/SendSms-v0', pixels=True)")
    if missing:
        raise AdapterConfigError(f"{wrapper} needs the env's observation keys {missing}: wrap the AndroidEnv "
                                 "observation itself, not another observation wrapper's")


class _Resize:
    """The screen scaled to ``(height, width)`` with Pillow (bilinear after a box reduction, ``reducing_gap``),
    in RGB or one grey channel."""

    def __init__(self, shape: tuple[int, int], grayscale: bool) -> None:
        self.shape, self.grayscale = _image_shape(shape), bool(grayscale)
        self.space = spaces.Box(0, 255, (*self.shape, 1 if self.grayscale else 3), np.uint8)

    def __call__(self, pixels: np.ndarray) -> np.ndarray:
        image = Image.fromarray(pixels)
        if self.grayscale:
            image = image.convert("L")
        height, width = self.shape
        array = np.asarray(image.resize((width, height), Image.BILINEAR, reducing_gap=3.0), dtype=np.uint8)
        return array.reshape(self.space.shape)


class PixelObservation(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """The observation is only the screen, scaled to ``shape = (height, width)``: a ``uint8`` ``Box (H, W, C)``
    with C = 3 (RGB) or 1 (``grayscale``), as SB3's ``CnnPolicy`` takes it. Needs an env made with ``pixels=True``.
    """

    def __init__(self, env: gym.Env, shape: tuple[int, int] = (128, 64), grayscale: bool = False) -> None:
        _require_keys(env, ["pixels"], "PixelObservation")
        self._resize = _Resize(shape, grayscale)
        gym.utils.RecordConstructorArgs.__init__(self, shape=self._resize.shape, grayscale=self._resize.grayscale)
        gym.ObservationWrapper.__init__(self, env)
        self.observation_space = self._resize.space

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The scaled screen."""
        return self._resize(observation["pixels"])



class ElementFeatureObservation(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """What ``ElementActions``' ids refer to, as fixed-size arrays for SB3's ``MultiInputPolicy``: the element
    slots, the typing vocabulary, the goal's words, and the state of typing and answering.

    ## Observation Space
    ``Dict`` of:

    * ``elements``: ``Box(0, 1, (K, len(ELEMENT_FEATURES)), float32)``; row ``i`` describes slot ``i`` (what the
      ``tap``/``long_press``/``drag`` ids of slot ``i`` act on), zeros for an empty slot. ``ELEMENT_FEATURES``
      says what each column means.
    * ``element_mask``: ``MultiBinary(K)``, 1 for a filled slot.
    * ``texts``: ``Box(0, 1, (T, len(TEXT_FEATURES)), float32)``; row ``j`` describes text ``j`` (what the
      ``type``/``replace``/``answer_text``/``collect`` ids of text ``j`` use). ``TEXT_FEATURES`` has the columns.
    * ``text_mask``: ``MultiBinary(T)``, 1 for a filled text row.
    * ``goal``: ``Box(0, 1, (GOAL_BUCKETS,), float32)``, the goal's words hashed like the labels'.
    * ``status``: ``Box(0, 1, (len(STATUS_FEATURES),), float32)``.
    * ``pixels`` (when ``pixels_shape`` is given; needs ``pixels=True``): the screen as ``PixelObservation``.

    Wraps an ``ElementActions`` (directly or through other wrappers) and reads its ``rl_screen`` each step.
    """

    def __init__(self, env: gym.Env, pixels_shape: tuple[int, int] | None = None) -> None:
        _require_keys(env, ["goal"] + (["pixels"] if pixels_shape is not None else []), "ElementFeatureObservation")
        try:
            actions = env.get_wrapper_attr("layout")
        except AttributeError:
            actions = None
        if actions is None or "collect" not in actions.ranges:
            raise AdapterConfigError("ElementFeatureObservation reads ElementActions' screen: wrap "
                                     "ElementActions(env), e.g. make_rl_env(env_id)")
        self._resize = None if pixels_shape is None else _Resize(pixels_shape, grayscale=False)
        shape = None if self._resize is None else self._resize.shape
        gym.utils.RecordConstructorArgs.__init__(self, pixels_shape=shape)
        gym.Wrapper.__init__(self, env)
        self.max_elements = env.get_wrapper_attr("max_elements")
        self.text_slots = env.get_wrapper_attr("text_slots")
        observation = {
            "elements": spaces.Box(0.0, 1.0, (self.max_elements, len(ELEMENT_FEATURES)), np.float32),
            "element_mask": spaces.MultiBinary(self.max_elements),
            "texts": spaces.Box(0.0, 1.0, (self.text_slots, len(TEXT_FEATURES)), np.float32),
            "text_mask": spaces.MultiBinary(self.text_slots),
            "goal": spaces.Box(0.0, 1.0, (GOAL_BUCKETS,), np.float32),
            "status": spaces.Box(0.0, 1.0, (len(STATUS_FEATURES),), np.float32),
        }
        if self._resize is not None:
            observation = {"pixels": self._resize.space, **observation}
        self.observation_space = spaces.Dict(observation)
        self._size = screen_size(env)
        self._goal_hashed = np.zeros(GOAL_BUCKETS, dtype=np.float32)
        self._goal_pieces: dict[str, float] = {}  # match_key of each goal piece → where it starts in the goal
        self._goal_words: set[str] = set()
        # a label's words, its goal columns in this episode and the columns of a piece alone, for _KEPT_ROWS of
        # each or a screen's worth, whichever is more
        size = max(_KEPT_ROWS, self.max_elements)
        self._label_words = _RowTable(functools.partial(self._shared, buckets=LABEL_BUCKETS), LABEL_BUCKETS,
                                      size)  # forgotten with the goal, as the pieces' rows
        self._id_words = _RowTable(_id_row, ID_BUCKETS, size)
        self._label_goals: dict[tuple[str, tuple[str, ...]], tuple[bool, float, float]] = {}
        self._piece_rows = _RowTable(self._piece_row, len(TEXT_FEATURES), max(_KEPT_ROWS, self.text_slots))
        self._screen: RLScreen | None = None  # the screen of the last observation, and its features
        self._features: dict[str, np.ndarray] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset; the observation of the first screen."""
        observation, info = self.env.reset(seed=seed, options=options)
        self._size = screen_size(self.env)  # a device configuration may change it from episode to episode
        goal = html.unescape(observation["goal"])
        self._goal_hashed = hashed_words(goal, GOAL_BUCKETS)  # the goal stays for the episode
        self._goal_words = set(words(goal))
        self._goal_pieces = {}
        self._label_goals = {}
        self._label_words.clear()
        self._piece_rows.clear()
        self._screen = None
        for piece in text_pieces(goal, "goal"):
            key = match_key(piece.text)
            if key:
                self._goal_pieces.setdefault(key, piece.position)
        return self._observe(observation), info

    def step(self, action: Any):
        """Step; the observation of the new screen."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._observe(observation), reward, terminated, truncated, info

    def _observe(self, observation: dict[str, Any]) -> dict[str, np.ndarray]:
        screen: RLScreen = self.env.get_wrapper_attr("rl_screen")
        if screen is not self._screen:  # else the screen is read as before: the same features
            self._screen, self._features = screen, self._features_of(screen)
        result = {key: value.copy() for key, value in self._features.items()}
        if self._resize is not None:
            result = {"pixels": self._resize(observation["pixels"]), **result}
        return result

    def _features_of(self, screen: RLScreen) -> dict[str, np.ndarray]:
        elements = np.zeros(self.observation_space["elements"].shape, dtype=np.float32)
        element_mask = np.zeros(self.max_elements, dtype=np.int8)
        if screen.slots:
            self._element_rows(screen, elements)
            element_mask[:len(screen.slots)] = 1
        field_words = set()
        if screen.typing_slot is not None:
            field_words = set(words(screen.labels[screen.typing_slot]))
        focused = [slot for slot in screen.slots if slot.is_editable and slot.is_focused]
        if focused:
            field_words = set(words(focused[0].label))
        texts = np.zeros(self.observation_space["texts"].shape, dtype=np.float32)
        text_mask = np.zeros(self.text_slots, dtype=np.int8)
        if screen.texts:
            self._text_rows(screen, field_words, texts)
            text_mask[:len(screen.texts)] = 1
        status = np.array([min(len(screen.collected) / 8, 1.0), screen.answers, screen.typing_slot is not None,
                           screen.focused_field], dtype=np.float32)
        return {"elements": elements, "element_mask": element_mask, "texts": texts, "text_mask": text_mask,
                "goal": self._goal_hashed, "status": status}

    def _element_rows(self, screen: RLScreen, out: np.ndarray) -> None:
        """Fill ``out``'s first rows with the slots' rows: the box, flags, typing target and the label's goal
        columns, then the label's words the goal has (cached by label for the episode) and the id words (cached by
        resource id and class)."""
        width, height = self._size
        count, typing = len(screen.slots), screen.typing_slot if not screen.focused_field else None
        rows = []
        for position, (element, label, parts) in enumerate(zip(screen.slots, screen.labels, screen.parts)):
            box = element.bbox_pixels
            rows.append((box.x_min / width, box.y_min / height, box.x_max / width, box.y_max / height,
                         element.is_clickable, element.is_long_clickable, element.is_checkable, element.is_checked,
                         element.is_editable, element.is_scrollable, element.is_focused, element.is_selected,
                         element.is_enabled, element.is_password, is_slider(element), True, position == typing,
                         *self._in_goal(label, parts), label == screen.next_key))
        out[:count, :_WORD_COLUMNS] = rows
        np.clip(out[:count, :4], 0.0, 1.0, out=out[:count, :4])  # after the cast: the same, 0 and 1 being float32s
        out[:count, _WORD_COLUMNS:_ID_COLUMNS] = self._label_words.take(screen.labels)
        out[:count, _ID_COLUMNS:] = self._id_words.take([(slot.resource_name, slot.class_name)
                                                         for slot in screen.slots])

    def _in_goal(self, label: str, parts: tuple[str, ...]) -> tuple[bool, float, float]:
        """The ``in_goal``, ``goal_words`` and ``goal_position`` of a label joining ``parts``, its own texts (kept
        for the episode, whose goal they depend on). A row is named by its title, its first text: a conversation
        whose last message is the one the goal asks to send is not the one to open."""
        known = self._label_goals.get((label, parts))
        if known is None:
            label_words = words(label)
            shared = sum(word in self._goal_words for word in label_words) / len(label_words) if label_words else 0.0
            matches = [key for key in map(match_key, dict.fromkeys((label, *parts[:1]))) if key in self._goal_pieces]
            longest = max(matches, key=len, default=None)
            known = (longest is not None, shared, 0.0 if longest is None else self._goal_pieces[longest])
            if len(self._label_goals) >= _KEPT_ROWS:
                self._label_goals.clear()
            self._label_goals[label, parts] = known
        return known

    def _text_rows(self, screen: RLScreen, field_words: set[str], out: np.ndarray) -> None:
        """Fill ``out``'s first rows with the texts' rows: the columns of the piece alone, cached by piece, then
        ``on_screen``, ``fits_field`` and ``collected``."""
        count = len(screen.texts)
        out[:count] = self._piece_rows.take(screen.texts)
        shown, collected = set(screen.labels), set(screen.collected)
        out[:count, 7] = [piece.text in shown for piece in screen.texts]
        if field_words:
            out[:count, 8] = [len(field_words & _key_words(piece.key)) / len(field_words) for piece in screen.texts]
        out[:count, 9] = [piece.text in collected for piece in screen.texts]

    def _piece_row(self, piece: Piece) -> np.ndarray:
        """The text columns that depend on the piece and the goal alone (``on_screen``, ``fits_field``,
        ``collected`` left 0)."""
        return np.concatenate([
            [True, piece.source == "goal", piece.source == "screen", piece.source == "memory",
             number_value(piece.text) is not None, min(np.log1p(len(piece.text)) / 7.0, 1.0), piece.position,
             False, False, False],
            self._shared(piece.text, TEXT_BUCKETS), self._shared(piece.key, KEY_BUCKETS)]).astype(np.float32)

    def _shared(self, text: str, buckets: int) -> np.ndarray:
        """The words of ``text`` that the goal has too, hashed into ``buckets`` bits: those a policy can read in any
        language (the goal's are English; "Bluetooth" is in "Connected devices Bluetooth, pairing" and "Appareils
        connectés Bluetooth, association")."""
        return hashed([word for word in words(text) if word in self._goal_words], buckets)


def _id_row(key: tuple[str, str]) -> np.ndarray:
    """The ``id_word`` columns of an element's ``(resource_name, class_name)``."""
    return hashed(id_words(*key), ID_BUCKETS)


@functools.lru_cache(maxsize=1024)
def _key_words(key: str) -> frozenset[str]:
    return frozenset(words(key))


class _RowTable:
    """Rows ``make`` computes from their key, kept in one array (at most ``size`` rows, then all forgotten at once)
    so that a screen's rows are gathered in one indexing."""

    def __init__(self, make: Callable[[Any], np.ndarray], width: int, size: int) -> None:
        self.make = make
        self.rows = np.zeros((size, width), dtype=np.float32)
        self.numbers: dict[Any, int] = {}  # key → its row

    def clear(self) -> None:
        """Forget every row (what they were computed from changed)."""
        self.numbers.clear()

    def take(self, keys: Sequence[Any]) -> np.ndarray:
        """The rows of ``keys`` (at most ``size`` of them), computed for those not kept."""
        numbers = self.numbers
        if len(numbers) + len(keys) > len(self.rows):  # room for all of them: none is overwritten before it is read
            numbers.clear()
        taken = []
        for key in keys:
            number = numbers.get(key)
            if number is None:
                number = numbers[key] = len(numbers)
                self.rows[number] = self.make(key)
            taken.append(number)
        return self.rows[taken]
