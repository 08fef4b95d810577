"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

RANK_ORDER = list(RANKS) + [JOKER]


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if not isinstance(card, str) or card not in RANK_ORDER:
        raise ValueError(f"not a card: {card!r}")
    return RANK_ORDER.index(card) + 1


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    for rank in RANKS:
        deck.extend(rank for _ in range(4))
    if jokers:
        deck.extend([JOKER] * 2)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    return cards


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1, p2 = Queue(), Queue()
    for n, card in enumerate(deck):
        if n % 2:
            p2.enqueue(card)
        else:
            p1.enqueue(card)
    return p1, p2
