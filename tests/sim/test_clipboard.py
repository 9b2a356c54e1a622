"""The clipboard, Clipper's broadcasts over the shell, and text selection (long press, the floating toolbar,
Cut/Copy/Paste/Select all, Ctrl shortcuts) in the SMS app's fields."""

from __future__ import annotations

from android_gym.device import state
from android_gym.sim import keycodes
from android_gym.sim.apps.sms import PACKAGE as SMS
from android_gym.sim.phone import Phone
from android_gym.sim.ui.selection import HIGHLIGHT, TOOLBAR_TAG, word_at
from android_gym.ui import parse_ui_dump

SEARCH = f"{SMS}:id/top_toolbar_search"
MESSAGE = f"{SMS}:id/thread_type_message"
ITEM_TEXT = "android:id/floating_toolbar_menu_item_text"
CLIPPER_MAIN = "ca.zgrs.clipper/.Main"



def sh(phone: Phone, command: str) -> str:
    result = phone.run(command)
    assert result.exit_code == 0, result.stderr
    return result.stdout.decode()


def element(phone: Phone, **wanted):
    found = [e for e in parse_ui_dump(phone.ui_dump()) if all(getattr(e, k) == v for k, v in wanted.items())]
    assert found, f"no element {wanted}"
    return found[-1]


def toolbar_items(phone: Phone) -> list[str]:
    return [e.text for e in parse_ui_dump(phone.ui_dump()) if e.resource_name == ITEM_TEXT]


def tap_item(phone: Phone, title: str) -> None:
    phone.tap(*element(phone, resource_name=ITEM_TEXT, text=title).bbox_pixels.center)


def search_with(phone: Phone, text: str):
    """The SMS app's search field, focused and holding ``text``."""
    sh(phone, f"monkey -p {SMS} 1")
    phone.tap(*element(phone, resource_name=SEARCH).bbox_pixels.center)
    phone.input_text(text)
    return phone.activities.top


def long_press_first_word(phone: Phone) -> None:
    box = element(phone, resource_name=SEARCH).bbox_pixels
    phone.long_press(box.x_min + 40, box.center[1])


def clipper(phone: Phone, arguments: str) -> str:
    """``am broadcast`` with Clipper in front, as AndroidWorld does it."""
    sh(phone, f"am start -n {CLIPPER_MAIN}")
    try:
        return sh(phone, f"am broadcast {arguments}")
    finally:
        phone.key(keycodes.BACK)


# ----- Clipper and am broadcast --------------------------------------------------------------------------------
def test_clipper_set_and_get_print_what_a_device_prints(phone):
    assert sh(phone, "am broadcast -a clipper.set -e text 'Order No: A123456'") == (
        "Broadcasting: Intent { act=clipper.set flg=0x400000 (has extras) }\n"
        'Broadcast completed: result=-1, data="Text is copied into clipboard."\n')
    assert phone.clipboard.primary.text == "Order No: A123456"
    sh(phone, f"am start -n {CLIPPER_MAIN}")
    assert sh(phone, "am broadcast -a clipper.get") == (
        "Broadcasting: Intent { act=clipper.get flg=0x400000 }\n"
        'Broadcast completed: result=-1, data="Order No: A123456"\n')
    # The manifest's short actions and an explicit component reach the same receiver.
    assert sh(phone, "am broadcast -a set -e text x").endswith('result=-1, data="Text is copied into clipboard."\n')
    assert sh(phone, "am broadcast -n ca.zgrs.clipper/.ClipperReceiver -a get") == (
        "Broadcasting: Intent { act=get flg=0x400000 cmp=ca.zgrs.clipper/.ClipperReceiver }\n"
        'Broadcast completed: result=-1, data="x"\n')


def test_clipper_reads_the_clipboard_only_with_focus_and_needs_text_to_set(phone):
    sh(phone, "am broadcast -a clipper.set -e text secret")
    # ClipboardService hands the clip only to the focused app; Clipper's getText() is then null.
    assert sh(phone, "am broadcast -a clipper.get").endswith('Broadcast completed: result=0, data=""\n')
    assert sh(phone, "am broadcast -a clipper.set").endswith(
        'Broadcast completed: result=0, data="No text is provided. Use -e text "text to be pasted""\n')
    assert phone.clipboard.primary.text == "secret"


