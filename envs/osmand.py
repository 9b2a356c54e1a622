"""OsmAnd (``net.osmand``) tasks: AndroidWorld's three (``task_evals/single/osmand.py``) and two of our own.

* ``OsmAndFavorite``: a favourite (``wpt`` of favorites.gpx) whose ``name`` contains the location string, or whose
  lat/lon lie within 0.001° of it. Init and teardown empty ``files/backup`` and strip every ``wpt`` from
  favorites.gpx and the legacy ``favourites_bak.gpx``.
* ``OsmAndMarker``: a ``map_markers`` row within 0.001° of the location (``marker_active`` ignored); the table is
  emptied at init and teardown (AndroidWorld's ``SQLiteApp`` clears it).
* ``OsmAndTrack``: a GPX file in ``files/tracks`` whose ``trk/trkseg/trkpt`` points pass the waypoints in order,
  gaps allowed; ``tracks/*`` is removed at init and teardown.

``{location}`` is a place name ("Balzers, Liechtenstein") or, as often, ``"<lat>, <lon>"`` in Python's float repr.
A location resolves to the two numbers in it if there are exactly two, else to the place of that exact name.

Ours: ``OsmAndDeleteFavorite``, ``OsmAndRenameFavorite`` and ``OsmAndMarkFavorite`` seed three favourites and check
that exactly the one named changed (deleted, or renamed in place) and the others are as they were, or (marking) that
all are as they were and a map marker lies on the named one.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from lxml import etree

from android_gym.device.base import Device
from android_gym.device.state import list_dir, read_file, sqlite_execute, sqlite_query, write_file
from android_gym.sim.apps import osmand
from android_gym.sim.apps import osmand_gpx as gpx
from android_gym.sim.apps.osmand_map import TOWNS
from android_gym.sim.apps.osmand_map import search as search_places
from android_gym.tasks import register_task
from android_gym.tasks.base import Task
from android_gym.tasks.oracle import OracleStep, Selector, complete, open_app, replace_text, tap, type_into
from android_gym.tasks.user_data import pick

APP_NAME = "osmand"
DEVICE_FILES = osmand.FILES_DIR
BACKUP_DIR = f"/data/data/{osmand.PACKAGE}/files/backup"
LEGACY_FAVORITES = f"/data/data/{osmand.PACKAGE}/files/favourites_bak.gpx"
DELTA_DEG = 0.001
#: ``_PRELOADED_MAP_LOCATIONS``: "<Town>, Liechtenstein" → (lat, lon).
LOCATIONS: dict[str, tuple[float, float]] = {f"{town}, Liechtenstein": point for town, point in TOWNS.items()}
#: Names people give their favourites (ours, for the favourite-editing tasks).
FAVOURITE_NAMES = ("Home", "Work", "Bakery", "Ski school", "Dentist", "Gym", "Parking", "Grandma's house",
                   "Hiking start", "Castle view", "Bike shop", "Library")
NEW_NAMES = ("Climbing hall", "Old town", "Lunch spot", "Swimming pool", "Museum", "Market square")
_NUMBER = re.compile(r"-?\d*\.?\d+")
_GPX = {"gpx": gpx.GPX_NS}


def _id(name: str) -> str:
    return f"{osmand.PACKAGE}:id/{name}"


SEARCH_BUTTON = Selector(content_desc=osmand.SEARCH, resource_id=_id("map_search_button"))
SEARCH_FIELD = Selector(resource_id=_id("searchEditText"))
MENU_BUTTON = Selector(content_desc=osmand.MENU, resource_id=_id("map_menu_button"))
FAVORITE_BUTTON = Selector(text=osmand.FAVORITE, resource_id=_id("context_menu_fav_button"))
EDIT_BUTTON = Selector(text=osmand.EDIT, resource_id=_id("context_menu_fav_button"))
MARKER_BUTTON = Selector(text=osmand.MARKER, resource_id=_id("context_menu_marker_button"))
SAVE_FAVORITE = Selector(text=osmand.SAVE, resource_id=_id("right_bottom_button"))
DELETE_FAVORITE = Selector(text=osmand.DELETE, resource_id=_id("delete_button"))
CONFIRM = Selector(resource_id="android:id/button1")
NAME_FIELD = Selector(resource_id=_id("name_edit"))
ADD_POINT = Selector(text=osmand.ADD_POINT, resource_id=_id("add_point_button"))
SAVE_PLAN = Selector(text=osmand.SAVE, resource_id=_id("save_button"))


# ----- locations ----------------------------------------------------------------------------------------------------
def parse_coords(location: str) -> tuple[float, float] | None:
    """``_parse_coords``: ``(lat, lon)`` when the string holds exactly two numbers."""
    numbers = tuple(float(found) for found in _NUMBER.findall(location))
    return numbers if len(numbers) == 2 else None  # type: ignore[return-value]


def location_coords(location: str) -> tuple[float, float] | None:
    """``_lookup_location_coords``: the numbers in the string, else the place of that exact name."""
    return parse_coords(location) or LOCATIONS.get(location)


def coords_match(target: tuple[float, float], actual: tuple[float, float], delta: float = DELTA_DEG) -> bool:
    """Both coordinates within ``delta`` degrees."""
    return all(abs(t - a) < delta for t, a in zip(target, actual))


def random_location(rng: np.random.Generator) -> str:
    """``_random_location_str``: a place, as its name or (half the time) its coordinates in Python's float repr."""
    name = pick(rng, sorted(LOCATIONS))
    if rng.integers(2):
        return name
    lat, lon = LOCATIONS[name]
    return f"{lat}, {lon}"


