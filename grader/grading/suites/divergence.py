"""Where a whole game parts from the reference's: the first round after which the student's play_round and
resolve_war, played by the grader's own loop, leave other queues, and that round replayed alone."""

from __future__ import annotations

from typing import Any, Callable

from grader.grading import expected, reproduction
from grader.grading.checks import show
from grader.grading.harness import RoundOutcome, Student
from grader.sandbox.channel import StudentProblem


def _deal(deck: list[str]) -> tuple[list[str], list[str]]:
    return deck[0::2], deck[1::2]


def first_divergent_round(student: Student, deck: list[str], max_rounds: int) -> int | None:
    """The first round (from 1) after which the student's play_round/resolve_war, played by the grader's own
    loop from the handout's deal, leave other queues than the reference's; None if the whole game agrees."""
    return divergence(student, deck, max_rounds)[0]


def divergence(student: Student, deck: list[str], max_rounds: int) -> tuple[int | None, dict[str, Any]]:
    """first_divergent_round, and the student's units' game as the grader's loop played it."""
    game = first_game(student.replay([deck], max_rounds, detail=True))
    return _first_round_off(game, deck, max_rounds), game


def first_game(answer: Any) -> dict[str, Any]:
    """The first game of a replay's answer ({} if the answer holds none)."""
    return answer[0] if type(answer) is list and answer and type(answer[0]) is dict else {}


def same_replay(game: Any, reference_game: dict[str, Any]) -> bool:
    """Whether a replayed game is the reference's, round for round (by their fingerprints), and raised nothing."""
    return (type(game) is dict and not game.get("raised") and type(game.get("digest")) is str
            and game["digest"] == reference_game["digest"])


def _first_round_off(game: dict[str, Any], deck: list[str], max_rounds: int) -> int | None:
    theirs = expected.replay([deck], max_rounds, detail=True)[0]
    snapshots: Any = game.get("snapshots") if type(game.get("snapshots")) is list else []
    for number, want in enumerate(theirs["snapshots"], start=1):
        if number > len(snapshots):
            return number
        got = snapshots[number - 1]
        if type(got) is not list or len(got) != 2 or got[0] != want[0] or got[1] != want[1]:
            return number
    if len(snapshots) != len(theirs["snapshots"]) or game.get("raised"):
        return len(theirs["snapshots"]) + 1 if len(snapshots) > len(theirs["snapshots"]) else len(snapshots) + 1
    if game.get("final") != theirs["final"]:
        return max(len(snapshots), 1)
    return None


def _queues_before(deck: list[str], max_rounds: int, number: int) -> tuple[list[str], list[str]]:
    if number <= 1:
        return _deal(deck)
    snapshot = expected.replay([deck], max_rounds, detail=True)[0]["snapshots"][number - 2]
    return list(snapshot[0]), list(snapshot[1])


def explain_round(student: Student, deck: list[str], max_rounds: int, number: int) -> tuple[str, str]:
    """Replay round `number` of the deck's game alone: the reference's queues before it, the student's
    play_round (and resolve_war on a tie) against the reference's. Returns a sentence saying how the round alone
    differs ("" if it agrees), and lines that reproduce it."""
    p1, p2 = _queues_before(deck, max_rounds, number)
    want = expected.play_round(p1, p2)
    lines = reproduction.round_call(p1, p2, result=want.result, after=(want.p1, want.p2))
    where = f"round {number}"
    problem = _differs(lambda: student.play_round(p1, p2, trusted=False), want, "play_round")
    if problem:
        return f"{where} already differs when played alone: {problem}", lines
    if type(want.result) is not tuple:
        return "", lines
    _, c1, c2 = want.result
    war = expected.resolve_war(want.p1, want.p2, c1, c2)
    war_lines = reproduction.war_call(want.p1, want.p2, c1, c2, result=war.result, after=(war.p1, war.p2))
    problem = _differs(lambda: student.resolve_war(want.p1, want.p2, c1, c2, trusted=False), war, "resolve_war")
    if not problem:
        return "", lines
    return f"{where} (a war after {c1!r} tied with {c2!r}) already differs when played alone: {problem}", war_lines


def _differs(call: Callable[[], RoundOutcome], want: RoundOutcome, name: str) -> str:
    """Why the student's call (of play_round or resolve_war: name) does not leave the reference's outcome want,
    in a few words; "" when it does."""
    try:
        got = call()
    except StudentProblem as problem:
        return problem.sentence
    if got.result != want.result or got.p1 != want.p1 or got.p2 != want.p2:
        return f"{name} returns {show(got.result)} where the reference returns {show(want.result)}" \
            if got.result != want.result else f"{name} leaves other queues than the reference"
    return ""
