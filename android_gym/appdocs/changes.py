"""What an action on an element did, in a sentence: from the screens before and after it.

``RuleWriter`` (the default) compares the two ``Snapshot``s without a model: another app or activity in front, a
dialog opened or closed, the keyboard shown or hidden, elements checked or unchecked, a field's text changed,
texts that appeared or disappeared. ``LLMWriter`` asks a chat model instead, as AppAgent's exploration does after
each action (with our own prompt), and falls back to the rules when the model cannot be asked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from android_gym.appdocs.store import NO_CHANGE, element_key, inner_label
from android_gym.device.base import Device
from android_gym.device.state import foreground_activity, keyboard_shown
from android_gym.errors import LLMRequestError
from android_gym.ui import UIElement

if TYPE_CHECKING:
    from android_gym.llm.client import ChatClient

#: Resource-ids of an AlertDialog's buttons and title (AOSP ``com.android.internal.R.id``).
DIALOG_IDS = frozenset({"android:id/button1", "android:id/button2", "android:id/button3", "android:id/alertTitle"})
#: Texts quoted per list in a description.
QUOTED = 5
_GERUND = {"tap": "Tapping", "long_press": "Long-pressing", "text": "Typing into", "scroll": "Scrolling"}


@dataclass(frozen=True)
class Snapshot:
    """A screen as documentation needs it: the focused activity (``package/class``), its elements, the keyboard."""

    activity: str
    elements: tuple[UIElement, ...]
    keyboard: bool

    @property
    def package(self) -> str:
        """The focused app's package."""
        return self.activity.partition("/")[0]

    @classmethod
    def take(cls, device: Device, elements: Sequence[UIElement]) -> Snapshot:
        """The device's screen now, with the env's ``info["ui_elements"]``."""
        return cls(foreground_activity(device) or "", tuple(elements), keyboard_shown(device))


def screen_name(activity: str) -> str:
    """``Settings`` for ``com.android.settings/com.android.settings.Settings``."""
    return activity.rpartition("/")[2].rpartition(".")[2] or activity


def _quote(texts: Sequence[str]) -> str:
    shown = ", ".join(f'"{text}"' for text in texts[:QUOTED])
    return shown + (f" and {len(texts) - QUOTED} more" if len(texts) > QUOTED else "")


def _texts(snapshot: Snapshot) -> Counter[str]:
    return Counter(element.label.strip()[:40] for element in snapshot.elements
                   if element.label.strip() and not element.is_editable)


def _checked(snapshot: Snapshot) -> Counter[str]:
    """The checked elements, by label (else key): a multiset, as list rows share their key."""
    return Counter(element.label or element_key(element, snapshot.elements) for element in snapshot.elements
                   if element.is_checkable and element.is_checked)


def _dialog(snapshot: Snapshot) -> bool:
    return any(element.resource_name in DIALOG_IDS for element in snapshot.elements)


