"""The RL view's reading of long notes and its composed texts: a note's records ranked by the goal
(``rl_records``), a joined table's cells, dates and times read for an answer (``rl_dates``), and the sum and the
product of collected numbers (``rl_screen.composed_pieces``) with the ids that type them."""

from __future__ import annotations

import datetime as dt

import android_gym
from android_gym.actions import Action, ActionType
from android_gym.agents import OracleAgent
from android_gym.wrappers import make_rl_env
from android_gym.wrappers.rl_dates import date_time_answer, read_date, read_time
from android_gym.wrappers.rl_records import next_row_start, ranked_records, record_spans
from android_gym.wrappers.rl_screen import asks_computation, composed_pieces
from android_gym.wrappers.rl_texts import screen_pieces

#: A CSV note as the dump shows it: its lines joined with spaces.
TABLE = ("name|amount_dollars|category_name|note Groceries|$74.85|Food|Remember to transfer funds Tuition Fees|"
         "$143.8|Education|I may repeat this Theater Show|$160.83|Entertainment|Paid by card. Reimbursable. "
         "Dress|$438.83|Clothes|Urgent")
BLOCKS = ("Recipe: Lentil Soup preparationTime: 1 hrs directions: Simmer. "
          "Recipe: Caprese Salad Skewers preparationTime: 3 hrs directions: Thread. "
          "Recipe: Vegetarian Chili preparationTime: 30 mins directions: Add the beans to the pot.")


def spans_of(text):
    return [text[start:end] for start, end in record_spans(text)]


def test_a_joined_table_has_a_record_per_row():
    assert spans_of(TABLE) == [
        "Groceries|$74.85|Food|Remember to transfer funds ",
        "Tuition Fees|$143.8|Education|I may repeat this ",
        "Theater Show|$160.83|Entertainment|Paid by card. Reimbursable. ",
        "Dress|$438.83|Clothes|Urgent"]
    assert next_row_start("I may repeat this Theater Show") == len("I may repeat this ")
    assert next_row_start("for extra flavor. Raspberry Almond Smoothie") == len("for extra flavor. ")


def test_blocks_opening_with_the_same_key_are_records():
    assert spans_of(BLOCKS) == [
        "Recipe: Lentil Soup preparationTime: 1 hrs directions: Simmer. ",
        "Recipe: Caprese Salad Skewers preparationTime: 3 hrs directions: Thread. ",
        "Recipe: Vegetarian Chili preparationTime: 30 mins directions: Add the beans to the pot."]
    assert spans_of("Recipe: Lentil Soup servings: 2") == [] and spans_of("Just a note, nothing listed.") == []
    assert spans_of("name|value") == spans_of("name|value|x 1|2") == []  # a header, one row: no list


def test_records_are_ranked_by_their_most_telling_goal_phrase():
    """The goal's longest rare phrase picks its rows first; a row holding only single words of the goal ("add",
    "the") comes after, one holding a word most rows hold ("hrs") last."""
    goal = "Add the recipes from recipes.txt in Markor that take 3 hrs to prepare into the Broccoli recipe app."
    assert [BLOCKS[start:end].split(" preparationTime")[0] for start, end in ranked_records(BLOCKS, goal)] == \
        ["Recipe: Caprese Salad Skewers", "Recipe: Vegetarian Chili", "Recipe: Lentil Soup"]
    goal = "Go through the transactions in my_expenses.txt in Markor. Log the reimbursable transactions."
    assert [TABLE[start:end].split("|")[0] for start, end in ranked_records(TABLE, goal)] == ["Theater Show"]


def test_a_long_note_gives_the_rows_the_goal_describes_first():
    rows = [f"Item {number}|${number}.50|Food|Paid by card" for number in range(200)]
    rows[150] = "Theater Show|$160.83|Entertainment|Paid by card. Reimbursable."
    note = " ".join(["name|amount_dollars|category_name|note", *rows])
    texts = [piece.text for piece in screen_pieces([note], goal="Log the reimbursable transactions.")]
    assert {"Theater Show", "$160.83", "160.83", "Entertainment"} <= set(texts[:8])
    assert texts.index("Theater Show") < texts.index("Item 0")
    assert "Theater Show" not in [piece.text for piece in screen_pieces([note])][:96]  # unranked: past the slots


