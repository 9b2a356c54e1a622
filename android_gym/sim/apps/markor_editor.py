"""Markor's editor (``DocumentActivity`` with ``DocumentEditAndViewFragment``), the settings both Markor modules
read, and the toolbar pieces they share. The file browser and the app are in ``markor``.

Facts come from github.com/gsantner/markor at ``ab2175460`` ("Markor v2.10.9", versionCode 146, the build
AndroidWorld installs): ``activity/DocumentActivity.java``, ``activity/DocumentEditAndViewFragment.java``,
``model/Document.java``, ``model/AppSettings.java``, ``opoc/util/GsFileUtils.java``, ``res/layout/
document__activity.xml``, ``document__fragment__edit.xml``, ``res/menu/document__edit__menu.xml`` and
``res/values/strings.xml``.

* Opening a file loads it as UTF-8 (a byte-order mark is kept aside and written back); the editor takes focus with
  the caret where it was left (the end the first time); the soft keyboard stays as it was (``stateUnchanged``).
* Saving writes exactly the editor's text (no newline is added). The fragment saves when it pauses (leaving the
  editor, HOME, the share sheet) and before sharing, skipping unchanged text and, for these automatic saves, texts
  shorter than 2 characters (``TEXTFILE_OVERWRITE_MIN_TEXT_LENGTH``), so a new empty file stays empty; the Save
  action saves whatever is there. An automatic save of text with fewer than 2 non-blank characters fails and puts
  the text on the clipboard (``errorClipText``). Returning to the editor reloads a file changed on disk.
* The toolbar has Undo, Redo (whole edits), View mode / Edit mode and Save (greyed out while nothing changed); the
  overflow has Share ▸ Plain Text (``shareText``: the share sheet with the text) and Reload.
* The caret: a tap puts it at the end of the text (the toolkit does not place it under the finger); a long press
  on a word selects it, on empty space (left of the first line: the start of the text) it puts the caret there.
  Typing goes in at the caret, so append by tapping, prepend by long-pressing left of the first character.

Not simulated: the text-actions bar (formatting buttons) and auto-format, syntax highlighting, search, the
headline dialog a title tap opens, File settings, Tools, Info, sharing as file/HTML/image/PDF/calendar, the
Markdown rendering of View mode (it shows the plain text), encryption, the document's own task in recents and
toasts. The app has no rename in the editor (rename is in the file browser).
"""

from __future__ import annotations

import posixpath

from android_gym.sim.apps.intentresolver import EXTRA_TEXT, share
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.window import KEYBOARD_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import popup_menu
from android_gym.sim.ui.layout import measure_height
from android_gym.sim.ui.selection import TextSelection
from android_gym.sim.ui.views import DIVIDER, WHITE, Callback, Color, View, column, edit_text, text_view

PACKAGE = "net.gsantner.markor"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/app.xml"  # GsSharedPreferencesPropertyBackend.SHARED_PREF_APP
EXTRA_PATH = "EXTRA_PATH"  # Document.EXTRA_PATH (the app passes a File)
MIN_LENGTH = 2  # GsContextUtils.TEXTFILE_OVERWRITE_MIN_TEXT_LENGTH
_JAVA_BLANKS = "".join(chr(c) for c in range(33))  # TextUtils.getTrimmedLength trims chars <= ' '

# res/values/strings.xml
UNDO, REDO, SAVE, VIEW_MODE, EDIT_MODE = "Undo", "Redo", "Save", "View mode", "Edit mode"
SHARE, PLAIN_TEXT, RELOAD = "Share", "Plain Text", "Reload"
MORE_OPTIONS = "More options"  # AppCompat abc_action_menu_overflow_description

PRIMARY: Color = (0x1E, 0x21, 0x35)  # res/values/colors.xml at v2.10.9: primary (toolbar, bottom bar)
ACCENT: Color = (0xF0, 0x4B, 0x4B)  # colors.xml accent (colorAccent: the FAB, dialog buttons, the checked tab)
#: colors.xml ``background`` (light__background): AppTheme.Unified's ``android:windowBackground``, behind the file
#: list and the editor (document__fragment__edit.xml's ``android:background``).
BACKGROUND: Color = (0xEE, 0xEE, 0xEE)
BAR = 147  # ?attr/actionBarSize, 56 dp at 420 dpi
TITLE_SIZE, MENU_SIZE, EDITOR_SIZE = 52, 42, 42  # 20sp toolbar title, 16sp menu items, editor text
_MARGIN = 42  # activity_horizontal_margin / activity_vertical_margin, 16 dp


