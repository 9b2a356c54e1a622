"""The exceptions android_gym raises for bad configuration and broken devices.

Invalid *actions* never raise: the env reports them in ``info["invalid_action"]``.
"""

from __future__ import annotations


class AndroidGymError(Exception):
    """Base class of every error android_gym raises on purpose."""


class UnknownTaskError(AndroidGymError):
    """A task name that is not in the registry."""


class DeviceSpecError(AndroidGymError):
    """A ``device=`` argument that names no backend we can open."""


class DeviceError(AndroidGymError):
    """The device failed or became unreachable while in use (the env truncates and reconnects)."""


class TaskSetupError(AndroidGymError):
    """A task could not initialize the device (a shell command failed, an app is missing, ...)."""


class RemoteFileNotFoundError(AndroidGymError, FileNotFoundError):
    """A file that does not exist on the device (``pull`` of a missing path)."""


class InvalidActionError(AndroidGymError, ValueError):
    """An action that cannot be executed; the env reports its message in ``info["invalid_action"]``."""
