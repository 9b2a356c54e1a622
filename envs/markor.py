"""Markor tasks (AndroidWorld ``task_evals/single/markor.py`` with ``common_validators/file_validators.py``, and
``task_evals/composite/markor_sms.py``).

Every task starts with the notebook folder (``/storage/emulated/0/Documents/Markor``) emptied; those built on
AndroidWorld's ``CreateFile``/``DeleteFile``/``MoveFile`` validators first delete every file of the shared storage,
as those do. Files are written as AndroidWorld's ``create_file`` writes them (``echo``, so with a newline), their
names from its generators (a modified ``<adjective>_<noun>`` with ".md" or ".txt", noise names made from its note
titles) and contents (random sentences, or 20 random letters and digits where AndroidWorld's ``create_file``
invents them); every name, content and time is drawn in ``generate_params``, so pinned parameters pin the state.

Checks are AndroidWorld's (``find`` for existence, ``cat`` with fuzzy or exact matching, the merged note's line
layout) and stricter: every file and folder of the notebook after setup, apart from the ones the goal is about,
must still be there unchanged (new ones do not matter), so deleting, moving, renaming or changing a noise note
scores 0, as does deleting the notes that were merged or the notebook folder itself.

Deviations: ``MarkorCreateFolder``'s name ends with a random 2023 date and time where AndroidWorld uses the host's
clock; ``MarkorDeleteNewestNote`` gives the notes their times with ``touch -d`` instead of moving the device clock,
and checks the other notes' contents rather than their access times (which only reading them would change).

Oracles work through Markor as a person does: a note is opened from the list (scrolled to), the "+" button makes
a new note (the name typed without its extension, the extension field set, since Markor appends it), text is typed
after a tap (the caret goes to the end) or after a long press left of the first line (the caret goes to the
start), BACK leaves the editor (which saves), a long press selects a row for Rename, Delete or the overflow's
Move, and sharing goes through Share ▸ Plain Text and the share sheet.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import shlex
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.envs.sms import SimpleSmsSend
from android_gym.errors import RemoteFileNotFoundError
from android_gym.sim.apps.markor import NEW_FILE_TYPES, PACKAGE
from android_gym.tasks import Task, register_task
from android_gym.tasks import params as gen
from android_gym.tasks.draws import exact_draws
from android_gym.tasks.files import (
    CLEAR_STORAGE,
    MARKOR_DATA,
    clear_directory,
    empty_directory_command,
    file_text,
    is_directory,
    kept,
    list_files,
    tree_snapshot,
    write_files,
)
from android_gym.tasks.files import FOLDER as FOLDER_ENTRY
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    act,
    complete,
    long_press,
    open_app,
    replace_text,
    scroll_to,
    tap,
    type_into,
)
from android_gym.tasks.user_data import (
    NOTE_TITLES,
    noise_file_names,
    pick,
    random_file_name,
    random_sentence,
    random_string,
)
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

APP_NAME = "Markor"
CLIPPER = "ca.zgrs.clipper"
SMS_PACKAGE = "com.simplemobiletools.smsmessenger"
CONTENT_LENGTH = 20  # file_utils.create_file's random content
EXTENSIONS = (".md", ".txt")
SUBFOLDERS = ("BookNotes", "CodeSnippets", "DailyNotes", "FitnessPlans", "MeetingMinutes", "PersonalJournal",
              "RecipeCollections", "StudyGuides", "TravelItineraries", "WorkProjects")  # MarkorMoveNote's


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


NEW_NOTE = Selector(content_desc="Create a new file or folder")
NAME_FIELD = Selector(resource_id=_id("new_file_dialog__name"))
EXT_FIELD = Selector(resource_id=_id("new_file_dialog__ext"))
TYPE_SPINNER = Selector(resource_id=_id("new_file_dialog__type"))
OK = Selector(text="OK", resource_id="android:id/button1")
FOLDER = Selector(text="FOLDER", resource_id="android:id/button3")
EDITOR = Selector(resource_id=_id("document__fragment__edit__highlighting_editor"))
FILE_LIST = Selector(resource_id=_id("ui__filesystem_dialog__list"))
RENAME_FIELD = Selector(resource_id=_id("new_name"))
MORE_OPTIONS = Selector(content_desc="More options")
# The file browser's Search (filesystem__menu.xml action_search), its query field and the results' list.
SEARCH = Selector(content_desc="Search", resource_id=_id("action_search"))
SEARCH_FIELD = Selector(text="Search", class_suffix="EditText")
RESULTS = Selector(class_suffix="ExpandableListView")
# The floating text-selection toolbar's item labels (android:id/floating_toolbar_menu_item_text).
SELECT_ALL, COPY, PASTE = (Selector(text=title, resource_id="android:id/floating_toolbar_menu_item_text")
                           for title in ("Select all", "Copy", "Paste"))
_TYPE_LABELS = tuple(label for label, _ in NEW_FILE_TYPES)


def _row(name: str) -> Selector:
    """A file or folder of the list, by its name."""
    return Selector(text=name, resource_id=_id("opoc_filesystem_item__title"))


def _menu_item(title: str) -> Selector:
    """An item of the overflow menu or a submenu."""
    return Selector(text=title, resource_id=_id("title"))


def _random_note(rng: np.random.Generator) -> str:
    """``_generate_random_note``'s name: a random file name with ".md" or ".txt"."""
    return random_file_name(rng) + pick(rng, EXTENSIONS)


