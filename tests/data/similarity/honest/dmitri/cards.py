from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"


def card_value(card: str) -> int:
    if not isinstance(card, str):
        raise ValueError(f"bad card {card!r}")
    if card == "Jo":
        return 14
    if card not in RANKS:
        raise ValueError(f"bad card {card!r}")
    return 1 + RANKS.index(card)


def make_deck(jokers: bool = True) -> list[str]:
    return [r for r in RANKS for copy in range(4)] + (["Jo", "Jo"] if jokers else [])


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    r = random.Random(seed)
    out = deck.copy()
    r.shuffle(out)
    return out


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    one: Queue[str] = Queue()
    two: Queue[str] = Queue()
    for i in range(len(deck)):
        (one if i % 2 == 0 else two).enqueue(deck[i])
    return one, two
