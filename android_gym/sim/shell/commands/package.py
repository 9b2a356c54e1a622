"""``pm`` (AOSP ``PackageManagerShellCommand``): list, path, install, uninstall, clear, grant, revoke,
resolve-activity and dump (the same dump as ``dumpsys package``)."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import zlib

from android_gym.sim.framework.packages import RUNTIME_PERMISSIONS, GrantError, InstallError, PackageRecord
from android_gym.sim.shell.commands.activity import UsageError, argument_exception, parse_intent, resolve_activity
from android_gym.sim.shell.commands.base import CommandContext, app_uid, shell_command_exception, short_hash
from android_gym.sim.system.apk import ApkError, read_apk


def is_system_package(package: str) -> bool:
    """Whether a package ships in the system image (simplified: Android's and Google's own packages)."""
    return package == "android" or package.startswith(("com.android.", "com.google.android."))


def apk_path(package: str) -> str:
    """``ApplicationInfo.sourceDir``: ``/data/app/~~<random>==/<pkg>-<random>==/base.apk`` for installed apps
    (the random parts are a stable hash here), ``/system/priv-app/<Name>/<Name>.apk`` for system ones."""
    digest = hashlib.sha256(package.encode()).digest()
    if is_system_package(package):
        name = package.rsplit(".", 1)[-1].capitalize()
        return f"/system/priv-app/{name}/{name}.apk"
    first = base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")
    second = base64.urlsafe_b64encode(digest[16:]).decode().rstrip("=")
    return f"/data/app/~~{first}==/{package}-{second}==/base.apk"


def _strip_user(args: list[str]) -> list[str]:
    out = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--user":
            skip = True
        else:
            out.append(arg)
    return out


_INSTALL_FLAGS = {"-r", "-t", "-g", "-d", "-f", "-l", "-s", "-R", "--dont-kill", "--restrict-permissions",
                  "--force-queryable", "--instant", "--full", "--wait", "--no-wait", "--staged"}
_INSTALL_VALUE_OPTIONS = {"-i", "-S", "-p", "--user", "--install-location", "--install-reason",
                          "--originating-uri", "--referrer", "--abi", "--pkg"}


def _install(ctx: CommandContext, args: list[str]) -> int:
    """``pm install [-r] [-t] [-g] [-d] [-i PKG] [--user U] [-S SIZE] [PATH|-]`` (``PackageManagerShellCommand.
    runInstall``): ``-r`` and ``-t`` are accepted (replacing is always allowed here), ``-g`` grants every requested
    runtime permission, ``-d`` allows a version downgrade (the image is debuggable). With ``-S`` and no path (or
    ``-``) the APK is read from standard input: ``adb install``'s streamed install."""
    flags, paths, rest, size = set(), [], list(args), None
    while rest:
        arg = rest.pop(0)
        if arg in _INSTALL_VALUE_OPTIONS:
            if not rest:
                return argument_exception(ctx, "install", f'Argument expected after "{arg}"')
            value = rest.pop(0)
            if arg == "-S":
                if not value.isdigit():
                    return argument_exception(ctx, "install", f"Invalid value for -S: {value}")
                size = int(value)
        elif arg in _INSTALL_FLAGS:
            flags.add(arg)
        elif arg.startswith("-") and arg != "-":
            return argument_exception(ctx, "install", f"Unknown option {arg}")
        else:
            paths.append(arg)
    if not paths and size is None:
        ctx.err("Error: must either specify a package size or an APK file\n")
        return 1
    if not paths or paths[0] == "-":
        data = ctx.read_stdin(size) if size is not None else ctx.stdin
    else:
        host = ctx.host(paths[0])
        if not host.is_file():
            ctx.err(f"Error: Can't open file: {paths[0]}\n")
            return argument_exception(ctx, "install", f"Error: Can't open file: {paths[0]}")
        data = host.read_bytes()
    staged = f"/data/app/vmdl{zlib.crc32(data) & 0x7FFFFFFF}.tmp/base.apk"  # the session's copy of the APK
    try:
        info = read_apk(data)
        ctx.phone.packages.install_apk(info, allow_downgrade="-d" in flags, grant_runtime="-g" in flags)
    except ApkError as error:
        ctx.out(f"Failure [{error.code}: {error.message(staged)}]\n")
        return 1
    except InstallError as error:
        ctx.out(f"Failure [{error.code}: {error.message}]\n")
        return 1
    ctx.out("Success\n")
    return 0


def _uninstall(ctx: CommandContext, args: list[str]) -> int:
    """``pm uninstall [-k] [--user U] PKG``: a system package can only be removed for a user (``--user``)."""
    names = _strip_user([arg for arg in args if arg != "-k"])
    if not names:
        ctx.err("Error: package name not specified\n")
        return 1
    package = names[0]
    record = ctx.phone.packages.record(package)
    system = record is not None and is_system_package(package) and not record.from_apk
    if (system and "--user" not in args) or not ctx.phone.packages.uninstall(package):
        ctx.out("Failure [DELETE_FAILED_INTERNAL_ERROR]\n")
        return 1
    ctx.out("Success\n")
    return 0


