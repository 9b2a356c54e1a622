"""Simple SMS Messenger 5.19.3 (versionCode 85, the build AndroidWorld installs), on the telephony provider.

Resource ids, texts, hints and content descriptions come from github.com/SimpleMobileTools/Simple-SMS-Messenger
(``app/src/main/res/layout/activity_main.xml``, ``activity_new_conversation.xml``, ``activity_thread.xml``,
``layout_thread_send_message_holder.xml``, ``item_conversation.xml``, ``item_message.xml``,
``res/values/strings.xml``) and Simple-Commons at the pinned commit ``b72ded2a75`` (``strings.xml``,
``menu_search.xml``, ``NavigationIcon.Arrow`` → "Back"). Behaviour follows the activities' Kotlin source.

Every screen reads the telephony database on every build, so state written over the shell shows up at once.
The app's own cache (``databases/conversations.db``) is not kept: the system store is the truth here. Contacts
come from the contacts provider as Simple-Commons ``SimpleContactsHelper`` reads them (``PhoneLookup`` for a
number's name, ``getAvailableContacts`` for the new-conversation list; its same-name de-duplication and the
app's private contacts are left out): a conversation with a contact is titled by the contact's name.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote_plus

from android_gym.sim.apps.commons import (
    ACTIVATED_ITEM,
    DARK_GREY,
    DAY_COLORS,
    NAVIGATION_BAR_COLOR,
    PRIMARY,
    Release,
    SearchMenuScreen,
    faded,
    search_menu,
    start_up_dialogs,
)
from android_gym.sim.apps.commons import NIGHT_COLORS as COMMONS_NIGHT_COLORS
from android_gym.sim.framework import formats
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.intent import CATEGORY_BROWSABLE, CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.system.clock import DAY_MS
from android_gym.sim.system.contacts import AUTHORITY as CONTACTS_AUTHORITY
from android_gym.sim.system.contacts import NAME, ORGANIZATION, normalize_number
from android_gym.sim.system.prefs import SharedPreferences
from android_gym.sim.system.telephony import DRAFT, FAILED, INBOX, OUTBOX, SENT, Telephony
from android_gym.sim.ui.layout import line_height, text_width
from android_gym.sim.ui.letter_tiles import letter_tile, pick_color
from android_gym.sim.ui.views import (
    DIVIDER,
    LAYOUT_ONLY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    column,
    divider,
    does_nothing,
    edit_text,
    fab,
    image_button,
    over,
    row,
    scroll_list,
    text_view,
)

PACKAGE = "com.simplemobiletools.smsmessenger"
# Intent extras (helpers/Constants.kt).
THREAD_ID, THREAD_TITLE, THREAD_TEXT, THREAD_NUMBER = "thread_id", "thread_title", "thread_text", "thread_number"
# res/values/strings.xml of the app, then of Simple-Commons.
APP_LAUNCHER_NAME = "SMS Messenger"
PREFS_PATH = f"/data/data/{PACKAGE}/shared_prefs/Prefs.xml"  # Commons BaseConfig: PREFS_KEY = "Prefs"
#: ``MainActivity.checkWhatsNewDialog``'s releases (``res/values/donottranslate.xml`` ``release_48``, ``release_62``).
RELEASES = (Release(48, "Disabled delivery reports by default\nAvoid sending long messages as MMS"),
            Release(62, "Allow scheduling messages by long pressing the Send button"))
TYPE_A_MESSAGE = "Type a message…"
NEW_CONVERSATION = "New conversation"
ADD_CONTACT_OR_NUMBER = "Add Contact or Number…"
NO_CONVERSATIONS_FOUND = "No stored conversations have been found"
START_CONVERSATION = "Start a conversation"
SMS = "SMS"
ATTACHMENT = "Attachment"  # Commons' attachment
SENDING = "Sending…"
DRAFT_LABEL = "Draft"
NOT_SENT = "Not sent. Touch to retry."
OK, BACK, SEARCH = "OK", "Back", "Search"
NO_CONTACTS_FOUND = "No contacts found"
SUGGESTIONS = "Suggestions"
NO_ITEMS_FOUND = "No items found."
TYPE_2_CHARACTERS = "Type in at least 2 characters to start the search."
MIN_DATE_TIME_DIFF_SECS = 300  # ThreadActivity: a date header when messages are this far apart
#: item_received_background (activated_item_foreground) under the text colour; item_sent_background tinted with
#: the primary colour under its contrast, white (ThreadAdapter).
_RECEIVED_BG, _SENT_BG = ACTIVATED_ITEM, PRIMARY
_BUBBLE_CORNER = 42  # the bubbles' 16 dp rounded corners
_BIG, _NORMAL, _SMALLER = 47, 40, 34  # big/normal/smaller text sizes in px at 420 dpi
_TOOLBAR, _TITLE = 147, 55  # actionBarSize 56 dp; Commons actionbar_text_size 21sp
#: Commons ``getDefaultDateFormat``'s table: a SHORT date pattern (lower case, no spaces) to the date format.
_DATE_FORMATS = {"d.M.y": "dd.MM.yyyy", "dd/mm/y": "dd/MM/yyyy", "mm/dd/y": "MM/dd/yyyy", "y-mm-dd": "yyyy-MM-dd",
                 "dmmmmy": "d MMMM yyyy", "mmmmdy": "MMMM d yyyy", "mm-dd-y": "MM-dd-yyyy", "dd-mm-y": "dd-MM-yyyy"}


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _image(name: str, icon: str = "", content_desc: str = "", **props) -> View:
    """An ``ImageView`` (not a button: uiautomator reports ``android.widget.ImageView``)."""
    props.setdefault("width", 126)
    props.setdefault("height", 126)
    props.setdefault("text_color", TEXT)
    return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id(name), hint=icon,
                content_desc=content_desc, **props)


#: Simple-Commons' ``letterBackgroundColors``, 80 % opaque (``0xCC``): they show over the window's background.
_LETTER_BACKGROUNDS = ((0xD3, 0x2F, 0x2F), (0xC2, 0x18, 0x5B), (0x19, 0x76, 0xD2), (0x02, 0x88, 0xD1),
                       (0x00, 0x97, 0xA7), (0x00, 0x79, 0x6B), (0x38, 0x8E, 0x3C), (0x68, 0x9F, 0x38),
                       (0xF5, 0x7C, 0x00), (0xE6, 0x4A, 0x19))
_LETTER_OPACITY = 0xCC / 255
_LETTER_COLORS = tuple(over(color, _LETTER_OPACITY, WHITE) for color in _LETTER_BACKGROUNDS)
#: Text in the app's text colour made translucent (``android:alpha``) over the window: a conversation's date
#: (``item_conversation.xml``: 0.4), a read conversation's snippet (``BaseConversationsAdapter.setupView``: 0.7) and
#: the placeholders of the empty list and the search (``activity_main.xml``) and of a contact search that finds
#: nobody (``activity_new_conversation.xml``: 0.8), by day; ``NIGHT_COLORS`` holds them
#: by night.
_DATE_INK, _READ_INK, _PLACEHOLDER_INK = (faded(alpha) for alpha in (0.4, 0.7, 0.8))
#: The dark theme: Simple-Commons' (commons.NIGHT_COLORS), the letter circles over its dark background.
NIGHT_COLORS = {**COMMONS_NIGHT_COLORS, **{day: over(color, _LETTER_OPACITY, COMMONS_NIGHT_COLORS[WHITE])
                                           for color, day in zip(_LETTER_BACKGROUNDS, _LETTER_COLORS)}}
_AVATAR = 126  # normal_icon_size: 48 dp
_SUGGESTION_AVATAR = 168  # bigger_avatar_size: 64 dp


def _avatar(name: str, title: str, size: int = _AVATAR) -> View:
    """``SimpleContactsHelper.getContactLetterIcon(title)``, the picture of a number or contact without a photo: a
    circle of ``letterBackgroundColors`` picked by the title's hash with ``getNameLetter`` (its first character
    without accents, upper-cased) at half its size, white (``getContrastColor`` of every one of those colours)."""
    first = "".join(c for c in unicodedata.normalize("NFD", title) if not unicodedata.combining(c))[:1]
    return letter_tile(first.upper() or "A", pick_color(_LETTER_COLORS, title), size, size // 2,
                       class_name="android.widget.ImageView", resource_id=_id(name))


def _spacer() -> View:
    return View(weight=1)


def _group(kind: str, class_name: str, *children: View, **props) -> View:
    """A layout (``row``/``column``/``frame``) reported under the widget class the real layout uses."""
    return View(kind=kind, class_name=class_name, children=list(children), **props)


def _draft_of(telephony: Telephony, thread_id: int) -> tuple[int, str] | None:
    """``getSmsDraft``: the first draft row of the thread (``_id``, body); read once per change of the database."""
    def read() -> tuple[int, str] | None:
        with telephony.reading(rows=None) as db:
            row_ = db.execute("SELECT _id, body FROM sms WHERE type=? AND thread_id=? ORDER BY date DESC",
                              (DRAFT, thread_id)).fetchone()
        return (row_[0], row_[1] or "") if row_ else None
    return telephony.cached(("draft", thread_id), read)


def format_date_or_time(seconds: int, now: dt.datetime, hide_time_at_other_days: bool,
                        show_year_even_if_current: bool, tag: str) -> str:
    """Commons ``Int.formatDateOrTime`` with the app's default formats in the locale ``tag``: the time ``hh:mm a``
    ("03:34 PM"), or ``HH:mm`` where the locale is a 24-hour one (the ``use24HourFormat`` preference kept at the
    locale's default); the date ``dd.MM.yyyy``, or another of Commons' formats when the locale's SHORT date pattern
    names one (``getDefaultDateFormat``: ``dd/MM/yyyy`` in fr-FR), without the year in this year."""
    when = dt.datetime.fromtimestamp(seconds, tz=now.tzinfo)
    time_text = formats.format_pattern(when, "HH:mm" if formats.is_24_hour(None, tag) else "hh:mm a", tag)
    if when.date() == now.date():
        return time_text
    pattern = _default_date_format(tag)
    if not show_year_even_if_current and when.year == now.year:
        pattern = pattern.replace("y", "").strip().strip("-").strip(".").strip("/")
    text = formats.format_pattern(when, pattern, tag)
    return text if hide_time_at_other_days else f"{text}, {time_text}"


def _default_date_format(tag: str) -> str:
    """Commons ``BaseConfig.getDefaultDateFormat``: the format named by the locale's SHORT date pattern, lower-cased
    without spaces (``DateFormat.getDateFormat``), else ``DATE_FORMAT_ONE``; its ``"d.M.y"`` key, having capitals,
    never matches."""
    key = formats.date_pattern("short", tag).lower().replace(" ", "")
    return _DATE_FORMATS.get(key, "dd.MM.yyyy")


def _title(addresses: list[str], names: dict[str, str]) -> str:
    """``getThreadContactNames`` joined: each participant's contact name, else the number."""
    return ", ".join(names.get(address, address) for address in addresses)


@dataclass(frozen=True)
class SimpleContact:
    """Commons ``SimpleContact``: a raw contact's full name and its normalized phone numbers."""

    raw_id: int
    name: str
    numbers: tuple[str, ...]


def available_contacts(phone: Context) -> list[SimpleContact]:
    """``SimpleContactsHelper.getAvailableContacts``: contacts with a name (structured name parts joined, or
    company and title) and at least one number, one per number (its last 9 digits), sorted by name with
    names that start with a letter first; read once per change of the contacts database."""
    return phone.contacts.cached("available contacts", lambda: _read_available_contacts(phone))


def _read_available_contacts(phone: Context) -> list[SimpleContact]:
    contacts = phone.contacts
    names: dict[int, str] = {}
    for data in contacts.query(f"content://{CONTACTS_AUTHORITY}/data",
                               ["raw_contact_id", "mimetype", "data1", "data2", "data3", "data4", "data5", "data6"],
                               where=f"mimetype = '{NAME}' OR mimetype = '{ORGANIZATION}'", sort="_id"):
        if data["mimetype"] == NAME:
            parts = [data["data4"], data["data2"], data["data5"], data["data3"], data["data6"]]
            full = " ".join(part for part in parts if part) if any(parts[1:4]) else ""
        else:
            full = f"{data['data1'] or ''} {data['data4'] or ''}".strip()
        if full:
            names.setdefault(data["raw_contact_id"], full)
    numbers: dict[int, list[str]] = {}
    for data in contacts.query(f"content://{CONTACTS_AUTHORITY}/data/phones", ["raw_contact_id", "data1", "data4"],
                               sort="_id"):
        number = data["data4"] or normalize_number(data["data1"] or "")
        if number:
            numbers.setdefault(data["raw_contact_id"], []).append(number)
    found, seen = [], set()
    for raw_id, phone_numbers in numbers.items():
        if names.get(raw_id) and phone_numbers[0][-9:] not in seen:
            seen.add(phone_numbers[0][-9:])
            found.append(SimpleContact(raw_id, names[raw_id], tuple(phone_numbers)))
    return sorted(found, key=lambda c: (not c.name[:1].isalpha(), c.name.lower()))


def _suggested_contacts(phone: Context) -> list[SimpleContact]:
    """``getSuggestedContacts``: senders and recipients of the 50 newest messages who are contacts."""
    addresses = phone.telephony.cached("recent addresses", lambda: [
        row["address"] for row in phone.telephony.query("content://sms", ["address"], sort="date DESC")
        if row["address"]][:50])
    names = phone.contacts.lookup_names(addresses)
    suggestions: dict[str, SimpleContact] = {}
    for address in addresses:
        if address in names:
            suggestions.setdefault(address[-9:], SimpleContact(0, names[address], (address,)))
    return list(suggestions.values())


def _drafts(telephony: Telephony) -> dict[int, str]:
    """Draft bodies by thread (``getAllDrafts``); read once per change of the database."""
    return telephony.cached("drafts", lambda: {row["thread_id"]: row["body"] for row in telephony.query(
        "content://sms/draft", ["thread_id", "body"])})


class MainScreen(SearchMenuScreen):
    """``MainActivity``: the search bar, the conversation list and the start-conversation FAB."""

    activity = f"{PACKAGE}.activities.MainActivity"

    def __init__(self, app: SimpleSmsMessenger, intent: Intent) -> None:
        super().__init__(app, intent)
        start_up_dialogs(self, app.prefs, RELEASES)  # onCreate's appLaunched, initMessenger's checkWhatsNewDialog

    def on_back(self) -> bool:
        """BACK closes an open search."""
        if not self.search_open:
            return False
        self.close_search()
        return True

    def _open_thread(self, thread_id: int, title: str) -> None:
        self.keyboard_shown = False
        self.start(ThreadScreen, Intent(extras={THREAD_ID: str(thread_id), THREAD_TITLE: title}))

    def shown(self) -> tuple[str, int, int, int]:
        """What the list or the search shows: the search text, the texts and contacts (their databases'
        ``data_version``) and the day (a date shows without the time on another day; the phone's zone is UTC)."""
        return (self.search_text, self.phone.telephony.data_version(), self.phone.contacts.data_version(),
                self.phone.clock.units(DAY_MS))

    def build(self) -> View:
        telephony = self.phone.telephony
        search_bar = search_menu(PACKAGE, _image("top_toolbar_search_icon", "search", SEARCH, width=110),
                                 edit_text(self.search_text, SEARCH, self.SEARCH_KEY, self.set_search,
                                           resource_id=_id(self.SEARCH_KEY), weight=1, text_size=_BIG),
                                 [])
        if self.search_open and self.search_text:
            body = self._search_results(telephony)
        else:
            body = self._conversation_list(telephony)
        main = View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("main_holder"),
                    children=[search_bar, body], gravity="fill", padding=0)
        start = fab("", "plus", lambda: self.start(NewConversationScreen), resource_id=_id("conversations_fab"),
                    background=PRIMARY)
        return View(kind="frame", class_name="android.view.ViewGroup", resource_id=_id("main_coordinator"),
                    children=[main, start])

    def _conversation_list(self, telephony: Telephony) -> View:
        conversations = telephony.conversations()
        if not conversations:
            return column(
                text_view(NO_CONVERSATIONS_FOUND, resource_id=_id("no_conversations_placeholder"),
                          text_size=_BIG, text_color=_PLACEHOLDER_INK, padding=52),
                text_view(START_CONVERSATION, resource_id=_id("no_conversations_placeholder_2"),
                          text_size=_BIG, text_color=PRIMARY, padding=42, clickable=True, focusable=True,
                          on_click=lambda: self.start(NewConversationScreen)),
                weight=1)
        drafts, now = _drafts(telephony), self.phone.clock.now(DAY_MS)  # format_date_or_time: only the day
        names = self.phone.contacts.lookup_names(a for c in conversations for a in c["addresses"])
        items = [self._conversation_item(c, _title(c["addresses"], names), drafts.get(c["thread_id"]), now)
                 for c in conversations]
        return scroll_list(*items, key="conversations_list", resource_id=_id("conversations_list"), weight=1)

    def _conversation_item(self, conversation: dict, title: str, draft: str | None, now: dt.datetime) -> View:
        bold = not conversation["read"]
        date = conversation["date"] // 1000 if len(str(conversation["date"])) > 10 else conversation["date"]
        # maxLines="1": one line drawn, the whole text in the accessibility node
        lines = [text_view(title, resource_id=_id("conversation_address"), text_size=_BIG + 4, bold=bold,
                           padding=4, height=line_height(_BIG + 4) + 8)]
        snippet = text_view(draft if draft is not None else conversation["snippet"], padding=4,
                            resource_id=_id("conversation_body_short"), text_size=_NORMAL, bold=bold,
                            height=line_height(_NORMAL) + 8, text_color=TEXT if bold else _READ_INK)
        if draft is not None:
            snippet.weight = 1
            snippet = row(text_view(DRAFT_LABEL, resource_id=_id("draft_indicator"), text_size=_NORMAL,
                                    text_color=PRIMARY, padding=4), snippet)
        date_text = format_date_or_time(date, now, True, False, formats.system_tag(self.phone))
        lines += [snippet, text_view(date_text, padding=4,
                                     resource_id=_id("conversation_date"), text_size=_SMALLER,
                                     text_color=_DATE_INK)]
        # item_conversation.xml: activity_margin (16 dp) above and below; the avatar small_margin + normal_margin
        # (4 + 12 dp) from the start, normal_margin before the texts
        holder = View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("conversation_holder"),
                      padding=42, spacing=32, children=[
                          _avatar("conversation_image", title),
                          column(*lines, weight=1)])
        return View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("conversation_frame"),
                    clickable=True, focusable=True, long_clickable=True, children=[holder],
                    on_click=lambda: self._open_thread(conversation["thread_id"], title))

    def _search_results(self, telephony: Telephony) -> View:
        """``searchTextChanged``: conversations whose title matches, then messages whose body matches."""
        text = self.search_text
        if len(text) < 2:
            results: list[View] = []
        else:
            now, pattern = self.phone.clock.now(DAY_MS), f"%{text}%"  # format_date_or_time: only the day
            conversations = telephony.conversations()
            with telephony.reading(rows=None) as db:
                found = db.execute("SELECT address, body, date, thread_id FROM sms WHERE body LIKE ? AND "
                                   "address IS NOT NULL ORDER BY _id DESC", (pattern,)).fetchall()
            names = self.phone.contacts.lookup_names([*(a for c in conversations for a in c["addresses"]),
                                                      *(row[0] for row in found)])
            results = [self._search_item(_title(c["addresses"], names), c["addresses"][0], c["date"] // 1000,
                                         c["thread_id"], now)
                       for c in conversations if text.lower() in _title(c["addresses"], names).lower()]
            results += [self._search_item(names.get(a, a), b, (d or 0) // 1000, t, now) for a, b, d, t in found]
        children: list[View] = []
        if not results:
            children.append(text_view(NO_ITEMS_FOUND, resource_id=_id("search_placeholder"), text_size=_NORMAL,
                                      text_color=_PLACEHOLDER_INK, padding=42))
            if len(text) < 2:
                children.append(text_view(TYPE_2_CHARACTERS, resource_id=_id("search_placeholder_2"),
                                          text_size=_NORMAL, text_color=_PLACEHOLDER_INK, padding=42))
        else:
            children.append(scroll_list(*results, key="search_results_list",
                                        resource_id=_id("search_results_list"), weight=1))
        return View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("search_holder"),
                    children=children, weight=1)

    def _search_item(self, title: str, snippet: str, seconds: int, thread_id: int, now: dt.datetime) -> View:
        lines = column(
            text_view(title, resource_id=_id("search_result_title"), text_size=_BIG, padding=4),
            text_view(snippet, resource_id=_id("search_result_snippet"), text_size=_NORMAL, padding=4),
            text_view(format_date_or_time(seconds, now, True, True, formats.system_tag(self.phone)),
                      resource_id=_id("search_result_date"),
                      text_size=_SMALLER, text_color=TEXT_SECONDARY, padding=4), weight=1)
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("search_result_holder"),
                    clickable=True, focusable=True, padding=24, spacing=32,
                    children=[_avatar("search_result_image", title), lines],
                    on_click=lambda: self._open_thread(thread_id, title))


