"""The grading API: a class run into an output folder, the self-check, shards and their merge, the outputs.

The layer above grading/ and report/: the command line, bench/, the Gradescope autograder and the tests call
this, never the CLI. Nothing here prints; a Listener hears a run as it goes.
"""

from __future__ import annotations

from .class_run import (BatchReport, Listener, check, find_class, grade, grade_into, grade_run,
                        grade_submissions)
from .changes import Change
from .merge import MergeError, merge, merge_run, merge_shards
from .output import INSTRUCTOR_FOLDER, OutputError, grades_csv, junit, render, write_outputs
from .shards import Shard

__all__ = ["BatchReport", "Change", "INSTRUCTOR_FOLDER", "Listener", "MergeError", "OutputError", "Shard", "check",
           "find_class", "grade", "grade_into", "grade_run", "grade_submissions", "grades_csv", "junit", "merge",
           "merge_run", "merge_shards", "render", "write_outputs"]
