"""Fixed-size observations for RL (stable-baselines3 takes them as they are): the screen scaled down
(``PixelObservation``, for ``CnnPolicy``) and a table of the screen's actionable elements plus the goal
(``ElementFeatureObservation``, a flat ``Dict`` of ``Box``/``MultiBinary`` for ``MultiInputPolicy``).
"""

from __future__ import annotations

import html
import re
import zlib
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image

from android_gym.ui import UIElement
from android_gym.wrappers.rl_actions import (
    AdapterConfigError,
    action_slots,
    element_label,
    require_sizes,
    screen_size,
    task_texts,
)

LABEL_BUCKETS = 8
GOAL_BUCKETS = 64
_FLAGS = ("clickable", "long_clickable", "checkable", "checked", "editable", "scrollable", "focused", "selected",
          "enabled", "password", "present")
#: The columns of an ``elements`` row before the per-text ones (``ElementFeatureObservation.features`` has all):
#: the box in screen fractions, the element's flags (``present`` is 1 for a filled slot), and its label's words
#: hashed (CRC-32) into ``LABEL_BUCKETS`` presence bits.
FEATURES = ("x_min", "y_min", "x_max", "y_max", *_FLAGS, *(f"label_word_{b}" for b in range(LABEL_BUCKETS)))
_WORD = re.compile(r"\w+")


def hashed_words(text: str, buckets: int) -> np.ndarray:
    """A float32 vector of ``buckets`` bits: bit ``crc32(word) % buckets`` is set for each word of ``text``
    (case-folded); deterministic across processes, unlike ``hash()``."""
    vector = np.zeros(buckets, dtype=np.float32)
    for word in _WORD.findall(text.casefold()):
        vector[zlib.crc32(word.encode("utf-8")) % buckets] = 1.0
    return vector


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
    """The screen's actionable elements as a fixed table, the goal as hashed words, optionally the screen.

    ## Observation Space
    ``Dict`` of:

    * ``elements``: ``Box(0, 1, (K, F), float32)``; row ``i`` describes slot ``i`` of ``action_slots`` (the element
      ``ElementActions`` taps with id ``i``), zeros for an empty slot. Columns (``self.features``): ``FEATURES``,
      then for each task text k (``task_texts(info["params"], P)``) ``text_k_equals`` / ``text_k_contains``: the
      element's label (``element_label``) equals / contains it, case-insensitively.
    * ``element_mask``: ``MultiBinary(K)``, 1 for a filled slot.
    * ``goal``: ``Box(0, 1, (64,), float32)``, the goal's words hashed like the labels'.
    * ``pixels`` (when ``pixels_shape`` is given; needs ``pixels=True``): the screen as ``PixelObservation``.
    """

    def __init__(self, env: gym.Env, max_elements: int = 32, text_slots: int = 4,
                 pixels_shape: tuple[int, int] | None = None) -> None:
        require_sizes(1, max_elements=max_elements)
        require_sizes(0, text_slots=text_slots)
        _require_keys(env, ["goal"] + (["pixels"] if pixels_shape is not None else []), "ElementFeatureObservation")
        self._resize = None if pixels_shape is None else _Resize(pixels_shape, grayscale=False)
        gym.utils.RecordConstructorArgs.__init__(self, max_elements=max_elements, text_slots=text_slots,
                                                 pixels_shape=None if self._resize is None else self._resize.shape)
        gym.Wrapper.__init__(self, env)
        self.max_elements, self.text_slots = max_elements, text_slots
        self.features = FEATURES + tuple(f"text_{k}_{relation}" for k in range(text_slots)
                                         for relation in ("equals", "contains"))
        observation = {
            "elements": spaces.Box(0.0, 1.0, (max_elements, len(self.features)), np.float32),
            "element_mask": spaces.MultiBinary(max_elements),
            "goal": spaces.Box(0.0, 1.0, (GOAL_BUCKETS,), np.float32),
        }
        if self._resize is not None:
            observation = {"pixels": self._resize.space, **observation}
        self.observation_space = spaces.Dict(observation)
        self._size = screen_size(env)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset; the observation of the first screen."""
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observe(observation, info), info

    def step(self, action: Any):
        """Step; the observation of the new screen."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._observe(observation, info), reward, terminated, truncated, info

    def _observe(self, observation: dict[str, Any], info: dict[str, Any]) -> dict[str, np.ndarray]:
        elements = info.get("ui_elements", [])
        texts = [text.casefold() for text in task_texts(info.get("params", {}), self.text_slots)]
        table = np.zeros(self.observation_space["elements"].shape, dtype=np.float32)
        mask = np.zeros(self.max_elements, dtype=np.int8)
        for row, slot in enumerate(action_slots(elements, self._size, self.max_elements)):
            table[row] = self._row(slot, element_label(slot, elements).casefold(), texts)
            mask[row] = 1
        result = {"elements": table, "element_mask": mask,
                  "goal": hashed_words(html.unescape(observation["goal"]), GOAL_BUCKETS)}
        if self._resize is not None:
            result = {"pixels": self._resize(observation["pixels"]), **result}
        return result

    def _row(self, element: UIElement, label: str, texts: list[str]) -> np.ndarray:
        width, height = self._size
        box = element.bbox_pixels
        corners = np.clip([box.x_min / width, box.y_min / height, box.x_max / width, box.y_max / height], 0.0, 1.0)
        flags = [element.is_clickable, element.is_long_clickable, element.is_checkable, element.is_checked,
                 element.is_editable, element.is_scrollable, element.is_focused, element.is_selected,
                 element.is_enabled, element.is_password, True]
        matches = [relation for text in texts for relation in (label == text, text in label)]
        matches += [False] * (2 * self.text_slots - len(matches))
        return np.concatenate([corners, flags, hashed_words(label, LABEL_BUCKETS), matches]).astype(np.float32)
