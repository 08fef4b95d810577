"""The calls the hidden suites make into student code, each declared once with its deadline rule beside it.

A call is an operation of the worker (grader/sandbox/operations.py's Session.op_<name>). Each member of Call
carries its DeadlineRule, so a call cannot be declared without one (the Enum refuses a member without it,
and tests/grading/test_calls.py checks the worker's operations and this table agree). The harness makes calls
only through Call; the reference clock (deadlines.py) and the channel's sentences read the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping

from ..limits import Ceiling
from ..results import CATEGORY_TITLES
from ..sandbox.channel import Vocabulary


@dataclass(frozen=True)
class DeadlineRule:
    """How long a call may run: deadline_multiple times the reference's own time for the same call, at least
    deadline_floor, at most its ceiling's setting; or, when the argument named untimed_when is true, the
    ceiling itself."""

    ceiling: Ceiling
    """The setting that caps the call (call_timeout or game_timeout)."""
    untimed_when: str = ""
    """An argument that, when true, makes the call the grader's own diagnosis (not a judged call): it gets the
    ceiling, so a call near the line is never cut off on one run and finished on the next."""

    def untimed(self, args: Mapping[str, Any]) -> bool:
        """Whether this call, with these arguments, gets its ceiling rather than a multiple of the reference's time."""
        return bool(self.untimed_when and args.get(self.untimed_when))


class Call(Enum):
    """Every call the hidden suites make into student code: (the worker's operation, its deadline rule, what the
    student would call the code it runs; {name} fields are filled from the call's arguments)."""

    STRUCTURE_OPS = ("structure_ops", DeadlineRule(Ceiling.CALL), "your {kind}")
    CARD_VALUES = ("card_values", DeadlineRule(Ceiling.CALL), "card_value")
    CALL = ("call", DeadlineRule(Ceiling.CALL), "{function}")
    DEAL = ("deal", DeadlineRule(Ceiling.CALL), "deal")
    PLAY_ROUND = ("play_round", DeadlineRule(Ceiling.CALL), "play_round")
    RESOLVE_WAR = ("resolve_war", DeadlineRule(Ceiling.CALL), "resolve_war")
    PLAY_GAME = ("play_game", DeadlineRule(Ceiling.GAME), "play_game")
    REPLAY = ("replay", DeadlineRule(Ceiling.GAME, untimed_when="detail"), "play_round/resolve_war")

    def __init__(self, op: str, rule: DeadlineRule, title: str) -> None:
        if not isinstance(rule, DeadlineRule) or not isinstance(rule.ceiling, Ceiling):
            raise TypeError(f"the call {op!r} is declared without its deadline rule")
        self.op = op
        self.rule = rule
        self.title = title

    def name_for(self, args: Mapping[str, Any]) -> str:
        """What the student would call the code this call ran (e.g. "your Stack", "shuffle")."""
        defaults = {"kind": "Queue", "function": self.op}
        return self.title.format(**{key: str(args.get(key, default)) for key, default in defaults.items()})


BY_OP: dict[str, Call] = {call.op: call for call in Call}
"""Each call by its operation's name (as the worker and the channel know it)."""


def call_name(op: str, args: Mapping[str, Any]) -> str:
    """What the student would call the code a request ran (the operation's name for one not declared here)."""
    call = BY_OP.get(op)
    return call.name_for(args) if call is not None else op


WORDS = Vocabulary(call_name=call_name, category_titles=CATEGORY_TITLES)
"""What the channel says to students about War's calls and categories (the sandbox knows neither)."""
