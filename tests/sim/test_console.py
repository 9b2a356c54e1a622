"""The emulator console: greeting, auth, ``sms send``, ``avd name``, ``kill``, robustness, the blocking client,
and Debian's ``adb emu`` against it."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import stat
import struct
import subprocess
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from android_gym.device.console import LINE_MAX, send_console_command, send_console_commands, sms_send_command
from android_gym.errors import ConsoleCommandError, ConsoleError
from android_gym.sim.console import EmulatorConsole, load_auth_token
from android_gym.sim.host import PhoneHost
from android_gym.sim.phone import Phone

TOKEN = "s3cr3tToken+/AB="
AUTHED = b"Android Console: type 'help' for a list of commands\r\nOK\r\n"
KO_UNKNOWN = b"KO: unknown command, try 'help'\r\n"


class ConsoleServer:
    """An ``EmulatorConsole`` on a loopback ephemeral port, served by an event loop in a background thread."""

    def __init__(self, console: EmulatorConsole) -> None:
        self.console = console
        self.errors: list[BaseException] = []
        self._handlers: set[asyncio.Task] = set()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._server = self._call(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port: int = self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._handlers.add(asyncio.current_task())
        try:
            await self.console.handle(reader, writer)
        except BaseException as exc:
            self.errors.append(exc)
            raise

    def _call(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=30)

    def close(self) -> None:
        """Stop listening, wait for every connection's handler to return, stop the loop."""
        async def stop() -> None:
            self._server.close()
            await self._server.wait_closed()
            await asyncio.gather(*self._handlers)

        try:
            self._call(stop())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A home directory of the test's own (the real ``~`` is never touched)."""
    path = tmp_path / "home"
    path.mkdir()
    return path



@pytest.fixture
def killed() -> threading.Event:
    """Set by the console's ``on_kill``."""
    return threading.Event()


@pytest.fixture
def serve(phone: Phone, home: Path, killed: threading.Event) -> Iterator[Callable[..., ConsoleServer]]:
    """``serve(token=TOKEN)``: a running console for ``phone``; every server is closed after the test, and a
    handler that raised fails it."""
    servers: list[ConsoleServer] = []

    def make(token: str = TOKEN) -> ConsoleServer:
        server = ConsoleServer(EmulatorConsole(PhoneHost(phone), token, killed.set, home=home))
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()
        assert server.errors == []


def talk(port: int, data: bytes) -> bytes:
    """Send ``data``, half-close, and return everything the console wrote until it closed the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def session(port: int, *lines: str) -> bytes:
    """The console's answers to ``auth`` then ``lines``, after the greeting and the auth reply."""
    out = talk(port, "".join(f"{line}\n" for line in (f"auth {TOKEN}", *lines)).encode())
    head, sep, rest = out.partition(AUTHED)
    assert sep, out
    return rest


def inbox(phone: Phone) -> list[tuple[str, str]]:
    return [(row["address"], row["body"]) for row in phone.telephony.query("content://sms/inbox")]


def greeting(home: Path) -> bytes:
    """The console's greeting when it requires authentication (console.cpp ``control_global_accept``)."""
    return ("Android Console: Authentication required\r\n"
            "Android Console: type 'auth <auth_token>' to authenticate\r\n"
            "Android Console: you can find your <auth_token> in \r\n"
            f"'{home / '.emulator_console_auth_token'}'\r\nOK\r\n").encode()


def write_token(home: Path, text: str) -> None:
    (home / ".emulator_console_auth_token").write_text(text)


# ----- the token file -------------------------------------------------------------------------------------
def test_missing_token_file_is_created_private_with_a_random_token(home):
    token = load_auth_token(home)
    path = home / ".emulator_console_auth_token"
    # console_auth.cpp tokenGenerate: 12 random bytes, base64 → 16 characters, no newline, mode 0600.
    assert path.read_text() == token and len(token) == 16
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_auth_token(home) == token
    other = home.parent / "other"
    other.mkdir()
    assert load_auth_token(other) != token


def test_token_file_is_trimmed_and_blank_disables_auth(home):
    write_token(home, "  abc\n")
    assert load_auth_token(home) == "abc"
    write_token(home, " \n")
    assert load_auth_token(home) == ""


