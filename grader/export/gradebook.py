"""`war-grader export grades OUT --format canvas|moodle|csv`: a graded batch as a gradebook can import it.

- canvas: Canvas's gradebook import CSV. Its importer wants the header `Student,ID,SIS User ID,SIS Login ID,
  Section,<assignment>...` (the student columns end with Section), and finds each student by the Canvas user
  ID, else the SIS User ID, else the SIS Login ID, else the name. The roster's id goes in SIS User ID, its email
  in SIS Login ID, its name in Student and its section in Section; ID (Canvas's own number) is left empty. A
  "Points Possible" row follows the header (Canvas's own export has one; for a new assignment it sets the
  points).
- moodle: Moodle's grade import CSV (Grades > Import > CSV file): a header, then one line per student. On
  import, "Identify user by" maps the column `Email address` (or `ID number`) to the user's email address (or ID
  number), and the grade column `<assignment>` maps to the grade item.
- csv: for the instructor, one row per student: the roster's columns (with a roster), the submission, one
  column per hidden test (its points), each category's points, the total, the maximum and the status.

The grade is always GradeResult.score, as results.json holds it. Students of the roster without a submission
are exported with 0. A student whose grading hit a fault of the grader's, or with two submissions, is left out
of the Canvas and Moodle files (neither gradebook changes a student the file does not list; an empty cell could
clear a grade) and named in the summary. So is a student `--hold hold.csv` holds back while a case is pending
(grader.hold): left out of the Canvas and Moodle files, and in the per-test CSV a row without points, its status
the hold's reason.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..batch.output import LOCK_NAME, batch_students
from ..hold import HELD, Hold, read_hold
from ..report.input import result_paths, try_load
from ..results import CATEGORY_TITLES, GradeResult, write_atomically
from .classroom import ExportError
from ..roster import HEADER as ROSTER_HEADER
from ..roster import Matching, Roster, Student, match, read_roster

FORMATS = ("canvas", "moodle", "csv")
"""The --format choices."""

DEFAULT_ASSIGNMENT = "War"
"""The gradebook column's name when --assignment is not given."""

CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""The student columns of Canvas's gradebook CSV, before the assignment's."""

CANVAS_POINTS_ROW = "Points Possible"
"""The first cell of the row giving each assignment's points."""

MOODLE_COLUMNS = ("Full name", "ID number", "Email address")
"""The identity columns of the Moodle CSV, before the grade's (ID number and Email address as Moodle's own export
names them; the name is for people, the import maps one of the other two)."""

TOOL_NAMES = {"canvas": "Canvas", "moodle": "Moodle", "csv": "per-test"}


@dataclass
class GradebookExport:
    """An export's text and what the summary says about it."""

    format: str
    text: str
    students: int
    """Rows written, one per student (or submission without a roster)."""
    out_of: float
    """The batch's maximum score."""
    roster: Roster | None = None
    matching: Matching | None = None
    left_out: list[str] = field(default_factory=list)
    """Roster students left out of a Canvas or Moodle file, each with why."""
    held: list[str] = field(default_factory=list)
    """Students held back by --hold, each with the reason (left out of Canvas and Moodle, no points per test)."""
    hold_unmatched: list[str] = field(default_factory=list)
    """hold.csv's ids that name no student of the export."""


def export_grades(out: Path, format: str, *, roster_path: Path | None = None,
                  assignment: str = DEFAULT_ASSIGNMENT, hold_path: Path | None = None) -> GradebookExport:
    """The export of OUT's last batch in `format`, leaving out the students hold.csv holds back (`hold_path`);
    ExportError (one line naming the file) for bad input."""
    if format not in FORMATS:
        raise ExportError(f"--format {format}: not one of {', '.join(FORMATS)}")
    if not assignment.strip():
        raise ExportError("--assignment: empty; give the gradebook column's name, e.g. --assignment War")
    if format != "csv" and roster_path is None:
        raise ExportError(f"--format {format} needs --roster FILE (a CSV {','.join(ROSTER_HEADER)}) to name each "
                          f"student as {TOOL_NAMES[format]} knows them; --format csv works without one")
    roster = read_roster(roster_path) if roster_path is not None else None
    hold = read_hold(hold_path) if hold_path is not None else None
    results = load_batch(out)
    out_of = _out_of(results, out)
    if roster is None:
        export = GradebookExport(format, _per_test_csv(results, None, None, hold), len(results), out_of)
        _note_held(export, hold, [(result.student, [result.student]) for result in results])
        return export
    matching = match(results, roster)
    export = GradebookExport(format, "", len(roster.students), out_of, roster, matching)
    _note_held(export, hold, [(student.label(), _names(student, matching)) for student in roster.students]
               + [(unmatched.submission, [unmatched.submission]) for unmatched in matching.unmatched])
    if format == "csv":
        export.text = _per_test_csv(results, roster, matching, hold)
        export.students += len(matching.unmatched)
        return export
    grades: dict[Student, str] = {}
    for student in roster.students:
        grade, why = _grade(student, matching)
        reason = hold.reason(_names(student, matching)) if hold is not None else None
        if reason is not None:
            continue  # named in the summary's list of held students
        if why:
            export.left_out.append(f"{student.label()}: {why}")
        else:
            grades[student] = grade
    export.students = len(grades)
    export.text = (_canvas_csv(grades, assignment.strip(), out_of) if format == "canvas"
                   else _moodle_csv(grades, assignment.strip()))
    return export


