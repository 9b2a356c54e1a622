"""UI text compression: AndroidArena's two stages over a uiautomator dump, with stable element IDs.

Stage one drops what an agent cannot use: layout-only nodes (no text, no content description, no action, no
state; their children move up into their place), nodes with empty bounds, and the system UI's nodes when they
only frame an app (status and navigation bars; the notification shade in front is kept). Stage two merges
text that does nothing on its own into the actionable node it belongs to ("Wi-Fi" and "Connected" into the
clickable row), so each kept node is one thing an agent can act on or read. The hierarchy stays.

Each kept node gets an ID that is the same at every step for the same element: a hash of its package, the
classes and resource-ids on its path from the root, and its text after merging (a list row is told apart from
its siblings by what it says). The text of fields and switches is their state, not their name, so it does not
count: a field keeps its ID while the agent types, a switch while it flips. Equal keys (two identical rows) are
numbered in document order. AndroidArena's IDs were random per step (``uuid4().hex[:4]``), which neither an
agent's memory nor visit counting can use.

Text form, one node per line, four spaces per level::

    App: com.android.settings
    [n51d6] RecyclerView recycler_view <scroll>
        [n0c2f] "Network & internet Mobile, Wi-Fi & hotspot" <click>
        [n8e41] Switch switch_widget "Use Wi-Fi" <click,check> (checked)

i.e. ``[id] class resource-id "text" <actions> (states)``, empty parts left out; the class is blank for plain
layouts and ``View``. The text is the screen's own, characters and all (``"49°F"``, ``"C:\\temp"``), as a prompt
should carry it; only control characters and line separators are escaped (``\\n``), so each node stays one line.
``to_text(ids="index")`` labels each line with the element's index instead of its ID (``[12]``), the number
``click`` takes and Set-of-Mark draws on the screenshot, for agents that act by index.

The JSON form (``to_json``) is ASCII with JSON escapes. ``CompressUITree``'s observation is ASCII like every
observation text of the env: a character outside ASCII appears as a numeric character reference (``49&#176;F``),
as in ``goal`` and ``a11y_tree``; ``readable`` turns such text back into the characters.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
from gymnasium import spaces
from lxml import etree

from android_gym.env import to_ascii_xml
from android_gym.errors import AndroidGymError
from android_gym.spaces import SharedText
from android_gym.ui import UIElement, parse_bounds, parse_hierarchy

SYSTEM_UI_PACKAGE = "com.android.systemui"
#: Classes whose name says nothing an agent needs: written as no class at all (AndroidArena's list, plus the
#: androidx layouts).
LAYOUT_CLASSES = frozenset({"View", "ViewGroup", "FrameLayout", "LinearLayout", "RelativeLayout",
                            "ConstraintLayout", "CoordinatorLayout"})
FORMATS = ("text", "json")
#: How ``to_text`` labels a line: by the node's stable ID, or by the element's index (Set-of-Mark's number).
ID_STYLES = ("hash", "index")
INDENT = "    "
MAX_TEXT_CHARS = 1 << 20
#: What the text form escapes: control characters and line separators (everything else is written as it is).
_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")
_CHARACTER_REFERENCE = re.compile(r"&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));")


def _quoted(text: str) -> str:
    """``text`` in double quotes, control characters escaped as in JSON (``\\n``), nothing else."""
    return '"' + _CONTROL.sub(lambda match: json.dumps(match.group())[1:-1], text) + '"'


def readable(text: str) -> str:
    """An observation's ASCII text (``goal``, ``ui_text``, ``exploration_hint``) with its numeric character
    references (``&#176;``, ``&#xb0;``) read back into the characters. A reference to no character stays; a
    screen text that itself spells a reference (rare) is read as the character too."""

    def character(match: re.Match[str]) -> str:
        code = int(match.group(1)) if match.group(1) else int(match.group(2), 16)
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group()

    return _CHARACTER_REFERENCE.sub(character, text)


class CompressUITreeError(AndroidGymError):
    """A compression setting that cannot work (unknown format or ID style, a key already in the observation)."""


@dataclass
class UINode:
    """One kept node of a compressed UI tree.

    ``index`` is the element's position in ``info["ui_elements"]`` (the index ``click``/``long_press`` use);
    ``text`` is its text and content description plus the text merged in from its passive descendants.
    """

    id: str
    index: int
    class_name: str
    resource_id: str
    text: str
    actions: tuple[str, ...]
    states: tuple[str, ...]
    children: list[UINode] = field(default_factory=list)

    def line(self, label: str | None = None) -> str:
        """This node's line of the text form (no indentation), headed ``[label]`` (its ID when ``label`` is
        ``None``, nothing when it is empty)."""
        label = self.id if label is None else label
        parts = [f"[{label}]" if label else "", self.class_name, self.resource_id,
                 _quoted(self.text) if self.text else "",
                 f"<{','.join(self.actions)}>" if self.actions else "",
                 f"({','.join(self.states)})" if self.states else ""]
        return " ".join(part for part in parts if part)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; empty fields are left out."""
        data: dict[str, Any] = {"id": self.id, "index": self.index}
        for key in ("class_name", "resource_id", "text", "actions", "states"):
            value = getattr(self, key)
            if value:
                data[key] = list(value) if isinstance(value, tuple) else value
        if self.children:
            data["children"] = [child.to_dict() for child in self.children]
        return data


