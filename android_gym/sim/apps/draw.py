"""Simple Draw Pro 6.9.3 (versionCode 79, the build AndroidWorld installs): a canvas that draws under the finger,
undo/redo, an eraser, the brush size, Clear, and Save.

Facts come from github.com/SimpleMobileTools/Simple-Draw at ``c45bf92`` ("update version to 6.9.3", ``versionCode
79``) and the Simple-Commons commit it pins (``c09f8dfda1``): ``activity_main.xml``, ``dialog_save_image.xml``,
``menu/menu.xml``, ``values/strings.xml`` and ``dimens.xml``; ``MainActivity`` (``trySaveImage``,
``onActivityResult``, ``saveToOutputStream``, ``clearCanvas``, ``onBackPressed``), ``SaveImageDialog``,
``views/MyCanvas`` (``actionDown``/``actionMove``/``actionUp``: a path of ``moveTo``, ``quadTo`` and ``lineTo``, a
tap drawn as a dot; strokes with round caps; ``getBitmap`` paints white under the canvas), ``models/Svg``
(``writeSvg``), ``models/PaintOptions`` and ``helpers/Config`` (brush colour ``color_primary`` #F57C00, brush size
40 of ``full_brush_size`` 40 dp, white canvas, ``last_save_extension``).

Saving is Android 13's: ``trySaveImage`` on Android Q and later shows "Save as" with the file name and the
extension only (``hidePath``), then asks DocumentsUI where to create the document (``ACTION_CREATE_DOCUMENT`` with
``EXTRA_TITLE`` "name.ext"); the app writes the canvas into the created document: a PNG (quality 100), a JPEG
(quality 70) or the strokes as SVG paths. The picker is ``files.CreateDocumentActivity``, DocumentsUI's
``PickActivity`` in create mode with its ``SaveFragment`` (the document's name and Save); it opens on DocumentsUI's
default root, Downloads. A name whose extension does not match the MIME type gets the type's extension, and a
taken name becomes "name (1).ext" (``FileUtils.buildUniqueFile``).

Not simulated: the colour picker, eyedropper and bucket fill (their buttons are drawn, and do nothing), Share, the
overflow menu (open file, background colour, print, settings, about), zooming and moving the canvas, opening
images sent to the app, the brush size preview's scaling, the brush size and colour surviving a restart,
replacing an existing document by tapping it in the picker (files are listed disabled), and toasts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from android_gym.sim.apps import files
from android_gym.sim.apps.commons import (
    COLOR_PRIMARY,
    DARK_GREY,
    DAY_COLORS,
    DIALOG_BACKGROUND,
    NAVIGATION_BAR_COLOR,
    NIGHT_COLORS,
    PRIMARY,
    TOP_BAR,
    Release,
    start_up_dialogs,
    valid_name,
)
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.window import STATUS_BAR_HEIGHT
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.ui.dialogs import alert_dialog, confirm_dialog, dialog_over, dialog_scroll_view
from android_gym.sim.ui.views import (
    TEXT,
    Callback,
    Color,
    View,
    column,
    does_nothing,
    drawing_surface,
    edit_text,
    outlined_field,
    row,
    seek_bar,
)

PACKAGE = "com.simplemobiletools.draw.pro"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/Prefs.xml"  # Commons BaseConfig: PREFS_KEY = "Prefs"
#: The newest of ``MainActivity.checkWhatsNewDialog``'s releases (``res/values/strings.xml`` ``release_38``).
RELEASES = (Release(38, "Added optional zooming, has to be enabled in the app settings"),)
PNG, SVG, JPG = "png", "svg", "jpg"  # helpers/Constants.kt
ACTION_CREATE_DOCUMENT = "android.intent.action.CREATE_DOCUMENT"

# values/strings.xml (the app's and Commons')
APP_NAME, APP_LAUNCHER_NAME = "Simple Draw", "Draw"
SAVE, CLEAR, UNDO, REDO, ERASER = "Save", "Clear", "Undo", "Redo", "Eraser"
BUCKET_FILL, EYEDROPPER, CHANGE_COLOR = "Bucket fill", "Eyedropper", "Change color"
SAVE_AS, FILENAME, OK, CANCEL, DISCARD = "Save as", "Filename", "OK", "Cancel", "Discard"
SAVE_BEFORE_CLOSING = "You have unsaved changes. Save before exit?"
STROKE_WIDTH = "stroke_width_bar"

BRUSH_COLOR: Color = COLOR_PRIMARY
FULL_BRUSH_SIZE = 105.0  # full_brush_size 40 dp at 420 dpi
DEFAULT_BRUSH_SIZE = 40  # Config.brushSize
MIN_BRUSH_SIZE, MAX_BRUSH_SIZE = 5, 100  # stroke_width_bar min and max
BACKGROUND: Color = (255, 255, 255)  # Config.canvasBackgroundColor
JPEG_QUALITY = 70  # saveToOutputStream: PNG at 100, anything else at 70
MIN_ERASER_WIDTH = 20.0  # MyCanvas

_BAR, _ICON = 147, 126  # actionBarSize 56 dp, normal_icon_size 48 dp
_BIGGER = 42  # bigger_text_size 16 sp
_MIME_TYPES = {PNG: "image/png", SVG: "image/svg+xml", JPG: "image/jpg"}  # trySaveImage: "image/$mimetype"


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- the drawing ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stroke:
    """One finger stroke (``MyPath`` with its ``PaintOptions``): where the finger went down and came up."""

    start: tuple[float, float]
    end: tuple[float, float]
    color: Color
    width: float
    eraser: bool = False

    @property
    def is_dot(self) -> bool:
        """A touch that did not move: ``drawADot``."""
        return self.start == self.end

    def svg_path(self) -> str:
        """The path's ``d`` as ``MyPath`` writes its actions (``M``, ``Q``, ``L``), each followed by a space."""
        (x1, y1), (x2, y2) = self.start, self.end
        if self.is_dot:
            actions = [f"M{_f(x1)},{_f(y1)}", f"L{_f(x1)},{_f(y1)}", f"L{_f(x1)},{_f(y1 + 2)}",
                       f"L{_f(x1 + 1)},{_f(y1 + 2)}", f"L{_f(x1 + 1)},{_f(y1)}"]
        else:
            actions = [f"M{_f(x1)},{_f(y1)}", f"Q{_f(x1)},{_f(y1)} {_f((x1 + x2) / 2)},{_f((y1 + y2) / 2)}",
                       f"L{_f(x2)},{_f(y2)}"]
        return "".join(action + " " for action in actions)


