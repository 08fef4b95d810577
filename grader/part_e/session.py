"""Part E's sandbox as the trusted side sees it: the zygote started once per submission, then one run at a time
(the lines of protocol.py in, the zygote's questions answered, its report read with limits), Part E's budget
charged as the runs use it, and the zygote's whole tree stopped at the end."""

from __future__ import annotations

import os
import random
import selectors
import subprocess
import time
from dataclasses import replace
from typing import Any, Callable

from ..sandbox import bounded_json
from ..sandbox.channel import WALL_FACTOR, WALL_SLACK
from ..sandbox.isolation import Limits, apply_limits, kill_uid
from ..sandbox.process_clock import CallClock
from ..sandbox.process_tree import kill_group
from .protocol import RunCommand, stop_line

BOOT_SECONDS = 60.0
"""Most seconds the sandbox may take to start (to import pytest)."""

POLL_SECONDS = 0.1
"""Longest wait between two readings of a run's clock."""


class Stopped(Exception):
    """The sandbox failed or the submission's time budget for Part E ran out; the message is for the student."""


class SandboxFault(Stopped):
    """The sandbox could not set a run up or clean up after one: the grader's fault, never the student's (caught
    in grade(), which reports Part E as not run with the message; never raised past this module)."""


REFUSED = "refused"
"""The key Session.run's report holds (true) in place of the run's own when a line of it could not be read within
the limits (nested deeper than json_depth): every test of that run counts as a crash."""


