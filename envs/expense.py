"""Pro Expense tasks (AndroidWorld ``task_evals/single/expense.py`` with ``common_validators/sqlite_validators.py``
and ``utils/sqlite_schema_utils.py``).

Rows live in the app's ``expense`` table (``accounting.db``): ``amount`` in cents, ``category`` an id 1–11,
``created_date``/``modified_date`` in ms. Expenses are drawn as AndroidWorld's ``_generate_expense`` does: a day
of October 1–15 2023 at a whole hour (UTC), a category, one of that category's names, 10.00–500.00 dollars and
one of seven notes. Deletion tasks insert the noise rows, then the targets (which get the highest ids) and pass
when exactly the targets are gone and every other row is untouched; addition tasks insert noise rows and pass
when exactly the expected rows were added (name and note fuzzily, amount and category exactly) and nothing else
changed. The oracles act through the app: the add button and entry form, and in Expense Logs a drag to the right
on each target row (it selects the row), then the selection toolbar's Delete and the confirmation.

``expense_row`` builds a full row for other tasks (the declarative information-retrieval tasks insert rows
with it through ``EXPENSES``); ``reveal_rows`` brings given rows on screen in Expense Logs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device.base import Device
from android_gym.sim.apps.expense import CATEGORIES as CATEGORY_BY_ID
from android_gym.sim.apps.expense import DB_PATH, LIST_AMOUNT_MAX, LIST_NAME_MAX, PACKAGE, format_amount
from android_gym.tasks import register_task
from android_gym.tasks.draws import Rng, exact_draws
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    complete,
    hide_keyboard_unless,
    open_app,
    scroll_to,
    scroll_until,
    tap,
    type_into,
)
from android_gym.tasks.sqlite_rows import AppTable, Row, SqliteRowsTask, rows_added_exactly, rows_removed_exactly
from android_gym.tasks.validators import fuzzy_match, wrapped
from android_gym.ui import UIElement

APP_NAME = "pro expense"  # AndroidWorld's _APP_NAME, also in its goals
EXPENSES = AppTable(PACKAGE, DB_PATH, "expense", "expense_id")
#: Category names in id order (id = index + 1), as ``sqlite_schema_utils.Expense.category_id_to_name``.
CATEGORIES = tuple(CATEGORY_BY_ID[i] for i in sorted(CATEGORY_BY_ID))
EXPENSE_NAMES = {  # AndroidWorld's _EXPENSE_NAMES
    "Others": ("Emergency Repairs", "Pet Supplies", "Pet Care", "Household Items", "Stationery",
               "Unexpected Expenses", "Miscellaneous Gifts", "Subscriptions", "Membership Fees", "Legal Fees"),
    "Income": ("Salary", "Freelance Payment", "Bonus", "Dividends", "Interest Income", "Rental Income",
               "Capital Gains", "Reimbursements", "Side Business", "Consulting Fees"),
    "Food": ("Restaurant Meal", "Groceries", "Coffee", "Fast Food", "Fine Dining", "Bakery Items", "Snacks",
             "Food Delivery", "Specialty Foods", "Dining Out"),
    "Housing": ("Rent Payment", "Mortgage", "Home Repairs", "Utilities", "Property Taxes", "Home Insurance",
                "Furnishing", "Cleaning Services", "Landscaping", "Pest Control"),
    "Social": ("Dinner Party", "Gift for Friend", "Club Membership", "Wedding Gift", "Charity Donations",
               "Birthday Present", "Social Club Dues", "Event Tickets", "Night Out", "Party Supplies"),
    "Entertainment": ("Concert Tickets", "Movie Night", "Theater Show", "Streaming Services", "Video Games", "Books",
                      "Magazines", "Hobbies", "Museum Tickets", "Amusement Park"),
    "Transportation": ("Taxi Fare", "Public Transit Pass", "Gas", "Parking Fees", "Car Maintenance", "Bike Repairs",
                       "Car Insurance", "Public Transit", "Flight Tickets", "Ride-Sharing"),
    "Clothes": ("New Jacket", "Shirt Purchase", "Shoes", "Dress", "Jeans", "Accessories", "Sportswear",
                "Undergarments", "Tailoring Services", "Laundry"),
    "Health Care": ("Doctor Visits", "Medications", "Health Insurance", "Dental Care", "Eyecare",
                    "Wellness Products", "Gym Membership", "Therapy Sessions", "Medical Tests"),
    "Education": ("Tuition Fees", "School Supplies", "Textbooks", "Online Courses", "Seminars", "Workshops",
                  "Educational Software", "Library Fees", "ProDev", "Tutoring Services"),
    "Donation": ("Charity", "Fundraising Events", "Sponsorships", "Non-Profit Support", "Crowdfunding", "Religious",
                 "Political", "Educational", "Medical Research", "Environmental"),
}
NOTES = ("Paid by card", "Urgent", "Monthly recurring", "Want to have", "A need", "Remember to transfer funds",
         "I may repeat this")
TEXT_FORMATS = ("csv", "text_block")


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- rows -------------------------------------------------------------------------------------------------------
def expense_row(name: str, amount: float | int | str | Decimal, category: str | int, note: str,
                created: dt.datetime) -> Row:
    """A full ``expense`` row (without its id): ``amount`` in dollars (stored × 100, so 12.5 → 1250),
    ``category`` by name or id, ``created`` (naive means UTC, the device's zone) as ``created_date`` and
    ``modified_date`` in ms, as AndroidWorld inserts them."""
    if isinstance(category, str):
        lowered = [known.lower() for known in CATEGORIES]
        if category.lower() not in lowered:
            raise ValueError(f"unknown category {category!r}; one of {CATEGORIES}")
        category = lowered.index(category.lower()) + 1
    if category not in CATEGORY_BY_ID:
        raise ValueError(f"category id {category} is not 1–{len(CATEGORY_BY_ID)}")
    when = created if created.tzinfo else created.replace(tzinfo=dt.timezone.utc)
    return _row(name, int((Decimal(str(amount)) * 100).to_integral_value()), category, note,
                int(when.timestamp() * 1000))


def _row(name: str, cents: int, category_id: int, note: str, ms: int) -> Row:
    """The ``expense`` row of an expense created (and last modified) at ``ms``."""
    return {"name": name, "amount": cents, "category": category_id, "note": note, "created_date": ms,
            "modified_date": ms}


#: Midnight of October 1 2023 (UTC), in ms: the first moment ``_random_time_ms`` can give.
_OCTOBER_1_MS = int(dt.datetime(2023, 10, 1, tzinfo=dt.timezone.utc).timestamp()) * 1000
_HOUR_MS = 3_600_000


def _random_time_ms(rng: Rng) -> int:
    """``create_random_october_2023_unix_ts(start_day=1, end_day=15)``: a whole hour of Oct 1–15, in ms."""
    day, hour = int(rng.integers(1, 16)), int(rng.integers(0, 24))
    return _OCTOBER_1_MS + ((day - 1) * 24 + hour) * _HOUR_MS


def random_expense(rng: Rng) -> Row:
    """AndroidWorld's ``_generate_expense`` (the row ``expense_row`` makes of its draws)."""
    ms = _random_time_ms(rng)
    category = int(rng.integers(len(CATEGORIES)))
    names = EXPENSE_NAMES[CATEGORIES[category]]
    name = names[int(rng.integers(len(names)))]
    cents = int(rng.integers(1000, 50001))
    return _row(name, cents, category + 1, NOTES[int(rng.integers(len(NOTES)))], ms)


def random_expenses(rng: np.random.Generator, count: int, exclude_names: Sequence[str] = (),
                    unique_names: bool = False) -> list[Row]:
    """``get_random_items(replacement=False)``: ``count`` different expenses, none named in ``exclude_names``
    (``unique_names``: no two with the same name, as the deletion tasks draw them)."""
    rows: list[Row] = []
    names: set[str] = set()
    drawn: set[tuple[Any, ...]] = set()  # the rows' values (every row has the same columns): a look-up, not a scan
    with exact_draws(rng) as draws:
        while len(rows) < count:
            candidate = random_expense(draws)
            values = tuple(candidate.values())
            if candidate["name"] in exclude_names or values in drawn:
                continue
            if unique_names and candidate["name"] in names:
                continue
            rows.append(candidate)
            names.add(candidate["name"])
            drawn.add(values)
    return rows


def dollars(cents: int) -> str:
    """An amount as ``get_text_representation_of_rows`` writes it: the dollars as a float ("348.8", "470.0")."""
    return f"{cents / 100}"


def two_decimals(cents: int) -> str:
    """An amount with its cents, as a person writes it in a text: "348.80", "-3.05"."""
    return f"{'-' if cents < 0 else ''}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def rows_as_text(rows: Sequence[Mapping[str, Any]], format_type: str, wrap_width: int | None = None) -> str:
    """``get_text_representation_of_rows`` over name, amount_dollars, category_name and note: a ``|``-separated
    table, or one "Expense: <name>" block per row (values wrapped at ``wrap_width`` characters, if given)."""
    def fields(row: Mapping[str, Any]) -> list[tuple[str, str]]:
        return [("amount_dollars", f"${dollars(row['amount'])}"), ("category_name", CATEGORY_BY_ID[row["category"]]),
                ("note", wrapped(row["note"], wrap_width))]

    if format_type == "csv":
        lines = ["name|amount_dollars|category_name|note"]
        lines += ["|".join([row["name"], *(value for _, value in fields(row))]) for row in rows]
        return "\n".join(lines)
    blocks = [f"Expense: {row['name']}\n" + "".join(f" {key}: {value}\n" for key, value in fields(row))
              for row in rows]
    return "\n".join(blocks)


def same_expense(row: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """AndroidWorld's addition check: name and note fuzzily (a missing text never matches), amount and category
    exactly (compared first: they cost less)."""
    return (row["amount"] == wanted["amount"] and row["category"] == wanted["category"]
            and row["name"] is not None and fuzzy_match(row["name"], wanted["name"])
            and row["note"] is not None and fuzzy_match(row["note"], wanted["note"]))


# ----- UI steps ------------------------------------------------------------------------------------------------
NAV_BUTTON = Selector(class_suffix="ImageButton", resource_id="")  # the toolbar's drawer button has no id
ADD_BUTTON = Selector(resource_id=_id("fb_main_add"))
NAME_FIELD, AMOUNT_FIELD, NOTE_FIELD = (Selector(resource_id=_id(name)) for name in ("edt_name", "edt_amount",
                                                                                      "edt_note"))
SAVE_BUTTON = Selector(resource_id=_id("btn_save"))
EDIT_BUTTON = Selector(resource_id=_id("btn_edit"))  # expense_detail_dialog.xml
ENTRY_FORM = Selector(resource_id=_id("sv_entry"))
LOG_LIST = Selector(resource_id=_id("rv_expense"))
CONFIRM_BUTTON = Selector(resource_id=_id("btn_confirm"))
DELETE_SELECTED = Selector(resource_id=_id("delete"))  # menu_expense_log.xml, shown in the selection mode
_MAX_SCROLLS = 20


def _row_on_screen(elements: Sequence[UIElement], row: Mapping[str, Any]) -> UIElement | None:
    """The Expense Logs row (its ``view_bg``) showing ``row``'s name and amount, if one is on screen."""
    name, amount = (row["name"] or "")[:LIST_NAME_MAX], format_amount(row["amount"])[:LIST_AMOUNT_MAX]
    for holder in elements:
        if holder.resource_name != _id("view_bg") or holder.bbox_pixels.area == 0:
            continue
        top, bottom = holder.bbox_pixels.y_min, holder.bbox_pixels.y_max
        inside = {e.resource_name: e.text for e in elements if top <= e.bbox_pixels.center[1] < bottom}
        if inside.get(_id("tv_name")) == name and inside.get(_id("tv_amount")) == amount:
            return holder
    return None


def _scroll_to_row(row: Mapping[str, Any]) -> list[OracleStep]:
    """Scroll Expense Logs down until ``row`` is on screen (no step once it is), then check it is."""
    return scroll_until(lambda elements: _row_on_screen(elements, row), LOG_LIST,
                        f"the expense {row['name']!r} ({format_amount(row['amount'])}) in Expense Logs",
                        max_scrolls=_MAX_SCROLLS)


def _open_row(row: Mapping[str, Any]) -> OracleStep:
    """Tap the row: its detail sheet opens."""
    def step(elements: Sequence[UIElement]) -> Action:
        found = _row_on_screen(elements, row)
        if found is None:
            raise OracleError(f"no row for {row['name']!r} to open")
        return Action(ActionType.CLICK, index=found.index)
    return step


def _select_row(row: Mapping[str, Any]) -> OracleStep:
    """Drag the row to the right (``scroll`` "left" moves the finger rightwards): the row is selected."""
    def step(elements: Sequence[UIElement]) -> Action:
        found = _row_on_screen(elements, row)
        if found is None:
            raise OracleError(f"no row for {row['name']!r} to select")
        return Action(ActionType.SCROLL, index=found.index, direction="left")
    return step


def _list_order(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Rows in Expense Logs order: newest ``modified_date`` first."""
    return sorted(rows, key=lambda row: -row["modified_date"])


def open_expense_logs() -> list[OracleStep]:
    """Open the app (stopped, or on Home or Expense Logs), open the drawer, choose Expense Logs."""
    return [open_app(APP_NAME), tap(NAV_BUTTON), tap(Selector(text="Expense Logs"))]


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: open Pro Expense's Expense Logs and scroll down to each of ``rows`` (``expense``
    table rows) in list order, checking each is on screen. One row is also opened in the edit form: the list and
    the detail sheet show its category only as an icon, and the list leaves its note out; the form shows both."""
    steps = open_expense_logs()
    for row in _list_order(rows):
        steps += _scroll_to_row(row)
    if len(rows) == 1:
        steps += [_open_row(rows[0]), tap(EDIT_BUTTON)]
    return steps


def select_steps(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """Open Expense Logs and select each row by dragging it to the right, scrolling down to it first."""
    steps = open_expense_logs()
    for row in _list_order(rows):
        steps += [*_scroll_to_row(row), _select_row(row)]
    return steps


def delete_steps(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """Select the rows in Expense Logs, then the toolbar's Delete, then confirm."""
    return [*select_steps(rows), tap(DELETE_SELECTED), tap(CONFIRM_BUTTON)]


def _add_steps(row: Mapping[str, Any], amount: Callable[[int], str]) -> list[OracleStep]:
    """On Home: the add button, the fields (the amount written by ``amount``; the category chip unless it is the
    default Food; longer category names of another language can push the note below the screen), Save."""
    steps = [tap(ADD_BUTTON), type_into(NAME_FIELD, row["name"]), type_into(AMOUNT_FIELD, amount(row["amount"]))]
    if row["category"] != CATEGORIES.index("Food") + 1:
        chip = Selector(text=CATEGORY_BY_ID[row["category"]], resource_id=_id("tv_name"))
        steps += [hide_keyboard_unless(chip), *scroll_to(chip, ENTRY_FORM), tap(chip)]  # the grid is tall
    return [*steps, *scroll_to(NOTE_FIELD, ENTRY_FORM), type_into(NOTE_FIELD, row["note"]),
            *scroll_to(SAVE_BUTTON, ENTRY_FORM), tap(SAVE_BUTTON)]


def add_expenses(rows: Sequence[Mapping[str, Any]],
                 amount: Callable[[int], str] = two_decimals) -> list[OracleStep]:
    """From anywhere: open the app and add ``rows`` with the entry form, typing each amount (in cents) as
    ``amount`` writes it: as the text the rows were read from shows it."""
    steps = [open_app(APP_NAME)]
    for row in rows:
        steps += _add_steps(row, amount)
    return steps


# ----- tasks ------------------------------------------------------------------------------------------------------
class _ExpenseTask(SqliteRowsTask):
    """An ``expense`` table task: ``params["noise"]`` rows are inserted first, then ``params["rows"]``."""

    app_packages = (PACKAGE,)
    table = EXPENSES

    def initial_rows(self) -> list[Row]:
        """Noise rows, then the task's own rows (for deletions: the targets, with the highest ids)."""
        return [dict(row) for row in (*self.params["noise"], *self.initial_targets())]

    def initial_targets(self) -> list[Row]:
        """The targets the setup inserts after the noise (none for additions)."""
        return []


class _DeleteExpenses(_ExpenseTask):
    """Delete the named expenses (``_ExpenseDeleteMultiple``): ``n_rows`` targets with distinct names, among
    ``n_noise`` other expenses."""

    n_rows: ClassVar[int] = 3
    n_noise: ClassVar[int] = 0
    template = "Delete the following expenses from pro expense: {expense_names}."

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Targets and noise, no two named alike."""
        rows = random_expenses(rng, cls.n_rows + cls.n_noise, unique_names=True)
        return {"rows": rows[:cls.n_rows], "noise": rows[cls.n_rows:]}

    @property
    def goal(self) -> str:
        """The targets' names, comma-separated."""
        return self.template.format(expense_names=", ".join(row["name"] for row in self.params["rows"]))

    def initial_targets(self) -> list[Row]:
        """The expenses to delete."""
        return list(self.params["rows"])

    def target_ids(self) -> list[int]:
        """Ids of the targets: the rows inserted last."""
        count = len(self.params["rows"])
        return [row[EXPENSES.id_column] for row in self.before[len(self.before) - count:]]

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the targets are gone and nothing else changed."""
        after = self.table.rows(device)
        return 1.0 if rows_removed_exactly(self.before, after, self.target_ids(), EXPENSES.id_column) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Delete each target from Expense Logs."""
        return [*delete_steps(self.params["rows"]), complete()]


@register_task
class ExpenseDeleteSingle(_DeleteExpenses):
    """Delete the only expense."""

    name = "ExpenseDeleteSingle"
    complexity = 1.0
    n_rows, n_noise = 1, 0


@register_task
class ExpenseDeleteMultiple(_DeleteExpenses):
    """Delete all three expenses."""

    name = "ExpenseDeleteMultiple"
    complexity = 2.0
    n_rows, n_noise = 3, 0


@register_task
class ExpenseDeleteMultiple2(_DeleteExpenses):
    """Delete three expenses among fifty others."""

    name = "ExpenseDeleteMultiple2"
    complexity = 3.4
    n_rows, n_noise = 3, 50


class _DeleteDuplicates(_DeleteExpenses):
    """Remove one of two identical expenses (``_ExpenseDeleteDuplicates``): either copy may go, nothing else."""

    n_rows = 1
    n_noise = 5
    complexity = 1.2
    template = ("Delete all but one of any expenses in pro expense that are exact duplicates, ensuring at least one "
                "instance of each unique expense remains.")

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """``n_noise + 1`` different expenses; the last one is the duplicated target."""
        rows = random_expenses(rng, cls.n_noise + cls.n_rows)
        return {"rows": [rows[-1], rows[-1]], "noise": rows[:-1]}

    @property
    def goal(self) -> str:
        """The fixed instruction."""
        return self.template

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly one of the two copies is gone and nothing else changed."""
        after = self.table.rows(device)
        return 1.0 if any(rows_removed_exactly(self.before, after, [target], EXPENSES.id_column)
                          for target in self.target_ids()) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Delete one copy from Expense Logs."""
        return [*delete_steps(self.params["rows"][:1]), complete()]


@register_task
class ExpenseDeleteDuplicates(_DeleteDuplicates):
    """A duplicated expense among five others."""

    name = "ExpenseDeleteDuplicates"


@register_task
class ExpenseDeleteDuplicates2(_DeleteDuplicates):
    """A duplicated expense among 37 others and three near copies (another amount and date)."""

    name = "ExpenseDeleteDuplicates2"
    complexity = 1.8
    n_noise = 40

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """37 different expenses plus the target again with 0.50–9.99 dollars more and random dates."""
        noise = random_expenses(rng, cls.n_noise + cls.n_rows - 3)
        target = noise.pop()
        perturbations = rng.choice(np.arange(50, 1000), size=3, replace=False)
        variations = [{**target, "amount": target["amount"] + int(extra), "created_date": _random_time_ms(rng),
                       "modified_date": _random_time_ms(rng)} for extra in perturbations]
        return {"rows": [target, target], "noise": noise + variations}


class AddExpensesTask(_ExpenseTask):
    """Add the listed expenses (``_ExpenseAddMultiple``), with ten unrelated expenses already there."""

    n_rows: ClassVar[int] = 3
    n_noise: ClassVar[int] = 10
    template = "Add the following expenses into the pro expense:\n{expenses}"

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """Targets, noise named unlike them, and how the goal lists them (csv or text blocks)."""
        rows = random_expenses(rng, cls.n_rows)
        noise = random_expenses(rng, cls.n_noise, exclude_names=[row["name"] for row in rows])
        return {"rows": rows, "noise": noise, "text_representation_type": TEXT_FORMATS[int(rng.integers(2))]}

    @property
    def goal(self) -> str:
        """The expenses as a table or text blocks."""
        return self.template.format(expenses=rows_as_text(self.params["rows"],
                                                          self.params["text_representation_type"]))

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly the listed expenses were added and nothing else changed."""
        after = self.table.rows(device)
        return 1.0 if rows_added_exactly(self.before, after, self.params["rows"], EXPENSES.id_column,
                                         same_expense) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the app and add each expense with the entry form, each amount as the goal writes it."""
        return [*add_expenses(self.params["rows"], dollars), complete()]


@register_task
class ExpenseAddSingle(AddExpensesTask):
    """Add one expense."""

    name = "ExpenseAddSingle"
    complexity = 1.2
    n_rows = 1


@register_task
class ExpenseAddMultiple(AddExpensesTask):
    """Add three expenses."""

    name = "ExpenseAddMultiple"
    complexity = 6.0
    n_rows = 3
