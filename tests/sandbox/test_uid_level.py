"""The uid sandbox level, and the grader run as a container's default profile runs it (Gradescope's case).

tests/container_profile.py stands in for Docker: namespace creation refused by seccomp (clone3 with ENOSYS),
CAP_SYS_ADMIN dropped, and a file system of the container's own (this machine's /work, /tmp, /home and this
checkout covered, but for the paths a test keeps). Under it, bubblewrap and unshare cannot start, auto chooses
the uid level, and the corpus must score exactly its pins (the scores it gets under bubblewrap).
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from grader.sandbox.isolation import SandboxError, UID_BLOCK, uid_block
from grader.sandbox.uid_level import seal
from sandbox_probe import available, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures
from test_export_gradescope import autograder, check_gradescope_results  # noqa: F401 - a fixture
from corpus import PINS, corpus

PROJECT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
EXPECTED = json.loads(PINS.read_text(encoding="utf-8"))
SETTINGS = PROJECT / "tests" / "data" / "grading-test.toml"
PROFILE = [sys.executable, str(PROJECT / "tests" / "container_profile.py")]

pytestmark = pytest.mark.skipif(not available("uid"), reason="the uid level needs root and setpriv")

CHEATS = ("reads_hidden_tests", "writes_grader_folders", "fork_bomb", "memory_bomb")
"""The corpus's cheats that attack the sandbox itself, each graded beside its honest twin."""

PART_E_CHEATS = ("prlimits_zygote",)
"""Attacks on Part E that only the uid level lets reach the zygote (its runs get no PID namespace in a container),
pinned at most at their honest twin's score."""

CLASS = (*CHEATS, *PART_E_CHEATS, *(f"{name}__honest" for name in (*CHEATS, *PART_E_CHEATS)),
         "infinite_loop_in_war", "tests_thorough", "tests_weak", "tests_prints_reference")
"""A class for `war-grader grade` in a container: the cheats and their twins, a never-ending call, and Part E."""


def in_container(keep: list[Path], *command: str, **options) -> subprocess.CompletedProcess[str]:
    """Run command under the container profile with only the kept paths of /work, /tmp, /home and the checkout."""
    kept = [argument for path in keep for argument in ("--keep", str(path))]
    return subprocess.run([*PROFILE, *kept, *command], capture_output=True, text=True, timeout=900, **options)


def test_in_the_container_namespaces_are_refused_and_auto_chooses_the_uid_level():
    """unshare and bubblewrap fail as in Docker, CAP_SYS_ADMIN is gone, and auto picks uid, not a refusal"""
    probe = ("import ctypes, os, subprocess\n"
             "from grader.sandbox.isolation import choose_level, level_works\n"
             "libc = ctypes.CDLL(None, use_errno=True)\n"
             "clone3 = libc.syscall(435, None, 0) == -1 and ctypes.get_errno()\n"
             "caps = int(next(l for l in open('/proc/self/status') if l.startswith('CapEff')).split()[1], 16)\n"
             "print(level_works('bwrap'), level_works('unshare'), choose_level('auto'), clone3 == 38,"
             " bool(caps & 1 << 21), subprocess.run(['unshare', '--mount', 'true']).returncode != 0)")
    done = in_container([PROJECT], sys.executable, "-c", probe, cwd=PROJECT)
    assert done.stdout.split() == ["False", "False", "uid", "True", "False", "True"], done.stderr


def test_the_container_keeps_a_checkout_that_is_a_mount_of_its_own():
    """Where the checkout is a mount's root outside /work (as on CI), the container still shows its files"""
    checkout = "/mnt/war-grader-checkout"  # made inside a mount namespace of the test's own, gone after it
    script = (f"mount -t tmpfs none /mnt && mkdir {checkout} && mount --bind {PROJECT} {checkout} && cd {checkout} && "
              f"exec {sys.executable} {checkout}/tests/container_profile.py --keep {checkout} "
              f"{sys.executable} -c 'import grader; print(grader.__file__)'")
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == f"{checkout}/grader/__init__.py", done.stderr


