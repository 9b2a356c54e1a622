"""Tasks whose data sits in another app's files: a Markor note or a picture in Simple Gallery Pro holds what the
agent must enter in Pro Expense, Broccoli or a new Markor note (AndroidWorld's ``ExpenseAddMultipleFromMarkor``,
``ExpenseAddMultipleFromGallery``, ``RecipeAddMultipleRecipesFromMarkor``, ``…FromMarkor2``, ``…FromImage`` and
``MarkorTranscribeReceipt``).

Setup and checks are AndroidWorld's: the app's table gets the noise rows (as ``SQLiteApp.initialize_task``
inserts ``noise_row_objects``) and the task passes when exactly the target rows were added. The source file is
written from the task's parameters: a CSV or text-block note in ``Documents/Markor``, or a JPEG/PNG drawn with
Pillow in ``DCIM`` whose information is only in its pixels. In ``ExpenseAddMultipleFromMarkor`` the reimbursable
rows are the ones whose note ends in ". Reimbursable."; the expected rows carry the note without it, as in
AndroidWorld (a note typed with the suffix does not match).

The oracles open the source first and check it is on screen (the note's text in the editor, the picture in the
viewer), then type the rows in, as a person reading the file would.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.envs import expense, markor, recipe
from android_gym.sim.apps import gallery
from android_gym.tasks import Task, register_task
from android_gym.tasks import files as device_files
from android_gym.tasks.images import encode, receipt_image, receipt_lines, receipt_params, text_image
from android_gym.tasks.oracle import OracleStep, Selector, complete, expect, open_app, tap, type_into
from android_gym.tasks.sqlite_rows import Row, SqliteRowsTask
from android_gym.tasks.user_data import pick
from android_gym.tasks.validators import fuzzy_match
from android_gym.ui import UIElement

MARKOR_PACKAGE = markor.PACKAGE
GALLERY_PACKAGE = gallery.PACKAGE
GALLERY_APP = "simple gallery pro"
#: Goals' wrap width for text drawn into pictures (``wrap_width=60``).
IMAGE_WRAP = 60
REIMBURSABLE = ". Reimbursable."


def _gallery_id(name: str) -> str:
    return f"{GALLERY_PACKAGE}:id/{name}"


_FILE_NAME = Selector(resource_id=_gallery_id("medium_name"))


def _show_file_names(elements: Sequence[UIElement]) -> Action | None:
    """In a folder whose tiles hide their names (the default), tap "Toggle filename visibility"; else nothing."""
    if _FILE_NAME.present(elements):
        return None
    return Action(ActionType.CLICK, index=Selector(content_desc=gallery.TOGGLE_FILENAME).find(elements).index)


def view_picture(name: str) -> list[OracleStep]:
    """From anywhere: open the gallery, the DCIM folder, show the tiles' names (unless they are shown already) and
    open the picture ``name`` full screen."""
    return [open_app(GALLERY_APP), tap(Selector(text="DCIM", resource_id=_gallery_id("dir_name"))),
            _show_file_names, tap(Selector(text=name, resource_id=_FILE_NAME.resource_id)),
            expect(Selector(resource_id=_gallery_id("gestures_view"))), expect(Selector(text=name))]


def read_note(name: str, lines: Sequence[str]) -> list[OracleStep]:
    """From anywhere: open Markor and the note ``name``, and check the editor holds each of ``lines``."""
    shown = [expect(Selector(resource_id=markor.EDITOR.resource_id, text_contains=line)) for line in lines]
    return [open_app(markor.APP_NAME), *markor.open_note(name), *shown]


def write_note(name: str, text: str) -> list[OracleStep]:
    """From anywhere: open Markor, create the note ``name``, type ``text`` and leave the editor (which saves)."""
    return [open_app(markor.APP_NAME), *markor.new_note(name), type_into(markor.EDITOR, text), *markor.leave_editor()]


class _FromNote(SqliteRowsTask):
    """Mixin: the data is in a Markor note ``note_name`` (``write_to_markor``), written after the app's rows."""

    note_name: ClassVar[str]
    extras_leave_apps_stopped = True  # ``clear_extras`` empties a folder with a shell command: it starts no app

    @property
    def goal(self) -> str:
        """AndroidWorld's goal: it names the note, not the data."""
        return self.template.format(**self.params)

    def note_text(self) -> str:
        """What the note holds."""
        raise NotImplementedError

    def clear_extras(self, device: Device) -> None:
        """An empty Markor folder."""
        device_files.clear_directory(device, device_files.MARKOR_DATA)

    def seed_extras(self, device: Device) -> None:
        """The note."""
        device.push(self.note_text().encode(), f"{device_files.MARKOR_DATA}/{self.note_name}")


