"""The corpus of sample submissions, written out from its descriptions in tests/submissions/ (issue 30).

Each submission is described as edits of a base, as the chaffs are edits of the wheat (grader/chaffs.py):
tests/submissions/edits/<name>.diff names the base on its first line ("base: wheat", "base: starter",
"base: none" or another submission's name), may remove files or copy files in whole (one of the project's, or
one that another submission wrote), and ends in a unified diff; the files a submission writes whole (a
hand-written module, an attack's helper, a suite of tests) are in tests/submissions/written/<name>/, laid over
the base before the diff applies. The tests read
the corpus through `corpus()`, written once a process into a temporary folder; `python tests/corpus.py OUT`
writes it for a grading run of your own (README.md's main command).

These files are data. Never import or run the generated packages from the test process: several are hostile.
"""

from __future__ import annotations

import argparse
import atexit
import difflib
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESCRIBED = Path(__file__).resolve().with_name("submissions")
"""The descriptions: edits/, written/, the rules.py the corpus's students received, and corpus.json's pins."""

EDITS = DESCRIBED / "edits"
WRITTEN = DESCRIBED / "written"
PINS = DESCRIBED / "corpus.json"

PINNED: dict[str, dict[str, object]] = json.loads(PINS.read_text(encoding="utf-8"))
"""corpus.json: each corpus submission's pinned grade, by name (one dict a process: update_pins changes it in place)."""

UPDATE_PINS = "WAR_GRADER_UPDATE_PINS"
"""Set to 1, the session's grading of the whole corpus (tests/conftest.py's graded_corpus) rewrites corpus.json's
pins from what it graded, before the tests compare against them."""

OLDER_STARTER_RULES = DESCRIBED / "older_starter_rules.py"
"""The rules.py of an older starter (it shipped the deck, deal and collect options and the presets), which the
corpus's students received whole; the issue 18 submissions and the untouched starter carry today's."""

BASES = ("wheat", "starter", "none")
"""The bases that are not submissions (base_files)."""

WHEAT_MODULES = ("__init__.py", "structures.py", "cards.py", "game.py")
STARTER_FILES = ("__init__.py", "structures.py", "cards.py", "rules.py", "game.py", "test_war.py")


class CorpusError(Exception):
    """A description that cannot be applied to its base: it names the submission, the file and the place."""


def base_files(base: str) -> dict[str, bytes]:
    """The files of a named base, by path inside the submission: "wheat" (grader/wheat's modules with the
    older starter's rules.py), "starter" (the package as students receive it, skeleton test_war.py included)
    or "none" (an empty folder)."""
    if base == "wheat":
        files = {f"starter/{name}": (ROOT / "grader" / "wheat" / name).read_bytes() for name in WHEAT_MODULES}
        files["starter/rules.py"] = OLDER_STARTER_RULES.read_bytes()
        return files
    if base == "starter":
        return {f"starter/{name}": (ROOT / "starter" / name).read_bytes() for name in STARTER_FILES}
    if base == "none":
        return {}
    raise KeyError(base)


@dataclass(frozen=True)
class Description:
    """One submission as edits of its base."""

    name: str
    """The submission's folder name."""
    base: str
    """"wheat", "starter", "none" or another submission's name."""
    removes: tuple[str, ...]
    """Paths of the base's files the submission does not have."""
    copies: tuple[tuple[str, str], ...]
    """(path in the submission, source) of each file copied in whole: from this project when the source is a path
    (grader/part_e/model/test_war.py), else the same file of the submission the source names."""
    diff: str
    """A unified diff applied last (after written/<name>/ is laid over the base)."""


HEADER = re.compile(r"(base|remove|copy): (.+)")


def read_description(name: str) -> Description:
    """Parse tests/submissions/edits/<name>.diff: its header lines, then the diff."""
    lines = (EDITS / f"{name}.diff").read_text(encoding="utf-8").splitlines(keepends=True)
    base, removes, copies = None, [], []
    at = 0
    while at < len(lines) and not lines[at].startswith("--- "):
        line = lines[at].rstrip("\n")
        at += 1
        if not line.strip():
            continue
        match = HEADER.fullmatch(line)
        if not match:
            raise CorpusError(f"{name}.diff: line {at} is neither base:, remove:, copy: nor a diff: {line!r}")
        key, value = match.groups()
        if key == "base":
            base = value
        elif key == "remove":
            removes.append(value)
        else:
            path, _, source = value.partition(" from ")
            copies.append((path, source))
    if base is None:
        raise CorpusError(f"{name}.diff names no base")
    return Description(name, base, tuple(removes), tuple(copies), "".join(lines[at:]))


