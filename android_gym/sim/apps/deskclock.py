"""Clock (``com.google.android.deskclock``, Google's build of AOSP DeskClock): Alarm, Clock, Timer, Stopwatch tabs.

Google's app is closed source; it keeps AOSP DeskClock's class names (``com.android.deskclock.DeskClock``),
resource ids and strings, so those come from AOSP ``packages/apps/DeskClock`` as of its last Java release (read
in the LineageOS mirror at ``2bde468b2``, "Squashed AOSP changes before java app was removed"):
``res/layout/desk_clock.xml`` (``fab``, ``left_button``, ``right_button``, ``bottom_view``),
``timer_setup_time.xml``/``timer_setup_digits.xml``/``TimerSetupView.java`` (keypad, "00h 00m 00s", delete),
``timer_item.xml``/``TimerItem.java``/``TimerTextController.java``, ``stopwatch_fragment.xml``,
``stopwatch_time.xml``/``StopwatchTextController.java``, ``lap_view.xml``/``LapsAdapter.java``,
``alarm_clock.xml``/``alarm_time_collapsed.xml``/``CollapsedAlarmViewHolder.java``, ``main_clock_frame.xml``,
``res/values/strings.xml``, ``menu/bottom_navigation_menu.xml``, ``StopwatchFragment``/``TimerFragment``
(which buttons show in which state). The bottom bar is Material's ``NavigationBarItemView`` (content description
= title, the selected item shows its large label), as Google's app reports it; Google's app has no title text in
its toolbar (AndroidWorld's paused-stopwatch check counts exactly two "Stopwatch" nodes), so none is drawn.

State lives where AOSP keeps it, in device-protected storage (``createDeviceProtectedStorageContext``):

* stopwatch, laps, timers and the selected tab: the default SharedPreferences
  ``/data/user_de/0/<pkg>/shared_prefs/<pkg>_preferences.xml`` with ``StopwatchDAO``/``TimerDAO``/``TabDAO``
  keys. Like ``SharedPreferencesImpl``, the file is read once per process and written on every change, so an
  edit made from outside shows only after ``am force-stop``; the state survives force-stop, ``pm clear`` wipes it.
* alarms: ``/data/user_de/0/<pkg>/databases/alarms.db`` with ``ClockDatabaseHelper``'s version-8 schema
  (``alarm_templates``, ``alarm_instances``) and its two default alarms, created when the app first starts.
* the timer keypad's digits: view state of the activity, gone when the activity is destroyed.

Both ``SystemClock.elapsedRealtime`` (stopwatch and timer start times) and the wall clock are the phone's
virtual clock here. The "Add alarm" fab opens Material's time picker (``framework.time_picker``, as Google's app
shows it) at the time now; its OK adds an enabled one-time alarm. Not simulated: the toolbar's overflow menu
(settings, night mode), editing alarms (expanding an alarm), world clocks (the "Cities" fab is drawn but opens no
city list), timer labels,
swiping between several timers (the newest one is shown), a firing timer's "Time's up" screen and sound,
sharing laps, notifications and the AlarmClock intents (``SET_TIMER``, ``SET_ALARM``, ``SHOW_ALARMS``).
"""

from __future__ import annotations

import datetime as dt
import posixpath
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager, closing
from dataclasses import dataclass, replace

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.framework.time_picker import Theme, TimePicker, release_focus
from android_gym.sim.system.clock import MINUTE_MS
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import dialog_over
from android_gym.sim.ui.views import (
    DIVIDER,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    View,
    button,
    column,
    does_nothing,
    fab,
    row,
    switch,
    text_view,
)

PACKAGE = "com.google.android.deskclock"
ACTIVITY = "com.android.deskclock.DeskClock"
DE_DIR = f"/data/user_de/0/{PACKAGE}"
PREFS_PATH = f"{DE_DIR}/shared_prefs/{PACKAGE}_preferences.xml"
ALARMS_DB = f"{DE_DIR}/databases/alarms.db"

# res/values/strings.xml
APP_LABEL = "Clock"
TAB_LABELS = ("Alarm", "Clock", "Timer", "Stopwatch")  # menu_alarm, menu_clock, menu_timer, menu_stopwatch
CLOCKS = TAB_LABELS.index("Clock")  # the tabs are in UiDataModel.Tab order; TabDAO stores the ordinal
START, PAUSE, LAP, RESET = "Start", "Pause", "Lap", "Reset"  # sw_*_button, timer_start, timer_reset
STOP, DELETE, ADD_TIMER, CANCEL = "Stop", "Delete", "Add Timer", "Cancel"  # timer_stop, timer_delete, ...
ADD_MINUTE, ADD_MINUTE_DESCRIPTION, LABEL = "+ 1:00", "Add 1 Minute", "Label"
NO_ALARMS, DEFAULT_ALARM_LABEL, TODAY, TOMORROW, EVERY_DAY = "No Alarms", "Alarm", "Today", "Tomorrow", "Every day"
ADD_ALARM, CITIES = "Add alarm", "Cities"  # button_alarms, button_cities: the Alarm and Clock tabs' fab
#: ``Settings.System.DEFAULT_ALARM_ALERT_URI``: a new alarm's ringtone (``DataModel.getDefaultAlarmRingtoneUri``).
DEFAULT_ALARM_ALERT = "content://settings/system/alarm_alert"

