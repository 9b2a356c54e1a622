"""The uiautomator window dump, byte for byte in AOSP's format.

AOSP ``AccessibilityNodeInfoDumper`` writes one line: the XML declaration, ``<hierarchy rotation="0">`` and
nested ``<node>`` elements with a fixed attribute order, leaves closed as `` />`` (KXmlSerializer's spelling),
and characters that XML 1.0 forbids replaced by ``.``. Written by hand rather than with lxml because lxml
cannot reproduce the `` />`` spelling and the dump is on the hot path of every step.
"""

from __future__ import annotations

import re

from android_gym.sim.ui.views import View

XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
# XML 1.0 Char production; everything else becomes "." as in AOSP's stripInvalidXMLChars.
_INVALID_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


def _attr(value: str) -> str:
    return _INVALID_XML.sub(".", value).translate(_ESCAPES)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _node(view: View, index: int, package: str, out: list[str]) -> None:
    x1, y1, x2, y2 = view.bounds
    out.append(
        f'<node index="{index}" text="{_attr(view.text)}" resource-id="{_attr(view.resource_id)}" '
        f'class="{view.class_name}" package="{package}" content-desc="{_attr(view.content_desc)}" '
        f'checkable="{_flag(view.checkable)}" checked="{_flag(view.checked)}" '
        f'clickable="{_flag(view.clickable)}" enabled="{_flag(view.enabled)}" '
        f'focusable="{_flag(view.focusable)}" focused="{_flag(view.focused)}" '
        f'scrollable="{_flag(view.scrollable)}" long-clickable="{_flag(view.long_clickable)}" '
        f'password="{_flag(view.password)}" selected="{_flag(view.selected)}" '
        f'bounds="[{x1},{y1}][{x2},{y2}]"'
    )
    visible = [child for child in view.children if child.bounds[2] > child.bounds[0]
               and child.bounds[3] > child.bounds[1]]
    if not visible:
        out.append(" />")
        return
    out.append(">")
    for child_index, child in enumerate(visible):
        _node(child, child_index, package, out)
    out.append("</node>")


def dump(root: View, package: str, rotation: int = 0) -> str:
    """The uiautomator XML of the active window ``root`` belonging to ``package``."""
    out = [XML_DECLARATION, f'<hierarchy rotation="{rotation}">']
    _node(root, 0, package, out)
    out.append("</hierarchy>")
    return "".join(out)
