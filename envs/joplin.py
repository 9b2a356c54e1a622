"""Joplin (``net.cozic.joplin``): the rows information-retrieval specs hold, and two action tasks of our own.

AndroidWorld's four Joplin tasks (``NotesIsTodo``, ``NotesMeetingAttendeeCount``, ``NotesRecipeIngredientCount``,
``NotesTodoItemCount``) are declared in ``task_specs/joplin.textproto``; this module gives them, after
``joplin_app_utils`` (AndroidWorld's setup):

* ``NOTES``, the ``RowTable`` of the app's notes: a row is a ``notes`` row plus ``folder``, its notebook's title.
  ``clear`` empties ``folders``, ``notes`` and ``notes_normalized``; ``insert`` creates each missing notebook
  (uuid4-hex id, the four times at device time − 1 day), inserts the notes with every column AndroidWorld writes
  (``todo_completed`` 0/1, not a time) and mirrors each into ``notes_normalized`` with its title lowercased (the
  body as it is, as AndroidWorld writes it; the app's own saves lowercase both), which the app's search reads;
* ``note_row``: such a row; ``random_note_row``: AndroidWorld's noise note (a notebook among the task's own 30 %
  of the time, else any of the 12; a canned title and body of that notebook; ``is_todo`` and ``todo_completed``
  each a coin toss, the latter for every note, as AndroidWorld's truthiness slip does);
* ``reveal_rows``: the UI steps that bring rows on screen as a person would — the side menu, the notebook, the
  list scrolled to each note, and a single note opened.

AndroidWorld cans 19–30 title/body pairs per notebook (``_FOLDERS`` in ``joplin_app_utils``); ``NOISE_NOTES``
here is a representative set of five per notebook in the same style (the Recipes ones are AndroidWorld's own), so
noise rows differ in wording, not in kind.

``JoplinCreateNote``, ``JoplinCompleteTodo`` and ``JoplinTickChecklistItem`` are ours: they prove the editor, the
list's to-do checkboxes and the rendered Markdown checkboxes work, and are checked on the rows, AndroidWorld style
(exactly the wanted change, nothing else touched).
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.device import state
from android_gym.device.base import Device
from android_gym.sim.apps.joplin import (
    ADD_BODY,
    ADD_NEW,
    ADD_TITLE,
    APP_NAME,
    DB_PATH,
    MARKDOWN,
    NEW_NOTE,
    PACKAGE,
    SIDEBAR,
    new_id,
    normalized_row,
)
from android_gym.tasks import register_task
from android_gym.tasks.base import DEVICE_TIME, Task
from android_gym.tasks.draws import Rng, exact_draws
from android_gym.tasks.oracle import (
    OracleError,
    OracleStep,
    Selector,
    act,
    complete,
    open_app,
    scroll_until,
    tap,
    type_into,
)
from android_gym.tasks.sqlite_rows import Row, SqliteRowsTask, rows_added_exactly
from android_gym.ui import UIElement

#: AndroidWorld's row times: device time − 1 day, in ms (1697297640000).
ROW_TIME_MS = int(DEVICE_TIME.timestamp() * 1000) - 86_400_000
#: The notebooks of AndroidWorld's noise notes, with canned (title, body) pairs.
NOISE_NOTES: dict[str, tuple[tuple[str, str], ...]] = {
    "Recipes": (
        ("Zesty Quinoa Salad", "Ingredients:\nCooked quinoa, chopped cucumber, diced tomato, crumbled feta cheese, "
                               "lemon vinaigrette\nInstructions:\nToss ingredients together. Season to taste."),
        ("Peanut Butter Power Smoothie", "Ingredients:\nPeanut butter, banana, milk of choice, protein powder, ice\n"
                                         "Instructions:\nBlend until smooth and creamy."),
        ("Fruity Yogurt Parfait", "Ingredients:\nGreek yogurt, granola, mixed berries\nInstructions:\nLayer yogurt, "
                                  "granola, and berries in a glass or jar."),
        ("Chicken Tikka Masala", "Marinated chicken cooked in a creamy tomato sauce with aromatic spices."),
        ("Banana Bread", "Moist and flavorful bread made with ripe bananas, perfect for breakfast or a snack."),
    ),
    "Tasks": (
        ("Pay Utility Bills", "Electricity and water bills are due on the 20th."),
        ("Renew Car Insurance", "Compare quotes from three providers before renewing."),
        ("Clean the Garage", "Sort tools, donate old bikes, sweep the floor."),
        ("Call the Plumber", "Kitchen sink is leaking again. Ask about Saturday."),
        ("Return Library Books", "Two books are due back on Friday."),
    ),
    "Meeting Notes": (
        ("Design Review", "- Walked through the new onboarding flow\n- Agreed to simplify the sign-up form"),
        ("Marketing Sync", "- Reviewed campaign metrics\n- Planned social media posts for next month"),
        ("Engineering Standup", "- Fixed login bug\n- Deployment scheduled for Thursday"),
        ("Hiring Committee", "- Discussed three candidates\n- Second interviews next week"),
        ("Quarterly Planning", "- Set goals for Q4\n- Budget review pending"),
    ),
    "Personal": (
        ("Birthday Gift Ideas", "Mom: scarf or cookbook. Dad: headphones."),
        ("Books to Read", "- The Overstory\n- Project Hail Mary\n- Educated"),
        ("Weekend Plans", "Farmers market on Saturday morning, hike on Sunday."),
        ("Movie Watchlist", "Dune, Past Lives, Oppenheimer."),
        ("Gratitude Journal", "Grateful for a sunny walk and a long call with an old friend."),
    ),
    "Work": (
        ("Quarterly Report", "Draft sections on revenue, churn and hiring."),
        ("Client Follow-ups", "Email Acme about the contract renewal. Call Globex."),
        ("Performance Review Notes", "Highlight the migration project and mentoring."),
        ("Team Offsite Ideas", "Escape room, cooking class or a hike."),
        ("Presentation Outline", "Problem, solution, demo, roadmap, questions."),
    ),
    "School": (
        ("Biology Lecture Notes", "Cell structure: nucleus, mitochondria, ribosomes."),
        ("History Essay Draft", "Thesis: trade routes shaped medieval cities."),
        ("Math Homework", "Problems 4.1 to 4.12, due Monday."),
        ("Chemistry Lab Report", "Record titration results and error analysis."),
        ("Exam Schedule", "Physics on the 12th, literature on the 15th."),
    ),
    "Home": (
        ("Garden Plan", "Plant tomatoes and basil along the south fence."),
        ("Cleaning Schedule", "Bathrooms on Monday, floors on Thursday."),
        ("Furniture Wishlist", "A reading chair and a bigger bookshelf."),
        ("Paint Colors", "Living room: soft grey. Bedroom: pale blue."),
        ("Repairs Needed", "Squeaky door hinge, loose tile in the hallway."),
    ),
    "Projects": (
        ("Website Redesign", "New color palette, simpler navigation, faster pages."),
        ("Mobile App Prototype", "Sketch the main screens and test with five users."),
        ("Podcast Launch", "Record three episodes before launch."),
        ("Photo Album", "Pick the best photos from the summer trip."),
        ("Bookshelf Build", "Buy pine boards, screws and wood stain."),
    ),
    "Ideas": (
        ("App Idea", "A plant-watering reminder that reads the weather forecast."),
        ("Blog Post Topics", "Remote work tips, favorite tools, a year in review."),
        ("Side Business", "Sell handmade candles at the weekend market."),
        ("Gift Shop Concept", "Local crafts and a small coffee corner."),
        ("Short Story Plot", "A lighthouse keeper finds a message in a bottle."),
    ),
    "Health": (
        ("Workout Plan", "Monday: legs. Wednesday: upper body. Friday: cardio."),
        ("Meal Prep", "Grilled chicken, brown rice and roasted vegetables."),
        ("Doctor Appointment", "Annual checkup on the 3rd at 9 AM."),
        ("Sleep Log", "Aim for lights out by 11 PM."),
        ("Running Goals", "Run a 10K under 55 minutes by spring."),
    ),
    "Travel": (
        ("Packing List", "Passport, charger, rain jacket, walking shoes."),
        ("Japan Trip Ideas", "Kyoto temples, Osaka food tour, Nara deer park."),
        ("Road Trip Route", "Coast highway with stops at three national parks."),
        ("Hotel Options", "Compare two hotels near the old town."),
        ("Places to Eat", "Try the seafood market and the night stalls."),
    ),
    "Finance": (
        ("Monthly Budget", "Rent, groceries, transport, savings."),
        ("Investment Notes", "Rebalance the index funds in January."),
        ("Tax Documents", "Collect receipts, pay slips and bank statements."),
        ("Savings Goals", "Emergency fund of six months of expenses."),
        ("Subscriptions", "Cancel the unused streaming service."),
    ),
}
FOLDER_TITLES = tuple(NOISE_NOTES)


@functools.lru_cache(maxsize=256)
def folder_id(title: str) -> str:
    """The id a notebook made for ``title`` gets (a uuid4 hex, fixed by the title so set-ups are reproducible; kept:
    every note row names its notebook's)."""
    return new_id(f"folder:{title}")


def note_row(title: str, body: str, folder: str, is_todo: bool = False, todo_completed: bool = False,
             note_id: str | None = None) -> Row:
    """A note as AndroidWorld writes it (``JoplinNote``: the four times at ``ROW_TIME_MS``, ``todo_completed``
    0/1, Markdown), plus ``folder``, its notebook's title. The id defaults to one drawn from the content."""
    return {"id": note_id or new_id(f"note:{folder}:{title}:{body}:{int(is_todo)}:{int(todo_completed)}"),
            "parent_id": folder_id(folder), "title": title, "body": body, "created_time": ROW_TIME_MS,
            "updated_time": ROW_TIME_MS, "user_created_time": ROW_TIME_MS, "user_updated_time": ROW_TIME_MS,
            "is_todo": int(is_todo), "todo_completed": int(todo_completed), "markup_language": MARKDOWN,
            "folder": folder}


def _random_id(rng: Rng) -> str:
    return new_id(rng.bytes(16).hex())


def random_note_row(rng: Rng, records: Sequence[Mapping[str, Any]] = ()) -> Row:
    """AndroidWorld's noise note (``_generate_random_note``): 30 % of the time in a notebook of ``records``
    (the task's own notes), else in any of the 12; a canned title and body of that notebook; ``is_todo`` and
    ``todo_completed`` each a coin toss."""
    relevant = [record["folder"] for record in records if record.get("folder") in NOISE_NOTES]
    if relevant and rng.random() < 0.3:
        folder = relevant[int(rng.integers(len(relevant)))]
    else:
        folder = FOLDER_TITLES[int(rng.integers(len(FOLDER_TITLES)))]
    is_todo, todo_completed = bool(rng.integers(2)), bool(rng.integers(2))
    title, body = NOISE_NOTES[folder][int(rng.integers(len(NOISE_NOTES[folder])))]
    return note_row(title, body, folder, is_todo, todo_completed, note_id=_random_id(rng))


def note_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """A row read back as a spec record (title, body, folder, is_todo, todo_completed)."""
    return {"title": row["title"] or None, "body": row["body"] or None, "folder": row["folder"] or None,
            "is_todo": bool(row["is_todo"]), "todo_completed": bool(row["todo_completed"])}


class JoplinNotes:
    """The notes of ``joplin.sqlite`` with their notebooks' titles, read and written as one table (see
    ``RowTable``); every write stops the app first, as AndroidWorld's row inserts do."""

    package = PACKAGE

    def rows(self, device: Device) -> list[Row]:
        """Every note with ``folder``, its notebook's title, by id."""
        return state.sqlite_query(device, DB_PATH, "SELECT notes.*, folders.title AS folder FROM notes LEFT JOIN "
                                                   "folders ON folders.id = notes.parent_id ORDER BY notes.id")

    def normalized(self, device: Device) -> list[Row]:
        """Every ``notes_normalized`` row, by id."""
        return state.sqlite_query(device, DB_PATH, "SELECT * FROM notes_normalized ORDER BY id")

    def clear(self, device: Device) -> None:
        """Stop the app and empty ``folders``, ``notes`` and ``notes_normalized`` (``clear_dbs``)."""
        self._stop(device)
        state.sqlite_execute_many(device, DB_PATH, _CLEAR)

    def insert(self, device: Device, rows: Iterable[Mapping[str, Any]]) -> None:
        """Stop the app; create each missing notebook; insert the notes and their ``notes_normalized`` rows."""
        rows = list(rows)
        if not rows:
            return
        self._stop(device)
        existing = {found["title"]: found["id"] for found in
                    state.sqlite_query(device, DB_PATH, "SELECT id, title FROM folders ORDER BY id")}
        state.sqlite_execute_many(device, DB_PATH, _inserts(rows, existing))

    def replace(self, device: Device, rows: Iterable[Mapping[str, Any]], stopped: bool = False) -> None:
        """Stop the app (unless ``stopped``), then ``clear``'s and ``insert``'s transactions (every notebook made
        anew) in one write."""
        if not stopped:
            self._stop(device)
        state.sqlite_execute_transactions(device, DB_PATH, [_CLEAR, _inserts(rows, {})])

    @staticmethod
    def _stop(device: Device) -> None:
        Task.run(device, f"am force-stop {shlex.quote(PACKAGE)}")


_CLEAR = [(f"DELETE FROM {table}", ()) for table in ("folders", "notes", "notes_normalized")]


def _inserts(rows: Iterable[Mapping[str, Any]], existing: dict[str, str]) -> list[tuple[str, Sequence[Any]]]:
    """The statements inserting ``rows`` and their ``notes_normalized`` rows, and the notebooks missing from
    ``existing`` (title → id; those made are added to it)."""
    statements: list[tuple[str, Sequence[Any]]] = []
    sql: dict[tuple[str, tuple[str, ...]], str] = {}  # by table and columns (every note has the same)
    for row in rows:
        title = row["folder"]
        if title not in existing:
            existing[title] = folder_id(title)
            statements.append(("INSERT INTO folders (id, title, created_time, updated_time, user_created_time, "
                               "user_updated_time) VALUES (?, ?, ?, ?, ?, ?)",
                               (existing[title], title, *(ROW_TIME_MS,) * 4)))
        note = {column: value for column, value in row.items() if column != "folder"}
        note["parent_id"] = existing[title]
        mirror = {**normalized_row(note), "body": note["body"]}  # AndroidWorld lowercases only the title
        for table, values in (("notes", note), ("notes_normalized", mirror)):
            key = (table, tuple(values))
            if key not in sql:
                sql[key] = (f"INSERT INTO {table} ({', '.join(f'`{c}`' for c in values)}) VALUES "
                            f"({', '.join('?' for _ in values)})")
            statements.append((sql[key], tuple(values.values())))
    return statements


NOTES = JoplinNotes()
LIST = Selector(class_suffix="ScrollView")


# ----- oracle steps ---------------------------------------------------------------------------------------------
def _same_row(a: UIElement, b: UIElement) -> bool:
    return a.bbox_pixels.y_min < b.bbox_pixels.y_max and b.bbox_pixels.y_min < a.bbox_pixels.y_max


def open_notebook(folder: str) -> list[OracleStep]:
    """From the home screen: open Joplin, its side menu, and the notebook ``folder``."""
    return [open_app(APP_NAME), tap(Selector(content_desc=SIDEBAR)), tap(Selector(text=folder))]


def scroll_to_note(title: str) -> list[OracleStep]:
    """Scroll the note list down until the note titled ``title`` shows."""
    return scroll_until(Selector(text=title).lookup, LIST, f"the note {title!r}", max_scrolls=8)


def reveal_rows(rows: Sequence[Mapping[str, Any]]) -> list[OracleStep]:
    """From the home screen: the notebook of ``rows`` (one notebook), the list scrolled to each of them; a single
    note is opened."""
    if not rows:
        return [open_app(APP_NAME)]
    steps = open_notebook(rows[0]["folder"])
    for row in rows:
        steps += scroll_to_note(row["title"])
    if len(rows) == 1:
        steps.append(tap(Selector(text=rows[0]["title"])))
    return steps


def box_beside(text: str) -> OracleStep:
    """Tap the checkbox on the line of ``text`` (a to-do in the list, an item of a rendered checklist)."""
    def step(elements: Sequence[UIElement]) -> Action:
        label = Selector(text=text).find(elements)
        boxes = [e for e in elements if e.class_name.endswith("CheckBox") and _same_row(e, label)]
        if not boxes:
            raise OracleError(f"no checkbox beside {text!r}")
        return Action(ActionType.CLICK, index=boxes[0].index)
    return step


# ----- tasks ------------------------------------------------------------------------------------------------------
#: Our tasks' targets: none is a noise title.
TARGET_TITLES = ("Buy concert tickets", "Plan surprise party", "Fix bike brakes", "Order printer ink",
                 "Book hair appointment", "Send wedding RSVP", "Back up laptop", "Water the plants")
#: Our checklists (title → items), none a noise title.
CHECKLISTS = {
    "Weekend errands": ("Buy eggs", "Return library books", "Wash the car", "Pick up the parcel"),
    "Party prep": ("Order the cake", "Send invitations", "Buy balloons", "Clean the living room"),
    "Trip packing": ("Passport", "Phone charger", "Sunscreen", "Hiking boots"),
    "Moving day": ("Label the boxes", "Cancel the internet", "Book the van", "Forward the mail"),
}
TARGET_BODIES = ("Ask Sam which date works best.", "Check the price before Friday.", "Keep the receipt.",
                 "Do it after work on Tuesday.", "Remember the discount code.")


class _JoplinTask(SqliteRowsTask):
    """Starts from the notes kept in the parameters (their notebooks created on demand)."""

    app_packages = (PACKAGE,)
    table = NOTES

    def initial_rows(self) -> list[Row]:
        """The rows kept in the parameters."""
        return [dict(row) for row in self.params["rows"]]


#: What a save moves besides the edited columns.
_SAVE_TIMES = ("updated_time", "user_updated_time")


def _only_changed(before: Sequence[Row], device: Device, title: str, columns: Sequence[str],
                  changed: Callable[[Row, Row], bool]) -> bool:
    """No note was added or removed, every note but the one titled ``title`` is untouched, and that one differs
    at most in ``columns`` (and the save times), with ``changed(old, new)`` holding."""
    after = {row["id"]: row for row in NOTES.rows(device)}
    if set(after) != {row["id"] for row in before}:
        return False
    moving = (*columns, *_SAVE_TIMES)
    for row in before:
        now = after[row["id"]]
        if row["title"] != title:
            if now != row:
                return False
        elif ({k: v for k, v in now.items() if k not in moving} != {k: v for k, v in row.items() if k not in moving}
              or not changed(row, now)):
            return False
    return True


def _noise(rng: np.random.Generator, count: int, folder: str) -> list[Row]:
    with exact_draws(rng) as draws:
        return [random_note_row(draws, [{"folder": folder}]) for _ in range(count)]


@register_task
class JoplinCreateNote(_JoplinTask):
    """Write a new note in a given notebook."""

    name = "JoplinCreateNote"
    complexity = 2.0
    template = 'In the Joplin app, create a note titled "{title}" in the "{folder}" notebook with the text "{body}".'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A notebook (it holds at least one note), a title, a body and 5–15 noise notes."""
        folder = FOLDER_TITLES[int(rng.integers(len(FOLDER_TITLES)))]
        rows = _noise(rng, int(rng.integers(5, 16)), folder)
        first = NOISE_NOTES[folder][0]
        rows.append(note_row(*first, folder, note_id=_random_id(rng)))
        return {"folder": folder, "title": TARGET_TITLES[int(rng.integers(len(TARGET_TITLES)))],
                "body": TARGET_BODIES[int(rng.integers(len(TARGET_BODIES)))], "rows": rows}

    def is_successful(self, device: Device) -> float:
        """1.0 when exactly one note was added — the title, the body (surrounding blank space aside), in the
        notebook, not a to-do — every other note is untouched, and the search mirror holds it."""
        def matches(added: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
            return ((added["title"] or "").strip() == wanted["title"] and (added["body"] or "").strip()
                    == wanted["body"] and added["folder"] == wanted["folder"] and added["is_todo"] == 0)

        wanted = [{key: self.params[key] for key in ("title", "body", "folder")}]
        after = NOTES.rows(device)
        if not rows_added_exactly(self.before, after, wanted, "id", matches):
            return 0.0
        mirrored = {row["id"]: row["title"] for row in NOTES.normalized(device)}
        return 1.0 if all(mirrored.get(row["id"]) == (row["title"] or "").lower() for row in after) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """The notebook, "+", "New note", the title, the body, BACK to the rendered note."""
        return [*open_notebook(self.params["folder"]), tap(Selector(content_desc=ADD_NEW)),
                tap(Selector(text=NEW_NOTE)), type_into(Selector(text=ADD_TITLE), self.params["title"]),
                type_into(Selector(text=ADD_BODY), self.params["body"]), act(Action(ActionType.NAVIGATE_BACK)),
                complete()]


@register_task
class JoplinCompleteTodo(_JoplinTask):
    """Tick one unfinished to-do among noise notes."""

    name = "JoplinCompleteTodo"
    complexity = 1.0
    template = 'In the Joplin app, mark the to-do "{title}" as done.'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """The target (an unfinished to-do in some notebook) among 10–30 noise notes."""
        folder = FOLDER_TITLES[int(rng.integers(len(FOLDER_TITLES)))]
        title = TARGET_TITLES[int(rng.integers(len(TARGET_TITLES)))]
        body = TARGET_BODIES[int(rng.integers(len(TARGET_BODIES)))]
        rows = _noise(rng, int(rng.integers(10, 31)), folder)
        rows.insert(int(rng.integers(len(rows) + 1)), note_row(title, body, folder, is_todo=True,
                                                               note_id=_random_id(rng)))
        return {"title": title, "folder": folder, "rows": rows}

    def is_successful(self, device: Device) -> float:
        """1.0 when the target's ``todo_completed`` is set (its update times may move) and nothing else
        changed."""
        done = _only_changed(self.before, device, self.params["title"], ("todo_completed",),
                             lambda old, new: bool(new["todo_completed"]))
        return 1.0 if done else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """"All notes" lists unfinished to-dos first: scroll to the target and tick its checkbox."""
        return [open_app(APP_NAME), *scroll_to_note(self.params["title"]), box_beside(self.params["title"]),
                complete()]


@register_task
class JoplinTickChecklistItem(_JoplinTask):
    """Tick one item of a note's Markdown checklist ("- [ ] item" becomes "- [x] item")."""

    name = "JoplinTickChecklistItem"
    complexity = 1.0
    template = 'In the Joplin app, tick "{item}" in the checklist of the note "{title}".'

    @classmethod
    def generate_params(cls, rng: np.random.Generator) -> dict[str, Any]:
        """A checklist note (one item already ticked, never the asked one) among 10–30 noise notes."""
        title = list(CHECKLISTS)[int(rng.integers(len(CHECKLISTS)))]
        items = CHECKLISTS[title]
        done, item = (items[int(i)] for i in rng.choice(len(items), size=2, replace=False))
        body = "\n".join(f"- [{'x' if entry == done else ' '}] {entry}" for entry in items)
        folder = FOLDER_TITLES[int(rng.integers(len(FOLDER_TITLES)))]
        rows = _noise(rng, int(rng.integers(10, 31)), folder)
        rows.insert(int(rng.integers(len(rows) + 1)), note_row(title, body, folder, note_id=_random_id(rng)))
        return {"title": title, "item": item, "rows": rows}

    def is_successful(self, device: Device) -> float:
        """1.0 when the checklist's body differs only in the item's box, now ticked, and no other note changed."""
        item = self.params["item"]

        def ticked(old: Row, new: Row) -> bool:
            return new["body"] == old["body"].replace(f"- [ ] {item}", f"- [x] {item}")

        return 1.0 if _only_changed(self.before, device, self.params["title"], ("body",), ticked) else 0.0

    def oracle(self) -> Sequence[OracleStep]:
        """Open the note from "All notes" and tick the item's checkbox in the rendered body."""
        return [open_app(APP_NAME), *scroll_to_note(self.params["title"]), tap(Selector(text=self.params["title"])),
                box_beside(self.params["item"]), complete()]
