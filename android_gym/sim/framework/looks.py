"""What the user sets about the phone's looks: font scale, dark theme and navigation mode.

Each lives where Android keeps it, so the shell, ``dumpsys``, the Configuration string and the pixels read one
source: ``Settings.System.FONT_SCALE`` (``settings put system font_scale``), ``Settings.Secure.UI_NIGHT_MODE``
(written by ``cmd uimode night``, UiModeManagerService) and ``Settings.Secure.NAVIGATION_MODE`` (follows the
navigation-bar overlay ``cmd overlay enable-exclusive`` turns on). The window manager reads them once per frame
(``Looks.of``) and applies them to the views apps build: text sized in sp grows with the font scale, views that wrap
their content grow with it (``scale_text``), and windows whose theme follows the night mode are drawn in their
``values-night`` colours (``recolor``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from android_gym.sim.ui.views import (
    DIVIDER,
    FIELD_ICON,
    FIELD_LABEL,
    FIELD_STROKE,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Color,
    View,
)

FONT_SCALE = "font_scale"  # Settings.System.FONT_SCALE
UI_NIGHT_MODE = "ui_night_mode"  # Settings.Secure.UI_NIGHT_MODE
NAVIGATION_MODE = "navigation_mode"  # Settings.Secure.NAVIGATION_MODE
# UiModeManager.MODE_NIGHT_AUTO / _NO / _YES, the values UI_NIGHT_MODE holds.
MODE_NIGHT_AUTO, MODE_NIGHT_NO, MODE_NIGHT_YES = 0, 1, 2
# WindowManagerPolicyConstants.NAV_BAR_MODE_3BUTTON / _GESTURAL, the values NAVIGATION_MODE holds.
NAV_BAR_MODE_3BUTTON, NAV_BAR_MODE_GESTURAL = 0, 2
#: The navigation-bar overlays SystemUI ships (frameworks/base packages/overlays/NavigationBarMode*Overlay), with the
#: ``config_navBarInteractionMode`` each sets: what ``cmd overlay`` lists and turns on, one at a time.
NAVBAR_OVERLAYS = {"com.android.internal.systemui.navbar.gestural": NAV_BAR_MODE_GESTURAL,
                   "com.android.internal.systemui.navbar.threebutton": NAV_BAR_MODE_3BUTTON}
NAVBAR_OVERLAY_TARGET = "android"  # the overlays' android:targetPackage (framework-res)


#: Android 13's dark theme for the light colours the system UI (status and navigation bars, notification shade, its
#: dialogs), the launcher's search bar and Settings draw: the dark scheme of Material You's tonal palettes (the
#: ``values-night`` ``?colorSurface``, ``?textColorPrimary`` ... of ``Theme.DeviceDefault.DayNight``) for the Pixel's
#: default blue seed, whose light scheme the simulated phone draws (material-color-utilities ``Scheme.dark``: surface
#: neutral 12, on-surface neutral 90, on-surface-variant neutral-variant 80, primary 80, outline-variant
#: neutral-variant 30, primary/secondary containers 30).
MATERIAL_YOU_NIGHT: dict[Color, Color] = {
    WHITE: (31, 31, 31),  # surface / windowBackground
    TEXT: (227, 227, 227),  # textColorPrimary
    TEXT_SECONDARY: (196, 199, 197),  # textColorSecondary
    PRIMARY: (168, 199, 250),  # colorAccent
    DIVIDER: (68, 71, 70),  # listDivider
    (232, 234, 237): (40, 42, 44),  # a search bar or tinted card: surface container high
    (243, 246, 252): (40, 42, 44),
    (232, 240, 254): (40, 42, 44),
    (241, 243, 244): (40, 42, 44),
    (187, 222, 251): (8, 66, 160),  # a checked switch's track: primary container
}
#: ``MATERIAL_YOU_NIGHT`` with the system UI's own surfaces.
SYSTEM_NIGHT: dict[Color, Color] = {
    **MATERIAL_YOU_NIGHT,
    (241, 243, 244): (19, 19, 20),  # the shade's backdrop: surface dim
    (211, 227, 253): (8, 66, 160),  # an active tile: primary container
    (4, 30, 73): (211, 227, 253),  # ink on it (the Internet dialog's connected network): on primary container
    (225, 227, 230): (51, 53, 55),  # an inactive tile: surface container highest
    (225, 227, 225): (68, 71, 70),  # the Internet dialog's divider: colorSurfaceVariant (neutral-variant 90, 30)
    (243, 243, 243): (0, 0, 0),  # the navigation bar: navigationBarColor of the dark theme (black)
    (66, 66, 66): (227, 227, 227),  # the navigation buttons' ink
    (97, 97, 97): (237, 237, 237),  # the gesture handle: navigation_bar_home_handle_light_color #EBFFFFFF
}
#: Material Components' dark theme for apps on ``Theme.MaterialComponents.DayNight`` (``values-night``:
#: ``design_dark_default_color_background``/``_surface`` #121212, text and a field's icons white at 87 % and 60 %,
#: dividers white at 12 %, raised surfaces lightened by the elevation overlay), their brand colours kept.
MATERIAL_COMPONENTS_NIGHT: dict[Color, Color] = {
    WHITE: (18, 18, 18), TEXT: (224, 224, 224), TEXT_SECONDARY: (160, 160, 160), DIVIDER: (46, 46, 46),
    (243, 246, 252): (37, 37, 37), (243, 237, 247): (37, 37, 37), (250, 250, 250): (30, 30, 30),
    (158, 158, 158): (160, 160, 160), FIELD_ICON: (160, 160, 160),
}
#: Material 3's baseline colours (Material Components 1.11.0, ``m3_sys_color_light_*``: no dynamic colour) for an app
#: on ``Theme.Material3.DayNight`` by day, for the toolkit's text and the roles its outlined fields draw in
#: (``Widget.Material3.TextInputLayout.OutlinedBox``): text ``colorOnSurface`` (neutral 10), secondary text
#: ``colorOnSurfaceVariant`` (neutral-variant 30), as a field's label and icons, the outline ``colorOutline``
#: (neutral-variant 50). Its surface (neutral 98, #FEF7FF) is the app's to draw: a palette by day swaps text only.
MATERIAL_3_DAY: dict[Color, Color] = {TEXT: (0x1D, 0x1B, 0x20), TEXT_SECONDARY: (0x49, 0x45, 0x4F),
                                      FIELD_STROKE: (0x79, 0x74, 0x7E), FIELD_LABEL: (0x49, 0x45, 0x4F),
                                      FIELD_ICON: (0x49, 0x45, 0x4F)}
#: The same by night (``m3_sys_color_dark_*``): surface neutral 6, on-surface neutral 90, on-surface-variant
#: neutral-variant 80 (secondary text, a field's label), outline neutral-variant 60, outline-variant neutral-variant
#: 30 (dividers), surface container neutral 12 (a bottom app bar, light surface container neutral 94).
MATERIAL_3_NIGHT: dict[Color, Color] = {
    WHITE: (0x14, 0x12, 0x18), TEXT: (0xE6, 0xE0, 0xE9), TEXT_SECONDARY: (0xCA, 0xC4, 0xD0),
    DIVIDER: (0x49, 0x45, 0x4F), (0xF3, 0xED, 0xF7): (0x21, 0x1F, 0x26),
    FIELD_STROKE: (0x93, 0x8F, 0x99), FIELD_LABEL: (0xCA, 0xC4, 0xD0), FIELD_ICON: (0xCA, 0xC4, 0xD0),
}
#: Gboard's dark theme, which it follows with the system's by default: Google's GM2 greys (``GM2_grey_900`` #202124
#: behind, ``GM2_grey_800`` #3C4043 keys, ``GM2_grey_700`` #5F6368 function keys, ``GM2_grey_200`` #E8EAED labels).
KEYBOARD_NIGHT: dict[Color, Color] = {(232, 234, 237): (32, 33, 36), WHITE: (60, 64, 67),
                                      (214, 218, 224): (95, 99, 104), TEXT: (232, 234, 237)}


class SettingsStore(Protocol):
    """The part of the settings provider ``Looks.of`` reads."""

    def get(self, namespace: str, key: str) -> str | None:
        """Value of ``key`` in ``namespace`` or ``None``."""


@dataclass(frozen=True)
class Looks:
    """The phone's font scale, whether it draws the dark theme, and whether it navigates by gestures."""

    font_scale: float = 1.0
    night: bool = False
    gestural: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.font_scale, self.night, self.gestural)))

    def __hash__(self) -> int:
        """Hashed once: the window hashes the looks with every frame (in what its laid-out trees are kept by)."""
        return self._hash

    @classmethod
    def of(cls, settings: SettingsStore) -> Looks:
        """The looks the settings hold. A font scale that is no positive number reads as 1.0
        (``Settings.System.getFloat`` with ``DEFAULT_FONT_SCALE``); night mode ``auto`` stays light, as an emulator
        without a location has no twilight to switch by; a missing navigation mode is 3-button."""
        return _looks(settings.get("system", FONT_SCALE), settings.get("secure", UI_NIGHT_MODE),
                      settings.get("secure", NAVIGATION_MODE))


