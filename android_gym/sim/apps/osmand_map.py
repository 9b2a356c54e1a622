"""The offline map OsmAnd shows in the simulator: Liechtenstein (AndroidWorld copies ``Liechtenstein_europe.obf``
to the phone), its places, a Web-Mercator viewport and a Pillow picture of it.

Places: AndroidWorld's twelve (``task_evals/single/osmand.py``, ``_PRELOADED_MAP_LOCATIONS``, named
"<Town>, Liechtenstein") and the capital, Vaduz (47°08′29″N 9°31′14″E, as Wikipedia gives it). The border, the Rhine and
the main roads are a coarse outline traced from OpenStreetMap (a few dozen points, not the .obf's geometry).

Search (``QuickSearchDialogFragment`` in spirit): a place whose name contains the query, compared case- and
accent-insensitively as OsmAnd's ``CollatorStringMatcher`` does ("schonberg" finds "Schönberg"); a query of exactly
two numbers is a latitude and longitude (``LocationParser``), shown as a "Location" result.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from PIL import Image, ImageDraw

from android_gym.sim.ui.layout import font
from android_gym.sim.ui.picture_cache import picture_cache

LatLon = tuple[float, float]


@dataclass(frozen=True)
class Place:
    """A searchable point: its display name and coordinates."""

    name: str
    lat: float
    lon: float
    kind: str = "Town"


COUNTRY = "Liechtenstein"
#: AndroidWorld's ``_PRELOADED_MAP_LOCATIONS`` (town → lat, lon).
TOWNS: dict[str, LatLon] = {
    "Balzers": (47.0688832, 9.5061564), "Bendern": (47.2122151, 9.5062101), "Malbun": (47.1026191, 9.6083057),
    "Nendeln": (47.1973857, 9.5430636), "Oberplanken": (47.1784977, 9.5450163), "Planken": (47.1858882, 9.5452201),
    "Rotenboden": (47.1275785, 9.5387131), "Ruggell": (47.23976, 9.5262837), "Schaan": (47.1663432, 9.5103085),
    "Schaanwald": (47.2165476, 9.5699984), "Schönberg": (47.1303814, 9.5930117), "Triesen": (47.106997, 9.5274854),
}
PLACES: tuple[Place, ...] = (
    *(Place(f"{town}, {COUNTRY}", lat, lon) for town, (lat, lon) in TOWNS.items()),
    Place(f"Vaduz, {COUNTRY}", 47.1414, 9.5206, "City"),
)

BORDER: tuple[LatLon, ...] = (
    (47.2705, 9.5300), (47.2500, 9.5600), (47.2330, 9.5770), (47.2200, 9.5830), (47.1950, 9.5860),
    (47.1750, 9.6050), (47.1560, 9.6250), (47.1300, 9.6350), (47.1000, 9.6250), (47.0750, 9.6120),
    (47.0580, 9.5980), (47.0530, 9.5700), (47.0500, 9.5400), (47.0580, 9.5120), (47.0620, 9.4880),
    (47.0900, 9.4880), (47.1200, 9.4980), (47.1500, 9.4930), (47.1800, 9.4840), (47.2100, 9.4870),
    (47.2350, 9.4980), (47.2550, 9.5100),
)
RHINE: tuple[LatLon, ...] = (
    (47.0000, 9.5000), (47.0300, 9.4900), (47.0620, 9.4860), (47.0900, 9.4860), (47.1200, 9.4960),
    (47.1500, 9.4910), (47.1800, 9.4820), (47.2100, 9.4850), (47.2350, 9.4960), (47.2550, 9.5080),
    (47.2800, 9.5350), (47.3000, 9.5600),
)
#: The neighbours' names, drawn across the border.
NEIGHBOURS: dict[str, LatLon] = {"SWITZERLAND": (47.150, 9.440), "AUSTRIA": (47.200, 9.660)}
#: Main roads as chains of places (the valley road, the Unterland roads, up to Triesenberg and Malbun).
ROADS: tuple[tuple[str, ...], ...] = (
    ("Balzers", "Triesen", "Vaduz", "Schaan", "Nendeln", "Schaanwald"),
    ("Schaan", "Bendern", "Ruggell"),
    ("Triesen", "Rotenboden", "Schönberg", "Malbun"),
    ("Schaan", "Oberplanken", "Planken", "Nendeln"),
)

_WORLD_PX = 256 * 420 / 160  # a 256 px tile at 420 dpi (OsmAnd scales tiles by the display density)
MIN_ZOOM, MAX_ZOOM, DEFAULT_ZOOM = 8, 17, 11
DEFAULT_CENTER: LatLon = (47.16, 9.555)

_LAND, _FOREIGN, _WATER = (241, 238, 232), (228, 226, 222), (170, 211, 223)
_ROAD, _ROAD_CASING, _BORDER_INK = (255, 255, 255), (200, 190, 170), (172, 70, 172)
_TOWN_DOT, _LABEL, _HALO = (90, 90, 90), (51, 51, 51), (255, 255, 255)
_NEIGHBOUR_INK = (150, 140, 150)
_FAVOURITE, _MARKER, _SELECTED, _ROUTE = (238, 204, 34), (255, 87, 34), (237, 28, 36), (16, 110, 190)


def fold(text: str) -> str:
    """``text`` lower-cased without accents (what OsmAnd's collator compares)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


_NUMBER = re.compile(r"-?\d*\.?\d+")


def parse_coordinates(text: str) -> LatLon | None:
    """A latitude and a longitude when ``text`` holds exactly two numbers in range, else ``None``."""
    numbers = [float(n) for n in _NUMBER.findall(text)]
    if len(numbers) != 2 or re.search(r"[A-Za-z]", text):
        return None
    lat, lon = numbers
    return (lat, lon) if -90 <= lat <= 90 and -180 <= lon <= 180 else None


def format_coordinates(lat: float, lon: float) -> str:
    """Degrees with five decimals, as OsmAnd's default coordinate format shows a point ("47.10262, 9.60831")."""
    return f"{lat:.5f}, {lon:.5f}"


def search(query: str) -> list[Place]:
    """The results for ``query``: a coordinate point, or the places whose name contains it (accents and case
    ignored), by name."""
    coordinates = parse_coordinates(query)
    if coordinates is not None:
        return [Place(format_coordinates(*coordinates), *coordinates, kind="Location")]
    wanted = fold(query.strip())
    if not wanted:
        return []
    return sorted((place for place in PLACES if wanted in fold(place.name)), key=lambda place: fold(place.name))


def nearest_place(lat: float, lon: float, within_deg: float) -> Place | None:
    """The place closest to a point, if it lies within ``within_deg`` in both directions."""
    near = [p for p in PLACES if abs(p.lat - lat) <= within_deg and abs(p.lon - lon) <= within_deg]
    return min(near, key=lambda p: (p.lat - lat) ** 2 + (p.lon - lon) ** 2, default=None)


# ----- Web Mercator -------------------------------------------------------------------------------------------------
def world_xy(lat: float, lon: float, zoom: int) -> tuple[float, float]:
    """The point's Web-Mercator pixel at ``zoom``."""
    size = _WORLD_PX * 2 ** zoom
    lat = max(min(lat, 85.05), -85.05)
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2
    return (lon + 180) / 360 * size, y * size


def world_latlon(x: float, y: float, zoom: int) -> LatLon:
    """The inverse of ``world_xy``."""
    size = _WORLD_PX * 2 ** zoom
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / size))))
    return lat, x / size * 360 - 180


