"""The channel census at one sandbox level: two students' worker runs and Part E runs, each looking for what the
runs before it left (a helper module and a script, not a test module; tests/sandbox/test_channel_census.py runs it).

    python tests/channel_census.py LEVEL TOKEN      # prints {channel: [one sentence per finding]} as JSON

tests/census_probe.py is the probe (run as student code); this module puts it in submissions and reads what it
reports. The order, at one level, with one uid slot (so a later student gets the uid an earlier one had):
  1. student A's hidden-suites worker: looks, then marks ("worker-a");
  2. while it still runs, student C's worker in another job slot (another uid) looks for its marks, then marks
     ("worker-c"): a student graded at the same time;
  3. A's worker restarted (a later run of the same student's worker): looks, then marks ("worker-a2");
  4. student A's Part E: every run of its tests looks, then marks ("tests-a"): the student's own package, the
     reference, the reference again and the second wheat (the chaffs' runs are left out here: they are more of
     the same runs, and each census run walks the whole file system);
  5. student B's worker in the same slot: looks for every mark of A, then marks ("worker-b");
  6. student B's Part E: its first run looks for every mark of A (it also marks, "tests-b").
What a worker run found comes back as the value of the call (the probe is ours: its answer is read as data, never
run); what a Part E run found comes back only as its tests' outcomes (one test per channel) through Part E's own
checked report: a census test that fails on the student's own package means that first run found a mark or
reached another process, and one that is invalid means a later run did.
The uid level runs under tests/container_profile.py (Docker's default profile, as on Gradescope) when this
script is started so by the test.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
PROBE = HERE / "census_probe.py"

sys.path[:0] = [str(HERE), str(PROJECT)]

from census_probe import CHANNELS, PREFIX  # noqa: E402
from corpus import corpus  # noqa: E402

CALL_SECONDS = 120.0
"""A census call's deadline: one walks the whole file system visible to the run, which takes seconds."""

DAEMON_SECONDS = 90
"""How long a process a census run leaves behind lives, unless the sandbox ends it sooner."""

SLOT = 7
"""The job slot of both students (their workers share its uid, their Part E sandboxes the slot's Part E uid); the
one sandbox_probe.probe_client gives its workers."""

ORIGINS = ("worker-a", "worker-c", "worker-a2", "tests-a", "worker-b", "tests-b", "gradescope-a", "gradescope-b")
"""Every origin a census marks as (the Gradescope level's students are graded whole: their worker and Part E
mark as one origin each, "-worker" and "-tests" appended)."""

PYTHON_CHOICE = '''
def _in_process(path, config):
    """The probe's report, run in this process (its module loaded from path, not imported by name)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("census_probe_here", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.census(config)


def _python():
    """An interpreter this process may start: its own, unless the sandbox hides its path (bwrap binds only its
    folder, under a /root it cannot enter), else the system's."""
    import os, sys
    for path in (sys.executable, "/usr/bin/python3", "/usr/local/bin/python3"):
        if path and os.access(path, os.X_OK):
            return path
    return sys.executable

'''
"""Defined in every census submission: the interpreter that runs the probe."""

WORKER_PACKAGE = PYTHON_CHOICE + '''
def shuffle(deck, seed=None):
    """The census's worker entry: deck[0] is the probe's configuration; the answer is what it found and reached."""
    import json, os, subprocess, sys
    config = json.loads(deck[0])
    config["run_root"] = os.getpid()
    probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "census_probe.py")
    try:
        done = subprocess.run([_python(), "-I", "-S", probe, json.dumps(config)], capture_output=True, text=True,
                              timeout=300)
        report = json.loads(done.stdout)
    except PermissionError:  # Landlock: no program may be executed, so the probe runs in this process
        report = _in_process(probe, config)
    except ValueError:
        return "the probe failed: " + done.stderr[-400:]
    return json.dumps({part: {channel: [item[:120] for item in items[:2]] for channel, items in report[part].items()
                              if items} for part in ("found", "reached")})
'''
"""A "submission" whose shuffle() runs the census probe beside it (as the package's code, in the worker)."""

CENSUS_TESTS_HEAD = '''
import json
import os
import subprocess
import sys

_CONFIG = json.loads({config!r})
_PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "census_probe.py")
_REPORTS = []
''' + PYTHON_CHOICE + '''

def _census():
    """Look, then mark, once per run (the first census test of the run starts it); what the probe said."""
    if not _REPORTS:
        config = dict(_CONFIG, run_root=os.getpid())
        try:
            done = subprocess.run([_python(), "-I", "-S", _PROBE, json.dumps(config)], capture_output=True,
                                  text=True, timeout=300)
            _REPORTS.append(json.loads(done.stdout))
        except PermissionError:  # Landlock: no program may be executed, so the probe runs in this process
            _REPORTS.append(_in_process(_PROBE, config))
    return _REPORTS[0]
'''

CENSUS_TEST = '''

def test_census_{channel}():
    report = _census()
    assert report["found"]["{channel}"] == []
    assert report["reached"]["{channel}"] == []
'''


