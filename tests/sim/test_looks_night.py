"""The dark theme as the apps draw it: text on a brand-coloured bar keeps its colour (Contacts' white title), and
Simple-Commons' translucent letter circles show over the dark window, not over white."""

from __future__ import annotations

import pytest
from lxml import etree
from ui_nodes import colours, gallery_rename_dialog, tap

from android_gym.sim.apps.commons import COLOR_PRIMARY, DIALOG_BACKGROUND, NIGHT_TEXT_COLOR, TEXT_COLOR, faded
from android_gym.sim.apps.commons import NIGHT_COLORS as COMMONS_NIGHT
from android_gym.sim.apps.commons import PRIMARY as COMMONS_PRIMARY
from android_gym.sim.apps.contacts import NIGHT_COLORS as CONTACTS_NIGHT
from android_gym.sim.apps.contacts import PRIMARY as CONTACTS_PRIMARY
from android_gym.sim.apps.sms import _LETTER_BACKGROUNDS, _LETTER_COLORS
from android_gym.sim.apps.sms import NIGHT_COLORS as SMS_NIGHT
from android_gym.sim.framework.looks import MATERIAL_COMPONENTS_NIGHT, MATERIAL_YOU_NIGHT, recolor
from android_gym.sim.phone import Phone
from android_gym.sim.ui.letter_tiles import letter_tile
from android_gym.sim.ui.views import PRIMARY, TEXT, TEXT_SECONDARY, WHITE, View, column, fab, over, text_view, toolbar


def frame_views(phone: Phone) -> list[View]:
    return [view for window in phone.window.frame().windows() for view in window.walk()]


def test_text_on_a_surface_that_stays_dark_keeps_its_colour() -> None:
    """A brand-coloured bar (kept, or only lightened) keeps its white title; text on the window turns light; on
    Material You's primary, which turns light, white text turns dark."""
    brand = (0x2A, 0x56, 0xC6)
    kept_bar, on_window = toolbar("Kept", background=brand), text_view("Body", text_color=TEXT)
    button = fab("Add", "plus", lambda: None)  # white on PRIMARY
    root = column(kept_bar, on_window, button)
    recolor(root, MATERIAL_YOU_NIGHT)
    assert (kept_bar.background, kept_bar.children[0].text_color) == (brand, WHITE)
    assert on_window.text_color == MATERIAL_YOU_NIGHT[TEXT]
    assert (button.background, button.text_color) == (MATERIAL_YOU_NIGHT[PRIMARY], MATERIAL_YOU_NIGHT[WHITE])
    shaded = toolbar("Shaded", background=brand)
    recolor(shaded, {**MATERIAL_COMPONENTS_NIGHT, brand: (0x38, 0x72, 0xD7)})
    assert (shaded.background, shaded.children[0].text_color) == ((0x38, 0x72, 0xD7), WHITE)


def test_contacts_dark_theme_has_a_lighter_bar_with_its_white_title() -> None:
    """res/values-night: primary_color #3872D7; the action bar's title stays white."""
    phone = Phone()
    phone.run("cmd uimode night yes")
    phone.run("monkey -p com.google.android.contacts -c android.intent.category.LAUNCHER 1")
    bar = next(view for view in frame_views(phone) if view.resource_id.endswith(":id/toolbar"))
    title = bar.children[0]
    assert (bar.background, title.text_color) == (CONTACTS_NIGHT[CONTACTS_PRIMARY], WHITE)
    x1, y1, x2, y2 = title.bounds
    pixels = colours(phone.screenshot()[y1:y2, x1:x2])
    assert WHITE in pixels and MATERIAL_YOU_NIGHT[WHITE] not in pixels


def test_a_translucent_letter_circle_shows_over_the_night_background() -> None:
    """letterBackgroundColors are 80 % opaque: over white by day, over the dark window by night; the letter
    stays white."""
    color = _LETTER_BACKGROUNDS[0]
    assert over(color, 0.8, WHITE) == _LETTER_COLORS[0]
    tile = letter_tile("V", _LETTER_COLORS[0], 126, 63)
    recolor(column(tile), SMS_NIGHT)
    night = over(color, 0.8, MATERIAL_YOU_NIGHT[WHITE])
    assert (tile.background, tile.text_color) == (night, WHITE)
    assert sum(night) < sum(_LETTER_COLORS[0])  # darker than the day's


