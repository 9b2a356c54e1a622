"""Set-of-Mark: which elements get a mark (on a real device dump), how marks look on light, dark and grey screens
and at several resolutions, and the wrapper on real envs (oracle still solves; an index on a mark taps it)."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
from lxml import etree

from android_gym.agents import OracleAgent
from android_gym.device.state import foreground_package
from android_gym.testing import run_episode
from android_gym.ui import BoundingBox, UIElement, parse_ui_dump
from android_gym.wrappers.set_of_mark import (
    EDGE_STEP,
    STYLES,
    SetOfMark,
    SetOfMarkError,
    _hidden,
    draw_marks,
    label_boxes,
    marked_elements,
)

SCREEN = (1080, 1794)  # the fixture's device
GREEN = (0, 255, 0)


def luminance(colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    channels = [c / 255 for c in colour[:3]]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def scaled(elements: list[UIElement], factor: float) -> list[UIElement]:
    """The same elements on a screen ``factor`` times the size."""
    return [dataclasses.replace(e, bbox_pixels=BoundingBox(*(int(v * factor) for v in dataclasses.astuple(
        e.bbox_pixels)))) for e in elements]


def moved(element: UIElement, *box: int) -> UIElement:
    return dataclasses.replace(element, bbox_pixels=BoundingBox(*box))


def ring_and_inner(label: np.ndarray) -> tuple[tuple, tuple]:
    """The colour of the label's outermost pixel ring (asserted uniform) and the first other colour met going
    inward from the middle of its left edge."""
    ring = np.concatenate([label[0], label[-1], label[:, 0], label[:, -1]])
    assert (ring == ring[0]).all(), "the label's edge is not one colour"
    row = label[label.shape[0] // 2]
    inner = next(tuple(p) for p in row if tuple(p) != tuple(ring[0]))
    return tuple(ring[0]), inner


def interior(label: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The label's fill colour (its most common one) and the part of the label that colour spans, i.e. what
    lies inside its rings: the fill and the number."""
    colours, counts = np.unique(label.reshape(-1, 3), axis=0, return_counts=True)
    fill = colours[counts.argmax()]
    rows, columns = np.nonzero((label == fill).all(axis=2))
    return fill, label[rows.min():rows.max() + 1, columns.min():columns.max() + 1]


@pytest.fixture(scope="module")
def launcher(launcher_dump) -> list[UIElement]:
    return parse_ui_dump(launcher_dump)


# ----- which elements get a mark ---------------------------------------------------------------------------
def test_androidworld_marks_visible_leaves_descriptions_and_scrollables(launcher_dump, launcher):
    nodes = list(etree.fromstring(launcher_dump.encode()).iter("node"))
    expected = {i for i, node in enumerate(nodes)
                if len(node.findall("node")) == 0 or node.get("content-desc") or node.get("scrollable") == "true"}
    marks = marked_elements(launcher, SCREEN)
    assert {e.index for e in marks} == expected
    assert [e.index for e in marks] == sorted(expected)
    assert {"Messages", "Chrome"} <= {e.text for e in marks} and 0 not in expected  # icons yes, root no
    leaf = next(e for e in marks if not e.content_description and not e.is_scrollable)
    hidden = [moved(leaf, 1100, 10, 1200, 50), moved(leaf, 10, -60, 50, 0), moved(leaf, 40, 40, 40, 90)]
    assert marked_elements(hidden, SCREEN) == []  # off screen to the right, above the top, empty


def test_appagent_marks_cover_every_clickable_or_focusable_and_stay_30px_apart(launcher):
    marks = marked_elements(launcher, SCREEN, "appagent")
    candidates = [e for e in launcher if e.is_clickable or e.is_focusable]
    assert marks and set(marks) <= set(candidates) and len(marks) < len(candidates)
    for element in candidates:
        assert any(math.dist(element.bbox_pixels.center, m.bbox_pixels.center) <= 30 for m in marks)
    for a, b in itertools.combinations(marks, 2):
        assert math.dist(a.bbox_pixels.center, b.bbox_pixels.center) > 30
    twins = [(a, b) for a, b in itertools.permutations(candidates, 2)
             if a.bbox_pixels.center == b.bbox_pixels.center and b.is_clickable and not a.is_clickable]
    assert twins and all(b in marks and a not in marks for a, b in twins)  # a clickable node wins over a focusable


