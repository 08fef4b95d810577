"""Part E: every run looks alike from inside, and nothing of one run reaches the next, at every sandbox level."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from grader.chaffs import write_reference
from grader.config import load_config
from grader.part_e.runner import grade_student_tests, make_runtime
from grader.sandbox.isolation import Limits, SandboxSpec, level_works
from grader.submissions import Submission, prepare

ROOT = Path(__file__).resolve().parents[2]
TEST_CONFIG = ROOT / "tests" / "data" / "grading-test.toml"
LEVELS = [level for level in ("bwrap", "unshare") if level_works(level)]
"""The levels Part E runs at here. (At plain, Part E collects no test on this machine, before this change as
after it: not covered here.)"""

JOKER = '''
import os
from starter import Queue, play_round


def test_joker():
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue("K")
    assert play_round(q1, q2) == "P1"
'''


_CLEANUP: list[Path] = []


def request_cleanup(folder: Path) -> None:
    _CLEANUP.append(folder)


@pytest.fixture(autouse=True)
def _clean_up_folders():
    yield
    while _CLEANUP:
        shutil.rmtree(_CLEANUP.pop(), ignore_errors=True)


def part_e(into: Path, tests: str, level: str):
    """Part E alone, at a sandbox level, on the reference with these tests."""
    folder = into / "submission"
    write_reference(folder)
    (folder / "tests").mkdir()
    (folder / "tests" / "test_war.py").write_text(tests)
    work = Path(tempfile.mkdtemp(prefix="war-grader-test-"))  # reachable by a sandbox uid (tmp_path is not)
    work.chmod(0o711)
    request_cleanup(work)
    copy = prepare(Submission(folder.name, folder), work / "copy")
    config = load_config(TEST_CONFIG, overrides={"sandbox.level": level, "sandbox.allow_plain": True})
    return grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                               runtime=make_runtime(work / "runtime"), config=config, slot=0)


def verdicts(result) -> dict[str, tuple[bool, str]]:
    return {test.id.partition("::")[2]: (test.valid, test.reason) for test in result.tests}


KERNEL = '''

def test_no_kernel_key_and_no_ipc_left_by_an_earlier_run():
    """Run on the student's own package (no audit hook there, so ctypes works), isolated as every run is: add_key is
    refused (no key can outlive the run), and so is a System V segment (the system call allowlist refuses System V
    IPC: no segment of an earlier run can be found, none made)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    number = 248 if os.uname().machine == "x86_64" else 217
    assert libc.syscall(number, b"user", b"war", b"x", 1, ctypes.c_int(-3)) == -1
    assert libc.shmget(0x5717, 4096, 0o1600) == -1 and ctypes.get_errno() == 1  # EPERM


def test_no_ctypes_once_an_implementation_is_loaded():
    import ctypes
    try:
        ctypes.CDLL(None)
    except RuntimeError:
        return
    assert Queue.__module__ == "starter.structures" and os.path.exists("/submission/starter/structures.py")
'''


@pytest.mark.parametrize("level", LEVELS)
def test_no_run_can_add_a_kernel_key_or_find_an_earlier_runs_ipc(sandbox, tmp_path, level):
    result = part_e(tmp_path, JOKER + KERNEL, level)
    outcomes = {test.id.partition("::")[2]: test.own_outcome for test in result.tests}
    assert outcomes["test_no_kernel_key_and_no_ipc_left_by_an_earlier_run"] == "passed"
    assert verdicts(result)["test_no_ctypes_once_an_implementation_is_loaded"] == (True, "")


ALIKE = '''

def test_pid_and_parent():
    assert (os.getpid(), os.getppid()) == (1, 0)


def listed(folder):
    try:
        return os.listdir(folder)
    except PermissionError:  # Landlock gives a run neither /proc nor /dev/shm
        return []


def test_nothing_of_other_processes():
    assert listed("/proc") == []


def test_empty_scratch():
    shm = os.path.isdir("/dev/shm")  # the unshare level has no /dev/shm
    assert os.listdir("/tmp") == [] and (not shm or listed("/dev/shm") == [])
    for folder in ("/tmp", "/dev/shm") if shm else ("/tmp",):
        try:
            open(f"{folder}/left", "w").write("x")
        except PermissionError:
            assert folder == "/dev/shm"
