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
    faces = {"J": 11, "Q": 12, "K": 13, "Jo": 14}
    if type(card) is not str:
        raise ValueError(f"not a card: {card!r}")
    if card in faces:
        return faces[card]
    if card in RANKS:
        return int(card)
    raise ValueError(f"not a card: {card!r}")


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    for rank in RANKS:
        for i in range(4):
            deck.append(rank)
    if jokers:
        for i in range(2):
            deck.append(JOKER)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    shuffled = list(deck)
    random.Random(seed).shuffle(shuffled)
    return shuffled


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1 = Queue()
    p2 = Queue()
    i = 0
    while i < len(deck):
        p1.enqueue(deck[i])
        if i + 1 < len(deck):
            p2.enqueue(deck[i + 1])
        i += 2
    return p1, p2
