"""The simulated phone's Material look: Roboto text, icons from the icon font by name, a status bar that follows
the app under it, and pixels that stay the same for the same state."""

from __future__ import annotations

import io
import pickle

import numpy as np
import pytest
from PIL import Image
from ui_nodes import center, colours, find, nodes, opened, tap, views

from android_gym.sim import keycodes
from android_gym.sim.apps.commons import NIGHT_COLORS as COMMONS_NIGHT_COLORS
from android_gym.sim.framework.looks import retint
from android_gym.sim.framework.window import STATUS_BAR_HEIGHT
from android_gym.sim.phone import Phone
from android_gym.sim.ui.icons import NAMES, icon_mask
from android_gym.sim.ui.layout import font, font_runs, layout, text_width, wrap
from android_gym.sim.ui.render import Renderer, _text_mask, dimmed
from android_gym.sim.ui.views import FIELD_ICON, FIELD_LABEL, TEXT, TOP_CORNERS, WHITE, View, column

PACKAGES = [app.package for app in Phone().packages.launchable()]


def test_text_is_roboto_and_bold_text_is_wider() -> None:
    assert font(42).getname()[0] == "Roboto"
    assert font(42, bold=True).getlength("Settings") > font(42).getlength("Settings")  # Medium, not Regular
    assert font(42) is font(42)  # opened once per size


def test_characters_roboto_lacks_are_drawn_in_noto_sans_cjk() -> None:
    assert font_runs("¯\\_(ツ)_/¯") == (("¯\\_(", False), ("ツ", True), (")_/¯", False))
    assert font_runs("Mail") == (("Mail", False),)
    box = _text_mask("\U0010ffff", 42, False).tobytes()  # Roboto's .notdef: what a missing glyph looked like
    assert _text_mask("ツ", 42, False).tobytes() != box
    for text in ("田中 太郎", "김민준 Kim", "¯\\_(ツ)_/¯"):  # measuring agrees with drawing
        assert _text_mask(text, 42, False).width == pytest.approx(text_width(text, 42), abs=3)
    assert all(text_width(line, 42) <= 300 for line in wrap("日本語のテキスト" * 4, 42, 300))


@pytest.mark.parametrize("package", [None, *PACKAGES])
def test_every_icon_on_a_main_screen_has_a_glyph(package: str | None) -> None:
    phone = Phone() if package is None else opened(package)
    icons = [view for view in views(phone.window.frame())
             if view.kind in ("icon", "fab", "app_icon", "dock_icon") and view.hint]
    assert icons
    assert {view.hint for view in icons} <= NAMES


def test_an_icon_name_without_a_glyph_is_refused_not_drawn_as_a_dot() -> None:
    """Drawing an unmapped name raises, so no screen the catalogue's oracles reach shows a placeholder: every task's
    oracle episode is drawn by ``tests/test_env.py``'s task checks. A view asks for ``"dot"`` where the real app
    draws a dot."""
    with pytest.raises(ValueError, match="no icon named 'start'"):
        icon_mask("start", 63)
    assert "start" not in NAMES and "dot" in NAMES
    dot = np.asarray(icon_mask("dot", 63))
    assert dot.any() and not dot[:, :16].any()  # a small dot in the middle of its box


def test_icons_are_distinct_glyphs() -> None:
    masks = {name: icon_mask(name, 63).tobytes() for name in ("wifi", "bt", "signal", "battery_full", "plus",
                                                               "search", "more", "arrow_back", "nav_back")}
    assert len(set(masks.values())) == len(masks)
    assert all(any(mask) for mask in masks.values())


def test_status_bar_icons_say_what_they_show_and_follow_the_app_under_them() -> None:
    home = Phone().window.frame().status_bar
    descriptions = [view.content_desc for view in home.walk() if view.kind == "icon"]
    assert descriptions == ["Bluetooth on", "Wifi signal full.", "Phone signal full.", "Battery 100 percent."]
    assert {view.text_color for view in home.walk() if view.kind == "icon"} == {TEXT}  # dark on a light app
    dark = opened("com.arduia.expense").window.frame().status_bar
    assert {view.text_color for view in dark.walk() if view.kind == "icon"} == {WHITE}  # light on a dark one
    assert dark.background != home.background