def test_a_uid_worker_reads_no_secret_has_its_own_scratch_and_no_network(tmp_path, runtime):
    """As its own uid: the suites, reference, settings and checkout unreadable, cwd its own, every socket refused"""
    client = probe_client(tmp_path, runtime, "uid")
    secrets = [PROJECT / "grader" / "grading" / "suites" / "test_forced_war.py", PROJECT / "reference" / "game.py",
               PROJECT / "grader" / "grading.toml", PROJECT / "pyproject.toml"]
    try:
        code = ("import os\nresult = []\n"
                f"for path in {[str(path) for path in secrets]!r}:\n"
                "    try:\n        open(path).read(1)\n        result.append('read')\n"
                "    except OSError as error:\n        result.append(type(error).__name__)")
        assert run(client, code) == {"list": ["PermissionError"] * len(secrets)}
        code = ("import os\nopen('mine', 'w').write('x')\n"
                "result = [os.getuid() != 0, os.stat('.').st_uid == os.getuid(), oct(os.stat('.').st_mode & 0o777)]")
        assert run(client, code) == {"list": [True, True, "0o700"]}
        code = ("import socket\ntry:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
                "    result = 'connected'\nexcept OSError as error:\n    result = type(error).__name__\n"
                "try:\n    socket.socketpair()\n    result = [result, 'paired']\n"
                "except OSError as error:\n    result = [result, type(error).__name__]\n"
                "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"  # io_uring opens sockets by itself
                "params = ctypes.create_string_buffer(120)\n"
                "result.append(libc.syscall(425, 8, params) == -1 and ctypes.get_errno() in (1, 13))")
        assert run(client, code) == {"list": ["PermissionError", "PermissionError", True]}  # the allowlist: no socket
    finally:
        client.stop()


def test_a_secret_that_stays_readable_is_refused_in_one_line():
    """A file the workers' uid can read through its group (chmod of others cannot help): SandboxError naming it"""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-test-"))
    try:
        folder.chmod(0o755)
        secret = folder / "hidden.txt"
        secret.write_text("secret")
        os.chown(secret, 0, uid_block() + UID_BLOCK - 1)
        secret.chmod(0o640)
        with pytest.raises(SandboxError) as raised:
            seal((str(secret),))
        assert str(secret) in str(raised.value) and "\n" not in str(raised.value)
        secret.chmod(0o600)
        seal((str(secret), str(folder)))  # made unreadable (a new set of secrets, checked again): accepted
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_war_grader_grade_in_a_container_scores_the_corpus_as_bubblewrap_does(sandbox):
    """Under the profile, every submission gets its pinned score at the uid level; no cheat beats its twin"""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-container-"))
    try:
        folder.chmod(0o755)
        for name in CLASS:
            shutil.copytree(CORPUS / name, folder / "class" / name)
        done = in_container([PROJECT, folder], str(PROJECT / ".venv" / "bin" / "war-grader"), "grade",
                            str(folder / "class"), "--out", str(folder / "out"), "--jobs", "2", "--config",
                            str(SETTINGS), cwd=PROJECT)
        assert done.returncode == 0, done.stderr
        with open(folder / "out" / "grades.csv", encoding="utf-8") as handle:
            rows = {row["student"]: row for row in csv.DictReader(handle)}
        scores = {name: float(rows[name]["score"]) for name in CLASS}
        pinned = [name for name in CLASS if EXPECTED[name]["score"] is not None]
        assert {name: scores[name] for name in pinned} == {name: EXPECTED[name]["score"] for name in pinned}
        for cheat in (*CHEATS, *PART_E_CHEATS):
            assert scores[cheat] <= scores[f"{cheat}__honest"]
        for cheat in PART_E_CHEATS:
            assert float(rows[cheat]["student_tests"]) <= float(rows[f"{cheat}__honest"]["student_tests"])
        assert float(rows["tests_thorough"]["student_tests"]) == 20  # Part E works at this level
        for name in CLASS:
            extra = json.loads((folder / "out" / name / "results.json").read_text(encoding="utf-8"))["extra_data"]
            assert extra["sandbox"] == "uid" and extra["sandbox_warning"]
        # Other students' results and submissions sealed from student code (the grader, root, reads them)
        assert not (folder / "out").stat().st_mode & 0o007
        assert not any((folder / "class" / name).stat().st_mode & 0o007 for name in CLASS)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("name", ["tests_thorough", "reads_hidden_tests", "reads_hidden_tests__honest"])