def _f(value: float) -> str:
    """A Kotlin ``Float.toString``: always with a fraction (``12.0``)."""
    return repr(float(value))


def _hex(color: Color) -> str:
    return "#" + "".join(f"{part:02x}" for part in color)


def render(strokes: list[Stroke], size: tuple[int, int], background: Color = BACKGROUND) -> Image.Image:
    """``getBitmap``: the canvas's background and its strokes (round caps; an eraser paints the background)."""
    image = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(image)
    for stroke in strokes:
        color = background if stroke.eraser else stroke.color
        width = max(stroke.width, MIN_ERASER_WIDTH) if stroke.eraser else stroke.width
        radius = width / 2
        (x1, y1), (x2, y2) = stroke.start, stroke.end
        if not stroke.is_dot:
            draw.line((x1, y1, x2, y2), fill=color, width=round(width))
        for x, y in (stroke.start, stroke.end):
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=color)
    return image


@lru_cache(maxsize=1)
def canvas_picture(strokes: tuple[Stroke, ...], size: tuple[int, int]) -> Image.Image:
    """The canvas's pixels (``render``), the last drawing's kept: phones showing the same one (a blank canvas) share
    them rather than each keeping its own (~9 MB at 1080x2400)."""
    return render(list(strokes), size)


def svg_document(strokes: list[Stroke], size: tuple[int, int], background: Color = BACKGROUND) -> str:
    """``Svg.writeSvg``: the canvas size, a background ``rect`` and one ``path`` per stroke (an eraser's stroke is
    ``none``)."""
    width, height = size
    parts = [f'<svg width="{width}" height="{height}" xmlns="http://www.w3.org/2000/svg">',
             f'<rect width="{width}" height="{height}" fill="{_hex(background)}"/>']
    for stroke in strokes:
        color = "none" if stroke.eraser else _hex(stroke.color)
        parts.append(f'<path d="{stroke.svg_path()}" fill="none" stroke="{color}" stroke-width="{_f(stroke.width)}" '
                     'stroke-linecap="round"/>')
    parts.append("</svg>")
    return "".join(parts)


