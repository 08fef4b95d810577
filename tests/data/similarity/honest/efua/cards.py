from __future__ import annotations

import random

from .structures import Queue

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER: str = "Jo"


def card_value(card: str) -> int:
    table = dict(zip(RANKS + (JOKER,), range(1, 15)))
    if isinstance(card, str) and card in table:
        return table[card]
    raise ValueError("card_value got %s" % repr(card))


def make_deck(jokers: bool = True) -> list[str]:
    deck = []
    i = 0
    while i < len(RANKS) * 4:
        deck.append(RANKS[i // 4])
        i += 1
    if jokers:
        deck.extend((JOKER, JOKER))
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    chooser = random.Random(seed)
    remaining = list(deck)
    chooser.shuffle(remaining)
    return remaining


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    player_one = Queue()
    player_two = Queue()
    cards = iter(deck)
    for card in cards:
        player_one.enqueue(card)
        following = next(cards, None)
        if following is not None:
            player_two.enqueue(following)
    return player_one, player_two
