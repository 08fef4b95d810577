"""A class run: find the class, keep the results that still stand, grade the rest into an output folder (each
saved the moment it is graded), then rebuild grades.csv and the HTML from this batch; and the self-check.

The Python API of grading (`grade`, `grade_run`, `grade_submissions`, `check`): the command line, bench/, the
Gradescope autograder and the tests all call it. It prints nothing; a Listener hears the run as it goes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..commits import choose_commits
from ..config import Config, load_config
from ..hold import Hold, read_hold
from ..grading.runner import grade_all, open_batch, scratch_folder, with_late_policy, without_late
from ..late import name_students, own_deadline, require_due
from ..part_e.runner import reference_with_tests
from ..report.html import ReportError, render_results, write_student_report
from ..results import GradeResult
from ..reveal import reveal_date, revealed
from ..sandbox.guardian import guarded
from ..sandbox.isolation import choose_level
from ..submissions import Submission, find_submissions, submission_digest
from .changes import Change, Journal, snapshot, write_changes
from .output import REUSABLE_OUTCOMES, OutputError, open_output
from .shards import Shard, write_manifest

GRADER_FILES = ("*.py", "*.toml", "*.ini", "*.html", "*.css")
"""The grader's own files whose content decides a grade (code, suites, defaults, templates)."""


@dataclass
class BatchReport:
    """What a grade run did."""

    results: list[GradeResult]
    """This batch's results, in input order."""
    kept: int = 0
    """How many were kept from an earlier run (same submission, grader and settings)."""
    skipped: list[str] = field(default_factory=list)
    """One line per entry of a class folder that is not a submission."""
    write_error: str = ""
    """Why grades.csv or the HTML could not be written (the results.json files are saved); "" if they were."""
    changes: list[Change] = field(default_factory=list)
    """The students whose score this regrade moved, in batch order (OUT/changes.csv)."""
    regraded: int = 0
    """How many of this batch's students were regraded over an earlier result (0: no changes.csv written)."""
    revealed: bool = False
    """Whether the student view was rendered with hidden tests in full ([reveal] after has passed)."""
    held: list[str] = field(default_factory=list)
    """The students `--hold` held back, each "student: reason", in batch order (grades.csv has no score for them)."""
    hold_unmatched: list[str] = field(default_factory=list)
    """The ids of hold.csv that name no student of the batch."""


def held(report: BatchReport, hold: Hold | None) -> BatchReport:
    """The report with its held and hold_unmatched filled in from its results."""
    if hold is not None:
        names = [result.student for result in report.results]
        report.held = [f"{name}: {reason}" for name in names if (reason := hold.reason([name])) is not None]
        report.hold_unmatched = hold.unmatched(names)
    return report


Progress = Callable[[GradeResult, bool], None]
"""Hears each result as it is saved, with whether it was kept from an earlier run."""


class Listener:
    """Hears a run as it goes (the command line's progress display); this one hears nothing."""

    def skipped(self, line: str) -> None:
        """An entry of a class folder that is not a submission, before grading starts."""

    def noticed(self, line: str) -> None:
        """Something about a submission the instructor should know before grading starts (under --at, a folder
        that is not a git repository, graded as its files stand)."""

    def started(self, total: int) -> None:
        """Grading of total submissions starts (kept ones included)."""

    def graded(self, result: GradeResult, kept: bool) -> None:
        """One result, saved; kept says it was kept from an earlier run rather than graded now."""


def settings_digest(config: Config, level: str) -> str:
    """What a result depends on besides the submission: settings, sandbox level, the grader's own files."""
    digest = hashlib.sha256()
    settings = {key: value for key, value in dataclasses.asdict(config).items() if key != "sources"}
    settings["reveal_after"] = bool(config.reveal_after)  # whether hidden replay lines are kept, not the date
    settings.pop("late")  # applied after scoring, to kept results as to new ones: a new policy regrades no one
    digest.update(json.dumps({"settings": settings, "level": level, "version": __version__},
                             sort_keys=True, default=str).encode())
    package = Path(__file__).resolve().parent.parent
    for pattern in GRADER_FILES:
        for path in sorted(package.rglob(pattern)):
            if "__pycache__" not in path.parts:
                digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def find_class(paths: list[Path], out: Path) -> tuple[list[Submission], list[str]]:
    """The submissions at paths (never the output folder itself) and the entries that are not one."""
    found = find_submissions(paths, exclude=(out,))
    return found.submissions, found.skipped


