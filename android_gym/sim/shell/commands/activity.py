"""``am`` (AOSP ``ActivityManagerShellCommand`` + ``Intent.parseCommandArgs``) and ``monkey`` (development
``cmds/monkey``); the stable task ids and record hashes ``dumpsys`` prints.

``am start`` returns 0 even when the activity does not exist (errors go to stderr, or stdout with ``-W``), as
AOSP does. Launch timings printed by ``-W`` are fixed numbers (cold 250 ms, warm 120 ms, hot 60 ms).
``am broadcast`` delivers to the installed apps' manifest receivers (``App.receivers``) as an ordered broadcast
and prints its result.
"""

from __future__ import annotations

import weakref
import zlib
from dataclasses import dataclass, field, replace

from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.intent import BroadcastResult, Intent
from android_gym.sim.framework.looks import Looks
from android_gym.sim.shell.commands.base import CommandContext, shell_command_exception, short_hash
from android_gym.sim.shell.device import ShellDevice
from android_gym.sim.system.content_types import provider_type
from android_gym.sim.system.logd import PRIORITIES

# android.content.Intent flag values.
FLAG_ACTIVITY_NEW_TASK = 0x10000000
FLAG_ACTIVITY_CLEAR_TASK = 0x00008000
FLAG_RECEIVER_FROM_SHELL = 0x00400000
FLAG_RECEIVER_REGISTERED_ONLY = 0x40000000
_FLAG_OPTIONS = {
    "--grant-read-uri-permission": 0x1, "--grant-write-uri-permission": 0x2,
    "--grant-persistable-uri-permission": 0x40, "--grant-prefix-uri-permission": 0x80,
    "--debug-log-resolution": 0x8, "--exclude-stopped-packages": 0x10, "--include-stopped-packages": 0x20,
    "--activity-brought-to-front": 0x00400000, "--activity-clear-top": 0x04000000,
    "--activity-clear-when-task-reset": 0x00080000, "--activity-exclude-from-recents": 0x00800000,
    "--activity-launched-from-history": 0x00100000, "--activity-multiple-task": 0x08000000,
    "--activity-no-animation": 0x00010000, "--activity-no-history": 0x40000000,
    "--activity-no-user-action": 0x00040000, "--activity-previous-is-top": 0x01000000,
    "--activity-reorder-to-front": 0x00020000, "--activity-reset-task-if-needed": 0x00200000,
    "--activity-single-top": 0x20000000, "--activity-clear-task": FLAG_ACTIVITY_CLEAR_TASK,
    "--activity-task-on-home": 0x00004000, "--activity-match-external": 0x00000800,
    "--receiver-registered-only": FLAG_RECEIVER_REGISTERED_ONLY, "--receiver-replace-pending": 0x20000000,
    "--receiver-foreground": 0x10000000, "--receiver-no-abort": 0x08000000,
    "--receiver-include-background": 0x01000000,
}
_EXTRA_OPTIONS = {"-e", "--es", "--esn", "--ei", "--eu", "--ecn", "--eia", "--eial", "--el", "--ela", "--elal",
                  "--ef", "--efa", "--efal", "--ed", "--eda", "--edal", "--esa", "--esal", "--ez"}
# ``am start`` options that take a value / that stand alone (ActivityManagerShellCommand.makeIntent).
_AM_VALUE_OPTIONS = {"--user", "-P", "--start-profiler", "--sampling", "--attach-agent", "--attach-agent-bind",
                     "-R", "--receiver-permission", "--display", "--windowingMode", "--activityType", "--task",
                     "--splashscreen-show-icon", "--ei-task", "--dismiss-keyguard-if-insecure"}
_AM_PLAIN_OPTIONS = {"-D", "-N", "-W", "-S", "--streaming", "--track-allocation", "--task-overlay",
                     "--lock-task", "--allow-background-activity-starts", "--dismiss-keyguard", "--async",
                     "--background", "--no-window-animation", "--suspend"}
# Launch timings for ``am start -W`` by launch state (deterministic stand-ins for measured times).
_TOTAL_TIME = {"COLD": 250, "WARM": 120, "HOT": 60}


