"""Forced war: on a tie each player pushes its tied card, then 3 face-down and 1 face-up card onto its own
Stack war pile; the higher face-up card wins and its player collects its own pile first, then the
opponent's, each popped top first; a tie again repeats on the same piles (ASSIGNMENT.md, "War" and
resolve_war; Rules(face_down=...) and Rules(collect=...)).

Every war here is decided by ordinary ranks (no Joker, no Ace against a higher rank, no 10 against a lower
number), and every player holds at least one card more than every cycle needs, so an availability check off by
one never decides a war here: rank order and the availability check are charged in their own categories (a
program short with exactly face_down + 1 cards is Exhaustion's, never told it plays another number face down)."""

from __future__ import annotations

import pytest

from grader.grading import reproduction
from grader.grading.checks import Mismatch, expect, expect_cards
from grader.grading.suites.diagnosis import diagnose, exactly, war_candidates
from grader.grading.suites.repairs import with_structures
from grader.grading.suites.rounds import check_war

pytestmark = pytest.mark.category("forced_war")

OWN_PILE_FIRST = ("The winner of a war collects its own pile first, then the opponent's, popping each pile "
                  "until it is empty (top card first)")
FACE_DOWN = "In every war cycle each player places 3 cards face down, then 1 face up (Rules(face_down=...) cards down)"
SAME_PILES = "Equal face-up cards start another war cycle on top of the same two piles"


@pytest.mark.weight(2)
@pytest.mark.rule(OWN_PILE_FIRST)
def test_p1_wins_a_war_and_collects_its_own_pile_first(student):
    """resolve_war: 3 down + 1 up; P1's higher face-up card wins; P1's pile, then P2's, go to P1's back"""
    check_war(student, ["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7", "after P1's K wins the war")


@pytest.mark.weight(2)
@pytest.mark.rule(OWN_PILE_FIRST)
def test_p2_wins_a_war_and_collects_its_own_pile_first(student):
    """resolve_war: P2's higher face-up card wins; P2's pile, then P1's, go to P2's back"""
    check_war(student, ["J", "Q", "K", "2", "1"], ["3", "4", "5", "Q", "10"], "9", "9",
              "after P2's Q wins the war")


@pytest.mark.weight(2)
@pytest.mark.rule(OWN_PILE_FIRST)
def test_piles_come_off_top_first(student):
    """resolve_war: each pile is popped from the top: face-up card first, the tied card last"""
    got = check_war(student, ["1", "2", "3", "Q", "8"], ["4", "5", "6", "7", "9"], "10", "10", "after P1's Q wins")
    expect(got.p1[1:2] == ["Q"], "the first card collected should be P1's face-up Q (the top of P1's pile), "
           "right after the 8 P1 still held")


@pytest.mark.weight(2)
@pytest.mark.rule(FACE_DOWN)
def test_each_player_pushes_its_tied_card_then_3_down_and_1_up(student):
    """resolve_war: two Stack war piles, one per player: tied card, then its 3 down and 1 up cards"""
    p1, p2 = ["2", "3", "4", "K", "9"], ["5", "6", "7", "8", "10"]
    lines = reproduction.war_call(p1, p2, "J", "J", result="P1")

    seen = []

    def check(trusted: bool) -> None:
        got = student.resolve_war(p1, p2, "J", "J", trusted=trusted)
        if not trusted:
            seen.append(got)
        piles = [pile for pile in (got.stacks or []) if pile]
        try:
            expect(len(piles) >= 2, f"resolve_war should push the cards onto your Stack war piles, one per player, "
                   f"but {len(piles)} Stack{'s' if len(piles) != 1 else ''} received cards")
            expect_cards(piles[0], ["J", "2", "3", "4", "K"], "the cards pushed onto P1's war pile")
            expect_cards(piles[1], ["J", "5", "6", "7", "8"], "the cards pushed onto P2's war pile")
        except Mismatch as failure:
            failure.reproduction = lines
            raise
    try:
        with_structures(check)
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        raise diagnose(failure, seen[0], war_candidates(p1, p2, "J", "J", None), exactly) from None


@pytest.mark.weight(2)
@pytest.mark.rule(SAME_PILES)
def test_a_tie_again_repeats_the_war_with_the_same_piles(student):
    """resolve_war: equal face-up cards start another cycle on the same piles; the winner takes all 18"""
    check_war(student, ["2", "3", "4", "9", "1", "1", "1", "K", "5"], ["5", "6", "7", "9", "2", "2", "2", "Q", "6"],
              "8", "8", "after a repeated war won by P1's K")


@pytest.mark.rule(SAME_PILES)
def test_three_wars_in_a_row(student):
    """resolve_war: a war that ties twice more is still settled by the third face-up pair"""
    p1 = ["1", "1", "1", "4", "2", "2", "2", "5", "3", "3", "3", "2", "7"]
    p2 = ["6", "6", "6", "4", "7", "7", "7", "5", "8", "8", "8", "K", "9"]
    check_war(student, p1, p2, "K", "K", "after three cycles won by P2's K")


@pytest.mark.weight(2)
@pytest.mark.rule("Rules(collect=\"loser_first\"): the winner of a war collects the opponent's pile first, then its own")
def test_collecting_the_opponents_pile_first(student):
    """resolve_war with Rules(collect="loser_first"): the winner collects the opponent's pile first"""
    check_war(student, ["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7",
              "with collect=\"loser_first\" after P1's K wins", rules={"collect": "loser_first"})


@pytest.mark.weight(2)
@pytest.mark.rule(FACE_DOWN)
def test_two_face_down_cards(student):
    """resolve_war with Rules(face_down=2): 2 down + 1 up per player"""
    check_war(student, ["2", "3", "K", "6", "1"], ["5", "6", "7", "8", "9"], "7", "7",
              "with face_down=2 after P1's K wins", rules={"face_down": 2})


@pytest.mark.rule(FACE_DOWN)
def test_two_face_down_cards_with_a_repeat(student):
    """resolve_war with Rules(face_down=2): a tie repeats with 2 more down and 1 up"""
    check_war(student, ["2", "3", "9", "1", "1", "2", "4"], ["5", "6", "9", "2", "2", "Q", "3"], "4", "4",
              "with face_down=2 after a repeated war won by P2's Q", rules={"face_down": 2})
