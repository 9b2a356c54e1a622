"""Long-horizon cross-app tasks about notes, files and media (issue #28): what one app holds is needed in another.

Each task seeds a source — a Joplin note or to-do, a Markor note, a text, a contact, the clipboard, pictures in
DCIM, files in Download or Documents — among distractors drawn from the same seed, and names what to find, not
its value ("Copy the text of my Joplin note 'Gate code' into Markor, then text it to Maya"). The agent carries the
value to one or more sinks: a Markor note written, moved or deleted, a Joplin note created or ticked, a recording
named in Audio Recorder, a drawing saved from Simple Draw Pro, a photo taken and filed with the Files app, a
picture copied with Simple Gallery Pro, a contact saved, a text sent. Every sink is a sub-goal checked on the
device (``SubgoalTask``: the score is the mean, latched), so a half-done task scores between 0 and 1.

The oracles reuse the single-app tasks' oracles and step builders (``part_steps``, ``cross_app.read_note``,
``joplin.reveal_rows``, ``files.select_file``, ``audio_recorder.record_steps``, ...) and act through the UI only;
between apps they go back to the home screen, as ``compose`` does.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
from PIL import Image

from android_gym.actions import Action
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.envs import (
    audio_recorder,
    camera,
    clipboard,
    contacts,
    cross_app,
    draw,
    files,
    gallery,
    joplin,
    markor,
    sms,
)
from android_gym.envs import long_horizon as lh
from android_gym.sim.apps import draw as draw_app
from android_gym.sim.apps import files as files_app
from android_gym.sim.apps import gallery as gallery_app
from android_gym.sim.apps.audio_recorder import FORMAT_M4A
from android_gym.sim.apps.joplin import ADD_BODY, ADD_NEW, ADD_TITLE, NEW_NOTE
from android_gym.sim.system.media import is_mp4
from android_gym.tasks import Subgoal, SubgoalTask, get_task, register_task
from android_gym.tasks import files as device_files
from android_gym.tasks import params as gen
from android_gym.tasks.images import encode
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    back_to_home,
    complete,
    expect,
    long_press,
    open_app,
    replace_text,
    scroll_to,
    tap,
    type_into,
)
from android_gym.tasks.sqlite_rows import ReplaceableTable, Row, TablesTask
from android_gym.tasks.user_data import pick, random_file_name, random_sentence, random_string
from android_gym.tasks.validators import (
    clear_contacts,
    digits,
    fuzzy_match,
)
from android_gym.ui import UIElement

T = TypeVar("T")
MARKOR_DATA = device_files.MARKOR_DATA
DOCUMENTS = f"{device_files.EXTERNAL_STORAGE}/Documents"
CHECKED_ITEM, OPEN_ITEM = "- [x] {}", "- [ ] {}"
#: Joplin notes that keep one short value (the title says what it is, the body holds it).
INFO_TITLES = ("Gate code", "Wi-Fi password", "Locker combination", "Booking reference", "Alarm code",
               "Bike lock code", "Library card number", "Parking permit")
#: Unfinished chores a recording or a to-do is about (none is a Joplin noise title).
CHORES = ("Call the landlord", "Renew the passport", "Book the vet", "Plan the garden", "Sort the tax papers",
          "Fix the shed door", "Order new glasses", "Pay the gym fee")
#: Meetings whose attendees a note lists (none is a Joplin noise title).
MEETINGS = ("Supplier call", "Budget kickoff", "Venue walkthrough", "Charity board meeting", "Launch retro")
#: Folders of Documents whose names do not say what they hold: one holds the receipts, the others documents.
DOCUMENT_FOLDERS = ("Paperwork", "Household", "Scans", "Misc", "Archive", "Old stuff")
#: What the other Documents folders hold (their files' name stems).
DOCUMENT_STEMS = ("scan", "draft", "copy", "notes", "page", "summary")
#: Things a friend asks to have sketched.
SKETCHES = ("the route to the lake", "the new kitchen layout", "the seating plan", "the garden beds", "a treasure map")
#: Insurance claim notes: title → the kind of claim.
CLAIMS = {"Insurance claim": "Water damage", "Car claim": "Scratched bumper", "Phone claim": "Cracked screen"}
#: What a Joplin to-do asks to have tidied.
CLEANUP_TITLES = ("Clean up downloads", "Tidy the Download folder", "Free up space")
ARCHIVE_TITLES = ("Archive old notes", "File away finished notes", "Tidy up Markor")
#: Picture colours, so every seeded picture has its own bytes.
_COLOURS = ((200, 40, 40), (40, 160, 60), (40, 80, 200), (220, 180, 40), (140, 60, 170), (30, 170, 170),
            (240, 120, 30), (90, 90, 90))


# ----- parameters -----------------------------------------------------------------------------------------------
def note_names(rng: np.random.Generator, count: int, extension: str = ".md") -> list[str]:
    """``count`` distinct Markor note names (a random ``<adjective>_<noun>`` and ``extension``)."""
    names: list[str] = []
    while len(names) < count:
        name = random_file_name(rng) + extension
        if name not in names:
            names.append(name)
    return names


def joplin_noise(rng: np.random.Generator, count: int, folder: str) -> list[Row]:
    """``count`` of AndroidWorld's noise notes (some in ``folder``, two of its canned notes at least); none an
    unfinished to-do, so that "the unfinished to-do" of a notebook is always the task's own."""
    rows = [joplin.random_note_row(rng, [{"folder": folder}]) for _ in range(count)]
    rows += [joplin.note_row(*joplin.NOISE_NOTES[folder][int(i)], folder, note_id=joplin.new_id(rng.bytes(16).hex()))
             for i in rng.choice(len(joplin.NOISE_NOTES[folder]), size=2, replace=False)]
    return [{**row, "todo_completed": int(bool(row["is_todo"]))} for row in rows]


def picture(index: int, name: str) -> bytes:
    """A small picture of one colour (the ``index``-th), encoded as ``name``'s extension says (``encode``), the same
    bytes for every name with that extension."""
    _, dot, extension = name.lower().rpartition(".")
    return _picture(index % len(_COLOURS), dot + extension if dot else "")


@functools.lru_cache(maxsize=4 * len(_COLOURS))
def _picture(colour: int, extension: str) -> bytes:
    """``picture`` of the colour ``_COLOURS[colour]`` for a name ending in ``extension``, encoded once per process (a
    reset of a task on pictures pushes them and its check compares with them: a dozen encodings a reset otherwise)."""
    return encode(Image.new("RGB", (64, 48), _COLOURS[colour]), f"picture{extension}")


def checklist(items: Sequence[str], done: Sequence[str]) -> str:
    """A Markdown checklist of ``items``, those in ``done`` ticked."""
    return "\n".join((CHECKED_ITEM if item in done else OPEN_ITEM).format(item) for item in items)


def bullets(lines: Sequence[str]) -> str:
    """Markdown bullets."""
    return "\n".join(f"- {line}" for line in lines)


