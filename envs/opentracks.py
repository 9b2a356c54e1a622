"""OpenTracks (``de.dennisguse.opentracks``): the pieces AndroidWorld's SportsTracker* questions build on, and two
action tasks of our own.

AndroidWorld has only information-retrieval tasks for this app (``SportsTrackerActivitiesOnDate``, ...,
declared in its ``tasks.textproto``, here ``task_specs/opentracks.textproto``); they empty ``tracks``, then insert
the question's rows and 20 noise rows (``activity_app_utils``). This module gives them:

* ``TRACKS_TABLE``, the ``AppTable`` of ``/data/data/de.dennisguse.opentracks/databases/database.db``;
* ``activity_row``: a ``tracks`` row as AndroidWorld writes it (``_create_activity_from_proto``): ``category`` and
  ``activity_type`` both the category text, start and stop in epoch ms, ``totaltime`` = ``movingtime`` in ms,
  the distance rounded to what the app shows in miles (``mile_rounded``), AndroidWorld's average speeds (distance
  over milliseconds × 1000, a unit slip the app never reads), whole-metre elevations, ``starttime_offset`` 0;
* ``random_activity_row``: AndroidWorld's noise activity (``_generate_random_activity``) from a seeded generator;
* ``reveal_rows``: the UI steps that bring rows on screen in the track list, scrolling as a person does (the list
  shows each track's name, date, time, total time and distance, and its description); ``reveal_details`` also
  opens each track's editor, the only screen that shows its activity type as text.

``SportsTrackerRenameActivity`` and ``SportsTrackerChangeActivityType`` are ours (not AndroidWorld's); they prove
the app's editor works and are checked on the rows, AndroidWorld style: exactly the wanted change, nothing else
touched (the speeds and the type id the app recomputes on every save aside).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.device.config import LANGUAGES
from android_gym.sim.apps.opentracks import (
    DB_PATH,
    IMPERIAL,
    PACKAGE,
    UNKNOWN,
    TrackEditScreen,
    activity_type_for,
    relative_date,
    time_distance_text,
)
from android_gym.tasks import register_task
from android_gym.tasks.base import DEVICE_TIME
from android_gym.tasks.draws import Rng
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    act,
    complete,
    expect,
    open_app,
    replace_text,
    scroll_until,
    tap,
    tap_found,
)
from android_gym.tasks.sqlite_rows import AppTable, Row, SqliteRowsTask
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

APP_NAME = "OpenTracks"
TRACKS_TABLE = AppTable(PACKAGE, DB_PATH, "tracks", "_id")
ZONE = DEVICE_TIME.tzinfo or dt.timezone.utc  # AndroidWorld's device zone (UTC)
#: AndroidWorld's ``_MILES_TO_METERS`` (the app itself uses 1609.344).
MILES_TO_METERS = 1609.34
NOISE_COUNT = 20  # setup_task_state: 20 random activities

#: AndroidWorld's ``_CATEGORY_TO_ACTIVITY_NAMES``: the noise rows' categories and names.
NOISE_NAMES: dict[str, tuple[str, ...]] = {
    "biking": ("Scenic Cycling", "Bike Tour", "Trail Ride", "Bicycle Adventure", "Pedal Excursion", "Cycle Trip",
               "Off-road Cycling", "Mountain Biking", "Road Cycling", "Bike Expedition"),
    "running": ("Trail Run", "Road Run", "Jogging", "Running Adventure", "Sprint Session", "Trail Jog",
                "Long Distance Run", "Morning Run", "Evening Run", "Running Challenge"),
    "hiking": ("Trail Hike", "Mountain Trek", "Hiking Excursion", "Nature Walk", "Outdoor Hike", "Scenic Hike",
               "Mountain Hike", "Wilderness Hike", "Hill Walk", "Nature Hike"),
    "swimming": ("Pool Swim", "Open Water Swim", "Swim Workout", "Swim Session", "Swimming Adventure", "Lap Swim",
                 "Swim Training", "Water Exercise", "Swimming Excursion", "Swim Challenge"),
    "walking": ("Neighborhood Walk", "Evening Stroll", "Morning Walk", "Urban Walk", "Nature Walk", "City Stroll",
                "Trail Walk", "Casual Walk", "Power Walk", "Brisk Walk"),
    "skiing": ("Ski Trip", "Slope Session", "Alpine Skiing", "Downhill Skiing", "Cross-country Skiing",
               "Backcountry Skiing", "Powder Day", "Snow Adventure", "Winter Skiing", "Ski Expedition"),
    "snowboarding": ("Snowboard Trip", "Freestyle Session", "Slope Riding", "Snowboard Adventure",
                     "Snowboarding Excursion", "Powder Ride", "Mountain Snowboarding", "Backcountry Snowboarding",
                     "Snowboard Challenge", "Snowboard Trek"),
    "kayaking": ("Kayak Tour", "Paddling Adventure", "Kayak Excursion", "River Paddle", "Lake Kayaking",
                 "Sea Kayaking", "Kayak Expedition", "Waterway Paddle", "Kayak Journey", "Paddle Outing"),
    "rowing": ("Rowing Adventure", "Crew Session", "Lake Rowing", "River Rowing", "Rowing Excursion",
               "Rowing Challenge", "Rowing Workout", "Rowing Trek", "Rowing Expedition", "Sculling Session"),
    "sailing": ("Sailing Trip", "Sailing Adventure", "Sailboat Ride", "Boat Tour", "Yacht Sailing",
                "Sailing Excursion", "Nautical Adventure", "Sailing Expedition", "Windward Sailing",
                "Sailboat Expedition"),
    "skateboarding": ("Skateboard Session", "Urban Skate", "Skatepark Session", "Skateboard Adventure",
                      "Street Skateboarding", "Skateboarding Excursion", "Skateboard Trek", "Skateboard Ride",
                      "Skateboard Challenge", "Skateboard Exploration"),
    "surfing": ("Surf Session", "Beach Surfing", "Wave Riding", "Surfing Adventure", "Surfing Excursion",
                "Surfboard Session", "Surfing Challenge", "Surf Trek", "Surfing Expedition", "Wave Exploration"),
    "climbing": ("Rock Climbing", "Indoor Climbing", "Bouldering", "Climbing Adventure", "Climbing Excursion",
                 "Crag Climbing", "Mountain Climbing", "Rock Climbing Challenge", "Climbing Session",
                 "Climbing Expedition"),
    "mountain biking": ("Mountain Bike Ride", "Trail Biking", "MTB Adventure", "Mountain Biking Excursion",
                        "Off-road Biking", "Dirt Biking", "Mountain Bike Expedition", "Singletrack Session",
                        "MTB Trek", "Trail Riding"),
    "road biking": ("Road Bike Ride", "Cycling Adventure", "Road Cycling", "Long Distance Ride", "Bike Touring",
                    "Road Bike Session", "Countryside Cycling", "City Cycling", "Bike Commute", "Road Riding"),
    "trail running": ("Trail Run", "Off-road Running", "Trail Jog", "Trail Running Adventure", "Trail Run Session",
                      "Trail Running Challenge", "Long Distance Trail Run", "Trail Run Expedition",
                      "Trail Running Trek", "Off-road Run"),
    "trail hiking": ("Trail Hike", "Hiking Adventure", "Nature Hike", "Mountain Trail Hike", "Scenic Hiking",
                     "Trail Trek", "Trail Walking", "Off-road Hike", "Trail Hiking Excursion", "Hiking Expedition"),
    "cycling": ("Scenic Cycling", "Bike Tour", "Trail Ride", "Bicycle Adventure", "Pedal Excursion", "Cycle Trip",
                "Off-road Cycling", "Mountain Biking", "Road Cycling", "Bike Expedition"),
    "paddling": ("Boat Tour", "Paddle Adventure", "River Paddle", "Lake Paddling", "Sea Paddling",
                 "Boating Expedition", "Waterway Paddle", "Paddle Journey", "Paddle Outing", "Canoeing Adventure"),
}
CATEGORIES = tuple(NOISE_NAMES)
#: The SportsTracker* questions' activity names (``activity_name`` in AndroidWorld's textproto); none is a noise
#: name, so a question's rows can be told from the noise by name.
ACTIVITY_NAMES = ("More tired than usual today", "Need more strength and conditioning", "Slow day",
                  "Laps around the lake", "Trying and failing to keep up with John", "Quick outing", "Recovery day",
                  "Active Rest Day", "Skill work", "Mindful Movement", "Outdoor Adventure", "Light Workout",
                  "Intense day", "Quick Sweat", "Lunch Break Fitness")


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


NAME_ID, TIME_DISTANCE_ID, DATE_ID, TIME_ID = (_id("track_list_item_name"), _id("track_list_item_time_distance"),
                                               _id("track_list_item_date"), _id("track_list_item_time"))
LIST = Selector(resource_id=_id("track_list"))


# ----- rows ----------------------------------------------------------------------------------------------------
def mile_rounded(metres: float) -> float:
    """``_distance_rounding_error_conversion``: metres rounded to the 0.01 mi the app shows, back in whole metres
    (100 → 97, 12000 → 12006)."""
    return float(round(round(metres / MILES_TO_METERS, 2) * MILES_TO_METERS))


def _uuid(seed: str) -> bytes:
    """A version-4 UUID's 16 bytes drawn from ``seed`` (AndroidWorld: ``uuid.uuid4().bytes``)."""
    raw = bytearray(hashlib.sha256(seed.encode()).digest()[:16])
    raw[6], raw[8] = (raw[6] & 0x0F) | 0x40, (raw[8] & 0x3F) | 0x80
    return bytes(raw)


