"""The spec value language: dates, times, durations, rewording, conditions and answer checking."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from android_gym.tasks.spec_values import (
    answer_matches,
    format_answer,
    parse_bool,
    parse_date,
    parse_duration,
    parse_time,
    reword_date,
    reworded_dates,
    satisfies,
)

SUNDAY = dt.date(2023, 10, 15)


@pytest.mark.parametrize("text, expected", [("October 16 2023", dt.date(2023, 10, 16)),
                                            ("October 5, 2023", dt.date(2023, 10, 5)),
                                            ("  november 1 2023 ", dt.date(2023, 11, 1))])
def test_dates(text, expected):
    assert parse_date(text) == expected


@pytest.mark.parametrize("text", ["16 October 2023", "October 32 2023", "tomorrow", ""])
def test_bad_dates(text):
    with pytest.raises(ValueError):
        parse_date(text)


@pytest.mark.parametrize("text, expected", [("14:40", dt.time(14, 40)), ("2:40pm", dt.time(14, 40)),
                                            ("2pm", dt.time(14)), ("12am", dt.time(0)), ("12pm", dt.time(12)),
                                            ("11:30 AM", dt.time(11, 30)), ("23:59", dt.time(23, 59))])
def test_times(text, expected):
    assert parse_time(text) == expected


@pytest.mark.parametrize("text", ["25:00", "2.30pm", "noon", "13pm"])
def test_bad_times(text):
    with pytest.raises(ValueError):
        parse_time(text)


@pytest.mark.parametrize("text, minutes", [("30 m", 30), ("45min", 45), ("60 minutes", 60), ("1 h", 60),
                                           ("2 hours", 120), ("1.5 hours", 90), ("2.5h", 150), ("1 hour", 60)])
def test_durations(text, minutes):
    assert parse_duration(text) == dt.timedelta(minutes=minutes)


def test_bad_duration():
    with pytest.raises(ValueError, match="not a duration"):
        parse_duration("a while")


def test_rewording_relative_to_the_device_date():
    assert set(reworded_dates(SUNDAY, SUNDAY)) == {"October 15", "October 15 2023", "today"}
    assert "tomorrow" in reworded_dates(dt.date(2023, 10, 16), SUNDAY)
    assert "this Friday" in reworded_dates(dt.date(2023, 10, 20), SUNDAY)
    assert "the Friday after next" in reworded_dates(dt.date(2023, 10, 27), SUNDAY)
    assert "yesterday" in reworded_dates(dt.date(2023, 10, 14), SUNDAY)
    far = reworded_dates(dt.date(2023, 12, 1), SUNDAY)
    assert far == ["December 1", "December 1 2023"]
    words = {reword_date("October 20 2023", SUNDAY, np.random.default_rng(seed)) for seed in range(40)}
    assert words == {"October 20", "October 20 2023", "Friday", "this Friday"}


def test_truth_values():
    assert [parse_bool(text) for text in ("True", "false", " 1", "NO")] == [True, False, True, False]
    with pytest.raises(ValueError):
        parse_bool("maybe")


def test_conditions():
    assert satisfies(dt.date(2023, 10, 16), "LESS_THAN_OR_EQUAL_TO", dt.date(2023, 10, 22))
    assert not satisfies(dt.time(9), "GREATER_THAN", dt.time(9))
    assert satisfies("Drinks with Bob", "CONTAINS", "bob")
    assert satisfies(None, "EQUAL_TO", None) and not satisfies(None, "LESS_THAN", dt.date(2023, 1, 1))
    assert not satisfies(dt.date(2023, 1, 1), "EQUAL_TO", None)


def test_string_answers_match_fuzzily_in_any_order_one_to_one():
    expected = ["Team lunch", "Board meeting"]
    assert answer_matches("board meeting, Team lunch", expected, "STRING")
    assert answer_matches("Team lunch., Board meetings", expected, "STRING")
    assert not answer_matches("Team lunch", expected, "STRING")
    assert not answer_matches("Team lunch, Team lunch", expected, "STRING")
    assert not answer_matches("Team lunch, Board meeting, Concert", expected, "STRING")
    assert answer_matches("Team lunch, Team lunch", ["Team lunch", "Team lunch"], "STRING")


def test_number_date_time_answers():
    assert answer_matches("12.5", [12.5], "NUMBER") and answer_matches("$12.50", [12.5], "NUMBER")
    assert not answer_matches("12.6", [12.5], "NUMBER")
    assert answer_matches("12.6", [12.5], "NUMBER", tolerance=0.1)
    assert not answer_matches("twelve", [12], "NUMBER")
    assert answer_matches("October 16 2023", [dt.date(2023, 10, 16)], "DATE")
    assert answer_matches("14:40", [dt.time(14, 40)], "TIME")
    when = dt.datetime(2023, 10, 20, 9, 5)
    assert answer_matches("October 20 2023 09:05", [when], "DATETIME")
    assert not answer_matches("October 20 2023", [when], "DATETIME")


@pytest.mark.parametrize("items, match", [([3], "NUMBER"), ([12.25, 7.0], "NUMBER"), (["A", "B"], "STRING"),
                                          ([dt.date(2023, 10, 1)], "DATE"), ([dt.time(7, 5)], "TIME"),
                                          ([dt.datetime(2023, 10, 20, 19, 30)], "DATETIME")])
def test_the_formatted_answer_matches(items, match):
    assert answer_matches(format_answer(items, match), items, match)
