"""Grading: one trusted pytest process per submission against its sandboxed worker, then the score."""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from queue import SimpleQueue
from typing import Callable, Iterator

from .. import __version__
from ..config import Config
from ..hidden import secret_roots
from ..late import LatePolicy, assess
from ..part_e.runner import StudentTests, open_student_tests
from ..part_e.runner import make_runtime as make_student_tests_runtime
from ..results import GradeResult, StudentTestsResult
from ..sandbox import uid_level
from ..sandbox.isolation import SandboxError, choose_level, make_runtime, make_spec
from ..sandbox.process_tree import kill_descendants
from ..submissions import PreparedCopy, Submission, SubmissionError, prepare, submission_digest
from .harness import MANIFEST_VARIABLE, RESULTS_VARIABLE, SPEC_VARIABLE
from .recorded import Recorded
from .run_settings import RunSettings
from .suite_protocol import RunRequest, ServerReply
from .scoring import GradingRun, ManifestEntry, score
from ..errors import InternalError

SUITES = Path(__file__).with_name("suites")
"""The hidden suites."""


class GradingError(InternalError, RuntimeError):
    """The grader cannot run at all here (the suites do not collect, no sandbox): one line for the user."""


def pytest_args(*extra: str) -> list[str]:
    """pytest's arguments for the suites: the grader's own ini, no conftest, no cache, an explicit path.

    --tb=native: the harness records its own sentence for every failure, so pytest's long tracebacks (with
    source lines read and highlighted) were only thrown away, at about 35 ms a failure. Nor do the suites
    use the plugins of UNUSED_PLUGINS.
    """
    unused = [arg for plugin in UNUSED_PLUGINS for arg in ("-p", f"no:{plugin}")]
    return ["-c", str(SUITES / "pytest.ini"), "--rootdir", str(SUITES), "--noconftest", "-p", "no:cacheprovider",
            *unused, "-p", "pytest_timeout", "-p", "grader.grading.harness", "-q", "--no-header", "-rN",
            "--tb=native", *extra, str(SUITES)]


UNUSED_PLUGINS = ("logging", "warnings", "faulthandler", "junitxml", "doctest", "pastebin", "legacypath", "tmpdir",
                  "monkeypatch", "recwarn", "setuponly", "setupplan", "stepwise", "unraisableexception",
                  "threadexception", "debugging", "unittest", "capture", "skipping")
"""pytest's built-in plugins the hidden suites never use: each still hooks into every test (about a fifth of
a run's own time, measured against the reference in process). capture: the suites print nothing (student
code prints in its worker); skipping: no suite marks a test skip or xfail."""


def pytest_env(**variables: str) -> dict[str, str]:
    """The trusted process's environment: no plugins loaded behind our back."""
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "LANG", "LC_ALL", "TMPDIR")}
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1", **variables)
    return env


