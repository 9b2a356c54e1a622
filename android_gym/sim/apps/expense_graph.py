"""Pro Expense's weekly graph (``week-expense-graph``'s ``SpendGraph``, fed by the app's ``ExpenseRateCalculatorImpl``
and ``ExpenseGraphAdapter``), read from github.com/arduia/ProExpense at tag ``v1.0.0-beta05``.

The calculator turns the week's outcome (every expense but Income) into a rate per day of the week (1 = Sunday):
the day's total as a whole percentage of the largest day's. The view paints, above its day names, a point for each
day that has a rate (``rate / 110`` of the line canvas's height up from its bottom) and a line through them in day
order, and a dashed vertical from the bottom to the highest point. Its label of that point's rate is never drawn
(the view's room check needs the label to start three text sizes right of its canvas). All in ``?colorPrimary``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

import numpy as np
from PIL import Image, ImageDraw

from android_gym.sim.framework.display import dp

Color = tuple[int, int, int]

SIDE_PADDING, DAY_NAME_HEIGHT = dp(16), dp(30)  # initConfig's graphPadding (left, right) and dayNameHeight
_STROKE, _POINT_RADIUS = dp(1), 1.5 * dp(1)  # the line's and points' paints' strokeWidth; pointCircleRadius
_DASH_STEP = 5  # drawHighestVertical's step (px): a dash where the position mod 3 goes from 1 to 2
_DAYS = range(1, 8)


def day_rates(outcome: Iterable[tuple[int, int]], tz: dt.tzinfo | None) -> dict[int, int]:
    """``ExpenseRateCalculatorImpl``: ``{day of week (1 = Sunday): rate}`` from ``(modified_date ms, amount × 100)``
    pairs, each day's total as a whole percentage (truncated) of the largest day's; days without expenses are
    absent. Amounts and totals are ``Float`` as the app's (``getActual().toFloat()``); the division is in double."""
    totals: dict[int, np.float32] = {}
    for ms, stored in outcome:
        day = dt.datetime.fromtimestamp(ms / 1000, tz=tz).isoweekday() % 7 + 1  # Calendar.DAY_OF_WEEK
        totals[day] = np.float32(stored / 100) + totals.get(day, np.float32(0))
    top = float(max(totals.values(), default=0))
    return {day: int(float(total) / top * 100) if top else 0 for day, total in totals.items()}  # NaN.toInt() is 0


def spend_graph(rates: dict[int, int], width: int, height: int, color: Color) -> Image.Image:
    """What ``SpendGraph.drawPointLines`` paints on a ``width`` x ``height`` view (px), on a clear picture: the points,
    the line through them and the dashed vertical of the highest (the first of the highest rates; none without
    rates)."""
    picture = Image.new("RGBA", (width, height))
    draw = ImageDraw.Draw(picture)
    left, bottom = SIDE_PADDING, height - DAY_NAME_HEIGHT
    segment = (width - 2 * SIDE_PADDING) / len(_DAYS)

    def x_of(day: int) -> float:  # getDayPositionX, left to right
        return left + day * segment - segment / 2

    def y_of(rate: int) -> float:  # getCalculatedRate: rate / 110 of the line canvas (rates are 0 to 100)
        return bottom - rate / 110 * bottom

    points = [(x_of(day), y_of(rates[day])) for day in _DAYS if day in rates]
    radius = _POINT_RADIUS + _STROKE / 2  # Paint.Style.FILL_AND_STROKE
    for x, y in points:
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=color)
    if len(points) > 1:
        draw.line(points, fill=color, width=_STROKE, joint="curve")
    if rates:
        highest = max(_DAYS, key=lambda day: rates.get(day, -1))
        x, top = x_of(highest), y_of(rates[highest])
        end = int(top)
        for position in range(int(bottom), end - 1, -_DASH_STEP):
            if position % 3 == 1 and position - _DASH_STEP >= end:  # moveTo here, lineTo at the next position
                draw.line(((x, position), (x, position - _DASH_STEP)), fill=color, width=_STROKE)
    return picture
