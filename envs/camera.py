"""Camera tasks (AndroidWorld ``task_evals/single/camera.py``): take one photo, take one video.

As in AndroidWorld, ``/sdcard/Pictures`` and ``/sdcard/Movies`` are emptied before the task and after it, and the
folder the task is about must end up with exactly one new file: those are where Camera2 saves (MediaProvider's
default folders for images and videos; see ``android_gym.sim.apps.camera``). Stricter than AndroidWorld, which
only counts the names ``ls`` prints: hidden files count too (a recording still in progress leaves MediaProvider's
``.pending-…`` file), and the one file must be what the task asked for: a JPEG that decodes, or an MP4 whose
movie header gives a duration.

The oracle picks the mode first, as the camera starts in whichever mode it was left in: a swipe to the right over
the viewfinder opens the mode list (``CameraAppUI``'s gesture, so no accessibility button is needed), then the
mode's entry, then the shutter (twice for a video: start and stop).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
from PIL import Image, UnidentifiedImageError

from android_gym.device.base import Device
from android_gym.sim.apps.camera import MODE_DESCRIPTION, PACKAGE, PHOTO_MODE, SHUTTER, VIDEO_MODE
from android_gym.sim.system.media import is_mp4
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import PHOTOS_DATA, VIDEOS_DATA, clear_directory_command, list_files
from android_gym.tasks.oracle import OracleStep, Selector, complete, drag, open_app, tap

APP_NAME = "camera"  # AndroidWorld's open-app name
PREVIEW = Selector(resource_id=f"{PACKAGE}:id/preview_content")
SHUTTER_BUTTON = Selector(content_desc=SHUTTER)


def is_jpeg(data: bytes) -> bool:
    """Whether ``data`` is a JPEG image Pillow can decode."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "JPEG":
                return False
            image.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return False
    return True


def choose_mode(mode: int) -> list[OracleStep]:
    """Swipe the mode list out over the viewfinder and pick ``mode``."""
    return [drag(PREVIEW, "left"), tap(Selector(content_desc=MODE_DESCRIPTION[mode]))]


class _CameraTask(Task):
    """Starts and ends with ``Pictures`` and ``Movies`` emptied; succeeds with exactly one valid new file in
    ``folder``."""

    app_packages = (PACKAGE,)
    setup_clears_teardown = True  # what teardown empties beyond stopping the apps, clear_state empties too
    complexity = 1.0
    folder: ClassVar[str] = ""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """No parameters."""
        return {}

    def clear_state(self, device: Device) -> None:
        """AndroidWorld's ``_clear_app_data``: empty both camera folders (one round trip)."""
        self.run(device, " && ".join(clear_directory_command(folder) for folder in (PHOTOS_DATA, VIDEOS_DATA)))

    def teardown(self, device: Device) -> None:
        """Stop the camera and empty both folders again."""
        super().teardown(device)
        self.clear_state(device)

    @staticmethod
    def valid(data: bytes) -> bool:
        """Whether the new file is of the kind the task asks for."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """1.0 when ``folder`` (emptied at the start) holds exactly one file and it is valid."""
        files = list_files(device, self.folder, missing_ok=True)
        if len(files) != 1:
            return 0.0
        return 1.0 if self.valid(device.pull(files[0].path)) else 0.0


@register_task
class CameraTakePhoto(_CameraTask):
    """Take one photo: one new JPEG in ``Pictures``."""

    name = "CameraTakePhoto"
    template = "Take one photo."
    folder = PHOTOS_DATA
    valid = staticmethod(is_jpeg)

    def oracle(self) -> Sequence[OracleStep]:
        """Open the camera, choose Camera mode, press the shutter."""
        return [open_app(APP_NAME), *choose_mode(PHOTO_MODE), tap(SHUTTER_BUTTON), complete()]


@register_task
class CameraTakeVideo(_CameraTask):
    """Take one video: one new MP4 in ``Movies``."""

    name = "CameraTakeVideo"
    template = "Take one video."
    folder = VIDEOS_DATA
    valid = staticmethod(is_mp4)

    def oracle(self) -> Sequence[OracleStep]:
        """Open the camera, choose Video mode, press the shutter to start recording and again to stop."""
        return [open_app(APP_NAME), *choose_mode(VIDEO_MODE), tap(SHUTTER_BUTTON), tap(SHUTTER_BUTTON), complete()]
