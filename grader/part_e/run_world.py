"""The world of one Part E run, and the reset that leaves nothing of it: the namespaces and mounts a run's child
gets where the level allows them, and what the zygote does after each run (kill what the run left running, remove
what it wrote, restore the submission's copy). Part of Part E's runtime, beside in_sandbox.py (which imports it as a
top-level module, as it does process_clock.py): it runs inside the sandbox, with the standard library only, and
its Fault never crosses to the trusted side as an exception (in_sandbox.py sends its message as a line)."""

from __future__ import annotations

import os
import signal
import stat
import time
from typing import Any


def snapshot(root: str) -> dict[str, bytes]:
    files = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    files[os.path.relpath(path, root)] = handle.read()
    return files


class Fault(Exception):
    """The grader's fault: a run could not be set up, or what a run left could not be removed."""


SHARED_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue")
"""The folders every user may write to (host.WRITABLE): at the uid and plain levels, where a run's uid could leave
something outside its scratch (Landlock, where the kernel has it, already refuses every write there)."""


def reset(root: str, snapshot: dict[str, bytes], sweep: bool, private_tmp: bool, run_uid: int | None = None,
          confined_to: str = "") -> None:
    """Leave nothing of the last run: no process, no new or changed file in the copy, nothing in /tmp or
    /dev/shm, no System V IPC object; Fault when something cannot be removed (never ignored). run_uid: the uid
    the run had, at the uid level, where every run has one of its own (sweep_uid).

    confined_to: every process of the run was kept by Landlock to writing this scratch alone, from before
    any student code ran (a child that cannot apply it runs nothing). At the uid level, the folders every user
    may write are then left unwalked, as nothing of the run can be in them (creating a file, a folder, a socket
    or a FIFO anywhere else is refused; POSIX message queues are refused by the system call allowlist), and only
    the scratch (and TMPDIR) is swept: walking the host's /tmp cost each run about 2 ms."""
    if run_uid is not None:
        sweep_uid(run_uid, confined_to)
        fresh_scratch(os.environ.get("TMPDIR", ""))
        sweep = False
    if sweep:
        _kill_this_uids_others()
    if private_tmp:
        for folder in ("/tmp", "/dev/shm"):
            if os.path.isdir(folder):
                for entry in os.listdir(folder):
                    _delete(os.path.join(folder, entry))
                if os.listdir(folder):
                    raise Fault(f"{folder} could not be emptied")
    elif sweep and os.getuid() != 0:
        # A /tmp shared with the host (the uid and plain levels): what this uid made there, in the other folders
        # every user may write, and in its own scratch (TMPDIR), so no run tells the next anything.
        uid = os.getuid()
        for folder in _swept(confined_to):
            for path in _owned(uid, folder):
                _delete(path)
            left = _owned(uid, folder)
            if left:
                raise Fault(f"{left[0]} could not be deleted")
    if sweep:
        _remove_ipc(os.getuid())
    _restore(root, snapshot)


def _kill_this_uids_others() -> None:
    """Kill every process of this uid but this one (a run's leftovers where they share it), and reap them."""
    for _ in range(20):
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal, except this one and init
        except ProcessLookupError:
            break
        reap()
        # Outside a PID namespace of its own kill(-1) succeeds while any other process exists, signalled
        # or not: stop once no process of this uid is left rather than after every try.
        if not _others_of_this_uid():
            break
        time.sleep(0.005)
    reap()


def _restore(root: str, snapshot: dict[str, bytes]) -> None:
    """The copy as the snapshot holds it: what is not in it deleted, what differs written again (Fault if not)."""
    for folder, dirs, names in os.walk(root, topdown=False):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.relpath(path, root) not in snapshot:
                _delete(path)
        for name in dirs:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not any(key.startswith(os.path.relpath(path, root) + os.sep)
                                               for key in snapshot):
                _delete(path)
    for relative, data in snapshot.items():
        path = os.path.join(root, relative)
        try:
            with open(path, "rb") as handle:
                same = handle.read() == data
        except OSError:
            same = False
        if not same:
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                if os.path.islink(path) or os.path.isdir(path):
                    _delete(path)
                with open(path, "wb") as handle:
                    handle.write(data)
            except OSError as error:
                raise Fault(f"{relative} could not be restored ({error.strerror})") from None


def _owned(uid: int, folder: str) -> list[str]:
    """What uid owns in folder and in the world-writable folders below it that are not its own."""
    found: list[str] = []
    try:
        entries = os.listdir(folder)
    except OSError:
        return found
    for entry in entries:
        path = os.path.join(folder, entry)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if info.st_uid == uid:
            found.append(path)
        elif os.path.isdir(path) and not os.path.islink(path) and info.st_mode & 0o002:
            found += _owned(uid, path)
    return found


