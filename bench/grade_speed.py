"""How fast war-grader grades: submissions per second for a class of correct submissions, and the
per-submission cost beside the floor (the same hidden suites run against the reference in process, in a run
forked from the same suite server).

    python bench/grade_speed.py [--students 400] [--jobs 2] [--corpus] [--part-e [thorough|weak]] [--walls off]
                                [--sandbox auto|bwrap|unshare|uid]

--corpus also grades one copy of the corpus as tests/corpus.py writes it (hostile ones included) and prints each
one's time.
--part-e gives every student a Part E suite, the thorough one (tests_thorough instead of perfect: it catches
every chaff, so every chaff runs twice) or with `--part-e weak` the weak one (tests_weak: its Joker tests catch
2 chaffs, and every other chaff runs once), and prints the median time of Part E alone: compare with a run
without it for the time Part E adds per submission.
--walls off grades with the walls of issue 25 taken down, to measure what they cost side by side: the system
call allowlist becomes a one-instruction filter that allows everything (installed as often as the real one),
Landlock is never applied, and Part E's runs and repaired calls get no network namespace of their own. It edits
the runtime this process builds, never grader/: a class graded so is not graded safely.
A script, not a test: it prints numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/corpus.py writes the corpus

from grader.batch import grade  # noqa: E402
from grader.grading.harness import RESULTS_VARIABLE, SPEC_VARIABLE  # noqa: E402
from grader.grading.run_settings import RunSettings  # noqa: E402
from grader.grading.runner import SuiteServer, pytest_args, pytest_env  # noqa: E402
from grader.limits import TimeLimits  # noqa: E402
from grader.chaffs import CHAFFS  # noqa: E402
from grader.part_e.runner import CHAFF_RUNS, WHEAT_RUNS  # noqa: E402
from corpus import corpus as written_corpus  # noqa: E402

PART_E_RUNS = 1 + CHAFF_RUNS * len(CHAFFS) + sum(WHEAT_RUNS.values())
"""The most runs of one submission: the student's own package, each chaff CHAFF_RUNS times and each wheat
WHEAT_RUNS times (a chaff that no test failed on its first run is not run again)."""

SUITES = {"thorough": "tests_thorough", "weak": "tests_weak"}
"""--part-e's suites: the corpus submission each student is a copy of."""


ALLOW_ALL = struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000)
"""BPF_RET | BPF_K, SECCOMP_RET_ALLOW: the cheapest filter there is."""

NO_LANDLOCK = ("def abi():\n    return 0\n\ndef confine(**_):\n    pass\n\n"
               "def student_ruleset(**_):\n    return None\n\ndef enforce(*_, **__):\n    pass\n")
"""A landlock.py that restricts nothing."""


def take_walls_down() -> None:
    """Make every runtime this process builds from now on carry the walls' stand-ins (see --walls)."""
    import grader.part_e.runner as part_e_runner  # noqa: PLC0415
    import grader.sandbox.isolation as isolation  # noqa: PLC0415

    def add_nothing(folder: Path) -> None:
        (folder / "syscall_allowlist.bpf").write_bytes(ALLOW_ALL)
        (folder / "landlock.py").write_text(NO_LANDLOCK)
        namespaces = "NAMESPACES = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC"  # run_world.py's
        for script, real, stand_in in (
                ("repair_server.py", "libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0", "False"),
                ("run_world.py", f"{namespaces} | CLONE_NEWNET\n", f"{namespaces}\n")):
            path = folder / script
            if path.is_file():
                text = path.read_text()
                assert real in text, f"{script} changed: --walls off no longer knows how to take its namespace down"
                path.write_text(text.replace(real, stand_in))

    isolation.add_allowlist = add_nothing
    part_e_runner.add_allowlist = add_nothing


def floor_seconds(runs: int) -> float:
    """Median seconds of one run of the hidden suites against the reference in process: the same suite server
    and forked run as a submission gets, without its sandbox and worker."""
    times = []
    with tempfile.TemporaryDirectory() as scratch:
        settings = Path(scratch) / "settings.json"
        RunSettings(None, TimeLimits(call_timeout=10, game_timeout=60, submission_timeout=600, max_timeouts=5,
                                     deadline_multiple=20, deadline_floor=0.5),
                    deadlines=False, in_process="reference").write(settings)
        server = SuiteServer(pytest_args("--timeout=600"))
        server.start()
        try:
            env = pytest_env(**{SPEC_VARIABLE: str(settings), RESULTS_VARIABLE: str(Path(scratch) / "out.json")})
            for _ in range(runs):
                started = time.perf_counter()
                assert server.run(env, 600) is not None
                times.append(time.perf_counter() - started)
        finally:
            server.close()
        recorded = json.loads((Path(scratch) / "out.json").read_text())
        assert all(test["outcome"] == "passed" for test in recorded["tests"].values())
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=400, help="copies of the correct submission (400)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--corpus", action="store_true", help="also time one copy of the whole corpus")
    parser.add_argument("--part-e", nargs="?", const="thorough", choices=sorted(SUITES), default=None,
                        help="each student carries Part E tests: the thorough suite (the default) or the weak one")
    parser.add_argument("--walls", choices=("on", "off"), default="on",
                        help="off: no allowlist, Landlock or per-run network namespace, to measure their cost")
    parser.add_argument("--sandbox", choices=("auto", "bwrap", "unshare", "uid"), default=None,
                        help="the sandbox level (default: grading.toml's, auto)")
    args = parser.parse_args()
    if args.walls == "off":
        take_walls_down()

    with tempfile.TemporaryDirectory(prefix="war-grader-bench-") as scratch:
        klass = Path(scratch) / "class"
        for index in range(args.students):
            shutil.copytree(written_corpus() / (SUITES[args.part_e] if args.part_e else "perfect"),
                            klass / f"student{index:04d}")
        if args.sandbox == "uid":  # the uid level's sandboxes must reach the class through its parents
            for folder in (Path(scratch), klass):
                folder.chmod(0o755)
        started = time.perf_counter()
        results = grade(paths=[klass], out=Path(scratch) / "out", jobs=args.jobs, sandbox=args.sandbox)
        elapsed = time.perf_counter() - started
        assert all(category.score == category.max_score for result in results for category in result.categories
                   if args.part_e == "thorough" or category.id != "student_tests")
        per = statistics.median(result.execution_time for result in results)
        print(f"{args.students} correct submissions, --jobs {args.jobs}: {elapsed:.1f} s in all, "
              f"{args.students / elapsed:.2f} submissions/s")
        print(f"per submission (median, wall, inside its slot): {per:.3f} s "
              f"(sandbox level {results[0].sandbox}, walls {args.walls})")
        part_e = statistics.median(result.timings.get("student_tests", 0.0) for result in results)
        print(f"of which Part E (the {args.part_e} suite, at most {PART_E_RUNS} runs), median: {part_e:.3f} s"
              if args.part_e else "without Part E tests (perfect has none; add --part-e to time them)")
        if args.corpus:
            started = time.perf_counter()
            corpus = grade(paths=[written_corpus()], out=Path(scratch) / "corpus", jobs=args.jobs)
            print(f"corpus of {len(corpus)} (hostile included): {time.perf_counter() - started:.1f} s")
            for result in sorted(corpus, key=lambda r: -r.execution_time):
                print(f"  {result.student:<30} {result.execution_time:6.1f} s  score {result.score:g}  "
                      f"{result.outcome}")
    floor = floor_seconds(5)
    print(f"floor: the hidden suites in process against the reference: {floor:.3f} s per run "
          f"(forked from a warm suite server, as a submission's run is; median of 5)")


if __name__ == "__main__":
    main()
