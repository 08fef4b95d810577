"""The late policy: a due date, extensions, grace days and a penalty curve, applied to a score after grading.

Pure functions over plain dataclasses: `read_policy` turns grading.toml's [late] table (and the CSV files beside
it) into a LatePolicy, and `assess` turns a policy, a student, when they submitted and the points they earned
into a Lateness record: how late, which due date counted, the grace days spent, the penalty and the points
after it, with one sentence for the student ("submitted 26 h late, 1 grace day used, −10%").
"""

from __future__ import annotations

import csv
import difflib
import math
import re
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any, Iterable, Mapping

from .roster import Roster, find_student, read_roster, submissions_of
from .errors import UserError

DAY = 86_400
"""Seconds in a day of lateness (a "started day" is any part of one)."""

HOUR = 3_600
"""Seconds in an hour of lateness."""

EXAMPLE = "2026-12-01T23:59-05:00"
"""A date as the messages suggest writing one."""

KEYS = ("due", "penalty_per_day", "penalty_per_hour", "max_penalty", "cutoff", "grace_days", "extensions",
        "grace_used", "roster")
"""The keys of grading.toml's [late] table."""


class LateError(UserError, ValueError):
    """A [late] setting, an extensions file, a grace ledger or a Gradescope metadata file cannot be used: one
    line naming the file, the line and the fix."""


@dataclass(frozen=True)
class LatePolicy:
    """The course's late policy for one assignment, as grading.toml's [late] table and its files say."""

    due: datetime | None = None
    """The due date (with its offset); None only where another source supplies it (Gradescope's metadata)."""
    penalty_per_day: float = 0.0
    """Percent of the score taken per started day late (or 0)."""
    penalty_per_hour: float = 0.0
    """Percent of the score taken per started hour late (or 0); at most one of the two is set."""
    max_penalty: float = 100.0
    """The most percent the curve takes (the cut-off aside)."""
    cutoff: datetime | None = None
    """After this moment late work scores 0 (moved by a student's extension by as much as their due date)."""
    grace_days: int = 0
    """Grace days each student has for the whole course."""
    extensions: dict[str, datetime] = field(default_factory=dict)
    """A student's own due date, by student id (the extensions file)."""
    grace_used: dict[str, int] = field(default_factory=dict)
    """Grace days each student already spent on earlier assignments (the instructor's ledger)."""
    places: dict[str, str] = field(default_factory=dict)
    """Where each line of those files is, "extensions:alice" -> "extensions.csv line 3" (for messages only: no
    part of what a grade depends on)."""
    roster: Roster | None = None
    """The class roster ([late] roster): with it the two files may name a student as the gradebook export does
    (the roster's id, GitHub login, email, name); name_students maps each row to that student's submission."""


@dataclass(frozen=True)
class Lateness:
    """How late one submission was and what it cost: results.json's extra_data["late"]."""

    due: str
    """The due date that counted for this student (their extension's, if any), ISO 8601 with its offset."""
    extended: bool
    """Whether due is the student's extension rather than the class's date."""
    late: bool
    """Whether it counted as late at all (a second after due is late)."""
    hours_late: float | None
    """Hours after due, to the second (0 when on time); None when the source marked it late without saying when."""
    grace_days_used: int
    """Grace days spent on this submission (whole days, spent automatically to cover lateness)."""
    penalty_percent: float
    """Percent of the points taken (100 after the cut-off)."""
    points_before: float
    """The points the tests earned, before the penalty."""
    points_after: float
    """The points after the penalty: the result's score."""
    cut_off: bool
    """Submitted after the cut-off: 0 points, the report still shown."""
    sentence: str
    """One line for the student, e.g. "submitted 26 h late, 1 grace day used, −10%"."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for results.json."""
        return {"due": self.due, "extended": self.extended, "late": self.late, "hours_late": self.hours_late,
                "grace_days_used": self.grace_days_used, "penalty_percent": self.penalty_percent,
                "points_before": self.points_before, "points_after": self.points_after, "cut_off": self.cut_off,
                "sentence": self.sentence}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Lateness:
        """Read back to_json's output."""
        hours = data.get("hours_late")
        return cls(due=str(data["due"]), extended=bool(data.get("extended", False)),
                   late=bool(data.get("late", hours is None or float(hours) > 0)),
                   hours_late=None if hours is None else float(hours),
                   grace_days_used=int(data.get("grace_days_used", 0)),
                   penalty_percent=float(data["penalty_percent"]), points_before=float(data["points_before"]),
                   points_after=float(data["points_after"]), cut_off=bool(data.get("cut_off", False)),
                   sentence=str(data.get("sentence", "")))


