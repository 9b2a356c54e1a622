"""What the long-horizon cross-app tasks (issue #28: ``long_horizon_people``, ``long_horizon_notes``,
``long_horizon_activities``) share, in one version.

* Parameters: people with distinct names and numbers (``people``, ``friends``), a target among noise (``among``,
  ``shuffled``).
* Sub-goal checks of the sinks the three families have in common: a text sent (``texted``, ``texted_any``,
  ``texted_number``), a Markor note (``note_holds``), a contact (``contact_saved``), a calendar event
  (``event_added``). Texts and notes are read strictly (``mentions``): an amount by value ("30.1" is said by
  "$30.10", not by "130.1"), words whole, case and accents aside.
* Oracle steps that carry a value from app to app, through the UI only: a single-app task's oracle as a part
  (``part_steps``), texting a contact, reading a text, saving or seeing a contact, writing a Markor note, adding a
  calendar event. None goes back home: the people and notes tasks add ``back_to_home()`` after each part, the
  activity tasks open the next app straight from the screen that shows the value.
* Setup: the SMS store and Markor's notebook emptied (``clearing``: commands for the contacts' clearing line,
  ``validators.clear_contacts``), contacts and received texts seeded (``seed_people``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, TypeVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.envs import calendar, contacts, markor, sms
from android_gym.tasks import files as device_files
from android_gym.tasks import get_task
from android_gym.tasks import params as gen
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    act,
    declares_completion,
    expect,
    hide_keyboard_unless,
    open_app,
    scroll_to,
    tap,
    type_into,
)
from android_gym.tasks.validators import (
    SMS_TYPE_SENT,
    add_contacts,
    contact_phones,
    digits,
    same_number,
    sms_messages,
)

T = TypeVar("T")
Check = Callable[[Device], float]
_CONTACTS_LIST = Selector(resource_id="android:id/list")  # PeopleActivity's list (AOSP contact_list_content.xml)


# ----- parameters -----------------------------------------------------------------------------------------------
def people(rng: np.random.Generator, count: int) -> list[tuple[str, str]]:
    """``count`` people with distinct names and numbers, as ``(name, number)``."""
    found: dict[str, str] = {}
    while len(found) < count:
        name, number = gen.person_name(rng), gen.phone_number(rng)
        if name not in found and number not in found.values():
            found[name] = number
    return list(found.items())


def friends(rng: np.random.Generator, count: int) -> dict[str, Any]:
    """``count`` contacts: the first is ``friend`` at ``friend_number``; all are ``people`` (``[name, number]``)."""
    found = people(rng, count)
    return {"friend": found[0][0], "friend_number": found[0][1], "people": [list(p) for p in found]}


def among(rng: np.random.Generator, target: T, noise: Sequence[T]) -> list[T]:
    """``target`` at a random place among ``noise``."""
    rows = list(noise)
    rows.insert(int(rng.integers(len(rows) + 1)), target)
    return rows


def shuffled(rng: np.random.Generator, rows: Sequence[T]) -> list[T]:
    """``rows`` in a random order."""
    return [rows[i] for i in rng.permutation(len(rows))]


# ----- sub-goal checks ------------------------------------------------------------------------------------------
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def folded(text: str) -> str:
    """``text`` without accents (NFKD, as ``adb shell input text`` types it)."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


def mentions(text: str, piece: str) -> bool:
    """Whether ``text`` says ``piece``: a number (an amount) as any number of the same value ("30.1" in "$30.10",
    not in "130.1"), else the words themselves, case- and accent-insensitively ("Schonberg" says "Schönberg"), not
    inside a longer word or number."""
    text, piece = folded(text), folded(piece)
    if _NUMBER.fullmatch(piece):
        value = Decimal(piece.replace(",", ""))
        return any(Decimal(found.replace(",", "")) == value for found in _NUMBER.findall(text))
    return re.search(rf"(?<![\w.]){re.escape(piece)}(?!\w|\.\d)", text, re.IGNORECASE) is not None


def sent_to(device: Device, number: str) -> list[str]:
    """The bodies of the texts sent to ``number`` (however it is spaced or prefixed)."""
    return [row["body"] or "" for row in sms_messages(device, SMS_TYPE_SENT)
            if same_number(row["address"] or "", number)]


def texted(number: str, *pieces: str) -> Check:
    """A text was sent to ``number`` whose body ``mentions`` every one of ``pieces``."""
    return lambda device: float(any(all(mentions(body, piece) for piece in pieces) for body in sent_to(device, number)))


def texted_any(number: str, *forms: str) -> Check:
    """A text was sent to ``number`` whose body ``mentions`` one of ``forms`` (the ways a goal's value, such as a
    date, may be written)."""
    return lambda device: float(any(mentions(body, form) for form in forms for body in sent_to(device, number)))


def texted_number(to: str, *numbers: str) -> Check:
    """A text was sent to ``to`` whose digits hold the last ten of every one of ``numbers`` (however spaced)."""
    def check(device: Device) -> float:
        return float(any(all(digits(number)[-10:] in digits(body) for number in numbers)
                         for body in sent_to(device, to)))
    return check


def note_holds(name: str, *pieces: str, absent: Sequence[str] = ()) -> Check:
    """Markor's note ``name`` (a path in the notebook) exists, ``mentions`` every one of ``pieces`` and none of
    ``absent``."""
    def check(device: Device) -> float:
        text = device_files.file_text(device, f"{device_files.MARKOR_DATA}/{name}")
        return float(text is not None and all(mentions(text, piece) for piece in pieces)
                     and not any(mentions(text, piece) for piece in absent))
    return check


