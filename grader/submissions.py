"""Finding submissions on disk and making each one's private copy: only its .py files, nothing else."""

from __future__ import annotations

import hashlib
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path

SKIPPED_NAMES = frozenset({"conftest.py", "sitecustomize.py", "usercustomize.py", "setup.py"})
"""Python files never copied: they would configure pytest or Python rather than play War."""

MAX_FILES = 200
"""Most .py files copied from one submission."""

MAX_FILE_BYTES = 1024 * 1024
"""Largest .py file copied."""

MAX_ZIP_BYTES = 20 * 1024 * 1024
"""Most bytes extracted from one zip."""

DEFAULT_PACKAGE = "starter"
"""The name a package gets when its own folder name cannot be used (it is the student's folder)."""


class SubmissionError(ValueError):
    """The submission cannot be graded as it stands (no package, bad zip): the student's problem."""


class UsageError(ValueError):
    """A path given on the command line is not a submission or a folder of them."""


@dataclass(frozen=True)
class Submission:
    """One student's work as found on disk."""

    student: str
    """The student's name: the folder, zip or file name without its extension."""
    path: Path
    """The folder, .zip or .py file."""


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


def discover(paths: list[Path]) -> list[Submission]:
    """The submissions at paths: each path is one submission, or a folder whose child folders and zips are."""
    found: list[Submission] = []
    for path in paths:
        if not path.exists():
            raise UsageError(f"{path}: no such file or folder")
        if path.is_file() and path.suffix not in (".zip", ".py"):
            raise UsageError(f"{path}: a submission is a folder, a .zip or a .py file")
        if path.is_file() or _looks_like_one_submission(path):
            found.append(Submission(_name(path), path))
            continue
        children = sorted(child for child in path.iterdir()
                          if not child.name.startswith((".", "_"))
                          and (child.is_dir() or child.suffix == ".zip") and not child.is_symlink())
        if not children:
            raise UsageError(f"{path}: holds no submission (no package, .py file, or folder of submissions)")
        found.extend(Submission(_name(child), child) for child in children)
    return _unique(found)


def _looks_like_one_submission(folder: Path) -> bool:
    """A folder is one submission if it holds a package or .py files we would copy (not just a conftest.py)."""
    return any((child.suffix == ".py" and child.name not in SKIPPED_NAMES)
               or (child.is_dir() and (child / "__init__.py").is_file())
               for child in folder.iterdir())


def _name(path: Path) -> str:
    name = path.name[: -len(path.suffix)] if path.suffix in (".zip", ".py") else path.name
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "student"


def _unique(found: list[Submission]) -> list[Submission]:
    seen: dict[str, int] = {}
    result = []
    for submission in found:
        count = seen.get(submission.student, 0)
        seen[submission.student] = count + 1
        name = submission.student if count == 0 else f"{submission.student}-{count + 1}"
        result.append(Submission(name, submission.path))
    return result


def submission_hash(path: Path) -> str:
    """sha256 of a file, or of a folder's regular files (relative path and content, sorted)."""
    digest = hashlib.sha256()
    if path.is_file():
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest()
    for file in sorted(p for p in path.rglob("*") if p.is_file() and not p.is_symlink()
                       and "__pycache__" not in p.parts):
        digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def prepare(submission: Submission, into: Path) -> PreparedCopy:
    """Copy the submission's Python files into `into`/root; SubmissionError if there is nothing to grade."""
    source = submission.path
    if source.suffix == ".zip" and source.is_file():
        source = _extract(source, into / "unzipped")
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
                          and (child / "__init__.py").is_file() and child.name.isidentifier())
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
    """Copy the test_*.py files beside the package and the .py files of a tests/ folder there (but not the public
    tests/contract/); the test files' paths."""
    found = [child for child in sorted(folder.glob("test_*.py"))]
    if (folder / "tests").is_dir() and not (folder / "tests").is_symlink():
        # tests/contract/ is the course's public contract, handed out with the starter: not the student's tests
        found += sorted(path for path in (folder / "tests").rglob("*.py") if "__pycache__" not in path.parts
                        and path.relative_to(folder).parts[:2] != ("tests", "contract"))
    copied: list[str] = []
    for file in found:
        relative = file.relative_to(folder)
        if (file.name in SKIPPED_NAMES or any(part.startswith(".") for part in relative.parts)
                or _behind_symlink(folder, file) or not file.is_file()):
            continue
        if len(copied) >= MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES} test files")
        _copy_file(file, root / relative)
        copied.append(relative.as_posix())
    return tuple(path for path in copied if is_test_file(path))


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
                or _behind_symlink(package, file)):
            continue
        if len(copied) >= MAX_FILES:
            raise SubmissionError(f"more than {MAX_FILES} .py files")
        _copy_file(file, target / relative)
        copied.append(relative.as_posix())
    if "__init__.py" not in copied:
        raise SubmissionError("the package has no __init__.py")
    return copied


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


def _extract(archive: Path, into: Path) -> Path:
    """Extract a zip safely: no absolute paths, no '..', no links, bounded size."""
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = bundle.infolist()
            if sum(member.file_size for member in members) > MAX_ZIP_BYTES:
                raise SubmissionError(f"the zip holds more than {MAX_ZIP_BYTES // 2**20} MiB")
            for member in members:
                name = member.filename
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
    except (zipfile.BadZipFile, OSError, RuntimeError) as error:
        raise SubmissionError(f"the zip cannot be read ({error})") from None
    into.mkdir(parents=True, exist_ok=True)
    return into
