"""`war-grader classroom50 results`: fixed graded results and real git clones, turned into Classroom 50 results.

Each GradeResult is built by hand (all passed, a hidden rule failed, Part E partial, late with a penalty,
ungradable, fractional points, a grader fault) and written as a batch would write it; the clones are made with
git, with a submit/ tag or none and the commit that added .classroom50.yaml. Every result.json must pass the
contract's checker, and no hidden test's name may appear before the reveal date.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from grader.cli import main
from grader.export.classroom50_result import check_result_v1
from grader.late import Lateness
from grader.results import (CATEGORY_TITLES, CategoryScore, ChaffVerdict, GradeResult, StudentTest,
                            StudentTestsResult)
from grader.results import TestResult as HiddenSuiteTest

CLASSROOM, ASSIGNMENT, ORG = "cs2-fall", "war", "my-org"
POINTS = {"data_structures": 8, "joker_dominance": 12, "normal_rounds": 8, "forced_war": 20, "exhaustion": 16,
          "full_game": 12, "extensions": 4, "student_tests": 20}
HIDDEN_NAME = "three wars in a row, each settled"
HIDDEN_RULE = "Three wars in a row are settled one after the other"


def git(repo: Path, *args: str, date: str = "2026-10-02T11:00:00Z") -> str:
    """Run git in repo with a fixed identity and committer date; its output."""
    env = {**os.environ, "GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date}
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, env=env,
                          check=True, capture_output=True, text=True)
    return done.stdout.strip()


def clone(folder: Path, *, tag: bool = True) -> str:
    """A student repository: the template's commit, Classroom 50's commit adding .classroom50.yaml, then the
    student's; a submit/ tag on the last one (when tag). Returns the last commit's SHA."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    (folder / "README.md").write_text("war\n")
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "template", date="2026-10-01T10:00:00Z")
    (folder / ".classroom50.yaml").write_text("assignment: war\n")
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "classroom50", date="2026-10-01T11:00:00Z")
    (folder / "game.py").write_text("x = 1\n")
    git(folder, "add", "-A")
    git(folder, "commit", "-qm", "work", date="2026-10-03T18:22:41+02:00")
    if tag:
        git(folder, "tag", "submit/2026-10-03T16-22-41Z-abc1234")
    return git(folder, "rev-parse", "HEAD")


def category(key: str, score: float | None = None) -> CategoryScore:
    """A category's total, full marks unless score says otherwise."""
    return CategoryScore(key, CATEGORY_TITLES[key], POINTS[key] if score is None else score, POINTS[key])


def hidden_test(passed: bool) -> HiddenSuiteTest:
    """A hidden forced-war test."""
    return HiddenSuiteTest(id="test_forced_war.py::test_three_wars_in_a_row", name=HIDDEN_NAME, category="forced_war",
                      score=5.0 if passed else 0.0, max_score=5.0, outcome="passed" if passed else "failed",
                      hidden=True, rule=HIDDEN_RULE, sentence="" if passed else "the third war was not settled")


def visible_failure() -> HiddenSuiteTest:
    """A visible forced-war test that lost points, with its replay lines."""
    return HiddenSuiteTest(id="test_forced_war.py::test_winner_collects_own_pile_first",
                      name="The winner collects its own pile first", category="forced_war", score=0.0,
                      max_score=5.0, outcome="failed", hidden=False, rule="The winner's pile goes first",
                      sentence="P1's queue after the war differs at position 3", reproduction="from starter import *")


def result(student: str, commit: str, *, score: float = 100.0, categories: list[CategoryScore] | None = None,
           tests: list[HiddenSuiteTest] | None = None, **changes: Any) -> GradeResult:
    """A graded result (full marks unless told), graded at commit."""
    made = GradeResult(student=student, outcome="graded", reason="", score=score, max_score=100.0,
                       categories=categories or [category(key) for key in POINTS],
                       tests=tests if tests is not None else [hidden_test(True)], sha256="0" * 64,
                       grader_version="0.1.0", sandbox="bwrap", sandbox_warning="",
                       graded_at="2026-12-02T10:00:00.123456+00:00", execution_time=1.0, commit=commit,
                       provenance=f"Graded its last commit, {commit[:7]}.")
    return dataclasses.replace(made, **changes)


def write_batch(out: Path, results: list[GradeResult]) -> None:
    """OUT as grade leaves it: a results.json per student (no grades.csv: every one is read)."""
    for graded in results:
        (out / graded.student).mkdir(parents=True)
        (out / graded.student / "results.json").write_text(json.dumps(graded.to_json()))


