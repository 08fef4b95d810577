"""The HTML reports: what a student's page and the class overview show, read back by parsing the pages."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from grader import results
from grader.report import html as report
from grader.report import page as report_page
from grader.report.html import (
    ReportError,
    UnreadableResults,
    render_class_overview,
    render_reports,
    render_student_report,
)
from grader.results import GradeResult, read_results, write_results
from part_e_suites import judged_suite

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "data" / "results"
_spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES_DIR / "make_examples.py")
assert _spec and _spec.loader
make_examples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_examples)
EXAMPLES: dict[str, GradeResult] = make_examples.examples()
INJECTION: str = make_examples.INJECTION


# ------------------------------------------------------------------------------- a small DOM to query

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    """One parsed element, its attributes and its children (elements and text)."""

    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    def iter(self) -> Iterator[Element]:
        """This element and every element inside it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Element]:
        """Elements inside (or this one) with this tag, class and attribute values."""
        return [
            element
            for element in self.iter()
            if (tag is None or element.tag == tag)
            and (cls is None or cls in element.attrs.get("class", "").split())
            and all(element.attrs.get(name.replace("_", "-")) == value for name, value in attrs.items())
        ]

    def one(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> Element:
        """The single element matching; fails the test if there are none or several."""
        found = self.find_all(tag, cls, **attrs)
        assert len(found) == 1, f"expected one <{tag or '*'} class={cls} {attrs}>, found {len(found)}"
        return found[0]

    def text(self) -> str:
        """All the text inside, as the reader sees it (entities decoded)."""
        return "".join(child if isinstance(child, str) else child.text() for child in self.children)

    def fraction(self) -> tuple[float, float]:
        """The earned / max numbers of a fraction element."""
        return float(self.one(cls="earned").text()), float(self.one(cls="max").text())


class _PageParser(HTMLParser):
    """Builds an Element tree and keeps the raw source of every top-level <svg>."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", source)]
        self.root = Element("#document", {})
        self.stack = [self.root]
        self.svgs: list[str] = []
        self.svg_start: int | None = None

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag == "svg" and self.svg_start is None:
            self.svg_start = self._offset()
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                break
        if tag == "svg" and self.svg_start is not None and not any(e.tag == "svg" for e in self.stack):
            end = self._offset() + len("</svg>")
            self.svgs.append(self.source[self.svg_start : end])
            self.svg_start = None

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


@dataclass
class Page:
    """A parsed page: its element tree and the raw text of its SVGs."""

    root: Element
    svgs: list[str]


def parse(html: str) -> Page:
    """Parse a rendered page with the standard library's HTML parser."""
    parser = _PageParser(html)
    parser.feed(html)
    parser.close()
    return Page(parser.root, parser.svgs)


def svgs_of_class(page: Page, cls: str) -> list[ET.Element]:
    """The page's SVGs, parsed as XML, whose class list holds cls."""
    parsed = [ET.fromstring(svg) for svg in page.svgs]
    return [svg for svg in parsed if cls in svg.get("class", "").split()]


def everything_said(page: Page) -> str:
    """Every text node and attribute value of a page, for checking that something is not there at all."""
    parts = [page.root.text()]
    parts += [value for element in page.root.iter() for value in element.attrs.values()]
    return "\n".join(parts)


# ------------------------------------------------------------------------------------------- fixtures


def _copy_examples(destination: Path) -> Path:
    """The example results folders copied into a fresh OUT folder."""
    for folder in EXAMPLES:
        shutil.copytree(EXAMPLES_DIR / folder, destination / folder)
    return destination


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The examples rendered once in each view: {"student": OUT, "instructor": OUT}."""
    outs = {}
    for view in ("student", "instructor"):
        out = _copy_examples(tmp_path_factory.mktemp(view))
        render_reports(out, view=view)
        outs[view] = out
    return outs


def page_of(out: Path, folder: str) -> Page:
    """A student's parsed report.html in an OUT folder."""
    return parse((out / folder / "report.html").read_text(encoding="utf-8"))


def index_of(out: Path) -> Page:
    """The parsed OUT/index.html."""
    return parse((out / "index.html").read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------------ tests


def test_the_committed_examples_are_what_make_examples_writes():
    """Each tests/data/results/<student>/results.json is exactly what make_examples.py builds from the dataclasses."""
    for folder, result in EXAMPLES.items():
        path = EXAMPLES_DIR / folder / "results.json"
        assert json.loads(path.read_text(encoding="utf-8")) == result.to_json(), f"rerun make_examples.py ({folder})"
        assert read_results(path).to_json() == result.to_json()


@pytest.mark.parametrize("view", ["student", "instructor"])
def test_the_total_and_every_category_shown_equal_the_results(rendered, view):
    """The total and each category's points on a report are the numbers in results.json."""
    for folder, result in EXAMPLES.items():
        page = page_of(rendered[view], folder)
        assert page.root.one(cls="total-score").fraction() == (result.score, result.max_score)
        for category in result.categories:
            shown = page.root.one(data_category=category.id)
            assert (shown.find_all("h3") or shown.find_all("th"))[0].text() == category.title
            assert shown.one(cls="category-points").fraction() == (category.score, category.max_score)


def test_the_student_view_leaves_out_hidden_tests_and_sums_them_per_category(rendered):
    """In the student view no hidden test's name or id appears, and each category says how many and their points."""
    result = EXAMPLES["collects_opponent_first"]
    page = page_of(rendered["student"], "collects_opponent_first")
    said = everything_said(page)
    for test in result.tests:
        if test.hidden:
            assert test.name not in said and test.id not in said
        else:
            assert page.root.one("li", data_test_id=test.id).one(cls="test-name").text() == test.name
    for category in result.categories:
        hidden = [test for test in result.tests if test.hidden and test.category == category.id]
        section = page.root.one("section", data_category=category.id)
        summaries = section.find_all(cls="hidden-summary")
        if not hidden:
            assert summaries == []
            continue
        (summary,) = summaries
        assert summary.attrs["data-hidden-count"] == str(len(hidden))
        assert f"{len(hidden)} hidden test" in summary.text()
        assert summary.one(cls="fraction").fraction() == (
            sum(test.score for test in hidden),
            sum(test.max_score for test in hidden),
        )


def test_the_instructor_view_shows_every_test_marked_hidden_where_it_is(rendered):
    """The instructor view lists every test, hidden ones included and badged, with its node id."""
    result = EXAMPLES["collects_opponent_first"]
    page = page_of(rendered["instructor"], "collects_opponent_first")
    for test in result.tests:
        item = page.root.one("li", data_test_id=test.id)
        assert test.name in item.one(cls="test-name").text()
        assert bool(item.find_all(cls="badge")) == test.hidden
        assert item.one(cls="test-id").one("code").text() == test.id
    assert page.root.find_all(cls="hidden-summary") == []


def test_a_failure_shows_its_sentence_then_expected_beside_actual_with_the_first_difference_marked(rendered):
    """A wrong sequence shows the sentence first, then a position/expected/actual table marking the first difference."""
    test = next(t for t in EXAMPLES["collects_opponent_first"].tests if t.id.endswith("own_pile_first"))
    assert test.difference is not None
    item = page_of(rendered["student"], "collects_opponent_first").root.one("li", data_test_id=test.id)
    detail = item.one(cls="test-detail")
    first_child = next(child for child in detail.children if isinstance(child, Element))
    assert "sentence" in first_child.attrs["class"] and first_child.text() == test.sentence
    rows = detail.one("table", cls="diff").one("tbody").find_all("tr")
    assert len(rows) == max(len(test.difference.expected), len(test.difference.actual))
    for index, row in enumerate(rows):
        cells = [cell.text() for cell in row.find_all("td")]
        assert cells == [repr(test.difference.expected[index]), repr(test.difference.actual[index])]
    (first,) = [row for row in rows if "first" in row.attrs["class"].split()]
    assert first.one("th").text().startswith(f"{test.difference.first_difference + 1} ")  # counted from 1
    assert rows.index(first) == test.difference.first_difference


def test_an_exception_shows_its_type_message_traceback_and_the_output(rendered):
    """An error in student code shows the exception's type and message, its traceback, and what the test printed."""
    test = next(t for t in EXAMPLES["collects_opponent_first"].tests if t.outcome == "error")
    assert test.exception is not None
    item = page_of(rendered["student"], "collects_opponent_first").root.one("li", data_test_id=test.id)
    assert item.one(cls="exception-type").text() == test.exception.type
    assert item.one(cls="exception-message").text() == test.exception.message
    assert item.one("pre", cls="traceback").text() == test.exception.traceback
    assert item.one("pre", cls="output").text() == test.output


def test_a_long_difference_shows_the_stretch_around_its_first_difference():
    """A difference longer than the table's limit skips equal positions before the first difference and says so."""
    expected = [str(n) for n in range(100)]
    actual = [*expected[:30], "X", *expected[31:]]
    test = results.TestResult(
        id="test_x.py::test_long",
        name="A long queue",
        category="full_game",
        score=0,
        max_score=1,
        outcome="failed",
        hidden=False,
        sentence="Position 31 differs.",
        difference=results.Difference("P1's queue", expected, actual, 30),
    )
    page = parse(render_student_report(dataclasses.replace(EXAMPLES["perfect_score"], tests=[test])))
    rows = page.root.one("table", cls="diff").one("tbody").find_all("tr")
    assert len(rows) <= report_page.DIFFERENCE_ROWS
    gaps = [row for row in rows if row.attrs["class"] == "gap"]
    assert len(gaps) == 2 and "positions 1 to 25 are the same" in gaps[0].text()
    assert "more positions not shown" in gaps[1].text()
    (first,) = [row for row in rows if "first" in row.attrs["class"].split()]
    assert first.one("th").text().startswith("31 ")
    assert [cell.text() for cell in first.find_all("td")] == ["'30'", "'X'"]


def test_timeouts_crashes_and_missing_results_show_their_sentence(rendered):
    """A timeout, a crash and a missing result each show their sentence and a status saying which it was."""
    page = page_of(rendered["instructor"], "collects_opponent_first")
    statuses = {"timeout": "Timed out", "crash": "Crashed", "missing": "No result"}
    for test in EXAMPLES["collects_opponent_first"].tests:
        if test.outcome in statuses:
            item = page.root.one("li", data_test_id=test.id)
            assert item.one(cls="status").text().strip().endswith(statuses[test.outcome])
            assert item.one(cls="sentence").text() == test.sentence


def test_passed_cases_of_one_parametrized_test_share_a_row_and_a_failed_case_names_its_parameters():
    """Passed cases of one parametrized test share a row with their summed points; a failed case shows its [case]."""
    base = EXAMPLES["perfect_score"]
    cases = [
        results.TestResult(
            id=f"test_joker.py::test_joker_beats[{rank}]",
            name="Joker beats every rank",
            category="joker_dominance",
            score=0.5 if rank != "K" else 0,
            max_score=0.5,
            outcome="passed" if rank != "K" else "failed",
            hidden=False,
            sentence="" if rank != "K" else "K beat the Joker.",
        )
        for rank in ("1", "2", "3", "K")
    ]
    page = parse(render_student_report(dataclasses.replace(base, tests=cases)))
    folded = page.root.one("li", data_test_id="test_joker.py::test_joker_beats[1]")
    assert folded.attrs["data-cases"] == "3"
    assert folded.one(cls="fraction").fraction() == (1.5, 1.5)
    assert folded.find_all(cls="case") == []
    failed = page.root.one("li", data_test_id="test_joker.py::test_joker_beats[K]")
    assert failed.one(cls="case").text() == "[K]"
    assert failed.one(cls="sentence").text() == "K beat the Joker."


def test_long_output_is_cut_with_a_note_saying_how_much(rendered):
    """A test's captured output beyond the character or line limit is cut, and the page says how much was left out."""
    test = next(t for t in EXAMPLES["collects_opponent_first"].tests if t.outcome == "crash")
    characters, lines = report_page.OUTPUT_LIMIT
    assert len(test.output) > characters
    item = page_of(rendered["student"], "collects_opponent_first").root.one("li", data_test_id=test.id)
    shown = item.one("pre", cls="output").text()
    assert test.output.startswith(shown) and len(shown) <= characters and shown.count("\n") < lines
    assert f"{len(test.output) - len(shown):,} more characters" in item.one(cls="cut-note").text()


@pytest.mark.parametrize("view", ["student", "instructor"])
def test_markup_from_a_submission_stays_text(rendered, view):
    """A name, output, exception, value and source holding <script> and an onerror <img> stay text, never markup."""
    page = page_of(rendered[view], "markup_everywhere")
    elements = list(page.root.iter())
    assert not [e.tag for e in elements if e.tag in ("script", "img", "iframe", "object", "embed", "link", "base")]
    assert not [name for e in elements for name in e.attrs if name.startswith("on")]
    assert page.root.one("h1").text() == INJECTION
    assert page.root.one("head").one("title").text().startswith(INJECTION)
    test = next(t for t in EXAMPLES["markup_everywhere"].tests if t.exception)
    item = page.root.one("li", data_test_id=test.id)
    assert item.one(cls="sentence").text() == test.sentence
    assert item.one(cls="exception-message").text() == INJECTION
    assert INJECTION in item.one("pre", cls="traceback").text()
    assert item.one("pre", cls="output").text().startswith(INJECTION)
    assert repr(INJECTION) in [cell.text() for cell in item.one("table").find_all("td")]
    assert INJECTION in page.root.one("table", cls="source").text()
    assert INJECTION in page.root.one(cls="sandbox-warning").text()


def test_control_characters_in_output_are_made_visible(rendered):
    """Colour codes are dropped and other control characters are shown as \\xNN instead of reaching the page."""
    item = page_of(rendered["student"], "markup_everywhere").root.one(
        "li", data_test_id="test_rounds.py::test_tie_returns_war_tuple"
    )
    output = item.one("pre", cls="output").text()
    assert "\x1b" not in output and "\x07" not in output
    assert "red and a bell \\x07" in output


def test_no_page_refers_to_another_host(rendered):
    """No attribute or stylesheet on any page names another host: no http(s) or protocol-relative address at all."""
    for out in rendered.values():
        for path in sorted(out.rglob("*.html")):
            page = parse(path.read_text(encoding="utf-8"))
            for element in page.root.iter():
                for name, value in element.attrs.items():
                    assert "://" not in value and not value.startswith(("//", "http")), (path, element.tag, name)
                if element.tag == "style":
                    assert "url(" not in element.text() and "@import" not in element.text(), path


def test_every_svg_parses_as_xml_and_draws_numbers(rendered):
    """Each inline SVG is well-formed XML, and every polyline is made of numeric coordinates."""
    count = 0
    for out in rendered.values():
        for path in sorted(out.rglob("*.html")):
            for svg in parse(path.read_text(encoding="utf-8")).svgs:
                tree = ET.fromstring(svg)
                count += 1
                for line in tree.iter("polyline"):
                    for point in line.attrib["points"].split():
                        x, y = point.split(",")
                        float(x), float(y)
    assert count > 10


def test_the_game_plot_marks_the_first_round_the_student_differs(rendered):
    """The telemetry plots show the student's and the reference's game, both marking the first round they differ."""
    telemetry = EXAMPLES["collects_opponent_first"].telemetry
    assert telemetry is not None and telemetry.student is not None
    first = next(i for i, (a, b) in enumerate(zip(telemetry.reference, telemetry.student, strict=False)) if a != b) + 1
    page = page_of(rendered["student"], "collects_opponent_first")
    section = page.root.one("section", id="game")
    assert f"after round {first}" in section.one(cls="verdict").text()
    plots = svgs_of_class(page, "game-plot")
    assert len(plots) == 2
    markers = [
        element.attrib["x1"] for plot in plots for element in plot.iter("line") if element.get("class") == "marker"
    ]
    assert len(markers) == 2 and markers[0] == markers[1]
    for plot, history in zip(plots, (telemetry.reference, telemetry.student), strict=True):
        lines = {element.attrib["class"]: element.attrib["points"].split() for element in plot.iter("polyline")}
        assert len(lines["line p1"]) == len(lines["line p2"]) == len(history) + 1


def test_a_matching_game_has_no_marker_and_says_so(rendered):
    """When the student's game is the reference's, no round is marked and the page says they match."""
    page = page_of(rendered["student"], "perfect_score")
    assert page.root.one(cls="verdict").attrs["class"].split() == ["verdict", "verdict-ok"]
    assert not [
        line for svg in svgs_of_class(page, "game-plot") for line in svg.iter("line") if line.get("class") == "marker"
    ]


def test_coverage_marks_every_line_run_missed_or_plain(rendered):
    """Each source file's lines are marked as the results say, with the file's percentage."""
    result = EXAMPLES["collects_opponent_first"]
    page = page_of(rendered["student"], "collects_opponent_first")
    files = page.root.one("section", id="coverage").find_all("section", cls="file")
    assert len(files) == len(result.coverage)
    for section, covered in zip(files, result.coverage, strict=True):
        assert section.one("h3").text() == covered.path
        assert section.one(cls="file-percent").one("strong").text() == f"{covered.percent:.0f}%"
        rows = section.one("table", cls="source").find_all("tr")
        assert len(rows) == len(covered.source.splitlines())
        states = {number: row.attrs["class"] for number, row in enumerate(rows, start=1)}
        assert [n for n, state in states.items() if state == "run"] == covered.executed
        assert [n for n, state in states.items() if state == "missed"] == covered.missing
        assert [row.one("td", cls="code").text() for row in rows] == covered.source.splitlines()


def test_coverage_warns_that_stopped_tests_may_leave_lines_unmarked(rendered):
    """When a test timed out or crashed, the coverage section says lines it ran may show as never run."""
    stopped = page_of(rendered["student"], "collects_opponent_first").root.one("section", id="coverage")
    assert len(stopped.find_all(cls="stopped-note")) == 1
    clean = page_of(rendered["student"], "perfect_score").root.one("section", id="coverage")
    assert clean.find_all(cls="stopped-note") == []


def test_an_ungradable_submission_shows_its_reason_at_the_top(rendered):
    """An ungradable submission's report opens with its reason, before any score."""
    result = EXAMPLES["no_war_module"]
    page = page_of(rendered["student"], "no_war_module")
    header = page.root.one("header")
    alert = header.one(cls="alert")
    assert alert.one(cls="reason").text() == result.reason
    order = [element for element in header.iter() if element is alert or "total" in element.attrs.get("class", "")]
    assert order[0] is alert


def test_a_grader_fault_says_it_is_not_the_students_fault():
    """A grader fault gets its own heading and sentence, apart from an ungradable submission."""
    result = dataclasses.replace(
        EXAMPLES["no_war_module"], outcome="grader_fault", reason="The worker could not start."
    )
    alert = parse(render_student_report(result)).root.one(cls="alert")
    assert "alert-fault" in alert.attrs["class"].split()
    assert alert.one(cls="reason").text() == "The worker could not start."
    assert "not of your code" in alert.text()


def test_the_header_shows_date_version_short_hash_and_sandbox(rendered):
    """The header gives the grading time, grader version, short hash (full one on hover) and the sandbox warning."""
    result = EXAMPLES["collects_opponent_first"]
    header = page_of(rendered["student"], "collects_opponent_first").root.one("header")
    assert header.one("time").attrs["datetime"] == result.graded_at
    assert header.one("time").text() == "2026-05-09 14:03 UTC"
    sha = header.one("code", cls="sha")
    assert sha.attrs["title"] == result.sha256 and result.sha256.startswith(sha.text()) and len(sha.text()) < 20
    assert result.grader_version in header.text()
    assert header.one(cls="sandbox-warning").text().endswith(result.sandbox_warning)


def test_the_index_lists_every_student_with_a_link_to_a_report_that_exists(rendered):
    """The overview has one row per student, each linking to its report.html, which exists."""
    for out in rendered.values():
        rows = index_of(out).root.one("table", cls="class-table").one("tbody").find_all("tr")
        assert len(rows) == len(EXAMPLES)
        linked = set()
        for row in rows:
            link = row.one("th").one("a")
            target = (out / link.attrs["href"]).resolve()
            assert target.is_file() and target.name == "report.html"
            linked.add(target.parent.name)
            assert link.text() == read_results(target.parent / "results.json").student
        assert linked == set(EXAMPLES)


def test_the_index_shows_each_students_total_and_categories(rendered):
    """Every graded row shows the student's total and category points as in results.json."""
    rows = index_of(rendered["student"]).root.one("tbody").find_all("tr")
    for row in rows:
        result = EXAMPLES[Path(row.one("a").attrs["href"]).parent.name]
        assert row.one(cls="total-score").fraction() == (result.score, result.max_score)
        if result.outcome == "graded":
            for category in result.categories:
                assert row.one("td", data_category=category.id).fraction() == (category.score, category.max_score)


def test_the_index_puts_ungradable_submissions_first_with_their_reason(rendered):
    """Ungradable submissions come before every graded one, their reason in the row."""
    rows = index_of(rendered["student"]).root.one("tbody").find_all("tr")
    outcomes = [row.attrs["data-outcome"] for row in rows]
    assert outcomes[0] == "ungradable" and set(outcomes[1:]) == {"graded"}
    assert rows[0].one("td", cls="reason").text() == EXAMPLES["no_war_module"].reason


def test_the_index_charts_count_the_graded_and_mark_the_weakest_category(rendered):
    """The histogram counts every graded submission once, and the category chart marks the lowest class average."""
    page = index_of(rendered["student"])
    graded = [result for result in EXAMPLES.values() if result.outcome == "graded"]
    (histogram,) = svgs_of_class(page, "histogram")
    counts = [int(text.text) for text in histogram.iter("text") if text.get("class") == "bar-value"]
    assert sum(counts) == len(graded)
    (bars,) = svgs_of_class(page, "category-bars")
    averages = {}
    for category in graded[0].categories:
        earned = sum(c.score for r in graded for c in r.categories if c.id == category.id)
        available = sum(c.max_score for r in graded for c in r.categories if c.id == category.id)
        averages[category.title] = round(100 * earned / available)
    labels = [text.text for text in bars.iter("text") if text.get("class") == "bar-label"]
    values = [text.text for text in bars.iter("text") if text.get("class") == "bar-value"]
    assert dict(zip(labels, values, strict=True)) == {title: f"{percent}%" for title, percent in averages.items()}
    (lowest,) = [rect for rect in bars.iter("rect") if "lowest" in rect.get("class", "").split()]
    assert lowest.findtext("title", "").startswith(min(averages, key=averages.__getitem__))


def test_a_corrupt_results_json_is_reported_and_the_others_still_render(tmp_path):
    """An unreadable results.json raises UnreadableResults naming it, once the other pages and the index are written."""
    out = _copy_examples(tmp_path)
    broken = out / "perfect_score" / "results.json"
    broken.write_text('{"score": 3, "tests": [', encoding="utf-8")
    with pytest.raises(UnreadableResults) as caught:
        render_reports(out)
    message = str(caught.value)
    assert str(broken) in message and "\n" not in message
    assert caught.value.unreadable == [broken]
    assert not (out / "perfect_score" / "report.html").exists()
    for folder in EXAMPLES.keys() - {"perfect_score"}:
        assert (out / folder / "report.html") in caught.value.written
    rows = index_of(out).root.one("tbody").find_all("tr")
    assert rows[0].attrs["data-outcome"] == "unreadable"
    assert "results unreadable" in rows[0].one("th").text()
    assert rows[0].find_all("a") == []
    assert rows[0].one("td", cls="reason").text().startswith("results.json: not JSON")


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        (lambda data: data.update(score="ten"), "score is 'ten', not a number"),
        (lambda data: data["extra_data"].update(outcome="great"), "outcome 'great'"),
        (lambda data: data.pop("extra_data"), "no 'extra_data' key"),
        (lambda data: data["tests"][0]["extra_data"].update(outcome="won"), "tests[0].outcome 'won'"),
    ],
)
def test_a_results_json_of_the_wrong_shape_is_unreadable(tmp_path, change, complaint):
    """A results.json with a wrong type, an unknown outcome or a missing key is refused with a sentence saying which."""
    path = tmp_path / "someone" / "results.json"
    data = EXAMPLES["collects_opponent_first"].to_json()
    change(data)
    path.parent.mkdir()
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportError, match=re.escape(complaint)):
        report.load_result(path)


