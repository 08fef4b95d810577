"""`war-grader similarity`: read a class as `grade` reads it, compare its students' own code, write the findings.

Each student's package is copied as for grading (grader.submissions.prepare: a zip extracted within its limits,
a Classroom clone at the commit --at or --latest chooses) and only its code is read: the student's Part E tests
and the public test files stay out, and nothing is run. Students are compared with one another, with the
instructor's reference (a leaked solution) and with each past class given (one way: the current student's code
found there). DIR/similarity.json and DIR/similarity.html are the instructor's alone.
"""

from __future__ import annotations

import importlib.util
import io
import json
import tempfile
import tokenize
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterable

from ..commits import choose_commits
from ..config import load_config
from ..late import name_students, own_deadline
from ..results import write_atomically
from ..submissions import (SIMILARITY_HTML, SIMILARITY_JSON, Submission, SubmissionError, UsageError, ZipLimits,
                           find_submissions, is_test_file, prepare)
from . import compare, fingerprints
from .compare import Match, Own
from .findings import LISTED_FLOOR, MAX_LISTED, REFERENCE, Code, NotCompared, SimilarityReport

MAX_BYTES = 4 * 2**20
"""Most bytes of code read from one student (their files in path order; grading copies up to 200 MiB): a hostile
submission costs no more time or memory than this."""

Progress = Callable[[int, int, str], None]
"""Hears each student read: how many so far, of how many, and who."""


def similarity_run(*, paths: list[Path], out: Path, past: tuple[Path, ...] = (), config_path: Path | None = None,
                   at: datetime | None = None, latest: bool = False,
                   progress: Progress = lambda done, total, name: None) -> SimilarityReport:
    """Compare the class at paths (and against the reference and each past class), then write
    OUT/similarity.json and OUT/similarity.html; UsageError (one line) for what the user can fix."""
    report = compare_class(paths=paths, out=out, past=past, config_path=config_path, at=at, latest=latest,
                           progress=progress)
    write_findings(report, out)
    return report


def compare_class(*, paths: list[Path], out: Path | None = None, past: tuple[Path, ...] = (),
                  config_path: Path | None = None, at: datetime | None = None, latest: bool = False,
                  progress: Progress = lambda done, total, name: None) -> SimilarityReport:
    """The findings for the class at paths, written nowhere."""
    config = load_config(config_path)
    found = find_submissions(paths, exclude=(out,) if out is not None else ())
    submissions = found.submissions
    said = [f"skipped {line}" for line in found.skipped]
    notes: list[str] = []
    policy = config.late
    if policy is not None:
        policy, named = name_students(policy, [s.student for s in submissions], whole_class=len(submissions) > 1)
        said += named
    submissions, chosen = choose_commits(submissions, at=at, latest=latest,
                                         own_deadline=lambda student, moment: own_deadline(policy, student, moment))
    said += chosen
    starter = _package_prints("starter")
    read: list[tuple[str, dict[str, str], list[fingerprints.Print]]] = []
    not_compared: list[NotCompared] = []
    past_classes = _past_classes(past, out, paths)
    total = len(submissions) + sum(len(students) for _, students in past_classes)
    done = [0]

    def tick(name: str) -> None:
        done[0] += 1
        progress(done[0], total, name)

    for submission in submissions:
        files, problem = _read(submission, config.zip_limits)
        tick(submission.student)
        if problem:
            not_compared.append(NotCompared(submission.student, problem))
            continue
        prints = fingerprints.fingerprint(files)
        if not any(item.hash not in starter for item in prints):
            not_compared.append(NotCompared(submission.student, "nothing of its own: only the starter's code"))
            continue
        read.append((submission.student, files, prints))
    class_common = compare.common([frozenset(item.hash for item in prints) - starter for _, _, prints in read])
    discounted = starter | class_common
    code = {name: Code(name, files, Own(name, compare.by_hash(prints, discounted))) for name, files, prints in read}
    students = sorted(code)
    if len(submissions) <= 1:
        notes.append("a class of one: no pair to compare (the reference and past classes are still compared)")
    elif len(students) <= 1:
        notes.append(f"{len(students)} of {len(submissions)} students could be compared: no pair to compare")
    owns = [code[name].own for name in students]
    reaching = sum(score >= LISTED_FLOOR for score, _, _ in compare.scores(owns))
    pairs = compare.pairs(owns, floor=LISTED_FLOOR, limit=MAX_LISTED)
    if reaching > len(pairs):
        notes.append(f"{reaching - len(pairs)} more pairs at {LISTED_FLOOR:g} or more are left out, each at "
                     f"{pairs[-1].score:g} or less: the {len(pairs)} closest are listed")
    reference_files = _package_files("reference")
    reference = Code(REFERENCE, reference_files,
                     Own(REFERENCE, compare.by_hash(fingerprints.fingerprint(reference_files), discounted)))
    closest_to_reference = _ranked(compare.one_way(code[name].own, [reference.own]) for name in students)
    past_code = _past_code(past_classes, config.zip_limits, starter, discounted, tick)
    others = [past_code[name].own for name in sorted(past_code)]
    closest_past = _ranked(compare.one_way(code[name].own, others) for name in students) if others else []
    everyone = {**code, REFERENCE: reference, **past_code}
    return SimilarityReport(students, pairs, closest_to_reference, closest_past,
                            sorted(not_compared, key=lambda item: item.student), notes, said, everyone)


