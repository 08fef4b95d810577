"""The grading API: a class run into an output folder, the self-check, shards and their merge, the outputs.

The layer above grading/ and report/: the command line, bench/, the Gradescope autograder and the tests call
this, never the CLI. Nothing here prints; a Listener hears a run as it goes. The errors a run raises for its
caller to say in one line, and the choices of its options, are named here too.
"""

from __future__ import annotations

from ..config import ConfigError
from ..grading.runner import GradingError
from ..commits import parse_deadline
from ..hold import HoldError
from ..late import LateError
from ..roster import RosterError
from ..sandbox.isolation import LEVELS, MAX_JOBS, SandboxError
from ..submissions import UsageError
from .class_run import (BatchReport, Listener, check, check_passed, find_class, grade, grade_into, grade_run,
                        grade_submissions)
from .changes import Change
from .merge import MergeError, merge, merge_run, merge_shards
from .output import INSTRUCTOR_FOLDER, OutputError, grades_csv, junit, render, reveal_set, write_outputs
from .shards import Shard

__all__ = ["BatchReport", "Change", "ConfigError", "GradingError", "HoldError", "INSTRUCTOR_FOLDER", "LEVELS",
           "LateError", "Listener", "MAX_JOBS", "MergeError", "OutputError", "RosterError", "SandboxError", "Shard",
           "UsageError", "check", "check_passed", "find_class", "grade", "grade_into", "grade_run",
           "grade_submissions", "grades_csv", "junit", "merge", "merge_run", "merge_shards", "parse_deadline",
           "render", "reveal_set", "write_outputs"]