def test_a_missing_or_empty_output_folder_is_a_one_line_error(tmp_path):
    """OUT missing, or holding no <student>/results.json, raises ReportError naming the folder."""
    with pytest.raises(ReportError, match=re.escape(str(tmp_path / "nope"))):
        render_reports(tmp_path / "nope")
    (tmp_path / "empty" / "alice").mkdir(parents=True)
    with pytest.raises(ReportError, match=re.escape("no <student>/results.json")):
        render_reports(tmp_path / "empty")


def test_an_unknown_view_is_refused(tmp_path):
    """A view other than student or instructor raises ReportError from every entry point."""
    result = EXAMPLES["perfect_score"]
    write_results(result, tmp_path / "perfect_score" / "results.json")
    for call in (
        lambda: render_reports(tmp_path, view="teacher"),
        lambda: render_student_report(result, view="teacher"),
        lambda: render_class_overview([result], view="teacher"),
    ):
        with pytest.raises(ReportError, match="'teacher'"):
            call()


def test_the_class_overview_alone_links_each_student_by_name():
    """render_class_overview links each result to <student>/report.html."""
    results = [EXAMPLES["perfect_score"], EXAMPLES["no_war_module"]]
    links = [a.attrs["href"] for a in parse(render_class_overview(results)).root.find_all("a")]
    assert sorted(links) == ["./no_war_module/report.html", "./perfect_score/report.html"]


