"""Which statements of a student's file ran, from the raw lines the worker's line tracer saw."""

from __future__ import annotations

import sys
import textwrap

from grader.grading.statements import executed_statements, statement_lines

SOURCE = textwrap.dedent('''\
    """A module docstring."""
    import functools

    COUNT = 0


    @functools.lru_cache
    def total(cards):
        """A docstring never runs."""
        global COUNT
        value = sum(
            len(card)
            for card in cards
        )
        if value > 10:
            return value
        else:
            return 0


    def risky():
        try:
            return int("x")
        except ValueError:
            return None
''')


def traced_lines(source: str, call: str) -> set[int]:
    """The raw line numbers a line tracer sees while source is run and then call is evaluated."""
    seen: set[int] = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == "<student>" and event == "line":
            seen.add(frame.f_lineno)
        return tracer

    namespace: dict = {}
    sys.settrace(tracer)
    try:
        exec(compile(source, "<student>", "exec"), namespace)
        eval(compile(call, "<call>", "eval"), namespace)
    finally:
        sys.settrace(None)
    return seen


def test_docstrings_and_global_are_not_statements_and_a_multiline_statement_is_one():
    """A docstring or `global` never runs, so neither can be missed; a statement over four lines counts once"""
    starts, owner = statement_lines(SOURCE)
    assert 1 not in starts and 9 not in starts and 10 not in starts
    assert {2, 4, 8, 11, 15, 16, 18, 21, 22, 23, 24, 25} <= starts and 7 not in starts
    assert owner[12] == owner[13] == owner[14] == 11
    assert owner[7] == 8  # a decorator line belongs to its def


def test_the_statements_that_ran_are_those_the_tracer_saw_and_nothing_else():
    """Running total(("a", "b")) runs every statement but the return of the big branch and risky's body"""
    executed, missing = executed_statements(SOURCE, traced_lines(SOURCE, 'total(("a", "b"))'))
    assert missing == [16, 22, 23, 24, 25]
    assert 11 in executed and 18 in executed and 12 not in executed


def test_an_except_clause_that_caught_is_executed():
    """risky() runs its try, the failing int(), the matching except clause and its body"""
    executed, missing = executed_statements(SOURCE, traced_lines(SOURCE, "risky()"))
    assert {22, 23, 24, 25} <= set(executed)
    assert 16 in missing and 18 in missing


def test_a_file_that_does_not_parse_has_no_statements():
    """Nothing to count rather than a crash"""
    assert executed_statements("def broken(:\n", {1}) == ([], [])
