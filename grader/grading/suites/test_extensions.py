"""Extensions: the numbers GameResult reports beyond Part D (wars, longest war chain, the history of queue
sizes) and the seeded replay (ASSIGNMENT.md, play_game and the GameResult table).

Each test checks only its own field: a game whose winner, rounds or cards differ is charged where that rule
is (Full game), and a field that differs because a unit does (a Joker that crashes card_value, a wrong war) is
excused only when the same game, played again with the reference's version of that unit, gives the right
field: the extension is then observed on a game the student's code can play.

The counters are observed on decks without Jokers (expected.counter_decks), so a Joker that is wrong or
missing is charged in Joker dominance alone; only the seeded replay plays make_deck()'s 54 cards, as the handout
asks. In a game that hangs (a war that never ends), a repair that does not make a test pass moves on to the next
unit, whose run may hang again (a chain counted inside the student's own resolve_war is what repairing resolve_war
cannot give): such repaired runs are not counted against the category's timeouts, so the grade does not depend on
the order these tests run in (infinite_loop_in_war; tests/test_corpus.py grades it in reverse order)."""

from __future__ import annotations

import pytest

from grader.grading import expected
from grader.grading.checks import Mismatch, expect, show
from grader.grading.suites.games import attribute_game_failure, check_game_field
from grader.grading.suites.repairs import GAME_UNITS, repair
from grader.sandbox.channel import StudentProblem, StudentRaised
from reference import make_deck, shuffle

pytestmark = pytest.mark.category("extensions")

MAX_ROUNDS = expected.DIFFERENTIAL_ROUNDS
DECKS = expected.counter_decks()
"""52 cards without Jokers. Every counter test plays the same two games, so a call that hung in one is not run
again in the next (and does not spend the category's timeouts twice)."""


def _deck(seed: int) -> str:
    return f"for the 52-card deck without Jokers, make_deck(jokers=False) shuffled with seed {seed}"


@pytest.mark.rule("GameResult.wars: the number of rounds that went to war")
@pytest.mark.parametrize("seed", expected.COUNTER_SEEDS)
def test_wars_counts_the_rounds_that_went_to_war(student, seed):
    """play_game: GameResult.wars counts every round that went to war, once however many cycles it took"""
    check_game_field(student, _deck(seed), deck=DECKS[seed], max_rounds=MAX_ROUNDS, field="wars")


@pytest.mark.rule("GameResult.history: the sizes of P1's and P2's queues after every round, a war included")
def test_history_records_both_sizes_after_every_round(student):
    """play_game: GameResult.history holds (P1's size, P2's size) after each round, one entry per round"""
    seed = expected.COUNTER_SEEDS[0]
    check_game_field(student, _deck(seed), deck=DECKS[seed], max_rounds=MAX_ROUNDS, field="history")


@pytest.mark.rule("play_game without a deck shuffles make_deck() with shuffle(..., seed): the same seed always "
                  "gives the same game")
def test_the_same_seed_replays_the_same_game(student):
    """play_game: the same seed gives the same game, and it is the game of the deck shuffle(make_deck(), seed)

    The order comes from the seed: seeds 11 and 12 give two orders."""
    fields = ("winner", "rounds", "p1_cards", "p2_cards", "wars", "longest_war_chain")

    def check(trusted):
        first = student.play_game(max_rounds=MAX_ROUNDS, seed=11, trusted=trusted)
        second = student.play_game(max_rounds=MAX_ROUNDS, seed=11, trusted=trusted)
        differ = [field for field in fields if first.get(field) != second.get(field)]
        expect(not differ, "two games with seed 11 ended differently: " + "; ".join(
            f"{field} {show(first.get(field))} the first time, {show(second.get(field))} the second" for field in differ))
        deck = student.shuffle(student.make_deck(), 11)
        if type(deck) is not list:
            raise Mismatch(f"shuffle(make_deck(), 11) should return a list, not {show(deck)}")
        other = student.shuffle(student.make_deck(), 12)
        if other == deck:
            raise Mismatch("shuffle(make_deck(), 11) and shuffle(make_deck(), 12) gave the same order, so the order "
                           "does not come from the seed (the grader starts Python's global random generator from "
                           "the same state before every call, so an order drawn from it repeats whatever the seed; "
                           "in a program of yours it would change from run to run)")
        dealt = student.play_game(max_rounds=MAX_ROUNDS, deck=deck, trusted=trusted)
        differ = [field for field in fields if first.get(field) != dealt.get(field)]
        expect(not differ, "play_game(seed=11) should play the deck shuffle(make_deck(), 11), but the two games "
               "differ: " + "; ".join(f"{field} {show(first.get(field))} with the seed, {show(dealt.get(field))} with "
                                      "the deck" for field in differ))

    try:
        check(False)
    except StudentRaised as failure:
        # The handout suggests random.Random(seed).shuffle, the reference's: its deck finds the round at fault.
        named = attribute_game_failure(student, failure, shuffle(make_deck(), 11), MAX_ROUNDS)
        raise repair(named, check, GAME_UNITS) from None
    except (Mismatch, StudentProblem) as failure:
        raise repair(failure, check, GAME_UNITS) from None


@pytest.mark.rule("GameResult.longest_war_chain: the most war cycles in one round (1 for a war decided by its first "
                  "cycle, plus 1 for every face-up tie)")
@pytest.mark.parametrize("seed", expected.COUNTER_SEEDS)
def test_longest_war_chain(student, seed):
    """play_game: GameResult.longest_war_chain is the most cycles one war took (3 and 2 in these games)"""
    check_game_field(student, _deck(seed), deck=DECKS[seed], max_rounds=MAX_ROUNDS, field="longest_war_chain")
