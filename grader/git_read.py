"""Reading a student's git clone without trusting it: its history, and one commit's files written out.

The clone is hostile. git runs with no hooks, no fsmonitor, no signature checks, no replace objects and no
optional locks (so it writes nothing into the clone), without the caller's GIT_* variables or global config,
and with the clone's .git folder named explicitly (so a clone owned by another user is read without a
safe.directory entry). Files are read as raw blobs (`git cat-file --batch`), so no filter or attribute of the
repository runs; only what grading reads is written out: .py files up to the size the grader copies, a larger .py
file as an empty file of its size (sparse), every other file empty, links as links to nothing, submodules as empty
folders, paths under hidden folders not at all.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from .errors import UserError

GIT_TIMEOUT = 120.0
"""Seconds one git command may take on one clone (a huge history); beyond it that student is ungradable."""

MAX_COMMITS = 100_000
"""Most commits of one clone's history read; a longer one is ungradable."""

MAX_ENTRIES = 50_000
"""Most paths of one commit written out (each file that is not Python an empty placeholder)."""

MAX_PY_BYTES = 64 * 2**20
"""Most bytes of .py files read out of one commit."""

SUBJECT_CHARACTERS = 72
"""Characters of a commit's subject kept (git cuts a longer one and ends it with "..")."""

SAFE_CONFIG = ("core.hooksPath=/dev/null", "core.fsmonitor=false", "log.showSignature=false",
               "core.commitGraph=false", "i18n.logOutputEncoding=UTF-8")
"""Settings given on git's command line, above anything the clone's own .git/config says."""


class GitError(UserError, ValueError):
    """git cannot read the clone as asked (no such commit, corrupt, too big, too slow): one sentence."""


class NoGit(UserError, RuntimeError):
    """git is not installed."""


@dataclass(frozen=True)
class Commit:
    """One commit of a clone's history."""

    oid: str
    time: int
    """Committer date, seconds since the epoch."""
    date: str
    """Committer date, strict ISO 8601 with the committer's offset."""
    subject: str
    """The first line of its message, made printable and cut to SUBJECT_CHARACTERS."""

    def describe(self) -> str:
        """Short hash, date and subject, as the report names it."""
        return f'{self.oid[:7]} of {self.date} ("{self.subject}")'


def is_repository(path: Path) -> bool:
    """Whether path is a folder whose .git is a real folder (not a link, nor a file pointing elsewhere)."""
    git = path / ".git"
    return path.is_dir() and not path.is_symlink() and git.is_dir() and not git.is_symlink()


def history(repository: Path) -> list[Commit]:
    """HEAD and every commit it reaches, HEAD first; [] for a repository with no commit yet."""
    head = _git(repository, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False).decode(
        "ascii", errors="replace").strip()
    if not head:
        return []
    listing = _git(repository, "log", "-z", "--no-show-signature", f"--max-count={MAX_COMMITS + 1}",
                   f"--format=%H%x1f%ct%x1f%cI%x1f%<({SUBJECT_CHARACTERS},trunc)%s", head)
    commits = []
    for record in listing.decode("utf-8", errors="replace").split("\0"):
        fields = record.split("\x1f", 3)
        if len(fields) == 4 and re.fullmatch(r"[0-9a-f]{40,64}", fields[0]) and re.fullmatch(r"-?\d+", fields[1]):
            commits.append(Commit(fields[0], int(fields[1]), fields[2], _printable(fields[3].strip())))
    if len(commits) > MAX_COMMITS:
        raise GitError(f"its history holds more than {MAX_COMMITS} commits")
    if not commits or commits[0].oid != head:
        raise GitError("git listed no history for HEAD")
    return commits


def commit_time(repository: Path, commit: str) -> int:
    """A commit's committer date, seconds since the epoch; GitError if the clone has no such commit."""
    text = _git(repository, "log", "-1", "--no-show-signature", "--format=%ct", f"{_oid(commit)}^{{commit}}")
    stamp = text.decode("ascii", errors="replace").strip()
    if not re.fullmatch(r"-?\d+", stamp):
        raise GitError(f"git gave no committer date for {commit[:7]}")
    return int(stamp)


def tags_at(repository: Path, commit: str, prefix: str) -> list[str]:
    """The tags under prefix (e.g. "submit/") that point at commit, newest name first."""
    text = _git(repository, "for-each-ref", f"--points-at={_oid(commit)}", "--sort=-refname",
                "--format=%(refname:strip=2)", f"refs/tags/{prefix}")
    return [_printable(line) for line in text.decode("utf-8", errors="replace").splitlines() if line]


def first_adding(repository: Path, commit: str, path: str) -> str:
    """The oldest commit on commit's first-parent line that added path; "" when none did."""
    text = _git(repository, "log", "--first-parent", "--diff-filter=A", "--no-show-signature", "--format=%H",
                _oid(commit), "--", path)
    found = [line for line in text.decode("ascii", errors="replace").split() if re.fullmatch(r"[0-9a-f]{40,64}", line)]
    return found[-1] if found else ""


def first_parent_root(repository: Path, commit: str) -> str:
    """The oldest commit on commit's first-parent line (its root); "" when git names none."""
    text = _git(repository, "rev-list", "--first-parent", "--max-parents=0", _oid(commit))
    found = [line for line in text.decode("ascii", errors="replace").split() if re.fullmatch(r"[0-9a-f]{40,64}", line)]
    return found[0] if found else ""


def subject_of(repository: Path, commit: str) -> str:
    """A commit's subject (the first line of its message), as git prints it, uncut."""
    text = _git(repository, "log", "-1", "--no-show-signature", "--format=%s", f"{_oid(commit)}^{{commit}}")
    return text.decode("utf-8", errors="replace").strip()


