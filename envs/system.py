"""System tasks: Wi-Fi, Bluetooth and screen brightness (AndroidWorld ``task_evals/single/system.py``).

Templates, setups and checks are AndroidWorld's: Wi-Fi is on when ``settings get global wifi_on`` is 1 or 2
and off when 0 (setup ``svc wifi enable|disable``); Bluetooth is on when ``global bluetooth_on`` is exactly 1
(setup ``svc bluetooth enable|disable``); brightness is at its maximum when ``system screen_brightness`` is 255
and at its minimum when 1 (setup ``settings put system screen_brightness 255|1``).

The ``*Verify`` tasks set up the state their goal asks for, so they score 1.0 before the agent does anything
(a known complaint about AndroidWorld; they are kept for compatibility and marked ``succeeds_without_action``).
Each has an honest ``*VerifyReport`` variant: the initial state is drawn at random, and the agent must leave the
device in the asked-for state and answer whether it had to change it ("yes"/"no"). The classes are made from a
table at the end (``_register_catalogue``).

The oracles go through Settings (Network & internet → Internet → Wi-Fi; Connected devices → Connection
preferences → Bluetooth → Use Bluetooth; Display → Brightness level, dragging SystemUI's slider to its end);
the Wi-Fi and Bluetooth reports use the quick-settings shade instead (a swipe down from the status bar).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.tasks import Task, register_task
from android_gym.tasks.oracle import OracleStep, Selector, act, complete, drag, open_app, scroll_to, tap

SETTINGS = "com.android.settings"
SYSTEMUI = "com.android.systemui"
APP_NAME = "Settings"
MAX_BRIGHTNESS, MIN_BRIGHTNESS = 255, 1  # AndroidWorld's adb_utils.set_brightness
REPORT = ' Then answer "yes" if you had to change it, or "no" if it already was.'


def _title(text: str) -> Selector:
    """A preference row, by its ``android:id/title``."""
    return Selector(text=text, resource_id="android:id/title")


def _answer(changed: bool) -> OracleStep:
    """Answer whether the state had to change."""
    return act(Action(ActionType.ANSWER, text="yes" if changed else "no"))


PULL_DOWN_SHADE = act(Action(ActionType.SWIPE, direction="down"))


class _SettingTask(Task):
    """A task about one system setting: set up by ``setup_command()``, scored by ``reached``."""

    app_packages = (SETTINGS,)
    complexity = 1.0
    #: The goal's wording in the ``*VerifyReport`` variant.
    report_template: ClassVar[str] = ""

    def setup_command(self) -> str:
        """The shell command that sets the initial state."""
        raise NotImplementedError

    def seed_state(self, device: Device) -> None:
        """Run ``setup_command()``."""
        self.run(device, self.setup_command())

    def reached(self, device: Device) -> bool:
        """Whether the setting is in the goal state."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """1.0 when the setting is in the goal state."""
        return 1.0 if self.reached(device) else 0.0


# ----- Wi-Fi and Bluetooth ------------------------------------------------------------------------------------
class _RadioTask(_SettingTask):
    """Turn a radio on or off, starting from ``initially_on()``; the oracle toggles it in Settings if needed."""

    radio: ClassVar[str] = ""  # "wifi" | "bluetooth": the svc service and the `<radio>_on` setting
    on_values: ClassVar[tuple[str, ...]] = ("1",)
    goal_on: ClassVar[bool] = True
    preset_on: ClassVar[bool] = False

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The goal state, fixed by the task."""
        return {"on_or_off": "on" if cls.goal_on else "off"}

    def initially_on(self) -> bool:
        """The state the setup leaves."""
        return self.preset_on

    def setup_command(self) -> str:
        """``svc <radio> enable|disable``."""
        return f"svc {self.radio} {'enable' if self.initially_on() else 'disable'}"

    def reached(self, device: Device) -> bool:
        """Whether ``global <radio>_on`` shows the goal state."""
        value = state.settings_get(device, "global", f"{self.radio}_on")
        return value in self.on_values if self.goal_on else value == "0"

    def settings_page(self) -> list[OracleStep]:
        """Open Settings on the page with the radio's switch."""
        raise NotImplementedError

    def toggle(self) -> OracleStep:
        """Tap the radio's switch on that page."""
        raise NotImplementedError

    def shade_toggle(self) -> list[OracleStep]:
        """Flip the radio from the quick-settings shade (pulled down)."""
        raise NotImplementedError

    def oracle(self) -> Sequence[OracleStep]:
        """Open the radio's page in Settings and flip its switch if it is not in the goal state."""
        flip = [self.toggle()] if self.initially_on() != self.goal_on else []
        return [*self.settings_page(), *flip, complete()]


