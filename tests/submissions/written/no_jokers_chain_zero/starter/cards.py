"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if not isinstance(card, str) or card not in RANKS:
        raise ValueError(f"not a card: {card!r}")
    return RANKS.index(card) + 1  # RANKS is weakest first, so its position is the value


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    return [rank for rank in RANKS for _copy in range(4)]


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    result = list(deck)
    random.Random(seed).shuffle(result)
    return result


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1, p2 = Queue(), Queue()
    for card in deck[0::2]:
        p1.enqueue(card)
    for card in deck[1::2]:
        p2.enqueue(card)
    return p1, p2
