"""The calls into student code are declared once, each with its deadline rule (grader/grading/calls.py)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import grader
from grader.grading import calls, harness
from grader.grading.calls import Call, DeadlineRule
from grader.grading.deadlines import ReferenceClock
from grader.limits import Ceiling
from grader.sandbox import worker
from grader.sandbox.channel import HELLO


def test_every_call_has_a_deadline_rule():
    """Each member carries a DeadlineRule with a Ceiling: no call falls back to some default deadline"""
    assert len(Call) == 8
    for call in Call:
        assert isinstance(call.rule, DeadlineRule) and isinstance(call.rule.ceiling, Ceiling), call


def test_a_call_declared_without_a_rule_is_refused():
    """Call's own declaration with one more member that lacks its rule (or has something else in its place)
    does not even define: the table cannot hold a call without a deadline rule"""
    source = inspect.getsource(Call)
    last = '    REPLAY = ("replay"'
    assert last in source
    for member in ('    NEW = ("new_op", "a title")\n', '    NEW = ("new_op", None, "a title")\n'):
        broken = source.replace(last, member + last)
        with pytest.raises((TypeError, AttributeError)):
            exec(compile(broken, "calls.py", "exec"), dict(vars(calls)))  # noqa: S102 - our own source, changed
    exec(compile(source, "calls.py", "exec"), dict(vars(calls)))  # noqa: S102 - unchanged, it defines


def test_the_table_and_the_workers_operations_agree():
    """Every operation the worker answers (op_*) is a declared call, and every declared call is one it answers"""
    ops = {name[3:] for name, _ in inspect.getmembers(worker.Session, inspect.isfunction) if name.startswith("op_")}
    assert ops == {call.op for call in Call}
    assert HELLO not in ops


def test_no_grader_module_names_a_call_by_its_string():
    """Outside calls.py, no grader module writes an operation's name as a string literal where a call is made:
    the harness passes Call members (the worker, which cannot import the table, is checked above)"""
    source = inspect.getsource(harness)
    tree = ast.parse(source)
    made = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "_call"]
    assert made and all(not isinstance(node.args[0], ast.Constant) for node in made)
    assert "TIMED_OPS" not in "".join(path.read_text() for path in Path(grader.__file__).parent.rglob("*.py"))


def test_the_rules_say_which_ceiling_and_when_the_ceiling_itself():
    """play_game and replay are capped by game_timeout, every other call by call_timeout; a detailed replay
    gets its ceiling, a plain one a multiple of the reference's time"""
    assert {call for call in Call if call.rule.ceiling is Ceiling.GAME} == {Call.PLAY_GAME, Call.REPLAY}
    clock = ReferenceClock(multiple=20, floor=0.5)
    assert clock.limit("replay", {"decks": [], "max_rounds": 10, "detail": True}, 7.0) == 7.0
    assert clock.limit("replay", {"decks": [], "max_rounds": 10}, 7.0) == 0.5


def test_an_undeclared_call_is_the_graders_bug_not_the_floor():
    """A call the table does not declare gets no silent minimum deadline: ValueError"""
    with pytest.raises(ValueError, match="not a call declared"):
        ReferenceClock(multiple=20, floor=0.5).limit("new_op", {}, 2.0)


def test_the_channel_names_calls_as_the_student_would():
    """The sentences' names come from the table (the sandbox's channel knows none of them)"""
    assert calls.call_name("structure_ops", {"kind": "Stack"}) == "your Stack"
    assert calls.call_name("card_values", {}) == "card_value"
    assert calls.call_name("call", {"function": "shuffle"}) == "shuffle"
    assert calls.call_name("replay", {}) == "play_round/resolve_war"
    assert calls.WORDS.category_titles["forced_war"] == "Forced war"
