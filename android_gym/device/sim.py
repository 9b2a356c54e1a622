"""``SimDevice``: the Device protocol on the in-process simulated phone."""

from __future__ import annotations

import dataclasses
import functools
import os
import posixpath
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from android_gym.errors import DeviceError, RemoteFileNotFoundError
from android_gym.sim.phone import Phone
from android_gym.sim.shell.commands.base import strerror
from android_gym.sim.shell.commands.dumpsys import focused_window
from android_gym.sim.shell.commands.text import echo_text
from android_gym.sim.shell.environment import SHELL
from android_gym.sim.shell.interpreter import ShellOutput
from android_gym.sim.ui.hierarchy import Node, Said, parsed_value
from android_gym.ui import BoundingBox, UIElement, frozen

from .base import SETTINGS_NAMESPACES, ShellResult, encode_utf8
from .config import CONFIGURED_SETTINGS
from .malloc import give_back_freed, keep_frames_in_the_heap

_BOX = tuple(field.name for field in dataclasses.fields(BoundingBox))  # the names ``frozen`` sets
#: The dumps whose elements a device keeps, by the characters of their XML (their elements take about as much): ~16
#: screens. 64 dumps took 1-2 MB an env after 1,500 random-valid steps, and 16 cost SendSms 0.8 % more calls per step
#: and MarkorEditNote 0.2 % (an element is made once while an LRU keeps it: ``_element``).
_KNOWN_DUMP_CHARS = 2**18
#: How many tree reads' answers a device keeps (``tree_read``).
_KNOWN_TREE_READS = 16


class Reads:
    """What was read of a phone while it was noted (``SimDevice.noting``): each read, as a function that reads it
    again, with what it gave. ``complete`` is False once something was asked that is not noted (a shell command, a
    screenshot, input): then nothing tells whether the phone would give the same again."""

    def __init__(self) -> None:
        self.complete = True
        self._asked: list[tuple[Callable[[], Any], Any]] = []

    def note(self, read: Callable[[], Any], value: Any) -> None:
        """``read()`` gave ``value``."""
        self._asked.append((read, value))

    def unchanged(self) -> bool:
        """Whether every read noted gives what it gave then (the phone would tell the same): read again in order."""
        return self.complete and all(read() == value for read, value in self._asked)


