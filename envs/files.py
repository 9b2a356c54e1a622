"""Files tasks (AndroidWorld ``task_evals/single/files.py`` with ``common_validators/file_validators.py``'s
``DeleteFile`` and ``MoveFile``).

Setup is AndroidWorld's: every file under external storage is deleted (folders stay), then the task's file and its
noise are written with ``echo`` (20 random letters and digits each), in AndroidWorld's order (``DeleteFile``: the
file, then the noise; ``MoveFile``: the noise, then the file, then ``mkdir -p`` of the destination). The noise
names come from ``generate_noise_files`` (1 to 20 modified names of the folder's typical files, or of the file's
own name). Every name and content is drawn in ``generate_params``, so pinned parameters pin the whole state.
The Files app's data is cleared too, so each episode starts from the app's defaults (grid view, no saved order).

Checks are AndroidWorld's (``find`` under the folder) and stricter: the files of the folders the task touches must
be exactly what the goal leaves (same names, same contents), so deleting, moving or changing a noise file, copying
instead of moving, or moving to another folder scores 0.

Oracles act through the Files app: the roots drawer, the device's storage root, the folder, then the file (shown
in list view and scrolled to when the grid hides it), a long press to select it, and Delete or "Move to…" with the
picker.
"""

from __future__ import annotations

import hashlib
import posixpath
import shlex
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.device.base import Device
from android_gym.sim.apps.files import DEVICE_NAME, MORE_OPTIONS, MOVE, MOVE_TO, OK, PACKAGE, SHOW_ROOTS
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import (
    CLEAR_STORAGE,
    EXTERNAL_STORAGE,
    clear_device_storage,
    files_in,
    path_exists,
    tree_snapshot,
    write_files,
)
from android_gym.tasks.oracle import OracleStep, Selector, complete, long_press, open_app, scroll_to, tap
from android_gym.tasks.user_data import EMULATOR_DIRECTORIES, noise_file_names, pick, random_file_name, random_string
from android_gym.ui import UIElement

APP_NAME = "Files"
CONTENT_LENGTH = 20  # file_utils.create_file's random content
DIR_LIST = Selector(resource_id=f"{PACKAGE}:id/dir_list")
ROOTS_LIST = Selector(resource_id=f"{PACKAGE}:id/roots_list")
STORAGE_ROOT = Selector(text=DEVICE_NAME, resource_id="android:id/title")


def _digest(content: str) -> str:
    """The MD5 ``md5sum`` prints for a file ``echo content`` wrote."""
    return hashlib.md5(f"{content}\n".encode()).hexdigest()


def _holds_exactly(device: Device, folder: str, files: Mapping[str, str]) -> bool:
    """Whether ``folder`` (with everything under it) holds exactly ``files`` ({name: content})."""
    expected = {name: _digest(content) for name, content in files.items()}
    return files_in(tree_snapshot(device, folder)) == expected


def _tap_if(condition: Selector, target: Selector, unless: Selector | None = None) -> OracleStep:
    """Tap ``target`` when ``condition`` is on screen (and ``unless`` is not); otherwise do nothing."""
    def step(elements: Sequence[UIElement]) -> Any:
        if not condition.present(elements) or (unless is not None and unless.present(elements)):
            return None
        return tap(target)(elements)
    return step


def open_storage_root() -> list[OracleStep]:
    """From an open Files screen (or picker): the drawer, its roots list scrolled to the device's storage (the last
    root, below the fold on a short screen with large text), then that root."""
    return [tap(Selector(content_desc=SHOW_ROOTS)), *scroll_to(STORAGE_ROOT, ROOTS_LIST, max_scrolls=4),
            tap(STORAGE_ROOT)]


def open_in_storage(folder: str) -> list[OracleStep]:
    """From an open Files screen: the device's storage root, then ``folder`` (switching the root to grid view,
    where every top folder fits, when the list view hides it)."""
    target = Selector(text=folder, resource_id="android:id/title")
    grid = Selector(content_desc="Grid view")
    return [*open_storage_root(), _tap_if(grid, grid, unless=target), *scroll_to(target, DIR_LIST), tap(target)]


def _reveal_file(name: str) -> list[OracleStep]:
    """Bring the file ``name`` on screen: list view (more rows fit) unless it shows already, then scroll."""
    target = Selector(text=name, resource_id="android:id/title")
    list_view = Selector(content_desc="List view")
    return [_tap_if(list_view, list_view, unless=target), *scroll_to(target, DIR_LIST)]


def select_file(folder: str, name: str) -> list[OracleStep]:
    """Open Files, go to ``folder`` on the device's storage and select ``name`` (a long press)."""
    return [open_app(APP_NAME), *open_in_storage(folder), *_reveal_file(name),
            long_press(Selector(text=name, resource_id="android:id/title"))]


