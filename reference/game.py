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
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        return "P2" if p1.is_empty() else "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    v1, v2 = card_value(c1), card_value(c2)
    if v1 > v2:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    if v2 > v1:
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _fight_war(p1, p2, c1, c2, rules)[0]


def _fight_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules) -> tuple[str, int]:
    """Fight a war and also say its chain length: 1, plus 1 for every face-up tie."""
    pile1: Stack[str] = Stack()
    pile2: Stack[str] = Stack()
    pile1.push(c1)
    pile2.push(c2)
    need = rules.face_down + 1
    chain = 1
    while True:
        p1_short, p2_short = p1.size() < need, p2.size() < need
        if p1_short and p2_short:
            _return_pile(pile1, p1)
            _return_pile(pile2, p2)
            return "draw", chain
        if p1_short:
            _collect(p2, own=pile2, other=pile1, rules=rules)
            _take_rest(p2, p1)
            return "P2", chain
        if p2_short:
            _collect(p1, own=pile1, other=pile2, rules=rules)
            _take_rest(p1, p2)
            return "P1", chain
        for _ in range(need):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        v1, v2 = card_value(pile1.peek()), card_value(pile2.peek())
        if v1 > v2:
            _collect(p1, own=pile1, other=pile2, rules=rules)
            return "P1", chain
        if v2 > v1:
            _collect(p2, own=pile2, other=pile1, rules=rules)
            return "P2", chain
        chain += 1


def _collect(winner: Queue[str], *, own: Stack[str], other: Stack[str], rules: Rules) -> None:
    """Empty both war piles onto the back of the winner's queue in the order the rules say."""
    first, second = (own, other) if rules.collect == "winner_first" else (other, own)
    _return_pile(first, winner)
    _return_pile(second, winner)


def _return_pile(pile: Stack[str], queue: Queue[str]) -> None:
    """Pop the pile until it is empty, enqueuing each card: its top card goes in first."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _take_rest(winner: Queue[str], loser: Queue[str]) -> None:
    """Move the short player's remaining cards, front first, to the back of the winner's queue."""
    while not loser.is_empty():
        winner.enqueue(loser.dequeue())


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
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            winner, chain = _fight_war(p1, p2, outcome[1], outcome[2], rules)
            longest = max(longest, chain)
            drawn = winner == "draw"
        history.append((p1.size(), p2.size()))
        if drawn:
            break
    if not drawn and p2.is_empty() and not p1.is_empty():
        result = "P1"
    elif not drawn and p1.is_empty() and not p2.is_empty():
        result = "P2"
    else:
        result = "draw"
    return GameResult(result, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