def test_sms_messenger_draws_its_letter_circles_over_the_dark_window() -> None:
    phone = Phone()
    phone.telephony.deliver_sms("+12025550123", "Dinner at eight")
    phone.run("cmd uimode night yes")
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    image = next(view for view in frame_views(phone) if view.resource_id.endswith(":id/conversation_image"))
    assert image.background in {over(c, 0.8, MATERIAL_YOU_NIGHT[WHITE]) for c in _LETTER_BACKGROUNDS}
    x1, y1, x2, y2 = image.bounds
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    assert tuple(int(c) for c in phone.screenshot()[y1 + 8, cx]) == image.background
    assert tuple(int(c) for c in phone.screenshot()[cy, x1 + 8]) == image.background


@pytest.mark.parametrize("night", [False, True])
@pytest.mark.parametrize("package, fab_id", [("com.simplemobiletools.smsmessenger", "conversations_fab"),
                                             ("com.simplemobiletools.calendar.pro", "calendar_fab")])
def test_simple_apps_fabs_take_the_system_themes_primary_by_day_and_by_night(package: str, fab_id: str,
                                                                              night: bool) -> None:
    """On Android 13 the Simple apps follow the system theme (``isUsingSystemTheme`` defaults to ``isSPlus()``): the
    FAB is ``you_primary_color``, ``system_accent1_400`` in both themes, not ``color_primary``'s orange, with white on
    it (``getContrastColor``); the search bar is it at a quarter alpha over the window."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    views = frame_views(phone)
    button = next(view for view in views if view.resource_id == f"{package}:id/{fab_id}")
    assert button.background == COMMONS_PRIMARY != COLOR_PRIMARY and button.text_color == WHITE
    window = COMMONS_NIGHT[WHITE] if night else WHITE
    holder = next(view for view in views if view.resource_id == f"{package}:id/top_toolbar_holder")
    assert holder.background == over(COMMONS_PRIMARY, 0.25, window)
    x1, y1, x2, y2 = button.bounds
    assert tuple(phone.screenshot()[(y1 + y2) // 2, x1 + 30]) == COMMONS_PRIMARY  # inside the round button


def test_simple_calendars_regular_event_type_takes_the_primary_colour_its_events_are_drawn_in() -> None:
    """``EventsDatabase`` makes the regular event type with ``getProperPrimaryColor()``; MonthView draws an event in
    its type's colour."""
    phone = Phone()
    phone.run("monkey -p com.simplemobiletools.calendar.pro -c android.intent.category.LAUNCHER 1")
    db = "/data/data/com.simplemobiletools.calendar.pro/databases/events.db"
    color = int(phone.run(f"sqlite3 {db} 'SELECT color FROM event_types WHERE id = 1'").stdout)
    assert ((color >> 16) & 255, (color >> 8) & 255, color & 255) == COMMONS_PRIMARY


@pytest.mark.parametrize("night, bar, ink", [(False, (0xEC, 0xF3, 0xFE), (0x33, 0x33, 0x33)),
                                             (True, (40, 48, 65), WHITE)])
def test_simple_draws_toolbar_is_the_system_themes_top_bar(night: bool, bar: tuple, ink: tuple) -> None:
    """``setupToolbar`` colours Simple Draw's toolbar (and the status bar) ``you_status_bar_color``:
    ``system_accent1_50`` by day, ``system_accent2_800`` by night, its actions in the contrasting colour."""
    frame = _frame_after("monkey -p com.simplemobiletools.draw.pro -c android.intent.category.LAUNCHER 1", night)
    toolbar_view = next(v for v in frame.app.walk() if v.resource_id.endswith(":id/main_toolbar"))
    assert toolbar_view.background == bar == frame.status_bar.background
    assert {v.text_color for v in toolbar_view.children if v.kind == "icon"} == {ink}


