"""`--hold hold.csv`: grades.csv and the gradebook exports leave out the grades of the students it lists, with a
note, while their case is pending; everything else stays as graded. Results are built directly (no grading)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from grader.batch.output import grades_csv
from grader.batch import BatchReport
from grader.cli import held_lines, main
from grader.hold import HoldError, read_hold
from test_export_grades import ROSTER, make_out, result, rows, write_roster


def write_hold(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def batch(tmp_path: Path) -> tuple[Path, Path, Path]:
    """An output folder of three graded students, its roster, and a hold.csv naming one by login, one by id."""
    out = make_out(tmp_path / "reports", [result("alice-s", 92.5), result("Ben_Okafor", 71),
                                          result("chen.wei", 100)])
    roster = write_roster(tmp_path / "roster.csv", ROSTER)
    hold = write_hold(tmp_path / "hold.csv", "id,reason\nALICE-S,similarity case pending\n1002,appeal\nnobody,x\n")
    return out, roster, hold


def test_grades_csv_keeps_a_held_students_row_without_a_score(tmp_path):
    """The held row has the outcome held, the reason, and no number; the others are as before"""
    hold = read_hold(write_hold(tmp_path / "hold.csv", "id,reason\nben_okafor,similarity case pending\n"))
    results = [result("alice-s", 92.5), result("Ben_Okafor", 71)]
    held = {row["student"]: row for row in csv.DictReader(io.StringIO(grades_csv(results, hold)))}
    plain = {row["student"]: row for row in csv.DictReader(io.StringIO(grades_csv(results)))}
    assert held["alice-s"] == plain["alice-s"]
    assert held["Ben_Okafor"]["outcome"] == "held" and held["Ben_Okafor"]["reason"] == "similarity case pending"
    assert plain["Ben_Okafor"]["score"] == "71"
    assert all(value == "" for key, value in held["Ben_Okafor"].items() if key not in ("student", "outcome", "reason"))


def test_canvas_leaves_the_held_students_out_and_the_summary_names_them(batch, capsys):
    """Held by login and by roster id: absent from the file, so Canvas keeps what it has; an id naming no one is
    said"""
    out, roster, hold = batch
    status = main(["export", "grades", str(out), "--format", "canvas", "--roster", str(roster), "--hold", str(hold)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    names = [row["Student"] for row in rows(captured.out)]
    assert "Alice Smith" not in names and "Ben Okafor" not in names and "Chen Wei" in names
    assert "2 students held back by --hold (left out, Canvas keeps the grade it has):" in captured.err
    assert "  1001 Alice Smith: similarity case pending" in captured.err and "  1002 Ben Okafor: appeal" in captured.err
    assert "--hold names no student of this export: nobody" in captured.err


def test_the_per_test_csv_keeps_a_held_line_without_points(batch, capsys):
    """The per-test CSV's held line says why and has no points, total or maximum"""
    out, roster, hold = batch
    assert main(["export", "grades", str(out), "--format", "csv", "--roster", str(roster), "--hold", str(hold)]) == 0
    by_id = {row["id"]: row for row in rows(capsys.readouterr().out)}
    assert by_id["1001"]["status"] == "held: similarity case pending" and by_id["1001"]["total"] == ""
    assert by_id["1003"]["status"] == "graded" and by_id["1003"]["total"] == "100"


@pytest.mark.parametrize(("content", "expected"), [
    ("student,why\nann,x\n", "the first line must be the header id,reason"),
    ("id,reason\n,x\n", "line 2 has no id"),
    ("id,reason\nann,x\nANN,y\n", "line 3 names ANN again (line 2)"),
])
def test_a_bad_hold_file_is_one_line_and_status_2(batch, capsys, content, expected):
    """A hold.csv without its header, with a row without an id or naming one student twice: refused, one line"""
    out, roster, _ = batch
    hold = write_hold(out.parent / "bad.csv", content)
    assert main(["export", "grades", str(out), "--format", "csv", "--hold", str(hold)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err
    with pytest.raises(HoldError):
        read_hold(hold)


def test_grade_and_merge_read_the_hold_file_before_anything_else(tmp_path, capsys):
    """grade --hold and merge --hold with a bad file stop at once, one line, status 2: nothing graded or merged"""
    bad = write_hold(tmp_path / "bad.csv", "student\nann\n")
    (tmp_path / "class").mkdir()
    assert main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--hold", str(bad)]) == 2
    assert main(["merge", str(tmp_path / "nowhere"), "--out", str(tmp_path / "merged"), "--hold", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("the first line must be the header id,reason" in line for line in err)
    assert not (tmp_path / "out").exists() and not (tmp_path / "merged").exists()


def test_the_grade_summary_names_the_held_students_and_ids_naming_no_one():
    """held_lines: each held student with the reason, then the ids of hold.csv that name no one"""
    report = BatchReport([], held=["ann: similarity case pending"], hold_unmatched=["zed"])
    assert held_lines(report).splitlines() == ["1 held back by --hold (grades.csv has their row without a score):",
                                               "  ann: similarity case pending",
                                               "--hold names no student of this batch: zed"]
    assert held_lines(BatchReport([])) == ""