def _past_code(classes: list[tuple[str, list[Submission]]], limits: ZipLimits, starter: frozenset[int],
               discounted: frozenset[int], tick: Callable[[str], None]) -> dict[str, Code]:
    """Every readable past student's code ("<class>/<student>"), less the starter, this class's common code and
    each past class's own."""
    past_code: dict[str, Code] = {}
    for label, students in classes:
        read: list[tuple[str, dict[str, str], list[fingerprints.Print]]] = []
        for submission in students:
            files, problem = _read(submission, limits)
            tick(f"{label}/{submission.student}")
            if not problem:
                read.append((f"{label}/{submission.student}", files, fingerprints.fingerprint(files)))
        own_common = compare.common([frozenset(item.hash for item in prints) - starter for _, _, prints in read])
        for name, files, prints in read:
            past_code[name] = Code(name, files, Own(name, compare.by_hash(prints, discounted | own_common)))
    return past_code


def _ranked(matches: Iterable[Match | None]) -> list[Match]:
    """The matches found (None left out), closest first, then by student."""
    found = [match for match in matches if match is not None and match.score > 0]
    return sorted(found, key=lambda match: (-match.score, match.a, match.b))


def _past_classes(paths: tuple[Path, ...], out: Path | None, current: list[Path]) -> list[tuple[str, list[Submission]]]:
    """Each past class read as `grade` reads a class, labelled by its folder's name (a suffix -2... for a name
    given twice); UsageError for a past class that is the current class itself."""
    classes: list[tuple[str, list[Submission]]] = []
    labels: set[str] = set()
    for path in paths:
        if any(path.resolve() == given.resolve() for given in current):
            raise UsageError(f"--past {path}: that is the class being compared; give a past class's folder")
        label, count = path.resolve().name or "past", 1
        while label in labels:
            count += 1
            label = f"{path.resolve().name or 'past'}-{count}"
        labels.add(label)
        found = find_submissions([path], exclude=(out,) if out is not None else ())
        classes.append((label, found.submissions))
    return classes


def _read(submission: Submission, limits: ZipLimits) -> tuple[dict[str, str], str]:
    """The student's package files (path to text) as grading copies them, tests left out; or why none can be
    read."""
    try:
        with tempfile.TemporaryDirectory(prefix="war-grader-similarity-") as scratch:
            copy = prepare(submission, Path(scratch), limits)
            files, left = {}, MAX_BYTES
            for name in sorted(copy.files):
                if left > 0 and not is_test_file(name):
                    with (copy.root / name).open("rb") as handle:
                        data = handle.read(left)
                    files[name], left = _text(data), left - len(data)
    except SubmissionError as error:
        return {}, f"unreadable: {error}"
    except OSError as error:
        return {}, f"unreadable: {error.strerror or error}"
    if not any(text.strip() for text in files.values()):
        return {}, "empty: no Python code in its package"
    return files, ""


def _text(data: bytes) -> str:
    """A source file's text, decoded as Python would (its coding cookie, else UTF-8), undecodable bytes replaced."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding, errors="replace")
    except (SyntaxError, LookupError):
        return data.decode("utf-8", errors="replace")


def _package_files(name: str) -> dict[str, str]:
    """The code of one of the assignment's packages (starter, reference), tests left out, by path within it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(f"the {name} package is not installed beside war-grader")
    root = Path(next(iter(spec.submodule_search_locations)))
    return {f"{name}/{path.relative_to(root).as_posix()}": _text(path.read_bytes())
            for path in sorted(root.rglob("*.py")) if "__pycache__" not in path.parts and not is_test_file(path.name)}


def _package_prints(name: str) -> frozenset[int]:
    """The fingerprints of one of the assignment's packages."""
    return frozenset(item.hash for item in fingerprints.fingerprint(_package_files(name)))


def write_findings(report: SimilarityReport, out: Path) -> list[Path]:
    """OUT/similarity.json and OUT/similarity.html, each written atomically; UsageError if they cannot be."""
    from .page import render_page  # the page's template is read only when a page is written

    try:
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out {out}: not a folder")
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name, text in ((SIMILARITY_JSON, findings_json(report)), (SIMILARITY_HTML, render_page(report))):
            write_atomically(out / name, text.encode("utf-8", errors="replace"))
            written.append(out / name)
    except OSError as error:
        raise UsageError(f"--out {out}: cannot write {error.filename or out} ({error.strerror or error})") from None
    return written


def findings_json(report: SimilarityReport) -> str:
    """similarity.json's text: sorted keys, two-space indent, a final newline."""
    return json.dumps(report.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

