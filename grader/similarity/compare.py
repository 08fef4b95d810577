"""Scores between students from their fingerprints: the starter's and the class's common code discounted first.

A student's own code is the set of fingerprints of their files less every fingerprint of the starter (which every
student received) and less every fingerprint most of the class holds (code any solution writes alike). A pair's
score is the share of the smaller of the two that the other holds too: 1 when one student's own code is all found
in the other's, 0 when nothing is shared. The reference and past classes are compared one way: the share of a
student's own code found there. Every list comes sorted, so the same inputs give the same output.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from .fingerprints import Print

COMMON_SHARE = 0.5
"""A fingerprint held by more than this share of the class is common code, and discounted."""

COMMON_HOLDERS = 3
"""...and by at least this many students: in a class of two or three, code two students share is theirs."""

MIN_BASIS = 20
"""A score's denominator is at least this many fingerprints, so a few lines of one's own never score 1."""

MAX_SPANS = 40
"""Most matched spans kept for one pair."""

DIGITS = 4
"""Scores are rounded to this many decimals: the same on every machine."""


@dataclass(frozen=True)
class Side:
    """Lines of one file: one side of a matched span."""

    file: str
    first: int
    last: int

    def to_json(self) -> dict[str, object]:
        """As similarity.json writes it."""
        return {"file": self.file, "lines": [self.first, self.last]}


@dataclass(frozen=True)
class Span:
    """A run of code found in both: where it stands in a and in b."""

    a: Side
    b: Side

    def to_json(self) -> dict[str, object]:
        """As similarity.json writes it."""
        return {"a": self.a.to_json(), "b": self.b.to_json()}


@dataclass(frozen=True)
class Match:
    """How close a is to b: the score, how many fingerprints they share, and where."""

    a: str
    b: str
    score: float
    shared: int
    spans: tuple[Span, ...]


@dataclass(frozen=True)
class Own:
    """One student's own code: fingerprints by hash (each hash's places, in file order)."""

    name: str
    prints: dict[int, tuple[Print, ...]]

    @property
    def hashes(self) -> frozenset[int]:
        """The fingerprints' hashes."""
        return frozenset(self.prints)


def by_hash(prints: list[Print], discounted: frozenset[int] | set[int] = frozenset()) -> dict[int, tuple[Print, ...]]:
    """Fingerprints grouped by hash, those in discounted left out."""
    grouped: dict[int, list[Print]] = {}
    for item in prints:
        if item.hash not in discounted:
            grouped.setdefault(item.hash, []).append(item)
    return {key: tuple(value) for key, value in grouped.items()}


def common(students: list[frozenset[int]]) -> frozenset[int]:
    """The fingerprints most of a class holds (more than COMMON_SHARE of it, COMMON_HOLDERS at least)."""
    counts: Counter[int] = Counter(itertools.chain.from_iterable(students))
    floor = max(COMMON_HOLDERS, int(len(students) * COMMON_SHARE) + 1)
    return frozenset(key for key, count in counts.items() if count >= floor)


def scores(students: list[Own]) -> list[tuple[float, str, str]]:
    """Every pair of students sharing code: (score, a, b), a before b by name, best first (then by names)."""
    ordered = sorted(students, key=lambda own: own.name)
    hashes = [own.hashes for own in ordered]
    found = []
    for (i, a), (j, b) in itertools.combinations(enumerate(ordered), 2):
        shared = len(hashes[i] & hashes[j])
        if shared:
            score = min(shared / max(min(len(hashes[i]), len(hashes[j])), MIN_BASIS), 1.0)
            found.append((round(score, DIGITS), a.name, b.name))
    return sorted(found, key=lambda item: (-item[0], item[1], item[2]))


def pairs(students: list[Own], *, floor: float = 0.0, limit: int | None = None) -> list[Match]:
    """The closest pairs (at most limit) scoring floor or more, best first (then by name), with their spans."""
    by_name = {own.name: own for own in students}
    found = []
    for score, a, b in scores(students)[:limit]:
        if score < floor:
            break
        shared = by_name[a].hashes & by_name[b].hashes
        found.append(Match(a, b, score, len(shared), spans(by_name[a], by_name[b], shared)))
    return found


def one_way(student: Own, others: list[Own]) -> Match | None:
    """The other whose code holds the most of this student's own code, as a Match (a the student); None if no
    other shares any (ties go to the first name)."""
    best: Match | None = None
    mine = student.hashes
    for other in sorted(others, key=lambda own: own.name):
        shared = mine & other.hashes
        if not shared:
            continue
        score = round(min(len(shared) / max(len(mine), MIN_BASIS), 1.0), DIGITS)
        if best is None or score > best.score:
            best = Match(student.name, other.name, score, len(shared), spans(student, other, shared))
    return best


def spans(a: Own, b: Own, shared: frozenset[int]) -> tuple[Span, ...]:
    """Where a's and b's shared fingerprints stand, runs merged: each fingerprint's first place in a beside its
    first place in b, merged while both sides stay in one file and run on (overlapping or next lines)."""
    placed = [(a.prints[key][0], b.prints[key][0]) for key in shared]
    placed.sort(key=lambda pair: (pair[0].file, pair[0].first, pair[0].last, pair[1].file, pair[1].first,
                                  pair[1].last, pair[0].hash))  # a total order: no set's order shows through
    merged: list[Span] = []
    for left, right in placed:
        if merged:
            last = merged[-1]
            if (last.a.file == left.file and last.b.file == right.file and left.first <= last.a.last + 1
                    and last.b.first - 1 <= right.first <= last.b.last + 1):
                merged[-1] = Span(Side(left.file, last.a.first, max(last.a.last, left.last)),
                                  Side(right.file, min(last.b.first, right.first), max(last.b.last, right.last)))
                continue
        merged.append(Span(Side(left.file, left.first, left.last), Side(right.file, right.first, right.last)))
    merged.sort(key=lambda span: (-(span.a.last - span.a.first), span.a.file, span.a.first, span.b.file,
                                  span.b.first))
    return tuple(sorted(merged[:MAX_SPANS], key=lambda span: (span.a.file, span.a.first, span.b.file, span.b.first)))
