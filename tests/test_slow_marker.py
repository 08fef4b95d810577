"""The `slow` marker: a test is slow when it uses a fixture of tests/conftest.py's SLOW_FIXTURES (directly or through
a fixture of its own); `pytest -m "not slow"` leaves out exactly those, and CI runs all."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FAST_TIER_COVERS = {
    "tests/part_e/test_student_tests.py": "Part E's judge and runner (the verdicts, the credit, what crosses the pipe)",
    "tests/part_e/test_part_e_runs_alike.py": "Part E's in-sandbox code (the reset between runs, run in this process)",
    "tests/batch/test_changes.py": "batch's changes (the diff and the journal)",
    "tests/batch/test_shards.py": "batch's shards and merge (slices, manifests, the order merged)",
}
"""Test files that must keep quick tests in the fast tier, and what of the grader those tests cover."""


@pytest.fixture(scope="module")
def tiers() -> dict[str, set[str]]:
    """The node ids `pytest --collect-only -m slow` and `-m "not slow"` collect from the whole suite (the two
    collections run side by side)."""
    runs = {tier: subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", expression],
                                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for tier, expression in (("slow", "slow"), ("fast", "not slow"))}
    found = {}
    for tier, run in runs.items():
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, out + err
        found[tier] = {line for line in out.splitlines() if "::" in line}
    return found


def test_a_test_is_slow_by_the_fixtures_it_uses_not_by_its_file(tiers):
    """A test that reaches the sandbox through a fixture of its own is slow (the corpus's, through graded and
    graded_corpus), one that asks for it directly is slow, and a test beside them in the same file that does not
    is fast"""
    slow, fast = tiers["slow"], tiers["fast"]
    assert slow and fast and not slow & fast
    assert "tests/test_corpus.py::test_grades_csv_has_a_nondeterministic_column" in slow  # graded -> graded_corpus
    sandboxed = "tests/batch/test_changes.py::test_force_with_nothing_moved_writes_a_header_only_changes_csv"
    assert sandboxed in slow  # sandbox
    assert "tests/batch/test_changes.py::test_only_the_points_moving_leaves_rules_changed_empty" in fast


@pytest.mark.parametrize("path", sorted(FAST_TIER_COVERS))
def test_the_fast_tier_covers_part_e_and_batch(tiers, path):
    """The fast tier keeps quick tests of Part E's runner, judge and in-sandbox code and of batch's changes, merge
    and shards (FAST_TIER_COVERS)"""
    assert len([node for node in tiers["fast"] if node.startswith(path + "::")]) >= 3, FAST_TIER_COVERS[path]


PROJECT_CONFTEST = f"""
import importlib.util

_spec = importlib.util.spec_from_file_location("war_tests_conftest", {str(ROOT / "tests" / "conftest.py")!r})
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
globals().update({{name: value for name, value in vars(_module).items() if not name.startswith("__")}})
"""
"""A conftest for a pytester folder that is tests/conftest.py: its hooks and fixtures, loaded by path."""


def test_a_fast_test_that_starts_the_sandbox_fails_and_a_slow_one_may(pytester):
    """Without the sandbox fixture, building a sandboxed process's command fails the test with what to do; with
    it, the test is marked slow, nothing is refused, and -m "not slow" leaves it out"""
    pytester.makeconftest(PROJECT_CONFTEST)
    pytester.makeini("[pytest]\nmarkers =\n    slow: uses a fixture of SLOW_FIXTURES\n")
    pytester.makepyfile(test_tiers="""
        from grader.sandbox import channel, isolation

        def test_fast():
            channel.worker_command(None)

        def test_slow(sandbox, request):
            assert request.node.get_closest_marker("slow") is not None
            assert channel.worker_command is isolation.worker_command
    """)
    everything = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    everything.assert_outcomes(passed=1, failed=1)
    everything.stdout.fnmatch_lines(["*test_fast starts the real sandbox: ask for the `sandbox` fixture*"])
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not slow").assert_outcomes(failed=1, deselected=1)


def test_ci_runs_the_slow_tests_too():
    """The README's test line, which .ci/run runs verbatim, selects no marker: CI runs every test"""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"^    (.*)  # <- tests$", readme, flags=re.MULTILINE)
    assert len(lines) == 1 and "-m pytest" in lines[0]
    arguments = lines[0].rsplit("-m pytest", 1)[1].split()
    assert not {"-m", "-k"} & set(arguments), arguments
