"""OsmAnd 4.6.13 (``net.osmand``, AndroidWorld's ``net.osmand-4.6.13.apk``) with the offline map of Liechtenstein:
the map (``MapActivity``), search, the context menu of a point, favourites, map markers and "Plan a route".

State lives where the real app keeps it (AndroidWorld's ``task_evals/single/osmand.py`` and OsmAnd's source):

* favourites: ``Android/data/net.osmand/files/favorites/favorites.gpx``, GPX 1.1 ``wpt``s as ``FavouritesFileHelper``
  saves them (``osmand_gpx``); the app rewrites the file it finds, keeping what else it holds;
* map markers: ``/data/data/net.osmand/databases/map_markers_db`` (``MapMarkersDbHelper``, DB_VERSION 13: tables
  ``map_markers`` and ``map_markers_groups``): a new marker is active and is appended to the linked list
  (``insertLast``: ``marker_next_key`` names the next marker, ``tail_next`` ends the list); it describes its point as
  ``map_marker#<name>`` (``PointDescription.serializeToString``); the Map markers list shows the newest first;
* tracks: "Plan a route" → Save writes ``Android/data/net.osmand/files/tracks/<name>.gpx``, a GPX 1.1 ``trk`` with
  one ``trkseg`` of the planned points in order (``osmand_gpx``).

The screen: the map fills it (a Web-Mercator picture of Liechtenstein, ``osmand_map``), with the search, zoom and
menu buttons of ``map_hud`` over it. A tap or long press on the map opens the context menu of the town under the
finger, or of the bare point; the menu offers Favorite and Marker. Search lists places by name, or a point for
"lat, lon"; choosing one opens its context menu (while planning a route it centres the map instead). The menu's
"My places" lists favourites (tap one to see it; Edit renames or deletes it), "Map markers" lists active markers,
"Plan a route" adds the point under the centre crosshair with "Add point" and saves the track by name.

Simplified: the route between planned points is straight (the track holds just the points); marker ids are the
device time of their adding (the real app builds them from the name and an OSM short link, ``getMarkerId``). The
markers database follows ``MapMarkersDbHelper`` as read in OsmAnd's repository; screen labels and resource-ids
(``map_search_button``, ``map_zoom_in_button``, ``map_zoom_out_button``, ``map_menu_button``, ``context_menu_*``,
the editor's and plan-a-route's) follow the real app as far as known but were not checked against 4.6.13's
layouts. A tap on the map opens the context menu as a long press does (the simulator hands a drawn view's long
press to its touch handler as a tap).
Not simulated: the first-run and download screens (AndroidWorld's setup skips them), navigation, the real .obf map
and its POIs, the search categories and history, favourite groups, colours and icons, marker history, sharing, the
map's last position kept across restarts, plan-route editing (undo, moving and deleting points, route profiles).
"""

from __future__ import annotations

import datetime as dt
import functools
import posixpath
import random
import re
from dataclasses import dataclass

from lxml import etree

