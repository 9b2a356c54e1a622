"""``log`` and ``logcat`` on the simulated phone: formats, filters and buffers in process, and a following
``adb logcat`` that streams entries as they are written and ends when its client goes."""

from __future__ import annotations

import shlex
import subprocess

import pytest

from android_gym.sim.phone import Phone
from android_gym.sim.system.logd import PRIORITIES


def run(phone: Phone, command: str) -> tuple[int, str, str]:
    result = phone.run(command)
    return result.exit_code, result.stdout.decode(), result.stderr.decode()


def test_log_writes_entries_logcat_prints_as_threadtime(phone):
    phone.run("log -t AndroidRLTask 'reward: 1.5'; log -p w hello world; printf 'a\\nb\\n' | log -t Lines")
    code, out, _ = run(phone, "logcat -d")
    assert code == 0
    assert out.splitlines() == [
        "--------- beginning of main",
        "10-15 15:34:00.000  4001  4001 I AndroidRLTask: reward: 1.5",
        "10-15 15:34:00.000  4002  4002 W log     : hello world",
        "10-15 15:34:00.000  4003  4003 I Lines   : a",
        "10-15 15:34:00.000  4003  4003 I Lines   : b",
        "10-15 15:34:00.000  4003  4003 I Lines   : ",
    ]


def test_epoch_format_and_filter_specs_are_what_androidenv_parses(phone):
    """AndroidEnv runs ``logcat -v epoch <filters> *:S`` and matches this regular expression (logcat_thread.py)."""
    import re

    phone.run("log -t AndroidRLTask 'extra: score [3]'; log -t Noise ignored; log -p v -t AndroidRLTask verbose")
    _, out, _ = run(phone, "logcat -d -v epoch AndroidRLTask:V '*:S'")
    lines = out.splitlines()
    assert lines[0] == "--------- beginning of main"
    pattern = re.compile(r"^[ ]+(?P<timestamp>[0-9]+\.[0-9]+)[ ]+(?P<pid>[0-9]+)[ ]+(?P<tid>[0-9]+)"
                         r"[ ]+(?P<priority>.)[ ]+(?P<tag>[^:]*):[ ](?P<message>.*)$")
    parsed = [pattern.match(line).group("tag", "message") for line in lines[1:]]
    assert parsed == [("AndroidRLTask", "extra: score [3]"), ("AndroidRLTask", "verbose")]
    assert lines[1].startswith(" " * 9 + "1697384040.000 ")  # %19lld seconds, then .%03ld


@pytest.mark.parametrize(("spec", "tags"), [
    ("*:S", []),
    ("*:W", ["Warn"]),
    ("Info *:S", ["Info"]),
    ("Info:S", ["Warn", "Debug", "Verb"]),
    ("*", ["Warn", "Debug", "Info"]),  # '*' alone means '*:D'
    ("Verb:V *:E", ["Verb"]),
])
def test_filter_specs(phone, spec, tags):
    phone.run("log -p w -t Warn x; log -p d -t Debug x; log -p v -t Verb x; log -t Info x")
    _, out, _ = run(phone, "logcat -d -v tag " + " ".join(map(shlex.quote, spec.split())))
    assert [line[2:].split(":")[0].strip() for line in out.splitlines()[1:]] == tags


def test_formats_and_modifiers(phone):
    phone.run("log -t Tag message")
    outputs = {verb: run(phone, f"logcat -d -v {verb}")[1].splitlines()[1] for verb in
               ("brief", "process", "tag", "thread", "raw", "time", "year", "usec", "UTC")}
    assert outputs == {
        "brief": "I/Tag     ( 4001): message",
        "process": "I( 4001) message  (Tag)",
        "tag": "I/Tag     : message",
        "thread": "I( 4001: 4001) message",
        "raw": "message",
        "time": "10-15 15:34:00.000 I/Tag     ( 4001): message",
        "year": "2023-10-15 15:34:00.000  4001  4001 I Tag     : message",
        "usec": "10-15 15:34:00.000000  4001  4001 I Tag     : message",
        "UTC": "10-15 15:34:00.000  4001  4001 I Tag     : message",
    }
    assert run(phone, "logcat -d -v long")[1].splitlines()[1:] == ["[ 10-15 15:34:00.000  4001: 4001 I/Tag      ]",
                                                                   "message", ""]


