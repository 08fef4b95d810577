"""`war-grader export grades`: rosters, matching submissions to students, and the Canvas, Moodle and per-test
CSVs, read back the way Canvas's and Moodle's importers read them. Results are built directly (no grading)."""

from __future__ import annotations

import csv
import fcntl
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from grader.batch.output import LOCK_NAME, write_outputs
from grader.cli import main
from grader.export.gradebook import CANVAS_COLUMNS, MOODLE_COLUMNS, export_grades
from grader.roster import RosterError, match, read_roster, submission_key
from grader.results import CATEGORY_TITLES, CategoryScore, GradeResult, write_results
from grader.results import TestResult as HiddenTest
from grader.submissions import _name, find_submissions

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "gradebook.md"

CATEGORY_POINTS = {"data_structures": 10, "joker_dominance": 10, "normal_rounds": 20, "forced_war": 20,
                   "exhaustion": 15, "full_game": 15, "extensions": 5, "student_tests": 5}
"""Points per category of the results built here (100 in all); each category has two tests of half its points."""

HEADER = "id,name,email,github,section\n"


def result(student: str, score: float, *, outcome: str = "graded", reason: str = "", penalty: float = 0,
           max_score: float = 100) -> GradeResult:
    """A result whose tests earn `score + penalty` points in suite order; its score is `score` (as after a late
    penalty, which leaves the tests' points as they were)."""
    left = score + penalty
    tests, categories = [], []
    for category, points in CATEGORY_POINTS.items():
        earned_here = 0.0
        for index in range(2):
            available = points / 2
            earned = min(left, available) if outcome == "graded" else 0
            left -= earned
            earned_here += earned
            tests.append(HiddenTest(id=f"test_{category}.py::test_{index}", name=f"{category} {index}",
                                    category=category, score=earned, max_score=available,
                                    outcome="passed" if earned == available else "failed", hidden=index == 1))
        categories.append(CategoryScore(category, CATEGORY_TITLES[category], earned_here, points))
    return GradeResult(student=student, outcome=outcome, reason=reason, score=score, max_score=max_score,
                       categories=categories, tests=tests, sha256="0" * 64, grader_version="test", sandbox="plain",
                       sandbox_warning="", graded_at="2026-12-02T00:00:00Z", execution_time=1.0)


def make_out(folder: Path, results: list[GradeResult]) -> Path:
    """An output folder as `war-grader grade` leaves it: <student>/results.json and grades.csv."""
    write_outputs(results, folder)
    return folder


def write_roster(path: Path, lines: str) -> Path:
    path.write_text(HEADER + lines, encoding="utf-8")
    return path


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


ROSTER = ("1001,Alice Smith,asmith@uni.edu,alice-s,L01\n"
          "1002,Ben Okafor,bokafor@uni.edu,,L01\n"
          "1003,Chen Wei,chen.wei@uni.edu,cwei,L02\n"
          "1004,Dana Ray,dray@uni.edu,,L02\n"
          "1005,Eve Long,elong@uni.edu,evel,L02\n")


@pytest.fixture
def klass(tmp_path: Path) -> tuple[Path, Path]:
    """An output folder of five submissions, one per way of matching and one of nobody's, and its roster."""
    results = [result("alice-s", 92.5), result(_name(Path("Ben Okafor.zip")), 71), result("chen.wei", 100),
               result("1005", 12, outcome="ungradable", reason="no war.py"), result("zed-old", 40)]
    return make_out(tmp_path / "reports", results), write_roster(tmp_path / "roster.csv", ROSTER)


# -- matching --------------------------------------------------------------------------------------------


def test_the_key_of_a_field_is_the_name_discovery_gives_a_submission_so_named():
    """A roster field and a submission of that name compare equal: the same characters become _."""
    for raw in ("Ben Okafor", "a.smith@uni.edu", "Ünïcode Näme", "O'Brien, Pat", ".hidden", "x__", "alice-s"):
        assert submission_key(raw) == _name(Path(raw + ".zip")).casefold(), raw


def test_each_kind_of_field_matches_and_case_does_not_matter(tmp_path):
    roster = read_roster(write_roster(tmp_path / "r.csv", ROSTER))
    names = {"ALICE-S": "1001", "1002": "1002", _name(Path("chen.wei@uni.edu.zip")): "1003", "dray": "1004",
             _name(Path("eve long.zip")): "1005"}
    matching = match([result(name, 50) for name in names], roster)
    assert {key: found.student for key, found in matching.results.items()} == {v: k for k, v in names.items()}
    assert not matching.unmatched and not matching.missing and not matching.conflicts


