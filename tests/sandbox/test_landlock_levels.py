"""Landlock at every sandbox level the machine offers: the hidden suites' worker and Part E's runs write only in
their scratch, read no file of the host's outside what they were given, connect no TCP, signal no process outside
their own, and the corpus's attacks on what the uid level leaves shared (plants_run_lock, hides_in_x11_folder)
gain nothing, in a batch after a partner and in a container (tests/container_profile.py)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader.batch import grade
from grader.results import read_results
from grader.sandbox import landlock
from grader.sandbox.channel import StudentRaised
from grader.sandbox.isolation import NAMESPACED, level_warning
from sandbox_probe import LEVEL_PARAMS, available, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures
from corpus import PINS, corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
EXPECTED = json.loads(PINS.read_text(encoding="utf-8"))
CONFIG = ROOT / "tests" / "data" / "grading-test.toml"
PROFILE = [sys.executable, str(ROOT / "tests" / "container_profile.py")]

pytestmark = pytest.mark.skipif(landlock.abi() == 0, reason="this kernel has no Landlock")

SHARED = ("/run/lock", "/var/tmp", "/dev/shm")
"""Folders every user may write in on a host (the test adds one inside /tmp, like /tmp/.X11-unix)."""


@pytest.fixture
def x11_like():
    """A folder inside /tmp that root owns and every user may write in (mode 1777), as /tmp/.X11-unix is."""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-x11-like-", dir="/tmp"))
    folder.chmod(0o1777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_worker_creates_nothing_in_the_shared_folders(tmp_path, runtime, level, x11_like):
    """/tmp/.X11-unix-like folders, /run/lock, /var/tmp and /dev/shm: each write fails inside the run (absent
    under bwrap and unshare, refused by Landlock at uid and plain), nothing appears on the host, and a write left
    uncaught is the student's error in one sentence, as is a read of a file the run was not given"""
    client = probe_client(tmp_path, runtime, level)
    name = f"war-grader-landlock-{os.getpid()}"
    targets = [str(x11_like), *SHARED]
    try:
        code = ("import os\nresult = []\n"
                f"for folder in {targets!r}:\n"
                "    try:\n"
                f"        open(os.path.join(folder, {name!r}), 'w').write('planted')\n"
                "        result.append('wrote')\n"
                "    except OSError as error:\n"
                "        result.append(type(error).__name__)")
        found = run(client, code)["list"]
        assert "wrote" not in found
        if level not in NAMESPACED:
            assert found == ["PermissionError"] * len(targets)
        assert not any(os.path.exists(os.path.join(folder, name)) for folder in targets)
        if level not in NAMESPACED:
            with pytest.raises(StudentRaised, match=r"^shuffle tried to reach something outside what it was given "
                                                    r"\(PermissionError: \[Errno 13\] Permission denied: '/run/lock/"):
                run(client, f"open('/run/lock/{name}', 'w')")
        with pytest.raises(StudentRaised, match=r"^shuffle tried to reach something outside what it was given .*"
                                                r"may read only its own files and write only in its working folder$"):
            run(client, "open('/usr/bin/env', 'rb').read(1)")  # present at every level, never given
        assert run(client, "import decimal\nresult = str(decimal.Decimal(1) / 8)") == "0.125"  # honest work goes on
    finally:
        client.stop()
        for folder in targets:  # what a run without Landlock would leave (this test failing) goes with it
            Path(folder, name).unlink(missing_ok=True)


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_worker_reads_no_host_file_it_was_not_given(tmp_path, runtime, level):
    """/etc/passwd and a world-readable file beside the submission's folder cannot be read (at uid and plain the
    uid could, Landlock refuses); its own package and the standard library can"""
    outside = tmp_path / "readable-by-all.txt"
    outside.write_text("host file")
    outside.chmod(0o644)
    client = probe_client(tmp_path, runtime, level)
    try:
        code = ("import os\nresult = []\n"
                f"for path in ('/etc/passwd', {str(outside)!r}):\n"
                "    try:\n        open(path).read(1)\n        result.append('read')\n"
                "    except OSError as error:\n        result.append(type(error).__name__)\n"
                "import probe\nresult.append(len(open(probe.__file__).read()) > 0)\n"
                "import json\nresult.append(len(open(json.__file__).read()) > 0)")
        found = run(client, code)["list"]
        assert "read" not in found[:2] and found[2:] == [True, True]
        if level not in NAMESPACED:
            assert found[:2] == ["PermissionError"] * 2
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_worker_cannot_connect_tcp_on_loopback(tmp_path, runtime, level):
    """A listener of the test's on 127.0.0.1 is never reached: no network namespace is needed (plain has none,
    the uid level's seccomp filter is a second wall)"""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    client = probe_client(tmp_path, runtime, level)
    try:
        code = ("import socket\ntry:\n    with socket.socket() as s:\n        s.settimeout(3)\n"
                f"        s.connect(('127.0.0.1', {port}))\n    result = 'connected'\n"
                "except OSError as error:\n    result = type(error).__name__")
        assert run(client, code) != "connected"
        with pytest.raises(socket.timeout):
            listener.accept()
    finally:
        client.stop()
        listener.close()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_worker_cannot_signal_a_process_of_its_uid_outside_its_own(tmp_path, runtime, level):
    """A process running as the worker's own uid but started outside the sandbox: the worker's signal fails
    (outside its PID namespace under bwrap and unshare; Landlock's signal scoping at uid and plain, from ABI 6) and
    the process lives on"""
    client = probe_client(tmp_path, runtime, level)
    uid = client.spec.uid
    as_uid = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"] if uid is not None else []
    sleeper = subprocess.Popen([*as_uid, "sleep", "60"], cwd="/")
    try:
        code = (f"import os, signal\ntry:\n    os.kill({sleeper.pid}, signal.SIGTERM)\n    result = 'signalled'\n"
                "except OSError as error:\n    result = type(error).__name__")
        answer = run(client, code)
        scoped = level in NAMESPACED or landlock.abi() >= 6
        assert (answer != "signalled") is scoped, answer
        if scoped:
            assert sleeper.poll() is None
    finally:
        sleeper.kill()
        sleeper.wait()
        client.stop()


