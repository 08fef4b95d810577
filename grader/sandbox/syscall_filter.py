"""A seccomp filter that denies the kernel keyring's system calls to the sandboxed process and its children.

Keys added with add_key live in the kernel, tied to the uid, and outlive the process, the sandbox and the
batch: sandbox uids are reused, so a key would carry data from one run, student or batch to the next. No
namespace gives a keyring of its own, so the calls are refused: add_key, request_key and keyctl fail with
EPERM. The filter is a small classic-BPF program installed with prctl through ctypes (no library needed);
it is inherited across fork and exec and cannot be removed. It knows x86_64 and aarch64; any system call
made through another ABI (32-bit calls from a 64-bit process, x32) is refused outright.

Stand-alone on purpose: Part E's in-sandbox script imports it from the runtime folder, the grader's worker
from its package; it uses only the standard library.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

KEYRING_CALLS = {
    "x86_64": (0xC000003E, (248, 249, 250)),  # AUDIT_ARCH_X86_64; add_key, request_key, keyctl
    "aarch64": (0xC00000B7, (217, 218, 219)),  # AUDIT_ARCH_AARCH64; add_key, request_key, keyctl
}
"""Per machine: the audit architecture of its native system calls and the keyring calls' numbers."""

X32_BIT = 0x40000000
"""x86_64's x32 ABI sets this bit in the system call number."""

_LD_ABS_W, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


def program(machine: str) -> list[tuple[int, int, int, int]]:
    """The filter's instructions (code, jump if true, jump if false, k) for this machine; KeyError if unknown."""
    arch, calls = KEYRING_CALLS[machine]
    deny = _RET_ERRNO | errno.EPERM
    body: list[tuple[int, int, int, int]] = [(_LD_ABS_W, 0, 0, 0)]  # the system call's number
    # Each check jumps to the deny at the end when it matches; n checks, then allow, then deny.
    checks: list[tuple[int, int]] = [(_JGE, X32_BIT)] if machine == "x86_64" else []
    checks += [(_JEQ, number) for number in calls]
    for index, (code, value) in enumerate(checks):
        body.append((code, len(checks) - index, 0, value))
    body += [(_RET, 0, 0, _RET_ALLOW), (_RET, 0, 0, deny)]
    # First: the architecture; another ABI than the native one is denied everything.
    return [(_LD_ABS_W, 0, 0, 4), (_JEQ, 1, 0, arch), (_RET, 0, 0, deny), *body]


def deny_keyring() -> bool:
    """Install the filter on the calling process (and so on all it starts); False when this machine or kernel
    cannot (an unknown architecture, no seccomp), True once installed."""
    machine = platform.machine()
    if machine not in KEYRING_CALLS:
        return False
    instructions = program(machine)
    raw = b"".join(struct.pack("HBBI", *instruction) for instruction in instructions)
    buffer = ctypes.create_string_buffer(raw, len(raw))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Program(len(instructions), ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    prctl = libc.prctl
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    if prctl(_PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0:
        return False
    return prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0) == 0
