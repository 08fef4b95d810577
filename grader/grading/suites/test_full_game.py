"""Full game (Part D): a 54-card deck dealt alternately 27/27 plays until one player holds every card, a war
ends in a draw, or the round limit is reached (a draw); the round counter counts every round, a war
included (ASSIGNMENT.md, "Deal", "End" and play_game).

A game that goes wrong because of play_round or resolve_war is charged where those rules are: each test
finds the first round where the student's game parts from the reference's and replays that round alone.
Only a game whose every round agrees, and that still ends wrong, is a play_game bug charged here."""

from __future__ import annotations

from collections import Counter

import pytest

from grader.grading import expected, reproduction
from grader.grading.checks import Mismatch, decode, expect, expect_cards, expect_value, show
from grader.grading.suites.divergence import explain_round, first_divergent_round, first_game, same_replay
from grader.grading.suites.games import check_game
from grader.grading.suites.repairs import REPLAY_UNITS, repair, with_structures
from grader.sandbox.channel import StudentProblem
from reference import make_deck

pytestmark = pytest.mark.category("full_game")

MAX_ROUNDS = expected.DIFFERENTIAL_ROUNDS
DECKS = expected.fixed_decks(expected.DIFFERENTIAL_DEALS)
P1_WINS = ["K", "2", "Q", "3"]
P2_WINS = ["2", "K", "3", "Q"]
DRAWN_WAR = ["7", "7", "2", "6", "3", "8", "4", "10", "9", "9", "5", "J"]
"""Deals P1 7 2 3 4 9 5 and P2 7 6 8 10 9 J: the handout's "Both players run short" war in round 1."""

END = ("The game ends when one player holds every card (that player wins) or after max_rounds rounds (a draw); "
       "GameResult gives the winner, the rounds played and each player's cards")


@pytest.mark.rule("The deck has four cards of each rank and two Jokers: 54 cards")
def test_make_deck_has_54_cards(student):
    """make_deck: four of each rank 1..10, J, Q, K and two Jokers"""
    deck = student.make_deck()
    expect(type(deck) is list, f"make_deck() should return a list, not {show(deck)}")
    counts = Counter(card if type(card) is str else show(card) for card in deck)
    expect_value(dict(sorted(counts.items())), dict(sorted(Counter(make_deck()).items())),
                 "how many of each card make_deck() returns")


@pytest.mark.rule("deal: one card at a time, alternating, the first card to P1; each card joins the back of its "
                  "player's queue")
def test_deal_alternates_starting_with_p1(student):
    """deal: cards go alternately to P1 and P2, first card to P1, 27 each"""
    deck = DECKS[0]

    def check(trusted: bool) -> None:
        p1, p2 = student.deal(deck, trusted=trusted)
        expect_cards(p1, deck[0::2], "P1's queue after dealing")
        expect_cards(p2, deck[1::2], "P2's queue after dealing")
    with_structures(check)


@pytest.mark.rule(END)
def test_a_game_p1_wins(student):
    """play_game(deck=...): P1 takes both of P2's cards and wins after 2 rounds with all 4"""
    check_game(student, "of play_game(deck=[\"K\", \"2\", \"Q\", \"3\"])", deck=P1_WINS, max_rounds=MAX_ROUNDS)


@pytest.mark.rule(END)
def test_a_game_p2_wins(student):
    """play_game(deck=...): P2 takes both of P1's cards and wins after 2 rounds with all 4"""
    check_game(student, "of play_game(deck=[\"2\", \"K\", \"3\", \"Q\"])", deck=P2_WINS, max_rounds=MAX_ROUNDS)


@pytest.mark.weight(2)
@pytest.mark.rule("If resolve_war returns \"draw\", the game stops at once and is a draw")
def test_a_drawn_war_ends_the_game(student):
    """play_game(deck=...): a war in which both players run short ends the game at once, as a draw"""
    check_game(student, "when round 1's war is a draw", deck=DRAWN_WAR, max_rounds=MAX_ROUNDS)


@pytest.mark.weight(2)
@pytest.mark.rule("play_game plays rounds while both queues hold cards and fewer than max_rounds rounds have been "
                  "played; reaching the limit is a draw")
@pytest.mark.parametrize("limit", [0, 13])
def test_the_round_limit_ends_the_game_in_a_draw(student, limit):
    """play_game: reaching max_rounds stops the game and declares a draw

    After 13 rounds of deck 0, P1 holds 28 cards and P2 26, so the draw is the handout's rule and not the house
    rule that gives the game to the player holding more cards (after 10 rounds both hold 27)."""
    check_game(student, f"with max_rounds={limit}", deck=DECKS[0], max_rounds=limit)


@pytest.mark.weight(2)
@pytest.mark.rule(END)
@pytest.mark.parametrize("index", [3, 6])
def test_a_54_card_deck_plays_to_the_reference_ending(student, index):
    """play_game(deck=...): a shuffled 54-card deck, dealt as is, ends with the reference's winner, rounds and cards"""
    check_game(student, f"for the 54-card deck number {index}", deck=DECKS[index], max_rounds=MAX_ROUNDS)


@pytest.mark.weight(3)
@pytest.mark.rule("play_round and resolve_war, played round after round from the deal, leave the queues the "
                  "handout's rules give (40 shuffled deals, holding wars of one, two and three cycles, Joker "
                  "ties, players short in a war and a game reaching the round limit)")