def pm(ctx: CommandContext, argv: list[str]) -> int:
    """``pm list packages [-3 -s -f -U -i] [FILTER]``, ``pm install|uninstall|path|clear|grant|revoke|
    resolve-activity|dump``."""
    if len(argv) < 2:
        ctx.out("Package manager (package) commands:\n  help\n    Print this help text.\n")
        return 255
    if argv[1] == "install":
        return _install(ctx, argv[2:])
    if argv[1] == "uninstall":
        return _uninstall(ctx, argv[2:])
    command, args = argv[1], _strip_user(argv[2:])
    packages = ctx.phone.packages
    if command == "list":
        kind = args[0] if args else ""
        options = [a for a in args[1:] if a.startswith("-")]
        filters = [a for a in args[1:] if not a.startswith("-")]
        if kind in ("packages", "package"):
            flags = set("".join(o[1:] for o in options))
            names = sorted(packages.names())
            for name in names:
                if ("3" in flags and is_system_package(name)) or ("s" in flags and not is_system_package(name)):
                    continue
                if filters and filters[0] not in name:
                    continue
                line = "package:" + (f"{apk_path(name)}=" if "f" in flags else "") + name
                if "i" in flags:
                    line += "  installer=" + ("null" if is_system_package(name) else "com.android.shell")
                if "U" in flags:
                    line += f" uid:{app_uid(ctx.phone, name)}"
                ctx.out(line + "\n")
            return 0
        if kind == "users":
            ctx.out("Users:\n\tUserInfo{0:Owner:c13} running\n")
            return 0
        ctx.err(f"Error: unknown list type '{kind}'\n")
        return 255
    if command == "path":
        if not args or packages.get(args[-1]) is None:
            return 1
        ctx.out(f"package:{apk_path(args[-1])}\n")
        return 0
    if command == "clear":
        if not args:
            return argument_exception(ctx, command, "Argument expected after \"clear\"")
        if packages.clear(args[-1]):
            ctx.out("Success\n")
            return 0
        ctx.err("Failed\n")
        return 1
    if command in ("grant", "revoke"):
        if len(args) < 2:
            return argument_exception(ctx, command, f'Argument expected after "{args[0] if args else command}"')
        try:
            packages.set_permission(args[0], args[1], granted=command == "grant")
        except GrantError as error:
            return shell_command_exception(ctx, command, str(error))
        if command == "revoke":  # PermissionManagerService kills an app whose runtime permission is revoked
            ctx.phone.activities.force_stop(args[0])
        return 0
    if command == "resolve-activity":
        return _pm_resolve_activity(ctx, args)
    if command == "dump":
        return dump_package(ctx, args[0] if args else "")
    ctx.out(f"Unknown command: {command}\n")
    return 255


def _pm_resolve_activity(ctx: CommandContext, args: list[str]) -> int:
    brief = "--brief" in args
    rest = [a for a in args if a not in ("--brief", "--components")]
    try:
        intent = parse_intent(rest)
    except (UsageError, ValueError) as error:
        return argument_exception(ctx, "resolve-activity", str(error))
    if intent.component:
        app = ctx.phone.packages.get(intent.component[0])
        screen = app.screen_class(intent.component[1]) if app else None
        found = (app, screen) if app and screen else None
    else:
        if not intent.action:
            intent.action = "android.intent.action.MAIN"
        found = resolve_activity(ctx, intent)
    if found is None:
        ctx.out("No activity found\n")
        return 0
    app, screen = found
    if brief:
        ctx.out("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n")
    ctx.out(f"{app.package}/{screen.activity}\n")
    return 0


def _stamp(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _permission_lines(record: PackageRecord) -> list[str]:
    """``requested permissions:``, ``install permissions:`` and the user's ``runtime permissions:``
    (``PackageManagerService``'s ``dumpPackageLPr``), each left out when empty."""
    lines = []
    requested = record.requested or ()
    if requested:
        lines += ["    requested permissions:", *(f"      {name}" for name in requested)]
    install = [name for name in requested if name not in RUNTIME_PERMISSIONS]
    if install:
        lines += ["    install permissions:", *(f"      {name}: granted=true" for name in install)]
    lines.append("    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 "
                 "stopped=false notLaunched=false enabled=0 instant=false virtual=false")
    if record.runtime:
        lines.append("      runtime permissions:")
        lines += [f"        {name}: granted={'true' if granted else 'false'}, "
                  "flags=[ USER_SENSITIVE_WHEN_GRANTED|USER_SENSITIVE_WHEN_DENIED]"
                  for name, granted in sorted(record.runtime.items())]
    return lines


def dump_package(ctx: CommandContext, package: str) -> int:
    """``dumpsys package PKG`` (also ``pm dump``): the fields ``adbutils.app_info`` reads, the version and SDK
    levels, install times, and the permission state."""
    record = ctx.phone.packages.record(package)
    if record is None:
        ctx.out(f"Unable to find package: {package}\n")
        return 0
    code_path = apk_path(package).rsplit("/", 1)[0]
    system = is_system_package(package) and not record.from_apk
    flags = "SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA " if system else "HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP "
    lines = [
        "Packages:", f"  Package [{package}] ({short_hash('package', package)}):",
        f"    userId={record.uid}",
        f"    pkg=Package{{{short_hash('pkg', package)} {package}}}",
        f"    codePath={code_path}", f"    resourcePath={code_path}",
        f"    versionCode={record.version_code} minSdk={record.min_sdk} targetSdk={record.target_sdk}",
        f"    versionName={record.version_name}",
        f"    pkgFlags=[ {flags}]",
        f"    timeStamp={_stamp(record.updated_ms)}", f"    firstInstallTime={_stamp(record.installed_ms)}",
        f"    lastUpdateTime={_stamp(record.updated_ms)}",
        f"    installerPackageName={'null' if system else 'com.android.shell'}",
        f"    signatures=PackageSignatures{{{short_hash('sigs', package)} version:2, "
        f"signatures:[{short_hash('sig', package)}], past signatures:[]}}",
        *_permission_lines(record),
    ]
    ctx.out("\n".join(lines) + "\n")
    return 0


COMMANDS = {"pm": pm}
