"""What a machine gives a grading run's sandboxes: the uids the run holds and what each left behind, the
interpreter a sandbox runs, and the one error a sandbox that cannot be had raises. Below isolation.py (the
levels and the command that starts a worker) and uid_level.py, which both use it."""

from __future__ import annotations

import fcntl
import functools
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..errors import UserError

NAMESPACED = ("bwrap", "unshare")
"""The levels that show the worker a file system of its own (a mount namespace)."""

class SandboxError(UserError, RuntimeError):
    """The sandbox cannot be set up on this machine (a fault of the grader's, not the student's)."""


UID_BASE, UID_BLOCK, UID_BLOCKS = 200000, 64, 256
"""A grading run started by root holds a block of UID_BLOCK uids for its whole life (a lock under UID_LOCKS), and with
it FRESH_BLOCK uids its sandboxes run as, one each (fresh_uid): two sandboxes, even of two graders running at once,
never share a uid. The block's own uids are those the uid level checks what student code could read as."""

MAX_JOBS = UID_BLOCK // 2
"""Job slots one grading run may use: the lower half of its uid block; Part E's sandboxes use the upper half."""

FRESH_BASE, FRESH_BLOCK = 1 << 24, 1 << 16
"""Every sandbox a grader run as root starts (a worker, Part E's) runs as a uid no earlier sandbox of that run used:
the next of the FRESH_BLOCK uids that go with its uid block (block i: FRESH_BASE + i * FRESH_BLOCK on), so nothing one
student's code left under its uid (a file, an IPC object, a process) is ever the next student's."""

RUN_BASE, RUN_BLOCK, RUN_UIDS = 1 << 30, 1 << 22, 64
"""Part E's sandbox at the uid level holds RUN_UIDS uids in a row (run_uids_of_a_sandbox): its zygote's (the first)
and one for each of its runs, so no run of the batch shares a uid with an earlier one (part_e/runner.py: MAX_RUNS, at
most RUN_UIDS - 1, a test checks). They come from RUN_BLOCK uids of the grader's uid block (block i: RUN_BASE +
i * RUN_BLOCK on; the last ends at 2**31 - 1), apart from the fresh uids, whose layout is older: a grader of an
earlier version running beside this one never hands out, nor kills as stale, a uid of this region."""

Uids = int | range | frozenset[int]
"""One uid, a sandbox's run of them (its zygote's and its runs'), or a uid block's every region at once."""

WRITABLE = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue")
"""The folders every user may write to (with the world-writable folders below them): where a sandbox's uid can
leave something outside its scratch at the uid and plain levels."""

UID_LOCKS = Path("/run/war-grader")
"""Where the lock files of the uid blocks live (root's; a fallback under the temporary folder)."""


def _of(uids: Uids) -> range | frozenset[int]:
    return range(uids, uids + 1) if isinstance(uids, int) else uids


def owned_by(uid: Uids, folder: Path) -> list[Path]:
    """What uid (or any of uids) owns in folder and in the world-writable folders below it (what remove_files_of
    removes)."""
    uids = _of(uid)
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found: list[Path] = []
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if info.st_uid in uids:
            found.append(Path(entry.path))
        elif stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_IWOTH:
            found += owned_by(uids, Path(entry.path))
    return found


IPC_KINDS = (("shm", "-m", 7), ("sem", "-s", 4), ("msg", "-q", 7))
"""System V IPC: /proc/sysvipc's file, ipcrm's option, and the column of the owner's uid (the creator's is two on)."""


def ipc_of(uid: Uids) -> list[str]:
    """The System V IPC objects uid (or any of uids) owns or created ("shm 1234"), from /proc/sysvipc: its owner
    may hand an object to any uid (IPC_SET), never its creator."""
    return [f"{kind} {ident}" for kind, ident, _ in _ipc_objects(uid)]


