"""Joker dominance: ranks order 1 < 2 < ... < 10 < J < Q < K < Jo, and the Joker beats every rank
(handout Part A and Part B: "Jo > K > Q > J > 10 > ... > 1"; a tie, Jo against Jo included, is a war)."""

from __future__ import annotations

import pytest

from grader import expected
from grader.checks import expect, expect_cards, expect_value
from reference import JOKER, RANKS

pytestmark = pytest.mark.category("joker_dominance")

ORDER = [*RANKS, JOKER]


def test_card_value_orders_every_rank(student):
    """card_value: 1 < 2 < ... < 10 < J < Q < K < Jo, as whole numbers"""
    steps = student.card_values(ORDER)
    got = []
    for card, step in zip(ORDER, steps):
        expect("value" in step, f"card_value({card!r}) raised {step.get('raised', {}).get('type')}")
        expect(type(step["value"]) is int, f"card_value({card!r}) should be a whole number (int), "
               f"not {step['value']!r}")
        got.append(step["value"])
    for (low, low_value), (high, high_value) in zip(zip(ORDER, got), zip(ORDER[1:], got[1:])):
        expect(low_value < high_value, f"card_value({high!r}) should be greater than card_value({low!r}), "
               f"but they are {high_value} and {low_value}")


@pytest.mark.weight(2)
@pytest.mark.parametrize("rank", RANKS)
def test_joker_as_p1_beats_every_rank(student, rank):
    """play_round: P1's Joker beats P2's rank, and P1 collects both cards"""
    got = student.play_round([JOKER, "5"], [rank, "6"])
    want = expected.play_round([JOKER, "5"], [rank, "6"])
    expect_value(got.result, want.result, f"play_round with Jo (P1) against {rank} (P2)")
    expect_cards(got.p1, want.p1, f"P1's queue after Jo beats {rank}")


@pytest.mark.weight(2)
@pytest.mark.parametrize("rank", RANKS)
def test_joker_as_p2_beats_every_rank(student, rank):
    """play_round: P2's Joker beats P1's rank, and P2 collects both cards"""
    got = student.play_round([rank, "6"], [JOKER, "5"])
    want = expected.play_round([rank, "6"], [JOKER, "5"])
    expect_value(got.result, want.result, f"play_round with {rank} (P1) against Jo (P2)")
    expect_cards(got.p2, want.p2, f"P2's queue after Jo beats {rank}")


@pytest.mark.weight(3)
def test_joker_against_joker_is_a_war(student):
    """play_round: Jo against Jo is a tie: ("war", "Jo", "Jo") with nothing enqueued"""
    got = student.play_round([JOKER, "3"], [JOKER, "9"])
    expect_value(got.result, ("war", JOKER, JOKER), "play_round with Jo against Jo")
    expect_cards(got.p1, ["3"], "P1's queue after the tie")
    expect_cards(got.p2, ["9"], "P2's queue after the tie")
