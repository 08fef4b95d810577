"""HTML reports rendered from results.json alone: one page per student and a class overview (OUT/index.html).

Pages are self-contained (inline CSS and SVG, no script, nothing fetched from anywhere) and every piece of
text from a submission is escaped by jinja2's autoescape. The report_* modules beside this one prepare
numbers and text; the markup lives in grader/report/templates/.
"""

from __future__ import annotations

import functools
import os
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import jinja2
import markupsafe

from ..late import Lateness
from ..part_e.judge import CREDIT_RULE
from ..results import CATEGORY_TITLES, OUTCOMES, CategoryScore, GradeResult, write_atomically
from ..submissions import SIMILARITY_HTML
from .charts import category_bars, game_comparison, histogram
from .input import result_paths, try_load
from .page import WHOLE_OUTPUT_LIMIT, category_views, clip, file_view, losses, percent
from ..errors import UserError
from ..rubric import PART_E

CHANGES = "changes.csv"
"""OUT/changes.csv, written by a regrade that moved scores (grader/batch/changes.py); the index links it."""

VIEWS = ("student", "instructor")
"""student hides the names and details of hidden tests; instructor shows everything."""


class ReportError(UserError, ValueError):
    """Reports cannot be rendered as asked; the message is one line naming the file or folder."""


class UnreadableResults(ReportError):
    """Some results.json files could not be read; every other report and the index were still written."""

    def __init__(self, message: str, *, written: list[Path], unreadable: list[Path]) -> None:
        super().__init__(message)
        self.written = written
        """The pages that were written."""
        self.unreadable = unreadable
        """The results.json files left out."""


# ----------------------------------------------------------------------------------------------- pages


def render_reports(out: Path, *, view: str = "student", students: list[str] | None = None,
                   pages: Path | None = None, reveal: bool = False) -> list[Path]:
    """Re-render PAGES/<student>/report.html and PAGES/index.html from the saved results.json files alone.

    `students` names the folders to use (the last batch, as grades.csv lists it); None means every
    <student>/results.json in OUT. `pages` is where the pages go (default OUT itself; the instructor view
    goes to OUT/instructor so the students' pages stay). `reveal` shows the student view's hidden tests in full
    (the reveal date has passed). Returns the pages written. A results.json that cannot be read is
    skipped, listed in the index as "results unreadable", and reported by raising UnreadableResults after
    everything else is written.
    """
    _check_view(view)
    if not out.is_dir():
        raise ReportError(f"{out}: no such folder (expected the grader's output folder)")
    paths = sorted(result_paths(out, students), key=lambda path: path.parent.name.casefold())
    if not paths:
        raise ReportError(f"{out}: no <student>/results.json in it; grade some submissions first")
    written: list[Path] = []
    rows: list[_Entry] = []
    unreadable: list[tuple[Path, str]] = []
    for path in paths:
        result, problem = try_load(path)
        rows.append(
            _Entry(folder=path.parent.name, result=result, problem=f"{path.name}: {problem}" if problem else "")
        )
        if result is None:
            unreadable.append((path, problem))
        else:
            page = path.parent if pages is None else pages / path.parent.name
            written.append(_write(page / "report.html", render_student_report(result, view=view, reveal=reveal)))
    index = _write((pages or out) / "index.html",
                   _render_overview(rows, view=view, changes=changes_link(out, pages or out), revealed=reveal,
                                    similarity=similarity_link(out, pages or out, view)))
    written.append(index)
    if unreadable:
        path, problem = unreadable[0]
        more = f" (and {len(unreadable) - 1} more, listed in {index})" if len(unreadable) > 1 else ""
        raise UnreadableResults(
            _unreadable(path, problem) + more, written=written, unreadable=[path for path, _ in unreadable]
        )
    return written


def render_results(out: Path, results: list[GradeResult], *, view: str = "student",
                   rendered: frozenset[str] = frozenset(), reveal: bool = False) -> list[Path]:
    """OUT/<student>/report.html for each of these results (but the students in rendered, whose page was
    written as they were graded) and OUT/index.html for exactly them (one batch), linking OUT/changes.csv if
    there is one."""
    _check_view(view)
    written = [write_student_report(out, result, view=view, reveal=reveal) for result in results
               if result.student not in rendered]
    written.append(_write(out / "index.html", render_class_overview(results, view=view, revealed=reveal,
                                                                    changes=changes_link(out, out),
                                                                    similarity=similarity_link(out, out, view))))
    return written


def changes_link(out: Path, pages: Path) -> str | None:
    """The link from the index in pages to OUT/changes.csv (what the last regrade moved), None without one."""
    if not (out / CHANGES).is_file():
        return None
    return "./" + quote(os.path.relpath(out / CHANGES, pages))


def similarity_link(out: Path, pages: Path, view: str) -> str | None:
    """The link from the instructor view's index in pages to OUT/similarity.html (`war-grader similarity`), None
    without one, and always None in the student view: the page is the instructor's alone."""
    if view != "instructor" or not (out / SIMILARITY_HTML).is_file():
        return None
    return "./" + quote(os.path.relpath(out / SIMILARITY_HTML, pages))


