"""Judging a student's own tests (Part E) from their outcomes on each implementation: pure, no student code.

Every implementation runs twice, at places of a secret order (runner.py), so no run knows whether it is a
first or a second. A test is valid when it passed on every run of every correct implementation (the wheats).
A buggy version (a chaff) is caught when a valid test fails on both of its runs by an ordinary failure: an
assertion, or an exception raised while the test ran. A crash, a timeout, a fixture error or a skip on a
chaff catches nothing: those can be produced without looking at what the implementation does, so they never
earn points.

Why the whole suite must be valid, and why each miss costs more than its share (issue 26): a test may assert a
function of behaviour its author cannot predict (one bit of a hash of what a batch of calls returns). Such a
test passes on the correct implementations with some probability p and fails on each buggy version with about
1 - p. Were invalid tests simply dropped, a few dozen of them would catch every chaff for nothing. So one test
that fails on a correct implementation (other than the starter's unfinished skeletons, which earn nothing)
makes the suite invalid and Part E scores 0, naming that test; and a valid suite's credit is each scenario's
share for the chaffs it caught times MISS_FACTOR's h / (h + chaffs missed), so that a suite of lucky guesses,
valid with probability r and missing each chaff with probability r, expects at most 1 of the 20 points for any
r (bench/part_e_luck.py computes it from these constants; docs/part-e.md shows the figures).

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
from ..rubric import PART_E, SCENARIOS as RUBRIC_SCENARIOS, scenario_categories
from ..results import ChaffVerdict, OwnCoverage, ScenarioScore, StudentTest, StudentTestsResult

CATEGORY = PART_E
"""The grading category of Part E (grader/rubric.py)."""

SCENARIOS: dict[str, tuple[str, tuple[str, ...]]] = {
    scenario: (title, scenario_categories(scenario)) for scenario, title in RUBRIC_SCENARIOS.items()}
"""Part E's scenarios: title, and the chaff categories whose bugs a test of that scenario should catch (both from
grader/rubric.py, where each category names its scenario)."""

KNOWN_EXCEPTIONS = frozenset({
    "AssertionError", "IndexError", "ValueError", "TypeError", "KeyError", "AttributeError", "NameError",
    "ImportError", "ModuleNotFoundError", "RecursionError", "ZeroDivisionError", "NotImplementedError",
    "RuntimeError", "StopIteration", "SystemExit", "Failed", "OSError", "FileNotFoundError", "PermissionError",
})
"""Exception names a report may quote (the sandbox says "Exception" for any other: no free text crosses).
The same set as run_session.py's (in the sandbox), which cannot import this module."""

ENDED = frozenset({"passed", "failed", "error", "skipped"})
"""Outcomes of a test that ended by itself."""

EXPLAINED_BY_AT_MOST = 2
"""An invalid test that passes on at most this many chaffs is explained as expecting their bugs."""

MISS_FACTOR = 1.75
"""h in a valid suite's factor h / (h + missed), missed counting the chaffs of every scenario it did not catch:
each scenario earns its share for the chaffs it caught times that factor, so a suite that misses one chaff keeps
64% of its share, two 47%, four 30%. Guessing expects at most 1 of the 20 points for h up to about 1.80
(bench/part_e_luck.py proves 0.983 for 1.75, the largest multiple of 1/4 below it)."""


CREDIT_RULE = ("Your tests count only if every one of them passes on every run of every correct implementation; "
               "then each scenario earns its share for the buggy versions caught, times "
               f"{MISS_FACTOR:g} / ({MISS_FACTOR:g} + the buggy versions missed in all four scenarios).")
"""How a suite earns Part E's points, in the words the student's report and Gradescope show."""


