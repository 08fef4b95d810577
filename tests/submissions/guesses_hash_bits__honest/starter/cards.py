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
    raise NotImplementedError(
        "card_value: return 1..13 for the ranks in RANKS order and 14 for JOKER; "
        "raise ValueError naming the card (its repr) for anything else"
    )


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    raise NotImplementedError(
        "make_deck: return a new list, four of each rank in RANKS order, then two JOKERs unless jokers is False"
    )


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    raise NotImplementedError(
        "shuffle: return a shuffled copy of deck (leave deck unchanged), e.g. with random.Random(seed)"
    )


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    raise NotImplementedError("deal: enqueue the cards alternately, first card to P1, and return (p1, p2)")
