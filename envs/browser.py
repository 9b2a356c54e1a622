"""AndroidWorld's browser tasks (``android_world/task_evals/single/browser.py``): BrowserMaze, BrowserMultiply and
BrowserDraw.

Setup as AndroidWorld's ``BrowserTask.initialize_task``: automatic time on, ``clear_device_storage``,
``pm clear com.android.chrome``, then the task's page with ``%%SEED%%`` replaced by ``browser_task_seed`` (a random
integer in 0…2³²−1) pushed as ``/storage/emulated/0/Download/task.html``. The agent opens it from Files in Chrome.
Success (``is_successful``): Chrome is in front and some accessibility node has the text exactly ``Success!``.
Teardown clears storage and Chrome and turns automatic time off.

The pages (``envs/browser_pages.py``) are written from AndroidWorld's description, not copied. The oracles work
the page through the UI only: Files → Downloads → task.html (Chrome opens it), then the maze's direction buttons
along the path the seed's maze has, the five numbers read off the screen and their product typed, or three strokes
in the three target colours.
"""

from __future__ import annotations

import shlex
from collections import deque
from collections.abc import Sequence
from typing import Any
from xml.etree import ElementTree

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.device.state import foreground_package, write_file
from android_gym.envs import browser_pages
from android_gym.envs.files import _reveal_file, open_in_storage
from android_gym.sim.apps import chrome
from android_gym.tasks import Task, register_task
from android_gym.tasks.files import CLEAR_STORAGE
from android_gym.tasks.oracle import OracleStep, Selector, complete, drag, expect, open_app, tap
from android_gym.ui import UIElement

TASK_FILE = "/storage/emulated/0/Download/task.html"
SUCCESS = "Success!"
URL_BAR = f"{chrome.PACKAGE}:id/url_bar"
_PREFIX = "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome."


def shows_success(dump: str) -> bool:
    """Whether a node of the uiautomator dump has the text exactly ``Success!``."""
    try:
        root = ElementTree.fromstring(dump)
    except ElementTree.ParseError:
        return False
    return any(node.get("text") == SUCCESS for node in root.iter("node"))


class _BrowserTask(Task):
    """A page pushed as task.html, solved in Chrome."""

    app_packages = (chrome.PACKAGE, "com.google.android.documentsui")
    setup_clears_teardown = True  # clear_state clears the storage and Chrome (prepare turns automatic time off)
    page = ""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``browser_task_seed``: a random integer in 0…2³²−1."""
        return {"browser_task_seed": int(rng.integers(0, 2**32))}

    def clear_state(self, device: Device) -> None:
        """Automatic time on, storage and Chrome cleared (one round trip)."""
        self.run(device, " && ".join([*(f"settings put global {key} 1" for key in ("auto_time", "auto_time_zone")),
                                      CLEAR_STORAGE, f"pm clear {shlex.quote(chrome.PACKAGE)}"]))

    def seed_state(self, device: Device) -> None:
        """The page with the seed, as Download/task.html."""
        write_file(device, TASK_FILE, self.page.replace("%%SEED%%", str(self.params["browser_task_seed"])))

    def is_successful(self, device: Device) -> float:
        """1.0 when Chrome is in front showing ``Success!``."""
        if foreground_package(device) != chrome.PACKAGE:
            return 0.0
        return 1.0 if shows_success(device.ui_dump()) else 0.0

    def teardown(self, device: Device) -> None:
        """Storage and Chrome cleared, automatic time off (one round trip)."""
        super().teardown(device)
        self.run(device, " && ".join([CLEAR_STORAGE, f"pm clear {shlex.quote(chrome.PACKAGE)}",
                                      *(f"settings put global {key} 0" for key in ("auto_time", "auto_time_zone"))]))

    @staticmethod
    def open_page() -> list[OracleStep]:
        """Files → Downloads → task.html, which Chrome opens."""
        name = Selector(text="task.html", resource_id="android:id/title")
        return [open_app("Files"), *open_in_storage("Download"), *_reveal_file("task.html"), tap(name)]


def _button(label: str) -> OracleStep:
    return tap(Selector(text=label, class_suffix="Button"))


@register_task
class BrowserMaze(_BrowserTask):
    """Move the X through the 4×4 maze to the bottom-right cell."""

    name = "BrowserMaze"
    complexity = 2
    template = _PREFIX + " Then navigate the X to the bottom-right cell, by using the direction buttons."
    page = browser_pages.MAZE

    def oracle(self) -> Sequence[OracleStep]:
        """The shortest path through the seed's maze, one direction button per cell."""
        opened = browser_pages.maze(self.params["browser_task_seed"])
        moves = {(0, -1): "Up", (0, 1): "Down", (-1, 0): "Left", (1, 0): "Right"}
        came: dict[tuple[int, int], tuple[tuple[int, int], str]] = {}
        queue = deque([(0, 0)])
        while queue:
            cell = queue.popleft()
            for (dx, dy), label in moves.items():
                nxt = (cell[0] + dx, cell[1] + dy)
                if nxt in opened and nxt not in came and nxt != (0, 0):
                    came[nxt] = (cell, label)
                    queue.append(nxt)
        path, cell = [], (3, 3)
        while cell != (0, 0):
            cell, label = came[cell]
            path.append(label)
        return [*self.open_page(), *[_button(label) for label in reversed(path)], expect(Selector(text=SUCCESS)),
                complete()]


@register_task
class BrowserMultiply(_BrowserTask):
    """Click five times, remember the numbers, enter their product."""

    name = "BrowserMultiply"
    complexity = 2.2
    template = _PREFIX + (" Then click the button 5 times, remember the numbers displayed, and enter their product in"
                          " the form.")
    page = browser_pages.MULTIPLY

    def oracle(self) -> Sequence[OracleStep]:
        """Read the number shown before each of the five clicks, then type the product and submit."""
        seen: list[int] = []

        def read_and_click(elements: Sequence[UIElement]):
            number = next(e for e in elements if e.text.strip().isdigit() and e.package_name == chrome.PACKAGE)
            seen.append(int(number.text))
            return _button("Click Me")(elements)

        def answer(elements: Sequence[UIElement]):
            field = next(e for e in elements if e.is_editable and e.resource_name != URL_BAR)
            return Action(ActionType.INPUT_TEXT, index=field.index, text=str(int(np.prod(seen[-5:]))))

        return [*self.open_page(), *[read_and_click] * 5, answer, _button("Submit"), expect(Selector(text=SUCCESS)),
                complete()]


@register_task
class BrowserDraw(_BrowserTask):
    """Draw with the three target colours and submit."""

    name = "BrowserDraw"
    complexity = 2
    template = _PREFIX + " Then create a drawing using the three colors shown at the top and hit submit."
    page = browser_pages.DRAW

    def oracle(self) -> Sequence[OracleStep]:
        """For each target colour: its palette button, then a stroke from the centre of the canvas's part on screen
        (down, up, right); then Submit."""
        canvas = Selector(text="Canvas")
        steps: list[OracleStep] = [*self.open_page()]
        for colour, direction in zip(browser_pages.draw_targets(self.params["browser_task_seed"]),
                                     ("down", "up", "right")):
            steps += [tap(Selector(text=colour, class_suffix="Button")), drag(canvas, direction)]
        return [*steps, _button("Submit"), expect(Selector(text=SUCCESS)), complete()]
