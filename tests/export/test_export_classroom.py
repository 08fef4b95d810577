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
from grader.public_tests import public_digests
from isolated_venv import MakeVenv, pytest_only
from corpus import corpus

PROJECT = Path(__file__).resolve().parents[2]
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


def run_workflow(repo: Path, bin_folder: Path) -> tuple[str, dict[str, bool], dict[str, str]]:
    """Play the workflow in repo: its run: steps (their output by step name), its command-grader steps, the
    reporter's points line."""
    workflow = parse_yaml((repo / ".github" / "workflows" / "classroom.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["run-autograding-tests"]["steps"]
    path = f"{bin_folder}{os.pathsep}{os.environ['PATH']}"
    passed: dict[str, bool] = {}
    results: dict[str, dict[str, Any]] = {}
    logs: dict[str, str] = {}
    for step in steps:
        if "run" in step:
            env = {"PATH": path, "HOME": str(repo.parent), "PIP_NO_INDEX": "1"}
            ran = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True,
                                 timeout=120)
            assert ran.returncode == 0 or step.get("continue-on-error") == "true", ran.stdout + ran.stderr
            logs[step["name"]] = ran.stdout
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
            return f"Points {total}/{maximum}", passed, logs
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
def pytest_only_bin(fresh_venv: MakeVenv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with pytest and nothing else: not war-grader, not the reference."""
    folder = tmp_path_factory.mktemp("venv")
    bin_folder = fresh_venv(folder / "venv", pytest_only)
    for module in ("grader", "reference", "starter", "pytest_timeout"):
        probe = subprocess.run([str(bin_folder / "python"), "-c", f"import {module}"], cwd=folder,
                               capture_output=True, env={"PATH": os.environ["PATH"]})
        assert probe.returncode != 0, f"{module} is importable in the pytest-only environment"
    return bin_folder


PART_E_STEP = "Your own tests (Part E): not counted in the points"


def test_a_correct_package_earns_every_point_of_the_workflow(tmp_path, pytest_only_bin):
    """The workflow's steps, one per category worth its grading.toml points, run in a clone holding a correct
    package, print Points 80/80 (the 100 of the grade less Part E's 20); the student's own tests ran apart."""
    repo = student_repository(tmp_path, "correct")
    put_reference_in(repo)
    points, passed, logs = run_workflow(repo, pytest_only_bin)
    assert points == "Points 80/80" and all(passed.values())
    assert list(passed) == ["data-structures", "joker-dominance", "normal-rounds", "forced-war", "exhaustion",
                            "full-game", "extensions"]
    assert "1 passed, 4 skipped" in logs[PART_E_STEP]


def test_a_queue_peek_bug_costs_only_the_data_structures_step(tmp_path, pytest_only_bin):
    """A Queue.peek that shows the back (the game never peeks at a queue) fails the data structures step alone,
    which costs its 8 points as in the grade."""
    repo = student_repository(tmp_path, "buggy")
    put_reference_in(repo, bug=("structures.py", "return self._items[0]", "return self._items[-1]"))
    points, passed, _ = run_workflow(repo, pytest_only_bin)
    assert points == "Points 72/80"
    assert [step for step, ok in passed.items() if not ok] == ["data-structures"]


def test_the_untouched_starter_earns_nothing(tmp_path, pytest_only_bin):
    """The starter as exported raises NotImplementedError everywhere: Points 0/80, and the failing Part E
    skeleton does not stop the reporter."""
    repo = student_repository(tmp_path, "untouched")
    points, _, logs = run_workflow(repo, pytest_only_bin)
    assert points == "Points 0/80"
    assert "1 failed, 4 skipped" in logs[PART_E_STEP]


def test_the_categories_split_the_public_tests_each_into_exactly_one(tmp_path):
    """--category NAME, run for every category, collects every public test exactly once."""
    export_classroom(tmp_path / "t")
    python = str(PROJECT / ".venv" / "bin" / "python") if (PROJECT / ".venv").exists() else "python"

    def collected(*args: str) -> list[str]:
        done = subprocess.run([python, "-m", "pytest", "-q", "--collect-only", "tests/contract", *args],
                              cwd=tmp_path / "t", capture_output=True, text=True, timeout=120)
        return [line for line in done.stdout.splitlines() if "::" in line]

    everything = collected()
    parts = [collected("--category", step.category) for step in classroom.graded_steps(
        {category: 1.0 for category in classroom.CATEGORY_TITLES})]
    assert all(parts) and sorted(sum(parts, [])) == sorted(everything) and len(everything) > 60


def test_plain_pytest_runs_the_public_tests_then_the_students_own_counted_apart(tmp_path, pytest_only_bin):
    """`python -m pytest` at the root runs as many public tests as tests/contract has, the handout's examples
    too, and the student's own (starter/test_war.py, a test_*.py beside the package), counted on lines apart."""
    repo = student_repository(tmp_path, "plain")
    put_reference_in(repo)
    (repo / "test_mine.py").write_text("from starter import Queue\n\n\n"
                                       "def test_mine():\n    assert Queue().is_empty()\n")
    done = subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q"], cwd=repo,
                          capture_output=True, text=True, timeout=300, env={"PATH": os.environ["PATH"]})
    ours = subprocess.run([str(PROJECT / ".venv" / "bin" / "python") if (PROJECT / ".venv").exists() else "python",
                           "-m", "pytest", "-q", "--collect-only", "tests/contract"], cwd=PROJECT,
                          capture_output=True, text=True, timeout=300)
    count = re.search(r"(\d+) tests? collected", ours.stdout)
    assert done.returncode == 0, done.stdout[-2000:]
    assert count and (f"public tests (tests/contract/), what each push's score counts: {count.group(1)} passed"
                      in done.stdout)
    assert "your own tests (Part E), not counted in those points: 2 passed, 4 skipped" in done.stdout
    examples = subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q", "--collect-only",
                               "tests/contract/test_assignment_examples.py"], cwd=repo, capture_output=True,
                              text=True, timeout=120)
    assert "test_a_worked_example_of_the_handout_plays_as_shown[A forced war, step by step]" in examples.stdout


