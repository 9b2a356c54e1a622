"""OpenTracks v4.11.3 (``de.dennisguse.opentracks``, versionCode 5705, the build AndroidWorld installs): the track
list, a track's statistics and the track editor, on the app's own SQLite database.

Facts come from github.com/OpenTracksApp/OpenTracks at the commit that set versionCode 5705 (``4c204b6bd``,
"Release: v4.11.3"): ``CustomSQLiteOpenHelper`` (``database.db``, version 37; ``onCreate`` creates
``trackpoints``, ``tracks`` and ``markers`` with their indexes from ``TrackPointsColumns``, ``TracksColumns`` and
``MarkerColumns``), ``ContentProviderUtils`` (``searchTracks``: newest ``starttime`` first; ``createTrack``, and
``updateTrack``, which writes every column with the speeds recomputed from distance and times), the layouts
``track_list.xml``, ``track_list_item.xml``, ``track_recorded.xml``, ``statistics_recorded.xml``,
``bottomappbar.xml``, ``track_edit.xml`` and ``track_edit_fields.xml``, the menus ``track_list.xml`` and
``track_detail.xml``, ``res/values/strings.xml`` and ``do_not_translate.xml``, ``type.xml`` (all-caps stat
headers), and the code of ``TrackListActivity``, ``TrackListAdapter`` and ``ListItemUtils`` (a row: the activity
type's icon described as "Track", the name, "<time> (<distance>)", the date relative to today and the time
"HH:mm", the description), ``TrackRecordedActivity`` (tabs Stats, Intervals, By time, By distance; the bottom app
bar with the detail menu), ``StatisticsRecordedFragment`` (the activity type shown only as its icon),
``TrackEditActivity`` and ``TrackUtils.updateTrack`` (the activity type is saved as typed, its id found by its
localized name, the first match in ``ActivityType``'s order), ``ActivityType``, ``StringUtils``
(``formatElapsedTime``: "MM:SS" or "H:MM:SS"; ``formatDecimal``: HALF_EVEN with grouping;
``formatDateTodayRelative``), ``DistanceFormatter`` (two decimals; miles above 0.5 mi, else feet), ``SpeedFormatter``
(one decimal, or a pace "m:ss" for activity types that prefer it), ``Distance`` (1 mi = 1609.344 m), and
``Startup``/``PreferencesUtils.applyDefaultUnit`` (the first start in the en-US locale stores ``statsUnits`` =
IMPERIAL; any other locale METRIC).

The database exists from install and the unit preference is set, as AndroidWorld's setup has opened the app once.
Screens read the database on every build, so rows a task writes from outside show up at once.

Not simulated: recording (the record button, the GPS button and "Resume track" do nothing; no trackpoints are
written), search, the aggregated statistics, markers, sharing, the map, deleting, settings and help (their buttons
and menu items do nothing), multi-selection, the Intervals and chart tabs (empty), the activity type
suggestions' drop-down and the activity type chooser dialog behind the editor's icon (the type is typed), the
enter transition, the introduction shown on a first start (AndroidWorld's setup passed it) and a track's time zone
offset other than the device's (times are shown in the device's zone).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import numpy as np

from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_3_DAY, MATERIAL_3_NIGHT
from android_gym.sim.system.clock import DAY_MS
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import MATERIAL_3_MENU, popup_menu
from android_gym.sim.ui.views import (
    DIVIDER,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    Color,
    Role,
    View,
    column,
    does_nothing,
    edit_text,
    outlined_field,
    over,
    row,
    scroll_list,
    side_margins,
    text_view,
)

PACKAGE = "de.dennisguse.opentracks"
LIST_ACTIVITY = f"{PACKAGE}.TrackListActivity"
RECORDED_ACTIVITY = f"{PACKAGE}.TrackRecordedActivity"
EDIT_ACTIVITY = f"{PACKAGE}.TrackEditActivity"
DB_PATH = f"/data/data/{PACKAGE}/databases/database.db"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/{PACKAGE}_preferences.xml"
DATABASE_VERSION = 37  # CustomSQLiteOpenHelper.DATABASE_VERSION
EXTRA_TRACK_ID = "track_id"

# strings.xml, do_not_translate.xml, and AppCompat's strings for the toolbars' buttons.
APP_NAME = "OpenTracks"
TRACK, RECORD, MARKER_COUNT = "Track", "Record", "Marker count"  # image_track, image_record, image_marker_count
EMPTY_MESSAGE = "Start recording your next adventure here"
SEARCH, MARKERS, SETTINGS, HELP = "Search", "Markers", "Settings", "Help"
SHOW_ON_MAP, SHARE, EDIT, DELETE, RESUME_TRACK = "Show on map", "Share", "Edit", "Delete", "Resume track"
MORE_OPTIONS, NAVIGATE_UP = "More options", "Navigate up"
TABS = ("Stats", "Intervals", "By time", "By distance")
TODAY, YESTERDAY = "Today", "Yesterday"
NAME_HINT, ACTIVITY_TYPE_HINT, DESCRIPTION_HINT = "Name", "Activity type", "Description"
CANCEL, SAVE = "Cancel", "Save"
DISTANCE, MOVING_TIME, TOTAL_TIME, GAIN, LOSS = "Distance", "Moving time", "Total time", "Gain", "Loss"
MAX_SPEED, FASTEST_PACE = "Max speed", "Fastest pace"
AVG_MOVING_SPEED, AVG_MOVING_PACE = "Avg moving speed", "Avg moving pace"
AVG_SPEED, AVG_PACE = "Avg speed", "Avg pace"
VALUE_UNKNOWN = "-"
IMPERIAL, METRIC = "IMPERIAL", "METRIC"  # stats_units_imperial_feet, stats_units_metric
UNITS_KEY = "statsUnits"

MI_TO_M = 1609.344  # Distance.MI_TO_M
M_TO_FT = 5280.0 / MI_TO_M
_THRESHOLD = 0.5  # DistanceFormatter's default threshold (in km or mi)

#: ``ActivityType`` in its order: id → (localized name, icon, whether speed is shown rather than pace).
ACTIVITY_TYPES: dict[str, tuple[str, str, bool]] = {
    "airplane": ("airplane", "activity_flight", True), "ATV": ("ATV", "activity_drive", True),
    "biking": ("biking", "activity_bike", True), "blimp": ("blimp", "activity_unknown", True),
    "boat": ("boat", "activity_boat", True), "climbing": ("climbing", "activity_climbing", False),
    "commercial airplane": ("commercial airplane", "activity_flight", True),
    "cross-country skiing": ("cross-country skiing", "activity_skiing", True),
    "cycling": ("cycling", "activity_bike", True), "dirt bike": ("dirt bike", "activity_mtb", True),
    "donkey back riding": ("donkey back riding", "activity_unknown", True),
    "driving": ("driving", "activity_drive", True), "driving bus": ("driving bus", "activity_drive", True),
    "driving car": ("driving car", "activity_drive", True), "escooter": ("escooter", "activity_scooter", True),
    "ferry": ("ferry", "activity_boat", True), "frisbee": ("frisbee", "activity_unknown", True),
    "gliding": ("gliding", "activity_unknown", True), "hang gliding": ("hang gliding", "activity_unknown", True),
    "helicopter": ("helicopter", "activity_unknown", True), "hiking": ("hiking", "activity_walk", False),
    "horse back riding": ("horse back riding", "activity_unknown", True),
    "hot air balloon": ("hot air balloon", "activity_unknown", True),
    "ice sailing": ("ice sailing", "activity_unknown", True),
    "inline skating": ("inline skating", "activity_inline_skating", True),
    "kayaking": ("kayaking", "activity_kayaking", True), "kite surfing": ("kite surfing", "activity_unknown", True),
    "land sailing": ("land sailing", "activity_unknown", True), "mixed type": ("mixed type", "activity_unknown", True),
    "motor bike": ("motor bike", "activity_mtb", True), "motor boating": ("motor boating", "activity_boat", True),
    "mountain biking": ("mountain biking", "activity_mtb", True),
    "off trail hiking": ("hiking", "activity_walk", False), "other": ("other", "activity_unknown", True),
    "paddling": ("paddling", "activity_unknown", True), "para gliding": ("para gliding", "activity_unknown", True),
    "RC airplane": ("RC airplane", "activity_flight", True), "RC boat": ("RC boat", "activity_boat", True),
    "RC helicopter": ("RC helicopter", "activity_unknown", True),
    "riding": ("horse back riding", "activity_unknown", True), "road biking": ("road biking", "activity_bike", True),
    "roller skiing": ("roller skiing", "activity_unknown", True), "rowing": ("rowing", "activity_unknown", True),
    "running": ("running", "activity_run", False), "sailing": ("sailing", "activity_sailing", True),
    "kickscooter": ("scooter", "activity_scooter", True), "seaplane": ("seaplane", "activity_flight", True),
    "skateboarding": ("skate boarding", "activity_skateboarding", True),
    "skating": ("skating", "activity_unknown", True), "skiing": ("skiing", "activity_skiing", True),
    "sky jumping": ("sky jumping", "activity_unknown", True), "sled": ("sled", "activity_unknown", True),
    "snowboarding": ("snow boarding", "activity_snowboarding", True),
    "snow shoeing": ("snow shoeing", "activity_unknown", True),
    "speed walking": ("speed walking", "activity_walk", False),
    "street running": ("street running", "activity_run", False), "surfing": ("surfing", "activity_unknown", True),
    "track cycling": ("track cycling", "activity_bike", True),
    "track running": ("trail running", "activity_run", False), "trail hiking": ("trail hiking", "activity_walk", False),
    "trail running": ("trail running", "activity_run", False), "train": ("train", "activity_unknown", True),
    "ultimate frisbee": ("ultimate frisbee", "activity_unknown", True),
    "wakeboarding": ("wakeboarding", "activity_unknown", True), "walking": ("walking", "activity_walk", False),
    "water skiing": ("water skiing", "activity_unknown", True),
    "wind surfing": ("wind surfing", "activity_unknown", True),
    "swimming": ("swimming", "activity_swimming", False),
    "swimming in open water": ("swimming in open water", "activity_swimming", False),
    "workout": ("workout", "activity_workout", False), "unknown": ("unknown", "activity_unknown", True),
}
UNKNOWN = "unknown"

SCHEMA = (  # CustomSQLiteOpenHelper.onCreate
    "CREATE TABLE trackpoints (_id INTEGER PRIMARY KEY AUTOINCREMENT, trackid INTEGER NOT NULL, longitude INTEGER, "
    "latitude INTEGER, time INTEGER, elevation FLOAT, accuracy FLOAT, speed FLOAT, bearing FLOAT, "
    "sensor_heartrate FLOAT, sensor_cadence FLOAT, sensor_power FLOAT, elevation_gain FLOAT, elevation_loss FLOAT, "
    "type TEXT CHECK(type IN (-2, -1, 0, 1, 3)), sensor_distance FLOAT, accuracy_vertical FLOAT, FOREIGN KEY "
    "(trackid) REFERENCES tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE)",
    "CREATE INDEX trackpoints_trackid_index ON trackpoints(trackid)",
    "CREATE TABLE tracks (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, "
    "starttime INTEGER, stoptime INTEGER, numpoints INTEGER, totaldistance FLOAT, totaltime INTEGER, movingtime "
    "INTEGER, avgspeed FLOAT, avgmovingspeed FLOAT, maxspeed FLOAT, minelevation FLOAT, maxelevation FLOAT, "
    "elevationgain FLOAT, icon TEXT, uuid BLOB, elevationloss FLOAT, starttime_offset INTEGER, activity_type TEXT)",
    "CREATE UNIQUE INDEX tracks_uuid_index ON tracks(uuid)",
    "CREATE TABLE markers (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, description TEXT, category TEXT, "
    "icon TEXT, trackid INTEGER NOT NULL, length FLOAT, duration INTEGER, longitude INTEGER, latitude INTEGER, "
    "time INTEGER, elevation FLOAT, accuracy FLOAT, bearing FLOAT, photoUrl TEXT, FOREIGN KEY (trackid) REFERENCES "
    "tracks(_id) ON UPDATE CASCADE ON DELETE CASCADE)",
    "CREATE INDEX markers_trackid_index ON markers(trackid)",
    # What SQLiteOpenHelper adds to every database it creates.
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    f"PRAGMA user_version = {DATABASE_VERSION}",
)

_ORANGE: Color = (255, 109, 0)  # @color/opentracks
_RED_DARK: Color = (190, 22, 27)  # @color/red_dark, the record button
#: Theme.Material3.DayNight's baseline colours by day (material 1.11.0 ``m3_sys_color_light_*``; the app's dynamic
#: colours are off by default): ``colorSurface``/``colorSurfaceBright`` neutral 98, the window, its bars and the
#: status bar; ``colorSurfaceContainer`` neutral 94, the bottom app bar and the navigation bar.
_SURFACE: Color = (0xFE, 0xF7, 0xFF)
_BAR_BG: Color = (243, 237, 247)
#: ``@style/HorizontalLine``: ``stats_separator`` (#99999999), grey at 60 % over the surface.
_SEPARATOR: Color = over((0x99, 0x99, 0x99), 0.6, _SURFACE)
#: The system bars' colours (``android:statusBarColor``, ``android:navigationBarColor``): the surfaces above by day,
#: ``oled_friendly`` black by night (values-night/styles_theme.xml), where the bottom app bar keeps its surface.
_STATUS_BAR, _NAVIGATION_BAR = Role("statusBarColor", _SURFACE), Role("navigationBarColor", _BAR_BG)
_BAR, _ICON, _ROW_PAD = 147, 126, 21  # 56 dp bars, 48 dp touch targets, 8 dp at 420 dpi
_BODY1, _SMALL, _HEADLINE6, _LABEL, _DISPLAY = 42, 32, 53, 37, 95  # 16, 12, 20, 14 and 36 sp


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- values as the app shows them ---------------------------------------------------------------------------------
def activity_type_for(localized: str) -> str:
    """``ActivityType.findByLocalizedString``: the id of the first type whose localized name is ``localized``
    ("unknown" when none is)."""
    return next((type_id for type_id, (name, _, _) in ACTIVITY_TYPES.items() if name == localized), UNKNOWN)


def icon_of(localized: str) -> str:
    """The icon the statistics and the editor show for a localized activity type."""
    return ACTIVITY_TYPES[activity_type_for(localized)][1]


def format_elapsed(ms: int) -> str:
    """``StringUtils.formatElapsedTime`` (``DateUtils.formatElapsedTime``): "MM:SS", or "H:MM:SS" from an hour."""
    seconds = max(int(ms), 0) // 1000
    hours, minutes, seconds = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


def format_decimal(value: float, places: int) -> str:
    """``StringUtils.formatDecimal``: en-US ``DecimalFormat`` with exactly ``places`` decimals, HALF_EVEN, grouped."""
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    return f"{rounded:,.{places}f}"


def _float(value: Any) -> float:
    """A column read with ``Cursor.getFloat`` (a 32-bit float); NULL is 0."""
    return float(np.float32(value or 0.0))


def distance_parts(metres: float, units: str) -> tuple[str, str]:
    """``DistanceFormatter.getDistanceParts`` with two decimals: miles above 0.5 mi, else feet (IMPERIAL);
    kilometres above 0.5 km, else metres (METRIC)."""
    if units == IMPERIAL:
        if metres > _THRESHOLD * MI_TO_M:
            return format_decimal(metres / MI_TO_M, 2), "mi"
        return format_decimal(metres * M_TO_FT, 2), "ft"
    if metres > _THRESHOLD * 1000:
        return format_decimal(metres / 1000, 2), "km"
    return format_decimal(metres, 2), "m"


def altitude_parts(metres: float, units: str) -> tuple[str, str]:
    """``StringUtils.getAltitudeParts``: whole feet (IMPERIAL) or metres."""
    return (format_decimal(metres * M_TO_FT, 0), "ft") if units == IMPERIAL else (format_decimal(metres, 0), "m")


def speed_parts(mps: float, units: str, report_speed: bool) -> tuple[str, str]:
    """``SpeedFormatter.getSpeedParts``: mph / km/h with one decimal, or a pace "m:ss" per mile / km."""
    per_unit = MI_TO_M if units == IMPERIAL else 1000.0
    if report_speed:
        return format_decimal(mps * 3600 / per_unit, 1), "mph" if units == IMPERIAL else "km/h"
    pace = 0 if mps == 0 else round(1 / (mps / per_unit))
    return f"{pace // 60}:{pace % 60:02d}", "min/mi" if units == IMPERIAL else "min/km"


def relative_date(day: dt.date, today: dt.date, tag: str) -> str:
    """``StringUtils.formatDateTodayRelative`` in the locale ``tag``: Today, Yesterday, the weekday's full name
    within a week, else ``DateTimeFormatter.ofPattern("d MMM")`` (``"d MMM y"`` in another year)."""
    days = (today - day).days
    if days == 0:
        return TODAY
    if days == 1:
        return YESTERDAY
    if days < 7:
        return formats.weekday_name(day.weekday(), tag)
    return formats.format_pattern(day, "d MMM" if day.year == today.year else "d MMM y", tag)


def medium_date_time(when: dt.datetime, tag: str) -> str:
    """``FormatStyle.MEDIUM`` date and time in the locale ``tag``: "Oct 15, 2023, 3:34:00 PM" in en-US."""
    return formats.format_date_time_instance(when, "medium", tag)


def time_distance_text(total_ms: int, metres: float, units: str) -> str:
    """``ListItemUtils.getTimeDistanceText`` of a track that is not recording: "1:30:00 (7.46 mi)"."""
    value, unit = distance_parts(metres, units)
    return f"{format_elapsed(total_ms)} ({value} {unit})"


# ----- the database -----------------------------------------------------------------------------------------------
class TracksDatabase(SqliteProvider):
    """``CustomSQLiteOpenHelper``'s ``database.db`` (a rollback journal), queried as ``ContentProviderUtils``."""

    db_path = DB_PATH
    schema = SCHEMA

    def tracks(self) -> list[dict[str, Any]]:
        """``searchTracks(null)``: every track with its marker count, newest ``starttime`` first."""
        sql = ("SELECT tracks.*, markerCount FROM tracks LEFT OUTER JOIN (SELECT trackid AS markerTrackId, COUNT(*) "
               "AS markerCount FROM markers GROUP BY trackid) ON (tracks._id = markerTrackId) ORDER BY starttime DESC")
        with self.reading() as db:
            return [dict(found) for found in db.execute(sql)]

    def track(self, track_id: int) -> dict[str, Any] | None:
        """``getTrack``."""
        with self.reading() as db:
            found = db.execute("SELECT * FROM tracks WHERE _id = ?", (track_id,)).fetchone()
        return dict(found) if found else None

    def update(self, track: dict[str, Any], name: str, localized: str, description: str) -> None:
        """``TrackUtils.updateTrack`` → ``updateTrack``: the edited texts, the type's id found by its localized name,
        and every statistic written back, the speeds recomputed from distance and times (``createContentValues``)."""
        distance = _float(track["totaldistance"])
        total_s, moving_s = (track["totaltime"] or 0) // 1000, track["movingtime"] or 0
        average = distance / total_s if total_s else 0.0
        moving = distance / (moving_s / 1000) if moving_s else 0.0
        values = {"name": name, "description": description, "category": localized,
                  "activity_type": activity_type_for(localized), "totaldistance": distance, "avgspeed": average,
                  "avgmovingspeed": moving, "maxspeed": max(_float(track["maxspeed"]), moving), "_id": track["_id"]}
        with self._write() as db:
            db.execute("UPDATE tracks SET name=:name, description=:description, category=:category, "
                       "activity_type=:activity_type, totaldistance=:totaldistance, avgspeed=:avgspeed, "
                       "avgmovingspeed=:avgmovingspeed, maxspeed=:maxspeed WHERE _id=:_id", values)