class SuiteServer:
    """One job slot's trusted process (grader.grading.suite_server): the suites collected once with args, then
    a forked run of them per submission."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.process: subprocess.Popen[str] | None = None

    def start(self, *, manifest: Path | None = None) -> None:
        """Start the server and wait until it has collected the suites (and written their manifest there)."""
        env = pytest_env(**({MANIFEST_VARIABLE: str(manifest)} if manifest else {}))
        self.process = subprocess.Popen([sys.executable, "-I", "-m", "grader.grading.suite_server", *self.args],
                                        stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                        env=env, cwd=str(SUITES), process_group=0)
        # process_group=0: Ctrl-C on a terminal reaches the main process alone, which then stops the runs
        # (Batch.stop_runs) while it can still find them below their server.
        answer = self._read(120)
        if answer is None or answer.ready is not True:
            self.close()
            why = f": {answer.error}" if answer is not None and answer.error else ""
            raise GradingError(f"the trusted suite server did not start{why}")

    def run(self, env: dict[str, str], timeout: float) -> int | None:
        """One run of the suites with env; its exit status, or None if it overran timeout (then it is killed)."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(RunRequest(env).to_json()) + "\n")
        self.process.stdin.flush()
        started = self._read(30)
        pid = started.pid if started is not None else None
        if pid is None:
            self.close()
            return None
        finished = self._read(timeout)
        if finished is None:
            try:
                os.killpg(pid, 9)
            except ProcessLookupError:
                pass
            finished = self._read(30)
            return None
        return finished.status

    def _read(self, timeout: float) -> ServerReply | None:
        assert self.process is not None and self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.process.stdout.readline()
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return ServerReply.from_json(message) if isinstance(message, dict) else None

    def close(self) -> None:
        """Stop the server."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Batch:
    """What a grading run needs once: settings, the manifest, a scratch folder, the worker runtime."""

    config: Config
    manifest: list[ManifestEntry]
    work: Path
    runtime: Path
    level: str
    """The sandbox level every run of the batch uses, chosen once when it opens."""
    servers: dict[int, SuiteServer] = field(default_factory=dict)

    def server(self, slot: int) -> SuiteServer:
        """The suite server of a job slot (each slot is used by one thread at a time)."""
        if slot not in self.servers:
            self.servers[slot] = SuiteServer(suite_args(self.config))
        return self.servers[slot]

    def stop_runs(self) -> None:
        """Kill every running pytest run and its sandboxed worker (Ctrl-C): everything below each server."""
        for server in list(self.servers.values()):
            process = server.process
            if process is not None and process.poll() is None:
                kill_descendants(process.pid)

    def close(self) -> None:
        """Stop every suite server."""
        for server in self.servers.values():
            server.close()


def suite_args(config: Config) -> list[str]:
    """The suite servers' pytest arguments: pytest-timeout's backstop above the longest call's deadline."""
    return pytest_args(f"--timeout={config.times.pytest_backstop:g}")


@contextlib.contextmanager
def open_batch(config: Config, work: Path, *, secrets: tuple[Path, ...] = (),
               level: str | None = None) -> Iterator[Batch]:
    """Start the first job slot's suite server, which collects the suites and lists them (the manifest), and
    build the shared worker runtime in work; stop the servers at the end.

    At the uid level (no namespaces) the grader's files and secrets (more folders to hide, such as
    Gradescope's source folder) are sealed from student code first, and everything the batch writes is
    private to root (umask 077) unless it is made for the workers (their copies, runtimes and scratch).

    The sandbox level is level if given (the caller chose it), else chosen now; every run of the batch uses it,
    so that a level that stops working mid-batch is a grader fault, never another level for some students."""
    chosen = level or choose_level(config.sandbox, allow_plain=config.allow_plain)
    with _private_files(chosen, secrets):
        with _opened_batch(config, work, chosen) as batch:
            yield batch


@contextlib.contextmanager
def _private_files(level: str, secrets: tuple[Path, ...]) -> Iterator[None]:
    """Seal the secrets and write nothing others can read, at the uid level; nothing at the others."""
    if level != "uid":
        yield
        return
    uid_level.seal((*secret_roots(), *(str(path) for path in secrets)))
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)


