"""`war-grader merge`: the outputs of every shard of one class, read back as one class in grading order."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from ..report.html import CHANGES
from ..results import GradeResult, read_results
from .changes import Change, diff, previous, read_changes, write_changes
from .class_run import BatchReport
from .output import render, write_outputs
from ..hold import read_hold
from .class_run import held
from .shards import MANIFEST
from ..errors import UserError


class MergeError(UserError, ValueError):
    """The shard outputs do not make one whole class (one missing, two alike, different classes): one line."""


def merge(folders: list[Path], out: Path, *, reveal: bool = False) -> list[GradeResult]:
    """Merge the shard folders into out: every results.json, grades.csv and the student view; the results."""
    return merge_run(folders, out, reveal=reveal).results


def merge_run(folders: list[Path], out: Path, *, reveal: bool = False, hold_path: Path | None = None) -> BatchReport:
    """Merge the shard folders into out, and OUT/changes.csv for the scores that moved.

    A student's change is counted once: against the result out already held for them (the class's last merged
    grading), else as the changes.csv of the shard that graded them says (a shard folder kept between runs).
    out gets a changes.csv when either held an earlier result for someone, and loses an old one otherwise.
    `reveal` renders the student view with hidden tests in full ([reveal] after has passed). `hold_path` (hold.csv)
    names students whose grades.csv row is left without a score.
    """
    hold = read_hold(hold_path) if hold_path is not None else None
    results = merge_shards(folders)
    befores = {result.student: before for result in results
               if (before := previous(out, result.student)) is not None}
    by_shard: dict[str, list[str]] = {}
    for folder in folders:
        by_shard.update(read_changes(folder / CHANGES))
    changes: list[Change] = []
    regraded = 0
    for result in results:
        if result.student in befores:
            regraded += 1
            change = diff(befores[result.student], result)
            if change is not None:
                changes.append(change)
        elif result.student in by_shard:
            regraded += 1
            _, was, now, rules = by_shard[result.student]
            changes.append(Change(result.student, float(was), float(now), [rules] if rules else []))
    write_outputs(results, out, hold)
    if regraded:
        write_changes(out, changes)
    else:
        with contextlib.suppress(FileNotFoundError):
            (out / CHANGES).unlink()
    render(out, "student", reveal=reveal)
    return held(BatchReport(results, changes=changes, regraded=regraded, revealed=reveal), hold)


def merge_shards(folders: list[Path]) -> list[GradeResult]:
    """Every student's result from the shard folders, in the order one unsharded run would have graded them."""
    manifests = [_manifest(folder) for folder in folders]
    count, everyone = manifests[0]["of"], manifests[0]["class"]
    seen: dict[int, Path] = {}
    for folder, manifest in zip(folders, manifests):
        if manifest["of"] != count or manifest["class"] != everyone:
            raise MergeError(f"{folder}: shard {manifest['shard']}/{manifest['of']} of a different class than "
                             f"{folders[0]} (was the class cloned again between the shards?)")
        if manifest["shard"] in seen:
            raise MergeError(f"{folder} and {seen[manifest['shard']]} are both shard {manifest['shard']}/{count}")
        seen[manifest["shard"]] = folder
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise MergeError(f"shard{'s' * (len(missing) > 1)} {', '.join(f'{i}/{count}' for i in missing)} missing")
    found: dict[str, GradeResult] = {}
    for folder, manifest in zip(folders, manifests):
        for student in manifest["students"]:
            path = folder / student / "results.json"
            try:
                found[student] = read_results(path)
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise MergeError(f"{path}: cannot read this shard's result for {student}: {error}") from None
    return [found[student] for student in everyone]


def _manifest(folder: Path) -> dict[str, Any]:
    """A shard folder's shard.json, checked."""
    path = folder / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MergeError(f"{folder}: no {MANIFEST}; is it the --out of a `war-grader grade --shard i/n` run?") from None
    except (OSError, ValueError) as error:
        raise MergeError(f"{path}: unreadable: {error}") from None
    if not (isinstance(manifest, dict) and isinstance(manifest.get("shard"), int) and isinstance(manifest.get("of"), int)
            and isinstance(manifest.get("class"), list) and isinstance(manifest.get("students"), list)):
        raise MergeError(f"{path}: not a shard manifest written by war-grader")
    return manifest
