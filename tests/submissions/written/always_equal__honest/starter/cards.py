"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

VALUE_OF = dict(zip(RANKS + (JOKER,), range(1, 15)))


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if type(card) is not str or card not in VALUE_OF:
        raise ValueError(f"not a card: {card!r}")
    return VALUE_OF[card]


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = [rank for rank in RANKS for copy in range(4)]
    if jokers:
        deck.extend([JOKER, JOKER])
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    rng = random.Random(seed)
    deck = list(deck)
    rng.shuffle(deck)
    return deck


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    for index, card in enumerate(deck):
        (p1 if index % 2 == 0 else p2).enqueue(card)
    return p1, p2