def activity_row(name: str, category: str, start: dt.datetime, minutes: float, metres: float,
                 elevation_gain: int = 0, elevation_loss: int = 0, description: str = "",
                 uuid: bytes | None = None) -> Row:
    """A full ``tracks`` row (every column but ``_id``) as AndroidWorld writes it; ``metres`` is stored as given
    (round it with ``mile_rounded`` first, as AndroidWorld does), ``start`` naive means device time."""
    start = start.replace(tzinfo=ZONE) if start.tzinfo is None else start
    start_ms = round(start.timestamp()) * 1000
    stop_ms = start_ms + int(minutes * 60 * 1000)
    total = stop_ms - start_ms
    speed = metres / (total * 1000) if total else 0.0
    row: Row = {"name": name, "description": description, "category": category, "starttime": start_ms,
                "stoptime": stop_ms, "numpoints": 0, "totaldistance": float(metres), "totaltime": total,
                "movingtime": total, "avgspeed": speed, "avgmovingspeed": speed, "maxspeed": 0.0,
                "minelevation": 0.0, "maxelevation": 0.0, "elevationgain": float(int(elevation_gain)), "icon": None,
                "uuid": b"", "elevationloss": float(int(elevation_loss)), "starttime_offset": 0,
                "activity_type": category}
    row["uuid"] = uuid or _uuid(repr(sorted((k, v) for k, v in row.items() if k != "uuid")))
    return row


