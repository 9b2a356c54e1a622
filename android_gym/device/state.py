"""State helpers for tasks, built only on the Device protocol so they work on every backend.

SQLite databases are read the way AndroidWorld does: pull the database with its ``-wal`` and ``-shm`` files
and query a local copy, always with bound parameters (the copy stays open between uses: ``local_db``). The
clipboard is read and written through the Clipper app, as AndroidWorld does. Content providers are queried
with ``content query``.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterable, Sequence
from typing import Any

from android_gym.errors import DeviceError, RemoteFileNotFoundError, TaskSetupError
from android_gym.sim.system.prefs import PrefValue, parse_shared_prefs, shared_prefs_xml
from android_gym.ui import UIElement, parse_ui_dump

from .base import Device
from .local_db import local_database
from .reads import shell_read

# `mCurrentFocus=Window{48b4735 u0 pkg/pkg.MainActivity}` (dumpsys window) and
# `topResumedActivity=ActivityRecord{hash u0 pkg/.Act tN}` (dumpsys activity activities, Android 10+).
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ ([^\s/}]+)/([^\s}]+)\}")
_RESUMED = re.compile(r"(?:topResumedActivity|ResumedActivity)[=:] ?ActivityRecord\{\S+ u\d+ ([^\s/}]+)/(\S+)")
# Clipper (github.com/majido/clipper), the clipboard's door for adb; `am broadcast` ends with
# `Broadcast completed: result=N[, data="…"]` (ActivityManagerShellCommand.IntentReceiver).
CLIPPER_ACTIVITY = "ca.zgrs.clipper/.Main"
RESULT_OK = -1
_BROADCAST_RESULT = re.compile(r'Broadcast completed: result=(-?\d+)(?:, data="(.*)")?\s*\Z', re.DOTALL)


def sqlite_query(device: Device, db_path: str, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows of ``sql`` (with ``params`` bound) run on a local copy of the device database, as dicts."""
    return local_database(device, db_path).query(device, sql, params)


def sqlite_execute(device: Device, db_path: str, sql: str, params: Sequence[Any] = ()) -> int:
    """Run a modifying statement on a pulled copy and push the result back; returns the changed row count.

    The device's stale ``-wal``/``-shm`` files are removed so the app reopens the pushed database. Stop the
    owning app first (``am force-stop``) so it does not write over the change.
    """
    return sqlite_execute_many(device, db_path, [(sql, params)])


def sqlite_execute_many(device: Device, db_path: str, statements: Sequence[tuple[str, Sequence[Any]]]) -> int:
    """``sqlite_execute`` for several ``(sql, params)`` statements in one transaction and one pull/push round
    trip; returns the total changed row count (none to run: nothing is asked of the device)."""
    if not statements:
        return 0
    return local_database(device, db_path).execute_many(device, statements)


def sqlite_execute_transactions(device: Device, db_path: str,
                                transactions: Sequence[Sequence[tuple[str, Sequence[Any]]]]) -> list[int]:
    """``sqlite_execute_many`` of each of ``transactions`` in order, with one pull/push round trip for all: the
    device's database ends as after one ``sqlite_execute_many`` each. Returns each one's changed row count."""
    if not any(transactions):
        return [0] * len(transactions)
    return local_database(device, db_path).execute_transactions(device, transactions)


def read_file(device: Device, path: str) -> bytes:
    """Contents of a device file."""
    return device.pull(path)


def write_file(device: Device, path: str, data: bytes | str) -> None:
    """Write a device file (text is UTF-8 encoded), creating parent directories."""
    device.push(data.encode() if isinstance(data, str) else data, path)


def push_parts(device: Device, parts: Sequence[bytes | memoryview], path: str) -> None:
    """``push`` of ``parts`` joined: the device's ``push_parts`` short cut (the simulated phone's, which writes them
    one after the other) where it has one, else one ``push`` of the joined bytes."""
    short_cut = getattr(device, "push_parts", None)
    if short_cut is not None:
        short_cut(parts, path)
    else:
        device.push(b"".join(parts), path)