class NewConversationScreen(Screen):
    """``NewConversationActivity``: a number field focused with the keyboard up, a confirm check that appears
    after three characters, suggested contacts (people texted lately) and the contacts matching the typed text.
    It stays on the back stack under the thread it opens, as in the app."""

    activity = f"{PACKAGE}.activities.NewConversationActivity"
    FIELD = "new_conversation_address"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.address = ""
        # SOFT_INPUT_STATE_ALWAYS_VISIBLE + requestFocus() in onCreate.
        self.focus_key, self.keyboard_shown = self.FIELD, True

    def on_resume(self) -> None:
        """The window regains focus: ``SOFT_INPUT_STATE_ALWAYS_VISIBLE`` brings the keyboard back."""
        if self.focus_key:
            self.keyboard_shown = True

    def _set_address(self, text: str) -> None:
        self.address = text

    def shown(self) -> tuple[str, int, int]:
        """What the screen shows: the typed text, and the texts and contacts it suggests and matches (their
        databases' ``data_version``)."""
        return self.address, self.phone.telephony.data_version(), self.phone.contacts.data_version()

    def _confirm(self) -> None:
        number = self.address.strip()  # MyEditText.value
        if any(char.isalpha() for char in number):  # isShortCodeWithLetters → toast, field cleared
            self.address = ""
            return
        if not number:  # only blanks: no recipient to open a thread for
            return
        self._launch_thread(number, number)

    def _launch_thread(self, number: str, name: str) -> None:
        """``launchThreadActivity``: hide the keyboard and open the number's thread titled ``name``."""
        self.keyboard_shown = False
        thread_id = self.phone.telephony.thread_id_for(number)
        text = self.intent.extras.get("android.intent.extra.TEXT") or self.intent.extras.get("sms_body", "")
        self.start(ThreadScreen, Intent(extras={THREAD_ID: str(thread_id), THREAD_TITLE: name,
                                                THREAD_NUMBER: number, THREAD_TEXT: text}))

    def _matching_contacts(self) -> list[SimpleContact]:
        """The contacts whose name or a number contains the typed text, those whose name starts with it first
        (a contact with several numbers is texted at its first one)."""
        text = self.address.lower()
        found = [c for c in available_contacts(self.phone)
                 if text in c.name.lower() or any(text in number.lower() for number in c.numbers)]
        return sorted(found, key=lambda c: not c.name.lower().startswith(text))

    def _contact_item(self, contact: SimpleContact) -> View:
        """Commons ``item_contact_with_number``."""
        lines = column(text_view(contact.name, resource_id=_id("item_contact_name"), text_size=_BIG, padding=4),
                       text_view(", ".join(contact.numbers), resource_id=_id("item_contact_number"),
                                 text_size=_NORMAL, padding=4), weight=1)
        return View(kind="row", class_name="androidx.constraintlayout.widget.ConstraintLayout",
                    resource_id=_id("item_contact_frame"), clickable=True, focusable=True, padding=24, spacing=32,
                    children=[_avatar("item_contact_image", contact.name), lines],
                    on_click=lambda: self._launch_thread(contact.numbers[0], contact.name))

    def _suggestion(self, contact: SimpleContact) -> View:
        """``item_suggested_contact``: the contact's letter icon (``loadContactImage``'s placeholder) at
        ``bigger_avatar_size``, its name in bold under it, as wide as the icon."""
        return View(kind="column", class_name="android.widget.RelativeLayout",
                    resource_id=_id("suggested_contact_holder"), clickable=True, focusable=True,
                    width=_SUGGESTION_AVATAR,
                    on_click=lambda: self._launch_thread(contact.numbers[0], contact.name), children=[
                        _avatar("suggested_contact_image", contact.name, _SUGGESTION_AVATAR),
                        text_view(contact.name, resource_id=_id("suggested_contact_name"), text_size=_NORMAL,
                                  bold=True, padding=21)])

    def build(self) -> View:
        field = edit_text(self.address, ADD_CONTACT_OR_NUMBER, self.FIELD, self._set_address,
                          resource_id=_id(self.FIELD), weight=1, height=126, text_size=_BIG)
        field.underline = False  # android:background="@android:color/transparent"
        entry = [field]
        if len(self.address) > 2:
            entry.append(_image("new_conversation_confirm", "check", clickable=True, focusable=True,
                                on_click=self._confirm))
        children = [row(*entry, padding=16),
                    View(kind="view", class_name="android.widget.ImageView", height=3, background=DIVIDER,
                         resource_id=_id("add_contact_divider"))]
        suggestions = _suggested_contacts(self.phone)
        if suggestions:
            children += [text_view(SUGGESTIONS, resource_id=_id("suggestions_label"), text_size=_NORMAL,
                                   text_color=PRIMARY, padding=24),
                         View(kind="row", class_name="android.widget.HorizontalScrollView",
                              resource_id=_id("suggestions_scrollview"), children=[
                                  row(*(self._suggestion(c) for c in suggestions), spacing=24, padding=12,
                                      resource_id=_id("suggestions_holder"))])]
        contacts = self._matching_contacts()
        if contacts:
            children.append(scroll_list(*(self._contact_item(c) for c in contacts), key="contacts_list",
                                        resource_id=_id("contacts_list"), weight=1))
        else:
            children.append(text_view(NO_CONTACTS_FOUND, resource_id=_id("no_contacts_placeholder"), padding=52,
                                      text_size=_BIG, text_color=_PLACEHOLDER_INK))
        holder = View(kind="column", class_name="android.widget.RelativeLayout",
                      resource_id=_id("new_conversation_holder"), weight=1, children=children)
        return View(kind="column", class_name="android.view.ViewGroup",
                    resource_id=_id("new_conversation_coordinator"), children=[
                        _top_bar(NEW_CONVERSATION, self.finish, "new_conversation_toolbar"), holder])


