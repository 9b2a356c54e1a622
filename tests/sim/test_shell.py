"""The simulated phone's device shell: mksh's language and toybox/AOSP command formats."""

from __future__ import annotations

import io
import re
import struct
import time

import numpy as np
import pytest
from lxml import etree
from PIL import Image

from android_gym.sim.phone import Phone
from android_gym.sim.shell import MAX_BYTES, ShellOutput

SMS = "com.simplemobiletools.smsmessenger"
SMS_MAIN = f"{SMS}.activities.MainActivity"
LAUNCHER = "com.google.android.apps.nexuslauncher"
# The regexes adbutils 2.12 uses in ``app_current`` (adbutils/shell.py).
FOCUS_RE = re.compile(r"mCurrentFocus=Window{.*\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\}")
RESUMED_RE = re.compile(r"mResumedActivity: ActivityRecord\{.*?\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\s.*?\}")
TOP_RE = re.compile(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)")



def sh(phone: Phone, command: str, stdin: bytes = b"") -> ShellOutput:
    return phone.run(command, stdin)


def out(phone: Phone, command: str) -> str:
    return sh(phone, command).stdout.decode()


# ----- language ------------------------------------------------------------------------------------------------
def test_quoting_follows_posix_sh(phone):
    result = sh(phone, """printf '[%s]' 'a  $HOME \\n' "b  $HOME \\$x \\"q\\"" c\\ d "" e'f'"g" """)
    assert result.stdout == b'[a  $HOME \\n][b  / $x "q"][c d][][efg]'
    assert result.exit_code == 0


def test_ansi_c_quotes_and_escapes_in_echo(phone):
    assert out(phone, "echo $'a\\tb\\x41'") == "a\tbA\n"
    assert out(phone, "echo 'x\\ny'") == "x\ny\n"  # mksh's echo interprets escapes
    assert out(phone, "echo -n 1; echo -E 'a\\nb'") == "1a\\nb\n"


def test_sequences_and_conditionals(phone):
    assert out(phone, "false; echo $?; true && echo and; false || echo or; false && echo never") == "1\nand\nor\n"
    assert out(phone, "! false && echo negated") == "negated\n"
    assert sh(phone, "true; false").exit_code == 1


def test_pipes_feed_stdout_to_stdin(phone):
    assert out(phone, "printf 'b\\na\\nc\\n' | sort | head -n 2") == "a\nb\n"
    assert out(phone, "echo hello | grep -c hell") == "1\n"
    assert sh(phone, "cat", stdin=b"from adb\n").stdout == b"from adb\n"


def test_variables_arithmetic_and_substitution(phone):
    assert out(phone, "echo $EXTERNAL_STORAGE ${ANDROID_DATA} ${NOPE:-dflt} $((3 * (2 + 5) % 4))") == \
        "/sdcard /data dflt 1\n"
    assert out(phone, 'x="a   b"; printf "[%s]" $x "$x"') == "[a][b][a   b]"
    assert out(phone, "echo $(echo $(echo nested)) `echo back`") == "nested back\n"
    assert out(phone, "echo $((2147483647 + 1))") == "-2147483648\n"  # mksh arithmetic is 32-bit


def test_control_flow_and_heredoc(phone):
    assert out(phone, "i=0; while [ $i -lt 3 ]; do echo $i; i=$((i+1)); done") == "0\n1\n2\n"
    assert out(phone, "for f in /sdcard/Mu* /sdcard/Podcasts; do echo $f; done") == "/sdcard/Music\n/sdcard/Podcasts\n"
    assert out(phone, "if [ -d /sdcard/DCIM ]; then echo yes; else echo no; fi") == "yes\n"
    assert out(phone, "cat > /sdcard/h.txt <<EOF\nhome=$HOME\nEOF\ncat /sdcard/h.txt") == "home=/\n"
    assert out(phone, "cat <<'EOF'\n$HOME\nEOF") == "$HOME\n"


@pytest.mark.parametrize(("op", "holds_for"), [
    ("-e", "file empty run dir"), ("-r", "file empty run dir"), ("-w", "file empty run dir"), ("-f", "file empty run"),
    ("-d", "dir"), ("-s", "file run"), ("-x", "run dir"), ("-L", ""), ("-h", ""), ("-p", ""), ("-S", ""), ("-b", ""),
    ("-c", "")])
def test_file_tests_read_the_phone_file_system(phone, op, holds_for):
    """``test``'s file operators: the type, size and mode of the file (shared storage has no links)."""
    sh(phone, "cd /sdcard/Download && echo x > file && touch empty && echo y > run && chmod 755 run && mkdir dir")
    names = ["file", "empty", "run", "dir", "missing", "file/below"]
    held = [name for name in names if sh(phone, f"[ {op} /sdcard/Download/{name} ]").exit_code == 0]
    assert held == holds_for.split()


def test_globbing_uses_the_phone_file_system(phone):
    sh(phone, "touch /sdcard/Download/a.txt /sdcard/Download/b.txt /sdcard/Download/.hidden.txt")
    assert out(phone, "echo /sdcard/Download/*.txt") == "/sdcard/Download/a.txt /sdcard/Download/b.txt\n"
    assert out(phone, "echo /sdcard/Download/*.nothing '/sdcard/Download/*'") == \
        "/sdcard/Download/*.nothing /sdcard/Download/*\n"
    assert out(phone, "cd /sdcard/Download && echo ?.txt") == "a.txt b.txt\n"


def test_a_word_without_a_pattern_is_left_as_written(phone):
    # mksh globs only a word with a pattern; an unclosed [ is none, so an existing file does not respell the word
    sh(phone, "touch '/sdcard/Download/a['")
    assert out(phone, "echo /sdcard//Download/a[ [") == "/sdcard//Download/a[ [\n"


