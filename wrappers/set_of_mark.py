"""Set-of-Mark: numbered labels on the screenshot for the elements an agent can name by index.

The number on a mark is always the element's ``index`` in ``info["ui_elements"]``, the index the env's
``click``/``long_press``/``scroll``/``input_text`` actions take, so "tap 7" on the picture is
``{"action_type": "click", "index": 7}``. Two styles, taken from the seeds' code:

* ``"androidworld"`` (default; AndroidWorld's M3A agent, ``android_world/env/representation_utils.py``
  ``forest_to_ui_elements`` and ``android_world/agents/m3a_utils.py`` ``validate_ui_element`` /
  ``add_ui_element_mark``): leaf nodes, nodes with a content description and scrollable nodes, when visible;
  a green rectangle round each, and a white label with the number in black at a corner of it. AndroidWorld puts
  the label inside the box at its top-left corner, where it covers the first letters of the text it marks ("I
  found" reads "found"); here it goes where it hides the least, as OmniParser's Set-of-Mark renderer places its
  labels: at a free corner, above the box when there is room, else inside its top, else below or beside it
  (``label_boxes``).
* ``"appagent"`` (AppAgent, ``scripts/and_controller.py`` ``traverse_tree``, ``scripts/task_executor.py``,
  ``scripts/utils.py`` ``draw_bbox_multi``, ``MIN_DIST: 30`` in ``config.yaml``): clickable nodes, then focusable
  ones, dropping any whose centre is within 30 px of one already kept; no rectangles, a label on a translucent
  dark background with light text whose corner is at the element's centre (the text 10 px further in).

Sizes (rectangle thickness, font, padding, AppAgent's 30 px) are given for a 1080 px wide screen and scale with
the screen width. Every label is framed by an opaque dark and an opaque light layer next to each other (for
AndroidWorld the black outline and the white label itself; for AppAgent, whose fill is translucent, a dark and a
light ring), the two-colour technique of WCAG C40: any screen colour contrasts at least 4.5:1 with one of
black and white, so the label's edge stays visible on light, dark and mid-grey screens alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from PIL import Image, ImageDraw, ImageFont

from android_gym.errors import AndroidGymError
from android_gym.ui import UIElement

REFERENCE_WIDTH = 1080
#: AppAgent's ``MIN_DIST`` (pixels at the reference width).
APPAGENT_MIN_DIST = 30
BOX_COLOUR = (0, 255, 0)
BOX_THICKNESS = 2
FONT_SIZE = 22  # digits 15 px tall, like AndroidWorld's cv2 HERSHEY_SIMPLEX at scale 0.7
MIN_FONT_SIZE = 12  # digits 8 px tall, the floor for small screens (22 px would scale to 7 at 320 wide)
#: A colour step (in any channel) that counts as an edge when weighing what a label would hide.
EDGE_STEP = 40
#: A label over fewer edge pixels than 1/100 of its area hides nothing to speak of (a divider line's end; a crisp
#: glyph's corner at 540 px wide is 2 of a 13 x 15 label's, and is something).
HIDDEN_TOLERANCE = 100
DARK = (10, 10, 10)
LIGHT = (255, 250, 250)


@dataclass(frozen=True)
class _Look:
    """How one style's labels look: where they sit, their padding (at the reference width) and colours."""

    at_centre: bool
    padding: int
    rings: tuple[tuple[int, int, int, int], ...]  # outermost first
    fill: tuple[int, int, int, int]
    text: tuple[int, int, int, int]
    boxes: bool


_LOOKS = {
    # AndroidWorld: white 34x24 label, black text, green box; our black outline keeps it visible on white.
    "androidworld": _Look(at_centre=False, padding=4, rings=((0, 0, 0, 255),), fill=(255, 255, 255, 255),
                          text=(0, 0, 0, 255), boxes=True),
    # AppAgent: pyshine putBText(space=10, alpha=0.5, background (10,10,10), text (255,250,250)). The fill is
    # opaque instead of 50%, so light text keeps 4.5:1 on a white screen (50% gives 3.7:1) and the number stays
    # readable over a busy spot (a launcher icon's glyph, a photo), where a see-through fill lets it show through.
    "appagent": _Look(at_centre=True, padding=10, rings=((*DARK, 255), (*LIGHT, 255)), fill=(*DARK, 255),
                      text=(*LIGHT, 255), boxes=False),
}
STYLES = tuple(_LOOKS)


