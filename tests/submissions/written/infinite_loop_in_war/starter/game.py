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


# how many war cycles the last war took (1 = no tie on the face up cards), for longest_war_chain
war_cycles = 0


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


def _move_all(pile, queue):
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _take_piles(queue, own, other, rules):
    if rules.collect == "winner_first":
        _move_all(own, queue)
        _move_all(other, queue)
    else:
        _move_all(other, queue)
        _move_all(own, queue)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    global war_cycles
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    need = rules.face_down + 1
    war_cycles = 1

    while True:
        # step 1: can both players keep going?
        if p1.size() < need and p2.size() < need:
            _move_all(pile1, p1)
            _move_all(pile2, p2)
            return "draw"
        if p1.size() < need:
            _take_piles(p2, pile2, pile1, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2"
        if p2.size() < need:
            _take_piles(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1"

        # step 2 + 3: face down cards, then the face up one
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        pile1.push(p1.dequeue())
        pile2.push(p2.dequeue())

        # step 4: compare the face up cards (top of each pile)
        while card_value(pile1.peek()) == card_value(pile2.peek()):
            # equal again -> war again with the same piles
            war_cycles += 1
            continue  # back to step 1

        if card_value(pile1.peek()) > card_value(pile2.peek()):
            _take_piles(p1, pile1, pile2, rules)
            return "P1"
        _take_piles(p2, pile2, pile1, rules)
        return "P2"


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    cards = shuffle(make_deck(), seed) if deck is None else list(deck)
    p1, p2 = deal(cards)
    rounds = 0
    wars = 0
    longest = 0
    history = []
    over = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            winner = resolve_war(p1, p2, outcome[1], outcome[2], rules)
            longest = max(longest, war_cycles)
            over = winner == "draw"
        history.append((p1.size(), p2.size()))
        if over:
            break
    if over:
        result = "draw"
    elif p2.is_empty() and not p1.is_empty():
        result = "P1"
    elif p1.is_empty() and not p2.is_empty():
        result = "P2"
    else:
        result = "draw"
    return GameResult(result, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
