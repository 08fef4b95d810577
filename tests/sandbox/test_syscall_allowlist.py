"""The system call allowlist (grader/sandbox/syscall_allowlist.py): what it refuses, what it lets a process do to
itself, and that the sandbox cannot be had without it."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.sandbox import landlock, seccomp_bpf, syscall_allowlist
from grader.sandbox.isolation import SandboxError, make_runtime
from sandbox_probe import LEVEL_PARAMS, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures
from corpus import corpus

PROJECT = Path(__file__).resolve().parents[2]

LANDLOCKED = f"LANDLOCKED = {landlock.abi() > 0}\n"
"""A line telling the probe whether the sandbox confines it with Landlock (then no program may be executed)."""

CHANNELS = '''
import ctypes, errno, os, resource, shutil, signal, socket, subprocess, sys, tempfile, threading, time
libc = ctypes.CDLL(None, use_errno=True)
NR = {"x86_64": {"add_key": 248, "keyctl": 250, "clone3": 435, "pidfd_open": 434},
      "aarch64": {"add_key": 217, "keyctl": 219, "clone3": 435, "pidfd_open": 434}}[os.uname().machine]


def failed(value):
    """The errno of a libc call that returned -1 (or a NULL-ish handle), 0 when it worked."""
    return ctypes.get_errno() if value in (-1, None) else 0


def raised(call, *args):
    try:
        call(*args)
    except OSError as error:
        return error.errno
    return 0


libc.mq_open.restype = ctypes.c_int
PROBE_ADDS = globals().get("PROBE_ADDS", ("add_key",))
read_end, write_end = os.pipe()
other = os.fork()  # a process of the same uid the kernel would let this one signal, limit and pin
if other == 0:
    os.close(write_end)
    os.read(read_end, 1)
    os._exit(0)
os.close(read_end)
me = os.getpid()
read_lock = os.open(sys.executable, os.O_RDONLY)  # a file every run can open: a lock on it would be seen by all
made = {"msgget": libc.msgget(0, 0o1000 | 0o600), "semget": libc.semget(0, 1, 0o1000 | 0o600),
        "shmget": libc.shmget(0, 4096, 0o1000 | 0o600)}
refused = {name: failed(made[name]) for name in made}
for name, remove in (("msgget", lambda ident: libc.msgctl(ident, 0, None)),  # IPC_RMID: nothing left behind
                     ("semget", lambda ident: libc.semctl(ident, 0, 0)),
                     ("shmget", lambda ident: libc.shmctl(ident, 0, None))):
    if made[name] >= 0:
        remove(made[name])
queue = libc.mq_open(b"/war-grader-probe", os.O_CREAT | os.O_RDWR, 0o600, None)
refused["mq_open"] = failed(queue)
if queue >= 0:
    libc.mq_unlink(b"/war-grader-probe")
refused.update({
    "keyctl": failed(libc.syscall(NR["keyctl"], 0, ctypes.c_int(-3), 0)),  # KEYCTL_GET_KEYRING_ID: adds nothing
    "prlimit other": raised(resource.prlimit, other, resource.RLIMIT_CORE),
    "setpriority other": raised(os.setpriority, os.PRIO_PROCESS, other, 19),
    "setpriority user": raised(os.setpriority, os.PRIO_USER, 0, 19),
    "sched_setaffinity other": raised(os.sched_setaffinity, other, os.sched_getaffinity(0)),
    "kill other": raised(os.kill, other, 0),
    "kill group": raised(os.kill, 0, 0),
    "pidfd_open": failed(libc.syscall(NR["pidfd_open"], other, 0)),
    "flock": raised(lambda: __import__("fcntl").flock(read_lock, __import__("fcntl").LOCK_SH)),
    "fcntl lock": raised(lambda: __import__("fcntl").lockf(read_lock, __import__("fcntl").LOCK_SH)),
    "socket inet": raised(socket.socket, socket.AF_INET, socket.SOCK_STREAM),
    "socket unix": raised(socket.socket, socket.AF_UNIX, socket.SOCK_STREAM),
    "socketpair": raised(socket.socketpair),
})
if "add_key" in PROBE_ADDS:  # a key would stay in the session's keyring: tried only under the filter
    refused["add_key"] = failed(libc.syscall(NR["add_key"], b"user", b"war-grader-probe", b"x", 1, ctypes.c_int(-3)))
allowed = {
    "prlimit self": raised(resource.prlimit, me, resource.RLIMIT_CORE),
    "prlimit 0": raised(resource.prlimit, 0, resource.RLIMIT_CORE, resource.getrlimit(resource.RLIMIT_CORE)),
    "setpriority self": raised(os.setpriority, os.PRIO_PROCESS, me, os.getpriority(os.PRIO_PROCESS, 0)),
    "sched_setaffinity self": raised(os.sched_setaffinity, 0, os.sched_getaffinity(0)),
    "kill self": raised(os.kill, me, 0),
    "pipe": raised(os.pipe),
    "thread": raised(lambda: [thread.start() or thread.join() for thread in [threading.Thread(target=time.sleep,
                                                                                              args=(0.001,))]]),
    "raise_signal": raised(lambda: (signal.signal(signal.SIGUSR1, lambda *_: None),
                                    signal.raise_signal(signal.SIGUSR1))),
    "scratch files": raised(lambda: shutil.rmtree(tempfile.mkdtemp())),
    **({} if globals().get("LANDLOCKED") else {  # Landlock lets a confined process execute nothing
        "subprocess": raised(lambda: subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True))}),
}
probed = failed(libc.syscall(NR["clone3"], None, 0))
os.close(read_lock)
os.close(write_end)
os.waitpid(other, 0)
result = [sorted(name for name, code in refused.items() if code != errno.EPERM),
          sorted(name for name, code in allowed.items() if code != 0), probed == errno.ENOSYS]
'''
"""Each channel the issue names, tried from a process under the allowlist with a child of its own as the other
process: the names of those NOT refused with EPERM, those of its own calls that failed, and whether clone3 gave
ENOSYS."""


def test_the_program_names_the_callers_pid_only_through_the_sentinel():
    """The sentinel stands only as the constant of equality tests (libseccomp shares one test among the calls with
    the same condition), and for_this_process leaves none of it behind"""
    program = syscall_allowlist.allowlist_program()
    sentinel = seccomp_bpf.SELF_SENTINEL.to_bytes(4, sys.byteorder)
    steps = [program[at:at + 8] for at in range(0, len(program), 8)]
    assert len(program) % 8 == 0 and any(sentinel in step for step in steps)
    assert all(step[4:] == sentinel and step[:2] == seccomp_bpf.JEQ_K.to_bytes(2, sys.byteorder)
               for step in steps if sentinel in step)
    mine = seccomp_bpf.for_this_process(program, 4242)
    assert sentinel not in mine and (4242).to_bytes(4, sys.byteorder) in mine


def test_a_process_under_the_allowlist_is_refused_every_named_channel(tmp_path):
    """Directly (no sandbox): IPC, keys, sockets and calls aimed at another process fail with EPERM; the same
    calls aimed at itself work, and so do threads, signals, files and a subprocess; clone3 says ENOSYS so glibc
    falls back to clone"""
    shutil.copy(PROJECT / "grader" / "sandbox" / "seccomp_bpf.py", tmp_path)
    syscall_allowlist.write_program(tmp_path)
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import seccomp_bpf\n"
            "assert seccomp_bpf.install_allowlist()\n" + CHANNELS + "\nimport json; print(json.dumps(result))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[], [], True]


def test_without_the_allowlist_the_same_probe_sees_the_channels_open(tmp_path):
    """The probe above can fail: unfiltered, the same code reaches the other process and makes an IPC object"""
    code = "PROBE_ADDS = ()\n" + CHANNELS + "\nimport json; print(json.dumps(result))"
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    open_channels = json.loads(done.stdout)[0]  # those not refused with EPERM
    for channel in ("msgget", "semget", "shmget", "mq_open", "prlimit other", "sched_setaffinity other",
                    "kill other", "kill group", "socket unix", "socketpair", "flock", "fcntl lock"):
        assert channel in open_channels


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_in_the_worker_is_refused_every_named_channel(tmp_path, runtime, level):
    """Inside a sandboxed run, at every level: each channel fails with EPERM, the worker's own calls work"""
    client = probe_client(tmp_path, runtime, level)
    try:
        assert run(client, LANDLOCKED + CHANNELS) == {"list": [{"list": []}, {"list": []}, True]}
    finally:
        client.stop()