def test_templates_never_mark_text_safe():
    """No template switches autoescaping off, so everything from a result is escaped."""
    templates = Path(report.__file__).parent / "templates"
    for path in templates.iterdir():
        text = path.read_text(encoding="utf-8")
        assert "|safe" not in text.replace(" ", "") and "autoescape false" not in text, path.name


# ------------------------------------------------------------------- reproductions, rules, excused failures


def test_a_visible_failure_shows_its_reproduction_in_a_block_to_copy(rendered):
    """A failed test that is not hidden shows its reproduction, exactly as written, in its own <pre>."""
    for folder in ("jokers_lose_to_kings", "collects_opponent_first"):
        failed = [t for t in EXAMPLES[folder].tests if t.reproduction and not t.hidden and t.outcome != "excused"]
        assert failed
        page = page_of(rendered["student"], folder)
        for test in failed:
            item = page.root.one("li", data_test_id=test.id)
            assert item.one("pre", cls="reproduction").text() == test.reproduction
            assert "Replay it" in item.one(cls="reproduction-block").text()


def test_a_visible_failure_names_the_rule_it_checks(rendered):
    """A failed test shows the handout rule it checks beside its sentence."""
    test = next(t for t in EXAMPLES["jokers_lose_to_kings"].tests if t.outcome == "failed" and not t.hidden)
    item = page_of(rendered["student"], "jokers_lose_to_kings").root.one("li", data_test_id=test.id)
    assert item.one(cls="rule").text().endswith(test.rule)


