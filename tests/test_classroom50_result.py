"""Classroom 50's result.json contract (classroom50/result/v1): the checker refuses each broken rule in one sentence."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from grader.export.classroom50_result import SCHEMA, check_result_v1, status_of

VALID: dict[str, Any] = {
    "schema": SCHEMA, "classroom": "cs2-fall", "assignment": "war", "assignment_type": "individual",
    "owner": "Alice-S", "submission": "submit/2026-10-03T18-22-41Z-1a2b3c4",
    "commit": "https://github.com/org/cs2-fall-war-alice-s/commit/1a2b3c4",
    "release": "https://github.com/org/cs2-fall-war-alice-s/releases/tag/submit%2F2026-10-03T18-22-41Z-1a2b3c4",
    "review": "https://github.com/org/cs2-fall-war-alice-s/compare/9f8e7d6...1a2b3c4",
    "datetime": "2026-10-03T18:22:41Z", "graded_at": "2026-10-03T18:23:02Z", "score": 8, "max-score": 28,
    "tests": [{"test-name": "Data structures (public tests)", "passed": True, "score": 8, "max-score": 8,
               "category": "data_structures", "failed": []},
              {"test-name": "Forced war (public tests)", "passed": False, "score": 0, "max-score": 20}],
    "submitted_by": {"username": "alice-s", "id": 1234},
}
"""A result.json keeping every rule (extra keys in a test entry are allowed)."""


def broken(change: Any) -> dict[str, Any]:
    """VALID with one change applied by change(data)."""
    data = copy.deepcopy(VALID)
    change(data)
    return data


def test_a_valid_result_passes_and_its_owner_is_compared_without_case():
    """The example keeps the contract; the owner alice-s matches Alice-S; optional keys may be left out."""
    assert check_result_v1(VALID, "cs2-fall", "war", "alice-s") is None
    assert check_result_v1(broken(lambda d: (d.pop("graded_at"), d.pop("submitted_by"))), "cs2-fall", "war",
                           "ALICE-S") is None
    assert check_result_v1(broken(lambda d: d.update(tests=[], score=0, **{"max-score": 0})), "cs2-fall", "war",
                           "alice-s") is None


@pytest.mark.parametrize(("change", "said"), [
    (lambda d: d.update(extra=1), "'extra' is not allowed"),
    (lambda d: d.pop("review"), "'review' is missing"),
    (lambda d: d.update(schema="classroom50/result/v2"), "schema is"),
    (lambda d: d.update(classroom="cs2-spring"), "classroom is 'cs2-spring'"),
    (lambda d: d.update(assignment=""), "assignment is not a non-empty string"),
    (lambda d: d.update(assignment_type="team"), "assignment_type"),
    (lambda d: d.update(owner="bob"), "owner is 'bob'"),
    (lambda d: d.update(submission="v1.0"), "not a tag under submit/"),
    (lambda d: d.update(commit=""), "commit is not a non-empty string"),
    (lambda d: d.update(release=None), "release is not a non-empty string"),
    (lambda d: d.update(datetime="2026-10-03T18:22:41+00:00"), "datetime"),
    (lambda d: d.update(datetime="2026-10-03 18:22:41Z"), "datetime"),
    (lambda d: d.update(graded_at="2026-10-03T18:22Z"), "graded_at"),
    (lambda d: d.update(score=True), "score True is not a whole number"),
    (lambda d: d.update(score=8.0), "score 8.0 is not a whole number"),
    (lambda d: d.update(score=-1), "score -1"),
    (lambda d: d.update(score=29), "score 29 is more than its max-score 28"),
    (lambda d: d.update(tests={}), "tests is not a list"),
    (lambda d: d["tests"].append("x"), "tests entry 3 is not a JSON object"),
    (lambda d: d["tests"][0].update({"test-name": ""}), "tests entry 1's test-name"),
    (lambda d: d["tests"][1].pop("passed"), "tests entry 2 has no 'passed'"),
    (lambda d: d["tests"][1].update(passed=0), "tests entry 2's passed is not true or false"),
    (lambda d: d["tests"][0].update({"max-score": False}), "tests entry 1's max-score False"),
    (lambda d: d["tests"][0].update(score=9), "tests entry 1's score 9 is more than its max-score 8"),
    (lambda d: d.update(submitted_by={"username": "alice-s", "id": 1, "name": "Alice"}), "submitted_by"),
    (lambda d: d.update(submitted_by={"username": "", "id": None}), "submitted_by's username"),
    (lambda d: d.update(submitted_by={"username": "alice-s", "id": "1234"}), "submitted_by's id"),
    (lambda d: d.update(submitted_by={"username": "alice-s", "id": True}), "submitted_by's id"),
], ids=lambda value: value if isinstance(value, str) else "")
def test_each_rule_broken_is_refused_in_one_sentence(change, said):
    """One broken rule, one sentence naming it."""
    sentence = check_result_v1(broken(change), "cs2-fall", "war", "alice-s")
    assert sentence is not None and said in sentence and "\n" not in sentence


def test_the_status_is_success_only_when_every_entry_passed():
    """failure when an entry failed; success when all passed or there are none."""
    assert status_of(VALID) == "failure"
    assert status_of(broken(lambda d: d["tests"].pop())) == "success"
    assert status_of(broken(lambda d: d.update(tests=[]))) == "success"


def test_anything_but_an_object_is_refused():
    """A list or a string is no result."""
    assert check_result_v1([], "cs2-fall", "war", "alice-s") == "the result is not a JSON object"
