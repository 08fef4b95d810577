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
    if not isinstance(card, str):
        raise ValueError("card must be a string, got " + repr(card))
    if card == JOKER:
        return 14
    elif card == "K":
        return 13
    elif card == "Q":
        return 12
    elif card == "J":
        return 11
    elif card in RANKS:
        # number cards are worth their number
        return int(card)
    else:
        raise ValueError("unknown card: " + repr(card))


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    for rank in RANKS:
        for suit in range(4):
            deck.append(rank)
    if jokers:
        deck += [JOKER, JOKER]
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    copy = list(deck)
    r = random.Random(seed)
    r.shuffle(copy)
    return copy


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1 = Queue()
    p2 = Queue()
    for i, card in enumerate(deck):
        if i % 2 == 0:
            p1.enqueue(card)
        else:
            p2.enqueue(card)
    return p1, p2