PART_E_PROBE = '''
import os


def test_nothing_outside_the_scratch_is_writable():
    for folder in FOLDERS:
        path = os.path.join(folder, "war-grader-landlock-part-e")
        try:
            open(path, "w").close()
        except OSError:
            continue
        raise AssertionError(f"wrote {path}")
    with open(os.path.join(os.environ["TMPDIR"], "mine"), "w") as handle:  # its scratch it may write
        handle.write("x")
'''


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_part_e_run_creates_nothing_in_the_shared_folders(sandbox, tmp_path, level, x11_like):
    """A student's own test that tries each shared folder and writes its scratch passes on its own package (every
    write outside refused inside the run), and nothing is left on the host"""
    from grader.config import load_config
    from grader.part_e.runner import grade_student_tests, make_runtime
    from grader.submissions import Submission, prepare

    tmp_path.chmod(0o711)
    student = tmp_path / "student"
    shutil.copytree(CORPUS / "perfect", student)
    folders = [str(x11_like), *SHARED]
    (student / "test_shared.py").write_text(PART_E_PROBE.replace("FOLDERS", repr(folders)))
    (tmp_path / "work").mkdir(mode=0o711)
    copy = prepare(Submission("student", student), tmp_path / "work" / "copy")
    config = load_config(CONFIG, {"sandbox.level": level, "sandbox.allow_plain": level == "plain"})
    result = grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                 runtime=make_runtime(tmp_path / "runtime"), config=config, slot=0, level=level)
    [test] = result.tests
    assert (test.own_outcome, test.valid) == ("passed", True), test.reason
    assert not any(os.path.exists(os.path.join(folder, "war-grader-landlock-part-e")) for folder in folders)


def partner(into: Path) -> Path:
    """perfect carrying plants_run_lock's _shared.py: a correct student whose worker leaves its package behind."""
    folder = into / "a_partner"
    shutil.copytree(CORPUS / "perfect", folder)
    shutil.copy(CORPUS / "plants_run_lock" / "starter" / "_shared.py", folder / "starter" / "_shared.py")
    with open(folder / "starter" / "__init__.py", "a", encoding="utf-8") as init:
        init.write("\nfrom . import _shared  # noqa: E402\n\n_shared.share(__name__, globals())\n")
    return folder


