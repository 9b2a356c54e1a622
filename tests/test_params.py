"""Seeded parameter generators and validators."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.tasks import draws, params
from android_gym.tasks.validators import fuzzy_match, same_number


def test_generators_are_deterministic_and_varied():
    draws = []
    for _ in range(2):
        rng = np.random.default_rng(42)
        draws.append([(params.phone_number(rng), params.person_name(rng), params.message(rng)) for _ in range(20)])
    assert draws[0] == draws[1]
    numbers = {number for number, _, _ in draws[0]}
    assert len(numbers) == 20 and all(n.startswith("+1") and len(n) == 12 and n[1:].isdigit() for n in numbers)
    assert len({name for _, name, _ in draws[0]}) > 10
    assert all(len(name.split()) == 2 for _, name, _ in draws[0])


def test_message_excludes():
    rng = np.random.default_rng(0)
    excluded = params.MESSAGES[:-1]
    assert all(params.message(rng, exclude=excluded) == params.MESSAGES[-1] for _ in range(5))


def test_fuzzy_match_like_androidworld():
    assert fuzzy_match("Call me when you land.", "call me when you land")
    assert fuzzy_match("  See you at the gym at 6. ", "See you at the gym at 6.")
    assert not fuzzy_match("See you at the gym at 6.", "See you at the pool at 9.")


def test_same_number_as_androidworld():
    assert same_number("+1 415-555-0123", "+14155550123")
    assert same_number("+14155550123", "+14155550123")
    assert not same_number("4155550123", "+14155550123")  # AndroidWorld compares the whole number
    assert not same_number("+14155550123", "+14155550124")
    assert not same_number("", "")


def test_exact_draws_draw_what_scalar_calls_draw_and_leave_the_generator_where_they_would():
    # Ranges small and large: 2**31 + 1 rejects about half its 32-bit outputs; a range of 1 draws none.
    bounds = [(0, 2), (1, 16), (0, 24), (1000, 50001), (0, 1), (5, 6), (0, 2**31 + 1), (-3, 2**32 - 3), (0, 7)] * 60
    for seed in range(20):
        scalar, blocked = np.random.default_rng(seed), np.random.default_rng(seed)
        expected = [int(scalar.integers(low, high)) for low, high in bounds]
        with draws.exact_draws(blocked) as exact:
            drawn = [exact.integers(low, high) for low, high in bounds]
        assert drawn == expected
        assert blocked.bit_generator.state == scalar.bit_generator.state
        assert blocked.random() == scalar.random()


def test_exact_draws_refuse_ranges_numpy_draws_otherwise():
    with draws.exact_draws(np.random.default_rng(0)) as exact:
        assert exact.integers(4) in range(4)
        with pytest.raises(ValueError):
            exact.integers(0, 2**32 + 1)
