"""Files (DocumentsUI) on the simulated phone, driven only through taps, typed text and keys; the files it shows
are written from outside over the shell, as a task setup does."""

from __future__ import annotations

import datetime as dt
import os
import re

import pytest
from ui_nodes import center, find, nodes, tap, texts_shown_as_with_every_row

from android_gym.sim import keycodes
from android_gym.sim.apps import files
from android_gym.sim.apps.files import (
    FILES_ACTIVITY,
    PACKAGE,
    PICK_ACTIVITY,
    PREFS_PATH,
    format_size,
    format_time,
    type_label,
    valid_fat_name,
)
from android_gym.sim.phone import Phone

STORAGE = "sdk_gphone_x86_64"
MOVE_TO, COPY_TO = "Move to\u2026", "Copy to\u2026"


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def sh(phone: Phone, command: str) -> str:
    result = phone.run(command)
    assert result.exit_code == 0, result.stderr
    return result.stdout.decode()


def titles(phone: Phone) -> list[str]:
    """The names the listing shows, in order."""
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == "android:id/title"]


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def toolbar_title(phone: Phone) -> str:
    bar = [node for node in nodes(phone) if node.get("resource-id") == rid("toolbar")]
    return [node.get("text") for node in bar[0].iter("node") if node.get("text")][0]


def bottom(node) -> int:
    """The bottom edge of a node's bounds."""
    return int(re.findall(r"-?\d+", node.get("bounds"))[-1])


def open_files(phone: Phone) -> None:
    tap(phone, text="Files")
    assert phone.activities.foreground() == (PACKAGE, FILES_ACTIVITY)


def open_root(phone: Phone, title: str) -> None:
    tap(phone, content_desc="Show roots")
    tap(phone, text=title)


def long_press(phone: Phone, text: str) -> None:
    node = find(phone, text=text)
    assert node is not None, f"{text} is not on screen"
    phone.long_press(*center(node))


def menu(phone: Phone, item: str) -> None:
    tap(phone, content_desc="More options")
    tap(phone, text=item)


def mtime(phone: Phone, path: str) -> int:
    return os.stat(phone.fs.host_path(path)).st_mtime_ns // 1_000_000


@pytest.fixture
def phone() -> Phone:
    """A phone with 24-hour time (as task setups leave it) and a few files in Alarms and Download."""
    device = Phone()
    device.settings.put("system", "time_12_24", "24")
    sh(device, "mkdir -p /sdcard/Alarms && echo 'wake up now' > /sdcard/Alarms/wake_up.mp3 && "
               "echo bird > /sdcard/Alarms/early_bird.mp3 && echo notes > /sdcard/Download/notes.pdf")
    yield device
    device.close()


# ----- values as the app shows them ------------------------------------------------------------------------------
def test_sizes_are_si_units_with_two_decimals_below_a_hundred():
    assert [format_size(n) for n in (0, 21, 900, 901, 1234, 12_345, 123_456, 999_999, 2_500_000_000)] == [
        "0 B", "21 B", "900 B", "0.90 kB", "1.23 kB", "12.35 kB", "123 kB", "1.00 MB", "2.50 GB"]


def test_times_show_the_clock_today_the_date_this_year_and_the_year_before():
    now = dt.datetime(2023, 10, 15, 15, 34, tzinfo=dt.timezone.utc)
    at = [dt.datetime(2023, 10, 15, 9, 5), dt.datetime(2023, 10, 14, 23, 0), dt.datetime(2022, 10, 15, 9, 5)]
    ms = [int(when.replace(tzinfo=dt.timezone.utc).timestamp() * 1000) for when in at]
    assert [format_time(m, now, True, "en-US") for m in ms] == ["09:05", "Oct 14", "Oct 15, 2022"]
    assert format_time(ms[0], now, False, "en-US") == "9:05 AM"
    assert [format_time(m, now, True, "de-DE") for m in ms] == ["09:05", "14. Okt.", "15. Okt. 2022"]


