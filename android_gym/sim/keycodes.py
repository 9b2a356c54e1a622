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


def parse_keycode(token: str) -> int | None:
    """A key code from ``66``, ``KEYCODE_ENTER`` or ``ENTER`` (what ``input keyevent`` accepts); else None."""
    if token.isdigit():
        return int(token)
    name = token.upper().removeprefix("KEYCODE_")
    return KEYCODES.get(name)
