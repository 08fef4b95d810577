"""How long `war-grader similarity` takes for a class: the whole run (reading every submission as grading copies it,
fingerprinting, every pair, the reference, the page) for generated submissions.

    python bench/similarity_speed.py [--students 200] [--past 0]

The class is made from the hand-written honest solutions of tests/similarity_class.py, each student one of them
with names renamed their own way and functions reordered (every tenth zipped, every fifth with tests of their
own), so many pairs share code and have spans to compute: more work than an honest class. --past adds a past
class of that many students made the same way. A script, not a test: it prints numbers.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import similarity_class  # noqa: E402
from grader.similarity import similarity_run  # noqa: E402

WORDS = ("alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta")


def student_files(number: int, rng: random.Random) -> dict[str, str]:
    """One generated student: an honest solution, its own names renamed, its functions reordered."""
    bases = [*similarity_class.HONEST.values(), *similarity_class.PAST.values()]
    files = bases[number % len(bases)]
    names = {name: f"{name}_{rng.choice(WORDS)}{number}" for name in
             ("item", "card", "deck", "rules", "p1", "p2", "rounds", "wars", "winner", "queue", "stack")}
    files = {path: source for path, source in files.items()}
    for path, source in files.items():
        for old, new in names.items():
            source = source.replace(f" {old},", f" {new},").replace(f" {old})", f" {new})").replace(f"({old},",
                                                                                                    f"({new},")
        files[path] = source
    return similarity_class.reordered(files) if rng.random() < 0.5 else files


def make_class(folder: Path, students: int, seed: int) -> None:
    """students generated submissions in folder: folders, every tenth a zip, every fifth with tests of its own."""
    rng = random.Random(seed)
    for number in range(students):
        name = f"student{number:03d}"
        similarity_class.write_student(folder / name, student_files(number, rng))
        if number % 5 == 0:
            (folder / name / "tests").mkdir()
            (folder / name / "tests" / "test_own.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
        if number % 10 == 0:
            shutil.make_archive(str(folder / name), "zip", folder / name)
            shutil.rmtree(folder / name)


def main() -> None:
    """Make the class, run similarity once, print the time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--past", type=int, default=0, help="students in a past class (default none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="similarity-speed-") as scratch:
        root = Path(scratch)
        make_class(root / "class", args.students, seed=1)
        past = ()
        if args.past:
            make_class(root / "past", args.past, seed=2)
            past = (root / "past",)
        started = time.perf_counter()
        report = similarity_run(paths=[root / "class"], out=root / "out", past=past)
        took = time.perf_counter() - started
        size = (root / "out" / "similarity.json").stat().st_size
        page = (root / "out" / "similarity.html").stat().st_size
    print(f"{args.students} submissions" + (f" and a past class of {args.past}" if args.past else "")
          + f": {took:.1f} s ({len(report.students)} compared, {len(report.pairs)} pairs listed, "
          f"similarity.json {size / 1024:.0f} KiB, similarity.html {page / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
