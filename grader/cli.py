"""The war-grader command line: grade, check, report, merge, export. It parses and prints; grader.batch works."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, Sequence

from . import __version__
from .batch import (INSTRUCTOR_FOLDER, LEVELS, MAX_JOBS, BatchReport, Listener, Shard, UsageError, check, check_passed,
                    grade_run, junit, merge_run, parse_deadline, render, reveal_set)
from .config import CLI_HELP
from .errors import InternalError, UserError
from .export.classroom import export_classroom
from .export.classroom50 import DEFAULT_ASSIGNMENT as CLASSROOM50_ASSIGNMENT, export_classroom50
from .export.classroom50_publish import DEFAULT_API, publish as classroom50_publish
from .export.classroom50_results import classroom50_results
from .export.gradebook import DEFAULT_ASSIGNMENT, FORMATS, export_grades, summary as gradebook_summary, write_export
from .export.gradescope import export_gradescope
from .results import CATEGORY_TITLES, GradeResult
from .similarity import SimilarityReport, similarity_run

CLASSROOM_RETIRED = "2026-08-28"
"""The day GitHub Classroom was retired: `export classroom` says so, and points at `export classroom50`."""

EXIT_OK, EXIT_FAULT, EXIT_USAGE = 0, 1, 2
"""0: every submission graded (whatever the scores); 1: some hit a fault of the grader's; 2: bad usage."""


class Progress(Listener):
    """A progress bar on a terminal; one plain line per submission in CI or a pipe; skipped entries always."""

    def __init__(self, *, quiet: bool) -> None:
        self.total, self.done, self.quiet = 0, 0, quiet
        self.bar = sys.stderr.isatty() and not os.environ.get("CI") and not quiet

    def skipped(self, line: str) -> None:
        print(printable(f"war-grader: skipped {line}"), file=sys.stderr)

    def noticed(self, line: str) -> None:
        print(printable(f"war-grader: {line}"), file=sys.stderr)

    def started(self, total: int) -> None:
        self.total, self.done = total, 0

    def graded(self, result: GradeResult, kept: bool) -> None:
        self.done += 1
        if self.quiet:
            return
        if self.bar:
            width = 30
            filled = width * self.done // self.total
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                             f"{printable(result.student[:30]):<30}")
            if self.done == self.total:
                sys.stderr.write("\n")
            sys.stderr.flush()
        else:
            verb = "kept" if kept else "graded"
            print(printable(f"{verb} {self.done}/{self.total}: {result.student}: {_summary_score(result)}"
                            + (" (unchanged since the last run)" if kept else "")),
                  file=sys.stderr, flush=True)


def printable(text: str) -> str:
    """Text safe for a terminal: control characters (escape sequences, carriage returns) shown as escapes."""
    return "".join(char if char.isprintable() or char == "\n" else repr(char)[1:-1] for char in text)


def _summary_score(result: GradeResult) -> str:
    if result.outcome == "graded":
        return f"{result.score:g} / {result.max_score:g}"
    return f"{result.outcome.replace('_', ' ')}: {result.reason}"


def summary(results: list[GradeResult], out: Path, *, kept: int = 0) -> str:
    """A one-screen summary of a grading run."""
    graded = [r for r in results if r.outcome == "graded"]
    lines = [f"{len(results)} submission{'s' * (len(results) != 1)}: {len(graded)} graded, "
             f"{sum(r.outcome == 'ungradable' for r in results)} ungradable, "
             f"{sum(r.outcome == 'grader_fault' for r in results)} grader faults"]
    if kept:
        lines.append(f"{kept} kept from the last run (same submission, grader and settings; --force regrades)")
    if graded:
        scores = sorted(r.score for r in graded)
        lines.append(f"scores: min {scores[0]:g}, median {scores[len(scores) // 2]:g}, max {scores[-1]:g} "
                     f"(out of {graded[0].max_score:g})")
        for category, title in CATEGORY_TITLES.items():
            earned = sum(c.score for r in graded for c in r.categories if c.id == category)
            available = sum(c.max_score for r in graded for c in r.categories if c.id == category)
            if available:
                lines.append(f"  {title:<24} class average {100 * earned / available:5.1f}%")
    late = [r for r in results if r.late is not None and r.late.late]
    if late:
        lines.append(f"{len(late)} late: {sum(r.late.penalty_percent > 0 for r in late if r.late)} with a penalty, "
                     f"{sum(r.late.cut_off for r in late if r.late)} after the cut-off (scored 0)")
    for result in results:
        if result.outcome != "graded":
            lines.append(f"  {result.student}: {result.outcome.replace('_', ' ')}: {result.reason}")
    lines.append(f"results in {out}/: index.html, grades.csv, <student>/results.json and report.html")
    return printable("\n".join(lines))


