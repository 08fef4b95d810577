"""`war-grader export gradescope`: the zip, set up and run as Gradescope would, under a stand-in /autograder.

The zip is unpacked into ROOT/source (ROOT stands for /autograder), setup_python.sh (setup.sh's Python part)
runs verbatim, run_autograder is copied to ROOT/run_autograder and run on a corpus submission in
ROOT/submission, and ROOT/results/results.json is checked against Gradescope's documented fields. PyPI is
stood in for by a virtual environment that already sees the dependencies (not war-grader), so the test
needs no network, and war-grader can only come from the bundled wheel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from grader.cli import main
from grader.export.wheel import build_wheel
from isolated_venv import MakeVenv, everything_but_war_grader
from corpus import PINS, corpus

PROJECT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
SETTINGS = PROJECT / "tests" / "data" / "grading-test.toml"
EXPECTED = json.loads(PINS.read_text(encoding="utf-8"))

TOP_LEVEL = {"score": (int, float), "execution_time": (int, float), "output": str, "visibility": str,
             "stdout_visibility": str, "tests": list}
TEST_FIELDS = {"name": str, "score": (int, float), "max_score": (int, float), "status": str, "output": str,
               "tags": list, "visibility": str}
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
"""Gradescope's documented results.json fields with their types, and its visibility values."""


def check_gradescope_results(data: dict[str, Any]) -> None:
    """Fail unless data has every documented field of Gradescope's results.json, with documented values."""
    for key, kind in TOP_LEVEL.items():
        assert isinstance(data.get(key), kind), f"results.json: {key} = {data.get(key)!r}"
    assert data["visibility"] in VISIBILITIES and data["stdout_visibility"] in VISIBILITIES
    for test in data["tests"]:
        for key, kind in TEST_FIELDS.items():
            assert isinstance(test.get(key), kind), f"tests[]: {key} = {test.get(key)!r} in {test.get('name')}"
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in VISIBILITIES and all(isinstance(tag, str) for tag in test["tags"])
        assert 0 <= test["score"] <= test["max_score"]
        assert (test["status"] == "passed") == (test["score"] == test["max_score"])
    if data["tests"]:  # the top-level score overrides the tests' sum on Gradescope; ours is it, to 2 decimals
        assert abs(sum(test["score"] for test in data["tests"]) - data["score"]) <= 0.005 + 1e-9


def unescaped(markdown: str) -> str:
    """Markdown text with its backslash escapes undone: the text a student reads."""
    return re.sub(r"\\([\\`*_\[\]<>#+!|~])", r"\1", markdown)


def unpack(archive: Path, folder: Path) -> None:
    """Unzip keeping each entry's permission bits (as `unzip` does)."""
    with zipfile.ZipFile(archive) as opened:
        for entry in opened.infolist():
            path = Path(opened.extract(entry, folder))
            path.chmod(entry.external_attr >> 16 & 0o777 or 0o644)


@pytest.fixture(scope="module")
def autograder(sandbox: str, fresh_venv: MakeVenv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ROOT with the zip unpacked in source/, setup_python.sh run, and run_autograder in place (which grades through
    the real sandbox: the tests that use it are slow)."""
    root = tmp_path_factory.mktemp("gradescope") / "autograder"
    archive = root.parent / "autograder.zip"
    assert main(["export", "gradescope", str(archive), "--config", str(SETTINGS)]) == 0
    unpack(archive, root / "source")
    fresh_venv(root / "venv", everything_but_war_grader)  # stands in for PyPI: the dependencies, not war-grader
    env = {"PATH": os.environ["PATH"], "AUTOGRADER": str(root), "PYTHON": sys.executable, "PIP_NO_INDEX": "1",
           "HOME": str(root.parent)}
    subprocess.run(["bash", str(root / "source" / "setup_python.sh")], env=env, check=True, timeout=300,
                   cwd=root.parent, capture_output=True)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    return root


def run_autograder(root: Path, submission: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Put a corpus submission in ROOT/submission and run ROOT/run_autograder from ROOT, as Gradescope does (or
    from cwd)."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    shutil.copytree(CORPUS / submission, root / "submission")
    (root / "results").mkdir()
    return subprocess.run([str(root / "run_autograder")], cwd=cwd or root, capture_output=True, text=True, timeout=600,
                          env={"PATH": os.environ["PATH"], "AUTOGRADER": str(root)})


def test_the_zip_holds_the_scripts_the_settings_and_the_wheel_at_its_root(tmp_path):
    """setup.sh and run_autograder at the root (executable), the instructor's grading.toml byte for byte, a wheel."""
    archive = tmp_path / "autograder.zip"
    assert main(["export", "gradescope", str(archive), "--config", str(SETTINGS)]) == 0
    with zipfile.ZipFile(archive) as opened:
        names = opened.namelist()
        modes = {entry.filename: entry.external_attr >> 16 for entry in opened.infolist()}
        assert opened.read("grading.toml") == SETTINGS.read_bytes()
        wheel = [name for name in names if name.endswith(".whl")]
        assert "/autograder/" not in opened.read("run_autograder").decode()
    assert {"setup.sh", "run_autograder", "setup_python.sh", "grading.toml"} <= set(names) and len(wheel) == 1
    assert all(modes[name] & 0o111 for name in ("setup.sh", "run_autograder", "setup_python.sh"))
    assert not any("/" in name for name in names)


def test_the_installed_grader_comes_from_the_bundled_wheel_not_this_repository(autograder):
    """After setup, ROOT/venv imports grader from its own site-packages, suites and templates included."""
    probe = subprocess.run([str(autograder / "venv" / "bin" / "python"), "-c",
                            "import grader, grader.grading.suites, pathlib; p = pathlib.Path(grader.__file__).parent; "
                            "print(p); print((p / 'grading' / 'suites' / 'pytest.ini').is_file()); "
                            "print((p / 'report' / 'templates' / 'report.html').is_file())"],
                           cwd=autograder, capture_output=True, text=True, env={"PATH": os.environ["PATH"]})
    location, has_ini, has_templates = probe.stdout.split()
    assert Path(location).is_relative_to(autograder / "venv") and has_ini == has_templates == "True"


@pytest.fixture(scope="module")
def flawed(autograder: Path) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """run_autograder on collects_opponent_first, once for the module: what it printed, and results.json read back
    (the same submission through the same autograder gets the same results every time)."""
    done = run_autograder(autograder, "collects_opponent_first")
    assert done.returncode == 0, done.stderr
    return done, json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))


