"""``dumpsys`` for the services automation reads: window, activity, display, package, power, battery,
input_method, SurfaceFlinger.

Dumps keep the exact lines tools parse (``WindowManagerService``/``DisplayContent``/``ActivityRecord``/
``Task.toString`` of Android 13): ``  mCurrentFocus=Window{<hash> u0 pkg/full.Activity}``,
``  mFocusedApp=ActivityRecord{<hash> u0 pkg/.Act t<task>}``, ``topResumedActivity=``, ``ResumedActivity:``,
``mResumedActivity:``, ``ACTIVITY pkg/.Act <hash> pid=<pid>``, ``Physical size``, ``orientation=``,
``versionCode=``, ``versionName=``, ``lastUpdateTime=`` and the package's permission sections (``requested
permissions:``, ``install permissions:``, ``runtime permissions:`` with ``NAME: granted=true``); everything else
in a real dump is abridged. Object hashes, task ids and pids are stable
per phone (``activity.task_id``/``record_hash``), never derived from host memory addresses.
"""

from __future__ import annotations

from android_gym.sim.framework.app import Screen
from android_gym.sim.shell.commands.activity import (
    note_tasks,
    pid_of,
    record_hash,
    short_component,
    task_id,
)
from android_gym.sim.shell.commands.base import CommandContext, app_uid, short_hash
from android_gym.sim.shell.commands.package import dump_package
from android_gym.sim.shell.device import ShellDevice


def activity_record(phone: ShellDevice, screen: Screen, task: list[Screen]) -> str:
    """``ActivityRecord{hash u0 pkg/.Act tN}``."""
    name = short_component(screen.app.package, screen.activity)
    return f"ActivityRecord{{{record_hash(phone, screen)} u0 {name} t{task_id(phone, task)}}}"


def window_name(phone: ShellDevice, screen: Screen) -> str:
    """``Window{hash u0 pkg/full.Activity}`` (the window's hash differs from its activity record's)."""
    return f"Window{{{short_hash('window', record_hash(phone, screen))} u0 {screen.app.package}/{screen.activity}}}"


def _system_window(name: str) -> str:
    return f"Window{{{short_hash('system-window', name)} u0 {name}}}"


# ----- window ------------------------------------------------------------------------------------------------
def _dump_window(ctx: CommandContext, what: str) -> None:
    phone = ctx.phone
    tasks = phone.activities.task_stacks()
    top = phone.activities.top
    front = tasks[0]
    width, height = phone.window.width, phone.window.height
    keyboard = bool(top.focus_key) and top.keyboard_shown
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    windows = ([("InputMethod", "INPUT_METHOD")] if keyboard else []) + [
        ("NavigationBar0", "NAVIGATION_BAR"), ("StatusBar", "STATUS_BAR")]
    index = 0
    for name, kind in windows:
        lines += [f"  Window #{index} {_system_window(name)}:",
                  f"    mDisplayId=0 rootTaskId=1 mSession=Session{{{short_hash('session', name)} 1234:u0a10100}}",
                  f"    mAttrs={{(0,0)(fillxwrap) ty={kind} fmt=TRANSLUCENT}}", "    isOnScreen=true",
                  "    isVisible=true"]
        index += 1
    for position, task in enumerate(tasks):
        screen = task[-1]
        visible = "true" if position == 0 else "false"
        lines += [f"  Window #{index} {window_name(phone, screen)}:",
                  f"    mDisplayId=0 rootTaskId={task_id(phone, task)} mSession=Session{{"
                  f"{short_hash('session', screen.app.package)} {pid_of(screen.app.package)}:"
                  f"u0a{app_uid(phone, screen.app.package) - 10000}}}",
                  "    mAttrs={(0,0)(fillxfill) ty=BASE_APPLICATION fmt=TRANSLUCENT}",
                  f"    mActivityRecord={activity_record(phone, screen, task)}",
                  f"    isOnScreen={visible}", f"    isVisible={visible}"]
        index += 1
    lines += [
        "",
        f"  mGlobalConfiguration={{1.0 310mcc260mnc [en_US] ldltr sw411dp w411dp h914dp 420dpi nrml long port "
        f"finger qwerty/v/v dpad/v winConfig={{ mBounds=Rect(0, 0 - {width}, {height}) "
        f"mAppBounds=Rect(0, 0 - {width}, {height}) mWindowingMode=fullscreen mDisplayWindowingMode=fullscreen "
        f"mActivityType=undefined mAlwaysOnTop=undefined mRotation=ROTATION_0}} s.1 fontWeightAdjustment=0}}",
        "  mHasPermanentDpad=false",
        "  mTopFocusedDisplayId=0",
    ]
    if keyboard:
        lines += [f"  mInputMethodTarget in display# 0 {window_name(phone, top)}",
                  f"  mInputMethodInputTarget in display# 0 {window_name(phone, top)}",
                  f"  mInputMethodWindow={_system_window('InputMethod')}"]
    lines += [f"  mCurrentFocus={window_name(phone, top)}",
              f"  mFocusedApp={activity_record(phone, top, front)}"]
    if what in ("", "displays", "d", "all", "-a"):
        lines += ["", "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)",
                  f"  Display: mDisplayId=0 rootTasks={len(tasks)}",
                  f"    init={width}x{height} 420dpi base={width}x{height} 420dpi cur={width}x{height} "
                  f"app={width}x{height} rng=1080x1006-2400x2326",
                  "    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion()",
                  "  mDisplayRotation:", "    mRotation=0 mUserRotation=ROTATION_0"]
    ctx.out("\n".join(lines) + "\n")


