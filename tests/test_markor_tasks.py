"""Markor tasks: AndroidWorld's parameters and goals, and checks that are stricter than its own (a wrong, extra or
noise change scores 0), played through the UI where an agent would go wrong."""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.agents import OracleAgent
from android_gym.device.config import DeviceConfig
from android_gym.envs.markor import (
    APP_NAME,
    EDITOR,
    EXT_FIELD,
    FILE_LIST,
    NAME_FIELD,
    NEW_NOTE,
    OK,
    RENAME_FIELD,
    SUBFOLDERS,
    leave_editor,
    new_note,
    open_note,
    select_note,
)
from android_gym.tasks.files import MARKOR_DATA, tree_snapshot
from android_gym.tasks.oracle import (
    OracleStep,
    Selector,
    complete,
    open_app,
    replace_text,
    tap,
    type_into,
)
from android_gym.tasks.user_data import RANDOM_SENTENCES
from android_gym.testing import play_steps, run_episode


def play(env: gym.Env, info: dict, steps: Sequence[OracleStep]) -> dict:
    """``play_steps`` with no invalid action allowed (used by most tests here)."""
    info, invalid = play_steps(env, info, steps)
    assert not invalid, invalid
    return info


def shell(env: gym.Env, command: str) -> str:
    result = env.unwrapped.device.shell(command)
    assert result.ok, result.output
    return result.output


def score(env: gym.Env) -> float:
    return env.unwrapped.task.is_successful(env.unwrapped.device)


def params(task: str, seed: int) -> dict:
    return android_gym.get_task(task).generate_params(np.random.default_rng(seed))


def delete_note(name: str) -> list[OracleStep]:
    return [*select_note(name), tap(Selector(content_desc="Delete")), tap(OK)]


@pytest.mark.parametrize("seed", range(5))
def test_parameters_follow_androidworld(seed):
    create = params("MarkorCreateNote", seed)
    assert create["file_name"].endswith((".md", ".txt")) and create["text"] in RANDOM_SENTENCES
    delete = params("MarkorDeleteNote", seed)
    assert "." not in delete["file_name"] and 1 <= len(delete["noise_files"]) <= 20
    assert delete["file_name"] not in delete["noise_files"]
    assert all(name.endswith(".md") for name in delete["noise_files"])  # the note titles' extension
    assert 1 <= len(params("MarkorDeleteAllNotes", seed)["notes"]) <= 6
    newest = params("MarkorDeleteNewestNote", seed)
    assert 2 <= len(newest["notes"]) <= 6 and len(set(newest["minutes"])) == len(newest["minutes"])
    merge = params("MarkorMergeNotes", seed)
    assert len(merge["new_file_name"]) == 8 and merge["new_file_name"].isalnum()
    assert len({merge["file1_name"], merge["file2_name"], merge["file3_name"]}) == 3
    move = params("MarkorMoveNote", seed)
    assert {move["source_folder"], move["destination_folder"]} <= set(SUBFOLDERS)
    assert move["source_folder"] != move["destination_folder"]
    edit = params("MarkorEditNote", seed)
    assert edit["file_name"].startswith("note_") and edit["edit_type"] in ("header", "footer", "replace")
    header = params("MarkorAddNoteHeader", seed)
    assert header["original_name"] != header["new_name"] and len(header["header"]) == 20
    assert not {header["original_name"], header["new_name"]} & set(header["noise_files"])
    assert params("MarkorCreateFolder", seed)["folder_name"].startswith("folder_2023")
    assert params("MarkorMergeNotes", seed) == merge  # seeded


def test_goals_are_androidworlds():
    edit = android_gym.get_task("MarkorEditNote")
    assert edit({"file_name": "n.md", "edit_type": "footer", "footer": "Bye."}).goal == \
        "Edit n.md in Markor. Add to the bottom of the note Bye."
    assert edit({"file_name": "n.md", "edit_type": "replace", "replace_text": "X"}).goal == \
        "Edit n.md in Markor. Replace the text with X"
    both = android_gym.get_task("MarkorCreateNoteAndSms")({"file_name": "a.md", "text": "Hi.", "number": "+1"})
    assert both.goal == ("Create a new note in Markor named a.md with the following text: Hi.. Share the entire "
                         "content of the note with the phone number +1 via SMS using Simple SMS Messenger")


