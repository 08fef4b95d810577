"""How many files and folders student code has in its scratch, read from outside the sandbox (the channel compares
it with limits.scratch_files during and after each call).

Under bwrap and unshare the scratch is a tmpfs of the sandbox's own: its inodes in use, from statvfs through
/proc/PID/root of a process inside (one system call however many files there are). bwrap cannot give its tmpfs
an inode limit, so there this count during the call is the bound; unshare's tmpfs also has nr_inodes, a hard
bound. At the uid and plain levels the scratch is a folder on the host: its entries are counted, at most stop+1 of
them. What neither sees: the files a uid-level worker leaves in the container's /tmp, /var/tmp and /dev/shm
(deleted when it stops).
"""

from __future__ import annotations

import os

from .isolation import INSIDE_SCRATCH, NAMESPACED, SandboxSpec


def entries(spec: SandboxSpec, pid: int, stop: int) -> int | None:
    """Files and folders in the scratch of the worker started as pid (the sandbox's outermost process), counting
    stops past stop; None when it cannot be read (the sandbox gone, /proc out of reach)."""
    if spec.level in NAMESPACED:
        return _tmpfs_entries(pid)
    if spec.scratch:
        return folder_entries(spec.scratch, stop)
    return None


def _tmpfs_entries(pid: int) -> int | None:
    """Inodes in use on the sandbox's /tmp but its root folder, seen from the worker (two levels below bwrap's or
    unshare's process: their init or shell, then the worker)."""
    inside = pid
    for _ in range(2):
        children = _children(inside)
        if not children:
            break
        inside = children[0]
    if inside == pid:
        return None
    try:
        usage = os.statvfs(f"/proc/{inside}/root{INSIDE_SCRATCH}")
    except OSError:
        return None
    return max(usage.f_files - usage.f_ffree - 1, 0)


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as handle:
            return [int(child) for child in handle.read().split()]
    except (OSError, ValueError):
        return []


def folder_entries(folder: str, stop: int) -> int:
    """Files and folders below folder (links and all, not following them), counting stops past stop."""
    count = 0
    pending = [folder]
    while pending and count <= stop:
        try:
            with os.scandir(pending.pop()) as listing:
                for entry in listing:
                    count += 1
                    if count > stop:
                        break
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except OSError:
            continue
    return count
