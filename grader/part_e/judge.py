"""Judging a student's own tests (Part E) from their outcomes on each implementation: pure, no student code.

Every implementation runs twice, at places of a secret order (runner.py), so no run knows whether it is a
first or a second. A test is valid when it passed on every run of every correct implementation (the wheats).
A buggy version (a chaff) is caught when a valid test fails on both of its runs by an ordinary failure: an
assertion, or an exception raised while the test ran. A crash, a timeout, a fixture error or a skip on a
chaff catches nothing: those can be produced without looking at what the implementation does, so they never
earn points. Points come per Part E scenario, a fixed share per chaff caught, so the score depends only on
which chaffs were caught.

Why twice, and why a flip zeroes the suite: anything that varies between runs (the clock, above all, which
cannot be hidden) lets a test partition the runs, failing in some and passing in others without looking at
the implementation. Invalidity per test cannot stop that: among many such tests some pass on every wheat run
by chance, and together they "catch" nearly every chaff that ran in their slots. Run twice, a chaff counts
only when a test fails on both of its runs, and a test that partitions runs passes on one run of some
implementation and fails on the other (a flip), which no test of the code alone can do: the same code, the
same test, the same seeded random numbers. So one flip, on any implementation, shows the suite depends on
something other than the code, and Part E scores 0 with one sentence naming the test (untrusted). A time-out
or a crash on one run is not a flip: it catches nothing already, and on a wheat makes the test invalid.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from ..chaffs import CHAFFS
from ..results import ChaffVerdict, OwnCoverage, ScenarioScore, StudentTest, StudentTestsResult

CATEGORY = "student_tests"
"""The grading category of Part E (a key of grader.results.CATEGORY_TITLES)."""

SCENARIOS: dict[str, tuple[str, tuple[str, ...]]] = {
    "jokers": ("Joker dominance with mini-decks", ("joker_dominance", "normal_rounds")),
    "forced_war": ("A forced war and its collection order", ("forced_war", "data_structures")),
    "exhaustion": ("Exhaustion during a war", ("exhaustion",)),
    "full_game": ("A full 54-card game", ("full_game", "extensions")),
}
"""Part E's four scenarios: title, and the chaff categories whose bugs a test of that scenario should catch.
Card order and a round's collection order belong with the mini-deck rounds of the Joker scenario; the
queue and stack bugs show first in a war's collection order; the game's statistics in a full game."""

KNOWN_EXCEPTIONS = frozenset({
    "AssertionError", "IndexError", "ValueError", "TypeError", "KeyError", "AttributeError", "NameError",
    "ImportError", "ModuleNotFoundError", "RecursionError", "ZeroDivisionError", "NotImplementedError",
    "RuntimeError", "StopIteration", "SystemExit", "Failed", "OSError", "FileNotFoundError", "PermissionError",
})
"""Exception names a report may quote (the sandbox says "Exception" for any other: no free text crosses).
The same set as in_sandbox.py's, which cannot import this module."""

ENDED = frozenset({"passed", "failed", "error", "skipped"})
"""Outcomes of a test that ended by itself."""

EXPLAINED_BY_AT_MOST = 2
"""An invalid test that passes on at most this many chaffs is explained as expecting their bugs."""


def scenario_of(category: str) -> str:
    """The scenario a chaff category counts in."""
    for scenario, (_, categories) in SCENARIOS.items():
        if category in categories:
            return scenario
    raise KeyError(category)


