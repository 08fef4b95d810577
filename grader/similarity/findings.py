"""What a similarity run found: the students compared, the pairs, each student's likeness to the reference and to
past classes, and everyone's code as read. The run (run.py) makes it; the page (page.py) and similarity.json show
it."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import compare, fingerprints
from .compare import Match, Own

REFERENCE = "the reference"
"""The name the instructor's reference goes by on the page (a student's name never holds a space)."""

LISTED_FLOOR = 0.1
"""Pairs scoring below this are left out of similarity.json (shared idioms, not a case)."""

MAX_LISTED = 1000
"""Most pairs similarity.json lists (the closest; a note says how many more reached LISTED_FLOOR)."""


@dataclass(frozen=True)
class NotCompared:
    """A student left out of every comparison, and why."""

    student: str
    reason: str


@dataclass
class Code:
    """One student's files as read (path to text) and fingerprints of their own code."""

    name: str
    files: dict[str, str]
    own: Own


@dataclass
class SimilarityReport:
    """What a similarity run found."""

    students: list[str]
    """The students compared, by name."""
    pairs: list[Match]
    """Pairs of students at LISTED_FLOOR or more, best first."""
    reference: list[Match]
    """Each student sharing code with the reference (b), closest first."""
    past: list[Match]
    """Each student's closest past student (b: "<past class>/<student>"), closest first."""
    not_compared: list[NotCompared] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What the findings hold of the class as a whole (a class too small to pair)."""
    said: list[str] = field(default_factory=list)
    """What the command says of the paths it read, printed and never written (they name this machine's paths):
    entries that are not submissions, clones --at cannot date, extensions naming no one."""
    code: dict[str, Code] = field(default_factory=dict)
    """Everyone's code as read (the class, the reference, past students), for the page."""

    def to_json(self) -> dict[str, object]:
        """similarity.json: every list sorted, no time, no absolute path, so the same class gives the same bytes."""
        return {
            "settings": {"k": fingerprints.K, "window": fingerprints.W, "common_share": compare.COMMON_SHARE,
                         "min_basis": compare.MIN_BASIS, "listed_floor": LISTED_FLOOR, "max_listed": MAX_LISTED},
            "students": self.students,
            "not_compared": [{"student": item.student, "reason": item.reason} for item in self.not_compared],
            "notes": self.notes,
            "pairs": [{"a": m.a, "b": m.b, "score": m.score, "shared": m.shared,
                       "spans": [span.to_json() for span in m.spans]} for m in self.pairs],
            "reference": [{"student": m.a, "score": m.score, "shared": m.shared,
                           "spans": [span.to_json() for span in m.spans]} for m in self.reference],
            "past": [{"student": m.a, "past": m.b, "score": m.score, "shared": m.shared,
                      "spans": [span.to_json() for span in m.spans]} for m in self.past],
        }
