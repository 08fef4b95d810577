"""One `war-grader grade` run into an output folder: find the class, keep the results that still stand,
grade the rest (each saved the moment it is graded), then rebuild grades.csv and the HTML from this batch."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import __version__
from ..config import Config
from ..output import OutputFolder, open_output
from ..report.html import ReportError, render_results, write_student_report
from ..results import GradeResult
from ..sandbox.guardian import guarded
from ..sandbox.isolation import choose_level
from ..submissions import Submission, find_submissions, submission_hash
from .runner import grade_all, open_batch, scratch_folder

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


Progress = Callable[[GradeResult, bool], None]
"""Hears each result as it is saved, with whether it was kept from an earlier run."""


def settings_digest(config: Config, level: str) -> str:
    """What a result depends on besides the submission: settings, sandbox level, the grader's own files."""
    digest = hashlib.sha256()
    settings = {key: value for key, value in dataclasses.asdict(config).items() if key != "sources"}
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
               progress: Progress = lambda result, kept: None) -> BatchReport:
    """Grade submissions into out: checked and locked first, results kept unless --force, class files last."""
    with open_output(out, students=len(submissions)) as output:
        level = choose_level(config.sandbox, allow_plain=config.allow_plain)
        settings = settings_digest(config, level)
        output.start_batch()
        results: dict[str, GradeResult] = {}
        todo: list[Submission] = []
        for submission in submissions:
            kept = None if force else _still_standing(output, submission, settings)
            if kept is None:
                todo.append(submission)
            else:
                results[submission.student] = kept
                progress(kept, True)

        rendered: set[str] = set()

        def save(result: GradeResult) -> None:
            output.save(result, settings)
            results[result.student] = result
            try:  # now, in the grading thread, rather than all at the end on one core
                write_student_report(out, result, view="student")
                rendered.add(result.student)
            except (OSError, ReportError):
                pass  # written with the others at the end, where a failure is reported
            progress(result, False)

        if todo:
            with guarded(), scratch_folder() as scratch, open_batch(config, Path(scratch),
                                                                secrets=(out, *(item.path for item in todo))) as batch:
                grade_all(todo, batch, jobs=jobs, on_result=save)
        ordered = [results[submission.student] for submission in submissions]
        report = BatchReport(ordered, kept=len(submissions) - len(todo))
        try:
            output.finish(ordered)
            render_results(out, ordered, view="student", rendered=frozenset(rendered))
        except OSError as error:
            report.write_error = f"cannot write {getattr(error, 'filename', None) or out}: {error.strerror or error}"
        except ReportError as error:
            report.write_error = str(error)
        return report


def _still_standing(output: OutputFolder, submission: Submission, settings: str) -> GradeResult | None:
    """The saved result of an earlier run, if this submission, grader and settings are what produced it."""
    if not output.has_saved(submission.student):
        return None
    return output.saved(submission.student, submission_hash(submission.path), settings)

