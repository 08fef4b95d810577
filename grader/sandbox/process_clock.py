"""How much of a worker's time a call really used: CPU seconds of its process tree, plus the seconds it slept.

A deadline counted on the wall clock charges a student for the other programs on a loaded machine. This
clock reads /proc instead: a process tree that computes is charged its CPU time (however long the machine
makes it wait for a core), and a tree where nothing runs (a sleep, a blocked read, a stopped process) is
charged the wall time it idles. An endless loop, a fork bomb and a `time.sleep` all reach their deadline;
an honest call on a busy machine does not.
"""

from __future__ import annotations

import os
import time

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""Clock ticks per second of /proc's CPU times."""

MAX_PROCESSES = 4096
"""A tree is read no further than this many processes (a fork bomb is bounded by its process limit anyway)."""

CORES = max(1, os.cpu_count() or 1)
"""How many CPU seconds a process tree can use in one second of wall time, at most."""


def _stat(pid: int) -> tuple[float, str] | None:
    """CPU seconds (own and reaped children's) and state letter of one process, or None if it is gone.

    Its own seconds are the larger of two readings: /proc/PID/stat's, which covers every thread but moves in
    clock ticks and, for a tree of many busy processes such as a fork bomb, lags the truth by up to a second
    of CPU; and /proc/PID/schedstat's, the kernel's exact run time of its main thread.
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rpartition(")")[2].split()
        own = (int(fields[11]) + int(fields[12])) / TICK
        reaped = (int(fields[13]) + int(fields[14])) / TICK
        return max(own, _run_time(pid)) + reaped, fields[0]
    except (OSError, ValueError, IndexError):
        return None


def _run_time(pid: int) -> float:
    """Seconds the main thread of pid has run on a CPU, to the nanosecond (0 where the kernel keeps no schedstat)."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as handle:
            return int(handle.read().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _children(pid: int) -> list[int]:
    """Direct children of pid, whichever of its threads started them (a child forked from a thread other than the
    main one is listed only under that thread's task)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks[:MAX_PROCESSES]:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as handle:
                found.extend(int(child) for child in handle.read().split())
        except (OSError, ValueError):
            continue
    return found


def tree_usage(pid: int) -> tuple[float, bool] | None:
    """CPU seconds used by pid and its descendants, and whether any of them is running or waiting for a core;
    None once pid is gone."""
    if _stat(pid) is None:
        return None
    total, running, seen, pending = 0.0, False, 0, [pid]
    while pending and seen < MAX_PROCESSES:
        current = pending.pop()
        seen += 1
        stat = _stat(current)
        if stat is None:
            continue
        total += stat[0]
        running = running or stat[1] in ("R", "D")
        pending.extend(_children(current))
    return total, running


class CallClock:
    """The time charged to one call so far: CPU of the tree since the call began, plus its idle wall time.

    The tree is first read when the call is first asked what it has been charged: most calls end within
    milliseconds and are never asked. The seconds before that first reading (at most the caller's first
    polling tick) are charged as wall time, as for a call too short for /proc's clock ticks.
    """

    def __init__(self, pid: int | None, cpu0: float | None = None) -> None:
        """cpu0: the tree's CPU seconds at the start, when the caller has read them already."""
        self.pid = pid
        self.started = self.last = time.monotonic()
        self.cpu0 = cpu0
        self.idle = 0.0
        self.cpu = 0.0

    def charged(self) -> float:
        """Seconds charged so far (the wall time since the start when the tree cannot be read)."""
        now = time.monotonic()
        if self.pid is None:
            self.last = now
            return now - self.started
        usage = tree_usage(self.pid)
        if usage is None:  # the tree is gone (killed at its deadline): what was charged stays charged
            return self.cpu + self.idle if self.cpu0 is not None else now - self.started
        if self.cpu0 is None:
            self.cpu0, self.idle, self.last = usage[0], now - self.started, now
            return self.idle
        cpu, running = usage
        used = max(0.0, cpu - self.cpu0)
        if not running and used - self.cpu < 0.01:
            self.idle += now - self.last
        self.cpu, self.last = used, now
        return self.cpu + self.idle

    def wall(self) -> float:
        """Wall seconds since the call began."""
        return time.monotonic() - self.started

    def until(self, limit: float) -> float:
        """Wall seconds from now before the charge could first reach limit, given what charged() last read: a
        tree's CPU time grows by at most CORES seconds a second and its idle time by one (without a pid: the
        wall time left). Reading the clock no later than that never carries a call past its deadline."""
        now = time.monotonic()
        if self.pid is None:
            return max(0.0, limit - (now - self.started))
        return max(0.0, self.last + (limit - self.cpu - self.idle) / CORES - now)