def encode(strokes: list[Stroke], size: tuple[int, int], extension: str) -> bytes:
    """The document's bytes: SVG text, or the bitmap compressed as PNG or JPEG (``getCompressionFormat``)."""
    if extension == SVG:
        return svg_document(strokes, size).encode()
    buffer = io.BytesIO()
    image = render(strokes, size)
    if extension == PNG:
        image.save(buffer, format="PNG")
    else:
        image.save(buffer, format="JPEG", quality=JPEG_QUALITY)
    return buffer.getvalue()


# ----- the app --------------------------------------------------------------------------------------------------
class MainScreen(Screen):
    """``MainActivity``: the toolbar (Save, Clear), the canvas with undo/redo, the eraser and the brush size, the
    "Save as" dialog and the unsaved-changes question on BACK."""

    activity = f"{PACKAGE}.activities.MainActivity"
    FILENAME_KEY = "save_image_filename"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.strokes: list[Stroke] = []
        self.undone: list[Stroke] = []
        self.eraser = False
        self.brush_size = DEFAULT_BRUSH_SIZE
        self.version = 0  # bumped on every change of the drawing (names the canvas's pixels)
        self.saved_version = 0  # savedPathsHash
        self.prompted_version = -1  # lastSavePromptTS: the question is asked once per state of the drawing
        start_up_dialogs(self, self.app.prefs, RELEASES)  # onCreate's appLaunched and checkWhatsNewDialog
        self.popup = ""  # "", "save" or "unsaved"
        self.filename, self.extension = "", PNG
        self.default_filename = ""

    @property
    def draw_app(self) -> SimpleDraw:
        """The app."""
        assert isinstance(self.app, SimpleDraw)
        return self.app

    @property
    def canvas_size(self) -> tuple[int, int]:
        """``my_canvas``: the screen's width, the height under the toolbar (without the keyboard)."""
        height = self.phone.window.design_height - STATUS_BAR_HEIGHT - self.phone.window.nav_bar_height - _BAR
        return self.phone.window.design_width, height

    # ----- drawing --------------------------------------------------------------------------------------------
    def _changed(self) -> None:
        self.version += 1

    def _drag(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A stroke from where the finger went down to where it came up, with the current paint."""
        width = FULL_BRUSH_SIZE * max(self.brush_size, MIN_BRUSH_SIZE) / 100
        self.strokes.append(Stroke((x1, y1), (x2, y2), BRUSH_COLOR, width, self.eraser))
        self.undone.clear()
        self._changed()

    def _undo(self) -> None:
        if self.strokes:
            self.undone.append(self.strokes.pop())
            self._changed()

    def _redo(self) -> None:
        if self.undone:
            self.strokes.append(self.undone.pop())
            self._changed()

    def _toggle_eraser(self) -> None:
        self.eraser = not self.eraser

    def _set_brush_size(self, progress: int) -> None:
        self.brush_size = max(progress, MIN_BRUSH_SIZE)

    def _clear(self) -> None:
        """``clearCanvas``: the strokes go (undo cannot bring them back here), the save defaults reset."""
        self.strokes.clear()
        self.undone.clear()
        self.default_filename = ""
        self._changed()

    # ----- saving ---------------------------------------------------------------------------------------------
    def _ask_save(self) -> None:
        """``SaveImageDialog`` (``hidePath``): the name (``image_<date>`` by default) and the extension."""
        stamp = self.phone.clock.now().strftime("%Y_%m_%d_%H_%M_%S")
        self.filename = self.default_filename or f"image_{stamp}"
        self.extension = self.draw_app.last_save_extension or PNG
        self.popup = "save"
        self.focus_key, self.keyboard_shown = self.FILENAME_KEY, True

    def _set_filename(self, text: str) -> None:
        self.filename = text

    def _close_popup(self) -> None:
        self.popup = ""
        self.focus_key, self.keyboard_shown = "", False

    def _confirm_save(self) -> None:
        """OK: an empty or invalid name keeps the dialog (a toast); otherwise DocumentsUI is asked to create
        ``name.ext``."""
        name = f"{self.filename}.{self.extension}"
        if not self.filename or not valid_name(name):
            return
        self.default_filename = self.filename
        self.draw_app.set_last_save_extension(self.extension)
        self._close_popup()
        documents = self.phone.packages.get(files.PACKAGE)
        assert documents is not None
        intent = Intent(action=ACTION_CREATE_DOCUMENT, mime_type=_MIME_TYPES[self.extension],
                        categories=("android.intent.category.OPENABLE",), extras={files.EXTRA_TITLE: name})
        picker = self.phone.activities.push(documents, files.CreateDocumentActivity, intent)
        assert isinstance(picker, files.CreateDocumentActivity)
        extension, drawing = self.extension, list(self.strokes)
        picker.on_created = lambda: self._write(picker.created, extension, drawing)

    def _write(self, path: str, extension: str, strokes: list[Stroke]) -> None:
        """``onActivityResult``: the drawing into the created document."""
        self.phone.fs.write_bytes(path, encode(strokes, self.canvas_size, extension))
        self.saved_version = self.version

    def on_back(self) -> bool:
        """A dialog closes; unsaved changes ask "Save before exit?" (``ConfirmationAdvancedDialog``), once: BACK
        again leaves."""
        if self.popup:
            self._close_popup()
            return True
        if self.version not in (self.saved_version, self.prompted_version) and self.strokes:
            self.popup, self.prompted_version = "unsaved", self.version
            return True
        return False

    def _discard(self) -> None:
        self._close_popup()
        self.finish()

    def _save_from_prompt(self) -> None:
        self._close_popup()
        self._ask_save()

    # ----- views ------------------------------------------------------------------------------------------------
    def build(self) -> View:
        toolbar = View(kind="row", class_name="android.view.ViewGroup", resource_id=_id("main_toolbar"), height=_BAR,
                       background=TOP_BAR, children=[
                           View(weight=1), _menu_item("menu_save", SAVE, "check", self._ask_save),
                           _menu_item("clear", CLEAR, "delete", self._clear)])
        drawing = tuple(self.strokes), self.canvas_size
        canvas = drawing_surface(self._drag, partial(canvas_picture, *drawing), f"canvas:{hash(drawing)}",
                                 resource_id=_id("my_canvas"), gravity="fill", background=BACKGROUND)
        tools = [View(weight=1)]
        if self.undone:
            tools.append(_image_button("redo", REDO, "redo", self._redo))
        tools += [_image_button("bucket_fill", BUCKET_FILL, "bucket_fill", does_nothing),
                  _image_button("eraser", ERASER, "eraser", self._toggle_eraser, selected=self.eraser),
                  _image_button("eye_dropper", EYEDROPPER, "eyedropper", does_nothing), _color_picker()]
        corner = column(row(*tools), row(View(weight=1), _image_button("undo", UNDO, "undo", self._undo))
                        if self.strokes else View(height=0), gravity="top")
        size = column(
            row(View(weight=1), View(kind="icon", class_name="android.widget.ImageView",
                                     resource_id=_id("stroke_width_preview"), hint="dot", width=105, height=105,
                                     text_color=BRUSH_COLOR), View(weight=1)),
            row(View(weight=1), seek_bar(self.brush_size, MAX_BRUSH_SIZE, self._set_brush_size,
                                         resource_id=_id(STROKE_WIDTH), width=394, padding=21), View(weight=1)),
            gravity="bottom", margin=31)
        holder = View(kind="frame", class_name="android.widget.RelativeLayout", resource_id=_id("main_holder"),
                      weight=1, children=[canvas, corner, size])
        content = View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                       resource_id=_id("main_coordinator"), gravity="fill", children=[toolbar, holder])
        if self.popup == "save":
            return dialog_over(content, self._save_dialog(), self._close_popup)
        if self.popup == "unsaved":
            return dialog_over(content, confirm_dialog(SAVE_BEFORE_CLOSING, DISCARD, self._discard, SAVE,
                                                       self._save_from_prompt,
                                                       background=DIALOG_BACKGROUND), self._close_popup)
        return content

    def _save_dialog(self) -> View:
        """``dialog_save_image`` with the folder hidden (its holder in the ScrollView ``save_image_wrapper``)."""
        field = outlined_field(edit_text(self.filename, FILENAME, self.FILENAME_KEY, self._set_filename,
                                         resource_id=_id(self.FILENAME_KEY), text_size=_BIGGER),
                               resource_id=_id("save_image_filename_hint"))
        radios = [View(kind="text", class_name="android.widget.RadioButton", resource_id=_id(f"save_image_radio_{ext}"),
                       text=f".{ext}", checkable=True, checked=ext == self.extension, clickable=True, focusable=True,
                       on_click=lambda ext=ext: setattr(self, "extension", ext), text_size=_BIGGER, padding=26,
                       text_color=PRIMARY if ext == self.extension else TEXT)
                  for ext in (PNG, SVG, JPG)]
        holder = column(field, column(*radios, resource_id=_id("save_image_radio_group")),
                        resource_id=_id("save_image_holder"), padding=42, spacing=21)
        body = [dialog_scroll_view(holder, "save_image", resource_id=_id("save_image_wrapper"))]
        return alert_dialog(body, [("button2", CANCEL, self._close_popup), ("button1", OK, self._confirm_save)],
                            title=SAVE_AS, package=PACKAGE, background=DIALOG_BACKGROUND)


def _menu_item(name: str, title: str, icon: str, on_click: Callback) -> View:
    """A toolbar action (``ActionMenuItemView``: a Button described by its title)."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=_id(name), content_desc=title, hint=icon,
                clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_ICON, height=_ICON,
                text_color=DARK_GREY)


