"""Audio Recorder on the simulated phone, driven by taps, typed text and keys: first-run setup, recording with
the virtual clock, the M4A in the app's records folder, the rename dialog and the records list."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing

import pytest
from ui_nodes import find, nodes, tap

from android_gym.sim import keycodes
from android_gym.sim.apps.audio_recorder import (
    DB_PATH,
    MAIN_ACTIVITY,
    PACKAGE,
    PREFS_PATH,
    RECORDS_ACTIVITY,
    RECORDS_DIR,
    SETUP_ACTIVITY,
    WELCOME_ACTIVITY,
)
from android_gym.sim.phone import Phone
from android_gym.sim.system.media import boxes, mp4_duration_ms

RECORD = {"content_desc": "Recording: %s"}
STOP = {"resource_id": f"{PACKAGE}:id/btn_record_stop"}
NAME_FIELD = f"{PACKAGE}:id/input_name"


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def open_app(phone: Phone) -> None:
    assert phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1").exit_code == 0


def files(phone: Phone) -> list[str]:
    return phone.run(f"ls -1 {RECORDS_DIR}").stdout.decode().splitlines()


def rows(phone: Phone) -> list[dict]:
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db:
        db.row_factory = sqlite3.Row
        return [dict(found) for found in db.execute("SELECT * FROM records ORDER BY _id")]


def text_of(phone: Phone, name: str) -> str | None:
    node = find(phone, resource_id=rid(name))
    return None if node is None else node.get("text")


def rename_to(phone: Phone, name: str) -> None:
    """Replace the dialog's name as an agent does (select all, delete, type, ENTER) and save."""
    tap(phone, resource_id=NAME_FIELD)
    phone.run(f"input keycombination {keycodes.CTRL_LEFT} {keycodes.A}")
    phone.key(keycodes.DEL)
    phone.input_text(name)
    phone.key(keycodes.ENTER)
    tap(phone, text="Save")


@pytest.fixture
def ready(phone: Phone) -> Phone:
    """The app opened once and its setup applied: the main screen."""
    open_app(phone)
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    return phone


def record(phone: Phone, seconds: int) -> None:
    """Tap record, let ``seconds`` pass, tap stop (each tap takes one second)."""
    tap(phone, **RECORD)
    phone.clock.advance(seconds * 1000)
    tap(phone, **STOP)


def test_the_first_start_goes_through_welcome_and_setup_and_later_starts_do_not(phone):
    open_app(phone)
    assert phone.activities.foreground() == (PACKAGE, WELCOME_ACTIVITY)
    assert find(phone, text="Welcome to a simple and fast application") is not None
    tap(phone, text="Get started")
    assert phone.activities.foreground() == (PACKAGE, SETUP_ACTIVITY)
    assert find(phone, text="Naming: Record-1.m4a") is not None
    tap(phone, text="Apply")
    assert phone.activities.foreground() == (PACKAGE, MAIN_ACTIVITY)
    prefs = phone.fs.read_bytes(PREFS_PATH).decode()
    assert '<boolean name="is_first_run" value="false" />' in prefs
    assert '<boolean name="is_ask_rename_after_stop_recording" value="true" />' in prefs
    assert phone.fs.is_dir(RECORDS_DIR)
    phone.run(f"am force-stop {PACKAGE}")
    open_app(phone)
    assert phone.activities.foreground() == (PACKAGE, MAIN_ACTIVITY)
    phone.run(f"pm clear {PACKAGE}")
    open_app(phone)
    assert phone.activities.foreground() == (PACKAGE, WELCOME_ACTIVITY)


