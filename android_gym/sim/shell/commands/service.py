"""``wm`` (AOSP ``WindowManagerShellCommand``) and ``cmd SERVICE``, which hands package, activity, settings,
input and window to their shell commands and toggles the radios."""

from __future__ import annotations

from android_gym.sim.shell.commands import input as input_commands
from android_gym.sim.shell.commands import settings as settings_commands
from android_gym.sim.shell.commands.activity import am
from android_gym.sim.shell.commands.base import CommandContext
from android_gym.sim.shell.commands.package import pm
from android_gym.sim.system import radios


def wm(ctx: CommandContext, argv: list[str]) -> int:
    """``wm size``, ``wm density``, ``wm dismiss-keyguard`` (changing size or density is not simulated)."""
    command = argv[1] if len(argv) > 1 else ""
    args = argv[2:]
    if args[:1] == ["-d"]:
        args = args[2:]
    if command == "size":
        if args and args[0] != "reset":
            return ctx.fail("wm", "changing the display size is not simulated")
        ctx.out(f"Physical size: {ctx.phone.window.width}x{ctx.phone.window.height}\n")
        return 0
    if command == "density":
        if args and args[0] != "reset":
            return ctx.fail("wm", "changing the display density is not simulated")
        ctx.out(f"Physical density: {ctx.phone.props.get('ro.sf.lcd_density', '420')}\n")
        return 0
    if command in ("dismiss-keyguard", "user-rotation", "fixed-to-user-rotation"):
        return 0
    ctx.out(f"Unknown command: {command}\n" if command else "Window manager (window) commands:\n  help\n")
    return 255


def cmd(ctx: CommandContext, argv: list[str]) -> int:
    """``cmd SERVICE ...`` for package, activity, settings, input, window, wifi, bluetooth_manager,
    connectivity and statusbar."""
    if len(argv) < 2:
        ctx.err("cmd: No service specified; use -l to list all running services.\n")
        return 20
    service, args = argv[1], argv[2:]
    delegates = {"package": pm, "activity": am, "settings": settings_commands.settings,
                 "input": input_commands.input_command, "window": wm}
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


COMMANDS = {"wm": wm, "cmd": cmd}
