"""The uiautomator window dump, byte for byte in AOSP's format.

AOSP ``AccessibilityNodeInfoDumper`` writes one line: the XML declaration, ``<hierarchy rotation="0">`` and
nested ``<node>`` elements with a fixed attribute order, leaves closed as `` />`` (KXmlSerializer's spelling),
and characters that XML 1.0 forbids replaced by ``.``. A node's bounds are the part of it on screen: cut to its
parent's, and so to the window's (``View.getBoundsOnScreen`` with ``clipToParent``, as
``AccessibilityNodeInfo.getBoundsInScreen`` gives them); a node with nothing on screen is left out, with its
descendants (``isVisibleToUser``). Text a custom view paints on its canvas (a ``label``: Simple Calendar's
``MonthView`` days, a collapsing toolbar's title) is no view: it is drawn but never dumped; nor is a grouping the
toolkit lays out by where the app's own ViewGroup places its children itself, or a drawable a view draws
(``views.LAYOUT_ONLY``): its children stand in its place. Under a dialog, sheet or popup — a window of its own on a
device, the active window uiautomator dumps — or an open drawer, whose DrawerLayout hides its content, only the panel
is dumped (``View.modal``). Written by hand rather than with lxml because lxml cannot reproduce the `` />``
spelling and the dump is on the hot path of every step.
"""

from __future__ import annotations

import re
from functools import lru_cache

from android_gym.sim.ui.views import View

XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
# XML 1.0 Char production; everything else becomes "." as in AOSP's stripInvalidXMLChars.
_INVALID_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


@lru_cache(maxsize=8192)
def _attr(value: str) -> str:
    """An attribute value as AOSP writes it (most values recur from dump to dump: they are escaped once)."""
    return _INVALID_XML.sub(".", value).translate(_ESCAPES)


Bounds = tuple[int, int, int, int]
#: What the dump writes of a view but its index and bounds: its text, resource-id, class and content-desc, then the
#: ten flags in the dump's order (checkable to selected).
Said = tuple
#: A node the dump writes: its view, its depth (how many nodes enclose it), the bounds written (its part on screen)
#: and what else it writes of the view.
Node = tuple[View, int, Bounds, Said]


def visible_children(view: View, bounds: Bounds) -> list[tuple[View, Bounds]]:
    """The children of ``view`` (whose part on screen is ``bounds``) with something on screen, each with that part:
    its bounds cut to ``bounds`` (``View.getBoundsOnScreen(rect, clipToParent=true)``); painted text (``label``)
    is no child, and a ``LAYOUT_ONLY`` grouping gives way to its own. A ``modal`` scrim hides itself and the
    children before it (``View.modal``)."""
    x1, y1, x2, y2 = bounds
    visible = []
    for child in view.children:
        if child.kind == "label":
            continue
        if child.modal:  # a dialog's, sheet's, popup's or open drawer's scrim: what lies under it is not dumped
            visible.clear()
            continue
        cx1, cy1, cx2, cy2 = child_bounds = child.bounds
        if not (x1 <= cx1 and y1 <= cy1 and cx2 <= x2 and cy2 <= y2):  # most views lie within their parent
            cx1, cy1, cx2, cy2 = child_bounds = (max(cx1, x1), max(cy1, y1), min(cx2, x2), min(cy2, y2))
        if cx2 > cx1 and cy2 > cy1:
            if child.class_name:
                visible.append((child, child_bounds))
            else:  # a grouping the toolkit lays out by (``LAYOUT_ONLY``): no node, its children in its place
                visible += visible_children(child, child_bounds)
    return visible


#: What an XML parser reads back from a dumped attribute value: line ends and tabs become spaces (XML's
#: end-of-line handling, then attribute-value normalization).
_NORMALIZED = str.maketrans({"\n": " ", "\t": " ", "\r": " "})


@lru_cache(maxsize=8192)
def parsed_value(value: str) -> str:
    """The attribute value an XML parser reads from the dump of ``value``: invalid characters as ".", line ends
    (``\r\n`` as one) and tabs as spaces."""
    return _INVALID_XML.sub(".", value).replace("\r\n", "\n").translate(_NORMALIZED)


@lru_cache(maxsize=1024)
def _flags(checkable: bool, checked: bool, clickable: bool, enabled: bool, focusable: bool, focused: bool,
           scrollable: bool, long_clickable: bool, password: bool, selected: bool) -> str:
    """A node's boolean attributes as the dump writes them (a few combinations make up every dump)."""
    def flag(name: str, value: bool) -> str:
        return f'{name}="{"true" if value else "false"}"'

    return " ".join([flag("checkable", checkable), flag("checked", checked), flag("clickable", clickable),
                     flag("enabled", enabled), flag("focusable", focusable), flag("focused", focused),
                     flag("scrollable", scrollable), flag("long-clickable", long_clickable),
                     flag("password", password), flag("selected", selected)])


@lru_cache(maxsize=4096)
def _attributes(said: Said, package: str) -> str:
    """A node's attributes from ``text`` to ``selected`` as the dump writes them (a row, a bar, a button: most nodes
    recur from dump to dump, and are written once). The flags' string depends only on the values' truth, and equal
    keys (1 and True) are one entry."""
    text, resource_id, class_name, content_desc, *flags = said
    return (f'text="{_attr(text)}" resource-id="{_attr(resource_id)}" class="{class_name}" package="{package}" '
            f'content-desc="{_attr(content_desc)}" {_flags(*flags)}')


def _node(view: View, index: int, package: str, out: list[str], bounds: Bounds, depth: int, nodes: list[Node]) -> None:
    said = (view.text, view.resource_id, view.class_name, view.content_desc, view.checkable, view.checked,
            view.clickable, view.enabled, view.focusable, view.focused, view.can_scroll, view.long_clickable,
            view.password, view.selected)
    nodes.append((view, depth, bounds, said))
    x1, y1, x2, y2 = bounds
    visible = visible_children(view, bounds) if view.children else ()  # most nodes are leaves
    out.append(f'<node index="{index}" {_attributes(said, package)} bounds="[{x1},{y1}][{x2},{y2}]"'
               f'{">" if visible else " />"}')
    if visible:
        depth += 1
        for child_index, (child, clipped) in enumerate(visible):
            _node(child, child_index, package, out, clipped, depth, nodes)
        out.append("</node>")


def written(root: View, package: str, rotation: int = 0) -> tuple[str, list[Node]]:
    """The uiautomator XML of the active window ``root`` belonging to ``package``, and the nodes it writes in
    document order (what a parser reads back from it, without parsing)."""
    out = [XML_DECLARATION, f'<hierarchy rotation="{rotation}">']
    nodes: list[Node] = []
    _node(root, 0, package, out, root.bounds, 0, nodes)
    out.append("</hierarchy>")
    return "".join(out), nodes


def dump(root: View, package: str, rotation: int = 0) -> str:
    """The uiautomator XML of the active window ``root`` belonging to ``package``."""
    return written(root, package, rotation)[0]