def credit(caught: dict[str, int], totals: dict[str, int], points: float) -> dict[str, float]:
    """Each scenario's points for a valid suite that caught caught[s] of its totals[s] chaffs: its share of the
    points for the chaffs caught, times MISS_FACTOR / (MISS_FACTOR + every chaff missed)."""
    missed = sum(totals.values()) - sum(caught.values())
    factor = MISS_FACTOR / (MISS_FACTOR + missed)
    share = points / len(totals)
    return {scenario: share * caught[scenario] / total * factor if total else 0.0
            for scenario, total in totals.items()}


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
    """Ids of the student's test functions whose body is one of the starter's tests: a worked example or an
    unfinished skeleton (pytest.skip). Neither earns anything; a skeleton never makes the suite invalid either."""
    examples = {_body(node) for node in _functions(example_source) if node.name.startswith("test_")}
    found = set()
    for path, text in test_sources.items():
        for node in _functions(text):
            if node.name.startswith("test_") and _body(node) in examples:
                found.add(f"{path}::{node.name}")
    return found


def _body(node: ast.FunctionDef) -> str:
    """A test function's statements, its docstring left out (an export may name the handout otherwise in it)."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return ast.dump(ast.Module(body, []))


def _skeletons(given: set[str], test_sources: dict[str, str]) -> set[str]:
    """The given tests whose body is a skeleton of the starter's, left unfinished (it calls pytest.skip)."""
    found = set()
    for path, text in test_sources.items():
        for node in _functions(text):
            if f"{path}::{node.name}" in given and not _is_worked_example(node):
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
    """The verdicts and scenario scores for these runs (test_timeout: a test's limit on the student's own package;
    deadlines: its limits on every other run, from its time there, accepted from the runner but never quoted)."""
    own = next((run for run in runs if run.role == "own"), Run("own", "own"))
    wheats = [run for run in runs if run.role == "wheat"]
    chaff_runs: dict[str, list[Run]] = {}
    for run in runs:
        if run.role == "chaff":
            chaff_runs.setdefault(run.key, []).append(run)
    ids = list(dict.fromkeys(own.collected))  # never a name collected on a wheat: it could carry the wheat's source
    skeletons = _skeletons(given, test_sources)
    tests = []
    valid_ids = []
    flipped = _flipped(ids, [run for run in runs if run.role != "own"])
    invalid = ""
    for test in ids:
        reason = NONDETERMINISTIC if test in flipped else _not_run_reason(test, own, wheats, test_timeout) or \
            _invalid_reason(test, wheats, chaff_runs, test_sources, test_timeout)
        if reason and test not in skeletons and not invalid:
            invalid = _first_invalid(test, ids, reason)
        if test in skeletons:  # its outcome on the wheats is never told: a body of the starter's counts for nothing
            reason = ("This is one of the starter's unfinished skeletons: it earns nothing and does not count "
                      "against your suite.")
        elif test in given:
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
        caught_by = [] if untrusted or invalid or len(twice) < CHAFF_RUNS else [
            test for test in valid_ids if all((run.outcomes.get(test) or {}).get("outcome") == "failed" for run in twice)]
        verdicts.append(ChaffVerdict(scenario_of(variant.category), variant.misconception, bool(caught_by),
                                     caught_by))
    totals = {scenario: sum(verdict.scenario == scenario for verdict in verdicts) for scenario in SCENARIOS}
    caught = {scenario: sum(verdict.caught for verdict in verdicts if verdict.scenario == scenario)
              for scenario in SCENARIOS}
    earned = credit(caught, totals, points)
    scenarios = [ScenarioScore(scenario, title, caught[scenario], totals[scenario], round(earned[scenario], 4),
                               round(points / len(SCENARIOS), 4)) for scenario, (title, _) in SCENARIOS.items()]
    judged = [StudentTest(test, not reason and test not in given, reason,
                          str((own.outcomes.get(test) or {}).get("outcome", "missing")),
                          sum(test in verdict.caught_by for verdict in verdicts))
              for test, reason in tests]
    return StudentTestsResult("graded", "", judged, verdicts, scenarios,
                              _own_coverage(own.coverage, package_sources), untrusted, invalid)


