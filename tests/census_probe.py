"""The channel census's probe: run as student code, it looks for the marks earlier runs left, then leaves its own.

    python census_probe.py CONFIG_JSON        # prints one JSON line: what it found, reached and marked

Standard library only: it is copied into census submissions (tests/channel_census.py) and run as a student's code
runs, from the hidden suites' worker (the package's code) or from a Part E test (the zygote's child), always in a
fresh interpreter started by that process, so an audit hook of the interpreter it runs in (Part E's, which
refuses ctypes once an implementation is loaded) stops nothing the kernel would let through.

CONFIG_JSON: {"token": the census's own mark (a census run never finds another's), "origin": who marks (a short
word), "origins": every origin whose marks to look for, "run_root": the pid of the process whose run this is (it
and its descendants are the run's own; any other process is another's), "baseline": {"nice", "affinity",
"msgqueue", "oom_score_adj", "io_priority"} as the grader's process has them, "daemon_seconds": how long the
process left behind lives}.

Output: {"found": {channel: [what]}, "reached": {channel: [what]}, "marked": {channel: [what]}}: "found" are the
marks of earlier runs (any origin in origins) this run could see; "reached" what this run could do to a process
not its own; "marked" what it managed to leave behind. Every channel is a key of each, in CHANNELS order.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import resource
import socket
import subprocess
import sys
import time
import zlib

CHANNELS = (
    "files", "posix_shared_memory", "posix_message_queue", "sysv_message_queue", "sysv_semaphore",
    "sysv_shared_memory", "keyring", "processes", "abstract_unix_socket", "unix_socket_file", "listening_socket",
    "time_wait", "file_lock", "environment", "rlimits", "priority", "affinity", "oom_score_adj", "io_priority",
    "cgroup", "signals", "ptrace",
    "process_vm_readv", "proc_environ", "proc_cwd", "proc_fd", "proc_mem", "folder_size",
)
"""Every channel, each a named check of the census (docs/sandbox.md lists what each means)."""

PREFIX = "war-census-"
SKIPPED = ("/proc", "/sys")
"""Never walked for files: the kernel's views (cgroups are their own channel)."""
OWN_CHANNEL_FOLDERS = ("/dev/shm", "/dev/mqueue")
"""Folders with a channel of their own (POSIX shared memory and message queues), left out of "files"."""
MARK_MSGQUEUE = 777216
"""The soft RLIMIT_MSGQUEUE a run gives the processes it can reach (the default is 819200)."""
FOLDER_MARK_BYTES = 65536
"""The size a run grows its own working folders to (300 entries of 200-character names, made and deleted): an ext4
folder never shrinks, so a later run that finds one of its working folders this large knows an earlier one worked
there (tmpfs gives the size back: nothing to find, nothing marked)."""
WALK_LIMIT = 200000
"""Most folders one walk visits (a file system far larger than an image's is cut, and said so)."""

IPC_CREAT, IPC_RMID = 0o1000, 0
KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING = -3, -4
KEYCTL_SETPERM, KEYCTL_SEARCH = 5, 10
PTRACE_SEIZE = 0x4206
SYSCALLS = {"x86_64": {"add_key": 248, "keyctl": 250, "ioprio_set": 251, "ioprio_get": 252},
            "aarch64": {"add_key": 217, "keyctl": 219, "ioprio_set": 30, "ioprio_get": 31}}
IOPRIO_WHO_PROCESS, IOPRIO_MARK = 1, (2 << 13) | 7
"""ioprio_set's "one process", and the I/O priority a run gives the processes it can reach (best effort, lowest)."""


def oom_score_adj(pid: int | str = "self") -> int:
    """A process's oom_score_adj (0 if unreadable)."""
    try:
        return int(_read(f"/proc/{pid}/oom_score_adj").strip() or 0)
    except ValueError:
        return 0


def io_priority(pid: int = 0) -> int:
    """A process's I/O priority as ioprio_get gives it (-1 where it cannot be read)."""
    value, _ = _syscall("ioprio_get", ctypes.c_long(IOPRIO_WHO_PROCESS), ctypes.c_long(pid))
    return value


def name(token: str, origin: str) -> str:
    """The name of one origin's marks."""
    return f"{PREFIX}{token}-{origin}"


