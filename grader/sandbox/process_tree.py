"""Stopping a process's descendants from outside, as Ctrl-C must: every trusted run and sandboxed worker."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path
from typing import Any


def descendants(pid: int) -> list[int]:
    """Every process below pid (children first found, then theirs), read from /proc; [] where it has none."""
    found: list[int] = []
    queue = [pid]
    while queue:
        parent = queue.pop()
        for child in _children(parent):
            if child not in found:
                found.append(child)
                queue.append(child)
    return found


def kill_group(process: subprocess.Popen[Any], *, wait: float = 10) -> None:
    """SIGKILL a sandbox's process group (its leader started it with a group of its own) and reap the leader."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL does not fail; the bound is a backstop
        process.wait(timeout=wait)


def kill_descendants(pid: int) -> int:
    """SIGKILL every process below pid, stopping them first so none forks away; how many were found."""
    stopped: list[int] = []
    for _ in range(3):  # each pass stops what the last one missed (a child forked in between)
        fresh = [child for child in descendants(pid) if child not in stopped]
        if not fresh:
            break
        for child in fresh:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGSTOP)
        stopped.extend(fresh)
    for child in stopped:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)
    return len(stopped)


def _children(pid: int) -> list[int]:
    """The direct children of pid, over all its threads."""
    children: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return children
    for task in tasks:
        try:
            children.extend(int(word) for word in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
    return children


def start_time(pid: int) -> int | None:
    """When pid started, in clock ticks since boot (tells a process from a later one given the same pid)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[19])