# ----- stable ids for dumps ------------------------------------------------------------------------------------
class _Ids:
    """Task ids and object hashes of one phone's activities."""

    def __init__(self) -> None:
        self.tasks: weakref.WeakKeyDictionary[Screen, int] = weakref.WeakKeyDictionary()
        self.records: weakref.WeakKeyDictionary[Screen, str] = weakref.WeakKeyDictionary()
        self.next_task = 10
        self.next_record = 0
        self.numbered: list[tuple[Screen, Screen]] = []  # each task's root and top when ``number`` last ran


_IDS: weakref.WeakKeyDictionary[ShellDevice, _Ids] = weakref.WeakKeyDictionary()


def _ids(phone: ShellDevice) -> _Ids:
    ids = _IDS.get(phone)
    if ids is None:
        ids = _IDS[phone] = _Ids()
    return ids


def task_id(phone: ShellDevice, task: list[Screen]) -> int:
    """The task's id (``#N`` / ``tN``); the home task is 1, app tasks count up from 10."""
    ids = _ids(phone)
    root = task[0]
    if root not in ids.tasks:
        if root.app is phone.activities.launcher:
            ids.tasks[root] = 1
        else:
            ids.tasks[root] = ids.next_task
            ids.next_task += 1
    return ids.tasks[root]


def record_hash(phone: ShellDevice, screen: Screen) -> str:
    """``Integer.toHexString(System.identityHashCode(record))`` stand-in, stable per activity instance."""
    ids = _ids(phone)
    if screen not in ids.records:
        ids.records[screen] = short_hash(screen.app.package, screen.activity, ids.next_record)
        ids.next_record += 1
    return ids.records[screen]


def number(phone: ShellDevice, tasks: list[list[Screen]]) -> None:
    """Give each of ``tasks`` (front first) its id and its top activity its record hash, in the order a report
    walking them numbers them; nothing to do for a task whose root and top were numbered last time (a step changes
    one task at most: the others have theirs)."""
    ids = _ids(phone)
    ends = [(task[0], task[-1]) for task in tasks]
    if ends == ids.numbered:  # the same activities (screens compare by identity)
        return
    numbered = set(ids.numbered)  # alive while ids.numbered holds them: no other screen takes their hash
    for task, end in zip(tasks, ends):
        if end not in numbered:
            record_hash(phone, end[1])
            task_id(phone, task)
    ids.numbered = ends


def note_tasks(phone: ShellDevice) -> None:
    """Give every task an id, oldest first (called whenever tasks may have been created; tasks are created only
    by what changes the phone's state, so once per state is enough)."""
    tasks = phone.activities.task_stacks
    phone.window.per_state("task ids", lambda: [task_id(phone, task) for task in reversed(tasks())])


def task_by_id(phone: ShellDevice, wanted: int) -> list[Screen] | None:
    """The task with id ``wanted``, if any."""
    return next((task for task in phone.activities.task_stacks() if task_id(phone, task) == wanted), None)


def configuration(phone: ShellDevice, activity_type: str = "undefined") -> str:
    """``Configuration.toString()`` of the display (at its density: a Pixel 6 at 420 dpi), rotated as the display is:
    the font scale first (a Java float), `` night`` after the orientation in the dark theme (not-night is not
    printed)."""
    looks = Looks.of(phone.settings)
    width, height = phone.window.width, phone.window.height
    rotation = phone.window.rotation
    if rotation % 2:
        width, height = height, width
    density = phone.window.density / 160
    width_dp, height_dp = round(width / density), round(height / density)
    bounds = f"Rect(0, 0 - {width}, {height})"
    locale = phone.window.locale.android_name  # the locale list: the running framework's one locale
    return (f"{{{looks.font_scale!r} 310mcc260mnc [{locale}] ldltr sw{min(width_dp, height_dp)}dp w{width_dp}dp "
            f"h{height_dp}dp {phone.window.density}dpi nrml long {'land' if rotation % 2 else 'port'}"
            f"{' night' if looks.night else ''} finger qwerty/v/v dpad/v winConfig={{ mBounds={bounds} "
            f"mAppBounds={bounds} mMaxBounds={bounds} "
            f"mDisplayRotation=ROTATION_{rotation * 90} mWindowingMode=fullscreen mDisplayWindowingMode=fullscreen "
            f"mActivityType={activity_type} mAlwaysOnTop=undefined mRotation=ROTATION_{rotation * 90}}} s.1 "
            "fontWeightAdjustment=0}")


def pid_of(package: str) -> int:
    """A stable process id for a package."""
    return 1000 + zlib.crc32(package.encode()) % 30000


