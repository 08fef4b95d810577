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
        return "P1" if p2.is_empty() else "P2"
    c1, c2 = p1.dequeue(), p2.dequeue()
    diff = card_value(c1) - card_value(c2)
    if diff == 0:
        return ("war", c1, c2)
    if diff > 0:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    p2.enqueue(c2)
    p2.enqueue(c1)
    return "P2"


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""

    def empty_into(pile, queue):
        while not pile.is_empty():
            queue.enqueue(pile.pop())

    def win(queue, mine, theirs):
        # loser_first = opponent's pile goes in first
        if rules.collect == "winner_first":
            empty_into(theirs, queue)
            empty_into(mine, queue)
        else:
            empty_into(mine, queue)
            empty_into(theirs, queue)

    war1, war2 = Stack(), Stack()
    war1.push(c1)
    war2.push(c2)
    resolve_war.chain = 1  # play_game reads this for longest_war_chain
    while True:
        short1 = p1.size() < rules.face_down + 1
        short2 = p2.size() < rules.face_down + 1
        if short1 and short2:
            empty_into(war1, p1)
            empty_into(war2, p2)
            return "draw"
        if short1 or short2:
            if short1:
                win(p2, war2, war1)
                while not p1.is_empty():
                    p2.enqueue(p1.dequeue())
                return "P2"
            win(p1, war1, war2)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1"
        for _ in range(rules.face_down + 1):  # last one is the face up card
            war1.push(p1.dequeue())
            war2.push(p2.dequeue())
        diff = card_value(war1.peek()) - card_value(war2.peek())
        if diff > 0:
            win(p1, war1, war2)
            return "P1"
        if diff < 0:
            win(p2, war2, war1)
            return "P2"
        resolve_war.chain += 1


resolve_war.chain = 0


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"bad max_rounds: {max_rounds!r}")
    cards = list(deck) if deck is not None else shuffle(make_deck(), seed)
    p1, p2 = deal(cards)
    rounds = wars = longest = 0
    history = []
    winner = None
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        r = play_round(p1, p2, rules)
        if isinstance(r, tuple):
            wars += 1
            if resolve_war(p1, p2, r[1], r[2], rules) == "draw":
                winner = "draw"
            longest = max(longest, resolve_war.chain)
        history.append((p1.size(), p2.size()))
        if winner == "draw":
            break
    if winner is None:
        if p2.is_empty() and not p1.is_empty():
            winner = "P1"
        elif p1.is_empty() and not p2.is_empty():
            winner = "P2"
        else:
            winner = "draw"
    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
