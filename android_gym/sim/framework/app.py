"""The app model, and what an app sees of the phone.

An ``App`` is an installed package (label, activities, broadcast receivers); a ``Screen`` is one activity
instance, which builds its view tree from the app's state on every frame. ``AppInfo`` is what the package manager
knows of a package without running its code (Android's ``ApplicationInfo``): a phone installs apps from it and
starts an app (imports its module, makes its ``App``) when the app is first needed. Apps reach the phone through
``Context`` (Android's ``Context``: file system, settings, clock, providers, clipboard, packages, activities,
the window's size and the shell), a protocol the concrete ``Phone`` satisfies. The framework's services
(``activities``, ``packages``, ``window``) implement the small interfaces declared here, so nothing in this module
needs them — or the phone — to be imported.

This module is the framework layer's base: apps build on it, ``system/`` and ``ui/`` sit below it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Protocol

from PIL import Image

from android_gym.sim.framework.intent import ACTION_MAIN, CATEGORY_LAUNCHER, BroadcastResult, Intent, IntentFilter
from android_gym.sim.framework.locale import SystemLocale
from android_gym.sim.system.chromium import Chromium
from android_gym.sim.system.clipboard import Clipboard
from android_gym.sim.system.contacts import ContactsProvider
from android_gym.sim.system.fs import FileSystem
from android_gym.sim.system.services import SystemServices
from android_gym.sim.system.telephony import Telephony
from android_gym.sim.ui.selection import TextSelection
from android_gym.sim.ui.views import Color, View

#: The directories installd makes in an app's data directory as it makes it, at install and at every boot
#: (``InstalldNativeService::createAppData``: ``prepare_app_cache_dir`` of ``cache`` and ``code_cache``).
CACHE_DIRS = ("cache", "code_cache")


def make_app_data(fs: FileSystem, package: str) -> None:
    """installd's ``createAppData``: the package's ``/data/data`` directory with its cache directories in it (those
    already there left as they are)."""
    for name in CACHE_DIRS:
        fs.makedirs(f"/data/data/{package}/{name}")


class ActivityService(Protocol):
    """What apps and the window manager ask of the activity manager (``framework.activities``)."""

    @property
    def top(self) -> Screen:
        """The resumed (foreground) activity."""
        ...

    def launch(self, app: App, screen_class: type[Screen] | None = None, intent: Intent | None = None,
               new_task: bool = False) -> Screen:
        """Start an activity of ``app`` in its task."""
        ...

    def push(self, app: App, screen_class: type[Screen], intent: Intent) -> Screen:
        """Start an activity on top of the foreground task."""
        ...

    def finish(self, screen: Screen) -> None:
        """Remove an activity."""
        ...

    def back(self) -> None:
        """KEYCODE_BACK."""
        ...

    def home(self) -> None:
        """KEYCODE_HOME."""
        ...

    def force_stop(self, package: str) -> None:
        """``am force-stop``."""
        ...

    def foreground(self) -> tuple[str, str]:
        """``(package, activity class)`` of the resumed activity."""
        ...


class PackageService(Protocol):
    """What apps ask of the package manager (``framework.packages``)."""

    def get(self, package: str) -> App | None:
        """The installed app (started now if it has not yet) or ``None``."""
        ...

    def launchable(self) -> list[AppInfo]:
        """Apps with a launcher icon, in app-drawer order."""
        ...

    def revoked(self, package: str, permission: str) -> bool:
        """Whether the runtime ``permission`` of ``package`` was revoked (``pm revoke``)."""
        ...


class WindowService(Protocol):
    """What apps read of the window manager (``framework.window``)."""

    #: The screen's width and height in layout (design) pixels (``framework.display``).
    design_width: int
    design_height: int
    #: The running framework's locale: apps read their resource strings in it (``SystemLocale.string``) and format
    #: dates and times in it (``framework.formats``).
    locale: SystemLocale

    @property
    def nav_bar_height(self) -> int:
        """The navigation bar's height in design pixels (it depends on the navigation mode)."""

    def snapshot(self, screen: Screen) -> tuple[str, Color, Callable[[], Image.Image]]:
        """``screen``'s window as it would show now, without the system bars: a key naming its pixels, the colour at
        its top (what the status bar takes over it) and its picture, drawn when called."""

    def shade_snapshot(self, panel: View) -> tuple[str, Callable[[], Image.Image]]:
        """The notification shade's ``panel`` as it would show on its own: a key naming its pixels and its picture,
        drawn when called."""


