"""Chromium's accessibility tree as Android exposes web content: a WebView's virtual nodes.

Chrome on Android (``WebContentsAccessibilityImpl``) gives each accessibility node an Android widget class by its
role, its name or value as text, clickability from its default action (a click listener or a control), and the
checked, editable and focused states. ``build_nodes`` does the same from CDP's ``Accessibility.getFullAXTree``,
with bounds and click listeners from ``DOMSnapshot.captureSnapshot`` and the visual viewport from
``Page.getLayoutMetrics``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Roles that carry no content of their own: their children are hoisted (Chrome on Android drops them as well).
_CONTAINER_ROLES = {"none", "generic", "presentation", "InlineTextBox", "LineBreak", "RootWebArea", "Section",
                    "paragraph", "div", "LayoutTable", "LayoutTableRow", "LayoutTableCell", "group"}


@dataclass
class WebNode:
    """One node of the page as Android's WebView exposes it to accessibility, bounds in CSS px of the viewport."""

    role: str
    text: str = ""
    content_desc: str = ""
    hint: str = ""
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    clickable: bool = False
    editable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    children: list[WebNode] = field(default_factory=list)



_TEXT_ROLES = ("textbox", "searchbox", "spinbutton")
_ANDROID_CLASSES = {  # Chrome's WebContentsAccessibilityImpl: the widget class each ARIA role is exposed as
    "button": "android.widget.Button", "checkbox": "android.widget.CheckBox", "radio": "android.widget.RadioButton",
    "textbox": "android.widget.EditText", "searchbox": "android.widget.EditText",
    "spinbutton": "android.widget.EditText",
    "combobox": "android.widget.Spinner", "image": "android.widget.Image", "img": "android.widget.Image",
    "list": "android.widget.ListView", "listbox": "android.widget.ListView", "slider": "android.widget.SeekBar",
    "table": "android.widget.GridView", "grid": "android.widget.GridView", "switch": "android.widget.Switch",
    "tab": "android.widget.TabWidget", "progressbar": "android.widget.ProgressBar",
}


def android_class(role: str) -> str:
    """The Android widget class Chrome reports for an accessibility role."""
    return _ANDROID_CLASSES.get(role, "android.view.View")


def _value(node: dict, key: str) -> str:
    value = node.get(key) or {}
    return str(value.get("value", "")) if isinstance(value, dict) else ""


def _properties(node: dict) -> dict[str, object]:
    return {prop["name"]: (prop.get("value") or {}).get("value") for prop in node.get("properties", [])}


def _layout(snapshot: dict, viewport: dict) -> tuple[dict[int, tuple[float, float, float, float]], set[int]]:
    """Bounds on the visual viewport (CSS px of the screen: page coordinates less the viewport's position, times
    its pinch zoom) and clickability by backend node id, from ``DOMSnapshot.captureSnapshot`` and
    ``Page.getLayoutMetrics``' ``cssVisualViewport``."""
    bounds: dict[int, tuple[float, float, float, float]] = {}
    clickable: set[int] = set()
    if not snapshot.get("documents"):
        return bounds, clickable
    document = snapshot["documents"][0]
    backend = document["nodes"]["backendNodeId"]
    for index in document["nodes"].get("isClickable", {}).get("index", []):
        clickable.add(backend[index])
    dx, dy, zoom = viewport.get("pageX", 0), viewport.get("pageY", 0), viewport.get("scale", 1)
    for index, (x, y, w, h) in zip(document["layout"]["nodeIndex"], document["layout"]["bounds"]):
        bounds.setdefault(backend[index], ((x - dx) * zoom, (y - dy) * zoom, (x - dx + w) * zoom, (y - dy + h) * zoom))
    return bounds, clickable


def build_nodes(tree: list[dict], snapshot: dict, viewport: dict) -> list[WebNode]:
    """The page's accessibility nodes as WebView exposes them: containers without content are dropped (their
    children hoisted), the text of a named control is not repeated by its static-text children, bounds come from
    the layout, and a node is clickable when it has a click listener or is a control."""
    by_id = {node["nodeId"]: node for node in tree}
    bounds, listeners = _layout(snapshot, viewport)
    root = next((node for node in tree if not node.get("parentId")), None)
    if root is None:
        return []

    def union(nodes: list[WebNode]) -> tuple[float, float, float, float]:
        boxes = [n.bounds for n in nodes if n.bounds[2] > n.bounds[0]]
        if not boxes:
            return (0.0, 0.0, 0.0, 0.0)
        return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
                max(b[3] for b in boxes))

    def convert(node: dict, named_text: str) -> list[WebNode]:
        role = _value(node, "role")
        name = _value(node, "name")
        children: list[WebNode] = []
        props = _properties(node)
        keeps_text = role in ("button", "link", "heading", "checkbox", "radio", "tab", "option", "menuitem",
                              "label", "LabelText", *_TEXT_ROLES, "combobox", "cell", "listitem")
        for child_id in node.get("childIds", []):
            child = by_id.get(child_id)
            if child is not None:
                children += convert(child, name if keeps_text and name else named_text)
        if node.get("ignored"):
            return children
        if role == "StaticText":
            if not name.strip() or name == named_text:
                return []
            box = union(children) if not bounds.get(node.get("backendDOMNodeId", -1)) else bounds[
                node["backendDOMNodeId"]]
            return [WebNode(role, text=name, bounds=box)]
        backend = node.get("backendDOMNodeId", -1)
        editable = bool(props.get("editable")) or role in _TEXT_ROLES
        checked = props.get("checked")
        clickable = backend in listeners or role in ("button", "link", "checkbox", "radio", "tab", "option",
                                                    "menuitem", "combobox", "switch") or editable
        if role in _CONTAINER_ROLES and not clickable and not (name and role not in ("RootWebArea", "generic")):
            return children
        text = _value(node, "value") if editable else ("" if role in ("image", "img") else name)
        if clickable and not text and not editable and children and all(not c.children for c in children) \
                and all(c.role == "StaticText" for c in children):
            text, children = "".join(c.text for c in children), []  # a clickable span reads as its text
        box = bounds.get(backend) or union(children)
        return [WebNode(role, text=text, content_desc=name if role in ("image", "img") else "",
                        hint=str(props.get("placeholder", "") or "") if editable else "",
                        bounds=box, clickable=clickable, editable=editable,
                        checkable=checked is not None, checked=checked in (True, "true", "mixed"),
                        focusable=bool(props.get("focusable")) or editable, focused=bool(props.get("focused")),
                        children=children)]

    return convert(root, "")
