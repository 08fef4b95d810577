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
    if type(card) is not str:
        raise ValueError(f"not a card: {card!r} is not a string")
    if card == JOKER:
        return 14
    elif card == "K":
        return 13
    elif card == "Q":
        return 12
    elif card == "J":
        return 11
    elif card.isdigit() and card in RANKS:  # "1" .. "10"
        return int(card)
    else:
        raise ValueError(f"not a card: {card!r}")


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck: list[str] = []
    for rank in RANKS:
        for _ in range(4):
            deck.append(rank)
    if jokers:
        for _ in range(2):
            deck.append(JOKER)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    return cards


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    to_p1 = True
    for card in deck:
        (p1 if to_p1 else p2).enqueue(card)
        to_p1 = not to_p1
    return p1, p2