class UsageError(Exception):
    """A bad ``am``/``pm`` argument: AOSP prints the exception and exits 255."""


@dataclass
class ShellIntent:
    """An intent as ``Intent.parseCommandArgs`` builds it, plus the ``am`` options around it."""

    action: str = ""
    data: str = ""
    mime_type: str = ""
    categories: list[str] = field(default_factory=list)
    component: tuple[str, str] | None = None
    package: str = ""
    flags: int = 0
    extras: dict[str, str] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """``Intent.toString()``: ``Intent { act=... cat=[...] dat=... typ=... flg=0x... pkg=... cmp=... }``."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.mime_type:
            parts.append(f"typ={self.mime_type}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"

    def to_intent(self) -> Intent:
        """The simulator's ``Intent`` handed to the started activity."""
        component = "/".join(self.component) if self.component else ""
        return Intent(action=self.action, data=self.data, mime_type=self.mime_type, component=component,
                      categories=tuple(self.categories), extras=dict(self.extras))


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString``: ``pkg/.Act`` when the class is inside the package."""
    return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else f"{package}/{cls}"


def safe_uri(uri: str) -> str:
    """``Uri.toSafeString``: tel:/sms:/mailto: numbers masked with ``x``, web URLs cut to ``//host/...``."""
    scheme, colon, ssp = uri.partition(":")
    if not colon:
        return uri
    ssp = ssp.split("#", 1)[0]
    if scheme.lower() in ("tel", "sip", "sms", "smsto", "mailto", "nfc"):
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in ssp)
    if scheme.lower() in ("http", "https", "ftp", "rtsp"):
        authority = ssp[2:].split("/", 1)[0].split("?", 1)[0] if ssp.startswith("//") else ""
        return f"{scheme}://{authority.rpartition('@')[2]}/..."
    return f"{scheme}:{ssp}"


def _full_class(package: str, cls: str) -> str:
    return package + cls if cls.startswith(".") else cls


def parse_intent(args: list[str]) -> ShellIntent:
    """``Intent.parseCommandArgs`` plus ``am``'s own options; raises ``UsageError``."""
    intent = ShellIntent()
    args = list(args)

    def value(option: str) -> str:
        if not args:
            raise UsageError(f'Argument expected after "{option}"')
        return args.pop(0)

    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt == "-a":
            intent.action = value(opt)
        elif opt == "-d":
            intent.data = value(opt)
        elif opt == "-t":
            intent.mime_type = value(opt)
        elif opt == "-c":
            intent.categories.append(value(opt))
        elif opt == "-n":
            spec = value(opt)
            package, slash, cls = spec.partition("/")
            if not slash or not package or not cls:
                raise UsageError(f"Bad component name: {spec}")
            intent.component = (package, _full_class(package, cls))
        elif opt == "-p":
            intent.package = value(opt)
        elif opt == "-f":
            intent.flags |= int(value(opt), 0)
        elif opt == "-i":
            value(opt)
        elif opt in _EXTRA_OPTIONS:
            key = value(opt)
            if opt in ("--esn",):
                intent.extras[key] = ""
                continue
            raw = value(opt)
            if opt == "--ez":
                lowered = raw.lower()
                if lowered not in ("true", "false", "t", "f", "1", "0"):
                    raise UsageError(f"Invalid boolean value: {raw}")
                raw = "true" if lowered in ("true", "t", "1") else "false"
            elif opt in ("--ei", "--el"):
                int(raw)
            elif opt in ("--ef", "--ed"):
                float(raw)
            intent.extras[key] = raw
        elif opt in _FLAG_OPTIONS:
            intent.flags |= _FLAG_OPTIONS[opt]
        elif opt in _AM_VALUE_OPTIONS:
            intent.options[opt] = value(opt)
        elif opt in _AM_PLAIN_OPTIONS:
            intent.options[opt] = ""
        else:
            raise UsageError(f"Unknown option: {opt}")
    if args:
        target = args.pop(0)
        if ":" in target:
            intent.data = target
        elif "/" in target:
            package, _, cls = target.partition("/")
            intent.component = (package, _full_class(package, cls))
        else:
            intent.package = target
    if args:
        raise UsageError(f"Unknown option: {args[0]}")
    if not (intent.action or intent.data or intent.mime_type or intent.categories or intent.component
            or intent.package or intent.extras):
        raise UsageError("No intent supplied")
    return intent


