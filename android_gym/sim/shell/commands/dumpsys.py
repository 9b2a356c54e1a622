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

import math
import zlib

from android_gym.sim.framework.app import Screen
from android_gym.sim.shell.commands.activity import (
    configuration,
    note_tasks,
    number,
    pid_of,
    record_hash,
    short_component,
    task_id,
)
from android_gym.sim.shell.commands.base import CommandContext, app_uid, short_hash
from android_gym.sim.shell.commands.package import dump_package
from android_gym.sim.shell.device import ShellDevice
from android_gym.sim.ui.views import View


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
def focused_window(phone: ShellDevice) -> tuple[str, str]:
    """The package and activity ``dumpsys window`` names as ``mCurrentFocus``, without writing the report (asked
    after every step); the activity records and tasks the report numbers are numbered as it would number them (each
    gets its id when first seen); made once per state of the phone (``WindowManager.per_state``)."""
    return phone.window.per_state("focused window", lambda: _focused_window(phone))


def _focused_window(phone: ShellDevice) -> tuple[str, str]:
    number(phone, phone.activities.task_stacks())
    top = phone.activities.top
    return top.app.package, top.activity


def _dump_window(ctx: CommandContext, what: str) -> None:
    ctx.out(ctx.phone.window.per_state(("dumpsys window", what), lambda: _window_report(ctx.phone, what)))


def _window_report(phone: ShellDevice, what: str) -> str:
    """What ``dumpsys window [WHAT]`` prints: the windows, focus and (for the whole dump) the display."""
    tasks = phone.activities.task_stacks()
    top = phone.activities.top
    front = tasks[0]
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
        f"  mGlobalConfiguration={configuration(phone)}",
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
                  f"  Display: mDisplayId=0 rootTasks={len(tasks)}", f"    {_display_sizes(phone)}",
                  "    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion()", "",
                  *_display_rotation(phone, phone.window.rotation, "    ")]
    return "\n".join(lines) + "\n"


#: What the display's nominal app sizes leave out of the screen's sides (the system bars' insets), in dp: 74 px at
#: 420 dpi on the Pixel 6 emulator image (``rng=1080x1006-2400x2326``).
_NOMINAL_INSET_DP = 28


def _display_sizes(phone: ShellDevice) -> str:
    """``DisplayContent.dump``'s sizes: ``init`` (physical), ``base`` (the ``wm`` override, when there is one),
    ``cur`` and ``app`` (the logical display) and ``rng`` (the smallest and largest nominal app sizes over the
    rotations)."""
    display = phone.window.display
    width, height = display.size
    line = f"init={display.physical_width}x{display.physical_height} {display.physical_density}dpi"
    if (width, height, display.density) != (display.physical_width, display.physical_height,
                                            display.physical_density):
        line += f" base={width}x{height} {display.density}dpi"
    inset = math.floor(_NOMINAL_INSET_DP * display.density / 160 + 0.5)
    short, long = sorted((width, height))
    return line + f" cur={width}x{height} app={width}x{height} rng={short}x{short - inset}-{long}x{long - inset}"


def _rotation_name(rotation: int) -> str:
    """``Surface.rotationToString``."""
    return f"ROTATION_{rotation * 90}"


