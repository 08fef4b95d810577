"""Every relative link on the README and the docs pages names a file of this checkout, and its #anchor a heading
of that page (GitHub's slugs), so no page sends a reader to nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "starter" / "ASSIGNMENT.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip()).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings, outside code fences."""
    found, fenced = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            found.add(slug(match.group(1)))
    return found


def links(page: Path) -> list[str]:
    """The relative links of a page (not http(s), not mailto), outside code fences."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


def test_the_slug_is_githubs():
    assert slug("Grading past one machine") == "grading-past-one-machine"
    assert slug("`grade --at` and the due date") == "grade---at-and-the-due-date"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_names_a_file_and_a_heading_that_exist(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT) if file.is_relative_to(ROOT) else file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading '{anchor}' in {file.name}")
    assert not broken, broken
