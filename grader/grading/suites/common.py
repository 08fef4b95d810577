"""What several hidden suites share: play the same call on the student's code and the reference's, compare,
and when a check fails, find out whether a bug charged in another category explains it."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any, Callable, TypeVar

from grader.grading import expected, reproduction, variants
from grader.grading.checks import Mismatch, expect_cards, expect_value, show
from grader.grading.harness import RECORDER, RoundOutcome, Student
from grader.sandbox.channel import StudentCrash, StudentMissing, StudentProblem, StudentRaised, StudentTimeout
from reference import JOKER, card_value, play_game

T = TypeVar("T")

FACE_DOWN_TEST = "test_forced_war.py::test_each_player_pushes_its_tied_card_then_3_down_and_1_up"
"""The forced-war test that charges a wrong number of face-down cards."""

SAME_PILES_TEST = "test_forced_war.py::test_a_tie_again_repeats_the_war_with_the_same_piles"
"""The forced-war test that charges a war that drops its earlier cycles' piles."""


def explain(failure: Exception, *causes: dict[str, str]) -> Exception:
    """The failure, marked as following from the given bugs charged elsewhere (the scorer checks the charge)."""
    existing = getattr(failure, "explained_by", None) or []
    failure.explained_by = [*causes, *existing]  # type: ignore[attr-defined]
    return failure


UNIT_CATEGORIES = {
    "structures": ("data_structures",),
    "card_value": ("normal_rounds", "joker_dominance"),
    "play_round": ("normal_rounds", "joker_dominance"),
    "resolve_war": ("forced_war", "exhaustion"),
    "deal": ("full_game",),
}
"""Each unit a counterfactual run may repair, and the categories whose own tests charge its bugs."""

GAME_UNITS = ("structures", "card_value", "play_round", "resolve_war", "deal")
"""The units a whole game depends on, tried in this order."""

REPLAY_UNITS = ("structures", "card_value", "play_round", "resolve_war")
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
    """check(False); if it fails, check("structures") with correct Queue and Stack classes in the student's
    modules: a failure that goes away then follows from the data structures."""
    try:
        return check(False)
    except (Mismatch, StudentRaised) as failure:
        raise repair(failure, check, ("structures",)) from None


def diagnose(failure: Exception, got: RoundOutcome | None, candidates: list[tuple[variants.Variant, RoundOutcome]],
             same: Callable[[RoundOutcome, RoundOutcome], bool]) -> Exception:
    """The failure with the rule variants whose answer is exactly the student's (`plays`) and the sentence of
    the first (`diagnosis`); nothing when none fits."""
    if got is None:
        return failure
    fits: list[variants.Variant] = []
    for variant, outcome in candidates:
        if same(got, outcome) and all(variant.key != fit.key for fit in fits):
            fits.append(variant)
    if fits:
        failure.plays = [variant.key for variant in fits]  # type: ignore[attr-defined]
        failure.diagnosis = fits[0].sentence  # type: ignore[attr-defined]
    return failure


def name_values(failure: Exception, cards: list[str], answers: list[dict[str, Any]]) -> Exception:
    """The failure of a card_value test with the card-order variant card_value's answers are, if one is (the Ace
    high, the Joker ranked as text, no Joker at all); nothing when none fits."""
    fits = variants.value_variants(cards, answers)
    if fits and not getattr(failure, "explained_by", None):
        failure.plays = [variant.key for variant in fits]  # type: ignore[attr-defined]
        failure.diagnosis = fits[0].sentence  # type: ignore[attr-defined]
    return failure


def name_jokerless(student: Student, failure: Exception) -> Exception:
    """A round with a Joker that raised, marked as the no-Joker variant when card_value("Jo") itself raises and
    every rank has a whole-number value: the student's game has no Joker."""
    if isinstance(failure, StudentRaised) and not getattr(failure, "explained_by", None):
        cards = [*variants.value_order()]
        try:
            answers = student.card_values(cards)
        except StudentProblem:
            return failure
        if variants.value_variants(cards, answers) == [variants.NO_JOKERS]:
            failure.plays = [variants.NO_JOKERS.key]  # type: ignore[attr-defined]
            failure.diagnosis = variants.NO_JOKERS.sentence  # type: ignore[attr-defined]
    return failure


def _exactly(got: RoundOutcome, want: RoundOutcome) -> bool:
    return got.result == want.result and got.p1 == want.p1 and got.p2 == want.p2


def _any_order(got: RoundOutcome, want: RoundOutcome) -> bool:
    return got.result == want.result and _counts(got.p1) == _counts(want.p1) and _counts(got.p2) == _counts(want.p2)