PLANTED = Path("/run/lock/war_shared_package")
"""Where plants_run_lock leaves its package (and looks for an earlier student's)."""


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_package_planted_in_run_lock_reaches_no_later_student(sandbox, tmp_path, level, x11_like):
    """One batch, one job: a correct partner whose worker plants its package in /run/lock, then plants_run_lock,
    which loads play_game from there if it is found (80 at the uid level without Landlock, its twin 67.53), and
    hides_in_x11_folder, whose runs count themselves in a folder like /tmp/.X11-unix (flipped to a Part E of 0
    there). Each scores exactly its twin, the partner as perfect does, and nothing is left behind"""
    shutil.rmtree(PLANTED, ignore_errors=True)
    names = ("plants_run_lock", "plants_run_lock__honest", "hides_in_x11_folder", "hides_in_x11_folder__honest")
    paths = [partner(tmp_path), *(CORPUS / name for name in names)]
    config = tmp_path / "settings.toml"
    config.write_text(CONFIG.read_text(encoding="utf-8") +
                      f"\n[sandbox]\nlevel = '{level}'\nallow_plain = {str(level == 'plain').lower()}\n")
    try:
        results = {result.student: result for result in
                   grade(paths=paths, out=tmp_path / "out", jobs=1, config_path=config)}
        assert results["a_partner"].score == EXPECTED["perfect"]["score"]
        assert results["plants_run_lock"].score == results["plants_run_lock__honest"].score == \
            EXPECTED["plants_run_lock__honest"]["score"]
        cheat, twin = (read_results(tmp_path / "out" / name / "results.json")
                       for name in ("hides_in_x11_folder", "hides_in_x11_folder__honest"))
        assert cheat.score == twin.score == EXPECTED["hides_in_x11_folder__honest"]["score"]
        assert cheat.student_tests.untrusted == ""
        assert not PLANTED.exists() and os.listdir(x11_like) == []
    finally:
        shutil.rmtree(PLANTED, ignore_errors=True)


@pytest.mark.skipif(not available("uid"), reason="the uid level needs root and setpriv")
def test_in_a_container_the_shared_folders_carry_nothing_between_students(sandbox):
    """Under the container profile (auto chooses uid), with a /tmp/.X11-unix of root's in the container's /tmp:
    the partner, the two attacks and their twins score as in the test above, and no copy is left in /run/lock"""
    shutil.rmtree(PLANTED, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(prefix="war-grader-container-"))
    try:
        folder.chmod(0o755)
        names = ("plants_run_lock", "plants_run_lock__honest", "hides_in_x11_folder", "hides_in_x11_folder__honest")
        partner(folder / "class")
        for name in names:
            shutil.copytree(CORPUS / name, folder / "class" / name)
        command = ('mkdir -m 1777 /tmp/.X11-unix && "$0" grade "$1" --out "$2" --jobs 1 --config "$3" && '
                   'test -z "$(ls -A /tmp/.X11-unix)"')
        done = subprocess.run([*PROFILE, "--keep", str(ROOT), "--keep", str(folder), "/bin/sh", "-c",
                               command, str(ROOT / ".venv" / "bin" / "war-grader"),
                               str(folder / "class"), str(folder / "out"), str(CONFIG)],
                              capture_output=True, text=True, timeout=900, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-2000:]
        scores = {}
        for name in ("a_partner", *names):
            data = json.loads((folder / "out" / name / "results.json").read_text(encoding="utf-8"))
            assert data["extra_data"]["sandbox"] == "uid" and "Landlock kept it" in data["extra_data"]["sandbox_warning"]
            scores[name] = data["score"]
        assert scores == {"a_partner": EXPECTED["perfect"]["score"],
                          **{name: EXPECTED[name.replace("__honest", "") + "__honest"]["score"] for name in names}}
        assert not PLANTED.exists()
    finally:
        shutil.rmtree(PLANTED, ignore_errors=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(not available("uid"), reason="the uid level needs root and setpriv")
def test_where_landlock_is_missing_the_uid_levels_warning_says_so(sandbox):
    """Under the container profile with Landlock's calls refused (ENOSYS, Docker's profile before 2022): the
    workers and Part E's runs go on without it, tests_weak scores its pin at the uid level, and its results'
    warning says this kernel has no Landlock and names the folders left shared"""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-container-"))
    try:
        folder.chmod(0o755)
        shutil.copytree(CORPUS / "tests_weak", folder / "class" / "tests_weak")
        done = subprocess.run([*PROFILE, "--no-landlock", "--keep", str(ROOT), "--keep", str(folder),
                               str(ROOT / ".venv" / "bin" / "war-grader"), "grade", str(folder / "class"), "--out",
                               str(folder / "out"), "--config", str(CONFIG)],
                              capture_output=True, text=True, timeout=900, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-2000:]
        data = json.loads((folder / "out" / "tests_weak" / "results.json").read_text(encoding="utf-8"))
        assert data["score"] == EXPECTED["tests_weak"]["score"]
        assert data["extra_data"]["sandbox"] == "uid"
        assert data["extra_data"]["sandbox_warning"] == level_warning("uid", 0)
        assert "this kernel has no Landlock" in data["extra_data"]["sandbox_warning"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
