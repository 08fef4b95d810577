"""The two families of errors war-grader raises on purpose: what the user can fix, and the grader's own faults.

The command line catches the two bases and nothing in between: a UserError is one line and exit 2, an
InternalError one line and exit 1. Every module's own error derives from one of them (keeping the built-in
base, ValueError or RuntimeError, that its callers may catch). The scripts that run inside the sandbox
(grader/sandbox/worker.py and its neighbours, grader/part_e/in_sandbox.py) keep exceptions of their own: they
run without the grader package, and what they raise never crosses to the trusted side as an exception.
"""

from __future__ import annotations


class WarGraderError(Exception):
    """Every error war-grader raises on purpose."""


class UserError(WarGraderError):
    """Something the person running war-grader can fix: a setting, a file, a folder, an argument, the machine's
    missing sandbox. The message says what and, where it can, how."""


class InternalError(WarGraderError):
    """The grader's own fault: a bug, or a sandbox that broke in a way no submission caused."""
