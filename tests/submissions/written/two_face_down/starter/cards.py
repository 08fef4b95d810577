"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

_RANK_VALUE = {r: n for n, r in enumerate(RANKS, 1)}
_RANK_VALUE[JOKER] = 14  # joker beats everything


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if type(card) is str and card in _RANK_VALUE:
        return _RANK_VALUE[card]
    raise ValueError("not a card: %r" % (card,))


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    for r in RANKS:
        deck += [r, r, r, r]
    if jokers:
        deck += [JOKER, JOKER]
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    cards = list(deck)
    random.Random(seed).shuffle(cards)
    return cards


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    hands = (Queue(), Queue())
    for i, card in enumerate(deck):
        hands[i % 2].enqueue(card)
    return hands
