"""The system calls student code may make: an allowlist, compiled by libseccomp; every other call fails with EPERM.

Every process that runs student code (the hidden suites' worker and the child it makes for a repaired call, each
of Part E's runs) runs under this filter. It names what CPython, pytest and the grader's own protocol (JSON lines
on pipes) need, group by group below with a line of why, and refuses everything else: System V IPC, POSIX
message queues and the kernel keyrings (state that outlives a run and, at the uid level, every namespace),
sockets of any kind (the protocol uses pipes: no network, no Unix socket of the host's), other processes'
resource limits, priority, CPU affinity and scheduling, signals to any process but the caller, tracing, new
namespaces and mounts, io_uring, BPF and perf. The list was derived from what really
runs: strace of `war-grader grade` over the whole corpus at the bwrap level (Python 3.11), of perfect,
tests_thorough, tests_weak and fork_bomb__honest under this list at the bwrap level and at the uid level in a
container (tests/container_profile.py; Debian's Python 3.11), and of pytest with coverage running the model
Part E suite under this list on Python 3.11, 3.12 and 3.13: none of them had a call refused.
tests/sandbox/test_syscall_allowlist.py checks each refused channel inside a sandboxed run at every level, and the
channel census (tests/sandbox/test_channel_census.py) looks for what still gets through, which the flock and ioprio_get
lines below answer.

Why a library, and why on the trusted side. The filter is compiled here with pyseccomp (a ctypes binding to the
system's libseccomp.so.2, which every Debian and Ubuntu image has: apt itself depends on it), not assembled by
hand: libseccomp knows each architecture's numbers, the 32-bit and x32 ABIs, and the comparison of 64-bit
arguments. The worker and Part E's script may use only the standard library, on whatever interpreter the level
runs, so the trusted side exports the compiled program (seccomp_export_bpf) into the runtime folder
(PROGRAM_FILE) and they install those bytes with prctl (seccomp_bpf.py, standard library only). Where libseccomp
or pyseccomp cannot be loaded, or this kernel refuses the program, the grader refuses to grade in one line
(SandboxError from the runtime's making): there is no hand-written fallback, so no second filter to keep true.

Calls aimed at a process. kill, tgkill, rt_sigqueueinfo, prlimit64, setpriority, sched_setaffinity,
sched_setscheduler, sched_setparam and setpgid are allowed only when their pid argument is the caller's own
(or 0, "myself", where the call reads it so; for kill 0 means the process group, refused). A filter cannot learn
the caller's pid, so the program is compiled with SELF_SENTINEL in its place and each process substitutes its
own pid as it installs it (seccomp_bpf.for_this_process). Filters stack and are inherited: the Part E zygote
installs none (it never runs student code) and each run's child installs its own, so a run cannot reach the
zygote; a process that student code forks keeps its parent's pid in the filter, so it may signal or limit that
parent (the same run) but reach itself only where pid 0 means the caller (never with kill).

EPERM or ENOSYS. Every unlisted call fails with EPERM (as issue 25 asks), which no caller mistakes for
"this kernel is old". The exceptions are the calls glibc or CPython try first and abandon only on ENOSYS
(PROBED_FIRST): clone3 (glibc's pthread_create and posix_spawn fall back to clone; its flags sit behind a
pointer no filter can read, so clone is allowed, only without CLONE_NEW* flags) and fchmodat2 (glibc 2.39's
fchmodat with AT_SYMLINK_NOFOLLOW falls back to fchmodat). The newer calls glibc and CPython try and that
are harmless (rseq, faccessat2, close_range, statx) are simply allowed.
"""

from __future__ import annotations

import errno
import functools
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .seccomp_bpf import PROGRAM_FILE, SELF_SENTINEL


@dataclass(frozen=True)
class Group:
    """System calls allowed together, for one reason."""

    why: str
    calls: tuple[str, ...]


