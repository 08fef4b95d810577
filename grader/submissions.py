"""Finding submissions on disk and making each one's private copy: only its .py files, nothing else."""

from __future__ import annotations

import dataclasses
import hashlib
import lzma
import os
import re
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .canvas_names import read_canvas_name
from .gradescope_export import read_export
from .git_read import GitError, check_out, commit_digest
from .public_tests import MAX_BYTES, is_public
from .errors import UserError

SKIPPED_NAMES = frozenset({"conftest.py", "sitecustomize.py", "usercustomize.py", "setup.py"})
"""Python files never copied: they would configure pytest or Python rather than play War."""

MAX_FILES = 200
"""Most .py files copied from one submission."""

MAX_FILE_BYTES = 1024 * 1024
"""Largest .py file copied."""


@dataclass(frozen=True)
class ZipLimits:
    """What a submitted .zip may hold, checked before anything is extracted (the settings zip_members and zip_mb,
    grader/config.py; these defaults are grading.toml's)."""

    members: int = 10_000
    """Most members (files and folders)."""
    bytes: int = 20 * 1024**2
    """Most bytes its members declare in all, uncompressed (zipfile never reads a member past its declared size)."""


CENTRAL_ENTRY = b"PK\x01\x02"
"""The signature that starts each member's entry in a zip's central directory."""

DEFAULT_PACKAGE = "starter"
"""The name a package gets when its own folder name cannot be used (it is the student's folder)."""


class SubmissionError(UserError, ValueError):
    """The submission cannot be graded as it stands (no package, bad zip): the student's problem."""


class UsageError(UserError, ValueError):
    """A path given on the command line is not a submission or a folder of them."""


@dataclass(frozen=True)
class Submission:
    """One student's work as found on disk."""

    student: str
    """The student's name: the folder, zip or file name without its extension."""
    path: Path
    """The folder, .zip or .py file."""
    submitted_at: str = ""
    """When it was submitted, ISO 8601 with an offset, as its source tells (a commit, an LMS's file name,
    Gradescope's metadata); "" when nothing tells."""
    marked_late: bool = False
    """Its source marks it late without saying when (Canvas's _LATE_ in a bulk download's file names)."""
    provenance: str = ""
    """Where the graded files came from, one sentence for the report (the commit graded, later commits left
    out); "" for a plain folder, zip or file."""
    commit: str = ""
    """The commit of the git clone at path to grade instead of its files as they stand (grade --at, --latest);
    "" to grade the files."""
    problem: str = ""
    """Why there is nothing to grade, found before grading (a clone with no commit before the deadline): the
    student is listed, ungradable, with this sentence; "" when there is something to grade."""


@dataclass(frozen=True)
class PreparedCopy:
    """A submission's private copy, ready for a worker."""

    root: Path
    """Folder holding the package (or the single module)."""
    package: str
    """Name to import."""
    files: tuple[str, ...]
    """Copied files of the package, relative to root (its test files are in tests)."""
    tests: tuple[str, ...] = ()
    """The student's own test files (Part E), relative to root: inside the package or beside it."""


NOISE_NAMES = frozenset({"__pycache__", "__MACOSX"})
"""Folders that tools leave beside submissions; ignored like hidden (dot) entries."""

TOOLING_NAMES = frozenset({"tests", "test", "docs", "doc", "examples", "scripts", "venv", "env", "build", "dist"})
"""Folders of a student's repository that are not the package: they never make a folder look like a class."""

OUTPUT_MARKER = ".war-grader.lock"
"""The file war-grader keeps in its output folder (its lock); a child holding it is never a student."""


@dataclass(frozen=True)
class Found:
    """What discovery found: the submissions, and one line per entry of a class folder that is not one."""

    submissions: list[Submission]
    skipped: list[str]


def discover(paths: list[Path]) -> list[Submission]:
    """The submissions at paths: each path is one submission, or a class folder whose children are."""
    return find_submissions(paths).submissions