def test_broadcast_without_a_receiver_completes_with_result_0(phone):
    assert sh(phone, "am broadcast -a com.example.NOTHING") == (
        "Broadcasting: Intent { act=com.example.NOTHING flg=0x400000 }\nBroadcast completed: result=0\n")
    # An action-only filter takes no intent with data; -p limits delivery to one package.
    assert sh(phone, "am broadcast -a clipper.set -d clipper:x -e text y").endswith("result=0\n")
    assert sh(phone, f"am broadcast -a clipper.set -p {SMS} -e text y").endswith("result=0\n")
    assert sh(phone, "am broadcast --receiver-registered-only -a clipper.set -e text y") == (
        "Broadcasting: Intent { act=clipper.set flg=0x40400000 (has extras) }\nBroadcast completed: result=0\n")
    assert phone.clipboard.primary is None


def test_clipper_main_screen(phone):
    sh(phone, f"am start -n {CLIPPER_MAIN}")
    assert phone.activities.foreground() == ("ca.zgrs.clipper", "ca.zgrs.clipper.Main")
    assert element(phone, resource_name="ca.zgrs.clipper:id/head").text == "Clipper service is started."
    assert "2. am broadcast -a clipper.get" in element(phone, resource_name="ca.zgrs.clipper:id/sub").text
    assert element(phone, resource_name="android:id/title").text == "Clipper"


def test_state_helpers_go_through_clipper_and_come_back(device):
    device.shell(f"monkey -p {SMS} 1")
    state.clipboard_set(device, "it's \"quoted\" $HOME")
    assert state.foreground_package(device) == SMS  # Clipper was left with BACK
    assert state.clipboard_get(device) == "it's \"quoted\" $HOME"
    assert state.foreground_package(device) == SMS


# ----- text selection -----------------------------------------------------------------------------------------
def test_word_boundaries():
    text = "Mail john.doe@example.com, Jane's 555-1234"
    assert [text[slice(*word_at(text, text.index(w)))] for w in ("john", "example", "Jane", "555")] == [
        "john.doe", "example.com", "Jane's", "555"]
    assert text[slice(*word_at(text, text.index("@")))] == "john.doe"  # just after a word: that word
    assert word_at("a  b", 2) == (2, 3)  # between blanks: one character


def test_long_press_selects_the_word_and_opens_the_toolbar(phone):
    screen = search_with(phone, "john.doe@example.com today")
    assert toolbar_items(phone) == []
    long_press_first_word(phone)
    assert (screen.selection.start, screen.selection.end) == (0, 8)
    assert toolbar_items(phone) == ["Cut", "Copy", "Select all"]  # empty clipboard: no Paste
    container = element(phone, content_description=TOOLBAR_TAG)
    item = element(phone, content_description="Copy")
    assert item.class_name == "android.widget.LinearLayout" and item.is_clickable
    assert container.bbox_pixels.y_min >= element(phone, resource_name=SEARCH).bbox_pixels.y_max
    assert element(phone, resource_name=SEARCH).text == "john.doe@example.com today"
    pixels = phone.screenshot()
    label = element(phone, resource_name=ITEM_TEXT, text="Copy").bbox_pixels
    assert (pixels[label.y_min:label.y_max, label.x_min:label.x_max] < 100).any()  # the toolbar is drawn
    assert (pixels == HIGHLIGHT).all(axis=-1).any()  # the selected word is highlighted


def test_select_all_then_copy(phone):
    screen = search_with(phone, "Invoice #98765")
    long_press_first_word(phone)
    tap_item(phone, "Select all")
    assert (screen.selection.start, screen.selection.end) == (0, 14)
    assert toolbar_items(phone) == ["Cut", "Copy"]  # all selected: no Select all
    tap_item(phone, "Copy")
    assert phone.clipboard.primary.text == "Invoice #98765"
    assert toolbar_items(phone) == [] and screen.search_text == "Invoice #98765"
    assert clipper(phone, "-a clipper.get").endswith('data="Invoice #98765"\n')


def test_cut_removes_and_paste_replaces_the_selection(phone):
    screen = search_with(phone, "Order No: B654321")
    long_press_first_word(phone)
    tap_item(phone, "Cut")
    assert screen.search_text == " No: B654321" and phone.clipboard.primary.text == "Order"
    long_press_first_word(phone)
    assert toolbar_items(phone) == ["Cut", "Copy", "Paste", "Select all"]
    tap_item(phone, "Paste")
    assert screen.search_text == " Order: B654321"
    phone.input_text("!")  # the caret stayed after the pasted text
    assert screen.search_text == " Order!: B654321"


def test_typing_and_del_replace_the_selection(phone):
    screen = search_with(phone, "Promo code: DEAL30")
    long_press_first_word(phone)
    phone.input_text("Coupon")
    assert screen.search_text == "Coupon code: DEAL30" and toolbar_items(phone) == []
    long_press_first_word(phone)
    phone.key(keycodes.DEL)
    assert screen.search_text == " code: DEAL30"


