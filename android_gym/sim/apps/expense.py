"""Pro Expense 1.0.0-beta05 (``com.arduia.expense``, versionCode 11, the build AndroidWorld installs).

Read from github.com/arduia/ProExpense at tag ``v1.0.0-beta05``: the Room schema
``app/schemas/com.arduia.expense.data.local.ProExpenseDatabase/6.json`` and ``data/local/ExpenseDao.kt``;
layouts ``activ_main.xml``, ``layout_header.xml``, ``frag_home.xml``, ``layout_expense_in_out.xml``,
``layout_expense_graph.xml``, ``layout_recent_lists.xml``, ``item_expense_recent.xml``, ``frag_expense_logs.xml``,
``item_expense_log.xml``, ``layout_no_expense_logs.xml``, ``frag_expense_entry.xml``, ``item_category.xml``,
``expense_detail_dialog.xml``, ``frag_delete_confirm_dialog.xml``; menus ``menu_home.xml``,
``menu_expense_log.xml``, ``menu_entry.xml``; ``res/values/strings.xml`` (aapt trims the leading space of
``" item"``), ``values-night/theme.xml`` (the default theme mode is night); and the Kotlin of ``MainActivity``,
``HomeFragment``/``HomeViewModel``, ``ExpenseFragment``/``ExpenseViewModel``/``ExpenseLogAdapter``/
``SwipeFrameLayout``, ``ExpenseEntryFragment``/``ExpenseEntryViewModel``/``FloatingInputFilter``,
``SwipeItemCallback``/``SwipeStateHolder``/``SwipeItemState``, ``ExpenseDetailDialog``, ``DeleteConfirmFragment``,
``ExpenseCategoryProviderImpl``, ``ExpenseRecentDateFormatter``, ``StatisticDateRangeFormatter``/
``MonthDateRangeFormatter``, ``FormatModule`` (amounts: ``DecimalFormat`` in
English with at most two fraction digits) and ``PreferenceFlowStorageDaoImpl`` (default currency 840, USD).

One activity (``ui.MainActivity``) hosts the navigation graph's fragments: Home (totals of the week, the four
most recent expenses, "More"), Expense Logs (every expense, newest first, in the filter's date range), the entry
form (add, or update from the detail sheet's "Edit"), the drawer, the detail and delete-confirmation bottom
sheets and the snackbar. Material buttons and overline/all-caps texts report upper-case text, as on the device.
A long press on a log row, or dragging it to the left, slides it open on its delete button, which asks for
confirmation, then deletes that row. Dragging a row to the right selects it (the selection mode: the toolbar
counts the selected rows, its back button clears them and its Delete item deletes them all, after confirmation,
in one statement); any drag on a selected or opened row puts it back. Every frame reads ``accounting.db``'s data
version (and its rows when that moved), so rows a task writes from outside show at once.

Not simulated: the splash screen and first-run onboarding (the app starts as AndroidWorld's setup leaves it),
the distance a row drag needs (75dp to the right, 100dp to the left: every horizontal drag counts, as the
agent's drags are longer), the filter dialog, the entry's date and time pickers, the statistics, backup,
feedback, about and settings pages (their drawer items only close the drawer), and
scrolling the category chooser sideways (its chips wrap onto further lines instead).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Hashable
from typing import Any, ClassVar

from android_gym.sim.apps.expense_graph import DAY_NAME_HEIGHT, SIDE_PADDING, day_rates, spend_graph
from android_gym.sim.framework.app import App, Context, Screen
from android_gym.sim.framework.display import dp
from android_gym.sim.framework.intent import Intent
from android_gym.sim.framework.window import STATUS_BAR_HEIGHT
from android_gym.sim.system.clock import DAY_MS
from android_gym.sim.system.provider import SqliteProvider
from android_gym.sim.ui.kept_tree import KeptTree
from android_gym.sim.ui.layout import bound_rows, measure_width
from android_gym.sim.ui.views import (
    FIELD_LABEL,
    FIELD_STROKE,
    LAYOUT_ONLY,
    OUTLINED_PADDING,
    PRIMARY,
    View,
    column,
    copied,
    edit_text,
    frame,
    outlined_field,
    over,
    row,
    scroll_list,
    side_margins,
    text_view,
)

PACKAGE = "com.arduia.expense"
ACTIVITY = f"{PACKAGE}.ui.MainActivity"
DB_PATH = f"/data/data/{PACKAGE}/databases/accounting.db"
ROOM_VERSION = 6
IDENTITY_HASH = "27085a6798a70569f4984067458b86b2"  # schemas/.../6.json
SCHEMA = (
    "CREATE TABLE android_metadata (locale TEXT)",
    "INSERT INTO android_metadata VALUES ('en_US')",
    "CREATE TABLE IF NOT EXISTS `expense` (`expense_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT, "
    "`amount` INTEGER NOT NULL, `category` INTEGER NOT NULL, `note` TEXT, `created_date` INTEGER NOT NULL, "
    "`modified_date` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS `backup` (`backup_id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `name` TEXT NOT "
    "NULL, `path` TEXT NOT NULL, `created_date` INTEGER NOT NULL, `item_total` INTEGER NOT NULL, `worker_id` TEXT "
    "NOT NULL, `is_completed` INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT)",
    f"INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, '{IDENTITY_HASH}')",
    f"PRAGMA user_version = {ROOM_VERSION}",
)
#: ``ExpenseCategory`` ids and their names (strings.xml); ``DataStoreExchangeRate``: amounts are stored × 100.
CATEGORIES = {1: "Others", 2: "Income", 3: "Food", 4: "Housing", 5: "Social", 6: "Entertainment",
              7: "Transportation", 8: "Clothes", 9: "Health Care", 10: "Education", 11: "Donation"}
OTHERS, INCOME, FOOD = 1, 2, 3
#: ``ExpenseCategoryProviderImpl.getCategoryData`` order (the entry form moves the selected one first).
CATEGORY_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1)
AMOUNT_RATE = 100
_CATEGORY_ICONS = {1: "category", 2: "income", 3: "food", 4: "housing", 5: "social", 6: "entertainment",
                   7: "transport", 8: "clothes", 9: "health", 10: "education", 11: "donation"}

# res/values/strings.xml (the text as the accessibility node reports it: all-caps styles applied).
APP_NAME = "Pro Expense"
HOME, EXPENSE_LOGS, EXPENSE_ENTRY, UPDATE_DATA = "Home", "Expense Logs", "Expense Entry", "Update Data"
DRAWER_ITEMS = ("Home", "Expense Logs", "Statistics", "Backup", "Feedback", "About", "Settings")  # menu_home.xml
DRAWER_IDS = ("dest_home", "dest_expense_logs", "dest_statistics", "dest_backup", "dest_feedback", "dest_about",
              "dest_settings")
SAVE, UPDATE, NEXT, EDIT, CONFIRM, MORE = "SAVE", "UPDATE", "NEXT", "EDIT", "CONFIRM", "MORE"
NAME, AMOUNT, NOTE, DATE = "Name", "Amount", "Note", "Date"
RECENT, TOTALS, INCOME_LABEL, OUTCOME_LABEL = "Recent", "Totals", "INCOME", "OUTCOME"
EXPENSES_IN_THIS_WEEK, EXPENSE_DETAIL, DELETE_ITEMS = "Expenses in this Week", "Expense Detail", "Delete Items"
DAY_NAMES = ("SU", "MO", "TU", "WE", "TH", "FR", "SA")  # day_sun … day_sat, ExpenseDayNameProvider's (1 = Sunday)
WILL_BE_DELETED, ITEM_SUFFIX, ITEMS_SUFFIX = "will be deleted!", "item", "items"
DELETE, FILTER, TIME, CALENDAR = "Delete", "Filter", "Time", "Calendar"
ITEM_DELETED, DATA_UPDATED, SAVED, EMPTY_COST = "Item Deleted", "Data Updated!", "Saved!", "Cost is Empty"
NO_EXPENSE_LOGS, BETA = "NO EXPENSE LOGS", "BETA"
CURRENCY_CODE, CURRENCY_SYMBOL = "USD", "$"  # currencies.json, number 840
SNACK_MS = 1000  # integer/duration_short_snack
RECENT_COUNT = 4  # ExpenseDao.getRecentExpense
NAME_MAX, NOTE_MAX, LIST_NAME_MAX, LIST_AMOUNT_MAX = 20, 100, 20, 15  # android:maxLength
#: ``FloatingInputFilter`` (it replaces the field's maxLength filter).
AMOUNT_PATTERN = re.compile(r"[+-]?([0-9]{0,8}([.][0-9]{0,2})?|[.][0-9]{0,2})")

# Sizes in px at 420 dpi (1 dp = 2.625 px) and the night theme's colours (colors.xml, values-night/theme.xml).
_SURFACE, _ON_SURFACE, _PRIMARY = (33, 33, 33), (245, 245, 245), (129, 212, 250)
_CARD, _SECONDARY, _NEGATIVE, _CATEGORY_BG = (48, 48, 48), (189, 189, 189), (229, 115, 115), (179, 229, 252)
_SCRIM, _CHECKED, _WARNING, _POSITIVE = (12, 12, 12), (66, 94, 110), (255, 241, 118), (129, 199, 132)
_TITLE, _BODY, _CAPTION, _OVERLINE, _LARGE = 52, 42, 32, 26, 74
_TOOLBAR_HEIGHT, _ROW_HEIGHT, _RECENT_HEIGHT = 147, 184, 186  # actionBarSize; view_bg 70dp; 55dp + 2 × 8dp
_LOG_SPACING = 1  # the logs' divider
_HOME_PADDING, _CARD_PADDING = dp(8), dp(16)  # rv_home's padding; the cards' insides
_CARD_ICON, _ICON = 131, 92  # 50dp category card; standard_icon_size 35dp
_PREPARED_SHIFT, _SELECTED_SHIFT = 210, 121  # SwipeFrameLayout.lockEndMargin 80dp, lockStartMargin 46dp
#: ``SwipeItemState``: a row slid right (selected) or left (opened on its delete button); idle rows are absent.
LOCK_START, LOCK_END = 1, 2


def _id(name: str) -> str:
    return f"{PACKAGE}:id/{name}"


# ----- values as the app shows them ---------------------------------------------------------------------------
def format_amount(cents: int, grouping: bool = True) -> str:
    """``@CurrencyDecimalFormat``: the amount in currency units, grouped by thousands, at most two decimals
    (``ExpenseUpdateDataUiModelMapper`` formats without grouping)."""
    units, rest = divmod(abs(cents), AMOUNT_RATE)
    text = f"{units:,}" if grouping else str(units)
    if rest:
        text += "." + f"{rest:02d}".rstrip("0")
    return ("-" if cents < 0 else "") + text


def parse_amount(text: str) -> int | None:
    """``Amount.createFromActual(BigDecimal(text))``: cents, or ``None`` where ``BigDecimal`` throws."""
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", text):
        return None
    sign = -1 if text.startswith("-") else 1
    units, _, fraction = text.lstrip("+-").partition(".")
    return sign * (int(units or "0") * AMOUNT_RATE + int((fraction + "00")[:2]))


def _clock_time(when: dt.datetime) -> str:
    """``h:mm a`` in English."""
    return f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"


def format_date(ms: int, now: dt.datetime) -> str:
    """``ExpenseRecentDateFormatter``: "Today 3:34 PM", "Yesterday 9:00 AM", "Sep 30" in another month of this
    year, else "2023 Oct 3" (``ExpenseDateFormatter`` reaches that branch for other days of this month too)."""
    when = dt.datetime.fromtimestamp(ms / 1000, tz=now.tzinfo)
    same_month = when.year == now.year and when.month == now.month
    if same_month and when.day == now.day:
        return f"Today {_clock_time(when)}"
    if same_month and when.day == now.day - 1:
        return f"Yesterday {_clock_time(when)}"
    if when.year == now.year and when.month != now.month:
        return f"{when:%b} {when.day}"
    return f"{when.year} {when:%b} {when.day}"


def format_range(start_ms: int, end_ms: int, tz: dt.tzinfo | None, with_year: bool) -> str:
    """``StatisticDateRangeFormatter`` ("2023 Oct 1 - 15"; ``with_year=False``: ``MonthDateRangeFormatter``,
    "Oct 15 - 22")."""
    start, end = (dt.datetime.fromtimestamp(ms / 1000, tz=tz) for ms in (start_ms, end_ms))
    first = f"{start.year} {start:%b} {start.day}" if with_year else f"{start:%b} {start.day}"
    if start.year != end.year:
        return f"{first} - " + (f"{end.year} {end:%b} {end.day}" if with_year else f"{end:%b} {end.day}")
    if start.month != end.month:
        return f"{first} - {end:%b} {end.day}"
    return first if start.day == end.day else f"{first} - {end.day}"


def week_start(now: dt.datetime) -> dt.datetime:
    """``getWeekStartTime``: the Sunday that starts this week, at midnight (to the millisecond: the week's query is
    the same all week, read once and then kept by the provider)."""
    sunday = now - dt.timedelta(days=(now.weekday() + 1) % 7)
    return sunday.replace(hour=0, minute=0, second=0, microsecond=0)


def _filtered(old: str, new: str, accept: Callable[[str], bool]) -> str:
    """Apply an ``InputFilter`` to an edit from ``old`` to ``new`` as key-by-key typing does: deletions go through,
    each inserted character is kept only if the text it makes is accepted."""
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < min(len(old), len(new)) - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    text, position = old[:prefix] + old[len(old) - suffix:], prefix
    for char in new[prefix:len(new) - suffix]:
        candidate = text[:position] + char + text[position:]
        if accept(candidate):
            text, position = candidate, position + 1
    return text


def _max_length(limit: int) -> Callable[[str], bool]:
    return lambda text: len(text) <= limit


# ----- the database ----------------------------------------------------------------------------------------------
class ExpenseDatabase(SqliteProvider):
    """``ProExpenseDatabase`` (Room 6, WAL) in ``databases/accounting.db``, queried as ``ExpenseDao`` does."""

    db_path = DB_PATH
    schema = SCHEMA
    journal_mode = "WAL"

    def query(self, where: str = "", params: tuple[Any, ...] = (), limit: int = -1) -> list[dict[str, Any]]:
        """Expenses matching the fixed SQL ``where`` clause, newest ``modified_date`` first."""
        sql = f"SELECT * FROM `expense` {where} ORDER BY modified_date DESC LIMIT ?"

        def read() -> list[dict[str, Any]]:
            with self.reading() as db:
                return [dict(found) for found in db.execute(sql, (*params, limit))]
        return self.cached((sql, *params, limit), read)

    def get(self, expense_id: int) -> dict[str, Any] | None:
        """``getItemExpense``."""
        found = self.query("WHERE expense_id = ?", (expense_id,))
        return found[0] if found else None

    def date_range(self) -> tuple[int, int]:
        """``getMaxAndMiniDateRange``: the oldest and newest ``modified_date`` (0 when there is none)."""
        def read() -> tuple[int, int]:
            with self.reading() as db:
                low, high = db.execute("SELECT MIN(modified_date), MAX(modified_date) FROM `expense`").fetchone()
            return low or 0, high or 0
        return self.cached("date range", read)

    def insert(self, values: dict[str, Any]) -> None:
        """``insertExpense`` (a new id)."""
        with self._write() as db:
            db.execute("INSERT INTO `expense` (name, amount, category, note, created_date, modified_date) "
                       "VALUES (:name, :amount, :category, :note, :created_date, :modified_date)", values)

    def update(self, values: dict[str, Any]) -> None:
        """``updateExpense``: every column of the row ``expense_id``."""
        with self._write() as db:
            db.execute("UPDATE `expense` SET name=:name, amount=:amount, category=:category, note=:note, "
                       "created_date=:created_date, modified_date=:modified_date WHERE expense_id=:expense_id",
                       values)

    def delete(self, expense_id: int) -> None:
        """``deleteExpenseRowById``."""
        with self._write() as db:
            db.execute("DELETE FROM `expense` WHERE expense_id = ?", (expense_id,))

    def delete_many(self, expense_ids: list[int]) -> None:
        """``deleteExpenseByIDs``: one ``DELETE ... in (:idLists)`` statement."""
        with self._write() as db:
            marks = ", ".join("?" * len(expense_ids))
            db.execute(f"DELETE FROM `expense` WHERE  expense_id in ({marks})", expense_ids)


# ----- widgets -------------------------------------------------------------------------------------------------
def _text(text: str, name: str = "", size: int = _BODY, color: tuple[int, int, int] = _ON_SURFACE,
          **props) -> View:
    props.setdefault("padding", 6)
    return text_view(text, resource_id=_id(name) if name else "", text_size=size, text_color=color, **props)


def _image(name: str, icon: str, size: int = _ICON, class_name: str = "android.widget.ImageView", **props) -> View:
    """An ``AppCompatImageView`` (clickable when given ``on_click``)."""
    clickable = props.get("on_click") is not None
    props.setdefault("text_color", _ON_SURFACE)
    return View(kind="icon", class_name=class_name, resource_id=_id(name) if name else "",
                hint=icon, width=size, height=size, clickable=clickable, focusable=clickable, **props)


def _nav_button(icon: str, on_click: Callable[[], None]) -> View:
    """The toolbar's navigation ``ImageButton``: no id and no description (none is set in the app)."""
    return View(kind="icon", class_name="android.widget.ImageButton", hint=icon, width=_TOOLBAR_HEIGHT,
                height=_TOOLBAR_HEIGHT, clickable=True, focusable=True, on_click=on_click, text_color=_ON_SURFACE)


