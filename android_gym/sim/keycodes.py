"""Android key codes (AOSP ``frameworks/base/core/java/android/view/KeyEvent.java``)."""

from __future__ import annotations

import string

KEYCODES: dict[str, int] = {
    "UNKNOWN": 0, "SOFT_LEFT": 1, "SOFT_RIGHT": 2, "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6,
    "STAR": 17, "POUND": 18, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "CLEAR": 28,
    "COMMA": 55, "PERIOD": 56, "ALT_LEFT": 57, "ALT_RIGHT": 58, "SHIFT_LEFT": 59, "SHIFT_RIGHT": 60,
    "TAB": 61, "SPACE": 62, "SYM": 63, "EXPLORER": 64, "ENVELOPE": 65, "ENTER": 66, "DEL": 67, "GRAVE": 68,
    "MINUS": 69, "EQUALS": 70, "LEFT_BRACKET": 71, "RIGHT_BRACKET": 72, "BACKSLASH": 73, "SEMICOLON": 74,
    "APOSTROPHE": 75, "SLASH": 76, "AT": 77, "NUM": 78, "HEADSETHOOK": 79, "FOCUS": 80, "PLUS": 81,
    "MENU": 82, "NOTIFICATION": 83, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85, "MEDIA_STOP": 86, "PAGE_UP": 92,
    "PAGE_DOWN": 93, "ESCAPE": 111, "FORWARD_DEL": 112, "CTRL_LEFT": 113, "CTRL_RIGHT": 114,
    "MOVE_HOME": 122, "MOVE_END": 123, "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    **{str(d): 7 + d for d in range(10)},
    **{letter: 29 + i for i, letter in enumerate(string.ascii_uppercase)},
}

HOME, BACK, ENTER, DEL, CTRL_LEFT, SHIFT_LEFT, A = (
    KEYCODES[k] for k in ("HOME", "BACK", "ENTER", "DEL", "CTRL_LEFT", "SHIFT_LEFT", "A"))

# The character a key types (US layout, no meta state), as KeyCharacterMap does for ``input keyevent``.
CHARS: dict[int, str] = {
    **{7 + d: str(d) for d in range(10)},
    **{29 + i: letter for i, letter in enumerate(string.ascii_lowercase)},
    KEYCODES["SPACE"]: " ", KEYCODES["COMMA"]: ",", KEYCODES["PERIOD"]: ".", KEYCODES["MINUS"]: "-",
    KEYCODES["EQUALS"]: "=", KEYCODES["SEMICOLON"]: ";", KEYCODES["APOSTROPHE"]: "'", KEYCODES["SLASH"]: "/",
    KEYCODES["AT"]: "@", KEYCODES["PLUS"]: "+", KEYCODES["STAR"]: "*", KEYCODES["POUND"]: "#",
    KEYCODES["GRAVE"]: "`", KEYCODES["BACKSLASH"]: "\\", KEYCODES["LEFT_BRACKET"]: "[",
    KEYCODES["RIGHT_BRACKET"]: "]", KEYCODES["TAB"]: "\t",
}


#: Linux input event codes (``linux/input-event-codes.h``) → Android key names, as AOSP
#: ``frameworks/base/data/keyboards/Generic.kl`` maps them (XKB key codes are these plus 8).
EVDEV_KEYS: dict[int, str] = {
    1: "ESCAPE", **{2 + i: str((i + 1) % 10) for i in range(10)}, 12: "MINUS", 13: "EQUALS", 14: "DEL", 15: "TAB",
    **{16 + i: letter for i, letter in enumerate("QWERTYUIOP")}, 26: "LEFT_BRACKET", 27: "RIGHT_BRACKET",
    28: "ENTER", 29: "CTRL_LEFT", **{30 + i: letter for i, letter in enumerate("ASDFGHJKL")}, 39: "SEMICOLON",
    40: "APOSTROPHE", 41: "GRAVE", 42: "SHIFT_LEFT", 43: "BACKSLASH",
    **{44 + i: letter for i, letter in enumerate("ZXCVBNM")}, 51: "COMMA", 52: "PERIOD", 53: "SLASH",
    54: "SHIFT_RIGHT", 56: "ALT_LEFT", 57: "SPACE", 97: "CTRL_RIGHT", 100: "ALT_RIGHT", 102: "MOVE_HOME",
    103: "DPAD_UP", 104: "PAGE_UP", 105: "DPAD_LEFT", 106: "DPAD_RIGHT", 107: "MOVE_END", 108: "DPAD_DOWN",
    109: "PAGE_DOWN", 111: "FORWARD_DEL", 114: "VOLUME_DOWN", 115: "VOLUME_UP", 116: "POWER", 139: "MENU",
    158: "BACK", 172: "HOME", 212: "CAMERA", 217: "SEARCH", 580: "APP_SWITCH",
}


def parse_keycode(token: str) -> int | None:
    """A key code from ``66``, ``KEYCODE_ENTER`` or ``ENTER`` (what ``input keyevent`` accepts); else None."""
    if token.isdigit():
        return int(token)
    name = token.upper().removeprefix("KEYCODE_")
    return KEYCODES.get(name)
