"""Strict comparisons for the hidden suites: plain data, exact types, and a sentence for every miss."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Opaque:
    """A value the worker could not send as plain data: only its type name and repr, never equal to anything."""

    type_name: str
    text: str

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"<{self.type_name} object: {self.text}>"


def decode(value: Any) -> Any:
    """Turn the worker's encoding into Python values: tuples, lists, floats, Opaque for anything else."""
    if type(value) is dict:
        if "tuple" in value and type(value["tuple"]) is list:
            return tuple([item if type(item) is str else decode(item) for item in value["tuple"]])
        if "list" in value and type(value["list"]) is list:
            return [item if type(item) is str else decode(item) for item in value["list"]]
        if "float" in value and type(value["float"]) in (int, float):
            return float(value["float"])
        return Opaque(str(value.get("object", "?"))[:100], str(value.get("repr", ""))[:300])
    if type(value) is list:  # only the worker's own containers (queues) arrive as bare lists
        return [item if type(item) is str else decode(item) for item in value]  # cards: no call per card
    return value


def strict_equal(actual: Any, expected: Any) -> bool:
    """Equal and of exactly the same types all the way down: True is not 1, a str subclass is not a str."""
    if type(actual) is not type(expected):
        return False
    if type(expected) in (list, tuple):
        return len(actual) == len(expected) and all(strict_equal(a, e) for a, e in zip(actual, expected))
    if type(expected) is dict:
        return actual.keys() == expected.keys() and all(strict_equal(actual[k], expected[k]) for k in expected)
    return bool(actual == expected)


def show(value: Any) -> str:
    """A short readable rendering of a value for a sentence: cards in quotes, numbers as numbers."""
    if type(value) is list:
        text = "[" + ", ".join(show(item) for item in value[:60]) + (", ..." if len(value) > 60 else "") + "]"
        return text
    if type(value) is tuple:
        return "(" + ", ".join(show(item) for item in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


class Mismatch(AssertionError):
    """A hidden test's failed expectation, with its sentence and, for sequences, the difference.

    reproduction: lines of Python replaying the failing call (empty: the harness uses the test's last call).
    explained_by: where the failure may come from a bug charged elsewhere, e.g. [{"category": "normal_rounds"}]
    or [{"test": "test_forced_war.py::test_x"}]; the scorer excuses the failure if one of them was charged.
    """

    def __init__(self, sentence: str, difference: dict[str, Any] | None = None, *, reproduction: str = "",
                 explained_by: list[dict[str, str]] | None = None) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.difference = difference
        self.reproduction = reproduction
        self.explained_by = explained_by or []


def first_difference(actual: list[Any], expected: list[Any]) -> int | None:
    """Index of the first position where the sequences differ, or None if they are equal."""
    for index, (a, e) in enumerate(zip(actual, expected)):
        if not strict_equal(a, e):
            return index
    return None if len(actual) == len(expected) else min(len(actual), len(expected))


def plain(values: list[Any]) -> list[Any]:
    """Values as JSON can carry them for the report: strings as themselves, anything else as its rendering."""
    return [value if type(value) in (str, int) else show(value) for value in values]


def expect_cards(actual: list[Any], expected: list[str], label: str) -> None:
    """Fail unless a queue or pile holds exactly the expected cards, front first."""
    where = first_difference(actual, expected)
    if where is None:
        return
    if len(actual) != len(expected) and where == min(len(actual), len(expected)):
        detail = (f"it holds {_cards(len(actual))} where {len(expected)} "
                  f"{'was' if len(expected) == 1 else 'were'} expected")
    else:
        detail = f"position {where + 1} holds {show(actual[where])} where {show(expected[where])} was expected"
    raise Mismatch(
        f"{label} is wrong: {detail}",
        {"label": label, "expected": list(expected), "actual": plain(actual), "first_difference": where},
    )


def _cards(count: int) -> str:
    return f"{count} card" + ("" if count == 1 else "s")


def expect_value(actual: Any, expected: Any, what: str) -> None:
    """Fail unless actual is strictly equal to expected."""
    if not strict_equal(actual, expected):
        raise Mismatch(f"{what} should be {show(expected)} but was {show(actual)}")


def expect(condition: bool, sentence: str) -> None:
    """Fail with sentence unless condition holds."""
    if not condition:
        raise Mismatch(sentence)
