"""Hostile code costs seconds: per-call deadlines from the reference's own time, charged in CPU and sleep."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from grader.grading import expected
from grader.sandbox.channel import StudentCrash, StudentTimeout
from grader.grading.deadlines import ReferenceClock, call_key, call_text
from grader.sandbox.isolation import choose_level
from grader.sandbox.process_clock import CallClock

from sandbox_probe import probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures


def strongest() -> str:
    """The level the grader would pick here."""
    return choose_level("auto", allow_plain=True)


def test_a_deadline_is_a_multiple_of_the_references_time_with_a_floor_and_a_ceiling():
    """A one-round call gets the floor; replaying 200 deals gets many times the reference's time; the
    ceiling caps both"""
    clock = ReferenceClock(multiple=20, floor=0.5)
    assert clock.limit("play_round", {"p1": ["5", "2"], "p2": ["3", "9"]}, 2.0) == 0.5
    decks = expected.fixed_decks(200)
    seconds = clock.reference_seconds("replay", {"decks": decks, "max_rounds": 1000})
    assert 0 < seconds < 20
    assert clock.limit("replay", {"decks": decks, "max_rounds": 1000}, 1000.0) == pytest.approx(max(0.5, 20 * seconds))
    assert clock.limit("replay", {"decks": decks, "max_rounds": 1000}, 0.2) == 0.2
    few = clock.reference_seconds("replay", {"decks": decks[:2], "max_rounds": 1000})
    assert few < seconds  # more games, more time: the deadline follows the work asked for


def test_an_endless_loop_is_stopped_at_the_floor_not_the_ceiling(tmp_path, runtime):
    """With a 10 s ceiling, a call the reference answers in microseconds is stopped after its 0.3 s floor"""
    client = probe_client(tmp_path, runtime, strongest(), call_timeout=10.0,
                          deadlines=ReferenceClock(multiple=20, floor=0.3))
    try:
        started = time.monotonic()
        with pytest.raises(StudentTimeout, match="within 0.3 s"):
            run(client, "while True:\n    pass")
        assert time.monotonic() - started < 8  # 0.3 s of CPU, however loaded the machine is
        assert 0.25 <= client.last_charged < 1.5
    finally:
        client.stop()


def test_a_call_that_sleeps_is_charged_its_sleep(tmp_path, runtime):
    """time.sleep uses no CPU but is charged all the same: the call ends at its deadline"""
    client = probe_client(tmp_path, runtime, strongest(), call_timeout=10.0,
                          deadlines=ReferenceClock(multiple=20, floor=0.5))
    try:
        started = time.monotonic()
        with pytest.raises(StudentTimeout):
            run(client, "import time\ntime.sleep(60)")
        assert time.monotonic() - started < 4
    finally:
        client.stop()


def test_an_honest_call_on_a_loaded_machine_is_charged_its_cpu(tmp_path, runtime):
    """0.5 s of CPU beside three busy processes passes a 0.8 s deadline and is charged about its CPU, however
    long the machine made it wait (how long that is depends on the scheduler: test_process_clock starves a
    process for certain and shows the clock leaves the wait out)"""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)]
    client = probe_client(tmp_path, runtime, strongest(), call_timeout=10.0,
                          deadlines=ReferenceClock(multiple=20, floor=0.8))
    try:
        code = ("import time\nstarted = time.process_time()\n"
                "while time.process_time() - started < 0.5:\n    pass\nresult = 'done'")
        assert run(client, code) == "done"
        assert 0.45 < client.last_charged < 0.75
    finally:
        client.stop()
        for hog in hogs:
            hog.kill()
            hog.wait()


def test_the_call_clock_charges_cpu_and_idle_time():
    """A busy process is charged about its CPU, a sleeping one about the wall time it sleeps"""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    sleeping = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(0.3)
        clocks = CallClock(busy.pid), CallClock(sleeping.pid)
        for _ in range(8):
            time.sleep(0.1)
            charged = [clock.charged() for clock in clocks]
        assert 0 < charged[0] < 2.0 and clocks[0].idle < 0.15  # however little CPU a loaded machine gave it
        assert 0.6 < charged[1] < 1.5 and clocks[1].cpu < 0.1
    finally:
        for process in (busy, sleeping):
            process.kill()
            process.wait()


def test_import_time_counts_toward_the_submission_budget(tmp_path, runtime):
    """An import that sleeps 1 s, with every call ending the process: restarts re-import on the budget, so
    the calls stop within the budget instead of costing an import each"""
    source = "import time, os\ntime.sleep(1.0)\n\ndef shuffle(deck, seed=None):\n    os._exit(1)\n"
    client = probe_client(tmp_path, runtime, strongest(), source=source, budget=4.0)
    outcomes = []
    started = time.monotonic()
    try:
        for _ in range(12):
            try:
                run(client, "")
            except StudentCrash:
                outcomes.append("crash")
            except StudentTimeout as timeout:
                outcomes.append("budget" if "budget" in timeout.sentence else "timeout")
    finally:
        client.stop()
    assert outcomes[0] == "crash" and outcomes[-1] == "budget"
    assert outcomes.count("crash") <= 4
    assert time.monotonic() - started < 12


def test_a_calls_key_is_the_same_whether_its_arguments_come_encoded_or_not():
    """The harness encodes a call's arguments once and hands the text down: the key built from it is the text,
    and the digest, that encoding the whole call would give"""
    args = {"p1": ["5", "Jo"], "p2": ["K"], "rules": {"face_down": 2}, "trusted": False}
    encoded = json.dumps(args, sort_keys=True)
    assert call_text("play_round", encoded) == json.dumps(["play_round", args], sort_keys=True)
    assert call_key("play_round", args, encoded) == call_key("play_round", args)