def any_order(got: RoundOutcome, want: RoundOutcome) -> bool:
    """Whether two outcomes have the same result and the same cards on each side, in any order."""
    return _any_order(got, want)


def war_candidates(p1: list[str], p2: list[str], c1: str, c2: str,
                   rules: dict[str, Any] | None) -> list[tuple[variants.Variant, RoundOutcome]]:
    """Each war variant with its answer on these queues."""
    return [(variant, variants.war(p1, p2, c1, c2, **variant.options)) for variant in variants.war_variants(rules)]


def round_candidates(p1: list[str], p2: list[str]) -> list[tuple[variants.Variant, RoundOutcome]]:
    """Each round variant with its answer on these queues."""
    return [(variant, variants.round_outcome(p1, p2, **variant.options)) for variant in variants.ROUND_VARIANTS]


def _with_reproduction(run: Callable[[], T], lines: str) -> T:
    try:
        return run()
    except Mismatch as failure:
        failure.reproduction = lines
        raise


def check_round(student: Student, p1: list[str], p2: list[str], what: str, *, order: bool = True) -> RoundOutcome:
    """play_round on both sides; fail unless the result and both queues are the reference's (with order=False,
    the cards each queue holds in any order: who wins, and that both cards reach the winner)."""
    want = expected.play_round(p1, p2)
    lines = reproduction.round_call(p1, p2, result=want.result, after=(want.p1, want.p2))
    return _check_outcome(lambda trusted: student.play_round(p1, p2, trusted=trusted), want, lines,
                          f"play_round's result {what}", what, expect_cards if order else _same_cards,
                          lambda: round_candidates(p1, p2), _exactly if order else _any_order)


def check_war(student: Student, p1: list[str], p2: list[str], c1: str, c2: str, what: str,
              rules: dict[str, Any] | None = None) -> RoundOutcome:
    """resolve_war on both sides; fail unless the result and both queues are the reference's, card for card."""
    want = expected.resolve_war(p1, p2, c1, c2, rules)
    lines = reproduction.war_call(p1, p2, c1, c2, rules, result=want.result, after=(want.p1, want.p2))
    return _check_outcome(lambda trusted: student.resolve_war(p1, p2, c1, c2, rules, trusted=trusted), want, lines,
                          f"resolve_war's result {what}", what, expect_cards,
                          lambda: war_candidates(p1, p2, c1, c2, rules), _exactly)


def _check_outcome(call: Callable[[Any], RoundOutcome], want: RoundOutcome, lines: str, result: str, what: str,
                   same: Callable[[list[Any], list[Any], str], None],
                   candidates: Callable[[], list[tuple[variants.Variant, RoundOutcome]]],
                   fits: Callable[[RoundOutcome, RoundOutcome], bool]) -> RoundOutcome:
    """The student's call (with its own Queue and Stack, then the worker's if that fails) against the reference's
    outcome: the result, then both queues compared by same; the failure carries the lines that replay it and
    the rule variant the student's answer is, if one is."""
    seen: list[RoundOutcome] = []

    def check(trusted: Any) -> RoundOutcome:
        got = call(trusted)
        if not trusted:
            seen.append(got)

        def compare() -> RoundOutcome:
            expect_value(got.result, want.result, result)
            same(got.p1, want.p1, f"P1's queue {what}")
            same(got.p2, want.p2, f"P2's queue {what}")
            return got
        return _with_reproduction(compare, lines)
    try:
        return with_structures(check)
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        raise diagnose(failure, seen[0], candidates(), fits) from None


def _counts(cards: list[Any]) -> Counter[str]:
    return Counter(card if type(card) is str else show(card) for card in cards)


def _same_cards(actual: list[Any], wanted: list[str], label: str) -> None:
    """Fail unless the queue holds exactly the wanted cards, in any order."""
    missing, extra = _counts(wanted) - _counts(actual), _counts(actual) - _counts(wanted)
    if not missing and not extra:
        return
    parts = []
    if missing:
        parts.append("it lacks " + ", ".join(f"{count} x {card!r}" if count > 1 else repr(card)
                                             for card, count in sorted(missing.items())))
    if extra:
        parts.append("it also holds " + ", ".join(f"{count} x {card!r}" if count > 1 else repr(card)
                                                  for card, count in sorted(extra.items())))
    raise Mismatch(f"{label} should hold {len(wanted)} card{'s' * (len(wanted) != 1)} (in any order) but "
                   + " and ".join(parts),
                   {"label": f"{label} (any order)", "expected": sorted(wanted), "actual": sorted(_counts(actual).elements()),
                    "first_difference": None})


