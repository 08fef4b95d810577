"""The course's public test files (tests/contract/), known by content: Part E must not judge them as a student's.

A GitHub Classroom clone holds the template's public tests (`war-grader export classroom` writes them into
tests/contract/), and a student may hand in a copy of this repository's tests/contract/. Unchanged, they are
the course's, not the student's own tests; edited, they are the student's. Their sha256 digests, as the export
writes them and as tests/contract holds them, ship with the grader in public_tests.json (an installed grader
has no tests/contract), so every machine decides alike; a test keeps the file current.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib.resources import files
from pathlib import Path

DIGESTS_FILE = "public_tests.json"
"""Beside this module: a JSON list of the digests (`python -m grader.export.classroom` rewrites it)."""

DIGESTS_PATH = Path(__file__).with_name(DIGESTS_FILE)
"""Where the checkout's copy of the digests is written."""

MAX_BYTES = 1 << 20
"""A file larger than this is no public test file (they are a few KiB), so it is never read whole."""


def content_digest(text: str) -> str:
    """A file's digest, blind to line endings (a clone on Windows may check files out with CRLF)."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8")).hexdigest()


@cache
def public_digests() -> frozenset[str]:
    """The digests of every public file, as shipped with the grader."""
    return frozenset(json.loads(files("grader").joinpath(DIGESTS_FILE).read_text(encoding="utf-8")))


def is_public(data: bytes) -> bool:
    """True when data is, byte for byte up to line endings, one of the course's public test files."""
    if len(data) > MAX_BYTES:
        return False
    try:
        return content_digest(data.decode("utf-8")) in public_digests()
    except UnicodeDecodeError:
        return False
