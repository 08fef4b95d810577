"""Part E, trusted side: run a student's own tests in the sandbox against their package, the wheats and the chaffs.

One sandboxed process per student (grader/part_e/in_sandbox.py), started before the hidden suites,
imports pytest once and forks a child per implementation. The implementations travel over the sandbox's
standard input, one at a time, straight to the child that runs them: the reference and the chaffs are
inside the sandbox only during these runs, and never on its file system. Nothing a run prints is kept.
Order: the reference (each test under the ceiling; its times set every later deadline), the student's own
package (for the coverage shown to the student), then the second wheat and each chaff, all with the same
command: the tests that ended on the reference. A chaff's run ends at the first valid test that fails.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import importlib.util
import json
import marshal
import os
import selectors
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass
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
from ..sandbox.deadlines import deadline
from ..sandbox.process_tree import kill_group
from .judge import KNOWN_EXCEPTIONS, Run, given_examples, judge
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


@functools.lru_cache(maxsize=64)
def compiled(key: str, folder: str) -> dict[str, Any]:
    """What the sandbox's child receives for one implementation: its sources, and its modules compiled once
    per batch for their paths inside the sandbox (each child loads code instead of compiling it again)."""
    sources = next(code for _, name, code in implementations() if name == key)
    code = {name: base64.b64encode(marshal.dumps(compile(text, os.path.join(folder, name), "exec",
                                                         dont_inherit=True))).decode("ascii")
            for name, text in sources.items()}
    return {"sources": sources, "code": code, "magic": importlib.util.MAGIC_NUMBER.hex()}


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
        shutil.copy(Path(__file__).parents[1] / "sandbox" / "process_clock.py", folder / "process_clock.py")
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
    student_tests = open_student_tests(root=root, package=package, tests=tests, package_files=package_files,
                                       runtime=runtime, config=config, slot=slot)
    try:
        return student_tests.grade()
    finally:
        student_tests.close()


def open_student_tests(*, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                       runtime: Path, config: Config, slot: int) -> StudentTests:
    """Part E's sandbox for the tests found at root, started now: its start (a Python importing pytest, about
    a third of a second) overlaps whatever the caller does next, the hidden suites, until grade() is called."""
    student_tests = StudentTests(root, package, tests, package_files, config)
    if not tests:
        return student_tests
    try:
        spec = make_spec(root=root, package=package, runtime=runtime, requested_level=config.sandbox,
                         limits=config.limits, slot=slot + SLOT_OFFSET, coverage=False,
                         allow_plain=config.allow_plain)
    except (SandboxError, OSError) as error:  # the grader's fault: said in the report, the other parts stand
        student_tests.problem = f"The grader could not run your tests ({error}); ask your instructor."
        return student_tests
    student_tests.spec = spec
    student_tests.session = _Session(worker_command(spec, script=SCRIPT), worker_env(spec), spec.limits, spec.uid,
                                     spec.level)
    try:
        student_tests.session.launch()
    except _Stopped as stop:
        student_tests.problem = str(stop)
    return student_tests


class StudentTests:
    """One submission's Part E: its sandbox (started by open_student_tests), graded once, then closed."""

    def __init__(self, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                 config: Config) -> None:
        self.root, self.package, self.tests, self.config = root, package, tests, config
        self.package_files = package_files
        self.spec: Any = None
        self.session: _Session | None = None
        self.problem = ""
        """Why the sandbox could not start (for the student), or ""."""

    def close(self) -> None:
        """Stop the sandbox (its whole process tree), graded or not."""
        if self.session is not None:
            self.session.stop()

    def grade(self) -> StudentTestsResult:
        """Run the tests on every implementation and judge them; Part E's budget starts now."""
        root, package, tests, config = self.root, self.package, self.tests, self.config
        if not tests:
            return StudentTestsResult("no_tests", "No test files were found (test_*.py files, or a tests/ folder).")
        if self.problem or self.session is None:
            return StudentTestsResult("not_run", self.problem or "The sandbox for your tests did not start.")
        test_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace") for path in tests}
        package_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace")
                           for path in self.package_files}
        example = STARTER_TESTS.read_text(encoding="utf-8") if STARTER_TESTS.is_file() else ""
        given = given_examples(test_sources, example)
        limits = TimeLimits.from_config(config)
        spec, session = self.spec, self.session
        session.deadline = time.monotonic() + limits.budget
        base = {"op": "run", "root": spec.inside_root, "package": package, "files": list(tests),
                "sweep": spec.level != "plain" or spec.uid is not None, "private_tmp": spec.level == "bwrap"}
        folder = os.path.join(spec.inside_root, package)
        (_, reference_key, _), (_, wheat_key, _), *chaffs = implementations()
        runs: list[Run] = []
        note = ""
        deadlines: dict[str, float] = {}
        try:
            session.wait_boot()
            # The student's own package first (for the coverage shown to the student), before any implementation
            # has been in the sandbox: what this run reports (test names, outcomes) reaches the student's report,
            # and a run after the reference could find the reference's traces in the memory it inherits.
            ceiling = {**base, "test_timeout": limits.ceiling, "import_timeout": limits.ceiling}
            runs.append(_run(session, {**ceiling, "coverage": True}, "own", "own", None))
            # Only the names collected on the student's own package: a name built while collecting on a wheat (a
            # parametrized id) could carry the wheat's source.
            collected = list(dict.fromkeys(runs[0].collected))[:MAX_TESTS]
            if not collected:
                note = ("Your test files could not be imported" if runs[0].collect_errors else
                        "No tests were collected from your test files") + " (run them with pytest yourself to see why)."
                return StudentTestsResult("not_run", note)
            # Then the reference, every test under the ceiling: its times set every later deadline.
            runs.append(_run(session, {**ceiling, "select": collected}, "wheat", reference_key,
                             compiled(reference_key, folder)))
            first = runs[1]
            known = set(collected)
            deadlines = {test: limits.deadline(seconds) for test, seconds in first.seconds.items() if test in known}
            later = {**base, "deadlines": deadlines, "test_timeout": limits.floor,
                     "import_timeout": limits.deadline(first.import_seconds)}
            # The second wheat and every chaff get the very same command, built from the reference's run alone: the
            # tests that ended on it, those that failed first (their outcomes on the chaffs explain them).
            ended = [test for test in collected if _outcome(first, test) in ENDED]
            select = [test for test in ended if _outcome(first, test) != "passed"] + \
                     [test for test in ended if _outcome(first, test) == "passed"]
            group = {**later, "select": select}
            runs.append(_run(session, group, "wheat", wheat_key, compiled(wheat_key, folder)))
            wheats = runs[1:]
            valid = [test for test in select if test not in given and all(_outcome(run, test) == "passed"
                                                                           for run in wheats)]
            explained = [test for test in select if test not in given and all(_outcome(run, test) == "failed"
                                                                               for run in wheats)]
            for role, key, _ in chaffs if valid or explained else ():
                runs.append(_run(session, group, role, key, compiled(key, folder), stop_on=valid))
        except _Stopped as stop:
            if len(runs) < 3:
                return StudentTestsResult("not_run", str(stop))
            note = (f"{stop} The buggy versions not run by then count as missed."
                    if len(runs) < 3 + len(chaffs) else "")
        result = judge(runs, test_sources=test_sources, package_sources=package_sources, given=given,
                       points=config.points.get("student_tests", 0.0), test_timeout=limits.ceiling,
                       deadlines=deadlines)
        return dataclasses.replace(result, note=note) if note else result


