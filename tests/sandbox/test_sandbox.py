"""The trust boundary: what student code can and cannot do inside the worker, at every sandbox level."""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from grader.sandbox.channel import StudentCrash, StudentRaised, StudentTimeout, Ungradable, WorkerClient
from grader.sandbox.isolation import LEVELS, choose_level, finish_runtime, level_works, processes_of

from sandbox_probe import LEVEL_PARAMS, NAMESPACED_PARAMS, PROBE, available, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_runs_and_answers_with_plain_values(tmp_path, runtime, level):
    """A call reaches the student's function and its str result comes back as a plain str"""
    client = probe_client(tmp_path, runtime, level)
    try:
        assert run(client, "result = 'hello'") == "hello"
        assert run(client, "result = ('war', '5')") == {"tuple": ["war", "5"]}
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_never_runs_as_root(tmp_path, runtime, level):
    """When the grader is root, the worker runs as an unprivileged uid of its own"""
    client = probe_client(tmp_path, runtime, level)
    try:
        uid = run(client, "import os; result = os.getuid()")
        if os.geteuid() == 0:
            assert uid != 0 and uid == client.spec.uid
        else:
            assert uid == os.geteuid() or level != "plain"
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_an_endless_loop_is_killed_at_the_deadline_and_the_worker_restarts(tmp_path, runtime, level):
    """A call that never returns is killed at its deadline; the next call gets a fresh worker"""
    client = probe_client(tmp_path, runtime, level)
    try:
        started = time.monotonic()
        with pytest.raises(StudentTimeout):
            run(client, "while True: pass", timeout=1.0)
        assert time.monotonic() - started < 5
        assert run(client, "result = 'alive'") == "alive"
        assert client.restarts == 1
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_os_exit_is_a_crash_not_a_pass(tmp_path, runtime, level):
    """os._exit(0) in student code ends the call as a crash, whatever the exit status"""
    client = probe_client(tmp_path, runtime, level)
    try:
        with pytest.raises(StudentCrash, match="exited with status 0"):
            run(client, "import os; os._exit(0)")
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_fork_bomb_is_contained(tmp_path, runtime, level):
    """A fork bomb hits the process limit and the deadline; nothing of it outlives the worker"""
    client = probe_client(tmp_path, runtime, level, processes=16)
    try:
        with pytest.raises((StudentTimeout, StudentCrash, StudentRaised)):
            run(client, "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
                timeout=2.0)
    finally:
        client.stop()
    if client.spec.uid is not None:
        time.sleep(0.5)
        assert processes_of(client.spec.uid) == []


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_memory_bomb_hits_the_memory_limit(tmp_path, runtime, level):
    """Allocating without bound raises MemoryError (or kills the worker) at the memory limit"""
    client = probe_client(tmp_path, runtime, level, memory_bytes=256 * 1024**2)
    try:
        with pytest.raises((StudentRaised, StudentCrash)) as caught:
            run(client, "blocks = []\nwhile True:\n    blocks.append(bytearray(16 * 1024 * 1024))")
        if isinstance(caught.value, StudentRaised):
            assert caught.value.exception["type"] == "MemoryError"
        assert run(client, "result = 'recovered'") == "recovered"
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_cannot_write_outside_its_copy(tmp_path, runtime, level):
    """Writing into the grader's folders fails: the worker is unprivileged or they are not even there"""
    if os.geteuid() != 0 and level != "bwrap":
        pytest.skip("without root the plain levels run as the grader's own user")
    target = Path(__file__).resolve().parents[2] / "grader" / "planted.py"
    client = probe_client(tmp_path, runtime, level)
    try:
        code = f"try:\n    open({str(target)!r}, 'w').write('x')\n    result = 'wrote'\nexcept OSError:\n    result = 'denied'"
        assert run(client, code) == "denied"
        assert not target.exists()
    finally:
        client.stop()
        if target.exists():
            target.unlink()


@pytest.mark.parametrize("level", NAMESPACED_PARAMS)
def test_student_code_has_no_network(tmp_path, runtime, level):
    """bwrap and unshare give the worker a network namespace with nothing in it"""
    client = probe_client(tmp_path, runtime, level)
    try:
        code = ("import socket\ntry:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    result = 'connected'\n"
                "except OSError as error:\n    result = type(error).__name__")
        assert run(client, code) != "connected"
        interfaces = run(client, "try:\n    result = [line.split(':')[0].strip() for line in open('/proc/net/dev')][2:]\n"
                                 "except PermissionError:\n    result = 'refused'")
        assert interfaces == "refused" or interfaces["list"] in ([], ["lo"])  # /proc: Landlock refuses it, if present
    finally:
        client.stop()


