"""Landlock for student processes: the files they may read and write, no TCP, signals and abstract sockets kept in.

A process restricts itself (no privilege needed, with no_new_privs) and everything it starts after inherits the
restriction, which can never be lifted. The hidden suites' worker (worker.py) and each run of Part E's tests
(in_sandbox.py, whose zygote makes student_ruleset() once and each run's child enforce()s it after its own
mounts) restrict themselves before any student code runs, at every sandbox level where the kernel offers
Landlock: under bubblewrap and unshare it is a second wall; at the uid level (containers without namespaces)
it is the wall that keeps a student's files from the next student. Both import this module from their runtime
folder, so it uses only the standard library (ctypes for the three system calls, 444 to 446 on x86_64 and
aarch64 alike). It runs before the seccomp filters are installed, so they need not allow its calls.

What a confined process may do (student_ruleset and confine below; docs/sandbox.md):
- read (files and folders): its package's private copy, its runtime, the interpreter's standard library (the
  folders on sys.path at start, a site-packages inside them left out), the files the interpreter has mapped
  (its shared libraries, the locale), the folders of libc and the dynamic loader (where an extension module's
  libraries are found), /etc/ld.so.cache, /etc/localtime, /dev/zero, /dev/random and /dev/urandom;
- write: its scratch folder (create, change, delete, rename within it) and /dev/null; it executes nothing;
- from ABI 4, neither bind nor connect a TCP socket; from ABI 6, neither connect to an abstract Unix socket nor
  signal a process that is not its own or its descendants'.
/proc, /sys and the rest of /etc (passwd included) are not readable: CPython and pytest need none of them once
the interpreter has started (os.cpu_count and getpass fall back without them), and under bubblewrap /etc holds
nothing more. Each ABI is used as far as it goes: the rights a kernel does not know are dropped (REFER from
ABI 2, TRUNCATE 3, TCP 4, IOCTL_DEV 5, scoping 6), so an older kernel restricts less, and the results say so
(grader/sandbox/isolation.py's warning, which reads abi()).
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: importing typing would cost every worker's start a few ms
    from collections.abc import Iterable

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
"""The system calls' numbers, the same on x86_64 and aarch64 (the generic table every architecture shares)."""

MACHINES = ("x86_64", "aarch64")

CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR = 1 << 4, 1 << 5, 1 << 6, 1 << 7
MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 8, 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
"""LANDLOCK_ACCESS_FS_*: REFER from ABI 2, TRUNCATE from ABI 3, IOCTL_DEV from ABI 5; the others from ABI 1."""

BIND_TCP, CONNECT_TCP = 1 << 0, 1 << 1
"""LANDLOCK_ACCESS_NET_*, from ABI 4."""

SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1
"""LANDLOCK_SCOPE_*, from ABI 6."""

ATTR_SIZES = ((6, 24), (4, 16), (1, 8))
"""struct landlock_ruleset_attr's size from each ABI on: handled_access_fs, handled_access_net (4), scoped (6); an
older kernel refuses the larger struct."""

FILE_ACCESS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV
"""The rights a rule on a file (not a folder) may carry."""

READ = READ_FILE | READ_DIR
WRITE = (READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO | MAKE_SYM
         | REFER | TRUNCATE)
"""What the scratch allows: everything but executing, device nodes and device ioctls."""

DEVICE_READ = ("/dev/zero", "/dev/random", "/dev/urandom")
DEVICE_WRITE = ("/dev/null",)

SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime")
"""Read by the dynamic loader (an extension module imported late) and by the C library (local time)."""

LOADER_FOLDERS_OF = ("libc.so", "libc-", "ld-linux", "ld-musl", "ld64")
"""The libraries whose folder is readable whole: libc's and the dynamic loader's (where dlopen finds libraries)."""

LEFT_OUT = ("site-packages", "dist-packages")
"""Folders of installed packages, never readable even where they sit inside the standard library's folder."""


_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def abi() -> int:
    """The Landlock ABI this kernel offers to this process: 0 where it has none (an old kernel, Landlock off, an
    architecture not known here, or a seccomp profile that refuses the call)."""
    if os.uname().machine not in MACHINES:
        return 0
    version = _syscall(ctypes.c_long(CREATE_RULESET), None, ctypes.c_size_t(0),
                       ctypes.c_uint32(CREATE_RULESET_VERSION))
    return max(int(version), 0)


def handled_fs(version: int) -> int:
    """The file system rights an ABI knows."""
    rights = (1 << 13) - 1
    if version >= 2:
        rights |= REFER
    if version >= 3:
        rights |= TRUNCATE
    if version >= 5:
        rights |= IOCTL_DEV
    return rights


