"""Simple Gallery Pro tasks (AndroidWorld ``task_evals/single/simple_gallery_pro.py``).

``SaveCopyOfReceiptTaskEval``: a receipt picture (``receipt_generator.create_receipt`` with one transaction, saved
as JPEG) is pushed to ``/sdcard/DCIM`` after ``clear_device_storage``; the agent copies it into Download under the
same name. The receipt's company, slogan and transaction are drawn into ``params`` and the picture is rendered
from them in ``seed_state`` (``android_gym.tasks.images``), so pinned parameters pin the exact bytes.

The check is stricter than AndroidWorld's (which only looks for the name in Download): the Download file must be a
byte-identical copy, and DCIM must still hold exactly the original, so moving instead of copying, renaming, or
saving something else under the name scores 0.

The oracle copies through the viewer: the DCIM folder, the picture, "Copy to" in the overflow, "Other folder"
(Download holds no media, so the destination dialog does not list it), the storage root in the file picker's
breadcrumbs, Download, OK.
"""

from __future__ import annotations

import hashlib
import posixpath
import shlex
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from android_gym.device.base import Device
from android_gym.sim.apps.gallery import COPY_TO, INTERNAL, MORE_OPTIONS, OK, OTHER_FOLDER, PACKAGE
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import DOWNLOAD_DATA, GALLERY_DATA, clear_device_storage, files_in, tree_snapshot
from android_gym.tasks.images import encode, receipt_image, receipt_params
from android_gym.tasks.oracle import OracleStep, Selector, complete, open_app, scroll_to, tap
from android_gym.tasks.user_data import random_file_name

APP_NAME = "simple gallery pro"


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


DOWNLOAD = Selector(text="Download", resource_id=_id("list_item_name"))  # the folder picker's Download row
FOLDER_LIST = Selector(resource_id=_id("filepicker_list"))


def copy_to_download() -> list[OracleStep]:
    """From a picture shown full screen: overflow → Copy to → Other folder → Internal → Download (scrolled to in the
    folder picker: a short screen or large text pushes it below the fold) → OK."""
    return [
        tap(Selector(content_desc=MORE_OPTIONS)),
        tap(Selector(text=COPY_TO)),
        tap(Selector(text=OTHER_FOLDER)),
        tap(Selector(text=INTERNAL, resource_id=_id("breadcrumb_text"))),
        *scroll_to(DOWNLOAD, FOLDER_LIST, max_scrolls=3),
        tap(DOWNLOAD),
        tap(Selector(text=OK, resource_id="android:id/button1")),
    ]


@register_task
class SaveCopyOfReceiptTaskEval(Task):
    """Copy a receipt picture from DCIM into Download with the same name, leaving the original."""

    name = "SaveCopyOfReceiptTaskEval"
    app_packages = (PACKAGE,)
    setup_clears_teardown = True  # what teardown empties beyond stopping the apps, clear_state empties too
    complexity = 1.6
    template = "In Simple Gallery Pro, copy {file_name} in DCIM and save a copy with the same name in Download"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The receipt (one transaction, as ``create_receipt()``) and ``receipt_<random name>.jpg``."""
        return {"receipt": receipt_params(rng, 1), "file_name": f"receipt_{random_file_name(rng)}.jpg"}

    @cached_property
    def picture(self) -> bytes:
        """The receipt's JPEG bytes, rendered from the parameters."""
        return encode(receipt_image(self.params["receipt"]), self.params["file_name"])

    def clear_state(self, device: Device) -> None:
        """``clear_device_storage``. The app's data stays, as in AndroidWorld: clearing it would bring back the
        first-run "All files access" prompt its setup answered once (``prepare``'s force-stop already ends the
        session's delete choices)."""
        clear_device_storage(device)

    def seed_state(self, device: Device) -> None:
        """The receipt in DCIM (``copy_data_to_device``)."""
        self.run(device, f"mkdir -p {shlex.quote(GALLERY_DATA)}")
        device.push(self.picture, posixpath.join(GALLERY_DATA, self.params["file_name"]))

    def teardown(self, device: Device) -> None:
        """AndroidWorld's ``tear_down``: ``clear_device_storage``."""
        super().teardown(device)
        clear_device_storage(device)

    def is_successful(self, device: Device) -> float:
        """1.0 when Download holds a byte-identical copy under the same name and DCIM still holds exactly the
        original."""
        name, digest = self.params["file_name"], hashlib.md5(self.picture).hexdigest()
        copied = tree_snapshot(device, DOWNLOAD_DATA).get(name) == digest
        kept = files_in(tree_snapshot(device, GALLERY_DATA)) == {name: digest}
        return 1.0 if copied and kept else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """DCIM, the receipt, overflow → Copy to → Other folder → Internal → Download → OK."""
        return [
            open_app(APP_NAME),
            tap(Selector(text="DCIM", resource_id=_id("dir_name"))),
            tap(Selector(resource_id=_id("media_item_holder"))),
            *copy_to_download(),
            complete(),
        ]
