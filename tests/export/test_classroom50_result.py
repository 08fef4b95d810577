"""Classroom 50's result.json contract (classroom50/result/v1): the checker refuses each broken rule in one sentence.

RESULT_V1 restates, in JSON-schema form and in our own words, the structure Classroom 50's result-v1 schema
gives a result (docs/classroom50.md lists each rule and where it comes from); schema_problems() is a small
reader of the few keywords it uses, so no validator package is needed. It reads "integer" as Classroom 50's two
Python validators do (an int, never a bool or a float such as 8.0). The checker must refuse everything the schema
refuses, and also what a schema cannot say: the classroom, assignment and owner of the repository, and a score
above its max-score.
"""

from __future__ import annotations

import copy
import re
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

_TEXT: dict[str, Any] = {"type": "string", "minLength": 1}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_INSTANT: dict[str, Any] = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$"}

RESULT_V1: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["schema", "classroom", "assignment", "assignment_type", "owner", "submission", "commit", "release",
                 "review", "datetime", "score", "max-score", "tests"],
    "properties": {
        "schema": {"const": "classroom50/result/v1"},
        "classroom": _TEXT, "assignment": _TEXT, "owner": _TEXT,
        "assignment_type": {"enum": ["individual", "group"]},
        "submission": {"type": "string", "pattern": "^submit/"},
        "commit": _TEXT, "release": _TEXT, "review": _TEXT,
        "datetime": _INSTANT, "graded_at": _INSTANT,
        "score": _COUNT, "max-score": _COUNT,
        "tests": {"type": "array", "items": {"$ref": "#/$defs/entry"}},
        "submitted_by": {"$ref": "#/$defs/pusher"},
    },
    "$defs": {
        "entry": {"type": "object", "required": ["test-name", "passed", "score", "max-score"],
                  "properties": {"test-name": _TEXT, "passed": {"type": "boolean"}, "score": _COUNT,
                                 "max-score": _COUNT}},
        "pusher": {"type": "object", "additionalProperties": False, "required": ["username"],
                   "properties": {"username": _TEXT, "id": {"type": ["integer", "null"]}}},
    },
}
"""classroom50/result/v1's structure as its schema states it (written here from its rules, not copied)."""

_TYPES = {"string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
          "integer": lambda v: isinstance(v, int) and not isinstance(v, bool), "null": lambda v: v is None,
          "array": lambda v: isinstance(v, list), "object": lambda v: isinstance(v, dict)}


def schema_problems(value: Any, schema: dict[str, Any] = RESULT_V1, where: str = "$",
                    root: dict[str, Any] = RESULT_V1) -> list[str]:
    """Where value breaks schema, one line each ([] when it keeps it): the keywords RESULT_V1 uses, no more."""
    if "$ref" in schema:
        return schema_problems(value, root["$defs"][schema["$ref"].rsplit("/", 1)[-1]], where, root)
    kinds = schema.get("type")
    if kinds is not None and not any(_TYPES[kind](value) for kind in ([kinds] if isinstance(kinds, str) else kinds)):
        return [f"{where}: not {kinds}"]
    problems = []
    if "const" in schema and value != schema["const"]:
        problems.append(f"{where}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: not one of {schema['enum']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        problems.append(f"{where}: does not match {schema['pattern']}")
    if "minLength" in schema and len(value) < schema["minLength"]:
        problems.append(f"{where}: shorter than {schema['minLength']}")
    if "minimum" in schema and value < schema["minimum"]:
        problems.append(f"{where}: below {schema['minimum']}")
    if isinstance(value, dict):
        problems += [f"{where}: no {key!r}" for key in schema.get("required", []) if key not in value]
        properties = schema.get("properties", {})
        if schema.get("additionalProperties", True) is False:
            problems += [f"{where}: {key!r} is not allowed" for key in value if key not in properties]
        for key, rule in properties.items():
            if key in value:
                problems += schema_problems(value[key], rule, f"{where}.{key}", root)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problems += schema_problems(item, schema["items"], f"{where}[{index}]", root)
    return problems


def broken(change: Any) -> dict[str, Any]:
    """VALID with one change applied by change(data)."""
    data = copy.deepcopy(VALID)
    change(data)
    return data


def test_a_valid_result_passes_and_its_owner_is_compared_without_case():
    """The example keeps the contract; the owner alice-s matches Alice-S; optional keys may be left out."""
    assert check_result_v1(VALID, "cs2-fall", "war", "alice-s") is None and schema_problems(VALID) == []
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
    (lambda d: d.update(datetime="2026-10-03T24:00:00Z"), "datetime '2026-10-03T24:00:00Z'"),
    (lambda d: d.update(graded_at="2026-12-31T23:59:60Z"), "graded_at '2026-12-31T23:59:60Z'"),
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
    """One broken rule, one sentence naming it; the schema refuses it too, unless it is a rule no schema can
    state (the repository's classroom and owner, a score above its max-score)."""
    data = broken(change)
    sentence = check_result_v1(data, "cs2-fall", "war", "alice-s")
    assert sentence is not None and said in sentence and "\n" not in sentence
    assert (schema_problems(data) == []) == (said in BEYOND_A_SCHEMA)


BEYOND_A_SCHEMA = ("classroom is 'cs2-spring'", "owner is 'bob'", "score 29 is more than its max-score 28",
                   "tests entry 1's score 9 is more than its max-score 8")
"""The broken cases above that RESULT_V1 lets through: Classroom 50 checks them in code."""


def test_the_status_is_success_only_when_every_entry_passed():
    """failure when an entry failed; success when all passed or there are none."""
    assert status_of(VALID) == "failure"
    assert status_of(broken(lambda d: d["tests"].pop())) == "success"
    assert status_of(broken(lambda d: d.update(tests=[]))) == "success"


def test_anything_but_an_object_is_refused():
    """A list or a string is no result."""
    assert check_result_v1([], "cs2-fall", "war", "alice-s") == "the result is not a JSON object"