# Stopwatch.State ordinals; Timer.State values; AlarmInstance states.
SW_RESET, SW_RUNNING, SW_PAUSED = 0, 1, 2
TIMER_RUNNING, TIMER_PAUSED, TIMER_EXPIRED, TIMER_RESET = 1, 2, 3, 4
SILENT_STATE, LOW_NOTIFICATION_STATE, HIGH_NOTIFICATION_STATE = 0, 1, 3
UNUSED = -(2 ** 63)  # Long.MIN_VALUE: Stopwatch.UNUSED / Timer.UNUSED
MAX_LAPS = 98  # StopwatchModel.canAddMoreLaps
MAX_TIMER_DIGITS = 6
SECOND, MINUTE, HOUR = 1000, 60_000, 3_600_000

_BOTTOM_NAV_HEIGHT = 210  # 80 dp at 420 dpi
_FAB_ROW_HEIGHT = 230  # fab_height + 2 × fab_margin
_TAB_ICONS = ("alarm", "clock", "timer", "stopwatch")
_SELECTED_TAB_BG = (232, 240, 254)
#: ``Utils.updateDate``'s skeletons: ``abbrev_wday_month_day_no_year`` and ``full_wday_month_day_no_year``.
_DATE_SKELETON, _DATE_DESCRIPTION_SKELETON = "EEEMMMd", "EEEEMMMMd"


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- stopwatch and timers ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stopwatch:
    """``data.Stopwatch``: state, last start (elapsed realtime and wall clock) and time accumulated before it."""

    state: int = SW_RESET
    last_start_time: int = UNUSED
    last_wall_clock_time: int = UNUSED
    accumulated_time: int = 0

    def total_time(self, now: int) -> int:
        """``getTotalTime``: accumulated time plus the running stretch."""
        if self.state != SW_RUNNING:
            return self.accumulated_time
        return self.accumulated_time + max(0, now - self.last_start_time)

    def start(self, now: int) -> Stopwatch:
        """``start``: running from ``now`` on top of the total so far."""
        if self.state == SW_RUNNING:
            return self
        return Stopwatch(SW_RUNNING, now, now, self.total_time(now))

    def pause(self, now: int) -> Stopwatch:
        """``pause``: keeps the total time."""
        if self.state != SW_RUNNING:
            return self
        return Stopwatch(SW_PAUSED, UNUSED, UNUSED, self.total_time(now))


@dataclass(frozen=True)
class Lap:
    """``data.Lap``: its 1-based number, its own time and the stopwatch total at its end."""

    number: int
    lap_time: int
    accumulated_time: int


@dataclass(frozen=True)
class Timer:
    """``data.Timer`` with ``TimerDAO``'s fields."""

    id: int
    state: int
    length: int
    total_length: int
    last_start_time: int
    last_wall_clock_time: int
    remaining_time: int
    label: str = ""
    delete_after_use: bool = False

    def remaining(self, now: int) -> int:
        """``getRemainingTime``: negative once expired."""
        if self.state in (TIMER_PAUSED, TIMER_RESET):
            return self.remaining_time
        return self.remaining_time - max(0, now - self.last_start_time)

    def start(self, now: int) -> Timer:
        """``start``."""
        if self.state not in (TIMER_PAUSED, TIMER_RESET):
            return self
        return replace(self, state=TIMER_RUNNING, last_start_time=now, last_wall_clock_time=now)

    def pause(self, now: int) -> Timer:
        """``pause`` a running timer."""
        if self.state != TIMER_RUNNING:
            return self
        return replace(self, state=TIMER_PAUSED, last_start_time=UNUSED, last_wall_clock_time=UNUSED,
                       remaining_time=self.remaining(now))

    def expire_at(self, when: int) -> Timer:
        """``expire`` as run by the alarm at ``when``, the moment the remaining time reached zero."""
        return replace(self, state=TIMER_EXPIRED, total_length=0, last_start_time=when,
                       last_wall_clock_time=when, remaining_time=0)

    def reset(self) -> Timer:
        """``reset``: back to the full length."""
        return replace(self, state=TIMER_RESET, total_length=self.length, last_start_time=UNUSED,
                       last_wall_clock_time=UNUSED, remaining_time=self.length)

    def add_minute(self, now: int) -> Timer:
        """``addMinute`` (running or expired timers): an expired timer restarts with one minute, a running one
        gets one more."""
        remaining = MINUTE if self.state == TIMER_EXPIRED else self.remaining_time + MINUTE
        timer = replace(self, total_length=self.total_length + remaining - self.remaining_time,
                        remaining_time=remaining)
        if self.state == TIMER_EXPIRED:
            timer = replace(timer, state=TIMER_RUNNING, last_start_time=now, last_wall_clock_time=now)
        return timer


