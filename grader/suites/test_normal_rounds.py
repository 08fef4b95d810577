"""Normal rounds: the higher card wins and the winner enqueues its own card, then the loser's, at the back
(handout Part B); an empty queue at the start means the other player has won."""

from __future__ import annotations

import pytest

from grader.checks import expect_cards, expect_value
from grader.suites.common import check_round

pytestmark = pytest.mark.category("normal_rounds")


@pytest.mark.weight(2)
def test_p1_wins_and_puts_its_own_card_first(student):
    """play_round: P1's higher card wins; P1 enqueues its own card, then P2's"""
    check_round(student, ["9", "2", "4"], ["3", "K"], "after P1's 9 beats P2's 3")


@pytest.mark.weight(2)
def test_p2_wins_and_puts_its_own_card_first(student):
    """play_round: P2's higher card wins; P2 enqueues its own card, then P1's"""
    check_round(student, ["4", "Q"], ["J", "1", "8"], "after P2's J beats P1's 4")


def test_court_cards_and_ten_order(student):
    """play_round: 10 < J < Q < K decides rounds between high cards"""
    check_round(student, ["10", "7"], ["J", "7"], "after 10 (P1) meets J (P2)")
    check_round(student, ["K", "7"], ["Q", "7"], "after K (P1) meets Q (P2)")


def test_ten_beats_a_lower_number_by_value_not_by_text(student):
    """play_round: "10" beats "9" and "2" (ranks compare by value, not alphabetically)"""
    check_round(student, ["10"], ["9"], "after 10 (P1) meets 9 (P2)")
    check_round(student, ["2"], ["10"], "after 2 (P1) meets 10 (P2)")


@pytest.mark.weight(2)
def test_tie_returns_war_with_both_cards(student):
    """play_round: equal cards return ("war", c1, c2) and enqueue nothing"""
    got = student.play_round(["8", "2"], ["8", "Q"])
    expect_value(got.result, ("war", "8", "8"), "play_round's result when both play 8")
    expect_cards(got.p1, ["2"], "P1's queue after the tie")
    expect_cards(got.p2, ["Q"], "P2's queue after the tie")


def test_empty_p1_means_p2_won(student):
    """play_round: with P1's queue empty it returns "P2" and takes nothing from P2"""
    check_round(student, [], ["5", "6"], "when P1's queue is empty")


def test_empty_p2_means_p1_won(student):
    """play_round: with P2's queue empty it returns "P1" and takes nothing from P1"""
    check_round(student, ["5", "6"], [], "when P2's queue is empty")


def test_both_empty_is_a_draw(student):
    """play_round: with both queues empty it returns "draw\""""
    check_round(student, [], [], "when both queues are empty")