def _top_bar(title: str, back: Callback, name: str) -> View:
    """A ``MaterialToolbar`` (``actionBarSize`` tall) as ``setupToolbar`` colours it over the window's colour (the
    thread's ``getProperBackgroundColor``; the new conversation's while its list is at the top): the title
    (``actionbar_text_size`` 21sp) and the back arrow in that colour's contrast (``DARK_GREY``; white by night)."""
    return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id(name), height=_TOOLBAR, children=[
        image_button(BACK, "arrow_back", back, text_color=DARK_GREY),
        text_view(title, weight=1, text_color=DARK_GREY, text_size=_TITLE, padding=40)])


class _PinnedScroll(dict):
    """Scroll offsets in which one list sticks to its end (``stackFromEnd``) until the user scrolls it up.

    While ``pinned``, the list's offset reads as ``BOTTOM``, which layout clamps to its last page; the window writes
    the clamped offset back after laying out a frame. A swipe writes ``BOTTOM`` moved by the drag: one up (back in
    time) unpins the list that far above the offset last laid out.
    """

    BOTTOM = 1 << 30

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key, self.pinned = key, True

    def get(self, key: str, default: int | None = None) -> int | None:
        return self.BOTTOM if key == self.key and self.pinned else super().get(key, default)

    def __setitem__(self, key: str, value: int) -> None:
        if key == self.key and self.pinned and value >= self.BOTTOM // 2:  # a swipe from the pinned end
            if value >= self.BOTTOM:
                return  # towards the end: it stays there
            self.pinned = False
            value = max(0, super().get(key, 0) + value - self.BOTTOM)
        super().__setitem__(key, value)


