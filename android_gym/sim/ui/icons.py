"""Material icons: the semantic icon names views use (``View.hint`` of an icon, a FAB or a launcher shortcut) and
their glyphs in the Material Design Icons font (``fonticon-materialdesignicons7``, the MDI webfont, which carries
Google's Material icons under their MDI names).

A view that stands for an action keeps the content-desc the real app gives it; the icon is only its pixels.
"""

from __future__ import annotations

from functools import lru_cache

from fonticon_mdi7 import MDI7
from PIL import Image, ImageDraw, ImageFont

#: Semantic name → MDI glyph name. A view drawing a dot where the real app does says so (``"dot"``); any other name
#: must be listed (``glyph`` refuses it, so a missing icon fails the tests that draw its screen).
_GLYPHS = {
    # navigation and app bars
    "arrow_back": "arrow_left", "chevron_left": "chevron_left",
    "chevron_right": "chevron_right", "down": "menu_down",
    "menu": "menu", "more": "dots_vertical", "search": "magnify", "close": "close", "check": "check",
    "plus": "plus", "delete": "delete_outline", "edit": "pencil_outline", "save": "content_save_outline",
    "send": "send", "filter": "filter_variant", "copy": "content_copy", "undo": "undo", "redo": "redo",
    "sort": "sort_variant",  # Material's ic_sort (Markor, Tasks' outlined one, VLC's ic_menu_sort): three lines
    "print": "printer_outline", "grid": "view_grid_outline", "list": "format_list_bulleted",
    "info": "information_outline", "link": "link_variant", "label": "label_outline", "dot": "circle_medium",
    "drawer": "menu", "home": "home_outline", "recents": "history", "today": "calendar_today",
    "keyboard": "keyboard_outline", "clear": "close", "eraser": "eraser", "app": "apps",
    "bucket_fill": "format_color_fill", "eyedropper": "eyedropper",
    "action": "gesture_tap", "eye": "eye",
    # system navigation bar (three-button navigation: filled triangle, circle and rounded square)
    "nav_back": "play", "nav_home": "circle", "nav_recents": "square_rounded", "nav_back_ime": "chevron_down",
    # status bar and quick settings
    "wifi": "wifi", "wifi_signal": "wifi_strength_4", "bt": "bluetooth", "airplane": "airplane",
    "signal": "signal_cellular_3", "battery_full": "battery", "vpn": "vpn", "hotspot": "access_point",
    "battery_low": "battery_alert", "battery_half": "battery_50", "notify_chat": "message_text",
    # content
    "person": "account_outline", "phone": "phone_outline", "folder": "folder_outline",
    "file": "file_outline", "photo": "image_outline", "camera": "camera_outline", "calendar": "calendar_blank_outline",
    "time": "clock_outline", "clock": "clock_outline", "alarm": "alarm", "timer": "timer_sand",
    "stopwatch": "timer_outline", "globe": "earth", "play": "play", "pause": "pause", "stop": "stop", "loop": "repeat",
    "cast": "cast", "category": "shape_outline", "enter": "keyboard_return",
    "backspace": "backspace_outline", "shift": "apple_keyboard_shift", "space": "keyboard_space",
    "favorite": "heart", "favorite_border": "heart_outline", "video": "movie_open_outline", "movie": "movie",
    "audio": "music_note", "music": "music", "playlist": "playlist_play", "playlist_add": "playlist_plus",
    "album": "album", "artist": "account_music", "queue_music": "playlist_music", "drag": "drag_vertical",
    "library_add": "plus_box_multiple", "select_all": "select_all", "more_horiz": "dots_horizontal",
    "trending_up": "trending_up", "shuffle": "shuffle_variant", "refresh": "refresh", "arrow_forward": "arrow_right",
    "settings": "cog_outline", "account_circle": "account_circle_outline",
    "todo": "format_list_checks", "title": "format_title", "list_numbered": "format_list_numbered",
    "task_open": "checkbox_blank_circle_outline", "task_done": "checkbox_marked_circle_outline",
    "checkbox_off": "checkbox_blank_outline", "checkbox_on": "checkbox_marked",
    "radio_off": "radiobox_blank", "radio_on": "radiobox_marked",
    # expense categories
    "income": "cash_plus", "food": "food", "housing": "home_city_outline", "social": "account_group",
    "entertainment": "movie_open", "transport": "bus", "clothes": "tshirt_crew", "health": "hospital_box_outline",
    "education": "school", "donation": "hand_heart",
    # settings rows (Android 13's homepage icons)
    "devices": "devices", "apps": "apps", "notifications": "bell_outline",
    "battery": "battery_high", "storage": "server", "sound": "volume_high", "display": "brightness_6",
    "accessibility": "human", "security": "lock_outline",
    "privacy": "shield_account_outline", "location": "map_marker_outline", "emergency": "medical_bag",
    "accounts": "key_outline", "system": "information_outline",
    # Tasks' editor rows (TaskEditRow's ic_pending_actions, ic_subdirectory_arrow_right, ic_outline_attachment,
    # ic_outline_notes; the others are named above)
    "pending_actions": "clipboard_clock_outline", "subdirectory_arrow_right": "subdirectory_arrow_right",
    "attachment": "attachment", "notes": "text",
    # filled variants, where the app draws Material's baseline (filled) drawable, not the outlined one the name
    # without the suffix draws: ic_save, ic_edit, ic_delete, ic_folder, ic_file (insert_drive_file), ic_home,
    # ic_person
    "save_filled": "content_save", "edit_filled": "pencil", "delete_filled": "delete",
    "folder_filled": "folder", "file_filled": "file", "home_filled": "home", "person_filled": "account",
    "settings_filled": "cog",  # SystemUI's ic_settings_24dp
    # Markor's drawables: ic_assignment_turned_in, ic_lightning (Material's flash_on), ic_gs_rename (a capital A
    # beside a text cursor: MDI has the A alone)
    "todo_done": "clipboard_check", "lightning": "flash", "rename": "format_text_variant",
    # Settings' ic_settings_data_usage (Material's data_usage: a ring broken twice)
    "data_usage": "chart_donut",
    # launcher shortcuts
    "app_audio_recorder": "microphone", "app_recipes": "chef_hat", "app_calendar": "calendar_month",
    "app_camera": "camera", "app_clipper": "clipboard_text_outline", "app_clock": "clock_time_four_outline",
    "app_contacts": "account", "app_draw": "brush", "app_files": "folder", "app_gallery": "image",
    "app_markor": "notebook_edit_outline", "app_expense": "wallet_outline", "app_settings": "cog",
    "app_sms": "message_processing", "app_tasks": "checkbox_marked_circle_outline", "app_vlc": "vlc",
    "app_joplin": "notebook",
    "app_osmand": "map_marker_radius",
    # maps
    "minus": "minus", "star": "star_outline", "flag": "flag_outline", "route": "map_marker_path",
    # OpenTracks: its launcher icon, its logo (ic_logo_color_24dp: an arrow pointing up and right), bars, and the
    # activity types' icons (ActivityType's drawables)
    "app_opentracks": "map_marker_path", "logo_opentracks": "near_me", "marker": "map_marker_outline",
    "chart_bar": "chart_bar",
    "gps_off": "crosshairs_off", "record": "record", "map": "map_outline", "share": "share_variant_outline",
    "activity_flight": "airplane", "activity_drive": "car", "activity_bike": "bike", "activity_boat": "ferry",
    "activity_climbing": "image_filter_hdr", "activity_skiing": "ski", "activity_mtb": "bike_fast",
    "activity_scooter": "scooter", "activity_walk": "walk", "activity_inline_skating": "rollerblade",
    "activity_kayaking": "kayaking", "activity_run": "run", "activity_sailing": "sail_boat",
    "activity_skateboarding": "skateboarding", "activity_snowboarding": "snowboard", "activity_swimming": "swim",
    "activity_workout": "dumbbell", "activity_unknown": "map_marker_path",
    "app_chrome": "google_chrome", "tabs": "numeric_1_box_outline",
    # the launcher's search bar
    "google": "google", "mic": "microphone", "mic_outline": "microphone_outline", "lens": "google_lens",
}