'''


@pytest.mark.parametrize("level", LEVELS)
def test_every_run_is_pid_1_of_its_own_namespaces_with_an_empty_tmp(sandbox, tmp_path, level):
    """The same pid, parent pid, an empty /proc, /tmp and /dev/shm in every run: these tests pass on every
    correct run, so they are valid."""
    result = part_e(tmp_path, JOKER + ALIKE, level)
    assert result.status == "graded", result.note
    assert all(valid for valid, _ in verdicts(result).values()), verdicts(result)


COUNTER = '''

def test_counts_its_runs():
    """Keeps a count in /tmp: a different outcome on every run it can count."""
    import glob
    marks = len(glob.glob("/tmp/mark-*")) + len(glob.glob("/dev/shm/mark-*"))
    for folder in ("/tmp", "/dev/shm") if os.path.isdir("/dev/shm") else ("/tmp",):
        try:
            open(f"{folder}/mark-{marks}", "w").close()
        except PermissionError:  # Landlock: /dev/shm is not the run's to write
            pass
    assert marks == 0
'''


@pytest.mark.parametrize("level", LEVELS)
def test_a_test_counting_runs_in_files_finds_nothing_to_count(sandbox, tmp_path, level):
    """At every level the count stays at zero (each run starts clean), so the test is valid and catches nothing."""
    result = part_e(tmp_path, JOKER + COUNTER, level)
    assert verdicts(result)["test_counts_its_runs"] == (True, "")
    caught = {test for verdict in result.chaffs for test in verdict.caught_by}
    assert "tests/test_war.py::test_counts_its_runs" not in caught


TIME_WAIT = '''

def test_counts_its_runs_in_time_wait():
    """Keeps a count in TCP ports left in TIME_WAIT on the loopback (a bind then fails with EADDRINUSE): a different
    outcome on every run that shares a loopback with an earlier one."""
    import errno
    import socket
    marks = 0
    try:
        for port in range(47100, 47160):
            probe = socket.socket()
            try:
                probe.bind(("127.0.0.1", port))
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    break
                marks += 1
            finally:
                probe.close()
        server = socket.socket()
        server.bind(("127.0.0.1", 47100 + marks))
        server.listen()
        client = socket.create_connection(("127.0.0.1", 47100 + marks))
        accepted, _ = server.accept()
        accepted.close()  # the side that closes first keeps the port in TIME_WAIT
        client.close()
        server.close()
    except OSError:
        pass
    assert marks == 0
'''


@pytest.mark.parametrize("level", LEVELS)
def test_a_test_counting_runs_in_time_wait_sockets_finds_nothing_to_count(sandbox, tmp_path, level):
    """Each run has a network namespace of its own (a loopback that is down): no port an earlier run left in
    TIME_WAIT, so the count stays at zero, the test is valid and catches nothing (with one loopback shared by the
    runs, it counted them)"""
    result = part_e(tmp_path, JOKER + TIME_WAIT, level)
    assert result.status == "graded", result.note
    assert verdicts(result)["test_counts_its_runs_in_time_wait"] == (True, "")
    caught = {test for verdict in result.chaffs for test in verdict.caught_by}
    assert "tests/test_war.py::test_counts_its_runs_in_time_wait" not in caught


LOCKED = '''

def test_leaves_a_folder_it_cannot_delete():
    os.makedirs("/tmp/locked/inner", exist_ok=True)
    open("/tmp/locked/inner/data", "w").write("x")
    os.chmod("/tmp/locked/inner", 0o500)
    os.chmod("/tmp/locked", 0o500)
    assert os.listdir("/tmp") == ["locked"]
