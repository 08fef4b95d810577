from __future__ import annotations

from dataclasses import dataclass, field

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


def compare(left: str, right: str) -> int:
    return (card_value(left) > card_value(right)) - (card_value(left) < card_value(right))


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES):
    empty1, empty2 = p1.is_empty(), p2.is_empty()
    if empty1 or empty2:
        return "draw" if empty1 and empty2 else ("P2" if empty1 else "P1")
    mine, theirs = p1.dequeue(), p2.dequeue()
    order = compare(mine, theirs)
    if order == 0:
        return ("war", mine, theirs)
    winner = p1 if order > 0 else p2
    winner.enqueue(mine if order > 0 else theirs)
    winner.enqueue(theirs if order > 0 else mine)
    return "P1" if order > 0 else "P2"


def give(queue: Queue[str], piles: list[Stack[str]]) -> None:
    for pile in piles:
        while len(pile):
            queue.enqueue(pile.pop())


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    stacks = (Stack(), Stack())
    stacks[0].push(c1)
    stacks[1].push(c2)
    need = rules.face_down + 1
    while True:
        enough = (len(p1) >= need, len(p2) >= need)
        if not any(enough):
            return "draw"
        if enough != (True, True):
            side = 0 if enough[0] else 1
            winner_queue = p1 if side == 0 else p2
            order = [stacks[side], stacks[1 - side]]
            if rules.collect != "winner_first":
                order.reverse()
            give(winner_queue, order)
            return "P1" if side == 0 else "P2"
        for _ in range(rules.face_down):
            stacks[0].push(p1.dequeue())
            stacks[1].push(p2.dequeue())
        stacks[0].push(p1.dequeue())
        stacks[1].push(p2.dequeue())
        order_value = compare(stacks[0].peek(), stacks[1].peek())
        if order_value != 0:
            side = 0 if order_value > 0 else 1
            piles = [stacks[side], stacks[1 - side]]
            if rules.collect == "loser_first":
                piles = piles[::-1]
            give(p1 if side == 0 else p2, piles)
            return "P1" if side == 0 else "P2"


def play_game(max_rounds: int = 1000, seed=None, deck=None, rules: Rules = DEFAULT_RULES) -> GameResult:
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(list(deck))
    count = 0
    war_count = 0
    trace: list[tuple[int, int]] = []
    result = None
    for count in range(1, max_rounds + 1):
        step = play_round(p1, p2, rules)
        if step[0] == "war":
            war_count += 1
            step = resolve_war(p1, p2, step[1], step[2], rules)
        trace.append((p1.size(), p2.size()))
        if step == "draw" or p1.is_empty() or p2.is_empty():
            result = step
            break
    if result is None or result == "draw":
        result = "draw" if p1.size() and p2.size() or result == "draw" else ("P1" if p1.size() else "P2")
    else:
        result = "P1" if p2.is_empty() else "P2"
    return GameResult(result, count, war_count, 1 if war_count else 0, p1.size(), p2.size(), tuple(trace))