def _menu_item(name: str, title: str, icon: str, enabled: bool = True,
               on_click: Callable[[], None] | None = None) -> View:
    """An ``ActionMenuItemView`` showing only its icon: a Button described by the item's title. The dialogs the
    filter, date and time items open are not simulated: a tap on them does nothing."""
    return View(kind="icon", class_name="android.widget.Button", resource_id=_id(name), content_desc=title,
                hint=icon, width=_TOOLBAR_HEIGHT, height=_TOOLBAR_HEIGHT, clickable=True, focusable=True,
                enabled=enabled, on_click=on_click, text_color=_ON_SURFACE if enabled else _SECONDARY)


def _button(text: str, name: str, on_click: Callable[[], None], background: tuple[int, int, int] = _PRIMARY,
            color: tuple[int, int, int] = _SURFACE, **props) -> View:
    """A ``MaterialButton`` (all-caps text)."""
    props.setdefault("height", dp(48))
    return View(kind="button", class_name="android.widget.Button", resource_id=_id(name), text=text,
                clickable=True, focusable=True, on_click=on_click, background=background, text_color=color,
                text_size=_BODY, padding=12, **props)


def _toolbar(name: str, title: str, navigation: View, subtitle: str = "", actions: tuple[View, ...] = ()) -> View:
    """A ``Toolbar``: navigation button, title (and subtitle) TextViews, then the action menu."""
    titles = [_text(title, size=_TITLE, padding=0)] + ([_text(subtitle, size=_CAPTION, padding=0,
                                                              color=_SECONDARY)] if subtitle else [])
    menu = [View(kind="row", class_name="androidx.appcompat.widget.ActionMenuView", children=list(actions))]
    return View(kind="row", class_name="android.view.ViewGroup", resource_id=_id(name), height=_TOOLBAR_HEIGHT,
                background=_SURFACE, children=[navigation, column(*titles, weight=1, padding=12), *menu])


