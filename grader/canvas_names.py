"""The file names of Canvas's "Download Submissions" zip, which say who submitted each file and whether Canvas
marked it late.

Canvas names each file `<name>_<user id>_<submission id>_<file the student uploaded>`, with `_LATE` after the
name when the submission came after the due date: `smithjohn_123456_7890123_war.zip`,
`smithjohn_LATE_123456_7890123_war.zip` (the name is the student's sortable name, lower case, without spaces
or punctuation; a file uploaded twice under one name gets `-1` before its extension). The name carries no time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PATTERN = re.compile(r"(?P<student>[^\W_]+(?:-[^\W_]+)*)(?P<late>_LATE)?_(?P<user>\d+)_(?P<submission>\d+)_"
                     r"(?P<file>.+)")
"""A Canvas download's file name: student, _LATE or not, the two numeric ids, the uploaded file's name."""


@dataclass(frozen=True)
class CanvasName:
    """What a Canvas file name says."""

    student: str
    """The name part: the same for a student's late and on-time files."""
    late: bool
    """Canvas marked the submission late (_LATE_)."""
    uploaded: str
    """The file name the student uploaded."""

    def provenance(self, name: str) -> str:
        """The report's sentence about the file called name."""
        if self.late:
            return f"From Canvas's bulk download ({name}): Canvas marked it late, without saying when it came."
        return f"From Canvas's bulk download ({name}): Canvas did not mark it late."


def read_canvas_name(name: str) -> CanvasName | None:
    """What the file or folder name says, if it is a Canvas download's; None for any other name."""
    match = PATTERN.fullmatch(name)
    if not match:
        return None
    return CanvasName(match["student"], bool(match["late"]), match["file"])
