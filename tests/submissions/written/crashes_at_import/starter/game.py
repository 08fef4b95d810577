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
    v1 = card_value(c1)
    v2 = card_value(c2)
    if v1 > v2:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    elif v2 > v1:
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def _empty_pile(pile: Stack[str], q: Queue[str]) -> None:
    while not pile.is_empty():
        q.enqueue(pile.pop())


def _war(p1, p2, c1, c2, rules):
    """The war itself; returns (winner, chain length)."""
    pile1: Stack[str] = Stack()
    pile2: Stack[str] = Stack()
    pile1.push(c1)
    pile2.push(c2)
    chain = 1
    need = rules.face_down + 1
    while True:
        short1, short2 = p1.size() < need, p2.size() < need
        if short1 and short2:
            _empty_pile(pile1, p1)
            _empty_pile(pile2, p2)
            return "draw", chain
        if short1 or short2:
            winner, loser, own, other, name = (p2, p1, pile2, pile1, "P2") if short1 else (p1, p2, pile1, pile2, "P1")
            _give(winner, own, other, rules)
            while not loser.is_empty():
                winner.enqueue(loser.dequeue())
            return name, chain
        # 3 down (or whatever the rules say) + 1 up
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        if card_value(up1) == card_value(up2):
            chain += 1
            continue
        if card_value(up1) > card_value(up2):
            winner, own, other, name = p1, pile1, pile2, "P1"
        else:
            winner, own, other, name = p2, pile2, pile1, "P2"
        _give(winner, own, other, rules)
        return name, chain


def _give(winner, own, other, rules):
    """Winner takes both piles (own first unless rules say loser_first)."""
    if rules.collect == "winner_first":
        _empty_pile(own, winner)
        _empty_pile(other, winner)
    else:
        _empty_pile(other, winner)
        _empty_pile(own, winner)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _war(p1, p2, c1, c2, rules)[0]


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(list(deck))
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            who, chain = _war(p1, p2, outcome[1], outcome[2], rules)
            longest = max(longest, chain)
            drawn = who == "draw"
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
