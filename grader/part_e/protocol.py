"""What the trusted side sends into Part E's sandbox, typed: a run's command and an implementation's payload.

in_sandbox.py is a plain script inside the sandbox and cannot import these; it reads the JSON lines they
write (its docstring gives the protocol). What comes back is checked field by field in runner.py
(checked_run) into a judge.Run. Everything a command holds is readable by the student's tests (a child
inherits the zygote's memory), so a command says nothing of which implementation runs: every run after the
student's own package's gets the very same one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping


@dataclass(frozen=True)
class RunCommand:
    """One run of the student's tests, as the zygote reads it (in_sandbox.py's run())."""

    root: str
    """The submission's copy, as the sandbox sees it."""
    package: str
    """The student's package name: every implementation is served under it."""
    files: tuple[str, ...]
    """The student's test files, relative to root."""
    scratch_bytes: int
    """Size of the run's own /tmp and /dev/shm."""
    namespaced: bool
    """The level gives each run namespaces of its own (bwrap, unshare)."""
    sweep: bool
    """Kill every process of the sandbox's uid after a run."""
    private_tmp: bool
    """The sandbox's /tmp is its own (bwrap): the reset empties it."""
    scratch: str
    """The one folder a run may write in (its TMPDIR and HOME, as the sandbox sees it): Landlock allows no other."""
    test_timeout: float
    """Seconds a test may take when it has no deadline of its own."""
    import_timeout: float
    """Seconds for importing the tests, and between two tests."""
    coverage: bool = False
    """Measure the package's lines (the student's own package, for their report)."""
    select: tuple[str, ...] | None = None
    """The tests to run, in this order (None: every test collected)."""
    deadlines: Mapping[str, float] | None = None
    """Each test's deadline in seconds, set from the student's own run (None for that run)."""
    scratch_inodes: int | None = None
    """nr_inodes of each run's own /tmp and /dev/shm (isolation.scratch_inodes; None: the kernel's default)."""
    run_uid: int | None = None
    """At the uid level, the uid this run runs as (one of its sandbox's, used by no earlier run; Session.run sets
    it); None elsewhere."""

    def with_select(self, tests: list[str] | tuple[str, ...]) -> RunCommand:
        """The same command for these tests only."""
        return replace(self, select=tuple(tests))

    def line(self, op: str = "run") -> str:
        """The command's JSON line (op "prepare": the same fields, for the zygote to set pytest's session up before
        any run). A field not set is left out (the own package's run has no deadlines)."""
        message: dict[str, Any] = {"op": op, "root": self.root, "package": self.package,
                                   "files": list(self.files), "scratch_bytes": self.scratch_bytes,
                                   "namespaced": self.namespaced, "sweep": self.sweep,
                                   "private_tmp": self.private_tmp, "scratch": self.scratch,
                                   "test_timeout": self.test_timeout,
                                   "import_timeout": self.import_timeout}
        if self.coverage:
            message["coverage"] = True
        if self.select is not None:
            message["select"] = list(self.select)
        if self.deadlines is not None:
            message["deadlines"] = dict(self.deadlines)
        if self.scratch_inodes is not None:
            message["scratch_inodes"] = self.scratch_inodes
        if self.run_uid is not None:
            message["run_uid"] = self.run_uid
        return json.dumps(message)


@dataclass(frozen=True)
class Implementation:
    """One implementation as a child receives it: its sources, and its modules compiled once per batch."""

    sources: Mapping[str, str]
    """File name -> source text (served from memory under the student's package name)."""
    code: Mapping[str, str] = field(default_factory=dict)
    """File name -> base64 of the marshalled code, compiled for its path inside the sandbox."""
    magic: str = ""
    """The bytecode's magic number in hex: a child of another Python compiles the sources itself."""

    def line(self, salt: int) -> str:
        """The child's JSON line for one run; salt (per run, from the submission's secret seed) places the
        implementation's objects in memory (run_sources.py's load_all)."""
        return json.dumps({"sources": dict(self.sources), "code": dict(self.code), "magic": self.magic,
                           "salt": salt})


OWN_PACKAGE = "null"
"""The child's line for the student's own package: nothing to load, the package is on disk."""


def stop_line(stop_on: list[str] | tuple[str, ...]) -> str:
    """The zygote's line, sent once its child has read its own: the tests whose failure ends the run."""
    return json.dumps({"stop_on": list(stop_on)})