def _noise(rng: np.random.Generator, base: str, exclude: Sequence[str], n: int = 20) -> dict[str, str]:
    """``generate_noise_files`` from the note titles: names (none of ``exclude``) with random contents (drawn in
    blocks: up to 20 names and contents take hundreds of draws)."""
    with exact_draws(rng) as draws:
        names = noise_file_names(draws, base, NOTE_TITLES, n=n, exclude=exclude)
        return {name: random_string(draws, CONTENT_LENGTH) for name in names}


# ----- oracle pieces ------------------------------------------------------------------------------------------------
def _when_shown(dialog: Selector, step: OracleStep) -> OracleStep:
    """``step`` while ``dialog`` is on screen, else nothing."""
    return lambda elements: step(elements) if dialog.present(elements) else None


def search_for(name: str) -> list[OracleStep]:
    """From the notebook, when the row of ``name`` (a file of the folder shown) is not on screen: the toolbar's
    Search, the name typed (ENTER searches), a long press on the file among the results (scrolled to if need be),
    which shows it in the list with its row at the top; nothing when the row shows. Three steps wherever the row
    lies, where scrolling takes one a screen and the screen does not tell how many: a person who does not see the
    note searches for it."""
    row, result = _row(name), Selector(text=name, resource_id="android:id/text1")

    def search(elements: Sequence[UIElement]) -> Action | None:
        return tap(SEARCH)(elements) if FILE_LIST.present(elements) and not row.present(elements) else None

    find_result = [_when_shown(RESULTS, step) for step in scroll_to(result, RESULTS)[:-1]]
    return [search, _when_shown(SEARCH_FIELD, type_into(SEARCH_FIELD, name)), *find_result,
            _when_shown(RESULTS, long_press(result))]


def find_note(name: str, by_name: bool = True) -> list[OracleStep]:
    """From the notebook: the note's row on screen, searched for when it is not (``search_for``) and the person
    knows its name (``by_name``), else scrolled to."""
    return [*(search_for(name) if by_name else ()), *scroll_to(_row(name), FILE_LIST)]


def open_note(name: str) -> list[OracleStep]:
    """From the notebook: find the note (``find_note``) and open it."""
    return [*find_note(name), tap(_row(name))]


def select_note(name: str, by_name: bool = True) -> list[OracleStep]:
    """From the notebook: find the note (``find_note``) and long-press its row (it becomes selected)."""
    return [*find_note(name, by_name), long_press(_row(name))]


def _caret_at_start(elements: Sequence[UIElement]) -> Action:
    """A long press in the editor's top-left padding, left of the first character: the caret goes to the start."""
    box = EDITOR.find(elements).bbox_pixels
    return Action(ActionType.LONG_PRESS, x=box.x_min + 1, y=box.y_min + 1)


def _type_at_caret(text: str) -> OracleStep:
    """Type into the focused field where its caret is (no tap first, which would move the caret to the end)."""
    return act(Action(ActionType.INPUT_TEXT, text=text))


_TYPE_DROPDOWN = Selector(class_suffix="ListView")
_TYPE_ITEM = {label: Selector(text=label, class_suffix="CheckedTextView") for label in ("Markdown", "None")}


