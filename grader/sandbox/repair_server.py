"""Where a repaired call runs: a process forked from the worker before any student code ran, which alone receives the
correct stand-ins (trusted_units.py's source) and makes each repaired call in a child that ends with it.

A module of the worker's runtime (stdlib only, beside worker.py in the sandbox; see worker.py's docstring). The
worker starts this server at hello, before it imports the submission, and then closes its own copy of the pipe the
trusted side sends repaired calls on: a process that has run student code never holds that pipe, the stand-ins'
source or the objects made from it. The server never runs student code and is not dumpable, so no process of the
sandbox's uid can read its memory or take its pipe. For each repaired call (the request's JSON line, then the
stand-ins' source, on that pipe) it forks a child that
- gets a user and network namespace of its own where the kernel allows it (bwrap and unshare): nothing on a
  loopback or an abstract socket the worker's calls share;
- is made not dumpable and installs an audit hook (which no Python code can remove) before anything else;
- compiles the stand-ins and forgets their source (nothing of it is left in a frame, a buffer or a module) before any
  student code runs in it, then imports the submission afresh and makes the one call;
- answers through the server, and ends.
The hook refuses, from then on, every step to the stand-ins' code objects (a function's __code__, a frame's f_code,
a traceback's or a generator's frame, where that code is the stand-ins'), every walk over arbitrary objects (gc),
tracing and profiling, sys.monitoring, ctypes (raw memory), opening anything under /proc, starting a process (which
could outlive the call holding the stand-ins), and every way to leave something for a later call: writing or changing
a file, a socket, a signal. What student code can take from a repaired call is its answer, nothing it could play
again in a later call (not even answers it got from the stand-ins by calling them). A child that ends without
answering, or leaves a process of the sandbox's uid running, ends the worker, as the call made in the worker would
have.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable  # annotations only: importing typing cost every worker 4 ms

STAND_INS_FILE = "trusted_units.py"
"""The file name the stand-ins are compiled under: code of that name is hidden from student code."""

CODE_ATTRIBUTES = frozenset({"__code__", "f_code", "gi_code", "cr_code", "ag_code", "tb_frame", "gi_frame",
                             "cr_frame", "ag_frame"})
"""Attributes that lead to a code object (CPython raises the audit event object.__getattr__ for each)."""

DENIED_EVENTS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys.settrace",
                           "sys.setprofile", "sys._current_frames", "os.fork", "os.forkpty", "os.posix_spawn",
                           "os.exec", "os.system", "os.spawn", "subprocess.Popen", "pty.spawn"})
"""What a repaired call's student code may not do: reach any object, trace frames, or start a process
(RuntimeError)."""

LEAVING_EVENTS = frozenset({"os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.symlink", "os.link", "os.truncate",
                           "os.chmod", "os.chown", "os.utime", "os.mkfifo", "os.mknod", "os.setxattr",
                           "os.removexattr", "socket.__new__", "socket.bind", "socket.connect", "socket.sendto",
                           "socket.sendmsg", "os.kill", "os.killpg", "signal.pthread_kill"})
"""Nor leave anything for a later call (write or change a file, open a socket, signal a process): what it learnt of
the stand-ins during the call, even by calling them, ends with it (PermissionError, an OSError as a refusal of the
system's would be)."""

WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
"""Flags of an open that could leave something behind."""

MEMORY_FILES = frozenset({"mem", "pagemap", "maps", "environ"})
"""Files of /proc that show a process's memory, refused by name (a path relative to an open /proc folder included)."""

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
PR_SET_PDEATHSIG, PR_SET_DUMPABLE = 1, 4

_fork, _read, _write, _close, _waitpid, _exit = os.fork, os.read, os.write, os.close, os.waitpid, os._exit
_stat, _fspath, _compile, _exec = os.stat, os.fspath, compile, exec
_type, _len, _getattr, _isinstance = type, len, getattr, isinstance


def start(channel: int, reply: Any, answer: Callable[[str, Any], str], names: dict[str, Any], guard: bool) -> None:
    """Fork the server (call before any student code runs); this process then closes channel, the pipe the trusted
    side sends repaired calls on. answer(request, repaired): the reply line for one repaired call, made in the
    server's child with trusted_units.repaired; names: the globals the stand-ins' source is given; guard: whether
    this uid is the sandbox's alone (not at the plain level), so a process of it left running ends the worker."""
    try:
        pid = _fork()
    except OSError:  # no process left to this uid (a fork bomb's): each repaired call then finds no server
        pid = -1
    if pid == 0:
        try:
            _serve(channel, reply, answer, names, os.getppid(), guard)
        finally:
            _exit(0)
    _close(channel)


def _serve(channel: int, reply: Any, answer: Callable[[str, Any], str], names: dict[str, Any], parent: int,
           guard: bool) -> None:
    """The server's loop: one child per repaired call; parent: the worker's pid."""
    libc = _libc()
    if libc is not None:
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        libc.prctl(PR_SET_PDEATHSIG, 9, 0, 0, 0)  # the worker's end is this server's (it holds the reply line too)
    if os.getppid() != parent:
        return
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the worker's requests are not the server's (nor a repaired call's to steal)
    os.close(null)
    buffer = b""
    while True:
        message, buffer = _next_message(channel, buffer)
        if message is None:
            return
        read_end, write_end = os.pipe()
        try:
            pid = _fork()
        except OSError:  # as if the call's child had died at once
            os.close(read_end)
            os.close(write_end)
            _end_worker(parent)
        if pid == 0:
            os.close(read_end)
            os.close(channel)
            try:
                reply.close()
            except OSError:
                pass
            held = [message]
            del message, buffer
            _make_call(held, write_end, answer, names, libc)
            _exit(0)
        os.close(write_end)
        message = None
        text = b""
        while True:
            chunk = _read(read_end, 1 << 20)
            if not chunk:
                break
            text += chunk
        os.close(read_end)
        _waitpid(pid, 0)
        if not text or (guard and _others_running(parent)):
            _end_worker(parent)
        reply.write(text.decode("utf-8", "replace"))
        reply.flush()


def _next_message(channel: int, buffer: bytes) -> tuple[tuple[bytes, bytes] | None, bytes]:
    """One repaired call from the trusted side: (its request line, the stand-ins' source), and what was read after
    it; None when the pipe is closed. The line ends with the source's length in bytes, after a tab."""
    while b"\n" not in buffer:
        chunk = _read(channel, 1 << 16)
        if not chunk:
            return None, b""
        buffer += chunk
    line, _, buffer = buffer.partition(b"\n")
    request, _, length = line.rpartition(b"\t")
    try:
        size = int(length)
    except ValueError:
        return None, b""
    while _len(buffer) < size:
        chunk = _read(channel, max(size - _len(buffer), 1 << 16))
        if not chunk:
            return None, b""
        buffer += chunk
    return (request, buffer[:size]), buffer[size:]


def _make_call(held: list, out: int, answer: Callable[[str, Any], str], names: dict[str, Any], libc: Any) -> None:
    """In the child: a fresh network, no dumping, the hook, the stand-ins compiled and their source dropped, then
    the call (answer), its reply written to out."""
    _own_network(libc)
    _allowlist()
    _hide_stand_ins()
    request, source = held.pop()
    module = _type(sys)("trusted_units")
    module.__dict__.update(names)
    for part in source.split(b"\0"):  # trusted_cards.py's source, then trusted_units.py's (one namespace)
        _exec(_compile(part.decode("utf-8", "replace"), STAND_INS_FILE, "exec", dont_inherit=True),
              module.__dict__)
    del source, part
    message = answer(request.decode("utf-8", "replace"), module.repaired)
    del module
    data = message.encode("utf-8", "replace")
    while data:
        written = _write(out, data)
        data = data[written:]


def _allowlist() -> None:
    """The system call allowlist, with this child's own pid, once its namespace is made (the filter refuses
    unshare): the server that forked it runs no student code and has none (seccomp_bpf.py, beside this module in
    the runtime; absent when this module runs elsewhere). A kernel that refuses it ends the child unanswered."""
    try:
        import seccomp_bpf  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return
    seccomp_bpf.install_allowlist()


def _own_network(libc: Any) -> None:
    """A user and network namespace of this child's own where the kernel allows one (its uid mapped to itself);
    where it does not (the uid level), nothing. Leaves the process not dumpable either way."""
    if libc is None:
        return
    uid, gid = os.getuid(), os.getgid()
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the maps of /proc/self are root's while it is not dumpable
    try:
        if libc.unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0:
            for file, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
                try:
                    with open(f"/proc/self/{file}", "w") as handle:
                        handle.write(text)
                except OSError:
                    pass
            _drop_capabilities(libc)  # those of the new user namespace: nothing to mount or unshare with
    finally:
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _drop_capabilities(libc: Any) -> None:
    """No capability left (capset with empty sets)."""
    import ctypes  # noqa: PLC0415

    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    libc.capset(header, (ctypes.c_uint32 * 6)())


def _hide_stand_ins() -> None:
    """The audit hook of a repaired call (the module docstring says what it refuses)."""
    proc = _stat("/proc").st_dev
    inside = [False]

    def code_of(obj: Any, name: str) -> Any:
        if name == "tb_frame":
            return obj.tb_frame.f_code
        if name in ("gi_frame", "cr_frame", "ag_frame"):
            frame = _getattr(obj, name)
            return frame.f_code if frame is not None else None
        return _getattr(obj, name)

    def hook(event: str, args: Any) -> None:
        if inside[0]:
            return
        if event == "object.__getattr__":
            if _len(args) < 2 or args[1] not in CODE_ATTRIBUTES:
                return
            inside[0] = True
            try:
                hidden = _getattr(code_of(args[0], args[1]), "co_filename", "") == STAND_INS_FILE
            except BaseException:  # noqa: BLE001 - what cannot be checked is refused
                hidden = True
            finally:
                inside[0] = False
            if hidden:
                raise AttributeError("the grader's stand-ins are hidden from your code")
        elif event in DENIED_EVENTS or event.startswith(("ctypes.", "sys.monitoring")):
            raise RuntimeError(f"{event} is not available during a repaired call")
        elif event in LEAVING_EVENTS:
            raise PermissionError(f"{event} is not available during a repaired call")
        elif event == "open" and args:
            if _len(args) > 2 and _type(args[2]) is int and args[2] & WRITING:
                raise PermissionError("nothing can be written during a repaired call")
            path = args[0] if _type(args[0]) is int else _fspath(args[0])  # student code of a path runs hooked
            inside[0] = True
            try:  # by its last name (a path relative to an open folder of /proc too), and by where it leads
                name = "" if _type(path) is int else \
                    bytes.rpartition(path, b"/")[2].decode("utf-8", "replace") if _isinstance(path, bytes) else \
                    str.rpartition(path, "/")[2]
                on_proc = _stat(path).st_dev == proc
            except (OSError, ValueError, TypeError):
                on_proc = False
            finally:
                inside[0] = False
            if name in MEMORY_FILES or on_proc:
                raise RuntimeError("/proc is not available during a repaired call")

    sys.addaudithook(hook)


def _others_running(worker: int) -> bool:
    """Whether a process of this uid runs besides the worker, this server and the worker's ancestors (one a
    repaired call left behind, or the worker's own from earlier calls)."""
    uid, mine = os.getuid(), {os.getpid(), worker}
    pid = worker
    while pid > 1:  # the worker's ancestors (the sandbox's init, unshare's shell) run as this uid when not root
        pid = _parent(pid)
        mine.add(pid)
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit() or int(entry) in mine:
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid != uid:
                continue
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                state = handle.read().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            return True
    return False


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return int(handle.read().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _end_worker(worker: int) -> None:
    """End the worker and this server: the trusted side sees the process end, as after a crash in the call."""
    import signal  # noqa: PLC0415

    try:
        os.kill(worker, signal.SIGKILL)
    finally:
        _exit(70)


def _libc() -> Any:
    """The C library, for prctl and unshare (None where ctypes cannot load it)."""
    try:
        import ctypes  # noqa: PLC0415

        return ctypes.CDLL(None, use_errno=True)
    except (ImportError, OSError):
        return None
