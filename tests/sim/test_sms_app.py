"""Simple SMS Messenger on the simulated phone, driven only through taps, typed text and keys."""

from __future__ import annotations

import datetime as dt

import numpy as np
from ui_nodes import colours, find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.sms import PACKAGE, MainScreen, SimpleSmsMessenger, ThreadScreen, format_date_or_time
from android_gym.sim.framework.intent import Intent
from android_gym.sim.phone import Phone

METACHARACTERS = "'; rm -rf /sdcard; \"$(reboot)\""
MAIN = f"{PACKAGE}.activities.MainActivity"
NEW = f"{PACKAGE}.activities.NewConversationActivity"
THREAD = f"{PACKAGE}.activities.ThreadActivity"



def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def view(phone: Phone, name: str):
    """The laid-out view with resource id ``name`` (for what the dump does not carry, such as bold)."""
    return next(v for v in phone.window.frame().app.walk() if v.resource_id == rid(name))


def open_app(phone: Phone) -> None:
    tap(phone, text="SMS Messenger")
    assert phone.activities.foreground() == (PACKAGE, MAIN)


def start_conversation(phone: Phone, number: str) -> None:
    open_app(phone)
    tap(phone, resource_id=rid("conversations_fab"))
    phone.input_text(number)
    tap(phone, resource_id=rid("new_conversation_confirm"))


def test_empty_state_and_new_conversation_screen(phone):
    open_app(phone)
    assert texts(phone, "no_conversations_placeholder") == ["No stored conversations have been found"]
    assert texts(phone, "no_conversations_placeholder_2") == ["Start a conversation"]
    tap(phone, resource_id=rid("conversations_fab"))
    assert phone.activities.foreground() == (PACKAGE, NEW)
    field = find(phone, resource_id=rid("new_conversation_address"))
    assert field.get("text") == "Add Contact or Number…" and field.get("focused") == "true"
    assert phone.activities.top.keyboard_shown
    assert find(phone, text="New conversation") is not None
    phone.input_text("55")
    assert find(phone, resource_id=rid("new_conversation_confirm")) is None  # shown after 3 characters
    phone.input_text("5")
    assert find(phone, resource_id=rid("new_conversation_confirm")).get("clickable") == "true"


def test_send_message_with_shell_metacharacters(phone):
    start_conversation(phone, "5551234")
    assert phone.activities.foreground() == (PACKAGE, THREAD)
    assert find(phone, text="5551234", resource_id="") is not None  # the toolbar title
    send = find(phone, resource_id=rid("thread_send_message"))
    assert (send.get("text"), send.get("content-desc"), send.get("enabled")) == ("SMS", "OK", "false")
    assert (send.get("class"), len(send)) == ("android.widget.Button", 0)  # its send icon is a drawable, no node
    attach = find(phone, resource_id=rid("thread_add_attachment"))
    assert (attach.get("content-desc"), attach.get("clickable")) == ("Attachment", "true")
    phone.input_text(METACHARACTERS)
    tap(phone, resource_id=rid("thread_send_message"))
    sent = phone.telephony.query("content://sms/sent")
    assert [(row["address"], row["body"]) for row in sent] == [("5551234", METACHARACTERS)]
    assert len(phone.telephony.query("content://sms")) == 1
    assert texts(phone, "thread_message_body") == [METACHARACTERS]
    assert texts(phone, "thread_type_message") == ["Type a message…"]  # cleared: the hint shows


def test_enter_is_a_newline_and_text_is_trimmed(phone):
    start_conversation(phone, "5551234")
    phone.input_text("  line one")
    phone.key(keycodes.ENTER)
    phone.input_text("line two  ")
    tap(phone, resource_id=rid("thread_send_message"))
    assert [row["body"] for row in phone.telephony.query("content://sms/sent")] == ["line one\nline two"]
    phone.input_text("   ")  # blank text: the button is enabled, sending only shows an error toast
    tap(phone, resource_id=rid("thread_send_message"))
    assert len(phone.telephony.query("content://sms")) == 1


def test_reply_in_received_thread_marks_it_read(phone):
    phone.telephony.deliver_sms("+15550100", "Are you coming?")
    phone.clock.advance(60_000)
    open_app(phone)
    assert texts(phone, "conversation_address") == ["+15550100"]
    assert texts(phone, "conversation_body_short") == ["Are you coming?"]
    assert view(phone, "conversation_address").bold and view(phone, "conversation_body_short").bold
    tap(phone, resource_id=rid("conversation_frame"))
    assert phone.activities.foreground() == (PACKAGE, THREAD)
    assert texts(phone, "thread_message_body") == ["Are you coming?"]
    assert [row["read"] for row in phone.telephony.query("content://sms/inbox")] == [1]
    tap(phone, resource_id=rid("thread_type_message"))
    phone.input_text("Yes, on my way")
    tap(phone, resource_id=rid("thread_send_message"))
    [sent] = phone.telephony.query("content://sms/sent")
    assert (sent["address"], sent["body"]) == ("+15550100", "Yes, on my way")
    assert len({row["thread_id"] for row in phone.telephony.query("content://sms")}) == 1
    phone.key(keycodes.BACK)  # hides the keyboard
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    assert texts(phone, "conversation_body_short") == ["Yes, on my way"]
    assert not view(phone, "conversation_address").bold