def baseline() -> dict[str, Any]:
    """What every run inherits from the grader (this process): its nice value, CPUs, message queue limit,
    oom_score_adj and I/O priority."""
    import resource  # noqa: PLC0415

    from census_probe import io_priority, oom_score_adj  # noqa: PLC0415

    return {"nice": os.getpriority(os.PRIO_PROCESS, 0), "affinity": sorted(os.sched_getaffinity(0)),
            "msgqueue": resource.getrlimit(resource.RLIMIT_MSGQUEUE)[0], "oom_score_adj": oom_score_adj(),
            "io_priority": io_priority()}


def probe_config(token: str, origin: str, origins: list[str]) -> dict[str, Any]:
    """The probe's configuration for one run (run_root is filled in by the run itself)."""
    return {"token": token, "origin": origin, "origins": origins, "baseline": baseline(),
            "daemon_seconds": DAEMON_SECONDS}


def census_tests(config: dict[str, Any]) -> str:
    """A Part E test file: one test per channel, each failing when its run found a mark or reached another
    process, the probe run once per run by whichever census test comes first."""
    return CENSUS_TESTS_HEAD.format(config=json.dumps(config)) + "".join(
        CENSUS_TEST.format(channel=channel) for channel in CHANNELS)


def part_e_findings(result: Any, who: str) -> dict[str, list[str]]:
    """Each census test that failed on the student's own package (the first run), or is invalid (a later run),
    as sentences by channel; a Part E that did not run says so under every channel."""
    findings: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    by_channel = {test.id.rpartition("::test_census_")[2]: test for test in result.tests
                  if "::test_census_" in test.id}
    for channel in CHANNELS:
        test = by_channel.get(channel)
        if test is None:
            findings[channel].append(f"{who}: the census test did not run ({result.status}: {result.note[:200]})")
            continue
        if test.own_outcome != "passed":
            findings[channel].append(f"{who}: its first run ({test.own_outcome}) found a mark left before it, or "
                                     "reached a process not its own")
        if not test.valid:
            findings[channel].append(f"{who}: a later run found a mark of an earlier one, or reached a process not "
                                     f"its own ({test.reason[:160]})")
    return findings


def worker_findings(answer: Any, who: str) -> dict[str, list[str]]:
    """A worker call's answer (the probe's JSON) as sentences by channel."""
    findings: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    try:
        report = json.loads(answer)
    except (TypeError, ValueError):
        for channel in CHANNELS:
            findings[channel].append(f"{who}: the probe did not answer ({str(answer)[:200]})")
        return findings
    for part, verb in (("found", "found"), ("reached", "reached a process not its own:")):
        for channel, items in report.get(part, {}).items():
            findings.setdefault(channel, []).append(f"{who} {verb} {'; '.join(items)}")
    return findings


def merge(*all_findings: dict[str, list[str]]) -> dict[str, list[str]]:
    """Findings by channel, every source's in turn."""
    merged: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    for findings in all_findings:
        for channel, items in findings.items():
            merged.setdefault(channel, []).extend(items)
    return merged


