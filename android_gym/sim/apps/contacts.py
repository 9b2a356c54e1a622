"""Contacts (``com.google.android.contacts``), on the contacts provider.

Google Contacts is closed source, so screens, texts and resource ids follow the AOSP Contacts app
(``packages/apps/Contacts`` at ``android-13.0.0_r1``) with Google's package in the resource ids, which is the
app AndroidWorld's checks were written against: ``PeopleActivity`` (``people_activity.xml``,
``contact_list_content.xml``, ``floating_action_button.xml``, ``ContactListItemView``'s ``cliv_name_textview``,
``contacts_unavailable_fragment_content.xml``), ``ContactEditorActivity`` (``contact_editor_activity.xml``,
``editor_save_button.xml``, ``text_fields_editor_view.xml``, ``edit_spinner.xml``,
``edit_simple_spinner_item.xml``, ``edit_delete_button.xml``; ``BaseAccountType.addDataKindPhone`` for the label
list, ``RawContactModifier.parseExtras``/``getBestValidType`` for ``INSERT`` extras and the type of a new empty
phone field, ``KindSectionView.updateEmptyNonNameEditors`` for keeping exactly one empty phone field,
``ContactEditorFragment.revert``/``CancelEditDialogFragment`` and ``onSaveCompleted``) and
``QuickContactActivity`` (``quickcontact_title_and_phoneticname.xml``, ``expanding_entry_card_item.xml``,
``menu/quickcontact.xml``). Texts from ``res/values/strings.xml`` and the framework's phone-type labels.

Every screen reads the provider on every build. Not simulated: search, favourites, accounts (everything is
saved to the local "Device" account, without the account header), photos, email and the "More fields" kinds,
the "Custom" label (its name dialog), phone-number formatting as you type, calling, and the extra
QuickContact cards and menu items (only Edit and Delete). The label drop-down and dialogs are drawn over the
screen inside the activity's window (on a device they are windows of their own).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace

from android_gym import locales
from android_gym.sim.framework.app import App, Screen
from android_gym.sim.framework.intent import CATEGORY_DEFAULT, Intent, IntentFilter
from android_gym.sim.framework.looks import MATERIAL_YOU_NIGHT
from android_gym.sim.system.contacts import (
    AUTHORITY,
    NAME,
    PHONE,
    PHONE_TYPES,
    TYPE_CUSTOM,
    TYPE_MOBILE,
    phone_type_label,
    split_name,
)
from android_gym.sim.ui.dialogs import confirm_dialog, dialog_over
from android_gym.sim.ui.layout import measure_height
from android_gym.sim.ui.letter_tiles import letter_tile, pick_color
from android_gym.sim.ui.views import (
    DIVIDER,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Callback,
    View,
    button,
    column,
    edit_text,
    fab,
    image_button,
    row,
    text_view,
    toolbar,
)

PACKAGE = "com.google.android.contacts"
ACTION_INSERT, ACTION_EDIT = "android.intent.action.INSERT", "android.intent.action.EDIT"
ACTION_VIEW = "android.intent.action.VIEW"
#: ``PeopleActivity``'s ``VIEW`` filter (AOSP packages/apps/Contacts AndroidManifest.xml): the contact list.
LIST_TYPES = ("vnd.android.cursor.dir/contact", "vnd.android.cursor.dir/person", "vnd.android.cursor.dir/phone_v2",
              "vnd.android.cursor.dir/phone", "vnd.android.cursor.dir/postal-address_v2",
              "vnd.android.cursor.dir/postal-address", "vnd.android.cursor.dir/email_v2",
              "vnd.android.cursor.dir/group")
#: ``ContactEditorActivity``'s ``INSERT`` filter.
INSERT_TYPES = ("vnd.android.cursor.dir/person", "vnd.android.cursor.dir/contact", "vnd.android.cursor.dir/raw_contact")
#: ``ContactEditorActivity``'s ``EDIT`` and ``QuickContactActivity``'s ``VIEW`` filters: one contact.
ITEM_TYPES = ("vnd.android.cursor.item/person", "vnd.android.cursor.item/contact",
              "vnd.android.cursor.item/raw_contact")
CONTACTS_URI = f"content://{AUTHORITY}/contacts"
# ContactsContract.Intents.Insert
EXTRA_NAME, EXTRA_PHONE, EXTRA_PHONE_TYPE = "name", "phone", "phone_type"
# res/values/strings.xml (and android's own strings)
APP_LABEL = "Contacts"
# One English text, two resources German translates apart ("Neuen Kontakt erstellen", "Neuer Kontakt").
CREATE_NEW_CONTACT = locales.Named("Create new contact", "action_menu_add_new_contact_button")  # the FAB
NEW_CONTACT_TITLE = locales.Named("Create new contact", "contact_editor_title_new_contact")  # the editor's title
EDIT_CONTACT = "Edit contact"
NO_CONTACTS = "Your contacts list is empty"
MISSING_NAME = "(No name)"
SAVE, CANCEL, DISCARD, DELETE, EDIT = "Save", "Cancel", "Discard", "Delete", "Edit"
DISCARD_CHANGES = "Discard changes?"
DELETE_CONFIRMATION = "Delete this contact?"
FIRST_NAME, LAST_NAME, PHONE_HINT, NAME_HEADER = "First name", "Last name", "Phone", "Name"
NAVIGATE_UP, MORE_OPTIONS = "Navigate up", "More options"
#: The phone types the editor's label drop-down offers, in ``addDataKindPhone`` order (primary ones first).
EDITOR_PHONE_TYPES = tuple(kind for kind in PHONE_TYPES if kind != TYPE_CUSTOM)
_PRIMARY_PHONE_TYPES = (2, 1, 3, 7)  # Mobile, Home, Work, Other: the types not marked secondary
_TOOLBAR_ICON = 126
PRIMARY = (0x2A, 0x56, 0xC6)  # res/values/colors.xml: primary_color (the action bar, section headers, accents)
#: The dark theme: the system's Material You surfaces and text, and ``res/values-night/colors.xml``'s lighter
#: ``primary_color`` (#3872D7) for the action bar, the button and the accents; the bar's title stays white
#: (``actionbar_text_color`` has no night variant).
NIGHT_COLORS = {**MATERIAL_YOU_NIGHT, PRIMARY: (0x38, 0x72, 0xD7)}
#: ``letter_tile_colors``: a contact's picture placeholder takes one by its name's hash (``LetterTileDrawable``).
_LETTER_TILE_COLORS = ((0xDB, 0x44, 0x37), (0xE9, 0x1E, 0x63), (0x9C, 0x27, 0xB0), (0x67, 0x3A, 0xB7),
                       (0x3F, 0x51, 0xB5), (0x42, 0x85, 0xF4), (0x03, 0x9B, 0xE5), (0x00, 0x97, 0xA7),
                       (0x00, 0x96, 0x88), (0x0F, 0x9D, 0x58), (0x68, 0x9F, 0x38), (0xEF, 0x6C, 0x00),
                       (0xFF, 0x57, 0x22), (0x75, 0x75, 0x75))
_FIELD_TEXT, _TITLE_TEXT = 44, 64
_BADGE = 120  # a list item's picture
_POPUP_WIDTH = 720


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def _android_id(name: str) -> str:
    return f"android:id/{name}"


def _badge(name: str, **props) -> View:
    """``LetterTileDrawable`` for ``name``: a circle of ``letter_tile_colors`` picked by the name's hash, with the
    name's first letter, upper-cased, in white ``sans-serif-medium`` at ``letter_to_tile_ratio`` (67 %) of the tile;
    a name that does not start with a letter A-Z gets the default avatar (``ic_person_white_120dp``) instead."""
    color, first = pick_color(_LETTER_TILE_COLORS, name), name[:1]
    if first.isascii() and first.isalpha():
        return letter_tile(first.upper(), color, _BADGE, _BADGE * 67 // 100, bold=True, **props)
    return View(kind="icon", hint="person_filled", width=_BADGE, height=_BADGE, background=color,
                corner=_BADGE // 2, text_color=WHITE, **props)


def _contact_id(uri: str) -> int | None:
    """The contact id of a ``content://com.android.contacts/contacts/[lookup/<key>/]<id>`` URI."""
    if not uri.startswith(CONTACTS_URI + "/"):
        return None
    last = uri.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    return int(last) if last.isdigit() else None