def changes_line(report: BatchReport, out: Path) -> str:
    """What a regrade moved, in one line ending in a newline (pointing at OUT/changes.csv); "" if it regraded no
    one graded before."""
    if not report.regraded:
        return ""
    if not report.changes:
        return printable(f"no score changed: {report.regraded} student{'s' * (report.regraded != 1)} regraded "
                         f"(see {out}/changes.csv)") + "\n"
    count = len(report.changes)
    return printable(f"{count} score{'s' * (count != 1)} changed: see {out}/changes.csv") + "\n"


def held_lines(report: BatchReport) -> str:
    """The students --hold held back from grades.csv, and its ids that name no one, each line ending in a newline;
    "" without --hold."""
    lines = []
    if report.held:
        count = len(report.held)
        lines.append(f"{count} held back by --hold (grades.csv has their row without a score):")
        lines += [f"  {line}" for line in report.held]
    if report.hold_unmatched:
        lines.append("--hold names no student of this batch: " + ", ".join(report.hold_unmatched))
    return "".join(printable(line) + "\n" for line in lines)


def results_json(report: BatchReport) -> str:
    """grade's and merge's --json: each student's results.json, and for a student whose score this regrade
    moved, a "change" (before, after, the rules whose outcome changed), as in OUT/changes.csv."""
    moved = {change.student: {"before": change.before, "after": change.after, "rules_changed": change.rules_changed}
             for change in report.changes}
    return json.dumps([{**result.to_json(), **({"change": moved[result.student]} if result.student in moved else {})}
                       for result in report.results], indent=2)


def build_parser() -> argparse.ArgumentParser:
    """war-grader's arguments."""
    parser = argparse.ArgumentParser(prog="war-grader", description="Grade War assignments against hidden suites, "
                                     "with student code in a sandbox.")
    parser.add_argument("--version", action="version", version=f"war-grader {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_grade(commands)
    _add_check(commands)
    _add_report(commands)
    _add_similarity(commands)
    _add_merge(commands)
    _add_classroom50(commands)
    _add_export(commands)
    return parser


def _add_grade(commands: Any) -> None:
    """`war-grader grade`: grade submissions or a class."""
    grade_parser = commands.add_parser("grade", help="grade submissions", description="Grade one submission (a "
                                       "folder, .zip or .py file) or a folder of them, one per student.")
    grade_parser.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                              help="a submission (folder, .zip, .py) or a class folder whose child folders, "
                              "zips and .py files are submissions")
    grade_parser.add_argument("--out", type=Path, default=Path("reports"), help="output folder (default reports)")
    grade_parser.add_argument("--jobs", type=_jobs, default=min(os.cpu_count() or 1, MAX_JOBS),
                              help=f"submissions graded at once, 1 to {MAX_JOBS} (default: the number of cores)")
    grade_parser.add_argument("--timeout", type=float, metavar="SECONDS", help=CLI_HELP["limits.call_timeout"])
    grade_parser.add_argument("--config", type=Path, help="a grading.toml overriding the defaults")
    grade_parser.add_argument("--sandbox", choices=("auto", *LEVELS), help=CLI_HELP["sandbox.level"])
    grade_parser.add_argument("--force", action="store_true", help="regrade every student, even those whose "
                              "saved result still stands (same submission, grader and settings)")
    grade_parser.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    grade_parser.add_argument("--shard", type=_shard, metavar="I/N", help="grade only slice I of N of the class "
                              "(by a hash of each student's name); combine the slices with `war-grader merge`")
    grade_parser.add_argument("--junit", type=Path, metavar="FILE", help="also write JUnit XML for a CI's test tab")
    grade_parser.add_argument("--at", metavar="DEADLINE", help="grade each git clone's last commit at or before "
                              "DEADLINE by committer date (ISO 8601 with an offset, e.g. 2026-12-01T23:59-05:00)")
    grade_parser.add_argument("--latest", action="store_true", help="grade each git clone's last commit, its "
                              "committer date the submission time")
    grade_parser.add_argument("--hold", type=Path, metavar="FILE", help=HOLD_HELP)