def _scroll_view(scroller: View) -> View:
    """A ``NestedScrollView``: it scrolls as a list does and reports itself as a ScrollView."""
    scroller.class_name = "android.widget.ScrollView"
    return scroller


def _app_bar(name: str, toolbar: View) -> View:
    """An ``AppBarLayout`` (a LinearLayout) around the toolbar."""
    return View(kind="column", class_name="android.widget.LinearLayout", resource_id=_id(name),
                children=[toolbar])


def _category_icon(category: int, size: int) -> View:
    """``cv_category``: the round card with the category's image (no text, no description)."""
    icon = _image("imv_category", _CATEGORY_ICONS.get(category, "category"), size=dp(30), text_color=_SURFACE,
                  gravity="center")
    return frame(icon, resource_id=_id("cv_category"), width=size, height=size, background=_CATEGORY_BG,
                 corner=size // 2)


def _expense_texts(expense: dict[str, Any], symbol: str, now: dt.datetime) -> tuple[View, View]:
    """The name and date column, and the amount with the currency, of a list row."""
    texts = column(_text((expense["name"] or "")[:LIST_NAME_MAX], "tv_name", height=66),
                   _text(format_date(expense["modified_date"], now), "tv_date", _CAPTION, _SECONDARY),
                   weight=1, padding=dp(8))
    amount = View(kind="row", class_name="android.widget.LinearLayout", resource_id=_id("linear_amount"),
                  children=[_text(format_amount(expense["amount"])[:LIST_AMOUNT_MAX], "tv_amount"),
                            _text(symbol, "tv_currency_symbol", _CAPTION, _SECONDARY)])
    return texts, amount


# ----- fragments ----------------------------------------------------------------------------------------------
class _Fragment:
    """A destination of ``main_nav.xml`` shown in the activity; ``scroll_keys`` name its lists."""

    scroll_keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, host: MainActivity) -> None:
        self.host = host

    @property
    def phone(self) -> Context:
        """The phone the app runs on."""
        return self.host.phone

    @property
    def db(self) -> ExpenseDatabase:
        """The app's database."""
        return self.host.db

    def build(self) -> View:
        """The fragment's view tree."""
        raise NotImplementedError

    def shown(self) -> Hashable:
        """What the fragment's tree is made from but the activity's focus, list positions and window (``Screen.shown``):
        equal values, equal trees."""
        raise NotImplementedError

    def on_enter(self) -> None:
        """Called when the fragment comes to the top of the back stack."""


