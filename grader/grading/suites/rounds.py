"""Checking one round or one war against the reference's: the result and both queues, card for card or in
any order, with the lines that replay a failure and the rule variant it plays."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

from grader.grading import expected, reproduction, variants
from grader.grading.checks import Mismatch, expect_cards, expect_value
from grader.grading.harness import RoundOutcome, Student
from grader.grading.suites.diagnosis import (WAR_VARIANT_TESTS, any_order, card_counts, diagnose, exactly,
                                             round_candidates, seen_in_forced_war, war_candidates)
from grader.grading.suites.repairs import explain, with_structures

T = TypeVar("T")


def _with_reproduction(run: Callable[[], T], lines: str) -> T:
    try:
        return run()
    except Mismatch as failure:
        failure.reproduction = lines
        raise


def check_round(student: Student, p1: list[str], p2: list[str], what: str, *, order: bool = True) -> RoundOutcome:
    """play_round on both sides; fail unless the result and both queues are the reference's (with order=False,
    the cards each queue holds in any order: who wins, and that both cards reach the winner)."""
    want = expected.play_round(p1, p2)
    lines = reproduction.round_call(p1, p2, result=want.result, after=(want.p1, want.p2))
    return _check_outcome(lambda trusted: student.play_round(p1, p2, trusted=trusted), want, lines,
                          f"play_round's result {what}", what, expect_cards if order else _same_cards,
                          lambda: round_candidates(p1, p2), exactly if order else any_order)


def check_war(student: Student, p1: list[str], p2: list[str], c1: str, c2: str, what: str,
              rules: dict[str, Any] | None = None) -> RoundOutcome:
    """resolve_war on both sides; fail unless the result and both queues are the reference's, card for card."""
    want = expected.resolve_war(p1, p2, c1, c2, rules)
    lines = reproduction.war_call(p1, p2, c1, c2, rules, result=want.result, after=(want.p1, want.p2))
    return _check_outcome(lambda trusted: student.resolve_war(p1, p2, c1, c2, rules, trusted=trusted), want, lines,
                          f"resolve_war's result {what}", what, expect_cards,
                          lambda: war_candidates(p1, p2, c1, c2, rules), exactly)


def _check_outcome(call: Callable[[Any], RoundOutcome], want: RoundOutcome, lines: str, result: str, what: str,
                   same: Callable[[list[Any], list[Any], str], None],
                   candidates: Callable[[], list[tuple[variants.Variant, RoundOutcome]]],
                   fits: Callable[[RoundOutcome, RoundOutcome], bool]) -> RoundOutcome:
    """The student's call (with its own Queue and Stack, then the worker's if that fails) against the reference's
    outcome: the result, then both queues compared by same; the failure carries the lines that replay it and
    the rule variant the student's answer is, if one is."""
    seen: list[RoundOutcome] = []

    def check(trusted: Any) -> RoundOutcome:
        got = call(trusted)
        if not trusted:
            seen.append(got)

        def compare() -> RoundOutcome:
            expect_value(got.result, want.result, result)
            same(got.p1, want.p1, f"P1's queue {what}")
            same(got.p2, want.p2, f"P2's queue {what}")
            return got
        return _with_reproduction(compare, lines)
    try:
        return with_structures(check)
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        raise diagnose(failure, seen[0], candidates(), fits) from None


def _same_cards(actual: list[Any], wanted: list[str], label: str) -> None:
    """Fail unless the queue holds exactly the wanted cards, in any order."""
    missing, extra = card_counts(wanted) - card_counts(actual), card_counts(actual) - card_counts(wanted)
    if not missing and not extra:
        return
    parts = []
    if missing:
        parts.append("it lacks " + ", ".join(f"{count} x {card!r}" if count > 1 else repr(card)
                                             for card, count in sorted(missing.items())))
    if extra:
        parts.append("it also holds " + ", ".join(f"{count} x {card!r}" if count > 1 else repr(card)
                                                  for card, count in sorted(extra.items())))
    raise Mismatch(f"{label} should hold {len(wanted)} card{'s' * (len(wanted) != 1)} (in any order) but "
                   + " and ".join(parts),
                   {"label": f"{label} (any order)", "expected": sorted(wanted),
                    "actual": sorted(card_counts(actual).elements()), "first_difference": None})


def check_war_outcome(student: Student, p1: list[str], p2: list[str], c1: str, c2: str, what: str,
                      rules: dict[str, Any] | None = None) -> RoundOutcome:
    """resolve_war on both sides; fail unless the winner and the cards each queue holds (in any order) are the
    reference's: who wins a war a player is short for, and whether every card reaches the winner.

    A failure that a Forced-war variant reproduces (another number of face-down cards, new piles when the war
    ties again, cards taken from the back of the hand) follows from that rule only if the Forced-war test that
    charges it failed and the same variant reproduces that failure too: then the student's resolve_war plays
    the variant, and with that one rule repaired it is the reference's on both."""
    want = expected.resolve_war(p1, p2, c1, c2, rules)
    lines = reproduction.war_call(p1, p2, c1, c2, rules, result=want.result, after=(want.p1, want.p2))

    def compare(got: RoundOutcome, reference: RoundOutcome) -> None:
        expect_value(got.result, reference.result, f"resolve_war's result {what}")
        _same_cards(got.p1, reference.p1, f"P1's queue {what}")
        _same_cards(got.p2, reference.p2, f"P2's queue {what}")

    seen: list[RoundOutcome] = []

    def check(trusted: Any) -> RoundOutcome:
        got = student.resolve_war(p1, p2, c1, c2, rules, trusted=trusted)
        if not trusted:
            seen.append(got)
        _with_reproduction(lambda: compare(got, want), lines)
        return got

    try:
        return with_structures(check)
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        # A Forced-war rule is named here only where its Forced-war test saw the student's resolve_war play it: an
        # availability check off by one looks like another number of face-down cards on a short hand alone.
        candidates = [(variant, outcome) for variant, outcome in war_candidates(p1, p2, c1, c2, rules)
                      if variant.key.split("=")[0] not in WAR_VARIANT_TESTS or seen_in_forced_war(variant.key)]
        diagnose(failure, seen[0], candidates, any_order)
        causes = [{"test": WAR_VARIANT_TESTS[key.split("=")[0]], "plays": key} for key in getattr(failure, "plays", [])
                  if key.split("=")[0] in WAR_VARIANT_TESTS]
        raise explain(failure, *causes) from None
