"""The activity manager: a stack of tasks (one per app), each a stack of activities, with BACK and HOME.

Simplified from Android's ActivityTaskManager: one task per package, the launcher's task at the bottom, HOME
brings the launcher to front without destroying other tasks, BACK finishes the top activity.

Part of the app framework (``sim/framework``): it creates and finishes ``Screen``s; apps reach it through
``Context.activities``.
"""

from __future__ import annotations

from collections.abc import Collection

from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.permissions import request_at_launch


class ActivityManager:
    """Tasks ordered back to front; ``top`` is the resumed activity."""

    def __init__(self, phone: Context, launcher: App) -> None:
        self._phone = phone
        self.launcher = launcher
        self._tasks: list[list[Screen]] = []
        self._resumed: Screen | None = None
        self._processes: set[str] = set()  # packages whose process runs
        self.home()

    @property
    def top(self) -> Screen:
        """The resumed (foreground) activity."""
        return self._tasks[-1][-1]

    def home(self) -> None:
        """Bring the launcher's task to front (KEYCODE_HOME)."""
        task = self._task_of(self.launcher.package)
        if task is None:
            self._start_process(self.launcher)
            task = [self.launcher.screens[0](self.launcher, Intent(categories=("android.intent.category.HOME",)))]
        else:
            self._tasks.remove(task)
            del task[1:]
        self._tasks.append(task)
        self._changed()

    def launch(self, app: App, screen_class: type[Screen] | None = None, intent: Intent | None = None,
               new_task: bool = False) -> Screen:
        """Start an activity of ``app``: resume its task when launched from the launcher (the screen stays as it is
        when that task is in front already), else push a new one."""
        intent = intent or Intent(action="android.intent.action.MAIN",
                                  categories=("android.intent.category.LAUNCHER",))
        task = self._task_of(app.package)
        if task is not None:
            in_front = task is self._tasks[-1]
            self._tasks.remove(task)
            self._tasks.append(task)
            is_launch = screen_class is None or screen_class is app.screens[0]
            if is_launch and not new_task and "android.intent.category.LAUNCHER" in intent.categories:
                if not in_front:  # the app in front launched again: nothing changes, nothing is redrawn
                    self._changed()
                return task[-1]
            if new_task:
                task.clear()
        else:
            task = []
            self._tasks.append(task)
        started = self._start_process(app)
        screen = (screen_class or app.screens[0])(app, intent)
        task.append(screen)
        self._changed()
        if started and screen_class in (None, app.screens[0]):
            request_at_launch(self._phone, app, screen)
        return screen

    def push(self, app: App, screen_class: type[Screen], intent: Intent) -> Screen:
        """Start an activity on top of the foreground task."""
        self._start_process(app)
        screen = screen_class(app, intent)
        self._tasks[-1].append(screen)
        self._changed()
        return screen

    def back(self) -> bool:
        """KEYCODE_BACK: let the screen handle it, else finish the top activity (never the launcher); whether
        anything happened."""
        if self.top.dialog_windows:  # a dialog window has focus: it takes BACK (cancels, if it may)
            dialog = self.top.dialog_windows[-1]
            if dialog.cancelable:
                self.top.dismiss(dialog)
                if dialog.on_cancel is not None:
                    dialog.on_cancel()
                self._changed()
            return True
        if self.top.on_back():
            self._changed()
            return True
        if self.top.app is self.launcher:
            return False
        self.finish(self.top)
        return True

    def at_home(self) -> bool:
        """Whether the launcher's home screen is in front with nothing above it (HOME would change nothing)."""
        return self.top.app is self.launcher and len(self._tasks[-1]) == 1

    def finish(self, screen: Screen) -> None:
        """Remove an activity; an emptied task disappears and the next task comes to front."""
        for task in self._tasks:
            if screen in task:
                task.remove(screen)
                if not task:
                    self._tasks.remove(task)
                break
        if not self._tasks:
            self.home()
        self._changed()

    def force_stop(self, package: str) -> None:
        """``am force-stop``: kill the package's process, then remove its activities, which get no callbacks
        (``forceStopPackageLocked`` kills the processes before it finishes their activities: an activity in front
        is not paused, so it saves nothing)."""
        task = self._task_of(package)
        if task is not None and package != self.launcher.package:
            self._tasks.remove(task)
            if self._resumed in task:
                self._resumed = None
            if not self._tasks:
                self.home()
        app = self._phone.packages.get(package)
        self._processes.discard(package)
        if app is not None:
            app.on_force_stop()
        if self._resumed is self.top and package != self.top.app.package:
            self._phone.data_changed()  # an app behind died: what is in front did not change
        else:
            self._changed()

    def running(self) -> set[str]:
        """The packages whose process runs."""
        return set(self._processes)

    def stop_others(self, keep: Collection[str]) -> bool:
        """Force-stop every running package not in ``keep`` and bring the home screen to front, with nothing above
        it; whether anything changed."""
        stopped = sorted(self._processes.difference(keep))
        for package in stopped:
            self.force_stop(package)
        if self.at_home():
            return bool(stopped)
        self.home()
        return True

    def restart(self) -> None:
        """The framework restarted (``setprop ctl.restart zygote``): every app process died, every task is gone,
        and the launcher starts afresh."""
        for package in sorted(self._processes):
            app = self._phone.packages.get(package)
            if app is not None:
                app.on_force_stop()
        self._processes.clear()
        self._tasks.clear()
        self._resumed = None
        self.home()

    def remove_task(self, root: Screen) -> None:
        """``ActivityTaskManager.removeTask``: finish every activity of the task rooted at ``root`` and kill its
        app's process (``removeTask(task, killProcess=true, ...)``). Home is never without its task: the
        launcher's is kept, back at its root activity."""
        task = next((task for task in self._tasks if task[0] is root), None)
        if task is None:
            return
        if root.app is self.launcher:
            del task[1:]
        else:
            self._tasks.remove(task)
            if not self._tasks:
                self.home()
            self._processes.discard(root.app.package)
            root.app.on_force_stop()
        self._changed()

    def foreground(self) -> tuple[str, str]:
        """``(package, activity class)`` of the resumed activity."""
        return self.top.app.package, self.top.activity

    def task_stacks(self) -> list[list[Screen]]:
        """All tasks, front first (what ``dumpsys activity activities`` walks)."""
        return [list(task) for task in reversed(self._tasks)]

    def _start_process(self, app: App) -> bool:
        """Start the app's process if it is not running; whether it was started."""
        if app.package in self._processes:
            return False
        self._processes.add(app.package)
        app.on_process_start()
        return True

    def _task_of(self, package: str) -> list[Screen] | None:
        return next((task for task in self._tasks if task[0].app.package == package), None)

    def _changed(self) -> None:
        """Run the pause/resume callbacks if the front activity changed, and redraw."""
        if self._tasks and self._resumed is not self.top:
            previous, self._resumed = self._resumed, self.top
            if previous is not None:
                previous.on_pause()
            self.top.on_resume()
        self._phone.invalidate()