def test_the_student_view_names_each_hidden_tests_rule_and_never_its_inputs(rendered):
    """A hidden test shows only its rule and how it went: no name, id, sentence, difference or reproduction."""
    result = EXAMPLES["jokers_lose_to_kings"]
    page = page_of(rendered["student"], "jokers_lose_to_kings")
    said = everything_said(page)
    assert "SECRET" not in said
    for test in result.tests:
        if not test.hidden:
            continue
        assert test.name not in said and test.id not in said
        section = page.root.one("section", data_category=test.category)
        items = section.find_all("li", cls="hidden-rule")
        (shown,) = [item for item in items if item.one(cls="rule").text() == test.rule]
        assert shown.attrs["data-outcome"] == ("failed" if test.outcome not in ("passed", "excused") else test.outcome)
        if test.outcome == "excused":
            assert test.follows_from in shown.one(cls="follows-from").text()


def test_the_instructor_view_shows_a_hidden_tests_reproduction(rendered):
    """The instructor sees a hidden failure in full, its reproduction included."""
    test = next(t for t in EXAMPLES["jokers_lose_to_kings"].tests if t.hidden and t.outcome == "failed")
    item = page_of(rendered["instructor"], "jokers_lose_to_kings").root.one("li", data_test_id=test.id)
    assert item.one("pre", cls="reproduction").text() == test.reproduction
    assert item.one(cls="sentence").text() == test.sentence


