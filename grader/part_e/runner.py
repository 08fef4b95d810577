"""Part E, trusted side: run a student's own tests in the sandbox against their package, the wheats and the chaffs.

One sandboxed process per student (grader/part_e/in_sandbox.py), started before the hidden suites,
imports pytest once and forks a child per implementation. The implementations travel over the sandbox's
standard input, one at a time, straight to the child that runs them: the reference and the chaffs are
inside the sandbox only during these runs, and never on its file system. Nothing a run prints is kept.
Order: the student's own package first (for the coverage shown to the student: every test under the ceiling),
then, in an order secret to the student (secret_order), every judged run: each wheat (WHEAT_RUNS) and each chaff
(CHAFF_RUNS) twice, at places no run can tell, all with the same command, built from the own run alone (the
tests that ended there, each with a deadline from its time there). So no run knows what it runs, whether it
is a first or a second, or where the reference stands. A test is valid when it passed on every wheat run; a
chaff is caught when a valid test fails on both of its runs, and a chaff no test failed on its first run gets
no second; a test that passes on one run of an implementation and fails on another is nondeterministic
(judge.py says what follows). A chaff's run ends at the first test that passed on every wheat run so far and
fails on it. Every field a run reports is checked against a Schema.
"""

from __future__ import annotations

import ast
import base64
import dataclasses
import functools
import hashlib
import importlib.util
import json
import marshal
import os
import random
import shutil
import subprocess
import sys
import threading
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import reference
import starter

from ..chaffs import CHAFFS, CONTRACT_MODULES, chaff_sources, wheat_sources
from ..config import Config
from ..hidden import secret_roots
from ..sandbox.host import RUN_UIDS
from ..sandbox.isolation import (
    NAMESPACED,
    UID_BLOCK,
    SandboxError,
    add_allowlist,
    choose_level,
    clean_up_after,
    finish_runtime,
    make_spec,
    scratch_inodes,
    worker_command,
    worker_env,
)
from .judge import CHAFF_RUNS, KNOWN_EXCEPTIONS, Run, given_examples, judge
from .protocol import OWN_PACKAGE, Implementation, RunCommand
from .session import REFUSED, SandboxFault, Session, Stopped
from ..results import StudentTestsResult
from ..rubric import PART_E

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

DATACLASS_TEXTS = "dataclass_texts.json"
"""The code dataclasses writes for the starter's classes, in the runtime: the zygote compiles it once
(run_sources.serve_dataclass_code)."""

_RECORD_DATACLASS_TEXTS = """import dataclasses, importlib, json, sys
sys.path.insert(0, sys.argv[1])
texts, real = [], exec
def record(text, *rest):
    texts.append(text)
    return real(text, *rest)
dataclasses.exec = record
importlib.import_module(sys.argv[2])
print(json.dumps(texts))
"""

_runtime_lock = threading.Lock()


@functools.lru_cache(maxsize=1)
def implementations() -> tuple[tuple[str, str, dict[str, str]], ...]:
    """(role, key, sources) of the wheats, then of every chaff, in CHAFFS order."""
    folder = Path(reference.__file__).parent
    reference_sources = {name: (folder / name).read_text(encoding="utf-8") for name in CONTRACT_MODULES}
    return (("wheat", "reference", reference_sources), ("wheat", "wheat", wheat_sources()),
            *(("chaff", variant.name, chaff_sources(variant)) for variant in CHAFFS))


@functools.lru_cache(maxsize=64)
def compiled(key: str, folder: str) -> Implementation:
    """What the sandbox's child receives for one implementation: its sources, and its modules compiled for their
    paths inside the sandbox (each child loads code instead of compiling it again). Each module is compiled once
    per batch (_flat_modules) and only given each folder's paths here: at the uid level every submission's copy
    has a path of its own, and compiling the 26 implementations again cost each submission about 0.15 s."""
    code = {name: base64.b64encode(marshal.dumps(_at_path(module, os.path.join(folder, name)))).decode("ascii")
            for name, module in _flat_modules(key).items()}
    return Implementation(next(code for _, name, code in implementations() if name == key), code,
                          importlib.util.MAGIC_NUMBER.hex())


