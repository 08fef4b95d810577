"""pytest's session for Part E's runs: set up once in the zygote (its plugins, its configuration, the student's
test files collected and their assertions rewritten) and recorded in each run's child, test by test, as JSON lines
on the run's pipe. Part of Part E's runtime, beside in_sandbox.py, which imports it as a top-level module; it runs
inside the sandbox, and only the names of KNOWN_EXCEPTIONS ever cross from a test's error to the trusted side."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
"""The runtime folder (this module's, in_sandbox.py's and pytest's)."""

KNOWN_EXCEPTIONS = frozenset({
    "AssertionError", "IndexError", "ValueError", "TypeError", "KeyError", "AttributeError", "NameError",
    "ImportError", "ModuleNotFoundError", "RecursionError", "ZeroDivisionError", "NotImplementedError",
    "RuntimeError", "StopIteration", "SystemExit", "Failed", "OSError", "FileNotFoundError", "PermissionError",
})
"""Exception names reported as they are; any other is reported as "Exception" (no free text crosses)."""

DISABLED_PLUGINS = ("cacheprovider", "faulthandler", "unraisableexception", "threadexception", "junitxml", "pastebin",
                    "doctest", "legacypath", "logging", "warnings", "setuponly", "setupplan", "stepwise", "terminal",
                    "debugging")
"""pytest plugins a student's tests do not need: fewer plugins make each run start faster (tmp_path, capsys,
monkeypatch and pytest.raises stay). Nothing reads pytest's terminal (all output is thrown away), so its
reporter, which hooks every phase of every test, is left out too (and with it the -q it defines); without the
debugging plugin a breakpoint() in a test fails that test (its standard input is empty) instead of ending
the session."""

RANDOM_SEED = 0
"""What `random` starts from in every run: before collection, before every test, and wherever a generator is
seeded with nothing (random.seed(), random.Random()), which would otherwise draw from the operating system."""


def send(fd: int, message: dict[str, Any]) -> None:
    data = (json.dumps(message) + "\n").encode()
    while data:
        written = os.write(fd, data)
        data = data[written:]



class Recorder:
    """The pytest plugin reporting each test's start and end on the child's pipe."""

    def __init__(self, test_files: set[str]) -> None:
        self.fd, self.select_ids, self.test_files = -1, None, test_files
        self.phases: dict[str, list[tuple[str, str]]] = {}
        self.details: dict[str, dict[str, Any]] = {}

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            send(self.fd, {"collect_error": report.nodeid})

    def pytest_collection_modifyitems(self, session: Any, config: Any, items: list[Any]) -> None:
        if self.select_ids is not None:  # the trusted side's choice and order
            rank = {test: index for index, test in enumerate(self.select_ids)}
            items[:] = sorted((item for item in items if item.nodeid in rank), key=lambda item: rank[item.nodeid])
        send(self.fd, {"collected": [item.nodeid for item in items]})

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        import random  # noqa: PLC0415

        random.seed(RANDOM_SEED)  # the same grade every time, even for a test that draws unseeded random numbers
        send(self.fd, {"start": nodeid})

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: Any, call: Any) -> Any:
        report = yield
        if call.excinfo is not None and report.failed and item.nodeid not in self.details:
            name = call.excinfo.type.__name__ if isinstance(call.excinfo.type, type) else ""
            line, file = 0, ""
            tb = call.excinfo.tb
            while tb is not None:  # the implementation's frames are hidden (RuntimeError): only the tests' count
                try:
                    path = tb.tb_frame.f_code.co_filename
                except RuntimeError:
                    path = ""
                if path in self.test_files:
                    line, file = tb.tb_lineno, path
                tb = tb.tb_next
            self.details[item.nodeid] = {"exception": name if name in KNOWN_EXCEPTIONS else "Exception",
                                         "file": file, "line": line}
        return report

    def pytest_runtest_logreport(self, report: Any) -> None:
        self.phases.setdefault(report.nodeid, []).append((report.when, report.outcome))

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        outcome = "passed"
        for when, result in self.phases.get(nodeid, []):
            if result == "skipped":
                outcome = "skipped"
                break
            if result == "failed":
                outcome = "failed" if when == "call" else "error"
                break
        send(self.fd, {"end": nodeid, "outcome": outcome, **self.details.get(nodeid, {})})


