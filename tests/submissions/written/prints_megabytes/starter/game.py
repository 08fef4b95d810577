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


DEBUG = True  # TODO turn off before submitting


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if DEBUG:
        print(f"[play_round] before: P1 ({p1.size()}) {p1}")
        print(f"[play_round] before: P2 ({p2.size()}) {p2}")
    if p1.is_empty() and p2.is_empty():
        print("[play_round] both empty -> draw")
        return "draw"
    if p1.is_empty():
        print("[play_round] P1 empty -> P2")
        return "P2"
    if p2.is_empty():
        print("[play_round] P2 empty -> P1")
        return "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    print(f"[play_round] P1 plays {c1} ({card_value(c1)}), P2 plays {c2} ({card_value(c2)})")
    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        result = "P1"
    elif card_value(c2) > card_value(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        result = "P2"
    else:
        print("[play_round] TIE!!! -> war")
        return ("war", c1, c2)
    if DEBUG:
        print(f"[play_round] {result} wins. after: P1 {p1} | P2 {p2}")
    return result


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _war(p1, p2, c1, c2, rules)[0]


def _dump(pile, queue):
    while not pile.is_empty():
        card = pile.pop()
        print(f"    [collect] {card} -> back of queue")
        queue.enqueue(card)


def _collect(queue, own, other, rules):
    print(f"  [war] collecting ({rules.collect}) own={own} other={other}")
    if rules.collect == "loser_first":
        _dump(other, queue)
        _dump(own, queue)
    else:
        _dump(own, queue)
        _dump(other, queue)


def _war(p1, p2, c1, c2, rules):
    print(f"  [war] WAR on {c1} vs {c2}! P1 has {p1.size()}, P2 has {p2.size()}")
    pile1 = Stack()
    pile2 = Stack()
    pile1.push(c1)
    pile2.push(c2)
    chain = 1
    need = rules.face_down + 1
    while True:
        print(f"  [war] cycle {chain}: P1 {p1} / P2 {p2}")
        if p1.size() < need and p2.size() < need:
            print("  [war] both players are short -> draw")
            _dump(pile1, p1)
            _dump(pile2, p2)
            return "draw", chain
        if p1.size() < need:
            print("  [war] P1 is short -> P2 takes everything")
            _collect(p2, pile2, pile1, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", chain
        if p2.size() < need:
            print("  [war] P2 is short -> P1 takes everything")
            _collect(p1, pile1, pile2, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", chain
        for _ in range(rules.face_down):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        up1 = p1.dequeue()
        up2 = p2.dequeue()
        pile1.push(up1)
        pile2.push(up2)
        print(f"  [war] face up: {up1} vs {up2}; piles {pile1} / {pile2}")
        if card_value(up1) > card_value(up2):
            _collect(p1, pile1, pile2, rules)
            print(f"  [war] P1 wins the war, P1 now {p1}")
            return "P1", chain
        if card_value(up2) > card_value(up1):
            _collect(p2, pile2, pile1, rules)
            print(f"  [war] P2 wins the war, P2 now {p2}")
            return "P2", chain
        print("  [war] tie again!")
        chain += 1


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    print(f"=== play_game(max_rounds={max_rounds}, seed={seed}, deck={deck}, rules={rules}) ===")
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    cards = shuffle(make_deck(), seed) if deck is None else list(deck)
    p1, p2 = deal(cards)
    rounds = wars = longest = 0
    history = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        print(f"----- round {rounds} ----- P1: {p1} P2: {p2}")
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            winner, chain = _war(p1, p2, outcome[1], outcome[2], rules)
            longest = max(longest, chain)
            drawn = winner == "draw"
        history.append((p1.size(), p2.size()))
        print(f"sizes after round {rounds}: {history[-1]}  history so far: {history}")
        if drawn:
            break
    if not drawn and p2.is_empty() and not p1.is_empty():
        result = "P1"
    elif not drawn and p1.is_empty() and not p2.is_empty():
        result = "P2"
    else:
        result = "draw"
    print(f"=== game over: {result} after {rounds} rounds, {wars} wars, longest chain {longest} ===")
    return GameResult(result, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