def changes(before: Snapshot, after: Snapshot) -> list[str]:
    """The observed changes between two screens, each a short verb phrase, most telling first."""
    if after.package != before.package:
        return [f"leaves the app for {after.package or 'nothing'}"]
    found: list[str] = []
    old_texts, new_texts = _texts(before), _texts(after)
    appeared, gone = list((new_texts - old_texts).elements()), list((old_texts - new_texts).elements())
    dialog = _dialog(after)
    if dialog != _dialog(before):  # a dialog's window is the one dumped: the screen under it is not
        appeared, gone = (appeared, []) if dialog else ([], gone)
    showing = f" (showing {_quote(appeared)})" if appeared else ""
    new_page = bool(appeared) and len(gone) >= max(3, sum(old_texts.values()) // 2)
    if after.activity != before.activity:
        found.append(f"opens the {screen_name(after.activity)} screen{showing}")
    elif new_page:
        found.append(f'opens the "{appeared[0]}" page (showing {_quote(appeared[1:]) or "nothing else"})')
    if dialog != _dialog(before):
        found.append("opens a dialog" if dialog else "closes the dialog")
    if after.keyboard != before.keyboard:
        found.append("shows the keyboard" if after.keyboard else "hides the keyboard")
    if new_page or after.activity != before.activity:
        return found
    checked, unchecked = _checked(after) - _checked(before), _checked(before) - _checked(after)
    found += [f'checks "{name}"' for name in sorted(checked)]
    found += [f'unchecks "{name}"' for name in sorted(unchecked)]
    fields = {element_key(element): element.text for element in before.elements if element.is_editable}
    for element in after.elements:
        key = element_key(element)
        if element.is_editable and key in fields and fields[key] != element.text:
            found.append(f'sets the field {key} to "{element.text[:40]}"')
    if appeared:
        found.append(f"shows {_quote(appeared)}")
    if gone:
        found.append(f"hides {_quote(gone)}")
    return found


class DocWriter(Protocol):
    """Writes the document entry of one observed action."""

    def describe(self, verb: str, element: UIElement, before: Snapshot, after: Snapshot) -> str:
        """What ``verb`` on ``element`` did, going from ``before`` to ``after``."""


class RuleWriter:
    """Deterministic documents from the observed changes: ``Tapping it opens a dialog; shows "Name", ...``."""

    def describe(self, verb: str, element: UIElement, before: Snapshot, after: Snapshot) -> str:
        """One sentence: the verb's gerund and the changes, or that nothing visible changed."""
        found = changes(before, after) or [NO_CHANGE]
        return f"{_GERUND.get(verb, verb)} it {'; '.join(found)}."


class LLMWriter:
    """Documents written by a chat model from the two screens (AppAgent's exploration asks its model after each
    action; the prompt here is ours). A failed request falls back to ``RuleWriter``; ``failures`` counts them."""

    def __init__(self, client: ChatClient) -> None:
        self.client = client
        self.failures = 0

    def describe(self, verb: str, element: UIElement, before: Snapshot, after: Snapshot) -> str:
        """The model's one- or two-sentence description, or the rules' when the model cannot be asked."""
        fallback = RuleWriter().describe(verb, element, before, after)
        try:
            reply = self.client.complete(doc_messages(verb, element, before, after, fallback))
        except LLMRequestError:
            self.failures += 1
            return fallback
        text = " ".join(reply.text.split())
        return text.partition(":")[2].strip() if text.lower().startswith("documentation:") else text or fallback


def _screen_text(snapshot: Snapshot) -> str:
    lines = [f"app screen {screen_name(snapshot.activity)} ({snapshot.package})"]
    lines += [f"- {element_key(element, snapshot.elements)} \"{inner_label(element, snapshot.elements)[:40]}\""
              for element in snapshot.elements if element.is_actionable or element.label]
    return "\n".join(lines)


def doc_messages(verb: str, element: UIElement, before: Snapshot, after: Snapshot,
                 observed: str) -> list[dict[str, str]]:
    """The request for one document entry: the element, the action, both screens and what changed."""
    action = {"tap": "tapped", "long_press": "long-pressed", "text": "typed text into",
              "scroll": "scrolled"}.get(verb, verb)
    return [
        {"role": "system", "content": "You write short reference notes on the controls of an Android app, for an "
                                      "assistant that will later operate the app for users."},
        {"role": "user", "content": f"""\
An explorer {action} this element: {element_key(element, before.elements)} \
({element.class_name.rsplit('.', 1)[-1]}, label "{inner_label(element, before.elements)[:60]}").

Screen before:
{_screen_text(before)}

Screen after:
{_screen_text(after)}

Changes found by comparing the screens: {observed}

In one or two sentences, say what this control is for and what {action.split()[0]} it does in general, so the note \
still helps when the screen's data differs (do not quote one-off values such as a particular date or amount). \
Reply with the note only, starting with "Documentation:"."""}]