def test_type_labels_follow_the_framework_mime_labels():
    assert [type_label(m) for m in ("audio/mpeg", "image/jpeg", "video/mp4", "application/pdf", "text/plain",
                                    "application/zip", "application/vnd.android.package-archive",
                                    "application/x-msdos-program", "application/octet-stream")] == [
        "MP3 audio", "JPG image", "MP4 video", "PDF document", "TXT document", "ZIP archive", "Android app",
        "EXE file", "File"]


def test_names_are_made_valid_fat_names():
    assert [valid_fat_name(name) for name in ("..", "", "a/b:c?.txt", "x" * 300)] == [
        "(invalid)", "(invalid)", "a_b_c_.txt", "x" * 255]


# ----- browsing -------------------------------------------------------------------------------------------------
def test_it_opens_on_the_downloads_root_in_grid_mode_and_lists_new_files_at_once(phone):
    open_files(phone)
    assert toolbar_title(phone) == "Downloads"
    assert texts(phone, "header_title") == ["FILES IN DOWNLOADS"]
    assert titles(phone) == ["notes.pdf"]
    assert texts(phone, "details") == ["6 B"] and texts(phone, "date") == ["15:34"]  # grid card
    sh(phone, "echo later > /sdcard/Download/later.txt")
    assert set(titles(phone)) == {"notes.pdf", "later.txt"}


def test_the_drawer_lists_the_roots_and_opens_the_device_storage(phone):
    open_files(phone)
    tap(phone, content_desc="Show roots")
    drawer = [node for node in nodes(phone) if node.get("resource-id") == rid("drawer_roots")][0]
    assert [n.get("text") for n in drawer.iter("node") if n.get("text")] == [
        "Files", "Recent", "Images", "Videos", "Audio", "Documents", "Downloads", STORAGE]
    tap(phone, text=STORAGE)
    assert find(phone, resource_id=rid("drawer_roots")) is None
    assert toolbar_title(phone) == STORAGE
    assert texts(phone, "header_title") == [f"FILES ON {STORAGE.upper()}"]
    assert titles(phone)[:5] == ["Alarms", "Android", "Audiobooks", "DCIM", "Documents"]


def test_the_roots_list_scrolls_inside_the_drawer_on_a_small_phone_with_the_largest_font(phone):
    """fragment_roots.xml's ListView fills the drawer: on a 720x1280 phone at 320 dpi with font scale 1.3 the
    roots do not fit, the list ends where the window does (the device's storage, the last root, at most partly
    above it), and a swipe on it brings the storage up."""
    sh(phone, "wm size 720x1280 && wm density 320 && settings put system font_scale 1.3")
    open_files(phone)
    tap(phone, content_desc="Show roots")
    listed = find(phone, resource_id=rid("roots_list"))
    window = find(phone, resource_id="android:id/content")
    assert listed.get("scrollable") == "true" and bottom(listed) == bottom(window)
    storage = find(phone, text=STORAGE)
    assert storage is None or bottom(storage) == bottom(listed)  # cut at the list's end
    x, y = center(listed)
    phone.swipe(x, y + 300, x, y - 300)
    tap(phone, text=STORAGE)
    assert toolbar_title(phone) == STORAGE


def test_android_data_obb_and_hidden_files_stay_out_of_listings_until_asked(phone):
    sh(phone, "mkdir -p /sdcard/Android/media /sdcard/Android/obb && echo x > /sdcard/Alarms/.hidden.mp3")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Android")
    assert titles(phone) == ["media"]
    phone.key(keycodes.BACK)
    tap(phone, text="Alarms")
    assert ".hidden.mp3" not in titles(phone)
    menu(phone, "Show hidden files")
    assert ".hidden.mp3" in titles(phone)
    assert b'name="showHiddenFiles" value="true"' in phone.fs.read_bytes(PREFS_PATH)
    menu(phone, "Don\u2019t show hidden files")
    assert ".hidden.mp3" not in titles(phone)