def run(tmp_path: Path, results: list[GradeResult], *extra: str) -> tuple[int, dict[str, Any]]:
    """classroom50 results on the batch; the exit status and each login's result.json."""
    write_batch(tmp_path / "reports", results)
    status = main(["classroom50", "results", str(tmp_path / "reports"), "--classroom", CLASSROOM, "--assignment",
                   ASSIGNMENT, "--org", ORG, "--class", str(tmp_path / "class"), "--to", str(tmp_path / "c50"),
                   *extra])
    written = {path.parent.name: json.loads(path.read_text()) for path in (tmp_path / "c50").glob("*/result.json")}
    for login, data in written.items():
        assert check_result_v1(data, CLASSROOM, ASSIGNMENT, login) is None
    return status, written


def test_full_marks_from_a_tagged_clone(tmp_path):
    """The tag on the graded commit is the submission; the review compares from the commit that added
    .classroom50.yaml; datetime is the committer date in UTC; every entry passed, 100/100."""
    sha = clone(tmp_path / "class" / "alice")
    status, written = run(tmp_path, [result("alice", sha)])
    data = written["alice"]
    baseline = git(tmp_path / "class" / "alice", "rev-parse", "HEAD~1")
    assert status == 0
    assert data["submission"] == "submit/2026-10-03T16-22-41Z-abc1234"
    assert data["commit"] == data["release"] == f"https://github.com/{ORG}/{CLASSROOM}-{ASSIGNMENT}-alice/commit/{sha}"
    assert data["review"] == f"https://github.com/{ORG}/{CLASSROOM}-{ASSIGNMENT}-alice/compare/{baseline}...{sha}"
    assert (data["datetime"], data["graded_at"]) == ("2026-10-03T16:22:41Z", "2026-12-02T10:00:00Z")
    assert (data["score"], data["max-score"]) == (100, 100) and all(test["passed"] for test in data["tests"])
    assert [test["test-name"] for test in data["tests"]] == list(CATEGORY_TITLES.values())
    assert "submitted_by" not in data


def test_an_untagged_commit_gets_the_synthetic_name_and_a_gh_teacher_download_folder_its_login(tmp_path):
    """No submit/ tag: submit/war-grader-<committer date>-<sha7>. A folder SHORT-SLUG-<login> (any case) is that
    login's."""
    sha = clone(tmp_path / "class" / "CS2-Fall-war-Bob", tag=False)
    status, written = run(tmp_path, [result("CS2-Fall-war-Bob", sha)])
    assert status == 0 and list(written) == ["Bob"]
    assert written["Bob"]["submission"] == f"submit/war-grader-2026-10-03T16-22-41Z-{sha[:7]}"
    assert f"/{CLASSROOM}-{ASSIGNMENT}-bob/commit/" in written["Bob"]["commit"]


def test_the_review_compares_from_the_root_where_classroom50_does(tmp_path):
    """As Classroom 50's runner: with no commit adding .classroom50.yaml, or only the enable-autograder backfill
    adding it, the review compares from the first-parent root; a graded root commit is its own review."""
    no_marker = tmp_path / "class" / "ivy"
    no_marker.mkdir(parents=True)
    git(no_marker, "init", "-q", "-b", "main")
    (no_marker / "README.md").write_text("war\n")
    git(no_marker, "add", "-A")
    git(no_marker, "commit", "-qm", "template")
    root = git(no_marker, "rev-parse", "HEAD")
    (no_marker / "game.py").write_text("x = 1\n")
    git(no_marker, "add", "-A")
    git(no_marker, "commit", "-qm", "work")
    ivy = git(no_marker, "rev-parse", "HEAD")
    backfilled = tmp_path / "class" / "jo"
    shutil.copytree(no_marker, backfilled)
    (backfilled / ".classroom50.yaml").write_text("assignment: war\n")
    git(backfilled, "add", "-A")
    git(backfilled, "commit", "-qm", "[Classroom 50] Add autograde workflow (enable-autograder)")
    (backfilled / "game.py").write_text("x = 2\n")
    git(backfilled, "commit", "-qam", "more work")
    jo = git(backfilled, "rev-parse", "HEAD")
    shutil.copytree(no_marker, tmp_path / "class" / "kim")
    status, written = run(tmp_path, [result("ivy", ivy), result("jo", jo), result("kim", root)])
    assert status == 0
    assert written["ivy"]["review"].endswith(f"/{CLASSROOM}-{ASSIGNMENT}-ivy/compare/{root}...{ivy}")
    assert written["jo"]["review"].endswith(f"/{CLASSROOM}-{ASSIGNMENT}-jo/compare/{root}...{jo}")
    assert written["kim"]["review"] == written["kim"]["commit"]


