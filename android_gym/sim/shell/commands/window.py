"""``wm`` (``cmd window``): AOSP ``WindowManagerShellCommand``'s ``size``, ``density`` and ``dismiss-keyguard``.

``wm size WxH`` / ``wm size reset`` and ``wm density D`` / ``wm density reset`` change the display live, as on a
phone (``framework.display`` has WindowManagerService's bounds); without an argument they print the physical value
and the override if one is set.
"""

from __future__ import annotations

import re

from android_gym.sim.framework.display import MIN_DENSITY
from android_gym.sim.shell.commands.base import CommandContext

_DENSITY_DEFAULT = 160  # DisplayMetrics.DENSITY_DEFAULT
_ERROR = 255  # the shell's exit status for the command's -1


def wm(ctx: CommandContext, argv: list[str]) -> int:
    """``wm size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]``, ``wm density [reset|DENSITY] [-d DISPLAY_ID]``,
    ``wm dismiss-keyguard`` (and rotation commands, accepted)."""
    command = argv[1] if len(argv) > 1 else ""
    args = _without_display_option(argv[2:])
    if command == "size":
        return _size(ctx, args[0] if args else None)
    if command == "density":
        return _density(ctx, args[0] if args else None)
    if command in ("dismiss-keyguard", "user-rotation", "fixed-to-user-rotation"):
        return 0
    ctx.out(f"Unknown command: {command}\n" if command else "Window manager (window) commands:\n  help\n")
    return _ERROR


def _without_display_option(args: list[str]) -> list[str]:
    """``args`` less ``-d DISPLAY_ID`` (the simulated phone has one display)."""
    if "-d" not in args:
        return args
    at = args.index("-d")
    return args[:at] + args[at + 2:]


def _size(ctx: CommandContext, value: str | None) -> int:
    """``runDisplaySize``: print ``Physical size`` (and ``Override size``), or set or reset the override."""
    window = ctx.phone.window
    display = window.display
    if value is None:
        ctx.out(f"Physical size: {display.physical_width}x{display.physical_height}\n")
        if display.forced_size is not None:
            ctx.out(f"Override size: {display.forced_size[0]}x{display.forced_size[1]}\n")
        return 0
    if value == "reset":
        window.set_display(display.without_size())
        return 0
    width_text, separator, height_text = value.partition("x")
    if not separator or not width_text or not height_text:
        ctx.err(f"Error: bad size {value}\n")
        return _ERROR
    try:
        width, height = (_dimension(text, display.density) for text in (width_text, height_text))
    except ValueError as error:
        return _bad_number(ctx, error)
    window.set_display(display.with_size(width, height))
    return 0


def _dimension(text: str, density: int) -> int:
    """``parseDimension``: pixels, with an optional ``px`` suffix, or ``dp`` at the current density."""
    if text.endswith("px"):
        return _integer(text[:-2])
    if text.endswith("dp"):
        return _integer(text[:-2]) * density // _DENSITY_DEFAULT
    return _integer(text)


def _integer(text: str) -> int:
    """``Integer.parseInt``: an optional sign and decimal digits (``ValueError`` with the text otherwise)."""
    if not re.fullmatch(r"[+-]?[0-9]+", text):
        raise ValueError(text)
    return int(text)


def _bad_number(ctx: CommandContext, error: ValueError) -> int:
    """What the command prints when ``Integer.parseInt`` throws."""
    ctx.err(f'Error: bad number java.lang.NumberFormatException: For input string: "{error.args[0]}"\n')
    return _ERROR


def _density(ctx: CommandContext, value: str | None) -> int:
    """``runDisplayDensity``: print ``Physical density`` (and ``Override density``), or set or reset it."""
    window = ctx.phone.window
    display = window.display
    if value is None:
        ctx.out(f"Physical density: {display.physical_density}\n")
        if display.forced_density is not None:
            ctx.out(f"Override density: {display.forced_density}\n")
        return 0
    if value == "reset":
        window.set_display(display.with_density(None))
        return 0
    try:
        density = _integer(value)
    except ValueError as error:
        return _bad_number(ctx, error)
    if density < MIN_DENSITY:
        ctx.err(f"Error: density must be >= {MIN_DENSITY}\n")
        return _ERROR
    window.set_display(display.with_density(density))
    return 0


COMMANDS = {"wm": wm}
