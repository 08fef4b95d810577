"""Exhaustion during war: a player who cannot place 3 down + 1 up loses at once; the other collects the
piles (its own first) and, as ASSIGNMENT.md decides, the short player's remaining cards; both short is a
draw with each pile returned to its owner (handout Part C step 1)."""

from __future__ import annotations

import pytest

from grader.suites.common import check_war

pytestmark = pytest.mark.category("exhaustion")


@pytest.mark.weight(2)
def test_p1_short_at_the_first_cycle_loses(student):
    """resolve_war: P1 with 3 cards cannot go to war; P2 wins and takes everything"""
    check_war(student, ["2", "3", "4"], ["5", "6", "7", "8", "9"], "J", "J", "when P1 has only 3 cards")


@pytest.mark.weight(2)
def test_p2_short_at_the_first_cycle_loses(student):
    """resolve_war: P2 with 2 cards cannot go to war; P1 wins and takes everything"""
    check_war(student, ["5", "6", "7", "8", "9"], ["2", "3"], "Q", "Q", "when P2 has only 2 cards")


def test_a_player_with_no_card_left_loses(student):
    """resolve_war: a player whose tied card was its last loses the war at once"""
    check_war(student, [], ["5", "6", "7", "8"], "3", "3", "when P1 has no card left")


def test_exactly_four_cards_is_enough(student):
    """resolve_war: 4 cards are enough for 3 down + 1 up, so the war is fought"""
    check_war(student, ["2", "3", "4", "K"], ["5", "6", "7", "8", "1"], "9", "9", "when P1 has exactly 4 cards")


@pytest.mark.weight(2)
def test_short_after_a_repeat(student):
    """resolve_war: a player who runs short at the second cycle loses; the other takes both piles"""
    check_war(student, ["2", "3", "4", "9", "1"], ["5", "6", "7", "9", "2", "3", "4", "5", "6"], "8", "8",
              "when P1 runs short after a tie")


@pytest.mark.weight(2)
def test_both_short_is_a_draw(student):
    """resolve_war: both players short returns "draw" and each pile goes back to its owner"""
    check_war(student, ["2", "3"], ["5"], "K", "K", "when both players are short")


def test_short_with_two_face_down_cards(student):
    """resolve_war with Rules(face_down=2): a player needs 3 cards, and 2 are not enough"""
    check_war(student, ["2", "3"], ["5", "6", "7", "8"], "6", "6", "with face_down=2 when P1 has 2 cards",
              rules={"face_down": 2})