def test_list_mode_shows_time_size_and_type_and_is_saved_per_root(phone):
    sh(phone, "touch -d '2023-10-14 08:00:00' /sdcard/Alarms/early_bird.mp3")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    tap(phone, content_desc="List view")
    assert texts(phone, "metadata") == ["Oct 14, 5 B, MP3 audio", "15:34, 12 B, MP3 audio"]
    assert find(phone, content_desc="Grid view") is not None
    prefs = phone.fs.read_bytes(PREFS_PATH).decode()
    assert '<int name="rootViewMode-com.android.externalstorage.documentsprimary" value="1" />' in prefs
    open_root(phone, "Downloads")  # another root keeps its own (default) mode
    assert find(phone, content_desc="List view") is not None


@pytest.mark.parametrize("font_scale", ["0.85", "1.0", "1.3"])
def test_list_mode_builds_the_rows_it_shows_and_shows_as_with_every_row_built(phone, monkeypatch, font_scale):
    sh(phone, "for i in $(seq 10 39); do echo $i > /sdcard/Alarms/tone_$i.mp3; done")
    sh(phone, f"settings put system font_scale {font_scale}")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    tap(phone, content_desc="List view")
    seen = texts_shown_as_with_every_row(phone, monkeypatch, files, "android:id/title")
    assert {"tone_10.mp3", "tone_39.mp3"} <= seen  # from the top to the clamped end and back