# ----- shared widgets ---------------------------------------------------------------------------------------------
def _icon(content_desc: str, icon: str, on_click: Callback | None = None, color: Color = TEXT, name: str = "",
          **props) -> View:
    """An ``ImageView``/``ImageButton`` drawn as a glyph; clickable when it has a listener."""
    props.setdefault("width", _ICON)
    props.setdefault("height", _ICON)
    clickable = on_click is not None
    return View(kind="icon", class_name="android.widget.ImageButton" if clickable else "android.widget.ImageView",
                resource_id=_id(name) if name else "", content_desc=content_desc, hint=icon, clickable=clickable,
                focusable=clickable, on_click=on_click, text_color=color, **props)


def _bottom_bar(*children: View) -> View:
    """``bottom_app_bar`` (a BottomAppBar used as the support action bar)."""
    return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("bottom_app_bar"), height=_BAR,
                background=_BAR_BG, children=list(children))


class _OpenTracksScreen(Screen):
    """An activity of the app, with an overflow menu that BACK closes first."""

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.menu_open = False

    @property
    def opentracks(self) -> OpenTracks:
        """The app and its data."""
        assert isinstance(self.app, OpenTracks)
        return self.app

    def on_back(self) -> bool:
        """BACK closes the overflow menu first."""
        if self.menu_open:
            self.menu_open = False
            return True
        return False

    def _open_menu(self) -> None:
        self.menu_open = True

    def _close_menu(self) -> None:
        self.menu_open = False