# ----- sub-goal checks ------------------------------------------------------------------------------------------
def markor_moved(before: Callable[[], Mapping[str, str]], name: str, folder: str) -> lh.Check:
    """The note ``name`` left the notebook's top for ``folder``, unchanged (``before``: the notebook after setup)."""
    def check(device: Device) -> float:
        now = device_files.tree_snapshot(device, MARKOR_DATA)
        digest = before().get(name)
        return float(digest is not None and name not in now and now.get(posixpath.join(folder, name)) == digest)
    return check


def markor_deleted(before: Callable[[], Mapping[str, str]], *names: str) -> lh.Check:
    """The notes ``names`` are gone and every other note of the notebook after setup (``before``) is still there
    unchanged."""
    def check(device: Device) -> float:
        now, seeded = device_files.tree_snapshot(device, MARKOR_DATA), before()
        return float(all(name in seeded and name not in now for name in names)
                     and device_files.kept(seeded, now, *names))
    return check


def joplin_note(folder: str, title: str, body: str) -> lh.Check:
    """A Joplin note titled ``title`` (blank space aside) in the notebook ``folder`` whose body matches ``body``."""
    def check(device: Device) -> float:
        return float(any((row["title"] or "").strip() == title and row["folder"] == folder
                         and fuzzy_match(row["body"] or "", body) for row in joplin.NOTES.rows(device)))
    return check


def joplin_todo_done(note_id: str) -> lh.Check:
    """The Joplin to-do ``note_id`` is marked done."""
    return lambda device: float(any(row["id"] == note_id and row["todo_completed"]
                                    for row in joplin.NOTES.rows(device)))


def joplin_item_ticked(note_id: str, item: str) -> lh.Check:
    """The checklist of the Joplin note ``note_id`` has ``item`` ticked."""
    return lambda device: float(any(row["id"] == note_id and CHECKED_ITEM.format(item) in (row["body"] or "")
                                    for row in joplin.NOTES.rows(device)))


def recording_named(name: str) -> lh.Check:
    """Audio Recorder's records folder holds ``<name>.m4a``, a complete recording."""
    return lambda device: float(any(found == f"{name}.{FORMAT_M4A}" and is_mp4(data)
                                    for found, data in audio_recorder.recordings(device)))


def photos_in(device: Device, folder: str, exclude: Sequence[str] = ()) -> list[str]:
    """The names of the JPEG files directly in ``folder``, but those in ``exclude`` (the ones seeded there)."""
    return [found.name for found in device_files.list_files(device, folder, missing_ok=True)
            if found.name not in exclude and found.name.lower().endswith(".jpg")
            and camera.is_jpeg(device.pull(found.path))]


def photo_taken(*folders: str, exclude: Sequence[str] = ()) -> lh.Check:
    """A new photo (a JPEG not in ``exclude``) is in one of ``folders``."""
    return lambda device: float(any(photos_in(device, folder, exclude) for folder in folders))


def file_copied(path: str, data: bytes) -> lh.Check:
    """The file ``path`` holds exactly ``data``."""
    def check(device: Device) -> float:
        folder, name = posixpath.split(path)
        return float(device_files.tree_snapshot(device, folder).get(name) == md5(data))
    return check


def _mkdir(folders: Iterable[str]) -> list[str]:
    """One ``mkdir -p`` of each folder (once, in order), as a list of that one command; empty for no folder."""
    unique = list(dict.fromkeys(folders))
    return [f"mkdir -p {' '.join(map(shlex.quote, unique))}"] if unique else []


def md5(data: bytes) -> str:
    """The MD5 digest ``md5sum`` prints for ``data``."""
    return hashlib.md5(data).hexdigest()


def file_deleted(folder: str, name: str, keep: Mapping[str, bytes]) -> lh.Check:
    """``folder/name`` is gone, and every file of ``keep`` ({name: bytes}) is still in ``folder`` unchanged."""
    def check(device: Device) -> float:
        now = device_files.tree_snapshot(device, folder)
        return float(name not in now and all(now.get(other) == md5(data) for other, data in keep.items()))
    return check


def markor_entry(name: str, person: str, number: str) -> lh.Check:
    """Markor's note ``name`` has a line with ``person`` and, on the next line, ``number`` (its last ten digits,
    however written)."""
    def check(device: Device) -> float:
        lines = (device_files.file_text(device, posixpath.join(MARKOR_DATA, name)) or "").splitlines()
        return float(any(person.casefold() in line.casefold() and digits(number)[-10:] in digits(following)
                         for line, following in zip(lines, lines[1:])))
    return check


# ----- oracle steps ---------------------------------------------------------------------------------------------
def see_joplin_note(row: Mapping[str, Any], *shown: str) -> list[OracleStep]:
    """Open the Joplin note ``row`` (its notebook, the list scrolled to it), check each of ``shown`` is on screen,
    then home."""
    return [*joplin.reveal_rows([row]), *(expect(Selector(text=text)) for text in shown), *back_to_home()]


def tick_in_joplin(row: Mapping[str, Any], *labels: str) -> list[OracleStep]:
    """Open the notebook of ``row`` and tick the boxes beside ``labels`` (the to-do in the list when a label is
    its title; the note is opened for checklist items), then home."""
    steps = joplin.open_notebook(row["folder"])
    steps += joplin.scroll_to_note(row["title"])
    if labels != (row["title"],):
        steps.append(tap(Selector(text=row["title"])))
    return [*steps, *(joplin.box_beside(label) for label in labels), *back_to_home()]


def new_joplin_note(folder: str, title: str, body: str | None) -> list[OracleStep]:
    """Create a note ``title`` in the notebook ``folder``; its body typed (or pasted, when ``body`` is None)."""
    steps = [*joplin.open_notebook(folder), tap(Selector(content_desc=ADD_NEW)), tap(Selector(text=NEW_NOTE)),
             type_into(Selector(text=ADD_TITLE), title)]
    if body is None:
        steps += [long_press(Selector(text=ADD_BODY)), tap(clipboard.PASTE)]
    else:
        steps.append(type_into(Selector(text=ADD_BODY), body))
    return [*steps, *back_to_home()]


def read_markor_note(name: str, *lines: str) -> list[OracleStep]:
    """Open Markor's note ``name`` and check the editor holds each of ``lines``, then home."""
    return [*cross_app.read_note(name, lines), *back_to_home()]


def write_markor_note(name: str, text: str | None) -> list[OracleStep]:
    """Create the Markor note ``name`` holding ``text`` (or the clipboard, pasted, when ``text`` is None), then
    home."""
    if text is None:
        return [open_app(markor.APP_NAME), *markor.new_note(name), long_press(markor.EDITOR), tap(markor.PASTE),
                *markor.leave_editor(), *back_to_home()]
    return [*lh.write_note(name, text.split("\n")), *back_to_home()]