def test_a_dialogs_dim_goes_on_under_the_status_bar() -> None:
    """The dim behind a dialog covers the app's window up to the top of the screen: the status bar shows the app's
    colour dimmed as the app is, its icons unchanged."""
    package = "com.simplemobiletools.smsmessenger"
    app = opened(package)
    before = app.window.frame().status_bar
    phone = Phone()
    phone.run(f"pm revoke {package} android.permission.POST_NOTIFICATIONS")  # it asks at launch, over its window
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    status = phone.window.frame().status_bar
    assert status.background == dimmed(before.background) != before.background
    pixels = phone.screenshot()
    assert tuple(pixels[5, 540]) == tuple(pixels[STATUS_BAR_HEIGHT + 5, 540]) == status.background
    assert [view.text_color for view in status.walk() if view.kind == "icon"] == [
        view.text_color for view in before.walk() if view.kind == "icon"]


def _share_from_markor() -> tuple[View, Phone]:
    """A phone with Markor's note shared as plain text (the share sheet over the editor), and the editor's status
    bar before it."""
    phone = opened("net.gsantner.markor")
    phone.run("mkdir -p /sdcard/Documents/Markor && echo 'Meet at noon' > /sdcard/Documents/Markor/s.md")
    phone.key(keycodes.BACK)
    phone.run("monkey -p net.gsantner.markor -c android.intent.category.LAUNCHER 1")
    tap(phone, text="s.md")
    editor = phone.window.frame().status_bar
    for step in ({"content_desc": "More options"}, {"text": "Share"}, {"text": "Plain Text"}):
        tap(phone, **step)
    assert phone.activities.foreground()[0] == "com.android.intentresolver"
    return editor, phone


def test_the_share_sheets_dim_goes_on_under_the_status_bar() -> None:
    """The share sheet's window is translucent: the status bar shows the colour of the activity under it (Markor's
    editor), dimmed as that activity is, not the dimmed white of the sheet's own window."""
    editor, phone = _share_from_markor()
    status = phone.window.frame().status_bar
    assert status.background == dimmed(editor.background) != dimmed(WHITE)
    pixels = phone.screenshot()
    assert tuple(pixels[5, 540]) == status.background


@pytest.mark.parametrize("translucent", ["share sheet", "permission prompt"])
def test_a_translucent_activity_dumps_its_own_window_alone(translucent: str) -> None:
    """The share sheet and the permission prompt show the app under them through their translucent windows, in the
    pixels only: uiautomator dumps the active window, whose nodes all belong to the prompt's or the sheet's package."""
    if translucent == "share sheet":
        phone, under = _share_from_markor()[1], "net.gsantner.markor"
    else:
        under = "com.simplemobiletools.smsmessenger"
        phone = Phone()
        phone.run(f"pm revoke {under} android.permission.POST_NOTIFICATIONS")
        phone.run(f"monkey -p {under} -c android.intent.category.LAUNCHER 1")
    top = phone.activities.foreground()[0]
    assert top != under
    dumped = nodes(phone)
    assert {node.get("package") for node in dumped} == {top}
    assert not any(under in (node.get("resource-id") or "") for node in dumped)


def test_the_internet_dialog_dims_the_quick_settings_under_it_and_draws_its_network_icons() -> None:
    """SystemUI's Internet dialog goes over the quick settings panel, which shows dimmed around it (not a flat grey)
    in the pixels only: the dump is the dialog's window. Its connected network shows the Wi-Fi signal and the
    settings gear in the connected colour; a touch outside the dialog closes it."""
    phone = Phone()
    phone.swipe(540, 10, 540, 1500, 300)
    panel = phone.screenshot().copy()
    tile = next(v for v in phone.window.frame().shade.walk() if v.content_desc == "Internet,AndroidWifi").bounds
    tap(phone, content_desc="Internet,AndroidWifi")
    pixels = phone.screenshot()
    x, y = tile[0] + 8, (tile[1] + tile[3]) // 2  # inside the tile, left of its icon
    assert tuple(pixels[y, x]) == dimmed(tuple(panel[y, x])) != dimmed(tuple(panel[5, 540]))
    assert not np.array_equal(pixels[:tile[3]], np.broadcast_to(pixels[5, 540], pixels[:tile[3]].shape))
    dumped = nodes(phone)
    assert not any("tile_label" in (node.get("resource-id") or "") for node in dumped)
    icons = {v.resource_id.split("/")[-1]: v for v in phone.window.frame().shade.walk() if v.kind == "icon"}
    assert {name: (v.hint, v.text_color) for name, v in icons.items()} == {
        "signal_icon": ("signal", TEXT),
        "wifi_connected_icon": ("wifi_signal", (4, 30, 73)), "wifi_settings_icon": ("settings_filled", (4, 30, 73))}
    x1, y1, x2, y2 = icons["wifi_connected_icon"].bounds
    assert (pixels[y1:y2, x1:x2] == (4, 30, 73)).all(axis=2).any()  # drawn in its colour
    phone.tap(540, 2200)  # on the dim below the dialog
    assert phone.window.shade.expanded and not phone.window.shade.internet_dialog


