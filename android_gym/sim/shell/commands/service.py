"""``cmd SERVICE``, which hands package, activity, settings, input and window (``wm``) to their shell commands
and toggles the radios, and ``service`` (AOSP ``cmds/service``), which lists binder services and calls the
transactions device setup uses."""

from __future__ import annotations

from android_gym.sim.shell.commands import input as input_commands
from android_gym.sim.shell.commands import looks
from android_gym.sim.shell.commands import settings as settings_commands
from android_gym.sim.shell.commands.activity import am
from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.shell.commands.notification import notification
from android_gym.sim.shell.commands.package import pm
from android_gym.sim.shell.commands.window import wm
from android_gym.sim.system import radios


def cmd(ctx: CommandContext, argv: list[str]) -> int:
    """``cmd SERVICE ...`` for package, activity, settings, input, window, notification, uimode, overlay, wifi,
    bluetooth_manager, connectivity and statusbar."""
    if len(argv) < 2:
        ctx.err("cmd: No service specified; use -l to list all running services.\n")
        return 20
    service, args = argv[1], argv[2:]
    delegates = {"package": pm, "activity": am, "settings": settings_commands.settings,
                 "input": input_commands.input_command, "window": wm, "notification": notification,
                 "uimode": looks.uimode, "overlay": looks.overlay}
    if service in delegates:
        return delegates[service](ctx, [service, *args])
    action = args[0] if args else ""
    if service == "wifi" and action == "set-wifi-enabled" and len(args) > 1:
        radios.set_wifi(ctx.phone, args[1] == "enabled")
        return 0
    if service == "wifi" and action == "status":
        on = ctx.phone.settings.get("global", "wifi_on") not in (None, "0")
        ctx.out(f"Wifi is {'enabled' if on else 'disabled'}\n")
        return 0
    if service == "bluetooth_manager" and action in ("enable", "disable"):
        radios.set_bluetooth(ctx.phone, action == "enable")
        return 0
    if service == "connectivity" and action == "airplane-mode":
        if len(args) > 1:
            radios.set_airplane_mode(ctx.phone, args[1] == "enable")
        else:
            on = ctx.phone.settings.get("global", "airplane_mode_on") == "1"
            ctx.out("enabled\n" if on else "disabled\n")
        return 0
    if service == "statusbar":
        return 0
    if service in ("wifi", "bluetooth_manager", "connectivity"):
        ctx.out(f"Unknown command: {action}\n")
        return 255
    ctx.err(f"cmd: Can't find service: {service}\n")
    return 20


#: Binder services ``service list`` shows (name and interface), a subset of an API-33 emulator's.
_SERVICES = {
    "activity": "android.app.IActivityManager", "activity_task": "android.app.IActivityTaskManager",
    "alarm": "android.app.IAlarmManager", "clipboard": "android.content.IClipboard",
    "connectivity": "android.net.IConnectivityManager", "content": "android.content.IContentService",
    "input": "android.hardware.input.IInputManager", "input_method": "com.android.internal.view.IInputMethodManager",
    "package": "android.content.pm.IPackageManager", "power": "android.os.IPowerManager",
    "settings": "", "statusbar": "com.android.internal.statusbar.IStatusBarService",
    "telephony.registry": "com.android.internal.telephony.ITelephonyRegistry", "wifi": "android.net.wifi.IWifiManager",
    "window": "android.view.IWindowManager",
}
#: Names of the one zone the simulated phone keeps (its clock and every app show UTC).
UTC_ZONES = frozenset({"UTC", "Etc/UTC", "GMT", "Etc/GMT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"})
#: ``IAlarmManager.aidl`` transaction codes (FIRST_CALL_TRANSACTION + declaration order).
_ALARM_SET_TIME, _ALARM_SET_TIME_ZONE = 2, 3


def _parcel(data: bytes) -> str:
    """``Parcel``'s ``operator<<`` for a small reply: ``Parcel(`` + libbinder's one-line ``printHexData`` (32-bit
    little-endian words, a space per word slot, then the bytes as ASCII) + ``)``."""
    if not data:
        return "Parcel(NULL)"
    words = [data[i:i + 4][::-1].hex() for i in range(0, len(data), 4)]
    text = "".join(chr(b) if 32 <= b < 127 else "." for b in data)
    return f"Parcel({' '.join(words)}{' ' * (4 - len(words))} '{text}')"


def _call_arguments(args: list[str]) -> list[str | int | None] | None:
    """The typed arguments of ``service call`` (``i32 N``, ``i64 N``, ``f N``, ``d N``, ``s16 STR``, ``null``);
    ``None`` when malformed."""
    values: list[str | int | None] = []
    queue = list(args)
    while queue:
        kind = queue.pop(0)
        if kind == "null":
            values.append(None)
            continue
        if kind not in ("i32", "i64", "f", "d", "s16") or not queue:
            return None
        raw = queue.pop(0)
        if kind in ("i32", "i64"):
            if not raw.lstrip("-").isdigit():
                return None
            values.append(int(raw))
        else:
            values.append(raw)
    return values


def service(ctx: CommandContext, argv: list[str]) -> int:
    """``service list``, ``service check SERVICE`` and ``service call SERVICE CODE [ARGS]`` for the alarm
    manager's ``setTime`` (2) and ``setTimeZone`` (3), which set the device clock and ``persist.sys.timezone``
    (``AlarmManagerService.setTimeZoneImpl``; only UTC, the zone the simulated phone keeps). Other transactions
    are refused as not simulated."""
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        ctx.out("Usage: service [-h|-?]\n       service list\n       service check SERVICE\n"
                "       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null ] ...\n")
        return 0 if args else 20
    command = args[0]
    if command == "list":
        ctx.out(f"Found {len(_SERVICES)} services:\n" + "".join(
            f"{index}\t{name}: [{interface}]\n" for index, (name, interface) in enumerate(sorted(_SERVICES.items()))))
        return 0
    if command == "check" and len(args) > 1:
        ctx.out(f"Service {args[1]}: {'found' if args[1] in _SERVICES else 'not found'}\n")
        return 0
    if command == "call" and len(args) > 2:
        name, code_text = args[1], args[2]
        if name not in _SERVICES:
            return ctx.fail("service", f"Service {name} does not exist")
        values = _call_arguments(args[3:])
        if not code_text.isdigit() or values is None:
            return ctx.fail("service", "call: malformed arguments; use i32 N, i64 N, f N, d N, s16 STR or null")
        code = int(code_text)
        if name == "alarm" and code == _ALARM_SET_TIME_ZONE and len(values) == 1 and isinstance(values[0], str):
            if values[0] not in UTC_ZONES:
                return ctx.fail("service", f"setTimeZone({values[0]}): the simulated phone keeps UTC; other zones "
                                           "are not simulated")
            ctx.phone.props["persist.sys.timezone"] = values[0]
            ctx.out(f"Result: {_parcel(bytes(4))}\n")
            return 0
        if name == "alarm" and code == _ALARM_SET_TIME and len(values) == 1 and isinstance(values[0], int):
            ctx.phone.clock.set(values[0])
            ctx.out(f"Result: {_parcel(bytes(4) + (1).to_bytes(4, 'little'))}\n")
            return 0
        return ctx.fail("service", f"call {name} {code_text}: this transaction is not simulated")
    return ctx.fail("service", f"Unknown command {command}")


COMMANDS = {"wm": wm, "cmd": cmd, "service": service}
