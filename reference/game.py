"""Rounds, wars and whole games of War, played on two queues."""

from __future__ import annotations

import random as _random
from dataclasses import dataclass

from .cards import card_value, deal, make_deck
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
    return _battle(p1, p2, rules, _values(rules), _SHARED_RNG)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    return _fight_war(p1, p2, c1, c2, rules, _values(rules), _SHARED_RNG)[0]


_SHARED_RNG = _random.Random()
"""Orders "shuffled" pick-ups for play_round and resolve_war called on their own; play_game uses its seeded one."""

_TABLES: dict[tuple[str, str | None], dict[str, int]] = {}
"""Card strengths per (deck, high card), built once."""


def _values(rules: Rules) -> dict[str, int]:
    """Map every card of the rules' deck to its strength: natural order, the rules' high card on top."""
    key = (rules.deck, rules.high_card)
    table = _TABLES.get(key)
    if table is None:
        order = sorted(set(_new_deck(rules)), key=card_value)
        high = rules.high_card
        assert high is not None  # Rules resolves the deck's usual high card in __post_init__
        order.remove(high)
        order.append(high)
        table = _TABLES[key] = {card: strength for strength, card in enumerate(order, start=1)}
    return table


def _strength(card: str, values: dict[str, int]) -> int:
    """The card's strength in the table; ValueError (the handout's message where it applies) for a non-card."""
    strength = values.get(card) if type(card) is str else None
    if strength is None:
        card_value(card)  # raises for anything that is no card at all
        raise ValueError(f"not a card of this deck: {card!r} (expected one of {', '.join(values)})")
    return strength


def _new_deck(rules: Rules) -> list[str]:
    """The unshuffled deck the rules play with."""
    return make_deck(jokers=rules.deck == "handout")


def _deal(cards: list[str], rules: Rules) -> tuple[Queue[str], Queue[str]]:
    """Split the cards into P1's and P2's queues, front first, the way the rules deal."""
    if rules.deal == "alternate":
        return deal(cards)
    if rules.deal == "alternate_on_top":
        hands = (cards[0::2][::-1], cards[1::2][::-1])
    else:
        half = (len(cards) + 1) // 2
        hands = (cards[:half], cards[half:])
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    for queue, hand in zip((p1, p2), hands):
        for card in hand:
            queue.enqueue(card)
    return p1, p2


def _battle(
    p1: Queue[str], p2: Queue[str], rules: Rules, values: dict[str, int], rng: _random.Random
) -> str | tuple[str, str, str]:
    """play_round with the strength table and the generator for "shuffled" pick-ups passed in."""
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        return "P2" if p1.is_empty() else "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    v1 = values.get(c1) if type(c1) is str else None  # _strength inlined: this runs every round
    v2 = values.get(c2) if type(c2) is str else None
    if v1 is None or v2 is None:
        v1, v2 = _strength(c1, values), _strength(c2, values)  # raises, naming the first non-card
    if v1 == v2:
        return ("war", c1, c2)
    winner, name, first, second = (p1, "P1", c1, c2) if v1 > v2 else (p2, "P2", c2, c1)
    # The winner's card first under "winner_first", "loser_first" (which is about war piles) and "sorted".
    if rules.collect == "played":
        first, second = c1, c2
    elif rules.collect == "shuffled" and rng.random() < 0.5:
        first, second = second, first
    winner.enqueue(first)
    winner.enqueue(second)
    return name


