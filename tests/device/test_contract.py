"""The Device contract: what every backend (SimDevice, AdbDevice over the simulator's adbd, ...) must do.

Tests act only through the Device protocol and ``android_gym.device.state``, and expect the output formats of a
real Android 13 device (mksh, toybox, AOSP shell commands), so a backend that mangles a byte, an exit status or a
quote fails here.
"""

from __future__ import annotations

import hashlib
import io
import random
import re
import shlex
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from PIL import Image

from android_gym.device import state
from android_gym.device.base import Device
from android_gym.device.sim import SimDevice
from android_gym.errors import AndroidGymError, RemoteFileNotFoundError
from android_gym.tasks.validators import add_contacts, contact_phones

# Package and launcher activity from Simple SMS Messenger's AndroidManifest.xml.
SMS = "com.simplemobiletools.smsmessenger"
SMS_MAIN = ".activities.MainActivity"
SMS_LABEL = "SMS Messenger"
TELEPHONY = "com.android.providers.telephony"  # owner of mmssms.db (AOSP TelephonyProvider)
LAUNCHER = "com.google.android.apps.nexuslauncher"  # the Pixel launcher of AndroidWorld's Pixel 6 image
# android.view.KeyEvent
KEYCODE_HOME = 3
# AOSP AccessibilityNodeInfoDumper.dumpNodeRec: attribute order of every <node> (after an optional NAF).
NODE_ATTRIBUTES = ["index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked",
                   "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable", "password",
                   "selected", "bounds"]
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
TMP = "/data/local/tmp"


# ----- helpers ---------------------------------------------------------------------------------------------------
def run(device: Device, cmd: str) -> str:
    """Output of a command that must succeed."""
    result = device.shell(cmd)
    assert result.exit_code == 0, f"{cmd!r} exited {result.exit_code}: {result.output!r}"
    return result.output


def nodes(device: Device, **attrs: str) -> list[etree._Element]:
    """Dump nodes whose attributes all match (``resource_id`` stands for ``resource-id``)."""
    root = etree.fromstring(device.ui_dump().encode())
    return [node for node in root.iter("node")
            if all(node.get(key.replace("_", "-")) == value for key, value in attrs.items())]


def node(device: Device, **attrs: str) -> etree._Element:
    """The one dump node matching ``attrs``."""
    found = nodes(device, **attrs)
    assert len(found) == 1, f"{len(found)} nodes match {attrs}"
    return found[0]


def bounds(element: etree._Element) -> tuple[int, int, int, int]:
    match = _BOUNDS.fullmatch(element.get("bounds"))
    assert match, element.get("bounds")
    x1, y1, x2, y2 = map(int, match.groups())
    return x1, y1, x2, y2


def center(element: etree._Element) -> tuple[int, int]:
    x1, y1, x2, y2 = bounds(element)
    return (x1 + x2) // 2, (y1 + y2) // 2


def sms_id(name: str) -> str:
    return f"{SMS}:id/{name}"


