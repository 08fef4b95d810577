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
        if p1.is_empty():
            return "P2"
        return "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    if card_value(c1) == card_value(c2):
        return "war", c1, c2
    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    p2.enqueue(c2)
    p2.enqueue(c1)
    return "P2"


class _War:
    """One war between two queues. Keeps the number of cycles so play_game can report war chains."""

    def __init__(self, p1, p2, c1, c2, rules):
        self.p1 = p1
        self.p2 = p2
        self.rules = rules
        self.pile1 = Stack()
        self.pile2 = Stack()
        self.pile1.push(c1)
        self.pile2.push(c2)
        self.cycles = 0

    def _empty(self, pile, queue):
        while not pile.is_empty():
            queue.enqueue(pile.pop())

    def _collect(self, queue, own, other):
        if self.rules.collect == "winner_first":
            self._empty(own, queue)
            self._empty(other, queue)
        else:
            self._empty(other, queue)
            self._empty(own, queue)

    def fight(self):
        need = self.rules.face_down + 1
        while True:
            self.cycles += 1
            short1 = self.p1.size() < need
            short2 = self.p2.size() < need
            if short1 and short2:
                self._empty(self.pile1, self.p1)
                self._empty(self.pile2, self.p2)
                return "draw"
            if short1:
                self._collect(self.p2, self.pile2, self.pile1)
                while not self.p1.is_empty():
                    self.p2.enqueue(self.p1.dequeue())
                return "P2"
            if short2:
                self._collect(self.p1, self.pile1, self.pile2)
                while not self.p2.is_empty():
                    self.p1.enqueue(self.p2.dequeue())
                return "P1"
            for _ in range(self.rules.face_down):
                self.pile1.push(self.p1.dequeue())
                self.pile2.push(self.p2.dequeue())
            up1 = self.p1.dequeue()
            up2 = self.p2.dequeue()
            self.pile1.push(up1)
            self.pile2.push(up2)
            if card_value(up1) > card_value(up2):
                self._collect(self.p1, self.pile1, self.pile2)
                return "P1"
            if card_value(up2) > card_value(up1):
                self._collect(self.p2, self.pile2, self.pile1)
                return "P2"


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _War(p1, p2, c1, c2, rules).fight()


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    deck = shuffle(make_deck(), seed) if deck is None else list(deck)
    p1, p2 = deal(deck)
    rounds = wars = longest = 0
    history = []
    draw = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        # telemetry: sizes of both hands every round
        history.append((p1.size(), p2.size()))
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            war = _War(p1, p2, outcome[1], outcome[2], rules)
            if war.fight() == "draw":
                draw = True
            longest = max(longest, war.cycles)
        if draw:
            break
    if draw:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
