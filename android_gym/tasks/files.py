"""What file tasks share: AndroidWorld's device folders (``env/device_constants.py``) and its file helpers
(``utils/file_utils.py``, ``user_data_generation.clear_device_storage``), over the ``Device`` protocol only, so they
run the same on the simulated phone and on a real emulator.

Checks read the device with the shell commands AndroidWorld uses (``find``, ``ls -ll``), so they see exactly what
it would. ``tree_snapshot`` goes further than AndroidWorld: it records every file under a folder with its digest,
so a task can prove that the files it did not ask about (the noise) were left alone.
"""

from __future__ import annotations

import datetime as dt
import posixpath
import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from android_gym.device.base import Device, ShellResult
from android_gym.device.reads import pull_read, shell_read
from android_gym.errors import RemoteFileNotFoundError, TaskSetupError

EXTERNAL_STORAGE = "/storage/emulated/0"
MARKOR_DATA = f"{EXTERNAL_STORAGE}/Documents/Markor"
DOWNLOAD_DATA = f"{EXTERNAL_STORAGE}/Download"
GALLERY_DATA = "/sdcard/DCIM"
PHOTOS_DATA = "/sdcard/Pictures"
VIDEOS_DATA = "/sdcard/Movies"
MUSIC_DATA = "/sdcard/Music"
AUDIORECORDER_DATA = f"{EXTERNAL_STORAGE}/Android/data/com.dimowner.audiorecorder/files/Music/records"
#: What ``tree_snapshot`` records for a folder (no digest is ``/``).
FOLDER = "/"


@dataclass(frozen=True)
class FileInfo:
    """A regular file as ``ls -ll`` lists it (AndroidWorld's ``FileWithMetadata``)."""

    name: str
    path: str
    size: int
    change_time: dt.datetime


def _run(device: Device, command: str, reads_only: bool = False, tree: str | None = None) -> str:
    """The output of ``command`` (``reads_only``: a command that only reads, ``shell_read``; ``tree``: the one
    directory tree it reads, if so); ``TaskSetupError`` when it fails."""
    return _output(command, shell_read(device, command, tree) if reads_only else device.shell(command))


def _output(command: str, result: ShellResult) -> str:
    """The output of ``command`` as it ran (``result``); ``TaskSetupError`` when it failed."""
    if not result.ok:
        raise TaskSetupError(f"`{command}` failed (exit {result.exit_code}): {result.output.strip()}")
    return result.output


def is_directory(device: Device, path: str) -> bool:
    """Whether ``path`` is a directory on the device (``[ -d … ]``)."""
    return shell_read(device, f"[ -d {shlex.quote(path)} ]", tree=path).ok


def _parse_full_time(date: str, time: str, zone: str) -> dt.datetime:
    """``2023-10-15 15:34:00.123456789 +0000`` → an aware datetime (microseconds: Python keeps no more)."""
    seconds, _, fraction = time.partition(".")
    stamp = dt.datetime.strptime(f"{date} {seconds} {zone}", "%Y-%m-%d %H:%M:%S %z")
    return stamp + dt.timedelta(microseconds=int((fraction or "0")[:6].ljust(6, "0")))


def list_files(device: Device, directory: str, missing_ok: bool = False) -> list[FileInfo]:
    """Regular files directly in ``directory`` with size and time, from ``ls DIR -ll -au`` as AndroidWorld's
    ``get_file_list_with_metadata`` reads them; if it is not a directory, none with ``missing_ok``, else
    ``TaskSetupError``."""
    if not is_directory(device, directory):
        if missing_ok:
            return []
        raise TaskSetupError(f"{directory} is not a directory on the device")
    files = []
    # the lines read (the files') show nothing from outside the folder's tree (``..`` is left out)
    listing = _run(device, f"ls {shlex.quote(directory)} -ll -au", reads_only=True, tree=directory)
    for line in listing.splitlines():
        if not line.startswith("-"):
            continue
        parts = line.split(None, 8)
        if len(parts) < 9:
            raise TaskSetupError(f"cannot parse `ls -ll` line: {line!r}")
        name = parts[8].strip()
        files.append(FileInfo(name, posixpath.join(directory, name), int(parts[4]),
                              _parse_full_time(parts[5], parts[6], parts[7])))
    return files


def path_exists(device: Device, directory: str, target: str) -> bool:
    """Whether ``directory/target`` is a file or folder, as AndroidWorld's ``check_file_or_folder_exists``: among
    the paths ``find DIR -type f -o -type d`` prints (``False`` when ``directory`` itself is missing)."""
    if not is_directory(device, directory):
        return False
    found = _run(device, f"find {shlex.quote(directory)} -type f -o -type d", reads_only=True,
                 tree=directory).splitlines()
    return posixpath.join(directory, target) in found