def test_breadcrumb_and_back_walk_up_the_folders_and_back_at_the_root_leaves(phone):
    sh(phone, "mkdir -p /sdcard/Alarms/old/older")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    tap(phone, text="old")
    tap(phone, text="older")
    assert texts(phone, "breadcrumb_text") == [STORAGE, "Alarms", "old", "older"]
    assert texts(phone, "header_title") == ["FILES IN OLDER"]
    tap(phone, text="Alarms", resource_id=rid("breadcrumb_text"))
    assert toolbar_title(phone) == "Alarms"
    phone.key(keycodes.BACK)
    assert toolbar_title(phone) == STORAGE
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def test_a_folder_removed_from_outside_falls_back_to_its_parent(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    sh(phone, "rm -r /sdcard/Alarms")
    assert toolbar_title(phone) == STORAGE


# ----- selection ------------------------------------------------------------------------------------------------
def test_long_press_starts_selection_and_taps_add_and_remove_items(phone):
    sh(phone, "mkdir /sdcard/Alarms/sub")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    assert texts(phone, "action_bar_title") == ["1 selected"]
    assert find(phone, content_desc="Cancel", resource_id=rid("action_mode_close_button")) is not None
    tap(phone, text="early_bird.mp3")
    tap(phone, text="sub")  # with a selection a folder is selected, not opened
    assert texts(phone, "action_bar_title") == ["3 selected"]
    tap(phone, text="wake_up.mp3")
    assert texts(phone, "action_bar_title") == ["2 selected"]
    selected = [n for n in nodes(phone) if n.get("resource-id") == rid("item_root") and n.get("selected") == "true"]
    assert len(selected) == 2
    phone.key(keycodes.BACK)
    assert texts(phone, "action_bar_title") == [] and toolbar_title(phone) == "Alarms"


def test_select_all_then_deselect_all(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    menu(phone, "Select all")
    assert texts(phone, "action_bar_title") == ["2 selected"]
    tap(phone, content_desc="More options")
    assert find(phone, text="Select all") is None
    tap(phone, text="Deselect all")
    assert texts(phone, "action_bar_title") == []


# ----- delete ----------------------------------------------------------------------------------------------------
def test_delete_asks_first_and_deletes_only_the_selection(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    tap(phone, content_desc="Delete")
    assert find(phone, text='Delete "wake_up.mp3"?') is not None
    tap(phone, text="Cancel")
    assert phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    assert texts(phone, "action_bar_title") == ["1 selected"]  # cancelling keeps the action mode
    tap(phone, content_desc="Delete")
    phone.clock.advance(60_000)
    tap(phone, text="OK")
    assert not phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    assert phone.fs.exists("/sdcard/Alarms/early_bird.mp3")
    assert mtime(phone, "/sdcard/Alarms") == phone.clock.now_ms()  # the folder changed at device time
    assert titles(phone) == ["early_bird.mp3"] and texts(phone, "action_bar_title") == []


@pytest.mark.parametrize(("names", "message"), [
    (("wake_up.mp3", "early_bird.mp3"), "Delete 2 files?"),
    (("sub",), 'Delete folder "sub" and its contents?'),
    (("sub", "other"), "Delete 2 folders and their contents?"),
    (("sub", "wake_up.mp3"), "Delete 2 items?"),
])
def test_the_delete_message_names_what_goes(phone, names, message):
    sh(phone, "mkdir -p /sdcard/Alarms/sub/inner /sdcard/Alarms/other")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, names[0])
    for name in names[1:]:
        tap(phone, text=name)
    tap(phone, content_desc="Delete")
    assert find(phone, text=message) is not None
    tap(phone, text="OK")
    assert not any(phone.fs.exists(f"/sdcard/Alarms/{name}") for name in names)


# ----- move and copy ---------------------------------------------------------------------------------------------
def pick_in_storage(phone: Phone, folder: str) -> None:
    """In the picker: the device storage, then ``folder``."""
    open_root(phone, STORAGE)
    tap(phone, text=folder)


def test_move_to_goes_through_the_picker_and_keeps_the_file(phone):
    before = mtime(phone, "/sdcard/Alarms/wake_up.mp3")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, MOVE_TO)
    assert phone.activities.foreground() == (PACKAGE, PICK_ACTIVITY)
    assert toolbar_title(phone) == "Downloads"  # the picker starts at home
    assert find(phone, text="notes.pdf").get("enabled") == "false"  # files cannot be picked
    tap(phone, content_desc="Show roots")
    drawer = [node for node in nodes(phone) if node.get("resource-id") == rid("drawer_roots")][0]
    assert [n.get("text") for n in drawer.iter("node") if n.get("text")] == [MOVE_TO, "Downloads", STORAGE]
    tap(phone, text=STORAGE)
    tap(phone, text="Music")
    phone.clock.advance(60_000)
    tap(phone, text="Move", resource_id="android:id/button1")
    assert phone.activities.foreground() == (PACKAGE, FILES_ACTIVITY)
    assert phone.fs.read_bytes("/sdcard/Music/wake_up.mp3") == b"wake up now\n"
    assert not phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    assert mtime(phone, "/sdcard/Music/wake_up.mp3") == before
    assert mtime(phone, "/sdcard/Music") == mtime(phone, "/sdcard/Alarms") == phone.clock.now_ms()
    assert titles(phone) == ["early_bird.mp3"] and texts(phone, "action_bar_title") == []


def test_a_move_onto_a_taken_name_keeps_both_and_copy_leaves_the_source(phone):
    sh(phone, "mkdir -p /sdcard/Music && echo other > /sdcard/Music/wake_up.mp3")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, MOVE_TO)
    pick_in_storage(phone, "Music")
    tap(phone, text="Move")
    assert phone.fs.read_bytes("/sdcard/Music/wake_up (1).mp3") == b"wake up now\n"
    assert phone.fs.read_bytes("/sdcard/Music/wake_up.mp3") == b"other\n"
    long_press(phone, "early_bird.mp3")
    menu(phone, COPY_TO)
    assert find(phone, text="Copy", resource_id="android:id/button1") is not None
    pick_in_storage(phone, "Music")
    tap(phone, text="Copy")
    assert phone.fs.read_bytes("/sdcard/Music/early_bird.mp3") == b"bird\n"
    assert phone.fs.exists("/sdcard/Alarms/early_bird.mp3")