def share_markor_note(name: str, contact: str) -> list[OracleStep]:
    """Open Markor's note ``name``, Share ▸ Plain Text ▸ SMS Messenger, pick the contact, send, then home."""
    def menu_item(title: str) -> Selector:
        return Selector(text=title, resource_id=f"{markor.PACKAGE}:id/title")

    return [open_app(markor.APP_NAME), *markor.open_note(name), tap(markor.MORE_OPTIONS), tap(menu_item("Share")),
            tap(menu_item("Plain Text")), tap(Selector(text="SMS Messenger", resource_id="android:id/text1")),
            type_into(sms.ADDRESS_FIELD, contact),
            tap(Selector(text=contact, resource_id=f"{sms.PACKAGE}:id/{sms.CONTACT_NAME}")), tap(sms.SEND_BUTTON),
            *back_to_home()]


def reply_to(title: str, message: str) -> list[OracleStep]:
    """Send ``message`` in the conversation titled ``title``, then home."""
    return [*lh.open_conversation(title), type_into(sms.MESSAGE_FIELD, message), tap(sms.SEND_BUTTON),
            *back_to_home()]


def record_named(name: str) -> list[OracleStep]:
    """Record a clip in Audio Recorder and save it as ``name`` (``AudioRecorderRecordAudioWithFileName``'s
    steps), then home."""
    return [*lh.part_steps("AudioRecorderRecordAudioWithFileName", {"file_name": name, "text": ""}), *back_to_home()]


def take_photo() -> list[OracleStep]:
    """Take one photo (``CameraTakePhoto``'s steps), then home."""
    return [*lh.part_steps("CameraTakePhoto", {}), *back_to_home()]


_FILE_TITLE = "android:id/title"
_CAMERA_PHOTO = Selector(text_contains="IMG_", resource_id=_FILE_TITLE)


def select_camera_photo() -> list[OracleStep]:
    """Open Files, Pictures on the device's storage, list view, and select the camera's photo (a long press)."""
    list_view = Selector(content_desc=files_app.LIST_VIEW)
    return [open_app(files.APP_NAME), *files.open_in_storage("Pictures"), tap(list_view), long_press(_CAMERA_PHOTO)]


def rename_selected(new_name: str) -> list[OracleStep]:
    """In Files, with one file selected: overflow → Rename, then ``new_name``: typed over the selected name without
    its extension when it has none, else in place of the whole name; OK."""
    field = Selector(resource_id="android:id/text1", class_suffix="EditText")
    typing = replace_text(field, new_name) if "." in new_name else lh.type_at_caret(new_name)
    return [tap(Selector(content_desc=files_app.MORE_OPTIONS)), tap(Selector(text=files_app.RENAME)), typing,
            tap(Selector(text=files_app.OK, resource_id="android:id/button1"))]


def _tap_when(target: Selector) -> OracleStep:
    """Tap ``target`` if it is on screen; otherwise do nothing."""
    def step(elements: Sequence[UIElement]) -> Action | None:
        return tap(target)(elements) if target.present(elements) else None
    return step


def copy_picture_to_download(name: str) -> list[OracleStep]:
    """In Simple Gallery Pro: DCIM, the picture ``name`` full screen, overflow → Copy to → Other folder → Internal
    → Download → OK (``gallery.copy_to_download``; the "Select destination" dialog left behind is cancelled), then
    home."""
    return [*cross_app.view_picture(name), *gallery.copy_to_download(),
            _tap_when(Selector(text=gallery_app.CANCEL, resource_id="android:id/button2")), *back_to_home()]


def append_to_markor_note(name: str, *lines: str) -> list[OracleStep]:
    """Open Markor's note ``name``, type ``lines`` at its end (a tap puts the caret there), leave, then home."""
    return [open_app(markor.APP_NAME), *markor.open_note(name), *lh.type_lines(markor.EDITOR, lines),
            *markor.leave_editor(), *back_to_home()]


# ----- the base -------------------------------------------------------------------------------------------------
class NotesTask(TablesTask, SubgoalTask):
    """A long-horizon task over the notes, files and media apps. It starts with the shared storage emptied (as
    AndroidWorld's file tasks do), no contacts, and every app it uses cleared, then seeds what ``markor_notes``,
    ``joplin_rows``, ``storage_files``, ``contacts``, ``inbox`` and ``clipboard_text`` give; ``markor_before``
    keeps Markor's notebook as seeded, for checks that other notes were left alone."""

    app_packages: ClassVar[tuple[str, ...]] = ()
    setup_clears_teardown = True  # the contacts and the storage teardown empties, clear_state empties too
    #: Registered single-app tasks whose ``clear_state`` this task needs (Audio Recorder's first run, ...).
    cleared_like: ClassVar[tuple[str, ...]] = ()

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.markor_before: dict[str, str] = {}

    def markor_notes(self) -> dict[str, str]:
        """Markor notes, path in the notebook → text."""
        return {}

    def markor_folders(self) -> tuple[str, ...]:
        """Folders of the notebook (created empty)."""
        return ()

    def joplin_rows(self) -> list[Row]:
        """Joplin's notes (``joplin.note_row`` rows)."""
        return []

    def storage_files(self) -> dict[str, bytes]:
        """Files of the shared storage, absolute path → bytes."""
        return {}

    def contacts(self) -> dict[str, str]:
        """The contacts, name → number: ``params["people"]`` (``long_horizon.friends``), if any."""
        return {name: number for name, number in self.params.get("people", [])}

    def inbox(self) -> list[tuple[str, str]]:
        """Texts received, ``(number, body)``, oldest first."""
        return []

    def clipboard_text(self) -> str | None:
        """What the clipboard holds at the start (``None``: it is left alone)."""
        return None

    def tables(self) -> list[tuple[ReplaceableTable, list[Row]]]:
        """Joplin's notes (``joplin_rows``), if the task uses Joplin."""
        return [(joplin.NOTES, self.joplin_rows())] if joplin.PACKAGE in self.app_packages else []

    def clear_extras(self, device: Device) -> None:
        """No contacts, shared storage emptied, and every app the task uses but Joplin cleared (the storage, Markor's
        notebook and the texts in one shell line)."""
        clear_contacts(device, device_files.CLEAR_STORAGE, *lh.clearing(set(self.app_packages)))
        for name in self.cleared_like:
            get_task(name)({}).clear_state(device)  # their clearing takes no parameters

    def seed_extras(self, device: Device) -> None:
        """Markor's notes and folders, the files, contacts, received texts and the clipboard. The notes are written
        (``write_files``), the folders made in one shell line, the files' folders in another before the files are
        pushed."""
        device_files.write_files(device, MARKOR_DATA, self.markor_notes())
        for command in _mkdir(posixpath.join(MARKOR_DATA, folder) for folder in self.markor_folders()):
            self.run(device, command)
        files = self.storage_files()
        for command in _mkdir(map(posixpath.dirname, files)):
            self.run(device, command)
        for path, data in files.items():
            device.push(data, path)
        lh.seed_people(device, self.contacts().items(), self.inbox())
        clip = self.clipboard_text()
        if clip is not None:
            state.clipboard_set(device, clip)
        if markor.PACKAGE in self.app_packages:
            self.markor_before = device_files.tree_snapshot(device, MARKOR_DATA)

    def teardown(self, device: Device) -> None:
        """Stop the apps, go home, delete the contacts and empty the shared storage (one shell line)."""
        super().teardown(device)
        clear_contacts(device, device_files.CLEAR_STORAGE)

    def seeded_notebook(self) -> dict[str, str]:
        """Markor's notebook as seeded (``tree_snapshot``)."""
        return self.markor_before


