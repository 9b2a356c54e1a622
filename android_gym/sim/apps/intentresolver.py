"""Android 13's share sheet: ``com.android.intentresolver/.ChooserActivity`` (the IntentResolver module that
``Intent.createChooser`` opens on API 33).

Ids follow AOSP ``chooser_grid_preview_text.xml`` (``content_preview_text``, the ``copy_button`` described "Copy")
and ``resolve_grid_item.xml`` (each target's label in ``android:id/text1`` under its ``android:id/icon``). The
sheet lists, by label, every installed app whose ``resolve`` accepts the shared intent; choosing one starts that
app's activity with the intent and closes the sheet, as does BACK or a touch outside it. Copy puts the shared text
on the clipboard and closes the sheet.

The sheet's top corners are rounded by ``bottomsheet_background``'s ``config_bottomDialogCornerRadius`` (framework
``config.xml``: ``@dimen/config_dialogCornerRadius``, 28 dp since Android 12), and ``chooser_grid.xml``'s drag handle
(``ic_drag_handle``: 24 x 4 dp rounded 2 dp, tinted ``?colorSurfaceVariant``) sits 16 dp below its top edge. The
activity's theme, ``Theme.DeviceDefault.Chooser``, is ``Theme.DeviceDefault.DayNight``'s (``values/styles.xml``), so
by night the sheet (``?colorBackground``), its text, the divider (``values-night/colors.xml``: ``chooser_row_divider``
is ``list_divider_color_dark``) and the handle are the dark theme's; the targets' launcher icons keep their colours.

Left out of the real sheet: the title row, direct-share targets (people and conversations) and app predictions,
the "Nearby" and "Edit" actions, the work/personal profile tabs, pinning and the expanded drawer with its app
list search, and the caller's own share targets (Markor's "Share into" shows up on a real phone).
"""

from __future__ import annotations

from dataclasses import replace

from android_gym.sim.framework.app import App, Screen, TranslucentScreen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.ui.dialogs import scrim_over
from android_gym.sim.ui.views import (
    DIVIDER,
    TEXT_SECONDARY,
    TOP_CORNERS,
    WHITE,
    View,
    column,
    group,
    image_button,
    row,
    text_view,
)

PACKAGE = "com.android.intentresolver"
EXTRA_TEXT = "android.intent.extra.TEXT"
COPY = "Copy"  # frameworks/base core/res/res/values/strings.xml: copy
NO_APPS = "No apps can perform this action."  # noApplications
_LABEL_SIZE, _PREVIEW_SIZE, _TARGET_WIDTH = 32, 42, 255  # 12sp, 16sp; chooser_target_width 97dp at 420 dpi
#: ``resolve_grid_item``: the app's icon (``chooser_icon_size`` 56 dp, the adaptive icon's circle 52 dp of it) 24 dp
#: below the item's top, 7 dp above its one-line label, 12 dp inside its sides and bottom.
_ICON_BOX, _ICON_CIRCLE, _ITEM_TOP, _ICON_GAP, _ITEM_PADDING = 147, 137, 63, 18, 32
_SHEET_CORNER = 73  # 28 dp
#: The drag handle: 24 x 4 dp, its corners 2 dp, chooser_edge_margin_thin (16 dp) above and below it; its tint,
#: colorSurfaceVariant, is neutral-variant 90 of the Pixel's default palette.
_HANDLE_WIDTH, _HANDLE_HEIGHT, _HANDLE_MARGIN, _HANDLE_COLOR = 63, 10, 42, (225, 227, 225)
#: The sheet by night: Material You's dark surfaces and text; the handle's colorSurfaceVariant is neutral-variant 30.
NIGHT_COLORS = {**MATERIAL_YOU_NIGHT, _HANDLE_COLOR: (68, 71, 70)}


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