@dataclass(frozen=True)
class Viewport:
    """What the map view shows: its centre, zoom and size in px."""

    lat: float
    lon: float
    zoom: int
    width: int
    height: int

    def to_pixel(self, lat: float, lon: float) -> tuple[float, float]:
        """A point's position in the view."""
        cx, cy = world_xy(self.lat, self.lon, self.zoom)
        x, y = world_xy(lat, lon, self.zoom)
        return x - cx + self.width / 2, y - cy + self.height / 2

    def to_latlon(self, x: float, y: float) -> LatLon:
        """The point under view pixel ``(x, y)``."""
        cx, cy = world_xy(self.lat, self.lon, self.zoom)
        return world_latlon(cx + x - self.width / 2, cy + y - self.height / 2, self.zoom)

    def degrees_per_px(self) -> float:
        """About how many degrees of longitude one px spans (to pick a point near a touch)."""
        return 360 / (_WORLD_PX * 2 ** self.zoom)


@dataclass(frozen=True)
class Overlay:
    """What is drawn over the map: favourites, active markers, a selected point, a planned route."""

    favourites: tuple[LatLon, ...] = ()
    markers: tuple[LatLon, ...] = ()
    selected: LatLon | None = None
    route: tuple[LatLon, ...] = ()
    crosshair: bool = False


