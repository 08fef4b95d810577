"""The trusted side's line to a worker: one JSON request, one JSON reply, a deadline on every call."""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import selectors
import signal
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from ..limits import TimeLimits
from .isolation import NAMESPACED, SandboxError, SandboxSpec, apply_limits, clean_up_after, worker_command, worker_cwd, worker_env
from .process_clock import CallClock
from .process_tree import kill_group
from . import scratch_usage
from .reply import Reply
from ..errors import InternalError

OUTPUT_CAP = 64 * 1024
"""Characters of the student's printed output kept over the whole submission."""

BOOT_TIMEOUT = 20.0
"""Seconds for the sandbox and interpreter to come up, before any student code runs."""

IMPORT_TIMEOUT = 10.0
"""Seconds for importing the student's package (charged to the submission's budget like any call)."""

WALL_FACTOR, WALL_SLACK = 4.0, 1.0
"""A call also ends after WALL_FACTOR times its deadline plus WALL_SLACK seconds on the wall clock, however
little of that was charged to it (a tree starved of CPU for that long is not going to finish)."""

EXIT_WAIT = 1.0
"""Seconds to wait for a worker that closed its channel to exit before it is killed."""

TICK, FINE_TICK = 0.1, 0.005
"""Longest and shortest wait between two readings of a call's clock: TICK while the deadline is far (as the
clock samples idle time, it is never read less often), shorter as it nears (see CallClock.until), so a call
is stopped within a few milliseconds of its deadline rather than up to a whole TICK past it."""


class Deadlines(Protocol):
    """Per-call deadlines: how many seconds a call may be charged, at most ceiling."""

    def limit(self, op: str, args: dict[str, Any], ceiling: float, *, encoded: str | None = None) -> float: ...


@functools.cache
def stand_ins_source() -> bytes:
    """The stand-ins' sources, trusted_cards.py's then trusted_units.py's, joined by a NUL byte (which no Python
    source holds): they go with each repaired call to the worker's repair server (repair_server.py), never into the
    runtime nor to the worker that runs student code."""
    return b"\0".join(Path(__file__).with_name(name).read_bytes() for name in STAND_INS)


STAND_INS = ("trusted_cards.py", "trusted_units.py")
"""The stand-ins' modules, in the order the repair server runs them in one namespace."""


