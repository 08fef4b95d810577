"""Gradescope's results.json, showing a student what the HTML student report shows, in Markdown.

Gradescope shows a test's `output` and never its `extra_data`, so each visible failure's output holds what its
HTML row holds: the sentence, the rule checked, expected beside actual, what was raised and the lines that
replay it. Hidden tests are shown as the HTML student view shows them: one entry per rule they check (with
its points and outcome), never their names or inputs; their full entries move to the top level's extra_data,
which students never see. Part E's scenarios list each buggy version caught or missed, and the top-level
output the categories' points and each of the student's own tests; of a suite with an invalid test, only the
first one, its line and its reason (each test's validity would tell the student one bit of the correct
implementations' behaviour per test: docs/part-e.md), while extra_data keeps every test's. The Markdown comes
from grader/export/student_markdown.py, which Classroom 50's Feedback comment shares: text from a submission
goes into code blocks or is escaped there, so it cannot shape the page.

With [reveal] set, each hidden test also gets its full entry (what a visible failure shows, replay lines
included) under a visibility Gradescope itself lifts later, since results.json is written once, at submission
time: "after_due_date" for `after = "due"` (Gradescope's due date for the assignment), "after_published" for a
date of its own (Gradescope cannot wait for a date; the instructor publishes grades once it has passed). These
entries carry no score, so the total and the rule entries are unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..results import CATEGORY_TITLES, EARNING_OUTCOMES, GradeResult, TestResult, write_atomically
from .student_markdown import literal, scenario_verdicts, summary_markdown, test_markdown
from ..rubric import PART_E

MARKDOWN = "md"
"""Gradescope's output_format for Markdown."""

REVEALED_VISIBILITY = {"due": "after_due_date"}
"""Gradescope's visibility for a hidden test's revealed entry, by [reveal] after; any date: "after_published"."""


def gradescope_results(result: GradeResult, *, reveal_after: str = "") -> dict[str, Any]:
    """The results.json document for Gradescope: the grader's own, with outputs a student can read; with
    reveal_after ([reveal] after), each hidden test's full entry too, shown by Gradescope only later."""
    data = result.to_json()
    order: list[dict[str, Any] | tuple[str, str]] = []
    hidden: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], list[TestResult]] = {}
    by_scenario = scenario_verdicts(result)
    for test, entry in zip(result.tests, data["tests"]):
        if test.hidden:
            hidden.append(entry)
            if (test.category, test.rule) not in groups:
                order.append((test.category, test.rule))
            groups.setdefault((test.category, test.rule), []).append(test)
            continue
        if test.category == PART_E:
            entry["output"] = _scenario_output(test, by_scenario.get(test.id.removeprefix("part_e::"), []))
        elif test.outcome != "passed" or test.output:
            entry["output"] = test_markdown(test)
        entry["output_format"] = MARKDOWN
        order.append(entry)
    data["tests"] = [_hidden_entry(item[0], item[1], groups[item]) if isinstance(item, tuple) else item
                     for item in order]
    if reveal_after:
        visibility = REVEALED_VISIBILITY.get(reveal_after, "after_published")
        data["tests"] += [_revealed_entry(test, visibility) for test in result.tests if test.hidden]
    data["output"] = summary_markdown(result)
    data["output_format"] = MARKDOWN
    if hidden:
        data["extra_data"]["hidden_tests"] = hidden
    return data


def write_gradescope_results(result: GradeResult, path: Path, *, reveal_after: str = "") -> None:
    """Write the Gradescope document atomically, as results.json."""
    text = json.dumps(gradescope_results(result, reveal_after=reveal_after), indent=2, ensure_ascii=False) + "\n"
    write_atomically(path, text.encode("utf-8", errors="replace"))


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
    lines += [f"Excused: it follows from {literal(because)}, charged once where it is named."
              for because in dict.fromkeys(test.cause for test in tests
                                           if test.outcome == "excused" and test.follows_from)]
    return {"name": name, "score": round(sum(test.score for test in tests), 4),
            "max_score": round(sum(test.max_score for test in tests), 4), "status": "passed" if passed else "failed",
            "output": "\n\n".join(lines), "output_format": MARKDOWN, "tags": [category], "visibility": "visible"}


def _revealed_entry(test: TestResult, visibility: str) -> dict[str, Any]:
    """A hidden test in full, as a visible one is shown, for Gradescope to show after the due date or publication;
    no score (its points are already in its rule's entry)."""
    title = CATEGORY_TITLES.get(test.category, test.category)
    output = test_markdown(test) if test.outcome != "passed" or test.output else ""
    return {"name": f"{title}: {test.name} (hidden test, revealed)",
            "status": "passed" if test.outcome in EARNING_OUTCOMES else "failed",
            "output": output, "output_format": MARKDOWN, "tags": [test.category], "visibility": visibility}


def _scenario_output(test: TestResult, verdicts: list[str]) -> str:
    """A Part E scenario's entry: how many buggy versions of it were caught, then each one, caught or missed."""
    if not verdicts:
        return literal(test.sentence)
    caught = sum(line.startswith("- caught") for line in verdicts)
    head = f"Your valid tests caught {caught} of {len(verdicts)} buggy versions of this scenario:"
    return head + "\n\n" + "\n".join(verdicts)
