"""What each wall of a Part E run costs its child, one at a time: namespaces, the network namespace, Landlock, the allowlist.

    python bench/walls_per_run.py [--children 60] [--repeats 3]

Builds Part E's runtime and, from a process that is not root (run as root, it measures as nobody, as the zygote
runs as a sandbox uid: root may not map itself into a user namespace of its own), forks children the way the
zygote forks a run's child (run_world.fork_child), each setting up one more wall than
the last case: a plain fork; user, PID, mount and IPC namespaces with the run's fresh mounts; the same with a
network namespace; then Landlock (the runs' ruleset, enforced); then the system call allowlist installed. Each
child then does the same small work (stat and read 150 of pytest's files four times, as a run reads the runtime)
and exits. Prints, per case, the median over --repeats of the CPU milliseconds per child (the child's and this
process's: the fork and the namespaces are partly the parent's) and of the wall milliseconds. The kernel's own
clean-up of a network namespace runs later in a kernel thread and is in neither figure.
bench/part_e_phases.py --walls off measures the walls together, on whole runs. A script, not a test: it prints
numbers.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.part_e import runner  # noqa: E402


def cases(run_world: Any) -> tuple[tuple[str, int, bool, bool], ...]:
    """Each case: its name, the namespaces of the fork (run_world's own, with and without the network's), whether
    Landlock is enforced, whether the allowlist is."""
    every = run_world.NAMESPACES
    without_net = every & ~run_world.CLONE_NEWNET
    return (("a plain fork", 0, False, False),
            ("+ user, PID, mount, IPC namespaces, fresh mounts", without_net, False, False),
            ("+ a network namespace", every, False, False),
            ("+ Landlock", every, True, False),
            ("+ the system call allowlist", every, True, True))


def one_case(modules: dict, namespaces: int, landlock_on: bool, allowlist_on: bool, children: int,
             places: dict[str, str], files: list[str]) -> tuple[float, float]:
    """(CPU ms, wall ms) per child of one case."""
    run_world, landlock, seccomp_bpf = modules["run_world"], modules["landlock"], modules["seccomp_bpf"]
    run_world.NAMESPACES = namespaces
    before_children, before_self = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    rules = landlock.student_ruleset(package=places["package"], runtime=places["runtime"]) if landlock_on else None
    started = time.perf_counter()  # the ruleset is made once, as the zygote makes it
    for _ in range(children):
        pid, _, isolated = run_world.fork_child() if namespaces else (os.fork(), 0, False)
        if pid == 0:
            status = 1
            try:
                if isolated:
                    run_world.map_own_ids(os.getuid(), os.getgid())
                    run_world.fresh_mounts(1 << 24, True, 10_000)
                if rules is not None:
                    landlock.enforce(rules, write=[places["scratch"]])
                if allowlist_on:
                    seccomp_bpf.install_allowlist()
                for _ in range(4):
                    for path in files:
                        os.stat(path)
                        with open(path, "rb") as handle:
                            handle.read(100)
                status = 0
            except BaseException as error:  # noqa: BLE001 - said, and the case stops
                os.write(2, f"{error!r}\n".encode())
            finally:
                os._exit(status)
        _, status = os.waitpid(pid, 0)
        if status != 0:
            sys.exit(f"walls_per_run.py: a child of the case failed (wait status {status})")
    wall = time.perf_counter() - started
    if rules is not None:
        os.close(rules)
    after_children, after_self = resource.getrusage(resource.RUSAGE_CHILDREN), resource.getrusage(resource.RUSAGE_SELF)
    cpu = sum(getattr(after, field) - getattr(before, field)
              for after, before in ((after_children, before_children), (after_self, before_self))
              for field in ("ru_utime", "ru_stime"))
    return cpu / children * 1000, wall / children * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--children", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    # Not under /tmp: a run's fresh mounts put an empty /tmp (and /dev/shm) over the sandbox's.
    with tempfile.TemporaryDirectory(prefix="war-grader-walls-", dir="/var/tmp") as scratch:
        runtime = runner.make_runtime(Path(scratch) / "runtime")
        places = {"runtime": str(runtime), "package": tempfile.mkdtemp(dir=scratch),
                  "scratch": tempfile.mkdtemp(dir=scratch)}
        for folder in (scratch, places["package"], places["scratch"]):
            os.chmod(folder, 0o777 if folder == places["scratch"] else 0o755)
        sys.path.insert(0, str(runtime))
        modules = {name: __import__(name) for name in ("run_world", "landlock", "seccomp_bpf")}
        plan = cases(modules["run_world"])  # before one_case sets run_world.NAMESPACES
        files = sorted(str(path) for path in (runtime / "_pytest").rglob("*.py"))[:150]
        measurer = os.fork()
        if measurer == 0:
            try:
                if os.geteuid() == 0:
                    os.setgroups([])
                    os.setgid(NOBODY)
                    os.setuid(NOBODY)
                one_case(modules, 0, False, False, args.children, places, files)  # warm: the files in the page cache
                print(f"{args.children} children a case, median of {args.repeats} (per child):", flush=True)
                for name, namespaces, landlock_on, allowlist_on in plan:
                    figures = [one_case(modules, namespaces, landlock_on, allowlist_on, args.children, places, files)
                               for _ in range(args.repeats)]
                    print(f"  {name:50s} CPU {statistics.median(f[0] for f in figures):5.2f} ms, "
                          f"wall {statistics.median(f[1] for f in figures):5.2f} ms", flush=True)
            finally:
                sys.stdout.flush()
                os._exit(0)
        os.waitpid(measurer, 0)


NOBODY = 65534
"""The uid and gid the figures are measured as when this script runs as root."""


if __name__ == "__main__":
    main()