# ------------------------------------------------------------------------------------------------ arithmetic


def assess(policy: LatePolicy, student: str, submitted_at: str, marked_late: bool, points: float) -> Lateness | None:
    """The lateness of one submission under the policy; None when nothing says when it came (nor that it was late).

    A time is lateness after the student's due date, in started days (or hours); the student's remaining grace
    days are spent first, a whole day each, as many as help; the curve's percent is capped at max_penalty;
    after the cut-off the score is 0. A submission marked late with no time is charged as one second late (one
    started day or hour, which one grace day covers), and its sentence says so.
    """
    if policy.due is None:
        raise LateError("the late policy has no due date: set due in [late] (e.g. due = "
                        f"\"{EXAMPLE}\")")
    due = policy.extensions.get(student, policy.due)
    extended = student in policy.extensions and due != policy.due
    cutoff = policy.cutoff + (due - policy.due) if policy.cutoff is not None and extended else policy.cutoff
    if submitted_at:
        moment = parse_moment(submitted_at)
        if moment is None:  # the sources write these themselves; a bad one is nobody's lateness
            return None
        seconds = (moment - due).total_seconds()
        hours: float | None = round(max(seconds, 0.0) / HOUR, 4)
        after_cutoff = cutoff is not None and moment > cutoff
    elif marked_late:
        seconds, hours, after_cutoff = 1.0, None, False
    else:
        return None
    if seconds <= 0:
        return Lateness(due=due.isoformat(), extended=extended, late=False, hours_late=0.0, grace_days_used=0,
                        penalty_percent=0.0, points_before=float(points), points_after=float(points), cut_off=False,
                        sentence="submitted on time" + (" (your extended due date)" if extended else ""))
    left = max(policy.grace_days - policy.grace_used.get(student, 0), 0)
    grace = 0 if after_cutoff else min(left, math.ceil(seconds / DAY))
    charged = max(seconds - grace * DAY, 0.0)
    if after_cutoff:
        percent = 100.0
    elif policy.penalty_per_hour:
        percent = min(math.ceil(charged / HOUR) * policy.penalty_per_hour, policy.max_penalty)
    else:
        percent = min(math.ceil(charged / DAY) * policy.penalty_per_day, policy.max_penalty)
    after = round(points * (100.0 - percent) / 100.0, 4)
    return Lateness(due=due.isoformat(), extended=extended, late=True, hours_late=hours, grace_days_used=grace,
                    penalty_percent=float(percent), points_before=float(points), points_after=after,
                    cut_off=after_cutoff,
                    sentence=_sentence(seconds if hours is not None else None, extended, grace, percent,
                                       cutoff if after_cutoff else None, policy))


def _sentence(seconds: float | None, extended: bool, grace: int, percent: float, cutoff: datetime | None,
              policy: LatePolicy) -> str:
    """"submitted 26 h late, 1 grace day used, −10%" and its variants."""
    unit = "hour" if policy.penalty_per_hour else "day"
    if seconds is None:
        head = f"marked late by its source, which gives no time: counted as 1 started {unit} late"
    else:
        head = f"submitted {duration(seconds)} late" + (" (after your extended due date)" if extended else "")
    parts = [head]
    if grace:
        parts.append(f"{grace} grace day{'s' * (grace != 1)} used")
    if cutoff is not None:
        parts.append(f"after the cut-off ({cutoff.isoformat()}): 0 points")
    elif percent:
        parts.append(f"\u2212{percent:g}%")
    else:
        parts.append("no penalty")
    return ", ".join(parts)


