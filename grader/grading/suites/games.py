"""Checking a whole game (play_game) against the reference's, field by field; its failure named by the round
where it parts from the reference's, and excused only by a repaired unit or a war rule charged elsewhere."""

from __future__ import annotations

from typing import Any

from grader.grading import expected, reproduction, variants
from grader.grading.checks import Mismatch, show
from grader.grading.harness import Student
from grader.grading.suites.diagnosis import seen_in_forced_war
from grader.grading.suites.divergence import divergence, explain_round, first_game, same_replay
from grader.grading.suites.repairs import (GAME_UNITS, REPLAY_UNITS, UNIT_CATEGORIES, explain, repair, repairable,
                                           stubbed)
from grader.sandbox.channel import StudentProblem, StudentRaised
from reference import play_game

GAME_FIELDS = ("winner", "rounds", "p1_cards", "p2_cards")
"""The fields of GameResult that Part D asks for: who won, after how many rounds, with how many cards."""


def attribute_game_failure(student: Student, failure: Exception, deck: list[str], max_rounds: int,
                           game: dict[str, Any] | None = None) -> Exception:
    """A whole game's failure, with the first round where the student's play_round/resolve_war part from the
    reference's (played alone on that round's queues) named in its sentence and replayed by its lines.

    Only when the student's play_game (its result `game`, or the exception `failure` it raised) is what the
    student's own play_round and resolve_war give, played round after round. This names a round; it excuses
    nothing (only a counterfactual run does: `repair`)."""
    if stubbed(failure):
        return failure
    try:
        number, own = divergence(student, deck, max_rounds)
        if number is None or not _play_game_agrees_with_its_units(failure, game, own, max_rounds):
            return failure
        detail, round_lines = explain_round(student, deck, max_rounds, number)
    except StudentProblem:  # the replay itself hung or crashed: the game's own failure stands
        return failure
    if not detail:
        return failure
    if isinstance(failure, Mismatch):
        named = Mismatch(f"{failure.sentence}; {detail}", failure.difference, reproduction=round_lines)
        for attribute in ("plays", "diagnosis"):
            if hasattr(failure, attribute):
                setattr(named, attribute, getattr(failure, attribute))
        return named
    failure.sentence = f"{getattr(failure, 'sentence', str(failure))}; {detail}"  # type: ignore[attr-defined]
    failure.reproduction = round_lines  # type: ignore[attr-defined]
    return failure


def _last_frame(traceback_text: Any) -> str:
    lines = [line.strip() for line in str(traceback_text or "").splitlines() if line.strip().startswith("File ")]
    return lines[-1] if lines else ""


def _play_game_agrees_with_its_units(failure: Exception, game: dict[str, Any] | None, own: dict[str, Any],
                                     max_rounds: int) -> bool:
    """Whether play_game did what the student's own units, in the handout's loop, do on the same deal."""
    raised = own.get("raised")
    if isinstance(failure, StudentRaised):
        mine = failure.exception or {}
        return type(raised) is dict and raised.get("type") == mine.get("type") and \
            _last_frame(raised.get("traceback")) == _last_frame(mine.get("traceback"))
    if raised or game is None or type(own.get("final")) is not list or len(own["final"]) != 2:
        return False
    p1, p2 = (len(queue) if type(queue) is list else -1 for queue in own["final"])
    rounds = own.get("rounds")
    winner = "P1" if p2 == 0 and p1 > 0 else "P2" if p1 == 0 and p2 > 0 else "draw"
    return [game.get(field) for field in GAME_FIELDS] == [winner, rounds, p1, p2]


