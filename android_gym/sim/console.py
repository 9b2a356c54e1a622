"""The emulator console: the telnet-style text protocol an Android emulator serves on its console port (5554).

Facts from the emulator's sources (``external/qemu`` ``android/android-emu/android/console.cpp`` for the
greeting, the command tables, the line buffer and every reply; ``console_auth.cpp`` for the token file;
``telephony/sms.c`` for phone numbers and message escapes) and from adb's client (``client/console.cpp``: ``adb emu``
sends ``auth <token>``, the command and ``quit``, then prints what follows the first two ``OK``).

Simplified behaviour, same formats: the console knows ``help``, ``help-verbose``, ``ping``, ``auth``, ``avd name``,
``sms send``, ``kill`` and ``quit``; the real console's other commands answer ``KO:`` saying the simulated phone
does not simulate them. The token is read once, when the console is made (the emulator re-reads the file for
every connection).
"""

from __future__ import annotations

import asyncio
import base64
import hmac
import os
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from android_gym.device.console import LINE_MAX, PHONE_NUMBER, token_path
from android_gym.errors import ConsoleError
from android_gym.sim.host import PhoneHost

#: ``sms_utf8_from_message_str``: the only escapes a message may use.
_ESCAPE = r"\\(?:\\|n|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})"
_MESSAGE = re.compile(rf"(?:[^\\]|{_ESCAPE})*", re.DOTALL)
#: ``android::base::httpIsRequestLine``: a method, a space, anything, an ``HTTP/<version>`` field.
_HTTP_REQUEST = re.compile(rb"(?:GET|HEAD|POST|PUT|DELETE|TRACE|CONNECT)[ \t](?:.*[ \t])?HTTP/[^ \t]+[ \t]*")
#: The real console's other top-level commands (``main_commands`` of recent emulators), answered "not simulated".
_NOT_SIMULATED = frozenset({
    "automation", "cdma", "crash", "crash-on-exit", "debug", "event", "finger", "fold", "geo", "grpc", "gsm",
    "icebox", "multidisplay", "network", "nodraw", "physics", "posture", "power", "qemu", "redir",
    "resize-display", "restart", "rotate", "screenrecord", "sensor", "unfold"})

HELP_PROMPT = "Android Console: type 'help' for a list of commands\r\n"
KO_UNKNOWN = "KO: unknown command, try 'help'\r\n"
KO_SMS_ARGS = "KO: missing argument, try 'sms send <phonenumber> <text message>'\r\n"
KO_SMS_TEXT = ("message must be utf8 and can use the following escapes:\r\n"
               "    \\n      for a newline\r\n"
               "    \\xNN    where NN are two hexadecimal numbers\r\n"
               "    \\uNNNN  where NNNN are four hexadecimal numbers\r\n"
               "    \\\\     to send a '\\' character\r\n\r\n"
               "    anything else is an error\r\n"
               "KO: badly formatted text\r\n")


def load_auth_token(home: Path | None = None) -> str:
    """The console's auth token, as the emulator's ``tokenLoadOrCreate`` gets it: a missing file is created
    (mode 0600) holding 12 random bytes in base64; an existing file is read and trimmed, and a blank one means
    authentication is disabled (``""``)."""
    path = token_path(home)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        try:
            return path.read_text(encoding="utf-8", errors="surrogateescape").strip(" \t\n\r\f\v")
        except OSError as exc:
            raise ConsoleError(f"unable to read '{path}' ({exc.strerror}): make it a file readable by this user "
                               "(an empty file disables console authentication)") from exc
    except OSError as exc:
        raise ConsoleError(f"unable to create '{path}' ({exc.strerror}): check that the home directory is "
                           "writable, or create the file yourself") from exc
    token = base64.b64encode(secrets.token_bytes(12)).decode("ascii")
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(token)
    return token


class _Session:
    """One client connection: its writer, the command table it may use, and whether it is over."""

    def __init__(self, writer: asyncio.StreamWriter, commands: tuple[_Command, ...]) -> None:
        self.writer = writer
        self.commands = commands
        self.finished = False
        self.killed = False

    def write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8"))


Handler = Callable[[_Session, str | None], Awaitable[bool]]


@dataclass(frozen=True)
class _Command:
    """A row of the console's command table: ``names`` like ``"help|h|?"``, a one-line ``abstract``, an optional
    longer ``description``, and either a ``handler`` (returns whether to answer ``OK``) or ``subcommands``."""

    names: str
    abstract: str
    description: str = ""
    handler: Handler | None = None
    subcommands: tuple[_Command, ...] = ()


