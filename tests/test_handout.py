"""The handout tells the truth about the grade: its breakdown is grading.toml's, and it refers only to what it holds."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from grader.results import CATEGORY_TITLES

ROOT = Path(__file__).resolve().parents[1]
HANDOUT = ROOT / "starter" / "ASSIGNMENT.md"
GRADING = ROOT / "grader" / "grading.toml"
BREAKDOWN = "## How your work is graded"
"""The heading of the handout's section holding the grade breakdown."""

REFERENCES = re.compile(r"\bPart [A-Z]\b|\breflections?\b|\bextensions?\b", re.IGNORECASE)
"""Names of parts of a handout that the course's earlier handouts had and this one may not."""


def handout() -> str:
    """The text of starter/ASSIGNMENT.md."""
    return HANDOUT.read_text(encoding="utf-8")


def breakdown_rows(text: str) -> list[list[str]]:
    """The cells of each body row of the first table under the breakdown heading."""
    assert BREAKDOWN in text, f"ASSIGNMENT.md has no {BREAKDOWN!r} section"
    section = text.split(BREAKDOWN, 1)[1].split("\n## ", 1)[0]
    lines = [line.strip() for line in section.splitlines() if line.strip().startswith("|")]
    assert len(lines) > 2, "the breakdown section holds no table"
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def expected_points() -> list[tuple[str, str]]:
    """(title, points) for every category of grading.toml, in the order the reports show categories."""
    points = tomllib.loads(GRADING.read_text(encoding="utf-8"))["points"]
    unknown = set(points) - set(CATEGORY_TITLES)
    assert not unknown, f"grading.toml has categories without a title in CATEGORY_TITLES: {sorted(unknown)}"
    return [(title, f"{points[key]:g}") for key, title in CATEGORY_TITLES.items() if key in points]


def test_the_grade_breakdown_gives_each_category_of_grading_toml_its_points():
    """The breakdown table lists every category of grading.toml, by its report title, with its points, in order."""
    rows = breakdown_rows(handout())
    shown = [(row[0], row[-1]) for row in rows if not row[0].startswith("**")]
    expected = expected_points()
    table = "\n".join(f"| {title} | ... | {points} |" for title, points in expected)
    assert shown == expected, f"make the breakdown in ASSIGNMENT.md list exactly these categories:\n{table}"


def test_the_grade_breakdown_total_is_the_sum_of_the_categories():
    """The table's Total row is the sum of grading.toml's points, the maximum score."""
    (total,) = [row for row in breakdown_rows(handout()) if row[0].strip("*").lower() == "total"]
    points = tomllib.loads(GRADING.read_text(encoding="utf-8"))["points"]
    assert total[-1].strip("*") == f"{sum(points.values()):g}"


def test_every_part_the_handout_or_the_starter_names_is_a_heading_of_the_handout():
    """A "Part X", "reflection" or "extensions" named in ASSIGNMENT.md or starter/*.py is a heading of ASSIGNMENT.md."""
    text = handout()
    headings = [line.lstrip("#").strip().lower() for line in text.splitlines() if line.startswith("#")]
    sources = {"ASSIGNMENT.md": text}
    sources.update({path.name: path.read_text(encoding="utf-8") for path in sorted((ROOT / "starter").glob("*.py"))})
    dangling = {
        f"{name}: {match.group()!r}"
        for name, source in sources.items()
        for match in REFERENCES.finditer(source)
        if not any(match.group().lower().rstrip("s") in heading for heading in headings)
    }
    assert not dangling
