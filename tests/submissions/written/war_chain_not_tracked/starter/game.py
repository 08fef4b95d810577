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
        for card in (c1, c2):
            p1.enqueue(card)
        return "P1"
    if card_value(c2) > card_value(c1):
        for card in (c2, c1):
            p2.enqueue(card)
        return "P2"
    return ("war", c1, c2)


def _pour(pile: Stack[str], queue: Queue[str]) -> None:
    """Empty a war pile into the back of a queue, top card first."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    piles = {"P1": Stack(), "P2": Stack()}
    queues = {"P1": p1, "P2": p2}
    piles["P1"].push(c1)
    piles["P2"].push(c2)
    need = rules.face_down + 1
    while True:
        short = [name for name in ("P1", "P2") if queues[name].size() < need]
        if len(short) == 2:
            _pour(piles["P1"], p1)
            _pour(piles["P2"], p2)
            return "draw"
        if len(short) == 1:
            loser = short[0]
            winner = "P2" if loser == "P1" else "P1"
            _win(queues[winner], piles[winner], piles[loser], rules)
            while not queues[loser].is_empty():
                queues[winner].enqueue(queues[loser].dequeue())
            return winner
        for name in ("P1", "P2"):
            for _ in range(need):  # face down cards, and the last one is face up
                piles[name].push(queues[name].dequeue())
        v1 = card_value(piles["P1"].peek())
        v2 = card_value(piles["P2"].peek())
        if v1 != v2:
            winner, loser = ("P1", "P2") if v1 > v2 else ("P2", "P1")
            _win(queues[winner], piles[winner], piles[loser], rules)
            return winner


def _win(queue, own_pile, other_pile, rules):
    if rules.collect == "loser_first":
        _pour(other_pile, queue)
        _pour(own_pile, queue)
    else:
        _pour(own_pile, queue)
        _pour(other_pile, queue)


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
    rounds = wars = 0
    longest_chain = 0
    history = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            longest_chain = 1  # there was a war
            drawn = resolve_war(p1, p2, outcome[1], outcome[2], rules) == "draw"
        history.append((p1.size(), p2.size()))
        if drawn:
            break
    if drawn:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