def test_the_gradescope_autograder_in_a_container(autograder, name):  # noqa: F811 - the imported fixture
    """run_autograder under the profile: full marks for a correct package with good tests, pinned scores else"""
    shutil.rmtree(autograder / "submission", ignore_errors=True)
    shutil.rmtree(autograder / "results", ignore_errors=True)
    shutil.copytree(CORPUS / name, autograder / "submission")
    (autograder / "results").mkdir()
    done = in_container([autograder, PROJECT / ".venv"], str(autograder / "run_autograder"), cwd=autograder,
                        env={"PATH": os.environ["PATH"], "AUTOGRADER": str(autograder)})
    assert done.returncode == 0, done.stderr
    data = json.loads((autograder / "results" / "results.json").read_text(encoding="utf-8"))
    check_gradescope_results(data)
    assert data["score"] == EXPECTED[name]["score"] and data["extra_data"]["sandbox"] == "uid"
    if name == "tests_thorough":
        assert data["score"] == 100
    assert not (autograder / "source").stat().st_mode & 0o007  # the wheel and settings sealed from student code


MARKER_TEST = '''
import os
import tempfile


def test_no_run_finds_what_an_earlier_run_left():
    for folder in {"/tmp", "/var/tmp", "/dev/shm", tempfile.gettempdir()}:
        path = os.path.join(folder, "war-grader-marker-TOKEN")
        assert not os.path.exists(path)
        try:
            with open(path, "w") as handle:
                handle.write("seen")
        except PermissionError:  # Landlock: a run may write in its scratch alone
            assert folder != tempfile.gettempdir()
'''


def test_part_e_runs_at_the_uid_level_leave_nothing_for_the_next(sandbox, tmp_path):
    """/tmp is the container's: what a run's uid left in its scratch (or, without Landlock, in /tmp) is gone before
    the next run"""
    from grader.config import load_config
    from grader.part_e.runner import grade_student_tests, make_runtime
    from grader.submissions import Submission, prepare

    tmp_path.chmod(0o711)
    student = tmp_path / "student"
    shutil.copytree(CORPUS / "perfect", student)
    (student / "test_marker.py").write_text(MARKER_TEST.replace("TOKEN", tmp_path.name))  # not an older run's
    (tmp_path / "work").mkdir(mode=0o711)
    copy = prepare(Submission("student", student), tmp_path / "work" / "copy")
    config = load_config(SETTINGS, {"sandbox.level": "uid"})
    result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                 runtime=make_runtime(tmp_path / "runtime"), config=config, slot=0)
    [test] = result.tests
    assert (test.own_outcome, test.valid) == ("passed", True), test.reason


def test_a_run_that_kills_its_zygote_leaves_nothing_behind_in_the_container(sandbox):
    """The corpus's kills_own_zygote graded under the profile (the uid level): its test leaves files anyone may write
    in /tmp, /var/tmp, /dev/shm and /run/lock and kills its helper and zygote, so no reset between runs follows;
    once Part E's sandbox stops, everything its uid owns wherever it could write is removed and checked gone (the
    files stayed after the batch before), and the submission scores no more than its twin"""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-container-"))
    try:
        folder.chmod(0o755)
        for name in ("kills_own_zygote", "kills_own_zygote__honest"):
            shutil.copytree(CORPUS / name, folder / "class" / name)
        script = (
            "import glob, subprocess, sys\n"
            f"done = subprocess.run([{str(PROJECT / '.venv' / 'bin' / 'war-grader')!r}, 'grade', "
            f"{str(folder / 'class')!r}, '--out', {str(folder / 'out')!r}, '--config', {str(SETTINGS)!r}], "
            "stdout=subprocess.DEVNULL)\n"
            "left = [path for folder in ('/tmp', '/var/tmp', '/dev/shm', '/run/lock') "
            "for path in glob.glob(folder + '/war-grader-left-by-*')]\n"
            "print(done.returncode, left)\n")
        done = in_container([PROJECT, folder], sys.executable, "-c", script, cwd=PROJECT)
        assert done.stdout.strip() == "0 []", done.stdout + done.stderr
        with open(folder / "out" / "grades.csv", encoding="utf-8") as handle:
            rows = {row["student"]: row for row in csv.DictReader(handle)}
        assert rows["kills_own_zygote"]["outcome"] == "graded"
        assert float(rows["kills_own_zygote"]["score"]) <= float(rows["kills_own_zygote__honest"]["score"])
        assert float(rows["kills_own_zygote__honest"]["score"]) == EXPECTED["kills_own_zygote__honest"]["score"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)



