"""How a worker process is walled off: the isolation level, the limits, and the command that starts it."""

from __future__ import annotations

import functools
import os
import resource
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

LEVELS = ("bwrap", "unshare", "plain")
"""Strongest first: bubblewrap, namespaces with unshare, or resource limits alone."""

WARNINGS = {
    "bwrap": "",
    "unshare": "isolated with unshare (no network, own PID namespace), but the file system was not hidden "
               "from the submission: install bubblewrap for full isolation",
    "plain": "only resource limits applied: the submission could read files and reach the network; "
             "install bubblewrap for full isolation",
}
"""What each level says in the results when it is weaker than bubblewrap."""

UNPRIVILEGED_UID = 61000
"""Workers started by root run as this uid plus the job slot, so two students never share a uid."""

INSIDE_ROOT = "/submission"
"""Where the submission's private copy appears inside a bubblewrap sandbox."""

INSIDE_RUNTIME = "/grader-runtime"
"""Where the worker script and coverage appear inside a bubblewrap sandbox."""


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
    """A folder holding worker.py and, if available, a copy of coverage."""
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

    @property
    def warning(self) -> str:
        """What the results say about this level."""
        return WARNINGS[self.level]

    @property
    def inside_root(self) -> str:
        """Where the worker sees the submission."""
        return INSIDE_ROOT if self.level == "bwrap" else self.root

    def to_json(self) -> dict[str, Any]:
        """Plain data for the trusted pytest process."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SandboxSpec:
        """Read back to_json's output."""
        return cls(**{**data, "limits": Limits(**data["limits"])})


class SandboxError(RuntimeError):
    """The sandbox cannot be set up on this machine (a fault of the grader's, not the student's)."""


def worker_command(spec: SandboxSpec, script: str = "worker.py") -> list[str]:
    """The argv that starts the worker at the spec's level (script: another script of the runtime, for Part E)."""
    inside_runtime = INSIDE_RUNTIME if spec.level == "bwrap" else spec.runtime
    run = [spec.python, "-I", "-S", "-B", os.path.join(inside_runtime, script)]
    if spec.uid is not None:
        run = ["setpriv", f"--reuid={spec.uid}", f"--regid={spec.uid}", "--clear-groups",
               "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", *run]
    if spec.level == "bwrap":
        return [*_bwrap_prefix(spec), *run]
    if spec.level == "unshare":
        namespaces = ["--pid", "--fork", "--kill-child", "--net", "--ipc", "--uts", "--mount"]
        if os.geteuid() != 0:
            namespaces = ["--user", "--map-root-user", *namespaces]
        return ["unshare", *namespaces, "--", *run]
    return run


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
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    if spec.python_home:
        args += ["--ro-bind", spec.python_home, spec.python_home]
    args += ["--ro-bind", spec.runtime, INSIDE_RUNTIME, "--bind", spec.root, INSIDE_ROOT, "--chdir", INSIDE_ROOT]
    args += ["--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
             "--setenv", "LANG", "C.UTF-8", "--setenv", "PYTHONHASHSEED", "0"]
    return args


def worker_env(spec: SandboxSpec) -> dict[str, str]:
    """The environment outside the sandbox: nothing of the grader's own."""
    return {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}


def apply_limits(limits: Limits) -> None:
    """Set the resource limits on the calling process (run in the child before exec)."""
    for which, value in (
        (resource.RLIMIT_CPU, limits.cpu_seconds),
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_NPROC, limits.processes),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))


def kill_uid(uid: int) -> None:
    """Kill every process left running as uid (a fork bomb's children), sweeping until none is left."""
    for _ in range(50):
        if not processes_of(uid):
            return
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", "kill", "-KILL", "-1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=10)
        time.sleep(0.02)


def processes_of(uid: int) -> list[int]:
    """Live (not zombie) process ids owned by uid, from /proc."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid != uid:
                    continue
                with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as handle:
                    state = handle.read().rpartition(")")[2].split()[0]
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
            if state not in ("Z", "X"):
                found.append(int(entry.name))
    return found


@functools.lru_cache(maxsize=None)
def level_works(level: str) -> bool:
    """Whether this machine can start a process at level (tried once per process)."""
    if level == "plain":
        return True
    probe = ["true"]
    if level == "bwrap":
        if shutil.which("bwrap") is None:
            return False
        command = ["bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent", *probe]
        if os.geteuid() != 0:
            command = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", *probe]
    else:
        if shutil.which("unshare") is None:
            return False
        command = ["unshare", "--pid", "--fork", "--net", "--mount", *probe]
        if os.geteuid() != 0:
            command = ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--net", "--mount", *probe]
    try:
        return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=20, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def choose_level(requested: str) -> str:
    """The level to use: the requested one if it works here, or the strongest that works for "auto"."""
    if requested == "auto":
        return next(level for level in LEVELS if level_works(level))
    if requested not in LEVELS:
        raise SandboxError(f"unknown sandbox level {requested!r} (choose auto, {', '.join(LEVELS)})")
    if not level_works(requested):
        raise SandboxError(f"the {requested} sandbox does not work on this machine")
    return requested


def choose_python(level: str, unprivileged: bool) -> tuple[str, str]:
    """The interpreter for the worker and the folder to bind for it: (python, python_home)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    base = Path(sys.base_prefix) / "bin" / version
    base_python = str(base) if base.exists() else os.path.realpath(sys.executable)
    if level == "bwrap":
        home = "" if sys.base_prefix.startswith("/usr/") or sys.base_prefix == "/usr" else sys.base_prefix
        return base_python, home
    candidates = [base_python, f"/usr/bin/{version}", "/usr/bin/python3"]
    for candidate in candidates:
        if os.path.exists(candidate) and (not unprivileged or _others_can_run(candidate)):
            return candidate, ""
    raise SandboxError(
        f"no Python interpreter that an unprivileged user can run (tried {', '.join(candidates)}); "
        "install bubblewrap or Debian's python3"
    )


def _others_can_run(path: str) -> bool:
    """Whether a user who is neither owner nor in the group can reach and execute path."""
    real = Path(os.path.realpath(path))
    for folder in [*reversed(real.parents)]:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return False
    return bool(real.stat().st_mode & stat.S_IXOTH)


def make_runtime(folder: Path) -> Path:
    """A world-readable folder holding worker.py and a copy of coverage, shared by a batch's workers."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(Path(__file__).with_name("worker.py"), folder / "worker.py")
    try:
        import coverage  # noqa: PLC0415 - a dependency, located to be copied
    except ImportError:  # pragma: no cover - coverage is a declared dependency
        pass
    else:
        source = Path(coverage.__file__).parent
        shutil.copytree(source, folder / "coverage", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyi"))
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def make_spec(
    *,
    root: Path,
    package: str,
    runtime: Path,
    requested_level: str,
    limits: Limits,
    slot: int,
    coverage: bool = True,
) -> SandboxSpec:
    """Decide how one submission's worker will run: level, interpreter, uid."""
    level = choose_level(requested_level)
    uid = UNPRIVILEGED_UID + slot if os.geteuid() == 0 else None
    python, home = choose_python(level, uid is not None)
    if uid is not None:
        for path in [root, *root.rglob("*")]:
            os.chown(path, uid, uid, follow_symlinks=False)
        root.chmod(0o700)
        # Its parent must let the worker's uid through to root, and no further.
        root.parent.chmod(0o711)
    return SandboxSpec(level=level, root=str(root), package=package, runtime=str(runtime), python=python,
                       python_home=home, uid=uid, limits=limits, coverage=coverage)
