"""Naming the rule a wrong answer plays: the rule variants of the reference whose answer is exactly the
student's, and the Forced-war test that charges each war variant."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from grader.grading import variants
from grader.grading.checks import show
from grader.grading.harness import RECORDER, RoundOutcome, Student
from grader.sandbox.channel import StudentProblem, StudentRaised

FACE_DOWN_TEST = "test_forced_war.py::test_each_player_pushes_its_tied_card_then_3_down_and_1_up"
"""The forced-war test that charges a wrong number of face-down cards."""

SAME_PILES_TEST = "test_forced_war.py::test_a_tie_again_repeats_the_war_with_the_same_piles"
"""The forced-war test that charges a war that drops its earlier cycles' piles."""

WAR_VARIANT_TESTS = {"face_down": FACE_DOWN_TEST, "face_down_offset": FACE_DOWN_TEST, "from_back": FACE_DOWN_TEST,
                     "new_piles": SAME_PILES_TEST}
"""The Forced-war test that charges each war variant an exhaustion failure or a whole game's failure may follow
from."""


def seen_in_forced_war(key: str) -> str | None:
    """The Forced-war test that charges the war variant `key` when that test failed and the same variant reproduced
    its failure exactly (the student's resolve_war was seen playing it there); None otherwise, and for a variant
    that no Forced-war test charges."""
    test = WAR_VARIANT_TESTS.get(key.split("=")[0])
    entry = next((entry for test_id, entry in RECORDER.tests.items()
                  if test and test_id.rsplit("/", 1)[-1] == test), None)
    if entry and entry.get("outcome") == "failed" and key in (entry.get("plays") or []):
        return test
    return None


def diagnose(failure: Exception, got: RoundOutcome | None, candidates: list[tuple[variants.Variant, RoundOutcome]],
             same: Callable[[RoundOutcome, RoundOutcome], bool]) -> Exception:
    """The failure with the rule variants whose answer is exactly the student's (`plays`) and the sentence of
    the first (`diagnosis`); nothing when none fits."""
    if got is None:
        return failure
    fits: list[variants.Variant] = []
    for variant, outcome in candidates:
        if same(got, outcome) and all(variant.key != fit.key for fit in fits):
            fits.append(variant)
    if fits:
        failure.plays = [variant.key for variant in fits]  # type: ignore[attr-defined]
        failure.diagnosis = fits[0].sentence  # type: ignore[attr-defined]
    return failure


def name_values(failure: Exception, cards: list[str], answers: list[dict[str, Any]]) -> Exception:
    """The failure of a card_value test with the card-order variant card_value's answers are, if one is (the Ace
    high, the Joker ranked as text, no Joker at all); nothing when none fits."""
    fits = variants.value_variants(cards, answers)
    if fits and not getattr(failure, "explained_by", None):
        failure.plays = [variant.key for variant in fits]  # type: ignore[attr-defined]
        failure.diagnosis = fits[0].sentence  # type: ignore[attr-defined]
    return failure


def name_jokerless(student: Student, failure: Exception) -> Exception:
    """A round with a Joker that raised, marked as the no-Joker variant when card_value("Jo") itself raises and
    every rank has a whole-number value: the student's game has no Joker."""
    if isinstance(failure, StudentRaised) and not getattr(failure, "explained_by", None):
        cards = [*variants.value_order()]
        try:
            answers = student.card_values(cards)
        except StudentProblem:
            return failure
        if variants.value_variants(cards, answers) == [variants.NO_JOKERS]:
            failure.plays = [variants.NO_JOKERS.key]  # type: ignore[attr-defined]
            failure.diagnosis = variants.NO_JOKERS.sentence  # type: ignore[attr-defined]
    return failure


def exactly(got: RoundOutcome, want: RoundOutcome) -> bool:
    """Whether two outcomes have the same result and the same queues, card for card."""
    return got.result == want.result and got.p1 == want.p1 and got.p2 == want.p2


def any_order(got: RoundOutcome, want: RoundOutcome) -> bool:
    """Whether two outcomes have the same result and the same cards on each side, in any order."""
    return got.result == want.result and card_counts(got.p1) == card_counts(want.p1) \
        and card_counts(got.p2) == card_counts(want.p2)


def card_counts(cards: list[Any]) -> Counter[str]:
    """How many of each card a queue holds (a card that is not text counted by how it is shown)."""
    return Counter(card if type(card) is str else show(card) for card in cards)


def war_candidates(p1: list[str], p2: list[str], c1: str, c2: str,
                   rules: dict[str, Any] | None) -> list[tuple[variants.Variant, RoundOutcome]]:
    """Each war variant with its answer on these queues."""
    return [(variant, variants.war(p1, p2, c1, c2, **variant.options)) for variant in variants.war_variants(rules)]


def round_candidates(p1: list[str], p2: list[str]) -> list[tuple[variants.Variant, RoundOutcome]]:
    """Each round variant with its answer on these queues."""
    return [(variant, variants.round_outcome(p1, p2, **variant.options)) for variant in variants.ROUND_VARIANTS]