def number(token: str, origin: str, what: str, low: int, span: int) -> int:
    """A number (a System V key, a port) fixed by the token, the origin and what it is for."""
    return low + zlib.crc32(f"{token}/{origin}/{what}".encode()) % span


def port(token: str, origin: str, what: str) -> int:
    """A TCP or UDP port below the ephemeral range, fixed by the token and origin."""
    return number(token, origin, what, 20000, 10000)


# -- helpers ------------------------------------------------------------------------------------------------------

class _Refused:
    """libc where Python itself refuses ctypes (Part E's audit hook, when the probe runs in the test's own process
    because no program may be executed): every call fails, as a refused system call would."""

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            return -1
        return call


def _libc():
    try:
        return ctypes.CDLL(None, use_errno=True)
    except RuntimeError:
        return _Refused()


def _errno() -> int:
    try:
        return ctypes.get_errno()
    except RuntimeError:
        return errno.EPERM


def _syscall(name_: str, *args) -> tuple[int, int]:
    numbers = SYSCALLS.get(os.uname().machine)
    if numbers is None:
        return -1, errno.ENOSYS
    libc = _libc()
    if isinstance(libc, _Refused):
        return -1, errno.EPERM
    libc.syscall.restype = ctypes.c_long
    result = libc.syscall(ctypes.c_long(numbers[name_]), *args)
    return result, _errno()


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except (OSError, RuntimeError):
        return ""


def _parent(pid: int) -> int:
    text = _read(f"/proc/{pid}/stat")
    try:
        return int(text.rpartition(")")[2].split()[1])
    except (IndexError, ValueError):
        return 0


def _visible_pids() -> set[int]:
    """Every process this one can tell exists: /proc's entries, and any pid up to 4096 that kill(pid, 0) does not
    answer with ESRCH (a /proc that shows nothing still lets signals through)."""
    pids = set()
    try:
        pids.update(int(entry) for entry in os.listdir("/proc") if entry.isdigit())
    except (OSError, RuntimeError):
        pass
    for pid in range(1, 4097):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        except PermissionError:
            pass
        pids.add(pid)
    return pids


def _own(run_root: int, pids: set[int]) -> set[int]:
    """The run's own processes: run_root, this process, and every descendant of either that /proc shows."""
    own = {run_root, os.getpid()}
    changed = True
    parents = {pid: _parent(pid) for pid in pids}
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in own and pid not in own:
                own.add(pid)
                changed = True
    return own


def _describe(pid: int) -> str:
    command = _read(f"/proc/{pid}/cmdline").replace("\0", " ").strip()[:80]
    try:
        owner = os.stat(f"/proc/{pid}").st_uid
    except (OSError, RuntimeError):
        owner = -1
    return f"pid {pid} (uid {owner}{', ' + command if command else ''})"


def _census_process(pid: int, token: str) -> bool:
    return PREFIX + token in _read(f"/proc/{pid}/cmdline")


# -- files, cgroups -----------------------------------------------------------------------------------------------

def _mounts() -> tuple[set[str], set[str]]:
    """(read-only mount points, writable mount points) this process sees."""
    read_only, writable = set(), set()
    for line in _read("/proc/self/mountinfo").splitlines():
        fields = line.split()
        if len(fields) < 6:
            continue
        point = fields[4].encode().decode("unicode_escape")  # \040 and the like, octal escapes
        (read_only if "ro" in fields[5].split(",") else writable).add(point)
    return read_only, writable


