"""Issue 26: a Part E suite of guesses expects at most 1 of the 20 points, proven from judge.py's own rule."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from grader.part_e.judge import MISS_FACTOR, SCENARIOS, credit

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("part_e_luck", ROOT / "bench" / "part_e_luck.py")
assert _spec is not None and _spec.loader is not None
luck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(luck)


def test_guessing_expects_at_most_one_point_for_every_bias_and_number_of_tests():
    """The family valid with probability r, missing each chaff with probability r (n tests of bias p: r = p^n),
    under the rule in force: the grid maximum plus the polynomial's slope bound stays within 1 point."""
    bound, where, best = luck.proven_maximum(luck.bernstein(), 1e-5)
    assert best <= bound <= luck.BOUND, (bound, where)
    assert 0.05 < where < 0.5  # the worst guess is a few biased tests, not one coin or many


def test_the_expectation_is_the_polynomial_the_bound_is_proven_on():
    """luck_curve (Bernstein form) agrees with the direct sum over every profile of caught chaffs."""
    a = luck.bernstein()
    for r in (0.1, 0.25, 0.5):
        assert luck.luck_curve(a, r) == pytest.approx(luck.expectation(r, {s: r for s in SCENARIOS}))


def test_a_thorough_suite_still_earns_every_point_and_the_issues_strategies_stay_below_one():
    counts = luck.totals()
    assert sum(credit(counts, counts, luck.points()).values()) == luck.points() == 20
    a = luck.bernstein()
    assert luck.luck_curve(a, 0.5) < 1  # one random-bit test
    assert max(luck.luck_curve(a, 2.0 ** -n) for n in range(1, 61)) < 1  # n of them
    assert luck.expectation(1 / 16, {s: 0.5 for s in SCENARIOS}) < 1  # one per scenario file
    sure = frozenset({"jokers", "forced_war"})
    honest = luck.expectation(1.0, {s: 1.0 for s in SCENARIOS}, sure)
    mixed, _, _ = luck.proven_maximum(luck.bernstein(sure), 1e-4)
    assert mixed - honest < 1  # half honest, half random: guessing adds less than a point
    assert math.isclose(honest, 20 * 0.5 * MISS_FACTOR / (MISS_FACTOR + 12))