def test_pinned_parameters_pin_the_files(reset_task):
    env, info = reset_task("MarkorDeleteNote", seed=3)
    first = tree_snapshot(env.unwrapped.device, MARKOR_DATA)
    _, again = env.reset(options={"params": info["params"]})
    assert tree_snapshot(env.unwrapped.device, MARKOR_DATA) == first
    assert len(first) == len(info["params"]["noise_files"]) + 1


def test_deleting_the_wrong_note_scores_zero(reset_task):
    env, info = reset_task("MarkorDeleteNote", seed=1)
    noise = sorted(info["params"]["noise_files"])[0]
    info = play(env, info, [open_app(APP_NAME), *delete_note(noise)])
    assert info["score"] == 0.0
    info = play(env, info, delete_note(info["params"]["file_name"]))
    assert info["score"] == 0.0  # the note is gone too, but so is a noise note
    assert not shell(env, f"ls {MARKOR_DATA}/{noise} 2>/dev/null || true")


def _far_down(seed: int) -> bool:
    """Whether ``MarkorDeleteNote``'s note comes 13th or later in the list (the screen shows about 11 rows)."""
    drawn = params("MarkorDeleteNote", seed)
    return sorted([*drawn["noise_files"], drawn["file_name"]], key=str.lower).index(drawn["file_name"]) >= 12


def test_a_long_list_scrolls_to_the_note(reset_task):
    seed = next(seed for seed in range(100) if _far_down(seed))
    env, info = reset_task("MarkorDeleteNote", seed=seed)
    info = play(env, info, [open_app(APP_NAME)])
    shown = [e.text for e in info["ui_elements"] if e.resource_name.endswith("opoc_filesystem_item__title")]
    assert info["params"]["file_name"] not in shown
    info = play(env, info, [*delete_note(info["params"]["file_name"])])
    assert info["score"] == 1.0 and info["actions"] >= 4  # at least one scroll


def _footer_seed() -> int:
    return next(seed for seed in range(50) if params("MarkorEditNote", seed)["edit_type"] == "footer")


def test_a_noise_note_changed_scores_zero(reset_task):
    env, info = reset_task("MarkorEditNote", seed=_footer_seed())
    noise = sorted(info["params"]["noise_files"], key=str.lower)[0]
    info = play(env, info, [open_app(APP_NAME), *open_note(noise), type_into(EDITOR, "oops"), *leave_editor()])
    info = play(env, info, [*open_note(info["params"]["file_name"]), type_into(EDITOR, info["params"]["footer"]),
                            *leave_editor()])
    text = shell(env, f"cat {shlex.quote(posixpath.join(MARKOR_DATA, info['params']['file_name']))}")
    assert text == f"{info['params']['original_content']}\n{info['params']['footer']}\n"  # the edit itself is right
    assert info["score"] == 0.0


def test_editing_without_leaving_the_editor_saves_nothing(reset_task):
    env, info = reset_task("MarkorEditNote", seed=_footer_seed())
    info = play(env, info, [open_app(APP_NAME), *open_note(info["params"]["file_name"]),
                            type_into(EDITOR, info["params"]["footer"]), complete()])
    assert info["score"] == 0.0  # Markor writes the file when the editor pauses


def test_merging_without_blank_lines_scores_zero(reset_task):
    env, info = reset_task("MarkorMergeNotes", seed=2)
    drawn = info["params"]
    joined = "\n".join(drawn[f"file{i}_content"] for i in (1, 2, 3))
    info = play(env, info, [open_app(APP_NAME), *new_note(drawn["new_file_name"]), type_into(EDITOR, joined),
                            *leave_editor()])
    assert shell(env, f"cat {MARKOR_DATA}/{drawn['new_file_name']}") == joined + "\n"
    assert info["score"] == 0.0
    spaced = "\n\n".join(drawn[f"file{i}_content"] for i in (1, 2, 3))
    info = play(env, info, [*open_note(drawn["new_file_name"]), replace_text(EDITOR, spaced), *leave_editor()])
    assert info["score"] == 1.0
    shell(env, f"rm {shlex.quote(posixpath.join(MARKOR_DATA, drawn['file2_name']))}")
    assert score(env) == 0.0  # the merged notes must stay