@pytest.mark.parametrize("night", [False, True])
def test_simple_draws_tools_take_the_white_canvass_contrast_colour_by_day_and_by_night(night: bool) -> None:
    """The canvas stays white by night (``canvasBackgroundColor``), and the tools over it stay ``DARK_GREY``
    (``setBackgroundColor``: its contrast colour), not the night's light text colour, invisible on white; the eraser
    on is the primary colour (``updateButtonColor``)."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run("monkey -p com.simplemobiletools.draw.pro -c android.intent.category.LAUNCHER 1")
    phone.swipe(200, 900, 900, 1000, 300)

    def tool(name: str) -> View:
        return next(v for v in phone.window.frame().app.walk() if v.resource_id.endswith(f":id/{name}"))

    def inks(view: View) -> set[tuple[int, ...]]:
        x1, y1, x2, y2 = view.bounds
        return colours(phone.screenshot()[y1:y2, x1:x2])

    for name in ("eraser", "undo", "bucket_fill", "eye_dropper"):
        assert tool(name).text_color == (0x33, 0x33, 0x33)
        assert {WHITE, (0x33, 0x33, 0x33)} <= inks(tool(name))
    phone.tap(*map(lambda a, b: (a + b) // 2, tool("eraser").bounds[:2], tool("eraser").bounds[2:]))
    eraser = tool("eraser")
    assert (eraser.text_color, eraser.background) == (COMMONS_PRIMARY, None)
    assert {WHITE, COMMONS_PRIMARY} <= inks(eraser)


@pytest.mark.parametrize("night", [False, True])
def test_sms_messengers_thread_toolbar_is_the_window_colour_with_its_contrast_ink(night: bool) -> None:
    """``ThreadActivity``: ``setupToolbar(threadToolbar, statusBarColor = getProperBackgroundColor())``, the toolbar
    and the status bar in the window's colour, the title and back arrow in ``DARK_GREY`` (white by night), not a
    brand-coloured app bar."""
    frame = _frame_after("am start -a android.intent.action.SENDTO -d sms:+15551234567", night)
    bar = next(v for v in frame.app.walk() if v.resource_id.endswith(":id/thread_toolbar"))
    window = COMMONS_NIGHT[WHITE] if night else WHITE
    assert (bar.background or window) == frame.status_bar.background == window
    assert {v.text_color for v in bar.walk() if v.kind in ("icon", "text")} == {WHITE if night else (51, 51, 51)}


@pytest.mark.parametrize("night", [False, True])
def test_sms_messengers_bubbles_are_the_primary_and_activated_grey(night: bool) -> None:
    """``ThreadAdapter``: a sent message on item_sent_background tinted with the primary colour in its contrast
    (white), a received one on item_received_background (activated_item_foreground over the window) in the text
    colour."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run("content insert --uri content://sms/inbox --bind address:s:5551234 --bind body:s:Lunch --bind read:i:1")
    phone.run("content insert --uri content://sms/sent --bind address:s:5551234 --bind body:s:Noon --bind read:i:1")
    phone.run("am start -a android.intent.action.SENDTO -d sms:5551234")
    bodies = {v.text: v for v in phone.window.frame().app.walk() if v.resource_id.endswith(":id/thread_message_body")}
    window = COMMONS_NIGHT[WHITE] if night else WHITE
    grey = over((0x88, 0x88, 0x88), 0x44 / 255, window)
    assert (bodies["Noon"].background, bodies["Noon"].text_color) == (COMMONS_PRIMARY, WHITE)
    assert bodies["Lunch"].background == grey
    assert bodies["Lunch"].text_color == (NIGHT_TEXT_COLOR if night else TEXT_COLOR)


@pytest.mark.parametrize("night, ink", [(False, (0x04, 0x1E, 0x49)), (True, (0xFA, 0xFB, 0xFF))])
@pytest.mark.parametrize("package", ["com.simplemobiletools.smsmessenger", "com.simplemobiletools.calendar.pro"])
def test_simple_apps_text_is_the_system_themes_neutral_text_colour(night: bool, ink: tuple, package: str) -> None:
    """``getProperTextColor`` with the system theme: ``you_neutral_text_color``, ``system_accent1_900`` by day and
    ``system_accent1_10`` by night, not Material's near-black or light grey; drawn so."""
    phone = Phone()
    phone.telephony.deliver_sms("+12025550123", "Dinner at eight")
    if night:
        phone.run("cmd uimode night yes")
    phone.run(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
    texts = [v for v in phone.window.frame().app.walk() if v.kind in ("text", "label") and (v.text or v.hint)]
    assert texts and TEXT not in {v.text_color for v in texts} and ink in {v.text_color for v in texts}
    shown = next(v for v in texts if v.text_color == ink)
    x1, y1, x2, y2 = shown.bounds
    assert (phone.screenshot()[y1:y2, x1:x2] == ink).all(axis=2).any()


def _frame_after(command: str, night: bool):
    """The frame a new phone shows after ``command``, by night or by day."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run(command)
    return phone.window.frame()


@pytest.mark.parametrize("night, surface, ink", [(False, DIALOG_BACKGROUND, TEXT_COLOR),
                                                 (True, (40, 48, 65), NIGHT_TEXT_COLOR)])
def test_simple_apps_dialogs_are_on_the_system_themes_dialog_surface(night: bool, surface: tuple, ink: tuple) -> None:
    """A Simple app's dialog (Simple Draw's "Save as") is a MaterialAlertDialog on you_dialog_background_color:
    system_accent2_50 by day, system_accent2_800 by night, its title in the theme's text colour; its borderless
    buttons show the dialog's surface, not a white patch, their text in the app's primary colour (setupDialogStuff),
    not Material's."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run("monkey -p com.simplemobiletools.draw.pro -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="Save")
    by_id = {view.resource_id: view for view in frame_views(phone)}
    title, ok = by_id["com.simplemobiletools.draw.pro:id/alertTitle"], by_id["android:id/button1"]
    pixels = phone.screenshot()
    dialog = next(view for view in frame_views(phone) if title in view.children)
    assert (dialog.background, title.text_color) == (surface, ink)
    assert tuple(pixels[ok.bounds[1] + 4, ok.bounds[0] + 4]) == surface
    assert ok.text_color == COMMONS_PRIMARY