class HomeFragment(_Fragment):
    """``HomeFragment``: the week's income and outcome, the weekly graph card, the recent expenses."""

    scroll_keys = ("rv_home",)

    def __init__(self, host: MainActivity) -> None:
        super().__init__(host)
        self._page = KeptTree()

    def shown(self) -> Hashable:
        """The database's data, the day (the week's range, "Today" and "Yesterday"; ``format_date`` reads only the
        day of the time) and the window's width."""
        now = self.phone.clock.now(DAY_MS)  # the screen shows dates: it changes when the day turns
        return self.db.data_version(), now.date(), now.tzinfo, self.phone.window.design_width

    def build(self) -> View:
        """The page, built again only when what it shows changed (``shown``): the database is queried only then."""
        return self._page.get(self.shown(), self._built)

    def _built(self) -> View:
        now = self.phone.clock.now(DAY_MS)
        start = week_start(now)
        week = self.db.query("WHERE modified_date > ?", (int(start.timestamp() * 1000),))
        week_range = format_range(int(start.timestamp() * 1000),
                                  int((start + dt.timedelta(days=7, hours=23, minutes=59)).timestamp() * 1000),
                                  now.tzinfo, with_year=False).upper()
        recent = self.db.query(limit=RECENT_COUNT)
        width = self.phone.window.design_width
        graph = self._graph(week, week_range, now.tzinfo, width - 2 * _HOME_PADDING)
        items = [self._totals(week, week_range), graph]
        if recent:  # RecentEpoxyModel: the card is GONE without items
            items.append(_text(RECENT, "tv_recent_lists", _TITLE, padding=dp(16)))
            items += [self._recent_item(expense, now) for expense in recent]
            items.append(_button(MORE, "btn_more_logs", self.host.show_logs, background=_SURFACE, color=_PRIMARY))
        toolbar = _toolbar("toolbar", HOME, _nav_button("menu", self.host.open_drawer))
        return View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                    resource_id=_id("ml_home"), background=_SURFACE, children=[
                        _app_bar("abl_home", toolbar),
                        scroll_list(*items, key="rv_home", resource_id=_id("rv_home"), weight=1, spacing=dp(8),
                                    padding=_HOME_PADDING)])

    @staticmethod
    def _totals(week: list[dict[str, Any]], week_range: str) -> View:
        """``layout_expense_in_out``: the week's income (category Income) and outcome (the rest)."""
        income = sum(e["amount"] for e in week if e["category"] == INCOME)
        outcome = sum(e["amount"] for e in week if e["category"] != INCOME)

        def total(label: str, name: str, cents: int) -> list[View]:
            return [_text(label, f"tv_{name}", _OVERLINE, _SECONDARY, padding=dp(4)),
                    row(_text(format_amount(cents), f"tv_{name}_value", _LARGE),
                        _text(CURRENCY_CODE, f"tv_{name}_symbol" if name == "outcome" else "tv_income_symobol",
                              _CAPTION))]

        return column(_text(TOTALS, "tv_expense_in_out_title", _TITLE), _text(week_range, "tv_date_range"),
                      *total(INCOME_LABEL, "income", income), *total(OUTCOME_LABEL, "outcome", outcome),
                      padding=_CARD_PADDING, background=_CARD)

    @staticmethod
    def _graph(week: list[dict[str, Any]], week_range: str, tz: dt.tzinfo | None, width: int) -> View:
        """``layout_expense_graph``: title and date range (16 dp in), then across the card (``width``) the
        ``SpendGraph`` (16 dp above the card's bottom), which paints the week's day names
        (``drawDayNames``: 12 sp in ``?colorPrimary``, centred in seven equal parts of its bottom 30 dp, 16 dp in
        from its sides) and above them the line of the days' rates of the week's outcome (``expense_graph``), a
        picture of the view's size, keyed by the rates and the size."""
        rates = day_rates(((e["modified_date"], e["amount"]) for e in week if e["category"] != INCOME), tz)
        days = View(kind="row", class_name=LAYOUT_ONLY, weight=1, children=[
            View(kind="label", hint=name, text_size=_CAPTION, text_color=_PRIMARY, gravity="center", weight=1,
                 height=DAY_NAME_HEIGHT) for name in DAY_NAMES])
        height = dp(160)
        graph = View(kind="column", class_name="android.view.View", resource_id=_id("expense_graph"), height=height,
                     image=lambda: spend_graph(rates, width, height, _PRIMARY),
                     key=f"spend_graph {width}x{height} {sorted(rates.items())}",
                     children=[View(class_name=LAYOUT_ONLY, weight=1), side_margins(days, SIDE_PADDING)])
        titles = column(_text(EXPENSES_IN_THIS_WEEK, "tv_title", _TITLE), _text(week_range, "tv_date_range"),
                        weight=1)
        return column(View(class_name=LAYOUT_ONLY, height=_CARD_PADDING), side_margins(titles, _CARD_PADDING), graph,
                      View(class_name=LAYOUT_ONLY, height=_CARD_PADDING), background=_CARD)

    def _recent_item(self, expense: dict[str, Any], now: dt.datetime) -> View:
        """``item_expense_recent``: a tap opens the detail sheet (the currency shows as its code here)."""
        texts, amount = _expense_texts(expense, CURRENCY_CODE, now)
        return View(kind="row", class_name="android.widget.RelativeLayout", resource_id=_id("cd_expense"),
                    height=_RECENT_HEIGHT, clickable=True, focusable=True, background=_CARD, padding=dp(8),
                    on_click=lambda: self.host.show_detail(expense["expense_id"], CURRENCY_CODE, self._deleted),
                    children=[_category_icon(expense["category"], dp(55)), texts, amount])

    def _deleted(self) -> None:
        """``onExpenseItemDeleted``: the snackbar."""
        self.host.show_snack(ITEM_DELETED)


