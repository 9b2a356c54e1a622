"""The exceptions android_gym raises for bad configuration and broken devices.

Invalid *actions* never raise: the env reports them in ``info["invalid_action"]``.
"""

from __future__ import annotations

from typing import Any


def short_repr(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages about bad input; never raises (``repr``
    of an int too long to print raises ``ValueError``)."""
    try:
        text = repr(value)
    except Exception:  # describing a bad value must not fail in its turn
        return f"a {type(value).__name__} that cannot be shown"
    return text if len(text) <= limit else text[:limit] + "..."


class AndroidGymError(Exception):
    """Base class of every error android_gym raises on purpose."""


class UnknownTaskError(AndroidGymError):
    """A task name that is not in the registry."""


class DeviceSpecError(AndroidGymError):
    """A ``device=`` argument that names no backend we can open."""


class DeviceError(AndroidGymError):
    """The device failed or became unreachable while in use (the env truncates and reconnects)."""


class ConsoleError(DeviceError):
    """The emulator console could not be reached, refused the auth token, or answered a command with ``KO:``."""


class ConsoleCommandError(AndroidGymError, ValueError):
    """A console command that cannot cross to the emulator as one line (a newline, a NUL, too long, a bad
    phone number)."""


class TaskSetupError(AndroidGymError):
    """A task could not initialize the device (a shell command failed, an app is missing, ...)."""


class ProvisionError(AndroidGymError):
    """A device could not be provisioned (``android-gym setup-device``): an APK that cannot be had or installed,
    a system app the image lacks, a permission or app-data snapshot the device refuses, a bad app manifest."""


class SpecError(AndroidGymError):
    """A declarative task spec (``task_specs/*.textproto``) is malformed; the message names the file, the line
    and what to fix."""


class RemoteFileNotFoundError(AndroidGymError, FileNotFoundError):
    """A file that does not exist on the device (``pull`` of a missing path)."""


class InvalidActionError(AndroidGymError, ValueError):
    """An action that cannot be executed; the env reports its message in ``info["invalid_action"]``."""


class AdbServerError(DeviceError):
    """No adb server could be reached or started."""


class DeviceNotFoundError(DeviceError):
    """The adb server does not know the requested serial."""


class DeviceOfflineError(DeviceError):
    """The device is known to adb but not usable (offline, unauthorized, ...)."""


class NotRootedError(DeviceError):
    """The device's adbd cannot run as root, which task setup and success checks need."""


class EmulatorError(AndroidGymError):
    """An Android emulator could not be started, stopped or reached through its console."""


class EmulatorNotFoundError(EmulatorError):
    """The SDK's ``emulator`` binary is not installed where android_gym looks for it."""


class EmulatorBootError(EmulatorError):
    """An emulator exited before it booted, or did not finish booting in time; the message has its log's tail."""


class ConfigError(AndroidGymError, ValueError):
    """A setting with a value it cannot take (a negative interval, a poll bound below the quiet count, reset
    options that are not a dict, ...); the message names the setting and the values it accepts."""


class UnencodableTextError(AndroidGymError, ValueError):
    """Text for a device (a shell command, a path, text to type) that is not valid Unicode: it holds a lone
    surrogate such as ``"\\ud800"``, which UTF-8, the encoding every device protocol uses, cannot encode."""


class EmulatorGrpcError(DeviceError):
    """The emulator's gRPC endpoint is unreachable, or refused or failed a request (a snapshot it cannot load, ...)."""


class ServerError(AndroidGymError):
    """The simulated phone could not be served (typically: the port is taken)."""


class SnapshotError(AndroidGymError):
    """A simulated-phone snapshot that cannot be saved, loaded or deleted (a bad name, no such snapshot)."""


class LLMDependencyError(AndroidGymError, ImportError):
    """The LLM agent's optional dependency (the ``openai`` client) is not installed; the message says what to
    install."""


class LLMConfigError(ConfigError):
    """An LLM agent setting that cannot work: no model, no API key, an unknown mode or dialect, a bad price table."""


class LLMRequestError(AndroidGymError):
    """A chat request that failed for good: a refusal (bad request, wrong key, unknown model) or a transient error
    (rate limit, server error, timeout) that outlasted every retry. The agent records it; the episode goes on."""

    def __init__(self, message: str, attempts: int = 1) -> None:
        super().__init__(message)
        #: How many requests were sent before giving up.
        self.attempts = attempts


class AgentSpecError(AndroidGymError):
    """An ``--agent`` that names no agent: not a built-in one, or a ``module:callable`` that cannot be imported,
    is not callable with no argument, or returns no ``Agent``; the message says what to fix."""


class SuiteError(AndroidGymError):
    """An evaluation suite that names no task, or names one that is not registered (a glob matching nothing, a
    task list file with an unknown name)."""


class RunDirError(AndroidGymError):
    """An evaluation's output folder that cannot be used: it holds another agent's run, a results file that is not
    an evaluation's, or another evaluation is writing to it."""


class EvalWorkerError(AndroidGymError):
    """Every worker process of an evaluation exited before the episodes were played."""


class AppDocsError(AndroidGymError):
    """Exploration or app documentation that cannot work: an unknown app, an app no task opens, a docs file that is
    not one, a recorded run without its episode files."""
