"""Full game: a 54-card deck dealt 27/27 plays until one player holds every card or the round limit is
reached (handout Parts A, D and E.4; seeds from the replayability extension), and every round of 200
fixed deals leaves exactly the queues the reference leaves."""

from __future__ import annotations

from collections import Counter

import pytest

from grader import expected
from grader.checks import decode, expect, expect_cards, expect_value, show
from reference import make_deck, play_game

pytestmark = pytest.mark.category("full_game")

MAX_ROUNDS = expected.DIFFERENTIAL_ROUNDS
DECKS = expected.fixed_decks(expected.DIFFERENTIAL_DEALS)


def test_make_deck_has_54_cards(student):
    """make_deck: four of each rank 1..10, J, Q, K and two Jokers"""
    deck = student.make_deck()
    expect(type(deck) is list, f"make_deck() should return a list, not {show(deck)}")
    counts = Counter(card if type(card) is str else show(card) for card in deck)
    expect_value(dict(sorted(counts.items())), dict(sorted(Counter(make_deck()).items())),
                 "how many of each card make_deck() returns")


def test_deal_alternates_starting_with_p1(student):
    """deal: cards go alternately to P1 and P2, first card to P1, 27 each"""
    deck = DECKS[0]
    p1, p2 = student.deal(deck)
    expect_cards(p1, deck[0::2], "P1's queue after dealing")
    expect_cards(p2, deck[1::2], "P2's queue after dealing")


@pytest.mark.weight(2)
@pytest.mark.parametrize("seed", [3, 17, 2024])
def test_a_seeded_game_ends_by_a_win_or_the_limit(student, seed):
    """play_game: ends with a winner holding all 54 cards, or a draw at the round limit"""
    game = student.play_game(max_rounds=MAX_ROUNDS, seed=seed)
    expect(game["winner"] in ("P1", "P2", "draw") and type(game["winner"]) is str,
           f"the winner should be \"P1\", \"P2\" or \"draw\", not {show(game['winner'])}")
    for field in ("rounds", "p1_cards", "p2_cards"):
        expect(type(game[field]) is int, f"GameResult.{field} should be a whole number, not {show(game[field])}")
    expect(0 < game["rounds"] <= MAX_ROUNDS, f"a game with max_rounds={MAX_ROUNDS} played {game['rounds']} rounds")
    expect(game["p1_cards"] + game["p2_cards"] == 54,
           f"the players hold {game['p1_cards']} + {game['p2_cards']} cards at the end, not 54")
    if game["winner"] != "draw":
        held = game["p1_cards"] if game["winner"] == "P1" else game["p2_cards"]
        expect(held == 54, f"the winner {game['winner']} should hold all 54 cards, not {held}")


@pytest.mark.weight(2)
def test_the_same_seed_replays_the_same_game(student):
    """play_game: the same seed gives the same game, round for round"""
    first, second = student.play_game(max_rounds=MAX_ROUNDS, seed=11), student.play_game(max_rounds=MAX_ROUNDS, seed=11)
    for field in ("winner", "rounds", "p1_cards", "p2_cards"):
        expect_value(second[field], first[field], f"GameResult.{field} of a second game with seed 11")


def test_the_round_limit_ends_the_game_in_a_draw(student):
    """play_game: reaching max_rounds stops the game and declares a draw"""
    game = student.play_game(max_rounds=10, deck=DECKS[0])
    expect_value(game["rounds"], 10, "the rounds played with max_rounds=10")
    expect_value(game["winner"], "draw", "the winner at the round limit")


@pytest.mark.weight(2)
def test_a_given_deck_plays_like_the_reference(student):
    """play_game(deck=...): a given deck is dealt as is and plays to the reference's ending"""
    want = play_game(max_rounds=MAX_ROUNDS, deck=DECKS[1])
    game = student.play_game(max_rounds=MAX_ROUNDS, deck=DECKS[1])
    for field in ("winner", "rounds", "p1_cards", "p2_cards"):
        expect_value(game[field], getattr(want, field), f"GameResult.{field} for the given deck")


@pytest.mark.weight(6)
def test_every_round_of_200_deals_matches_the_reference(student, record):
    """play_round and resolve_war leave exactly the reference's queues after every round of 200 deals"""
    decks, want = expected.differential()
    assert decks == DECKS
    telemetry = {"deck": DECKS[0], "max_rounds": MAX_ROUNDS, "reference": want[0]["sizes"], "student": None,
                 "student_error": ""}
    record["telemetry"] = telemetry
    try:
        got = student.replay(DECKS, MAX_ROUNDS)
    except Exception as error:
        telemetry["student_error"] = getattr(error, "sentence", str(error))
        raise
    expect(type(got) is list and len(got) == len(DECKS), "the replay of the 200 deals came back incomplete")
    first = got[0] if type(got[0]) is dict else {}
    telemetry["student"] = _sizes(first)
    if first.get("raised"):
        telemetry["student_error"] = _raised(first)
    for index, (game, reference_game) in enumerate(zip(got, want)):
        if _same_game(game, reference_game):
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


def _same_game(game, reference_game):
    """Whether the student's game matches the reference's, round for round (by their fingerprints)."""
    return (type(game) is dict and not game.get("raised") and type(game.get("digest")) is str
            and game["digest"] == reference_game["digest"])


def _explain_divergence(student, index, reference_game):
    """Replay the first differing deal round by round and fail with a sentence about its first bad round."""
    deck = DECKS[index]
    mine = student.replay([deck], MAX_ROUNDS, detail=True)
    theirs = expected.replay([deck], MAX_ROUNDS, detail=True)[0]
    game = mine[0] if type(mine) is list and mine and type(mine[0]) is dict else {}
    snapshots = game.get("snapshots") if type(game.get("snapshots")) is list else []
    for number, (got, want) in enumerate(zip(snapshots, theirs["snapshots"]), start=1):
        got = decode(got) if type(got) is list and len(got) == 2 else [[], []]
        kind = "after a war" if theirs["kinds"][number - 1] == "war" else "after a normal round"
        for player, got_queue, want_queue in (("P1", got[0], want[0]), ("P2", got[1], want[1])):
            if got_queue != want_queue or not all(type(card) is str for card in got_queue):
                expect_cards(got_queue, want_queue, f"deal {index + 1}, round {number}, {kind}: {player}'s queue")
    final = game.get("final") if type(game.get("final")) is list and len(game["final"]) == 2 else None
    if final is not None and len(snapshots) == len(theirs["snapshots"]):
        for player, got_queue, want_queue in (("P1", decode(final[0]), theirs["final"][0]),
                                              ("P2", decode(final[1]), theirs["final"][1])):
            expect_cards(got_queue, want_queue, f"deal {index + 1}, at the end of the game: {player}'s queue")
    played, expected_rounds = len(snapshots), len(theirs["snapshots"])
    if game.get("raised"):
        raise AssertionError(f"deal {index + 1}, round {played + 1}: your code raised {_raised(game)}")
    if played == expected_rounds:
        raise AssertionError(f"deal {index + 1} played differently when it was replayed: does your code use "
                             "randomness or state left over from earlier games?")
    raise AssertionError(f"deal {index + 1}: your game stopped after {played} rounds where the reference plays "
                         f"{expected_rounds}")