_PLACEHOLDER = "<war-grader part E module>"
"""The file name each module is compiled under once, replaced by its path in the sandbox (_at_path)."""


@functools.lru_cache(maxsize=None)
def _flat_modules(key: str) -> dict[str, Any]:
    """Each module of one implementation compiled once (flat_code), under _PLACEHOLDER."""
    sources = next(code for _, name, code in implementations() if name == key)
    return {name: flat_code(text, _PLACEHOLDER) for name, text in sources.items()}


def _at_path(code: Any, file: str) -> Any:
    """code, and every code object nested in it, with co_filename file: the very code flat_code(source, file)
    gives (a file name is nothing else in a code object)."""
    constants = tuple(_at_path(constant, file) if isinstance(constant, types.CodeType) else constant
                      for constant in code.co_consts)
    return code.replace(co_filename=file, co_consts=constants)


def flat_code(source: str, file: str) -> Any:
    """A module's code with every line number 1 and every column 0 (in_sandbox.py holds the same function): a
    traceback or a frame's line number says nothing of where in the implementation it was."""
    tree = ast.parse(source, file)
    for node in ast.walk(tree):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
    return compile(tree, file, "exec", dont_inherit=True)


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
        for name in ("run_world.py", "run_sources.py", "run_session.py"):  # in_sandbox.py's neighbours
            shutil.copy(Path(__file__).with_name(name), folder / name)
        for name in ("process_clock.py", "seccomp_bpf.py", "landlock.py"):
            shutil.copy(Path(__file__).parents[1] / "sandbox" / name, folder / name)
        add_allowlist(folder)
        (folder / "student_tests.ini").write_text("[pytest]\npython_files = test_*.py\n")
        (folder / DATACLASS_TEXTS).write_text(json.dumps(starter_dataclass_texts()), encoding="utf-8")
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


@functools.lru_cache(maxsize=1)
def starter_dataclass_texts() -> list[str]:
    """What dataclasses compiles for the starter's classes (Rules, GameResult), as this Python writes it. The
    starter is what every student has: nothing in these texts is a secret of the wheats or chaffs."""
    return dataclass_texts(Path(starter.__file__).resolve().parents[1], "starter")


def dataclass_texts(folder: Path, module: str) -> list[str]:
    """What dataclasses compiles for the classes of module (imported from folder), recorded in a Python process of
    its own, so nothing but that module's classes is in it; empty when it cannot be recorded (runs only get
    slower)."""
    try:
        done = subprocess.run([sys.executable, "-I", "-c", _RECORD_DATACLASS_TEXTS, str(folder), module],
                              capture_output=True, text=True, timeout=60, check=True)
        texts = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    return [text for text in texts if isinstance(text, str)] if isinstance(texts, list) else []


def grade_student_tests(*, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                        runtime: Path, config: Config, slot: int, level: str | None = None) -> StudentTestsResult:
    """Run and judge the tests found at root (a private copy Part E alone uses), at level (by default the one
    choose_level picks for config)."""
    student_tests = open_student_tests(root=root, package=package, tests=tests, package_files=package_files,
                                       runtime=runtime, config=config, slot=slot,
                                       level=level or choose_level(config.sandbox, allow_plain=config.allow_plain))
    try:
        return student_tests.grade()
    finally:
        student_tests.close()


def open_student_tests(*, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                       runtime: Path, config: Config, slot: int, level: str) -> StudentTests:
    """Part E's sandbox for the tests found at root, started now: its start (a Python importing pytest, about
    a third of a second) overlaps whatever the caller does next, the hidden suites, until grade() is called."""
    student_tests = StudentTests(root, package, tests, package_files, config)
    if not tests:
        return student_tests
    try:
        spec = make_spec(root=root, package=package, runtime=runtime, level=level,
                         limits=config.limits, slot=slot + SLOT_OFFSET, coverage=False,
                         hidden=secret_roots(), run_uids=RUN_UIDS)
    except (SandboxError, OSError) as error:  # the grader's fault: grade() raises it (PartEFault)
        student_tests.problem = f"The grader could not run your tests ({error}); ask your instructor."
        return student_tests
    student_tests.spec = spec
    student_tests.session = Session(worker_command(spec, script=SCRIPT), worker_env(spec), spec.limits, spec.uid,
                                     spec.level, spec.run_uids)
    try:
        student_tests.session.launch()
        # pytest's session is set up from this line while the hidden suites run (no student code runs for it)
        student_tests.session.prepare(student_tests.ceiling())
    except Stopped as stop:
        student_tests.problem = str(stop)
    return student_tests