def test_recording_counts_virtual_time_and_stop_writes_an_m4a_named_record_n(ready):
    phone = ready
    tap(phone, **RECORD)
    assert files(phone) == ["Record-1.m4a"] and phone.fs.read_bytes(f"{RECORDS_DIR}/Record-1.m4a") == b""
    assert text_of(phone, "txt_name") == "Recording\u2026"
    phone.clock.advance(4000)
    assert text_of(phone, "txt_progress") == "00:04"
    tap(phone, **RECORD)  # pause (at 5 s)
    assert text_of(phone, "txt_name") == "Paused"
    phone.clock.advance(60_000)
    assert text_of(phone, "txt_progress") == "00:05"
    tap(phone, **RECORD)  # resume: 1 s more by the time stop is tapped
    tap(phone, **STOP)
    data = phone.fs.read_bytes(f"{RECORDS_DIR}/Record-1.m4a")
    assert [kind for kind, _ in boxes(data)] == ["ftyp", "moov"] and mp4_duration_ms(data) == 6000
    [row] = rows(phone)
    assert (row["name"], row["duration"], row["size"], row["format"]) == ("Record-1", 6_000_000, len(data), "m4a")
    assert row["path"] == f"{RECORDS_DIR}/Record-1.m4a"
    assert text_of(phone, "dialog_title") == "New name"
    assert text_of(phone, "input_name") == "Record-1"
    tap(phone, text="Cancel")
    assert text_of(phone, "txt_name") == "Record-1" and text_of(phone, "txt_duration") == "00:06"
    record(phone, 1)
    tap(phone, text="Cancel")
    assert files(phone) == ["Record-1.m4a", "Record-2.m4a"]


def test_the_dialog_after_stopping_renames_the_file_with_the_records_extension(ready):
    phone = ready
    record(phone, 2)
    rename_to(phone, "memo_final.m4a")
    assert files(phone) == ["memo_final.m4a.m4a"]
    assert phone.run(f"stat -c %y {RECORDS_DIR}").stdout.decode().startswith("2023-10-15 15:34")  # device time
    assert rows(phone)[0]["name"] == "memo_final.m4a"
    assert rows(phone)[0]["path"] == f"{RECORDS_DIR}/memo_final.m4a.m4a"
    assert find(phone, resource_id=rid("dialog_title")) is None
    assert text_of(phone, "txt_name") == "memo_final.m4a"


def test_names_are_cleaned_capped_and_never_leave_the_folder_or_replace_a_file(ready):
    phone = ready
    record(phone, 1)
    rename_to(phone, "a:b ")
    assert files(phone) == ["a_b.m4a"]
    tap(phone, resource_id=rid("txt_name"))  # rename again, from the main screen (no check box now)
    assert find(phone, resource_id=rid("check_box")) is None
    rename_to(phone, "x" * 60)
    assert files(phone) == ["x" * 50 + ".m4a"]
    tap(phone, resource_id=rid("txt_name"))
    rename_to(phone, "../escaped")
    assert files(phone) == ["x" * 50 + ".m4a"] and not phone.fs.exists(f"{RECORDS_DIR}/../escaped.m4a")
    phone.run(f"echo taken > {RECORDS_DIR}/taken.m4a")
    tap(phone, resource_id=rid("txt_name"))
    rename_to(phone, "taken")
    assert phone.fs.read_bytes(f"{RECORDS_DIR}/taken.m4a") == b"taken\n"
    assert rows(phone)[0]["name"] == "x" * 50


def test_dont_ask_again_stops_the_dialog_and_a_taken_record_name_gets_a_1_prefix(ready):
    phone = ready
    record(phone, 1)
    tap(phone, resource_id=rid("check_box"))
    tap(phone, text="Cancel")
    assert '<boolean name="is_ask_rename_after_stop_recording" value="false" />' in \
        phone.fs.read_bytes(PREFS_PATH).decode()
    phone.run(f"echo old > {RECORDS_DIR}/Record-2.m4a")
    record(phone, 1)
    assert find(phone, resource_id=rid("dialog_title")) is None
    assert files(phone) == ["1Record-2.m4a", "Record-1.m4a", "Record-2.m4a"]
    assert [row["name"] for row in rows(phone)] == ["Record-1", "1Record-2"]


