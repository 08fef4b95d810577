"""`war-grader merge`: the outputs of every shard of one class, read back as one class in grading order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..results import GradeResult, read_results
from .output import render, write_outputs
from .shards import MANIFEST


class MergeError(ValueError):
    """The shard outputs do not make one whole class (one missing, two alike, different classes): one line."""


def merge(folders: list[Path], out: Path) -> list[GradeResult]:
    """Merge the shard folders into out: every results.json, grades.csv and the student view; the results."""
    results = merge_shards(folders)
    write_outputs(results, out)
    render(out, "student")
    return results


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