@lru_cache(maxsize=64)
def _looks(font_scale: str | None, night_mode: str | None, navigation_mode: str | None) -> Looks:
    """The looks of these settings' values, made once per values (the window asks at every frame)."""
    return Looks(font_scale=_positive_float(font_scale), night=night_mode == str(MODE_NIGHT_YES),
                 gestural=navigation_mode == str(NAV_BAR_MODE_GESTURAL))


def _positive_float(value: str | None) -> float:
    try:
        number = float(value or "1.0")
    except ValueError:
        return 1.0
    return number if number > 0 and number != float("inf") else 1.0


_TEXT_KINDS = {"text", "button", "edit", "switch", "check", "label", "app_icon"}
_GROWS = {"text", "button", "edit", "switch", "check", "row", "column", "frame"}


def scale_text(root: View, factor: float) -> None:
    """Scale the text sizes of ``root``'s tree by ``factor`` (text and outlined fields' labels are sized in sp; icons
    and dp sizes stay), and let a view of fixed height that shows text grow to fit it (``min_height``): Android's list
    rows and buttons are ``wrap_content`` with a ``minHeight``, so larger text makes them taller rather than clipped.
    An ``exact_height`` stays."""
    if factor == 1.0:
        return
    for view in root.walk():
        if view.kind in _TEXT_KINDS:
            view.text_size = max(1, round(view.text_size * factor))
        if view.label_size:
            view.label_size = round(view.label_size * factor)
    if factor > 1.0:
        _grow(root)


