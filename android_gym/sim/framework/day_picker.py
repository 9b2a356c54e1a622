"""``DayPickerView``: the framework's pager of months behind a Material ``CalendarView`` and ``DatePickerDialog``'s
calendar mode (AOSP ``frameworks/base/core/java/android/widget/DayPickerView.java``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from android_gym.sim.framework.display import dp
from android_gym.sim.ui.views import LAYOUT_ONLY, TEXT, WHITE, Color, View, image_button

#: Its previous and next buttons' descriptions (``core/res`` ``date_picker_prev_month_button``, ``…_next_…``).
PREVIOUS_MONTH, NEXT_MONTH = "Previous month", "Next month"
#: The days it offers when the app sets no ``minDate``/``maxDate``: ``DEFAULT_START_YEAR`` (1900) from January 1
#: to ``DEFAULT_END_YEAR`` (2100) to December 31, as ``DatePickerCalendarDelegate``'s defaults.
MIN_DATE, MAX_DATE = dt.date(1900, 1, 1), dt.date(2100, 12, 31)
#: ``SimpleMonthView``'s selected day: a circle of ``date_picker_day_selector_radius`` (20 dp) round its number.
SELECTOR_RADIUS = dp(20)


def shown_month(day: dt.date) -> dt.date:
    """The first day of the month the pager shows for ``day``: its own, or the first or last month it has
    (``getPositionFromDay`` constrains the page)."""
    return min(max(day, MIN_DATE), MAX_DATE).replace(day=1)


def turned(month: dt.date, pages: int) -> dt.date:
    """The month shown ``pages`` pages (months) on from ``month``'s, within the range: a button at the first or
    last page does nothing."""
    index = month.year * 12 + month.month - 1 + pages
    return shown_month(dt.date(index // 12, index % 12 + 1, 1))


def has_page(month: dt.date, pages: int) -> bool:
    """Whether a month lies ``pages`` (-1 or 1) on from ``month``'s within the range: else the previous or next
    button is ``INVISIBLE`` (``updateButtonVisibility``: its room kept, not in the dump)."""
    return turned(month, pages) != shown_month(month)


def month_button(shown: dt.date, pages: int, turn: Callable[[], None], height: int = 132) -> View:
    """Its previous (``pages`` -1) or next (1) button (``android:id/prev``, ``next``) under ``shown``'s month, which
    calls ``turn``; ``INVISIBLE`` (room kept, not in the dump) at the ends of the range."""
    if not has_page(shown, pages):
        return View(width=132, height=height)
    desc, icon, name = (PREVIOUS_MONTH, "chevron_left", "prev") if pages < 0 else (NEXT_MONTH, "chevron_right", "next")
    return image_button(desc, icon, turn, resource_id=f"android:id/{name}", text_color=TEXT, height=height)


def day_cell(number: int, chosen: bool, selector: Color, ink: Color, text_size: int, **node) -> View:
    """One day of ``SimpleMonthView``: its virtual node (``node``'s properties, its text the day's number) over the
    number the month view paints centred in its cell (``drawDays``), in ``ink``, or when ``chosen`` in white on a
    circle of the ``selector`` colour (``drawCircle`` with ``mDaySelectorRadius``); the circle is no node."""
    number_view = View(kind="label", hint=str(number), text_size=text_size, text_color=WHITE if chosen else ink,
                       gravity="center", height=2 * SELECTOR_RADIUS, padding=0)
    disc = View(kind="frame", class_name=LAYOUT_ONLY, width=2 * SELECTOR_RADIUS, height=2 * SELECTOR_RADIUS,
                gravity="center", background=selector if chosen else None, corner=SELECTOR_RADIUS,
                children=[number_view])
    return View(kind="frame", class_name="android.view.View", text=str(number), children=[disc], **node)
