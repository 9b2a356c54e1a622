"""The renderer's shortcuts draw what the plain Pillow calls draw, pixel for pixel: the canvas packed in one piece,
a filled shape's shadow left out where the shape covers it, the root's background not filled twice."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from android_gym.sim.ui import render
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.render import Renderer, rgb_array
from android_gym.sim.ui.views import WHITE, View, column


@pytest.mark.parametrize("size", [(1, 1), (7, 3), (1080, 97)])
def test_a_canvas_packed_in_one_piece_is_its_pixels(size: tuple[int, int]) -> None:
    pixels = np.random.default_rng(0).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    assert np.array_equal(rgb_array(Image.fromarray(pixels)), pixels)
    assert rgb_array(Image.new("RGB", (0, 5))).shape == (5, 0, 3)


def _drawn(tree: View, scale: float) -> np.ndarray:
    layout(tree, 0, 0, 1080, 700)
    return Renderer(round(1080 * scale), round(700 * scale), scale).render({"window": (tree, WHITE)}).copy()


def _cards(root: tuple[int, int, int]) -> View:
    """Filled shapes with shadows on a root of colour ``root``: square and rounded, a pill whose corners leave no
    covered band, a short one whose shadow reaches past its neighbours."""
    return column(
        View(height=40),
        View(height=200, background=(250, 250, 250), elevation=11),
        View(height=160, background=(200, 230, 255), elevation=63, corner=36),
        View(height=60, background=(255, 220, 200), elevation=21, corner=40),
        View(height=8, background=(90, 90, 90), elevation=16),
        background=root, padding=40, spacing=30)


@pytest.mark.parametrize("scale", [1.0, 0.25])
@pytest.mark.parametrize("root", [WHITE, (238, 238, 238)])
def test_a_shadow_left_out_under_its_shape_looks_as_drawn_whole(monkeypatch, scale: float, root: tuple) -> None:
    shortcut = _drawn(_cards(root), scale)
    whole_shadow = lambda width, height, radius, blur, drop: ((0, 0, render._shadow_mask(width, height, radius,  # noqa: E731
                                                                                         blur)),)
    monkeypatch.setattr(render, "_shadow_outside", whole_shadow)
    assert np.array_equal(shortcut, _drawn(_cards(root), scale))
    assert (shortcut.astype(int) - root).any(axis=2).mean() > 0.2  # the cards and their shadows are there


def test_the_roots_background_is_the_canvas(monkeypatch) -> None:
    skipped = _drawn(_cards(WHITE), 1.0)
    draw = Renderer._draw_view
    monkeypatch.setattr(Renderer, "_draw_view", lambda self, view, covers_canvas=False: draw(self, view))
    assert np.array_equal(skipped, _drawn(_cards(WHITE), 1.0))
