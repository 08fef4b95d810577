"""The rubric is declared once (grader/rubric.py): every suite, chaff, repair, setting and export names only the
categories declared there, and every category declared there is graded. Fast: nothing here runs a sandbox."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from grader import rubric
from grader.chaffs import CHAFFS
from grader.config import SETTINGS
from grader.part_e.judge import SCENARIOS, scenario_of
from grader.results import CATEGORY_TITLES

ROOT = Path(__file__).resolve().parent.parent
SUITES = ROOT / "grader" / "grading" / "suites"


def _marked_category(path: Path) -> str | None:
    """The category of a suite file's `pytestmark = pytest.mark.category(KEY)`, if it has one."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "pytestmark"
                and isinstance(node.value, ast.Call) and getattr(node.value.func, "attr", "") == "category"):
            return ast.literal_eval(node.value.args[0])
    return None


def test_each_hidden_suite_grades_the_category_its_record_names():
    """Every suite file's category marker is the record that names that file, and every record but Part E's names
    a suite file that exists"""
    marked = {path.name: _marked_category(path) for path in sorted(SUITES.glob("test_*.py"))}
    declared = {category.suite: category.key for category in rubric.CATEGORIES if category.suite}
    assert marked == declared
    assert [category.key for category in rubric.CATEGORIES if category.suite is None] == [rubric.PART_E]


def test_titles_settings_and_grading_toml_follow_the_records_in_order():
    """The report titles, the points settings and grading.toml's [points] list the declared categories, in order"""
    assert list(CATEGORY_TITLES) == list(rubric.KEYS)
    assert [s.key for s in SETTINGS if s.section == "points"] == list(rubric.KEYS)
    shipped = tomllib.loads((ROOT / "grader" / "grading.toml").read_text(encoding="utf-8"))
    assert list(shipped["points"]) == list(rubric.KEYS)


def test_every_chaff_counts_in_a_scenario_of_part_e():
    """A chaff's category is declared and has a Part E scenario (a chaff of an undeclared category, or of one
    without a scenario, used to raise KeyError only while Part E was judged)"""
    for chaff in CHAFFS:
        assert chaff.category in rubric.KEYS and chaff.category != rubric.PART_E, chaff.name
        assert scenario_of(chaff.category) in SCENARIOS
    assert set(SCENARIOS) == set(rubric.SCENARIOS)
    assert all(SCENARIOS[scenario][1] for scenario in SCENARIOS), "a scenario with no category"


def test_every_repair_charges_declared_categories():
    """The counterfactual repairs' unit-to-category table names only declared categories"""
    import sys

    sys.path.insert(0, str(SUITES))
    try:
        import repairs  # noqa: PLC0415 - the suites' helper, imported as the suites import it
    finally:
        sys.path.remove(str(SUITES))
        sys.modules.pop("repairs", None)
    for unit, categories in repairs.UNIT_CATEGORIES.items():
        assert set(categories) <= set(rubric.KEYS) - {rubric.PART_E}, unit