def test_cancel_in_the_picker_moves_nothing_and_a_folder_never_goes_into_itself(phone):
    sh(phone, "mkdir -p /sdcard/Alarms/box && echo in > /sdcard/Alarms/box/in.txt")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, MOVE_TO)
    tap(phone, text="Cancel")
    assert phone.activities.foreground() == (PACKAGE, FILES_ACTIVITY)
    assert phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    long_press(phone, "box")
    menu(phone, MOVE_TO)
    pick_in_storage(phone, "Alarms")
    tap(phone, text="box")
    tap(phone, text="Move")
    assert phone.fs.read_bytes("/sdcard/Alarms/box/in.txt") == b"in\n"
    assert not phone.fs.exists("/sdcard/Alarms/box/box")


def test_the_picker_makes_a_new_folder_and_opens_it_for_the_move(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, MOVE_TO)
    tap(phone, content_desc="New folder")
    phone.input_text("Saved")
    tap(phone, text="OK")
    assert toolbar_title(phone) == "Saved" and texts(phone, "breadcrumb_text") == ["Downloads", "Saved"]
    tap(phone, text="Move")
    assert phone.fs.exists("/sdcard/Download/Saved/wake_up.mp3")


def test_a_whole_folder_is_copied_with_its_contents(phone):
    sh(phone, "mkdir -p /sdcard/Alarms/box/deep && echo in > /sdcard/Alarms/box/deep/in.txt")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "box")
    menu(phone, COPY_TO)
    pick_in_storage(phone, "Download")
    tap(phone, text="Copy")
    assert phone.fs.read_bytes("/sdcard/Download/box/deep/in.txt") == b"in\n"
    assert phone.fs.exists("/sdcard/Alarms/box/deep/in.txt")


@pytest.mark.parametrize("language, downloads, roots, new_folder, hint, buttons", [
    ("de-DE", "Downloads", ["Zuletzt verwendet", "Bilder", "Videos", "Audio", "Dokumente", "Downloads"],
     "Neuer Ordner", "Ordnername", ["Abbrechen", "OK"]),
    ("fr-FR", "Téléchargements", ["Récents", "Images", "Vidéos", "Fichiers audio", "Documents", "Téléchargements"],
     "Nouveau dossier", "Nom du dossier", ["Annuler", "OK"])])
