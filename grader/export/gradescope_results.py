"""Gradescope's results.json, showing a student what the HTML student report shows, in Markdown.

Gradescope shows a test's `output` and never its `extra_data`, so each visible failure's output holds what its
HTML row holds: the sentence, the rule checked, expected beside actual, what was raised and the lines that
replay it. Hidden tests are shown as the HTML student view shows them: one entry per rule they check (with
its points and outcome), never their names or inputs; their full entries move to the top level's extra_data,
which students never see. Part E's scenarios list each buggy version caught or missed, and the top-level
output the categories' points and each of the student's own tests; of a suite with an invalid test, only the
first one, its line and its reason (each test's validity would tell the student one bit of the correct
implementations' behaviour per test: docs/part-e.md), while extra_data keeps every test's. Text from a submission goes into code blocks or is escaped, so it cannot shape the page: in a table's
cell a | is escaped even inside inline code, so no test id adds a cell.

With [reveal] set, each hidden test also gets its full entry (what a visible failure shows, replay lines
included) under a visibility Gradescope itself lifts later, since results.json is written once, at submission
time: "after_due_date" for `after = "due"` (Gradescope's due date for the assignment), "after_published" for a
date of its own (Gradescope cannot wait for a date; the instructor publishes grades once it has passed). These
entries carry no score, so the total and the rule entries are unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..part_e.judge import CREDIT_RULE
from ..report.page import OUTPUT_LIMIT, REPRODUCTION_LIMIT, TRACEBACK_LIMIT, clip
from ..results import CATEGORY_TITLES, EARNING_OUTCOMES, GradeResult, TestResult, write_atomically

MARKDOWN = "md"
"""Gradescope's output_format for Markdown."""

TEXT_LIMIT = (2_000, 20)
"""Characters and lines of one sentence, message or reason shown."""

_SPECIAL = re.compile(r"([\\`*_\[\]<>#+!|~])")
"""Characters Markdown could read as markup (emphasis, code, links, HTML, headings, lists, tables)."""


REVEALED_VISIBILITY = {"due": "after_due_date"}
"""Gradescope's visibility for a hidden test's revealed entry, by [reveal] after; any date: "after_published"."""


def gradescope_results(result: GradeResult, *, reveal_after: str = "") -> dict[str, Any]:
    """The results.json document for Gradescope: the grader's own, with outputs a student can read; with
    reveal_after ([reveal] after), each hidden test's full entry too, shown by Gradescope only later."""
    data = result.to_json()
    order: list[dict[str, Any] | tuple[str, str]] = []
    hidden: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], list[TestResult]] = {}
    by_scenario = _scenario_verdicts(result)
    for test, entry in zip(result.tests, data["tests"]):
        if test.hidden:
            hidden.append(entry)
            if (test.category, test.rule) not in groups:
                order.append((test.category, test.rule))
            groups.setdefault((test.category, test.rule), []).append(test)
            continue
        if test.category == "student_tests":
            entry["output"] = _scenario_output(test, by_scenario.get(test.id.removeprefix("part_e::"), []))
        elif test.outcome != "passed" or test.output:
            entry["output"] = _test_output(test)
        entry["output_format"] = MARKDOWN
        order.append(entry)
    data["tests"] = [_hidden_entry(item[0], item[1], groups[item]) if isinstance(item, tuple) else item
                     for item in order]
    if reveal_after:
        visibility = REVEALED_VISIBILITY.get(reveal_after, "after_published")
        data["tests"] += [_revealed_entry(test, visibility) for test in result.tests if test.hidden]
    data["output"] = _summary(result)
    data["output_format"] = MARKDOWN
    if hidden:
        data["extra_data"]["hidden_tests"] = hidden
    return data


