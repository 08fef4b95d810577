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


def _hand(p1: Queue[str], p2: Queue[str], who: str) -> Queue[str]:
    """The queue of player "P1" or "P2"."""
    return p1 if who == "P1" else p2


def _winner_of(c1: str, c2: str) -> str | None:
    """Which player's card is higher: "P1", "P2", or None when they are equal."""
    if card_value(c1) > card_value(c2):
        return "P1"
    if card_value(c2) > card_value(c1):
        return "P2"
    return None


def _pile_to_queue(pile: Stack[str], queue: Queue[str]) -> None:
    """Move every card of the pile to the back of the queue, top card first."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _push_cards(queue: Queue[str], pile: Stack[str], how_many: int) -> None:
    """Take how_many cards off the front of the queue and push them onto the pile in that order."""
    for _ in range(how_many):
        pile.push(queue.dequeue())


def _collect(winner: Queue[str], own_pile: Stack[str], other_pile: Stack[str], rules: Rules) -> None:
    """The winner of a war takes both piles, in the order rules.collect says."""
    if rules.collect == "loser_first":
        _pile_to_queue(other_pile, winner)
        _pile_to_queue(own_pile, winner)
    else:
        _pile_to_queue(own_pile, winner)
        _pile_to_queue(other_pile, winner)


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if p1.is_empty() and p2.is_empty():
        return "draw"
    if p1.is_empty():
        return "P2"
    if p2.is_empty():
        return "P1"
    c1, c2 = p1.dequeue(), p2.dequeue()
    winner = _winner_of(c1, c2)
    if winner == "P1":
        p1.enqueue(c1)
        p1.enqueue(c2)
    elif winner == "P2":
        p2.enqueue(c2)
        p2.enqueue(c1)
    else:
        return ("war", c1, c2)
    return winner


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    piles = {"P1": Stack(), "P2": Stack()}
    piles["P1"].push(c1)
    piles["P2"].push(c2)
    while True:
        p1_short = p1.size() < rules.face_down + 1
        p2_short = p2.size() < rules.face_down + 1
        if p1_short and p2_short:
            _pile_to_queue(piles["P1"], p1)
            _pile_to_queue(piles["P2"], p2)
            return "draw"
        if p1_short or p2_short:
            winner = "P2" if p1_short else "P1"
            loser = "P1" if p1_short else "P2"
            _collect(_hand(p1, p2, winner), piles[winner], piles[loser], rules)
            while not _hand(p1, p2, loser).is_empty():
                _hand(p1, p2, winner).enqueue(_hand(p1, p2, loser).dequeue())
            return winner
        _push_cards(p1, piles["P1"], rules.face_down)
        _push_cards(p2, piles["P2"], rules.face_down)
        _push_cards(p1, piles["P1"], 1)  # face up
        _push_cards(p2, piles["P2"], 1)
        winner = _winner_of(piles["P1"].peek(), piles["P2"].peek())
        if winner is not None:
            loser = "P2" if winner == "P1" else "P1"
            _collect(_hand(p1, p2, winner), piles[winner], piles[loser], rules)
            return winner
        # face-up cards tie: next cycle goes on top of the same piles


def _final_winner(p1: Queue[str], p2: Queue[str]) -> str:
    """P1 or P2 if the other one has no cards left, else a draw."""
    if p2.is_empty() and not p1.is_empty():
        return "P1"
    if p1.is_empty() and not p2.is_empty():
        return "P2"
    return "draw"


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if not isinstance(max_rounds, int) or isinstance(max_rounds, bool) or max_rounds < 0:
        raise ValueError(f"max_rounds has to be a non-negative int, not {max_rounds!r}")
    cards = shuffle(make_deck(), seed) if deck is None else list(deck)
    p1, p2 = deal(cards)
    rounds = 0
    wars = 0
    history = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            if resolve_war(p1, p2, outcome[1], outcome[2], rules) == "draw":
                drawn = True
        history.append((p1.size(), p2.size()))
        if drawn:
            break
    winner = "draw" if drawn else _final_winner(p1, p2)
    longest_chain = 0  # TODO: count the war cycles
    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