def _add_check(commands: Any) -> None:
    """`war-grader check`: the self-test."""
    check_parser = commands.add_parser("check", help="self-test: reference scores full marks, starter 0",
                                       description="Grade the reference (must score full marks) and the starter "
                                       "(must score 0) through the real sandbox.")
    check_parser.add_argument("--config", type=Path, help="a grading.toml overriding the defaults")
    check_parser.add_argument("--sandbox", choices=("auto", *LEVELS), help=CLI_HELP["sandbox.level"])
    check_parser.add_argument("--json", action="store_true", help="print both scores as JSON")


def _add_report(commands: Any) -> None:
    """`war-grader report`: the HTML reports again from saved results."""
    report_parser = commands.add_parser("report", help="re-render the HTML reports from saved results",
                                        description="Render OUT/<student>/report.html and OUT/index.html from "
                                        "the results.json files, without regrading.")
    report_parser.add_argument("out", type=Path, metavar="OUT")
    report_parser.add_argument("--view", choices=("student", "instructor"), default="student")
    report_parser.add_argument("--config", type=Path, help="your grading.toml: once its [reveal] date has passed, "
                               "the student view shows hidden tests in full")


def _add_similarity(commands: Any) -> None:
    """`war-grader similarity`: the class's code compared."""
    similarity_parser = commands.add_parser(
        "similarity", help="compare the students' code with one another, the reference and past classes",
        description="Read a class as grade does and compare each student's own package code (Part E tests and "
        "public test files left out, the starter's code and code most of the class shares discounted) with every "
        "other student's, the reference's and each past class's; write OUT/similarity.json and the instructor's "
        "OUT/similarity.html. A score is evidence for a person to weigh, never a verdict (docs/similarity.md).")
    similarity_parser.add_argument("paths", nargs="+", type=Path, metavar="CLASS",
                                   help="a class folder (or submissions), read as grade reads it")
    similarity_parser.add_argument("--out", type=Path, default=Path("reports"),
                                   help="where similarity.json and similarity.html go (default reports)")
    similarity_parser.add_argument("--config", type=Path, help="a grading.toml (zip limits, [late] extensions "
                                   "for --at)")
    similarity_parser.add_argument("--past", type=Path, nargs="+", action="extend", default=[], metavar="PAST_CLASS",
                                   help="a past class's folder, read as grade reads a class; each student is "
                                   "compared with it one way")
    similarity_parser.add_argument("--at", metavar="DEADLINE", help="read each git clone at its last commit at or "
                                   "before DEADLINE, as grade --at does")
    similarity_parser.add_argument("--latest", action="store_true", help="read each git clone at its last commit")


def _add_merge(commands: Any) -> None:
    """`war-grader merge`: the shards of one class combined."""
    merge_parser = commands.add_parser("merge", help="combine the outputs of `grade --shard i/n` runs",
                                       description="Combine the --out folders of every shard of one class into one "
                                       "grades.csv, results.json per student and index.html, in class order.")
    merge_parser.add_argument("shards", nargs="+", type=Path, metavar="SHARD_OUT", help="a shard's output folder")
    merge_parser.add_argument("--out", type=Path, default=Path("reports"), help="merged folder (default reports)")
    merge_parser.add_argument("--junit", type=Path, metavar="FILE", help="also write JUnit XML for a CI's test tab")
    merge_parser.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    merge_parser.add_argument("--config", type=Path, help="your grading.toml: once its [reveal] date has passed, "
                              "the student view shows hidden tests in full")
    merge_parser.add_argument("--hold", type=Path, metavar="FILE", help=HOLD_HELP)