class _WifiTask(_RadioTask):
    radio = "wifi"
    on_values = ("1", "2")  # 2: on while in airplane mode
    template = "Turn wifi {on_or_off}."
    report_template = "Make sure wifi is turned {on_or_off}." + REPORT

    def settings_page(self) -> list[OracleStep]:
        """Settings → Network & internet → Internet."""
        return [open_app(APP_NAME), tap(_title("Network & internet")), tap(_title("Internet"))]

    def toggle(self) -> OracleStep:
        """The Internet page's Wi-Fi switch row."""
        return tap(_title("Wi-Fi"))

    def shade_toggle(self) -> list[OracleStep]:
        """The Internet tile opens the Internet dialog: its Wi-Fi switch, then Done."""
        return [tap(Selector(text="Internet", resource_id=f"{SYSTEMUI}:id/tile_label")),
                tap(Selector(resource_id=f"{SYSTEMUI}:id/wifi_toggle")),
                tap(Selector(resource_id=f"{SYSTEMUI}:id/done_button"))]


class _BluetoothTask(_RadioTask):
    radio = "bluetooth"
    template = "Turn bluetooth {on_or_off}."
    report_template = "Make sure bluetooth is turned {on_or_off}." + REPORT

    def settings_page(self) -> list[OracleStep]:
        """Settings → Connected devices → Connection preferences → Bluetooth."""
        return [open_app(APP_NAME), tap(_title("Connected devices")), tap(_title("Connection preferences")),
                tap(_title("Bluetooth"))]

    def toggle(self) -> OracleStep:
        """The "Use Bluetooth" bar."""
        return tap(Selector(text="Use Bluetooth", resource_id=f"{SETTINGS}:id/switch_text"))

    def shade_toggle(self) -> list[OracleStep]:
        """The Bluetooth tile toggles Bluetooth."""
        return [tap(Selector(text="Bluetooth", resource_id=f"{SYSTEMUI}:id/tile_label"))]


# ----- brightness ---------------------------------------------------------------------------------------------
class _BrightnessTask(_SettingTask):
    """Set the screen brightness to an end of its range, starting from ``initial_brightness()``."""

    template = "Turn brightness to the {max_or_min} value."
    report_template = "Make sure the screen brightness is at the {max_or_min} value." + REPORT
    goal_max: ClassVar[bool] = True
    preset: ClassVar[int] = MIN_BRIGHTNESS

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The goal end, fixed by the task."""
        return {"max_or_min": "max" if cls.goal_max else "min"}

    @classmethod
    def target(cls) -> int:
        """The ``screen_brightness`` value the goal asks for."""
        return MAX_BRIGHTNESS if cls.goal_max else MIN_BRIGHTNESS

    def initial_brightness(self) -> int:
        """The ``screen_brightness`` the setup writes."""
        return self.preset

    def setup_command(self) -> str:
        """``settings put system screen_brightness <value>``."""
        return f"settings put system screen_brightness {self.initial_brightness()}"

    def reached(self, device: Device) -> bool:
        """Whether ``system screen_brightness`` is exactly 255 (max) or 1 (min)."""
        return state.settings_get(device, "system", "screen_brightness") == str(self.target())

    def adjust(self) -> list[OracleStep]:
        """Settings → Display → Brightness level, then (if needed) drag SystemUI's slider past its end."""
        home = Selector(resource_id=f"{SETTINGS}:id/main_content_scrollable_container")  # a short screen scrolls
        steps = [open_app(APP_NAME), *scroll_to(_title("Display"), home), tap(_title("Display")),
                 tap(_title("Brightness level"))]
        if self.initial_brightness() != self.target():
            container = Selector(resource_id=f"{SYSTEMUI}:id/brightness_mirror_container")
            steps.append(drag(container, "left" if self.goal_max else "right"))
        return steps

    def oracle(self) -> Sequence[OracleStep]:
        """Open the brightness slider from Settings and drag it to the end the goal asks for."""
        return [*self.adjust(), complete()]


# ----- honest variants of the *Verify tasks -------------------------------------------------------------------
class _Report(_SettingTask):
    """Mixin for a ``*VerifyReport`` task, before the task family it reports on (its template is the family's
    ``report_template``): the agent must reach the goal state and answer whether it had to change anything;
    ``changed()`` says whether the random initial state differed from the goal."""

    def changed(self) -> bool:
        """Whether the initial state differs from the goal."""
        raise NotImplementedError

    def is_successful(self, device: Device) -> float:
        """1.0 when the goal state holds (the task's ``reached``) and the answer is "yes" exactly when it had to
        change."""
        answer = (self.answer or "").strip().strip(".!").lower()
        return 1.0 if self.reached(device) and answer == ("yes" if self.changed() else "no") else 0.0


