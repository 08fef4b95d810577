"""A trusted process that runs one pytest session over the hidden suites for a whole job slot: it imports and
collects the suites once, then forks a run of the collected tests for each submission. Start-up, collection
and the reference's timings (grader.grading.deadlines) are paid per job slot instead of per student.

Started as `python -I -m grader.grading.suite_server <pytest arguments>`. Protocol on stdin/stdout, one JSON
object per line, each a typed record below: the server says ServerReply(ready=True) once the suites are
collected (or ready=False with the error); then each RunRequest(env) starts a run, answered ServerReply(pid)
at once and ServerReply(status) when the run ends. Student code never runs here: each run talks to its submission's sandboxed worker like any
trusted pytest process.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import IO

import pytest

from . import deadlines, expected, harness
from .recorded import Recorded
from .suite_protocol import RunRequest, ServerReply, read_timings


class Serve:
    """The plugin that replaces pytest's test loop with the request loop."""

    def __init__(self, requests: IO[str], replies: IO[str]) -> None:
        self.requests, self.replies = requests, replies
        self.collect_errors: list[str] = []

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """Keep the end of each collection error, for the one line that says the suites do not collect."""
        if report.failed:
            self.collect_errors.append(" | ".join(str(report.longrepr).strip().splitlines()[-2:]))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        """Answer run requests until stdin closes; each run is a forked child running every collected test."""
        if session.testsfailed or not session.items:
            why = self.collect_errors[0] if self.collect_errors else "no tests collected"
            self._reply(ServerReply(ready=False, error=f"the hidden suites do not collect: {why}"[:500]))
            return True
        expected.warm()
        for item in session.items:
            item.location  # noqa: B018 - a cached property every run's reports read: computed once, inherited
        gc.freeze()  # the warmed-up objects are never collected, so forks neither scan nor copy them
        self._reply(ServerReply(ready=True))
        for line in self.requests:
            request = RunRequest.from_json(json.loads(line))
            learned, told = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(learned)
                _run(session, request.env, told)
            os.close(told)
            self._reply(ServerReply(pid=pid))
            _learn(learned)
            _, status = os.waitpid(pid, 0)
            self._reply(ServerReply(status=os.waitstatus_to_exitcode(status)))
        return True

    def _reply(self, message: ServerReply) -> None:
        self.replies.write(json.dumps(message.to_json()) + "\n")
        self.replies.flush()


def _run(session: pytest.Session, env: dict[str, str], told: int) -> None:
    """In the forked child: a clean environment, every test in order, the results written; never returns."""
    code = 0
    try:
        os.setsid()
        os.environ.clear()
        os.environ.update(env)
        items = session.items
        for index, item in enumerate(items):
            following = items[index + 1] if index + 1 < len(items) else None
            item.config.hook.pytest_runtest_protocol(item=item, nextitem=following)
        harness.pytest_sessionfinish(session, 0)
        with os.fdopen(told, "w", encoding="utf-8") as pipe:
            json.dump(deadlines.KNOWN, pipe)
    except BaseException as error:  # noqa: BLE001 - report any failure, never return into the server
        code = 99
        _record_fault(env, error)
    os._exit(code)


def _record_fault(env: dict[str, str], error: BaseException) -> None:
    """Where a run that failed has written no results, a record of the grader's fault naming what ended it: the
    exception's type and the grader's line it was raised from (never its text, which could carry a student's), so
    the report says more than that the run "ended without writing its results"."""
    path = env.get(harness.RESULTS_VARIABLE, "")
    if not path or os.path.exists(path):  # a record written before the failure stands
        return
    where = ""
    trace = error.__traceback__
    while trace is not None:
        module = trace.tb_frame.f_globals.get("__name__", "")
        if isinstance(module, str) and module.startswith("grader."):
            where = f" in {module}, line {trace.tb_lineno}"
        trace = trace.tb_next
    try:
        Recorded(grader_fault=f"the grading process failed ({type(error).__name__}{where})").write(path)
    except BaseException:  # noqa: BLE001, S110 - then it is the run that wrote nothing, as before
        pass


def _learn(learned: int) -> None:
    """Keep the reference timings the run measured (on EOF: it ended), for the runs forked after it."""
    with os.fdopen(learned, encoding="utf-8") as pipe:
        deadlines.KNOWN.update(read_timings(pipe.read()))


def serve(args: list[str]) -> int:
    """Collect the suites with args and serve runs; the protocol goes over copies of stdin and stdout, and
    the real descriptors 0-2 point to /dev/null, so nothing pytest or a run prints can reach it."""
    requests = os.fdopen(os.dup(0), encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    return int(pytest.main(args, plugins=[Serve(requests, replies)]))


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1:]))