def test_run_autograder_grades_a_corpus_submission_into_gradescope_results(flawed):
    """collects_opponent_first gets its pinned score in a results.json that has every documented field."""
    done, data = flawed
    check_gradescope_results(data)
    assert data["score"] == EXPECTED["collects_opponent_first"]["score"]
    assert any(test["status"] == "failed" for test in data["tests"])
    assert data["extra_data"]["hidden_tests"] and f"{data['score']:g} / 100" in done.stdout


def test_run_autograder_grades_from_this_checkouts_root_too(autograder):
    """Tried outside Gradescope from a checkout's root (docs/gradescope.md), the autograder still loads the grader
    of its own venv, not the checkout's grader/ beside the working folder."""
    done = run_autograder(autograder, "perfect", cwd=CORPUS.parent.parent)
    assert done.returncode == 0, done.stderr
    data = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    assert data["score"] == EXPECTED["perfect"]["score"]


def test_a_failing_visible_test_shows_its_sentence_difference_and_replay_lines_in_output(flawed):
    """Gradescope shows `output`, never extra_data: each visible failure's output holds its sentence, the rule,
    expected and actual, and every line that replays it, as Markdown with the replay in a code block."""
    _, data = flawed
    failed = [test for test in data["tests"] if test["status"] == "failed" and test["tags"] != ["student_tests"]
              and test.get("extra_data", {}).get("reproduction")]
    assert failed and data["output_format"] == "md"
    for test in failed:
        extra, output = test["extra_data"], test["output"]
        assert test["visibility"] == "visible" and test["output_format"] == "md"
        assert all(line in output for line in extra["reproduction"].splitlines())
        assert "```python\n" + extra["reproduction"].splitlines()[0] in output and "Replay it" in output
        text = unescaped(output)
        assert extra["rule"] in text and extra["sentence"] in text
        if extra["difference"]:
            assert repr(extra["difference"]["expected"][0]) in output and "actual:" in output


def test_hidden_tests_are_named_by_their_rule_and_their_inputs_withheld(flawed):
    """No hidden test's name, id or replay line reaches a student-visible entry; each rule it checks does, with
    the points and outcome of its tests, and the score still adds up."""
    _, data = flawed
    hidden = data["extra_data"]["hidden_tests"]
    assert hidden and all(test["visibility"] != "hidden" for test in data["tests"])
    shown = json.dumps([{key: test[key] for key in ("name", "output")} for test in data["tests"]]) + data["output"]
    for test in hidden:
        assert test["extra_data"]["id"] not in shown and test["name"] not in shown
        for line in test["extra_data"]["reproduction"].splitlines():
            assert json.dumps(line)[1:-1] not in shown
        rule_entries = [entry for entry in data["tests"] if test["extra_data"]["rule"] in entry["name"]]
        assert rule_entries and "never its inputs" in rule_entries[0]["output"]
    assert any(entry["status"] == "failed" and "hidden test" in entry["name"] for entry in data["tests"])


