"""Constrained variants of catalogue tasks (AndroidArena's constrained tasks): a task plus constraints on how to
solve it, each registered as ``AndroidWorld/<Variant>-v0``.

Each constraint forbids a path a careless agent could plausibly take, and each base task's oracle keeps to its
constraints (so the variant stays solvable and the oracle is its demonstration):

* Text an address to a contact without looking the contact up in the Contacts app (the SMS app suggests contacts).
* Add a contact without going through Simple SMS Messenger.
* Reply in the existing conversation instead of starting a new one.
* Turn Wi-Fi off in Settings (the oracle's way) without the quick settings panel; make sure Bluetooth is off from
  the quick settings panel (the oracle's way) without Settings.
* Set the brightness without opening the Adaptive brightness page.
* Set a timer without touching the Stopwatch tab.

``gym.make("AndroidWorld/<Variant>-v0", penalty=..., terminate_on_violation=...)`` passes those to
``ApplyConstraints``; every other argument goes to the ``AndroidEnv``.
"""

from __future__ import annotations

import difflib
from typing import Any, NamedTuple

import gymnasium as gym

from android_gym.env import AndroidEnv
from android_gym.envs import clock, contacts, sms, system  # noqa: F401  (the base tasks, registered first)
from android_gym.errors import UnknownTaskError
from android_gym.tasks import get_task
from android_gym.tasks.registry import env_id
from android_gym.wrappers.constraints import ApplyConstraints, Constraint, ForbiddenApp, ForbiddenElement, ForbiddenPage

# Simple SMS Messenger's AndroidManifest.xml: `.activities.NewConversationActivity`.
NEW_CONVERSATION_ACTIVITY = f"{sms.PACKAGE}/{sms.PACKAGE}.activities.NewConversationActivity"
# AOSP Settings strings.xml `adaptive_brightness_main_switch_title`: the Adaptive brightness page's main switch.
USE_ADAPTIVE_BRIGHTNESS = "Use adaptive brightness"


class Variant(NamedTuple):
    """A base task (registered name) and the constraints added to it."""

    task: str
    constraints: tuple[Constraint, ...]


CONSTRAINED_VARIANTS: dict[str, Variant] = {
    "SimpleSmsSendReceivedAddressWithoutContacts": Variant(
        "SimpleSmsSendReceivedAddress", (ForbiddenApp(contacts.PACKAGE, contacts.APP_NAME),)),
    "ContactsAddContactWithoutSms": Variant("ContactsAddContact", (ForbiddenApp(sms.PACKAGE, sms.APP_NAME),)),
    "SimpleSmsReplyWithoutNewConversation": Variant(
        "SimpleSmsReply", (ForbiddenPage(activity=NEW_CONVERSATION_ACTIVITY, name="the new conversation screen"),)),
    "SystemWifiTurnOffWithoutQuickSettings": Variant(
        "SystemWifiTurnOff", (ForbiddenApp(system.SYSTEMUI, "System UI", name="the quick settings panel"),)),
    "SystemBluetoothTurnOffVerifyReportWithoutSettings": Variant(
        "SystemBluetoothTurnOffVerifyReport", (ForbiddenApp(system.SETTINGS, system.APP_NAME),)),
    "SystemBrightnessMaxWithoutAdaptiveBrightness": Variant(
        "SystemBrightnessMax", (ForbiddenPage(text=USE_ADAPTIVE_BRIGHTNESS, name="the Adaptive brightness page"),)),
    "ClockTimerEntryWithoutStopwatch": Variant(
        "ClockTimerEntry", (ForbiddenElement(content_desc="Stopwatch", name="the Stopwatch tab"),)),
}


def make_env(variant: str, *, penalty: float = 0.0, terminate_on_violation: bool = False,
             **env_kwargs: Any) -> ApplyConstraints:
    """The constrained variant ``variant``: an ``AndroidEnv`` of its base task (``env_kwargs``: ``device``,
    ``pixels``, ``render_mode``) wrapped in ``ApplyConstraints`` with its constraints."""
    if variant not in CONSTRAINED_VARIANTS:
        close = difflib.get_close_matches(variant, list(CONSTRAINED_VARIANTS), n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownTaskError(f"no constrained variant named {variant!r}.{hint} The variants are "
                               f"android_gym.envs.constrained.CONSTRAINED_VARIANTS.")
    task, constraints = CONSTRAINED_VARIANTS[variant]
    return ApplyConstraints(AndroidEnv(task, **env_kwargs), constraints, penalty=penalty,
                            terminate_on_violation=terminate_on_violation)


def _register_variants() -> None:
    """Register every variant with its base task's step budget (string entry point, JSON-able kwargs)."""
    for name, (task, _) in CONSTRAINED_VARIANTS.items():
        gym.registry.pop(env_id(name), None)  # importing twice (a reload) replaces silently, as register_task does
        gym.register(id=env_id(name), entry_point=f"{__name__}:make_env", kwargs={"variant": name},
                     max_episode_steps=get_task(task).max_steps())


_register_variants()