def write_student_report(out: Path, result: GradeResult, *, view: str = "student", reveal: bool = False) -> Path:
    """OUT/<student>/report.html for one result, written atomically."""
    return _write(out / result.student / "report.html", render_student_report(result, view=view, reveal=reveal))


def render_student_report(result: GradeResult, *, view: str = "student", reveal: bool = False) -> str:
    """One student's report.html: header, category scores with their tests, coverage and the telemetry plot.

    `reveal` (the student view once the reveal date has passed) shows the hidden tests as the instructor view
    does: names, sentences, expected beside actual, what was raised and the lines that replay them; never the
    whole captured output, the test ids or their timings, which stay the instructor's.
    """
    _check_view(view)
    instructor = view == "instructor"
    shows_hidden = instructor or reveal
    return (
        _environment()
        .get_template("report.html")
        .render(
            result=result,
            view=view,
            instructor=instructor,
            revealed=reveal and not instructor,
            total_percent=percent(result.score, result.max_score),
            categories=category_views(result, instructor=shows_hidden),
            losses=losses(result, instructor=shows_hidden) if result.outcome == "graded" else [],
            files=[file_view(file) for file in result.coverage],
            game=game_comparison(result.telemetry) if result.telemetry else None,
            telemetry=result.telemetry,
            output=clip(result.output, WHOLE_OUTPUT_LIMIT) if instructor and result.output else None,
            graded_at=_when(result.graded_at),
            submitted_at=_as_written(result.submitted_at),
            due_at=_as_written(result.late.due) if result.late else "",
            part_e_rule=CREDIT_RULE,
        )
    )


def render_class_overview(results: list[GradeResult], *, view: str = "student", changes: str | None = None,
                          revealed: bool = False, similarity: str | None = None) -> str:
    """OUT/index.html for these results: a table linking to each <student>/report.html, and the class's charts;
    `changes` is the link to changes.csv, if the batch moved scores; `revealed` says the reports show hidden tests;
    `similarity` is the link to similarity.html, shown in the instructor view only."""
    _check_view(view)
    return _render_overview([_Entry(folder=result.student, result=result, problem="") for result in results],
                            view=view, changes=changes, revealed=revealed, similarity=similarity)


def load_result(path: Path) -> GradeResult:
    """Read one results.json for rendering; ReportError naming the file if it cannot be read or is malformed."""
    result, problem = try_load(path)
    if result is None:
        raise ReportError(_unreadable(path, problem))
    return result


def _unreadable(path: Path, problem: str) -> str:
    """The one-line message for a results.json that cannot be used."""
    return f"{path}: results unreadable ({problem})"


def _write(path: Path, html: str) -> Path:
    """Write a page atomically; ReportError naming it if it cannot be written."""
    try:
        write_atomically(path, html.encode("utf-8", errors="replace"))
    except OSError as error:
        raise ReportError(f"{path}: cannot write the report ({error.strerror or error})") from None
    return path


def _check_view(view: str) -> None:
    """ReportError unless view is one of VIEWS."""
    if view not in VIEWS:
        raise ReportError(f"view {view!r} is not one of {', '.join(VIEWS)}")


# --------------------------------------------------------------------------------------- class overview


@dataclass(frozen=True)
class _Entry:
    """One student folder found for the overview: its result, or why it has none."""

    folder: str
    result: GradeResult | None
    problem: str


@dataclass(frozen=True)
class OverviewRow:
    """One student's row of the class table."""

    student: str
    href: str | None
    """Relative link to the student's report.html, or None when there is none."""
    outcome: str
    """One of OUTCOMES, or "unreadable"."""
    reason: str
    score: float
    max_score: float
    categories: list[CategoryScore | None]
    """One per column of the table, None where the result has no such category."""
    late: Lateness | None = None
    """The late policy's verdict, shown as a mark beside the total when the submission was late."""


