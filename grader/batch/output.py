"""The grader's output folder: checked and locked before grading, each result saved the moment it is graded,
and the class files (grades.csv, index.html, the report pages) rebuilt from exactly one batch's students.

At every moment the files agree with one another: a student's old report.html goes before the new
results.json comes (atomically), and grades.csv, index.html and changes.csv are removed when a batch starts and
written only when it ends, from the same results (changes.csv only by a batch that regraded someone).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import fcntl
import io
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from ..config import load_config
from ..hold import HELD, Hold
from ..report.html import CHANGES, ReportError, render_reports
from ..report.input import try_result
from ..report.junit import write_junit
from ..results import CATEGORY_TITLES, GradeResult, write_atomically, write_results
from ..reveal import revealed
from ..submissions import INSTRUCTOR_FOLDER, OUTPUT_MARKER, UsageError
from ..errors import UserError

LOCK_NAME = OUTPUT_MARKER
"""The lock file; discovery also knows a folder holding it as an output folder, never a student."""

CLASS_FILES = ("grades.csv", "index.html", CHANGES)
"""The files that describe the whole batch (changes.csv: the scores its regrade moved, written only by one)."""

MIN_FREE_BYTES = 16 * 2**20
"""Free space wanted in --out before grading starts, besides PER_STUDENT_BYTES for each student."""

PER_STUDENT_BYTES = 2**20
"""A generous bound on one student's results.json and report.html (a perfect one takes about 200 KB)."""

REUSABLE_OUTCOMES = ("graded", "ungradable")
"""Outcomes a rerun keeps; a grader fault is the grader's own and is always retried."""


class OutputError(UserError):
    """The output folder cannot be used (not a folder, not writable, full, locked): one line for the user."""


@dataclass
class OutputFolder:
    """An output folder this process holds the lock of."""

    path: Path
    lock: int
    """The locked file descriptor (released when closed or when the process dies, even by kill -9)."""

    def load(self, student: str) -> tuple[GradeResult | None, Any]:
        """The student's result from an earlier run (None if there is none, or it does not read), with the settings
        digest it was graded under; the file is read once."""
        path = self.path / student / "results.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None, None
        result, _ = try_result(data)
        if result is None or result.student != student:
            return None, None
        return result, data["extra_data"].get("settings")

    def start_batch(self) -> None:
        """Remove grades.csv, index.html, changes.csv and the instructor view: from now on they would describe
        another batch.

        OUT/instructor goes only if it is the instructor view (no results.json of a student in it).
        """
        for name in CLASS_FILES:
            with contextlib.suppress(FileNotFoundError):
                (self.path / name).unlink()
        instructor = self.path / INSTRUCTOR_FOLDER
        if instructor.is_dir() and not instructor.is_symlink() and not (instructor / "results.json").exists():
            shutil.rmtree(instructor, ignore_errors=True)

    def save(self, result: GradeResult, settings: str) -> None:
        """Save one student's results.json atomically, dropping the report.html of an earlier result first."""
        folder = self.path / result.student
        with contextlib.suppress(FileNotFoundError):
            (folder / "report.html").unlink()
        write_results(result, folder / "results.json", settings=settings)

    def finish(self, results: list[GradeResult], hold: Hold | None = None) -> None:
        """grades.csv for exactly these results (the batch, in input order), written atomically; a student hold
        lists keeps a row without a score."""
        write_grades(self.path, results, hold)


LATE_COLUMNS = ("submitted_at", "hours_late", "grace_days_used", "late_penalty", "points_before_late")
"""grades.csv's columns about lateness, after the others: empty where nothing says when a submission came."""


