"""Part E, trusted side: run a student's own tests in the sandbox against their package, the wheats and the chaffs.

One sandboxed process per student (grader/part_e/in_sandbox.py) imports pytest once and forks a child
per implementation. The implementations travel over the sandbox's standard input, one at a time, straight
to the child that runs them: the reference and the chaffs are inside the sandbox only during these runs,
and never on its file system. Nothing a run prints is kept. Order: the student's own package (for the
coverage shown to the student), then the two wheats, then each chaff with only the tests that did not
crash or hang on a wheat.
"""

from __future__ import annotations

import functools
import json
import os
import selectors
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import reference

from ..chaffs import CHAFFS, CONTRACT_MODULES, chaff_sources, wheat_sources
from ..config import Config
from ..sandbox.isolation import (
    UID_BLOCK,
    Limits,
    SandboxError,
    apply_limits,
    finish_runtime,
    kill_uid,
    make_spec,
    worker_command,
    worker_env,
)
from ..sandbox.process_tree import kill_group
from .judge import Run, given_examples, judge
from .results import StudentTestsResult

SCRIPT = "student_tests_sandbox.py"
"""The in-sandbox script's name in the runtime (in_sandbox.py in this folder)."""

STARTER_TESTS = Path(__file__).resolve().parents[2] / "starter" / "test_war.py"
"""The starter's skeleton: its worked example earns nothing."""

MODEL_TESTS = Path(__file__).with_name("model") / "test_war.py"
"""The instructor's thorough suite (the reference's tests in `war-grader check`)."""

LIBRARIES = ("pytest", "_pytest", "pluggy", "iniconfig", "packaging", "pygments", "py", "coverage")
"""What the in-sandbox script imports besides the standard library, copied into the runtime."""

SLOT_OFFSET = UID_BLOCK // 2
"""Part E's sandbox runs as the uid of job slot + SLOT_OFFSET, in the upper half of the run's uid block: never
the uid of a hidden-suite worker (job slots use the lower half, see MAX_JOBS)."""

MAX_TESTS = 500
"""Most tests judged for one submission."""

_runtime_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def implementations() -> tuple[tuple[str, str, dict[str, str]], ...]:
    """(role, key, sources) of the wheats, then of every chaff, in CHAFFS order."""
    folder = Path(reference.__file__).parent
    reference_sources = {name: (folder / name).read_text(encoding="utf-8") for name in CONTRACT_MODULES}
    return (("wheat", "reference", reference_sources), ("wheat", "wheat", wheat_sources()),
            *(("chaff", variant.name, chaff_sources(variant)) for variant in CHAFFS))


def reference_with_tests(into: Path) -> Path:
    """A submission folder holding the reference as `starter` and the instructor's tests in tests/ (for check)."""
    folder = into / "reference"
    shutil.copytree(Path(reference.__file__).parent, folder / "starter",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "tests").mkdir()
    shutil.copy(MODEL_TESTS, folder / "tests" / "test_war.py")
    return folder


def make_runtime(folder: Path) -> Path:
    """A world-readable folder with the in-sandbox script, an empty pytest ini, pytest and coverage (once per batch)."""
    with _runtime_lock:
        if (folder / SCRIPT).is_file():
            return folder
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(__file__).with_name("in_sandbox.py"), folder / SCRIPT)
        (folder / "student_tests.ini").write_text("[pytest]\npython_files = test_*.py\n")
        for name in LIBRARIES:
            module = __import__(name)
            source = Path(str(module.__file__))
            if source.name == "__init__.py":
                shutil.copytree(source.parent, folder / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("*.pyi"))
            else:
                shutil.copy2(source, folder / source.name)
        finish_runtime(folder, scripts=(SCRIPT,))
        return folder


