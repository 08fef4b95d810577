"""`war-grader classroom50 results`: each student's graded batch as Classroom 50's result.json, and a comment.md.

Offline: it reads OUT's last batch and, read-only through grader.git_read, each student's clone (the graded
commit's date and submit/ tag, and the baseline the review link compares from). The points are the grade's,
scaled as `export classroom50` scales them; hidden tests appear only by rule until [reveal] after has passed.
Every result.json is checked against the contract (classroom50_result) before it is written.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from ..config import Config, load_config
from ..git_read import (GitError, NoGit, commit_time, first_adding, first_parent_root, is_repository, subject_of,
                        tags_at)
from ..results import CATEGORY_TITLES, EARNING_OUTCOMES, GradeResult, write_atomically
from ..reveal import revealed
from .classroom import ExportError
from .classroom50 import NAME, scale_of
from .classroom50_result import SCHEMA, check_result_v1
from .gradebook import load_batch
from .student_markdown import code_block, literal, part_e_markdown, scenario_verdicts, test_markdown
from ..rubric import PART_E

LOGIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
"""A GitHub login: letters, digits and single hyphens inside, at most 39 characters."""

MARKER = "<!-- war-grader classroom50 {classroom}/{assignment} -->"
"""comment.md's first line: how publish finds its own comment again."""

COMMENT_LIMIT = 60_000
"""Most characters of comment.md (GitHub refuses comment bodies over 65,536)."""

FAILURES_LISTED = 10
"""Most visible failures listed in one category's result.json entry."""

SENTENCE = 300
"""Most characters of a failure's sentence in result.json."""

CONFIG_FILE = ".classroom50.yaml"
"""The file Classroom 50 adds to a student repository: the commit that added it is the review's baseline."""

BACKFILL_SUBJECT = "[Classroom 50] Add autograde workflow (enable-autograder)"
"""The subject of the commit by which Classroom 50 adds CONFIG_FILE to a repository accepted without one; its
runner then keeps the repository's root as the baseline, and so does war-grader."""

CSV_HEADER = ["login", "repository", "score", "max_score", "outcome", "submission", "commit", "late"]
"""results.csv's columns."""


@dataclass
class Classroom50Results:
    """What was written (by login) and the one line of each student refused."""

    written: dict[str, dict[str, Any]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)