def _color_picker() -> View:
    """``color_picker``: filled with the brush colour, a rectangle (``setFillWithStroke(color, canvas colour,
    drawRectangle = true)``: no stroke, the colours differ); the colour picker it opens is not simulated."""
    return View(class_name="android.widget.ImageView", resource_id=_id("color_picker"), content_desc=CHANGE_COLOR,
                clickable=True, focusable=True, on_click=does_nothing, width=_ICON, height=_ICON,
                background=BRUSH_COLOR)


def _image_button(name: str, content_desc: str, icon: str, on_click: Callback, selected: bool = False) -> View:
    """One of the canvas's ``ImageView`` tools, tinted as ``setBackgroundColor`` and ``updateButtonColor`` tint them,
    by day and by night: the canvas colour's contrast colour (``DARK_GREY`` on the white canvas), a tool that is on
    (the eraser) the primary colour."""
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name), content_desc=content_desc,
                hint=icon, clickable=True, focusable=True, long_clickable=True, on_click=on_click, width=_ICON,
                height=_ICON, selected=selected, text_color=PRIMARY if selected else DARK_GREY)


class SimpleDraw(App):
    """``com.simplemobiletools.draw.pro``; the launcher's ``SplashActivity`` hands over to ``MainActivity``."""

    package = PACKAGE
    night_colors = NIGHT_COLORS  # Simple-Commons' system theme (see commons.NIGHT_COLORS)
    day_colors = DAY_COLORS  # the system theme's text colour
    navigation_bar_color = NAVIGATION_BAR_COLOR
    label = APP_LAUNCHER_NAME
    icon, icon_color = "app_draw", (245, 124, 0)
    version_name, version_code = "6.9.3", 79  # android_gym/device/apps.toml
    screens = (MainScreen,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    @property
    def last_save_extension(self) -> str:
        """``Config.lastSaveExtension`` (``last_save_extension``), empty at first."""
        return self.prefs.get("last_save_extension", "")

    def set_last_save_extension(self, extension: str) -> None:
        """Remember the extension picked in "Save as"."""
        self.prefs.apply({"last_save_extension": ("string", extension)})

    def on_force_stop(self) -> None:
        """The process dies: the drawing (in its activity) and the in-memory preferences go."""
        self.prefs.forget()

    def on_clear(self) -> None:
        """``pm clear``: default preferences."""
        self.prefs.forget()

