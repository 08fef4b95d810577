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
    status = ("P1" if not p1.is_empty() else "") + ("P2" if not p2.is_empty() else "")
    if status != "P1P2":
        return {"": "draw", "P1": "P1", "P2": "P2"}[status]
    drawn = [p1.dequeue(), p2.dequeue()]
    values = [card_value(card) for card in drawn]
    if values[0] == values[1]:
        return ("war", drawn[0], drawn[1])
    best = values.index(max(values))
    queue = (p1, p2)[best]
    queue.enqueue(drawn[best])
    queue.enqueue(drawn[1 - best])
    return ("P1", "P2")[best]


def resolve_war(p1, p2, c1, c2, rules=DEFAULT_RULES):
    queues = (p1, p2)
    stacks = (Stack(), Stack())
    for stack, card in zip(stacks, (c1, c2)):
        stack.push(card)
    while True:
        able = [queue.size() > rules.face_down for queue in queues]
        if able == [False, False]:
            return "draw"
        if able != [True, True]:
            return _finish(able.index(True), queues, stacks, rules)
        for queue, stack in zip(queues, stacks):
            for _ in range(rules.face_down):
                stack.push(queue.dequeue())
            stack.push(queue.dequeue())
        faces = [card_value(stack.peek()) for stack in stacks]
        if faces[0] != faces[1]:
            return _finish(faces.index(max(faces)), queues, stacks, rules)


def _finish(best, queues, stacks, rules):
    order = (best, 1 - best) if rules.collect == "winner_first" else (1 - best, best)
    for index in order:
        while stacks[index].size():
            queues[best].enqueue(stacks[index].pop())
    return ("P1", "P2")[best]


def play_game(max_rounds=1000, seed=None, deck=None, rules=DEFAULT_RULES):
    p1, p2 = deal(deck if deck is not None else shuffle(make_deck(), seed))
    played = 0
    wars = 0
    sizes = []
    outcome = "draw"
    while played < max_rounds:
        if p1.is_empty() or p2.is_empty():
            break
        played += 1
        step = play_round(p1, p2, rules)
        if isinstance(step, tuple):
            wars += 1
            step = resolve_war(p1, p2, step[1], step[2], rules)
        sizes.append((p1.size(), p2.size()))
        if step == "draw":
            break
    if p1.is_empty() != p2.is_empty():
        outcome = "P2" if p1.is_empty() else "P1"
    return GameResult(outcome, played, wars, int(wars > 0), p1.size(), p2.size(), tuple(sizes))
