"""The toolkit's picture views: an ImageView drawn fit-centre from a keyed picture, and a drawing surface that takes
drags (and taps) in its own coordinates unless a touch-taking view lies on top."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.window import STATUS_BAR_HEIGHT
from android_gym.sim.phone import Phone
from android_gym.sim.ui.dialogs import scrim_over
from android_gym.sim.ui.views import (
    View,
    column,
    drawing_surface,
    frame,
    image_view,
    seek_bar,
    text_view,
)
from android_gym.ui import parse_ui_dump

RED, BLUE = (220, 0, 0), (0, 0, 220)


class PictureScreen(Screen):
    """A 400 x 200 picture in a 1080 x 1080 ImageView, and a canvas with a seek bar over its bottom."""

    activity = "com.example.pictures.MainActivity"

    def __init__(self, app, intent):
        super().__init__(app, intent)
        self.picture, self.key = Image.new("RGB", (400, 200), RED), "red"
        self.drags: list[tuple[float, float, float, float]] = []
        self.level = 0
        self.covered = False

    def build(self) -> View:
        canvas = drawing_surface(lambda *points: self.drags.append(points), None, "canvas", height=900,
                                 resource_id="com.example.pictures:id/canvas")
        bar = seek_bar(self.level, 100, lambda level: setattr(self, "level", level), gravity="bottom", width=600,
                       resource_id="com.example.pictures:id/level")
        content = column(
            image_view(self.picture, self.key, content_desc="A picture", height=1080,
                       resource_id="com.example.pictures:id/picture"),
            frame(canvas, bar, height=900),
        )
        if not self.covered:
            return content
        return scrim_over(content, column(text_view("A dialog"), width=600, gravity="center"), None)


class Pictures(App):
    package = "com.example.pictures"
    label = "Pictures"
    screens = (PictureScreen,)


@pytest.fixture
def open_pictures():
    """Opens the Pictures app on a new phone of the given size; the phones are closed after the test."""
    phones: list[Phone] = []

    def start(width: int = 1080, height: int = 2400) -> Phone:
        device = Phone(width, height)
        phones.append(device)
        device.packages.install(Pictures)
        device.activities.launch(device.packages.get(Pictures.package))
        return device

    yield start
    for device in phones:
        device.close()


@pytest.fixture
def phone(open_pictures):
    return open_pictures()


def element(phone: Phone, resource_name: str):
    return next(e for e in parse_ui_dump(phone.ui_dump()) if e.resource_name == resource_name)


def test_an_image_view_is_an_imageview_node_with_its_description(phone):
    node = element(phone, "com.example.pictures:id/picture")
    assert node.class_name == "android.widget.ImageView" and node.content_description == "A picture"
    assert not node.is_clickable


def test_the_picture_is_scaled_to_fit_centred_keeping_its_aspect_ratio(phone):
    pixels = phone.screenshot()
    top = STATUS_BAR_HEIGHT
    # 400 x 200 into 1080 x 1080: scaled 2.7 to 1080 x 540, centred vertically (270 px margins).
    assert tuple(pixels[top + 540, 540]) == RED
    assert tuple(pixels[top + 280, 5]) == RED and tuple(pixels[top + 800, 1075]) == RED
    assert tuple(pixels[top + 100, 540]) == (255, 255, 255)
    assert tuple(pixels[top + 1000, 540]) == (255, 255, 255)


def test_the_key_names_the_pixels_so_a_new_key_redraws_them(phone):
    screen = phone.activities.top
    before = phone.screenshot()
    screen.picture = Image.new("RGB", (400, 200), BLUE)  # same key: the renderer takes it for the same picture
    phone.invalidate()
    assert np.array_equal(before, phone.screenshot())
    screen.key = "blue"
    phone.invalidate()
    assert tuple(phone.screenshot()[STATUS_BAR_HEIGHT + 540, 540]) == BLUE


def test_transparent_pixels_show_the_background(phone):
    picture = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    picture.paste((0, 0, 220, 255), (0, 0, 50, 100))
    screen = phone.activities.top
    screen.picture, screen.key = picture, "half"
    phone.invalidate()
    pixels = phone.screenshot()
    assert tuple(pixels[STATUS_BAR_HEIGHT + 540, 300]) == BLUE
    assert tuple(pixels[STATUS_BAR_HEIGHT + 540, 800]) == (255, 255, 255)


def test_drags_in_any_direction_reach_the_canvas_in_its_own_coordinates(phone):
    screen = phone.activities.top
    canvas = element(phone, "com.example.pictures:id/canvas")
    assert canvas.class_name == "android.view.View"
    left, top = canvas.bbox_pixels.x_min, canvas.bbox_pixels.y_min
    phone.swipe(left + 100, top + 100, left + 300, top + 500, 300)  # mostly vertical
    phone.swipe(left + 900, top + 400, left + 200, top + 350, 300)  # right to left
    phone.tap(left + 50, top + 60)  # a dot
    assert screen.drags == [(100, 100, 300, 500), (900, 400, 200, 350), (50, 60, 50, 60)]
    phone.swipe(left + 500, top + 100, left + 500, top - 600, 300)  # ends outside: the canvas keeps the finger
    assert screen.drags[-1] == (500, 100, 500, -600)
    assert phone.activities.top.scroll == {}


def test_a_seek_bar_over_the_canvas_takes_the_drag_and_a_scrim_blocks_both(phone):
    screen = phone.activities.top
    bar = element(phone, "com.example.pictures:id/level").bbox_pixels
    phone.swipe(bar.x_min + 60, bar.center[1], bar.x_max - 1, bar.center[1], 300)
    assert screen.level == 100 and screen.drags == []
    canvas = element(phone, "com.example.pictures:id/canvas").bbox_pixels
    screen.covered = True
    phone.invalidate()
    phone.swipe(canvas.x_min + 100, canvas.y_min + 100, canvas.x_min + 400, canvas.y_min + 300, 300)
    phone.tap(canvas.x_min + 100, canvas.y_min + 100)
    assert screen.drags == []


def test_drag_coordinates_are_design_pixels_on_a_scaled_screen(open_pictures):
    device = open_pictures(540, 1200)
    screen = device.activities.top
    canvas = element(device, "com.example.pictures:id/canvas").bbox_pixels
    device.swipe(canvas.x_min + 50, canvas.y_min + 50, canvas.x_min + 150, canvas.y_min + 250, 300)
    assert screen.drags == [(100, 100, 300, 500)]
    assert tuple(device.screenshot()[(STATUS_BAR_HEIGHT + 540) // 2, 270]) == RED