def argument_exception(ctx: CommandContext, command: str, message: str) -> int:
    """``ShellCommand.exec``'s report of an uncaught ``IllegalArgumentException``."""
    return shell_command_exception(ctx, command, f"java.lang.IllegalArgumentException: {message}")


def resolve_activity(ctx: CommandContext, intent: ShellIntent) -> tuple[App, type[Screen]] | None:
    """The activity an implicit intent starts. Data with no type gets the type its content provider gives it
    first (``runStartActivity`` asks ``getProviderMimeType``), as package manager resolution matches types."""
    resolvable = intent.to_intent()
    if not intent.mime_type and intent.data.startswith("content:"):
        resolvable = replace(resolvable, mime_type=provider_type(intent.data) or "")
    return next(ctx.phone.packages.handlers(resolvable, [intent.package] if intent.package else None), None)


def _start(ctx: CommandContext, args: list[str]) -> int:
    try:
        intent = parse_intent(args)
    except (UsageError, ValueError) as error:
        return argument_exception(ctx, "start", str(error) if isinstance(error, UsageError) else f"{error}")
    wait = "-W" in intent.options
    report = ctx.out if wait else ctx.err
    activities = ctx.phone.activities
    if "-S" in intent.options:
        target = intent.component[0] if intent.component else (intent.package or "")
        if target:
            ctx.out(f"Stopping: {target}\n")
            activities.force_stop(target)
    ctx.out(f"Starting: {intent.describe()}\n")
    intent.flags |= FLAG_ACTIVITY_NEW_TASK
    if intent.component:
        package, cls = intent.component
        app = ctx.phone.packages.get(package)
        screen_class = app.screen_class(cls) if app is not None else None
        if app is None or screen_class is None:
            report(f"Error type 3\nError: Activity class {{{package}/{cls}}} does not exist.\n")
            return 0
    else:
        found = resolve_activity(ctx, intent)
        if found is None:
            report(f"Error: Activity not started, unable to resolve {intent.describe()}\n")
            return 0
        app, screen_class = found
    task = next((t for t in activities.task_stacks() if t[0].app is app), None)
    clear = bool(intent.flags & FLAG_ACTIVITY_CLEAR_TASK)
    if task is not None and not clear and type(task[0]) is screen_class:
        activities.launch(app)
        report("Warning: Activity not started, its current task has been brought to the front\n")
        state = "HOT"
    else:
        activities.launch(app, screen_class, intent.to_intent(), new_task=clear)
        state = "COLD" if task is None else "WARM"
    note_tasks(ctx.phone)
    if wait:
        total = _TOTAL_TIME[state]
        ctx.out(f"Status: ok\nLaunchState: {state}\nActivity: {short_component(app.package, screen_class.activity)}\n"
                f"TotalTime: {total}\nWaitTime: {total + 4}\nComplete\n")
    return 0


def _receivers(ctx: CommandContext, intent: ShellIntent) -> list[tuple[App, str]]:
    """The manifest receivers ``intent`` reaches: none for ``--receiver-registered-only``, the named component, else
    every receiver whose filter lists its action (``IntentFilter.match``: an action-only filter takes no intent
    with data, a type or categories; a filter with data schemes takes only intents whose data has one of them)."""
    packages = ctx.phone.packages
    if intent.flags & FLAG_RECEIVER_REGISTERED_ONLY:
        return []
    if intent.component:
        package, cls = intent.component
        app = packages.get(package)
        return [(app, cls)] if app is not None and cls in app.receivers else []
    if intent.mime_type or intent.categories:
        return []
    scheme = intent.data.split(":", 1)[0] if ":" in intent.data else ""
    infos = [packages.info(name) for name in ([intent.package] if intent.package else packages.names())]
    reached = [(info.package, cls) for info in infos if info is not None
               for cls, actions in info.receivers.items()
               if intent.action in actions and (scheme in info.receiver_schemes.get(cls, ()) if intent.data
                                                else cls not in info.receiver_schemes)]
    return [(app, cls) for package, cls in reached if (app := packages.get(package)) is not None]