class PartEFault(SandboxError):
    """Part E's sandbox did not start, or could not set a run up or clean up after one: the grader's fault, so the
    whole submission is a grader fault (graded again next time), never a Part E score of 0 charged to the
    student (a machine too busy to start a sandbox in time costs a student nothing)."""


class StudentTests:
    """One submission's Part E: its sandbox (started by open_student_tests), graded once, then closed."""

    def __init__(self, root: Path, package: str, tests: tuple[str, ...], package_files: tuple[str, ...],
                 config: Config) -> None:
        self.root, self.package, self.tests, self.config = root, package, tests, config
        self.package_files = package_files
        self.spec: Any = None
        self.session: Session | None = None
        self.problem = ""
        """Why the sandbox could not start (for the student), or ""."""

    def ceiling(self) -> RunCommand:
        """The own package's run command: every test collected, each under the ceiling (call_timeout)."""
        spec, limits = self.spec, self.config.times
        return RunCommand(root=spec.inside_root, package=self.package, files=tuple(self.tests),
                          scratch_bytes=spec.limits.scratch_bytes, namespaced=spec.level in NAMESPACED,
                          scratch_inodes=scratch_inodes(spec.limits),
                          sweep=spec.level != "plain" or spec.uid is not None, private_tmp=spec.level == "bwrap",
                          scratch=spec.inside_scratch,
                          test_timeout=limits.call_timeout, import_timeout=limits.call_timeout)

    def close(self) -> None:
        """Stop the sandbox (its whole process tree), graded or not, and remove what its uid left wherever it could
        write (the uid and plain levels), however the sandbox ended: a run that killed its own zygote skipped the
        resets between runs; SandboxError when something stays."""
        if self.session is not None:
            self.session.stop()
        if self.spec is not None:
            clean_up_after(self.spec)

    def grade(self) -> StudentTestsResult:
        """Run the tests on every implementation and judge them; Part E's budget starts now."""
        root, package, tests, config = self.root, self.package, self.tests, self.config
        if not tests:
            return StudentTestsResult("no_tests", "No test files were found (test_*.py files, or a tests/ folder).")
        if self.problem or self.session is None:
            raise PartEFault(self.problem or "The grader could not run your tests (Part E's sandbox did not start); "
                                             "ask your instructor.")
        test_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace") for path in tests}
        package_sources = {path: (root / path).read_text(encoding="utf-8", errors="replace")
                           for path in self.package_files}
        example = STARTER_TESTS.read_text(encoding="utf-8") if STARTER_TESTS.is_file() else ""
        given = given_examples(test_sources, example)
        limits = config.times
        spec, session = self.spec, self.session
        session.budget = limits.budget
        session.seed = secret_seed(test_sources, package_sources)
        folder = os.path.join(spec.inside_root, package)
        schema = Schema({os.path.join(spec.inside_root, path): _line_count(text) for path, text in test_sources.items()},
                        tuple(tests), None, {path: _line_count(text) for path, text in package_sources.items()})
        (_, reference_key, _), (_, wheat_key, _), *chaffs = implementations()
        runs: list[Run] = []
        settled: set[str] = set()
        """The chaffs run twice, or once when no test failed on them (their second run would change nothing)."""
        note = ""
        deadlines: dict[str, float] = {}
        try:
            session.wait_boot()
            # The student's own package first (for the coverage shown to the student), before any implementation
            # has been in the sandbox: what this run reports (test names, outcomes) reaches the student's report,
            # and a run after the reference could find the reference's traces in the memory it inherits.
            ceiling = self.ceiling()
            runs.append(_run(session, dataclasses.replace(ceiling, coverage=True), "own", "own", None, schema))
            # Only the names collected on the student's own package: a name built while collecting on a wheat (a
            # parametrized id) could carry the wheat's source.
            collected = list(dict.fromkeys(runs[0].collected))[:MAX_TESTS]
            if not collected:
                note = ("Your test files could not be imported" if runs[0].collect_errors else
                        "No tests were collected from your test files") + " (run them with pytest yourself to see why)."
                return StudentTestsResult("not_run", note)
            schema = dataclasses.replace(schema, ids=frozenset(collected))
            group = _judged_command(ceiling, runs[0], collected, config)
            deadlines = dict(group.deadlines or {})
            candidates = [test for test in group.select or () if test not in given]
            order = secret_order(test_sources, package_sources) if candidates else []
            _judged_runs(session, group, candidates, order, folder, schema, runs, settled)
        except SandboxFault as fault:
            raise PartEFault(str(fault)) from None
        except Stopped as stop:
            if not {reference_key, wheat_key} <= {run.key for run in runs}:
                return StudentTestsResult("not_run", str(stop))
            note = f"{stop} The buggy versions not run twice by then count as missed." \
                if len(settled) < len(chaffs) else ""
        result = judge(runs, test_sources=test_sources, package_sources=package_sources, given=given,
                       points=config.points.get(PART_E, 0.0), test_timeout=limits.call_timeout,
                       deadlines=deadlines)
        return dataclasses.replace(result, note=note) if note else result