def test_back_navigation(phone):
    start_conversation(phone, "5551234")
    tap(phone, content_desc="Back")  # the toolbar's navigation arrow
    assert phone.activities.foreground() == (PACKAGE, NEW)  # NewConversationActivity stays on the stack
    assert phone.window.frame().keyboard is not None  # onResume brings the keyboard back
    phone.key(keycodes.BACK)  # the first BACK hides the keyboard
    assert phone.activities.foreground() == (PACKAGE, NEW)
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def test_incoming_message_shows_up_in_open_thread(phone):
    phone.telephony.deliver_sms("5550100", "one")
    open_app(phone)
    tap(phone, resource_id=rid("conversation_frame"))
    phone.clock.advance(1000)
    phone.telephony.deliver_sms("5550100", "two")
    assert texts(phone, "thread_message_body") == ["one", "two"]
    assert all(row["read"] == 1 for row in phone.telephony.query("content://sms"))


def test_long_thread_opens_scrolled_to_the_bottom(phone):
    for i in range(40):
        phone.telephony.deliver_sms("5550100", f"message {i}")
        phone.clock.advance(60_000)
    open_app(phone)
    tap(phone, resource_id=rid("conversation_frame"))
    bodies = texts(phone, "thread_message_body")
    assert bodies[-1] == "message 39" and "message 0" not in bodies
    tap(phone, resource_id=rid("thread_type_message"))  # the keyboard shrinks the list; it stays at the end
    assert texts(phone, "thread_message_body")[-1] == "message 39"
    phone.swipe(540, 600, 540, 1200)  # drag down: scroll back in time
    assert texts(phone, "thread_message_body")[-1] != "message 39"


def test_letters_are_rejected_as_short_codes(phone):
    open_app(phone)
    tap(phone, resource_id=rid("conversations_fab"))
    phone.input_text("Bob")
    tap(phone, resource_id=rid("new_conversation_confirm"))
    assert phone.activities.foreground() == (PACKAGE, NEW)
    assert texts(phone, "new_conversation_address") == ["Add Contact or Number…"]


def test_the_conversation_list_shown_again_is_not_built_again(phone, monkeypatch):
    """The list tells what it shows (``Screen.shown``: the search text, the texts' and contacts' databases, the day):
    back from a new conversation it is the tree it was, and so after a tap on its search field that has the focus
    already (no list to scroll it into view); a text that arrives builds it again."""
    open_app(phone)
    assert texts(phone, "no_conversations_placeholder")
    built: list[object] = []
    build = MainScreen.build
    monkeypatch.setattr(MainScreen, "build", lambda screen: built.append(screen) or build(screen))
    tap(phone, resource_id=rid("conversations_fab"))
    phone.key(keycodes.BACK)  # the keyboard goes
    phone.key(keycodes.BACK)
    assert phone.activities.foreground() == (PACKAGE, MAIN)
    assert texts(phone, "no_conversations_placeholder") and not built
    tap(phone, resource_id=rid("top_toolbar_search"))  # the field takes the focus: another tree
    tap(phone, resource_id=rid("top_toolbar_search"))
    assert find(phone, resource_id=rid("top_toolbar_search")).get("focused") == "true" and len(built) == 1
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)  # the search closes: the list as it was
    assert texts(phone, "no_conversations_placeholder") and len(built) == 1
    phone.telephony.deliver_sms("5550100", "Dinner at eight")
    assert texts(phone, "conversation_body_short") == ["Dinner at eight"] and len(built) == 2


def test_search_finds_messages(phone):
    phone.telephony.deliver_sms("5550100", "Dinner at eight")
    open_app(phone)
    tap(phone, resource_id=rid("top_toolbar_search"))
    phone.input_text("d")
    assert texts(phone, "search_placeholder_2") == ["Type in at least 2 characters to start the search."]
    phone.input_text("inner")
    assert texts(phone, "search_result_snippet") == ["Dinner at eight"]
    tap(phone, resource_id=rid("search_result_holder"))
    assert phone.activities.foreground() == (PACKAGE, THREAD)


def test_sms_uri_intent_opens_the_thread(phone):
    app = phone.packages.get(PACKAGE)
    intent = Intent(action="android.intent.action.SENDTO", data="smsto:+15550123")
    assert isinstance(app, SimpleSmsMessenger) and app.resolve(intent) is ThreadScreen
    phone.activities.launch(app, ThreadScreen, intent)
    assert find(phone, text="+15550123", resource_id="") is not None
    phone.input_text("hello")
    tap(phone, resource_id=rid("thread_send_message"))
    assert [row["address"] for row in phone.telephony.query("content://sms/sent")] == ["+15550123"]


