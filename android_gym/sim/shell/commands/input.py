"""``input`` (AOSP ``InputShellCommand``), ``screencap`` (``frameworks/base/cmds/screencap``) and
``uiautomator dump`` (``DumpCommand``/``AccessibilityNodeInfoDumper``).

Input goes through the phone's own ``tap``/``swipe``/``input_text``/``key`` so every event takes device time.
``input text`` types its single argument with ``%s`` turned into spaces, as key presses of the virtual
keyboard: a character that keyboard has no key for fails the whole command (see ``_key_text``), unlike an IME's
``commitText`` (``Phone.input_text``), which takes any text. ``keycombination`` holds the leading keys as meta
state for the keys after them (``input keycombination 113 29`` is Ctrl+A).
"""

from __future__ import annotations

import io
import posixpath
import struct
import unicodedata
import weakref

from PIL import Image

from android_gym.sim import keycodes
from android_gym.sim.shell.commands.base import CommandContext, shell_command_exception, strerror
from android_gym.sim.shell.device import ShellDevice

_SOURCES = ("keyboard", "dpad", "gamepad", "touchscreen", "mouse", "stylus", "trackball", "touchpad",
            "touchnavigation", "joystick")
# KeyEvent modifier key codes, with the right-hand keys folded onto the left ones for the meta state.
_MODIFIERS = {113: 113, 114: 113, 57: 57, 58: 57, 59: 59, 60: 59, 117: 117, 118: 117}
_KEYCODE_MAX = 288  # KeyEvent.getMaxKeyCode() on API 33
_TOUCH_SLOP = 10
# The characters KeyCharacterMap.load(VIRTUAL_KEYBOARD) has a key for (AOSP frameworks/base/data/keyboards/
# Virtual.kcm): all printable ASCII (letters, digits and their shifted symbols, the punctuation keys, SPACE),
# "\n" (ENTER) and "\t" (TAB); "ç", "Ç" and "ß" (alt / shift+alt on C, alt on S); and five combining accents,
# which are dead keys (alt+GRAVE U+0300, alt+E U+0301, alt+I and alt+shift+6 U+0302, alt+N and alt+shift+GRAVE
# U+0303, alt+U U+0308). For anything else (é, emoji, CR, other controls) getEvents() returns null.
_KEYBOARD_CHARACTERS = frozenset(map(chr, range(0x20, 0x7F))) | frozenset("\n\tçÇß")
# Dead key → the spacing accent a text field shows for it until the next key (KeyCharacterMap
# sCombiningToAccent: ACCENT_GRAVE, ACCENT_ACUTE, ACCENT_CIRCUMFLEX, ACCENT_TILDE, ACCENT_UMLAUT).
_DEAD_KEYS = {"\u0300": "\u02cb", "\u0301": "\u00b4", "\u0302": "\u02c6", "\u0303": "\u02dc", "\u0308": "\u00a8"}
_ACCENT_TO_COMBINING = {accent: combining for combining, accent in _DEAD_KEYS.items()}  # sAccentToCombining
_pointer_down: weakref.WeakKeyDictionary[ShellDevice, tuple[float, float]] = weakref.WeakKeyDictionary()

_INPUT_USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      """ + "\n      ".join(_SOURCES) + """

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)
"""  # noqa: E501


class _ArgumentError(Exception):
    """``IllegalArgumentException`` from the shell command."""


class _Args:
    """``ShellCommand``'s argument cursor."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.pos = 0

    def next(self) -> str | None:
        if self.pos >= len(self.args):
            return None
        self.pos += 1
        return self.args[self.pos - 1]

    def required(self) -> str:
        value = self.next()
        if value is None:
            previous = self.args[self.pos - 1] if self.pos else ""
            raise _ArgumentError(f'Argument expected after "{previous}"')
        return value


def keycode_from_string(token: str) -> int:
    """``KeyEvent.keyCodeFromString``: a number or a ``KEYCODE_`` name; ``KEYCODE_UNKNOWN`` (0) otherwise."""
    if token.lstrip("-").isdigit():
        code = int(token)
        return code if 0 <= code <= _KEYCODE_MAX else 0
    return keycodes.parse_keycode(token) or 0


class _NullPointerError(Exception):
    """``java.lang.NullPointerException`` from the shell command."""


def _dead_char(accent: str, char: str) -> str | None:
    """``KeyCharacterMap.getDeadChar``: ``char`` composed with the pending ``accent`` (NFC), or ``None``."""
    if char in (accent, " "):
        return accent
    composed = unicodedata.normalize("NFC", char + _ACCENT_TO_COMBINING[accent])
    return composed if len(composed) == 1 else None