def res_id(name: str) -> str:
    """A resource id of the app."""
    return f"{PACKAGE}:id/{name}"


# ----- settings ------------------------------------------------------------------------------------------------
class Settings:
    """``AppSettings`` on ``shared_prefs/app.xml``: the keys the simulated screens read and write."""

    def __init__(self, phone: Context) -> None:
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    def get(self, key: str, default: str | int | bool) -> str | int | bool:
        """A value, else ``default``."""
        return self.prefs.get(key, default)

    def put(self, key: str, value: str | int | bool) -> None:
        """Store a value (the kind follows the Python type, as ``setString``/``setInt``/``setBool`` do)."""
        kind = "boolean" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
        self.prefs.apply({key: (kind, value)})

    def edit_position(self, path: str, default: int) -> int:
        """``getLastEditPosition``: where the caret was left in a file."""
        return int(self.get("PREF_PREFIX_EDIT_POS_CHAR" + path, default))

    def set_edit_position(self, path: str, position: int) -> None:
        """``setLastEditPosition``."""
        self.put("PREF_PREFIX_EDIT_POS_CHAR" + path, position)


class MarkorBase(App):
    """What the editor needs of the app: its settings (the app class itself is ``markor.Markor``)."""

    package = PACKAGE
    label = "Markor"
    icon, icon_color = "app_markor", (63, 81, 181)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.settings = Settings(phone)

    def on_force_stop(self) -> None:
        """The process died: settings are read from the file again."""
        self.settings.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear`` deleted ``app.xml``: defaults again."""
        self.settings.prefs.forget()


def settings_of(screen: Screen) -> Settings:
    """The settings of the Markor app ``screen`` belongs to."""
    app = screen.app
    assert isinstance(app, MarkorBase)
    return app.settings


# ----- the document ----------------------------------------------------------------------------------------------
_BOM = b"\xef\xbb\xbf"


def read_text(phone: Context, path: str) -> str:
    """``GsFileUtils.readTextFileFast``: the file as UTF-8 without its byte-order mark ("" if unreadable)."""
    try:
        data = phone.fs.read_bytes(path)
    except OSError:
        return ""
    return data.removeprefix(_BOM).decode("utf-8", errors="replace")


class Document:
    """A text file in an editor: ``Document`` (load, save) with the fragment's save rules and its undo history
    (``TextViewUndoRedo``, one step per edit)."""

    def __init__(self, phone: Context, path: str) -> None:
        self.phone, self.path = phone, path
        self.text = ""
        self._saved = ""  # the content last loaded or saved (isContentSame)
        self._on_disk: bytes | None = None  # the bytes last loaded or written (hasFileChangedSinceLastLoad)
        self._bom = False
        self.undo_stack: list[str] = []
        self.redo_stack: list[str] = []

    @property
    def title(self) -> str:
        """``GsFileUtils.getFilenameWithoutExtension``."""
        name = posixpath.basename(self.path)
        return name[:name.rfind(".")] if "." in name else name

    @property
    def changed(self) -> bool:
        """Whether the text differs from what was loaded or saved."""
        return self.text != self._saved

    def _read(self) -> bytes:
        try:
            return self.phone.fs.read_bytes(self.path)
        except OSError:
            return b""

    def load(self) -> bool:
        """``loadDocument``: (re)read the file if it changed since the last load or save; whether the text was
        replaced (the history is cleared then)."""
        data = self._read()
        if data == self._on_disk:
            return False
        self._on_disk = data
        self._bom = data.startswith(_BOM)
        content = data[len(_BOM):] if self._bom else data
        self._saved = content.decode("utf-8", errors="replace")
        if self._saved == self.text:
            return False
        self.text = self._saved
        self.undo_stack.clear()
        self.redo_stack.clear()
        return True

    def reload(self) -> None:
        """``action_reload`` (``resetChangeTracking`` + ``loadDocument``): read the file again, whatever the
        editor holds."""
        self._on_disk = None
        self.load()

    def edit(self, text: str) -> None:
        """The user changed the text: one undo step."""
        if text != self.text:
            self.undo_stack.append(self.text)
            self.redo_stack.clear()
            self.text = text

    def undo(self) -> None:
        """``action_undo``."""
        if self.undo_stack:
            self.redo_stack.append(self.text)
            self.text = self.undo_stack.pop()

    def redo(self) -> None:
        """``action_redo``."""
        if self.redo_stack:
            self.undo_stack.append(self.text)
            self.text = self.redo_stack.pop()

    def save(self, force: bool = False) -> bool:
        """``saveDocument(forceSaveEmpty)``: write the text unless unchanged, or (automatic saves) too short."""
        if not self.changed or not self.path:
            return bool(self.path)
        if not force and len(self.text) < MIN_LENGTH:
            return True  # a toast: "Files with fewer than 2 characters not saved automatically …"
        if not force and len(self.text.strip(_JAVA_BLANKS)) < MIN_LENGTH:
            self.phone.clipboard.set_text(self.text)  # saveContent refused: errorClipText
            return False
        data = (_BOM if self._bom else b"") + self.text.encode("utf-8")
        self.phone.fs.makedirs(posixpath.dirname(self.path))  # testCreateParent
        self.phone.fs.write_bytes(self.path, data)
        self._saved, self._on_disk = self.text, data
        return True


# ----- shared toolbar pieces ------------------------------------------------------------------------------------
def bar(*children: View, **props) -> View:
    """An AppCompat ``Toolbar`` in the primary colour."""
    return View(kind="row", class_name="android.view.ViewGroup", children=list(children), height=BAR,
                background=PRIMARY, **props)


def bar_title(text: str, **props) -> View:
    """The toolbar's title."""
    return text_view(text, weight=1, text_color=WHITE, text_size=TITLE_SIZE, bold=True, padding=40, **props)