def find_submissions(paths: list[Path], *, exclude: tuple[Path, ...] = ()) -> Found:
    """The submissions at paths, and why each other entry of a class folder is not one.

    A path is one submission (a .py file, a .zip, or a folder holding a package or modules) or a class
    folder, one student per child folder, .zip or .py file. Hidden entries (names starting with a dot),
    __pycache__ and __MACOSX are ignored; any other child that is not a submission (a text file, a FIFO,
    a broken link, a war-grader output folder or a folder in `exclude`) is listed in `skipped`. Students named as
    Canvas's bulk download names them (every one of a class folder) are named by the student and marked late where
    Canvas says so (grader.canvas_names).
    """
    try:
        return _find(paths, exclude)
    except OSError as error:  # an unreadable folder on the instructor's side: one line, not a traceback
        raise UsageError(f"{error.filename or paths[0]}: cannot read it ({error.strerror or error})") from None


def _find(paths: list[Path], exclude: tuple[Path, ...]) -> Found:
    found: list[Submission] = []
    skipped: list[str] = []
    excluded = {_resolved(path) for path in exclude}
    for path in paths:
        if not os.path.lexists(path):
            raise UsageError(f"{path}: no such file or folder")
        if not path.is_dir() and not path.is_file():
            raise UsageError(f"{path}: not a regular file or folder")
        if path.is_file() and path.suffix not in (".zip", ".py"):
            raise UsageError(f"{path}: a submission is a folder, a .zip or a .py file")
        if path.is_file() or _is_one_submission(path):
            found.extend(_from_canvas([Submission(_name(path), path)]))
            continue
        students = []
        for child in sorted(path.iterdir()):
            if child.name.startswith(".") or child.name in NOISE_NAMES:
                continue
            if _resolved(child) in excluded or _is_output_folder(child):
                skipped.append(f"{child}: a war-grader output folder, not a student")
            elif child.is_dir() or (child.is_file() and child.suffix in (".zip", ".py")
                                    and child.name not in SKIPPED_NAMES):
                students.append(Submission(_name(child), child))
            elif child.is_symlink() and not child.exists():
                skipped.append(f"{child}: a broken link or a symlink loop, not a student")
            else:
                skipped.append(f"{child}: not a submission (a student is a folder, a .zip or a .py file)")
        if not students:
            raise UsageError(f"{path}: holds no submission (no package, .py file, or folder of submissions)")
        nested = [(student.path, count) for student in students
                  if student.path.is_dir() and (count := _class_size(student.path)) >= 2]
        if nested:
            inner, count = nested[0]
            raise UsageError(
                f"{inner}: a folder of {count} submissions, not one student's work"
                + (f" (and {len(nested) - 1} more such folder{'s' * (len(nested) > 2)} in {path})" if len(nested) > 1
                   else "")
                + f"; grade each folder of submissions on its own, e.g. war-grader grade {inner}")
        found.extend(_from_gradescope(path, _from_canvas(students)))
    return Found(_unique(found), skipped)


def _from_canvas(students: list[Submission]) -> list[Submission]:
    """The students of one class folder (or one given path) named as Canvas's bulk download names them, marked
    late where it says so, when every one of them has a Canvas name; else unchanged (grader.canvas_names)."""
    names = [read_canvas_name(student.path.name) for student in students]
    if not all(names):
        return students
    return [dataclasses.replace(student, student=_clean(name.student), marked_late=name.late,
                                provenance=name.provenance(student.path.name))
            for student, name in zip(students, names) if name is not None]


def _from_gradescope(folder: Path, students: list[Submission]) -> list[Submission]:
    """The students of a Gradescope export (its submission_metadata.yml beside their folders) named by their
    submitter's email (or student id, or name), which a roster matches, with the time Gradescope recorded and a
    sentence naming every submitter; else unchanged (grader.gradescope_export)."""
    exported = read_export(folder)
    named = []
    for student in students:
        entry = exported.get(student.path.name)
        if entry is None or not entry.student():
            named.append(student)
            continue
        named.append(dataclasses.replace(student, student=_clean(entry.student()), submitted_at=entry.created_at,
                                         provenance=entry.provenance()))
    return named


