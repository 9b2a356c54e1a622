"""Material Components' ``MaterialTimePicker`` in its Material 3 style, as apps on Android 13 show it (Simple
Calendar's event times, the Clock's new alarm).

Strings, ids and sizes come from material-components-android ``lib/java/com/google/android/material/timepicker``
(1.9): ``material_timepicker_dialog.xml`` (``header_title``, the mode, Cancel and OK buttons),
``material_clock_display.xml`` (the hour and minute chips), ``material_clock_period_toggle.xml`` (AM and PM),
``material_textinput_timepicker.xml``, ``values/strings.xml`` and ``values/dimens.xml`` (a 256 dp dial, a 2 dp hand
ending in a 48 dp selector, a 4 dp centre dot), and ``styles.xml``'s ``Widget.Material3.MaterialTimePicker.*``
colour roles: the chips ``colorPrimaryContainer`` when chosen and ``colorSurfaceVariant`` when not, the period
toggle outlined in ``colorOutline`` with its chosen half ``colorTertiaryContainer``, the dial ``colorSurfaceVariant``,
the hand ``colorPrimary``, a number ``colorOnPrimary`` under the selector and ``colorOnSurface`` elsewhere, the
title ``colorOnSurfaceVariant``. The roles take the tones of Android 13's default (Google blue) system palette,
the ones ``looks.MATERIAL_YOU_NIGHT`` names; the dialog's surface is ``colorSurface`` with the elevation overlay of a
6 dp dialog (``colorPrimary`` at 11 %). ``ClockFaceView`` (a ``RadialViewGroup``) places its numbers on a circle,
the 24-hour dial's second twelve on an inner one (``LEVEL_RADIUS_RATIO`` 0.66), each a ``TextView`` the dump shows
clickable (its accessibility delegate's click is a touch on the hand at its middle); a touch anywhere on the dial
goes to ``ClockHandView``, which picks the value by the angle where it ends (``TimePickerClockPresenter``: a tap on
the hours picks the nearest hour and moves on to the minutes, one on the minutes the nearest five, a drag the minute
under the finger) and is drawn between the centre and the chosen value.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from android_gym.sim.framework.display import dp
from android_gym.sim.ui.dialogs import dialog_button
from android_gym.sim.ui.views import LAYOUT_ONLY, WHITE, Callback, Color, View, column, edit_text, over, row, text_view

if TYPE_CHECKING:
    from android_gym.sim.framework.app import Screen

# timepicker/res/values/strings.xml
SELECT_TIME, HOUR_LABEL, MINUTE_LABEL, AM, PM = "Select time", "Hour", "Minute", "AM", "PM"
TEXT_INPUT_MODE = "Switch to text input mode for the time input."
CLOCK_MODE = "Switch to clock mode for the time input."
CANCEL, OK = "Cancel", "OK"  # mtrl_timepicker_cancel, mtrl_timepicker_confirm
HOUR_SUFFIX, HOUR_24_SUFFIX, MINUTE_SUFFIX = "{} o'clock", "{} hours", "{} minutes"
#: ``TimePickerClockPresenter``'s ``HOUR_CLOCK_VALUES``, ``HOUR_CLOCK_24_VALUES`` and ``MINUTE_CLOCK_VALUES``, in
#: the dial's order from the top, clockwise.
HOUR_VALUES_12 = ("12", *(str(hour) for hour in range(1, 12)))
HOUR_VALUES_24 = ("00", *(str(hour) for hour in range(1, 24)))
MINUTE_VALUES = tuple(f"{minute:02d}" for minute in range(0, 60, 5))

_WIDTH = dp(328)  # the dialog: 24 dp margins round the 256 dp dial, 24 dp more for the period toggle
_DIAL = dp(256)  # material_clock_size
_SELECTOR = dp(48)  # the selector's diameter, as big as a number's touch target
_NUMBER_RADIUS = _DIAL // 2 - _SELECTOR // 2 - dp(4)  # material_clock_hand_padding inside the dial's edge
#: A number's view: smaller than the selector, so that on the 24-hour dial's inner ring (neighbours 34 dp apart) no
#: number's box covers the middle of the next one.
_NUMBER_BOX = dp(40)
_INNER_RATIO = 0.66  # RadialViewGroup.LEVEL_RADIUS_RATIO: the 24-hour dial's second ring
_HAND, _DOT = dp(2), dp(4)  # material_clock_hand_stroke_width, _center_dot_radius
#: ``ClockHandView.adjustLevel``: a touch this far past the inner ring's radius still picks from the inner ring.
_LEVEL_BUFFER = dp(12)
#: ``ViewConfiguration.getScaledTouchSlop`` (8 dp), which ``onTouchEvent`` compares with the squared distance moved.
_TOUCH_SLOP = dp(8)
_CHIP_W, _CHIP_H, _CHIP_TEXT = dp(96), dp(80), dp(57)  # displayLarge 57 sp
_PERIOD_W, _PERIOD_MARGIN = dp(52), dp(12)
_NUMBER_TEXT, _TITLE_TEXT, _LABEL_TEXT = 42, 32, 32  # bodyLarge 16 sp, labelMedium 12 sp, bodySmall 12 sp
_OUTLINE_WIDTH = 3  # mtrl_btn_stroke_size, 1 dp
_ICON = 126


@dataclass(frozen=True)
class Scheme:
    """The Material 3 colour roles the picker draws in."""

    surface: Color
    on_surface: Color
    on_surface_variant: Color
    surface_variant: Color
    outline: Color
    primary_container: Color
    on_primary_container: Color
    tertiary_container: Color
    on_tertiary_container: Color


#: Android 13's default system palette by day and by night (material-color-utilities ``Scheme.light``/``dark``).
DAY = Scheme(surface=WHITE, on_surface=(31, 31, 31), on_surface_variant=(68, 71, 70), surface_variant=(225, 227, 225),
             outline=(116, 119, 117), primary_container=(211, 227, 253), on_primary_container=(4, 30, 73),
             tertiary_container=(196, 238, 208), on_tertiary_container=(7, 39, 17))
NIGHT = Scheme(surface=(31, 31, 31), on_surface=(227, 227, 227), on_surface_variant=(196, 199, 197),
               surface_variant=(68, 71, 70), outline=(142, 145, 143), primary_container=(8, 66, 160),
               on_primary_container=(211, 227, 253), tertiary_container=(15, 82, 35),
               on_tertiary_container=(196, 238, 208))
#: ``colorOnPrimary`` by day and by night.
ON_PRIMARY, NIGHT_ON_PRIMARY = WHITE, (6, 46, 111)
#: The elevation overlay of a 6 dp surface (``ElevationOverlayProvider``: 4.5 ln(6 + 1) + 2 %).
_OVERLAY = (4.5 * math.log(6 + 1) + 2) / 100


@dataclass(frozen=True)
class Theme:
    """What the picker is drawn in: the app's primary colour (its hand, selector and buttons) in the phone's theme."""

    primary: Color
    night: bool

    @classmethod
    def of(cls, screen: Screen, primary: Color) -> Theme:
        """The theme ``screen`` shows now, its app's ``primary`` colour (by day) in it."""
        night = screen.phone.window.looks.night
        palette = (screen.night_colors or {}) if night else {}
        return cls(palette.get(primary, primary), night)

    @property
    def scheme(self) -> Scheme:
        """The colour roles of the phone's theme."""
        return NIGHT if self.night else DAY

    @property
    def on_primary(self) -> Color:
        """Text on the primary colour."""
        return NIGHT_ON_PRIMARY if self.night else ON_PRIMARY

    @property
    def dialog_surface(self) -> Color:
        """The dialog's background: the surface under the primary colour's elevation overlay."""
        return over(self.primary, _OVERLAY, self.scheme.surface)


