"""Audio Recorder 0.9.26 (``com.dimowner.audiorecorder``, versionCode 926, the build AndroidWorld installs).

Facts come from github.com/Dimowner/AudioRecorder at ``554c9c8`` (the last commit with ``versionCode 926`` in
``app/build.gradle``): ``AppConstants.java`` (``Record-`` names, default format ``m4a``, 44.1 kHz, 128 kbps,
stereo, ``MAX_RECORD_NAME_LENGTH`` 50), ``FileRepositoryImpl``/``FileUtil`` (on Android 10+ recordings go to the
private ``getExternalFilesDir(DIRECTORY_MUSIC)/records``; ``provideRecordFile`` increments the record counter and
creates ``Record-<counter>.m4a``, or ``1<name>`` if that file exists), ``PrefsImpl`` (SharedPreferences
``com.dimowner.audiorecorder.data.PrefsImpl``: ``is_first_run``, ``is_ask_rename_after_stop_recording``,
``record_counter``, ``active_record``), ``SQLiteHelper`` (``databases/records.db`` version 3, tables ``records``
and ``trash``), ``LocalRepositoryImpl.insertEmptyFile`` (a row when recording starts; ``AppRecorderImpl`` fills in
duration in microseconds, size and format when it stops), ``MainActivity``/``MainPresenter`` (first run opens
``WelcomeActivity`` → ``SetupActivity`` → "Apply"; the record button starts, pauses and resumes; stop asks for a
name while ``is_ask_rename_after_stop_recording`` is on, which ``bindView`` sets on the first start; tapping the
name renames), ``AndroidUtils.showRenameDialog`` and ``MainPresenter.renameRecord`` (":" becomes "_", the name is
trimmed, the record's extension is appended, an existing file is refused), ``RecordsActivity``/``RecordsAdapter``
(records by date added, newest first; the item's "more" button opens ``menu_more``), and the layouts
``activity_main.xml``, ``activity_welcome.xml``, ``welcome_page_item.xml``, ``activity_setup.xml``,
``activity_records.xml``, ``list_item.xml``, ``dialog_rename.xml`` with ``res/values/strings.xml``.

A recording is written when it stops: ``media.mp4_file`` of the recorded (virtual clock) duration, a valid
MPEG-4 container as ``MediaRecorder`` (``OutputFormat.MPEG_4``) starts it, with no audio track. Until then the
file exists empty, as the app creates it before ``MediaRecorder`` starts.

Not simulated: playback, the waveform, import, share and the main screen's overflow menu, settings, trash and
deleting, bookmarks, sorting, multi-select, the record list's other menu items (Share, Information, Open with,
Save as, Delete: its menu offers Rename only), the delete button while recording, the setup screen's choices
(the defaults are shown and kept), date headers of the list, lost-record detection, notifications, widgets and
toasts.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.media import mp4_file
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import dialog_over, scrim_over
from android_gym.sim.ui.views import (
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    button,
    check_box,
    column,
    edit_text,
    frame,
    image_button,
    row,
    text_view,
)

PACKAGE = "com.dimowner.audiorecorder"
MAIN_ACTIVITY = f"{PACKAGE}.app.main.MainActivity"
WELCOME_ACTIVITY = f"{PACKAGE}.app.welcome.WelcomeActivity"
SETUP_ACTIVITY = f"{PACKAGE}.app.setup.SetupActivity"
RECORDS_ACTIVITY = f"{PACKAGE}.app.records.RecordsActivity"
RECORDS_DIR = f"{EXTERNAL_STORAGE}/Android/data/{PACKAGE}/files/Music/records"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}.data.PrefsImpl.xml"
DB_PATH = f"/data/data/{PACKAGE}/databases/records.db"

# AppConstants.java
BASE_RECORD_NAME = "Record-"
FORMAT_M4A = "m4a"
SAMPLE_RATE, BITRATE, CHANNELS = 44100, 128000, 2
MAX_RECORD_NAME_LENGTH = 50
# res/values/strings.xml
APP_NAME = "Audio Recorder"
WELCOME = "Welcome to a simple and fast application"
GET_STARTED, SETUP, APPLY, RESET = "Get started", "Setup", "Apply", "Reset"
RECORD_DESCRIPTION = "Recording: %s"  # btn_record's contentDescription is the unformatted @string/recording
SETTINGS, RECORDS, NO_RECORDS = "Settings", "Records", "Records is empty"
RECORDING_PROGRESS, RECORDING_PAUSED, ZERO_TIME = "Recording\u2026", "Paused", "00:00"
NEW_NAME, DONT_ASK_AGAIN, CANCEL, SAVE, RENAME = "New name", "Don't ask again", "Cancel", "Save", "Rename"
NAMING = "Naming:"
SETUP_SETTINGS = (("Recording format:", "M4a"), ("Sample rate:", "44.1kHz"), ("Bitrate:", "128 kbps"),
                  ("Channel count:", "Stereo"))
SETUP_THEME = "Theme Blue Gray"

# PrefsImpl keys
FIRST_RUN, ASK_RENAME = "is_first_run", "is_ask_rename_after_stop_recording"
RECORD_COUNTER, ACTIVE_RECORD = "record_counter", "active_record"

SCHEMA = tuple(
    f"CREATE TABLE {table} (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, duration LONG NOT NULL, "
    f"created LONG NOT NULL, added LONG NOT NULL, {removed}path TEXT NOT NULL, format TEXT NOT NULL DEFAULT '', "
    "size LONG NOT NULL DEFAULT 0, sample_rate INTEGER NOT NULL DEFAULT 0, channel_count INTEGER NOT NULL DEFAULT 0, "
    "bitrate INTEGER NOT NULL DEFAULT 0, data BLOB NOT NULL, bookmark INTEGER NOT NULL DEFAULT 0, "
    "waveform_processed INTEGER NOT NULL DEFAULT 0, data_str BLOB NOT NULL);"
    for table, removed in (("records", ""), ("trash", "removed LONG NOT NULL, ")))

_DARK, _DIALOG_TEXT = (55, 71, 79), (0, 0, 0)  # Theme Blue Gray: md_blue_gray_700; dialog text md_black_1000
_RED = (229, 57, 53)
_CHECKED = (255, 214, 0)  # dialog_rename.xml's check box: @color/checkbox_color checked, md_yellow_A700
_BAR = 147  # 56 dp


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def time_interval(ms: int) -> str:
    """``TimeUtils.formatTimeIntervalHourMinSec2``: ``MM:SS``, or ``HH:MM:SS`` from an hour."""
    seconds = ms // 1000
    text = f"{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return f"{seconds // 3600:02d}:{text}" if seconds >= 3600 else text


def short_date_time(ms: int, tag: str) -> str:
    """``DateFormat.getDateTimeInstance(SHORT, SHORT)`` in the locale ``tag``: ``10/15/23, 3:34 PM`` in en-US."""
    return formats.format_date_time_instance(dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc), "short", tag)


class RecordsDatabase(SqliteProvider):
    """``SQLiteHelper``'s ``records.db`` (version 3), opened in WAL mode as the framework opens it."""

    db_path = DB_PATH
    schema = (*SCHEMA, "CREATE TABLE android_metadata (locale TEXT)")
    journal_mode = "WAL"

    def on_create(self, db: sqlite3.Connection) -> None:
        """The framework's locale row and the helper's version."""
        db.execute("INSERT INTO android_metadata (locale) VALUES ('en_US')")
        db.execute("PRAGMA user_version = 3")

    def on_connect(self, db: sqlite3.Connection) -> None:
        """Rows as mappings."""
        db.row_factory = sqlite3.Row

    def records(self) -> list[dict[str, Any]]:
        """``getRecords`` in the default order (``SORT_DATE``: newest added first)."""
        with self.reading() as db:
            return [dict(found) for found in db.execute("SELECT * FROM records ORDER BY added DESC")]

    def record(self, record_id: int) -> dict[str, Any] | None:
        """One row, or ``None``."""
        return next((found for found in self.records() if found["_id"] == record_id), None)

    def insert_empty(self, name: str, path: str, now_ms: int) -> int:
        """``insertEmptyFile``: the row of a recording that is starting; returns its id."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO records (name, duration, created, added, path, format, size, sample_rate, "
                "channel_count, bitrate, bookmark, waveform_processed, data, data_str) "
                "VALUES (?, 0, ?, ?, ?, ?, 0, ?, ?, ?, 0, 0, ?, '')",
                (name, now_ms, now_ms, path, FORMAT_M4A, SAMPLE_RATE, CHANNELS, BITRATE, b""))
            return int(cursor.lastrowid or 0)

    def update(self, record_id: int, **values: Any) -> None:
        """``updateRecord`` of the given columns."""
        assignments = ", ".join(f"{column} = ?" for column in values)
        with self._transaction() as db:
            db.execute(f"UPDATE records SET {assignments} WHERE _id = ?", (*values.values(), record_id))


@dataclass
class Recording:
    """The recording service's state: the row and file, the time recorded before the current stretch and when
    that stretch started (``None`` while paused)."""

    record_id: int
    path: str
    recorded_ms: int = 0
    running_since: int | None = None

    def elapsed(self, now_ms: int) -> int:
        """Time recorded so far."""
        return self.recorded_ms + (now_ms - self.running_since if self.running_since is not None else 0)


def _record_name_field(value: str, on_text: Callable[[str], None], on_done: Callback) -> View:
    """``input_name``: ``inputType="text"`` with ``actionDone``; the name is cut at 50 characters."""
    field = edit_text(value, "", "input_name", on_text, resource_id=_id("input_name"), text_size=50,
                      text_color=_DIALOG_TEXT)
    field.on_submit = on_done
    return field


class _RenameDialog:
    """``AndroidUtils.showRenameDialog`` on a screen: which record, the name typed so far and whether the
    "Don't ask again" box shows (after a recording stops)."""

    def __init__(self, screen: Screen, record: dict[str, Any], after_recording: bool, dismiss: Callback) -> None:
        self.screen = screen
        self.record_id = record["_id"]
        self.original = record["name"]
        self.value = record["name"]
        self.after_recording = after_recording
        self._dismiss = dismiss
        screen.focus_key, screen.keyboard_shown = "input_name", True

    @property
    def recorder(self) -> AudioRecorder:
        """The app."""
        return _recorder(self.screen)

    def _set(self, text: str) -> None:
        self.value = text[:MAX_RECORD_NAME_LENGTH]

    def _done(self) -> None:
        """``actionDone``: the keyboard goes away."""
        self.screen.keyboard_shown = False

    def _toggle_ask(self) -> None:
        """The check box: "Don't ask again" turns asking off (and back on when unticked)."""
        self.recorder.set_ask_rename(not self.recorder.ask_rename)

    def _save(self) -> None:
        """The positive button: rename unless the name is unchanged (compared ignoring case)."""
        if self.value.lower() != self.original.lower():
            self.recorder.rename(self.record_id, self.value)
        self.close()

    def close(self) -> None:
        """Dismiss the dialog (negative button, BACK, a touch outside)."""
        self.screen.focus_key, self.screen.keyboard_shown = "", False
        self._dismiss()

    def over(self, content: View) -> View:
        """The dialog (``dialog_rename.xml``) over ``content``."""
        children = [text_view(NEW_NAME, resource_id=_id("dialog_title"), text_size=58, bold=True,
                              text_color=_DIALOG_TEXT),
                    _record_name_field(self.value, self._set, self._done)]
        if self.after_recording:
            children.append(check_box(DONT_ASK_AGAIN, not self.recorder.ask_rename, self._toggle_ask,
                                      resource_id=_id("check_box"), text_color=_DIALOG_TEXT,
                                      button_tint=_CHECKED, padding=24))
        buttons = row(View(weight=1),
                      button(CANCEL, self.close, resource_id=_id("dialog_negative_btn"), background=WHITE,
                             text_color=_DARK, width=260),
                      button(SAVE, self._save, resource_id=_id("dialog_positive_btn"), background=_DARK, width=260),
                      spacing=24)
        panel = column(*children, buttons, width=960, padding=52, spacing=12, background=WHITE)
        return dialog_over(content, panel, self.close)


def _recorder(screen: Screen) -> AudioRecorder:
    app = screen.app
    assert isinstance(app, AudioRecorder)
    return app


class MainScreen(Screen):
    """``MainActivity``: the elapsed time, the record's name, record/pause, stop and the records list button."""

    activity = MAIN_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.rename: _RenameDialog | None = None

    def on_resume(self) -> None:
        """``onStart``: ``bindView`` (turns asking for a name on the first time), then the first run check, which
        opens the welcome screen instead."""
        recorder = _recorder(self)
        recorder.bind_view()
        if recorder.first_run:
            self.start(WelcomeScreen)
            self.finish()

    def on_back(self) -> bool:
        if self.rename is None:
            return False
        self.rename.close()
        return True

    def _dismiss_rename(self) -> None:
        self.rename = None

    def _record(self) -> None:
        """``btn_record``: start recording, or pause / resume the recording in progress."""
        recorder = _recorder(self)
        if recorder.recording is None:
            recorder.start_recording()
        else:
            recorder.pause_or_resume()

    def _stop(self) -> None:
        """``btn_record_stop``: finish the file; ask for a name if the app still asks."""
        recorder = _recorder(self)
        record = recorder.stop_recording()
        if record is not None and recorder.ask_rename:
            self.rename = _RenameDialog(self, record, True, self._dismiss_rename)

    def _rename_active(self) -> None:
        """``txt_name``: rename the record shown."""
        record = _recorder(self).active_record()
        if record is not None:
            self.rename = _RenameDialog(self, record, False, self._dismiss_rename)

    def build(self) -> View:
        recorder = _recorder(self)
        recording = recorder.recording
        now = self.phone.clock.now_ms()
        bar = row(text_view(APP_NAME, text_color=WHITE, text_size=58, bold=True, padding=42, weight=1),
                  resource_id=_id("toolbar"), height=_BAR)
        if recording is not None:
            name = RECORDING_PAUSED if recording.running_since is None else RECORDING_PROGRESS
            progress, name_view = time_interval(recording.elapsed(now)), self._name(name, clickable=False)
            times: list[View] = []
        else:
            record = recorder.active_record()
            progress, name_view = ZERO_TIME, self._name(record["name"], clickable=True) if record else None
            times = [row(text_view(ZERO_TIME, resource_id=_id("txt_zero_time"), text_color=WHITE),
                         View(weight=1),
                         text_view(time_interval(record["duration"] // 1000), resource_id=_id("txt_duration"),
                                   text_color=WHITE))] if record else []
        info = column(row(View(weight=1), text_view(progress, resource_id=_id("txt_progress"), text_color=WHITE,
                                                    text_size=142, bold=True), View(weight=1)),
                      *([name_view] if name_view else []), *times, padding=24)
        content = column(bar, View(weight=1), info, self._buttons(recording), background=_DARK)
        return self.rename.over(content) if self.rename else content

    def _name(self, text: str, clickable: bool) -> View:
        """``txt_name``: the record's name (tap to rename), or the recording state."""
        label = text_view(text, resource_id=_id("txt_name"), text_color=WHITE, text_size=58, clickable=clickable,
                          focusable=clickable, on_click=self._rename_active if clickable else None)
        return row(View(weight=1), label, View(weight=1))

    def _buttons(self, recording: Recording | None) -> View:
        """The bottom panel: record (pause while recording), stop while recording, and the records list."""
        record = image_button(RECORD_DESCRIPTION, "pause" if recording and recording.running_since else "",
                              self._record, resource_id=_id("btn_record"), width=220, height=220, text_color=WHITE)
        record.kind, record.background = "fab", _RED
        middle = [record]
        if recording is not None:
            middle.append(image_button("", "stop", self._stop, resource_id=_id("btn_record_stop"), width=160,
                                       height=160, text_color=WHITE))
        records = image_button("", "more", lambda: self.start(RecordsScreen), resource_id=_id("btn_records_list"),
                               width=160, height=160, text_color=WHITE)
        return row(View(width=160), View(weight=1), *middle, View(weight=1), records, padding=36, spacing=24)


class WelcomeScreen(Screen):
    """``WelcomeActivity``: the welcome page and "Get started"."""

    activity = WELCOME_ACTIVITY

    def _get_started(self) -> None:
        self.start(SetupScreen)
        self.finish()

    def build(self) -> View:
        page = column(text_view(APP_NAME, resource_id=_id("txt_title"), text_color=WHITE, text_size=84, bold=True,
                                padding=52),
                      text_view(WELCOME, resource_id=_id("txt_details"), text_color=WHITE, text_size=54, padding=52),
                      resource_id=_id("pager"), weight=1, padding=60)
        action = button(GET_STARTED, self._get_started, resource_id=_id("btn_action"), background=WHITE,
                        text_color=_DARK)
        return column(page, action, padding=42, background=_DARK)


class SetupScreen(Screen):
    """``SetupActivity``: the recording settings (shown at their defaults), "Reset" and "Apply"."""

    activity = SETUP_ACTIVITY

    def _apply(self) -> None:
        """``executeFirstRun``, then the main screen."""
        _recorder(self).first_run_executed()
        self.start(MainScreen)
        self.finish()

    @staticmethod
    def _reset() -> None:
        """``resetSettings``: the settings are always the defaults here, so nothing changes."""

    def build(self) -> View:
        def spinner(name: str, text: str) -> View:
            return View(kind="row", class_name="android.widget.Spinner", resource_id=_id(name),
                        children=[text_view(text, text_color=WHITE, padding=36, weight=1)])

        naming = self.phone.window.locale.string(NAMING, PACKAGE)  # getString(R.string.naming) + " " + the name
        settings = [column(text_view(title, text_color=WHITE), text_view(value, text_color=WHITE, bold=True),
                           padding=24)
                    for title, value in SETUP_SETTINGS]
        form = View(kind="list", class_name="android.widget.ScrollView", key="setup", scrollable=True, weight=1,
                    children=[text_view(SETUP, text_color=WHITE, text_size=58, bold=True, padding=42),
                              spinner("themeColor", SETUP_THEME),
                              spinner("name_format", f"{naming} {BASE_RECORD_NAME}1.{FORMAT_M4A}"), *settings])
        buttons = row(button(RESET, self._reset, resource_id=_id("btn_reset"), background=WHITE, text_color=_DARK,
                             weight=1),
                      button(APPLY, self._apply, resource_id=_id("btn_apply"), background=WHITE, text_color=_DARK,
                             weight=1), spacing=24, padding=24)
        return column(form, buttons, background=_DARK)


class RecordsScreen(Screen):
    """``RecordsActivity``: the records, newest first; each item's "more" button opens its menu (Rename)."""

    activity = RECORDS_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.menu_for: int | None = None
        self.rename: _RenameDialog | None = None

    def on_back(self) -> bool:
        if self.rename is not None:
            self.rename.close()
        elif self.menu_for is not None:
            self.menu_for = None
        else:
            return False
        return True

    def _dismiss_rename(self) -> None:
        self.rename = None

    def _open_menu(self, record_id: int) -> None:
        self.menu_for = record_id

    def _close_menu(self) -> None:
        self.menu_for = None

    def _rename(self) -> None:
        record = _recorder(self).database.record(self.menu_for or 0)
        self.menu_for = None
        if record is not None:
            self.rename = _RenameDialog(self, record, False, self._dismiss_rename)

    def build(self) -> View:
        records = _recorder(self).database.records()
        bar = row(image_button("", "arrow_back", self.finish, resource_id=_id("btn_back"), width=_BAR, height=_BAR,
                               text_color=WHITE),
                  text_view(RECORDS, resource_id=_id("txt_title"), text_color=WHITE, text_size=58, bold=True,
                            weight=1, padding=36),
                  resource_id=_id("toolbar"), height=_BAR, background=_DARK)
        if records:
            body = View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="recycler_view",
                        resource_id=_id("recycler_view"), scrollable=True, focusable=True, weight=1,
                        children=[self._item(record) for record in records])
        else:
            body = column(text_view(NO_RECORDS, resource_id=_id("txtEmpty"), text_color=TEXT_SECONDARY,
                                    text_size=54, padding=60), weight=1)
        content = column(bar, body, background=WHITE)
        if self.rename is not None:
            return self.rename.over(content)
        if self.menu_for is not None:
            return self._menu(content)
        return content

    def _item(self, record: dict[str, Any]) -> View:
        """``list_item``: name, duration, date added, size and format, and the "more" button."""
        size_mb = f"{record['size'] / (1024 * 1024):.2f}".rstrip("0").rstrip(".")
        texts = column(
            text_view(record["name"], resource_id=_id("list_item_name"), text_size=50),
            row(text_view(time_interval(record["duration"] // 1000), resource_id=_id("list_item_description"),
                          text_color=TEXT_SECONDARY, text_size=38),
                text_view(short_date_time(record["added"], formats.system_tag(self.phone)),
                          resource_id=_id("list_item_date"), text_color=TEXT_SECONDARY, text_size=38, weight=1),
                text_view(f"{size_mb} Mb, M4a, 44.1kHz", resource_id=_id("list_item_info"),
                          text_color=TEXT_SECONDARY, text_size=38)),
            weight=1, padding=12)
        more = image_button("", "more", lambda: self._open_menu(record["_id"]), resource_id=_id("list_item_more"))
        return View(kind="row", class_name="android.widget.FrameLayout", resource_id=_id("container"),
                    children=[texts, more], padding=12)

    def _menu(self, content: View) -> View:
        """``menu_more`` as a popup (only Rename is simulated)."""
        item = View(kind="row", class_name="android.widget.LinearLayout", clickable=True, focusable=True,
                    on_click=self._rename, children=[text_view(RENAME, resource_id="android:id/title", padding=36,
                                                               weight=1)])
        panel = frame(column(item, width=560, background=WHITE), width=568, padding=4, background=(224, 224, 224),
                      gravity="center")
        return scrim_over(content, panel, self._close_menu)


class AudioRecorder(App):
    """``com.dimowner.audiorecorder``: its preferences, database, records folder and recording service."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_audio_recorder", (211, 47, 47)
    version_name, version_code = "0.9.26", 926  # android_gym/device/apps.toml
    screens = (MainScreen, WelcomeScreen, SetupScreen, RecordsScreen)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)
        self.database = RecordsDatabase(phone)
        self.recording: Recording | None = None

    # ----- preferences ------------------------------------------------------------------------------------------
    @property
    def first_run(self) -> bool:
        """``isFirstRun``: until setup is applied."""
        return bool(self.prefs.get(FIRST_RUN, True))

    @property
    def ask_rename(self) -> bool:
        """``isAskToRenameAfterStopRecording``."""
        return bool(self.prefs.get(ASK_RENAME, False))

    def set_ask_rename(self, ask: bool) -> None:
        """``setAskToRenameAfterStopRecording``."""
        self.prefs.apply({ASK_RENAME: ("boolean", ask)})

    def on_process_start(self) -> None:
        """The app's start creates its records folder as well (``FileRepositoryImpl``: ``getExternalFilesDir(
        DIRECTORY_MUSIC)/records``)."""
        super().on_process_start()
        self.phone.fs.makedirs(RECORDS_DIR)

    def bind_view(self) -> None:
        """``MainPresenter.bindView``: asking for a name is on unless chosen before; the app's records folder
        exists (``FileRepositoryImpl`` creates it)."""
        if self.prefs.get(ASK_RENAME, True) != self.prefs.get(ASK_RENAME, False):  # hasAskToRename…Setting()
            self.set_ask_rename(True)
        self.phone.fs.makedirs(RECORDS_DIR)

    def first_run_executed(self) -> None:
        """``PrefsImpl.firstRunExecuted``."""
        self.prefs.apply({FIRST_RUN: ("boolean", False), "is_store_dir_public": ("boolean", False),
                          "is_migrated": ("boolean", True), "pref_is_public_storage_migrated": ("boolean", True),
                          "is_show_directory_setting": ("boolean", False)})

    def active_record(self) -> dict[str, Any] | None:
        """The record the main screen shows (``active_record``), if it still exists."""
        return self.database.record(int(self.prefs.get(ACTIVE_RECORD, -1)))

    # ----- recording --------------------------------------------------------------------------------------------
    def start_recording(self) -> None:
        """``provideRecordFile`` + ``insertEmptyFile``: ``Record-<n>.m4a`` (``1`` prefixed while taken), an empty
        file and its row, which becomes the active record."""
        counter = int(self.prefs.get(RECORD_COUNTER, 0)) + 1
        self.prefs.apply({RECORD_COUNTER: ("long", counter)})
        fs, now = self.phone.fs, self.phone.clock.now_ms()
        fs.makedirs(RECORDS_DIR)
        file_name = f"{BASE_RECORD_NAME}{counter}.{FORMAT_M4A}"
        while fs.exists(posixpath.join(RECORDS_DIR, file_name)):
            file_name = "1" + file_name
        path = posixpath.join(RECORDS_DIR, file_name)
        fs.write_bytes(path, b"")
        record_id = self.database.insert_empty(file_name.removesuffix(f".{FORMAT_M4A}"), path, now)
        self.prefs.apply({ACTIVE_RECORD: ("long", record_id)})
        self.recording = Recording(record_id, path, running_since=now)

    def pause_or_resume(self) -> None:
        """``pauseUnpauseRecording`` while recording."""
        recording, now = self.recording, self.phone.clock.now_ms()
        assert recording is not None
        if recording.running_since is None:
            recording.running_since = now
        else:
            recording.recorded_ms, recording.running_since = recording.elapsed(now), None

    def stop_recording(self) -> dict[str, Any] | None:
        """Write the M4A and fill in the row (duration in microseconds, size); returns the row."""
        recording = self.recording
        if recording is None:
            return None
        self.recording = None
        duration = recording.elapsed(self.phone.clock.now_ms())
        data = mp4_file(duration, self.phone.clock.now())
        self.phone.fs.write_bytes(recording.path, data)
        self.database.update(recording.record_id, duration=duration * 1000, size=len(data), format=FORMAT_M4A)
        return self.database.record(recording.record_id)

    def rename(self, record_id: int, new_name: str) -> bool:
        """``renameRecord``: ":" becomes "_", the name is trimmed and gets the record's extension; an empty name,
        one with a path separator or a taken name leaves everything as it was."""
        name = new_name.replace(":", "_").strip()
        record = self.database.record(record_id)
        if record is None or not name or "/" in name or "\0" in name:
            return False
        fs = self.phone.fs
        target = posixpath.join(posixpath.dirname(record["path"]), f"{name}.{record['format']}")
        if fs.exists(target) or not fs.exists(record["path"]):
            return False
        source_host, target_host = fs.host_path(record["path"]), fs.host_path(target)
        with fs.device_writes(target_host.parent):
            os.replace(source_host, target_host)
        self.database.update(record_id, name=name, path=target)
        return True

    # ----- process lifecycle ------------------------------------------------------------------------------------
    def on_force_stop(self) -> None:
        """The process died: a recording in progress ends where it was (its file stays empty)."""
        self.recording = None
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: preferences and database are gone; the next start is a first run."""
        self.recording = None
        self.prefs.forget()
        self.database.ensure_db()
