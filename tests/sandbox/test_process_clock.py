"""The clock that charges a call: exact run times for trees of many processes, and when to read it next."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.sandbox.process_clock import CORES, CallClock, tree_usage

SPINNERS = ("import os, sys\nfor _ in range(int(sys.argv[1])):\n    if os.fork() == 0:\n        break\n"
            "while True:\n    pass\n")
"""A process that forks N children, every one of them spinning (a fork bomb held to N)."""


def _tree(pid: int) -> list[int]:
    found, index = [pid], 0
    while index < len(found):
        try:
            found += [int(child) for child in Path(f"/proc/{found[index]}/task/{found[index]}/children").read_text().split()]
        except OSError:
            pass
        index += 1
    return found


def _kernel_run_time(pids: list[int]) -> float:
    """What the kernel says these processes' main threads have run, in seconds (the test's own reading)."""
    total = 0.0
    for pid in pids:
        try:
            total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
        except (OSError, ValueError):
            pass
    return total


@pytest.mark.skipif(not Path(f"/proc/{os.getpid()}/schedstat").exists(), reason="the kernel keeps no schedstat")
def test_a_tree_of_many_busy_processes_is_charged_all_the_time_it_ran():
    """24 spinning processes are charged at least the run time the kernel reports for them: /proc's clock-tick
    counts alone lag behind it (a fork bomb used twice its deadline in CPU before it was stopped)"""
    spinners = subprocess.Popen([sys.executable, "-c", SPINNERS, "24"])
    try:
        time.sleep(0.8)
        for _ in range(5):
            ran = _kernel_run_time(_tree(spinners.pid))
            usage = tree_usage(spinners.pid)
            assert usage is not None and usage[0] >= ran - 1e-6 and ran > 0
            time.sleep(0.1)
    finally:
        for pid in reversed(_tree(spinners.pid)):
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        spinners.wait()


def test_until_is_the_soonest_a_call_could_reach_its_deadline():
    """A tree gains at most CORES seconds of CPU a second: until() waits the rest of the limit divided by that;
    without a pid it is the wall time left"""
    sleeping = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        time.sleep(0.3)  # past its start-up
        clock = CallClock(sleeping.pid)
        for _ in range(3):
            time.sleep(0.1)
            charged = clock.charged()
        assert 0.15 < charged < 0.6
        assert clock.until(2.0) == pytest.approx((2.0 - charged) / CORES, abs=0.05)
        assert clock.until(charged) == 0.0
        wall = CallClock(None)
        assert 0.2 < wall.until(0.3) <= 0.3
    finally:
        sleeping.kill()
        sleeping.wait()


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="needs CPU affinity and SCHED_IDLE (Linux)")
def test_a_process_waiting_for_a_core_is_charged_its_cpu_not_the_wait():
    """A busy process under SCHED_IDLE sharing one core with a busy ordinary process (both children of this test,
    so one scheduling group, at whatever nice value the test runs) gets at most a sixth of the core: over a second
    it is charged the CPU it got, not the second it waited in the run queue, and none of it counts as idle"""
    pin = "import os\nos.sched_setaffinity(0, {0})\n"
    hog = subprocess.Popen([sys.executable, "-c", pin + "while True: pass"])
    starved = subprocess.Popen([sys.executable, "-c", pin + "os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\n"
                                "while True: pass"])
    try:
        time.sleep(0.5)  # both past their start-up, pinned and spinning
        clock = CallClock(starved.pid)
        clock.charged()
        time.sleep(1.0)
        charged = clock.charged()
        assert clock.wall() >= 1.0
        assert charged < 0.4 and clock.idle < 0.15, (charged, clock.idle)
    finally:
        for process in (hog, starved):
            process.kill()
            process.wait()


THREAD_FORKS = ("import os, threading, time\n"
                "def body():\n"
                "    if os.fork() == 0:\n"
                "        while True:\n"
                "            pass\n"
                "threading.Thread(target=body).start()\n"
                "time.sleep(60)\n")
"""A process whose main thread sleeps while a child it forked from another thread spins."""


def test_a_child_forked_from_a_thread_is_part_of_the_tree():
    """/proc lists a child under the thread that forked it: the tree is read through every thread, so the child's
    CPU is charged and the tree counts as running, not as an idle tree charged wall time (which a loaded machine
    would lengthen)"""
    parent = subprocess.Popen([sys.executable, "-c", THREAD_FORKS])
    try:
        time.sleep(0.5)
        first = tree_usage(parent.pid)
        time.sleep(0.5)
        second = tree_usage(parent.pid)
        assert first is not None and second is not None
        assert second[1] is True and second[0] - first[0] > 0.2, (first, second)
    finally:
        children = [int(child) for task in Path(f"/proc/{parent.pid}/task").glob("*")
                    for child in (task / "children").read_text().split()]
        for pid in [*children, parent.pid]:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        parent.wait()