def _markdown_if_none_chosen(elements: Sequence[UIElement]) -> Action | None:
    """In the open Type drop-down, when "None" is chosen already (choosing it again changes nothing): "Markdown"
    (at its top), so that choosing "None" again empties the extension; nothing otherwise."""
    chosen = [e for e in elements if _TYPE_ITEM["None"].matches(e) and e.is_checked]
    return tap(_TYPE_ITEM["Markdown"])(elements) if chosen else None


def _reopen_type_dropdown(elements: Sequence[UIElement]) -> Action | None:
    """Open the Type drop-down again unless it is open."""
    return None if _TYPE_DROPDOWN.present(elements) else tap(TYPE_SPINNER)(elements)


def new_note(name: str) -> list[OracleStep]:
    """From the notebook: "+", the name without its extension, the extension field set (Markor appends it;
    a name without one gets the "None" type, which empties the field), OK; the editor opens."""
    stem, dot, extension = name.rpartition(".") if "." in name else (name, "", "")
    if dot:
        return [tap(NEW_NOTE), type_into(NAME_FIELD, stem), replace_text(EXT_FIELD, dot + extension), tap(OK)]
    return [tap(NEW_NOTE), type_into(NAME_FIELD, stem), tap(TYPE_SPINNER), _markdown_if_none_chosen,
            _reopen_type_dropdown, *scroll_to(_TYPE_ITEM["None"], _TYPE_DROPDOWN), tap(_TYPE_ITEM["None"]), tap(OK)]


def leave_editor() -> list[OracleStep]:
    """BACK until the editor is left (the first one hides the keyboard when it is up); leaving saves."""
    def back_if_editing(elements: Sequence[UIElement]) -> Action | None:
        return Action(ActionType.NAVIGATE_BACK) if EDITOR.present(elements) else None
    return [back_if_editing, back_if_editing]


def save_note() -> OracleStep:
    """The editor toolbar's Save (``document__edit__menu.xml``'s ``action_save``, always shown): the text is written
    at once, the editor and its keyboard stay."""
    return tap(Selector(content_desc="Save", resource_id=_id("action_save")))


def rename_note(name: str, new_name: str) -> list[OracleStep]:
    """From the notebook: select the note, Rename, the new name, OK."""
    return [*select_note(name), tap(Selector(content_desc="Rename")), replace_text(RENAME_FIELD, new_name), tap(OK)]


def delete_selected() -> list[OracleStep]:
    """Delete what is selected: the toolbar's Delete, then OK."""
    return [tap(Selector(content_desc="Delete")), tap(OK)]


# ----- tasks --------------------------------------------------------------------------------------------------------
class _MarkorTask(Task):
    """A Markor task: the notebook folder is emptied before and after (``Markor.initialize_task``/``tear_down``),
    and a snapshot of it is kept after setup to prove what the agent left alone."""

    app_packages: ClassVar[tuple[str, ...]] = (PACKAGE,)
    setup_clears_teardown = True  # the notebook (and the storage) are emptied by clear_state
    #: Whether setup first deletes every file of the shared storage (AndroidWorld's file validators do).
    clears_storage: ClassVar[bool] = False

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.before: dict[str, str] = {}

    def clear_state(self, device: Device) -> None:
        """Every file of the storage gone (for the validator-based tasks), the notebook empty (one round trip)."""
        commands = [CLEAR_STORAGE] if self.clears_storage else []
        self.run(device, " && ".join([*commands, empty_directory_command(MARKOR_DATA)]))

    def seed_state(self, device: Device) -> None:
        """Write the task's files, then remember the notebook as they left it."""
        self.write(device)
        self.before = tree_snapshot(device, MARKOR_DATA)

    def write(self, device: Device) -> None:
        """The task's files (default: none)."""

    def notebook(self, device: Device) -> dict[str, str]:
        """The notebook now (``tree_snapshot``): a check reads it once for what exists and what was kept."""
        return tree_snapshot(device, MARKOR_DATA)

    def untouched(self, now: dict[str, str], *paths: str) -> bool:
        """Whether every entry the snapshot after setup holds, apart from ``paths`` (relative, with everything
        under them), is still in the notebook ``now`` unchanged; new entries do not matter."""
        return kept(self.before, now, *paths)

    def teardown(self, device: Device) -> None:
        """Stop, go home, empty the notebook."""
        super().teardown(device)
        clear_directory(device, MARKOR_DATA)