def test_dates_and_times_are_read_as_an_answer_writes_them():
    assert read_date("October 24 (Tue)", 2023) == dt.date(2023, 10, 24)
    assert read_date("15 Oct 2023 3:34 PM", 2020) == dt.date(2023, 10, 15)
    assert read_date("I may repeat this", 2023) is None and read_date("February 30", 2023) is None
    # the phone's other system languages, as Simple Calendar shows them in German and French
    assert [read_date(text, 2023) for text in ("Oktober 24 (Di.)", "Octobre 23 (lun.)", "3 févr.", "24. Okt. 2022")] \
        == [dt.date(2023, 10, 24), dt.date(2023, 10, 23), dt.date(2023, 2, 3), dt.date(2022, 10, 24)]
    assert [read_time(text) for text in ("20:00 - 20:30", "8:00 PM", "12:15am", "1:30:00", "2023")] == \
        [dt.time(20, 0), dt.time(20, 0), dt.time(0, 15), None, None]
    assert date_time_answer(["20:00 - 20:30", "October 24 (Tue)"], 2023) == "October 24 2023 20:00"
    assert date_time_answer(["October 24 (Tue)"], 2023) is None


def test_the_sum_and_product_of_collected_numbers_are_texts():
    assert [(piece.text, piece.source) for piece in composed_pieces(["6", "10", "3", "5", "9"])] == \
        [("33", "composed"), ("8100", "composed")]
    assert composed_pieces(["2", "2"]) == composed_pieces(["2", "2"])[:1]  # 4 and 4: one text
    assert composed_pieces(["6"]) == [] and composed_pieces(["6", "Pharmacy"]) == []
    assert asks_computation("enter their product in the form") and not asks_computation("Send a message")


def test_typing_a_product_collects_its_factors_then_types_it():
    """BrowserMultiply: five numbers, one repeated, shown one at a time; the product is typed into the form."""
    env = make_rl_env(android_gym.env_id("BrowserMultiply"))
    actions = env.env
    try:
        observation, info = env.reset(seed=1)  # the page shows 7, 8, 4, 10 and 8
        agent = OracleAgent()
        agent.reset(env)
        action = Action.parse(agent.act(observation, info))
        while action.action_type is not ActionType.INPUT_TEXT:
            number, rest = actions.encode_next(action, info["ui_elements"])
            observation, _, _, _, info = env.step(number)
            action = Action.parse(rest[0] if rest else agent.act(observation, info))
        assert action.text == "17920"
        number, rest = actions.encode_next(action, info["ui_elements"])
        assert actions.layout.locate(number)[0] == "tap"  # the form's field first
        *_, info = env.step(number)
        ids = actions.encode(rest[0], info["ui_elements"])  # then, on the screen that does not change any more:
        assert [actions.layout.locate(number)[0] for number in ids] == [*["collect"] * 5, "type"]
        for number in ids[:-1]:
            *_, info = env.step(number)
            assert info["invalid_action"] is None
        assert sorted(actions.rl_screen.collected, key=int) == ["4", "7", "8", "8", "10"]  # 8 twice
        assert [(piece.text, piece.source) for piece in actions.rl_screen.texts[-2:]] == \
            [("37", "composed"), ("17920", "composed")]  # the sum and the product, last
        *_, info = env.step(ids[-1])
        assert info["invalid_action"] is None
        assert [field.text for field in info["ui_elements"] if field.is_editable][-1] == "17920"
    finally:
        env.close()


def test_a_date_and_a_time_collected_answer_when_a_meeting_is():
    """SimpleCalendarNextMeetingWithPerson: the day's header "October 24 (Tue)" and the event's "20:00 - 20:30"
    answer "October 24 2023 20:00", the year being the phone's."""
    env = make_rl_env(android_gym.env_id("SimpleCalendarNextMeetingWithPerson"))
    actions = env.env
    try:
        observation, info = env.reset(seed=0)
        agent = OracleAgent()
        agent.reset(env)
        action = Action.parse(agent.act(observation, info))
        while action.action_type is not ActionType.ANSWER:
            observation, _, _, _, info = env.step(actions.encode(action, info["ui_elements"])[0])
            action = Action.parse(agent.act(observation, info))
        assert action.text == "October 24 2023 20:00"
        answer = actions.layout["answer_date_time"][0]
        ids = actions.encode(action, info["ui_elements"])
        assert ids[-1] == answer and [actions.describe(number) for number in ids[:-1]] == \
            ["collect 'October 24 (Tue)'", "collect '20:00 - 20:30'"]
        for number in ids[:-1]:
            assert not info["action_mask"][answer]  # no date and time collected yet
            *_, info = env.step(number)
        assert info["action_mask"][answer]
        *_, terminated, _, info = env.step(answer)
        assert terminated and info["score"] == 1.0 and env.unwrapped.task.answer == "October 24 2023 20:00"
    finally:
        env.close()