def launch_sms(device: Device) -> None:
    run(device, f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    assert state.foreground_package(device) == SMS


def remote_size(device: Device, path: str) -> int:
    return int(run(device, f"stat -c %s {shlex.quote(path)}"))


def make_db(path: Path, wal: bool = False) -> sqlite3.Connection:
    """A local notes database to push; with ``wal``, its newest row lives only in the ``-wal`` file."""
    connection = sqlite3.connect(path)
    if wal:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA wal_autocheckpoint=0")
    connection.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
    connection.execute("INSERT INTO notes(title, body) VALUES ('first', 'one'), ('second', NULL)")
    connection.commit()
    if wal:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("INSERT INTO notes(title, body) VALUES ('only in the wal', 'three')")
        connection.commit()
    return connection


# ----- protocol --------------------------------------------------------------------------------------------------
def test_backend_implements_the_protocol(backend_device):
    assert isinstance(backend_device, Device)
    width, height = backend_device.screen_size
    assert isinstance(width, int) and isinstance(height, int) and 0 < width < height


def test_close_is_idempotent(backend_device):
    backend_device.close()
    backend_device.close()


# ----- shell: the language -----------------------------------------------------------------------------------
@pytest.mark.parametrize("cmd, output, exit_code", [
    ("echo hello", "hello\n", 0),
    ("true", "", 0),
    ("false", "", 1),
    ("exit 3", "", 3),
    ("echo a; exit 7; echo b", "a\n", 7),
    ("printf abc", "abc", 0),  # no trailing newline added
    ("printf ''", "", 0),
    ("cat /dev/null", "", 0),
    ("printf 'a\\r\\nb\\n'", "a\r\nb\n", 0),  # no CRLF mangling on a non-pty shell (Android 7+)
    ("echo a | tr a b", "b\n", 0),
    ("printf 'b\\na\\nc\\n' | sort | head -n 2", "a\nb\n", 0),
    ("echo one; echo two", "one\ntwo\n", 0),
    ("true && echo and; false && echo never; false || echo or", "and\nor\n", 0),
    ("false; echo $?", "1\n", 0),
    ("true; false", "", 1),
    (f"echo one > {TMP}/r.txt; echo two >> {TMP}/r.txt; cat < {TMP}/r.txt", "one\ntwo\n", 0),
    ("ls /no/such/dir > /dev/null 2>&1", "", 1),
])
def test_shell_output_and_exit_status(backend_device, cmd, output, exit_code):
    result = backend_device.shell(cmd)
    assert (result.output, result.exit_code) == (output, exit_code)
    assert result.ok is (exit_code == 0)


def test_shell_takes_a_timeout(backend_device):
    assert backend_device.shell("echo hi", timeout=30).output == "hi\n"


def test_missing_command_exits_127_saying_not_found(backend_device):
    result = backend_device.shell("no_such_command --flag")
    assert result.exit_code == 127
    # mksh: "/system/bin/sh: no_such_command: inaccessible or not found"
    assert "no_such_command" in result.output and "not found" in result.output


def test_stderr_is_part_of_the_output(backend_device):
    assert backend_device.shell("echo to-stderr >&2").output == "to-stderr\n"
    result = backend_device.shell("ls /no/such/dir")
    assert result.exit_code == 1
    assert result.output == "ls: /no/such/dir: No such file or directory\n"  # toybox ls
    assert sorted(backend_device.shell("echo out; echo err >&2").output.splitlines()) == ["err", "out"]


def test_unicode_text_round_trips(backend_device):
    text = "héllo 世界 🚀"
    assert run(backend_device, f"echo {shlex.quote(text)}") == text + "\n"
    # the device sees UTF-8 bytes, not a re-encoding
    assert int(run(backend_device, f"printf '%s' {shlex.quote(text)} | wc -c")) == len(text.encode())


HOSTILE = [
    "it's",
    'say "hi"',
    "$HOME ${PATH} $(id) `id` $((1+1))",
    "a; touch /sdcard/pwned && b || c | d & e",
    "two\nlines\n",
    "glob * ? [a] ~",
    "tab\there  and  spaces",
    "<in >out 2>&1",
    "all at once: '\"$`;\n\\",
    "X4EXIT:0",  # looks like an exit-status marker some clients append
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_quoted_strings_round_trip_verbatim(backend_device, text):
    assert run(backend_device, f"printf '%s' {shlex.quote(text)}") == text
    if "\\" not in text:  # mksh's echo interprets backslash escapes
        assert run(backend_device, f"echo {shlex.quote(text)}") == text + "\n"
    assert backend_device.shell("ls /sdcard/pwned").exit_code == 1


def test_long_output_arrives_whole(backend_device):
    output = run(backend_device, "seq 1 100000")
    lines = output.split("\n")
    assert lines[-1] == "" and len(lines) == 100001
    assert lines[0] == "1" and lines[-2] == "100000"
    assert output == "".join(f"{i}\n" for i in range(1, 100001))


# ----- shell: the Android commands tasks and adbutils use ----------------------------------------------------------
def test_settings_get_and_put(backend_device):
    device = backend_device
    assert run(device, "settings get global wifi_on") in ("0\n", "1\n")
    assert run(device, "settings put global wifi_on 0") == ""  # put prints nothing
    assert run(device, "settings get global wifi_on") == "0\n"
    assert 0 <= int(run(device, "settings get system screen_brightness")) <= 255
    run(device, "settings put system screen_brightness 200")
    assert run(device, "settings get system screen_brightness") == "200\n"
    assert run(device, "settings get system no_such_key") == "null\n"  # SettingsService prints "null"
    assert state.settings_get(device, "system", "no_such_key") is None
    state.settings_put(device, "system", "screen_brightness", "17")
    assert state.settings_get(device, "system", "screen_brightness") == "17"
    state.settings_put(device, "secure", "odd key", "va'l ue; $HOME")
    assert state.settings_get(device, "secure", "odd key") == "va'l ue; $HOME"


def test_getprop(backend_device):
    model = run(backend_device, "getprop ro.product.model")
    assert re.fullmatch(r"\S.*\n", model)
    assert re.fullmatch(r"\d+\n", run(backend_device, "getprop ro.build.version.sdk"))
    assert run(backend_device, "getprop no.such.property") == "\n"  # toolbox getprop: the empty default


def test_wm_size_is_the_screen_size(backend_device):
    match = re.search(r"^Physical size: (\d+)x(\d+)$", run(backend_device, "wm size"), re.M)
    assert match and (int(match[1]), int(match[2])) == backend_device.screen_size


def test_dumpsys_window_names_the_focused_app(backend_device):
    device = backend_device
    focus = re.compile(r"^  mCurrentFocus=Window\{[0-9a-f]+ u0 ([^\s/}]+)/[^\s}]+\}$", re.M)
    home = focus.search(run(device, "dumpsys window"))
    assert home and home[1] == LAUNCHER and state.foreground_package(device) == LAUNCHER
    launch_sms(device)
    assert focus.search(run(device, "dumpsys window"))[1] == SMS


def test_am_start_and_force_stop(backend_device):
    device = backend_device
    home = state.foreground_package(device)
    output = run(device, f"am start -n {SMS}/{SMS_MAIN}")
    assert f"Starting: Intent {{ cmp={SMS}/{SMS_MAIN} }}" in output
    assert state.foreground_package(device) == SMS
    assert run(device, f"am force-stop {SMS}") == ""
    assert state.foreground_package(device) == home


def test_monkey_launches_the_launcher_activity(backend_device):
    output = run(backend_device, f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in output
    assert state.foreground_package(backend_device) == SMS


@pytest.mark.parametrize("key", ["KEYCODE_HOME", "3", "HOME"])
def test_input_keyevent_home_returns_to_the_launcher(backend_device, key):
    home = state.foreground_package(backend_device)
    launch_sms(backend_device)
    assert run(backend_device, f"input keyevent {key}") == ""
    assert state.foreground_package(backend_device) == home


def test_input_tap_and_text_commands(backend_device):
    device = backend_device
    x, y = center(node(device, text=SMS_LABEL))
    run(device, f"input tap {x} {y}")
    assert state.foreground_package(device) == SMS
    x, y = center(node(device, resource_id=sms_id("conversations_fab")))
    run(device, f"input tap {x} {y}")
    run(device, "input text 555%s0100")  # InputShellCommand.sendText: "%s" is a space
    assert node(device, resource_id=sms_id("new_conversation_address")).get("text") == "555 0100"


def test_input_text_command_fails_on_characters_without_a_key(backend_device):
    # InputShellCommand.sendText: KeyCharacterMap.load(VIRTUAL_KEYBOARD).getEvents() returns null for "é", so
    # the command dies with "java.lang.NullPointerException: Attempt to get length of null array", types nothing.
    device = backend_device
    launch_sms(device)
    device.tap(*center(node(device, resource_id=sms_id("conversations_fab"))))
    before = node(device, resource_id=sms_id("new_conversation_address")).get("text")
    result = device.shell("input text 'héllo'")
    assert result.exit_code == 255 and "NullPointerException" in result.output
    assert node(device, resource_id=sms_id("new_conversation_address")).get("text") == before


def test_content_insert_and_query_sms(backend_device):
    device = backend_device
    assert run(device, "content query --uri content://sms") == "No result found.\n"
    body = shlex.quote("body:s:Lunch at noon?")
    assert run(device, f"content insert --uri content://sms --bind address:s:5550100 --bind {body} "
                       "--bind type:i:1") == ""
    assert run(device, "content query --uri content://sms --projection address:body:type") == \
        "Row: 0 address=5550100, body=Lunch at noon?, type=1\n"
    where = shlex.quote("address='5550100'")
    assert run(device, f"content query --uri content://sms/inbox --projection body --where {where}") == \
        "Row: 0 body=Lunch at noon?\n"
    assert run(device, "content query --uri content://sms/sent") == "No result found.\n"


def test_content_query_settings(backend_device):
    run(backend_device, "settings put system screen_brightness 99")
    where = shlex.quote("name='screen_brightness'")
    assert run(backend_device, f"content query --uri content://settings/system --projection name:value "
                               f"--where {where}") == "Row: 0 name=screen_brightness, value=99\n"


def test_uiautomator_dump_writes_the_hierarchy(backend_device):
    device = backend_device
    assert run(device, "uiautomator dump /sdcard/window_dump.xml") == \
        "UI hierchary dumped to: /sdcard/window_dump.xml\n"  # sic, AOSP DumpCommand
    xml = device.pull("/sdcard/window_dump.xml")
    assert xml.startswith(b"<?xml") and b"<hierarchy" in xml
    assert etree.fromstring(xml).tag == "hierarchy"
    assert xml == device.ui_dump().encode()


def test_screencap_png_is_the_screenshot(backend_device):
    device = backend_device
    assert run(device, "screencap -p /sdcard/contract.png") == ""
    png = device.pull("/sdcard/contract.png")
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    assert image.size == device.screen_size
    assert np.array_equal(np.asarray(image.convert("RGB")), device.screenshot())


def test_file_commands(backend_device):
    device = backend_device
    base = "/sdcard/Documents/contract"
    run(device, f"mkdir -p {base}/a/b")
    run(device, f"mkdir -p {base}/a/b")  # -p: an existing directory is fine
    assert run(device, f"ls {base}/a") == "b\n"
    assert run(device, f"stat -c %F {base}/a/b") == "directory\n"
    run(device, f"echo hello > {base}/a/note.txt; touch {base}/a/empty")
    assert run(device, f"cat {base}/a/note.txt") == "hello\n"
    assert run(device, f"ls {base}/a") == "b\nempty\nnote.txt\n"
    # toybox stat %F
    assert run(device, f"stat -c '%s %F' {base}/a/note.txt {base}/a/empty") == \
        "6 regular file\n0 regular empty file\n"
    result = device.shell(f"cat {base}/missing.txt")
    assert (result.output, result.exit_code) == (f"cat: {base}/missing.txt: No such file or directory\n", 1)
    assert run(device, f"rm -rf {base}") == ""
    assert device.shell(f"ls {base}").exit_code == 1
    assert run(device, f"rm -rf {base}") == ""  # -f: nothing to remove is fine
    assert device.shell(f"rm {base}").exit_code == 1


def push_notes_db(device, tmp_path) -> str:
    """Push the ``make_db`` notes database into the SMS app's data; returns its device path."""
    local = tmp_path / "notes.db"
    make_db(local).close()
    remote = f"/data/data/{SMS}/databases/notes.db"
    device.push(local.read_bytes(), remote)
    return remote


def test_sqlite3_reads_a_pushed_database(backend_device, tmp_path):
    device = backend_device
    remote = push_notes_db(device, tmp_path)
    # sqlite3 shell list mode: "|" between columns, NULL empty
    assert run(device, f"sqlite3 {remote} 'SELECT id, title, body FROM notes ORDER BY id'") == \
        "1|first|one\n2|second|\n"
    run(device, f"sqlite3 {remote} \"UPDATE notes SET title = 'renamed' WHERE id = 1\"")
    assert state.sqlite_query(device, remote, "SELECT title FROM notes WHERE id = ?", (1,)) == [{"title": "renamed"}]
    result = device.shell(f"sqlite3 {remote} 'SELECT * FROM nope'")
    assert result.exit_code == 1 and "no such table: nope" in result.output


# ----- files -----------------------------------------------------------------------------------------------------
PAYLOADS = {
    "empty": b"",
    "text": "line one\nligne deux: é\n".encode(),
    "all-bytes": bytes(range(256)) * 4,
    "2MiB-random": random.Random(1234).randbytes(2 * 1024 * 1024),
}


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_push_pull_round_trip(backend_device, name):
    device, data = backend_device, PAYLOADS[name]
    path = f"/sdcard/Download/{name}.bin"
    device.push(data, path)
    assert device.pull(path) == data
    assert remote_size(device, path) == len(data)
    fields = run(device, f"ls -l {path}").split()
    assert int(fields[4]) == len(data) and fields[-1] == path
    assert run(device, f"md5sum {path}") == f"{hashlib.md5(data).hexdigest()}  {path}\n"


def test_push_creates_parent_directories(backend_device):
    device = backend_device
    path = "/sdcard/Documents/x/y/z/deep.txt"
    assert device.shell("ls /sdcard/Documents/x").exit_code == 1
    device.push(b"deep", path)
    assert run(device, "stat -c %F /sdcard/Documents/x/y/z") == "directory\n"
    assert state.list_dir(device, "/sdcard/Documents/x/y/z") == ["deep.txt"]
    assert run(device, f"cat {path}") == "deep"


def test_push_overwrites_and_truncates(backend_device):
    device = backend_device
    path = f"{TMP}/over.txt"
    device.push(b"a much longer first version", path)
    device.push(b"short", path)
    assert device.pull(path) == b"short"
    assert remote_size(device, path) == 5


def test_pushed_parts_make_the_file_their_joined_bytes_make(backend_device):
    device, big = backend_device, PAYLOADS["2MiB-random"]
    parts = (b"head ", memoryview(big)[:300_000], b"", b" tail")
    state.push_parts(device, parts, "/sdcard/Music/new/parts.bin")  # the folder made, as by push
    device.push(b"a longer first version than what follows", f"{TMP}/over.bin")
    state.push_parts(device, (b"sh", b"ort"), f"{TMP}/over.bin")  # truncated, as by push
    assert device.pull("/sdcard/Music/new/parts.bin") == b"head " + big[:300_000] + b" tail"
    assert device.pull(f"{TMP}/over.bin") == b"short"
    device.push(b"".join(parts), "/sdcard/Music/new/joined.bin")
    files = "/sdcard/Music/new/parts.bin /sdcard/Music/new/joined.bin"
    sizes_and_modes = run(device, f"stat -c '%s %a' {files}").splitlines()
    assert sizes_and_modes[0] == sizes_and_modes[1]
    if isinstance(device, SimDevice):  # its clock, standing still, stamps both; over adb each push's DONE carries
        times = run(device, f"stat -c %Y {files}").split()  # the host's second, which may have moved on
        assert times[0] == times[1]


def test_unicode_file_names(backend_device):
    device = backend_device
    name = "héllo 世界 🚀 it's.txt"
    path = f"/sdcard/Download/{name}"
    device.push(name.encode(), path)
    assert device.pull(path) == name.encode()
    assert name in state.list_dir(device, "/sdcard/Download")
    assert run(device, f"cat {shlex.quote(path)}") == name
    assert remote_size(device, path) == len(name.encode())


def test_shell_and_push_see_the_same_files(backend_device):
    device = backend_device
    run(device, f"printf 'from\\nshell' > {TMP}/shell.txt")
    assert device.pull(f"{TMP}/shell.txt") == b"from\nshell"
    device.push(b"from push\n", f"{TMP}/pushed.txt")
    assert run(device, f"cat {TMP}/pushed.txt") == "from push\n"
    assert run(device, f"rm {TMP}/pushed.txt") == ""
    with pytest.raises(RemoteFileNotFoundError):
        device.pull(f"{TMP}/pushed.txt")


def test_what_the_device_writes_carries_device_time(backend_device):
    # A directory adbd creates for a push, and a database the telephony provider writes, get the device's
    # "now" as mtime (the host chooses only a pushed *file's* mtime: sync DONE carries it).
    device = backend_device
    device.push(b"x", "/sdcard/Download/new/file.txt")
    device.receive_sms("+15550123", "hi")
    now = int(run(device, "date +%s"))
    for path in ("/sdcard/Download/new", f"/data/data/{TELEPHONY}/databases/mmssms.db"):
        assert abs(int(run(device, f"stat -c %Y {path}")) - now) <= 60, path


@pytest.mark.parametrize("path", ["/sdcard/Download/missing.txt", "/no/such/dir/file", "/sdcard/Download"])
def test_pull_of_a_missing_file_or_a_directory_raises(backend_device, path):
    with pytest.raises(RemoteFileNotFoundError):
        backend_device.pull(path)


def test_state_file_helpers(backend_device):
    device = backend_device
    state.write_file(device, "/sdcard/Documents/a/b.txt", "héllo")
    state.write_file(device, "/sdcard/Documents/a/c.bin", b"\x00\xff")
    assert state.read_file(device, "/storage/emulated/0/Documents/a/b.txt") == "héllo".encode()
    assert state.read_file(device, "/sdcard/Documents/a/c.bin") == b"\x00\xff"
    assert state.list_dir(device, "/sdcard/Documents/a") == ["b.txt", "c.bin"]
    assert state.list_dir(device, "/sdcard/Documents/a/../a") == ["b.txt", "c.bin"]
    with pytest.raises(RemoteFileNotFoundError):
        state.read_file(device, "/sdcard/missing.txt")
    with pytest.raises(RemoteFileNotFoundError):
        state.list_dir(device, "/sdcard/missing")


def test_state_sqlite_binds_parameters(backend_device, tmp_path):
    device = backend_device
    remote = push_notes_db(device, tmp_path)
    hostile = "x' OR '1'='1'; DROP TABLE notes; --"
    assert state.sqlite_query(device, remote, "SELECT * FROM notes WHERE title = ?", (hostile,)) == []
    assert state.sqlite_query(device, remote, "SELECT id, body FROM notes ORDER BY id") == \
        [{"id": 1, "body": "one"}, {"id": 2, "body": None}]
    changed = state.sqlite_execute(device, remote, "INSERT INTO notes(title, body) VALUES (?, ?)", (hostile, "b"))
    assert changed == 1
    assert state.sqlite_query(device, remote, "SELECT id FROM notes WHERE title = ?", (hostile,)) == [{"id": 3}]
    assert run(device, f"sqlite3 {remote} 'SELECT title FROM notes WHERE id = 3'") == hostile + "\n"
    assert state.sqlite_execute(device, remote, "UPDATE notes SET body = ? WHERE id < ?", ("z", 3)) == 2


def test_state_sqlite_reads_the_wal_and_writes_back(backend_device, tmp_path):
    device = backend_device
    local = tmp_path / "notes.db"
    connection = make_db(local, wal=True)  # kept open: the last row is not checkpointed
    remote = f"/data/data/{SMS}/databases/notes.db"
    device.push(local.read_bytes(), remote)
    device.push(Path(f"{local}-wal").read_bytes(), remote + "-wal")
    connection.close()
    main_only = tmp_path / "main-only.db"
    main_only.write_bytes(device.pull(remote))
    with sqlite3.connect(main_only) as check:  # the pushed main file alone lacks the last row
        assert check.execute("SELECT count(*) FROM notes").fetchone() == (2,)
    titles = state.sqlite_query(device, remote, "SELECT title FROM notes WHERE id >= ? ORDER BY id", (1,))
    assert titles == [{"title": "first"}, {"title": "second"}, {"title": "only in the wal"}]
    assert state.sqlite_execute(device, remote, "UPDATE notes SET title = ? WHERE id = ?", ("renamed", 3)) == 1
    assert state.list_dir(device, f"/data/data/{SMS}/databases") == ["notes.db"]  # stale -wal/-shm removed
    assert run(device, f"sqlite3 {remote} 'SELECT title FROM notes ORDER BY id'") == "first\nsecond\nrenamed\n"


# ----- screen and input ------------------------------------------------------------------------------------------
def test_screenshot(backend_device):
    device = backend_device
    width, height = device.screen_size
    first = device.screenshot()
    assert first.shape == (height, width, 3) and first.dtype == np.uint8
    assert (first != first[0, 0]).any()  # not a blank frame
    run(device, "true")
    assert np.array_equal(device.screenshot(), first)
    launch_sms(device)
    assert not np.array_equal(device.screenshot(), first)


def test_ui_dump_format(backend_device):
    device = backend_device
    width, height = device.screen_size
    xml = device.ui_dump()
    assert xml.startswith("<?xml")
    root = etree.fromstring(xml.encode())
    assert root.tag == "hierarchy" and root.get("rotation") == "0"
    all_nodes = list(root.iter("node"))
    assert all_nodes and all(child.tag == "node" for child in root)
    for element in all_nodes:
        assert [key for key in element.keys() if key != "NAF"][:len(NODE_ATTRIBUTES)] == NODE_ATTRIBUTES
        x1, y1, x2, y2 = bounds(element)
        assert 0 <= x1 <= x2 <= width and 0 <= y1 <= y2 <= height, element.get("bounds")


def test_tap_on_a_launcher_icon_opens_the_app_and_home_returns(backend_device):
    device = backend_device
    home = state.foreground_package(device)
    icon = node(device, text=SMS_LABEL, clickable="true")
    device.tap(*center(icon))
    assert state.foreground_package(device) == SMS
    assert nodes(device, package=SMS)
    device.key(KEYCODE_HOME)
    assert state.foreground_package(device) == home
    assert nodes(device, text=SMS_LABEL)


def test_long_press_on_a_launcher_icon_does_not_open_the_app(backend_device):
    # Launcher3 ItemLongClickListener: a long press on a workspace icon starts a drag and opens the shortcut
    # popup; the app is not launched.
    device = backend_device
    home = state.foreground_package(device)
    device.long_press(*center(node(device, text=SMS_LABEL, clickable="true")))
    assert state.foreground_package(device) == home


def test_swipe_scrolls_the_conversation_list(backend_device):
    device = backend_device
    run(device, "for i in $(seq 10 39); do content insert --uri content://sms --bind address:s:55501$i "
                "--bind body:s:message$i --bind type:i:1; done")
    launch_sms(device)
    address = sms_id("conversation_address")
    before = {element.get("text") for element in nodes(device, resource_id=address)}
    assert before and len(before) < 30
    width, height = device.screen_size
    device.swipe(width // 2, height * 3 // 4, width // 2, height // 3, 400)
    after = {element.get("text") for element in nodes(device, resource_id=address)}
    assert after - before and after <= {f"55501{i}" for i in range(10, 40)}


@pytest.mark.parametrize("text", [
    "Ann O'Neil & \"Bo\"; $HOME `id` (x) <y> 100",  # ASCII: what `input text` can type
    "50%sale", "100% sure", "%s", "a%%sb", " padded ",  # `input text` decodes %s as a space
])
def test_input_text_goes_into_the_focused_field(backend_device, text):
    device = backend_device
    launch_sms(device)
    device.tap(*center(node(device, resource_id=sms_id("conversations_fab"))))
    field = node(device, resource_id=sms_id("new_conversation_address"))
    assert field.get("focused") == "true"
    device.input_text(text)
    assert node(device, resource_id=sms_id("new_conversation_address")).get("text") == text


def test_text_that_is_not_unicode_is_refused_before_it_reaches_the_phone(backend_device):
    """A lone surrogate (what ``json.loads`` makes of ``"\\ud800"``) has no UTF-8 form: every call that would
    send one raises a clear ``AndroidGymError`` (a ``ValueError``), never ``UnicodeEncodeError``, and does nothing
    (``input_text`` does not type the part before it either)."""
    device = backend_device
    launch_sms(device)
    device.tap(*center(node(device, resource_id=sms_id("conversations_fab"))))
    field = sms_id("new_conversation_address")
    before, files = node(device, resource_id=field).get("text"), state.list_dir(device, "/sdcard/Download")
    bad = "/sdcard/Download/50%s off \ud800"
    with pytest.raises(AndroidGymError, match=r"text to type .* position 26 is a lone surrogate"):
        device.input_text(bad)
    for call in (lambda: device.shell(f"touch {shlex.quote(bad)}"), lambda: device.push(b"x", bad),
                 lambda: device.pull(bad), lambda: device.receive_sms("+15550123", bad),
                 lambda: device.receive_sms("+1555\ud800", "hi")):
        with pytest.raises(AndroidGymError) as raised:  # the console's own check names a bad number as such
            call()
        assert isinstance(raised.value, ValueError) and not isinstance(raised.value, UnicodeError)
    assert node(device, resource_id=field).get("text") == before
    assert state.list_dir(device, "/sdcard/Download") == files
    assert run(device, "content query --uri content://sms/inbox") == "No result found.\n"


def test_received_texts_arrive_in_order(backend_device):
    device = backend_device
    state.receive_texts(device, [("+15550123", "first"), ("+15550456", "second"), ("+15550123", "third")])
    assert run(device, "content query --uri content://sms/inbox --projection address:body --sort '_id ASC'") == (
        "Row: 0 address=+15550123, body=first\nRow: 1 address=+15550456, body=second\n"
        "Row: 2 address=+15550123, body=third\n")


def test_added_contacts_read_back_in_order(backend_device):
    """``add_contacts``: the simulated phone's short cut and a served device's line of ``content insert`` commands."""
    device = backend_device
    add_contacts(device, [("Carol Diaz", "+1 202-555-0111"), ("O'Brien; \"$(reboot)\"", "4155550188")])
    assert contact_phones(device) == [("Carol Diaz", "12025550111"), ("O'Brien; \"$(reboot)\"", "4155550188")]
    assert run(device, "content query --uri content://com.android.contacts/contacts --projection _id:lookup "
                       "--sort '_id ASC'") == "Row: 0 _id=1, lookup=0r1-4341524F4C4449415A\n" \
                                             "Row: 1 _id=2, lookup=0r2-4F425249454E5245424F4F54\n"


def test_receive_sms_lands_in_the_inbox(backend_device):
    device = backend_device
    device.receive_sms("+15550123", "Running late, 10 min")
    assert run(device, "content query --uri content://sms/inbox --projection address:body:type:read") == \
        "Row: 0 address=+15550123, body=Running late, 10 min, type=1, read=0\n"
    launch_sms(device)
    assert node(device, resource_id=sms_id("conversation_address")).get("text") == "+15550123"
    assert node(device, resource_id=sms_id("conversation_body_short")).get("text") == "Running late, 10 min"