class ClockModel:
    """The app's ``DataModel`` for what it keeps in SharedPreferences: the tab, the stopwatch, laps, timers."""

    def __init__(self, phone: Context) -> None:
        self._phone = phone
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    def now(self) -> int:
        """``elapsedRealtime``/``currentTimeMillis``: the phone's clock."""
        return self._phone.clock.now_ms()

    # TabDAO
    def selected_tab(self) -> int:
        """The selected tab; the Clock tab on a fresh install."""
        tab = self.prefs.get("selected_tab", CLOCKS)
        return tab if tab in range(len(TAB_LABELS)) else CLOCKS

    def select_tab(self, tab: int) -> None:
        """Remember the selected tab."""
        self.prefs.apply({"selected_tab": ("int", tab)})

    # StopwatchDAO
    def stopwatch(self) -> Stopwatch:
        """The stored stopwatch; a reset one if none is stored or its time is negative."""
        state = self.prefs.get("sw_state", SW_RESET)
        stopwatch = Stopwatch(state if state in (SW_RESET, SW_RUNNING, SW_PAUSED) else SW_RESET,
                              self.prefs.get("sw_start_time", UNUSED), self.prefs.get("sw_wall_clock_time", UNUSED),
                              self.prefs.get("sw_accum_time", 0))
        return stopwatch if stopwatch.total_time(self.now()) >= 0 else Stopwatch()

    def set_stopwatch(self, stopwatch: Stopwatch) -> None:
        """Store the stopwatch; a reset stopwatch removes its keys and clears the laps."""
        keys = ("sw_state", "sw_start_time", "sw_wall_clock_time", "sw_accum_time")
        if stopwatch.state == SW_RESET:
            lap_keys = tuple(f"sw_lap_time_{n}" for n in range(1, self._lap_count() + 1))
            self.prefs.apply({}, keys + ("sw_lap_num",) + lap_keys)
            return
        values = (stopwatch.state, stopwatch.last_start_time, stopwatch.last_wall_clock_time,
                  stopwatch.accumulated_time)
        self.prefs.apply({key: ("int" if key == "sw_state" else "long", value) for key, value in zip(keys, values)})

    def _lap_count(self) -> int:
        return max(0, min(self.prefs.get("sw_lap_num", 0), MAX_LAPS))

    def laps(self) -> list[Lap]:
        """Recorded laps, newest first."""
        laps, previous = [], 0
        for number in range(1, self._lap_count() + 1):
            accumulated = self.prefs.get(f"sw_lap_time_{number}", 0)
            laps.append(Lap(number, accumulated - previous, accumulated))
            previous = accumulated
        return laps[::-1]

    def add_lap(self) -> None:
        """``addLap``: only while running, at most ``MAX_LAPS``."""
        stopwatch, count = self.stopwatch(), len(self.laps())
        if stopwatch.state != SW_RUNNING or count >= MAX_LAPS:
            return
        self.prefs.apply({"sw_lap_num": ("int", count + 1),
                          f"sw_lap_time_{count + 1}": ("long", stopwatch.total_time(self.now()))})

    # TimerDAO
    def timers(self) -> list[Timer]:
        """Stored timers, newest first; a running timer whose time ran out is expired (``TimerModel``'s alarm)."""
        timers = []
        for key in self.prefs.get("timers_list", []):
            if not key.isdigit():
                continue
            timer = self._timer(int(key))
            if timer.state == TIMER_RUNNING and timer.remaining(self.now()) <= 0:
                timer = timer.expire_at(timer.last_start_time + timer.remaining_time)
                self.update_timer(timer)
            timers.append(timer)
        return sorted(timers, key=lambda timer: -timer.id)

    def _timer(self, timer_id: int) -> Timer:
        get = self.prefs.get
        total = get(f"timer_original_timet_{timer_id}", 0)
        state = get(f"timer_state_{timer_id}", TIMER_RESET)
        return Timer(timer_id, state if state in (TIMER_RUNNING, TIMER_PAUSED, TIMER_EXPIRED) else TIMER_RESET,
                     get(f"timer_setup_timet_{timer_id}", 0), total,
                     get(f"timer_start_time_{timer_id}", UNUSED), get(f"timer_wall_clock_time_{timer_id}", UNUSED),
                     get(f"timer_time_left_{timer_id}", total), get(f"timer_label_{timer_id}", ""),
                     get(f"delete_after_use_{timer_id}", False))

    def add_timer(self, length: int) -> Timer:
        """``addTimer(length, "", false)``: a reset timer with the next id."""
        timer_id = self.prefs.get("next_timer_id", 0)
        ids = sorted({*self.prefs.get("timers_list", []), str(timer_id)})
        timer = Timer(timer_id, TIMER_RESET, length, length, UNUSED, UNUSED, length)
        self.prefs.apply({"next_timer_id": ("int", timer_id + 1), "timers_list": ("set", ids)})
        self.update_timer(timer)
        return timer

    def update_timer(self, timer: Timer) -> None:
        """Store a timer's fields."""
        n = timer.id
        self.prefs.apply({
            f"timer_state_{n}": ("int", timer.state), f"timer_setup_timet_{n}": ("long", timer.length),
            f"timer_original_timet_{n}": ("long", timer.total_length),
            f"timer_start_time_{n}": ("long", timer.last_start_time),
            f"timer_wall_clock_time_{n}": ("long", timer.last_wall_clock_time),
            f"timer_time_left_{n}": ("long", timer.remaining_time), f"timer_label_{n}": ("string", timer.label),
            f"delete_after_use_{n}": ("boolean", timer.delete_after_use)})

    def remove_timer(self, timer: Timer) -> None:
        """Remove a timer; removing the last one also drops the id counter."""
        n = timer.id
        ids = [key for key in self.prefs.get("timers_list", []) if key != str(n)]
        fields = tuple(f"{prefix}{n}" for prefix in (
            "timer_state_", "timer_setup_timet_", "timer_original_timet_", "timer_start_time_",
            "timer_wall_clock_time_", "timer_time_left_", "timer_label_", "delete_after_use_"))
        if ids:
            self.prefs.apply({"timers_list": ("set", ids)}, fields)
        else:
            self.prefs.apply({}, fields + ("timers_list", "next_timer_id"))


def toggle_timer(timer: Timer, now: int) -> Timer | None:
    """``TimerFragment.onFabClick``: pause a running timer, start a paused or reset one, stop an expired one
    (``resetOrDeleteTimer``: ``None`` when it is to be deleted)."""
    if timer.state == TIMER_RUNNING:
        return timer.pause(now)
    if timer.state == TIMER_EXPIRED:
        return None if timer.delete_after_use else timer.reset()
    return timer.start(now)


