"""Install a seccomp program compiled by the trusted side: standard library only, installable unprivileged.

The programs are compiled by libseccomp in grader/sandbox/syscall_allowlist.py, which says what they allow and
why. This module is copied into the worker's and Part E's runtime folders beside the compiled allowlist
(syscall_allowlist.bpf): there the worker, and each of Part E's runs, call install_allowlist() before any
student code runs. The allowlist names "the caller's own pid" by SELF_SENTINEL; for_this_process puts the
calling process's pid in its place. A filter is inherited across fork and exec and cannot be removed.
"""

from __future__ import annotations

import ctypes
import os
import struct

SELF_SENTINEL = 0x5EC0F1D5
"""Stands for the installing process's pid in a compiled program (no pid, syscall number or flag is this value)."""

PROGRAM_FILE = "syscall_allowlist.bpf"
"""The compiled allowlist, beside this module in a runtime folder."""

JEQ_K = 0x15
"""BPF_JMP | BPF_JEQ | BPF_K: the only instruction libseccomp compares an argument with a constant by for EQ."""

PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2


def for_this_process(program: bytes, pid: int) -> bytes:
    """program with pid wherever an equality test compares an argument with SELF_SENTINEL."""
    out = bytearray(program)
    for at in range(0, len(out), 8):
        code, yes, no, k = struct.unpack_from("=HBBI", out, at)
        if code == JEQ_K and k == SELF_SENTINEL:
            struct.pack_into("=HBBI", out, at, code, yes, no, pid)
    return bytes(out)


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


def install_allowlist() -> bool:
    """Install the allowlist beside this module for the calling process: True once installed, False when there is
    none (this module run outside a runtime folder); OSError when the kernel refuses it."""
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), PROGRAM_FILE), "rb") as file:
            program = file.read()
    except FileNotFoundError:
        return False
    install(for_this_process(program, os.getpid()))
    return True