def test_the_records_list_shows_newest_first_and_renames_from_an_items_menu(ready):
    phone = ready
    record(phone, 1)
    tap(phone, text="Cancel")
    record(phone, 3)
    tap(phone, text="Cancel")
    tap(phone, resource_id=rid("btn_records_list"))
    assert phone.activities.foreground() == (PACKAGE, RECORDS_ACTIVITY)
    names = [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid("list_item_name")]
    assert names == ["Record-2", "Record-1"]
    durations = [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid("list_item_description")]
    assert durations == ["00:04", "00:02"]
    assert text_of(phone, "list_item_date") == "10/15/23, 3:34 PM"
    tap(phone, resource_id=rid("list_item_more"))
    tap(phone, text="Rename")
    assert text_of(phone, "input_name") == "Record-2"
    rename_to(phone, "interview_copy.m4a")
    assert files(phone) == ["Record-1.m4a", "interview_copy.m4a.m4a"]
    names = [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid("list_item_name")]
    assert names == ["interview_copy.m4a", "Record-1"]
    tap(phone, resource_id=rid("btn_back"))
    assert phone.activities.foreground() == (PACKAGE, MAIN_ACTIVITY)


def test_force_stop_while_recording_leaves_an_empty_file_and_pm_clear_empties_the_database(ready):
    phone = ready
    tap(phone, **RECORD)
    phone.run(f"am force-stop {PACKAGE}")
    assert phone.fs.read_bytes(f"{RECORDS_DIR}/Record-1.m4a") == b""
    open_app(phone)
    assert find(phone, **STOP) is None
    phone.run(f"pm clear {PACKAGE}")
    assert rows(phone) == []
    open_app(phone)
    tap(phone, text="Get started")
    tap(phone, text="Apply")
    tap(phone, resource_id=rid("btn_records_list"))
    assert find(phone, text="Records is empty") is not None


def test_dont_ask_again_is_a_check_box_drawn_before_its_label(ready):
    """``dialog_rename.xml``'s CheckBox: its box before the label, grey when unchecked, filled in
    ``@color/checkbox_color``'s checked md_yellow_A700 when checked."""
    phone = ready
    record(phone, 1)

    def yellow() -> tuple[float, float]:
        node = find(phone, resource_id=rid("check_box"))
        assert node.get("class") == "android.widget.CheckBox"
        x1, y1, x2, y2 = map(int, re.findall(r"\d+", node.get("bounds")))
        hits = (phone.screenshot()[y1:y2, x1:x2] == (255, 214, 0)).all(axis=2)
        return hits[:, :hits.shape[1] // 2].mean(), hits[:, hits.shape[1] // 2:].mean()

    assert yellow() == (0.0, 0.0)
    tap(phone, resource_id=rid("check_box"))
    left, right = yellow()
    assert find(phone, resource_id=rid("check_box")).get("checked") == "true" and left > 0.01 and right == 0.0


def test_the_record_buttons_description_is_the_apps_german_string(phone):
    """btn_record's contentDescription, the unformatted @string/recording, from values-de."""
    phone.run("setprop persist.sys.locale de-DE && setprop ctl.restart zygote")
    open_app(phone)
    tap(phone, text="Loslegen")
    tap(phone, text="Anwenden")
    assert find(phone, content_desc="Aufnahme: %s") is not None and find(phone, **RECORD) is None


@pytest.mark.parametrize("language, start, apply, theme, naming, sample_rate, recording, title", [
    ("de-DE", "Loslegen", "Anwenden", "Thema Blaugrau", "Benennung:", "44.1kHz", "Aufnahme: %s", "New name"),
    ("fr-FR", "Démarrer", "Appliquer", "Thème Bleu Gris", "Nommage:", "44.1 kHz", "Enregistrement : %s",
     "Nouveau nom")])
def test_setup_choices_and_the_name_dialog_are_in_the_system_language(phone, language, start, apply, theme, naming,
                                                                      sample_rate, recording, title):
    """The setup's string-array items (theme_colors2, sample_rates2, formats2, bit_rates2), its naming example
    (``getString(R.string.naming) + " " + name``) and the rename dialog's record_name from values-de/values-fr;
    values-de has no record_name, so the German title stays English."""
    phone.run(f"setprop persist.sys.locale {language} && setprop ctl.restart zygote")
    open_app(phone)
    tap(phone, text=start)
    shown = {node.get("text") for node in nodes(phone)}
    assert {theme, f"{naming} Record-1.m4a", sample_rate, "M4a", "128 kbps"} <= shown and "Theme Blue Gray" not in shown
    tap(phone, text=apply)
    tap(phone, content_desc=recording)
    tap(phone, **STOP)
    assert find(phone, resource_id=rid("dialog_title")).get("text") == title