class Context(SystemServices, Protocol):
    """The phone as an app sees it (``android.content.Context``)."""

    clipboard: Clipboard
    telephony: Telephony
    contacts: ContactsProvider
    packages: PackageService
    activities: ActivityService
    window: WindowService
    #: The browser engine (a headless Chromium, started when a page is first shown).
    chromium: Chromium

    def run(self, command: str) -> object:
        """Run a command line in the device shell; returns the shell's ``ShellOutput``."""
        ...


@dataclass(eq=False)
class ActivityDialog:
    """A dialog window an activity shows over itself (``Dialog.show``): ``panel`` builds its view; it is drawn over
    the dimmed activity and takes every touch. BACK cancels it (``on_cancel``) when ``cancelable``; otherwise BACK
    does nothing (``Dialog.setCancelable(false)``). A touch outside never dismisses it."""

    panel: Callable[[], View]
    cancelable: bool = True
    on_cancel: Callable[[], None] | None = None


class Screen:
    """One activity instance. ``build`` returns a fresh view tree from the app's state on every frame.

    The window manager keeps the focused field (``focus_key``), whether the soft keyboard is up, list scroll
    positions (``scroll``) and the focused field's text selection (``selection``) here, so they survive rebuilds.
    A screen that opens with a field focused and the keyboard up (as a compose screen does) sets both in its
    ``__init__``.
    """

    #: Fully qualified activity class name, as ``dumpsys`` and ``am start -n`` show it.
    activity: ClassVar[str] = ""
    #: Whether the screen shows what apps keep (databases, files) or which apps run; False for one that shows
    #: neither (the home screen), so writes to them leave its frame as it is (``Phone.data_changed``).
    shows_app_data: ClassVar[bool] = True

    def __init__(self, app: App, intent: Intent) -> None:
        self.app = app
        self.intent = intent
        self.focus_key = ""
        self.keyboard_shown = False
        self.scroll: dict[str, int] = {}
        #: List positions asked for (``scroll_to_position``), taken by the window at the next frame.
        self.scroll_requests: dict[str, tuple[int, int]] = {}
        self.selection: TextSelection | None = None
        self.dialog_windows: list[ActivityDialog] = []  # shown over the activity, the last on top

    @property
    def phone(self) -> Context:
        """The phone the app runs on."""
        return self.app.phone

    @property
    def night_colors(self) -> Mapping[Color, Color] | None:
        """The ``values-night`` colours of the activity's theme: its app's (``App.night_colors``), unless the
        manifest gives the activity a theme of its own that keeps its colours (a video player's)."""
        return self.app.night_colors

    @property
    def day_colors(self) -> Mapping[Color, Color] | None:
        """The text colours of the activity's theme by day: its app's (``App.day_colors``)."""
        return self.app.day_colors

    def colors(self, night: bool) -> Mapping[Color, Color] | None:
        """The activity's theme colours for the toolkit's own, by night (``night_colors``) or by day
        (``day_colors``): what the window recolours its views with and the renderer draws the widgets' own ink in
        (a field's hint and underline, a check box's outline)."""
        return self.night_colors if night else self.day_colors

    @property
    def navigation_bar_color(self) -> Color | None:
        """What the navigation bar shows over the activity: its app's (``App.navigation_bar_color``)."""
        return self.app.navigation_bar_color

    @property
    def status_bar_color(self) -> Color | None:
        """What the status bar shows over the activity: its app's (``App.status_bar_color``)."""
        return self.app.status_bar_color

    def build(self) -> View:
        """The screen's view tree for the current state."""
        raise NotImplementedError

    def shown(self) -> Hashable | None:
        """What the screen shows, for a screen that can tell it without building: equal values (not ``None``) build
        equal trees, their callbacks acting alike, so the window shows the tree it laid out for the value again
        without building (given the same focus, list positions, looks and window); ``None``, the default: build. It
        reads what ``build`` reads, the clock in the same unit (``VirtualClock.finest_read``)."""
        return None

    def scroll_to_position(self, key: str, index: int, offset: int = 0) -> None:
        """``LinearLayoutManager.scrollToPositionWithOffset``: from the next frame the list ``key`` shows its item
        ``index`` ``offset`` px below its top, as far as the list can scroll."""
        self.scroll_requests[key] = (index, offset)

    def on_back(self) -> bool:
        """Handle BACK inside the screen (close a dialog, ...); ``False`` lets the activity finish."""
        return False

    def on_resume(self) -> None:
        """Called when the activity comes to the front (``Activity.onResume``)."""

    def on_pause(self) -> None:
        """Called when the activity leaves the front: finished, covered, or HOME (``Activity.onPause``)."""

    def dismiss(self, dialog: ActivityDialog) -> None:
        """Close one of this activity's dialogs (``Dialog.dismiss``)."""
        if dialog in self.dialog_windows:
            self.dialog_windows.remove(dialog)

    def finish(self) -> None:
        """Close this activity, as ``Activity.finish()`` does."""
        self.phone.activities.finish(self)

    def start(self, screen_class: type[Screen], intent: Intent | None = None) -> Screen:
        """Start another activity of the same app on top of this one."""
        return self.phone.activities.push(self.app, screen_class, intent or Intent())


