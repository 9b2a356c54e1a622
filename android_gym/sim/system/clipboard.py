"""The clipboard service (AOSP ``services/core/java/com/android/server/clipboard/ClipboardService.java``).

One primary clip for the device's user. Since Android 10 only the app whose window has input focus (or the
default IME) may read it (``clipboardAccessAllowed``: "Clipboard can only be read by applications with
focus"), while any app may write it. Text copied from a ``TextView`` and set with
``android.text.ClipboardManager.setText`` is ``ClipData.newPlainText(null, text)``: a plain-text clip without a
label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ClipData:
    """A plain-text clip (``ClipData.newPlainText(label, text)``); ``label`` is ``""`` for a null label."""

    text: str
    label: str = ""


class Clipboard:
    """``ClipboardManager`` for every app of one phone: the primary clip and who may read it."""

    def __init__(self, focused_package: Callable[[], str]) -> None:
        """``focused_package`` names the package whose window has input focus."""
        self._focused_package = focused_package
        self.primary: ClipData | None = None

    def set_text(self, text: str, label: str = "") -> None:
        """``setPrimaryClip(ClipData.newPlainText(label, text))``."""
        self.primary = ClipData(text, label)

    def clip_for(self, package: str) -> ClipData | None:
        """The primary clip as ``getPrimaryClip`` returns it to ``package``: ``None`` unless that app is focused."""
        if self._focused_package() != package:
            return None
        return self.primary
