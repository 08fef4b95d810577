"""What run_autograder runs on Gradescope: grade ROOT/submission into ROOT/results/results.json.

    python -m grader.export.autograder ROOT     # ROOT is /autograder on Gradescope

The settings are ROOT/source/grading.toml. With a [late] section, ROOT/submission_metadata.json (Gradescope's)
says when the submission came, the assignment's due date (unless grading.toml sets one) and late due date (the
cut-off, unless grading.toml sets one), and each user's extension; the policy's penalty is then applied here,
after scoring. Without [late] the metadata is not read. results.json is written for students to read (gradescope_results):
Markdown outputs, replay lines in each visible failure, hidden tests named by their rule. A submission that
cannot be graded still gets a results.json (score 0 and the reason, shown to the student). A fault of the
grader's writes none and exits 1, so that Gradescope marks the run as failed for the instructor instead of
recording a 0.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..batch import grade_submissions
from ..config import ConfigError, load_config
from ..grading.runner import GradingError
from ..late import LateError, LatePolicy, parse_moment, with_metadata
from ..results import GradeResult
from ..sandbox.isolation import SandboxError
from ..submissions import Submission
from .gradescope_results import write_gradescope_results

STUDENT = "submission"
"""The name results.json gives the student (Gradescope knows who it is)."""


METADATA = "submission_metadata.json"
"""Gradescope's file about the submission, in ROOT."""


@dataclass(frozen=True)
class SubmissionMetadata:
    """What the late policy needs from Gradescope's submission_metadata.json."""

    created_at: str
    """When the student submitted, ISO 8601 with its offset."""
    due: datetime | None
    """The assignment's due date (assignment.due_date)."""
    late_due: datetime | None
    """The assignment's late due date (assignment.late_due_date; null when late work is not accepted)."""
    users: tuple[str, ...]
    """The submitters' emails (several for a group)."""
    user_due: datetime | None
    """The latest due date among the users' own (an extension in users[].assignment.due_date), if any."""
    user_late_due: datetime | None
    """The latest late due date among the users' own, if any."""


def read_metadata(path: Path, *, need_due: bool) -> SubmissionMetadata:
    """Gradescope's metadata file; LateError naming the file and the field for anything missing or malformed
    (need_due: grading.toml sets no due date, so assignment.due_date must be there)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LateError(f"{path}: missing; Gradescope writes it for every submission, and the late policy of "
                        "grading.toml needs it (remove [late] to grade without one)") from None
    except (OSError, ValueError) as error:
        raise LateError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(data, dict):
        raise LateError(f"{path}: not Gradescope's submission metadata (a JSON object is expected)")
    found = data.get("assignment")
    assignment: dict[str, Any] = found if isinstance(found, dict) else {}
    created = _moment(path, "created_at", data.get("created_at"), required=True)
    due = _moment(path, "assignment.due_date", assignment.get("due_date"), required=need_due)
    late_due = _moment(path, "assignment.late_due_date", assignment.get("late_due_date"), required=False)
    users = data.get("users")
    emails: list[str] = []
    dues: list[datetime] = []
    late_dues: list[datetime] = []
    for number, user in enumerate(users if isinstance(users, list) else []):
        if not isinstance(user, dict):
            continue
        if isinstance(user.get("email"), str):
            emails.append(user["email"])
        own = user.get("assignment")
        own = own if isinstance(own, dict) else {}
        for key, into in (("due_date", dues), ("late_due_date", late_dues)):
            moment = _moment(path, f"users[{number}].assignment.{key}", own.get(key), required=False)
            if moment is not None:
                into.append(moment)
    assert created is not None
    return SubmissionMetadata(created_at=created.isoformat(), due=due, late_due=late_due, users=tuple(emails),
                              user_due=max(dues, default=None), user_late_due=max(late_dues, default=None))


def _moment(path: Path, field: str, value: Any, *, required: bool) -> datetime | None:
    """A date of the metadata, or None where it is null and not required; LateError otherwise."""
    if value is None:
        if required:
            raise LateError(f"{path}: no {field}; Gradescope's metadata should have it"
                            + ("" if field == "created_at" else ", or set due in grading.toml's [late]"))
        return None
    moment = parse_moment(value) if isinstance(value, str) else None
    if moment is None:
        raise LateError(f"{path}: {field} = {value!r} is not an ISO 8601 time with an offset")
    return moment


def gradescope_policy(policy: LatePolicy, metadata: SubmissionMetadata) -> LatePolicy:
    """The policy for this one submission, keyed by STUDENT: grading.toml's due date and cut-off where it sets
    them, else Gradescope's; the user's extension (grading.toml's extensions file by email, else Gradescope's
    own for the user) and grace days already used (the ledger by email) carried over."""
    merged = with_metadata(policy, due=metadata.due, cutoff=metadata.late_due)
    due, cutoff = merged.due, merged.cutoff
    assert due is not None  # read_metadata required it
    key = next((email for email in metadata.users if email in policy.extensions), None)
    own_due = policy.extensions[key] if key else metadata.user_due
    own_late_due = None if key else metadata.user_late_due
    extensions: dict[str, datetime] = {}
    if own_due is not None and own_due > due:
        extensions[STUDENT] = own_due
        if policy.cutoff is None and own_late_due is not None:  # assess moves the cut-off by the extension
            cutoff = own_late_due - (own_due - due)
    if cutoff is not None and cutoff < due:
        cutoff = due
    used = max((policy.grace_used.get(email, 0) for email in metadata.users), default=0)
    return dataclasses.replace(policy, due=due, cutoff=cutoff, extensions=extensions,
                               grace_used={STUDENT: used} if used else {}, places={})


def grade_autograder_root(root: Path) -> GradeResult:
    """Grade ROOT/submission with ROOT/source/grading.toml; write ROOT/results/results.json unless the grader failed."""
    config_path = root / "source" / "grading.toml"
    config = load_config(config_path if config_path.is_file() else None)
    submission = Submission(STUDENT, root / "submission")
    if config.late is not None:
        metadata = read_metadata(root / METADATA, need_due=config.late.due is None)
        config = dataclasses.replace(config, late=gradescope_policy(config.late, metadata))
        submission = dataclasses.replace(submission, submitted_at=metadata.created_at)
    [result] = grade_submissions([submission], config, jobs=1, secrets=(root / "source",))
    if result.outcome != "grader_fault":
        write_gradescope_results(result, root / "results" / "results.json", reveal_after=config.reveal_after)
    return result


def main(argv: list[str] | None = None) -> int:
    """Run on ROOT (default /autograder); print the score or the fault for Gradescope's stdout log."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "/autograder")
    try:
        result = grade_autograder_root(root)
    except LateError as error:  # bad input: nothing graded with wrong dates
        print(f"war-grader autograder: {error}", file=sys.stderr)
        return 2
    except (ConfigError, SandboxError, GradingError) as error:
        print(f"war-grader autograder: {error}", file=sys.stderr)
        return 1
    if result.outcome == "grader_fault":
        print(f"war-grader autograder: grader fault: {result.reason}", file=sys.stderr)
        return 1
    print(f"{result.outcome}: {result.score:g} / {result.max_score:g}" + (f" ({result.reason})" if result.reason else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