# ----- alarms ------------------------------------------------------------------------------------------------------
_ALARMS_SCHEMA = (  # ClockDatabaseHelper, VERSION_8
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    "CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY,hour INTEGER NOT NULL, minutes INTEGER NOT NULL, "
    "daysofweek INTEGER NOT NULL, enabled INTEGER NOT NULL, vibrate INTEGER NOT NULL, label TEXT NOT NULL, "
    "ringtone TEXT, delete_after_use INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE alarm_instances (_id INTEGER PRIMARY KEY,year INTEGER NOT NULL, month INTEGER NOT NULL, "
    "day INTEGER NOT NULL, hour INTEGER NOT NULL, minutes INTEGER NOT NULL, vibrate INTEGER NOT NULL, "
    "label TEXT NOT NULL, ringtone TEXT, alarm_state INTEGER NOT NULL, alarm_id INTEGER REFERENCES "
    "alarm_templates(_id) ON UPDATE CASCADE ON DELETE CASCADE)",
    # The default alarms: 8:30 Mon–Fri and 9:00 Sat, Sun, off, vibrating.
    "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use) "
    "VALUES (8, 30, 31, 0, 1, '', NULL, 0)",
    "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use) "
    "VALUES (9, 00, 96, 0, 1, '', NULL, 0)",
    "PRAGMA user_version = 8",
)


class AlarmStore:
    """``ClockProvider`` over ``alarms.db``: read on every query, so changes made from outside show at once."""

    def __init__(self, phone: Context) -> None:
        self._phone = phone

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self._phone.fs.host_path(ALARMS_DB), timeout=5)
        db.row_factory = sqlite3.Row
        return db

    def ensure_db(self) -> None:
        """``SQLiteOpenHelper.onCreate`` on first use: the tables and the default alarms (WAL, as Android's
        compatibility WAL opens app databases)."""
        if self._phone.fs.exists(ALARMS_DB):
            return
        self._phone.fs.makedirs(posixpath.dirname(ALARMS_DB))
        host = self._phone.fs.host_path(ALARMS_DB)
        with self._phone.fs.device_writes(host, host.parent), closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            for statement in _ALARMS_SCHEMA:
                db.execute(statement)
            db.commit()

    def alarms(self) -> list[sqlite3.Row]:
        """``alarm_templates`` in the list's order (``hour, minutes, _id``). A read writes too: the WAL database's
        ``-wal`` and ``-shm`` are made and removed around it, which changes their folder."""
        self.ensure_db()
        with self._writing(), closing(self._connect()) as db:
            return db.execute("SELECT * FROM alarm_templates ORDER BY hour, minutes, _id").fetchall()

    def _writing(self) -> AbstractContextManager:
        """The database's files written by the phone."""
        host = self._phone.fs.host_path(ALARMS_DB)
        return self._phone.fs.device_writes(host, host.with_name(host.name + "-wal"),
                                            host.with_name(host.name + "-shm"), host.parent)

    def set_enabled(self, alarm: sqlite3.Row, enabled: bool, now: dt.datetime) -> None:
        """``AlarmUpdateHandler.asyncUpdateAlarm``: update the alarm, drop its instances, and for an enabled
        alarm register the next instance."""
        with self._writing(), closing(self._connect()) as db, db:
            db.execute("UPDATE alarm_templates SET enabled=? WHERE _id=?", (int(enabled), alarm["_id"]))
            db.execute("DELETE FROM alarm_instances WHERE alarm_id=?", (alarm["_id"],))
            if enabled:
                _register_instance(db, alarm["_id"], now)

    def add(self, hour: int, minutes: int, now: dt.datetime) -> None:
        """``AlarmClockFragment.onTimeSet`` then ``AlarmUpdateHandler.asyncAddAlarm``: a new ``Alarm`` at
        ``hour:minutes``, enabled, vibrating, unlabelled, not repeating, ringing the default alarm sound, and its
        next instance."""
        self.ensure_db()
        with self._writing(), closing(self._connect()) as db, db:
            alarm_id = db.execute(
                "INSERT INTO alarm_templates (hour, minutes, daysofweek, enabled, vibrate, label, ringtone, "
                "delete_after_use) VALUES (?, ?, 0, 1, 1, '', ?, 0)", (hour, minutes, DEFAULT_ALARM_ALERT)).lastrowid
            _register_instance(db, alarm_id, now)


def _register_instance(db: sqlite3.Connection, alarm_id: int, now: dt.datetime) -> None:
    """``Alarm.createInstanceAfter`` and ``AlarmStateManager.registerInstance``: the alarm's next instance, in the
    state its distance from ``now`` gives it."""
    alarm = db.execute("SELECT * FROM alarm_templates WHERE _id=?", (alarm_id,)).fetchone()
    when = next_alarm_time(alarm["hour"], alarm["minutes"], alarm["daysofweek"], now)
    if now > when - dt.timedelta(minutes=30):
        state = HIGH_NOTIFICATION_STATE
    elif now > when - dt.timedelta(hours=2):
        state = LOW_NOTIFICATION_STATE
    else:
        state = SILENT_STATE
    db.execute("INSERT INTO alarm_instances (year, month, day, hour, minutes, vibrate, label, ringtone, "
               "alarm_state, alarm_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               (when.year, when.month - 1, when.day, when.hour, when.minute, alarm["vibrate"],
                alarm["label"], alarm["ringtone"], state, alarm_id))


def next_alarm_time(hour: int, minutes: int, days: int, now: dt.datetime) -> dt.datetime:
    """``Alarm.getNextAlarmTime``: the first ``hour:minutes`` after ``now`` on a repeat day (any day if none)."""
    when = now.replace(hour=hour, minute=minutes, second=0, microsecond=0)
    if when <= now:
        when += dt.timedelta(days=1)
    if days & 0x7F:
        while not days & (1 << when.weekday()):  # Weekdays bits: Monday 0x01 … Sunday 0x40
            when += dt.timedelta(days=1)
    return when