def search_text(location: str) -> str:
    """What a person types to find a location: the coordinates as given, or the town's name without accents
    (OsmAnd's search ignores them; ``adb shell input text`` types ASCII only)."""
    if parse_coords(location) is not None:
        return location
    return osmand.geo.fold(location.split(",")[0]).title()


def find_place(location: str) -> list[OracleStep]:
    """Search for a location on the map and open its context menu from the result."""
    query = search_text(location)
    result = search_places(query)
    title = result[0].name if parse_coords(location) else location
    return [tap(SEARCH_BUTTON), type_into(SEARCH_FIELD, query),
            tap(Selector(text=title, resource_id=_id("title")))]


# ----- device state -------------------------------------------------------------------------------------------------
def _read(device: Device, path: str) -> bytes | None:
    try:
        return read_file(device, path)
    except FileNotFoundError:
        return None


def favourites(device: Device) -> list[gpx.Favourite] | None:
    """The favourites in favorites.gpx (``None`` when the file is missing)."""
    data = _read(device, osmand.FAVORITES_PATH)
    if data is None:
        return None
    return [point for _, point in gpx.favourites_in(gpx.parse_gpx(data))]


def strip_waypoints(device: Device, path: str) -> None:
    """``_clear_favorites``: remove every ``wpt`` from a GPX file, if it exists."""
    data = _read(device, path)
    root = gpx.parse_gpx(data) if data is not None else None
    if root is None:
        return
    for wpt in root.findall("gpx:wpt", _GPX):
        root.remove(wpt)
    write_file(device, path, etree.tostring(root, xml_declaration=True, encoding="UTF-8"))


def track_points(data: bytes) -> Iterator[tuple[float, float]]:
    """``_track_points``: the ``trk/trkseg/trkpt`` points of a GPX document, in order."""
    root = gpx.parse_gpx(data)
    if root is None:
        return
    for point in root.findall("gpx:trk/gpx:trkseg/gpx:trkpt", _GPX):
        try:
            yield float(point.get("lat")), float(point.get("lon"))
        except (TypeError, ValueError):
            continue


def track_matches(points: Iterator[tuple[float, float]], waypoints: Sequence[tuple[float, float]]) -> bool:
    """``_track_matches``: the waypoints appear among the points in order, with any points between."""
    wanted = iter(waypoints)
    target = next(wanted, None)
    for point in points:
        if target is not None and coords_match(point, target):
            target = next(wanted, None)
            if target is None:
                return True
    return False


def clear_markers(device: Device) -> None:
    """Empty ``map_markers`` (AndroidWorld's ``SQLiteApp`` clears the table)."""
    sqlite_execute(device, osmand.MARKERS_DB, "DELETE FROM map_markers")


def marker_near(device: Device, target: tuple[float, float]) -> bool:
    """Whether some ``map_markers`` row (active or not) lies within 0.001° of ``target``."""
    rows = sqlite_query(device, osmand.MARKERS_DB, "SELECT marker_lat, marker_lon FROM map_markers")
    return any(row["marker_lat"] is not None and row["marker_lon"] is not None
               and coords_match((row["marker_lat"], row["marker_lon"]), target) for row in rows)