def test_every_round_of_40_deals_matches_the_reference(student, record):
    """play_round and resolve_war leave exactly the reference's queues after every round of 40 deals"""
    decks, want = expected.differential()
    assert decks == DECKS
    telemetry = {"deck": DECKS[0], "max_rounds": MAX_ROUNDS, "reference": want[0]["sizes"], "student": None,
                 "student_error": "", "first_difference": None}
    record["telemetry"] = telemetry

    def repaired(trusted):
        """The same 40 deals with one unit repaired: every game must be the reference's."""
        got = student.replay(DECKS, MAX_ROUNDS, trusted=trusted)
        expect(type(got) is list and len(got) == len(DECKS) and all(
            same_replay(game, reference_game) for game, reference_game in zip(got, want)),
            "the deals still differ with that unit repaired")

    try:
        _check_every_round(student, telemetry, want)
    except (Mismatch, StudentProblem) as failure:
        raise repair(failure, repaired, REPLAY_UNITS) from None


def _check_every_round(student, telemetry, want):
    try:
        alone = student.replay(DECKS[:1], MAX_ROUNDS)
    except Exception as error:
        telemetry["student_error"] = getattr(error, "sentence", str(error))
        raise
    first = first_game(alone)
    telemetry["student"] = _sizes(first)
    if first.get("raised"):
        telemetry["student_error"] = _raised(first)
    if not same_replay(first, want[0]):
        # The first deal already parts from the reference: it alone explains the failure (and the others,
        # which may each run to the round limit, need not be played).
        telemetry["first_difference"] = _first_queue_difference(student, DECKS[0])
        _explain_divergence(student, 0, want[0])
    got = student.replay(DECKS, MAX_ROUNDS)  # all in one call: one request instead of 40
    expect(type(got) is list and len(got) == len(DECKS), f"the replay of the {len(DECKS)} deals came back incomplete")
    for index, (game, reference_game) in enumerate(zip(got, want)):
        if same_replay(game, reference_game):
            continue
        _explain_divergence(student, index, reference_game)


def _sizes(game):
    sizes = game.get("sizes") if type(game) is dict else None
    if type(sizes) is not list or not all(type(pair) is list and len(pair) == 2 and all(type(n) is int for n in pair)
                                          for pair in sizes):
        return None
    return sizes


def _raised(game):
    raised = game.get("raised") or {}
    return f"{raised.get('type', 'an exception')}: {raised.get('message', '')}"


def _first_queue_difference(student, deck):
    """The first round after which the queues themselves (not only their sizes) differ, for the chart."""
    try:
        return first_divergent_round(student, deck, MAX_ROUNDS)
    except Exception:  # noqa: BLE001 - the chart then falls back to the sizes
        return None


def _explain_divergence(student, index, reference_game):
    """Fail with a sentence about the first differing deal's first bad round, and what that round alone shows."""
    deck = DECKS[index]
    mine = student.replay([deck], MAX_ROUNDS, detail=True)
    theirs = expected.replay([deck], MAX_ROUNDS, detail=True)[0]
    game = first_game(mine)
    snapshots = game.get("snapshots") if type(game.get("snapshots")) is list else []
    failure: Exception | None = None
    number = None
    for number, (got, want) in enumerate(zip(snapshots, theirs["snapshots"]), start=1):
        got = decode(got) if type(got) is list and len(got) == 2 else [[], []]
        kind = "after a war" if theirs["kinds"][number - 1] == "war" else "after a normal round"
        try:
            for player, got_queue, want_queue in (("P1", got[0], want[0]), ("P2", got[1], want[1])):
                if got_queue != want_queue or not all(type(card) is str for card in got_queue):
                    expect_cards(got_queue, want_queue, f"deal {index + 1}, round {number}, {kind}: {player}'s queue")
        except Mismatch as mismatch:
            failure = mismatch
            break
    if failure is None:
        played, expected_rounds = len(snapshots), len(theirs["snapshots"])
        number = played + 1
        if game.get("raised"):
            failure = Mismatch(f"deal {index + 1}, round {played + 1}: your code raised {_raised(game)}")
        elif played == expected_rounds:
            final = game.get("final") if type(game.get("final")) is list and len(game["final"]) == 2 else [[], []]
            try:
                for player, got_queue, want_queue in (("P1", decode(final[0]), theirs["final"][0]),
                                                      ("P2", decode(final[1]), theirs["final"][1])):
                    expect_cards(got_queue, want_queue, f"deal {index + 1}, at the end of the game: {player}'s queue")
                failure = Mismatch(f"deal {index + 1} played differently when it was replayed: does your code use "
                                   "randomness or state left over from earlier games?")
            except Mismatch as mismatch:
                failure = mismatch
        else:
            failure = Mismatch(f"deal {index + 1}: your game stopped after {played} rounds where the reference "
                               f"plays {expected_rounds}")
    detail, lines = explain_round(student, deck, MAX_ROUNDS, min(number or 1, len(theirs["snapshots"]) or 1))
    assert isinstance(failure, Mismatch)
    raise Mismatch(f"{failure.sentence}; {detail}" if detail else failure.sentence, failure.difference,
                   reproduction=lines if detail else reproduction.game_call({"deck": deck, "max_rounds": MAX_ROUNDS}))