class ExpenseLogsFragment(_Fragment):
    """``ExpenseFragment``: every expense in the filter's date range, newest first; rows are opened on their
    delete button or selected by swiping (``SwipeItemCallback``), and the selection mode deletes the selected."""

    scroll_keys = ("rv_expense",)

    def __init__(self, host: MainActivity) -> None:
        super().__init__(host)
        self.constraint: tuple[int, int] | None = None
        self.states: dict[int, int] = {}  # SwipeStateHolder: expense id -> LOCK_START / LOCK_END
        self._rows: dict[Hashable, View] = {}  # the rows the last build made, by what each shows (``_row``)

    @property
    def selected(self) -> list[int]:
        """``getSelectIdList``: the ids of the rows slid right."""
        return [expense_id for expense_id, state in self.states.items() if state == LOCK_START]

    def _range(self, low: int, high: int) -> tuple[int, int]:
        """``observeMaxAndMinDateRange``: the filter starts as the table's date range (``low``..``high``) and then
        only narrows (an empty table pins it to now)."""
        if not (low and high):  # read the clock only then: the logs show dates, not the time
            now = self.phone.clock.now_ms()
            self.constraint = (now, now)
        elif self.constraint is None:
            self.constraint = (low, high)
        else:
            self.constraint = (max(self.constraint[0], low), min(self.constraint[1], high))
        return self.constraint

    def shown(self) -> Hashable:
        """The database's data, the filter's range, the rows' swipe states and the day (``format_date``,
        ``format_range``)."""
        now = self.phone.clock.now(DAY_MS)
        return (self.db.data_version(), self._range(*self.db.date_range()), tuple(self.states.items()), now.date(),
                now.tzinfo)

    def build(self) -> View:
        low, high = self.db.date_range()
        start, end = self._range(low, high)
        expenses = self.db.query("WHERE modified_date >= ? AND modified_date <= ?", (start, end))
        empty_table = (low, high) == (0, 0)  # isEmptyExpenseCount: the menu is disabled
        now = self.phone.clock.now(DAY_MS)  # format_date and format_range read only the day and the zone
        subtitle = "" if not expenses else f"{format_range(start, end, now.tzinfo, with_year=True)} . DESC"
        toolbar = self._selection_toolbar(not empty_table) if self.selected else _toolbar(
            "tb_expense", EXPENSE_LOGS, _nav_button("menu", self.host.open_drawer), subtitle,
            (_menu_item("filter", FILTER, "filter", enabled=not empty_table),))
        window = self.phone.window
        # the list's room at most: the window's content under the app bar (the keyboard only takes from it)
        room = window.design_height - STATUS_BAR_HEIGHT - window.nav_bar_height - _TOOLBAR_HEIGHT
        made, self._rows = self._rows, {}
        items = bound_rows(lambda index: self._row(expenses[index], now, made), len(expenses), _ROW_HEIGHT,
                           _LOG_SPACING, self.host.scroll.get("rv_expense", 0), room, window.looks.font_scale)
        body: list[View] = [scroll_list(*items, key="rv_expense", resource_id=_id("rv_expense"), weight=1,
                                        spacing=_LOG_SPACING)]
        if not expenses:
            body = [self._no_data()]
        return View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                    resource_id=_id("ml_expense"), background=_SURFACE, children=[
                        _app_bar("app_bar", toolbar),
                        View(kind="column", class_name="android.widget.FrameLayout", weight=1, children=body)])

    @staticmethod
    def _no_data() -> View:
        """``layout_no_expense_logs`` (its description line is INVISIBLE)."""
        return View(kind="column", class_name="android.widget.RelativeLayout", resource_id=_id("layout_no_data"),
                    padding=dp(32), children=[_image("imv_no_expense", "info", dp(50)),
                                               _text(NO_EXPENSE_LOGS, "tv_no_expense_logs")])

    def _selection_toolbar(self, enabled: bool) -> View:
        """``changeUiSelection``: "3 items" (``DecimalFormat``), a back button that clears the selection, the
        Delete item in place of Filter, no subtitle."""
        count = len(self.selected)
        title = f"{count:,} {ITEM_SUFFIX if count <= 1 else ITEMS_SUFFIX}"
        return _toolbar("tb_expense", title, _nav_button("arrow_back", self.clear_selection), "",
                        (_menu_item("delete", DELETE, "delete", enabled, self.ask_delete_selected),))

    def _row(self, expense: dict[str, Any], now: dt.datetime, made: dict[Hashable, View]) -> View:
        """A copy of the row of ``expense``, made by the last build (``made``) if it showed the same (the expense,
        its swipe state, the day and the width), else made now: a swipe, a scroll or a delete makes only the rows
        that change or come into view (as a RecyclerView rebinds only those)."""
        shown = (*expense.values(), self.states.get(expense["expense_id"]), now.date(), now.tzinfo,
                 self.phone.window.design_width)
        row_view = made.get(shown)
        if row_view is None:
            row_view = self._item(expense, now)
        self._rows[shown] = row_view
        return copied(row_view)

    def _item(self, expense: dict[str, Any], now: dt.datetime) -> View:
        """``item_expense_log``: the back layer (check mark, delete button) under the card; the card sits right
        of the check mark when selected and left of the delete button when opened."""
        expense_id = expense["expense_id"]
        state = self.states.get(expense_id)
        delete = column(_image("imv_delete_icon", "delete", on_click=lambda: self.host.confirm_delete(expense_id)),
                        _text("Delete", "tv_undo", _CAPTION, padding=0), width=dp(51), gravity="bottom_end",
                        margin=dp(8))
        back = View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("fl_back"),
                    background=_POSITIVE if state == LOCK_START else _NEGATIVE, height=_ROW_HEIGHT, children=[
                        _image("imv_check", "check", text_color=_SURFACE, margin=dp(8)), delete])
        texts, amount = _expense_texts(expense, CURRENCY_SYMBOL, now)
        content = row(_category_icon(expense["category"], _CARD_ICON), texts, amount, padding=dp(8))
        shown = View(kind="view", class_name="android.view.View", resource_id=_id("view_bg"), height=_ROW_HEIGHT,
                     clickable=True, focusable=True, long_clickable=True,
                     on_click=lambda: self.host.show_detail(expense_id, CURRENCY_SYMBOL),
                     on_long_click=lambda: self._long_pressed(expense_id))
        shift = _SELECTED_SHIFT if state == LOCK_START else _PREPARED_SHIFT if state == LOCK_END else 0
        width = self.phone.window.design_width - shift if shift else None
        card = View(kind="frame", class_name="android.widget.RelativeLayout", resource_id=_id("cd_expense"),
                    height=_ROW_HEIGHT, width=width, clickable=True, background=_SURFACE,
                    gravity="bottom_end" if state == LOCK_START else "top", children=[content, shown])
        return View(kind="frame", class_name="android.widget.FrameLayout", height=_ROW_HEIGHT,
                    on_fling=lambda direction: self._swiped(expense_id, direction), children=[back, card])

    def clear_selection(self) -> None:
        """``clearState``: every row back to idle."""
        self.states.clear()

    def _set_state(self, expense_id: int, state: int | None) -> None:
        """``LogVH.onStateChanged``: a row opened on its delete button idles every other row (the holder is
        cleared), which ends the selection."""
        if state == LOCK_END:
            self.states = {expense_id: LOCK_END}
        elif state is None:
            self.states.pop(expense_id, None)
        else:
            self.states[expense_id] = state

    def _long_pressed(self, expense_id: int) -> None:
        """``invertEndLockState``: idle ↔ opened on the delete button; a selected row stays as it is."""
        state = self.states.get(expense_id)
        if state != LOCK_START:
            self._set_state(expense_id, None if state == LOCK_END else LOCK_END)

    def _swiped(self, expense_id: int, direction: str) -> None:
        """``SwipeFrameLayout.onSwipeReleased``: from idle, a drag to the right (start to end) locks the row at the
        start — selected —, one to the left at the end — opened; a drag on a locked row returns it to idle."""
        if expense_id in self.states:
            self._set_state(expense_id, None)
        else:
            self._set_state(expense_id, LOCK_START if direction == "right" else LOCK_END)

    def ask_delete_selected(self) -> None:
        """``onDeletePrepared``: the confirmation for the selected count; Confirm deletes them all
        (``onMultiDeleteConfirmed``) and clears the selection."""
        def confirm() -> None:
            self.host.db.delete_many(self.selected)
            self.clear_selection()

        self.host.ask_delete(len(self.selected), confirm)


