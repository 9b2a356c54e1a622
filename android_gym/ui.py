"""UI elements read from a uiautomator dump (field names follow AndroidWorld's ``UIElement``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

from lxml import etree

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, recover=False)
T = TypeVar("T")


@dataclass(frozen=True)
class BoundingBox:
    """A rectangle in screen pixels: ``[x_min, x_max) × [y_min, y_max)``."""

    x_min: int
    y_min: int
    x_max: int
    y_max: int

    @cached_property  # worked out once per box (a box is immutable; an agent asks at every step)
    def center(self) -> tuple[int, int]:
        """The point a tap on the element uses."""
        return (self.x_min + self.x_max) // 2, (self.y_min + self.y_max) // 2

    def contains(self, x: int, y: int) -> bool:
        """Whether the pixel ``(x, y)`` lies inside (an empty box contains nothing)."""
        return self.x_min <= x < self.x_max and self.y_min <= y < self.y_max

    @cached_property
    def area(self) -> int:
        """Width × height (0 for an empty box)."""
        return max(self.x_max - self.x_min, 0) * max(self.y_max - self.y_min, 0)


@dataclass(frozen=True)
class UIElement:
    """One node of the UI hierarchy; ``index`` is its position in ``info["ui_elements"]``."""

    index: int
    text: str
    content_description: str
    class_name: str
    resource_name: str
    package_name: str
    bbox_pixels: BoundingBox
    is_checkable: bool
    is_checked: bool
    is_clickable: bool
    is_enabled: bool
    is_focusable: bool
    is_focused: bool
    is_scrollable: bool
    is_long_clickable: bool
    is_password: bool
    is_selected: bool
    depth: int

    @cached_property  # once per element (immutable, shared by the dumps that hold it)
    def is_editable(self) -> bool:
        """Whether this is a text field (an ``EditText``, or its subclass ``AutoCompleteTextView``: search boxes)."""
        return self.class_name.endswith(("EditText", "AutoCompleteTextView"))

    @property
    def is_actionable(self) -> bool:
        """Whether an agent can act on it: clickable, long-clickable, checkable, scrollable or a text field."""
        return (self.is_clickable or self.is_long_clickable or self.is_checkable or self.is_scrollable
                or self.is_editable)

    @property
    def label(self) -> str:
        """Text, else content description."""
        return self.text or self.content_description

    def __deepcopy__(self, memo: dict[int, Any]) -> UIElement:
        """The element itself, as for any immutable value: a deep copy of an ``info`` (stable-baselines3's
        ``DummyVecEnv`` makes one every step) shares its ``ui_elements`` instead of rebuilding each one."""
        return self


def descendants(element: UIElement, elements: Sequence[UIElement]) -> Iterator[UIElement]:
    """The element's descendants in ``elements``, the screen's ``UIElement`` list in document order (they follow it,
    deeper than it)."""
    for other in elements[element.index + 1:]:
        if other.depth <= element.depth:
            return
        yield other


def frozen(cls: type[T], fields: dict[str, Any]) -> T:
    """An instance of the frozen dataclass ``cls`` with ``fields`` (every field, by name), made without the
    generated ``__init__``, which sets each field through ``object.__setattr__`` (ten times slower): elements are
    made by the thousand."""
    instance = object.__new__(cls)
    instance.__dict__.update(fields)
    return instance


def _flag(node: etree._Element, name: str) -> bool:
    return node.get(name) == "true"


def parse_bounds(bounds: str) -> BoundingBox:
    """A uiautomator ``bounds`` attribute (``[x1,y1][x2,y2]``) as a box; an empty box when malformed."""
    match = _BOUNDS.fullmatch(bounds)
    return BoundingBox(*map(int, match.groups())) if match else BoundingBox(0, 0, 0, 0)


def parse_hierarchy(xml: str | bytes) -> etree._Element:
    """The ``<hierarchy>`` element of a uiautomator dump; ``ValueError`` for input that is not one."""
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    try:
        root = etree.fromstring(data, _PARSER)
    except etree.XMLSyntaxError as error:
        raise ValueError(f"not a uiautomator dump: {error}") from error
    if root.tag != "hierarchy":
        raise ValueError(f"not a uiautomator dump: root element is <{root.tag}>, expected <hierarchy>")
    return root


def parse_ui_dump(xml: str | bytes) -> list[UIElement]:
    """All nodes of a uiautomator dump (AOSP or androidx format, several windows allowed), in document order.

    Raises ``ValueError`` for input that is not a uiautomator hierarchy.
    """
    root = parse_hierarchy(xml)
    elements = []
    depth = -1  # of the node being read: how many ``node`` elements enclose it
    for event, node in etree.iterwalk(root, events=("start", "end"), tag="node"):
        if event == "end":
            depth -= 1
            continue
        depth += 1
        elements.append(frozen(UIElement, {
            "index": len(elements), "text": node.get("text", ""), "content_description": node.get("content-desc", ""),
            "class_name": node.get("class", ""), "resource_name": node.get("resource-id", ""),
            "package_name": node.get("package", ""), "bbox_pixels": parse_bounds(node.get("bounds", "")),
            "is_checkable": _flag(node, "checkable"), "is_checked": _flag(node, "checked"),
            "is_clickable": _flag(node, "clickable"), "is_enabled": _flag(node, "enabled"),
            "is_focusable": _flag(node, "focusable"), "is_focused": _flag(node, "focused"),
            "is_scrollable": _flag(node, "scrollable"), "is_long_clickable": _flag(node, "long-clickable"),
            "is_password": _flag(node, "password"), "is_selected": _flag(node, "selected"), "depth": depth}))
    return elements
