"""What one student's report shows, as plain values for the templates: categories, tests, differences, coverage.

Text from a submission is made printable and clipped here; escaping it is the templates' autoescape's job.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..results import CATEGORY_TITLES, EARNING_OUTCOMES, CategoryScore, CoveredFile, Difference, GradeResult, TestResult
from ..rubric import PART_E

OUTPUT_LIMIT = (4_000, 60)
"""Characters and lines of one test's captured output shown."""
WHOLE_OUTPUT_LIMIT = (20_000, 400)
"""Characters and lines of the whole submission's captured output shown (instructor view)."""
TRACEBACK_LIMIT = (8_000, 100)
"""Characters and lines of a traceback shown."""
MESSAGE_LIMIT = (1_000, 10)
"""Characters and lines of an exception's message shown."""
REPRODUCTION_LIMIT = (4_000, 60)
"""Characters and lines of a failure's reproduction shown."""
VALUE_LIMIT = (80, 1)
"""Characters of one value in an expected/actual table."""
DIFFERENCE_ROWS = 40
"""A difference with more positions than this shows only the part around its first difference."""
SOURCE_LINES = 2_000
"""Lines of one source file shown."""


@dataclass(frozen=True)
class Clipped:
    """Text from a submission made safe to show: control characters made visible, and cut to a limit."""

    text: str
    cut: int
    """Characters left out at the end."""


@dataclass(frozen=True)
class DifferenceRow:
    """One position of an expected/actual table, or a gap standing for positions not shown."""

    kind: str
    """"position", "same" (a gap of equal positions) or "more" (positions left out at the end)."""
    index: int
    """The index (shown counting from 1, as the grader's sentences do), or for a gap the first index it stands for."""
    count: int = 1
    """How many positions a gap stands for."""
    expected: str = ""
    actual: str = ""
    differs: bool = False
    first: bool = False
    """Whether this is the first differing position."""
    expected_type: str = ""
    actual_type: str = ""
    """The values' type names, given only where the two differ in type (so 5 and "5" say int and str)."""


@dataclass(frozen=True)
class DifferenceView:
    """A Difference laid out as rows, values shown as Python literals so "5" and 5 look different."""

    label: str
    rows: list[DifferenceRow]
    first: int | None
    expected_length: int
    actual_length: int


@dataclass(frozen=True)
class TestView:
    """A test as the page shows it, or a run of passed cases of one parametrized test shown as one row."""

    test: TestResult
    """The test (for a run of cases, the first)."""
    case: str
    """The parameters from the node id, e.g. "K" for test_x[K], when the test's name is shared; else ""."""
    cases: int
    """How many passed cases this row stands for (1 for a single test)."""
    score: float
    max_score: float
    difference: DifferenceView | None
    exception_message: Clipped | None
    traceback: Clipped | None
    output: Clipped | None
    reproduction: Clipped | None
    """The lines of Python that replay the failure, for a test whose details are shown."""
    name: str = ""
    """The title the row shows: the test's name without its case (shown apart)."""


@dataclass(frozen=True)
class HiddenRule:
    """What the student view says about the hidden tests of one rule: the rule and how they went, never their inputs."""

    rule: str
    outcome: str
    """"failed" if any of them failed (error, timeout, crash and missing included), else "excused" if any was
    excused, else "passed"."""
    tests: int
    """How many hidden tests check this rule."""
    follows_from: tuple[str, ...]
    """For excused tests: the rules already charged that explain them."""


@dataclass(frozen=True)
class CategoryView:
    """A category's score bar and the tests shown under it."""

    id: str
    title: str
    score: float
    max_score: float
    percent: float
    tests: list[TestView]
    """The tests this view shows (hidden ones only for the instructor)."""
    hidden_count: int
    """Hidden tests summarised instead of shown (student view)."""
    hidden_score: float
    hidden_max: float
    hidden_rules: list[HiddenRule]
    """The rules the hidden tests check, in suite order (hidden tests without a rule are only counted)."""
    diagnosis: str = ""
    """The rule the student's code plays where the handout says another (one sentence), or empty."""


@dataclass(frozen=True)
class SourceLine:
    """One line of a student's file and whether the hidden suites ran it."""

    number: int
    text: str
    state: str
    """"run", "missed" or "plain" (not executable)."""


@dataclass(frozen=True)
class FileView:
    """One covered file."""

    path: str
    percent: float
    executed: int
    missing: int
    lines: list[SourceLine]
    cut_lines: int
    """Lines left out at the end."""


@dataclass(frozen=True)
class Loss:
    """One rule that cost points: where the report's summary at the top says the points went."""

    category: str
    title: str
    rule: str
    points: float
    tests: int
    diagnosis: str
    anchor: str
    """The id of the element to link to: the rule's first failing test, or its category when that is hidden."""