def grades_csv(results: list[GradeResult], hold: Hold | None = None) -> str:
    """grades.csv: student, score (after any late penalty), max, a column per category, outcome, reason,
    nondeterministic, then LATE_COLUMNS; a student hold lists (`--hold`) has every number left empty, the outcome
    held and the hold's reason."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(["student", "score", "max", *CATEGORY_TITLES, "outcome", "reason", "nondeterministic",
                     *LATE_COLUMNS])
    for result in results:
        reason = hold.reason([result.student]) if hold is not None else None
        if reason is not None:
            writer.writerow([result.student, "", "", *("" for _ in CATEGORY_TITLES), HELD, reason, "",
                             *("" for _ in LATE_COLUMNS)])
            continue
        by_id = {category.id: category.score for category in result.categories}
        writer.writerow([result.student, f"{result.score:g}", f"{result.max_score:g}",
                         *(f"{by_id.get(category, 0):g}" for category in CATEGORY_TITLES),
                         result.outcome, result.reason, result.nondeterministic, *_late_cells(result)])
    return buffer.getvalue()


def _late_cells(result: GradeResult) -> list[str]:
    """The LATE_COLUMNS of one row: when, hours late ("marked" when the source gave no time), grace days spent,
    the penalty in percent, the points before it."""
    late = result.late
    if late is None:
        return [result.submitted_at, "", "", "", ""]
    hours = "marked" if late.hours_late is None else f"{late.hours_late:g}"
    return [result.submitted_at, hours, str(late.grace_days_used), f"{late.penalty_percent:g}",
            f"{late.points_before:g}"]


def batch_students(out: Path) -> list[str] | None:
    """The students of the last batch written to out, as its grades.csv lists them; None without one."""
    try:
        with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    if not rows or rows[0][:1] != ["student"]:
        return None
    return [row[0] for row in rows[1:] if row]


@contextlib.contextmanager
def open_output(path: Path, *, students: int) -> Iterator[OutputFolder]:
    """Check that path is a writable folder with room for `students` results, and lock it for this process."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"--out {path}: not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"--out {path}: cannot create it ({error.strerror or error})") from None
    try:
        with tempfile.NamedTemporaryFile(dir=path, prefix=".war-grader-probe-"):
            pass
    except OSError as error:
        raise OutputError(f"--out {path}: cannot write in it ({error.strerror or error})") from None
    needed = MIN_FREE_BYTES + PER_STUDENT_BYTES * students
    free = shutil.disk_usage(path).free
    if free < needed:
        raise OutputError(f"--out {path}: {free / 2**20:.0f} MiB free, {needed / 2**20:.0f} MiB wanted for "
                          f"{students} student{'s' * (students != 1)}")
    with locked(path) as descriptor:
        yield OutputFolder(path, descriptor)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[int]:
    """Hold the lock of the output folder at path (an existing folder); OutputError if another process does."""
    try:
        descriptor = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as error:
        raise OutputError(f"--out {path}: cannot lock it ({error.strerror or error})") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
        os.close(descriptor)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise OutputError(f"--out {path}: another war-grader is writing there"
                              f"{f' (process {holder})' if holder else ''}; wait for it or choose another "
                              "--out") from None
        raise OutputError(f"--out {path}: cannot lock it ({error.strerror or error})") from None
    try:
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield descriptor
    finally:
        os.close(descriptor)


def write_outputs(results: list[GradeResult], out: Path, hold: Hold | None = None) -> None:
    """OUT/<student>/results.json for each, and OUT/grades.csv for exactly these, each written atomically."""
    for result in results:
        write_results(result, out / result.student / "results.json")
    write_grades(out, results, hold)


def write_grades(out: Path, results: list[GradeResult], hold: Hold | None = None) -> None:
    """OUT/grades.csv for exactly these results, in their order (held students without a score), written
    atomically."""
    write_atomically(out / "grades.csv", grades_csv(results, hold).encode("utf-8", errors="replace"))


def reveal_set(config_path: Path | None) -> bool:
    """Whether the settings at config_path (the defaults if None) reveal hidden tests now ([reveal] after)."""
    return revealed(load_config(config_path))


def render(out: Path, view: str, *, reveal: bool = False) -> list[Any]:
    """The HTML reports of the last batch written to out (every results.json in it, without a grades.csv).

    The student view is OUT/index.html and OUT/<student>/report.html; the instructor view goes beside it, to
    OUT/instructor/index.html and OUT/instructor/<student>/report.html, so neither overwrites the other.
    `reveal` shows the student view's hidden tests in full ([reveal] after has passed).
    """
    pages = out / INSTRUCTOR_FOLDER if view == "instructor" else None
    try:
        if not out.is_dir():
            return render_reports(out, view=view, pages=pages, reveal=reveal)  # its one-line error
        with locked(out):
            return render_reports(out, view=view, students=batch_students(out), pages=pages, reveal=reveal)
    except ReportError as error:
        raise UsageError(str(error)) from None


def junit(results: list[GradeResult], path: Path) -> None:
    """JUnit XML of the results at path (--junit FILE); a file that cannot be written is a UsageError."""
    try:
        write_junit(results, path)
    except OSError as error:
        raise UsageError(f"--junit {path}: {error.strerror or error}") from None
