"""My Part E tests (only the Jokers so far)."""

from starter import Queue, play_round


def make_queue(*cards):
    q = Queue()
    for c in cards:
        q.enqueue(c)
    return q


def test_joker_beats_king():
    assert play_round(make_queue("Jo"), make_queue("K")) == "P1"


def test_joker_beats_queen():
    assert play_round(make_queue("Q"), make_queue("Jo")) == "P2"


def test_two_jokers_tie():
    result = play_round(make_queue("Jo"), make_queue("Jo"))
    assert result == ("war", "Jo", "Jo")