def file_text(device: Device, path: str) -> str | None:
    """A file's text as AndroidWorld's checks read it (``cat``, carriage returns dropped, stripped); ``None`` when
    there is no such file."""
    try:
        data = pull_read(device, path)
    except RemoteFileNotFoundError:
        return None
    return data.decode("utf-8", errors="replace").replace("\r", "").strip()


def create_file(device: Device, directory: str, name: str, content: str) -> None:
    """AndroidWorld's ``create_file``: ``echo 'content' > directory/name`` after ``mkdir -p``, so the file holds
    the content and a newline (``write_files`` of one)."""
    write_files(device, directory, {name: content})


def write_files_command(directory: str, files: Mapping[str, str]) -> str:
    """The shell line of ``create_file`` for each of the ``{name: content}`` files, in order (``mkdir -p`` once)."""
    writes = (f"echo {shlex.quote(content)} > {shlex.quote(posixpath.join(directory, name))}"
              for name, content in files.items())
    return " && ".join([f"mkdir -p {shlex.quote(directory)}", *writes])


def write_files(device: Device, directory: str, files: Mapping[str, str]) -> None:
    """``create_file`` for several ``{name: content}`` files in one shell round trip (``write_files_command``), or
    through the device's short cut where it has one (``SimDevice.write_files``: what the line does and gives,
    without parsing and running it); ``TaskSetupError`` when it fails."""
    if not files:
        return
    short_cut = getattr(device, "write_files", None)
    command = write_files_command(directory, files)
    _output(command, short_cut(directory, files) if short_cut is not None else device.shell(command))


def clear_directory_command(directory: str) -> str:
    """The shell command of ``clear_directory``, braced so that it joins other commands with ``&&`` in one line."""
    quoted = shlex.quote(directory)
    return f"{{ [ ! -d {quoted} ] || find {quoted} -mindepth 1 -delete; }}"


def clear_directory(device: Device, directory: str) -> None:
    """Remove everything inside ``directory`` (hidden entries too), keeping it; nothing happens if it is missing."""
    _run(device, clear_directory_command(directory))  # one round trip


def empty_directory_command(directory: str) -> str:
    """A shell command leaving ``directory`` there and empty: ``clear_directory``, then ``mkdir -p`` (the same,
    made first: a missing folder has nothing to delete)."""
    quoted = shlex.quote(directory)
    return f"mkdir -p {quoted} && find {quoted} -mindepth 1 -delete"


#: AndroidWorld's ``clear_internal_storage`` as a shell command (``clear_device_storage``).
CLEAR_STORAGE = f"find {EXTERNAL_STORAGE} -mindepth 1 -type f -delete"


def clear_device_storage(device: Device) -> None:
    """AndroidWorld's ``clear_internal_storage``: delete every regular file under external storage, leaving the
    folders. (Its second half, deleting MediaStore download rows, has no effect on files and is left out.)"""
    _run(device, CLEAR_STORAGE)


def tree_snapshot(device: Device, directory: str) -> dict[str, str]:
    """Every entry under ``directory`` by path relative to it: a file's MD5 digest, or ``FOLDER`` for a folder. Two
    equal snapshots mean nothing inside was added, removed, renamed, moved or changed."""
    quoted = shlex.quote(directory)
    output = _run(device, f"if [ -d {quoted} ]; then find {quoted} -mindepth 1 -type d; "
                          f"find {quoted} -type f -exec md5sum {{}} +; fi",  # nothing when it is no folder
                  reads_only=True, tree=directory)
    prefix = directory.rstrip("/") + "/"
    snapshot = {}
    for line in output.splitlines():
        digest, separator, path = line.partition("  ")
        if separator and len(digest) == 32:
            snapshot[path.removeprefix(prefix)] = digest
        elif line.startswith(prefix):
            snapshot[line.removeprefix(prefix)] = FOLDER
    return snapshot


def kept(before: Mapping[str, str], now: Mapping[str, str], *paths: str) -> bool:
    """Whether every entry of the snapshot ``before``, apart from ``paths`` (relative, with everything under
    them: the files a task is about), is still in ``now`` unchanged; new entries do not matter."""
    return all(now.get(path) == digest for path, digest in before.items()
               if not any(path == changed or path.startswith(changed + "/") for changed in paths))


def files_in(snapshot: Mapping[str, str]) -> dict[str, str]:
    """A snapshot's files, without its folders (empty folders a setup leaves behind do not matter)."""
    return {path: digest for path, digest in snapshot.items() if digest != FOLDER}