class ExpenseEntryFragment(_Fragment):
    """``ExpenseEntryFragment``: add an expense (``expense_id`` None) or update one."""

    scroll_keys = ("sv_entry",)
    NAME_KEY, AMOUNT_KEY, NOTE_KEY = "edt_name", "edt_amount", "edt_note"

    def __init__(self, host: MainActivity, expense_id: int | None = None) -> None:
        super().__init__(host)
        self.expense_id = expense_id
        self.locked = False
        self.error = False
        self.entry_time = self.phone.clock.now_ms()  # updateSelectedDateAsCurrentTime at ViewModel creation
        self.created = self.entry_time
        self.name = self.amount = self.note = ""
        self.category = FOOD  # setInitialDefaultCategory
        expense = self.db.get(expense_id) if expense_id is not None else None
        if expense is not None:  # ExpenseUpdateDataUiModelMapper, through the fields' input filters
            self.name, self.note = (expense["name"] or "")[:NAME_MAX], (expense["note"] or "")[:NOTE_MAX]
            amount = format_amount(expense["amount"], grouping=False)
            self.amount = amount if AMOUNT_PATTERN.fullmatch(amount) else ""
            self.category, self.entry_time, self.created = (expense["category"], expense["modified_date"],
                                                            expense["created_date"])
        self.order = (self.category, *(c for c in CATEGORY_ORDER if c != self.category))
        self._chooser = KeptTree()  # the category chooser, by the category selected (typing leaves it as it is)

    def on_enter(self) -> None:
        """The save mode focuses the name (no keyboard until the field is touched)."""
        self.host.focus_key = self.NAME_KEY if self.expense_id is None else ""
        self.host.keyboard_shown = False

    def _set_name(self, text: str) -> None:
        self.name = _filtered(self.name, text, _max_length(NAME_MAX))

    def _set_amount(self, text: str) -> None:
        self.amount = _filtered(self.amount, text, lambda value: AMOUNT_PATTERN.fullmatch(value) is not None)
        self.error = False

    def _set_note(self, text: str) -> None:
        self.note = _filtered(self.note, text, _max_length(NOTE_MAX))

    def _focus(self, key: str) -> Callable[[], None]:
        """``imeOptions="actionNext"``: ENTER moves the focus to the next field."""
        def move() -> None:
            self.host.focus_key = key
        return move

    def _select(self, category: int) -> None:
        self.category = category

    def _toggle_lock(self) -> None:
        """``invertLockMode``: when locked, saving keeps the form open for the next expense."""
        self.locked = not self.locked

    def _save(self) -> None:
        """``saveData``/``updateData``: an empty amount shows an error; an unparsable one crashes the app."""
        if not self.amount:
            self.error = True
            return
        cents = parse_amount(self.amount)
        if cents is None:  # NumberFormatException in BigDecimal(String)
            self.phone.activities.force_stop(PACKAGE)
            return
        now = self.phone.clock.now_ms()
        values = {"name": self.name, "amount": cents, "category": self.category, "note": self.note,
                  "created_date": now if self.expense_id is None else self.created,
                  "modified_date": self.entry_time}
        if self.expense_id is not None:
            self.db.update({**values, "expense_id": self.expense_id})
            self.host.show_snack(DATA_UPDATED)
            self.host.pop()
        elif self.locked:  # onNext: clean the form, focus the name, "Saved!"
            self.db.insert(values)
            self.name = self.amount = self.note = ""
            self.entry_time = now
            self.host.focus_key = self.NAME_KEY
            self.host.show_snack(SAVED)
        else:
            self.db.insert(values)
            self.host.pop()

    def _field(self, name: str, value: str, hint: str, on_text: Callable[[str], None], *inside: View,
               error: str = "", **props) -> View:
        """A ``TextInputLayout`` around its ``TextInputEditText``, outlined (the theme's ``textInputStyle``:
        ``Widget.MaterialComponents.TextInputLayout.OutlinedBox``); ``inside`` lie in the box (a suffix), an
        ``error`` below it."""
        field = edit_text(value, hint, name, on_text, resource_id=_id(name), text_size=_BODY,
                          text_color=_ON_SURFACE, **props)
        layout_id = _id(name.replace("edt_", "edl_").replace("note", "description"))
        # 16 dp margins (grid_3) inside the form's 8 dp one (grid_2): 24 dp from the sides, 16 dp between fields
        layout = outlined_field(field, *inside, resource_id=layout_id, weight=1)
        if error:
            layout.children.append(_text(error, "textinput_error", _CAPTION, _NEGATIVE))
        return side_margins(layout, dp(16), padding=dp(8))

    def _categories(self) -> View:
        """``rv_category``: one checkable card per category (``item_category``: 2 dp corners, its name 8 dp in from
        its edges), the selected one checked, 4 dp of ``MarginItemDecoration`` at either side of each; 16 dp in from
        the form's 8 dp margin at the sides. Its lines wrap (see the module docstring), measured as they are laid
        out, so a larger font makes wider cards. Built once per category selected, a copy at each build."""
        return self._chooser.get(self.category, self._built_categories)

    def _built_categories(self) -> View:
        chips = [View(kind="frame", class_name="android.widget.FrameLayout", resource_id=_id("cd_category"),
                      checkable=True, checked=category == self.category, clickable=True, focusable=True,
                      on_click=lambda category=category: self._select(category),
                      background=_CHECKED if category == self.category else _CARD, corner=dp(2),
                      children=[_text(CATEGORIES[category], "tv_name", padding=dp(8))])
                 for category in self.order]
        chooser = View(kind="flow", class_name="androidx.recyclerview.widget.RecyclerView",
                       resource_id=_id("rv_category"), padding=dp(16), spacing=dp(8), weight=1, children=chips)
        return side_margins(chooser, dp(8))

    def shown(self) -> Hashable:
        """The form's values, its mode (lock, error) and the entry's time in the phone's zone (the subtitle)."""
        zone = self.phone.clock.now(DAY_MS).tzinfo
        return self.name, self.amount, self.note, self.category, self.locked, self.error, self.entry_time, zone

    def build(self) -> View:
        update = self.expense_id is not None
        when = dt.datetime.fromtimestamp(self.entry_time / 1000, tz=self.phone.clock.now(DAY_MS).tzinfo)
        subtitle = f"{when.day} {when:%b %Y} {_clock_time(when)}"
        toolbar = _toolbar("toolbar", UPDATE_DATA if update else EXPENSE_ENTRY,
                           _nav_button("arrow_back", self.host.pop), subtitle,
                           (_menu_item("time", TIME, "time"), _menu_item("calendar", CALENDAR, "calendar")))
        # the currency suffix shows in the box's end while the label floats (updateSuffixTextVisibility)
        suffix = _text(CURRENCY_CODE, "textinput_suffix_text", _BODY, _SECONDARY, gravity="center_vertical_end",
                       padding=OUTLINED_PADDING)
        suffix.width = measure_width(suffix)
        floating = bool(self.amount) or self.host.focus_key == self.AMOUNT_KEY
        amount = self._field(self.AMOUNT_KEY, self.amount, AMOUNT, self._set_amount, *([suffix] if floating else []),
                             error=EMPTY_COST if self.error else "", on_submit=self._focus(self.NOTE_KEY))
        label = UPDATE if update else NEXT if self.locked else SAVE
        actions = [_button(label, "btn_save", self._save, weight=1)]
        if not update:  # cv_lock is GONE in update mode
            actions.append(frame(_image("imv_lock", "loop", gravity="center"), resource_id=_id("cv_lock"),
                                 width=dp(50), height=dp(50), clickable=True, focusable=True,
                                 on_click=self._toggle_lock, background=_PRIMARY if self.locked else _CARD))
        form = [self._field(self.NAME_KEY, self.name, NAME, self._set_name, on_submit=self._focus(self.AMOUNT_KEY)),
                amount, self._categories(),
                # edl_description is 100 dp tall at any font scale, its text at the top (gravity top)
                self._field(self.NOTE_KEY, self.note, NOTE, self._set_note, multiline=True, height=dp(100),
                            exact_height=True),
                row(*actions, padding=dp(16), spacing=dp(16))]
        return View(kind="column", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                    background=_SURFACE, children=[
                        _app_bar("abl_entry", toolbar),
                        _scroll_view(scroll_list(*form, key="sv_entry", resource_id=_id("sv_entry"), weight=1))])


