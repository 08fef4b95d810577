"""The process that runs student code: JSON requests in, plain JSON values out, nothing trusted.

This module runs inside the sandbox (stdlib only; `python -c "import worker; worker.main()"`, so the
interpreter reads its compiled .pyc from the runtime). The trusted side imports it only to run the same
operations on the reference in its own process (expected answers, deadlines), never on student code. It
reads one JSON request per line on standard input and writes one JSON reply per line on the file
descriptor it was handed. Every value it sends back
is plain data with the student's types spelled out, so the trusted side can compare strictly; the
trusted side never believes anything this process says beyond "these are the values".

This module holds the process itself: its start (main) and its loop (serve). The rest of the worker is in its
NEIGHBOURS, which make_runtime copies beside it: operations.py (the Session and its op_<name> operations),
line_recorder.py (which statements ran) and plain_values.py (values, exceptions and output made plain). In the
runtime they are top-level modules, imported as such; the trusted side imports them as grader.sandbox's,
relatively. trusted_units.py (the correct stand-ins of a repaired call) is never in the runtime, nor in this
process: repair_server.py, forked from this process at hello before the submission is imported, receives each
repaired call with the stand-ins' source on a pipe of its own and makes the call in a child that ends with it.
"""

from __future__ import annotations

import sys

STARTUP_MODULES = frozenset(sys.modules) - {__name__}
"""Modules every Python program has loaded before its own code: a student module cannot take their names."""

import builtins  # noqa: E402 - after STARTUP_MODULES, which must see only what the interpreter loaded
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

if TYPE_CHECKING or __package__:  # the trusted side's grader.sandbox.worker
    from . import repair_server
    from .line_recorder import LineRecorder
    from .operations import Session
    from .plain_values import MAX_TEXT, CappedText, StudentFault, describe, queue_size, safe_text
else:  # in the runtime: top-level modules beside this one
    import repair_server
    from line_recorder import LineRecorder
    from operations import Session
    from plain_values import MAX_TEXT, CappedText, StudentFault, describe, queue_size, safe_text

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _str, _getattr = type, len, str, getattr
_BUILTINS = dict(vars(builtins))
"""The builtins as they were before any student code ran: the stand-ins of a repaired call run on these."""
_json_dumps, _json_loads = json.dumps, json.loads
_random = random
"""The standard library's random, kept even when a student module takes its name."""

NEIGHBOURS = ("operations", "line_recorder", "plain_values", "repair_server")
"""The worker's own modules, copied beside it into the runtime (make_runtime). trusted_units.py is not: its correct
stand-ins reach only repair_server's child that makes one repaired call."""

CALL_SEED = 0
"""The seed of the random generators at the start of every call, so unseeded randomness repeats exactly."""

COVERAGE: LineRecorder | None = None
"""The record of which statements ran, once started."""


class Quitter:
    """quit() and exit() as a normal interpreter's site module offers them: they raise SystemExit."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code: Any = None) -> None:
        raise SystemExit(code)


def seed_randomness() -> None:
    """Reset the random generators to CALL_SEED: a call that uses unseeded randomness gives the same answer on
    every run (random.seed() and random.Random() without a seed get CALL_SEED too)."""
    _random.seed(CALL_SEED)


def _seed_unseeded() -> None:
    """Make random.Random's seed(None) (what random.seed() and random.Random() do) use CALL_SEED, not urandom."""
    original = _random.Random.seed

    def seed(self, a=None, version=2):  # noqa: ANN001 - random.Random.seed's own signature
        return original(self, CALL_SEED if a is None else a, version)

    _random.Random.seed = seed  # type: ignore[method-assign]
    _random.seed = _random._inst.seed  # the module's own seed() was bound to the old method


def serve(requests, reply) -> None:
    """Answer requests until standard input closes."""
    session: Session | None = None
    capture = CappedText()
    sys.stdout = sys.stderr = capture
    send(reply, {"boot": True, "pid": os.getpid()})
    for line in requests:
        try:
            request = _json_loads(line)
            ident, op, args = request["id"], request["op"], request.get("args", {})
        except (ValueError, KeyError, TypeError):
            send(reply, {"id": None, "ok": False, "fault": "bad request"})
            continue
        seed_randomness()
        if op == "hello" and session is None and _type(args) is dict:
            _start_repairs(args, reply)
        answer, session = _answer(session, ident, op, args)
        send(reply, _with_output(answer, session, capture))


def _answer(session: Session | None, ident: Any, op: str, args: dict) -> tuple[dict, Session | None]:
    """The reply to one request (without its output), and the session from then on (hello opens it)."""
    global COVERAGE
    answer: dict = {"id": ident}
    try:
        if op == "hello":
            if args.get("coverage") and COVERAGE is None:
                COVERAGE = LineRecorder(args["root"])
                COVERAGE.start()
            session = Session(args["root"], args["package"], STARTUP_MODULES)
            answer.update(ok=True, value={"python": sys.version.split()[0]})
        elif session is None:
            answer.update(ok=False, fault="hello first")
        else:
            answer.update(ok=True, value=_getattr(session, "op_" + op)(**args))
    except StudentFault as fault:
        answer.update(ok=False, missing=_str(fault))
    except SystemExit as error:
        answer.update(ok=False, raised={"type": "SystemExit", "message": f"exit({error.code!r})"[:MAX_TEXT],
                                        "traceback": describe(error, session.root if session else args.get("root", "/"))["traceback"]})
    except BaseException as error:  # noqa: BLE001 - the student's exception is the answer
        root = session.root if session else os.path.realpath(args.get("root", "/"))
        answer.update(ok=False, raised=describe(error, root))
    return answer, session


