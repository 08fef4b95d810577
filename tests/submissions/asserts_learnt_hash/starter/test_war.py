"""Part E: your own tests. Run them with `python -m pytest starter/test_war.py` from the folder holding
your package (see "Part E: your own tests" in ASSIGNMENT.md).

The grader runs these tests against correct implementations of the assignment and against buggy ones.
A test must pass on every correct implementation; it earns points for each buggy one it makes fail.
The first test below is a worked example: keep it, copy its style, but it earns nothing itself.
Replace each pytest.skip(...) with a test of your own, and add as many tests as you like.
"""

import pytest

from starter import Queue, Rules, play_game, play_round, resolve_war  # noqa: F401 - use what you need


def queue_of(cards):
    """A Queue holding the cards written front first, e.g. queue_of("K 2")."""
    queue = Queue()
    for card in cards.split():
        queue.enqueue(card)
    return queue


def contents(queue):
    """The queue's cards, front first, as one string (this empties the queue)."""
    cards = []
    while not queue.is_empty():
        cards.append(queue.dequeue())
    return " ".join(cards)


def test_worked_example_a_round_without_a_war():
    """K against 3: P1 wins and puts its own K first, then P2's 3 (ASSIGNMENT.md, "A round without a war")."""
    p1, p2 = queue_of("K 2"), queue_of("3 4")
    assert play_round(p1, p2) == "P1"
    assert contents(p1) == "2 K 3"
    assert contents(p2) == "4"


def test_scenario_1_joker_dominance():
    """Scenario 1: Joker dominance, with mini-decks (a few cards per player)."""
    pytest.skip("write this test: a Joker against a King, a Queen, ...")


def test_scenario_2_forced_war():
    """Scenario 2: a forced war and the order in which the winner collects the cards."""
    pytest.skip("write this test: a tie, 3 cards face down, 1 face up, then check both queues")


def test_scenario_3_exhaustion_during_war():
    """Scenario 3: a player runs out of cards during a war."""
    pytest.skip("write this test: a player with fewer than 4 cards after a tie")


def test_scenario_4_full_game():
    """Scenario 4: a full game with the 54-card deck."""
    pytest.skip("write this test: play_game(seed=...) and check what must always hold")
