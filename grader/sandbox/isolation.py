"""How a worker process is walled off: the isolation level, the limits, and the command that starts it."""

from __future__ import annotations

import compileall
import functools
import os
import resource
import shutil
import stat
import subprocess
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable

from . import landlock, seccomp_bpf, syscall_allowlist
from .worker import NEIGHBOURS
from . import uid_level
# The machine's side of a sandbox (uids, clean-up, the interpreter), imported here for the levels' callers too.
from .host import (NAMESPACED, SandboxError, UID_BASE, UID_BLOCK, UID_BLOCKS, MAX_JOBS, FRESH_BASE, FRESH_BLOCK,
                   WRITABLE, UID_LOCKS, owned_by, IPC_KINDS, ipc_of, remove_ipc_of, remove_files_of, remove_path,
                   kill_uid, processes_of, fresh_uids, fresh_uid, uid_block, choose_python, run_uids_of_a_sandbox)

LEVELS = ("bwrap", "unshare", "uid", "plain")
"""Strongest first: bubblewrap, namespaces with unshare, a uid of its own (grader/sandbox/uid_level.py), or
resource limits alone."""

WARNINGS = {
    "bwrap": "",
    "unshare": "",
    "uid": "no namespaces in this container: student code ran as a uid of its own, with the grader's files "
           "unreadable to it",
    "plain": "only resource limits applied (sandbox.allow_plain): the submission could read the hidden "
             "suites and the reference, and reach the network; install bubblewrap for full isolation",
}
"""What each level says in the results when it is weaker than bubblewrap (level_warning adds what Landlock did)."""

LANDLOCK_NOTES = {
    "uid": ((6, "; Landlock kept it to its own files, with no TCP, and its signals and abstract sockets to its own "
                "processes, but it shared the container's System V IPC and its counter of process ids (a run that forks "
                "can see how many processes were started since an earlier run)"),
            (4, "; Landlock kept it to its own files, with no TCP, but this kernel's Landlock (ABI {abi}) cannot keep "
                "its signals and abstract Unix sockets to its own processes"),
            (1, "; Landlock kept it to its own files, but this kernel's Landlock (ABI {abi}) cannot keep its signals "
                "and abstract Unix sockets to its own processes"),
            (0, "; this kernel has no Landlock, so it could see the container's processes, read whatever its uid "
                "may, and write in the container's world-writable folders (/tmp, /var/tmp, /dev/shm, /run/lock)")),
    "plain": ((6, "only resource limits and Landlock applied (sandbox.allow_plain): Landlock kept the submission "
                  "from the hidden suites and the reference, from TCP and from other processes, but it could send "
                  "UDP and use System V IPC; install bubblewrap for full isolation"),
              (4, "only resource limits and Landlock applied (sandbox.allow_plain): Landlock kept the submission "
                  "from the hidden suites and the reference and from TCP, but it could send UDP and signal its "
                  "uid's other processes; install bubblewrap for full isolation"),
              (1, "only resource limits and Landlock applied (sandbox.allow_plain): Landlock kept the submission "
                  "from the hidden suites and the reference, but this kernel's Landlock (ABI {abi}) cannot keep it "
                  "from the network; install bubblewrap for full isolation")),
}
"""What Landlock (grader/sandbox/landlock.py) changes in a level's warning, from the kernel's ABI up: the uid level's
note is added to its warning, plain's replaces it. bwrap and unshare promise as much without it."""


def level_warning(level: str, abi: int) -> str:
    """What the results say about level on a kernel whose Landlock ABI is abi (0: none)."""
    note = next((text for since, text in LANDLOCK_NOTES.get(level, ()) if abi >= since), None)
    if note is None:
        return WARNINGS[level]
    note = note.format(abi=abi)
    return WARNINGS[level] + note if note.startswith(";") else note


@functools.lru_cache(maxsize=1)
def landlock_abi() -> int:
    """The Landlock ABI the workers get on this machine (asked once per process; 0 where there is none)."""
    return landlock.abi()


PLAIN_REFUSED = ("at the plain sandbox level student code could read the hidden suites and the reference; "
                 "install bubblewrap (or let unshare work, or run as root for the uid level), or set allow_plain = true under [sandbox] in a "
                 "--config file to grade anyway")
"""Why plain is refused unless the instructor opts in."""

INSIDE_ROOT = "/submission"
"""Where the submission's private copy appears (read-only) inside a namespaced sandbox."""

