"""Smaller screens are drawn natively at their size and density: text, strokes and icons rasterized at the scaled
size (crisp, as a low-density phone draws them), not a full-size frame scaled down; the density the device
reports matches."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from android_gym.sim import grpc_server
from android_gym.sim.phone import Phone
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.render import Renderer
from android_gym.sim.ui.views import PRIMARY, WHITE, View, column, text_view
from android_gym.ui import parse_ui_dump


def _ink_box(pixels: np.ndarray, background: tuple[int, int, int] = WHITE) -> tuple[int, int, int, int]:
    """``(left, top, right, bottom)`` of the pixels that differ from ``background`` (end exclusive)."""
    ys, xs = np.nonzero((pixels != background).any(axis=2))
    return xs.min(), ys.min(), xs.max() + 1, ys.max() + 1


def _draw(tree: View, scale: float) -> np.ndarray:
    """``tree`` laid out in design pixels on a 1080 x 400 window, drawn at ``scale``."""
    layout(tree, 0, 0, 1080, 400)
    renderer = Renderer(round(1080 * scale), round(400 * scale), scale)
    return renderer.render({"window": (tree, WHITE)}).copy()


def test_text_is_rasterized_at_the_scaled_font_size() -> None:
    def tree() -> View:
        return column(text_view("Hamburg 1234", text_size=88, padding=40))

    full, half, quarter = (_ink_box(_draw(tree(), scale)) for scale in (1.0, 0.5, 0.25))
    for (left, top, right, bottom), factor in ((half, 2), (quarter, 4)):
        assert abs(left * factor - full[0]) <= 2 * factor and abs(top * factor - full[1]) <= 2 * factor
        assert abs((bottom - top) * factor - (full[3] - full[1])) <= 2 * factor  # the glyphs' height, to a pixel
        assert abs((right - left) * factor / (full[2] - full[0]) - 1) < 0.05  # hinted advances round differently


def test_a_thin_stroke_stays_a_full_strength_line_at_quarter_size() -> None:
    field = View(kind="edit", class_name="android.widget.EditText", text="", on_text=lambda _: None, focused=True,
                 height=120, padding=20)
    pixels = _draw(column(field), 0.25)
    # The focused underline is 4 design px: one row in the accent colour, not a faint blend of it with white
    # (what scaling a full-size frame down by 4 gives).
    rows = [y for y in range(pixels.shape[0]) if (pixels[y] == PRIMARY).all(axis=1).sum() > 100]
    assert len(rows) == 1


def test_icons_are_drawn_at_the_scaled_icon_size() -> None:
    def tree() -> View:
        return column(View(kind="icon", hint="search", width=126, height=126, text_color=(0, 0, 0)))

    full, half = (_ink_box(_draw(tree(), scale)) for scale in (1.0, 0.5))
    assert abs((half[3] - half[1]) * 2 - (full[3] - full[1])) <= 2


@pytest.fixture(scope="module")
def phones():
    full, small = Phone(1080, 2400), Phone(540, 1200)
    yield full, small
    full.close()
    small.close()


def test_a_phone_half_as_wide_draws_its_text_half_as_tall_inside_its_bounds(phones) -> None:
    heights = []
    for phone in phones:
        label = next(e for e in parse_ui_dump(phone.ui_dump())
                     if e.resource_name == "com.google.android.apps.nexuslauncher:id/clock").bbox_pixels  # the date
        crop = phone.screenshot()[int(label.y_min):int(label.y_max), int(label.x_min):int(label.x_max)]
        dark = (abs(crop.astype(int) - crop[0, 0]).sum(axis=2) > 60).any(axis=1)  # rows with glyph ink
        assert dark.any()  # the label's pixels lie inside its dumped bounds
        heights.append(int(np.ptp(np.nonzero(dark)[0])) + 1)
    full, small = heights
    assert abs(small * 2 - full) <= 3


def test_a_small_screen_never_draws_a_full_size_canvas(monkeypatch) -> None:
    widths = []
    new = Image.new
    monkeypatch.setattr(Image, "new", lambda mode, size, *args, **kwargs: widths.append(size[0]) or new(mode, size,
                                                                                                       *args, **kwargs))
    phone = Phone(540, 1200)
    try:
        phone.run("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
        assert phone.screenshot().shape == (1200, 540, 3)
    finally:
        phone.close()
    assert widths and max(widths) <= 540


@pytest.mark.parametrize(("size", "dpi"), [((1080, 2400), 420), ((540, 1200), 210), ((270, 600), 105)])
def test_the_reported_density_is_the_density_drawn_at(size: tuple[int, int], dpi: int) -> None:
    phone = Phone(*size)
    try:
        run = lambda command: phone.run(command).stdout.decode()  # noqa: E731
        assert run("getprop ro.sf.lcd_density") == f"{dpi}\n"
        assert run("wm density") == f"Physical density: {dpi}\n"
        assert f"density {dpi} ({dpi}.0 x {dpi}.0) dpi" in run("dumpsys display")
        assert f"init={size[0]}x{size[1]} {dpi}dpi" in run("dumpsys window displays")
        assert " sw411dp w411dp h914dp " in run("dumpsys window displays")  # the same dp screen at any size
        assert grpc_server.density(phone) == dpi  # the emulator's status (hw.lcd.density) and touch slop
    finally:
        phone.close()