def apply_diff(files: dict[str, bytes], diff: str, name: str) -> None:
    """Apply a unified diff to files in place: each hunk's old lines must stand in the file, at the line it says
    (shifted by the earlier hunks) or, failing that, at exactly one other place; no fuzz."""
    lines = diff.splitlines(keepends=True)
    at = 0
    while at < len(lines):
        if not lines[at].startswith("--- "):
            raise CorpusError(f"{name}.diff: expected a '--- a/FILE' line, found {lines[at]!r}")
        path = lines[at + 1].rstrip("\n").removeprefix("+++ b/")
        at += 2
        if path not in files:
            raise CorpusError(f"{name}.diff edits {path}, which its base does not have")
        text = files[path].decode("utf-8").splitlines(keepends=True)
        shift = 0
        while at < len(lines) and lines[at].startswith("@@ "):
            start = int(re.match(r"@@ -(\d+)", lines[at]).group(1))
            at += 1
            old, new = [], []
            while at < len(lines) and not lines[at].startswith(("@@ ", "--- ")):
                line = lines[at] if lines[at] != "\n" else " \n"  # an editor may strip a blank context line
                at += 1
                if line[0] in " -":
                    old.append(line[1:])
                if line[0] in " +":
                    new.append(line[1:])
            where = _find(text, old, max(start - 1, 0) + shift if old else start + shift)
            if where is None:
                raise CorpusError(f"{name}.diff: a hunk of {path} at line {start} does not match its base")
            text[where:where + len(old)] = new
            shift += len(new) - len(old)
        files[path] = "".join(text).encode("utf-8")


def _find(text: list[str], old: list[str], expected: int) -> int | None:
    """Where old stands in text: at expected if it does, else its only place, else None."""
    if text[expected:expected + len(old)] == old:
        return expected
    places = [i for i in range(len(text) - len(old) + 1) if text[i:i + len(old)] == old]
    return places[0] if len(places) == 1 else None


def names() -> list[str]:
    """Every corpus submission's name, as corpus.json pins them."""
    return sorted(PINNED)


def build(name: str, built: dict[str, dict[str, bytes]] | None = None, seen: tuple[str, ...] = ()) -> dict[str, bytes]:
    """One submission's files, by path: its base's, with written/<name>/ laid over them, then its edits."""
    built = {} if built is None else built
    if name in built:
        return built[name]
    if name in seen:
        raise CorpusError(f"{name}'s base leads back to itself: {' -> '.join((*seen, name))}")
    description = read_description(name)
    if description.base in BASES:
        files = base_files(description.base)
    else:
        files = dict(build(description.base, built, (*seen, name)))
    for path in description.removes:
        if files.pop(path, None) is None:
            raise CorpusError(f"{name}.diff removes {path}, which its base does not have")
    for path, source in description.copies:  # a project file (a path), or the same file of another submission
        files[path] = (ROOT / source).read_bytes() if "/" in source else build(source, built, (*seen, name))[path]
    own = WRITTEN / name
    if own.is_dir():
        files.update({file.relative_to(own).as_posix(): file.read_bytes()
                      for file in sorted(own.rglob("*")) if file.is_file()})
    apply_diff(files, description.diff, name)
    built[name] = files
    return files


def write_corpus(folder: Path) -> Path:
    """Write every corpus submission into folder/<name>/ (folder made if need be) and return folder."""
    built: dict[str, dict[str, bytes]] = {}
    for name in names():
        for path, data in build(name, built).items():
            target = folder / name / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return folder


_written: Path | None = None


