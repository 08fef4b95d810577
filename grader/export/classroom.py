"""`war-grader export classroom DIR`: a GitHub Classroom template repository, public tests and workflow.

The template is laid out as the handout says (README.md is the handout): the starter package, tests/conftest.py
(--impl, default ./starter; --category; a time limit; a summary keeping the public tests and the student's own
apart) and the public contract tests in tests/contract/, with their own conftest.py, so every command of the
handout runs there as written and a wrong queue reads as in tests/contract. .github/workflows/classroom.yml
runs one GitHub Classroom command-grader step per category of the grade, worth that category's points of
grading.toml (so "Points X/Y" is the public share of the grade), and the student's own tests in a step that
counts nothing. The hidden suites never go in.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..config import load_config
from ..results import CATEGORY_TITLES
from ..public_tests import DIGESTS_PATH, content_digest
from .templating import render
from ..errors import UserError
from ..rubric import PART_E

CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683  # v4.2.2"
SETUP_PYTHON = "actions/setup-python@a26af69be951a213d495a4c3e4e4022e16d87065  # v5.6.0"
COMMAND_GRADER = "classroom-resources/autograding-command-grader@d5b3fa6f50f7f629b7bfae0cc3e4c58852b412d5  # v1"
REPORTER = "classroom-resources/autograding-grading-reporter@d13b5912daf5042ac1b71bc38bdb4a6bcd61d8ca  # v1"
"""The actions the workflow uses, pinned to the commits their tags named when this was written."""

PYTHON_VERSION = "3.11"
"""The Python the workflow sets up (the oldest the package supports)."""

TIMEOUT_MINUTES = 5
"""Minutes one command-grader step may run (its unit is minutes); the tests' own limit is 10 s each."""

PUBLIC_CATEGORIES: dict[str, str] = {
    "test_structures.py": "data_structures",
    "test_play_round.py::test_the_joker_beats_a_king_from_either_side": "joker_dominance",
    "test_play_round.py::test_two_jokers_tie_and_start_a_war": "joker_dominance",
    "test_cards.py::test_card_values_run_from_1_for_1_to_14_for_the_joker": "normal_rounds",
    "test_cards.py::test_card_order_is_by_rank_not_alphabetical": "normal_rounds",
    "test_cards.py::test_card_value_rejects_anything_else_naming_it": "normal_rounds",
    "test_play_round.py": "normal_rounds",
    "test_resolve_war.py": "forced_war",
    "test_resolve_war.py::test_a_player_short_at_the_first_cycle_loses_everything": "exhaustion",
    "test_resolve_war.py::test_a_player_short_after_a_repeat_loses_everything": "exhaustion",
    "test_resolve_war.py::test_loser_first_also_orders_the_piles_when_a_player_runs_short": "exhaustion",
    "test_resolve_war.py::test_both_short_is_a_draw_and_each_takes_its_own_pile_back": "exhaustion",
    "test_resolve_war.py::test_both_short_at_the_first_cycle_gives_back_the_tied_cards": "exhaustion",
    "test_cards.py": "full_game",
    "test_play_game.py": "full_game",
    "test_play_game.py::test_history_has_one_entry_per_round_ending_with_the_final_sizes": "extensions",
    "test_play_game.py::test_the_same_seed_replays_the_same_game": "extensions",
    "test_play_game.py::test_a_war_that_ties_again_is_a_chain_of_2": "extensions",
    "test_play_game.py::test_a_war_lost_at_its_first_check_is_a_chain_of_1": "extensions",
    "test_play_game.py::test_a_war_lost_at_the_check_after_a_tie_is_a_chain_of_2": "extensions",
    "test_play_game.py::test_the_longest_chain_is_the_longest_war_of_the_game_not_the_last": "extensions",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[A round without a war]":
        "normal_rounds",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[A forced war, step by step]":
        "forced_war",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[A war that ties again]":
        "forced_war",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[A player runs short]":
        "exhaustion",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[Both players run short: a draw]":
        "exhaustion",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[Two cards down instead of three]":
        "forced_war",
    "test_assignment_examples.py::test_a_worked_example_of_the_handout_plays_as_shown[The loser's pile first]":
        "forced_war",
}
"""The category of the grade each public test checks, by the rule it tests (the hidden suites' categories):
a key is a file, file::function or file::function[example]; the most specific key wins."""

