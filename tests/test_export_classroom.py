"""`war-grader export classroom`: the template repository, its public tests and its autograding workflow.

The end-to-end tests do what GitHub Classroom does: clone the template, put a student's package in it, run
the workflow's shell steps verbatim (read from the YAML) and each command-grader step's command the way
that action runs it (`/bin/sh -c`, its small environment, pass on exit status 0, max-score or 0), then add
the points up as the grading reporter does for its "Points X/Y" line.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from grader.cli import main
from grader.export import classroom
from grader.export.classroom import ExportError, export_classroom
from isolated_venv import make_venv, pytest_only

PROJECT = Path(__file__).resolve().parents[1]
COMMAND_GRADER = "classroom-resources/autograding-command-grader@"
REPORTER = "classroom-resources/autograding-grading-reporter@"


def parse_yaml(text: str) -> Any:
    """The block-style YAML subset the workflow is written in: maps, lists of maps, `|` blocks, scalars."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    value, end = _block(lines, 0, _indent(lines[0]))
    assert end == len(lines), f"unparsed line: {lines[end]!r}"
    return value


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[str], i: int, indent: int) -> tuple[Any, int]:
    if lines[i].lstrip().startswith("- "):
        items = []
        while i < len(lines) and _indent(lines[i]) == indent and lines[i].lstrip().startswith("- "):
            text = lines[i].lstrip()[2:]
            if not re.match(r'("[^"]*"|[^:"]+):(\s|$)', text):
                items.append(_scalar(text))
                i += 1
                continue
            lines[i] = " " * (indent + 2) + text
            item, i = _block(lines, i, indent + 2)
            items.append(item)
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and _indent(lines[i]) == indent:
        key, _, rest = lines[i].strip().partition(":")
        key, rest = _scalar(key), rest.strip()
        i += 1
        if rest == "|":
            body = []
            while i < len(lines) and _indent(lines[i]) > indent:
                body.append(lines[i])
                i += 1
            margin = min(_indent(line) for line in body)
            mapping[key] = "".join(line[margin:] + "\n" for line in body)
        elif rest:
            mapping[key] = _scalar(rest)
        else:
            mapping[key], i = _block(lines, i, _indent(lines[i]))
    return mapping, i


def _scalar(text: str) -> Any:
    text = re.sub(r"\s+#.*$", "", text) if not text.startswith('"') else text
    return json.loads(text) if text.startswith('"') else text


