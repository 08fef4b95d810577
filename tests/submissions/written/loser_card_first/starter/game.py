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
    # somebody is out of cards -> other one wins
    if p1.is_empty() and p2.is_empty():
        return "draw"
    if p1.is_empty():
        return "P2"
    if p2.is_empty():
        return "P1"

    c1 = p1.dequeue()
    c2 = p2.dequeue()

    if card_value(c1) > card_value(c2):
        # both cards go to the back of the winner's queue
        p1.enqueue(c2)
        p1.enqueue(c1)
        return "P1"
    if card_value(c1) < card_value(c2):
        p2.enqueue(c1)
        p2.enqueue(c2)
        return "P2"

    # same value = war, caller handles it
    return ("war", c1, c2)


def moveStackToQueue(stack, queue):
    while not stack.is_empty():
        queue.enqueue(stack.pop())


def takePiles(queue, ownPile, otherPile, rules):
    if rules.collect == "winner_first":
        moveStackToQueue(ownPile, queue)
        moveStackToQueue(otherPile, queue)
    else:
        moveStackToQueue(otherPile, queue)
        moveStackToQueue(ownPile, queue)


def warWithCount(p1, p2, c1, c2, rules):
    """resolve_war, but also returns how many war cycles it took (for longest_war_chain)"""
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    count = 0
    needed = rules.face_down + 1

    while True:
        count += 1
        p1HasEnough = len(p1) >= needed
        p2HasEnough = len(p2) >= needed

        if not p1HasEnough and not p2HasEnough:
            moveStackToQueue(pile1, p1)
            moveStackToQueue(pile2, p2)
            return "draw", count
        elif not p1HasEnough:
            takePiles(p2, pile2, pile1, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", count
        elif not p2HasEnough:
            takePiles(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", count

        for i in range(rules.face_down):
            pile1.push(p1.dequeue())
        for i in range(rules.face_down):
            pile2.push(p2.dequeue())
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)

        if card_value(up1) > card_value(up2):
            takePiles(p1, pile1, pile2, rules)
            return "P1", count
        elif card_value(up1) < card_value(up2):
            takePiles(p2, pile2, pile1, rules)
            return "P2", count
        # else tie again, loop


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, count = warWithCount(p1, p2, c1, c2, rules)
    return winner


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) != int or max_rounds < 0:
        raise ValueError("max_rounds has to be an int >= 0")
    if deck == None:
        deck = shuffle(make_deck(), seed)
    else:
        deck = list(deck)
    p1, p2 = deal(deck)

    rounds = 0
    wars = 0
    longestChain = 0
    history = []
    draw = False
    while (not p1.is_empty()) and (not p2.is_empty()) and rounds < max_rounds:
        rounds += 1
        res = play_round(p1, p2, rules)
        if type(res) == tuple:
            wars += 1
            winner, count = warWithCount(p1, p2, res[1], res[2], rules)
            if count > longestChain:
                longestChain = count
            if winner == "draw":
                draw = True
        history.append((len(p1), len(p2)))
        if draw:
            break

    if draw:
        winner = "draw"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longestChain, len(p1), len(p2), tuple(history))
