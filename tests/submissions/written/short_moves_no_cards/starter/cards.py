"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

# card -> strength. "1" is 1 ... "K" is 13, and the joker is 14
VALUES = {}
i = 0
while i < len(RANKS):
    VALUES[RANKS[i]] = i + 1
    i += 1
VALUES[JOKER] = 14


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if type(card) != str or card not in VALUES:
        raise ValueError("not a card: " + repr(card))
    return VALUES[card]


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    r = 0
    while r < len(RANKS):
        n = 0
        while n < 4:
            deck.append(RANKS[r])
            n += 1
        r += 1
    if jokers:
        deck.append(JOKER)
        deck.append(JOKER)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    new_deck = list(deck)
    rng = random.Random(seed)
    rng.shuffle(new_deck)
    return new_deck


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1 = Queue()
    p2 = Queue()
    i = 0
    while i < len(deck):
        if i % 2 == 0:
            p1.enqueue(deck[i])
        else:
            p2.enqueue(deck[i])
        i += 1
    return p1, p2