def _add_classroom50(commands: Any) -> None:
    """`war-grader classroom50 results|publish`: the teacher's side of Classroom 50."""
    c50_parser = commands.add_parser("classroom50", help="Classroom 50: each student's graded result as its "
                                     "result.json and a Feedback comment", description="The teacher's side of "
                                     "Classroom 50, after `grade`: see docs/classroom50.md.")
    c50_commands = c50_parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    c50_results = c50_commands.add_parser("results", help="write each student's result.json and comment.md",
                                          description="From OUT's last batch and the clones it graded, write "
                                          "DIR/<login>/result.json (Classroom 50's format, checked before it is "
                                          "written), DIR/<login>/comment.md and DIR/results.csv. Offline.")
    c50_results.add_argument("out", type=Path, metavar="OUT", help="the --out folder of `war-grader grade`")
    c50_results.add_argument("--classroom", required=True, metavar="SHORT", help="the classroom's short name")
    c50_results.add_argument("--assignment", required=True, metavar="SLUG", help="the assignment's slug")
    c50_results.add_argument("--org", required=True, metavar="ORG", help="the GitHub organization")
    c50_results.add_argument("--class", dest="class_folder", required=True, type=Path, metavar="CLONES",
                             help="the folder of the clones graded (class/<login> or SHORT-SLUG-<login>)")
    c50_results.add_argument("--to", required=True, type=Path, metavar="DIR", help="where to write")
    c50_results.add_argument("--config", type=Path, help="your grading.toml (points, [reveal])")
    c50_results.add_argument("--server", default="https://github.com", metavar="URL",
                             help="the GitHub server the links name (default https://github.com)")
    c50_publish = c50_commands.add_parser("publish", help="post each comment.md on the student's Feedback pull "
                                          "request", description="Post DIR/<login>/comment.md as a comment on "
                                          "the Feedback pull request of SHORT-SLUG-<login> (editing war-grader's "
                                          "earlier comment in place), with the token in GH_TOKEN or GITHUB_TOKEN.")
    c50_publish.add_argument("folder", type=Path, metavar="DIR", help="the --to folder of `classroom50 results`")
    c50_publish.add_argument("--org", required=True, metavar="ORG", help="the GitHub organization")
    c50_publish.add_argument("--classroom", required=True, metavar="SHORT", help="the classroom's short name")
    c50_publish.add_argument("--assignment", required=True, metavar="SLUG", help="the assignment's slug")
    c50_publish.add_argument("--dry-run", action="store_true", help="only read, and print what would be posted")
    c50_publish.add_argument("--api-url", metavar="URL", help=f"the REST API's base (default: GITHUB_API_URL, else "
                             f"{DEFAULT_API})")


def _add_export(commands: Any) -> None:
    """`war-grader export TARGET`: the assignment or its grades for a platform."""
    export_parser = commands.add_parser("export", help="write a Classroom 50 assignment, a Gradescope autograder "
                                        "or grades for Canvas, Moodle or a spreadsheet",
                                        description="Package the assignment for the platform the class lives on, "
                                        "or its grades for the gradebook.")
    targets = export_parser.add_subparsers(dest="target", required=True, metavar="TARGET")
    classroom50_parser = targets.add_parser("classroom50", help="a Classroom 50 assignment: template, public "
                                            "bundle, runtime and the private grading workflow",
                                            description="Write a Classroom 50 assignment into OUT: the template "
                                            "repository (no .github/), the public autograder bundle (the public "
                                            "tests only, scored per category in each student's repository), "
                                            "runtime.json and the teacher's grading workflow for the hidden suites. "
                                            "OUT/README.md lists the steps.")
    classroom50_parser.add_argument("folder", type=Path, metavar="OUT", help="a new or empty folder")
    classroom50_parser.add_argument("--classroom", required=True, metavar="SHORT", help="the classroom's short name")
    classroom50_parser.add_argument("--assignment", default=CLASSROOM50_ASSIGNMENT, metavar="SLUG",
                                    help=f"the assignment's slug (default {CLASSROOM50_ASSIGNMENT})")
    classroom50_parser.add_argument("--org", metavar="ORG", help="the GitHub organization, filled into the README's "
                                    "commands and the workflow (default: the placeholder ORG)")
    classroom50_parser.add_argument("--config", type=Path, help="your grading.toml: each category's points, scaled "
                                    "to whole numbers (default: the built-in settings)")
    classroom_parser = targets.add_parser("classroom", help="(retired with GitHub Classroom: use classroom50) a "
                                          "GitHub Classroom template repository",
                                          description="Deprecated: GitHub Classroom was retired on "
                                          f"{CLASSROOM_RETIRED}; use `export classroom50`. "
                                          "Write a template repository: the starter package, "
                                          "ASSIGNMENT.md as README.md, the public tests (plain pytest against "
                                          "./starter) and an autograding workflow with a step per category of "
                                          "the grade. No hidden suite goes in.")
    classroom_parser.add_argument("folder", type=Path, metavar="DIR", help="a new or empty folder")
    classroom_parser.add_argument("--config", type=Path, help="your grading.toml: each category's points become its "
                                  "workflow step's (default: the built-in settings)")
    gradescope_parser = targets.add_parser("gradescope", help="a Gradescope autograder zip",
                                           description="Write Gradescope's autograder format: setup.sh, "
                                           "run_autograder, the grader as a bundled wheel and your settings.")
    gradescope_parser.add_argument("zip", type=Path, metavar="FILE.zip", help="the zip to write")
    gradescope_parser.add_argument("--config", type=Path, help="your grading.toml (default: the built-in settings)")
    grades_parser = targets.add_parser("grades", help="a graded batch as Canvas's or Moodle's import CSV, or "
                                       "per test", description="Write the grades of OUT's last batch as Canvas's "
                                       "gradebook import CSV, Moodle's grade import CSV or a per-test CSV, mapping "
                                       "submissions to the students of a roster; the summary names submissions "
                                       "without a student and students without a submission (exported with 0).")
    grades_parser.add_argument("out", type=Path, metavar="OUT", help="the --out folder of `war-grader grade`")
    grades_parser.add_argument("--format", required=True, choices=FORMATS, help="canvas, moodle or csv (per test)")
    grades_parser.add_argument("--roster", type=Path, metavar="FILE", help="a CSV id,name,email,github,section "
                               "(needed for canvas and moodle)")
    grades_parser.add_argument("--to", type=Path, metavar="FILE", help="write there (default: standard output)")
    grades_parser.add_argument("--assignment", default=DEFAULT_ASSIGNMENT, metavar="NAME",
                               help=f"the gradebook column's name (default {DEFAULT_ASSIGNMENT})")
    grades_parser.add_argument("--hold", type=Path, metavar="FILE", help="a CSV id,reason of students whose grade "
                               "is held back while a case is pending: left out of canvas and moodle, no points in csv")


