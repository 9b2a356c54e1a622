"""Icons and shapes as the real apps draw them: filled drawables where the app's vector is filled, Retro Music's
placeholder art, Settings' Data Saver icon, Android 13's share sheet, a partly rounded view's shadow, and the letter
tiles of contacts without a photo (Contacts, SMS Messenger), and search and address fields without an underline."""

from __future__ import annotations

import numpy as np
import pytest
from ui_nodes import colours, opened, tap, views

from android_gym.sim import keycodes
from android_gym.sim.apps.contacts import _LETTER_TILE_COLORS
from android_gym.sim.apps.markor import NOTEBOOK
from android_gym.sim.apps.sms import _LETTER_COLORS, SimpleSmsMessenger
from android_gym.sim.phone import Phone
from android_gym.sim.system import media_store
from android_gym.sim.system.mp3 import mp3_file
from android_gym.sim.ui.icons import icon_mask
from android_gym.sim.ui.layout import layout
from android_gym.sim.ui.letter_tiles import java_hash, pick_color
from android_gym.sim.ui.render import Renderer
from android_gym.sim.ui.views import ALL_CORNERS, TEXT, TOP_CORNERS, WHITE, View, column

MARKOR, RETRO = "net.gsantner.markor", "code.name.monkey.retromusic"
MUSIC = "/storage/emulated/0/Music"


def icons(phone: Phone) -> list[View]:
    return [view for view in views(phone.window.frame()) if view.kind == "icon" and view.hint]


def ink(name: str) -> int:
    return int(np.asarray(icon_mask(name, 63), dtype=np.int64).sum())


@pytest.mark.parametrize("name", ["save", "edit", "delete", "folder", "file", "home"])
def test_a_filled_drawable_is_drawn_filled_not_outlined(name: str) -> None:
    assert ink(f"{name}_filled") > 1.15 * ink(name)


def test_markor_draws_its_filled_drawables() -> None:
    """main__bottom_nav.xml (ic_folder, ic_assignment_turned_in, ic_lightning, ic_favorite), the file browser's
    ic_file/ic_folder, and the editor's ic_save and ic_edit: all filled."""
    phone = Phone()
    phone.run(f"mkdir -p {NOTEBOOK}/sub && echo 'Meet at noon' > '{NOTEBOOK}/s.md'")
    phone.run(f"monkey -p {MARKOR} -c android.intent.category.LAUNCHER 1")
    hints = [view.hint for view in icons(phone)]
    assert hints[-4:] == ["folder_filled", "todo_done", "lightning", "favorite"]
    assert {"folder_filled", "file_filled"} <= set(hints) and "folder" not in hints
    tap(phone, text="s.md")
    phone.input_text("!")
    assert "save_filled" in [view.hint for view in icons(phone)]
    tap(phone, content_desc="View mode")
    assert "edit_filled" in [view.hint for view in icons(phone)]


def test_retro_music_for_you_tab_draws_the_filled_home() -> None:
    tab = next(view for view in views(opened(RETRO).window.frame()) if view.content_desc == "For you")
    assert tab.children[0].hint == "home_filled"


def test_retro_music_song_rows_show_the_placeholder_art() -> None:
    """RetroGlideExtension's default_audio_art in item_list's 45 dp card rounded 10 dp: a dark grey note on light
    grey, the card's corners cut round to the row's white."""
    phone = Phone()
    phone.fs.makedirs(MUSIC)
    phone.fs.write_bytes(f"{MUSIC}/song.mp3", mp3_file(200_000, "Night Drive", "Olivia"))
    phone.run(f"am broadcast -a {media_store.ACTION_SCAN_FILE} -d file://{MUSIC}")
    phone.run(f"monkey -p {RETRO} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{RETRO}:id/action_song")
    art = next(view for view in icons(phone) if view.resource_id.endswith(":id/image"))
    assert (art.hint, art.background, art.text_color) == ("audio", (226, 226, 226), (69, 69, 69))
    x1, y1, x2, y2 = art.bounds
    assert x2 - x1 == y2 - y1 == 118
    pixels = phone.screenshot()
    assert tuple(pixels[y1 + 4, x1 + 59]) == (226, 226, 226)  # the card's top edge
    assert tuple(pixels[y1, x1]) == WHITE  # its corner, cut round
    assert (pixels[y1:y2, x1:x2] == (69, 69, 69)).all(axis=2).sum() > 500  # the note