def check_game(student: Student, what: str, *, fields: tuple[str, ...] = GAME_FIELDS, **kwargs: Any) -> dict[str, Any]:
    """play_game(deck=..., max_rounds=...) on both sides; fail unless the fields are the reference's. The failure
    follows from a unit's bug (play_round, resolve_war, card_value, deal, the Queue and Stack) only when the
    same game, played again with the reference's version of that one unit, gives the reference's fields."""
    deck, max_rounds = kwargs["deck"], kwargs.get("max_rounds", 1000)
    reference_game = play_game(**kwargs)
    want = {field: getattr(reference_game, field) for field in fields}
    if "history" in want:
        want["history"] = tuple(tuple(pair) for pair in want["history"])
    lines = reproduction.game_call(kwargs, None, want)

    def check(trusted: Any) -> tuple[dict[str, Any], Mismatch | None]:
        game = student.play_game(trusted=trusted, **kwargs)
        for field in fields:
            got: Any = game.get(field)
            if field == "history" and type(got) in (list, tuple):
                got = tuple(tuple(pair) if type(pair) in (list, tuple) else pair for pair in got)
            if got == want[field] and type(got) is type(want[field]):
                continue
            sentence = f"GameResult.{field} {what} should be {show(want[field])} but was {show(got)}"
            if field == "history":
                sentence = f"GameResult.history {what} differs from the reference's: " + _history_difference(got, want[field])
            return game, Mismatch(sentence, reproduction=lines)
        return game, None

    def passes(trusted: Any) -> None:
        mismatch = check(trusted)[1]
        if mismatch is not None:
            raise mismatch

    try:
        game, mismatch = check(False)
    except StudentRaised as failure:
        named = repair(attribute_game_failure(student, failure, deck, max_rounds), passes, GAME_UNITS)
        raise _composed(student, named, deck, max_rounds, None, fields) from None
    except StudentProblem as failure:  # it hung or ended the process: only a repaired run can excuse that
        raise repair(failure, passes, GAME_UNITS) from None
    if mismatch is None:
        return game
    named = repair(attribute_game_failure(student, mismatch, deck, max_rounds, game), passes, GAME_UNITS)
    named = _composed(student, named, deck, max_rounds, game, fields)
    raise _variant_game(student, named, deck, max_rounds, game, fields) from None


def check_game_field(student: Student, what: str, field: str, **kwargs: Any) -> dict[str, Any]:
    """One extension field of play_game's result against the reference's, and nothing else: a game whose
    winner or rounds differ is charged where that rule is, and this test charges only its own field (played
    again with one unit repaired, as check_game does, when the unit's bug changes the game)."""
    return check_game(student, what, fields=(field,), **kwargs)


OBSERVABLE_FIELDS = frozenset({*GAME_FIELDS, "wars", "history"})
"""The fields of GameResult the grader's own round loop also gives (longest_war_chain it cannot see)."""


def _composed(student: Student, failure: Exception, deck: list[str], max_rounds: int, game: dict[str, Any] | None,
              fields: tuple[str, ...]) -> Exception:
    """A game failure that no repair of a unit inside play_game reached (a war fought by a class of the
    student's, a counter kept on a function): excused only when both halves are observed on this deck. The
    student's play_game is the handout's loop over its own units: it plays exactly the game the grader's loop
    plays with the student's play_round and resolve_war (winner, rounds, cards, and every checked field,
    raising the same exception where they raise). And that loop, with one unit repaired in the sandbox,
    plays the reference's game, round for round. Then repairing that unit alone gives play_game the
    reference's fields."""
    if getattr(failure, "explained_by", None) or stubbed(failure) or not set(fields) <= OBSERVABLE_FIELDS:
        return failure
    units = repairable(REPLAY_UNITS)
    if not units:
        return failure
    try:
        own_game = first_game(student.replay([deck], max_rounds, detail=True))
        if not _play_game_agrees_with_its_units(failure, game, own_game, max_rounds):
            return failure
        if game is not None and not _extensions_agree(game, own_game, fields):
            return failure
        reference_game = expected.replay([deck], max_rounds)[0]
        for unit in units:
            if same_replay(first_game(student.replay([deck], max_rounds, trusted=unit)), reference_game):
                return explain(failure, *({"category": category, "repaired": unit, "through": "loop"}
                                          for category in UNIT_CATEGORIES[unit]))
    except StudentProblem:
        return failure
    return failure