def _is_output_folder(folder: Path) -> bool:
    """A war-grader output folder: it holds the grader's lock, or grades.csv beside index.html."""
    return (folder / OUTPUT_MARKER).exists() or all((folder / name).is_file() for name in ("grades.csv", "index.html"))


def _resolved(path: Path) -> Path:
    """The path with its links resolved; as given (made absolute) when that fails, as for a symlink loop."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # Python before 3.13 raises RuntimeError for a symlink loop
        return path.absolute()


def _is_one_submission(folder: Path) -> bool:
    """Whether a folder is one student's work rather than a class.

    It is one submission if it is a package, or holds one package or one module (besides tests, docs and
    the like) and no folder or zip of another student; several packages and nothing else are a class of
    bare packages, several modules and no package a class of single-file students, and a package or module
    among student folders is one more student, not the whole class.
    """
    if (folder / "__init__.py").is_file():
        return True
    packages = modules = students = 0
    for child in folder.iterdir():
        if not _considered(child):
            continue
        if child.is_dir():
            if (child / "__init__.py").is_file():
                packages += 1
            elif _holds_python(child, depth=3):
                students += 1
        elif child.is_file():
            if child.suffix == ".zip":
                students += 1
            elif (child.suffix == ".py" and child.name not in SKIPPED_NAMES
                  and not child.name.startswith("test_")):
                modules += 1
    if packages + modules == 0:
        return False
    return students == 0 and (packages == 1 or (packages == 0 and modules == 1))


def _class_size(folder: Path) -> int:
    """How many students a folder inside a class folder holds, if it is itself a folder of submissions (an LMS's
    export one level down: zips, or folders of Python that are not a package and not a repository's tooling),
    else 0: one student's work never holds two of them beside no package of its own."""
    if _is_one_submission(folder) or (folder / ".git").exists():
        return 0
    try:
        children = list(folder.iterdir())
    except OSError:
        return 0
    return sum(1 for child in children
               if _considered(child) and ((child.is_file() and child.suffix == ".zip")
                                          or (child.is_dir() and _holds_python(child, depth=3))))


def _considered(child: Path) -> bool:
    """Whether an entry of a folder can tell one student's work from a class: not hidden, not a tool's leftover
    (NOISE_NAMES), not a repository's tooling folder (TOOLING_NAMES)."""
    return not (child.name.startswith(".") or child.name in NOISE_NAMES or child.name.lower() in TOOLING_NAMES)


def _holds_python(folder: Path, *, depth: int) -> bool:
    """Whether a .py file or a .zip sits within depth levels of folder (hidden folders not searched)."""
    try:
        children = list(folder.iterdir())
    except OSError:
        return False
    for child in children:
        if child.name.startswith("."):
            continue
        if child.suffix in (".py", ".zip") and child.is_file():
            return True
        if depth > 1 and child.is_dir() and _holds_python(child, depth=depth - 1):
            return True
    return False


def _name(path: Path) -> str:
    """The student's name for a path: its name without .zip or .py, made safe as a folder name."""
    return _clean(path.name[: -len(path.suffix)] if path.suffix in (".zip", ".py") else path.name)


def _clean(name: str) -> str:
    """A student's name made safe as a folder name of --out."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).lstrip(".").rstrip("._")[:MAX_NAME] or "student"


MAX_NAME = 255
"""Longest student name: a folder of --out is named by it, and most file systems allow 255 bytes a name."""


INSTRUCTOR_FOLDER = "instructor"
"""The output folder's subfolder for the instructor view of the reports (`report OUT --view instructor`)."""

SIMILARITY_JSON, SIMILARITY_HTML = "similarity.json", "similarity.html"
"""The findings of `war-grader similarity` in its --out folder: the instructor's alone (the instructor view of the
class index links the page; no student page does)."""

RESERVED_NAMES = frozenset({"grades.csv", "index.html", INSTRUCTOR_FOLDER, SIMILARITY_JSON, SIMILARITY_HTML})
"""Names of the output folder's own files and folders: a student so named gets a suffix, like a second student of
a name."""


def _unique(found: list[Submission]) -> list[Submission]:
    """Distinct names (case apart, as on case-insensitive disks), none of them an output file's name.

    A suffix -2, -3... tells a later student from an earlier one, the name cut short to keep within MAX_NAME.
    """
    taken = set(RESERVED_NAMES)
    result = []
    for submission in found:
        name, count = submission.student, 1
        while name.casefold() in taken:
            count += 1
            suffix = f"-{count}"
            name = submission.student[: MAX_NAME - len(suffix)] + suffix
        taken.add(name.casefold())
        result.append(dataclasses.replace(submission, student=name))
    return result


def submission_digest(submission: Submission) -> str:
    """What a result is kept by: the commit graded (grade --at, --latest), the problem found before grading, or
    the submission's files (submission_hash)."""
    if submission.commit:
        return commit_digest(submission.commit)
    if submission.problem:
        return hashlib.sha256(b"problem " + submission.problem.encode("utf-8", errors="replace")).hexdigest()
    return submission_hash(submission.path)


def submission_hash(path: Path) -> str:
    """sha256 of a file, or of a folder's regular files (relative path and content, sorted).

    Only what the grader may copy is read: a .zip, and .py files up to MAX_FILE_BYTES; any other file (a data
    file, a .py too large to copy) counts by its name and size, so a 3 GiB file beside a package costs no
    reading. Files are read in blocks and names are hashed as the bytes on disk, so a name that is not UTF-8
    hashes like any other. Anything else (a FIFO) hashes as empty.
    """
    digest = hashlib.sha256()
    if path.is_file():
        _hash_content(path, digest, whole=path.suffix == ".zip")
        return digest.hexdigest()
    if not path.is_dir():
        return digest.hexdigest()
    files = sorted(os.fsencode(p.relative_to(path).as_posix()) for p in path.rglob("*")
                   if "__pycache__" not in p.parts and _is_regular(p))
    for name in files:
        digest.update(name + b"\0")
        _hash_content(path / os.fsdecode(name), digest, whole=False)
        digest.update(b"\0")
    return digest.hexdigest()


def _hash_content(file: Path, digest: Any, *, whole: bool) -> None:
    """Add the file to the digest: its bytes if whole or a .py file small enough to copy, else its size."""
    with file.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if not whole and (file.suffix != ".py" or size > MAX_FILE_BYTES):
            digest.update(b"size %d" % size)  # never copied, so its bytes cannot change a grade
            return
        digest.update(b"content ")
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)