class _CreateNoteTask(_MarkorTask):
    """``CreateFile``: a note ``file_name`` whose text fuzzily matches ``text``."""

    clears_storage = True

    @property
    def expected_name(self) -> str:
        """The name the note must have."""
        return str(self.params["file_name"])

    @property
    def expected_text(self) -> str:
        """What the note must hold (compared stripped and fuzzily)."""
        return str(self.params["text"])

    def is_successful(self, device: Device) -> float:
        """1.0 when the note exists with the text (``cat``, stripped, fuzzy) and nothing else changed."""
        name, now = self.expected_name, self.notebook(device)
        if name not in now or not self.untouched(now, name):
            return 0.0
        text = file_text(device, posixpath.join(MARKOR_DATA, name))
        return 1.0 if text is not None and fuzzy_match(text, self.expected_text) else 0.0


@register_task
class MarkorCreateNote(_CreateNoteTask):
    """Create a note with a given name and text."""

    name = "MarkorCreateNote"
    complexity = 1.6
    template = "Create a new note in Markor named {file_name} with the following text: {text}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``_generate_random_note``: a name with ".md" or ".txt" and a random sentence."""
        return {"file_name": _random_note(rng), "text": random_sentence(rng)}

    def oracle(self) -> Sequence[OracleStep]:
        """A new note, the text typed, the editor left."""
        return [open_app(APP_NAME), *new_note(self.params["file_name"]), type_into(EDITOR, self.params["text"]),
                *leave_editor(), complete()]


@register_task
class MarkorCreateNoteFromClipboard(_CreateNoteTask):
    """Create a note and paste the clipboard into it."""

    name = "MarkorCreateNoteFromClipboard"
    app_packages = (PACKAGE, CLIPPER)
    complexity = 1.4
    template = "Create a note in Markor named {file_name}. Perform a paste operation in the note and save the note."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A note name and 10 random letters and digits for the clipboard."""
        return {"file_name": _random_note(rng), "file_content": random_string(rng, 10)}

    @property
    def expected_text(self) -> str:
        """The clipboard's content."""
        return str(self.params["file_content"])

    def write(self, device: Device) -> None:
        """The clipboard holds the content (through Clipper, as AndroidWorld sets it)."""
        state.clipboard_set(device, self.params["file_content"])

    def oracle(self) -> Sequence[OracleStep]:
        """A new note, a long press in the editor, Paste, the editor left."""
        return [open_app(APP_NAME), *new_note(self.params["file_name"]), long_press(EDITOR), tap(PASTE),
                *leave_editor(), complete()]