def test_part_e_an_invalid_tests_reason_reaches_the_student_and_each_tests_validity_only_extra_data(autograder):
    """tests_invalid (a valid Joker test, then an invalid forced-war test): the top-level output and every scenario
    name the invalid test, its line and reason; no test is said to count or not (extra_data keeps it)."""
    done = run_autograder(autograder, "tests_invalid")
    assert done.returncode == 0, done.stderr
    data = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_results(data)
    part_e = data["extra_data"]["student_tests"]
    assert part_e["invalid"] and [test["valid"] for test in part_e["tests"]] == [True, False]
    scenarios = [test["output"] for test in data["tests"] if test["tags"] == ["student_tests"]]
    assert len(scenarios) == 4 and all(unescaped(output) == part_e["invalid"] for output in scenarios)
    assert part_e["invalid"] in unescaped(data["output"]) and "Each of your tests" in data["output"]
    assert "Counts?" not in data["output"] and "| no: " not in data["output"]


def gradescope_part_e(invalid: bool) -> dict[str, Any]:
    """gradescope_results of a result whose Part E is tests/report/test_report.py's three tests."""
    from grader.export.gradescope_results import gradescope_results
    from grader.grading.scoring import part_e_tests
    from grader.results import GradeResult
    from part_e_suites import judged_suite

    part_e = judged_suite(invalid)
    result = GradeResult(student="s", outcome="graded", reason="", score=0, max_score=20, categories=[],
                         tests=part_e_tests(part_e, 20.0), sha256="", grader_version="", sandbox="bwrap",
                         sandbox_warning="", graded_at="", execution_time=0, student_tests=part_e)
    return gradescope_results(result)


def test_gradescope_names_the_first_invalid_test_only_and_keeps_every_tests_validity_in_extra_data():
    """Issue 26: what the student sees of an invalid suite names its first invalid test, line and reason, and says
    more may follow; never each test's validity, which extra_data (hidden from students) keeps."""
    data = gradescope_part_e(invalid=True)
    shown = unescaped(data["output"] + "\n".join(test["output"] for test in data["tests"]))
    part_e = data["extra_data"]["student_tests"]
    assert "test_wrong does not pass on every correct implementation" in shown and "line 5" in shown
    assert "you are told of the first only" in shown and "did not finish within" not in shown
    assert "Counts?" not in shown and "- caught" not in shown and "- missed" not in shown
    assert [test["valid"] for test in part_e["tests"]] == [True, False, False]
    assert "did not finish within" in part_e["tests"][2]["reason"]


def test_gradescope_shows_a_valid_suites_tests_and_verdicts():
    data = gradescope_part_e(invalid=False)
    shown = unescaped(data["output"] + "\n".join(test["output"] for test in data["tests"]))
    assert "Counts?" in shown and "- caught: a Joker that loses to a King" in shown


def test_a_part_e_counting_attack_scores_no_more_than_its_honest_twin_on_gradescope(autograder):
    """counts_pid (a test passing on the first three runs, told apart by its pid, and failing on every chaff) scores
    no more through run_autograder than the same tests without it (issue 17: it scored 100 against 82)"""
    scores = {}
    for name in ("counts_pid", "counts_pid__honest"):
        done = run_autograder(autograder, name)
        assert done.returncode == 0, done.stderr
        scores[name] = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))["score"]
    assert scores["counts_pid__honest"] == EXPECTED["counts_pid__honest"]["score"]
    assert scores["counts_pid"] <= scores["counts_pid__honest"], scores


def test_an_ungradable_submission_still_gets_results_with_its_reason(autograder):
    """A syntax error scores 0 with the reason in output, so the student sees why."""
    done = run_autograder(autograder, "syntax_error")
    assert done.returncode == 0, done.stderr
    data = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_results(data)
    assert data["score"] == 0 and "syntax" in data["output"].lower()


def test_the_bundled_wheel_is_the_same_bytes_every_time(tmp_path):
    """Two builds from the same sources give identical wheels (fixed timestamps, sorted entries)."""
    assert build_wheel(tmp_path / "a").read_bytes() == build_wheel(tmp_path / "b").read_bytes()


def test_a_bad_setting_fails_the_export_not_the_upload(tmp_path, capsys):
    """A grading.toml with a bad value is refused at export time with its one-line reason; no zip is written."""
    bad = tmp_path / "grading.toml"
    bad.write_text("[limits]\ncall_timeout = -1\n")
    assert main(["export", "gradescope", str(tmp_path / "a.zip"), "--config", str(bad)]) == 2
    assert "call_timeout" in capsys.readouterr().err and not (tmp_path / "a.zip").exists()


