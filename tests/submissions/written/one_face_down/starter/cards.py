"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

_STRENGTH = {rank: value for value, rank in enumerate(RANKS, start=1)}
_STRENGTH[JOKER] = 14


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    try:
        if type(card) is str:
            return _STRENGTH[card]
    except KeyError:
        pass
    raise ValueError(f"not a card: {card!r}")


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = [rank for rank in RANKS for _ in range(4)]
    return deck + [JOKER, JOKER] if jokers else deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    shuffled = deck.copy()
    random.Random(seed).shuffle(shuffled)
    return shuffled


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    players = (Queue(), Queue())
    for position, card in enumerate(deck):
        players[position % 2].enqueue(card)
    return players
