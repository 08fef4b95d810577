"""What a worker sends back, read by one validating reader: the trusted side never handles a reply as raw JSON.

Once student code has run in a worker, every byte on its reply line may be the student's: a field of the wrong
type is read as absent, every text is cut to its cap here (and nowhere else), and a reply that says nothing
the grader asked for is the student's fault (channel.py decides what each reply means).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import bounded_json

RAISED_CAP = 4000
"""Characters kept of an exception's type, message and traceback, each."""

MISSING_CAP = 500
"""Characters kept of a sentence saying why a call could not go on (a missing name, a bad size)."""

FAULT_CAP = 200
"""Characters kept of a refusal of the worker's own (before student code ran)."""

MAX_LINE_NUMBER = 2**31
"""Line numbers at or above this are no line of a file: dropped."""


@dataclass(frozen=True)
class RaisedInfo:
    """An exception student code raised, as plain text (each field at most RAISED_CAP characters)."""

    type: str
    message: str
    traceback: str

    def to_json(self) -> dict[str, str]:
        """The form StudentProblem.exception and the results carry."""
        return {"type": self.type, "message": self.message, "traceback": self.traceback}


@dataclass(frozen=True)
class Reply:
    """One reply line of the worker, every field checked."""

    ident: object
    """The request it answers (compared with the request's own id: anything else on the line is ignored)."""
    ok: bool = False
    """The call returned: value is its answer."""
    value: Any = None
    """The call's answer, plain JSON (the harness decodes and checks it)."""
    raised: RaisedInfo | None = None
    """Student code raised this."""
    missing: str | None = None
    """The call could not go on (the student's fault), and why."""
    fault: str = ""
    """The worker refused the request (the grader's fault, before student code ran)."""
    output: str | None = None
    """What student code printed during the call (the worker caps it too)."""
    output_truncated: bool = False
    """The worker cut that output."""
    lines: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    """Lines of each student file that ran since the last reply carrying some (None: the reply carried none)."""
    boot: bool = False
    """The worker's first line: it is up."""
    lines_over: bool = False
    """The reply reported more than max_lines line numbers (lines holds the first max_lines): the student's fault."""
    too_deep: bool = False
    """The line was JSON nested deeper than max_depth: the student's fault (the reply is otherwise empty)."""

    @classmethod
    def parse(cls, line: bytes, *, max_depth: int, max_lines: int) -> Reply:
        """A reply from one line, read by bounded_json (the channel has already capped its size); a line that is
        not a JSON object answers nothing (an empty reply), one nested deeper than max_depth says so."""
        try:
            message = bounded_json.read(line, max_bytes=len(line), max_depth=max_depth)
        except bounded_json.Refused as refused:
            return cls(ident=None, too_deep=refused.deep)
        return cls.from_json(message, max_lines=max_lines)

    @classmethod
    def from_json(cls, message: object, *, max_lines: int) -> Reply:
        """Every field of message that has its type, capped (at most max_lines line numbers); the rest read as
        absent."""
        if type(message) is not dict:
            return cls(ident=None)
        raised = None
        if "raised" in message:
            info = message["raised"] if type(message["raised"]) is dict else {}
            raised = RaisedInfo(*(str(info.get(key, ""))[:RAISED_CAP] for key in ("type", "message", "traceback")))
        output = message.get("output")
        lines, over = _lines(message["lines"], max_lines) if "lines" in message else (None, False)
        return cls(
            ident=message.get("id"),
            ok=message.get("ok") is True,
            value=message.get("value"),
            raised=raised,
            missing=str(message["missing"])[:MISSING_CAP] if "missing" in message else None,
            fault=str(message.get("fault"))[:FAULT_CAP],
            output=output if type(output) is str else None,
            output_truncated=message.get("output_truncated") is True,
            lines=lines,
            boot=message.get("boot") is True,
            lines_over=over,
        )


def _lines(files: object, max_lines: int) -> tuple[tuple[tuple[str, tuple[int, ...]], ...], bool]:
    """A worker's report of the lines run per file: [{"path": str, "executed": [int, ...]}, ...], entries of
    another shape dropped; at most max_lines numbers in all (a file counts one at least), and whether there were
    more."""
    if type(files) is not list:
        return (), False
    found: list[tuple[str, tuple[int, ...]]] = []
    left = max_lines
    for entry in files:
        if type(entry) is not dict:
            continue
        path, executed = entry.get("path"), entry.get("executed")
        if type(path) is not str or type(executed) is not list:
            continue
        if left <= 0 or len(executed) > left:
            return tuple(found), True
        numbers = tuple(line for line in executed if type(line) is int and 0 < line < MAX_LINE_NUMBER)
        left -= max(1, len(executed))  # what was reported counts, junk included
        found.append((path, numbers))
    return tuple(found), False