INSIDE_RUNTIME = "/grader-runtime"
"""Where the runtime (the worker module and its .pyc, or Part E's script) appears inside a namespaced sandbox."""

INSIDE_SCRATCH = "/tmp"
"""The one place a namespaced worker may write: a size-limited tmpfs, also its working folder and HOME."""

UNSHARE_SETUP = r"""
set -eu
PATH=/usr/sbin:/sbin:/usr/bin:/bin
new=$1 copy=$2 runtime=$3 home=$4 scratch=$5 inodes=$6
shift 6
bind_ro() { mkdir -p "$2"; mount --bind "$1" "$2"; mount -o remount,bind,ro "$2"; }
mount -t tmpfs -o size=4m,mode=0755 war-grader-root "$new"
for name in usr bin lib lib32 lib64 sbin; do
    if [ -L "/$name" ]; then ln -s "$(readlink "/$name")" "$new/$name"
    elif [ -d "/$name" ]; then bind_ro "/$name" "$new/$name"; fi
done
mkdir -p "$new/etc" "$new/proc" "$new/dev" "$new/tmp"
for file in /etc/ld.so.cache /etc/localtime; do
    if [ -f "$file" ]; then touch "$new$file"; mount --bind "$file" "$new$file"; fi
done
mount -t proc -o nosuid,nodev,noexec proc "$new/proc"
for device in null zero full random urandom; do
    touch "$new/dev/$device"; mount --bind "/dev/$device" "$new/dev/$device"
done
ln -s /proc/self/fd "$new/dev/fd"
mount -t tmpfs -o "size=$scratch,nr_inodes=$inodes,mode=1777,nosuid,nodev" war-grader-scratch "$new/tmp"
bind_ro "$copy" "$new/submission"
bind_ro "$runtime" "$new/grader-runtime"
if [ -n "$home" ]; then bind_ro "$home" "$new$home"; fi
cd "$new"
mkdir .old
pivot_root . .old
umount -l /.old
rmdir /.old
mount -o remount,ro /
cd /tmp
PATH=/usr/bin:/bin "$@"
"""
"""Run inside `unshare --mount --pid --fork ...`: build, on the empty folder $1, a root holding read-only /usr
(and /bin, /lib...), /proc, a few devices, the read-only copy, the runtime and a size-limited /tmp; switch
to it with pivot_root so nothing else of the host is reachable; then run the worker as its child (not as PID 1
of the namespace, which ignores even its own SIGKILL), exiting with 128 + N if it is killed by signal N."""


@dataclass(frozen=True)
class Limits:
    """Resource limits applied to every worker process."""

    cpu_seconds: int = 300
    """CPU seconds for one worker's whole life (a backstop; deadlines are enforced from outside)."""
    memory_bytes: int = 1024**3
    """Address space per process."""
    file_bytes: int = 16 * 1024**2
    """Largest file the worker may write."""
    open_files: int = 64
    """Open file descriptors."""
    processes: int = 64
    """Processes for the worker's uid (applies when the worker runs unprivileged)."""
    scratch_bytes: int = 64 * 1024**2
    """Bytes student code may write in all: the size of its tmpfs under bwrap and unshare (at uid and plain,
    only file_bytes per file holds, and what the worker's uid left behind is deleted when it stops)."""
    network_filter: str = ""
    """A seccomp program (hex) installed before the worker starts: the uid level's way to refuse the network."""
    id_filter: str = ""
    """A seccomp program (hex) installed before Part E's zygote starts at the uid level, where it holds CAP_SETUID
    to give each run a uid of its own: which uids it may take (its sandbox's run of them), and no user namespace,
    socket or other identity (syscall_allowlist.run_uids_program)."""
    scratch_files: int = 10_000
    """Files and folders student code may have in its scratch at once: the inodes of its tmpfs under unshare and
    in Part E's runs (nr_inodes); counted from outside during each call under bwrap, and in its folder after
    each call at uid and plain (scratch_usage)."""
    coverage_lines: int = 100_000
    """Line numbers the worker may report as run: in one reply, and in all (distinct) for one submission."""
    reply_bytes: int = 32 * 1024**2
    """Largest line a sandbox may write to the trusted side (a worker's reply, a line of Part E's sandbox)."""
    json_depth: int = 32
    """Deepest nesting of lists and objects in such a line (grader/sandbox/bounded_json.py)."""

    @classmethod
    def from_json(cls, data: object) -> Limits:
        """Read back asdict's output; ValueError for anything else (a negative limit included)."""
        values = _typed_fields(cls, data, "resource limits")
        if any(type(value) is int and value < 0 for value in values.values()):
            raise ValueError("a resource limit cannot be negative")
        return cls(**values)


