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
    else if card_value(c2) > card_value(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def emptyPileInto(pile, queue):
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def collectPiles(queue, ownPile, otherPile, rules):
    if rules.collect == "loser_first":
        emptyPileInto(otherPile, queue)
        emptyPileInto(ownPile, queue)
    else:
        emptyPileInto(ownPile, queue)
        emptyPileInto(otherPile, queue)


def warCycles(p1, p2, c1, c2, rules):
    warPile1 = Stack()
    warPile2 = Stack()
    warPile1.push(c1)
    warPile2.push(c2)
    cardsNeeded = rules.face_down + 1
    cycles = 1
    while True:
        p1Short = p1.size() < cardsNeeded
        p2Short = p2.size() < cardsNeeded
        if p1Short and p2Short:
            emptyPileInto(warPile1, p1)
            emptyPileInto(warPile2, p2)
            return "draw", cycles
        if p1Short:
            collectPiles(p2, warPile2, warPile1, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", cycles
        if p2Short:
            collectPiles(p1, warPile1, warPile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", cycles
        for i in range(rules.face_down):
            warPile1.push(p1.dequeue())
            warPile2.push(p2.dequeue())
        faceUp1 = p1.dequeue()
        faceUp2 = p2.dequeue()
        warPile1.push(faceUp1)
        warPile2.push(faceUp2)
        if card_value(faceUp1) > card_value(faceUp2):
            collectPiles(p1, warPile1, warPile2, rules)
            return "P1", cycles
        if card_value(faceUp2) > card_value(faceUp1):
            collectPiles(p2, warPile2, warPile1, rules)
            return "P2", cycles
        cycles += 1


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, cycles = warCycles(p1, p2, c1, c2, rules)
    return winner


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError("max_rounds must be a non-negative integer")
    if deck is None:
        gameDeck = shuffle(make_deck(), seed)
    else:
        gameDeck = list(deck)
    p1, p2 = deal(gameDeck)
    roundCount = 0
    warCount = 0
    longestChain = 0
    sizes = []
    isDraw = False
    while not p1.is_empty() and not p2.is_empty() and roundCount < max_rounds:
        roundCount += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            warCount += 1
            warWinner, cycles = warCycles(p1, p2, outcome[1], outcome[2], rules)
            longestChain = max(longestChain, cycles)
            if warWinner == "draw":
                isDraw = True
        sizes.append((p1.size(), p2.size()))
        if isDraw:
            break
    if isDraw:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, roundCount, warCount, longestChain, p1.size(), p2.size(), tuple(sizes))
