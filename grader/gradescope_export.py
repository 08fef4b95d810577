"""Gradescope's "Export Submissions" folder: `submission_metadata.yml` beside one `submission_<id>/` folder per
submission, which says who submitted each one and when.

The file is YAML written by Ruby, its keys Ruby symbols:

    submission_123456:
      :submitters:
      - :name: Ann Lee
        :sid: '1234'
        :email: ann@uni.edu
      :created_at: 2026-12-01 20:15:03.123456000 -05:00
      :score: 80.0
      ...

Only the submitters and the time are read, line by line (no YAML library: the dependencies stay four): a
top-level `<folder>:` opens a submission, `:submitters:` its list, `- :key: value` and `:key: value` the
submitters' fields, `:created_at:` the time; every other line (the score, the autograder's results, block text)
is passed over, and a file too large or not of this shape reads as no metadata at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

METADATA = "submission_metadata.yml"
"""The export's metadata file, at the top of the unzipped folder."""

MAX_BYTES = 16 * 1024 * 1024
"""A metadata file larger than this is not read (an export of a few thousand submissions is well under it)."""

_TOP = re.compile(r"(?P<folder>[^\s:#'\"][^:]*):\s*$")
_FIELD = re.compile(r"(?P<indent> *)(?P<item>- )?:(?P<key>[a-z_]+):(?: +(?P<value>.*))?$")
_TIME = re.compile(r"(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.\d+)? ?([+-]\d\d:?\d\d|Z)")


@dataclass(frozen=True)
class Submitter:
    """One student named on a submission."""

    name: str
    email: str
    sid: str


@dataclass(frozen=True)
class ExportedSubmission:
    """What the metadata says of one submission folder."""

    folder: str
    submitters: tuple[Submitter, ...]
    created_at: str
    """When it was submitted, ISO 8601 with its offset; "" when the file does not say."""

    def student(self) -> str:
        """The name to grade it under: the first submitter's email (the roster matches it), else their student
        id, else their name; "" when nobody is named."""
        if not self.submitters:
            return ""
        first = self.submitters[0]
        return first.email or first.sid or first.name

    def provenance(self) -> str:
        """The report's sentence about where this submission came from."""
        who = ", ".join(f"{s.name} <{s.email}>" if s.name and s.email else s.name or s.email or s.sid
                        for s in self.submitters) or "nobody named"
        when = f", at {self.created_at}" if self.created_at else ", at a time the export does not give"
        return f"From Gradescope's export ({self.folder}): submitted by {who}{when}."


def read_export(folder: Path) -> dict[str, ExportedSubmission]:
    """The submissions the export folder's metadata names, by folder name; {} without a readable file."""
    path = folder / METADATA
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return {}
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    return parse_metadata(text)


def parse_metadata(text: str) -> dict[str, ExportedSubmission]:
    """submission_metadata.yml's submitters and times, by submission folder."""
    found: dict[str, dict] = {}
    current: dict | None = None
    in_submitters = False
    submitters_indent = 0
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or line.startswith("---"):
            continue
        top = _TOP.fullmatch(line)
        if top:
            current = found.setdefault(_plain(top["folder"]), {"submitters": [], "created_at": ""})
            in_submitters = False
            continue
        field = _FIELD.fullmatch(line)
        if current is None or field is None:
            if current is not None and in_submitters and len(line) - len(line.lstrip()) <= submitters_indent \
                    and not line.lstrip().startswith("- "):
                in_submitters = False
            continue
        indent = len(field["indent"])
        key, value = field["key"], _plain(field["value"] or "")
        if key == "submitters" and not field["item"]:
            in_submitters, submitters_indent = True, indent
        elif in_submitters and field["item"] and indent >= submitters_indent:
            current["submitters"].append({key: value})
        elif in_submitters and indent > submitters_indent and current["submitters"]:
            current["submitters"][-1].setdefault(key, value)
        else:
            in_submitters = False
            if key == "created_at" and indent <= 4:
                current["created_at"] = _moment(value)
    return {folder: ExportedSubmission(folder, tuple(Submitter(s.get("name", ""), s.get("email", ""), s.get("sid", ""))
                                                     for s in data["submitters"]), data["created_at"])
            for folder, data in found.items()}


def _plain(value: str) -> str:
    """A YAML scalar as text: quotes taken off, '' in a single-quoted one made '."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    return value


def _moment(value: str) -> str:
    """Ruby's `2026-12-01 20:15:03.123456000 -05:00` as ISO 8601 (`2026-12-01T20:15:03-05:00`); "" otherwise."""
    match = _TIME.match(value)
    if not match:
        return ""
    offset = match[3] if match[3] == "Z" or ":" in match[3] else f"{match[3][:3]}:{match[3][3:]}"
    try:
        return datetime.fromisoformat(f"{match[1]}T{match[2]}{offset}").isoformat()
    except ValueError:
        return ""