def _render_overview(entries: list[_Entry], *, view: str, changes: str | None = None, revealed: bool = False,
                     similarity: str | None = None) -> str:
    """The class overview for these entries."""
    columns = list(CATEGORY_TITLES)
    for entry in entries:
        for category in entry.result.categories if entry.result else []:
            if category.id not in columns:
                columns.append(category.id)
    rows = [_overview_row(entry, columns) for entry in entries]
    urgency = {"unreadable": 0, "grader_fault": 1, "ungradable": 2}
    rows.sort(key=lambda row: (urgency.get(row.outcome, 3), row.student.casefold()))
    graded = [entry.result for entry in entries if entry.result and entry.result.outcome == "graded"]
    percents = [percent(result.score, result.max_score) for result in graded]
    averages = []
    for column in columns:
        earned = [c for result in graded for c in result.categories if c.id == column]
        if earned:
            averages.append(
                (
                    CATEGORY_TITLES.get(column, earned[0].title),
                    percent(sum(c.score for c in earned), sum(c.max_score for c in earned)),
                )
            )
    template = _environment().get_template("index.html")
    rules, diagnoses, chaffs = class_misses(graded)
    return template.render(
        missed_rules=rules,
        missed_diagnoses=diagnoses,
        missed_chaffs=chaffs,
        graded_count=len(graded),
        view=view,
        changes=changes,
        similarity=similarity if view == "instructor" else None,
        revealed=revealed,
        rows=rows,
        columns=[(column, CATEGORY_TITLES.get(column, column)) for column in columns],
        counts={outcome: sum(row.outcome == outcome for row in rows) for outcome in (*OUTCOMES, "unreadable")},
        mean=statistics.fmean(percents) if percents else None,
        median=statistics.median(percents) if percents else None,
        histogram=histogram(percents) if percents else None,
        averages=category_bars(averages) if averages else None,
        lowest=min(averages, key=lambda pair: pair[1]) if len(averages) > 1 else None,
    )


MISSES_SHOWN = 8
"""How many of the class's most missed rules, diagnoses and chaffs the class overview lists."""


def class_misses(graded: list[GradeResult]) -> tuple[list[tuple[str, str, int]], list[tuple[str, int]],
                                                     list[tuple[str, int, int]]]:
    """What most of the class got wrong: the rules that cost the most submissions points (rule, category, how
    many), the diagnoses most often given (sentence, how many), and the chaffs the students' own tests missed
    most often (misconception, missed by, graded by)."""
    rules: Counter[tuple[str, str]] = Counter()
    diagnoses: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    judged: Counter[str] = Counter()
    for result in graded:
        rules.update({(test.rule or test.name, CATEGORY_TITLES.get(test.category, test.category))
                      for test in result.tests if test.category != PART_E and test.score < test.max_score})
        diagnoses.update({category.diagnosis for category in result.categories if category.diagnosis})
        own = result.student_tests
        judged_suite = own is not None and own.status == "graded" and not own.invalid and not own.untrusted
        # a suite that counts for nothing missed no chaff itself
        for chaff in own.chaffs if judged_suite and own is not None else []:
            judged[chaff.misconception] += 1
            missed[chaff.misconception] += not chaff.caught
    return ([(rule, title, count) for (rule, title), count in rules.most_common(MISSES_SHOWN)],
            diagnoses.most_common(MISSES_SHOWN),
            [(misconception, count, judged[misconception])
             for misconception, count in missed.most_common(MISSES_SHOWN) if count])


def _overview_row(entry: _Entry, columns: list[str]) -> OverviewRow:
    """An entry as a table row."""
    result = entry.result
    if result is None:
        return OverviewRow(entry.folder, None, "unreadable", entry.problem, 0, 0, [None] * len(columns))
    scores = {category.id: category for category in result.categories}
    return OverviewRow(
        student=result.student,
        href="./" + quote(entry.folder, safe="") + "/report.html",
        outcome=result.outcome,
        reason=result.reason,
        score=result.score,
        max_score=result.max_score,
        categories=[scores.get(column) for column in columns],
        late=result.late,
    )


# ---------------------------------------------------------------------------------------------- helpers


def _points(value: float) -> str:
    """Points as written in the reports: at most two decimals, no trailing zeros."""
    return f"{round(value, 2):g}"


def _when(stamp: str) -> str:
    """An ISO 8601 time as "2026-05-09 14:03 UTC", or the text unchanged if it is not one."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M") + (" UTC" if moment.tzinfo is not None else "")


def _as_written(stamp: str) -> str:
    """An ISO 8601 time in its own offset, as "2026-12-01 23:59 (UTC-05:00)": a due date or a commit's time reads
    as the instructor or the student wrote it; the text unchanged if it is not one."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    offset = moment.strftime("%z")
    if not offset:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.strftime("%Y-%m-%d %H:%M") + (" UTC" if offset == "+0000" else f" (UTC{offset[:3]}:{offset[3:]})")


@functools.cache
def _environment() -> jinja2.Environment:
    """The template environment: grader/report/templates, autoescape everywhere, an undefined name an error."""
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("grader.report", "templates"),
        autoescape=True,
        auto_reload=False,  # the templates ship with the package: no stat of every file at every include
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["points"] = _points
    environment.filters["percent"] = lambda value: f"{value:.0f}%"
    environment.filters["plural"] = plural
    environment.filters["breakable"] = breakable
    return environment


def breakable(name: str) -> markupsafe.Markup:
    """A student's name, escaped, that a narrow column breaks after its _, - and . rather than mid-word."""
    return markupsafe.Markup(re.sub(r"([_.-]+)", r"\1<wbr>", str(markupsafe.escape(name))))


def plural(count: int, noun: str) -> str:
    """"1 card", "2 cards", "0 cards": a count with its noun, whose last word takes an s unless the count is 1."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
