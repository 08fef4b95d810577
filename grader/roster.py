"""A class roster (`id,name,email,github,section`) and how graded submissions map to its students.

A submission is named by its folder, zip or file (GradeResult.student, made of letters, digits, `.`, `_` and
`-`: grader.submissions turns anything else into `_`). It matches a roster student when its name equals, once
the student's field is written the same way and case aside, one of these, tried in this order:

1. the GitHub login (a Classroom clone folder is named by it),
2. the id,
3. the email address (a file named `a.smith@uni.edu.zip` is the submission `a.smith_uni.edu`),
4. the email's local part (`a.smith`),
5. the name (`Alice Smith` is the submission `Alice_Smith`),
6. the name as Canvas's bulk download writes it (its file `smithjohn_123456_7890123_war.zip` is the submission
   `smithjohn`, grader.canvas_names): the sortable name, "Smith, John" or, for a name written without a comma,
   its last word first, lower case, letters and digits only, hyphens aside on both sides,
7. the GitHub login at the end of a GitHub Classroom repository's name (`war-assignment-alice`, as
   Classroom names each student's repository `<prefix>-<login>`); where several logins end it (`lee` and
   `ann-lee` both end `war-ann-lee`), the longest.

The first kind of field some student has equal to the name decides. If that kind matches two students (two
students both named Alex Lee), the submission is refused, never guessed: it is reported unmatched, with the
students it could be. Two submissions matching one student are a conflict: that student is left out of the
gradebook files, so the gradebook keeps what it has until the instructor decides.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path
from .errors import UserError

TYPE_CHECKING = False
if TYPE_CHECKING:  # late.py imports this module, and results.py late.py
    from .results import GradeResult

HEADER = ("id", "name", "email", "github", "section")
"""The roster's columns, in this order (github and section may be empty)."""

KINDS = ("github login", "id", "email", "email's local part", "name", "Canvas download name")
"""The fields a submission's name is compared with, in the order they are tried."""

CANVAS_KIND = KINDS.index("Canvas download name")
"""The kind compared without hyphens on both sides (canvas_key)."""


class RosterError(UserError, ValueError):
    """The roster cannot be used (no header, a row without an id, two students with one id): one line."""


@dataclass(frozen=True)
class Student:
    """One row of the roster."""

    id: str
    name: str
    email: str
    github: str
    section: str
    line: int
    """The row's line in the roster file (the header is line 1)."""

    def keys(self) -> tuple[str, ...]:
        """This student's fields in KINDS order, each written as a submission's name would be ("" if empty)."""
        local = self.email.rpartition("@")[0]
        return (*(submission_key(value) for value in (self.github, self.id, self.email, local, self.name)),
                canvas_key(self.name))

    def label(self) -> str:
        """How summaries name the student: id and name."""
        return f"{self.id} {self.name}"


@dataclass(frozen=True)
class Roster:
    """A roster file's students, in file order."""

    path: Path
    students: list[Student]


@dataclass(frozen=True)
class Unmatched:
    """A submission that maps to no roster student, and why."""

    submission: str
    reason: str


@dataclass
class Matching:
    """How one batch's results map onto a roster."""

    results: dict[str, GradeResult] = field(default_factory=dict)
    """Each matched student's result, by student id."""
    conflicts: dict[str, list[str]] = field(default_factory=dict)
    """Students two or more submissions match (by student id): their submissions' names."""
    unmatched: list[Unmatched] = field(default_factory=list)
    """Submissions that match no student, or several at once."""
    missing: list[Student] = field(default_factory=list)
    """Roster students no submission matches."""