class _TrackScreen(_OpenTracksScreen):
    """A screen of one track (``EXTRA_TRACK_ID``); it finishes when the track is gone."""

    @property
    def track_id(self) -> int:
        """The track shown."""
        try:
            return int(self.intent.extras.get(EXTRA_TRACK_ID, "0"))
        except ValueError:
            return 0

    def _gone(self) -> View:
        """The track no longer exists: the activity finishes and the one below shows."""
        self.finish()
        below = self.phone.activities.top
        self.scroll = below.scroll
        return below.build()


# ----- TrackListActivity ------------------------------------------------------------------------------------------
class TrackListScreen(_OpenTracksScreen):
    """``TrackListActivity``: the toolbar, the tracks (newest first) and the bottom app bar with the record
    button."""

    activity = LIST_ACTIVITY
    LIST = "track_list"

    def build(self) -> View:
        now = self.phone.clock.now(DAY_MS)  # the rows show dates relative to today
        units = self.opentracks.units()
        tracks = self.opentracks.db.tracks()
        toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("track_list_toolbar"),
                       height=_BAR, background=_SURFACE, children=[
                           _icon("", "logo_opentracks", color=_ORANGE, width=_BAR),
                           text_view(APP_NAME, text_size=_HEADLINE6, padding=24, weight=1),
                           _icon(SEARCH, "search", does_nothing, name="track_list_search"),
                           _icon(MARKERS, "marker", does_nothing, name="track_list_markers"),
                           _icon(MORE_OPTIONS, "more", self._open_menu)])
        if tracks:
            body = scroll_list(*(self._row(track, now, units) for track in tracks), key=self.LIST,
                               resource_id=_id(self.LIST), weight=1)
        else:
            body = column(View(weight=1), text_view(EMPTY_MESSAGE, text_size=_HEADLINE6, padding=48),
                          View(weight=1), resource_id=_id("track_list_empty_view"), weight=1)
        bar = _bottom_bar(_icon("", "chart_bar", does_nothing, name="aggregated_stats_button"),
                          _icon("", "gps_off", does_nothing, name="sensor_start_button"), View(weight=1),
                          View(kind="fab", class_name="android.widget.ImageButton",
                               resource_id=_id("track_list_fab_action"), content_desc=RECORD, hint="record",
                               clickable=True, focusable=True, long_clickable=True, on_click=does_nothing,
                               width=_BAR - 21, height=_BAR - 21, margin=10, background=_RED_DARK, text_color=WHITE,
                               corner=42), View(width=32))
        content = column(toolbar, body, bar, background=_SURFACE)
        if self.menu_open:
            return popup_menu(content, [(SETTINGS, self._close_menu), (HELP, self._close_menu)], self._close_menu,
                              PACKAGE, look=MATERIAL_3_MENU)
        return content

    def _row(self, track: dict[str, Any], now: dt.datetime, units: str) -> View:
        """``track_list_item`` as ``TrackListAdapter.ViewHolder.bind`` fills it."""
        start = dt.datetime.fromtimestamp((track["starttime"] or 0) / 1000, now.tzinfo)
        icon = ACTIVITY_TYPES.get(track["activity_type"] or UNKNOWN, ACTIVITY_TYPES[UNKNOWN])[1]
        first = row(text_view(track["name"] or "", resource_id=_id("track_list_item_name"), text_size=_BODY1,
                              padding=0, weight=1),
                    text_view(relative_date(start.date(), now.date(), formats.system_tag(self.phone)),
                              resource_id=_id("track_list_item_date"),
                              text_size=_SMALL, padding=0, text_color=TEXT_SECONDARY), spacing=21)
        second = row(text_view(time_distance_text(track["totaltime"] or 0, _float(track["totaldistance"]), units),
                               resource_id=_id("track_list_item_time_distance"), text_size=_SMALL, padding=0,
                               weight=1, text_color=TEXT_SECONDARY),
                     text_view(f"{start:%H:%M}", resource_id=_id("track_list_item_time"), text_size=_SMALL,
                               padding=0, text_color=TEXT_SECONDARY), spacing=21)
        lines = [first, second]
        if track["description"]:
            lines.append(text_view(track["description"], resource_id=_id("track_list_item_category_description"),
                                   text_size=_SMALL, padding=0, text_color=TEXT_SECONDARY))
        body = row(_icon(TRACK, icon, name="track_list_item_icon", color=TEXT_SECONDARY, width=84, height=84),
                   column(*lines, weight=1, spacing=8), spacing=21, padding=_ROW_PAD)
        return View(kind="column", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                    long_clickable=True, on_click=lambda: self.opentracks.open_track(track["_id"]),
                    children=[body, side_margins(View(height=3, background=_SEPARATOR, weight=1,
                                                      resource_id=_id("marker_list_item_bottom_line")), _ROW_PAD)])