def test_a_hidden_rule_failed_names_the_rule_never_the_test_until_the_reveal(tmp_path):
    """Forced war 14.2857 of 20 becomes 14 (half up) with points 14.29; the hidden test appears as its rule
    only, in result.json and comment.md, until [reveal] after has passed."""
    sha = clone(tmp_path / "class" / "carol")
    graded = result("carol", sha, score=94.2857, tests=[hidden_test(False), visible_failure()],
                    categories=[category(key, 14.2857 if key == "forced_war" else None) for key in POINTS])
    status, written = run(tmp_path, [graded])
    entry = next(test for test in written["carol"]["tests"] if test["category"] == "forced_war")
    assert status == 0
    assert (entry["score"], entry["max-score"], entry["points"], entry["passed"]) == (14, 20, 14.29, False)
    assert entry["rules"] == [{"rule": HIDDEN_RULE, "passed": False, "tests": 1}]
    assert entry["failures"] == [{"test": "The winner collects its own pile first",
                                  "sentence": "P1's queue after the war differs at position 3"}]
    assert written["carol"]["score"] == 94 == sum(test["score"] for test in written["carol"]["tests"])
    comment = (tmp_path / "c50" / "carol" / "comment.md").read_text()
    for text in (json.dumps(written["carol"]), comment):
        assert HIDDEN_NAME not in text and "test_three_wars_in_a_row" not in text
    assert comment.splitlines()[0] == f"<!-- war-grader classroom50 {CLASSROOM}/{ASSIGNMENT} -->"
    headings = [line for line in comment.splitlines() if line.startswith("#")]
    assert headings[:4] == ["## War: final grade 94.2857 / 100", "### Categories", "### Hidden tests",
                            "### What failed"]
    assert "<summary>result.json (Classroom 50 format)</summary>" in comment and len(comment) <= 60000

    config = tmp_path / "grading.toml"
    config.write_text('[reveal]\nafter = "2026-01-01T00:00:00+00:00"\n')
    status = main(["classroom50", "results", str(tmp_path / "reports"), "--classroom", CLASSROOM, "--assignment",
                   ASSIGNMENT, "--org", ORG, "--class", str(tmp_path / "class"), "--to", str(tmp_path / "revealed"),
                   "--config", str(config)])
    revealed = json.loads((tmp_path / "revealed" / "carol" / "result.json").read_text())
    entry = next(test for test in revealed["tests"] if test["category"] == "forced_war")
    assert status == 0 and entry["revealed"] is True
    assert entry["rules"] == [{"test": HIDDEN_NAME, "passed": False, "sentence": "the third war was not settled"}]
    assert HIDDEN_NAME in (tmp_path / "revealed" / "carol" / "comment.md").read_text()


def test_part_e_partial_carries_its_counts(tmp_path):
    """Part E 15 of 20: its entry has status, valid tests, tests found and versions caught of all."""
    sha = clone(tmp_path / "class" / "dan")
    part_e = StudentTestsResult(status="graded", tests=[
        StudentTest(id="tests/test_mine.py::test_a", valid=True, reason="", catches=3, own_outcome="passed"),
        StudentTest(id="tests/test_mine.py::test_b", valid=False, reason="fails on a correct package", catches=0,
                    own_outcome="failed")],
        chaffs=[ChaffVerdict(misconception=f"bug {n}", scenario="Wars", caught=n < 3,
                             caught_by=["tests/test_mine.py::test_a"] if n < 3 else []) for n in range(4)])
    graded = result("dan", sha, score=95, student_tests=part_e,
                    categories=[category(key, 15 if key == "student_tests" else None) for key in POINTS])
    status, written = run(tmp_path, [graded])
    entry = written["dan"]["tests"][-1]
    assert status == 0
    assert {key: entry[key] for key in ("test-name", "passed", "score", "max-score", "status", "valid_tests",
                                        "tests_found", "versions_caught", "versions")} == {
        "test-name": "Your tests (Part E)", "passed": False, "score": 15, "max-score": 20, "status": "graded",
        "valid_tests": 1, "tests_found": 2, "versions_caught": 3, "versions": 4}
    assert "### Your tests (Part E)" in (tmp_path / "c50" / "dan" / "comment.md").read_text()