# ----- activity ----------------------------------------------------------------------------------------------
def _dump_activities(ctx: CommandContext) -> None:
    phone = ctx.phone
    tasks = phone.activities.task_stacks()
    top = phone.activities.top
    front = tasks[0]
    top_record = activity_record(phone, top, front)
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
             "Display #0 (activities from top to bottom):"]
    for position, task in enumerate(tasks):
        package = task[0].app.package
        home = task[0].app is phone.activities.launcher
        visible = "true" if position == 0 else "false"
        lines.append(f"  * Task{{{short_hash('task', task_id(phone, task))} #{task_id(phone, task)} "
                     f"type={'home' if home else 'standard'} A={app_uid(phone, package)}:{package} U=0 "
                     f"visible={visible} visibleRequested={visible} mode=fullscreen translucent=false "
                     f"sz={len(task)}}}")
        if position == 0:
            lines += [f"    topResumedActivity={top_record}", f"    mResumedActivity: {top_record}"]
        lines.append("    isSleeping=false")
        for index in range(len(task) - 1, -1, -1):
            screen = task[index]
            intent = screen.intent
            action = f"act={intent.action} " if intent.action else ""
            categories = f"cat=[{','.join(intent.categories)}] " if intent.categories else ""
            lines += [f"    * Hist  #{index}: {activity_record(phone, screen, task)}",
                      f"      packageName={package} processName={package}",
                      "      launchedFromUid=2000 launchedFromPackage=com.android.shell userId=0",
                      f"      intent={{{action}{categories}flg=0x10000000 "
                      f"cmp={short_component(package, screen.activity)}}}",
                      f"      state={'RESUMED' if screen is top else 'STOPPED'}"]
        lines.append("")
    lines += ["  Resumed activities in task display areas (from top to bottom):",
              f"    Resumed: {top_record}", "",
              f"  ResumedActivity: {top_record}"]
    ctx.out("\n".join(lines) + "\n")


def _dump_top(ctx: CommandContext) -> None:
    phone = ctx.phone
    top = phone.activities.top
    front = phone.activities.task_stacks()[0]
    package = top.app.package
    ctx.out(f"TASK {app_uid(phone, package)}:{package} id={task_id(phone, front)} userId=0\n"
            f"  ACTIVITY {short_component(package, top.activity)} {record_hash(phone, top)} "
            f"pid={pid_of(package)}\n"
            f"    Local Activity {short_hash('local', record_hash(phone, top))} State:\n"
            f"      mResumed=true mStopped=false mFinished=false\n")


