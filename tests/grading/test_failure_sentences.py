"""The sentences a failed queue comparison gives: counts read in the singular for one."""

from __future__ import annotations

import pytest

from grader.grading.checks import Mismatch, expect_cards


@pytest.mark.parametrize(
    ("actual", "expected", "detail"),
    [
        (["K"], ["K", "2"], "it holds 1 card where 2 were expected"),
        ([], ["K"], "it holds 0 cards where 1 was expected"),
        (["K", "2", "3"], ["K", "2"], "it holds 3 cards where 2 were expected"),
    ],
)
def test_a_queue_of_the_wrong_length_is_counted_in_good_english(actual, expected, detail):
    """expect_cards says "1 card" and "1 was expected", never "1 cards" or "1 were"."""
    with pytest.raises(Mismatch) as raised:
        expect_cards(actual, expected, "P1's queue")
    assert raised.value.sentence == f"P1's queue is wrong: {detail}"