def action(name: str, title: str, icon: str, on_click: Callback, enabled: bool = True) -> View:
    """A menu item shown in the toolbar (``ActionMenuItemView``, reported as a Button, described by its title)."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=res_id(name), content_desc=title,
                hint=icon, clickable=True, focusable=True, long_clickable=True, enabled=enabled, on_click=on_click,
                width=BAR, height=BAR, text_color=WHITE if enabled else DIVIDER)


def overflow(on_click: Callback) -> View:
    """The toolbar's overflow button (``ActionMenuPresenter.OverflowMenuButton``)."""
    return View(kind="icon", class_name="android.widget.ImageView", content_desc=MORE_OPTIONS, hint="more",
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=BAR, height=BAR,
                text_color=WHITE)




def editor_field(document: Document, key: str, width: int, height: int) -> View:
    """The ``HighlightingEditor`` in its ``width`` px wide scroll view, at least ``height`` tall (``fillViewport``): a
    tap anywhere below the text focuses it. It has the window's colour (``BACKGROUND``), so no EditText underline."""
    field = edit_text(document.text, "", key, document.edit, multiline=True, text_size=EDITOR_SIZE,
                      padding=_MARGIN, resource_id=res_id("document__fragment__edit__highlighting_editor"))
    field.underline = False  # document__fragment__edit.xml: android:background="@color/background"
    field.height = max(measure_height(field, width), height)
    return View(kind="list", class_name="android.widget.ScrollView", key=key + "_scroll", children=[field],
                resource_id=res_id("document__fragment__edit__content_editor__scrolling_parent"), scrollable=True,
                focusable=True, weight=1, background=BACKGROUND)


def viewport(screen: Screen, above: int) -> int:
    """The height left for content under ``above`` px of bars, over the keyboard when it is up."""
    keyboard = KEYBOARD_HEIGHT if screen.focus_key and screen.keyboard_shown else 0
    return screen.phone.window.design_height - STATUS_BAR_HEIGHT - screen.phone.window.nav_bar_height - keyboard - above


