"""Simple Draw Pro tasks (AndroidWorld ``task_evals/single/simple_draw_pro.py`` with ``file_validators.CreateFile``).

``SimpleDrawProCreateDrawing``: after ``clear_device_storage``, the agent draws and saves a drawing named
``<word>_<random name>.<png|svg|jpg>`` in ``/storage/emulated/0/Pictures``. AndroidWorld only checks that the name
exists there; here the file must also be a real picture of its type with something drawn on it: a PNG or JPEG
that decodes and has a stroke's worth of pixels away from the background colour, or SVG XML with a visible
stroke (a ``path`` with a ``d`` and a colour). An empty drawing, a wrong name, another folder or a file of the
wrong type scores 0.

The oracle draws one stroke across the canvas, then saves it as Android 13 does: "Save as" with the name (the
extension is its radio button), then DocumentsUI's create-document picker: the roots drawer, the device's storage
root, Pictures, Save.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import shlex
from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree

import numpy as np
from PIL import Image

from android_gym.device.base import Device
from android_gym.envs.files import DIR_LIST, open_storage_root
from android_gym.errors import RemoteFileNotFoundError
from android_gym.sim.apps import draw, files
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import PHOTOS_DATA, clear_device_storage, path_exists
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    complete,
    drag,
    hide_keyboard_unless,
    open_app,
    replace_text,
    scroll_to,
    tap,
)
from android_gym.tasks.user_data import pick, random_file_name

APP_NAME = "simple draw pro"
WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")  # generate_random_params
EXTENSIONS = (".png", ".svg", ".jpg")
#: Pixels that must differ clearly from the background: a dot of the smallest brush (5 % of 40 dp) covers ~20.
MIN_STROKE_PIXELS = 16
_SVG = "{http://www.w3.org/2000/svg}"


def _id(name: str) -> str:
    return f"{draw.PACKAGE}:id/{name}"


def has_stroke(data: bytes, extension: str) -> bool:
    """Whether ``data`` is a picture of the type ``extension`` names with something drawn on it."""
    if extension == ".svg":
        try:
            root = ElementTree.fromstring(data)
        except ElementTree.ParseError:
            return False
        return root.tag == f"{_SVG}svg" and any(
            path.get("d", "").strip() and path.get("stroke", "none") != "none" for path in root.iter(f"{_SVG}path"))
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (OSError, ValueError, Image.DecompressionBombError):
        return False
    if image.format != ("PNG" if extension == ".png" else "JPEG"):
        return False
    pixels = np.asarray(image.convert("RGB"), dtype=np.int32)
    packed = (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
    colors, counts = np.unique(packed, return_counts=True)
    mode = int(colors[int(np.argmax(counts))])
    background = np.array([mode >> 16, (mode >> 8) & 0xFF, mode & 0xFF])
    far = np.abs(pixels - background).max(axis=2) > 48  # JPEG ringing stays well under this
    return int(far.sum()) >= MIN_STROKE_PIXELS


@register_task
class SimpleDrawProCreateDrawing(Task):
    """Draw something and save it as ``file_name`` in Pictures."""

    name = "SimpleDrawProCreateDrawing"
    app_packages = (draw.PACKAGE, files.PACKAGE)
    setup_clears_teardown = True  # what teardown empties beyond stopping the apps, clear_state empties too
    complexity = 1.8
    template = ("Create a new drawing in Simple Draw Pro. Name it {file_name}. Save it in the Pictures folder within "
                "the sdk_gphone_x86_64 storage area.")

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self._checked: dict[str, bool] = {}

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``<word>_<random file name><extension>``; ``text`` is unused, as in AndroidWorld."""
        return {"file_name": f"{pick(rng, WORDS)}_{random_file_name(rng)}{pick(rng, EXTENSIONS)}", "text": ""}

    def clear_state(self, device: Device) -> None:
        """``CreateFile.initialize_task``: ``clear_device_storage``; both apps back to their defaults."""
        clear_device_storage(device)
        for package in self.app_packages:
            self.run(device, f"pm clear {shlex.quote(package)}")

    def teardown(self, device: Device) -> None:
        """``CreateFile.tear_down``: ``clear_device_storage``."""
        super().teardown(device)
        clear_device_storage(device)

    def is_successful(self, device: Device) -> float:
        """1.0 when Pictures has the file and it is a picture of its type with a stroke on it."""
        name = self.params["file_name"]
        if not path_exists(device, PHOTOS_DATA, name):
            return 0.0
        try:
            data = device.pull(posixpath.join(PHOTOS_DATA, name))
        except RemoteFileNotFoundError:
            return 0.0
        digest = hashlib.md5(data).hexdigest()
        if digest not in self._checked:  # the env scores every step: decode each version of the file once
            self._checked[digest] = has_stroke(data, posixpath.splitext(name)[1])
        return 1.0 if self._checked[digest] else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """A stroke on the canvas, Save, the name and extension, OK, then the picker: roots, storage, Pictures,
        Save."""
        stem, extension = posixpath.splitext(self.params["file_name"])
        pictures = Selector(text="Pictures", resource_id="android:id/title")
        return [
            open_app(APP_NAME),
            drag(Selector(resource_id=_id("my_canvas")), "down"),
            tap(Selector(content_desc=draw.SAVE)),
            replace_text(Selector(resource_id=_id("save_image_filename")), stem),
            hide_keyboard_unless(Selector(text=extension)),  # on a short screen the keyboard shortens the dialog
            tap(Selector(text=extension)),
            tap(Selector(text=draw.OK, resource_id="android:id/button1")),
            *open_storage_root(),
            *scroll_to(pictures, DIR_LIST, max_scrolls=4),
            tap(pictures),
            tap(Selector(text=draw.SAVE, resource_id="android:id/button1")),
            complete(),
        ]
