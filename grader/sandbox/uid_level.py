"""The uid sandbox level, for containers where no namespace can be made (Docker's default profile, Gradescope).

There bubblewrap and unshare fail (no CAP_SYS_ADMIN; unshare, setns and clone with CLONE_NEW* refused), so the
barrier is the uid: student code runs as the unprivileged uid of its job slot (the run's uid block, as at the
other levels), with the resource limits of every level, in a scratch folder of its own, from a world-readable
runtime (the worker or Part E's script, with the pytest they need) and an interpreter any user can run. Everything
secret the caller names (grader/hidden.py: the grader, the reference and their checkout; Gradescope's source
folder; the class's submissions and OUT), is made unreadable to
every other user and checked, as one of those uids, before the first submission: the level refuses in one line
when it cannot be. The network is taken away with a seccomp filter (socket() for anything but AF_UNIX, and
io_uring, fail) installed before the worker starts, and the system call allowlist that the worker and Part E's
runs install refuses every socket (grader/sandbox/syscall_allowlist.py).
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import threading
from pathlib import Path

from . import seccomp_bpf, syscall_allowlist
from .host import UID_BLOCK, SandboxError, choose_python, uid_block

LEVEL = "uid"

IGNORED = {".venv", "venv", ".tox", "node_modules"}
"""Folders of a source checkout not checked file by file (the checkout's own mode hides them)."""


def works() -> bool:
    """Whether this machine can run the level: root (to switch uids), setpriv, and an interpreter any user can run."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    try:
        python, _ = choose_python(LEVEL, True)
    except SandboxError:
        return False
    uid = uid_block() + UID_BLOCK - 1
    try:
        return subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--no-new-privs",
                               "--", python, "-I", "-S", "-c", "pass"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=20, check=False, cwd="/").returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=1)
def network_filter() -> bytes | None:
    """The seccomp program that takes the network away, or None where this kernel or machine cannot have one (the
    system call allowlist every worker installs refuses every socket all the same)."""
    try:
        program = syscall_allowlist.no_network_program()
    except syscall_allowlist.Unavailable:
        return None
    try:  # tried once, in a child, so a kernel without seccomp is known before any worker starts
        done = subprocess.run(["true"], preexec_fn=lambda: seccomp_bpf.install(program), check=False,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    return program if done.returncode == 0 else None


def id_filter(first: int, count: int) -> bytes:
    """The seccomp program that bounds Part E's zygote's CAP_SETUID to its own uids (syscall_allowlist.py);
    SandboxError (one line) where libseccomp is missing: the level cannot give each run a uid of its own."""
    try:
        return syscall_allowlist.run_uids_program(first, count)
    except syscall_allowlist.Unavailable as error:
        raise SandboxError(str(error)) from None


_sealed: set[str] = set()
"""The roots sealed and checked so far in this process."""

_sealing = threading.Lock()
"""Held while sealing: the batch's job slots may ask at the same time."""


def seal(hidden: tuple[str, ...]) -> None:
    """Take every other user's access to the folders hidden (the caller's secrets: grader/hidden.py) away, then
    check it as a worker uid: SandboxError (one line) when one of their files can still be read. Done once per
    process and root: a set whose roots are all sealed already (each worker's spec names the grader's roots, which
    open_batch sealed with any others) returns at once. Nothing given to hide is the caller's bug, refused."""
    if not hidden:
        raise SandboxError("the uid sandbox was given nothing to hide from student code")
    with _sealing:
        if set(hidden) <= _sealed:
            return
        _seal([Path(path) for path in hidden])
        _sealed.update(hidden)


def _seal(roots: list[Path]) -> None:
    for root in roots:
        try:
            mode = root.stat().st_mode
            if mode & 0o007:
                root.chmod(stat.S_IMODE(mode) & ~0o007)
        except OSError as error:
            raise SandboxError(f"the uid sandbox cannot hide {root} from student code ({error.strerror})") from None
    probes: list[str] = []
    for root in roots:
        probes.append(str(root))
        if root.is_dir():
            for folder, dirs, files in os.walk(root):
                dirs[:] = [name for name in dirs if name not in IGNORED and not (name == ".git" and folder != str(root))]
                probes.extend(os.path.join(folder, name) for name in [*dirs, *files])
    readable = readable_by(uid_block() + UID_BLOCK - 1, probes)
    if readable:
        raise SandboxError(f"the uid sandbox cannot hide {readable[0]} from student code (its uid can read it): "
                           "make the grader's files readable by root alone, or run where bubblewrap works")


def readable_by(uid: int, paths: list[str]) -> list[str]:
    """Which of paths uid can read (a file) or list (a folder), asked as that uid."""
    script = 'while IFS= read -r p; do if [ -r "$p" ]; then printf "%s\\n" "$p"; fi; done'
    done = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", "/bin/sh", "-c",
                           script], input="".join(f"{path}\n" for path in paths if "\n" not in path),
                          capture_output=True, text=True, timeout=60, check=False, cwd="/")
    if done.returncode != 0:
        raise SandboxError(f"the uid sandbox could not check what student code can read ({done.stderr.strip()[:200]})")
    return done.stdout.splitlines()
