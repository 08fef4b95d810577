"""How a failed comparison of the public contract reads: both queues in full, the first difference marked.

pytest's own explanation of two different lists stops at the first differing index and asks for `-v`, then
cuts what is left ("Use -v to get more diff", "Full output truncated"). A student needs the whole queue to
see where a card went, so a failed `==` between two sequences is explained here in a few short lines that
pytest never cuts. The contract's assertions all read `assert yours == expected`.
"""

from __future__ import annotations

from typing import Any

SHORT = 60
"""Characters of a sequence written in full on the assertion's first line."""


def pytest_assertrepr_compare(op: str, left: Any, right: Any) -> list[str] | None:
    """Explain a failed == between two lists or tuples, or two dicts, in full; anything else as pytest does."""
    if op != "==":
        return None
    if type(left) in (list, tuple) and type(right) in (list, tuple):
        return sequence_difference(left, right)
    if type(left) is dict and type(right) is dict:
        return dict_difference(left, right)
    return None


def first_difference(left: Any, right: Any) -> int | None:
    """Index of the first position where two sequences differ (or the shorter one's length), None if equal."""
    for index, (one, two) in enumerate(zip(left, right)):
        if type(one) is not type(two) or one != two:
            return index
    return None if len(left) == len(right) else min(len(left), len(right))


def words(left: Any, right: Any) -> tuple[list[str], list[str]]:
    """Both sequences' items as the handout writes cards ("K 2 10"), or as Python literals when any is no card text."""
    items = [*left, *right]
    plain = all(type(item) is str and item and not any(c.isspace() for c in item) for item in items)
    show = str if plain else repr
    return [show(item) for item in left], [show(item) for item in right]


def written(items: list[str]) -> str:
    """Items on one line, or (empty)."""
    return " ".join(items) if items else "(empty)"


def sequence_difference(left: Any, right: Any) -> list[str]:
    """Both sequences in full, columns aligned, a caret under the first difference."""
    where = first_difference(left, right)
    mine, theirs = words(left, right)
    one, two = written(mine), written(theirs)
    head = f"{one} == {two}" if len(one) + len(two) <= SHORT else f"[{len(left)} items] == [{len(right)} items]"
    if where is None:  # equal items of different sequence types: a list is not a tuple
        return [head, f"yours is a {type(left).__name__}, expected a {type(right).__name__}"]
    widths = [max(len(a), len(b)) for a, b in zip(mine, theirs)]
    widths += [len(item) for item in (mine, theirs)[len(theirs) > len(mine)][len(widths):]]
    aligned = [item.ljust(widths[index]) for index, item in enumerate(mine)]
    expected = [item.ljust(widths[index]) for index, item in enumerate(theirs)]
    caret = sum(width + 1 for width in widths[:where])
    if where < min(len(left), len(right)):
        what = (f"position {where + 1} differs (front first, counted from 1): "
                f"yours {mine[where]}, expected {theirs[where]}")
    else:
        what = f"yours has {len(left)} items, expected {len(right)}" + (f": the first {where} agree" if where else "")
    return [
        head,
        what,
        f"yours:    {written(aligned).rstrip()}",
        f"expected: {written(expected).rstrip()}",
        " " * (10 + caret) + "^",
    ]


def dict_difference(left: dict[Any, Any], right: dict[Any, Any]) -> list[str]:
    """One line per key whose value differs (a long sequence by its first difference), missing and extra keys."""
    lines = ["yours == expected, key by key:"]
    for key in [*right, *(key for key in left if key not in right)]:
        if key not in left:
            lines.append(f"{key}: missing, expected {right[key]!r}")
        elif key not in right:
            lines.append(f"{key}: {left[key]!r} is not expected")
        elif type(left[key]) is not type(right[key]) or left[key] != right[key]:
            lines.append(f"{key}: yours {_value(left[key], right[key])}")
    return lines


def _value(mine: Any, theirs: Any) -> str:
    """How one field differs: both values, or for two long sequences where they first differ."""
    text = f"{mine!r}, expected {theirs!r}"
    if len(text) <= 2 * SHORT or type(mine) not in (list, tuple) or type(theirs) not in (list, tuple):
        return text
    where = first_difference(mine, theirs)
    if where is None or where >= min(len(mine), len(theirs)):
        return f"has {len(mine)} items, expected {len(theirs)}; they agree up to position {where}"
    return f"differs first at position {where + 1} of {len(theirs)}: {mine[where]!r}, expected {theirs[where]!r}"