def test_an_earlier_kind_of_field_wins_over_a_later_one(tmp_path):
    """'bob' is one student's GitHub login and another's email local part: the login decides."""
    roster = read_roster(write_roster(tmp_path / "r.csv", "1,Bob Ames,bob@uni.edu,,\n2,Rob Bell,rb@uni.edu,bob,\n"))
    matching = match([result("bob", 50)], roster)
    assert list(matching.results) == ["2"] and [s.id for s in matching.missing] == ["1"]


def test_a_classroom_repository_name_matches_the_login_that_ends_it(tmp_path):
    """Classroom names a student's repository <prefix>-<login>: war-alice-s is alice-s's, war-ann-lee is
    ann-lee's rather than lee's (the longest login ending it), and a name that only contains a login is nobody's"""
    roster = read_roster(write_roster(tmp_path / "r.csv", ROSTER + "1006,Ann Lee,alee@uni.edu,ann-lee,\n"
                                                                   "1007,Lee Park,lpark@uni.edu,lee,\n"))
    matching = match([result(name, 50) for name in ("war-alice-s", "War-Ann-Lee", "cwei-draft", "lee")], roster)
    assert {key: found.student for key, found in matching.results.items()} == {
        "1001": "war-alice-s", "1006": "War-Ann-Lee", "1007": "lee"}
    assert [u.submission for u in matching.unmatched] == ["cwei-draft"]


def test_a_canvas_download_name_matches_the_student_canvas_sorts_by_it(tmp_path):
    """Canvas's bulk download names a student's files by the sortable name without spaces or punctuation:
    okaforben is Ben Okafor's, obrienpat O'Brien, Pat's, smith-jonesmary Mary Smith-Jones's; a name not Canvas's
    form of anyone's (benokafor) is nobody's"""
    roster = read_roster(write_roster(tmp_path / "r.csv", ROSTER + '1006,"O\'Brien, Pat",pob@uni.edu,,\n'
                                                                   "1007,Mary Smith-Jones,msj@uni.edu,,\n"))
    download = tmp_path / "download"
    for number, student in enumerate(("okaforben", "obrienpat_LATE", "smith-jonesmary", "benokafor")):
        package = download / f"{student}_{123450 + number}_{7890120 + number}_war" / "starter"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
    found = find_submissions([download], exclude=())
    canvas = [submission.student for submission in found.submissions]
    assert sorted(canvas) == ["benokafor", "obrienpat", "okaforben", "smith-jonesmary"], found.skipped
    matching = match([result(name, 50) for name in canvas], roster)
    assert {key: found.student for key, found in matching.results.items()} == {
        "1002": "okaforben", "1006": "obrienpat", "1007": "smith-jonesmary"}
    assert [u.submission for u in matching.unmatched] == ["benokafor"]
    assert "Canvas download name" in matching.unmatched[0].reason


GRADESCOPE_METADATA = """---
submission_4001:
  :submitters:
  - :name: Alice Smith
    :sid: '1001'
    :email: asmith@uni.edu
  :created_at: 2026-12-01 20:15:03.123456000 -05:00
  :score: 0.0
submission_4002:
  :submitters:
  - :name: Chen Wei
    :sid: '1003'
    :email: Chen.Wei@uni.edu
  :created_at: 2026-12-02 10:00:00.000000000 +01:00
  :results:
    :tests:
    - :name: an autograder test
      :created_at: 1999-01-01 00:00:00 +00:00
submission_4003:
  :submitters:
  - :name: Zed Nobody
    :email: zed@elsewhere.edu
  :created_at: 2026-12-01 12:00:00 -05:00
"""