@pytest.mark.parametrize("night", [False, True])
def test_sms_messengers_dates_and_read_snippets_are_its_text_colour_made_translucent(night: bool) -> None:
    """item_conversation.xml draws the date at alpha 0.4 and BaseConversationsAdapter a read conversation's snippet
    at 0.7, both in getProperTextColor: over the window by day and by night, not Material's grey."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run("content insert --uri content://sms/inbox --bind address:s:5551234 --bind body:s:Lunch --bind read:i:1")
    phone.run("monkey -p com.simplemobiletools.smsmessenger -c android.intent.category.LAUNCHER 1")
    by_id = {view.resource_id.rsplit("/", 1)[-1]: view for view in frame_views(phone)}
    ink, window = (NIGHT_TEXT_COLOR, MATERIAL_YOU_NIGHT[WHITE]) if night else (TEXT_COLOR, WHITE)
    assert by_id["conversation_date"].text_color == over(ink, 0.4, window)
    assert by_id["conversation_body_short"].text_color == over(ink, 0.7, window)


@pytest.mark.parametrize("night", [False, True])
def test_simple_calendars_month_draws_other_months_days_and_weekday_letters_in_its_text_colour(night: bool) -> None:
    """MonthView: the weekday letters in the text colour (today's in the primary colour), a day of another month in
    the text colour at MEDIUM_ALPHA (0.5) over the window; not Material's grey."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run("monkey -p com.simplemobiletools.calendar.pro -c android.intent.category.LAUNCHER 1")
    shown = frame_views(phone)
    ink, window = (NIGHT_TEXT_COLOR, MATERIAL_YOU_NIGHT[WHITE]) if night else (TEXT_COLOR, WHITE)
    first_24, second_24 = [view for view in shown if view.hint == "24"][:2]  # September's, then October's (2023)
    assert (first_24.text_color, second_24.text_color) == (over(ink, 0.5, window), ink)
    assert next(view for view in shown if view.hint == "M").text_color == ink


@pytest.mark.parametrize("night", [False, True])
def test_simple_calendars_faint_text_is_its_text_colour_made_translucent(night: bool) -> None:
    """The event form's unset second reminder ("Add another reminder", alpha 0.4: updateReminder2Text) and its
    fields' hints (MyEditText: the text colour at MEDIUM_ALPHA) are the theme's text colour over the window, not
    Material's grey; the pixels show them."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run("monkey -p com.simplemobiletools.calendar.pro -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id="com.simplemobiletools.calendar.pro:id/calendar_fab")
    tap(phone, resource_id="com.simplemobiletools.calendar.pro:id/calendar_fab")
    text, window = (NIGHT_TEXT_COLOR, COMMONS_NIGHT[WHITE]) if night else (TEXT_COLOR, WHITE)
    by_id = {view.resource_id: view for view in frame_views(phone)}
    reminder = by_id["com.simplemobiletools.calendar.pro:id/event_reminder_2"]
    assert reminder.text == "Add another reminder" and reminder.text_color == over(text, 0.4, window)
    x1, y1, x2, y2 = by_id["com.simplemobiletools.calendar.pro:id/event_location"].bounds  # the hint's pixels
    inks = colours(phone.screenshot()[y1:y2, x1:x2])
    assert over(text, 0.5, window) in inks
    assert TEXT_SECONDARY not in inks and MATERIAL_YOU_NIGHT[TEXT_SECONDARY] not in inks


@pytest.mark.parametrize("night", [False, True])
def test_simple_calendars_fields_are_underlined_in_the_primary_colour_with_or_without_focus(night: bool) -> None:
    """MyEditText.setColors filters its background with the primary colour: the focused title's line and the
    unfocused location's are both it (the focused one thicker), by day and by night; the dump shows the fields as
    before, with no node for the lines."""
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run("monkey -p com.simplemobiletools.calendar.pro -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id="com.simplemobiletools.calendar.pro:id/calendar_fab")
    tap(phone, resource_id="com.simplemobiletools.calendar.pro:id/calendar_fab")
    by_id = {view.resource_id: view for view in frame_views(phone)}
    pixels = phone.screenshot()
    for name, thickness in (("event_title", 4), ("event_location", 2)):
        x1, y1, x2, y2 = by_id[f"com.simplemobiletools.calendar.pro:id/{name}"].bounds
        column = [tuple(pixel) for pixel in pixels[y2 - 20:y2, (x1 + x2) // 2]]
        assert column.count(COMMONS_PRIMARY) == thickness
    tree = etree.fromstring(phone.ui_dump().encode())
    title, location = (tree.find(f".//node[@resource-id='com.simplemobiletools.calendar.pro:id/{name}']")
                       for name in ("event_title", "event_location"))
    assert title.getparent() is location.getparent() and len(title) == len(location) == 0


@pytest.mark.parametrize("night", [False, True])
def test_commons_fields_hints_and_lines_are_the_text_colour_made_translucent(night: bool) -> None:
    """SMS Messenger's address field (MyEditText: its hint the text colour at MEDIUM_ALPHA) and Gallery's rename
    dialog (MyTextInputLayout: an unfocused field's outline the text colour at MEDIUM_ALPHA, a focused one's the primary
    colour) by day as by night: the window's theme colours, not Material's grey and blue; the pixels show them."""
    sms = "com.simplemobiletools.smsmessenger"
    window, text = (COMMONS_NIGHT[WHITE], NIGHT_TEXT_COLOR) if night else (WHITE, TEXT_COLOR)
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run(f"monkey -p {sms} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{sms}:id/conversations_fab")
    field = next(view for view in frame_views(phone) if view.resource_id == f"{sms}:id/new_conversation_address")
    x1, y1, x2, y2 = field.bounds
    inks = colours(phone.screenshot()[y1:y2, x1:x2])
    assert field.text == "Add Contact or Number…" and over(text, 0.5, window) in inks and TEXT_SECONDARY not in inks
    phone = gallery_rename_dialog(night)
    by_id = {view.resource_id.rsplit("/", 1)[-1]: view for view in frame_views(phone)}
    pixels = phone.screenshot()
    faint = COMMONS_NIGHT[faded(0.5)] if night else faded(0.5)  # MEDIUM_ALPHA
    for name, line in (("rename_item_name", COMMONS_PRIMARY), ("rename_item_extension", faint)):
        x1, y1, x2, y2 = by_id[name].bounds
        column = colours(pixels[y2 - 20:y2, (x1 + x2) // 2])
        assert line in column and PRIMARY not in column and TEXT_SECONDARY not in column


@pytest.mark.parametrize("night", [False, True])
def test_commons_unchecked_box_is_the_text_colour_at_0_6(night: bool) -> None:
    """MyAppCompatCheckbox.setColors: an unchecked box outlined in the text colour at 0.6 (Calendar's All-day), not
    at MEDIUM_ALPHA like a hint nor Material's grey, by day and by night; checked, the primary colour."""
    calendar = "com.simplemobiletools.calendar.pro"
    phone = Phone()
    phone.run(f"cmd uimode night {'yes' if night else 'no'}")
    phone.run(f"monkey -p {calendar} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{calendar}:id/calendar_fab")
    tap(phone, resource_id=f"{calendar}:id/calendar_fab")
    outline = COMMONS_NIGHT[faded(0.6)] if night else faded(0.6)
    for checked, ink in ((False, outline), (True, COMMONS_PRIMARY)):
        box = next(view for view in frame_views(phone) if view.resource_id == f"{calendar}:id/event_all_day")
        assert box.checked is checked
        x1, y1, x2, y2 = box.bounds
        inks = colours(phone.screenshot()[y1:y2, x2 - 150:x2])
        assert ink in inks and (checked or COMMONS_NIGHT[faded(0.5)] not in inks and faded(0.5) not in inks)
        tap(phone, resource_id=f"{calendar}:id/event_all_day_holder")


@pytest.mark.parametrize("night, background, ink", [(False, (46, 125, 50), WHITE), (True, (165, 214, 167), (0, 0, 0))])
def test_broccolis_fab_is_the_secondary_colour_with_its_on_secondary_icon(night: bool, background: tuple,
                                                                           ink: tuple) -> None:
    """Broccoli's FAB is Material's: colorSecondary (green_800 by day, green_200 by night) behind its icon in
    colorOnSecondary, which the theme sets to colorOnPrimary: white by day, MaterialComponents' dark
    ``design_dark_default_color_on_primary`` (black) by night, not the night window's surface."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run("monkey -p com.flauschcode.broccoli -c android.intent.category.LAUNCHER 1")
    button = next(view for view in frame_views(phone) if view.resource_id == "com.flauschcode.broccoli:id/fab_recipes")
    x, y = (button.bounds[0] + button.bounds[2]) // 2, (button.bounds[1] + button.bounds[3]) // 2
    inside = colours(phone.screenshot()[y - 20:y + 20, x - 20:x + 20])
    assert background in inside and ink in inside


@pytest.mark.parametrize("night, surface, ink, icon, system_bars", [
    (False, (0xFE, 0xF7, 0xFF), (0x1D, 0x1B, 0x20), (0x49, 0x45, 0x4F), ((0xFE, 0xF7, 0xFF), (0xF3, 0xED, 0xF7))),
    (True, (0x14, 0x12, 0x18), (0xE6, 0xE0, 0xE9), (0xCA, 0xC4, 0xD0), ((0, 0, 0), (0, 0, 0)))])
def test_opentracks_list_is_on_material_3s_baseline_surfaces(night: bool, surface: tuple, ink: tuple, icon: tuple,
                                                              system_bars: tuple) -> None:
    """OpenTracksTheme is Theme.Material3.DayNight (dynamic colours off by default): the window and toolbar are
    colorSurface, names colorOnSurface, the activity icons colorControlNormal (colorOnSurfaceVariant), the toolbar's
    logo the orange arrow; the status bar colorSurfaceBright and the navigation bar colorSurfaceContainer by day,
    ``oled_friendly`` black by night."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run("sqlite3 /data/data/de.dennisguse.opentracks/databases/database.db \"INSERT INTO tracks "
              "(name, starttime, stoptime, totaltime, totaldistance, activity_type) "
              "VALUES ('Jogging', 1700000000000, 1700003600000, 3600000, 5000, 'running')\"")
    phone.run("monkey -p de.dennisguse.opentracks -c android.intent.category.LAUNCHER 1")
    frame = phone.window.frame()
    by_id = {view.resource_id.rsplit("/", 1)[-1]: view for view in frame.app.walk() if view.resource_id}
    pixels = phone.screenshot()
    x1, y1, x2, y2 = by_id["track_list_toolbar"].bounds
    assert tuple(pixels[y1 + 5, (x1 + x2) // 2]) == surface
    assert colours(pixels[y1:y2, x1:x1 + 147]) >= {(255, 109, 0)}  # the logo
    assert by_id["track_list_item_name"].text_color == ink
    x1, y1, x2, y2 = by_id["track_list_item_icon"].bounds
    assert icon in colours(pixels[y1:y2, x1:x2])
    assert (tuple(frame.status_bar.background), tuple(frame.nav_bar.background)) == system_bars  # roles' RGB


@pytest.mark.parametrize("night, card", [(False, WHITE), (True, (34, 34, 34))])
def test_broccolis_recipe_cards_are_raised_surfaces(night: bool, card: tuple) -> None:
    """recipe_item is a MaterialCardView: colorSurface (white by day; #121212 lifted by its 2 dp elevation's overlay
    by night), 4 dp corners, a 2 dp shadow."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run("sqlite3 /data/data/com.flauschcode.broccoli/databases/broccoli \"INSERT INTO recipes (title, "
              "favorite) VALUES ('Soup', 0)\"")
    phone.run("monkey -p com.flauschcode.broccoli -c android.intent.category.LAUNCHER 1")
    view = next(view for view in frame_views(phone) if view.class_name == "androidx.cardview.widget.CardView")
    assert (view.corner, view.elevation) == (10, 5)
    x1, y1, x2, y2 = view.bounds
    pixels = phone.screenshot()
    assert tuple(pixels[y2 - 20, x2 - 20]) == card
    assert tuple(pixels[y2 + 2, (x1 + x2) // 2]) != tuple(pixels[y2 + 15, (x1 + x2) // 2])  # its shadow below it