def test_redirections(phone):
    sh(phone, "echo one > /sdcard/r.txt; echo two >> /sdcard/r.txt")
    assert phone.fs.read_bytes("/sdcard/r.txt") == b"one\ntwo\n"
    sh(phone, "echo three > /sdcard/r.txt")
    assert phone.fs.read_bytes("/storage/emulated/0/r.txt") == b"three\n"
    result = sh(phone, "ls /nope 2> /sdcard/err.txt; echo $?")
    assert result.stdout == b"1\n" and result.stderr == b""
    assert phone.fs.read_bytes("/sdcard/err.txt") == b"ls: /nope: No such file or directory\n"
    assert sh(phone, "ls /nope 2>&1").stdout == b"ls: /nope: No such file or directory\n"
    result = sh(phone, "ls /nope 2>&1 >/dev/null")
    assert result.stdout == b"ls: /nope: No such file or directory\n"
    assert sh(phone, "echo err >&2").stderr == b"err\n"
    assert sh(phone, "cat < /sdcard/r.txt").stdout == b"three\n"
    assert not phone.fs.exists("/dev/null") or phone.fs.read_bytes("/dev/null") == b""


def test_redirection_errors_use_mksh_messages(phone):
    result = sh(phone, "echo x > /no/such/dir/f")
    assert result.exit_code == 1
    assert result.stderr == b"/system/bin/sh: can't create /no/such/dir/f: No such file or directory\n"
    assert sh(phone, "cat < /nope").stderr == b"/system/bin/sh: can't open /nope: No such file or directory\n"


def test_unknown_command_exits_127(phone):
    result = sh(phone, "reboot now")
    assert result.exit_code == 127
    assert result.stderr == b"/system/bin/sh: reboot: inaccessible or not found\n"
    assert sh(phone, "/system/bin/echo hi").stdout == b"hi\n"
    assert sh(phone, "/data/local/tmp/echo hi").exit_code == 127


def test_which_type_and_command_v_say_where_a_command_is(phone):
    """A device command by its place in ``/system/bin`` (named bare or by path), a builtin by name; a name that is
    neither makes the status 1 (``type`` says so)."""
    def said(command: str) -> tuple[str, int]:
        result = sh(phone, command)
        return result.stdout.decode(), result.exit_code

    assert said("which ls /system/bin/cat reboot") == ("/system/bin/ls\n/system/bin/cat\n", 1)
    assert said("type cd ls reboot") == ("cd is a shell builtin\nls is /system/bin/ls\nreboot not found\n", 1)
    assert said("command -v cd /system/bin/ls reboot") == ("cd\n/system/bin/ls\n", 1)
    assert said("command -V type sh") == ("type\n/system/bin/sh\n", 0)


@pytest.mark.parametrize("command, message", [
    ("echo 'abc", "/system/bin/sh: no closing quote\n"),
    ('echo "abc', "/system/bin/sh: no closing quote\n"),
    ("echo $(date", "/system/bin/sh: no closing quote\n"),
    ("echo a;;", "/system/bin/sh: syntax error: unexpected ';;'\n"),
    ("echo a |", "/system/bin/sh: syntax error: unexpected EOF\n"),
    ("if true; then echo", "/system/bin/sh: syntax error: unmatched 'if'\n"),
    ("fi", "/system/bin/sh: syntax error: unexpected 'fi'\n"),
])
def test_syntax_errors_exit_1_with_nothing_run(phone, command, message):
    result = sh(phone, "touch /sdcard/ran; " + command)
    assert (result.stdout, result.stderr, result.exit_code) == (b"", message.encode(), 1)
    assert not phone.fs.exists("/sdcard/ran")


@pytest.mark.parametrize("command", ["", "   ", "\n\n", "${", "$((1/0))", "${x!}", "echo $((", "((((", "<<", "<",
                                     "echo \x00", "`", "\\", "a=", "eval 'eval \"eval\"'", "exit 300",
                                     "sh -c 'sh -c \"exit 3\"'", "$(" * 50 + ")" * 50])
def test_run_never_raises(phone, command):
    result = sh(phone, command)
    assert isinstance(result, ShellOutput)
    assert 0 <= result.exit_code <= 255


def test_runaway_loops_end(phone):
    start = time.monotonic()
    result = sh(phone, "while true; do :; done")
    assert result.exit_code == 1 and b"too many commands" in result.stderr
    assert time.monotonic() - start < 10


MIB16 = "x=a; for i in $(seq 24); do x=$x$x; done; "  # x holds 16 MiB


@pytest.mark.parametrize(("command", "size"), [
    ("x=a; while true; do x=$x$x; done; echo not reached", 2 * MAX_BYTES),  # a variable
    ('x=a; while true; do x="$x$x"; done', 2 * MAX_BYTES),
    (MIB16 + "echo \"$x$x$x\"", 3 * 2**24),  # a word
    (MIB16 + "cat <<EOF\n$x$x$x\nEOF", 3 * 2**24 + 1),  # a here-document
    ("while true; do printf '%16777215s\\n' x; done", 3 * 2**24),  # output of many commands
    ("while true; do printf '%16777215s\\n' >> /data/local/tmp/f; done", 3 * 2**24),  # a file a redirection grows
    ("printf '%999999999s' x | wc -c", 999_999_999),  # one command's output
    ("printf '%30000000s' a b | wc -c", 60_000_000),
])
def test_values_are_bounded_as_a_device_bounds_memory(phone, command, size):
    """No value of the shell outgrows ``MAX_BYTES``: the script ends with mksh's allocation failure, status 1, and
    what ``Phone.run`` returns stays within the bound."""
    result = sh(phone, command)
    assert (result.exit_code, result.stderr) == (1, f"internal error: can't allocate {size} data bytes\n".encode())
    assert len(result.stdout) <= MAX_BYTES
    assert not phone.fs.exists("/data/local/tmp/f") or len(phone.fs.read_bytes("/data/local/tmp/f")) == MAX_BYTES
    assert out(phone, "echo still here") == "still here\n"


def test_sqlite_values_are_bounded(phone):
    result = sh(phone, "sqlite3 :memory: 'SELECT length(hex(zeroblob(100000000)))'")
    assert (result.exit_code, result.stderr) == (1, b"Error: string or blob too big\n")


