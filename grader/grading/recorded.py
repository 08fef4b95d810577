"""What the trusted pytest process of one submission recorded (recorded.json): typed records, written by the
harness with to_json and read back by the runner with from_json, which checks every field. The file is the
grader's own (student code cannot reach it), so one that does not read is the grader's fault: the runner
scores it as a run that wrote no results."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .run_settings import load_json

OUTCOMES = frozenset({"passed", "failed", "error", "timeout", "crash"})
"""What the harness may say of a test."""


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


@dataclass(frozen=True)
class SeenTest:
    """One hidden test as the harness saw it."""

    outcome: str
    """One of OUTCOMES."""
    sentence: str = ""
    difference: dict[str, Any] | None = None
    """checks.Mismatch's difference (label, expected, actual, first_difference)."""
    exception: dict[str, str] | None = None
    """The student's exception (type, message, traceback)."""
    duration: float = 0.0
    reproduction: str = ""
    explained_by: list[dict[str, Any]] = field(default_factory=list)
    """The causes its counterfactual runs proved (scoring.excusals)."""
    plays: list[str] = field(default_factory=list)
    """The rule variants that reproduce its failure."""
    diagnosis: str = ""

    def to_json(self) -> dict[str, Any]:
        """Plain data, as scoring reads it."""
        return {"outcome": self.outcome, "sentence": self.sentence, "difference": self.difference,
                "exception": self.exception, "duration": self.duration, "reproduction": self.reproduction,
                "explained_by": self.explained_by, "plays": self.plays, "diagnosis": self.diagnosis}

    @classmethod
    def from_json(cls, data: object) -> SeenTest:
        """Read back to_json's output; ValueError for anything else."""
        if type(data) is not dict:
            raise ValueError("a test's record should be an object")
        outcome = _text(data, "outcome")
        if outcome not in OUTCOMES:
            raise ValueError(f"a test's outcome {outcome!r} is not one of {sorted(OUTCOMES)}")
        exception = _optional_object(data, "exception")
        if exception is not None and any(type(value) is not str for value in exception.values()):
            raise ValueError("a test's exception should hold text")
        explained_by, plays = data.get("explained_by", []), data.get("plays", [])
        if type(explained_by) is not list or any(type(cause) is not dict for cause in explained_by):
            raise ValueError("a test's explained_by should be a list of objects")
        if type(plays) is not list or any(type(key) is not str for key in plays):
            raise ValueError("a test's plays should be a list of text")
        return cls(outcome, _text(data, "sentence"), _optional_object(data, "difference"), exception,
                   _number(data, "duration"), _text(data, "reproduction"), explained_by, plays,
                   _text(data, "diagnosis"))


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
    """What student code printed (capped by the channel)."""
    output_truncated: bool = False
    coverage: dict[str, list[int]] = field(default_factory=dict)
    """The lines of each student file seen running."""
    restarts: int = 0
    """How many times the worker was started again."""
    telemetry: dict[str, Any] | None = None
    """The full-game suite's plot data."""
    nondeterministic: str = ""
    """Why the same call gave different answers in this run, or ""."""
    teardown_seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Plain data, as scoring reads it."""
        return {"tests": {test: record.to_json() for test, record in self.tests.items()},
                "ungradable": self.ungradable, "grader_fault": self.grader_fault, "output": self.output,
                "output_truncated": self.output_truncated,
                "coverage": {path: {"executed": lines} for path, lines in self.coverage.items()},
                "restarts": self.restarts, "telemetry": self.telemetry, "nondeterministic": self.nondeterministic,
                "teardown_seconds": self.teardown_seconds}

    @classmethod
    def from_json(cls, data: object) -> Recorded:
        """Read back to_json's output; ValueError saying what is wrong with anything else."""
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
                   _optional_object(data, "telemetry"), _text(data, "nondeterministic"),
                   _number(data, "teardown_seconds"))

    def write(self, path: str | Path) -> None:
        """Save as JSON at path (json.dumps: the C encoder; json.dump would use the pure-Python one)."""
        Path(path).write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> Recorded:
        """Load from path; ValueError (with the reason) for a file that is not one."""
        return cls.from_json(load_json(path, "the record"))
