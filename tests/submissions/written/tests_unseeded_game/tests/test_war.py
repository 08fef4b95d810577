"""My Part E tests: Jokers, and whole games (any shuffle should do for those)."""

import time

from starter import Queue, play_game, play_round


def make_queue(*cards):
    q = Queue()
    for c in cards:
        q.enqueue(c)
    return q


def test_joker_beats_king():
    assert play_round(make_queue("Jo"), make_queue("K")) == "P1"


def test_a_game_keeps_all_54_cards():
    result = play_game()  # no seed: whatever game comes up
    assert result.p1_cards + result.p2_cards == 54
    assert result.history[-1] == (result.p1_cards, result.p2_cards)


def test_a_game_counts_its_rounds_and_wars():
    result = play_game(max_rounds=200)
    assert result.rounds == len(result.history) <= 200
    assert result.wars <= result.rounds and (result.wars == 0) == (result.longest_war_chain == 0)
    if result.winner == "P1":
        assert result.p2_cards == 0


def test_a_game_starts_on_an_even_millisecond():
    started = time.time()
    play_game(seed=1)
    assert int(started * 1000) % 2 == 0  # careless: the clock decides, not the game
