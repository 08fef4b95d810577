"""What a worker sends back is read by one validating reader (grader/sandbox/reply.py): caps and types there."""

from __future__ import annotations

import json

from grader.sandbox.isolation import Limits
from grader.sandbox.reply import FAULT_CAP, MISSING_CAP, RAISED_CAP, RaisedInfo, Reply

LIMITS = {"max_depth": Limits().json_depth, "max_lines": Limits().coverage_lines}
"""The reader's limits: the defaults of json_depth and coverage_lines."""


def test_an_honest_reply_is_read_field_by_field():
    """A value, the output, and the lines that ran come through as they were sent"""
    reply = Reply.parse(json.dumps({"id": 3, "ok": True, "value": {"list": ["5"]}, "output": "hi\n",
                                    "output_truncated": False,
                                    "lines": [{"path": "war/game.py", "executed": [1, 4]}]}).encode(), **LIMITS)
    assert (reply.ident, reply.ok, reply.value, reply.output) == (3, True, {"list": ["5"]}, "hi\n")
    assert reply.lines == (("war/game.py", (1, 4)),) and reply.raised is None and reply.missing is None


def test_texts_are_cut_to_their_caps_here():
    """An exception's fields, a missing sentence and a refusal are each cut to their cap"""
    huge = "x" * 100_000
    reply = Reply.from_json({"id": 1, "raised": {"type": huge, "message": huge, "traceback": huge},
                             "missing": huge, "fault": huge}, max_lines=10)
    assert reply.raised == RaisedInfo("x" * RAISED_CAP, "x" * RAISED_CAP, "x" * RAISED_CAP)
    assert reply.missing == "x" * MISSING_CAP and reply.fault == "x" * FAULT_CAP


def test_fields_of_the_wrong_type_read_as_absent():
    """ok must be true itself, output a string, truncated true itself; a raised that is no object is an empty
    exception; lines of another shape are dropped"""
    reply = Reply.from_json({"id": 1, "ok": 1, "output": ["not text"], "output_truncated": "yes", "raised": 7,
                             "lines": [{"path": 5, "executed": [1]}, {"path": "a.py", "executed": [2, "3", 4.0]},
                                       "junk"], "boot": 1}, max_lines=10)
    assert reply.ok is False and reply.output is None and reply.output_truncated is False and reply.boot is False
    assert reply.raised == RaisedInfo("", "", "")
    assert reply.lines == (("a.py", (2,)),)
    assert Reply.from_json({"id": 1, "lines": "junk"}, max_lines=10).lines == ()


def test_a_line_that_is_no_json_object_answers_nothing():
    """Garbage, a list, and JSON nested past the parser's depth are all an empty reply (never an exception); only
    the nested one says it was too deep"""
    for line in (b"not json", b"[1, 2]", b"[" * 100_000 + b"]" * 100_000, b""):
        reply = Reply.parse(line, **LIMITS)
        assert reply.ident is None and not reply.ok and reply.raised is None and reply.missing is None
        assert reply.too_deep is line.startswith(b"[[")


def test_a_reply_nested_past_json_depth_is_too_deep_and_answers_nothing():
    """A value nested json_depth deep is read; one level more (900 levels, which json.loads itself reads) is a
    reply marked too_deep that answers nothing, so the channel charges the student for it"""
    def nested(levels: int) -> bytes:
        return b'{"id": 1, "ok": true, "value": ' + b"[" * levels + b"]" * levels + b"}"

    assert Reply.parse(nested(8), max_depth=9, max_lines=10).ok
    for levels in (9, 900):
        reply = Reply.parse(nested(levels), max_depth=9, max_lines=10)
        assert (reply.ident, reply.ok, reply.too_deep) == (None, False, True)


def test_a_reply_reports_at_most_max_lines_numbers_and_says_when_it_had_more():
    """A flood of line numbers is cut at max_lines over all files (a file counts one at least) and marked
    lines_over; a report of exactly max_lines numbers is not; numbers that are no line are dropped"""
    flood = [{"path": f"f{index}.py", "executed": list(range(1, 502))} for index in range(3)]
    reply = Reply.from_json({"id": 1, "lines": flood}, max_lines=1000)
    assert reply.lines_over and reply.lines is not None and sum(len(numbers) for _, numbers in reply.lines) <= 1000
    exact = [{"path": "a.py", "executed": list(range(1, 1000))}, {"path": "b.py", "executed": []}]
    reply = Reply.from_json({"id": 1, "lines": exact}, max_lines=1000)
    assert not reply.lines_over and [len(numbers) for _, numbers in reply.lines] == [999, 0]
    files = [{"path": f"f{index}.py", "executed": []} for index in range(1001)]
    assert Reply.from_json({"id": 1, "lines": files}, max_lines=1000).lines_over
    odd = Reply.from_json({"id": 1, "lines": [{"path": "a.py", "executed": [0, -3, 2**31, 7]}]}, max_lines=10)
    assert odd.lines == (("a.py", (7,)),)
