"""``DocStore``: what each element of an app does, one JSON file per app, keyed by screen and element.

AppAgent keeps one document per element, named by the element's uid (its resource-id, else class and size, plus
its content-desc), with one entry per action (tap, text, long press, vertical and horizontal swipe), and hands the
documents of the elements on screen to the model at deployment. Here the screen is the foreground activity, the
element key is its resource-id (plus its content-desc, which tells apart the buttons of a toolbar that share one
id), else its class with its label (or the first label inside it: a row of a settings list), else its class with its
size; the entries are ``VERBS``. The file is
``<folder>/<package>.json``; ``save`` merges with what the file already holds, so runs add up.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.errors import AppDocsError
from android_gym.ui import UIElement, descendants

FORMAT = "android_gym.appdocs/1"
#: The entries of an element's document, by the action that was observed (AppAgent's tap, long press, text).
VERBS = {ActionType.CLICK: "tap", ActionType.LONG_PRESS: "long_press", ActionType.INPUT_TEXT: "text",
         ActionType.SCROLL: "scroll"}
#: Longest label kept in an element key.
KEY_LABEL_CHARS = 30
#: Descriptions of a change that saw none: a later observation that saw one replaces them.
NO_CHANGE = "changes nothing visible"


def inner_label(element: UIElement, elements: Sequence[UIElement] = ()) -> str:
    """The element's label, else the first label of the elements inside it (``elements``: its screen's
    ``info["ui_elements"]``, in document order)."""
    if element.label or not elements:
        return element.label
    return next((inner.label for inner in descendants(element, elements) if inner.label), "")


def element_key(element: UIElement, elements: Sequence[UIElement] = ()) -> str:
    """The element's stable key: ``resource-id[#content-desc]``, else ``Class "label"`` (its own label or the first
    one inside it, given its screen's ``elements``), else ``Class WxH``."""
    desc = element.content_description[:KEY_LABEL_CHARS]
    if element.resource_name:
        return f"{element.resource_name}#{desc}" if desc else element.resource_name
    kind = element.class_name.rsplit(".", 1)[-1]
    label = inner_label(element, elements)[:KEY_LABEL_CHARS]
    if label:
        return f'{kind} "{label}"'
    box = element.bbox_pixels
    return f"{kind} {box.x_max - box.x_min}x{box.y_max - box.y_min}"


def verb_of(action: Action) -> str | None:
    """The document entry an action on an element informs (``None`` for actions on no element)."""
    return VERBS.get(action.action_type) if action.index is not None else None


@dataclass
class ElementDoc:
    """One element's document: how it shows (class, label) and what each verb did (``docs``), with how many times
    each was observed (``seen``)."""

    class_name: str
    label: str
    docs: dict[str, str] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)

    def record(self, verb: str, description: str, count: int = 1) -> bool:
        """Note an observation of ``verb``; returns whether the document is new or better (a change where only
        "nothing" was seen before)."""
        self.seen[verb] = self.seen.get(verb, 0) + count
        old = self.docs.get(verb)
        if old is None or (NO_CHANGE in old and NO_CHANGE not in description):
            self.docs[verb] = description
            return True
        return False

    def to_json(self) -> dict[str, Any]:
        """The JSON form stored in the file."""
        return {"class": self.class_name, "label": self.label, "docs": self.docs, "seen": self.seen}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ElementDoc:
        """The document of a stored JSON object."""
        return cls(str(value.get("class", "")), str(value.get("label", "")), dict(value.get("docs", {})),
                   {verb: int(count) for verb, count in value.get("seen", {}).items()})


