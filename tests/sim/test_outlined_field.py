"""Material's outlined text field (``views.outlined_field``, a ``TextInputLayout`` in the OutlinedBox style): its
outline, 1 dp in the hint's colour or 2 dp in the primary colour when focused, with 4 dp corners; its label inside
the box while the field is empty and unfocused, floating in a gap cut into the top edge otherwise; and its dump, the
layout around the field's frame around the EditText, the label the EditText's hint. Simple Gallery's rename and
new-folder dialogs and Simple Draw's save dialog use it (Simple-Commons' ``MyTextInputLayout``), by day and night."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

import numpy as np
import pytest
from ui_nodes import colours, find, gallery_rename_dialog, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps import broccoli, draw, expense, opentracks
from android_gym.sim.apps.commons import NIGHT_COLORS, faded
from android_gym.sim.apps.commons import PRIMARY as COMMONS_PRIMARY
from android_gym.sim.framework.display import dp
from android_gym.sim.framework.looks import scale_text
from android_gym.sim.phone import Phone
from android_gym.sim.ui.layout import layout, line_height, text_width
from android_gym.sim.ui.render import Renderer
from android_gym.sim.ui.selection import text_top
from android_gym.sim.ui.views import (
    FIELD_ICON_WIDTH,
    FIELD_LABEL,
    FIELD_STROKE,
    OUTLINED_LABEL_MARGIN,
    OUTLINED_MIN_HEIGHT,
    OUTLINED_PADDING,
    PRIMARY,
    WHITE,
    View,
    column,
    edit_text,
    outlined_field,
    over,
)

GROUND = (237, 240, 255)  # a dialog's surface under the field
INK = (0, 128, 0)  # the field's text: no blend of it with the surface is the hint's grey
GALLERY = "com.simplemobiletools.gallery.pro"


def drawn(value: str, focused: bool) -> tuple[View, np.ndarray]:
    """An outlined "Title" field holding ``value`` on a dialog's surface, laid out and drawn: the field and the
    pixels."""
    field = edit_text(value, "Title", "title", lambda text: None, focused=focused, text_size=37,
                       text_color=INK)
    root = column(outlined_field(field), padding=30, background=GROUND)
    layout(root, 0, 0, 600, 260)
    return field, Renderer(600, 260).render({"w": (root, WHITE)})


@pytest.mark.parametrize("focused", [False, True])
def test_the_outline_is_1_dp_at_38_percent_black_and_2_dp_in_the_primary_colour_when_focused(focused: bool) -> None:
    """MaterialComponents' ``mtrl_outlined_stroke_color``: colorOnSurface at 0.38 unfocused, colorPrimary focused."""
    field, pixels = drawn("red", focused)
    x1, y1, x2, y2 = field.bounds
    assert FIELD_STROKE == (158, 158, 158)
    color, stroke = (PRIMARY, 5) if focused else (FIELD_STROKE, 3)
    middle = (y1 + y2) // 2
    assert colours(pixels[middle, x1:x1 + stroke]) == {color} and tuple(pixels[middle, x1 + stroke]) == GROUND
    assert colours(pixels[y2 - stroke:y2, x1 + 300]) == {color} and tuple(pixels[y2 - stroke - 1, x1 + 300]) == GROUND
    assert tuple(pixels[y1, x1]) == tuple(pixels[y2 - 1, x2 - 1]) == GROUND  # 4 dp rounded corners


def test_an_empty_unfocused_fields_label_lies_inside_the_box_and_the_top_edge_is_whole() -> None:
    field, pixels = drawn("", False)
    x1, y1, x2, y2 = field.bounds
    assert field.text == "Title"  # the dump's text of an empty field: its hint
    assert colours(pixels[y1, x1 + 20:x2 - 20]) == {FIELD_STROKE}  # no gap
    assert colours(pixels[y1 - OUTLINED_LABEL_MARGIN:y1]) == {GROUND}  # nothing floats above
    text_rows = pixels[y1 + OUTLINED_PADDING:y2 - OUTLINED_PADDING, x1 + OUTLINED_PADDING:x2 - 20]
    assert FIELD_LABEL == (102, 102, 102) and FIELD_LABEL in colours(text_rows)  # mtrl_indicator_text_color: 60 %