def _names(student: Student, matching: Matching) -> list[str]:
    """Every name hold.csv may know a roster student by: the roster's fields and their submission's name."""
    result = matching.results.get(student.id)
    return [student.id, student.github, student.email, student.name, *([result.student] if result else []),
            *matching.conflicts.get(student.id, [])]


def _note_held(export: GradebookExport, hold: Hold | None, students: list[tuple[str, list[str]]]) -> None:
    """The export's held students (each student's label and names: its held ones by label, with the reason) and
    hold.csv's ids that name none."""
    if hold is None:
        return
    export.held = [f"{label}: {reason}" for label, names in students if (reason := hold.reason(names)) is not None]
    export.hold_unmatched = hold.unmatched([name for _, names in students for name in names])


def load_batch(out: Path) -> list[GradeResult]:
    """The results of the last batch written to out (grades.csv's students, else every <student>/results.json)."""
    if not out.is_dir():
        raise ExportError(f"{out}: no such folder; give the --out folder of `war-grader grade`")
    with _not_being_written(out):
        paths = result_paths(out, batch_students(out))
        if not paths:
            raise ExportError(f"{out}: no <student>/results.json in it; grade the class first "
                              f"(war-grader grade CLASS --out {out})")
        results = []
        for path in paths:
            result, problem = try_load(path)
            if result is None:
                raise ExportError(f"{path}: {problem}; grade that student again (war-grader grade ... --out {out}) "
                                  "or remove its folder")
            results.append(result)
    return results


