"""Inside the sandbox: run a student's own tests against one implementation at a time (Part E).

This file runs inside the sandbox as a plain script (stdlib, plus the pytest and coverage copies in its
own folder), never imported by the grader's trusted side. It is a "zygote": it imports pytest once and
never runs student code itself. For each run the trusted side asks for, it forks a child that

- reads the implementation's sources from standard input (the zygote never holds them, so no child
  can find another implementation's code in its memory), serves them under the student's package
  name from memory, at the same paths as the student's own files,
- imports the student's tests and runs them with pytest in process, all output thrown away,
- reports each test's start and end on a pipe of its own.

The zygote alone writes to the trusted side (a copy of its original standard output, which every child
closes; standard output itself points to /dev/null), sets pytest's configuration and session up once,
rewrites the student's assertions once (pytest's rewriting is a pure transformation of the source: no
student code runs for it), enforces a deadline per test, and after a child that crashed or hung starts
another for the tests left. Between runs it kills every leftover process, restores the submission folder
and empties /tmp, so one run leaves nothing for the next.

Every run looks alike from inside. The trusted side runs the implementations in an order secret to the
student (grader/part_e/runner.py), every one of them twice, and a test is valid only if it passes on every
wheat run; a test whose outcome depends on anything but the implementation (a count of its runs, the clock)
passes on one run of some implementation and fails on another, and that flip zeroes the whole suite
(judge.py). For a test of the code alone to give the same outcome twice, `random` is seeded the same way
before collection and before every test, and a generator made without a seed (random.Random(), as in an
unseeded play_game()) starts from the same seed too (_seed_unseeded). So that a test has nothing to count with,
each child is forked with user, PID, mount, IPC and network namespaces of its own where
the level allows (bwrap and unshare here; run_world.fork_child): the child is PID 1 with parent pid 0 in every run, sees an empty /proc (the zygote's pid and
CPU time would count the runs), a fresh /tmp and /dev/shm, no System V or POSIX IPC object of an earlier
run, no socket of one (a loopback of its own, down: no port an earlier run left in TIME_WAIT), and
cannot undo any of it (its capabilities are dropped). At every level where the kernel offers Landlock, the
child restricts itself (grader/sandbox/landlock.py, from a ruleset the zygote made once) to reading the copy,
this folder and the interpreter and writing only its scratch, with no TCP, and signals and abstract sockets
kept within the run. Then it installs the system call allowlist (grader/sandbox/syscall_allowlist.py, compiled
by the trusted side; seccomp_bpf.py installs it with the child's own pid): no keyring (kernel keys outlive
every namespace), System V or POSIX IPC, socket, or call aimed at another process (the zygote's limits,
priority or affinity), and the zygote, which runs no student code, installs none, so no run can reach it.
Where the
namespaces cannot be made, the reset between runs does the cleaning; a reset that cannot remove something
stops Part E with a grader fault (Fault), never silently. The environment, argv, paths and file
descriptors are the same in every run.

The implementation's source and code cannot be fingerprinted. Hiding was chosen over varying: a per-run
salt of the code (dead instructions, renamed locals) can be stripped by a test that knows the salt's
pattern, and it costs a compile per run; hidden code gives a test nothing to strip. And a fixed
fingerprint would be learnable: each valid/invalid verdict tells the student one bit, so across
submissions a test could learn the wheats' fingerprint and then pass on exactly them. So, in every child
that runs an implementation:
- its sources never touch the sandbox's file system and, once every module is imported, the loader and the
  child's frame hold nothing of them; a module's __file__ is the student's own file, so inspect reads the
  student's source, the same in every run;
- an audit hook (which no Python code can remove) refuses, with RuntimeError, every step that reaches one of
  its code objects (a function's __code__, a frame's f_code, a traceback's or a generator's frame), every
  way to reach arbitrary objects (gc.get_objects, get_referrers, get_referents), tracing and profiling,
  ctypes (raw memory) and opening a process's memory under /proc: the refusal is the same on every
  implementation, so a test that tries learns nothing;
- its code has every line number 1, so a traceback's or a frame's line says nothing of where in the
  implementation it was;
- a per-run salt (from the submission's secret seed) allocates a few objects before each module is
  executed, so where its objects lie in memory (id()) says nothing either.
What stays readable: bytecode offsets (a traceback's tb_lasti, a frame's f_lasti reached through f_back from
a student's callback), which are fixed for an implementation; see the closing note of issue 17.

Everything a child inherits from the zygote is readable by the student's code, so what differs between a
wheat and a chaff run, the tests whose failure ends the run (a chaff caught), reaches the zygote only after
the child has started, on a line the child never sees. A child may lie on its pipe: the trusted side checks
every field against a schema and counts a lie as a crash of that run, which catches nothing and on a wheat
makes the test invalid.

Protocol (JSON lines). Trusted -> zygote: first, as the sandbox starts, {"op": "prepare", ...} (the run
command's fields: the zygote sets pytest's session up from it while the hidden suites run); then for each run
{"op": "run", ...} (see run()); after the zygote says
{"fork": true}, one line for the child: null (the student's own package) or {"sources": {"name.py": text},
"code": {"name.py": base64 of the marshalled code, compiled by the trusted side}, "magic": its bytecode's
magic number in hex}; after the zygote says
{"ready": true} (the child has read its line), {"stop_on": [test ids]}. Zygote -> trusted: {"boot": true}
once, {"fork": true} and {"ready": true} for each child, {"done": {...}} after each run.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"

# The grader's clock, copied into this folder:
from process_clock import CallClock, _stat  # type: ignore[import-not-found]  # noqa: E402
import run_session  # type: ignore[import-not-found]  # noqa: E402 - beside this script in the runtime
from run_session import DISABLED_PLUGINS, RANDOM_SEED, send  # type: ignore[import-not-found]  # noqa: E402
import run_sources  # type: ignore[import-not-found]  # noqa: E402 - beside this script in the runtime
import run_world  # type: ignore[import-not-found]  # noqa: E402 - beside this script in the runtime
from run_world import Fault  # type: ignore[import-not-found]  # noqa: E402
import seccomp_bpf  # type: ignore[import-not-found]  # noqa: E402 - grader/sandbox/seccomp_bpf.py, copied
import landlock  # type: ignore[import-not-found]  # noqa: E402 - grader/sandbox/landlock.py, copied

try:
    import coverage  # noqa: E402
except ImportError:  # pragma: no cover - the runtime always holds a copy
    coverage = None  # type: ignore[assignment]

WALL_STRETCH, WALL_SLACK = 4.0, 1.0
"""A deadline is charged in CPU seconds plus idle seconds (a busy machine costs no one a test); on the wall
clock a test may never run more than WALL_STRETCH times its deadline plus WALL_SLACK seconds (the hidden
calls' backstop, grader/sandbox/channel.py)."""

MAX_RESTARTS = 30
"""Children started for one run before the tests left are given up as crashed."""


CHANNEL = 1
"""The file descriptor to the trusted side; main() moves it off standard output, which points to /dev/null."""

RULES: int | None = None
"""The Landlock ruleset every child restricts itself to (what it may read: the copy, this folder, the interpreter),
made once by the zygote, which runs no student code and stays unrestricted (a restricted process may not mount,
and each child mounts its own /tmp); None where the kernel has no Landlock."""



def _child(command: dict[str, Any], prepared: run_session.Prepared, fd: int,
           ids: tuple[int, int] | None = None) -> None:
    """Run the tests once in this (forked) process; never returns. ids: the zygote's uid and gid, when this child
    was forked into namespaces of its own (mapped to themselves first)."""
    try:
        if not _walled_in(command, fd, ids):
            return
        _take_implementation(command, fd)
        prepared.recorder.fd = fd
        prepared.recorder.select_ids = command.get("select")
        import random  # noqa: PLC0415

        random.seed(RANDOM_SEED)  # collecting too (a test file drawing numbers at import, a parametrize): alike in every run
        _run_measured(command, prepared, fd)
    finally:
        os._exit(0)


def _walled_in(command: dict[str, Any], fd: int, ids: tuple[int, int] | None) -> bool:
    """Before anything of the run's: its own process group, its uid (the uid level) or its namespaces' ids and
    mounts, Landlock, then the system call allowlist; False, with the fault said on fd, when one could not be had."""
    os.setpgid(0, 0)
    uid = _run_uid(command)  # the uid level: the run's own uid, for good, and no capability left
    if uid is not None and not run_world.become(uid):
        send(fd, {"fault": "the run's own uid could not be taken"})
        return False
    if ids is not None:
        try:
            run_world.map_own_ids(*ids)
        except Fault as fault:
            send(fd, {"fault": str(fault)})
            return False
        if not run_world.fresh_mounts(int(command.get("scratch_bytes") or 0), bool(command.get("namespaced")),
                                      int(command.get("scratch_inodes") or 0)):
            send(fd, {"fault": "the run's own /tmp, /dev/shm and /proc could not be mounted"})
            return False
    if RULES is not None:  # Landlock before seccomp: the filter need not allow its calls
        try:  # the scratch is added here: at bwrap and unshare it is the run's own /tmp, mounted just now
            landlock.enforce(RULES, write=[command["scratch"]] if command.get("scratch") else [])
        except OSError as error:
            send(fd, {"fault": f"Landlock could not be applied ({error})"})
            return False
    try:  # each run installs its own, with its own pid: the zygote has none, so no run can reach it
        if not seccomp_bpf.install_allowlist():
            send(fd, {"fault": "the system call allowlist is missing from the runtime"})
            return False
    except OSError:
        send(fd, {"fault": "the system call allowlist could not be installed"})
        return False
    return True


def _take_implementation(command: dict[str, Any], fd: int) -> None:
    """Read the run's line from standard input, say ready, leave standard input, output and the trusted side's
    channel, then load the implementation it names (none: the student's own package) and hide it. Its sources and
    code live in this function's frame alone, gone when it returns."""
    line = sys.stdin.buffer.readline()
    payload: Any = json.loads(line) if line.strip() else None
    sources = payload.get("sources") if isinstance(payload, dict) else None
    code: dict[str, Any] = {}  # without code compiled by this very Python, the sources are compiled here
    if isinstance(payload, dict) and isinstance(payload.get("code"), dict) and payload.get("magic") == run_sources.magic():
        code = payload["code"]
    send(fd, {"ready": True})  # standard input is the zygote's again
    null = os.open(os.devnull, os.O_RDWR)
    for target in (0, 1, 2):
        os.dup2(null, target)
    if CHANNEL > 2:
        os.close(CHANNEL)  # only the zygote speaks to the trusted side
    if isinstance(sources, dict):
        root, package = command["root"], command["package"]
        folder = os.path.join(root, package)
        finder = run_sources.Sources(package, folder, sources, code)
        sys.meta_path.insert(0, finder)
        salt = payload.get("salt") if type(payload.get("salt")) is int else 0
        files = frozenset(os.path.join(folder, name) for name in sources)
        run_sources.load_all(finder, salt)
        del payload, sources, code, line, finder  # nothing of the sources left in this frame
        run_sources.hide_implementation(files)


def _run_measured(command: dict[str, Any], prepared: run_session.Prepared, fd: int) -> None:
    """The prepared session's run; for the student's own package, with the lines of the package it ran."""
    measure = None
    root, package = command["root"], command["package"]
    if command.get("coverage") and coverage is not None:
        measure = coverage.Coverage(data_file=None, include=[os.path.join(root, package, "*")],
                                    config_file=False)
        measure.start()
    prepared.run()
    if measure is not None:
        measure.stop()
        data = measure.get_data()
        executed = {os.path.relpath(path, root): sorted(data.lines(path) or [])
                    for path in data.measured_files()}
        send(fd, {"coverage": executed})


# -- the zygote ----------------------------------------------------------------------------------------

def _cpu(pid: int) -> float:
    stat = _stat(pid)
    return stat[0] if stat is not None else 0.0


def _seconds(table: Any, key: str, default: float) -> float:
    value = table.get(key) if isinstance(table, dict) else None
    return float(value) if isinstance(value, (int, float)) and value > 0 else default



def _one_child(command: dict[str, Any], prepared: run_session.Prepared, select_ids: list[str] | None,
               results: dict[str, Any], found: dict[str, Any], children: list[int]) -> str | None:
    """Fork one child for the tests in select_ids (None: all); the test it died in, "caught" when a test of
    the run's stop set failed (the child is killed: nothing it could still do counts), or None. The child is
    killed (or has ended) on return, appended to children and left for _finish to reap. At every level where
    namespaces work the child is PID 1 of its own, its parent pid 0, whatever run it is (run_world.fork_child);
    elsewhere its parent is the zygote, the same in every run."""
    read_end, write_end = os.pipe()
    ids = (os.getuid(), os.getgid())
    send(CHANNEL, {"fork": True})
    pid, reaped, isolated = run_world.fork_child()
    if pid == 0:
        os.close(read_end)
        _child({**command, "select": select_ids}, prepared, write_end, ids if isolated else None)
    os.close(write_end)
    watch = _Watch(command, pid, select_ids, results, found)
    buffer = b""
    stopped: str | None = None
    while stopped is None:
        left = watch.deadline - time.monotonic()
        ready = select.select([read_end], [], [], max(left, 0))[0] if left > 0 else []
        if not ready:
            stopped = "timeout" if watch.out_of_time() else None
            continue
        chunk = os.read(read_end, 65536)
        if not chunk:
            stopped = "crash" if watch.running else "ended"
            break
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if isinstance(message, dict):
                stopped = watch.heard(message)
                if stopped is not None:
                    break
    if stopped in ("timeout", "caught", "done") and pid > 0:
        _stop(pid, _run_uid(command))
    os.close(read_end)
    children.append(reaped)
    if stopped == "caught":
        return "caught"
    running, started = watch.running, watch.started
    if running is not None and running not in results:
        results[running] = {"outcome": "timeout" if stopped == "timeout" else "crash",
                            "seconds": round(time.monotonic() - started, 4)}
        return running
    if stopped == "timeout" and running is None and "collected" not in found:
        found["collect_timeout"] = True
    return None


class _Watch:
    """One child's run as its messages tell it: the test running, its deadline (charged as CPU plus idle time, see
    CallClock), the outcomes into results and what was collected into found; made after the fork, so no child
    inherits it."""

    def __init__(self, command: dict[str, Any], pid: int, select_ids: list[str] | None, results: dict[str, Any],
                 found: dict[str, Any]) -> None:
        self.pid, self.results, self.found = pid, results, found
        self.limits = command.get("deadlines")
        self.default = float(command["test_timeout"])
        self.started = time.monotonic()
        # importing the tests; between two tests; the run's end
        self.gap = float(command.get("import_timeout") or self.default)
        self.limit, self.clock = self.gap, CallClock(pid, 0.0)  # a new process has used no CPU yet
        self.deadline = self.started + self.limit
        self.running: str | None = None
        self.stop_on: set[str] | None = None
        # The selected tests not ended yet; None: the run ends with the child (every test, or the own run's coverage).
        self.pending = None if select_ids is None or command.get("coverage") else \
            {test for test in select_ids if test not in results}
        self.mark = 0.0  # the child's CPU seconds when the running test started (about: at the end of the one before)

    def out_of_time(self) -> bool:
        """At the deadline: whether the running test (or the gap) has been charged its limit; if not (the machine
        was busy), the deadline moves to when it could be."""
        charged = self.clock.charged()
        if charged < self.limit and self.clock.wall() < self.limit * WALL_STRETCH + WALL_SLACK:
            self.deadline = time.monotonic() + max(self.limit - charged, 0.01)
            return False
        return True

    def heard(self, message: dict[str, Any]) -> str | None:
        """Take one message of the child's: "caught" or "done" when the run is over, else None."""
        pid, results, found = self.pid, self.results, self.found
        if "fault" in message and self.stop_on is None:  # before "ready": no student code has run yet
            raise Fault(f"a run could not be set up: {str(message['fault'])[:200]}")
        if "ready" in message and self.stop_on is None:
            # the child has read its sources: standard input holds nothing more for it
            send(CHANNEL, {"ready": True})
            line = sys.stdin.buffer.readline()
            answer = json.loads(line) if line.strip() else {}
            self.stop_on = {str(test) for test in answer.get("stop_on") or ()} if isinstance(answer, dict) else set()
        elif "start" in message:
            self.running = str(message["start"])
            self.started = time.monotonic()
            self.limit, self.clock = _seconds(self.limits, self.running, self.default), CallClock(pid, self.mark)
            self.deadline = self.started + self.limit
        elif "end" in message:
            test = str(message["end"])
            if test not in results:
                results[test] = {key: message.get(key) for key in ("outcome", "exception", "file", "line")}
                if test == self.running:
                    results[test]["seconds"] = round(time.monotonic() - self.started, 4)
            self.running = None
            self.mark = _cpu(pid)  # where the gap's clock, and the next test's, start
            self.limit, self.clock = self.gap, CallClock(pid, self.mark)
            self.deadline = time.monotonic() + self.limit
            if self.stop_on and test in self.stop_on and results[test].get("outcome") == "failed":
                return "caught"
            if self.pending is not None:
                self.pending.discard(test)
                if not self.pending:  # every test has ended: what the child still does (pytest's finish) counts
                    return "done"  # for nothing, so it is not waited for
        elif "collected" in message and "collected" not in found and isinstance(message["collected"], list):
            found["collected"] = [str(test) for test in message["collected"]]
            found["import_seconds"] = round(time.monotonic() - self.started, 4)
            self.mark = _cpu(pid)
        elif "collect_error" in message:
            found.setdefault("collect_errors", []).append(str(message["collect_error"]))
        elif "coverage" in message and isinstance(message["coverage"], dict):
            found["coverage"] = message["coverage"]
        return None


def run(command: dict[str, Any], snapshot: dict[str, bytes], prepared: run_session.Prepared,
        children: list[int]) -> dict[str, Any]:
    """One implementation: every selected test's outcome (each with its seconds), restarting after a test that
    crashed or hung, ending at the first failure of a test in the stop set. The last child is killed but not yet
    reaped (it is in children): the caller sends the results first, then calls _finish, so the kernel
    tears the child down while the trusted side reads them."""
    results: dict[str, Any] = {}
    found: dict[str, Any] = {}
    wanted = command.get("select")
    for _ in range(MAX_RESTARTS):
        left = None if wanted is None and "collected" not in found else [
            test for test in (wanted if wanted is not None else found["collected"]) if test not in results]
        if left == []:
            break
        _finish(command, snapshot, children)
        died_in = _one_child(command, prepared, left, results, found, children)
        if died_in is None or died_in == "caught":
            break
    return {"results": results, **found}


def _finish(command: dict[str, Any], snapshot: dict[str, bytes], children: list[int]) -> None:
    """After a child: reap it (it was killed or has ended), then reset the sandbox; nothing
    to do when no child has run since the last reset."""
    if not children:
        return
    while children:
        try:
            os.waitpid(children.pop(), 0)
        except ChildProcessError:
            pass
    run_world.reset(command["root"], snapshot, bool(command.get("sweep")), bool(command.get("private_tmp")),
                    _run_uid(command), str(command.get("scratch") or "") if RULES is not None else "")


def _stop(pid: int, run_uid: int | None) -> None:
    """SIGKILL a run's child and its process group: as this zygote, then (at the uid level) as the run's uid, which
    the child may have taken since (a signal sent before it did is delivered all the same)."""
    for who in dict.fromkeys((None, run_uid)):
        for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                run_world.as_uid(who, target)
            except (ProcessLookupError, PermissionError):
                pass


def _run_uid(command: dict[str, Any]) -> int | None:
    """The uid of this run at the uid level (the trusted side's choice), or None."""
    uid = command.get("run_uid")
    return uid if type(uid) is int and uid > 0 else None


def _seed_unseeded() -> None:
    """Make random.Random's seed(None) use RANDOM_SEED, not os.urandom (as the hidden suites' worker does): an
    unseeded play_game() in a test, or a generator an implementation makes at import, draws the same numbers
    in every run, so a test of the code alone gets the same outcome on every run of an implementation."""
    import random  # noqa: PLC0415

    original = random.Random.seed

    def seed(self: Any, a: Any = None, version: int = 2) -> Any:
        return original(self, RANDOM_SEED if a is None else a, version)

    random.Random.seed = seed  # type: ignore[method-assign]
    random.seed = random._inst.seed  # type: ignore[attr-defined]  # the module's seed() was bound to the old one


def _preload() -> None:
    """Import every pytest plugin module now, compile the starter's dataclass code (run_sources.serve_dataclass_code) and
    freeze the heap, so each forked run starts fast."""
    import gc  # noqa: PLC0415
    import importlib  # noqa: PLC0415

    from _pytest.config import default_plugins  # noqa: PLC0415

    for name in default_plugins:
        if name not in DISABLED_PLUGINS:
            try:
                importlib.import_module(f"_pytest.{name}")
            except ImportError:
                pass
    run_sources.serve_dataclass_code(os.path.join(HERE, "dataclass_texts.json"))
    if coverage is not None:
        # coverage's Collector notes where it was started from (inspect.stack()), and inspect finds the file of
        # every module loaded (a realpath each, about 25 ms) once per process: once here, not in the own run's child
        import inspect  # noqa: PLC0415

        inspect.getmodule(sys._getframe())
    gc.collect()
    gc.freeze()


def _prepare(command: dict[str, Any]) -> tuple[dict[str, bytes], run_session.Prepared]:
    """The submission copy's snapshot (what every reset restores) and pytest's prepared session, then the heap
    frozen again: the session's objects (its plugins, nodes, the rewritten test code) join the permanent
    generation, so no child's garbage collection walks them (each walk writes to every object it visits, and each
    write copies a page of the zygote's memory)."""
    import gc  # noqa: PLC0415

    snapshot = run_world.snapshot(command["root"])
    prepared = run_session.Prepared(command)
    gc.collect()
    gc.freeze()
    return snapshot, prepared


def main() -> None:
    """Read commands until standard input closes: a "prepare" line (sent as the sandbox starts, so the session is
    set up while the hidden suites run), then one "run" line per run."""
    _seed_unseeded()
    _preload()
    try:  # no process of the same uid may read this one's memory or file descriptors
        import ctypes  # noqa: PLC0415

        ctypes.CDLL(None).prctl(run_world.PR_SET_DUMPABLE, 0, 0, 0, 0)
        # What a run's processes leave running when their parent dies comes here, not to the machine's init, so
        # the reset reaps it (no zombie of a run's uid outlives the run)
        run_world.SUBREAPER = ctypes.CDLL(None).prctl(run_world.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        pass
    snapshot: dict[str, bytes] | None = None
    prepared: run_session.Prepared | None = None
    global CHANNEL, RULES
    CHANNEL = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)  # what pytest writes while it is set up goes nowhere, never to the trusted side
    os.close(null)
    send(CHANNEL, {"boot": True})
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return
        command = json.loads(line)
        if snapshot is None or prepared is None:
            snapshot, prepared = _prepare(command)
            try:
                RULES = landlock.student_ruleset(package=command["root"], runtime=HERE)
            except OSError as error:
                send(CHANNEL, {"fault": f"the runs' Landlock rules could not be made ({error})"})
                return
        if command.get("op") == "prepare":
            continue
        children: list[int] = []
        try:  # no local keeps a run's results: the next run's child could read them in this frame
            send(CHANNEL, {"done": run(command, snapshot, prepared, children)})
            _finish(command, snapshot, children)  # before the next command is read, as before every child
        except Fault as fault:
            send(CHANNEL, {"fault": str(fault)})
            return


if __name__ == "__main__":
    main()
