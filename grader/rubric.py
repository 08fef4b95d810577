"""The rubric, declared once: every grading category, in the order reports show them, with what it grades.

Everything else is derived from these records: the categories' titles (results.CATEGORY_TITLES), the points
settings (config.SETTINGS; their shipped values are grading.toml's), Part E's scenarios and which chaffs count in
each (part_e/judge.py), and the checks that every hidden suite, chaff and repair names a category declared here
(tests/test_rubric_declared.py). Adding a category is one record here, its points in grading.toml, its suite
file with `pytestmark = pytest.mark.category(KEY)`, and its tests: docs/development.md walks through it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    """One grading category."""

    key: str
    """Its name in results, settings and suites."""
    title: str
    """What reports call it."""
    suite: str | None
    """The hidden suite file that grades it (grader/grading/suites/), or None for Part E (the student's own tests)."""
    scenario: str | None
    """The Part E scenario (a key of SCENARIOS) whose tests should catch the chaffs of this category; None for
    Part E itself."""


SCENARIOS: dict[str, str] = {
    "jokers": "Joker dominance with mini-decks",
    "forced_war": "A forced war and its collection order",
    "exhaustion": "Exhaustion during a war",
    "full_game": "A full 54-card game",
}
"""Part E's scenarios and their titles. Card order and a round's collection order belong with the mini-deck rounds
of the Joker scenario; the queue and stack bugs show first in a war's collection order; the game's statistics in a
full game."""

PART_E = "student_tests"
"""The category of the student's own tests (Part E): judged against chaffs, not by a hidden suite."""

CATEGORIES: tuple[Category, ...] = (
    Category("data_structures", "Data structures", "test_data_structures.py", "forced_war"),
    Category("joker_dominance", "Joker dominance", "test_joker_dominance.py", "jokers"),
    Category("normal_rounds", "Normal rounds", "test_normal_rounds.py", "jokers"),
    Category("forced_war", "Forced war", "test_forced_war.py", "forced_war"),
    Category("exhaustion", "Exhaustion during war", "test_exhaustion.py", "exhaustion"),
    Category("full_game", "Full game", "test_full_game.py", "full_game"),
    Category("extensions", "Extensions", "test_extensions.py", "full_game"),
    Category(PART_E, "Your tests (Part E)", None, None),
)
"""Every category, in the order reports show them."""

KEYS: tuple[str, ...] = tuple(category.key for category in CATEGORIES)
"""The categories' keys, in order."""


def scenario_categories(scenario: str) -> tuple[str, ...]:
    """The categories whose chaffs a test of this Part E scenario should catch."""
    return tuple(category.key for category in CATEGORIES if category.scenario == scenario)