def _first_invalid(test: str, ids: list[str], reason: str) -> str:
    """The sentence a student is shown for an invalid suite: the first invalid test in file order and why, and
    that later ones may be invalid too (never which: each test's validity would be a bit of the correct
    implementations' behaviour, see docs/part-e.md)."""
    name = test.partition("::")[2] or test
    shown = name if [other.partition("::")[2] or other for other in ids].count(name) == 1 else test
    later = ids[ids.index(test) + 1:]
    more = (" Tests after it may be invalid too: you are told of the first only." if later else "")
    return (f"{shown} does not pass on every correct implementation, so none of your tests count (they count only "
            f"when every one of them does). {reason}{more}")


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
                    test_timeout: float) -> str:
    """Why a test is invalid, in one sentence the student can act on; "" if it passed on every wheat."""
    outcomes = [(run.outcomes.get(test) or {}) for run in wheats]
    kinds = [str(outcome.get("outcome", "missing")) for outcome in outcomes]
    if wheats and all(kind == "passed" for kind in kinds):
        return ""
    if not wheats:
        return "It was not run on a correct implementation."
    if "timeout" in kinds:
        return ("It did not finish within its time limit on a correct implementation, a multiple of its time on "
                "your own package (a loop that never ends, or a test much slower on some runs?).")
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
    return "It fails on the correct implementations: " + _where(test, outcomes[kinds.index("failed")], sources)


NAMED_WITHIN = 40
"""A failing line is named only when it is in the test's own function and that function is at most this many
lines long: the line is the one free number an invalid test's reason carries, so it must not tell more than
log2(40) bits of the correct implementations' behaviour (a test may branch on it to any of thousands of lines,
or of helpers: docs/part-e.md)."""


def _where(test: str, outcome: dict[str, Any], sources: dict[str, str]) -> str:
    """Where the student's test failed, from the student's own file only ("" parts when unknown)."""
    exception = str(outcome.get("exception") or "an exception")
    file, line = outcome.get("file"), outcome.get("line")
    relative = next((path for path in sources if isinstance(file, str) and file.endswith("/" + path)), None)
    lines = sources[relative].splitlines() if relative is not None else []
    if type(line) is not int or not 1 <= line <= len(lines):  # the runner's schema already drops any other line
        return f"it raised {exception}."
    span = _span(test, sources) if test.partition("::")[0] == relative else None
    if span is None or not span[0] <= line <= span[1]:
        return f"it raised {exception} in a function it called (only a line of the test's own function is named)."
    if span[1] - span[0] + 1 > NAMED_WITHIN:
        return (f"it raised {exception} (its line is named only in a test of at most {NAMED_WITHIN} lines: split "
                "this one).")
    text = lines[line - 1].strip()[:160]
    what = "the assertion" if exception == "AssertionError" else f"{exception} raised"
    return f"{what} at line {line} of {relative}" + (f" (`{text}`)." if text else ".")


def _span(test: str, sources: dict[str, str]) -> tuple[int, int] | None:
    """The first and last lines of the function of a test id (path::name[params] or path::Class::name[params]),
    from its file's source; None when it cannot be found."""
    path, _, rest = test.partition("::")
    names = rest.partition("[")[0].split("::")
    try:
        body: list[ast.stmt] = ast.parse(sources.get(path, "")).body
    except (SyntaxError, ValueError):
        return None
    for index, name in enumerate(names):
        last = index == len(names) - 1
        kinds = (ast.FunctionDef, ast.AsyncFunctionDef) if last else (ast.ClassDef,)
        node = next((node for node in body if isinstance(node, kinds) and node.name == name), None)
        if node is None:
            return None
        if last:
            return node.lineno, node.end_lineno or node.lineno
        body = node.body
    return None


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
    if part_e.invalid:
        return part_e.invalid
    missed = [verdict.misconception for verdict in part_e.chaffs
              if verdict.scenario == scenario.id and not verdict.caught]
    if not missed:
        return f"Your valid tests caught all {scenario.total} buggy versions of this scenario."
    return (f"Your valid tests caught {scenario.caught} of {scenario.total} buggy versions of this scenario. "
            "Missed: " + "; ".join(missed) + ".")
