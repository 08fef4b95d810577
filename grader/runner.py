"""Grading: one trusted pytest process per submission against its sandboxed worker, then the score."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from queue import SimpleQueue
from typing import Any, Callable

from . import __version__
from .config import Config
from .harness import MANIFEST_VARIABLE, RESULTS_VARIABLE, SPEC_VARIABLE
from .sandbox import SandboxError, make_runtime, make_spec
from .scoring import ManifestEntry, score
from .submissions import Submission, SubmissionError, prepare, submission_hash

SUITES = Path(__file__).with_name("suites")
"""The hidden suites."""


class GradingError(RuntimeError):
    """The grader cannot run at all here (the suites do not collect, no sandbox): one line for the user."""


def pytest_command(*extra: str) -> list[str]:
    """The trusted pytest process: isolated mode, the grader's own ini, no conftest, no cache, explicit path."""
    return [sys.executable, "-I", "-m", "pytest", "-c", str(SUITES / "pytest.ini"), "--rootdir", str(SUITES),
            "--noconftest", "-p", "no:cacheprovider", "-p", "pytest_timeout", "-p", "grader.harness",
            "-q", "--no-header", "-rN", *extra, str(SUITES)]


def pytest_env(**variables: str) -> dict[str, str]:
    """The trusted process's environment: no plugins loaded behind our back."""
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", **variables)
    return env


def collect_manifest(work: Path) -> list[ManifestEntry]:
    """Every hidden test's id, title, category and weight, by collecting the suites (no student code)."""
    path = work / "manifest.json"
    completed = subprocess.run(pytest_command("--collect-only"), env=pytest_env(**{MANIFEST_VARIABLE: str(path)}),
                               capture_output=True, text=True, timeout=120, check=False)
    if completed.returncode != 0 or not path.exists():
        tail = (completed.stdout + completed.stderr).strip().splitlines()[-3:]
        raise GradingError("the hidden suites do not collect: " + " | ".join(tail))
    return [ManifestEntry(**entry) for entry in json.loads(path.read_text())]


@dataclass(frozen=True)
class Batch:
    """What a grading run needs once: settings, the manifest, a scratch folder, the worker runtime."""

    config: Config
    manifest: list[ManifestEntry]
    work: Path
    runtime: Path


def open_batch(config: Config, work: Path) -> Batch:
    """Collect the suites and build the shared worker runtime in work."""
    work.chmod(0o711)
    return Batch(config, collect_manifest(work), work, make_runtime(work / "runtime"))


def grade_submission(submission: Submission, batch: Batch, *, slot: int, index: int) -> Any:
    """Grade one submission: private copy, trusted pytest run, score. Never raises for the student's faults."""
    from .results import GradeResult  # noqa: PLC0415 - kept local: the type is only built here

    started = time.monotonic()
    folder = batch.work / f"sub-{index:05d}"
    folder.mkdir(mode=0o711)
    sha = submission_hash(submission.path)
    recorded: dict[str, Any] | None = None
    problem = ("", "")
    files: dict[str, str] = {}
    sandbox_level, warning = "", ""
    try:
        copy = prepare(submission, folder)
        files = {name: (copy.root / name).read_text(encoding="utf-8", errors="replace") for name in copy.files}
        spec = make_spec(root=copy.root, package=copy.package, runtime=batch.runtime,
                         requested_level=batch.config.sandbox, limits=batch.config.limits, slot=slot,
                         coverage=batch.config.coverage)
        sandbox_level, warning = spec.level, spec.warning
        prepared = time.monotonic()
        recorded = _run_suites(spec.to_json(), batch, folder)
    except SubmissionError as error:
        problem = ("ungradable", str(error))
        prepared = time.monotonic()
    except (SandboxError, OSError, subprocess.SubprocessError) as error:
        problem = ("grader_fault", str(error))
        prepared = time.monotonic()
    finished = time.monotonic()
    result: GradeResult = score(
        student=submission.student, manifest=batch.manifest, config=batch.config, recorded=recorded,
        problem=problem, sha256=sha, sources=files, sandbox=sandbox_level, sandbox_warning=warning,
        graded_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), version=__version__,
        timings={"prepare": round(prepared - started, 3), "tests": round(finished - prepared, 3),
                 "total": round(finished - started, 3)},
    )
    return result


def _run_suites(spec: dict[str, Any], batch: Batch, folder: Path) -> dict[str, Any] | None:
    """Run the hidden suites in a trusted pytest process; what its plugin recorded, or None if it died."""
    settings = folder / "settings.json"
    results = folder / "recorded.json"
    config = batch.config
    settings.write_text(json.dumps({"spec": spec, "call_timeout": config.call_timeout,
                                    "game_timeout": config.game_timeout, "budget": config.submission_timeout}))
    backstop = config.game_timeout * 2 + 30
    whole = config.submission_timeout + 20 * len(batch.manifest) + 120
    try:
        subprocess.run(pytest_command(f"--timeout={backstop:g}"),
                       env=pytest_env(**{SPEC_VARIABLE: str(settings), RESULTS_VARIABLE: str(results)}),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=whole, check=False)
    except subprocess.TimeoutExpired:
        return None
    try:
        recorded = json.loads(results.read_text())
    except (OSError, ValueError):
        return None
    return recorded if isinstance(recorded, dict) else None


def grade_all(
    submissions: list[Submission],
    batch: Batch,
    *,
    jobs: int,
    on_result: Callable[[Any], None] = lambda result: None,
) -> list[Any]:
    """Grade every submission over `jobs` parallel slots, in input order; on_result hears each as it ends."""
    slots: SimpleQueue[int] = SimpleQueue()
    for slot in range(jobs):
        slots.put(slot)

    def run(indexed: tuple[int, Submission]) -> Any:
        index, submission = indexed
        slot = slots.get()
        try:
            result = grade_submission(submission, batch, slot=slot, index=index)
        finally:
            slots.put(slot)
        on_result(result)
        return result

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(run, enumerate(submissions)))


def scratch_folder() -> tempfile.TemporaryDirectory[str]:
    """A private scratch folder for one run (removed at the end)."""
    return tempfile.TemporaryDirectory(prefix="war-grader-")