def grade_student_tests(*, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                        runtime: Path, config: Config, slot: int) -> StudentTestsResult:
    """Run and judge the tests found at root (a private copy Part E alone uses)."""
    if not tests:
        return StudentTestsResult("no_tests", "No test files were found (test_*.py files, or a tests/ folder).")
    test_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace") for path in tests}
    package_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace") for path in package_files}
    example = STARTER_TESTS.read_text(encoding="utf-8") if STARTER_TESTS.is_file() else ""
    given = given_examples(test_sources, example)
    try:
        spec = make_spec(root=root, package=package, runtime=runtime, requested_level=config.sandbox,
                         limits=config.limits, slot=slot + SLOT_OFFSET, coverage=False,
                         allow_plain=config.allow_plain)
    except (SandboxError, OSError) as error:  # the grader's fault: said in the report, the other parts stand
        return StudentTestsResult("not_run", f"The grader could not run your tests ({error}); ask your instructor.")
    timeout = config.game_timeout
    session = _Session(worker_command(spec, script=SCRIPT), worker_env(spec), spec.limits, spec.uid,
                       spec.level, budget=config.submission_timeout)
    base = {"op": "run", "root": spec.inside_root, "package": package, "files": list(tests),
            "test_timeout": timeout, "sweep": spec.level != "plain" or spec.uid is not None,
            "private_tmp": spec.level == "bwrap"}
    runs: list[Run] = []
    try:
        session.start()
        runs.append(_run(session, {**base, "coverage": True}, "own", "own", None))
        # Only the names collected on the student's own package: a name built while collecting on a wheat (a
        # parametrized id) could carry the wheat's source.
        collected = list(dict.fromkeys(runs[0].collected))[:MAX_TESTS]
        if not collected:
            note = ("Your test files could not be imported" if runs[0].collect_errors else
                    "No tests were collected from your test files") + " (run them with pytest yourself to see why)."
            return StudentTestsResult("not_run", note)
        stopped = {"timeout", "crash", "missing"}
        for role, key, sources in implementations()[:2]:
            # A test that hung or crashed on the first wheat is invalid already: it costs its deadline once.
            select = [test for test in collected if not any(
                str((run.outcomes.get(test) or {}).get("outcome", "missing")) in stopped for run in runs[1:])]
            runs.append(_run(session, {**base, "select": select}, role, key, sources))
        keep = [test for test in collected if test not in given and not any(
            str((run.outcomes.get(test) or {}).get("outcome", "missing")) in stopped for run in runs[1:])]
        valid = [test for test in keep if all((run.outcomes.get(test) or {}).get("outcome") == "passed"
                                              for run in runs[1:])]
        for role, key, sources in implementations()[2:]:
            if not keep:
                break
            runs.append(_run(session, {**base, "select": keep, "stop_on": valid}, role, key, sources))
    except _Stopped as stop:
        if len(runs) < 3:
            return StudentTestsResult("not_run", str(stop))
    finally:
        session.stop()
    return judge(runs, test_sources=test_sources, package_sources=package_sources, given=given,
                 points=config.points.get("student_tests", 0.0), test_timeout=timeout)


class _Stopped(Exception):
    """The sandbox failed or the submission's time budget for Part E ran out; the message is for the student."""


def _run(session: _Session, command: dict[str, Any], role: str, key: str, sources: dict[str, str] | None) -> Run:
    """One implementation: the sandbox's report, checked for shape."""
    done = session.run(command, sources)
    outcomes: dict[str, dict[str, Any]] = {}
    results = done.get("results")
    for test, outcome in (results.items() if isinstance(results, dict) else []):
        if isinstance(test, str) and isinstance(outcome, dict) and len(outcomes) < MAX_TESTS * 2:
            outcomes[test] = {"outcome": str(outcome.get("outcome", "missing")), "exception": outcome.get("exception"),
                              "file": outcome.get("file"), "line": outcome.get("line")}
    collected = [str(test) for test in done.get("collected", []) if isinstance(test, str)] \
        if isinstance(done.get("collected"), list) else []
    errors = [str(item) for item in done.get("collect_errors", [])] if isinstance(done.get("collect_errors"), list) else []
    measured: Any = done.get("coverage") if role == "own" and isinstance(done.get("coverage"), dict) else {}
    coverage = {str(path): [n for n in lines if type(n) is int] for path, lines in measured.items()
                if isinstance(lines, list)}
    return Run(role, key, outcomes, collected, errors, coverage)


class _Session:
    """The sandboxed zygote: start, one run at a time, stop (its whole process tree killed)."""

    def __init__(self, command: list[str], env: dict[str, str], limits: Limits, uid: int | None, level: str,
                 *, budget: float) -> None:
        self.command, self.env, self.limits, self.uid, self.level = command, env, limits, uid, level
        self.deadline = time.monotonic() + budget
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def start(self) -> None:
        limits = self.limits
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, env=self.env, cwd="/",
                                            start_new_session=True, preexec_fn=lambda: apply_limits(limits))
        except OSError as error:
            raise _Stopped(f"The sandbox for your tests could not start ({error}).") from None
        if self._read(min(60.0, self._left())).get("boot") is not True:
            raise _Stopped("The sandbox for your tests did not start.")

    def run(self, command: dict[str, Any], sources: dict[str, str] | None) -> dict[str, Any]:
        self._write(json.dumps(command))
        while True:
            message = self._read(self._left())
            if message.get("fork") is True:
                self._write(json.dumps(sources))
            elif isinstance(message.get("done"), dict):
                return message["done"]
            else:
                raise _Stopped("The process running your tests stopped answering.")

    def _left(self) -> float:
        return self.deadline - time.monotonic()

    def _write(self, line: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Stopped("The process running your tests ended.") from None

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        stream = self.process.stdout
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = timeout if timeout > 0 else 0
                if left <= 0 or not selector.select(left):
                    raise _Stopped("Your tests used up the time allowed for grading them.")
                chunk = os.read(stream.fileno(), 1 << 20)
                if not chunk:
                    raise _Stopped("The process running your tests ended.")
                self.buffer += chunk
                if len(self.buffer) > 64 * 1024 * 1024:
                    raise _Stopped("The process running your tests sent too much.")
                timeout = self._left()
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            return {}
        return message if isinstance(message, dict) else {}

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        kill_group(process)
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        if self.uid is not None and self.level != "bwrap":
            kill_uid(self.uid)