class ThreadScreen(Screen):
    """``ThreadActivity``: the messages of one thread and the compose bar."""

    activity = f"{PACKAGE}.activities.ThreadActivity"
    FIELD, LIST = "thread_type_message", "thread_messages_list"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        telephony = self.phone.telephony
        extras = intent.extras
        self.scroll = _PinnedScroll(self.LIST)
        if extras.get(THREAD_ID, "").isdigit():
            self.thread_id = int(extras[THREAD_ID])
            number = extras.get(THREAD_NUMBER, "")
        else:  # sms:/smsto: from NewConversationActivity.isThirdPartyIntent (its prefix quirks included)
            number = intent.data
            for prefix in ("sms:", "smsto:", "mms", "mmsto:"):
                number = number.removeprefix(prefix)
            number = unquote_plus(number.replace("+", "%2b").strip())
            self.thread_id = telephony.thread_id_for(number) if number else 0
        self.title = extras.get(THREAD_TITLE, "")
        self.fallback_address = number
        self.text = extras.get(THREAD_TEXT) or extras.get("android.intent.extra.TEXT") or extras.get("sms_body", "")
        if not telephony.messages(self.thread_id):  # an empty thread opens with the keyboard up
            self.focus_key, self.keyboard_shown = self.FIELD, True
        self.on_resume()

    @property
    def addresses(self) -> list[str]:
        """The participants' numbers (``getThreadParticipants``), else the number the thread was opened with."""
        return self.phone.telephony.thread_addresses(self.thread_id) or [self.fallback_address]

    def on_resume(self) -> None:
        """``onResume``: a saved draft refills the compose field."""
        draft = _draft_of(self.phone.telephony, self.thread_id)
        if draft:
            self.text = draft[1]

    def on_pause(self) -> None:
        """``onPause``: keep unsent text as the thread's draft (``content://sms/draft``), else drop it."""
        telephony, value = self.phone.telephony, self.text.strip()
        draft = _draft_of(telephony, self.thread_id)
        if draft and not value:
            telephony.delete(f"content://sms/{draft[0]}")
        if value:
            telephony.insert("content://sms/draft", {"body": value, "date": self.phone.clock.now_ms(),
                                                     "type": DRAFT, "thread_id": self.thread_id},
                             creator=PACKAGE)

    def _set_text(self, text: str) -> None:
        self.text = text

    def _send(self) -> None:
        """``sendMessage``: the trimmed text goes to every participant; blank text only shows an error toast."""
        value = self.text.strip()
        if not value:
            return
        for address in filter(None, self.addresses):
            self.phone.telephony.send_sms(address, value)
        self.text = ""
        self.scroll.pinned = True  # scrollToBottom()

    def build(self) -> View:
        telephony = self.phone.telephony
        messages = telephony.messages(self.thread_id)
        if any(not m["read"] for m in messages):  # getThreadItems marks what it shows as read
            telephony.mark_thread_read(self.thread_id)
        addresses = self.addresses
        title = _title(addresses, self.phone.contacts.lookup_names(addresses)) or self.title
        field = edit_text(self.text, TYPE_A_MESSAGE, self.FIELD, self._set_text, resource_id=_id(self.FIELD),
                          multiline=True, weight=1, text_size=_NORMAL)  # inputType textCapSentences|textMultiLine
        field.underline = False  # android:background="@android:color/transparent"
        attach = _image("thread_add_attachment", "plus", ATTACHMENT, clickable=True, focusable=True,
                        on_click=does_nothing, text_color=over(TEXT, 0.9))
        compose = _group("row", "android.view.ViewGroup", attach, field, self._send_button(),
                         resource_id=_id("message_holder"), padding=12, spacing=10)
        return View(kind="column", class_name="android.view.ViewGroup", resource_id=_id("thread_coordinator"),
                    children=[
                        _top_bar(title, self.finish, "thread_toolbar"),
                        scroll_list(*self._items(messages), key=self.LIST, resource_id=_id(self.LIST), weight=1),
                        divider(), compose])

    def _send_button(self) -> View:
        """``thread_send_message``: a borderless ``MyButton``, "SMS" under its ``drawableTop`` send icon (drawn by the
        button, no view), at alpha 0.9, or 0.4 and not clickable while there is nothing to send
        (``checkSendMessageAvailability``)."""
        ready = bool(self.text)
        ink = over(TEXT, 0.9 if ready else 0.4)
        icon = View(kind="icon", class_name=LAYOUT_ONLY, hint="send", width=63, height=63, text_color=ink,
                    gravity="center_horizontal")
        label = View(kind="label", hint=SMS, text_size=_SMALLER, text_color=ink, gravity="center", height=42)
        return View(kind="column", class_name="android.widget.Button", resource_id=_id("thread_send_message"),
                    text=SMS, content_desc=OK, enabled=ready, clickable=ready, focusable=True, on_click=self._send,
                    width=126, height=126, padding=8, children=[icon, label])

    def _items(self, messages: list[dict]) -> list[View]:
        """``getThreadItems``: date headers, bubbles, sending/failed markers and the last sent message's check."""
        now, items, previous, tag = self.phone.clock.now(DAY_MS), [], 0, formats.system_tag(self.phone)  # dates only
        for i, message in enumerate(messages):
            seconds = (message["date"] or 0) // 1000
            if seconds - previous > MIN_DATE_TIME_DIFF_SECS:
                items.append(_group("row", "android.widget.RelativeLayout", _spacer(),
                                    text_view(format_date_or_time(seconds, now, False, False, tag),
                                              resource_id=_id("thread_date_time"), text_size=_NORMAL,
                                              text_color=TEXT_SECONDARY),
                                    _spacer(), resource_id=_id("thread_date_time_holder")))
                previous = seconds
            items.append(self._bubble(message))
            if message["type"] == FAILED:
                items.append(self._marker("thread_error", NOT_SENT))
            if message["type"] == OUTBOX:
                items.append(self._marker("thread_sending", SENDING))
            if i == len(messages) - 1 and message["type"] == SENT:
                items.append(_group("row", "android.widget.RelativeLayout", _spacer(),
                                    _image("thread_success", "check", width=42, height=42), padding=12))
        return items

    @staticmethod
    def _marker(name: str, text: str) -> View:
        return row(_spacer(), text_view(text, resource_id=_id(name), text_size=_NORMAL, text_color=TEXT_SECONDARY))

    @staticmethod
    def _bubble(message: dict) -> View:
        body = message["body"] or ""
        received = message["type"] == INBOX
        natural = max(text_width(line, _NORMAL) for line in body.split("\n")) + 2 * 32
        width = int(min(natural + 2, 0.8 * 1000))  # layout_constraintWidth_percent="0.8"
        text = text_view(body, resource_id=_id("thread_message_body"), text_size=_NORMAL, padding=32,
                         background=_RECEIVED_BG if received else _SENT_BG, corner=_BUBBLE_CORNER, clickable=True,
                         long_clickable=True, focusable=True, text_color=TEXT if received else WHITE)
        wrapper = _group("column", "android.widget.RelativeLayout", *([text] if body else []), width=width,
                         resource_id=_id("thread_message_wrapper"))  # an empty body is GONE
        children = [wrapper, _spacer()] if received else [_spacer(), wrapper]
        return _group("row", "android.view.ViewGroup", *children, resource_id=_id("thread_message_holder"),
                      padding=20)