@pytest.mark.skipif(not available("bwrap"), reason="bubblewrap does not work on this machine")
def test_under_bwrap_the_hidden_suites_and_other_files_are_not_there(tmp_path, runtime):
    """Under bubblewrap the suites, the reference, the grader and /work or /root do not exist for the student"""
    client = probe_client(tmp_path, runtime, "bwrap")
    suites = Path(__file__).resolve().parents[2] / "grader" / "grading" / "suites"
    try:
        code = f"import os\nresult = [os.path.exists(p) for p in ({str(suites)!r}, {str(tmp_path)!r}, '/home', '/work')]"
        assert run(client, code) == {"list": [False, False, False, False]}
        assert run(client, "import os; result = sorted(os.listdir('/submission'))") == {"list": ["probe"]}
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_package_that_does_not_import_is_ungradable(tmp_path, runtime, level):
    """A syntax error in the package makes the submission ungradable, with the error in the sentence"""
    with pytest.raises(Ungradable, match="SyntaxError"):
        probe_client(tmp_path, runtime, level, source="def broken(:\n")


def test_printed_output_is_captured_and_capped(tmp_path, runtime):
    """What the student prints is kept up to 64 KiB, and never mixes with the replies"""
    level = next(level for level in LEVELS if level_works(level))
    client = probe_client(tmp_path, runtime, level)
    try:
        assert run(client, "print('x' * 200_000)\nresult = 'done'") == "done"
        text, truncated = client.output()
        assert truncated and 60_000 < len(text) <= 64 * 1024
    finally:
        client.stop()


def test_lines_run_before_a_crash_are_kept_without_asking_for_them(tmp_path, runtime):
    """Each reply carries the lines that ran for the first time, so a worker killed by a later call loses none
    of them, and the grader never spends a request on them"""
    source = PROBE + "\n\ndef kept():\n    return 'kept'\n"
    body = source.splitlines().index("    return 'kept'") + 1
    client = probe_client(tmp_path, runtime, choose_level("auto", allow_plain=True), source, coverage=True)
    try:
        assert run(client, "import probe\nresult = probe.kept()") == "kept"
        with pytest.raises(StudentCrash):
            run(client, "import os\nos._exit(3)")
        assert body in client.coverage["probe/__init__.py"]
        assert client.next_id == 3  # hello and the two calls: no request for coverage
    finally:
        client.stop()


def test_the_probe_runtime_holds_only_the_worker(runtime):
    """The folder mounted into every sandbox holds the worker's modules, its system call allowlist, its Landlock
    rules and their .pyc (valid: the worker never compiles itself), nothing else of the grader's: not the repairs'
    correct stand-ins"""
    modules = ("worker.py", "operations.py", "line_recorder.py", "plain_values.py", "repair_server.py",
               "seccomp_bpf.py", "landlock.py")
    cached = [f"__pycache__/{Path(importlib.util.cache_from_source(name)).name}" for name in modules]
    assert sorted(str(path.relative_to(runtime)) for path in runtime.rglob("*")) == \
        sorted(["__pycache__", *cached, *modules, "syscall_allowlist.bpf"])
    assert shutil.which("setpriv") is not None or os.geteuid() != 0


def test_a_runtimes_libraries_are_compiled_for_the_worker_and_its_scripts_are_not(tmp_path):
    """Workers run with -B from a read-only copy: a library's .pyc must be there and match its source, or every
    worker compiles it again (Part E's pytest took tenths of a second); a script is never read compiled"""
    (tmp_path / "library").mkdir()
    source = tmp_path / "library" / "__init__.py"
    source.write_text("VALUE = 1\n")
    (tmp_path / "script.py").write_text("print(1)\n")
    finish_runtime(tmp_path, scripts=("script.py",))
    header = Path(importlib.util.cache_from_source(str(source))).read_bytes()[:16]
    assert header[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(header[8:12], "little") == int(source.stat().st_mtime) & 0xFFFFFFFF
    assert not (tmp_path / "__pycache__").exists()
    assert oct(source.stat().st_mode & 0o777) == oct(0o644)