def _charged_war_variants() -> list[tuple[str, str, variants.Variant]]:
    """The war variants the Forced-war test that charges each one found the student's resolve_war playing
    (its failure reproduced exactly by the variant): (key, that test, the variant)."""
    found = []
    for variant in variants.war_variants(None):
        test = seen_in_forced_war(variant.key)
        if test:
            found.append((variant.key, test, variant))
    return found


def _same_game(game: dict[str, Any], want: dict[str, Any]) -> bool:
    """Whether play_game's fields are, each one, exactly those of the variant's game."""
    for field, value in want.items():
        got: Any = game.get(field)
        if field == "history" and type(got) in (list, tuple):
            got = tuple(tuple(pair) if type(pair) in (list, tuple) else pair for pair in got)
        if got != value or type(got) is not type(value):
            return False
    return True


def _variant_game(student: Student, failure: Exception, deck: list[str], max_rounds: int,
                  game: dict[str, Any] | None, fields: tuple[str, ...]) -> Exception:
    """A game failure no repaired unit reached (a war fought by a class of the student's) that follows from the
    war rule its resolve_war plays: excused only when the Forced-war test that charges that rule failed and the
    same variant reproduced it, and the student's play_game on this deck is, in every field of its GameResult
    (the winner, rounds, cards, wars, longest_war_chain and the whole history), the game the reference plays
    with that one rule changed. Its counters then count as the reference's do, so with the rule repaired this
    test passes. For longest_war_chain, the counter must also be seen counting a chain as long as the one the
    reference's game has here: on this deck, or on another fixed deck the student's play_game plays exactly
    as the variant does."""
    if getattr(failure, "explained_by", None) or stubbed(failure) or game is None:
        return failure
    reference_game = play_game(deck=deck, max_rounds=max_rounds)
    for key, test, variant in _charged_war_variants():
        mine = variants.game(deck, max_rounds, **variant.options)
        if not _same_game(game, mine):
            continue
        if "longest_war_chain" in fields and mine["longest_war_chain"] != reference_game.longest_war_chain:
            if not _chain_seen(student, reference_game.longest_war_chain, max_rounds, variant):
                continue
        return explain(failure, {"test": test, "plays": key, "through": "game"})
    return failure


def _chain_seen(student: Student, chain: int, max_rounds: int, variant: variants.Variant) -> bool:
    """Whether the student's play_game counts a longest war chain of `chain` right on a fixed deck where its
    game is exactly the variant's (and that game's longest chain is `chain`): the counters' own decks without
    Jokers first, then the fixed 54-card decks."""
    for deck in [*expected.counter_decks().values(), *expected.fixed_decks(12)]:
        mine = variants.game(deck, max_rounds, **variant.options)
        if mine["longest_war_chain"] != chain:
            continue
        try:
            game = student.play_game(deck=deck, max_rounds=max_rounds)
        except StudentProblem:
            return False
        return type(game) is dict and _same_game(game, mine)
    return False


def _extensions_agree(game: dict[str, Any], own: dict[str, Any], fields: tuple[str, ...]) -> bool:
    """Whether play_game's wars and history are those of the game its own units played in the grader's loop."""
    sizes: list[Any] = own["sizes"] if type(own.get("sizes")) is list else []
    kinds: list[Any] = own["kinds"] if type(own.get("kinds")) is list else []
    history: Any = game.get("history")
    if "history" in fields:
        if type(history) not in (list, tuple) or [list(pair) if type(pair) in (list, tuple) else pair
                                                  for pair in history] != sizes:
            return False
    if "wars" in fields and game.get("wars") != len([kind for kind in kinds if kind == "war"]):
        return False
    return True


def _history_difference(got: Any, want: tuple[tuple[int, int], ...]) -> str:
    if type(got) is not tuple:
        return f"it is {show(got)}"
    for number, (a, b) in enumerate(zip(got, want), start=1):
        if a != b:
            return f"after round {number} it says {show(a)} where the queues held {show(b)}"
    return f"it has {len(got)} entries for {len(want)} rounds"