def _find(line: str, commands: tuple[_Command, ...]) -> tuple[_Command | None, str | None]:
    """``find_command``: the command named by the line's first word, and the rest of the line (spaces before it
    skipped, ``None`` when empty)."""
    word, _, rest = line.partition(" ")
    args = rest.lstrip(" ") or None
    return next((c for c in commands if word in c.names.split("|")), None), args


def _tail(line: bytes) -> bytes:
    """What the console's 4096-byte line buffer holds after ``line``: it restarts from empty when full, so a
    longer line keeps only its tail."""
    return line[-((len(line) - 1) % LINE_MAX + 1):] if len(line) > LINE_MAX else line


def _message_text(text: str) -> str | None:
    """``sms_utf8_from_message_str``: the message with its escapes decoded, or ``None`` when it is badly
    formatted (an unknown escape, a lone backslash; also a ``\\u`` surrogate, which no SMS can carry)."""
    if not _MESSAGE.fullmatch(text):
        return None
    escapes = {"\\": "\\", "n": "\n"}
    decoded = re.sub(_ESCAPE, lambda m: escapes.get(m[0][1]) or chr(int(m[0][2:], 16)), text)
    return None if any("\ud800" <= c <= "\udfff" for c in decoded) else decoded


class EmulatorConsole:
    """The console port of the simulated phone; ``handle`` serves one client (an ``asyncio.start_server``
    callback). ``auth_token`` comes from ``load_auth_token`` ("" disables authentication); ``on_kill`` runs
    after a ``kill`` command has been answered and its connection closed."""

    def __init__(self, host: PhoneHost, auth_token: str, on_kill: Callable[[], None], *,
                 home: Path | None = None) -> None:
        self._host = host
        self._token = auth_token
        self._on_kill = on_kill
        self._token_path = token_path(home)
        help_ = _Command("help|h|?", "print a list of commands", handler=self._help)
        verbose = _Command("help-verbose", "print a list of commands with descriptions", handler=self._help_verbose)
        ping = _Command("ping", "check if the emulator is alive", handler=self._ping)
        quit_ = _Command("quit|exit", "quit control session", handler=self._quit)
        avd = _Command("avd", "control virtual device execution",
                       "allows you to control (e.g. start/stop) the execution of the virtual device\r\n",
                       subcommands=(_Command("name", "query virtual device name",
                                             "'avd name' will return the name of this virtual device\r\n",
                                             handler=self._avd_name),))
        auth = _Command("auth", "user authentication for the emulator console",
                        "use 'auth <auth_token>' to get extended console functionality\r\n", handler=self._auth)
        kill = _Command("kill", "kill the emulator instance", handler=self._kill)
        sms = _Command("sms", "SMS related commands", "allows you to simulate an inbound SMS\r\n",
                       subcommands=(_Command("send", "send inbound SMS text message",
                                             "'sms send <phonenumber> <message>' allows you to simulate a new "
                                             "inbound sms message\r\n", handler=self._sms_send),))
        # Both tables in the real console's order (main_commands_preauth, main_commands).
        self._preauth = (help_, verbose, ping, avd, auth, quit_)
        self._main = (help_, verbose, ping, kill, quit_, sms, avd)

    def _greeting(self) -> str:
        if not self._token:
            return HELP_PROMPT + "OK\r\n"
        return ("Android Console: Authentication required\r\n"
                "Android Console: type 'auth <auth_token>' to authenticate\r\n"
                f"Android Console: you can find your <auth_token> in \r\n'{self._token_path}'\r\nOK\r\n")

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection until ``quit``, ``kill``, a forbidden line, or the client hanging up."""
        session = _Session(writer, self._preauth if self._token else self._main)
        try:
            session.write(self._greeting())
            await writer.drain()
            await self._serve(reader, session)
        except ConnectionError:
            pass
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                pass
            if session.killed:
                self._on_kill()

    async def _serve(self, reader: asyncio.StreamReader, session: _Session) -> None:
        """Read lines as ``control_client_read_byte`` does: ``\\r`` dropped anywhere, ``\\n`` ends a line."""
        pending = b""
        while not session.finished:
            chunk = await reader.read(4096)
            if not chunk:
                return
            *lines, rest = (pending + chunk.replace(b"\r", b"")).split(b"\n")
            pending = _tail(rest)
            for line in lines:
                await self._command(session, _tail(line))
                await session.writer.drain()
                if session.finished:
                    return

    async def _command(self, session: _Session, raw: bytes) -> None:
        """``control_client_do_command``: security checks, then the command table walk."""
        raw = raw.split(b"\0", 1)[0]  # the console handles the line as a C string
        if _HTTP_REQUEST.fullmatch(raw):
            session.write("KO: Forbidden HTTP request. Aborting\r\n")
            session.finished = True
            return
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            session.write("KO: Forbidden binary request. Aborting\r\n")
            session.finished = True
            return
        command, args = _find(line, session.commands)
        if command is None:
            word = line.partition(" ")[0]
            simulated = session.commands is not self._main or word not in _NOT_SIMULATED
            session.write(KO_UNKNOWN if simulated else f"KO: '{word}' is not simulated by android_gym's phone\r\n")
            return
        while command.handler is None:
            if args is None:
                self._dump_help(session, command, "")
                session.write("KO: missing sub-command\r\n")
                return
            sub, args = _find(args, command.subcommands)
            if sub is None:
                self._dump_help(session, command, "")
                session.write("KO:  bad sub-command\r\n")  # sic: two spaces, as the console prints it
                return
            command = sub
        if await command.handler(session, args):
            session.write("OK\r\n")

    # ----- help -------------------------------------------------------------------------------------------
    @staticmethod
    def _dump_help(session: _Session, command: _Command, prefix: str) -> None:
        session.write(command.description or f"{command.abstract}\r\n")
        if command.subcommands:
            session.write("\r\navailable sub-commands:\r\n")
            for sub in command.subcommands:
                session.write(f"   {prefix} {sub.names:<15}  {sub.abstract}\r\n")
            session.write("\r\n")

    async def _help(self, session: _Session, args: str | None) -> bool:
        if args is None:
            names = "".join(f"    {c.names}\r\n" for c in session.commands)
            session.write(f"Android console commands:\r\n{names}\r\nTry 'help-verbose' for more description"
                          "\r\nTry 'help <command>' for command-specific help\r\n")
            return True
        start, commands = args, session.commands
        while True:
            command, args = _find(args, commands)
            if command is None:
                await self._help(session, None)
                session.write("\r\nKO: unknown command\r\n")
                return False
            if args is None or not command.subcommands:
                self._dump_help(session, command, start)
                return True
            commands = command.subcommands

    async def _help_verbose(self, session: _Session, args: str | None) -> bool:
        rows = "".join(f"    {c.names:<15}  {c.abstract}\r\n" for c in session.commands)
        session.write(f"Android console command help:\r\n\r\n{rows}\r\ntry 'help <command>' for command-specific "
                      "help\r\n")
        return True

    # ----- commands ---------------------------------------------------------------------------------------
    async def _ping(self, session: _Session, args: str | None) -> bool:
        session.write("I am alive!\r\n")
        return True

    async def _quit(self, session: _Session, args: str | None) -> bool:
        session.finished = True
        return False

    async def _auth(self, session: _Session, args: str | None) -> bool:
        if args is None:
            session.write("KO: missing authentication token\r\n")
            return False
        if not hmac.compare_digest(args.encode("utf-8"), self._token.encode("utf-8", "surrogateescape")):
            session.write("KO: authentication token does not match ~/.emulator_console_auth_token\r\n")
            return False
        session.write(HELP_PROMPT)
        session.commands = self._main
        return True

    async def _avd_name(self, session: _Session, args: str | None) -> bool:
        session.write(f"{self._host.avd_name}\r\n")
        return True

    async def _kill(self, session: _Session, args: str | None) -> bool:
        session.write("OK: killing emulator, bye bye\r\n")
        session.finished = session.killed = True
        return True

    async def _sms_send(self, session: _Session, args: str | None) -> bool:
        number, space, text = (args or "").partition(" ")
        if not space:
            session.write(KO_SMS_ARGS)
            return False
        if not PHONE_NUMBER.fullmatch(number):
            session.write("KO: bad phone number format, must be [+](0-9)*\r\n")
            return False
        body = _message_text(text)
        if body is None:
            session.write(KO_SMS_TEXT)
            return False
        await self._host.run(self._deliver, number, body)
        return True

    def _deliver(self, number: str, body: str) -> None:
        """Under the phone lock: the modem hands the SMS to the default SMS app, which stores it."""
        self._host.phone.telephony.deliver_sms(number, body)
        self._host.phone.invalidate()