ALLOWED = (
    Group("memory: the allocator, the interpreter's arenas and imported extension modules",
          ("brk", "mmap", "munmap", "mremap", "mprotect", "madvise")),
    Group("files: reading the runtime and the submission, writing scratch files, os and shutil",
          ("read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2", "pwritev2",
           "lseek", "open", "openat", "close", "close_range", "creat", "stat", "fstat", "lstat", "newfstatat",
           "statx", "statfs", "fstatfs", "access", "faccessat", "faccessat2", "readlink", "readlinkat",
           "getdents64", "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename",
           "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
           "utimensat", "truncate", "ftruncate", "fsync", "fdatasync", "fadvise64", "sendfile",
           "copy_file_range", "umask")),
    Group("descriptors: the protocol's pipes, duplication, and select/poll/epoll (subprocess, selectors)",
          ("pipe", "pipe2", "dup", "dup2", "dup3", "poll", "ppoll", "select", "pselect6", "epoll_create",
           "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2")),
    Group("who am I: ids, names and usage of the calling process",
          ("getpid", "getppid", "gettid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
           "getgroups", "getpgid", "getpgrp", "getsid", "setsid", "uname", "sysinfo", "getrusage", "times",
           "getpriority", "ioprio_get", "getrlimit", "setrlimit", "getcpu", "sched_getaffinity", "sched_getparam",
           "sched_getscheduler", "sched_get_priority_max", "sched_get_priority_min", "sched_yield")),
    Group("time: clocks, sleeps and the interval timers a test may use on itself",
          ("clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time", "alarm",
           "setitimer", "getitimer", "timer_create", "timer_settime", "timer_gettime", "timer_getoverrun",
           "timer_delete")),
    Group("signals: handlers, masks and waits of the calling process (signal, faulthandler, subprocess)",
          ("rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait", "rt_sigsuspend",
           "sigaltstack", "pause", "restart_syscall")),
    Group("processes and threads: fork (the repaired call's child, a test's own), threads, waiting, exiting",
          ("fork", "vfork", "wait4", "waitid", "exit", "exit_group", "set_tid_address", "set_robust_list", "rseq",
           "futex", "arch_prctl")),
    Group("randomness: os.urandom, hash seeds, random", ("getrandom",)),
    Group("confining oneself further: Landlock's three calls (main's landlock.py confines the worker after this "
          "filter is installed); they can only take rights away",
          ("landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self")),
    Group("starting a program (subprocess; the channel census starts its probe so): the filter and no_new_privs "
          "stay across exec, so the program gains nothing", ("execve", "execveat")),
)
"""Allowed whatever their arguments."""

