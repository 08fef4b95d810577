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


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    if not len(p1):
        return "P2" if len(p2) else "draw"
    if not len(p2):
        return "P1"
    card1 = p1.dequeue()
    card2 = p2.dequeue()
    v1, v2 = card_value(card1), card_value(card2)
    if v1 == v2:
        return ("war", card1, card2)
    if v1 > v2:
        for card in (card1, card2):
            p1.enqueue(card)
        return "P1"
    for card in (card2, card1):
        p2.enqueue(card)
    return "P2"


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    war1: Stack[str] = Stack()
    war2: Stack[str] = Stack()
    war1.push(c1)
    war2.push(c2)
    return _cycle(p1, p2, war1, war2, rules)


def _cycle(p1, p2, war1, war2, rules):
    # one more cycle of the war; recursion depth is bounded by the deck size
    can1 = p1.size() > rules.face_down
    can2 = p2.size() > rules.face_down
    if not can1 and not can2:
        return "draw"
    if not can1 or not can2:
        return _win("P1" if can1 else "P2", p1, p2, war1, war2, rules)
    count = 0
    while count < rules.face_down:
        war1.push(p1.dequeue())
        war2.push(p2.dequeue())
        count += 1
    war1.push(p1.dequeue())
    war2.push(p2.dequeue())
    top1, top2 = card_value(war1.peek()), card_value(war2.peek())
    if top1 == top2:
        return _cycle(p1, p2, war1, war2, rules)
    return _win("P1" if top1 > top2 else "P2", p1, p2, war1, war2, rules)


def _win(who, p1, p2, war1, war2, rules):
    target = p1 if who == "P1" else p2
    mine, yours = (war1, war2) if who == "P1" else (war2, war1)
    piles = [mine, yours] if rules.collect == "winner_first" else [yours, mine]
    for pile in piles:
        while not pile.is_empty():
            target.enqueue(pile.pop())
    return who


def play_game(max_rounds: int = 1000, seed: int | None = None, deck: list[str] | None = None,
              rules: Rules = DEFAULT_RULES) -> GameResult:
    source = shuffle(make_deck(), seed) if deck is None else deck
    p1, p2 = deal(source)
    rounds, wars = 0, 0
    history = []
    winner = None
    while winner is None:
        if rounds == max_rounds:
            winner = "draw"
            break
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if type(outcome) is tuple:
            wars += 1
            outcome = resolve_war(p1, p2, outcome[1], outcome[2], rules)
        history.append((p1.size(), p2.size()))
        if outcome == "draw":
            winner = "draw"
        elif p1.is_empty():
            winner = "P2"
        elif p2.is_empty():
            winner = "P1"
    return GameResult(winner, rounds, wars, min(wars, 1), p1.size(), p2.size(), tuple(history))