def write_gradescope_results(result: GradeResult, path: Path, *, reveal_after: str = "") -> None:
    """Write the Gradescope document atomically, as results.json."""
    text = json.dumps(gradescope_results(result, reveal_after=reveal_after), indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8", errors="replace"))


def _test_output(test: TestResult) -> str:
    """A visible test's Markdown: what its row of the HTML student report shows."""
    parts: list[str] = []
    if test.outcome == "excused":
        parts.append(_text(test.sentence or test.follows_from))
        parts.append("No points lost here: the bug that explains this failure is charged once, where it is named. "
                     "Fix it and this test should pass too.")
    elif test.sentence:
        parts.append(_text(test.sentence))
    if test.rule and test.outcome != "passed":
        parts.append(f"**Rule checked:** {_text(test.rule)}")
    if test.difference:
        difference = test.difference
        lines = [f"expected: {_listing(difference.expected)}", f"actual:   {_listing(difference.actual)}"]
        where = (f" (they first differ at position {difference.first_difference + 1}, counted from 1)"
                 if difference.first_difference is not None else "")
        parts.append(f"**{_text(difference.label or 'Expected and actual')}**{where}:\n\n{_code(chr(10).join(lines))}")
    if test.exception:
        raised = f"{test.exception.type}: {test.exception.message}"
        parts.append(f"**Raised:**\n\n{_code(raised, TEXT_LIMIT)}")
        if test.exception.traceback:
            parts.append(f"**Traceback (your files only):**\n\n{_code(test.exception.traceback, TRACEBACK_LIMIT)}")
    if test.reproduction:
        parts.append("**Replay it:** paste these lines into Python, in the folder that holds your package:\n\n"
                     + _code(test.reproduction, REPRODUCTION_LIMIT, "python"))
    if test.output:
        parts.append(f"**What your code printed during this test:**\n\n{_code(test.output, OUTPUT_LIMIT)}")
    return "\n\n".join(parts)


def _hidden_entry(category: str, rule: str, tests: list[TestResult]) -> dict[str, Any]:
    """The hidden tests of one category that check one rule: the rule, the outcome and the points, no inputs."""
    title = CATEGORY_TITLES.get(category, category)
    passed = all(test.outcome in EARNING_OUTCOMES for test in tests)
    count = f" ({len(tests)} tests)" if len(tests) > 1 else ""
    if rule:
        name = f"{title}: hidden test{count}: {rule}"
        lines = ["A hidden test: only the rule it checks is shown, never its inputs."]
    else:
        name = f"{title}: {len(tests)} hidden test{'s' if len(tests) > 1 else ''}"
        lines = ["Hidden tests: their names and inputs are not shown."]
    lines += [f"Excused: it follows from {_text(because)}, charged once where it is named."
              for because in dict.fromkeys(test.cause for test in tests
                                           if test.outcome == "excused" and test.follows_from)]
    return {"name": name, "score": round(sum(test.score for test in tests), 4),
            "max_score": round(sum(test.max_score for test in tests), 4), "status": "passed" if passed else "failed",
            "output": "\n\n".join(lines), "output_format": MARKDOWN, "tags": [category], "visibility": "visible"}


def _revealed_entry(test: TestResult, visibility: str) -> dict[str, Any]:
    """A hidden test in full, as a visible one is shown, for Gradescope to show after the due date or publication;
    no score (its points are already in its rule's entry)."""
    title = CATEGORY_TITLES.get(test.category, test.category)
    output = _test_output(test) if test.outcome != "passed" or test.output else ""
    return {"name": f"{title}: {test.name} (hidden test, revealed)",
            "status": "passed" if test.outcome in EARNING_OUTCOMES else "failed",
            "output": output, "output_format": MARKDOWN, "tags": [test.category], "visibility": visibility}


def _scenario_verdicts(result: GradeResult) -> dict[str, list[str]]:
    """Per Part E scenario, a Markdown line for each buggy version: caught (and by which tests) or missed."""
    verdicts: dict[str, list[str]] = {}
    if result.student_tests is None or result.student_tests.invalid:
        return verdicts  # an invalid suite's scenarios say why nothing counts (their sentence), not each chaff
    for chaff in result.student_tests.chaffs:
        if chaff.caught:
            by = ", ".join(f"`{_plain(name)}`" for name in chaff.caught_by[:5])
            line = f"- caught: {_text(chaff.misconception)}" + (f" (by {by})" if by else "")
        else:
            line = f"- missed: {_text(chaff.misconception)}"
        verdicts.setdefault(chaff.scenario, []).append(line)
    return verdicts


def _scenario_output(test: TestResult, verdicts: list[str]) -> str:
    """A Part E scenario's entry: how many buggy versions of it were caught, then each one, caught or missed."""
    if not verdicts:
        return _text(test.sentence)
    caught = sum(line.startswith("- caught") for line in verdicts)
    head = f"Your valid tests caught {caught} of {len(verdicts)} buggy versions of this scenario:"
    return head + "\n\n" + "\n".join(verdicts)


def _summary(result: GradeResult) -> str:
    """The top-level output: the score or the reason, the categories' points, and each of the student's tests."""
    lines = [_text(result.reason) if result.reason else
             f"**{_text(result.student)}: {result.score:g} / {result.max_score:g}**"]
    if result.late is not None:
        late = result.late
        before = f" ({late.points_before:g} points before the late penalty)" if late.late else ""
        lines.append(f"**{_text(late.sentence[:1].upper() + late.sentence[1:])}**{before}")
    if result.categories:
        rows = [f"| {_text(category.title)} | {category.score:g} / {category.max_score:g} |"
                for category in result.categories]
        lines.append("\n".join(["| Category | Points |", "| --- | --- |", *rows]))
    if result.nondeterministic:
        lines.append(_text(result.nondeterministic))
    part_e = result.student_tests
    if part_e is not None:
        if part_e.note:
            lines.append(f"**Your tests (Part E):** {_text(part_e.note)}")
        for sentence in (part_e.untrusted, part_e.invalid):
            if sentence:
                lines.append(f"**Your tests (Part E):** {_text(sentence)}")
        if part_e.tests and part_e.invalid:  # the first invalid test is named above; never each test's validity
            rows = [f"| `{_cell_code(test.id)}` | {test.catches} | {_text(test.own_outcome)} |" for test in part_e.tests]
            lines.append("\n".join(["**Each of your tests**", "", _text(CREDIT_RULE), "",
                                    "| Test | Bugs caught | On your own package |", "| --- | --- | --- |", *rows]))
        elif part_e.tests:
            rows = [f"| `{_cell_code(test.id)}` | {'yes' if test.valid else 'no: ' + _text(test.reason)} | "
                    f"{test.catches} | {_text(test.own_outcome)} |" for test in part_e.tests]
            lines.append("\n".join(["**Each of your tests**", "", _text(CREDIT_RULE), "",
                                    "| Test | Counts? | Bugs caught | On your own package |",
                                    "| --- | --- | --- | --- |", *rows]))
    return "\n\n".join(lines)


def _listing(values: list[Any]) -> str:
    return "[" + ", ".join(repr(value) for value in values) + "]"


def _plain(text: str) -> str:
    """Text for inline code: printable, one line, cut, no backtick (it would end the code span)."""
    return clip(str(text), TEXT_LIMIT).text.replace("\n", " ").replace("`", "'")


def _cell_code(text: str) -> str:
    """Text for inline code in a table cell: as _plain, and every | escaped, since Markdown's tables split cells at
    a | even inside a code span (and show a \\| there as |). A | counts as escaped after an odd number of
    backslashes, so those the text already has before one are doubled."""
    return re.sub(r"(\\*)\|", lambda found: found.group(1) * 2 + "\\|", _plain(text))


def _text(text: str) -> str:
    """Text as Markdown shows it literally: printable, cut, one paragraph, every special character escaped."""
    shown = clip(str(text), TEXT_LIMIT)
    return _SPECIAL.sub(r"\\\1", shown.text.replace("\n", " ")) + ("…" if shown.cut else "")


def _code(text: str, limit: tuple[int, int] = TEXT_LIMIT, language: str = "text") -> str:
    """A fenced code block holding text literally (a fence longer than any run of backticks inside)."""
    shown = clip(text, limit)
    longest = max((len(run) for run in re.findall(r"`+", shown.text)), default=0)
    fence = "`" * max(3, longest + 1)
    cut = f"\n… ({shown.cut} more characters)" if shown.cut else ""
    return f"{fence}{language}\n{shown.text}{cut}\n{fence}"
