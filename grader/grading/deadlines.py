"""Per-call deadlines from the reference's own time for the same call: a generous multiple, with a floor.

The trusted process runs the call on the reference, through the very operations the worker runs on the
student's code, and times it in CPU seconds (as the worker is charged: see process_clock). A call of a
few microseconds gets the floor; a call that replays hundreds of games gets a multiple of what the
reference needs for them. The ceiling (call_timeout or game_timeout) caps either. Which calls are timed this
way, and which ceiling caps each, is grader/grading/calls.py's table; the formula is grader/limits.py's.
The sandbox's channel asks an object of this shape (its Deadlines protocol) and knows nothing of the reference.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import reference

from ..limits import deadline
from ..sandbox import worker
from .calls import BY_OP, Call

SAMPLE_DECKS = 8
"""A replay of more decks is timed on this many and scaled up (the decks are alike)."""


KNOWN: dict[str, float] = {}
"""The reference's CPU seconds per call (by call_key), shared by every clock of this process. The suite
server hands what one run measured to the runs it forks after it (see suite_server.py), so a
call is timed once per job slot, not once per submission."""


def call_text(op: str, encoded: str) -> str:
    """A call as JSON text, from its arguments already encoded with sorted keys: the very text of
    json.dumps([op, args], sort_keys=True), without encoding the arguments again."""
    return f"[{json.dumps(op)}, {encoded}]"


def call_key(op: str, args: dict[str, Any], encoded: str | None = None) -> str:
    """A call's identity: its operation and arguments (encoded: args as JSON with sorted keys, if at hand)."""
    text = call_text(op, encoded) if encoded is not None else json.dumps([op, args], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class ReferenceClock:
    """Deadlines for one trusted process; each distinct call is timed on the reference once (KNOWN)."""

    def __init__(self, *, multiple: float, floor: float) -> None:
        self.multiple = multiple
        self.floor = floor
        self.seconds = KNOWN
        self._session: worker.Session | None = None

    def limit(self, op: str, args: dict[str, Any], ceiling: float, *, encoded: str | None = None) -> float:
        """Seconds the student's call may be charged: multiple times the reference's, at least floor, at most
        ceiling; or the ceiling itself where the call's rule says so (a detailed replay: the grader diagnosing a
        failure already seen). A call not declared in calls.Call is the grader's bug: ValueError."""
        if self._call(op).rule.untimed(args):
            return ceiling
        return deadline(self.reference_seconds(op, args, encoded), multiple=self.multiple, floor=self.floor,
                        ceiling=ceiling)

    def reference_seconds(self, op: str, args: dict[str, Any], encoded: str | None = None) -> float:
        """CPU seconds the reference needs for this call."""
        self._call(op)
        key = call_key(op, args, encoded)
        if key not in self.seconds:
            self.seconds[key] = self._time(op, args)
        return self.seconds[key]

    @staticmethod
    def _call(op: str) -> Call:
        call = BY_OP.get(op)
        if call is None:
            raise ValueError(f"{op!r} is not a call declared in grader.grading.calls.Call")
        return call

    def _time(self, op: str, args: dict[str, Any]) -> float:
        scale = 1.0
        if op == "replay" and isinstance(args.get("decks"), list) and len(args["decks"]) > SAMPLE_DECKS:
            scale = len(args["decks"]) / SAMPLE_DECKS
            args = dict(args, decks=args["decks"][:SAMPLE_DECKS])
        session = self._reference()
        started = time.process_time()
        try:
            getattr(session, "op_" + op)(**args)
        except Exception:  # noqa: BLE001 - a call the reference refuses still took its time
            pass
        return (time.process_time() - started) * scale

    def _reference(self) -> worker.Session:
        if self._session is None:
            self._session = worker.Session(str(Path(str(reference.__file__)).parent.parent), "reference")
        return self._session
