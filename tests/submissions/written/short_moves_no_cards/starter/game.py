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
    if p1.is_empty():
        if p2.is_empty():
            return "draw"
        return "P2"
    if p2.is_empty():
        return "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    v1 = card_value(c1)
    v2 = card_value(c2)
    if v1 > v2:
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    elif v2 > v1:
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    else:
        return ("war", c1, c2)


def _empty_pile_into(pile: Stack[str], queue: Queue[str]) -> None:
    # pop = top card first
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _do_war(p1, p2, c1, c2, rules):
    """Does the whole war. Returns (result, number of cycles, True if someone lost by running out of cards)."""
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    need = rules.face_down + 1
    cycles = 1
    while True:
        short1 = p1.size() < need
        short2 = p2.size() < need
        if short1 and short2:
            # both out of cards -> draw, each gets its own pile back
            _empty_pile_into(pile1, p1)
            _empty_pile_into(pile2, p2)
            return "draw", cycles, False
        if short1:
            # P1 can't play the war so P1 has lost the game
            return "P2", cycles, True
        if short2:
            return "P1", cycles, True

        i = 0
        while i < rules.face_down:
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
            i += 1
        pile1.push(p1.dequeue())
        pile2.push(p2.dequeue())

        up1 = card_value(pile1.peek())
        up2 = card_value(pile2.peek())
        if up1 > up2:
            if rules.collect == "winner_first":
                _empty_pile_into(pile1, p1)
                _empty_pile_into(pile2, p1)
            else:
                _empty_pile_into(pile2, p1)
                _empty_pile_into(pile1, p1)
            return "P1", cycles, False
        if up2 > up1:
            if rules.collect == "winner_first":
                _empty_pile_into(pile2, p2)
                _empty_pile_into(pile1, p2)
            else:
                _empty_pile_into(pile1, p2)
                _empty_pile_into(pile2, p2)
            return "P2", cycles, False
        cycles += 1  # tied again, go round with the same piles


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    result, cycles, out_of_cards = _do_war(p1, p2, c1, c2, rules)
    return result


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) != int or max_rounds < 0:
        raise ValueError("max_rounds must be an int >= 0, not " + repr(max_rounds))
    if deck is None:
        deck = shuffle(make_deck(), seed)
    p1, p2 = deal(deck)

    rounds = 0
    wars = 0
    longest_chain = 0
    history = []
    game_over = None  # set when a war ends the game (a draw, or a player who ran out of cards)
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds and game_over is None:
        rounds += 1
        r = play_round(p1, p2, rules)
        if type(r) == tuple:
            wars += 1
            result, cycles, out_of_cards = _do_war(p1, p2, r[1], r[2], rules)
            if cycles > longest_chain:
                longest_chain = cycles
            if result == "draw":
                game_over = "draw"
            elif out_of_cards:
                game_over = result  # the player who ran short lost the game
        history.append((p1.size(), p2.size()))

    if game_over is not None:
        winner = game_over
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"
    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))