class DocStore:
    """The documents of one app's elements: ``screens[activity][element key] -> ElementDoc``."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.screens: dict[str, dict[str, ElementDoc]] = {}

    def __len__(self) -> int:
        return sum(len(elements) for elements in self.screens.values())

    def record(self, screen: str, elements: Sequence[UIElement], index: int, verb: str, description: str) -> bool:
        """Add what ``verb`` on element ``index`` of ``screen`` (showing ``elements``) did; returns whether the
        store learned something."""
        docs = self.screens.setdefault(screen, {})
        element = elements[index]
        key = element_key(element, elements)
        doc = docs.get(key)
        if doc is None:
            doc = docs[key] = ElementDoc(element.class_name.rsplit(".", 1)[-1],
                                         inner_label(element, elements)[:KEY_LABEL_CHARS])
        return doc.record(verb, description)

    def on_screen(self, screen: str | None, elements: Sequence[UIElement]) -> dict[int, dict[str, str]]:
        """Element index → its documented verbs, for the elements of ``elements`` that have a document."""
        found = {}
        docs = self.screens.get(screen or "", {})
        for element in elements:
            doc = docs.get(element_key(element, elements))
            if doc is not None and doc.docs:
                found[element.index] = dict(doc.docs)
        return found

    def merge(self, other: DocStore) -> None:
        """Add ``other``'s documents (same app) to this store."""
        for screen, docs in other.screens.items():
            mine = self.screens.setdefault(screen, {})
            for key, doc in docs.items():
                target = mine.setdefault(key, ElementDoc(doc.class_name, doc.label))
                for verb, description in doc.docs.items():
                    target.record(verb, description, doc.seen.get(verb, 1))

    @staticmethod
    def path(folder: str | Path, package: str) -> Path:
        """The file of ``package``'s documents under ``folder``."""
        return Path(folder) / f"{package}.json"

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object."""
        return {"format": FORMAT, "package": self.package,
                "screens": {screen: {key: doc.to_json() for key, doc in sorted(docs.items())}
                            for screen, docs in sorted(self.screens.items())}}

    @classmethod
    def load(cls, path: str | Path, package: str | None = None) -> DocStore:
        """The store of a docs file; an empty store of ``package`` when the file does not exist yet.
        ``AppDocsError`` for a file that is not a docs file (or another app's)."""
        path = Path(path)
        if not path.exists():
            if package is None:
                raise AppDocsError(f"no app docs at {path}; write them with `android-gym explore <app> --out DIR`")
            return cls(package)
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise AppDocsError(f"{path} cannot be read as app docs: {error}") from error
        if not isinstance(value, dict) or value.get("format") != FORMAT:
            raise AppDocsError(f"{path} is not an app docs file (no \"format\": \"{FORMAT}\")")
        if package is not None and value.get("package") != package:
            raise AppDocsError(f"{path} documents {value.get('package')!r}, not {package!r}")
        store = cls(str(value["package"]))
        for screen, docs in value.get("screens", {}).items():
            store.screens[screen] = {key: ElementDoc.from_json(doc) for key, doc in docs.items()}
        return store

    def save(self, folder: str | Path) -> Path:
        """Merge into ``<folder>/<package>.json`` (created if missing) and return its path."""
        path = self.path(folder, self.package)
        stored = DocStore.load(path, self.package)
        stored.merge(self)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(stored.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return path


def load_docs(paths: Iterable[str | Path]) -> dict[str, DocStore]:
    """Package → store for docs files, or folders of them (``*.json``)."""
    stores: dict[str, DocStore] = {}
    for path in map(Path, paths):
        for file in sorted(path.glob("*.json")) if path.is_dir() else [path]:
            store = DocStore.load(file)
            if store.package in stores:
                stores[store.package].merge(store)
            else:
                stores[store.package] = store
    return stores


def render_docs(found: dict[int, dict[str, str]], labels: dict[int, str] | None = None) -> str:
    """One line per documented verb of the elements of ``found`` (``DocStore.on_screen``), headed by the
    element's label in ``labels`` (index → label, default ``[index]``); elements without a label are left out."""
    lines = []
    for index, docs in sorted(found.items()):
        label = f"[{index}]" if labels is None else labels.get(index)
        if label is not None:
            lines += [f"{label} {verb}: {description}" for verb, description in docs.items()]
    return "\n".join(lines)


def screen_docs(stores: Mapping[str, DocStore], activity: str | None,
                elements: Iterable[UIElement]) -> dict[int, dict[str, str]]:
    """Element index → documented verb → text, for the elements on screen that the foreground app's store
    documents on this activity."""
    store = stores.get((activity or "").partition("/")[0])
    return store.on_screen(activity, list(elements)) if store is not None else {}


def as_stores(docs: str | Path | DocStore | Iterable[str | Path | DocStore]) -> dict[str, DocStore]:
    """Package → store, from docs files, folders of them, or stores."""
    items = [docs] if isinstance(docs, (str, Path, DocStore)) else list(docs)
    stores = load_docs(item for item in items if not isinstance(item, DocStore))
    for store in (item for item in items if isinstance(item, DocStore)):
        stores.setdefault(store.package, DocStore(store.package)).merge(store)
    return stores
