"""Simple Draw Pro on the simulated phone: drags draw strokes in pixels, undo/redo/eraser/brush size/clear, and
saving through "Save as" and DocumentsUI's create-document picker into real PNG, JPEG and SVG files."""

from __future__ import annotations

import io
from xml.etree import ElementTree

import numpy as np
import pytest
from PIL import Image
from ui_nodes import center, find, tap

from android_gym.sim import keycodes
from android_gym.sim.apps import draw, files
from android_gym.sim.phone import Phone

PKG = draw.PACKAGE
ORANGE = draw.BRUSH_COLOR


@pytest.fixture
def phone():
    device = Phone()
    device.run(f"am start -n {PKG}/.activities.MainActivity")
    yield device
    device.close()


def screen(phone: Phone) -> draw.MainScreen:
    top = phone.activities.top
    assert isinstance(top, draw.MainScreen)
    return top


def color_at(phone: Phone, x: int, y: int) -> tuple[int, int, int]:
    return tuple(int(v) for v in phone.screenshot()[y, x])


def save(phone: Phone, name: str, extension: str = "", folder: str = "Pictures") -> None:
    """Save → "Save as" with ``name`` (and the extension radio) → the picker's device root → ``folder`` → Save."""
    tap(phone, content_desc="Save")
    field = find(phone, resource_id=f"{PKG}:id/save_image_filename")
    for _ in field.get("text"):
        phone.key(keycodes.DEL)
    phone.input_text(name)
    if extension:
        tap(phone, text=f".{extension}")
    tap(phone, text="OK")
    assert phone.activities.foreground()[0] == "com.google.android.documentsui"
    tap(phone, content_desc="Show roots")
    tap(phone, text="sdk_gphone_x86_64")
    tap(phone, text=folder)
    tap(phone, text="Save")


def test_drags_draw_strokes_with_the_brush_and_taps_draw_dots(phone):
    canvas = find(phone, resource_id=f"{PKG}:id/my_canvas")
    assert canvas.get("class") == "android.view.View"
    assert color_at(phone, 540, 1000) == (255, 255, 255)
    phone.swipe(200, 1000, 900, 1000, 300)
    assert color_at(phone, 540, 1000) == ORANGE
    assert color_at(phone, 540, 1000 + 30) == (255, 255, 255)  # 42 px wide: 21 px either side
    phone.swipe(300, 500, 300, 1600, 300)  # vertical drags draw too
    assert color_at(phone, 300, 1300) == ORANGE
    phone.tap(800, 1500)
    assert color_at(phone, 800, 1500) == ORANGE
    strokes = screen(phone).strokes
    assert len(strokes) == 3 and strokes[2].is_dot and strokes[0].width == pytest.approx(42.0)


def test_the_tools_sit_at_the_top_end_as_activity_main_places_them(phone):
    """Bucket fill, eraser, eyedropper and the colour picker (a rectangle of the brush colour) in one row at the
    canvas's top end, undo under the colour picker once there is a stroke; the tools the app does not simulate do
    nothing (no stroke, no mode)."""
    phone.swipe(200, 900, 800, 1000, 300)
    names = ("bucket_fill", "eraser", "eye_dropper", "color_picker")
    tools = [find(phone, **{"resource-id": f"{draw.PACKAGE}:id/{name}"}) for name in names]
    assert [t.get("content-desc") for t in tools] == ["Bucket fill", "Eraser", "Eyedropper", "Change color"]
    xs, ys = zip(*map(center, tools))
    assert list(xs) == sorted(xs) and len(set(ys)) == 1
    undo = center(find(phone, **{"content-desc": "Undo"}))
    assert undo[0] == xs[-1] and undo[1] > ys[-1]
    assert color_at(phone, int(xs[-1]), int(ys[-1])) == draw.BRUSH_COLOR
    strokes = list(screen(phone).strokes)
    for name in ("bucket_fill", "eye_dropper", "color_picker"):
        tap(phone, **{"resource-id": f"{draw.PACKAGE}:id/{name}"})
    assert screen(phone).strokes == strokes and not screen(phone).eraser


def test_undo_redo_eraser_and_clear(phone):
    assert find(phone, content_desc="Undo") is None
    phone.swipe(200, 1000, 900, 1000, 300)
    tap(phone, content_desc="Undo")
    assert color_at(phone, 540, 1000) == (255, 255, 255)
    tap(phone, content_desc="Redo")
    assert color_at(phone, 540, 1000) == ORANGE and find(phone, content_desc="Redo") is None
    tap(phone, content_desc="Eraser")
    phone.swipe(540, 800, 540, 1200, 300)
    assert color_at(phone, 540, 1000) == (255, 255, 255)
    assert screen(phone).strokes[-1].eraser
    tap(phone, content_desc="Clear")
    assert screen(phone).strokes == [] and find(phone, content_desc="Undo") is None


def test_the_brush_size_bar_sets_the_stroke_width(phone):
    bar = find(phone, resource_id=f"{PKG}:id/stroke_width_bar")
    x, y = center(bar)
    phone.swipe(x, y, x + 1000, y, 300)  # to the end: 100
    phone.swipe(100, 1000, 1000, 1000, 300)
    assert screen(phone).strokes[-1].width == pytest.approx(105.0)
    assert color_at(phone, 540, 1000 + 45) == ORANGE


