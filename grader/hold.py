"""Grades held back while a case is pending: `--hold hold.csv` (`id,reason`) on grade, merge and export grades.

A row names a student by the submission's name (as grades.csv names it) or, in an export with a roster, by any
name of the roster's student (id, GitHub login, email, name): compared as grader.roster compares, case aside.
grades.csv keeps a held student's row with no score (outcome `held`, the reason beside it), and the gradebook
exports leave the student out, so the gradebook keeps what it has; the summary names each one. Nothing else
changes: the results and the reports are as graded.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .errors import UserError
from .roster import submission_key

HEADER = ("id", "reason")
"""hold.csv's columns."""

HELD = "held"
"""grades.csv's outcome for a held student."""


class HoldError(UserError, ValueError):
    """hold.csv cannot be used (missing, no header, a row without an id, an id twice): one line naming it."""


@dataclass(frozen=True)
class Hold:
    """The students whose grades are held back, and why."""

    path: Path
    reasons: dict[str, str]
    """The id as written to its reason, in the file's order."""

    def reason(self, names: Iterable[str]) -> str | None:
        """The reason a student known by any of these names is held, or None if none is."""
        keys = {submission_key(name) for name in names if name.strip()}
        for held, reason in self.reasons.items():
            if submission_key(held) in keys:
                return reason or "held"
        return None

    def unmatched(self, names: Iterable[str]) -> list[str]:
        """The ids that name none of these (a typo, or a student not in this batch)."""
        keys = {submission_key(name) for name in names if name.strip()}
        return [held for held in self.reasons if submission_key(held) not in keys]


def read_hold(path: Path) -> Hold:
    """Read hold.csv; HoldError (one line naming the file and row) for anything unusable."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise HoldError(f"--hold {path}: cannot read it ({getattr(error, 'strerror', None) or error})") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows or [cell.strip().lower() for cell in rows[0][:2]] != list(HEADER):
        raise HoldError(f"--hold {path}: the first line must be the header {','.join(HEADER)}")
    reasons: dict[str, str] = {}
    seen: dict[str, int] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        student = row[0].strip()
        if not student:
            raise HoldError(f"--hold {path}: line {line} has no id")
        key = submission_key(student)
        if key in seen:
            raise HoldError(f"--hold {path}: line {line} names {student} again (line {seen[key]})")
        seen[key] = line
        reasons[student] = ",".join(row[1:]).strip()
    return Hold(path, reasons)