class SimDevice:
    """A simulated phone owned by this device object (closing the device deletes the phone)."""

    def __init__(self, width: int = 1080, height: int = 2400) -> None:
        keep_frames_in_the_heap()  # each observation's copy of a 7.8 MB frame reuses heap memory: no fresh pages
        self.phone = Phone(width, height)
        self._closed = False
        #: How many calls that may change the phone were made (input, shell, push, an incoming text): while it stays
        #: the same nothing on the phone changed, so a task's score read since still holds (the env's short cut).
        self.changes = 0
        self._dumped: tuple[str, list[Node], str] | None = None  # the last dump, the nodes it writes, its package
        self._known: dict[str, tuple[UIElement, ...]] = {}  # the elements of the last few dumps read (oldest first)
        self._known_chars = 0  # the characters of the dumps in ``_known``
        self._reads: Reads | None = None  # what is read while ``noting``
        #: (command, tree) -> the tree's version when the command last ran, and what it gave (``tree_read``)
        self._tree_reads: dict[tuple[str, str], tuple[int, ShellResult]] = {}

    @contextmanager
    def noting(self) -> Iterator[Reads]:
        """Note what is read of the phone in the block (the env's short cut: a task's check that read only file
        versions, files, the focused activity or the screen size, all the same again, would score the
        same, and is not run again)."""
        self._reads = reads = Reads()
        try:
            yield reads
        finally:
            self._reads = None

    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` in pixels."""
        size = self.phone.screen_size
        if self._reads is not None:
            self._reads.note(lambda: self.screen_size, size)
        return size

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceError("the simulated phone was closed; create a new env or device")

    def _change(self) -> None:
        """Before a call that may change the phone: it must be open, and ``changes`` counts the call."""
        self._check_open()
        self.changes += 1
        self._unnoted()

    def _unnoted(self) -> None:
        """What is asked now is not noted: what was read while ``noting`` cannot be told unchanged."""
        if self._reads is not None:
            self._reads.complete = False

    def shell(self, cmd: str, timeout: float | None = None) -> ShellResult:
        """Run a command line in the phone's shell (``timeout`` is moot: nothing blocks)."""
        self._change()
        encode_utf8(cmd, "shell command")
        return _shell_result(self.phone.run(cmd))

    def tree_read(self, cmd: str, tree: str) -> ShellResult:
        """``shell(cmd)`` for a command that writes nothing and reads nothing but the directory tree at ``tree``
        (``reads.shell_read``): not counted in ``changes``, and noted by the tree's version
        (``FileSystem.tree_version``), which stays the same while the command would print the same: so a command
        asked again of a tree at the version it last ran at is answered with what it gave then, without running it
        (a task's check right after its set-up reads the folder the set-up read last)."""
        self._check_open()
        encode_utf8(cmd, "shell command")
        version = self.phone.fs.tree_version(tree)
        known = self._tree_reads.get((cmd, tree))
        if known is not None and known[0] == version:
            result = known[1]
        else:
            result = _shell_result(self.phone.run(cmd))
            if len(self._tree_reads) >= _KNOWN_TREE_READS:
                del self._tree_reads[next(iter(self._tree_reads))]
            self._tree_reads[cmd, tree] = version, result
        if self._reads is not None:
            self._reads.note(functools.partial(self.phone.fs.tree_version, tree), version)
        return result

    def push(self, data: bytes, path: str) -> None:
        """Write a file, creating its parent directories (adb's ``fixed_push_mkdir``)."""
        self.push_parts((data,), path)

    def push_parts(self, parts: Sequence[bytes | memoryview], path: str) -> None:
        """``push`` of ``parts`` joined, without joining them (``state.push_parts``' short cut: a big part, such as
        a song's silence, is copied once, into the file)."""
        self._change()
        encode_utf8(path, "device path")
        self.phone.fs.makedirs(posixpath.dirname(path))
        self.phone.fs.write_parts(path, parts)
        self.phone.data_changed()

    def write_files(self, directory: str, files: Mapping[str, str]) -> ShellResult:
        """What the shell line ``mkdir -p DIRECTORY && echo CONTENT > DIRECTORY/NAME && …`` (``tasks.files.
        write_files_command``, a file per ``files`` item, in order) does to the phone and gives, without running it
        (``tasks.files.write_files``' short cut): the folder made, each file written with what ``echo`` prints
        (``echo_text``), device time on the files and folders that changed, as those commands leave them; a step that
        fails ends it with the shell's message and exit status 1."""
        self._change()
        for name, content in files.items():  # what the line's text would be refused for
            encode_utf8(posixpath.join(directory, name), "device path")
            encode_utf8(content, "file content")
        fs = self.phone.fs
        host = fs.host_path(directory)
        try:
            if host.exists() and not host.is_dir():
                raise FileExistsError(17, os.strerror(17))
            fs.makedirs(directory)
        except OSError as error:
            return ShellResult(f"mkdir: '{directory}': {strerror(error)}\n", 1)
        gained: set[str] = set()  # the folders a new file went into: given device time once, after the writes
        try:
            for name, content in files.items():
                path = posixpath.join(directory, name)
                if fs.write_parts(path, (echo_text([content]).encode(),), directory_time=False):
                    gained.add(posixpath.dirname(path))
        except OSError as error:
            return ShellResult(f"{SHELL}: can't create {path}: {strerror(error)}\n", 1)
        finally:
            for folder in gained:
                fs.stamp(fs.host_path(folder))
            self.phone.data_changed()
        return ShellResult("", 0)

    def pull(self, path: str) -> bytes:
        """Read a file from the phone."""
        self._check_open()
        encode_utf8(path, "device path")
        if self._reads is not None:
            self._note_versions((path,))  # equal versions, equal bytes (or still no file)
        try:
            return self.phone.fs.read_bytes(path)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as error:
            raise RemoteFileNotFoundError(f"{path}: no such file on the device") from error

    def file_versions(self, paths: Sequence[str]) -> tuple[int, ...]:
        """For each path, a number that moves with every write to the file, its removal or its making
        (``FileSystem.versions``): while they stay the same, the files hold the same bytes or are still missing
        (``local_db``'s short cut; no file is read)."""
        self._check_open()
        return self._note_versions(tuple(paths))

    def _note_versions(self, paths: tuple[str, ...]) -> tuple[int, ...]:
        versions = self.phone.fs.versions(*paths)
        if self._reads is not None:
            self._reads.note(functools.partial(self.file_versions, paths), versions)
        return versions

    def screenshot(self) -> np.ndarray:
        """The screen, ``(H, W, 3)`` uint8, read-only (the same array while the screen does not change)."""
        self._check_open()
        self._unnoted()
        return self.phone.screenshot()

    def screenshot_again(self) -> np.ndarray | None:
        """The screen ``screenshot`` gave last, read-only, again in memory nothing else holds (so a caller holding
        that one may be handed this too), given by ``screenshot`` from now on: the phone's kept frame brought up to
        date where it differs (``Renderer.twin``), else a copy. None when that screen is no longer shown."""
        self._check_open()
        return self.phone.screenshot_again()

    def ui_dump(self) -> str:
        """The uiautomator XML of the foreground window."""
        self._check_open()
        self._unnoted()  # a look at the screen may move a transition on: not looked at again to compare
        self._dumped = self.phone.window.dumped()
        return self._dumped[0]

    def ui_elements(self, xml: str) -> tuple[UIElement, ...] | None:
        """What ``parse_ui_dump`` makes of ``xml``, read from the views it was written from without parsing it
        (the env's short cut on the simulated phone), when it is the dump ``ui_dump`` gave last; else None."""
        if self._dumped is None or xml is not self._dumped[0]:
            return None
        known = self._known.get(xml)
        if known is None:  # screens come back (the home screen, a list after a dialog closed)
            known = self._known[xml] = tuple(elements_of(*self._dumped[1:]))
            self._known_chars += len(xml)
            while self._known_chars > _KNOWN_DUMP_CHARS and len(self._known) > 1:
                self._known_chars -= len(oldest := next(iter(self._known)))
                del self._known[oldest]
        return known

    def focused_activity(self) -> tuple[str, str]:
        """The package and activity of the focused window, as ``dumpsys window`` reports them (``mCurrentFocus``),
        without writing and parsing the report (``state.foreground_package``'s short cut on the simulated phone)."""
        self._check_open()
        focused = focused_window(self.phone)
        if self._reads is not None:
            self._reads.note(self.focused_activity, focused)
        return focused

    def setting(self, namespace: str, key: str) -> str | None:
        """What ``settings get NAMESPACE KEY`` prints, without its line end (``null`` for a missing key), read from
        the phone's settings without running the command (``state.settings_get``'s short cut on the simulated
        phone); ``None`` when the command would not get a value (an unknown namespace, ``--user`` for a key)."""
        self._check_open()
        encode_utf8(namespace, "settings namespace")
        encode_utf8(key, "settings key")
        if namespace.lower() not in SETTINGS_NAMESPACES or key == "--user":
            return None
        value = self.phone.settings.get(namespace.lower(), key)
        printed = "null" if value is None else value
        if self._reads is not None:
            self._reads.note(functools.partial(self.setting, namespace, key), printed)
        return printed

    def tap(self, x: int, y: int) -> None:
        """Tap at pixel coordinates."""
        self._change()
        self.phone.tap(x, y)

    def long_press(self, x: int, y: int) -> None:
        """Touch and hold."""
        self._change()
        self.phone.long_press(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """Drag between two points."""
        self._change()
        self.phone.swipe(x1, y1, x2, y2, duration_ms)

    def input_text(self, text: str) -> None:
        """Type into the focused field."""
        self._change()
        encode_utf8(text, "text to type")
        self.phone.input_text(text)

    def key(self, code: int) -> None:
        """Press a key."""
        self._change()
        self.phone.key(code)

    def add_contacts(self, contacts: Sequence[tuple[str, str]]) -> None:
        """Device-local contacts ``(name, mobile number)`` in order: the rows ``validators.add_contacts_command``'s
        line of ``content insert`` commands leaves, written by the contacts provider's insert code in one transaction
        (``ContactsProvider.add_contacts``) without parsing and running the line (``validators.add_contacts``' short
        cut)."""
        self._change()
        for name, number in contacts:  # what the line's text would be refused for
            encode_utf8(name, "contact name")
            encode_utf8(number, "contact number")
        self.phone.contacts.add_contacts(contacts)

    def receive_sms(self, sender: str, text: str) -> None:
        """An incoming text through the simulated modem (the telephony provider's write tells apps)."""
        self.receive_texts([(sender, text)])

    def receive_texts(self, texts: Sequence[tuple[str, str]]) -> None:
        """Incoming texts ``(sender, text)`` in order, the rows ``receive_sms`` of each would write, in one transaction
        (``Telephony.deliver_texts``)."""
        self._change()
        for sender, text in texts:
            encode_utf8(sender, "SMS sender")
            encode_utf8(text, "SMS text")
        self.phone.telephony.deliver_texts(texts)

    def keep_baseline(self) -> None:
        """Keep the phone as it is now as the baseline ``rewind`` brings it back to (``Phone.keep_baseline``; the
        first call, later ones do nothing): the env keeps it in its first reset, once the task's ``prepare`` has
        stopped its apps and fixed the clock."""
        self._check_open()
        self.phone.keep_baseline()

    def checkpoint(self) -> None:
        """Note what changes on the phone from now on, which ``rewind`` undoes: the env's reset calls it once the task
        is set up. The heap's free pages go back to the kernel then, when the process grew since they last did
        (``give_back_freed``)."""
        self._check_open()
        self.phone.checkpoint()
        give_back_freed()

    @property
    def full_rewind(self) -> bool:
        """Whether ``rewind`` brings back what the episode changed and leaves every app stopped with home in front
        (``Phone.can_rewind``): the env's reset then hands over without the base teardown's stop before it
        (``Task.hand_over``) and the task's ``prepare`` stops nothing after it."""
        return self.phone.can_rewind

    def rewind(self, shown: Collection[str] = ()) -> None:
        """Bring back the baseline of what changed since the last ``checkpoint`` (``Phone.rewind``: processes, files,
        settings, clip), but for the settings a device configuration sets (``CONFIGURED_SETTINGS``), which the env
        applies itself. ``shown`` (the packages the episode showed) is not needed here: the phone knows every
        process."""
        self._change()
        self.phone.rewind(CONFIGURED_SETTINGS)

    def close(self) -> None:
        """Delete the simulated phone. Idempotent."""
        if not self._closed:
            self._closed = True
            self.phone.close()


def _shell_result(output: ShellOutput) -> ShellResult:
    """A command line's output as ``Device.shell`` gives it: standard output and error as text, and the exit code."""
    return ShellResult((output.stdout + output.stderr).decode("utf-8", "replace"), output.exit_code)


def elements_of(nodes: list[Node], package: str) -> Iterator[UIElement]:
    """The ``UIElement`` of every node a dump of a window of ``package`` writes (``hierarchy.written``), in order."""
    for index, (_, depth, (x1, y1, x2, y2), said) in enumerate(nodes):
        yield _element(index, said, package, x1, y1, x2, y2, depth)


@functools.lru_cache(maxsize=2048, typed=True)  # typed: a float bound is not taken for an int one
def _element(index: int, said: Said, package: str, x1: int, y1: int, x2: int, y2: int, depth: int) -> UIElement:
    """The element of a node with these attributes (``said``: what the dump writes of its view but its index and
    bounds), made once while it is kept: a new screen shares most of its nodes (bars, rows) with the screens before
    it, and an element is immutable, so dumps share it."""
    (text, resource_id, class_name, content_desc, checkable, checked, clickable, enabled, focusable, focused,
     scrollable, long_clickable, password, selected) = said
    return frozen(UIElement, {
        "index": index, "text": parsed_value(text), "content_description": parsed_value(content_desc),
        "class_name": class_name, "resource_name": parsed_value(resource_id), "package_name": package,
        "bbox_pixels": frozen(BoundingBox, dict(zip(_BOX, (x1, y1, x2, y2)))), "is_checkable": bool(checkable),
        "is_checked": bool(checked), "is_clickable": bool(clickable), "is_enabled": bool(enabled),
        "is_focusable": bool(focusable), "is_focused": bool(focused), "is_scrollable": bool(scrollable),
        "is_long_clickable": bool(long_clickable), "is_password": bool(password), "is_selected": bool(selected),
        "depth": depth})
