"""What a reset gets back on an adb device (``AdbDevice.rewind``), in shell lines: the apps an episode showed are
stopped and their data brought back to the snapshots ``android-gym setup-device`` took (where it took them), and the
``global``/``system``/``secure`` settings whose values changed since the baseline are put back.

What adb cannot reach a real device does not get back: files an app wrote in shared storage, the data of an app
without a snapshot, the clip, settings that were added since the baseline (left as they are), and anything of an app
the episode started without showing it.
"""

from __future__ import annotations

import shlex
from collections.abc import Collection, Mapping

from .app_snapshots import restore_command
from .base import SETTINGS_NAMESPACES

#: What the baseline's and the rewind's lines print before each part of their output.
_PART = "android-gym-part: "
#: The packages never stopped: the system UI and the framework (the home app is asked of the device).
_NEVER_STOPPED = frozenset({"com.android.systemui", "android", ""})

Settings = dict[tuple[str, str], str]  # (namespace, key) -> value


def baseline_line() -> str:
    """A shell line printing the settings (``read_settings``) and the home activity (``read_home``)."""
    home = "cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.HOME"
    return "; ".join([_settings_list(), f"echo {_PART}home", home])


def rewind_line(shown: Collection[str], home: str | None) -> str:
    """A shell line stopping the packages of ``shown`` (but the home app's and the system's), bringing their data
    back to their snapshots where there are any, then printing the settings (``read_settings``)."""
    packages = sorted(set(shown) - _NEVER_STOPPED - {home})
    stops = [f"am force-stop {shlex.quote(package)}" for package in packages]
    restore = restore_command(packages, missing_ok=True)
    return "; ".join([*stops, *([restore] if restore else []), _settings_list()])


def _settings_list() -> str:
    return "; ".join(f"echo {_PART}{namespace}; settings list {namespace}" for namespace in SETTINGS_NAMESPACES)


def _parts(output: str) -> dict[str, list[str]]:
    """The lines printed after each part's mark, by part name."""
    parts: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in output.splitlines():
        if line.startswith(_PART):
            lines = parts.setdefault(line[len(_PART):].strip(), [])
        else:
            lines.append(line)
    return parts


def read_settings(output: str) -> Settings:
    """The settings ``settings list`` printed in a line of ``baseline_line`` or ``rewind_line``: ``key=value`` lines."""
    parts = _parts(output)
    return {(namespace, key): value for namespace in SETTINGS_NAMESPACES for key, equals, value in
            (line.partition("=") for line in parts.get(namespace, ())) if equals}


def read_home(output: str) -> str | None:
    """The home app's package that ``baseline_line`` printed (``package/activity``), or ``None``."""
    found = [line.strip() for line in _parts(output).get("home", ()) if "/" in line]
    return found[-1].split("/")[0] if found else None


def restore_settings_line(baseline: Mapping[tuple[str, str], str], now: Mapping[tuple[str, str], str],
                          keep: Collection[tuple[str, str]]) -> str:
    """The ``settings put`` commands giving back each setting of ``baseline`` whose value is another ``now`` (but
    those of ``keep``); empty when there is none. Each runs whether another failed (a setting the shell may not
    write)."""
    return "; ".join(f"settings put {namespace} {shlex.quote(key)} {shlex.quote(value)}"
                     for (namespace, key), value in sorted(baseline.items())
                     if (namespace, key) not in keep and now.get((namespace, key)) != value)