def _judged_command(ceiling: RunCommand, own: Run, collected: list[str], config: Config) -> RunCommand:
    """The very same command every judged run gets, with its deadlines, built from the student's own run alone (what
    it holds is readable by every test, and no run may differ from another by what it runs or where it stands): the
    tests that ended on the student's package, those that failed there first (on the chaffs, their outcomes explain
    them), each with a deadline from its time there."""
    limits = config.times
    known = set(collected)
    deadlines = {test: limits.test_deadline(seconds) for test, seconds in own.seconds.items() if test in known}
    ended = [test for test in collected if _outcome(own, test) in ENDED]
    select = [test for test in ended if _outcome(own, test) != "passed"] + \
             [test for test in ended if _outcome(own, test) == "passed"]
    return dataclasses.replace(ceiling, deadlines=deadlines, test_timeout=limits.deadline_floor,
                               import_timeout=limits.test_deadline(own.import_seconds)).with_select(select)


def _judged_runs(session: Session, group: RunCommand, candidates: list[str], order: list[tuple[str, str]],
                 folder: str, schema: Schema, runs: list[Run], settled: set[str]) -> None:
    """Every judged run, in the secret order, each appended to runs as it ends (what Stopped leaves is kept); a
    chaff goes into settled once it has had the runs it gets. Ends early once no candidate test can be valid."""
    for role, key in order:
        wheats = [run for run in runs if run.role == "wheat"]
        steady = [test for test in candidates
                  if len({_outcome(run, test) for run in wheats}) <= 1
                  and all(_outcome(run, test) in ("passed", "failed") for run in wheats)]
        if not steady:
            break  # no test can be valid or explained any more: the runs left would change nothing
        if role == "wheat":
            runs.append(_run(session, group, role, key, compiled(key, folder), schema))
            continue
        earlier = [run for run in runs if run.key == key]
        if earlier and not any(_outcome(run, test) == "failed" for run in earlier for test in candidates):
            # No test failed on its first run: it cannot be caught, and no second run is made. (Any test, an
            # invalid one too: a second run is also where a test whose outcome varies shows it.)
            settled.add(key)
            continue
        # A chaff's run ends at the first test that passed on every correct run so far and fails on it (once a
        # correct run has been seen).
        catching = [test for test in steady if all(_outcome(run, test) == "passed" for run in wheats)]
        runs.append(_run(session, group, role, key, compiled(key, folder), schema, stop_on=catching if wheats else []))
        if len(earlier) + 1 >= CHAFF_RUNS:
            settled.add(key)


