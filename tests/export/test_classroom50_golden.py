"""Golden files for Classroom 50: what war-grader writes, compared whole with the expected files checked in.

Three things are pinned, each file in tests/data/classroom50_golden/:

- export/: the key files of `war-grader export classroom50 OUT --classroom cs2-fall --org my-org` (the teacher's
  README.md, runtime.json, the bundle's categories.json and public/pytest.ini, the grading workflow, and the
  closing section the handout gains);
- student/: the result.json and release-body.md the bundle's autograder.py writes for a fixed war report (one
  public test failed, one cut off, one that never reported), with the runner's environment;
- teacher/CASE/: the result.json and comment.md `war-grader classroom50 results` writes for fixed GradeResults
  (all passed, a hidden rule failed, Part E partial, late with a penalty, ungradable, fractional points), from
  git clones whose commits have fixed dates, so their SHAs are fixed too.

Only what must vary is normalised: war-grader's version in categories.json and the moment the autograder ran
(its datetime, which Classroom 50's runner replaces anyway). Every result.json must also keep the contract
(check_result_v1) and the schema's structure (RESULT_V1), and no hidden test's name may appear in any of them
before the reveal date.

To accept a deliberate change, rewrite the expected files and read the diff before committing it:

    WAR_GRADER_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/export/test_classroom50_golden.py
    git diff tests/data/classroom50_golden
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from grader.cli import main
from grader.export import classroom50
from grader.export.classroom50_result import check_result_v1
from grader.late import Lateness
from grader.results import ChaffVerdict, StudentTest, StudentTestsResult
from test_classroom50_result import schema_problems
from test_classroom50_results import (ASSIGNMENT, CLASSROOM, HIDDEN_NAME, POINTS, category, clone, hidden_test, result,
                                      run, visible_failure)

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "classroom50_golden"
"""The expected files."""

UPDATE = os.environ.get("WAR_GRADER_UPDATE_GOLDEN") == "1"
"""Set WAR_GRADER_UPDATE_GOLDEN=1 to rewrite the expected files from what war-grader writes now."""

ORG = "my-org"


def matches_golden(name: str, text: str) -> None:
    """text is the expected file name's text (or, in update mode, becomes it)."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"no expected file {name}: run with WAR_GRADER_UPDATE_GOLDEN=1 (see the docstring)"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its expected file"


def keeps_the_contract(data: dict[str, Any], owner: str) -> None:
    """data passes war-grader's checker and the schema's structure."""
    assert check_result_v1(data, CLASSROOM, ASSIGNMENT, owner) is None
    assert schema_problems(data) == []


def test_the_export_writes_the_expected_key_files(tmp_path):
    """README.md, runtime.json, categories.json, public/pytest.ini, the workflow and the handout's closing
    section, as expected; categories.json only has war-grader's version normalised."""
    out = tmp_path / "out"
    assert main(["export", "classroom50", str(out), "--classroom", CLASSROOM, "--org", ORG]) == 0
    bundle = out / "classroom50" / CLASSROOM / "autograders" / ASSIGNMENT
    categories = json.loads((bundle / "categories.json").read_text(encoding="utf-8"))
    assert categories["war_grader"]
    categories["war_grader"] = "<version>"
    handout = (out / "template" / "README.md").read_text(encoding="utf-8")
    closing = handout[handout.index("## Where your results appear"):]
    for name, text in (("README.md", (out / "README.md").read_text(encoding="utf-8")),
                       ("runtime.json", (out / "runtime.json").read_text(encoding="utf-8")),
                       ("categories.json", json.dumps(categories, indent=2) + "\n"),
                       ("public-pytest.ini", (bundle / "public" / "pytest.ini").read_text(encoding="utf-8")),
                       ("grade-classroom50.yml", (out / "grading" / ".github" / "workflows" /
                                                  "grade-classroom50.yml").read_text(encoding="utf-8")),
                       ("handout-closing-section.md", closing)):
        matches_golden(f"export/{name}", text)


