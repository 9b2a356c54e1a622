"""The simulated phone: file system, settings, packages, activities, telephony, contacts, windows and shell in one
object — the composition root of ``sim/``, the one module that puts the layers together: the OS services
(``system/``), the framework's services (``framework/``), the installed apps (those of ``apps/index.json`` unless
told otherwise, each started when first needed) and the shell (``shell/``). It satisfies the protocols the layers
below see it through (``SystemServices``, ``Context``, ``ShellDevice``); none of them imports it.

Each ``Phone`` owns a private temporary directory (removed by ``close``) and shares no state with any other
phone, so many can live in one process.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from android_gym.errors import ConfigError
from android_gym.sim.apps import indexed_apps
from android_gym.sim.framework.activities import ActivityManager
from android_gym.sim.framework.app import App, AppInfo
from android_gym.sim.framework.packages import PackageManager
from android_gym.sim.framework.window import WindowManager
from android_gym.sim.shell import LiveOutput, Shell, ShellOutput, StdinSource
from android_gym.sim.shell.kept_databases import KeptDatabases
from android_gym.sim.system.battery import Battery
from android_gym.sim.system.chromium import Chromium
from android_gym.sim.system.clipboard import Clipboard, ClipData
from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.contacts import ContactsProvider
from android_gym.sim.system.fs import FileSystem
from android_gym.sim.system.logd import LogBuffer
from android_gym.sim.system.settings import Settings
from android_gym.sim.system.telephony import Telephony
from android_gym.tempdirs import OwnedDir

# Device time each input event takes (a tap is ~100 ms of finger time plus the app's reaction).
INPUT_EVENT_MS = 1000
#: CPython's threshold for its cycle collector's youngest generation (net allocations of tracked objects between
#: passes over it), and the one a phone sets in a process that left it so (``collect_young_less_often``).
CPYTHON_YOUNG_THRESHOLD, YOUNG_THRESHOLD = 700, 10_000


def collect_young_less_often() -> None:
    """Have Python's cycle collector pass over its youngest objects every ``YOUNG_THRESHOLD`` net allocations instead
    of CPython's 700, unless the process set a threshold of its own. A step builds and drops a screen's views by the
    thousand: at 700 a pass came every few frames, found most of a frame's views still alive (it was being built or
    shown), and moved them on to older generations, whose passes then looked at them again, up to the whole heap
    (ExpenseDeleteMultiple2, 3,000 random-valid steps: 273 + 24 + 2 passes, 100-115 us of CPU a step in the
    collector; at 10,000, 12 + 1 + 0 passes, ~38 us). What refcounting frees never waits for a pass; only objects in
    cycles wait a little longer (memory per env unchanged; the test suite runs at this threshold: ``conftest.py``)."""
    young, middle, old = gc.get_threshold()
    if young == CPYTHON_YOUNG_THRESHOLD:
        gc.set_threshold(YOUNG_THRESHOLD, middle, old)


#: ``getprop`` values of the Pixel 6 / API 33 image AndroidWorld uses, booted (the boot animation has exited);
#: ``ro.sf.lcd_density`` comes from the screen's width (``WindowManager.density``).
DEFAULT_PROPS = {
    "ro.product.name": "sdk_gphone64_x86_64",
    "ro.product.model": "sdk_gphone64_x86_64",
    "ro.product.device": "emu64xa",
    "ro.product.manufacturer": "Google",
    "ro.product.brand": "google",
    "ro.build.version.sdk": "33",
    "ro.build.version.release": "13",
    "ro.build.version.codename": "REL",
    "ro.build.tags": "dev-keys",
    "ro.build.characteristics": "emulator",
    "ro.product.cpu.abi": "x86_64",
    "ro.product.locale": "en-US",
    "ro.boot.qemu": "1",
    "dev.bootcomplete": "1",
    "init.svc.bootanim": "stopped",
    "service.bootanim.exit": "1",
    "ro.build.type": "userdebug",
    "ro.debuggable": "1",
    "ro.kernel.qemu": "1",
    "ro.hardware": "ranchu",
    "ro.serialno": "EMULATOR33X1X1X0",
    "sys.boot_completed": "1",
    "persist.sys.timezone": "UTC",
}



@dataclass(frozen=True)
class _Baseline:
    """What ``Phone.rewind`` brings back besides the files: the settings, the primary clip and the processes
    running when the baseline was kept."""

    settings: dict[str, dict[str, str]]
    clip: ClipData | None
    running: frozenset[str]


class Phone:
    """A simulated Android 13 phone (Pixel 6 geometry by default) with ``apps`` installed in order (one of them
    the home-screen app; by default the index's ``installed`` apps); ``installable`` apps (the index's by default)
    are installed when their APK is. An app given as its class starts at boot, one given as its ``AppInfo`` when
    first needed (``framework.packages``). With ``animations``, activity transitions animate over the next looks at
    the screen, as long as ``transition_animation_scale`` is above 0."""

    def __init__(self, width: int = 1080, height: int = 2400, animations: bool = False,
                 apps: Sequence[type[App] | AppInfo] | None = None,
                 installable: Sequence[type[App] | AppInfo] | None = None) -> None:
        # Deleted on close(), on garbage collection, at interpreter exit, or by the next phone's start-up if this
        # process is killed: nothing is left in /dev/shm.
        self._storage = OwnedDir("android-gym-phone-")
        collect_young_less_often()
        self.clock = VirtualClock()
        self.fs = FileSystem(self._storage.path / "fs", self.clock)  # beside the lock file, not above it
        self.settings = Settings()
        self.props = dict(DEFAULT_PROPS)
        self.logs = LogBuffer(self.clock)
        self.battery = Battery()
        self.clipboard = Clipboard(lambda: self.activities.foreground()[0])
        self.telephony = Telephony(self)
        self.contacts = ContactsProvider(self)
        self.packages = PackageManager(self, indexed_apps()["installable"] if installable is None else installable)
        for app in indexed_apps()["installed"] if apps is None else apps:
            self.packages.install(app)
        home = next((self.packages.get(name) for name in self.packages.names() if self.packages.info(name).home),
                    None)
        if home is None:
            raise ConfigError("Phone(apps=...) needs a home-screen app (an App class with home = True), such as "
                              "android_gym.sim.apps.launcher.Launcher")
        self.window = WindowManager(self, width, height, animations)
        self.props["ro.sf.lcd_density"] = str(self.window.density)  # physical: 420 at 1080 wide; wm density keeps it
        self.activities = ActivityManager(self, home)
        self.shell = Shell(self)
        self.kept_databases = KeptDatabases(self.fs)  # the shell's sqlite3 connections kept between runs
        # The browser engine behind Chrome's page area: a context in the process's headless Chromium, on first use.
        self.chromium = Chromium(self.logs, self.fs.root)
        self._stop_chromium = weakref.finalize(self, self.chromium.close)
        self._baseline: _Baseline | None = None  # see ``keep_baseline``
        self._checkpoint: tuple[dict[str, dict[str, str]], ClipData | None] | None = None  # settings and clip then

    @property
    def screen_size(self) -> tuple[int, int]:
        """``(width, height)`` in pixels."""
        return self.window.width, self.window.height

    def invalidate(self) -> None:
        """Something visible may have changed: rebuild the frame before the next look at the screen."""
        if hasattr(self, "window"):
            self.window.invalidate()

    def data_changed(self) -> None:
        """What an app keeps or runs in the background changed: the shell's reports of the phone are made afresh, and
        the frame is rebuilt unless the screen in front shows no app's data (``Screen.shows_app_data``: the home
        screen, whose frame a task's setup would otherwise rebuild for nothing after every write)."""
        activities = getattr(self, "activities", None)
        if activities is None or activities.top.shows_app_data or activities.top.dialog_windows:
            self.invalidate()
        else:
            self.window.drop_reports()

    def restart_framework(self) -> None:
        """``setprop ctl.restart zygote``: the Java framework starts again, in the locale ``persist.sys.locale``
        names (``ro.product.locale`` when unset, as ``AndroidRuntime::readLocale``); every app process dies and the
        launcher comes back."""
        self.window.shade.collapse()
        self.window.set_locale(self.props.get("persist.sys.locale") or self.props["ro.product.locale"])
        self.activities.restart()

    def keep_baseline(self) -> None:
        """Keep the phone as it is now as the baseline ``rewind`` brings it back to: a copy of its files, its settings,
        clip and running processes (the first call; later ones do nothing)."""
        if self._baseline is None:
            self._baseline = _Baseline(self.settings.saved(), self.clipboard.primary,
                                       frozenset(self.activities.running()))
            self.fs.keep_baseline()

    def checkpoint(self) -> None:
        """Note what changes from now on, which ``rewind`` undoes (what changed before stays: a task's set-up)."""
        self._checkpoint = self.settings.saved(), self.clipboard.primary
        self.fs.checkpoint()

    @property
    def can_rewind(self) -> bool:
        """Whether ``rewind`` has a baseline and a checkpoint to work from."""
        return self._baseline is not None and self._checkpoint is not None

    def rewind(self, keep_settings: Collection[tuple[str, str]] = ()) -> bool:
        """Bring back the baseline (``keep_baseline``) of what changed since the last ``checkpoint``: stop every
        process the baseline did not run (their screens and what they held in memory go) and go home, bring back
        every file written (app data, databases, shared storage; an app started since keeps what it wrote as it
        started, ``FileSystem.add_to_baseline``), the settings that changed (but ``keep_settings``) and the clip.
        Not brought back: installed packages and permissions, system properties, the display's and the language's
        overrides, notifications, the log buffers and the clock (a task's set-up sets it). Whether anything
        changed; nothing does without a baseline and a checkpoint."""
        baseline, checkpoint = self._baseline, self._checkpoint
        if baseline is None or checkpoint is None:  # not ``can_rewind``
            return False
        changed = self.activities.stop_others(baseline.running)
        if self.fs.rewind():  # files written back in place, or new (WAL databases): readers check their versions
            self.data_changed()
            changed = True
        settings, clip = checkpoint
        shown = self.settings.restore(settings, baseline.settings, keep_settings)  # the status bar, the looks
        if self.clipboard.primary != clip and self.clipboard.primary != baseline.clip:
            self.clipboard.primary, shown = baseline.clip, True  # a text field's paste menu
        if shown:
            self.invalidate()
        return changed or shown

    def run(self, command: str, stdin: bytes | StdinSource = b"", live: LiveOutput | None = None,
            merged: bool = False) -> ShellOutput:
        """Run a command line in the device shell (``adb shell``'s ``/system/bin/sh -c``); ``live`` takes output as
        it comes, ``merged`` sends standard error there too (``Shell.run``). Each command that writes redraws the
        screen as it returns (``invalidate``, or ``data_changed`` for what apps keep), so a UI dump later in the line
        is the current one and stays so after it (an ``input … && uiautomator dump …`` line's frame serves the
        ``screencap`` that follows). The providers keep one connection to their database for the whole command
        line (see ``SqliteProvider.holding``)."""
        with self.contacts.holding(), self.telephony.holding():
            return self.shell.run(command, stdin, live, merged)

    def settle_providers(self) -> None:
        """Commit what the command line has written so far through the providers that hold one transaction for it
        (``SqliteProvider.settle``): a command that may read their files is about to run."""
        self.contacts.settle()
        self.telephony.settle()

    # Input, as the touch screen and keys deliver it; each event takes device time.
    def tap(self, x: float, y: float) -> None:
        """Touch and release at screen coordinates."""
        self.clock.advance(INPUT_EVENT_MS)
        self.window.tap(x, y)

    def long_press(self, x: float, y: float) -> None:
        """Touch and hold at screen coordinates."""
        self.clock.advance(INPUT_EVENT_MS)
        self.window.long_press(x, y)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """Drag from one point to another."""
        self.clock.advance(INPUT_EVENT_MS + duration_ms)
        self.window.swipe(x1, y1, x2, y2, duration_ms)

    def input_text(self, text: str) -> None:
        """Commit text into the focused field (what ``input text`` and an IME do)."""
        self.clock.advance(INPUT_EVENT_MS)
        self.window.type_text(text)

    def key(self, code: int, meta: frozenset[int] = frozenset()) -> None:
        """Press a key (``keycodes``), optionally with meta keys held."""
        self.clock.advance(INPUT_EVENT_MS // 4)
        self.window.key(code, meta)

    def screenshot(self) -> np.ndarray:
        """The screen, ``(H, W, 3)`` uint8, read-only (``WindowManager.screenshot``)."""
        return self.window.screenshot()

    def screenshot_again(self) -> np.ndarray | None:
        """The screen ``screenshot`` gave last, again in other memory, or None (``WindowManager.screenshot_again``)."""
        return self.window.screenshot_again()

    def screenshot_rgba(self) -> memoryview:
        """The screen as RGBA8888 bytes, rows from the top (what the emulator's gRPC screenshots carry), read-only
        (``WindowManager.screenshot_rgba``)."""
        return self.window.screenshot_rgba()

    def ui_dump(self) -> str:
        """The uiautomator XML of the foreground window."""
        return self.window.ui_dump()

    def close(self) -> None:
        """Stop the phone's browser process and delete its storage. Idempotent."""
        self._stop_chromium()
        self.kept_databases.close()
        self.fs.close()
        self._storage.remove()
