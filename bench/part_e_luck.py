"""What guessing can expect from Part E under the rule in force: exact expectations, read from judge.py.

    python bench/part_e_luck.py [--step 1e-5]

The model (issue 26): a test asserts a function of behaviour its author cannot predict (one bit of a hash of
what a batch of calls returns). The correct implementations behave alike, so it passes on all of them with some
probability p, and fails on each buggy version, independently, with about 1 - p (a chaff that behaves like the
wheats on that batch only makes it pass more). n such tests make a valid suite with probability r = p^n, and a
valid suite misses each chaff with probability r (it must pass every test). Restricting a test to some chaffs
only raises the misses, so the family "valid with r, each chaff missed with r" is the worst case; under the
rule in force (judge.py: one invalid test and nothing counts; a valid suite earns judge.credit) its expectation
is a polynomial in r. The script evaluates it on a grid of r in [0, 1] and bounds it between grid points by the
polynomial's derivative (from its Bernstein coefficients), so the maximum it prints is a proof, not a sample.
Then the strategies the issue names, and what honest suites of a few shapes earn. A script, not a test: it
prints numbers (tests/part_e/test_part_e_luck.py checks the bound).
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.chaffs import CHAFFS  # noqa: E402
from grader.config import load_config  # noqa: E402
from grader.part_e.judge import CATEGORY, MISS_FACTOR, SCENARIOS, credit, scenario_of  # noqa: E402

BOUND = 1.0
"""Issue 26: what a suite of guesses may expect, in points of Part E's 20."""


def totals() -> dict[str, int]:
    """Chaffs per scenario, as judge.py counts them."""
    return {scenario: sum(scenario_of(variant.category) == scenario for variant in CHAFFS) for scenario in SCENARIOS}


def points() -> float:
    return load_config().points[CATEGORY]


def expectation(valid: float, miss: dict[str, float], sure: frozenset[str] = frozenset()) -> float:
    """Expected points of a suite valid with probability `valid` that, when valid, misses each chaff of scenario s
    independently with probability miss[s] (the scenarios in `sure` are caught whole, by honest tests)."""
    counts, total = totals(), points()
    ranges = [range(counts[s], counts[s] + 1) if s in sure else range(counts[s] + 1) for s in SCENARIOS]
    expected = 0.0
    for caught in itertools.product(*ranges):
        probability = 1.0
        for scenario, c in zip(SCENARIOS, caught):
            if scenario not in sure:
                m, q = counts[scenario], miss[scenario]
                probability *= math.comb(m, c) * (1 - q) ** c * q ** (m - c)
        expected += probability * sum(credit(dict(zip(SCENARIOS, caught)), counts, total).values())
    return valid * expected


def bernstein(sure: frozenset[str] = frozenset()) -> list[float]:
    """Coefficients a[k] with E(r) = sum_k a[k] (1 - r)^k r^(N + 1 - k) (k chaffs caught of the N left to luck):
    the expectation of the family valid with r, each chaff missed with r."""
    counts, total = totals(), points()
    left = sum(m for s, m in counts.items() if s not in sure)
    ranges = [range(counts[s], counts[s] + 1) if s in sure else range(counts[s] + 1) for s in SCENARIOS]
    a = [0.0] * (left + 1)
    for caught in itertools.product(*ranges):
        ways = math.prod(math.comb(counts[s], c) for s, c in zip(SCENARIOS, caught) if s not in sure)
        k = sum(c for s, c in zip(SCENARIOS, caught) if s not in sure)
        a[k] += ways * sum(credit(dict(zip(SCENARIOS, caught)), counts, total).values())
    return a


def luck_curve(a: list[float], r: float) -> float:
    left = len(a) - 1
    return sum(coefficient * (1 - r) ** k * r ** (left + 1 - k) for k, coefficient in enumerate(a))


