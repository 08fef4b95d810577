"""Rounds, wars and games."""

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
    if p1.is_empty() and p2.is_empty():
        return "draw"
    if p1.is_empty():
        return "P2"
    if p2.is_empty():
        return "P1"
    a = p1.dequeue()
    b = p2.dequeue()
    if card_value(a) > card_value(b):
        p1.enqueue(a)
        p1.enqueue(b)
        return "P1"
    if card_value(b) > card_value(a):
        p2.enqueue(b)
        p2.enqueue(a)
        return "P2"
    return ("war", a, b)


def _collect(queue, own, other, rules):
    first, second = (own, other) if rules.collect == "winner_first" else (other, own)
    while not first.is_empty():
        queue.enqueue(first.pop())
    while not second.is_empty():
        queue.enqueue(second.pop())


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    pile1, pile2 = Stack(), Stack()
    pile1.push(c1)
    pile2.push(c2)
    chain = 0
    while True:
        chain += 1
        short1 = p1.size() < rules.face_down + 1
        short2 = p2.size() < rules.face_down + 1
        if short1 and short2:
            return "draw"
        if short1:
            _collect(p2, pile2, pile1, rules)
            return "P2"
        if short2:
            _collect(p1, pile1, pile2, rules)
            return "P1"
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        up1, up2 = p1.dequeue(), p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        if card_value(up1) > card_value(up2):
            _collect(p1, pile1, pile2, rules)
            return "P1"
        if card_value(up2) > card_value(up1):
            _collect(p2, pile2, pile1, rules)
            return "P2"


def play_game(max_rounds=1000, seed=None, deck=None, rules=DEFAULT_RULES):
    cards = list(deck) if deck is not None else shuffle(make_deck(), seed)
    p1, p2 = deal(cards)
    rounds = wars = longest = 0
    history = []
    winner = "draw"
    while rounds < max_rounds and not p1.is_empty() and not p2.is_empty():
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            longest = max(longest, 1)
            outcome = resolve_war(p1, p2, outcome[1], outcome[2], rules)
            if outcome == "draw":
                history.append((len(p1), len(p2)))
                break
        history.append((len(p1), len(p2)))
    if p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    return GameResult(winner, rounds, wars, longest, len(p1), len(p2), tuple(history))