@dataclass(frozen=True)
class Run:
    """The student's tests on one implementation, as the sandbox reported them (untrusted plain data)."""

    role: str
    """"own" (the student's package), "wheat" or "chaff"."""
    key: str
    """"own", "reference", "wheat" or the chaff's name."""
    outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Test id -> {"outcome": ..., "exception": ..., "file": ..., "line": ...}."""
    collected: list[str] = field(default_factory=list)
    collect_errors: list[str] = field(default_factory=list)
    coverage: dict[str, list[int]] = field(default_factory=dict)
    import_seconds: float = 0.0
    """Seconds from the start of the run until the tests were collected."""

    @property
    def seconds(self) -> dict[str, float]:
        """Seconds each test that ended by itself took (not one that hung or crashed)."""
        return {test: float(outcome.get("seconds") or 0.0) for test, outcome in self.outcomes.items()
                if outcome.get("outcome") in ("passed", "failed", "error", "skipped")}


def given_examples(test_sources: dict[str, str], example_source: str) -> set[str]:
    """Ids of the student's test functions whose body is the starter's worked example (it earns nothing)."""
    examples = {ast.dump(ast.Module(node.body, [])) for node in _functions(example_source)
                if node.name.startswith("test_") and _is_worked_example(node)}
    found = set()
    for path, text in test_sources.items():
        for node in _functions(text):
            if node.name.startswith("test_") and ast.dump(ast.Module(node.body, [])) in examples:
                found.add(f"{path}::{node.name}")
    return found


def _functions(text: str) -> list[ast.FunctionDef]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)]


def _is_worked_example(node: ast.FunctionDef) -> bool:
    """The starter's tests that are not a call to pytest.skip (the scenarios left for the student)."""
    return not any(isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "skip"
                   for call in ast.walk(node))


def judge(runs: list[Run], *, test_sources: dict[str, str], package_sources: dict[str, str], given: set[str],
          points: float, test_timeout: float, deadlines: dict[str, float] | None = None) -> StudentTestsResult:
    """The verdicts and scenario scores for these runs (test_timeout: a test's limit on the student's own
    package; deadlines: its limit on every other run, from its time there)."""
    own = next((run for run in runs if run.role == "own"), Run("own", "own"))
    wheats = [run for run in runs if run.role == "wheat"]
    chaff_runs: dict[str, list[Run]] = {}
    for run in runs:
        if run.role == "chaff":
            chaff_runs.setdefault(run.key, []).append(run)
    ids = list(dict.fromkeys(own.collected))  # never a name collected on a wheat: it could carry the wheat's source
    tests = []
    valid_ids = []
    flipped = _flipped(ids, [run for run in runs if run.role != "own"])
    for test in ids:
        reason = NONDETERMINISTIC if test in flipped else _not_run_reason(test, own, wheats, test_timeout) or \
            _invalid_reason(test, wheats, chaff_runs, test_sources, test_timeout,
                            (deadlines or {}).get(test, test_timeout))
        if test in given:
            reason = ("This is the starter's worked example: it passes on every correct implementation, but it earns "
                      "nothing (the points are for your own tests)." if not reason else
                      "This is the starter's worked example, which earns nothing. " + reason)
        elif not reason:
            valid_ids.append(test)
        tests.append((test, reason))
    untrusted = _untrusted(ids, [run for run in runs if run.role != "own"])
    verdicts = []
    for variant in CHAFFS:
        twice = chaff_runs.get(variant.name, [])
        caught_by = [] if untrusted or len(twice) < CHAFF_RUNS else [
            test for test in valid_ids if all((run.outcomes.get(test) or {}).get("outcome") == "failed" for run in twice)]
        verdicts.append(ChaffVerdict(scenario_of(variant.category), variant.misconception, bool(caught_by),
                                     caught_by))
    share = points / len(SCENARIOS)
    scenarios = []
    for scenario, (title, _) in SCENARIOS.items():
        mine = [verdict for verdict in verdicts if verdict.scenario == scenario]
        caught = sum(verdict.caught for verdict in mine)
        scenarios.append(ScenarioScore(scenario, title, caught, len(mine),
                                       round(share * caught / len(mine), 4) if mine else 0.0, round(share, 4)))
    judged = [StudentTest(test, not reason and test not in given, reason,
                          str((own.outcomes.get(test) or {}).get("outcome", "missing")),
                          sum(test in verdict.caught_by for verdict in verdicts))
              for test, reason in tests]
    return StudentTestsResult("graded", "", judged, verdicts, scenarios,
                              _own_coverage(own.coverage, package_sources), untrusted)


