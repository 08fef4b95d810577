"""`--shard i/n`: a deterministic slice of a class, and the shard.json that lets `merge` put slices together."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..submissions import Submission

MANIFEST = "shard.json"
"""Written beside grades.csv by a sharded run: which slice it is and the whole class in order."""


@dataclass(frozen=True)
class Shard:
    """Slice `index` (counted from 1) of `count`: the students whose name hashes to it."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """Read "i/n" with 1 <= i <= n; ValueError with a sentence otherwise."""
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
        if not match:
            raise ValueError(f"--shard {text!r}: write it as i/n, e.g. 2/4")
        index, count = int(match.group(1)), int(match.group(2))
        if not 1 <= index <= count:
            raise ValueError(f"--shard {text}: i must be between 1 and n")
        return cls(index, count)

    def holds(self, student: str) -> bool:
        """Whether this slice grades the student: by a hash of the name, so a student's slice never depends
        on who else is in the class (two machines that cloned the class a minute apart still agree)."""
        digest = hashlib.sha256(student.encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") % self.count == self.index - 1

    def select(self, submissions: list[Submission]) -> list[Submission]:
        """This slice's submissions, in class order."""
        return [submission for submission in submissions if self.holds(submission.student)]

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def write_manifest(out: Path, shard: Shard, everyone: list[Submission]) -> None:
    """OUT/shard.json: the slice, the whole class in grading order, and the students this slice graded."""
    out.mkdir(parents=True, exist_ok=True)
    document = {"shard": shard.index, "of": shard.count, "class": [s.student for s in everyone],
                "students": [s.student for s in shard.select(everyone)]}
    (out / MANIFEST).write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