def remove_ipc_of(uid: Uids) -> None:
    """Remove every System V IPC object uid owns or created (they outlive every process of it): as this process,
    then, where that is refused (root in a container has no CAP_IPC_OWNER, as on Docker and Gradescope), as the
    object's owner or creator, either of whom may always remove it, with that uid's own group and no other (call
    this once no process of uid is left: nothing of the student's is running beside it)."""
    options = {kind: option for kind, option, _ in IPC_KINDS}
    for kind, ident, remover in _ipc_objects(uid):
        command = ["ipcrm", options[kind], ident]
        for who in ({}, {"user": remover, "group": remover, "extra_groups": []}):
            if who and os.geteuid() != 0:
                break
            subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=10,
                           **who)  # type: ignore[call-overload]
            if (kind, ident) not in {(k, i) for k, i, _ in _ipc_objects(uid)}:
                break


def _ipc_objects(uid: Uids) -> list[tuple[str, str, int]]:
    """(kind, id, a uid of uid's that may remove it: its owner, else its creator) of each System V IPC object uid
    (or any of uids) owns or created."""
    uids = _of(uid)
    found = []
    for kind, _, column in IPC_KINDS:
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as handle:
                rows = [line.split() for line in handle.read().splitlines()[1:]]
        except OSError:
            continue
        for row in rows:
            owner, creator = (int(row[at]) if len(row) > at and row[at].isdigit() else -1 for at in (column, column + 2))
            if owner in uids or creator in uids:
                found.append((kind, row[1], owner if owner in uids else creator))
    return found


def remove_files_of(uid: Uids, folder: Path) -> None:
    """Delete everything uid owns in folder and in the world-writable folders below it (what owned_by finds)."""
    for path in owned_by(uid, folder):
        remove_path(path)


def remove_path(path: Path) -> None:
    """Delete a file, a link or a whole folder, whatever it holds (what cannot be deleted stays for the check)."""
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        pass


KILL_SECONDS = 30.0
"""How long kill_uid keeps killing: a killed process dies only once the call it is in returns (one in fsync of a
large file, uninterruptible, can take seconds), and what is still alive then is the caller's to report."""


def kill_uid(uid: Uids) -> None:
    """Kill every process left running as uid, or as any of uids (a fork bomb's children), sweeping until none is
    left (KILL_SECONDS at most)."""
    if not isinstance(uid, int):
        for one in sorted(_uids_running(uid)):
            kill_uid(one)
        return
    deadline = time.monotonic() + KILL_SECONDS
    while processes_of(uid) and time.monotonic() < deadline:
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", "kill", "-KILL", "-1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=10)
        time.sleep(0.02)


def _processes() -> list[tuple[int, set[int], bool]]:
    """Every process: (pid, its real and saved uids, alive: see _alive), from /proc/PID/status. Not the folder's
    owner: that is root for a process that is not dumpable (Part E's zygote and what it forks)."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as handle:
                    fields = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
                uids = {int(value) for value in fields["Uid"].split()[:4:2]}
                alive = _alive(fields)
            except (OSError, KeyError, IndexError, ValueError):
                continue
            found.append((int(entry.name), uids, alive))
    return found


def _alive(fields: dict[str, str]) -> bool:
    """Whether a process (its /proc/PID/status fields) still runs anything: not a zombie, or a zombie whose main
    thread alone has ended (exit, not exit_group: the other threads run on, and /proc shows the process as Z)."""
    return fields["State"].split()[0] not in ("Z", "X") or int(fields.get("Threads", "1")) > 1


def _uids_running(uids: range | frozenset[int]) -> set[int]:
    """Which of uids own a process now (one pass over /proc)."""
    return {uid for _, owners, _ in _processes() for uid in owners if uid in uids}


def processes_of(uid: Uids) -> list[int]:
    """Live (not zombie) process ids owned by uid (or any of uids), from /proc."""
    uids = _of(uid)
    return [pid for pid, owners, alive in _processes() if alive and any(owner in uids for owner in owners)]


_HELD_LOCKS: list[int] = []
"""File descriptors holding this process's uid block (released when the process ends, however it ends)."""

_fresh_lock = threading.Lock()
_handed_out: dict[int, int] = {}
"""How many uids of each region (by its first uid) this process has handed out."""


