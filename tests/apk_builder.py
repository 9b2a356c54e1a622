"""Minimal APKs for tests: a zip whose ``AndroidManifest.xml`` is real binary XML (AOSP ``ResourceTypes.h``
chunks, as aapt2 writes them), so the simulated package manager parses it with the reader a real APK needs.

Only the manifest is real: there is no ``classes.dex``, no resources and no signature (the simulated phone does
not verify signatures; a real one would refuse such an APK).
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Sequence
from pathlib import Path

from android_gym.sim.system.apk import (
    RES_STRING_POOL_TYPE,
    RES_XML_RESOURCE_MAP_TYPE,
    RES_XML_START_ELEMENT_TYPE,
    RES_XML_TYPE,
    TYPE_INT_DEC,
    TYPE_STRING,
    UTF8_FLAG,
)

ANDROID_NS = "http://schemas.android.com/apk/res/android"
_START_NAMESPACE, _END_NAMESPACE, _END_ELEMENT = 0x0100, 0x0101, 0x0103
#: ``android.R.attr`` ids of the attributes written (frameworks/base ``core/res/res/values/public.xml``).
_ATTR_IDS = {"name": 0x01010003, "versionCode": 0x0101021B, "versionName": 0x0101021C,
             "minSdkVersion": 0x0101020C, "targetSdkVersion": 0x01010270}
_NONE = 0xFFFFFFFF


class _Strings:
    """A string pool under construction; the attribute names with resource ids come first, as aapt2 orders
    them so that the resource map lines up with string indices."""

    def __init__(self) -> None:
        self.items: list[str] = list(_ATTR_IDS)

    def __getitem__(self, text: str) -> int:
        if text not in self.items:
            self.items.append(text)
        return self.items.index(text)

    def chunk(self, utf8: bool) -> bytes:
        data, offsets = bytearray(), []
        for text in self.items:
            offsets.append(len(data))
            if utf8:
                raw = text.encode()
                data += _utf8_length(len(text)) + _utf8_length(len(raw)) + raw + b"\0"
            else:
                raw = text.encode("utf-16-le")
                data += struct.pack("<H", len(raw) // 2) + raw + b"\0\0"
        data += b"\0" * (-len(data) % 4)
        header_size = 28
        strings_start = header_size + 4 * len(offsets)
        body = struct.pack(f"<{len(offsets)}I", *offsets) + bytes(data)
        header = struct.pack("<HHIIIIII", RES_STRING_POOL_TYPE, header_size, header_size + len(body), len(offsets),
                             0, UTF8_FLAG if utf8 else 0, strings_start, 0)
        return header + body


def _utf8_length(value: int) -> bytes:
    return bytes([value]) if value < 0x80 else bytes([0x80 | value >> 8, value & 0xFF])


def _node(kind: int, body: bytes) -> bytes:
    """A ``ResXMLTree_node`` (line number 1, no comment) followed by its extension."""
    return struct.pack("<HHIII", kind, 16, 16 + len(body), 1, _NONE) + body


def _start(strings: _Strings, tag: str, attributes: Sequence[tuple[str, str | int]]) -> bytes:
    """A start-element chunk: ``ResXMLTree_attrExt`` then one ``ResXMLTree_attribute`` per attribute."""
    records = b""
    for name, value in attributes:
        namespace = strings[ANDROID_NS] if name in _ATTR_IDS else _NONE
        if isinstance(value, int):
            raw, data_type, data = _NONE, TYPE_INT_DEC, value
        else:
            raw = data = strings[value]
            data_type = TYPE_STRING
        records += struct.pack("<IIIHBBI", namespace, strings[name], raw, 8, 0, data_type, data)
    ext = struct.pack("<IIHHHHHH", _NONE, strings[tag], 20, 20, len(attributes), 0, 0, 0)
    return _node(RES_XML_START_ELEMENT_TYPE, ext + records)


def _end(strings: _Strings, tag: str) -> bytes:
    return _node(_END_ELEMENT, struct.pack("<II", _NONE, strings[tag]))


def manifest_axml(package: str, version_code: int, version_name: str, permissions: Sequence[str] = (),
                  min_sdk: int = 21, target_sdk: int = 33, utf8: bool = False) -> bytes:
    """A binary ``AndroidManifest.xml`` with ``<uses-sdk>`` and one ``<uses-permission>`` per permission."""
    strings = _Strings()
    namespace = struct.pack("<II", strings["android"], strings[ANDROID_NS])
    nodes = _node(_START_NAMESPACE, namespace)
    nodes += _start(strings, "manifest", [("versionCode", version_code), ("versionName", version_name),
                                          ("package", package)])
    nodes += _start(strings, "uses-sdk", [("minSdkVersion", min_sdk), ("targetSdkVersion", target_sdk)])
    nodes += _end(strings, "uses-sdk")
    for permission in permissions:
        nodes += _start(strings, "uses-permission", [("name", permission)]) + _end(strings, "uses-permission")
    nodes += _end(strings, "manifest") + _node(_END_NAMESPACE, namespace)
    resource_map = struct.pack(f"<HHI{len(_ATTR_IDS)}I", RES_XML_RESOURCE_MAP_TYPE, 8, 8 + 4 * len(_ATTR_IDS),
                               *_ATTR_IDS.values())
    body = strings.chunk(utf8) + resource_map + nodes
    return struct.pack("<HHI", RES_XML_TYPE, 8, 8 + len(body)) + body


def build_apk(package: str, version_code: int, version_name: str, permissions: Sequence[str] = (),
              utf8: bool = False) -> bytes:
    """An APK (zip) holding the binary manifest."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("AndroidManifest.xml",
                         manifest_axml(package, version_code, version_name, permissions, utf8=utf8))
    return buffer.getvalue()


def write_apk(directory: Path, package: str, version_code: int, version_name: str,
              permissions: Sequence[str] = ()) -> Path:
    """Write ``<directory>/<package>_<versionCode>.apk`` (F-Droid's file name) and return its path."""
    path = directory / f"{package}_{version_code}.apk"
    path.write_bytes(build_apk(package, version_code, version_name, permissions))
    return path
