"""SharedPreferences files: an app's ``shared_prefs/<name>.xml`` as ``XmlUtils.writeMapXml`` writes it, read
once per process and written on every change, as ``SharedPreferencesImpl`` does (AOSP
``frameworks/base/core/java/android/app/SharedPreferencesImpl.java``, ``com/android/internal/util/XmlUtils.java``).
"""

from __future__ import annotations

import posixpath
from typing import Any
from xml.etree import ElementTree
from xml.sax.saxutils import escape, quoteattr

from android_gym.sim.system.services import SystemServices

PrefValue = tuple[str, Any]  # (XML element name: int, long, boolean, string or set, value)


def shared_prefs_xml(values: dict[str, PrefValue]) -> str:
    """A SharedPreferences file as ``XmlUtils.writeMapXml`` writes it (keys sorted, for reproducible files)."""
    if not values:
        return "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>\n<map />\n"
    lines = ["<?xml version='1.0' encoding='utf-8' standalone='yes' ?>", "<map>"]
    for name in sorted(values):
        kind, value = values[name]
        if kind == "string":
            lines.append(f"    <string name={quoteattr(name)}>{escape(value)}</string>")
        elif kind == "set":
            lines += [f"    <set name={quoteattr(name)}>",
                      *(f"        <string>{escape(item)}</string>" for item in value), "    </set>"]
        else:
            text = ("true" if value else "false") if kind == "boolean" else str(value)
            lines.append(f"    <{kind} name={quoteattr(name)} value={quoteattr(text)} />")
    return "\n".join([*lines, "</map>", ""])


def parse_shared_prefs(xml: bytes) -> dict[str, PrefValue]:
    """The map of a SharedPreferences file (``XmlUtils.readMapXml``); an unreadable file is an empty map and an
    unreadable value is left out."""
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError:
        return {}
    values: dict[str, PrefValue] = {}
    for element in root:
        name, kind = element.get("name"), element.tag
        if name is None:
            continue
        try:
            if kind in ("int", "long"):
                values[name] = (kind, int(element.get("value", "")))
            elif kind == "boolean":
                values[name] = (kind, element.get("value") == "true")
            elif kind == "string":
                values[name] = (kind, element.text or "")
            elif kind == "set":
                values[name] = (kind, [item.text or "" for item in element])
        except ValueError:
            continue
    return values


class SharedPreferences:
    """One SharedPreferences XML file in ``XmlUtils.writeMapXml`` format, kept in memory per process.

    Values are ``PrefValue`` pairs; a ``set`` holds a list of strings.
    """

    def __init__(self, phone: SystemServices, path: str) -> None:
        self._phone = phone
        self.path = path
        self._map: dict[str, PrefValue] | None = None

    def _values(self) -> dict[str, PrefValue]:
        self.load()
        assert self._map is not None
        return self._map

    def load(self) -> None:
        """Read the file unless this process already has (``Context.getSharedPreferences``)."""
        if self._map is None:
            self._map = self._read()

    def _read(self) -> dict[str, PrefValue]:
        """The file's map; a missing file is an empty map, as ``SharedPreferencesImpl`` loads it."""
        try:
            return parse_shared_prefs(self._phone.fs.read_bytes(self.path))
        except OSError:
            return {}

    def get(self, key: str, default: Any) -> Any:
        """The value stored under ``key``, else ``default`` (also for a value of another type, where the app
        would fail with a ``ClassCastException``)."""
        value = self._values().get(key, ("", default))[1]
        return value if isinstance(value, type(default)) else default

    def apply(self, puts: dict[str, PrefValue], removes: tuple[str, ...] = ()) -> None:
        """``Editor.remove``s then ``put*``s, committed to memory and written to the file."""
        values = self._values()
        for key in removes:
            values.pop(key, None)
        values.update(puts)
        self._phone.fs.makedirs(posixpath.dirname(self.path))
        self._phone.fs.write_bytes(self.path, shared_prefs_xml(values).encode())

    def forget(self) -> None:
        """The process died: the next read loads the file again."""
        self._map = None
