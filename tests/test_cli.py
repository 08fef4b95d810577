"""The war-grader command line: help everywhere, exit statuses, one line for a user's mistake."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

from grader import cli
from grader.grading import runner
from grader.sandbox.isolation import choose_level, landlock_abi, level_warning
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = corpus()
FAST = ROOT / "tests" / "data" / "grading-test.toml"


def war_grader(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env={"PATH": "/usr/bin:/bin", "CI": "true"})


@pytest.mark.parametrize("command", [[], ["grade"], ["check"], ["report"]])
def test_every_command_has_help(command):
    """--help works for war-grader and each command, and exits 0"""
    completed = war_grader(*command, "--help")
    assert completed.returncode == 0 and "usage: war-grader" in completed.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["grade", "no/such/folder"], "no/such/folder: no such file or folder"),
    (["grade", "README.md"], "a submission is a folder, a .zip or a .py file"),
    (["grade", str(CORPUS / "perfect"), "--config", "missing.toml"], "cannot read the config file"),
    (["grade", str(CORPUS / "perfect"), "--jobs", "0"], "argument --jobs: must be from 1 to 32, not 0"),
    (["report", "no/such/out"], "no/such/out"),
])
def test_a_users_mistake_is_one_line_and_status_2(args, message):
    """Bad input gets one clear line on stderr, exit status 2 and no traceback"""
    completed = war_grader(*args)
    assert completed.returncode == 2
    assert message in completed.stderr and "Traceback" not in completed.stderr


@pytest.mark.parametrize("jobs", ["0", "33", "many"])
def test_a_bad_jobs_count_shows_grades_own_usage(jobs):
    """Issue 20 item 6: grade --jobs 0 is refused under `war-grader grade`'s usage, not the top-level one"""
    completed = war_grader("grade", str(CORPUS / "perfect"), "--jobs", jobs)
    lines = completed.stderr.splitlines()
    assert completed.returncode == 2 and "Traceback" not in completed.stderr
    assert lines[0].startswith("usage: war-grader grade ") and "--jobs JOBS" in completed.stderr
    assert lines[-1].startswith("war-grader grade: error: argument --jobs: must be ") and "1 to 32" in lines[-1]


def test_grade_writes_results_and_prints_json(sandbox, tmp_path):
    """grade --json exits 0, prints each result, and writes results.json and grades.csv (perfect has no tests: 80)"""
    out = tmp_path / "out"
    completed = war_grader("grade", str(CORPUS / "perfect"), str(CORPUS / "syntax_error"), "--out", str(out),
                           "--config", str(FAST), "--json")
    assert completed.returncode == 0, completed.stderr
    printed = {entry["extra_data"]["student"]: entry for entry in json.loads(completed.stdout)}
    assert printed["perfect"]["score"] == 80 and printed["syntax_error"]["extra_data"]["outcome"] == "ungradable"
    assert (out / "perfect" / "results.json").is_file() and (out / "grades.csv").is_file()
    assert completed.stderr == ""  # --json is for machines: nothing but the JSON


def test_check_passes_on_the_shipped_reference_and_starter(sandbox):
    """check: the reference scores full marks and the starter 0, so the exit status is 0"""
    completed = war_grader("check")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "reference: 100 / 100" in completed.stdout and "starter:   0 / 100" in completed.stdout
    level = choose_level("auto")  # and what the results will say of it, with what Landlock did on this kernel
    warning = level_warning(level, landlock_abi())
    assert f"sandbox:   {level}" + (f" ({warning})" if warning else "") + "\n" in completed.stdout


def test_hidden_suites_that_do_not_collect_stop_the_run_in_one_line(sandbox, tmp_path, monkeypatch, capsys):
    """A broken hidden suite is the grader's own fault, found before any student is graded: exit 1, one line
    naming the error"""
    suites = tmp_path / "suites"
    suites.mkdir()
    (suites / "pytest.ini").write_text("[pytest]\npython_files = test_*.py\n")
    (suites / "test_broken.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.setattr(runner, "SUITES", suites)
    status = cli.main(["grade", str(CORPUS / "perfect"), "--out", str(tmp_path / "out"), "--config", str(FAST)])
    printed = capsys.readouterr()
    assert status == 1
    assert "the hidden suites do not collect" in printed.err and "no_such_module_anywhere" in printed.err
    assert not (tmp_path / "out" / "perfect" / "results.json").exists()


def test_no_hidden_suite_marks_a_test_skip_or_xfail():
    """The suites run without pytest's skipping plugin (runner.UNUSED_PLUGINS), which would be the only thing
    to honour such a mark: a test marked so would silently run"""
    for path in sorted(runner.SUITES.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for mark in ("mark.skip", "mark.xfail", "pytest.xfail("):
            assert mark not in text, f"{path.name} uses {mark}"


def test_a_fault_of_the_graders_exits_1(sandbox, tmp_path, monkeypatch, capsys):
    """When the sandbox cannot start, the submission is a grader fault and the status is 1"""
    real = runner.make_spec

    def broken(**kwargs):
        return dataclasses.replace(real(**kwargs), python="/nonexistent/python")

    monkeypatch.setattr(runner, "make_spec", broken)
    status = cli.main(["grade", str(CORPUS / "perfect"), "--out", str(tmp_path / "out"), "--config", str(FAST)])
    assert status == 1
    result = json.loads((tmp_path / "out" / "perfect" / "results.json").read_text())
    assert result["extra_data"]["outcome"] == "grader_fault" and result["score"] == 0
    assert "did not start" in result["extra_data"]["reason"]
    printed = capsys.readouterr()
    assert "1 grader faults" in printed.out or "1 grader fault" in printed.out
    assert "graded 1/1: perfect: grader fault" in printed.err  # a plain progress line, no bar, off a terminal
