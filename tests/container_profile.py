"""Run a command as a container runtime's default profile (Docker's) runs it, so tests see what Gradescope sees.

    python tests/container_profile.py [--no-landlock] [--keep PATH]... COMMAND [ARG...]

Docker's default seccomp profile refuses unshare and setns, and clone with any CLONE_NEW* flag, with EPERM,
and clone3 with ENOSYS (its flags are behind a pointer a filter cannot read, so libc falls back to clone);
its default capabilities leave root without CAP_SYS_ADMIN. This launcher, run as root, installs that filter
while it still holds CAP_SYS_ADMIN (as the runtime does: no no_new_privs), drops CAP_SYS_ADMIN from the
bounding set, so the command (exec'd as root) starts without it, and execs the command. With --no-landlock the
filter also refuses Landlock's three calls (ENOSYS), as Docker's profile did before 2022.

A container also has a file system of its own: with --keep, the launcher first (in a mount namespace of its
own, while it still may) covers /work, /tmp, /home and this checkout with empty tmpfs, but for the paths kept
(this checkout, the test's folder) and the folders of this Python, which it leaves uncovered or binds back, so
that nothing else on this machine, such as other checkouts of the grader, is there for student code to find,
as in a Gradescope container.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from grader.sandbox import seccomp_bpf  # noqa: E402
from grader.sandbox.seccomp_bpf import ALLOW, ARCH, ARG0, ERRNO, JEQ, JSET, LOAD, NR, RET, X32_BIT, JGE  # noqa: E402

CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET and NEWTIME."""

PR_CAPBSET_DROP, CAP_SYS_ADMIN = 24, 21


LANDLOCK_CALLS = (444, 445, 446)
"""landlock_create_ruleset, landlock_add_rule and landlock_restrict_self (x86_64 and aarch64 alike)."""


def container_filter(*, landlock: bool = True) -> bytes:
    """Docker's default profile as far as namespaces go; every other call allowed. Without landlock, Landlock's
    calls fail with ENOSYS, as under Docker's profile before 2022: a kernel without Landlock, as student code sees
    it."""
    arch, calls = seccomp_bpf.numbers()
    return seccomp_bpf.assemble([
        (LOAD, 0, 0, ARCH), (JEQ, 0, "eperm", arch),
        (LOAD, 0, 0, NR), (JGE, "eperm", 0, X32_BIT),
        *([] if landlock else [(JEQ, "enosys", 0, number) for number in LANDLOCK_CALLS]),
        (JEQ, "eperm", 0, calls["unshare"]), (JEQ, "eperm", 0, calls["setns"]),
        (JEQ, "enosys", 0, calls["clone3"]), (JEQ, 0, "allow", calls["clone"]),
        (LOAD, 0, 0, ARG0), (JSET, "eperm", "allow", CLONE_NEW),
        "eperm", (RET, 0, 0, ERRNO | errno.EPERM),
        "enosys", (RET, 0, 0, ERRNO | errno.ENOSYS),
        "allow", (RET, 0, 0, ALLOW),
    ])


COVERED = ("/work", "/tmp", "/home")
"""Where this machine keeps what a container would not hold (other checkouts, other runs' files); this
checkout is covered too wherever it is, unless it is kept."""


MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 0x40000


def interpreter_folders() -> list[str]:
    """Where this Python lives (a venv's interpreter links to its base install, which may be under /home or
    /work on another machine): kept, as a container image holds its Python."""
    return sorted({os.path.realpath(prefix) for prefix in (sys.base_prefix, sys.prefix) if os.path.isdir(prefix)})


def private_file_system(keep: list[str]) -> None:
    """Cover COVERED with empty tmpfs in a new mount namespace, then bind back the kept paths."""
    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source: str | None, target: str, kind: str | None, flags: int, data: str | None = None) -> None:
        if libc.mount(*(None if text is None else text.encode() for text in (source, target, kind)),
                      ctypes.c_ulong(flags), None if data is None else data.encode()) != 0:
            sys.exit(f"cannot mount {target}: {os.strerror(ctypes.get_errno())}")

    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        sys.exit(f"cannot make a mount namespace: {os.strerror(ctypes.get_errno())}")
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    kept = []
    for path in (os.path.realpath(path) for path in [*keep, *interpreter_folders()]):
        os.makedirs(path, exist_ok=True)
        kept.append((path, os.open(path, os.O_PATH)))
    covered = [*COVERED, *([] if any(PROJECT.is_relative_to(folder) for folder in COVERED) else [str(PROJECT)])]
    # A kept folder is not covered at all: where it is a mount's root (CI's checkout is), the tmpfs would sit on
    # that root, and the recursive bind below would bring the tmpfs back with it.
    kept_paths = {path for path, _ in kept}
    for folder in (folder for folder in covered if os.path.realpath(folder) not in kept_paths):
        mount("container-profile", folder, "tmpfs", 0, "mode=1777" if folder == "/tmp" else "mode=0755")
    for path, handle in kept:  # through the descriptor: the path itself now leads into the tmpfs
        os.makedirs(path, exist_ok=True)
        mount(f"/proc/self/fd/{handle}", path, None, MS_BIND | MS_REC)
        os.close(handle)
    here = os.getcwd()
    os.chdir(here if os.path.isdir(here) else "/")  # the same path, seen through the new mounts


def main(argv: list[str]) -> None:
    """Install the profile and exec argv."""
    keep: list[str] = []
    landlock = True
    while argv and argv[0] in ("--keep", "--no-landlock"):
        if argv[0] == "--no-landlock":
            landlock, argv = False, argv[1:]
            continue
        keep.append(argv[1])
        argv = argv[2:]
    if not argv:
        sys.exit("usage: container_profile.py [--no-landlock] [--keep PATH]... COMMAND [ARG...]")
    if keep:
        private_file_system(keep)
    seccomp_bpf.install(container_filter(landlock=landlock), no_new_privs=os.geteuid() != 0)
    libc = ctypes.CDLL(None, use_errno=True)
    if os.geteuid() == 0 and libc.prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0) != 0:
        sys.exit(f"cannot drop CAP_SYS_ADMIN: {os.strerror(ctypes.get_errno())}")
    try:
        os.execvp(argv[0], argv)
    except OSError as error:
        sys.exit(f"container_profile: cannot run {argv[0]} ({error.strerror}; it resolves to "
                 f"{os.path.realpath(argv[0])}, kept: {', '.join(keep) or 'nothing'})")


if __name__ == "__main__":
    main(sys.argv[1:])