class SimpleSmsMessenger(App):
    """``com.simplemobiletools.smsmessenger``; the launcher alias opens ``SplashActivity``, which hands over
    to ``MainActivity`` at once, so ``MainActivity`` is the first screen."""

    package = PACKAGE
    night_colors = NIGHT_COLORS  # Simple-Commons' system theme, its letter circles over the dark window
    day_colors = DAY_COLORS  # the system theme's text colour
    navigation_bar_color = NAVIGATION_BAR_COLOR
    label = APP_LAUNCHER_NAME
    icon, icon_color = "app_sms", (245, 124, 0)
    version_name, version_code = "5.19.3", 85  # android_gym/device/apps.toml
    screens = (MainScreen, NewConversationScreen, ThreadScreen)
    # NewConversationActivity's filters (AndroidManifest.xml); it forwards sms: intents to ThreadActivity.
    intent_filters = (*App.intent_filters,
                      IntentFilter(("android.intent.action.SEND", "android.intent.action.SENDTO",
                                    "android.intent.action.VIEW"), (CATEGORY_DEFAULT, CATEGORY_BROWSABLE),
                                   schemes=("sms", "smsto", "mms", "mmsto")),
                      IntentFilter(("android.intent.action.SEND",), (CATEGORY_DEFAULT,), mime_types=("*/*",)))

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.prefs = SharedPreferences(phone, PREFS_PATH)

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """``SENDTO``/``VIEW``/``SEND`` with ``sms:``, ``smsto:``, ``mms:`` or ``mmsto:`` data open the thread
        (NewConversationActivity forwards to ThreadActivity and finishes); ``SEND`` of any other content (its
        ``*/*`` filter, e.g. shared ``text/plain``) opens NewConversationActivity, which hands the text to the
        thread of the number chosen."""
        schemes = ("sms:", "smsto:", "mms:", "mmsto:")
        if intent.action in ("android.intent.action.SENDTO", "android.intent.action.VIEW",
                             "android.intent.action.SEND") and intent.data.startswith(schemes):
            return ThreadScreen
        if intent.action == "android.intent.action.SEND" and intent.mime_type:
            return NewConversationScreen
        return super().resolve(intent)

    def on_clear(self) -> None:
        """``pm clear``: the app's preferences and cache database are gone; it keeps nothing else (messages
        live in the telephony provider, which ``pm clear`` of this package does not touch)."""
        self.prefs.forget()

    def on_force_stop(self) -> None:
        """The process dies: the in-memory preferences go."""
        self.prefs.forget()