@contextlib.contextmanager
def _opened_batch(config: Config, work: Path, level: str) -> Iterator[Batch]:
    work.chmod(0o711)
    first = SuiteServer(suite_args(config))
    try:
        first.start(manifest=work / "manifest.json")
        try:
            entries = json.loads((work / "manifest.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise GradingError(f"the hidden suites were collected but not listed ({error})") from None
        batch = Batch(config, [ManifestEntry(**entry) for entry in entries], work, make_runtime(work / "runtime"),
                      level, servers={0: first})
    except BaseException:
        first.close()
        raise
    try:
        yield batch
    finally:
        batch.close()


def grade_submission(submission: Submission, batch: Batch, *, slot: int, index: int) -> GradeResult:
    """Grade one submission: private copy, the hidden suites with Part E's start overlapping them, then Part E,
    then the score. Never raises for the student's faults."""
    started = time.monotonic()
    folder = batch.work / f"sub-{index:05d}"
    folder.mkdir(mode=0o711)
    sha = submission_digest(submission)
    recorded: Recorded | None = None
    problem = ("", "")
    files: dict[str, str] = {}
    sandbox_level, warning = "", ""
    part_e: StudentTestsResult | None = None
    part_e_seconds = 0.0
    try:
        copy = prepare(submission, folder, batch.config.zip_limits)
        files = {name: (copy.root / name).read_text(encoding="utf-8", errors="replace") for name in copy.files}
        # Part E's own pristine copy, taken before the suites run; without tests Part E reads nothing from it.
        part_e_root = shutil.copytree(copy.root, folder / "student-tests") if copy.tests else copy.root
        spec = make_spec(root=copy.root, package=copy.package, runtime=batch.runtime,
                         level=batch.level, limits=batch.config.limits, slot=slot, hidden=secret_roots(),
                         coverage=batch.config.coverage)
        sandbox_level, warning = spec.level, spec.warning
        prepared = time.monotonic()
        student_tests = _start_part_e(copy, part_e_root, batch, slot)
        try:
            recorded = _run_suites(RunSettings(spec, batch.config.times, hidden=batch.config.hidden), batch, folder, slot)
            part_e, part_e_seconds = _finish_part_e(student_tests, recorded)
        finally:
            student_tests.close()
            folder.chmod(0o700)  # no later worker reaches this student's copies (at the uid and plain levels)
    except SubmissionError as error:
        problem = ("ungradable", str(error))
        prepared = time.monotonic()
    except (SandboxError, OSError, subprocess.SubprocessError) as error:
        problem = ("grader_fault", str(error))
        prepared = time.monotonic()
    finished = time.monotonic()
    run = GradingRun(sha256=sha, sources=files, sandbox=sandbox_level, sandbox_warning=warning,
                     graded_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), version=__version__,
                     timings={"prepare": round(prepared - started, 3), "tests": round(finished - prepared, 3),
                              "student_tests": round(part_e_seconds, 3), "total": round(finished - started, 3)})
    return score(student=submission.student, manifest=batch.manifest, config=batch.config, recorded=recorded,
                 problem=problem, run=run, student_tests=part_e)


def _start_part_e(copy: PreparedCopy, root: Path, batch: Batch, slot: int) -> StudentTests:
    """Start Part E's sandbox before the hidden suites run, so that its start (a Python importing pytest, about a
    third of a second) overlaps their run instead of following it; it runs nothing until _finish_part_e."""
    return open_student_tests(
        root=root, package=copy.package, tests=copy.tests, package_files=copy.files,
        runtime=make_student_tests_runtime(batch.work / "student-tests-runtime") if copy.tests else batch.work,
        config=batch.config, slot=slot, level=batch.level)


def _finish_part_e(student_tests: StudentTests,
                   recorded: Recorded | None) -> tuple[StudentTestsResult | None, float]:
    """Part E graded in its already started sandbox, once the hidden suites have graded the submission (None when
    they did not: an ungradable submission or a grader fault earns nothing in Part E), with the seconds it took."""
    if recorded is None or recorded.ungradable or recorded.grader_fault:
        return None, 0.0
    started = time.monotonic()
    result = student_tests.grade()
    return result, time.monotonic() - started


def _run_suites(settings: RunSettings, batch: Batch, folder: Path, slot: int) -> Recorded | None:
    """Run the hidden suites in a trusted pytest process; what its plugin recorded (the typed record scoring
    reads), or None if it died or its record does not read."""
    path = folder / "settings.json"
    results = folder / "recorded.json"
    settings.write(path)
    env = pytest_env(**{SPEC_VARIABLE: str(path), RESULTS_VARIABLE: str(results)})
    if batch.server(slot).run(env, settings.times.suite_run_seconds(len(batch.manifest))) is None:
        return None
    try:
        return Recorded.read(results)
    except ValueError:
        return None  # scored as a run that wrote no results: the grader's fault


def grade_all(
    submissions: list[Submission],
    batch: Batch,
    *,
    jobs: int,
    on_result: Callable[[GradeResult], None] = lambda result: None,
) -> list[GradeResult]:
    """Grade every submission over `jobs` parallel slots, in input order; on_result hears each as it ends.

    An unexpected exception while grading one submission is that submission's grader fault, never the end
    of the batch. On KeyboardInterrupt (or an error from on_result, such as a full disk) nothing new
    starts, the running trusted runs and their workers are killed, and the exception goes on once every
    thread has returned: the results on_result already heard are all that was finished.
    """
    slots: SimpleQueue[int] = SimpleQueue()
    for slot in range(jobs):
        slots.put(slot)
    stopping = threading.Event()

    def run(index: int, submission: Submission) -> GradeResult | None:
        if stopping.is_set():
            return None
        slot = slots.get()
        try:
            try:
                result = grade_submission(submission, batch, slot=slot, index=index)
            except Exception as error:  # noqa: BLE001 - one submission's grader fault, not the class's
                result = _fault(submission, batch, error)
            result = with_late_policy(dataclasses.replace(
                result, submitted_at=submission.submitted_at, marked_late=submission.marked_late,
                provenance=submission.provenance, commit=submission.commit), batch.config.late)
        finally:
            slots.put(slot)
        if stopping.is_set():
            return None  # its run was killed by the stop: the result is not the submission's
        on_result(result)
        return result

    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(run, index, submission) for index, submission in enumerate(submissions)]
    try:
        results = [future.result() for future in futures]
    except BaseException:
        stopping.set()
        pool.shutdown(wait=False, cancel_futures=True)
        batch.stop_runs()
        pool.shutdown(wait=True)
        raise
    pool.shutdown()
    return [result for result in results if result is not None]