def test_save_as_png_in_pictures_through_the_picker(phone):
    phone.swipe(200, 1000, 900, 1000, 300)
    tap(phone, content_desc="Save")
    assert find(phone, text="Save as") is not None
    expected = "image_" + phone.clock.now().strftime("%Y_%m_%d_%H_%M_%S")  # the device time of the tap
    assert find(phone, resource_id=f"{PKG}:id/save_image_filename").get("text") == expected
    assert find(phone, text=".png").get("checked") == "true"
    phone.key(keycodes.BACK)  # the keyboard
    phone.key(keycodes.BACK)  # the dialog
    save(phone, "lorem_abc")
    assert phone.activities.foreground() == (PKG, draw.MainScreen.activity)
    image = Image.open(io.BytesIO(phone.fs.read_bytes("/sdcard/Pictures/lorem_abc.png")))
    assert image.format == "PNG" and image.size == screen(phone).canvas_size
    pixels = np.asarray(image.convert("RGB"))
    y = 1000 - 118 - 147  # screen row 1000 on the canvas (under the status bar and the toolbar)
    assert tuple(pixels[y, 540]) == ORANGE and tuple(pixels[5, 5]) == (255, 255, 255)
    phone.key(keycodes.BACK)  # saved: BACK leaves without asking
    assert phone.activities.foreground()[0] != PKG


def test_save_as_jpg_and_svg(phone):
    phone.swipe(200, 1000, 900, 1000, 300)
    phone.tap(300, 400)
    save(phone, "ipsum", "jpg")
    jpeg = Image.open(io.BytesIO(phone.fs.read_bytes("/sdcard/Pictures/ipsum.jpg")))
    assert jpeg.format == "JPEG"
    r, g, b = np.asarray(jpeg.convert("RGB"))[1000 - 265, 540]
    assert r > 200 and 90 < g < 160 and b < 60
    save(phone, "dolor", "svg")
    svg = ElementTree.fromstring(phone.fs.read_bytes("/sdcard/Pictures/dolor.svg"))
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == f"{ns}svg" and svg.get("width") == "1080"
    assert svg.find(f"{ns}rect").get("fill") == "#ffffff"
    paths = svg.findall(f"{ns}path")
    assert [p.get("d") for p in paths] == ["M200.0,735.0 Q200.0,735.0 550.0,735.0 L900.0,735.0 ",
                                           "M300.0,135.0 L300.0,135.0 L300.0,137.0 L301.0,137.0 L301.0,135.0 "]
    assert paths[0].get("stroke") == "#f57c00" and paths[0].get("stroke-width") == "42.0"
    assert b'"last_save_extension">svg<' in phone.fs.read_bytes(draw.PREFS_PATH)
    tap(phone, content_desc="Save")
    assert find(phone, text=".svg").get("checked") == "true"  # remembered
    assert find(phone, resource_id=f"{PKG}:id/save_image_filename").get("text") == "dolor"


def test_a_taken_name_is_made_unique_and_a_missing_extension_added(phone):
    phone.swipe(200, 1000, 900, 1000, 300)
    phone.fs.write_bytes("/sdcard/Pictures/sit.png", b"old")
    save(phone, "sit")
    assert sorted(phone.fs.listdir("/sdcard/Pictures")) == ["sit (1).png", "sit.png"]
    assert phone.fs.read_bytes("/sdcard/Pictures/sit.png") == b"old"
    assert files.document_name("amet", "image/png") == "amet.png"
    assert files.document_name("amet.png", "image/png") == "amet.png"
    assert files.document_name("amet.txt", "image/svg+xml") == "amet.txt.svg"
    assert files.document_name("amet.jpg", "image/jpg") == "amet.jpg"


def test_an_empty_name_keeps_the_dialog_and_cancel_closes_it(phone):
    tap(phone, content_desc="Save")
    for _ in range(30):
        phone.key(keycodes.DEL)
    tap(phone, text="OK")
    assert find(phone, text="Save as") is not None
    tap(phone, text="Cancel")
    assert find(phone, text="Save as") is None and phone.activities.foreground()[0] == PKG


def test_back_with_unsaved_changes_asks_once(phone):
    phone.swipe(200, 1000, 900, 1000, 300)
    phone.key(keycodes.BACK)
    assert find(phone, text="You have unsaved changes. Save before exit?") is not None
    phone.key(keycodes.BACK)  # dismissed
    phone.key(keycodes.BACK)  # asked already: leaves
    assert phone.activities.foreground()[0] != PKG
    phone.run(f"am start -n {PKG}/.activities.MainActivity")
    phone.swipe(200, 1000, 900, 1000, 300)
    phone.key(keycodes.BACK)
    tap(phone, text="Discard")
    assert phone.activities.foreground()[0] != PKG


def test_phones_showing_the_same_drawing_share_its_pixels(phone):
    """Phones that show the same drawing (a blank canvas: ~9 MB at 1080x2400) draw it from the same pixels."""
    other = Phone()
    try:
        other.run(f"am start -n {PKG}/.activities.MainActivity")
        shown = []
        for device in (phone, other):
            device.screenshot()
            kept = device.window._renderer._own_size.kept.items()
            shown += [picture for key, picture in kept if key[0].startswith("canvas:")]
        assert len(shown) == 2 and shown[0] is shown[1]
    finally:
        other.close()