def test_without_libseccomp_no_runtime_is_made(tmp_path, monkeypatch):
    """A machine without libseccomp (or pyseccomp) gets a one-line refusal, never an unfiltered worker"""
    monkeypatch.setitem(sys.modules, "pyseccomp", None)
    syscall_allowlist.allowlist_program.cache_clear()
    try:
        with pytest.raises(SandboxError, match="libseccomp"):
            make_runtime(tmp_path / "runtime")
    finally:
        syscall_allowlist.allowlist_program.cache_clear()


CHANNELS_TEST = '''
def test_every_named_channel_is_refused():
    namespace = {"LANDLOCKED": LANDLOCKED}
    exec(CHANNELS, namespace)
    assert namespace["result"] == [[], [], True]
'''
"""A student's Part E test that tries the channels on its own package's run (where ctypes is not yet refused)."""


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_part_e_run_is_refused_every_named_channel(sandbox, tmp_path, level):
    """Inside each of Part E's runs, at every level: the same channels fail with EPERM (the test passes on the
    student's own package only if every one does)"""
    from grader.config import load_config
    from grader.part_e.runner import grade_student_tests, make_runtime as part_e_runtime
    from grader.submissions import Submission, prepare

    tmp_path.chmod(0o711)
    student = tmp_path / "student"
    shutil.copytree(corpus() / "perfect", student)
    (student / "test_channels.py").write_text(f"CHANNELS = {CHANNELS!r}\n" + LANDLOCKED + CHANNELS_TEST)
    (tmp_path / "work").mkdir(mode=0o711)
    copy = prepare(Submission("student", student), tmp_path / "work" / "copy")
    config = load_config(PROJECT / "tests" / "data" / "grading-test.toml",
                         {"sandbox.level": level, "sandbox.allow_plain": True})
    result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                 runtime=part_e_runtime(tmp_path / "runtime"), config=config, slot=0)
    [test] = result.tests
    assert test.own_outcome == "passed", test.reason