class SetOfMarkError(AndroidGymError, ValueError):
    """A Set-of-Mark configuration or input that cannot work (unknown style, no pixels to draw on, ...)."""


@dataclass(frozen=True)
class _Layout:
    """A style's sizes for one screen width."""

    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    padding: int
    ring: int
    box: int


def _look(style: str) -> _Look:
    if style not in _LOOKS:
        raise SetOfMarkError(f"unknown Set-of-Mark style {style!r}; use one of {list(STYLES)}")
    return _LOOKS[style]


@lru_cache(maxsize=64)
def _layout(width: int, style: str) -> _Layout:
    scale = width / REFERENCE_WIDTH
    return _Layout(font=ImageFont.load_default(size=max(MIN_FONT_SIZE, round(FONT_SIZE * scale))),
                   padding=max(2, round(_look(style).padding * scale)),
                   ring=min(2, max(1, round(2 * scale))),
                   box=max(1, round(BOX_THICKNESS * scale)))


def _is_visible(element: UIElement, screen_size: tuple[int, int]) -> bool:
    """AndroidWorld's ``validate_ui_element``: a non-empty box that overlaps the screen (uiautomator dumps hold
    only nodes visible to the user, so the box is all there is to check)."""
    box, (width, height) = element.bbox_pixels, screen_size
    return box.x_min < box.x_max and box.y_min < box.y_max and box.x_min < width and box.x_max > 0 \
        and box.y_min < height and box.y_max > 0


def _androidworld(elements: Sequence[UIElement], screen_size: tuple[int, int]) -> list[UIElement]:
    following_depths = [element.depth for element in elements[1:]] + [-1]
    return [element for element, following in zip(elements, following_depths)
            if (following <= element.depth or element.content_description or element.is_scrollable)
            and _is_visible(element, screen_size)]


def _appagent(elements: Sequence[UIElement], screen_size: tuple[int, int]) -> list[UIElement]:
    min_dist = APPAGENT_MIN_DIST * screen_size[0] / REFERENCE_WIDTH
    visible = [element for element in elements if _is_visible(element, screen_size)]
    kept: list[UIElement] = []
    for candidates in ([e for e in visible if e.is_clickable], [e for e in visible if e.is_focusable]):
        for element in candidates:
            centre = element.bbox_pixels.center
            if all(math.dist(centre, other.bbox_pixels.center) > min_dist for other in kept):
                kept.append(element)
    return sorted(kept, key=lambda element: element.index)


def marked_elements(elements: Sequence[UIElement], screen_size: tuple[int, int],
                    style: str = "androidworld") -> list[UIElement]:
    """The elements that get a mark, in index order.

    ``elements`` is the whole ``info["ui_elements"]`` list in document order (a leaf is a node whose successor
    is not deeper); ``screen_size`` is ``(width, height)``. Only elements whose box overlaps the screen count.

    * ``"androidworld"``: leaves, nodes with a content description, and scrollable nodes.
    * ``"appagent"``: clickable nodes, then focusable ones, each in document order, skipping a node whose centre
      lies within 30 px of an already kept one; the 30 px are for a 1080 px wide screen and scale with the
      width (15 px at 540), so the same screen gets the same marks at any resolution. AppAgent thins the
      focusable nodes among themselves before dropping those near a clickable one, so a focusable node can lose
      its only nearby mark; here every node is compared with the marks kept so far, so each clickable or
      focusable node lies within 30 px of a mark.
    """
    _look(style)
    return (_androidworld if style == "androidworld" else _appagent)(elements, screen_size)