class TranslucentScreen(Screen):
    """An activity whose window is translucent and dims what is under it (``windowIsTranslucent``,
    ``backgroundDimEnabled``: the share sheet, the permission prompt). The activity it opened over
    (``opened_over``) is paused, not stopped: it shows behind this one's views in the pixels only, as it is now (a
    change to what it shows shows through), and the status bar takes its colour, dimmed; the dump holds this
    activity's views alone, as uiautomator dumps the active window."""

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.opened_over: Screen | None = None

    def behind(self) -> View:
        """The window's content frame, showing the activity it opened over as that one shows now (nothing when there
        is none), on the colour at that window's top; the scrim and this activity's own views go over it. Its
        picture is drawn again only when what it shows changed (its key)."""
        if self.opened_over is None:
            return View(kind="frame", class_name="android.widget.FrameLayout")
        key, color, picture = self.phone.window.snapshot(self.opened_over)
        return View(kind="frame", class_name="android.widget.FrameLayout", key=key, image=picture, background=color)


@dataclass(frozen=True)
class AppInfo:
    """What the package manager knows of a package without running its code (its manifest, Android's
    ``ApplicationInfo``): the ``App`` attributes of the same names, and ``code``, where its ``App`` class is
    (``module:Class``; ``None`` for a system package without activities, ``framework.platform.system_package``)."""

    package: str
    label: str
    code: str | None
    #: It has a launcher icon (``App.launchable`` and a launcher activity).
    launchable: bool
    home: bool
    icon: str
    icon_color: Color
    receivers: Mapping[str, tuple[str, ...]]
    receiver_schemes: Mapping[str, tuple[str, ...]]
    version_name: str | None
    version_code: int | None
    #: Its activities' intent filters (``App.intent_filters``; none for an app without activities).
    intent_filters: tuple[IntentFilter, ...] = ()


