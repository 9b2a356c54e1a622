"""Intents and broadcast results: the messages apps, the activity manager and ``am`` pass one another."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Intent:
    """The parts of an Android Intent that ``am start`` and apps use."""

    action: str = ""
    data: str = ""
    mime_type: str = ""
    component: str = ""
    categories: tuple[str, ...] = ()
    extras: dict[str, str] = field(default_factory=dict)


@dataclass
class BroadcastResult:
    """The result an ordered broadcast carries from receiver to receiver (``BroadcastReceiver.setResultCode`` /
    ``setResultData``). ``am broadcast`` starts it at code 0 with no data and prints it at the end."""

    code: int = 0
    data: str | None = None
