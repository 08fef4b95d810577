"""The rule decisions a game is played under, as one frozen value."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from .cards import JOKER, RANKS

DECKS: tuple[str, ...] = ("handout", "standard")
"""The cards in play: the handout's 54 (four of each rank 1..K and two Jokers) or a standard 52 (no Jokers)."""

DEALS: tuple[str, ...] = ("alternate", "alternate_on_top", "halves")
"""How the deck is split: alternately with the first card on top of P1's queue (the handout), alternately with
each card placed on top of the receiving pile (the last card dealt is the top card), or P1 the first half."""

COLLECT_ORDERS: tuple[str, ...] = ("winner_first", "loser_first", "played", "sorted", "shuffled")
"""How the winner picks up the cards: its own war pile first (the handout), the opponent's war pile first,
in the order the cards were played, highest rank first, or shuffled."""

SHORT_WARS: tuple[str, ...] = ("forfeit", "play_out")
"""What a player short of cards in a war does: loses at once (the handout) or plays what it has."""


@dataclass(frozen=True)
class Rules:
    """How a war is fought and won; DEFAULT_RULES is the handout's."""

    face_down: int = 3
    """Cards each player places face down in every war cycle, before its one face-up card."""

    collect: str = "winner_first"
    """How the winner adds the won cards to the back of its queue. "winner_first": its own war pile, then the
    opponent's, each popped top first (the handout); "loser_first": the opponent's war pile first (a battle
    won outright is still taken winner's card first, as the handout's Part B says); "played": in the order
    the cards were played, P1's card then P2's at every step; "sorted": highest rank first; "shuffled": in an
    order drawn from play_game's seeded generator (play_round and resolve_war on their own use an unseeded one)."""

    deck: str = "handout"
    """"handout": 54 cards, four of each rank "1" (lowest) .. "K" and two Jokers; "standard": 52, no Joker."""

    high_card: str | None = None
    """The rank that beats every other card; the others keep their order 1 < 2 < ... < K < Jo. None means the
    deck's usual top card: "Jo" for the handout deck, "1" (the Ace, as in most published rules) for standard."""

    deal: str = "alternate"
    """"alternate": one card each in turn, first card to P1 and to the front of its queue (the handout);
    "alternate_on_top": in turn, first card to P1, each card placed on top of the receiving pile so the last
    card dealt is played first; "halves": P1 takes the first half (the odd card if any), P2 the rest."""

    short_war: str = "forfeit"
    """"forfeit": a player with fewer than face_down + 1 cards at a war cycle loses the pot and the game at
    once (the handout); "play_out": a player places up to face_down cards but keeps its last card to turn
    face up, and loses only when it has no card to turn face up; the winner then takes the whole pot."""

    def __post_init__(self) -> None:
        """Reject values the engine cannot play, naming the field; fill in the deck's usual high card."""
        if type(self.face_down) is not int or self.face_down < 0:
            raise ValueError(f"face_down must be a whole number >= 0, not {self.face_down!r}")
        for name, allowed in (
            ("collect", COLLECT_ORDERS),
            ("deck", DECKS),
            ("deal", DEALS),
            ("short_war", SHORT_WARS),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        cards = RANKS + (JOKER,) if self.deck == "handout" else RANKS
        if self.high_card is None:
            object.__setattr__(self, "high_card", JOKER if self.deck == "handout" else "1")
        elif self.high_card not in cards:
            raise ValueError(
                f"high_card must be one of {', '.join(cards)} with the {self.deck} deck, not {self.high_card!r}"
            )


DEFAULT_RULES = Rules()
"""The handout's rules: 54 cards dealt alternately, 3 cards face down, the winner collects its own pile first,
a player short of cards in a war loses the game."""

CPS506_RULES = Rules(
    face_down=1,
    collect="sorted",
    deck="standard",
    high_card="1",
    deal="alternate_on_top",
    short_war="play_out",
)
"""The CPS506 permutation assignment: 52 cards, Ace high, each card dealt on top of the receiving pile, one card
face down, won cards added highest rank first, a player who cannot turn a card face up loses."""

PRESETS: Mapping[str, Rules] = MappingProxyType({"handout": DEFAULT_RULES, "cps506": CPS506_RULES})
"""Named rule sets: "handout" (the default) and "cps506"."""
