"""Helpers the simulator's app tests share: the phone's uiautomator dump as lxml nodes, found by attribute; a phone
with an app opened, a frame's views, and the colours in an area of a screenshot."""

from __future__ import annotations

import io
import re
from types import ModuleType

import numpy as np
import pytest
from lxml import etree
from PIL import Image

from android_gym.sim.framework.window import Frame
from android_gym.sim.phone import Phone
from android_gym.sim.ui.views import View


def nodes(phone: Phone) -> list[etree._Element]:
    """Every ``node`` of the current dump, in document order."""
    return list(etree.fromstring(phone.ui_dump().encode()).iter("node"))


def find(phone: Phone, **attrs: str) -> etree._Element | None:
    """The first node whose attributes (``resource_id`` means ``resource-id``, ``class_name`` means ``class``) all
    match."""
    names = {key: "class" if key == "class_name" else key.replace("_", "-") for key in attrs}
    for node in nodes(phone):
        if all(node.get(names[key]) == value for key, value in attrs.items()):
            return node
    return None


def bounds(node: etree._Element) -> tuple[int, int, int, int]:
    """A node's bounds: left, top, right, bottom."""
    x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", node.get("bounds")))
    return x1, y1, x2, y2


def center(node: etree._Element) -> tuple[float, float]:
    """The middle of a node's bounds."""
    x1, y1, x2, y2 = bounds(node)
    return (x1 + x2) / 2, (y1 + y2) / 2


def tap(phone: Phone, **attrs: str) -> None:
    """Tap the middle of the first node matching ``attrs``."""
    node = find(phone, **attrs)
    assert node is not None, f"no node with {attrs}"
    phone.tap(*center(node))


def opened(package: str) -> Phone:
    """A fresh phone with ``package`` opened as AndroidWorld opens apps."""
    phone = Phone()
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    return phone


def views(frame: Frame) -> list[View]:
    """Every view of the frame's windows."""
    return [view for window in frame.windows() for view in window.walk()]


def colours(area: np.ndarray) -> set[tuple[int, int, int]]:
    """The distinct colours of an area of a screenshot (``H×W×3`` uint8), as ``(r, g, b)`` tuples of ints; each
    packed in one integer so that numpy finds them, not a Python loop over the pixels (a loop takes seconds on a
    large area)."""
    packed = np.unique(area.reshape(-1, 3).astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], np.uint32))
    return {(int(colour) >> 16, int(colour) >> 8 & 255, int(colour) & 255) for colour in packed}


def gallery_rename_dialog(night: bool) -> Phone:
    """A phone by night or by day with Simple Gallery's rename dialog open on ``/sdcard/DCIM/red.png`` (a red
    300x200 PNG): the title field focused, the extension field not."""
    gallery = "com.simplemobiletools.gallery.pro"
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.fs.makedirs("/sdcard/DCIM")
    picture = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 0, 0)).save(picture, format="PNG")
    phone.fs.write_bytes("/sdcard/DCIM/red.png", picture.getvalue())
    phone.run(f"am start -n {gallery}/.activities.MainActivity")
    tap(phone, text="DCIM")
    tap(phone, resource_id=f"{gallery}:id/media_item_holder")
    tap(phone, content_desc="More options")
    tap(phone, text="Rename")
    return phone


def texts_shown_as_with_every_row(phone: Phone, monkeypatch: pytest.MonkeyPatch, app_module: ModuleType,
                                  resource_id: str) -> set[str]:
    """Check that the screen's dump equals the dump it would show if ``app_module``'s lists of fixed-height rows
    built every row (``bound_rows`` making each) at the top, scrolled down a little, to the end and back; the texts
    of the nodes with ``resource_id`` seen on the way."""

    def built_afresh() -> None:  # not the laid-out tree the window kept for what the screen tells it shows
        phone.window._stamped.clear()
        phone.window._app_trees.clear()
        phone.invalidate()

    def check() -> set[str]:
        dump = phone.ui_dump()
        with monkeypatch.context() as patch:
            patch.setattr(app_module, "bound_rows", lambda make, count, *_: [make(index) for index in range(count)])
            built_afresh()
            assert phone.ui_dump() == dump
        built_afresh()
        return {node.get("text") for node in nodes(phone) if node.get("resource-id") == resource_id}

    seen = check()
    for start, end in [(2000, 1400)] * 3 + [(2000, 200)] * 6 + [(900, 1700)] * 2:
        phone.swipe(540, start, 540, end)
        seen |= check()
    return seen