class ChooserScreen(TranslucentScreen):
    """``ChooserActivity`` for the intent it was started with (the intent to share, not the chooser wrapper).

    Its window is translucent (``Theme.DeviceDefault.Chooser``: ``windowIsTranslucent``, ``backgroundDimEnabled``):
    the activity it was opened over shows behind the sheet, dimmed."""

    activity = f"{PACKAGE}.ChooserActivity"

    def _targets(self) -> list[tuple[App, type[Screen]]]:
        """Installed apps that resolve the shared intent (the sheet itself excepted), sorted by label."""
        packages = self.phone.packages
        others = [name for name in packages.names() if name != PACKAGE]
        found = packages.handlers(replace(self.intent, component=""), others)
        return sorted(found, key=lambda target: target[0].label.lower())

    def _choose(self, app: App, screen: type[Screen]) -> None:
        """``safelyStartActivity``: the target starts with the shared intent, then the sheet finishes."""
        self.phone.activities.launch(app, screen, replace(self.intent, component=""))
        self.finish()

    def _copy(self) -> None:
        """The copy button: the shared text becomes the primary clip; the sheet closes."""
        self.phone.clipboard.set_text(self.intent.extras.get(EXTRA_TEXT, ""))
        self.finish()

    def build(self) -> View:
        text = self.intent.extras.get(EXTRA_TEXT, "")
        preview = row(text_view(text, resource_id=_id("content_preview_text"), text_size=_PREVIEW_SIZE, weight=1,
                                height=min(2, text.count("\n") + 1) * 55 + 24),
                      image_button(COPY, "copy", self._copy, resource_id=_id("copy_button"), text_color=TEXT_SECONDARY),
                      resource_id=_id("content_preview_text_layout"), padding=42)
        targets = [self._target(app, screen) for app, screen in self._targets()]
        grid = [row(*targets[i:i + 4], spacing=12) for i in range(0, len(targets), 4)] or [
            text_view(NO_APPS, resource_id="android:id/empty", text_size=_PREVIEW_SIZE, padding=42)]
        handle = View(kind="icon", class_name="android.widget.ImageView", resource_id="android:id/drag",
                      width=_HANDLE_WIDTH, height=_HANDLE_HEIGHT, background=_HANDLE_COLOR, corner=_HANDLE_HEIGHT // 2,
                      gravity="center_horizontal")
        header = group("column", "android.widget.RelativeLayout", View(height=_HANDLE_MARGIN - 24), handle,
                       View(height=_HANDLE_MARGIN), resource_id="android:id/chooser_header")
        sheet = column(header, preview, View(height=2, background=DIVIDER), *grid, resource_id=_id("contentPanel"),
                       background=WHITE, padding=24, gravity="bottom", corner=_SHEET_CORNER, corners=TOP_CORNERS)
        return scrim_over(self.behind(), sheet, self.finish)

    def _target(self, app: App, screen: type[Screen]) -> View:
        """``resolve_grid_item``: the app's launcher icon (its glyph in white on its colour) over its label, on one
        line cut with "…", both centred."""
        circle = View(kind="icon", hint=app.icon, text_color=WHITE, background=app.icon_color,
                      width=_ICON_CIRCLE, height=_ICON_CIRCLE, corner=_ICON_CIRCLE // 2, gravity="center")
        icon = group("frame", "android.widget.ImageView", circle, resource_id="android:id/icon", width=_ICON_BOX,
                     height=_ICON_BOX, gravity="center_horizontal")
        label = text_view(app.label, resource_id="android:id/text1", text_size=_LABEL_SIZE, padding=0,
                          single_line=True, gravity="center_horizontal")
        return View(kind="column", class_name="android.widget.LinearLayout", clickable=True, focusable=True,
                    width=_TARGET_WIDTH, padding=_ITEM_PADDING,
                    children=[View(height=_ITEM_TOP - _ITEM_PADDING), icon, View(height=_ICON_GAP), label],
                    on_click=lambda: self._choose(app, screen))


class IntentResolver(App):
    """``com.android.intentresolver``: no launcher icon; its sheet is started with ``share``."""

    package = PACKAGE
    label = "IntentResolver"
    screens = (ChooserScreen,)
    intent_filters = ()  # its sheet is named, never resolved (``resolve``)
    launchable = False
    #: The theme's ``navigationBarColor`` is transparent: the sheet goes on behind the navigation bar.
    navigation_bar_color = WHITE
    night_colors = NIGHT_COLORS  # Theme.DeviceDefault.Chooser follows the system's dark theme (DayNight)

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """Nothing resolves to the sheet implicitly (``Intent.createChooser`` names it)."""
        return None


def share(screen: Screen, intent: Intent) -> None:
    """``startActivity(Intent.createChooser(intent, null))`` from ``screen``: the sheet opens over it."""
    resolver = screen.phone.packages.get(PACKAGE)
    if resolver is not None:
        chooser = screen.phone.activities.push(resolver, ChooserScreen, intent)
        assert isinstance(chooser, ChooserScreen)
        chooser.opened_over = screen
