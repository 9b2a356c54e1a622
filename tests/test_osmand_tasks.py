"""OsmAnd tasks: parameters as AndroidWorld draws them, and each check's positive and negative cases on the state
the real app keeps (favorites.gpx, map_markers_db, tracks/*.gpx)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from lxml import etree

from android_gym.device.sim import SimDevice
from android_gym.device.state import sqlite_execute
from android_gym.envs import osmand as tasks
from android_gym.sim.apps import osmand
from android_gym.sim.apps import osmand_gpx as gpx

BALZERS = (47.0688832, 9.5061564)
MALBUN = (47.1026191, 9.6083057)


@pytest.fixture
def device() -> Iterator[SimDevice]:
    dev = SimDevice()
    yield dev
    dev.close()


def push_favourites(device: SimDevice, *points: gpx.Favourite) -> None:
    device.shell(f"mkdir -p {osmand.FILES_DIR}/favorites")
    device.push(gpx.favourites_gpx(list(points), tasks.OsmAndFavorite.device_time), osmand.FAVORITES_PATH)


def test_locations_are_names_or_float_reprs_about_half_each():
    drawn = [tasks.random_location(np.random.default_rng(seed)) for seed in range(200)]
    coordinates = [text for text in drawn if text not in tasks.LOCATIONS]
    assert 60 < len(coordinates) < 140
    for text in coordinates:
        lat, lon = tasks.parse_coords(text)
        assert text == f"{lat}, {lon}" and (lat, lon) in tasks.LOCATIONS.values()


def test_track_params_are_two_to_four_distinct_names():
    for seed in range(30):
        params = tasks.OsmAndTrack.generate_params(np.random.default_rng(seed))
        waypoints = params["waypoints"]
        assert 2 <= len(waypoints) <= 4 and len(set(waypoints)) == len(waypoints)
        assert set(waypoints) <= set(tasks.LOCATIONS)
        assert params["track_name"] == f"{waypoints[0]} to {waypoints[-1]}"
    goal = tasks.OsmAndTrack({"waypoints": ["Balzers, Liechtenstein", "Malbun, Liechtenstein"]}).goal
    assert goal == ("Save a track with waypoints Balzers, Liechtenstein, Malbun, Liechtenstein in the OsmAnd maps app "
                    "in the same order as listed.")


@pytest.mark.parametrize(("text", "expected"), [
    ("47.1026191, 9.6083057", MALBUN), ("Malbun, Liechtenstein", MALBUN), ("Malbun", None), ("1, 2, 3", None)])
def test_location_lookup(text, expected):
    assert tasks.location_coords(text) == expected


def test_search_text_is_typeable():
    assert tasks.search_text("Schönberg, Liechtenstein") == "Schonberg"
    assert tasks.search_text("47.1026191, 9.6083057") == "47.1026191, 9.6083057"


@pytest.mark.parametrize(("location", "favourite", "expected"), [
    ("Balzers, Liechtenstein", gpx.Favourite("Balzers, Liechtenstein", 0.0, 0.0), 1.0),
    ("Balzers, Liechtenstein", gpx.Favourite("balzers, liechtenstein", *BALZERS), 0.0),  # name only, case counts
    ("47.0688832, 9.5061564", gpx.Favourite("x", 47.0695, 9.5055), 1.0),
    ("47.0688832, 9.5061564", gpx.Favourite("x", 47.0699, 9.5061564), 0.0),
])
def test_favorite_check(device, location, favourite, expected):
    task = tasks.OsmAndFavorite({"location": location})
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    push_favourites(device, favourite)
    assert task.is_successful(device) == expected


def test_favorite_init_strips_waypoints_and_empties_the_backup(device):
    push_favourites(device, gpx.Favourite("Home", *BALZERS))
    device.shell(f"mkdir -p {tasks.BACKUP_DIR} && echo x > {tasks.BACKUP_DIR}/favourites_2023.gpx.bz2")
    task = tasks.OsmAndFavorite({"location": "Home"})
    task.initialize(device)
    root = etree.fromstring(device.pull(osmand.FAVORITES_PATH))
    assert etree.QName(root).namespace == gpx.GPX_NS and not root.findall(f"{{{gpx.GPX_NS}}}wpt")
    assert device.shell(f"ls {tasks.BACKUP_DIR}").output.strip() == ""
    assert task.is_successful(device) == 0.0


def test_marker_check(device):
    task = tasks.OsmAndMarker({"location": "Malbun, Liechtenstein"})
    sqlite_execute(device, osmand.MARKERS_DB, "INSERT INTO map_markers (marker_id, marker_lat, marker_lon, "
                   "marker_active) VALUES ('old', ?, ?, 1)", MALBUN)
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    sqlite_execute(device, osmand.MARKERS_DB, "INSERT INTO map_markers (marker_id, marker_lat, marker_lon, "
                   "marker_active) VALUES ('a', 47.1035, 9.6075, 0)")
    assert task.is_successful(device) == 1.0  # within 0.001°, history markers count too
    task.teardown(device)
    assert task.is_successful(device) == 0.0


def test_track_check_needs_the_waypoints_in_order(device):
    task = tasks.OsmAndTrack({"waypoints": ["Balzers, Liechtenstein", "Malbun, Liechtenstein"]})
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    time = task.device_time
    device.shell(f"mkdir -p {osmand.TRACKS_DIR}")
    device.push(gpx.track_gpx("back", [MALBUN, BALZERS], time), f"{osmand.TRACKS_DIR}/back.gpx")
    assert task.is_successful(device) == 0.0
    device.push(b"not xml", f"{osmand.TRACKS_DIR}/junk.gpx")
    assert task.is_successful(device) == 0.0
    device.push(gpx.track_gpx("there", [(47.0, 9.0), BALZERS, (47.09, 9.55), MALBUN], time),
                f"{osmand.TRACKS_DIR}/there.gpx")
    assert task.is_successful(device) == 1.0
    task.teardown(device)
    assert device.shell(f"ls {osmand.TRACKS_DIR}").output.strip() == ""


def test_track_gpx_is_gpx_1_1():
    data = gpx.track_gpx("t", [BALZERS, MALBUN], tasks.OsmAndTrack.device_time)
    root = etree.fromstring(data)
    assert root.tag == f"{{{gpx.GPX_NS}}}gpx" and root.get("version") == "1.1"
    assert root.nsmap["osmand"] == gpx.OSMAND_NS
    assert [etree.QName(child).localname for child in root] == ["metadata", "trk"]
    assert list(tasks.track_points(data)) == [BALZERS, MALBUN]


def test_editing_tasks_check_exactly_the_named_favourite(device):
    params = tasks.OsmAndRenameFavorite.generate_params(np.random.default_rng(3))
    rename = tasks.OsmAndRenameFavorite(params)
    rename.initialize(device)
    assert rename.is_successful(device) == 0.0
    seeded = rename.seeded()
    renamed = [gpx.Favourite(params["new_name"], p.lat, p.lon) if p.name == params["name"] else p for p in seeded]
    push_favourites(device, *renamed)
    assert rename.is_successful(device) == 1.0
    push_favourites(device, *[p for p in renamed if p.name == params["new_name"]])
    assert rename.is_successful(device) == 0.0  # another favourite went missing
    delete = tasks.OsmAndDeleteFavorite(params)
    delete.initialize(device)
    assert delete.is_successful(device) == 0.0
    push_favourites(device, *[p for p in seeded if p.name != params["name"]])
    assert delete.is_successful(device) == 1.0
    push_favourites(device)
    assert delete.is_successful(device) == 0.0


def test_marking_a_favourite_needs_a_marker_on_it_and_the_favourites_kept(device):
    params = tasks.OsmAndMarkFavorite.generate_params(np.random.default_rng(5))
    task = tasks.OsmAndMarkFavorite(params)
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    named = next(p for p in task.seeded() if p.name == params["name"])
    other = next(p for p in task.seeded() if p.name != params["name"])
    insert = "INSERT INTO map_markers (marker_id, marker_lat, marker_lon, marker_active) VALUES (?, ?, ?, 1)"
    sqlite_execute(device, osmand.MARKERS_DB, insert, ("a", other.lat, other.lon))
    assert task.is_successful(device) == 0.0
    sqlite_execute(device, osmand.MARKERS_DB, insert, ("b", named.lat, named.lon))
    assert task.is_successful(device) == 1.0
    push_favourites(device, named)
    assert task.is_successful(device) == 0.0  # the other favourites went missing
