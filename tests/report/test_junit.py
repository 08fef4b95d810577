"""`--junit FILE`: JUnit XML that any CI's test tab reads, checked by parsing it back."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

from grader.report.junit import junit_xml, write_junit
from grader.results import read_results

SAVED = Path(__file__).resolve().parents[1] / "data" / "results"


def parse(results) -> ET.Element:
    """The JUnit document for results, parsed."""
    return ET.fromstring(junit_xml(results).encode("utf-8"))


def test_each_student_is_a_testsuite_and_each_test_a_testcase():
    """One testsuite per student, named for them, with a testcase per hidden test and the totals in attributes."""
    flawed = read_results(SAVED / "collects_opponent_first" / "results.json")
    perfect = read_results(SAVED / "perfect_score" / "results.json")
    root = parse([flawed, perfect])
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == [flawed.student, perfect.student]
    failed = sum(test.outcome != "passed" for test in flawed.tests)
    assert suites[0].get("tests") == str(len(flawed.tests)) and suites[0].get("failures") == str(failed)
    assert len(suites[0].findall("testcase")) == len(flawed.tests) and suites[1].get("failures") == "0"
    assert root.get("tests") == str(len(flawed.tests) + len(perfect.tests)) and root.get("failures") == str(failed)
    properties = {p.get("name"): p.get("value") for p in suites[0].find("properties")}
    assert properties["score"] == f"{flawed.score:g}" and properties["max_score"] == f"{flawed.max_score:g}"


def test_a_failure_carries_the_sentence_that_explains_it():
    """Every failed test's <failure> has the test's sentence as message, and its category in the classname."""
    flawed = read_results(SAVED / "collects_opponent_first" / "results.json")
    cases = {case.get("name"): case for case in parse([flawed]).iter("testcase")}
    for test in flawed.tests:
        failure = cases[test.name].find("failure")
        if test.outcome == "passed":
            assert failure is None
        else:
            assert failure.get("message") == test.sentence and test.sentence in failure.text
            assert failure.get("type") == test.outcome
        assert cases[test.name].get("classname") == f"{flawed.student}.{test.category}"


def test_an_ungradable_submission_is_one_erroring_testcase_with_its_reason():
    """A submission that could not be graded shows as an error whose message is the reason."""
    ungradable = read_results(SAVED / "no_war_module" / "results.json")
    suite = parse([ungradable]).find("testsuite")
    error = suite.find("testcase/error")
    assert suite.get("errors") == "1" and error.get("message") == ungradable.reason
    assert error.get("type") == "ungradable"


def test_markup_and_control_characters_in_student_output_still_parse(tmp_path):
    """Markup, quotes and characters XML cannot hold (NUL, escape) in names and output give a parseable file."""
    result = read_results(SAVED / "markup_everywhere" / "results.json")
    first = dataclasses.replace(result.tests[0], output="<b>&\"'</b>\x00\x1b[31m", outcome="failed",
                                sentence="<script>alert(1)</script>\x07")
    result = dataclasses.replace(result, student="<i>x</i>", tests=[first, *result.tests[1:]])
    write_junit([result], tmp_path / "deep" / "junit.xml")
    root = ET.parse(tmp_path / "deep" / "junit.xml").getroot()
    assert root.find("testsuite").get("name") == "<i>x</i>"
    failure = root.find("testsuite/testcase/failure")
    assert failure.get("message") == "<script>alert(1)</script>\ufffd"
    assert root.find("testsuite/testcase/system-out").text == "<b>&\"'</b>\ufffd\ufffd[31m"


def test_an_excused_test_is_a_pass_that_says_what_it_follows_from():
    """An excused test keeps its points: no <failure>, not counted among the failures, and its output names the
    bug it follows from"""
    flawed = read_results(SAVED / "collects_opponent_first" / "results.json")
    first = flawed.tests[0]
    excused = dataclasses.replace(first, outcome="excused", score=first.max_score, sentence="it differs",
                                  follows_from="follows from: a rule, charged in Forced war")
    result = dataclasses.replace(flawed, tests=[excused, *flawed.tests[1:]])
    suite = parse([result]).find("testsuite")
    case = next(case for case in suite.iter("testcase") if case.get("name") == excused.name)
    assert case.find("failure") is None and "charged in Forced war" in case.find("system-out").text
    assert suite.get("failures") == str(sum(test.outcome not in ("passed", "excused") for test in result.tests))
