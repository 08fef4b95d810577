"""What a worker sends back is read by one validating reader (grader/sandbox/reply.py): caps and types there."""

from __future__ import annotations

import json

from grader.sandbox.reply import FAULT_CAP, MISSING_CAP, RAISED_CAP, MAX_LINES, RaisedInfo, Reply


def test_an_honest_reply_is_read_field_by_field():
    """A value, the output, and the lines that ran come through as they were sent"""
    reply = Reply.parse(json.dumps({"id": 3, "ok": True, "value": {"list": ["5"]}, "output": "hi\n",
                                    "output_truncated": False,
                                    "lines": [{"path": "war/game.py", "executed": [1, 4]}]}).encode())
    assert (reply.ident, reply.ok, reply.value, reply.output) == (3, True, {"list": ["5"]}, "hi\n")
    assert reply.lines == (("war/game.py", (1, 4)),) and reply.raised is None and reply.missing is None


def test_texts_are_cut_to_their_caps_here():
    """An exception's fields, a missing sentence and a refusal are each cut to their cap"""
    huge = "x" * 100_000
    reply = Reply.from_json({"id": 1, "raised": {"type": huge, "message": huge, "traceback": huge},
                             "missing": huge, "fault": huge})
    assert reply.raised == RaisedInfo("x" * RAISED_CAP, "x" * RAISED_CAP, "x" * RAISED_CAP)
    assert reply.missing == "x" * MISSING_CAP and reply.fault == "x" * FAULT_CAP


def test_fields_of_the_wrong_type_read_as_absent():
    """ok must be true itself, output a string, truncated true itself; a raised that is no object is an empty
    exception; lines of another shape are dropped"""
    reply = Reply.from_json({"id": 1, "ok": 1, "output": ["not text"], "output_truncated": "yes", "raised": 7,
                             "lines": [{"path": 5, "executed": [1]}, {"path": "a.py", "executed": [2, "3", 4.0]},
                                       "junk"], "boot": 1})
    assert reply.ok is False and reply.output is None and reply.output_truncated is False and reply.boot is False
    assert reply.raised == RaisedInfo("", "", "")
    assert reply.lines == (("a.py", (2,)),)
    assert Reply.from_json({"id": 1, "lines": "junk"}).lines == ()


def test_a_line_that_is_no_json_object_answers_nothing():
    """Garbage, a list, and JSON nested past the parser's depth are all an empty reply (never an exception)"""
    for line in (b"not json", b"[1, 2]", b"[" * 100_000 + b"]" * 100_000, b""):
        reply = Reply.parse(line)
        assert reply.ident is None and not reply.ok and reply.raised is None and reply.missing is None


def test_a_reply_reports_at_most_max_lines_numbers():
    """A flood of line numbers is cut at MAX_LINES over all files"""
    flood = [{"path": f"f{index}.py", "executed": list(range(MAX_LINES // 2 + 1))} for index in range(3)]
    lines = Reply.from_json({"id": 1, "lines": flood}).lines
    assert lines is not None and sum(len(numbers) for _, numbers in lines) == MAX_LINES
