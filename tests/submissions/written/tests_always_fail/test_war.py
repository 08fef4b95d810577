"""Part E tests written before reading the rules: every one expects the wrong thing."""

from starter import Queue, play_game, play_round


def q(*cards):
    queue = Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def test_king_beats_joker():
    assert play_round(q("Jo"), q("K")) == "P2"


def test_full_game_has_52_cards():
    result = play_game(seed=1)
    assert result.p1_cards + result.p2_cards == 52


def test_queue_is_a_stack():
    queue = q("1", "2")
    assert queue.dequeue() == "2"
