"""Windows over an activity: a panel on a scrim that takes every touch outside it, and AppCompat's AlertDialog.

Ids follow AppCompat's layouts (``abc_alert_dialog_material.xml``): the buttons are ``android:id/button1``
(positive), ``button2`` (negative) and ``button3`` (neutral), the message ``android:id/message``; the title's
``alertTitle`` is an AppCompat resource, merged into the app's own package.
"""

from __future__ import annotations

from dataclasses import dataclass

from android_gym.sim.ui.layout import text_width
from android_gym.sim.ui.views import (
    LAYOUT_ONLY,
    PRIMARY,
    WHITE,
    Callback,
    Color,
    View,
    column,
    does_nothing,
    frame,
    row,
    text_view,
)

#: A popup menu item: ``(title, on_click)``, ``(title, on_click, checked)`` for a checkable one, or
#: ``(title, on_click, checked, True)`` for one of a group that checks one item only (``checkableBehavior="single"``).
MenuItem = tuple[str, Callback] | tuple[str, Callback, bool] | tuple[str, Callback, bool, bool]
#: Dialog button text size in px (16sp at 420 dpi).
BUTTON_TEXT = 42
DIALOG_WIDTH = 960
DIALOG_CORNER = 42  # 16 dp


@dataclass(frozen=True)
class MenuLook:
    """A popup menu's window (its ``popupBackground`` and ``popupElevation``): colour, corner radius, elevation and
    the background's padding above and below the rows (px)."""

    background: Color = WHITE
    corner: int = 0
    elevation: int = 21  # AppCompat's 8 dp
    padding: int = 0


#: AppCompat's menus (``Widget.AppCompat.Light.PopupMenu``): the window's white, 8 dp high.
APPCOMPAT_MENU = MenuLook()
#: Material Components 1.11's Material 3 menus (``Widget.Material3.PopupMenu``, ``.Overflow``):
#: ``m3_popupmenu_background_overlay``, ``?colorSurfaceContainer`` (the baseline's neutral 94 by day; an app's night
#: palette maps it) with 4 dp corners and 8 dp above and below the rows, at ``m3_comp_menu_container_elevation``
#: (level 2, 3 dp).
MATERIAL_3_MENU = MenuLook(background=(0xF3, 0xED, 0xF7), corner=10, elevation=8, padding=21)


def scrim_over(content: View, panel: View, dismiss: Callback | None, dim: bool = True) -> View:
    """``content`` filling the window with ``panel`` over it, placed by the panel's own ``gravity`` (a drawer, a
    bottom sheet, a centred dialog); a touch on the scrim around the panel calls ``dismiss`` (``None``: a dialog
    not cancelable on touch outside). The scrim also takes drags, so nothing under it scrolls. It dims the
    content (``dim``), as dialogs, drawers and sheets do; a popup menu's does not. The scrim is ``modal``: the dump
    holds the panel, not the content under it."""
    content.gravity = "fill"
    scrim = View(kind="scrim" if dim else "view", gravity="fill", clickable=True, on_click=dismiss or does_nothing,
                 modal=True)
    return frame(content, scrim, panel)


def dialog_over(content: View, panel: View, dismiss: Callback | None) -> View:
    """``scrim_over`` with ``panel`` centred in a frame that floats it (24 dp elevation, rounded corners), as a
    dialog window sits over its activity."""
    panel.corner = panel.corner or DIALOG_CORNER
    panel.gravity = "fill"  # as tall as its window, which may be shorter than it wants (see dialog_scroll_view)
    outline = frame(panel, width=(panel.width or DIALOG_WIDTH) + 8, padding=4, gravity="center", elevation=63,
                    corner=DIALOG_CORNER)
    return scrim_over(content, outline, dismiss)


def dialog_scroll_view(content: View, key: str, **props) -> View:
    """A dialog's form in a ScrollView that takes the dialog's spare height (``weight``): when the keyboard leaves
    the dialog less room than the form wants, the form scrolls and the buttons stay in view."""
    return View(kind="list", class_name="android.widget.ScrollView", key=key, scrollable=True, weight=1,
                children=[content], **props)


def dialog_button(text: str, on_click: Callback, resource_id: str, text_size: int = BUTTON_TEXT) -> View:
    """A borderless dialog button, as wide as its text needs: its text on the dialog's own surface."""
    return View(kind="button", class_name="android.widget.Button", text=text, resource_id=resource_id,
                clickable=True, focusable=True, on_click=on_click, text_color=PRIMARY,
                text_size=text_size, padding=24, height=126,
                width=max(220, int(text_width(text, text_size)) + 60))