@dataclass
class CompressedUI:
    """A compressed screen: the kept nodes as a tree, by ID, and as text or JSON."""

    package: str
    roots: list[UINode]
    nodes: dict[str, UINode]

    def walk(self) -> Iterator[tuple[int, UINode]]:
        """Every kept node with its depth, in document order."""
        stack = [(0, node) for node in reversed(self.roots)]
        while stack:
            depth, node = stack.pop()
            yield depth, node
            stack.extend((depth + 1, child) for child in reversed(node.children))

    def to_text(self, ids: str = "hash") -> str:
        """The indented text form (see the module docstring); ``ids="index"`` heads each line with the element's
        index instead of its ID."""
        if ids not in ID_STYLES:
            raise CompressUITreeError(f"unknown ids {ids!r}; use one of {ID_STYLES}")
        lines = [f"App: {self.package}"] + [INDENT * depth + node.line(str(node.index) if ids == "index" else None)
                                            for depth, node in self.walk()]
        return "\n".join(lines)

    def to_json(self) -> str:
        """``{"app": package, "nodes": [...]}``, children nested, ASCII."""
        return json.dumps({"app": self.package, "nodes": [node.to_dict() for node in self.roots]})

    def render(self, form: str) -> str:
        """``to_text()`` or ``to_json()`` by name."""
        return self.to_text() if form == "text" else self.to_json()


def _flag(node: etree._Element, name: str) -> bool:
    return node.get(name) == "true"


def _short_class(class_name: str) -> str:
    short = class_name.rsplit(".", 1)[-1]
    return "" if short in LAYOUT_CLASSES else short


def _is_editable(node: etree._Element) -> bool:
    return node.get("class", "").endswith("EditText")


def _actions(node: etree._Element) -> tuple[str, ...]:
    found = [name for name, flag in (("click", "clickable"), ("long-click", "long-clickable"),
                                     ("scroll", "scrollable"), ("check", "checkable")) if _flag(node, flag)]
    if _is_editable(node):
        found.append("edit")
    return tuple(found)


def _states(node: etree._Element) -> tuple[str, ...]:
    found = []
    if _flag(node, "checkable"):
        found.append("checked" if _flag(node, "checked") else "unchecked")
    found += [name for name in ("selected", "focused", "password") if _flag(node, name)]
    if node.get("enabled") == "false":
        found.append("disabled")
    return tuple(found)


def _own_text(node: etree._Element) -> str:
    text, desc = node.get("text", "").strip(), node.get("content-desc", "").strip()
    return " ".join(part for part in dict.fromkeys((text, desc)) if part)


def _keeps(node: etree._Element) -> bool:
    """Whether the node carries something for an agent: text, an action or a state."""
    if parse_bounds(node.get("bounds", "")).area == 0:
        return False
    return bool(_own_text(node) or _actions(node) or any(_flag(node, name) for name in
                                                          ("checked", "selected", "password")))


def _path(node: etree._Element) -> str:
    return "/".join(f"{each.get('class', '')}#{each.get('resource-id', '')}"
                    for each in reversed([node, *node.iterancestors("node")]))


class _Builder:
    """Builds the kept-node tree of one dump (document-order indices, stable IDs)."""

    def __init__(self, root: etree._Element) -> None:
        self.index = {node: i for i, node in enumerate(root.iter("node"))}
        self.nodes: dict[str, UINode] = {}
        self._seen: Counter[str] = Counter()

    def build(self, node: etree._Element) -> list[UINode]:
        """The kept nodes standing for ``node``'s subtree (itself with its kept children, or its children)."""
        children = [kept for child in node.iterchildren("node") for kept in self.build(child)]
        if not _keeps(node):
            return children
        built = UINode(id="", index=self.index[node], class_name=_short_class(node.get("class", "")),
                       resource_id=node.get("resource-id", "").split(":id/", 1)[-1], text=_own_text(node),
                       actions=_actions(node), states=_states(node))
        absorbs = bool(set(built.actions) - {"scroll"})  # a list's rows keep their own text
        for child in children:
            if absorbs and not child.actions and not child.children:
                del self.nodes[child.id]
                if child.text not in built.text:
                    built.text = f"{built.text} {child.text}".strip()
            else:
                built.children.append(child)
        built.id = self._identify(node, built)
        self.nodes[built.id] = built
        return [built]

    def _identify(self, node: etree._Element, built: UINode) -> str:
        """A hash of the package, the path and the text; a field's or a switch's text is its state, not its name."""
        name = "" if "edit" in built.actions or "check" in built.actions else built.text
        key = f"{node.get('package', '')}|{_path(node)}|{name}"
        self._seen[key] += 1
        digest = hashlib.blake2b(f"{key}|{self._seen[key]}".encode(), digest_size=8).hexdigest()
        for length in range(4, len(digest) + 1):
            candidate = "n" + digest[:length]
            if candidate not in self.nodes:
                return candidate
        raise AssertionError("unreachable: a 64-bit digest collided")