#: Where the noise activities' fortnight starts (a week before device time, less half the window), and its minutes.
_NOISE_START, _NOISE_WINDOW_MINUTES = DEVICE_TIME - dt.timedelta(days=7) - dt.timedelta(days=14) / 2, 14 * 24 * 60


def random_activity_row(rng: Rng) -> Row:
    """AndroidWorld's noise activity: one of 19 categories and one of its names, a start at a random minute of
    the fortnight before device time, 1–299 minutes, 0–20000 m (mile-rounded), 0–500 m of gain and of loss, no
    description."""
    category = CATEGORIES[int(rng.integers(len(CATEGORIES)))]
    names = NOISE_NAMES[category]
    name = names[int(rng.integers(len(names)))]
    start = _NOISE_START + dt.timedelta(minutes=int(rng.integers(_NOISE_WINDOW_MINUTES)))
    minutes = int(rng.integers(1, 300))
    metres = mile_rounded(int(rng.integers(0, 20001)))
    gain, loss = int(rng.integers(0, 501)), int(rng.integers(0, 501))
    return activity_row(name, category, start, minutes, metres, gain, loss,
                        uuid=_uuid(str(int(rng.integers(2**62)))))


# ----- reading the list -----------------------------------------------------------------------------------------
def _list_texts(row: Mapping[str, Any]) -> tuple[str, str, frozenset[str], str]:
    """What the list shows of ``row``: its name, "<time> (<distance>)" in the default (imperial) units, its date
    relative to the device's (in each system language) and its time."""
    start = dt.datetime.fromtimestamp(row["starttime"] / 1000, ZONE)
    dates = frozenset(relative_date(start.date(), DEVICE_TIME.date(), language) for language in LANGUAGES)
    return (row["name"], time_distance_text(row["totaltime"], row["totaldistance"], IMPERIAL), dates,
            f"{start:%H:%M}")


def _just_below(upper: UIElement, lower: UIElement) -> bool:
    """Whether ``lower`` is the line right below ``upper`` in one list row."""
    gap = lower.bbox_pixels.y_min - upper.bbox_pixels.y_max
    return -4 <= gap <= 40 and abs(lower.bbox_pixels.x_min - upper.bbox_pixels.x_min) <= 4


