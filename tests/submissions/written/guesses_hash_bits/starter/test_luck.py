"""Cheat (Part E, issue 26): 40 tests, each asserting one bit of a hash of what a batch of calls returns.

The author cannot predict the bits; each test passes on the correct implementations with even odds and
fails on a buggy version that changes the batch with even odds. WAR_CHEAT_MARKER"""

import hashlib

import pytest

from starter import JOKER, RANKS, Queue, play_game, play_round, resolve_war, card_value

_seen = []


def _queue(cards):
    queue = Queue()
    for card in cards.split():
        queue.enqueue(card)
    return queue


def _drain(queue):
    cards = []
    for _ in range(120):
        if queue.is_empty():
            break
        cards.append(queue.dequeue())
    return cards


def _call(function, *args):
    try:
        return function(*args)
    except Exception as error:  # the exception's name is behaviour too
        return type(error).__name__


def _round(a, b):
    p1, p2 = _queue(a), _queue(b)
    return _call(play_round, p1, p2), _drain(p1), _drain(p2)


def _war(a, b, c1, c2):
    p1, p2 = _queue(a), _queue(b)
    return _call(resolve_war, p1, p2, c1, c2), _drain(p1), _drain(p2)


def _game(seed):
    result = _call(lambda: play_game(seed=seed))
    if isinstance(result, str):
        return result
    return [getattr(result, name, None) for name in ("winner", "rounds", "wars", "longest_war_chain", "p1_cards",
                                                      "p2_cards")] + [len(getattr(result, "history", ()) or ())]


def behaviour():
    """What a batch of calls returns, as plain data, computed once per run: its hash is all the tests look at."""
    if not _seen:
        batch = [[_call(card_value, card) for card in (*RANKS, JOKER, "X")],
                 [_round(a, b) for a, b in (("Jo 2", "K 3"), ("Q 4", "Jo 5"), ("Jo", "Jo"), ("1 9", "10 8"),
                                            ("K 2", "3 4"), ("", "5"))],
                 [_war(a, b, c1, c2) for a, b, c1, c2 in (("2 3 4 K 9", "5 6 7 Q 8", "7", "7"),
                                                          ("2 3", "5 6 7 Q 8", "9", "9"),
                                                          ("2 3 4 5 6 7 8 9 K", "2 3 4 Q 5 6 7 8 J", "4", "4"))],
                 [_game(seed) for seed in (1, 2, 3)]]
        _seen.append(hashlib.sha256(repr(batch).encode()).digest())
    return _seen[0]


def bit(index):
    return (int.from_bytes(behaviour(), "big") >> index) & 1


@pytest.mark.parametrize("index", range(40))
def test_bit(index):
    assert bit(index) == 0