def edit_shared_prefs(device: Device, path: str, puts: dict[str, PrefValue | None]) -> dict[str, PrefValue | None]:
    """Set (or, for ``None``, remove) keys of an app's SharedPreferences file (``shared_prefs/<name>.xml``, kept
    in ``XmlUtils.writeMapXml`` format); the other keys stay. Returns the keys' previous values (``None``: absent),
    which restore them. Stop the app first: a running process keeps its own copy and writes it back."""
    try:
        values = parse_shared_prefs(read_file(device, path))
    except RemoteFileNotFoundError:
        values = {}
    previous = {key: values.get(key) for key in puts}
    for key, value in puts.items():
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    write_file(device, path, shared_prefs_xml(values))
    return previous


def list_dir(device: Device, path: str) -> list[str]:
    """Entry names of a device directory; raises ``RemoteFileNotFoundError`` if it does not exist."""
    result = shell_read(device, f"ls -1 {shlex.quote(path)}", tree=path)
    if not result.ok:
        raise RemoteFileNotFoundError(f"{path}: {result.output.strip()}")
    return [line for line in result.output.splitlines() if line]


def receive_texts(device: Device, texts: Iterable[tuple[str, str]]) -> None:
    """Incoming texts ``(sender, text)``, oldest first: the device's ``receive_texts`` short cut (the simulated
    phone's, an emulator's one console session) where it has one, else ``receive_sms`` of each."""
    texts = list(texts)
    batch = getattr(device, "receive_texts", None)
    if batch is not None:
        batch(texts)
    else:
        for sender, text in texts:
            device.receive_sms(sender, text)


def settings_get(device: Device, namespace: str, key: str) -> str | None:
    """``settings get``; ``None`` for a missing key. The simulated phone tells what the command prints without
    running it (``SimDevice.setting``, which a task's check notes)."""
    setting = getattr(device, "setting", None)
    printed = setting(namespace, key) if setting is not None else None
    if printed is None:
        printed = device.shell(f"settings get {shlex.quote(namespace)} {shlex.quote(key)}").output
    value = printed.strip()
    return None if value == "null" else value


def settings_put(device: Device, namespace: str, key: str, value: str) -> None:
    """``settings put``."""
    device.shell(f"settings put {shlex.quote(namespace)} {shlex.quote(key)} {shlex.quote(str(value))}")


def _focus(device: Device) -> tuple[str, str] | None:
    """The focused window's package and activity, from ``dumpsys window`` (else ``dumpsys activity activities``); the
    simulated phone tells them without writing the report (``SimDevice.focused_activity``), an adb device may have
    printed the focus line along with its last UI dump (``AdbDevice.known_focus``)."""
    focused = getattr(device, "focused_activity", None)
    if focused is not None:
        return focused()
    known = getattr(device, "known_focus", None)
    window = known() if known is not None else None
    match = _FOCUS.search(window if window is not None else device.shell("dumpsys window").output)
    if match is None:
        match = _RESUMED.search(device.shell("dumpsys activity activities").output)
    return (match.group(1), match.group(2)) if match else None


def ui_elements(device: Device) -> list[UIElement]:
    """The elements of the device's UI dump (``dump_elements``)."""
    return list(dump_elements(device, device.ui_dump()))


def dump_elements(device: Device, xml: str) -> Sequence[UIElement]:
    """The elements of ``xml``, the UI dump ``device`` returned last: the simulated phone gives them from the views it
    wrote the dump from, without parsing it (``SimDevice.ui_elements``, a short cut ``Device`` documents); else
    ``parse_ui_dump``'s, which raises ``ValueError`` for an unreadable dump."""
    from_views = getattr(device, "ui_elements", None)
    elements = from_views(xml) if from_views is not None else None
    return elements if elements is not None else _parsed(xml)


@functools.lru_cache(maxsize=32)
def _parsed(xml: str) -> tuple[UIElement, ...]:
    """``parse_ui_dump`` of ``xml``, made once per dump in a process: screens come back (the home screen, a list after
    a dialog closed), and elements are immutable."""
    return tuple(parse_ui_dump(xml))


def foreground_package(device: Device) -> str | None:
    """Package of the focused window."""
    focus = _focus(device)
    return focus[0] if focus else None


def foreground_activity(device: Device) -> str | None:
    """The focused activity as ``package/class`` (e.g. ``com.android.settings/com.android.settings.Settings``); when
    the focused window is no activity's (the notification shade), the resumed activity, as ``dumpsys`` writes it."""
    focus = _focus(device)
    return f"{focus[0]}/{focus[1]}" if focus else None