def walk(token: str, roots: tuple[str, ...] = ("/",), skipped: tuple[str, ...] = SKIPPED + OWN_CHANNEL_FOLDERS
         ) -> tuple[list[str], list[str], bool]:
    """(the folders this uid can write, the census marks seen, whether the walk was cut) over roots.

    Nothing can be written on a read-only mount, so none is walked (a sandbox's /usr: thousands of folders), but
    every writable mount below one is (a sandbox's /tmp under its read-only /)."""
    writable, seen, visited = [], [], 0
    read_only, writable_mounts = _mounts()
    pruned = read_only - writable_mounts
    stack = [root for root in roots if root not in pruned]
    stack += [point for point in writable_mounts
              if any(point.startswith(root.rstrip("/") + "/") for root in roots)
              and any(point.startswith(top.rstrip("/") + "/") for top in pruned)
              and not any(point == part or point.startswith(part + "/") for part in skipped)]
    skipped = (*skipped, *pruned)
    walked: set[str] = set()
    while stack:
        folder = stack.pop()
        if folder in walked:  # a writable mount below another is a root of its own too
            continue
        walked.add(folder)
        visited += 1
        if visited > WALK_LIMIT:
            return writable, seen, True
        if os.access(folder, os.W_OK | os.X_OK):
            writable.append(folder)
        try:
            entries = list(os.scandir(folder))
        except (OSError, RuntimeError):
            continue
        for entry in entries:
            if entry.name.startswith(PREFIX + token):
                seen.append(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False) and entry.path not in skipped:
                    stack.append(entry.path)
            except (OSError, RuntimeError):
                continue
    return writable, seen, False


# -- the look -----------------------------------------------------------------------------------------------------

def look(config: dict, walked: tuple[list[str], list[str], bool]) -> dict[str, list[str]]:
    """Every mark of an origin in config["origins"] this process can find, by channel."""
    token, origins = config["token"], config["origins"]
    found: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    writable, seen, cut = walked
    found["files"] += [path for path in seen if not path.endswith(".sock")]
    if cut:
        found["files"].append(f"(the walk stopped after {WALK_LIMIT} folders)")
    for folder in OWN_CHANNEL_FOLDERS:
        try:
            entries = os.listdir(folder)
        except (OSError, RuntimeError):
            continue
        channel = "posix_shared_memory" if folder == "/dev/shm" else "posix_message_queue"
        found[channel] += [f"{folder}/{entry}" for entry in entries if entry.startswith(PREFIX + token)]
    try:
        libc = _libc()
        for origin in origins:
            queue = libc.mq_open(f"/{name(token, origin)}".encode(), os.O_RDONLY)
            if queue >= 0:
                libc.mq_close(queue)
                found["posix_message_queue"].append(f"mq_open /{name(token, origin)}")
    except (AttributeError, OSError):
        pass
    for kind, channel in (("msg", "sysv_message_queue"), ("sem", "sysv_semaphore"), ("shm", "sysv_shared_memory")):
        keys = {number(token, origin, kind, 0x10000, 0x7FFF0000): origin for origin in origins}
        for line in _read(f"/proc/sysvipc/{kind}").splitlines()[1:]:
            fields = line.split()
            if fields and int(fields[0]) in keys:
                found[channel].append(f"/proc/sysvipc/{kind} key {int(fields[0]):#x} ({keys[int(fields[0])]})")
        try:
            libc = _libc()
            for key, origin in keys.items():
                got = {"msg": lambda: libc.msgget(key, 0), "sem": lambda: libc.semget(key, 0, 0),
                       "shm": lambda: libc.shmget(key, 0, 0)}[kind]()
                if got >= 0 and not any(f"key {key:#x}" in item for item in found[channel]):
                    found[channel].append(f"{kind}get key {key:#x} ({origin})")
        except (AttributeError, OSError):
            pass
    for line in _read("/proc/keys").splitlines():
        if PREFIX + token in line:
            found["keyring"].append("/proc/keys: " + line.split(None, 8)[-1][:80])
    for origin in origins:
        description = name(token, origin).encode()
        for keyring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING):
            key, _ = _syscall("keyctl", ctypes.c_long(KEYCTL_SEARCH), ctypes.c_long(keyring), b"user", description,
                              ctypes.c_long(0))
            if key >= 0 and not found["keyring"]:
                found["keyring"].append(f"keyctl search {description.decode()}")
    pids = _visible_pids()
    for pid in sorted(pids):
        if pid != os.getpid() and _census_process(pid, token):
            found["processes"].append(_describe(pid))
    unix = _read("/proc/net/unix")
    for origin in origins:
        abstract = name(token, origin)
        if "@" + abstract in unix or _connects(socket.AF_UNIX, "\0" + abstract):
            found["abstract_unix_socket"].append("@" + abstract)
    for path in seen:
        if path.endswith(".sock") and _connects(socket.AF_UNIX, path):
            found["unix_socket_file"].append(path)
    ports = {}
    for origin in origins:
        ports[port(token, origin, "tcp")] = ("listening_socket", origin)
        ports[port(token, origin, "udp")] = ("listening_socket", origin)
        ports[port(token, origin, "wait-server")] = ("time_wait", origin)
        ports[port(token, origin, "wait-client")] = ("time_wait", origin)
    for table in ("tcp", "tcp6", "udp", "udp6"):
        for line in _read(f"/proc/net/{table}").splitlines()[1:]:
            fields = line.split()
            if len(fields) < 4:
                continue
            for address in (fields[1], fields[2]):
                port_number = int(address.rpartition(":")[2], 16)
                if port_number in ports:
                    channel, origin = ports[port_number]
                    if channel == "listening_socket" or fields[3] == "06":
                        found[channel].append(f"/proc/net/{table} port {port_number} state {fields[3]} ({origin})")
    for origin in origins:
        if _connects(socket.AF_INET, ("127.0.0.1", port(token, origin, "tcp"))):
            found["listening_socket"].append(f"127.0.0.1:{port(token, origin, 'tcp')} accepted ({origin})")
    found["file_lock"] += _locked(config)
    found["environment"] += [f"{key}={value[:40]}" for key, value in os.environ.items()
                             if PREFIX in key.lower().replace("_", "-") or PREFIX + token in value]
    # What every run inherits from the grader, as the grader has it (baseline): another value was set by a run.
    soft = resource.getrlimit(resource.RLIMIT_MSGQUEUE)[0]
    if soft != config["baseline"]["msgqueue"]:
        found["rlimits"].append(f"RLIMIT_MSGQUEUE {soft}, not the grader's {config['baseline']['msgqueue']}")
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    if nice != config["baseline"]["nice"]:
        found["priority"].append(f"nice {nice}, not the grader's {config['baseline']['nice']}")
    affinity = sorted(os.sched_getaffinity(0))
    if affinity != config["baseline"]["affinity"]:
        found["affinity"].append(f"CPUs {affinity}, not the grader's {config['baseline']['affinity']}")
    if _read("/proc/self/oom_score_adj") and oom_score_adj() != config["baseline"]["oom_score_adj"]:
        found["oom_score_adj"].append(f"oom_score_adj {oom_score_adj()}, not the grader's "
                                      f"{config['baseline']['oom_score_adj']}")
    if io_priority() not in (-1, config["baseline"]["io_priority"]):  # -1: this run may not even read its own
        found["io_priority"].append(f"I/O priority {io_priority()}, not the grader's "
                                    f"{config['baseline']['io_priority']}")
    cgroup_walk = walk(token, ("/sys/fs/cgroup",), ())
    found["cgroup"] += cgroup_walk[1]
    for folder in _working_folders():
        try:
            size = os.stat(folder).st_size
        except (OSError, RuntimeError):
            continue
        if size >= FOLDER_MARK_BYTES:
            found["folder_size"].append(f"{folder} is {size} bytes")
    return found


