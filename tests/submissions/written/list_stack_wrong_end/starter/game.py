"""Rounds, wars and whole games of War, played on two queues."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import card_value, deal, make_deck, shuffle
from .rules import DEFAULT_RULES, Rules
from .structures import Queue, Stack


@dataclass(frozen=True)
class GameResult:
    """What one game came to, and the numbers the handout's extensions ask for."""

    winner: str
    """"P1" or "P2" when one player holds every card, else "draw" (round limit, or both short in a war)."""

    rounds: int
    """Rounds played; a war belongs to the round that started it."""

    wars: int
    """Rounds that went to war."""

    longest_war_chain: int
    """Most war cycles inside one round: a single war is 1, a war that ties again is 2."""

    p1_cards: int
    """Cards in P1's queue at the end."""

    p2_cards: int
    """Cards in P2's queue at the end."""

    history: tuple[tuple[int, int], ...]
    """The sizes of P1's and P2's queues after every round (telemetry)."""


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if p1.is_empty() and p2.is_empty():
        return "draw"
    if p1.is_empty():
        return "P2"
    if p2.is_empty():
        return "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    if card_value(c2) > card_value(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, cycles = fight(p1, p2, c1, c2, rules)
    return winner


def collect(queue, first, second):
    """Move the first pile and then the second pile into the queue."""
    for pile in (first, second):
        while not pile.is_empty():
            queue.enqueue(pile.pop())


def fight(p1, p2, c1, c2, rules):
    """Returns the winner and how many war cycles were fought."""
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    cycles = 1
    need = rules.face_down + 1
    while True:
        if p1.size() < need and p2.size() < need:
            collect(p1, pile1, Stack())
            collect(p2, pile2, Stack())
            return "draw", cycles
        if p1.size() < need:
            if rules.collect == "winner_first":
                collect(p2, pile2, pile1)
            else:
                collect(p2, pile1, pile2)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", cycles
        if p2.size() < need:
            if rules.collect == "winner_first":
                collect(p1, pile1, pile2)
            else:
                collect(p1, pile2, pile1)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", cycles

        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        face_up1 = p1.dequeue()
        face_up2 = p2.dequeue()
        pile1.push(face_up1)
        pile2.push(face_up2)

        if card_value(face_up1) > card_value(face_up2):
            if rules.collect == "winner_first":
                collect(p1, pile1, pile2)
            else:
                collect(p1, pile2, pile1)
            return "P1", cycles
        if card_value(face_up2) > card_value(face_up1):
            if rules.collect == "winner_first":
                collect(p2, pile2, pile1)
            else:
                collect(p2, pile1, pile2)
            return "P2", cycles
        cycles += 1


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError("max_rounds must be >= 0")
    cards = shuffle(make_deck(), seed) if deck is None else list(deck)
    p1, p2 = deal(cards)
    rounds = 0
    wars = 0
    longest = 0
    history = []
    draw = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds = rounds + 1
        result = play_round(p1, p2, rules)
        if isinstance(result, tuple):
            wars = wars + 1
            winner, cycles = fight(p1, p2, result[1], result[2], rules)
            if cycles > longest:
                longest = cycles
            if winner == "draw":
                draw = True
        history.append((p1.size(), p2.size()))
        if draw:
            break
    if draw:
        winner = "draw"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