def _broadcast(ctx: CommandContext, args: list[str]) -> int:
    """An ordered broadcast (``am`` passes itself as the result receiver): each receiver in turn may set the
    result, which ``IntentReceiver.performReceive`` prints as ``result=N`` plus ``, data="…"`` when set."""
    try:
        intent = parse_intent(args)
    except (UsageError, ValueError) as error:
        return argument_exception(ctx, "broadcast", str(error))
    intent.flags |= FLAG_RECEIVER_FROM_SHELL
    ctx.out(f"Broadcasting: {intent.describe()}\n")
    result = BroadcastResult()
    for app, receiver in _receivers(ctx, intent):
        app.on_receive(receiver, intent.to_intent(), result)
    data = "" if result.data is None else f', data="{result.data}"'
    ctx.out(f"Broadcast completed: result={result.code}{data}\n")
    return 0


def am(ctx: CommandContext, argv: list[str]) -> int:
    """``am start|start-activity|force-stop|kill|kill-all|broadcast|get-current-user|start-service``."""
    if len(argv) < 2 or argv[1] in ("help", "-h"):
        ctx.out("Activity manager (activity) commands:\n  help\n      Print this help text.\n"
                "  start [options] INTENT\n  force-stop [--user <USER_ID> | all | current] <PACKAGE>\n"
                "  broadcast [--user <USER_ID> | all | current] <INTENT>\n")
        return 0 if len(argv) > 1 else 255
    command, args = argv[1], argv[2:]
    if command in ("start", "start-activity"):
        return _start(ctx, args)
    if command in ("force-stop", "kill", "stop-app"):
        args = [a for i, a in enumerate(args) if a != "--user" and (i == 0 or args[i - 1] != "--user")]
        if not args:
            return argument_exception(ctx, command, f'Argument expected after "{command}"')
        if command != "kill":
            ctx.phone.activities.force_stop(args[0])
            # NotificationManagerService cancels a package's notifications on ACTION_PACKAGE_RESTARTED.
            ctx.phone.window.notifications.cancel_package(args[0])
        return 0
    if command == "kill-all":
        return 0
    if command in ("broadcast", "send-broadcast"):
        return _broadcast(ctx, args)
    if command in ("start-service", "startservice", "start-foreground-service", "startforegroundservice"):
        try:
            intent = parse_intent(args)
        except (UsageError, ValueError) as error:
            return argument_exception(ctx, command, str(error))
        ctx.out(f"Starting service: {intent.describe()}\n")
        ctx.err("Error: Not found; no service started.\n")
        return 255
    if command == "get-current-user":
        ctx.out("0\n")
        return 0
    if command == "stack":
        return _stack(ctx, args)
    if command == "task":
        return _task(ctx, args)
    ctx.out(f"Unknown command: {command}\n")
    return 255


def _root_task_info(ctx: CommandContext, task: list[Screen], visible: bool) -> str:
    """``ActivityTaskManager.RootTaskInfo.toString()`` of a task that is its own root (one leaf task), followed by
    the blank line ``println`` adds."""
    phone = ctx.phone
    width, height = phone.window.width, phone.window.height
    if phone.window.rotation % 2:
        width, height = height, width
    ident = task_id(phone, task)
    root, top = task[0], task[-1]
    bounds = f"[0,0][{width},{height}]"
    kind = "home" if root.app is phone.activities.launcher else "standard"
    return (f"RootTask id={ident} bounds={bounds} displayId=0 userId=0\n"
            f" configuration={configuration(phone, kind)}\n"
            f"  taskId={ident}: {root.app.package}/{root.activity} bounds={bounds} userId=0 "
            f"visible={'true' if visible else 'false'} topActivity=ComponentInfo{{{top.app.package}/{top.activity}}}\n"
            "\n")


def _stack(ctx: CommandContext, args: list[str]) -> int:
    """``am stack list|info|remove`` (Android 13 ``runRootTaskList``/``Info``/``Remove``: root tasks, which here
    are the tasks themselves). ``remove`` of an unknown id changes nothing and logs a warning, as
    ``ActivityTaskManagerService.removeTask`` does."""
    phone = ctx.phone
    note_tasks(phone)
    sub = args[0] if args else ""
    tasks = phone.activities.task_stacks()
    if sub == "list":
        ctx.out("".join(_root_task_info(ctx, task, position == 0) for position, task in enumerate(tasks)))
        return 0
    if sub in ("info", "remove"):
        if len(args) < 2:
            return argument_exception(ctx, "stack", f"Argument expected after \"{sub}\"")
        if not args[1].lstrip("-").isdigit():
            return shell_command_exception(ctx, "stack", f'java.lang.NumberFormatException: For input string: '
                                                         f'"{args[1]}"')
        task = task_by_id(phone, int(args[1]))
        if sub == "info":
            if task is not None:
                ctx.out(_root_task_info(ctx, task, task is tasks[0]))
            else:
                ctx.out("null\n")
            return 0
        if task is None:
            phone.logs.write(PRIORITIES["W"], "ActivityTaskManager", f"removeTask: No task remove with id={args[1]}",
                             buffer="system")
        else:
            phone.activities.remove_task(task[0])
        return 0
    ctx.err(f"Error: unknown command '{sub}'\n")
    return 255