def test_a_gradescope_export_is_matched_to_the_roster_through_its_metadata(tmp_path):
    """Issue 28 item 4: Gradescope's export names its folders submission_<id>; submission_metadata.yml beside them
    says who submitted each and when, so each is graded under its submitter's email, matched to the roster, with
    Gradescope's time; a submitter the roster lacks is named unmatched"""
    roster = read_roster(write_roster(tmp_path / "r.csv", ROSTER))
    export = tmp_path / "gradescope"
    for number in (4001, 4002, 4003):
        (export / f"submission_{number}" / "starter").mkdir(parents=True)
        (export / f"submission_{number}" / "starter" / "__init__.py").write_text("")
    (export / "submission_metadata.yml").write_text(GRADESCOPE_METADATA)
    found = find_submissions([export], exclude=())
    by_name = {submission.student: submission for submission in found.submissions}
    assert sorted(by_name) == ["Chen.Wei_uni.edu", "asmith_uni.edu", "zed_elsewhere.edu"], found.skipped
    assert by_name["asmith_uni.edu"].submitted_at == "2026-12-01T20:15:03-05:00"
    assert by_name["Chen.Wei_uni.edu"].submitted_at == "2026-12-02T10:00:00+01:00"
    assert by_name["asmith_uni.edu"].provenance == ("From Gradescope's export (submission_4001): submitted by Alice "
                                                   "Smith <asmith@uni.edu>, at 2026-12-01T20:15:03-05:00.")
    matching = match([result(name, 50) for name in by_name], roster)
    assert {key: found.student for key, found in matching.results.items()} == {
        "1001": "asmith_uni.edu", "1003": "Chen.Wei_uni.edu"}
    assert [u.submission for u in matching.unmatched] == ["zed_elsewhere.edu"]


def test_a_submission_two_students_could_own_is_refused_and_both_get_zero(tmp_path, capsys):
    roster = write_roster(tmp_path / "r.csv", "1,Alex Lee,alee@uni.edu,,\n2,Alex Lee,alex.lee@uni.edu,,\n")
    out = make_out(tmp_path / "out", [result("Alex_Lee", 80)])
    matching = match([result("Alex_Lee", 80)], read_roster(roster))
    assert not matching.results and [u.submission for u in matching.unmatched] == ["Alex_Lee"]
    assert "ambiguous: the name of 2 students (1 Alex Lee; 2 Alex Lee)" in matching.unmatched[0].reason
    status, text, err = run(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster)], capsys)
    assert status == 0
    assert [(r["SIS User ID"], r["War"]) for r in rows(text)[1:]] == [("1", "0"), ("2", "0")]
    assert "Alex_Lee: ambiguous" in err and "2 students of r.csv have no submission (exported with 0)" in err


def test_two_submissions_of_one_student_leave_that_student_out_and_are_named(tmp_path, capsys):
    roster = write_roster(tmp_path / "r.csv", ROSTER)
    out = make_out(tmp_path / "out", [result("alice-s", 90), result("Alice_Smith", 30), result("cwei", 50)])
    status, text, err = run(["export", "grades", str(out), "--format", "moodle", "--roster", str(roster)], capsys)
    assert status == 0
    graded = {r["ID number"]: r["War"] for r in rows(text)}
    assert "1001" not in graded and graded["1003"] == "50" and graded["1002"] == "0"
    assert "1 student left out (Moodle keeps the grade it has):\n  1001 Alice Smith: 2 submissions (alice-s, " \
           "Alice_Smith)" in err


# -- the formats, read back as the gradebooks read them --------------------------------------------------


def test_canvas_reads_the_header_points_row_and_each_student_by_sis_user_id(klass, capsys):
    """Canvas's importer: row 0 starts with Student then ID, the student columns end with Section, a row whose
    first cell says Points Possible gives points, and each other row is a student found by ID, SIS User ID,
    SIS Login ID or name."""
    out, roster = klass
    status, text, err = run(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster),
                             "--assignment", "War, part 2"], capsys)
    assert status == 0
    table = list(csv.reader(io.StringIO(text, newline="")))
    header = table[0]
    assert header[:5] == list(CANVAS_COLUMNS) and header[5:] == ["War, part 2"]
    assert re.search("Student", header[0]) and re.search("ID", header[1]) and re.search("Section", header[4])
    assert re.search("Points Possible", table[1][0]) and table[1][5] == "100"
    students = {row[2]: row for row in table[2:]}
    assert {k: v[5] for k, v in students.items()} == {"1001": "92.5", "1002": "71", "1003": "100", "1004": "0",
                                                     "1005": "12"}
    assert students["1003"] == ["Chen Wei", "", "1003", "chen.wei@uni.edu", "L02", "100"]
    assert all(len(row) == 6 for row in table)
    assert "zed-old" not in text and "1 submission matches no student of roster.csv (not exported):\n  zed-old" in err
    assert "1 student of roster.csv has no submission (exported with 0):\n  1004 Dana Ray" in err


