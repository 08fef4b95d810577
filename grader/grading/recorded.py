"""What the trusted pytest process of one submission recorded (recorded.json): typed records, built by the
harness with from_json, written with to_json and read back by the runner with from_json, which checks every
field and cuts each text to its cap. The file is the grader's own (student code cannot reach it), so one that
does not read is the grader's fault: the runner scores it as a run that wrote no results. What crosses to
scoring is the record itself, which scoring copies into the report as it is."""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..results import Difference, ExceptionInfo, Telemetry
from .run_settings import load_json

OUTCOMES = frozenset({"passed", "failed", "error", "timeout", "crash"})
"""What the harness may say of a test."""

SENTENCE_CAP = 2000
"""Characters of a test's sentence kept: it quotes the student's values and exception messages (the channel
keeps up to RAISED_CAP characters of each), and a report's sentence is a line to read, not a dump."""

REPRODUCTION_CAP = 4000
"""Characters of a test's reproduction kept: its lines grow with the failing call's arguments (whole decks,
long runs of Queue steps), and the report shows them as a block to paste, not a file."""

STUDENT_ERROR_CAP = 500
"""Characters kept of why the full game's chart has no student line (telemetry's student_error): it quotes the
exception the student's game raised, which a replay passes on uncut."""

CAUSE_KEYS = frozenset({"category", "repaired", "through", "test", "plays"})
"""What a cause may say (Cause's fields)."""


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key, "")
    if type(value) is not str:
        raise ValueError(f"the record's {key} should be text, not {type(value).__name__}")
    return value


def _number(data: dict[str, Any], key: str) -> float:
    value = data.get(key, 0.0)
    if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
        raise ValueError(f"the record's {key} should be a number from 0, not {value!r}")
    return float(value)


