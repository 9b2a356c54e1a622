"""Pro Expense on the simulated phone, driven through taps, long presses, typed text and keys."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from contextlib import closing

import numpy as np
import pytest
from lxml import etree
from ui_nodes import center, find, nodes, tap, texts_shown_as_with_every_row

from android_gym.sim import keycodes
from android_gym.sim.apps import expense
from android_gym.sim.apps.expense import (
    ACTIVITY,
    DB_PATH,
    IDENTITY_HASH,
    PACKAGE,
    ExpenseDatabase,
    ExpenseLogsFragment,
    HomeFragment,
    MainActivity,
    format_amount,
    format_date,
    parse_amount,
)
from android_gym.sim.apps.expense_graph import day_rates
from android_gym.sim.framework.window import NAV_BAR_HEIGHT, STATUS_BAR_HEIGHT
from android_gym.sim.phone import Phone
from android_gym.sim.ui.views import WHITE

UTC = dt.timezone.utc
NOW = dt.datetime(2023, 10, 15, 15, 34, tzinfo=UTC)


def rid(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


def texts(phone: Phone, name: str) -> list[str]:
    return [node.get("text") for node in nodes(phone) if node.get("resource-id") == rid(name)]


def rows(phone: Phone) -> list[dict]:
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db:
        db.row_factory = sqlite3.Row
        return [dict(row) for row in db.execute("SELECT * FROM expense ORDER BY expense_id")]


def add(phone: Phone, name: str, cents: int, category: int = 3, note: str = "Urgent",
        when: dt.datetime = NOW - dt.timedelta(days=3)) -> None:
    """Insert a row from outside, as a task setup does."""
    ms = int(when.timestamp() * 1000)
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db, db:
        db.execute("INSERT INTO expense (name, amount, category, note, created_date, modified_date) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (name, cents, category, note, ms, ms))
    phone.invalidate()


def open_app(phone: Phone) -> None:
    tap(phone, text="Pro Expense")
    assert phone.activities.foreground() == (PACKAGE, ACTIVITY)


def open_logs(phone: Phone) -> None:
    open_app(phone)
    nav = next(n for n in nodes(phone) if n.get("class") == "android.widget.ImageButton" and not n.get("resource-id"))
    phone.tap(*center(nav))
    tap(phone, text="Expense Logs")
    assert find(phone, resource_id=rid("tb_expense")) is not None


def row_of(phone: Phone, name: str) -> dict[str, etree._Element]:
    """The nodes of the Expense Logs row showing ``name``, by resource id."""
    label = find(phone, resource_id=rid("tv_name"), text=name)
    assert label is not None, f"{name!r} is not on screen"
    y = center(label)[1]
    found = {}
    for node in nodes(phone):
        x1, y1, x2, y2 = map(int, re.findall(r"-?\d+", node.get("bounds")))
        if y1 <= y < y2 and node.get("resource-id"):
            found.setdefault(node.get("resource-id").split("/")[-1], node)
    return found


def test_database_has_the_room_schema(phone):
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db:
        tables = dict(db.execute("SELECT name, sql FROM sqlite_master WHERE type='table'").fetchall())
        assert db.execute("PRAGMA user_version").fetchone() == (6,)
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT identity_hash FROM room_master_table WHERE id=42").fetchone() == (IDENTITY_HASH,)
        columns = [(c[1], c[2], c[3], c[5]) for c in db.execute("PRAGMA table_info(expense)")]
    assert {"expense", "backup", "room_master_table", "android_metadata", "sqlite_sequence"} <= set(tables)
    assert columns == [("expense_id", "INTEGER", 1, 1), ("name", "TEXT", 0, 0), ("amount", "INTEGER", 1, 0),
                       ("category", "INTEGER", 1, 0), ("note", "TEXT", 0, 0), ("created_date", "INTEGER", 1, 0),
                       ("modified_date", "INTEGER", 1, 0)]
    assert "AUTOINCREMENT" in tables["expense"] and "`worker_id` TEXT NOT NULL" in tables["backup"]


def test_pm_clear_leaves_an_empty_database(phone):
    add(phone, "Coffee", 450)
    assert phone.run("pm clear com.arduia.expense").stdout.strip() == b"Success"
    assert rows(phone) == []
    open_app(phone)
    assert texts(phone, "tv_recent_lists") == []


def test_formats_follow_the_app():
    assert [format_amount(c) for c in (1000, 12345, 12340, 123456789, 5, -250)] == [
        "10", "123.45", "123.4", "1,234,567.89", "0.05", "-2.5"]
    assert format_amount(123456, grouping=False) == "1234.56"
    assert [parse_amount(t) for t in ("12", "12.5", ".05", "-3.25", "+4", "7.")] == [1200, 1250, 5, -325, 400, 700]
    assert [parse_amount(t) for t in ("", "-", ".", "+.")] == [None] * 4
    ms = [int(d.timestamp() * 1000) for d in (NOW.replace(hour=9, minute=5), NOW.replace(day=14, hour=21),
                                              NOW.replace(day=3), NOW.replace(month=9, day=30),
                                              NOW.replace(year=2022))]
    assert [format_date(m, NOW) for m in ms] == ["Today 9:05 AM", "Yesterday 9:34 PM", "2023 Oct 3", "Sep 30",
                                                 "2022 Oct 15"]


def test_home_shows_the_week_totals_and_the_four_newest(phone):
    add(phone, "Salary", 250000, category=2, when=NOW.replace(hour=9))
    add(phone, "Coffee", 450, when=NOW.replace(hour=8))
    add(phone, "Old Rent", 100000, category=4, when=NOW.replace(day=1))
    for day in (3, 4, 5):
        add(phone, f"Snack {day}", 300 + day, when=NOW.replace(day=day))
    open_app(phone)
    assert texts(phone, "tv_income_value") == ["2,500"] and texts(phone, "tv_outcome_value") == ["4.5"]
    assert texts(phone, "tv_date_range") == ["OCT 15 - 22", "OCT 15 - 22"]
    names = [n for n in texts(phone, "tv_name")]
    assert names[:2] == ["Salary", "Coffee"] and "Old Rent" not in names  # newest four only
    phone.swipe(540, 1800, 540, 600)
    assert texts(phone, "tv_name") == ["Salary", "Coffee", "Snack 5", "Snack 4"]
    assert texts(phone, "tv_date")[:2] == ["Today 9:34 AM", "Today 8:34 AM"]
    assert find(phone, text="MORE", resource_id=rid("btn_more_logs")) is not None
    tap(phone, text="MORE")
    assert len(texts(phone, "tv_name")) == 6 and find(phone, text="Expense Logs") is not None


def test_home_is_built_again_when_its_expenses_or_the_day_change(phone):
    add(phone, "Coffee", 450, when=NOW.replace(hour=8))
    open_app(phone)
    assert texts(phone, "tv_name") == ["Coffee"] and texts(phone, "tv_outcome_value") == ["4.5"]
    add(phone, "Lunch", 1200, when=NOW.replace(hour=12))  # written from outside
    assert texts(phone, "tv_name") == ["Lunch", "Coffee"] and texts(phone, "tv_outcome_value") == ["16.5"]
    assert texts(phone, "tv_date") == ["Today 12:34 PM", "Today 8:34 AM"]
    with closing(sqlite3.connect(phone.fs.host_path(DB_PATH))) as db, db:
        db.execute("UPDATE expense SET amount = 200 WHERE name = 'Coffee'")
    phone.invalidate()
    assert texts(phone, "tv_outcome_value") == ["14"]
    phone.clock.advance(9 * 3600 * 1000)  # past midnight: the same rows, dated yesterday
    assert texts(phone, "tv_date") == ["Yesterday 12:34 PM", "Yesterday 8:34 AM"]
    phone.clock.advance(7 * 24 * 3600 * 1000)  # a week on: another week, without these expenses
    assert texts(phone, "tv_date_range") == ["OCT 22 - 29", "OCT 22 - 29"] and texts(phone, "tv_outcome_value") == ["0"]


def test_home_is_built_and_read_again_when_the_week_turns_not_when_the_clock_moves_within_a_second(phone, monkeypatch):
    built, reads = [], []
    make, reading = HomeFragment._built, ExpenseDatabase.reading
    monkeypatch.setattr(HomeFragment, "_built", lambda self, *args: built.append(1) or make(self, *args))
    monkeypatch.setattr(ExpenseDatabase, "reading", lambda self: reads.append(1) or reading(self))
    add(phone, "Coffee", 450, when=NOW.replace(hour=8))
    open_app(phone)
    assert texts(phone, "tv_name") == ["Coffee"]
    before, read = len(built), len(reads)
    for _ in range(3):
        phone.clock.advance(300)  # the sub-second part of the clock moves: the page shows the same
        phone.invalidate()
        assert texts(phone, "tv_name") == ["Coffee"]
    assert len(built) == before and len(reads) == read  # the week's query is the same: kept by the provider
    phone.clock.advance(7 * 24 * 3600 * 1000)  # the week turns
    assert texts(phone, "tv_date_range") == ["OCT 22 - 29", "OCT 22 - 29"] and len(built) == before + 1


def test_the_logs_stay_while_the_clock_moves_within_the_day_and_are_built_again_when_it_turns(phone):
    """The logs show dates, not the time: the frame stays while the clock moves within the day (on a table with
    rows: an empty one pins its range to now); the day turning builds them again."""
    add(phone, "Coffee", 450, when=NOW.replace(hour=8))
    open_logs(phone)
    assert texts(phone, "tv_date") == ["Today 8:34 AM"]
    shown = phone.window.frame()
    phone.clock.advance(300)  # within the status bar's minute
    assert phone.window.frame() is shown
    phone.clock.advance(9 * 3600 * 1000)  # past midnight
    assert texts(phone, "tv_date") == ["Yesterday 8:34 AM"]


def test_a_state_shown_before_is_not_built_again_and_a_write_from_outside_is(phone, monkeypatch):
    """The activity tells what it shows (``MainActivity.shown``: the fragment in front and its data version, form
    values or rows' states, the sheet, the drawer, the snackbar): a state it showed comes back without a build, with
    the same dump; rows written from outside move the data version and are built."""
    builds = []
    build = MainActivity.build
    monkeypatch.setattr(MainActivity, "build", lambda self: builds.append(1) or build(self))
    add(phone, "Coffee", 450)
    open_app(phone)
    home = phone.ui_dump()
    nav = next(n for n in nodes(phone) if n.get("class") == "android.widget.ImageButton" and not n.get("resource-id"))
    phone.tap(*center(nav))
    assert find(phone, resource_id=rid("nv_main")) is not None
    before = len(builds)
    phone.key(keycodes.BACK)  # the drawer closes: Home as it was
    assert phone.ui_dump() == home and len(builds) == before
    add(phone, "Lunch", 1200, when=NOW - dt.timedelta(days=2))
    assert texts(phone, "tv_name") == ["Lunch", "Coffee"] and len(builds) == before + 1
    tap(phone, resource_id=rid("fb_main_add"))
    form = phone.ui_dump()
    before = len(builds)
    tap(phone, resource_id=rid("tv_name"), text="Food")  # the card already checked: the form as it was
    assert phone.ui_dump() == form and len(builds) == before
    tap(phone, resource_id=rid("tv_name"), text="Income")
    assert phone.ui_dump() != form and len(builds) == before + 1


def test_the_category_cards_follow_the_selection(phone):
    def checked_category() -> str:
        [card] = [node for node in nodes(phone) if node.get("resource-id") == rid("cd_category")
                  and node.get("checked") == "true"]
        x1, y1, x2, y2 = map(int, re.findall(r"\d+", card.get("bounds")))
        return next(node.get("text") for node in nodes(phone) if node.get("resource-id") == rid("tv_name")
                    and x1 <= center(node)[0] <= x2 and y1 <= center(node)[1] <= y2)

    open_app(phone)
    tap(phone, resource_id=rid("fb_main_add"))
    assert checked_category() == "Food"
    for category in ("Transportation", "Income", "Food"):
        tap(phone, resource_id=rid("tv_name"), text=category)
        assert checked_category() == category


def test_adding_an_expense_through_the_form(phone):
    open_app(phone)
    tap(phone, resource_id=rid("fb_main_add"))
    assert find(phone, text="Expense Entry") is not None
    assert find(phone, resource_id=rid("edt_name")).get("focused") == "true"  # focused, keyboard down
    assert not phone.activities.top.keyboard_shown
    assert texts(phone, "tv_name")[0] == "Food"  # the default category comes first, checked
    assert find(phone, resource_id=rid("cd_category"), checked="true") is not None
    tap(phone, resource_id=rid("edt_name"))
    phone.input_text("A very long expense name indeed")
    phone.key(keycodes.ENTER)  # actionNext: to the amount
    phone.input_text("12a.345")  # FloatingInputFilter: digits, one point, two decimals
    assert texts(phone, "edt_amount") == ["12.34"]
    tap(phone, resource_id=rid("tv_name"), text="Transportation")
    tap(phone, resource_id=rid("edt_note"))
    phone.input_text("Taxi home")
    phone.key(keycodes.ENTER)  # a multi-line note takes the newline
    phone.key(keycodes.BACK)  # the keyboard goes down
    tap(phone, text="SAVE")
    ms = int(NOW.timestamp() * 1000)
    [saved] = rows(phone)
    assert saved["name"] == "A very long expense " and saved["amount"] == 1234 and saved["category"] == 7
    assert saved["note"] == "Taxi home\n" and ms <= saved["modified_date"] <= saved["created_date"] < ms + 60_000
    assert find(phone, text="Home") is not None and texts(phone, "tv_amount") == ["12.34"]


def test_an_empty_amount_is_refused_and_lock_mode_keeps_the_form(phone):
    open_app(phone)
    tap(phone, resource_id=rid("fb_main_add"))
    tap(phone, text="SAVE")
    assert texts(phone, "textinput_error") == ["Cost is Empty"] and rows(phone) == []
    tap(phone, resource_id=rid("cv_lock"))
    assert find(phone, text="NEXT", resource_id=rid("btn_save")) is not None
    tap(phone, resource_id=rid("edt_amount"))
    phone.input_text("5")
    phone.key(keycodes.BACK)
    tap(phone, text="NEXT")
    assert [r["amount"] for r in rows(phone)] == [500]
    assert texts(phone, "snackbar_text") == ["Saved!"] and texts(phone, "edt_amount") == ["Amount"]  # cleared
    phone.key(keycodes.BACK)
    assert find(phone, text="Home") is not None


def test_long_press_opens_the_delete_button_and_only_that_row_goes(phone):
    add(phone, "Coffee", 450, when=NOW.replace(day=10))
    add(phone, "Groceries", 8999, when=NOW.replace(day=9))
    add(phone, "Coffee", 450, when=NOW.replace(day=8))
    open_logs(phone)
    groceries = row_of(phone, "Groceries")
    assert groceries["tv_amount"].get("text") == "89.99" and groceries["tv_currency_symbol"].get("text") == "$"
    phone.tap(*center(groceries["imv_delete_icon"]))  # covered by the row: opens the detail instead
    assert find(phone, text="Expense Detail") is not None
    phone.key(keycodes.BACK)
    phone.long_press(*center(row_of(phone, "Groceries")["view_bg"]))
    groceries = row_of(phone, "Groceries")
    assert groceries["cd_expense"].get("bounds").endswith("[870,634]")  # slid left by 80dp
    phone.tap(*center(groceries["imv_delete_icon"]))
    assert texts(phone, "tv_items") == ["item "] and texts(phone, "tv_delete_description") == ["will be deleted!"]
    tap(phone, resource_id=rid("imv_drop_close"))  # cancelled: nothing deleted
    assert len(rows(phone)) == 3
    phone.tap(*center(row_of(phone, "Groceries")["imv_delete_icon"]))
    tap(phone, text="CONFIRM")
    assert [r["name"] for r in rows(phone)] == ["Coffee", "Coffee"]
    assert texts(phone, "tv_name") == ["Coffee", "Coffee"]


def test_detail_edit_updates_the_row_and_keeps_its_dates(phone):
    add(phone, "Coffee", 450, category=3, note="", when=NOW.replace(day=10, hour=7, minute=0))
    open_logs(phone)
    tap(phone, resource_id=rid("tv_name"), text="Coffee")
    assert texts(phone, "tv_name_value") == ["Coffee"] and texts(phone, "tv_amount_value") == ["4.5"]
    assert texts(phone, "tv_date_value") == ["2023 Oct 10"] and texts(phone, "tv_note_value") == []  # empty note
    tap(phone, text="EDIT")
    assert find(phone, text="Update Data") is not None and find(phone, text="10 Oct 2023 7:00 AM") is not None
    assert texts(phone, "edt_amount") == ["4.5"] and find(phone, resource_id=rid("cv_lock")) is None
    tap(phone, resource_id=rid("edt_amount"))
    phone.key(keycodes.DEL)
    phone.input_text("75")
    phone.key(keycodes.BACK)
    tap(phone, text="UPDATE")
    [before] = [r for r in rows(phone)]
    assert before["amount"] == 475 and before["modified_date"] == before["created_date"] == int(
        NOW.replace(day=10, hour=7, minute=0).timestamp() * 1000)
    assert texts(phone, "snackbar_text") == ["Data Updated!"] and texts(phone, "tv_amount") == ["4.75"]


def test_a_sheet_is_made_afresh_at_each_build(phone):
    """The detail and delete sheets' views are new at each build: a view laid out in one tree is never handed out
    again (which would make the window forget its kept trees), and a sheet shown again is answered from them."""
    add(phone, "Coffee", 450)
    open_app(phone)
    tap(phone, resource_id=rid("tv_name"), text="Coffee")
    screen = phone.activities.top
    for sheet in ("detail", "delete"):
        if sheet == "delete":
            tap(phone, resource_id=rid("btn_delete"))
        first, second = screen.build(), screen.build()
        assert not {id(view) for view in first.walk()} & {id(view) for view in second.walk()}, sheet
        shown = phone.ui_dump()
        phone.invalidate()
        assert phone.window.frame().kept is not None and phone.ui_dump() == shown, sheet


def test_deleting_from_home_asks_then_reports(phone):
    add(phone, "Coffee", 450)
    add(phone, "Snacks", 300)
    open_app(phone)
    tap(phone, resource_id=rid("tv_name"), text="Snacks")
    tap(phone, resource_id=rid("btn_delete"))
    tap(phone, text="CONFIRM")
    assert [r["name"] for r in rows(phone)] == ["Coffee"] and texts(phone, "snackbar_text") == ["Item Deleted"]
    phone.key(keycodes.HOME)  # a second passes: the snackbar is gone
    open_app(phone)
    assert texts(phone, "snackbar_text") == []


def test_a_long_list_scrolls_and_rows_written_from_outside_show(phone):
    for day in range(1, 16):
        for hour in (8, 20):
            add(phone, f"Item {day}-{hour}", 1000 + day, when=NOW.replace(day=day, hour=hour))
    open_logs(phone)
    assert "Item 15-20" in texts(phone, "tv_name") and "Item 1-8" not in texts(phone, "tv_name")
    for _ in range(10):
        phone.swipe(540, 2000, 540, 600)
    assert texts(phone, "tv_name")[-1] == "Item 1-8"
    add(phone, "Late Arrival", 999, when=NOW.replace(day=1, hour=7))  # older than the oldest: the filter drops it
    add(phone, "Inside", 999, when=NOW.replace(day=1, hour=9))
    assert "Inside" in texts(phone, "tv_name") and "Late Arrival" not in texts(phone, "tv_name")


@pytest.mark.parametrize(("font_scale", "navigation_mode"), [("0.85", "0"), ("1.0", "0"), ("1.3", "0"), ("1.0", "2")])
def test_rows_off_screen_stand_in_empty_and_the_logs_show_as_with_every_row_built(phone, monkeypatch, font_scale,
                                                                                  navigation_mode):
    """As with every row built, with three buttons and with gestures (the shorter navigation bar: a taller list)."""
    for day in range(1, 21):
        add(phone, f"Item {day}", 1000 + day, when=NOW.replace(day=day, hour=9))
    assert phone.run(f"settings put system font_scale {font_scale}").exit_code == 0
    assert phone.run(f"settings put secure navigation_mode {navigation_mode}").exit_code == 0
    open_logs(phone)
    seen = texts_shown_as_with_every_row(phone, monkeypatch, expense, rid("tv_name"))
    assert {"Item 20", "Item 1"} <= seen  # from the top to the clamped end and back


def test_back_and_the_drawer(phone):
    open_logs(phone)
    assert find(phone, resource_id=rid("filter"), content_desc="Filter").get("enabled") == "false"  # no expenses
    assert texts(phone, "tv_no_expense_logs") == ["NO EXPENSE LOGS"]
    phone.key(keycodes.BACK)
    assert find(phone, text="Totals") is not None
    nav = next(n for n in nodes(phone) if n.get("class") == "android.widget.ImageButton" and not n.get("resource-id"))
    phone.tap(*center(nav))
    assert find(phone, resource_id=rid("dest_home")).get("checked") == "true"
    phone.key(keycodes.BACK)  # closes the drawer only
    assert find(phone, resource_id=rid("nv_main")) is None and phone.activities.foreground()[0] == PACKAGE
    phone.key(keycodes.BACK)
    assert phone.activities.foreground()[0] != PACKAGE


def drag(phone: Phone, name: str, dx: int) -> None:
    """Drag the Expense Logs row showing ``name`` sideways by ``dx`` px (ItemTouchHelper's swipe)."""
    x, y = center(row_of(phone, name)["view_bg"])
    phone.swipe(x, y, x + dx, y)


def title(phone: Phone) -> str:
    """The Expense Logs toolbar's title."""
    toolbar = find(phone, resource_id=rid("tb_expense"))
    return next(node.get("text") for node in toolbar.iter("node") if node.get("text"))


def card_bounds(phone: Phone, name: str) -> str:
    return row_of(phone, name)["cd_expense"].get("bounds")


def test_a_swipe_makes_only_the_row_it_changes_and_the_logs_show_as_with_every_row_made(phone, monkeypatch):
    """The logs' rows are copies of those the last build made for what they show (the expense, its swipe state, the
    day, the width): a swipe makes its own row alone, and the logs show what rows all made afresh show."""
    for day in range(1, 6):
        add(phone, f"Item {day}", 100 * day, when=NOW.replace(day=day))
    open_logs(phone)
    made = []
    item = ExpenseLogsFragment._item
    monkeypatch.setattr(ExpenseLogsFragment, "_item", lambda self, expense, now: made.append(expense["name"]) or item(
        self, expense, now))
    drag(phone, "Item 3", 300)
    shown = phone.ui_dump()
    assert made == ["Item 3"] and row_of(phone, "Item 3")["fl_back"] is not None
    monkeypatch.setattr(ExpenseLogsFragment, "_row", lambda self, expense, now, made: item(self, expense, now))
    phone.window._stamped.clear()  # the window's laid-out trees too: built afresh
    phone.window._app_trees.clear()
    phone.invalidate()
    assert phone.ui_dump() == shown


def test_dragging_rows_right_selects_them_and_the_toolbar_counts_them(phone):
    add(phone, "Coffee", 450, when=NOW.replace(day=10))
    add(phone, "Groceries", 8999, when=NOW.replace(day=9))
    add(phone, "Snacks", 300, when=NOW.replace(day=8))
    open_logs(phone)
    assert title(phone) == "Expense Logs" and find(phone, resource_id=rid("delete")) is None
    drag(phone, "Groceries", 400)
    assert title(phone) == "1 item" and card_bounds(phone, "Groceries").startswith("[121,")  # slid right 46dp
    assert find(phone, resource_id=rid("filter")) is None  # Delete replaces Filter; the subtitle goes
    assert find(phone, resource_id=rid("delete"), content_desc="Delete").get("enabled") == "true"
    assert not [node for node in nodes(phone) if (node.get("text") or "").endswith(". DESC")]
    drag(phone, "Snacks", 400)
    assert title(phone) == "2 items"
    drag(phone, "Groceries", -400)  # any drag on a selected row deselects it
    assert title(phone) == "1 item" and card_bounds(phone, "Groceries").startswith("[0,")
    phone.long_press(*center(row_of(phone, "Snacks")["view_bg"]))  # a selected row ignores long presses
    assert title(phone) == "1 item" and card_bounds(phone, "Snacks").startswith("[121,")
    back = next(n for n in nodes(phone) if n.get("class") == "android.widget.ImageButton" and not n.get("resource-id"))
    phone.tap(*center(back))  # clearSelectedItems
    assert title(phone) == "Expense Logs" and find(phone, resource_id=rid("filter")) is not None
    assert card_bounds(phone, "Snacks").startswith("[0,") and len(rows(phone)) == 3


def test_deleting_the_selection_deletes_exactly_those_rows_after_confirmation(phone):
    for day, name in ((10, "Coffee"), (9, "Groceries"), (8, "Snacks"), (7, "Taxi")):
        add(phone, name, 300 + day, when=NOW.replace(day=day))
    before = rows(phone)
    open_logs(phone)
    drag(phone, "Coffee", 400)
    drag(phone, "Snacks", 400)
    tap(phone, resource_id=rid("delete"))
    assert texts(phone, "tv_items") == ["2 items "] and texts(phone, "tv_delete_description") == ["will be deleted!"]
    tap(phone, resource_id=rid("imv_drop_close"))  # cancelled: nothing deleted, still selected
    assert rows(phone) == before and title(phone) == "2 items"
    tap(phone, resource_id=rid("delete"))
    phone.key(keycodes.BACK)  # BACK dismisses the sheet too
    assert rows(phone) == before and title(phone) == "2 items"
    tap(phone, resource_id=rid("delete"))
    tap(phone, text="CONFIRM")
    assert rows(phone) == [before[1], before[3]]  # exactly the selected rows are gone, the rest untouched
    assert title(phone) == "Expense Logs" and texts(phone, "tv_name") == ["Groceries", "Taxi"]
    assert card_bounds(phone, "Groceries").startswith("[0,")


def test_dragging_left_opens_the_delete_button_and_ends_the_selection(phone):
    add(phone, "Coffee", 450, when=NOW.replace(day=10))
    add(phone, "Groceries", 8999, when=NOW.replace(day=9))
    open_logs(phone)
    drag(phone, "Coffee", 400)
    drag(phone, "Groceries", -400)  # opened on its delete button: the swipe states are cleared
    assert card_bounds(phone, "Groceries").endswith("[870,634]") and card_bounds(phone, "Coffee").startswith("[0,")
    assert title(phone) == "Expense Logs"
    drag(phone, "Groceries", 400)  # back to idle, not selected
    assert title(phone) == "Expense Logs" and card_bounds(phone, "Groceries") == "[0,450][1080,634]"
    drag(phone, "Groceries", 400)
    tap(phone, resource_id=rid("delete"))
    assert texts(phone, "tv_items") == ["item "]  # a single item, as the one-row confirmation says it
    tap(phone, text="CONFIRM")
    assert [r["name"] for r in rows(phone)] == ["Coffee"]


def test_pro_expense_is_dark_by_day_and_by_night() -> None:
    """MainActivity sets ``delegate.localNightMode`` from the theme preference, whose default is MODE_NIGHT_YES
    (PreferenceFlowStorageDaoImpl.DEFAULT_THEME_MODE): the app draws its values-night theme whatever the system's; only
    the system's bars follow the system."""
    shots = []
    for night in (False, True):
        phone = Phone()
        if night:
            phone.run("cmd uimode night yes")
        phone.run(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")
        shots.append(phone.screenshot()[STATUS_BAR_HEIGHT:2400 - NAV_BAR_HEIGHT])
    day, night = shots
    assert np.array_equal(day, night) and tuple(day[600, 540]) != WHITE


def test_the_weekly_graph_paints_the_day_names_and_keeps_them_out_of_the_dump() -> None:
    """``SpendGraph.drawDayNames``: SU … SA (ExpenseDayNameProvider) in ?colorPrimary along its bottom 30 dp, one
    in the middle of each seventh of its width less 16 dp each side; painted, so not in the accessibility tree."""
    phone = Phone()
    open_app(phone)
    graph = next(view for view in phone.window.frame().app.walk() if view.resource_id == f"{PACKAGE}:id/expense_graph")
    labels = [view for view in graph.walk() if view.kind == "label"]
    assert [view.hint for view in labels] == ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
    x1, y1, x2, y2 = graph.bounds
    part = (x2 - x1 - 2 * 42) / 7
    centres = [(view.bounds[0] + view.bounds[2]) / 2 for view in labels]
    assert centres == pytest.approx([x1 + 42 + part * (day + 0.5) for day in range(7)], abs=3)  # whole px parts
    assert all(view.bounds[3] == y2 and view.bounds[1] == y2 - 79 for view in labels)  # 30 dp
    pixels = phone.screenshot()
    assert (pixels[y2 - 79:y2, x1:x2] == expense._PRIMARY).all(axis=2).any()
    dumped = find(phone, resource_id=f"{PACKAGE}:id/expense_graph")
    assert dumped is not None and len(dumped) == 0 and find(phone, text="SU") is None


def test_the_weekly_graph_rates_each_days_outcome_against_the_largest_days() -> None:
    """``ExpenseRateCalculatorImpl``: per ``Calendar.DAY_OF_WEEK`` (1 = Sunday), the day's Float total over the largest
    day's, times 100, truncated (0.29f / 1f * 100 is 28.99…: 28); no expenses, no rates; a largest total of 0 rates
    every day 0 (NaN.toInt())."""
    sunday, monday, saturday = (int((NOW + dt.timedelta(days=d)).timestamp() * 1000) for d in (0, 1, 6))
    assert day_rates([(sunday, 1200), (sunday, 300), (monday, 3000), (saturday, 900)], UTC) == {1: 50, 2: 100, 7: 30}
    assert day_rates([(sunday, 29), (monday, 100)], UTC) == {1: 28, 2: 100}
    assert day_rates([], UTC) == {} and day_rates([(sunday, 0)], UTC) == {1: 0}
    one_am = int(NOW.replace(hour=1).timestamp() * 1000)  # Sunday in UTC, Saturday 23:00 two hours west
    assert day_rates([(one_am, 500)], UTC) == {1: 100}
    assert day_rates([(one_am, 500)], dt.timezone(-dt.timedelta(hours=2))) == {7: 100}


def test_the_weekly_graph_paints_a_point_per_day_the_line_through_them_and_the_highest_days_dashes(phone) -> None:
    """``SpendGraph.drawPointLines``: a 2 dp (1.5 dp radius and half the 1 dp stroke) point at each day with outcome,
    ``rate / 110`` of the line canvas (the view less its bottom 30 dp) up from its bottom, above its day name; a line
    through them; a dashed vertical (5 px on, 10 px off) from the bottom to the highest point. Income is left out;
    painted in ``?colorPrimary`` only (the view keeps no children in the dump), and drawn again when the week
    changes."""
    add(phone, "Salary", 900000, category=2, when=NOW.replace(hour=9))
    add(phone, "Lunch", 1000, when=NOW.replace(hour=9))  # Sunday: 50 %
    add(phone, "Rent", 2000, when=NOW + dt.timedelta(days=3))  # Wednesday: 100 %
    open_app(phone)
    graph = next(view for view in phone.window.frame().app.walk() if view.resource_id == rid("expense_graph"))
    x1, y1, x2, y2 = graph.bounds
    bottom, part = y2 - 79, (x2 - x1 - 2 * 42) / 7
    shot = [phone.screenshot()]

    def primary(x: float, y: float) -> bool:
        return tuple(shot[0][round(y), round(x)]) == expense._PRIMARY

    sunday, wednesday = x1 + 42 + part / 2, x1 + 42 + part * 3.5
    assert primary(sunday, bottom - 0.5 / 1.1 * (bottom - y1)) and primary(wednesday, y1 + 1 / 11 * (bottom - y1))
    assert primary((sunday + wednesday) / 2, bottom - 0.75 / 1.1 * (bottom - y1))  # the line's middle
    dashes = [primary(wednesday, y) for y in range(y1 + 100, bottom)]
    assert 0.25 < sum(dashes) / len(dashes) < 0.45 and not primary(sunday + part, bottom - 30)  # a third dashed
    assert len(find(phone, resource_id=rid("expense_graph"))) == 0
    add(phone, "Taxi", 4000, when=NOW + dt.timedelta(days=1))  # Monday, the new largest: the rest fall
    shot[0] = phone.screenshot()
    assert not primary(wednesday, y1 + 1 / 11 * (bottom - y1))
    assert primary(wednesday, bottom - 0.5 / 1.1 * (bottom - y1))
