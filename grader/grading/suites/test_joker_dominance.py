"""Joker dominance: the Joker, "Jo", beats every rank, and Jo against Jo is a tie (ASSIGNMENT.md, "The cards").

Each test checks only who wins and that both cards reach the winner: the order in which the winner puts
them back is a rule of Normal rounds, charged there."""

from __future__ import annotations

import pytest

from grader.grading import expected, reproduction, variants
from grader.grading.checks import Mismatch, expect, expect_cards, expect_value
from grader.grading.harness import RECORDER, RoundOutcome
from grader.grading.suites.diagnosis import any_order, diagnose, name_jokerless, name_values
from grader.grading.suites.repairs import with_structures
from grader.sandbox.channel import StudentRaised
from reference import JOKER, RANKS

pytestmark = pytest.mark.category("joker_dominance")

JOKER_BEATS = "The Joker, \"Jo\", beats every rank: 1 < 2 < ... < 10 < J < Q < K < Jo"

CARD_VALUE_TEST = "test_joker_dominance.py::test_card_value_puts_the_joker_above_every_rank"
"""The test that names the card order card_value's answers are (its `plays`)."""


@pytest.mark.rule(JOKER_BEATS)
def test_card_value_puts_the_joker_above_every_rank(student):
    """card_value: card_value("Jo") is a whole number greater than card_value of every rank"""
    steps = student.card_values([*RANKS, JOKER])
    try:
        for card, step in zip([*RANKS, JOKER], steps):
            expect("value" in step, f"card_value({card!r}) raised {step.get('raised', {}).get('type')}")
            expect(type(step["value"]) is int,
                   f"card_value({card!r}) should be a whole number (int), not {step['value']!r}")
        joker = steps[-1]["value"]
        for card, step in zip(RANKS, steps):
            expect(joker > step["value"], f"card_value(\"Jo\") should be greater than card_value({card!r}), but "
                   f"they are {joker} and {step['value']}")
    except Mismatch as failure:
        raise name_values(failure, [*RANKS, JOKER], steps) from None


def _joker_round(student, p1: list[str], p2: list[str], label: str) -> None:
    """play_round on both sides: the same winner, and both played cards at the back of the winner's queue."""
    want = expected.play_round(p1, p2)
    winner = 0 if want.result == "P1" else 1
    lines = reproduction.round_call(p1, p2, result=want.result, after=(want.p1, want.p2))
    seen: list[RoundOutcome] = []

    def check(trusted: bool) -> RoundOutcome:
        got = student.play_round(p1, p2, trusted=trusted)
        if not trusted:
            seen.append(got)
        try:
            expect_value(got.result, want.result, f"play_round with {label}")
            mine, theirs = (got.p1, want.p1) if winner == 0 else (got.p2, want.p2)
            who = ("P1", "P2")[winner]
            expect_cards(mine[:-2], theirs[:-2], f"{who}'s queue before the two cards it won")
            expect(sorted(map(str, mine[-2:])) == sorted(theirs[-2:]) and len(mine) == len(theirs),
                   f"{who} should put both played cards ({theirs[-2]!r} and {theirs[-1]!r}, in either order) at the "
                   f"back of its queue, but its queue ends with {mine[-2:]!r}")
            loser_got, loser_want = (got.p2, want.p2) if winner == 0 else (got.p1, want.p1)
            expect_cards(loser_got, loser_want, f"{('P2', 'P1')[winner]}'s queue after losing to the Joker")
        except Mismatch as failure:
            failure.reproduction = lines
            raise
        return got
    try:
        with_structures(check)
    except StudentRaised as failure:
        raise name_jokerless(student, failure) from None
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        raise diagnose(failure, seen[0], _joker_candidates(p1, p2), any_order) from None


def _joker_candidates(p1: list[str], p2: list[str]) -> list[tuple[variants.Variant, RoundOutcome]]:
    """The Joker's variants with their answers on this round; the one card_value's own answers were found to be
    (by this category's card_value test, which runs first) comes first, since a Joker that loses to Q and K is
    ordered as text or read as a Jack alike, and only the tie with J tells them apart. None when that test found
    card_value wrong in some other way (a Joker below every rank loses to Q and K too, and is neither)."""
    entry = next((entry for test_id, entry in RECORDER.tests.items()
                  if test_id.rsplit("/", 1)[-1] == CARD_VALUE_TEST), {})
    named = entry.get("plays") or []
    jokers = {variants.JOKER_AS_TEXT.key, variants.JOKER_AS_JACK.key}
    if entry.get("outcome") in ("failed", "error") and not jokers & set(named):
        return []
    order = sorted((variants.JOKER_AS_TEXT, variants.JOKER_AS_JACK), key=lambda variant: variant.key not in named)
    return [(variant, variants.round_outcome(p1, p2, **variant.options)) for variant in order]


@pytest.mark.weight(2)
@pytest.mark.rule(JOKER_BEATS)
@pytest.mark.parametrize("rank", RANKS)
def test_joker_as_p1_beats_every_rank(student, rank):
    """play_round: P1's Joker beats P2's rank, and P1 collects both cards"""
    _joker_round(student, [JOKER, "5"], [rank, "6"], f"Jo (P1) against {rank} (P2)")


@pytest.mark.weight(2)
@pytest.mark.rule(JOKER_BEATS)
@pytest.mark.parametrize("rank", RANKS)
def test_joker_as_p2_beats_every_rank(student, rank):
    """play_round: P2's Joker beats P1's rank, and P2 collects both cards"""
    _joker_round(student, [rank, "6"], [JOKER, "5"], f"{rank} (P1) against Jo (P2)")


@pytest.mark.weight(3)
@pytest.mark.rule("Two cards of the same rank are equal, Jokers included: Jo against Jo starts a war")
def test_joker_against_joker_is_a_war(student):
    """play_round: Jo against Jo is a tie: ("war", "Jo", "Jo") with nothing enqueued"""
    lines = reproduction.round_call([JOKER, "3"], [JOKER, "9"], result=("war", JOKER, JOKER), after=(["3"], ["9"]))

    def check(trusted: bool) -> None:
        got = student.play_round([JOKER, "3"], [JOKER, "9"], trusted=trusted)
        try:
            expect_value(got.result, ("war", JOKER, JOKER), "play_round with Jo against Jo")
            expect_cards(got.p1, ["3"], "P1's queue after the tie")
            expect_cards(got.p2, ["9"], "P2's queue after the tie")
        except Mismatch as failure:
            failure.reproduction = lines
            raise
    try:
        with_structures(check)
    except StudentRaised as failure:
        raise name_jokerless(student, failure) from None
