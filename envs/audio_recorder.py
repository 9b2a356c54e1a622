"""Audio Recorder tasks (AndroidWorld ``task_evals/single/audio_recorder.py``): record a clip; record one and save
it under a given name.

Every task starts from the app as AndroidWorld's snapshot restores it, i.e. as after its one launch during setup: a
first run (welcome and setup screens come first), here by ``pm clear`` followed by AndroidWorld's permission
grants. The records folder (``AUDIORECORDER_DATA``) is emptied and kept, as the app's first launch leaves it; the
file-name task also clears the device storage first and last, as AndroidWorld's ``CreateFile`` does.

AndroidWorld's checks, made stricter: for ``AudioRecorderRecordAudio`` it wants one new or changed non-empty file
in the folder; here the folder must hold exactly one file and it must be a complete MPEG-4 recording (the app
writes the container's movie header only when the recording stops). For ``AudioRecorderRecordAudioWithFileName``
it wants ``<file_name>.m4a`` in the folder; here that must be the only file there, and a complete recording. The
name parameter already ends in ``.m4a`` (AndroidWorld passes ``interview.m4a`` through its name modifier), and the
app appends the record's extension to whatever name is given, so the goal's name typed as it is gives
``<file_name>.m4a``, the file AndroidWorld looks for.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.device.base import Device
from android_gym.sim.apps.audio_recorder import (
    APPLY,
    FORMAT_M4A,
    GET_STARTED,
    PACKAGE,
    RECORD_DESCRIPTION,
    SAVE,
)
from android_gym.sim.system.media import is_mp4
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import (
    AUDIORECORDER_DATA,
    CLEAR_STORAGE,
    clear_directory_command,
    empty_directory_command,
    list_files,
)
from android_gym.tasks.oracle import OracleStep, Selector, complete, open_app, replace_text, tap
from android_gym.tasks.user_data import modified_file_name, pick

APP_NAME = "audio recorder"  # AndroidWorld's open-app name
#: AndroidWorld's ``generate_random_params`` base names.
BASE_NAMES = (
    "interview", "meeting", "lecture", "session", "note", "conference", "webinar", "workshop", "seminar", "briefing",
    "discussion", "talk", "presentation", "training", "guidance", "memo", "narration", "storytelling", "journal",
    "diary", "debate", "symposium", "roundtable", "consultation", "review",
)
#: The permissions AndroidWorld's setup grants the app (``setup_device/apps.py``).
PERMISSIONS = ("android.permission.RECORD_AUDIO", "android.permission.POST_NOTIFICATIONS")


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def record_steps() -> list[OracleStep]:
    """From the home screen: open the app, get through the first-run screens, record and stop."""
    return [open_app(APP_NAME), tap(Selector(text=GET_STARTED)), tap(Selector(text=APPLY)),
            tap(Selector(content_desc=RECORD_DESCRIPTION)), tap(Selector(resource_id=_id("btn_record_stop")))]


def recordings(device: Device) -> list[tuple[str, bytes]]:
    """``(name, contents)`` of every file in the records folder (none if the folder is gone)."""
    return [(found.name, device.pull(found.path)) for found in list_files(device, AUDIORECORDER_DATA, missing_ok=True)]


class _AudioRecorderTask(Task):
    """Starts from a first run of the app with an empty records folder."""

    app_packages = (PACKAGE,)
    #: Whether setup first deletes every file of the shared storage (``CreateFile.initialize_task`` does).
    clears_storage: ClassVar[bool] = False

    def clear_state(self, device: Device) -> None:
        """The app's data as after AndroidWorld's setup (a first run), its permissions granted, and its records
        folder present and empty; first, for a ``clears_storage`` task, the device storage cleared. One round
        trip."""
        commands = [CLEAR_STORAGE] if self.clears_storage else []
        commands.append(f"pm clear {shlex.quote(PACKAGE)}")
        commands += [f"pm grant {shlex.quote(PACKAGE)} {shlex.quote(permission)}" for permission in PERMISSIONS]
        self.run(device, " && ".join([*commands, empty_directory_command(AUDIORECORDER_DATA)]))


@register_task
class AudioRecorderRecordAudio(_AudioRecorderTask):
    """Record a clip and save it under any name."""

    name = "AudioRecorderRecordAudio"
    complexity = 1.2
    template = "Record an audio clip using Audio Recorder app and save it."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """No parameters."""
        return {}

    def is_successful(self, device: Device) -> float:
        """1.0 when the records folder holds exactly one file, a complete recording."""
        found = recordings(device)
        return 1.0 if len(found) == 1 and is_mp4(found[0][1]) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Record, stop, keep the proposed name."""
        return [*record_steps(), tap(Selector(text=SAVE)), complete()]


@register_task
class AudioRecorderRecordAudioWithFileName(_AudioRecorderTask):
    """Record a clip and name it ``file_name``."""

    name = "AudioRecorderRecordAudioWithFileName"
    complexity = 2.0
    template = 'Record an audio clip and save it with name "{file_name}" using Audio Recorder app.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A modified ``<base>.m4a`` name (a date, four random characters or backup/copy/final/edited before or
        after the base); ``text`` is unused, as in AndroidWorld."""
        return {"file_name": modified_file_name(rng, f"{pick(rng, BASE_NAMES)}.{FORMAT_M4A}"), "text": ""}

    @property
    def target(self) -> str:
        """The file AndroidWorld looks for: the name with the app's extension appended."""
        return f"{self.params['file_name']}.{FORMAT_M4A}"

    clears_storage = True
    setup_clears_teardown = True  # the storage and the records folder teardown empties, clear_state empties too

    def teardown(self, device: Device) -> None:
        """Stop the app and clear the device storage and the records folder, as AndroidWorld does."""
        super().teardown(device)
        self.run(device, f"{CLEAR_STORAGE} && {clear_directory_command(AUDIORECORDER_DATA)}")

    def is_successful(self, device: Device) -> float:
        """1.0 when the records folder holds only ``<file_name>.m4a`` and it is a complete recording."""
        found = recordings(device)
        return 1.0 if len(found) == 1 and found[0][0] == self.target and is_mp4(found[0][1]) \
            else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Record, stop, type the name over the proposed one, save."""
        return [*record_steps(), replace_text(Selector(resource_id=_id("input_name")), self.params["file_name"]),
                tap(Selector(text=SAVE)), complete()]

