"""A probe submission and a started worker at any sandbox level, shared by the sandbox, isolation and deadline
tests (a helper module, not a test module)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from grader.grading.calls import WORDS
from grader.hidden import secret_roots
from grader.limits import TimeLimits
from grader.sandbox.channel import Deadlines, WorkerClient
from grader.sandbox.isolation import LEVELS, NAMESPACED, Limits, level_works, make_runtime, make_spec

PROBE = '''
def shuffle(deck, seed=None):
    namespace = {}
    exec(deck[0], namespace)
    return namespace.get("result")
'''
"""A "submission" whose shuffle() runs the code it is given: each test chooses what the student does."""


def available(level: str) -> bool:
    """Whether a level can be tested here; in CI every level must work (.ci/run installs bubblewrap)."""
    if os.environ.get("CI"):
        return True
    return level_works(level)


LEVEL_PARAMS = [pytest.param(level, marks=pytest.mark.skipif(not available(level),
                                                              reason=f"{level} does not work on this machine"))
                for level in LEVELS]
"""Every sandbox level, skipped where it cannot run."""

NAMESPACED_PARAMS = [param for param in LEVEL_PARAMS if param.values[0] in NAMESPACED]
"""The levels with a file system of their own."""


@pytest.fixture(scope="module")
def runtime(sandbox: str) -> Path:
    """The shared worker runtime, in a folder an unprivileged worker can reach (as the runner makes it); through
    tests/conftest.py's `sandbox`, every test that starts a probe worker is marked slow."""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-test-"))
    folder.chmod(0o755)
    yield make_runtime(folder / "runtime")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def tmp_path() -> Path:
    """A scratch folder the worker's uid can traverse (pytest's own tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-test-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def probe_client(tmp_path: Path, runtime: Path, level: str, source: str = PROBE, *, package: str = "probe",
                 files: dict[str, str | bytes] | None = None, call_timeout: float = 3.0, budget: float = 30.0,
                 deadlines: Deadlines | None = None, start: bool = True, coverage: bool = False, slot: int = 7,
                 **limits: Any) -> WorkerClient:
    """A worker on a private copy of a probe package (source as its __init__.py, plus files), started."""
    tmp_path.chmod(0o711)
    root = tmp_path / "sub" / "root"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(source)
    for name, content in (files or {}).items():
        target = root / package / name
        target.write_bytes(content) if isinstance(content, bytes) else target.write_text(content)
    root.parent.chmod(0o711)
    spec = make_spec(root=root, package=package, runtime=runtime, level=level,
                     limits=Limits(**limits), slot=slot, coverage=coverage, hidden=secret_roots())
    client = WorkerClient(spec, times=probe_times(call_timeout, budget), deadlines=deadlines, words=WORDS)
    if start:
        client.start()
    return client


def probe_times(call_timeout: float = 3.0, budget: float = 30.0) -> TimeLimits:
    """The time limits of a probe: call_timeout for every call (games too), budget in all, 5 time-outs per category."""
    return TimeLimits(call_timeout=call_timeout, game_timeout=call_timeout, submission_timeout=budget,
                      max_timeouts=5, deadline_multiple=20.0, deadline_floor=min(0.5, call_timeout))


def run(client: WorkerClient, code: str, timeout: float | None = None) -> Any:
    """Run code as the student's shuffle() and return the encoded value of its `result`."""
    return client.call("call", timeout=timeout, function="shuffle", kwargs={"deck": [code], "seed": None})