def _fight_war(
    p1: Queue[str],
    p2: Queue[str],
    c1: str,
    c2: str,
    rules: Rules,
    values: dict[str, int],
    rng: _random.Random,
) -> tuple[str, int]:
    """Fight a war and also say its chain length: 1, plus 1 for every face-up tie."""
    pile1: Stack[str] = Stack()
    pile2: Stack[str] = Stack()
    pile1.push(c1)
    pile2.push(c2)
    played = [c1, c2]
    need = rules.face_down + 1 if rules.short_war == "forfeit" else 1
    lay_down = rules.short_war in ("lay_down", "lay_down_if_both")
    none_if_empty = rules.short_war == "lay_down_if_both"
    chain = 1
    while True:
        if none_if_empty and (p1.is_empty() or p2.is_empty()):  # nobody lays a card down: the empty hand loses
            p1_short, p2_short = p1.is_empty(), p2.is_empty()
        elif lay_down:  # both place what they have of face_down cards, then whoever has no card to turn up is short
            down1, down2 = min(rules.face_down, p1.size()), min(rules.face_down, p2.size())
            _lay(p1, p2, pile1, pile2, down1, down2, played)
            p1_short = down1 < rules.face_down or p1.is_empty()
            p2_short = down2 < rules.face_down or p2.is_empty()
        else:
            p1_short, p2_short = p1.size() < need, p2.size() < need
        if p1_short and p2_short:
            _return_pile(pile1, p1)
            _return_pile(pile2, p2)
            return "draw", chain
        if p1_short:
            _collect(p2, pile2, pile1, played, rules, values, rng)
            _take_rest(p2, p1)
            return "P2", chain
        if p2_short:
            _collect(p1, pile1, pile2, played, rules, values, rng)
            _take_rest(p1, p2)
            return "P1", chain
        if lay_down:  # the face-down cards are on the table already: turn one card up each
            _lay(p1, p2, pile1, pile2, 1, 1, played)
        else:  # each keeps one card to turn face up ("play_out" may place fewer than face_down face down)
            down1, down2 = min(rules.face_down, p1.size() - 1), min(rules.face_down, p2.size() - 1)
            up = max(down1, down2)
            for step in range(up + 1):  # card by card, P1's then P2's; the face-up cards at step `up`
                if step < down1 or step == up:
                    played.append(p1.dequeue())
                    pile1.push(played[-1])
                if step < down2 or step == up:
                    played.append(p2.dequeue())
                    pile2.push(played[-1])
        v1, v2 = _strength(pile1.peek(), values), _strength(pile2.peek(), values)
        if v1 > v2:
            _collect(p1, pile1, pile2, played, rules, values, rng)
            return "P1", chain
        if v2 > v1:
            _collect(p2, pile2, pile1, played, rules, values, rng)
            return "P2", chain
        chain += 1


def _lay(
    p1: Queue[str], p2: Queue[str], pile1: Stack[str], pile2: Stack[str], count1: int, count2: int, played: list[str]
) -> None:
    """Move count1 cards of P1's queue onto its war pile and count2 of P2's, card by card, P1's then P2's."""
    for step in range(max(count1, count2)):
        if step < count1:
            played.append(p1.dequeue())
            pile1.push(played[-1])
        if step < count2:
            played.append(p2.dequeue())
            pile2.push(played[-1])


def _collect(
    winner: Queue[str],
    own: Stack[str],
    other: Stack[str],
    played: list[str],
    rules: Rules,
    values: dict[str, int],
    rng: _random.Random,
) -> None:
    """Empty both war piles onto the back of the winner's queue in the order the rules say."""
    if rules.collect in ("winner_first", "loser_first"):
        first, second = (own, other) if rules.collect == "winner_first" else (other, own)
        _return_pile(first, winner)
        _return_pile(second, winner)
        return
    pot = _pop_all(own) + _pop_all(other)  # empties both piles
    if rules.collect == "played":
        pot = played
    elif rules.collect == "sorted":
        pot.sort(key=values.__getitem__, reverse=True)
    else:
        rng.shuffle(pot)
    for card in pot:
        winner.enqueue(card)


def _pop_all(pile: Stack[str]) -> list[str]:
    """Pop the pile until it is empty and return its cards, top first."""
    cards = []
    while not pile.is_empty():
        cards.append(pile.pop())
    return cards


def _return_pile(pile: Stack[str], queue: Queue[str]) -> None:
    """Pop the pile until it is empty, enqueuing each card: its top card goes in first."""
    while not pile.is_empty():
        queue.enqueue(pile.pop())


def _take_rest(winner: Queue[str], loser: Queue[str]) -> None:
    """Move the short player's remaining cards, front first, to the back of the winner's queue."""
    while not loser.is_empty():
        winner.enqueue(loser.dequeue())


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError(f"max_rounds must be a whole number >= 0, not {max_rounds!r}")
    rng = _random.Random(seed)  # shuffles the deck exactly as shuffle(deck, seed), then any "shuffled" pick-up
    if deck is None:
        cards = _new_deck(rules)
        rng.shuffle(cards)
    else:
        cards = list(deck)
    p1, p2 = _deal(cards, rules)
    return _play(p1, p2, rules, max_rounds, rng)


def _play(p1: Queue[str], p2: Queue[str], rules: Rules, max_rounds: int, rng: _random.Random) -> GameResult:
    """Play dealt queues to the end of the game (or max_rounds rounds), leaving the final cards in them."""
    values = _values(rules)
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    drawn = False
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = _battle(p1, p2, rules, values, rng)
        if isinstance(outcome, tuple):
            wars += 1
            winner, chain = _fight_war(p1, p2, outcome[1], outcome[2], rules, values, rng)
            longest = max(longest, chain)
            drawn = winner == "draw"
        history.append((p1.size(), p2.size()))
        if drawn:
            break
    if not drawn and p2.is_empty() and not p1.is_empty():
        result = "P1"
    elif not drawn and p1.is_empty() and not p2.is_empty():
        result = "P2"
    else:
        result = "draw"
    return GameResult(result, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