PROJECT_ROOT = Path(__file__).resolve().parents[2]
STARTER = PROJECT_ROOT / "starter"
CONTRACT = PROJECT_ROOT / "tests" / "contract"
"""Where the starter and the public contract tests live in a checkout of war-grader."""

HANDOUT_NAME = "ASSIGNMENT.md"
HANDOUT_ASSIGNMENT = 'HANDOUT = Path(__file__).resolve().parents[2] / "README.md"'
"""In the template the handout is README.md at the root; the examples test is pointed there."""

EXAMPLE_HEADING = re.compile(r"^#+ (.+)\n(?:(?!#).*\n)*?```war-example", re.MULTILINE)
"""A worked example's heading: the heading line above a war-example block (its test's parameter id)."""


class ExportError(UserError, ValueError):
    """The export cannot be written as asked (target not empty, bad points, no checkout): one line."""


@dataclass(frozen=True)
class GradedStep:
    """One command-grader step of the workflow: a category of the grade, whose public tests earn its points."""

    id: str
    """The step id, also the reporter's runner name (letters, digits and hyphens)."""
    name: str
    """The test name Classroom shows: the category's title, as the handout's grade table writes it."""
    category: str
    """The category's key in grading.toml."""
    points: int
    """max-score: earned when every public test of the category passes."""

    @property
    def command(self) -> str:
        """The shell command the step runs (a student can run the same)."""
        return shlex.join(["python", "-m", "pytest", "-q", "tests/contract", "--category", self.category])


def export_classroom(target: Path, *, config_path: Path | None = None) -> list[GradedStep]:
    """Write the template repository into target (new or empty) and return the workflow's graded steps."""
    for needed in (STARTER / HANDOUT_NAME, CONTRACT / "helpers.py", CONTRACT / "conftest.py"):
        if not needed.is_file():
            raise ExportError(f"{needed} not found: export classroom needs a checkout of war-grader")
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise ExportError(f"{target}: already exists and is not an empty folder")
    steps = graded_steps(load_config(config_path).points)
    write_template(target, {step.category: step.name for step in steps})
    workflow = target / ".github" / "workflows" / "classroom.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(render("classroom.yml.jinja", steps=steps, checkout=CHECKOUT, setup_python=SETUP_PYTHON,
                               command_grader=COMMAND_GRADER, reporter=REPORTER, python_version=PYTHON_VERSION,
                               timeout_minutes=TIMEOUT_MINUTES), encoding="utf-8")
    return steps


