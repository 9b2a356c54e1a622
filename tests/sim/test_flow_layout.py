"""The flow layout (``kind="flow"``, a ChipGroup's ``FlowLayout``): children as wide as they measure when laid out,
wrapping onto a new line when the line is full; and the chips that use it, Pro Expense's category cards and Tasks'
row chips, at font scales 1 and 1.3."""

from __future__ import annotations

import re

import pytest
from ui_nodes import nodes, tap

from android_gym.sim.apps import expense, tasks
from android_gym.sim.framework.looks import scale_text
from android_gym.sim.phone import Phone
from android_gym.sim.ui.layout import layout, line_height, measure_height, measure_width, text_width
from android_gym.sim.ui.views import View, text_view


def chips(*names: str) -> View:
    return View(kind="flow", padding=10, spacing=8, children=[text_view(name, padding=12) for name in names])


def test_children_are_as_wide_as_their_text_and_wrap_when_a_line_is_full() -> None:
    flow = chips("Food", "Income", "Entertainment", "Transportation", "Clothes")
    layout(flow, 0, 0, 500, measure_height(flow, 500))
    widths = [child.bounds[2] - child.bounds[0] for child in flow.children]
    assert widths == [int(text_width(child.text, 42)) + 24 for child in flow.children]
    tops = [child.bounds[1] for child in flow.children]
    lefts = [child.bounds[0] for child in flow.children]
    line = line_height(42) + 24
    # Food, Income on the first line; Entertainment alone (Transportation would overflow); then the rest
    assert tops == [10, 10, 10 + line + 8, 10 + 2 * (line + 8), 10 + 2 * (line + 8)]
    assert lefts[0] == lefts[2] == lefts[3] == 10 and lefts[1] == 10 + widths[0] + 8
    assert flow.children[-1].bounds[2] <= 490  # inside the padding
    assert flow.bounds[3] == 10 + 3 * line + 2 * 8 + 10  # three lines and the padding


def test_a_larger_font_scale_makes_wider_children_never_a_word_broken() -> None:
    flow = chips("Food", "Income", "Housing", "Social", "Entertainment")
    scale_text(flow, 1.3)
    layout(flow, 0, 0, 500, measure_height(flow, 500))
    for child in flow.children:
        assert child.bounds[3] - child.bounds[1] == line_height(55) + 24  # one line each


def test_a_child_wider_than_the_line_gets_the_line() -> None:
    flow = chips("A rather long category name that cannot fit", "Food")
    layout(flow, 0, 0, 300, measure_height(flow, 300))
    first, second = flow.children
    assert first.bounds[:3] == (10, 10, 290) and second.bounds[1] == first.bounds[3] + 8


def bounds(node) -> tuple[int, ...]:
    return tuple(map(int, re.findall(r"-?\d+", node.get("bounds"))))


@pytest.mark.parametrize("scale", ["1.0", "1.3"])
def test_pro_expenses_category_cards_fit_their_names_at_any_font_scale(scale: str) -> None:
    """item_category: a wrap_content MaterialCardView around its name (8 dp margins): at font scale 1.3 each card is
    wider, its name on one line; the list (rv_category) is 8 dp in from the screen's sides (the form's margin) and its
    cards 16 dp further in (its padding), lines wrapping at its end."""
    phone = Phone()
    phone.run(f"settings put system font_scale {scale}")
    phone.run(f"monkey -p {expense.PACKAGE} -c android.intent.category.LAUNCHER 1")
    tap(phone, resource_id=f"{expense.PACKAGE}:id/fb_main_add")
    dump = nodes(phone)
    (chooser,) = [node for node in dump if node.get("resource-id") == f"{expense.PACKAGE}:id/rv_category"]
    x1, _, x2, _ = bounds(chooser)
    assert (x1, x2) == (21, 1080 - 21)
    cards = list(chooser)
    assert [card[0].get("text") for card in cards] == [expense.CATEGORIES[c] for c in (3, 2, *range(4, 12), 1)]
    size = round(42 * float(scale))
    for card in cards:
        (name,) = card
        cx1, cy1, cx2, cy2 = bounds(card)
        assert cx1 >= x1 + 42 and cx2 <= x2 - 42
        assert cx2 - cx1 == int(text_width(name.get("text"), size)) + 2 * 21
        assert bounds(name)[3] - bounds(name)[1] == line_height(size) + 2 * 21  # one line
    lefts = {bounds(card)[0] for card in cards}
    assert min(lefts) == x1 + 42 and len([card for card in cards if bounds(card)[0] == x1 + 42]) >= 3  # lines wrap


def test_tasks_row_chips_lie_in_a_flow_row_4_dp_apart() -> None:
    """Tasks' ``org.tasks.compose.ChipGroup`` (a FlowRow, ``mainAxisSpacing`` 4 dp) under a hidden task of the
    default list: its start-date chip, then its list's."""
    phone = Phone()
    app = phone.packages.get(tasks.PACKAGE)
    now = phone.clock.now_ms()
    (default_list,) = [found["cdl_uuid"] for found in app.db.lists() if found["cdl_name"] == "Default list"]
    app.db.create_task({"title": "Water the plants", "created": now, "hideUntil": now + 5 * 86_400_000},
                       default_list, now)
    phone.run(f"monkey -p {tasks.PACKAGE} -c android.intent.category.LAUNCHER 1")
    (group,) = [node for node in nodes(phone) if node.get("resource-id") == f"{tasks.PACKAGE}:id/chip_group"]
    (_, top, end, _), (start, top_after, _, _) = (bounds(chip) for chip in group)
    assert group[1].get("text") == "Default list" and start - end == 10 and top == top_after


def test_a_flows_natural_width_is_its_children_on_one_line() -> None:
    flow = chips("Food", "Income")
    assert measure_width(flow) == 2 * 10 + int(text_width("Food", 42)) + 24 + 8 + int(text_width("Income", 42)) + 24
