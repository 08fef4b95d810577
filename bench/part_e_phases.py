"""Where one submission's Part E time goes, end to end: wall and CPU (the trusted side's, the sandbox tree's), runs.

    python bench/part_e_phases.py [--level bwrap|unshare|uid] [--suite thorough|weak] [--rounds 10] [--walls off]
                                  [--json]

Grades Part E alone (no hidden suites), round after round, on a fresh copy of tests_thorough or tests_weak: the
sandbox is started and left to boot and set pytest's session up (as it does while the hidden suites run), then
StudentTests.grade() is timed as grader/grading/runner.py times it. Per round: the wall seconds of grade(), the
CPU seconds the trusted process used during it, the CPU seconds of the sandbox's whole process tree during it
(every run's child included, once reaped), the number of runs and the trusted side's seconds outside
Session.run (ordering, checking, judging). CPU figures hold on a busy machine, where wall ones do not: compare
two versions in interleaved rounds. --walls off takes issue 25's walls down as bench/grade_speed.py --walls off
does (no allowlist, no Landlock, no network namespace a run), to measure what they cost a run. A script, not a test: it prints numbers (medians; --json: one line).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/corpus.py writes the corpus

from grader.config import load_config  # noqa: E402
from grader.part_e import runner, session as session_module  # noqa: E402
from grader.sandbox.process_clock import tree_usage  # noqa: E402
from grader.submissions import Submission, prepare  # noqa: E402
from corpus import corpus as written_corpus  # noqa: E402

SUITES = {"thorough": "tests_thorough", "weak": "tests_weak"}


def one_round(scratch: Path, index: int, suite: str, level: str, runtime: Path) -> dict[str, float]:
    """Part E of one fresh copy of the suite's submission: its figures."""
    into = scratch / f"sub{index}"
    into.mkdir(mode=0o711)
    copy = prepare(Submission(SUITES[suite], written_corpus() / SUITES[suite]), into / "copy")
    config = load_config(overrides={"sandbox.level": level})
    in_runs = [0.0, 0]
    original = session_module.Session.run

    def timed(self, command, child, stop_on):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        try:
            return original(self, command, child, stop_on)
        finally:
            in_runs[0] += time.perf_counter() - started
            in_runs[1] += 1

    student_tests = runner.open_student_tests(root=copy.root, package=copy.package, tests=copy.tests,
                                              package_files=copy.files, runtime=runtime, config=config, slot=0,
                                              level=level)
    try:
        assert student_tests.session is not None and student_tests.session.process is not None
        time.sleep(1.5)  # the hidden suites' time: the sandbox boots and prepares meanwhile
        pid = student_tests.session.process.pid
        before_tree = tree_usage(pid)
        before_self = resource.getrusage(resource.RUSAGE_SELF)
        session_module.Session.run = timed  # type: ignore[method-assign]
        started = time.perf_counter()
        result = student_tests.grade()
        wall = time.perf_counter() - started
        session_module.Session.run = original  # type: ignore[method-assign]
        after_self = resource.getrusage(resource.RUSAGE_SELF)
        time.sleep(0.05)  # the last run's child torn down and reaped
        after_tree = tree_usage(pid)
    finally:
        session_module.Session.run = original  # type: ignore[method-assign]
        student_tests.close()
    assert result.status != "not_run", result
    return {"wall": wall,
            "trusted_cpu": (after_self.ru_utime - before_self.ru_utime) + (after_self.ru_stime - before_self.ru_stime),
            "tree_cpu": (after_tree[0] if after_tree else 0.0) - (before_tree[0] if before_tree else 0.0),
            "runs": in_runs[1], "outside_runs": wall - in_runs[0],
            "score": sum(s.score for s in result.scenarios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="bwrap", choices=("bwrap", "unshare", "uid"))
    parser.add_argument("--suite", default="thorough", choices=sorted(SUITES))
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--walls", choices=("on", "off"), default="on",
                        help="off: no allowlist, Landlock or per-run network namespace, to measure their cost")
    parser.add_argument("--json", action="store_true", help="one JSON line of medians")
    args = parser.parse_args()
    if args.walls == "off":
        sys.path.insert(0, str(ROOT / "bench"))
        from grade_speed import take_walls_down  # noqa: PLC0415

        take_walls_down()
    with tempfile.TemporaryDirectory(prefix="war-grader-phases-") as scratch:
        Path(scratch).chmod(0o711)
        runtime = runner.make_runtime(Path(scratch) / "runtime")
        rounds = [one_round(Path(scratch), index, args.suite, args.level, runtime) for index in range(args.rounds)]
    medians = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    if args.json:
        print(json.dumps({"level": args.level, "suite": args.suite, "walls": args.walls, **{k: round(v, 4) for k, v in medians.items()}}))
        return
    print(f"Part E of {SUITES[args.suite]} at {args.level}, walls {args.walls}, {args.rounds} rounds (medians): "
          f"wall {medians['wall']:.3f} s, trusted CPU {medians['trusted_cpu']:.3f} s, sandbox tree CPU "
          f"{medians['tree_cpu']:.3f} s, {medians['runs']:.0f} runs, outside runs {medians['outside_runs']:.3f} s, "
          f"score {medians['score']:g}")


if __name__ == "__main__":
    main()