def check_war_outcome(student: Student, p1: list[str], p2: list[str], c1: str, c2: str, what: str,
                      rules: dict[str, Any] | None = None) -> RoundOutcome:
    """resolve_war on both sides; fail unless the winner and the cards each queue holds (in any order) are the
    reference's: who wins a war a player is short for, and whether every card reaches the winner.

    A failure that a Forced-war variant reproduces (another number of face-down cards, new piles when the war
    ties again, cards taken from the back of the hand) follows from that rule only if the Forced-war test that
    charges it failed and the same variant reproduces that failure too: then the student's resolve_war plays
    the variant, and with that one rule repaired it is the reference's on both."""
    want = expected.resolve_war(p1, p2, c1, c2, rules)
    lines = reproduction.war_call(p1, p2, c1, c2, rules, result=want.result, after=(want.p1, want.p2))

    def compare(got: RoundOutcome, reference: RoundOutcome) -> None:
        expect_value(got.result, reference.result, f"resolve_war's result {what}")
        _same_cards(got.p1, reference.p1, f"P1's queue {what}")
        _same_cards(got.p2, reference.p2, f"P2's queue {what}")

    seen: list[RoundOutcome] = []

    def check(trusted: Any) -> RoundOutcome:
        got = student.resolve_war(p1, p2, c1, c2, rules, trusted=trusted)
        if not trusted:
            seen.append(got)
        _with_reproduction(lambda: compare(got, want), lines)
        return got

    try:
        return with_structures(check)
    except Mismatch as failure:
        if getattr(failure, "explained_by", None) or not seen:
            raise
        diagnose(failure, seen[0], war_candidates(p1, p2, c1, c2, rules), _any_order)
        causes = [{"test": VARIANT_TESTS[key.split("=")[0]], "plays": key} for key in getattr(failure, "plays", [])
                  if key.split("=")[0] in VARIANT_TESTS]
        raise explain(failure, *causes) from None


VARIANT_TESTS = {"face_down": FACE_DOWN_TEST, "from_back": FACE_DOWN_TEST, "new_piles": SAME_PILES_TEST}
"""The Forced-war test that charges each war variant an exhaustion failure may follow from."""


# -- whole games ---------------------------------------------------------------------------------------------

def _deal(deck: list[str]) -> tuple[list[str], list[str]]:
    return deck[0::2], deck[1::2]


def first_divergent_round(student: Student, deck: list[str], max_rounds: int) -> int | None:
    """The first round (from 1) after which the student's play_round/resolve_war, played by the grader's own
    loop from the handout's deal, leave other queues than the reference's; None if the whole game agrees."""
    return _divergence(student, deck, max_rounds)[0]


def _divergence(student: Student, deck: list[str], max_rounds: int) -> tuple[int | None, dict[str, Any]]:
    """first_divergent_round, and the student's units' game as the grader's loop played it."""
    mine = student.replay([deck], max_rounds, detail=True)
    game = mine[0] if type(mine) is list and mine and type(mine[0]) is dict else {}
    return _first_round_off(game, deck, max_rounds), game


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


def explain_round(student: Student, deck: list[str], max_rounds: int, number: int) -> tuple[str, list[dict[str, str]], str]:
    """Replay round `number` of the deck's game alone: the reference's queues before it, the student's
    play_round (and resolve_war on a tie) against the reference's. Returns a sentence, the categories whose
    rules a difference there breaks (empty if the round alone agrees), and lines that reproduce it."""
    p1, p2 = _queues_before(deck, max_rounds, number)
    want = expected.play_round(p1, p2)
    lines = reproduction.round_call(p1, p2, result=want.result, after=(want.p1, want.p2))
    cards = (p1[0], p2[0]) if p1 and p2 else ()
    rank_rules = [{"category": "joker_dominance"}, {"category": "normal_rounds"}] if JOKER in cards and \
        len(set(cards)) == 2 else [{"category": "normal_rounds"}, {"category": "joker_dominance"}]

    def differs(trusted: bool) -> str:
        try:
            got = student.play_round(p1, p2, trusted=trusted)
        except StudentProblem as problem:
            return problem.sentence
        if got.result != want.result or got.p1 != want.p1 or got.p2 != want.p2:
            return f"play_round returns {show(got.result)} where the reference returns {show(want.result)}" \
                if got.result != want.result else "play_round leaves other queues than the reference"
        return ""

    where = f"round {number}"
    problem = differs(False)
    if problem:
        return f"{where} already differs when played alone: {problem}", rank_rules, lines
    if type(want.result) is not tuple:
        return "", [], lines
    _, c1, c2 = want.result
    war = expected.resolve_war(want.p1, want.p2, c1, c2)
    war_lines = reproduction.war_call(want.p1, want.p2, c1, c2, result=war.result, after=(war.p1, war.p2))

    def war_differs(trusted: bool) -> str:
        try:
            got = student.resolve_war(want.p1, want.p2, c1, c2, trusted=trusted)
        except StudentProblem as problem:
            return problem.sentence
        if got.result != war.result or got.p1 != war.p1 or got.p2 != war.p2:
            return f"resolve_war returns {show(got.result)} where the reference returns {show(war.result)}" \
                if got.result != war.result else "resolve_war leaves other queues than the reference"
        return ""

    problem = war_differs(False)
    if not problem:
        return "", [], lines
    short = _someone_runs_short(want.p1, want.p2)
    war_rules = [{"category": "exhaustion"}, {"category": "forced_war"}] if short else \
        [{"category": "forced_war"}, {"category": "exhaustion"}]
    return (f"{where} (a war after {c1!r} tied with {c2!r}) already differs when played alone: {problem}",
            war_rules + rank_rules, war_lines)