CHAFF_RUNS = 2
"""How many times runner.py runs each chaff, at secret places; a test must fail on every one to catch it."""


NONDETERMINISTIC = ("Its outcome changed between two runs of the same implementation (it is nondeterministic): it "
                    "depends on something other than the implementation's behaviour (a count of its runs, the clock, "
                    "a process id, a file or other state it keeps), so it cannot be trusted to catch anything.")
"""The reason of a test that passed on one run of an implementation and failed on another (a flip): every run
starts `random` from the same seed, so a test of the code alone gets one outcome on every run of it."""


def _flipped(ids: list[str], runs: list[Run]) -> set[str]:
    """The tests that passed on one run of an implementation and failed on another run of the same one."""
    by_key: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        by_key.setdefault((run.role, run.key), []).append(run)
    return {test for test in ids for mine in by_key.values()
            if {(run.outcomes.get(test) or {}).get("outcome") for run in mine} >= {"passed", "failed"}}


def _not_run_reason(test: str, own: Run, wheats: list[Run], test_timeout: float) -> str:
    """Why a test that did not end on the student's own package was run on no other implementation; "" if it
    ended there (or ran elsewhere all the same)."""
    kind = str((own.outcomes.get(test) or {}).get("outcome", "missing"))
    if kind in ENDED or any(test in run.outcomes for run in wheats):
        return ""
    if kind == "timeout":
        return (f"It did not finish within {test_timeout:g} s on your own package (a loop that never ends?), so it "
                "was run on no other implementation.")
    if kind == "crash":
        return ("It ended the test process on your own package (os._exit, sys.exit outside a test, a crash or "
                "running out of memory), or wrote on the grader's channel a report the grader could not accept, so "
                "it was run on no other implementation.")
    return "It did not run on your own package (an earlier test stopped the run), so it was run on no other one."


def _untrusted(ids: list[str], runs: list[Run]) -> str:
    """The sentence for the first test (in the student's order, one that flipped on a wheat first) that passed on
    one run of an implementation and failed on another run of the same one; "" if none did. Only passed against failed: a time-out, a crash, a
    fixture error or a skip on one run is no flip (it catches nothing, and on a wheat makes the test invalid)."""
    by_key: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        by_key.setdefault((run.role, run.key), []).append(run)
    names = [test.partition("::")[2] or test for test in ids]
    flips = {test: {role for (role, _), mine in by_key.items()
                    if {(run.outcomes.get(test) or {}).get("outcome") for run in mine} >= {"passed", "failed"}}
             for test in ids}
    # A flip on a correct implementation first: the plainest evidence for the student.
    for test, name in sorted(zip(ids, names), key=lambda pair: "wheat" not in flips[pair[0]]):
        if not flips[test]:
            continue
        shown = name if names.count(name) == 1 else test
        what, same = ("a correct implementation", "implementation") if "wheat" in flips[test] else \
            ("a buggy version", "version")
        return (f"{shown} passed on one run of {what} and failed on another run of the same {same}: its outcome "
                "depends on something other than the code it tests (the clock, a count of runs, a process id, "
                "state it keeps), so none of your tests count.")
    return ""


