"""What a sandbox wrote, read as JSON within limits of size and nesting depth: the one reader the trusted side
uses for a worker's reply line (reply.py) and for a line of Part E's sandbox (grader/part_e/runner.py).

json.loads alone is not enough: a line nested a few hundred deep parses, and then any code that walks it
recursively (a comparison, json.dumps, a report) may raise RecursionError on the trusted side; a line nested a
thousand deep raises it in json.loads itself. Here both are one refusal, Refused, which the caller charges to
the student like any other lie.
"""

from __future__ import annotations

import json


class Refused(ValueError):
    """The text is not JSON, or is larger or nested deeper than allowed; the message says which."""

    def __init__(self, reason: str, *, deep: bool = False) -> None:
        super().__init__(reason)
        self.deep = deep
        """Refused for its depth (JSON otherwise)."""


def read(data: bytes | str, *, max_bytes: int, max_depth: int) -> object:
    """The JSON value of data, if data holds at most max_bytes and no list or object inside it is nested more
    than max_depth deep (a scalar is depth 0, [] depth 1, [[]] depth 2); Refused otherwise."""
    if len(data) > max_bytes:
        raise Refused(f"more than {max_bytes} bytes")
    try:
        value = json.loads(data)
    except RecursionError:
        raise Refused(f"nested more than {max_depth} deep", deep=True) from None
    except ValueError as error:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        raise Refused(f"not JSON ({str(error)[:80]})") from None
    brackets = data.count(b"[") + data.count(b"{") if isinstance(data, bytes) else data.count("[") + data.count("{")
    if brackets > max_depth and depth(value, max_depth) > max_depth:  # fewer brackets than the limit: shallow enough
        raise Refused(f"nested more than {max_depth} deep", deep=True)
    return value


def depth(value: object, stop: int) -> int:
    """How deep lists and objects nest in value (a JSON value), without recursion; counting stops past stop."""
    deepest = 0
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        item, level = pending.pop()
        if type(item) is list:
            children = item
        elif type(item) is dict:
            children = list(item.values())
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > stop:
            return deepest
        pending.extend((child, level) for child in children if type(child) in (list, dict))
    return deepest
