"""The short cuts that make a reset cheap leave the phone exactly as it would be without them: the home screen's frame
kept through writes of apps' data (``Phone.data_changed``), host-copy rows zipped with their column names
(``local_db._dicts``), ``find`` walking without a ``stat`` per entry, rows drawn through ``draws.exact_draws``, a
command line's ``content`` writes in one transaction and a rollback-journal provider's connection kept from line to line
(``SqliteProvider.holding``), a line's provider reads before it holds a connection made by the reader of the committed
bytes (``SqliteProvider._reads_snapshot``), the MP3 files the phone writes read without mutagen (``mp3._read_plain``),
the shell's ``sqlite3`` connection kept from run to run (``KeptDatabases``), files not read again while their write
versions stay the same (``FileSystem.versions``: the host copies of ``local_db`` and the providers' reads), calendar
noise events made from their timestamps (``utc_event_row``) and an unclosed ``[`` (the test command) taken as no glob
pattern (``parser.has_glob_magic``), a simple command with nothing to expand run from the fields parsed with its tree
(``_Simple.fields``) and its effects told once (``interpreter._literal_effects``), and a table task's table left by
``hand_over`` for its next ``reset_state`` to clear and seed in one push (``SqliteRowsTask``,
``LocalDatabase.execute_transactions``), and what a task's ``teardown`` empties left by ``hand_over`` for its next
``clear_state`` (``Task.setup_clears_teardown``, a composite's parts' too), a long-horizon task's tables emptied and
seeded in one write each (``TablesTask``), and a provider's reader of the committed bytes kept, with its parsed schema,
while the schema stays the same (``provider._Snapshot``), and the base teardown's stop and HOME left by ``hand_over`` to
a rewind that stops every app and goes home, and no second stop in ``prepare`` after it (``SimDevice.full_rewind``).
Two envs run the same resets, one with the short cuts undone; every file (bytes and device times) and every screen are
the same."""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import os
import sqlite3
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from android_gym.device import local_db
from android_gym.device.sim import SimDevice
from android_gym.envs import calendar
from android_gym.sim.apps.calendar import event_row
from android_gym.sim.phone import Phone
from android_gym.sim.shell import expansion, interpreter, parser
from android_gym.sim.shell.commands import find
from android_gym.sim.shell.kept_databases import KeptDatabases
from android_gym.sim.system import mp3, provider
from android_gym.sim.system.fs import FileSystem
from android_gym.sim.system.provider import SqliteProvider
from android_gym.tasks import draws
from android_gym.tasks.base import Task
from android_gym.tasks.sqlite_rows import TablesTask

#: Tasks whose resets clear and seed an app table, contacts and texts, a notebook, and shared storage; and clear
#: the contacts provider (``pm clear``), receive texts and scan songs into the MediaStore; and draw expenses,
#: recipes, Joplin notes and calendar events as a declarative task's noise; and empty the texts with ``sqlite3``;
#: and swap a calendar's events (emptied at teardown too) and an expense table beside a Markor note; and seed
#: contacts with a calendar and a to-do list, Joplin's notes with a notebook, and contacts checked by the score; and
#: empty Retro Music's storage and playlists in the next set-up.
TASKS = ("SimpleSmsSend", "SimpleSmsReply", "TasksDueOnDate", "TextedBillToExpenseNoteAndReply", "MarkorMergeNotes",
         "InviteThreeFriendsToEvent", "JoplinNoteToMarkorAndText", "SaveMeetingAttendeesThenText", "AddContactThenText",
         "FilesDeleteFile",
         "TextedSongsToPlaylistQueueAndReply", "ExpenseDeleteMultiple2", "RecipeDeleteDuplicateRecipes3",
         "NotesTodoItemCount", "SimpleCalendarEventsInNextWeek", "SimpleCalendarDeleteEvents",
         "ExpenseAddMultipleFromMarkor", "MarkorEditNote", "VlcDeletePlaylist", "OsmAndDeleteFavorite",
         "CameraTakePhoto", "RetroDeletePlaylist")


def _phone_files(phone: Phone) -> dict[str, tuple[bytes, int]]:
    """Every regular file of the phone by device path: its bytes and its device modification time (every app's
    files: resolving ``/`` starts the apps not started yet, as a walk of the device (``find /``) would)."""
    files = {}
    for folder, _, names in os.walk(phone.fs.host_path("/")):
        for name in names:
            host = Path(folder) / name
            device = "/" + str(host.relative_to(phone.fs.root))
            files[device] = (host.read_bytes(), phone.fs.device_stat(host).st_mtime_ns)
    return files