'''


@pytest.mark.parametrize("level", LEVELS)
def test_a_folder_whose_mode_blocks_deletion_is_still_removed_between_runs(sandbox, tmp_path, level):
    result = part_e(tmp_path, JOKER + LOCKED, level)
    assert verdicts(result)["test_leaves_a_folder_it_cannot_delete"] == (True, "")


@pytest.fixture()
def zygote(monkeypatch):
    """in_sandbox.py loaded as a module (it imports its neighbours from the runtime folder: here, the sources)."""
    import importlib.util
    import sys

    monkeypatch.syspath_prepend(str(ROOT / "grader" / "sandbox"))
    monkeypatch.delitem(sys.modules, "run_world", raising=False)
    # It sets os.environ and sys.path for the sandbox's process; give both back, or later pytest runs that this
    # process starts load no plugins ("Unknown config option: timeout").
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    spec = importlib.util.spec_from_file_location("e17_in_sandbox", ROOT / "grader" / "part_e" / "in_sandbox.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("e17_in_sandbox", None)


def test_the_reset_deletes_a_folder_whose_mode_blocks_deletion(tmp_path, zygote):
    locked = tmp_path / "locked" / "inner"
    locked.mkdir(parents=True)
    (locked / "data").write_text("x")
    locked.chmod(0o500)
    locked.parent.chmod(0o500)
    zygote.run_world._delete(str(tmp_path / "locked"))
    assert list(tmp_path.iterdir()) == []


def test_the_reset_deletes_a_tree_deeper_than_a_path_or_pythons_recursion_can_reach(tmp_path, zygote):
    """A run's folders nested past PATH_MAX (24 names of 250 characters) and past Python's recursion limit (2,000
    levels): deleted all the same (by path names the reset failed with ENAMETOOLONG, a grader fault for that
    student's whole Part E; by recursion it would raise RecursionError)"""
    import sys

    for name, depth in (("d" * 250, 24), ("n", sys.getrecursionlimit() + 1000)):
        top = tmp_path / "left"
        top.mkdir()
        folder = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
        for _ in range(depth):
            os.mkdir(name, dir_fd=folder)
            inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=folder)
            os.close(folder)
            folder = inner
        os.close(os.open("leaf", os.O_WRONLY | os.O_CREAT, dir_fd=folder))
        os.chmod(folder, 0o500)
        os.close(folder)
        zygote.run_world._delete(str(top))
        assert list(tmp_path.iterdir()) == []


def test_a_reset_that_cannot_remove_something_is_a_grader_fault(tmp_path, zygote, monkeypatch):
    """Never ignored: the run stops with the grader's fault (the trusted side says so to the student)."""
    root = tmp_path / "copy"
    root.mkdir()
    (root / "kept.py").write_text("x = 1\n")
    snapshot = zygote.run_world.snapshot(str(root))
    (root / "left.txt").write_text("from a run")

    def refuse(path, *args, **kwargs):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(zygote.os, "unlink", refuse)
    with pytest.raises(zygote.Fault, match="left.txt could not be deleted"):
        zygote.run_world.reset(str(root), snapshot, sweep=False, private_tmp=False)


def test_a_reset_leaves_the_copy_byte_for_byte_as_the_snapshot_holds_it(tmp_path, zygote):
    """What a run changed in the copy is written back, what it deleted restored, what it added (files, folders, a
    symlink) removed: the next run finds the copy as the first found it"""
    root = tmp_path / "copy"
    (root / "starter").mkdir(parents=True)
    (root / "starter" / "game.py").write_text("def play_game():\n    pass\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_war.py").write_text("def test_a():\n    pass\n")
    snapshot = zygote.run_world.snapshot(str(root))
    (root / "starter" / "game.py").write_text("changed by a run")
    (root / "tests" / "test_war.py").unlink()
    (root / "left" / "deep").mkdir(parents=True)
    (root / "left" / "deep" / "count").write_text("1")
    (root / "starter" / "link").symlink_to("/etc/hostname")
    zygote.run_world.reset(str(root), snapshot, sweep=False, private_tmp=False)
    assert zygote.run_world.snapshot(str(root)) == snapshot
    assert sorted(str(path.relative_to(root)) for path in root.rglob("*")) == [
        "starter", "starter/game.py", "tests", "tests/test_war.py"]


def test_an_implementation_is_served_from_memory_at_the_students_own_paths(zygote, monkeypatch):
    """The finder imports the package and its modules from the sources it was given, each at its file in the
    student's folder, with every line number 1, and serves no other name; once loaded, it holds no source"""
    import sys

    sources = {"__init__.py": "from .rules import value\n", "rules.py": "def value():\n\n    return 42\n"}
    finder = zygote.run_sources.Sources("e30_served", "/submission/e30_served", dict(sources), {})
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    try:
        zygote.run_sources.load_all(finder, salt=7)
        package = sys.modules["e30_served"]
        assert package.value() == 42 and package.rules.__file__ == "/submission/e30_served/rules.py"
        assert {line for *_, line in package.value.__code__.co_lines()} <= {1, None}
        assert finder.find_spec("e30_other") is None and finder.find_spec("e30_served.rules.deeper") is None
        assert finder.sources == {} and finder.code == {}
    finally:
        for name in [name for name in sys.modules if name.partition(".")[0] == "e30_served"]:
            del sys.modules[name]


def test_the_sandbox_flattens_code_exactly_as_the_trusted_side_does(zygote):
    """The sandbox's run_sources.py keeps its own copy of flat_code (it imports nothing of the grader): both give the
    same code"""
    from grader.part_e.runner import flat_code

    source = "class A:\n    def f(self, x):\n\n        return [i * x for i in range(3)]\n"
    assert zygote.run_sources.flat_code(source, "/submission/starter/game.py") == flat_code(source, "/submission/starter/game.py")


UNSEEDED = '''