@pytest.mark.parametrize("value, focused, label", [("red", False, FIELD_LABEL), ("red", True, PRIMARY),
                                                   ("", True, PRIMARY)])
def test_with_text_or_focus_the_label_floats_in_a_gap_cut_into_the_top_edge(value: str, focused: bool,
                                                                            label: tuple[int, int, int]) -> None:
    field, pixels = drawn(value, focused)
    x1, y1, x2, y2 = field.bounds
    assert tuple(pixels[y1 + 1, x1 + OUTLINED_PADDING + 5]) == GROUND  # the gap under the label
    assert tuple(pixels[y1 + 1, x2 - 30]) == (PRIMARY if focused else FIELD_STROKE)  # the edge past it
    assert label in colours(pixels[y1 - OUTLINED_LABEL_MARGIN:y1, x1:x1 + 200])  # the label above the edge
    inside = colours(pixels[y1 + OUTLINED_LABEL_MARGIN:y2 - 10, x1 + OUTLINED_PADDING + 10:x2 - 20])  # below the label
    assert (INK in inside) is bool(value) and FIELD_LABEL not in inside  # no hint inside the box


@pytest.mark.parametrize("value", ["", "red"])
def test_a_field_is_at_least_56_dp_tall_its_text_or_label_centred_in_it(value: str) -> None:
    """MaterialComponents' TextInputEditText: 17 dp above and below a 22 dp line make a 56 dp box (147 px); a
    smaller line is centred in it (EditText's gravity center_vertical), the text (or the label inside) drawn there."""
    field, pixels = drawn(value, False)
    x1, y1, x2, y2 = field.bounds
    line = line_height(field.text_size)
    assert y2 - y1 == OUTLINED_MIN_HEIGHT and abs((text_top(field) - y1) - (y2 - text_top(field) - line)) <= 1
    below_label = y1 + OUTLINED_LABEL_MARGIN + 5
    inside = pixels[below_label:y2 - 5, x1 + OUTLINED_PADDING:x2 - OUTLINED_PADDING]
    inked = np.flatnonzero((inside != GROUND).any(axis=(1, 2))) + below_label
    assert text_top(field) <= inked[0] and inked[-1] < text_top(field) + line


def floating_label(font_scale: float) -> tuple[int, int, int]:
    """The focused "Title" field's layout at ``font_scale``: its top, the first and the last row of its floating
    label's ink."""
    field = edit_text("red", "Title", "title", lambda text: None, focused=True, text_color=INK)
    holder = outlined_field(field)
    root = column(holder, padding=30, background=GROUND)
    scale_text(root, font_scale)
    layout(root, 0, 0, 600, 300)
    pixels = Renderer(600, 300).render({"w": (root, WHITE)})
    x1, y1, _, _ = field.bounds
    rows = np.flatnonzero((pixels[:y1 + 2, x1 + OUTLINED_PADDING:x1 + 200] == PRIMARY).all(axis=2).any(axis=1))
    return holder.bounds[1], rows[0], rows[-1]


def test_the_floating_label_grows_with_the_font_scale_and_the_room_above_the_field_with_it() -> None:
    """The label is 12 sp (``hintTextAppearance``), so it scales as the field's text does; TextInputLayout's top
    margin for it (``calculateLabelMarginTop``) is half its height, so it stays inside the layout's bounds."""
    (top, first, last), (big_top, big_first, big_last) = floating_label(1.0), floating_label(1.3)
    assert top <= first and big_top <= big_first  # inside the TextInputLayout
    assert 1.2 < (big_last - big_first) / (last - first) < 1.4


def test_a_field_of_fixed_height_keeps_its_text_at_the_top() -> None:
    """Pro Expense's note (layout_height 100 dp, gravity top): the text starts one padding below the edge."""
    field = edit_text("", "Note", "note", lambda text: None, height=263, multiline=True)
    root = column(outlined_field(field), padding=30, background=GROUND)
    layout(root, 0, 0, 600, 400)
    assert field.bounds[3] - field.bounds[1] == 263 and text_top(field) == field.bounds[1] + OUTLINED_PADDING