def test_the_internet_dialog_lists_the_sims_network_with_its_mobile_data_switch() -> None:
    """The emulator's SIM above the Wi-Fi switch (``mobile_network_layout``): T-Mobile over the network type while
    Wi-Fi carries the data, "Connected / LTE" on the connected colour when Wi-Fi is off; its switch turns mobile data
    off and on; in airplane mode the row is gone."""
    phone = Phone()
    phone.swipe(540, 10, 540, 1500, 300)
    tap(phone, content_desc="Internet,AndroidWifi")

    def text(name: str) -> str | None:
        return next((n.get("text") for n in nodes(phone) if n.get("resource-id") == f"com.android.systemui:id/{name}"),
                    None)

    assert (text("mobile_title"), text("mobile_summary")) == ("T-Mobile", "LTE")
    mobile, wifi = (center(find(phone, **{"resource-id": f"com.android.systemui:id/{name}"}))
                    for name in ("mobile_network_layout", "turn_on_wifi_layout"))
    assert mobile[1] < wifi[1]  # above the Wi-Fi switch
    tap(phone, content_desc="Mobile data")
    assert phone.settings.get("global", "mobile_data") == "0"
    assert text("mobile_summary") == "Mobile data won\u2019t auto\u2011connect"
    tap(phone, content_desc="Mobile data")
    tap(phone, content_desc="Wi‑Fi")
    assert phone.settings.get("global", "mobile_data") == "1" and text("mobile_summary") == "Connected / LTE"
    row = next(v for v in phone.window.frame().shade.walk() if v.resource_id.endswith(":id/mobile_network_layout"))
    x1, y1, x2, y2 = row.bounds
    assert tuple(phone.screenshot()[y1 + 30, (x1 + x2) // 2]) == (211, 227, 253)  # settingslib_switch_bar_bg_on
    phone.run("cmd connectivity airplane-mode enable")
    assert text("mobile_title") is None


def test_navigation_buttons_keep_their_descriptions() -> None:
    nav = Phone().window.frame().nav_bar
    assert [view.content_desc for view in nav.walk() if view.clickable] == ["Back", "Home", "Overview"]


@pytest.mark.parametrize("overlay", ["threebutton", "gestural"])
@pytest.mark.parametrize("night", ["no", "yes"])
def test_the_home_screen_shows_its_wallpaper_behind_the_navigation_bar(overlay: str, night: str) -> None:
    """Launcher3's navigation bar is transparent over the wallpaper, its ink dark over the light wallpaper in either
    theme; an app's is the system's own bar."""
    phone = Phone()
    phone.run(f"cmd overlay enable-exclusive com.android.internal.systemui.navbar.{overlay}")
    phone.run(f"cmd uimode night {night}")
    f = phone.window.frame()
    wallpaper = f.app.children[0].children[0].background  # the launcher's root, on the wallpaper
    pixels = phone.screenshot()
    bar = pixels[f.nav_bar.bounds[1]:]
    assert f.nav_bar.background == wallpaper
    assert (bar == wallpaper).all(axis=2).mean() > 0.9  # the wallpaper, but for the buttons or the handle
    ink = bar[(bar != wallpaper).any(axis=2)]
    assert ink.size and ink.mean() < 128  # dark buttons or handle over the light wallpaper
    phone.swipe(540, 30, 540, 1500, 300)  # the shade, pulled down over the home screen, goes on behind the bar
    shade = phone.window.frame()
    assert shade.shade is not None and shade.nav_bar.background not in (None, wallpaper)
    phone.key(keycodes.HOME)
    phone.run("monkey -p com.arduia.expense -c android.intent.category.LAUNCHER 1")
    assert phone.window.frame().nav_bar.background not in (None, wallpaper)


@pytest.mark.parametrize("night", ["no", "yes"])
def test_simple_apps_colour_the_navigation_bar_as_their_window(night: str) -> None:
    """Simple-Commons' BaseSimpleActivity gives the navigation bar the window's background colour (white, or the dark
    theme's background by night), its buttons contrasting with it; an app that sets no colour keeps the system's."""
    phone = Phone()
    phone.run(f"cmd uimode night {night}")
    window = COMMONS_NIGHT_COLORS[WHITE] if night == "yes" else WHITE
    for package in ("com.simplemobiletools.smsmessenger", "com.simplemobiletools.calendar.pro",
                    "com.simplemobiletools.gallery.pro", "com.simplemobiletools.draw.pro"):
        phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        nav = phone.window.frame().nav_bar
        buttons = {view.text_color for view in nav.walk() if view.kind == "icon"}
        assert nav.background == window and len(buttons) == 1 and buttons != {window}, package
        assert tuple(phone.screenshot()[-1, 5]) == window
    phone.run("monkey -p com.arduia.expense -c android.intent.category.LAUNCHER 1")
    assert phone.window.frame().nav_bar.background != window  # an app that sets none: the system's bar


def test_the_keyboard_goes_on_behind_the_navigation_bar_whose_back_button_hides_it() -> None:
    """While the IME is up the bar shows the keyboard's background, and Back is ic_sysbar_back_ime (an arrow down)."""
    phone = opened("com.simplemobiletools.smsmessenger")
    plain = phone.window.frame().nav_bar
    phone.run("am start -a android.intent.action.SENDTO -d sms:+12025550123")  # the message field has the focus
    f = phone.window.frame()
    assert f.keyboard is not None and f.nav_bar.background == f.keyboard.background != plain.background
    assert [view.hint for view in f.nav_bar.walk() if view.content_desc == "Back"] == ["nav_back_ime"]
    phone.key(keycodes.BACK)  # hides the keyboard
    f = phone.window.frame()
    assert f.keyboard is None and [view.hint for view in f.nav_bar.walk() if view.content_desc == "Back"] == [
        "nav_back"]


def test_keyboard_function_keys_are_icons_described_as_latinime_speaks_them() -> None:
    """LatinIME draws shift, delete and enter as icons and nothing on the space bar of its one subtype; its keys are
    described by its TalkBack strings (Shift, Delete, Return, Space), and what a key shows is what its node says."""
    phone = opened("com.simplemobiletools.smsmessenger")
    phone.run("am start -a android.intent.action.SENDTO -d sms:+12025550123")  # the message field has the focus
    keyboard = phone.window.frame().keyboard
    assert keyboard is not None
    keys = [view for view in keyboard.walk() if view.clickable]
    described = {view.content_desc: view for view in keys}
    assert {"Shift", "Delete", "Return", "Space"} <= described.keys()
    assert not {"shift", "del", "enter", "space"} & described.keys()
    assert [described[name].kind for name in ("Shift", "Delete", "Return")] == ["icon"] * 3
    assert all(view.text == "" for view in described.values() if view.kind == "icon")
    space = described["Space"]
    assert space.text == ""
    x1, y1, x2, y2 = space.bounds
    assert (phone.screenshot()[y1 + 8:y2 - 8, x1 + 24:x2 - 24] == WHITE).all()  # a blank key
    letters = [view for view in keys if view.kind == "button" and view is not space]
    assert letters and all(view.text == view.content_desc and len(view.text) == 1 for view in letters)


def test_the_same_state_gives_the_same_pixels() -> None:
    package = "com.simplemobiletools.smsmessenger"
    assert np.array_equal(opened(package).screenshot(), opened(package).screenshot())


def test_home_is_the_pixel_launcher_with_at_a_glance_a_dock_and_the_search_bar() -> None:
    phone = Phone()
    home = views(phone.window.frame())
    by_id = {view.resource_id.rsplit("/", 1)[-1]: view for view in home if view.resource_id}
    assert by_id["clock"].text == "Sun, Oct 15" and by_id["clock"].bounds[1] < by_id["workspace"].bounds[1]
    dock = [view for view in by_id["hotseat"].walk() if view.kind == "dock_icon"]
    assert [view.text for view in dock] == ["Contacts", "SMS Messenger", "Chrome", "Camera"]  # labels hidden, kept
    search = by_id["search_container_hotseat"]
    assert search.content_desc == "Search" and search.bounds[1] > dock[0].bounds[3]
    assert [view.content_desc for view in search.walk() if view.kind == "icon"] == ["", "Voice search", "Google Lens"]
    x1, y1, x2, y2 = dock[2].bounds
    phone.run(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert phone.activities.foreground()[0] == "com.android.chrome"


def test_tab_labels_are_centred_under_their_icons() -> None:
    for package, label_id in (("net.gsantner.markor", "navigation_bar_item_small_label_view"),
                               ("code.name.monkey.retromusic", "")):
        frame = opened(package).window.frame()
        tabs = [view for view in views(frame) if view.kind == "column" and view.content_desc and view.clickable
                and any(child.kind == "icon" for child in view.children)]
        assert len(tabs) >= 4, package
        for tab in tabs:
            icon, label = tab.children
            assert label.kind == "text" and (not label_id or label.resource_id.endswith(label_id))
            centre = (tab.bounds[0] + tab.bounds[2]) / 2
            assert abs((label.bounds[0] + label.bounds[2]) / 2 - centre) <= 1
            assert abs((icon.bounds[0] + icon.bounds[2]) / 2 - centre) <= 1
            assert label.bounds[2] - label.bounds[0] < tab.bounds[2] - tab.bounds[0]  # wrap_content


def test_cards_of_a_grid_row_are_top_aligned() -> None:
    phone = Phone()
    for name in ("clip_with_a_long_name_that_wraps_to_two_lines.mp4", "short.mp4"):
        phone.run(f"touch /sdcard/Movies/{name}")
    phone.run("monkey -p org.videolan.vlc -c android.intent.category.LAUNCHER 1")
    cards = [view for view in views(phone.window.frame()) if view.content_desc.startswith("Video: ")]
    assert len(cards) == 2 and cards[0].bounds[1] == cards[1].bounds[1] and cards[0].bounds[3] == cards[1].bounds[3]


@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_a_bottom_sheet_rounds_its_top_corners_only(scale: float) -> None:
    """Material's bottom-sheet shape (``cornerSizeTopLeft``/``TopRight`` only): the window shows through the top
    corners, the sheet fills the bottom ones; a card rounds all four."""
    grey, sheet_colour = (120, 120, 120), (250, 250, 250)
    sheet = View(height=300, background=sheet_colour, corner=42, corners=TOP_CORNERS)
    card = View(height=300, background=sheet_colour, corner=42)
    tree = column(View(height=100), sheet, View(height=100), card, View(height=100), background=grey)
    layout(tree, 0, 0, 1080, 900)
    pixels = Renderer(round(1080 * scale), round(900 * scale), scale).render({"w": (tree, grey)})

    def at(x: int, y: int) -> tuple[int, ...]:
        return tuple(int(c) for c in pixels[int(y * scale), int(x * scale)])

    assert at(1, 101) == at(1078, 101) == grey  # the sheet's top corners, cut round
    assert at(1, 398) == at(1078, 398) == sheet_colour  # its bottom corners, square
    assert at(540, 101) == sheet_colour
    assert at(1, 501) == at(1, 798) == at(1078, 798) == grey  # the card's four corners, all round


@pytest.mark.parametrize("package", ["com.simplemobiletools.smsmessenger", "com.simplemobiletools.calendar.pro",
                                     "com.simplemobiletools.gallery.pro"])
def test_simple_apps_search_bar_keeps_activity_margin_at_its_sides(package: str) -> None:
    """Simple-Commons' menu_search.xml: top_app_bar_layout has activity_margin (16 dp, 42 px at 420 dpi) at its
    sides and medium_margin (8 dp) above and below the pill."""
    phone = opened(package)
    holder = next(view for view in phone.window.frame().app.walk()
                  if view.resource_id == f"{package}:id/top_toolbar_holder")
    x1, y1, x2, y2 = holder.bounds
    assert (x1, phone.window.design_width - x2, y1 - STATUS_BAR_HEIGHT, y2 - y1) == (42, 42, 21, 105)


def test_sms_conversation_rows_keep_item_conversations_margins() -> None:
    """item_conversation.xml: the avatar small_margin + normal_margin (16 dp) from the screen's start, the texts
    activity_margin (16 dp) below the row's top."""
    phone = opened("com.simplemobiletools.smsmessenger")
    phone.run("content insert --uri content://sms/inbox --bind address:s:+15551234 --bind body:s:Hi")
    views = {view.resource_id.rpartition("/")[2]: view for view in phone.window.frame().app.walk()}
    row, avatar, address = views["conversation_holder"], views["conversation_image"], views["conversation_address"]
    assert (avatar.bounds[0] - row.bounds[0], address.bounds[1] - row.bounds[1]) == (42, 42)


def test_settings_search_bar_has_android_13s_sizes() -> None:
    """Settings' search_bar.xml and dimens: the card search_bar_margin (16 dp) from the sides, search_bar_height
    (52 dp) tall, its title search_bar_content_inset (56 dp) from its start in 20 sp."""
    phone = opened("com.android.settings")
    views = {view.resource_id: view for view in phone.window.frame().app.walk()}
    bar, title = views["com.android.settings:id/search_action_bar"], views[
        "com.android.settings:id/search_action_bar_title"]
    x1, y1, x2, y2 = bar.bounds
    assert (x1, phone.window.design_width - x2, y2 - y1) == (42, 42, 136)
    assert (title.bounds[0] - x1, title.text_size) == (147, 52)


def test_markors_editor_has_no_edittext_underline() -> None:
    """Markor's ``HighlightingEditor`` has the window's colour for background (``document__fragment__edit.xml``), so
    no EditText underline runs across the screen under the text: the editor's bottom rows are the window's
    @color/background, #EEEEEE."""
    phone = opened("net.gsantner.markor")
    phone.run("mkdir -p /sdcard/Documents/Markor && echo 'Meet at noon' > /sdcard/Documents/Markor/s.md")
    phone.key(keycodes.BACK)
    phone.run("monkey -p net.gsantner.markor -c android.intent.category.LAUNCHER 1")
    tap(phone, text="s.md")
    editor = next(v for v in phone.window.frame().app.walk()
                  if v.resource_id.endswith(":id/document__fragment__edit__highlighting_editor"))
    x1, _, x2, y2 = editor.bounds
    bottom = phone.screenshot()[y2 - 12:y2, x1 + 60:x2 - 60]
    assert (bottom == 0xEE).all()


def test_simple_gallerys_folder_names_sit_on_a_fading_shadow_over_the_cover() -> None:
    """``directory_item_grid_square``: ``dir_shadow_holder``'s ``gradient_background`` (#CC000000 at the bottom,
    transparent at its top, 70 dp tall) over the cover, under the white name and count; no solid block."""
    phone = Phone()
    cover = io.BytesIO()
    Image.new("RGB", (400, 400), WHITE).save(cover, "JPEG")
    phone.fs.write_bytes("/sdcard/DCIM/a.jpg", cover.getvalue())
    phone.run("monkey -p com.simplemobiletools.gallery.pro -c android.intent.category.LAUNCHER 1")
    views = {v.resource_id.split("/")[-1]: v for v in phone.window.frame().app.walk() if v.resource_id}
    x1, y1, x2, y2 = views["dir_shadow_holder"].bounds
    assert y2 == views["dir_thumbnail"].bounds[3] and y2 - y1 == 184
    pixels = phone.screenshot().astype(int)
    column = pixels[y1:y2, x2 - 20, 0]  # right of the texts: white fading to #CC000000's dimming
    assert column[0] >= 250 and abs(column[-1] - 255 * (255 - 0xCC) // 255) <= 3
    assert (np.diff(column) <= 1).all()  # darker all the way down


def test_a_colour_role_is_drawn_as_its_rgb_but_a_palette_maps_it_on_its_own() -> None:
    """``FIELD_ICON`` holds the same RGB as ``FIELD_LABEL`` (MaterialComponents tints both colorOnSurface at 60 %),
    yet a theme that recolours the label (``android:textColorHint``) leaves the icons alone, and one that names the
    icons' role recolours them alone."""
    assert tuple(FIELD_ICON) == FIELD_LABEL and FIELD_ICON != FIELD_LABEL and FIELD_LABEL != FIELD_ICON
    assert pickle.loads(pickle.dumps(FIELD_ICON)) is FIELD_ICON  # a copy is the role itself
    icon, label = View(kind="icon", hint="title", text_color=FIELD_ICON), View(kind="text", text_color=FIELD_LABEL)
    retint(column(icon, label), {FIELD_LABEL: (117, 117, 117)})
    assert icon.text_color is FIELD_ICON and label.text_color == (117, 117, 117)
    retint(column(icon), {FIELD_ICON: (1, 2, 3)})
    assert icon.text_color == (1, 2, 3)
    tree = View(kind="icon", hint="title", text_color=FIELD_ICON, width=63, height=63)
    layout(tree, 0, 0, 63, 63)
    assert FIELD_LABEL in colours(Renderer(63, 63, 1.0).render({"app": (tree, WHITE)}))  # drawn as its RGB