def _display_rotation(phone: ShellDevice, rotation: int, prefix: str) -> list[str]:
    """``DisplayRotation.dump`` with its ``WindowOrientationListener``, whose ``mCurrentRotation`` is the rotation
    it was last told (AOSP frameworks/base services/core/java/com/android/server/wm/DisplayRotation.java)."""
    auto = phone.settings.get("system", "accelerometer_rotation") == "1"
    user = phone.settings.get("system", "user_rotation") or "0"
    user_rotation = int(user) % 4 if user.isdigit() else 0
    return [f"{prefix}DisplayRotation",
            f"{prefix}  mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED",
            f"{prefix}  mLastOrientation=-1",
            f"{prefix}  mRotation={rotation} mDeferredRotationPauseCount=0",
            f"{prefix}  mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270",
            f"{prefix}  mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180",
            f"{prefix}  mSupportAutoRotation=true",
            f"{prefix}  WindowOrientationListener",
            f"{prefix}    mEnabled={'true' if auto else 'false'}",
            f"{prefix}    mCurrentRotation={_rotation_name(rotation)}",
            f"{prefix}    mSensorType=null",
            f"{prefix}    mSensor={{Sensor name=\"Goldfish 3-axis Accelerometer\", vendor=\"The Android Open Source "
            "Project\", version=1, type=1, maxRange=39.3, resolution=2.480159E-4, power=3.0, minDelay=10000}",
            f"{prefix}    mRate=2",
            "",
            f"{prefix}  mCarDockRotation=unknown mDeskDockRotation=unknown",
            f"{prefix}  mUserRotationMode={'USER_ROTATION_FREE' if auto else 'USER_ROTATION_LOCKED'} "
            f"mUserRotation={_rotation_name(user_rotation)} mCameraRotationMode=0 "
            "mAllowAllRotations=unknown",
            f"{prefix}  mDemoHdmiRotation=ROTATION_270 mDemoHdmiRotationLock=false mUndockedHdmiRotation=unknown",
            f"{prefix}  mLidOpenRotation=unknown",
            f"{prefix}  mFixedToUserRotation=false"]


# ----- input -------------------------------------------------------------------------------------------------
#: The emulator's touch screen (``virtio_input_multi_touch_1``): raw axes 0..32767 (goldfish virtio-input).
_TOUCH_RAW_MAX = 32767


