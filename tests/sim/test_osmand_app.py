"""OsmAnd on the simulated phone: the map of Liechtenstein, search, the context menu, favourites (favorites.gpx),
map markers (map_markers_db) and "Plan a route" (a track GPX)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import numpy as np
import pytest
from lxml import etree
from ui_nodes import center, find, nodes, tap

from android_gym.device.sim import SimDevice
from android_gym.sim import keycodes
from android_gym.sim.apps import osmand
from android_gym.sim.apps import osmand_gpx as gpx
from android_gym.sim.apps import osmand_map as geo
from android_gym.sim.phone import Phone

PKG = osmand.PACKAGE
GPX = {"gpx": gpx.GPX_NS, "osmand": gpx.OSMAND_NS}


def rid(name: str) -> str:
    return f"{PKG}:id/{name}"


@pytest.fixture
def device() -> Iterator[SimDevice]:
    dev = SimDevice()
    yield dev
    dev.close()


@pytest.fixture
def phone(device: SimDevice) -> Phone:
    device.phone.run(f"am start -n {PKG}/{osmand.MAP_ACTIVITY}")
    return device.phone


def screen(phone: Phone) -> osmand.MapScreen:
    top = phone.activities.top
    assert isinstance(top, osmand.MapScreen)
    return top


def texts(phone: Phone, name: str) -> list[str]:
    return [n.get("text") for n in nodes(phone) if n.get("resource-id") == rid(name)]


def search(phone: Phone, query: str) -> None:
    tap(phone, resource_id=rid("map_search_button"))
    phone.window.type_text(query)


def open_place(phone: Phone, query: str, title: str) -> None:
    search(phone, query)
    tap(phone, text=title, resource_id=rid("title"))


def favourites_root(phone: Phone) -> etree._Element:
    return etree.fromstring(phone.fs.read_bytes(osmand.FAVORITES_PATH))


def markers(phone: Phone) -> list[dict]:
    with sqlite3.connect(phone.fs.host_path(osmand.MARKERS_DB)) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM map_markers")]


def test_the_launcher_opens_the_map_of_liechtenstein(phone: Phone):
    assert phone.activities.foreground() == (PKG, osmand.MAP_ACTIVITY)
    for description in (osmand.SEARCH, osmand.ZOOM_IN, osmand.ZOOM_OUT, osmand.MENU):
        assert find(phone, content_desc=description) is not None
    pixels = phone.screenshot()
    assert len({tuple(p) for p in pixels[300:2000:40, 100:1000:40].reshape(-1, 3)}) > 4  # land, roads, border…


def test_the_projection_round_trips_and_north_is_up():
    view = geo.Viewport(47.16, 9.55, 12, 1080, 2000)
    x, y = view.to_pixel(*geo.TOWNS["Ruggell"])
    lat, lon = view.to_latlon(x, y)
    assert abs(lat - geo.TOWNS["Ruggell"][0]) < 1e-9 and abs(lon - geo.TOWNS["Ruggell"][1]) < 1e-9
    assert view.to_pixel(*geo.TOWNS["Ruggell"])[1] < view.to_pixel(*geo.TOWNS["Balzers"])[1]
    assert view.to_pixel(47.16, 9.55) == (540, 1000)


@pytest.mark.parametrize(("text", "expected"), [
    ("47.1026191, 9.6083057", (47.1026191, 9.6083057)), ("47.1 9.5", (47.1, 9.5)), ("-33.9,18.4", (-33.9, 18.4)),
    ("47.1", None), ("1, 2, 3", None), ("Balzers 1, 2", None), ("95, 9", None), ("", None)])
def test_coordinates_are_two_numbers_in_range(text, expected):
    assert geo.parse_coordinates(text) == expected


def test_search_finds_places_ignoring_case_and_accents(phone: Phone):
    search(phone, "schonberg")
    assert texts(phone, "title") == ["Schönberg, Liechtenstein"]
    phone.window.type_text("xx")
    assert texts(phone, "title") == []
    assert [p.name for p in geo.search("planken")] == ["Oberplanken, Liechtenstein", "Planken, Liechtenstein"]


def test_a_search_result_opens_its_context_menu_and_favorite_writes_gpx_1_1(phone: Phone):
    open_place(phone, "Balzers", "Balzers, Liechtenstein")
    assert texts(phone, "context_menu_line1") == ["Balzers, Liechtenstein"]
    tap(phone, text=osmand.FAVORITE)
    assert find(phone, resource_id=rid("name_edit")).get("text") == "Balzers, Liechtenstein"
    tap(phone, text=osmand.SAVE)
    root = favourites_root(phone)
    assert root.tag == f"{{{gpx.GPX_NS}}}gpx" and root.get("version") == "1.1"
    [wpt] = root.findall("gpx:wpt", GPX)
    assert (wpt.get("lat"), wpt.get("lon")) == ("47.0688832", "9.5061564")
    assert wpt.findtext("gpx:name", namespaces=GPX) == "Balzers, Liechtenstein"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", wpt.findtext("gpx:time", namespaces=GPX))
    assert wpt.findtext("gpx:extensions/osmand:icon", namespaces=GPX) == "special_star"
    assert phone.fs.read_bytes(osmand.FAVORITES_PATH).startswith(b"<?xml version='1.0' encoding='UTF-8'")


def test_coordinates_search_gives_a_location_point(phone: Phone):
    open_place(phone, "47.1026191, 9.6083057", "47.10262, 9.60831")
    assert texts(phone, "context_menu_line2") == [osmand.LOCATION]
    tap(phone, text=osmand.MARKER)
    [row] = markers(phone)
    assert (row["marker_lat"], row["marker_lon"], row["marker_active"]) == (47.1026191, 9.6083057, 1)
    assert row["marker_description"] == "map_marker#47.10262, 9.60831"


def test_two_markers_added_in_one_millisecond_get_ids_of_their_own(phone: Phone):
    """A marker's id is the time and three random digits, as ``insertLast`` makes it: two added at one instant of the
    virtual clock (an agent's taps between which no time passes) are two markers, not a database error."""
    database = osmand.MarkersDatabase(phone)
    for town in ("Triesen", "Ruggell"):
        database.add(town, 47.1, 9.5, 1_697_384_040_000)
    ids = [row["marker_id"] for row in markers(phone)]
    assert len(set(ids)) == 2 and all(re.fullmatch(r"1697384040000[1-9]\d\d", marker_id) for marker_id in ids)


def test_markers_are_a_linked_list_in_the_real_schema(phone: Phone):
    for town in ("Triesen", "Ruggell"):
        open_place(phone, town, f"{town}, Liechtenstein")
        tap(phone, text=osmand.MARKER)
    rows = sorted(markers(phone), key=lambda row: row["marker_added"])
    assert rows[0]["marker_next_key"] == rows[1]["marker_id"] and rows[1]["marker_next_key"] == osmand.TAIL_NEXT
    with sqlite3.connect(phone.fs.host_path(osmand.MARKERS_DB)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == osmand.MARKERS_DB_VERSION
        columns = [row[1] for row in db.execute("PRAGMA table_info(map_markers)")]
    assert columns[:5] == ["marker_id", "marker_lat", "marker_lon", "marker_description", "marker_active"]
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.MAP_MARKERS)
    assert texts(phone, "title") == ["Ruggell, Liechtenstein", "Triesen, Liechtenstein"]


def test_a_touch_on_a_town_opens_its_menu_and_a_drag_pans(phone: Phone):
    view = screen(phone)._viewport()
    x, y = view.to_pixel(*geo.TOWNS["Malbun"])
    map_node = find(phone, resource_id=rid("map_view_with_layers"))
    left, top = map(float, map_node.get("bounds")[1:].split("]")[0].split(","))
    phone.tap(left + x + 5, top + y + 5)
    assert texts(phone, "context_menu_line1") == ["Malbun, Liechtenstein"]
    phone.key(keycodes.BACK)
    before = screen(phone).center
    phone.swipe(500, 1200, 300, 1000)
    after = screen(phone).center
    assert after[1] > before[1] and after[0] < before[0]  # dragged left and up: the map moves east and south


def test_zoom_buttons(phone: Phone):
    tap(phone, content_desc=osmand.ZOOM_IN)
    assert screen(phone).zoom == geo.DEFAULT_ZOOM + 1
    for _ in range(20):
        tap(phone, content_desc=osmand.ZOOM_OUT)
    assert screen(phone).zoom == geo.MIN_ZOOM


def test_plan_a_route_saves_a_track_of_the_points_in_order(phone: Phone):
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.PLAN_A_ROUTE)
    for town in ("Schaan", "Malbun"):
        tap(phone, content_desc=osmand.SEARCH)
        phone.window.type_text(town)
        tap(phone, text=f"{town}, Liechtenstein", resource_id=rid("title"))
        tap(phone, text=osmand.ADD_POINT)
    assert texts(phone, "measurement_points_text_view") == ["2 points"]
    tap(phone, text=osmand.SAVE, resource_id=rid("save_button"))
    assert find(phone, resource_id=rid("name_edit_text")).get("text") == "2023-10-15_15-34_Sun"
    tap(phone, resource_id="android:id/button1")
    [name] = phone.fs.listdir(osmand.TRACKS_DIR)
    assert name == "2023-10-15_15-34_Sun.gpx"
    root = etree.fromstring(phone.fs.read_bytes(f"{osmand.TRACKS_DIR}/{name}"))
    points = [(float(p.get("lat")), float(p.get("lon"))) for p in root.findall("gpx:trk/gpx:trkseg/gpx:trkpt", GPX)]
    assert points == [geo.TOWNS["Schaan"], geo.TOWNS["Malbun"]]