class _OsmAndTask(Task):
    """An OsmAnd task whose state ``clear`` empties at init and again at teardown."""

    app_packages = (osmand.PACKAGE,)
    setup_clears_teardown = True  # what the task checks is emptied by clear_state

    def clear(self, device: Device) -> None:
        """Empty what the task checks."""
        raise NotImplementedError

    def clear_state(self, device: Device) -> None:
        self.clear(device)

    def teardown(self, device: Device) -> None:
        self.clear(device)
        super().teardown(device)


class _LocationTask(_OsmAndTask):
    """A task about one location: a place name or its coordinates."""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {"location": random_location(rng)}


# ----- AndroidWorld's tasks -----------------------------------------------------------------------------------------
def _clear_favourites(device: Device) -> None:
    device.shell(f"rm -rf {shlex.quote(BACKUP_DIR)}/*")
    for path in (osmand.FAVORITES_PATH, LEGACY_FAVORITES):
        strip_waypoints(device, path)


@register_task
class OsmAndFavorite(_LocationTask):
    """Add a favourite for a place (by name or coordinates)."""

    name = "OsmAndFavorite"
    complexity = 1.3
    template = "Add a favorite location marker for {location} in the OsmAnd maps app."

    def clear(self, device: Device) -> None:
        _clear_favourites(device)

    def is_successful(self, device: Device) -> float:
        """Some favourite's name contains the location string, or its lat/lon match the location's numbers."""
        location, coords = self.params["location"], parse_coords(self.params["location"])

        def matches(point: gpx.Favourite) -> bool:
            return location in point.name or (coords is not None and coords_match((point.lat, point.lon), coords))

        return float(any(matches(point) for point in favourites(device) or ()))

    def oracle(self) -> Sequence[OracleStep]:
        """Find the place, then Favorite → Save."""
        return [open_app(APP_NAME), *find_place(self.params["location"]), tap(FAVORITE_BUTTON), tap(SAVE_FAVORITE),
                complete()]


@register_task
class OsmAndMarker(_LocationTask):
    """Add a map marker for a place (by name or coordinates)."""

    name = "OsmAndMarker"
    complexity = 2.0
    template = "Add a location marker for {location} in the OsmAnd maps app."

    def clear(self, device: Device) -> None:
        clear_markers(device)

    def is_successful(self, device: Device) -> float:
        """Some marker lies within 0.001° of the location."""
        target = location_coords(self.params["location"])
        return float(target is not None and marker_near(device, target))

    def oracle(self) -> Sequence[OracleStep]:
        """Find the place, then Marker."""
        return [open_app(APP_NAME), *find_place(self.params["location"]), tap(MARKER_BUTTON), complete()]


