from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"


def card_value(card: str) -> int:
    # the Joker beats everything
    for number, rank in enumerate(RANKS):
        if rank == card:
            return number + 1
    if card == JOKER:
        return len(RANKS) + 1
    raise ValueError("%r is not a card" % (card,))


def make_deck(jokers: bool = True) -> list[str]:
    deck: list[str] = []
    for rank in RANKS:
        deck += 4 * [rank]
    if jokers:
        deck.append(JOKER)
        deck.append(JOKER)
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    shuffled = deck[:]
    generator = random.Random()
    generator.seed(seed)
    generator.shuffle(shuffled)
    return shuffled


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    hands = (Queue(), Queue())
    turn = 0
    for card in deck:
        hands[turn].enqueue(card)
        turn = 1 - turn
    return hands
