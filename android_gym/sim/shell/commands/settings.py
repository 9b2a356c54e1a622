"""``settings`` (AOSP ``SettingsService.MyShellCommand``) and ``svc wifi|data|bluetooth`` (``cmds/svc``).

The radios are settings here (``system.radios`` records them as the system services do); mobile data is
``global mobile_data``.
"""

from __future__ import annotations

from android_gym.device.base import SETTINGS_NAMESPACES
from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.system import radios

_SETTINGS_USAGE = """Settings provider (settings) commands:
  help
      Print this help text.
  get [--user <USER_ID> | current] NAMESPACE KEY
      Retrieve the current value of KEY.
  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]
      Change the contents of KEY to VALUE.
  delete [--user <USER_ID> | current] NAMESPACE KEY
      Delete the entry for KEY.
  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}
      Reset the global/secure table for a package with mode.
  list [--user <USER_ID> | current] NAMESPACE
      Print all defined keys.
      NAMESPACE is one of {system, secure, global}, case-insensitive
"""


def settings(ctx: CommandContext, argv: list[str]) -> int:
    """``settings [--user N|current] get|put|delete|list|reset NAMESPACE [KEY [VALUE [TAG] [default]]]``."""
    args = argv[1:]
    if not args or args[0] in ("help", "-h"):
        ctx.out(_SETTINGS_USAGE)
        return 0 if args else 255
    user: str | None = None
    verb: str | None = None
    table: str | None = None
    rest: list[str] = []
    while args:
        arg = args.pop(0)
        if arg == "--user":
            if user is not None or not args:
                break
            user = args.pop(0)
        elif verb is None:
            if arg.lower() not in ("get", "put", "delete", "list", "reset"):
                ctx.err(f"Invalid command: {arg}\n")
                return 255
            verb = arg.lower()
        elif table is None:
            if arg.lower() not in SETTINGS_NAMESPACES:
                ctx.err(f"Invalid namespace '{arg}'\n")
                return 255
            table = arg.lower()
        else:
            rest.append(arg)
    needed = {"get": (1, 1), "delete": (1, 1), "list": (0, 0), "put": (2, 4), "reset": (1, 2)}
    if verb is None or table is None or not needed[verb][0] <= len(rest) <= needed[verb][1]:
        ctx.err("Too many arguments\n" if verb and table and len(rest) > needed[verb][1] else "Bad arguments\n")
        return 255
    if user is not None and verb in ("delete", "list"):
        ctx.err("--user not supported for delete and list.\n")
        return 255
    if user not in (None, "0", "current", "cur"):
        ctx.err(f"Invalid user: {user}\n")
        return 255
    store = ctx.phone.settings
    if verb == "get":
        value = store.get(table, rest[0])
        ctx.out(("null" if value is None else value) + "\n")
    elif verb == "put":
        if len(rest) == 4 and rest[3].lower() != "default":
            ctx.err("Argument expected to be 'default'\n")
            return 255
        if store.put(table, rest[0], rest[1]):  # SettingsState.insertSettingLocked: an equal value notifies none
            ctx.phone.invalidate()
    elif verb == "delete":
        deleted = store.delete(table, rest[0])
        ctx.out(f"Deleted {int(deleted)} rows\n")
        if deleted:
            ctx.phone.invalidate()
    elif verb == "list":
        ctx.out("".join(f"{key}={value}\n" for key, value in store.items(table)))
    return 0


_SVC_USAGE = {
    "wifi": "Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n\n",
    "data": "Control mobile data connectivity\n\nusage: svc data [enable|disable]\n"
            "         Turn mobile data on or off.\n\n",
    "bluetooth": "Control the Bluetooth manager\n\nusage: svc bluetooth [enable|disable]\n"
                 "         Turn Bluetooth on or off.\n\n",
}


def svc(ctx: CommandContext, argv: list[str]) -> int:
    """``svc wifi|data|bluetooth enable|disable`` (``svc power|usb|nfc`` are accepted and do nothing)."""
    args = argv[1:]
    if not args or args[0] in ("help", "-h"):
        ctx.out("Available commands:\n    help     Show information about the subcommands\n"
                "    power    Control the power manager\n    data     Control mobile data connectivity\n"
                "    wifi     Control the Wi-Fi manager\n    usb      Control Usb state\n"
                "    nfc      Control NFC functions\n    bluetooth Control Bluetooth service\n")
        return 0
    service = args[0]
    action = args[1] if len(args) > 1 else ""
    if service in ("power", "usb", "nfc", "system"):
        return 0
    if service not in _SVC_USAGE:
        ctx.out(f"Unknown command: {service}\n")
        return 1
    if action not in ("enable", "disable"):
        ctx.err(_SVC_USAGE[service])
        return 1
    enabled = action == "enable"
    if service == "wifi":
        radios.set_wifi(ctx.phone, enabled)
    elif service == "bluetooth":
        radios.set_bluetooth(ctx.phone, enabled)
    else:
        radios.set_mobile_data(ctx.phone, enabled)
    return 0


COMMANDS = {"settings": settings, "svc": svc}