CLONE_NEW = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET and NEWTIME: clone with any of them is refused."""

AIMED_AT_SELF = {
    "kill": False, "tgkill": False, "rt_sigqueueinfo": False, "rt_tgsigqueueinfo": False, "prlimit64": True,
    "sched_setaffinity": True, "sched_setscheduler": True, "sched_setparam": True, "setpgid": True,
}
"""Calls allowed only when their first argument, a pid, names the caller: its own pid, or 0 where True (0 then
means the caller; kill(0) is the process group, refused). Without them a test could raise its zygote's limits to
count its runs (the corpus's prlimits_zygote), or stop, slow or pin any other process of its uid."""

PRIO_PROCESS = 0

IOCTLS = {"TCGETS": 0x5401, "TIOCGWINSZ": 0x5413, "TIOCGPGRP": 0x540F, "FIONREAD": 0x541B, "FIONBIO": 0x5421,
          "FIONCLEX": 0x5450, "FIOCLEX": 0x5451}
"""The ioctl requests allowed: is this a terminal and how wide (io, pytest's terminal writer), bytes waiting,
non-blocking and close-on-exec flags. Not TIOCSTI (typing into a terminal) nor any device's."""

FCNTLS = {"F_DUPFD": 0, "F_GETFD": 1, "F_SETFD": 2, "F_GETFL": 3, "F_SETFL": 4, "F_DUPFD_CLOEXEC": 1030,
          "F_SETPIPE_SZ": 1031, "F_GETPIPE_SZ": 1032}
"""The fcntl commands allowed: duplicating a descriptor, its close-on-exec and status flags, a pipe's size. Not the
record and open-file-description locks, nor leases or notifications: a lock held on a file every run can open
(the interpreter, /dev/null) is seen by a student graded at the same time (the channel census's file_lock), which is
also why flock is not in the list."""

PRCTLS = {"PR_SET_PDEATHSIG": 1, "PR_GET_PDEATHSIG": 2, "PR_GET_DUMPABLE": 3, "PR_SET_NAME": 15, "PR_GET_NAME": 16,
          "PR_GET_SECCOMP": 21, "PR_SET_SECCOMP": 22, "PR_CAPBSET_READ": 23, "PR_SET_NO_NEW_PRIVS": 38,
          "PR_GET_NO_NEW_PRIVS": 39, "PR_SET_VMA": 0x53564D41}
"""The prctl options allowed, all about the caller: its name and death signal, adding (never removing) a seccomp
filter, and naming its memory (glibc's malloc). Not PR_SET_DUMPABLE (the zygote's children stay undumpable),
PR_SET_PTRACER, PR_SET_MM and the rest."""

PROBED_FIRST = ("clone3", "fchmodat2")
"""Refused with ENOSYS, not EPERM: glibc tries them first and falls back to an allowed call only on ENOSYS."""


class Unavailable(RuntimeError):
    """libseccomp (or its Python binding) cannot be loaded on this machine."""


def _library():  # noqa: ANN202 - pyseccomp has no types
    """pyseccomp, loaded only here: it loads libseccomp.so.2 at import and raises RuntimeError when that is missing."""
    try:
        import pyseccomp  # noqa: PLC0415
    except (ImportError, RuntimeError, OSError) as error:
        raise Unavailable(f"the system call allowlist needs libseccomp (Debian and Ubuntu: apt-get install "
                          f"libseccomp2) and pyseccomp ({error})") from None
    return pyseccomp


def _export(syscall_filter) -> bytes:  # noqa: ANN001
    """The filter as classic BPF (struct sock_filter[]), exported by libseccomp."""
    with tempfile.TemporaryFile() as file:
        syscall_filter.export_bpf(file)
        file.seek(0)
        return file.read()


@functools.lru_cache(maxsize=1)
def allowlist_program() -> bytes:
    """The allowlist for this machine's architecture, with SELF_SENTINEL where the caller's pid goes."""
    seccomp = _library()
    refuse = seccomp.ERRNO(errno.EPERM)
    allow = seccomp.ALLOW
    program = seccomp.SyscallFilter(refuse)
    program.set_attr(seccomp.Attr.ACT_BADARCH, refuse)  # a 32-bit or x32 call names other calls: refused
    low_word = 0xFFFFFFFF  # the kernel reads a pid_t or an int from the argument's low 32 bits

    def add(action: int, name: str, *args: object) -> None:
        try:
            program.add_rule(action, name, *args)
        except OSError as error:
            if error.errno != errno.EDOM:  # EDOM: a call this architecture does not have (open on aarch64)
                raise

    def known(name: str) -> bool:
        return seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) >= 0

    for group in ALLOWED:
        for name in group.calls:
            if known(name):
                add(allow, name)
    for name, zero_is_self in AIMED_AT_SELF.items():
        for who in ((SELF_SENTINEL, 0) if zero_is_self else (SELF_SENTINEL,)):
            add(allow, name, seccomp.Arg(0, seccomp.MASKED_EQ, low_word, who))
    for who in (SELF_SENTINEL, 0):
        add(allow, "setpriority", seccomp.Arg(0, seccomp.MASKED_EQ, low_word, PRIO_PROCESS),
            seccomp.Arg(1, seccomp.MASKED_EQ, low_word, who))
    add(allow, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEW, 0))
    for command in FCNTLS.values():
        add(allow, "fcntl", seccomp.Arg(1, seccomp.MASKED_EQ, low_word, command))
    for request in IOCTLS.values():
        add(allow, "ioctl", seccomp.Arg(1, seccomp.MASKED_EQ, low_word, request))
    for option in PRCTLS.values():
        add(allow, "prctl", seccomp.Arg(0, seccomp.MASKED_EQ, low_word, option))
    for name in PROBED_FIRST:
        if known(name):
            add(seccomp.ERRNO(errno.ENOSYS), name)
    return _export(program)