def run_workflow(repo: Path, bin_folder: Path) -> tuple[str, dict[str, bool]]:
    """Play the workflow in repo: its run: steps, its command-grader steps, the reporter's points line."""
    workflow = parse_yaml((repo / ".github" / "workflows" / "classroom.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    path = f"{bin_folder}{os.pathsep}{os.environ['PATH']}"
    passed: dict[str, bool] = {}
    results: dict[str, dict[str, Any]] = {}
    for step in steps:
        if "run" in step:
            env = {"PATH": path, "HOME": str(repo.parent), "PIP_NO_INDEX": "1"}
            subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, check=True, timeout=120)
        elif step.get("uses", "").startswith(COMMAND_GRADER):
            inputs = step["with"]
            env = {"PATH": path, "HOME": str(repo.parent), "FORCE_COLOR": "true"}
            for command in (inputs.get("setup-command"), inputs["command"]):
                if command:
                    done = subprocess.run(["/bin/sh", "-c", command], cwd=repo, env=env, capture_output=True,
                                          timeout=float(inputs["timeout"]) * 60)
            status = "pass" if done.returncode == 0 else "fail"
            max_score = int(inputs["max-score"])
            passed[step["id"]] = status == "pass"
            results[step["id"]] = {"max_score": max_score, "tests": [{"score": max_score if status == "pass" else 0}]}
        elif step.get("uses", "").startswith(REPORTER):
            runners = step["with"]["runners"].split(",")
            for runner in runners:
                assert step["env"][f"{runner.upper()}_RESULTS"] == f"${{{{ steps.{runner}.outputs.result }}}}"
            total = sum(test["score"] for r in runners if results[r]["max_score"] for test in results[r]["tests"])
            maximum = sum(results[r]["max_score"] for r in runners if results[r]["max_score"])
            return f"Points {total}/{maximum}", passed
    raise AssertionError("the workflow has no grading reporter step")


def student_repository(tmp_path: Path, name: str) -> Path:
    """The exported template, committed, and a student's clone of it (as Classroom makes one)."""
    template = tmp_path / "template"
    if not template.exists():
        assert main(["export", "classroom", str(template)]) == 0
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
        subprocess.run([*git, "init", "-q"], cwd=template, check=True)
        subprocess.run([*git, "add", "-A"], cwd=template, check=True)
        subprocess.run([*git, "commit", "-q", "-m", "template"], cwd=template, check=True)
    clone = tmp_path / name
    subprocess.run(["git", "clone", "-q", str(template), str(clone)], check=True)
    return clone


def put_reference_in(repo: Path, *, bug: tuple[str, str, str] | None = None) -> None:
    """Replace the starter's modules by the reference's, optionally with one line changed (file, old, new)."""
    for module in (PROJECT / "reference").glob("*.py"):
        shutil.copyfile(module, repo / "starter" / module.name)
    if bug:
        file, old, new = bug
        source = (repo / "starter" / file).read_text(encoding="utf-8")
        assert source.count(old) == 1
        (repo / "starter" / file).write_text(source.replace(old, new), encoding="utf-8")


@pytest.fixture(scope="module")
def pytest_only_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with pytest and nothing else: not war-grader, not the reference."""
    folder = tmp_path_factory.mktemp("venv")
    bin_folder = make_venv(folder / "venv", pytest_only)
    for module in ("grader", "reference", "starter", "pytest_timeout"):
        probe = subprocess.run([str(bin_folder / "python"), "-c", f"import {module}"], cwd=folder,
                               capture_output=True, env={"PATH": os.environ["PATH"]})
        assert probe.returncode != 0, f"{module} is importable in the pytest-only environment"
    return bin_folder


def test_a_correct_package_earns_every_point_of_the_workflow(tmp_path, pytest_only_bin):
    """The workflow's steps, run in a clone holding a correct package, print Points 60/60."""
    repo = student_repository(tmp_path, "correct")
    put_reference_in(repo)
    points, passed = run_workflow(repo, pytest_only_bin)
    assert points == "Points 60/60" and all(passed.values()) and len(passed) == 6


def test_a_queue_peek_bug_costs_only_the_structures_step(tmp_path, pytest_only_bin):
    """A Queue.peek that shows the back (the game never peeks at a queue) fails the structures step alone."""
    repo = student_repository(tmp_path, "buggy")
    put_reference_in(repo, bug=("structures.py", "return self._items[0]", "return self._items[-1]"))
    points, passed = run_workflow(repo, pytest_only_bin)
    assert points == "Points 50/60"
    assert [step for step, ok in passed.items() if not ok] == ["test-structures"]


def test_the_untouched_starter_earns_nothing(tmp_path, pytest_only_bin):
    """The starter as exported raises NotImplementedError everywhere: Points 0/60."""
    repo = student_repository(tmp_path, "untouched")
    points, _ = run_workflow(repo, pytest_only_bin)
    assert points == "Points 0/60"


def test_plain_pytest_in_the_template_runs_every_public_test(tmp_path, pytest_only_bin):
    """`python -m pytest` at the root collects as many tests as tests/contract has, the handout's examples too."""
    repo = student_repository(tmp_path, "plain")
    put_reference_in(repo)
    done = subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q", "-p", "no:randomly"], cwd=repo,
                          capture_output=True, text=True, timeout=300, env={"PATH": os.environ["PATH"]})
    ours = subprocess.run([str(PROJECT / ".venv" / "bin" / "python") if (PROJECT / ".venv").exists() else "python",
                           "-m", "pytest", "-q", "--collect-only", "tests/contract"], cwd=PROJECT,
                          capture_output=True, text=True, timeout=300)
    count = re.search(r"(\d+) tests? collected", ours.stdout)
    assert done.returncode == 0, done.stdout[-2000:]
    assert count and f"{count.group(1)} passed" in done.stdout
    assert "test_a_worked_example_of_the_handout_plays_as_shown[" in subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q", "--collect-only",
                                          "tests/test_assignment_examples.py"], cwd=repo, capture_output=True,
                                         text=True, timeout=120).stdout