# ----- the editor activity ---------------------------------------------------------------------------------------
class DocumentScreen(Screen):
    """``DocumentActivity`` showing one file (``EXTRA_PATH``) in ``DocumentEditAndViewFragment``."""

    activity = f"{PACKAGE}.activity.DocumentActivity"
    FIELD = "document__fragment__edit__highlighting_editor"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.document = Document(self.phone, intent.extras.get(EXTRA_PATH, ""))
        self.document.load()
        self.preview = False
        self.popup = ""  # "", "menu" (overflow) or "share" (its Share submenu)
        # onFragmentFirstTimeVisible: the editor takes focus, the caret where it was left; stateUnchanged keeps
        # the keyboard as the previous window had it.
        below = self.phone.activities.top
        self.keyboard_shown = below.keyboard_shown and bool(below.focus_key)
        self.focus_key = self.FIELD
        self._place_caret()

    def _place_caret(self) -> None:
        size = len(self.document.text)
        position = min(max(settings_of(self).edit_position(self.document.path, size), 0), size)
        self.selection = None if position == size else TextSelection(position, position)

    def on_resume(self) -> None:
        """``onResume``: reload the file if it changed on disk."""
        self.document.load()

    def on_pause(self) -> None:
        """``onPause``: save, remember the caret."""
        self.document.save()
        position = self.selection.start if self.selection is not None else len(self.document.text)
        if self.phone.fs.exists(self.document.path):
            settings_of(self).set_edit_position(self.document.path, position)

    def on_back(self) -> bool:
        """An open menu closes first; then the activity finishes (``finishAndRemoveTask``)."""
        if self.popup:
            self.popup = ""
            return True
        return False

    def _set_popup(self, popup: str) -> None:
        self.popup = popup

    def _toggle_preview(self) -> None:
        """``setViewModeVisibility``: View mode hides the keyboard and takes focus from the editor."""
        self.preview = not self.preview
        if self.preview:
            self.focus_key, self.keyboard_shown = "", False

    def _save(self) -> None:
        self.document.save(force=True)

    def _reload(self) -> None:
        """``action_reload``."""
        self.popup = ""
        self.document.reload()

    def _share_text(self) -> None:
        """``action_share_text``: save, then the share sheet with the text (``text/plain``)."""
        self.popup = ""
        if self.document.save():
            share(self, Intent(action="android.intent.action.SEND", mime_type="text/plain",
                               extras={EXTRA_TEXT: self.document.text}))

    def build(self) -> View:
        doc = self.document
        title = text_view(doc.title, resource_id=res_id("note__activity__text_note_title"), weight=1,
                          text_color=WHITE, text_size=TITLE_SIZE, padding=40, single_line=True)
        actions = [title]
        if not self.preview:
            actions += [action("action_undo", UNDO, "undo", doc.undo, bool(doc.undo_stack)),
                        action("action_redo", REDO, "redo", doc.redo, bool(doc.redo_stack)),
                        action("action_preview", VIEW_MODE, "eye", self._toggle_preview),
                        action("action_save", SAVE, "save_filled", self._save, doc.changed)]
        else:
            actions.append(action("action_edit", EDIT_MODE, "edit_filled", self._toggle_preview))
        actions.append(overflow(lambda: self._set_popup("menu")))
        toolbar = bar(*actions, resource_id=res_id("toolbar"))
        if self.preview:
            body = View(kind="list", class_name="android.webkit.WebView", key="webview", scrollable=True,
                        resource_id=res_id("document__fragment_view_webview"), weight=1,
                        children=[text_view(doc.text, text_size=EDITOR_SIZE, padding=_MARGIN)])
        else:
            body = editor_field(doc, self.FIELD, self.phone.window.design_width, viewport(self, BAR))
        content = column(toolbar, body, gravity="fill")
        if self.popup == "menu":
            return popup_menu(content, [(SHARE, lambda: self._set_popup("share")), (RELOAD, self._reload)],
                              lambda: self._set_popup(""), PACKAGE, text_size=MENU_SIZE)
        if self.popup == "share":
            return popup_menu(content, [(PLAIN_TEXT, self._share_text)], lambda: self._set_popup(""), PACKAGE,
                              text_size=MENU_SIZE)
        return content
