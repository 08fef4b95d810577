"""What one Part E run costs, without the sandbox: the part of a run's time that is Python's, and its page faults.

    python bench/part_e_run_cost.py [--runs 30] [--submission tests_thorough] [--implementation reference]

Builds Part E's runtime (the in-sandbox script and its pytest), sets pytest up once as the zygote does (its
_seed_unseeded, _preload and _prepare), then
forks one child per run, as the zygote does, each loading the implementation from memory (its compiled code),
hiding it, collecting and running the submission's tests. Prints the median milliseconds of loading and of
collecting plus running, and per child its minor page faults (copy-on-write copies of the zygote's pages) and
its user and system CPU. The sandbox itself (namespaces, mounts, the reset) is not here:
bench/grade_speed.py --part-e times whole runs. A script, not a test: it prints numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/corpus.py writes the corpus
sys.dont_write_bytecode = True  # as the sandbox's Python (-B): no child writes the rewritten tests' bytecode

from grader.part_e import runner  # noqa: E402
from corpus import corpus  # noqa: E402


def in_sandbox_module(runtime: Path):
    """The in-sandbox script, imported from its runtime as a module."""
    spec = importlib.util.spec_from_file_location("in_sandbox", runtime / runner.SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["in_sandbox"] = module
    spec.loader.exec_module(module)
    return module


def one_child(module, prepared, implementation, folder: Path) -> tuple[float, float, int]:
    """Fork a child that loads the implementation and runs the tests; its (load, collect and run) seconds and the
    number of tests that ran (a preparation that went wrong runs none, quickly)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 1)
            os.dup2(null, 2)
            started = time.perf_counter()
            finder = module.run_sources.Sources(folder.name, str(folder), dict(implementation.sources),
                                     dict(implementation.code))
            sys.meta_path.insert(0, finder)
            module.run_sources.load_all(finder, 1)
            module.run_sources.hide_implementation(frozenset(str(folder / name) for name in implementation.sources))
            loaded = time.perf_counter()
            prepared.recorder.fd, prepared.recorder.select_ids = null, None
            prepared.run()
            os.write(write_end, json.dumps([loaded - started, time.perf_counter() - loaded,
                                            len(prepared.recorder.phases)]).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    data = os.read(read_end, 1000)
    os.waitpid(pid, 0)
    os.close(read_end)
    load, run, tests = json.loads(data)
    return load, run, tests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--submission", default="tests_thorough", help="a corpus submission with its own tests")
    parser.add_argument("--implementation", default="reference", help="reference, wheat or a chaff's name")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="war-grader-bench-") as scratch:
        runtime = runner.make_runtime(Path(scratch) / "runtime")
        copy = Path(scratch) / "submission"
        shutil.copytree(corpus() / args.submission, copy)
        package = next(path.parent.name for path in copy.glob("*/__init__.py"))
        files = sorted(str(path.relative_to(copy)) for path in copy.rglob("test_*.py"))
        for name in [name for name in sys.modules if name == package or name.startswith(package + ".")]:
            del sys.modules[name]  # the grader's own starter: a child must import the implementation served
        module = in_sandbox_module(runtime)
        module.CHANNEL = os.open(os.devnull, os.O_WRONLY)
        module._seed_unseeded()  # as the zygote's main() does, then its preparation
        module._preload()
        _, prepared = module._prepare({"root": str(copy), "package": package, "files": files, "test_timeout": 10})
        implementation = runner.compiled(args.implementation, str(copy / package))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        times = [one_child(module, prepared, implementation, copy / package) for _ in range(args.runs)]
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    per = args.runs
    print(f"{args.submission} on {args.implementation}, {per} children forked from a prepared zygote "
          f"(its peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB):")
    print(f"  load the implementation: {statistics.median(t[0] for t in times) * 1000:.2f} ms, "
          f"collect and run the tests: {statistics.median(t[1] for t in times) * 1000:.2f} ms (medians)")
    print(f"  tests run per child: {sorted(set(t[2] for t in times))}")
    print(f"  per child: {(after.ru_minflt - before.ru_minflt) / per:.0f} minor page faults, "
          f"user {(after.ru_utime - before.ru_utime) / per * 1000:.2f} ms, "
          f"system {(after.ru_stime - before.ru_stime) / per * 1000:.2f} ms (means)")


if __name__ == "__main__":
    main()