def test_an_excused_failure_keeps_its_points_and_says_what_it_follows_from(rendered):
    """An excused test is marked Excused, shows full points and its follows-from sentence, its details folded."""
    test = next(t for t in EXAMPLES["jokers_lose_to_kings"].tests if t.outcome == "excused" and not t.hidden)
    assert test.follows_from and test.score == test.max_score
    item = page_of(rendered["student"], "jokers_lose_to_kings").root.one("li", data_test_id=test.id)
    assert item.one(cls="status").text().strip().endswith("Excused")
    assert item.one(cls="fraction").fraction() == (test.max_score, test.max_score)
    assert item.one(cls="sentence").text() == test.sentence and test.follows_from in test.sentence
    assert "No points lost" in item.one(cls="excused-note").text()
    assert item.one("details", cls="excused-detail").one("pre", cls="reproduction").text() == test.reproduction


def test_a_nondeterministic_result_opens_with_a_warning_and_others_do_not(rendered):
    """A result flagged nondeterministic opens with its sentence in a warning; a deterministic one has none."""
    result = EXAMPLES["jokers_lose_to_kings"]
    header = page_of(rendered["student"], "jokers_lose_to_kings").root.one("header")
    assert header.one(cls="alert-nondeterministic").one(cls="reason").text() == result.nondeterministic
    for folder, other in EXAMPLES.items():
        if not other.nondeterministic:
            assert page_of(rendered["student"], folder).root.find_all(cls="alert-nondeterministic") == [], folder


