"""A translucent activity (the permission prompt, the share sheet) over an app: the app under it is paused, not
stopped, so what it shows through the dimmed window follows its state, drawn again only when that changed."""

from __future__ import annotations

import numpy as np
from PIL import Image
from ui_nodes import tap, views

from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT, recolor
from android_gym.sim.framework.window import WindowManager
from android_gym.sim.phone import Phone
from android_gym.sim.ui.views import TEXT, WHITE, View, column, frame, text_view

SMS = "com.simplemobiletools.smsmessenger"
NEW_MESSAGE = "content insert --uri content://sms/inbox --bind address:s:+15551234567 --bind 'body:s:Lunch at noon?'"


def prompted(package: str = SMS, night: bool = False) -> Phone:
    """A phone with ``package`` opened and the notification permission prompt over it (SMS Messenger's: over its
    empty conversation list), in the dark theme if ``night``."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run(f"pm revoke {package} android.permission.POST_NOTIFICATIONS")
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    assert phone.activities.foreground()[0] == "com.google.android.permissioncontroller"
    return phone


def above_the_dialog(phone: Phone) -> tuple[int, int]:
    """The rows between the status bar and the prompt's dialog (its shadow left out)."""
    frame = phone.window.frame()
    dialog = next(view for view in views(frame) if view.resource_id.endswith(":id/grant_dialog"))
    return frame.app.children[0].bounds[1], dialog.bounds[1] - 100


def test_a_change_to_the_app_under_a_translucent_activity_shows_through_it() -> None:
    """A message arrives while the prompt is up: the conversation list under it shows it, dimmed, as the list shows
    once the prompt is gone."""
    phone = prompted()
    empty = phone.screenshot().copy()
    phone.run(NEW_MESSAGE)
    pixels = phone.screenshot().astype(int)
    top, bottom = above_the_dialog(phone)
    tap(phone, text="Don’t allow")
    assert phone.activities.foreground()[0] == SMS
    listed = phone.screenshot().astype(int)
    assert not np.array_equal(empty[top:bottom], pixels[top:bottom])
    assert np.abs(pixels[top:bottom] - listed[top:bottom] * 0.68).max() <= 2  # black at 32 % over the list


def test_the_permission_prompt_follows_the_dark_theme() -> None:
    """PermissionController's values-night theme: by night the dialog is google_grey_800 with the dark theme's light
    text and the icon in system_accent1_300; the buttons keep system_accent1_100 with their dark text. The dump is
    the same by day and by night."""
    day, night = prompted(), prompted(night=True)
    shown = {}
    for name, phone in (("day", day), ("night", night)):
        frame = phone.window.frame()
        by_id = {view.resource_id.rsplit("/", 1)[-1]: view for view in views(frame)}
        dialog, allow = by_id["grant_dialog"], by_id["permission_allow_button"]
        message, icon = by_id["permission_message"], by_id["permission_icon"]
        pixels = phone.screenshot()
        shown[name] = (tuple(pixels[dialog.bounds[1] + 80, dialog.bounds[0] + 20]),
                       tuple(pixels[allow.bounds[1] + 8, (allow.bounds[0] + allow.bounds[2]) // 2]),
                       message.text_color, icon.text_color)
    assert shown["night"] == ((0x3C, 0x40, 0x43), (211, 227, 253), MATERIAL_YOU_NIGHT[TEXT], (0x7C, 0xAC, 0xF8))
    assert shown["day"] == ((240, 244, 249), (211, 227, 253), TEXT, (11, 87, 208))
    assert night.ui_dump() == day.ui_dump()


def test_the_picture_of_the_activity_under_a_translucent_one_keeps_its_colour_by_night() -> None:
    """The activity under a translucent one is drawn in its own theme: the frame showing its picture keeps the colour
    at its top (what the status bar takes) when the dark theme recolours the translucent activity's views; a view
    without a picture on it turns dark."""
    picture = View(kind="frame", image=Image.new("RGB", (4, 4), WHITE), background=WHITE, gravity="fill")
    sheet = column(text_view("Share"), background=WHITE)
    recolor(frame(picture, sheet), MATERIAL_YOU_NIGHT)
    assert (picture.background, sheet.background) == (WHITE, MATERIAL_YOU_NIGHT[WHITE])


def test_a_clock_under_a_translucent_activity_keeps_time() -> None:
    """The Clock app's clock under the prompt turns with the minute, as the status bar's does."""
    phone = prompted("com.google.android.deskclock")
    top, bottom = above_the_dialog(phone)
    before = phone.screenshot()[top:bottom].copy()
    phone.clock.advance(60_000)
    assert not np.array_equal(phone.screenshot()[top:bottom], before)


def test_the_app_under_a_translucent_activity_is_drawn_again_only_when_it_changed(monkeypatch) -> None:
    """Frames built again for something else (a look at the screen after any command) draw the app under the prompt
    from the picture kept for what it shows; a change to it draws it once more."""
    drawn: list[str] = []
    snapshot = WindowManager.snapshot

    def counted(window: WindowManager, screen):
        key, color, picture = snapshot(window, screen)
        return key, color, lambda: drawn.append(key) or picture()

    monkeypatch.setattr(WindowManager, "snapshot", counted)
    phone = prompted()
    phone.screenshot()
    assert len(drawn) == 1
    phone.run("settings put system screen_off_timeout 600000")  # a write: the frame is built again
    phone.clock.advance(60_000)  # the status bar's clock turns
    phone.screenshot()
    assert len(drawn) == 1
    phone.run(NEW_MESSAGE)
    phone.screenshot()
    assert len(drawn) == 2 and drawn[0] != drawn[1]