def test_settings_data_saver_draws_data_usage() -> None:
    phone = opened("com.android.settings")
    tap(phone, text="Network & internet")
    row = next(view for view in views(phone.window.frame())
               if any(child.text == "Data Saver" for child in view.walk()) and view.clickable)
    assert [view.hint for view in row.walk() if view.kind == "icon"] == ["data_usage"]


def shared_note(phone: Phone) -> None:
    """Markor's note "s.md" open, then shared as plain text: the share sheet over the editor."""
    phone.run(f"mkdir -p {NOTEBOOK} && echo 'Meet at noon' > '{NOTEBOOK}/s.md'")
    phone.run(f"monkey -p {MARKOR} -c android.intent.category.LAUNCHER 1")
    tap(phone, text="s.md")
    tap(phone, content_desc="More options")
    tap(phone, text="Share")
    tap(phone, text="Plain Text")


def test_the_share_sheet_rounds_its_top_corners_and_shows_targets_launcher_icons() -> None:
    """ChooserActivity's bottomsheet_background: top corners of config_bottomDialogCornerRadius (28 dp), bottom
    corners square; a target is its app's launcher icon over its label."""
    phone = Phone()
    shared_note(phone)
    frame = phone.window.frame()
    sheet = next(view for view in views(frame) if view.resource_id.endswith(":id/contentPanel"))
    assert (sheet.corner, sheet.corners) == (73, TOP_CORNERS)
    x1, y1, x2, y2 = sheet.bounds
    pixels = phone.screenshot()
    scrim = tuple(pixels[y1 - 4, 540])
    assert tuple(pixels[y1 + 2, x1 + 2]) == tuple(pixels[y1 + 2, x2 - 3]) == scrim != WHITE  # round at the top
    assert tuple(pixels[y1 + 2, 540]) == tuple(pixels[y2 - 2, x1 + 1]) == tuple(pixels[y2 - 2, x2 - 2]) == WHITE
    icon = next(view for view in views(frame) if view.resource_id == "android:id/icon")
    cx, cy = (icon.bounds[0] + icon.bounds[2]) // 2, (icon.bounds[1] + icon.bounds[3]) // 2
    assert tuple(pixels[cy - 50, cx]) == SimpleSmsMessenger.icon_color  # its launcher icon's circle


def test_the_share_sheet_follows_the_dark_theme() -> None:
    """Theme.DeviceDefault.Chooser is DayNight: by night the sheet, its text and its drag handle are the dark
    theme's, and the targets' launcher icons keep their colours; the dump is the same by day and by night."""
    shown, dumps = {}, {}
    for night in ("no", "yes"):
        phone = Phone()
        phone.run(f"cmd uimode night {night}")
        shared_note(phone)
        by_id = {view.resource_id: view for view in views(phone.window.frame())}
        sheet, icon = by_id["com.android.intentresolver:id/contentPanel"], by_id["android:id/icon"]
        pixels = phone.screenshot()
        cx, cy = (icon.bounds[0] + icon.bounds[2]) // 2, (icon.bounds[1] + icon.bounds[3]) // 2
        shown[night] = (tuple(pixels[sheet.bounds[1] + 2, 540]), by_id["android:id/drag"].background,
                        by_id["com.android.intentresolver:id/content_preview_text"].text_color,
                        tuple(pixels[cy - 50, cx]))
        dumps[night] = phone.ui_dump()
    assert shown["no"] == (WHITE, (225, 227, 225), TEXT, SimpleSmsMessenger.icon_color)
    assert shown["yes"] == ((31, 31, 31), (68, 71, 70), (227, 227, 227), SimpleSmsMessenger.icon_color)
    assert dumps["yes"] == dumps["no"]


