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
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        return "P1" if p2.is_empty() else "P2"
    left, right = p1.dequeue(), p2.dequeue()
    if card_value(left) == card_value(right):
        return "war", left, right
    p1_wins = card_value(left) > card_value(right)
    winner = p1 if p1_wins else p2
    for card in ((left, right) if p1_wins else (right, left)):
        winner.enqueue(card)
    return "P1" if p1_wins else "P2"


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    own_pile = Stack()
    their_pile = Stack()
    own_pile.push(c1)
    their_pile.push(c2)
    cycles = 0
    while cycles < 10000:
        cycles += 1
        if len(p1) <= rules.face_down or len(p2) <= rules.face_down:
            if len(p1) <= rules.face_down and len(p2) <= rules.face_down:
                return "draw"
            name = "P2" if len(p1) <= rules.face_down else "P1"
            return gather(name, p1, p2, own_pile, their_pile, rules)
        cards_down = rules.face_down
        while cards_down:
            own_pile.push(p1.dequeue())
            their_pile.push(p2.dequeue())
            cards_down -= 1
        own_pile.push(p1.dequeue())
        their_pile.push(p2.dequeue())
        a, b = card_value(own_pile.peek()), card_value(their_pile.peek())
        if a != b:
            return gather("P1" if a > b else "P2", p1, p2, own_pile, their_pile, rules)
    return "draw"


def gather(name, p1, p2, own_pile, their_pile, rules):
    hand = p1 if name == "P1" else p2
    winning, losing = (own_pile, their_pile) if name == "P1" else (their_pile, own_pile)
    if rules.collect == "loser_first":
        winning, losing = losing, winning
    while not winning.is_empty():
        hand.enqueue(winning.pop())
    while not losing.is_empty():
        hand.enqueue(losing.pop())
    return name


def play_game(max_rounds=1000, seed=None, deck=None, rules=DEFAULT_RULES):
    hand1, hand2 = deal(list(deck) if deck else shuffle(make_deck(), seed))
    stats = {"rounds": 0, "wars": 0}
    snapshots = []
    final = "draw"
    while stats["rounds"] < max_rounds and hand1.size() and hand2.size():
        stats["rounds"] += 1
        answer = play_round(hand1, hand2, rules)
        if answer[0] == "war":
            stats["wars"] += 1
            answer = resolve_war(hand1, hand2, answer[1], answer[2], rules)
        snapshots.append((hand1.size(), hand2.size()))
        if answer == "draw":
            break
    if not hand1.size() and hand2.size():
        final = "P2"
    if not hand2.size() and hand1.size():
        final = "P1"
    return GameResult(final, stats["rounds"], stats["wars"], 1 if stats["wars"] else 0,
                      hand1.size(), hand2.size(), tuple(snapshots))