def test_text_from_a_submission_cannot_shape_the_gradescope_page():
    """An exception message or printed output with backtick fences and HTML stays inside its code block; a
    sentence quoting student values is escaped, so no markup of the student's renders."""
    from grader.export.gradescope_results import gradescope_results
    from grader.results import CategoryScore, ExceptionInfo, GradeResult, TestResult

    hostile = "````\n</pre><script>alert(1)</script> **bold** [link](http://x)"
    test = TestResult(id="test_x.py::test_y", name="a test", category="normal_rounds", score=0, max_score=1,
                      outcome="error", hidden=False, sentence=f"your code raised {hostile}",
                      exception=ExceptionInfo("ValueError", hostile, ""), output=hostile,
                      reproduction="print(1)")
    result = GradeResult(student="s", outcome="graded", reason="", score=0, max_score=1,
                         categories=[CategoryScore("normal_rounds", "Normal rounds", 0, 1)], tests=[test],
                         sha256="", grader_version="", sandbox="bwrap", sandbox_warning="", graded_at="",
                         execution_time=0)
    output = gradescope_results(result)["tests"][0]["output"]
    outside, inside = [], []
    fence = None
    for line in output.splitlines():
        opening = re.match(r"(`{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line == fence:
            fence = None
        else:
            (outside if fence is None else inside).append(line)
    assert fence is None and "````" in "\n".join(inside) and "<script>" in "\n".join(inside)
    assert "<script>" not in "\n".join(outside) and "\\<script\\>" in output and "\\*\\*bold\\*\\*" in output


def test_an_excused_hidden_test_says_follows_from_once():
    """follows_from begins with "follows from: ", so a hidden rule's Gradescope entry does not say it twice."""
    from grader.export.gradescope_results import gradescope_results
    from grader.results import FOLLOWS_FROM, CategoryScore, GradeResult, TestResult

    cause = "the Joker beats every other card, charged in Joker dominance"
    test = TestResult(id="test_w.py::test_x", name="a war", category="forced_war", score=1, max_score=1,
                      outcome="excused", hidden=True, sentence="", rule="three down, one up",
                      follows_from=FOLLOWS_FROM + cause)
    result = GradeResult(student="s", outcome="graded", reason="", score=1, max_score=1,
                         categories=[CategoryScore("forced_war", "Forced war", 1, 1)], tests=[test],
                         sha256="", grader_version="", sandbox="bwrap", sandbox_warning="", graded_at="",
                         execution_time=0)
    output = "\n".join(entry.get("output", "") for entry in gradescope_results(result)["tests"])
    assert "follows from" in output and "follows from follows from" not in output.replace(":", "")


def _cells(row: str) -> list[str]:
    """A Markdown table row's cells, split where a table splits them: at each | after an even number of
    backslashes (none included), code spans or not."""
    cells, start, run = [], 0, 0
    for index, char in enumerate(row):
        if char == "|" and run % 2 == 0:
            cells.append(row[start:index])
            start = index + 1
        run = run + 1 if char == "\\" else 0
    return cells[1:]  # the text before the row's first |


@pytest.mark.parametrize("hostile", [
    "a|yes|24|![x](http://evil.example/i.png)",
    "a\\|yes|24",
    "a\\\\|b\\\\\\|c",
    "a`|`b|c",
    "a\n| x | y |",
])
def test_no_test_id_adds_a_cell_to_the_gradescope_table_of_the_students_tests(hostile):
    """A parametrized id holding | (after any number of backslashes, or after a backtick) stays in its cell: every
    row of the table has the header's four cells, the first one the whole id as inline code (it made an invalid
    test show 'yes' and 24 bugs caught, and load a remote image)"""
    from grader.export.gradescope_results import gradescope_results
    from grader.results import GradeResult, StudentTest, StudentTestsResult

    tests = [StudentTest(id=f"tests/test_war.py::test_x[{hostile}]", valid=False, reason="it fails on the reference",
                         own_outcome="failed", catches=0),
             StudentTest(id="tests/test_war.py::test_y", valid=True, reason="", own_outcome="passed", catches=1)]
    result = GradeResult(student="s", outcome="graded", reason="", score=0, max_score=1, categories=[], tests=[],
                         sha256="", grader_version="", sandbox="bwrap", sandbox_warning="", graded_at="",
                         execution_time=0, student_tests=StudentTestsResult(status="graded", tests=tests))
    output = gradescope_results(result)["output"]
    table = output[output.index("| Test |"):].splitlines()
    assert len(table) == 4 and all(len(_cells(row)) == 4 for row in table), table
    first = _cells(table[2])
    assert first[1].strip().startswith("no: ") and first[2].strip() == "0"
    assert first[0].strip().startswith("`tests/test_war.py::test_x[") and first[0].strip().endswith("]`")
    assert first[0].strip().count("`") == 2
