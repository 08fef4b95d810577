from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"


def card_value(card: str) -> int:
    strengths = {}
    for strength, rank in enumerate(RANKS, 1):
        strengths[rank] = strength
    strengths[JOKER] = 14
    if card in strengths:
        return strengths[card]
    raise ValueError("Unknown card: " + repr(card))


def make_deck(jokers: bool = True) -> list[str]:
    new_deck = []
    for rank in RANKS:
        for suit in range(4):
            new_deck.append(rank)
    for joker in range(2 if jokers else 0):
        new_deck.append(JOKER)
    return new_deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    random_source = random.Random(seed)
    mixed = list(deck)
    for position in range(len(mixed) - 1, 0, -1):
        other = random_source.randint(0, position)
        mixed[position], mixed[other] = mixed[other], mixed[position]
    return mixed


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    players = [Queue(), Queue()]
    for position, card in enumerate(deck):
        players[position % 2].enqueue(card)
    return players[0], players[1]