def _without_short_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write redraws, rows go through ``sqlite3.Row``, ``find`` stats every entry, rows are drawn from the
    generator itself, each provider write commits, a line's provider reads open a connection, MP3 files are read with
    mutagen, a provider's connection closes when its line ends, each
    ``sqlite3`` run opens its database, every
    file counts as written at every look (so every read reads it), calendar events go through datetimes, a word
    with any bracket is globbed and every command's words are expanded; a table task's reset tears down in full
    and its set-up runs the phases, as a long-horizon task's does, a provider reads new bytes through a new
    connection, and a reset hands over before the rewind and stops the task's apps again after it."""
    numbers = itertools.count()
    monkeypatch.setattr(FileSystem, "versions", lambda self, *paths: tuple(next(numbers) for _ in paths))
    monkeypatch.setattr(Phone, "data_changed", Phone.invalidate)
    monkeypatch.setattr(SqliteProvider, "_batching", lambda self: False)
    monkeypatch.setattr(KeptDatabases, "take", lambda self, path: None)
    monkeypatch.setattr(SqliteProvider, "_reads_snapshot", lambda self: not getattr(self._thread, "holding", False))
    monkeypatch.setattr(mp3, "_read_plain", lambda file: None)
    release = SqliteProvider._release
    monkeypatch.setattr(SqliteProvider, "_release", lambda self, keep=False: release(self))
    monkeypatch.setattr(local_db, "_dicts", lambda cursor: [
        dict(sqlite3.Row(cursor, values)) for values in cursor])
    parse = find._Parser.parse

    def parse_reading_stat(self: find._Parser) -> find._Expr:
        expr = parse(self)
        self.reads_stat = True
        return expr

    monkeypatch.setattr(find._Parser, "parse", parse_reading_stat)
    for module in list(sys.modules.values()):
        if getattr(module, "exact_draws", None) is draws.exact_draws:
            monkeypatch.setattr(module, "exact_draws", contextlib.nullcontext)
    monkeypatch.setattr(calendar, "utc_event_row", lambda title, start_ts, minutes, description="": event_row(
        title, dt.datetime.fromtimestamp(start_ts, dt.timezone.utc), duration_mins=minutes, description=description))
    monkeypatch.setattr(expansion, "has_glob_magic", lambda segment: any(c in segment for c in "*?["))
    monkeypatch.setattr(parser, "stands_for_itself", lambda word: False)
    monkeypatch.setattr(interpreter, "_parse", parser._parse_uncached)
    tasks, found = [Task], []
    while tasks:  # every task class loaded (the fast run loaded the task's) that sets it
        found.append(task := tasks.pop())
        tasks += task.__subclasses__()
    for task in found:
        if "setup_clears_teardown" in vars(task):
            monkeypatch.setattr(task, "setup_clears_teardown", False)
    monkeypatch.setattr(TablesTask, "reset_state", Task.reset_state)
    monkeypatch.setattr(SimDevice, "full_rewind", False)
    copy = provider._Snapshot._copy

    def copy_anew(self: provider._Snapshot, data: bytes) -> sqlite3.Connection:
        self._schema = None  # no schema kept parsed: new bytes, a new connection
        return copy(self, data)

    monkeypatch.setattr(provider._Snapshot, "_copy", copy_anew)


def _episodes(task: str) -> list[tuple[str, dict[str, tuple[bytes, int]]]]:
    """The dump and the files after each of three resets of ``task`` (the second after the first, as an agent's
    next episode)."""
    env = gym.make(f"AndroidWorld/{task}-v0", pixels=False)
    seen = []
    for seed in (1, 2, 1):
        observation, _ = env.reset(seed=seed)
        seen.append((observation["a11y_tree"], _phone_files(env.unwrapped.device.phone)))
    env.close()
    return seen


@pytest.mark.parametrize("task", TASKS)
def test_resets_leave_the_same_phone_with_and_without_the_short_cuts(task, monkeypatch):
    fast = _episodes(task)
    with monkeypatch.context() as patched:
        _without_short_cuts(patched)
        slow = _episodes(task)
    for (fast_dump, fast_files), (slow_dump, slow_files) in zip(fast, slow):
        assert fast_dump == slow_dump
        assert fast_files.keys() == slow_files.keys()
        assert [path for path in fast_files if fast_files[path] != slow_files[path]] == []