def corpus() -> Path:
    """The corpus written out, once a process, into a temporary folder removed when the process ends."""
    global _written  # noqa: PLW0603 - one copy a process, as a session fixture would hold it
    if _written is None:
        folder = Path(tempfile.mkdtemp(prefix="war-grader-corpus-src-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _written = write_corpus(folder / "submissions")
    return _written


def differences(folder: Path, expected: Path) -> list[str]:
    """Each path that differs between the submissions of two corpus folders, byte for byte (a folder's loose
    files, such as tests/submissions' README.md and corpus.json, are not submissions and are left out)."""
    def files(root: Path) -> dict[str, bytes]:
        return {path.relative_to(root).as_posix(): path.read_bytes() for path in root.rglob("*")
                if path.is_file() and path.parent != root and "__pycache__" not in path.parts}
    ours, theirs = files(folder), files(expected)
    return ([f"only generated: {path}" for path in sorted(ours.keys() - theirs.keys())]
            + [f"only in {expected}: {path}" for path in sorted(theirs.keys() - ours.keys())]
            + [f"differs: {path}" for path in sorted(ours.keys() & theirs.keys()) if ours[path] != theirs[path]])


def update_pins(graded: Path) -> list[str]:
    """Rewrite corpus.json's exact pins (score, outcome, and part_e where pinned or not 0) from a grading of the
    whole corpus under the tests' settings (graded/<name>/results.json), in the file and in PINNED; an attack
    pinned at most at its twin (at_most_twin) keeps its nulls. Returns one line for each pin that moved."""
    from grader.results import read_results  # noqa: PLC0415 - only the update needs the grader

    moved = []
    for name, entry in PINNED.items():
        if entry.get("at_most_twin"):
            continue
        result = read_results(graded / name / "results.json")
        part_e = next(category.score for category in result.categories if category.id == "student_tests")
        new = {"score": result.score, "outcome": result.outcome}
        if "part_e" in entry or part_e != 0:
            new["part_e"] = part_e
        for key, value in new.items():
            if entry.get(key) != value:
                moved.append(f"{name}: {key} {entry.get(key)} -> {value}")
                entry[key] = value
    PINS.write_text(json.dumps(PINNED, indent=2) + "\n", encoding="utf-8")
    return moved


def describe(folder: Path, base: str) -> Path:
    """Describe the package in folder (its name the submission's) as edits of base: edits/<name>.diff and
    written/<name>/. A file the base has goes in as a diff when the diff is shorter than the file, else whole; the
    description is then written out again and must give the folder back byte for byte."""
    name = folder.name
    old = base_files(base) if base in BASES else build(base)
    new = {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
           if path.is_file() and "__pycache__" not in path.parts}
    header, diff = [f"base: {base}\n", *(f"remove: {path}\n" for path in sorted(old.keys() - new.keys()))], []
    shutil.rmtree(WRITTEN / name, ignore_errors=True)
    for path, data in new.items():
        if old.get(path) == data:
            continue
        text = data.decode("utf-8")
        hunks = []
        if path in old:
            hunks = list(difflib.unified_diff(old[path].decode("utf-8").splitlines(keepends=True),
                                              text.splitlines(keepends=True), f"a/{path}", f"b/{path}"))
        if hunks and len(hunks) < text.count("\n") and text.endswith("\n"):
            diff += hunks
        else:
            (WRITTEN / name / path).parent.mkdir(parents=True, exist_ok=True)
            (WRITTEN / name / path).write_bytes(data)
    (EDITS / f"{name}.diff").write_text("".join(header) + ("\n" + "".join(diff) if diff else ""), encoding="utf-8")
    if build(name) != new:
        raise CorpusError(f"{name}: its description does not give {folder} back")
    return EDITS / f"{name}.diff"


def main(argv: list[str] | None = None) -> int:
    """Write the corpus into OUT (with --compare DIR, list every file that differs from DIR's); or, with --describe,
    describe a new package as edits of a base."""
    parser = argparse.ArgumentParser(prog="python tests/corpus.py", description=main.__doc__)
    parser.add_argument("out", type=Path, nargs="?", help="the folder to write the submissions into (made if need be)")
    parser.add_argument("--compare", type=Path, metavar="DIR", help="a corpus folder the written one must equal")
    parser.add_argument("--describe", type=Path, metavar="FOLDER", help="a package to describe (its folder name is "
                        "the submission's); add its corpus.json entry yourself")
    parser.add_argument("--base", default="wheat", help="with --describe: wheat, starter, none or a submission's name")
    args = parser.parse_args(argv)
    if args.describe:
        print(f"wrote {describe(args.describe, args.base).relative_to(ROOT)}")
        return 0
    if args.out is None:
        parser.error("give OUT, or --describe FOLDER")
    write_corpus(args.out)
    print(f"wrote {len(names())} submissions into {args.out}")
    if args.compare:
        found = differences(args.out, args.compare)
        print("\n".join(found) or f"identical to {args.compare}, byte for byte")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