WHEAT_RUNS = {"reference": 2, "wheat": 2}
"""How many times each wheat runs among the chaffs: twice, as every implementation does. A run on a wheat runs
every test (a chaff's run ends at its first catch), so each one more costs as much as the student's whole
suite."""

MAX_RUNS = 1 + sum(WHEAT_RUNS.values()) + len(CHAFFS) * CHAFF_RUNS
"""Most runs one submission's Part E makes: the student's own, the wheats' (WHEAT_RUNS), each chaff CHAFF_RUNS times.
At the uid level each has a uid of its own (host.RUN_UIDS holds the zygote's and MAX_RUNS more)."""


@functools.lru_cache(maxsize=1)
def _hidden_digest() -> bytes:
    """A digest of what students never see (the reference's, the second wheat's and every chaff's sources)."""
    digest = hashlib.sha256(b"war-grader part E order v1")
    for role, key, sources in implementations():
        digest.update(json.dumps([role, key, sorted(sources.items())]).encode())
    return digest.digest()


def secret_order(test_sources: dict[str, str], package_sources: dict[str, str]) -> list[tuple[str, str]]:
    """The judged runs (every run after the student's own package), in an order secret to the student and the
    same for the same submission: each wheat (WHEAT_RUNS times) and each chaff (CHAFF_RUNS times) at random
    places, the reference's runs among them like any other.

    Seeded from the hidden digest and the submission's own files: a student can neither compute it nor change it
    without changing the submission, and the same submission always gets the same order (the same grade)."""
    (_, reference_key, _), (_, wheat_key, _), *chaffs = implementations()
    seed = secret_seed(test_sources, package_sources)
    order = [("wheat", reference_key)] * WHEAT_RUNS["reference"] + [("wheat", wheat_key)] * WHEAT_RUNS["wheat"] \
        + [(role, key) for role, key, _ in chaffs] * CHAFF_RUNS
    random.Random(seed).shuffle(order)
    return order


def secret_seed(test_sources: dict[str, str], package_sources: dict[str, str]) -> bytes:
    """The submission's secret seed: the hidden digest and the submission's own files."""
    return hashlib.sha256(_hidden_digest() + json.dumps([sorted(test_sources.items()),
                                                         sorted(package_sources.items())]).encode()).digest()


def _line_count(text: str) -> int:
    return len(text.splitlines())


ENDED = frozenset({"passed", "failed", "error", "skipped"})
"""Outcomes of a test that ended by itself (not one that hung, crashed or never ran)."""


def _outcome(run: Run, test: str) -> str:
    return str((run.outcomes.get(test) or {}).get("outcome", "missing"))


def _run(session: Session, command: RunCommand, role: str, key: str, implementation: Implementation | None,
         schema: Schema, *, stop_on: list[str] | tuple[str, ...] = ()) -> Run:
    """One implementation (None: the student's own package): the sandbox's report, every field checked against
    the schema. Each run's salt (see run_sources.py's load_all) comes from the submission's secret seed and the
    run's number."""
    child = OWN_PACKAGE
    if implementation is not None:
        session.runs += 1
        salt = int.from_bytes(hashlib.sha256(session.seed + session.runs.to_bytes(4, "big")).digest()[:8], "big")
        child = implementation.line(salt)
    return checked_run(session.run(command, child, list(stop_on)), role, key, schema)


MAX_ID_CHARS = 1000
"""Longest test id kept (pytest's node id: file, "::", the function's name and a parametrized id)."""


