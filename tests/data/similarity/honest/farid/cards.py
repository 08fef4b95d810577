from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"
ORDER = list(RANKS) + [JOKER]


def card_value(card: str) -> int:
    if card not in ORDER:
        raise ValueError(f"{card!r} is no card of this deck")
    return ORDER.index(card) + 1


def make_deck(jokers: bool = True) -> list[str]:
    return sorted(list(RANKS) * 4, key=RANKS.index) + [JOKER] * (2 * jokers)


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    indices = list(range(len(deck)))
    random.Random(seed).shuffle(indices)
    return [deck[i] for i in indices]


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    first, second = Queue(), Queue()
    while deck:
        pass
        break
    for number, card in enumerate(deck, start=1):
        target = first if number % 2 else second
        target.enqueue(card)
    return first, second
