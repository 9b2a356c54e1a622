"""Loading declarative task specs: malformed specs fail with file, line and reason; good ones register tasks
whose goals, rows, noise and answers follow the spec."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import android_gym
from android_gym.envs.specs import SPEC_TASKS, spec_files
from android_gym.errors import SpecError
from android_gym.tasks.spec_loader import load_specs, parse_specs

GOOD = '''
tasks {
  name: "ExpenseTestTotal"
  prompt: "How much did I spend on {category}?"
  complexity: 1
  params { name: "category" values: ["Food", "Clothes"] }
  params { name: "amount" count: 2 values: ["1.5", "2", "10"] }
  state {
    expenses { name: "Lunch" amount: "{amount[0]}" category: "{category}" }
    expenses { name: "Dinner" amount: "{amount[1]}" category: "{category}" }
  }
  noise { count: 30 exclude { field: "category" op: EQUAL_TO value: "{category}" } }
  expectations { transform { op: SUM field: "amount" } match: NUMBER tolerance: 0.01 }
}
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "specs.textproto"
    path.write_text(text)
    return path


def test_every_shipped_spec_is_registered():
    names = {task.name for task in SPEC_TASKS}
    assert len(spec_files()) >= 4 and len(names) >= 25
    for name in ("SimpleCalendarEventsOnDate", "SimpleCalendarNextMeetingWithPerson", "TasksDueNextWeek",
                 "TasksIncompleteTasksOnDate", "ExpenseTotalForCategory", "RecipesWithIngredient"):
        assert name in names and android_gym.env_id(name) in gym.registry


def test_a_good_spec_becomes_a_task(tmp_path):
    (task_class,) = load_specs([write(tmp_path, GOOD)])
    params = task_class.generate_params(np.random.default_rng(3))
    task = task_class(params)
    assert task.goal == f"How much did I spend on {params['category']}?"
    rows = task.initial_rows()
    assert len(rows) == 32
    relevant = [row for row in rows if row["category"] == task_class.kind.to_row(
        task.relevant_records()[0])["category"]]
    assert len(relevant) == 2, "noise never shares the asked category"
    items, match = task.expected()
    assert match == "NUMBER" and items == [pytest.approx(sum(float(a) for a in params["amount"]))]
    task.answer = f"{items[0]:.2f}"
    assert task.is_successful(device=None) == 1.0
    task.answer = f"{items[0] + 1:.2f}"
    assert task.is_successful(device=None) == 0.0


def test_same_seed_same_rows_different_seed_different_noise(tmp_path):
    (task_class,) = load_specs([write(tmp_path, GOOD.replace("ExpenseTestTotal", "ExpenseTestTotal2"))])
    first = task_class(task_class.generate_params(np.random.default_rng(1))).initial_rows()
    again = task_class(task_class.generate_params(np.random.default_rng(1))).initial_rows()
    other = task_class(task_class.generate_params(np.random.default_rng(2))).initial_rows()
    assert first == again and first != other


NESTED = '''
tasks {
  name: "NotesTestNested"
  prompt: "How much {item} is in '{title}'?"
  complexity: 1
  params { name: "title" values: ["Soup"] }
  params { name: "item" values: ["salt"] }
  params { name: "amount" values: ["1 teaspoon"] }
  params { name: "body" values: ["- {amount} {item}\\n- 2 cups water {{not a placeholder}}"] }
  state { notes { title: "{title}" body: "{body}" folder: "Recipes" is_todo: "False" } }
  noise { count: 5 exclude { field: "is_todo" op: EQUAL_TO value: "true" } }
  expectations { value: "{amount}" match: STRING }
}
'''


def test_values_may_hold_placeholders_and_notes_read_truth_values(tmp_path):
    (task_class,) = load_specs([write(tmp_path, NESTED)])
    task = task_class(task_class.generate_params(np.random.default_rng(0)))
    (record,) = task.relevant_records()
    assert record["body"] == "- 1 teaspoon salt\n- 2 cups water {not a placeholder}"
    assert record["is_todo"] is False
    assert all(row["is_todo"] == 0 for row in task.noise_rows())


def test_reworded_dates_stay_absolute_in_the_rows():
    task_class = android_gym.get_task("SimpleCalendarEventsOnDate")
    seen = set()
    for seed in range(30):
        task = task_class(task_class.generate_params(np.random.default_rng(seed)))
        said = task.params["wording"]["date"]
        assert said in task.goal and task.params["date"][-4:] == "2023"
        seen.add(said.split()[0])
        start = dt.datetime.fromtimestamp(task.kind.to_row(task.relevant_records()[0])["start_ts"], dt.timezone.utc)
        assert f"{start:%B} {start.day} {start.year}" == task.params["date"]
    assert {"today", "tomorrow", "this"} & seen and "October" in seen


@pytest.mark.parametrize("change, line, reason", [
    (('name: "ExpenseTestTotal"', 'name: "Bad name"'), 3, "needs a name"),
    (("complexity: 1", "complexity: 0"), 3, "complexity > 0"),
    (("{category}?", "{categry}?"), 4, "{categry} names no parameter"),
    (('amount: "{amount[1]}"', 'amount: "{amount[2]}"'), 10, "parameter 'amount' has 2 value(s)"),
    (('"{category}" }\n  }', '"{category}" }\n    recipes { title: "x" }\n  }'), 8, "exactly one app"),
    (('field: "category"', 'field: "colour"'), 12, "exclusion field 'colour'"),
    (("op: SUM field: \"amount\"", "op: SUM field: \"name\""), 13, "SUM needs a number field"),
    (("match: NUMBER", "match: DATE"), 13, "SUM gives a number: match it as NUMBER, not DATE"),
    (("match: NUMBER tolerance: 0.01 }", "match: NUMBER }\n  expectations { value: \"1\" match: STRING }"), 13,
     "needs one expectation, or a DATE and a TIME"),
    (('values: ["1.5", "2", "10"]', 'values: ["1.5", "two", "10"]'), 7, "value 'two' (used as a number)"),
    (('count: 2 values', 'count: 4 values'), 7, "draws 4 distinct values from 3"),
    (('field: "category" op: EQUAL_TO value: "{category}"', 'field: "amount" op: GREATER_THAN value: "-1"'), 3,
     "no noise record escapes the exclusion conditions"),
])
def test_malformed_specs_name_file_line_and_reason(tmp_path, change, line, reason):
    text = GOOD.replace(*change)
    assert text != GOOD
    path = write(tmp_path, text)
    with pytest.raises(SpecError) as error:
        load_specs([path])
    assert str(error.value).startswith(f"{path}:{line}: ")
    assert reason in str(error.value)


def test_syntax_errors_carry_the_line(tmp_path):
    path = write(tmp_path, GOOD.replace("prompt:", "promt:"))
    with pytest.raises(SpecError, match=rf'^{path}:4: .*has no field named "promt"'):
        parse_specs(path)


def test_a_name_defined_twice_fails(tmp_path):
    path = write(tmp_path, GOOD + GOOD)
    with pytest.raises(SpecError, match=r":2?\d: ExpenseTestTotal: defined twice"):
        load_specs([path])