def _is_regular(path: Path) -> bool:
    """A regular file, not through a link (lstat: FIFOs, devices and links are not)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def prepare(submission: Submission, into: Path, zip_limits: ZipLimits = ZipLimits()) -> PreparedCopy:
    """Copy the submission's Python files into `into`/root; SubmissionError if there is nothing to grade.

    A submission set to a commit is first written out of its clone into `into`/checkout (grader.git_read); a
    .zip is extracted into `into`/unzipped if it keeps within zip_limits."""
    if submission.problem:
        raise SubmissionError(submission.problem)
    source = submission.path
    if submission.commit:
        try:
            source = check_out(source, submission.commit, into / "checkout", max_file_bytes=MAX_FILE_BYTES)
        except GitError as error:
            raise SubmissionError(f"commit {submission.commit[:7]} cannot be read: {error}") from None
    if not source.is_file() and not source.is_dir():
        raise SubmissionError(f"{source.name} is not a regular file or folder")
    if source.suffix == ".zip" and source.is_file():
        source = _extract(source, into / "unzipped", zip_limits)
    root = into / "root"
    root.mkdir(parents=True)
    if source.is_file():
        if source.suffix != ".py":
            raise SubmissionError("the submission is not a .py file, a .zip or a folder")
        module = _module_name(source.stem)
        _copy_file(source, root / f"{module}.py")
        return PreparedCopy(root, module, (f"{module}.py",))
    folder = _descend(source)
    if (folder / "__init__.py").is_file():
        package, name = folder, DEFAULT_PACKAGE
    else:
        packages = sorted(child for child in folder.iterdir() if child.is_dir() and not child.is_symlink()
                          and (child / "__init__.py").is_file() and child.name.isidentifier()
                          and child.name.lower() not in TOOLING_NAMES)
        modules = sorted(child for child in folder.iterdir() if child.suffix == ".py" and child.is_file()
                         and not child.is_symlink() and child.name not in SKIPPED_NAMES
                         and not is_test_file(child.name))
        if len(packages) > 1:
            preferred = [p for p in packages if p.name == DEFAULT_PACKAGE]
            if not preferred:
                raise SubmissionError("found several packages (" + ", ".join(p.name for p in packages) +
                                      "); submit one")
            packages = preferred
        if packages:
            package, name = packages[0], packages[0].name
        elif len(modules) == 1:
            module = _module_name(modules[0].stem)
            _copy_file(modules[0], root / f"{module}.py")
            return PreparedCopy(root, module, (f"{module}.py",), copy_tests_beside(folder, root))
        else:
            raise SubmissionError("no package found: expected a folder with an __init__.py (your copy of the "
                                  "starter package) or a single .py file")
    files = [f"{name}/{file}" for file in _copy_package(package, root / name)]
    inside = tuple(file for file in files if is_test_file(file))
    beside = copy_tests_beside(folder, root) if package != folder else ()
    return PreparedCopy(root, name, tuple(file for file in files if file not in inside), inside + beside)


# -- Part E: the student's own tests -------------------------------------------------------------------

def is_test_file(path: str) -> bool:
    """A student's test file: test_*.py (pytest's own pattern), wherever it is."""
    name = path.rpartition("/")[2]
    return name.startswith("test_") and name.endswith(".py")


def copy_tests_beside(folder: Path, root: Path) -> tuple[str, ...]:
    """Copy the test_*.py files beside the package and the .py files of a tests/ folder there; the test files'
    paths. The course's public test files, unchanged (known by content: a Classroom clone's tests/contract/, a
    copy of this repository's), are not the student's and are left out, with the public helpers beside them
    unless a test of the student's sits there too; a public test file the student edited is theirs."""
    found = [child for child in sorted(folder.glob("test_*.py"))]
    if (folder / "tests").is_dir() and not (folder / "tests").is_symlink():
        found += sorted(path for path in (folder / "tests").rglob("*.py") if "__pycache__" not in path.parts)
    usable = [file for file in found if not (file.name in SKIPPED_NAMES
                                             or any(part.startswith(".") for part in file.relative_to(folder).parts)
                                             or _behind_symlink(folder, file) or not file.is_file())]
    public = {file for file in usable if _is_public_file(file)}
    theirs = {file.parent for file in usable if is_test_file(file.name) and file not in public}
    copied: list[str] = []
    for file in usable:
        if file in public and (is_test_file(file.name) or file.parent not in theirs):
            continue
        if len(copied) >= MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES} test files")
        relative = file.relative_to(folder)
        _copy_file(file, root / relative)
        copied.append(relative.as_posix())
    return tuple(path for path in copied if is_test_file(path))