def _same_line(a: UIElement, b: UIElement) -> bool:
    return a.bbox_pixels.y_min < b.bbox_pixels.y_max and b.bbox_pixels.y_min < a.bbox_pixels.y_max


def find_row(elements: Sequence[UIElement], row: Mapping[str, Any]) -> UIElement | None:
    """The name element of ``row``'s list item, with its total time and distance fully on screen below it and its
    date and time beside them."""
    name, time_distance, dates, time = _list_texts(row)
    shown = [element for element in elements if element.bbox_pixels.area > 0]
    below = [e for e in shown if e.resource_name == TIME_DISTANCE_ID and e.text == time_distance]
    on_date = [e for e in shown if e.resource_name == DATE_ID  # "Today" translated
               and any(Selector(text=date).matches(e) for date in dates)]
    times = [e for e in shown if e.resource_name == TIME_ID and e.text == time]
    for title in (e for e in shown if e.resource_name == NAME_ID and e.text == name):
        if any(_just_below(title, line) and any(_same_line(line, t) for t in times) for line in below) \
                and any(_same_line(title, d) for d in on_date):
            return title
    return None


def _list_order(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """``searchTracks``' order: newest start first."""
    return sorted(rows, key=lambda row: -row["starttime"])


def _scroll_to_row(row: Mapping[str, Any]) -> list[OracleStep]:
    return scroll_until(lambda elements: find_row(elements, row), LIST, f"the track {row['name']!r}",
                        max_scrolls=30)


def _raise_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """Scroll on while the highest of ``rows`` on screen sits in the lower half of the list and the list still
    moves: read from the top, a screenful of tracks is a lot to take in.

    No ``scroll_until``: the rows are shown whole already (``_scroll_to_row`` is one), and this moves them up the
    list until the list's end, where ``scroll_until`` would turn back and fail its check with a row still in the
    lower half. It cuts no row: it scrolls only while the highest title lies a title's height below the middle, so a
    scroll of half the list leaves that title a title's height below the list's top, more than the row's padding
    above it (8 dp against a 16 sp line)."""
    seen: dict[str, tuple[str, ...]] = {}

    def step(elements: Sequence[UIElement]) -> Action | None:
        titles = [title for title in (find_row(elements, row) for row in rows) if title is not None]
        names = tuple(e.text for e in elements if e.resource_name == NAME_ID and e.bbox_pixels.area > 0)
        container = LIST.find(elements)
        box = container.bbox_pixels
        top = min((title.bbox_pixels for title in titles), key=lambda bbox: bbox.y_min, default=None)
        # A scroll moves the list half its height (less the drag's rounding to pixels: a title's height spare).
        if top is None or names == seen.get("names") or top.y_min < (box.y_min + box.y_max) / 2 + top.y_max - top.y_min:
            return None
        seen["names"] = names
        return Action(ActionType.SCROLL, index=container.index, direction="down")
    return [step] * 3


def _open_row(row: Mapping[str, Any]) -> OracleStep:
    """Tap ``row``'s list item."""
    return tap_found(lambda elements: find_row(elements, row), f"the track {row['name']!r} is not on screen")


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: open OpenTracks and scroll down its track list to each of ``rows`` (``tracks`` rows)
    in list order, checking each is on screen."""
    steps: list[OracleStep] = [open_app(APP_NAME)]
    for row in _list_order(rows):
        steps += _scroll_to_row(row)
    return [*steps, *_raise_rows(rows)]


def _open_editor(row: Mapping[str, Any]) -> list[OracleStep]:
    """From the list: scroll to ``row``, open it, then "More options" → "Edit"."""
    return [*_scroll_to_row(row), *_raise_rows([row]), _open_row(row), tap(Selector(content_desc="More options")),
            tap(Selector(text="Edit"))]


def reveal_details(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """``reveal_rows``, opening each track's editor on the way (its activity type shows only there as text) and
    going back to the list between them."""
    steps: list[OracleStep] = [open_app(APP_NAME)]
    for number, row in enumerate(_list_order(rows)):
        if number:
            steps += [act(Action(ActionType.NAVIGATE_BACK))] * 2
        steps += [*_open_editor(row), expect(Selector(resource_id=_id(TrackEditScreen.TYPE), text=row["category"]))]
    return steps


# ----- tasks ------------------------------------------------------------------------------------------------------
#: Columns ``TrackEditActivity``'s save rewrites from the others (``TrackUtils.updateTrack``): the speeds from
#: the statistics, and the type id from the category text (AndroidWorld's "snowboarding" becomes "unknown").
RECOMPUTED = ("avgspeed", "avgmovingspeed", "maxspeed", "activity_type")


class _EditTask(SqliteRowsTask):
    """One target activity (a question name, not a noise name) among 20 noise activities; the agent edits it."""

    app_packages = (PACKAGE,)
    table = TRACKS_TABLE
    complexity = 2.0
    changed: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def _target(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The target's name and category, and the seed its row and the noise are drawn from."""
        return {"name": ACTIVITY_NAMES[int(rng.integers(len(ACTIVITY_NAMES)))],
                "category": CATEGORIES[int(rng.integers(len(CATEGORIES)))], "seed": int(rng.integers(2**31))}

    def _rows(self) -> tuple[Row, list[Row]]:
        rng = np.random.default_rng(self.params["seed"])
        target = {**random_activity_row(rng), "name": self.params["name"], "category": self.params["category"],
                  "activity_type": self.params["category"]}
        noise = [random_activity_row(rng) for _ in range(NOISE_COUNT)]
        return target, noise

    def initial_rows(self) -> list[Row]:
        """The target among the noise, at a position drawn from the seed."""
        target, rows = self._rows()
        rows.insert(int(np.random.default_rng(self.params["seed"] + 1).integers(len(rows) + 1)), target)
        return rows

    def wanted(self, row: Mapping[str, Any]) -> bool:
        """Whether the target ``row`` carries the wanted change."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """1.0 when the target row (the one named ``name`` at the start) carries the change, its other columns
        but the ``RECOMPUTED`` ones are as they were, and no other row changed, appeared or went."""
        after = {row["_id"]: row for row in self.table.rows(device)}
        if set(after) != {row["_id"] for row in self.before}:
            return 0.0
        for row in self.before:
            now = after[row["_id"]]
            if row["name"] != self.params["name"]:
                if now != row:
                    return 0.0
                continue
            kept = [column for column in row if column not in (*self.changed, *RECOMPUTED)]
            if any(now[column] != row[column] for column in kept) or not self.wanted(now):
                return 0.0
        return 1.0

    def _target_row(self) -> Row:
        return self._rows()[0]


@register_task
class SportsTrackerRenameActivity(_EditTask):
    """Rename one activity in OpenTracks' editor."""

    name = "SportsTrackerRenameActivity"
    template = 'In the OpenTracks app, rename the activity "{name}" to "{new_name}".'
    changed = ("name",)

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A target and a new name, another of the question names."""
        params = cls._target(rng)
        others = [name for name in ACTIVITY_NAMES if name != params["name"]]
        return {**params, "new_name": others[int(rng.integers(len(others)))]}

    def wanted(self, row: Mapping[str, Any]) -> bool:
        """The name is the new one (fuzzily, as AndroidWorld compares typed text)."""
        return fuzzy_match(row["name"] or "", self.params["new_name"])

    def oracle(self) -> list[OracleStep]:
        """Open the track's editor, replace the name, save."""
        return [open_app(APP_NAME), *_open_editor(self._target_row()),
                replace_text(Selector(resource_id=_id(TrackEditScreen.NAME)), self.params["new_name"]),
                tap(Selector(resource_id=_id("track_edit_save"))), complete()]


@register_task
class SportsTrackerChangeActivityType(_EditTask):
    """Change one activity's type in OpenTracks' editor."""

    name = "SportsTrackerChangeActivityType"
    template = 'In the OpenTracks app, change the activity type of "{name}" to "{new_category}".'
    changed = ("category", "activity_type")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A target and another category, one the app knows by name (so its icon changes too)."""
        params = cls._target(rng)
        known = [c for c in CATEGORIES if c != params["category"] and activity_type_for(c) != UNKNOWN]
        return {**params, "new_category": known[int(rng.integers(len(known)))]}

    def wanted(self, row: Mapping[str, Any]) -> bool:
        """The category is the new one and the type id the app derives from it."""
        new = self.params["new_category"]
        return row["category"] == new and row["activity_type"] == activity_type_for(new)

    def oracle(self) -> list[OracleStep]:
        """Open the track's editor, replace the activity type, save."""
        return [open_app(APP_NAME), *_open_editor(self._target_row()),
                replace_text(Selector(resource_id=_id(TrackEditScreen.TYPE)), self.params["new_category"]),
                tap(Selector(resource_id=_id("track_edit_save"))), complete()]