@dataclass(frozen=True)
class Schema:
    """What a run may report: the student's test files (their paths inside the sandbox, each with its number of
    lines), the test ids collected on the student's own package (None: the own run, which defines them) and
    the package's files with their numbers of lines (coverage)."""

    files: dict[str, int]
    """Inside path of each of the student's test files -> its number of lines."""
    relative: tuple[str, ...]
    """The same files, relative to the submission (pytest's node ids start with one)."""
    ids: frozenset[str] | None = None
    """The student's own test ids, collected on their package (None for that run)."""
    package_lines: dict[str, int] = field(default_factory=dict)
    """Each package file (relative) -> its number of lines."""

    def known_id(self, test: Any) -> bool:
        """A test id the student wrote: collected on their package, or (own run) of one of their files."""
        if not isinstance(test, str) or not test or len(test) > MAX_ID_CHARS:
            return False
        if self.ids is not None:
            return test in self.ids
        return any(test.startswith(file + "::") for file in self.relative)


def checked_run(done: dict[str, Any], role: str, key: str, schema: Schema) -> Run:
    """A sandbox's report as a Run: only bounded, known fields. A test whose outcome breaks the schema (a word
    not known, a value of another type, a line past its file's end, a file not the student's) counts as a crash
    of that run, and so does every test of a report refused whole (REFUSED); an id the student did not write is
    dropped."""
    outcomes: dict[str, dict[str, Any]] = {}
    if done.get(REFUSED) is True:
        return Run(role, key, {test: dict(CRASH) for test in sorted(schema.ids or ())}, [], [], {}, 0.0)
    results = done.get("results")
    for test, outcome in (results.items() if isinstance(results, dict) else []):
        if schema.known_id(test) and len(outcomes) < MAX_TESTS:
            outcomes[test] = checked_outcome(outcome, schema)
    listed = done.get("collected")
    collected = list(dict.fromkeys(test for test in (listed if isinstance(listed, list) else [])
                                   if schema.known_id(test)))[:MAX_TESTS]
    listed = done.get("collect_errors")
    errors = [file for file in (listed if isinstance(listed, list) else []) if file in schema.relative]
    measured: Any = done.get("coverage") if role == "own" and isinstance(done.get("coverage"), dict) else {}
    coverage = {path: [n for n in lines if type(n) is int and 0 < n <= schema.package_lines[path]][:100000]
                for path, lines in measured.items() if path in schema.package_lines and isinstance(lines, list)}
    return Run(role, key, outcomes, collected, errors, coverage, _number(done.get("import_seconds")))


OUTCOMES = frozenset({"passed", "failed", "error", "skipped", "timeout", "crash"})
"""What the sandbox may say of a test."""

CRASH = {"outcome": "crash", "exception": None, "file": None, "line": None, "seconds": 0.0}
"""What a test whose report breaks the schema counts as."""


def checked_outcome(outcome: Any, schema: Schema) -> dict[str, Any]:
    """One test's outcome as the sandbox reported it, if every field is one the schema allows; else a crash.

    A child may lie (it runs the student's code, which may have read the implementation it runs on); the
    outcome, the exception's name and the line reach the student's report, so only known words and a line
    of the student's own test file pass, and a lie costs the test that run (a crash catches nothing, and on
    a correct implementation makes the test invalid)."""
    if not isinstance(outcome, dict):
        return dict(CRASH)
    kind, exception, file, line, seconds = (outcome.get(key) for key in ("outcome", "exception", "file", "line",
                                                                         "seconds"))
    if type(kind) is not str or type(exception) not in (str, type(None)) or type(file) not in (str, type(None)):
        return dict(CRASH)  # before any of them is looked up in a set: a list is no word
    if kind not in OUTCOMES or (exception is not None and exception not in KNOWN_EXCEPTIONS | {"Exception"}):
        return dict(CRASH)
    if file in (None, ""):
        if line not in (None, 0):
            return dict(CRASH)
        file, line = None, None
    elif not isinstance(file, str) or file not in schema.files or type(line) is not int \
            or not 0 < line <= schema.files[file]:
        return dict(CRASH)
    if seconds is not None and not (type(seconds) in (int, float) and 0 <= seconds < 1e6):
        return dict(CRASH)
    return {"outcome": kind, "exception": exception, "file": file, "line": line, "seconds": _number(seconds)}


def _number(value: Any) -> float:
    """A non-negative finite float from the sandbox's report (0 for anything else)."""
    return float(value) if type(value) in (int, float) and 0 <= value < 1e6 else 0.0