class _RadioReport(_Report, _RadioTask):
    """Make sure a radio is on/off (it starts in a random state) and report whether it had to change."""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The goal, and a random initial state."""
        return {**super().generate_params(rng), "initially_on": bool(rng.integers(2))}

    def initially_on(self) -> bool:
        """The randomly drawn initial state."""
        return bool(self.params["initially_on"])

    def changed(self) -> bool:
        """Whether the radio started in the other state."""
        return self.initially_on() != self.goal_on

    def oracle(self) -> Sequence[OracleStep]:
        """Pull the shade down, read the tile, flip it if needed, answer."""
        return [PULL_DOWN_SHADE, *(self.shade_toggle() if self.changed() else []), _answer(self.changed())]


class _BrightnessReport(_Report, _BrightnessTask):
    """Make sure the brightness is at an end of its range (it starts there or anywhere else at random) and
    report whether it had to change."""

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The goal, and a random initial brightness: the goal's value half of the time, else any other."""
        others = [value for value in range(MIN_BRIGHTNESS, MAX_BRIGHTNESS + 1) if value != cls.target()]
        initial = cls.target() if rng.integers(2) else others[int(rng.integers(len(others)))]
        return {**super().generate_params(rng), "initial_brightness": initial}

    def initial_brightness(self) -> int:
        """The randomly drawn initial brightness."""
        return int(self.params["initial_brightness"])

    def changed(self) -> bool:
        """Whether the brightness started away from the goal's end."""
        return self.initial_brightness() != self.target()

    def oracle(self) -> Sequence[OracleStep]:
        """Open the brightness slider, drag it if needed, answer."""
        return [*self.adjust(), _answer(self.changed())]


# ----- the catalogue ------------------------------------------------------------------------------------------
def _register(name: str, bases: tuple[type[Task], ...], doc: str, **attrs: Any) -> None:
    """Create the task class ``name`` from ``bases`` and ``attrs``, register it and make it a module attribute
    (so it imports and pickles by name)."""
    task_class = type(name, bases, {"name": name, "__doc__": doc, "__module__": __name__, "__qualname__": name,
                                    **attrs})
    globals()[name] = register_task(task_class)


VERIFY_DOC = ("Succeeds without any action, as in AndroidWorld: the setup already leaves the asked-for state "
              "(kept for compatibility; ``{name}Report`` is the variant that needs the agent to act).")

def _register_catalogue() -> None:
    """AndroidWorld's twelve system tasks and the six honest ``*VerifyReport`` variants."""
    for family, label, noun in ((_WifiTask, "Wifi", "Wi-Fi"), (_BluetoothTask, "Bluetooth", "Bluetooth")):
        for goal in (True, False):
            on, off = ("on", "off") if goal else ("off", "on")
            name = f"System{label}Turn{on.title()}"
            _register(name, (family,), f"Turn {noun} {on} (it starts {off}).", goal_on=goal, preset_on=not goal)
            _register(f"{name}Verify", (family,), f"Turn {noun} {on}, with it {on} already. "
                      + VERIFY_DOC.format(name=f"{name}Verify"), goal_on=goal, preset_on=goal,
                      succeeds_without_action=True)
            _register(f"{name}VerifyReport", (_RadioReport, family),
                      f"Make sure {noun} is {on}, starting from a random state, and answer whether it was {off}.",
                      goal_on=goal, template=family.report_template)
    for goal_max, end, other in ((True, "Max", MIN_BRIGHTNESS), (False, "Min", MAX_BRIGHTNESS)):
        name, word = f"SystemBrightness{end}", "maximum" if goal_max else "minimum"
        _register(name, (_BrightnessTask,), f"Turn the brightness to its {word} (it starts at the other end).",
                  goal_max=goal_max, preset=other)
        _register(f"{name}Verify", (_BrightnessTask,), f"Turn the brightness to its {word}, with it there already. "
                  + VERIFY_DOC.format(name=f"{name}Verify"), goal_max=goal_max,
                  preset=MAX_BRIGHTNESS if goal_max else MIN_BRIGHTNESS, succeeds_without_action=True)
        _register(f"{name}VerifyReport", (_BrightnessReport,),
                  f"Make sure the brightness is at its {word} and answer whether it was elsewhere.",
                  goal_max=goal_max, template=_BrightnessTask.report_template)


_register_catalogue()