def test_keys_of_the_soft_keyboard_type_over_the_selection(phone):
    screen = search_with(phone, "Global Tech, Floor 3")
    long_press_first_word(phone)
    keys = {v.text: v for v in phone.window.frame().keyboard.walk() if v.kind == "button"}
    x1, y1, x2, y2 = keys["x"].bounds  # the keyboard is its own window: the touch does not end the selection
    phone.tap((x1 + x2) / 2, (y1 + y2) / 2)
    assert screen.search_text == "x Tech, Floor 3"


def test_back_and_taps_elsewhere_close_the_toolbar(phone):
    screen = search_with(phone, "Text me at 555-6789")
    assert screen.keyboard_shown
    long_press_first_word(phone)
    phone.key(keycodes.BACK)  # the toolbar takes BACK before the keyboard
    assert toolbar_items(phone) == [] and screen.keyboard_shown
    assert (screen.selection.start, screen.selection.end) == (4, 4)  # collapsed to its end
    long_press_first_word(phone)
    phone.tap(540, 1000)  # empty space of the app
    assert toolbar_items(phone) == []
    phone.input_text("s")
    assert screen.search_text == "Texts me at 555-6789"


def test_ctrl_shortcuts_over_input_keycombination(phone):
    screen = search_with(phone, "Membership ID: XYZ789")
    sh(phone, "input keycombination 113 29")  # Ctrl+A
    assert toolbar_items(phone) == []  # keyboard selection opens no toolbar
    sh(phone, "input keycombination 113 31")  # Ctrl+C
    assert phone.clipboard.primary.text == "Membership ID: XYZ789" and screen.search_text == "Membership ID: XYZ789"
    sh(phone, "input keycombination 113 29; input keycombination 113 52")  # Ctrl+X
    assert screen.search_text == ""
    sh(phone, "input keycombination 113 50; input keycombination 113 50")  # Ctrl+V twice
    assert screen.search_text == "Membership ID: XYZ789" * 2


def test_long_press_on_an_empty_field_offers_paste_only_with_a_clip(phone):
    sh(phone, f"monkey -p {SMS} 1")
    box = element(phone, resource_name=SEARCH).bbox_pixels
    phone.long_press(*box.center)
    assert toolbar_items(phone) == []  # nothing to offer: no toolbar
    phone.clipboard.set_text("Tracking #: 1Z204E2A")
    phone.long_press(*box.center)
    assert toolbar_items(phone) == ["Paste"]


def test_clip_set_by_clipper_pastes_into_a_new_message(phone):
    clipper(phone, "-a clipper.set -e text 'Call me at 555-1234'")
    sh(phone, f"am start -a android.intent.action.SENDTO -d sms:+12025550143 -p {SMS}")
    screen = phone.activities.top
    phone.long_press(*element(phone, resource_name=MESSAGE).bbox_pixels.center)
    toolbar = element(phone, content_description=TOOLBAR_TAG).bbox_pixels
    assert toolbar_items(phone) == ["Paste"]
    assert toolbar.y_max <= element(phone, resource_name=MESSAGE).bbox_pixels.y_min  # above the field
    tap_item(phone, "Paste")
    assert screen.text == "Call me at 555-1234"
    phone.tap(*element(phone, resource_name=f"{SMS}:id/thread_send_message").bbox_pixels.center)
    sent = phone.telephony.query("content://sms/sent", ["address", "body"])
    assert [(row["address"], row["body"]) for row in sent] == [("+12025550143", "Call me at 555-1234")]


def test_focus_loss_closes_an_insertion_toolbar_but_keeps_a_selection(phone):
    phone.clipboard.set_text("clip")
    screen = search_with(phone, "Acme Corp, Suite 200")
    box = element(phone, resource_name=SEARCH).bbox_pixels
    phone.long_press(box.x_max - 20, box.center[1])  # empty space after the text: the caret, Paste/Select all
    assert toolbar_items(phone) == ["Paste", "Select all"]
    assert clipper(phone, "-a clipper.get").endswith('data="clip"\n')
    assert phone.activities.top is screen and toolbar_items(phone) == []
    long_press_first_word(phone)
    clipper(phone, "-a clipper.get")
    assert toolbar_items(phone) == ["Cut", "Copy", "Paste", "Select all"]  # restored with the focus
    tap_item(phone, "Copy")
    assert phone.clipboard.primary.text == "Acme"
