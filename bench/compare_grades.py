"""Whether two or more graded classes hold the same grades: each student's outcome, score, category scores and
every test's outcome, timings left out; with --pins, also each score against tests/submissions/corpus.json.

    python bench/compare_grades.py OUT_A OUT_B [OUT_C ...] [--pins]

Prints one line per difference and a summary; exit 1 when anything differs. A script, not a test: grading the
corpus several times (on other Pythons, under load) is too slow for the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.results import read_results  # noqa: E402


def grades(out: Path) -> dict[str, Any]:
    """Each student's grade in out, as plain data without timings: outcome, score, categories, every hidden
    test's outcome, score, excuse and sentence, and Part E's tests and chaffs."""
    found = {}
    for path in sorted(out.glob("*/results.json")):
        result = read_results(path)
        part_e = result.student_tests
        found[path.parent.name] = {
            "outcome": result.outcome, "score": result.score, "nondeterministic": result.nondeterministic,
            "categories": {c.id: c.score for c in result.categories},
            "tests": {t.id: (t.outcome, t.score, t.follows_from, t.sentence) for t in result.tests},
            "part_e": None if part_e is None else (part_e.status, repr(part_e.tests), repr(part_e.chaffs)),
        }
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outs", nargs="+", type=Path)
    parser.add_argument("--pins", action="store_true", help="also compare scores with corpus.json")
    args = parser.parse_args()
    first, *others = [grades(out) for out in args.outs]
    differences = 0
    for out, other in zip(args.outs[1:], others):
        for student in sorted(set(first) | set(other)):
            if first.get(student) != other.get(student):
                differences += 1
                a, b = first.get(student) or {}, other.get(student) or {}
                keys = [key for key in a.keys() | b.keys() if a.get(key) != b.get(key)]
                print(f"{out}: {student} differs in {', '.join(keys)}: "
                      f"{a.get('score')} against {b.get('score')}")
    if args.pins:
        pins = json.loads((ROOT / "tests" / "submissions" / "corpus.json").read_text(encoding="utf-8"))
        for student, entry in sorted(pins.items()):
            got = first.get(student)
            if got is None or entry.get("at_most_twin"):
                continue
            if (got["score"], got["outcome"]) != (entry["score"], entry["outcome"]):
                differences += 1
                print(f"{args.outs[0]}: {student} scored {got['score']} ({got['outcome']}), pinned {entry['score']}")
    print(f"{len(first)} students in {len(args.outs)} gradings: {differences} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
