"""``SystemServices``: what a system service sees of the phone it runs in.

The OS layer's services (content providers, shared preferences, radios, telephony, contacts) are built on the
phone's clock, file system, settings, system properties and log buffers, and ask the phone to redraw after a
change. They see it through this protocol, not the concrete ``Phone``, so ``system/`` depends on nothing above it.
"""

from __future__ import annotations

from typing import Protocol

from android_gym.sim.system.battery import Battery
from android_gym.sim.system.clock import VirtualClock
from android_gym.sim.system.fs import FileSystem
from android_gym.sim.system.logd import LogBuffer
from android_gym.sim.system.settings import Settings


class SystemServices(Protocol):
    """The base services of one phone."""

    clock: VirtualClock
    fs: FileSystem
    settings: Settings
    #: ``getprop`` values.
    props: dict[str, str]
    #: ``logd``'s buffers.
    logs: LogBuffer
    #: What ``BatteryService`` reports.
    battery: Battery

    def invalidate(self) -> None:
        """Something visible may have changed: redraw before the next look at the screen."""

    def data_changed(self) -> None:
        """What an app keeps (its databases and files) or runs in the background changed: redraw unless the screen
        in front shows no app's data (the home screen)."""