from android_gym.sim.apps import osmand_map as geo
from android_gym.sim.apps.osmand_gpx import (
    GPX_NS,
    Favourite,
    favourite_wpt,
    favourites_in,
    gpx_bytes,
    new_gpx,
    parse_gpx,
    track_gpx,
)
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.window import KEYBOARD_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.fs import EXTERNAL_STORAGE
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.dialogs import alert_dialog, confirm_dialog, dialog_over, scrim_over
from android_gym.sim.ui.views import (
    DIVIDER,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    drawing_surface,
    edit_text,
    frame,
    image_button,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "net.osmand"
MAP_ACTIVITY = "net.osmand.plus.activities.MapActivity"
VERSION_NAME = "4.6.13"
FILES_DIR = f"{EXTERNAL_STORAGE}/Android/data/{PACKAGE}/files"
FAVORITES_PATH = f"{FILES_DIR}/favorites/favorites.gpx"
TRACKS_DIR = f"{FILES_DIR}/tracks"
MARKERS_DB = f"/data/data/{PACKAGE}/databases/map_markers_db"
MARKERS_DB_VERSION = 13  # MapMarkersDbHelper.DB_VERSION
TAIL_NEXT, HISTORY_NEXT = "tail_next", "history_next"  # MapMarkersDbHelper.TAIL_NEXT_VALUE, HISTORY_NEXT_VALUE

# strings.xml
APP_NAME = "OsmAnd"
SEARCH, ZOOM_IN, ZOOM_OUT, MENU = "Search", "Zoom in", "Zoom out", "Menu"
SEARCH_HINT = "Type to search"
FAVORITE, MARKER, EDIT, CLOSE = "Favorite", "Marker", "Edit", "Close"
ADD_FAVORITE, EDIT_FAVORITE, NAME, SAVE, CANCEL, DELETE = ("Add favorite", "Edit favorite", "Name", "Save", "Cancel",
                                                           "Delete")
MY_PLACES, FAVORITES, MAP_MARKERS, PLAN_A_ROUTE = "My places", "Favorites", "Map markers", "Plan a route"
ADD_POINT, SAVE_AS_NEW_TRACK, FILE_NAME = "Add point", "Save as new track", "File name"
NO_FAVORITES, NO_MARKERS = "No favorites yet", "No active markers"
LOCATION = "Location"
NAVIGATE_UP = "Navigate up"

_GREEN = (35, 122, 68)  # OsmAnd's active colour on light maps
_BAR, _ROW, _BUTTON = 147, 168, 147
_TITLE_SP, _BODY_SP, _SMALL_SP = 50, 42, 36


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


class FavouritesFile:
    """favorites.gpx on the phone: read again only when its write version moved (whoever wrote it: the app, the
    shell, a push), rewritten on every change."""

    def __init__(self, phone: Context) -> None:
        self._phone = phone
        self._points: tuple[int, tuple[Favourite, ...]] | None = None  # (the file's write version, its favourites)

    def _root(self) -> etree._Element | None:
        try:
            return parse_gpx(self._phone.fs.read_bytes(FAVORITES_PATH))
        except OSError:
            return None

    def points(self) -> tuple[Favourite, ...]:
        """The favourites, in file order."""
        version = self._phone.fs.versions(FAVORITES_PATH)[0]  # taken before the file is read
        if self._points is None or self._points[0] != version:
            self._points = version, tuple(point for _, point in favourites_in(self._root()))
        return self._points[1]

    def _save(self, root: etree._Element) -> None:
        self._phone.fs.makedirs(posixpath.dirname(FAVORITES_PATH))
        self._phone.fs.write_bytes(FAVORITES_PATH, gpx_bytes(root))
        self._phone.invalidate()

    def add(self, point: Favourite) -> None:
        """Append a favourite (a file that is missing or not GPX starts afresh)."""
        root = self._root()
        if root is None or etree.QName(root).localname != "gpx":
            root = new_gpx()
        wpts = root.findall(f"{{{GPX_NS}}}wpt")
        anchor = wpts[-1] if wpts else root.find(f"{{{GPX_NS}}}metadata")
        wpt = favourite_wpt(point, self._phone.clock.now().astimezone(dt.timezone.utc))
        if anchor is not None:
            anchor.addnext(wpt)
        else:
            root.insert(0, wpt)
        self._save(root)

    def change(self, index: int, name: str | None) -> None:
        """Rename the ``index``-th favourite, or delete it (``name`` ``None``)."""
        root = self._root()
        found = favourites_in(root)
        if root is None or not 0 <= index < len(found):
            return
        wpt = found[index][0]
        if name is None:
            wpt.getparent().remove(wpt)
        else:
            element = wpt.find(f"{{{GPX_NS}}}name")
            if element is None:
                element = etree.SubElement(wpt, f"{{{GPX_NS}}}name")
            element.text = name
        self._save(root)


# ----- map markers --------------------------------------------------------------------------------------------------
class MarkersDatabase(SqliteProvider):
    """``MapMarkersDbHelper``'s ``map_markers_db``."""

    db_path = MARKERS_DB
    schema = (
        "CREATE TABLE IF NOT EXISTS map_markers (marker_id TEXT PRIMARY KEY, marker_lat double, marker_lon double, "
        "marker_description TEXT, marker_active int, marker_added long, marker_visited long, group_name TEXT, "
        "group_key TEXT, marker_color int, marker_next_key TEXT, marker_disabled int, marker_selected int, "
        "marker_map_object_name TEXT)",
        "CREATE TABLE IF NOT EXISTS map_markers_groups (group_id TEXT PRIMARY KEY, group_name TEXT, group_type int, "
        "group_disabled int, group_categories TEXT)",
        "CREATE TABLE android_metadata (locale TEXT)",
        "INSERT INTO android_metadata VALUES ('en_US')",
        f"PRAGMA user_version = {MARKERS_DB_VERSION}",
    )

    def active(self) -> list[dict]:
        """Active markers, newest first."""
        with self.reading() as db:
            rows = db.execute("SELECT * FROM map_markers WHERE marker_active = 1 ORDER BY marker_added DESC")
            return [dict(found) for found in rows]

    def add(self, name: str, lat: float, lon: float, added_ms: int) -> None:
        """``insertLast``: the new marker's id is the time and three random digits (``currentTimeMillis`` and
        ``nextInt(900) + 100``; drawn here from the time, again while an id is taken, so two markers added in one
        millisecond of the virtual clock still get their own); the marker that ended the list now points at it, and
        it ends the list (``tail_next``); its colour is the next of the ten marker colours."""
        with self._write() as db:
            digits = random.Random(added_ms)
            taken = True
            while taken:
                marker_id = f"{added_ms}{digits.randrange(100, 1000)}"
                taken = db.execute("SELECT 1 FROM map_markers WHERE marker_id = ?", (marker_id,)).fetchone()
            count = db.execute("SELECT COUNT(*) FROM map_markers WHERE marker_active = 1").fetchone()[0]
            db.execute("UPDATE map_markers SET marker_next_key = ? WHERE marker_next_key = ?", (marker_id, TAIL_NEXT))
            db.execute("INSERT INTO map_markers (marker_id, marker_lat, marker_lon, marker_description, marker_active, "
                       "marker_added, marker_visited, group_name, group_key, marker_color, marker_next_key, "
                       "marker_disabled, marker_selected, marker_map_object_name) "
                       "VALUES (?, ?, ?, ?, 1, ?, 0, NULL, NULL, ?, ?, 0, 0, NULL)",
                       (marker_id, lat, lon, f"map_marker#{name}", added_ms, count % 10, TAIL_NEXT))


def marker_name(row: dict) -> str:
    """The name in a marker's ``marker_description`` (``<type>[.<typeName>]#<name>``)."""
    description = str(row.get("marker_description") or "")
    return description.partition("#")[2] or geo.format_coordinates(row["marker_lat"], row["marker_lon"])


def track_file_name(name: str) -> str:
    """A track's file name: the name without path separators, with ``.gpx``."""
    cleaned = re.sub(r"[/\\:*?\"<>|\x00-\x1f]", "_", name.strip()) or "track"
    return cleaned if cleaned.lower().endswith(".gpx") else f"{cleaned}.gpx"


# ----- widgets ------------------------------------------------------------------------------------------------------
def _round_button(name: str, description: str, icon: str, on_click: Callback) -> View:
    """A round map HUD button (``map_button`` style): white, with a grey glyph."""
    return image_button(description, icon, on_click, resource_id=_id(name), background=WHITE, text_color=TEXT,
                        corner=66, elevation=8, margin=0)


def _text_button(text: str, name: str, on_click: Callback, weight: float = 1) -> View:
    return View(kind="button", class_name="android.widget.Button", text=text, resource_id=_id(name), clickable=True,
                focusable=True, on_click=on_click, background=(232, 242, 235), text_color=_GREEN, weight=weight,
                height=_BUTTON, padding=16, text_size=_BODY_SP)


def _toolbar(title: str, back: Callback, *actions: View) -> View:
    up = image_button(NAVIGATE_UP, "arrow_back", back, resource_id=_id("toolbar_back"), text_color=TEXT)
    return row(up, text_view(title, resource_id=_id("toolbar_title"), text_size=_TITLE_SP, bold=True, weight=1,
                             padding=24), *actions, height=_BAR, background=WHITE, elevation=11)


def _list_row(title: str, subtitle: str, on_click: Callback, name: str = "") -> View:
    texts = [text_view(title, resource_id=_id("title"), text_size=_BODY_SP, padding=6)]
    if subtitle:
        texts.append(text_view(subtitle, resource_id=_id("subtitle"), text_size=_SMALL_SP, text_color=TEXT_SECONDARY,
                               padding=6))
    return View(kind="column", class_name="android.widget.LinearLayout", resource_id=_id(name) if name else "",
                clickable=True, focusable=True, on_click=on_click, padding=30, children=texts)


# ----- MapActivity --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Selection:
    """The point a context menu is open for; ``favourite`` is its index in favorites.gpx when it is one."""

    name: str
    lat: float
    lon: float
    kind: str
    favourite: int | None = None


class MapScreen(Screen):
    """``MapActivity``: the map with its HUD, and the fragments it shows over the map (search, context menu,
    favourite editor, main menu, lists, plan a route), one at a time; BACK closes the top one."""

    activity = MAP_ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.center: geo.LatLon = geo.DEFAULT_CENTER
        self.zoom = geo.DEFAULT_ZOOM
        self.mode = "map"  # map, search, drawer, favourites, markers, editor
        self.query = ""
        self.point: Selection | None = None
        self.editor_name = ""
        self.confirm_delete = False
        self.plan: list[geo.LatLon] | None = None  # the points of "Plan a route" while it is open
        self.save_name: str | None = None  # the "Save as new track" dialog's name while it is open
        self.map_view: View | None = None

    @property
    def osmand(self) -> OsmAnd:
        """The app."""
        assert isinstance(self.app, OsmAnd)
        return self.app

    # ----- navigation -----
    def on_back(self) -> bool:
        if self.confirm_delete:
            self.confirm_delete = False
        elif self.save_name is not None:
            self.save_name = None
        elif self.mode != "map":
            self.mode = "map"
            self._hide_keyboard()
        elif self.point is not None:
            self.point = None
        elif self.plan is not None:
            self.plan = None
        else:
            return False
        return True

    def _hide_keyboard(self) -> None:
        self.focus_key, self.keyboard_shown = "", False

    def _open_search(self) -> None:
        self.mode, self.query = "search", ""
        self.focus_key, self.keyboard_shown = "search", True

    def _choose(self, place: geo.Place) -> None:
        """A search result: centre the map on it; open its context menu unless a route is being planned."""
        self.mode, self.center = "map", (place.lat, place.lon)
        self.zoom = max(self.zoom, 13)
        self._hide_keyboard()
        self.point = None if self.plan is not None else Selection(place.name, place.lat, place.lon, place.kind)

    def _show_favourite(self, index: int, point: Favourite) -> None:
        self.mode, self.center = "map", (point.lat, point.lon)
        self.point = Selection(point.name, point.lat, point.lon, FAVORITES, favourite=index)

    # ----- the map -----
    def _viewport(self) -> geo.Viewport:
        height = self.phone.window.design_height - STATUS_BAR_HEIGHT - self.phone.window.nav_bar_height
        if self.focus_key and self.keyboard_shown:
            height -= KEYBOARD_HEIGHT
        return geo.Viewport(self.center[0], self.center[1], self.zoom, self.phone.window.design_width, height)

    def _touch(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A drag pans the map; a touch that does not move opens the context menu of what lies under it."""
        view = self._viewport()
        if abs(x2 - x1) >= 10 or abs(y2 - y1) >= 10:
            self.center = view.to_latlon(view.width / 2 - (x2 - x1), view.height / 2 - (y2 - y1))
            return
        if self.plan is not None:
            return
        lat, lon = view.to_latlon(x1, y1)
        place = geo.nearest_place(lat, lon, 40 * view.degrees_per_px())
        self.point = (Selection(place.name, place.lat, place.lon, place.kind) if place is not None else
                          Selection(geo.format_coordinates(lat, lon), lat, lon, LOCATION))

    def _zoom(self, step: int) -> None:
        self.zoom = min(max(self.zoom + step, geo.MIN_ZOOM), geo.MAX_ZOOM)

    def _map(self) -> View:
        favourites = tuple((p.lat, p.lon) for p in self.osmand.favourites.points())
        markers = tuple((row["marker_lat"], row["marker_lon"]) for row in self.osmand.markers.active())
        selected = (self.point.lat, self.point.lon) if self.point else None
        overlay = geo.Overlay(favourites, markers, selected, tuple(self.plan or ()), self.plan is not None)
        view = self._viewport()
        picture = functools.partial(geo.render, view, overlay)  # drawn only when pixels are asked for
        self.map_view = drawing_surface(self._touch, picture, f"osmand-map:{view}:{overlay}",
                                        resource_id=_id("map_view_with_layers"), clickable=True, gravity="fill")
        return self.map_view

    # ----- build -----
    def build(self) -> View:
        if self.mode == "search":
            return self._search()
        if self.mode == "favourites":
            return self._favourites()
        if self.mode == "markers":
            return self._markers()
        if self.mode == "editor":
            return self._editor()
        content = self._planning() if self.plan is not None else self._browsing()
        if self.mode == "drawer":
            return scrim_over(content, self._drawer(), self._close_drawer)
        if self.save_name is not None:
            return dialog_over(content, self._save_dialog(), None)
        return content

    def _browsing(self) -> View:
        hud_top = row(_round_button("map_search_button", SEARCH, "search", self._open_search), View(weight=1),
                      gravity="top", padding=36)
        zoom = column(_round_button("map_zoom_in_button", ZOOM_IN, "plus", lambda: self._zoom(1)),
                      _round_button("map_zoom_out_button", ZOOM_OUT, "minus", lambda: self._zoom(-1)),
                      spacing=24, width=_ROW)
        hud_right = row(View(weight=1), zoom, gravity="center", padding=24)
        layers = [self._map(), hud_top, hud_right]
        if self.point is not None:
            layers.append(self._context_menu(self.point))
        else:
            layers.append(row(_round_button("map_menu_button", MENU, "menu", self._open_drawer), View(weight=1),
                              gravity="bottom", padding=36))
        return frame(*layers, background=WHITE)

    def _context_menu(self, point: Selection) -> View:
        """``MapContextMenuFragment``: the point's name, what it is, its coordinates and the action buttons."""
        subtitle = point.kind if point.kind in (LOCATION, FAVORITES) else f"{point.kind} • {geo.COUNTRY}"
        if point.favourite is not None:
            first = _text_button(EDIT, "context_menu_fav_button", lambda: self._open_editor(point))
        else:
            first = _text_button(FAVORITE, "context_menu_fav_button", lambda: self._open_editor(point))
        buttons = row(first, _text_button(MARKER, "context_menu_marker_button", lambda: self._add_marker(point)),
                      spacing=24)
        close = image_button(CLOSE, "close", self._close_menu, resource_id=_id("context_menu_close_btn_view"),
                             text_color=TEXT_SECONDARY)
        title = text_view(point.name, resource_id=_id("context_menu_line1"), text_size=_TITLE_SP, bold=True,
                          weight=1, padding=8)
        return column(row(title, close),
                      text_view(subtitle, resource_id=_id("context_menu_line2"), text_size=_SMALL_SP,
                                text_color=TEXT_SECONDARY, padding=8),
                      text_view(geo.format_coordinates(point.lat, point.lon), resource_id=_id("coordinates"),
                                text_size=_SMALL_SP, text_color=TEXT_SECONDARY, padding=8),
                      buttons, resource_id=_id("context_menu_main"), gravity="bottom", background=WHITE, padding=36,
                      spacing=8, elevation=21, corner=36)

    def _close_menu(self) -> None:
        self.point = None

    def _add_marker(self, point: Selection) -> None:
        self.osmand.markers.add(point.name, point.lat, point.lon, self.phone.clock.now_ms())
        self.point = None

    # ----- favourite editor -----
    def _open_editor(self, point: Selection) -> None:
        self.mode, self.editor_name = "editor", point.name
        self.point = point

    def _save_favourite(self) -> None:
        point, name = self.point, self.editor_name.strip()
        if point is None or not name:
            return
        if point.favourite is None:
            self.osmand.favourites.add(Favourite(name, point.lat, point.lon))
        else:
            self.osmand.favourites.change(point.favourite, name)
        self.mode, self.point = "map", None
        self._hide_keyboard()

    def _delete_favourite(self) -> None:
        if self.point is not None and self.point.favourite is not None:
            self.osmand.favourites.change(self.point.favourite, None)
        self.mode, self.point, self.confirm_delete = "map", None, False
        self._hide_keyboard()

    def _set_editor_name(self, text: str) -> None:
        self.editor_name = text

    def _editor(self) -> View:
        """``FavoritePointEditorFragment``: the name, then Save (and Delete for an existing favourite)."""
        existing = self.point is not None and self.point.favourite is not None
        field = edit_text(self.editor_name, NAME, "favourite_name", self._set_editor_name,
                          resource_id=_id("name_edit"), text_size=_BODY_SP)
        buttons = [_text_button(CANCEL, "dismiss_button", self.on_back),
                   _text_button(SAVE, "right_bottom_button", self._save_favourite)]
        if existing:
            buttons.insert(0, _text_button(DELETE, "delete_button", self._ask_delete))
        body = column(_toolbar(EDIT_FAVORITE if existing else ADD_FAVORITE, self.on_back),
                      text_view(NAME, text_size=_SMALL_SP, text_color=_GREEN, padding=36), field, View(weight=1),
                      row(*buttons, spacing=24, padding=36), background=WHITE)
        if self.confirm_delete and self.point is not None:
            message = f"Delete favorite point “{self.point.name}”?"
            return dialog_over(body, confirm_dialog(message, CANCEL, self._cancel_delete, DELETE,
                                                    self._delete_favourite), self._cancel_delete)
        return body

    def _ask_delete(self) -> None:
        self.confirm_delete = True
        self._hide_keyboard()

    def _cancel_delete(self) -> None:
        self.confirm_delete = False

    # ----- search -----
    def _set_query(self, text: str) -> None:
        self.query = text

    def _search(self) -> View:
        """``QuickSearchDialogFragment``: the search field and the results for it."""
        field = edit_text(self.query, SEARCH_HINT, "search", self._set_query, resource_id=_id("searchEditText"),
                          weight=1, text_size=_BODY_SP)
        back = image_button(NAVIGATE_UP, "arrow_back", self.on_back, resource_id=_id("toolbar_back"),
                            text_color=TEXT)
        bar = row(back, field, height=_BAR, background=WHITE, elevation=11)
        rows = [_list_row(place.name, place.kind if place.kind == LOCATION else f"{place.kind} • {geo.COUNTRY}",
                          lambda place=place: self._choose(place), "search_result")
                for place in geo.search(self.query)]
        results = scroll_list(*rows, key="search_results", resource_id=_id("list"), weight=1)
        return column(bar, results, background=WHITE)

    # ----- main menu and lists -----
    def _open_drawer(self) -> None:
        self.mode = "drawer"

    def _close_drawer(self) -> None:
        self.mode = "map"

    def _drawer(self) -> View:
        items = [(MY_PLACES, "favourites", "star"), (MAP_MARKERS, "markers", "flag"), (PLAN_A_ROUTE, "plan", "route")]
        rows = [text_view(APP_NAME, text_size=_TITLE_SP, bold=True, padding=48, text_color=_GREEN)]
        for title, target, icon in items:
            rows.append(row(View(kind="icon", class_name="android.widget.ImageView", hint=icon, width=126, height=126,
                                 text_color=TEXT_SECONDARY),
                            text_view(title, resource_id=_id("title"), text_size=_BODY_SP, weight=1, padding=24),
                            clickable=True, focusable=True, on_click=lambda target=target: self._menu(target),
                            height=_ROW, padding=12))
        return column(*rows, resource_id=_id("menuItems"), width=800, gravity="fill", background=WHITE, elevation=42)

    def _menu(self, target: str) -> None:
        self.point = None
        if target == "plan":
            self.mode, self.plan = "map", []
        else:
            self.mode = target

    def _favourites(self) -> View:
        points = self.osmand.favourites.points()
        rows = [_list_row(point.name, geo.format_coordinates(point.lat, point.lon),
                          lambda i=i, point=point: self._show_favourite(i, point), "favourite_item")
                for i, point in enumerate(points)]
        body = (scroll_list(*rows, key="favourites", resource_id=_id("favourites_list"), weight=1) if rows else
                text_view(NO_FAVORITES, text_color=TEXT_SECONDARY, padding=48, weight=1))
        tab = text_view(FAVORITES, text_size=_SMALL_SP, bold=True, text_color=_GREEN, padding=30, selected=True)
        return column(_toolbar(MY_PLACES, self.on_back), tab, View(height=2, background=DIVIDER), body,
                      background=WHITE)

    def _markers(self) -> View:
        rows = [_list_row(marker_name(found), geo.format_coordinates(found["marker_lat"], found["marker_lon"]),
                          lambda found=found: self._show_marker(found), "marker_item")
                for found in self.osmand.markers.active()]
        body = (scroll_list(*rows, key="markers", resource_id=_id("list"), weight=1) if rows else
                text_view(NO_MARKERS, text_color=TEXT_SECONDARY, padding=48, weight=1))
        return column(_toolbar(MAP_MARKERS, self.on_back), body, background=WHITE)

    def _show_marker(self, found: dict) -> None:
        self.mode, self.center = "map", (found["marker_lat"], found["marker_lon"])
        self.point = None

    # ----- plan a route -----
    def _planning(self) -> View:
        """``MeasurementToolFragment``: the map with the centre crosshair, the points so far, Add point, Save."""
        points = self.plan or []
        top = _toolbar(PLAN_A_ROUTE, self._close_plan,
                       image_button(SEARCH, "search", self._open_search, resource_id=_id("map_search_button"),
                                    text_color=TEXT))
        count = text_view(f"{len(points)} points" if len(points) != 1 else "1 point",
                          resource_id=_id("measurement_points_text_view"), text_size=_BODY_SP, padding=12)
        panel = column(count, row(_text_button(ADD_POINT, "add_point_button", self._add_point),
                                  _text_button(SAVE, "save_button", self._open_save), spacing=24),
                       gravity="bottom", background=WHITE, padding=36, spacing=12, elevation=21)
        return frame(self._map(), column(top, gravity="top"), panel, background=WHITE)

    def _close_plan(self) -> None:
        self.plan, self.save_name = None, None

    def _add_point(self) -> None:
        if self.plan is not None:
            self.plan.append(self.center)

    def _open_save(self) -> None:
        if self.plan:
            self.save_name = self.phone.clock.now().strftime("%Y-%m-%d_%H-%M_%a")

    def _set_save_name(self, text: str) -> None:
        self.save_name = text

    def _save_track(self) -> None:
        if not self.plan or not self.save_name or not self.save_name.strip():
            return
        name = track_file_name(self.save_name)
        self.phone.fs.makedirs(TRACKS_DIR)
        when = self.phone.clock.now().astimezone(dt.timezone.utc)
        self.phone.fs.write_bytes(f"{TRACKS_DIR}/{name}", track_gpx(name[:-4], self.plan, when))
        self.plan, self.save_name = None, None
        self._hide_keyboard()

    def _save_dialog(self) -> View:
        """``SaveAsNewTrackBottomSheetDialogFragment`` as a dialog: the file name, Cancel and Save."""
        field = edit_text(self.save_name or "", FILE_NAME, "track_name", self._set_save_name,
                          resource_id=_id("name_edit_text"), text_size=_BODY_SP)
        return alert_dialog([column(field, padding=36)], [("button2", CANCEL, self._cancel_save),
                                                         ("button1", SAVE, self._save_track)],
                            title=SAVE_AS_NEW_TRACK, package=PACKAGE)

    def _cancel_save(self) -> None:
        self.save_name = None
        self._hide_keyboard()


class OsmAnd(App):
    """``net.osmand``: the map of Liechtenstein is installed (AndroidWorld's setup copies it)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_osmand", (255, 136, 0)
    version_name, version_code = VERSION_NAME, 4613  # android_gym/device/apps.toml (version code unconfirmed)
    screens = (MapScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.favourites = FavouritesFile(phone)
        self.markers = MarkersDatabase(phone)

    def on_process_start(self) -> None:
        """The app's folders exist once it runs (``getExternalFilesDir``)."""
        super().on_process_start()
        for folder in (posixpath.dirname(FAVORITES_PATH), TRACKS_DIR):
            self.phone.fs.makedirs(folder)

    def on_clear(self) -> None:
        """``pm clear``: the markers database is created again."""
        self.markers.ensure_db()