#: Every icon name views may use.
NAMES = frozenset(_GLYPHS)
#: Icons drawn as another glyph turned half a turn (the navigation bar's back triangle points left).
_TURNED = {"nav_back"}


def glyph(name: str) -> str:
    """The character drawing icon ``name`` in the icon font; ``ValueError`` for a name not in ``NAMES``."""
    if name not in _GLYPHS:
        raise ValueError(f"no icon named {name!r}: map it to its MDI glyph in ui/icons.py (or draw \"dot\")")
    return getattr(MDI7, _GLYPHS[name])[-1]  # MDI7's attributes read "mdi7.<char>"


@lru_cache(maxsize=64)
def icon_font(size: int) -> ImageFont.FreeTypeFont:
    """The icon font at ``size`` px (one glyph fills a ``size`` px square, as a 24 dp icon its 24 dp box)."""
    return ImageFont.truetype(MDI7.__font_file__, size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1024)
def icon_mask(name: str, size: int) -> Image.Image:
    """An ``L`` mask, ``size`` px square, of icon ``name``'s glyph centred as the font places it in its box."""
    face = icon_font(size)
    ascent, descent = face.getmetrics()
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).text((0, (size - ascent - descent) // 2), glyph(name), font=face, fill=255)
    return mask.rotate(180) if name in _TURNED else mask
