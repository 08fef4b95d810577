"""What must never leave the sandbox, for the tests that read the grader's outputs: long numbers and the lines of
the reference's and the chaffs' source that students do not have (issue 17)."""

from __future__ import annotations

import re
from pathlib import Path

from grader.chaffs import CHAFFS, chaff_sources
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = corpus()

LONG_NUMBER = re.compile(r"\d{40,}")
"""A run of 40 or more digits: no score, time, count or line number of a real test file is that long, and 40
digits carry about 16 bytes of anything a test read."""

SECRET_LINE_LENGTH = 30
"""Shortest stripped source line that counts as the reference's or a chaff's own. Shorter lines are generic
(`return winner`, `while not q.is_empty():`, `cards = []`) and could be the student's own or a coincidence in a
sentence; 30 characters is a whole statement or a docstring sentence (`Rules resolves the deck's usual high
card`), distinctive enough that finding it in a report means it came from the source."""


def secret_lines(public: str) -> set[str]:
    """Stripped lines of the reference's modules and of every chaff, at least SECRET_LINE_LENGTH long, no import,
    and found nowhere in what a student receives or writes (public: the starter, the submissions' own files), not
    even inside a longer line (a report shows the student's own code, whose signatures are the starter's)."""
    texts = [path.read_text(encoding="utf-8") for path in sorted((ROOT / "reference").glob("*.py"))]
    texts += [text for variant in CHAFFS for text in chaff_sources(variant).values()]
    lines = {line.strip() for text in texts for line in text.splitlines()}
    return {line for line in lines if len(line) >= SECRET_LINE_LENGTH and not line.startswith(("import ", "from "))
            and line not in public}


def public_text() -> str:
    """Everything students have, one text: the starter (with the handout) and every corpus submission's files."""
    files = [*(ROOT / "starter").rglob("*"), *CORPUS.rglob("*.py")]
    return "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in sorted(files)
                     if path.is_file() and path.suffix in (".py", ".md"))


def leaks(texts: dict[str, str], secrets: set[str]) -> dict[str, str]:
    """Where -> what, for every text holding a run of 40 or more digits or a secret line (one finding a text)."""
    found = {}
    for where, text in texts.items():
        number = LONG_NUMBER.search(text)
        line = next((line for line in secrets if line in text), None)
        if number is not None:
            found[where] = f"a {len(number.group())}-digit number"
        elif line is not None:
            found[where] = line
    return found


def readable(path: Path) -> str:
    """A grader output as it can be searched: an HTML page unescaped; a JSON file as written, then each of its
    strings and numbers decoded (JSON escapes the quotes a source line may hold)."""
    import html  # noqa: PLC0415
    import json  # noqa: PLC0415

    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        return html.unescape(text)
    if path.suffix != ".json":
        return text
    values: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                values.append(str(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, (str, int, float)):
            values.append(str(value))

    try:
        walk(json.loads(text))
    except ValueError:  # a number too long for Python to read: the text as written holds it
        pass
    return "\n".join([text, *values])
