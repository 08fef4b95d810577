"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

_STRENGTH = {card: n for n, card in enumerate(RANKS + (JOKER,), start=1)}


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    try:
        if isinstance(card, str):
            return _STRENGTH[card]
    except KeyError:
        pass
    raise ValueError(f"{card!r} is not a card")


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = [r for r in RANKS for _ in "abcd"]  # 4 suits
    return deck + [JOKER, JOKER] if jokers else deck


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
    players = [p1, p2]
    for i, card in enumerate(deck):
        players[i % 2].enqueue(card)
    return p1, p2