def test_a_wrong_queue_in_the_template_reads_as_in_tests_contract(tmp_path, pytest_only_bin):
    """A bug that puts the war piles back in the wrong order: both queues in full, front first, with a ^."""
    repo = student_repository(tmp_path, "diff")
    put_reference_in(repo, bug=("game.py", "first, second = (own, other) if",
                                "first, second = (other, own) if"))
    done = subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q", "tests/contract/test_resolve_war.py",
                           "-k", "test_the_winner_collects_its_own_pile"], cwd=repo, capture_output=True, text=True,
                          timeout=120, env={"PATH": os.environ["PATH"]})
    assert done.returncode == 1
    assert re.search(r"position \d+ differs \(front first, counted from 1\)", done.stdout), done.stdout[-3000:]
    yours = re.search(r"^E\s+yours: +(.+)$", done.stdout, re.MULTILINE)
    expected = re.search(r"^E\s+expected: (.+)$", done.stdout, re.MULTILINE)
    assert yours and expected and re.search(r"^E\s+\^$", done.stdout, re.MULTILINE)
    assert "..." not in yours.group(1) + expected.group(1) and "Use -v to get more diff" not in done.stdout


# -- every command of the template's README, run as written ----------------------------------------------

README_COMMANDS: dict[str, tuple[int, int]] = {
    "python -m pip install pytest pytest-timeout": (0, 0),
    "python -m pytest tests/contract --impl starter": (1, 0),
    "python -m pytest starter/test_war.py": (1, 0),
}
"""Each command of the README's command blocks, with the exit status the README gives it on the starter as
exported ("every test fails with NotImplementedError: that is expected"; the skeleton's "worked example fails
until your package plays a round") and on a correct package (every test passes: exit 0)."""


def readme_commands(readme: str) -> list[str]:
    """The commands of the README's indented blocks (what a student copies), their `# comments` cut off."""
    commands = []
    for block in re.findall(r"(?:^(?: {4}|\t).*\n|^\n)+", readme, re.MULTILINE):
        for line in block.splitlines():
            text = re.sub(r"\s+#.*$", "", line.strip())
            if re.match(r"(python3?|pytest|pip|git|cd)\b", text):
                commands.append(text)
    return commands