@register_task
class OsmAndTrack(_OsmAndTask):
    """Plan a route through 2–4 places and save it as a track."""

    name = "OsmAndTrack"
    complexity = 12
    template = "Save a track with waypoints {waypoints} in the OsmAnd maps app in the same order as listed."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """2–4 distinct place names; ``track_name`` as AndroidWorld makes it (the goal does not use it)."""
        count = int(rng.integers(2, 5))
        waypoints = [str(name) for name in rng.choice(sorted(LOCATIONS), size=count, replace=False)]
        return {"waypoints": waypoints, "track_name": f"{waypoints[0]} to {waypoints[-1]}"}

    @property
    def goal(self) -> str:
        return self.template.format(waypoints=", ".join(self.params["waypoints"]))

    def clear(self, device: Device) -> None:
        device.shell(f"rm -rf {shlex.quote(osmand.TRACKS_DIR)}/*")

    def is_successful(self, device: Device) -> float:
        """Some top-level file in ``tracks`` is GPX whose track points pass the waypoints in order."""
        targets = [location_coords(name) for name in self.params["waypoints"]]
        if any(target is None for target in targets):
            return 0.0
        try:
            names = list_dir(device, osmand.TRACKS_DIR)
        except FileNotFoundError:
            return 0.0
        for name in names:
            data = _read(device, f"{osmand.TRACKS_DIR}/{name}")
            if data is not None and track_matches(track_points(data), targets):  # type: ignore[arg-type]
                return 1.0
        return 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Menu → Plan a route; for each waypoint search it (the map centres on it) and Add point; Save, Save."""
        steps: list[OracleStep] = [open_app(APP_NAME), tap(MENU_BUTTON),
                                   tap(Selector(text=osmand.PLAN_A_ROUTE, resource_id=_id("title")))]
        for name in self.params["waypoints"]:
            steps += [*find_place(name), tap(ADD_POINT)]
        return [*steps, tap(SAVE_PLAN), tap(CONFIRM), complete()]


# ----- ours: editing favourites -------------------------------------------------------------------------------------
class _EditFavouriteTask(_OsmAndTask):
    """Three favourites with distinct names at distinct places; the task is about ``params["name"]``."""

    complexity = 1.5

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        names = [str(name) for name in rng.choice(FAVOURITE_NAMES, size=3, replace=False)]
        places = [str(place) for place in rng.choice(sorted(LOCATIONS), size=3, replace=False)]
        return {"name": names[int(rng.integers(3))], "favourites": [[n, *LOCATIONS[p]] for n, p in zip(names, places)]}

    def seeded(self) -> list[gpx.Favourite]:
        """The favourites the task starts with."""
        return [gpx.Favourite(name, lat, lon) for name, lat, lon in self.params["favourites"]]

    def clear(self, device: Device) -> None:
        _clear_favourites(device)

    def seed_state(self, device: Device) -> None:
        self.run(device, f"mkdir -p {shlex.quote(osmand.FILES_DIR)}/favorites")
        write_file(device, osmand.FAVORITES_PATH, gpx.favourites_gpx(self.seeded(), self.device_time))

    def expected(self) -> list[gpx.Favourite]:
        """The favourites the goal asks for, in file order."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """Exactly the expected favourites (names and places, within 0.001°) are left, in any order."""
        points, wanted = favourites(device), self.expected()
        if points is None or len(points) != len(wanted):
            return 0.0
        pairs = zip(sorted(points, key=lambda p: p.name), sorted(wanted, key=lambda p: p.name))
        return float(all(p.name == w.name and coords_match((p.lat, p.lon), (w.lat, w.lon)) for p, w in pairs))

    def show_favourite(self) -> list[OracleStep]:
        """Menu → My places → the favourite (its context menu opens)."""
        return [open_app(APP_NAME), tap(MENU_BUTTON), tap(Selector(text=osmand.MY_PLACES, resource_id=_id("title"))),
                tap(Selector(text=self.params["name"], resource_id=_id("title")))]


@register_task
class OsmAndDeleteFavorite(_EditFavouriteTask):
    """Delete one favourite by name."""

    name = "OsmAndDeleteFavorite"
    template = 'Delete the favorite location "{name}" in the OsmAnd maps app.'

    def expected(self) -> list[gpx.Favourite]:
        return [point for point in self.seeded() if point.name != self.params["name"]]

    def oracle(self) -> Sequence[OracleStep]:
        """Edit the favourite, Delete, confirm."""
        return [*self.show_favourite(), tap(EDIT_BUTTON), tap(DELETE_FAVORITE), tap(CONFIRM), complete()]


@register_task
class OsmAndRenameFavorite(_EditFavouriteTask):
    """Rename one favourite."""

    name = "OsmAndRenameFavorite"
    template = 'Rename the favorite location "{name}" to "{new_name}" in the OsmAnd maps app.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        return {**super().generate_params(rng), "new_name": pick(rng, NEW_NAMES)}

    def expected(self) -> list[gpx.Favourite]:
        return [gpx.Favourite(self.params["new_name"], point.lat, point.lon) if point.name == self.params["name"]
                else point for point in self.seeded()]

    def oracle(self) -> Sequence[OracleStep]:
        """Edit the favourite, replace its name, Save."""
        return [*self.show_favourite(), tap(EDIT_BUTTON), replace_text(NAME_FIELD, self.params["new_name"]),
                tap(SAVE_FAVORITE), complete()]


@register_task
class OsmAndMarkFavorite(_EditFavouriteTask):
    """Put a map marker on one favourite."""

    name = "OsmAndMarkFavorite"
    template = 'Add a map marker at the favorite location "{name}" in the OsmAnd maps app.'

    def clear(self, device: Device) -> None:
        super().clear(device)
        clear_markers(device)

    def expected(self) -> list[gpx.Favourite]:
        return self.seeded()

    def is_successful(self, device: Device) -> float:
        """The favourites are as they were and a marker lies within 0.001° of the named one."""
        point = next(p for p in self.seeded() if p.name == self.params["name"])
        return float(super().is_successful(device) == 1.0 and marker_near(device, (point.lat, point.lon)))

    def oracle(self) -> Sequence[OracleStep]:
        """Show the favourite, then Marker."""
        return [*self.show_favourite(), tap(MARKER_BUTTON), complete()]
