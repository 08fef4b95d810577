"""Isolation at every level: what the worker sees and may write, whose uid it runs as, and how it ends."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.config import load_config
from grader.grading.checks import Opaque, decode
from grader.grading.harness import Student
from grader.sandbox import landlock
from grader.sandbox.channel import StudentCrash, StudentMissing, StudentRaised, StudentTimeout, Ungradable
from grader.sandbox.isolation import SandboxError, choose_level, fresh_uids, level_warning, processes_of, uid_block

from sandbox_probe import LEVEL_PARAMS, NAMESPACED_PARAMS, PROBE, probe_client, run, runtime, tmp_path  # noqa: F401
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("level", NAMESPACED_PARAMS)
def test_the_suites_the_reference_and_the_host_are_not_there(tmp_path, runtime, level):
    """Under bubblewrap and unshare the worker sees its copy, Python and /tmp: no suites, reference or /work"""
    client = probe_client(tmp_path, runtime, level)
    suites, reference = ROOT / "grader" / "grading" / "suites", ROOT / "reference"
    try:
        code = ("import os\nresult = [os.path.exists(p) for p in "
                f"({str(suites)!r}, {str(reference)!r}, {str(tmp_path)!r}, '/home', '/work', '/root/.bashrc', "
                "'/etc/passwd')]")
        assert run(client, code) == {"list": [False] * 7}
        assert run(client, "import os; result = sorted(os.listdir('/submission'))") == {"list": ["probe"]}
        assert run(client, "import importlib.util; result = importlib.util.find_spec('reference') is None") is True
    finally:
        client.stop()


@pytest.mark.parametrize("level", NAMESPACED_PARAMS)
def test_student_writes_stop_at_the_scratch_quota(tmp_path, runtime, level):
    """Writing without end fills a size-limited private /tmp and stops there; the copy and / are read-only"""
    client = probe_client(tmp_path, runtime, level, scratch_bytes=8 * 1024**2)
    try:
        code = ("import os\nwritten = 0\ntry:\n    for i in range(100):\n"
                "        with open(f'/tmp/fill{i}', 'wb') as f:\n            f.write(b'x' * 1024 * 1024)\n"
                "        written += 1024 * 1024\nexcept OSError as error:\n    stop = error.errno\n"
                "result = written")
        written = run(client, code)
        assert 6 * 1024**2 <= written <= 8 * 1024**2
        for target in ("/submission/probe/planted.py", "/planted", "/usr/planted", "/dev/planted"):
            code = (f"try:\n    open({target!r}, 'w').write('x')\n    result = 'wrote'\n"
                    "except OSError:\n    result = 'denied'")
            assert run(client, code) == "denied", target
    finally:
        client.stop()


FILES = ("import os\nmade = 0\ntry:\n    while made < COUNT:\n        open(f'f{made}', 'w').close()\n"
         "        made += 1\nexcept OSError:\n    pass\nresult = made")
"""Student code creating COUNT empty files in its working folder (its scratch), or until refused."""


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_files_in_the_scratch_are_counted_and_more_than_scratch_files_is_the_students_fault(tmp_path, runtime, level):
    """scratch_files (200 here) files and folders are allowed; creating files without end is stopped with one
    sentence (bwrap and unshare: during the call, unshare's tmpfs also refusing past the limit; uid and plain,
    whose scratch is a folder: after the call, so the test's code stops by itself at 250 files there), and the
    next call gets a fresh scratch (900,000 empty files took 8 s, kernel memory outside every limit)"""
    client = probe_client(tmp_path, runtime, level, scratch_files=200, call_timeout=10.0)
    endless = level in ("bwrap", "unshare")
    try:
        assert run(client, FILES.replace("COUNT", "199") + "\nos.mkdir('folder')") == 199
        with pytest.raises(StudentMissing, match="your code created more than 200 files and folders in its folder"):
            run(client, FILES.replace("COUNT", "10**9" if endless else "250"))
        assert client.last_charged < 5.0
        assert run(client, "import os\nresult = len(os.listdir('.'))") == 0
        with pytest.raises(StudentMissing, match="more than 200 files"):  # then hangs: counted at its deadline
            run(client, FILES.replace("COUNT", "250") + "\nwhile True:\n    pass", timeout=1.0)
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_the_private_tmp_is_writable_and_is_the_working_folder(tmp_path, runtime, level):
    """The worker can write a file in its temporary folder and its working folder (docs/sandbox.md's "private /tmp")"""
    client = probe_client(tmp_path, runtime, level)
    try:
        code = ("import os, tempfile\nopen(os.path.join(tempfile.gettempdir(), 'note'), 'w').write('x')\n"
                "open('here.txt', 'w').write('y')\nresult = os.getcwd() == tempfile.gettempdir()")
        assert run(client, code) is True
    finally:
        client.stop()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can run workers as other uids")
@pytest.mark.parametrize("level", [param for param in LEVEL_PARAMS if param.values[0] == "plain"])
def test_at_plain_what_the_worker_left_in_tmp_is_deleted(tmp_path, runtime, level):
    """At plain nothing hides the host's /tmp: Landlock refuses a file there, and without Landlock the files the
    worker's uid wrote there go when it stops"""
    client = probe_client(tmp_path, runtime, level)
    planted = Path(f"/tmp/war-grader-planted-{os.getpid()}")
    try:
        if landlock.abi():
            with pytest.raises(StudentRaised, match="PermissionError"):
                run(client, f"open({str(planted)!r}, 'wb').write(b'x' * 1000)\nresult = 1")
            assert not planted.exists()
        else:
            run(client, f"open({str(planted)!r}, 'wb').write(b'x' * 1000)\nresult = 1")
            assert planted.exists()
    finally:
        client.stop()
    assert not planted.exists()


def test_plain_is_refused_unless_the_instructor_opts_in(sandbox, tmp_path):
    """--sandbox plain without sandbox.allow_plain is one sentence naming the setting; with it, plain is used
    and every result says the suites were readable"""
    with pytest.raises(SandboxError, match="allow_plain"):
        choose_level("plain")
    assert choose_level("plain", allow_plain=True) == "plain"
    config = tmp_path / "plain.toml"
    config.write_text("[sandbox]\nlevel = 'plain'\n")
    perfect = str(corpus() / "perfect")
    completed = subprocess.run([sys.executable, "-m", "grader", "grade", perfect,
                                "--out", str(tmp_path / "out"), "--config", str(config)],
                               capture_output=True, text=True, timeout=120, check=False)
    assert completed.returncode == 2 and not (tmp_path / "out" / "perfect").exists()
    assert completed.stderr.count("\n") == 1 and "allow_plain" in completed.stderr
    config.write_text("[sandbox]\nlevel = 'plain'\nallow_plain = true\n")
    assert load_config(config, environ={}).allow_plain is True
    completed = subprocess.run([sys.executable, "-m", "grader", "grade", perfect,
                                "--out", str(tmp_path / "out"), "--config", str(config), "--json"],
                               capture_output=True, text=True, timeout=300, check=False)
    assert completed.returncode == 0, completed.stderr
    result = json.loads((tmp_path / "out" / "perfect" / "results.json").read_text())["extra_data"]
    assert result["sandbox"] == "plain" and result["sandbox_warning"] == level_warning("plain", landlock.abi())
    assert ("Landlock kept the submission from the hidden suites" if landlock.abi() else
            "could read the hidden suites") in result["sandbox_warning"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can run workers as other uids")
def test_two_graders_never_share_a_worker_uid_nor_kill_each_others_workers(tmp_path, runtime):
    """A second grader process holds another uid block, and killing every uid of its block spares our worker"""
    level = "bwrap" if choose_level("auto") == "bwrap" else "unshare"
    client = probe_client(tmp_path, runtime, level)
    try:
        mine = uid_block()
        other = subprocess.run(
            [sys.executable, "-c", "from grader.sandbox.host import uid_block, kill_uid, UID_BLOCK, fresh_uids, "
             "_uids_running\nfirst = uid_block()\n"
             "for uid in [*range(first, first + UID_BLOCK), *_uids_running(fresh_uids())]:\n    kill_uid(uid)\n"
             "print(first)"],
            capture_output=True, text=True, timeout=120, check=True, cwd=ROOT)
        theirs = int(other.stdout)
        assert theirs >= mine + 64 or theirs + 64 <= mine
        assert client.spec.uid in fresh_uids()  # the uids that go with our block, never with theirs
        assert run(client, "result = 'still here'") == "still here"
        assert processes_of(client.spec.uid)
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_closing_every_descriptor_then_looping_ends_in_seconds(tmp_path, runtime, level):
    """os.closerange(3, 256) and an endless loop is a crash within seconds, not a grader hung for minutes"""
    client = probe_client(tmp_path, runtime, level)
    started = time.monotonic()
    try:
        with pytest.raises((StudentCrash, StudentTimeout)):
            run(client, "import os\nos.closerange(3, 256)\nwhile True:\n    pass", timeout=2.0)
        assert time.monotonic() - started < 15
        assert run(client, "result = 'alive'") == "alive"
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_segfault_and_a_sigkill_are_named_by_their_signal(tmp_path, runtime, level):
    """A crash in C reads "killed by SIGSEGV"; SIGKILL and MemoryError carry the out-of-memory hint"""
    client = probe_client(tmp_path, runtime, level)
    try:
        with pytest.raises(StudentCrash, match="killed by SIGSEGV"):
            run(client, "import ctypes\nctypes.string_at(0)")
        with pytest.raises(StudentCrash, match=r"killed by SIGKILL \(out of memory"):
            run(client, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")
        with pytest.raises(StudentRaised, match="raised MemoryError: it ran out of memory"):
            run(client, "result = bytearray(8 * 1024 ** 3)")
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_infinity_nan_and_huge_ints_are_answers_not_grader_faults(tmp_path, runtime, level):
    """float('inf'), nan and a 5000-digit int come back as values the checks can compare"""
    client = probe_client(tmp_path, runtime, level)
    try:
        assert decode(run(client, "result = float('inf')")) == math.inf
        assert math.isnan(decode(run(client, "result = [float('nan')]"))[0])
        assert decode(run(client, "result = 10 ** 100")) == 10**100
        huge = decode(run(client, "result = 10 ** 5000"))
        assert isinstance(huge, Opaque) and huge.type_name == "int"
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_cannot_reach_the_workers_objects_through_main(tmp_path, runtime, level):
    """`import __main__` finds nothing of the worker, nor does sys.modules hold the worker's own modules, and a
    Session patched another way is the student's fault"""
    client = probe_client(tmp_path, runtime, level)
    try:
        assert run(client, "import __main__\nresult = sorted(vars(__main__))") == {"list": ["__name__"]} or \
            run(client, "import __main__\nresult = hasattr(__main__, 'Session')") is False
        own = ("worker", "operations", "trusted_units", "trusted_cards", "line_recorder", "plain_values", "seccomp_bpf",
               "landlock")
        assert run(client, f"import sys\nresult = sorted(set(sys.modules) & set({own!r}))") == {"list": []}
        patch = ("import gc\nfor o in gc.get_objects():\n"
                 "    if isinstance(o, type) and o.__name__ == 'Session' and hasattr(o, 'op_play_round'):\n"
                 "        o.op_play_round = lambda self, **kw: {}\n        o.op_structure_ops = lambda self, **kw: 7\n"
                 "result = 'patched'")
        assert run(client, patch) == "patched"
        student = Student(client, client.times)
        with pytest.raises(StudentMissing, match="answered in a form the grader never asked for"):
            student.play_round(["5"], ["3"])
        with pytest.raises(StudentMissing):
            student.queue_ops(("size",))
    finally:
        client.stop()


REPAIRABLE_PROBE = PROBE + '''

class Queue:
    def __init__(self):
        self.items = []

    def enqueue(self, card):
        self.items.append(card)

    def dequeue(self):
        return self.items.pop(0)

    def is_empty(self):
        return not self.items

    def size(self):
        return len(self.items)


def card_value(card):
    return 0


def play_round(p1, p2, rules=None):
    import sys
    sys.modules[__name__].kept = [value for value in globals().values() if getattr(value, "__module__", "") ==
                                  "trusted_units"]
    return card_value(p1.dequeue()) and "P1"
'''
"""A probe whose play_round is wrong (its card_value says every card is 0) and keeps whatever of the stand-ins it
can reach while a repaired call runs."""

LOOK_FOR_STAND_INS = (
    "import gc, os, sys\n"
    "try:\n    import trusted_units\n    found = ['imported']\nexcept ImportError:\n    found = []\n"
    "found += [p for p in sys.path for name in ('trusted_units.py', 'trusted_cards.py')\n"
    "          if os.path.exists(os.path.join(p, name))]\n"
    "found += [o.__name__ for o in gc.get_objects() if isinstance(o, type) and o.__module__ == 'trusted_units']\n"
    "found += [str(v) for v in getattr(sys.modules[__name__.rpartition('.')[0] or 'probe'], 'kept', [])]\n"
    "result = found")


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_finds_no_stand_in_before_or_after_a_repaired_call(tmp_path, runtime, level):
    """The correct units of a repaired call can never be imported, read or kept: the runtime has no copy, their
    source comes with the call and runs in a child of the worker that ends with it, so what the student's code
    took during the call is gone after it (a submission that borrowed them scored 66.82 with nothing written)"""
    client = probe_client(tmp_path, runtime, level, REPAIRABLE_PROBE)
    try:
        assert run(client, LOOK_FOR_STAND_INS) == {"list": []}
        student = Student(client, client.times)
        assert student.play_round(["5"], ["3"], trusted="card_value").result == "P1"  # repaired, it plays right
        assert student.play_round(["5"], ["3"]).result == 0  # its own card_value again
        assert run(client, LOOK_FOR_STAND_INS) == {"list": []}
    finally:
        client.stop()


RANDOM_PROBE = REPAIRABLE_PROBE + '''

def play_round(p1, p2, rules=None):
    import random
    card_value(p1.dequeue())
    return "P1" if random.random() < 0.5 else "P2"
'''
"""A probe whose play_round draws from the unseeded global generator: the same draw on every call, repaired or not."""


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_repaired_call_draws_the_same_random_numbers_as_the_call_it_repairs(tmp_path, runtime, level):
    """Issue 27 item 1: the repaired call runs in a forked child, and CPython reseeds random in every child from
    the OS; the child starts from the worker's call seed again, so a repair replays the very same draws (with the
    reseed, 12 repaired calls all agree with the plain one by chance once in 2**12)"""
    client = probe_client(tmp_path, runtime, level, RANDOM_PROBE)
    try:
        student = Student(client, client.times)
        plain = student.play_round(["5"], ["3"]).result
        repaired = [student.play_round(["5"], ["3"], trusted="card_value").result for _ in range(12)]
        assert repaired == [plain] * 12
    finally:
        client.stop()


COPYING_PROBE = REPAIRABLE_PROBE.replace('''def play_round(p1, p2, rules=None):
    import sys''', '''def play_round(p1, p2, rules=None):
    import gc, marshal, sys
    seen = list(globals().values())
    try:
        frame = sys._getframe()
        while frame is not None:
            seen += [*frame.f_locals.values(), *frame.f_globals.values()]
            frame = frame.f_back
    except Exception:
        pass
    try:
        seen += gc.get_objects()
    except Exception:
        pass
    seen += [value for item in list(seen) if type(item) is dict for value in list(item.values())]
    kept = []
    for item in seen:
        try:
            if isinstance(item, (str, bytes)) and ("TrustedQueue" in item if isinstance(item, str) else b"TrustedQueue" in item):
                kept.append(["source", item if isinstance(item, str) else item.decode("utf-8", "replace")])
            elif callable(item) and getattr(item, "__module__", "") == "trusted_units":
                kept.append(["code", marshal.dumps(item.__code__).hex()])
            elif isinstance(item, type) and item.__module__ == "trusted_units":
                kept += [["code", marshal.dumps(v.__code__).hex()] for v in vars(item).values() if callable(v)]
        except Exception:
            pass
    import json
    try:
        with open("kept.json", "w") as out:
            json.dump(kept, out)
    except Exception as error:
        return ["not written", type(error).__name__] + sorted({kind for kind, _ in kept})
    return ["written"] + sorted({kind for kind, _ in kept})''')
"""REPAIRABLE_PROBE, whose play_round also walks the frames and every object it can find during a repaired call,
writes to its scratch every text of the stand-ins' source and every code object of theirs it found, and answers
what it found and whether it could write it."""

LOOK_IN_SCRATCH = (
    "import json, marshal\n"
    "try:\n    kept = json.load(open('kept.json'))\nexcept OSError:\n    kept = None\n"
    "found = set()\n"
    "for kind, text in kept or ():\n"
    "    if kind == 'source' and 'class TrustedQueue' in text:\n        found.add('source')\n"
    "    elif kind == 'code' and marshal.loads(bytes.fromhex(text)).co_filename == 'trusted_units.py':\n"
    "        found.add('code')\n"
    "result = [kept is not None, sorted(found)]")


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_repaired_call_leaves_nothing_of_the_stand_ins_for_a_later_call(tmp_path, runtime, level):
    """Student code of a repaired call that walks every frame and object it can reach finds nothing of the stand-ins
    (their source, their code), and cannot write what it found to its scratch for a later call: the source never
    enters a process that ran student code, their code objects are hidden, and nothing can be written during the call
    (with the child forked from the worker, the source sat in the request in a frame of the child: found and kept)"""
    client = probe_client(tmp_path, runtime, level, COPYING_PROBE)
    try:
        student = Student(client, client.times)
        found = student.play_round(["5"], ["3"], trusted="card_value").result
        assert found == ["not written", "PermissionError"]
        assert run(client, LOOK_IN_SCRATCH) == {"list": [False, {"list": []}]}
    finally:
        client.stop()


@pytest.mark.parametrize("package", ["json", "worker", "operations"])
@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_module_named_like_one_the_worker_loaded_is_the_students(tmp_path, runtime, level, package):
    """A package called json (the worker imports json), worker or operations (modules of the worker's own) is
    imported from the copy, not the standard library or the grader"""
    client = probe_client(tmp_path, runtime, level, package=package)
    try:
        assert run(client, f"import {package}\nresult = {package}.__file__.endswith('{package}/__init__.py')") is True
        assert run(client, f"import {package}\nresult = hasattr({package}, 'shuffle')") is True  # the student's
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_module_named_like_one_python_always_loads_is_told_to_rename(tmp_path, runtime, level):
    """A package called os cannot be imported by any interpreter: one sentence asks to rename it"""
    with pytest.raises(Ungradable, match="your module is named os.*rename it"):
        probe_client(tmp_path, runtime, level, package="os")


def test_a_correct_single_file_named_json_scores_full_marks(sandbox, tmp_path):
    """json.py holding a correct solution scores full marks (all but Part E: it has no tests), not 0 for "your
    code has no Queue" """
    from grader.batch import grade

    student = tmp_path / "alice"
    student.mkdir()
    (student / "json.py").write_text((corpus() / "single_file" / "war.py").read_text())
    [result] = grade(paths=[student], out=tmp_path / "out", jobs=1,
                     config_path=ROOT / "tests" / "data" / "grading-test.toml")
    assert (result.outcome, result.score) == ("graded", 100 - result_points(result, "student_tests"))


NETWORK_PROBE = REPAIRABLE_PROBE.replace('''def play_round(p1, p2, rules=None):
    import sys''', '''def play_round(p1, p2, rules=None):
    import os
    return str(os.stat("/proc/self/ns/net").st_ino)
    import sys''')
"""A probe whose play_round answers with its network namespace (the inode of /proc/self/ns/net)."""


@pytest.mark.parametrize("level", NAMESPACED_PARAMS)
def test_a_repaired_call_has_a_network_of_its_own(tmp_path, runtime, level):
    """At bwrap and unshare a repaired call's child has a network namespace of its own, not the worker's (nothing on
    a loopback or an abstract socket its calls share; the hook refuses it sockets anyway)"""
    client = probe_client(tmp_path, runtime, level, NETWORK_PROBE)
    try:
        student = Student(client, client.times)
        worker = student.play_round(["5"], ["3"]).result
        repaired = student.play_round(["5"], ["3"], trusted="card_value").result
        assert worker.isdigit() and repaired.isdigit() and repaired != worker
        assert student.play_round(["5"], ["3"]).result == worker
    finally:
        client.stop()


def test_a_visible_failure_never_carries_what_a_hidden_test_passed(sandbox, tmp_path):
    """The corpus's replays_hidden_input keeps the first queue of every war it plays, in memory and in its scratch,
    and play_game raises them all: the hidden tests run in a worker of their own, so no visible test's failure (what
    the student's report and Gradescope show) holds the queue of the hidden test_three_wars_in_a_row. With one worker
    for all the tests, every visible game's failure held it."""
    from grader.batch import grade

    [result] = grade(paths=[corpus() / "replays_hidden_input"], out=tmp_path / "out", jobs=1,
                     config_path=ROOT / "tests" / "data" / "grading-test.toml")
    hidden_queue = "1 1 1 4 2 2 2 5 3 3 3 2 7"
    shown = [f"{test.sentence} {test.exception} {test.output} {test.reproduction}"
             for test in result.tests if not test.hidden]
    games = [test for test in result.tests if not test.hidden and test.exception is not None
             and "wars began with" in test.exception.message]
    assert games, "no visible failure raised what the submission remembered"
    assert not [text for text in shown if hidden_queue in text]
    assert any(test.id.endswith("test_three_wars_in_a_row") and test.hidden for test in result.tests)


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_a_nul_byte_is_reported_in_its_own_file_and_line(tmp_path, runtime, level):
    """A NUL byte on line 3 of game.py makes the package ungradable naming game.py line 3, not __init__.py"""
    source = "# the package\n\n\nfrom .game import play\n"
    with pytest.raises(Ungradable, match=r"game\.py line 3 holds a NUL byte") as caught:
        probe_client(tmp_path, runtime, level, source=source, files={"game.py": b"def play():\n    pass\nx = '\x00'\n"})
    assert "__init__" not in str(caught.value)


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_unseeded_randomness_gives_the_same_answer_every_call(tmp_path, runtime, level):
    """random without a seed, random.seed() and random.Random() repeat exactly, call after call and restart"""
    client = probe_client(tmp_path, runtime, level)
    code = ("import random\nfirst = random.random()\nrandom.seed()\nsecond = random.random()\n"
            "result = [first, second, random.Random().random()]")
    try:
        answers = [run(client, code), run(client, code)]
        client.stop()
        answers.append(run(client, code))
        assert answers[0] == answers[1] == answers[2]
        seeded = run(client, "import random\nresult = random.Random(7).random()")
        assert seeded == {"float": random.Random(7).random()}  # an explicit seed is the student's own
    finally:
        client.stop()


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_quit_and_exit_stop_the_program_as_in_any_interpreter(tmp_path, runtime, level):
    """quit() and exit() exist and raise SystemExit: "tried to stop the program", not a NameError"""
    client = probe_client(tmp_path, runtime, level)
    try:
        for name in ("quit", "exit"):
            with pytest.raises(StudentRaised, match="tried to stop the program") as caught:
                run(client, f"{name}(3)")
            assert caught.value.exception["type"] == "SystemExit"
    finally:
        client.stop()


def result_points(result, category: str) -> float:
    """The points a result's category was worth."""
    return next(c.max_score for c in result.categories if c.id == category)


@pytest.mark.parametrize("level", LEVEL_PARAMS)
def test_student_code_cannot_add_a_kernel_key(tmp_path, runtime, level):
    """Keys belong to the worker's uid and outlive it (a later student or batch reuses the uid): add_key,
    request_key and keyctl are refused by the worker's seccomp filter, at every level."""
    client = probe_client(tmp_path, runtime, level)
    code = ("import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\n"
            "number = {'x86_64': 248, 'aarch64': 217}[os.uname().machine]\n"
            "made = libc.syscall(number, b'user', b'war-grader-probe', b'x', 1, ctypes.c_int(-3))\n"
            "result = [made, ctypes.get_errno()]")
    try:
        assert run(client, code) == {"list": [-1, 1]}  # EPERM
    finally:
        client.stop()