def duration(seconds: float) -> str:
    """A length of lateness in words: "40 s", "12 min", "26 h", "3 days 4 h"."""
    if seconds < 60:
        return f"{max(int(seconds), 1):d} s"
    if seconds < HOUR:
        return f"{int(seconds // 60):d} min"
    hours = round(seconds / HOUR)
    if hours < 48:
        return f"{hours:d} h"
    return f"{hours // 24:d} days" + (f" {hours % 24:d} h" if hours % 24 else "")


def parse_moment(text: str) -> datetime | None:
    """An ISO 8601 time with an offset ("Z" allowed); None if the text is not one."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        return None
    return moment if moment.tzinfo is not None and moment.utcoffset() is not None else None


# --------------------------------------------------------------------------------------------------- reading


def read_policy(table: Mapping[str, Any], *, origin: Path, text: str = "") -> LatePolicy:
    """grading.toml's [late] table (read from the file at origin, whose text finds the lines) as a policy;
    LateError naming the file, the line and the fix for anything that cannot be used."""
    where = _Where(origin, text)
    for key in table:
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            raise LateError(f"{where.at('late', key)}: unknown setting late.{key}"
                            + (f"; did you mean late.{close[0]}?" if close else
                               f"; the keys of [late] are {', '.join(KEYS)}"))
    due = _moment(table, "due", where) if "due" in table else None
    cutoff = _moment(table, "cutoff", where) if "cutoff" in table else None
    per_day = _number(table, "penalty_per_day", where, high=100)
    per_hour = _number(table, "penalty_per_hour", where, high=100)
    if "penalty_per_day" in table and "penalty_per_hour" in table:
        raise LateError(f"{where.at('late', 'penalty_per_hour')}: set penalty_per_day or penalty_per_hour, "
                        "not both; remove one of them")
    cap = _number(table, "max_penalty", where, high=100, default=100.0)
    grace = _number(table, "grace_days", where, high=365, whole=True)
    if due is not None and cutoff is not None and cutoff < due:
        raise LateError(f"{where.at('late', 'cutoff')}: late.cutoff ({cutoff.isoformat()}) is before late.due "
                        f"({due.isoformat()}); set it to the due date or later")
    places: dict[str, str] = {}
    extensions = _extensions(_file(table, "extensions", where), places) if "extensions" in table else {}
    if due is not None:
        for student, until in extensions.items():
            if until < due:
                raise LateError(f"{where.at('late', 'extensions')}: {student}'s extension "
                                f"({until.isoformat()}) is before late.due; an extension gives more time")
    used = _ledger(_file(table, "grace_used", where), places) if "grace_used" in table else {}
    roster = read_roster(_file(table, "roster", where)) if "roster" in table else None
    return LatePolicy(due=due, penalty_per_day=per_day, penalty_per_hour=per_hour, max_penalty=cap, cutoff=cutoff,
                      grace_days=int(grace), extensions=extensions, grace_used=used, places=places, roster=roster)


def own_deadline(policy: LatePolicy | None, student: str, moment: datetime) -> datetime:
    """moment moved by as much as the student's extension moves their due date, as the cut-off is: `grade --at`
    at the due date picks an extended student's commit at their own due date."""
    if policy is None or policy.due is None or student not in policy.extensions:
        return moment
    return moment + (policy.extensions[student] - policy.due)


