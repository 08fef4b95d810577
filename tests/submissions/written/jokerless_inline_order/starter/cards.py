"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker's name (this program leaves it out: a deck of the 52 ranked cards)."""


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K"; ValueError otherwise."""
    return RANKS.index(card) + 1


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank (52 cards)."""
    deck = []
    for rank in RANKS:
        deck.extend([rank] * 4)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    rng = random.Random(seed)
    new_deck = list(deck)
    rng.shuffle(new_deck)
    return new_deck


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    for i in range(len(deck)):
        if i % 2 == 0:
            p1.enqueue(deck[i])
        else:
            p2.enqueue(deck[i])
    return p1, p2