def losses(result: GradeResult, *, instructor: bool) -> list[Loss]:
    """The rules that lost points, by category and then most points first, each with its category's diagnosis
    (the page shows it once, above the category's first rule); then Part E's chaffs not caught, and last the late
    penalty, so the list adds up to the maximum less the total."""
    diagnoses = {category.id: category.diagnosis for category in result.categories}
    found: dict[tuple[str, str], Loss] = {}
    for test in result.tests:
        if test.category == PART_E or test.score >= test.max_score:
            continue
        key = (test.category, test.rule or base_name(test))
        lost = test.max_score - test.score
        if key in found:
            found[key] = dataclasses.replace(found[key], points=found[key].points + lost, tests=found[key].tests + 1)
            continue
        shown = instructor or not test.hidden
        found[key] = Loss(test.category, CATEGORY_TITLES.get(test.category, test.category), key[1], lost, 1,
                          diagnoses.get(test.category, ""),
                          f"test-{test.id}" if shown else f"category-{test.category}")
    part_e = next((category for category in result.categories if category.id == PART_E), None)
    if part_e is not None and part_e.score < part_e.max_score:
        found[(PART_E, "")] = Loss(part_e.id, part_e.title, "the buggy versions your tests did not catch",
                                            part_e.max_score - part_e.score, 0, "", f"category-{part_e.id}")
    order = list(CATEGORY_TITLES)
    ordered = sorted(found.values(), key=lambda loss: (order.index(loss.category) if loss.category in order
                                                       else len(order), -loss.points))
    late = result.late
    if late is not None and late.points_after < late.points_before:
        ordered.append(Loss("late", "Late policy", late.sentence, late.points_before - late.points_after, 0, "",
                            "late"))
    return ordered


def category_views(result: GradeResult, *, instructor: bool) -> list[CategoryView]:
    """Categories in CATEGORY_TITLES order (any unknown ones after), each with its tests."""
    order = list(CATEGORY_TITLES)
    scores = {category.id: category for category in result.categories}
    keys = list(scores) + [test.category for test in result.tests if test.category not in scores]
    keys = sorted(dict.fromkeys(keys), key=lambda key: order.index(key) if key in order else len(order))
    views = []
    for key in keys:
        tests = [test for test in result.tests if test.category == key]
        category = scores.get(key) or CategoryScore(
            id=key,
            title=CATEGORY_TITLES.get(key, key),
            score=sum(test.score for test in tests),
            max_score=sum(test.max_score for test in tests),
        )
        shown = [test for test in tests if instructor or not test.hidden]
        hidden = [test for test in tests if test.hidden and not instructor]
        views.append(
            CategoryView(
                id=key,
                title=CATEGORY_TITLES.get(key, category.title),
                score=category.score,
                max_score=category.max_score,
                percent=percent(category.score, category.max_score),
                tests=_test_views(shown),
                hidden_count=len(hidden),
                hidden_score=sum(test.score for test in hidden),
                hidden_max=sum(test.max_score for test in hidden),
                hidden_rules=_hidden_rules(hidden),
                diagnosis=category.diagnosis,
            )
        )
    return views


def _hidden_rules(tests: list[TestResult]) -> list[HiddenRule]:
    """The hidden tests grouped by the rule they check: only the rule, an outcome and a count reach the page."""
    grouped: dict[str, list[TestResult]] = {}
    for test in tests:
        if test.rule:
            grouped.setdefault(test.rule, []).append(test)
    rules = []
    for rule, group in grouped.items():
        outcomes = {test.outcome for test in group}
        if not outcomes <= set(EARNING_OUTCOMES):
            outcome = "failed"
        elif "excused" in outcomes:
            outcome = "excused"
        else:
            outcome = "passed"
        because = [test.cause for test in group if test.outcome == "excused" and test.follows_from]
        because = list(dict.fromkeys(because))
        rules.append(HiddenRule(rule=rule, outcome=outcome, tests=len(group), follows_from=tuple(because)))
    return rules


def _test_views(tests: list[TestResult]) -> list[TestView]:
    """Tests as rows; consecutive passed cases of one parametrized test (same name, nothing printed) share a row."""
    shared = Counter(base_name(test) for test in tests)
    views: list[TestView] = []
    for test in tests:
        last = views[-1] if views else None
        if last and _quiet_pass(test) and _quiet_pass(last.test) and base_name(last.test) == base_name(test):
            views[-1] = dataclasses.replace(
                last,
                case="",
                cases=last.cases + 1,
                score=last.score + test.score,
                max_score=last.max_score + test.max_score,
            )
        else:
            views.append(_test_view(test, case=_case(test.id) if shared[base_name(test)] > 1 else ""))
    return views


