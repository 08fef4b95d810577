"""The student view in Markdown, shared by the exports that show a student their grade as text: Gradescope's
results.json outputs and Classroom 50's Feedback comment. One set of builders, so escaping, what a hidden or
invalid test shows and the reveal behave identically in both.

Text from a submission goes into code blocks or is escaped, so it cannot shape the page: in a table's cell a |
is escaped even inside inline code, so no test id adds a cell. Of a Part E suite with an invalid test, only the
first one, its line and its reason are shown (each test's validity would tell the student one bit of the
correct implementations' behaviour per test: docs/part-e.md).
"""

from __future__ import annotations

import re
from typing import Any

from ..part_e.judge import CREDIT_RULE
from ..report.page import OUTPUT_LIMIT, REPRODUCTION_LIMIT, TRACEBACK_LIMIT, clip
from ..results import GradeResult, TestResult

TEXT_LIMIT = (2_000, 20)
"""Characters and lines of one sentence, message or reason shown."""

SPECIAL = re.compile(r"([\\`*_\[\]<>#+!|~])")
"""Characters Markdown could read as markup (emphasis, code, links, HTML, headings, lists, tables)."""


def test_markdown(test: TestResult) -> str:
    """A visible test's Markdown: what its row of the HTML student report shows."""
    parts: list[str] = []
    if test.outcome == "excused":
        parts.append(literal(test.sentence or test.follows_from))
        parts.append("No points lost here: the bug that explains this failure is charged once, where it is named. "
                     "Fix it and this test should pass too.")
    elif test.sentence:
        parts.append(literal(test.sentence))
    if test.rule and test.outcome != "passed":
        parts.append(f"**Rule checked:** {literal(test.rule)}")
    if test.difference:
        difference = test.difference
        lines = [f"expected: {listing(difference.expected)}", f"actual:   {listing(difference.actual)}"]
        where = (f" (they first differ at position {difference.first_difference + 1}, counted from 1)"
                 if difference.first_difference is not None else "")
        parts.append(f"**{literal(difference.label or 'Expected and actual')}**{where}:\n\n{code_block(chr(10).join(lines))}")
    if test.exception:
        raised = f"{test.exception.type}: {test.exception.message}"
        parts.append(f"**Raised:**\n\n{code_block(raised, TEXT_LIMIT)}")
        if test.exception.traceback:
            parts.append(f"**Traceback (your files only):**\n\n{code_block(test.exception.traceback, TRACEBACK_LIMIT)}")
    if test.reproduction:
        parts.append("**Replay it:** paste these lines into Python, in the folder that holds your package:\n\n"
                     + code_block(test.reproduction, REPRODUCTION_LIMIT, "python"))
    if test.output:
        parts.append(f"**What your code printed during this test:**\n\n{code_block(test.output, OUTPUT_LIMIT)}")
    return "\n\n".join(parts)


def scenario_verdicts(result: GradeResult) -> dict[str, list[str]]:
    """Per Part E scenario, a Markdown line for each buggy version: caught (and by which tests) or missed."""
    verdicts: dict[str, list[str]] = {}
    if result.student_tests is None or result.student_tests.invalid:
        return verdicts  # an invalid suite's scenarios say why nothing counts (their sentence), not each chaff
    for chaff in result.student_tests.chaffs:
        if chaff.caught:
            by = ", ".join(f"`{plain(name)}`" for name in chaff.caught_by[:5])
            line = f"- caught: {literal(chaff.misconception)}" + (f" (by {by})" if by else "")
        else:
            line = f"- missed: {literal(chaff.misconception)}"
        verdicts.setdefault(chaff.scenario, []).append(line)
    return verdicts


def summary_markdown(result: GradeResult) -> str:
    """The top-level output: the score or the reason, the categories' points, and each of the student's tests."""
    lines = [literal(result.reason) if result.reason else
             f"**{literal(result.student)}: {result.score:g} / {result.max_score:g}**"]
    if result.late is not None:
        late = result.late
        before = f" ({late.points_before:g} points before the late penalty)" if late.late else ""
        lines.append(f"**{literal(late.sentence[:1].upper() + late.sentence[1:])}**{before}")
    if result.categories:
        rows = [f"| {literal(category.title)} | {category.score:g} / {category.max_score:g} |"
                for category in result.categories]
        lines.append("\n".join(["| Category | Points |", "| --- | --- |", *rows]))
    if result.nondeterministic:
        lines.append(literal(result.nondeterministic))
    return "\n\n".join([*lines, *part_e_markdown(result)])


def part_e_markdown(result: GradeResult) -> list[str]:
    """Part E's paragraphs: its note, the sentence saying why it cannot be trusted or which test is invalid, and
    the table of the student's tests (without each one's validity when one is invalid)."""
    lines: list[str] = []
    part_e = result.student_tests
    if part_e is not None:
        if part_e.note:
            lines.append(f"**Your tests (Part E):** {literal(part_e.note)}")
        for sentence in (part_e.untrusted, part_e.invalid):
            if sentence:
                lines.append(f"**Your tests (Part E):** {literal(sentence)}")
        if part_e.tests and part_e.invalid:  # the first invalid test is named above; never each test's validity
            rows = [f"| `{cell_code(test.id)}` | {test.catches} | {literal(test.own_outcome)} |" for test in part_e.tests]
            lines.append("\n".join(["**Each of your tests**", "", literal(CREDIT_RULE), "",
                                    "| Test | Bugs caught | On your own package |", "| --- | --- | --- |", *rows]))
        elif part_e.tests:
            rows = [f"| `{cell_code(test.id)}` | {'yes' if test.valid else 'no: ' + literal(test.reason)} | "
                    f"{test.catches} | {literal(test.own_outcome)} |" for test in part_e.tests]
            lines.append("\n".join(["**Each of your tests**", "", literal(CREDIT_RULE), "",
                                    "| Test | Counts? | Bugs caught | On your own package |",
                                    "| --- | --- | --- | --- |", *rows]))
    return lines


def listing(values: list[Any]) -> str:
    """A sequence as Python writes its items (expected beside actual)."""
    return "[" + ", ".join(repr(value) for value in values) + "]"


def plain(text: str) -> str:
    """Text for inline code: printable, one line, cut, no backtick (it would end the code span)."""
    return clip(str(text), TEXT_LIMIT).text.replace("\n", " ").replace("`", "'")


def cell_code(text: str) -> str:
    """Text for inline code in a table cell: as plain, and every | escaped, since Markdown's tables split cells at
    a | even inside a code span (and show a \\| there as |). A | counts as escaped after an odd number of
    backslashes, so those the text already has before one are doubled."""
    return re.sub(r"(\\*)\|", lambda found: found.group(1) * 2 + "\\|", plain(text))


def literal(text: str) -> str:
    """Text as Markdown shows it literally: printable, cut, one paragraph, every special character escaped."""
    shown = clip(str(text), TEXT_LIMIT)
    return SPECIAL.sub(r"\\\1", shown.text.replace("\n", " ")) + ("…" if shown.cut else "")


def code_block(text: str, limit: tuple[int, int] = TEXT_LIMIT, language: str = "text") -> str:
    """A fenced code block holding text literally (a fence longer than any run of backticks inside)."""
    shown = clip(text, limit)
    longest = max((len(run) for run in re.findall(r"`+", shown.text)), default=0)
    fence = "`" * max(3, longest + 1)
    cut = f"\n… ({shown.cut} more characters)" if shown.cut else ""
    return f"{fence}{language}\n{shown.text}{cut}\n{fence}"