# ----- TrackRecordedActivity --------------------------------------------------------------------------------------
class TrackRecordedScreen(_TrackScreen):
    """``TrackRecordedActivity``: the tabs (Stats shown), the track's statistics and the bottom app bar with the
    detail menu (``track_detail.xml``: two actions fit, the rest is in the overflow)."""

    activity = RECORDED_ACTIVITY
    STATS = "stats_scroll"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.tab = 0

    def build(self) -> View:
        track = self.opentracks.db.track(self.track_id)
        if track is None:
            return self._gone()
        tabs = row(*(self._tab(index, title) for index, title in enumerate(TABS)),
                   resource_id=_id("track_detail_activity_tablayout"), height=_BAR, background=_SURFACE)
        page = self._stats(track) if self.tab == 0 else View(weight=1)
        pager = View(kind="frame", class_name="androidx.viewpager.widget.ViewPager", weight=1,
                     resource_id=_id("track_detail_activity_view_pager"), children=[page])
        bar = _bottom_bar(_icon(NAVIGATE_UP, "arrow_back", self.finish), View(weight=1),
                          _icon(SHOW_ON_MAP, "map", does_nothing, name="track_detail_menu_show_on_map"),
                          _icon(SHARE, "share", does_nothing, name="track_detail_share"),
                          _icon(MORE_OPTIONS, "more", self._open_menu))
        content = column(tabs, pager, bar, background=_SURFACE)
        if self.menu_open:
            items = [(MARKERS, self._close_menu), (EDIT, self._edit), (DELETE, self._close_menu),
                     (RESUME_TRACK, self._close_menu), (SETTINGS, self._close_menu)]
            return popup_menu(content, items, self._close_menu, PACKAGE, look=MATERIAL_3_MENU)
        return content

    def _tab(self, index: int, title: str) -> View:
        chosen = index == self.tab
        label = text_view(title, text_size=_LABEL, padding=0, bold=chosen,
                          text_color=_ORANGE if chosen else TEXT_SECONDARY)
        children = [row(View(weight=1), label, View(weight=1), weight=1, padding=0)]
        children.append(View(height=8, background=_ORANGE if chosen else _SURFACE))
        return View(kind="column", class_name="android.widget.LinearLayout", selected=chosen,
                    clickable=True, focusable=True, weight=1, on_click=lambda: self._select(index),
                    children=[View(height=42), *children])

    def _select(self, index: int) -> None:
        self.tab = index

    def _edit(self) -> None:
        """``track_detail_edit``: open ``TrackEditActivity`` on this track."""
        self.menu_open = False
        self.start(TrackEditScreen, Intent(extras={EXTRA_TRACK_ID: str(self.track_id)}))

    def _stats(self, track: dict[str, Any]) -> View:
        """``statistics_recorded`` as ``StatisticsRecordedFragment.updateUI`` fills it."""
        units = self.opentracks.units()
        tz = self.phone.clock.now().tzinfo
        start = dt.datetime.fromtimestamp((track["starttime"] or 0) / 1000, tz)
        localized = track["category"] or ""
        report_speed = ACTIVITY_TYPES[activity_type_for(localized)][2]  # isReportSpeed by the activity type
        distance = _float(track["totaldistance"])
        total_ms, moving_ms = track["totaltime"] or 0, track["movingtime"] or 0
        average = distance / (total_ms // 1000) if total_ms >= 1000 else 0.0
        moving = distance / (moving_ms / 1000) if moving_ms else 0.0
        fastest = max(_float(track["maxspeed"]), moving)
        header = row(_icon("", icon_of(localized), name="stats_activity_type_icon", color=TEXT_SECONDARY),
                     column(text_view(track["name"] or "", resource_id=_id("stats_name_value"),
                                      text_size=_HEADLINE6, padding=0),
                            text_view(track["description"] or "", resource_id=_id("stats_description_value"),
                                      text_size=_BODY1, padding=0, text_color=TEXT_SECONDARY),
                            weight=1, spacing=8), spacing=42)
        when = row(View(weight=1), text_view(medium_date_time(start, formats.system_tag(self.phone)),
                                             resource_id=_id("stats_start_datetime_value"), text_size=_LABEL,
                                             padding=0))
        value, unit = distance_parts(distance, units)
        speed = [speed_parts(v, units, report_speed) for v in (fastest, moving, average)]
        gain = altitude_parts(_float(track["elevationgain"]), units)
        loss = altitude_parts(_float(track["elevationloss"]), units)
        rows = [
            header, when, _line(),
            row(_stat("stats_distance", DISTANCE, value, unit), _stat("stats_moving_time", MOVING_TIME,
                                                                      format_elapsed(moving_ms))),
            row(View(weight=1), _stat("stats_total_time", TOTAL_TIME, format_elapsed(total_ms), small=True)),
            _line(),
            row(_stat("stats_max_speed", MAX_SPEED if report_speed else FASTEST_PACE, *speed[0]),
                _stat("stats_moving_speed", AVG_MOVING_SPEED if report_speed else AVG_MOVING_PACE, *speed[1])),
            row(View(weight=1), _stat("stats_average_speed", AVG_SPEED if report_speed else AVG_PACE, *speed[2],
                                      small=True)),
            _line(),
            row(_stat("stats_altitude_gain", GAIN, *gain), _stat("stats_altitude_loss", LOSS, *loss)),
            _line(),
        ]
        return View(kind="list", class_name="android.widget.ScrollView", key=self.STATS, scrollable=True,
                    focusable=True, gravity="fill", padding=42, children=[column(*rows, spacing=16)])


def _line() -> View:
    """``@style/HorizontalLine``."""
    return View(height=3, background=_SEPARATOR, margin=21)


def _stat(name: str, label: str, value: str, unit: str | None = None, small: bool = False) -> View:
    """One statistic: the all-caps header above the value and its unit (``<name>_label``, ``_value``, ``_unit``)."""
    header = text_view(label.upper(), resource_id=_id(f"{name}_label"), text_size=_SMALL if small else _LABEL,
                       bold=not small, padding=0, text_color=_ORANGE if not small else TEXT_SECONDARY)
    parts = [text_view(value, resource_id=_id(f"{name}_value"), text_size=_DISPLAY * 2 // 3 if small else _DISPLAY,
                       bold=True, padding=0)]
    if unit is not None:
        parts.append(text_view(unit, resource_id=_id(f"{name}_unit"), text_size=_SMALL, padding=8))
    return column(header, row(*parts, spacing=12), weight=1, spacing=8)


# ----- TrackEditActivity ------------------------------------------------------------------------------------------
@dataclass
class _Fields:
    """The editor's fields as typed."""

    name: str
    activity_type: str
    description: str


class TrackEditScreen(_TrackScreen):
    """``TrackEditActivity``: name, activity type (with its icon) and description; Cancel and Save."""

    activity = EDIT_ACTIVITY
    NAME, TYPE, DESCRIPTION = "track_edit_name", "track_edit_activity_type", "track_edit_description"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        track = self.opentracks.db.track(self.track_id)
        self.fields = _Fields(track["name"] or "", track["category"] or "", track["description"] or "") \
            if track else None

    def build(self) -> View:
        track = self.opentracks.db.track(self.track_id)
        if track is None or self.fields is None:
            return self._gone()
        fields = self.fields
        name = edit_text(fields.name, NAME_HINT, self.NAME, lambda text: setattr(fields, "name", text),
                         resource_id=_id(self.NAME), focused=self.focus_key == self.NAME)
        kind = edit_text(fields.activity_type, ACTIVITY_TYPE_HINT, self.TYPE,
                         lambda text: setattr(fields, "activity_type", text), resource_id=_id(self.TYPE),
                         focused=self.focus_key == self.TYPE, weight=1)
        kind.class_name = "android.widget.AutoCompleteTextView"
        description = edit_text(fields.description, DESCRIPTION_HINT, self.DESCRIPTION,
                                lambda text: setattr(fields, "description", text), resource_id=_id(self.DESCRIPTION),
                                focused=self.focus_key == self.DESCRIPTION)
        form = column(outlined_field(name),
                      row(outlined_field(kind, weight=1),
                          _icon("", icon_of(fields.activity_type), does_nothing, name="track_edit_activity_type_icon",
                                color=TEXT_SECONDARY)),
                      outlined_field(description), padding=21, spacing=42)
        buttons = row(_flat_button(CANCEL, "track_edit_cancel", self.finish), View(weight=1),
                      _flat_button(SAVE, "track_edit_save", self._save), height=_BAR)
        body = View(kind="list", class_name="android.widget.ScrollView", key="track_edit_fields", scrollable=True,
                    focusable=True, weight=1, children=[form])
        return column(body, View(height=2, background=DIVIDER), buttons,
                      _bottom_bar(_icon(NAVIGATE_UP, "arrow_back", self.finish)), background=_SURFACE)

    def _save(self) -> None:
        """``track_edit_save``: update the track with the fields as typed, then finish."""
        track = self.opentracks.db.track(self.track_id)
        if track is not None and self.fields is not None:
            self.opentracks.db.update(track, self.fields.name, self.fields.activity_type, self.fields.description)
        self.finish()


def _flat_button(text: str, name: str, on_click: Callback) -> View:
    """``@style/BottomButton``: a text button."""
    return View(kind="button", class_name="android.widget.Button", resource_id=_id(name), text=text.upper(),
                clickable=True, focusable=True, on_click=on_click, text_color=_ORANGE, padding=36, height=_BAR)


# ----- the app ------------------------------------------------------------------------------------------------------
class OpenTracks(App):
    """``de.dennisguse.opentracks``: the launcher opens ``TrackListActivity``."""

    package = PACKAGE
    # OpenTracksTheme (values/ and values-night/styles_theme.xml) is Theme.Material3.DayNight.NoActionBar, dynamic
    # colours off by default (settings_ui_dynamic_colors_default), so Material 3's baseline colours; its night mode
    # setting defaults to following the system; colorPrimary (@color/opentracks) both ways for the toolkit's: a focused
    # field's outline, floating label and caret
    day_colors = {**MATERIAL_3_DAY, PRIMARY: _ORANGE}
    night_colors = {**MATERIAL_3_NIGHT, PRIMARY: _ORANGE, _SURFACE: MATERIAL_3_NIGHT[WHITE],
                    _SEPARATOR: over((0x99, 0x99, 0x99), 0.6, MATERIAL_3_NIGHT[WHITE]),
                    _STATUS_BAR: (0, 0, 0), _NAVIGATION_BAR: (0, 0, 0)}
    status_bar_color, navigation_bar_color = _STATUS_BAR, _NAVIGATION_BAR
    label = APP_NAME
    icon, icon_color = "app_opentracks", _ORANGE
    version_name, version_code = "v4.11.3", 5705  # android_gym/device/apps.toml
    screens = (TrackListScreen, TrackRecordedScreen, TrackEditScreen)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.db = TracksDatabase(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)
        self.apply_default_unit()

    def apply_default_unit(self) -> None:
        """``PreferencesUtils.applyDefaultUnit`` (at every start): IMPERIAL in the en-US locale when unset."""
        if not self.prefs.get(UNITS_KEY, ""):
            self.prefs.apply({UNITS_KEY: ("string", IMPERIAL)})

    def units(self) -> str:
        """``getUnitSystem``: IMPERIAL (miles and feet) or METRIC; anything else reads as METRIC."""
        return IMPERIAL if self.prefs.get(UNITS_KEY, METRIC) == IMPERIAL else METRIC

    def open_track(self, track_id: int) -> None:
        """A tap on a list row: ``TrackRecordedActivity`` on that track."""
        self.phone.activities.push(self, TrackRecordedScreen, Intent(extras={EXTRA_TRACK_ID: str(track_id)}))

    def on_process_start(self) -> None:
        """``Startup.onCreate``: preferences read afresh, the default unit applied."""
        super().on_process_start()
        self.prefs.forget()
        self.apply_default_unit()

    def on_force_stop(self) -> None:
        """The process dies: preferences are read again at the next start."""
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: the database is created again when the app opens it, and the default unit applied."""
        self.db.ensure_db()
        self.prefs.forget()
        self.apply_default_unit()