import random

DRAWN = random.random()  # at import, while pytest collects


def test_draws_unseeded_numbers():
    """Honest but careless: random numbers without a seed, at import and in the test."""
    assert DRAWN > 0.5 and random.random() > 0.5
'''


def test_unseeded_random_numbers_are_the_same_in_every_run(sandbox, tmp_path):
    """random is seeded alike before collection and before each test: no run draws other numbers, so a test
    using them without a seed gets one outcome on every run (no flip) and the suite still counts."""
    result = part_e(tmp_path, JOKER + UNSEEDED, LEVELS[0])
    assert verdicts(result)["test_draws_unseeded_numbers"] == (True, "")
    assert result.untrusted == "" and sum(scenario.score for scenario in result.scenarios) > 0


UNSEEDED_GAME = '''

from starter import play_game


def test_an_unseeded_game_is_the_same_game_every_time():
    """Honest but careless: play_game() without a seed, whose generator random.Random(None) would draw its seed
    from the operating system; two such games in one run, and the games of every run, are the same."""
    first, second = play_game(max_rounds=300), play_game(max_rounds=300)
    assert first == second
    assert first.rounds == len(first.history) and first.p1_cards + first.p2_cards == 54
'''


def test_an_unseeded_game_in_a_test_is_the_same_on_every_run(sandbox, tmp_path):
    """random.Random() without a seed starts from the same seed in every run, as random does: the unseeded game
    passes on every run of every wheat (valid, no flip) and the suite still counts."""
    result = part_e(tmp_path, JOKER + UNSEEDED_GAME, LEVELS[0])
    assert verdicts(result)["test_an_unseeded_game_is_the_same_game_every_time"] == (True, "")
    assert result.untrusted == "" and sum(scenario.score for scenario in result.scenarios) > 0


TELLS_THE_FIRST_RUN = '''

def test_fails_on_the_first_reference_run():
    """Cheat: the reference's first run used to set the deadlines and had none in its command, which the test
    finds in the frames above it; it fails on such a run and passes everywhere else."""
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, dict) and value.get("op") == "run" and "select" in value:
                assert "deadlines" in value
                return
        frame = frame.f_back