def _grow(view: View) -> bool:
    """Turn fixed heights into minimum heights below ``view``; whether ``view``'s tree shows text."""
    shows_text = view.kind in _TEXT_KINDS and bool(view.text)
    for child in view.children:
        shows_text = _grow(child) or shows_text
    if shows_text and view.height is not None and view.kind in _GROWS and not view.scrollable \
            and not view.exact_height:
        view.min_height, view.height = view.height, None
    return shows_text


def recolor(root: View, palette: Mapping[Color, Color]) -> None:
    """Swap the background, text and check box colours of ``root``'s tree that ``palette`` names (a theme's colours
    for its ``values-night`` ones). Text and tints keep theirs on a surface that stays light or stays dark (a brand
    coloured app bar or button, kept or only shaded: its ``colorOnPrimary`` is the same in both themes); they are
    swapped on one that turns from light to dark or back (the window, a card, Material You's primary). A letter
    tile's letter keeps its colour (a drawable's pixels, not the theme's); its tile takes the palette's (a
    translucent tile over the night background). A view that shows a picture keeps its background, the colour the
    picture was drawn on (the activity under a translucent one, already in its own theme); the views a frame stacks
    over a picture that fills it (a drawing app's tools over its canvas) lie on the picture, whose pixels the theme
    does not change."""
    stack = [(root, True)]  # the window's background, white, turns dark
    while stack:
        view, surface_turns = stack.pop()
        if view.background is not None and view.image is None:
            background = palette.get(view.background, view.background)
            surface_turns, view.background = _is_light(background) != _is_light(view.background), background
        if surface_turns and view.kind != "letter":
            view.text_color = palette.get(view.text_color, view.text_color)
            view.button_tint = palette.get(view.button_tint, view.button_tint)
            if view.button_tint_off is not None:
                view.button_tint_off = palette.get(view.button_tint_off, view.button_tint_off)
        on_picture = False
        for child in view.children:
            stack.append((child, surface_turns and not on_picture))
            on_picture = on_picture or (view.kind == "frame" and child.image is not None and child.gravity == "fill")


def retint(root: View, palette: Mapping[Color, Color]) -> None:
    """Swap the text and icon colours of ``root``'s tree that ``palette`` names, on every surface: a theme that
    draws its text in another colour than the toolkit's on the same light surfaces (Simple-Commons' system theme by
    day)."""
    stack = [root]
    pop, extend = stack.pop, stack.extend
    while stack:
        view = pop()
        if view.text_color in palette:
            view.text_color = palette[view.text_color]
        extend(view.children)


def _is_light(color: Color) -> bool:
    """Whether dark text goes on ``color`` rather than white: its YIQ brightness at least 149 (Simple-Commons'
    ``getContrastColor``)."""
    red, green, blue = color[:3]
    return (299 * red + 587 * green + 114 * blue) // 1000 >= 149
