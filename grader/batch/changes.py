"""A regrade's diff: OUT/changes.csv lists each student whose score moved when a rerun regraded them, before
and after, and the rules whose outcome changed.

The score before is read from the student's results.json before the new one replaces it and kept in a journal
(OUT/.changes.json) until the batch ends, so a run stopped half-way (Ctrl-C, kill -9, a full disk) loses no
change: the next run adds its own and writes changes.csv for both, comparing each student's first score
before with the last one after. A student graded for the first time is not a change; a student kept as it
was is not regraded, so not listed either.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..report.html import CHANGES
from ..report.input import try_load
from ..results import EARNING_OUTCOMES, GradeResult, write_atomically

HEADER = ("student", "before", "after", "rules_changed")
"""changes.csv's columns (scripts rely on them)."""

JOURNAL = ".changes.json"
"""The scores before of the students regraded since the last changes.csv, kept until a batch ends."""


@dataclass(frozen=True)
class Change:
    """One student whose score moved: before and after, and the rules whose outcome changed."""

    student: str
    before: float
    after: float
    rules_changed: list[str]
    """Readable: "The Joker beats every other card. (passed → failed)"; an outcome change of the whole
    submission ("ungradable → graded") comes first and stands alone when the submission was graded on one side
    only (every rule changed with it); a changed late verdict says so. Empty when only the points changed."""


def snapshot(result: GradeResult) -> dict[str, Any]:
    """What changes.csv needs of a result that is about to be replaced: its score, outcome and rule outcomes."""
    return {"score": result.score, "outcome": result.outcome, "rules": rule_outcomes(result),
            "late": result.late.sentence if result.late else ""}


def rule_outcomes(result: GradeResult) -> dict[str, list[int]]:
    """Each rule (its sentence, or the test id of a test without one) with how many of its tests earned their
    points and how many there are, in suite order."""
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for test in result.tests:
        key = test.rule or test.id
        total[key] += 1
        passed[key] += test.outcome in EARNING_OUTCOMES
    return {key: [passed[key], count] for key, count in total.items()}


def diff(before: dict[str, Any], after: GradeResult) -> Change | None:
    """The change from a snapshot to a new result, or None if the score did not move."""
    if _same_score(before["score"], after.score):
        return None
    lines = []
    if before["outcome"] != after.outcome:
        lines.append(f"{before['outcome'].replace('_', ' ')} → {after.outcome.replace('_', ' ')}")
    late = after.late.sentence if after.late else ""
    if before.get("late", "") != late:
        lines.append(f"late: {before.get('late') or 'none'} → {late or 'none'}")
    if before["outcome"] != after.outcome and "graded" in (before["outcome"], after.outcome):
        return Change(after.student, float(before["score"]), after.score, lines)  # every rule changed with it
    old, new = before["rules"], rule_outcomes(after)
    for key in [*new, *(key for key in old if key not in new)]:
        was, now = old.get(key), new.get(key)
        if was != now:
            lines.append(f"{key} ({_outcome(was)} → {_outcome(now)})")
    return Change(after.student, float(before["score"]), after.score, lines)


def _same_score(before: Any, after: float) -> bool:
    """Scores are rounded to hundredths when graded: equal to that precision is the same score."""
    return round(float(before), 2) == round(after, 2)


def _outcome(counts: list[int] | None) -> str:
    """A rule's outcome in words: passed, failed, "2 of 5 passed", or absent (no such rule in that grading)."""
    if counts is None:
        return "absent"
    passed, total = counts
    if total == 1:
        return "passed" if passed else "failed"
    return "passed" if passed == total else "failed" if passed == 0 else f"{passed} of {total} passed"


def changes_csv(changes: list[Change]) -> str:
    """changes.csv: the header, then one row per change; rules_changed joins its rules with "; "."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    for change in changes:
        writer.writerow([change.student, f"{change.before:g}", f"{change.after:g}", "; ".join(change.rules_changed)])
    return buffer.getvalue()


def read_changes(path: Path) -> dict[str, list[str]]:
    """The rows of a changes.csv by student (a shard's, for merge); {} if there is none or it is not one."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error):
        return {}
    if not rows or tuple(rows[0]) != HEADER:
        return {}
    return {row[0]: row for row in rows[1:] if len(row) == len(HEADER) and _number(row[1]) and _number(row[2])}


def _number(text: str) -> bool:
    """Whether a changes.csv score is a finite number."""
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def previous(out: Path, student: str) -> dict[str, Any] | None:
    """The snapshot of the student's saved result in out, or None if there is none (or it cannot be read)."""
    result, _ = try_load(out / student / "results.json")
    return snapshot(result) if result is not None and result.student == student else None


class Journal:
    """OUT/.changes.json: each regraded student's snapshot from before its first regrade since the last
    changes.csv. The first snapshot of a student wins, so a regrade interrupted and resumed compares with the
    score the class had before either."""

    def __init__(self, out: Path) -> None:
        self.path = out / JOURNAL
        self.befores: dict[str, dict[str, Any]] = {}
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                self.befores = {student: before for student, before in data.items() if _well_formed(before)}

    def record(self, befores: dict[str, dict[str, Any]]) -> None:
        """Add these students' snapshots (those not already recorded), written atomically before any is replaced."""
        fresh = {student: before for student, before in befores.items() if student not in self.befores}
        if fresh:
            self.befores.update(fresh)
            self._save()

    def _save(self) -> None:
        write_atomically(self.path, json.dumps(self.befores, ensure_ascii=False).encode("utf-8", errors="replace"))

    def changes(self, results: list[GradeResult]) -> list[Change]:
        """The changes among these results (the batch, in its order) from their recorded snapshots."""
        changes = []
        for result in results:
            before = self.befores.get(result.student)
            change = diff(before, result) if before is not None else None
            if change is not None:
                changes.append(change)
        return changes

    def regraded(self, results: list[GradeResult]) -> int:
        """How many of these results replaced an earlier one."""
        return sum(result.student in self.befores for result in results)

    def settle(self, results: list[GradeResult]) -> None:
        """Forget these students' snapshots (changes.csv now holds what they said); keep any other student's, whose
        regrade a stopped run began and a later batch with that student will report."""
        done = {result.student for result in results}
        self.befores = {student: before for student, before in self.befores.items() if student not in done}
        if self.befores:
            self._save()
        else:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()


def _well_formed(before: Any) -> bool:
    """Whether a journal entry is a snapshot this module wrote."""
    return (isinstance(before, dict) and isinstance(before.get("score"), (int, float))
            and isinstance(before.get("outcome"), str) and isinstance(before.get("rules"), dict))


def write_changes(out: Path, changes: list[Change]) -> Path:
    """OUT/changes.csv for these changes, written atomically."""
    path = out / CHANGES
    write_atomically(path, changes_csv(changes).encode("utf-8", errors="replace"))
    return path