def test_moodle_maps_the_email_or_id_number_column_to_the_grade(klass, capsys):
    out, roster = klass
    status, text, _ = run(["export", "grades", str(out), "--format", "moodle", "--roster", str(roster)], capsys)
    assert status == 0
    table = rows(text)
    assert list(table[0]) == [*MOODLE_COLUMNS, "War"]
    assert {r["Email address"]: r["War"] for r in table} == {
        "asmith@uni.edu": "92.5", "bokafor@uni.edu": "71", "chen.wei@uni.edu": "100", "dray@uni.edu": "0",
        "elong@uni.edu": "12"}
    assert {r["ID number"] for r in table} == {"1001", "1002", "1003", "1004", "1005"}


def test_the_grade_is_the_results_score_even_below_what_its_tests_earned(tmp_path, capsys):
    """A late penalty lowers GradeResult.score, not the tests' points: every export gives the score."""
    roster = write_roster(tmp_path / "r.csv", ROSTER)
    out = make_out(tmp_path / "out", [result("alice-s", 72, penalty=8)])
    for fmt, column in (("canvas", "War"), ("moodle", "War"), ("csv", "total")):
        _, text, _ = run(["export", "grades", str(out), "--format", fmt, "--roster", str(roster)], capsys)
        row = next(r for r in rows(text) if "asmith@uni.edu" in r.values())
        assert row[column] == "72", fmt


def test_the_per_test_csv_has_roster_columns_each_test_categories_and_total(klass, capsys):
    out, roster = klass
    status, text, _ = run(["export", "grades", str(out), "--format", "csv", "--roster", str(roster)], capsys)
    assert status == 0
    table = rows(text)
    tests = [f"test_{category}.py::test_{index}" for category in CATEGORY_POINTS for index in range(2)]
    assert list(table[0]) == ["id", "name", "email", "github", "section", "submission", *tests, *CATEGORY_TITLES,
                              "total", "max", "status"]
    by_id = {r["id"]: r for r in table}
    for row in table:
        if row["status"] == "graded":
            assert sum(float(row[test]) for test in tests) == pytest.approx(float(row["total"]))
            assert sum(float(row[c]) for c in CATEGORY_TITLES) == pytest.approx(float(row["total"]))
    assert by_id["1001"]["submission"] == "alice-s" and by_id["1001"]["total"] == "92.5"
    assert by_id["1001"]["extensions"] == "2.5" and by_id["1001"]["student_tests"] == "0"
    assert by_id["1001"]["max"] == "100"
    assert by_id["1004"]["status"] == "no submission" and by_id["1004"]["total"] == "0"
    assert by_id["1004"]["submission"] == "" and by_id["1004"][tests[0]] == ""
    assert by_id["1005"]["status"] == "ungradable: no war.py"
    last = table[-1]
    assert (last["id"], last["submission"], last["total"]) == ("", "zed-old", "40")
    assert last["status"].startswith("not on the roster: matches no github login")


def test_the_per_test_csv_without_a_roster_has_one_row_per_submission(klass, capsys):
    out, _ = klass
    status, text, err = run(["export", "grades", str(out), "--format", "csv"], capsys)
    assert status == 0 and err.startswith("wrote the per-test grades of 5 students to standard output")
    table = rows(text)
    assert [r["submission"] for r in table] == ["alice-s", "Ben_Okafor", "chen.wei", "1005", "zed-old"]
    assert list(table[0])[0] == "submission"


def test_a_submission_named_like_a_formula_stays_text_in_the_per_test_csv(tmp_path, capsys):
    out = make_out(tmp_path / "out", [result("-A1", 10)])
    _, text, _ = run(["export", "grades", str(out), "--format", "csv"], capsys)
    assert rows(text)[0]["submission"] == "'-A1"


def test_a_grader_fault_is_left_out_of_the_gradebook_and_named(tmp_path, capsys):
    roster = write_roster(tmp_path / "r.csv", ROSTER)
    out = make_out(tmp_path / "out", [result("alice-s", 0, outcome="grader_fault", reason="worker lost"),
                                      result("cwei", 60)])
    status, text, err = run(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster)], capsys)
    assert status == 0 and "1001" not in {r["SIS User ID"] for r in rows(text)}
    assert "1001 Alice Smith: a fault of the grader's on alice-s; grade it again, then export" in err
    _, text, _ = run(["export", "grades", str(out), "--format", "csv", "--roster", str(roster)], capsys)
    alice = next(r for r in rows(text) if r["id"] == "1001")
    assert alice["total"] == "" and alice["status"] == "grader fault: worker lost"


