"""`--junit FILE`: JUnit XML for any CI's test tab: one testsuite per student, one testcase per hidden test."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from ..results import CATEGORY_TITLES, EARNING_OUTCOMES, GradeResult, TestResult

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold (student output may print any of them)."""


def junit_xml(results: list[GradeResult]) -> str:
    """The JUnit XML document for a class: failures and errors carry the sentence that explains them."""
    root = ET.Element("testsuites", name="war-grader")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for result in results:
        suite = _suite(result)
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key, "0"))
    root.set("time", f"{sum(r.execution_time for r in results):.3f}")
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(results: list[GradeResult], path: Path) -> None:
    """Write the JUnit XML file, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(junit_xml(results), encoding="utf-8")


def _suite(result: GradeResult) -> ET.Element:
    """One student: a testcase per test, or one erroring testcase when the submission could not be graded."""
    suite = ET.Element("testsuite", name=_text(result.student), timestamp=result.graded_at,
                       time=f"{result.execution_time:.3f}")
    properties = ET.SubElement(suite, "properties")
    for name, value in (("score", f"{result.score:g}"), ("max_score", f"{result.max_score:g}"),
                        ("outcome", result.outcome), ("sandbox", result.sandbox)):
        ET.SubElement(properties, "property", name=name, value=value)
    if result.late is not None:
        ET.SubElement(properties, "property", name="late", value=_text(result.late.sentence))
    if result.outcome != "graded":
        case = ET.SubElement(suite, "testcase", classname=_text(result.student), name="submission", time="0")
        ET.SubElement(case, "error", type=result.outcome, message=_text(result.reason)).text = _text(result.reason)
        suite.set("tests", "1")
        suite.set("failures", "0")
        suite.set("errors", "1")
        return suite
    for test in result.tests:
        suite.append(_case(result.student, test))
    suite.set("tests", str(len(result.tests)))
    suite.set("failures", str(sum(test.outcome not in EARNING_OUTCOMES for test in result.tests)))
    suite.set("errors", "0")
    return suite


def _case(student: str, test: TestResult) -> ET.Element:
    """One test: passed, or a failure whose message is the sentence and whose text adds points and detail."""
    case = ET.Element("testcase", classname=_text(f"{student}.{test.category}"), name=_text(test.name),
                      time=f"{test.duration:.3f}")
    if test.outcome == "excused":  # it keeps its points: a pass, with the bug it follows from on its output
        ET.SubElement(case, "system-out").text = _text(f"excused, no points lost: {test.sentence}\n{test.follows_from}")
    elif test.outcome != "passed":
        detail = [test.sentence, f"{test.score:g} / {test.max_score:g} points in "
                  f"{CATEGORY_TITLES.get(test.category, test.category)} ({test.id})"]
        if test.difference is not None:
            detail += [f"expected: {test.difference.expected!r}", f"actual:   {test.difference.actual!r}"]
        if test.exception is not None:
            detail.append(test.exception.traceback)
        failure = ET.SubElement(case, "failure", type=test.outcome, message=_text(test.sentence))
        failure.text = _text("\n".join(part for part in detail if part))
    if test.output:
        ET.SubElement(case, "system-out").text = _text(test.output)
    return case


def _text(value: str) -> str:
    """value without the characters XML cannot hold."""
    return _NOT_XML.sub("\ufffd", value)