def _delete(path: str) -> None:
    """Delete a file or a whole folder, however deep: by descriptors, one folder open at a time, so neither a path
    longer than the kernel takes (PATH_MAX) nor a nesting deeper than Python's recursion stops it; every folder is
    made writable first (a mode that blocks deletion is no obstacle). Fault if something stays."""
    path = os.path.normpath(path)
    head, name = os.path.split(path)
    try:
        current = os.open(head or ".", FOLDER_FLAGS)
    except FileNotFoundError:
        return
    except OSError as error:
        raise Fault(f"{path} could not be deleted ({error.strerror})") from None
    entered: list[str] = []  # the folders entered below head, outermost first
    left: list[list[str]] = [[name]]  # for head and each folder entered: the entries still to delete in it
    try:
        while True:
            if left[-1]:
                entry = left[-1].pop()
                try:
                    info = os.stat(entry, dir_fd=current, follow_symlinks=False)
                    if not stat.S_ISDIR(info.st_mode):
                        os.unlink(entry, dir_fd=current)
                        continue
                    os.chmod(entry, 0o700, dir_fd=current)
                    inner = os.open(entry, FOLDER_FLAGS | os.O_NOFOLLOW, dir_fd=current)
                except FileNotFoundError:
                    continue
                os.close(current)
                current = inner
                entered.append(entry)
                left.append(os.listdir(current))
                continue
            if not entered:
                return
            outer = os.open("..", FOLDER_FLAGS, dir_fd=current)
            os.close(current)
            current = outer
            left.pop()
            os.rmdir(entered.pop(), dir_fd=current)
    except OSError as error:
        raise Fault(f"{path} could not be deleted ({error.strerror})") from None
    finally:
        os.close(current)


FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC


IPC_KINDS = (("shm", 7, "shmctl"), ("sem", 4, "semctl"), ("msg", 7, "msgctl"))
"""System V IPC: /proc/sysvipc's file, the column of the owner's uid (the creator's is two on), and the call that
removes an object."""


def _ipc_objects(uid: int) -> list[tuple[str, int, str]]:
    """The System V IPC objects uid owns or created (its owner may hand one to any uid with IPC_SET, never change
    its creator, and either may remove it): (kind, id, the call that removes it), from /proc/sysvipc."""
    found = []
    for kind, uid_column, call in IPC_KINDS:
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as handle:
                rows = [line.split() for line in handle.read().splitlines()[1:]]
        except OSError:
            continue
        for row in rows:
            try:
                if uid in (int(row[uid_column]), int(row[uid_column + 2])):
                    found.append((kind, int(row[1]), call))
            except (IndexError, ValueError):
                continue
    return found


def _remove_ipc(uid: int) -> None:
    """Remove every System V shared memory segment, semaphore set and message queue uid owns or created (at the levels
    where a run has no IPC namespace of its own); Fault if one stays."""
    libc = None
    for kind, ipc_id, call in _ipc_objects(uid):
        libc = libc or libc_handle()
        removed = libc.semctl(ipc_id, 0, 0, None) if call == "semctl" else getattr(libc, call)(ipc_id, 0, None)
        if removed != 0:  # IPC_RMID is 0
            raise Fault(f"a System V {kind} object could not be removed")


KILL_SECONDS = 30.0
"""How long a sweep waits for the processes it killed to die (each dies once the call it is in returns) before it
says one could not be killed, a Fault."""


def _swept(confined_to: str) -> tuple[str, ...]:
    """The folders a reset sweeps of a run's uid: its scratch (and TMPDIR) alone when Landlock confined the run to
    it, else also every folder every user may write."""
    return tuple(dict.fromkeys(((confined_to,) if confined_to else SHARED_FOLDERS) +
                               (os.environ.get("TMPDIR", "/tmp"),)))


def sweep_uid(uid: int, confined_to: str = "") -> None:
    """After a run that had a uid of its own (the uid level, where this zygote holds CAP_SETUID for its runs): as
    that uid, kill every process it has, then delete everything it owns in the scratch (TMPDIR) and wherever every
    user may write, and its IPC objects; then, as the zygote again, check that nothing of it is left (Fault
    naming the first thing). No process of that uid is alive while its files are deleted: nothing can race it."""
    folders = _swept(confined_to)

    def kill_and_delete() -> None:  # as the run's uid (effective only): the signals, deletions and IPC_RMID its own
        # kill(-1) reaches every process whose real or saved uid is the run's (or the zygote's: none but itself,
        # which it skips), and succeeds while any other process exists at all (no PID namespace here), so what
        # ends the loop is /proc showing none of the run's uid alive (a zombie is reaped: this zygote is the
        # subreaper). A killed process dies only once the call it is in returns, and one in fsync of a large file
        # (uninterruptible) can take a second or more: the sweep waits for it (KILL_SECONDS at most).
        deadline, pause = time.monotonic() + KILL_SECONDS, 0.001
        while True:
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                break
            reap()
            if not _alive(uid) or time.monotonic() > deadline:
                break
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        reap()
        for folder in folders:
            for path in _owned(uid, folder):
                _delete(path)
        _remove_ipc(uid)

    as_uid(uid, kill_and_delete)
    if _alive(uid):
        raise Fault(f"a process of the run's uid {uid} could not be killed")
    for folder in folders:
        left = _owned(uid, folder)
        if left:
            raise Fault(f"{left[0]} could not be deleted")
    if _ipc_objects(uid):
        raise Fault(f"a System V IPC object of the run's uid {uid} could not be removed")


