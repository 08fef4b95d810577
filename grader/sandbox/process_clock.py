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


def _stat(pid: int) -> tuple[float, str] | None:
    """CPU seconds (own and reaped children's) and state letter of one process, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rpartition(")")[2].split()
        return sum(int(value) for value in fields[11:15]) / TICK, fields[0]
    except (OSError, ValueError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    """Direct children of pid (from its main thread's children list)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
            return [int(child) for child in handle.read().split()]
    except (OSError, ValueError):
        return []


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

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.started = self.last = time.monotonic()
        self.cpu0: float | None = None
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