def _task(ctx: CommandContext, args: list[str]) -> int:
    """``am task lock <TASK_ID>`` / ``am task lock stop``: screen pinning is accepted but not simulated (the pinned
    task can still be left); ``am task resizeable``/``resize`` are refused."""
    if args[:1] == ["lock"] and len(args) > 1:
        if args[1] != "stop" and task_by_id(ctx.phone, int(args[1]) if args[1].isdigit() else -1) is None:
            return argument_exception(ctx, "task", f"Invalid task id: {args[1]}")
        return 0
    ctx.err(f"Error: unknown command '{args[0] if args else ''}'\n")
    return 255


# ----- monkey ------------------------------------------------------------------------------------------------
def monkey(ctx: CommandContext, argv: list[str]) -> int:
    """``monkey [-p PKG]... [-c CATEGORY]... [-v] [-s SEED] [--throttle MS] COUNT``: launches the package's
    launcher activity (the first event); random events after it are not simulated."""
    args = argv[1:]
    for arg in args:
        ctx.out("  bash arg: " + " ".join(arg.split()) + "\n")
    ctx.err("args: [" + ", ".join(args) + "]\n")
    for arg in args:
        ctx.err(f' arg: "{arg}"\n')
    packages: list[str] = []
    categories: list[str] = []
    verbose = 0
    seed = "0"
    count: int | None = None
    queue = list(args)
    while queue:
        opt = queue.pop(0)
        if not opt.startswith("-"):
            try:
                count = int(opt)
            except ValueError:
                ctx.err(f'** Error: Count is not a number: "{opt}"\n')
                return 255
            break
        if opt == "-v":
            verbose += 1
            continue
        if opt in ("--ignore-crashes", "--ignore-timeouts", "--ignore-security-exceptions", "--hprof",
                   "--monitor-native-crashes", "--ignore-native-crashes", "--kill-process-after-error",
                   "--randomize-throttle", "--dbg-no-events", "--wait-dbg", "--permission-target-system"):
            continue
        if not queue:
            ctx.err(f'** Error: java.lang.IllegalArgumentException: Missing argument for option: {opt}\n')
            return 255
        data = queue.pop(0)
        ctx.err(f'data="{data}"\n')
        if opt == "-p":
            packages.append(data)
        elif opt == "-c":
            categories.append(data)
        elif opt == "-s":
            seed = data
        elif not opt.startswith("--"):
            ctx.err(f"** Error: Unknown option: {opt}\n")
            return 255
    if count is None:
        ctx.err("** Error: Count not specified\n")
        return 255
    categories = categories or ["android.intent.category.LAUNCHER", "android.intent.category.MONKEY"]
    if verbose:
        ctx.out(f":Monkey: seed={seed} count={count}\n" + "".join(f":AllowPackage: {p}\n" for p in packages)
                + "".join(f":IncludeCategory: {c}\n" for c in categories))
    main_apps = [app for app in ctx.phone.packages.launchable()
                 if "android.intent.category.LAUNCHER" in categories and (not packages or app.package in packages)]
    if not main_apps:
        ctx.out("** No activities found to run, monkey aborted.\n")
        return 252
    first = ctx.phone.packages.get(main_apps[0].package)
    if count > 0 and first is not None:
        ctx.phone.activities.launch(first)
        note_tasks(ctx.phone)
    wifi = ctx.phone.settings.get("global", "wifi_on") not in (None, "0")
    elapsed = 10 + count
    ctx.out(f"Events injected: {count}\n## Network stats: elapsed time={elapsed}ms (0ms mobile, "
            f"{elapsed if wifi else 0}ms wifi, {0 if wifi else elapsed}ms not connected)\n")
    return 0


COMMANDS = {"am": am, "monkey": monkey}