ENDED = frozenset({"passed", "failed", "error", "skipped"})
"""Outcomes of a test that ended by itself (not one that hung, crashed or never ran)."""


def _outcome(run: Run, test: str) -> str:
    return str((run.outcomes.get(test) or {}).get("outcome", "missing"))


@dataclass(frozen=True)
class TimeLimits:
    """Part E's time limits: per test on the reference, per test elsewhere, and for a whole submission."""

    ceiling: float
    """Seconds a test may run on the reference (call_timeout: a test is one call into student code)."""
    multiple: float
    """Elsewhere, a test may run this many times its time on the reference (deadline_multiple)..."""
    floor: float
    """... and at least this many seconds (deadline_floor) ..."""
    most: float
    """... and at most this many (game_timeout)."""
    budget: float
    """Wall seconds for all of Part E (submission_timeout), counted from its start, after the hidden suites."""

    @classmethod
    def from_config(cls, config: Config) -> TimeLimits:
        """The limits the configuration sets (no setting of Part E's own: it shares the hidden calls')."""
        return cls(config.call_timeout, config.deadline_multiple, config.deadline_floor, config.game_timeout,
                   config.submission_timeout)

    def deadline(self, seconds: float) -> float:
        """A test's deadline after the reference, from its seconds there."""
        return round(deadline(seconds, multiple=self.multiple, floor=self.floor, ceiling=self.most), 3)


