"""Whole-phone snapshots of the simulated phone: what the emulator's ``SnapshotService`` saves and loads.

A snapshot is a directory holding ``files/``, a copy of the phone's file tree (its private host directory,
``phone.fs.root``, with device modification times kept), and ``state.json``, the state a phone keeps outside
files: the clock, the ``global``/``system``/``secure`` settings, the system properties and the primary clip.
Everything else lives in files (providers' SQLite databases, SharedPreferences) or in app processes.

Callers hold the phone's lock (``PhoneHost.locked``), so nothing writes while a snapshot is taken: every
provider closes its connection after each transaction, so a database and its ``-wal``/``-shm``/``-journal``
files are at rest and copied together they are consistent.

``SnapshotStore`` keeps named snapshots in one directory, as an AVD keeps its ``snapshots/<name>/``.

Loading differs from the emulator in one way: a real snapshot restores the running processes and activity
stacks; here every app is force-stopped (its in-memory state dropped, as when its process dies) and the
launcher comes to front, so the restored phone shows the home screen.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from android_gym.device.base import SETTINGS_NAMESPACES
from android_gym.errors import SnapshotError
from android_gym.locales import ENGLISH as DEFAULT_LOCALE
from android_gym.sim.phone import Phone
from android_gym.sim.system.clipboard import ClipData

FILES = "files"
STATE = "state.json"


def save_phone(phone: Phone, directory: Path) -> None:
    """Write a snapshot of ``phone`` into ``directory``, which must not exist yet."""
    directory = Path(directory)
    directory.mkdir(parents=True)
    for package in phone.packages.names():  # every app's data in the files, as if each had started at boot
        phone.packages.get(package)
    shutil.copytree(phone.fs.root, directory / FILES, symlinks=True)
    clip = phone.clipboard.primary
    state = {
        "clock_ms": phone.clock.now_ms(),
        "settings": phone.settings.saved(),
        "props": phone.props,
        "locale": phone.window.locale.tag,  # the running framework's, which a later persist.sys.locale may not be
        "clipboard": None if clip is None else {"text": clip.text, "label": clip.label},
    }
    (directory / STATE).write_text(json.dumps(state, indent=1, sort_keys=True))


def saved_clock_ms(directory: Path) -> int:
    """The phone's device time when the snapshot in ``directory`` was taken (epoch milliseconds)."""
    return json.loads((Path(directory) / STATE).read_text())["clock_ms"]


def load_phone(phone: Phone, directory: Path) -> None:
    """Put ``phone`` back into the state saved in ``directory``: stop every app, replace the file tree and the
    state kept outside files, and go home."""
    directory = Path(directory)
    state = json.loads((directory / STATE).read_text())
    _refuse_links(directory / FILES)
    for package in phone.packages.names():
        phone.activities.force_stop(package)
    phone.fs.clear_dir("/")
    shutil.copytree(directory / FILES, phone.fs.root, symlinks=True, dirs_exist_ok=True)
    phone.clock.set(state["clock_ms"])
    for namespace in SETTINGS_NAMESPACES:
        for key, _ in phone.settings.items(namespace):
            phone.settings.delete(namespace, key)
        for key, value in state["settings"][namespace].items():
            phone.settings.put(namespace, key, value)
    phone.props.clear()
    phone.props.update(state["props"])
    clip = state["clipboard"]
    phone.clipboard.primary = None if clip is None else ClipData(clip["text"], clip["label"])
    phone.window.shade.collapse()
    phone.window.set_locale(state.get("locale", DEFAULT_LOCALE))
    phone.activities.home()
    phone.invalidate()


def _refuse_links(files: Path) -> None:
    """Raise ``SnapshotError`` if the file tree holds a symbolic link: the phone never makes one (there is no
    ``ln``, and its adbd refuses to push links), and one would lead the phone's paths out of its sandbox."""
    for directory, dirnames, filenames in os.walk(files):
        for name in dirnames + filenames:
            if os.path.islink(os.path.join(directory, name)):
                link = os.path.relpath(os.path.join(directory, name), files)
                raise SnapshotError(f"snapshot {files.parent} holds a symbolic link, {FILES}/{link}, which the "
                                    "simulated phone never makes: save the snapshot from a phone again")


class SnapshotStore:
    """Named snapshots, each in ``directory/<name>``; ``loaded`` is the one the phone was last restored from."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.loaded: str | None = None

    def names(self) -> list[str]:
        """Saved snapshot names, sorted."""
        return sorted(path.name for path in self.directory.iterdir() if (path / STATE).is_file()
                      and not path.name.startswith("."))

    def size(self, name: str) -> int:
        """Bytes the snapshot takes on disk."""
        return sum(path.lstat().st_size for path in self._path(name).rglob("*") if not path.is_dir())

    def saved_clock_ms(self, name: str) -> int:
        """The phone's device time when ``name`` was saved."""
        return saved_clock_ms(self._path(name))

    def save(self, phone: Phone, name: str) -> None:
        """Save ``phone`` as ``name``, replacing a snapshot of that name."""
        target = self._path(name, must_exist=False)
        partial = self.directory / f".saving-{name}"
        shutil.rmtree(partial, ignore_errors=True)
        save_phone(phone, partial)
        if target.exists():
            shutil.rmtree(target)
        partial.rename(target)

    def load(self, phone: Phone, name: str) -> None:
        """Restore ``phone`` from ``name``."""
        load_phone(phone, self._path(name))
        self.loaded = name

    def delete(self, name: str) -> None:
        """Delete ``name``."""
        shutil.rmtree(self._path(name))
        if self.loaded == name:
            self.loaded = None

    def _path(self, name: str, must_exist: bool = True) -> Path:
        if not name or name.startswith(".") or any(char in name for char in "/\\\0"):
            raise SnapshotError(f"invalid snapshot name {name!r}: use a file name (no '/', not starting with '.')")
        path = self.directory / name
        if must_exist and not (path / STATE).is_file():
            raise SnapshotError(f"no snapshot named {name!r} (saved: {', '.join(self.names()) or 'none'})")
        return path