def test_unreadable_token_file_is_a_clear_error(home):
    (home / ".emulator_console_auth_token").mkdir()
    with pytest.raises(ConsoleError, match="unable to read .*emulator_console_auth_token"):
        load_auth_token(home)


# ----- greeting and auth ----------------------------------------------------------------------------------
def test_greeting_names_the_token_file(serve, home):
    server = serve()
    assert talk(server.port, b"") == greeting(home)


def test_auth_unlocks_the_commands(serve):
    server = serve()
    assert session(server.port, "ping") == b"I am alive!\r\nOK\r\n"


def test_wrong_or_missing_token_is_refused_and_commands_stay_locked(serve, phone, home):
    server = serve()
    out = talk(server.port, b"auth nope\nauth\nsms send 5551234 hi\nkill\n")
    assert out == greeting(home) + (b"KO: authentication token does not match ~/.emulator_console_auth_token\r\n"
                              b"KO: missing authentication token\r\n" + KO_UNKNOWN + KO_UNKNOWN)
    assert inbox(phone) == []


def test_before_auth_only_the_preauth_commands_answer(serve, home):
    # main_commands_preauth: help, help-verbose, ping, avd (name only), auth, quit.
    server = serve()
    out = talk(server.port, b"help\r\navd name\r\nping\r\n")
    assert out == greeting(home) + (b"Android console commands:\r\n    help|h|?\r\n    help-verbose\r\n    ping\r\n"
                              b"    avd\r\n    auth\r\n    quit|exit\r\n\r\nTry 'help-verbose' for more description"
                              b"\r\nTry 'help <command>' for command-specific help\r\nOK\r\n"
                              b"android_gym_sim\r\nOK\r\nI am alive!\r\nOK\r\n")


def test_blank_token_disables_auth(serve):
    server = serve(token="")
    assert talk(server.port, b"avd name\nauth x\n") == AUTHED + b"android_gym_sim\r\nOK\r\n" + KO_UNKNOWN


# ----- commands -------------------------------------------------------------------------------------------
def test_sms_send_delivers_to_the_inbox_keeping_inner_spaces(serve, phone):
    server = serve()
    assert session(server.port, "sms send +15551234 hello   world ") == b"OK\r\n"
    assert inbox(phone) == [("+15551234", "hello   world ")]
    row = phone.telephony.query("content://sms/inbox")[0]
    assert (row["read"], row["type"]) == (0, 1)


def test_sms_send_decodes_the_console_escapes(serve, phone):
    # sms_utf8_from_message_str: \\ \n \xNN \uNNNN.
    server = serve()
    assert session(server.port, r"sms send 5551234 a\nb\x41\u00e9\\ \u20ac") == b"OK\r\n"
    assert inbox(phone) == [("5551234", "a\nbA\u00e9\\ \u20ac")]


SMS_SUBCOMMANDS = (b"allows you to simulate an inbound SMS\r\n\r\navailable sub-commands:\r\n"
                   b"    send             send inbound SMS text message\r\n\r\n")
SMS_ERRORS = {
    "sms send": b"KO: missing argument, try 'sms send <phonenumber> <text message>'\r\n",
    "sms send 5551234": b"KO: missing argument, try 'sms send <phonenumber> <text message>'\r\n",
    "sms send 555-1234 hi": b"KO: bad phone number format, must be [+](0-9)*\r\n",
    "sms send + hi": b"KO: bad phone number format, must be [+](0-9)*\r\n",
    "sms send " + "1" * 33 + " hi": b"KO: bad phone number format, must be [+](0-9)*\r\n",
    "sms": SMS_SUBCOMMANDS + b"KO: missing sub-command\r\n",
    "sms pdu 00": SMS_SUBCOMMANDS + b"KO:  bad sub-command\r\n",
}


@pytest.mark.parametrize("line", list(SMS_ERRORS))
def test_sms_send_errors_deliver_nothing(serve, phone, line):
    server = serve()
    assert session(server.port, line) == SMS_ERRORS[line]
    assert inbox(phone) == []


