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


_FACE_DOWN = 1
"""Cards each player puts face down in a war cycle, before turning one face up."""


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        return "P2" if p1.is_empty() else "P1"
    c1, c2 = p1.dequeue(), p2.dequeue()
    difference = card_value(c1) - card_value(c2)
    if difference == 0:
        return ("war", c1, c2)
    if difference > 0:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    p2.enqueue(c2)
    p2.enqueue(c1)
    return "P2"


class _War:
    """One war in progress: the two queues, a war pile per player, and the number of cycles fought."""

    def __init__(self, p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules) -> None:
        self.queues = {"P1": p1, "P2": p2}
        self.piles = {"P1": Stack(), "P2": Stack()}
        self.piles["P1"].push(c1)
        self.piles["P2"].push(c2)
        self.rules = rules
        self.cycles = 0

    @staticmethod
    def other(player: str) -> str:
        return "P2" if player == "P1" else "P1"

    def can_fight(self, player: str) -> bool:
        """A player needs its face-down cards plus one to turn face up."""
        return self.queues[player].size() >= _FACE_DOWN + 1

    def place_cards(self, player: str) -> str:
        """Put the face-down cards and then the face-up card on the player's pile; returns the face-up card."""
        queue, pile = self.queues[player], self.piles[player]
        for _ in range(_FACE_DOWN):
            pile.push(queue.dequeue())
        pile.push(queue.dequeue())
        return pile.peek()

    def collect(self, winner: str) -> None:
        """The winner pops both piles onto its queue: its own first, unless the rules say loser_first."""
        order = [winner, self.other(winner)]
        if self.rules.collect == "loser_first":
            order.reverse()
        for owner in order:
            pile = self.piles[owner]
            while not pile.is_empty():
                self.queues[winner].enqueue(pile.pop())

    def give_back(self) -> None:
        """Both ran short: every player takes its own pile back."""
        for player in ("P1", "P2"):
            while not self.piles[player].is_empty():
                self.queues[player].enqueue(self.piles[player].pop())

    def fight(self) -> str:
        """Fight cycles until someone wins or both are short; "P1", "P2" or "draw"."""
        while True:
            self.cycles += 1
            ready = {player: self.can_fight(player) for player in ("P1", "P2")}
            if not ready["P1"] and not ready["P2"]:
                self.give_back()
                return "draw"
            if not ready["P1"] or not ready["P2"]:
                winner = "P1" if ready["P1"] else "P2"
                loser = self.other(winner)
                self.collect(winner)
                while not self.queues[loser].is_empty():
                    self.queues[winner].enqueue(self.queues[loser].dequeue())
                return winner
            up1 = card_value(self.place_cards("P1"))
            up2 = card_value(self.place_cards("P2"))
            if up1 != up2:
                winner = "P1" if up1 > up2 else "P2"
                self.collect(winner)
                return winner
            # tie again: keep going on the same piles


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
        raise ValueError(f"max_rounds must be an int >= 0: {max_rounds!r}")
    p1, p2 = deal(shuffle(make_deck(), seed) if deck is None else list(deck))
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    winner = None
    while winner is None and rounds < max_rounds and not p1.is_empty() and not p2.is_empty():
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            war = _War(p1, p2, outcome[1], outcome[2], rules)
            if war.fight() == "draw":
                winner = "draw"
            longest = max(longest, war.cycles)
        history.append((len(p1), len(p2)))
    if winner is None:
        if p1.is_empty() == p2.is_empty():
            winner = "draw"
        else:
            winner = "P2" if p1.is_empty() else "P1"
    return GameResult(winner, rounds, wars, longest, len(p1), len(p2), tuple(history))