# Maps kept for the process: two full-screen ones (9.3 MB each at 1080x2400), the one shown and the start view every
# reset shows again, as the phones of a process share them (random pans over 30 episodes: 14 maps drawn with four
# kept, 29 with two, 8 with sixteen, which took 150 MB; a map takes ~24 ms to draw).
_MAPS_BYTES = 20 * 2**20


@picture_cache(_MAPS_BYTES)
def render(view: Viewport, overlay: Overlay) -> Image.Image:
    """The map picture for ``view`` with ``overlay``."""
    image = Image.new("RGB", (view.width, view.height), _FOREIGN)
    draw = ImageDraw.Draw(image)
    scale = 2 ** (view.zoom - DEFAULT_ZOOM)

    def line(points, fill, width):
        draw.line([view.to_pixel(*p) for p in points], fill=fill, width=max(1, round(width)), joint="curve")

    draw.polygon([view.to_pixel(*p) for p in BORDER], fill=_LAND)
    line(RHINE, _WATER, 14 * min(scale, 4))
    named = {place.name.split(",")[0]: (place.lat, place.lon) for place in PLACES}
    for road in ROADS:
        points = [named[town] for town in road]
        line(points, _ROAD_CASING, 12 * min(scale, 3))
        line(points, _ROAD, 8 * min(scale, 3))
    line((*BORDER, BORDER[0]), _BORDER_INK, 5)
    if len(overlay.route) > 1:
        line(overlay.route, _ROUTE, 10)
    for name, (lat, lon) in NEIGHBOURS.items():
        draw.text(view.to_pixel(lat, lon), name, font=font(40, True), fill=_NEIGHBOUR_INK, anchor="mm")
    for place in PLACES:
        _town(draw, view.to_pixel(place.lat, place.lon), place.name.split(",")[0], place.kind == "City")
    for lat, lon in overlay.favourites:
        _pin(draw, view.to_pixel(lat, lon), _FAVOURITE, 24)
    for lat, lon in overlay.markers:
        _pin(draw, view.to_pixel(lat, lon), _MARKER, 24)
    for lat, lon in overlay.route:
        _pin(draw, view.to_pixel(lat, lon), _ROUTE, 14)
    if overlay.selected is not None:
        _pin(draw, view.to_pixel(*overlay.selected), _SELECTED, 30)
    if overlay.crosshair:
        cx, cy = view.width / 2, view.height / 2
        draw.ellipse((cx - 30, cy - 30, cx + 30, cy + 30), outline=_LABEL, width=4)
        draw.line((cx - 48, cy, cx + 48, cy), fill=_LABEL, width=3)
        draw.line((cx, cy - 48, cx, cy + 48), fill=_LABEL, width=3)
    return image


def _town(draw: ImageDraw.ImageDraw, at: tuple[float, float], name: str, capital: bool) -> None:
    x, y = at
    r = 12 if capital else 9
    draw.ellipse((x - r, y - r, x + r, y + r), fill=_TOWN_DOT, outline=_HALO, width=3)
    face = font(44 if capital else 38, capital)
    draw.text((x + r + 8, y), name, font=face, fill=_LABEL, anchor="lm", stroke_width=4, stroke_fill=_HALO)


def _pin(draw: ImageDraw.ImageDraw, at: tuple[float, float], color: tuple[int, int, int], r: int) -> None:
    x, y = at
    draw.polygon(((x - r * 0.7, y - r * 1.6), (x + r * 0.7, y - r * 1.6), (x, y)), fill=color)
    draw.ellipse((x - r, y - 2.6 * r, x + r, y - 0.6 * r), fill=color, outline=_HALO, width=3)
