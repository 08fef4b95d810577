"""A trusted process that imports pytest, the hidden suites and the expected results once, then forks a
fresh pytest run for each submission: the start-up cost is paid per job slot instead of per student.

Protocol on stdin/stdout, one JSON object per line: {"args": [...], "env": {...}} starts a run; the server
answers {"pid": N} at once and {"status": S} when that run ends. Student code never runs here: each run
talks to its submission's sandboxed worker like any trusted pytest process.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import sys
from pathlib import Path


def warm_up() -> None:
    """Import everything a run needs and compute what every run shares."""
    import pytest  # noqa: F401, PLC0415 - imported to be inherited by every fork

    from grader.grading import expected, harness  # noqa: F401, PLC0415

    suites = Path(__file__).with_name("suites")
    for path in sorted(suites.glob("test_*.py")):
        importlib.import_module(f"grader.grading.suites.{path.stem}")
    expected.warm()


def run(args: list[str], env: dict[str, str]) -> None:
    """In the forked child: a clean environment and descriptors, then one pytest session."""
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.environ.clear()
    os.environ.update(env)
    import pytest  # noqa: PLC0415 - already imported by warm_up

    try:
        code = int(pytest.main(args))
    except BaseException:  # noqa: BLE001 - report any failure as a status, never return into the server
        code = 99
    os._exit(code)


def serve() -> None:
    """Answer run requests until stdin closes."""
    warm_up()
    gc.freeze()  # the warmed-up objects are never collected, so forks neither scan nor copy them
    reply = sys.stdout
    reply.write(json.dumps({"ready": True}) + "\n")
    reply.flush()
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            run(request["args"], request["env"])
        reply.write(json.dumps({"pid": pid}) + "\n")
        reply.flush()
        _, status = os.waitpid(pid, 0)
        reply.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
        reply.flush()


if __name__ == "__main__":
    serve()