@pytest.mark.parametrize("night", ["no", "yes"])
def test_the_share_sheet_shows_the_app_behind_it_dimmed_in_pixels_only(night: str) -> None:
    """ChooserActivity's window is translucent with its background dimmed: the note it was opened over shows
    above the sheet, darker, and the sheet goes on behind the navigation bar; the dump is the sheet's window alone."""
    phone = Phone()
    phone.run(f"cmd uimode night {night}")
    shared_note(phone)
    dump = phone.ui_dump()
    pixels = phone.screenshot().astype(int)
    frame = phone.window.frame()
    phone.key(keycodes.BACK)  # the sheet closes: the editor as it was
    behind = phone.screenshot().astype(int)
    sheet = next(view for view in views(frame) if view.resource_id.endswith(":id/contentPanel"))
    top, bottom = frame.app.children[0].bounds[1], sheet.bounds[1]
    above = pixels[top:bottom]
    assert len({tuple(p) for p in above.reshape(-1, 3)[::97]}) > 2  # the note's toolbar, text and page, not one grey
    assert np.abs(above - behind[top:bottom] * 0.68).max() <= 2  # black at 32 % over the editor
    assert MARKOR not in dump and "Meet at noon" in dump  # the preview's text, not the editor's node
    assert frame.nav_bar.background == sheet.background == tuple(pixels[-1, 0])


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_a_partly_rounded_views_shadow_follows_its_corners(scale: float) -> None:
    """A bottom sheet's shadow is round under its round top corners and square under its square bottom ones: below
    a square corner it is as dark as along the bottom edge, below a round one lighter."""
    grey = (200, 200, 200)

    def shadow_below_corner(corners: tuple[bool, bool, bool, bool]) -> tuple[int, int, int]:
        card = View(height=300, background=WHITE, corner=42, corners=corners, elevation=24)
        tree = column(View(height=100), row_of(card), View(height=200), background=grey)
        layout(tree, 0, 0, 1080, 600)
        pixels = Renderer(round(1080 * scale), round(600 * scale), scale).render({"w": (tree, grey)})
        return tuple(int(c) for c in pixels[int(402 * scale), int(101 * scale)])  # below the bottom-left corner

    square, round_ = shadow_below_corner(TOP_CORNERS), shadow_below_corner(ALL_CORNERS)
    assert square < round_ <= grey


def row_of(view: View) -> View:
    """``view`` with 100 px of room at either side."""
    return View(kind="row", children=[View(width=100), View(weight=1, kind="column", children=[view]),
                                      View(width=100)])


def test_java_hash_is_javas_string_hash_code() -> None:
    assert java_hash("hello") == 99162322
    assert java_hash("polygenelubricants") == -2 ** 31  # wraps to Integer.MIN_VALUE
    assert java_hash("") == 0


def add_contact(phone: Phone, name: str, number: str) -> None:
    raw_id = phone.contacts.insert_raw_contact()
    phone.contacts.insert_data(raw_id, "vnd.android.cursor.item/name", {"data1": name})
    phone.contacts.insert_data(raw_id, "vnd.android.cursor.item/phone_v2", {"data1": number, "data2": 2})


def tile_pixels(phone: Phone, view: View) -> set[tuple[int, ...]]:
    x1, y1, x2, y2 = view.bounds
    return colours(phone.screenshot()[y1:y2, x1:x2])


def test_contacts_without_a_photo_show_letter_tiles() -> None:
    """LetterTileDrawable: a circle of letter_tile_colors picked by the name's hash, the first letter in white;
    the default avatar for a name that does not start with a letter."""
    phone = Phone()
    add_contact(phone, "bob Brown", "+12025550123")
    add_contact(phone, "2nd Line", "+12025550188")
    phone.run("monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1")
    badges = {view.content_desc: view for view in views(phone.window.frame())
              if view.class_name == "android.widget.QuickContactBadge"}
    bob, other = badges["Quick contact for bob Brown"], badges["Quick contact for 2nd Line"]
    assert (bob.kind, bob.hint, bob.background) == ("letter", "B", pick_color(_LETTER_TILE_COLORS, "bob Brown"))
    assert (other.kind, other.hint) == ("icon", "person_filled")
    assert {WHITE, bob.background} <= tile_pixels(phone, bob)


