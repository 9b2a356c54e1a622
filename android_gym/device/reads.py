"""Reads made once per look at the phone: a task's score read checks several sub-goals, and two of them may read
the same thing (the folder a note lives in, the contacts list, the same note), which nothing changes between
them. Inside ``one_look()`` the read helpers (``shell_read``, ``pull_read``) answer a command or a pull asked again
from its first answer, so the phone is asked once; outside, each asks the device every time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from android_gym.device.base import Device, ShellResult
from android_gym.errors import RemoteFileNotFoundError

T = TypeVar("T")
_answers: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("answers", default=None)


@contextmanager
def one_look() -> Iterator[None]:
    """Inside, each read the helpers make of a device is made once (a look nested in another is part of it); only
    for code that reads and does not write, such as success checks."""
    if _answers.get() is not None:
        yield
        return
    token = _answers.set({})
    try:
        yield
    finally:
        _answers.reset(token)


def _once(read: Callable[..., T], *arguments: str) -> T:
    """``read(*arguments)``, or inside a look its first answer (``read`` is a bound method of the device)."""
    answers = _answers.get()
    if answers is None:
        return read(*arguments)
    key = (read, *arguments)
    if key not in answers:
        try:
            answers[key] = read(*arguments)
        except RemoteFileNotFoundError as error:
            answers[key] = error
    answer = answers[key]
    if isinstance(answer, RemoteFileNotFoundError):
        raise answer
    return answer


def shell_read(device: Device, command: str, tree: str | None = None) -> ShellResult:
    """``device.shell(command)`` for a command that only reads, asked once per ``one_look``. ``tree``: the one
    directory tree the command reads, if so (what it prints depends on nothing else: the names, kinds and bytes
    there), which the simulated phone notes in place of the command (``SimDevice.tree_read``)."""
    tree_read = getattr(device, "tree_read", None) if tree is not None else None
    if tree_read is not None:
        return _once(tree_read, command, tree)
    return _once(device.shell, command)


def pull_read(device: Device, path: str) -> bytes:
    """``device.pull(path)``, asked once per ``one_look`` (a missing file raises ``RemoteFileNotFoundError`` each
    time)."""
    return _once(device.pull, path)
