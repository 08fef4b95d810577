"""`war-grader export classroom DIR`: a GitHub Classroom template repository, public tests and workflow.

The template holds the starter package (ASSIGNMENT.md becomes README.md), a standalone copy of the public
contract tests that runs with plain pytest against ./starter, and .github/workflows/classroom.yml, which
runs them on every push through GitHub Classroom's autograding actions. The hidden suites never go in.
"""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .templating import render

CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2"
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065  # v5.6.0"
COMMAND_GRADER = "classroom-resources/autograding-command-grader@d5b3fa6f50f7f629b7bfae0cc3e4c58852b412d5  # v1"
REPORTER = "classroom-resources/autograding-grading-reporter@d13b5912daf5042ac1b71bc38bdb4a6bcd61d8ca  # v1"
"""The actions the workflow uses, pinned to the commits their tags named when this was written."""

PYTHON_VERSION = "3.11"
"""The Python the workflow sets up (the oldest the package supports)."""

TIMEOUT_MINUTES = 5
"""Minutes one command-grader step may run (its unit is minutes); the tests' own limit is 10 s each."""

UNITS = ("category", "test")
"""What one workflow step grades: a public test file (category) or a single test function."""

DEFAULT_POINTS = {"category": 10, "test": 1}
"""Points per step when no weights file says otherwise."""

PROJECT_ROOT = Path(__file__).resolve().parents[2]
STARTER = PROJECT_ROOT / "starter"
CONTRACT = PROJECT_ROOT / "tests" / "contract"
"""Where the starter and the public contract tests live in a checkout of war-grader."""

HANDOUT_NAME = "ASSIGNMENT.md"
HANDOUT_ASSIGNMENT = 'HANDOUT = Path(__file__).resolve().parents[1] / "README.md"'
"""In the template the handout is README.md at the root; the examples test is pointed there."""


class ExportError(ValueError):
    """The export cannot be written as asked (target not empty, bad weights, no checkout): one line."""


@dataclass(frozen=True)
class GradedStep:
    """One command-grader step of the workflow: a command whose success earns its points."""

    id: str
    """The step id, also the reporter's runner name (letters, digits and hyphens)."""
    name: str
    """The test name Classroom shows."""
    target: str
    """What pytest runs: a test file, or file::function."""
    points: int
    """max-score: earned when every test the command runs passes."""

    @property
    def command(self) -> str:
        """The shell command the step runs."""
        return shlex.join(["python", "-m", "pytest", "-q", self.target])


def export_classroom(target: Path, *, unit: str = "category", weights: Path | None = None) -> list[GradedStep]:
    """Write the template repository into target (new or empty) and return the workflow's graded steps."""
    if unit not in UNITS:
        raise ExportError(f"--per must be one of {', '.join(UNITS)}, not {unit!r}")
    for needed in (STARTER / HANDOUT_NAME, CONTRACT / "helpers.py"):
        if not needed.is_file():
            raise ExportError(f"{needed} not found: export classroom needs a checkout of war-grader")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ExportError(f"{target}: already exists and is not an empty folder")
    test_files = sorted(CONTRACT.glob("test_*.py"))
    steps = graded_steps(test_files, unit=unit, weights=_read_weights(weights))
    target.mkdir(parents=True, exist_ok=True)
    _copy_starter(target)
    _copy_tests(test_files, target / "tests")
    (target / "pytest.ini").write_text(render("template_pytest.ini.jinja"), encoding="utf-8")
    (target / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", encoding="utf-8")
    workflow = target / ".github" / "workflows" / "classroom.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(render("classroom.yml.jinja", steps=steps, unit=unit, checkout=CHECKOUT,
                               setup_python=SETUP_PYTHON, command_grader=COMMAND_GRADER, reporter=REPORTER,
                               python_version=PYTHON_VERSION, timeout_minutes=TIMEOUT_MINUTES), encoding="utf-8")
    return steps


def graded_steps(test_files: list[Path], *, unit: str, weights: dict[str, int]) -> list[GradedStep]:
    """A step per public test file (unit "category") or per test function (unit "test"), with its points.

    Weights are keyed by file ("test_cards.py") or, per test, by file::function; per test, a file's weight
    is the default of each of its tests."""
    steps: list[GradedStep] = []
    used: set[str] = set()
    for file in test_files:
        file_points = weights.get(file.name, DEFAULT_POINTS[unit])
        used.add(file.name)
        if unit == "category":
            steps.append(GradedStep(_step_id(file.stem), f"Public tests: {file.stem.removeprefix('test_')}",
                                    f"tests/{file.name}", file_points))
            continue
        for function in _test_functions(file):
            key = f"{file.name}::{function}"
            used.add(key)
            steps.append(GradedStep(_step_id(f"{file.stem}-{function.removeprefix('test_')}"), key,
                                    f"tests/{key}", weights.get(key, file_points)))
    unknown = sorted(set(weights) - used)
    if unknown:
        example = ", ".join(step.target.removeprefix("tests/") for step in steps[:2])
        raise ExportError(f"weights for {', '.join(unknown)}: no such public {unit} (keys look like {example}"
                          f"{'' if unit == 'test' else '; a single test needs --per test'})")
    return steps


def _read_weights(path: Path | None) -> dict[str, int]:
    """The [weights] table of a TOML file: test file or file::function to whole points."""
    if path is None:
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("weights", {})
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ExportError(f"{path}: cannot read weights: {error}") from None
    weights: dict[str, int] = {}
    for key, value in table.items():
        if type(value) is not int or value < 0:
            raise ExportError(f"{path}: weights.{key} = {value!r}: points must be a whole number >= 0 "
                              "(Classroom's max-score is an integer)")
        weights[key] = value
    return weights


def _step_id(text: str) -> str:
    """A step id: lowercase letters, digits and single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _test_functions(file: Path) -> list[str]:
    """The test functions defined at the top level of a test file, in order."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def _copy_starter(target: Path) -> None:
    """The starter package (any shipped test_*.py included) as starter/, and its handout as README.md."""
    shutil.copytree(STARTER, target / "starter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", HANDOUT_NAME))
    shutil.copyfile(STARTER / HANDOUT_NAME, target / "README.md")


def _copy_tests(test_files: list[Path], tests: Path) -> None:
    """The contract tests and their helpers, with a conftest that tests the local starter package."""
    tests.mkdir()
    for name in ("__init__.py", "helpers.py"):
        shutil.copyfile(CONTRACT / name, tests / name)
    for file in test_files:
        text = file.read_text(encoding="utf-8")
        (tests / file.name).write_text(_point_at_readme(text, file) if "HANDOUT" in text else text, encoding="utf-8")
    (tests / "conftest.py").write_text(render("template_conftest.py.jinja"), encoding="utf-8")


def _point_at_readme(text: str, file: Path) -> str:
    """The test source with its HANDOUT assignment replaced by the template's README.md."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["HANDOUT"]:
            lines = text.splitlines(keepends=True)
            assert node.end_lineno is not None
            return "".join([*lines[: node.lineno - 1], HANDOUT_ASSIGNMENT + "\n", *lines[node.end_lineno:]])
    raise ExportError(f"{file}: mentions HANDOUT but assigns it nowhere; cannot point it at README.md")