def test_an_int_card_is_shown_as_an_int_beside_the_expected_str(rendered):
    """Where expected and actual differ in type, each value is a Python literal followed by its type's name."""
    tests = EXAMPLES["jokers_lose_to_kings"].tests
    test = next(t for t in tests if t.difference and not t.hidden and t.outcome == "failed")
    assert test.difference is not None and test.difference.actual[0] == 5
    item = page_of(rendered["student"], "jokers_lose_to_kings").root.one("li", data_test_id=test.id)
    first, second = item.one("table", cls="diff").one("tbody").find_all("tr")
    assert [cell.text() for cell in first.find_all("td")] == ["'5' str", "5 int"]
    assert [cell.text() for cell in second.find_all("td")] == ["'3'", "'3'"]


def test_counts_of_one_are_singular():
    """plural gives "1 card" and "2 cards"; a difference of one item and a gap of one position read in the singular."""
    assert report.plural(1, "card") == "1 card"
    assert report.plural(0, "card") == "0 cards"
    assert report.plural(2, "more line") == "2 more lines"
    expected = [str(n) for n in range(60)]
    test = results.TestResult(
        id="test_x.py::test_one", name="One", category="full_game", score=0, max_score=1, outcome="failed",
        hidden=False, sentence="Position 7 differs.", difference=results.Difference("P1's queue", expected,
                                                                                     [*expected[:6], "X"], 6),
    )
    single = results.Difference("P2's queue", ["K"], [], 0)
    one = dataclasses.replace(test, id="test_x.py::test_single", difference=single)
    page = parse(render_student_report(dataclasses.replace(EXAMPLES["perfect_score"], tests=[test, one])))
    gaps = [row.text() for row in page.root.find_all("tr", cls="gap")]
    assert "position 1 is the same in both" in gaps
    lengths = page.root.one("li", data_test_id="test_x.py::test_single").one(cls="lengths").text()
    assert lengths == "expected 1 item, your code has 0"