HOLD_HELP = ("a CSV id,reason of students whose grade is held back while a case is pending: grades.csv keeps their "
             "row without a score (outcome held)")
"""--hold's help on grade and merge."""


def _jobs(text: str) -> int:
    """argparse's reading of --jobs: a whole number from 1 to MAX_JOBS, refused under grade's own usage."""
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MAX_JOBS}, not {text!r}") from None
    if not 1 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_JOBS}, not {jobs}")
    return jobs


def _shard(text: str) -> Shard:
    """argparse's reading of --shard I/N."""
    try:
        return Shard.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; one line on stderr and a non-zero status for anything the user can fix."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "grade":
            return _grade_command(args)
        if args.command == "check":
            reference, starter = check(config_path=args.config, sandbox=args.sandbox,
                                       listener=Progress(quiet=args.json))
            ok = check_passed(reference, starter)
            if args.json:
                print(json.dumps({"reference": reference.score, "starter": starter.score,
                                  "max_score": reference.max_score, "ok": ok, "sandbox": reference.sandbox,
                                  "sandbox_warning": reference.sandbox_warning}))
            else:
                print(f"reference: {reference.score:g} / {reference.max_score:g} (must be full marks)")
                print(f"starter:   {starter.score:g} / {starter.max_score:g} (must be 0)")
                print(printable(f"sandbox:   {reference.sandbox}" +
                                (f" ({reference.sandbox_warning})" if reference.sandbox_warning else "")))
                for result in (reference, starter):
                    for test in result.tests:
                        if (test.outcome == "passed") != (result is reference):
                            print(printable(f"  {result.student}: {test.id}: {test.outcome}: {test.sentence}"))
                print("check passed" if ok else "check FAILED")
            return EXIT_OK if ok else EXIT_FAULT
        if args.command == "merge":
            merged = merge_run(args.shards, args.out, reveal=reveal_set(args.config), hold_path=args.hold)
            results = merged.results
            if args.junit:
                junit(results, args.junit)
            if args.json:
                print(results_json(merged))
            else:
                print(summary(results, args.out))
                print(changes_line(merged, args.out), end="")
                print(held_lines(merged), end="")
            return EXIT_FAULT if any(r.outcome == "grader_fault" for r in results) else EXIT_OK
        if args.command == "export":
            return _export(args)
        if args.command == "similarity":
            return _similarity(args)
        if args.command == "classroom50":
            return _classroom50_results(args) if args.action == "results" else _classroom50_publish(args)
        if args.command == "report":
            reveal = args.view == "student" and reveal_set(args.config)
            written = render(args.out, args.view, reveal=reveal)
            where = args.out / INSTRUCTOR_FOLDER if args.view == "instructor" else args.out
            print(f"rendered {len(written)} pages of the {args.view} view in {where}/"
                  + (" (hidden tests revealed: the [reveal] date has passed)" if reveal else ""))
            return EXIT_OK
    except UserError as error:
        print(printable(f"war-grader: {error}"), file=sys.stderr)
        return EXIT_USAGE
    except InternalError as error:
        print(printable(f"war-grader: {error}"), file=sys.stderr)
        return EXIT_FAULT
    except OSError as error:  # the disk failed mid-batch (full): every results.json saved so far is kept
        where = f"{error.filename}: " if error.filename else ""
        print(printable(f"war-grader: {where}{error.strerror or error}; every result saved before it is kept, "
                        "run the same command again to finish"), file=sys.stderr)
        return EXIT_FAULT
    except KeyboardInterrupt:
        print("war-grader: interrupted; every result finished before it is saved, run the same command again "
              "to grade the rest", file=sys.stderr)
        return 130
    return EXIT_USAGE


