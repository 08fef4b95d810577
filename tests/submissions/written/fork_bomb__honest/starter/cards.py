"""Cards as strings, their order, and building, shuffling and dealing a deck."""

from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

cardValues = {}
value = 1
for rank in RANKS:
    cardValues[rank] = value
    value += 1
cardValues[JOKER] = value  # 14


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if type(card) is not str or card not in cardValues:
        raise ValueError("Invalid card: " + repr(card))
    return cardValues[card]


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    newDeck = []
    for rank in RANKS:
        for suit in range(4):
            newDeck.append(rank)
    if jokers == True:
        newDeck.append(JOKER)
        newDeck.append(JOKER)
    return newDeck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    shuffledDeck = list(deck)
    generator = random.Random(seed)
    generator.shuffle(shuffledDeck)
    return shuffledDeck


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    playerOne = Queue()
    playerTwo = Queue()
    for i in range(len(deck)):
        if i % 2 == 0:
            playerOne.enqueue(deck[i])
        else:
            playerTwo.enqueue(deck[i])
    return playerOne, playerTwo
