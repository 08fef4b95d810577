"""Exhaustion during war: a player who cannot place 3 down + 1 up loses the war and the game at once; the
other takes both piles and every card left in the short player's queue; both short is a draw, each pile
going back to its owner (ASSIGNMENT.md, resolve_war step 2).

Each test checks who wins, that every card reaches the winner and that the short player is left with none
(the game ends): the order the cards are collected in is a rule of Forced war, charged there. A short player
holds high cards, so a war fought with the cards it has would be won by it: the tests tell "the short player
loses at once" from "the short player fights with what it has"."""

from __future__ import annotations

import pytest

from grader.grading.suites.rounds import check_war_outcome

pytestmark = pytest.mark.category("exhaustion")

SHORT_LOSES = ("A player with fewer than face_down + 1 cards (4 by default) at a war cycle loses: the other "
               "takes both piles and every card left in its queue")
ENOUGH = "A player with at least face_down + 1 cards (4 by default) fights the war cycle"
BOTH_SHORT = "Both players short at a war cycle: the war is a draw and each player takes back its own pile"


@pytest.mark.weight(2)
@pytest.mark.rule(SHORT_LOSES)
def test_p1_short_at_the_first_cycle_loses(student):
    """resolve_war: P1 with 3 cards (Q, K, K) cannot go to war; P2 wins and takes everything"""
    check_war_outcome(student, ["Q", "K", "K"], ["5", "6", "7", "8", "9"], "J", "J", "when P1 has only 3 cards")


@pytest.mark.weight(2)
@pytest.mark.rule(SHORT_LOSES)
def test_p2_short_at_the_first_cycle_loses(student):
    """resolve_war: P2 with 2 cards (K, K) cannot go to war; P1 wins and takes everything"""
    check_war_outcome(student, ["5", "6", "7", "8", "9"], ["K", "K"], "Q", "Q", "when P2 has only 2 cards")


@pytest.mark.rule(SHORT_LOSES)
def test_a_player_with_no_card_left_loses(student):
    """resolve_war: a player whose tied card was its last loses the war at once"""
    check_war_outcome(student, [], ["5", "6", "7", "8"], "3", "3", "when P1 has no card left")


@pytest.mark.rule(ENOUGH)
def test_a_player_with_exactly_4_cards_fights(student):
    """resolve_war: with exactly 4 cards a player is not short: the war is fought and decided by the face-up cards"""
    check_war_outcome(student, ["2", "3", "4", "K"], ["5", "6", "7", "8", "1"], "9", "9",
                      "when P1 has exactly 4 cards")


@pytest.mark.weight(2)
@pytest.mark.rule(SHORT_LOSES)
def test_short_after_a_repeat(student):
    """resolve_war: a player who runs short at the second cycle (holding only a K) loses; the other takes both piles"""
    check_war_outcome(student, ["2", "3", "4", "9", "K"], ["5", "6", "7", "9", "2", "3", "4", "5", "6"], "8", "8",
                      "when P1 runs short after a tie")


@pytest.mark.weight(2)
@pytest.mark.rule(BOTH_SHORT)
def test_both_short_is_a_draw(student):
    """resolve_war: both players short returns "draw" and each player gets its own pile back"""
    check_war_outcome(student, ["2", "3"], ["5"], "K", "K", "when both players are short")


@pytest.mark.rule(BOTH_SHORT)
def test_both_short_after_a_repeat_is_a_draw(student):
    """resolve_war: both players short after a tie is a draw; each takes back its own pile of 5"""
    check_war_outcome(student, ["2", "3", "4", "9", "5"], ["6", "8", "10", "9", "J"], "7", "7",
                      "when both run short after a tie")


@pytest.mark.rule(SHORT_LOSES)
def test_short_with_two_face_down_cards(student):
    """resolve_war with Rules(face_down=2): a player needs 3 cards, and 2 (K, Q) are not enough"""
    check_war_outcome(student, ["K", "Q"], ["5", "6", "7", "8"], "6", "6", "with face_down=2 when P1 has 2 cards",
                      rules={"face_down": 2})