def _grade_command(args: argparse.Namespace) -> int:
    """grade: run, then the JSON or the summary; a class file that could not be written is one line, status 1."""
    previous = signal.signal(signal.SIGTERM, _stop)  # kill (SIGTERM) stops as cleanly as Ctrl-C
    try:
        report = grade_run(paths=args.paths, out=args.out, jobs=args.jobs, config_path=args.config,
                           timeout=args.timeout, sandbox=args.sandbox, force=args.force, shard=args.shard,
                           listener=Progress(quiet=args.json), latest=args.latest,
                           at=None if args.at is None else parse_deadline(args.at), hold_path=args.hold)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if args.junit:
        junit(report.results, args.junit)
    if args.json:
        print(results_json(report))
    else:
        print(summary(report.results, args.out, kept=report.kept))
        print(changes_line(report, args.out), end="")
        print(held_lines(report), end="")
    if report.write_error:
        print(printable(f"war-grader: {report.write_error}; every results.json is saved, run the same command "
                        "again to rebuild the rest"), file=sys.stderr)
        return EXIT_FAULT
    return EXIT_FAULT if any(r.outcome == "grader_fault" for r in report.results) else EXIT_OK


class SimilarityProgress:
    """similarity's progress: a bar on a terminal (not in CI), nothing in a pipe."""

    def __init__(self) -> None:
        self.bar = sys.stderr.isatty() and not os.environ.get("CI")

    def __call__(self, done: int, total: int, student: str) -> None:
        if not self.bar or not total:
            return
        width = 30
        filled = width * done // total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} read "
                         f"{printable(student[:30]):<30}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _similarity(args: argparse.Namespace) -> int:
    """similarity: compare, write OUT/similarity.json and .html, print the summary."""
    report = similarity_run(paths=args.paths, out=args.out, past=tuple(args.past), config_path=args.config,
                            at=None if args.at is None else parse_deadline(args.at), latest=args.latest,
                            progress=SimilarityProgress())
    for line in report.said:
        print(printable(f"war-grader: {line}"), file=sys.stderr)
    print(similarity_summary(report, args.out))
    return EXIT_OK


def similarity_summary(report: SimilarityReport, out: Path) -> str:
    """similarity's summary: who was compared, the closest pair, student to the reference and to a past class."""
    count = len(report.students)
    lines = [f"compared {count} student{'s' * (count != 1)}"
             + (f" ({len(report.not_compared)} not compared)" if report.not_compared else "")
             + f"; {len(report.pairs)} pair{'s' * (len(report.pairs) != 1)} listed"]
    if report.pairs:
        best = report.pairs[0]
        lines.append(f"closest pair: {best.a} and {best.b}, {100 * best.score:.0f}%")
    if report.reference:
        best = report.reference[0]
        lines.append(f"closest to the reference: {best.a}, {100 * best.score:.0f}% of its own code")
    if report.past:
        best = report.past[0]
        lines.append(f"closest to a past class: {best.a}, {100 * best.score:.0f}% of its own code in {best.b}")
    lines += [f"  not compared: {item.student}: {item.reason}" for item in report.not_compared]
    lines += [f"  {note}" for note in report.notes]
    lines.append(f"wrote {out}/similarity.json and {out}/similarity.html: for the instructor only, evidence to weigh, "
                 f"never a verdict (the instructor view links the page: war-grader report {out} --view instructor)")
    return printable("\n".join(lines))


