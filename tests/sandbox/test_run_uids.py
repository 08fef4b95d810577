"""Part E at the uid level: a uid of its own for every run (issue 25, item 3).

The zygote holds CAP_SETUID, bounded by a seccomp filter to its sandbox's own run of uids (syscall_allowlist's
run_uids_program); each run's helper takes its uid for good and drops every capability (run_world.become); the
trusted side hands out the uids, none twice, in an order drawn from the submission's secret seed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader.part_e.runner import MAX_RUNS
from grader.part_e.session import SandboxFault, Session
from grader.sandbox.host import FRESH_BASE, FRESH_BLOCK, RUN_BASE, RUN_BLOCK, RUN_UIDS, UID_BLOCKS
from grader.sandbox.isolation import Limits

PROJECT = Path(__file__).resolve().parents[2]


def test_every_run_of_a_submission_has_a_uid_and_the_run_uids_are_apart_from_every_other():
    assert MAX_RUNS + 1 <= RUN_UIDS  # the zygote's and one per run
    assert RUN_BLOCK % RUN_UIDS == 0 and RUN_BASE + UID_BLOCKS * RUN_BLOCK <= 2**31
    assert FRESH_BASE + UID_BLOCKS * FRESH_BLOCK <= RUN_BASE  # the fresh uids (an older grader's too) end below


def _session(seed: bytes, zygote: int = 1 << 24) -> Session:
    session = Session(["true"], {}, Limits(), zygote, "uid", RUN_UIDS)
    session.seed = seed
    return session


def test_runs_get_distinct_uids_of_the_sandbox_never_the_zygotes_in_a_secret_order():
    first = _session(b"one")
    uids = [first._next_uid() for _ in range(RUN_UIDS - 1)]
    assert len(set(uids)) == RUN_UIDS - 1 and set(uids) == set(range((1 << 24) + 1, (1 << 24) + RUN_UIDS))
    with pytest.raises(SandboxFault):
        first._next_uid()
    again, other = _session(b"one"), _session(b"two")
    assert [again._next_uid() for _ in range(5)] == uids[:5]  # the same submission, the same uids
    assert [other._next_uid() for _ in range(5)] != uids[:5]
    assert uids[:5] != list(range((1 << 24) + 1, (1 << 24) + 6))  # a run's uid does not tell its place


PROBE = r'''
import ctypes, errno, os, socket, sys
sys.path.insert(0, sys.argv[1])
import run_world
first = int(sys.argv[2])
seen = {}
def attempt(name, call):
    try:
        call()
        seen[name] = "ok"
    except OSError as error:
        seen[name] = errno.errorcode.get(error.errno, str(error.errno))
attempt("root", lambda: os.setresuid(0, 0, 0))
attempt("outside", lambda: os.setresuid(first + 64, first + 64, first + 64))
attempt("setuid", lambda: os.setuid(first + 1))
attempt("group", lambda: os.setresgid(0, 0, 0))
attempt("groups", lambda: os.setgroups([0]))
attempt("socket", lambda: socket.socket(socket.AF_UNIX))
libc = ctypes.CDLL(None, use_errno=True)
seen["userns"] = "ok" if libc.unshare(0x10000000) == 0 else errno.errorcode[ctypes.get_errno()]
pid = os.fork()
if pid == 0:
    ok = run_world.become(first + 5)
    status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines() if ":" in line)
    caps = {status[key].strip() for key in ("CapInh", "CapPrm", "CapEff", "CapAmb")}
    back = 0
    try:
        os.setresuid(first, first, first)
    except PermissionError:
        back = 1
    os._exit(0 if ok and caps == {"0000000000000000"} and os.getuid() == first + 5 and back else 1)
_, status = os.waitpid(pid, 0)
seen["run"] = os.waitstatus_to_exitcode(status)
print(sorted(seen.items()))
'''


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_the_zygotes_cap_setuid_reaches_its_own_uids_alone():
    """Started as worker_command starts Part E's zygote at the uid level (setpriv with CAP_SETUID ambient, the
    filter installed before): it cannot become root or a uid outside its run, change its groups, make a user
    namespace or a socket; a run's helper takes one of its uids for good, with no capability left"""
    from grader.sandbox import seccomp_bpf
    from grader.sandbox.syscall_allowlist import run_uids_program

    first = (1 << 30) - RUN_UIDS * 7  # a run of uids no grader here hands out
    program = run_uids_program(first, RUN_UIDS)
    folder = Path(tempfile.mkdtemp(prefix="war-grader-run-uids-"))  # a folder the uid can reach
    folder.chmod(0o755)
    shutil.copy(PROJECT / "grader" / "part_e" / "run_world.py", folder / "run_world.py")
    (folder / "run_world.py").chmod(0o644)
    try:
        done = subprocess.run(["setpriv", f"--reuid={first}", f"--regid={first}", "--clear-groups",
                               "--inh-caps=-all,+setuid", "--ambient-caps=-all,+setuid",
                               "--bounding-set=-all,+setuid", "--no-new-privs", "--", sys.executable, "-I", "-S", "-c",
                               PROBE, str(folder), str(first)],
                              preexec_fn=lambda: seccomp_bpf.install(program), capture_output=True, text=True,
                              timeout=60, cwd="/", check=False)
    finally:
        shutil.rmtree(folder)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(sorted({"root": "EPERM", "outside": "EPERM", "setuid": "EPERM",
                                               "group": "EPERM", "groups": "EPERM", "socket": "EACCES",
                                               "userns": "EPERM", "run": 0}.items()))


