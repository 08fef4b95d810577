"""The time limits of a grading run: the six time settings as one typed record, and every limit derived from them.

grader/config.py resolves the settings into a TimeLimits; it travels as that record (to the trusted pytest
process inside RunSettings, to the worker's channel, to Part E) and every derived limit is a method here, so
a formula exists once. Imports nothing of the grader's: the sandbox uses it too.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum


class Ceiling(Enum):
    """Which setting caps a call: one call into student code, or a call that plays whole games."""

    CALL = "call_timeout"
    GAME = "game_timeout"


def deadline(seconds: float, *, multiple: float, floor: float, ceiling: float) -> float:
    """multiple times the reference's seconds, at least floor, at most ceiling (hidden calls and Part E's tests)."""
    return min(ceiling, max(floor, multiple * seconds))


@dataclass(frozen=True)
class TimeLimits:
    """The time settings of one grading run (grading.toml's [limits], declared in config.SETTINGS; no defaults here:
    grading.toml holds them)."""

    call_timeout: float
    """Most seconds for one call into student code."""
    game_timeout: float
    """Most seconds for a call that plays whole games."""
    submission_timeout: float
    """Seconds of student code in all, per submission (the hidden suites' budget, and Part E's)."""
    max_timeouts: int
    """Timed-out calls per category before that category's other tests are not run."""
    deadline_multiple: float
    """A call's deadline is this many times the reference's own time for the same call..."""
    deadline_floor: float
    """... at least this many seconds, at most its ceiling."""

    def ceiling(self, which: Ceiling) -> float:
        """The seconds of the setting that caps a call of this kind."""
        return self.game_timeout if which is Ceiling.GAME else self.call_timeout

    def deadline(self, reference_seconds: float, ceiling: float) -> float:
        """A call's (or a Part E test's) deadline from the reference's seconds for it: the multiple, floored, capped."""
        return deadline(reference_seconds, multiple=self.deadline_multiple, floor=self.deadline_floor,
                        ceiling=ceiling)

    def test_deadline(self, reference_seconds: float) -> float:
        """Part E: a student's test's deadline on the second wheat and the chaffs, from its seconds on the reference
        (where it ran under call_timeout, a test being one call into student code): capped by game_timeout,
        to the millisecond."""
        return round(self.deadline(reference_seconds, self.game_timeout), 3)

    @property
    def budget(self) -> float:
        """Seconds of student code in all for one submission's hidden suites (and, again, for its Part E)."""
        return self.submission_timeout

    @property
    def worker_cpu_seconds(self) -> int:
        """RLIMIT_CPU of a worker's whole life: a backstop well above the budget (deadlines are enforced outside)."""
        return int(self.submission_timeout * 2 + 60)

    @property
    def pytest_backstop(self) -> float:
        """pytest-timeout's limit on one hidden test: above the longest call's deadline (a game call) twice over."""
        return self.game_timeout * 2 + 30

    def suite_run_seconds(self, tests: int) -> float:
        """Wall seconds one run of the hidden suites (tests of them) may take before it is killed as the grader's
        fault: the budget, plus time for the trusted side's own work per test and at the start and end."""
        return self.submission_timeout + 20 * tests + 120

    def to_json(self) -> dict[str, float | int]:
        """Plain data (a RunSettings field)."""
        return {item.name: getattr(self, item.name) for item in fields(self)}

    @classmethod
    def from_json(cls, data: object) -> TimeLimits:
        """Read back to_json's output; ValueError for anything else (written by the grader, never by students)."""
        names = {item.name for item in fields(cls)}
        if type(data) is not dict or set(data) != names:
            raise ValueError(f"time limits should be an object with exactly {sorted(names)}")
        for key, value in data.items():
            if type(value) not in (int, float) or not 0 <= value < 1e7:
                raise ValueError(f"time limit {key} should be a number from 0, not {value!r}")
        if type(data["max_timeouts"]) is not int:
            raise ValueError("time limit max_timeouts should be a whole number")
        return cls(call_timeout=float(data["call_timeout"]), game_timeout=float(data["game_timeout"]),
                   submission_timeout=float(data["submission_timeout"]), max_timeouts=data["max_timeouts"],
                   deadline_multiple=float(data["deadline_multiple"]), deadline_floor=float(data["deadline_floor"]))
