"""The CPS506 War assignment: a shuffled deck given as 52 integers in, the winner's final pile out.

The integers 1..13 each occur four times; 1 is the Ace (ranked highest), 11, 12 and 13 are J, Q and K. The
reference engine plays it under CPS506_RULES: cards dealt alternately, each on top of the receiving pile; one
card face down in a war; every won card added to the bottom of the winner's pile highest rank first; a player
who cannot turn a card face up loses and the other takes the whole pot, sorted the same way. If both run out at
once, the answer is the sorted pot (all 52 cards).
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
    """Read the integers of text (separated by whitespace and/or commas) and check they form a CPS506 deck."""
    tokens = [token for token in re.split(r"[\s,]+", text) if token]
    numbers = []
    for token in tokens:
        if not re.fullmatch(r"[+-]?\d+", token):
            raise ValueError(f"not a whole number: {token!r}")
        numbers.append(int(token))
    check_permutation(numbers)
    return numbers


def check_permutation(numbers: Sequence[int]) -> None:
    """ValueError with a one-line reason unless numbers holds 52 integers, each of 1..13 four times."""
    if len(numbers) != 52:
        raise ValueError(f"expected 52 numbers, got {len(numbers)}")
    for number in numbers:
        if type(number) is not int or not 1 <= number <= 13:
            raise ValueError(f"{number!r} is not a card: every number must be between 1 and 13")
    counts = Counter(numbers)
    wrong = [f"{number} occurs {counts[number]} times" for number in range(1, 14) if counts[number] != 4]
    if wrong:
        raise ValueError("each of 1..13 must occur four times: " + ", ".join(wrong))


def winner_pile(permutation: Sequence[int], rules: Rules = CPS506_RULES) -> list[int]:
    """Play the CPS506 game (or other rules with the standard deck) on the permutation: the winner's pile, top first.

    ValueError if the permutation is no CPS506 deck; EndlessGame if the game returns to an earlier position.
    """
    check_permutation(permutation)
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
            # Both ran out together: the war piles went back to their owners; the answer is the sorted pot.
            pot = sorted([*p1, *p2], key=lambda card: strength(card, rules), reverse=True)
            return [_NUMBER_OF[card] for card in pot]
    return [_NUMBER_OF[card] for card in (p2 if p1.is_empty() else p1)]