class Session:
    """The sandboxed zygote: start, one run at a time, stop (its whole process tree killed)."""

    def __init__(self, command: list[str], env: dict[str, str], limits: Limits, uid: int | None, level: str,
                 run_uids: int = 0) -> None:
        self.command, self.env, self.limits, self.uid, self.level = command, env, limits, uid, level
        self.run_uids = run_uids
        """At the uid level, the uids the sandbox holds from uid on (its zygote runs as uid): each run gets one of
        the others, never one an earlier run had, in an order drawn from the submission's secret seed (a run's uid
        tells nothing of its place); 0: every run runs as the zygote's uid, or in namespaces of its own."""
        self.uids_given = 0
        self.booting = time.monotonic() + BOOT_SECONDS
        """When the sandbox must have started by (wall clock: no student code runs before its boot)."""
        self.budget = BOOT_SECONDS
        """Seconds Part E's runs may be charged in all (grade() sets it): CPU of the sandbox's tree plus the seconds
        it idles, counted only while a run is under way, as the hidden suites' calls are (process_clock.py), so a
        busy machine never ends a student's runs sooner."""
        self.spent = 0.0
        """Seconds charged to the runs that have ended."""
        self.clock: CallClock | None = None
        """The clock of the run under way."""
        self.charge = 0.0
        self.read_at = 0.0
        """What the run under way was charged when its clock was last read, and when (see _left)."""
        self.wall_limit = 0.0
        """When the run under way ends on the wall clock whatever it was charged (the hidden calls' backstop)."""
        self.wall_end: float | None = None
        """When Part E ends on the wall clock, however little its runs were charged: WALL_FACTOR times the budget
        plus WALL_SLACK from its first run (a test that spins a sixth of the time and sleeps the rest is charged
        about a sixth of the wall time; without this each run could take 4 times the budget left)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.buffer = b""
        self.seed = b""
        """The submission's secret seed (grade() sets it)."""
        self.runs = 0

    def launch(self) -> None:
        """Start the sandbox; it boots while the caller goes on."""
        limits = self.limits
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, env=self.env, cwd="/",
                                            start_new_session=True, preexec_fn=lambda: apply_limits(limits))
        except OSError as error:
            raise Stopped(f"The sandbox for your tests could not start ({error}).") from None

    def prepare(self, command: RunCommand) -> None:
        """Ask the zygote to set pytest's session up for these tests now (it reads this line once booted)."""
        self._write(command.line("prepare"))

    def wait_boot(self) -> None:
        """Wait until the sandbox has imported pytest and says so; SandboxFault if it did not in BOOT_SECONDS from
        its launch (no student code runs before its boot: the grader's fault, whatever the machine's load)."""
        try:
            booted = self._read(lambda: self.booting - time.monotonic()).get("boot") is True
        except Stopped:
            booted = False
        if not booted:
            raise SandboxFault("The grader could not run your tests (Part E's sandbox did not start); "
                               "ask your instructor.")

    def run(self, command: RunCommand, child: str, stop_on: list[str]) -> dict[str, Any]:
        """One run (child: the line its child reads, an implementation's or OWN_PACKAGE); the stop set goes to
        the zygote only once its child has read that line (the child never sees it). The reply is unchecked."""
        if self.run_uids and self.uid is not None:
            command = replace(command, run_uid=self._next_uid())
        self._write(command.line())
        assert self.process is not None
        self.clock = CallClock(self.process.pid)
        self.charge, self.read_at = self.clock.charged(), time.monotonic()
        if self.wall_end is None:  # Part E's first run: the backstop of the whole budget starts now
            self.wall_end = time.monotonic() + self.budget * WALL_FACTOR + WALL_SLACK
        self.wall_limit = min(time.monotonic() + (self.budget - self.spent) * WALL_FACTOR + WALL_SLACK, self.wall_end)
        try:
            return self._answer(child, stop_on)
        finally:
            self.spent += self.clock.charged()
            self.clock = None

    def _next_uid(self) -> int:
        """The next run's uid: one of the sandbox's that no earlier run had (SandboxFault when none is left)."""
        assert self.uid is not None
        order = random.Random(self.seed + b"run uids").sample(range(1, self.run_uids), self.run_uids - 1)
        if self.uids_given >= len(order):
            raise SandboxFault(f"Part E's sandbox has no uid left for another run (it holds {self.run_uids}).")
        self.uids_given += 1
        return self.uid + order[self.uids_given - 1]

    def _answer(self, child: str, stop_on: list[str]) -> dict[str, Any]:
        """Answer the zygote's questions of one run until its report comes."""
        while True:
            message = self._read(self._left)
            if message.get("fork") is True:
                self._write(child)
            elif message.get("ready") is True:
                self._write(stop_line(stop_on))
            elif isinstance(message.get("done"), dict):
                return message["done"]
            elif message.get(REFUSED) is True:
                return message  # a line past json_depth: the run's report is a lie (checked_run)
            elif isinstance(message.get("fault"), str):
                raise SandboxFault(f"The grader could not run your tests (Part E's sandbox: {message['fault'][:200]}); "
                                  "ask your instructor.")
            else:
                raise Stopped("The process running your tests stopped answering.")

    def _left(self) -> float:
        """Seconds of the budget left now (as charged: see budget). The run's clock (a walk of the sandbox's
        process tree in /proc) is read again only once the charge could have reached the budget since its last
        reading (CallClock.until) or POLL_SECONDS after it (so a tree that idles is charged, as before); between
        two readings the last charge stands. A run reads it at its start and end, not at each of its lines."""
        clock = self.clock
        if clock is None:
            return self.budget - self.spent
        now = time.monotonic()
        if now - self.read_at >= POLL_SECONDS or clock.until(self.budget - self.spent) <= 0:
            self.charge, self.read_at = clock.charged(), now
        return min(self.budget - self.spent - self.charge, self.wall_limit - now)

    def _wait(self, left: float) -> float:
        """Wall seconds to wait before asking _left again: no later than the charge could first reach the budget
        (CallClock.until), and at least a millisecond; at most POLL_SECONDS, so a tree that idles is charged."""
        clock = self.clock
        if clock is None:
            return max(0.001, min(left, POLL_SECONDS))
        return max(0.001, min(clock.until(self.budget - self.spent), POLL_SECONDS))

    def _write(self, line: str) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(line.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Stopped("The process running your tests ended.") from None

    def _read(self, left: Callable[[], float]) -> dict[str, Any]:
        """The zygote's next line, as a dict ({} for what is not one); Stopped when left() reaches 0 first."""
        assert self.process is not None and self.process.stdout is not None
        stream = self.process.stdout
        with selectors.DefaultSelector() as selector:
            selector.register(stream, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                seconds = left()
                if seconds <= 0:
                    # What the sandbox wrote before the time ran out is read first: the hidden suites may have kept
                    # the trusted side away longer than the deadline while its line waited in the pipe
                    if not selector.select(0):
                        raise Stopped("Your tests used up the time allowed for grading them.")
                elif not selector.select(self._wait(seconds)):
                    continue
                chunk = os.read(stream.fileno(), 1 << 20)
                if not chunk:
                    raise Stopped("The process running your tests ended.")
                self.buffer += chunk
                if len(self.buffer) > self.limits.reply_bytes:
                    raise Stopped("The process running your tests sent too much.")
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = bounded_json.read(line, max_bytes=self.limits.reply_bytes, max_depth=self.limits.json_depth)
        except bounded_json.Refused as refused:
            return {REFUSED: True} if refused.deep else {}
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
            kill_uid(range(self.uid, self.uid + self.run_uids) if self.run_uids else self.uid)
