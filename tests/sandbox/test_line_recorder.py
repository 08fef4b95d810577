"""The worker's record of which statements ran: marks compiled into the student's modules, which must agree with
a line tracer and leave the student's code as it was (docstrings, tracebacks, `from __future__`)."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from sandbox_probe import probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures

from grader.grading.statements import executed_statements, statement_lines
from grader.sandbox.channel import StudentRaised
from grader.sandbox.isolation import choose_level
from grader.sandbox.line_recorder import mark_statements
from test_statements import traced_lines

SOURCE = textwrap.dedent('''\
    """The probe's docstring."""
    from __future__ import annotations

    import functools


    def shuffle(deck, seed=None):
        namespace = {}
        exec(deck[0], namespace)
        return namespace.get("result")


    @functools.lru_cache
    def total(count: int) -> int:
        """A docstring never runs."""
        value = 0
        while count > 0:
            value += count
            count -= 1
        if value > 10:
            return value
        elif value > 5:
            return -value
        else:
            return 0


    def risky(text):
        try:
            return int(text)
        except ValueError:
            return None
        finally:
            pass


    class Pile:
        """A class docstring."""
        size = 0

        def grow(self):
            self.size += 1
            raise IndexError("the pile is full")
''')


@pytest.fixture
def client(tmp_path, runtime):  # noqa: F811 - the fixtures above
    made = probe_client(tmp_path, runtime, choose_level("auto", allow_plain=True), SOURCE, coverage=True)
    yield made
    made.stop()


@pytest.mark.parametrize("call", ["total(3)", "total(5)", "risky('7')", "risky('x')", "shuffle(['result = 1'])"])
def test_the_statements_recorded_are_those_a_line_tracer_sees(client, call):
    """For each call, the statements that ran (and those that did not) are exactly a line tracer's (the probe's
    shuffle, which runs the call, is traced too)"""
    run(client, f"import probe\nresult = probe.{call}")
    recorded = client.coverage["probe/__init__.py"]
    traced = traced_lines(SOURCE, f"(shuffle(['result = 1']), {call})")
    assert executed_statements(SOURCE, recorded) == executed_statements(SOURCE, traced)


def test_docstrings_annotations_and_tracebacks_are_the_students_own(client):
    """Marking keeps every docstring, `from __future__` still applies, and a traceback names the student's own
    line with its source"""
    assert run(client, "import probe\nresult = [probe.__doc__, probe.total.__doc__, probe.Pile.__doc__, "
                       "probe.risky.__code__.co_firstlineno, probe.total.__wrapped__.__annotations__]") == \
        {"list": ["The probe's docstring.", "A docstring never runs.", "A class docstring.", 28,
                  {"object": "dict", "repr": "{'count': 'int', 'return': 'int'}"}]}
    line = SOURCE.splitlines().index('        raise IndexError("the pile is full")') + 1
    with pytest.raises(StudentRaised) as raised:
        run(client, "import probe\nresult = probe.Pile().grow()")
    assert f'probe/__init__.py", line {line}, in grow' in raised.value.exception["traceback"]
    assert 'raise IndexError("the pile is full")' in raised.value.exception["traceback"]



@pytest.mark.parametrize("path", ["reference/game.py", "reference/structures.py", "grader/sandbox/worker.py",
                                  "grader/sandbox/trusted_units.py", "grader/sandbox/trusted_cards.py",
                                  "grader/report/page.py", "tests/sandbox/test_line_recorder.py"])
def test_every_statement_the_report_counts_gets_a_mark_and_nothing_else_does(path):
    """The worker marks exactly the statements the trusted side counts (on files with docstrings, decorators,
    try/except, comprehensions, from __future__), and the marked tree still compiles"""
    text = (Path(__file__).resolve().parents[2] / path).read_text()
    tree = ast.parse(text)
    marked: list[int] = []
    mark_statements(tree, lambda line: marked.append(line) or 0)
    compile(tree, path, "exec", dont_inherit=True)
    assert set(marked) == statement_lines(text)[0]
