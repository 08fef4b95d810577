"""Part E: students' own tests judged against the wheats and chaffs; discovery, judging, sandbox runs, report."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.chaffs import CHAFFS, write_reference
from grader.batch import grade
from grader.config import load_config
from grader.part_e.judge import (KNOWN_EXCEPTIONS, MISS_FACTOR, SCENARIOS, Run, credit, given_examples, judge, scenario_of,
                                 scenario_sentence)
from grader.results import StudentTestsResult
from grader.part_e import runner
from grader.part_e import session as session_module
from grader.part_e.runner import checked_outcome, grade_student_tests, make_runtime
from grader.report.html import render_student_report
from grader.results import CATEGORY_TITLES, read_results
from grader.submissions import Submission, prepare

ROOT = Path(__file__).resolve().parents[2]
TEST_CONFIG = ROOT / "tests" / "data" / "grading-test.toml"
PASS = {"outcome": "passed"}
FAIL = {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 3}


def runs_with(outcomes_by_key: dict[str, dict[str, dict]], tests: list[str]) -> list[Run]:
    """An own run collecting tests, both wheats passing everything, every chaff twice as given (default: passing)."""
    own = Run("own", "own", {test: PASS for test in tests}, list(tests))
    wheats = [Run("wheat", key, outcomes_by_key.get(key, {test: PASS for test in tests}), list(tests))
              for key in ("reference", "wheat")]
    chaffs = [Run("chaff", variant.name, outcomes_by_key.get(variant.name, {test: PASS for test in tests}), [])
              for variant in CHAFFS for _ in range(2)]
    return [own, *wheats, *chaffs]


def judged(outcomes_by_key, tests, given=frozenset(), sources=None):
    return judge(runs_with(outcomes_by_key, tests), test_sources=sources or {}, package_sources={}, given=set(given),
                 points=20.0, test_timeout=10.0)


# -- judging (pure) -----------------------------------------------------------------------------------

def test_every_chaff_category_belongs_to_one_of_the_four_scenarios():
    """Each chaff counts in exactly one Part E scenario, and every scenario has chaffs."""
    assert len(SCENARIOS) == 4
    assert {scenario_of(variant.category) for variant in CHAFFS} == set(SCENARIOS)


def test_a_valid_test_that_fails_on_a_chaff_catches_it_and_earns_its_share():
    """One Joker chaff caught out of five in its scenario, 23 of 24 missed: 5 points * 1/5 * 1.75 / (1.75 + 23)."""
    result = judged({"joker_below_king": {"t::a": FAIL}}, ["t::a"])
    jokers = next(s for s in result.scenarios if s.id == "jokers")
    expected = round(5.0 / 5 * MISS_FACTOR / (MISS_FACTOR + 23), 4)
    assert (jokers.caught, jokers.total, jokers.score, jokers.max_score) == (1, 5, expected, 5.0)
    assert sum(s.score for s in result.scenarios) == expected and result.invalid == ""
    assert [v.misconception for v in result.chaffs if v.caught] == ["a Joker that loses to a King"]


def test_a_suite_that_catches_every_chaff_earns_every_point_and_each_miss_costs_more_than_its_share():
    """All 24 caught: 20. One missed: its scenario's share of it, and every scenario times 1.75 / 2.75."""
    tests = ["t::a"]
    every = judged({variant.name: {"t::a": FAIL} for variant in CHAFFS}, tests)
    assert [s.score for s in every.scenarios] == [5.0] * 4 and every.invalid == ""
    missed = CHAFFS[0]
    one_less = judged({variant.name: {"t::a": FAIL} for variant in CHAFFS if variant is not missed}, tests)
    factor = MISS_FACTOR / (MISS_FACTOR + 1)
    total = sum(s.score for s in one_less.scenarios)
    assert total == pytest.approx(20 * factor - 5 / sum(1 for v in CHAFFS if v.category in
                                                         SCENARIOS[scenario_of(missed.category)][1]) * factor, abs=1e-3)
    assert total < 20 - 5 / 9  # less than a linear share of the missed chaff, whatever its scenario


def test_the_credit_is_each_scenarios_linear_share_times_the_suite_wide_factor():
    totals = {"jokers": 5, "forced_war": 7, "exhaustion": 3, "full_game": 9}
    assert credit(totals, totals, 20.0) == {scenario: 5.0 for scenario in totals}
    assert credit({**totals, "exhaustion": 0}, totals, 20.0) == pytest.approx(
        {"jokers": 5 * 1.75 / 4.75, "forced_war": 5 * 1.75 / 4.75, "exhaustion": 0.0, "full_game": 5 * 1.75 / 4.75})
    assert sum(credit({s: 0 for s in totals}, totals, 20.0).values()) == 0


def test_one_invalid_test_makes_the_whole_suite_count_for_nothing_and_names_the_first():
    """An honest Joker test that catches, then two tests failing on the reference: Part E scores 0, every chaff is
    missed, and the sentence names the first invalid test (file order), its line and reason, and that more may be."""
    tests = ["tests/test_war.py::test_joker", "tests/test_war.py::test_wrong", "tests/test_war.py::test_also_wrong"]
    sources = {"tests/test_war.py": "def test_joker():\n    pass\n\ndef test_wrong():\n    assert 1 == 2\n"}
    fail = {**FAIL, "line": 5}
    outcomes = {"reference": {tests[0]: PASS, tests[1]: fail, tests[2]: fail},
                "wheat": {tests[0]: PASS, tests[1]: fail, tests[2]: fail},
                **{v.name: {tests[0]: FAIL, tests[1]: fail, tests[2]: fail} for v in CHAFFS}}
    result = judged(outcomes, tests, sources=sources)
    assert sum(s.score for s in result.scenarios) == 0 and not any(v.caught for v in result.chaffs)
    assert all(test.catches == 0 for test in result.tests)
    assert [test.valid for test in result.tests] == [True, False, False]  # the instructor's data keeps every test's
    assert result.invalid.startswith("test_wrong does not pass on every correct implementation, so none of your tests "
                                     "count")
    assert "the assertion at line 5 of tests/test_war.py (`assert 1 == 2`)" in result.invalid
    assert result.invalid.endswith("Tests after it may be invalid too: you are told of the first only.")
    assert "test_also_wrong" not in result.invalid
    assert all(scenario_sentence(scenario, result) == result.invalid for scenario in result.scenarios)
    assert StudentTestsResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_the_last_test_invalid_says_no_more_may_follow():
    result = judged({key: {"t::a": PASS, "t::b": FAIL} for key in ("reference", "wheat")}, ["t::a", "t::b"])
    assert result.invalid.startswith("b does not pass") and "Tests after it" not in result.invalid


