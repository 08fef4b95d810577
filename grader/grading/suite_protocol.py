"""The suite server's protocol (grader/grading/suite_server.py and runner.SuiteServer): one JSON object a line,
each a typed record read back by its own reader."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunRequest:
    """The runner asks for one run of the suites, with this environment (the run's settings and results files)."""

    env: dict[str, str]

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"env": self.env}

    @classmethod
    def from_json(cls, data: object) -> RunRequest:
        """Read back to_json's output; ValueError for anything else."""
        if type(data) is not dict or set(data) != {"env"} or type(data["env"]) is not dict \
                or any(type(key) is not str or type(value) is not str for key, value in data["env"].items()):
            raise ValueError("a run request should be {\"env\": {name: text}}")
        return cls(dict(data["env"]))


@dataclass(frozen=True)
class ServerReply:
    """One line of the server's: ready (with the error that stopped it, if not), a run's pid, or its status."""

    ready: bool | None = None
    error: str = ""
    pid: int | None = None
    status: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data: only the fields this reply carries."""
        data: dict[str, Any] = {}
        if self.ready is not None:
            data["ready"] = self.ready
            if self.error:
                data["error"] = self.error
        if self.pid is not None:
            data["pid"] = self.pid
        if self.status is not None:
            data["status"] = self.status
        return data

    @classmethod
    def from_json(cls, data: object) -> ServerReply:
        """Read one line's object; fields of the wrong type read as absent (the runner then stops the server)."""
        if type(data) is not dict:
            return cls()
        ready, error, pid, status = (data.get(key) for key in ("ready", "error", "pid", "status"))
        return cls(ready if type(ready) is bool else None, error[:500] if type(error) is str else "",
                   pid if type(pid) is int else None, status if type(status) is int else None)


def read_timings(text: str) -> dict[str, float]:
    """The reference timings a run measured (grader.grading.deadlines.KNOWN, by call key), from its pipe: only
    text keys with float values; nothing from text that is not such an object."""
    try:
        timings = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(timings, dict):
        return {}
    return {key: value for key, value in timings.items() if isinstance(key, str) and type(value) is float}