def _typed_fields(kind: type, data: object, what: str, *,
                  nested: dict[str, Callable[[object], object]] | None = None) -> dict[str, Any]:
    """The fields of a dataclass read from JSON, each of its declared type (str, int, bool, int | None), nested
    records read by their own reader; ValueError naming the first field that is missing, unknown or mistyped."""
    names = {item.name: str(item.type) for item in fields(kind)}
    if type(data) is not dict or set(data) != set(names):
        raise ValueError(f"the {what} should be an object with exactly {', '.join(sorted(names))}")
    values: dict[str, Any] = {}
    for name, declared in names.items():
        value = data[name]
        if nested and name in nested:
            values[name] = nested[name](value)
            continue
        allowed = {"str": (str,), "int": (int,), "bool": (bool,), "int | None": (int, type(None))}[declared]
        if type(value) not in allowed:
            raise ValueError(f"the {what}'s {name} should be {declared}, not {type(value).__name__}")
        values[name] = value
    return values


@dataclass(frozen=True)
class SandboxSpec:
    """Everything needed to start one submission's worker; plain data, handed over as JSON."""

    level: str
    """One of LEVELS."""
    root: str
    """The submission's private copy on the host (a folder holding the package or module)."""
    package: str
    """The module name to import from root."""
    runtime: str
    """A folder holding worker.py and its neighbours (the runtime), shared by a batch's workers."""
    python: str
    """The interpreter that runs the worker (a path valid inside the sandbox)."""
    python_home: str
    """A folder to bind read-only at the same path so the interpreter finds its library ("" if under /usr)."""
    uid: int | None
    """The uid to switch to before student code runs (when the grader is root), else None."""
    limits: Limits
    """Resource limits."""
    coverage: bool = True
    """Measure which lines of the submission run."""
    scratch: str = ""
    """The worker's writable folder on the host (plain level only; namespaced levels use a tmpfs)."""
    mount_point: str = ""
    """An empty folder on the host the unshare level builds the worker's root on."""
    run_uids: int = 0
    """At the uid level, Part E's: how many uids from uid on the sandbox holds (RUN_UIDS; its zygote runs as the
    first and each run as one of the others); 0 for a sandbox that runs as uid alone."""

    @property
    def uids(self) -> int | range:
        """The uid the sandbox runs as, or all it holds."""
        assert self.uid is not None
        return range(self.uid, self.uid + self.run_uids) if self.run_uids else self.uid

    @property
    def warning(self) -> str:
        """What the results say about this level, on this machine's kernel."""
        return level_warning(self.level, landlock_abi())

    @property
    def inside_root(self) -> str:
        """Where the worker sees the submission."""
        return INSIDE_ROOT if self.level in NAMESPACED else self.root

    @property
    def inside_scratch(self) -> str:
        """Where the worker may write (its working folder, HOME and TMPDIR)."""
        return INSIDE_SCRATCH if self.level in NAMESPACED else self.scratch

    def to_json(self) -> dict[str, Any]:
        """Plain data for the trusted pytest process."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> SandboxSpec:
        """Read back to_json's output: every field present with its type, the level one of LEVELS; ValueError
        saying what is wrong otherwise."""
        values = _typed_fields(cls, data, "sandbox spec", nested={"limits": Limits.from_json})
        if values["level"] not in LEVELS:
            raise ValueError(f"the sandbox spec's level {values['level']!r} is not one of {', '.join(LEVELS)}")
        return cls(**values)


def worker_command(spec: SandboxSpec, script: str | None = None) -> list[str]:
    """The argv that starts the worker at the spec's level (script: a script of the runtime, for Part E).

    The worker is imported as a module, not run as a script, so Python reads the .pyc that make_runtime
    compiled (of worker.py as of its neighbours) instead of compiling their 1,100 lines again in every worker
    (about 10 ms each); an interpreter that cannot use that .pyc compiles the source, as any import does.
    """
    inside_runtime = INSIDE_RUNTIME if spec.level in NAMESPACED else spec.runtime
    start = ["-c", f"import sys; sys.path.insert(0, {inside_runtime!r}); import worker; "
                   f"worker.main({spec.inside_root!r}, {spec.inside_scratch!r})"] \
        if script is None else [os.path.join(inside_runtime, script)]
    run = [spec.python, "-I", "-S", "-B", *start]
    if spec.uid is not None:
        # Part E's zygote at the uid level keeps CAP_SETUID alone (as an ambient capability: it survives the exec
        # of a uid that is not root), to start each run as a uid of its own; limits.id_filter bounds it.
        keep = ",+setuid" if spec.run_uids else ""
        run = ["setpriv", f"--reuid={spec.uid}", f"--regid={spec.uid}", "--clear-groups",
               f"--inh-caps=-all{keep}", *([f"--ambient-caps=-all{keep}"] if keep else []),
               f"--bounding-set=-all{keep}", "--no-new-privs", "--", *run]
    if spec.level == "bwrap":
        return [*_bwrap_prefix(spec), *run]
    if spec.level == "unshare":
        return [*_unshare_prefix(), "/bin/sh", "-c", UNSHARE_SETUP, "war-grader-setup", spec.mount_point,
                spec.root, spec.runtime, spec.python_home, str(spec.limits.scratch_bytes),
                str(scratch_inodes(spec.limits)), *run]
    return run


def scratch_inodes(limits: Limits) -> int:
    """nr_inodes of a scratch tmpfs: its root folder, scratch_files entries and one more, so that going over the
    limit is seen (and charged with its own sentence) rather than refused by the kernel."""
    return limits.scratch_files + 2


def _unshare_prefix() -> list[str]:
    """unshare's arguments: new mount, PID, network, IPC and UTS namespaces (and a user one when not root)."""
    namespaces = ["--pid", "--fork", "--kill-child", "--net", "--ipc", "--uts", "--mount", "--propagation",
                  "private"]
    if os.geteuid() != 0:
        namespaces = ["--user", "--map-root-user", *namespaces]
    return ["unshare", *namespaces, "--"]