def _top_level(root: etree._Element) -> list[etree._Element]:
    """The windows of the dump, without the system UI's when it only frames an app."""
    windows = list(root.iterchildren("node"))
    if all(window.get("package") == SYSTEM_UI_PACKAGE for window in windows):
        return windows
    return [window for window in windows if window.get("package") != SYSTEM_UI_PACKAGE]


def compress_ui(xml: str | bytes) -> CompressedUI:
    """The compressed form of a uiautomator dump; ``ValueError`` if it is not one."""
    root = parse_hierarchy(xml)
    builder = _Builder(root)
    windows = _top_level(root)
    roots = [kept for window in windows for kept in builder.build(window)]
    package = windows[-1].get("package", "") if windows else ""
    return CompressedUI(package=package, roots=roots, nodes=builder.nodes)


def step_compression(observation: dict[str, Any], info: dict[str, Any]) -> CompressedUI:
    """The compressed screen of a step's ``a11y_tree``, computed once per step: kept in
    ``info["ui_compressed"]``, where the other wrappers of the same step find it (empty when the tree is, after a
    device failure)."""
    if "ui_compressed" not in info:
        tree = observation["a11y_tree"]
        info["ui_compressed"] = compress_ui(tree) if tree else CompressedUI(package="", roots=[], nodes={})
    return info["ui_compressed"]


class CompressUITree(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Adds the compressed UI text (AndroidArena's compression with stable IDs) to each observation.

    ## Observation Space
    The wrapped env's ``Dict`` plus ``key`` (default ``"ui_text"``): ``Text``, the ``text`` or ``json`` form of
    ``compress_ui``, ASCII like the env's other texts (non-ASCII characters as numeric character references;
    ``readable`` reads them back, and ``info["ui_compressed"].to_text()`` has them as they are, for prompts). The
    lossless ``a11y_tree`` stays.

    ## Info
    ``info["ui_nodes"]``: ID → ``UIElement`` of the same step's ``info["ui_elements"]`` (so an agent's
    ``[n51d6]`` resolves to an element index); ``info["ui_compressed"]``: the ``CompressedUI`` itself.

    ## Arguments
    ``form``: ``"text"`` (default) or ``"json"``. ``key``: the observation key to add.
    """

    def __init__(self, env: gym.Env, form: str = "text", key: str = "ui_text") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, form=form, key=key)
        super().__init__(env)
        if form not in FORMATS:
            raise CompressUITreeError(f"unknown form {form!r}; use one of {FORMATS}")
        if not isinstance(env.observation_space, spaces.Dict) or "a11y_tree" not in env.observation_space.spaces:
            raise CompressUITreeError("CompressUITree needs an android_gym env whose observation has 'a11y_tree'")
        if key in env.observation_space.spaces:
            raise CompressUITreeError(f"the observation already has {key!r}; pass another key=")
        self.form, self.key = form, key
        self.observation_space = spaces.Dict({
            **env.observation_space.spaces,
            key: SharedText(MAX_TEXT_CHARS, min_length=0, charset=env.observation_space["a11y_tree"].character_set),
        })

    def reset(self, **kwargs: Any):
        """Reset the env and add the compressed screen."""
        observation, info = self.env.reset(**kwargs)
        return self._add(observation, info), info

    def step(self, action: Any):
        """Step the env and add the compressed screen."""
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._add(observation, info), reward, terminated, truncated, info

    def _add(self, observation: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        """The observation with the compressed screen; ``info`` gains the ID map."""
        compressed = step_compression(observation, info)
        elements: list[UIElement] = info.get("ui_elements", [])
        info["ui_nodes"] = {node_id: elements[node.index] for node_id, node in compressed.nodes.items()
                            if node.index < len(elements)}
        return {**observation, self.key: to_ascii_xml(compressed.render(self.form))}