def _free_block() -> int:
    """The uid block the next grader started here will take: the first whose lock no process holds."""
    import fcntl  # noqa: PLC0415

    from grader.sandbox.host import UID_BLOCKS, UID_LOCKS  # noqa: PLC0415

    for index in range(UID_BLOCKS):
        handle = os.open(UID_LOCKS / f"block-{index}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue
        finally:
            os.close(handle)  # closing releases the lock taken (if any)
        return index
    raise AssertionError("every uid block is held")


SEGMENT = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
ident = libc.shmget(0, 4096, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
assert ident >= 0
if len(sys.argv) > 1:  # handed to that uid: struct ipc_perm's uid, read with IPC_STAT and set with IPC_SET
    buffer = ctypes.create_string_buffer(512)
    assert libc.shmctl(ident, 2, buffer) == 0
    ctypes.c_uint32.from_buffer(buffer, 4).value = int(sys.argv[1])
    assert libc.shmctl(ident, 1, buffer) == 0
print(ident)
"""


@contextlib.contextmanager
def segment_made_by(uid: int, handed_to: int | None = None) -> Iterator[str]:
    """The id of a System V shared memory segment uid made (and handed to handed_to, when given), removed afterwards
    as root wherever it still is (the machine's python3: a sandbox uid cannot run this checkout's)."""
    made = subprocess.run(["/usr/bin/python3", "-I", "-c", SEGMENT, *([str(handed_to)] if handed_to else [])],
                          user=uid, group=uid, extra_groups=[], capture_output=True, text=True, timeout=60)
    ident = made.stdout.strip()
    try:
        assert made.returncode == 0 and ident.isdigit(), made.stderr
        yield ident
    finally:
        if ident.isdigit():
            subprocess.run(["ipcrm", "-m", ident], capture_output=True, check=False)


def test_a_grader_taking_a_uid_block_removes_what_an_earlier_batch_left_as_its_uids(sandbox):
    """System V objects outlive every process, and a file in /var/tmp outlives its batch: one of each owned by the first
    sandbox uid of the block the next grader takes (a bench run with the walls down leaves such objects; a grader
    killed with -9 could leave files) is removed when that grader takes the block, the objects as their owner in a
    container, where root has no CAP_IPC_OWNER. The batch's first student is graded; before, that student was a
    grader fault ("what the sandbox's uid ... left could not be removed (shm ...)"), batch after batch"""
    from grader.sandbox.host import FRESH_BASE, FRESH_BLOCK, ipc_of  # noqa: PLC0415

    uid = FRESH_BASE + _free_block() * FRESH_BLOCK
    leftover = Path("/var/tmp") / f"war-grader-left-by-{uid}-{os.getpid()}"  # /tmp is the container's own
    folder = Path(tempfile.mkdtemp(prefix="war-grader-container-"))
    try:
        folder.chmod(0o755)
        shutil.copytree(CORPUS / "perfect", folder / "class" / "perfect")
        with segment_made_by(uid) as ident:
            leftover.write_text("an earlier batch's")
            os.chown(leftover, uid, uid)
            assert ipc_of(uid) == [f"shm {ident}"] and leftover.exists()
            done = in_container([PROJECT, folder], str(PROJECT / ".venv" / "bin" / "war-grader"), "grade",
                                str(folder / "class"), "--out", str(folder / "out"), "--config", str(SETTINGS),
                                cwd=PROJECT)
            assert done.returncode == 0, done.stdout + done.stderr
            with open(folder / "out" / "grades.csv", encoding="utf-8") as handle:
                [row] = list(csv.DictReader(handle))
            assert (row["outcome"], float(row["score"])) == ("graded", EXPECTED["perfect"]["score"]), row
            assert ipc_of(uid) == [] and not leftover.exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        leftover.unlink(missing_ok=True)


def test_a_system_v_object_handed_to_another_uid_is_still_removed_as_its_creators_in_a_container():
    """A segment's owner may hand it to any uid (IPC_SET), but its creator stays: a sandbox uid's segment handed to
    uid 4242 is still found as that uid's and removed in a container (root there has no CAP_IPC_OWNER), as its
    creator may; by its owner alone it was neither found nor removed"""
    from grader.sandbox.host import FRESH_BASE, FRESH_BLOCK, UID_BLOCKS, ipc_of  # noqa: PLC0415

    uid = FRESH_BASE + (UID_BLOCKS - 1) * FRESH_BLOCK + 7  # the last block's: no grader of this suite runs as it
    with segment_made_by(uid, handed_to=4242) as ident:
        assert ipc_of(uid) == [f"shm {ident}"]
        script = f"from grader.sandbox import host\nhost.remove_ipc_of({uid})\nprint(host.ipc_of({uid}))\n"
        done = in_container([PROJECT], sys.executable, "-c", script, cwd=PROJECT)
        assert done.stdout.strip() == "[]", done.stdout + done.stderr
        assert ident not in [line.split()[1] for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]]


def test_part_e_s_sweep_finds_a_system_v_object_its_run_made_and_handed_to_another_uid(tmp_path):
    """Part E's zygote sweeps each run's uid (run_world.sweep_uid) by the same rule: a segment the run's uid made and
    handed to uid 4242 is still the run's (its creator's), and removed as it"""
    from grader.part_e import run_world  # noqa: PLC0415
    from grader.sandbox.host import RUN_BASE, RUN_BLOCK, UID_BLOCKS  # noqa: PLC0415

    uid = RUN_BASE + (UID_BLOCKS - 1) * RUN_BLOCK + 9  # the last block's: no grader of this suite runs as it
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    shutil.copy(Path(run_world.__file__), runtime / "run_world.py")
    for path in (tmp_path, runtime, runtime / "run_world.py"):
        path.chmod(0o755)
    with segment_made_by(uid, handed_to=4242) as ident:
        assert [(kind, str(number)) for kind, number, _ in run_world._ipc_objects(uid)] == [("shm", ident)]
        removed = subprocess.run(["/usr/bin/python3", "-I", "-c", "import sys; sys.path.insert(0, sys.argv[2]); "
                                  "import run_world; run_world._remove_ipc(int(sys.argv[1]))", str(uid), str(runtime)],
                                 user=uid, group=uid, extra_groups=[], capture_output=True, text=True, timeout=60,
                                 cwd="/")
        assert run_world._ipc_objects(uid) == [], removed.stderr


OWN_UID_TEST = '''
import os
import tempfile


def test_the_run_is_not_its_zygote():
    scratch = os.stat(tempfile.gettempdir())  # the sandbox's scratch, the zygote's uid's
    assert os.getuid() != scratch.st_uid and os.getgid() == scratch.st_gid


def test_the_run_cannot_become_its_zygote_or_root():
    for uid in (os.stat(tempfile.gettempdir()).st_uid, 0):
        try:
            os.setresuid(uid, uid, uid)
        except PermissionError:
            continue
        raise AssertionError(uid)
'''


def test_part_e_runs_at_the_uid_level_each_have_a_uid_of_their_own(sandbox, tmp_path):
    """Each run's tests run as a uid that is not the zygote's (their scratch's owner), with its group, and cannot
    take the zygote's uid or root's: on every run, the student's own package and every implementation"""
    from grader.config import load_config
    from grader.part_e.runner import grade_student_tests, make_runtime
    from grader.submissions import Submission, prepare

    tmp_path.chmod(0o711)
    student = tmp_path / "student"
    shutil.copytree(CORPUS / "perfect", student)
    (student / "test_own_uid.py").write_text(OWN_UID_TEST)
    (tmp_path / "work").mkdir(mode=0o711)
    copy = prepare(Submission("student", student), tmp_path / "work" / "copy")
    config = load_config(SETTINGS, {"sandbox.level": "uid"})
    result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                 runtime=make_runtime(tmp_path / "runtime"), config=config, slot=0)
    assert [(test.own_outcome, test.valid) for test in result.tests] == [("passed", True)] * 2, \
        [test.reason for test in result.tests]


LEAVES_BEHIND_TEST = '''
import os
import tempfile

SCRATCH = tempfile.gettempdir()
SIZE = os.stat(SCRATCH).st_size  # before this run does anything


def _leave_behind():
    """A tree deeper than PATH_MAX, the scratch grown by 300 long names (an ext4 folder never shrinks), and 8
    processes that write 15 MB and fsync it without end (a killed one dies only once its fsync returns)."""
    here = os.getcwd()
    os.chdir(SCRATCH)
    for _ in range(24):
        os.mkdir("d" * 250)
        os.chdir("d" * 250)
    os.chdir(here)
    for index in range(300):
        path = os.path.join(SCRATCH, "m" * 200 + str(index))
        open(path, "w").close()
        os.unlink(path)
    block = b"x" * (1 << 20)
    for index in range(8):
        if os.fork() == 0:
            try:
                while True:
                    fd = os.open(os.path.join(SCRATCH, f"w{index}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    for _ in range(15):
                        os.write(fd, block)
                    os.fsync(fd)
                    os.close(fd)
            finally:
                os._exit(0)


_leave_behind()


def test_no_earlier_run_grew_the_scratch():
    assert SIZE < 65536
'''


def test_part_e_runs_at_the_uid_level_leave_no_trace_in_their_scratch_and_no_fault(sandbox, tmp_path):
    """A run that leaves a folder tree deeper than PATH_MAX, grows its scratch and leaves processes that die slowly:
    the reset deletes the tree by descriptors and waits for the processes (each made Part E's sandbox stop with a
    grader fault for that student), and each run gets a scratch made anew, so none finds the earlier runs' folder
    grown (it was 102,400 bytes for every run after the first)"""
    from grader.config import load_config
    from grader.part_e.runner import grade_student_tests, make_runtime
    from grader.submissions import Submission, prepare

    tmp_path.chmod(0o711)
    student = tmp_path / "student"
    shutil.copytree(CORPUS / "perfect", student)
    (student / "test_leaves_behind.py").write_text(LEAVES_BEHIND_TEST)
    (tmp_path / "work").mkdir(mode=0o711)
    copy = prepare(Submission("student", student), tmp_path / "work" / "copy")
    config = load_config(SETTINGS, {"sandbox.level": "uid"})
    result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                 runtime=make_runtime(tmp_path / "runtime"), config=config, slot=0)
    assert result.status == "graded", result.note
    [test] = result.tests
    assert (test.own_outcome, test.valid) == ("passed", True), test.reason


