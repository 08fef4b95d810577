"""The README's walk from due date to gradebook, run as an instructor would run it: its grading.toml, then each of
its commands verbatim in a folder of Classroom clones with dated commits, a roster and an extensions file."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from grader.config import load_config
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent
PERFECT = corpus() / "perfect" / "starter"
SECTION = "## For instructors: from due date to gradebook"
CORRECT = 100 - load_config(None, environ={}).points["student_tests"]
"""What a correct package without Part E tests of its own scores."""


def walk_blocks() -> tuple[str, list[str]]:
    """The section's settings block and its commands (their `# comments` cut off)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = [block for block in re.findall(r"((?:^    .*\n)+)", section, flags=re.MULTILINE)]
    assert len(blocks) == 2, "the walk has one settings block and one block of commands"
    settings = "\n".join(line[4:] for line in blocks[0].splitlines()) + "\n"
    commands = [line[4:].split("  #", 1)[0].strip() for line in blocks[1].splitlines()]
    return settings, commands


def git(repository: Path, *args: str, date: str) -> None:
    """Run git in repository as a student would, the commit dated `date`."""
    env = {"PATH": os.environ["PATH"], "HOME": str(repository), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Student", "GIT_AUTHOR_EMAIL": "s@example.edu", "GIT_COMMITTER_NAME": "Student",
           "GIT_COMMITTER_EMAIL": "s@example.edu", "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", *args], cwd=repository, env=env, check=True, capture_output=True)


def clone(folder: Path, commits: list[tuple[str, bool]]) -> None:
    """A clone with one commit per (date, whether the package is there): the package is the corpus's correct one."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main", date=commits[0][0])
    for number, (date, package) in enumerate(commits):
        (folder / "NOTES.md").write_text(f"commit {number}\n")
        if package and not (folder / "starter").exists():
            shutil.copytree(PERFECT, folder / "starter")
        if not package and (folder / "starter").exists():
            shutil.rmtree(folder / "starter")
        git(folder, "add", "-A", date=date)
        git(folder, "commit", "-q", "-m", f"commit {number}", date=date)


def test_the_instructors_walk_from_due_date_to_gradebook_runs_as_written(sandbox, tmp_path):
    """Every command exits 0; --at grades bob, whose extension names him by the roster's id, at his own due date;
    the late commits are graded by --latest with the policy (grace day, penalty), changes.csv lists the scores
    that moved, and Canvas and Moodle get every roster student"""
    settings, commands = walk_blocks()
    (tmp_path / "extensions.csv").write_text("id,until\n1002,2026-12-02T23:59-05:00\n")
    (tmp_path / "roster.csv").write_text("id,name,email,github,section\n"
                                         "1001,Alice Ames,alice@example.edu,alice,A\n"
                                         "1002,Bob Byrd,bob@example.edu,bob,A\n"
                                         "1003,Carol Cho,carol@example.edu,carol,B\n"
                                         "1004,Dave Diaz,dave@example.edu,dave,B\n")
    (tmp_path / "grading.toml").write_text(settings)
    assert load_config(tmp_path / "grading.toml", environ={}).late is not None
    clones = tmp_path / "clones"
    clone(clones / "alice", [("2026-11-30T18:00-05:00", True), ("2026-12-02T09:00-05:00", True)])  # 9 h late
    clone(clones / "bob", [("2026-11-29T12:00-05:00", False), ("2026-12-02T20:00-05:00", True)])  # extended
    clone(clones / "carol", [("2026-12-04T11:00-05:00", True)])  # 59 h late: 3 days, 1 of grace
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in commands:
        done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"

    with (tmp_path / "reports" / "changes.csv").open(newline="") as handle:
        moved = {row["student"]: (float(row["before"]), float(row["after"])) for row in csv.DictReader(handle)}
    assert moved == {"carol": (0.0, round(CORRECT * 0.8, 2))}  # bob was graded at his extended due date by --at
    with (tmp_path / "reports" / "changes.csv").open(newline="") as handle:
        why = {row["student"]: row["rules_changed"] for row in csv.DictReader(handle)}
    assert why["carol"] == "ungradable → graded; late: none → submitted 2 days 11 h late, 1 grace day used, −20%"

    with (tmp_path / "canvas.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["SIS User ID"]]
    grade_column = [name for name in rows[0] if name not in ("Student", "ID", "SIS User ID", "SIS Login ID",
                                                             "Section")]
    assert len(grade_column) == 1
    grades = {row["SIS User ID"]: float(row[grade_column[0]]) for row in rows}
    assert grades == {"1001": CORRECT, "1002": CORRECT, "1003": round(CORRECT * 0.8, 2), "1004": 0.0}

    with (tmp_path / "moodle.csv").open(newline="") as handle:
        emails = {row["Email address"] for row in csv.DictReader(handle)}
    assert emails == {"alice@example.edu", "bob@example.edu", "carol@example.edu", "dave@example.edu"}