@functools.lru_cache(maxsize=1)
def no_network_program() -> bytes:
    """The uid level's outer layer, installed before the worker's interpreter starts (no network namespace can be
    made there): socket() for anything but AF_UNIX and io_uring_setup (which opens sockets by itself) fail with
    EACCES; every other call is left to the allowlist the worker installs."""
    seccomp = _library()
    refuse = seccomp.ERRNO(errno.EACCES)
    program = seccomp.SyscallFilter(seccomp.ALLOW)
    program.set_attr(seccomp.Attr.ACT_BADARCH, refuse)
    program.add_rule(refuse, "socket", seccomp.Arg(0, seccomp.NE, 1))  # AF_UNIX
    program.add_rule(refuse, "io_uring_setup")
    return _export(program)


CLONE_NEWUSER = 0x10000000

CHANGES_OF_IDENTITY = ("setuid", "setreuid", "setfsuid", "setgid", "setregid", "setfsgid", "unshare", "setns")
"""Refused to Part E's zygote at the uid level whatever their arguments: it changes uid with setresuid alone, into
its own run of uids, and never its groups; a user namespace (unshare, setns, clone with CLONE_NEWUSER) would let
CAP_SETUID map any uid, root's included, into it."""


def run_uids_program(first: int, count: int) -> bytes:
    """Part E's zygote at the uid level holds CAP_SETUID (each run gets a uid of its own): this filter, installed
    before its interpreter starts (setpriv's own calls pass it), bounds what that capability can do. setresuid only
    to uids first .. first + count - 1 (the zygote's own and its runs'); setresgid only to first (each run keeps
    the zygote's group, which reads the submission's copy); setgroups only to no group; no other change of uid or
    group, no user namespace, no socket (CAP_SETUID forges the sender's credentials on a Unix socket; the zygote
    speaks on pipes). A uid's low 32 bits are what the kernel reads: any high bit set is refused, never ignored."""
    seccomp = _library()
    refuse = seccomp.ERRNO(errno.EPERM)
    program = seccomp.SyscallFilter(seccomp.ALLOW)
    program.set_attr(seccomp.Attr.ACT_BADARCH, refuse)
    last = first + count - 1
    for argument in range(3):
        program.add_rule(refuse, "setresuid", seccomp.Arg(argument, seccomp.LT, first))
        program.add_rule(refuse, "setresuid", seccomp.Arg(argument, seccomp.GT, last))
        program.add_rule(refuse, "setresgid", seccomp.Arg(argument, seccomp.NE, first))
    program.add_rule(refuse, "setgroups", seccomp.Arg(0, seccomp.NE, 0))
    for name in CHANGES_OF_IDENTITY:
        program.add_rule(refuse, name)
    program.add_rule(refuse, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER))
    program.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")  # its flags sit behind a pointer: glibc falls back to clone
    for name in ("socket", "socketpair"):
        program.add_rule(seccomp.ERRNO(errno.EACCES), name)
    return _export(program)


def write_program(folder: Path) -> Path:
    """Write the allowlist into a runtime folder that holds seccomp_bpf.py, and check, in a child that installs it
    from there, that this kernel takes it; Unavailable (one line) when libseccomp cannot be loaded or it does not."""
    path = folder / PROGRAM_FILE
    path.write_bytes(allowlist_program())
    probe = f"import sys; sys.path.insert(0, {str(folder)!r}); import seccomp_bpf; seccomp_bpf.install_allowlist()"
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", probe], capture_output=True, text=True, timeout=60,
                              check=False)
    except (OSError, subprocess.SubprocessError) as error:
        raise Unavailable(f"the system call allowlist could not be tried ({error})") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise Unavailable(f"this kernel refused the system call allowlist (seccomp): {last}")
    return path