def test_deleting_an_older_note_scores_zero(reset_task):
    env, info = reset_task("MarkorDeleteNewestNote", seed=4)
    notes, minutes = list(info["params"]["notes"]), info["params"]["minutes"]
    oldest = notes[int(np.argmin(minutes))]
    newest = notes[int(np.argmax(minutes))]
    listing = shell(env, f"ls -lt {MARKOR_DATA}").splitlines()
    assert listing[1].endswith(newest)  # the times are set
    info = play(env, info, [open_app(APP_NAME), *delete_note(oldest)])
    assert info["score"] == 0.0
    info = play(env, info, delete_note(newest))
    assert info["score"] == 0.0


def test_copying_instead_of_moving_or_moving_elsewhere_scores_zero(reset_task):
    env, info = reset_task("MarkorMoveNote", seed=0)
    drawn = info["params"]
    source, destination = (posixpath.join(MARKOR_DATA, drawn[key]) for key in ("source_folder", "destination_folder"))
    name = shlex.quote(drawn["file_name"])
    shell(env, f"cp {source}/{name} {destination}/")
    assert score(env) == 0.0
    shell(env, f"rm {destination}/{name} && mkdir -p {MARKOR_DATA}/Other && mv {source}/{name} {MARKOR_DATA}/Other/")
    assert score(env) == 0.0
    noise = shlex.quote(next(iter(drawn["noise_files"])))
    shell(env, f"mv {MARKOR_DATA}/Other/{name} {destination}/ && mv {source}/{noise} {destination}/")
    assert score(env) == 0.0  # a noise note went along
    shell(env, f"mv {destination}/{noise} {source}/ && rmdir {MARKOR_DATA}/Other")
    assert score(env) == 1.0


def test_a_file_is_not_a_folder_and_the_noise_stays(reset_task):
    env, info = reset_task("MarkorCreateFolder", seed=1)
    folder = info["params"]["folder_name"]
    shell(env, f"echo x > {MARKOR_DATA}/{folder}")
    assert score(env) == 0.0
    shell(env, f"rm {MARKOR_DATA}/{folder}")
    info = play(env, info, [open_app(APP_NAME), tap(NEW_NOTE), type_into(NAME_FIELD, folder),
                            tap(Selector(text="FOLDER"))])
    assert info["score"] == 1.0
    shell(env, f"rm {shlex.quote(posixpath.join(MARKOR_DATA, next(iter(info['params']['noise_files']))))}")
    assert score(env) == 0.0


def test_deleting_the_notebook_folder_is_not_deleting_the_notes(reset_task):
    env, info = reset_task("MarkorDeleteAllNotes", seed=0)
    shell(env, f"rm -r {MARKOR_DATA}")
    assert score(env) == 0.0
    shell(env, f"mkdir -p {MARKOR_DATA}")
    assert score(env) == 1.0


def test_the_header_needs_a_blank_line(reset_task):
    env, info = reset_task("MarkorAddNoteHeader", seed=0)
    drawn = info["params"]
    original, new = (shlex.quote(posixpath.join(MARKOR_DATA, drawn[key])) for key in ("original_name", "new_name"))
    shell(env, f"printf '%s\\n%s\\n' {shlex.quote(drawn['header'])} {shlex.quote(drawn['original_content'])} > "
               f"{original} && mv {original} {new}")
    assert score(env) == 0.0  # AndroidWorld compares exactly
    shell(env, f"printf '%s\\n\\n%s\\n' {shlex.quote(drawn['header'])} {shlex.quote(drawn['original_content'])}"
               f" > {new}")
    assert score(env) == 1.0


