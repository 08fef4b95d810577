"""What grading one submission produced (the hidden suites' and Part E's), and its results.json (Gradescope's
schema plus extra_data)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .late import Lateness
from .rubric import CATEGORIES

CATEGORY_TITLES: dict[str, str] = {category.key: category.title for category in CATEGORIES}
"""Every category, in the order reports show them, with its title."""

OUTCOMES = ("graded", "ungradable", "grader_fault")
"""A submission is graded (whatever its score), ungradable (its own fault), or hit a fault of the grader."""

TEST_OUTCOMES = ("passed", "failed", "error", "timeout", "crash", "missing", "excused")
"""passed; failed (an assertion); error (student code raised); timeout; crash (the worker died); missing (no result);
excused (it failed, but only because of a bug already charged in another test: full points, see follows_from)."""

EARNING_OUTCOMES = ("passed", "excused")
"""The test outcomes that earn the test's points (and count as passed for JUnit and Gradescope)."""


@dataclass(frozen=True)
class ExceptionInfo:
    """An exception raised by student code, as the worker reported it."""

    type: str
    """The exception's class name, e.g. "IndexError"."""
    message: str
    """str() of the exception, truncated."""
    traceback: str
    """The traceback, cut to frames in the student's own files."""


@dataclass(frozen=True)
class Difference:
    """Expected and actual sequences (usually queues, front first) and where they first differ."""

    label: str
    """What is compared, e.g. "P1's queue after the war"."""
    expected: list[Any]
    """What the reference leaves."""
    actual: list[Any]
    """What the student's code left (values shown as text where they are not plain)."""
    first_difference: int | None
    """Index, counted from 0, of the first differing position (or the shorter length); None if equal.
    Sentences count positions from 1."""


@dataclass(frozen=True)
class TestResult:
    """One hidden test's result."""

    id: str
    """The pytest node id inside the suites, e.g. "test_forced_war.py::test_winner_collects_own_pile_first"."""
    name: str
    """A readable title."""
    category: str
    """A key of CATEGORY_TITLES."""
    score: float
    """Points earned."""
    max_score: float
    """Points available."""
    outcome: str
    """One of TEST_OUTCOMES."""
    hidden: bool
    """Whether grading.toml hides this test's name and details from students."""
    sentence: str = ""
    """For anything but a pass: one sentence saying what went wrong."""
    difference: Difference | None = None
    """For a wrong sequence: expected beside actual."""
    exception: ExceptionInfo | None = None
    """For an exception in student code: what was raised."""
    output: str = ""
    """What the student's code printed during this test (escaped when shown, truncated)."""
    duration: float = 0.0
    """Seconds this test took."""
    rule: str = ""
    """The handout's rule this test checks, in words; shown to students even when the test is hidden."""
    reproduction: str = ""
    """For a failure: a few lines of Python that replay the failing call on the student's own package."""
    follows_from: str = ""
    """For an excused failure: the rule already charged that explains it, and that rule's category."""
    plays: tuple[str, ...] = ()
    """For a failure: the rule variants of the reference whose answer is exactly the student's (e.g. "face_down=1")."""
    diagnosis: str = ""
    """For a failure a rule variant reproduces: the rule the student's code plays, in one sentence."""

    @property
    def cause(self) -> str:
        """follows_from without its leading "follows from: ", for sentences that say those words themselves."""
        return self.follows_from.removeprefix(FOLLOWS_FROM)


FOLLOWS_FROM = "follows from: "
"""How every follows_from sentence begins (scoring writes it; a page that says the words itself drops it)."""


@dataclass(frozen=True)
class CategoryScore:
    """A category's total."""

    id: str
    """A key of CATEGORY_TITLES."""
    title: str
    """Its title."""
    score: float
    """Points earned in it."""
    max_score: float
    """Points available in it."""
    diagnosis: str = ""
    """The rule the student's code plays where the handout says another, when one rule variant reproduces every
    failure of the category that lost points; empty when none does (never a guess)."""


@dataclass(frozen=True)
class CoveredFile:
    """One of the student's source files, with the lines the hidden suites executed."""

    path: str
    """Path inside the submission, with forward slashes."""
    source: str
    """The file's text."""
    executed: list[int]
    """Line numbers executed at least once."""
    missing: list[int]
    """Executable line numbers never executed."""
    percent: float
    """executed / (executed + missing) * 100, or 100.0 for a file with no executable line."""