def write_template(target: Path, categories: dict[str, str]) -> None:
    """The template repository without a workflow: the starter, README.md (the handout), tests/conftest.py with
    --category choosing among categories (key: title), the public tests, pytest.ini and .gitignore."""
    handout = (STARTER / HANDOUT_NAME).read_text(encoding="utf-8")
    check_categories(sorted(CONTRACT.glob("test_*.py")), handout)
    target.mkdir(parents=True, exist_ok=True)
    _copy_starter(target)
    contract = target / "tests" / "contract"
    contract.mkdir(parents=True)
    for name, text in public_files().items():
        (contract / name).write_text(text, encoding="utf-8")
    (target / "tests" / "conftest.py").write_text(render("template_conftest.py.jinja", categories=categories,
                                                         public=PUBLIC_CATEGORIES), encoding="utf-8")
    (target / "pytest.ini").write_text(render("template_pytest.ini.jinja"), encoding="utf-8")
    (target / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n", encoding="utf-8")


def graded_steps(points: dict[str, float]) -> list[GradedStep]:
    """A step per category the public tests check, in the handout's order, worth whole points in the same
    ratios as grading.toml's (scaled by the smallest power of ten that makes every one whole)."""
    categories = [category for category in CATEGORY_TITLES if category != PART_E and points.get(category, 0) > 0]
    scale = next((10 ** power for power in range(4)
                  if all((Fraction(str(points[c])) * 10 ** power).denominator == 1 for c in categories)), None)
    if scale is None:
        raise ExportError("points in grading.toml need at most 3 decimals to become whole Classroom points")
    return [GradedStep(re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-"), CATEGORY_TITLES[category],
                       category, int(Fraction(str(points[category])) * scale)) for category in categories]


def check_categories(test_files: list[Path], handout: str) -> None:
    """Every public test (each worked example too) has a category in PUBLIC_CATEGORIES, and every key there
    names a public test: a new public test cannot slip out of the workflow's points."""
    keys: set[str] = set()
    for file in test_files:
        keys.add(file.name)
        for function in _test_functions(file):
            tests = [f"{file.name}::{function}"]
            keys.add(tests[0])
            if file.name == "test_assignment_examples.py":
                tests = [f"{tests[0]}[{heading}]" for heading in EXAMPLE_HEADING.findall(handout)]
                keys.update(tests)
            for test in tests:
                if category_of(test) is None:
                    raise ExportError(f"public test {test} has no category: add it to PUBLIC_CATEGORIES")
    unknown = sorted(set(PUBLIC_CATEGORIES) - keys)
    if unknown:
        raise ExportError(f"PUBLIC_CATEGORIES names {unknown[0]}, which is no public test")
    wrong = sorted(set(PUBLIC_CATEGORIES.values()) - (set(CATEGORY_TITLES) - {PART_E}))
    if wrong:
        raise ExportError(f"PUBLIC_CATEGORIES uses {wrong[0]}, which is no category the public tests can check")


def category_of(test: str) -> str | None:
    """The category of a public test named file::function[parameters], by its most specific key."""
    function = test.split("[", 1)[0]
    for key in (test, function, function.split("::", 1)[0]):
        if key in PUBLIC_CATEGORIES:
            return PUBLIC_CATEGORIES[key]
    return None


def public_files() -> dict[str, str]:
    """The files of tests/contract/ as the template holds them: the examples test reads README.md."""
    written: dict[str, str] = {}
    for file in sorted(CONTRACT.glob("*.py")):
        text = file.read_text(encoding="utf-8")
        pointed = file.name.startswith("test_") and "HANDOUT" in text
        written[file.name] = _point_at_readme(text, file) if pointed else text
    return written


def current_digests() -> list[str]:
    """What public_tests.json should hold, from the checkout (`python -m grader.export.classroom` writes it):
    every file of tests/contract/ as the template holds it and as the checkout holds it."""
    texts = [*public_files().values(), *(file.read_text(encoding="utf-8") for file in sorted(CONTRACT.glob("*.py")))]
    return sorted({content_digest(text) for text in texts})


def _test_functions(file: Path) -> list[str]:
    """The test functions defined at the top level of a test file, in order."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def _copy_starter(target: Path) -> None:
    """The starter package (any shipped test_*.py included) as starter/, and its handout as README.md: the
    package's files name the handout README.md there (Part E knows the starter's tests by their statements, not
    their docstrings or comments)."""
    shutil.copytree(STARTER, target / "starter",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", HANDOUT_NAME))
    shutil.copyfile(STARTER / HANDOUT_NAME, target / "README.md")
    for module in sorted((target / "starter").glob("*.py")):
        text = module.read_text(encoding="utf-8")
        module.write_text(text.replace(HANDOUT_NAME, "README.md"), encoding="utf-8")


def _point_at_readme(text: str, file: Path) -> str:
    """The test source with its HANDOUT assignment replaced by the template's README.md."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["HANDOUT"]:
            lines = text.splitlines(keepends=True)
            assert node.end_lineno is not None
            return "".join([*lines[: node.lineno - 1], HANDOUT_ASSIGNMENT + "\n", *lines[node.end_lineno:]])
    raise ExportError(f"{file}: mentions HANDOUT but assigns it nowhere; cannot point it at README.md")


if __name__ == "__main__":
    DIGESTS_PATH.write_text(json.dumps(current_digests(), indent=1) + "\n")