def test_the_starters_unfinished_skeletons_earn_nothing_and_never_make_the_suite_invalid():
    """The untouched skeleton's four skipped scenarios beside a test of one's own: the suite still counts, and a
    skeleton's reason says nothing of its outcome on the correct implementations."""
    skeleton = (ROOT / "starter" / "test_war.py").read_text()
    sources = {"starter/test_war.py": skeleton + "\n\ndef test_mine():\n    pass\n"}
    given = given_examples(sources, skeleton)
    stubs = [f"starter/test_war.py::test_scenario_{n}" for n in
             ("1_joker_dominance", "2_forced_war", "3_exhaustion_during_war", "4_full_game")]
    assert set(stubs) < given and "starter/test_war.py::test_mine" not in given
    tests = ["starter/test_war.py::test_worked_example_a_round_without_a_war", *stubs, "starter/test_war.py::test_mine"]
    skipped = {stub: {"outcome": "skipped"} for stub in stubs}
    outcomes = {key: {**{test: PASS for test in tests}, **skipped} for key in ("reference", "wheat")}
    outcomes["joker_below_king"] = {**{test: PASS for test in tests}, **skipped,
                                    "starter/test_war.py::test_mine": FAIL}
    result = judged(outcomes, tests, given=given, sources=sources)
    assert result.invalid == "" and sum(s.score for s in result.scenarios) > 0
    reasons = {test.id: test.reason for test in result.tests}
    assert all(reasons[stub] == "This is one of the starter's unfinished skeletons: it earns nothing and does not "
                                "count against your suite." for stub in stubs)
    assert "passes on every correct implementation" in reasons[tests[0]]


@pytest.mark.parametrize("outcome", ["crash", "timeout", "error", "skipped", "missing"])
def test_a_crash_hang_fixture_error_or_skip_on_a_chaff_catches_nothing(outcome):
    """Only an ordinary failure catches: os._exit, a hang or an error outside the test body never does."""
    result = judged({variant.name: {"t::a": {"outcome": outcome}} for variant in CHAFFS}, ["t::a"])
    assert not any(verdict.caught for verdict in result.chaffs)
    assert sum(s.score for s in result.scenarios) == 0


def test_a_test_that_fails_on_a_wheat_is_invalid_and_catches_nothing():
    """Failing on the reference makes a test invalid, even if it also fails on every chaff."""
    result = judged({"reference": {"t::a": FAIL}, **{v.name: {"t::a": FAIL} for v in CHAFFS}}, ["t::a"])
    assert not result.tests[0].valid and result.tests[0].reason
    assert sum(s.score for s in result.scenarios) == 0


def test_an_invalid_test_that_passes_on_one_chaff_is_explained_by_that_bug():
    """Fails on both wheats, passes only on the opponent-pile-first chaff: the reason names that bug."""
    outcomes = {"reference": {"t::a": FAIL}, "wheat": {"t::a": FAIL},
                **{v.name: {"t::a": FAIL} for v in CHAFFS if v.name != "opponent_pile_first"}}
    reason = judged(outcomes, ["t::a"]).tests[0].reason
    assert "takes the opponent's pile before its own" in reason and "expects that bug" in reason


def test_an_invalid_test_names_its_own_failing_line_when_no_bug_explains_it():
    """A test failing everywhere is explained by its own assertion line, from the student's file."""
    test = "tests/test_war.py::test_a"
    outcomes = {key: {test: FAIL} for key in ["reference", "wheat", *(v.name for v in CHAFFS)]}
    sources = {"tests/test_war.py": "def test_a():\n    x = 1\n    assert x == 2\n"}
    reason = judged(outcomes, [test], sources=sources).tests[0].reason
    assert reason.endswith("the assertion at line 3 of tests/test_war.py (`assert x == 2`).")
    case = judged({key: {f"{test}[3]": FAIL} for key in ["reference", "wheat"]}, [f"{test}[3]"], sources=sources)
    assert "line 3 of tests/test_war.py" in case.tests[0].reason  # a parametrized case names its function's line
    method = {"tests/test_war.py": "class TestWar:\n    def test_a(self):\n        assert 1 == 2\n"}
    fail = {**FAIL, "line": 3}
    in_class = judged({key: {"tests/test_war.py::TestWar::test_a": fail} for key in ["reference", "wheat"]},
                      ["tests/test_war.py::TestWar::test_a"], sources=method)
    assert "line 3 of tests/test_war.py (`assert 1 == 2`)" in in_class.tests[0].reason


def test_a_failing_line_is_named_only_inside_a_short_test_of_its_own():
    """The line is the one free number a reason carries: a test that branches on what it sees to one of thousands
    of lines (or of helpers) would read that many bits of the correct implementations' behaviour from it. Only a
    line of the test's own function, at most 40 lines long, is named."""
    long_test = "def test_long():\n" + "    x = 1\n" * 60 + "    assert x == 2\n"
    helper = "def check(x):\n    assert x == 2\n\n\ndef test_short():\n    check(1)\n"
    sources = {"tests/test_war.py": long_test, "tests/test_more.py": helper}
    far = {**FAIL, "line": 62}
    in_helper = {**FAIL, "file": "/submission/tests/test_more.py", "line": 2}
    tests = ["tests/test_war.py::test_long", "tests/test_more.py::test_short"]
    outcomes = {key: {tests[0]: far, tests[1]: in_helper} for key in ["reference", "wheat"]}
    long_reason, helper_reason = (test.reason for test in judged(outcomes, tests, sources=sources).tests)
    assert "62" not in long_reason and "at most 40 lines" in long_reason and "AssertionError" in long_reason
    assert "line 2" not in helper_reason and "in a function it called" in helper_reason