def keyboard_shown(device: Device) -> bool:
    """Whether the soft keyboard is up (``mInputShown`` of ``dumpsys input_method``, as AOSP's
    ``InputMethodManagerService`` dumps it)."""
    return "mInputShown=true" in device.shell("dumpsys input_method").output


def _clipper_broadcast(device: Device, arguments: str) -> tuple[int, str | None]:
    """``am broadcast arguments`` with Clipper in front, as AndroidWorld's ``adb_utils`` does it (only the focused
    app may read the clipboard): start Clipper, broadcast, press BACK. Returns the result code and data."""
    started = device.shell(f"am start -W -n {CLIPPER_ACTIVITY}")
    if not started.ok or "Error" in started.output:
        raise TaskSetupError(f"cannot start Clipper ({CLIPPER_ACTIVITY}); is ca.zgrs.clipper installed? "
                             f"{started.output.strip()}")
    try:
        output = device.shell(f"am broadcast {arguments}").output
    finally:
        device.shell("input keyevent KEYCODE_BACK")
    match = _BROADCAST_RESULT.search(output)
    if match is None:
        raise TaskSetupError(f"unexpected `am broadcast` output: {output.strip()!r}")
    return int(match.group(1)), match.group(2)


def clipboard_get(device: Device) -> str | None:
    """The clipboard's text (``am broadcast -a clipper.get``); ``None`` when it holds none."""
    code, data = _clipper_broadcast(device, "-a clipper.get")
    return data if code == RESULT_OK else None


def clipboard_set(device: Device, text: str) -> None:
    """Put ``text`` on the clipboard (``am broadcast -a clipper.set -e text …``)."""
    code, data = _clipper_broadcast(device, f"-a clipper.set -e text {shlex.quote(text)}")
    if code != RESULT_OK:
        raise TaskSetupError(f"Clipper did not set the clipboard (result={code}): {data}")


def _content_value(value: str) -> str | None:
    return None if value == "NULL" else value


def content_query(device: Device, uri: str, projection: Sequence[str] = (), where: str | None = None,
                  sort: str | None = None, tree: str | None = None) -> list[dict[str, str | None]]:
    """Rows of ``content query`` as dicts of strings (``NULL`` → ``None``): ``content_rows`` of the output of
    ``content_query_command``. ``tree``: the folder of the provider's databases, when the rows come from nothing
    else (``reads.shell_read``)."""
    command = content_query_command(uri, projection, where, sort)
    return content_rows(shell_read(device, command, tree).output, command, projection)


def content_query_command(uri: str, projection: Sequence[str] = (), where: str | None = None,
                          sort: str | None = None) -> str:
    """The ``content query`` command line (to run alone, or at the end of a longer one)."""
    command = f"content query --uri {shlex.quote(uri)}"
    if projection:
        command += f" --projection {shlex.quote(':'.join(projection))}"
    if where:
        command += f" --where {shlex.quote(where)}"
    if sort:
        command += f" --sort {shlex.quote(sort)}"
    return command


def content_rows(output: str, command: str, projection: Sequence[str] = ()) -> list[dict[str, str | None]]:
    """The rows ``command`` (a ``content query`` with ``projection``) printed in ``output``.

    The command prints ``Row: N col=val, col2=val2`` and escapes nothing, so with a ``projection`` each row is
    split at the known column names (a comma or newline inside a value survives); without one, at every
    ``, name=``. A provider error (printed with exit code 0) raises ``DeviceError``.
    """
    if "Error while accessing provider" in output or "[ERROR]" in output:
        raise DeviceError(f"`{command}` failed: {output.strip()}")
    pattern = re.compile(", ".join(f"{re.escape(name)}=(.*?)" for name in projection), re.DOTALL)
    rows = []
    for text in re.split(r"(?m)^Row: \d+ ", output)[1:]:
        text = text.removesuffix("\n")
        match = pattern.fullmatch(text) if projection else None
        if match:
            rows.append({name: _content_value(value) for name, value in zip(projection, match.groups())})
        else:
            pairs = (item.partition("=") for item in re.split(r", (?=[A-Za-z_][A-Za-z0-9_]*=)", text))
            rows.append({name: _content_value(value) for name, _, value in pairs})
    return rows