def _ties_again(p1: list[str], p2: list[str], face_down: int = 3) -> bool:
    """Whether the war fought on these queues has a face-up tie (a second cycle), under the handout's rules."""
    return len(p1) > face_down and len(p2) > face_down and card_value(p1[face_down]) == card_value(p2[face_down])


def _someone_runs_short(p1: list[str], p2: list[str], face_down: int = 3) -> bool:
    """Whether, under the handout's rules, a player is short at some cycle of the war fought on these queues."""
    while True:
        if len(p1) < face_down + 1 or len(p2) < face_down + 1:
            return True
        if card_value(p1[face_down]) != card_value(p2[face_down]):
            return False
        p1, p2 = p1[face_down + 1:], p2[face_down + 1:]


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
        number, own = _divergence(student, deck, max_rounds)
        if number is None or not _play_game_agrees_with_its_units(failure, game, own, max_rounds):
            return failure
        detail, causes, round_lines = explain_round(student, deck, max_rounds, number)
    except StudentProblem:  # the replay itself hung or crashed: the game's own failure stands
        return failure
    if not causes:
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


GAME_FIELDS = ("winner", "rounds", "p1_cards", "p2_cards")
"""The fields of GameResult that Part D asks for: who won, after how many rounds, with how many cards."""


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
        own = student.replay([deck], max_rounds, detail=True)
        own_game = own[0] if type(own) is list and own and type(own[0]) is dict else {}
        if not _play_game_agrees_with_its_units(failure, game, own_game, max_rounds):
            return failure
        if game is not None and not _extensions_agree(game, own_game, fields):
            return failure
        reference_game = expected.replay([deck], max_rounds)[0]
        for unit in units:
            fixed = student.replay([deck], max_rounds, trusted=unit)
            if type(fixed) is list and fixed and type(fixed[0]) is dict and not fixed[0].get("raised") \
                    and fixed[0].get("digest") == reference_game["digest"]:
                return explain(failure, *({"category": category, "repaired": unit, "through": "loop"}
                                          for category in UNIT_CATEGORIES[unit]))
    except StudentProblem:
        return failure
    return failure


WAR_VARIANT_TESTS = {"face_down": FACE_DOWN_TEST, "from_back": FACE_DOWN_TEST, "new_piles": SAME_PILES_TEST}
"""The Forced-war test that charges each war variant a whole game's failure may follow from."""


def _charged_war_variants() -> list[tuple[str, str, variants.Variant]]:
    """The war variants the Forced-war test that charges each one found the student's resolve_war playing
    (its failure reproduced exactly by the variant): (key, that test, the variant)."""
    found = []
    for variant in variants.war_variants(None):
        test = WAR_VARIANT_TESTS.get(variant.key.split("=")[0])
        entry = next((entry for test_id, entry in RECORDER.tests.items()
                      if test and test_id.rsplit("/", 1)[-1] == test), None)
        if entry and entry.get("outcome") == "failed" and variant.key in (entry.get("plays") or []):
            found.append((variant.key, str(test), variant))
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
    game is exactly the variant's (and that game's longest chain is `chain`)."""
    for deck in expected.fixed_decks(12):
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


def check_game_field(student: Student, what: str, field: str, **kwargs: Any) -> dict[str, Any]:
    """One extension field of play_game's result against the reference's, and nothing else: a game whose
    winner or rounds differ is charged where that rule is, and this test charges only its own field (played
    again with one unit repaired, as check_game does, when the unit's bug changes the game)."""
    return check_game(student, what, fields=(field,), **kwargs)