def test_a_test_that_passes_on_one_wheat_only_depends_on_what_the_rules_leave_open():
    """Passing on the reference but failing on the second wheat: it relies on internals."""
    reason = judged({"wheat": {"t::a": FAIL}}, ["t::a"]).tests[0].reason
    assert "one correct implementation and fails on another" in reason


def test_a_test_that_hangs_or_crashes_on_a_wheat_says_so():
    """The reason for a hang says it did not finish in time; for a crash, the process ending."""
    assert "did not finish within its time limit" in judged({"reference": {"t::a": {"outcome": "timeout"}}},
                                                            ["t::a"]).tests[0].reason
    assert "ended the test process" in judged({"wheat": {"t::a": {"outcome": "crash"}}}, ["t::a"]).tests[0].reason


def test_a_hang_on_the_second_wheat_never_quotes_the_deadline_its_time_on_the_reference_gave():
    """Every correct run's limit comes from the test's time on the student's own package, which the test can make
    depend on what it sees (a sleep), so its value is never told."""
    runs = runs_with({"wheat": {"t::a": {"outcome": "timeout"}}}, ["t::a"])
    result = judge(runs, test_sources={}, package_sources={}, given=set(), points=20.0, test_timeout=2.0,
                   deadlines={"t::a": 0.437})
    reason = result.tests[0].reason
    assert reason.startswith("It did not finish within its time limit on a correct implementation")
    assert "0.437" not in reason and "0.4" not in reason


@pytest.mark.parametrize(("own", "says"), [("timeout", "did not finish within 2 s on your own package"),
                                            ("crash", "ended the test process on your own package")])
def test_a_test_that_did_not_end_on_the_own_package_says_it_ran_nowhere_else(own, says):
    """The judged runs' command holds only the tests that ended on the student's own package: one that hung or
    crashed there is on no correct run, and its reason says why (not that an earlier test stopped a run)."""
    runs = [Run("own", "own", {"t::a": {"outcome": own}}, ["t::a"]),
            *(dataclasses.replace(run, outcomes={}) for run in runs_with({}, ["t::a"]) if run.role != "own")]
    result = judge(runs, test_sources={}, package_sources={}, given=set(), points=20.0, test_timeout=2.0)
    (test,) = result.tests
    assert not test.valid and says in test.reason and test.reason.endswith("run on no other implementation.")


SCHEMA = runner.Schema({"/submission/tests/test_war.py": 9}, ("tests/test_war.py",),
                       frozenset({"tests/test_war.py::test_a"}), {"starter/game.py": 40})


