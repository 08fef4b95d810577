"""Grade every corpus submission through the Gradescope autograder, in a container as Gradescope runs it.

    python bench/gradescope_corpus.py [--names NAME,NAME...] [--no-container]

Exports the autograder zip (`war-grader export gradescope`, with tests/data/grading-test.toml, the corpus's
settings), unpacks it into a temporary /autograder, runs its setup_python.sh (pip installs the bundled wheel and
its dependencies from the package index), then, for each submission, puts it in submission/ and runs
run_autograder under tests/container_profile.py (Docker's default profile: the uid level), as Gradescope does, one
after the other. Prints each score from results/results.json beside the corpus's pin (for an attack pinned at
most at its honest twin: beside its twin's score) and the seconds it took; exits 1 if a score differs from its pin
or an attack beats its twin. Run as root. A script, not a test: the whole corpus takes several minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "export")]

from corpus import PINS, corpus  # noqa: E402
from grader.cli import main as war_grader  # noqa: E402
from test_export_gradescope import unpack  # noqa: E402 - the tests' own unzip, which keeps each file's mode


def make_autograder(folder: Path) -> Path:
    """/autograder as Gradescope's setup leaves it: source/ unpacked, venv/ set up, run_autograder in place."""
    root = folder / "autograder"
    archive = folder / "autograder.zip"
    if war_grader(["export", "gradescope", str(archive), "--config", str(ROOT / "tests" / "data" / "grading-test.toml")]):
        sys.exit("the autograder could not be exported")
    unpack(archive, root / "source")
    subprocess.run(["bash", str(root / "source" / "setup_python.sh")], check=True, capture_output=True, timeout=600,
                   env={**os.environ, "AUTOGRADER": str(root), "PYTHON": sys.executable})
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    return root


def grade(root: Path, name: str, container: bool) -> tuple[float | None, float]:
    """The score run_autograder gives the corpus's submission name (None: no results.json), and its seconds."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    shutil.copytree(corpus() / name, root / "submission")
    (root / "results").mkdir()
    profile = [sys.executable, str(ROOT / "tests" / "container_profile.py"), "--keep", str(root.parent)] \
        if container else []
    started = time.monotonic()
    subprocess.run([*profile, str(root / "run_autograder")], cwd=root, capture_output=True, text=True, timeout=1800,
                   env={"PATH": os.environ["PATH"], "AUTOGRADER": str(root)})
    seconds = time.monotonic() - started
    results = root / "results" / "results.json"
    if not results.is_file():
        return None, seconds
    return float(json.loads(results.read_text(encoding="utf-8"))["score"]), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names", help="comma-separated corpus submissions (default: all)")
    parser.add_argument("--no-container", action="store_true", help="run run_autograder as it is, not in the profile")
    args = parser.parse_args()
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    names = args.names.split(",") if args.names else sorted(pins)
    # An attack's twin is graded first, so the attack can be compared with it.
    twins = {pins[name]["honest_twin"] for name in names if pins[name].get("honest_twin")}
    order = [name for name in names if name in twins] + [name for name in names if name not in twins]
    with tempfile.TemporaryDirectory(prefix="war-grader-gradescope-") as scratch:
        Path(scratch).chmod(0o755)
        root = make_autograder(Path(scratch))
        scores: dict[str, float | None] = {}
        wrong = 0
        for name in order:
            scores[name], seconds = grade(root, name, not args.no_container)
            entry = pins[name]
            twin = entry.get("honest_twin")
            if entry.get("at_most_twin") and twin:
                expected = scores.get(twin) if twin in scores else None
                ok = scores[name] is not None and expected is not None and scores[name] <= expected
                against = f"at most {twin}'s {expected}"
            else:
                expected = entry["score"]
                ok = scores[name] == expected
                against = f"pinned {expected}"
            wrong += not ok
            print(f"{'ok ' if ok else 'BAD'} {name}: {scores[name]} ({against}), {seconds:.1f} s", flush=True)
    print(f"{len(order)} submissions through the Gradescope autograder: {wrong} not as pinned")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
