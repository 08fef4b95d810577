"""`war-grader report OUT --view instructor` keeps both views side by side: students' pages in OUT, the instructor's
in OUT/instructor, each with its own index."""

from __future__ import annotations

import re
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


def graded_class(tmp_path: Path) -> Path:
    """A class of two quickly graded students (ann, and one named like the instructor folder), graded into OUT."""
    klass, out = tmp_path / "cls", tmp_path / "out"
    shutil.copytree(CORPUS / "syntax_error", klass / "ann")
    shutil.copytree(CORPUS / "syntax_error", klass / "instructor")
    completed = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST))
    assert completed.returncode == 0, completed.stderr
    return out


def test_the_instructor_view_goes_beside_the_students_pages_not_over_them(sandbox, tmp_path):
    """Issue 20 item 7: OUT/<student>/report.html stays the student view; OUT/instructor/ holds the other"""
    out = graded_class(tmp_path)
    assert (out / "instructor-2" / "results.json").is_file()  # a student so named keeps its result, suffixed
    student_pages = {path: path.read_bytes() for path in [out / "index.html", *out.glob("*/report.html")]}
    assert len(student_pages) == 3

    completed = war_grader("report", str(out), "--view", "instructor")
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"rendered 3 pages of the instructor view in {out / 'instructor'}/"
    assert {path: path.read_bytes() for path in student_pages} == student_pages
    for student in ("ann", "instructor-2"):
        page = (out / "instructor" / student / "report.html").read_text(encoding="utf-8")
        assert "instructor view" in page and 'href="../index.html"' in page
        assert "instructor view" not in (out / student / "report.html").read_text(encoding="utf-8")
    links = re.findall(r'href="\./([^"]+)"', (out / "instructor" / "index.html").read_text(encoding="utf-8"))
    assert sorted(links) == ["ann/report.html", "instructor-2/report.html"]

    again = war_grader("report", str(out))  # the student view again leaves the instructor's alone
    assert again.returncode == 0, again.stderr
    assert (out / "instructor" / "ann" / "report.html").is_file()


def test_a_new_batch_removes_the_stale_instructor_view_but_no_result(sandbox, tmp_path):
    """Regrading starts a new batch: OUT/instructor (pages of the old one) goes; every results.json stays"""
    out = graded_class(tmp_path)
    assert war_grader("report", str(out), "--view", "instructor").returncode == 0
    completed = war_grader("grade", str(tmp_path / "cls"), "--out", str(out), "--config", str(FAST), "--force")
    assert completed.returncode == 0, completed.stderr
    assert not (out / "instructor").exists()
    assert (out / "ann" / "results.json").is_file() and (out / "instructor-2" / "results.json").is_file()


def test_a_student_folder_called_instructor_from_an_older_run_is_never_removed(tmp_path):
    """start_batch removes OUT/instructor only when it holds no results.json: a student's result is never lost"""
    from grader.batch.output import open_output

    out = tmp_path / "out"
    (out / "instructor").mkdir(parents=True)
    (out / "instructor" / "results.json").write_text("{}")
    with open_output(out, students=1) as folder:
        folder.start_batch()
    assert (out / "instructor" / "results.json").read_text() == "{}"
