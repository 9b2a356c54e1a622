"""Contacts tasks (AndroidWorld ``task_evals/single/contacts.py`` and ``common_validators/contacts_validators.py``).

``ContactsAddContact`` is checked in the contacts provider, as AndroidWorld does: the name and the number's
digits among ``content query --uri content://contacts/phones/ --projection display_name:number``.
``ContactsNewContactDraft`` is checked on the screen: the editor shows the first and last name, the number and
its label, unsaved. AndroidWorld tells the fields apart by their hint text, which ``uiautomator dump`` does not
report; here the first-name field is the one above the last-name field (the editor's order), and the label is
the one right under the number (AndroidWorld's fallback when the label has no "<label> Phone" description).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym import locales
from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.errors import DeviceError
from android_gym.tasks import Task, register_task
from android_gym.tasks import params as gen
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    complete,
    hide_keyboard_unless,
    open_app,
    tap,
    type_into,
)
from android_gym.tasks.validators import clear_contacts, contact_phones, digits, fuzzy_match
from android_gym.ui import UIElement

PACKAGE = "com.google.android.contacts"
APP_NAME = "Contacts"
PHONE_LABELS = ("Home", "Work")  # AndroidWorld leaves out "Mobile": it can be on screen twice


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


CREATE_CONTACT = Selector(resource_id=_id("floating_action_button"))
FIRST_NAME = Selector(text="First name", class_suffix="EditText")
LAST_NAME = Selector(text="Last name", class_suffix="EditText")
PHONE = Selector(text="Phone", class_suffix="EditText")
SAVE = Selector(resource_id=_id("editor_menu_save_button"))
LABEL_SPINNER = _id("spinner")


def _label_spinner_under(number: str) -> OracleStep:
    """Tap the label drop-down under the phone field that holds ``number``."""
    def step(elements: Sequence[UIElement]) -> Action:
        field = Selector(text=number, class_suffix="EditText").find(elements)
        below = [e for e in elements if e.resource_name == LABEL_SPINNER
                 and e.bbox_pixels.y_min >= field.bbox_pixels.y_max]
        if not below:
            raise OracleError(f"no label drop-down under the phone field {number!r}")
        return Action(ActionType.CLICK, index=min(below, key=lambda e: e.bbox_pixels.y_min).index)
    return step


def _new_contact_steps(first: str, last: str, phone: str) -> list[OracleStep]:
    """From the home screen: open Contacts, start a new contact, fill in the name and the number."""
    return [open_app(APP_NAME), tap(CREATE_CONTACT), type_into(FIRST_NAME, first), type_into(LAST_NAME, last),
            hide_keyboard_unless(PHONE), type_into(PHONE, phone)]  # on a short screen the keyboard covers it


class _ContactsTask(Task):
    """Starts with no contacts (``pm clear`` of the contacts provider)."""

    app_packages = (PACKAGE,)

    def clear_state(self, device: Device) -> None:
        """An empty contacts provider."""
        clear_contacts(device)


@register_task
class ContactsAddContact(_ContactsTask):
    """Create and save a contact with a name and a number."""

    name = "ContactsAddContact"
    complexity = 1.0
    template = "Create a new contact for {name}. Their number is {number}."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A ``"First Last"`` name and a ``+1`` number."""
        return {"name": gen.person_name(rng), "number": gen.phone_number(rng)}

    def is_successful(self, device: Device) -> float:
        """1.0 when a contact phone has exactly this display name and the number's digits."""
        wanted = (self.params["name"], digits(self.params["number"]))
        return 1.0 if wanted in contact_phones(device) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Create a contact, type first name, last name and number, save."""
        first, last = self.params["name"].split(" ", 1)
        return [*_new_contact_steps(first, last, self.params["number"]), tap(SAVE), complete()]


@register_task
class ContactsNewContactDraft(_ContactsTask):
    """Fill in the new-contact form without saving it."""

    name = "ContactsNewContactDraft"
    complexity = 2.0
    template = ("Go to the new contact screen and enter the following details: First Name: {first}, Last Name: "
                "{last}, Phone: {phone}, Phone Label: {phone_label}. Do NOT hit save.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """First and last name, a ``NNN-NNN-NNNN`` number and a label (Home or Work)."""
        first = gen.FIRST_NAMES[int(rng.integers(len(gen.FIRST_NAMES)))]
        last = gen.LAST_NAMES[int(rng.integers(len(gen.LAST_NAMES)))]
        phone = f"{rng.integers(100, 1000)}-{rng.integers(100, 1000)}-{rng.integers(1000, 10000)}"
        return {"first": first, "last": last, "phone": phone,
                "phone_label": PHONE_LABELS[int(rng.integers(len(PHONE_LABELS)))]}

    def is_successful(self, device: Device) -> float:
        """1.0 when the screen shows the contact editor filled in with the details."""
        try:
            elements = state.ui_elements(device)
        except ValueError as error:
            raise DeviceError(f"unreadable UI dump: {error}") from error
        return 1.0 if _draft_on_screen(elements, self.params) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Create a contact, type the details, pick the label; do not save."""
        params = self.params
        return [*_new_contact_steps(params["first"], params["last"], params["phone"]),
                _label_spinner_under(params["phone"]),
                tap(Selector(text=params["phone_label"], class_suffix="CheckedTextView")), complete()]


def _draft_on_screen(elements: Sequence[UIElement], params: dict[str, Any]) -> bool:
    """AndroidWorld's ``_contact_info_is_entered``, with the editor's field order standing in for hint texts."""
    fields = [e for e in elements if e.is_editable and e.package_name == PACKAGE and e.text]
    firsts = [e for e in fields if fuzzy_match(e.text, params["first"])]
    lasts = [e for e in fields if fuzzy_match(e.text, params["last"])]
    phones = [e for e in fields if digits(e.text) == digits(params["phone"])]
    names_in_order = any(last.bbox_pixels.y_min >= first.bbox_pixels.y_max for first in firsts for last in lasts)
    label = params["phone_label"]
    return names_in_order and any(
        _is_label(element.text, label) and (element.content_description == f"{label} Phone"
                                            or _vertically_adjacent(phone, element))
        for phone in phones for element in elements)


def _is_label(shown: str | None, label: str) -> bool:
    """Whether ``shown`` is the phone label ``label`` (English) or its translation in the phone's language."""
    return shown == label or (shown is not None and label in locales.english_of(shown, PACKAGE))


def _vertically_adjacent(upper: UIElement, lower: UIElement) -> bool:
    """``lower`` starts within one ``upper`` height below ``upper``'s bottom."""
    top, bottom = upper.bbox_pixels.y_min, upper.bbox_pixels.y_max
    return bottom <= lower.bbox_pixels.y_min <= bottom + (bottom - top)