@pytest.mark.parametrize("scale", ["1.0", "1.3"])
def test_pro_expenses_note_stays_100_dp_tall_its_hint_at_the_top_at_any_font_scale(scale: str) -> None:
    """frag_expense_entry.xml: edl_description is 100 dp tall (dp: the font scale leaves it), edt_note's gravity top;
    at font scale 1.3 the hint is larger but still drawn one padding below the box's top edge."""
    phone = Phone()
    phone.run(f"settings put system font_scale {scale}")
    phone.run(f"monkey -p {expense.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{expense.PACKAGE}:id/fb_main_add")
    x1, y1, x2, y2 = bounds(find(phone, resource_id=f"{expense.PACKAGE}:id/edt_note"))
    assert y2 - y1 == dp(100)
    hint = expense.ProExpense.day_colors[FIELD_LABEL]
    inside = phone.screenshot()[y1 + 5:y2 - 5, x1 + OUTLINED_PADDING:x2 - OUTLINED_PADDING]
    inked = np.flatnonzero((inside == hint).all(axis=2).any(axis=1)) + y1 + 5
    size = round(42 * float(scale))
    assert y1 + OUTLINED_PADDING <= inked[0] and inked[-1] < y1 + OUTLINED_PADDING + line_height(size)


def bounds(node) -> tuple[int, ...]:
    return tuple(map(int, re.findall(r"-?\d+", node.get("bounds"))))