def _dump_activity(ctx: CommandContext, args: list[str]) -> None:
    what = next((a for a in args if not a.startswith("-")), "")
    if what in ("top",):
        _dump_top(ctx)
    elif what in ("a", "activities", "", "recents", "r"):
        _dump_activities(ctx)
    else:
        ctx.out("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n")
        phone = ctx.phone
        found = False
        for task in phone.activities.task_stacks():
            for screen in task:
                if what in screen.app.package or what in screen.activity:
                    ctx.out(f"TASK {screen.app.package} id={task_id(phone, task)}\n  ACTIVITY "
                            f"{short_component(screen.app.package, screen.activity)} {record_hash(phone, screen)}"
                            f" pid={pid_of(screen.app.package)}\n")
                    found = True
        if not found:
            ctx.out("No activities found\n")


# ----- display, package, power, battery, input method ---------------------------------------------------------
def _dump_display(ctx: CommandContext) -> None:
    width, height = ctx.phone.window.width, ctx.phone.window.height
    density = ctx.phone.props.get("ro.sf.lcd_density", "420")
    ctx.out("DISPLAY MANAGER (dumpsys display)\n"
            "  mOnlyCore=false\n  mSafeMode=false\n"
            f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='local:4619827259835644672', physicalPort=0, orientation=0, "
            f"logicalFrame=Rect(0, 0 - {width}, {height}), physicalFrame=Rect(0, 0 - {width}, {height}), "
            f"deviceWidth={width}, deviceHeight={height}}}]\n"
            f"  mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, real {width} x {height}, "
            f"largest app {width} x {height}, smallest app {width} x {height}, appVsyncOff 1000000, "
            f"presDeadline 16666666, mode 1, defaultMode 1, modes [{{id=1, width={width}, height={height}, "
            f"fps=60.0}}], rotation 0, density {density} ({density}.0 x {density}.0) dpi, layerStack 0, "
            f"type INTERNAL, state ON, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS}}\n")


def _dump_power(ctx: CommandContext) -> None:
    ctx.out("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mWakefulness=Awake\n"
            "  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n"
            "  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker=true\n"
            "Display Power: state=ON\n")


def _dump_battery(ctx: CommandContext) -> None:
    ctx.out("Current Battery Service state:\n  AC powered: true\n  USB powered: false\n"
            "  Wireless powered: false\n  Max charging current: 0\n  Max charging voltage: 0\n"
            "  Charge counter: 10000\n  status: 2\n  health: 2\n  present: true\n  level: 100\n  scale: 100\n"
            "  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n")


def _dump_input_method(ctx: CommandContext) -> None:
    top = ctx.phone.activities.top
    shown = bool(top.focus_key) and top.keyboard_shown
    ime = ctx.phone.settings.get("secure", "default_input_method") or ""
    ctx.out(f"Current Input Method Manager state:\n  mCurMethodId={ime}\n"
            f"  mCurFocusedWindow={window_name(ctx.phone, top)}\n"
            f"  mInputShown={'true' if shown else 'false'}\n  mShowRequested={'true' if shown else 'false'}\n")


def _dump_surface_flinger(ctx: CommandContext) -> None:
    ctx.out('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n')


_SERVICES = {
    "window": lambda ctx, args: _dump_window(ctx, next((a for a in args if not a.startswith("-")), "")),
    "activity": _dump_activity,
    "display": lambda ctx, args: _dump_display(ctx),
    "package": lambda ctx, args: dump_package(ctx, next((a for a in args if not a.startswith("-")), "")),
    "power": lambda ctx, args: _dump_power(ctx),
    "battery": lambda ctx, args: _dump_battery(ctx),
    "input_method": lambda ctx, args: _dump_input_method(ctx),
    "SurfaceFlinger": lambda ctx, args: _dump_surface_flinger(ctx),
}


def dumpsys(ctx: CommandContext, argv: list[str]) -> int:
    """``dumpsys [-l] [SERVICE [ARGS...]]``."""
    args = argv[1:]
    note_tasks(ctx.phone)
    if args and args[0] == "-l":
        ctx.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(_SERVICES)))
        return 0
    if not args:
        for name in sorted(_SERVICES):
            if name == "package":
                continue
            ctx.out("-" * 79 + f"\nDUMP OF SERVICE {name}:\n")
            _SERVICES[name](ctx, [])
        return 0
    service = _SERVICES.get(args[0])
    if service is None:
        ctx.err(f"Can't find service: {args[0]}\n")
        return 0
    service(ctx, args[1:])
    return 0


COMMANDS = {"dumpsys": dumpsys}