def _is_public_file(file: Path) -> bool:
    """One of the course's public test files (or their helpers), unchanged."""
    try:
        with file.open("rb") as handle:
            return is_public(handle.read(MAX_BYTES + 1))
    except OSError:
        return False


def _descend(folder: Path) -> Path:
    """Skip wrapper folders that hold exactly one folder and nothing else (as zips often do)."""
    while True:
        children = [child for child in folder.iterdir() if not child.name.startswith((".", "__MACOSX"))]
        if (len(children) == 1 and children[0].is_dir() and not children[0].is_symlink()
                and not (children[0] / "__init__.py").is_file()):
            folder = children[0]
            continue
        return folder


def _module_name(stem: str) -> str:
    name = re.sub(r"\W", "_", stem)
    return name if name.isidentifier() and not name[0].isdigit() else "submission"


def _copy_package(package: Path, target: Path) -> list[str]:
    """Copy the package's .py files (no symlinks, no pytest or site hooks), keeping its folders."""
    copied: list[str] = []
    for file in sorted(package.rglob("*.py")):
        relative = file.relative_to(package)
        if (file.name in SKIPPED_NAMES or "__pycache__" in relative.parts
                or any(part.startswith(".") for part in relative.parts)
                or _behind_symlink(package, file) or not _is_regular(file) or not _utf8(relative)):
            continue
        if len(copied) >= MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES} .py files")
        _copy_file(file, target / relative)
        copied.append(relative.as_posix())
    if "__init__.py" not in copied:
        raise SubmissionError("the package has no __init__.py")
    return copied