class _FromPictures(SqliteRowsTask):
    """Mixin: the data is drawn into pictures in DCIM (``write_to_gallery``), after ``clear_device_storage``."""

    extras_leave_apps_stopped = True  # ``clear_extras`` deletes files with a shell command: it starts no app

    @property
    def goal(self) -> str:
        """AndroidWorld's goal: it names the picture, not the data."""
        return self.template

    def pictures(self) -> dict[str, str]:
        """The pictures' names and the text each shows."""
        raise NotImplementedError

    def clear_extras(self, device: Device) -> None:
        """No files in external storage."""
        device_files.clear_device_storage(device)

    def seed_extras(self, device: Device) -> None:
        """The pictures (each text drawn once)."""
        drawn: dict[str, bytes] = {}
        for name, text in self.pictures().items():
            if text not in drawn:
                drawn[text] = encode(text_image(text), name)
            device.push(drawn[text], f"{device_files.GALLERY_DATA}/{name}")


# ----- Pro Expense ------------------------------------------------------------------------------------------------
@register_task
class ExpenseAddMultipleFromMarkor(_FromNote, expense.AddExpensesTask):
    """Log the reimbursable transactions of a 102-line CSV note in Markor: 2 targets among 100 noise rows, which
    are also in the app already."""

    name = "ExpenseAddMultipleFromMarkor"
    complexity = 6.0
    n_rows = 2
    n_noise = 100
    app_packages = (expense.PACKAGE, MARKOR_PACKAGE)
    template = ("Go through the transactions in my_expenses.txt in Markor. Log the reimbursable transactions in the "
                "pro expense.")
    note_name = "my_expenses.txt"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The base's rows and noise, and the shuffled order of the note's lines (targets first, then noise)."""
        params = super().generate_params(rng)
        params["file_order"] = [int(i) for i in rng.permutation(cls.n_rows + cls.n_noise)]
        return params

    def file_rows(self) -> list[Row]:
        """The note's rows: the targets with the reimbursable mark, mixed into the noise."""
        marked = [{**row, "note": row["note"] + REIMBURSABLE} for row in self.params["rows"]]
        rows = [*marked, *self.params["noise"]]
        return [rows[i] for i in self.params["file_order"]]

    def note_text(self) -> str:
        """The rows as CSV."""
        return expense.rows_as_text(self.file_rows(), "csv")

    def oracle(self) -> Sequence[OracleStep]:
        """Read the note in Markor, then add each reimbursable row (without the mark) in Pro Expense."""
        return [*read_note(self.note_name, [expense.rows_as_text([row], "csv").splitlines()[1]
                                            for row in self.file_rows() if row["note"].endswith(REIMBURSABLE)]),
                *expense.add_expenses(self.params["rows"], expense.dollars), complete()]


@register_task
class ExpenseAddMultipleFromGallery(_FromPictures, expense.AddExpensesTask):
    """Add the three expenses drawn in ``DCIM/expenses.jpg``; ten older pictures show the noise rows."""

    name = "ExpenseAddMultipleFromGallery"
    complexity = 6.0
    n_rows = 3
    n_noise = 10
    app_packages = (expense.PACKAGE, GALLERY_PACKAGE)
    template = "Add the expenses from expenses.jpg in Simple Gallery Pro to pro expense."

    def pictures(self) -> dict[str, str]:
        """``expenses.jpg`` with the rows, ``old_expenses_0..9.jpg`` each with the noise rows."""
        noise = expense.rows_as_text(self.params["noise"], "text_block", IMAGE_WRAP)
        return {"expenses.jpg": expense.rows_as_text(self.params["rows"], "text_block", IMAGE_WRAP),
                **{f"old_expenses_{i}.jpg": noise for i in range(10)}}

    def oracle(self) -> Sequence[OracleStep]:
        """Look at the picture in the gallery, then add each expense in Pro Expense."""
        return [*view_picture("expenses.jpg"), *expense.add_expenses(self.params["rows"], expense.dollars),
                complete()]


# ----- Broccoli ---------------------------------------------------------------------------------------------------
@register_task
class RecipeAddMultipleRecipesFromMarkor(_FromNote, recipe.AddRecipesTask):
    """Add the three recipes listed (CSV or text blocks) in Markor's ``recipes.txt``."""

    name = "RecipeAddMultipleRecipesFromMarkor"
    complexity = 6
    n_rows = 3
    app_packages = (recipe.PACKAGE, MARKOR_PACKAGE)
    template = "Add the recipes from recipes.txt in Markor to the Broccoli recipe app."
    note_name = "recipes.txt"

    def file_rows(self) -> list[Row]:
        """The recipes the note lists."""
        return list(self.params["recipes"])

    def note_text(self) -> str:
        """The recipes in the drawn text format."""
        return recipe.recipes_text(self.file_rows(), self.params["text_format"])

    def oracle(self) -> Sequence[OracleStep]:
        """Read the note in Markor, then add each recipe in Broccoli."""
        titles = [row["title"] for row in self.params["recipes"]]
        return [*read_note(self.note_name, titles), *recipe.add_recipes(self.params["recipes"]), complete()]