def grade_into(submissions: list[Submission], out: Path, config: Config, *, jobs: int, force: bool = False,
               progress: Progress = lambda result, kept: None, now: datetime | None = None,
               hold: Hold | None = None) -> BatchReport:
    """Grade submissions into out: checked and locked first, results kept unless --force, class files last;
    a regrade that moves scores writes OUT/changes.csv. `now` decides the reveal ([reveal]; default: now); `hold`
    leaves its students' grades.csv rows without a score."""
    require_due(config.late)
    reveal = revealed(config, now)
    with open_output(out, students=len(submissions)) as output:
        level = choose_level(config.sandbox, allow_plain=config.allow_plain)
        settings = settings_digest(config, level)
        output.start_batch()
        results: dict[str, GradeResult] = {}
        todo: list[Submission] = []
        befores: dict[str, dict[str, Any]] = {}
        for submission in submissions:
            saved, saved_settings = output.load(submission.student)
            kept = None if force else _still_standing(saved, saved_settings, submission, settings)
            if kept is None:
                todo.append(submission)
                if saved is not None:
                    befores[submission.student] = snapshot(saved)
            else:
                results[submission.student] = kept
        reassessed = []
        for student, kept in list(results.items()):  # the late policy's verdict, redone without a regrade
            verdict = with_late_policy(without_late(kept), config.late)
            if verdict != kept:  # the policy changed (an extension, the due date, the curve) since it was saved
                results[student] = verdict
                reassessed.append(student)
                befores[student] = snapshot(kept)
        journal = Journal(out)
        journal.record(befores)  # before any result is replaced, so a stopped run loses no score before
        for submission in submissions:
            if submission.student in results:
                if submission.student in reassessed:
                    output.save(results[submission.student], settings)
                progress(results[submission.student], True)

        rendered: set[str] = set()

        def save(result: GradeResult) -> None:
            output.save(result, settings)
            results[result.student] = result
            try:  # now, in the grading thread, rather than all at the end on one core
                write_student_report(out, result, view="student", reveal=reveal)
                rendered.add(result.student)
            except (OSError, ReportError):
                pass  # written with the others at the end, where a failure is reported
            progress(result, False)

        if todo:
            with guarded(), scratch_folder() as scratch, open_batch(config, Path(scratch), level=level,
                                                                secrets=(out, *(item.path for item in todo))) as batch:
                grade_all(todo, batch, jobs=jobs, on_result=save)
        ordered = [results[submission.student] for submission in submissions]
        report = held(BatchReport(ordered, kept=len(submissions) - len(todo), revealed=reveal), hold)
        try:
            output.finish(ordered, hold)
            report.regraded = journal.regraded(ordered)
            if report.regraded:
                report.changes = journal.changes(ordered)
                write_changes(out, report.changes)
            journal.settle(ordered)
            render_results(out, ordered, view="student", rendered=frozenset(rendered), reveal=reveal)
        except OSError as error:
            report.write_error = f"cannot write {getattr(error, 'filename', None) or out}: {error.strerror or error}"
        except ReportError as error:
            report.write_error = str(error)
        return report


def _still_standing(saved: GradeResult | None, saved_settings: Any, submission: Submission,
                    settings: str) -> GradeResult | None:
    """The saved result of an earlier run, if this submission (its files, or the commit graded), grader and settings
    are what produced it, and its time and provenance are still the submission's (the submission is hashed only
    when there is a saved result to compare)."""
    if saved is None or saved.outcome not in REUSABLE_OUTCOMES or saved_settings != settings:
        return None
    if saved.sha256 != submission_digest(submission) or (saved.submitted_at, saved.marked_late, saved.provenance) != (
            submission.submitted_at, submission.marked_late, submission.provenance):
        return None
    return saved