def _stop(signum: int, frame: object) -> None:
    """SIGTERM handler: stop the batch the way Ctrl-C does."""
    raise KeyboardInterrupt


def _export(args: argparse.Namespace) -> int:
    """export classroom DIR / gradescope FILE.zip / grades OUT, with a line saying what was written."""
    if args.target == "grades":
        return _export_grades(args)
    if args.target == "classroom50":
        return _export_classroom50(args)
    try:
        if args.target == "classroom":
            print(f"war-grader: export classroom is deprecated: GitHub Classroom was retired on {CLASSROOM_RETIRED}; "
                  "use `war-grader export classroom50`", file=sys.stderr)
            steps = export_classroom(args.folder, config_path=args.config)
        else:
            written = export_gradescope(args.zip, config_path=args.config)
    except OSError as error:
        where = error.filename or (args.folder if args.target == "classroom" else args.zip)
        raise UsageError(f"cannot write {where}: {error.strerror or error}") from None
    if args.target == "classroom":
        print(f"wrote the template repository {args.folder}/: {len(steps)} graded steps worth "
              f"{sum(step.points for step in steps)} points in .github/workflows/classroom.yml")
    else:
        print(f"wrote the Gradescope autograder {args.zip} ({len(written)} files): upload it as the "
              "assignment's autograder")
    return EXIT_OK


def _export_classroom50(args: argparse.Namespace) -> int:
    """export classroom50 OUT: one line naming the three parts written and the public tests' share of the points."""
    try:
        written = export_classroom50(args.folder, classroom_name=args.classroom, assignment=args.assignment,
                                     org=args.org, config_path=args.config)
    except OSError as error:
        raise UsageError(f"cannot write {error.filename or args.folder}: {error.strerror or error}") from None
    bundle = written.bundle.relative_to(args.folder).as_posix()
    print(printable(f"wrote {args.folder}/: template/, the public bundle {bundle}/ and the private grading workflow "
                    f"grading/.github/workflows/grade-classroom50.yml; the public tests earn {written.public_points} "
                    f"of {written.total_points} points (next steps: {args.folder}/README.md)"))
    return EXIT_OK


def _classroom50_results(args: argparse.Namespace) -> int:
    """classroom50 results: one line per student refused on stderr, then one summary line; 1 if any was refused."""
    try:
        done = classroom50_results(args.out, classroom_name=args.classroom, assignment=args.assignment, org=args.org,
                                   class_folder=args.class_folder, to=args.to, config_path=args.config,
                                   server=args.server)
    except OSError as error:
        raise UsageError(f"cannot write {error.filename or args.to}: {error.strerror or error}") from None
    for line in done.refused:
        print(printable(f"war-grader: refused {line}"), file=sys.stderr)
    print(printable(f"wrote {len(done.written)} Classroom 50 result{'s' * (len(done.written) != 1)} in {args.to}/ "
                    f"(<login>/result.json, <login>/comment.md, results.csv); {len(done.refused)} refused"))
    return EXIT_FAULT if done.refused else EXIT_OK


def _classroom50_publish(args: argparse.Namespace) -> int:
    """classroom50 publish: what it would post (--dry-run), each failure on stderr, then the summary line."""
    token = os.environ.get("GH_TOKEN") or os.environ.get("GITHUB_TOKEN") or ""
    api = args.api_url or os.environ.get("GITHUB_API_URL") or DEFAULT_API
    done = classroom50_publish(args.folder, org=args.org, classroom_name=args.classroom, assignment=args.assignment,
                               token=token, api=api, dry_run=args.dry_run, say=lambda line: print(printable(line)))
    for line in done.failed:
        print(printable(f"war-grader: failed {line}"), file=sys.stderr)
    print(printable(done.line()))
    return EXIT_FAULT if done.failed else EXIT_OK


def _export_grades(args: argparse.Namespace) -> int:
    """export grades OUT: the CSV to --to (summary on stdout) or to stdout (summary on stderr)."""
    export = export_grades(args.out, args.format, roster_path=args.roster, assignment=args.assignment,
                           hold_path=args.hold)
    if args.to is not None:
        write_export(export, args.to, args.out)
        print(printable("\n".join(gradebook_summary(export, str(args.to)))))
    else:
        sys.stdout.write(export.text)
        sys.stdout.flush()
        print(printable("\n".join(gradebook_summary(export, "standard output"))), file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
