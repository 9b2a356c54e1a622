"""The battery as ``BatteryService`` reports it, and its shell command's overrides (``dumpsys battery set|unplug|
reset``).

The emulator's battery is on AC power at 100 %. ``dumpsys battery set level 15`` (or ``ac``, ``usb``,
``wireless``, ``status``, ``present``, ``temp``) freezes the reported state at the given values ("UPDATES STOPPED")
until ``dumpsys battery reset``; ``unplug`` sets every charger to 0. Listeners (SystemUI's ``PowerUI``) hear of every
change, as they get ``ACTION_BATTERY_CHANGED``.

Source: AOSP ``services/core/java/com/android/server/BatteryService.java`` (``Shell.onCommand``, ``dumpInternal``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace

#: ``BatteryManager.BATTERY_STATUS_CHARGING``.
STATUS_CHARGING = 2


@dataclass(frozen=True)
class BatteryState:
    """What the health HAL reports (the emulator's goldfish battery: on AC power, full)."""

    ac: int = 1
    usb: int = 0
    wireless: int = 0
    status: int = STATUS_CHARGING
    level: int = 100
    present: bool = True
    temp: int = 250
    invalid: int = 0

    @property
    def plugged(self) -> bool:
        """Whether any charger is connected (``BatteryService.isPoweredLocked``)."""
        return bool(self.ac or self.usb or self.wireless)


#: The keys ``dumpsys battery set`` takes (``BatteryService.Shell``), each parsed as an int.
SETTABLE = tuple(f.name for f in fields(BatteryState))


@dataclass
class Battery:
    """The reported battery state; ``updates_stopped`` once the shell has overridden it."""

    state: BatteryState = field(default_factory=BatteryState)
    updates_stopped: bool = False
    _listeners: list[Callable[[BatteryState], None]] = field(default_factory=list)

    def listen(self, listener: Callable[[BatteryState], None]) -> None:
        """Call ``listener`` with the new state after every change (``ACTION_BATTERY_CHANGED``)."""
        self._listeners.append(listener)

    def set(self, key: str, value: int) -> None:
        """``dumpsys battery set KEY VALUE``; ``KeyError`` for a key ``BatteryService`` does not know."""
        if key not in SETTABLE:
            raise KeyError(key)
        self._change(replace(self.state, **{key: bool(value) if key == "present" else value}))

    def unplug(self) -> None:
        """``dumpsys battery unplug``: every charger offline (the status is left as it was, as the shell does)."""
        self._change(replace(self.state, ac=0, usb=0, wireless=0))

    def reset(self) -> None:
        """``dumpsys battery reset``: back to what the hardware reports, updates resume."""
        self.updates_stopped = False
        self._notify(BatteryState())

    def _change(self, state: BatteryState) -> None:
        self.updates_stopped = True
        self._notify(state)

    def _notify(self, state: BatteryState) -> None:
        self.state = state
        for listener in self._listeners:
            listener(state)