@lru_cache(maxsize=4096)
def _label_size(index: int, width: int, style: str) -> tuple[int, int]:
    """The label's pixel size for the number ``index`` on a screen ``width`` pixels wide."""
    look, layout = _look(style), _layout(width, style)
    left, top, right, bottom = layout.font.getbbox(str(index))
    inset = layout.padding + layout.ring * len(look.rings)
    return right - left + 2 * inset, bottom - top + 2 * inset


def _candidates(box: tuple[int, int, int, int], size: tuple[int, int]) -> list[tuple[int, int]]:
    """Top-left corners a label may take, best first: on the element's top edge (outside above it, then inside
    below it; left corner first, AndroidWorld's place), then outside below it, beside it, inside at the bottom."""
    left, top, right, bottom = box
    width, height = size
    return [(left, top - height), (right - width, top - height), (left, top), (right - width, top),
            (left, bottom), (right - width, bottom), (left - width, top), (right, top),
            (right - width, bottom - height), (left, bottom - height)]


def _hidden(pixels: np.ndarray, rect: Sequence[int]) -> int:
    """How much screen detail (text, icons, pictures) a label at ``rect`` would hide: its edge pixels, those with
    a colour step to the next pixel right or below."""
    patch = pixels[rect[1]:rect[3], rect[0]:rect[2]]
    if patch.tobytes() == patch[:1, :1].tobytes() * (patch.shape[0] * patch.shape[1]):
        return 0  # one colour (or none), the common case: a label over plain background, checked as bytes
    patch = patch.astype(np.int16)
    across, down = np.abs(patch[:, 1:] - patch[:, :-1]) > EDGE_STEP, np.abs(patch[1:] - patch[:-1]) > EDGE_STEP
    edge = np.zeros(patch.shape[:2], dtype=bool)
    edge[:, :-1] = across[..., 0] | across[..., 1] | across[..., 2]  # the channels one by one: faster than any()
    edge[:-1] |= down[..., 0] | down[..., 1] | down[..., 2]
    return int(np.count_nonzero(edge))