def alert_dialog(body: list[View], buttons: list[tuple[str, str, Callback]], title: str = "",
                 package: str = "", text_size: int = BUTTON_TEXT, background: Color = WHITE) -> View:
    """An ``AlertDialog`` on ``background`` (its theme's surface): an optional title (``<package>:id/alertTitle``),
    the body, then its buttons, given as ``(android id, text, callback)``: ``button3`` (neutral) at the start, the
    others at the end."""
    children = [text_view(title, resource_id=f"{package}:id/alertTitle", text_size=54, padding=52, bold=True)] \
        if title else []
    made = [(name, dialog_button(text, action, f"android:id/{name}", text_size)) for name, text, action in buttons]
    neutral = [button for name, button in made if name == "button3"]
    others = [button for name, button in made if name != "button3"]
    children += [*body, row(*neutral, View(weight=1), *others, padding=24, spacing=12)]
    return column(*children, width=DIALOG_WIDTH, background=background)


def dialog_message(message: str, text_size: int = BUTTON_TEXT) -> View:
    """An ``AlertDialog``'s message (``android:id/message``) in its ScrollView (``android:id/scrollView``,
    ``alert_dialog_material.xml``): a message longer than the screen leaves room scrolls, the buttons stay shown."""
    text = text_view(message, resource_id="android:id/message", text_size=text_size, padding=60)
    return dialog_scroll_view(text, "message", resource_id="android:id/scrollView")


def confirm_dialog(message: str, negative: str, on_negative: Callback, positive: str, on_positive: Callback,
                   text_size: int = BUTTON_TEXT, background: Color = WHITE) -> View:
    """An ``AlertDialog`` on ``background`` with a message (``dialog_message``) and a negative and a positive
    button."""
    body = [dialog_message(message, text_size)]
    return alert_dialog(body, [("button2", negative, on_negative), ("button1", positive, on_positive)],
                        text_size=text_size, background=background)


def popup_menu(content: View, items: list[MenuItem], dismiss: Callback, package: str, text_size: int = BUTTON_TEXT,
               width: int = 600, look: MenuLook = APPCOMPAT_MENU) -> View:
    """AppCompat's ``MenuPopupWindow`` (an overflow menu or a submenu) at the top end over ``content``, in the
    theme's ``look``; a touch outside dismisses it. ``items`` are ``(title, on_click)`` or, for a checkable item,
    ``(title, on_click, checked[, exclusive])``; each row is a ``ListMenuItemView`` with its title in
    ``<package>:id/title`` and a checkable item's ``CheckBox`` in ``<package>:id/checkbox``, or an exclusive one's
    ``RadioButton`` in ``<package>:id/radio`` (AppCompat's ``abc_list_menu_item_checkbox``/``_radio``, their ids
    merged into the app's package)."""
    rows = []
    for title, on_click, *state in items:
        children = [text_view(title, resource_id=f"{package}:id/title", text_size=text_size, padding=36, weight=1)]
        if state:
            checked, exclusive = state[0], len(state) > 1 and state[1]
            widget, name = ("RadioButton", "radio") if exclusive else ("CheckBox", "checkbox")
            children.append(View(kind="icon", class_name=f"android.widget.{widget}", checkable=True, checked=checked,
                                 hint=f"{name}_{'on' if checked else 'off'}", width=84, height=84, text_color=PRIMARY,
                                 resource_id=f"{package}:id/{name}"))
        rows.append(View(kind="row", class_name="android.widget.LinearLayout", clickable=True, focusable=True,
                         on_click=on_click, padding=12, children=children))
    panel = View(kind="list", class_name="android.widget.ListView", key="popup_menu", children=rows, width=width,
                 background=look.background, corner=look.corner)  # wrap_content: as tall as its rows
    if look.padding:  # the window's background, padded above and below the list
        panel = column(View(class_name=LAYOUT_ONLY, height=look.padding), panel,
                       View(class_name=LAYOUT_ONLY, height=look.padding), width=width, background=look.background,
                       corner=look.corner)
    return scrim_over(content, row(View(weight=1), column(panel, padding=4, elevation=look.elevation,
                                                          corner=look.corner), gravity="top"), dismiss, dim=False)