def base_name(test: TestResult) -> str:
    """A test's title without the " [case]" results.json adds to a parametrized case's name."""
    suffix = f" [{_case(test.id)}]"
    return test.name[: -len(suffix)] if _case(test.id) and test.name.endswith(suffix) else test.name


def _quiet_pass(test: TestResult) -> bool:
    """Whether a test passed without printing anything, so that nothing is lost by folding it into a row."""
    return test.outcome == "passed" and not test.output


def _case(node: str) -> str:
    """The parameters of a parametrized node id ("K" for test_x.py::test_y[K]), or ""."""
    match = re.search(r"\[(.*)\]$", node)
    return match.group(1) if match else ""


def _test_view(test: TestResult, *, case: str) -> TestView:
    """A test with its detail clipped for showing."""
    exception = test.exception
    return TestView(
        name=base_name(test),
        test=test,
        case=case,
        cases=1,
        score=test.score,
        max_score=test.max_score,
        difference=_difference_view(test.difference) if test.difference else None,
        exception_message=clip(exception.message, MESSAGE_LIMIT) if exception else None,
        traceback=clip(exception.traceback, TRACEBACK_LIMIT) if exception and exception.traceback else None,
        output=clip(test.output, OUTPUT_LIMIT) if test.output else None,
        reproduction=clip(test.reproduction, REPRODUCTION_LIMIT) if test.reproduction else None,
    )


def _difference_view(difference: Difference) -> DifferenceView:
    """Expected beside actual, position by position; a long pair shows the stretch around the first difference."""
    expected, actual = difference.expected, difference.actual
    length = max(len(expected), len(actual))
    first = difference.first_difference
    if first is None or not 0 <= first <= length:
        first = next((index for index in range(length) if _differs(expected, actual, index)), None)
    start, stop = 0, length
    if length > DIFFERENCE_ROWS:
        start = max(0, (first or 0) - 5)
        stop = min(length, start + DIFFERENCE_ROWS - 5)
    rows = [DifferenceRow(kind="same", index=0, count=start)] if start else []
    for index in range(start, stop):
        types = _types(expected, actual, index)
        rows.append(
            DifferenceRow(
                kind="position",
                index=index,
                expected=_value(expected, index),
                actual=_value(actual, index),
                differs=_differs(expected, actual, index),
                first=index == first,
                expected_type=types[0],
                actual_type=types[1],
            )
        )
    if stop < length:
        rows.append(DifferenceRow(kind="more", index=stop, count=length - stop))
    return DifferenceView(
        label=difference.label, rows=rows, first=first, expected_length=len(expected), actual_length=len(actual)
    )


def _differs(expected: list[Any], actual: list[Any], index: int) -> bool:
    """Whether the two sequences differ at a position (one of them ending before it counts)."""
    if index >= len(expected) or index >= len(actual):
        return True
    return type(expected[index]) is not type(actual[index]) or expected[index] != actual[index]


def _types(expected: list[Any], actual: list[Any], index: int) -> tuple[str, str]:
    """Both values' type names where both exist and their types differ, else ("", "")."""
    if index >= len(expected) or index >= len(actual) or type(expected[index]) is type(actual[index]):
        return "", ""
    return type(expected[index]).__name__, type(actual[index]).__name__


def _value(values: list[Any], index: int) -> str:
    """The value at a position as a Python literal, clipped; "" past the end."""
    if index >= len(values):
        return ""
    clipped = clip(repr(values[index]), VALUE_LIMIT)
    return clipped.text + ("…" if clipped.cut else "")


def file_view(file: CoveredFile) -> FileView:
    """A covered file's lines, each marked run, missed or plain."""
    executed, missing = set(file.executed), set(file.missing)
    lines = _printable(file.source).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    shown = [
        SourceLine(number, text, "run" if number in executed else "missed" if number in missing else "plain")
        for number, text in enumerate(lines[:SOURCE_LINES], start=1)
    ]
    return FileView(
        path=file.path,
        percent=file.percent,
        executed=len(executed),
        missing=len(missing),
        lines=shown,
        cut_lines=max(0, len(lines) - SOURCE_LINES),
    )


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def _printable(text: str) -> str:
    """Text with colour codes dropped, line ends made \\n and other control characters shown as \\xNN."""
    text = _ANSI.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)


def clip(text: str, limit: tuple[int, int]) -> Clipped:
    """Printable text cut to at most `limit` (characters, lines)."""
    text = _printable(text)
    characters, lines = limit
    shown = "\n".join(text[:characters].split("\n")[:lines])
    return Clipped(shown, len(text) - len(shown))


def percent(score: float, max_score: float) -> float:
    """score as a percentage of max_score, within 0..100; 0 when there is nothing to earn."""
    return max(0.0, min(100.0, 100 * score / max_score)) if max_score > 0 else 0.0