def _bwrap_prefix(spec: SandboxSpec) -> list[str]:
    """bubblewrap's arguments: a read-only /usr, the interpreter, the runtime, the copy; nothing else."""
    args = ["bwrap", "--die-with-parent", "--new-session"]
    if os.geteuid() == 0:
        args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    else:
        args += ["--unshare-all"]
    args += ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "lib", "lib64", "sbin"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for file in ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives"):
        args += ["--ro-bind-try", file, file]
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--size", str(spec.limits.scratch_bytes), "--tmpfs", INSIDE_SCRATCH]
    if spec.python_home:
        # bwrap makes the folders above a bind mode 0700: make them 0755 first, or a worker running as a uid of its
        # own cannot reach its interpreter's library (pyenv's under /root) and, at best, finds another Python's.
        for folder in reversed(Path(spec.python_home).parents[:-1]):
            args += ["--perms", "0755", "--dir", str(folder)]
        args += ["--ro-bind", spec.python_home, spec.python_home]
    args += ["--ro-bind", spec.runtime, INSIDE_RUNTIME, "--ro-bind", spec.root, INSIDE_ROOT,
             "--remount-ro", "/", "--chdir", INSIDE_SCRATCH]
    args += ["--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", INSIDE_SCRATCH,
             "--setenv", "TMPDIR", INSIDE_SCRATCH, "--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONHASHSEED", "0"]
    return args


def worker_env(spec: SandboxSpec) -> dict[str, str]:
    """The environment outside the sandbox: nothing of the grader's own."""
    scratch = spec.inside_scratch or "/tmp"
    return {"PATH": "/usr/bin:/bin", "HOME": scratch, "TMPDIR": scratch, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}


def worker_cwd(spec: SandboxSpec) -> str:
    """The folder the worker starts in, on the host: its scratch at plain (namespaced levels change it)."""
    return spec.scratch if spec.level not in NAMESPACED and spec.scratch else "/"


def apply_limits(limits: Limits) -> None:
    """Set the resource limits on the calling process (run in the child before exec)."""
    if limits.network_filter:
        seccomp_bpf.install(bytes.fromhex(limits.network_filter))
    if limits.id_filter:
        seccomp_bpf.install(bytes.fromhex(limits.id_filter))
    for which, value in (
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))