def _oid(commit: str) -> str:
    """commit, refused unless it is a full object id (never an option or a revision expression)."""
    if not re.fullmatch(r"[0-9a-f]{40,64}", commit):
        raise GitError(f"{commit[:80]!r} is not a commit id")
    return commit


def _printable(text: str) -> str:
    """Text from a commit safe to quote: control characters shown as escapes."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def commit_digest(commit: str) -> str:
    """What a submission graded at a commit hashes to: the commit names its files, so a result graded at one
    commit is never kept for another, even one with the same files."""
    return hashlib.sha256(b"git commit " + commit.encode("ascii", errors="replace")).hexdigest()


@dataclass(frozen=True)
class _Entry:
    mode: str
    kind: str
    oid: str
    size: int
    path: str


def check_out(repository: Path, commit: str, into: Path, *, max_file_bytes: int) -> Path:
    """Write what grading reads of the commit's files into `into` (a new folder): .py files up to max_file_bytes
    with their content, the rest as placeholders (see the module's docstring). GitError if it cannot be read or
    is beyond the limits."""
    entries = _entries(repository, commit)
    wanted = [entry for entry in entries if entry.kind == "blob" and entry.mode != "120000"
              and entry.path.endswith(".py") and entry.size <= max_file_bytes]
    if sum(entry.size for entry in wanted) > MAX_PY_BYTES:
        raise GitError(f"the commit's .py files hold more than {MAX_PY_BYTES // 2**20} MiB")
    contents = _blobs(repository, sorted({entry.oid for entry in wanted}))
    written = {entry.path for entry in wanted}
    into.mkdir(parents=True)
    try:
        for entry in entries:
            target = into.joinpath(*entry.path.split("/"))
            target.parent.mkdir(parents=True, exist_ok=True)
            if entry.kind == "commit":  # a submodule: an empty folder, as in a clone that did not fetch it
                target.mkdir(exist_ok=True)
            elif entry.mode == "120000":  # a link: one to nothing, which grading skips like every link
                os.symlink("/nonexistent/war-grader-link", target)
            elif entry.path in written:
                _create(target, contents[entry.oid], size=len(contents[entry.oid]))
            else:  # a file grading never reads is empty; a .py too large to copy keeps its size (sparse) for the check
                _create(target, b"", size=entry.size if entry.path.endswith(".py") else 0)
    except OSError as error:
        raise GitError(f"the commit's files cannot be written out ({error.strerror or error})") from None
    return into


def _create(target: Path, content: bytes, *, size: int) -> None:
    """A new file (never through a link, never over another: a tree naming a path twice is refused) of size bytes,
    content first."""
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(content)
        handle.truncate(size)


def _entries(repository: Path, commit: str) -> list[_Entry]:
    """The commit's paths (not those under a hidden folder: grading never reads them); GitError on an unsafe one."""
    listing = _git(repository, "ls-tree", "-r", "-z", "-l", "--full-tree", commit)
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.decode("ascii", errors="replace").split()
        if len(fields) != 4:
            raise GitError("git listed the commit's files in a form the grader cannot read")
        mode, kind, oid, size = fields
        path = os.fsdecode(raw_path)
        parts = path.split("/")
        if path.startswith("/") or any(part in ("", ".", "..") or part.lower() == ".git" for part in parts):
            raise GitError(f"the commit holds an unsafe path: {path!r}")
        if any(part.startswith(".") for part in parts[:-1]):
            continue
        entries.append(_Entry(mode, kind, oid, int(size) if size.isdigit() else 0, path))
        if len(entries) > MAX_ENTRIES:
            raise GitError(f"the commit holds more than {MAX_ENTRIES} files")
    return entries


def _blobs(repository: Path, oids: list[str]) -> dict[str, bytes]:
    """The raw content of each blob (no filter, no attribute applied)."""
    if not oids:
        return {}
    output = _git(repository, "cat-file", "--batch", input="".join(f"{oid}\n" for oid in oids).encode("ascii"))
    contents: dict[str, bytes] = {}
    position = 0
    while position < len(output):
        end = output.find(b"\n", position)
        header = output[position:end].split() if end >= 0 else []
        if len(header) != 3 or header[1] != b"blob" or not header[2].isdigit():
            raise GitError("git could not read a file of the commit")
        size = int(header[2])
        contents[header[0].decode("ascii")] = output[end + 1:end + 1 + size]
        position = end + 1 + size + 1
    return contents


def _git(repository: Path, *args: str, check: bool = True, input: bytes | None = None) -> bytes:
    """git's output for args on the clone at repository, run as the module docstring says."""
    git_dir = (repository / ".git").absolute()
    command = ["git", "--no-pager", f"--git-dir={git_dir}"]
    for setting in (*SAFE_CONFIG, f"safe.directory={git_dir}", f"safe.directory={git_dir.parent}"):
        command += ["-c", setting]
    try:
        completed = subprocess.run([*command, *args], input=input, capture_output=True, timeout=GIT_TIMEOUT,
                                   env=_environment(), cwd="/", check=False)
    except FileNotFoundError:
        raise NoGit("git is not installed (--at and --latest read each clone's commits with it)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git did not answer within {GIT_TIMEOUT:g} s") from None
    if check and completed.returncode != 0:
        message = completed.stderr.decode("utf-8", errors="replace").strip().splitlines()
        raise GitError(f"git failed: {_printable(message[-1][:200]) if message else f'status {completed.returncode}'}")
    return completed.stdout


def _environment() -> dict[str, str]:
    """git's environment: none of the caller's GIT_* variables, no system or global config, no prompts or locks."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0",
               GIT_NO_REPLACE_OBJECTS="1", GIT_ATTR_NOSYSTEM="1", GIT_NO_LAZY_FETCH="1", LC_ALL="C")
    return env