def contact_saved(name: str, number: str) -> Check:
    """A contact named ``name`` has ``number`` (its digits)."""
    return lambda device: float((name, digits(number)) in contact_phones(device))


def event_added(wanted: Mapping[str, Any]) -> Check:
    """An event with ``wanted``'s times and repetition, title, location and description (``event_matches``)."""
    return lambda device: float(any(calendar.event_matches(row, wanted) for row in calendar.EVENTS.rows(device)))


# ----- oracle steps ---------------------------------------------------------------------------------------------
def without_completion(steps: Sequence[OracleStep]) -> list[OracleStep]:
    """``steps`` without their ``complete()`` (a part of a longer oracle)."""
    return [step for step in steps if not declares_completion(step)]


def part_steps(task_name: str, params: Mapping[str, Any]) -> list[OracleStep]:
    """The oracle of the registered single-app task ``task_name`` with ``params``, without its completion."""
    return without_completion(get_task(task_name)(dict(params)).oracle())


def text_contact(name: str, message: str) -> list[OracleStep]:
    """Open Simple SMS Messenger, start a conversation with the contact ``name`` (typed, then picked from the
    suggestions) and send ``message``."""
    suggestion = Selector(text=name, resource_id=f"{sms.PACKAGE}:id/{sms.CONTACT_NAME}")
    return [open_app(sms.APP_NAME), tap(sms.NEW_CONVERSATION), type_into(sms.ADDRESS_FIELD, name),
            hide_keyboard_unless(suggestion), tap(suggestion),  # on a short screen the keyboard covers it
            type_into(sms.MESSAGE_FIELD, message), tap(sms.SEND_BUTTON)]


def open_conversation(title: str) -> list[OracleStep]:
    """Open Simple SMS Messenger and the conversation titled ``title`` (a number, or a contact's name), scrolling
    the list to it (below the fold on a small phone with large text)."""
    conversation = Selector(text=title, resource_id=f"{sms.PACKAGE}:id/conversation_address")
    conversations = Selector(resource_id=f"{sms.PACKAGE}:id/conversations_list")
    return [open_app(sms.APP_NAME), *scroll_to(conversation, conversations, max_scrolls=6), tap(conversation)]


def read_text(title: str, body: str) -> list[OracleStep]:
    """Open the conversation titled ``title`` (``open_conversation``) and check ``body`` shows; the thread stays
    open."""
    return [*open_conversation(title),
            expect(Selector(text=body, resource_id=f"{sms.PACKAGE}:id/thread_message_body"))]


def save_contact(name: str, number: str) -> list[OracleStep]:
    """Create the contact ``name`` with ``number`` (``ContactsAddContact``'s steps)."""
    return part_steps("ContactsAddContact", {"name": name, "number": number})


def see_contact(name: str, number: str) -> list[OracleStep]:
    """Open the contact ``name`` in Contacts and check its number is shown."""
    entry = Selector(text=name, resource_id=f"{contacts.PACKAGE}:id/cliv_name_textview")
    return [open_app(contacts.APP_NAME), *scroll_to(entry, _CONTACTS_LIST), tap(entry),
            expect(Selector(text=number, resource_id=f"{contacts.PACKAGE}:id/header"))]


def type_at_caret(text: str) -> OracleStep:
    """Type into the focused field where its caret (or selection) is."""
    return act(Action(ActionType.INPUT_TEXT, text=text))


def type_lines(field: Selector, lines: Sequence[str]) -> list[OracleStep]:
    """Type ``lines`` into ``field`` one at a time (typing ends with ENTER, which starts the next line)."""
    first, *rest = lines
    return [type_into(field, first), *(type_at_caret(line) for line in rest)]


def write_note(name: str, lines: Sequence[str]) -> list[OracleStep]:
    """Open Markor, create the note ``name``, type ``lines`` one by one and leave the editor, which saves."""
    return [open_app(markor.APP_NAME), *markor.new_note(name), *type_lines(markor.EDITOR, lines),
            *markor.leave_editor()]


def add_event(event: Mapping[str, Any]) -> list[OracleStep]:
    """Create ``event`` in Simple Calendar Pro from its day's view (``calendar.add_event_steps``)."""
    return without_completion(calendar.add_event_steps(event))


# ----- setup ----------------------------------------------------------------------------------------------------
#: The shell command that leaves Markor's notebook folder there and empty.
EMPTY_NOTEBOOK = device_files.empty_directory_command(device_files.MARKOR_DATA)


def clearing(packages: Collection[str], notebook: str = EMPTY_NOTEBOOK) -> list[str]:
    """The shell commands that clear what of the SMS store (``sms.CLEAR_TEXTS``) and Markor's notebook (``notebook``)
    a task using ``packages`` uses."""
    return [command for package, command in ((sms.PACKAGE, sms.CLEAR_TEXTS), (markor.PACKAGE, notebook))
            if package in packages]


def seed_people(device: Device, named: Iterable[Sequence[str]], received: Iterable[Sequence[str]]) -> None:
    """The contacts ``named`` (``(name, number)``) and the texts ``received`` (``(number, body)``, oldest first)."""
    add_contacts(device, [(name, number) for name, number in named])
    state.receive_texts(device, received)