def renew_folder(folder: Path) -> None:
    """Replace a sandbox's scratch with a new, empty folder of the same owner and mode (a worker restarted, the hidden
    suites' after the visible ones, starts in it): emptied, an ext4 folder would still keep its size, which never
    shrinks, and its times, so what a worker did there (a hidden test's input, counted in files made and deleted)
    would reach the next. A folder that is missing (Part E's zygote stopped while it made its runs' anew) is made
    with the mode of its parent."""
    try:
        info = folder.stat()
    except FileNotFoundError:
        info = folder.parent.stat()
    remove_path(folder)
    if folder.exists():  # what could not be removed: the caller's check names it
        return
    folder.mkdir(mode=0o700)
    os.chown(folder, info.st_uid, info.st_gid)
    folder.chmod(stat.S_IMODE(info.st_mode))


def clean_up_after(spec: SandboxSpec) -> None:
    """After a sandbox stopped (a worker, or Part E's however it ended): kill what its uid left running and, at the
    uid and plain levels, remove everything the uid owns wherever it could write, then check that nothing is left
    (SandboxError naming the first thing that stayed). Namespaced levels need neither: their PID namespace and tmpfs
    die with the sandbox; without a uid of its own (the grader not root) nothing is the sandbox's alone."""
    if spec.level == "bwrap":
        return
    if spec.uid is not None:
        kill_uid(spec.uids)
    if spec.level in NAMESPACED or spec.uid is None:
        return
    uids = spec.uids
    if spec.scratch:
        renew_folder(Path(spec.scratch))
    for folder in WRITABLE:
        remove_files_of(uids, Path(folder))
    remove_ipc_of(uids)
    left = [*processes_of(uids), *(str(path) for folder in WRITABLE for path in owned_by(uids, Path(folder))),
            *(os.listdir(spec.scratch) if spec.scratch else ()), *ipc_of(uids)]
    if left:
        raise SandboxError(f"what the sandbox's uid {spec.uid} left could not be removed ({str(left[0])[:200]})")


def level_works(level: str) -> bool:
    """Whether this machine can start a process at level (tried once per process)."""
    if level == "plain":
        return True
    if level == "uid":
        return uid_level.works()
    probe = ["true"]
    if level == "bwrap":
        if shutil.which("bwrap") is None:
            return False
        command = ["bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent", *probe]
        if os.geteuid() != 0:
            command = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", *probe]
    else:
        if shutil.which("unshare") is None or shutil.which("pivot_root") is None:
            return False
        with tempfile.TemporaryDirectory(prefix="war-grader-probe-") as scratch:
            # The real set-up script, with a real (empty) copy and runtime: it works here or it does not.
            for name in ("mnt", "copy", "runtime"):
                Path(scratch, name).mkdir()
            command = [*_unshare_prefix(), "/bin/sh", "-c", UNSHARE_SETUP, "war-grader-probe",
                       str(Path(scratch, "mnt")), str(Path(scratch, "copy")), str(Path(scratch, "runtime")), "",
                       str(1024**2), "64", "/bin/sh", "-c", "test -d /submission && ! test -e /home/."]
            return _succeeds(command)
    return _succeeds(command)


def _succeeds(command: list[str]) -> bool:
    try:
        return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=20, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def choose_level(requested: str, *, allow_plain: bool = False) -> str:
    """The level to use: the requested one if it works here, or the strongest that works for "auto".

    plain is refused unless allow_plain: nothing can be hidden from student code there.
    """
    if requested == "auto":
        level = next(level for level in LEVELS if level_works(level))
    elif requested not in LEVELS:
        raise SandboxError(f"unknown sandbox level {requested!r} (choose auto, {', '.join(LEVELS)})")
    elif not level_works(requested):
        raise SandboxError(f"the {requested} sandbox does not work on this machine")
    else:
        level = requested
    if level == "plain" and not allow_plain:
        raise SandboxError(("bubblewrap, unshare and the uid level do not work on this machine, and "
                            if requested == "auto"
                            else "") + PLAIN_REFUSED)
    return level