def classroom50_results(out: Path, *, classroom_name: str, assignment: str, org: str, class_folder: Path, to: Path,
                        config_path: Path | None = None, server: str = "https://github.com",
                        now: datetime | None = None) -> Classroom50Results:
    """Write to/<login>/result.json and comment.md for each student of OUT's last batch, and to/results.csv."""
    for label, value in (("--classroom", classroom_name), ("--assignment", assignment)):
        if not NAME.fullmatch(value):
            raise ExportError(f"{label} {value!r}: a name of 2 to 39 lowercase letters, digits and hyphens")
    if not LOGIN.fullmatch(org):
        raise ExportError(f"--org {org!r}: not a GitHub organization name")
    if not class_folder.is_dir():
        raise ExportError(f"--class {class_folder}: no such folder (the clones the batch graded)")
    config = load_config(config_path)
    reveal = revealed(config, now)
    scale = scale_of(config.points)
    done = Classroom50Results()
    rows = []
    for result in load_batch(out):
        login = login_of(result.student, classroom_name, assignment)
        if login is None:
            done.refused.append(f"{result.student}: no GitHub login can be derived from this folder's name")
            continue
        if result.outcome == "grader_fault":
            done.refused.append(f"{result.student}: a grader fault; grade this student again first")
            continue
        repository = f"{classroom_name}-{assignment}-{login}".lower()
        try:
            data = result_v1(result, classroom_name=classroom_name, assignment=assignment, login=login,
                             clone=class_folder / result.student, repository_url=f"{server.rstrip('/')}/{org}/"
                             f"{repository}", config=config, scale=scale, reveal=reveal)
        except (GitError, NoGit) as error:
            done.refused.append(f"{result.student}: its clone cannot be read: {error}")
            continue
        problem = check_result_v1(data, classroom_name, assignment, login)
        if problem:
            raise ExportError(f"{result.student}: war-grader built a result.json Classroom 50 would refuse: {problem}")
        folder = to / login
        folder.mkdir(parents=True, exist_ok=True)
        write_atomically(folder / "result.json", (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode(
            "utf-8", errors="replace"))
        write_atomically(folder / "comment.md", comment_markdown(result, data, classroom_name, assignment,
                                                                reveal=reveal).encode("utf-8", errors="replace"))
        late = result.late is not None and result.late.late
        rows.append([login, repository, str(data["score"]), str(data["max-score"]), result.outcome,
                     data["submission"], result.commit, "yes" if late else "no"])
        done.written[login] = data
    to.mkdir(parents=True, exist_ok=True)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows([CSV_HEADER, *rows])
    write_atomically(to / "results.csv", text.getvalue().encode("utf-8"))
    return done


def login_of(student: str, classroom_name: str, assignment: str) -> str | None:
    """The login a submission folder names: SHORT-SLUG-<login> (compared without case) less its prefix, or the
    folder's name itself; None when that is no GitHub login."""
    prefix = f"{classroom_name}-{assignment}-"
    login = student[len(prefix):] if student.lower().startswith(prefix) else student
    return login if LOGIN.fullmatch(login) else None


def result_v1(result: GradeResult, *, classroom_name: str, assignment: str, login: str, clone: Path,
              repository_url: str, config: Config, scale: int, reveal: bool) -> dict[str, Any]:
    """The teacher-side result.json of one graded (or ungradable) submission."""
    graded_at = utc_stamp(datetime.fromisoformat(result.graded_at)) if result.graded_at else utc_stamp(
        datetime.now(UTC))
    if result.commit and is_repository(clone):
        sha = result.commit
        moment = datetime.fromtimestamp(commit_time(clone, sha), UTC)
        tags = tags_at(clone, sha, "submit/")
        submission = tags[0] if tags else (f"submit/war-grader-{moment.strftime('%Y-%m-%dT%H-%M-%SZ')}-{sha[:7]}")
        commit = f"{repository_url}/commit/{sha}"
        baseline = review_baseline(clone, sha)
        review = f"{repository_url}/compare/{baseline}...{sha}" if baseline and baseline != sha else commit
    else:
        moment = datetime.fromisoformat(result.graded_at) if result.graded_at else datetime.now(UTC)
        submission = f"submit/war-grader-{moment.astimezone(UTC).strftime('%Y-%m-%dT%H-%M-%SZ')}-0000000"
        commit = review = repository_url
    total = sum(_scaled(points, scale) for points in config.points.values() if points > 0)
    if result.outcome != "graded":
        tests: list[dict[str, Any]] = [{"test-name": "Not graded", "passed": False, "score": 0, "max-score": total,
                                        "reason": result.reason}]
        score = 0
    else:
        tests = [_category_entry(result, category.id, category.score, category.max_score, scale, reveal)
                 for category in result.categories]
        if result.late is not None and result.late.points_after != result.late.points_before:
            tests.append({"test-name": "Late penalty", "passed": False, "score": 0, "max-score": 0,
                          "points_before": round(result.late.points_before, 2),
                          "points_after": round(result.late.points_after, 2),
                          "penalty_percent": result.late.penalty_percent, "sentence": result.late.sentence})
            score = min(_scaled(result.score, scale), sum(test["max-score"] for test in tests))
        else:
            score = sum(test["score"] for test in tests)
    return {"schema": SCHEMA, "classroom": classroom_name, "assignment": assignment, "assignment_type": "individual",
            "owner": login, "submission": submission, "commit": commit, "release": commit, "review": review,
            "datetime": utc_stamp(moment), "graded_at": graded_at, "score": score,
            "max-score": sum(test["max-score"] for test in tests), "tests": tests}


def review_baseline(clone: Path, sha: str) -> str:
    """The commit the review compares from, as Classroom 50's runner picks it: the oldest commit on sha's
    first-parent line that added CONFIG_FILE, unless that is the enable-autograder backfill, else the root."""
    added = first_adding(clone, sha, CONFIG_FILE)
    if added and subject_of(clone, added) != BACKFILL_SUBJECT:
        return added
    return first_parent_root(clone, sha)


def utc_stamp(moment: datetime) -> str:
    """A moment as the contract writes it: UTC, to the second, with Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _scaled(points: float, scale: int) -> int:
    """points times the scale, rounded half up."""
    return int((Decimal(repr(points)) * scale).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _category_entry(result: GradeResult, category: str, score: float, max_score: float, scale: int,
                    reveal: bool) -> dict[str, Any]:
    """One category's entry: its scaled points, its hidden tests by rule (or in full once revealed), and the
    visible tests that lost points."""
    tests = [test for test in result.tests if test.category == category]
    maximum = _scaled(max_score, scale)
    entry: dict[str, Any] = {
        "test-name": CATEGORY_TITLES.get(category, category),
        "passed": all(test.outcome in EARNING_OUTCOMES for test in tests),
        "score": min(_scaled(score, scale), maximum), "max-score": maximum, "category": category,
        "points": round(score, 2), "max_points": round(max_score, 2)}
    if category == PART_E:
        part_e = result.student_tests
        entry["passed"] = score >= max_score
        if part_e is not None:
            entry.update(status=part_e.status, valid_tests=sum(test.valid for test in part_e.tests),
                         tests_found=len(part_e.tests), versions_caught=sum(chaff.caught for chaff in part_e.chaffs),
                         versions=len(part_e.chaffs))
            if part_e.note:
                entry["note"] = part_e.note
        return entry
    hidden = [test for test in tests if test.hidden]
    if reveal:
        entry["revealed"] = True
        entry["rules"] = [{"test": test.name, "passed": test.outcome in EARNING_OUTCOMES, "sentence": test.sentence}
                          for test in hidden]
    else:
        rules: dict[str, list[bool]] = {}
        for test in hidden:
            rules.setdefault(test.rule, []).append(test.outcome in EARNING_OUTCOMES)
        entry["rules"] = [{"rule": rule or "hidden tests", "passed": all(outcomes), "tests": len(outcomes)}
                          for rule, outcomes in rules.items()]
    entry["failures"] = [{"test": test.name, "sentence": test.sentence[:SENTENCE]} for test in tests
                         if not test.hidden and test.outcome not in EARNING_OUTCOMES][:FAILURES_LISTED]
    return entry


def comment_markdown(result: GradeResult, data: dict[str, Any], classroom_name: str, assignment: str, *,
                     reveal: bool) -> str:
    """The Feedback pull request's comment: the grade, the commit, the categories, hidden tests by rule, each
    visible failure in full, Part E, and the result.json; replay lines then tracebacks dropped when too long."""
    for keep in ("everything", "no replay", "no traceback"):
        text = _comment(result, data, classroom_name, assignment, reveal=reveal, keep=keep)
        if len(text) <= COMMENT_LIMIT:
            return text
    return text[:COMMENT_LIMIT - 200] + "\n\n(The rest of this report was cut: it is longer than a comment may be.)\n"


def _comment(result: GradeResult, data: dict[str, Any], classroom_name: str, assignment: str, *, reveal: bool,
             keep: str) -> str:
    """comment.md built keeping what keep says (everything, no replay lines, or no tracebacks either)."""
    parts = [MARKER.format(classroom=classroom_name, assignment=assignment),
             f"## War: final grade {result.score:g} / {result.max_score:g}"]
    sha = result.commit[:7] if result.commit else "none"
    parts.append(f"Graded commit `{sha}` of {data['datetime']}. {literal(result.provenance)}".rstrip())
    if result.outcome != "graded":
        parts.append(f"**Not graded:** {literal(result.reason)}")
    if result.late is not None and result.late.late:
        parts.append(f"**{literal(result.late.sentence)}**")
    if result.categories:
        rows = [f"| {literal(category.title)} | {category.score:g} / {category.max_score:g} |"
                for category in result.categories]
        parts.append("\n".join(["### Categories", "", "| Category | Points |", "| --- | --- |", *rows]))
    hidden = [test for test in result.tests if test.hidden]
    if hidden:
        lines = ["### Hidden tests"]
        if reveal:
            lines += [f"- {'passed' if test.outcome in EARNING_OUTCOMES else 'failed'}: {literal(test.name)}"
                      + ("" if test.outcome in EARNING_OUTCOMES else f": {literal(test.sentence)}") for test in hidden]
        else:
            rules: dict[tuple[str, str], list[bool]] = {}
            for test in hidden:
                rules.setdefault((test.category, test.rule), []).append(test.outcome in EARNING_OUTCOMES)
            lines += [f"- {'passed' if all(outcomes) else 'failed'}: {literal(CATEGORY_TITLES.get(category, category))}: "
                      f"{literal(rule or 'hidden tests')} ({len(outcomes)} test{'s' * (len(outcomes) != 1)})"
                      for (category, rule), outcomes in rules.items()]
        parts.append("\n".join(lines))
    failing = [test for test in result.tests if (reveal or not test.hidden) and test.category != PART_E
               and test.outcome not in EARNING_OUTCOMES]
    if failing:
        parts.append("### What failed")
        for test in failing:
            shown = test
            if keep != "everything":
                shown = _without(test, traceback=keep == "no traceback")
            parts.append(f"#### {literal(test.name)}\n\n{test_markdown(shown)}")
    if result.student_tests is not None:
        lines = ["### Your tests (Part E)", *part_e_markdown(result)]
        for scenario, said in scenario_verdicts(result).items():
            lines.append(f"**{literal(scenario)}**\n\n" + "\n".join(said))
        parts.append("\n\n".join(lines))
    if keep != "everything":
        parts.append("_Replay lines" + (" and tracebacks" if keep == "no traceback" else "")
                     + " were left out: the whole report was longer than a comment may be._")
    parts.append("<details><summary>result.json (Classroom 50 format)</summary>\n\n"
                 + code_block(json.dumps(data, indent=2, ensure_ascii=False), (40_000, 2_000), "json") + "\n\n</details>")
    return "\n\n".join(parts) + "\n"


def _without(test: Any, *, traceback: bool) -> Any:
    """test without its replay lines (and its traceback when traceback), for a comment that is too long."""
    exception = test.exception
    if traceback and exception is not None:
        exception = dataclasses.replace(exception, traceback="")
    return dataclasses.replace(test, reproduction="", exception=exception)
