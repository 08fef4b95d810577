"""The rule decisions a game is played under, as one frozen value."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rules:
    """How a war is fought and won; DEFAULT_RULES is the handout's."""

    face_down: int = 3
    """Cards each player places face down in every war cycle, before its one face-up card."""

    collect: str = "winner_first"
    """How the winner of a war adds the won cards to the back of its queue. "winner_first": its own war pile,
    then the opponent's, each popped top first (the handout); "loser_first": the opponent's war pile first,
    then its own. A round won without a war is always taken winner's card first."""

    def __post_init__(self) -> None:
        """Reject values a game cannot be played with, naming the field."""
        if type(self.face_down) is not int or self.face_down < 0:
            raise ValueError(f"face_down must be a whole number >= 0, not {self.face_down!r}")
        if self.collect not in ("winner_first", "loser_first"):
            raise ValueError(f"collect must be one of winner_first, loser_first, not {self.collect!r}")


DEFAULT_RULES = Rules()
"""The handout's rules: 3 cards face down, and the winner of a war collects its own pile first."""