def test_exit_and_status(phone):
    assert sh(phone, "echo a; exit 3; echo b") == ShellOutput(b"a\n", b"", 3)
    assert sh(phone, "sh -c 'exit 4'; echo $?").stdout == b"4\n"
    assert sh(phone, "(exit 5); echo $?").stdout == b"5\n"


# ----- the sandbox ---------------------------------------------------------------------------------------------
def test_injection_text_is_printed_verbatim_and_runs_nothing(phone):
    sh(phone, "touch /sdcard/Download/keep.txt")
    payload = "'; rm -rf /sdcard; \"$(reboot)\""
    quoted = "'" + payload.replace("'", "'\\''") + "'"
    result = sh(phone, f"echo {quoted}")
    assert result == ShellOutput((payload + "\n").encode(), b"", 0)
    assert phone.fs.exists("/sdcard/Download/keep.txt")


def test_command_substitution_runs_only_simulated_commands(phone):
    result = sh(phone, 'echo "$(reboot)x"')
    assert result.stdout == b"x\n"
    assert result.stderr == b"/system/bin/sh: reboot: inaccessible or not found\n"
    assert out(phone, "echo $(uname -s)") == "Linux\n"


def test_paths_cannot_leave_the_sandbox(phone, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret")
    root = phone.fs.root
    relative = "/" + "../" * 20 + str(secret).lstrip("/")
    result = sh(phone, f"cat {relative}")
    assert result.exit_code == 1 and b"host secret" not in result.stdout
    assert sh(phone, "cat /../../etc/passwd").stderr == b"cat: /../../etc/passwd: No such file or directory\n"
    assert out(phone, "cd /../../..; pwd; ls") == "/\n" + "".join(f"{n}\n" for n in sorted(p.name for p in
                                                                                          root.iterdir()))
    sh(phone, f"echo pwned > {relative}")
    assert secret.read_text() == "host secret"
    result = sh(phone, f"sqlite3 /data/local/tmp/x.db \"ATTACH '{secret}' AS s\"")
    assert result.exit_code == 1 and result.stderr == b"Error: not authorized\n"


# ----- files ---------------------------------------------------------------------------------------------------
def test_ls_formats(phone):
    assert "Download\n" in out(phone, "ls /sdcard")
    listing = out(phone, "ls -l /sdcard")
    assert listing.startswith("total ")
    assert re.search(r"^drwx[-rwxs]{6} +\d+ root +sdcard_rw +4096 \d{4}-\d\d-\d\d \d\d:\d\d Download$", listing,
                     re.M)
    sh(phone, "echo hello > /sdcard/a.txt")
    assert re.fullmatch(r"-rw[-rwx]{7} 1 root sdcard_rw 6 2023-10-15 15:34 /sdcard/a.txt\n",
                        out(phone, "ls -l /sdcard/a.txt"))
    result = sh(phone, "ls /x")
    assert (result.stdout, result.stderr, result.exit_code) == (b"", b"ls: /x: No such file or directory\n", 1)
    assert out(phone, "ls -a /data/local/tmp") == ".\n..\n"
    assert out(phone, "ls -d /sdcard/DCIM /sdcard/a.txt") == "/sdcard/DCIM\n/sdcard/a.txt\n"
    sh(phone, "mkdir -p /sdcard/DCIM/Camera && touch /sdcard/DCIM/Camera/p.jpg")
    assert out(phone, "ls -R /sdcard/DCIM") == "/sdcard/DCIM:\nCamera\n\n/sdcard/DCIM/Camera:\np.jpg\n"
    assert out(phone, "ls /sdcard/a.txt /sdcard/DCIM") == "/sdcard/a.txt\n\n/sdcard/DCIM:\nCamera\n"


def test_ls_full_time_as_androidworld_lists_files(phone):
    """``ls DIR -ll -au`` (AndroidWorld's ``get_file_list_with_metadata``): nanosecond times with the zone."""
    sh(phone, "mkdir -p /sdcard/Documents/Markor && echo hi > /sdcard/Documents/Markor/a.md")
    listing = out(phone, "ls /sdcard/Documents/Markor -ll -au")
    assert "-rw-r--r-- 1 root sdcard_rw    3 2023-10-15 15:34:00.000000000 +0000 a.md\n" in listing
    assert out(phone, "ls -l -l /sdcard/Documents/Markor").endswith("2023-10-15 15:34:00.000000000 +0000 a.md\n")


def test_new_entries_give_their_directory_device_time(phone):
    """``mkdir`` (with or without ``-p``), a redirect that creates a file, ``mv`` and ``cp`` change the directories
    whose entries they change: they show device time, never the host's clock."""
    phone.clock.advance(86_400_000)  # a day later than every boot directory
    sh(phone, "mkdir -p /sdcard/Documents/a/b && mkdir /sdcard/Music/c && echo x > /sdcard/Movies/m.txt")
    sh(phone, "echo y > /data/local/tmp/y")
    phone.clock.advance(86_400_000)
    sh(phone, "mv /sdcard/Movies/m.txt /sdcard/Alarms/ && cp -p /data/local/tmp/y /sdcard/Ringtones/y")
    for directory in ("/sdcard/Movies", "/sdcard/Alarms", "/sdcard/Ringtones"):
        assert out(phone, f"ls -ld {directory}").split()[5] == "2023-10-17", directory
    for directory in ("/sdcard/Documents", "/sdcard/Documents/a", "/sdcard/Music"):
        assert out(phone, f"ls -ld {directory}").split()[5] == "2023-10-16", directory


def test_cat_rm_mkdir(phone):
    sh(phone, "echo data > /sdcard/f.txt")
    assert out(phone, "cat /sdcard/f.txt - /sdcard/f.txt") == "data\ndata\n"
    assert sh(phone, "cat /sdcard").stderr == b"cat: /sdcard: Is a directory\n"
    assert sh(phone, "mkdir /sdcard/a/b").stderr == b"mkdir: '/sdcard/a/b': No such file or directory\n"
    assert sh(phone, "mkdir -p /sdcard/a/b && mkdir /sdcard/a").stderr == b"mkdir: '/sdcard/a': File exists\n"
    assert phone.fs.is_dir("/sdcard/a/b")
    assert sh(phone, "rm /sdcard/a").stderr == b"rm: /sdcard/a: Is a directory\n"
    assert sh(phone, "rm /sdcard/nope").stderr == b"rm: /sdcard/nope: No such file or directory\n"
    assert sh(phone, "rm -f /sdcard/nope").exit_code == 0
    assert sh(phone, "rm -rf /sdcard/a /sdcard/f.txt").exit_code == 0
    assert not phone.fs.exists("/sdcard/a") and not phone.fs.exists("/sdcard/f.txt")
    assert sh(phone, "rm -rf /").stderr == b"rm: rm /. if you mean it\n"
    assert phone.fs.is_dir("/sdcard/Download")


def test_cp_mv(phone):
    sh(phone, "echo x > /sdcard/Download/src.txt")
    assert sh(phone, "cp /sdcard/Download/src.txt /sdcard/Documents/").exit_code == 0
    assert phone.fs.read_bytes("/sdcard/Documents/src.txt") == b"x\n"
    assert sh(phone, "cp /sdcard/Download /sdcard/D2").stderr == b"cp: Skipped dir '/sdcard/Download'\n"
    assert sh(phone, "cp -r /sdcard/Download /sdcard/D2").exit_code == 0
    assert phone.fs.read_bytes("/sdcard/D2/src.txt") == b"x\n"
    assert sh(phone, "mv /sdcard/D2/src.txt /sdcard/moved.txt").exit_code == 0
    assert not phone.fs.exists("/sdcard/D2/src.txt") and phone.fs.exists("/sdcard/moved.txt")
    assert sh(phone, "cp /nope /sdcard/").stderr == b"cp: bad '/nope': No such file or directory\n"
    assert sh(phone, "mv /nope /sdcard/").stderr == b"mv: bad '/nope': No such file or directory\n"


def test_find(phone):
    sh(phone, "mkdir -p /sdcard/DCIM/Camera; touch /sdcard/DCIM/Camera/a.jpg /sdcard/DCIM/Camera/b.png "
              "/sdcard/DCIM/c.jpg")
    assert out(phone, "find /sdcard/DCIM -name '*.jpg'") == "/sdcard/DCIM/Camera/a.jpg\n/sdcard/DCIM/c.jpg\n"
    assert out(phone, "find /sdcard/DCIM -type d") == "/sdcard/DCIM\n/sdcard/DCIM/Camera\n"
    assert out(phone, "find /sdcard/DCIM -maxdepth 1 -type f") == "/sdcard/DCIM/c.jpg\n"
    assert out(phone, "find /sdcard/DCIM -name '*.png' -o -name 'c*'") == \
        "/sdcard/DCIM/Camera/b.png\n/sdcard/DCIM/c.jpg\n"
    assert out(phone, "find /sdcard/DCIM -type f -mmin -1") != ""
    assert sh(phone, "find /sdcard/DCIM -name '*.jpg' -delete").exit_code == 0
    assert out(phone, "find /sdcard/DCIM -type f") == "/sdcard/DCIM/Camera/b.png\n"
    result = sh(phone, "find /nope")
    assert (result.stderr, result.exit_code) == (b"find: '/nope': No such file or directory\n", 1)
    assert out(phone, "find /sdcard/DCIM -name b.png -exec cat {} \\;") == ""


@pytest.mark.parametrize(("expression", "found"), [
    ("-mindepth 1 -maxdepth 1 -type d", "e sub"), ("-type d,f -name '*.txt'", "a.txt sub/c.txt sub/deep/d.txt"),
    ("! -type d", "a.txt b.png sub/c.txt sub/deep/d.txt"),
    ("-mindepth 2 -type f -o -name a.txt", "sub/c.txt sub/deep/d.txt"),
    ("-maxdepth 0 -true", "."), ("-type f -a -false -o -type l", ""), ("-true -type f -maxdepth 1", "a.txt b.png"),
    ("-not -name '*.txt' -type f", "b.png"), ("\\( -type d -o -name b.png \\) -print", ". b.png e sub sub/deep"),
    ("-type ,", ""), ("-depth -type d", "e sub/deep sub ."), ("-type f,d,l -mindepth 3", "sub/deep/d.txt")])
def test_find_expressions(phone, expression, found):
    """Operators, precedence, ``-type`` lists and the depth options over a small tree (paths relative to it)."""
    sh(phone, "mkdir -p /sdcard/T/sub/deep /sdcard/T/e && cd /sdcard/T && echo a > a.txt && echo b > b.png && "
              "echo c > sub/c.txt && echo d > sub/deep/d.txt")
    lines = out(phone, f"find /sdcard/T {expression}").splitlines()
    assert [line.removeprefix("/sdcard/T/") if line != "/sdcard/T" else "." for line in lines] == found.split()


def test_find_tells_a_bad_type_as_it_tests(phone):
    result = sh(phone, "find /sdcard/Music -type q")
    assert (result.stdout, result.stderr, result.exit_code) == (b"", b"find: bad -type 'q'\n", 1)
    assert sh(phone, "find /nope -type q").stderr == b"find: '/nope': No such file or directory\n"


def test_find_delete_leaves_device_time_on_the_folders_it_emptied(phone):
    """A folder ``-delete`` removed entries from shows device time afterwards, and to a command ``-exec`` runs in
    the walk; a folder it left alone keeps its time."""
    sh(phone, "mkdir -p /sdcard/T/a /sdcard/T/c /sdcard/T/d && touch /sdcard/T/a/x /sdcard/T/a/y /sdcard/T/b "
              "/sdcard/T/d/z && touch -d 2023-01-01T00:00:00 /sdcard/T/a /sdcard/T/c /sdcard/T/d /sdcard/T")
    phone.clock.advance(3_600_000)
    now = phone.clock.now_ms() // 1000
    assert out(phone, "find /sdcard/T -name x -delete -o -name y -delete -o -name b -exec stat -c %Y /sdcard/T/a "
                      "\\;") == f"{now}\n"
    assert out(phone, "find /sdcard/T/d -type f -delete -exec stat -c %Y /sdcard/T/d +") == f"{now}\n"
    assert out(phone, "stat -c '%n %Y' /sdcard/T/a /sdcard/T/c /sdcard/T/d /sdcard/T") == (
        f"/sdcard/T/a {now}\n/sdcard/T/c 1672531200\n/sdcard/T/d {now}\n/sdcard/T 1672531200\n")


def test_stat_touch_chmod(phone):
    sh(phone, "echo 12345 > /sdcard/s.txt")
    assert out(phone, "stat -c '%n %s %F %U %G %y %Y' /sdcard/s.txt") == \
        "/sdcard/s.txt 6 regular file root sdcard_rw 2023-10-15 15:34:00.000000000 +0000 1697384040\n"
    assert sh(phone, "touch -t 202001020304.05 /sdcard/s.txt").exit_code == 0
    assert out(phone, "stat -c %y /sdcard/s.txt") == "2020-01-02 03:04:05.000000000 +0000\n"
    assert sh(phone, "chmod 751 /sdcard/s.txt && chmod o+w /sdcard/s.txt").exit_code == 0
    assert out(phone, "stat -c %a /sdcard/s.txt") == "753\n"
    assert sh(phone, "chmod 600 /nope").stderr == b"chmod: /nope: No such file or directory\n"
    assert sh(phone, "chown system:system /sdcard/s.txt && restorecon -R /sdcard").exit_code == 0
    default = out(phone, "stat /sdcard/s.txt")
    assert default.startswith("  File: /sdcard/s.txt\n  Size: 6\t") and "Access: (0753/-rwxr-x-wx)" in default


# ----- sqlite3 --------------------------------------------------------------------------------------------------
def test_sqlite3_round_trip(phone):
    db = "/data/data/com.simplemobiletools.smsmessenger/databases/t.db"
    sh(phone, f"mkdir -p {db.rsplit('/', 1)[0]}")
    result = sh(phone, f"sqlite3 {db} \"CREATE TABLE t(a INTEGER, b TEXT, c REAL); "
                       "INSERT INTO t VALUES (1, 'x|y', NULL); INSERT INTO t VALUES (2, NULL, 2.0); "
                       "SELECT * FROM t ORDER BY a;\"")
    assert result == ShellOutput(b"1|x|y|\n2||2.0\n", b"", 0)
    assert out(phone, f"sqlite3 -header -separator , {db} 'SELECT a, c FROM t WHERE a = 2'") == "a,c\n2,2.0\n"
    assert out(phone, f"sqlite3 {db} .tables") == "t\n"
    result = sh(phone, f"sqlite3 {db} 'SELECT * FROM nope'")
    assert (result.stdout, result.stderr, result.exit_code) == (b"", b"Error: no such table: nope\n", 1)
    result = sh(phone, f"sqlite3 {db}", stdin=b"SELECT count(*) FROM t;\nSELEC 1;\nSELECT 7;\n")
    assert result.stdout == b"2\n7\n"
    assert result.stderr == b'Error: near line 2: near "SELEC": syntax error\n' and result.exit_code == 1
    import sqlite3
    with sqlite3.connect(phone.fs.host_path(db)) as con:
        assert con.execute("SELECT b FROM t WHERE a = 1").fetchone() == ("x|y",)


def test_sqlite3_reads_the_telephony_database(phone):
    phone.telephony.deliver_sms("+15551234567", "hello, there")
    assert out(phone, f"sqlite3 {phone.telephony.db_path} 'SELECT address, body, type FROM sms'") == \
        "+15551234567|hello, there|1\n"


# ----- settings, properties, time -----------------------------------------------------------------------------
def test_settings(phone):
    assert out(phone, "settings get global wifi_on") == "1\n"
    assert out(phone, "settings get system no_such_key") == "null\n"
    assert sh(phone, "settings put system screen_brightness 200") == ShellOutput(b"", b"", 0)
    assert phone.settings.get("system", "screen_brightness") == "200"
    assert out(phone, "settings --user 0 get system screen_brightness") == "200\n"
    assert "screen_brightness=200\n" in out(phone, "settings list system")
    assert out(phone, "settings delete system screen_brightness; settings delete system screen_brightness") == \
        "Deleted 1 rows\nDeleted 0 rows\n"
    result = sh(phone, "settings get nowhere x")
    assert (result.stderr, result.exit_code) == (b"Invalid namespace 'nowhere'\n", 255)


def test_svc_toggles_radios_as_settings(phone):
    assert sh(phone, "svc wifi disable").exit_code == 0
    assert phone.settings.get("global", "wifi_on") == "0"
    sh(phone, "svc bluetooth disable; svc wifi enable")
    assert (phone.settings.get("global", "bluetooth_on"), phone.settings.get("global", "wifi_on")) == ("0", "1")
    sh(phone, "svc bluetooth enable")
    assert phone.settings.get("global", "bluetooth_on") == "1"
    assert sh(phone, "svc wifi sideways").exit_code == 1


def test_getprop_setprop(phone):
    assert out(phone, "getprop ro.build.version.sdk") == "33\n"
    assert out(phone, "getprop no.such.prop fallback") == "fallback\n"
    assert "[ro.product.model]: [sdk_gphone64_x86_64]\n" in out(phone, "getprop")
    assert sh(phone, "setprop debug.x 1 && getprop debug.x").stdout == b"1\n"
    assert sh(phone, "setprop ro.build.version.sdk 99").exit_code == 1


def test_date_prints_and_sets_the_virtual_clock(phone):
    assert out(phone, "date") == "Sun Oct 15 15:34:00 UTC 2023\n"
    assert out(phone, "date +%s") == "1697384040\n"
    assert out(phone, "date '+%Y-%m-%d %H:%M:%S'") == "2023-10-15 15:34:00\n"
    assert out(phone, "date 010203042024.05") == "Tue Jan  2 03:04:05 UTC 2024\n"
    assert phone.clock.now_ms() == 1704164645000
    assert sh(phone, "date 99999999").exit_code == 1


def test_sleep_advances_device_time_not_host_time(phone):
    before = phone.clock.now_ms()
    start = time.monotonic()
    assert sh(phone, "sleep 30; sleep 1.5").exit_code == 0
    assert phone.clock.now_ms() - before == 31500
    assert time.monotonic() - start < 1


def test_identity(phone):
    assert out(phone, "id").startswith("uid=0(root) gid=0(root) groups=0(root),")
    assert out(phone, "whoami") == "root\n"


# ----- activities and packages ---------------------------------------------------------------------------------
def test_am_start_and_force_stop(phone):
    result = sh(phone, f"am start -n {SMS}/.activities.MainActivity")
    assert result == ShellOutput(f"Starting: Intent {{ cmp={SMS}/.activities.MainActivity }}\n".encode(), b"", 0)
    assert phone.activities.foreground() == (SMS, SMS_MAIN)
    assert sh(phone, f"am force-stop {SMS}").exit_code == 0
    assert phone.activities.foreground()[0] == LAUNCHER


def test_am_start_formats(phone):
    result = sh(phone, "am start -n com.nope/.Main")
    assert result.stdout == b"Starting: Intent { cmp=com.nope/.Main }\n"
    assert result.stderr == b"Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n"
    result = sh(phone, f"am start -W -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                       f"-n {SMS}/{SMS_MAIN}")
    lines = result.stdout.decode().splitlines()
    assert lines[0] == ("Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] "
                        f"cmp={SMS}/.activities.MainActivity }}")
    assert lines[1:4] == ["Status: ok", "LaunchState: COLD", f"Activity: {SMS}/.activities.MainActivity"]
    assert re.fullmatch(r"TotalTime: \d+", lines[4]) and re.fullmatch(r"WaitTime: \d+", lines[5])
    assert lines[6] == "Complete"
    sh(phone, "input keyevent HOME")
    result = sh(phone, f"am start -n {SMS}/.activities.MainActivity")
    assert result.stderr == b"Warning: Activity not started, its current task has been brought to the front\n"
    assert phone.activities.foreground() == (SMS, SMS_MAIN)
    assert sh(phone, "am start -a android.intent.action.VIEW -d tel:123").stdout == \
        b"Starting: Intent { act=android.intent.action.VIEW dat=tel:xxx }\n"
    result = sh(phone, "am start --bogus")
    assert result.exit_code == 255 and b"Unknown option: --bogus" in result.stderr


def test_am_broadcast(phone):
    assert out(phone, "am broadcast -a com.example.PING --es k v") == (
        "Broadcasting: Intent { act=com.example.PING flg=0x400000 (has extras) }\n"
        "Broadcast completed: result=0\n")


def test_monkey_launches_the_launcher_activity(phone):
    result = sh(phone, f"monkey -p {SMS} -c android.intent.category.LAUNCHER 1")
    assert result.exit_code == 0
    assert result.stdout.decode().startswith("  bash arg: -p\n")
    assert "Events injected: 1\n" in result.stdout.decode()
    assert phone.activities.foreground() == (SMS, SMS_MAIN)
    result = sh(phone, "monkey -p com.nope 1")
    assert result.exit_code == 252
    assert "** No activities found to run, monkey aborted.\n" in result.stdout.decode()


def test_pm(phone):
    packages = out(phone, "pm list packages").splitlines()
    assert f"package:{SMS}" in packages and f"package:{LAUNCHER}" in packages
    third_party = out(phone, "pm list packages -3").splitlines()
    assert {f"package:{SMS}", "package:ca.zgrs.clipper"} <= set(third_party)
    assert f"package:{LAUNCHER}" not in third_party
    assert out(phone, "pm list packages sms") == f"package:{SMS}\n"
    assert f"package:{SMS}" not in out(phone, "pm list packages -s")
    assert re.fullmatch(rf"package:/data/app/~~[\w-]+==/{SMS}-[\w-]+==/base\.apk\n", out(phone, f"pm path {SMS}"))
    assert sh(phone, "pm path com.nope") == ShellOutput(b"", b"", 1)
    sh(phone, f"mkdir -p /data/data/{SMS}/files && echo x > /data/data/{SMS}/files/f; monkey -p {SMS} 1")
    sh(phone, f"mkdir -p /sdcard/Android/data/{SMS}/files && echo x > /sdcard/Android/data/{SMS}/files/g")
    assert sh(phone, f"pm clear {SMS}").stdout == b"Success\n"
    assert not phone.fs.exists(f"/data/data/{SMS}/files/f")
    assert not phone.fs.exists(f"/sdcard/Android/data/{SMS}")  # its shared-storage folder goes too
    assert phone.activities.foreground()[0] == LAUNCHER
    assert sh(phone, "pm clear com.nope") == ShellOutput(b"", b"Failed\n", 1)


# ----- dumpsys, wm --------------------------------------------------------------------------------------------
def test_dumpsys_lines_match_what_tools_parse(phone):
    sh(phone, f"monkey -p {SMS} 1")
    windows = out(phone, "dumpsys window windows")
    focus = FOCUS_RE.search(windows)
    assert focus and (focus["package"], focus["activity"]) == (SMS, SMS_MAIN)
    assert re.search(r"^  mFocusedApp=ActivityRecord\{[0-9a-f]+ u0 " + re.escape(SMS) +
                     r"/\.activities\.MainActivity t\d+\}$", windows, re.M)
    activities = out(phone, "dumpsys activity activities")
    resumed = RESUMED_RE.search(activities)
    assert resumed and resumed["package"] == SMS
    assert re.search(r"topResumedActivity=ActivityRecord\{[0-9a-f]+ u0 \S+/\.activities\.MainActivity t\d+\}",
                     activities)
    assert re.search(r"^  ResumedActivity: ActivityRecord\{", activities, re.M)
    top = TOP_RE.search(out(phone, "dumpsys activity top"))
    assert top and (top["package"], top["activity"]) == (SMS, ".activities.MainActivity")
    assert out(phone, "dumpsys window windows") == windows  # ids are stable
    sh(phone, "input keyevent KEYCODE_HOME")
    assert FOCUS_RE.search(out(phone, "dumpsys window"))["package"] == LAUNCHER
    assert re.search(r"versionName=\S+", out(phone, f"dumpsys package {SMS}"))
    assert re.search(r"orientation=0", out(phone, "dumpsys display"))


def test_wm(phone):
    assert out(phone, "wm size") == "Physical size: 1080x2400\n"
    assert out(phone, "wm density") == "Physical density: 420\n"


# ----- input, screen -------------------------------------------------------------------------------------------
def _edit_text(phone: Phone) -> etree._Element:
    root = etree.fromstring(phone.ui_dump().encode())
    return next(node for node in root.iter("node") if node.get("class") == "android.widget.EditText")


def _center(node: etree._Element) -> tuple[int, int]:
    x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds")))
    return (x1 + x2) // 2, (y1 + y2) // 2


def test_input_tap_text_and_keys(phone):
    sh(phone, f"monkey -p {SMS} 1")
    x, y = _center(_edit_text(phone))
    before = phone.clock.now_ms()
    assert sh(phone, f"input tap {x} {y}").exit_code == 0
    assert phone.clock.now_ms() > before
    assert _edit_text(phone).get("focused") == "true"
    sh(phone, "input text 'hello%sworld'")
    assert _edit_text(phone).get("text") == "hello world"
    sh(phone, "input keyevent 67")
    assert _edit_text(phone).get("text") == "hello worl"
    sh(phone, "input keycombination 113 29; input text X")
    assert _edit_text(phone).get("text") == "X"
    sh(phone, "input keyevent KEYCODE_HOME")
    assert phone.activities.foreground()[0] == LAUNCHER


def test_input_text_types_only_what_the_virtual_keyboard_has(phone):
    # AOSP Virtual.kcm: printable ASCII, "\n", "\t", ç Ç ß, and dead keys for five combining accents.
    sh(phone, f"monkey -p {SMS} 1")
    sh(phone, "input tap {} {}".format(*_center(_edit_text(phone))))
    hint = _edit_text(phone).get("text")
    for text in ("héllo", "ok😀", "\u00e9"):
        result = sh(phone, f"input text '{text}'")
        assert (result.exit_code, result.stderr) == (255, b"\nException occurred while executing 'text':\n"
                                                          b"java.lang.NullPointerException: Attempt to get length "
                                                          b"of null array\n")
        assert _edit_text(phone).get("text") == hint  # getEvents fails before any key is sent
    assert b"executing 'keyboard'" in sh(phone, "input keyboard text 'é'").stderr  # mCmd: the first argument
    assert sh(phone, "input text 'Ça%sß'").exit_code == 0
    assert _edit_text(phone).get("text") == "Ça ß"
    sh(phone, "input keycombination 113 29")
    # A dead key shows its accent, then composes with the next key (KeyCharacterMap.getDeadChar: NFC, or the
    # accent itself before a space or a second press of it); what does not compose stays as typed.
    assert sh(phone, "input text '\u0301e\u0302o\u0308\u0308\u0301%sx\u0300z\u0303'").exit_code == 0
    assert _edit_text(phone).get("text") == "éô\u00a8\u00b4x\u02cbz\u02dc"


def test_input_errors(phone):
    result = sh(phone, "input tap 100")
    assert result.exit_code == 255
    assert result.stderr == (b"\nException occurred while executing 'tap':\n"
                             b"java.lang.IllegalArgumentException: Argument expected after \"100\"\n")
    assert b"Invalid arguments for command: swipe" in sh(phone, "input swipe a b c d").stderr
    assert sh(phone, "input touchscreen swipe 500 1500 500 500 200").exit_code == 0


def test_screencap_png_has_the_screen_size(phone):
    result = sh(phone, "screencap -p")
    assert result.exit_code == 0 and result.stdout.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(result.stdout))
    assert image.size == (1080, 2400)
    assert (image.convert("RGB").tobytes() == Image.fromarray(phone.screenshot()).tobytes())
    assert sh(phone, "screencap -p /sdcard/shot.png").exit_code == 0
    assert Image.open(phone.fs.host_path("/sdcard/shot.png")).size == (1080, 2400)
    raw = sh(phone, "screencap").stdout
    assert struct.unpack("<4I", raw[:16])[:3] == (1080, 2400, 1) and len(raw) == 16 + 1080 * 2400 * 4


def test_raw_screencap_is_the_header_and_the_screens_rgba_rows(phone):
    """``screencap`` without ``-p`` (AOSP cmds/screencap): width, height, RGBA_8888, sRGB, then opaque RGBA rows;
    to a file, the same bytes."""
    raw = sh(phone, "screencap").stdout
    assert struct.unpack("<4I", raw[:16]) == (1080, 2400, 1, 1)
    pixels = np.frombuffer(raw, np.uint8, offset=16).reshape(2400, 1080, 4)
    assert np.array_equal(pixels[..., :3], phone.screenshot()) and (pixels[..., 3] == 255).all()
    assert sh(phone, "screencap -d 0 /sdcard/shot.raw").exit_code == 0
    assert phone.fs.read_bytes("/sdcard/shot.raw") == raw
    assert sh(phone, "screencap -d").exit_code == 1  # a display id is missing: usage


def test_a_large_output_is_passed_on_in_its_pieces_not_copied(phone):
    """The frame ``screencap`` prints reaches the command line's output as the window made it (adbd sends the
    pieces as they are); small writes around it are gathered, and the output joined reads the same."""
    result = sh(phone, "echo a; screencap; echo b")
    frame = phone.screenshot_rgba()
    assert [len(part) for part in result.stdout_parts] == [2 + 16, len(frame), 2]
    assert result.stdout_parts[1] is frame
    assert result.stdout == b"a\n" + result.stdout_parts[0][2:] + frame + b"b\n"
    piped = sh(phone, "screencap | wc -c")
    assert piped.stdout == f"{16 + len(frame)}\n".encode()


def test_screenshots_and_dumps_printed_to_stdout_leave_the_screen_alone(phone):
    """Read-only command lines do not redraw the screen, nor does saving a screenshot or a dump where no app can
    see it (the shell's /data/local/tmp); saving one into a file an app may list writes."""
    for command in ("screencap", "screencap -p", "screencap -d 0 /dev/stdout", "uiautomator dump /dev/tty",
                    "uiautomator dump /data/local/tmp/window_dump.xml", "screencap -p /data/local/tmp/a.png"):
        assert sh(phone, command).read_only, command
    for command in ("screencap /sdcard/a.raw", "screencap -p /sdcard/a.png", "uiautomator dump",
                    "uiautomator dump /sdcard/window_dump.xml", "uiautomator dump /data/local/tmp/../../a.xml",
                    "uiautomator dump window_dump.xml"):
        assert not sh(phone, command).read_only, command


#: A task's setup as the reset runs it at the home screen: apps stopped and cleared, files, databases, providers,
#: the clock and settings it already holds.
_SETUP = ("am force-stop org.tasks && pm clear com.simplemobiletools.calendar.pro && mkdir -p /sdcard/Notes && "
          "echo hi > /sdcard/Notes/a.txt && cp /sdcard/Notes/a.txt /sdcard/Notes/b.txt && rm /sdcard/Notes/b.txt && "
          "content insert --uri content://sms/inbox --bind address:s:+15550001111 --bind body:s:Hi && "
          "sqlite3 /data/data/com.android.providers.telephony/databases/mmssms.db 'DELETE FROM sms' && "
          "settings put global auto_time 0 && date 101515342023.00")


def test_writes_of_apps_data_keep_the_home_screens_frame(phone):
    """The home screen shows no app's data: a setup writing only that (and what the screen shows, unchanged) keeps
    its frame, which is what a rebuild draws; what ``dumpsys`` reports is made afresh."""
    sh(phone, "settings put global auto_time 0 && date 101515342023.00")
    frame, dump = phone.window.frame(), phone.window.ui_dump()
    activities = sh(phone, "dumpsys activity activities").stdout
    result = sh(phone, _SETUP)
    assert result.exit_code == 0 and result.data_only and not result.read_only
    assert phone.window.frame() is frame
    phone.invalidate()
    assert phone.window.ui_dump() == dump
    sh(phone, "am start -n " + SMS + "/.activities.MainActivity && input keyevent KEYCODE_HOME")
    assert sh(phone, "dumpsys activity activities").stdout != activities  # the SMS app's task is in the report


def test_writes_of_apps_data_redraw_an_apps_screen_and_settings_changes_every_screen(phone):
    """An app's screen may show what a write changed: it is drawn again; so is the home screen when a setting
    changes (the font scale) or the clock's minute turns."""
    sh(phone, f"am start -n {SMS}/.activities.MainActivity")
    frame = phone.window.frame()
    phone.telephony.deliver_sms("+15550001111", "Hi")  # an SMS arrives without the app looking
    sh(phone, "echo hi > /sdcard/a.txt")
    assert phone.window.frame() is not frame
    sh(phone, "input keyevent KEYCODE_HOME")
    for command in ("settings put system font_scale 1.3", "date 101515402023.00", "am start -n " + SMS_MAIN):
        frame = phone.window.frame()
        sh(phone, command)
        assert phone.window.frame() is not frame, command


def test_date_that_prints_reads_only_and_one_that_sets_the_clock_writes(phone):
    for command in ("date", "date +%s", "date -u +%F", "date -d @0 +%s", "date -r /sdcard -I", "date -D %s -d 0"):
        assert sh(phone, command).read_only, command
    now = phone.clock.now_ms()
    for command in ("date 010112002030", "date -s @0", "date -u 0101120030.00 +%s"):
        assert not sh(phone, command).read_only, command
    assert phone.clock.now_ms() != now


def test_uiautomator_dump_writes_parseable_xml(phone):
    result = sh(phone, "uiautomator dump")
    assert result.stdout == b"UI hierchary dumped to: /sdcard/window_dump.xml\n"
    root = etree.fromstring(phone.fs.read_bytes("/sdcard/window_dump.xml"))
    assert root.tag == "hierarchy" and root.find("node").get("package") == LAUNCHER
    result = sh(phone, "rm -f /data/local/tmp/uidump.xml; uiautomator dump /data/local/tmp/uidump.xml && echo success")
    assert result.stdout.decode().endswith("success\n")
    assert phone.fs.read_bytes("/data/local/tmp/uidump.xml").startswith(b"<?xml")
    tty = sh(phone, "uiautomator dump /dev/tty").stdout
    assert tty.startswith(b"<?xml") and tty.endswith(b"UI hierchary dumped to: /dev/tty\n")


# ----- content provider ---------------------------------------------------------------------------------------
def test_content_query(phone):
    assert out(phone, "content query --uri content://settings/global --projection name:value "
                      "--where \"name='wifi_on'\"") == "Row: 0 name=wifi_on, value=1\n"
    assert out(phone, "content query --uri content://sms") == "No result found.\n"
    phone.telephony.deliver_sms("+15550001111", "Hi, see you")
    assert out(phone, "content query --uri content://sms/inbox --projection address:body:person") == \
        "Row: 0 address=+15550001111, body=Hi, see you, person=NULL\n"
    result = sh(phone, "content query --uri content://nope")
    assert result.stderr.startswith(b"Error while accessing provider:nope\n")
    sh(phone, "content insert --uri content://settings/system --bind name:s:my_key --bind value:i:7")
    assert phone.settings.get("system", "my_key") == "7"


def test_file_times_are_device_times(phone):
    """Boot directories, pushed files and shell-written files all carry the virtual clock's time."""
    phone.fs.write_bytes("/sdcard/Download/pushed.txt", b"x")
    assert phone.run("echo y > /sdcard/Download/shell.txt").exit_code == 0
    listing = phone.run("ls -l /sdcard/Download").stdout.decode()
    assert listing.count("2023-10-15 15:34") == 2, listing
    assert "2023-10-15" in phone.run("ls -ld /sdcard/DCIM").stdout.decode()