def test_favourites_can_be_renamed_and_deleted_keeping_the_rest_of_the_file(phone: Phone):
    other = b"<extensions xmlns='http://www.topografix.com/GPX/1/1'><x>kept</x></extensions>"
    points = [gpx.Favourite("Home", 47.1, 9.5), gpx.Favourite("Gym", 47.2, 9.52)]
    data = gpx.favourites_gpx(points, phone.clock.now()).replace(b"</gpx>", other + b"</gpx>")
    phone.fs.makedirs("/sdcard/Android/data/net.osmand/files/favorites")
    phone.fs.write_bytes(osmand.FAVORITES_PATH, data)
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.MY_PLACES)
    tap(phone, text="Gym")
    tap(phone, text=osmand.EDIT)
    name = find(phone, resource_id=rid("name_edit"))
    phone.tap(*center(name))
    for _ in "Gym":
        phone.key(keycodes.DEL)
    phone.window.type_text("Pool")
    tap(phone, text=osmand.SAVE)
    assert [p.name for p in osmand.FavouritesFile(phone).points()] == ["Home", "Pool"]
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.MY_PLACES)
    tap(phone, text="Home")
    tap(phone, text=osmand.EDIT)
    tap(phone, text=osmand.DELETE)
    tap(phone, resource_id="android:id/button1")
    assert [p.name for p in osmand.FavouritesFile(phone).points()] == ["Pool"]
    assert b"<x>kept</x>" in phone.fs.read_bytes(osmand.FAVORITES_PATH)


