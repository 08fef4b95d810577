"""Cards, decks and dealing."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"


def card_value(card: str) -> int:
    if card == JOKER:
        return 14
    if card in RANKS:
        return RANKS.index(card) + 1
    raise ValueError(f"not a card: {card!r}")


def make_deck(jokers: bool = True) -> list[str]:
    deck = [rank for rank in RANKS for _ in range(4)]
    if jokers:
        deck += [JOKER, JOKER]
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    copy = list(deck)
    random.Random(seed).shuffle(copy)
    return copy


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    p1, p2 = Queue(), Queue()
    for index, card in enumerate(deck):
        if index % 2 == 0:
            p1.enqueue(card)
        else:
            p2.enqueue(card)
    return p1, p2