def test_clear_buffers_tail_regex_and_max_count(phone):
    for n in range(5):
        phone.run(f"log -t T line{n}")
    assert run(phone, "logcat -d -v raw -t 2")[1].splitlines()[1:] == ["line3", "line4"]
    assert run(phone, "logcat -d -v raw -e 'line[13]'")[1].splitlines()[1:] == ["line1", "line3"]
    assert run(phone, "logcat -v raw -m 2")[1].splitlines()[1:] == ["line0", "line1"]
    assert run(phone, "logcat -b all -c") == (0, "", "")
    assert run(phone, "logcat -d") == (0, "", "")
    phone.logs.write(PRIORITIES["I"], "ActivityManager", "system line", buffer="system")
    assert run(phone, "logcat -d -b main -v raw") == (0, "", "")
    assert run(phone, "logcat -d -b system -v raw")[1] == "--------- beginning of system\nsystem line\n"


def test_errors_as_logcat_and_log_print_them(phone):
    assert run(phone, "logcat -x") == (1, "", "logcat: Unknown option '-x'.\n")
    assert run(phone, "logcat -v nonsense") == (1, "", "logcat: Invalid -v 'nonsense'.\n")
    assert run(phone, "logcat -b nope") == (1, "", "logcat: Unknown -b buffer 'nope'.\n")
    assert run(phone, "logcat -d 'Tag:Q'") == (1, "", "logcat: Invalid filter expression 'Tag:Q'.\n")
    assert run(phone, "logcat -m 0") == (1, "", "logcat: -m '0' isn't an integer greater than zero.\n")
    assert run(phone, "log -p x hi") == (1, "", "log: bad -p 'x'\n")


def test_logcat_without_a_live_reader_ends_after_the_buffered_entries(phone):
    """In process (and behind a pipe) nobody takes output as it comes, so a following logcat cannot block."""
    phone.run("log -t T one")
    assert run(phone, "logcat -v raw | cat")[1] == "--------- beginning of main\none\n"


def test_adb_logcat_streams_entries_as_they_are_written(fresh_served_phone, adb_server_port):
    """AndroidEnv's log stream: ``adb logcat -b all -c``, then a long-lived ``adb logcat -v epoch FILTERS *:S``
    that sees each entry as it is logged, and that ends its device side when the client is killed."""
    adb = ["adb", "-P", str(adb_server_port), "-s", fresh_served_phone.serial]
    fresh_served_phone.phone.run("log -t AndroidRLTask before")
    assert subprocess.run([*adb, "logcat", "-b", "all", "-c"], capture_output=True, timeout=60).returncode == 0
    follower = subprocess.Popen([*adb, "logcat", "-v", "epoch", "AndroidRLTask:V", "*:S"], stdout=subprocess.PIPE,
                                text=True)
    try:
        subprocess.run([*adb, "shell", "log", "-t", "AndroidRLTask", "'reward: 2'"], check=True, timeout=60)
        subprocess.run([*adb, "shell", "log", "-t", "Other", "filtered"], check=True, timeout=60)
        subprocess.run([*adb, "shell", "log", "-t", "AndroidRLTask", "episode end"], check=True, timeout=60)
        lines = [follower.stdout.readline() for _ in range(3)]
    finally:
        follower.kill()
        follower.wait()
        follower.stdout.close()
    assert lines[0] == "--------- beginning of main\n"
    assert [line.split(": ", 1)[1] for line in lines[1:]] == ["reward: 2\n", "episode end\n"]
    # The device side of the killed client ended: the phone still answers every other client.
    assert subprocess.run([*adb, "shell", "echo", "ok"], capture_output=True, timeout=60).stdout == b"ok\n"
