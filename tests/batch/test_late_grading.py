"""The late policy through real grading: a small class graded with [late] (every output agrees, a changed
policy is applied again to the kept results, an unchanged one keeps them as they are), and the Gradescope autograder reading a submission_metadata.json."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from grader.batch import grade_into
from grader.config import load_config
from grader.export.autograder import METADATA, grade_autograder_root
from grader.submissions import Submission
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]
PERFECT = corpus() / "perfect" / "starter"
FAST = (ROOT / "tests" / "data" / "grading-test.toml").read_text()
DUE = "2026-12-01T23:59:00-05:00"
POLICY = f'\n[late]\ndue = "{DUE}"\npenalty_per_day = 10\ncutoff = "2026-12-05T23:59:00-05:00"\ngrace_days = 1\n' \
         'extensions = "extensions.csv"\n'
WHEN = {"alice": "2026-12-01T20:00:00-05:00", "bob": "2026-12-03T01:59:00-05:00", "carol": "",
        "dave": "2026-12-07T00:00:00-05:00", "erin": "2026-12-03T20:00:00-05:00"}
"""alice on time, bob 26 h late, carol marked late without a time, dave after the cut-off, erin on time by her
extension."""


@pytest.fixture(scope="module")
def graded(sandbox: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Submission], float]:
    """The class graded once with the policy: (out, settings file, submissions, a correct package's points)."""
    folder = tmp_path_factory.mktemp("late")
    klass = folder / "class"
    for name in WHEN:
        shutil.copytree(PERFECT, klass / name / "starter")
    (folder / "extensions.csv").write_text("id,until\nerin,2026-12-04T23:59:00-05:00\n")
    settings = folder / "grading.toml"
    settings.write_text(FAST + POLICY)
    submissions = [Submission(name, klass / name, submitted_at=WHEN[name], marked_late=name == "carol")
                   for name in WHEN]
    out = folder / "out"
    report = grade_into(submissions, out, load_config(settings, environ={}), jobs=2)
    assert not report.write_error and report.kept == 0
    full = load_config(settings, environ={})
    points = sum(full.points.values()) - full.points["student_tests"]
    return out, settings, submissions, points


def rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def test_each_student_is_charged_what_the_policy_says(graded):
    """On time: full points; 26 h late with a grace day: -10%; marked late: its grace day covers it; after the
    cut-off: 0; on time by an extension: full points"""
    out, _, _, points = graded
    scores = {name: json.loads((out / name / "results.json").read_text())["score"] for name in WHEN}
    assert scores == {"alice": points, "bob": points * 0.9, "carol": points, "dave": 0, "erin": points}


def test_results_json_grades_csv_report_and_index_agree(graded):
    """Every output says the same lateness: results.json's extra_data.late, grades.csv's columns, the report's
    line near the score and the index's mark"""
    out, _, _, points = graded
    bob = json.loads((out / "bob" / "results.json").read_text())["extra_data"]
    assert bob["late"]["sentence"] == "submitted 26 h late, 1 grace day used, \u221210%"
    assert bob["late"]["points_before"] == points and bob["submitted_at"] == WHEN["bob"]
    table = rows(out)
    assert (table["bob"]["hours_late"], table["bob"]["late_penalty"], table["bob"]["grace_days_used"]) == ("26", "10", "1")
    assert table["carol"]["hours_late"] == "marked" and table["alice"]["hours_late"] == "0"
    assert table["dave"]["score"] == "0" and table["dave"]["late_penalty"] == "100"
    report = (out / "bob" / "report.html").read_text()
    assert "Submitted 26 h late, 1 grace day used, \u221210%" in report
    dave = (out / "dave" / "report.html").read_text()
    assert "after the cut-off" in dave and 'class="note late-cutoff"' in dave
    index = (out / "index.html").read_text()
    assert index.count('class="late-mark"') == 3 and "cut off</span>" in index and "late &minus;10%" in index


def test_an_unchanged_policy_keeps_the_results_and_a_changed_one_is_applied_again_without_a_regrade(graded, tmp_path):
    """A rerun with the same settings keeps every result; a new penalty keeps the tests' verdicts (no regrade),
    charges the new penalty, saves it and lists the moved score in changes.csv"""
    out, settings, submissions, points = graded
    again = grade_into(submissions[:2], tmp_path / "copy", load_config(settings, environ={}), jobs=2)
    shutil.copytree(out / "bob", tmp_path / "kept" / "bob")
    kept = grade_into(submissions[1:2], tmp_path / "kept", load_config(settings, environ={}), jobs=1)
    assert kept.kept == 1 and kept.results[0].score == points * 0.9
    settings.write_text(FAST + POLICY.replace("penalty_per_day = 10", "penalty_per_day = 25"))
    try:
        changed = grade_into(submissions[1:2], tmp_path / "kept", load_config(settings, environ={}), jobs=1)
        changes = (tmp_path / "kept" / "changes.csv").read_text(encoding="utf-8")
        again_kept = grade_into(submissions[1:2], tmp_path / "kept", load_config(settings, environ={}), jobs=1)
    finally:
        settings.write_text(FAST + POLICY)
    assert changed.kept == 1 and changed.results[0].score == points * 0.75
    saved = json.loads((tmp_path / "kept" / "bob" / "results.json").read_text())
    assert saved["score"] == points * 0.75 and saved["extra_data"]["late"]["penalty_percent"] == 25
    moved = list(csv.DictReader(changes.splitlines()))
    assert [(row["student"], float(row["before"]), float(row["after"])) for row in moved] == [
        ("bob", points * 0.9, points * 0.75)]
    assert moved[0]["rules_changed"] == ("late: submitted 26 h late, 1 grace day used, \u221210% \u2192 "
                                         "submitted 26 h late, 1 grace day used, \u221225%")
    assert again_kept.kept == 1 and again_kept.regraded == 0  # the same policy again: nothing to redo
    assert [result.score for result in again.results] == [points, points * 0.9]


def test_the_gradescope_autograder_applies_the_policy_from_the_metadata(sandbox, tmp_path):
    """ROOT/source/grading.toml with a penalty and no due date, ROOT/submission_metadata.json 26 h after the
    assignment's due date: results.json scores after the penalty and says why in its output"""
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "grading.toml").write_text(FAST + "\n[late]\npenalty_per_day = 10\ngrace_days = 1\n")
    shutil.copytree(PERFECT, tmp_path / "submission" / "starter")
    (tmp_path / METADATA).write_text(json.dumps({
        "id": 1, "created_at": "2026-12-03T01:59:00.000000-05:00", "submission_method": "upload",
        "assignment": {"due_date": "2026-12-01T23:59:00.000000-05:00", "late_due_date": None, "title": "War",
                       "total_points": "100.0"},
        "users": [{"email": "alice@example.edu", "id": 1, "name": "Alice"}], "previous_submissions": []}))
    result = grade_autograder_root(tmp_path)
    assert result.late is not None and result.score == result.late.points_before * 0.9
    data = json.loads((tmp_path / "results" / "results.json").read_text())
    assert data["score"] == result.score and "26 h late, 1 grace day used" in data["output"]


def test_the_same_files_handed_in_at_another_time_are_regraded(graded, tmp_path):
    """A kept result stands only for the time it was judged at: bob's files with a new time are graded again"""
    out, settings, submissions, points = graded
    shutil.copytree(out / "bob", tmp_path / "out" / "bob")
    bob = dataclasses.replace(submissions[1], submitted_at=DUE)
    again = grade_into([bob], tmp_path / "out", load_config(settings, environ={}), jobs=1)
    assert again.kept == 0 and again.results[0].score == points and not again.results[0].late.late
