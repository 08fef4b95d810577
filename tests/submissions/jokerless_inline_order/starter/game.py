"""Rounds, wars and whole games of War, played on two queues."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import RANKS, deal, make_deck, shuffle
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
    if RANKS.index(c1) > RANKS.index(c2):
        # winner's own card first, then the loser's
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    elif RANKS.index(c2) > RANKS.index(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    else:
        return ("war", c1, c2)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, _cycles = _war(p1, p2, c1, c2, rules)
    return winner


def _war(p1, p2, c1, c2, rules):
    """Does the actual war. Returns (winner, number of war cycles) so play_game can track war chains."""
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    cards_needed = rules.face_down + 1  # face down cards + the face up one

    cycles = 1
    while True:
        # 1. availability check
        p1_ok = p1.size() >= cards_needed
        p2_ok = p2.size() >= cards_needed
        if not p1_ok and not p2_ok:
            # nobody can go on: everyone takes their own pile back
            _pile_into_queue(pile1, p1)
            _pile_into_queue(pile2, p2)
            return "draw", cycles
        if not p1_ok:
            _collect(p2, pile2, pile1, rules)
            # P1 is out of the game, P2 gets the rest of his cards too
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", cycles
        if not p2_ok:
            _collect(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", cycles

        # 2. face down cards
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        # 3. face up cards
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)

        # 4. compare
        if RANKS.index(up1) > RANKS.index(up2):
            _collect(p1, pile1, pile2, rules)
            return "P1", cycles
        if RANKS.index(up2) > RANKS.index(up1):
            _collect(p2, pile2, pile1, rules)
            return "P2", cycles
        cycles += 1  # tie again -> another cycle on the same piles


def _collect(winner_queue, own_pile, other_pile, rules):
    """Winner takes the piles, own pile first unless the rules say loser_first."""
    if rules.collect == "loser_first":
        _pile_into_queue(other_pile, winner_queue)
        _pile_into_queue(own_pile, winner_queue)
    else:
        _pile_into_queue(own_pile, winner_queue)
        _pile_into_queue(other_pile, winner_queue)


def _pile_into_queue(pile, queue):
    """Pop everything off the pile onto the back of the queue."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


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
        cards = shuffle(make_deck(), seed)
    else:
        cards = list(deck)
    p1, p2 = deal(cards)

    rounds = 0
    wars = 0
    longest_chain = 0
    history = []
    war_draw = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        result = play_round(p1, p2, rules)
        if isinstance(result, tuple):
            wars += 1
            _, c1, c2 = result
            war_winner, cycles = _war(p1, p2, c1, c2, rules)
            longest_chain = max(longest_chain, cycles)
            if war_winner == "draw":
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
    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