# ----- formatting -------------------------------------------------------------------------------------------------
def _plural(count: int, unit: str) -> str:
    """``plurals/hours|minutes|seconds`` in English."""
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def timer_setup_text(digits: str) -> tuple[str, str]:
    """``TimerSetupView.updateTime``: the display ("01h 02m 03s") and its description ("1 hour, 2 minutes,
    3 seconds") for the typed digits, which fill from the right."""
    padded = digits.rjust(MAX_TIMER_DIGITS, "0")
    hours, minutes, seconds = int(padded[:2]), int(padded[2:4]), int(padded[4:])
    return (f"{hours:02d}h {minutes:02d}m {seconds:02d}s",
            f"{_plural(hours, 'hour')}, {_plural(minutes, 'minute')}, {_plural(seconds, 'second')}")


def _split(ms: int) -> tuple[int, int, int, int]:
    return ms // HOUR, ms % HOUR // MINUTE, ms % MINUTE // SECOND, ms % SECOND


def time_string(hours: int, minutes: int, seconds: int) -> str:
    """``Utils.getTimeString``: "2:03:44", "3:44" or "44"."""
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}" if minutes else str(seconds)


def stopwatch_text(total: int) -> tuple[str, str]:
    """``StopwatchTextController``: the main text and the hundredths."""
    hours, minutes, seconds, millis = _split(max(total, 0))
    return time_string(hours, minutes, seconds), f"{millis // 10:02d}"


def timer_text(remaining: int) -> str:
    """``TimerTextController``: remaining time rounded up to the second, "−" once expired."""
    negative = remaining < 0
    remaining = abs(remaining)
    if not negative and remaining % SECOND:
        remaining += SECOND - remaining % SECOND
    hours, minutes, seconds, _ = _split(remaining)
    text = time_string(hours, minutes, seconds)
    return "\u2212" + text if negative and remaining >= SECOND else text


def lap_time_text(max_time: int, time: int) -> str:
    """``LapsAdapter.formatTime`` with its ``LRM_SPACE`` separator; ``max_time`` picks the width."""
    hours, minutes, seconds, millis = _split(max(time, 0))
    sep = "\u200e "
    if max_time < 10 * MINUTE:
        head = f"{minutes}"
    elif max_time < HOUR:
        head = f"{minutes:02d}"
    else:
        width = 1 if max_time < 10 * HOUR else 2 if max_time < 100 * HOUR else 3
        head = f"{hours:0{width}d}{sep}{minutes:02d}"
    return f"{head}{sep}{seconds:02d}.{millis // 10:02d}"


def clock_time(hour: int, minute: int, is24: bool, tag: str) -> str:
    """``TextTime``/``TextClock``: the skeleton "Hm" (24-hour) or "hma" in the locale ``tag``: "15:34" or
    "3:34 PM" in en-US."""
    return formats.format_time(dt.datetime(2000, 1, 1, hour, minute), is24, tag)


def weekdays_text(days: int, tag: str, long_names: bool = False) -> str:
    """``Weekdays.toString`` in the locale's week order (``Calendar.getFirstDayOfWeek``: Sunday first in en-US):
    short names ("Mon, Tue") for several days, long ones for one, "Every day" for all."""
    if days & 0x7F == 0x7F:
        return EVERY_DAY
    chosen = [day for day in formats.week_order(tag) if days & (1 << day)]
    pattern = "EEEE" if long_names or len(chosen) <= 1 else "EEE"
    return ", ".join(formats.weekday_name(day, tag, pattern) for day in chosen)


