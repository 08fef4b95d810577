"""A watchdog beside a grading run: if the main process dies without saying goodbye (kill -9), it kills the
suite servers, their pytest runs and the sandboxed workers, which would otherwise grade on for nothing.

    python -I -m grader.sandbox.guardian PID     # stdin: a pipe only PID holds; "done" on it means a normal end

Every second it notes PID's descendants (with their start times, so a reused pid is never killed). When its
stdin closes without "done", it kills what it noted, and everything below it, that is still the same process.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
from typing import Iterator

from .process_tree import descendants, kill_descendants, start_time

INTERVAL = 1.0
"""Seconds between two looks at the main process's descendants."""


def watch(main: int) -> None:
    """Note main's descendants until stdin says done (return) or closes (kill them)."""
    noted: dict[int, int | None] = {}
    me = os.getpid()
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], INTERVAL)
        if ready:
            line = sys.stdin.readline()
            if line.strip() == "done":
                return
            if not line:
                break
            continue
        for pid in descendants(main):
            if pid != me and pid not in noted:
                noted[pid] = start_time(pid)
        noted = {pid: started for pid, started in noted.items() if start_time(pid) == started}
    for pid, started in noted.items():
        if started is not None and start_time(pid) == started:
            kill_descendants(pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Run the body with a guardian watching this process; it stands down when the body ends (even by Ctrl-C)."""
    guardian = subprocess.Popen([sys.executable, "-I", "-m", "grader.sandbox.guardian", str(os.getpid())],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                text=True, process_group=0, cwd="/", env={"PATH": os.environ.get("PATH", "")})
    try:
        yield
    finally:
        assert guardian.stdin is not None
        with contextlib.suppress(OSError):
            guardian.stdin.write("done\n")
            guardian.stdin.close()
        try:
            guardian.wait(timeout=10)
        except subprocess.TimeoutExpired:
            guardian.kill()
            guardian.wait()


if __name__ == "__main__":
    watch(int(sys.argv[1]))
