"""Simple SMS Messenger tasks (AndroidWorld ``task_evals/single/sms.py`` semantics).

Success is read from the system SMS store (``mmssms.db``), so it does not depend on how the message was sent,
and, as in AndroidWorld, also requires the SMS app to be in front. ``SimpleSmsResend`` and
``SimpleSmsSendReceivedAddress`` name people by contact name, as AndroidWorld does: their setups add the contacts
(through the contacts provider with ``content insert``, where AndroidWorld fills the Contacts app's insert form)
and their teardowns delete every contact (``pm clear`` of the provider).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.tasks import Task, register_task
from android_gym.tasks import params as gen
from android_gym.tasks.oracle import OracleStep, Selector, act, complete, hide_keyboard_unless, open_app, tap, type_into
from android_gym.tasks.validators import (
    SMS_DB,
    SMS_TYPE_SENT,
    add_contacts,
    clear_contacts,
    device_time_ms,
    fuzzy_match,
    same_number,
    sms_messages,
    was_sent,
)

PACKAGE = "com.simplemobiletools.smsmessenger"
APP_NAME = "Simple SMS Messenger"
ADDRESSES = (  # AndroidWorld's event addresses
    "123 Main St Girdwood, AK, 99587", "6 Elm St, Birmingham, AL, 35217", "789 E Oak St, Phoenix AZ 85006",
    "1011 S Maple St, Little Rock, AR, 72204", "1415 W Cedar Ave Denver, CO, 80223",
    "968 Spruce St, Hartford, CT, 06103", "1819 Birch Ct, Dover, DE, 19901", "2021 Poplar St, Atlanta, GA, 30340",
)
RESEND_REQUEST = "Sorry, there was a glitch, what was the last message you sent me?"


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


NEW_CONVERSATION = Selector(resource_id=_id("conversations_fab"))
CONTACT_NAME = "item_contact_name"
ADDRESS_FIELD = Selector(resource_id=_id("new_conversation_address"))
CONFIRM_ADDRESS = Selector(resource_id=_id("new_conversation_confirm"))
MESSAGE_FIELD = Selector(resource_id=_id("thread_type_message"))
SEND_BUTTON = Selector(resource_id=_id("thread_send_message"))


def _conversation(title: str) -> Selector:
    return Selector(text=title, resource_id=_id("conversation_address"))


#: The shell line that turns airplane mode off and empties the SMS store, as the SMS tasks start (AndroidWorld's
#: ``DELETE FROM sms; DELETE FROM threads;``, each with ``WHERE 1``: the same rows deleted, but row by row rather than
#: by SQLite's truncate optimisation, which rewrites a table even when it is empty, so a store already empty, as
#: after a rewind, is not written at all).
CLEAR_TEXTS = (f"settings put global airplane_mode_on 0 && sqlite3 {shlex.quote(SMS_DB)} "
               "'DELETE FROM sms WHERE 1; DELETE FROM threads WHERE 1;'")


def _send_steps(number: str, message: str) -> list[OracleStep]:
    """From the conversation list: start a conversation with ``number``, type ``message``, send it."""
    return [tap(NEW_CONVERSATION), type_into(ADDRESS_FIELD, number), tap(CONFIRM_ADDRESS),
            type_into(MESSAGE_FIELD, message), tap(SEND_BUTTON), complete()]


def _reply_steps(title: str, message: str) -> list[OracleStep]:
    """Open the app, open the conversation titled ``title`` (a number, or a contact's name), send ``message``."""
    return [open_app(APP_NAME), tap(_conversation(title)), type_into(MESSAGE_FIELD, message), tap(SEND_BUTTON),
            complete()]


class _SmsTask(Task):
    """Clears the SMS store at start; succeeds when the message was sent and the SMS app is in front."""

    app_packages = (PACKAGE,)
    complexity = 1.0

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A recipient number and a message."""
        return {"number": gen.phone_number(rng), "message": gen.message(rng)}

    def clear_state(self, device: Device) -> None:
        """Airplane mode off and an empty SMS store."""
        self.run(device, CLEAR_TEXTS)

    def is_successful(self, device: Device) -> float:
        """1.0 when the expected message was sent and the SMS app is in front."""
        if state.foreground_package(device) != PACKAGE:
            return 0.0
        return 1.0 if was_sent(device, self.params["number"], self.params["message"]) else 0.0


@register_task
class SimpleSmsSend(_SmsTask):
    """Send a given text to a given number."""

    name = "SimpleSmsSend"
    template = "Send a text message using Simple SMS Messenger to {number} with message: {message}"

    def oracle(self) -> Sequence[OracleStep]:
        """Start a conversation, enter the number, type the message, send."""
        return [open_app(APP_NAME), *_send_steps(self.params["number"], self.params["message"])]


register_task(SimpleSmsSend, "SendSms")


@register_task
class SimpleSmsReply(_SmsTask):
    """Reply to one of several received conversations."""

    name = "SimpleSmsReply"
    template = "Reply to {number} with message: {message} in Simple SMS Messenger"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The target, 1–5 other senders, and where the target's text falls among theirs."""
        params = super().generate_params(rng)
        others = [gen.phone_number(rng) for _ in range(int(rng.integers(1, 6)))]
        texts = [gen.message(rng) for _ in range(len(others) + 1)]
        return {**params, "other_numbers": others, "received": texts,
                "target_position": int(rng.integers(len(others) + 1))}

    def seed_state(self, device: Device) -> None:
        """Incoming texts from the other numbers with the target's text among them."""
        senders = list(self.params["other_numbers"])
        senders.insert(self.params["target_position"], self.params["number"])
        state.receive_texts(device, zip(senders, self.params["received"]))

    def oracle(self) -> Sequence[OracleStep]:
        """Open the target's conversation and reply."""
        return _reply_steps(self.params["number"], self.params["message"])


@register_task
class SimpleSmsReplyMostRecent(_SmsTask):
    """Reply to whoever texted last."""

    name = "SimpleSmsReplyMostRecent"
    template = "Reply to the most recent text message using Simple SMS Messenger with message: {message}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The last sender (``number``), 0–5 earlier senders and their texts (never the goal message)."""
        params = super().generate_params(rng)
        others = [gen.phone_number(rng) for _ in range(int(rng.integers(0, 6)))]
        texts = [gen.message(rng, exclude=(params["message"],)) for _ in range(len(others) + 1)]
        return {**params, "other_numbers": others, "received": texts}

    def seed_state(self, device: Device) -> None:
        """Texts from the other numbers, then the most recent one from ``number``."""
        for sender, text in zip([*self.params["other_numbers"], self.params["number"]], self.params["received"]):
            device.receive_sms(sender, text)
            device.shell("sleep 1")  # distinct arrival times, newest last

    def oracle(self) -> Sequence[OracleStep]:
        """Reply in the conversation with the newest message (the top row: ``number``)."""
        return _reply_steps(self.params["number"], self.params["message"])


class _ContactsSmsTask(_SmsTask):
    """An SMS task about contacts: at start only the task's own contacts, none left afterwards."""

    setup_clears_teardown = True  # the contacts teardown deletes, clear_state deletes too

    def clear_state(self, device: Device) -> None:
        """Airplane mode off, an empty SMS store, no contacts."""
        super().clear_state(device)
        clear_contacts(device)

    def seed_state(self, device: Device) -> None:
        """The task's contacts (``contacts``: name → number), then its messages (``seed_texts``)."""
        add_contacts(device, self.contacts().items())
        self.seed_texts(device)

    def contacts(self) -> dict[str, str]:
        """The contacts the task needs, name → number."""
        raise NotImplementedError

    def seed_texts(self, device: Device) -> None:
        """Put the task's initial messages into the store."""
        raise NotImplementedError

    def teardown(self, device: Device) -> None:
        """Stop the app, go home, delete the contacts (AndroidWorld's ``adb_utils.delete_contacts``)."""
        super().teardown(device)
        clear_contacts(device)


@register_task
class SimpleSmsResend(_ContactsSmsTask):
    """Send the last sent message once more."""

    name = "SimpleSmsResend"
    template = "Resend the message I just sent to {name} in Simple SMS Messenger"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The contact's ``name`` and ``number``, and the ``message`` sent to them."""
        return {"name": gen.person_name(rng), **super().generate_params(rng)}

    def contacts(self) -> dict[str, str]:
        """The person the message went to."""
        return {self.params["name"]: self.params["number"]}

    def seed_texts(self, device: Device) -> None:
        """A message sent to ``number``, then their request to repeat it; remembers the sent messages."""
        now = device_time_ms(device)
        self.run(device, "content insert --uri content://sms/sent"
                 f" --bind address:s:{shlex.quote(self.params['number'])}"
                 f" --bind body:s:{shlex.quote(self.params['message'])}"
                 f" --bind date:l:{now - 60_000} --bind read:i:1 --bind seen:i:1")
        device.shell("sleep 3")
        device.receive_sms(self.params["number"], RESEND_REQUEST)
        self.sent_before = len(sms_messages(device, SMS_TYPE_SENT))

    def is_successful(self, device: Device) -> float:
        """Exactly one new sent message, equal (address, fuzzy body) to the one sent before."""
        if state.foreground_package(device) != PACKAGE:
            return 0.0
        sent = sms_messages(device, SMS_TYPE_SENT)
        if len(sent) != self.sent_before + 1:
            return 0.0
        newest = sent[0]
        return 1.0 if (same_number(newest["address"] or "", self.params["number"])
                       and fuzzy_match(newest["body"] or "", self.params["message"])) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the conversation (titled by the contact's name) and send the same text again."""
        return _reply_steps(self.params["name"], self.params["message"])


@register_task
class SimpleSmsSendReceivedAddress(_ContactsSmsTask):
    """Forward an address someone texted to someone else."""

    name = "SimpleSmsSendReceivedAddress"
    complexity = 2.0
    template = "Text the address of the event to {name1} that {name2} just sent me in Simple SMS Messenger"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Recipient ``name1`` (at ``number``), ``name2`` (at ``sender_number``) who sent the address, and the
        address as ``message``."""
        name1, number = gen.person_name(rng), gen.phone_number(rng)
        name2, sender_number = name1, number
        while name2 == name1:
            name2 = gen.person_name(rng)
        while sender_number == number:
            sender_number = gen.phone_number(rng)
        return {"name1": name1, "number": number, "name2": name2, "sender_number": sender_number,
                "message": ADDRESSES[int(rng.integers(len(ADDRESSES)))]}

    def contacts(self) -> dict[str, str]:
        """Both people."""
        return {self.params["name1"]: self.params["number"], self.params["name2"]: self.params["sender_number"]}

    def seed_texts(self, device: Device) -> None:
        """``name2``'s text holding the address."""
        device.receive_sms(self.params["sender_number"], self.params["message"])

    def oracle(self) -> Sequence[OracleStep]:
        """Read the address in ``name2``'s conversation, then pick ``name1`` among the contacts and send it."""
        contact = Selector(text=self.params["name1"], resource_id=_id(CONTACT_NAME))
        return [open_app(APP_NAME), tap(_conversation(self.params["name2"])), act(Action(ActionType.NAVIGATE_BACK)),
                tap(NEW_CONVERSATION), type_into(ADDRESS_FIELD, self.params["name1"]),
                hide_keyboard_unless(contact), tap(contact),
                type_into(MESSAGE_FIELD, self.params["message"]), tap(SEND_BUTTON), complete()]