def submission_key(text: str) -> str:
    """text written as grader.submissions names a submission (its _name), then case-folded for comparison."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text.strip()).lstrip(".").rstrip("._").casefold()


def canvas_key(name: str) -> str:
    """The name Canvas's bulk download gives the student's files (grader.canvas_names), as submission_key writes
    it and without hyphens: "Smith, John" and "John Smith" are both smithjohn (Canvas sorts a name written without
    a comma by its last word)."""
    if "," in name:
        last, _, first = name.partition(",")
    else:
        first, _, last = name.strip().rpartition(" ")
    return submission_key("".join(char for char in last + first if char.isalnum())).replace("-", "")


def read_roster(path: Path) -> Roster:
    """The students of a roster CSV; RosterError naming the file, the line and the fix for anything wrong."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RosterError(f"--roster {path}: no such file") from None
    except UnicodeDecodeError:
        raise RosterError(f"{path}: not UTF-8 text; save the roster as CSV UTF-8") from None
    except OSError as error:
        raise RosterError(f"--roster {path}: cannot read it ({error.strerror or error})") from None
    reader = csv.reader(text.splitlines())
    try:
        rows = [(reader.line_num, _trimmed(row)) for row in reader]
    except csv.Error as error:
        raise RosterError(f"{path}, line {reader.line_num}: not CSV ({error})") from None
    wanted = ",".join(HEADER)
    if not rows or [cell.strip().casefold() for cell in rows[0][1]] != list(HEADER):
        found = ",".join(rows[0][1]) if rows else "nothing"
        raise RosterError(f"{path}, line 1: the header must be {wanted} (github and section may be empty), "
                          f"not {found[:80]!r}")
    students: list[Student] = []
    seen: dict[tuple[str, str], int] = {}
    for line, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(HEADER):
            raise RosterError(f"{path}, line {line}: {len(row)} fields, not {len(HEADER)} ({wanted}); quote a "
                              "field that holds a comma")
        id_, name, email, github, section = (cell.strip() for cell in row)
        student = Student(id_, name, email, github, section, line)
        for column in ("id", "name", "email"):
            if not getattr(student, column):
                raise RosterError(f"{path}, line {line}: no {column}; every student needs an id, a name and an "
                                  "email (github and section may be empty)")
        if student.email.count("@") != 1 or student.email.startswith("@"):
            raise RosterError(f"{path}, line {line}: {student.email!r} is not an email address; write it as "
                              "name@domain")
        for column in ("id", "github", "email"):
            value = getattr(student, column).casefold()
            if not value:
                continue
            if (column, value) in seen:
                raise RosterError(f"{path}, line {line}: {column} {getattr(student, column)!r} is also on line "
                                  f"{seen[column, value]}; list each student once, no two with one {column}")
            seen[column, value] = line
        students.append(student)
    if not students:
        raise RosterError(f"{path}: no students under the header; add one line per student ({wanted})")
    return Roster(path, students)


def _trimmed(row: list[str]) -> list[str]:
    """A row without the empty cells a spreadsheet may leave after the last column (`a,b,c,d,e,,`)."""
    while len(row) > len(HEADER) and not row[-1].strip():
        row = row[:-1]
    return row


def _classroom_login(name: str, keys: list[tuple[Student, tuple[str, ...]]]) -> Student | None:
    """The student whose GitHub login ends a Classroom repository's name (`<prefix>-<login>`), the longest such
    login if several do; None if none does, or if two logins of that length do."""
    ending = [(len(fields[0]), student) for student, fields in keys
              if fields[0] and name.endswith("-" + fields[0]) and len(name) > len(fields[0]) + 1]
    if not ending:
        return None
    longest = max(length for length, _ in ending)
    best = [student for length, student in ending if length == longest]
    return best[0] if len(best) == 1 else None


def find_student(roster: Roster, name: str) -> Student | None:
    """The one roster student a name designates, tried kind by kind as a submission's name is (its GitHub login,
    id, email, the email's local part, its name, Canvas's form of it); None for nobody, or for two students."""
    key = submission_key(name)
    keys = [(student, student.keys()) for student in roster.students]
    for kind in range(len(KINDS)):
        wanted = key.replace("-", "") if kind == CANVAS_KIND else key
        candidates = [student for student, fields in keys if fields[kind] and fields[kind] == wanted]
        if candidates:
            return candidates[0] if len(candidates) == 1 else None
    return None


def submissions_of(names: list[str], roster: Roster) -> dict[str, str]:
    """Each roster student's submission, by student id, among the submissions so named: only the students one
    submission matches (see match)."""
    return {student_id: result.student for student_id, result in match([_Named(name) for name in names],
                                                                        roster).results.items()}


@dataclass(frozen=True)
class _Named:
    """A submission's name where match wants a result (it reads nothing else)."""

    student: str


def match(results: list[GradeResult], roster: Roster) -> Matching:
    """Map each result to the roster student its submission's name designates (see the module's docstring)."""
    matching = Matching()
    claimed: dict[str, list[GradeResult]] = {}
    keys = [(student, student.keys()) for student in roster.students]
    for result in results:
        name = submission_key(result.student)
        for kind, label in enumerate(KINDS):
            wanted = name.replace("-", "") if kind == CANVAS_KIND else name
            candidates = [student for student, fields in keys if fields[kind] and fields[kind] == wanted]
            if len(candidates) == 1:
                claimed.setdefault(candidates[0].id, []).append(result)
                break
            if candidates:
                names = "; ".join(student.label() for student in candidates)
                matching.unmatched.append(Unmatched(result.student, f"ambiguous: the {label} of {len(candidates)} "
                                                    f"students ({names}); rename the submission to one's "
                                                    "GitHub login or id"))
                break
        else:
            student = _classroom_login(name, keys)
            if student is not None:
                claimed.setdefault(student.id, []).append(result)
            else:
                matching.unmatched.append(Unmatched(result.student, f"matches no {', '.join(KINDS[:-1])} or "
                                                    f"{KINDS[-1]} in {roster.path.name}, nor ends with a GitHub "
                                                    "login"))
    for student in roster.students:
        mine = claimed.get(student.id, [])
        if len(mine) == 1:
            matching.results[student.id] = mine[0]
        elif mine:
            matching.conflicts[student.id] = [result.student for result in mine]
        else:
            matching.missing.append(student)
    return matching