def _names(given: str | None = None, family: str | None = None, middle: str | None = None) -> dict[str, str]:
    """The editor's name fields (the middle name is kept, not shown: the name editor starts collapsed)."""
    return {"given": given or "", "family": family or "", "middle": middle or ""}


def _popup_list(items: list[View], key: str) -> View:
    """A ``ListPopupWindow``'s list: as tall as its items, at most 1320 px (then it scrolls)."""
    height = min(sum(measure_height(item, _POPUP_WIDTH) for item in items), 1320)
    return View(kind="list", class_name="android.widget.ListView", key=key, children=items, scrollable=True,
                focusable=True, width=_POPUP_WIDTH, height=height, background=WHITE)


class PeopleScreen(Screen):
    """``PeopleActivity``: all contacts sorted by name, and the create-contact button."""

    activity = "com.android.contacts.activities.PeopleActivity"

    def build(self) -> View:
        contacts = self.phone.contacts.query(CONTACTS_URI, ["_id", "display_name", "phonebook_label"],
                                             sort="phonebook_bucket, sort_key, _id")
        if contacts:
            items, previous = [], None
            for contact in contacts:
                label = contact["phonebook_label"] or ""
                items.append(self._item(contact["_id"], contact["display_name"] or MISSING_NAME,
                                        label if label != previous else ""))
                previous = label
            body = View(kind="list", class_name="android.widget.ListView", resource_id=_android_id("list"),
                        key="contacts", children=items, scrollable=True, focusable=True, weight=1)
        else:
            body = column(text_view(NO_CONTACTS, resource_id=_id("message"), text_size=_FIELD_TEXT,
                                    text_color=TEXT_SECONDARY, padding=60), weight=1)
        create = fab(CREATE_NEW_CONTACT, "plus", self._create, resource_id=_id("floating_action_button"),
                     background=PRIMARY)
        main = column(toolbar(APP_LABEL, resource_id=_id("toolbar"), background=PRIMARY), body, gravity="fill")
        return View(kind="frame", class_name="android.view.ViewGroup", resource_id=_id("root"),
                    children=[main, create])

    def _item(self, contact_id: int, name: str, section: str) -> View:
        def open_contact() -> None:
            self.start(QuickContactScreen, Intent(action=ACTION_VIEW, data=f"{CONTACTS_URI}/{contact_id}"))

        badge = _badge(name, class_name="android.widget.QuickContactBadge", content_desc=f"Quick contact for {name}",
                       clickable=True, focusable=True, on_click=open_contact)
        header = text_view(section, width=80, text_size=_FIELD_TEXT, text_color=PRIMARY) if section else View(width=80)
        return View(kind="row", class_name="android.view.ViewGroup", clickable=True, focusable=True,
                    long_clickable=True, on_click=open_contact, padding=24, spacing=24, children=[
                        header, badge,
                        text_view(name, resource_id=_id("cliv_name_textview"), text_size=_FIELD_TEXT, weight=1)])

    def _create(self) -> None:
        self.start(ContactEditorScreen, Intent(action=ACTION_INSERT, mime_type=INSERT_TYPES[1]))