def _write_all(fd: int, data: bytes) -> None:
    """Write data on a non-blocking pipe while the pipe takes it; BlockingIOError when it stops taking it."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _operation_name(op: str, args: dict[str, Any]) -> str:
    return op


@dataclass(frozen=True)
class Vocabulary:
    """What the channel's sentences call things, from the side that knows the assignment (the sandbox does not):
    the code a request ran (grader/grading/calls.py) and the grading categories by their titles."""

    call_name: Callable[[str, dict[str, Any]], str] = _operation_name
    """What the student would call the code a request ran (by default the operation's own name)."""
    category_titles: Mapping[str, str] = field(default_factory=dict)
    """Each category's title, by its key (by default the key itself)."""


HELLO = "hello"
"""The request that imports the submission in a new worker (the channel's own, not a call of the suites')."""


class StudentProblem(Exception):
    """Something the student's code did; the test it happened in fails with this sentence."""

    outcome = "error"

    def __init__(self, sentence: str, *, exception: dict[str, str] | None = None) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.exception = exception


class StudentRaised(StudentProblem):
    """Student code raised an exception."""

    outcome = "error"


class StudentMissing(StudentProblem):
    """The submission lacks a name the test needs, or a value it returned cannot be used."""

    outcome = "error"


class StudentTimeout(StudentProblem):
    """A call did not finish within its deadline, or the submission's time budget ran out."""

    outcome = "timeout"


class StudentCrash(StudentProblem):
    """The worker process ended during a call (exit, signal, memory)."""

    outcome = "crash"


class Ungradable(Exception):
    """The submission cannot be graded at all: it does not import."""


class GraderFault(InternalError):
    """The grader could not do its part (the sandbox would not start, a protocol error of ours)."""


class WorkerClient:
    """Starts, talks to and kills one submission's worker; restarts it after a crash or a time-out."""

    def __init__(self, spec: SandboxSpec, *, times: TimeLimits, deadlines: Deadlines | None = None,
                 max_crashes: int | None = None, words: Vocabulary = Vocabulary()) -> None:
        self.spec = spec
        self.words = words
        self.times = times
        """The run's time limits: call_timeout caps a call given no ceiling, max_timeouts, the budget."""
        self.deadlines = deadlines
        """Where per-call deadlines come from (the reference's own time); None: call_timeout for every call."""
        self.imported = False
        """Whether student code has run in a worker (from then on, nothing the worker says is trusted)."""
        self.last_charged = 0.0
        self.timeouts: dict[str, int] = {}
        """Per category, how many of the student's own calls timed out (a repaired call's time-out is not counted:
        see call)."""
        self.max_crashes = times.max_timeouts if max_crashes is None else max_crashes
        self.crashes: dict[str, int] = {}
        """Per category, how many calls ended the worker while none of that category's calls has come back:
        a category whose every call kills the worker stops restarting it after max_crashes of them."""
        self.answered: set[str] = set()
        """Categories where some call came back (a value, an exception, a time-out): never stopped for crashes."""
        self.category = ""
        """The category of the test running now: timeouts are counted per category."""
        self.budget_left = times.budget
        self.process: subprocess.Popen[bytes] | None = None
        self.repairs = -1
        """The pipe repaired calls go on, to the worker's repair server (-1 while no worker runs)."""
        self.selector: selectors.BaseSelector | None = None
        """Watches the worker's reply pipe (made at the first read after a start, closed by stop)."""
        self.buffer = b""
        self.next_id = 0
        self.output_parts: list[str] = []
        self.output_kept = 0
        self.output_truncated = False
        self.restarts = 0
        self.renewed = False
        """The worker was stopped by renew: the next call starts a fresh one, not counted as a restart."""
        self.last_stderr = ""
        self.coverage: dict[str, set[int]] = {}
        """The lines of each student file seen running, by every worker so far (sent along with the replies)."""
        self.coverage_count = 0
        """How many entries coverage holds: its files and their distinct lines (at most limits.coverage_lines)."""
        self.flooded = ""
        """Why no more calls are made: the worker reported more lines as run than limits.coverage_lines, or ""."""

    # -- life cycle ------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker and import the submission in it; the import is charged to the budget."""
        limits = self.spec.limits
        repairs_read, self.repairs = os.pipe()
        os.set_blocking(self.repairs, False)  # a repair server that stopped reading costs its call, never a hang
        try:
            self.process = subprocess.Popen(
                worker_command(self.spec),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=worker_env(self.spec),
                cwd=worker_cwd(self.spec),
                start_new_session=True,
                preexec_fn=lambda: apply_limits(limits),
                pass_fds=(repairs_read,),
            )
        except OSError as error:
            os.close(self.repairs)
            self.repairs = -1
            raise GraderFault(f"could not start the sandbox ({error})") from error
        finally:
            os.close(repairs_read)
        self.buffer = b""
        try:
            boot = self._read_line(BOOT_TIMEOUT)  # wall-clock: the sandbox starting, no student code yet
        except StudentTimeout:
            raise GraderFault(f"the sandbox did not start within {BOOT_TIMEOUT:g} s{self._stderr_tail()}") from None
        except StudentCrash:
            raise GraderFault(f"the sandbox did not start{self._stderr_tail()}") from None
        if not boot.boot:
            self.stop()
            raise GraderFault("the sandbox started but its worker did not announce itself")
        if self.budget_left <= 0:
            self.stop()
            raise StudentTimeout(f"not run: your code used up the whole time budget of {self.times.budget:g} s "
                                 "for this submission")
        limit = min(IMPORT_TIMEOUT, self.budget_left)
        self.imported = True
        try:
            self._request(HELLO, {"root": self.spec.inside_root, "package": self.spec.package,
                                    "coverage": self.spec.coverage, "repairs": repairs_read,
                                    "guard": self.spec.level != "plain"}, limit)
        except StudentTimeout:
            self.budget_left -= self.last_charged
            self.stop()
            if self.restarts and limit < IMPORT_TIMEOUT:
                raise StudentTimeout(f"not run: importing your package again used up the rest of the time "
                                     f"budget of {self.times.budget:g} s for this submission") from None
            raise Ungradable(f"importing your package did not finish within {limit:g} s") from None
        except StudentCrash as crash:
            self.stop()
            raise Ungradable(f"importing your package ended the process ({crash.sentence})") from None
        except StudentProblem as problem:
            self.stop()
            raise Ungradable(f"your package cannot be imported ({problem.sentence}{_where(problem)})") from None
        self.budget_left -= self.last_charged

    def stop(self) -> None:
        """Kill the worker and everything it started."""
        process, self.process = self.process, None
        if self.repairs >= 0:
            os.close(self.repairs)
            self.repairs = -1
        if self.selector is not None:
            self.selector.close()
            self.selector = None
        if process is None:
            return
        kill_group(process)
        if process.stderr is not None:
            try:
                self.last_stderr = process.stderr.read(8000).decode(errors="replace")
            except (OSError, ValueError):
                self.last_stderr = ""
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        try:
            clean_up_after(self.spec)
        except SandboxError as error:
            raise GraderFault(str(error)) from None

    def renew(self) -> None:
        """Stop the worker, if one runs, so that the next call starts a fresh one (not counted as a restart): nothing
        student code kept in this one, in memory or in its scratch, reaches the calls after."""
        if self.process is not None:
            self.stop()
            self.renewed = True

    # -- calls -------------------------------------------------------------------------------------

    def call(self, op: str, timeout: float | None = None, *, encoded_args: str | None = None, **args: Any) -> Any:
        """Run op in the worker and return its plain value; StudentProblem subclasses for the student's faults.

        encoded_args: args as JSON with sorted keys, when the caller has it already (args are encoded once per
        call, for the deadline's key and the request alike).

        A repaired call (args' trusted set: an excuse's counterfactual run) neither counts towards max_timeouts nor
        is refused by it. Which repaired runs a category makes depends on which of its tests ran before (a repair
        that does not make a test pass moves on to the next unit, whose run may hang again): counted, they made a
        grade depend on the order the tests run in. Each failing test stops at its first repaired run that hangs
        (suites/repairs.py), so what they cost is bounded by the tests and by the submission's budget."""
        repaired = bool(args.get("trusted"))
        if not repaired and self.timeouts.get(self.category, 0) >= self.times.max_timeouts:
            # Named, not "this category": the harness repeats the sentence for the same call in a later test.
            raise StudentTimeout(f"not run: your code had already timed out {self.times.max_timeouts} times in "
                                 f"{self._category_name()}, so that category's remaining tests were not run")
        if self.crashes.get(self.category, 0) >= self.max_crashes:
            raise StudentCrash(f"not run: the process running your code had ended in each of the "
                               f"{self.max_crashes} calls before this one in {self._category_name()}, so that "
                               "category's remaining tests were not run")
        if self.budget_left <= 0:
            raise StudentTimeout(f"not run: your code used up the whole time budget of {self.times.budget:g} s "
                                 "for this submission")
        if self.flooded:
            raise StudentMissing(f"not run: {self.flooded}")
        if self.process is None:
            self.restarts += 0 if self.renewed else 1
            self.renewed = False
            self.start()
        ceiling = timeout or self.times.call_timeout
        encoded = encoded_args if encoded_args is not None else json.dumps(args, sort_keys=True)
        limit = self.deadlines.limit(op, args, ceiling, encoded=encoded) if self.deadlines is not None else ceiling
        deadline = min(limit, self.budget_left)
        self.last_charged = 0.0
        try:
            value = self._request(op, args, deadline, encoded)
        except StudentCrash:
            if self.category not in self.answered:
                self.crashes[self.category] = self.crashes.get(self.category, 0) + 1
            raise
        except StudentTimeout:
            if not repaired:
                self.timeouts[self.category] = self.timeouts.get(self.category, 0) + 1
            self.answered.add(self.category)
            raise
        except StudentProblem:
            self.answered.add(self.category)
            raise
        finally:
            self.budget_left -= self.last_charged
        self.answered.add(self.category)
        return value

    def _category_name(self) -> str:
        """The current category as reports title it."""
        return self.words.category_titles.get(self.category, self.category) or "this category"

    def _fold(self, reply: Reply) -> None:
        """Add a worker's report of the lines run per file (checked by Reply) to what is known; a report past
        limits.coverage_lines, in this reply or in all, is the student's fault (StudentMissing), and no later
        call of this submission is made."""
        cap = self.spec.limits.coverage_lines
        for path, executed in reply.lines or ():  # at most cap numbers (Reply): the sets stay within twice cap
            known = self.coverage.get(path)
            if known is None:
                known = self.coverage[path] = set()
                self.coverage_count += 1
            before = len(known)
            known.update(executed)
            self.coverage_count += len(known) - before
            if self.coverage_count > cap:
                break
        if reply.lines_over or self.coverage_count > cap:
            self.flooded = (f"the process running your code reported more than {cap} lines of your files as run "
                            "(the grader records which lines run: your code may not change how)")
            self.stop()
            raise StudentMissing(self.flooded)

    def output(self) -> tuple[str, bool]:
        """Everything the student's code printed so far, capped, and whether it was cut."""
        return "".join(self.output_parts), self.output_truncated

    # -- the wire ------------------------------------------------------------------------------------

    def _request(self, op: str, args: dict[str, Any], timeout: float, encoded: str | None = None) -> Any:
        """Send one request and wait for its reply; self.last_charged is the time charged to it (encoded: args
        as JSON, if the caller has it)."""
        assert self.process is not None and self.process.stdin is not None
        self.next_id += 1
        ident = self.next_id
        encoded = encoded if encoded is not None else json.dumps(args)
        line = f'{{"id": {ident}, "op": {json.dumps(op)}, "args": {encoded}}}'.encode()
        clock = CallClock(self.process.pid)
        try:
            if args.get("trusted"):  # to the repair server: the line, the source's length after a tab, the source
                source = stand_ins_source()
                _write_all(self.repairs, line + f"\t{len(source)}\n".encode() + source)
            else:
                self.process.stdin.write(line + b"\n")
                self.process.stdin.flush()
        except (BrokenPipeError, BlockingIOError, OSError):
            pass  # the read below reports how the process ended (or the call's deadline, a repair server stopped)
        try:
            while True:
                reply = self._read_line(timeout, clock)
                if reply.ident == ident:
                    break
                if reply.too_deep:
                    self.stop()
                    raise StudentMissing(f"the process running your code sent the grader a line nested more than "
                                         f"{self.spec.limits.json_depth} deep")
            self._check_scratch()
                # Anything else on the channel was written by student code: ignore it (on the same clock).
        finally:
            self.last_charged = clock.charged() if clock.wall() > 0.05 else clock.wall()
        self._keep_output(reply.output, reply.output_truncated)
        if (reply.lines is not None or reply.lines_over) and self.spec.coverage:
            self._fold(reply)  # the lines that ran since the last reply carrying some
        if reply.ok:
            return reply.value
        if reply.raised is not None:
            exception = reply.raised.to_json()
            name = "importing your package" if op == HELLO else self.words.call_name(op, args)
            raise StudentRaised(_raised_sentence(name, exception), exception=exception)
        if reply.missing is not None:
            raise StudentMissing(reply.missing)
        if self.imported:
            # An honest worker never refuses our requests: student code changed the worker's own objects.
            raise StudentMissing("the process running your code stopped answering the grader's requests "
                                 "(does your code change objects that are not its own?)")
        raise GraderFault(f"the worker refused the request {op!r}: {reply.fault}")

    def _read_line(self, timeout: float, clock: CallClock | None = None) -> Reply:
        """One reply line from the worker within timeout seconds (read by Reply), or the reason there is none.

        With a clock the seconds are those it charges the worker's tree (its CPU time plus the time it
        sleeps), with a wall-clock backstop; without one, wall-clock seconds (the sandbox starting up).
        """
        assert self.process is not None and self.process.stdout is not None
        stdout = self.process.stdout
        clock = clock or CallClock(None)
        hard_wall = timeout * WALL_FACTOR + WALL_SLACK if clock.pid is not None else timeout
        if self.selector is None:  # one per worker, not one per read (each was three system calls)
            self.selector = selectors.DefaultSelector()
            self.selector.register(stdout, selectors.EVENT_READ)
        while b"\n" not in self.buffer:
            wait = min(clock.until(timeout), hard_wall - clock.wall())
            if not self.selector.select(min(TICK, max(FINE_TICK, wait))):
                if clock.charged() >= timeout or clock.wall() >= hard_wall:
                    if clock.pid is not None:
                        self._check_scratch()  # a call that filled its scratch is charged for that, at every level
                    self.stop()
                    raise StudentTimeout(f"did not finish within {timeout:.3g} s (an endless loop?)")
                if clock.pid is not None and self.spec.level in NAMESPACED:
                    self._check_scratch()  # one statvfs: a call creating files without end is stopped within a tick
                continue
            chunk = os.read(stdout.fileno(), 1 << 20)
            if not chunk:
                raise StudentCrash(self._ended())
            self.buffer += chunk
            cap = self.spec.limits.reply_bytes
            if len(self.buffer) > cap:
                self.stop()
                raise StudentMissing(f"your code produced a result larger than {cap / 2**20:g} MiB")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return Reply.parse(line, max_depth=self.spec.limits.json_depth, max_lines=self.spec.limits.coverage_lines)

    def _check_scratch(self) -> None:
        """StudentMissing, the worker stopped, when student code has more files and folders in its scratch than
        limits.scratch_files (scratch_usage says how each level counts them)."""
        limit = self.spec.limits.scratch_files
        if self.process is None:
            return
        count = scratch_usage.entries(self.spec, self.process.pid, limit)
        if count is not None and count > limit:
            self.stop()
            raise StudentMissing(f"your code created more than {limit} files and folders in its folder")

    def _ended(self) -> str:
        """The worker closed its channel: how it ended (killing it if it lingers, as after os.closerange)."""
        assert self.process is not None
        try:
            code: int | None = self.process.wait(timeout=EXIT_WAIT)
        except subprocess.TimeoutExpired:
            self.stop()
            return ("the process running your code closed its line to the grader and kept running "
                    "(does your code close file descriptors it did not open?)")
        self.stop()
        return _ended_sentence(code, wrapped=self.spec.level in NAMESPACED)

    def _keep_output(self, text: str | None, truncated: bool) -> None:
        """Add a call's printed output to the submission's, up to OUTPUT_CAP."""
        if text is None:
            return
        room = OUTPUT_CAP - self.output_kept
        if len(text) > room or truncated:
            self.output_truncated = True
        piece = text[: max(room, 0)]
        self.output_parts.append(piece)
        self.output_kept += len(piece)

    def _stderr_tail(self) -> str:
        """The last line the sandbox printed before the worker took over, for a grader fault."""
        self.stop()
        text = self.last_stderr.strip()
        return f": {text.splitlines()[-1][:300]}" if text else ""


def _where(problem: StudentProblem) -> str:
    """ ", at FILE line N" for the innermost frame of the student's own files, if the traceback has one."""
    exception = problem.exception or {}
    if exception.get("type") in ("SyntaxError", "IndentationError", "TabError"):
        return ""  # its message already names the file and line; the frame would be the import statement
    frames = re.findall(r'File "([^"]+)", line (\d+)', exception.get("traceback", ""))
    return f", at {frames[-1][0]} line {frames[-1][1]}" if frames else ""


def _raised_sentence(name: str, exception: dict[str, str]) -> str:
    """A sentence for an exception raised by student code."""
    if exception["type"] == "NotImplementedError":
        return f"{name} is not implemented yet (NotImplementedError: {exception['message']})"
    if exception["type"] == "SystemExit":
        return f"{name} tried to stop the program ({exception['message']})"
    if exception["type"] == "MemoryError":
        return f"{name} raised MemoryError: it ran out of memory (the limit is the same for every student)"
    if exception["type"] == "PermissionError" and exception["message"].startswith(f"[Errno {errno.EACCES}]"):
        return (f"{name} tried to reach something outside what it was given (PermissionError: "
                f"{exception['message']}): your code may read only its own files and write only in its working folder")
    return f"{name} raised {exception['type']}: {exception['message']}"


def _ended_sentence(code: int | None, *, wrapped: bool = False) -> str:
    """A sentence for a worker that ended in the middle of a call.

    wrapped: the worker ran under bubblewrap or unshare, which report a worker killed by signal N as
    status 128 + N.
    """
    if code is None:
        return "the process running your code ended"
    if wrapped and 128 < code < 128 + 65:
        code = 128 - code
    if code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        hint = {"SIGKILL": " (out of memory or too many processes?)", "SIGXCPU": " (CPU time limit)",
                "SIGXFSZ": " (file size limit)",
                "SIGSEGV": " (a crash inside the interpreter: recursion too deep for the C stack?)"}.get(name, "")
        return f"the process running your code was killed by {name}{hint}"
    return f"the process running your code exited with status {code} in the middle of a call"
