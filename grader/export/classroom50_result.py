"""Classroom 50's result.json contract (classroom50/result/v1), written from its rules: one checker.

The rules are those of Classroom 50's result-v1 schema and of the two validators that read a result (the
runner's, before it makes a Release, and the score collector's); docs/classroom50.md lists them with their
sources. The schema is the stricter on two points, and this checker follows it there: it refuses a top-level key
it does not name, and a datetime or graded_at that is not an instant written YYYY-MM-DDTHH:MM:SSZ. war-grader
checks every result it writes for Classroom 50 first, so a mistake is war-grader's, caught here.
"""

from __future__ import annotations

import re
from typing import Any

SCHEMA = "classroom50/result/v1"
"""The schema's name, the value of the "schema" key."""

TOP_LEVEL_REQUIRED = ("schema", "classroom", "assignment", "assignment_type", "owner", "submission", "commit",
                      "release", "review", "datetime", "score", "max-score", "tests")
"""The keys every result.json has."""

TOP_LEVEL_OPTIONAL = ("graded_at", "submitted_by")
"""The keys a result.json may have; any other is refused."""

TEST_REQUIRED = ("test-name", "passed", "score", "max-score")
"""The keys every entry of "tests" has (an entry may add any others, kept as written)."""

ASSIGNMENT_TYPES = ("individual", "group")
"""The assignment types Classroom 50 knows."""

UTC_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ")
"""A datetime as the contract writes it: UTC, to the second, with Z (hours 00 to 23, no leap second)."""


def check_result_v1(data: Any, classroom: str, assignment: str, owner: str) -> str | None:
    """Why data is not a valid result.json of classroom/assignment for owner, in one sentence; None if it is."""
    if not isinstance(data, dict):
        return "the result is not a JSON object"
    missing = [key for key in TOP_LEVEL_REQUIRED if key not in data]
    if missing:
        return f"the key {missing[0]!r} is missing"
    extra = sorted(str(key) for key in data if key not in TOP_LEVEL_REQUIRED + TOP_LEVEL_OPTIONAL)
    if extra:
        return f"the key {extra[0]!r} is not allowed at the top level"
    if data["schema"] != SCHEMA:
        return f"schema is {data['schema']!r}, not {SCHEMA!r}"
    for key, expected in (("classroom", classroom), ("assignment", assignment)):
        if not _text(data[key]):
            return f"{key} is not a non-empty string"
        if data[key] != expected:
            return f"{key} is {data[key]!r}, not {expected!r}"
    if data["assignment_type"] not in ASSIGNMENT_TYPES:
        return f"assignment_type is {data['assignment_type']!r}, not one of {', '.join(ASSIGNMENT_TYPES)}"
    if not _text(data["owner"]) or data["owner"].lower() != owner.lower():
        return f"owner is {data['owner']!r}, not {owner!r}"
    if not _text(data["submission"]) or not data["submission"].startswith("submit/"):
        return f"submission {data['submission']!r} is not a tag under submit/"
    for key in ("commit", "release", "review"):
        if not _text(data[key]):
            return f"{key} is not a non-empty string"
    for key in ("datetime", "graded_at"):
        if key in data and not (isinstance(data[key], str) and UTC_STAMP.fullmatch(data[key])):
            return f"{key} {data[key]!r} is not a UTC time written YYYY-MM-DDTHH:MM:SSZ"
    problem = _points(data, "the result")
    if problem:
        return problem
    if not isinstance(data["tests"], list):
        return "tests is not a list"
    for number, test in enumerate(data["tests"], start=1):
        problem = _test_entry(test, number)
        if problem:
            return problem
    if "submitted_by" in data:
        return _submitted_by(data["submitted_by"])
    return None


def status_of(data: dict[str, Any]) -> str:
    """The commit status Classroom 50 derives from a valid result: success when every entry passed (or none)."""
    return "success" if all(test["passed"] for test in data["tests"]) else "failure"


def _text(value: Any) -> bool:
    """Whether value is a non-empty string."""
    return isinstance(value, str) and value != ""


def _whole(value: Any) -> bool:
    """Whether value is a whole number of points: an int at least 0, never a bool."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _points(entry: dict[str, Any], what: str) -> str | None:
    """Why entry's score and max-score are not whole numbers with score at most max-score; None if they are."""
    for key in ("score", "max-score"):
        if not _whole(entry[key]):
            return f"{what}'s {key} {entry[key]!r} is not a whole number at least 0"
    if entry["score"] > entry["max-score"]:
        return f"{what}'s score {entry['score']} is more than its max-score {entry['max-score']}"
    return None


def _test_entry(test: Any, number: int) -> str | None:
    """Why the number-th entry of tests breaks the contract; None if it keeps it."""
    if not isinstance(test, dict):
        return f"tests entry {number} is not a JSON object"
    missing = [key for key in TEST_REQUIRED if key not in test]
    if missing:
        return f"tests entry {number} has no {missing[0]!r}"
    if not _text(test["test-name"]):
        return f"tests entry {number}'s test-name is not a non-empty string"
    if not isinstance(test["passed"], bool):
        return f"tests entry {number}'s passed is not true or false"
    return _points(test, f"tests entry {number}")


def _submitted_by(value: Any) -> str | None:
    """Why submitted_by breaks the contract; None if it keeps it."""
    if not isinstance(value, dict) or set(value) - {"username", "id"} or "username" not in value:
        return "submitted_by is not an object of username and id"
    if not _text(value["username"]):
        return "submitted_by's username is not a non-empty string"
    identity = value.get("id")
    if identity is not None and not (isinstance(identity, int) and not isinstance(identity, bool)):
        return "submitted_by's id is neither a whole number nor null"
    return None