def test_to_writes_the_same_text_to_the_file_and_the_summary_to_stdout(klass, capsys, tmp_path):
    out, roster = klass
    _, on_stdout, _ = run(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster)], capsys)
    target = tmp_path / "canvas.csv"
    status, printed, err = run(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster),
                                "--to", str(target)], capsys)
    assert status == 0 and err == ""
    assert target.read_bytes().decode("utf-8") == on_stdout
    assert printed.startswith(f"wrote the Canvas gradebook CSV of 5 students to {target} (out of 100)")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_only_the_batch_grades_csv_lists_is_exported(tmp_path, capsys):
    """A student folder left from an earlier batch (not in grades.csv) is not part of this one."""
    out = make_out(tmp_path / "out", [result("alice-s", 50)])
    write_results(result("old-student", 99), out / "old-student" / "results.json")
    _, text, _ = run(["export", "grades", str(out), "--format", "csv"], capsys)
    assert [r["submission"] for r in rows(text)] == ["alice-s"]
    (out / "grades.csv").unlink()
    _, text, _ = run(["export", "grades", str(out), "--format", "csv"], capsys)
    assert [r["submission"] for r in rows(text)] == ["alice-s", "old-student"]


# -- bad input: one line naming the file, the line and the fix, exit 2 ---------------------------------


@pytest.mark.parametrize("content, expected", [
    ("name,id,email\n1,A,a@x\n", r"r\.csv, line 1: the header must be id,name,email,github,section"),
    ("", r"r\.csv, line 1: the header must be id,name,email,github,section .*not 'nothing'"),
    (HEADER + "1,A,a@x.edu,,\n1,B,b@x.edu,,\n", r"r\.csv, line 3: id '1' is also on line 2; list each student once"),
    (HEADER + "1,A,a@x.edu,Octo,\n2,B,b@x.edu,octo,\n", r"r\.csv, line 3: github 'octo' is also on line 2"),
    (HEADER + "1,A,a@x.edu,,\n2,B,A@X.EDU,,\n", r"r\.csv, line 3: email 'A@X.EDU' is also on line 2"),
    (HEADER + "1,A,a@x.edu,,\n\n2,B,b@x.edu\n", r"r\.csv, line 4: 3 fields, not 5 .*quote a field"),
    (HEADER + "1,,a@x.edu,,\n", r"r\.csv, line 2: no name; every student needs an id, a name and an email"),
    (HEADER + "1,A,not-an-email,,\n", r"r\.csv, line 2: 'not-an-email' is not an email address"),
    (HEADER, r"r\.csv: no students under the header"),
])
def test_a_bad_roster_is_one_line_naming_file_and_line_exit_2(tmp_path, capsys, content, expected):
    out = make_out(tmp_path / "out", [result("alice-s", 50)])
    (tmp_path / "r.csv").write_text(content, encoding="utf-8")
    status, text, err = run(["export", "grades", str(out), "--format", "canvas", "--roster",
                             str(tmp_path / "r.csv")], capsys)
    assert status == 2 and text == "" and len(err.strip().splitlines()) == 1
    assert re.search(expected, err), err


def test_a_roster_saved_by_a_spreadsheet_with_a_byte_order_mark_reads(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"\xef\xbb\xbf" + (HEADER + '1,"Smith, Al",al@x.edu,,S1\r\n').encode())
    (student,) = read_roster(path).students
    assert (student.name, student.section, student.line) == ("Smith, Al", "S1", 2)


