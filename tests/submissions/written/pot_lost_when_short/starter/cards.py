"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random
from functools import total_ordering

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""


@total_ordering
class _Card:
    """A card string wrapped so that cards compare by rank with < > ==, not as text."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        if text == JOKER:
            self.value = len(RANKS) + 1  # 14, above the King
        elif text in RANKS:
            self.value = RANKS.index(text) + 1
        else:
            raise ValueError(f"not a card: {text!r}")
        self.text = text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Card):
            return NotImplemented
        return self.value == other.value

    def __lt__(self, other: "_Card") -> bool:
        return self.value < other.value

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"_Card({self.text!r})"


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    return _Card(card).value


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = []
    for rank in RANKS:
        deck.extend([rank] * 4)
    if jokers:
        deck.extend([JOKER] * 2)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    copy = deck[:]
    random.Random(seed).shuffle(copy)
    return copy


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1: Queue[str] = Queue()
    p2: Queue[str] = Queue()
    hands = (p1, p2)
    for i, card in enumerate(deck):
        hands[i % 2].enqueue(card)
    return p1, p2