@pytest.mark.parametrize("style", STYLES)
def test_the_same_screen_gets_the_same_marks_at_any_resolution(launcher, style):
    full = [e.index for e in marked_elements(launcher, SCREEN, style)]
    for factor in (0.5, 2 / 3, 2):
        size = (int(SCREEN[0] * factor), int(SCREEN[1] * factor))
        assert [e.index for e in marked_elements(scaled(launcher, factor), size, style)] == full


def test_appagent_distance_scales_with_screen_width(launcher):
    button = next(e for e in launcher if e.is_clickable)
    near = [moved(button, 100, 100, 200, 200), dataclasses.replace(moved(button, 120, 100, 220, 200), index=99)]
    assert len(marked_elements(near, (1080, 1920), "appagent")) == 1  # 20 px apart: one mark
    assert len(marked_elements(near, (540, 960), "appagent")) == 2  # 20 px on a half-size screen: two
    far = [moved(button, 200, 200, 400, 400), dataclasses.replace(moved(button, 250, 200, 450, 400), index=99)]
    assert len(marked_elements(far, (2160, 3840), "appagent")) == 1  # 50 px apart, twice the size: one


# ----- how marks look ------------------------------------------------------------------------------------
@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("shade", [255, 0, 128])
def test_labels_change_their_area_and_contrast_on_light_dark_and_grey_screens(launcher, style, shade):
    canvas = np.full((SCREEN[1], SCREEN[0], 3), shade, np.uint8)
    marks = marked_elements(launcher, SCREEN, style)
    drawn = draw_marks(canvas, marks, style)
    assert drawn.shape == canvas.shape and drawn.dtype == np.uint8 and (canvas == shade).all()  # input untouched
    for element, (left, top, right, bottom) in zip(marks, label_boxes(canvas, marks, style), strict=True):
        assert 0 <= left < right <= SCREEN[0] and 0 <= top < bottom <= SCREEN[1]
        assert (drawn[top:bottom, left:right] != shade).any()
        left, top, right, bottom = label_boxes(canvas, [element], style)[0]
        alone = draw_marks(canvas, [element], style)[top:bottom, left:right]
        ring, inner = ring_and_inner(alone)
        screen = (shade,) * 3
        # The label is bounded by a contour of contrast >= 4.5: the ring against the screen, or, where the ring
        # melts into the screen, the ring against the layer inside it.
        assert contrast(ring, inner) >= 4.5 and max(contrast(ring, screen), contrast(inner, screen)) >= 4.5
        fill, inside = interior(alone)
        text = max(map(tuple, inside.reshape(-1, 3)), key=lambda colour: contrast(colour, fill))
        assert contrast(text, fill) >= 4.5, f"{style} label {element.index} text on {shade}"


def ink_height(pixels: np.ndarray, label: tuple[int, int, int, int]) -> int:
    """How many pixel rows of the label at ``label`` hold text (pixels far from the label's fill colour)."""
    left, top, right, bottom = label
    fill, inside = interior(pixels[top:bottom, left:right])
    return int((np.abs(inside.astype(int) - fill).sum(axis=2) > 200).any(axis=1).sum())


def green_run(pixels: np.ndarray, x: int, y: int) -> int:
    """Consecutive pure green pixels from (x, y) to the right: a rectangle's line thickness."""
    row = pixels[y, x:]
    return int(np.argmin((row == GREEN).all(axis=1)))