@pytest.fixture(scope="module")
def readme_bin(fresh_venv: MakeVenv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with what the README tells a student to install (pytest, pytest-timeout) and nothing else."""
    folder = tmp_path_factory.mktemp("readme-venv")
    return fresh_venv(folder / "venv", lambda name: pytest_only(name) or name.split("-", 1)[0].removesuffix(".py")
                     == "pytest_timeout")


@pytest.mark.parametrize("package", ["starter", "correct"])
def test_every_command_of_the_readme_runs_in_the_template_as_the_readme_says(tmp_path, readme_bin, package):
    """Every command in the template's README.md, run verbatim by a shell in a fresh clone, exits as the README
    says: on the starter every public test fails with NotImplementedError, on a correct package all pass."""
    repo = student_repository(tmp_path, package)
    if package == "correct":
        put_reference_in(repo)
    commands = readme_commands((repo / "README.md").read_text(encoding="utf-8"))
    assert commands == list(README_COMMANDS), "a README command without an expected exit status here"
    env = {"PATH": f"{readme_bin}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path), "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    for command in commands:
        done = subprocess.run(["/bin/sh", "-c", command], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300)
        expected = README_COMMANDS[command][package == "correct"]
        assert done.returncode == expected, f"{command}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr}"
        summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
        if command.startswith("python -m pytest tests/contract"):
            assert "war contract: --impl starter" in done.stdout
            assert (" passed" not in summary and "NotImplementedError" in done.stdout if package == "starter"
                    else " failed" not in summary)
        elif command == "python -m pytest starter/test_war.py":
            assert ("1 failed, 4 skipped" if package == "starter" else "1 passed, 4 skipped") in summary


def test_the_template_holds_the_starter_and_public_tests_but_no_hidden_suite(tmp_path):
    """README.md is the handout; starter/ and tests/ are there; nothing of grader/ or its suites is."""
    export_classroom(tmp_path / "t")
    files = {path.relative_to(tmp_path / "t").as_posix() for path in (tmp_path / "t").rglob("*") if path.is_file()}
    assert (tmp_path / "t" / "README.md").read_text() == (PROJECT / "starter" / "ASSIGNMENT.md").read_text()
    assert {"starter/__init__.py", "tests/conftest.py", "tests/contract/conftest.py", "tests/contract/helpers.py",
            ".github/workflows/classroom.yml", "pytest.ini"} <= files
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


def test_the_steps_points_keep_the_ratios_of_the_grading_toml_given(tmp_path):
    """--config's points become the steps' max-scores; fractions are scaled to whole points in the same ratios;
    a category worth nothing gets no step."""
    config = tmp_path / "grading.toml"
    config.write_text("[points]\nforced_war = 2.5\nexhaustion = 0\nextensions = 0.5\n")
    steps = export_classroom(tmp_path / "t", config_path=config)
    assert {step.category: step.points for step in steps} == {
        "data_structures": 80, "joker_dominance": 120, "normal_rounds": 80, "forced_war": 25, "full_game": 120,
        "extensions": 5}
    workflow = parse_yaml((tmp_path / "t" / ".github" / "workflows" / "classroom.yml").read_text())
    graded = [step for step in workflow["jobs"]["run-autograding-tests"]["steps"] if "id" in step]
    assert [(step["name"], int(step["with"]["max-score"])) for step in graded][3] == ("Forced war", 25)


def test_every_public_test_has_a_category_and_every_category_key_a_test():
    """A public test the table misses, or a key naming no test, fails the export with one line."""
    handout = (PROJECT / "starter" / "ASSIGNMENT.md").read_text()
    classroom.check_categories(sorted((PROJECT / "tests" / "contract").glob("test_*.py")), handout)
    with pytest.raises(ExportError, match="has no category"):
        classroom.check_categories(sorted((PROJECT / "tests" / "contract").glob("test_*.py")),
                                   handout + "\n### A new example\n\n```war-example\n```\n")


def test_the_shipped_digests_of_the_public_tests_are_current():
    """grader/public_tests.json (how Part E tells the template's public tests from a student's) holds the
    digests of the files the export writes now: `python -m grader.export.classroom` rewrites it."""
    assert sorted(public_digests()) == classroom.current_digests()


def test_the_export_is_deprecated_with_one_line_naming_classroom50(tmp_path, capsys):
    """GitHub Classroom was retired: the export still works, and says so in one line on stderr."""
    assert main(["export", "classroom", str(tmp_path / "t")]) == 0
    said = capsys.readouterr()
    assert said.err == ("war-grader: export classroom is deprecated: GitHub Classroom was retired on 2026-08-28; "
                        "use `war-grader export classroom50`\n")
    assert "wrote the template repository" in said.out and (tmp_path / "t" / ".github").is_dir()


def test_exporting_into_a_folder_that_has_files_is_refused(tmp_path, capsys):
    """The command never writes over an existing folder's files: exit 2 and one line."""
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "keep.txt").write_text("mine")
    assert main(["export", "classroom", str(tmp_path / "t")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "t" / "keep.txt").read_text() == "mine"


# -- a Classroom clone, graded: the template's public tests are not the student's Part E tests --------------

OWN_TESTS = {
    "starter/test_war.py": "from starter import Queue, play_round\n\n\ndef test_the_joker_beats_a_king():\n"
                           "    p1, p2 = Queue(), Queue()\n    p1.enqueue(\"Jo\")\n    p2.enqueue(\"K\")\n"
                           "    assert play_round(p1, p2) == \"P1\"\n",
    "tests/test_my_war.py": "from starter import play_game\n\n\ndef test_a_full_game_keeps_every_card():\n"
                            "    game = play_game(seed=3)\n    assert game.p1_cards + game.p2_cards == 54\n",
}
"""Two test files of a student's own: the skeleton rewritten, and one in tests/ beside the public ones."""


def classroom_clone(tmp_path: Path) -> Path:
    """A clone of the exported template with the package filled in from the corpus's perfect submission."""
    repo = student_repository(tmp_path, "student")
    for module in (corpus() / "perfect" / "starter").glob("*.py"):
        shutil.copyfile(module, repo / "starter" / module.name)
    return repo


def test_a_classroom_clone_lists_only_the_students_own_tests(sandbox, tmp_path):
    """Graded, a clone holding the template's public tests and two tests of the student's own shows exactly those
    two under "Each of your tests" (and in results.json), and no "[no-example]" row."""
    repo = classroom_clone(tmp_path)
    for name, text in OWN_TESTS.items():
        (repo / name).write_text(text)
    assert main(["grade", str(repo), "--out", str(tmp_path / "reports"), "--jobs", "1"]) == 0
    results = json.loads((tmp_path / "reports" / "student" / "results.json").read_text())
    ids = [test["id"] for test in results["extra_data"]["student_tests"]["tests"]]
    assert ids == ["starter/test_war.py::test_the_joker_beats_a_king",
                   "tests/test_my_war.py::test_a_full_game_keeps_every_card"]
    report = (tmp_path / "reports" / "student" / "report.html").read_text()
    table = report[report.index("Each of your tests"):]
    rows = re.findall(r'<th scope="row"><code>(.*?)</code>', table[:table.index("</table>")])
    assert rows == ids
    assert "no-example" not in report and "no-example" not in json.dumps(results)


def test_public_test_files_are_known_by_their_content_not_their_name(tmp_path):
    """Unchanged public test files are not the student's wherever they sit (CRLF line endings too); one the
    student edited is theirs, with the public helpers it imports; a file of theirs named like a public one too."""
    from grader.submissions import Submission, prepare

    repo = classroom_clone(tmp_path)
    contract = repo / "tests" / "contract"
    (contract / "test_cards.py").write_text((contract / "test_cards.py").read_text() + "\n\ndef test_extra():\n"
                                            "    assert True\n")
    (repo / "tests" / "test_structures.py").write_bytes((contract / "test_structures.py").read_bytes()
                                                        .replace(b"\n", b"\r\n"))
    (repo / "test_play_round.py").write_text("def test_mine():\n    assert True\n")
    copy = prepare(Submission("student", repo), tmp_path / "copy")
    assert copy.tests == ("starter/test_war.py", "test_play_round.py", "tests/contract/test_cards.py")
    assert (copy.root / "tests" / "contract" / "helpers.py").is_file()
    assert not (copy.root / "tests" / "contract" / "test_resolve_war.py").exists()
    assert not (copy.root / "tests" / "test_structures.py").exists()
