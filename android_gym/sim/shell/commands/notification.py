"""``cmd notification`` (AOSP ``NotificationShellCmd``): ``post`` puts a notification from ``com.android.shell`` on
its "Shell command" channel (importance default: an icon in the status bar and a row in the shade, no heads-up).

Output as the real command prints it: ``posting:`` and the notification's ``toString``; the usage text for
``--help`` and a missing tag or text. Only ``-t/--title`` of the flags is simulated (icons, styles and content
intents are refused as not simulated).
"""

from __future__ import annotations

from android_gym.sim.framework.notifications import Notification
from android_gym.sim.shell.commands.base import CommandContext

PACKAGE = "com.android.shell"  # NotificationShellCmd.NOTIFICATION_PACKAGE
NOTIFICATION_ID = 1138  # NotificationShellCmd.NOTIFICATION_ID
CHANNEL = "shellcmd"  # NotificationShellCmd.CHANNEL_ID
APP_NAME = "Shell"  # com.android.shell's label
NOTIFY_USAGE = "usage: cmd notification post [flags] <tag> <text>\n\nflags:\n  -h|--help\n  -v|--verbose\n" \
               "  -t|--title <text>\n  -i|--icon <iconspec>\n  -I|--large-icon <iconspec>\n" \
               "  -S|--style <style> [styleargs]\n  -c|--content-intent <intentspec>\n"
_USAGE = "usage: cmd notification SUBCMD [args]\n\nSUBCMDs:\n  post [--help | flags] TAG TEXT\n"


def notification(ctx: CommandContext, argv: list[str]) -> int:
    """``cmd notification post|notify [-t TITLE] TAG TEXT``."""
    args = argv[1:]
    if not args or args[0] not in ("post", "notify"):
        ctx.out(_USAGE if not args else f"Unknown command: {args[0]}\n")
        return 0 if not args else 255
    args, title, verbose = args[1:], "", False
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-t", "--title", "title") and args:
            title = args.pop(0)
        elif option in ("-v", "--verbose"):
            verbose = True
        elif option in ("-h", "--help", "--wtf"):
            ctx.out(NOTIFY_USAGE + "\n")
            return 0
        else:
            return ctx.fail("cmd notification", f"post {option}: only -t/--title is simulated")
    if len(args) < 2:
        ctx.out(NOTIFY_USAGE + "\n")
        return 255
    tag, text = args[0], args[1]
    ctx.phone.window.notifications.post(Notification(
        package=PACKAGE, app_name=APP_NAME, tag=tag, id=NOTIFICATION_ID, title=title, text=text,
        icon="notify_chat"))
    # Notification.toString for a notification with no style, actions or vibration (channel shellcmd).
    ctx.out(f"posting:\n  Notification(channel={CHANNEL} shortcut=null contentView=null vibrate=null sound=null "
            "defaults=0x0 flags=0x0 color=0x00000000 vis=PRIVATE)\n")
    if verbose:
        ctx.out(f"posted: \n  key=0|{PACKAGE}|{NOTIFICATION_ID}|{tag}|2000\n")
    return 0
