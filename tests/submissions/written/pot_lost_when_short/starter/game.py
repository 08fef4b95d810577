"""Rounds, wars and whole games of War, played on two queues."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import _Card, deal, make_deck, shuffle
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
    if p2.is_empty():
        return "P1"
    if p1.is_empty():
        return "P2"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    if _Card(c1) > _Card(c2):
        p1.enqueue(c1)  # winner's own card goes in first
        p1.enqueue(c2)
        return "P1"
    if _Card(c2) > _Card(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def _collect(winner: Queue[str], first: Stack[str], second: Stack[str]) -> None:
    """Pop both piles (top card first) onto the back of the winner's queue, first pile first."""
    for pile in (first, second):
        while not pile.is_empty():
            winner.enqueue(pile.pop())


def _war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules) -> tuple[str, int]:
    """Fight a war to the end; returns (who won, how many cycles it took)."""
    pile1: Stack[str] = Stack()
    pile2: Stack[str] = Stack()
    pile1.push(c1)
    pile2.push(c2)
    needed = rules.face_down + 1
    cycles = 0
    while True:
        cycles += 1
        p1_short = p1.size() < needed
        p2_short = p2.size() < needed
        if p1_short and p2_short:
            # nobody can go on: everyone takes their own cards back
            while not pile1.is_empty():
                p1.enqueue(pile1.pop())
            while not pile2.is_empty():
                p2.enqueue(pile2.pop())
            return "draw", cycles
        if p1_short or p2_short:
            # the player who ran out loses the game, the other one gets everything they have left
            if p1_short:
                winner, loser, name = p2, p1, "P2"
            else:
                winner, loser, name = p1, p2, "P1"
            while not loser.is_empty():
                winner.enqueue(loser.dequeue())
            return name, cycles
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        pile1.push(p1.dequeue())  # face up
        pile2.push(p2.dequeue())
        up1 = _Card(pile1.peek())
        up2 = _Card(pile2.peek())
        if up1 == up2:
            continue  # tie again: another cycle on top of the same piles
        if up1 > up2:
            if rules.collect == "winner_first":
                _collect(p1, pile1, pile2)
            else:
                _collect(p1, pile2, pile1)
            return "P1", cycles
        if rules.collect == "winner_first":
            _collect(p2, pile2, pile1)
        else:
            _collect(p2, pile1, pile2)
        return "P2", cycles


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, _cycles = _war(p1, p2, c1, c2, rules)
    return winner


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be an int >= 0, got {max_rounds!r}")
    if deck is None:
        cards = shuffle(make_deck(), seed)
    else:
        cards = list(deck)
    p1, p2 = deal(cards)
    rounds = 0
    wars = 0
    longest = 0
    history = []
    war_draw = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        result = play_round(p1, p2, rules)
        if isinstance(result, tuple):
            wars += 1
            outcome, cycles = _war(p1, p2, result[1], result[2], rules)
            longest = max(longest, cycles)
            if outcome == "draw":
                war_draw = True
        history.append((p1.size(), p2.size()))
        if war_draw:
            break
    if war_draw:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
