"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

STRENGTH = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
            "J": 11, "Q": 12, "K": 13, "Jo": 14}


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if isinstance(card, str) and card in STRENGTH:
        return STRENGTH[card]
    print("DEBUG card_value got a bad card:", repr(card))
    raise ValueError(f"not a card: {card!r}")


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = [rank for rank in RANKS for _ in range(4)]
    if jokers:
        deck += [JOKER, JOKER]
    print("DEBUG make_deck:", len(deck), "cards", deck)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    print("DEBUG shuffle seed", seed, "->", cards)
    return cards


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    for i, card in enumerate(deck):
        if i % 2 == 0:
            p1.enqueue(card)
        else:
            p2.enqueue(card)
    print("DEBUG dealt p1 =", p1, "p2 =", p2)
    return p1, p2