# ----- the activity ------------------------------------------------------------------------------------------------
class MainActivity(Screen):
    """``MainActivity``: the navigation host (back stack of fragments), the add button, the drawer, bottom sheets
    and the snackbar."""

    activity = ACTIVITY

    def __init__(self, app: App, intent: Intent) -> None:
        super().__init__(app, intent)
        self.stack: list[_Fragment] = [HomeFragment(self)]
        self.drawer_open = False
        # A BottomSheetDialogFragment's content, made afresh at each build (a view is laid out in one tree only).
        self.sheet: Callable[[], View] | None = None
        self.snack: tuple[str, int] | None = None

    @property
    def db(self) -> ExpenseDatabase:
        """The app's database."""
        return self.app.db  # type: ignore[attr-defined]

    @property
    def top(self) -> _Fragment:
        """The fragment in front."""
        return self.stack[-1]

    # navigation
    def push(self, fragment: _Fragment) -> None:
        """``NavController.navigate``."""
        self.focus_key, self.keyboard_shown, self.selection = "", False, None
        self.stack.append(fragment)
        fragment.on_enter()

    def pop(self) -> None:
        """``popBackStack``: drop the top fragment (its list positions go with it); the keyboard hides."""
        if len(self.stack) > 1:
            for key in self.stack.pop().scroll_keys:
                self.scroll.pop(key, None)
        self.focus_key, self.keyboard_shown, self.selection = "", False, None

    def show_logs(self) -> None:
        """Navigate to Expense Logs (``launchSingleTop``: not again when it is in front)."""
        if not isinstance(self.top, ExpenseLogsFragment):
            self.push(ExpenseLogsFragment(self))

    def show_home(self) -> None:
        """``popBackStack(dest_home)``."""
        while len(self.stack) > 1:
            self.pop()

    def open_drawer(self) -> None:
        """``DrawerLayout.openDrawer``."""
        self.drawer_open = True

    def _select_drawer_item(self, index: int) -> None:
        """``selectPage`` once the drawer has closed: Home and Expense Logs navigate; the other pages are not
        simulated."""
        self.drawer_open = False
        if index == 0:
            self.show_home()
        elif index == 1:
            self.show_logs()

    # sheets and messages
    def show_detail(self, expense_id: int, symbol: str, on_deleted: Callable[[], None] | None = None) -> None:
        """``ExpenseDetailDialog`` for one expense: Delete asks for confirmation in its place (then runs
        ``on_deleted``), Edit opens the entry form on the expense."""
        expense = self.db.get(expense_id)
        if expense is None:
            return

        def edit() -> None:
            self.sheet = None
            self.push(ExpenseEntryFragment(self, expense_id))

        shown = self.phone.clock.now()
        self.sheet = lambda: _detail_sheet(expense, symbol, shown, self._close_sheet,
                                           lambda: self.confirm_delete(expense_id, on_deleted), edit)

    def confirm_delete(self, expense_id: int, on_deleted: Callable[[], None] | None = None) -> None:
        """``DeleteConfirmFragment`` for one item; Confirm deletes it (``deleteExpenseById``)."""
        def confirm() -> None:
            self.db.delete(expense_id)
            if on_deleted is not None:
                on_deleted()

        self.ask_delete(1, confirm)

    def ask_delete(self, total: int, on_confirm: Callable[[], None]) -> None:
        """``DeleteConfirmFragment`` for ``total`` items: Confirm runs ``on_confirm`` and dismisses the sheet."""
        def confirm() -> None:
            self.sheet = None
            on_confirm()

        self.sheet = lambda: _delete_sheet(total, self._close_sheet, confirm)

    def _close_sheet(self) -> None:
        self.sheet = None

    def show_snack(self, message: str) -> None:
        """``showSnackMessage`` for ``duration_short_snack``."""
        self.snack = (message, self.phone.clock.now_ms() + SNACK_MS)

    # Screen
    def shown(self) -> Hashable:
        """A bottom sheet alone (the function that makes it, made once per sheet shown); else the fragment in front
        and what it shows, the drawer and the snackbar's message while it shows."""
        if self.sheet is not None:
            return self.sheet
        snack = self.snack[0] if self.snack is not None and self.phone.clock.before(self.snack[1]) else None
        return self.top, self.top.shown(), self.drawer_open, snack

    def on_back(self) -> bool:
        """BACK closes a sheet, then the drawer, then pops the back stack; on Home the activity finishes."""
        if self.sheet is not None:
            self.sheet = None
        elif self.drawer_open:
            self.drawer_open = False
        elif len(self.stack) > 1:
            self.pop()
        else:
            return False
        return True

    def build(self) -> View:
        if self.sheet is not None:  # a dialog window: the active window uiautomator dumps
            outside = View(kind="view", class_name="android.view.View", resource_id=_id("touch_outside"),
                           clickable=True, focusable=True, gravity="fill", background=_SCRIM,
                           on_click=self._close_sheet)
            sheet = View(kind="column", class_name="android.widget.FrameLayout",
                         resource_id=_id("design_bottom_sheet"), gravity="bottom", background=_SURFACE,
                         children=[self.sheet()])
            return frame(outside, sheet, resource_id=_id("coordinator"))
        page = self.top.build()
        page.gravity = "fill"  # the NavHostFragment's view is match_parent
        children = [page]
        if isinstance(self.top, HomeFragment):
            children.append(View(kind="fab", class_name="android.widget.ImageButton", resource_id=_id("fb_main_add"),
                                 hint="plus", clickable=True, focusable=True, width=dp(56), height=dp(56),
                                 gravity="bottom_end", margin=dp(16), background=_PRIMARY, text_color=_SURFACE,
                                 on_click=lambda: self.push(ExpenseEntryFragment(self))))
        if self.snack is not None and self.phone.clock.before(self.snack[1]):
            children.append(View(kind="row", class_name="android.widget.FrameLayout", gravity="bottom",
                                 background=_ON_SURFACE, children=[
                                     _text(self.snack[0], "snackbar_text", color=_SURFACE, padding=dp(16))]))
        main = View(kind="frame", class_name="androidx.coordinatorlayout.widget.CoordinatorLayout",
                    resource_id=_id("cl_main"), gravity="fill", children=children)
        layers = [main] + (self._drawer() if self.drawer_open else [])
        return View(kind="frame", class_name="androidx.drawerlayout.widget.DrawerLayout", resource_id=_id("dl_main"),
                    background=_SURFACE, children=layers)

    def _drawer(self) -> list[View]:
        """The scrim (a touch closes the drawer) and ``nv_main``: header and the page list, the current page
        checked."""
        current = 1 if isinstance(self.top, ExpenseLogsFragment) else 0 if isinstance(self.top, HomeFragment) else -1
        scrim = View(kind="view", class_name="android.view.View", gravity="fill", background=_SCRIM, clickable=True,
                     on_click=self._close_drawer, modal=True)
        close = _image("btn_close", "arrow_back", class_name="android.widget.ImageButton", on_click=self._close_drawer)
        name = column(_text(APP_NAME, "tv_app_name", _TITLE),
                      _text(BETA, size=_CAPTION, color=_SURFACE, background=_WARNING, padding=dp(4)),
                      resource_id=_id("ln_app_name"), weight=1)
        header = column(row(View(weight=1), close), row(_image("imv_app_logo", "app_expense", dp(60)), name),
                        padding=dp(16))
        items = [View(kind="row", class_name="androidx.appcompat.widget.LinearLayoutCompat", resource_id=_id(name),
                      clickable=True, focusable=True, checkable=True, checked=i == current, height=dp(48),
                      background=_CHECKED if i == current else _SURFACE,
                      on_click=lambda i=i: self._select_drawer_item(i),
                      children=[_text(title, "design_menu_item_text", padding=dp(16))])
                 for i, (name, title) in enumerate(zip(DRAWER_IDS, DRAWER_ITEMS))]
        menu = View(kind="column", class_name="androidx.recyclerview.widget.RecyclerView",
                    resource_id=_id("design_navigation_view"), children=[header, *items])
        drawer = View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id("nv_main"),
                      width=dp(280), gravity="fill", background=_SURFACE, children=[menu])
        return [scrim, drawer]

    def _close_drawer(self) -> None:
        self.drawer_open = False


