"""Tasks whose data is in another app's files: the files the setup writes, the information being only in pixels
for pictures, and the checks (AndroidWorld's, e.g. a reimbursable note typed with its mark does not count)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from android_gym.device import state
from android_gym.envs.cross_app import view_picture
from android_gym.envs.expense import EXPENSES
from android_gym.envs.recipe import RECIPES
from android_gym.tasks import files
from android_gym.testing import play_steps


def _picture(device, path: str) -> Image.Image:
    picture = Image.open(io.BytesIO(device.pull(path)))
    picture.load()
    return picture


def test_the_expense_note_marks_the_reimbursable_rows_among_the_noise(reset_task):
    env, _ = reset_task("ExpenseAddMultipleFromMarkor", seed=1)
    task, device = env.unwrapped.task, env.unwrapped.device
    lines = files.file_text(device, f"{files.MARKOR_DATA}/my_expenses.txt").splitlines()
    assert lines[0] == "name|amount_dollars|category_name|note" and len(lines) == 1 + 2 + 100
    marked = [line for line in lines if line.endswith(". Reimbursable.")]
    assert sorted(line.split("|")[0] for line in marked) == sorted(row["name"] for row in task.params["rows"])
    assert len(EXPENSES.rows(device)) == 100  # the noise is in the app already, as AndroidWorld inserts it
    as_in_note = [{**row, "note": row["note"] + ". Reimbursable."} for row in task.params["rows"]]
    EXPENSES.insert(device, as_in_note)
    assert task.is_successful(device) == 0.0  # AndroidWorld expects the note without the mark
    state.sqlite_execute(device, EXPENSES.db_path, "DELETE FROM expense WHERE note LIKE ?", ("%. Reimbursable.",))
    EXPENSES.insert(device, task.params["rows"])
    assert task.is_successful(device) == 1.0


def test_recipes_of_the_long_note_are_told_apart_by_preparation_time(reset_task):
    env, _ = reset_task("RecipeAddMultipleRecipesFromMarkor2", seed=2)
    task, device = env.unwrapped.task, env.unwrapped.device
    text = files.file_text(device, f"{files.MARKOR_DATA}/recipes.txt")
    prep_time = task.params["prep_time"]
    assert prep_time in task.goal and all(row["title"] in text for row in task.params["recipes"])
    assert all(row["preparationTime"] == prep_time for row in task.params["recipes"])
    assert all(row["preparationTime"] != prep_time for row in task.params["noise"])
    assert len(RECIPES.rows(device)) == 40
    RECIPES.insert(device, [{**task.params["recipes"][0]}, {**task.params["noise"][0]}])
    assert task.is_successful(device) == 0.0  # a noise recipe added, two targets missing


@pytest.mark.parametrize(("task_name", "picture_name", "shown"), [
    ("ExpenseAddMultipleFromGallery", "expenses.jpg", lambda task: [row["name"] for row in task.params["rows"]]),
    ("RecipeAddMultipleRecipesFromImage", "recipes.jpg", lambda task: [row["title"] for row in task.params["recipes"]]),
    ("MarkorTranscribeReceipt", "receipt.png", lambda task: [row[1] for row in task.params["receipt"]["transactions"]]),
])
def test_pictures_hold_the_data_only_in_their_pixels(reset_task, task_name, picture_name, shown):
    """The picture is a real image in DCIM; once the oracle has it on screen, the UI tree names none of the rows."""
    env, info = reset_task(task_name)
    task, device = env.unwrapped.task, env.unwrapped.device
    picture = _picture(device, f"{files.GALLERY_DATA}/{picture_name}")
    assert picture.format == ("PNG" if picture_name.endswith(".png") else "JPEG") and picture.width >= 300
    _, invalid = play_steps(env, info, view_picture(picture_name))
    assert not invalid
    dump = device.ui_dump()
    assert "ImageView" in dump
    assert not any(text in dump for text in shown(task))


def test_the_receipt_note_must_hold_the_transactions(reset_task):
    env, _ = reset_task("MarkorTranscribeReceipt", seed=3)
    task, device = env.unwrapped.task, env.unwrapped.device
    lines = task.params["text"].splitlines()
    assert lines[0] == "Date, Item, Amount" and 1 <= len(lines) - 1 <= 5
    path = f"{files.MARKOR_DATA}/receipt.md"
    assert task.is_successful(device) == 0.0
    device.push(("Date, Item, Amount\n" + "2023-01-01, Webcam, $1.00\n" * (len(lines) - 1)).encode(), path)
    assert task.is_successful(device) == 0.0
    device.push(task.params["text"].encode() + b"\n", path)
    assert task.is_successful(device) == 1.0
