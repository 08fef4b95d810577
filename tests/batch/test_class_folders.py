"""Class folders the grader meets in the wild, graded end to end: every student graded or named, no traceback."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
FAST = ROOT / "tests" / "data" / "grading-test.toml"


def war_grader(*args: str) -> subprocess.CompletedProcess[str]:
    """python -m grader with args, from the project root, as in CI."""
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "CI": "true"})


def students(out: Path) -> list[str]:
    """The students grades.csv lists."""
    with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        return [row["student"] for row in csv.DictReader(handle)]


def test_a_class_of_single_file_students_grades_each_file(sandbox, tmp_path):
    """Issue 20 item 2: cls/ann.py and cls/ben.py are two students, each graded, exit 0"""
    klass = tmp_path / "cls"
    klass.mkdir()
    shutil.copy(CORPUS / "single_file" / "war.py", klass / "ann.py")
    (klass / "ben.py").write_text("def broken(:\n")
    completed = war_grader("grade", str(klass), "--out", str(tmp_path / "out"), "--config", str(FAST))
    assert completed.returncode == 0, completed.stderr
    assert students(tmp_path / "out") == ["ann", "ben"]
    assert "2 submissions" in completed.stdout and "no package found" not in completed.stdout


def test_a_symlink_loop_in_the_class_folder_is_named_and_the_rest_graded(sandbox, tmp_path):
    """Issue 20 item 3: loop -> loop is one `skipped` line; the student beside it is graded, exit 0"""
    klass = tmp_path / "cls"
    shutil.copytree(CORPUS / "syntax_error", klass / "ann")
    (klass / "loop").symlink_to("loop")
    completed = war_grader("grade", str(klass), "--out", str(tmp_path / "out"), "--config", str(FAST))
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    assert f"skipped {klass / 'loop'}: a broken link or a symlink loop" in completed.stderr
    assert students(tmp_path / "out") == ["ann"]


def test_two_255_character_names_differing_by_case_are_both_saved_and_kept_on_a_rerun(sandbox, tmp_path):
    """Issue 20 item 4: the second name is cut to fit its -2; both results are saved, and a rerun keeps both"""
    klass, out = tmp_path / "cls", tmp_path / "out"
    long = "s" * 254
    for name in (f"{long}A", f"{long}a"):
        shutil.copytree(CORPUS / "syntax_error", klass / name)
    expected = [f"{long}A", "s" * 253 + "-2"]
    first = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST))
    assert first.returncode == 0, first.stderr
    assert students(out) == expected and all((out / name / "results.json").is_file() for name in expected)
    second = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST))
    assert second.returncode == 0, second.stderr
    assert second.stderr.count("(unchanged since the last run)") == 2