@register_task
class RecipeAddMultipleRecipesFromMarkor2(RecipeAddMultipleRecipesFromMarkor):
    """Add the three recipes of ``recipes.txt`` that take a given preparation time, among 40 others (which are in
    the app already)."""

    name = "RecipeAddMultipleRecipesFromMarkor2"
    template = ("Add the recipes from recipes.txt in Markor that take {prep_time} to prepare into the Broccoli recipe "
                "app.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A preparation time, three recipes taking it, 40 taking another, the text format and the note's order."""
        prep_time = pick(rng, recipe.PREP_TIMES)
        recipes = recipe.random_recipes(rng, cls.n_rows, where=lambda r: r["preparationTime"] == prep_time)
        noise = recipe.random_recipes(rng, 40, where=lambda r: r["preparationTime"] != prep_time)
        return {"recipes": recipes, "noise": noise, "text_format": pick(rng, ("csv", "text_block")),
                "prep_time": prep_time, "file_order": [int(i) for i in rng.permutation(cls.n_rows + 40)]}

    def file_rows(self) -> list[Row]:
        """Targets and noise, shuffled."""
        rows = [*self.params["recipes"], *self.params["noise"]]
        return [rows[i] for i in self.params["file_order"]]


@register_task
class RecipeAddMultipleRecipesFromImage(_FromPictures, recipe.AddRecipesTask):
    """Add the three recipes drawn in ``DCIM/recipes.jpg``."""

    name = "RecipeAddMultipleRecipesFromImage"
    complexity = 6
    n_rows = 3
    app_packages = (recipe.PACKAGE, GALLERY_PACKAGE)
    template = "Add the recipes from recipes.jpg in Simple Gallery Pro to the Broccoli recipe app."

    def pictures(self) -> dict[str, str]:
        """``recipes.jpg`` with the recipes as text blocks."""
        return {"recipes.jpg": recipe.recipes_text(self.params["recipes"], "text_block", IMAGE_WRAP)}

    def oracle(self) -> Sequence[OracleStep]:
        """Look at the picture in the gallery, then add each recipe in Broccoli."""
        return [*view_picture("recipes.jpg"), *recipe.add_recipes(self.params["recipes"]), complete()]


# ----- Markor -----------------------------------------------------------------------------------------------------
@register_task
class MarkorTranscribeReceipt(Task):
    """Copy a receipt's transactions from ``DCIM/receipt.png`` into a new Markor note ``receipt.md``, as CSV with
    the header "Date, Item, Amount" (``create_receipt`` with 1–5 transactions; checked as ``CreateFile`` does: the
    note exists and its text fuzzily matches)."""

    name = "MarkorTranscribeReceipt"
    complexity = 1.8
    app_packages = (GALLERY_PACKAGE, MARKOR_PACKAGE)
    template = ("Create a file in Markor, called receipt.md with the transactions from the receipt.png. Use Simple "
                'Gallery to view the receipt. Please enter transactions in csv format including the header "Date, '
                'Item, Amount".')

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The receipt (1–5 transactions), the note's name and its expected text."""
        receipt = receipt_params(rng, int(rng.integers(1, 6)))
        return {"receipt": receipt, "file_name": "receipt.md", "text": "\n".join(receipt_lines(receipt))}

    def clear_state(self, device: Device) -> None:
        """No files in external storage (``CreateFile.initialize_task``)."""
        device_files.clear_device_storage(device)

    def seed_state(self, device: Device) -> None:
        """The receipt picture in DCIM."""
        device.push(encode(receipt_image(self.params["receipt"]), "receipt.png"),
                    f"{device_files.GALLERY_DATA}/receipt.png")

    def is_successful(self, device: Device) -> float:
        """1.0 when ``receipt.md`` is in Markor's folder and its text fuzzily matches the transactions."""
        text = device_files.file_text(device, f"{device_files.MARKOR_DATA}/{self.params['file_name']}")
        return 1.0 if text is not None and fuzzy_match(text, self.params["text"]) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Look at the receipt in the gallery, then write the note in Markor."""
        return [*view_picture("receipt.png"), *write_note(self.params["file_name"], self.params["text"]), complete()]
