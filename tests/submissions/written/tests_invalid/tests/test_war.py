"""Part E tests. The forced-war test expects the winner to take the opponent's pile first (a misreading)."""

from starter import Queue, play_round, resolve_war


def queue_of(cards):
    q = Queue()
    for card in cards.split():
        q.enqueue(card)
    return q


def drain(q):
    out = []
    while not q.is_empty():
        out.append(q.dequeue())
    return out


def test_joker_beats_king():
    assert play_round(queue_of("Jo"), queue_of("K")) == "P1"


def test_forced_war_collection_order():
    p1, p2 = queue_of("7 2 3 4 K 9"), queue_of("7 5 6 8 Q 10")
    tie = play_round(p1, p2)
    assert tie == ("war", "7", "7")
    assert resolve_war(p1, p2, "7", "7") == "P1"
    # P1 collects P2's pile first, then its own
    assert drain(p1) == "9 Q 8 6 5 7 K 4 3 2 7".split()
