"""What the runner hands the trusted pytest process of one submission (settings.json): a typed record, checked
when it is read back. Written and read by the grader alone (student code never sees it), so a malformed file
is the grader's fault, never the student's."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..limits import TimeLimits
from ..sandbox.isolation import SandboxSpec


def load_json(path: str | Path, what: str) -> object:
    """The JSON value in the file at path; ValueError naming what and why for a file that is missing or not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"cannot read {what} {path} ({error})") from None


@dataclass(frozen=True)
class RunSettings:
    """One run of the hidden suites: the submission's sandbox, the time limits, and whether per-call deadlines
    follow the reference's own time (deadlines) or every call gets its ceiling."""

    spec: SandboxSpec | None
    """How to start the submission's worker (None only with in_process)."""
    times: TimeLimits
    """call_timeout, game_timeout, the budget, max_timeouts, and the deadline's multiple and floor."""
    deadlines: bool = True
    """Per-call deadlines from the reference's time (grader/grading/deadlines.py); False: each call its ceiling."""
    in_process: str = ""
    """A trusted package run in this process instead of a sandboxed worker: the benchmark's floor, never a
    submission."""
    hidden: tuple[str, ...] = ()
    """The tests hidden from students (grading.toml's [visibility] hidden: ids or fnmatch patterns): they run in a
    worker of their own, so nothing they pass reaches a visible test's values."""

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"spec": self.spec.to_json() if self.spec is not None else None, "times": self.times.to_json(),
                "deadlines": self.deadlines, "in_process": self.in_process, "hidden": list(self.hidden)}

    @classmethod
    def from_json(cls, data: object) -> RunSettings:
        """Read back to_json's output; ValueError saying what is wrong with anything else."""
        if type(data) is not dict or set(data) != {"spec", "times", "deadlines", "in_process", "hidden"}:
            raise ValueError("the run settings should be an object with spec, times, deadlines, in_process and hidden")
        if type(data["deadlines"]) is not bool or type(data["in_process"]) is not str:
            raise ValueError("the run settings' deadlines should be true or false and in_process a string")
        if type(data["hidden"]) is not list or any(type(pattern) is not str for pattern in data["hidden"]):
            raise ValueError("the run settings' hidden should be a list of test ids or patterns")
        spec = None if data["spec"] is None else SandboxSpec.from_json(data["spec"])
        if spec is None and not data["in_process"]:
            raise ValueError("the run settings name neither a sandbox nor an in-process package")
        return cls(spec, TimeLimits.from_json(data["times"]), data["deadlines"], data["in_process"],
                   tuple(data["hidden"]))

    def write(self, path: Path) -> None:
        """Save as JSON at path."""
        path.write_text(json.dumps(self.to_json()), encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> RunSettings:
        """Load from path; ValueError (with the reason) for a file that is not one."""
        return cls.from_json(load_json(path, "the run settings"))
