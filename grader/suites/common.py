"""What several hidden suites share: play the same call on the student's code and the reference's, compare."""

from __future__ import annotations

from typing import Any

from grader import expected
from grader.checks import expect_cards, expect_value
from grader.harness import RoundOutcome, Student


def check_round(student: Student, p1: list[str], p2: list[str], what: str) -> RoundOutcome:
    """play_round on both sides; fail unless the result and both queues are the reference's."""
    got, want = student.play_round(p1, p2), expected.play_round(p1, p2)
    expect_value(got.result, want.result, f"play_round's result {what}")
    expect_cards(got.p1, want.p1, f"P1's queue {what}")
    expect_cards(got.p2, want.p2, f"P2's queue {what}")
    return got


def check_war(student: Student, p1: list[str], p2: list[str], c1: str, c2: str, what: str,
              rules: dict[str, Any] | None = None) -> RoundOutcome:
    """resolve_war on both sides; fail unless the result and both queues are the reference's."""
    got = student.resolve_war(p1, p2, c1, c2, rules)
    want = expected.resolve_war(p1, p2, c1, c2, rules)
    expect_value(got.result, want.result, f"resolve_war's result {what}")
    expect_cards(got.p1, want.p1, f"P1's queue {what}")
    expect_cards(got.p2, want.p2, f"P2's queue {what}")
    return got