@pytest.mark.parametrize("text", [r"bad\q", "trailing\\", r"\x4", r"\uD800"])
def test_badly_escaped_sms_text_is_refused(serve, phone, text):
    server = serve()
    out = session(server.port, f"sms send 5551234 {text}")
    assert out.startswith(b"message must be utf8 and can use the following escapes:\r\n")
    assert out.endswith(b"KO: badly formatted text\r\n")
    assert inbox(phone) == []


def test_avd_name_unknown_and_unsimulated_commands(serve):
    server = serve()
    assert session(server.port, "avd name", "bogus", "", "gsm call 5551234") == (
        b"android_gym_sim\r\nOK\r\n" + KO_UNKNOWN + KO_UNKNOWN
        + b"KO: 'gsm' is not simulated by android_gym's phone\r\n")


def test_help_lists_the_commands_and_describes_one(serve):
    server = serve()
    out = session(server.port, "help", "help sms")
    assert out.startswith(b"Android console commands:\r\n    help|h|?\r\n    help-verbose\r\n    ping\r\n    kill\r\n"
                          b"    quit|exit\r\n    sms\r\n    avd\r\n\r\n")
    assert out.endswith(b"OK\r\nallows you to simulate an inbound SMS\r\n\r\navailable sub-commands:\r\n"
                        b"   sms send             send inbound SMS text message\r\n\r\nOK\r\n")


def test_quit_and_exit_close_the_session(serve):
    server = serve()
    assert session(server.port, "quit") == b""
    assert session(server.port, "exit") == b""


def test_kill_answers_closes_then_calls_on_kill(serve, killed):
    server = serve()
    assert session(server.port, "kill") == b"OK: killing emulator, bye bye\r\nOK\r\n"
    assert killed.wait(timeout=30)


# ----- robustness -----------------------------------------------------------------------------------------
def test_http_and_binary_lines_are_refused_and_end_the_session(serve):
    server = serve()
    greeting_end = b"OK\r\n"
    out = talk(server.port, b"GET / HTTP/1.1\r\n")
    assert out.endswith(greeting_end + b"KO: Forbidden HTTP request. Aborting\r\n")
    out = talk(server.port, b"\xff\xfe\n")
    assert out.endswith(greeting_end + b"KO: Forbidden binary request. Aborting\r\n")


def test_overlong_lines_keep_their_tail_like_the_4096_byte_buffer(serve):
    server = serve()
    # 5000 bytes: the buffer restarts at 4095, leaving 905 "x" (an unknown command); then a line whose tail,
    # after 4095 bytes of padding, is "ping".
    out = session(server.port, "x" * 5000, "y" * LINE_MAX + "ping")
    assert out == KO_UNKNOWN + b"I am alive!\r\nOK\r\n"


def test_clients_hanging_up_mid_line_or_resetting_do_not_break_the_server(serve, phone):
    server = serve()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(f"auth {TOKEN}\nsms send 5551234 hel".encode())
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(f"auth {TOKEN}\nping\n".encode())
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close sends a reset
    assert session(server.port, "ping") == b"I am alive!\r\nOK\r\n"
    assert inbox(phone) == []  # the unfinished line was dropped


# ----- the blocking client --------------------------------------------------------------------------------
def test_client_runs_a_command_and_strips_the_final_ok(serve, home):
    write_token(home, TOKEN + "\n")
    server = serve()
    assert send_console_command(server.port, "avd name", home=home) == "android_gym_sim"
    assert send_console_command(server.port, "help-verbose", home=home).startswith("Android console command help:\n")


def test_client_sms_round_trips_any_text(serve, phone, home):
    write_token(home, TOKEN)
    server = serve()
    text = "line one\nline\ttwo \\ 'quoted' \"$(reboot)\"; é € 😀"
    assert send_console_command(server.port, sms_send_command("+15551234", text), home=home) == ""
    assert inbox(phone) == [("+15551234", text)]


def test_client_runs_several_commands_in_one_session(serve, phone, home):
    write_token(home, TOKEN)
    server = serve()
    texts = [("+15551234", "first"), ("5550000", "second\nline")]
    assert send_console_commands(server.port, [*(sms_send_command(*text) for text in texts), "avd name"],
                                 home=home) == ["", "", "android_gym_sim"]
    assert inbox(phone) == texts


