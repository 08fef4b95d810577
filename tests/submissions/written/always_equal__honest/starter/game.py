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
    # someone has no cards left
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        elif p1.is_empty():
            return "P2"
        else:
            return "P1"

    c1 = p1.dequeue()
    c2 = p2.dequeue()
    v1 = card_value(c1)
    v2 = card_value(c2)

    if v1 == v2:
        return ("war", c1, c2)
    elif v1 > v2:
        p1.enqueue(c1)  # own card first
        p1.enqueue(c2)
        return "P1"
    else:
        p2.enqueue(c2)  # own card first
        p2.enqueue(c1)
        return "P2"


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    while True:
        # TODO: check that both players have enough cards first
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        if card_value(up1) > card_value(up2):
            _collect(p1, pile1, pile2, rules)
            return "P1"
        if card_value(up2) > card_value(up1):
            _collect(p2, pile2, pile1, rules)
            return "P2"
        # same again -> another cycle


def _collect(queue, own, other, rules):
    """The winner takes both piles, its own first (or the other one first with loser_first)."""
    first, second = (other, own) if rules.collect == "loser_first" else (own, other)
    while not first.is_empty():
        queue.enqueue(first.pop())
    while not second.is_empty():
        queue.enqueue(second.pop())


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    raise NotImplementedError(
        "play_game: shuffle make_deck() with seed (or take deck as given), deal, play rounds and wars until "
        "a queue is empty, a war is a draw or max_rounds rounds were played, and return a GameResult"
    )
