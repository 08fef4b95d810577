"""The one JSON reader for what a sandbox wrote (grader/sandbox/bounded_json.py): size and depth limits."""

from __future__ import annotations

import pytest

from grader.sandbox.bounded_json import Refused, depth, read


def test_a_line_within_its_limits_reads_as_json_loads_reads_it():
    """Bytes or text, at the size limit and the depth limit"""
    assert read(b'{"a": [1, [2]]}', max_bytes=15, max_depth=3) == {"a": [1, [2]]}
    assert read('"[[[[["', max_bytes=100, max_depth=1) == "[[[[["  # brackets inside a string nest nothing


@pytest.mark.parametrize(("data", "reason"), [
    (b"[" * 33 + b"]" * 33, "nested more than 32 deep"),
    (b"[" * 5000 + b"]" * 5000, "nested more than 32 deep"),  # json.loads raises RecursionError itself
    (b'{"a": ' * 40 + b"1" + b"}" * 40, "nested more than 32 deep"),
    (b"[1, 2]" + b" " * 200, "more than 200 bytes"),
    (b'{"a": ', "not JSON"),
    (b"\xff", "not JSON"),
])
def test_a_line_past_a_limit_is_refused_with_its_reason(data, reason):
    """Too deep (whether json.loads reads it or not), too large, or not JSON: Refused, never RecursionError"""
    with pytest.raises(Refused, match=reason) as refused:
        read(data, max_bytes=200 if reason.startswith("more") else 100_000, max_depth=32)
    assert refused.value.deep is reason.startswith("nested")


def test_depth_counts_without_recursion_and_stops_past_its_limit():
    """A scalar is 0 deep, [] 1, [[]] 2; 100,000 levels are walked without recursion"""
    value: list = []
    for _ in range(100_000):
        value = [value]
    assert (depth(3, 10), depth([], 10), depth([[]], 10), depth({"a": [{}]}, 10)) == (0, 1, 2, 3)
    assert depth(value, 10) == 11