@pytest.mark.parametrize("style", STYLES)
def test_marks_scale_with_the_screen_and_stay_readable(make_env, style):
    measured = {}
    for device in ("sim:1080x2400", "sim:540x1200", "sim:320x640"):
        env = SetOfMark(make_env(device=device, pixels=True), style=style)
        observation, info = env.reset(seed=0)
        som, elements = observation["som_pixels"], info["ui_elements"]
        height, width = som.shape[:2]
        marks = [elements[i] for i in info["som_marks"]]
        boxes = label_boxes(observation["pixels"], marks, style)
        clock = next(i for i, element in enumerate(marks) if element.text == "Clock")
        box = marks[clock].bbox_pixels
        thickness = green_run(som, box.x_min, (box.y_min + box.y_max) // 2)
        measured[width] = (thickness, max(b[3] - b[1] for b in boxes), ink_height(som, boxes[clock]))
        assert all(0 <= b[0] and b[2] <= width and 0 <= b[1] and b[3] <= height for b in boxes)
        assert measured[width][2] >= 8, f"digits {measured[width][2]} px tall at {device}"
    assert measured[1080][1] > measured[540][1] >= measured[320][1]  # labels shrink with the screen
    assert measured[1080][2] > measured[540][2] >= measured[320][2]  # and so does the number
    if style == "androidworld":
        assert measured[1080][0] == 2 and measured[540][0] == 1 and measured[320][0] == 1
    else:
        assert measured[1080][0] == measured[540][0] == 0  # AppAgent draws no rectangles


@pytest.mark.parametrize("style", STYLES)
def test_labels_at_the_edges_stay_inside_the_image(launcher, style):
    size = (SCREEN[0] // 2, SCREEN[1] // 2)
    canvas = np.full((size[1], size[0], 3), 255, np.uint8)
    base = next(e for e in launcher if e.is_clickable)
    corner = dataclasses.replace(moved(base, size[0] - 6, size[1] - 6, size[0] + 40, size[1] + 40), index=123)
    origin = dataclasses.replace(moved(base, -30, -30, 8, 8), index=45)
    drawn = draw_marks(canvas, [corner, origin], style)
    assert drawn[-1, -1].tolist() != [255, 255, 255] and drawn[0, 0].tolist() != [255, 255, 255]
    for element, (left, top, right, bottom) in zip((corner, origin), label_boxes(canvas, [corner, origin], style)):
        assert 0 <= left and right <= size[0] and 0 <= top and bottom <= size[1]
        box = element.bbox_pixels  # the label touches the part of the element on the screen
        assert left <= min(box.x_max, size[0]) and right >= max(box.x_min, 0)
        assert top <= min(box.y_max, size[1]) and bottom >= max(box.y_min, 0)


# ----- where labels go ---------------------------------------------------------------------------------
def test_a_label_sits_outside_at_a_free_corner_else_inside_where_it_hides_least(launcher):
    canvas = np.full((1200, 540, 3), 255, np.uint8)
    base = dataclasses.replace(next(e for e in launcher if e.is_clickable), index=7)
    alone = moved(base, 200, 300, 400, 350)
    (left, top, right, bottom), = label_boxes(canvas, [alone])
    assert (left, bottom) == (200, 300)  # above its top-left corner, AndroidWorld's corner, outside the box
    at_top = moved(base, 200, 0, 400, 50)
    (left, top, right, bottom), = label_boxes(canvas, [at_top])
    assert (left, top) == (200, 0)  # no room above: inside, at the top-left corner
    screen = moved(base, 0, 0, 540, 1200)
    assert label_boxes(canvas, [screen])[0][:2] == (0, 0)  # no room outside: inside, top-left
    texted = canvas.copy()
    texted[10:40, 10:300] = 0  # a text line under the top-left corner
    left, top, right, bottom = label_boxes(texted, [screen])[0]
    assert (right, top) == (540, 0)  # the top-right corner hides nothing
    neighbour = dataclasses.replace(moved(base, 200, 250, 400, 300), index=8)  # a row just above
    left, top, right, bottom = label_boxes(canvas, [neighbour, alone])[1]
    assert not (top < 300 and right > 200 and left < 400)  # not inside the row above, where it would read as its


def edge_pixels(patch: np.ndarray) -> int:
    """The definition, pixel by pixel: pixels of ``patch`` with a step above EDGE_STEP in some channel to the
    next pixel right or below inside the patch."""
    rows, columns = patch.shape[:2]
    value = patch.astype(int)
    return sum(any(np.abs(value[r, c] - value[r2, c2]).max() > EDGE_STEP for r2, c2 in ((r, c + 1), (r + 1, c))
                   if r2 < rows and c2 < columns) for r in range(rows) for c in range(columns))


def test_hidden_detail_counts_the_edge_pixels_under_a_label():
    rng = np.random.default_rng(0)
    screen = np.full((60, 80, 3), 200, np.uint8)
    screen[:, 40:] = rng.integers(0, 256, (60, 40, 3))  # a photo-like right half
    screen[5:25, 10] = (0, 0, 0)  # a 20 px vertical line
    screen[30:50, 10:30] = (np.arange(20) // 4 * EDGE_STEP)[None, :, None]  # steps of EDGE_STEP: no edge
    screen[52:58, 2:8] = (200, 200, 241)  # a block a step of 41 (blue only) away from the background
    plain, line, ramp, block = (0, 0, 10, 4), (5, 5, 25, 25), (10, 30, 30, 50), (0, 50, 10, 60)
    assert _hidden(screen, plain) == 0
    assert _hidden(screen, line) == 40  # each row: the pixel before the line and the line itself
    assert _hidden(screen, ramp) == 0
    assert _hidden(screen, block) == 6 + 6 + 6 + 5  # pixels left of and above it, its right column, bottom row
    for rect in (plain, line, ramp, block, (35, 10, 70, 40), (0, 0, 80, 60), (41, 3, 42, 4)):
        left, top, right, bottom = rect
        assert _hidden(screen, rect) == edge_pixels(screen[top:bottom, left:right]), rect


def test_a_dense_grid_gets_one_label_per_element_on_the_screen_at_its_element_and_none_overlap(launcher):
    base = next(e for e in launcher if e.is_clickable)
    rows = [dataclasses.replace(moved(base, 40 + 170 * (i % 6), 60 + 115 * (i // 6), 190 + 170 * (i % 6),
                                      150 + 115 * (i // 6)), index=2 * i) for i in range(60)]
    twins = [dataclasses.replace(row, index=row.index + 1) for row in rows]
    cells = [cell for pair in zip(rows, twins) for cell in pair]  # a row and its only child, of the same bounds
    canvas = np.full((2400, 1080, 3), 255, np.uint8)
    labels = label_boxes(canvas, cells)
    for a, b in itertools.combinations(labels, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"labels {a} and {b} overlap"
    for cell, (left, top, right, bottom) in zip(cells, labels, strict=True):
        box = cell.bbox_pixels
        assert 0 <= left and right <= 1080 and 0 <= top and bottom <= 2400
        assert left <= box.x_max and right >= box.x_min and top <= box.y_max and bottom >= box.y_min  # touches
    texted = canvas.copy()
    first = labels[7]
    texted[first[1]:first[3], first[0]:first[2]:3] = 0  # text-like strokes where the label of cell 7 went
    moved_labels = label_boxes(texted, cells)
    assert moved_labels[7] != first and _hidden(texted, moved_labels[7]) == 0  # the same layout, new pixels
    assert label_boxes(canvas, cells) == labels


@pytest.mark.parametrize("screen", ["sms", "settings"])
def test_androidworld_labels_hide_no_text_and_never_overlap(make_env, screen):
    env = SetOfMark(make_env("AndroidWorld/SimpleSmsReply-v0", device="sim:540x1200"))
    env.reset(seed=0)
    app = {"sms": "Simple SMS Messenger", "settings": "Settings"}[screen]
    observation, *_, info = env.step({"action_type": "open_app", "app_name": app})
    raw, som = observation["pixels"], observation["som_pixels"]
    marks = [info["ui_elements"][i] for i in info["som_marks"]]
    labels = label_boxes(raw, marks)
    for a, b in itertools.combinations(labels, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"labels {a} and {b} overlap"
    texts = [e for e in marks if e.text]
    assert len(texts) >= 8
    for element in texts:
        box = element.bbox_pixels
        inner = (slice(box.y_min + 2, box.y_max - 2), slice(box.x_min + 2, box.x_max - 2))  # inside the green line
        patch = raw[inner].astype(int)
        colours, counts = np.unique(patch.reshape(-1, 3), axis=0, return_counts=True)
        ink = np.abs(patch - colours[counts.argmax()]).sum(axis=2) > 150  # the text's pixels
        assert ink.sum() > 50, element.text
        assert (som[inner][ink] == raw[inner][ink]).all(), f"a label hides part of {element.text!r}"


# ----- the wrapper on real envs --------------------------------------------------------------------------
def test_wrapper_adds_marked_pixels_and_keeps_the_raw_ones(make_env):
    env = SetOfMark(make_env("AndroidWorld/SendSms-v0"))
    twin = make_env("AndroidWorld/SendSms-v0")
    assert set(env.observation_space.spaces) == {"pixels", "a11y_tree", "goal", "som_pixels"}
    assert env.observation_space["som_pixels"] == twin.observation_space["pixels"]
    (observation, info), (raw, raw_info) = env.reset(seed=3), twin.reset(seed=3)
    agent, twin_agent = OracleAgent(), OracleAgent()
    agent.reset(env)
    twin_agent.reset(twin)
    for _ in range(3):
        assert env.observation_space.contains(observation)
        assert np.array_equal(observation["pixels"], raw["pixels"])
        marks, elements = info["som_marks"], info["ui_elements"]
        assert marks and all(isinstance(i, int) and 0 <= i < len(elements) for i in marks)
        size = (raw["pixels"].shape[1], raw["pixels"].shape[0])
        assert marks == [e.index for e in marked_elements(raw_info["ui_elements"], size)]
        assert np.array_equal(observation["som_pixels"],
                              draw_marks(raw["pixels"], [raw_info["ui_elements"][i] for i in marks]))
        assert not np.array_equal(observation["som_pixels"], observation["pixels"])
        observation, *_, info = env.step(agent.act(observation, info))
        raw, *_, raw_info = twin.step(twin_agent.act(raw, raw_info))
    assert env.spec.additional_wrappers[-1].kwargs == {"style": "androidworld", "key": "som_pixels"}


@pytest.mark.parametrize("style", STYLES)
def test_oracle_still_solves_the_task_through_the_wrapper(make_env, style):
    env = SetOfMark(make_env("AndroidWorld/SendSms-v0"), style=style, key="marked")
    result = run_episode(env, OracleAgent(), seed=5)
    assert result.score == 1.0 and not result.invalid_actions
    assert "som_marks" in result.info


@pytest.mark.parametrize("style", STYLES)
def test_clicking_a_marked_number_taps_that_element(make_env, style):
    env = SetOfMark(make_env("AndroidWorld/SendSms-v0", device="sim:540x1200"), style=style)
    _, info = env.reset(seed=1)
    assert foreground_package(env.unwrapped.device) != "com.google.android.deskclock"
    number = next(i for i in info["som_marks"] if info["ui_elements"][i].text == "Clock")
    _, _, _, _, info = env.step({"action_type": "click", "index": number})
    assert info["invalid_action"] is None
    assert foreground_package(env.unwrapped.device) == "com.google.android.deskclock"
    assert any(info["ui_elements"][i].package_name == "com.google.android.deskclock" for i in info["som_marks"])


# ----- configuration errors ------------------------------------------------------------------------------
def test_configuration_errors_say_what_to_do(make_env, launcher):
    with pytest.raises(SetOfMarkError, match="pixels=True"):
        SetOfMark(make_env(pixels=False))
    with pytest.raises(SetOfMarkError, match="androidworld.*appagent"):
        SetOfMark(make_env(), style="boxes")
    with pytest.raises(SetOfMarkError, match="another key"):
        SetOfMark(make_env(), key="pixels")
    with pytest.raises(SetOfMarkError, match="androidworld"):
        marked_elements(launcher, SCREEN, style="grid")
    with pytest.raises(SetOfMarkError, match=r"\(H, W, 3\) uint8"):
        draw_marks(np.zeros((10, 10), np.uint8), launcher[:1])
    with pytest.raises(SetOfMarkError, match=r"\(H, W, 3\) uint8"):
        draw_marks(np.zeros((10, 10, 3), np.float32), launcher[:1])