def test_root_titles_and_dialog_buttons_are_in_the_system_language(phone, language, downloads, roots, new_folder,
                                                                   hint, buttons):
    """The roots' titles are their providers' strings (MediaProvider's root_images..., DownloadProvider's
    root_downloads), in the toolbar, the breadcrumb and the drawer; a dialog's buttons are the framework's
    ``android.R.string.cancel`` and ``ok`` (CreateDirectoryFragment), its field's hint DocumentsUI's
    input_hint_new_folder."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert toolbar_title(phone) == downloads and texts(phone, "breadcrumb_text") == [downloads]
    show_roots = {"de-DE": "Root-Verzeichnis anzeigen", "fr-FR": "Afficher les répertoires racines"}[language]
    tap(phone, content_desc=show_roots)
    drawer = find(phone, resource_id=rid("roots_list"))
    titles_shown = [node.get("text") for node in drawer.iter("node") if node.get("resource-id") == "android:id/title"]
    assert titles_shown[:6] == roots
    phone.key(keycodes.BACK)
    tap(phone, content_desc={"de-DE": "Weitere Optionen", "fr-FR": "Autres options"}[language])
    tap(phone, text=new_folder)
    assert find(phone, resource_id="android:id/text1").get("text") == hint
    assert [node.get("text") for node in nodes(phone)
            if node.get("resource-id") in ("android:id/button2", "android:id/button1")] == buttons


# ----- rename, new folder -------------------------------------------------------------------------------------
def test_rename_selects_the_name_before_its_extension_and_refuses_a_taken_name(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, "Rename")
    field = find(phone, resource_id="android:id/text1")
    assert field.get("text") == "wake_up.mp3" and field.get("focused") == "true"
    phone.input_text("early_bird")  # replaces the selected "wake_up"
    tap(phone, text="OK")
    assert find(phone, text="A file with this name already exists.") is not None
    assert phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    phone.input_text("morning")  # the stem is selected again
    tap(phone, text="OK")
    assert phone.fs.read_bytes("/sdcard/Alarms/morning.mp3") == b"wake up now\n"
    assert not phone.fs.exists("/sdcard/Alarms/wake_up.mp3")
    assert texts(phone, "action_bar_title") == []


def test_a_name_cannot_leave_its_folder(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    long_press(phone, "wake_up.mp3")
    menu(phone, "Rename")
    phone.key(keycodes.A, frozenset({keycodes.CTRL_LEFT}))
    phone.input_text("../escaped.mp3")
    tap(phone, text="OK")
    assert phone.fs.exists("/sdcard/Alarms/.._escaped.mp3")
    assert not phone.fs.exists("/sdcard/escaped.mp3")


def test_new_folder_from_the_overflow_menu(phone):
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    menu(phone, "New folder")
    tap(phone, text="OK")
    assert find(phone, text="You need to add a folder name") is not None
    phone.input_text("Old alarms")
    phone.key(keycodes.ENTER)
    assert phone.fs.is_dir("/sdcard/Alarms/Old alarms")
    assert titles(phone)[0] == "Old alarms"


# ----- sorting --------------------------------------------------------------------------------------------------
def test_sort_by_offers_eight_orders_and_keeps_folders_first(phone):
    sh(phone, "mkdir /sdcard/Alarms/zz && echo 'a much longer alarm' > /sdcard/Alarms/alpha.mp3 && "
              "touch -d '2023-01-01 00:00:00' /sdcard/Alarms/wake_up.mp3")
    open_files(phone)
    open_root(phone, STORAGE)
    tap(phone, text="Alarms")
    assert titles(phone) == ["zz", "alpha.mp3", "early_bird.mp3", "wake_up.mp3"]
    menu(phone, "Sort by...")
    labels = [n.get("text") for n in nodes(phone) if n.get("class") == "android.widget.CheckedTextView"]
    assert labels == ["File name (A to Z)", "File name (Z to A)", "Size (largest first)", "Size (smallest first)",
                      "Type (A to Z)", "Type (Z to A)", "Modified (newest first)", "Modified (oldest first)"]
    assert find(phone, text="File name (A to Z)").get("checked") == "true"
    tap(phone, text="Size (largest first)")
    assert titles(phone) == ["zz", "alpha.mp3", "wake_up.mp3", "early_bird.mp3"]
    menu(phone, "Sort by...")
    tap(phone, text="Modified (oldest first)")
    assert titles(phone) == ["zz", "wake_up.mp3", "alpha.mp3", "early_bird.mp3"]
    tap(phone, text="zz")  # the order holds in other folders of the activity
    menu(phone, "Sort by...")
    assert find(phone, text="Modified (oldest first)").get("checked") == "true"


def test_downloads_lists_newest_first_by_default(phone):
    sh(phone, "echo a > /sdcard/Download/a_old.txt && touch -d '2023-01-01 00:00:00' /sdcard/Download/a_old.txt")
    phone.clock.advance(60_000)
    sh(phone, "echo b > /sdcard/Download/b_new.txt")
    open_files(phone)
    assert titles(phone) == ["b_new.txt", "notes.pdf", "a_old.txt"]


# ----- media roots, process state -----------------------------------------------------------------------------
def test_media_roots_list_their_files_from_every_folder(phone):
    sh(phone, "echo p > /sdcard/DCIM/photo.jpg && echo q > /sdcard/Pictures/shot.png && "
              "mkdir -p /sdcard/Android/data/x && echo r > /sdcard/Android/data/x/secret.jpg")
    open_files(phone)
    open_root(phone, "Images")
    assert sorted(titles(phone)) == ["photo.jpg", "shot.png"]
    assert texts(phone, "header_title") == ["IMAGES"]
    open_root(phone, "Recent")
    tap(phone, content_desc="List view")
    assert set(titles(phone)) == {"photo.jpg", "shot.png", "wake_up.mp3", "early_bird.mp3", "notes.pdf"}


def test_recent_stays_while_the_clock_moves_and_is_built_again_when_a_file_leaves_it(phone):
    """Recent lists files changed in the last 45 days, with their date or time: its frame stays while the clock
    moves within the day, and is built again when the oldest file leaves it (not at every millisecond)."""
    open_files(phone)
    open_root(phone, "Recent")
    tap(phone, content_desc="List view")
    phone.run("touch -d 2023-10-01T08:00:00 /sdcard/Alarms/early_bird.mp3")
    listed = set(titles(phone))
    assert "early_bird.mp3" in listed
    shown = phone.window.frame()
    phone.clock.advance(300)
    assert phone.window.frame() is shown
    leaves = mtime(phone, "/sdcard/Alarms/early_bird.mp3") + files.RECENT_DAYS * 86_400_000 + 1
    phone.clock.set(leaves - 1)
    assert "early_bird.mp3" in titles(phone)
    phone.clock.set(leaves)
    assert set(titles(phone)) == listed - {"early_bird.mp3"}


def test_force_stop_returns_to_downloads_and_pm_clear_forgets_the_view_mode(phone):
    open_files(phone)
    tap(phone, content_desc="List view")
    open_root(phone, STORAGE)
    phone.run(f"am force-stop {PACKAGE}")
    open_files(phone)
    assert toolbar_title(phone) == "Downloads"
    assert find(phone, content_desc="Grid view") is not None  # list mode was saved for Downloads
    phone.run(f"pm clear {PACKAGE}")
    open_files(phone)
    assert find(phone, content_desc="List view") is not None


@pytest.mark.parametrize("language, downloads, storage, folder, recent", [
    ("de-DE", 'DATEIEN IN "DOWNLOADS"', f"DATEIEN AUF {STORAGE.upper()}", "DATEIEN IN ALARMS",
     "ZULETZT VERWENDETE DATEIEN"),
    ("fr-FR", 'FICHIERS DANS LE DOSSIER "TÉLÉCHARGEMENTS"', f"FICHIERS SUR {STORAGE.upper()}",
     "FICHIERS DANS ALARMS", "FICHIERS RÉCENTS")])
def test_the_header_title_is_in_the_system_language(phone, language, downloads, storage, folder, recent):
    """``updateHeaderTitle``'s root_info_header_* strings in the system language, the device's name and the folder's
    (user data) put in as they are."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
    assert texts(phone, "header_title") == [downloads]
    show_roots = {"de-DE": "Root-Verzeichnis anzeigen", "fr-FR": "Afficher les répertoires racines"}[language]
    tap(phone, content_desc=show_roots)
    tap(phone, text=STORAGE)
    assert texts(phone, "header_title") == [storage]
    tap(phone, text="Alarms")
    assert texts(phone, "header_title") == [folder]
    tap(phone, content_desc=show_roots)
    tap(phone, text={"de-DE": "Zuletzt verwendet", "fr-FR": "Récents"}[language])
    assert texts(phone, "header_title") == [recent]


def test_an_empty_folder_centres_its_artwork_and_message():
    """fragment_directory.xml's empty view: the artwork (layout_gravity center in a vertical LinearLayout) and the
    "No items" message centred across the screen (a new phone's Download folder is empty)."""
    phone = Phone()
    open_files(phone)
    artwork, message = find(phone, resource_id=rid("artwork")), find(phone, resource_id=rid("message"))
    assert message.get("text") == "No items"
    width = phone.window.width
    for node in (artwork, message):
        assert abs(center(node)[0] - width / 2) <= 1
