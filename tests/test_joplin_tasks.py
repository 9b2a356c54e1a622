"""Joplin tasks: AndroidWorld's Notes* specs (prompts, parameter pools, rows as AndroidWorld writes them, noise,
answers) and the row checks of JoplinCreateNote / JoplinCompleteTodo."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from android_gym.device import state
from android_gym.device.sim import SimDevice
from android_gym.envs.joplin import (
    FOLDER_TITLES,
    NOTES,
    ROW_TIME_MS,
    JoplinCompleteTodo,
    JoplinCreateNote,
    JoplinTickChecklistItem,
    folder_id,
    note_row,
    random_note_row,
)
from android_gym.sim.apps.joplin import DB_PATH
from android_gym.tasks.registry import get_task


@pytest.fixture(scope="module")
def device():
    sim = SimDevice()
    yield sim
    sim.close()


def made(name: str, seed: int = 0, **pinned):
    task_class = get_task(name)
    params = {**task_class.generate_params(np.random.default_rng(seed)), **pinned}
    return task_class(params)


def test_the_four_prompts_are_androidworlds():
    assert made("NotesIsTodo").goal.startswith("Is the note titled '")
    assert made("NotesIsTodo").goal.endswith("in the Joplin app marked as a todo item? Respond with either 'True' "
                                              "if it is a todo or 'False' if not.")
    goal = made("NotesTodoItemCount", folder="Work").goal
    assert goal == ("How many to-dos do I have in the 'Work' folder in the Joplin app? Express your answer as just "
                    "a single number.")
    goal = made("NotesRecipeIngredientCount", title="Tacos", ingredient="millet").goal
    assert goal.startswith("What quantity of millet do I need for the recipe 'Tacos' in the Joplin app?")
    goal = made("NotesMeetingAttendeeCount", title="Project Status Update").goal
    assert goal.startswith("How many attendees were present in the meeting titled 'Project Status Update'")


def test_note_rows_are_written_as_androidworld_writes_them():
    row = note_row("Trip", "Pack", "Travel", is_todo=True, todo_completed=True)
    assert row["parent_id"] == folder_id("Travel") and len(row["id"]) == len(row["parent_id"]) == 32
    assert (row["is_todo"], row["todo_completed"], row["markup_language"]) == (1, 1, 1)
    assert row["created_time"] == row["user_updated_time"] == ROW_TIME_MS == 1697297640000
    assert note_row("Trip", "Pack", "Travel") != row


def test_noise_favours_the_tasks_notebooks_and_is_seeded():
    rng = np.random.default_rng(3)
    rows = [random_note_row(rng, [{"folder": "Finance"}]) for _ in range(1000)]
    share = Counter(row["folder"] for row in rows)["Finance"] / len(rows)
    assert 0.3 < share < 0.42  # 30 % + 70 % / 12
    assert set(row["folder"] for row in rows) == set(FOLDER_TITLES)
    assert {(row["is_todo"], row["todo_completed"]) for row in rows} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert random_note_row(np.random.default_rng(1)) == random_note_row(np.random.default_rng(1))


def test_a_spec_writes_folders_notes_and_the_search_mirror(device):
    task = made("NotesTodoItemCount", 4)
    task.initialize(device)
    notes = NOTES.rows(device)
    folders = state.sqlite_query(device, DB_PATH, "SELECT title FROM folders")
    assert len(notes) == 103 and len({f["title"] for f in folders}) == len(folders)
    mine = [row for row in notes if row["folder"] == task.params["folder"] and row["is_todo"]]
    assert sorted(row["title"] for row in mine) == sorted(task.params["title"])  # noise to-dos excluded there
    mirror = {row["id"]: row for row in NOTES.normalized(device)}
    assert all(mirror[row["id"]]["title"] == row["title"].lower() and mirror[row["id"]]["body"] == row["body"]
               for row in notes)
    task.answer = "3"
    assert task.is_successful(device) == 1.0
    task.answer = "4"
    assert task.is_successful(device) == 0.0
    task.teardown(device)
    assert NOTES.rows(device) == [] and NOTES.normalized(device) == []


def test_nested_placeholders_and_answers_of_the_question_tasks():
    recipe = made("NotesRecipeIngredientCount", 2)
    body = recipe.relevant_records()[0]["body"]
    assert f"- {recipe.params['ingredient_quantity']} {recipe.params['ingredient']}\n" in body and "{" not in body
    recipe.answer = recipe.params["ingredient_quantity"]
    assert recipe.is_successful(None) == 1.0
    recipe.answer = "5 gallons"
    assert recipe.is_successful(None) == 0.0
    meeting = made("NotesMeetingAttendeeCount", 1)
    assert meeting.params["attendee_count"] in meeting.relevant_records()[0]["body"]
    meeting.answer = meeting.params["attendee_count"]
    assert meeting.is_successful(None) == 1.0
    todo = made("NotesIsTodo", 0, is_todo="False")
    assert todo.relevant_records()[0]["is_todo"] is False
    todo.answer = "false"
    assert todo.is_successful(None) == 1.0
    todo.answer = "True"
    assert todo.is_successful(None) == 0.0
    titles = [row["title"] for row in made("NotesIsTodo", 5).noise_rows()]
    assert made("NotesIsTodo", 5).params["title"] not in titles


def _execute(device, sql, params=()):
    state.sqlite_execute(device, DB_PATH, sql, params)


def test_create_note_succeeds_only_with_the_exact_new_note(device):
    task = made("JoplinCreateNote", 2)
    assert isinstance(task, JoplinCreateNote)
    task.initialize(device)
    assert task.is_successful(device) == 0.0
    parent = next(row["parent_id"] for row in task.before if row["folder"] == task.params["folder"])
    values = (task.params["title"], task.params["body"] + "\n", parent)
    _execute(device, "INSERT INTO notes (id, title, body, parent_id, created_time, updated_time) "
                     "VALUES ('a1', ?, ?, ?, 1, 1)", values)
    assert task.is_successful(device) == 0.0  # not mirrored for search
    _execute(device, "INSERT INTO notes_normalized (id, title) VALUES ('a1', ?)", (task.params["title"].lower(),))
    assert task.is_successful(device) == 1.0
    _execute(device, "UPDATE notes SET is_todo = 1 WHERE id = 'a1'")
    assert task.is_successful(device) == 0.0
    _execute(device, "UPDATE notes SET is_todo = 0 WHERE id = 'a1'")
    _execute(device, "UPDATE notes SET title = 'changed' WHERE id = ?", (task.before[0]["id"],))
    assert task.is_successful(device) == 0.0
    task.teardown(device)


def test_complete_todo_succeeds_only_when_the_target_alone_is_done(device):
    task = made("JoplinCompleteTodo", 1)
    assert isinstance(task, JoplinCompleteTodo)
    task.initialize(device)
    target = next(row for row in task.before if row["title"] == task.params["title"])
    assert target["is_todo"] == 1 and target["todo_completed"] == 0 and task.is_successful(device) == 0.0
    _execute(device, "UPDATE notes SET todo_completed = 5, updated_time = 9 WHERE id = ?", (target["id"],))
    assert task.is_successful(device) == 1.0
    other = next(row for row in task.before if row["id"] != target["id"])
    _execute(device, "UPDATE notes SET body = 'x' WHERE id = ?", (other["id"],))
    assert task.is_successful(device) == 0.0
    task.teardown(device)


def test_tick_checklist_item_succeeds_only_with_that_box_ticked(device):
    task = made("JoplinTickChecklistItem", 2)
    assert isinstance(task, JoplinTickChecklistItem)
    task.initialize(device)
    target = next(row for row in task.before if row["title"] == task.params["title"])
    item = task.params["item"]
    assert f"- [ ] {item}" in target["body"] and "- [x] " in target["body"] and task.is_successful(device) == 0.0
    ticked = target["body"].replace(f"- [ ] {item}", f"- [x] {item}")
    _execute(device, "UPDATE notes SET body = ?, updated_time = 9 WHERE id = ?", (ticked, target["id"]))
    assert task.is_successful(device) == 1.0
    _execute(device, "UPDATE notes SET body = ? WHERE id = ?", (ticked.replace("- [ ] ", "- [x] "), target["id"]))
    assert task.is_successful(device) == 0.0  # ticking every box is not the task
    task.teardown(device)
