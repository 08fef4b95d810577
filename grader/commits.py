"""Which commit of a Classroom clone to grade: its last at or before a deadline (`grade --at`) or its last
(`grade --latest`), its time, and the sentence the report gives about it. The commit's files are written out
when it is graded (`prepare`, through grader.git_read), never in the student's clone."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime

from .git_read import Commit, GitError, NoGit, history, is_repository
from .submissions import Submission, UsageError

CLOCK = "committer date, which the student's computer clock sets"
"""What a commit's date is: the report says so wherever it relies on one."""

EXAMPLE = "write it as ISO 8601 with an offset, e.g. 2026-12-01T23:59-05:00"


def parse_deadline(text: str) -> datetime:
    """--at's value: an ISO 8601 date and time with an offset (or Z); UsageError in one line otherwise."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--at {text!r}: not a date and time; {EXAMPLE}") from None
    if "T" not in text and " " not in text.strip():
        raise UsageError(f"--at {text!r}: a date without a time of day; {EXAMPLE}")
    if moment.utcoffset() is None:
        raise UsageError(f"--at {text!r}: no offset, so the moment would depend on this machine's time zone; "
                         f"{EXAMPLE}")
    return moment


def choose_commits(submissions: list[Submission], *, at: datetime | None = None, latest: bool = False,
                   own_deadline: Callable[[str, datetime], datetime] | None = None) -> tuple[list[Submission], list[str]]:
    """Each submission set to the commit to grade (its last at or before `at`, or its last if `latest`), with its
    time and provenance; and one line per submission that is not a git repository (graded as its files stand).
    own_deadline(student, at) moves `at` for a student whose due date is their own (an extension).

    A clone with no commit to grade gets the problem that makes it ungradable, and stays in the class. Without
    `at` or `latest` the submissions are returned as they are."""
    if at is None and not latest:
        return submissions, []
    if at is not None and latest:
        raise UsageError("--at and --latest: give one (--at grades each clone as it stood at the deadline, --latest "
                         "its last commit)")
    if at is not None and at.utcoffset() is None:
        raise UsageError(f"--at {at.isoformat()}: no offset; {EXAMPLE}")
    option = "--latest" if latest else "--at"
    chosen, notes = [], []
    for submission in submissions:
        if not is_repository(submission.path):
            notes.append(f"{submission.path}: not a git repository, so {option} cannot tell what was submitted "
                         "when; graded as its files stand, with no submission time")
            chosen.append(dataclasses.replace(submission, provenance="Not a git repository: graded as its files "
                                              "stand, with nothing to tell when they were submitted."))
            continue
        try:
            mine = own_deadline(submission.student, at) if at is not None and own_deadline else at
            chosen.append(_choose(submission, mine, extended=mine != at))
        except NoGit as error:
            raise UsageError(str(error)) from None
    return chosen, notes


def _choose(submission: Submission, at: datetime | None, *, extended: bool = False) -> Submission:
    """The submission set to its commit (its last when at is None), or to the problem that leaves none; extended:
    at is the student's own deadline, moved by their extension."""
    try:
        commits = history(submission.path)
    except GitError as error:
        return dataclasses.replace(submission, problem=f"git cannot read this clone: {error}",
                                   provenance="A git repository that git could not read.")
    if not commits:
        return dataclasses.replace(submission, problem="no submission: the repository has no commit",
                                   provenance="A git repository with no commit.")
    if at is None:
        head = commits[0]
        return dataclasses.replace(
            submission, commit=head.oid, submitted_at=head.date,
            provenance=f"Graded its last commit, {head.describe()}; the time it was submitted is its {CLOCK}.")
    deadline = at.isoformat() + (" (moved by your extension)" if extended else "")
    before = [commit for commit in commits if commit.time <= at.timestamp()]
    later = [commit for commit in commits if commit.time > at.timestamp()]
    if not before:
        return dataclasses.replace(
            submission, problem=f"no submission before the deadline: "
            f"{'its one commit is' if len(later) == 1 else f'all {len(later)} of its commits are'} dated after "
            f"{deadline} by its {CLOCK}",
            provenance=f"No commit at or before the deadline {deadline} by its {CLOCK}; {_later(later)}.")
    graded = max(before, key=lambda commit: commit.time)  # a tie goes to the one git lists first (nearest HEAD)
    return dataclasses.replace(
        submission, commit=graded.oid, submitted_at=graded.date,
        provenance=f"Graded commit {graded.describe()}, its last at or before the deadline {deadline} by its "
        f"{CLOCK}; {_later(later)}.")


def _later(later: list[Commit]) -> str:
    """The commits after the deadline, as the provenance lists them."""
    if not later:
        return "no later commit"
    newest = max(later, key=lambda commit: commit.time)
    return f"{len(later)} later commit{'s' * (len(later) != 1)} not graded, the latest of {newest.date}"