@dataclass(frozen=True)
class Telemetry:
    """Both queue sizes after every round of one full game, the student's beside the reference's."""

    deck: list[str]
    """The deck dealt (unshuffled from here on), front first."""
    max_rounds: int
    """The round limit of that game."""
    reference: list[list[int]]
    """[P1 size, P2 size] after each round, as the reference plays it."""
    student: list[list[int]] | None
    """The same for the student's code, or None if it could not be played."""
    student_error: str = ""
    """Why the student's run is missing or stops early."""
    first_difference: int | None = None
    """The first round (from 1) after which the student's queues themselves differ from the reference's, found
    from the queues (sizes can agree while the cards differ); None when they never differ or it is unknown."""


# What grading a student's own tests (Part E) produced: verdicts per test, per buggy version, per scenario.


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
    then scores 0: see grader/part_e/judge.py); else ""."""
    invalid: str = ""
    """When a test does not pass on every correct implementation, the sentence a student is shown: the first such
    test in file order, why, and that later ones may be invalid too (Part E then scores 0); else "". The students'
    views show this instead of each test's validity (see docs/part-e.md: what one submission can learn)."""

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
                   untrusted=data.get("untrusted", ""), invalid=data.get("invalid", ""))


@dataclass(frozen=True)
class GradeResult:
    """Everything grading one submission produced; results.json is this, laid out as Gradescope expects."""

    student: str
    """The student's name (the submission's folder, zip or file name)."""
    outcome: str
    """One of OUTCOMES."""
    reason: str
    """For ungradable or grader_fault: one sentence why; else ""."""
    score: float
    """Total points earned."""
    max_score: float
    """Total points available."""
    categories: list[CategoryScore]
    """One per category, in CATEGORY_TITLES order."""
    tests: list[TestResult]
    """One per expected hidden test, in suite order."""
    sha256: str
    """The submission's hash: over its files' relative paths and contents, sorted."""
    grader_version: str
    """The grader's version."""
    sandbox: str
    """The isolation level used: "bwrap", "unshare", "plain" or "in-process" (trusted code only)."""
    sandbox_warning: str
    """Said when the isolation was weaker than bubblewrap; else ""."""
    graded_at: str
    """When grading finished, ISO 8601 in UTC."""
    execution_time: float
    """Seconds spent grading this submission."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds per phase: "prepare", "tests", "total"."""
    output: str = ""
    """Everything the student's code printed (escaped when shown), truncated to 64 KiB."""
    output_truncated: bool = False
    """Whether output was cut."""
    coverage: list[CoveredFile] = field(default_factory=list)
    """The student's source files with the lines executed."""
    telemetry: Telemetry | None = None
    """One full game, student beside reference."""
    nondeterministic: str = ""
    """Said when the same call gave different answers in one run (randomness not drawn from the seed); else ""."""
    student_tests: StudentTestsResult | None = None
    """Part E: the student's own tests judged against correct and buggy implementations; None if not graded."""
    submitted_at: str = ""
    """The submission's time (Submission.submitted_at); "" when unknown."""
    marked_late: bool = False
    """Its source marked it late without saying when (Submission.marked_late)."""
    provenance: str = ""
    """Where the graded files came from (Submission.provenance); "" for a plain folder, zip or file."""
    commit: str = ""
    """The full SHA of the commit graded from a git clone (grade --at, --latest); "" otherwise."""
    late: Lateness | None = None
    """The late policy's verdict (score is then the points after its penalty); None without a policy or a time."""

    def to_json(self) -> dict[str, Any]:
        """The results.json document: Gradescope's top-level keys, with everything else in extra_data."""
        return {
            "score": self.score,
            "max_score": self.max_score,
            "execution_time": round(self.execution_time, 3),
            "output": self.reason or f"{self.student}: {_points(self.score)} / {_points(self.max_score)}",
            "visibility": "visible",
            "stdout_visibility": "hidden",
            "tests": [_test_json(test) for test in self.tests],
            "extra_data": {
                "student": self.student,
                "outcome": self.outcome,
                "reason": self.reason,
                "sha256": self.sha256,
                "grader_version": self.grader_version,
                "sandbox": self.sandbox,
                "sandbox_warning": self.sandbox_warning,
                "graded_at": self.graded_at,
                "timings": self.timings,
                "categories": [asdict(category) for category in self.categories],
                "captured_output": {"text": self.output, "truncated": self.output_truncated},
                "coverage": [asdict(file) for file in self.coverage],
                "telemetry": asdict(self.telemetry) if self.telemetry else None,
                "nondeterministic": self.nondeterministic,
                "student_tests": self.student_tests.to_json() if self.student_tests else None,
                "submitted_at": self.submitted_at,
                "marked_late": self.marked_late,
                "provenance": self.provenance,
                "commit": self.commit,
                "late": self.late.to_json() if self.late else None,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GradeResult:
        """Read back a results.json document written by to_json."""
        extra = data["extra_data"]
        telemetry = extra.get("telemetry")
        return cls(
            student=extra["student"],
            outcome=extra["outcome"],
            reason=extra["reason"],
            score=data["score"],
            max_score=data["max_score"],
            categories=[CategoryScore(**category) for category in extra["categories"]],
            tests=[_test_from_json(test) for test in data["tests"]],
            sha256=extra["sha256"],
            grader_version=extra["grader_version"],
            sandbox=extra["sandbox"],
            sandbox_warning=extra["sandbox_warning"],
            graded_at=extra["graded_at"],
            execution_time=data["execution_time"],
            timings=extra.get("timings", {}),
            output=extra["captured_output"]["text"],
            output_truncated=extra["captured_output"]["truncated"],
            coverage=[CoveredFile(**file) for file in extra.get("coverage", [])],
            telemetry=Telemetry(**telemetry) if telemetry else None,
            nondeterministic=extra.get("nondeterministic", ""),
            student_tests=StudentTestsResult.from_json(extra["student_tests"]) if extra.get("student_tests") else None,
            submitted_at=extra.get("submitted_at", ""),
            marked_late=extra.get("marked_late", False),
            provenance=extra.get("provenance", ""),
            commit=extra.get("commit", ""),
            late=Lateness.from_json(extra["late"]) if extra.get("late") else None,
        )


def _points(value: float) -> str:
    """Points without a trailing .0."""
    return f"{value:g}"


def _test_json(test: TestResult) -> dict[str, Any]:
    """One entry of Gradescope's tests[], with our detail in its extra_data."""
    return {
        "name": test.name,
        "score": test.score,
        "max_score": test.max_score,
        "status": "passed" if test.outcome in EARNING_OUTCOMES else "failed",
        "output": _test_output(test),
        "tags": [test.category],
        "visibility": "hidden" if test.hidden else "visible",
        "extra_data": {
            "id": test.id,
            "outcome": test.outcome,
            "sentence": test.sentence,
            "difference": asdict(test.difference) if test.difference else None,
            "exception": asdict(test.exception) if test.exception else None,
            "output": test.output,
            "duration": round(test.duration, 4),
            "rule": test.rule,
            "reproduction": test.reproduction,
            "follows_from": test.follows_from,
            "plays": list(test.plays),
            "diagnosis": test.diagnosis,
        },
    }


def _test_output(test: TestResult) -> str:
    """Gradescope's text for a test: the sentence, then expected and actual where sequences differ."""
    if test.difference is None:
        return test.sentence
    return (f"{test.sentence}\n  expected: {_listing(test.difference.expected)}"
            f"\n  actual:   {_listing(test.difference.actual)}")


def _listing(values: list[Any]) -> str:
    return "[" + ", ".join(repr(value) for value in values) + "]"


def _test_from_json(data: dict[str, Any]) -> TestResult:
    """Read back one entry of tests[]."""
    extra = data["extra_data"]
    return TestResult(
        id=extra["id"],
        name=data["name"],
        category=data["tags"][0],
        score=data["score"],
        max_score=data["max_score"],
        outcome=extra["outcome"],
        hidden=data["visibility"] == "hidden",
        sentence=extra.get("sentence", data["output"]),
        difference=Difference(**extra["difference"]) if extra["difference"] else None,
        exception=ExceptionInfo(**extra["exception"]) if extra["exception"] else None,
        output=extra["output"],
        duration=extra["duration"],
        rule=extra.get("rule", ""),
        reproduction=extra.get("reproduction", ""),
        follows_from=extra.get("follows_from", ""),
        plays=tuple(extra.get("plays", ())),
        diagnosis=extra.get("diagnosis", ""),
    )


def write_results(result: GradeResult, path: Path, *, settings: str = "") -> None:
    """Write results.json atomically (a full disk or a kill leaves the old file or none, never half of one).

    `settings` is the digest of the grader and settings that produced it, kept in extra_data so a rerun can
    tell whether the result still stands. Text that is not valid Unicode (a file name that is not UTF-8)
    is written with replacement characters rather than failing.
    """
    data = result.to_json()
    if settings:
        data["extra_data"]["settings"] = settings
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8", errors="replace"))


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file through a temporary beside it, flushed to disk, then renamed over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_results(path: Path) -> GradeResult:
    """Read a results.json written by write_results."""
    return GradeResult.from_json(json.loads(path.read_text(encoding="utf-8")))