class TimePicker:
    """``MaterialTimePicker`` in clock input mode (keyboard mode after its mode button): the chips, the AM/PM toggle
    of a 12-hour picker, the dial, Cancel and OK. Its ids are Material's, merged into the app's ``package``.
    ``on_set`` gets ``(hour, minute)`` with the hour of day; ``on_close`` runs when the dialog goes away. The
    ``screen`` is told where the keyboard's focus goes (its ``focus_key`` and ``keyboard_shown``)."""

    HOUR_FIELD, MINUTE_FIELD = "timepicker_hour", "timepicker_minute"

    def __init__(self, screen: Screen, package: str, hour: int, minute: int, is24: bool,
                 on_set: Callable[[int, int], None], on_close: Callback) -> None:
        self._screen, self._package, self.is24 = screen, package, is24
        self.hour, self.minute = hour, minute
        self.selecting_minutes = False
        self.text_mode = False
        self.hour_text, self.minute_text = self._hour_shown(), f"{minute:02d}"
        self._on_set, self._on_close = on_set, on_close

    def _id(self, name: str) -> str:
        return f"{self._package}:id/{name}"

    def _hour_shown(self) -> str:
        """``TimeModel.getHourForDisplay``, zero-leading: 00-23, or 12, 01-11 on a 12-hour picker."""
        return f"{self.hour if self.is24 else self.hour % 12 or 12:02d}"

    @property
    def pm(self) -> bool:
        """``TimeModel.period``: whether the hour is after noon."""
        return self.hour >= 12

    # clock mode
    def _touch(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """``ClockHandView.onTouchEvent`` from ``(x1, y1)`` to ``(x2, y2)`` (dial coordinates; a tap when they are
        equal) as the presenter takes it: the value at the angle (``getDegreesFromXY``, whole degrees clockwise from
        the top) where it ends. An hour is the nearest (``onRotate``; on a 24-hour dial one of the inner ring when
        the touch ends within its radius and ``_LEVEL_BUFFER``); a minute the nearest five after a tap
        (``onActionUp`` snaps it), the nearest minute after a drag."""
        centre = _DIAL / 2
        degrees = (int(math.degrees(math.atan2(y2 - centre, x2 - centre))) + 90) % 360
        if self.selecting_minutes:
            moved = int(x2 - x1) ** 2 + int(y2 - y1) ** 2 > _TOUCH_SLOP
            self._pick_minute((degrees + 3) // 6 % 60 if moved else (degrees + 15) // 30 * 5 % 60)
            return
        hour = (degrees + 15) // 30 % 12
        inner = math.dist((x2, y2), (centre, centre)) <= round(_NUMBER_RADIUS * _INNER_RATIO) + _LEVEL_BUFFER
        self._pick_hour(hour + 12 if self.is24 and inner else hour)

    def _pick_hour(self, hour: int) -> None:
        """``onActionUp`` on an hour: set it (in the chosen period on a 12-hour dial) and move on to the minutes."""
        self.hour = self._hour_of_day(hour)
        self.selecting_minutes, self.hour_text = True, self._hour_shown()

    def _hour_of_day(self, hour: int) -> int:
        """The hour of day of ``hour`` picked or typed: itself on a 24-hour picker, else in the chosen period."""
        return hour if self.is24 else _in_period(hour, self.pm)

    def _pick_minute(self, minute: int) -> None:
        self.minute, self.minute_text = minute, f"{minute:02d}"

    def _select(self, minutes: bool) -> None:
        self.selecting_minutes = minutes

    def _set_period(self, pm: bool) -> None:
        """``TimeModel.setPeriod``: the same hour in the other half of the day."""
        self.hour = _in_period(self.hour, pm)

    # text mode (TimePickerTextInputPresenter; MaxInputValidator 23 or 12, and 59)
    def _toggle_mode(self) -> None:
        self.text_mode = not self.text_mode
        self.hour_text, self.minute_text = self._hour_shown(), f"{self.minute:02d}"
        self._screen.focus_key, self._screen.keyboard_shown = (self.HOUR_FIELD, True) if self.text_mode else ("", False)

    def _set_hour_text(self, text: str) -> None:
        if text == "" or (text.isdigit() and len(text) <= 2 and int(text) <= (23 if self.is24 else 12)):
            self.hour_text = text
            self.hour = self._hour_of_day(int(text or 0))

    def _set_minute_text(self, text: str) -> None:
        if text == "" or (text.isdigit() and len(text) <= 2 and int(text) <= 59):
            self.minute_text = text
            self.minute = int(text or 0)

    def _ok(self) -> None:
        self._on_close()
        self._on_set(self.hour, self.minute)

    def view(self, theme: Theme) -> View:
        """The dialog's panel in ``theme``."""
        scheme = theme.scheme
        face = self._text_inputs(theme) if self.text_mode else column(self._display(theme), self._dial(theme))
        mode = View(kind="icon", class_name="android.widget.Button",
                    resource_id=self._id("material_timepicker_mode_button"),
                    content_desc=CLOCK_MODE if self.text_mode else TEXT_INPUT_MODE,
                    hint="time" if self.text_mode else "keyboard", clickable=True, focusable=True,
                    on_click=self._toggle_mode, width=_ICON, height=_ICON, text_color=scheme.on_surface_variant)
        buttons = [dialog_button(text, action, self._id(name)) for text, action, name in
                   ((CANCEL, self._on_close, "material_timepicker_cancel_button"),
                    (OK, self._ok, "material_timepicker_ok_button"))]
        for button in buttons:
            button.text_color = theme.primary
        bar = row(mode, View(weight=1, resource_id=self._id("material_timepicker_mode_cancel_space")), *buttons,
                  padding=30, spacing=12)
        title = text_view(SELECT_TIME, resource_id=self._id("header_title"), text_size=_TITLE_TEXT, padding=63,
                          text_color=scheme.on_surface_variant)
        return column(title, face, bar, width=_WIDTH, background=theme.dialog_surface, corner=dp(28))

    def _display(self, theme: Theme) -> View:
        """``material_clock_display``: the hour and minute chips (the active one in the primary container), and the
        AM/PM toggle of a 12-hour picker."""
        scheme = theme.scheme

        def chip(name: str, text: str, description: str, active: bool, on_click: Callback) -> View:
            return View(kind="button", class_name="android.widget.Button", resource_id=self._id(name), text=text,
                        content_desc=description, checkable=True, checked=active, clickable=True, focusable=True,
                        on_click=on_click, width=_CHIP_W, height=_CHIP_H, text_size=_CHIP_TEXT,
                        background=scheme.primary_container if active else scheme.surface_variant,
                        text_color=scheme.on_primary_container if active else scheme.on_surface)

        parts = [chip("material_hour_tv", self._hour_shown(), f"{self.hour} hours", not self.selecting_minutes,
                      lambda: self._select(False)),
                 View(kind="text", class_name="android.widget.TextView",
                      resource_id=self._id("material_clock_separator"), text=":", text_size=_CHIP_TEXT,
                      gravity="center", width=dp(24),
                      text_color=scheme.on_surface),
                 chip("material_minute_tv", f"{self.minute:02d}", f"{self.minute} minutes", self.selecting_minutes,
                      lambda: self._select(True))]
        if not self.is24:
            parts += [View(width=_PERIOD_MARGIN), self._period_toggle(theme)]
        return row(View(weight=1), *parts, View(weight=1), resource_id=self._id("material_clock_display"),
                   padding=dp(12))

    def _period_toggle(self, theme: Theme) -> View:
        """``material_clock_period_toggle``: a vertical ``MaterialButtonToggleGroup`` of AM over PM, outlined, the
        chosen half in the tertiary container."""
        scheme = theme.scheme

        def half(name: str, text: str, chosen: bool, corners: tuple[bool, bool, bool, bool]) -> View:
            return View(kind="text", class_name="android.widget.Button", resource_id=self._id(name), text=text,
                        checkable=True, checked=chosen, clickable=True, focusable=True, gravity="center",
                        on_click=lambda: self._set_period(text == PM), weight=1, padding=25,  # its text centred
                        text_size=_NUMBER_TEXT, bold=True, corner=dp(8) - _OUTLINE_WIDTH, corners=corners,
                        background=scheme.tertiary_container if chosen else theme.dialog_surface,
                        text_color=scheme.on_tertiary_container if chosen else scheme.on_surface_variant)

        return View(kind="column", class_name="com.google.android.material.button.MaterialButtonToggleGroup",
                    resource_id=self._id("material_clock_period_toggle"), background=scheme.outline,
                    padding=_OUTLINE_WIDTH, corner=dp(8), width=_PERIOD_W, height=_CHIP_H, children=[
                        half("material_clock_period_am_button", AM, not self.pm, (True, True, False, False)),
                        View(height=_OUTLINE_WIDTH, background=scheme.outline),
                        half("material_clock_period_pm_button", PM, self.pm, (False, False, True, True))])

    def _dial(self, theme: Theme) -> View:
        """``ClockFaceView`` with ``ClockHandView`` over it: the hours (a 24-hour dial's 12-23 on the inner ring) or
        the twelve five-minute marks, the hand from the centre to the chosen value and the selector round it. The hand
        view takes every touch on the dial (``_touch``); a touch that lands on a number is passed on to it."""
        scheme = theme.scheme
        if self.selecting_minutes:
            values = [(text, MINUTE_SUFFIX.format(text), 1.0) for text in MINUTE_VALUES]
            turn, ring = self.minute / 60, 1.0
        else:
            texts = HOUR_VALUES_24 if self.is24 else HOUR_VALUES_12
            suffix = HOUR_24_SUFFIX if self.is24 else HOUR_SUFFIX
            values = [(text, suffix.format(text), _INNER_RATIO if hour >= 12 else 1.0)
                      for hour, text in enumerate(texts)]
            turn, ring = self.hour % 12 / 12, _INNER_RATIO if self.is24 and self.hour >= 12 else 1.0
        hand_x, hand_y = _on_dial(2 * math.pi * turn, _NUMBER_RADIUS * ring)
        tip = round(hand_x), round(hand_y)
        line, left, top = _hand(*tip, theme.primary)
        hand = View(kind="image", class_name=LAYOUT_ONLY, image=line, key=f"clock-hand:{tip}:{theme.primary}",
                    width=line.width, height=line.height)
        layers = [View(class_name="com.google.android.material.timepicker.ClockHandView",
                       resource_id=self._id("material_clock_hand"), gravity="fill", on_drag=self._touch),
                  _placed(hand, left, top),
                  _placed(View(class_name=LAYOUT_ONLY, background=theme.primary, corner=_SELECTOR // 2,
                               width=_SELECTOR, height=_SELECTOR),
                          tip[0] - _SELECTOR // 2, tip[1] - _SELECTOR // 2),
                  _placed(View(class_name=LAYOUT_ONLY, background=theme.primary, corner=_DOT, width=2 * _DOT,
                               height=2 * _DOT),
                          _DIAL // 2 - _DOT, _DIAL // 2 - _DOT)]
        for index, (text, description, level) in enumerate(values):
            x, y = _on_dial(2 * math.pi * (index % 12) / 12, _NUMBER_RADIUS * level)
            # ClockFaceView.findIntersectingTextView: the number under the selector is selected and drawn in
            # colorOnPrimary (the part of it inside the selector): here the number whose centre the selector covers
            covered = math.dist((x, y), tip) < _SELECTOR / 2
            left, top = round(x) - _NUMBER_BOX // 2, round(y) - _NUMBER_BOX // 2
            number = View(kind="button", class_name="android.widget.TextView", text=_number(text),
                          content_desc=description, selected=covered, clickable=True, focusable=True,
                          on_drag=functools.partial(self._touch_on_number, left, top), width=_NUMBER_BOX,
                          height=_NUMBER_BOX, text_size=_NUMBER_TEXT,
                          text_color=theme.on_primary if covered else scheme.on_surface)
            layers.append(_placed(number, left, top))
        face = View(kind="frame", class_name="com.google.android.material.timepicker.ClockFaceView",
                    resource_id=self._id("material_clock_face"), width=_DIAL, height=_DIAL, corner=_DIAL // 2,
                    background=scheme.surface_variant, gravity="center", children=layers)
        return column(View(height=dp(36)), face)

    def _touch_on_number(self, left: int, top: int, x1: float, y1: float, x2: float, y2: float) -> None:
        """A touch on the number whose box starts at ``(left, top)`` on the dial: the number takes none (it is not
        clickable as a view), so it reaches the hand view under it at the same point."""
        self._touch(x1 + left, y1 + top, x2 + left, y2 + top)

    def _text_inputs(self, theme: Theme) -> View:
        """``material_textinput_timepicker``: an hour and a minute field, each labelled below (and the AM/PM toggle
        of a 12-hour picker)."""
        scheme = theme.scheme

        def field(name: str, key: str, value: str, label: str, on_text: Callable[[str], None]) -> View:
            return column(edit_text(value, "", key, on_text, resource_id=self._id("material_timepicker_edit_text"),
                                    text_size=_CHIP_TEXT, height=_CHIP_H, padding=8, underline=False,
                                    corner=dp(8),
                                    background=scheme.surface_variant, text_color=scheme.on_surface),
                          text_view(label, resource_id=self._id("material_label"), text_size=_LABEL_TEXT,
                                    text_color=scheme.on_surface_variant),
                          resource_id=self._id(name), width=_CHIP_W)

        parts = [field("material_hour_text_input", self.HOUR_FIELD, self.hour_text, HOUR_LABEL, self._set_hour_text),
                 text_view(":", text_size=_CHIP_TEXT, padding=12, text_color=scheme.on_surface),
                 field("material_minute_text_input", self.MINUTE_FIELD, self.minute_text, MINUTE_LABEL,
                       self._set_minute_text)]
        if not self.is24:
            parts += [View(width=_PERIOD_MARGIN), self._period_toggle(theme)]
        return row(View(weight=1), *parts, View(weight=1), padding=dp(12))


def release_focus(screen: Screen) -> None:
    """As a picker goes away: the keyboard's focus given back when one of its fields (keyboard mode) holds it."""
    if screen.focus_key in (TimePicker.HOUR_FIELD, TimePicker.MINUTE_FIELD):
        screen.focus_key, screen.keyboard_shown = "", False


def _in_period(hour: int, pm: bool) -> int:
    """``TimeModel``: ``hour`` of a 12-hour dial (12 or 0-11) as the hour of day in the morning, or ``pm`` after
    noon."""
    return hour % 12 + (12 if pm else 0)


def _on_dial(angle: float, radius: float) -> tuple[float, float]:
    """The point ``radius`` from the dial's centre at ``angle`` (radians) clockwise from the top."""
    return _DIAL / 2 + radius * math.sin(angle), _DIAL / 2 - radius * math.cos(angle)


def _placed(view: View, x: int, y: int) -> View:
    """``view`` at ``(x, y)`` from its frame's top-left corner (a ``RadialViewGroup`` places its children itself):
    groupings the dump leaves out."""
    return View(kind="column", class_name=LAYOUT_ONLY, children=[
        View(height=y, class_name=LAYOUT_ONLY),
        View(kind="row", class_name=LAYOUT_ONLY, height=view.height,
             children=[View(width=x, class_name=LAYOUT_ONLY), view])])


def _number(value: str) -> str:
    """``TimeModel.formatText``: a dial's value formatted as a number as wide as ``value`` when the dial is drawn,
    not a resource string."""
    return f"{int(value):0{len(value)}d}"


@functools.lru_cache(maxsize=64)
def _hand(x: int, y: int, color: Color) -> tuple[Image.Image, int, int]:
    """``ClockHandView``'s hand, a line from the dial's centre to ``(x, y)``: a transparent picture of the box round
    it, drawn four times larger and shrunk (its edges smoothed), and where that box starts on the dial."""
    scale, centre, pad = 4, _DIAL // 2, _HAND
    left, top = min(centre, x) - pad, min(centre, y) - pad
    size = (abs(x - centre) + 2 * pad + 1) * scale, (abs(y - centre) + 2 * pad + 1) * scale
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    ends = [((centre - left) * scale, (centre - top) * scale), ((x - left) * scale, (y - top) * scale)]
    ImageDraw.Draw(image).line(ends, fill=(*color, 255), width=_HAND * scale)
    return image.reduce(scale), left, top
