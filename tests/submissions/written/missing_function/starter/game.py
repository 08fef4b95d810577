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
    c1, c2 = p1.dequeue(), p2.dequeue()
    if card_value(c1) == card_value(c2):
        return ("war", c1, c2)
    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    p2.enqueue(c2)
    p2.enqueue(c1)
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
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(list(deck))

    rounds = 0
    wars = 0
    longest_chain = 0
    history = []
    draw = False
    need = rules.face_down + 1

    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        result = play_round(p1, p2, rules)
        if result == "P1" or result == "P2":
            history.append((p1.size(), p2.size()))
            continue

        # ---- war (I did it here instead of a separate function, it was easier to count the chain) ----
        wars += 1
        pile1 = Stack()
        pile2 = Stack()
        pile1.push(result[1])
        pile2.push(result[2])
        chain = 1
        while True:
            if p1.size() < need or p2.size() < need:
                if p1.size() < need and p2.size() < need:
                    # nobody can finish the war -> both get their own cards back, game is a draw
                    while not pile1.is_empty():
                        p1.enqueue(pile1.pop())
                    while not pile2.is_empty():
                        p2.enqueue(pile2.pop())
                    draw = True
                    break
                if p1.size() < need:
                    winner, loser, own, other = p2, p1, pile2, pile1
                else:
                    winner, loser, own, other = p1, p2, pile1, pile2
                first, second = (own, other) if rules.collect == "winner_first" else (other, own)
                while not first.is_empty():
                    winner.enqueue(first.pop())
                while not second.is_empty():
                    winner.enqueue(second.pop())
                while not loser.is_empty():
                    winner.enqueue(loser.dequeue())
                break
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
                winner, own, other = p1, pile1, pile2
            else:
                winner, own, other = p2, pile2, pile1
            first, second = (own, other) if rules.collect == "winner_first" else (other, own)
            while not first.is_empty():
                winner.enqueue(first.pop())
            while not second.is_empty():
                winner.enqueue(second.pop())
            break
        longest_chain = max(longest_chain, chain)
        history.append((p1.size(), p2.size()))
        if draw:
            break

    if draw:
        final = "draw"
    elif p2.is_empty() and not p1.is_empty():
        final = "P1"
    elif p1.is_empty() and not p2.is_empty():
        final = "P2"
    else:
        final = "draw"
    return GameResult(final, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