def test_renaming_without_the_new_content_scores_zero(reset_task):
    env, info = reset_task("MarkorChangeNoteContent", seed=0)
    drawn = info["params"]
    info = play(env, info, [open_app(APP_NAME), *select_note(drawn["original_name"]),
                            tap(Selector(content_desc="Rename"))])
    assert [e.text for e in info["ui_elements"] if e.resource_name.endswith("new_name")] == [drawn["original_name"]]
    info = play(env, info, [replace_text(RENAME_FIELD, drawn["new_name"]), tap(OK)])
    assert shell(env, f"ls {MARKOR_DATA}/{shlex.quote(drawn['new_name'])}")
    assert info["score"] == 0.0


def test_a_typed_extension_makes_a_different_note(reset_task):
    env, info = reset_task("MarkorCreateNote", seed=0)
    drawn = info["params"]
    extension = "." + drawn["file_name"].rpartition(".")[2]
    info = play(env, info, [open_app(APP_NAME), tap(NEW_NOTE), type_into(NAME_FIELD, drawn["file_name"]),
                            replace_text(EXT_FIELD, extension), tap(OK), type_into(EDITOR, drawn["text"]),
                            *leave_editor()])
    names = [e.text for e in info["ui_elements"] if e.resource_name.endswith("opoc_filesystem_item__title")]
    assert drawn["file_name"] + extension in names  # Markor appends the extension field to the name
    assert info["score"] == 0.0


def test_a_note_without_the_sms_is_half_done(reset_task):
    env, info = reset_task("MarkorCreateNoteAndSms", seed=1)
    drawn = info["params"]
    info = play(env, info, [open_app(APP_NAME), *new_note(drawn["file_name"]), type_into(EDITOR, drawn["text"]),
                            *leave_editor()])
    assert FILE_LIST.present(info["ui_elements"]) and info["score"] == 0.5


def test_deleting_all_notes_on_a_small_phone_scrolls_to_each_row_and_reaches_the_confirmation_button(reset_task):
    """On the small phone with large text the later notes are below the fold (the oracle scrolls to each) and the
    confirmation lists every path: its message scrolls in the dialog, whose buttons stay on screen (issue #28)."""
    small = DeviceConfig(phone="small_phone", font_scale=1.3, dark_theme=True, language="fr-FR")
    env, _ = reset_task("MarkorDeleteAllNotes", device="sim:270x600")
    result = run_episode(env, OracleAgent(), seed=3, options={"device_config": small})
    assert len(result.info["params"]["notes"]) == 6
    assert result.score == 1.0 and not result.invalid_actions


def test_a_note_without_extension_gets_the_none_type_in_french_on_a_small_phone(reset_task):
    """On the small phone in French the Type drop-down is taller than the room above the keyboard: it is capped
    and scrolls (a ListPopupWindow fits its available height), and the oracle finds "Aucune" through the
    translations of "None" (issue #28)."""
    small = DeviceConfig(phone="small_phone", font_scale=0.85, dark_theme=True, language="fr-FR")
    env, _ = reset_task("MarkorMergeNotes", device="sim:270x600")
    result = run_episode(env, OracleAgent(), seed=6, options={"device_config": small})
    assert "." not in result.info["params"]["new_file_name"]
    assert result.score == 1.0 and not result.invalid_actions


def test_a_note_four_screens_down_is_found_with_search_within_the_step_budget(reset_task):
    """On the small phone in French with font 1.15 the note lies four scrolls down, and renaming it after the edit
    needs its row again: scrolling took 13 steps against AndroidWorld's 12. The oracle searches for it instead (the
    name, then a long press on the result, which scrolls its row to the top of the list, where it still is after
    the editor), in 12 steps (issue #28)."""
    small = DeviceConfig(phone="small_phone", font_scale=1.15, dark_theme=False, language="fr-FR",
                         navigation="3-button")
    env, _ = reset_task("MarkorChangeNoteContent", device="sim:270x600")
    result = run_episode(env, OracleAgent(), seed=7, options={"device_config": small})
    assert result.info["params"]["original_name"] == "edited_safe_frog.txt"
    assert result.score == 1.0 and not result.invalid_actions
    assert result.steps == env.spec.max_episode_steps == 12