def _dump_input(ctx: CommandContext) -> None:
    """``InputManagerService.dump`` (abridged): the native input manager state, then the input reader's devices
    with the touch screen's ``TouchInputMapper::dump`` — its viewport (``DisplayViewport::toString``: the
    ``logicalFrame`` and ``physicalFrame`` AndroidWorld reads), ``PhysicalWidth`` and ``SurfaceOrientation``
    (what AndroidEnv's ``get_orientation`` parses) — and the configured viewports
    (frameworks/native services/inputflinger/reader/mapper/TouchInputMapper.cpp, InputReader.cpp)."""
    phone = ctx.phone
    rotation = phone.window.rotation
    width, height = phone.window.width, phone.window.height
    if rotation % 2:
        width, height = height, width
    show_touches = "true" if phone.settings.get("system", "show_touches") == "1" else "false"
    viewport = (f"Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation={rotation}, "
                f"logicalFrame=[0, 0, {width}, {height}], physicalFrame=[0, 0, {width}, {height}], "
                f"deviceSize=[{width}, {height}], isActive=[1]")
    axis = f"min=0, max={_TOUCH_RAW_MAX}, flat=0, fuzz=0, resolution=0"
    lines = [
        "INPUT MANAGER (dumpsys input)", "",
        "Input Manager State:", "  Interactive: true", "  System UI Lights Out: false", "  Pointer Speed: 0",
        "  Pointer Gestures Enabled: true", f"  Show Touches: {show_touches}", "  Pointer Capture: Disabled, seq=0",
        "",
        "Event Hub State:", "  BuiltInKeyboardId: -2", "  Devices:",
        "    -1: Virtual", "      Classes: KEYBOARD | ALPHAKEY | VIRTUAL",
        "      Path: <virtual>", "      Enabled: true",
        "    1: virtio_input_multi_touch_1", "      Classes: TOUCH | TOUCH_MT",
        "      Path: /dev/input/event1", "      Enabled: true", "",
        "Input Reader State (Nums of device: 2):",
        "  Device -1: Virtual", "    EventHub Devices: [ -1 ] ", "    Generation: 2", "    IsExternal: false",
        "    AssociatedDisplayPort: <none>", "    AssociatedDisplayUniqueId: <none>", "    HasMic:     false",
        "    Sources: 0x00000301", "    KeyboardType: 2", "    ControllerNum: 0",
        "    Keyboard Input Mapper:", "      Parameters:", "        OrientationAware: false",
        "        HandlesKeyRepeat: false", "      KeyboardType: 2", "      Orientation: 0", "      KeyDowns: 0 keys "
        "currently down", "      MetaState: 0x0", "      HidLedState: 0x0",
        "  Device 1: virtio_input_multi_touch_1", "    EventHub Devices: [ 1 ] ", "    Generation: 4",
        "    IsExternal: false", "    AssociatedDisplayPort: <none>", "    AssociatedDisplayUniqueId: <none>",
        "    HasMic:     false", "    Sources: 0x00001002", "    KeyboardType: 0", "    ControllerNum: 0",
        "    Motion Ranges:",
        f"      X: source=0x00001002, min=0.000, max={width - 1}.000, flat=0.000, fuzz=0.000, resolution=0.000",
        f"      Y: source=0x00001002, min=0.000, max={height - 1}.000, flat=0.000, fuzz=0.000, resolution=0.000",
        "      PRESSURE: source=0x00001002, min=0.000, max=1.000, flat=0.000, fuzz=0.000, resolution=0.000",
        "    Touch Input Mapper (mode - DIRECT):", "      Parameters:", "        GestureMode: multi-touch",
        "        DeviceType: touchScreen",
        "        AssociatedDisplay: hasAssociatedDisplay=true, isExternal=false, displayId=''",
        "        OrientationAware: true", "      Raw Touch Axes:", f"        X: {axis}", f"        Y: {axis}",
        "        Pressure: min=0, max=1024, flat=0, fuzz=0, resolution=0", "        TouchMajor: unknown range",
        "        TouchMinor: unknown range", "        ToolMajor: unknown range", "        ToolMinor: unknown range",
        "        Orientation: unknown range", "        Distance: unknown range", "        TiltX: unknown range",
        "        TiltY: unknown range", "        TrackingId: min=0, max=65535, flat=0, fuzz=0, resolution=0",
        "        Slot: min=0, max=9, flat=0, fuzz=0, resolution=0",
        f"      {viewport}",
        f"      RawSurfaceWidth: {width}px", f"      RawSurfaceHeight: {height}px", "      SurfaceLeft: 0",
        "      SurfaceTop: 0", f"      SurfaceRight: {width}", f"      SurfaceBottom: {height}",
        f"      PhysicalWidth: {width}px", f"      PhysicalHeight: {height}px", "      PhysicalLeft: 0",
        "      PhysicalTop: 0", f"      SurfaceOrientation: {rotation}",
        "      Translation and Scaling Factors:", "        XTranslate: 0.000", "        YTranslate: 0.000",
        f"        XScale: {width / (_TOUCH_RAW_MAX + 1):0.3f}", f"        YScale: {height / (_TOUCH_RAW_MAX + 1):0.3f}",
        "  Configuration:", "    ExcludedDeviceNames: []", "    VirtualKeyQuietTime: 0.0ms",
        "    Viewports:", f"      {viewport}",
        "",
        "Input Dispatcher State:", "  DispatchEnabled: true", "  DispatchFrozen: false", "  InputFilterEnabled: false",
        "  FocusedDisplayId: 0",
    ]
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


def _dump_activity_client(ctx: CommandContext, task: list[Screen], screen: Screen) -> None:
    """``ActivityTaskManagerService.dumpActivity``: the task and activity lines, then what the app process dumps
    (``Activity.dump``): its state and its window's ``View Hierarchy`` (``ViewRootImpl.dump``), which AndroidEnv's
    app screen checker matches."""
    phone = ctx.phone
    package = screen.app.package
    lines = [f"TASK {app_uid(phone, package)}:{package} id={task_id(phone, task)} userId=0",
             f"  ACTIVITY {short_component(package, screen.activity)} {record_hash(phone, screen)} "
             f"pid={pid_of(package)}",
             f"    Local Activity {short_hash('local', record_hash(phone, screen))} State:",
             f"      mResumed={'true' if screen is phone.activities.top else 'false'} "
             f"mStopped={'false' if screen is phone.activities.top else 'true'} mFinished=false"]
    if screen is phone.activities.top:
        window = next(w for w in phone.window.screen_windows() if w.kind == "application")
        lines += ["    ViewRoot:", "      mAdded=true mRemoved=false mStopped=false mPausedForTransition=false",
                  "    View Hierarchy:",
                  f"      DecorView@{short_hash('decor', record_hash(phone, screen))}[{window.title}]"]
        for child in window.root.children:
            _view_lines(child, window.root.bounds, "        ", lines)
    ctx.out("\n".join(lines) + "\n")