def with_late_policy(result: GradeResult, policy: LatePolicy | None) -> GradeResult:
    """The result with the late policy applied after scoring: its lateness recorded and its score the points
    after the penalty. No policy, a grader fault, or nothing saying when it came: the result unchanged."""
    if policy is None or result.outcome == "grader_fault":
        return result
    lateness = assess(policy, result.student, result.submitted_at, result.marked_late, result.score)
    if lateness is None:
        return result
    return dataclasses.replace(result, late=lateness, score=lateness.points_after)


def without_late(result: GradeResult) -> GradeResult:
    """The result as scored, before any late policy: what a changed policy is applied to again."""
    if result.late is None:
        return result
    return dataclasses.replace(result, late=None, score=result.late.points_before)


def _fault(submission: Submission, batch: Batch, error: Exception) -> GradeResult:
    """The grader-fault result of a submission whose grading raised where nothing should."""
    return score(
        student=submission.student, manifest=batch.manifest, config=batch.config, recorded=None,
        problem=("grader_fault", f"the grader failed on this submission ({type(error).__name__}: {error})"),
        run=GradingRun(graded_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), version=__version__),
    )


SCRATCH_PREFIX = "war-grader-run-"
"""Scratch folders of grading runs, in the temporary folder."""


@contextlib.contextmanager
def scratch_folder() -> Iterator[str]:
    """A private scratch folder for one run, removed at the end, even after Ctrl-C.

    The run holds a lock on a file in it, so a later run can tell a folder left by a killed run (kill -9
    releases the lock) from a live one, and removes it.
    """
    remove_abandoned_scratch()
    folder = tempfile.mkdtemp(prefix=SCRATCH_PREFIX)
    lock = os.open(os.path.join(folder, ".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield folder
    finally:
        os.close(lock)
        shutil.rmtree(folder, ignore_errors=True)


def remove_abandoned_scratch() -> list[Path]:
    """Remove scratch folders whose run is gone (their lock is free); the folders removed."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(SCRATCH_PREFIX + "*"):
        try:
            if time.time() - folder.stat().st_mtime < 60:
                continue  # perhaps made a moment ago, its lock not taken yet
            lock = os.open(folder / ".lock", os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue  # no lock yet (just made) or not ours to judge
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # its run is alive
        finally:
            os.close(lock)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
