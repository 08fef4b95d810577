"""Normal rounds: cards compare by rank, 1 (the Ace, lowest) < 2 < ... < 10 < J < Q < K, never as text; the
higher card wins and the winner enqueues its own card, then the loser's, at the back (ASSIGNMENT.md, "The
cards" and "Round"); an empty queue at the start means the other player has won."""

from __future__ import annotations

import pytest

from grader.grading.checks import Mismatch, expect, expect_value
from grader.grading.suites.diagnosis import name_values
from grader.grading.suites.rounds import check_round
from reference import RANKS

pytestmark = pytest.mark.category("normal_rounds")

RANK_ORDER = "Ranks, weakest first: 1 2 3 4 5 6 7 8 9 10 J Q K; cards compare by rank, never as strings"
OWN_CARD_FIRST = "The winner of a round puts its own card first, then the opponent's card, at the back of its queue"


@pytest.mark.rule(RANK_ORDER)
def test_card_value_orders_the_ranks(student):
    """card_value: 1 < 2 < ... < 10 < J < Q < K, as whole numbers"""
    steps = student.card_values(list(RANKS))
    got = []
    try:
        for card, step in zip(RANKS, steps):
            expect("value" in step, f"card_value({card!r}) raised {step.get('raised', {}).get('type')}")
            expect(type(step["value"]) is int,
                   f"card_value({card!r}) should be a whole number (int), not {step['value']!r}")
            got.append(step["value"])
        for (low, low_value), (high, high_value) in zip(zip(RANKS, got), zip(RANKS[1:], got[1:])):
            expect(low_value < high_value, f"card_value({high!r}) should be greater than card_value({low!r}), "
                   f"but they are {high_value} and {low_value}")
    except Mismatch as failure:
        raise name_values(failure, list(RANKS), steps) from None


@pytest.mark.weight(3)
@pytest.mark.rule(RANK_ORDER)
def test_each_rank_beats_the_one_below(student):
    """play_round: of every two neighbouring ranks the higher wins, whichever player holds it, and takes both cards"""
    for low, high in zip(RANKS, RANKS[1:]):
        check_round(student, [high, "7"], [low, "7"], f"after {high} (P1) meets {low} (P2)", order=False)
        check_round(student, [low, "7"], [high, "7"], f"after {low} (P1) meets {high} (P2)", order=False)


@pytest.mark.weight(2)
@pytest.mark.rule(RANK_ORDER)
def test_the_ace_is_the_lowest_rank(student):
    """play_round: the Ace, "1", loses to every other rank"""
    for rank in RANKS[1:]:
        check_round(student, ["1", "4"], [rank, "4"], f"after 1 (P1) meets {rank} (P2)", order=False)


@pytest.mark.rule(RANK_ORDER)
def test_ten_beats_a_lower_number_by_value_not_by_text(student):
    """play_round: "10" beats "9" and "2" (ranks compare by value, not alphabetically)"""
    check_round(student, ["10"], ["9"], "after 10 (P1) meets 9 (P2)", order=False)
    check_round(student, ["2"], ["10"], "after 2 (P1) meets 10 (P2)", order=False)


@pytest.mark.weight(3)
@pytest.mark.rule(OWN_CARD_FIRST)
def test_p1_wins_and_puts_its_own_card_first(student):
    """play_round: P1's higher card wins; P1 enqueues its own card, then P2's"""
    check_round(student, ["9", "2", "4"], ["3", "K"], "after P1's 9 beats P2's 3")


@pytest.mark.weight(3)
@pytest.mark.rule(OWN_CARD_FIRST)
def test_p2_wins_and_puts_its_own_card_first(student):
    """play_round: P2's higher card wins; P2 enqueues its own card, then P1's"""
    check_round(student, ["4", "Q"], ["J", "1", "8"], "after P2's J beats P1's 4")


@pytest.mark.weight(2)
@pytest.mark.rule("Equal cards start a war: play_round enqueues nothing and returns (\"war\", c1, c2)")
def test_tie_returns_war_with_both_cards(student):
    """play_round: equal cards return ("war", c1, c2) and enqueue nothing"""
    got = check_round(student, ["8", "2"], ["8", "Q"], "when both play 8")
    expect_value(got.result, ("war", "8", "8"), "play_round's result when both play 8")


EMPTY = "play_round: an empty queue means the other player has won (both empty: \"draw\"), and no card moves"


@pytest.mark.rule(EMPTY)
def test_empty_p1_means_p2_won(student):
    """play_round: with P1's queue empty it returns "P2" and takes nothing from P2"""
    check_round(student, [], ["5", "6"], "when P1's queue is empty")


@pytest.mark.rule(EMPTY)
def test_empty_p2_means_p1_won(student):
    """play_round: with P2's queue empty it returns "P1" and takes nothing from P1"""
    check_round(student, ["5", "6"], [], "when P2's queue is empty")


@pytest.mark.rule(EMPTY)
def test_both_empty_is_a_draw(student):
    """play_round: with both queues empty it returns "draw\""""
    check_round(student, [], [], "when both queues are empty")