class QuickContactScreen(Screen):
    """``QuickContactActivity``: the contact's name and phone numbers, with Edit and (in the overflow menu)
    Delete. Tapping a number would call it (no dialer here)."""

    activity = "com.android.contacts.quickcontact.QuickContactActivity"

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.contact_id = _contact_id(intent.data)
        self.popup = ""  # "", "menu" or "delete"

    def on_back(self) -> bool:
        if self.popup:
            self.popup = ""
            return True
        return False

    def _set_popup(self, popup: str) -> None:
        self.popup = popup

    def _delete(self) -> None:
        self.phone.contacts.delete(f"{CONTACTS_URI}/{self.contact_id}")
        self.finish()

    def _edit(self) -> None:
        self.start(ContactEditorScreen, Intent(action=ACTION_EDIT, data=f"{CONTACTS_URI}/{self.contact_id}"))

    def build(self) -> View:
        contacts = self.phone.contacts
        found = contacts.query(f"{CONTACTS_URI}/{self.contact_id}", ["display_name"]) if self.contact_id else []
        phones = contacts.query(f"content://{AUTHORITY}/data/phones", ["data1", "data2", "data3"],
                                where=f"contact_id = {int(self.contact_id or 0)}", sort="_id")
        back = image_button(NAVIGATE_UP, "arrow_back", self.finish, text_color=TEXT)
        actions = [image_button(EDIT, "edit", self._edit, text_color=TEXT, resource_id=_id("menu_edit")),
                   image_button(MORE_OPTIONS, "more", lambda: self._set_popup("menu"), text_color=TEXT)]
        bar = row(back, View(weight=1), *(actions if found else []), resource_id=_id("toolbar"), height=168)
        name = (found[0]["display_name"] or MISSING_NAME) if found else ""
        entries = [self._entry(phone["data1"] or "", phone_type_label(phone["data2"], phone["data3"]))
                   for phone in phones]
        card = column(*entries, resource_id=_id("communication_card"), padding=24)
        content = column(bar, text_view(name, resource_id=_id("large_title"), text_size=_TITLE_TEXT, padding=48),
                         View(kind="view", height=2, background=DIVIDER), card, gravity="fill")
        if self.popup == "menu":
            item = text_view(DELETE, resource_id=_android_id("title"), text_size=_FIELD_TEXT, padding=40,
                             clickable=True, focusable=True, on_click=lambda: self._set_popup("delete"))
            return dialog_over(content, _popup_list([item], "overflow_menu"), lambda: self._set_popup(""))
        if self.popup == "delete":
            dialog = confirm_dialog(DELETE_CONFIRMATION, CANCEL, lambda: self._set_popup(""), DELETE, self._delete,
                                    text_size=_FIELD_TEXT)
            return dialog_over(content, dialog, lambda: self._set_popup(""))
        return content

    @staticmethod
    def _entry(number: str, label: str) -> View:
        return View(kind="row", class_name="android.widget.RelativeLayout", clickable=True, focusable=True,
                    content_desc=f"Call {label} {number}", padding=24, spacing=32, children=[
                        View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("icon"),
                             hint="phone", width=96, height=96, text_color=PRIMARY),
                        column(text_view(number, resource_id=_id("header"), text_size=_FIELD_TEXT),
                               text_view(label, resource_id=_id("text"), text_size=36,
                                         text_color=TEXT_SECONDARY), weight=1)])


