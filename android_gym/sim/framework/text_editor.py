"""Editing the focused field of the front activity: typing, deleting, and the text-selection actions (Cut, Copy,
Paste, Select all) with their floating toolbar, as ``ui.selection`` describes them (AOSP ``Editor``,
``TextView.onTextContextMenuItem``). The window manager owns one per phone and routes keys and long presses here.
"""

from __future__ import annotations

from collections.abc import Callable

from android_gym.sim.framework.app import Context, Screen
from android_gym.sim.ui.layout import line_height
from android_gym.sim.ui.selection import (
    COPY,
    CUT,
    PASTE,
    SELECT_ALL,
    TextSelection,
    caret_point,
    floating_toolbar,
    offset_at,
    word_at,
)
from android_gym.sim.ui.views import Callback, View


class TextEditor:
    """Edits the focused field of the front activity: typing, deleting and the text-selection actions.

    ``focused_field`` returns the focused EditText of the current frame; every change goes through the field's
    ``on_text`` and leaves the caret or selection in ``Screen.selection``.
    """

    def __init__(self, phone: Context, focused_field: Callable[[], View | None]) -> None:
        self._phone = phone
        self._focused_field = focused_field

    @property
    def _screen(self) -> Screen:
        return self._phone.activities.top

    @staticmethod
    def span(screen: Screen, field: View) -> tuple[int, int]:
        """The field's selection as ``(start, end)``, clamped to its text; the caret is at the end by default."""
        size, selection = len(field.value), screen.selection
        if selection is None:
            return size, size
        return min(selection.start, size), min(selection.end, size)

    def _edit(self, field: View, start: int, end: int, text: str) -> None:
        """``Editable.replace(start, end, text)``, the caret after the new text, the action mode over. The field's
        text is a new string built from its buffer (``Editable.toString``), never the very object typed or pasted,
        so text that spells an app's word is the user's, not the app's resource (``locale.resource_strings``)."""
        value = "".join((field.value[:start], text, field.value[end:]))
        field.on_text(value)
        caret = start + len(text)
        self._screen.selection = None if caret == len(value) else TextSelection(caret, caret)

    def type(self, text: str) -> None:
        """Commit ``text`` over the selection or at the caret (a single-line field takes newlines as spaces)."""
        field = self._focused_field()
        if field is not None:
            self._edit(field, *self.span(self._screen, field), text if field.multiline else text.replace("\n", " "))

    def delete(self) -> None:
        """KEYCODE_DEL: the selection, else the character before the caret."""
        field = self._focused_field()
        if field is not None:
            start, end = self.span(self._screen, field)
            self._edit(field, max(start - (start == end), 0), end, "")

    def select_all(self) -> None:
        """``ID_SELECT_ALL``: select the whole text; an open toolbar stays open."""
        field = self._focused_field()
        if field is not None:
            selection = self._screen.selection
            self._screen.selection = TextSelection(0, len(field.value), selection is not None and selection.toolbar)

    def _copy_selection(self) -> tuple[View, int, int] | None:
        """Make the selected text the primary clip (``canCopy``: a selection, no password); returns the field and
        the selection copied."""
        field = self._focused_field()
        start, end = self.span(self._screen, field) if field is not None else (0, 0)
        if field is None or start == end or field.password:
            return None
        self._phone.clipboard.set_text(field.value[start:end])
        return field, start, end

    def copy(self) -> None:
        """``ID_COPY``: copy the selection, which collapses to its end."""
        copied = self._copy_selection()
        if copied is not None:
            self._screen.selection = TextSelection(copied[2], copied[2])

    def cut(self) -> None:
        """``ID_CUT``: copy the selection, then delete it."""
        copied = self._copy_selection()
        if copied is not None:
            self._edit(*copied, "")

    def _clip(self) -> str | None:
        clip = self._phone.clipboard.clip_for(self._screen.app.package)
        return None if clip is None else clip.text

    def paste(self) -> None:
        """``ID_PASTE``: the clip's text replaces the selection (or goes in at the caret)."""
        text = self._clip()
        if text is not None:
            self.type(text)

    def long_press(self, field: View, x: float, y: float) -> None:
        """``Editor.performLongClick`` on ``field`` at a design point: focus it, select the word under the finger
        (or put the caret on empty space) and open the toolbar."""
        screen = self._screen
        screen.focus_key = field.key
        offset, on_text = offset_at(field, x, y)
        start, end = word_at(field.value, offset) if on_text else (offset, offset)
        screen.selection = TextSelection(start, end, toolbar=True)

    def end_action_mode(self) -> bool:
        """``stopTextActionMode``: close the toolbar, collapse the selection to its end; whether one was open."""
        selection = self._screen.selection
        if selection is None or not selection.toolbar:
            return False
        self._screen.selection = TextSelection(selection.end, selection.end)
        return True

    @staticmethod
    def focus_lost(screen: Screen) -> None:
        """The activity's window lost focus: an insertion toolbar closes; a selection keeps its toolbar."""
        selection = screen.selection
        if selection is not None and selection.start == selection.end:
            selection.toolbar = False

    def _items(self, screen: Screen, field: View) -> list[tuple[str, Callback]]:
        start, end = self.span(screen, field)
        items = [(CUT, self.cut), (COPY, self.copy)] if start < end and not field.password else []
        if self._clip() is not None:
            items.append((PASTE, self.paste))
        if field.value and not field.password and (start, end) != (0, len(field.value)):
            items.append((SELECT_ALL, self.select_all))
        return items

    def toolbar(self, screen: Screen, field: View, area: tuple[int, int, int, int]) -> View | None:
        """The laid-out floating toolbar for the focused, laid-out ``field``, or ``None`` when it is closed."""
        selection = screen.selection
        items = self._items(screen, field) if selection is not None and selection.toolbar else []
        if not items:
            return None
        start, end = self.span(screen, field)
        (sx, sy), (ex, ey) = caret_point(field, start), caret_point(field, end)
        bottom = ey + line_height(field.text_size)
        anchor = (sx, sy, ex, bottom) if sy == ey else (field.bounds[0], sy, field.bounds[2], bottom)
        return floating_toolbar(items, anchor, area)