def proven_maximum(a: list[float], step: float) -> tuple[float, float, float]:
    """(bound, argmax on the grid, grid maximum): max over the grid of r plus the derivative's bound times half a
    step. E(r) has degree N + 1 = d; its Bernstein coefficients are a[k] / C(d, k) at index d - k, and
    |E'| <= d * max |difference of consecutive coefficients|."""
    d = len(a)
    beta = [0.0] * (d + 1)
    for k, coefficient in enumerate(a):
        beta[d - k] = coefficient / math.comb(d, d - k)
    slope = d * max(abs(beta[j + 1] - beta[j]) for j in range(d))
    steps = round(1 / step)
    best, where = max((luck_curve(a, i / steps), i / steps) for i in range(steps + 1))
    return best + slope * step / 2, where, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=float, default=1e-5, help="the grid's step in r (default 1e-5)")
    args = parser.parse_args()
    counts, total = totals(), points()
    n = sum(counts.values())
    print(f"Rule in force (grader/part_e/judge.py): one invalid test and Part E scores 0; a valid suite earns each "
          f"scenario's share for the chaffs it caught times {MISS_FACTOR:g} / ({MISS_FACTOR:g} + chaffs missed).")
    print(f"Scenarios and chaffs: {', '.join(f'{s} {m}' for s, m in counts.items())} ({n} in all); "
          f"Part E is worth {total:g}.\n")

    a = bernstein()
    bound, where, best = proven_maximum(a, args.step)
    print("Guesses: a suite valid with probability r that misses each chaff with probability r (any n tests of bias "
          "p, r = p^n)")
    print(f"  maximum over r: {best:.4f} points at r = {where:.4f}; proven bound between grid points "
          f"(step {args.step:g}): {bound:.4f}  [{'within' if bound <= BOUND else 'ABOVE'} the bound of {BOUND:g}]")

    print("\nThe issue's strategies (expected points of 20):")
    print(f"  {'one random-bit test (r = 1/2):':44s} {luck_curve(a, 0.5):.4f}")
    for tests in (2, 3, 4, 5, 6, 8, 10, 20, 40):
        print(f"  {f'{tests} random-bit tests (r = 2^-{tests}):':44s} {luck_curve(a, 2.0 ** -tests):.4f}")
    best_bits = max(range(1, 61), key=lambda t: luck_curve(a, 2.0 ** -t))
    print(f"  best number of random-bit tests: {best_bits} ({luck_curve(a, 2.0 ** -best_bits):.4f})")
    files = expectation(1 / 16, {s: 0.5 for s in SCENARIOS})
    biased = max((expectation(p ** 4, {s: p for s in SCENARIOS}), p) for p in [i / 200 for i in range(1, 200)])
    print(f"  one random-bit test per scenario file (4 tests, each failing only on its scenario's chaffs): "
          f"{files:.4f}; with the best bias p = {biased[1]:.3f}: {biased[0]:.4f}")
    sure = frozenset({"jokers", "forced_war"})
    honest = expectation(1.0, {s: 1.0 for s in SCENARIOS}, sure)  # the other scenarios: nothing caught
    mixed_a = bernstein(sure)
    mixed, mixed_at, _ = proven_maximum(mixed_a, 1e-4)
    print(f"  half honest, half random: honest tests catch {' and '.join(sorted(sure))} whole "
          f"({sum(counts[s] for s in sure)} chaffs) and earn {honest:.4f} alone; with random-bit tests for the rest "
          f"(r = 2^-n), at best {max(luck_curve(mixed_a, 2.0 ** -t) for t in range(0, 61)):.4f}; over every r, "
          f"at most {mixed:.4f} (r = {mixed_at:.3f}): a gain of at most {mixed - honest:.4f}")
    learnt = [luck_curve(a, 2.0 ** -bits) for bits in (1, 2, 4, 8)]
    print("  one test asserting a guessed k-bit hash of a batch (r = 2^-k): "
          + ", ".join(f"k={bits}: {value:.4f}" for bits, value in zip((1, 2, 4, 8), learnt)))

    print("\nHonest valid suites (points of 20):")
    shapes = [("every chaff (tests_thorough)", {s: m for s, m in counts.items()}),
              *[(f"every chaff but {missed} of the full game", None) for missed in (1, 2, 3, 4, 6)],
              ("two Joker chaffs only (tests_weak)", {**{s: 0 for s in SCENARIOS}, "jokers": 2}),
              ("the Joker scenario whole", {**{s: 0 for s in SCENARIOS}, "jokers": counts["jokers"]}),
              ("every scenario but exhaustion", {**counts, "exhaustion": 0}),
              ("every scenario but the full game", {**counts, "full_game": 0})]
    for name, caught in shapes:
        if caught is None:
            missed = int(name.split()[3])
            caught = dict(counts)
            caught["full_game"] -= missed
        print(f"  {name:40s} {sum(credit(caught, counts, total).values()):7.4f}")


if __name__ == "__main__":
    main()