def _region(base: int, size: int, index: int) -> range:
    """The size uids from base that go with uid block index."""
    return range(base + index * size, base + (index + 1) * size)


def _block_index() -> int:
    return (uid_block() - UID_BASE) // UID_BLOCK


def _take(region: range, count: int, what: str) -> int:
    """The first of the next count uids of region that this process has not handed out yet."""
    with _fresh_lock:
        used = _handed_out.get(region.start, 0)
        if used + count > len(region):
            raise SandboxError(f"this grading run has used all {len(region)} of its {what}")
        _handed_out[region.start] = used + count
    return region[used]


def fresh_uids() -> range:
    """The uids that go with this process's uid block, one per sandbox it starts (fresh_uid)."""
    return _region(FRESH_BASE, FRESH_BLOCK, _block_index())


def fresh_uid() -> int:
    """A uid no sandbox started by this process has run as: the next of fresh_uids()."""
    return _take(fresh_uids(), 1, "sandbox uids")


def run_uids() -> range:
    """The uids that go with this process's uid block for Part E's sandboxes at the uid level, RUN_UIDS each."""
    return _region(RUN_BASE, RUN_BLOCK, _block_index())


def run_uids_of_a_sandbox() -> int:
    """The first of RUN_UIDS uids in a row that no sandbox started by this process has run as."""
    return _take(run_uids(), RUN_UIDS, "Part E run uids")


@functools.lru_cache(maxsize=1)
def uid_block() -> int:
    """The first uid of a block this process holds until it exits; no other grader can hold the same block.

    A block whose lock is free belongs to no running grader, so anything still running as one of its uids
    (left by a grader killed with -9) is killed before the block is used, and what its uids left in the folders
    every user may write and their System V IPC objects (which outlive every process: a bench run with the walls
    down leaves some) are removed: a sandbox that starts as one of them finds nothing of an earlier batch's.
    """
    folder = UID_LOCKS if os.geteuid() == 0 else Path(tempfile.gettempdir()) / f"war-grader-uids-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        folder = Path(tempfile.gettempdir()) / f"war-grader-uids-{os.getuid()}"
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for index in range(UID_BLOCKS):
        handle = os.open(folder / f"block-{index}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(handle)
            continue
        _HELD_LOCKS.append(handle)
        first = UID_BASE + index * UID_BLOCK
        regions = (range(first, first + UID_BLOCK), _region(FRESH_BASE, FRESH_BLOCK, index),
                   _region(RUN_BASE, RUN_BLOCK, index))
        everyone = frozenset(uid for uids in regions for uid in uids)
        for uid in _uids_running(everyone):
            kill_uid(uid)
        for writable in WRITABLE:  # then what they left where every user may write (one walk), and their IPC objects
            remove_files_of(everyone, Path(writable))
        remove_ipc_of(everyone)
        return first
    raise SandboxError(f"all {UID_BLOCKS} blocks of worker uids are held by running graders")


@functools.lru_cache(maxsize=None)
def choose_python(level: str, unprivileged: bool) -> tuple[str, str]:
    """The interpreter for the worker and the folder to bind for it: (python, python_home)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    base = Path(sys.base_prefix) / "bin" / version
    base_python = str(base) if base.exists() else os.path.realpath(sys.executable)
    if level in NAMESPACED:
        home = "" if sys.base_prefix.startswith("/usr/") or sys.base_prefix == "/usr" else sys.base_prefix
        return base_python, home
    candidates = [base_python, f"/usr/bin/{version}", "/usr/bin/python3"]
    for candidate in candidates:
        if os.path.exists(candidate) and (not unprivileged or _others_can_run(candidate)):
            return candidate, ""
    raise SandboxError(
        f"no Python interpreter that an unprivileged user can run (tried {', '.join(candidates)}); "
        "install bubblewrap or Debian's python3"
    )


def _others_can_run(path: str) -> bool:
    """Whether a user who is neither owner nor in the group can reach and execute path."""
    real = Path(os.path.realpath(path))
    for folder in [*reversed(real.parents)]:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return False
    return bool(real.stat().st_mode & stat.S_IXOTH)