'''


def test_no_judged_run_has_a_command_of_its_own(sandbox, tmp_path):
    """Every run after the student's own package gets the very same command, built from the own run: a test that
    fails on a run whose command differs (the reference's first, before issue 26) fails on none, and the honest
    Joker test keeps its points."""
    result = part_e(tmp_path, JOKER.replace("import os", "import os, sys") + TELLS_THE_FIRST_RUN, LEVELS[0])
    assert verdicts(result)["test_fails_on_the_first_reference_run"] == (True, "")
    assert result.untrusted == "" and sum(scenario.score for scenario in result.scenarios) > 0
    assert not any("test_fails_on_the_first_reference_run" in verdict.caught_by for verdict in result.chaffs)


def test_a_fault_inside_the_sandbox_reaches_the_student_as_the_graders_not_theirs(sandbox, monkeypatch, tmp_path):
    """A zygote that could not set a run up or clean after one says "fault": Part E stops and the submission is a
    grader fault (graded again next time), whose reason says the grader could not run the tests (never a score
    from a half-reset sandbox, nor a Part E of 0 charged to the student)."""
    import sys

    from grader.part_e import runner
    from grader.part_e import session as session_module

    script = ("import json, sys\nprint(json.dumps({'boot': True}), flush=True)\nsys.stdin.readline()\n"
              "print(json.dumps({'fault': '/tmp could not be emptied'}), flush=True)\nsys.stdin.readline()\n")
    session = session_module.Session([sys.executable, "-c", script], {}, Limits(), None, "plain")
    session.launch()
    student_tests = runner.StudentTests(tmp_path, "starter", ("tests/test_war.py",), (), load_config(TEST_CONFIG))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_war.py").write_text("def test_a():\n    pass\n")
    student_tests.session = session
    student_tests.spec = SandboxSpec(level="plain", root=str(tmp_path), package="starter", runtime="",
                                            python=sys.executable, python_home="", uid=None, limits=Limits())
    try:
        with pytest.raises(runner.PartEFault) as fault:
            student_tests.grade()
    finally:
        student_tests.close()
    assert str(fault.value).startswith("The grader could not run your tests") and "ask your instructor" in str(fault.value)


@pytest.mark.parametrize("known_clone", [True, False])
def test_a_runs_child_is_pid_1_of_its_own_namespaces_by_clone_or_through_a_helper(zygote, monkeypatch, known_clone):
    """fork_child: one fork into the run's namespaces (clone(2)) or, where clone's number is not known, a helper
    that unshares and forks; either way the child is PID 1 with parent pid 0 and its own uid mapped to itself, its
    network namespace holds only a loopback, and the zygote reaps what it was told to (a helper is reaped too)."""
    import json
    import os

    if not known_clone:
        monkeypatch.setattr(zygote.run_world, "SYS_CLONE", {})
    elif os.uname().machine not in zygote.run_world.SYS_CLONE:
        pytest.skip(f"no clone(2) number known for {os.uname().machine}")  # the other case covers this machine
    ids = (os.getuid(), os.getgid())
    read_end, write_end = os.pipe()
    pid, reaped, isolated = zygote.run_world.fork_child()
    if pid == 0:
        try:
            os.close(read_end)
            if isolated:
                zygote.run_world.map_own_ids(*ids)
            with open("/proc/self/net/dev") as devices:  # the network namespace's own interfaces
                names = sorted(line.split(":")[0].strip() for line in devices.read().splitlines()[2:])
            os.write(write_end, json.dumps([isolated, os.getpid(), os.getppid(), os.getuid(), names]).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        reported = json.loads(pipe.read() or "null")
    os.waitpid(reaped, 0)
    assert reported is not None, "the child reported nothing"
    if not reported[0]:
        pytest.skip("this machine gives no namespaces to a child of this process")
    assert reported[1:] == [1, 0, ids[0], ["lo"]]
    assert (reaped == pid) == known_clone
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)  # nothing left to reap: neither the child nor a helper


@pytest.mark.parametrize("known_clone", [True, False])
def test_where_the_namespaces_are_refused_a_runs_child_is_a_plain_fork_of_the_zygote(zygote, monkeypatch,
                                                                                     known_clone):
    """Where the kernel refuses the run's namespaces (the uid level in a container), fork_child makes a plain child
    that says so: its parent is the zygote (the same in every run) and the zygote reaps it."""
    import os

    monkeypatch.setattr(zygote.run_world, "NAMESPACES", -1)  # no flags the kernel accepts: clone and unshare fail
    if not known_clone:
        monkeypatch.setattr(zygote.run_world, "SYS_CLONE", {})
    read_end, write_end = os.pipe()
    pid, reaped, isolated = zygote.run_world.fork_child()
    if pid == 0:
        try:
            os.write(write_end, f"{isolated} {os.getppid()}".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        reported = pipe.read()
    os.waitpid(reaped, 0)
    assert reported == f"False {os.getpid()}" and reaped == pid and not isolated