def _overlaps(rects: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The area each of ``rects`` (K x 4, left/top/right/bottom) shares with each of ``boxes`` (N x 4): K x N."""
    width = np.minimum(rects[:, None, 2], boxes[None, :, 2]) - np.maximum(rects[:, None, 0], boxes[None, :, 0])
    height = np.minimum(rects[:, None, 3], boxes[None, :, 3]) - np.maximum(rects[:, None, 1], boxes[None, :, 1])
    return np.maximum(width, 0) * np.maximum(height, 0)


def _meet(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether rectangles ``a`` and ``b`` (left/top/right/bottom in the last axis, broadcast) share some area."""
    return (np.minimum(a[..., 2:], b[..., 2:]) > np.maximum(a[..., :2], b[..., :2])).all(axis=-1)


def _clashes(rects: np.ndarray) -> list[list[tuple[int, list[int]]]]:
    """For each element ``i`` of ``rects`` (N x K candidate label rectangles), the earlier elements ``j`` whose
    labels can overlap its own, each with a bit mask per candidate ``m`` of ``j``: bit ``k`` is set when ``i``'s
    candidate ``k`` overlaps ``j``'s candidate ``m``. Only pairs whose candidates' hulls meet are compared."""
    count, candidates = rects.shape[:2]
    hulls = np.concatenate([rects[:, :, :2].min(axis=1), rects[:, :, 2:].max(axis=1)], axis=1)
    later, earlier = np.nonzero(_meet(hulls[:, None], hulls[None]) & np.tri(count, k=-1, dtype=bool))
    meet = _meet(rects[later][:, :, None], rects[earlier][:, None])  # P x K (mine) x K (theirs)
    masks = (1 << np.arange(candidates)) @ meet  # P x K (theirs): bits over mine
    clashes: list[list[tuple[int, list[int]]]] = [[] for _ in range(count)]
    for i, j, bits in zip(later.tolist(), earlier.tolist(), masks.tolist()):
        clashes[i].append((j, bits))
    return clashes


@dataclass(frozen=True)
class _Plan:
    """What ``label_boxes`` knows of a screen's labels before looking at its pixels, per element: the candidate
    rectangles (``spots``, N x K, left/top/right/bottom, on the screen), each candidate's rank (2 when it moved
    onto the screen off its corner, + 1 when it covers another element's box; lower is better), whether it lies
    near another element's box (``nears``), how many edge pixels the label may hide unnoticed (``tolerated``),
    and the earlier labels it can clash with (``_clashes``). Shared through a cache: read-only."""

    spots: list[list[list[int]]]
    ranks: list[list[int]]
    nears: list[list[bool]]
    tolerated: list[int]
    clashes: list[list[tuple[int, list[int]]]]


@lru_cache(maxsize=32)
def _plan(boxes: tuple[tuple[int, int, int, int], ...], sizes: tuple[tuple[int, int], ...],
          screen: tuple[int, int]) -> _Plan:
    """The pixel-free part of ``label_boxes`` for elements at ``boxes`` with labels of ``sizes`` on a ``screen``
    of (width, height) pixels; a screen that keeps its layout from one step to the next reuses it."""
    box = np.array(boxes, dtype=np.int64)
    size = np.array(sizes, dtype=np.int64)[:, None, :]  # N x 1 x (width, height)
    corners = np.array([_candidates(b, wh) for b, wh in zip(boxes, sizes)])  # N x K x 2
    start = np.clip(corners, 0, np.array(screen) - size)
    rects = np.concatenate([start, start + size], axis=2)  # N x K x 4, on the screen
    count, candidates = rects.shape[:2]
    area = size[:, :, 0] * size[:, :, 1]  # N x 1
    contains = (box[None, :, :2] <= box[:, None, :2]).all(axis=2) & \
        (box[None, :, 2:] >= box[:, None, 2:]).all(axis=2)  # [i, j]: box j contains box i (i's own included)
    inside = (rects[:, :, :2] >= box[:, None, :2]).all(axis=2) & (rects[:, :, 2:] <= box[:, None, 2:]).all(axis=2)
    margin = size[:, :, 1:2] * np.array([-1, -1, 1, 1])
    other = ~contains[:, None, :]
    shared = _overlaps(rects.reshape(-1, 4), box).reshape(count, candidates, count)
    covers_other = ((shared * 10 > area[:, :, None]) & other).any(axis=2)  # N x K
    grown = _overlaps((rects + margin).reshape(-1, 4), box).reshape(count, candidates, count)
    near = ~inside & ((grown > 0) & other).any(axis=2)
    moved = (start != corners).any(axis=2)  # moved onto the screen, off its corner
    return _Plan(spots=rects.tolist(), ranks=(moved * 2 + covers_other).tolist(), nears=near.tolist(),
                 tolerated=(area[:, 0] // HIDDEN_TOLERANCE).tolist(), clashes=_clashes(rects))


def label_boxes(pixels: np.ndarray, elements: Sequence[UIElement],
                style: str = "androidworld") -> list[tuple[int, int, int, int]]:
    """The ``(left, top, right, bottom)`` pixel box (right/bottom exclusive) of each element's label, in the
    order of ``elements``, as ``draw_marks`` draws them on the ``(H, W, 3)`` screenshot ``pixels``.

    ``"appagent"``: at the element's centre, as AppAgent draws it. ``"androidworld"``: where the label hides the
    least, as published Set-of-Mark renderers place it (OmniParser tries the box's outer corners and drops those
    that cover other boxes or leave the image). Each candidate corner (``_candidates``: on the box's top edge,
    outside then inside, then the other corners) is scored by, in turn: whether it covers a label already
    placed; whether it sticks out of the screen (and so would have to move away from the corner); whether it
    lies more than 10% inside the box of a marked element that does not contain this one (a person would take it
    for that element's label); whether it hides screen detail (edge pixels: text, icons); whether, outside its
    own box, it lies within a label's height of another element's box (it could be read as that one's); then how
    much detail it hides, unless that is nothing to speak of; ties go to the earlier candidate. So "I found"
    keeps its "I": the label goes above the row, or to its top-right corner when the row above leaves no room.
    Every label lies on the screen.
    """
    height, width = pixels.shape[:2]
    sizes = [_label_size(element.index, width, style) for element in elements]
    if _look(style).at_centre:
        return [_clamped(element.bbox_pixels.center, size, (width, height)) for element, size in zip(elements, sizes)]
    if not elements:
        return []
    plan = _plan(tuple((e.bbox_pixels.x_min, e.bbox_pixels.y_min, e.bbox_pixels.x_max, e.bbox_pixels.y_max)
                       for e in elements), tuple(sizes), (width, height))
    chosen: list[int] = []
    for i, clashes in enumerate(plan.clashes):
        covered = 0  # bit k: candidate k covers a label already placed
        for j, bits in clashes:
            covered |= bits[chosen[j]]
        first = [(covered >> k & 1, rank) for k, rank in enumerate(plan.ranks[i])]
        best, near = min(first), plan.nears[i]
        shortlist = sorted((k for k, key in enumerate(first) if key == best), key=lambda k: (near[k], k))
        hidden: dict[int, int] = {}
        for k in shortlist:  # the first that hides nothing to speak of wins; else the one hiding least
            hidden[k] = _hidden(pixels, plan.spots[i][k])
            if hidden[k] <= plan.tolerated[i]:
                break
        chosen.append(min(hidden, key=lambda k: (hidden[k] > plan.tolerated[i], near[k], hidden[k], k)))
    return [tuple(plan.spots[i][k]) for i, k in enumerate(chosen)]


def _clamped(corner: tuple[int, int], size: tuple[int, int], screen: tuple[int, int]) -> tuple[int, int, int, int]:
    """The box of ``size`` at ``corner``, moved inside the screen where it would stick out."""
    x = max(0, min(corner[0], screen[0] - size[0]))
    y = max(0, min(corner[1], screen[1] - size[1]))
    return x, y, x + size[0], y + size[1]


def _draw_box(pixels: np.ndarray, element: UIElement, thickness: int) -> None:
    """AndroidWorld's green rectangle along the element's box (the part on screen), lines drawn inward."""
    box, (height, width) = element.bbox_pixels, pixels.shape[:2]
    left, top, right, bottom = max(box.x_min, 0), max(box.y_min, 0), min(box.x_max, width), min(box.y_max, height)
    for rows, columns in ((slice(top, top + thickness), slice(left, right)),
                          (slice(bottom - thickness, bottom), slice(left, right)),
                          (slice(top, bottom), slice(left, left + thickness)),
                          (slice(top, bottom), slice(right - thickness, right))):
        pixels[rows, columns] = BOX_COLOUR


@lru_cache(maxsize=4096)
def _label_pixels(index: int, width: int, style: str) -> np.ndarray:
    """The pixels of the numbered label ``index`` on a screen ``width`` pixels wide (read-only, ``_label_size``).
    Its rings, fill and text are opaque and cover the whole label, so it looks the same over any screen and is
    drawn with Pillow once, not at every mark."""
    look, layout = _LOOKS[style], _layout(width, style)
    patch = Image.new("RGB", _label_size(index, width, style))
    draw = ImageDraw.Draw(patch, "RGBA")
    inset = 0
    for ring in look.rings:
        draw.rectangle((inset, inset, patch.width - 1 - inset, patch.height - 1 - inset), outline=ring,
                       width=layout.ring)
        inset += layout.ring
    draw.rectangle((inset, inset, patch.width - 1 - inset, patch.height - 1 - inset), fill=look.fill)
    ink_left, ink_top, _, _ = layout.font.getbbox(str(index))
    draw.text((inset + layout.padding - ink_left, inset + layout.padding - ink_top), str(index), font=layout.font,
              fill=look.text)
    label = np.asarray(patch)
    label.flags.writeable = False
    return label


def _draw_label(pixels: np.ndarray, element: UIElement, box: tuple[int, int, int, int], style: str) -> None:
    """The element's numbered label in ``box`` (a label's size, on the screen) of ``pixels``."""
    left, top, right, bottom = box
    pixels[top:bottom, left:right] = _label_pixels(element.index, pixels.shape[1], style)


def draw_marks(pixels: np.ndarray, elements: Sequence[UIElement], style: str = "androidworld") -> np.ndarray:
    """A copy of the ``(H, W, 3)`` uint8 screenshot with a numbered mark on each element (``element.index``).

    ``elements`` are the ones to mark, usually ``marked_elements(...)``. Rectangles (AndroidWorld style) are
    drawn first and labels on top, so no rectangle crosses a number; ``label_boxes`` says where the labels go.
    """
    look = _look(style)
    if not (isinstance(pixels, np.ndarray) and pixels.dtype == np.uint8 and pixels.ndim == 3
            and pixels.shape[2] == 3):
        shape = getattr(pixels, "shape", None)
        raise SetOfMarkError(f"draw_marks needs an (H, W, 3) uint8 screenshot, got {type(pixels).__name__} "
                             f"of shape {shape}")
    marked = pixels.copy()
    labels = label_boxes(pixels, elements, style)
    if look.boxes:
        thickness = _layout(marked.shape[1], style).box
        for element in elements:
            _draw_box(marked, element, thickness)
    for element, box in zip(elements, labels):
        _draw_label(marked, element, box, style)
    return marked


class SetOfMark(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Adds a Set-of-Mark screenshot to the observation: the screen with a numbered mark on each element an
    agent is likely to act on, the number being the element's index for index-based actions.

    The raw ``pixels`` stay (AndroidWorld's M3A agent is shown both) and the marked copy is added under ``key``,
    a ``Box`` like ``pixels``. ``info["som_marks"]`` lists the marked indices of ``info["ui_elements"]``. See the
    module docstring for the two styles, ``"androidworld"`` (boxes + labels at a free corner) and ``"appagent"``
    (labels at the centres, nearby duplicates dropped).

    Example:
        >>> import gymnasium as gym
        >>> import android_gym
        >>> from android_gym.wrappers.set_of_mark import SetOfMark
        >>> env = SetOfMark(gym.make("AndroidWorld/SendSms-v0"))
        >>> obs, info = env.reset(seed=0)
        >>> obs["som_pixels"].shape == obs["pixels"].shape
        True
        >>> app = next(i for i in info["som_marks"] if info["ui_elements"][i].text == "Clock")
        >>> obs, reward, terminated, truncated, info = env.step({"action_type": "click", "index": app})
        >>> env.close()

    Change logs:
        * v0.1.0 - Initially added.
    """

    def __init__(self, env: gym.Env, style: str = "androidworld", key: str = "som_pixels"):
        """Wrap ``env`` (made with ``pixels=True``); raises ``SetOfMarkError`` for a style or key that cannot
        work."""
        gym.utils.RecordConstructorArgs.__init__(self, style=style, key=key)
        gym.Wrapper.__init__(self, env)
        _look(style)
        space = env.observation_space
        if not isinstance(space, spaces.Dict) or "pixels" not in space.spaces:
            raise SetOfMarkError("SetOfMark draws on the observation's 'pixels', which this env does not have; "
                                 "make the env with pixels=True")
        if key in space.spaces:
            raise SetOfMarkError(f"the observation already has a {key!r} entry; pass another key=")
        self.style = style
        self.key = key
        self.observation_space = spaces.Dict({**space.spaces, key: space["pixels"]})

    def _mark(self, observation: dict[str, Any], info: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        if "ui_elements" not in info:
            raise SetOfMarkError("the env's info has no 'ui_elements'; SetOfMark wraps android_gym envs")
        pixels = observation["pixels"]
        marks = marked_elements(info["ui_elements"], (pixels.shape[1], pixels.shape[0]), self.style)
        observation = {**observation, self.key: draw_marks(pixels, marks, self.style)}
        return observation, {**info, "som_marks": [element.index for element in marks]}

    def reset(self, **kwargs):
        """Reset the env and mark the first screen."""
        return self._mark(*self.env.reset(**kwargs))

    def step(self, action):
        """Step the env and mark the new screen."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        observation, info = self._mark(observation, info)
        return observation, reward, terminated, truncated, info
