"""Part E knows the starter's own tests (its worked example, its skeletons) by their statements, not their
docstrings: an export may name the handout otherwise in them (issue 28 item 8), and they still earn nothing."""

from __future__ import annotations

from pathlib import Path

from grader.part_e.judge import given_examples

STARTER_TESTS = (Path(__file__).resolve().parents[2] / "starter" / "test_war.py").read_text(encoding="utf-8")


def test_the_starters_tests_with_another_docstring_are_still_the_starters():
    renamed = STARTER_TESTS.replace("ASSIGNMENT.md", "README.md")
    assert renamed != STARTER_TESTS
    given = given_examples({"tests/test_war.py": renamed}, STARTER_TESTS)
    assert given == given_examples({"tests/test_war.py": STARTER_TESTS}, STARTER_TESTS) and given


def test_a_test_with_a_statement_of_its_own_is_the_students():
    changed = STARTER_TESTS.replace("assert ", "assert 1 and ", 1)
    assert len(given_examples({"t.py": changed}, STARTER_TESTS)) == len(given_examples({"t.py": STARTER_TESTS},
                                                                                     STARTER_TESTS)) - 1