class _WithJoplin(NotesTask):
    """Joplin holds ``params["rows"]``, the target ``params["note"]`` among them."""

    def joplin_rows(self) -> list[Row]:
        """``params["rows"]``."""
        return [dict(row) for row in self.params["rows"]]


class _WithPictures(NotesTask):
    """DCIM holds ``params["pictures"]`` (each of its own colour), some of them ``params["listed"]``."""

    def pictures(self) -> dict[str, bytes]:
        """Each picture's bytes, by name."""
        return {name: picture(index, name) for index, name in enumerate(self.params["pictures"])}

    def storage_files(self) -> dict[str, bytes]:
        """The pictures in DCIM."""
        return {posixpath.join(device_files.GALLERY_DATA, name): data for name, data in self.pictures().items()}


def _pictures(rng: np.random.Generator, count: tuple[int, int], listed: int) -> tuple[list[str], list[str]]:
    """Picture names (a number in ``count``'s range), and ``listed`` of them."""
    pictures = [f"{name}.jpg" for name in note_names(rng, int(rng.integers(*count)), "")]
    return pictures, [pictures[int(i)] for i in rng.choice(len(pictures), size=listed, replace=False)]


def _joplin_params(rng: np.random.Generator, title: str, body: str, folder: str | None = None, is_todo: bool = False,
                   noise: tuple[int, int] = (6, 14)) -> dict[str, Any]:
    """A Joplin note ``title`` with ``body`` in ``folder`` (drawn when None) among noise: ``note``, ``rows``,
    ``title``, ``folder``."""
    folder = folder or pick(rng, joplin.FOLDER_TITLES)
    note = joplin.note_row(title, body, folder, is_todo=is_todo, note_id=joplin.new_id(rng.bytes(16).hex()))
    rows = lh.among(rng, note, joplin_noise(rng, int(rng.integers(*noise)), folder))
    return {"note": note, "rows": rows, "title": title, "folder": folder}


def _listed_in_todo(rng: np.random.Generator, titles: Sequence[str], heading: str, listed: Sequence[str]
                    ) -> dict[str, Any]:
    """A Joplin to-do (a title of ``titles``) whose body lists ``listed`` under ``heading``, among noise."""
    return _joplin_params(rng, pick(rng, titles), f"{heading}\n{bullets(listed)}", is_todo=True)


