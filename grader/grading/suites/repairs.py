"""Counterfactual runs: a failure is excused as following from a bug charged in another category only when
the same check, run again with the reference's version of one unit in place of the student's, passes (or when
a rule variant charged elsewhere reproduces it: explain). The scorer checks the charge."""

from __future__ import annotations

import os
from typing import Any, Callable, TypeVar

from grader.grading.checks import Mismatch
from grader.grading.harness import RECORDER
from grader.sandbox.channel import StudentCrash, StudentMissing, StudentProblem, StudentRaised, StudentTimeout

T = TypeVar("T")


def explain(failure: Exception, *causes: dict[str, str]) -> Exception:
    """The failure, marked as following from the given bugs charged elsewhere (the scorer checks the charge)."""
    existing = getattr(failure, "explained_by", None) or []
    failure.explained_by = [*causes, *existing]  # type: ignore[attr-defined]
    return failure


UNIT_CATEGORIES = {
    "Queue.dequeue": ("data_structures",),
    "Stack.pop": ("data_structures",),
    "structures": ("data_structures",),
    "card_value": ("normal_rounds", "joker_dominance"),
    "play_round": ("normal_rounds", "joker_dominance"),
    "resolve_war": ("forced_war", "exhaustion"),
    "deal": ("full_game",),
    "card_order": ("joker_dominance",),
}
"""Each unit a counterfactual run may repair, and the categories whose own tests charge its bugs."""

STRUCTURE_UNITS = ("Queue.dequeue", "Stack.pop", "structures")
"""The repairs of the data structures, smallest first: one method on the student's own storage (game code that
reads a Queue's list itself still works), then both classes replaced."""

UNIT_TESTS = {"Queue.dequeue": ("test_queue_is_first_in_first_out", "test_queue_keeps_order_when_operations_interleave"),
              "Stack.pop": ("test_stack_is_last_in_first_out",)}
"""The tests that charge a method's bug: the method is repaired only once one of them has failed."""

GAME_UNITS = (*STRUCTURE_UNITS, "card_value", "play_round", "resolve_war", "deal", "card_order")
"""The units a whole game depends on, tried in this order (card_order: the Joker's place in the student's own
helpers that order cards, where card_value does not reach)."""

REPLAY_UNITS = (*STRUCTURE_UNITS, "card_value", "play_round", "resolve_war", "card_order")
"""The units the grader's own round loop (the replay) depends on."""


def current_category() -> str:
    """The category of the test running now (its file is test_<category>.py)."""
    node = os.environ.get("PYTEST_CURRENT_TEST", "").split("::", 1)[0]
    name = node.rsplit("/", 1)[-1]
    return name[len("test_"):-len(".py")] if name.startswith("test_") and name.endswith(".py") else ""


def stubbed(failure: Exception) -> bool:
    """Whether the failure is a missing or unimplemented function: nothing is earned for what was not written."""
    if isinstance(failure, StudentMissing):
        return True
    return isinstance(failure, StudentRaised) and (failure.exception or {}).get("type") == "NotImplementedError"


def _recorded_stub(entry: dict[str, Any]) -> bool:
    exception = entry.get("exception") or {}
    return exception.get("type") == "NotImplementedError" or "your code has no " in str(entry.get("sentence", ""))


def repairable(units: tuple[str, ...]) -> list[str]:
    """The units worth repairing for the running test: one of their categories (not the test's own) has already
    charged a failure, none of their categories' tests found them missing or unimplemented, and at least one
    of those tests saw them answer (a unit that only ever raised, crashed or hung was never observed)."""
    own = current_category()
    found = []
    for unit in units:
        categories = [category for category in UNIT_CATEGORIES[unit] if category != own]
        entries = [entry for test_id, entry in RECORDER.tests.items()
                   if test_id.split("::", 1)[0].rsplit("/", 1)[-1] in {f"test_{c}.py" for c in UNIT_CATEGORIES[unit]}]
        charged = [entry for test_id, entry in RECORDER.tests.items()
                   if test_id.split("::", 1)[0].rsplit("/", 1)[-1] in {f"test_{c}.py" for c in categories}
                   and entry.get("outcome") not in ("passed", None)]
        answered = [entry for entry in entries if entry.get("outcome") in ("passed", "failed")]
        if unit in UNIT_TESTS:
            charged = [entry for test_id, entry in RECORDER.tests.items()
                       if test_id.rsplit("::", 1)[-1].split("[", 1)[0] in UNIT_TESTS[unit]
                       and entry.get("outcome") not in ("passed", None)]
        if charged and answered and not any(_recorded_stub(entry) for entry in entries):
            found.append(unit)
    return found


def repair(failure: Exception, check: Callable[[Any], Any], units: tuple[str, ...]) -> Exception:
    """The failure, excused as following from a unit's bug only if the same check, run again in the sandbox
    with the reference's version of that one unit in place of the student's (everything else the student's
    own, the same deadlines), passes. A failure that is a missing or unimplemented function is never repaired."""
    if stubbed(failure) or str(getattr(failure, "sentence", "")).startswith("not run"):
        return failure  # nothing written, or a call the time limits refused: a repaired run would be refused too
    for unit in repairable(units):
        try:
            check(unit)
        except (StudentTimeout, StudentCrash):
            # The repaired run hung or ended its process too: each further try would cost a whole deadline
            # (a fork bomb, an endless loop outside the unit), so the failure stands.
            return failure
        except (Mismatch, StudentProblem, AssertionError):
            continue
        return explain(failure, *({"category": category, "repaired": unit} for category in UNIT_CATEGORIES[unit]))
    return failure


def with_structures(check: Callable[[Any], T]) -> T:
    """check(False); if it fails, check it again with the student's Queue.dequeue or Stack.pop repaired, then with
    correct Queue and Stack classes in the student's modules: a failure that goes away follows from the data
    structures."""
    try:
        return check(False)
    except (Mismatch, StudentRaised) as failure:
        raise repair(failure, check, STRUCTURE_UNITS) from None
