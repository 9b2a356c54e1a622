"""Letter tiles: the picture a contact without a photo gets, a circle of a colour picked by a hash of the name, with
a letter on it (AOSP Contacts' ``LetterTileDrawable``, Simple-Commons' ``SimpleContactsHelper.getContactLetterIcon``).
"""

from __future__ import annotations

from collections.abc import Sequence

from android_gym.sim.int32 import to_int32
from android_gym.sim.ui.views import WHITE, Color, View


def java_hash(text: str) -> int:
    """Java's ``String.hashCode``: ``31 * h + c`` over the UTF-16 code units, as a signed 32-bit int."""
    code, units = 0, text.encode("utf-16-be")
    for i in range(0, len(units), 2):
        code = (31 * code + int.from_bytes(units[i:i + 2], "big")) & 0xFFFFFFFF
    return to_int32(code)


def pick_color(colors: Sequence[Color], name: str) -> Color:
    """``colors[Math.abs(name.hashCode()) % colors.length]``, as both apps pick a tile's colour."""
    return colors[abs(java_hash(name)) % len(colors)]


def letter_tile(letter: str, color: Color, size: int, text_size: int, *, text_color: Color = WHITE,
                bold: bool = False, **props) -> View:
    """A ``size`` px circle of ``color`` with ``letter`` centred on it: an image, so the letter is drawn but not
    dumped (it is the view's ``hint``); ``props`` name the view (its class, resource id, description, clicks)."""
    return View(kind="letter", hint=letter, width=size, height=size, background=color, corner=size // 2,
                text_color=text_color, text_size=text_size, bold=bold, **props)
