from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"

VALUES = {rank: position for position, rank in enumerate(RANKS, start=1)}
VALUES[JOKER] = 14


def card_value(card: str) -> int:
    try:
        return VALUES[card]
    except (KeyError, TypeError):
        raise ValueError("unknown card " + repr(card)) from None


def make_deck(jokers: bool = True) -> list[str]:
    result = []
    for rank in RANKS:
        result.extend([rank] * 4)
    return result + ([JOKER] * 2 if jokers else [])


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    rng = random.Random(seed)
    return rng.sample(deck, len(deck))


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    first: Queue[str] = Queue()
    second: Queue[str] = Queue()
    for card in deck[0::2]:
        first.enqueue(card)
    for card in deck[1::2]:
        second.enqueue(card)
    return first, second