def test_empty_cells_a_spreadsheet_leaves_after_the_last_column_are_ignored(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("id,name,email,github,section,,\n1,A,a@x.edu,,,,\n", encoding="utf-8")
    assert [student.id for student in read_roster(path).students] == ["1"]
    path.write_text(HEADER + "1,A,a@x.edu,,,extra\n", encoding="utf-8")
    with pytest.raises(RosterError, match="line 2: 6 fields, not 5"):
        read_roster(path)


def test_duplicates_are_refused_before_anything_is_written(tmp_path):
    with pytest.raises(RosterError):
        export_grades(make_out(tmp_path / "out", [result("a", 1)]), "canvas",
                      roster_path=write_roster(tmp_path / "r.csv", "1,A,a@x.edu,,\n1,B,b@x.edu,,\n"))


@pytest.mark.parametrize("setup, argv, expected", [
    ("empty", ["--format", "csv"], r"out: no <student>/results\.json in it; grade the class first"),
    ("missing", ["--format", "csv"], r"nowhere: no such folder"),
    ("ok", ["--format", "canvas"], r"--format canvas needs --roster FILE"),
    ("ok", ["--format", "moodle"], r"--format moodle needs --roster FILE"),
    ("ok", ["--format", "csv", "--roster", "absent.csv"], r"--roster absent\.csv: no such file"),
    ("broken", ["--format", "csv"], r"alice-s/results\.json: not JSON: .* grade that student again"),
    ("mixed", ["--format", "csv"], r"alice-s was graded out of 100 and bob out of 90; grade the whole class again"),
    ("ok", ["--format", "csv", "--to", "OUT/grades.csv"], r"--to .*grades\.csv: that is the grader's own file"),
    ("ok", ["--format", "csv", "--assignment", " "], r"--assignment: empty"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, setup, argv, expected):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    if setup == "empty":
        out.mkdir()
    elif setup in ("ok", "broken"):
        make_out(out, [result("alice-s", 50)])
    elif setup == "mixed":
        make_out(out, [result("alice-s", 50), result("bob", 50, max_score=90)])
    if setup == "broken":
        (out / "alice-s" / "results.json").write_text("{", encoding="utf-8")
    before = (out / "grades.csv").read_bytes() if (out / "grades.csv").exists() else None
    argv = [arg.replace("OUT", str(out)) for arg in argv]
    status, text, err = run(["export", "grades", str(out if setup != "missing" else tmp_path / "nowhere"), *argv],
                            capsys)
    assert status == 2 and text == "" and len(err.strip().splitlines()) == 1
    assert re.search(expected, err), err
    if before is not None:
        assert (out / "grades.csv").read_bytes() == before


def test_an_output_folder_being_graded_into_is_refused(tmp_path, capsys):
    """A `grade` run holds the folder's lock: the export waits for no half-written batch."""
    out = make_out(tmp_path / "out", [result("alice-s", 50)])
    descriptor = os.open(out / LOCK_NAME, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        status, _, err = run(["export", "grades", str(out), "--format", "csv"], capsys)
        assert status == 2 and "a war-grader is writing there" in err
    finally:
        os.close(descriptor)
    assert run(["export", "grades", str(out), "--format", "csv"], capsys)[0] == 0


def test_format_is_required_and_limited_to_the_three(tmp_path, capsys):
    for argv in (["export", "grades", str(tmp_path)], ["export", "grades", str(tmp_path), "--format", "xlsx"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    assert "--format" in capsys.readouterr().err


# -- docs/gradebook.md, run as written -------------------------------------------------------------------


def doc_blocks() -> list[list[str]]:
    """The indented blocks of docs/gradebook.md, each as its lines without the indent."""
    text = DOC.read_text(encoding="utf-8")
    return [[line[4:] for line in block.strip("\n").splitlines()]
            for block in re.findall(r"(?:^ {4}.*\n)+", text, re.MULTILINE)]


def test_every_command_of_the_gradebook_page_runs_on_its_example_and_prints_what_it_shows(tmp_path, capsys,
                                                                                           monkeypatch):
    """The page's roster and results (alice-s, Ben_Okafor, chen.wei, zed-old), its four commands, the summary
    the first prints and the canvas.csv it writes, all as the page shows them."""
    blocks = doc_blocks()
    roster = next(block for block in blocks if block[0] == HEADER.strip())
    commands = [line for block in blocks for line in block if line.startswith("war-grader")]
    printed = next(block for block in blocks if block[0].startswith("wrote the "))
    written = next(block for block in blocks if block[0].startswith("Student,"))
    assert len(commands) == 4 and all(c.startswith("war-grader export grades reports --format") for c in commands)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "roster.csv").write_text("\n".join(roster) + "\n", encoding="utf-8")
    make_out(tmp_path / "reports", [result("alice-s", 92.5), result("Ben_Okafor", 71), result("chen.wei", 100),
                                    result("zed-old", 40)])
    for command in commands:
        status, text, err = run(shlex.split(command)[1:], capsys)
        assert status == 0, f"{command}: {err}"
        target = re.search(r"--to (\S+)", command)
        assert (tmp_path / target.group(1)).is_file() if target else text.startswith("submission,")
        if command == commands[0]:
            assert text.splitlines() == printed
            assert (tmp_path / "canvas.csv").read_text(encoding="utf-8").splitlines() == written
    for command in re.findall(r"`(war-grader [^`]*)`", DOC.read_text(encoding="utf-8")):
        assert command.split()[1] in ("grade", "export"), command


def test_the_readme_links_the_gradebook_page():
    assert "(docs/gradebook.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