def _with_output(answer: dict, session: Session | None, capture: CappedText) -> dict:
    """The answer with what the call printed, and the statements it ran for the first time."""
    sys.stdout = sys.stderr = capture
    output, truncated = capture.take()
    answer["output"], answer["output_truncated"] = output, truncated
    if COVERAGE is not None and session is not None:
        lines = COVERAGE.new_lines()
        if lines is not None:
            answer["lines"] = lines
    return answer


def _start_repairs(hello: dict, reply) -> None:
    """Before the submission is imported: fork the server of repaired calls (repair_server.py) on the pipe the
    trusted side named, which this process closes; once per process."""
    channel = hello.get("repairs")
    if _type(channel) is not int or channel < 3:
        return
    names = {"__builtins__": _BUILTINS, "StudentFault": StudentFault, "queue_size": queue_size,
             "safe_text": safe_text}
    repair_server.start(channel, reply, lambda line, repaired: _repaired_answer(line, repaired, hello), names,
                        hello.get("guard") is True)


def _repaired_answer(line: str, repaired: Any, hello: dict) -> str:
    """In repair_server's child, the stand-ins compiled: import the submission afresh and make the one repaired call
    of line, repaired standing in for the unit it names; the reply line."""
    capture = CappedText()
    sys.stdout = sys.stderr = capture
    try:
        request = _json_loads(line)
        ident, op, args = request["id"], request["op"], request["args"]
    except (ValueError, KeyError, TypeError):
        return _line({"id": None, "ok": False, "fault": "bad request"})
    answer, session = _answer(None, ident, "hello", hello)
    capture.take()  # what the import printed was shown with the hello
    if session is not None:
        session.stand_ins = repaired
        seed_randomness()  # as before every call: the import may have drawn numbers
        answer, session = _answer(session, ident, op, args)
    answer["id"] = ident
    return _line(_with_output(answer, session, capture))


def _line(message: dict) -> str:
    """One reply line (send's encoding)."""
    try:
        return _json_dumps(message, ensure_ascii=True) + "\n"
    except (TypeError, ValueError, RecursionError):
        return _json_dumps({"id": message.get("id"), "ok": False,
                            "missing": "your code returned a value the grader cannot carry"}) + "\n"


def send(reply, message: dict) -> None:
    """Write one reply line; a value that cannot be sent is the student's (encode makes every value sendable,
    so only student code that changed the worker's objects gets here)."""
    reply.write(_line(message))
    reply.flush()


def _confine(package_root: str, scratch: str) -> None:
    """Landlock, before any student code and before the seccomp filters: from now on this process and all it
    starts read only the package, this runtime and the interpreter, and write only in scratch (landlock.py, beside
    this module in the runtime; absent when this module is run elsewhere). A kernel with Landlock that refuses it
    ends the worker before it boots: a grader fault, never a run weaker than its level says."""
    try:
        import landlock  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return
    landlock.confine(package=package_root, runtime=os.path.dirname(os.path.abspath(__file__)), scratch=scratch)
    sys.modules.pop("landlock", None)


def _deny_keyring() -> None:
    """No kernel key for student code: keys outlive the worker and belong to its uid, which a later student or
    batch reuses (seccomp_bpf.py, beside this module in the runtime; absent when this module is run
    elsewhere, as in the trusted side's own process)."""
    try:
        import seccomp_bpf  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return
    seccomp_bpf.deny_keyring()
    sys.modules.pop("seccomp_bpf", None)


def main(package_root: str = "", scratch: str = "") -> None:
    """Take over the reply descriptor, silence the real stdout/stderr, confine this process to package_root (the
    submission's copy) and scratch, and serve."""
    reply_fd = int(sys.argv[1]) if _len(sys.argv) > 1 else os.dup(1)
    reply = os.fdopen(reply_fd, "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.setrecursionlimit(5000)
    if package_root:
        _confine(package_root, scratch)
    _deny_keyring()
    builtins.quit, builtins.exit = Quitter("quit"), Quitter("exit")  # type: ignore[assignment]
    _seed_unseeded()
    # Student code that imports __main__ (or worker, or a neighbour) finds an empty module (or its own, or a fresh
    # copy from the runtime), not the worker's objects.
    sys.modules["__main__"] = _type(sys)("__main__")
    for name in NEIGHBOURS:
        sys.modules.pop(name, None)
    if __name__ != "__main__":
        del sys.modules[__name__]
    serve(sys.stdin, reply)


if __name__ == "__main__":
    main()