def _view_lines(view: View, parent: tuple[int, int, int, int], prefix: str, out: list[str]) -> None:
    """``View.toString()`` lines of a laid-out tree (``ViewRootImpl.dumpViewHierarchy``): class, hash, flags,
    position relative to the parent and the resource id."""
    x1, y1, x2, y2 = view.bounds
    flags = ("V" + ("F" if view.focusable else ".") + ("E" if view.enabled else ".") + "D"
             + "." + ("V" if view.scrollable else ".") + ("C" if view.clickable else ".")
             + ("L" if view.long_clickable else ".") + ". ." + ("F" if view.focused else ".")
             + ("S" if view.selected else ".") + ".....")
    ident = ""
    if view.resource_id:
        number = 0x1020002 if view.resource_id == "android:id/content" else 0x7F0A0000 | zlib.crc32(
            view.resource_id.encode()) & 0xFFFF
        ident = f" #{number:x} {view.resource_id}"
    out.append(f"{prefix}{view.class_name}{{{short_hash('view', view.class_name, view.bounds, view.resource_id)} "
               f"{flags} {x1 - parent[0]},{y1 - parent[1]}-{x2 - parent[0]},{y2 - parent[1]}{ident}}}")
    for child in view.children:
        _view_lines(child, view.bounds, prefix + "  ", out)


def _intent_string(screen: Screen, package: str) -> str:
    """``Intent.toString()`` of the activity's launch intent."""
    intent = screen.intent
    parts = [f"act={intent.action}"] if intent.action else []
    if intent.categories:
        parts.append(f"cat=[{','.join(intent.categories)}]")
    parts += ["flg=0x10000000", f"cmp={short_component(package, screen.activity)}"]
    return "Intent { " + " ".join(parts) + " }"


def _dump_recents(ctx: CommandContext) -> None:
    """``RecentTasks.dump`` (dumpAll): the raw recent tasks with their ``Task.dump`` lines, then the visible ones
    as ``RecentTaskInfo.dump`` prints them, whose `` id=N`` lines AndroidWorld collects to remove every task
    (frameworks/base services/core/java/com/android/server/wm/RecentTasks.java, ActivityManager.java)."""
    phone = ctx.phone
    launcher = phone.activities.launcher
    tasks = [task for task in phone.activities.task_stacks() if task[0].app is not launcher]
    uptime = phone.clock.now_ms() - phone.logs.boot_ms
    lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)",
             f"mRecentsUid={app_uid(phone, launcher.package)}",
             f"mRecentsComponent=ComponentInfo{{{launcher.package}/{launcher.screens[0].activity}}}",
             "mFreezeTaskListReordering=false", "mFreezeTaskListReorderingPendingTimeout=false"]
    if not tasks:
        ctx.out("\n".join(lines) + "\n  (nothing)\n")
        return
    lines.append("  Recent tasks:")
    for index, task in enumerate(tasks):
        root, top, package = task[0], task[-1], task[0].app.package
        ident, uid = task_id(phone, task), app_uid(phone, package)
        lines += [f"  * Recent #{index}: Task{{{short_hash('task', ident)} #{ident} type=standard A={uid}:{package}}}",
                  f"    userId=0 effectiveUid=u0a{uid - 10000} mCallingUid=2000 mUserSetupComplete=true "
                  "mCallingPackage=com.android.shell mCallingFeatureId=null",
                  f"    affinity={package}",
                  f"    intent={{{_intent_string(root, package)[9:-2]}}}",
                  f"    mActivityComponent={short_component(package, root.activity)}",
                  "    autoRemoveRecents=false isPersistable=true activityType=1",
                  "    rootWasReset=false mNeverRelinquishIdentity=true mReuseTask=false "
                  "mLockTaskAuth=LOCK_TASK_AUTH_PINNABLE",
                  f"    Activities=[{', '.join(activity_record(phone, screen, task) for screen in task)}]",
                  "    askedCompatMode=false inRecents=true isAvailable=true",
                  f"    taskId={ident} rootTaskId={ident}"]
    lines += ["", "  Visible recent tasks (most recent first):"]
    for index, task in enumerate(tasks):
        root, top, package = task[0], task[-1], task[0].app.package
        lines += [f"  * RecentTaskInfo #{index}: ",
                  f"    id={task_id(phone, task)} userId=0 hasTask=true lastActiveTime={uptime}",
                  f"    baseIntent={_intent_string(root, package)}",
                  f"    baseActivity={{{short_component(package, root.activity)}}}",
                  f"    topActivity={{{short_component(top.app.package, top.activity)}}}",
                  f"    realActivity={{{short_component(package, root.activity)}}}",
                  "    isExcluded=false activityType=standard windowingMode=fullscreen "
                  "supportsSplitScreenMultiWindow=true supportsMultiWindow=true",
                  "    lastSnapshotData { taskSize=null contentInsets=null bufferSize=null }"]
    ctx.out("\n".join(lines) + "\n")