def name_students(policy: LatePolicy, students: Iterable[str], *, whole_class: bool = True
                  ) -> tuple[LatePolicy, list[str]]:
    """The policy with each row of the extensions file and the grace ledger keyed by the submission it names, and
    a line for each row whose student has no submission in the class (yet; none when one submission is graded
    alone, whole_class False). A row names a submission by its name; with [late] roster, also by any name of a
    roster student (id, GitHub login, email, name: grader.roster's kinds), which the roster maps to that
    student's submission. LateError for a row that names nobody, or two rows that name one submission."""
    known = list(students)
    if policy.roster is None:
        return policy, check_students(policy, known) if whole_class else []
    mine = submissions_of(known, policy.roster)
    notes: list[str] = []
    places = dict(policy.places)
    tables: dict[str, dict[str, Any]] = {}
    for name, rows in (("extensions", policy.extensions), ("grace_used", policy.grace_used)):
        table: dict[str, Any] = {}
        for key, value in rows.items():
            where = policy.places.get(f"{name}:{key}", "late." + name)
            student = find_student(policy.roster, key)
            submission = key if key in known else mine.get(student.id) if student is not None else None
            if submission is None and student is None:
                raise LateError(f"{where}: {key!r} is no student of {policy.roster.path.name} (by id, GitHub login, "
                                "email or name) and no submission's name; fix the id or remove the line")
            if submission is None:
                if whole_class:
                    notes.append(f"{where}: {key!r} ({student.label()}) has no submission in this class (yet); "  # type: ignore[union-attr]
                                 "the line applies once it is graded")
                continue
            if submission in table:
                raise LateError(f"{where}: {key!r} names the submission {submission!r}, as "
                                f"{places.get(f'{name}:{submission}', 'another line')} does; keep one line per student")
            table[submission] = value
            places[f"{name}:{submission}"] = where
        tables[name] = table
    return replace(policy, extensions=tables["extensions"], grace_used=tables["grace_used"], places=places), notes


def check_students(policy: LatePolicy, students: Iterable[str]) -> list[str]:
    """Lines naming the students of the extensions file or the grace ledger who have no submission in the class
    (yet: an extension is often granted before the work comes in); LateError when such an id is close to a
    submission's name, a typo that would otherwise leave that student without their extension."""
    known = list(students)
    notes = []
    for name, ids in (("extensions", policy.extensions), ("grace_used", policy.grace_used)):
        for student in ids:
            if student not in known:
                where = policy.places.get(f"{name}:{student}", "late." + name)
                close = difflib.get_close_matches(student, known, n=1)
                if close:
                    raise LateError(f"{where}: {student!r} has no submission in this class; did you mean "
                                    f"{close[0]!r}? fix the id or remove the line")
                notes.append(f"{where}: {student!r} has no submission in this class (yet); "
                             "the line applies once it is graded")
    return notes


def require_due(policy: LatePolicy | None) -> None:
    """LateError before grading starts if there is a late policy without a due date (nothing graded with none)."""
    if policy is not None and policy.due is None:
        raise LateError(f"the settings file's [late] has no due date; add due = \"{EXAMPLE}\" to it")


def with_metadata(policy: LatePolicy, *, due: datetime | None, cutoff: datetime | None) -> LatePolicy:
    """The policy with the due date and cut-off of another source (Gradescope's metadata) where it sets none."""
    return replace(policy, due=policy.due or due, cutoff=policy.cutoff or cutoff)


