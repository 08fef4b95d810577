"""What grading a student's own tests (Part E) produced: verdicts per test, per buggy version, per scenario."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class StudentTest:
    """One of the student's tests, judged against the correct implementations."""

    id: str
    """pytest's node id inside the submission, e.g. "tests/test_war.py::test_joker"."""
    valid: bool
    """Passed on every correct implementation (only valid tests can catch anything)."""
    reason: str
    """For an invalid test, or one that earns nothing, one sentence why; else ""."""
    own_outcome: str
    """How it ended on the student's own package: passed, failed, error, skipped, timeout, crash or missing."""
    catches: int
    """How many buggy versions it caught first (a run on a buggy version stops at the first valid test that fails)."""


@dataclass(frozen=True)
class ChaffVerdict:
    """One buggy version, named only by its misconception, caught or not."""

    scenario: str
    """The Part E scenario it belongs to (a key of grader.part_e.judge.SCENARIOS)."""
    misconception: str
    """The bug in plain words."""
    caught: bool
    """Some valid test failed on it."""
    caught_by: list[str]
    """The ids of the valid tests that failed on it."""


@dataclass(frozen=True)
class ScenarioScore:
    """Points for one of Part E's four scenarios: a share of them for each of its buggy versions caught."""

    id: str
    title: str
    caught: int
    total: int
    score: float
    max_score: float


@dataclass(frozen=True)
class OwnCoverage:
    """How much of one of the student's package files the student's own tests ran (shown, not scored)."""

    path: str
    percent: float
    executed: int
    statements: int
    missing: list[int]


@dataclass(frozen=True)
class StudentTestsResult:
    """Everything Part E says about one submission. Never holds output from a run."""

    status: str
    """"graded", "no_tests" (none found) or "not_run" (the tests could not be run; see note)."""
    note: str = ""
    """One sentence for the student when something stopped the grading of the tests; else ""."""
    tests: list[StudentTest] = field(default_factory=list)
    chaffs: list[ChaffVerdict] = field(default_factory=list)
    scenarios: list[ScenarioScore] = field(default_factory=list)
    coverage: list[OwnCoverage] = field(default_factory=list)
    untrusted: str = ""
    """When a test's outcome flipped between two runs of one implementation, the sentence saying so (Part E
    then scores 0: see judge.py); else ""."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for results.json's extra_data."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StudentTestsResult:
        """Read back to_json's output."""
        return cls(status=data["status"], note=data.get("note", ""),
                   tests=[StudentTest(**test) for test in data.get("tests", [])],
                   chaffs=[ChaffVerdict(**verdict) for verdict in data.get("chaffs", [])],
                   scenarios=[ScenarioScore(**scenario) for scenario in data.get("scenarios", [])],
                   coverage=[OwnCoverage(**file) for file in data.get("coverage", [])],
                   untrusted=data.get("untrusted", ""))