@pytest.mark.parametrize("lie", [
    {"outcome": "def play_round(p1, p2):"},
    {"outcome": "failed", "exception": "class Queue: ..."},
    {"outcome": "failed", "exception": "AssertionError", "file": 3, "line": 7},
    {"outcome": "failed", "exception": "AssertionError", "file": "/grader-runtime/x.py", "line": 1},
    {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": "7"},
    {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 10},
    {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 10**4000},
    {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": True},
    {"outcome": "failed", "file": "", "line": 12},
    {"outcome": "passed", "seconds": "1e9"},
    "passed",
])
def test_a_lying_sandbox_can_put_no_text_or_number_of_its_own_in_the_report(lie):
    """A test that read the reference and reports it in any field of its outcome (a word, a file, a line number
    past its file's end) has the outcome dropped: it counts as a crash of that run."""
    assert checked_outcome(lie, SCHEMA) == runner.CRASH


@pytest.mark.parametrize("lie", [
    {"outcome": ["failed"]},
    {"outcome": {"failed": 1}},
    {"outcome": "failed", "exception": ["AssertionError"]},
    {"outcome": "failed", "exception": "AssertionError", "file": ["/submission/tests/test_war.py"], "line": 3},
    {"outcome": "failed", "exception": {"a": 1}, "file": "/submission/tests/test_war.py", "line": 3},
])
def test_an_outcome_of_the_wrong_type_is_a_crash_of_that_run_not_a_grader_fault(lie):
    """A list or an object where a word or a file belongs is a crash of that run (it raised TypeError on the
    trusted side, unhashable in a set: a grader fault, the batch ended with no results.json)"""
    assert checked_outcome(lie, SCHEMA) == runner.CRASH


NESTED_DONE = """import json, sys
print(json.dumps({"boot": True}), flush=True)
sys.stdin.readline()
print(json.dumps({"fork": True}), flush=True)
sys.stdin.readline()
print(json.dumps({"ready": True}), flush=True)
sys.stdin.readline()
outcome = "[" * LEVELS + "]" * LEVELS
sys.stdout.write('{"done": {"results": {"tests/test_war.py::test_a": {"outcome": ' + outcome + '}}}}\\n')
sys.stdout.flush()
sys.stdin.readline()
"""
"""A stand-in for Part E's sandbox whose one run reports an outcome nested LEVELS deep (as a child of the zygote
can make it, writing on its pipe)."""


@pytest.mark.parametrize("levels", [40, 5000])
def test_a_report_nested_past_json_depth_is_a_crash_of_that_run(levels):
    """A run's report nested 40 deep (which json.loads reads) or 5000 deep (where json.loads raises RecursionError)
    is refused by the reader: every test of that run is a crash, charged to the student, never a grader fault"""
    from grader.part_e.protocol import RunCommand
    from grader.sandbox.isolation import Limits

    session = session_module.Session([sys.executable, "-c", NESTED_DONE.replace("LEVELS", str(levels))], {}, Limits(),
                              None, "plain")
    session.launch()
    session.budget = 30
    try:
        session.wait_boot()
        done = session.run(RunCommand(root="/submission", package="starter", files=("tests/test_war.py",),
                                      scratch_bytes=2**20, namespaced=False, sweep=False, private_tmp=False,
                                      scratch="/tmp", test_timeout=1.0, import_timeout=1.0), "x", [])
    finally:
        session.stop()
    run = runner.checked_run(done, "wheat", "reference", SCHEMA)
    assert run.outcomes == {"tests/test_war.py::test_a": runner.CRASH}


def test_an_honest_outcome_crosses_unchanged():
    honest = {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 9,
              "seconds": 0.01}
    assert checked_outcome(honest, SCHEMA) == honest
    assert checked_outcome({"outcome": "passed", "file": "", "line": 0}, SCHEMA)["outcome"] == "passed"


def test_only_the_students_own_test_ids_files_and_lines_cross():
    """Ids not collected on the student's package are dropped, collect errors name only their test files, and
    coverage names only package files and lines within them."""
    done = {"results": {"tests/test_war.py::test_a": {"outcome": "passed"}, "LEAK::x": {"outcome": "passed"}},
            "collected": ["tests/test_war.py::test_a", "tests/test_war.py::test_b", 7],
            "collect_errors": ["tests/test_war.py", "LEAK"],
            "coverage": {"starter/game.py": [1, 40, 41, 10**50], "reference.py": [1]}}
    run = runner.checked_run(done, "wheat", "reference", SCHEMA)
    assert list(run.outcomes) == ["tests/test_war.py::test_a"] and run.collected == ["tests/test_war.py::test_a"]
    assert run.collect_errors == ["tests/test_war.py"] and run.coverage == {}
    own = runner.checked_run(done, "own", "own", dataclasses.replace(SCHEMA, ids=None))
    assert own.collected == ["tests/test_war.py::test_a", "tests/test_war.py::test_b"]
    assert own.coverage == {"starter/game.py": [1, 40]}


def test_a_line_number_never_reaches_the_reason_unless_it_is_a_line_of_the_test_file():
    sources = {"tests/test_war.py": "def test_a():\n    assert 1 == 2\n"}
    far = {"outcome": "failed", "exception": "AssertionError", "file": "/submission/tests/test_war.py", "line": 10**40}
    result = judged({key: {"tests/test_war.py::test_a": far} for key in ("reference", "wheat")},
                    ["tests/test_war.py::test_a"], sources=sources)
    assert str(10**40) not in result.tests[0].reason and result.tests[0].reason.endswith("it raised AssertionError.")


def test_the_sandbox_and_the_judge_quote_the_same_exception_names():
    """run_session.py runs in the sandbox and cannot import the judge: it holds its own copy of the names."""
    import ast as syntax

    tree = syntax.parse((ROOT / "grader" / "part_e" / "run_session.py").read_text())
    names = next(syntax.literal_eval(node.value.args[0]) for node in tree.body if isinstance(node, syntax.Assign)
                 and getattr(node.targets[0], "id", "") == "KNOWN_EXCEPTIONS")
    assert names == set(KNOWN_EXCEPTIONS)


@pytest.mark.parametrize(("seconds", "deadline"), [(0.0, 0.5), (0.001, 0.5), (0.1, 2.0), (5.0, 10.0)])
def test_a_deadline_after_the_reference_is_a_multiple_of_its_time_there_with_a_floor_and_a_ceiling(seconds, deadline):
    """20 times the reference's seconds, at least deadline_floor (0.5 s), at most game_timeout (10 s)."""
    limits = load_config().times
    assert (limits.call_timeout, limits.deadline_floor, limits.game_timeout) == (2.0, 0.5, 10.0)
    assert limits.test_deadline(seconds) == deadline


def test_the_starters_worked_example_earns_nothing_even_if_copied():
    """A test whose body is the skeleton's worked example (any name) catches nothing."""
    skeleton = (ROOT / "starter" / "test_war.py").read_text()
    start = skeleton.index("def test_worked_example")
    end = skeleton.index("def test_scenario_1")
    copied = skeleton[start:end].replace("test_worked_example_a_round_without_a_war", "test_mine")
    given = given_examples({"tests/test_war.py": copied}, skeleton)
    assert given == {"tests/test_war.py::test_mine"}
    result = judged({"loser_card_first": {"tests/test_war.py::test_mine": FAIL}}, ["tests/test_war.py::test_mine"],
                    given=given)
    assert sum(s.score for s in result.scenarios) == 0 and "worked example" in result.tests[0].reason


def test_the_scores_are_the_same_whatever_order_the_tests_were_collected_in():
    """The score depends only on which chaffs were caught."""
    outcomes = {"two_face_down": {"t::b": FAIL}, "lifo_queue": {"t::a": FAIL}}
    first = judged(outcomes, ["t::a", "t::b"])
    second = judged(outcomes, ["t::b", "t::a"])
    assert first.scenarios == second.scenarios


def test_part_e_has_its_category_and_the_default_points_add_up_to_100():
    """"Your tests (Part E)" is a category with 20 points by default, and the total stays 100."""
    from grader.config import load_config

    config = load_config()
    assert CATEGORY_TITLES["student_tests"] == "Your tests (Part E)"
    assert config.points["student_tests"] == 20 and sum(config.points.values()) == 100


# -- finding the tests ------------------------------------------------------------------------------------

def test_tests_are_found_inside_beside_and_in_a_tests_folder(tmp_path):
    """test_*.py inside the package, beside it and under tests/ are copied; the package files exclude them."""
    source = tmp_path / "alice"
    write_reference(source)
    (source / "starter" / "test_inside.py").write_text("def test_a():\n    pass\n")
    (source / "test_beside.py").write_text("def test_b():\n    pass\n")
    (source / "tests").mkdir()
    (source / "tests" / "test_folder.py").write_text("def test_c():\n    pass\n")
    (source / "tests" / "helpers.py").write_text("X = 1\n")
    (source / "tests" / "conftest.py").write_text("raise SystemExit\n")
    shutil.copytree(ROOT / "tests" / "contract", source / "tests" / "contract")  # the public contract: not theirs
    copy = prepare(Submission("alice", source), tmp_path / "copy")
    assert copy.tests == ("starter/test_inside.py", "test_beside.py", "tests/test_folder.py")
    assert "starter/test_inside.py" not in copy.files and "starter/game.py" in copy.files
    assert (copy.root / "tests" / "helpers.py").is_file() and not (copy.root / "tests" / "conftest.py").exists()
    assert not (copy.root / "tests" / "contract").exists()


def test_a_single_module_with_a_test_file_beside_it_is_still_one_module(tmp_path):
    """war.py plus test_war.py: the module is war, the test is test_war.py."""
    (tmp_path / "bob").mkdir()
    (tmp_path / "bob" / "war.py").write_text("X = 1\n")
    (tmp_path / "bob" / "test_war.py").write_text("def test_x():\n    pass\n")
    copy = prepare(Submission("bob", tmp_path / "bob"), tmp_path / "copy")
    assert (copy.package, copy.files, copy.tests) == ("war", ("war.py",), ("test_war.py",))


# -- the starter's skeleton ---------------------------------------------------------------------------------

def test_the_skeleton_runs_with_plain_pytest_against_a_correct_package(tmp_path):
    """starter/test_war.py on a correct package: the worked example passes and the four scenarios are skipped."""
    folder = write_reference(tmp_path)
    shutil.copy(ROOT / "starter" / "test_war.py", folder / "test_war.py")
    completed = subprocess.run([sys.executable, "-m", "pytest", "starter/test_war.py", "-q", "-p", "no:cacheprovider",
                                "-p", "no:randomly"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                               check=False)
    assert "1 passed, 4 skipped" in completed.stdout, completed.stdout[-2000:]


# -- through the sandbox ------------------------------------------------------------------------------------

def submission_with_tests(into: Path, name: str, tests: str) -> Path:
    """A correct package (the reference) with tests/test_war.py holding `tests`."""
    folder = into / name
    write_reference(folder)
    (folder / "tests").mkdir()
    (folder / "tests" / "test_war.py").write_text(tests)
    return folder


STATEFUL = '''
import os
from starter import Queue, play_round


def bump(path):
    try:
        with open(path) as handle:
            count = int(handle.read())
    except (OSError, ValueError):
        count = 0
    try:
        with open(path, "w") as handle:
            handle.write(str(count + 1))
    except OSError:
        pass
    return count + 1


def test_runs_counted_across_implementations():
    """Cheat: fails from the fourth run on (own package, two wheats, then chaffs)."""
    seen = max(bump("/tmp/count"), bump(os.path.join(os.getcwd(), "count")))
    assert seen <= 3


def test_joker():
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue("K")
    assert play_round(q1, q2) == "P1"
'''


def test_no_state_survives_from_one_implementation_to_the_next(sandbox, tmp_path):
    """A test that counts its runs in files cannot tell chaffs from wheats: only the honest Joker test catches."""
    folder = submission_with_tests(tmp_path, "counter", STATEFUL)
    result = grade(paths=[folder], out=tmp_path / "out", jobs=1, config_path=TEST_CONFIG)[0]
    part_e = result.student_tests
    assert part_e is not None and part_e.status == "graded"
    caught = sorted(verdict.misconception for verdict in part_e.chaffs if verdict.caught)
    assert caught == ["Jokers ordered as text, so \"Jo\" sorts between J and Q and loses to Q and K",
                      "a Joker that loses to a King"]
    counter = next(test for test in part_e.tests if test.id.endswith("counted_across_implementations"))
    assert counter.valid and counter.catches == 0


def test_the_implementations_are_never_on_the_sandbox_file_system(sandbox, tmp_path):
    """A test that looks for the reference's or the chaffs' files finds none (they travel in memory)."""
    tests = '''
import os
from starter import play_round


def test_nothing_to_find():
    found = []
    for top in ("/", "/tmp", "/grader-runtime", os.getcwd()):
        for folder, dirs, names in os.walk(top):
            if folder.startswith(("/proc", "/sys", "/usr", "/dev")):
                dirs[:] = []  # not walked at all: the system's own files (a walk of /usr outlasts a test's deadline)
                continue
            found += [os.path.join(folder, n) for n in names if n in ("simulate.py", "variants.py", "cps506.py")]
    assert found == []
'''
    folder = submission_with_tests(tmp_path, "finder", tests)
    result = grade(paths=[folder], out=tmp_path / "out", jobs=1, config_path=TEST_CONFIG)[0]
    assert result.student_tests is not None
    assert [test.valid for test in result.student_tests.tests] == [True]


def test_the_report_shows_part_e_with_misconceptions_and_reasons_but_no_output(sandbox, tmp_path):
    """report.html names an invalid test, with the bug it expects in words, and no run's output; the suite then
    counts for nothing, so no bug is listed as missed by it."""
    tests = '''
from starter import Queue, play_round


def test_king_beats_joker():
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue("K")
    print("PRINTED-BY-THE-TEST")
    assert play_round(q1, q2) == "P2"
'''
    folder = submission_with_tests(tmp_path, "wrong", tests)
    grade(paths=[folder], out=tmp_path / "out", jobs=1, config_path=TEST_CONFIG)
    result = read_results(tmp_path / "out" / "wrong" / "results.json")
    html = render_student_report(result)
    assert "Your tests (Part E)" in html and "test_king_beats_joker does not pass on every correct" in html
    assert "a Joker that loses to a King" in html and "your test expects that bug" in html and "Missed:" not in html
    raw = (tmp_path / "out" / "wrong" / "results.json").read_text()
    assert "PRINTED-BY-THE-TEST" not in raw and "PRINTED-BY-THE-TEST" not in html
    assert json.loads(raw)["extra_data"]["student_tests"]["status"] == "graded"


def test_pytests_usual_fixtures_and_parametrize_work_in_every_run(sandbox, tmp_path):
    """tmp_path, capsys, monkeypatch and parametrize are available on every implementation: all tests are valid."""
    tests = '''
import pytest
from starter import Queue, play_round


@pytest.mark.parametrize("other", ["K", "Q", "J"])
def test_joker_beats(other, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("WAR", "1")
    (tmp_path / "note.txt").write_text(other)
    print(other)
    assert capsys.readouterr().out == other + "\\n"
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue(other)
    assert play_round(q1, q2) == "P1"
'''
    folder = submission_with_tests(tmp_path, "fixtures", tests)
    result = grade(paths=[folder], out=tmp_path / "out", jobs=1, config_path=TEST_CONFIG)[0]
    part_e = result.student_tests
    assert part_e is not None and [test.valid for test in part_e.tests] == [True, True, True]
    assert sum(verdict.caught for verdict in part_e.chaffs) == 2


def part_e_alone(into: Path, folder: Path, **limits: float):
    """Part E alone on a submission folder (no hidden suites): its result, its seconds, the commands it sent."""
    into.mkdir(mode=0o711)
    copy = prepare(Submission(folder.name, folder), into / "copy")
    config = load_config(TEST_CONFIG, overrides={f"limits.{key}": value for key, value in limits.items()})
    commands = []
    session_run = session_module.Session.run

    def recorded(self, command, sources, stop_on):
        commands.append(command)
        return session_run(self, command, sources, stop_on)

    session_module.Session.run = recorded
    try:
        started = time.monotonic()
        result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests,
                                     package_files=copy.files, runtime=make_runtime(into / "runtime"), config=config,
                                     slot=0)
        return result, time.monotonic() - started, commands
    finally:
        session_module.Session.run = session_run


JOKER = """
from starter import Queue, play_round


def test_joker():
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue("K")
    assert play_round(q1, q2) == "P1"
"""


def test_a_test_that_reads_the_run_command_cannot_tell_a_chaff_from_a_wheat(sandbox, tmp_path):
    """Everything in a test's process is readable by it: nothing there says which runs stop at a catch (only chaff
    runs do), so a test that fails when told so fails on no chaff and passes on the wheats, as it should."""
    tests = JOKER + """

def test_told_this_is_a_chaff():
    import gc
    import sys

    def told(obj):
        if isinstance(obj, dict) and obj.get("stop_on"):
            return True
        return bool(getattr(obj, "stop_on", None)) if type(obj).__name__ == "Recorder" else False

    frames, frame = [], sys._getframe()
    while frame is not None:
        frames.append(frame.f_locals)
        frame = frame.f_back
    try:
        objects = gc.get_objects()
    except RuntimeError:  # once an implementation is loaded, gc is refused to tests
        objects = []
    assert not any(told(obj) for obj in [*objects, *frames])
"""
    folder = submission_with_tests(tmp_path, "told", tests)
    result, _, commands = part_e_alone(tmp_path / "work", folder)
    assert result.status == "graded" and [test.valid for test in result.tests] == [True, True]
    caught_by = {test for verdict in result.chaffs for test in verdict.caught_by}
    assert caught_by == {"tests/test_war.py::test_joker"}
    first, *later = commands[1:]  # every run after the own package's, the reference's first run included
    caught = sum(verdict.caught for verdict in result.chaffs)
    assert len(commands) - 1 == sum(runner.WHEAT_RUNS.values()) + runner.CHAFF_RUNS * caught + len(CHAFFS) - caught
    assert all(command == first for command in later)


def test_a_hanging_test_costs_its_deadline_on_the_own_package_and_is_run_on_no_other_implementation(sandbox, tmp_path):
    """call_timeout (1 s here) on the student's own package, then never again (no judged run's command holds
    it): with game_timeout at 30 s the old design spent a minute on it."""
    tests = JOKER + """

def test_never_ends():
    while True:
        pass
"""
    folder = submission_with_tests(tmp_path, "hangs", tests)
    result, seconds, commands = part_e_alone(tmp_path / "work", folder, call_timeout=1.0, game_timeout=30.0,
                                             deadline_floor=0.5)
    never = next(test for test in result.tests if test.id.endswith("never_ends"))
    assert (never.valid, never.own_outcome) == (False, "timeout")
    assert "did not finish within 1 s on your own package" in never.reason
    assert all(command.select is not None and never.id not in command.select for command in commands[1:])
    assert all(test.valid for test in result.tests if test is not never)  # the Joker tests still ran and passed
    assert result.invalid.startswith("test_never_ends does not pass on every correct implementation")
    assert sum(verdict.caught for verdict in result.chaffs) == 0  # one invalid test: the suite counts for nothing
    assert seconds < 20


def test_part_e_sandbox_started_before_the_suites_is_closed_when_the_submission_is_ungradable(sandbox, tmp_path,
                                                                                               monkeypatch):
    """Part E's sandbox boots while the hidden suites run; a package that cannot be imported ends the grading
    there, and the sandbox, started but never used, is stopped with its whole process tree."""
    opened, pids = [], []
    open_student_tests = runner.open_student_tests

    def recorded(**arguments):
        opened.append(open_student_tests(**arguments))
        pids.append(opened[-1].session.process.pid)
        return opened[-1]

    monkeypatch.setattr("grader.grading.runner.open_student_tests", recorded)
    folder = submission_with_tests(tmp_path, "broken", JOKER)
    (folder / "starter" / "game.py").write_text("def play_game(:\n")
    result = grade(paths=[folder], out=tmp_path / "out", jobs=1, config_path=TEST_CONFIG)[0]
    assert result.outcome == "ungradable" and result.student_tests is None
    assert len(opened) == 1 and opened[0].session is not None
    assert opened[0].session.process is None and not Path(f"/proc/{pids[0]}").exists()  # killed and reaped


def test_a_test_that_writes_the_reference_into_its_own_report_line_gets_no_text_through(sandbox, tmp_path):
    """The sandbox's pipe belongs to the student's code too: a test that reads the implementation and reports
    its source as an exception's name leaves only "Exception" in the reason."""
    tests = """
import inspect, json, os, stat
import starter.game


def test_leak():
    source = inspect.getsource(starter.game)[:120]
    for fd in range(3, 64):  # the pipe to the zygote, wherever it is
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, (json.dumps({"end": "tests/test_war.py::test_leak", "outcome": "failed",
                                          "exception": "LEAK " + source}) + "\\n").encode())
        except OSError:
            pass
"""
    folder = submission_with_tests(tmp_path, "leak", tests)
    result, _, _ = part_e_alone(tmp_path / "work", folder)
    (test,) = result.tests
    assert not test.valid and "a report the grader could not accept" in test.reason  # its lie is a crash
    assert "LEAK" not in json.dumps(result.to_json())


# -- the secret order of runs ------------------------------------------------------------------------------------

def test_the_order_of_runs_is_the_same_for_the_same_submission_and_another_for_another():
    """Each wheat runs WHEAT_RUNS times among the chaffs, at places a student cannot compute; the same files
    always give the same order (the same grade)."""
    tests, package = {"tests/test_war.py": "def test_a():\n    pass\n"}, {"starter/game.py": "x = 1\n"}
    order = runner.secret_order(tests, package)
    assert order == runner.secret_order(dict(tests), dict(package))
    assert sorted(key for role, key in order if role == "wheat") == ["reference"] * 2 + ["wheat"] * 2
    assert sorted(key for role, key in order if role == "chaff") == sorted(variant.name for variant in CHAFFS for _ in "12")
    others = [runner.secret_order({"tests/test_war.py": f"def test_a():\n    pass  # {n}\n"}, package)
              for n in range(5)]
    assert any(other != order for other in others)
    places = {tuple(index for index, (role, _) in enumerate(other) if role == "wheat") for other in [order, *others]}
    assert len(places) > 1  # the wheats are not always at the same places
    first = {other.index(("wheat", "reference")) for other in [order, *others]}
    assert len(first) > 1 and first != {0}  # nor is the reference's first run always the first judged run


def test_a_test_whose_outcome_changes_between_runs_of_one_wheat_says_so():
    """A test that counts its runs fails on some run of a correct implementation: invalid, with a reason."""
    tests = ["t::count"]
    runs = runs_with({}, tests)
    runs.insert(3, Run("wheat", "reference", {"t::count": {"outcome": "failed", "exception": "AssertionError"}}))
    result = judge(runs, test_sources={}, package_sources={}, given=set(), points=20.0, test_timeout=2.0)
    (test,) = result.tests
    assert not test.valid and test.reason.startswith(
        "Its outcome changed between two runs of the same implementation (it is nondeterministic)")
    assert result.scenarios and sum(scenario.score for scenario in result.scenarios) == 0


def chaff_runs_apart(first: dict, second: dict, tests: list[str], chaff: str = "joker_below_king") -> list[Run]:
    """runs_with, but the chaff's two runs with outcomes of their own."""
    runs = [run for run in runs_with({}, tests) if run.key != chaff]
    return [*runs, Run("chaff", chaff, first), Run("chaff", chaff, second)]


def judge_runs(runs: list[Run]):
    return judge(runs, test_sources={}, package_sources={}, given=set(), points=20.0, test_timeout=2.0)


def test_a_test_failing_on_both_runs_of_a_chaff_catches_it():
    result = judge_runs(chaff_runs_apart({"t::a": FAIL}, {"t::a": FAIL}, ["t::a"]))
    assert [v.misconception for v in result.chaffs if v.caught] == ["a Joker that loses to a King"]
    assert sum(s.score for s in result.scenarios) == round(MISS_FACTOR / (MISS_FACTOR + 23), 4)
    assert result.untrusted == ""


@pytest.mark.parametrize("other", ["timeout", "crash", "error", "skipped", "missing"])
def test_a_test_failing_on_one_run_of_a_chaff_only_catches_nothing(other):
    """Failing on one run and ending otherwise (or not run) on the other: not caught, and no flip either."""
    second = {} if other == "missing" else {"t::a": {"outcome": other}}
    result = judge_runs(chaff_runs_apart({"t::a": FAIL}, second, ["t::a"]))
    assert not any(v.caught for v in result.chaffs) and sum(s.score for s in result.scenarios) == 0
    assert result.untrusted == "" and result.tests[0].valid


def test_a_chaff_run_once_only_is_not_caught():
    runs = [run for run in runs_with({}, ["t::a"]) if run.key != "joker_below_king"]
    result = judge_runs([*runs, Run("chaff", "joker_below_king", {"t::a": FAIL})])
    assert not any(v.caught for v in result.chaffs)


def test_a_flip_on_a_chaffs_two_runs_zeroes_part_e_and_says_which_test():
    """Passing on one run of a chaff and failing on the other: the outcome depends on something other than the
    code, so no test counts, not even one that honestly catches other chaffs."""
    tests = ["t::honest", "t::test_clock[3]"]
    runs = [run for run in runs_with({"ace_high": {"t::honest": FAIL}}, tests)
            if run.key != "joker_below_king"]
    runs += [Run("chaff", "joker_below_king", {"t::honest": PASS, "t::test_clock[3]": FAIL}),
             Run("chaff", "joker_below_king", {"t::honest": PASS, "t::test_clock[3]": PASS})]
    result = judge_runs(runs)
    assert result.untrusted == (
        "test_clock[3] passed on one run of a buggy version and failed on another run of the same version: its "
        "outcome depends on something other than the code it tests (the clock, a count of runs, a process id, state "
        "it keeps), so none of your tests count.")
    assert sum(s.score for s in result.scenarios) == 0 and not any(v.caught for v in result.chaffs)
    assert all(test.catches == 0 for test in result.tests)
    clock = next(test for test in result.tests if test.id == "t::test_clock[3]")
    assert not clock.valid and clock.reason.startswith("Its outcome changed between two runs of the same "
                                                       "implementation (it is nondeterministic)")
    assert StudentTestsResult.from_json(json.loads(json.dumps(result.to_json()))) == result


def test_a_flip_on_a_wheat_zeroes_part_e_and_names_a_correct_implementation():
    tests = ["t::count"]
    runs = runs_with({"joker_below_king": {"t::count": FAIL}}, tests)
    runs.insert(3, Run("wheat", "wheat", {"t::count": FAIL}))
    result = judge_runs(runs)
    assert result.untrusted.startswith("count passed on one run of a correct implementation and failed on another "
                                       "run of the same implementation: ")
    assert sum(s.score for s in result.scenarios) == 0
    assert all(scenario_sentence(scenario, result) == result.untrusted for scenario in result.scenarios)


def test_the_worked_example_says_it_passes_only_when_it_did():
    passing = judged({}, ["t::example"], given={"t::example"})
    assert "it passes on every correct implementation" in passing.tests[0].reason
    failing = judged({key: {"t::example": {"outcome": "skipped"}} for key in ("reference", "wheat")}, ["t::example"],
                     given={"t::example"})
    reason = failing.tests[0].reason
    assert "passes" not in reason and "worked example" in reason and "skipped" in reason


RUNS_FOREVER = """import json, sys
print(json.dumps({"boot": True}), flush=True)
while True:
    sys.stdin.readline()
    print(json.dumps({"fork": True}), flush=True)
    sys.stdin.readline()
    print(json.dumps({"ready": True}), flush=True)
    sys.stdin.readline()
    if MODE == "spin":
        while True:
            pass
    if MODE == "slow":  # a run of half a second
        import time
        time.sleep(0.5)
    for _ in range(40000):  # a run that takes a few milliseconds of CPU
        pass
    print(json.dumps({"done": {"results": {}}}), flush=True)
"""
"""A stand-in for Part E's sandbox: each run takes milliseconds (MODE "quick"), never ends ("spin"), or spins a
eighth of each tenth of a second for a second ("duty")."""


def _stand_in_session(mode: str, budget: float) -> session_module.Session:
    from grader.sandbox.isolation import Limits

    session = session_module.Session([sys.executable, "-c", RUNS_FOREVER.replace("MODE", repr(mode))], {}, Limits(),
                              None, "plain")
    session.launch()
    session.budget = budget
    session.wait_boot()
    return session


def _stand_in_run(session: session_module.Session) -> dict:
    from grader.part_e.protocol import RunCommand

    return session.run(RunCommand(root="/submission", package="starter", files=("tests/test_war.py",),
                                  scratch_bytes=2**20, namespaced=False, sweep=False, private_tmp=False,
                                  scratch="/tmp", test_timeout=1.0, import_timeout=1.0), "x", [])


def test_part_e_budget_counts_only_the_runs_themselves():
    """Part E's budget is charged while a run is under way, never while the trusted side works between runs (on
    a loaded machine that takes longer): three quick runs, 0.6 s apart, all end within a 0.5 s budget"""
    session = _stand_in_session("quick", 0.5)
    try:
        for _ in range(3):
            assert _stand_in_run(session) == {"results": {}}
            time.sleep(0.6)
        assert 0 < session.spent < 0.3
    finally:
        session.stop()


def test_part_e_budget_stops_a_run_that_never_ends_once_charged():
    """A run that spins is stopped once it has been charged the budget (its CPU), with the student's sentence"""
    session = _stand_in_session("spin", 0.6)
    try:
        started = time.monotonic()
        with pytest.raises(session_module.Stopped, match="used up the time allowed"):
            _stand_in_run(session)
        assert 0.6 <= session.spent < 1.0 and time.monotonic() - started < 0.6 * 4 + 1.5
    finally:
        session.stop()


def test_part_e_ends_on_the_wall_clock_at_four_times_its_budget_however_little_its_runs_are_charged(monkeypatch):
    """A run the clock charges nothing for (as one that spins a little in every tenth of a second and sleeps the
    rest is charged a fraction of its wall time) still cannot keep Part E going: it ends WALL_FACTOR times its
    budget plus WALL_SLACK after its first run began (each run's own backstop, 4 times the budget left, would let
    such runs go on for ever)"""

    class ChargesNothing:
        def __init__(self, pid):
            self.pid = pid

        def charged(self):
            return 0.0

        def until(self, limit):
            return 0.05

    monkeypatch.setattr(session_module, "CallClock", ChargesNothing)
    session = _stand_in_session("slow", 0.3)
    started = time.monotonic()
    runs = 0
    try:
        with pytest.raises(session_module.Stopped, match="used up the time allowed"):
            while runs < 20:
                _stand_in_run(session)
                runs += 1
        elapsed = time.monotonic() - started
        assert runs >= 2 and session.spent == 0.0
        limit = 0.3 * session_module.WALL_FACTOR + session_module.WALL_SLACK
        assert limit - 0.1 < elapsed < limit + 0.5, elapsed
    finally:
        session.stop()


def test_a_sandbox_that_booted_while_the_hidden_suites_ran_is_read_however_long_they_took():
    """The zygote's "boot" line waits in the pipe while the hidden suites run; read after BOOT_SECONDS have passed
    since the launch (a busy machine), it still counts: before, Part E was then not run and a thorough suite lost
    its 20 points under load"""
    from grader.sandbox.isolation import Limits

    script = "import json, sys\nprint(json.dumps({'boot': True}), flush=True)\nsys.stdin.readline()\n"
    session = session_module.Session([sys.executable, "-c", script], {}, Limits(), None, "plain")
    session.launch()
    try:
        time.sleep(0.5)  # the line is in the pipe
        session.booting = time.monotonic() - 1.0  # as if the hidden suites had kept the trusted side past it
        session.wait_boot()
    finally:
        session.stop()


def test_a_sandbox_that_never_boots_is_the_graders_fault_not_a_part_e_of_0():
    from grader.sandbox.isolation import Limits

    session = session_module.Session([sys.executable, "-c", "import time; time.sleep(30)"], {}, Limits(), None,
                                     "plain")
    session.launch()
    try:
        session.booting = time.monotonic() + 0.3
        with pytest.raises(session_module.SandboxFault, match="did not start"):
            session.wait_boot()
    finally:
        session.stop()
