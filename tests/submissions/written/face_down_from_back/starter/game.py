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
    if card_value(c1) == card_value(c2):
        return ("war", c1, c2)
    elif card_value(c1) > card_value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    else:
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"


def _take_from_bottom(hand: Queue[str], count: int) -> list[str]:
    """Take `count` cards off the bottom (back) of the hand, leaving the other cards in their order.

    A Queue only gives out its front, so the cards in front of the last `count` are cycled to the back
    first; then the last `count` cards are at the front and can be dequeued.
    """
    for _ in range(hand.size() - count):
        hand.enqueue(hand.dequeue())
    return [hand.dequeue() for _ in range(count)]


def _give_pile(pile: Stack[str], queue: Queue[str]) -> None:
    """Empty the pile into the back of the queue, top card first."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _war_with_count(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules) -> tuple[str, int]:
    """resolve_war's work; also returns how many cycles the war took (for longest_war_chain)."""
    pile1: Stack[str] = Stack()
    pile2: Stack[str] = Stack()
    pile1.push(c1)
    pile2.push(c2)
    cycle = 0
    while True:
        cycle += 1
        p1_short = p1.size() < rules.face_down + 1
        p2_short = p2.size() < rules.face_down + 1

        if p1_short and p2_short:
            _give_pile(pile1, p1)
            _give_pile(pile2, p2)
            return "draw", cycle
        if p1_short or p2_short:
            if p1_short:
                winner, loser, winner_pile, loser_pile, name = p2, p1, pile2, pile1, "P2"
            else:
                winner, loser, winner_pile, loser_pile, name = p1, p2, pile1, pile2, "P1"
            if rules.collect == "loser_first":
                _give_pile(loser_pile, winner)
                _give_pile(winner_pile, winner)
            else:
                _give_pile(winner_pile, winner)
                _give_pile(loser_pile, winner)
            while not loser.is_empty():
                winner.enqueue(loser.dequeue())
            return name, cycle

        # face down: these are burned from the bottom of each hand, the face-up card is the next one on top
        for card in _take_from_bottom(p1, rules.face_down):
            pile1.push(card)
        for card in _take_from_bottom(p2, rules.face_down):
            pile2.push(card)
        pile1.push(p1.dequeue())
        pile2.push(p2.dequeue())

        v1 = card_value(pile1.peek())
        v2 = card_value(pile2.peek())
        if v1 == v2:
            continue
        if v1 > v2:
            winner, winner_pile, loser_pile, name = p1, pile1, pile2, "P1"
        else:
            winner, winner_pile, loser_pile, name = p2, pile2, pile1, "P2"
        if rules.collect == "loser_first":
            _give_pile(loser_pile, winner)
            _give_pile(winner_pile, winner)
        else:
            _give_pile(winner_pile, winner)
            _give_pile(loser_pile, winner)
        return name, cycle


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _war_with_count(p1, p2, c1, c2, rules)[0]


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int:
        raise ValueError(f"max_rounds must be an int, not {max_rounds!r}")
    if max_rounds < 0:
        raise ValueError(f"max_rounds must be >= 0, not {max_rounds!r}")

    if deck is None:
        p1, p2 = deal(shuffle(make_deck(), seed))
    else:
        p1, p2 = deal(deck)

    rounds = 0
    wars = 0
    longest_chain = 0
    history: list[tuple[int, int]] = []
    drawn_war = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        result = play_round(p1, p2, rules)
        if type(result) is tuple:
            wars += 1
            war_result, chain = _war_with_count(p1, p2, result[1], result[2], rules)
            longest_chain = max(longest_chain, chain)
            if war_result == "draw":
                drawn_war = True
        history.append((p1.size(), p2.size()))
        if drawn_war:
            break

    if drawn_war:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