def make_runtime(folder: Path) -> Path:
    """A world-readable folder holding worker.py, its neighbours, seccomp_bpf.py with the system call allowlist it
    installs, landlock.py, and their .pyc, shared by a batch's workers."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("worker", *NEIGHBOURS, "seccomp_bpf", "landlock"):
        shutil.copy(Path(__file__).with_name(f"{name}.py"), folder / f"{name}.py")
    add_allowlist(folder)
    finish_runtime(folder, scripts=())
    return folder


def add_allowlist(folder: Path) -> None:
    """Write the system call allowlist beside the seccomp_bpf.py already in folder; SandboxError (one line) where
    it cannot be had: no student code runs without it."""
    try:
        syscall_allowlist.write_program(folder)
    except syscall_allowlist.Unavailable as error:
        raise SandboxError(str(error)) from None


def finish_runtime(folder: Path, *, scripts: tuple[str, ...]) -> None:
    """Byte-compile a runtime's libraries (not its scripts, which Python never reads compiled) and make it
    world-readable.

    Workers run with -B from a read-only copy: without these .pyc files every worker would compile
    Part E's pytest and coverage from source again, a few tenths of a second each time. The copies keep
    their sources' times (copytree), so the installed .pyc files come along valid and compileall only
    fills the gaps; the worker's interpreter is this one's version (choose_python), so it reads them.
    """
    for entry in sorted(folder.iterdir()):
        if entry.is_dir():
            compileall.compile_dir(entry, quiet=2)
        elif entry.suffix == ".py" and entry.name not in scripts:
            compileall.compile_file(entry, quiet=2)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


def make_spec(
    *,
    root: Path,
    package: str,
    runtime: Path,
    level: str,
    limits: Limits,
    slot: int,
    hidden: tuple[str, ...],
    coverage: bool = True,
    run_uids: int = 0,
) -> SandboxSpec:
    """Decide how one submission's worker will run at level (chosen once per run by choose_level): interpreter,
    uid; prepare its folders.

    root's parent is the submission's own folder: the scratch (plain) and the mount point (unshare) go
    there. The copy stays root's and read-only; when the worker runs as its own uid it reads the copy
    through its group, so it can neither change the copy nor make it writable again. hidden: the folders
    student code must never read (grader/hidden.py), sealed at the uid level (the other levels never show them).
    """
    if level not in LEVELS:
        raise SandboxError(f"unknown sandbox level {level!r}")
    if os.geteuid() == 0:
        if not 0 <= slot < UID_BLOCK:
            raise SandboxError(f"at most {UID_BLOCK} job slots (got slot {slot})")
        uid: int | None = run_uids_of_a_sandbox() if level == "uid" and run_uids else fresh_uid()
    else:
        uid = None
    part_e = run_uids > 0  # Part E's sandbox (its caller asks for run uids at every level): a scratch of its own
    if level != "uid" or uid is None:
        run_uids = 0
    python, home = choose_python(level, uid is not None)
    base = root.parent
    scratch = mount_point = ""
    if level == "uid":
        if uid is None:
            raise SandboxError("the uid sandbox level needs the grader to run as root")
        uid_level.seal(hidden)
        limits = replace(limits, network_filter=(uid_level.network_filter() or b"").hex())
        if run_uids:
            limits = replace(limits, id_filter=uid_level.id_filter(uid, run_uids).hex())
    if level not in NAMESPACED:
        # Part E's scratch is never the worker's, which has the same parent (each sandbox's is its own); at the uid
        # level its runs share it and their zygote makes it anew after each run, in a folder of the zygote's own
        scratch = str(base / "runs" / "scratch") if part_e else str(base / "scratch")
        Path(scratch).mkdir(mode=0o700, parents=True, exist_ok=True)
    if level == "unshare":
        mount_point = str(base / "mount")
        Path(mount_point).mkdir(mode=0o700, exist_ok=True)
    if uid is not None:
        for path in [root, *root.rglob("*")]:
            os.chown(path, 0, uid, follow_symlinks=False)
            if not path.is_symlink():
                path.chmod(0o750 if path.is_dir() else 0o640)
        if scratch:
            os.chown(scratch, uid, uid)
            if part_e:  # the zygote's, which replaces the scratch in it at the uid level; no run writes it
                os.chown(Path(scratch).parent, uid, uid)
                Path(scratch).parent.chmod(0o750)
            if run_uids:  # each run's uid has the zygote's group (uid_level.py): what a run writes is its own
                os.chmod(scratch, 0o770)
        # Its parent must let the worker's uid through to root, and no further.
        base.chmod(0o711)
    return SandboxSpec(level=level, root=str(root), package=package, runtime=str(runtime), python=python,
                       python_home=home, uid=uid, limits=limits, coverage=coverage, scratch=scratch,
                       mount_point=mount_point, run_uids=run_uids)