def _arguments(command: dict[str, Any]) -> list[str]:
    """pytest's arguments: our empty ini, the copy as rootdir (and confcutdir: pytest then lists no folder above
    it, which the sandbox's uid may not list at the uid level), no conftest, no capture, the student's files."""
    root = command["root"]
    return ["-c", os.path.join(HERE, "student_tests.ini"), "--rootdir", root, "--confcutdir", root, "--noconftest",
            "-s",
            *[option for name in DISABLED_PLUGINS for option in ("-p", f"no:{name}")],
            *[os.path.join(root, file) for file in command["files"]]]


class Prepared:
    """pytest's configuration and session, set up once in the zygote (no student code runs for that) and
    inherited by every child, which only collects and runs: a run costs a fork, not a pytest start."""

    def __init__(self, command: dict[str, Any]) -> None:
        root = command["root"]
        os.chdir(root)
        sys.path.insert(0, root)
        self.command = command
        self.recorder = Recorder({os.path.join(root, file) for file in command["files"]})
        self.config: Any = None
        self.session: Any = None
        try:
            from _pytest.config import _prepareconfig  # noqa: PLC0415
            from _pytest.main import Session  # noqa: PLC0415

            self.config = _prepareconfig(_arguments(command), plugins=[self.recorder])
            session = Session.from_config(self.config)
            session.exitstatus = 0
            self.config._do_configure()
            self.config.hook.pytest_sessionstart(session=session)
            self.session = session
        except Exception:  # noqa: BLE001 - a pytest without these private helpers: each child starts pytest itself
            self.config = self.session = None
            return
        _rewrite_once(self.config, [os.path.join(root, file) for file in command["files"]])
        _no_failure_reports()
        _compile_patterns(self.config)

    def run(self) -> None:
        if self.session is None:
            pytest.main(_arguments(self.command), plugins=[self.recorder])
            return
        from _pytest.main import _main  # noqa: PLC0415

        try:
            _main(self.config, self.session)
        except BaseException:  # noqa: BLE001, S110 - pytest.exit, KeyboardInterrupt...: the tests not ended are not run
            pass
        finally:
            try:
                self.config.hook.pytest_sessionfinish(session=self.session, exitstatus=self.session.exitstatus)
            except BaseException:  # noqa: BLE001, S110
                pass


def _rewrite_once(config: Any, files: list[str]) -> None:
    """pytest's assertion rewriting of the student's test files, done here once instead of in every child.

    Rewriting parses and transforms the source and compiles it; nothing of the student's runs. Each child
    then finds the rewritten code in memory (with -B pytest caches nothing on disk). The code is the
    source as the zygote read it first: a test that edits its own file changes nothing, as before."""
    try:
        from pathlib import Path  # noqa: PLC0415

        from _pytest.assertion import rewrite  # noqa: PLC0415

        original = rewrite._rewrite_test
        rewritten = {}
        for file in files:
            try:
                rewritten[file] = original(Path(file), config)
            except Exception:  # noqa: BLE001, S112 - a file that does not parse: the child reports it as pytest would
                continue

        def cached(fn: Any, config: Any) -> Any:
            return rewritten.get(str(fn)) or original(fn, config)

        rewrite._rewrite_test = cached
    except (ImportError, AttributeError):  # another pytest: each child rewrites for itself
        pass


def _compile_patterns(config: Any) -> None:
    """Compile the glob patterns collection matches paths against (norecursedirs, python_files...) here once:
    fnmatch caches each compiled pattern, and a child that compiled them for itself spent about 0.5 ms of its
    run on it (bench/part_e_run_cost.py). The patterns are pytest's settings: nothing of the student's."""
    import fnmatch  # noqa: PLC0415

    for option in ("norecursedirs", "python_files", "python_classes", "python_functions"):
        try:
            patterns = config.getini(option)
        except (ValueError, KeyError):
            continue
        for pattern in patterns if isinstance(patterns, list) else ():
            if isinstance(pattern, str):
                fnmatch.fnmatch("", pattern)


def _no_failure_reports() -> None:
    """Nothing reads pytest's failure reports (all output is thrown away), and formatting one, with its source
    excerpts, costs more than most tests: every failure gets a one-word report instead."""
    try:
        from _pytest import nodes  # noqa: PLC0415

        def one_word(self: Any, excinfo: Any, style: Any = None) -> Any:
            return "failed"

        nodes.Node._repr_failure_py = one_word  # type: ignore[method-assign]
    except (ImportError, AttributeError):
        pass