def test_client_stops_a_session_at_the_first_ko(serve, phone, home):
    write_token(home, TOKEN)
    server = serve()
    with pytest.raises(ConsoleError, match="refused 'bogus': KO: unknown command"):
        send_console_commands(server.port, [sms_send_command("+15551234", "sent"), "bogus",
                                            sms_send_command("+15551234", "never sent")], home=home)
    assert inbox(phone) == [("+15551234", "sent")]
    with pytest.raises(ConsoleCommandError):  # every line is checked before the first is sent
        send_console_commands(server.port, [sms_send_command("+15551234", "not sent"), "ping\nping"], home=home)
    assert inbox(phone) == [("+15551234", "sent")]


def test_client_kill(serve, home, killed):
    write_token(home, TOKEN)
    server = serve()
    assert send_console_command(server.port, "kill", home=home) == "OK: killing emulator, bye bye"
    assert killed.wait(timeout=30)


def test_client_without_auth_sends_no_token(serve, home):
    write_token(home, "unused")
    server = serve(token="")
    assert send_console_command(server.port, "ping", home=home) == "I am alive!"


def test_client_reports_ko_replies(serve, home):
    write_token(home, TOKEN)
    server = serve()
    with pytest.raises(ConsoleError, match="refused 'bogus': KO: unknown command"):
        send_console_command(server.port, "bogus", home=home)
    with pytest.raises(ConsoleError, match="KO: badly formatted text"):
        send_console_command(server.port, r"sms send 1 \q", home=home)


def test_client_token_problems(serve, home):
    server = serve()
    token_file = str(home / ".emulator_console_auth_token")
    with pytest.raises(ConsoleError, match="requires authentication but .* is missing or empty"):
        send_console_command(server.port, "ping", home=home)
    write_token(home, "wrong")
    with pytest.raises(ConsoleError, match=f"refused the token in '{token_file}'.*authentication token does not"):
        send_console_command(server.port, "ping", home=home)


def test_client_closed_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ConsoleError, match=f"no emulator console on 127.0.0.1:{port}: is the emulator running?"):
        send_console_command(port, "ping")


def test_client_sends_the_token_only_to_an_emulator_console(home):
    write_token(home, TOKEN)
    received = bytearray()
    with socket.create_server(("127.0.0.1", 0)) as listener:
        def serve_once() -> None:
            conn, _ = listener.accept()
            with conn:
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                while chunk := conn.recv(4096):
                    received.extend(chunk)

        thread = threading.Thread(target=serve_once)
        thread.start()
        with pytest.raises(ConsoleError, match="is not an Android emulator console"):
            send_console_command(listener.getsockname()[1], "ping", home=home)
        thread.join()
    assert TOKEN.encode() not in received


@pytest.mark.parametrize("command", ["ping\nkill", "ping\r", "a\0b", "x" * (LINE_MAX + 1), "\ud800"])
def test_client_refuses_commands_that_are_not_one_line(command):
    with pytest.raises(ConsoleCommandError):
        send_console_command(1, command)


@pytest.mark.parametrize("number", ["", "+", "555 1234", "555-1234", "1" * 33, "5551234\nkill"])
def test_sms_send_command_checks_the_number(number):
    with pytest.raises(ConsoleCommandError, match="bad phone number"):
        sms_send_command(number, "hi")


# ----- Debian's adb ---------------------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("adb") is None, reason="needs Debian's adb (apt install adb)")
def test_adb_emu_sends_sms_and_reads_avd_name(serve, phone, home):
    write_token(home, TOKEN)
    server = serve()
    with socket.socket() as probe:  # a port no adb server listens on: `adb emu` must not need one
        probe.bind(("127.0.0.1", 0))
        unused = probe.getsockname()[1]
    env = {**os.environ, "HOME": str(home)}

    def adb_emu(*words: str) -> bytes:
        result = subprocess.run(["adb", "-P", str(unused), "-s", f"emulator-{server.port}", "emu", *words],
                                env=env, capture_output=True, timeout=60, check=True)
        return result.stdout

    # adb prints what follows the first two "OK\r\n" (the greeting's and the auth reply's).
    assert adb_emu("sms", "send", "5551234", "hello", "world") == b"OK\r\n"
    assert inbox(phone) == [("5551234", "hello world")]
    assert adb_emu("avd", "name") == b"android_gym_sim\r\nOK\r\n"
