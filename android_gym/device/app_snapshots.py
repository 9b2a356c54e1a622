"""Where ``android-gym setup-device`` keeps the apps' data snapshots on a device, and the shell line that brings an
app's data back to its snapshot (AndroidWorld's ``app_snapshot.restore_snapshot``). A module of its own, importing
nothing of the package, so a task's setup can send that line along with its own commands in one round trip."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

#: Where pushed APKs wait for ``pm install`` and where app data snapshots are kept (root only).
DEVICE_DIR = "/data/local/tmp/android_gym"
SNAPSHOT_DIR = f"{DEVICE_DIR}/app_data"
#: Where an app keeps its data: credential-protected (``/data/data``) and device-protected storage.
DATA_DIR, DE_DATA_DIR = "/data/data", "/data/user_de/0"
#: The exit status of ``restore_command`` when a snapshot is missing (without ``missing_ok``).
MISSING = 3
#: What ``restore_command`` prints before the missing snapshot's path.
NO_SNAPSHOT = "no snapshot: "


def snapshot_path(package: str) -> str:
    """Where the snapshot of ``package``'s data is kept."""
    return f"{SNAPSHOT_DIR}/{package}"


def restore_command(packages: Sequence[str], missing_ok: bool = False) -> str:
    """One shell line bringing the data of ``packages`` back to their snapshots: for each app, ``am force-stop``,
    empty its data directories, copy the snapshot back with ``cp -a``, ``restorecon -RD``. A package without a
    snapshot prints ``NO_SNAPSHOT`` and its path and exits ``MISSING``, or is skipped with ``missing_ok`` (and on a
    device that has no snapshots at all, after one test of their folder, the line does nothing). Empty for no
    packages."""
    script = []
    for package in packages:
        snapshot = shlex.quote(snapshot_path(package))
        data, de = shlex.quote(f"{DATA_DIR}/{package}"), shlex.quote(f"{DE_DATA_DIR}/{package}")
        restore = " && ".join([
            f"am force-stop {shlex.quote(package)}", f"find {data} -mindepth 1 -delete",
            f"cp -a {snapshot}/ce/. {data}/", f"restorecon -RD {data}",
            f"{{ [ ! -d {snapshot}/de ] || {{ find {de} -mindepth 1 -delete && cp -a {snapshot}/de/. {de}/ && "
            f"restorecon -RD {de}; }}; }}"])
        report = shlex.quote(NO_SNAPSHOT + snapshot_path(package))
        missing = "true" if missing_ok else f"{{ echo {report}; exit {MISSING}; }}"
        script.append(f"if [ -f {snapshot}/installed ]; then {restore}; else {missing}; fi")
    command = " && ".join(script)
    if missing_ok and command:
        command = f"if [ -d {SNAPSHOT_DIR} ]; then {command}; fi"
    return command