def autograder_module() -> ModuleType:
    """The bundle's autograder.py, imported from the template it is shipped from (its main() is not run)."""
    spec = importlib.util.spec_from_file_location("classroom50_autograder_golden", classroom50.AUTOGRADER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def war_report(public_tests: dict[str, str]) -> list[dict[str, str]]:
    """A fixed --war-report: every public test passed, except a queue-peek failure (whose message carries a
    fence), a forced-war test cut off by the alarm, and the extensions' tests, which never reported."""
    records = []
    for key, category_key in public_tests.items():
        if category_key == "extensions":
            continue
        nodeid = f"tests/contract/{key}" + ("" if "::" in key else "::test_every_example")
        records.append({"nodeid": nodeid, "category": category_key, "outcome": "passed", "message": ""})
    records.append({"nodeid": "tests/contract/test_structures.py::test_peek_returns_the_front_without_removing_it",
                    "category": "data_structures", "outcome": "failed",
                    "message": "AssertionError: peek() removed the front card\n```\nassert 2 == 3\n```"})
    records.append({"nodeid": "tests/contract/test_resolve_war.py::test_a_war_that_never_ends",
                    "category": "forced_war", "outcome": "timeout", "message": "TimeoutError: over 10 s"})
    return records


def test_the_autograder_writes_the_expected_result_and_release_body(tmp_path, monkeypatch):
    """The student side, from a fixed war report and the runner's environment: result.json (its datetime, the
    moment it ran, normalised) and release-body.md, as expected."""
    out = tmp_path / "out"
    assert main(["export", "classroom50", str(out), "--classroom", CLASSROOM]) == 0
    categories = json.loads((out / "classroom50" / CLASSROOM / "autograders" / ASSIGNMENT / "categories.json")
                            .read_text(encoding="utf-8"))
    repository = f"https://github.com/{ORG}/{CLASSROOM}-{ASSIGNMENT}-alice-s"
    tag = "submit/2026-10-03T18-22-41Z-1a2b3c4"
    for name, value in {"CLASSROOM": CLASSROOM, "ASSIGNMENT": ASSIGNMENT, "SUBMISSION_TAG": tag, "OWNER": "alice-s",
                        "USERNAME": "alice-s", "ASSIGNMENT_TYPE": "individual",
                        "COMMIT_URL": f"{repository}/commit/1a2b3c4",
                        "REVIEW_URL": f"{repository}/compare/9f8e7d6...1a2b3c4",
                        "RELEASE_URL": f"{repository}/releases/tag/submit%2F2026-10-03T18-22-41Z-1a2b3c4"}.items():
        monkeypatch.setenv(name, value)
    autograder = autograder_module()
    results = autograder.score(categories, war_report(categories["public_tests"]))
    data = autograder.result_json(results)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", data["datetime"])
    data["datetime"] = "2026-10-03T18:22:41Z"
    keeps_the_contract(data, "alice-s")
    assert (data["score"], data["max-score"]) == (48, 80)
    matches_golden("student/result.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    matches_golden("student/release-body.md", autograder.release_body(results))


def part_e_partial() -> StudentTestsResult:
    """Part E graded: one valid test of two, three buggy versions caught of four."""
    return StudentTestsResult(status="graded", tests=[
        StudentTest(id="tests/test_mine.py::test_a", valid=True, reason="", catches=3, own_outcome="passed"),
        StudentTest(id="tests/test_mine.py::test_b", valid=False, reason="fails on a correct package", catches=0,
                    own_outcome="failed")],
        chaffs=[ChaffVerdict(misconception=f"bug {n}", scenario="Wars", caught=n < 3,
                             caught_by=["tests/test_mine.py::test_a"] if n < 3 else []) for n in range(4)])


def test_classroom50_results_writes_the_expected_result_and_comment(tmp_path):
    """The teacher side, one student per case: result.json and comment.md as expected, and no hidden test's
    name in either (the reveal date is not set)."""
    late = Lateness(due="2026-10-02T23:59:00+00:00", extended=False, late=True, hours_late=16.4, grace_days_used=0,
                    penalty_percent=10.0, points_before=90.0, points_after=81.0, cut_off=False,
                    sentence="submitted 16.4 h late, -10%")
    shas = {student: clone(tmp_path / "class" / student, tag=student != "ungradable")
            for student in ("all-passed", "hidden-rule-failed", "part-e-partial", "late-penalty", "ungradable")}
    cases = [
        result("all-passed", shas["all-passed"]),
        result("hidden-rule-failed", shas["hidden-rule-failed"], score=94.2857,
               tests=[hidden_test(False), visible_failure()],
               categories=[category(key, 14.2857 if key == "forced_war" else None) for key in POINTS]),
        result("part-e-partial", shas["part-e-partial"], score=95, student_tests=part_e_partial(),
               categories=[category(key, 15 if key == "student_tests" else None) for key in POINTS]),
        result("late-penalty", shas["late-penalty"], score=81.0, late=late,
               categories=[category(key, 10 if key == "forced_war" else None) for key in POINTS]),
        result("ungradable", "", score=0, categories=[], tests=[], outcome="ungradable",
               reason="no submission before the deadline: its one commit is dated after it"),
    ]
    status, written = run(tmp_path, cases)
    assert status == 0 and sorted(written) == sorted(case.student for case in cases)
    for login, data in written.items():
        compare_teacher_case(tmp_path / "c50", login, data)


def test_fractional_points_are_scaled_as_expected(tmp_path):
    """Points with one decimal (scale 10): each category's scaled score rounded half up, as expected."""
    config = tmp_path / "fractional" / "grading.toml"
    config.parent.mkdir()
    config.write_text("[points]\ndata_structures = 7.5\nexhaustion = 16.5\n", encoding="utf-8")
    sha = clone(tmp_path / "fractional" / "class" / "fractional-points")
    maxima = {**POINTS, "data_structures": 7.5, "exhaustion": 16.5}
    categories = [dataclasses.replace(category(key), score=maxima[key], max_score=maxima[key]) for key in POINTS]
    categories = [dataclasses.replace(entry, score=12.375) if entry.id == "exhaustion" else entry
                  for entry in categories]
    graded = result("fractional-points", sha, score=95.875, categories=categories)
    status, written = run(tmp_path / "fractional", [graded], "--config", str(config))
    data = written["fractional-points"]
    assert status == 0
    assert [(test["score"], test["max-score"]) for test in data["tests"][:5:4]] == [(75, 75), (124, 165)]
    compare_teacher_case(tmp_path / "fractional" / "c50", "fractional-points", data)


def compare_teacher_case(folder: Path, login: str, data: dict[str, Any]) -> None:
    """One student's result.json and comment.md keep the contract, name no hidden test, and are as expected."""
    keeps_the_contract(data, login)
    text = (folder / login / "result.json").read_text(encoding="utf-8")
    comment = (folder / login / "comment.md").read_text(encoding="utf-8")
    for written in (text, comment):
        assert HIDDEN_NAME not in written and "test_three_wars_in_a_row" not in written
    matches_golden(f"teacher/{login}/result.json", text)
    matches_golden(f"teacher/{login}/comment.md", comment)


def test_the_expected_files_are_exactly_those_the_tests_compare():
    """No expected file is left over that no test compares any more, and none is missing."""
    held = sorted(path.relative_to(GOLDEN).as_posix() for path in GOLDEN.rglob("*") if path.is_file())
    assert held == sorted(EXPECTED_FILES)


EXPECTED_FILES = (
    *(f"export/{name}" for name in ("README.md", "runtime.json", "categories.json", "public-pytest.ini",
                                     "grade-classroom50.yml", "handout-closing-section.md")),
    "student/result.json", "student/release-body.md",
    *(f"teacher/{case}/{name}" for case in ("all-passed", "hidden-rule-failed", "part-e-partial", "late-penalty",
                                            "ungradable", "fractional-points")
      for name in ("result.json", "comment.md")),
)
"""Every file under tests/data/classroom50_golden/, as the tests above name them."""