@dataclass(frozen=True)
class _PhoneRow:
    """One phone editor: the number, its type (and custom label), the data row it edits, a stable key."""

    key: str
    number: str = ""
    kind: int = TYPE_MOBILE
    label: str | None = None
    data_id: int | None = None


class ContactEditorScreen(Screen):
    """``ContactEditorActivity``: first and last name, phone numbers with a label drop-down each (one empty
    phone field always at the end), Save, and Cancel/BACK that ask "Discard changes?" when something changed.

    ``INSERT`` creates a contact (extras ``name``, ``phone``, ``phone_type`` prefill it); ``EDIT`` of a contact
    URI changes one. Saving a new contact opens it in QuickContact; saving an edit returns to it.
    """

    activity = "com.android.contacts.activities.ContactEditorActivity"
    NAME_KEYS = ("given", "family")

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self._keys = itertools.count()
        self.contact_id = _contact_id(intent.data) if intent.action == ACTION_EDIT else None
        self.raw_contact_id: int | None = None
        self.name_data_id: int | None = None
        self.names = _names()
        self.phones: list[_PhoneRow] = []
        if self.contact_id is not None:
            self._load()
        else:
            self._prefill(intent.extras)
        self.original = self._content() if self.contact_id is not None else (_names(), [])
        self._normalize_phones()
        self.popup = ""  # "", "discard" or the key of the phone row whose label list is open
        if self.contact_id is None:  # a new contact: focus (and the keyboard) on the first name field
            self.focus_key, self.keyboard_shown = "given", True

    # ----- state ------------------------------------------------------------------------------------------
    def _row(self, **values) -> _PhoneRow:
        return _PhoneRow(key=f"phone{next(self._keys)}", **values)

    def _prefill(self, extras: dict[str, str]) -> None:
        """``RawContactModifier.parseExtras``: the name is split into its parts, the phone gets its type."""
        name = extras.get(EXTRA_NAME, "").strip()
        if name:
            parts = split_name(name)
            self.names = _names(parts["data2"], parts["data3"], parts["data5"])
        if extras.get(EXTRA_PHONE, "").strip():
            kind = extras.get(EXTRA_PHONE_TYPE, "")
            kind_value = int(kind) if kind.lstrip("-").isdigit() and int(kind) in EDITOR_PHONE_TYPES else TYPE_MOBILE
            self.phones.append(self._row(number=extras[EXTRA_PHONE], kind=kind_value))

    def _load(self) -> None:
        """The contact's raw contact, its structured name and its phone rows."""
        rows = self.phone.contacts.query(f"content://{AUTHORITY}/data",
                                         ["_id", "raw_contact_id", "mimetype", "data1", "data2", "data3", "data5"],
                                         where=f"contact_id = {int(self.contact_id or 0)}", sort="_id")
        for data in rows:
            self.raw_contact_id = data["raw_contact_id"]
            if data["mimetype"] == NAME and self.name_data_id is None:
                self.name_data_id = data["_id"]
                self.names = _names(data["data2"], data["data3"], data["data5"])
            elif data["mimetype"] == PHONE:
                kind = int(data["data2"]) if str(data["data2"] or "").isdigit() else TYPE_CUSTOM
                self.phones.append(self._row(number=data["data1"] or "", kind=kind, label=data["data3"],
                                             data_id=data["_id"]))

    def _normalize_phones(self) -> None:
        """``updateEmptyNonNameEditors``: drop surplus empty fields (not the focused one); add one empty field
        of the first primary type not in use when none is empty."""
        empty = [p for p in self.phones if not p.number.strip()]
        if len(empty) > 1:
            keep = next((p for p in empty if p.key == self.focus_key), empty[-1])
            self.phones = [p for p in self.phones if p.number.strip() or p is keep]
        elif not empty:
            used = {p.kind for p in self.phones}
            kind = next((k for k in _PRIMARY_PHONE_TYPES if k not in used), _PRIMARY_PHONE_TYPES[-1])
            self.phones.append(self._row(kind=kind))

    def _content(self) -> tuple[dict[str, str], list[_PhoneRow]]:
        """What saving would keep (``RawContactModifier.trimEmpty``): the names and the non-empty phones."""
        return dict(self.names), [replace(p, key="") for p in self.phones if p.number.strip()]

    @property
    def changed(self) -> bool:
        """``hasPendingChanges``: what would be saved differs from what the editor opened with (an ``INSERT``
        opens with nothing, so its prefilled extras are changes)."""
        return self._content() != self.original

    def _set_name(self, key: str) -> Callable[[str], None]:
        def set_name(text: str) -> None:
            self.names[key] = text
        return set_name

    def _set_number(self, key: str) -> Callable[[str], None]:
        def set_number(text: str) -> None:
            self.phones = [replace(p, number=text) if p.key == key else p for p in self.phones]
            self._normalize_phones()
        return set_number

    def _set_type(self, key: str, kind: int) -> None:
        self.phones = [replace(p, kind=kind, label=None) if p.key == key else p for p in self.phones]
        self.popup = ""

    def _remove(self, key: str) -> None:
        self.phones = [p for p in self.phones if p.key != key]
        self._normalize_phones()

    def _open_labels(self, key: str) -> None:
        self.popup, self.keyboard_shown = key, False

    def _next_field(self, key: str) -> Callback:
        """The IME's "next" action: focus moves to the following field."""
        def focus_next() -> None:
            keys = [*self.NAME_KEYS, *(p.key for p in self.phones)]
            if key in keys and keys.index(key) + 1 < len(keys):
                self.focus_key = keys[keys.index(key) + 1]
        return focus_next

    # ----- actions ----------------------------------------------------------------------------------------
    def on_back(self) -> bool:
        if self.popup:
            self.popup = ""
            return True
        return self._revert()

    def _revert(self) -> bool:
        """``ContactEditorFragment.revert``: confirm discarding changes, else close."""
        if self.changed:
            self.popup, self.keyboard_shown = "discard", False
            return True
        self.finish()
        return True

    def _save(self) -> None:
        """``save(SaveMode.CLOSE)``: write the changes (nothing when they trim to nothing); a new contact then
        opens in QuickContact. A contact deleted meanwhile cannot be saved (the app toasts an error)."""
        self.keyboard_shown = False
        created = self.raw_contact_id is None
        if self.changed and (not created or any(self.names.values()) or self._content()[1]):
            try:
                self._write()
            except ValueError:
                created = False
        if created and self.raw_contact_id is not None:
            [row] = self.phone.contacts.query(f"content://{AUTHORITY}/raw_contacts/{self.raw_contact_id}",
                                              ["contact_id"])
            self.start(QuickContactScreen, Intent(action=ACTION_VIEW, data=f"{CONTACTS_URI}/{row['contact_id']}"))
        self.finish()

    def _write(self) -> None:
        """The editor's ``ContentProviderOperation``s: the raw contact (when new), its name, its phones."""
        contacts = self.phone.contacts
        if self.raw_contact_id is None:
            self.raw_contact_id = contacts.insert_raw_contact({"account_name": None, "account_type": None})
        name = {"data2": self.names["given"].strip() or None, "data3": self.names["family"].strip() or None,
                "data5": self.names["middle"].strip() or None}
        if self.name_data_id is not None:
            contacts.update_data(self.name_data_id, name)
        elif any(name.values()):
            contacts.insert_data(self.raw_contact_id, NAME, name)
        kept = {p.data_id for p in self.phones if p.number.strip()}
        for gone in (p.data_id for p in self.original[1] if p.data_id is not None and p.data_id not in kept):
            contacts.delete(f"content://{AUTHORITY}/data/{gone}")
        for phone_row in self.phones:
            values = {"data1": phone_row.number.strip(), "data2": phone_row.kind, "data3": phone_row.label}
            if phone_row.number.strip() and phone_row.data_id is None:
                contacts.insert_data(self.raw_contact_id, PHONE, values)
            elif phone_row.number.strip():
                contacts.update_data(phone_row.data_id, values)

    # ----- views ------------------------------------------------------------------------------------------
    def build(self) -> View:
        close = image_button(CANCEL, "close", self._revert, text_color=WHITE)
        save = button(SAVE, self._save, resource_id=_id("editor_menu_save_button"), height=168, text_size=40,
                      background=PRIMARY)
        title = EDIT_CONTACT if self.contact_id is not None else NEW_CONTACT_TITLE
        bar = toolbar(title, save, navigation=close, resource_id=_id("toolbar"), background=PRIMARY)
        name_fields = column(*(self._field(key, hint, self.names[key], self._set_name(key))
                               for key, hint in zip(self.NAME_KEYS, (FIRST_NAME, LAST_NAME))), weight=1)
        items = [row(self._kind_icon(NAME_HEADER, "person"), name_fields, View(width=_TOOLBAR_ICON), padding=12)]
        items += [self._phone_editor(index, phone_row) for index, phone_row in enumerate(self.phones)]
        body = View(kind="list", class_name="android.widget.ScrollView", key="editor", children=items,
                    scrollable=True, focusable=True, weight=1)
        content = column(bar, body, resource_id=_id("fragment_container"), gravity="fill")
        if self.popup == "discard":
            dialog = confirm_dialog(DISCARD_CHANGES, CANCEL, self._close_popup, DISCARD, self.finish,
                                    text_size=_FIELD_TEXT)
            return dialog_over(content, dialog, self._close_popup)
        phone_row = next((p for p in self.phones if p.key == self.popup), None)
        if phone_row is not None:
            return dialog_over(content, self._label_list(phone_row), self._close_popup)
        return content

    def _close_popup(self) -> None:
        self.popup = ""

    def _field(self, key: str, hint: str, value: str, on_text: Callable[[str], None]) -> View:
        field = edit_text(value, hint, key, on_text, text_size=_FIELD_TEXT)
        field.on_submit = self._next_field(key)
        return field

    @staticmethod
    def _kind_icon(description: str, icon: str) -> View:
        return View(kind="icon", class_name="android.widget.ImageView", resource_id=_id("kind_icon"), hint=icon,
                    content_desc=description, width=_TOOLBAR_ICON, height=_TOOLBAR_ICON, text_color=TEXT_SECONDARY)

    def _phone_editor(self, index: int, phone_row: _PhoneRow) -> View:
        """``TextFieldsEditorView``: the number field, the label spinner under it, the delete button."""
        label = phone_type_label(phone_row.kind, phone_row.label)
        spinner = View(kind="frame", class_name="android.widget.Spinner", resource_id=_id("spinner"),
                       content_desc=PHONE_HINT, clickable=True, focusable=True, height=110,
                       on_click=lambda: self._open_labels(phone_row.key), children=[
                           text_view(label, resource_id=_android_id("text1"), text_size=40, padding=24)])
        fields = column(self._field(phone_row.key, PHONE_HINT, phone_row.number, self._set_number(phone_row.key)),
                        spinner, weight=1)
        icon = self._kind_icon(PHONE_HINT, "phone") if index == 0 else View(width=_TOOLBAR_ICON)
        if phone_row.number.strip():
            delete = View(kind="frame", class_name="android.widget.FrameLayout",
                          resource_id=_id("delete_button_container"), content_desc=f"Delete {label} {PHONE_HINT}",
                          clickable=True, focusable=True, width=_TOOLBAR_ICON, height=_TOOLBAR_ICON,
                          on_click=lambda: self._remove(phone_row.key), children=[
                              View(kind="icon", class_name="android.widget.ImageView", hint="delete",
                                   resource_id=_id("delete_button"), content_desc="delete", text_color=TEXT,
                                   width=_TOOLBAR_ICON, height=_TOOLBAR_ICON)])
        else:
            delete = View(width=_TOOLBAR_ICON)  # INVISIBLE: keeps its space, not in the hierarchy
        return row(icon, fields, delete, padding=12)

    def _label_list(self, phone_row: _PhoneRow) -> View:
        """The spinner's drop-down: every phone type, the current one checked."""
        items = [View(kind="text", class_name="android.widget.CheckedTextView", resource_id=_android_id("text1"),
                      text=PHONE_TYPES[kind], checkable=True, checked=kind == phone_row.kind, clickable=True,
                      focusable=True, text_size=_FIELD_TEXT, padding=36, text_color=TEXT,
                      on_click=lambda kind=kind: self._set_type(phone_row.key, kind))
                 for kind in EDITOR_PHONE_TYPES]
        return _popup_list(items, "labels")