def _dump_activity(ctx: CommandContext, args: list[str]) -> None:
    what = next((a for a in args if not a.startswith("-")), "")
    phone = ctx.phone
    if what == "top":
        front = phone.activities.task_stacks()[0]
        _dump_activity_client(ctx, front, front[-1])
    elif what in ("a", "activities", ""):
        _dump_activities(ctx)
    elif what in ("recents", "r"):
        _dump_recents(ctx)
    else:
        # ``dumpsys activity <name>``: the activities whose component contains the name (``dumpActivity``).
        found = [(task, screen) for task in phone.activities.task_stacks() for screen in task
                 if what in f"{screen.app.package}/{screen.activity}"]
        for task, screen in found:
            _dump_activity_client(ctx, task, screen)
        if not found:
            ctx.out(f"No activities found for: {what}\n")


# ----- display, package, power, battery, input method ---------------------------------------------------------
def _dump_display(ctx: CommandContext) -> None:
    width, height = ctx.phone.window.width, ctx.phone.window.height
    density = ctx.phone.window.density
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


def _dump_battery(ctx: CommandContext, args: list[str]) -> None:
    """``dumpsys battery`` and BatteryService's shell: ``set [-f] KEY VALUE``, ``unplug [-f]``, ``reset [-f]``
    (AOSP ``BatteryService.Shell``: errors on stdout, nothing printed on success)."""
    battery = ctx.phone.battery
    command, rest = (args[0], [a for a in args[1:] if a != "-f"]) if args else ("", [])
    if command == "set":
        if len(rest) != 2:
            ctx.out("No value specified\n" if len(rest) == 1 else "No property specified\n")
            return
        try:
            battery.set(rest[0], int(rest[1]))
        except KeyError:
            ctx.out(f"Unknown set option: {rest[0]}\n")
        except ValueError:
            ctx.out(f"Bad value: {rest[1]}\n")
        return
    if command in ("unplug", "reset"):
        battery.unplug() if command == "unplug" else battery.reset()
        return
    state = battery.state
    stopped = "  (UPDATES STOPPED -- use 'reset' to restart)\n" if battery.updates_stopped else ""
    ctx.out(f"Current Battery Service state:\n{stopped}  AC powered: {_bool(state.ac)}\n"
            f"  USB powered: {_bool(state.usb)}\n  Wireless powered: {_bool(state.wireless)}\n"
            "  Max charging current: 0\n  Max charging voltage: 0\n  Charge counter: 10000\n"
            f"  status: {state.status}\n  health: 2\n  present: {_bool(state.present)}\n  level: {state.level}\n"
            f"  scale: 100\n  voltage: 5000\n  temperature: {state.temp}\n  technology: Li-ion\n")


def _bool(value: int) -> str:
    return "true" if value else "false"


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
    "battery": _dump_battery,
    "input": lambda ctx, args: _dump_input(ctx),
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
