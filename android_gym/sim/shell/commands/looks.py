"""``cmd uimode`` (AOSP ``UiModeManagerService.Shell``) and ``cmd overlay`` (``OverlayManagerShellCommand``) for
the looks the phone simulates: the dark theme and the navigation bar's overlays. Both record their state in the
settings Android keeps it in (``framework.looks``), which the window manager draws from."""

from __future__ import annotations

from android_gym.sim.framework.looks import (
    MODE_NIGHT_AUTO,
    MODE_NIGHT_NO,
    MODE_NIGHT_YES,
    NAV_BAR_MODE_3BUTTON,
    NAVBAR_OVERLAY_TARGET,
    NAVBAR_OVERLAYS,
    NAVIGATION_MODE,
    UI_NIGHT_MODE,
)
from android_gym.sim.shell.commands.base import CommandContext

_NIGHT_MODES = {"auto": MODE_NIGHT_AUTO, "no": MODE_NIGHT_NO, "yes": MODE_NIGHT_YES}


def uimode(ctx: CommandContext, argv: list[str]) -> int:
    """``cmd uimode night [yes|no|auto]``: sets the night mode (``Settings.Secure.UI_NIGHT_MODE``) and prints it as
    ``Night mode: yes``, as ``printCurrentNightMode`` does; without a mode only prints it."""
    args = argv[1:]
    if args[:1] != ["night"]:
        ctx.out(f"Unknown command: {args[0]}\n" if args else "UiModeManager service (uimode) commands:\n  help\n")
        return 255
    if len(args) > 1:
        mode = _NIGHT_MODES.get(args[1])
        if mode is None:
            ctx.err("Error: mode must be 'yes', 'no', or 'auto', or 'custom'\n")
            return 255
        ctx.phone.settings.put("secure", UI_NIGHT_MODE, str(mode))
        ctx.phone.invalidate()
    current = int(ctx.phone.settings.get("secure", UI_NIGHT_MODE) or MODE_NIGHT_NO)
    name = next((name for name, value in _NIGHT_MODES.items() if value == current), "unknown")
    ctx.out(f"Night mode: {name}\n")
    return 0


def overlay(ctx: CommandContext, argv: list[str]) -> int:
    """``cmd overlay list [--user N] [PACKAGE]`` and ``cmd overlay enable-exclusive [--user N] [--category]
    PACKAGE`` for SystemUI's navigation-bar overlays: enabling one of them disables the others of its category and
    sets ``Settings.Secure.NAVIGATION_MODE`` to its mode; an overlay the phone does not have fails with status 1 and
    no output, as ``setEnabledExclusive`` returning false does."""
    verb, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    options, positional = _options(args)
    allowed = ("--user",) if verb == "list" else ("--user", "--category")
    unknown = [option for option in options if option not in allowed]
    if unknown:
        ctx.err(f"Error: Unknown option: {unknown[0]}\n")
        return 1
    if verb == "list":
        return _list(ctx, positional[0] if positional else None)
    if verb == "enable-exclusive":
        if not positional:
            ctx.err("Error: Argument expected after \"enable-exclusive\"\n")
            return 255
        mode = NAVBAR_OVERLAYS.get(positional[0])
        if mode is None:
            return 1
        ctx.phone.settings.put("secure", NAVIGATION_MODE, str(mode))
        ctx.phone.invalidate()
        return 0
    ctx.out(f"Unknown command: {verb}\n" if verb else "Overlay manager (overlay) commands:\n  help\n")
    return 255


def _options(args: list[str]) -> tuple[list[str], list[str]]:
    """The options before the first other argument (``--user N`` takes a value), and the other arguments."""
    options: list[str] = []
    positional: list[str] = []
    queue = list(args)
    while queue:
        arg = queue.pop(0)
        if arg.startswith("--") and not positional:
            options.append(arg)
            if arg == "--user" and queue:
                queue.pop(0)
        else:
            positional.append(arg)
    return options, positional


def _list(ctx: CommandContext, package: str | None) -> int:
    """``runList``: the overlays grouped under their target, ``[x]`` enabled, ``[ ]`` disabled (alphabetical, as
    the target's overlays are kept); with a package, that target's overlays or the one overlay's line."""
    mode = ctx.phone.settings.get("secure", NAVIGATION_MODE) or str(NAV_BAR_MODE_3BUTTON)
    lines = [f"{'[x]' if str(value) == mode else '[ ]'} {name}" for name, value in sorted(NAVBAR_OVERLAYS.items())]
    if package is None or package == NAVBAR_OVERLAY_TARGET:
        ctx.out(f"{NAVBAR_OVERLAY_TARGET}\n" + "".join(f"{line}\n" for line in lines) + ("\n" if package is None
                                                                                        else ""))
        return 0
    ctx.out("".join(f"{line}\n" for line in lines if line.endswith(f" {package}")))
    return 0