def _utf8(relative: Path) -> bool:
    """Whether a path's name is valid UTF-8: a file named otherwise could never be imported."""
    try:
        relative.as_posix().encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _behind_symlink(top: Path, file: Path) -> bool:
    path = file
    while path != top:
        if path.is_symlink():
            return True
        path = path.parent
    return False


def _copy_file(source: Path, target: Path) -> None:
    if source.is_symlink() or not stat.S_ISREG(source.lstat().st_mode):
        raise SubmissionError(f"{source.name} is not a regular file")
    if source.stat().st_size > MAX_FILE_BYTES:
        raise SubmissionError(f"{source.name} is larger than {MAX_FILE_BYTES // 1024} KiB")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _extract(archive: Path, into: Path, limits: ZipLimits) -> Path:
    """Extract a zip safely: no absolute paths, no '..', no links; its members counted and their declared sizes
    summed before anything is extracted."""
    too_many = f"the zip holds more than {limits.members} files and folders"
    try:
        if _central_entries(archive, limits.members) > limits.members:
            raise SubmissionError(too_many)  # before zipfile reads each entry of its central directory in Python
        with zipfile.ZipFile(archive) as bundle:
            members = bundle.infolist()
            if len(members) > limits.members:
                raise SubmissionError(too_many)
            if sum(member.file_size for member in members) > limits.bytes:
                raise SubmissionError(f"the zip's files hold more than {limits.bytes / 2**20:g} MiB uncompressed")
            for member in members:
                name = member.filename.replace("\\", "/")  # zips made on Windows may use backslashes
                parts = Path(name).parts
                if name.startswith(("/", "\\")) or ".." in parts or ":" in name:
                    raise SubmissionError(f"the zip holds an unsafe path: {name}")
                if stat.S_ISLNK(member.external_attr >> 16):
                    continue
                target = into.joinpath(*parts)
                if member.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with bundle.open(member) as data, target.open("wb") as out:
                    shutil.copyfileobj(data, out)
    except SubmissionError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, lzma.LZMAError, EOFError, OSError,
            RuntimeError, NotImplementedError, ValueError) as error:
        raise SubmissionError(f"the zip cannot be read ({error})") from None
    into.mkdir(parents=True, exist_ok=True)
    return into


def _central_entries(archive: Path, stop: int) -> int:
    """How many central-directory signatures the archive holds (at least its number of members), counted in blocks
    without parsing, stopping once past stop."""
    count, carry = 0, b""
    with archive.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            data = carry + block
            count += data.count(CENTRAL_ENTRY)
            if count > stop:
                break
            carry = data[-(len(CENTRAL_ENTRY) - 1):]  # a signature cut by the block's end is counted in the next
    return count