def _detail_sheet(expense: dict[str, Any], symbol: str, now: dt.datetime, close: Callable[[], None],
                  delete: Callable[[], None], edit: Callable[[], None]) -> View:
    """``expense_detail_dialog``: name, amount, date and note (hidden when empty), Delete and Edit."""
    def line(label: str, name: str, value: View) -> View:
        return row(_text(label, name, _BODY, _SECONDARY, width=dp(90)), value)

    info = [row(_category_icon(expense["category"], dp(55)),
                _text(expense["name"] or "", "tv_name_value", _TITLE, weight=1),
                _image("btn_delete", "delete", on_click=delete)),
            line(AMOUNT, "tv_amount", row(_text(format_amount(expense["amount"]), "tv_amount_value"),
                                          _text(symbol, "tv_currency_symbol", _CAPTION))),
            line(DATE, "tv_date", _text(format_date(expense["modified_date"], now), "tv_date_value"))]
    if expense["note"]:
        info.append(line(NOTE, "tv_note", _text(expense["note"], "tv_note_value", weight=1)))
    return column(
        row(_text(EXPENSE_DETAIL, "tv_expense_detail", _TITLE, _SECONDARY, weight=1),
            _image("btn_close", "down", on_click=close)),
        View(kind="column", class_name="android.widget.FrameLayout", resource_id=_id("cd_info"), background=_CARD,
             padding=dp(8), spacing=dp(8), children=info),
        _button(EDIT, "btn_edit", edit, height=dp(56)),
        padding=dp(16), spacing=dp(16))


def _delete_sheet(total: int, close: Callable[[], None], confirm: Callable[[], None]) -> View:
    """``frag_delete_confirm_dialog``: "item will be deleted!" (or "3 items will be deleted!") and Confirm."""
    items = f"{ITEM_SUFFIX} " if total == 1 else f"{total} {ITEMS_SUFFIX} "
    return column(
        row(_text(DELETE_ITEMS, "tv_delete_item", _TITLE, weight=1), _image("imv_drop_close", "down", on_click=close)),
        View(kind="row", class_name="android.widget.FrameLayout", resource_id=_id("cv_description_bg"),
             background=_CARD, padding=dp(32), children=[
                 View(weight=1), _text(items, "tv_items", bold=True),
                 _text(WILL_BE_DELETED, "tv_delete_description"), View(weight=1)]),
        _button(CONFIRM, "btn_confirm", confirm, background=_NEGATIVE, color=_ON_SURFACE),
        padding=dp(16), spacing=dp(16))


class ProExpense(App):
    """``com.arduia.expense``: its database exists from install (AndroidWorld's setup has opened the app)."""

    package = PACKAGE
    label = APP_NAME
    icon, icon_color = "app_expense", (2, 136, 209)
    version_name, version_code = "1.0.0-beta05", 11  # android_gym/device/apps.toml
    #: colorPrimary (the night theme's, as the screens are drawn both ways) for the toolkit's: a focused field's
    #: outline, floating label and caret; MaterialComponents' unfocused outline and label, colorOnSurface at 38 % and
    #: 60 % over the dark surface.
    day_colors = night_colors = {PRIMARY: _PRIMARY, FIELD_STROKE: over(_ON_SURFACE, 0.38, _SURFACE),
                                 FIELD_LABEL: over(_ON_SURFACE, 0.6, _SURFACE)}
    screens = (MainActivity,)

    def __init__(self, phone: Context) -> None:
        super().__init__(phone)
        self.db = ExpenseDatabase(phone)

    def on_clear(self) -> None:
        """``pm clear``: Room creates an empty database again when the app opens it."""
        self.db.ensure_db()