def run_census(level: str, token: str) -> dict[str, list[str]]:
    """The census at level (see the module's docstring): {channel: [one sentence per finding]}."""
    from grader.config import load_config  # noqa: PLC0415
    from grader.part_e import runner  # noqa: PLC0415
    from grader.sandbox.isolation import make_runtime  # noqa: PLC0415
    from sandbox_probe import probe_client  # noqa: PLC0415

    # Part E with the wheats' runs alone: the chaffs' runs are more runs of the same kind, each a walk of the
    # whole file system; the census needs runs after the first, not all of them.
    runner.secret_order = lambda tests, package: [("wheat", "reference"), ("wheat", "wheat")]
    # On a disk's file system, as a container's folders are (its overlay's), not on the tmpfs the container profile
    # lays over /tmp: a folder there keeps what a tmpfs gives back (the census's folder_size)
    work = Path(tempfile.mkdtemp(prefix="war-grader-census-", dir="/var/tmp" if os.path.isdir("/var/tmp") else None))
    work.chmod(0o711)
    found: list[dict[str, list[str]]] = []
    try:
        runtime = make_runtime(work / "runtime")
        part_e_runtime = runner.make_runtime(work / "part-e-runtime")
        config = load_config(PROJECT / "tests" / "data" / "grading-test.toml",
                             {"sandbox.level": level, "limits.call_timeout": CALL_SECONDS,
                              "limits.game_timeout": CALL_SECONDS, "limits.deadline_floor": CALL_SECONDS,
                              "limits.submission_timeout": 20 * CALL_SECONDS})
        everyone = ["worker-a", "worker-c", "worker-a2", "tests-a", "worker-b", "tests-b"]
        earlier = ["worker-a", "worker-c", "worker-a2", "tests-a"]

        def worker(student: str, origin: str, origins: list[str], who: str, *, restart: bool = False,
                   slot: int = SLOT, stop: bool = True) -> None:
            folder = work / f"worker-{student}"
            folder.mkdir(exist_ok=True)
            if not restart:
                client = probe_client(folder, runtime, level, WORKER_PACKAGE,
                                      files={"census_probe.py": PROBE.read_text()}, call_timeout=CALL_SECONDS,
                                      budget=10 * CALL_SECONDS, start=False, slot=slot)
                clients[student] = client
            client = clients[student]
            answer = client.call("call", timeout=CALL_SECONDS, function="shuffle",
                                 kwargs={"deck": [json.dumps(probe_config(token, origin, origins))], "seed": None})
            found.append(worker_findings(answer, who))
            if stop:
                client.stop()

        def part_e(student: str, origin: str, origins: list[str], who: str) -> None:
            from grader.submissions import Submission, prepare  # noqa: PLC0415

            source = work / f"tests-{student}-source"
            shutil.copytree(corpus() / "perfect", source)
            (source / "tests").mkdir()
            (source / "tests" / "census_probe.py").write_text(PROBE.read_text())
            (source / "tests" / "test_census.py").write_text(census_tests(probe_config(token, origin, origins)))
            (work / f"tests-{student}").mkdir(mode=0o711)
            copy = prepare(Submission(student, source), work / f"tests-{student}" / "copy")
            result = runner.grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests,
                                                package_files=copy.files, runtime=part_e_runtime, config=config,
                                                slot=SLOT, level=level)
            found.append(part_e_findings(result, who))

        clients: dict[str, Any] = {}
        worker("a", "worker-a", everyone, "student A's first worker run (before anything of the census)",
               stop=False)
        worker("c", "worker-c", ["worker-a"], "student C's worker (another job slot, while A's worker runs)",
               slot=SLOT + 1)
        clients["a"].stop()
        worker("a", "worker-a2", everyone, "a later run of student A's worker", restart=True)
        part_e("a", "tests-a", everyone, "student A's Part E")
        worker("b", "worker-b", earlier, "student B's worker (the same uid, later)")
        part_e("b", "tests-b", earlier, "student B's Part E (the same uid, later)")
    finally:  # each step even when the one before raised: a census that could not finish leaves nothing either
        try:
            for client in locals().get("clients", {}).values():
                client.stop()
        finally:
            try:
                remove_marks(token)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return merge(*found)


def remove_marks(token: str, origins: tuple[str, ...] = ()) -> None:
    """As root, after a census: end its processes, delete its files and cgroups, remove its IPC objects and keys
    wherever the host can see them (what a sandbox level left is the census's finding, not the next test's)."""
    import ctypes  # noqa: PLC0415
    import signal  # noqa: PLC0415

    mark = PREFIX + token
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if mark.encode() in handle.read():
                        os.kill(int(entry), signal.SIGKILL)
            except OSError:
                continue
    for top in ("/tmp", "/var/tmp", "/run/lock", "/dev/shm", "/dev/mqueue", "/sys/fs/cgroup"):
        for folder, dirs, files in os.walk(top):
            for item in [*files, *dirs]:
                if item.startswith(mark):
                    path = os.path.join(folder, item)
                    try:
                        os.rmdir(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)
                    except OSError:
                        pass
            dirs[:] = [item for item in dirs if not item.startswith(mark)]
    libc = ctypes.CDLL(None, use_errno=True)
    for kind in ("msg", "sem", "shm"):
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as handle:
                rows = [line.split() for line in handle.read().splitlines()[1:]]
        except OSError:
            continue
        from census_probe import number  # noqa: PLC0415

        keys = {number(token, origin, kind, 0x10000, 0x7FFF0000) for origin in [*all_origins(), *origins]}
        for row in rows:
            if row and int(row[0]) in keys:
                ipc_id = int(row[1])
                if kind == "sem":
                    libc.semctl(ipc_id, 0, 0, None)
                else:
                    getattr(libc, f"{kind}ctl")(ipc_id, 0, None)
    for origin in [*all_origins(), *origins]:
        try:
            libc.mq_unlink(f"/{mark}-{origin}".encode())
        except AttributeError:
            break
    try:
        with open("/proc/keys", encoding="ascii") as handle:
            keys = [int(line.split()[0], 16) for line in handle if mark in line]
    except OSError:
        keys = []
    libc.syscall.restype = ctypes.c_long
    for key in keys:
        libc.syscall(250 if os.uname().machine == "x86_64" else 219, 21, ctypes.c_long(key))  # KEYCTL_INVALIDATE


def all_origins() -> list[str]:
    """Every origin's name, the Gradescope level's "-worker" and "-tests" included."""
    return [*ORIGINS, *(f"{origin}-{part}" for origin in ORIGINS for part in ("worker", "tests"))]


def main(argv: list[str]) -> None:
    """python tests/channel_census.py LEVEL TOKEN: the census's findings at LEVEL, one JSON line. Under the
    container profile (no CAP_SYS_ADMIN) root cannot remove other uids' IPC objects: run remove_marks(TOKEN)
    afterwards outside it, as tests/sandbox/test_channel_census.py does."""
    level, token = argv
    print(json.dumps(run_census(level, token)))


if __name__ == "__main__":
    main(sys.argv[1:])