def _working_folders() -> list[str]:
    """This run's own folders (its working folder, HOME, TMPDIR) it may write, but not one every user may (a shared
    /tmp is "files"' to walk, and a tmpfs at that under bubblewrap and unshare): where it marks "folder_size"."""
    folders = []
    for folder in (os.getcwd(), os.environ.get("HOME", ""), os.environ.get("TMPDIR", "")):
        try:
            shared = bool(os.stat(folder).st_mode & 0o002) if folder else True
        except (OSError, RuntimeError):
            continue
        if not shared and folder not in folders and os.access(folder, os.W_OK | os.X_OK):
            folders.append(folder)
    return folders


def _grow(folder: str, mine: str) -> bool:
    """Grow folder to FOLDER_MARK_BYTES by making 300 long-named files in it and deleting them; whether it kept
    that size (ext4, not tmpfs)."""
    made = []
    try:
        for index in range(300):
            path = os.path.join(folder, f"{mine}-{index:03d}-" + "s" * 160)
            open(path, "w").close()
            made.append(path)
    except (OSError, RuntimeError):
        pass
    for path in made:
        try:
            os.unlink(path)
        except (OSError, RuntimeError):
            pass
    try:
        return os.stat(folder).st_size >= FOLDER_MARK_BYTES
    except (OSError, RuntimeError):
        return False


