"""What the package manager reads from an APK before installing it: package name, version, SDK levels and
requested permissions, from the binary ``AndroidManifest.xml`` (AXML) inside the zip.

The format is AOSP ``frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h``: an ``RES_XML_TYPE``
chunk holding a string pool (UTF-8 or UTF-16 strings), a resource map (the ``android.R.attr`` id of each
attribute name, by string index) and one node chunk per XML event; a start-element node has its attributes as
``ResXMLTree_attribute`` records whose values are ``Res_value``s. Android attributes are matched by resource id,
as the framework does, so a manifest whose attribute names were stripped still reads. References
(``@string/...``) are not resolved: this reader has no ``resources.arsc``, so a ``versionName`` given as a
reference reads as ``None``.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass

from android_gym.sim.int32 import to_int32

MANIFEST_ENTRY = "AndroidManifest.xml"

# ResourceTypes.h chunk types, string pool flag and Res_value data types.
RES_STRING_POOL_TYPE = 0x0001
RES_XML_TYPE = 0x0003
RES_XML_START_ELEMENT_TYPE = 0x0102
RES_XML_RESOURCE_MAP_TYPE = 0x0180
UTF8_FLAG = 1 << 8
TYPE_REFERENCE, TYPE_STRING, TYPE_INT_DEC, TYPE_INT_HEX, TYPE_INT_BOOLEAN = 0x01, 0x03, 0x10, 0x11, 0x12
NO_ENTRY = 0xFFFFFFFF

#: ``android.R.attr`` ids (frameworks/base ``core/res/res/values/public.xml``) of the attributes read here.
ANDROID_ATTRS = {
    0x01010003: "name",
    0x0101020C: "minSdkVersion",
    0x0101021B: "versionCode",
    0x0101021C: "versionName",
    0x01010270: "targetSdkVersion",
    0x01010271: "maxSdkVersion",
    0x01010576: "versionCodeMajor",
}
_PERMISSION_TAGS = ("uses-permission", "uses-permission-sdk-23")


class ApkError(ValueError):
    """An APK the package manager refuses to parse: ``code`` is its ``INSTALL_PARSE_FAILED_*`` constant."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code, self.detail = code, detail

    def message(self, path: str) -> str:
        """The failure text for the APK at ``path``, as ``ApkLiteParseUtils`` words it: ``Failed to parse
        <path>: <detail>``, where a file that is not a zip fails with ``Failed to load asset path <path>``."""
        detail = f"{self.detail} {path}" if self.code == "INSTALL_PARSE_FAILED_NOT_APK" else self.detail
        return f"Failed to parse {path}: {detail}"


@dataclass(frozen=True)
class ApkInfo:
    """The manifest facts of one APK."""

    package: str
    version_code: int
    version_name: str | None
    min_sdk: int | None
    target_sdk: int | None
    permissions: tuple[str, ...]


@dataclass(frozen=True)
class Element:
    """A start tag: its name and its attributes by name (Android attributes by their ``android.R.attr`` name)."""

    name: str
    attributes: dict[str, str | int | bool | None]


def read_apk(data: bytes, device_sdk: int = 33) -> ApkInfo:
    """Parse an APK's manifest for a device of API level ``device_sdk``; raises ``ApkError`` when it is not a
    zip or has no readable manifest."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            manifest = archive.read(MANIFEST_ENTRY)
    except zipfile.BadZipFile as error:
        raise ApkError("INSTALL_PARSE_FAILED_NOT_APK", "Failed to load asset path") from error
    except KeyError as error:  # AssetManager's FileNotFoundException names the missing entry
        raise ApkError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", MANIFEST_ENTRY) from error
    return parse_manifest(manifest, device_sdk)


def parse_manifest(axml: bytes, device_sdk: int = 33) -> ApkInfo:
    """The package facts of a binary ``AndroidManifest.xml``. A permission whose ``maxSdkVersion`` is below
    ``device_sdk`` is not requested (``ParsingPackageUtils.parseUsesPermission``)."""
    elements = iter_elements(axml)
    root = next(elements, None)
    if root is None or root.name != "manifest":
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "No <manifest> tag")
    package = root.attributes.get("package")
    if not isinstance(package, str) or not package:
        raise ApkError("INSTALL_PARSE_FAILED_MANIFEST_MALFORMED", "<manifest> does not specify package")
    major, minor = root.attributes.get("versionCodeMajor"), root.attributes.get("versionCode")
    version_code = (_as_int(major) or 0) << 32 | (_as_int(minor) or 0)  # PackageInfo.getLongVersionCode
    version_name = root.attributes.get("versionName")
    min_sdk = target_sdk = None
    permissions: list[str] = []
    for element in elements:
        if element.name == "uses-sdk":
            min_sdk = _as_int(element.attributes.get("minSdkVersion"))
            target_sdk = _as_int(element.attributes.get("targetSdkVersion"))
        elif element.name in _PERMISSION_TAGS:
            name, max_sdk = element.attributes.get("name"), _as_int(element.attributes.get("maxSdkVersion"))
            if max_sdk and max_sdk < device_sdk:
                continue
            if isinstance(name, str) and name not in permissions:
                permissions.append(name)
    return ApkInfo(package, version_code, version_name if isinstance(version_name, str) else None,
                   min_sdk, target_sdk, tuple(permissions))


def _as_int(value: object) -> int | None:
    """An integer attribute (aapt writes numbers as ``TYPE_INT_DEC``; old tools wrote strings)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value), 0)
    except ValueError:
        return None


