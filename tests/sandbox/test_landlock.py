"""Landlock (grader/sandbox/landlock.py) on its own: a process restricted in a forked child of the test, each ABI's
rights, what the levels' warnings say of it, and the sentence a refused file becomes.

The sandbox levels themselves (the worker and Part E's runs restricting themselves) are tests/sandbox/test_landlock_levels.py.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

from grader.sandbox import landlock
from grader.sandbox.channel import _raised_sentence
from grader.sandbox.isolation import WARNINGS, level_warning

ABI = landlock.abi()

needs_landlock = pytest.mark.skipif(ABI == 0, reason="this kernel has no Landlock")


def in_restricted_child(restrict: Callable[[], Any], probe: Callable[[], Any]) -> Any:
    """Fork; in the child, restrict() then probe(); probe's value (JSON) comes back through a pipe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            restrict()
            value = probe()
            os.write(write_end, json.dumps({"value": value}).encode())
        except BaseException as error:  # noqa: BLE001 - reported to the test
            os.write(write_end, json.dumps({"error": repr(error)}).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as handle:
        answer = json.loads(handle.read() or '{"error": "nothing"}')
    os.waitpid(pid, 0)
    assert "error" not in answer, answer["error"]
    return answer["value"]


def attempt(action: Callable[[], Any]) -> str:
    """"ok", or the name of the OSError action raised."""
    try:
        action()
    except OSError as error:
        return type(error).__name__
    return "ok"


@pytest.fixture
def places():
    """A package folder with a file, a scratch folder, a shared world-writable folder (mode 1777, like /run/lock or
    /tmp/.X11-unix) and a world-readable file outside them (like /etc/passwd)."""
    base = Path(tempfile.mkdtemp(prefix="war-grader-landlock-"))
    folders = {name: base / name for name in ("package", "scratch", "shared")}
    for folder in folders.values():
        folder.mkdir()
    folders["shared"].chmod(0o1777)
    (folders["package"] / "mine.py").write_text("X = 1\n")
    (base / "passwd").write_text("root:x:0:0::/root:/bin/sh\n")
    (base / "passwd").chmod(0o644)
    yield base
    for path in sorted(base.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    base.rmdir()


def test_each_abi_handles_the_rights_it_knows():
    """ABI 1 handles the 13 first rights; REFER comes with 2, TRUNCATE with 3, IOCTL_DEV with 5"""
    first = (1 << 13) - 1
    assert landlock.handled_fs(1) == first
    assert landlock.handled_fs(2) == first | landlock.REFER
    assert landlock.handled_fs(3) == landlock.handled_fs(4) == first | landlock.REFER | landlock.TRUNCATE
    assert landlock.handled_fs(5) == landlock.handled_fs(7) == landlock.handled_fs(4) | landlock.IOCTL_DEV


@needs_landlock
def test_a_restricted_process_reads_its_package_writes_its_scratch_and_nothing_else(places):
    """Read the package, write the scratch and /dev/null; no file in a shared world-writable folder, no read of a
    world-readable file outside, no listing of /, no exec (EACCES, PermissionError, every one)"""
    package, scratch, shared = (str(places / name) for name in ("package", "scratch", "shared"))

    def probe() -> dict[str, str]:
        return {
            "read package": attempt(lambda: open(os.path.join(package, "mine.py")).read()),
            "write scratch": attempt(lambda: open(os.path.join(scratch, "note"), "w").write("x")),
            "write /dev/null": attempt(lambda: open(os.devnull, "w").write("x")),
            "write shared": attempt(lambda: open(os.path.join(shared, "left"), "w").write("x")),
            "write package": attempt(lambda: open(os.path.join(package, "new.py"), "w").write("x")),
            "read passwd": attempt(lambda: open(str(places / "passwd")).read()),
            "list /": attempt(lambda: os.listdir("/")),
            "exec": attempt(lambda: os.execv("/bin/true", ["true"])),
        }

    found = in_restricted_child(lambda: landlock.restrict(read=[package], write=[scratch, os.devnull]), probe)
    assert found == {"read package": "ok", "write scratch": "ok", "write /dev/null": "ok",
                     "write shared": "PermissionError", "write package": "PermissionError",
                     "read passwd": "PermissionError", "list /": "PermissionError", "exec": "PermissionError"}
    assert os.listdir(places / "shared") == []


@needs_landlock
def test_site_packages_is_left_out_of_a_folder_read_whole(places):
    """A read folder holding site-packages (a python.org build's standard library) is readable but for it"""
    library = places / "package"
    (library / "site-packages").mkdir()
    (library / "site-packages" / "grader.py").write_text("SECRET = 1\n")

    def probe() -> list[str]:
        return [attempt(lambda: open(library / "mine.py").read()),
                attempt(lambda: open(library / "site-packages" / "grader.py").read())]

    assert in_restricted_child(lambda: landlock.restrict(read=[str(library)], write=[], left_out=landlock.LEFT_OUT),
                               probe) == ["ok", "PermissionError"]


@needs_landlock
def test_the_interpreter_still_imports_what_it_has_not_loaded_yet(places):
    """confine() finds the interpreter's own files: after it, modules and extension modules not imported before
    (with the shared libraries they load) import; the site-packages pytest came from is not readable"""
    import pytest as loaded

    def probe() -> list[Any]:
        import decimal, hashlib, zoneinfo, xml.dom.minidom  # noqa: E401, F401, PLC0415 - imported now, under Landlock
        return [str(decimal.Decimal(1) / 4), hashlib.sha256(b"").hexdigest()[:8],
                attempt(lambda: open(loaded.__file__).read())]

    def confine() -> None:
        sys.path[:] = [entry for entry in sys.path if entry.startswith(sys.base_prefix)]  # as the worker's -I -S
        landlock.confine(package=str(places / "package"), runtime=str(places / "shared"),
                         scratch=str(places / "scratch"))

    assert in_restricted_child(confine, probe) == ["0.25", "e3b0c442", "PermissionError"]


@needs_landlock
def test_tcp_is_refused_from_abi_4_and_signals_scoped_from_abi_6(places):
    """Best effort per ABI: restricted as ABI 1 a process still connects on loopback and signals its parent; as
    ABI 4 it cannot connect; as ABI 6 it cannot signal a process outside its domain either"""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]
    parent = os.getpid()
    scratch = str(places / "scratch")

    def connect() -> None:
        with socket.socket() as client:  # no name to resolve: nothing to import under an empty read list
            client.settimeout(5)
            client.connect(("127.0.0.1", port))

    def probe() -> list[str]:
        return [attempt(connect), attempt(lambda: os.kill(parent, 0))]

    try:
        results = {version: in_restricted_child(lambda: landlock.restrict(read=[], write=[scratch], version=version),
                                                probe)
                   for version in (1, 4, 6) if version <= ABI}
    finally:
        listener.close()
    assert results[1] == ["ok", "ok"]
    if ABI >= 4:
        assert results[4] == ["PermissionError", "ok"]
    if ABI >= 6:
        assert results[6] == ["PermissionError", "PermissionError"]


@needs_landlock
def test_a_rename_between_folders_of_the_scratch_needs_abi_2(places):
    """REFER: from ABI 2 a file may move between folders of the scratch; ABI 1 refuses any such move (EXDEV)"""
    scratch = places / "scratch"

    def probe() -> str:
        (scratch / "a").mkdir(exist_ok=True)
        (scratch / "b").mkdir(exist_ok=True)
        (scratch / "a" / "f").write_text("x")
        result = attempt(lambda: os.rename(scratch / "a" / "f", scratch / "b" / "f"))
        for path in (scratch / "a" / "f", scratch / "b" / "f"):
            if path.exists():
                path.unlink()
        return result

    assert in_restricted_child(lambda: landlock.restrict(read=[], write=[str(scratch)], version=1), probe) == "OSError"
    if ABI >= 2:
        assert in_restricted_child(lambda: landlock.restrict(read=[], write=[str(scratch)], version=2), probe) == "ok"


@needs_landlock
def test_enforce_closes_the_ruleset_so_no_student_can_add_to_it(places):
    """A ruleset made once (Part E's zygote) and enforced in a child: the child's scratch is added, and the
    descriptor is closed before anything else runs"""
    rules = landlock.student_ruleset(package=str(places / "package"), runtime=str(places / "shared"))
    assert rules is not None
    try:
        def restrict() -> None:
            landlock.enforce(rules, write=[str(places / "scratch")])

        def probe() -> list[str]:
            return [attempt(lambda: os.fstat(rules)), attempt(lambda: open(places / "scratch" / "n", "w").write("x"))]

        assert in_restricted_child(restrict, probe) == ["OSError", "ok"]
    finally:
        os.close(rules)


def test_the_uid_levels_warning_says_what_landlock_did_or_could_not_do():
    """uid: without Landlock the world-writable folders are named; ABI 4 and 5 lack scoping; ABI 1 to 3 lack it
    too; from 6 nothing is said missing. plain says how far Landlock protected the suites; bwrap and unshare say
    nothing at any ABI"""
    assert "no Landlock" in level_warning("uid", 0) and "/run/lock" in level_warning("uid", 0)
    for abi in (1, 2, 3, 4, 5):
        assert f"Landlock (ABI {abi}) cannot keep its signals and abstract Unix sockets" in level_warning("uid", abi)
    assert "with no TCP" in level_warning("uid", 4) and "with no TCP" not in level_warning("uid", 3)
    assert "cannot" not in level_warning("uid", 6) and level_warning("uid", 6) == level_warning("uid", 7)
    assert all(level_warning("uid", abi).startswith(WARNINGS["uid"]) for abi in range(8))
    assert level_warning("plain", 0) == WARNINGS["plain"] and "could read the hidden suites" in WARNINGS["plain"]
    assert "cannot keep it from the network" in level_warning("plain", 3)
    assert "from TCP" in level_warning("plain", 4) and "from other processes" in level_warning("plain", 6)
    assert all(level_warning(level, abi) == "" for level in ("bwrap", "unshare") for abi in range(8))


def test_a_refused_file_is_the_students_error_in_one_sentence():
    """EACCES raised by the student's code reads "tried to reach something outside what it was given"; a
    PermissionError of the student's own making keeps its own words"""
    refused = _raised_sentence("shuffle", {"type": "PermissionError", "traceback": "",
                                           "message": "[Errno 13] Permission denied: '/run/lock/x'"})
    assert refused.startswith("shuffle tried to reach something outside what it was given (PermissionError: "
                              "[Errno 13] Permission denied: '/run/lock/x')")
    assert "\n" not in refused and refused.count(". ") == 0
    own = _raised_sentence("shuffle", {"type": "PermissionError", "message": "not yours", "traceback": ""})
    assert own == "shuffle raised PermissionError: not yours"


def test_abi_is_a_number_and_zero_where_the_architecture_is_unknown(monkeypatch):
    """abi() is the kernel's answer here, and 0 on a machine whose system call numbers are not known"""
    assert isinstance(ABI, int) and ABI >= 0
    monkeypatch.setattr(landlock, "MACHINES", ())
    assert landlock.abi() == 0
    assert landlock.restrict(read=[], write=[]) == 0
