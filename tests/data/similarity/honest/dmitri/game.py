from __future__ import annotations

from dataclasses import dataclass

from .cards import card_value, deal, make_deck, shuffle
from .rules import DEFAULT_RULES, Rules
from .structures import Queue, Stack


@dataclass(frozen=True)
class GameResult:
    winner: str
    rounds: int
    wars: int
    longest_war_chain: int
    p1_cards: int
    p2_cards: int
    history: tuple[tuple[int, int], ...]


def play_round(p1, p2, rules=DEFAULT_RULES):
    sizes = (p1.size(), p2.size())
    if sizes == (0, 0):
        return "draw"
    if sizes[0] == 0:
        return "P2"
    if sizes[1] == 0:
        return "P1"
    x = p1.dequeue()
    y = p2.dequeue()
    diff = card_value(x) - card_value(y)
    if diff > 0:
        p1.enqueue(x)
        p1.enqueue(y)
        return "P1"
    elif diff < 0:
        p2.enqueue(y)
        p2.enqueue(x)
        return "P2"
    else:
        return ("war", x, y)


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    piles = {"P1": Stack(), "P2": Stack()}
    piles["P1"].push(c1)
    piles["P2"].push(c2)
    hands = {"P1": p1, "P2": p2}
    for cycle in range(1000):
        ready = [name for name in ("P1", "P2") if hands[name].size() >= rules.face_down + 1]
        if len(ready) == 0:
            return "draw"
        if len(ready) == 1:
            return take(ready[0], hands, piles, rules)
        for name in ("P1", "P2"):
            for k in range(rules.face_down + 1):
                piles[name].push(hands[name].dequeue())
        diff = card_value(piles["P1"].peek()) - card_value(piles["P2"].peek())
        if diff != 0:
            return take("P1" if diff > 0 else "P2", hands, piles, rules)
    return "draw"


def take(name, hands, piles, rules):
    other = "P2" if name == "P1" else "P1"
    sequence = [name, other] if rules.collect == "winner_first" else [other, name]
    for owner in sequence:
        for k in range(piles[owner].size()):
            hands[name].enqueue(piles[owner].pop())
    return name


def play_game(max_rounds=1000, seed=None, deck=None, rules=DEFAULT_RULES):
    p1, p2 = deal(shuffle(make_deck(), seed) if deck is None else list(deck))
    log = []
    wars = 0
    rounds = 0
    ending = "draw"
    for rounds in range(1, max_rounds + 1):
        result = play_round(p1, p2, rules)
        if isinstance(result, tuple):
            wars = wars + 1
            result = resolve_war(p1, p2, result[1], result[2], rules)
        log.append((p1.size(), p2.size()))
        if result == "draw":
            break
        if p1.size() == 0 or p2.size() == 0:
            ending = "P1" if p2.size() == 0 else "P2"
            break
    return GameResult(ending, rounds, wars, 1 if wars > 0 else 0, p1.size(), p2.size(), tuple(log))