class App:
    """An installed package: label, launcher activity and activities.

    Subclasses set ``package``, ``label``, ``screens`` (the first one is the launcher activity) and may
    override ``on_clear`` (``pm clear``) and ``resolve`` (implicit intents such as ``sms:`` URIs). An app with
    manifest broadcast receivers lists them in ``receivers`` and handles them in ``on_receive``.
    """

    package: ClassVar[str] = ""
    label: ClassVar[str] = ""
    screens: ClassVar[tuple[type[Screen], ...]] = ()
    #: False for system packages that have no launcher icon.
    launchable: ClassVar[bool] = True
    #: The launcher icon: an icon name (``ui.icons``) drawn in white on ``icon_color``, the app's brand colour.
    icon: ClassVar[str] = "app"
    icon_color: ClassVar[Color] = (96, 125, 139)
    #: True for a home-screen app: its launcher activity also handles ``CATEGORY_HOME`` (the activity manager's
    #: bottom task).
    home: ClassVar[bool] = False
    #: Manifest ``<receiver>`` components: class name → the actions its intent filters list (action-only filters).
    receivers: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: The data schemes a receiver's filters list (``<data android:scheme>``): such a filter takes intents whose data
    #: has one of them, and only those.
    receiver_schemes: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: Its activities' ``<intent-filter>``s, as its manifest declares them: those of the activities ``resolve`` can
    #: start (an implicit intent starts the app only if one of them takes it). By default the launcher activity's.
    intent_filters: ClassVar[tuple[IntentFilter, ...]] = (IntentFilter((ACTION_MAIN,), (CATEGORY_LAUNCHER,)),)
    #: ``versionName``/``versionCode`` of the real build this app simulates, as ``android_gym/device/apps.toml``
    #: pins them; ``None`` for system apps, whose version is the emulator image's.
    version_name: ClassVar[str | None] = None
    version_code: ClassVar[int | None] = None
    #: The app's ``values-night`` colours for the light ones its screens use (``framework.looks.recolor``), for an
    #: app whose default theme follows the system's dark theme; ``None`` for one that stays as it is.
    night_colors: ClassVar[Mapping[Color, Color] | None] = None
    #: The colours the app's theme gives, by day, text and icons the toolkit draws in Material's (``TEXT``): its
    #: own text colour (``framework.looks.retint``); ``None`` for an app whose text is Material's.
    day_colors: ClassVar[Mapping[Color, Color] | None] = None
    #: What the navigation bar shows over the app's activities (``Window.setNavigationBarColor``), in the light theme
    #: (the dark theme's is its ``night_colors`` entry): a colour the app gives the bar or draws behind a transparent
    #: one; ``None``, the system's own bar.
    navigation_bar_color: ClassVar[Color | None] = None
    #: The colour the app's theme gives the status bar (``android:statusBarColor``), in the light theme (the dark
    #: theme's is its ``night_colors`` entry); ``None``: the colour at the top of its window, a brand colour a shade
    #: darker (as most apps set ``colorPrimaryDark``).
    status_bar_color: ClassVar[Color | None] = None

    def __init__(self, phone: Context) -> None:
        self.phone = phone

    @classmethod
    def info(cls) -> AppInfo:
        """The app's ``AppInfo``."""
        return AppInfo(cls.package, cls.label, f"{cls.__module__}:{cls.__qualname__}",
                       cls.launchable and bool(cls.screens), cls.home, cls.icon, cls.icon_color, cls.receivers,
                       cls.receiver_schemes, cls.version_name, cls.version_code,
                       cls.intent_filters if cls.screens else ())

    @property
    def data_dir(self) -> str:
        """The app's private directory ``/data/data/<package>``."""
        return f"/data/data/{self.package}"

    def screen_class(self, activity: str) -> type[Screen] | None:
        """The activity class named ``activity`` (full name, or ``.Short`` relative to the package)."""
        name = self.package + activity if activity.startswith(".") else activity
        return next((screen for screen in self.screens if screen.activity == name), None)

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """The activity that handles an implicit ``intent`` one of its ``intent_filters`` took, or ``None``."""
        if intent.action in ("", ACTION_MAIN):
            return self.screens[0] if self.screens else None
        return None

    def on_process_start(self) -> None:
        """The app's process starts (its first activity since boot or since it was stopped): its ``cache`` and
        ``code_cache`` directories, which installd made with its data directory (``CACHE_DIRS``), are made again
        if they went (a ``pm clear``), as ``getCacheDir`` and ``getCodeCacheDir`` do. Apps that create more folders
        at start extend this."""
        make_app_data(self.phone.fs, self.package)

    def on_clear(self) -> None:
        """Called after ``pm clear`` deleted the app's data."""

    def on_force_stop(self) -> None:
        """Called when the app's process is killed (``am force-stop``)."""

    def on_receive(self, receiver: str, intent: Intent, result: BroadcastResult) -> None:
        """``BroadcastReceiver.onReceive`` of ``receiver`` (a key of ``receivers``); it may set ``result``. What it
        changes on screen it redraws itself (``invalidate``; ``data_changed`` for apps' data): the shell leaves the
        frame of ``am broadcast`` to ``data_changed``."""