def test_a_late_penalty_is_its_own_entry_and_the_only_case_where_the_score_is_not_the_sum(tmp_path):
    """90 points, 10% off: the entries still sum to 90, the top-level score is 81, and a Late penalty entry
    worth 0 of 0 says why."""
    sha = clone(tmp_path / "class" / "erin")
    late = Lateness(due="2026-10-02T23:59:00+00:00", extended=False, late=True, hours_late=16.4, grace_days_used=0,
                    penalty_percent=10.0, points_before=90.0, points_after=81.0, cut_off=False,
                    sentence="submitted 16.4 h late, -10%")
    graded = result("erin", sha, score=81.0, late=late,
                    categories=[category(key, 10 if key == "forced_war" else None) for key in POINTS])
    status, written = run(tmp_path, [graded])
    data = written["erin"]
    assert status == 0 and data["score"] == 81 and sum(test["score"] for test in data["tests"]) == 90
    assert data["tests"][-1] == {"test-name": "Late penalty", "passed": False, "score": 0, "max-score": 0,
                                 "points_before": 90.0, "points_after": 81.0, "penalty_percent": 10.0,
                                 "sentence": "submitted 16.4 h late, -10%"}
    assert "submitted 16.4 h late" in (tmp_path / "c50" / "erin" / "comment.md").read_text()


def test_an_ungradable_submission_is_one_not_graded_entry_and_a_fault_is_refused(tmp_path, capsys):
    """Ungradable: score 0 and one entry with WG's reason. A grader fault and a folder naming no login are
    refused with a line each (exit 1); the others are written, and results.csv lists them."""
    clone(tmp_path / "class" / "frank", tag=False)
    sha = clone(tmp_path / "class" / "gina")
    ungradable = result("frank", "", score=0, categories=[], tests=[], outcome="ungradable",
                        reason="no submission before the deadline: its one commit is dated after it")
    fault = result("gina", sha, outcome="grader_fault", reason="the grader failed")
    odd = result("not_a_login!", sha)
    status, written = run(tmp_path, [ungradable, fault, odd])
    err = capsys.readouterr().err
    assert status == 1 and list(written) == ["frank"]
    assert written["frank"]["tests"] == [{"test-name": "Not graded", "passed": False, "score": 0, "max-score": 100,
                                          "reason": ungradable.reason}]
    assert written["frank"]["score"] == 0 and written["frank"]["submission"].startswith("submit/war-grader-")
    assert "refused gina: a grader fault" in err and "refused not_a_login!" in err
    rows = list(csv.reader((tmp_path / "c50" / "results.csv").open()))
    assert rows[0] == ["login", "repository", "score", "max_score", "outcome", "submission", "commit", "late"]
    assert [row[:5] for row in rows[1:]] == [["frank", f"{CLASSROOM}-{ASSIGNMENT}-frank", "0", "100", "ungradable"]]


def test_bad_usage_is_exit_2(tmp_path, capsys):
    """A bad classroom name or a missing clones folder: one line, exit 2."""
    write_batch(tmp_path / "reports", [result("alice", "a" * 40)])
    assert main(["classroom50", "results", str(tmp_path / "reports"), "--classroom", "CS2", "--assignment", "war",
                 "--org", ORG, "--class", str(tmp_path), "--to", str(tmp_path / "c50")]) == 2
    assert main(["classroom50", "results", str(tmp_path / "reports"), "--classroom", "cs2", "--assignment", "war",
                 "--org", ORG, "--class", str(tmp_path / "nowhere"), "--to", str(tmp_path / "c50")]) == 2
    assert capsys.readouterr().err.count("\n") == 2


@pytest.mark.parametrize("reveal", [False, True])
def test_a_long_report_drops_replay_lines_first_and_stays_under_the_limit(tmp_path, reveal):
    """Three hundred failures with long replay lines: comment.md stays within 60,000 characters, says what it
    left out, and still ends with the result.json block."""
    sha = clone(tmp_path / "class" / "hal")
    failures = [dataclasses.replace(visible_failure(), id=f"t{n}", name=f"failure {n}", reproduction="x = 1\n" * 100)
                for n in range(300)]
    config = tmp_path / "grading.toml"
    config.write_text('[reveal]\nafter = "2026-01-01T00:00:00+00:00"\n' if reveal else "")
    status, _ = run(tmp_path, [result("hal", sha, score=80, tests=failures)], "--config", str(config))
    comment = (tmp_path / "c50" / "hal" / "comment.md").read_text()
    assert status == 0 and len(comment) <= 60000
    assert "were left out" in comment or "was cut" in comment
