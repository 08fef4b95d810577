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


FACE_DOWN = 2  # cards each player puts face down in a war


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if p1.is_empty():
        if p2.is_empty():
            return "draw"
        return "P2"
    if p2.is_empty():
        return "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    if card_value(c1) > card_value(c2):
        winner, name = p1, "P1"
        cards = [c1, c2]
    elif card_value(c2) > card_value(c1):
        winner, name = p2, "P2"
        cards = [c2, c1]
    else:
        return ("war", c1, c2)
    for c in cards:
        winner.enqueue(c)
    return name


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _do_war(p1, p2, c1, c2, rules)[0]


def _unload(pile, q):
    while not pile.is_empty():
        q.enqueue(pile.pop())


def _winner_takes(q, own, opp, rules):
    if rules.collect == "loser_first":
        _unload(opp, q)
        _unload(own, q)
    else:
        _unload(own, q)
        _unload(opp, q)


def _do_war(p1, p2, c1, c2, rules):
    pile1, pile2 = Stack(), Stack()
    pile1.push(c1)
    pile2.push(c2)
    chain = 0
    while True:
        chain += 1
        # need FACE_DOWN cards + 1 face up card
        enough1 = p1.size() > FACE_DOWN
        enough2 = p2.size() > FACE_DOWN
        if not enough1 and not enough2:
            _unload(pile1, p1)
            _unload(pile2, p2)
            return "draw", chain
        if not enough1:
            _winner_takes(p2, pile2, pile1, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", chain
        if not enough2:
            _winner_takes(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", chain
        for _ in range(FACE_DOWN):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        if card_value(up1) > card_value(up2):
            _winner_takes(p1, pile1, pile2, rules)
            return "P1", chain
        if card_value(up2) > card_value(up1):
            _winner_takes(p2, pile2, pile1, rules)
            return "P2", chain


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError("max_rounds must be a non-negative int")
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(list(deck))
    rounds = 0
    wars = 0
    longest = 0
    history = []
    ended_in_draw = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if outcome not in ("P1", "P2"):
            wars += 1
            who, chain = _do_war(p1, p2, outcome[1], outcome[2], rules)
            longest = max(longest, chain)
            ended_in_draw = who == "draw"
        history.append((p1.size(), p2.size()))
        if ended_in_draw:
            break
    if ended_in_draw:
        result = "draw"
    elif p2.is_empty() and not p1.is_empty():
        result = "P1"
    elif p1.is_empty() and not p2.is_empty():
        result = "P2"
    else:
        result = "draw"
    return GameResult(result, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