# ----- AXML ---------------------------------------------------------------------------------------------------
def _malformed(what: str) -> ApkError:
    return ApkError("INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION", f"{MANIFEST_ENTRY}: {what}")


def _chunks(data: bytes, start: int, end: int) -> Iterator[tuple[int, int, int, int]]:
    """``(type, header size, offset, size)`` of each ``ResChunk_header`` between ``start`` and ``end``."""
    offset = start
    while offset + 8 <= end:
        kind, header_size, size = struct.unpack_from("<HHI", data, offset)
        if size < 8 or header_size < 8 or offset + size > end:
            raise _malformed(f"bad chunk at offset {offset}")
        yield kind, header_size, offset, size
        offset += size


def _length(data: bytes, offset: int, wide: bool) -> tuple[int, int]:
    """A string pool length prefix (one or two units, the high bit of the first marking two); ``(value, end)``."""
    unit, mask = (2, 0x8000) if wide else (1, 0x80)
    first = int.from_bytes(data[offset:offset + unit], "little")
    if first & mask:
        second = int.from_bytes(data[offset + unit:offset + 2 * unit], "little")
        return (first & (mask - 1)) << (8 * unit) | second, offset + 2 * unit
    return first, offset + unit


def _string_pool(data: bytes, offset: int, header_size: int) -> list[str]:
    """The strings of a ``ResStringPool`` chunk (``ResStringPool_header`` then the offsets table)."""
    count, _styles, flags, strings_start = struct.unpack_from("<IIII", data, offset + 8)
    utf8 = bool(flags & UTF8_FLAG)
    base = offset + strings_start
    strings = []
    for index in range(count):
        (relative,) = struct.unpack_from("<I", data, offset + header_size + 4 * index)
        position = base + relative
        if utf8:
            _chars, position = _length(data, position, wide=False)
            size, position = _length(data, position, wide=False)
            strings.append(data[position:position + size].decode("utf-8", "replace"))
        else:
            chars, position = _length(data, position, wide=True)
            strings.append(data[position:position + 2 * chars].decode("utf-16-le", "replace"))
    return strings


def _value(strings: list[str], raw: int, data_type: int, value: int) -> str | int | bool | None:
    """A ``ResXMLTree_attribute``'s value: its raw string if any, else its typed ``Res_value``."""
    if raw != NO_ENTRY and raw < len(strings):
        return strings[raw]
    if data_type == TYPE_STRING and value < len(strings):
        return strings[value]
    if data_type == TYPE_INT_BOOLEAN:
        return value != 0
    if data_type == TYPE_INT_DEC:
        return to_int32(value)
    if data_type == TYPE_INT_HEX:
        return value
    return None  # a reference or another type this reader does not resolve


def iter_elements(axml: bytes) -> Iterator[Element]:
    """The start tags of a binary XML document, in document order."""
    if len(axml) < 8:
        raise _malformed("too short")
    kind, document_header, size = struct.unpack_from("<HHI", axml, 0)
    if kind != RES_XML_TYPE or size > len(axml):
        raise _malformed("not binary XML")
    strings: list[str] = []
    resource_ids: list[int] = []
    for kind, header_size, offset, chunk_size in _chunks(axml, document_header, size):
        try:
            if kind == RES_STRING_POOL_TYPE:
                strings = _string_pool(axml, offset, header_size)
            elif kind == RES_XML_RESOURCE_MAP_TYPE:
                count = (chunk_size - header_size) // 4
                resource_ids = list(struct.unpack_from(f"<{count}I", axml, offset + header_size))
            elif kind == RES_XML_START_ELEMENT_TYPE:
                yield _element(axml, offset + header_size, strings, resource_ids)
        except (struct.error, IndexError) as error:
            raise _malformed(f"truncated chunk at offset {offset}") from error


def _element(data: bytes, ext: int, strings: list[str], resource_ids: list[int]) -> Element:
    """A ``ResXMLTree_attrExt`` and its attributes."""
    _ns, name, attribute_start, attribute_size, count = struct.unpack_from("<IIHHH", data, ext)
    attributes: dict[str, str | int | bool | None] = {}
    for index in range(count):
        position = ext + attribute_start + index * attribute_size
        _attr_ns, attr_name, raw, _size, _res0, data_type, value = struct.unpack_from("<IIIHBBI", data, position)
        key = ANDROID_ATTRS.get(resource_ids[attr_name]) if attr_name < len(resource_ids) else None
        key = key or strings[attr_name]
        attributes[key] = _value(strings, raw, data_type, value)
    return Element(strings[name], attributes)
