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
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    if card_value(c1) < card_value(c2):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def _to_queue(pile, queue):
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _take(queue, own, other, rules):
    """Winner collects: own pile first (handout), or the opponent's first with loser_first."""
    if rules.collect == "loser_first":
        _to_queue(other, queue)
        _to_queue(own, queue)
    else:
        _to_queue(own, queue)
        _to_queue(other, queue)


def _war(p1, p2, c1, c2, rules):
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    length = 1
    while True:
        # 1. availability check
        p1_short = p1.size() < rules.face_down + 1
        p2_short = p2.size() < rules.face_down + 1
        if p1_short and p2_short:
            _to_queue(pile1, p1)
            _to_queue(pile2, p2)
            return "draw", length
        if p1_short:
            # P1 can't continue -> P2 wins the war piles
            _take(p2, pile2, pile1, rules)
            return "P2", length
        if p2_short:
            _take(p1, pile1, pile2, rules)
            return "P1", length
        # 2. face down
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        # 3. face up
        up1, up2 = p1.dequeue(), p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        # 4. compare
        if card_value(up1) > card_value(up2):
            _take(p1, pile1, pile2, rules)
            return "P1", length
        if card_value(up1) < card_value(up2):
            _take(p2, pile2, pile1, rules)
            return "P2", length
        length += 1


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
    history = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        result = play_round(p1, p2, rules)
        if isinstance(result, tuple):
            wars += 1
            winner, length = _war(p1, p2, result[1], result[2], rules)
            longest = max(longest, length)
            drawn = winner == "draw"
        history.append((p1.size(), p2.size()))
        if drawn:
            break
    if drawn:
        final = "draw"
    elif p1.is_empty() and not p2.is_empty():
        final = "P2"
    elif p2.is_empty() and not p1.is_empty():
        final = "P1"
    else:
        final = "draw"
    return GameResult(final, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