# ----- the activity ------------------------------------------------------------------------------------------------
class DeskClockScreen(Screen):
    """``DeskClock``: the selected tab's page, the fab with its left and right buttons, the bottom navigation."""

    activity = ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.timer_digits = ""  # TimerSetupView.mInput, as the typed digits
        self.creating_timer = False  # TimerFragment shows the setup page although timers exist
        self.time_picker: TimePicker | None = None  # the new alarm's, while it is open
        self.clock.model.prefs.load()  # DataModel reads the preferences as the process starts
        self.clock.alarms.ensure_db()

    @property
    def clock(self) -> DeskClock:
        """The app and its data."""
        assert isinstance(self.app, DeskClock)
        return self.app

    def build(self) -> View:
        tab = self.clock.model.selected_tab()
        page, buttons = (self._alarm_page, self._clock_page, self._timer_page, self._stopwatch_page)[tab]()
        page.gravity = "fill"
        content = View(kind="frame", class_name="android.view.ViewGroup", resource_id=_id("content"), weight=1,
                       children=[View(kind="frame", class_name="android.widget.FrameLayout", gravity="fill",
                                      resource_id=_id("fragment_container"), children=[page]),
                                 self._fab_row(*buttons)])
        screen = column(content, self._bottom_navigation(tab))
        if self.time_picker is None:
            return screen
        return dialog_over(screen, self.time_picker.view(Theme.of(self, PRIMARY)), self._close_time_picker)

    def on_back(self) -> bool:
        """BACK cancels the time picker."""
        if self.time_picker is None:
            return False
        self._close_time_picker()
        return True

    # chrome
    def _bottom_navigation(self, selected: int) -> View:
        items = []
        for tab, label in enumerate(TAB_LABELS):
            chosen = tab == selected
            label_view = text_view(label, text_size=36 if chosen else 34, bold=chosen, padding=4,
                                   text_color=PRIMARY if chosen else TEXT_SECONDARY,
                                   resource_id=_id("navigation_bar_item_large_label_view" if chosen
                                                   else "navigation_bar_item_small_label_view"))
            icon = View(kind="icon", class_name="android.widget.ImageView", hint=_TAB_ICONS[tab], width=168,
                        height=84, corner=42, gravity="center_horizontal",  # Material 3's 64 x 32 dp indicator pill
                        resource_id=_id("navigation_bar_item_icon_view"),
                        text_color=PRIMARY if chosen else TEXT_SECONDARY,
                        background=_SELECTED_TAB_BG if chosen else None)
            items.append(View(kind="column", class_name="android.widget.FrameLayout", content_desc=label,
                              clickable=True, focusable=True, selected=chosen, weight=1, padding=18,
                              on_click=lambda tab=tab: self._select(tab),
                              children=[icon, row(View(weight=1), label_view, View(weight=1))]))
        menu = View(kind="row", class_name="android.view.ViewGroup", children=items, height=_BOTTOM_NAV_HEIGHT)
        return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("bottom_view"),
                    background=(243, 246, 252), children=[menu], height=_BOTTOM_NAV_HEIGHT)

    def _select(self, tab: int) -> None:
        if tab != self.clock.model.selected_tab():
            self.clock.model.select_tab(tab)

    def _fab_row(self, fab_view: View | None, left: View | None, right: View | None) -> View:
        """The fab between the left and right buttons (``null`` ones are INVISIBLE: kept out of the tree)."""
        def side(view: View | None) -> View:
            children = [View(weight=1), view, View(weight=1)] if view is not None else []
            return View(kind="row", class_name="android.widget.FrameLayout", weight=1, children=children)

        middle = fab_view if fab_view is not None else View(width=168)
        return row(side(left), middle, side(right), gravity="bottom", height=_FAB_ROW_HEIGHT, padding=31)

    @staticmethod
    def _fab(description: str, icon: str, on_click) -> View:
        return fab(description, icon, on_click, resource_id=_id("fab"), gravity="top", margin=0)

    @staticmethod
    def _side_button(name: str, label: str, on_click, description: str | None = None) -> View:
        return button(label, on_click, resource_id=_id(name), content_desc=label if description is None
                      else description, background=None, text_color=PRIMARY, text_size=44, height=126)

    # Alarm tab
    def _alarm_page(self) -> tuple[View, tuple[View | None, View | None, View | None]]:
        alarms = self.clock.alarms.alarms()
        if not alarms:
            page = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("main"), children=[
                text_view(NO_ALARMS, resource_id=_id("alarms_empty_view"), gravity="center", text_size=48,
                          text_color=TEXT_SECONDARY, width=400)])
        else:
            page = View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="alarms",
                        resource_id=_id("alarms_recycler_view"), scrollable=True, focusable=True,
                        padding=0, children=[*map(self._alarm_item, alarms), View(height=_FAB_ROW_HEIGHT)])
        return page, (self._fab(ADD_ALARM, "plus", self._create_alarm), None, None)  # AlarmClockFragment.onUpdateFab

    def _create_alarm(self) -> None:
        """``AlarmClockFragment.startCreatingAlarm``: the time picker, at the time now, in the phone's 12- or 24-hour
        format; its OK adds the alarm."""
        now = self.phone.clock.now(MINUTE_MS)
        self.time_picker = TimePicker(self, PACKAGE, now.hour, now.minute, formats.phone_is_24_hour(self.phone),
                                      self._add_alarm, self._close_time_picker)

    def _add_alarm(self, hour: int, minute: int) -> None:
        self.clock.alarms.add(hour, minute, self.phone.clock.now())

    def _close_time_picker(self) -> None:
        self.time_picker = None
        release_focus(self)

    def _alarm_item(self, alarm: sqlite3.Row) -> View:
        now, tag = self.phone.clock.now(MINUTE_MS), formats.system_tag(self.phone)  # isTomorrow: hour, minute
        time = clock_time(alarm["hour"], alarm["minutes"], formats.phone_is_24_hour(self.phone), tag)
        enabled = bool(alarm["enabled"])
        summary = [View(kind="text", class_name="android.widget.TextView", text=time, text_size=110,
                        resource_id=_id("digital_clock"), padding=8,
                        text_color=TEXT if enabled else TEXT_SECONDARY),
                   View(weight=1),
                   switch("", enabled,
                          lambda: self.clock.alarms.set_enabled(alarm, not enabled, self.phone.clock.now()),
                          resource_id=_id("onoff"), width=200)]
        lines = [row(*summary)]
        if alarm["label"]:
            lines.append(text_view(alarm["label"], resource_id=_id("label"), text_size=40,
                                   content_desc=f"{LABEL} {alarm['label']}"))
        days = alarm["daysofweek"]
        if days & 0x7F:
            lines.append(text_view(weekdays_text(days, tag), resource_id=_id("days_of_week"), text_size=40,
                                   text_color=TEXT_SECONDARY, content_desc=weekdays_text(days, tag, long_names=True)))
        else:
            tomorrow = (alarm["hour"], alarm["minutes"]) <= (now.hour, now.minute)  # Alarm.isTomorrow
            lines.append(text_view(TOMORROW if tomorrow else TODAY, resource_id=_id("upcoming_instance_label"),
                                   text_size=40, text_color=TEXT_SECONDARY))
        lines.append(View(kind="view", class_name="android.view.View", resource_id=_id("hairline"), height=2,
                          background=DIVIDER))
        return View(kind="column", class_name="android.widget.LinearLayout", padding=32,
                    content_desc=f"{time} {alarm['label'] or DEFAULT_ALARM_LABEL}", children=lines)

    # Clock tab
    def _clock_page(self) -> tuple[View, tuple[View | None, View | None, View | None]]:
        now, tag = self.phone.clock.now(MINUTE_MS), formats.system_tag(self.phone)  # hours, minutes, the date
        time = clock_time(now.hour, now.minute, formats.phone_is_24_hour(self.phone), tag)
        frame = column(
            View(height=120),
            View(kind="text", class_name="android.widget.TextView", text=time,
                 resource_id=_id("digital_clock"), text_size=200, padding=12, gravity="center"),
            text_view(formats.format_skeleton(now, _DATE_SKELETON, tag), resource_id=_id("date"), text_size=44,
                      text_color=TEXT_SECONDARY,
                      content_desc=formats.format_skeleton(now, _DATE_DESCRIPTION_SKELETON, tag)),
            View(kind="view", class_name="android.view.View", resource_id=_id("hairline"), height=2,
                 background=DIVIDER))
        centered = row(View(weight=1), frame, View(weight=1))
        page = View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="cities",
                    resource_id=_id("cities"), scrollable=True, focusable=True, children=[centered])
        return page, (self._fab(CITIES, "globe", does_nothing), None, None)  # ClockFragment.onUpdateFab: ic_public

    # Timer tab
    def _timer_page(self) -> tuple[View, tuple[View | None, View | None, View | None]]:
        timers = self.clock.model.timers()
        if self.creating_timer or not timers:
            return self._timer_setup(bool(timers))
        timer, now = timers[0], self.clock.model.now()
        toggle = self._change_timer(toggle_timer)
        reset_add = (self._side_button("reset_add", RESET, self._change_timer(lambda t, _: t.reset()), "")
                     if timer.state in (TIMER_RESET, TIMER_PAUSED) else
                     self._side_button("reset_add", ADD_MINUTE, self._change_timer(Timer.add_minute),
                                       ADD_MINUTE_DESCRIPTION))
        item = View(kind="column", class_name="android.widget.LinearLayout", weight=1, children=[
            View(height=200),
            row(View(weight=1), View(kind="button", class_name="android.widget.Button", text=LABEL, hint=LABEL,
                                     resource_id=_id("timer_label"), text_color=TEXT_SECONDARY, padding=24),
                View(weight=1)),
            row(reset_add, View(kind="text", class_name="android.widget.TextView", resource_id=_id("timer_time_text"),
                                text=timer_text(timer.remaining(now)), text_size=180, weight=1, padding=20,
                                clickable=timer.state != TIMER_EXPIRED, on_click=toggle),
                View(width=160))])
        pager = View(kind="column", class_name="androidx.viewpager.widget.ViewPager",
                     resource_id=_id("vertical_view_pager"), children=[item], padding=0)
        if timer.state == TIMER_RUNNING:
            action = self._fab(STOP, "pause", toggle)
        elif timer.state == TIMER_EXPIRED:
            action = self._fab(STOP, "stop", toggle)
        else:
            action = self._fab(START, "play", toggle)
        page = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("timer_view"),
                    children=[pager])
        return page, (action, self._side_button("left_button", DELETE, self._change_timer(lambda t, _: None)),
                      self._side_button("right_button", ADD_TIMER, self._add_timer))

    def _timer_setup(self, has_timers: bool) -> tuple[View, tuple[View | None, View | None, View | None]]:
        display, description = timer_setup_text(self.timer_digits)
        has_input = bool(self.timer_digits)
        delete = View(kind="icon", class_name="android.widget.ImageButton", resource_id=_id("timer_setup_delete"),
                      content_desc=f"{DELETE} {self.timer_digits[-1]}" if has_input else DELETE, hint="backspace",
                      clickable=True, focusable=True, long_clickable=True, enabled=has_input, width=140, height=140,
                      text_color=TEXT if has_input else DIVIDER, on_click=self._delete_digit,
                      on_long_click=self._clear_digits)
        time = View(kind="text", class_name="android.widget.TextView", text=display, content_desc=description,
                    resource_id=_id("timer_setup_time"), text_size=120, text_color=PRIMARY if has_input else TEXT)
        time_row = row(View(weight=1), row(time, delete), View(weight=1), height=240)
        divider = View(kind="view", class_name="android.view.View", resource_id=_id("timer_setup_divider"), height=4,
                       background=PRIMARY if has_input else DIVIDER)
        keypad = [[self._digit(d) for d in keys] for keys in ((1, 2, 3), (4, 5, 6), (7, 8, 9))]
        keypad.append([View(weight=1), self._digit(0), View(weight=1)])
        grid = View(kind="column", class_name="android.view.ViewGroup", weight=1, padding=40,
                    children=[row(*keys, weight=1) for keys in keypad])
        setup = View(kind="column", class_name="android.widget.LinearLayout", resource_id=_id("timer_setup"),
                     children=[time_row, divider, grid, View(height=_FAB_ROW_HEIGHT)])
        action = self._fab(START, "play", self._create_timer) if has_input else None
        cancel = self._side_button("left_button", CANCEL, self._cancel_setup) if has_timers else None
        return setup, (action, cancel, None)

    def _digit(self, digit: int) -> View:
        return button(str(digit), lambda: self._append_digit(digit), resource_id=_id(f"timer_setup_digit_{digit}"),
                      weight=1, height=None, background=None, text_color=TEXT, text_size=84, padding=0)

    def _append_digit(self, digit: int) -> None:
        """``TimerSetupView.append``: a leading 0 is ignored, and so is a seventh digit."""
        if (digit or self.timer_digits) and len(self.timer_digits) < MAX_TIMER_DIGITS:
            self.timer_digits += str(digit)

    def _delete_digit(self) -> None:
        self.timer_digits = self.timer_digits[:-1]

    def _clear_digits(self) -> None:
        self.timer_digits = ""

    def _create_timer(self) -> None:
        """The fab on the setup page: add the timer, start it, show it."""
        padded = self.timer_digits.rjust(MAX_TIMER_DIGITS, "0")
        length = int(padded[:2]) * HOUR + int(padded[2:4]) * MINUTE + int(padded[4:]) * SECOND
        model = self.clock.model
        model.update_timer(model.add_timer(length).start(model.now()))
        self.timer_digits, self.creating_timer = "", False

    def _cancel_setup(self) -> None:
        self.timer_digits, self.creating_timer = "", False

    def _add_timer(self) -> None:
        self.creating_timer = True

    def _change_timer(self, change: Callable[[Timer, int], Timer | None]) -> Callable[[], None]:
        """A click handler that applies ``change(timer, now)`` to the shown timer as it is at the click
        (``None`` deletes it)."""
        def handler() -> None:
            model = self.clock.model
            timers = model.timers()
            if not timers:
                return
            changed = change(timers[0], model.now())
            if changed is None:
                model.remove_timer(timers[0])
            else:
                model.update_timer(changed)
        return handler

    # Stopwatch tab
    def _stopwatch_page(self) -> tuple[View, tuple[View | None, View | None, View | None]]:
        model = self.clock.model
        stopwatch, laps, now = model.stopwatch(), model.laps(), model.now()
        total = stopwatch.total_time(now)
        main, hundredths = stopwatch_text(total)
        time = [View(weight=1),
                View(kind="text", class_name="android.widget.TextView", text=main, text_size=170,
                     resource_id=_id("stopwatch_time_text"), padding=8),
                View(kind="text", class_name="android.widget.TextView", text=hundredths, text_size=80,
                     resource_id=_id("stopwatch_hundredths_text"), padding=8),
                View(weight=1)]
        wrapper = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("stopwatch_time_wrapper"),
                       clickable=True, focusable=True, width=760, height=760, on_click=self._toggle_stopwatch,
                       children=[View(kind="view", class_name="android.view.View", resource_id=_id("stopwatch_circle"),
                                      gravity="fill"),
                                 View(kind="row", class_name="android.widget.LinearLayout", gravity="center",
                                      children=time)])
        children = [row(View(weight=1), wrapper, View(weight=1), height=820)]
        if laps:
            children.append(self._laps_list(laps, total))
        page = View(kind="column", class_name="android.widget.LinearLayout", children=children)
        if stopwatch.state == SW_RUNNING:
            action = self._fab(PAUSE, "pause", lambda: model.set_stopwatch(model.stopwatch().pause(model.now())))
            right = (self._side_button("right_button", LAP, model.add_lap) if len(laps) < MAX_LAPS else None)
        else:
            action = self._fab(START, "play", lambda: model.set_stopwatch(model.stopwatch().start(model.now())))
            right = None  # "Share" when paused: sharing is not simulated
        left = (self._side_button("left_button", RESET, lambda: model.set_stopwatch(Stopwatch()))
                if stopwatch.state != SW_RESET else None)
        return page, (action, left, right)

    def _toggle_stopwatch(self) -> None:
        """``TimeClickListener``: tapping the time starts or pauses the stopwatch."""
        model = self.clock.model
        stopwatch = model.stopwatch()
        model.set_stopwatch(stopwatch.pause(model.now()) if stopwatch.state == SW_RUNNING
                            else stopwatch.start(model.now()))

    def _laps_list(self, laps: list[Lap], total: int) -> View:
        """``LapsAdapter``: the current lap first, then the recorded ones, newest first."""
        current = Lap(len(laps) + 1, total - laps[0].accumulated_time, total)
        longest_lap = max(lap.lap_time for lap in (current, *laps))
        items = []
        for lap in (current, *laps):
            number = f"# {lap.number:02d}" if len(laps) + 1 >= 10 else f"# {lap.number}"
            items.append(row(
                View(weight=1),
                text_view(number, resource_id=_id("lap_number"), text_size=40, text_color=TEXT_SECONDARY),
                text_view(lap_time_text(longest_lap, lap.lap_time), resource_id=_id("lap_time"), text_size=44),
                text_view(lap_time_text(total, lap.accumulated_time), resource_id=_id("lap_total"), text_size=44),
                View(weight=1), spacing=40))
        return View(kind="list", class_name="androidx.recyclerview.widget.RecyclerView", key="laps_list",
                    resource_id=_id("laps_list"), scrollable=True, focusable=True, weight=1,
                    children=[*items, View(height=_FAB_ROW_HEIGHT)])


class DeskClock(App):
    """``com.google.android.deskclock``; its launcher activity is ``com.android.deskclock.DeskClock``."""

    package = PACKAGE
    night_colors = MATERIAL_YOU_NIGHT  # the Clock follows the system theme (Material You)
    label = APP_LABEL
    icon, icon_color = "app_clock", (66, 133, 244)
    screens = (DeskClockScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        phone.fs.makedirs(DE_DIR)
        self.model = ClockModel(phone)
        self.alarms = AlarmStore(phone)

    def on_force_stop(self) -> None:
        """The process dies: its in-memory preferences go (the file stays)."""
        self.model.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear`` wipes device-protected storage too (preferences, ``alarms.db``)."""
        self.phone.fs.clear_dir(DE_DIR)
        self.model.prefs.forget()