def test_favourites_are_read_again_only_after_the_file_was_written(phone: Phone, monkeypatch):
    """My places reads favorites.gpx once per write of it, by the app or anyone else (here the shell), not on
    every redraw."""
    parsed = []
    monkeypatch.setattr(osmand, "parse_gpx", lambda data: parsed.append(data) or gpx.parse_gpx(data))
    phone.fs.makedirs("/sdcard/Android/data/net.osmand/files/favorites")
    phone.fs.write_bytes(osmand.FAVORITES_PATH, gpx.favourites_gpx([gpx.Favourite("Home", 47.1, 9.5)],
                                                                  phone.clock.now()))
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.MY_PLACES)
    for _ in range(3):
        phone.invalidate()
        assert texts(phone, "title") == ["Home"]
    assert len(parsed) == 1
    rewritten = gpx.favourites_gpx([gpx.Favourite("Gym", 47.2, 9.52)], phone.clock.now())
    phone.fs.write_bytes("/sdcard/rewritten.gpx", rewritten)
    assert phone.run(f"cp /sdcard/rewritten.gpx {osmand.FAVORITES_PATH}").exit_code == 0
    phone.invalidate()
    assert texts(phone, "title") == ["Gym"] and len(parsed) == 2


def test_a_broken_favourites_file_never_crashes(phone: Phone):
    phone.fs.makedirs("/sdcard/Android/data/net.osmand/files/favorites")
    phone.fs.write_bytes(osmand.FAVORITES_PATH, b"<gpx><wpt lat='x'>")
    tap(phone, content_desc=osmand.MENU)
    tap(phone, text=osmand.MY_PLACES)
    assert find(phone, text=osmand.NO_FAVORITES) is not None
    phone.key(keycodes.BACK)
    open_place(phone, "Bendern", "Bendern, Liechtenstein")
    tap(phone, text=osmand.FAVORITE)
    tap(phone, text=osmand.SAVE)
    assert [p.name for p in osmand.FavouritesFile(phone).points()] == ["Bendern, Liechtenstein"]


def test_number_format_and_track_names():
    assert [gpx.number(v) for v in (47.0, 9.5061564, 47.23976, 1.123456789)] == [
        "47.00", "9.5061564", "47.23976", "1.1234568"]
    assert osmand.track_file_name("a/b: c") == "a_b_ c.gpx" and osmand.track_file_name(" ") == "track.gpx"
    assert np.isclose(geo.world_latlon(*geo.world_xy(47.2, 9.5, 11), 11), (47.2, 9.5)).all()
