"""``SharedText.contains``: the same answers as gymnasium's ``Text.contains``, from one set operation."""

from __future__ import annotations

import pytest
from gymnasium.spaces import Text

from android_gym.spaces import SharedText

CASES = ["", "a", "abc", "abcd", "abcde", "abz", "ab c", "äb", b"abc", None, 3, ["a", "b"], ("a",)]


@pytest.mark.parametrize("value", CASES, ids=repr)
def test_shared_text_contains_what_text_contains(value):
    shared, plain = (space(4, min_length=1, charset="abcd") for space in (SharedText, Text))
    assert shared.contains(value) == plain.contains(value)


def test_shared_text_refuses_a_character_outside_its_set_and_a_string_too_long():
    space = SharedText(4, min_length=0, charset="ab")
    assert space.contains("abba") and space.contains("")
    assert not space.contains("abc") and not space.contains("ababa")
