"""OUT/similarity.html: the closest pairs side by side, their matched lines marked; for the instructor alone.

Every piece of a student's text reaches the page through jinja2's autoescape (grader/similarity/templates/).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import jinja2

from .compare import Match, Span
from .findings import SimilarityReport

SHOWN = 30
"""Most pairs shown side by side (the closest; similarity.json lists every one at LISTED_FLOOR or more)."""

SHOWN_FLOOR = 0.2
"""Pairs scoring below this are listed in the table only, never shown side by side."""

TABLE_ROWS = 300
"""Most pairs listed in the page's table (similarity.json lists them all)."""

CONTEXT = 2
"""Lines shown before and after each matched span."""

MAX_LINES = 80
"""Most lines of one side of one span."""


@dataclass(frozen=True)
class Line:
    """One line of an excerpt: its number, its text, whether it is inside the match."""

    number: int
    text: str
    matched: bool


@dataclass(frozen=True)
class Excerpt:
    """One matched span: a's lines beside b's."""

    a_file: str
    b_file: str
    a: list[Line]
    b: list[Line]


@dataclass(frozen=True)
class Shown:
    """One pair as the page shows it."""

    kind: str
    """"pair", "reference" or "past"."""
    match: Match
    excerpts: list[Excerpt]


def render_page(report: SimilarityReport) -> str:
    """The page's HTML."""
    shown = []
    for kind, matches in (("pair", report.pairs), ("reference", report.reference), ("past", report.past)):
        shown += [_shown(kind, match, report) for match in matches[:SHOWN] if match.score >= SHOWN_FLOOR]
    anchors = {(item.kind, item.match.a, item.match.b): f"{item.kind}-{number}"
               for number, item in enumerate(shown, start=1)}
    return _environment().get_template("similarity.html").render(
        report=report, shown=shown, anchors=anchors, floor=SHOWN_FLOOR, limit=SHOWN, table_rows=TABLE_ROWS)


def _shown(kind: str, match: Match, report: SimilarityReport) -> Shown:
    """A pair with an excerpt per matched span."""
    a, b = report.code[match.a].files, report.code[match.b].files
    return Shown(kind, match, [Excerpt(span.a.file, span.b.file, _lines(a.get(span.a.file, ""), span, True),
                                       _lines(b.get(span.b.file, ""), span, False)) for span in match.spans])


def _lines(text: str, span: Span, left: bool) -> list[Line]:
    """One side of a span, with CONTEXT lines around it, at most MAX_LINES."""
    side = span.a if left else span.b
    lines = text.splitlines()
    first = max(1, side.first - CONTEXT)
    last = min(len(lines), side.last + CONTEXT, first + MAX_LINES - 1)
    return [Line(number, lines[number - 1], side.first <= number <= side.last) for number in range(first, last + 1)]


@functools.cache
def _environment() -> jinja2.Environment:
    """The page's templates: autoescape everywhere, an undefined name an error."""
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("grader.similarity", "templates"),
        autoescape=True,
        auto_reload=False,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["percent"] = lambda value: f"{100 * value:.0f}%"
    return environment