def _key_text(text: str) -> str:
    """What typing ``text`` on the virtual keyboard puts into a text field (``InputShellCommand.sendText``
    then the field's ``QwertyKeyListener``): the characters themselves, except that a dead key shows its
    accent and composes it with the next character when they combine. Raises ``_NullPointerError`` before
    anything is typed when a character has no key."""
    if not all(char in _KEYBOARD_CHARACTERS or char in _DEAD_KEYS for char in text):
        raise _NullPointerError("Attempt to get length of null array")  # sendText: events.length, events null
    typed: list[str] = []
    pending = None  # the accent of a dead key just pressed, shown as the last character
    for char in text:
        dead = _DEAD_KEYS.get(char)
        char = dead or char
        if pending is not None:
            composed = _dead_char(pending, char)
            if composed is not None:
                typed[-1], char, dead = composed, "", None
        if char:
            typed.append(char)
        pending = dead
    return "".join(typed)


def _text(phone: ShellDevice, args: _Args) -> None:
    phone.input_text(_key_text(args.required().replace("%s", " ")))


def _keyevent(phone: ShellDevice, args: _Args) -> None:
    arg = args.required()
    double = False
    while arg.startswith("--"):
        double = double or arg == "--doubletap"
        if arg == "--delay":
            int(args.required())
        arg = args.next()
        if arg is None:
            return
    while arg is not None:
        code = keycode_from_string(arg)
        for _ in range(2 if double else 1):
            phone.key(code)
        arg = args.next()


def _swipe(phone: ShellDevice, args: _Args, drag: bool) -> None:
    x1, y1, x2, y2 = (float(args.required()) for _ in range(4))
    duration_arg = args.next()
    duration = int(duration_arg) if duration_arg is not None else -1
    if duration < 0:
        duration = 300
    phone.swipe(x1, y1, x2, y2, duration + (500 if drag else 0))


def _motion(phone: ShellDevice, args: _Args) -> None:
    action = args.required().upper()
    if action not in ("DOWN", "UP", "MOVE", "CANCEL"):
        raise _ArgumentError(f"Unknown action: {action}")
    if action == "CANCEL":
        _pointer_down.pop(phone, None)
        return
    x, y = float(args.required()), float(args.required())
    if action == "DOWN":
        _pointer_down[phone] = (x, y)
    elif action == "UP" and phone in _pointer_down:
        x0, y0 = _pointer_down.pop(phone)
        if abs(x - x0) < _TOUCH_SLOP and abs(y - y0) < _TOUCH_SLOP:
            phone.tap(x, y)
        else:
            phone.swipe(x0, y0, x, y, 300)


def _keycombination(phone: ShellDevice, args: _Args) -> None:
    arg = args.required()
    if arg == "-t":
        int(args.required())
        arg = args.required()
    codes = []
    while arg is not None:
        code = keycode_from_string(arg)
        if code == 0:
            raise _ArgumentError(f"Unknown keycode: {arg}")
        codes.append(code)
        arg = args.next()
    if len(codes) < 2:
        raise _ArgumentError("keycombination requires at least 2 keycodes")
    meta: set[int] = set()
    for code in codes:
        if code in _MODIFIERS:
            meta.add(_MODIFIERS[code])
        else:
            phone.key(code, frozenset(meta))


def input_command(ctx: CommandContext, argv: list[str]) -> int:
    """``input [SOURCE] [-d DISPLAY] text|keyevent|tap|swipe|draganddrop|press|roll|motionevent|keycombination``."""
    args = _Args(argv[1:])
    first = args.next()
    arg = first
    if arg is None or arg in ("help", "-h"):
        ctx.out(_INPUT_USAGE)
        return 0
    phone = ctx.phone
    try:
        if arg in _SOURCES:
            arg = args.required()
        if arg == "-d":
            args.required()
            arg = args.required()
        try:
            if arg == "text":
                _text(phone, args)
            elif arg == "keyevent":
                _keyevent(phone, args)
            elif arg == "tap":
                x, y = float(args.required()), float(args.required())
                phone.tap(x, y)
            elif arg in ("swipe", "draganddrop"):
                _swipe(phone, args, drag=arg == "draganddrop")
            elif arg == "press":
                phone.key(keycodes.KEYCODES["DPAD_CENTER"])
            elif arg == "roll":
                float(args.required()), float(args.required())
            elif arg == "motionevent":
                _motion(phone, args)
            elif arg == "keycombination":
                _keycombination(phone, args)
            else:
                ctx.out(f"Unknown command: {arg}\n")
        except ValueError:
            raise _ArgumentError(f"Error: Invalid arguments for command: {arg}") from None
    except _ArgumentError as error:
        return shell_command_exception(ctx, first, f"java.lang.IllegalArgumentException: {error}")
    except _NullPointerError as error:
        return shell_command_exception(ctx, first, f"java.lang.NullPointerException: {error}")
    return 0


# ----- screencap ---------------------------------------------------------------------------------------------
_COLORSPACE_SRGB = 1  # screencap.cpp dataSpaceToInt(V0_SRGB)
_PIXEL_FORMAT_RGBA_8888 = 1


