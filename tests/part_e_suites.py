"""A student's suite as Part E judges it, for the report's and Gradescope's tests (no sandbox: judged runs)."""

from __future__ import annotations

from grader.chaffs import CHAFFS
from grader.part_e.judge import Run, judge
from grader.results import StudentTestsResult


def judged_suite(invalid: bool) -> StudentTestsResult:
    """Part E's verdicts on three tests: a Joker test catching two chaffs, then (invalid=True) one failing on the
    correct implementations at line 5 and one hanging on the reference."""
    tests = ["tests/test_war.py::test_joker", "tests/test_war.py::test_wrong", "tests/test_war.py::test_hangs"]
    passed = {"outcome": "passed"}
    fail = {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 5}
    wheat = {tests[0]: passed, tests[1]: fail if invalid else passed,
             tests[2]: {"outcome": "timeout"} if invalid else passed}
    runs = [Run("own", "own", dict.fromkeys(tests, passed), tests),
            *[Run("wheat", key, wheat, tests) for key in ("reference", "wheat")],
            *[Run("chaff", variant.name, {**wheat, tests[0]: fail if variant.category == "joker_dominance" else passed})
              for variant in CHAFFS for _ in "12"]]
    sources = {"tests/test_war.py": "def test_joker():\n    pass\n\ndef test_wrong():\n    assert 1 == 2\n"}
    return judge(runs, test_sources=sources, package_sources={}, given=set(), points=20.0, test_timeout=2.0)

