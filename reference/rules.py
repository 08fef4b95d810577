"""The rule decisions a game is played under, as one frozen value."""

from __future__ import annotations

from dataclasses import dataclass

COLLECT_ORDERS: tuple[str, ...] = ("winner_first", "loser_first")
"""How the winner of a war picks up the piles: its own pile first (the handout) or the opponent's first."""


@dataclass(frozen=True)
class Rules:
    """How a war is fought and won; DEFAULT_RULES is the handout's."""

    face_down: int = 3
    """Cards each player places face down in every war cycle, before its one face-up card."""

    collect: str = "winner_first"
    """Which war pile the winner collects first: "winner_first" (its own) or "loser_first"."""

    def __post_init__(self) -> None:
        """Reject values the engine cannot play, naming the field."""
        if type(self.face_down) is not int or self.face_down < 0:
            raise ValueError(f"face_down must be a whole number >= 0, not {self.face_down!r}")
        if self.collect not in COLLECT_ORDERS:
            raise ValueError(f"collect must be one of {', '.join(COLLECT_ORDERS)}, not {self.collect!r}")


DEFAULT_RULES = Rules()
"""The handout's rules: 3 cards face down, the winner collects its own pile first."""
