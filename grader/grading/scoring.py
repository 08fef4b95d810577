"""Turning what was recorded into points: the hidden suites' tests (only the expected ones, only from the trusted
process's record) and Part E's scenarios (from its judge), then every category's total and the grand total, once."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field

from ..config import Config
from ..results import (
    CATEGORY_TITLES,
    CategoryScore,
    CoveredFile,
    FOLLOWS_FROM,
    GradeResult,
    ScenarioScore,
    StudentTestsResult,
    TestResult,
)
from ..part_e.judge import CATEGORY as PART_E, SCENARIOS, scenario_sentence
from .recorded import Cause, Recorded, SeenTest
from .statements import executed_statements


@dataclass(frozen=True)
class ManifestEntry:
    """One expected hidden test, as collected from the suites."""

    id: str
    """pytest node id relative to the suites folder."""
    name: str
    """Title (the test's docstring)."""
    category: str
    """A key of CATEGORY_TITLES."""
    weight: float
    """Its share of the category's points."""
    rule: str = ""
    """The handout's rule it checks, in words (its @pytest.mark.rule)."""


@dataclass(frozen=True)
class GradingRun:
    """How one submission's grading ran, which the result carries beside its scores: what was graded, where, when,
    by which grader and how long each part took."""

    sha256: str = ""
    """The submission's hash."""
    sources: dict[str, str] = field(default_factory=dict)
    """The student's files by path, for the statements the report shows as run."""
    sandbox: str = ""
    """The sandbox level the submission ran at."""
    sandbox_warning: str = ""
    """What that level could not promise, if anything."""
    graded_at: str = ""
    """When, in UTC (ISO 8601)."""
    version: str = ""
    """The grader's version."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per part: prepare, tests, student_tests, total."""


def test_points(manifest: list[ManifestEntry], config: Config) -> dict[str, float]:
    """Each test's maximum: its category's points split by weight."""
    totals: dict[str, float] = {}
    for entry in manifest:
        totals[entry.category] = totals.get(entry.category, 0.0) + entry.weight
    return {entry.id: config.points.get(entry.category, 0.0) * entry.weight / totals[entry.category]
            for entry in manifest}


def _case_name(entry: ManifestEntry) -> str:
    """A test's title, with its case for a parametrized test ("... [Q]"), so that no two rows share a name."""
    case = entry.id.rpartition("[")[2].rstrip("]") if entry.id.endswith("]") and "[" in entry.id else ""
    return f"{entry.name} [{case}]" if case else entry.name


def is_hidden(test_id: str, patterns: tuple[str, ...]) -> bool:
    """Whether grading.toml hides this test from students (exact id, or an fnmatch pattern)."""
    return any(test_id == pattern or fnmatch.fnmatchcase(test_id, pattern) for pattern in patterns)


def score(
    *,
    student: str,
    manifest: list[ManifestEntry],
    config: Config,
    recorded: Recorded | None,
    problem: tuple[str, str],
    run: GradingRun,
    student_tests: StudentTestsResult | None = None,
) -> GradeResult:
    """The GradeResult for one submission: the hidden tests, then Part E's scenarios when its tests were judged
    (student_tests), each category's total and the grand total, with how its grading ran (run). A test without a
    recorded pass scores nothing.

    recorded is copied into the report as it reads (Recorded.from_json checked it and cut its texts)."""
    outcome, reason = _outcome(problem, recorded)
    tests_seen = recorded.tests if recorded is not None and outcome != "ungradable" else {}
    tests = hidden_test_rows(manifest, config, tests_seen, outcome, reason)
    if student_tests is not None:
        tests.extend(part_e_tests(student_tests, config.points.get(PART_E, 0.0)))
    categories = [
        CategoryScore(category, title,
                      round(sum(t.score for t in tests if t.category == category), 2),
                      round(config.points.get(category, 0.0), 2),
                      category_diagnosis([t for t in tests if t.category == category]))
        for category, title in CATEGORY_TITLES.items()
    ]
    recorded = recorded or Recorded()
    return GradeResult(
        student=student,
        outcome=outcome,
        reason=reason,
        score=round(sum(c.score for c in categories), 2),
        max_score=round(sum(c.max_score for c in categories), 2),
        categories=categories,
        tests=tests,
        sha256=run.sha256,
        grader_version=run.version,
        sandbox=run.sandbox,
        sandbox_warning=run.sandbox_warning,
        graded_at=run.graded_at,
        execution_time=run.timings.get("total", 0.0),
        timings=run.timings,
        output=recorded.output,
        output_truncated=recorded.output_truncated,
        coverage=_coverage(recorded.coverage, run.sources),
        telemetry=recorded.telemetry,
        nondeterministic=recorded.nondeterministic,
        student_tests=student_tests,
    )


def _outcome(problem: tuple[str, str], recorded: Recorded | None) -> tuple[str, str]:
    """The submission's outcome and its reason: the problem found before the suites ran, else what the trusted
    process recorded (nothing at all, a grader fault of its own, a package that cannot be imported), else graded."""
    outcome, reason = problem if problem[0] else ("graded", "")
    if not outcome or outcome == "graded":
        if recorded is None:
            outcome, reason = "grader_fault", "the grading process ended without writing its results"
        elif recorded.grader_fault:
            outcome, reason = "grader_fault", recorded.grader_fault
        elif recorded.ungradable:
            outcome, reason = "ungradable", recorded.ungradable
    return outcome, reason


def hidden_test_rows(manifest: list[ManifestEntry], config: Config, tests_seen: dict[str, SeenTest], outcome: str,
                     reason: str) -> list[TestResult]:
    """One row per expected hidden test: passed, excused (a proven counterfactual) or not, with its points."""
    maxima = test_points(manifest, config)
    excused = excusals(manifest, tests_seen) if outcome == "graded" else {}
    tests = []
    for entry in manifest:
        seen = tests_seen.get(entry.id)
        passed = seen is not None and seen.outcome == "passed"
        failure = seen if seen is not None and not passed else None  # its reproduction, plays and diagnosis show
        hidden = is_hidden(entry.id, config.hidden)
        test_outcome = (seen.outcome if seen is not None else "missing") if outcome != "ungradable" else "error"
        if entry.id in excused:
            test_outcome = "excused"
        tests.append(TestResult(
            id=entry.id,
            name=_case_name(entry),
            category=entry.category,
            score=round(maxima[entry.id], 4) if passed or test_outcome == "excused" else 0.0,
            max_score=round(maxima[entry.id], 4),
            outcome=test_outcome,
            hidden=hidden,
            sentence=_sentence(seen, outcome, reason),
            difference=seen.difference if seen is not None else None,
            exception=seen.exception if seen is not None else None,
            output="",
            duration=seen.duration if seen is not None else 0.0,
            rule=entry.rule,
            # a hidden test's only to be revealed ([reveal])
            reproduction=failure.reproduction if failure is not None and (not hidden or config.reveal_after) else "",
            follows_from=excused.get(entry.id, ""),
            plays=tuple(failure.plays) if failure is not None else (),
            diagnosis=failure.diagnosis if failure is not None else "",
        ))
    return tests


PART_E_RULE = "Part E: your tests pass on every correct implementation and fail on buggy ones."
"""The rule of every Part E row."""


def part_e_tests(part_e: StudentTestsResult, points: float) -> list[TestResult]:
    """Part E's rows, one per scenario with the score its judge gave it, in Part E's category (points: the
    category's; a scenario's share of it when no scenario was judged, as for a submission without tests)."""
    scenarios = part_e.scenarios or [ScenarioScore(scenario, title, 0, 0, 0.0, round(points / len(SCENARIOS), 4))
                                     for scenario, (title, _) in SCENARIOS.items()]
    return [TestResult(
        id=f"part_e::{scenario.id}",
        name=f"Your tests: {scenario.title}",
        category=PART_E,
        score=scenario.score,
        max_score=scenario.max_score,
        outcome="passed" if scenario.total and scenario.caught == scenario.total else "failed",
        hidden=False,
        sentence=scenario_sentence(scenario, part_e),
        rule=PART_E_RULE,
    ) for scenario in scenarios]


def category_diagnosis(tests: list[TestResult]) -> str:
    """The one sentence naming the rule a category's charged failures play: a variant that reproduces every
    one of them (the first such, in the order the tests name them); empty when any failure has none."""
    charged = [test for test in tests if test.score < test.max_score]
    if not charged or any(not test.plays for test in charged):
        return ""
    common = [key for key in charged[0].plays if all(key in test.plays for test in charged)]
    if not common:
        return ""
    for test in charged:
        if test.plays and test.plays[0] == common[0] and test.diagnosis:
            return test.diagnosis
    from .variants import sentence_of  # here: variants reads the harness, which reads this module

    return next((sentence for sentence in map(sentence_of, common) if sentence), "")


CHARGED = ("failed", "error", "timeout", "crash")
"""Outcomes that cost a test its points (before excusals)."""


def excusals(manifest: list[ManifestEntry], seen: dict[str, SeenTest]) -> dict[str, str]:
    """The failed tests that a bug charged elsewhere wholly explains, each with its follows_from sentence.

    A test names the causes its counterfactual runs proved (explained_by: a category whose unit, repaired alone,
    made it pass; or one test whose failure the same rule variant reproduces, `plays`); it is excused when one
    of them is charged: a test of that category (never its own) failed and is not itself excused, or that test
    failed and the same variant reproduced it. One bug, one charge.
    """
    entries = {entry.id: entry for entry in manifest}
    resolved: dict[str, str | None] = {}

    def failed(test_id: str) -> bool:
        record = seen.get(test_id)
        return record is not None and record.outcome in CHARGED

    def excuse(test_id: str, visiting: frozenset[str]) -> str | None:
        if test_id in resolved:
            return resolved[test_id]
        result = None
        if failed(test_id):
            own = entries[test_id].category
            for cause in seen[test_id].explained_by:
                if cause.test is not None:
                    # A rule variant the failure follows from: that test must be reproduced by the same variant.
                    other = seen.get(cause.test)
                    candidates = [cause.test] if cause.test in entries and (
                        cause.plays is None or (other is not None and cause.plays in other.plays)) else []
                elif cause.category is not None and cause.category != own:
                    candidates = [e.id for e in manifest if e.category == cause.category]
                else:
                    candidates = []
                charged = [c for c in candidates if c != test_id and c not in visiting and failed(c)
                           and excuse(c, visiting | {test_id}) is None]
                if charged:
                    culprit = entries[charged[0]]
                    result = (f"{FOLLOWS_FROM}{culprit.rule or culprit.name}, charged in "
                              f"{CATEGORY_TITLES.get(culprit.category, culprit.category)}{_proof(cause)}")
                    break
        resolved[test_id] = result
        return result

    found = {}
    for entry in manifest:
        reason = excuse(entry.id, frozenset())
        if reason:
            found[entry.id] = reason
    return found


UNIT_WORDS = {"structures": "Queue and Stack", "card_value": "card_value", "play_round": "play_round",
              "resolve_war": "resolve_war", "deal": "deal",
              "Queue.dequeue": "Queue.dequeue (first in, first out, on your Queue's own storage)",
              "Stack.pop": "Stack.pop (last in, first out, on your Stack's own storage)",
              "card_order": "Joker order (above every rank) in your own helper or table that orders the cards"}
"""How a follows_from sentence names each unit a counterfactual run repaired."""


def _proof(cause: Cause) -> str:
    """What the counterfactual run showed, in words, for the follows_from sentence."""
    unit = cause.repaired
    if unit in UNIT_WORDS and cause.through == "loop":
        return (f" (your play_game plays the same game as your own units played round after round; with the "
                f"reference's {UNIT_WORDS[unit]} in place of yours, that game is the reference's)")
    if unit in UNIT_WORDS:
        return f" (run again with the reference's {UNIT_WORDS[unit]} in place of yours, this test passed)"
    if cause.plays is not None and cause.through == "game":
        return (" (the reference, playing the rule your resolve_war plays, plays exactly your play_game's game on "
                "this deck, every field of GameResult and the whole history included)")
    if cause.plays is not None:
        return " (the reference, playing the rule your code plays there, gives exactly your answer here too)"
    return ""


def _sentence(seen: SeenTest | None, outcome: str, reason: str) -> str:
    if outcome == "ungradable":
        return f"Not run: {reason}"
    if outcome == "grader_fault" and seen is None:
        return f"Not run: the grader failed ({reason})"
    if seen is None:
        return "No result was recorded for this test, so it scores nothing."
    return seen.sentence


def _coverage(coverage: dict[str, list[int]], sources: dict[str, str]) -> list[CoveredFile]:
    """Every copied source file with its statements that ran, from the lines the worker saw running."""
    files = []
    for path, text in sorted(sources.items()):
        executed, missing = executed_statements(text, set(coverage.get(path, ())))
        total = len(executed) + len(missing)
        files.append(CoveredFile(path, text, executed, missing,
                                 round(100.0 * len(executed) / total, 1) if total else 100.0))
    return files