def ruleset(*, read: Iterable[str], write: Iterable[str], left_out: tuple[str, ...] = (),
            version: int | None = None) -> int | None:
    """A ruleset (a file descriptor, closed on exec) allowing to read read and to read and write write (folders,
    with everything below them, even across mounts, or files such as /dev/null), with no TCP and with signals
    and abstract sockets scoped where the ABI allows. A read folder holding one of left_out is given entry by
    entry without it; paths that do not exist are skipped. None where the kernel has no Landlock; OSError where
    it has one but refuses."""
    version = abi() if version is None else version
    if version <= 0:
        return None
    fs = handled_fs(version)
    size = next(size for since, size in ATTR_SIZES if version >= since)
    attr = (ctypes.c_uint64 * 3)(fs, BIND_TCP | CONNECT_TCP if version >= 4 else 0,
                                 SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)
    made = int(_syscall(ctypes.c_long(CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if made < 0:
        raise _error("landlock_create_ruleset")
    try:
        for path in read:
            _allow(made, path, READ & fs, left_out)
        for path in write:
            _allow(made, path, WRITE & fs, ())
    except BaseException:
        os.close(made)
        raise
    return made


def enforce(rules: int, *, write: Iterable[str] = ()) -> None:
    """Restrict the calling thread, and all it starts from now on, to rules (from ruleset()) plus reading and
    writing write, and close the rules: a process left holding the descriptor could add rules to it. write is
    added to the ruleset itself (shared with any process that holds it too), for a folder mounted since the rules
    were made, such as a run's own /tmp. OSError if the kernel refuses."""
    try:
        rights = WRITE & handled_fs(abi())
        for path in write:
            _allow(rules, path, rights, ())
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _error("prctl(PR_SET_NO_NEW_PRIVS)")
        if _syscall(ctypes.c_long(RESTRICT_SELF), ctypes.c_long(rules), ctypes.c_uint32(0)) != 0:
            raise _error("landlock_restrict_self")
    finally:
        os.close(rules)


def restrict(*, read: Iterable[str], write: Iterable[str], left_out: tuple[str, ...] = (),
             version: int | None = None) -> int:
    """ruleset() enforced now: the ABI applied (version, if given, for an older ABI's rights), 0 where the kernel
    has no Landlock (nothing done); OSError where it refuses."""
    version = abi() if version is None else version
    rules = ruleset(read=read, write=write, left_out=left_out, version=version)
    if rules is None:
        return 0
    enforce(rules)
    return version


def _allow(rules: int, path: str, rights: int, left_out: tuple[str, ...], folder: int | None = None) -> None:
    """Allow rights beneath path (relative to the open folder, if given): a file's rule keeps only the rights a file
    can have; a folder holding one of left_out gets a rule for each of its other entries instead. A path that
    does not exist is skipped."""
    try:
        handle = os.open(path, os.O_PATH | os.O_CLOEXEC, dir_fd=folder)
    except OSError:
        return
    try:
        if not stat.S_ISDIR(os.fstat(handle).st_mode):
            rights &= FILE_ACCESS
        elif left_out and any(os.path.isdir(os.path.join(path, name)) for name in left_out):
            with os.scandir(path) as entries:
                names = sorted(entry.name for entry in entries if entry.name not in left_out)
            opened = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                for name in names:
                    _allow(rules, name, rights, (), opened)
            finally:
                os.close(opened)
            return
        rule = _PathBeneath(rights, handle)
        if _syscall(ctypes.c_long(ADD_RULE), ctypes.c_long(rules), ctypes.c_long(RULE_PATH_BENEATH),
                    ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
            raise _error(f"landlock_add_rule({path})")
    finally:
        os.close(handle)


def _error(call: str) -> OSError:
    number = ctypes.get_errno()
    return OSError(number, f"{call} failed: {os.strerror(number)}")


def interpreter_paths() -> list[str]:
    """What this interpreter reads after its start, found from itself: the folders on sys.path (standard library,
    its zip, lib-dynload; never a site-packages), the files it has mapped (shared libraries, locale data) and the folders of libc and the
    dynamic loader (where the libraries of an extension module imported later are found)."""
    paths = [entry for entry in sys.path if entry and os.path.basename(entry) not in LEFT_OUT]
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as handle:
            for line in handle:
                parts = line.split(None, 5)
                if len(parts) == 6 and parts[5].startswith("/"):
                    path = parts[5].rstrip("\n")
                    if not path.endswith(" (deleted)") and path not in paths:
                        paths.append(path)
                        if os.path.basename(path).startswith(LOADER_FOLDERS_OF):
                            paths.append(os.path.dirname(os.path.realpath(path)))
    except OSError:  # no /proc: the standard library's extension modules still load, their libraries may not
        pass
    return list(dict.fromkeys(paths))


def student_ruleset(*, package: str, runtime: str) -> int | None:
    """The ruleset of what a student's code may read (the module docstring): package, runtime, the interpreter, a
    few system files and devices; and write /dev/null. enforce() adds its scratch. None without Landlock; OSError
    if the kernel refuses."""
    return ruleset(read=[package, runtime, *interpreter_paths(), *SYSTEM_FILES, *DEVICE_READ], write=DEVICE_WRITE,
                   left_out=LEFT_OUT)


def confine(*, package: str, runtime: str, scratch: str) -> int:
    """Restrict this process to student_ruleset and its scratch now: the ABI applied, 0 without Landlock; OSError
    if the kernel refuses."""
    rules = student_ruleset(package=package, runtime=runtime)
    if rules is None:
        return 0
    enforce(rules, write=[scratch] if scratch else [])
    return abi()