def fresh_scratch(folder: str) -> None:
    """After a run with a uid of its own has been swept: replace the scratch the runs share (TMPDIR, this zygote's
    own, in a folder of its own that no run may write) with a new, empty one at the same path, and make it the
    working folder the next run inherits. Emptying it is not enough: a folder keeps what was done in it (its size,
    which an ext4 folder never gives back, its times), and an earlier run's 300 files would tell every later run
    so. What the sweep could not reach (a hard link to a file not the run's) is deleted with it."""
    if not folder or not os.path.isdir(folder):
        raise Fault("the runs' scratch folder is missing")
    _delete(folder)
    try:
        os.mkdir(folder, 0o770)
        os.chmod(folder, 0o770)  # whatever the umask: each run writes it through the group it shares with this zygote
        os.chdir(folder)
    except OSError as error:
        raise Fault(f"the runs' scratch folder could not be made anew ({error.strerror})") from None


def as_uid(uid: int | None, work: Any) -> None:
    """Call work() with uid as the effective uid (None: as this process is), then be this process's uid again."""
    if uid is None:
        work()
        return
    own = os.getuid()
    os.setresuid(own, uid, own)
    try:
        work()
    finally:
        os.setresuid(own, own, own)


def become(uid: int) -> bool:
    """In a run's child at the uid level, first: be uid for good, with no capability left (the zygote's CAP_SETUID
    is not the run's); False when that cannot be done."""
    try:
        os.setresuid(uid, uid, uid)
    except OSError:
        return False
    return drop_capabilities(libc_handle()) and os.getresuid() == (uid, uid, uid)


SUBREAPER = False
"""Whether this zygote is its runs' subreaper (main() sets it): then every process a run made is among its
descendants (one whose parent dies is handed to the zygote, never to init), so once the zygote has no child at
all, none is alive, and _alive need not read every process on the machine (about 2 ms for 74 of them, twice a
run at the uid level)."""


def _has_children() -> bool:
    """Whether this process has a child, running or a zombie (none is reaped here); the kernel answers at once."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def _alive(uid: int) -> bool:
    """Whether a process of uid is alive (a zombie is not: it runs nothing, and its parent reaps it; but one whose
    main thread alone has ended, with other threads running on, is): where this zygote is the runs'
    subreaper (SUBREAPER) and has no child, none; else the one /proc shows as uid's."""
    if SUBREAPER and not _has_children():
        return False
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True
    for entry in entries:
        if entry.isdigit():
            try:  # the status file, not the folder's owner: a process that is not dumpable shows root as that
                with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as handle:
                    fields = dict(line.split(":", 1) for line in handle.read().splitlines() if ":" in line)
                if str(uid) in fields["Uid"].split()[:4:2] and (fields["State"].split()[0] not in ("Z", "X")
                                                                 or int(fields.get("Threads", "1")) > 1):
                    return True
            except (OSError, KeyError, IndexError, ValueError):
                continue
    return False


def _others_of_this_uid() -> bool:
    """Whether a process other than this one runs as this process's uid (a /proc entry is owned by its euid)."""
    uid, me = os.getuid(), str(os.getpid())
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True
    for entry in entries:
        if entry.isdigit() and entry != me:
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    return True
            except OSError:
                continue
    return False


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return



CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x00020000, 0x08000000, 0x10000000, 0x20000000, \
    0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18
PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 4, 36


def libc_handle() -> Any:
    import ctypes  # noqa: PLC0415

    return ctypes.CDLL(None, use_errno=True)


SYS_CLONE = {"x86_64": 56, "aarch64": 220}
"""clone(2)'s system call number on the machines Part E forks its runs' children on with their namespaces."""

SIGCHLD = 17


NAMESPACES = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET
"""A run's namespaces: user, PID, mount, IPC and network."""


