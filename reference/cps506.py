"""The CPS506 War assignment: a shuffled deck given as integers 1..13 in, the winner's final pile out.

The assignment deals a permutation of 52 integers, each of 1..13 four times; 1 is the Ace (ranked highest), 11,
12 and 13 are J, Q and K. Its published test suites also play small decks (6 cards, 20 cards...) and decks with a
rank more than four times, so any two or more integers 1..13 play; deck_note says when they are no full deck.
The reference engine plays it under CPS506_RULES: cards dealt alternately, each on top of the receiving pile; one
card face down in a war, laid only while both players hold a card; every won card added to the bottom of the
winner's pile highest rank first; a player with no card to lay face down or to turn face up loses, and the other
adds the cards on the table, sorted the same way, under the cards it holds. If both run out together, the answer is the whole pot, sorted: every card of the deck.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from .game import play_round, resolve_war
from .rules import CPS506_RULES, Rules
from .variants import deal_cards, strength

_CARD_OF: dict[int, str] = {number: str(number) for number in range(1, 11)} | {11: "J", 12: "Q", 13: "K"}
_NUMBER_OF: dict[str, int] = {card: number for number, card in _CARD_OF.items()}


class EndlessGame(Exception):
    """The deal repeats a position, so the game would never end and there is no winner's pile."""


def parse_permutation(text: str) -> list[int]:
    """Read the integers of text (separated by whitespace and/or commas) and check they are a deck to play."""
    tokens = [token for token in re.split(r"[\s,]+", text) if token]
    numbers = []
    for token in tokens:
        if not re.fullmatch(r"[+-]?\d+", token):
            raise ValueError(f"not a whole number: {token!r}")
        numbers.append(int(token))
    check_deck(numbers)
    return numbers


def check_deck(numbers: Sequence[int]) -> None:
    """ValueError with a one-line reason unless numbers holds at least 2 integers, each between 1 and 13."""
    for number in numbers:
        if type(number) is not int or not 1 <= number <= 13:
            raise ValueError(f"{number!r} is not a card: every number must be between 1 and 13")
    if len(numbers) < 2:
        raise ValueError(f"expected at least 2 numbers (a full deck is 52), got {len(numbers)}")


def deck_note(numbers: Sequence[int]) -> str | None:
    """None for a full CPS506 deck (52 numbers, each of 1..13 four times), else a one-line note on how it differs."""
    counts = Counter(numbers)
    ranks = range(1, 14)
    if len(numbers) == 52:
        wrong = [number for number in ranks if counts[number] != 4]
        if not wrong:
            return None
    else:
        wrong = [number for number in ranks if counts[number] > 4]  # a short deck lacks ranks: no news
    parts = [f"{len(numbers)} numbers, not 52"] if len(numbers) != 52 else []
    parts += [f"{number} occurs {counts[number]} time{'s' * (counts[number] != 1)}, not 4" for number in wrong]
    return "not a full deck (" + "; ".join(parts) + "): playing it as given"


def winner_pile(permutation: Sequence[int], rules: Rules = CPS506_RULES) -> list[int]:
    """Play the CPS506 game (or other rules with the standard deck) on the deck: the winner's pile, top first.

    ValueError if the numbers are no deck to play; EndlessGame if the game returns to an earlier position.
    """
    check_deck(permutation)
    p1, p2 = deal_cards([_CARD_OF[number] for number in permutation], rules)
    seen: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
    while not p1.is_empty() and not p2.is_empty():
        position = (tuple(p1), tuple(p2))
        if position in seen:
            raise EndlessGame(
                f"the game never ends: after round {len(seen)} it is back where it was after round {seen[position]}"
            )
        seen[position] = len(seen)
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple) and resolve_war(p1, p2, outcome[1], outcome[2], rules) == "draw":
            # Both ran out together (the war piles went back to their owners): the answer is the whole pot, sorted.
            pot = sorted([*p1, *p2], key=lambda card: strength(card, rules), reverse=True)
            return [_NUMBER_OF[card] for card in pot]
    return [_NUMBER_OF[card] for card in (p2 if p1.is_empty() else p1)]