class GoogleContacts(App):
    """``com.google.android.contacts``: the contact list is the launcher activity and takes ``VIEW`` of a list
    type (``content://contacts/people/``); ``INSERT`` of a contact type opens the editor, ``EDIT``/``VIEW`` of a
    contact URI the editor/QuickContact."""

    package = PACKAGE
    night_colors = NIGHT_COLORS  # Contacts follows the system theme (its values-night)
    label = APP_LABEL
    icon, icon_color = "app_contacts", (26, 115, 232)
    screens = (PeopleScreen, ContactEditorScreen, QuickContactScreen)
    # PeopleActivity's, ContactEditorActivity's and QuickContactActivity's filters (AOSP Contacts'
    # AndroidManifest.xml): a contact URI is matched by the type its provider gives it.
    intent_filters = (*App.intent_filters,
                      IntentFilter((ACTION_VIEW,), (CATEGORY_DEFAULT,), mime_types=LIST_TYPES),
                      IntentFilter((ACTION_INSERT,), (CATEGORY_DEFAULT,), mime_types=INSERT_TYPES),
                      IntentFilter((ACTION_EDIT, ACTION_VIEW), (CATEGORY_DEFAULT,), mime_types=ITEM_TYPES))

    def resolve(self, intent: Intent) -> type[Screen] | None:
        """The activity whose intent filter matches."""
        if intent.action == ACTION_INSERT and intent.mime_type in INSERT_TYPES:
            return ContactEditorScreen
        if intent.action == ACTION_EDIT and _contact_id(intent.data) is not None:
            return ContactEditorScreen
        if intent.action == ACTION_VIEW and _contact_id(intent.data) is not None:
            return QuickContactScreen
        if intent.action == ACTION_VIEW and intent.mime_type in LIST_TYPES:
            return PeopleScreen
        return super().resolve(intent)