def fork_child() -> tuple[int, int, bool]:
    """fork() for a run's child: (its pid, the process to reap after it, whether it has namespaces of its own);
    (0, 0, isolated) in the child. Where the kernel and the level allow, the child is made with a user, PID, mount,
    IPC and network namespace of its own in the fork itself (clone(2) with those flags): PID 1 of a namespace
    nothing else lives in, with IPC objects, mounts and sockets (a loopback, which it gets down: no TCP port left in
    TIME_WAIT by an earlier run, no abstract socket) no other run sees; it then maps its uid to itself
    (map_own_ids). Elsewhere a plain fork (the zygote's reset then does the cleaning).

    Python's own fork bookkeeping runs around the system call as os.fork() runs it (PyOS_BeforeFork, then
    PyOS_AfterFork_Child or _Parent, with the GIL held throughout: the zygote runs one thread), so the child
    is what os.fork() would have made. One fork a run: unshare(2) gives a new PID namespace to the caller's next
    child only, so the namespaces used to be made by a helper forked for each run, which then forked the child
    (two forks and two exits a run). On a machine whose clone(2) number is not known here, that helper is still
    used (_through_helper)."""
    number = SYS_CLONE.get(os.uname().machine)
    if number is None:
        return _through_helper()
    import ctypes  # noqa: PLC0415

    syscall = ctypes.PyDLL(None, use_errno=True).syscall  # PyDLL: the GIL stays held, as in os.fork()
    syscall.restype = ctypes.c_long
    api = ctypes.pythonapi
    api.PyOS_BeforeFork()
    pid = syscall(ctypes.c_long(number), ctypes.c_long(SIGCHLD | NAMESPACES), ctypes.c_long(0), ctypes.c_long(0),
                  ctypes.c_long(0), ctypes.c_long(0))
    if pid == 0:
        api.PyOS_AfterFork_Child()
        return 0, 0, True
    api.PyOS_AfterFork_Parent()
    if pid > 0:
        return pid, pid, True
    pid = os.fork()
    return pid, pid, False


def _through_helper() -> tuple[int, int, bool]:
    """fork_child's way where clone(2)'s number is not known: a helper process unshares the namespaces, forks the
    child (PID 1 of the new PID namespace), tells the zygote its pid and waits for it; the zygote reaps the
    helper."""
    read_end, write_end = os.pipe()
    helper = os.fork()
    if helper == 0:
        child = False
        try:
            os.close(read_end)
            isolated = libc_handle().unshare(NAMESPACES) == 0
            pid = os.fork() if isolated else 0  # no namespaces: the helper itself is the child
            if pid == 0:
                child = True
                os.close(write_end)
                return 0, 0, isolated
            os.write(write_end, f"{pid}\n".encode())
            os.close(write_end)
            os.waitpid(pid, 0)
        finally:
            if not child:
                os._exit(0)  # the helper never returns into the zygote's code
    os.close(write_end)
    data = b""
    while not data.endswith(b"\n"):
        chunk = os.read(read_end, 32)
        if not chunk:
            break
        data += chunk
    os.close(read_end)
    return (int(data) if data.strip().isdigit() else helper), helper, data != b""


def map_own_ids(uid: int, gid: int) -> None:
    """In a child forked into a user namespace of its own (fork_child): the uid and gid it had before (the zygote's)
    mapped to themselves; Fault when they cannot be."""
    libc = libc_handle()
    libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # the zygote is not dumpable, which puts its uid_map out of reach
    try:
        for file, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{file}", "w") as handle:
                handle.write(text)
    except OSError as error:
        raise Fault(f"the run's namespaces could not be set up ({error.strerror})") from None
    finally:
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def fresh_mounts(scratch_bytes: int, namespaced: bool, inodes: int = 0) -> bool:
    """In the child's own mount namespace: an empty /tmp (when the sandbox's /tmp is its own: at the plain level
    the copy and this script live in the host's) and /dev/shm, and an empty read-only /proc (which would show the
    zygote and the other processes of the sandbox: their ids and CPU times count the runs). Then every
    capability is dropped, so the child cannot unmount them."""
    libc = libc_handle()
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return False
    count = f",nr_inodes={inodes}" if inodes > 0 else ""  # files and folders at once (scratch_files)
    size = f"size={max(scratch_bytes, 1 << 20)}{count},mode=1777".encode()
    scratch = ((b"/tmp", MS_NOSUID | MS_NODEV, size),) if namespaced else ()
    for folder, flags, options in (*scratch, (b"/dev/shm", MS_NOSUID | MS_NODEV, size),
                                   (b"/proc", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, b"size=4096,mode=0555")):
        if os.path.isdir(folder) and libc.mount(b"war-grader-run", folder, b"tmpfs", flags, options) != 0:
            return False
    return drop_capabilities(libc)


def drop_capabilities(libc: Any) -> bool:
    """No capability left, in this user namespace or any (capset with empty sets)."""
    import ctypes  # noqa: PLC0415

    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()
    return libc.capset(header, data) == 0