def test_sms_conversations_show_simple_commons_letter_icons() -> None:
    """getContactLetterIcon(title): the title's first character (a number's "+") on a circle picked by its hash."""
    phone = Phone()
    phone.telephony.deliver_sms("+12025550123", "Dinner at eight")
    phone.telephony.deliver_sms("+14155550188", "See you")
    add_contact(phone, "Émile Zola", "(202) 555-0123")
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    images = [view for view in views(phone.window.frame()) if view.resource_id.endswith(":id/conversation_image")]
    assert sorted(view.hint for view in images) == ["+", "E"]  # the accent dropped, as normalizeString does
    for view in images:
        assert view.kind == "letter" and view.background in _LETTER_COLORS
        assert {WHITE, view.background} <= tile_pixels(phone, view)


def test_a_letter_tile_keeps_its_colours_in_the_dark_theme() -> None:
    phone = Phone()
    add_contact(phone, "Bob Brown", "+12025550123")
    phone.run("cmd uimode night yes")
    phone.run("monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1")
    badge = next(view for view in views(phone.window.frame()) if view.kind == "letter")
    assert (badge.text_color, badge.background) == (WHITE, pick_color(_LETTER_TILE_COLORS, "Bob Brown"))
    assert WHITE in tile_pixels(phone, badge)


@pytest.mark.parametrize("package", ["com.simplemobiletools.smsmessenger", "com.simplemobiletools.calendar.pro",
                                     "com.simplemobiletools.gallery.pro"])
def test_simple_commons_search_bar_is_an_action_bar_tall_with_a_40_dp_pill(package: str) -> None:
    """menu_search.xml: top_app_bar_layout is ?actionBarSize (56 dp) tall, top_toolbar_holder inside it has 8 dp
    above and below it (40 dp at 420 dpi: 105 px)."""
    found = {view.resource_id.rsplit("/", 1)[-1]: view for view in views(opened(package).window.frame())}
    bar, holder = found["top_app_bar_layout"].bounds, found["top_toolbar_holder"].bounds
    assert (bar[3] - bar[1], holder[3] - holder[1], holder[1] - bar[1]) == (147, 105, 21)


def test_search_and_address_fields_have_no_underline() -> None:
    """Simple-Commons' menu_search: top_toolbar_holder's search_menu_background (28 dp corners: a pill) and
    top_toolbar_search's android:background="@null"; Chrome's url_bar likewise on its location bar's pill. An
    ordinary EditText keeps its underline."""
    phone = opened("com.simplemobiletools.smsmessenger")
    found = {view.resource_id.rsplit("/", 1)[-1]: view for view in views(phone.window.frame())}
    holder, field = found["top_toolbar_holder"], found["top_toolbar_search"]
    x1, y1, x2, y2 = holder.bounds
    assert holder.corner == (y2 - y1) // 2 and not field.underline
    screen = phone.screenshot()
    assert tuple(int(c) for c in screen[y1 + 2, x1 + 2]) == WHITE  # outside the pill's rounded corner
    fx1, _, fx2, fy2 = field.bounds
    assert colours(screen[fy2 - 13:fy2 - 10, fx1 + 20:fx2 - 120]) == {
        holder.background}
    chrome = opened("com.android.chrome")
    url_bar = next(view for view in views(chrome.window.frame()) if view.resource_id.endswith(":id/url_bar"))
    assert not url_bar.underline
    for underline in (True, False):
        editor = column(View(kind="edit", hint="Name", width=600, height=126, padding=24, underline=underline))
        layout(editor, 0, 0, 600, 126)
        drawn = Renderer(600, 126).render({"w": (editor, WHITE)})
        assert (tuple(int(c) for c in drawn[126 - 12, 300]) != WHITE) is underline  # the default background's line
