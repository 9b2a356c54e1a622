"""The runtime-permission prompt of Android 13 (PermissionController's ``GrantPermissionsActivity``) for the
notification permission: an app whose ``POST_NOTIFICATIONS`` was revoked (``pm revoke <pkg>
android.permission.POST_NOTIFICATIONS``) asks for it when its process starts with its launcher activity, as apps
that post notifications do at launch; the dialog floats over the app, dimmed (the prompt's window is translucent:
the app shows through it in the pixels, and the dump holds the prompt's window alone). "Allow" grants it, "Don’t
allow" and BACK leave it revoked; either way the app's own state is untouched.

Sources: AOSP ``packages/modules/Permission/PermissionController`` ``res/layout/grant_permissions.xml`` (ids
``grant_dialog``, ``permission_icon``, ``permission_message``, ``permission_allow_button``,
``permission_deny_button``; the Google build's package is ``com.google.android.permissioncontroller``, its ids keep
``com.android.permissioncontroller``), ``res/values/strings.xml`` (``permission_warning_template``
"Allow %1$s to %2$s?", ``permgrouprequest_notifications`` "send you notifications", ``grant_dialog_button_allow``,
``grant_dialog_button_deny``). Its looks, lineage-20.0 (Android 13): ``values-v31/styles.xml`` (the icon tinted
``system_accent1_600``, ``system_accent1_300`` by night in ``values-night-v31``; buttons 56 dp tall, 2 dp above and
below each, text 14 sp in ``system_neutral1_900``), ``drawable-v31/grant_permissions_buttons_*.xml``
(``system_accent1_100`` in both themes, the group's outer corners 12 dp, the corners between the buttons 4 dp: square
here, as a view rounds its corners by one radius) and ``values-night/themes.xml`` (``Theme.PermissionGrantDialog``:
the dialog's ``?colorBackground`` is ``google_grey_800`` by night, where the activity's theme is
``Theme.DeviceDefault.Dialog.Alert`` instead of its ``Light`` twin, so the message is the dark theme's primary text).
"""

from __future__ import annotations

import shlex

from android_gym.sim.framework.app import App, Context, Screen, TranslucentScreen
from android_gym.sim.framework.intent import CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.ui.dialogs import dialog_over
from android_gym.sim.ui.views import TEXT, TOP_CORNERS, Color, View, column, row, text_view

PACKAGE = "com.google.android.permissioncontroller"
POST_NOTIFICATIONS = "android.permission.POST_NOTIFICATIONS"
REQUEST_PERMISSIONS = "android.content.pm.action.REQUEST_PERMISSIONS"  # PackageManager.ACTION_REQUEST_PERMISSIONS
_EXTRA_PACKAGE = "android.intent.extra.PACKAGE_NAME"
MESSAGE = "Allow {} to send you notifications?"
ALLOW, DENY = "Allow", "Don\u2019t allow"
_BUTTON_BG, _DIALOG_BG = (211, 227, 253), (240, 244, 249)  # system_accent1_100; the Material You dialog surface
_ICON_TINT: Color = (11, 87, 208)  # system_accent1_600 (tone 40 of the Pixel's default blue)
#: The prompt by night: the dialog in ``google_grey_800`` (#3C4043) with the dark theme's text, the icon in
#: ``system_accent1_300`` (tone 70); the buttons keep their colours.
NIGHT_COLORS: dict[Color, Color] = {_DIALOG_BG: (0x3C, 0x40, 0x43), TEXT: MATERIAL_YOU_NIGHT[TEXT],
                                    _ICON_TINT: (0x7C, 0xAC, 0xF8)}
_BUTTON_HEIGHT, _BUTTON_GAP, _BUTTON_CORNER = 147, 10, 32  # 56 dp; 2 dp + 2 dp; 12 dp
_BOTTOM_CORNERS = (False, False, True, True)


def rid(name: str) -> str:
    """A resource id of PermissionController's layouts."""
    return f"com.android.permissioncontroller:id/{name}"


class GrantPermissionsScreen(TranslucentScreen):
    """``GrantPermissionsActivity`` asking for ``POST_NOTIFICATIONS`` on behalf of the app under it."""

    activity = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.requester = intent.extras.get(_EXTRA_PACKAGE, "")

    def _answer(self, granted: bool) -> None:
        """"Allow" grants the permission (``pm grant`` does the same); "Don't allow" leaves it revoked."""
        if granted:
            self.phone.run(f"pm grant {shlex.quote(self.requester)} {POST_NOTIFICATIONS}")
        self.finish()

    def build(self) -> View:
        locale = self.phone.window.locale
        requester = self.phone.packages.get(self.requester)
        label = locale.string(requester.label, requester.package) if requester is not None else self.requester
        message = locale.string(MESSAGE, PACKAGE).format(label)

        def button(text: str, name: str, granted: bool, corners: tuple[bool, bool, bool, bool]) -> View:
            return View(kind="button", class_name="android.widget.Button", text=text, resource_id=rid(name),
                        clickable=True, focusable=True, on_click=lambda: self._answer(granted), background=_BUTTON_BG,
                        text_color=TEXT, corner=_BUTTON_CORNER, corners=corners, height=_BUTTON_HEIGHT, text_size=37)

        icon = View(kind="icon", class_name="android.widget.ImageView", hint="notifications",
                    resource_id=rid("permission_icon"), width=76, height=76, text_color=_ICON_TINT)
        buttons = column(button(ALLOW, "permission_allow_button", True, TOP_CORNERS),
                         button(DENY, "permission_deny_button", False, _BOTTOM_CORNERS), spacing=_BUTTON_GAP)
        panel = column(row(View(weight=1), icon, View(weight=1)),
                       text_view(message, resource_id=rid("permission_message"), text_size=50, padding=32,
                                 gravity="center"),
                       buttons, resource_id=rid("grant_dialog"), background=_DIALOG_BG, padding=60, spacing=21,
                       corner=73, width=920)
        return dialog_over(self.behind(), panel, None)


class PermissionController(App):
    """``com.google.android.permissioncontroller``: no launcher icon; its one activity asks for permissions."""

    package = PACKAGE
    label = "Permission controller"
    screens = (GrantPermissionsScreen,)
    intent_filters = (IntentFilter((REQUEST_PERMISSIONS,), (CATEGORY_DEFAULT,)),)  # GrantPermissionsActivity's
    launchable = False
    night_colors = NIGHT_COLORS  # values-night/themes.xml: the prompt follows the system's dark theme

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """``ACTION_REQUEST_PERMISSIONS`` opens the prompt."""
        return GrantPermissionsScreen if intent.action == REQUEST_PERMISSIONS else None


def request_at_launch(phone: Context, app: App, screen: Screen) -> None:
    """The app's process just started with ``screen``: if its notification permission was revoked, it asks for it
    (``Activity.requestPermissions``), which starts the prompt on top of its task."""
    controller = phone.packages.get(PACKAGE)
    if controller is None or app.package == PACKAGE or not phone.packages.revoked(app.package, POST_NOTIFICATIONS):
        return
    prompt = phone.activities.push(controller, GrantPermissionsScreen,
                                   Intent(action=REQUEST_PERMISSIONS, extras={_EXTRA_PACKAGE: app.package}))
    if isinstance(prompt, GrantPermissionsScreen):
        prompt.opened_over = screen