def _invalid_reason(test: str, wheats: list[Run], chaffs: dict[str, list[Run]], sources: dict[str, str],
                    test_timeout: float, deadline: float) -> str:
    """Why a test is invalid, in one sentence the student can act on; "" if it passed on every wheat."""
    outcomes = [(run.outcomes.get(test) or {}) for run in wheats]
    kinds = [str(outcome.get("outcome", "missing")) for outcome in outcomes]
    if wheats and all(kind == "passed" for kind in kinds):
        return ""
    if not wheats:
        return "It was not run on a correct implementation."
    if "timeout" in kinds:
        return f"It did not finish within {deadline:g} s on a correct implementation (a loop that never ends?)."
    if "crash" in kinds:
        return ("It ended the test process on a correct implementation (os._exit, sys.exit outside a test, a "
                "crash or running out of memory), or wrote on the grader's channel a report the grader could not "
                "accept.")
    by_key: dict[str, set[str]] = {}
    for run, kind in zip(wheats, kinds):
        by_key.setdefault(run.key, set()).add(kind)
    if any(len(seen & ENDED) > 1 for seen in by_key.values()):
        return NONDETERMINISTIC
    if "missing" in kinds:
        file = test.partition("::")[0]
        if any(file in run.collect_errors for run in wheats):
            return ("Its file cannot be imported with a correct implementation: tests may use only the names "
                    "ASSIGNMENT.md lists (no private helpers of your own package), and no ctypes, gc or code "
                    "objects of the implementation.")
        return "It was not run on a correct implementation (an earlier test stopped the run)."
    if "skipped" in kinds:
        return "It is skipped, so it checks nothing."
    if "error" in kinds:
        return "Its setup (a fixture) failed on a correct implementation."
    if "passed" in kinds:
        return ("It passes on one correct implementation and fails on another: it depends on something the rules "
                "leave open (such as how a Queue stores its cards or a private helper).")
    expects = [variant.misconception for variant in CHAFFS
               if any((run.outcomes.get(test) or {}).get("outcome") == "passed" for run in chaffs.get(variant.name, []))]
    if 0 < len(expects) <= EXPLAINED_BY_AT_MOST:
        return ("It fails on the correct implementations but passes on a buggy one where "
                + " and on one where ".join(expects) + ": your test expects that bug, which the rules do not allow.")
    return "It fails on the correct implementations: " + _where(outcomes[kinds.index("failed")], sources)


def _where(outcome: dict[str, Any], sources: dict[str, str]) -> str:
    """Where the student's test failed, from the student's own file only ("" parts when unknown)."""
    exception = str(outcome.get("exception") or "an exception")
    file, line = outcome.get("file"), outcome.get("line")
    relative = next((path for path in sources if isinstance(file, str) and file.endswith("/" + path)), None)
    lines = sources[relative].splitlines() if relative is not None else []
    if type(line) is not int or not 1 <= line <= len(lines):  # the runner's schema already drops any other line
        return f"it raised {exception}."
    text = lines[line - 1].strip()[:160]
    what = "the assertion" if exception == "AssertionError" else f"{exception} raised"
    return f"{what} at line {line} of {relative}" + (f" (`{text}`)." if text else ".")


def _own_coverage(coverage: dict[str, list[int]], package_sources: dict[str, str]) -> list[OwnCoverage]:
    """Each package file with the share of its statements the student's own tests ran."""
    files = []
    for path, text in sorted(package_sources.items()):
        statements = _statement_lines(text)
        executed = {n for n in coverage.get(path, []) if type(n) is int} & statements
        missing = sorted(statements - executed)
        percent = round(100.0 * len(executed) / len(statements), 1) if statements else 100.0
        files.append(OwnCoverage(path, percent, len(executed), len(statements), missing))
    return files


def _statement_lines(text: str) -> set[int]:
    """Line numbers that start a statement, other than docstrings, found by parsing (never running) the source."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            lines.add(node.lineno)
    return lines


def scenario_sentence(scenario: ScenarioScore, part_e: StudentTestsResult) -> str:
    """The sentence of one scenario's row in the report: what stopped Part E, the flip, or the bugs missed."""
    if part_e.status != "graded":
        return part_e.note or "No tests of yours were found, so none could catch a bug."
    if part_e.untrusted:
        return part_e.untrusted
    missed = [verdict.misconception for verdict in part_e.chaffs
              if verdict.scenario == scenario.id and not verdict.caught]
    if not missed:
        return f"Your valid tests caught all {scenario.total} buggy versions of this scenario."
    return (f"Your valid tests caught {scenario.caught} of {scenario.total} buggy versions of this scenario. "
            "Missed: " + "; ".join(missed) + ".")