def grade(*, paths: list[Path], out: Path, jobs: int, config_path: Path | None = None,
          timeout: float | None = None, sandbox: str | None = None, force: bool = False,
          shard: Shard | None = None, listener: Listener | None = None, at: datetime | None = None,
          latest: bool = False, hold_path: Path | None = None) -> list[GradeResult]:
    """Grade every submission at paths (or a shard's slice of them) into out; the results, or OutputError if
    the class files failed. `at` grades each git clone's last commit at or before it, `latest` each one's last
    commit (grader.commits)."""
    report = grade_run(paths=paths, out=out, jobs=jobs, config_path=config_path, timeout=timeout,
                       sandbox=sandbox, force=force, shard=shard, listener=listener, at=at, latest=latest,
                       hold_path=hold_path)
    if report.write_error:
        raise OutputError(report.write_error)
    return report.results


def grade_run(*, paths: list[Path], out: Path, jobs: int, config_path: Path | None = None,
              timeout: float | None = None, sandbox: str | None = None, force: bool = False,
              shard: Shard | None = None, listener: Listener | None = None, at: datetime | None = None,
              latest: bool = False, hold_path: Path | None = None) -> BatchReport:
    """The grade command: find the class, tell the listener what is skipped, grade (a shard of) it into out;
    a sharded run also writes OUT/shard.json for merge. With `at` or `latest`, each git clone is graded at the
    commit grader.commits chooses, and the listener hears of each submission that is not a clone. `hold_path`
    (hold.csv, read before anything is graded) names students whose grades.csv row is left without a score."""
    listener = listener or Listener()
    hold = read_hold(hold_path) if hold_path is not None else None
    config = load_config(config_path, {"limits.call_timeout": timeout, "sandbox.level": sandbox})
    reveal_date(config)  # "due" without a due date: refused before anything is graded
    submissions, skipped = find_class(paths, out)
    if config.late is not None:  # one submission graded alone is not its class: no note of who has none
        late, notes = name_students(config.late, [submission.student for submission in submissions],
                                    whole_class=len(submissions) > 1)
        config = dataclasses.replace(config, late=late)
        for line in notes:
            listener.noticed(line)
    for line in skipped:
        listener.skipped(line)
    chosen, notes = choose_commits(shard.select(submissions) if shard else submissions, at=at, latest=latest,
                                   own_deadline=lambda student, moment: own_deadline(config.late, student, moment))
    for line in notes:
        listener.noticed(line)
    listener.started(len(chosen))
    report = grade_into(chosen, out, config, jobs=jobs, force=force, progress=listener.graded, hold=hold)
    report.skipped = skipped
    if shard:
        write_manifest(out, shard, submissions)
    return report


def grade_submissions(submissions: list[Submission], config: Config, *, jobs: int, secrets: tuple[Path, ...] = (),
                      listener: Listener | None = None) -> list[GradeResult]:
    """Check the sandbox level, then grade the submissions in a scratch batch, writing no output folder."""
    listener = listener or Listener()
    require_due(config.late)
    level = choose_level(config.sandbox, allow_plain=config.allow_plain)
    listener.started(len(submissions))
    with scratch_folder() as scratch, open_batch(config, Path(scratch), secrets=secrets, level=level) as batch:
        return grade_all(submissions, batch, jobs=jobs, on_result=lambda result: listener.graded(result, False))


def check(*, config_path: Path | None = None, sandbox: str | None = None,
          listener: Listener | None = None) -> tuple[GradeResult, GradeResult]:
    """Grade the reference (must score full marks) and the starter (must score 0) through the real sandbox."""
    config = load_config(config_path, {"sandbox.level": sandbox})
    package_root = Path(__file__).resolve().parent.parent.parent
    with scratch_folder() as scratch:  # the reference, with the instructor's Part E tests beside it
        submissions = [Submission("reference", reference_with_tests(Path(scratch))),
                       Submission("starter", package_root / "starter")]
        reference, starter = grade_submissions(submissions, config, jobs=2, listener=listener)
    return reference, starter


def check_passed(reference: GradeResult, starter: GradeResult) -> bool:
    """The self-check's verdict on check's two results: the reference graded with full marks, the starter 0."""
    return reference.score == reference.max_score and starter.score == 0 and reference.outcome == "graded"