def _optional_object(data: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = data.get(key)
    if value is not None and type(value) is not dict:
        raise ValueError(f"the record's {key} should be an object or null")
    return value


def _sizes(value: object, what: str) -> list[list[int]]:
    """A list of [P1 size, P2 size] pairs, as telemetry holds them."""
    if type(value) is not list or any(type(pair) is not list or len(pair) != 2
                                      or any(type(size) is not int for size in pair) for pair in value):
        raise ValueError(f"the telemetry's {what} should be a list of [P1 size, P2 size] pairs")
    return value


def telemetry_from_json(data: object) -> Telemetry | None:
    """The full-game suite's plot data (null: none), its student_error cut to STUDENT_ERROR_CAP; ValueError for
    anything else."""
    if data is None:
        return None
    if type(data) is not dict:
        raise ValueError("the record's telemetry should be an object or null")
    deck, rounds, student, first = data.get("deck", []), data.get("max_rounds", 0), data.get("student"), \
        data.get("first_difference")
    if type(deck) is not list or any(type(card) is not str for card in deck) or type(rounds) is not int:
        raise ValueError("the telemetry's deck should be a list of cards and its max_rounds a whole number")
    if first is not None and (type(first) is not int or first < 1):
        raise ValueError("the telemetry's first_difference should be a round from 1, or null")
    return Telemetry(deck, rounds, _sizes(data.get("reference"), "reference"),
                     None if student is None else _sizes(student, "student"),
                     _text(data, "student_error")[:STUDENT_ERROR_CAP], first)


def _difference(data: dict[str, Any]) -> Difference:
    """checks.Mismatch's difference, read back."""
    expected, actual, first = data.get("expected", []), data.get("actual", []), data.get("first_difference")
    if type(expected) is not list or type(actual) is not list or (first is not None and type(first) is not int):
        raise ValueError("a test's difference should hold two lists and the index of their first difference")
    return Difference(_text(data, "label"), expected, actual, first)


def _exception(data: dict[str, Any]) -> ExceptionInfo:
    """The student's exception as the channel passed it on, read back."""
    return ExceptionInfo(_text(data, "type"), _text(data, "message"), _text(data, "traceback"))


@dataclass(frozen=True)
class Cause:
    """A bug charged elsewhere that a test's failure follows from, as its counterfactual run proved it: a
    category whose unit, repaired alone, made it pass; or one test whose failure the same rule variant
    reproduces. None: not said (scoring.excusals tells "not said" from any value)."""

    category: str | None = None
    """A category whose own tests charge the repaired unit's bugs."""
    repaired: str | None = None
    """The unit the counterfactual run took from the reference (repairs.UNIT_CATEGORIES' keys)."""
    through: str | None = None
    """How the repair was seen: "loop" (play_game's own game is its units' game) or "game" (a whole game)."""
    test: str | None = None
    """The test that charges the rule variant."""
    plays: str | None = None
    """That rule variant's key: the cause holds only if that test's failure is reproduced by it too."""

    def to_json(self) -> dict[str, str]:
        """Plain data: only what the cause says."""
        return {key: value for key, value in (("category", self.category), ("repaired", self.repaired),
                                              ("through", self.through), ("test", self.test),
                                              ("plays", self.plays)) if value is not None}

    @classmethod
    def from_json(cls, data: object) -> Cause:
        """Read back to_json's output (what the suites' repairs.explain writes); ValueError for anything else."""
        if type(data) is not dict or not set(data) <= CAUSE_KEYS or any(type(value) is not str
                                                                        for value in data.values()):
            raise ValueError(f"a test's explained_by should hold objects of text under {sorted(CAUSE_KEYS)}")
        return cls(data.get("category"), data.get("repaired"), data.get("through"), data.get("test"),
                   data.get("plays"))


@dataclass(frozen=True)
class SeenTest:
    """One hidden test as the harness saw it."""

    outcome: str
    """One of OUTCOMES."""
    sentence: str = ""
    """What went wrong, in words (at most SENTENCE_CAP characters)."""
    difference: Difference | None = None
    """checks.Mismatch's difference (label, expected, actual, first_difference)."""
    exception: ExceptionInfo | None = None
    """The student's exception (type, message, traceback)."""
    duration: float = 0.0
    reproduction: str = ""
    """The lines that replay the failing call (at most REPRODUCTION_CAP characters)."""
    explained_by: list[Cause] = field(default_factory=list)
    """The causes its counterfactual runs proved (scoring.excusals)."""
    plays: list[str] = field(default_factory=list)
    """The rule variants that reproduce its failure."""
    diagnosis: str = ""
    """The first of those variants in one sentence (variants.Variant's, a fixed sentence of the grader's)."""

    def to_json(self) -> dict[str, Any]:
        """Plain data, as from_json reads it."""
        return {"outcome": self.outcome, "sentence": self.sentence,
                "difference": None if self.difference is None else asdict(self.difference),
                "exception": None if self.exception is None else asdict(self.exception),
                "duration": self.duration, "reproduction": self.reproduction,
                "explained_by": [cause.to_json() for cause in self.explained_by], "plays": self.plays,
                "diagnosis": self.diagnosis}

    @classmethod
    def from_json(cls, data: object) -> SeenTest:
        """Read back to_json's output (or the harness's own entry), the sentence and reproduction cut to their
        caps; ValueError for anything else."""
        if type(data) is not dict:
            raise ValueError("a test's record should be an object")
        outcome = _text(data, "outcome")
        if outcome not in OUTCOMES:
            raise ValueError(f"a test's outcome {outcome!r} is not one of {sorted(OUTCOMES)}")
        difference, exception = _optional_object(data, "difference"), _optional_object(data, "exception")
        explained_by, plays = data.get("explained_by", []), data.get("plays", [])
        if type(explained_by) is not list:
            raise ValueError("a test's explained_by should be a list of objects")
        if type(plays) is not list or any(type(key) is not str for key in plays):
            raise ValueError("a test's plays should be a list of text")
        return cls(outcome, _text(data, "sentence")[:SENTENCE_CAP],
                   None if difference is None else _difference(difference),
                   None if exception is None else _exception(exception),
                   _number(data, "duration"), _text(data, "reproduction")[:REPRODUCTION_CAP],
                   [Cause.from_json(cause) for cause in explained_by], plays, _text(data, "diagnosis"))


@dataclass(frozen=True)
class Recorded:
    """Everything one run of the hidden suites recorded."""

    tests: dict[str, SeenTest] = field(default_factory=dict)
    """By test id."""
    ungradable: str = ""
    """Why the submission could not be graded at all (it does not import), or ""."""
    grader_fault: str = ""
    """Why the grader could not do its part, or ""."""
    output: str = ""
    """What student code printed (the channel keeps at most its OUTPUT_CAP characters)."""
    output_truncated: bool = False
    coverage: dict[str, list[int]] = field(default_factory=dict)
    """The lines of each student file seen running."""
    restarts: int = 0
    """How many times the worker was started again."""
    telemetry: Telemetry | None = None
    """The full-game suite's plot data."""
    nondeterministic: str = ""
    """Why the same call gave different answers in this run (the harness's one fixed sentence), or ""."""
    teardown_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain data, as from_json reads it."""
        return {"tests": {test: record.to_json() for test, record in self.tests.items()},
                "ungradable": self.ungradable, "grader_fault": self.grader_fault, "output": self.output,
                "output_truncated": self.output_truncated,
                "coverage": {path: {"executed": lines} for path, lines in self.coverage.items()},
                "restarts": self.restarts, "telemetry": None if self.telemetry is None else asdict(self.telemetry),
                "nondeterministic": self.nondeterministic,
                "teardown_seconds": self.teardown_seconds}

    @classmethod
    def from_json(cls, data: object) -> Recorded:
        """Read back to_json's output, each text cut to its cap (SeenTest.from_json, telemetry_from_json);
        ValueError saying what is wrong with anything else."""
        if type(data) is not dict:
            raise ValueError("the record should be an object")
        tests, coverage = data.get("tests", {}), data.get("coverage", {})
        if type(tests) is not dict:
            raise ValueError("the record's tests should be an object")
        if type(coverage) is not dict or any(
                type(entry) is not dict or type(entry.get("executed")) is not list
                or any(type(line) is not int for line in entry["executed"]) for entry in coverage.values()):
            raise ValueError("the record's coverage should map files to their executed lines")
        restarts, truncated = data.get("restarts", 0), data.get("output_truncated", False)
        if type(restarts) is not int or restarts < 0 or type(truncated) is not bool:
            raise ValueError("the record's restarts should be a whole number and output_truncated true or false")
        return cls({test: SeenTest.from_json(entry) for test, entry in tests.items()},
                   _text(data, "ungradable"), _text(data, "grader_fault"), _text(data, "output"), truncated,
                   {path: entry["executed"] for path, entry in coverage.items()}, restarts,
                   telemetry_from_json(data.get("telemetry")), _text(data, "nondeterministic"),
                   _number(data, "teardown_seconds"))

    def write(self, path: str | Path) -> None:
        """Save as JSON at path (json.dumps: the C encoder; json.dump would use the pure-Python one)."""
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> Recorded:
        """Load from path; ValueError (with the reason) for a file that is not one."""
        return cls.from_json(load_json(path, "the record"))