class _FilesTask(Task):
    """A task on the device's shared storage through the Files app."""

    app_packages: ClassVar[tuple[str, ...]] = (PACKAGE,)
    setup_clears_teardown = True  # the storage teardown empties, clear_state empties too

    def clear_state(self, device: Device) -> None:
        """``clear_device_storage``, and the Files app back to its defaults (one round trip)."""
        self.run(device, f"{CLEAR_STORAGE} && pm clear {PACKAGE}")

    def teardown(self, device: Device) -> None:
        """AndroidWorld's ``tear_down``: ``clear_device_storage``."""
        super().teardown(device)
        clear_device_storage(device)

    @staticmethod
    def _noise(rng: np.random.Generator, base: str, variants: Sequence[str]) -> dict[str, str]:
        """``generate_noise_files``' names (never ``base`` itself), each with its random content."""
        names = noise_file_names(rng, base, variants, exclude=(base,))
        return {name: random_string(rng, CONTENT_LENGTH) for name in names}


@register_task
class FilesDeleteFile(_FilesTask):
    """Delete one file from a folder of the device's storage; the noise beside it must stay."""

    name = "FilesDeleteFile"
    complexity = 2.2
    template = ("Delete the file {file_name} from the Android filesystem located in the {subfolder} folder within "
                "the sdk_gphone_x86_64 storage area.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A folder, a random name with the extension of the folder's first typical file, and the noise."""
        subfolder = pick(rng, list(EMULATOR_DIRECTORIES))
        candidates = EMULATOR_DIRECTORIES[subfolder]
        extension = posixpath.splitext(candidates[0])[1]
        file_name = random_file_name(rng) + extension
        return {"file_name": file_name, "subfolder": subfolder, "noise_candidates": list(candidates),
                "file_content": random_string(rng, CONTENT_LENGTH),
                "noise_files": cls._noise(rng, file_name, candidates)}

    @property
    def folder(self) -> str:
        """The folder the file is in."""
        return posixpath.join(EXTERNAL_STORAGE, self.params["subfolder"])

    def seed_state(self, device: Device) -> None:
        """The file, then the noise (``DeleteFile.initialize_task``), in one ``write_files``."""
        write_files(device, self.folder, {self.params["file_name"]: self.params["file_content"],
                                          **self.params["noise_files"]})  # the noise never has the file's name

    def is_successful(self, device: Device) -> float:
        """The file is gone and the folder holds exactly the noise, unchanged."""
        gone = not path_exists(device, self.folder, self.params["file_name"])
        return 1.0 if gone and _holds_exactly(device, self.folder, self.params["noise_files"]) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Select the file, Delete, confirm."""
        return [*select_file(self.params["subfolder"], self.params["file_name"]),
                tap(Selector(content_desc="Delete")), tap(Selector(text=OK, resource_id="android:id/button1")),
                complete()]


@register_task
class FilesMoveFile(_FilesTask):
    """Move one file from a folder of the device's storage to another; the noise must stay behind."""

    name = "FilesMoveFile"
    complexity = 2
    template = ("Move the file {file_name} from {source_folder} within the sdk_gphone_x86_64 storage area to the "
                "{destination_folder} within the same sdk_gphone_x86_64 storage area in the Android filesystem.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two different folders; the file is one of the destination's typical files, the noise is made from
        the source's."""
        folders = list(EMULATOR_DIRECTORIES)
        source = pick(rng, folders)
        destination = pick(rng, [folder for folder in folders if folder != source])
        candidates = EMULATOR_DIRECTORIES[source]
        file_name = pick(rng, EMULATOR_DIRECTORIES[destination])
        return {"file_name": file_name, "source_folder": source, "destination_folder": destination,
                "noise_candidates": list(candidates), "file_content": random_string(rng, CONTENT_LENGTH),
                "noise_files": cls._noise(rng, file_name, candidates)}

    @property
    def source(self) -> str:
        """The folder the file starts in."""
        return posixpath.join(EXTERNAL_STORAGE, self.params["source_folder"])

    @property
    def destination(self) -> str:
        """The folder it must end up in."""
        return posixpath.join(EXTERNAL_STORAGE, self.params["destination_folder"])

    def seed_state(self, device: Device) -> None:
        """The noise and the file (one ``write_files``), then the destination folder (``MoveFile.initialize_task``)."""
        write_files(device, self.source, {**self.params["noise_files"],
                                          self.params["file_name"]: self.params["file_content"]})
        self.run(device, f"mkdir -p {shlex.quote(self.destination)}")

    def is_successful(self, device: Device) -> float:
        """The file left the source for the destination, unchanged, and the source holds exactly the noise."""
        name = self.params["file_name"]
        moved = not path_exists(device, self.source, name) and path_exists(device, self.destination, name)
        return 1.0 if (moved and _holds_exactly(device, self.destination, {name: self.params["file_content"]})
                       and _holds_exactly(device, self.source, self.params["noise_files"])) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Select the file, "Move to…", pick the destination on the device's storage, Move."""
        return [*select_file(self.params["source_folder"], self.params["file_name"]),
                tap(Selector(content_desc=MORE_OPTIONS)), tap(Selector(text=MOVE_TO)),
                *open_in_storage(self.params["destination_folder"]),
                tap(Selector(text=MOVE, resource_id="android:id/button1")), complete()]