@register_task
class MarkorCreateFolder(_MarkorTask):
    """Create a folder in the notebook, beside noise notes."""

    name = "MarkorCreateFolder"
    template = "Create a new folder in Markor named {folder_name}."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``folder_`` and a date and time of 2023 (AndroidWorld: the host's clock), and noise notes."""
        when = dt.datetime(2023, 1, 1) + dt.timedelta(seconds=int(rng.integers(365 * 24 * 3600)))
        return {"folder_name": "folder_" + when.strftime("%Y%m%d_%H%M%S"),
                "noise_files": _noise(rng, "file", exclude=())}

    def write(self, device: Device) -> None:
        """The noise notes."""
        write_files(device, MARKOR_DATA, self.params["noise_files"])

    def is_successful(self, device: Device) -> float:
        """1.0 when the folder exists and the notes are untouched."""
        name = self.params["folder_name"]
        now = self.notebook(device)
        return 1.0 if now.get(name) == FOLDER_ENTRY and self.untouched(now, name) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """"+", the name, FOLDER."""
        return [open_app(APP_NAME), tap(NEW_NOTE), type_into(NAME_FIELD, self.params["folder_name"]), tap(FOLDER),
                complete()]


_EDIT_TEMPLATES = {
    "header": "Edit {file_name} in Markor. Add to the top of the note {header}",
    "footer": "Edit {file_name} in Markor. Add to the bottom of the note {footer}",
    "replace": "Edit {file_name} in Markor. Replace the text with {replace_text}",
}


@register_task
class MarkorEditNote(_MarkorTask):
    """Add a header or a footer to a note, or replace its text."""

    name = "MarkorEditNote"
    complexity = 1.2
    template = _EDIT_TEMPLATES["header"]

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``note_`` and 5 random characters with an extension, the edit, its text, the note's sentence, and
        noise notes made from the note titles (AndroidWorld writes them first)."""
        file_name = "note_" + random_string(rng, 5) + pick(rng, EXTENSIONS)
        edit_type = pick(rng, tuple(_EDIT_TEMPLATES))
        params: dict[str, Any] = {"file_name": file_name, "edit_type": edit_type}
        if edit_type == "replace":
            params["replace_text"] = "\n".join(random_sentence(rng) for _ in range(3))
        else:
            params[edit_type] = random_sentence(rng)
        params["original_content"] = random_sentence(rng)
        params["noise_files"] = _noise(rng, file_name, exclude=(file_name,))
        return params

    @property
    def goal(self) -> str:
        """The template of the edit type, filled in."""
        return _EDIT_TEMPLATES[self.params["edit_type"]].format(**self.params)

    def write(self, device: Device) -> None:
        """The noise, then the note (one line: a note named as a noise file is written over it either way)."""
        write_files(device, MARKOR_DATA, {**self.params["noise_files"],
                                          self.params["file_name"]: self.params["original_content"]})

    def expected(self) -> str:
        """The text the note must hold (compared stripped and fuzzily)."""
        kind, original = self.params["edit_type"], self.params["original_content"]
        if kind == "header":
            return self.params["header"] + "\n" + original
        if kind == "footer":
            return original + "\n" + self.params["footer"]
        return self.params["replace_text"]

    def is_successful(self, device: Device) -> float:
        """1.0 when the note's text matches and the noise is untouched."""
        name = self.params["file_name"]
        text = file_text(device, posixpath.join(MARKOR_DATA, name))
        ok = text is not None and fuzzy_match(text, self.expected()) and self.untouched(self.notebook(device), name)
        return 1.0 if ok else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the note; type at the start (a long press left of the text), at the end (a tap), or over all of
        it; leave the editor."""
        kind = self.params["edit_type"]
        if kind == "header":
            edit = [_caret_at_start, _type_at_caret(self.params["header"])]
        elif kind == "footer":
            edit = [type_into(EDITOR, self.params["footer"])]
        else:
            edit = [replace_text(EDITOR, self.params["replace_text"])]
        return [open_app(APP_NAME), *open_note(self.params["file_name"]), *edit, *leave_editor(), complete()]


@register_task
class MarkorDeleteNote(_MarkorTask):
    """Delete one note among noise notes."""

    name = "MarkorDeleteNote"
    template = "Delete the note in Markor named {file_name}."
    clears_storage = True

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A random file name (no extension, as AndroidWorld's), its content and noise notes."""
        file_name = random_file_name(rng)
        return {"file_name": file_name, "noise_candidates": list(NOTE_TITLES),
                "file_content": random_string(rng, CONTENT_LENGTH),
                "noise_files": _noise(rng, file_name, exclude=(file_name,))}

    def write(self, device: Device) -> None:
        """The note, then the noise (``DeleteFile.initialize_task``; one line: a noise file named as the note is
        written over it either way)."""
        write_files(device, MARKOR_DATA, {self.params["file_name"]: self.params["file_content"],
                                          **self.params["noise_files"]})

    def is_successful(self, device: Device) -> float:
        """1.0 when the note is gone and every other note is untouched."""
        name, now = self.params["file_name"], self.notebook(device)
        return 1.0 if name not in now and self.untouched(now, name) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Select the note, Delete, OK."""
        return [open_app(APP_NAME), *select_note(self.params["file_name"]), *delete_selected(), complete()]


@register_task
class MarkorDeleteNewestNote(_MarkorTask):
    """Delete the most recently changed of 2–6 notes."""

    name = "MarkorDeleteNewestNote"
    template = "Delete the newest note in Markor."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """2–6 notes (name, sentence) and their change times: AndroidWorld moves the clock by −500…500 minutes
        after each note; here the times are drawn the same way and kept distinct."""
        notes: dict[str, str] = {}
        wanted = int(rng.integers(2, 7))
        while len(notes) < wanted:
            name = _random_note(rng)
            if name not in notes:
                notes[name] = random_sentence(rng)
        minutes, times = 0, []
        for _ in notes:
            while minutes in times:
                minutes += int(rng.integers(-500, 501))
            times.append(minutes)
        return {"notes": notes, "minutes": times}

    @property
    def newest(self) -> str:
        """The note with the latest time."""
        names = list(self.params["notes"])
        return names[int(np.argmax(self.params["minutes"]))]

    def write(self, device: Device) -> None:
        """Each note, then the notes' times (``touch -d``, one line), relative to the task's device time."""
        write_files(device, MARKOR_DATA, self.params["notes"])
        self.run(device, " && ".join(
            f"touch -d {(self.device_time + dt.timedelta(minutes=minutes)).strftime('%Y-%m-%dT%H:%M:%S')} "
            f"{shlex.quote(posixpath.join(MARKOR_DATA, name))}"
            for name, minutes in zip(self.params["notes"], self.params["minutes"])))

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the newest note is gone and the others are untouched."""
        newest, now = self.newest, self.notebook(device)
        return 1.0 if newest not in now and self.untouched(now, newest) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Select the newest note (the latest time in the list, read while scrolling: its name is not known before),
        Delete, OK."""
        return [open_app(APP_NAME), *select_note(self.newest, by_name=False), *delete_selected(), complete()]


@register_task
class MarkorDeleteAllNotes(_MarkorTask):
    """Delete every note."""

    name = "MarkorDeleteAllNotes"
    complexity = 1.4
    template = "Delete all my notes in Markor."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``generate_noise_files`` of a random 5-character name with at most 2–6 notes."""
        base, most = random_string(rng, 5), int(rng.integers(2, 7))
        return {"notes": _noise(rng, base, exclude=(), n=most)}

    def write(self, device: Device) -> None:
        """The notes."""
        write_files(device, MARKOR_DATA, self.params["notes"])

    def is_successful(self, device: Device) -> float:
        """1.0 when the notebook folder is still there and holds no file."""
        return 1.0 if is_directory(device, MARKOR_DATA) and not list_files(device, MARKOR_DATA) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Long-press one note, tap the others (in the list's order, scrolled to when below the fold), Delete,
        OK."""
        first, *others = sorted(self.params["notes"], key=str.lower)
        taps = [step for name in others for step in (*scroll_to(_row(name), FILE_LIST), tap(_row(name)))]
        return [open_app(APP_NAME), long_press(_row(first)), *taps, *delete_selected(), complete()]


@register_task
class MarkorMoveNote(_MarkorTask):
    """Move a note from one folder of the notebook to another."""

    name = "MarkorMoveNote"
    complexity = 1.4
    template = "In Markor, move the note {file_name} from {source_folder} to {destination_folder}."
    clears_storage = True

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two folders of the ten, a note, its content and noise notes for the source."""
        source = pick(rng, SUBFOLDERS)
        destination = pick(rng, tuple(folder for folder in SUBFOLDERS if folder != source))
        file_name = _random_note(rng)
        return {"file_name": file_name, "source_folder": source, "destination_folder": destination,
                "noise_candidates": list(NOTE_TITLES), "file_content": random_string(rng, CONTENT_LENGTH),
                "noise_files": _noise(rng, file_name, exclude=(file_name,))}

    def write(self, device: Device) -> None:
        """The noise, the note, the destination folder (``MoveFile.initialize_task``)."""
        source = posixpath.join(MARKOR_DATA, self.params["source_folder"])
        files = {**self.params["noise_files"], self.params["file_name"]: self.params["file_content"]}
        write_files(device, source, files)
        self.run(device, f"mkdir -p {shlex.quote(posixpath.join(MARKOR_DATA, self.params['destination_folder']))}")

    def is_successful(self, device: Device) -> float:
        """1.0 when the note left the source for the destination unchanged, and nothing else changed."""
        name = self.params["file_name"]
        source = posixpath.join(self.params["source_folder"], name)
        target = posixpath.join(self.params["destination_folder"], name)
        now = self.notebook(device)
        moved = target in now and now[target] == self.before.get(source)
        return 1.0 if moved and source not in now and self.untouched(now, source, target) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the source, select the note, overflow, Move, up to the notebook, the destination, SELECT."""
        return [open_app(APP_NAME), tap(_row(self.params["source_folder"])), *select_note(self.params["file_name"]),
                tap(MORE_OPTIONS), tap(_menu_item("Move")), tap(_row("..")),
                tap(_row(self.params["destination_folder"])), tap(Selector(text="SELECT THIS FOLDER")), complete()]


@register_task
class MarkorMergeNotes(_CreateNoteTask):
    """Merge three notes, in order and with a blank line between them, into a new note."""

    name = "MarkorMergeNotes"
    complexity = 7.8
    template = ("Merge the contents of Markor notes {file1_name}, {file2_name} and {file3_name} (in the same "
                "order) into a new Markor note named {new_file_name} and save it. Add a new line between the "
                "content of each note.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Three distinct note names, a new name of 8 random characters, three contents of 20."""
        names: list[str] = []
        while len(names) < 3:
            name = _random_note(rng)
            if name not in names:
                names.append(name)
        params = {f"file{i}_name": name for i, name in enumerate(names, start=1)}
        params["new_file_name"] = random_string(rng, 8)
        params.update({f"file{i}_content": random_string(rng, CONTENT_LENGTH) for i in (1, 2, 3)})
        return params

    @property
    def expected_name(self) -> str:
        """The new note's name."""
        return str(self.params["new_file_name"])

    @property
    def expected_text(self) -> str:
        """The contents joined by blank lines, with the newline each note had."""
        return "\n\n".join(self.params[f"file{i}_content"] for i in (1, 2, 3)) + "\n"

    def write(self, device: Device) -> None:
        """The three notes."""
        write_files(device, MARKOR_DATA, {self.params[f"file{i}_name"]: self.params[f"file{i}_content"]
                                          for i in (1, 2, 3)})

    def is_successful(self, device: Device) -> float:
        """``CreateFile``'s check, the notes untouched, and five lines: note, blank, note, blank, note."""
        if not super().is_successful(device):
            return 0.0
        lines = (file_text(device, posixpath.join(MARKOR_DATA, self.expected_name)) or "").split("\n")
        return 1.0 if len(lines) == 5 and not lines[1] and not lines[3] else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Create the new note, then from the last note to the first: open it, select all, copy, back; open the
        new note, the caret at its start, paste, a newline after the pasted text (but the last note's), back."""
        new = self.params["new_file_name"]
        steps = [open_app(APP_NAME), *new_note(new), *leave_editor()]
        for i in (3, 2, 1):
            steps += [*open_note(self.params[f"file{i}_name"]), long_press(EDITOR), tap(SELECT_ALL), tap(COPY),
                      *leave_editor(), *open_note(new), _caret_at_start, tap(PASTE)]
            if i < 3:
                steps.append(act(Action(ActionType.KEYBOARD_ENTER)))
            steps += leave_editor()
        return [*steps, complete()]


def _two_notes(rng: np.random.Generator) -> tuple[str, str]:
    """Two different note names: the note's and the one to rename it to."""
    original, new = _random_note(rng), _random_note(rng)
    while new == original:
        new = _random_note(rng)
    return original, new


class _RenameTask(_MarkorTask):
    """A note ``original_name`` among noise notes to edit and rename ``new_name``."""

    complexity = 1.2

    def write(self, device: Device) -> None:
        """The note, then the noise (one line: a noise file named as the note is written over it either way)."""
        write_files(device, MARKOR_DATA, {self.params["original_name"]: self.params["original_content"],
                                          **self.params["noise_files"]})

    def content_ok(self, device: Device) -> bool:
        """Whether the renamed note holds what the goal asks."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """1.0 when the old name is gone, the new one holds the content, and the noise is untouched."""
        original, new = self.params["original_name"], self.params["new_name"]
        now = self.notebook(device)
        ok = (original not in now and new in now and self.content_ok(device)
              and self.untouched(now, original, new))
        return 1.0 if ok else 0.0


@register_task
class MarkorChangeNoteContent(_RenameTask):
    """Replace a note's text and rename it."""

    name = "MarkorChangeNoteContent"
    template = 'Update the content of {original_name} to "{updated_content}" in Markor and change its name to ' \
               "{new_name}."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two note names, the new content, the note's content (20 random characters each) and noise."""
        original, new = _two_notes(rng)
        return {"original_name": original, "new_name": new, "updated_content": random_string(rng, CONTENT_LENGTH),
                "original_content": random_string(rng, CONTENT_LENGTH),
                "noise_files": _noise(rng, original, exclude=(original, new))}

    def content_ok(self, device: Device) -> bool:
        """``check_file_content``: the stripped text fuzzily matches."""
        text = file_text(device, posixpath.join(MARKOR_DATA, self.params["new_name"]))
        return text is not None and fuzzy_match(text, self.params["updated_content"])

    def oracle(self) -> Sequence[OracleStep]:
        """Open the note, replace its text, leave, rename it."""
        return [open_app(APP_NAME), *open_note(self.params["original_name"]),
                replace_text(EDITOR, self.params["updated_content"]), *leave_editor(),
                *rename_note(self.params["original_name"], self.params["new_name"]), complete()]


@register_task
class MarkorAddNoteHeader(_RenameTask):
    """Put a line and a blank line above a note's text and rename it."""

    name = "MarkorAddNoteHeader"
    template = ("Update the Markor note {original_name} by adding the following text, along with a new blank line "
                'before the existing content: "{header}", and rename it to {new_name}.')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two note names, the note's sentence, a header of 20 random characters, and noise."""
        original, new = _two_notes(rng)
        return {"original_name": original, "original_content": random_sentence(rng), "new_name": new,
                "header": random_string(rng, CONTENT_LENGTH),
                "noise_files": _noise(rng, original, exclude=(original, new))}

    def content_ok(self, device: Device) -> bool:
        """Exactly the header, a blank line and the old text with its newline (``exact_match=True``)."""
        try:
            data = device.pull(posixpath.join(MARKOR_DATA, self.params["new_name"]))
        except RemoteFileNotFoundError:
            return False
        expected = f"{self.params['header']}\n\n{self.params['original_content']}\n"
        return data.decode("utf-8", errors="replace").replace("\r", "") == expected

    def oracle(self) -> Sequence[OracleStep]:
        """Open the note, put the caret at the start, type the header and a newline (ENTER adds the blank
        line), leave, rename."""
        return [open_app(APP_NAME), *open_note(self.params["original_name"]), _caret_at_start,
                _type_at_caret(self.params["header"] + "\n"), *leave_editor(),
                *rename_note(self.params["original_name"], self.params["new_name"]), complete()]


@register_task
class MarkorCreateNoteAndSms(_MarkorTask):
    """Create a note, then share its text by SMS (AndroidWorld's ``MarkorCreateNoteAndSms``): the mean of the
    note's check and Simple SMS Messenger's send check."""

    name = "MarkorCreateNoteAndSms"
    app_packages = (PACKAGE, SMS_PACKAGE)
    complexity = 1.8
    template = ("Create a new note in Markor named {file_name} with the following text: {text}. Share the entire "
                "content of the note with the phone number {number} via SMS using Simple SMS Messenger")

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.note = MarkorCreateNote({"file_name": params["file_name"], "text": params["text"]})
        self.sms = SimpleSmsSend({"number": params["number"], "message": params["text"]})

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``MarkorCreateNote``'s name and text and a phone number."""
        return {**MarkorCreateNote.generate_params(rng), "number": gen.phone_number(rng)}

    def clear_state(self, device: Device) -> None:
        """The note task's and the SMS task's clearing."""
        self.note.clear_state(device)
        self.sms.clear_state(device)

    def seed_state(self, device: Device) -> None:
        """The note task's snapshot."""
        self.note.seed_state(device)

    def is_successful(self, device: Device) -> float:
        """Half for the note, half for the SMS (sent to the number, the SMS app in front)."""
        return (self.note.is_successful(device) + self.sms.is_successful(device)) / 2

    def oracle(self) -> Sequence[OracleStep]:
        """The note as ``MarkorCreateNote``; then Share ▸ Plain Text, SMS Messenger, the number, send."""
        sms = f"{SMS_PACKAGE}:id"
        return [open_app(APP_NAME), *new_note(self.params["file_name"]), type_into(EDITOR, self.params["text"]),
                tap(MORE_OPTIONS), tap(_menu_item("Share")), tap(_menu_item("Plain Text")),
                tap(Selector(text="SMS Messenger", resource_id="android:id/text1")),
                type_into(Selector(resource_id=f"{sms}/new_conversation_address"), self.params["number"]),
                tap(Selector(resource_id=f"{sms}/new_conversation_confirm")),
                tap(Selector(resource_id=f"{sms}/thread_send_message")), complete()]