@contextlib.contextmanager
def _not_being_written(out: Path) -> Iterator[None]:
    """Hold a shared lock on out's lock file while reading, so no `grade` run rewrites it meanwhile."""
    try:
        descriptor = os.open(out / LOCK_NAME, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # no lock file: no war-grader has written there (or it cannot be read): nothing to wait for
        yield
        return
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            raise ExportError(f"{out}: a war-grader is writing there; export when it has finished") from None
        yield
    finally:
        os.close(descriptor)


def _out_of(results: list[GradeResult], out: Path) -> float:
    """The batch's maximum score; ExportError if its results were graded out of different totals."""
    graded = [result for result in results if result.outcome == "graded"] or results
    totals = {result.max_score: result.student for result in graded}
    if len(totals) > 1:
        (first, one), (second, other) = list(totals.items())[:2]
        raise ExportError(f"{out}: {one} was graded out of {_number(first)} and {other} out of {_number(second)}; "
                          "grade the whole class again with one grading.toml (war-grader grade --force)")
    return next(iter(totals))


def _grade(student: Student, matching: Matching) -> tuple[str, str]:
    """A roster student's grade, or why the student is left out (else "")."""
    if student.id in matching.conflicts:
        return "", f"{len(matching.conflicts[student.id])} submissions ({', '.join(matching.conflicts[student.id])})"
    result = matching.results.get(student.id)
    if result is None:
        return _number(0), ""
    if result.outcome == "grader_fault":
        return "", f"a fault of the grader's on {result.student}; grade it again, then export"
    return _number(result.score), ""


def _canvas_csv(grades: dict[Student, str], assignment: str, out_of: float) -> str:
    """Canvas's gradebook import CSV: the student columns, the assignment, a Points Possible row."""
    rows = [[*CANVAS_COLUMNS, assignment], [CANVAS_POINTS_ROW, "", "", "", "", _number(out_of)]]
    rows += [[student.name, "", student.id, student.email, student.section, grade] for student, grade in grades.items()]
    return _csv(rows)


def _moodle_csv(grades: dict[Student, str], assignment: str) -> str:
    """Moodle's grade import CSV: name, ID number, email address and the grade."""
    rows = [[*MOODLE_COLUMNS, assignment]]
    rows += [[student.name, student.id, student.email, grade] for student, grade in grades.items()]
    return _csv(rows)


def _per_test_csv(results: list[GradeResult], roster: Roster | None, matching: Matching | None,
                  hold: Hold | None = None) -> str:
    """One row per student: the roster's columns, the submission, each test's points, categories, total, status."""
    tests: dict[str, None] = {}
    for result in results:
        tests.update((test.id, None) for test in result.tests)
    identity = list(ROSTER_HEADER) if roster is not None else []
    rows = [[*identity, "submission", *tests, *CATEGORY_TITLES, "total", "max", "status"]]

    def row(who: list[str], result: GradeResult | None, status: str, total: str) -> list[str]:
        reason = hold.reason([*who, result.student if result else ""]) if hold is not None else None
        if reason is not None:  # held back: no points anywhere, the reason as its status
            return [*who, _cell(result.student) if result else "", *("" for _ in tests),
                    *("" for _ in CATEGORY_TITLES), "", "", f"{HELD}: {reason}"]
        points = {test.id: _number(test.score) for test in result.tests} if result else {}
        categories = {category.id: _number(category.score) for category in result.categories} if result else {}
        return [*who, _cell(result.student) if result else "", *(points.get(test, "") for test in tests),
                *(categories.get(category, "") for category in CATEGORY_TITLES), total,
                _number(result.max_score) if result else "", status]

    if roster is None or matching is None:
        rows += [row([], result, _status(result), _total(result)) for result in results]
        return _csv(rows)
    by_name = {result.student: result for result in results}
    for student in roster.students:
        who = [student.id, student.name, student.email, student.github, student.section]
        if student.id in matching.conflicts:
            names = matching.conflicts[student.id]
            rows.append([*who, " ".join(_cell(name) for name in names), *[""] * (len(tests) + len(CATEGORY_TITLES) + 2),
                         f"conflict: {len(names)} submissions"])
            continue
        found = matching.results.get(student.id)
        rows.append(row(who, found, _status(found), _total(found)) if found else
                    row(who, None, "no submission", _number(0)))
    for unmatched in matching.unmatched:
        result = by_name[unmatched.submission]
        rows.append(row([""] * len(identity), result, f"not on the roster: {unmatched.reason}", _total(result)))
    return _csv(rows)


def _cell(text: str) -> str:
    """A submission's name as a spreadsheet shows it, never as a formula (a name such as -A1 is the student's)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _status(result: GradeResult) -> str:
    """graded, ungradable (its reason) or grader fault."""
    if result.outcome == "graded":
        return "graded"
    return f"{result.outcome.replace('_', ' ')}: {result.reason}"


def _total(result: GradeResult) -> str:
    """The score, or empty for a fault of the grader's (no grade to give)."""
    return "" if result.outcome == "grader_fault" else _number(result.score)


def _number(value: float) -> str:
    """A number as a gradebook reads it: a plain decimal, no exponent, no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _csv(rows: list[list[str]]) -> str:
    """rows as CSV text (RFC 4180: commas and quotes quoted, CRLF line ends)."""
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def write_export(export: GradebookExport, target: Path, out: Path) -> None:
    """Write the export at target atomically; never over the grader's own files in out."""
    resolved = target.resolve()
    if resolved.name == "results.json" or resolved in {(out / name).resolve() for name in ("grades.csv", "index.html")}:
        raise ExportError(f"--to {target}: that is the grader's own file in {out}; write the export elsewhere")
    if target.is_dir():
        raise ExportError(f"--to {target}: a folder; give a file name, e.g. --to {export.format}.csv")
    try:
        write_atomically(target, export.text.encode("utf-8"))
    except OSError as error:
        raise ExportError(f"--to {target}: cannot write it ({error.strerror or error})") from None


def summary(export: GradebookExport, where: str) -> list[str]:
    """What the export holds, then every submission and student it could not export as they are."""
    tool = TOOL_NAMES[export.format]
    what = "per-test grades" if export.format == "csv" else f"{tool} gradebook CSV"
    lines = [f"wrote the {what} of {export.students} student{'s' * (export.students != 1)} to {where} "
             f"(out of {_number(export.out_of)})"]
    if export.held:
        count = len(export.held)
        fate = "rows without points" if export.format == "csv" else f"left out, {tool} keeps the grade it has"
        lines.append(f"{count} student{'s' * (count != 1)} held back by --hold ({fate}):")
        lines += [f"  {line}" for line in export.held]
    if export.hold_unmatched:
        lines.append("--hold names no student of this export: " + ", ".join(export.hold_unmatched))
    matching, roster = export.matching, export.roster
    if matching is None or roster is None:
        return lines
    if matching.unmatched:
        count = len(matching.unmatched)
        fate = "rows at the end, roster columns empty" if export.format == "csv" else "not exported"
        lines.append(f"{count} submission{'s' * (count != 1)} match{'es' * (count == 1)} no student of "
                     f"{roster.path.name} ({fate}):")
        lines += [f"  {unmatched.submission}: {unmatched.reason}" for unmatched in matching.unmatched]
    if matching.missing:
        count = len(matching.missing)
        lines.append(f"{count} student{'s' * (count != 1)} of {roster.path.name} {'have' if count != 1 else 'has'} "
                     "no submission (exported with 0):")
        lines += [f"  {student.label()}" for student in matching.missing]
    if export.left_out:
        count = len(export.left_out)
        lines.append(f"{count} student{'s' * (count != 1)} left out ({tool} keeps the grade it has):")
        lines += [f"  {line}" for line in export.left_out]
    elif matching.conflicts:
        count = len(matching.conflicts)
        lines.append(f"{count} student{'s' * (count != 1)} with several submissions (status conflict, no total):")
        labels = {student.id: student.label() for student in roster.students}
        lines += [f"  {labels[key]}: {', '.join(names)}" for key, names in matching.conflicts.items()]
    return lines
