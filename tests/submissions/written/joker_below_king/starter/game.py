"""Rounds, wars and whole games of War, played on two queues."""

from __future__ import annotations

import random as _random
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


# length of the last war (how many times we had to go), play_game reads it for longest_war_chain
last_war_length = 0


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
    v1 = card_value(c1)
    v2 = card_value(c2)
    if v1 == v2:
        return ("war", c1, c2)
    if v1 > v2:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    p2.enqueue(c2)
    p2.enqueue(c1)
    return "P2"


def give_pile(pile, queue):
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    global last_war_length
    war_pile1 = Stack()
    war_pile2 = Stack()
    war_pile1.push(c1)
    war_pile2.push(c2)
    last_war_length = 0

    while True:
        last_war_length += 1
        # each player needs the face down cards + 1 face up card
        p1_can = p1.size() >= rules.face_down + 1
        p2_can = p2.size() >= rules.face_down + 1
        if not p1_can and not p2_can:
            give_pile(war_pile1, p1)
            give_pile(war_pile2, p2)
            return "draw"
        if not p1_can or not p2_can:
            if p1_can:
                winner, loser = p1, p2
                winner_pile, loser_pile = war_pile1, war_pile2
                name = "P1"
            else:
                winner, loser = p2, p1
                winner_pile, loser_pile = war_pile2, war_pile1
                name = "P2"
            if rules.collect == "winner_first":
                give_pile(winner_pile, winner)
                give_pile(loser_pile, winner)
            else:
                give_pile(loser_pile, winner)
                give_pile(winner_pile, winner)
            # loser can't keep playing -> winner gets everything
            while not loser.is_empty():
                winner.enqueue(loser.dequeue())
            return name

        for i in range(rules.face_down):
            war_pile1.push(p1.dequeue())
            war_pile2.push(p2.dequeue())
        face_up1 = p1.dequeue()
        face_up2 = p2.dequeue()
        war_pile1.push(face_up1)
        war_pile2.push(face_up2)

        if card_value(face_up1) > card_value(face_up2):
            if rules.collect == "winner_first":
                give_pile(war_pile1, p1)
                give_pile(war_pile2, p1)
            else:
                give_pile(war_pile2, p1)
                give_pile(war_pile1, p1)
            return "P1"
        elif card_value(face_up2) > card_value(face_up1):
            if rules.collect == "winner_first":
                give_pile(war_pile2, p2)
                give_pile(war_pile1, p2)
            else:
                give_pile(war_pile1, p2)
                give_pile(war_pile2, p2)
            return "P2"
        # tie -> go again with the same piles


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 0:
        raise ValueError("max_rounds must be an int >= 0")
    if deck is not None:
        the_deck = list(deck)
    else:
        the_deck = shuffle(make_deck(), seed)
    p1, p2 = deal(the_deck)

    round_num = 0
    num_wars = 0
    longest = 0
    sizes = []
    result = None
    while not p1.is_empty() and not p2.is_empty() and round_num < max_rounds:
        round_num += 1
        outcome = play_round(p1, p2, rules)
        if outcome[0] == "war":
            num_wars += 1
            if resolve_war(p1, p2, outcome[1], outcome[2], rules) == "draw":
                result = "draw"
            longest = max(longest, last_war_length)
        sizes.append((p1.size(), p2.size()))
        if result == "draw":
            break

    if result is None:
        if p1.is_empty() and not p2.is_empty():
            result = "P2"
        elif p2.is_empty() and not p1.is_empty():
            result = "P1"
        else:
            result = "draw"
    return GameResult(result, round_num, num_wars, longest, p1.size(), p2.size(), tuple(sizes))
