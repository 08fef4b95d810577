"""Your War package: queues, stacks, cards, rounds, wars and whole games (see ASSIGNMENT.md)."""

from .cards import JOKER, RANKS, card_value, deal, make_deck, shuffle
from .game import GameResult, play_game, play_round
from .rules import DEFAULT_RULES, Rules
from .structures import Queue, Stack

__all__ = [
    "DEFAULT_RULES",
    "JOKER",
    "RANKS",
    "GameResult",
    "Queue",
    "Rules",
    "Stack",
    "card_value",
    "deal",
    "make_deck",
    "play_game",
    "play_round",
    "shuffle",
]
