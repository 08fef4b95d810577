"""Seccomp filters written as classic BPF with ctypes: no library, and installable by an unprivileged process.

Two filters, one assembler:
- deny_keyring() refuses add_key, request_key and keyctl (EPERM) to student code at every level. Keys live in
  the kernel, tied to the uid, and outlive the process, the sandbox and the batch; sandbox uids are reused, so
  a key would carry data from one run, student or batch to the next, and no namespace gives a keyring of its
  own. The hidden suites' worker and Part E's in-sandbox script import this module from their runtime folder
  (it uses only the standard library for that reason).
- no_network_filter() takes the network from student code at the uid level (grader/sandbox/uid_level.py),
  where no network namespace can be made.
The tests build a container runtime's default profile with the same assembler (tests/container_profile.py).
A filter is inherited across fork and exec and cannot be removed. It knows x86_64 and aarch64; a system call
made through another ABI (32-bit calls from a 64-bit process, x32) is refused outright.
"""

from __future__ import annotations

import ctypes
import errno as errnos
import os
import struct

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: importing typing would cost every worker's start a few ms
    from collections.abc import Sequence

LOAD, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
"""BPF opcodes: load a word of seccomp_data, jump if equal / greater or equal / any bit set, return."""

NR, ARCH, ARG0 = 0, 4, 16
"""Offsets in seccomp_data: the syscall number, the audit architecture, the low word of the first argument."""

ALLOW, ERRNO = 0x7FFF0000, 0x00050000
"""SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO (| the errno returned)."""

ARCHES = {"x86_64": (0xC000003E, {"socket": 41, "clone": 56, "unshare": 272, "setns": 308, "clone3": 435,
                               "io_uring_setup": 425, "add_key": 248, "request_key": 249, "keyctl": 250}),
          "aarch64": (0xC00000B7, {"socket": 198, "clone": 220, "unshare": 97, "setns": 268, "clone3": 435,
                                "io_uring_setup": 425, "add_key": 217, "request_key": 218, "keyctl": 219})}
"""The audit architecture and the syscall numbers used here, per machine."""

X32_BIT = 0x40000000
"""x86_64's x32 ABI numbers: refused outright (they would name the same calls by other numbers)."""

AF_UNIX = 1

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2

Step = tuple[int, object, object, int]
"""(opcode, jump-if-true label or 0, jump-if-false label or 0, constant); a label is a str naming a step."""


def supported() -> bool:
    """Whether this machine's architecture is one the filters know."""
    return os.uname().machine in ARCHES


def numbers() -> tuple[int, dict[str, int]]:
    """This machine's audit architecture and syscall numbers."""
    return ARCHES[os.uname().machine]


def assemble(steps: Sequence[Step | str]) -> bytes:
    """The program as struct sock_filter[]: a str in steps is a label naming the step after it."""
    labels: dict[str, int] = {}
    body: list[Step] = []
    for step in steps:
        if isinstance(step, str):
            labels[step] = len(body)
        else:
            body.append(step)

    def offset(target: object, index: int) -> int:
        if not isinstance(target, str):
            return 0
        jump = labels[target] - index - 1
        assert 0 <= jump < 256, target
        return jump

    return b"".join(struct.pack("=HBBI", code, offset(yes, index), offset(no, index), k)
                    for index, (code, yes, no, k) in enumerate(body))


def no_network_filter() -> bytes:
    """socket() for anything but AF_UNIX fails with EACCES (pipes and Unix sockets still work), and so does
    io_uring_setup (io_uring can open sockets without calling socket())."""
    arch, calls = numbers()
    return assemble([
        (LOAD, 0, 0, ARCH), (JEQ, 0, "refuse", arch),
        (LOAD, 0, 0, NR), (JGE, "refuse", 0, X32_BIT), (JEQ, "refuse", 0, calls["io_uring_setup"]),
        (JEQ, 0, "allow", calls["socket"]),
        (LOAD, 0, 0, ARG0), (JEQ, "allow", 0, AF_UNIX),
        "refuse", (RET, 0, 0, ERRNO | errnos.EACCES),
        "allow", (RET, 0, 0, ALLOW),
    ])


KEYRING_CALLS = ("add_key", "request_key", "keyctl")


def no_keyring_filter() -> bytes:
    """add_key, request_key and keyctl fail with EPERM; every other call of the native ABI is allowed."""
    arch, calls = numbers()
    return assemble([
        (LOAD, 0, 0, ARCH), (JEQ, 0, "refuse", arch),
        (LOAD, 0, 0, NR), (JGE, "refuse", 0, X32_BIT),
        *[(JEQ, "refuse", 0, calls[name]) for name in KEYRING_CALLS],
        (RET, 0, 0, ALLOW),
        "refuse", (RET, 0, 0, ERRNO | errnos.EPERM),
    ])


def deny_keyring() -> bool:
    """Install no_keyring_filter() on the calling process (and so on all it starts): True once installed, False
    where this machine or kernel cannot (an architecture the filters do not know, no seccomp)."""
    if not supported():
        return False
    try:
        install(no_keyring_filter())
    except OSError:
        return False
    return True


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_libc = ctypes.CDLL(None, use_errno=True)


def install(program: bytes, *, no_new_privs: bool = True) -> None:
    """Install program on the calling thread, inherited by its children and kept across exec (OSError if refused).

    Without no_new_privs the caller needs CAP_SYS_ADMIN (as a container runtime installs its profile)."""
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if no_new_privs and _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP) failed")
