"""`war-grader export classroom50`: the tree it writes, and a fake of Classroom 50's runner grading with its bundle.

The runner fake does what Classroom 50 does after a push: the bundle's folder is tarred as SLUG/ (as the Pages
publisher tars it) and extracted into RUNNER_TEMP/classroom50-runtime/, so BUNDLE is
RUNNER_TEMP/classroom50-runtime/SLUG, then `python BUNDLE/autograder.py` runs in a git checkout
of the template, with the runner's environment and a Python that has pytest and nothing else (no war-grader,
no reference); then the runner's stamping and war-grader's own contract checker.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from grader.cli import main
from grader.config import load_config
from grader.export import classroom, classroom50
from grader.export.classroom import ExportError
from grader.export.classroom50 import check_bundle, export_classroom50
from grader.export.classroom50_result import check_result_v1, status_of
from isolated_venv import MakeVenv, pytest_only
from test_export_classroom import README_COMMANDS, parse_yaml, readme_bin, readme_commands  # noqa: F401 (a fixture)

PROJECT = Path(__file__).resolve().parents[2]
CLASSROOM, ASSIGNMENT, OWNER = "cs2-fall", "war", "alice-s"
BUNDLE_PATH = Path("classroom50") / CLASSROOM / "autograders" / ASSIGNMENT
COMMIT = f"https://github.com/ORG/{CLASSROOM}-{ASSIGNMENT}-{OWNER}/commit/1a2b3c4"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export with the default points, through the command line."""
    out = tmp_path_factory.mktemp("export") / "out"
    assert main(["export", "classroom50", str(out), "--classroom", CLASSROOM]) == 0
    return out