def test_a_game_whose_counts_agree_where_its_cards_differ_says_so():
    """When the first round whose cards differ leaves each player as many cards as the reference's, the verdict
    says the counts agree and the cards do not (it never claims the counts differ)"""
    example = EXAMPLES["collects_opponent_first"]
    telemetry = example.telemetry
    assert telemetry is not None and telemetry.student is not None
    same = dataclasses.replace(telemetry, student=list(telemetry.reference), first_difference=3)
    html = report.render_student_report(dataclasses.replace(example, telemetry=same), view="student")
    verdict = parse(html).root.one("section", id="game").one(cls="verdict").text()
    at = telemetry.reference[2]
    assert "after round 3" in verdict and f"as many cards as in the reference's game (P1 {at[0]}, P2 {at[1]})" in verdict


@pytest.mark.parametrize("view", ["student", "instructor"])
def test_the_report_opens_with_where_the_points_went(view):
    """Before the categories, the report lists each rule that lost points with its points, and each entry links
    to an element of the page (its first failing test, or its category when that test is hidden)"""
    result = EXAMPLES["collects_opponent_first"]
    html = report.render_student_report(result, view=view)
    assert html.index('id="losses"') < html.index('id="tests"')
    for anchor in re.findall(r'class="loss-rule"><a href="#([^"]+)"', html):
        assert f'id="{anchor}"' in html, anchor


def _late(result: GradeResult, percent: float) -> GradeResult:
    """result handed in late, with percent of its points taken."""
    from grader.late import Lateness

    after = round(result.score * (1 - percent / 100), 4)
    late = Lateness(due="2026-12-01T23:59-05:00", extended=False, late=True, hours_late=30.0, grace_days_used=0,
                    penalty_percent=percent, points_before=result.score, points_after=after, cut_off=False,
                    sentence=f"submitted 30 h late, \u2212{percent:g}%")
    return dataclasses.replace(result, score=after, late=late)


@pytest.mark.parametrize("view", ["student", "instructor"])
@pytest.mark.parametrize("folder", ["collects_opponent_first", "jokers_lose_to_kings", "perfect_score", "late",
                                    "part_e"])
def test_where_the_points_went_adds_up_to_what_was_lost(folder, view):
    """The losses listed, Part E's chaffs not caught and a late penalty included, add up to the maximum less the
    total, and each links to an element of the page."""
    result = EXAMPLES.get(folder) or EXAMPLES["collects_opponent_first"]
    if folder == "part_e":
        result = dataclasses.replace(result, score=result.score - 3, categories=[
            dataclasses.replace(c, score=c.score - 3) if c.id == "student_tests" else c for c in result.categories])
    elif folder == "late":
        result = _late(result, 20)
    html = report.render_student_report(result, view=view)
    shown = [float(points.replace("\u2212", "")) for points in re.findall(r'class="loss-points">([^<]*)<', html)]
    assert round(sum(shown), 1) == round(result.max_score - result.score, 1)
    for anchor in re.findall(r'class="loss-rule"><a href="#([^"]+)"', html):
        assert f'id="{anchor}"' in html, anchor