BOOT_SECONDS = 60.0
"""Most seconds the sandbox may take to start (to import pytest)."""


class _Stopped(Exception):
    """The sandbox failed or the submission's time budget for Part E ran out; the message is for the student."""


def _run(session: _Session, command: dict[str, Any], role: str, key: str, sources: dict[str, Any] | None,
         *, stop_on: list[str] | tuple[str, ...] = ()) -> Run:
    """One implementation: the sandbox's report, checked for shape."""
    done = session.run(command, sources, list(stop_on))
    outcomes: dict[str, dict[str, Any]] = {}
    results = done.get("results")
    for test, outcome in (results.items() if isinstance(results, dict) else []):
        if isinstance(test, str) and isinstance(outcome, dict) and len(outcomes) < MAX_TESTS * 2:
            outcomes[test] = checked_outcome(outcome)
    collected = [str(test) for test in done.get("collected", []) if isinstance(test, str)] \
        if isinstance(done.get("collected"), list) else []
    errors = [str(item) for item in done.get("collect_errors", [])] if isinstance(done.get("collect_errors"), list) else []
    measured: Any = done.get("coverage") if role == "own" and isinstance(done.get("coverage"), dict) else {}
    coverage = {str(path): [n for n in lines if type(n) is int] for path, lines in measured.items()
                if isinstance(lines, list)}
    return Run(role, key, outcomes, collected, errors, coverage, _number(done.get("import_seconds")))


OUTCOMES = frozenset({"passed", "failed", "error", "skipped", "timeout", "crash"})
"""What the sandbox may say of a test; anything else reads "missing"."""


def checked_outcome(outcome: dict[str, Any]) -> dict[str, Any]:
    """One test's outcome as the sandbox reported it, cut down to what the grader may show: no free text.

    A child may lie (it runs the student's code, which may have read the implementation it runs on); the
    exception's name and the outcome reach the student's report, so only known words pass."""
    kind, exception, file, line = (outcome.get(key) for key in ("outcome", "exception", "file", "line"))
    return {"outcome": kind if kind in OUTCOMES else "missing",
            "exception": (exception if exception in KNOWN_EXCEPTIONS else "Exception") if exception else None,
            "file": file if isinstance(file, str) and len(file) < 4096 else None,
            "line": line if type(line) is int else None, "seconds": _number(outcome.get("seconds"))}


def _number(value: Any) -> float:
    """A non-negative finite float from the sandbox's report (0 for anything else)."""
    return float(value) if type(value) in (int, float) and 0 <= value < 1e6 else 0.0


class _Session:
    """The sandboxed zygote: start, one run at a time, stop (its whole process tree killed)."""

    def __init__(self, command: list[str], env: dict[str, str], limits: Limits, uid: int | None, level: str) -> None:
        self.command, self.env, self.limits, self.uid, self.level = command, env, limits, uid, level
        self.deadline = time.monotonic() + BOOT_SECONDS
        """When Part E's budget runs out (grade() sets it)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""

    def launch(self) -> None:
        """Start the sandbox; it boots while the caller goes on."""
        limits = self.limits
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, env=self.env, cwd="/",
                                            start_new_session=True, preexec_fn=lambda: apply_limits(limits))
        except OSError as error:
            raise _Stopped(f"The sandbox for your tests could not start ({error}).") from None

    def wait_boot(self) -> None:
        """Wait until the sandbox has imported pytest and says so."""
        if self._read(min(BOOT_SECONDS, self._left())).get("boot") is not True:
            raise _Stopped("The sandbox for your tests did not start.")

    def run(self, command: dict[str, Any], sources: dict[str, Any] | None, stop_on: list[str]) -> dict[str, Any]:
        """One run; the stop set goes to the zygote only once its child has read the sources (it never sees it)."""
        self._write(json.dumps(command))
        while True:
            message = self._read(self._left())
            if message.get("fork") is True:
                self._write(json.dumps(sources))
            elif message.get("ready") is True:
                self._write(json.dumps({"stop_on": stop_on}))
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