@pytest.mark.parametrize("night", [False, True])
def test_gallerys_rename_dialog_has_outlined_fields_with_floating_labels(night: bool) -> None:
    """dialog_rename_item: MyTextInputLayout rename_item_title_hint around rename_item_name (focused: outline and
    label in the primary colour), rename_item_extension_hint around rename_item_extension (unfocused: the text colour
    at MEDIUM_ALPHA, setColors); the dump keeps the layouts (LinearLayouts), their FrameLayouts and the EditTexts,
    whose bounds are the outlines'."""
    phone = gallery_rename_dialog(night)
    pixels = phone.screenshot()
    faint = NIGHT_COLORS[faded(0.5)] if night else faded(0.5)
    fields = (("title", "name", "red", COMMONS_PRIMARY), ("extension", "extension", "png", faint))
    for name, hint, text, color in fields:
        holder = find(phone, resource_id=f"{GALLERY}:id/rename_item_{name}_hint")
        assert holder is not None and holder.get("class") == "android.widget.LinearLayout"
        (frame,) = holder
        (field,) = frame
        assert frame.get("class") == "android.widget.FrameLayout"
        assert (field.get("resource-id"), field.get("class"), field.get("text")) == (
            f"{GALLERY}:id/rename_item_{hint}", "android.widget.EditText", text)
        x1, y1, x2, y2 = bounds(field)
        assert bounds(holder) == bounds(frame)[:1] + (y1 - OUTLINED_LABEL_MARGIN,) + bounds(frame)[2:]
        assert bounds(frame) == (x1, y1, x2, y2)
        assert color in colours(pixels[y1 - OUTLINED_LABEL_MARGIN:y1, x1:x1 + 300])  # the floating label
        assert colours(pixels[(y1 + y2) // 2, x1:x1 + 3]) == {color}  # the outline's left edge
    assert not [node for node in nodes(phone) if node.get("text") in ("Title", "Extension")]  # labels: pixels only


def test_draws_save_dialog_field_is_outlined_its_label_the_fields_hint() -> None:
    """dialog_save_image: MyTextInputLayout save_image_filename_hint around save_image_filename; no separate
    "Filename" TextView; emptied, the field's text is its hint."""
    phone = Phone()
    phone.run(f"am start -n {draw.PACKAGE}/.activities.MainActivity")
    tap(phone, content_desc="Save")
    holder = find(phone, resource_id=f"{draw.PACKAGE}:id/save_image_filename_hint")
    assert holder is not None and holder[0][0].get("resource-id") == f"{draw.PACKAGE}:id/save_image_filename"
    assert find(phone, text="Filename") is None
    for _ in holder[0][0].get("text"):
        phone.key(keycodes.DEL)
    assert find(phone, resource_id=f"{draw.PACKAGE}:id/save_image_filename").get("text") == "Filename"


#: Material 3's baseline outline (``colorOutline``) and label (``colorOnSurfaceVariant``) by day and night
#: (material-components-android 1.11.0: neutral-variant 50 and 30, 60 and 80).
M3_FIELD = {False: ((0x79, 0x74, 0x7E), (0x49, 0x45, 0x4F)), True: ((0x93, 0x8F, 0x99), (0xCA, 0xC4, 0xD0))}


@pytest.mark.parametrize("night", [False, True])
def test_opentracks_editor_fields_are_outlined_text_input_layouts(night: bool) -> None:
    """track_edit_fields.xml: three TextInputLayouts (``textInputOutlinedStyle``, the activity type's
    ``textInputOutlinedExposedDropdownMenuStyle``) around track_edit_name, track_edit_activity_type and
    track_edit_description; their labels float on the outlines (pixels only), no TextView above each field. The
    theme is Theme.Material3.DayNight (styles_theme.xml): Widget.Material3.TextInputLayout.OutlinedBox's outline in
    ``colorOutline``, label in ``colorOnSurfaceVariant``, the baseline's by day and by night."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    outline, label = M3_FIELD[night]
    with closing(sqlite3.connect(phone.fs.host_path(opentracks.DB_PATH))) as db, db:
        db.execute("INSERT INTO tracks (name, category, description, starttime, stoptime) VALUES (?, ?, ?, ?, ?)",
                   ("Evening loop", "biking", "Windy", 1_700_000_000_000, 1_700_000_600_000))
    phone.run(f"monkey -p {opentracks.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, text="Evening loop")
    tap(phone, content_desc="More options")
    tap(phone, text="Edit")
    pixels, dump = phone.screenshot(), nodes(phone)
    for name, text in (("name", "Evening loop"), ("activity_type", "biking"), ("description", "Windy")):
        (field,) = [node for node in dump if node.get("resource-id") == f"{opentracks.PACKAGE}:id/track_edit_{name}"]
        frame = field.getparent()
        assert (frame.getparent().get("class"), frame.get("class"), field.get("text")) == (
            "android.widget.LinearLayout", "android.widget.FrameLayout", text)
        x1, y1, x2, y2 = bounds(field)
        assert label in colours(pixels[y1 - OUTLINED_LABEL_MARGIN:y1, x1:x1 + 300])  # the floating label
        assert colours(pixels[(y1 + y2) // 2, x1:x1 + 3]) == {outline}  # the outline's left edge
    labels = (opentracks.NAME_HINT, opentracks.ACTIVITY_TYPE_HINT, opentracks.DESCRIPTION_HINT)
    assert not [node for node in dump if node.get("text") in labels]
    tap(phone, resource_id=f"{opentracks.PACKAGE}:id/track_edit_description")
    x1, y1, x2, y2 = bounds(find(phone, resource_id=f"{opentracks.PACKAGE}:id/track_edit_description"))
    orange = opentracks.OpenTracks.day_colors[PRIMARY]  # colorPrimary, @color/opentracks
    assert colours(phone.screenshot()[(y1 + y2) // 2, x1:x1 + 5]) == {orange}  # the focused outline, 2 dp


def test_pro_expense_entry_fields_are_outlined_the_currency_suffix_in_the_amounts_box() -> None:
    """frag_expense_entry.xml under the theme's textInputStyle (MaterialComponents' OutlinedBox): edl_name, edl_amount
    and edl_description around edt_name, edt_amount and edt_note; the amount's suffix (the currency code) shows at
    the box's end only while its label floats."""
    phone = Phone()
    phone.run(f"monkey -p {expense.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{expense.PACKAGE}:id/fb_main_add")
    suffix = f"{expense.PACKAGE}:id/textinput_suffix_text"
    pixels, dump = phone.screenshot(), nodes(phone)
    for layout_name, name in (("edl_name", "edt_name"), ("edl_amount", "edt_amount"), ("edl_description", "edt_note")):
        (field,) = [node for node in dump if node.get("resource-id") == f"{expense.PACKAGE}:id/{name}"]
        frame = field.getparent()
        assert frame.get("class") == "android.widget.FrameLayout"
        assert frame.getparent().get("resource-id") == f"{expense.PACKAGE}:id/{layout_name}"
        x1, y1, x2, y2 = bounds(field)
        # the form opens with the name focused: the app's colorPrimary
        # the others MaterialComponents' colorOnSurface at 38 % over the dark surface
        color = expense.ProExpense.day_colors[PRIMARY if name == "edt_name" else FIELD_STROKE]
        assert color in colours(pixels[(y1 + y2) // 2, x1:x1 + 5])  # the outline's left edge
    assert not [node for node in dump if node.get("resource-id") == suffix]  # the amount's label lies inside
    tap(phone, resource_id=f"{expense.PACKAGE}:id/edt_amount")
    phone.input_text("12")
    amount = find(phone, resource_id=f"{expense.PACKAGE}:id/edt_amount")
    currency = find(phone, resource_id=suffix)
    assert currency is not None and currency.get("text") == expense.CURRENCY_CODE
    assert currency.getparent().get("class") == "android.widget.FrameLayout"
    (x1, y1, x2, y2), (sx1, sy1, sx2, sy2) = bounds(amount), bounds(currency)
    assert sx2 == x2 and x1 < sx1 and y1 <= sy1 < sy2 <= y2  # at the end of the box, inside it


def test_broccoli_form_fields_are_outlined_with_their_start_icons() -> None:
    """activity_new_recipe.xml under the theme's textInputStyle (MaterialComponents' OutlinedBox): each field's
    TextInputLayout holds its startIconDrawable (an ImageButton, text_input_start_icon) in the field's frame, the
    text and hint moved in past it; the categories field has its drop-down end icon; typed text starts after the
    icon and the focused label floats at the box's start, in the app's colorPrimary."""
    phone = Phone()
    phone.run(f"monkey -p {broccoli.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="New Recipe")
    ids = {name: f"{broccoli.PACKAGE}:id/{name}" for name in ("new_title", "new_categories", "text_input_start_icon",
                                                             "text_input_end_icon")}
    dump = nodes(phone)
    (title,) = [node for node in dump if node.get("resource-id") == ids["new_title"]]
    frame = title.getparent()
    assert [child.get("class") for child in frame] == ["android.widget.ImageButton", "android.widget.EditText"]
    assert frame[0].get("resource-id") == ids["text_input_start_icon"] and frame[0].get("clickable") == "false"
    assert frame.getparent().get("class") == "android.widget.LinearLayout"
    (categories,) = [node for node in dump if node.get("resource-id") == ids["new_categories"]]
    assert [child.get("resource-id") for child in categories.getparent()] == [
        ids["text_input_start_icon"], ids["text_input_end_icon"], ids["new_categories"]]
    tap(phone, resource_id=ids["new_title"])
    phone.input_text("Soup")
    pixels = phone.screenshot()
    x1, y1, x2, y2 = bounds(find(phone, resource_id=ids["new_title"]))
    _, _, icon_end, _ = bounds(find(phone, resource_id=ids["text_input_start_icon"]))
    assert icon_end == x1 + FIELD_ICON_WIDTH
    text_columns = np.flatnonzero((pixels[y1 + 10:y2 - 10, x1 + 10:x2 - 10] != WHITE).any(axis=(0, 2))) + x1 + 10
    icon_ink = text_columns[text_columns < icon_end]
    typed = text_columns[text_columns >= icon_end]
    assert len(icon_ink) and len(typed) and typed.min() > icon_ink.max()  # the icon, then the text past it
    green = broccoli.Broccoli.day_colors[PRIMARY]  # colorPrimary, green_800
    label = np.flatnonzero((pixels[y1 - OUTLINED_LABEL_MARGIN:y1 - 3, x1:x2] == green).all(axis=2).any(axis=0))
    assert OUTLINED_PADDING <= label.min() < OUTLINED_PADDING + 10  # the floating label at the box's start


def test_a_long_press_on_a_field_with_a_start_icon_selects_the_word_under_the_finger() -> None:
    """The start icon's room (``View.indent``) counts in mapping a point to the text: a long press on the "o" of
    "Soup" in Broccoli's title, past the icon, selects the word, which typing then replaces."""
    phone = Phone()
    phone.run(f"monkey -p {broccoli.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="New Recipe")
    title = f"{broccoli.PACKAGE}:id/new_title"
    tap(phone, resource_id=title)
    phone.input_text("Soup")
    x1, y1, _, y2 = bounds(find(phone, resource_id=title))
    phone.long_press(x1 + FIELD_ICON_WIDTH + text_width("S", 42) + 5, (y1 + y2) // 2)
    phone.input_text("Stew")
    assert find(phone, resource_id=title).get("text") == "Stew"


@pytest.mark.parametrize("night", [False, True])
def test_broccoli_follows_the_dark_theme_its_field_icons_tinted_apart_from_the_labels(night: bool) -> None:
    """Theme.Broccoli (Theme.MaterialComponents.DayNight, values-night/themes.xml; the theme setting follows the
    system by default): by night the window is colorSurface (#121212), the app bar the surface lifted 4 dp (its
    elevation overlay), the status bar colorStatusBarScrim (colorPrimaryVariant green_900 by day, colorSurface by
    night), a focused field's outline colorPrimary green_200, the others' colorOnSurface (white) at 38 %; the labels
    (the textInputStyle's ``android:textColorHint``) are colorControlNormal, gray_600 by day and gray_400 by night,
    while the start icons keep MaterialComponents' ``mtrl_outlined_icon_tint``, colorOnSurface at 60 %."""
    phone = Phone()
    if night:
        phone.run("cmd uimode night yes")
    phone.run(f"monkey -p {broccoli.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, content_desc="New Recipe")
    tap(phone, resource_id=f"{broccoli.PACKAGE}:id/new_title")
    pixels = phone.screenshot()
    surface, on_surface = ((18, 18, 18), WHITE) if night else (WHITE, (0, 0, 0))
    _, bar_top, _, bar_bottom = bounds(find(phone, resource_id=f"{broccoli.PACKAGE}:id/toolbar"))
    assert tuple(pixels[bar_bottom - 5, 540]) == ((40, 40, 40) if night else (46, 125, 50))
    assert tuple(pixels[bar_top - 5, 540]) == ((18, 18, 18) if night else (0x1B, 0x5E, 0x20))  # the status bar
    x1, y1, x2, y2 = bounds(find(phone, resource_id=f"{broccoli.PACKAGE}:id/new_description"))
    assert tuple(pixels[(y1 + y2) // 2, x2 + 5]) == surface  # the window beside the field
    assert colours(pixels[(y1 + y2) // 2, x2 - 2:x2]) == {over(on_surface, 0.38, surface)}  # the outline's end
    icon = colours(pixels[y1 + 10:y2 - 10, x1 + 10:x1 + FIELD_ICON_WIDTH - 10]) - {surface}
    label = (189, 189, 189) if night else (117, 117, 117)
    assert over(on_surface, 0.6, surface) in icon and label not in icon  # the start icon: (160,)*3 / (102,)*3
    assert label in colours(pixels[y1 + 10:y2 - 10, x1 + FIELD_ICON_WIDTH:x1 + FIELD_ICON_WIDTH + 200])  # the label
    x1, y1, x2, y2 = bounds(find(phone, resource_id=f"{broccoli.PACKAGE}:id/new_title"))
    focused = (165, 214, 167) if night else (46, 125, 50)  # green_200 by night, green_800 by day
    assert colours(pixels[(y1 + y2) // 2, x2 - 5:x2]) == {focused}
