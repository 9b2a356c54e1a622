"""Clipboard tasks: AndroidWorld's ``SystemCopyToClipboard`` (``task_evals/single/system.py``) and
``SimpleSmsSendClipboardContent`` (``task_evals/single/sms.py``).

The clipboard is set and read through the Clipper app (``state.clipboard_set``/``clipboard_get``), which AndroidWorld
installs for this: its activity is started, the broadcast sent, then BACK pressed. That moves window focus (on
Android it closes a toolbar opened on empty space of a field), so ``SystemCopyToClipboard`` is
``scored_at_end``: the env checks it only on the episode's last step, as AndroidWorld does.
The oracles work through the text-selection toolbar: long press, "Select all", "Copy"; long press, "Paste".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from android_gym.device import state
from android_gym.device.base import Device
from android_gym.envs.sms import (
    ADDRESS_FIELD,
    APP_NAME,
    CONFIRM_ADDRESS,
    MESSAGE_FIELD,
    NEW_CONVERSATION,
    PACKAGE,
    SEND_BUTTON,
    _SmsTask,
)
from android_gym.tasks import Task, register_task
from android_gym.tasks.oracle import OracleStep, Selector, complete, long_press, open_app, replace_text, tap, type_into
from android_gym.tasks.validators import fuzzy_match

CLIPPER = "ca.zgrs.clipper"
RESET = "~~~RESET~~~"  # AndroidWorld's "empty" clipboard
CLIPBOARD_CONTENTS = (  # AndroidWorld's SystemCopyToClipboard texts
    "1234 Elm St, Springfield, IL", "Acme Corp, Suite 200", "john.doe@example.com", "Jane's Flower Shop",
    "Call me at 555-1234", "Order No: A123456", "Reservation under: Jane", "Discount code: SAVE20",
    "Membership ID: XYZ789", "Invoice #98765", "Tracking #: 1Z204E2A", "Transaction ID: abc123",
    "9876 Pine Ave, Riverside, CA", "Global Tech, Floor 3", "jane.smith@example.com", "Mike's Grocery Store",
    "Text me at 555-6789", "Order No: B654321", "Reservation under: Mike", "Promo code: DEAL30",
    "Membership ID: ABC123", "Invoice #54321", "Tracking #: 3H488Y2B", "Transaction ID: def456",
    "2554 Oak Street, Boston, MA", "Innovate Inc, Room 10", "alex.jordan@example.net", "Sara's Bakery",
    "Reach out at 555-9101", "Order No: C987654", "Reservation under: Sara", "Coupon code: OFF50",
    "Membership ID: LMN456", "Invoice #32198", "Tracking #: 5K672F4C", "Transaction ID: ghi789",
)
SEARCH_FIELD = Selector(resource_id=f"{PACKAGE}:id/top_toolbar_search")
# The floating text-selection toolbar's item labels (android:id/floating_toolbar_menu_item_text).
SELECT_ALL, COPY, PASTE = (Selector(text=title, resource_id="android:id/floating_toolbar_menu_item_text")
                           for title in ("Select all", "Copy", "Paste"))


@register_task
class SystemCopyToClipboard(Task):
    """Put a given text on the clipboard."""

    name = "SystemCopyToClipboard"
    app_packages = (PACKAGE,)  # the app the oracle types and copies in: stopped before each episode
    setup_clears_teardown = True  # what teardown empties beyond stopping the apps, clear_state empties too
    scored_at_end = True
    template = "Copy the following text to the clipboard: {clipboard_content}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """One of AndroidWorld's texts."""
        return {"clipboard_content": CLIPBOARD_CONTENTS[int(rng.integers(len(CLIPBOARD_CONTENTS)))]}

    def clear_state(self, device: Device) -> None:
        """The clipboard holds AndroidWorld's reset marker."""
        state.clipboard_set(device, RESET)

    def is_successful(self, device: Device) -> float:
        """1.0 when the clipboard's text fuzzily matches the given text."""
        return 1.0 if fuzzy_match(self.params["clipboard_content"], state.clipboard_get(device) or "") else 0.0

    def teardown(self, device: Device) -> None:
        """Stop, go home, and reset the clipboard as AndroidWorld does."""
        super().teardown(device)
        state.clipboard_set(device, RESET)

    def oracle(self) -> Sequence[OracleStep]:
        """Type the text into a field (the SMS app's search), select it all and copy it."""
        return [open_app(APP_NAME), replace_text(SEARCH_FIELD, self.params["clipboard_content"]),
                long_press(SEARCH_FIELD, on_first_word=True), tap(SELECT_ALL), tap(COPY), complete()]


@register_task
class SimpleSmsSendClipboardContent(_SmsTask):
    """Send what is on the clipboard as a text message."""

    name = "SimpleSmsSendClipboardContent"
    app_packages = (PACKAGE, CLIPPER)
    complexity = 1.2
    template = "Send a message to {number} with the clipboard content in Simple SMS Messenger"

    def seed_state(self, device: Device) -> None:
        """The message to send is on the clipboard."""
        state.clipboard_set(device, self.params["message"])

    def oracle(self) -> Sequence[OracleStep]:
        """Start a conversation with the number, paste into the message field, send."""
        return [open_app(APP_NAME), tap(NEW_CONVERSATION), type_into(ADDRESS_FIELD, self.params["number"]),
                tap(CONFIRM_ADDRESS), long_press(MESSAGE_FIELD), tap(PASTE), tap(SEND_BUTTON), complete()]
