"""A blocking client for the emulator console (``telnet localhost 5554``), for what adb cannot do on an emulator,
such as delivering an incoming SMS (``sms send``).

Facts from the emulator's ``console.cpp``/``console_auth.cpp``/``telephony/sms.c`` (greeting, ``auth``, ``OK``
and ``KO:`` replies, the 4096-byte line buffer, phone numbers and message escapes) and from adb's
``client/console.cpp`` (``adb emu``: auth token from ``~/.emulator_console_auth_token``, the command, ``quit``).
Unlike ``adb emu``, the client reads the greeting before it sends the token, so the token only ever goes to
something that greets like an emulator console.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

from android_gym.errors import ConsoleCommandError, ConsoleError

TOKEN_FILE = ".emulator_console_auth_token"
#: ``ControlClientRec.buff`` is 4096 bytes with the terminating NUL: the longest line the console keeps whole.
LINE_MAX = 4095
#: ``sms_address_from_str``: an optional ``+`` then 1 to 32 digits (16 bytes of BCD).
PHONE_NUMBER = re.compile(r"\+?[0-9]{1,32}")
_AUTH_REQUIRED = "Android Console: Authentication required"
_CONTROL = re.compile(r"[\x00-\x1f\\]")


def token_path(home: Path | None = None) -> Path:
    """``~/.emulator_console_auth_token`` under ``home`` (default: the user's home directory)."""
    return (Path.home() if home is None else home) / TOKEN_FILE


def sms_send_command(number: str, text: str) -> str:
    """The console line that delivers an incoming SMS from ``number``: the number checked as the console checks
    it, the text escaped as the emulator's ``sms_utf8_to_message_str`` escapes it (``\\`` → ``\\\\``, a newline
    → ``\\n``, other control characters → ``\\xNN``), so the device receives ``text`` exactly."""
    if not PHONE_NUMBER.fullmatch(number):
        raise ConsoleCommandError(f"bad phone number {number!r} for 'sms send': the emulator takes an optional '+' "
                                  "then 1 to 32 digits, without spaces or dashes")
    escapes = {"\\": "\\\\", "\n": "\\n"}
    escaped = _CONTROL.sub(lambda m: escapes.get(m[0]) or f"\\x{ord(m[0]):02x}", text)
    return f"sms send {number} {escaped}"


def _line(command: str) -> bytes:
    """``command`` as one console line, or a ``ConsoleCommandError`` saying why it cannot be one."""
    if re.search(r"[\r\n\0]", command):
        raise ConsoleCommandError(f"console command {command!r} contains a line break or NUL; send one command "
                                  "per call (escape newlines in SMS text with sms_send_command)")
    try:
        line = command.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ConsoleCommandError(f"console command {command!r} is not valid Unicode text: {exc.reason}") from exc
    if len(line) > LINE_MAX:
        raise ConsoleCommandError(f"console command of {len(line)} bytes is longer than the console's {LINE_MAX}-byte "
                                  "line buffer (the emulator would keep only its tail); send a shorter one")
    return line


def _read_token(path: Path) -> str:
    """The token ``adb emu`` would send, trimmed as the emulator trims it; "" when the file is missing or blank."""
    try:
        token = path.read_text(encoding="utf-8", errors="surrogateescape").strip(" \t\n\r\f\v")
    except FileNotFoundError:
        return ""
    except OSError as exc:
        raise ConsoleError(f"unable to read '{path}' ({exc.strerror}): make it readable by this user") from exc
    if re.search(r"[\r\n\0]", token):
        raise ConsoleError(f"'{path}' holds more than one line; it must hold the emulator's auth token alone")
    return token


def _reply(stream: BinaryIO, lines: list[str] | None = None) -> list[str]:
    """``lines`` read so far, then more up to and including the one that ends a reply (``OK`` or ``KO: ...``),
    or up to end of stream."""
    lines = lines or []
    while not lines or (lines[-1] != "OK" and not lines[-1].startswith("KO:")):
        raw = stream.readline()
        if not raw:
            break
        lines.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
    return lines


def send_console_command(port: int, command: str, host: str = "127.0.0.1", timeout: float = 10.0,
                         home: Path | None = None) -> str:
    """Run one console command on the emulator whose console listens on ``host:port`` (``emulator-5554`` →
    5554), authenticating with the token under ``home``; return the command's reply without its final ``OK``
    (lines joined by ``\\n``). Raises ``ConsoleError`` when nothing console-like listens there, the token is
    refused, or the reply is ``KO:``; ``ConsoleCommandError`` when ``command`` cannot be sent as one line."""
    return send_console_commands(port, [command], host, timeout, home)[0]


def send_console_commands(port: int, commands: Sequence[str], host: str = "127.0.0.1", timeout: float = 10.0,
                          home: Path | None = None) -> list[str]:
    """``send_console_command`` for each of ``commands`` in order, in one console session (one connection and
    authentication, as a person typing them into ``telnet localhost 5554`` would); returns their replies. Every
    command is checked before the first is sent; the first ``KO:`` reply ends the session and raises
    ``ConsoleError``, so the commands after it are not run."""
    lines = [_line(command) for command in commands]
    path = token_path(home)
    token = _read_token(path)
    address = f"{host}:{port}"
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        raise ConsoleError(f"no emulator console on {address}: is the emulator running? ({exc})") from exc
    replies = []
    with sock, sock.makefile("rb") as stream:
        try:
            first = stream.readline().decode("utf-8", "replace").rstrip("\r\n")
            if not first.startswith("Android Console:"):
                raise ConsoleError(f"{address} is not an Android emulator console (it greeted with {first!r}); "
                                   "check the port")
            greeting = _reply(stream, [first])
            if greeting[0] == _AUTH_REQUIRED:
                emulator_path = next((g.strip("'") for g in greeting if g.startswith("'")), "~/" + TOKEN_FILE)
                if not token:
                    raise ConsoleError(f"the emulator console on {address} requires authentication but '{path}' "
                                       f"is missing or empty: copy the token from '{emulator_path}' into it")
                sock.sendall(b"auth " + token.encode("utf-8", "surrogateescape") + b"\n")
                answer = _reply(stream)
                if not answer or answer[-1] != "OK":
                    raise ConsoleError(f"the emulator console on {address} refused the token in '{path}' "
                                       f"({' '.join(answer) or 'connection closed'}): the emulator reads "
                                       f"'{emulator_path}'; make both files hold the same token")
            for command, line in zip(commands, lines):
                sock.sendall(line + b"\n")
                answer = _reply(stream)
                if answer and answer[-1].startswith("KO:"):
                    raise ConsoleError(f"the emulator console on {address} refused {command!r}: "
                                       + "\n".join(answer))
                replies.append("\n".join(answer[:-1] if answer and answer[-1] == "OK" else answer))
            try:
                sock.sendall(b"quit\n")
            except OSError:
                pass  # the last command closed the session itself (quit, kill)
        except TimeoutError as exc:
            raise ConsoleError(f"the emulator console on {address} did not answer within {timeout} s") from exc
        except OSError as exc:
            raise ConsoleError(f"the emulator console on {address} dropped the connection: {exc}") from exc
    return replies