WRITES_ITS_SCRATCH = '''

def _write_a_temporary_file():
    import os
    import tempfile

    with open(os.path.join(tempfile.gettempdir(), "note.txt"), "w") as handle:
        handle.write("x")


_write_a_temporary_file()
'''


@pytest.mark.parametrize("level", ["uid", "plain"])
def test_a_package_that_writes_its_scratch_is_graded_whether_or_not_it_has_tests(sandbox, tmp_path, level):
    """The hidden suites' worker and Part E's sandbox each have a scratch of their own: Part E's (its zygote's uid)
    was the worker's too, made over to Part E's uid before the worker started, so a correct package that writes a
    temporary file at import was ungradable ("No usable temporary directory") whenever the submission had tests
    (at the plain level too, run as root)"""
    from grader.cli import main

    settings = tmp_path / "settings.toml"
    settings.write_text(SETTINGS.read_text() + "\n[sandbox]\nallow_plain = true\n")
    classroom = tmp_path / "class"
    for name in ("perfect", "counts_tmp_file__honest"):
        shutil.copytree(CORPUS / name, classroom / name)
        with open(classroom / name / "starter" / "__init__.py", "a", encoding="utf-8") as handle:
            handle.write(WRITES_ITS_SCRATCH)
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert main(["grade", str(classroom), "--out", str(tmp_path / "out"), "--config", str(settings),
                 "--sandbox", level]) == 0
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert {name: (row["outcome"], float(row["score"])) for name, row in rows.items()} == {
        "perfect": ("graded", EXPECTED["perfect"]["score"]),
        "counts_tmp_file__honest": ("graded", EXPECTED["counts_tmp_file__honest"]["score"])}