@pytest.fixture(scope="module")
def runtime(exported: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """RUNNER_TEMP, holding the bundle as the runner extracts it from the published SLUG.tar.gz (whose one
    top-level folder is SLUG/)."""
    temp = tmp_path_factory.mktemp("runner-temp")
    archive = temp / f"{ASSIGNMENT}.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(exported / BUNDLE_PATH, arcname=ASSIGNMENT)
    with tarfile.open(archive) as tar:
        tar.extractall(temp / "classroom50-runtime", filter="data")
    archive.unlink()
    return temp


@pytest.fixture(scope="module")
def pytest_only_bin(fresh_venv: MakeVenv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Python with pytest and nothing else: not war-grader, not the reference."""
    folder = tmp_path_factory.mktemp("venv")
    return fresh_venv(folder / "venv", pytest_only)


def checkout(tmp_path: Path, exported: Path, *, package: str = "reference",
             bug: tuple[str, str, str] | None = None) -> Path:
    """A student's repository from template/, committed with git: the starter replaced by the reference (with one
    line changed by bug: file, old, new), or left as exported ("starter")."""
    repo = tmp_path / "student"
    shutil.copytree(exported / "template", repo)
    if package == "reference":
        for module in (PROJECT / "reference").glob("*.py"):
            shutil.copyfile(module, repo / "starter" / module.name)
    if bug:
        file, old, new = bug
        source = (repo / "starter" / file).read_text(encoding="utf-8")
        assert source.count(old) == 1
        (repo / "starter" / file).write_text(source.replace(old, new), encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "submission"], cwd=repo, check=True)
    return repo


def run_autograder(repo: Path, runtime: Path, bin_folder: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    """Run the bundle's autograder.py in repo as the runner does; the run and $GITHUB_OUTPUT's text."""
    output = runtime / f"github-output-{repo.parent.name}"
    output.write_text("")
    bundle = runtime / "classroom50-runtime" / ASSIGNMENT
    env = {"PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}", "HOME": str(repo.parent),
           "CLASSROOM": CLASSROOM, "ASSIGNMENT": ASSIGNMENT, "SUBMISSION_TAG": "submit/2026-10-03T18-22-41Z-1a2b3c4",
           "OWNER": OWNER, "USERNAME": OWNER, "ASSIGNMENT_TYPE": "individual", "COMMIT_URL": COMMIT,
           "RELEASE_URL": f"https://github.com/ORG/{CLASSROOM}-{ASSIGNMENT}-{OWNER}/releases/tag/x",
           "REVIEW_URL": f"https://github.com/ORG/{CLASSROOM}-{ASSIGNMENT}-{OWNER}/compare/a...b",
           "CLASSROOM50_BUNDLE_DIR": str(bundle), "PAGES_BASE_URL": "http://127.0.0.1:9", "RUNNER_TEMP": str(runtime),
           "GITHUB_OUTPUT": str(output), "GITHUB_ACTIONS": "true", "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run([str(bin_folder / "python"), str(bundle / "autograder.py")], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=660)
    return done, output.read_text()


def stamped(repo: Path) -> dict[str, Any]:
    """result.json after the runner's stamping (owner, assignment_type, datetime, graded_at), checked by
    war-grader's checker."""
    data = json.loads((repo / "result.json").read_text(encoding="utf-8"))
    data.update(owner=OWNER, assignment_type="individual", datetime="2026-10-03T18:22:41Z",
                graded_at="2026-10-03T18:23:02Z")
    assert check_result_v1(data, CLASSROOM, ASSIGNMENT, OWNER) is None
    assert data["score"] == sum(test["score"] for test in data["tests"])
    return data


CATEGORIES = ["data_structures", "joker_dominance", "normal_rounds", "forced_war", "exhaustion", "full_game",
              "extensions"]


def test_a_correct_package_scores_80_of_80_with_status_success(tmp_path, exported, runtime, pytest_only_bin):
    """The reference: every category passes, one status line and one summary line in $GITHUB_OUTPUT."""
    repo = checkout(tmp_path, exported)
    done, output = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    data = stamped(repo)
    assert (data["score"], data["max-score"], status_of(data)) == (80, 80, "success")
    assert [test["category"] for test in data["tests"]] == CATEGORIES
    assert all(test["test-name"].endswith(" (public tests)") and test["failed"] == [] for test in data["tests"])
    assert sum(test["public_tests"] for test in data["tests"]) > 60
    assert output.splitlines() == ["status=success", "summary=war public tests: 80/80 (7 of 7 categories)"]
    assert "What failed" not in (repo / "release-body.md").read_text(encoding="utf-8")


def test_the_untouched_starter_scores_0_of_80_with_status_failure(tmp_path, exported, runtime, pytest_only_bin):
    """The starter raises NotImplementedError everywhere: 0/80, each failure's message says so."""
    repo = checkout(tmp_path, exported, package="starter")
    done, output = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stderr
    data = stamped(repo)
    assert (data["score"], data["max-score"], status_of(data)) == (0, 80, "failure")
    assert all(failure["message"].startswith("NotImplementedError") for test in data["tests"]
               for failure in test["failed"])
    assert all(len(test["failed"]) <= 10 for test in data["tests"])
    assert [line.split("=")[0] for line in output.splitlines()] == ["status", "summary"]
    body = (repo / "release-body.md").read_text(encoding="utf-8")
    assert len(body) <= 60000 and body.startswith("# War: public tests 0 / 80")


def test_a_queue_peek_bug_costs_only_data_structures(tmp_path, exported, runtime, pytest_only_bin):
    """Queue.peek showing the back costs data structures' 8 points alone; the Release names the failing test and
    the command that runs its category."""
    repo = checkout(tmp_path, exported, bug=("structures.py", "return self._items[0]", "return self._items[-1]"))
    done, output = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stderr
    data = stamped(repo)
    assert data["score"] == 72 and [test["category"] for test in data["tests"] if not test["passed"]] == [
        "data_structures"]
    failed = data["tests"][0]["failed"]
    node = "tests/contract/test_structures.py::test_queue_peek_shows_the_front_without_removing_it"
    assert [failure["test"] for failure in failed] == [node] and failed[0]["outcome"] == "failed"
    body = (repo / "release-body.md").read_text(encoding="utf-8")
    assert f"`{node}`" in body and "python -m pytest tests/contract --category data_structures" in body
    assert "status=failure" in output.splitlines()


def test_a_checkout_without_the_package_is_graded_with_every_category_failed(tmp_path, exported, runtime,
                                                                               pytest_only_bin):
    """No starter/__init__.py is a grading outcome: exit 0, every category failed with "no starter/ package
    found"."""
    repo = checkout(tmp_path, exported, package="starter")
    (repo / "starter" / "__init__.py").unlink()
    done, output = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stderr
    data = stamped(repo)
    assert data["score"] == 0 and not any(test["passed"] for test in data["tests"])
    assert {failure["message"] for test in data["tests"] for failure in test["failed"]} == {
        "no starter/ package found"}
    assert "status=failure" in output.splitlines()


def test_an_endless_loop_is_cut_off_and_reported_as_a_timeout(tmp_path, exported, runtime, pytest_only_bin):
    """A Queue.peek that never returns (the game never peeks) is stopped by the conftest's limit: the test's
    outcome is timeout, the other categories pass, and the autograder still exits 0."""
    repo = checkout(tmp_path, exported, bug=("structures.py", "return self._items[0]",
                                             "while True:\n            pass"))
    done, _ = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stderr
    data = stamped(repo)
    assert data["score"] == 72
    assert [(failure["outcome"], failure["message"].split(":")[0]) for failure in data["tests"][0]["failed"]] == [
        ("timeout", "TimeoutError")]


def test_the_checkouts_own_copy_of_the_tests_and_handout_changes_nothing(tmp_path, exported, runtime,
                                                                         pytest_only_bin):
    """A student who edits tests/contract (every test passing) and the README's worked examples still gets the
    bundle's tests: the peek bug still costs data structures."""
    repo = checkout(tmp_path, exported, bug=("structures.py", "return self._items[0]", "return self._items[-1]"))
    for test in (repo / "tests" / "contract").glob("test_*.py"):
        test.write_text("def test_nothing():\n    assert True\n")
    (repo / "tests" / "conftest.py").write_text("")
    (repo / "README.md").write_text("# nothing here\n")
    done, _ = run_autograder(repo, runtime, pytest_only_bin)
    assert done.returncode == 0, done.stderr
    assert stamped(repo)["score"] == 72


def test_without_pytest_and_no_way_to_install_it_the_exit_is_1(fresh_venv, tmp_path, exported, runtime):
    """A Python without pytest whose pip finds no index: an infrastructure error, exit 1 and a ::error:: line."""
    bin_folder = fresh_venv(tmp_path / "venv", lambda name: name.split("-", 1)[0] == "pip")
    repo = checkout(tmp_path, exported)
    done, output = run_autograder(repo, runtime, bin_folder)
    assert done.returncode == 1
    assert "::error::" in done.stdout and output == ""


# -- the tree written ---------------------------------------------------------------------------------------

def test_the_tree_is_the_template_the_bundle_the_runtime_and_the_workflow(exported):
    """OUT holds README.md, template/ (no .github/), the bundle (only its listed files), runtime.json and the
    grading workflow; the bundle's handout, conftest and public tests are the template's, byte for byte."""
    files = {path.relative_to(exported).as_posix() for path in exported.rglob("*") if path.is_file()}
    bundle = BUNDLE_PATH.as_posix()
    assert {file.split("/")[0] for file in files} == {"README.md", "template", "classroom50", "runtime.json",
                                                      "grading"}
    assert not any(file.startswith("template/.github") for file in files)
    contract = sorted(file.name for file in (exported / "template" / "tests" / "contract").iterdir())
    assert sorted(file.removeprefix(bundle + "/") for file in files if file.startswith("classroom50/")) == sorted([
        *classroom50.BUNDLE_FILES, *(f"public/tests/contract/{name}" for name in contract)])
    for name in ["README.md", "tests/conftest.py", *(f"tests/contract/{file}" for file in contract)]:
        assert (exported / bundle / "public" / name).read_bytes() == (exported / "template" / name).read_bytes()
    assert json.loads((exported / "runtime.json").read_text()) == {"python": "3.11"}
    ini = (exported / bundle / "public" / "pytest.ini").read_text().splitlines()
    assert "addopts = -p no:cacheprovider" in ini and not any(line.startswith("testpaths") for line in ini)
    categories = json.loads((exported / bundle / "categories.json").read_text())
    assert [(c["key"], c["points"]) for c in categories["categories"]] == [
        ("data_structures", 8), ("joker_dominance", 12), ("normal_rounds", 8), ("forced_war", 20),
        ("exhaustion", 16), ("full_game", 12), ("extensions", 4)]
    assert categories["public_tests"] == classroom.PUBLIC_CATEGORIES and categories["scale"] == 1


def test_no_byte_of_a_hidden_suite_or_the_reference_reaches_the_bundle(exported):
    """No hidden suite's file name or telling line, no reference line the starter lacks, no [visibility] hidden
    test name, and no grading.toml section, anywhere in the bundle."""
    bundle = exported / BUNDLE_PATH
    text = "\n".join(path.read_text(encoding="utf-8") for path in bundle.rglob("*") if path.is_file())
    suites = sorted((PROJECT / "grader" / "grading" / "suites").glob("*.py"))
    assert not any(path.name in {file.name for file in suites if file.name.startswith("test_")}
                   for path in bundle.rglob("*"))
    lines = set(text.splitlines())
    starter = {line for path in (PROJECT / "starter").glob("*.py") for line in path.read_text().splitlines()}
    for path in [*suites, *(PROJECT / "reference").glob("*.py")]:
        telling = {line for line in path.read_text().splitlines() if len(line.strip()) >= 40} - starter
        assert not lines & telling, path
    for pattern in load_config().hidden:
        assert pattern.rsplit("::", 1)[-1] not in text
    assert "[points]" not in text and "[visibility]" not in text and "[late]" not in text


def test_a_bundle_holding_what_students_must_not_see_is_refused(tmp_path, monkeypatch):
    """A hidden suite's line or the reference's in a public file, a [visibility] hidden test a public test names,
    or a file the template lacks: the export stops with one line and leaves OUT empty."""
    contract = tmp_path / "contract"
    shutil.copytree(PROJECT / "tests" / "contract", contract, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(classroom, "CONTRACT", contract)
    helpers = (contract / "helpers.py").read_text()
    for leak, said in ((PROJECT / "grader" / "grading" / "suites" / "test_forced_war.py", "a hidden suite"),
                       (PROJECT / "reference" / "game.py", "the reference")):
        telling = [line for line in leak.read_text().splitlines() if len(line.strip()) >= 60 and line.startswith(
            "    ") and line.strip() not in (PROJECT / "starter" / "game.py").read_text()]
        (contract / "helpers.py").write_text(helpers + "\n\ndef leaked():\n" + telling[0] + "\n")
        out = tmp_path / f"out-{said.split()[-1]}"
        with pytest.raises(ExportError, match=f"helpers.py holds a line of {said}"):
            export_classroom50(out, classroom_name=CLASSROOM)
        assert not out.exists() or not any(out.iterdir())
    (contract / "helpers.py").write_text(helpers)
    config = tmp_path / "grading.toml"
    config.write_text('[visibility]\nhidden = ["test_structures.py::test_queue_peek_shows_the_front*"]\n')
    with pytest.raises(ExportError, match="names the hidden test"):
        export_classroom50(tmp_path / "out-visibility", classroom_name=CLASSROOM, config_path=config)
    out = tmp_path / "out-ok"
    export_classroom50(out, classroom_name=CLASSROOM)
    bundle = out / BUNDLE_PATH
    for extra in ("tests.json", "grading.toml", "public/tests/contract/roster.csv"):
        (bundle / extra).write_text("{}")
        with pytest.raises(ExportError, match=f"would hold {extra}"):
            check_bundle(bundle, load_config())
        (bundle / extra).unlink()
    (bundle / "public" / "README.md").write_text("[late]\ndue = 2026-12-01\n")
    with pytest.raises(ExportError, match=r"grading.toml's \[late\]"):
        check_bundle(bundle, load_config())


def test_bad_names_a_used_folder_and_unscalable_points_are_one_line_and_exit_2(tmp_path, capsys):
    """Each refusal is exit 2 with one line on stderr, and nothing written."""
    config = tmp_path / "grading.toml"
    config.write_text("[points]\nforced_war = 2.0005\n")
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "keep.txt").write_text("mine")
    for arguments, said in ((["--classroom", "CS2"], "--classroom 'CS2'"),
                            (["--classroom", "cs2", "--assignment=-war"], "--assignment '-war'"),
                            (["--classroom", "cs2", "--config", str(config)], "at most 3 decimals")):
        assert main(["export", "classroom50", str(tmp_path / "new"), *arguments]) == 2
        error = capsys.readouterr().err
        assert said in error and error.count("\n") == 1
        assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())
    assert main(["export", "classroom50", str(tmp_path / "used"), "--classroom", "cs2"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "used" / "keep.txt").read_text() == "mine"


def test_points_are_scaled_by_the_smallest_power_of_ten_part_e_included(tmp_path, capsys):
    """Part E's 2.5 makes the scale 10 even though no public category needs it; the summary line gives the public
    share of the scaled total."""
    config = tmp_path / "grading.toml"
    config.write_text("[points]\nstudent_tests = 2.5\nextensions = 0\n")
    assert main(["export", "classroom50", str(tmp_path / "out"), "--classroom", "cs2", "--config",
                 str(config)]) == 0
    assert "the public tests earn 760 of 785 points" in capsys.readouterr().out
    categories = json.loads((tmp_path / "out" / "classroom50" / "cs2" / "autograders" / "war" /
                             "categories.json").read_text())
    assert categories["scale"] == 10 and [c["key"] for c in categories["categories"]][-1] == "full_game"


def test_the_handout_gains_only_its_closing_section_and_no_command_to_run(exported):
    """template/README.md is the handout, then "Where your results appear"; the commands a student copies are
    still exactly those test_export_classroom.py runs as written, and no worked example was added."""
    readme = (exported / "template" / "README.md").read_text()
    handout = (PROJECT / "starter" / "ASSIGNMENT.md").read_text()
    assert readme.startswith(handout) and "## Where your results appear" in readme[len(handout):]
    assert "war-example" not in readme[len(handout):] and "View grade" in readme[len(handout):]
    assert readme_commands(readme) == list(README_COMMANDS)


def test_the_teachers_readme_is_filled_in_with_org_classroom_and_slug(tmp_path):
    """--org fills the commands; without it the placeholder ORG stands there."""
    export_classroom50(tmp_path / "out", classroom_name="cs2-fall", assignment="war-game", org="my-course")
    readme = (tmp_path / "out" / "README.md").read_text()
    assert "gh teacher assignment add my-course cs2-fall war-game" in readme and "--runtime runtime.json" in readme
    assert "classroom50/cs2-fall/autograders/war-game/" in readme and "classroom.yml" in readme
    assert "env:\n  ORG: \"my-course\"" in (tmp_path / "out" / "grading" / ".github" / "workflows" /
                                          "grade-classroom50.yml").read_text()


# -- the teacher's grading workflow -----------------------------------------------------------------------------

def test_the_grading_workflow_keeps_the_token_away_from_student_code(exported):
    """Its inputs; read-only contents; no credentials persisted; every action pinned to a commit; the token only
    in the env of the clone and publish steps; clones with full history; --at or --latest."""
    text = (exported / "grading" / ".github" / "workflows" / "grade-classroom50.yml").read_text()
    workflow = parse_yaml(text)
    inputs = workflow["on"]["workflow_dispatch"]["inputs"]
    assert list(inputs) == ["classroom", "assignment", "at", "publish"]
    assert inputs["classroom"]["default"] == CLASSROOM and inputs["publish"]["type"] == "boolean"
    assert workflow["permissions"] == {"contents": "read"}
    assert "#  schedule:" in text
    token_steps = []
    for job in workflow["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
                if step["uses"].startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] == "false"
            if "WAR_GRADER_TOKEN" in json.dumps(step):
                assert "WAR_GRADER_TOKEN" in json.dumps(step.get("env", {})) and "WAR_GRADER_TOKEN" not in step.get(
                    "run", "")
                token_steps.append(step["name"])
            if "gh repo clone" in step.get("run", ""):
                assert "--depth" not in step["run"]
    assert token_steps == ["Clone the class", "Clone the class", "Post the reports on the Feedback pull requests"]
    grade = next(step for step in workflow["jobs"]["grade"]["steps"] if "war-grader grade" in step.get("run", ""))
    assert "--at \"$AT\"" in grade["run"] and "--latest" in grade["run"] and "env" not in grade
    assert workflow["jobs"]["publish"]["if"] == "${{ inputs.publish }}"


def test_the_war_report_lists_every_collected_public_test_even_when_the_session_stops(exported, tmp_path,
                                                                                        pytest_only_bin):
    """--war-report with -x on the starter: the first test failed with its message, every other collected public
    test is in the file as never run; each record names its category. Without the option nothing is written."""
    repo = checkout(tmp_path, exported, package="starter")
    report = tmp_path / "report.json"
    done = subprocess.run([str(pytest_only_bin / "python"), "-m", "pytest", "-q", "-x", "tests/contract",
                           "--war-report", str(report)], cwd=repo, capture_output=True, text=True, timeout=300,
                          env={"PATH": os.environ["PATH"]})
    assert done.returncode == 1, done.stdout[-2000:]
    records = json.loads(report.read_text())
    assert len(records) > 60 and len({record["nodeid"] for record in records}) == len(records)
    assert [record["outcome"] for record in records].count("failed") == 1
    failed = next(record for record in records if record["outcome"] == "failed")
    assert failed["message"].startswith("NotImplementedError") and failed["category"] in CATEGORIES
    assert {record["outcome"] for record in records} == {"failed", "error"}
    assert all(record["message"] == "never ran: the session ended before this test" for record in records
               if record["outcome"] == "error")
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize("package", ["starter", "reference"])
def test_every_command_of_the_templates_readme_runs_as_it_says(tmp_path, exported, readme_bin, package):
    """Each command a student copies from template/README.md, run verbatim by a shell in a checkout, exits as
    test_export_classroom.py's table says (the starter fails its tests, a correct package passes), and the
    closing section's one-category command runs too."""
    repo = checkout(tmp_path, exported, package=package)
    env = {"PATH": f"{readme_bin}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path), "PIP_NO_INDEX": "1",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    readme = (repo / "README.md").read_text()
    closing = re.search(r"`(python -m pytest tests/contract --category [a-z_]+)`", readme)
    assert closing
    for command in [*readme_commands(readme), closing.group(1)]:
        done = subprocess.run(["/bin/sh", "-c", command], cwd=repo, env=env, capture_output=True, text=True,
                              timeout=300)
        expected = README_COMMANDS.get(command, (1, 0))[package == "reference"]
        assert done.returncode == expected, f"{command}: exit {done.returncode}\n{done.stdout[-2000:]}"


def test_a_graded_clone_becomes_a_classroom50_result_end_to_end(sandbox, tmp_path, exported):
    """A student repository made from template/ (the reference in it, .classroom50.yaml added by a commit of its
    own, a submit/ tag), graded with --latest through the sandbox: results.json records the graded commit's full
    SHA, and classroom50 results turns it into a result.json the checker accepts, 80 of 100, with the tag as the
    submission and the review from the commit that added .classroom50.yaml."""
    (tmp_path / "class").mkdir()
    repo = checkout(tmp_path / "class", exported)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    (repo / ".classroom50.yaml").write_text("assignment: war\n")
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "classroom50"], cwd=repo, check=True)
    baseline = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    (repo / "notes.txt").write_text("done\n")
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "done"], cwd=repo, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    subprocess.run(["git", "tag", "submit/2026-10-03T18-22-41Z-" + sha[:7]], cwd=repo, check=True)
    student = repo.rename(tmp_path / "class" / f"{CLASSROOM}-{ASSIGNMENT}-{OWNER}")
    assert main(["grade", str(tmp_path / "class"), "--latest", "--out", str(tmp_path / "reports"), "--jobs", "1"]) == 0
    graded = json.loads((tmp_path / "reports" / student.name / "results.json").read_text())
    assert graded["extra_data"]["commit"] == sha
    assert main(["classroom50", "results", str(tmp_path / "reports"), "--classroom", CLASSROOM, "--assignment",
                 ASSIGNMENT, "--org", "my-org", "--class", str(tmp_path / "class"), "--to", str(tmp_path / "c50")]) == 0
    data = json.loads((tmp_path / "c50" / OWNER / "result.json").read_text())
    assert check_result_v1(data, CLASSROOM, ASSIGNMENT, OWNER) is None
    assert (data["score"], data["max-score"]) == (80, 100)  # the template's Part E skeleton catches no bug
    assert [test["category"] for test in data["tests"] if not test["passed"]] == ["student_tests"]
    assert data["submission"] == "submit/2026-10-03T18-22-41Z-" + sha[:7]
    assert data["review"].endswith(f"/{CLASSROOM}-{ASSIGNMENT}-{OWNER}/compare/{baseline}...{sha}")


def test_the_template_names_only_files_it_holds_and_tells_the_student_to_push(exported):
    """Issue 28 item 8: the package's modules name the handout by the file the template holds (README.md, not the
    starter's ASSIGNMENT.md), and the handout says that only what is committed and pushed is graded"""
    template = exported / "template"
    for module in (template / "starter").glob("*.py"):
        for name in set(re.findall(r"\b[A-Z][A-Za-z_]*\.md\b", module.read_text())):
            assert (template / name).exists(), f"{module.name} names {name}"
    readme = (template / "README.md").read_text()
    closing = readme[readme.index("## Where your results appear"):]
    assert "commit" in closing and "git push" in closing