# ----- the tasks --------------------------------------------------------------------------------------------------
@register_task
class JoplinNoteToMarkorAndText(_WithJoplin):
    """Joplin → Markor, SMS: copy a note's value into a new Markor note, then text it to two contacts."""

    name = "JoplinNoteToMarkorAndText"
    app_packages = (joplin.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 6.0
    template = ("Copy the text of my Joplin note '{title}' into a new Markor note named {file}, then text that "
                "same text to {friend} and to {friend2} in Simple SMS Messenger.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The note (its value: 8 random letters and digits) among noise, the Markor name, two friends lh.among
        3–5 contacts."""
        title = pick(rng, INFO_TITLES)
        params = {**_joplin_params(rng, title, f"{title}: {random_string(rng, 8)}"), "file": note_names(rng, 1)[0],
                  **lh.friends(rng, int(rng.integers(3, 6)))}
        params["friend2"], params["friend2_number"] = params["people"][1]
        return params

    def subgoals(self) -> Sequence[Subgoal]:
        """The Markor note holds the text; the text went to each friend."""
        body = self.params["note"]["body"]
        return [Subgoal("write the note's text in Markor", lh.note_holds(self.params["file"], body)),
                *(Subgoal(f"text it to {self.params[key]}", lh.texted(self.params[f"{key}_number"], body))
                  for key in ("friend", "friend2"))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the Joplin note, write the Markor note, text the friends."""
        body = self.params["note"]["body"]
        return [*see_joplin_note(self.params["note"], body), *write_markor_note(self.params["file"], body),
                *lh.text_contact(self.params["friend"], body), *back_to_home(),
                *lh.text_contact(self.params["friend2"], body), *back_to_home(), complete()]


@register_task
class JoplinChecklistToMarkorThenTick(_WithJoplin):
    """Joplin → Markor, Joplin, SMS: list a checklist's open items in a Markor note, tick them in Joplin and text
    them to a contact."""

    name = "JoplinChecklistToMarkorThenTick"
    app_packages = (joplin.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 5.5
    template = ("Copy the items I have not ticked yet in my Joplin checklist '{title}' into a new Markor note named "
                "{file}, one per line, tick those items in Joplin, then share that Markor note with {friend} by "
                "SMS.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A checklist with two items ticked and two open, among noise; the Markor name; the friend among 2–4."""
        title = pick(rng, list(joplin.CHECKLISTS))
        items = joplin.CHECKLISTS[title]
        done = [items[int(i)] for i in sorted(rng.choice(len(items), size=2, replace=False))]
        params = _joplin_params(rng, title, checklist(items, done))
        return {**params, "open": [item for item in items if item not in done], "done": done,
                "file": note_names(rng, 1)[0], **lh.friends(rng, int(rng.integers(2, 5)))}

    def subgoals(self) -> Sequence[Subgoal]:
        """The Markor note lists the open items and no ticked one; each open item ticked; the items texted."""
        note_id, items = self.params["note"]["id"], self.params["open"]
        return [Subgoal("list the open items in Markor", lh.note_holds(self.params["file"], *items,
                                                                    absent=self.params["done"])),
                *(Subgoal(f"tick {item!r}", joplin_item_ticked(note_id, item)) for item in items),
                Subgoal("text the items", lh.texted(self.params["friend_number"], *items))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the checklist, write the Markor note, tick the items, text them."""
        note, items = self.params["note"], self.params["open"]
        return [*see_joplin_note(note, *items), *write_markor_note(self.params["file"], "\n".join(items)),
                *tick_in_joplin(note, *items), *share_markor_note(self.params["file"], self.params["friend"]),
                complete()]


@register_task
class MarkorNumberToContactThenText(NotesTask):
    """Markor → Contacts → SMS: save a number kept in a Markor note as a contact, then text them."""

    name = "MarkorNumberToContactThenText"
    app_packages = (markor.PACKAGE, contacts.PACKAGE, sms.PACKAGE)
    complexity = 5.0
    template = ("Save {person}'s number from my Markor note {file} as a new contact named {person}, text them in "
                "Simple SMS Messenger: {message} Then add a last line 'Saved {person}' to the note.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """4–6 people listed in the note (the person among them), the note's name among 2–4 other notes, a
        message."""
        listed = lh.people(rng, int(rng.integers(4, 7)))
        person, number = listed[int(rng.integers(len(listed)))]
        names = note_names(rng, int(rng.integers(3, 6)))
        return {"person": person, "number": number, "listed": [list(p) for p in listed], "file": names[0],
                "others": {name: random_sentence(rng) for name in names[1:]}, "message": gen.message(rng)}

    def rows(self) -> list[str]:
        """The note's table rows, ``| Name | number |``."""
        return [f"| {name} | {number} |" for name, number in self.params["listed"]]

    def markor_notes(self) -> dict[str, str]:
        """The phone list (a Markdown table) and the other notes."""
        return {self.params["file"]: "\n".join(["| Name | Number |", "|---|---|", *self.rows()]),
                **self.params["others"]}

    def subgoals(self) -> Sequence[Subgoal]:
        """The contact saved; the text sent; the note with the new last line (its rows kept)."""
        person, number = self.params["person"], self.params["number"]
        return [Subgoal("save the contact", lh.contact_saved(person, number)),
                Subgoal("text them", lh.texted(number, self.params["message"])),
                Subgoal("note it", lh.note_holds(self.params["file"], *self.rows(), f"Saved {person}"))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the note, save the contact, text them by name, add the line at the note's end."""
        person, number = self.params["person"], self.params["number"]
        return [*read_markor_note(self.params["file"], f"| {person} | {number} |"),
                *lh.save_contact(person, number), *back_to_home(),
                *lh.text_contact(person, self.params["message"]), *back_to_home(),
                *append_to_markor_note(self.params["file"], f"Saved {person}"), complete()]


@register_task
class ClipboardToMarkorJoplinAndText(NotesTask):
    """Clipboard → Markor, Joplin, SMS: keep what is on the clipboard in both note apps and send it on."""

    name = "ClipboardToMarkorJoplinAndText"
    app_packages = (markor.PACKAGE, joplin.PACKAGE, sms.PACKAGE, clipboard.CLIPPER)
    complexity = 5.0
    template = ("Paste what is on the clipboard into a new Markor note named {file} and into a new Joplin note "
                "titled '{title}' in the '{folder}' notebook, then send it to {number} in Simple SMS Messenger.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """One of AndroidWorld's clipboard texts, the note names, a notebook holding noise, a number."""
        folder = pick(rng, joplin.FOLDER_TITLES)
        return {"text": pick(rng, clipboard.CLIPBOARD_CONTENTS), "file": note_names(rng, 1)[0],
                "title": pick(rng, ("Keep this", "From the clipboard", "Saved snippet", "Pasted")), "folder": folder,
                "rows": joplin_noise(rng, int(rng.integers(4, 10)), folder), "number": gen.phone_number(rng)}

    def joplin_rows(self) -> list[Row]:
        """Noise notes (some in the notebook: it must exist)."""
        return [dict(row) for row in self.params["rows"]]

    def clipboard_text(self) -> str | None:
        """The text."""
        return str(self.params["text"])

    def subgoals(self) -> Sequence[Subgoal]:
        """The Markor note, the Joplin note, the text."""
        text = self.params["text"]
        return [Subgoal("paste into Markor", lh.note_holds(self.params["file"], text)),
                Subgoal("paste into Joplin", joplin_note(self.params["folder"], self.params["title"], text)),
                Subgoal("send it", lh.texted(self.params["number"], text))]

    def oracle(self) -> Sequence[OracleStep]:
        """Paste into a new Markor note, into a new Joplin note, into a text."""
        send = lh.part_steps("SimpleSmsSendClipboardContent", {"number": self.params["number"], "message": ""})
        return [*write_markor_note(self.params["file"], None),
                *new_joplin_note(self.params["folder"], self.params["title"], None), *send, complete()]


@register_task
class RecordMemoForJoplinTodo(_WithJoplin):
    """Joplin → Audio Recorder → Joplin, SMS: record a memo named after a notebook's open to-do, tick it, and
    tell a contact what it was."""

    name = "RecordMemoForJoplinTodo"
    app_packages = (joplin.PACKAGE, audio_recorder.PACKAGE, sms.PACKAGE)
    cleared_like = ("AudioRecorderRecordAudio",)
    complexity = 4.0
    template = ("Record an audio memo in Audio Recorder and save it under the title of the one unfinished to-do in "
                "my Joplin '{folder}' notebook, mark that to-do as done, then text {friend} its title.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The unfinished to-do (a chore) in a notebook among noise (no other unfinished to-do); the friend lh.among
        2–4 contacts."""
        return {**_joplin_params(rng, pick(rng, CHORES), pick(rng, joplin.TARGET_BODIES), is_todo=True),
                **lh.friends(rng, int(rng.integers(2, 5)))}

    def subgoals(self) -> Sequence[Subgoal]:
        """The recording named; the to-do done; the title texted."""
        title = self.params["title"]
        return [Subgoal("record the memo", recording_named(title)),
                Subgoal("tick the to-do", joplin_todo_done(self.params["note"]["id"])),
                Subgoal(f"text {self.params['friend']} the title", lh.texted(self.params["friend_number"], title))]

    def oracle(self) -> Sequence[OracleStep]:
        """Find the to-do in its notebook, record, tick it, text its title."""
        note = self.params["note"]
        find = [*joplin.open_notebook(note["folder"]), *joplin.scroll_to_note(note["title"]), *back_to_home()]
        return [*find, *record_named(note["title"]), *tick_in_joplin(note, note["title"]),
                *lh.text_contact(self.params["friend"], note["title"]), *back_to_home(), complete()]


@register_task
class PhotoIntoReceiptsFolder(NotesTask):
    """Camera → Files: take a photo, then file it with the Files app in the Documents folder that holds the
    receipts (found by looking into the folders) and name it."""

    name = "PhotoIntoReceiptsFolder"
    app_packages = (camera.PACKAGE, files_app.PACKAGE)
    cleared_like = ("CameraTakePhoto", "FilesDeleteFile")
    complexity = 5.0
    template = ("Take a photo of my new receipt with the camera, use the Files app to move it into the folder in "
                "Documents where I keep my other receipts, and rename it there to {new_name}.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """3–5 folders of Documents; the receipts' folder (2–3 receipts), the others 1–3 documents each; the
        photo's new name."""
        names = [str(name) for name in rng.choice(DOCUMENT_FOLDERS, size=int(rng.integers(3, 6)), replace=False)]
        receipts = names[int(rng.integers(len(names)))]
        contents: dict[str, list[str]] = {}
        for folder in names:
            if folder == receipts:
                contents[folder] = [f"receipt_{random_file_name(rng)}.jpg" for _ in range(int(rng.integers(2, 4)))]
            else:
                contents[folder] = [f"{pick(rng, DOCUMENT_STEMS)}_{random_string(rng, 4)}.pdf"
                                    for _ in range(int(rng.integers(1, 4)))]
        return {"folder": receipts, "contents": contents, "new_name": f"receipt_{random_file_name(rng)}.jpg"}

    def storage_files(self) -> dict[str, bytes]:
        """The folders' files: small JPEGs for the receipts, text for the rest."""
        found: dict[str, bytes] = {}
        for folder, names in self.params["contents"].items():
            for index, name in enumerate(names):
                data = picture(index, name) if name.endswith(".jpg") else f"{folder} {name}\n".encode()
                found[posixpath.join(DOCUMENTS, folder, name)] = data
        return found

    def subgoals(self) -> Sequence[Subgoal]:
        """A photo taken; the photo among the receipts (not left in Pictures, the receipts kept); renamed."""
        target = posixpath.join(DOCUMENTS, self.params["folder"])
        receipts = {posixpath.basename(path): data for path, data in self.storage_files().items()
                    if posixpath.dirname(path) == target}

        def filed(device: Device) -> float:
            now = device_files.tree_snapshot(device, target)
            kept = all(now.get(name) == md5(data) for name, data in receipts.items())
            return float(kept and bool(photos_in(device, target, list(receipts)))
                         and not photos_in(device, device_files.PHOTOS_DATA))

        def renamed(device: Device) -> float:
            return float(photos_in(device, target, list(receipts)) == [self.params["new_name"]])

        return [Subgoal("take a photo", photo_taken(device_files.PHOTOS_DATA, target, exclude=list(receipts))),
                Subgoal("move it to the receipts", filed), Subgoal("rename it", renamed)]

    def oracle(self) -> Sequence[OracleStep]:
        """Take the photo; in Files select it in Pictures, "Move to…", Documents, the receipts' folder, Move; then
        open that folder, select the photo, Rename."""
        folder = Selector(text=self.params["folder"], resource_id=_FILE_TITLE)
        move = [tap(Selector(content_desc=files_app.MORE_OPTIONS)), tap(Selector(text=files_app.MOVE_TO)),
                *files.open_in_storage("Documents"), *scroll_to(folder, files.DIR_LIST), tap(folder),
                expect(Selector(text_contains="receipt_")),
                tap(Selector(text=files_app.MOVE, resource_id="android:id/button1"))]
        rename = [*files.open_in_storage("Documents"), *scroll_to(folder, files.DIR_LIST), tap(folder),
                  _tap_when(Selector(content_desc=files_app.LIST_VIEW)), long_press(_CAMERA_PHOTO),
                  *rename_selected(self.params["new_name"])]
        return [*take_photo(), *select_camera_photo(), *move, *rename, *back_to_home(), complete()]


@register_task
class DrawingNamedByText(NotesTask):
    """SMS → Simple Draw Pro → SMS: a friend asks for a sketch under a name; answer, draw and save it so, and tell
    them the name."""

    name = "DrawingNamedByText"
    app_packages = (sms.PACKAGE, draw_app.PACKAGE, files_app.PACKAGE)
    cleared_like = ("SimpleDrawProCreateDrawing",)
    complexity = 4.0
    template = ("{friend} texted me asking for a drawing. Reply to them \"On it!\", draw it in Simple Draw Pro and "
                "save it in the Pictures folder under the file name and type they asked for, then text them the "
                "name.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The friend among 3–4 contacts, what to sketch, the file name; texts from the others."""
        params = lh.friends(rng, int(rng.integers(3, 5)))
        stem, extension = f"{pick(rng, draw.WORDS)}_{random_file_name(rng)}", pick(rng, draw.EXTENSIONS)
        file_name = stem + extension
        request = f"Could you sketch {pick(rng, SKETCHES)} for me as a {extension[1:].upper()}? File name: {stem}"
        others = [(number, gen.message(rng)) for _, number in params["people"][1:]]
        texts = lh.among(rng, (params["friend_number"], request), others)
        return {**params, "file_name": file_name, "stem": stem, "request": request,
                "texts": [list(text) for text in texts]}

    def inbox(self) -> list[tuple[str, str]]:
        """The request among the others' texts."""
        return [(number, body) for number, body in self.params["texts"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """The answer; the drawing saved under the name (with a stroke on it); the name texted."""
        number, name = self.params["friend_number"], self.params["file_name"]
        drawing = get_task("SimpleDrawProCreateDrawing")({"file_name": name, "text": ""})
        return [Subgoal("answer \"On it!\"", lh.texted(number, "On it!")),
                Subgoal("save the drawing", drawing.is_successful),
                Subgoal("text the name", lh.texted(number, self.params["stem"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the request and answer it, draw and save, text the name."""
        friend, name = self.params["friend"], self.params["file_name"]
        answer = [*lh.read_text(friend, self.params["request"]), type_into(sms.MESSAGE_FIELD, "On it!"),
                  tap(sms.SEND_BUTTON), *back_to_home()]
        drawing = [*lh.part_steps("SimpleDrawProCreateDrawing", {"file_name": name, "text": ""}), *back_to_home()]
        return [*answer, *drawing, *reply_to(friend, self.params["stem"]), complete()]


@register_task
class CopyPicturesListedInMarkor(_WithPictures):
    """Markor → Simple Gallery Pro: copy the four pictures a note lists from DCIM into Download."""

    name = "CopyPicturesListedInMarkor"
    app_packages = (markor.PACKAGE, gallery_app.PACKAGE)
    complexity = 9.0
    template = ("Copy the pictures listed in my Markor note {file} from DCIM into Download, using Simple Gallery "
                "Pro.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """6–8 pictures in DCIM, four of them listed in the note; 1–3 other notes."""
        pictures, listed = _pictures(rng, (6, 9), 4)
        names = note_names(rng, int(rng.integers(2, 5)))
        return {"pictures": pictures, "listed": listed, "file": names[0],
                "others": {name: random_sentence(rng) for name in names[1:]}}

    def markor_notes(self) -> dict[str, str]:
        """The list and the other notes."""
        return {self.params["file"]: "To print:\n" + bullets(self.params["listed"]), **self.params["others"]}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each listed picture copied (byte for byte) into Download."""
        pictures = self.pictures()
        return [Subgoal(f"copy {name}", file_copied(posixpath.join(device_files.DOWNLOAD_DATA, name), pictures[name]))
                for name in self.params["listed"]]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the list, then copy each picture through the viewer's "Copy to"."""
        listed = self.params["listed"]
        steps = read_markor_note(self.params["file"], *listed)
        for name in listed:
            steps += copy_picture_to_download(name)
        return [*steps, complete()]


@register_task
class DeleteDownloadsListedInJoplin(_WithJoplin):
    """Joplin → Files → Joplin: delete the files a to-do lists from Download, then tick the to-do."""

    name = "DeleteDownloadsListedInJoplin"
    app_packages = (joplin.PACKAGE, files_app.PACKAGE)
    cleared_like = ("FilesDeleteFile",)
    complexity = 5.0
    template = ("Delete from the Download folder, with the Files app, the files my Joplin to-do '{title}' lists, "
                "then mark that to-do as done.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """7–9 files in Download (four listed in the to-do, with random contents), the to-do among noise."""
        names = [f"{name}{pick(rng, ('.pdf', '.txt', '.zip', '.apk'))}"
                 for name in note_names(rng, int(rng.integers(7, 10)), "")]
        listed = [names[int(i)] for i in rng.choice(len(names), size=4, replace=False)]
        params = _listed_in_todo(rng, CLEANUP_TITLES, "Delete these from Download:", listed)
        return {**params, "downloads": {name: random_string(rng, 20) for name in names}, "listed": listed}

    def storage_files(self) -> dict[str, bytes]:
        """The downloads."""
        return {posixpath.join(device_files.DOWNLOAD_DATA, name): f"{text}\n".encode()
                for name, text in self.params["downloads"].items()}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each listed file gone (the unlisted ones kept); the to-do done."""
        keep = {name: f"{text}\n".encode() for name, text in self.params["downloads"].items()
                if name not in self.params["listed"]}
        return [*(Subgoal(f"delete {name}", file_deleted(device_files.DOWNLOAD_DATA, name, keep))
                  for name in self.params["listed"]),
                Subgoal("tick the to-do", joplin_todo_done(self.params["note"]["id"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the to-do; Files opens on Downloads: list view, then delete each file; tick the to-do."""
        note = self.params["note"]
        steps = [*see_joplin_note(note, *self.params["listed"]), open_app(files.APP_NAME),
                 _tap_when(Selector(content_desc=files_app.LIST_VIEW))]
        for name in self.params["listed"]:
            target = Selector(text=name, resource_id=_FILE_TITLE)
            steps += [*scroll_to(target, files.DIR_LIST), long_press(target), tap(Selector(content_desc="Delete")),
                      tap(Selector(text=files_app.OK, resource_id="android:id/button1"))]
        return [*steps, *back_to_home(), *tick_in_joplin(note, note["title"]), complete()]


@register_task
class SaveMeetingAttendeesThenText(_WithJoplin):
    """Joplin → Contacts → SMS: save the two people a meeting note lists as contacts, then text each of them."""

    name = "SaveMeetingAttendeesThenText"
    app_packages = (joplin.PACKAGE, contacts.PACKAGE, sms.PACKAGE)
    complexity = 6.5
    template = ("Save {guest1} and {guest2}, the guests listed in my Joplin note '{title}', as contacts with the "
                "numbers the note gives, then text each of them in Simple SMS Messenger: {message}")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two guests (names and numbers) in a Meeting Notes note among noise; 1–3 contacts already saved."""
        found = lh.people(rng, int(rng.integers(3, 6)))
        guests, saved = found[:2], found[2:]
        body = "Guests:\n" + bullets([f"{name}: {number}" for name, number in guests]) + \
            f"\n\n{pick(rng, joplin.TARGET_BODIES)}"
        return {**_joplin_params(rng, pick(rng, MEETINGS), body, folder="Meeting Notes"),
                "guests": [list(g) for g in guests], "guest1": guests[0][0], "guest2": guests[1][0],
                "people": [list(p) for p in saved], "message": gen.message(rng)}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each guest saved; each guest texted."""
        guests = self.params["guests"]
        return [*(Subgoal(f"save {name}", lh.contact_saved(name, number)) for name, number in guests),
                *(Subgoal(f"text {name}", lh.texted(number, self.params["message"])) for name, number in guests)]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the note, save both guests, text both by name."""
        guests = self.params["guests"]
        steps = see_joplin_note(self.params["note"], *(f"{name}: {number}" for name, number in guests))
        for name, number in guests:
            steps += [*lh.save_contact(name, number), *back_to_home()]
        for name, _ in guests:
            steps += [*lh.text_contact(name, self.params["message"]), *back_to_home()]
        return [*steps, complete()]


@register_task
class MoveMarkorNotesToJoplin(NotesTask):
    """Markor → Joplin → Markor: carry two notes over to a Joplin notebook, then delete them from Markor."""

    name = "MoveMarkorNotesToJoplin"
    app_packages = (markor.PACKAGE, joplin.PACKAGE)
    complexity = 7.0
    template = ("Move my Markor notes {first} and {second} into the '{folder}' notebook in Joplin: a Joplin note "
                "for each, titled with the file name without '.md' and holding the same text. Then delete both "
                "from Markor.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Two notes (a sentence each) among 2–4 others; a notebook holding noise."""
        names = note_names(rng, int(rng.integers(4, 7)))
        folder = pick(rng, joplin.FOLDER_TITLES)
        return {"first": names[0], "second": names[1], "notes": {name: random_sentence(rng) for name in names},
                "folder": folder, "rows": joplin_noise(rng, int(rng.integers(4, 10)), folder)}

    def markor_notes(self) -> dict[str, str]:
        """The notes."""
        return dict(self.params["notes"])

    def joplin_rows(self) -> list[Row]:
        """Noise notes (some in the notebook: it must exist)."""
        return [dict(row) for row in self.params["rows"]]

    def subgoals(self) -> Sequence[Subgoal]:
        """A Joplin note for each; both deleted from Markor (the others kept)."""
        first, second, notes = self.params["first"], self.params["second"], self.params["notes"]
        return [*(Subgoal(f"carry {name} to Joplin", joplin_note(self.params["folder"], name.removesuffix(".md"),
                                                                 notes[name])) for name in (first, second)),
                Subgoal("delete both from Markor", markor_deleted(self.seeded_notebook, first, second))]

    def oracle(self) -> Sequence[OracleStep]:
        """For each note: read it, create it in Joplin; then select both in Markor and delete them."""
        steps: list[OracleStep] = []
        for name in (self.params["first"], self.params["second"]):
            text = self.params["notes"][name]
            steps += [*read_markor_note(name, text),
                      *new_joplin_note(self.params["folder"], name.removesuffix(".md"), text)]
        row = Selector(text=self.params["second"], resource_id=f"{markor.PACKAGE}:id/opoc_filesystem_item__title")
        return [*steps, open_app(markor.APP_NAME), *markor.select_note(self.params["first"]),
                *scroll_to(row, markor.FILE_LIST), tap(row), *markor.delete_selected(), *back_to_home(), complete()]


@register_task
class ContactNumbersToMarkorList(NotesTask):
    """Contacts → Markor → SMS: copy two contacts' numbers into a Markor list, then text both lines on."""

    name = "ContactNumbersToMarkorList"
    app_packages = (contacts.PACKAGE, markor.PACKAGE, sms.PACKAGE)
    complexity = 5.5
    template = ("Add {first} and {second} to the end of my Markor note {file}, each as a line with the name and "
                "a line with the phone number saved in my contacts. Then text {friend} {first}'s number.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """4–6 contacts (the friend, the two lh.people, others), the note's name and its 1–3 lines of other people."""
        params = lh.friends(rng, int(rng.integers(4, 7)))
        (first, first_number), (second, second_number) = params["people"][1:3]
        listed = lh.people(rng, int(rng.integers(1, 4)))
        return {**params, "first": first, "first_number": first_number, "second": second,
                "second_number": second_number, "file": pick(rng, ("emergency_numbers.md", "phone_list.md",
                                                                   "who_to_call.md")),
                "lines": [line for name, number in listed for line in (name, number)]}

    def markor_notes(self) -> dict[str, str]:
        """The list of other people's numbers."""
        return {self.params["file"]: "\n".join(self.params["lines"])}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each person's lines in the note; the first one's number texted."""
        return [*(Subgoal(f"add {self.params[key]}", markor_entry(self.params["file"], self.params[key],
                                                                   self.params[f"{key}_number"]))
                  for key in ("first", "second")),
                Subgoal("text the number", lh.texted_number(self.params["friend_number"], self.params["first_number"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """For each person: look the number up, add the two lines; then look the first number up again and text
        it."""
        steps: list[OracleStep] = []
        for key in ("first", "second"):
            person, number = self.params[key], self.params[f"{key}_number"]
            steps += [*lh.see_contact(person, number), *back_to_home(),
                      *append_to_markor_note(self.params["file"], person, number)]
        first, number = self.params["first"], self.params["first_number"]
        return [*steps, *lh.see_contact(first, number), *back_to_home(),
                *lh.text_contact(self.params["friend"], number), *back_to_home(), complete()]


@register_task
class DeletePicturesListedInJoplin(_WithPictures, _WithJoplin):
    """Joplin → Simple Gallery Pro → Joplin: delete the pictures a to-do lists from DCIM, then tick the to-do."""

    name = "DeletePicturesListedInJoplin"
    app_packages = (joplin.PACKAGE, gallery_app.PACKAGE)
    complexity = 6.0
    template = ("In Simple Gallery Pro, delete from DCIM the pictures my Joplin to-do '{title}' lists, then mark "
                "that to-do as done.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """5–7 pictures in DCIM, three listed in the to-do, which sits among noise."""
        pictures, listed = _pictures(rng, (5, 8), 3)
        params = _listed_in_todo(rng, ("Delete blurry photos", "Photo cleanup", "Remove bad shots"),
                                 "These came out blurry:", listed)
        return {**params, "pictures": pictures, "listed": listed}

    def subgoals(self) -> Sequence[Subgoal]:
        """Each listed picture gone from DCIM (the others kept); the to-do done."""
        keep = {name: data for name, data in self.pictures().items() if name not in self.params["listed"]}
        return [*(Subgoal(f"delete {name}", file_deleted(device_files.GALLERY_DATA, name, keep))
                  for name in self.params["listed"]),
                Subgoal("tick the to-do", joplin_todo_done(self.params["note"]["id"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the to-do; look at each picture full screen and delete it (Yes); tick the to-do."""
        steps = see_joplin_note(self.params["note"], *self.params["listed"])
        for name in self.params["listed"]:
            steps += [*cross_app.view_picture(name), tap(Selector(content_desc=gallery_app.DELETE)),
                      tap(Selector(text=gallery_app.YES, resource_id="android:id/button1")), *back_to_home()]
        return [*steps, *tick_in_joplin(self.params["note"], self.params["title"]), complete()]


@register_task
class PhotoRenamedToClaimNumber(_WithJoplin):
    """Camera → Joplin → Files: take a photo, then name it after the claim number a Joplin note holds."""

    name = "PhotoRenamedToClaimNumber"
    app_packages = (camera.PACKAGE, joplin.PACKAGE, files_app.PACKAGE)
    cleared_like = ("CameraTakePhoto", "FilesDeleteFile")
    complexity = 4.0
    template = ("Take a photo for my insurance claim, then in the Files app rename it to the claim number from my "
                "Joplin note '{title}', keeping the .jpg extension.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The claim note (a claim number) among noise and the other claims' notes (other numbers)."""
        titles = list(CLAIMS)
        title = pick(rng, titles)
        numbers = [f"CLM-{int(n)}" for n in rng.choice(np.arange(10_000, 100_000), size=len(titles), replace=False)]
        claims = {name: f"{CLAIMS[name]}. Claim number: {number}" for name, number in zip(titles, numbers)}
        params = _joplin_params(rng, title, claims[title], folder="Finance")
        others = [joplin.note_row(name, body, "Finance", note_id=joplin.new_id(f"claim:{name}:{body}"))
                  for name, body in claims.items() if name != title]
        return {**params, "rows": [*params["rows"], *others], "claim": numbers[titles.index(title)]}

    def subgoals(self) -> Sequence[Subgoal]:
        """A photo taken; Pictures holds it as ``<claim>.jpg`` and nothing else."""
        wanted = f"{self.params['claim']}.jpg"
        return [Subgoal("take a photo", photo_taken(device_files.PHOTOS_DATA)),
                Subgoal("rename it", lambda device: float(photos_in(device, device_files.PHOTOS_DATA) == [wanted]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Take the photo, read the claim number, rename the photo in Files."""
        claim = self.params["claim"]
        return [*take_photo(), *see_joplin_note(self.params["note"], self.params["note"]["body"]),
                *select_camera_photo(), *rename_selected(claim), *back_to_home(), complete()]


@register_task
class ArchiveMarkorNotesListedInJoplin(_WithJoplin):
    """Joplin → Markor → Joplin: move the notes a to-do lists into a Markor folder, then tick the to-do."""

    name = "ArchiveMarkorNotesListedInJoplin"
    app_packages = (joplin.PACKAGE, markor.PACKAGE)
    complexity = 5.0
    template = ("Move the Markor notes my Joplin to-do '{title}' lists into Markor's {archive} folder, then mark "
                "that to-do as done.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """6–8 Markor notes (three listed in the to-do), the folder, the to-do among noise."""
        names = note_names(rng, int(rng.integers(6, 9)))
        listed = [names[int(i)] for i in rng.choice(len(names), size=3, replace=False)]
        archive = pick(rng, ("Archive", "Old notes", "Done"))
        params = _listed_in_todo(rng, ARCHIVE_TITLES, "Finished with these:", listed)
        return {**params, "archive": archive, "listed": listed, "notes": {name: random_sentence(rng)
                                                                          for name in names}}

    def markor_notes(self) -> dict[str, str]:
        """The notes."""
        return dict(self.params["notes"])

    def markor_folders(self) -> tuple[str, ...]:
        """The archive folder."""
        return (self.params["archive"],)

    def subgoals(self) -> Sequence[Subgoal]:
        """Each listed note in the folder, unchanged; the to-do done."""
        return [*(Subgoal(f"move {name}", markor_moved(self.seeded_notebook, name, self.params["archive"]))
                  for name in self.params["listed"]),
                Subgoal("tick the to-do", joplin_todo_done(self.params["note"]["id"]))]

    def oracle(self) -> Sequence[OracleStep]:
        """Read the to-do; in Markor select each note, overflow → Move, the folder, SELECT THIS FOLDER; tick."""
        folder = Selector(text=self.params["archive"], resource_id=f"{markor.PACKAGE}:id/opoc_filesystem_item__title")
        steps = [*see_joplin_note(self.params["note"], *self.params["listed"]), open_app(markor.APP_NAME)]
        for name in self.params["listed"]:
            steps += [*markor.select_note(name), tap(markor.MORE_OPTIONS),
                      tap(Selector(text="Move", resource_id=f"{markor.PACKAGE}:id/title")), tap(folder),
                      tap(Selector(text="SELECT THIS FOLDER"))]
        return [*steps, *back_to_home(), *tick_in_joplin(self.params["note"], self.params["title"]), complete()]