def _connects(family: int, address) -> bool:
    try:
        kind = socket.SOCK_STREAM
        with socket.socket(family, kind) as probe:
            probe.settimeout(1)
            probe.connect(address)
        return True
    except (OSError, RuntimeError):
        return False


def _lock_files(config: dict) -> list[str]:
    """World-readable files every run can open, on which a lock held by one run is seen by the next."""
    candidates = [sys.executable, os.path.realpath(sys.executable), "/etc/ld.so.cache", "/dev/null",
                  os.path.abspath(__file__)]
    return [path for path in dict.fromkeys(candidates) if os.path.isfile(path) or path == "/dev/null"]


def _locked(config: dict) -> list[str]:
    import fcntl  # noqa: PLC0415

    found = []
    for path in _lock_files(config):
        try:
            handle = os.open(path, os.O_RDONLY)
        except (OSError, RuntimeError):
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(handle, fcntl.LOCK_UN)
        except OSError as error:
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                found.append(f"flock held on {path}")
        finally:
            os.close(handle)
    return found


# -- the mark -----------------------------------------------------------------------------------------------------

def mark(config: dict, walked: tuple[list[str], list[str], bool]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(what this run managed to leave, what it could do to another process), by channel."""
    token, origin = config["token"], config["origin"]
    mine = name(token, origin)
    marked: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    reached: dict[str, list[str]] = {channel: [] for channel in CHANNELS}
    writable, _, _ = walked
    # First what this run can do to processes not its own, before it starts any process of its own (under an
    # empty /proc, nothing would tell the process it leaves behind from another's).
    _reach(config, reached)
    for channel in ("rlimits", "priority", "affinity", "oom_score_adj", "io_priority"):
        marked[channel] += reached[channel]
    for folder in writable:
        path = os.path.join(folder, mine)
        try:
            with open(path, "w") as handle:
                handle.write(mine)
            os.chmod(path, 0o666)
            marked["files"].append(path)
        except (OSError, RuntimeError):
            continue
    socket_folder = next((folder for folder in writable if folder not in (os.getcwd(), os.environ.get("HOME"))),
                         writable[0] if writable else None)
    for folder, channel in (("/dev/shm", "posix_shared_memory"),):
        try:
            handle = os.open(f"{folder}/{mine}", os.O_CREAT | os.O_RDWR, 0o666)
            os.close(handle)
            marked[channel].append(f"{folder}/{mine}")
        except (OSError, RuntimeError):
            pass
    try:
        libc = _libc()
        queue = libc.mq_open(f"/{mine}".encode(), os.O_CREAT | os.O_RDWR, ctypes.c_uint(0o666), None)
        if queue >= 0:
            marked["posix_message_queue"].append(f"/{mine}")
    except (AttributeError, OSError):
        pass
    try:
        libc = _libc()
        for kind, channel, make in (
                ("msg", "sysv_message_queue", lambda key: libc.msgget(key, IPC_CREAT | 0o666)),
                ("sem", "sysv_semaphore", lambda key: libc.semget(key, 1, IPC_CREAT | 0o666)),
                ("shm", "sysv_shared_memory", lambda key: libc.shmget(key, 4096, IPC_CREAT | 0o666))):
            key = number(token, origin, kind, 0x10000, 0x7FFF0000)
            if make(key) >= 0:
                marked[channel].append(f"key {key:#x}")
    except (OSError, RuntimeError):
        pass
    for keyring in (KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING):
        key, _ = _syscall("add_key", b"user", mine.encode(), b"census", ctypes.c_long(6), ctypes.c_long(keyring))
        if key >= 0:
            _syscall("keyctl", ctypes.c_long(KEYCTL_SETPERM), ctypes.c_long(key), ctypes.c_long(0x3F3F3F3F))
            marked["keyring"].append(f"key {key} in keyring {keyring}")
    # A process left behind holds the channels that live only as long as a process does.
    socket_path = os.path.join(socket_folder, mine + ".sock") if socket_folder else ""
    daemon = {**config, "socket_path": socket_path, "lock_files": _lock_files(config)}
    try:
        process = subprocess.Popen([sys.executable, "-I", "-S", os.path.abspath(__file__), "--daemon", mine,
                                    json.dumps(daemon)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
        line = process.stdout.readline() if process.stdout else b""
        held = json.loads(line) if line.strip() else {}
        marked["processes"].append(f"pid {process.pid}")
        for channel, items in held.items():
            if channel in marked:
                marked[channel] += items
    except (OSError, ValueError, RuntimeError):
        pass
    marked["time_wait"] += _time_wait(token, origin)
    marked["folder_size"] += [folder for folder in _working_folders() if _grow(folder, mine)]
    os.environ[PREFIX.replace("-", "_").upper() + "MARK"] = mine
    os.putenv(PREFIX.replace("-", "_").upper() + "MARK", mine)
    marked["environment"].append("in this run's own environment")
    try:
        cgroup_walk = walk(token, ("/sys/fs/cgroup",), ())
        for folder in cgroup_walk[0]:
            try:
                os.mkdir(os.path.join(folder, mine))
                marked["cgroup"].append(os.path.join(folder, mine))
            except (OSError, RuntimeError):
                continue
    except (OSError, RuntimeError):
        pass
    return marked, reached


def _time_wait(token: str, origin: str) -> list[str]:
    """A connection to itself closed by the client first: the client's end waits in TIME_WAIT for a minute."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", port(token, origin, "wait-server")))
            server.listen(1)
            client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            client.bind(("127.0.0.1", port(token, origin, "wait-client")))
            client.connect(server.getsockname())
            accepted, _ = server.accept()
            client.close()
            time.sleep(0.05)
            accepted.close()
        return [f"127.0.0.1:{port(token, origin, 'wait-client')}"]
    except (OSError, RuntimeError):
        return []


def _reach(config: dict, reached: dict[str, list[str]]) -> None:
    """What this run can do to every process that is not its own (census processes are "processes"' finding)."""
    token = config["token"]
    pids = _visible_pids()
    own = _own(int(config["run_root"]), pids)
    others = [pid for pid in sorted(pids) if pid not in own and not _census_process(pid, token)]
    try:
        libc = _libc()
    except (OSError, RuntimeError):
        libc = None
    cpus = sorted(os.sched_getaffinity(0))
    nice = min(int(config["baseline"]["nice"]) + 3, 19)  # an unprivileged process may only raise a nice value
    for pid in others:
        who = _describe(pid)
        try:
            os.kill(pid, 0)
            reached["signals"].append(who)
        except (OSError, RuntimeError):
            pass
        for channel, attempt in (("proc_environ", lambda: open(f"/proc/{pid}/environ", "rb").read(1)),
                                 ("proc_cwd", lambda: os.readlink(f"/proc/{pid}/cwd")),
                                 ("proc_fd", lambda: os.listdir(f"/proc/{pid}/fd")),
                                 ("proc_mem", lambda: open(f"/proc/{pid}/mem", "rb").close())):
            try:
                attempt()
                reached[channel].append(who)
            except (OSError, RuntimeError):
                pass
        try:
            soft, hard = resource.prlimit(pid, resource.RLIMIT_MSGQUEUE)
            resource.prlimit(pid, resource.RLIMIT_MSGQUEUE, (min(MARK_MSGQUEUE, hard), hard))
            reached["rlimits"].append(who)
        except (OSError, ValueError, RuntimeError):
            pass
        try:
            if os.getpriority(os.PRIO_PROCESS, pid) < nice:
                os.setpriority(os.PRIO_PROCESS, pid, nice)
                reached["priority"].append(who)
        except (OSError, RuntimeError):
            pass
        if len(cpus) > 1:
            try:
                os.sched_setaffinity(pid, cpus[-1:])
                reached["affinity"].append(who)
            except (OSError, RuntimeError):
                pass
        try:
            with open(f"/proc/{pid}/oom_score_adj", "w") as handle:  # raising it needs no privilege
                handle.write(str(min(oom_score_adj(pid) + 100, 1000)))
            reached["oom_score_adj"].append(who)
        except (OSError, RuntimeError):
            pass
        if _syscall("ioprio_set", ctypes.c_long(IOPRIO_WHO_PROCESS), ctypes.c_long(pid),
                    ctypes.c_long(IOPRIO_MARK))[0] == 0:
            reached["io_priority"].append(who)
        if libc is not None:
            libc.ptrace.restype = ctypes.c_long
            if libc.ptrace(ctypes.c_long(PTRACE_SEIZE), ctypes.c_long(pid), None, None) == 0:
                reached["ptrace"].append(who)  # detached when this process ends
            local, remote = (ctypes.c_char * 8)(), (ctypes.c_void_p * 2)()
            iov_local = (ctypes.c_void_p * 2)(ctypes.cast(local, ctypes.c_void_p), 8)
            remote[0], remote[1] = 4096, 8  # an address never mapped: EFAULT if the call is allowed at all
            libc.process_vm_readv.restype = ctypes.c_ssize_t
            result = libc.process_vm_readv(pid, iov_local, 1, remote, 1, 0)
            if result >= 0 or _errno() == errno.EFAULT:
                reached["process_vm_readv"].append(who)
    try:  # every process of this uid at once, the run's own included (none of them is the census's)
        if os.getpriority(os.PRIO_USER, os.getuid()) < nice and any(
                os.stat(f"/proc/{pid}").st_uid == os.getuid() for pid in others if os.path.exists(f"/proc/{pid}")):
            os.setpriority(os.PRIO_USER, os.getuid(), nice)
            reached["priority"].append(f"every process of uid {os.getuid()}")
    except (OSError, RuntimeError):
        pass


# -- the process left behind --------------------------------------------------------------------------------------

def daemon(config: dict) -> None:
    """Hold an abstract socket, a socket file, a listening TCP port, a bound UDP port and flocks, say which, and
    live config["daemon_seconds"] (or until killed)."""
    import fcntl  # noqa: PLC0415

    token, origin = config["token"], config["origin"]
    mine = name(token, origin)
    held: dict[str, list[str]] = {}
    kept = []
    attempts = [("abstract_unix_socket", socket.AF_UNIX, socket.SOCK_STREAM, "\0" + mine),
                ("listening_socket", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", port(token, origin, "tcp"))),
                ("listening_socket", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", port(token, origin, "udp")))]
    if config.get("socket_path"):
        attempts.append(("unix_socket_file", socket.AF_UNIX, socket.SOCK_STREAM, config["socket_path"]))
    for channel, family, kind, address in attempts:
        try:
            held_socket = socket.socket(family, kind)
            if family == socket.AF_INET:
                held_socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            held_socket.bind(address)
            if kind == socket.SOCK_STREAM:
                held_socket.listen(8)
            if isinstance(address, str) and not address.startswith("\0"):
                os.chmod(address, 0o777)
            kept.append(held_socket)
            held.setdefault(channel, []).append(repr(address).replace("\\x00", "@"))
        except (OSError, RuntimeError):
            continue
    for path in config.get("lock_files", []):
        try:
            handle = os.open(path, os.O_RDONLY)
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            kept.append(handle)
            held.setdefault("file_lock", []).append(path)
        except (OSError, RuntimeError):
            continue
    sys.stdout.write(json.dumps(held) + "\n")
    sys.stdout.flush()
    os.close(1)
    deadline = time.monotonic() + float(config.get("daemon_seconds", 60))
    while time.monotonic() < deadline:
        time.sleep(0.5)


def census(config: dict) -> dict:
    """Look, then mark: what earlier runs left is found before this run leaves anything."""
    walked = walk(config["token"])
    found = look(config, walked)
    marked, reached = mark(config, walked) if config.get("mark", True) else ({}, {})
    return {"found": found, "reached": reached or {channel: [] for channel in CHANNELS},
            "marked": marked or {channel: [] for channel in CHANNELS}}


def main(argv: list[str]) -> None:
    """python census_probe.py CONFIG_JSON, or --daemon NAME CONFIG_JSON for the process it leaves behind."""
    if argv[:1] == ["--daemon"]:
        daemon(json.loads(argv[2]))
        return
    sys.stdout.write(json.dumps(census(json.loads(argv[0]))) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