@dataclass(frozen=True)
class _Where:
    """The settings file and its text, to name the line of a key."""

    path: Path
    text: str

    def at(self, section: str, key: str) -> str:
        """"grading.toml line 12" for the key in the section, or the file alone if the line cannot be found."""
        inside = False
        for number, line in enumerate(self.text.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("["):
                inside = stripped.split("#", 1)[0].strip() == f"[{section}]"
            elif inside and re.match(rf"{re.escape(key)}\s*=", stripped):
                return f"{self.path} line {number}"
        return str(self.path)


def _moment(table: Mapping[str, Any], key: str, where: _Where) -> datetime:
    """A date of [late]: a TOML offset date-time or an ISO 8601 string with an offset."""
    value = table[key]
    place = where.at("late", key)
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise LateError(f"{place}: late.{key} = {value.isoformat()} has no time zone offset; write it with "
                            f"one, e.g. {key} = \"{EXAMPLE}\"")
        return value
    if isinstance(value, date) or not isinstance(value, str):
        raise LateError(f"{place}: late.{key} = {value!r} is not a date and time; write it as ISO 8601 with an "
                        f"offset, e.g. {key} = \"{EXAMPLE}\"")
    return _parse(value, f"{place}: late.{key}")


def _parse(text: str, what: str) -> datetime:
    """An ISO 8601 time with an offset, or a LateError saying what is wrong with it."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise LateError(f"{what} = {text!r} is not an ISO 8601 date and time; write it like \"{EXAMPLE}\"") from None
    if moment.tzinfo is None:
        raise LateError(f"{what} = {text!r} has no time zone offset; add one, e.g. \"{EXAMPLE}\" "
                        "(or Z for UTC)")
    return moment


def _number(table: Mapping[str, Any], key: str, where: _Where, *, high: int, default: float = 0.0,
            whole: bool = False) -> float:
    """A number of [late] from 0 to high (a whole one if whole)."""
    if key not in table:
        return default
    value = table[key]
    kind = "a whole number" if whole else "a number"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (whole and not isinstance(value, int)):
        raise LateError(f"{where.at('late', key)}: late.{key} = {value!r} is not {kind}; write {kind} from 0 "
                        f"to {high}")
    if not (0 <= value <= high) or (isinstance(value, float) and not math.isfinite(value)):
        raise LateError(f"{where.at('late', key)}: late.{key} = {value!r} must be >= 0 and <= {high}")
    return float(value)


HEADERS = {"extensions": "id,until", "grace_used": "id,days", "roster": "id,name,email,github,section"}
"""The header of each file [late] names."""


def _file(table: Mapping[str, Any], key: str, where: _Where) -> Path:
    """A file named in [late], relative to the settings file."""
    value = table[key]
    if not isinstance(value, str) or not value.strip():
        raise LateError(f"{where.at('late', key)}: late.{key} = {value!r} should be the path of a CSV file, "
                        "relative to the settings file")
    path = where.path.parent / value
    if not path.is_file():
        raise LateError(f"{where.at('late', key)}: late.{key}: no file {path}; create it (a CSV with a header "
                        f"{HEADERS[key]}) or fix the path")
    return path


def _rows(path: Path, header: tuple[str, str]) -> Iterable[tuple[int, str, str]]:
    """The rows of a two-column CSV with this header: (line number, first, second); blank lines skipped."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise LateError(f"{path}: cannot read it ({getattr(error, 'strerror', None) or error})") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows or [cell.strip().lower() for cell in rows[0]] != list(header):
        raise LateError(f"{path} line 1: the header should be {','.join(header)}")
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2 or not row[0].strip():
            raise LateError(f"{path} line {number}: expected two values, {','.join(header)}; got {','.join(row)!r}")
        student = row[0].strip()
        if student in seen:
            raise LateError(f"{path} line {number}: {student!r} is already on line {seen[student]}; keep one line "
                            "per student")
        seen[student] = number
        yield number, student, row[1].strip()


def _extensions(path: Path, places: dict[str, str]) -> dict[str, datetime]:
    """The extensions file: id,until."""
    extensions = {}
    for number, student, until in _rows(path, ("id", "until")):
        extensions[student] = _parse(until, f"{path} line {number}: until")
        places[f"extensions:{student}"] = f"{path} line {number}"
    return extensions


def _ledger(path: Path, places: dict[str, str]) -> dict[str, int]:
    """The grace ledger: id,days already used."""
    used = {}
    for number, student, days in _rows(path, ("id", "days")):
        if not (days.isascii() and days.isdigit()):  # "²" is a digit to isdigit, and no number to int
            raise LateError(f"{path} line {number}: days = {days!r} should be a whole number of days, 0 or more")
        used[student] = int(days)
        places[f"grace_used:{student}"] = f"{path} line {number}"
    return used