def test_pixels_change_after_typing(phone):
    start_conversation(phone, "5551234")
    before = phone.screenshot()
    phone.input_text("hello")
    after = phone.screenshot()
    assert before.shape == after.shape and not np.array_equal(before, after)


def test_date_format_follows_the_app():
    now = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)
    today = int(now.timestamp())
    assert format_date_or_time(today - 3600, now, True, False, "en-US") == "02:34 PM"
    assert format_date_or_time(today - 3 * 86400, now, True, False, "en-US") == "12.10"
    assert format_date_or_time(today - 3 * 86400, now, False, False, "en-US") == "12.10, 03:34 PM"
    assert format_date_or_time(today - 400 * 86400, now, True, False, "en-US") == "10.09.2022"


def add_contact(phone: Phone, name: str, number: str) -> None:
    raw_id = phone.contacts.insert_raw_contact()
    phone.contacts.insert_data(raw_id, "vnd.android.cursor.item/name", {"data1": name})
    phone.contacts.insert_data(raw_id, "vnd.android.cursor.item/phone_v2", {"data1": number, "data2": 2})


def test_known_numbers_show_contact_names(phone):
    phone.telephony.deliver_sms("+12025550123", "Dinner at eight")
    phone.telephony.deliver_sms("+14155550188", "See you")
    add_contact(phone, "Alice Brown", "(202) 555-0123")  # matched as PhoneLookup does, not by spelling
    open_app(phone)
    assert sorted(texts(phone, "conversation_address")) == ["+14155550188", "Alice Brown"]
    tap(phone, resource_id=rid("top_toolbar_search"))
    phone.input_text("alice")
    assert texts(phone, "search_result_title") == ["Alice Brown"]
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    tap(phone, text="Alice Brown", resource_id=rid("conversation_address"))
    assert phone.activities.foreground() == (PACKAGE, THREAD)
    assert find(phone, text="Alice Brown", resource_id="") is not None  # the toolbar title
    phone.run("pm clear com.android.providers.contacts")
    assert find(phone, text="+12025550123", resource_id="") is not None


def test_a_suggested_contact_shows_its_letter_icon(phone):
    """item_suggested_contact: loadContactImage's placeholder, the name's letter icon at bigger_avatar_size
    (64 dp), as the contact list's rows show theirs, not a person glyph; the name in bold under it."""
    add_contact(phone, "Alice Brown", "+12025550123")
    phone.telephony.deliver_sms("+12025550123", "Hi")
    open_app(phone)
    tap(phone, resource_id=rid("conversations_fab"))
    image, row_image = view(phone, "suggested_contact_image"), view(phone, "item_contact_image")
    assert (image.kind, image.hint, image.background) == ("letter", "A", row_image.background)
    x1, y1, x2, y2 = image.bounds
    holder = view(phone, "suggested_contact_holder").bounds
    assert (x2 - x1, y2 - y1, holder[2] - holder[0]) == (168, 168, 168)
    assert view(phone, "suggested_contact_name").bold
    pixels = colours(phone.screenshot()[y1:y2, x1:x2])
    assert {(255, 255, 255), image.background} <= pixels


def test_new_conversation_lists_and_filters_contacts(phone):
    add_contact(phone, "Bob Chen", "+14155550188")
    add_contact(phone, "Alice Brown", "+12025550123")
    phone.telephony.deliver_sms("+12025550123", "Hi")
    open_app(phone)
    tap(phone, resource_id=rid("conversations_fab"))
    assert texts(phone, "no_contacts_placeholder") == []
    assert texts(phone, "suggested_contact_name") == ["Alice Brown"]  # texted lately
    assert texts(phone, "item_contact_name") == ["Alice Brown", "Bob Chen"]
    assert texts(phone, "item_contact_number") == ["+12025550123", "+14155550188"]
    phone.input_text("b")
    assert texts(phone, "item_contact_name") == ["Bob Chen", "Alice Brown"]  # names starting with it first
    phone.input_text("ob")
    assert texts(phone, "item_contact_name") == ["Bob Chen"]
    tap(phone, resource_id=rid("item_contact_frame"))
    assert phone.activities.foreground() == (PACKAGE, THREAD)
    phone.input_text("hello")
    tap(phone, resource_id=rid("thread_send_message"))
    assert [row["address"] for row in phone.telephony.query("content://sms/sent")] == ["+14155550188"]
    phone.key(keycodes.BACK)
    phone.key(keycodes.BACK)
    phone.input_text("zzz")
    assert texts(phone, "no_contacts_placeholder") == ["No contacts found"]
