"""The GPX 1.1 documents OsmAnd writes: favourites (``FavouritesFileHelper``) and saved tracks, as
``GPXUtilities.writeGpx`` serialises them — the XML declaration of ``XmlSerializer.startDocument("UTF-8", true)``, a
``gpx`` root in the GPX 1.1 namespace with the ``osmand:`` extensions namespace
(``https://osmand.net/docs/technical/osmand-file-formats/osmand-gpx``), lat/lon in the format ``0.00#####``. A
favourite is a ``wpt`` with ``time``, ``name`` and ``osmand:`` ``icon``/``background``/``color`` (the default look,
"special_star" in a yellow "#eecc22" circle); a track one ``trk`` with one ``trkseg`` of ``trkpt``s.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from lxml import etree

CREATOR = "OsmAnd 4.6.13"  # Version.getFullVersion: the app's name and version
GPX_NS = "http://www.topografix.com/GPX/1/1"
OSMAND_NS = "https://osmand.net/docs/technical/osmand-file-formats/osmand-gpx"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
_NSMAP = {None: GPX_NS, "osmand": OSMAND_NS, "xsi": XSI_NS}
_SCHEMA_LOCATION = "http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd"
FAVOURITE_LOOK = (("icon", "special_star"), ("background", "circle"), ("color", "#eecc22"))


def number(value: float) -> str:
    """``GPXUtilities``' lat/lon format ``0.00#####``: two to seven decimals."""
    text = f"{value:.7f}".rstrip("0")
    whole, _, decimals = text.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


# ----- documents ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Favourite:
    """A favourite point as favorites.gpx holds it."""

    name: str
    lat: float
    lon: float


def new_gpx() -> etree._Element:
    """An empty ``<gpx>`` root as ``GPXUtilities.writeGpx`` starts one."""
    root = etree.Element(f"{{{GPX_NS}}}gpx", nsmap=_NSMAP)
    root.set("version", "1.1")
    root.set("creator", CREATOR)
    root.set(f"{{{XSI_NS}}}schemaLocation", _SCHEMA_LOCATION)
    return root


def gpx_bytes(root: etree._Element) -> bytes:
    """The document with OsmAnd's XML declaration (``XmlSerializer.startDocument("UTF-8", true)``)."""
    etree.indent(root, space="  ")
    body = etree.tostring(root, encoding="unicode")
    return ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\n" + body + "\n").encode()


def parse_gpx(data: bytes) -> etree._Element | None:
    """A GPX document's root, or ``None`` when it is not XML (no entities or network are resolved)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=True)
    try:
        return etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return None


def _child_text(element: etree._Element, name: str) -> str:
    found = element.find(f"{{{GPX_NS}}}{name}")
    return found.text or "" if found is not None else ""


def favourites_in(root: etree._Element | None) -> list[tuple[etree._Element, Favourite]]:
    """The ``wpt`` elements of a favourites document with what they say (unreadable points left out)."""
    found = []
    for wpt in root.findall(f"{{{GPX_NS}}}wpt") if root is not None else ():
        try:
            found.append((wpt, Favourite(_child_text(wpt, "name"), float(wpt.get("lat")), float(wpt.get("lon")))))
        except (TypeError, ValueError):
            continue
    return found


def favourite_wpt(point: Favourite, time: dt.datetime) -> etree._Element:
    """``<wpt>`` of a new favourite in the default look."""
    wpt = etree.Element(f"{{{GPX_NS}}}wpt", lat=number(point.lat), lon=number(point.lon))
    etree.SubElement(wpt, f"{{{GPX_NS}}}time").text = time.strftime("%Y-%m-%dT%H:%M:%SZ")
    etree.SubElement(wpt, f"{{{GPX_NS}}}name").text = point.name
    extensions = etree.SubElement(wpt, f"{{{GPX_NS}}}extensions")
    for key, value in FAVOURITE_LOOK:
        etree.SubElement(extensions, f"{{{OSMAND_NS}}}{key}").text = value
    return wpt


def favourites_gpx(points: list[Favourite], time: dt.datetime) -> bytes:
    """A favorites.gpx holding ``points`` (each added at ``time``)."""
    root = new_gpx()
    for point in points:
        root.append(favourite_wpt(point, time))
    return gpx_bytes(root)


def track_gpx(name: str, points: list[tuple[float, float]], time: dt.datetime) -> bytes:
    """A saved plan: ``metadata`` and one ``trk`` with one ``trkseg`` of the points in order."""
    root = new_gpx()
    metadata = etree.SubElement(root, f"{{{GPX_NS}}}metadata")
    etree.SubElement(metadata, f"{{{GPX_NS}}}name").text = name
    etree.SubElement(metadata, f"{{{GPX_NS}}}time").text = time.strftime("%Y-%m-%dT%H:%M:%SZ")
    track = etree.SubElement(root, f"{{{GPX_NS}}}trk")
    etree.SubElement(track, f"{{{GPX_NS}}}name").text = name
    segment = etree.SubElement(track, f"{{{GPX_NS}}}trkseg")
    for lat, lon in points:
        etree.SubElement(segment, f"{{{GPX_NS}}}trkpt", lat=number(lat), lon=number(lon))
    return gpx_bytes(root)
