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
    elif p1.is_empty():
        return "P2"
    elif p2.is_empty():
        return "P1"

    c1 = p1.dequeue()
    c2 = p2.dequeue()

    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)  # winner's card first
        p1.enqueue(c2)
        return "P1"
    elif card_value(c2) > card_value(c1):
        p2.enqueue(c2)  # winner's card first
        p2.enqueue(c1)
        return "P2"
    else:
        return ("war", c1, c2)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, chain = war_and_chain(p1, p2, c1, c2, rules)
    return winner


def war_and_chain(p1, p2, c1, c2, rules):
    """Same as resolve_war but also gives back the chain length."""
    p1_pile = Stack()
    p2_pile = Stack()
    p1_pile.push(c1)
    p2_pile.push(c2)
    chain = 1

    while True:
        p1_enough = p1.size() >= rules.face_down + 1
        p2_enough = p2.size() >= rules.face_down + 1

        if not p1_enough and not p2_enough:
            while not p1_pile.is_empty():
                p1.enqueue(p1_pile.pop())
            while not p2_pile.is_empty():
                p2.enqueue(p2_pile.pop())
            return "draw", chain

        if not p1_enough:
            collect(p2, p2_pile, p1_pile, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", chain

        if not p2_enough:
            collect(p1, p1_pile, p2_pile, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", chain

        i = 0
        while i < rules.face_down:
            p1_pile.push(p1.dequeue())
            p2_pile.push(p2.dequeue())
            i += 1

        p1_up = p1.dequeue()
        p2_up = p2.dequeue()
        p1_pile.push(p1_up)
        p2_pile.push(p2_up)

        if card_value(p1_up) > card_value(p2_up):
            collect(p1, p1_pile, p2_pile, rules)
            return "P1", chain
        elif card_value(p2_up) > card_value(p1_up):
            collect(p2, p2_pile, p1_pile, rules)
            return "P2", chain
        else:
            chain += 1


def collect(winner, winner_pile, loser_pile, rules):
    if rules.collect == "winner_first":
        order = [winner_pile, loser_pile]
    else:
        order = [loser_pile, winner_pile]
    for pile in order:
        while not pile.is_empty():
            winner.enqueue(pile.pop())


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError("max_rounds must be a whole number >= 0")

    if deck is None:
        cards = shuffle(make_deck(), seed)
    else:
        cards = list(deck)
    p1, p2 = deal(cards)

    rounds = 0
    wars = 0
    longest = 0
    history = []
    game_drawn = False

    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            winner, chain = war_and_chain(p1, p2, outcome[1], outcome[2], rules)
            if chain > longest:
                longest = chain
            if winner == "draw":
                game_drawn = True
        history.append((p1.size(), p2.size()))
        if game_drawn:
            break

    if game_drawn:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"

    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
