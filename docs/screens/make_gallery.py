"""Write the gallery: a PNG of the home screen and of every launchable app's main screen on the simulated phone.

Usage: python docs/screens/make_gallery.py [--out docs/screens] [--size 540x1200]

Each app gets a fresh phone in the state every task runs in (AndroidWorld's fixed clock settings: the 24-hour
format, so every screen's status bar shows "15:34"). Where the catalogue has a task for the app, the task (seed 0)
first fills the app's storage, so the screen shows conversations, expenses or notes rather than an empty state;
then the app is opened the way AndroidWorld opens apps (``monkey -p <package> -c android.intent.category.LAUNCHER
1``) and its frame is saved, scaled to ``--size`` and optimized (256 colours), named after the package;
``overview.png`` (the README's image) puts a few of them side by side; ``configurations.png`` shows SMS Messenger
on phones configured as ``CONFIGURATIONS`` (``android_gym.device.config``). The phone is deterministic, so running
the script again writes the same pixels.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image

import android_gym  # noqa: F401  (registers the task catalogue)
from android_gym.device.config import DeviceConfig
from android_gym.device.sim import SimDevice
from android_gym.tasks.base import fixed_time_commands
from android_gym.tasks.registry import get_task

HOME = "home"
OVERVIEW = "overview"  # the README's image: a strip of a few screens
OVERVIEW_SCREENS = (HOME, "com.android.settings", "com.simplemobiletools.smsmessenger", "org.tasks",
                    "com.arduia.expense")
CONFIGURED = "configurations"  # one app on several device configurations
CONFIGURATIONS = (DeviceConfig(), DeviceConfig(phone="pixel_tablet", dark_theme=True, language="de-DE"),
                  DeviceConfig(phone="small_phone", font_scale=1.3, language="fr-FR", navigation="gestures"),
                  DeviceConfig(phone="pixel_7_pro", dark_theme=True, navigation="gestures"))
_GAP = 24
#: The task whose initial state each app is shown with (apps not listed are shown as installed).
SHOWCASE = {
    "com.simplemobiletools.smsmessenger": "SimpleSmsReplyMostRecent",
    "com.arduia.expense": "ExpenseDeleteMultiple",
    "net.gsantner.markor": "MarkorDeleteNote",
    "com.flauschcode.broccoli": "RecipeDeleteMultipleRecipes",
    "com.simplemobiletools.calendar.pro": "SimpleCalendarDeleteEvents",
    "org.tasks": "TasksHighPriorityTasks",
    "com.google.android.documentsui": "FilesDeleteFile",
    "com.simplemobiletools.gallery.pro": "SaveCopyOfReceiptTaskEval",
    "code.name.monkey.retromusic": "RetroCreatePlaylist",
    "de.dennisguse.opentracks": "SportsTrackerTotalDurationForCategoryThisWeek",
    "net.cozic.joplin": "NotesTodoItemCount",
    "com.google.android.contacts": "SimpleSmsSendReceivedAddress",
    "org.videolan.vlc": "VlcCreatePlaylist",
}


def task_ready_device(config: DeviceConfig | None = None) -> SimDevice:
    """A fresh phone (configured as ``config``) with the clock settings every task sets up
    (``fixed_time_commands``), so the home screen and an app without a showcase task show the time as a task's
    screens do."""
    device = SimDevice()
    if config is not None:
        config.apply(device)
    for command in fixed_time_commands():
        device.shell(command)
    return device


def app_screen(package: str, config: DeviceConfig | None = None) -> Image.Image:
    """The main screen of ``package`` on a fresh phone (configured as ``config``), with its showcase task's state
    when it has one."""
    device = task_ready_device(config)
    if package in SHOWCASE:
        task_class = get_task(SHOWCASE[package])
        task_class(task_class.generate_params(np.random.default_rng(0))).initialize(device)
    device.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    return Image.fromarray(device.screenshot())


def screens() -> dict[str, Image.Image]:
    """``{name: screenshot}``: the home screen, then every launchable app's main screen, at full size."""
    shots = {HOME: Image.fromarray(task_ready_device().screenshot())}
    for app in SimDevice().phone.packages.launchable():
        shots[app.package] = app_screen(app.package)
    return shots


def overview(shots: dict[str, Image.Image], width: int) -> Image.Image:
    """``OVERVIEW_SCREENS`` side by side, each ``width`` px wide, on white with a gap between them."""
    scaled = [shots[name].resize((width, round(shots[name].height * width / shots[name].width)), Image.LANCZOS)
              for name in OVERVIEW_SCREENS]
    strip = Image.new("RGB", (len(scaled) * (width + _GAP) - _GAP, scaled[0].height), (255, 255, 255))
    for i, image in enumerate(scaled):
        strip.paste(image, (i * (width + _GAP), 0))
    return strip


def configured(height: int) -> Image.Image:
    """SMS Messenger on each of ``CONFIGURATIONS``, side by side, each ``height`` px tall."""
    shots = [app_screen("com.simplemobiletools.smsmessenger", config) for config in CONFIGURATIONS]
    scaled = [shot.resize((round(shot.width * height / shot.height), height), Image.LANCZOS) for shot in shots]
    strip = Image.new("RGB", (sum(image.width for image in scaled) + _GAP * (len(scaled) - 1), height),
                      (255, 255, 255))
    x = 0
    for image in scaled:
        strip.paste(image, (x, 0))
        x += image.width + _GAP
    return strip


def main(argv: list[str] | None = None) -> None:
    """Save the gallery's PNGs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument("--size", default="540x1200", help="WIDTHxHEIGHT of the saved PNGs")
    args = parser.parse_args(argv)
    size = tuple(int(n) for n in args.size.split("x"))
    args.out.mkdir(parents=True, exist_ok=True)
    shots = screens()
    images = {name: image.resize(size, Image.LANCZOS) for name, image in shots.items()}
    images[OVERVIEW] = overview(shots, size[0] // 2)
    images[CONFIGURED] = configured(size[1] // 2)
    for name, image in images.items():
        path = args.out / f"{name}.png"
        image.quantize(256, dither=Image.Dither.NONE).save(path, optimize=True)  # a 256-colour PNG: a third the bytes
        print(path)


if __name__ == "__main__":
    main()
