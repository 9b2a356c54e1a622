"""Clipper (``ca.zgrs.clipper``), the app AndroidWorld installs to read and write the clipboard from adb.

From github.com/majido/clipper: ``AndroidManifest.xml`` (launcher activity ``.Main``, receiver
``.ClipperReceiver`` for the actions ``clipper.get``, ``clipper.set``, ``get`` and ``set``),
``ClipperReceiver.java`` (result codes and texts), ``res/layout/main.xml`` and ``res/values/strings.xml``.
AndroidWorld (``env/adb_utils.py``) launches ``.Main`` first, because only the focused app may read the clipboard,
then runs ``am broadcast -a clipper.set -e text …`` or ``am broadcast -a clipper.get`` and presses BACK.

The manifest declares no ``targetSdkVersion``, so the activity gets the pre-Holo ``Theme``: a dark window with
the label in a title bar.
"""

from __future__ import annotations

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.intent import BroadcastResult, Intent
from android_gym.sim.ui.views import WHITE, View, column, text_view

PACKAGE = "ca.zgrs.clipper"
RECEIVER = f"{PACKAGE}.ClipperReceiver"
ACTIONS_GET, ACTIONS_SET = ("clipper.get", "get"), ("clipper.set", "set")
EXTRA_TEXT = "text"
RESULT_OK, RESULT_CANCELED = -1, 0  # android.app.Activity
COPIED = "Text is copied into clipboard."
NO_TEXT = 'No text is provided. Use -e text "text to be pasted"'
# res/values/strings.xml, after aapt collapses the runs of whitespace of the XML text.
APP_NAME = "Clipper"
STARTED = "Clipper service is started."
USAGE = ("You can now copy to or paste from clipboard using the following commands in adb shell:\n \n "
         "1. am broadcast -a clipper.set -e text 'This may be pasted now' \n 2. am broadcast -a clipper.get")
_BLACK, _TITLE_BG, _LARGE, _MEDIUM = (0, 0, 0), (66, 66, 66), 58, 47  # textAppearanceLarge/Medium: 22sp/18sp


class MainScreen(Screen):
    """``Main``: two lines of text (``main.xml``); it starts the clipboard service, which only keeps the app alive."""

    activity = f"{PACKAGE}.Main"

    def build(self) -> View:
        title = text_view(APP_NAME, resource_id="android:id/title", text_color=WHITE, background=_TITLE_BG,
                          text_size=36, padding=20)
        head = text_view(STARTED, resource_id=f"{PACKAGE}:id/head", bold=True, text_size=_LARGE, padding=52,
                         text_color=WHITE)
        sub = text_view(USAGE, resource_id=f"{PACKAGE}:id/sub", text_size=_MEDIUM, text_color=WHITE)
        return column(title, head, sub, background=_BLACK)


class Clipper(App):
    """The package; its receiver sets and reads the primary clip."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_clipper", (121, 85, 72)
    version_name, version_code = "1.1", 1  # android_gym/device/apps.toml
    screens = (MainScreen,)
    receivers = {RECEIVER: (*ACTIONS_GET, *ACTIONS_SET)}

    def on_receive(self, receiver: str, intent: Intent, result: BroadcastResult) -> None:
        """``ClipperReceiver.onReceive``: set copies the ``text`` extra into the clipboard; get returns the clip's
        text, which the clipboard service withholds (``getText()`` is null) unless Clipper has focus."""
        clipboard = self.phone.clipboard
        if intent.action in ACTIONS_SET:
            text = intent.extras.get(EXTRA_TEXT)
            if text is None:
                result.code, result.data = RESULT_CANCELED, NO_TEXT
            else:
                clipboard.set_text(text)
                result.code, result.data = RESULT_OK, COPIED
        elif intent.action in ACTIONS_GET:
            clip = clipboard.clip_for(self.package)
            result.code, result.data = (RESULT_CANCELED, "") if clip is None else (RESULT_OK, clip.text)