def test_the_class_overview_names_what_most_of_the_class_got_wrong():
    """The class index lists the rules that cost the most submissions points, with how many of the graded ones"""
    results_ = [EXAMPLES["collects_opponent_first"], EXAMPLES["perfect_score"]]
    html = report.render_class_overview(results_, view="student")
    lost = {test.rule or test.name for test in results_[0].tests
            if test.category != "student_tests" and test.score < test.max_score}
    assert 'id="misses"' in html and lost
    for rule in lost:
        assert f"1 of 2</span> {report_escape(rule)}" in html
    assert report.render_class_overview([EXAMPLES["perfect_score"]], view="student").count('id="misses"') == 0


def report_escape(text: str) -> str:
    """text as the templates escape it."""
    from markupsafe import escape

    return str(escape(text))


def test_passed_tests_are_folded_and_every_other_test_is_shown_open(rendered):
    """In every category the tests that lost points or were excused are listed open; the passed ones sit in one
    closed <details> whose summary says how many passed and their points, in both views"""
    for view in ("student", "instructor"):
        for name, result in EXAMPLES.items():
            page = page_of(rendered[view], name)
            for section in page.root.find_all("section", cls="category"):
                category = section.attrs["data-category"]
                tests = {test.id: test for test in result.tests if test.category == category}
                folds = section.find_all("details", cls="passed-tests")
                items = [item for fold in folds for item in fold.find_all("li", cls="test")]
                folded = [item.attrs["data-test-id"] for item in items]
                shown = [item.attrs["data-test-id"] for item in section.find_all("li", cls="test")]
                assert all(tests[test_id].outcome == "passed" for test_id in folded), (name, category)
                assert [test_id for test_id in shown if test_id not in folded
                        and tests[test_id].outcome == "passed"] == [], (name, category)
                assert len(folds) == (1 if folded else 0), (name, category)
                for fold in folds:
                    cases = sum(int(item.attrs["data-cases"]) for item in items)
                    assert "open" not in fold.attrs
                    assert fold.attrs["data-passed-count"] == str(cases)
                    summary = fold.one("summary")
                    assert summary.text().startswith(f"{cases} passed test")
                    points = [item.one(cls="test-points").fraction() for item in items]
                    assert summary.one(cls="fraction").fraction() == pytest.approx(
                        (sum(earned for earned, _ in points), sum(most for _, most in points)), abs=0.01)


@pytest.mark.parametrize("view", ["student", "instructor"])
def test_an_excused_test_says_follows_from_once(rendered, view):
    """follows_from begins with "follows from: ", so no page (a test's sentence, a hidden rule's line) says it twice."""
    for folder in EXAMPLES:
        text = everything_said(page_of(rendered[view], folder))
        assert "follows from: follows from" not in text, folder
        assert "follows from:" in text or not any(t.outcome == "excused" for t in EXAMPLES[folder].tests)


def test_an_invalid_suite_shows_the_student_the_first_invalid_test_only_and_the_instructor_every_one():
    """Issue 26: the student's view names the first invalid test, its line and reason, and that more may follow,
    never whether each test counts (one bit of the correct implementations' behaviour each); the instructor's
    view keeps every test's validity and reason."""
    part_e = judged_suite(invalid=True)
    result = dataclasses.replace(EXAMPLES["perfect_score"], student_tests=part_e)
    student = report.render_student_report(result, view="student")
    instructor = report.render_student_report(result, view="instructor")
    first = "test_wrong does not pass on every correct implementation, so none of your tests count"
    assert first in student
    assert "the assertion at line 5 of tests/test_war.py" in student and "you are told of the first only" in student
    hang = "did not finish within"
    assert hang not in student and ">Counts?<" not in student and "Caught:" not in student
    assert hang in instructor and ">Counts?<" in instructor and first in instructor
    assert student.count("test_hangs") == 1  # listed among the tests, nothing said of it


def test_a_valid_suite_still_shows_each_test_and_the_chaffs_it_caught():
    part_e = judged_suite(invalid=False)
    assert part_e.invalid == "" and sum(s.score for s in part_e.scenarios) > 0
    student = report.render_student_report(dataclasses.replace(EXAMPLES["perfect_score"], student_tests=part_e))
    assert ">Counts?<" in student and "Caught: a Joker that loses to a King" in student
    assert "1.75 / (1.75 + the buggy versions missed in all four scenarios)" in student


def test_a_long_student_name_breaks_after_its_underscores_not_mid_word():
    """Issue 28 item 9: the class table's student cell offers a break after each _ (a <wbr>), and its style no
    longer breaks anywhere (at 1280 px names broke mid-word); the name reads whole, escaped"""
    name = "clock_partition_per_test__honest<b>"
    html = report.render_class_overview([dataclasses.replace(EXAMPLES["perfect_score"], student=name)],
                                        view="student")
    assert "clock_<wbr>partition_<wbr>per_<wbr>test__<wbr>honest&lt;b&gt;" in html
    style = (Path(report.__file__).parent / "templates" / "_style.css").read_text()
    assert re.search(r"\.class-table \.student \{[^}]*overflow-wrap: break-word", style)