def png_bytes(phone: ShellDevice) -> bytes:
    """The screen as ``screencap -p`` writes it: an 8-bit RGBA PNG."""
    buffer = io.BytesIO()
    Image.frombytes("RGBA", phone.screen_size, phone.screenshot_rgba()).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def raw_header(phone: ShellDevice) -> bytes:
    """What ``screencap`` without ``-p`` writes before the pixels: width, height, pixel format and color space
    (little-endian u32; the color space since Android 9). The RGBA rows (``screenshot_rgba``) follow."""
    width, height = phone.screen_size
    return struct.pack("<4I", width, height, _PIXEL_FORMAT_RGBA_8888, _COLORSPACE_SRGB)


def _screencap_args(argv: list[str]) -> tuple[bool, str | None, str | None]:
    """``screencap``'s options: whether ``-p`` was given, the FILE operand, and the first option it does not take
    (a ``-d`` without its display id included)."""
    png, target, args = False, None, argv[1:]
    while args:
        arg = args.pop(0)
        if arg == "-p":
            png = True
        elif arg == "-d" and args:
            args.pop(0)
        elif arg.startswith("-") and len(arg) > 1:
            return png, target, arg
        else:
            target = arg
    return png, target, None


def screencap(ctx: CommandContext, argv: list[str]) -> int:
    """``screencap [-hp] [-d DISPLAY] [FILE]``: PNG with ``-p`` or a ``.png`` name, raw otherwise."""
    png, target, bad_option = _screencap_args(argv)
    if bad_option is not None:
        ctx.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n"
                "   -p: save the file as a png.\n   -d: specify the display ID to capture.\n"
                "If FILENAME ends with .png it will be saved as a png.\n"
                "If FILENAME is not given, the results will be printed to stdout.\n")
        return 0 if bad_option == "-h" else 1
    png = png or (target is not None and target.endswith(".png"))
    # The raw header and the frame's own RGBA bytes go out as two pieces: a 10 MB frame is not copied to join them.
    pieces = (png_bytes(ctx.phone),) if png else (raw_header(ctx.phone), ctx.phone.screenshot_rgba())
    if target is None or ctx.path(target) in ("/dev/stdout", "/dev/tty"):
        for piece in pieces:
            ctx.out(piece)
        return 0
    host = ctx.host(target)
    try:
        with host.open("wb") as file:
            for piece in pieces:
                file.write(piece)
    except OSError as error:
        ctx.err(f"Error opening file: {target} ({strerror(error)})\n")
        return 1
    ctx.stamp(host)
    return 0


# ----- uiautomator -------------------------------------------------------------------------------------------
_DEFAULT_DUMP = "/sdcard/window_dump.xml"  # Environment.getLegacyExternalStorageDirectory()/window_dump.xml


def _dump_target(argv: list[str]) -> str | None:
    """The FILE operand of ``uiautomator dump``, if any."""
    names = [arg for arg in argv[2:] if not arg.startswith("-")]
    return names[0] if names else None


def uiautomator(ctx: CommandContext, argv: list[str]) -> int:
    """``uiautomator dump [--compressed] [FILE]``: writes the window hierarchy (``/dev/tty`` = stdout)."""
    if len(argv) < 2 or argv[1] != "dump":
        ctx.err("Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
                "help: displays help message\n\n"
                "dump: creates an XML dump of current UI hierarchy\n")
        return 1
    target = _dump_target(argv) or _DEFAULT_DUMP
    absolute = target if target.startswith("/") else posixpath.join(ctx.cwd, target)
    xml = ctx.phone.ui_dump()
    if ctx.path(target) in ("/dev/tty", "/dev/stdout"):
        ctx.out(xml)
    else:
        host = ctx.host(target)
        try:
            host.write_text(xml, encoding="utf-8")
            ctx.stamp(host)
        except OSError:
            pass  # AccessibilityNodeInfoDumper logs the IOException; the success line is printed anyway
    ctx.out(f"UI hierchary dumped to: {absolute}\n")
    return 0


#: The shell user's own directory: no app can read it (SELinux ``shell_data_file``), so nothing saved there shows
#: on screen. adb clients keep their UI dumps there (adbutils, uiautomator2, android_gym's ``AdbDevice``).
SHELL_TMP = "/data/local/tmp/"


def _out_of_sight(target: str | None) -> bool:
    """Whether output sent to ``target`` (``None``: standard output) cannot change what any app shows."""
    return (target is None or target in ("/dev/stdout", "/dev/tty")
            or (target.startswith("/") and posixpath.normpath(target).startswith(SHELL_TMP)))


#: Command lines that only read the device, by command (the shell leaves the screen as it was after them): a
#: screenshot or a UI dump printed to standard output or saved where no app can see it, not into a file an app
#: may list.
READS_ONLY = {
    "screencap": lambda argv: _out_of_sight(_screencap_args(argv)[1]),
    "uiautomator": lambda argv: argv[1:2] == ["dump"] and _out_of_sight(_dump_target(argv) or _DEFAULT_DUMP),
}


COMMANDS = {"input": input_command, "screencap": screencap, "uiautomator": uiautomator}