def test_the_template_holds_the_starter_and_public_tests_but_no_hidden_suite(tmp_path):
    """README.md is the handout; starter/ and tests/ are there; nothing of grader/ or its suites is."""
    export_classroom(tmp_path / "t")
    files = {path.relative_to(tmp_path / "t").as_posix() for path in (tmp_path / "t").rglob("*") if path.is_file()}
    assert (tmp_path / "t" / "README.md").read_text() == (PROJECT / "starter" / "ASSIGNMENT.md").read_text()
    assert {"starter/__init__.py", "tests/conftest.py", "tests/helpers.py", ".github/workflows/classroom.yml",
            "pytest.ini"} <= files
    hidden = {path.name for path in (PROJECT / "grader" / "grading" / "suites").glob("test_*.py")}
    assert not any(Path(file).name in hidden or file.startswith("grader") for file in files)
    assert not any("ASSIGNMENT.md" in file for file in files)


def test_test_files_shipped_in_the_starter_go_into_the_template(tmp_path, monkeypatch):
    """A test_*.py in starter/ (the Part E skeleton, say) is exported with the package."""
    starter = tmp_path / "starter"
    shutil.copytree(PROJECT / "starter", starter, ignore=shutil.ignore_patterns("__pycache__"))
    (starter / "test_war.py").write_text("def test_mine():\n    assert True\n")
    monkeypatch.setattr(classroom, "STARTER", starter)
    export_classroom(tmp_path / "t")
    assert (tmp_path / "t" / "starter" / "test_war.py").read_text() == "def test_mine():\n    assert True\n"


def test_per_test_weights_give_each_test_function_a_step_with_its_points(tmp_path):
    """--per test makes a step per test function; a file's weight goes to each of its tests, a test's own
    weight wins, the rest keep 1."""
    weights = tmp_path / "weights.toml"
    weights.write_text('[weights]\n"test_cards.py" = 2\n'
                       '"test_cards.py::test_card_order_is_by_rank_not_alphabetical" = 4\n')
    steps = export_classroom(tmp_path / "t", unit="test", weights=weights)
    contract = PROJECT / "tests" / "contract"
    functions = sum(len(classroom._test_functions(f)) for f in contract.glob("test_*.py"))
    cards = len(classroom._test_functions(contract / "test_cards.py"))
    assert len(steps) == functions and len({step.id for step in steps}) == functions
    by_name = {step.name: step.points for step in steps}
    assert by_name["test_cards.py::test_card_order_is_by_rank_not_alphabetical"] == 4
    assert by_name["test_cards.py::test_card_values_run_from_1_for_1_to_14_for_the_joker"] == 2
    assert sum(by_name.values()) == (functions - cards) + 2 * (cards - 1) + 4
    text = (tmp_path / "t" / ".github" / "workflows" / "classroom.yml").read_text()
    assert parse_yaml(text)["jobs"]["run-autograding-tests"]["steps"][3]["with"]["command"].startswith(
        "python -m pytest -q tests/test_")


@pytest.mark.parametrize(("content", "message"), [
    ('[weights]\n"test_nothing.py" = 3\n', "no such public category"),
    ('[weights]\n"test_cards.py::test_card_order_is_by_rank_not_alphabetical" = 3\n', "needs --per test"),
    ('[weights]\n"test_cards.py" = 2.5\n', "whole number"),
    ("[weights\n", "cannot read weights"),
])
def test_bad_weights_are_one_line_errors(tmp_path, content, message):
    """A weights file naming no public test, with a fractional weight, or not TOML, is refused with a reason."""
    weights = tmp_path / "weights.toml"
    weights.write_text(content)
    with pytest.raises(ExportError, match=message):
        export_classroom(tmp_path / "t", weights=weights)


def test_exporting_into_a_folder_that_has_files_is_refused(tmp_path, capsys):
    """The command never writes over an existing folder's files: exit 2 and one line."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "keep.txt").write_text("mine")
    assert main(["export", "classroom", str(tmp_path / "t")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "t" / "keep.txt").read_text() == "mine"
