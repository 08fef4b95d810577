"""Forced war: on a tie each player pushes 3 face-down and 1 face-up card onto its own Stack war pile; the
higher face-up card wins and its player collects its own pile first, then the opponent's; a tie again
repeats with the same piles (handout Part C; the collection variant and 2 down + 1 up come from its
extensions and reflection, as Rules(collect=...) and Rules(face_down=...) in ASSIGNMENT.md)."""

from __future__ import annotations

import pytest

from grader.checks import expect, expect_cards
from grader.suites.common import check_war

pytestmark = pytest.mark.category("forced_war")


@pytest.mark.weight(2)
def test_p1_wins_a_war_and_collects_its_own_pile_first(student):
    """resolve_war: 3 down + 1 up; P1's higher face-up card wins; P1's pile, then P2's, go to P1's back"""
    check_war(student, ["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7", "after P1's K wins the war")


@pytest.mark.weight(2)
def test_p2_wins_a_war_and_collects_its_own_pile_first(student):
    """resolve_war: P2's higher face-up card wins; P2's pile, then P1's, go to P2's back"""
    check_war(student, ["J", "Q", "K", "2", "1"], ["3", "4", "5", "Jo", "10"], "9", "9",
              "after P2's Jo wins the war")


@pytest.mark.weight(2)
def test_piles_come_off_top_first(student):
    """resolve_war: each pile is popped from the top: face-up card first, the tied card last"""
    got = check_war(student, ["1", "2", "3", "Q"], ["4", "5", "6", "7"], "10", "10", "after P1's Q wins")
    expect(got.p1[:1] == ["Q"], "the first card collected should be P1's face-up Q (the top of P1's pile)")


@pytest.mark.weight(2)
def test_each_player_has_its_own_stack_war_pile(student):
    """resolve_war: two Stack war piles, one per player: tied card, then its 3 down and 1 up cards"""
    got = student.resolve_war(["2", "3", "4", "K"], ["5", "6", "7", "8"], "J", "J")
    piles = [pile for pile in (got.stacks or []) if pile]
    expect(len(piles) >= 2, f"resolve_war should push the cards onto your Stack war piles, one per player, but "
           f"{len(piles)} Stack{'s' if len(piles) != 1 else ''} received cards")
    expect_cards(piles[0][:5], ["J", "2", "3", "4", "K"], "the cards pushed onto P1's war pile")
    expect_cards(piles[1][:5], ["J", "5", "6", "7", "8"], "the cards pushed onto P2's war pile")


@pytest.mark.weight(2)
def test_a_tie_again_repeats_the_war_with_the_same_piles(student):
    """resolve_war: equal face-up cards start another cycle on the same piles; the winner takes all 18"""
    check_war(student, ["2", "3", "4", "9", "1", "1", "1", "K", "5"], ["5", "6", "7", "9", "2", "2", "2", "Q", "6"],
              "8", "8", "after a repeated war won by P1's K")


def test_three_wars_in_a_row(student):
    """resolve_war: a war that ties twice more is still settled by the third face-up pair"""
    p1 = ["1", "1", "1", "4", "2", "2", "2", "5", "3", "3", "3", "2", "7"]
    p2 = ["6", "6", "6", "4", "7", "7", "7", "5", "8", "8", "8", "Jo", "9"]
    check_war(student, p1, p2, "K", "K", "after three cycles won by P2's Jo")


@pytest.mark.weight(2)
def test_collecting_the_opponents_pile_first(student):
    """resolve_war with Rules(collect="loser_first"): the winner collects the opponent's pile first"""
    check_war(student, ["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7",
              "with collect=\"loser_first\" after P1's K wins", rules={"collect": "loser_first"})


@pytest.mark.weight(2)
def test_two_face_down_cards(student):
    """resolve_war with Rules(face_down=2): 2 down + 1 up per player"""
    check_war(student, ["2", "3", "K", "6", "1"], ["5", "6", "7", "8", "9"], "7", "7",
              "with face_down=2 after P1's K wins", rules={"face_down": 2})


def test_two_face_down_cards_with_a_repeat(student):
    """resolve_war with Rules(face_down=2): a tie repeats with 2 more down and 1 up"""
    check_war(student, ["2", "3", "9", "1", "1", "2"], ["5", "6", "9", "2", "2", "Q"], "4", "4",
              "with face_down=2 after a repeated war won by P2's Q", rules={"face_down": 2})