LINGERS = r'''
import ctypes, threading, time
threading.Thread(target=lambda: time.sleep(120)).start()
print("ready", flush=True)
ctypes.CDLL(None).syscall(60, 0)  # exit, not exit_group: the main thread alone ends (x86_64)
'''


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None or os.uname().machine != "x86_64",
                    reason="needs root, setpriv and x86_64's exit")
def test_a_process_whose_main_thread_alone_ended_is_alive_and_killed():
    """/proc shows such a process as a zombie (State Z, Threads 2) while its other thread runs on: counted as a
    zombie, it was never killed, and a run's test that did this in its own run outlived Part E's sandbox (its budget
    spent, the trusted side killed only the processes it saw alive); now it is alive to both sweeps, and killed"""
    from grader.part_e import run_world
    from grader.sandbox.host import kill_uid, processes_of

    uid = (1 << 30) - RUN_UIDS * 9  # a uid no grader here hands out
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    process = subprocess.Popen(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", python, "-I", "-S",
                                "-c", LINGERS], stdout=subprocess.PIPE, cwd="/", start_new_session=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == b"ready\n"
        for _ in range(500):
            status = Path(f"/proc/{process.pid}/status").read_text()
            if "\nState:\tZ" in status:
                break
            time.sleep(0.01)
        assert "\nState:\tZ" in status and "\nThreads:\t2\n" in status
        assert processes_of(uid) == [process.pid] and run_world._alive(uid)
        kill_uid(uid)
        assert processes_of(uid) == [] and not run_world._alive(uid)
        process.wait(timeout=10)
    finally:
        process.kill()
        process.wait()


SUBREAPED = r'''
import ctypes, os, signal, sys, time
sys.path.insert(0, sys.argv[1])
import run_world
assert ctypes.CDLL(None).prctl(run_world.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
run_world.SUBREAPER = True
scans, listdir = [], os.listdir
os.listdir = lambda path=".": scans.append(path) or listdir(path)
nobody = (1 << 30) - 7
print("alone", run_world._has_children(), run_world._alive(nobody), scans.count("/proc"))
read, write = os.pipe()
middle = os.fork()
if middle == 0:  # a run's test that leaves a process behind: its parent ends at once
    if os.fork() == 0:
        os.write(write, str(os.getpid()).encode())
        time.sleep(60)
    os._exit(0)
os.waitpid(middle, 0)
orphan = int(os.read(read, 20))
print("orphan", run_world._has_children(), run_world._alive(nobody), scans.count("/proc"))
os.kill(orphan, signal.SIGKILL)
os.waitpid(orphan, 0)  # handed to this subreaper, not to init
print("ended", run_world._has_children(), run_world._alive(nobody), scans.count("/proc"))
'''


def test_a_subreaper_with_no_child_knows_no_run_process_is_alive_without_reading_proc():
    """The uid level's sweep asks, twice a run, whether a process of the run's uid is alive: reading every process's
    /proc status took about 2 ms each time. The zygote is its runs' subreaper, so a process a run leaves behind (its
    parent gone) is the zygote's child: with no child at all nothing of the run is alive, and /proc is read only
    when there is one"""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", SUBREAPED, str(PROJECT / "grader" / "part_e")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["alone False False 0", "orphan True False 1", "ended False False 1"]
